#!/usr/bin/env bats
# phys-sdf: checking worlds against the SDFormat specification and the
# loader, and printing them whole with every pose in its parent's frame.

load helper
bats_require_minimum_version 1.5.0

setup() {
	TMP="$BATS_TEST_TMPDIR"
}

# write_world VERSION BODY: a world file of that version around BODY, at $TMP/w.sdf.
write_world() {
	printf '<?xml version="1.0"?>\n<sdf version="%s">\n  <world name="w">\n%s\n  </world>\n</sdf>\n' \
	    "$1" "$2" > "$TMP/w.sdf"
}

# The findings of a check as "line severity message" lines.
findings() {
	jq -r '"\(.line) \(.severity) \(.message)"' "$@"
}

@test "a misspelt element: its file and line, and the name it was meant to be" {
	write_world 1.7 '    <physics name="p" type="ode">
      <ode>
        <solver>
          <itres>50</itres>
        </solver>
      </ode>
    </physics>'
	run -1 --separate-stderr phys-sdf check "$TMP/w.sdf"
	[ -z "$stderr" ] || fail "$stderr"
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	assert_equal "$(jq -r .file <<< "$output")" "$TMP/w.sdf"
	assert_equal "$(jq -r .line <<< "$output")" 7
	assert_equal "$(jq -r .severity <<< "$output")" error
	assert_equal "$(jq -r .element <<< "$output")" itres
	assert_equal "$(jq -c .suggest <<< "$output")" '["iters"]'
	[[ "$(jq -r .message <<< "$output")" == *"<itres>"*"did you mean <iters>"* ]]
}

@test "an unknown attribute, with the attribute meant" {
	write_world 1.7 '    <model name="m">
      <link name="a">
        <pose relatve_to="__model__">0 0 1 0 0 0</pose>
      </link>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	assert_equal "$(jq -r .line <<< "$output")" 6
	assert_equal "$(jq -c .suggest <<< "$output")" '["relative_to"]'
	[[ "$(jq -r .message <<< "$output")" == *"no attribute 'relatve_to'"* ]]
}

@test "values of the wrong type or out of the parameter's range" {
	write_world 1.7 '    <physics name="p" type="ode">
      <max_contacts>many</max_contacts>
      <ode>
        <solver>
          <iters>abc</iters>
          <sor>-1</sor>
        </solver>
      </ode>
    </physics>
    <gravity>0 0</gravity>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 --regexp '^5 error <max_contacts>many</max_contacts>: expected an integer$'
	assert_line --index 1 --regexp '^8 error <iters>abc</iters>: expected an integer$'
	assert_line --index 2 --regexp '^9 error <sor>: .*-1 is below the minimum 0'
	assert_line --index 3 --regexp '^13 error <gravity>0 0</gravity>: expected 3 numbers'
	[ "${#lines[@]}" -eq 4 ]
}

@test "a surface, joint or shape value the loader keeps outside its range is one warning, as phys-step gives it, not also an error" {
	write_world 1.9 '    <model name="m">
      <link name="l">
        <collision name="c">
          <geometry><sphere><radius>0</radius></sphere></geometry>
          <surface><contact><collide_bitmask>65536</collide_bitmask></contact></surface>
        </collision>
      </link>
    </model>'
	run -0 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 "7 warning <radius> 0 is not above 0; kept as written (ODE lets such a shape pass through the ground, Bullet collides it as a point; DART, MuJoCo and Simbody refuse it)"
	assert_line --index 1 "8 warning <collide_bitmask> 65536 is outside 0..65535; kept as written"
	[ "${#lines[@]}" -eq 2 ]
	# what phys-step says of them, word for word
	run -0 --separate-stderr phys-step -n 1 "$TMP/w.sdf"
	[[ "$stderr" == *"w.sdf:7: <radius> 0 is not above 0; kept as written (ODE lets such a shape pass through the ground, Bullet collides it as a point; DART, MuJoCo and Simbody refuse it)"* ]]
	[[ "$stderr" == *"w.sdf:8: <collide_bitmask> 65536 is outside 0..65535; kept as written"* ]]
}

@test "required elements and attributes missing" {
	write_world 1.7 '    <model name="m">
      <link name="a"/>
      <link/>
      <joint name="j" type="revolute">
        <parent>a</parent>
      </joint>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 "6 error <link> has no 'name' attribute (required)"
	assert_line --index 1 "7 error <joint> has no <child> (required)"
}

@test "physically impossible inertia and masses that are not positive" {
	write_world 1.7 '    <model name="m">
      <link name="triangle">
        <inertial>
          <mass>1</mass>
          <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.05</izz></inertia>
        </inertial>
      </link>
      <link name="indefinite">
        <inertial>
          <mass>1</mass>
          <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>2</ixy></inertia>
        </inertial>
      </link>
      <link name="weightless">
        <inertial><mass>0</mass></inertial>
      </link>
      <link name="negative">
        <inertial><mass>-2</mass></inertial>
      </link>
      <link name="fine">
        <inertial><mass>1</mass></inertial>
      </link>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	# A negative mass is refused, and the loader stops there; a mass of 0
	# is valid SDF, which phys-step runs with a stand-in mass.
	assert_line --index 0 "18 warning <mass>: a mass of 0 runs, on a moving link, with 1/1000 of its model's lightest mass (its shapes' mass at 1000 kg/m^3 when no link of its model has one)"
	assert_line --index 1 "21 error <mass>: inertial.mass: -2 must be above 0"
	[ "${#lines[@]}" -eq 2 ]
	# Without them, the inertia checks run on every link.
	sed -i 's|<mass>-2</mass>|<mass>2</mass>|; s|<mass>0</mass>|<mass>3</mass>|' "$TMP/w.sdf"
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 --regexp "^6 error link 'm::triangle': triangle inequality"
	assert_line --index 1 --regexp "^12 error link 'm::indefinite': .*positive definite"
	[ "${#lines[@]}" -eq 2 ]
}

