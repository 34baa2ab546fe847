#!/usr/bin/env bats
# Worlds written for gz-sim, PX4, ArduPilot and their kind, read as
# libsdformat and gz-sim read them: the placeholder engine type, gravity
# where the version has it, the specification's defaults, scoped frames,
# merged includes, Fuel's cache and the small ones. Each world is small,
# one feature, and its result is compared with a closed form.

load helper
bats_require_minimum_version 1.5.0

# gz_world TYPE PLUGIN: a ball at z = 10 under a <physics type=TYPE>,
# with PLUGIN (text) at world level.
gz_world() {
	cat <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics name="1ms" type="$1">
      <max_step_size>0.001</max_step_size>
      <real_time_factor>1.0</real_time_factor>
    </physics>
    $2
    <model name="ball">
      <pose>0 0 10 0 0 0</pose>
      <link name="link">
        <inertial><mass>1</mass></inertial>
        <collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
EOF
}

physics_plugin() {
	printf '<plugin filename="%s" name="gz::sim::systems::Physics"><engine><filename>%s</filename></engine></plugin>' "$1" "$2"
}

@test "gz-sim's <physics type=\"ignored\"> runs on gz-sim's default engine (DART where phys has it, else ODE), said once with file:line" {
	for type in ignored ignore none; do
		gz_world "$type" "" > "$TMP/w.sdf"
		engine=$(phys-preset list "$TMP/w.sdf" | jq -r .engine)
		echo "$type: $engine"
		case $engine in ode | dart) ;; *) false ;; esac
		phys-step -t 1 -e 1000 -i ball::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
		cat "$TMP/e"
		[ "$(grep -c . "$TMP/e")" -eq 1 ]
		grep -q "^phys-step: .*w.sdf:4: <physics type=\"$type\">: .*running " "$TMP/e"
		# the run is the one of a profile of that engine
		sed "s/type=\"$type\"/type=\"$engine\"/" "$TMP/w.sdf" > "$TMP/e.sdf"
		# (gz-physics gives DART ODE's detector: the record says so)
		phys-step -t 1 -e 1000 -i ball::link/pose "$TMP/e.sdf" 2>/dev/null |
		    tail -n +2 | cmp - <(tail -n +2 "$TMP/o")
		# free fall: z = 10 - g t^2 / 2
		near "$(tail -1 "$TMP/o" | jq '.items["ball::link/pose"].z')" "$(awk 'BEGIN { print 10 - 9.8 / 2 }')" 0.01
	done
}

# gz_capsule PHYSICS: gz-sim's physics system without an engine named,
# PHYSICS (text), and a capsule of radius 0.1 m lying 0.4 m above a ground
# plane.
gz_capsule() {
	cat <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    $1
    <plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>
    <model name="ground"><static>true</static><link name="l">
      <collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>
    </link></model>
    <model name="pill">
      <pose>0 0 0.5 1.5707963267948966 0 0</pose>
      <link name="link">
        <inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.005</izz></inertia></inertial>
        <collision name="c"><geometry><capsule><radius>0.1</radius><length>0.4</length></capsule></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
EOF
}

@test "a gz-sim world without <physics> runs DART, as gz-sim does, with gz-physics's collision detector (ODE's): a capsule rests on its side" {
	gz_capsule "" > "$TMP/w.sdf"
	[ "$(phys-preset list "$TMP/w.sdf" | jq -r .engine)" = dart ]
	phys-step -t 1.5 -r 10 -i pill::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
	cat "$TMP/e"
	grep -q "w.sdf:5: no <physics>: gz-sim runs DART .*: running DART" "$TMP/e"
	[ "$(head -1 "$TMP/o" | jq -r .engine.collision_detector)" = ode ]
	# at rest on its side: its axis at its radius (FCL, SDF's default
	# detector, has no capsule under DART: the run was refused)
	near "$(tail -1 "$TMP/o" | jq '.items["pill::link/pose"].z')" 0.1 2e-3
	# a detector the profile names is kept
	gz_capsule '<physics type="dart"><dart><collision_detector>fcl</collision_detector></dart></physics>' > "$TMP/f.sdf"
	run phys-step -t 0.1 "$TMP/f.sdf"
	assert_failure
	assert_output --partial capsule
}

