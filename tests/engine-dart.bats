#!/usr/bin/env bats
# The DART engine: its <dart> block, its geometry under each of its
# collision detectors, its hard joint stops, its joints (trees, kinematic
# loops, couplings), its implicit joint damping, and what it refuses. What
# every engine does (the closed-form cases, switching, parameters, joints)
# is checked under it in tests/engine-conformance.bats.

load helper

W="$WORLDS/closed_forms.sdf"

@test "DART: the <dart> block reaches it (the engine record); under each detector Dantzig holds a stack of ten boxes" {
	local cd solver
	{
		echo '<?xml version="1.0"?><sdf version="1.7"><world name="s"><gravity>0 0 -9.81</gravity>'
		echo '<physics name="dart" type="dart"><max_step_size>0.001</max_step_size>'
		echo '<dart><solver><solver_type>dantzig</solver_type></solver><collision_detector>fcl</collision_detector></dart></physics>'
		echo '<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>'
		for i in 0 1 2 3 4 5 6 7 8 9; do
			echo "<model name=\"box$i\"><pose>0 0 $(awk -v i=$i 'BEGIN { print 0.1 + 0.2 * i }') 0 0 0</pose><link name=\"link\">"
			echo '<inertial><mass>1</mass><inertia><ixx>0.0066667</ixx><iyy>0.0066667</iyy><izz>0.0066667</izz></inertia></inertial>'
			echo '<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>'
		done
		echo '</world></sdf>'
	} > "$TMP/stack.sdf"
	for cd in fcl dart ode; do
		for solver in dantzig pgs; do
			phys-step -t 3 -e 3000 -s dart.collision_detector=$cd -s dart.solver.solver_type=$solver \
			    -i '*::link/pose' "$TMP/stack.sdf" > "$TMP/o"
			[ "$(head -1 "$TMP/o" | jq -c '.engine | [.solver, .collision_detector]')" = "[\"$solver\",\"$cd\"]" ]
			# Dantzig: every box where it was put, to 20 um; PGS's 30
			# iterations let the stack sink, as ODE's quick step with
			# few does, the bottom box by less than 5 mm in 3 s
			tail -1 "$TMP/o" | jq -r '.items | to_entries[] | select(.key | test("^box")) |
			    [(.key | ltrimstr("box") | rtrimstr("::link/pose")), .value.x, .value.y, .value.z] | @tsv' |
			    awk -v s=$solver '{ d = ($4 - (0.1 + 0.2 * $1))^2 + $2^2 + $3^2
				if ((s == "dantzig" && d > 4e-10) || ($1 == 0 && d > 2.5e-5)) { print "off: " $0; bad = 1 }
				n++ }
				END { exit bad || n != 10 }'
		done
	done
	# Debian's DART collides with single-precision Bullet: ode instead, said once
	run phys-step -n 2 -s dart.collision_detector=bullet "$TMP/stack.sdf"
	assert_success
	[ "$(grep -c "dart.collision_detector bullet: .*DART's ode collision detector runs instead" <<<"$output")" -eq 1 ]
}

# dart_geometry_world DETECTOR: a moving mesh cube on the ground, boxes on a
# static L-shaped polyline and in its notch, an ellipsoid, a cylinder and
# a heightmap bowl a ball rolls through; a capsule under ode only.
dart_geometry_world() {
	local in='<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'
	cat <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="dart" type="dart"><max_step_size>0.001</max_step_size><dart><collision_detector>$1</collision_detector></dart></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="cube"><pose>0 0 0.7 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/gen/cube.stl</uri></mesh></geometry></collision></link></model>
<model name="l"><pose>5 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>
<model name="b"><pose>5.5 1.5 1 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="notch"><pose>6.5 1.5 1 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="e"><pose>-5 0 1 0 0 0</pose><link name="link"><inertial auto="true"/><collision name="c"><geometry><ellipsoid><radii>0.3 0.2 0.1</radii></ellipsoid></geometry></collision></link></model>
<model name="cyl"><pose>-8 0 1 0 0 0</pose><link name="link">$in<collision name="c"><geometry><cylinder><radius>0.1</radius><length>0.4</length></cylinder></geometry></collision></link></model>
$([ "$1" = ode ] && echo "<model name=\"cap\"><pose>-10 0 1 0 0 0</pose><link name=\"link\">$in<collision name=\"c\"><geometry><capsule><radius>0.1</radius><length>0.4</length></capsule></geometry></collision></link></model>")
<model name="t"><pose>20 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><heightmap><uri>$TMP/gen/bowl.tif</uri><size>8 8 2</size><pos>0 0 0.5</pos></heightmap></geometry></collision></link></model>
<model name="s"><pose>21.5 -1 3 0 0 0</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
</world></sdf>
SDF
}