@test "a static model's impossible inertia is a warning only" {
	write_world 1.7 '    <model name="m">
      <static>true</static>
      <link name="l">
        <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.05</izz></inertia></inertial>
      </link>
    </model>'
	run -0 phys-sdf check "$TMP/w.sdf"
	assert_equal "$(jq -r .severity <<< "$output")" warning
	[[ "$(jq -r .message <<< "$output")" == *"triangle inequality"* ]]
	[[ "$(jq -r .message <<< "$output")" == *"static"* ]]
}

@test "duplicate names per kind; up to SDF 1.6 a link and a joint may share one (the joint renamed NAME_joint)" {
	local body='    <model name="m">
      <link name="a">
        <visual name="v"/>
        <visual name="v"/>
      </link>
      <link name="b"/>
      <joint name="b" type="revolute"><parent>a</parent><child>b</child></joint>
    </model>'
	write_world 1.6 "$body"
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 "7 error <visual> name 'v' is taken by the <visual> at line 6"
	# SDF 1.6 names links and joints apart: legal; the joint is renamed
	# as libsdformat renames it, with its warning
	assert_line --index 1 "10 warning joint 'm::b' shares its name with a link: it is named 'm::b_joint', as libsdformat names it"
	[ "${#lines[@]}" -eq 2 ]
	write_world 1.7 "$body"
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --index 0 "7 error <visual> name 'v' is taken by the <visual> at line 6"
	assert_line --index 1 "10 error <joint> name 'b' is taken by the <link> at line 9"
	[ "${#lines[@]}" -eq 2 ]
}

@test "dangling joint parents and children, frames and relative_to" {
	write_world 1.7 '    <model name="m">
      <link name="a"/>
      <joint name="j" type="revolute"><parent>a</parent><child>nowhere</child></joint>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_output "6 error no link or frame named 'nowhere'"
	write_world 1.7 '    <model name="m">
      <link name="a"><pose relative_to="ghost">0 0 1 0 0 0</pose></link>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_output "5 error no frame named 'ghost' in this model"
	write_world 1.7 '    <model name="m">
      <frame name="f" attached_to="ghost"/>
      <link name="a"><pose relative_to="f">0 0 1 0 0 0</pose></link>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_output --regexp "^(5|6) error no frame named 'ghost' in this model$"
	# Frames nothing refers to are resolved too, at world and model level.
	write_world 1.7 '    <frame name="wf" attached_to="nobody"/>
    <model name="m">
      <link name="a"/>
      <frame name="f" attached_to="ghost"/>
      <frame name="g"><pose relative_to="phantom">0 0 0 0 0 0</pose></frame>
      <frame name="h" attached_to="a"><pose relative_to="__model__">0 0 0 0 0 0</pose></frame>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	# an attachment to nothing stops the loader: one finding at a time
	assert_output "7 error frame 'f' is attached to 'ghost', which this model does not have"
	sed -i '/attached_to="ghost"/d' "$TMP/w.sdf"
	run -1 phys-sdf check "$TMP/w.sdf"
	assert_equal "$(findings <<< "$output")" "7 error no frame named 'phantom' in this model"
	sed -i '/relative_to="phantom"/d' "$TMP/w.sdf"
	run -1 phys-sdf check "$TMP/w.sdf"
	assert_equal "$(findings <<< "$output")" "4 error frame 'wf' is attached to 'nobody', which the world does not have"
}

@test "plugins and foreign namespaces are free-form" {
	write_world 1.7 '    <plugin name="p" filename="libx.so">
      <anything><goes>here</goes></anything>
    </plugin>
    <model name="m" xmlns:gz="http://gazebosim.org/schema">
      <gz:extension>1</gz:extension>
      <link name="a" gz:flag="1"/>
    </model>'
	run -0 --separate-stderr phys-sdf check "$TMP/w.sdf"
	assert_output ""
}

@test "an element only a later version describes is a warning" {
	write_world 1.5 '    <physics type="ode">
      <dart><solver><solver_type>dantzig</solver_type></solver></dart>
    </physics>'
	run -0 phys-sdf check "$TMP/w.sdf"
	[[ "$(jq -r .message <<< "$output")" == *"<dart> in <physics> is from SDF 1.6, not SDF 1.5"* ]]
	assert_equal "$(jq -r .severity <<< "$output")" warning
}

@test "findings in file order, byte-identical from run to run, stdin as -" {
	write_world 1.7 '    <model name="m">
      <link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz></inertia></inertial></link>
      <link name="b"><colour/></link>
      <link name="a"/>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	local first=$output
	jq -r .line <<< "$output" > "$TMP/lines"
	sort -n "$TMP/lines" | diff - "$TMP/lines"
	[ "$(wc -l < "$TMP/lines")" -ge 2 ]
	run -1 phys-sdf check "$TMP/w.sdf"
	assert_equal "$output" "$first"
	run -1 phys-sdf check - < "$TMP/w.sdf"
	assert_equal "$output" "${first//$TMP\/w.sdf/<stdin>}"
}