@test "a profile of a gz-sim world that writes an engine's type runs it, and the run and check say gz-sim runs DART" {
	gz_capsule '<physics name="1ms" type="ode"><max_step_size>0.001</max_step_size></physics>' > "$TMP/w.sdf"
	phys-step -t 1.5 -r 10 -i pill::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
	cat "$TMP/e"
	grep -q 'w.sdf:4: <physics type="ode">: gz-sim reads no type and runs DART, its default; phys runs ODE as written (-p dart runs DART)' "$TMP/e"
	[ "$(head -1 "$TMP/o" | jq -r .engine.solver)" = quick ]
	near "$(tail -1 "$TMP/o" | jq '.items["pill::link/pose"].z')" 0.1 2e-3
	# -p dart: the profile carried over to DART takes gz-physics's detector
	phys-step -p dart -t 1.5 -r 10 -i pill::link/pose "$TMP/w.sdf" > "$TMP/o" 2>/dev/null
	[ "$(head -1 "$TMP/o" | jq -r .engine.collision_detector)" = ode ]
	near "$(tail -1 "$TMP/o" | jq '.items["pill::link/pose"].z')" 0.1 2e-3
	run phys-sdf check "$TMP/w.sdf"
	[ "$(echo "$output" | jq -r 'select(.line == 4) | .message')" = '<physics type="ode">: gz-sim reads no type and runs DART; phys runs the type written' ]
	# a type gz-sim's plugin runs is not remarked on
	sed 's/type="ode"/type="dart"/' "$TMP/w.sdf" > "$TMP/d.sdf"
	run phys-sdf check "$TMP/d.sdf"
	[ -z "$(echo "$output" | jq -r 'select(.line == 4)')" ]
	# the engine a plugin names, or one phys lacks
	sed 's|<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>|<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"><engine><filename>gz-physics-bullet-featherstone-plugin</filename></engine></plugin>|' "$TMP/w.sdf" > "$TMP/b.sdf"
	phys-step -t 0.01 "$TMP/b.sdf" 2>&1 >/dev/null | grep -q 'b.sdf:4: <physics type="ode">: gz-sim reads no type and runs Bullet, as its physics plugin names; phys runs ODE as written (-p bullet runs Bullet)'
	sed 's/bullet-featherstone/tpe/' "$TMP/b.sdf" > "$TMP/t.sdf"
	phys-step -t 0.01 "$TMP/t.sdf" 2>&1 >/dev/null | grep -q 't.sdf:4: <physics type="ode">: gz-sim reads no type and runs the engine its physics plugin names (gz-physics-tpe-plugin), which phys does not have; phys runs ODE as written'
}