@test "DART geometry under fcl and ode: a mesh cube, a polyline, an ellipsoid, a cylinder, a capsule and a heightmap bowl" {
	local cd
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) -lm -o "$TMP/geomgen"
	mkdir "$TMP/gen" && "$TMP/geomgen" "$TMP/gen"
	for cd in fcl ode; do
		echo "under $cd"
		dart_geometry_world $cd > "$TMP/g.sdf"
		phys-step -t 6 -r 100 -i '*::link/pose' "$TMP/g.sdf" > "$TMP/o"
		# resting on their lowest faces, sunk at most 0.1 mm
		near "$(at "$TMP/o" 6 cube::link/pose z)" 0.5 1e-4
		near "$(at "$TMP/o" 6 b::link/pose z)" 0.4 1e-4
		near "$(at "$TMP/o" 6 notch::link/pose z)" 0.1 1e-4
		near "$(at "$TMP/o" 6 e::link/pose z)" 0.1 1e-4
		near "$(at "$TMP/o" 6 cyl::link/pose z)" 0.2 1e-3
		[ $cd = fcl ] || near "$(at "$TMP/o" 6 cap::link/pose z)" 0.3 1e-4
		# the ball rolls through the bowl's bottom (pos.z, a radius below it)
		series "$TMP/o" s::link/pose z | awk '$1 > 1 && (m == "" || $2 < m) { m = $2 } END { print m }' > "$TMP/min"
		near "$(cat "$TMP/min")" 0.6 0.01
	done
	# fcl has no capsule and dart only boxes and spheres: said with the line
	for cd in fcl dart; do
		dart_geometry_world ode | sed "s|<collision_detector>ode<|<collision_detector>$cd<|" > "$TMP/g.sdf"
		line=$(grep -n "$([ $cd = fcl ] && echo capsule || echo mesh)" "$TMP/g.sdf" | head -1 | cut -d: -f1)
		run phys-step -n 1 "$TMP/g.sdf"
		assert_failure 1
		assert_output --partial "g.sdf:$line: collision '"
		assert_output --partial "<collision_detector>ode</collision_detector> collides it) (--skip-unsupported skips it)"
	done
	run phys-step -n 1 --skip-unsupported "$TMP/g.sdf"
	assert_success
	assert_output --partial "skipping collision 'cube::link::c': DART's dart collision detector collides boxes and spheres only"
}