@test "malformed XML, /dev/null and a missing file are findings or errors, never a crash" {
	printf '<sdf version="1.7"><world name="w"><model>' > "$TMP/bad.sdf"
	run -1 phys-sdf check "$TMP/bad.sdf"
	assert_equal "$(jq -r .severity <<< "$output")" error
	[[ "$(jq -r .message <<< "$output")" == *"malformed XML"* ]]
	run -1 phys-sdf check /dev/null
	run -1 phys-sdf check "$TMP/missing.sdf"
	[[ "$output" == *"missing.sdf"* ]]
}

@test "usage: no command, an unknown command, two worlds" {
	run -2 --separate-stderr phys-sdf
	[[ "$stderr" == usage:* ]]
	run -2 --separate-stderr phys-sdf verify x.sdf
	[[ "$stderr" == *"unknown command 'verify'"* ]]
	run -2 --separate-stderr phys-sdf check a.sdf b.sdf
	[ -z "$output" ]
}

@test "every world under worlds/ checks without errors" {
	local f
	export GAZEBO_MODEL_PATH="$WORLDS/models"
	for f in "$WORLDS"/*.sdf; do
		case $f in
		*/bad_inertia.sdf) continue ;;	# broken on purpose, below
		*/inertia_show.sdf) continue ;;	# its wheel too, for the picture
		esac
		run phys-sdf check "$f"
		[ "$status" -eq 0 ] || fail "$f: $output"
		[ -z "$(jq -r 'select(.severity == "error")' <<< "$output")" ] ||
		    fail "$f: $output"
	done
	# inertia_show.sdf's wheel, and nothing else
	run -1 phys-sdf check "$WORLDS/inertia_show.sdf"
	[ "$(jq -r 'select(.severity == "error") | .message' <<< "$output")" = \
	    "link 'wheel::link': triangle inequality broken: I1 + I2 < I3 (0.002 + 0.002 < 0.0113); libsdformat finds it invalid too, and refuses the file" ]
	# bad_inertia.sdf's broken link, and nothing else.
	run -1 phys-sdf check "$WORLDS/bad_inertia.sdf"
	assert_equal "$(jq -c '[select(.severity == "error") | .message |
	    startswith("link '"'impossible::link'"': ")]' <<< "$output")" '[true]'
}

@test "Gazebo's own worlds check without errors" {
	[ -d "$REF/gazebo-worlds" ] || skip "../shared/reference is not here"
	local f
	export GAZEBO_MODEL_PATH="$REF/gazebo-models"
	for f in "$REF"/gazebo-worlds/*.world; do
		run phys-sdf check "$f"
		[ "$status" -eq 0 ] || fail "$f: $output"
	done
}

# ---- print ----

# A world with an included model (model:// and relative), nested models,
# frames at world and model level, relative_to everywhere and an axis
# expressed in the model frame.
print_world() {
	mkdir -p "$TMP/models/widget"
	cat > "$TMP/models/widget/model.config" <<-'EOF'
	<?xml version="1.0"?>
	<model><name>widget</name><sdf version="1.7">model.sdf</sdf></model>
	EOF
	cat > "$TMP/models/widget/model.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.7">
	  <model name="widget">
	    <pose>0 0 9 0 0 0</pose>
	    <frame name="top"><pose>0 0 0.5 0 0 0</pose></frame>
	    <link name="body">
	      <pose relative_to="top">0.1 0 0 0 0 0</pose>
	      <collision name="c">
	        <pose relative_to="top">0 0 0 0 0 0.3</pose>
	        <geometry><box><size>0.1 0.1 0.1</size></box></geometry>
	      </collision>
	    </link>
	  </model>
	</sdf>
	EOF
	cat > "$TMP/world.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.7">
	  <world name="w">
	    <gravity>0 -5 -9.81</gravity>
	    <frame name="base"><pose>1 2 0 0 0 1.5707963267948966</pose></frame>
	    <model name="robot">
	      <pose relative_to="base">1 0 0 0 0 0</pose>
	      <frame name="f1" attached_to="arm"><pose>0 0 1 0 0 0</pose></frame>
	      <link name="arm"><pose>0.5 0 0 0 0 0</pose></link>
	      <link name="hand">
	        <pose relative_to="f1">0 1 0 0 0 0</pose>
	        <visual name="v"><pose relative_to="arm">0 0 0 0 0 0</pose></visual>
	      </link>
	      <joint name="slide" type="prismatic">
	        <pose relative_to="arm">0 0 0 0 0 0</pose>
	        <parent>world</parent>
	        <child>hand</child>
	        <axis><xyz expressed_in="__model__">1 0 0</xyz></axis>
	      </joint>
	      <model name="inner">
	        <pose relative_to="hand">0 0 1 0 0 0</pose>
	        <link name="l"/>
	      </model>
	      <include>
	        <uri>model://widget</uri>
	        <name>w1</name>
	        <pose>2 0 0 0 0 0</pose>
	      </include>
	    </model>
	    <include>
	      <uri>models/widget</uri>
	      <name>w2</name>
	      <pose>0 0 3 0 0 0</pose>
	      <static>true</static>
	    </include>
	  </world>
	</sdf>
	EOF
	export GAZEBO_MODEL_PATH="$TMP/models"
}

# Every item of the first state line, one "name value" a line, numbers
# rounded to 1e-9 so that rounding in the last digit does not count.
world_poses() {
	phys-step -n 0 -i '*/pose' "$1" | head -1 |
	    jq -r '.items | to_entries[] | .key as $k | .value |
		to_entries[] | "\($k).\(.key) \(.value * 1e9 | round / 1e9)"' |
	    sed 's/ -0$/ 0/' | sort
}