@test "gz-sim's physics plugin picks the engine: bullet-featherstone and bullet run Bullet, a name phys lacks falls back" {
	for plugin in "gz-sim-physics-system gz-physics-bullet-featherstone-plugin" \
	    "ignition-gazebo-physics-system ignition-physics-bullet-plugin" \
	    "libgz-sim8-physics-system.so libgz-physics7-bullet-featherstone-plugin.so"; do
		set -- $plugin
		gz_world ignored "$(physics_plugin "$1" "$2")" > "$TMP/w.sdf"
		[ "$(phys-preset list "$TMP/w.sdf" | jq -r .engine)" = bullet ]
		phys-step -t 0.5 -e 500 -i ball::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
		grep -q "w.sdf:4: .*($2): running Bullet" "$TMP/e"
		sed 's/type="ignored"/type="bullet"/' "$TMP/w.sdf" > "$TMP/b.sdf"
		phys-step -t 0.5 -e 500 -i ball::link/pose "$TMP/b.sdf" | cmp - "$TMP/o"
	done
	# TPE: phys has none; gz-sim's default stands in
	gz_world ignored "$(physics_plugin gz-sim-physics-system gz-physics-tpe-plugin)" > "$TMP/w.sdf"
	engine=$(phys-preset list "$TMP/w.sdf" | jq -r .engine)
	case $engine in ode | dart) ;; *) false ;; esac
	phys-step -t 0.1 "$TMP/w.sdf" 2>&1 >/dev/null | grep -q "names gz-physics-tpe-plugin, which phys does not have"
	# phys-preset show lists that engine's parameters
	gz_world ignored "$(physics_plugin gz-sim-physics-system gz-physics-bullet-featherstone-plugin)" > "$TMP/w.sdf"
	phys-preset show 1ms "$TMP/w.sdf" | grep -q '"name":"bullet\.'
	! phys-preset show 1ms "$TMP/w.sdf" | grep -q '"name":"ode\.' || false
}

@test "phys-sdf check: gz-sim's placeholder engine type is a warning at its <physics>" {
	gz_world ignored "$(physics_plugin gz-sim-physics-system gz-physics-dartsim-plugin)" > "$TMP/w.sdf"
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ "$(echo "$output" | jq -r 'select(.line == 4) | .severity')" = warning ]
	echo "$output" | grep -q "gz-physics-dartsim-plugin"
}

@test "<physics><gravity> is read in SDF 1.5 and ignored, with a warning, from SDF 1.6 as libsdformat does" {
	for v in 1.5 1.6 1.7; do
		cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="$v">
  <world name="w">
    <physics type="ode"><gravity>0 0 -1</gravity></physics>
    <model name="ball"><pose>0 0 10 0 0 0</pose>
      <link name="link"><inertial><mass>1</mass></inertial></link>
    </model>
  </world>
</sdf>
EOF
		phys-step -t 1 -e 1000 -i ball::link/linear_vel "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
		vz=$(tail -1 "$TMP/o" | jq '.items["ball::link/linear_vel"].z')
		run phys-sdf check "$TMP/w.sdf"
		if [ "$v" = 1.5 ]; then
			near "$vz" -1 1e-9
			[ ! -s "$TMP/e" ]
			[ -z "$output" ]
		else
			# the world's default gravity
			near "$vz" -9.8 1e-9
			grep -q "w.sdf:4: <gravity> in <physics> is SDF 1.5's" "$TMP/e"
			[ "$(echo "$output" | jq -r 'select(.line == 4) | .severity')" = warning ]
		fi
	done
}

@test "elements with a default in the specification take it when absent or empty, as libsdformat does" {
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity></gravity>
    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane/></geometry></collision></link></model>
    <model name="ball"><pose>0 0 3 0 0 0</pose><link name="l">
      <inertial><mass></mass><inertia><ixx>0.4</ixx><iyy>0.4</iyy><izz>0.4</izz></inertia></inertial>
      <collision name="c"><geometry><sphere/></geometry></collision></link></model>
    <model name="cube"><pose>5 0 3 0 0 0</pose><link name="l">
      <collision name="c"><geometry><box></box></geometry></collision></link></model>
    <model name="can"><pose>10 0 3 0 0 0</pose><link name="l">
      <collision name="c"><geometry><cylinder><radius>0.5</radius></cylinder></geometry></collision></link></model>
    <model name="arm"><pose>0 5 30 0 0 0</pose>
      <link name="l"><collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link>
      <joint name="j" type="prismatic"><parent>world</parent><child>l</child><axis><xyz></xyz><limit><lower></lower><upper>0</upper></limit></axis></joint>
    </model>
  </world>
</sdf>
EOF2
	phys-step -t 2 -e 2000 -i '*::l/pose' -i ball::l/mass "$TMP/w.sdf" 2> "$TMP/e" | tail -1 > "$TMP/o"
	[ ! -s "$TMP/e" ]
	# radius 1, a 1 m cube, a 1 m tall cylinder: each rests on the plane
	near "$(jq '.items["ball::l/pose"].z' "$TMP/o")" 1 0.002
	near "$(jq '.items["cube::l/pose"].z' "$TMP/o")" 0.5 0.002
	near "$(jq '.items["can::l/pose"].z' "$TMP/o")" 0.5 0.002
	near "$(jq '.items["ball::l/mass"]' "$TMP/o")" 1 0
	# the slider's axis is z, its lower limit open: the arm falls 2 s
	near "$(jq '.items["arm::l/pose"].z' "$TMP/o")" "$(awk 'BEGIN { print 30 - 9.8 * 2 * 2 / 2 }')" 0.01
	# phys-sdf check: a warning for each empty element, no error
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ "$(echo "$output" | jq -r .severity | sort -u)" = warning ]
	[ "$(echo "$output" | grep -c 'is empty: the specification.s default')" -eq 4 ]
}