@test "DART: two convex hulls touch with one normal, their penetration's: a hulled cube rests on another where it was put (FCL's triangle points, some on its sides 0.6 m deep, pushed it 2 mm aside in 3 s)" {
	# a 1 m cube, centred on its origin
	printf 'v %s\n' '-0.5 -0.5 -0.5' '0.5 -0.5 -0.5' '0.5 0.5 -0.5' '-0.5 0.5 -0.5' \
	    '-0.5 -0.5 0.5' '0.5 -0.5 0.5' '0.5 0.5 0.5' '-0.5 0.5 0.5' > "$TMP/cube.obj"
	printf 'f %s\n' '1 3 2' '1 4 3' '5 6 7' '5 7 8' '1 2 6' '1 6 5' \
	    '2 3 7' '2 7 6' '3 4 8' '3 8 7' '4 1 5' '4 5 8' >> "$TMP/cube.obj"
	cat > "$TMP/stack.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11"><world name="w"><physics name="dart" type="dart"/>
<model name="a"><static>true</static><link name="l"><collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri></mesh></geometry></collision></link></model>
<model name="b"><pose>0.2 0.1 1 0 0 0.3</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.17</ixx><iyy>0.17</iyy><izz>0.17</izz></inertia></inertial>
<collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri></mesh></geometry></collision></link></model>
</world></sdf>
SDF
	phys-step -p dart -t 3 -r 10 -i 'b::l/pose' "$TMP/stack.sdf" | tail -1 > "$TMP/o"
	for k in x:0.2 y:0.1 z:1 yaw:0.3; do
		near "$(jq ".items[\"b::l/pose\"].${k%%:*}" "$TMP/o")" "${k#*:}" 1e-5
	done
}

@test "DART: a link started in the ground, on a hinge that cannot turn it out, stays as under MuJoCo and Simbody (it swung 2.7 rad; MuJoCo Menagerie's SO-ARM100 spun at 1e12 rad/s)" {
	W="$BATS_TEST_DIRNAME/data/sunk_turntable.sdf"
	for e in dart mujoco simbody; do
		for d in fcl ode; do
			[ "$e" = dart ] || [ "$d" = fcl ] || continue
			# (its height a hinge of these engines keeps exactly)
			phys-step -q -p "$e" -s dart.collision_detector="$d" -t 1 -r 1 \
			    -i 'turntable::turn/position' "$W" | tail -1 > "$TMP/o"
			near "$(jq '.items["turntable::turn/position"][0]' "$TMP/o")" 0 2e-3
		done
	done
}

@test "DART's joint stops are hard (joints.sdf): the stop holds the arm at -0.3 rad and m g L cos(0.3) to 1e-6, the universal joint's angle is the swing to 1e-9" {
	sed 's/<physics type="ode">/<physics type="dart">/' "$WORLDS/joints.sdf" > "$TMP/j.sdf"
	phys-step -t 4.2 -r 500 -i 'cardan::bob/pose' -i 'hinge::j/*' -i 'cardan::j/position' "$TMP/j.sdf" 2>/dev/null |
	    tail -1 > "$TMP/o"
	[ "$(jq -r .t "$TMP/o")" = 4.2 ]
	near "$(at "$TMP/o" 4.2 hinge::j/position 0)" -0.3 1e-6
	rel "$(at "$TMP/o" 4.2 hinge::j/effort 0)" "$(awk 'BEGIN { print 9.81 * cos(0.3) }')" 1e-6
	near "$(at "$TMP/o" 4.2 cardan::j/position 0)" \
	    "$(awk -v r="$(at "$TMP/o" 4.2 cardan::bob/pose roll)" 'BEGIN { print r - 0.05 }')" 1e-9
}

@test "DART: a screw's nut falls at g m / (m + J / lead^2), a gearbox keeps theta2 = -ratio theta1, a mimic follows its leader" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11">
<world name="w">
  <gravity>0 0 -9.8</gravity>
  <physics type="dart"/>
  <model name="nut">
    <link name="nut"><pose>0 0 5 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.01</izz></inertia></inertial></link>
    <joint name="s" type="screw"><parent>world</parent><child>nut</child>
      <thread_pitch>-10</thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
  <model name="gears">
    <link name="base"><pose>5 0 1 0 0 0</pose></link>
    <link name="g1"><pose>5 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="g2"><pose>6 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.05</ixx><iyy>0.05</iyy><izz>0.05</izz></inertia></inertial></link>
    <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
    <joint name="h1" type="revolute"><parent>base</parent><child>g1</child><axis><xyz>0 0 1</xyz></axis></joint>
    <joint name="h2" type="revolute"><parent>base</parent><child>g2</child><axis><xyz>0 0 1</xyz></axis></joint>
    <joint name="gear" type="gearbox"><parent>g1</parent><child>g2</child>
      <gearbox_reference_body>base</gearbox_reference_body><gearbox_ratio>2</gearbox_ratio>
      <axis><xyz>0 0 1</xyz></axis><axis2><xyz>0 0 1</xyz></axis2></joint>
  </model>
  <model name="pair">
    <link name="a"><pose>10 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="b"><pose>12 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <joint name="ja" type="revolute"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz></axis></joint>
    <joint name="jb" type="prismatic"><parent>world</parent><child>b</child>
      <axis><xyz>1 0 0</xyz>
        <mimic joint="ja" axis="axis"><multiplier>0.5</multiplier><offset>0.2</offset><reference>0</reference></mimic>
      </axis></joint>
  </model>
</world>
</sdf>
SDF
	# g1 and a set turning at 1 rad/s at t = 0
	printf '%s\n' '{"t":0,"name":"gears::g1/angular_vel","value":{"x":0,"y":0,"z":1}}' \
	    '{"t":0,"name":"pair::a/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$TMP/c"
	phys-step -t 2 -r 10 -c "$TMP/c" -i 'nut::nut/pose' -i 'nut::s/position' -i '*::h*/*' -i 'pair::j*/position' "$TMP/w.sdf" > "$TMP/o"
	# the screw: travel 0.1 m per radian; J / lead^2 = 1 kg halves g, stepped
	jq -r '.items["nut::s/position"] | .[1] - 0.1 * .[0] | fabs < 1e-9' "$TMP/o" | sort -u | grep -qx true
	near "$(at "$TMP/o" 2 nut::nut/pose z)" "$(awk 'BEGIN { printf "%.12f", 5 - 4.9 * 1e-6 * 2000 * 2001 / 2 }')" 1e-9
	# the gears turn together: w2 = -2 w1 from the first step, as do the angles
	jq -r 'select(.t > 0) | .items | (.["gears::h2/velocity"][0] + 2 * .["gears::h1/velocity"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-9) { print "gear slip " m; exit 1 } }'
	jq -r '.items | (.["gears::h2/position"][0] + 2 * .["gears::h1/position"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-6) { print "gears apart by " m; exit 1 } }'
	# g1's 1 rad/s is shared through the gear: (J1 + 4 J2) w1 = J1 * 1
	rel "$(at "$TMP/o" 2 gears::h1/velocity 0)" "$(awk 'BEGIN { printf "%.17g", 0.1 / 0.3 }')" 1e-9
	# the mimic: jb = 0.5 ja + 0.2, its offset reached from the start
	jq -r 'select(.t >= 0.5) | .items | (.["pair::jb/position"][0] - 0.5 * .["pair::ja/position"][0] - 0.2) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-6) { print "mimic off by " m; exit 1 } }'
}