@test "print: includes resolved, no relative_to left, every link where it was" {
	print_world
	run -0 --separate-stderr phys-sdf print "$TMP/world.sdf"
	printf '%s\n' "$output" > "$TMP/printed.sdf"
	[ -z "$stderr" ] || fail "$stderr"
	run -1 grep -q '<include' "$TMP/printed.sdf"
	run -1 grep -q 'expressed_in' "$TMP/printed.sdf"
	# Only frames, which keep attached_to, still name the frame they are in.
	run grep -c 'relative_to' "$TMP/printed.sdf"
	assert_output 1
	grep -q '<frame name="f1" attached_to="arm"><pose relative_to="__model__">' "$TMP/printed.sdf"
	world_poses "$TMP/world.sdf" > "$TMP/before"
	world_poses "$TMP/printed.sdf" > "$TMP/after"
	[ "$(wc -l < "$TMP/before")" -ge 8 ]
	diff "$TMP/before" "$TMP/after"
	# The printed world needs no model path.
	GAZEBO_MODEL_PATH= phys-step -n 0 "$TMP/printed.sdf" > /dev/null
	phys-sdf check "$TMP/printed.sdf"
}

@test "print: poses computed by hand" {
	print_world
	phys-sdf print "$TMP/world.sdf" > "$TMP/printed.sdf"
	world_poses "$TMP/printed.sdf" > "$TMP/p"
	# robot: base (1 2 0, yaw 90) then 1 along base x: (1 3 0).
	# arm: 0.5 along robot x (world y): (1 3.5 0); f1 1 above it;
	# hand: 1 along f1's y (world -x): (0 3.5 1), yaw 90.
	grep -qx 'robot::hand/pose.x 0' "$TMP/p"
	grep -qx 'robot::hand/pose.y 3.5' "$TMP/p"
	grep -qx 'robot::hand/pose.z 1' "$TMP/p"
	grep -qx 'robot::hand/pose.yaw 1.570796327' "$TMP/p"
	# w1: 2 along robot x (world y): (1 5 0); body 0.1 along x, 0.5 up in
	# w1's axes: (1 5.1 0.5).
	grep -qx 'robot::w1::body/pose.x 1' "$TMP/p"
	grep -qx 'robot::w1::body/pose.y 5.1' "$TMP/p"
	grep -qx 'robot::w1::body/pose.z 0.5' "$TMP/p"
	# w2 at the world's 0 0 3, static as its include says.
	grep -qx 'w2::body/pose.z 3.5' "$TMP/p"
	grep -q '<static>true</static>' "$TMP/printed.sdf"
}

@test "print: the joint axis keeps its direction (the hand slides along world y)" {
	print_world
	phys-sdf print "$TMP/world.sdf" > "$TMP/printed.sdf"
	# The axis was model x, which is world y: written in the joint frame.
	grep -q '<xyz>1 0 0</xyz>' "$TMP/printed.sdf"
	for f in world printed; do
		phys-step -t 0.5 -e 500 -i 'robot::hand/pose' "$TMP/$f.sdf" |
		    tail -1 | jq -r '.items["robot::hand/pose"] | "\(.x) \(.y) \(.z)"' > "$TMP/$f.end"
	done
	read -r x y z < "$TMP/printed.end"
	near "$x" 0 1e-9
	near "$z" 1 1e-9
	# Semi-implicit Euler: y = 3.5 - g dt^2 n (n + 1) / 2 with g = 5.
	near "$y" 2.87375 1e-6
	read -r x y z < "$TMP/world.end"
	near "$y" 2.87375 1e-6
}

@test "print: the output is byte-identical from run to run, and reads stdin" {
	print_world
	phys-sdf print "$TMP/world.sdf" > "$TMP/a"
	phys-sdf print "$TMP/world.sdf" > "$TMP/b"
	cmp "$TMP/a" "$TMP/b"
	# From stdin, relative includes have no directory to be relative to.
	sed -i 's|<uri>models/widget</uri>|<uri>model://widget</uri>|' "$TMP/world.sdf"
	phys-sdf print - < "$TMP/world.sdf" > "$TMP/c"
	phys-sdf print "$TMP/world.sdf" > "$TMP/d"
	cmp "$TMP/c" "$TMP/d"
}

@test "print: a world that does not load is an error, not a half-written file" {
	write_world 1.7 '    <model name="m"><link name="a"><pose relative_to="ghost"/></link></model>'
	run -1 --separate-stderr phys-sdf print "$TMP/w.sdf"
	[ -z "$output" ]
	[[ "$stderr" == "phys-sdf: $TMP/w.sdf:4: no frame named 'ghost'"* ]]
}