# fuel_model DIR NAME Z: a model NAME (one 1 kg ball at height Z) in DIR.
fuel_model() {
	mkdir -p "$1"
	printf '<?xml version="1.0"?>\n<model><name>%s</name><sdf version="1.9">model.sdf</sdf></model>\n' "$2" > "$1/model.config"
	cat > "$1/model.sdf" <<EOF2
<?xml version="1.0"?>
<sdf version="1.9"><model name="$2"><pose>0 0 $3 0 0 0</pose><link name="link">
  <inertial><mass>1</mass></inertial>
  <collision name="c"><geometry><mesh><uri>meshes/ball.stl</uri></mesh></geometry></collision>
</link></model></sdf>
EOF2
	mkdir -p "$1/meshes"
	# a tetrahedron of 1 m legs: any mesh file will do
	printf 'solid t\nfacet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\nfacet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\nfacet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\nendsolid t\n' > "$1/meshes/ball.stl"
}

# include_world URI...: a world including each URI.
include_world() {
	printf '<?xml version="1.0"?>\n<sdf version="1.9">\n<world name="w">\n'
	for u; do
		printf '<include><uri>%s</uri></include>\n' "$u"
	done
	printf '</world>\n</sdf>\n'
}

@test "Fuel URIs are read from gz-sim's cache: the newest version, or the one named; lowercased owner and name; GZ_FUEL_CACHE_PATH" {
	export HOME="$TMP/home"
	unset GZ_FUEL_CACHE_PATH IGN_FUEL_CACHE_PATH
	cache="$HOME/.gz/fuel/fuel.gazebosim.org/openrobotics/models"
	fuel_model "$cache/crate/1" crate 1
	fuel_model "$cache/crate/3" crate 3
	fuel_model "$cache/crate/12" crate 12
	include_world https://fuel.gazebosim.org/1.0/OpenRobotics/models/Crate > "$TMP/w.sdf"
	phys-step -n 0 -i crate::link/pose "$TMP/w.sdf" > "$TMP/o"
	# 12 is newer than 3 (numbers, not text)
	[ "$(jq '.items["crate::link/pose"].z' "$TMP/o")" = 12 ]
	for v in 1 3; do
		include_world "https://fuel.gazebosim.org/1.0/OpenRobotics/models/Crate/$v" > "$TMP/w.sdf"
		phys-step -n 0 -i crate::link/pose "$TMP/w.sdf" | jq -e --argjson v $v '.items["crate::link/pose"].z == $v'
	done
	include_world https://fuel.gazebosim.org/1.0/OpenRobotics/models/Crate/tip > "$TMP/w.sdf"
	phys-step -n 0 -i crate::link/pose "$TMP/w.sdf" | jq -e '.items["crate::link/pose"].z == 12'
	# the older server name and cache; GZ_FUEL_CACHE_PATH first
	fuel_model "$HOME/.ignition/fuel/fuel.ignitionrobotics.org/openrobotics/models/barrel/2" barrel 2
	fuel_model "$TMP/other/fuel.gazebosim.org/openrobotics/models/barrel/5" barrel 5
	include_world https://fuel.ignitionrobotics.org/1.0/OpenRobotics/models/Barrel > "$TMP/w.sdf"
	phys-step -n 0 -i barrel::link/pose "$TMP/w.sdf" | jq -e '.items["barrel::link/pose"].z == 2'
	GZ_FUEL_CACHE_PATH="$TMP/other" phys-step -n 0 -i barrel::link/pose "$TMP/w.sdf" | jq -e '.items["barrel::link/pose"].z == 5'
	# a file of a Fuel model, as a mesh URI
	cat > "$TMP/m.sdf" <<EOF2
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><model name="m"><link name="l"><inertial><mass>1</mass></inertial>
<collision name="c"><geometry><mesh><uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Crate/3/files/meshes/ball.stl</uri></mesh></geometry></collision>
</link></model></world></sdf>
EOF2
	phys-step -n 0 "$TMP/m.sdf" > /dev/null
}