@test "DART's joint damping is implicit: a light link under heavy damping slows as w0 / (1 + h c / I)^n, where ODE's force stops it in one step" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <gravity>0 0 0</gravity>
  <physics name="dart" type="dart"/>
  <physics name="ode" type="ode"/>
  <model name="m">
    <link name="l"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>0.01</mass><inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz></inertia></inertial></link>
    <joint name="j" type="revolute"><parent>world</parent><child>l</child>
      <axis><xyz>0 0 1</xyz><dynamics><damping>1</damping></dynamics></axis></joint>
  </model>
</world>
</sdf>
SDF
	echo '{"t":0,"name":"m::l/angular_vel","value":{"x":0,"y":0,"z":2}}' > "$TMP/c"
	phys-step -p dart -t 1 -c "$TMP/c" -i 'm::j/velocity' "$TMP/w.sdf" > "$TMP/o"
	# h c / I = 1000
	for n in 1 2 3; do
		rel "$(jq -r "select(.iter == $n) | .items[\"m::j/velocity\"][0]" "$TMP/o")" \
		    "$(awk -v n=$n 'BEGIN { printf "%.17g", 2 / 1001 ^ n }')" 1e-9
	done
	[ "$(tail -1 "$TMP/o" | jq '.items["m::j/velocity"][0] | fabs < 1e-12')" = true ]
	# ODE's explicit force, held to what stops the link within the step
	[ "$(phys-step -p ode -n 1 -c "$TMP/c" -i 'm::j/velocity' "$TMP/w.sdf" | tail -1 | jq '.items["m::j/velocity"][0] | fabs < 1e-12')" = true ]
	# a negative damping DART cannot integrate: refused with the line
	sed -i 's|<damping>1</damping>|<damping>-1</damping>|' "$TMP/w.sdf"
	run phys-step -p dart -n 1 "$TMP/w.sdf"
	assert_failure 1
	assert_output --partial "w.sdf:$(grep -n '<joint' "$TMP/w.sdf" | cut -d: -f1): joint 'm::j': DART runs damping and spring stiffness from 0"
}

@test "a parallelogram of two cranks anchored to the world (a loop) swings with the closed-form period, its coupler level" {
	# cranks of L = 0.5 m, 1 kg, J = m L^2 / 12 about their middles, hang
	# from pivots 1 m apart; the 2 kg coupler joins their ends, moving
	# without turning: I = 2 (J + m (L/2)^2) + M L^2 = 2/3 kg m^2, against
	# a moment (2 m L/2 + M L) g = 1.5 g per radian
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <gravity>0 0 -9.81</gravity>
  <physics type="dart"/>
  <model name="p">
    <link name="c1"><pose>0 0 2 0.1 0 0</pose>
      <inertial><pose>0 0 -0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.0208333333</ixx><iyy>0.0208333333</iyy><izz>0.001</izz></inertia></inertial>
      <collision name="c"><pose>0 0 -0.25 0 0 0</pose><geometry><box><size>0.05 0.05 0.5</size></box></geometry></collision></link>
    <link name="c2"><pose>1 0 2 0.1 0 0</pose>
      <inertial><pose>0 0 -0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.0208333333</ixx><iyy>0.0208333333</iyy><izz>0.001</izz></inertia></inertial>
      <collision name="c"><pose>0 0 -0.25 0 0 0</pose><geometry><box><size>0.05 0.05 0.5</size></box></geometry></collision></link>
    <link name="coupler"><pose>0 0.04991670832341408 1.5024979173609871 0 0 0</pose>
      <inertial><pose>0.5 0 0 0 0 0</pose><mass>2</mass><inertia><ixx>0.001</ixx><iyy>0.17</iyy><izz>0.17</izz></inertia></inertial>
      <collision name="c"><pose>0.5 0 0 0 0 0</pose><geometry><box><size>1 0.05 0.05</size></box></geometry></collision></link>
    <joint name="j1" type="revolute"><parent>world</parent><child>c1</child><axis><xyz>1 0 0</xyz></axis></joint>
    <joint name="j2" type="revolute"><parent>c1</parent><child>coupler</child><axis><xyz>1 0 0</xyz></axis></joint>
    <joint name="j3" type="revolute"><parent>coupler</parent><child>c2</child><pose>0 0 -0.5 0 0 0</pose><axis><xyz>1 0 0</xyz></axis></joint>
    <joint name="j4" type="revolute"><parent>world</parent><child>c2</child><axis><xyz>1 0 0</xyz></axis></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 5 -r 200 -i 'p::*/pose' -i 'p::j*/position' "$TMP/w.sdf" > "$TMP/o"
	# small swings of 0.1 rad: 2 pi sqrt(I / (1.5 g)), the large-angle
	# correction (1 + theta0^2 / 16) included
	rel "$(series "$TMP/o" p::c1/pose roll | period)" \
	    "$(awk 'BEGIN { print 2 * 3.141592653589793 * sqrt((2 / 3) / (1.5 * 9.81)) * (1 + 0.01 / 16) }')" 0.002
	# both cranks at one angle, the coupler level, the loop closed
	jq -r '.items | [.["p::c1/pose"].roll - .["p::c2/pose"].roll, .["p::coupler/pose"].roll, .["p::j4/position"][0] - .["p::j1/position"][0]] | map(fabs) | max' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-4) { print "loop off by " m; exit 1 } }'
}