@test "print: an SDF 1.4 model's axis (in its model's frame) rewritten for a 1.6 world" {
	mkdir -p "$TMP/models/hinge"
	# The arm is turned 90 degrees about z, so its x is world y; its centre
	# of mass is 0.5 m along its x. SDF 1.4 reads the axis in the model
	# frame: world x, about which gravity swings the arm. Read in the
	# joint frame it would be world y, through the centre of mass.
	cat > "$TMP/models/hinge/model.sdf" <<-'EOF2'
	<?xml version="1.0"?>
	<sdf version="1.4">
	  <model name="hinge">
	    <link name="arm">
	      <pose>0 0 2 0 0 1.5707963267948966</pose>
	      <inertial>
	        <pose>0.5 0 0 0 0 0</pose>
	        <mass>1</mass>
	        <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia>
	      </inertial>
	    </link>
	    <joint name="pin" type="revolute">
	      <parent>world</parent>
	      <child>arm</child>
	      <axis><xyz>1 0 0</xyz></axis>
	    </joint>
	  </model>
	</sdf>
	EOF2
	write_world 1.6 '    <include><uri>model://hinge</uri></include>'
	export GAZEBO_MODEL_PATH="$TMP/models"
	phys-sdf print "$TMP/w.sdf" > "$TMP/printed.sdf"
	grep -q '<sdf version="1.6">' "$TMP/printed.sdf"
	grep -q '<xyz>0 -1 0</xyz>' "$TMP/printed.sdf"
	for f in w printed; do
		phys-step -t 0.3 -e 300 -i 'hinge::arm/pose' "$TMP/$f.sdf" |
		    tail -1 | jq -r '.items["hinge::arm/pose"].pitch' > "$TMP/$f.end"
	done
	# The same swing in both; about world x, which turns the arm's
	# (yawed) frame in pitch. About world y it would not move at all.
	near "$(cat "$TMP/printed.end")" "$(cat "$TMP/w.end")" 1e-9
	awk -v p="$(cat "$TMP/w.end")" 'BEGIN { exit !(p > 0.5) }' ||
	    fail "pitch $(cat "$TMP/w.end"): the arm did not swing"
}

@test "prefixes nobody declared (<gz:...>, ignition:) are taken as they are" {
	write_world 1.7 '    <model name="m">
      <ignition:extension>1</ignition:extension>
      <link name="a" gz:flag="1"/>
    </model>'
	run -0 --separate-stderr phys-sdf check "$TMP/w.sdf"
	assert_output ""
	run -0 phys-step -n 0 -i 'm::a/pose' "$TMP/w.sdf"
}

@test "included files are checked too, after the world, under their own names" {
	mkdir -p "$TMP/models/box"
	cat > "$TMP/models/box/model.sdf" <<-'EOF2'
	<?xml version="1.0"?>
	<sdf version="1.6">
	  <model name="box">
	    <link name="link">
	      <inertial><mas>1</mas></inertial>
	    </link>
	  </model>
	</sdf>
	EOF2
	write_world 1.7 '    <include><uri>model://box</uri></include>
    <model name="m"><link name="a"><colour/></link></model>'
	export GAZEBO_MODEL_PATH="$TMP/models"
	run -1 phys-sdf check "$TMP/w.sdf"
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_equal "$(jq -r '"\(.file):\(.line) \(.element)"' <<< "${lines[0]}")" "$TMP/w.sdf:5 colour"
	assert_equal "$(jq -r '"\(.file):\(.line) \(.element)"' <<< "${lines[1]}")" "$TMP/models/box/model.sdf:5 mas"
	assert_equal "$(jq -c .suggest <<< "${lines[1]}")" '["mass"]'
}

@test "an unknown element close to no known name is a warning (gz-sim's <gz_frame_id>), a misspelt one an error" {
	write_world 1.9 '    <model name="m">
      <link name="l">
        <sensor name="imu" type="imu"><gz_frame_id>l</gz_frame_id><always_onn>1</always_onn></sensor>
      </link>
    </model>'
	run -1 phys-sdf check "$TMP/w.sdf"
	findings <<< "$output" > "$TMP/f"
	run cat "$TMP/f"
	assert_line --partial "warning unknown element <gz_frame_id> in <sensor> (SDF 1.9): not SDFormat; libsdformat keeps it and phys ignores it"
	assert_line --partial "error unknown element <always_onn> in <sensor> (SDF 1.9); did you mean <always_on>?"
	sed -i 's|<always_onn>1</always_onn>||' "$TMP/w.sdf"
	run -0 phys-sdf check "$TMP/w.sdf"
}

# ---- world: a robot placed in a world ----

JQ_POSES='
def R(r; p; y): [[(y|cos) * (p|cos), (y|cos) * (p|sin) * (r|sin) - (y|sin) * (r|cos), (y|cos) * (p|sin) * (r|cos) + (y|sin) * (r|sin)],
	[(y|sin) * (p|cos), (y|sin) * (p|sin) * (r|sin) + (y|cos) * (r|cos), (y|sin) * (p|sin) * (r|cos) - (y|cos) * (r|sin)],
	[0 - (p|sin), (p|cos) * (r|sin), (p|cos) * (r|cos)]];
def mv(A; v): [range(3) as $i | A[$i][0] * v[0] + A[$i][1] * v[1] + A[$i][2] * v[2]];
def mm(A; B): [range(3) as $i | [range(3) as $j | A[$i][0] * B[0][$j] + A[$i][1] * B[1][$j] + A[$i][2] * B[2][$j]]];
'

# robot_poses RUN: the first state line's poses of the quadruped's links,
# collisions and joints.
robot_poses() {
	phys-step -n 0 -i 'quadruped::*/pose' "$1" 2> /dev/null | head -1
}