@test "a Fuel model missing from the cache is one line naming the caches searched" {
	export HOME="$TMP/home"
	unset IGN_FUEL_CACHE_PATH
	export GZ_FUEL_CACHE_PATH="$TMP/c"
	include_world https://fuel.gazebosim.org/1.0/OpenRobotics/models/Nothing > "$TMP/w.sdf"
	run --separate-stderr phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "phys-step: $TMP/w.sdf:4: cannot find model 'https://fuel.gazebosim.org/1.0/OpenRobotics/models/Nothing': not in the Fuel cache (searched $TMP/c, $HOME/.gz/fuel, $HOME/.ignition/fuel)"* ]]
	[[ "$stderr" != *GAZEBO_MODEL_PATH* ]]
}

@test "model:///NAME (three slashes) is looked up on each model path, as libsdformat does" {
	mkdir -p "$TMP/models"
	fuel_model "$TMP/models/crate" crate 7
	include_world model:///crate > "$TMP/w.sdf"
	GAZEBO_MODEL_PATH="$TMP/models" phys-step -n 0 -i crate::link/pose "$TMP/w.sdf" |
	    jq -e '.items["crate::link/pose"].z == 7'
}

@test "a failure inside an included model names where it was included, through every level" {
	mkdir -p "$TMP/models"
	fuel_model "$TMP/models/crate" crate 7
	sed -i 's|<mass>1</mass>|<mass>-1</mass>|' "$TMP/models/crate/model.sdf"
	# the crate inside a shelf model, the shelf in the world
	mkdir -p "$TMP/models/shelf"
	printf '<?xml version="1.0"?>\n<model><name>shelf</name><sdf version="1.9">model.sdf</sdf></model>\n' > "$TMP/models/shelf/model.config"
	printf '<?xml version="1.0"?>\n<sdf version="1.9"><model name="shelf">\n<include><uri>model://crate</uri></include>\n</model></sdf>\n' > "$TMP/models/shelf/model.sdf"
	include_world model://shelf > "$TMP/w.sdf"
	GAZEBO_MODEL_PATH="$TMP/models" run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/models/crate/model.sdf:3: inertial.mass: -1 must be above 0 (included at $TMP/models/shelf/model.sdf:3, at $TMP/w.sdf:4)" ]]
}

@test "real_time_factor -1 (gz-sim's as fast as possible) runs unpaced" {
	gz_world ode "" | sed 's|<real_time_factor>1.0</real_time_factor>|<real_time_factor>-1</real_time_factor>|' > "$TMP/w.sdf"
	# 100 s of simulated time paced at -1 must not wait: well under 100 s
	SECONDS=0
	phys-step --realtime -t 100 -e 100000 "$TMP/w.sdf" > "$TMP/o"
	[ "$SECONDS" -lt 30 ]
	[ "$(jq -r .preset "$TMP/o" | head -1)" = 1ms ]
	phys-param get real_time_factor "$TMP/w.sdf" | jq -e '.value == -1'
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ -z "$output" ]
}