@test "a free loop of four bars (no anchor, its own links colliding) falls as one body, closed, and lands" {
	# a square of 0.8 m bars hinged at its corners about its normal, in
	# the x-z plane, 45 degrees about y: it falls on a corner
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <gravity>0 0 -9.8</gravity>
  <physics type="dart"><dart><solver><solver_type>pgs</solver_type></solver></dart></physics>
  <model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
  <model name="loop">
    <self_collide>true</self_collide>
    <pose>0 0 3 0 0.7853981633974483 0</pose>
    <link name="l0"><pose>-0.4 0 0 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.0533</ixx><iyy>0.0533</iyy><izz>0.0008</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.05 0.1 0.7</size></box></geometry></collision></link>
    <link name="l1"><pose>0 0 0.4 0 1.5707963267948966 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.0533</ixx><iyy>0.0533</iyy><izz>0.0008</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.05 0.1 0.7</size></box></geometry></collision></link>
    <link name="l2"><pose>0.4 0 0 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.0533</ixx><iyy>0.0533</iyy><izz>0.0008</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.05 0.1 0.7</size></box></geometry></collision></link>
    <link name="l3"><pose>0 0 -0.4 0 1.5707963267948966 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.0533</ixx><iyy>0.0533</iyy><izz>0.0008</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.05 0.1 0.7</size></box></geometry></collision></link>
    <joint name="j01" type="revolute"><parent>l0</parent><child>l1</child><pose>0 0 -0.4 0 0 0</pose>
      <axis><xyz>0 1 0</xyz><limit><lower>-1.2</lower><upper>1.2</upper></limit></axis></joint>
    <joint name="j12" type="revolute"><parent>l1</parent><child>l2</child><pose>0 0 0.4 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
    <joint name="j23" type="revolute"><parent>l2</parent><child>l3</child><pose>0 0 0.4 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
    <joint name="j30" type="revolute"><parent>l3</parent><child>l0</child><pose>0 0 -0.4 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 3 -r 100 -i 'loop::*/inertial_pose' -i 'loop::j*/position' "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/err"
	grep -q "w.sdf:$(grep -n '"j30"' "$TMP/w.sdf" | cut -d: -f1): joint 'loop::j30' closes a kinematic loop" "$TMP/err"
	# before it touches (its lowest corner, 0.566 m below the centre,
	# reaches the ground at t = 0.69 s): a free fall of its centre
	jq -r 'select(.t == 0.5) | [.items[] | select(type == "object") | .z] | add / 4' "$TMP/o" > "$TMP/z"
	near "$(cat "$TMP/z")" "$(awk 'BEGIN { printf "%.12f", 3 - 9.8 * 1e-6 * 500 * 501 / 2 }')" 1e-6
	# a closed planar loop turns by nothing in all: the four angles sum to 0
	jq -r '[.items[] | select(type == "array") | .[0]] | add | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-3) { print "loop open by " m; exit 1 } }'
	# it landed and folded against j01's limit, past it by at most 0.02
	# rad on the impact (DART's limits correct at its joints' slow rate)
	jq -r '.items["loop::j01/position"][0] | fabs' "$TMP/o" | awk '$1 > m { m = $1 } END { print m }' > "$TMP/m"
	awk -v m="$(cat "$TMP/m")" 'BEGIN { exit !(m > 0.2 && m < 1.2 + 0.02) }' || fail "j01 moved $(cat "$TMP/m")"
	tail -1 "$TMP/o" | jq -e '(.items["loop::j01/position"][0] | fabs) <= 1.2 and
	    ([.items[] | select(type == "object") | .z] | min > 0)'
}