# placed_error POSE BARE PLACED: over every pose of BARE, the largest
# difference (m, or a rotation matrix's entry) between POSE (a JSON
# array x y z roll pitch yaw) applied to it and the same pose in PLACED.
placed_error() {
	jq -n --argjson P "$1" --slurpfile a "$2" --slurpfile b "$3" "$JQ_POSES"'
	R($P[3]; $P[4]; $P[5]) as $RP |
	[$a[0].items | to_entries[] | .value as $u | $b[0].items[.key] as $v |
	 (mv($RP; [$u.x, $u.y, $u.z]) | [.[0] + $P[0], .[1] + $P[1], .[2] + $P[2]]) as $p |
	 mm($RP; R($u.roll; $u.pitch; $u.yaw)) as $M | R($v.roll; $v.pitch; $v.yaw) as $N |
	 [$p[0] - $v.x, $p[1] - $v.y, $p[2] - $v.z, (range(3) as $i | range(3) as $j | $M[$i][$j] - $N[$i][$j])] |
	 map(fabs) | max] | max'
}

below() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }' || fail "$1 is not below $2"
}

@test "world --pose: a robot placed in one command, each link, collision and joint where the pose puts it" {
	local robot="$WORLDS/robots/quadruped.urdf"
	robot_poses "$robot" > "$TMP/bare"
	[ "$(jq '.items | length' "$TMP/bare")" -gt 30 ]
	phys-sdf world --ground --pose '0.5 -1.25 0.6 0.3 -0.2 2.5' -o "$TMP/w.sdf" "$robot"
	grep -q '<pose>0.5 -1.25 0.6 0.3 -0.2 2.5</pose>' "$TMP/w.sdf"
	robot_poses "$TMP/w.sdf" > "$TMP/placed"
	below "$(placed_error '[0.5, -1.25, 0.6, 0.3, -0.2, 2.5]' "$TMP/bare" "$TMP/placed")" 1e-9
	# three numbers place it without a turn
	phys-sdf world --pose '1 2 0.3' -o "$TMP/w3.sdf" "$robot"
	grep -q '<pose>1 2 0.3 0 0 0</pose>' "$TMP/w3.sdf"
	robot_poses "$TMP/w3.sdf" > "$TMP/placed"
	below "$(placed_error '[1, 2, 0.3, 0, 0, 0]' "$TMP/bare" "$TMP/placed")" 1e-12
	# not a pose, or world's options given to another command: usage errors
	run -2 phys-sdf world --pose '1 2' "$robot"
	[[ "$output" == *"--pose: '1 2' is no pose: X Y Z or X Y Z ROLL PITCH YAW, in numbers"* ]]
	run -2 phys-sdf world --pose '1 2 3 x 0 0' "$robot"
	run -2 phys-sdf check --pose '1 2 3' "$robot"
	[[ "$output" == *"--pose is world's option"* ]]
	run -2 phys-sdf check -o "$TMP/p.sdf" "$robot"
	[[ "$output" == *"--output is print's and world's option"* ]]
	[ ! -e "$TMP/p.sdf" ]
	# print writes to -o what it prints on standard output
	phys-sdf print -o "$TMP/p.sdf" "$robot"
	cmp "$TMP/p.sdf" <(phys-sdf print "$robot")
}

# trunk_heights WORLD ENGINE: the Go1-like trunk's height at its start,
# its highest and at 0.4 s under ENGINE, from WORLD given that profile.
trunk_heights() {
	phys-preset add -q --engine "$2" "$2" "$1" > "$TMP/$2.sdf"
	phys-step -q -p "$2" -t 0.4 -e 10 -i 'go1like::trunk/pose' "$TMP/$2.sdf" |
	    jq -s -r '[.[].items["go1like::trunk/pose"].z] |
	    "\(.[0]) \(max) \(.[-1])"'
}

# settled "Z0 HIGHEST END" START: the trunk started at START, never rose
# above it and has fallen onto the ground, not through it.
settled() {
	awk -v h="$1" -v s="$2" 'BEGIN { split(h, z, " ");
	    exit !(z[1] == s && z[2] <= s + 1e-4 && z[3] > 0.04 &&
	    z[3] < 0.25) }'
}

settles_without_jump() {
	local h
	h=$(trunk_heights "$TMP/w.sdf" "$1")
	echo "$1: $h"
	settled "$h" "$(cat "$TMP/z0")" || fail "$1: $h"
}