# poses FILE: "name x y z" for each pose item on the first state line,
# rounded to 1e-9.
poses() {
	jq -r '.items | to_entries[] | "\(.key) \(.value.x * 1e9 | round / 1e9) \(.value.y * 1e9 | round / 1e9) \(.value.z * 1e9 | round / 1e9)"' "$1" | sort
}

@test "scoped frame names (SDF 1.8): relative_to and attached_to into a nested model, as libsdformat resolves them" {
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.8">
  <world name="w">
    <gravity>0 0 0</gravity>
    <model name="outer">
      <pose>10 0 0 0 0 1.5707963267948966</pose>
      <link name="base"><inertial><mass>1</mass></inertial></link>
      <model name="inner">
        <pose>1 0 0 0 0 0</pose>
        <link name="l"><pose>0 1 0 0 0 0</pose><inertial><mass>1</mass></inertial></link>
        <frame name="f" attached_to="l"><pose>0 0 1 0 0 0</pose></frame>
      </model>
      <link name="a"><pose relative_to="inner::f">0 0 0.5 0 0 0</pose><inertial><mass>1</mass></inertial></link>
      <frame name="g" attached_to="inner::f"><pose relative_to="inner::f">2 0 0 0 0 0</pose></frame>
      <link name="b"><pose relative_to="g"/><inertial><mass>1</mass></inertial></link>
      <link name="c"><pose relative_to="inner::__model__">0 0 3 0 0 0</pose><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="fixed"><parent>g</parent><child>b</child></joint>
      <joint name="k" type="revolute"><pose relative_to="inner::f"/><parent>inner::f</parent><child>a</child></joint>
    </model>
  </world>
</sdf>
EOF2
	phys-step -n 0 -i 'outer::*/pose' "$TMP/w.sdf" > "$TMP/o"
	poses "$TMP/o" > "$TMP/p"
	# outer turned a quarter about z: its x is the world's y
	cat > "$TMP/want" <<'EOF2'
outer::a/pose 9 1 1.5
outer::b/pose 9 3 1
outer::base/pose 10 0 0
outer::c/pose 10 1 3
outer::inner/pose 10 1 0
outer::inner::l/pose 9 1 0
outer::j/pose 9 3 1
outer::k/pose 9 1 1
EOF2
	diff "$TMP/want" "$TMP/p"
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ -z "$output" ]
	phys-sdf print "$TMP/w.sdf" > "$TMP/p.sdf"
	phys-step -n 0 -i 'outer::*/pose' "$TMP/p.sdf" > "$TMP/o2"
	poses "$TMP/o2" | diff "$TMP/want" -
}