@test "DART: ODE's friction block is its friction (mu = 0.25 slides v^2 / (2 mu g) to 1%), velocity_decay as under ODE" {
	printf '%s\n' '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p dart -t 1.5 -e 1500 -c "$TMP/ctl" -s 'slide::link::collision/surface.friction.ode.mu=0.25' \
	    -s 'slide::link::collision/surface.friction.ode.mu2=0.25' -i 'slide::link/pose' "$W" 2>/dev/null | tail -1 > "$TMP/o"
	rel "$(jq '.items["slide::link/pose"].x' "$TMP/o")" "$(awk 'BEGIN { print 4 / (2 * 0.25 * 9.81) }')" 0.01
	# a free ball keeps 1 - 0.01 of its speed each step
	printf '%s\n' '{"t":0,"name":"fall::link/linear_vel","value":{"x":3,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p dart -n 10 -c "$TMP/ctl" -s 'fall::link/velocity_decay.linear=0.01' -i 'fall::link/linear_vel' "$W" 2>/dev/null | tail -1 > "$TMP/o"
	rel "$(jq '.items["fall::link/linear_vel"].x' "$TMP/o")" "$(awk 'BEGIN { printf "%.17g", 3 * 0.99 ^ 10 }')" 1e-12
}

@test "Gazebo's worlds under a DART profile: pendulums and the friction pyramid as under ODE; the heightmap world (its <dart> block asks for Bullet) holds a ball on the bowl" {
	need_reference
	local w
	for w in simple_pendulums pendulum_axes friction_pyramid; do
		# its ODE profile typed as DART's (its step and gravity kept),
		# or a DART one where it has none
		if grep -q '<physics' "$REF/gazebo-worlds/$w.world"; then
			sed 's/type="ode"/type="dart"/' "$REF/gazebo-worlds/$w.world"
		else
			sed 's|<world name="\([^"]*\)">$|&<physics type="dart"/>|' "$REF/gazebo-worlds/$w.world"
		fi > "$TMP/$w.world"
		grep -q '<physics.*type="dart"' "$TMP/$w.world"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$REF/gazebo-worlds/$w.world" 2>/dev/null | tail -1 > "$TMP/ode"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$TMP/$w.world" 2>/dev/null > "$TMP/dart"
		[ "$(head -1 "$TMP/dart" | jq -r .engine.solver)" = dantzig ]
		tail -1 "$TMP/dart" > "$TMP/d1"
		# every link within 0.1 mm of where ODE puts it
		paste <(jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"' "$TMP/ode") \
		      <(jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"' "$TMP/d1") |
			awk '$1 != $5 { exit 2 } { d = ($2-$6)^2 + ($3-$7)^2 + ($4-$8)^2; if (d > 1e-8) { print "differ: " $0; bad = 1 } n++ }
			    END { if (n < 10) exit 3; exit bad }'
	done
	# the heightmap bowl, with a ball dropped at its centre: the terrain's
	# centre pixel is 127 of 254, 5 m under its 10 m height
	sed -e 's/type="ode"/type="dart"/' -e 's|<uri>model://sun</uri>|&</include><include><uri>model://ball_probe</uri>|' \
	    "$REF/gazebo-worlds/heightmap.world" > "$TMP/h.world"
	mkdir -p "$TMP/models/ball_probe"
	cat > "$TMP/models/ball_probe/model.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6"><model name="ball_probe"><pose>0.5 0.5 8 0 0 0</pose><link name="link">
<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model></sdf>
SDF
	GAZEBO_MODEL_PATH="$GAZEBO_MODEL_PATH:$TMP/models" phys-step -t 3 -r 1 -i '*::link/pose' "$TMP/h.world" > "$TMP/out" 2> "$TMP/err"
	grep -q "dart.collision_detector bullet: .*DART's ode collision detector runs instead" "$TMP/err"
	# the slope there is ~ 10/129 per m: the ball rolls a little
	near "$(tail -1 "$TMP/out" | jq '.items["ball_probe::link/pose"].z')" 5.1 0.1
	# box2 falls into a low corner as under ODE (its other boxes start
	# inside the rim, as Gazebo's world has them)
	phys-step -t 3 -r 1 -i 'box2::link/pose' "$REF/gazebo-worlds/heightmap.world" 2>/dev/null | tail -1 > "$TMP/ode"
	near "$(tail -1 "$TMP/out" | jq '.items["box2::link/pose"].z')" "$(jq '.items["box2::link/pose"].z' "$TMP/ode")" 0.01
}

@test "phys-preset add --engine dart carries the step and the solver type (world to dantzig, quick to pgs) and names the iterations; back, the collision detector" {
	local t s
	for t in world:dantzig quick:pgs; do
		phys-preset add --copy accurate w "ode.solver.type=${t%:*}" "$WORLDS/box_stack.sdf" 2>/dev/null |
		    phys-preset add --engine dart --copy w d - > "$TMP/a.sdf" 2> "$TMP/err"
		grep -q "profile 'w': no dart counterpart, not carried over: ode.solver.iters$" "$TMP/err"
		phys-step -p d -n 1 "$TMP/a.sdf" 2>/dev/null | head -1 > "$TMP/o"
		[ "$(jq -r .engine.solver "$TMP/o")" = "${t#*:}" ]
		[ "$(jq -r .engine.max_step_size "$TMP/o")" = 0.001 ]
	done
	# DART's default solver is Dantzig, ODE's quick: not given, not carried
	sed 's|<type>quick</type>||' "$WORLDS/box_stack.sdf" | phys-preset add --engine dart --copy sloppy d - > "$TMP/a.sdf" 2>/dev/null
	[ "$(phys-step -p d -n 1 "$TMP/a.sdf" 2>/dev/null | head -1 | jq -r .engine.solver)" = dantzig ]
	[ "$(phys-step -p d -n 1 "$TMP/a.sdf" 2>/dev/null | head -1 | jq -r .engine.max_step_size)" = 0.002 ]
	phys-preset add --copy d d2 dart.collision_detector=ode dart.solver.solver_type=pgs "$TMP/a.sdf" 2>/dev/null |
	    phys-preset add --engine ode --copy d2 back - > "$TMP/b.sdf" 2> "$TMP/err"
	grep -q "profile 'd2': no ode counterpart, not carried over: dart.collision_detector$" "$TMP/err"
	[ "$(phys-param get -p back ode.solver.type "$TMP/b.sdf" 2>/dev/null | jq -r .value)" = quick ]
}

@test "DART: a surface's kp and kd make its contacts springs and dampers as under ODE: a 2 kg ball rests m g / kp deep, sinks as ODE's does, and max_vel does not cap what the spring carries" {
	# kp 1e4 N/m in series with the ground's 1e12; both surfaces correct
	# as fast as they need (ODE's max_vel, which caps its correction)
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="dart" type="dart" default="true"><max_step_size>0.001</max_step_size></physics>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size><ode><solver><type>world</type></solver></ode></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry>
<surface><contact><ode><max_vel>100</max_vel></ode></contact></surface></collision></link></model>
<model name="ball"><pose>0 0 0.1 0 0 0</pose><link name="link">
<inertial><mass>2</mass><inertia><ixx>0.008</ixx><iyy>0.008</iyy><izz>0.008</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry>
<surface><contact><ode><kp>10000</kp><kd>100</kd><max_vel>100</max_vel></ode></contact></surface></collision></link></model>
</world></sdf>
SDF
	phys-step -p dart -t 1 -r 20 -i 'ball::link/pose' "$TMP/w.sdf" 2>/dev/null > "$TMP/d"
	phys-step -p ode -t 1 -r 20 -i 'ball::link/pose' "$TMP/w.sdf" 2>/dev/null > "$TMP/o"
	near "$(tail -1 "$TMP/d" | jq '.items["ball::link/pose"].z')" \
	    "$(awk 'BEGIN { printf "%.12f", 0.1 - 2 * 9.81 / (1 / (1 / 1e4 + 1 / 1e12)) }')" 1e-8
	# on the way down too, as ODE's soft contact: within 1e-6 m (0.05% of
	# the depth)
	paste <(jq '.items["ball::link/pose"].z' "$TMP/d") <(jq '.items["ball::link/pose"].z' "$TMP/o") |
	    awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { if (m > 1e-6) { print "apart by " m; exit 1 } }'
	# the ground's max_vel left at 0.01 m/s: capped, the spring would
	# carry at most max_vel (h kp + kd) = 0.111 N and the ball would sink
	# at max_vel - m g / (h kp + kd); it rests m g / kp deep, as under ODE
	sed 's|^<surface><contact><ode><max_vel>100</max_vel></ode></contact></surface></collision>|</collision>|' \
	    "$TMP/w.sdf" > "$TMP/w2.sdf"
	[ "$(grep -c max_vel "$TMP/w2.sdf")" = 1 ]
	phys-step -p dart -t 1 -r 4 -i 'ball::link/pose' "$TMP/w2.sdf" 2>/dev/null > "$TMP/d"
	phys-step -p ode -t 1 -r 4 -i 'ball::link/pose' "$TMP/w2.sdf" 2>/dev/null > "$TMP/o"
	for f in d o; do
		near "$(tail -1 "$TMP/$f" | jq '.items["ball::link/pose"].z')" \
		    "$(awk 'BEGIN { printf "%.12f", 0.1 - 2 * 9.81 / (1 / (1 / 1e4 + 1 / 1e12)) }')" 1e-5
	done
	# without kp and kd, DART's contact is hard: the ball rests on the plane
	sed -i 's|<kp>10000</kp><kd>100</kd>||' "$TMP/w.sdf"
	near "$(phys-step -p dart -t 1 -i 'ball::link/pose' "$TMP/w.sdf" 2>/dev/null | tail -1 | jq '.items["ball::link/pose"].z')" 0.1 1e-4
}

@test "DART: universal, revolute2 and continuous joints turn as under ODE (a universal's first axis with the child), in a tree and as a loop joint" {
	local type dir
	for type in universal revolute2 continuous; do
		for dir in "B A" "A B"; do
			double_pendulum dart $type $dir > "$TMP/w.sdf"
			for p in ode dart; do
				phys-step -p $p -t 0.6 -r 10 -i 'm::*/position' "$TMP/w.sdf" 2>/dev/null |
				    jq -r '.items | [.["m::top/position"][0], .["m::knee/position"][]] | @tsv' > "$TMP/$p"
			done
			echo "$type, parent and child $dir: ode $(tail -1 "$TMP/ode"), dart $(tail -1 "$TMP/dart")"
			# they start at 0 and move
			head -1 "$TMP/dart" | awk '{ for (i = 1; i <= NF; i++) if ($i > 1e-12 || -$i > 1e-12) exit 1 }'
			paste "$TMP/ode" "$TMP/dart" | awk '{ n = NF / 2; for (i = 1; i <= n; i++) { d = $i - $(i + n)
			    if (d < 0) d = -d; if (d > m) m = d; if ($i > t || -$i > t) t = $i < 0 ? -$i : $i } }
			    END { print "apart by " m ", moved " t; exit !(m < 0.005 && t > 0.1) }'
		done
	done
}