@test "world --ground: a robot whose file puts its feet below its base is set on the ground, not in it, and falls under every engine without a jump" {
	local robot="$WORLDS/robots/go1like.urdf" z h
	# The lowest point: a foot, a sphere of 0.02 m at the end of a
	# 0.213 m thigh hanging below the trunk's origin and a 0.213 m calf,
	# which a run starts at its upper limit, -0.888 rad, its zero pose
	# being outside its limits: a leg that starts straight drops 8 cm.
	phys-sdf world --ground -o "$TMP/w.sdf" "$robot"
	z=$(awk 'BEGIN { print 0.213 + 0.213 * cos(0.888) + 0.02 }')
	sed -n 's|^      <pose>0 0 \([^ ]*\) 0 0 0</pose>$|\1|p' "$TMP/w.sdf" > "$TMP/z0"
	awk -v z="$z" '{ exit !($1 >= z && $1 <= z + 1e-6) } END { exit NR != 1 }' "$TMP/z0" ||
	    fail "set at $(cat "$TMP/z0"), not $z to the micrometre above"
	each_engine settles_without_jump
	# its feet (their centres 0.213 m down the calves) start on the
	# ground and stay on it, under ODE, where a robot set straight would
	# start them 8 cm up once its knees are set
	phys-step -q -p ode -n 20 -e 1 -i 'go1like::FL_calf/pose' "$TMP/w.sdf" |
	    jq -r '.items["go1like::FL_calf/pose"] |
	    .z - 0.213 * (.pitch | cos) * (.roll | cos)' > "$TMP/foot"
	awk 'NR == 1 { on = $1 > 0.02 - 1e-9 && $1 < 0.02 + 1e-6 }
	    END { exit !(on && $1 > 0.019) }' "$TMP/foot" ||
	    fail "the foot did not start on the ground: $(tr '\n' ' ' < "$TMP/foot")"
	# placed low, its legs start in the ground, and ODE throws it
	# through the ground
	sed 's|<pose>0 0 [^ ]* 0 0 0</pose>|<pose>0 0 0.1 0 0 0</pose>|' "$TMP/w.sdf" > "$TMP/low.sdf"
	h=$(trunk_heights "$TMP/low.sdf" ode 2> /dev/null)
	settled "$h" 0.1 && fail "started in the ground, it settled: $h"
	# pitched 0.2 rad at a height given too low: raised until the front
	# feet, 0.1881 m forward and the calf's 0.213 sin 0.888 beyond,
	# touch; x, y and the turn kept; said
	run --separate-stderr phys-sdf world --ground --pose '1 -2 0.1 0 0.2 0' "$robot"
	z=$(awk 'BEGIN { c = 0.888; x = 0.1881 + 0.213 * sin(c)
	    print x * sin(0.2) + (0.213 + 0.213 * cos(c)) * cos(0.2) + 0.02 }')
	echo "$output" | sed -n 's|^      <pose>1 -2 \([^ ]*\) 0 0.2 0</pose>$|\1|p' > "$TMP/z"
	awk -v z="$z" '{ exit !($1 >= z && $1 <= z + 1e-6) } END { exit NR != 1 }' "$TMP/z" ||
	    fail "raised to $(cat "$TMP/z"), not $z to the micrometre above"
	[[ "$stderr" == "phys-sdf: --pose: model 'go1like' raised to z $(cat "$TMP/z") to rest on the ground: its collision 'go1like::F"?"_calf::F"?"_calf_fixed_joint_lump__F"?"_foot_collision_1' would start 0.331 m below it" ]]
	# a height that clears the ground is kept; without --ground, any is
	phys-sdf world --ground --pose '0 0 0.7' "$robot" | grep -q '<pose>0 0 0.7 0 0 0</pose>'
	# a joint outside its limits that a loop through the world holds,
	# whose position a run cannot set, is left where the file puts it:
	# the arm hangs 0.9 m down, not turned 1 rad about the knee
	mkdir -p "$TMP/loop"
	cat > "$TMP/loop/model.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7"><model name="lp">
  <link name="base"><collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link>
  <link name="arm"><pose>0 0 -0.5 0 0 0</pose>
    <collision name="c"><geometry><box><size>0.05 0.05 0.8</size></box></geometry></collision></link>
  <joint name="knee" type="revolute"><parent>base</parent><child>arm</child><pose>0 0 0.4 0 0 0</pose>
    <axis><xyz>0 1 0</xyz><limit><lower>1</lower><upper>1.5</upper></limit></axis></joint>
  <joint name="pin" type="revolute"><parent>world</parent><child>arm</child><pose>0 0 -0.4 0 0 0</pose>
    <axis><xyz>0 1 0</xyz></axis></joint>
</model></sdf>
SDF
	phys-sdf world --ground "$TMP/loop/model.sdf" | grep -q '^      <pose>0 0 0.9 0 0 0</pose>$'
	phys-sdf world --pose '0 0 0.1' "$robot" | grep -q '<pose>0 0 0.1 0 0 0</pose>'
}

@test "world -o: the include resolves from the written file, from any directory; on standard output, by its absolute path" {
	mkdir -p "$TMP/proj/worlds/mine" "$TMP/proj/robots"
	cp "$WORLDS/robots/quadruped.urdf" "$TMP/proj/robots/q.urdf"
	( cd "$TMP/proj" && phys-sdf world --ground -o worlds/mine/w.sdf robots/q.urdf )
	grep -q '<uri>../../robots/q.urdf</uri>' "$TMP/proj/worlds/mine/w.sdf"
	# it runs from anywhere, and moves with its directory
	( cd / && phys-step -n 0 -i 'quadruped::trunk/pose' "$TMP/proj/worlds/mine/w.sdf" > /dev/null )
	mv "$TMP/proj" "$TMP/moved"
	( cd "$TMP/moved/worlds" && phys-step -n 0 -i 'quadruped::trunk/pose' mine/w.sdf > /dev/null )
	# a file beside the world is named bare; one that shares no
	# directory with it, by its absolute path
	( cd "$TMP/moved/robots" && phys-sdf world -o w.sdf q.urdf )
	grep -q '<uri>q.urdf</uri>' "$TMP/moved/robots/w.sdf"
	phys-sdf world -o "$TMP/moved/w.sdf" /dev/null 2> /dev/null && fail "/dev/null is no model"
	# standard output: the absolute path, which runs wherever it is written
	( cd "$TMP/moved" && phys-sdf world robots/q.urdf > "$TMP/moved/worlds/stdout.sdf" )
	grep -q "<uri>$TMP/moved/robots/q.urdf</uri>" "$TMP/moved/worlds/stdout.sdf"
	( cd / && phys-step -n 0 -i 'quadruped::trunk/pose' "$TMP/moved/worlds/stdout.sdf" > /dev/null )
	# a directory that is not there: an error, nothing written
	run -1 phys-sdf world -o "$TMP/none/w.sdf" "$TMP/moved/robots/q.urdf"
	[[ "$output" == *"$TMP/none: No such file or directory"* ]]
}