@test "<include merge=\"true\"> merges the model into its parent, as libsdformat does: names in the parent's scope, frame _merged__NAME__model__" {
	mkdir -p "$TMP/sensor"
	cat > "$TMP/sensor/model.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="sensor">
    <pose>0 0 1 0 0 0</pose>
    <link name="stem"><inertial><mass>1</mass></inertial></link>
    <link name="head"><pose>0.5 0 0 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    <frame name="tip" attached_to="head"><pose>0.1 0 0 0 0 0</pose></frame>
    <joint name="neck" type="revolute"><parent>__model__</parent><child>head</child></joint>
  </model>
</sdf>
EOF2
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity>0 0 0</gravity>
    <model name="robot">
      <pose>5 0 0 0 0 0</pose>
      <link name="base"><inertial><mass>1</mass></inertial></link>
      <include merge="true"><uri>sensor</uri><pose>0 2 0 0 0 0</pose></include>
      <link name="probe"><pose relative_to="tip"/><inertial><mass>1</mass></inertial></link>
      <joint name="mount" type="fixed"><parent>base</parent><child>stem</child></joint>
    </model>
  </world>
</sdf>
EOF2
	phys-step -n 0 -i 'robot::*/pose' "$TMP/w.sdf" 2> "$TMP/e" > "$TMP/o"
	[ ! -s "$TMP/e" ]
	poses "$TMP/o" | grep -v _merged__ > "$TMP/p"
	cat > "$TMP/want" <<'EOF2'
robot::base/pose 5 0 0
robot::head/pose 5.5 2 0
robot::mount/pose 5 2 0
robot::neck/pose 5.5 2 0
robot::probe/pose 5.6 2 0
robot::stem/pose 5 2 0
EOF2
	diff "$TMP/want" "$TMP/p"
	# no entity of the sensor's own scope
	! phys-introspect items "$TMP/w.sdf" | grep -q 'robot::sensor::' || false
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ -z "$output" ]
	# printed whole: the model's elements in the parent, relative to the
	# frame libsdformat names for it
	phys-sdf print "$TMP/w.sdf" > "$TMP/p.sdf"
	grep -q '<frame name="_merged__sensor__model__" attached_to="stem">' "$TMP/p.sdf"
	! grep -q '<model name="sensor"' "$TMP/p.sdf" || false
	phys-step -n 0 -i 'robot::*/pose' "$TMP/p.sdf" > "$TMP/o2"
	poses "$TMP/o2" | grep -v _merged__ | diff "$TMP/want" -
}

@test "a <joint> of the world (SDF 1.12) joins links of two models, or a link and a world <frame> (its frame the joint's by default): a pendulum let go level reaches the bottom at sqrt(I / m g L) K(1/sqrt 2)" {
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.12">
  <world name="w">
    <model name="post"><static>true</static><pose>0 0 2 0 0 0</pose><link name="l"/></model>
    <model name="bob"><pose>1 0 2 0 0 0</pose>
      <link name="l"><inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
    </model>
    <joint name="hinge" type="revolute">
      <pose relative_to="post::l"/>
      <parent>post::l</parent><child>bob::l</child>
      <axis><xyz>0 1 0</xyz></axis>
    </joint>
  </world>
</sdf>
EOF2
	# the child a frame at the pivot, attached to the bob's model: the
	# joint is where the frame is, fixed to the model's canonical link
	sed -e 's|<pose relative_to="post::l"/>||' \
	    -e 's|<child>bob::l</child>|<child>pivot</child>|' \
	    -e 's|<joint name="hinge"|<frame name="pivot" attached_to="bob"><pose relative_to="post::l"/></frame>&|' \
	    "$TMP/w.sdf" > "$TMP/f.sdf"
	for run in ode:w bullet:w ode:f; do
		engine=${run%:*}
		sed "s|<world name=\"w\">|&<physics type=\"$engine\"/>|" "$TMP/${run#*:}.sdf" > "$TMP/e.sdf"
		phys-step -t 1 -e 1 -i bob::l/pose -i hinge/position "$TMP/e.sdf" > "$TMP/o"
		t=$(jq -r '[.t, .items["bob::l/pose"].x] | @tsv' "$TMP/o" |
		    awk 'NR > 1 && p > 0 && $2 <= 0 { print pt + (0 - p) * ($1 - pt) / ($2 - p); exit } { pt = $1; p = $2 }')
		echo "$engine: $t s"
		# I = 1 + 0.001 about the pivot; K(1/sqrt 2) = 1.8540746773
		near "$t" "$(awk 'BEGIN { print sqrt(1.001 / 9.8) * 1.854074677301372 }')" 2e-3
		# the bob keeps its 1 m from the pivot
		jq -r '.items["bob::l/pose"] | (.x * .x + (.z - 2) * (.z - 2)) | sqrt' "$TMP/o" |
		    awk '{ d = $1 - 1; if (d < 0) d = -d; if (d > m) m = d } END { exit !(m < 1e-3) }'
	done
	for w in w f; do
		run phys-sdf check "$TMP/$w.sdf"
		assert_success
		[ -z "$output" ]
	done
}