@test "a DART profile carried over from another engine's collides with DART's ode detector where the world has a capsule (fcl has none), said once: phys-preset add --engine dart and --engines run an MJCF robot's capsules" {
	cat > "$TMP/cap.xml" <<-EOF
	<mujoco model="cap"><worldbody>
	<geom name="floor" type="plane" size="5 5 0.1"/>
	<body name="rod" pos="0 0 0.5"><freejoint/><geom name="rod" type="capsule" fromto="-0.2 0 0 0.2 0 0" size="0.05"/></body>
	</worldbody></mujoco>
	EOF
	phys-sdf world "$TMP/cap.xml" > "$TMP/cap.sdf"
	bats_require_minimum_version 1.5.0
	run --separate-stderr phys-preset add --engine dart dart "$TMP/cap.sdf"
	assert_success
	assert_equal "$stderr" "phys-preset: profile 'dart': DART collides with its ode detector, as its fcl one has no capsule (collision 'cap::rod::rod'; dart.collision_detector chooses)"
	[[ "$output" == *"<collision_detector>ode</collision_detector>"* ]]
	# the rod lies on the floor at its radius under DART
	printf '%s\n' "$output" > "$TMP/dart.sdf"
	phys-step -q -p dart -t 2 -i 'cap::rod/pose' "$TMP/dart.sdf" | tail -1 > "$TMP/z"
	near "$(jq '.items[].z' "$TMP/z")" 0.05 1e-3
	# --engines takes DART in, as one more engine that finished
	run --separate-stderr phys-step -q --engines mujoco,dart -t 0.1 -i 'cap::rod/pose' "$TMP/cap.xml"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -c 'select(.field == "cap::rod/pose.z") | .values | keys')" = '["dart","mujoco"]' ]
	# a detector the user sets is kept (and fcl refuses the capsule)
	run phys-preset add --engine dart dart dart.collision_detector=fcl "$TMP/cap.sdf"
	assert_success
	[[ "$output" == *"<collision_detector>fcl</collision_detector>"* ]]
}