@test "a model's pose set by name in its world: MODEL/pose, in the <include> or the <model>" {
	local robot="$WORLDS/robots/quadruped.urdf"
	robot_poses "$robot" > "$TMP/bare"
	phys-sdf world --ground --pose '0 0 0.5' -o "$TMP/w.sdf" "$robot"
	phys-param get quadruped/pose "$TMP/w.sdf" | jq -ce '. == {"name":"quadruped/pose","type":"pose","value":{"x":0,"y":0,"z":0.5,"roll":0,"pitch":0,"yaw":0}}'
	cp "$TMP/w.sdf" "$TMP/before.sdf"
	phys-param set --in-place 'quadruped/pose=-2 3 0.35 0 0.1 -1' "$TMP/w.sdf"
	# one line changed, the include's pose
	diff "$TMP/before.sdf" "$TMP/w.sdf" > "$TMP/diff" || true
	[ "$(grep -c '^[<>]' "$TMP/diff")" -eq 2 ]
	grep -q '^>       <pose>-2 3 0.35 0 0.1 -1</pose>$' "$TMP/diff"
	robot_poses "$TMP/w.sdf" > "$TMP/placed"
	below "$(placed_error '[-2, 3, 0.35, 0, 0.1, -1]' "$TMP/bare" "$TMP/placed")" 1e-9
	phys-param get quadruped/pose "$TMP/w.sdf" | jq -e '.value | .x == -2 and .y == 3 and .z == 0.35'
	# a parameter line sets it too; a model of the world gets a <pose>
	# after its <static>, relative_to and degrees gone
	echo '{"name":"ground_plane/pose","value":{"x":0,"y":0,"z":-0.5,"roll":0,"pitch":0,"yaw":0}}' |
	    phys-param set -f - "$TMP/w.sdf" > "$TMP/g.sdf"
	grep -A1 '<static>true</static>' "$TMP/g.sdf" | grep -q '<pose>0 0 -0.5 0 0 0</pose>'
	write_world 1.8 '    <frame name="f"><pose>0 0 5 0 0 0</pose></frame>
    <model name="m">
      <pose relative_to="f" degrees="true">0 0 1 0 0 90</pose>
      <link name="l"><inertial><mass>1</mass></inertial></link>
    </model>'
	phys-param get m/pose "$TMP/w.sdf" | jq -e '.value.z == 6'
	phys-param set 'm/pose=1 0 2 0 0 0' "$TMP/w.sdf" | grep -qx '      <pose>1 0 2 0 0 0</pose>'
	# not a pose, no world to place it in, a model another file places,
	# or a run's setting: errors that say where to set it
	run -1 phys-param set 'm/pose=1 2 3' "$TMP/w.sdf"
	[[ "$output" == *"m/pose: '1 2 3' is no pose: six numbers, x y z roll pitch yaw"* ]]
	run -1 phys-param set 'quadruped/pose=0 0 1 0 0 0' "$robot"
	[[ "$output" == *"is a URDF file: it holds no world to place it in"* ]]
	mkdir "$TMP/nest"
	printf '%s\n' '<sdf version="1.8"><model name="outer"><link name="a"><inertial><mass>1</mass></inertial></link>' \
	    '<model name="inner"><pose>1 0 0 0 0 0</pose><link name="b"><inertial><mass>1</mass></inertial></link></model></model></sdf>' > "$TMP/nest/model.sdf"
	write_world 1.8 "    <include><uri>$TMP/nest/model.sdf</uri></include>"
	run -1 phys-param set 'outer::inner/pose=0 0 0 0 0 0' "$TMP/w.sdf"
	[[ "$output" == *"outer::inner is placed in the included file $TMP/nest/model.sdf; edit that file instead"* ]]
	phys-param set 'outer/pose=0 0 1 0 0 0' "$TMP/w.sdf" > /dev/null
	run -1 phys-step -s 'outer/pose=0 0 0 0 0 0' -n 1 "$TMP/w.sdf"
	[[ "$output" == *"'outer' is a model: where it starts is set in its world (phys-param set 'outer/pose=X Y Z ROLL PITCH YAW') or on a control line at t=0"* ]]
}

@test "check: an inertial pose as a quaternion (SDF 1.9's rotation_format) is no error, as the loader reads it; one of six numbers is, asking for seven" {
	cat > "$TMP/q.sdf" <<'SDF'
<?xml version="1.0" ?>
<sdf version="1.9">
  <model name="m">
    <link name="l">
      <inertial>
        <pose rotation_format="quat_xyzw">1 2 3 0.7071067811865476 0 0 0.7071067811865476</pose>
        <mass>10</mass>
      </inertial>
    </link>
  </model>
</sdf>
SDF
	run -0 phys-sdf check "$TMP/q.sdf"
	assert_output ""
	# the loader's reading: rolled a quarter turn
	near "$(phys-param get "$TMP/q.sdf" 'm::l/inertial.pose' | jq .value.roll)" 1.5707963267948966 1e-12
	sed 's|0.7071067811865476 0 0 0.7071067811865476|0 0 0|' "$TMP/q.sdf" > "$TMP/bad.sdf"
	run -1 phys-sdf check "$TMP/bad.sdf"
	assert_output --partial '"line":6,"severity":"error","message":"<pose>1 2 3 0 0 0</pose>: expected 7 numbers (x y z qx qy qz qw)"'
}