@test "SDF 1.6 <pose frame=\"F\"> is relative to F, as libsdformat 9 reads it; frame=\"\" is no frame" {
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.6">
  <world name="w">
    <gravity>0 0 0</gravity>
    <model name="m">
      <pose>5 0 0 0 0 0</pose>
      <link name="a"><pose>1 0 0 0 0 1.5707963267948966</pose><inertial><mass>1</mass></inertial></link>
      <link name="b"><pose frame="a">1 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
      <link name="c"><pose frame="">0 0 2 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    </model>
  </world>
</sdf>
EOF2
	cat > "$TMP/want" <<'EOF2'
m::a/pose 6 0 0
m::b/pose 6 1 1
m::c/pose 5 0 2
EOF2
	phys-step -n 0 -i 'm::*/pose' "$TMP/w.sdf" > "$TMP/o"
	poses "$TMP/o" | diff "$TMP/want" -
	# b turned with a
	[ "$(jq '.items["m::b/pose"].yaw' "$TMP/o")" = "$(jq '.items["m::a/pose"].yaw' "$TMP/o")" ]
	phys-sdf print "$TMP/w.sdf" > "$TMP/p.sdf"
	phys-step -n 0 -i 'm::*/pose' "$TMP/p.sdf" > "$TMP/o2"
	poses "$TMP/o2" | diff "$TMP/want" -
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ "$(echo "$output" | jq -r '"\(.line) \(.severity)"')" = "8 warning" ]
}

@test "-p ode on a gz-sim world without <physics> runs ODE, of the profile carried over, without the note of a written type" {
	gz_capsule "" > "$TMP/w.sdf"
	phys-step -p ode -t 1.5 -r 10 -i pill::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
	cat "$TMP/e"
	[ "$(head -1 "$TMP/o" | jq -r .engine.solver)" = quick ]
	! grep -q "phys runs ODE as written" "$TMP/e" || false
	near "$(tail -1 "$TMP/o" | jq '.items["pill::link/pose"].z')" 0.1 2e-3
}

@test "a gz-sim world whose default profile is not its first starts in the default, as libsdformat reads it, and says gz-sim runs the first; -p runs that one; check warns" {
	cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
<physics name="fast" type="ignored"><max_step_size>0.004</max_step_size></physics>
<physics name="fine" type="ignored" default="true"><max_step_size>0.001</max_step_size></physics>
<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>
<model name="ball"><pose>0 0 10 0 0 0</pose><link name="link"><inertial><mass>1</mass></inertial>
<collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision></link></model>
</world></sdf>
EOF
	# DART's semi-implicit Euler falls g h^2 N (N + 1) / 2 in N steps
	# of h: 1 s of the default's 1 ms steps, then of the first's 4 ms
	phys-step -t 1 -r 1 -i ball::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
	grep -q "w.sdf:4: profile 'fine' is marked default, and phys starts in it as libsdformat reads the world; gz-sim runs the first <physics>, 'fast' (-p fast runs it)" "$TMP/e"
	near "$(tail -1 "$TMP/o" | jq '.items["ball::link/pose"].z')" "$(awk 'BEGIN { print 10 - 9.8 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
	phys-step -p fast -t 1 -r 1 -i ball::link/pose "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/e"
	! grep -q "marked default" "$TMP/e" || false
	near "$(tail -1 "$TMP/o" | jq '.items["ball::link/pose"].z')" "$(awk 'BEGIN { print 10 - 9.8 * 16e-6 * 250 * 251 / 2 }')" 1e-9
	run phys-sdf check "$TMP/w.sdf"
	[ "$(echo "$output" | jq -r 'select(.line == 4) | .message')" = "profile 'fine' is marked default, and phys starts in it as libsdformat reads the world; gz-sim runs the first <physics>, 'fast'" ]
}