@test "DART under fcl: a mesh of many triangles on a plane rests level at its height, from the points phys finds below the plane" {
	# a 1 m cube of 6,144 triangles (each face a 32 x 32 grid) resting
	# on the ground and one let fall 2 cm: FCL gave each triangle on the
	# plane, the first ten of them in one corner; the cube sank 18 mm in
	# 0.1 s, which DART took 11 s to compute (it compares each point with
	# every other two of the pair)
	sh "$BATS_TEST_DIRNAME/data/gridcube.sh" 32 > "$TMP/cube.obj"
	{
		echo '<?xml version="1.0"?><sdf version="1.7"><world name="w">'
		echo '<physics name="dart" type="dart"><max_step_size>0.001</max_step_size><dart><collision_detector>fcl</collision_detector></dart></physics>'
		echo '<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>'
		for m in rest:0:0.5 fall:2:0.52; do
			IFS=: read -r name x z <<<"$m"
			echo "<model name=\"$name\"><pose>$x 0 $z 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>"
			echo "<collision name=\"c\"><geometry><mesh><uri>$TMP/cube.obj</uri></mesh></geometry></collision></link></model>"
		done
		echo '</world></sdf>'
	} > "$TMP/cubes.sdf"
	run bounded 30 2000000 phys-step -q -t 0.5 -i '*::l/pose' "$TMP/cubes.sdf"
	assert_success
	for name in rest fall; do
		tail -1 <<<"$output" | jq -e --arg l "$name::l/pose" '.items[$l] |
		    (.z - 0.5 | fabs) < 1e-4 and (.roll | fabs) < 1e-6 and (.pitch | fabs) < 1e-6' ||
		    fail "$name: $(tail -1 <<<"$output" | jq -c --arg l "$name::l/pose" '.items[$l]')"
	done
}
