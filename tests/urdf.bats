#!/usr/bin/env bats
# URDF robots, read as Gazebo reads them (libsdformat's conversion): the
# robots of worlds/robots/ checked against values computed by hand,
# against closed forms of their motion, and, where Debian's libsdformat is
# installed, against its own conversion (tests/data/sdformat_oracle.cc).
# What libsdformat loses, phys keeps and says so; edits stay URDF.

load helper
bats_require_minimum_version 1.5.0

ROBOTS="$WORLDS/robots"

setup_file() {
	build_sdformat_oracle
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) \
	    -lm -o "$BATS_FILE_TMPDIR/geomgen"
	mkdir "$BATS_FILE_TMPDIR/gen"
	"$BATS_FILE_TMPDIR/geomgen" "$BATS_FILE_TMPDIR/gen"
}

# package DIR: rover_description's meshes under DIR/rover_description.
package() {
	mkdir -p "$1/rover_description/meshes"
	cp "$BATS_FILE_TMPDIR/gen/cube.stl" "$1/rover_description/meshes/chassis.stl"
}

@test "a two-link arm: the fixed tool is lumped into the forearm by parallel axes" {
	phys-param get "$ROBOTS/arm.urdf" 'arm::fore/inertial.*' |
	    jq -r '[.name, (.value | if type == "object" then [.x, .y, .z, .roll, .pitch, .yaw] | join(" ") else . end)] | @tsv' > "$TMP/got"
	# By hand: the forearm (0.5 kg at x = 0.15, a 0.3 x 0.04 x 0.04 box)
	# and the tool (0.2 kg at 0.02 above its frame, turned 90 degrees
	# about z at x = 0.3: its ixx and iyy trade places) about their joint
	# centre of mass, in the forearm's axes.
	awk 'BEGIN {
		m1 = 0.5; x1 = 0.15; z1 = 0; m2 = 0.2; x2 = 0.3; z2 = 0.02
		m = m1 + m2; cx = (m1 * x1 + m2 * x2) / m; cz = (m1 * z1 + m2 * z2) / m
		a1 = m1 / 12 * (0.04^2 + 0.04^2); b1 = m1 / 12 * (0.3^2 + 0.04^2)
		dx1 = x1 - cx; dz1 = z1 - cz; dx2 = x2 - cx; dz2 = z2 - cz
		printf "mass %.15g\ncx %.15g\ncz %.15g\n", m, cx, cz
		printf "ixx %.15g\n", a1 + m1 * dz1^2 + 0.0002 + m2 * dz2^2
		printf "iyy %.15g\n", b1 + m1 * (dx1^2 + dz1^2) + 0.0001 + m2 * (dx2^2 + dz2^2)
		printf "izz %.15g\n", b1 + m1 * dx1^2 + 0.0003 + m2 * dx2^2
		printf "ixz %.15g\n", -(m1 * dx1 * dz1 + m2 * dx2 * dz2) }' > "$TMP/want"
	val() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/want"; }
	got() { awk -F'\t' -v k="arm::fore/inertial.$1" '$1 == k { print $2 }' "$TMP/got"; }
	rel "$(got mass)" "$(val mass)" 1e-12
	rel "$(got pose | cut -d' ' -f1)" "$(val cx)" 1e-12
	rel "$(got pose | cut -d' ' -f3)" "$(val cz)" 1e-12
	[ "$(got pose | cut -d' ' -f2,4-6)" = "0 0 0 0" ]
	for k in ixx iyy izz ixz; do
		rel "$(got inertia.$k)" "$(val $k)" 1e-9
	done
	[ "$(got inertia.ixy)" = 0 ] && [ "$(got inertia.iyz)" = 0 ]
	# the lumped links are no links; their collisions carry
	# libsdformat's names
	phys-introspect items "$ROBOTS/arm.urdf" '*/pose' | jq -r .name > "$TMP/items"
	! grep -q 'arm::tool' "$TMP/items" || false
	grep -qx 'arm::fore::fore_fixed_joint_lump__tool_collision_1/pose' "$TMP/items"
	grep -qx 'arm::fore::fore_collision/pose' "$TMP/items"
}

@test "the arm is welded to the world: it stays where its joints put it" {
	phys-step -t 1 -r 1 -i 'arm::*/pose' "$ROBOTS/arm.urdf" 2> /dev/null | tail -1 > "$TMP/o"
	# (joints give by a few micrometres under load, as they do in ODE)
	at() { jq -r --arg i "$1" '.items[$i] | [.x, .y, .z] | map(. * 1e4 | round / 1e4 + 0) | @tsv' "$TMP/o"; }
	[ "$(at arm::base/pose)" = "$(printf '0\t0\t0.05')" ]
	[ "$(at arm::upper/pose)" = "$(printf '0\t0\t0.15')" ]
	[ "$(at arm::fore/pose)" = "$(printf '0.4\t0\t0.15')" ]
	phys-param get "$ROBOTS/arm.urdf" 'arm::shoulder/axis.dynamics.damping' \
	    'arm::elbow/axis.limit.lower' | jq -c .value | paste -sd' ' | grep -qx '0.05 -2.5'
}

@test "the lumped pendulum swings with the period of its combined inertia" {
	phys-step -t 6 -e 5 -i 'pendulum::pivot/position' "$ROBOTS/pendulum.urdf" 2> /dev/null |
	    jq -r '[.t, .items["pendulum::pivot/position"][0] + 0.05] | @tsv' > "$TMP/swing"
	# I = 2.3353667 kg m^2 about the pivot, m = 3 kg, d = 0.8333 m (see
	# the file); 0.05 rad of swing lengthens the period by 0.016 %
	T=$(awk 'BEGIN { i = 1 / 12 * (0.02^2 + 1) + 0.25 + 0.4 * 2 * 0.05^2 + 2
		printf "%.9g", 2 * 3.141592653589793 * sqrt(i / (3 * 9.8 * 2.5 / 3)) * (1 + 0.05^2 / 16) }')
	rel "$(awk 'BEGIN { printf "%.9g", 1 / '"$(freq "$TMP/swing" 0.5 6)"' }')" "$T" 0.002
	phys-introspect items "$ROBOTS/pendulum.urdf" | jq -r .name > "$TMP/items"
	! grep -q bob "$TMP/items.links" 2> /dev/null || false
	! grep -q '^pendulum::bob/' "$TMP/items" || false
}

@test "a wheel's friction comes from its <gazebo> mu1 and mu2: slides at mu g until it rolls" {
	phys-sdf world --ground "$ROBOTS/wheel.urdf" > "$TMP/w.sdf"
	echo '{"t":0,"name":"wheel::wheel/angular_vel","value":{"x":0,"y":30,"z":0}}' > "$TMP/spin"
	run_wheel() {
		phys-step -t 1 -e 125 -c "$TMP/spin" -i 'wheel::wheel/linear_vel' "$TMP/w.sdf" 2> /dev/null |
		    jq -r '[.t, .items["wheel::wheel/linear_vel"].x] | @tsv' > "$TMP/v"
	}
	v() { awk -v t="$1" '$1 == t { print $2 }' "$TMP/v"; }
	run_wheel
	# mu = 0.2 (the ground's 100 is the larger): v = mu g t while it
	# slides, w0 r / 3 = 1 m/s once it rolls (after 0.51 s)
	rel "$(v 0.25)" 0.49 0.002
	rel "$(v 1)" 1 0.01
	# set on the wheel's collision, mu goes into the URDF's <gazebo>
	# block and doubles the acceleration
	cp "$ROBOTS/wheel.urdf" "$TMP/wheel.urdf"
	phys-sdf world --ground "$TMP/wheel.urdf" > "$TMP/w.sdf"
	phys-param set --in-place "$TMP/wheel.urdf" 'wheel::wheel::wheel_collision/mu=0.4' \
	    'wheel::wheel::wheel_collision/mu2=0.4'
	diff "$ROBOTS/wheel.urdf" "$TMP/wheel.urdf" | grep '^[<>]' > "$TMP/diff" || true
	[ "$(cat "$TMP/diff")" = "$(printf '%s\n' '<     <mu1>0.2</mu1>' '<     <mu2>0.2</mu2>' '---' '>     <mu1>0.4</mu1>' '>     <mu2>0.4</mu2>' | grep -v -- ---)" ]
	run_wheel
	rel "$(v 0.125)" 0.49 0.002
}

@test "package:// meshes: ROS_PACKAGE_PATH, AMENT_PREFIX_PATH, GAZEBO_MODEL_PATH, the directories above" {
	unset ROS_PACKAGE_PATH AMENT_PREFIX_PATH GAZEBO_MODEL_PATH
	box() {
		phys-inertia check "$@" | jq -r 'select(.link == "rover::chassis") | .geometry_box | [.x, .y] | @tsv'
	}
	want=$(printf '0.6\t0.4')
	# not found: the chassis is checked without its geometry, and says why
	run -1 --separate-stderr phys-inertia check "$ROBOTS/rover.urdf"
	[[ "$(jq -r 'select(.link == "rover::chassis") | .unread' <<<"$output")" == *"rover.urdf:"*": cannot find file 'package://rover_description/meshes/chassis.stl' (searched ROS_PACKAGE_PATH, AMENT_PREFIX_PATH's share/, GAZEBO_MODEL_PATH and the directories above the file)" ]]
	[ "$(jq -c 'select(.link == "rover::chassis") | .geometry_box' <<<"$output")" = null ]
	package "$TMP/ros"
	[ "$(ROS_PACKAGE_PATH=/nowhere:$TMP/ros box "$ROBOTS/rover.urdf")" = "$want" ]
	package "$TMP/install/share"
	[ "$(AMENT_PREFIX_PATH=$TMP/install box "$ROBOTS/rover.urdf")" = "$want" ]
	package "$TMP/gz"
	[ "$(GAZEBO_MODEL_PATH=$TMP/gz box "$ROBOTS/rover.urdf")" = "$want" ]
	# a workspace: the file in rover_description/urdf/
	package "$TMP/ws/src"
	mkdir "$TMP/ws/src/rover_description/urdf"
	cp "$ROBOTS/rover.urdf" "$TMP/ws/src/rover_description/urdf/"
	[ "$(box "$TMP/ws/src/rover_description/urdf/rover.urdf")" = "$want" ]
	# a relative path and file:// are beside the file
	sed 's|package://rover_description/|../|' "$ROBOTS/rover.urdf" > "$TMP/ws/src/rover_description/urdf/rel.urdf"
	sed 's|package://rover_description/|file://../|' "$ROBOTS/rover.urdf" > "$TMP/ws/src/rover_description/urdf/file.urdf"
	[ "$(box "$TMP/ws/src/rover_description/urdf/rel.urdf")" = "$want" ]
	[ "$(box "$TMP/ws/src/rover_description/urdf/file.urdf")" = "$want" ]
	# package:///name is package://name (example-robot-data's robots)
	sed 's|package://|package:///|' "$ROBOTS/rover.urdf" > "$TMP/ws/src/rover_description/urdf/three.urdf"
	[ "$(box "$TMP/ws/src/rover_description/urdf/three.urdf")" = "$want" ]
}

@test "a URDF's collision mesh not found fails the load at its line; --skip-unsupported runs the robot without it" {
	unset ROS_PACKAGE_PATH AMENT_PREFIX_PATH GAZEBO_MODEL_PATH
	cp "$ROBOTS/rover.urdf" "$TMP/"
	cat > "$TMP/w.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.9">
	  <world name="w">
	    <model name="ground"><static>true</static><link name="l">
	      <collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>
	    </link></model>
	    <include><uri>rover.urdf</uri><pose>0 0 0.15 0 0 0</pose></include>
	  </world>
	</sdf>
	EOF
	# the collision's <mesh>, whose start tag ends a line below its name
	line=$(( $(grep -n 'chassis.stl' "$TMP/rover.urdf" | tail -1 | cut -d: -f1) + 1 ))
	run -1 phys-step -n 1 "$TMP/w.sdf"
	[[ "$output" == *"rover.urdf:$line: cannot find file 'package://rover_description/meshes/chassis.stl'"* ]]
	# without the chassis's box, dropped 5 cm: its wheels (0.1 m) and
	# caster (0.05 m, 0.05 m below) hold its origin 0.1 m up
	run -0 --separate-stderr phys-step --skip-unsupported -t 1 -r 1 -i 'rover::chassis/pose' "$TMP/w.sdf"
	[[ "$stderr" == *"rover.urdf:$line: cannot find file 'package://rover_description/meshes/chassis.stl'"*"; skipping collision 'rover::chassis::chassis_collision'"* ]]
	near "$(tail -1 <<<"$output" | jq '.items["rover::chassis/pose"].z')" 0.1 0.001
}

@test "package:// in an SDF file is found as in a URDF" {
	unset ROS_PACKAGE_PATH AMENT_PREFIX_PATH GAZEBO_MODEL_PATH
	mkdir -p "$TMP/w"
	cat > "$TMP/w/m.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.9">
	  <model name="m">
	    <link name="l">
	      <collision name="c"><geometry><mesh>
	        <uri>package://rover_description/meshes/chassis.stl</uri>
	        <scale>0.5 2 1</scale>
	      </mesh></geometry></collision>
	    </link>
	  </model>
	</sdf>
	EOF
	run -1 --separate-stderr phys-inertia check "$TMP/w/m.sdf"
	[[ "$(jq -r 'select(.link == "m::l") | .unread' <<<"$output")" == *"m.sdf:6: cannot find file 'package://rover_description/meshes/chassis.stl' (searched ROS_PACKAGE_PATH, AMENT_PREFIX_PATH's share/, GAZEBO_MODEL_PATH and the directories above the file)" ]]
	package "$TMP/ros"
	# the generated cube is 1 m a side: scaled, its box is 0.5 x 2
	[ "$(ROS_PACKAGE_PATH=$TMP/ros phys-inertia check "$TMP/w/m.sdf" |
	    jq -r 'select(.link == "m::l") | .geometry_box | [.x, .y] | @tsv')" = "$(printf '0.5\t2')" ]
}

@test "the rover: a lumped caster keeps its own friction, the wheels theirs" {
	package "$TMP/ros"
	export ROS_PACKAGE_PATH=$TMP/ros
	phys-param get "$ROBOTS/rover.urdf" '*/surface.friction.ode.mu' |
	    jq -r '[.name, .value, .is_default // false] | @tsv' > "$TMP/mu"
	[ "$(cat "$TMP/mu")" = "$(printf '%s\t%s\t%s\n' \
	    rover::chassis::chassis_collision/surface.friction.ode.mu 1 true \
	    rover::chassis::chassis_fixed_joint_lump__caster_collision_1/surface.friction.ode.mu 0.01 false \
	    rover::left_wheel::left_wheel_collision/surface.friction.ode.mu 1 false \
	    rover::right_wheel::right_wheel_collision/surface.friction.ode.mu 1 false)" ]
	# on the ground, it rests on its wheels and caster
	phys-sdf world --ground "$ROBOTS/rover.urdf" > "$TMP/w.sdf"
	phys-step -t 1 -r 1 -i 'rover::chassis/pose' "$TMP/w.sdf" 2> /dev/null | tail -1 |
	    jq -r '.items["rover::chassis/pose"].z' > "$TMP/z"
	near "$(cat "$TMP/z")" 0.1 0.002
}

@test "a massless intermediate link: kept, named with its line, and the tip below it runs" {
	run phys-step -t 0.1 -r 10 -i 'massless::*/pose' "$ROBOTS/massless.urdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"massless.urdf:28: link 'mid' has no <inertial>: kept (a run gives it a stand-in mass, said as it starts; phys-inertia fix computes one); libsdformat drops it and the links below it (tip), and Gazebo runs without them"* ]]
	[[ "$output" == *'"massless::tip/pose"'* ]]
	phys-inertia check "$ROBOTS/massless.urdf" | jq -c 'select(.valid == false) | [.link, .file, .line, .reason]' > "$TMP/bad" || true
	[ "$(cat "$TMP/bad")" = '["massless::mid","'"$ROBOTS"'/massless.urdf",28,"mass must be positive (got 0)"]' ]
}

@test "a massless intermediate link: libsdformat loses the links below it" {
	need_oracle
	"$BATS_FILE_TMPDIR/oracle" "$ROBOTS/massless.urdf" | jq -r '.link // empty' > "$TMP/links"
	[ "$(cat "$TMP/links")" = massless::base ]
	phys-introspect items "$ROBOTS/massless.urdf" '*/mass' | jq -r .name > "$TMP/ours"
	[ "$(cat "$TMP/ours")" = "$(printf '%s\n' massless::base/mass massless::mid/mass massless::tip/mass)" ]
}

# massless_robot NAME LINKS...: $TMP/NAME.urdf, a chain of links and
# joints written as LINK:MASS or JOINT-TYPE between them, each link's
# parent the one before it or, with ^N, the N-th link written (from 1).
# MASS is a number, 0, or - for no <inertial>.
massless_robot() {
	local name=$1 parent='' n=0 type='' link mass
	local -a links
	shift
	{
		printf '<?xml version="1.0"?>\n<robot name="%s">\n' "$name"
		for w; do
			case $w in
			fixed|revolute) type=$w; continue ;;
			esac
			link=${w%%:*} mass=${w#*:}
			case $mass in
			*^*) parent=${links[${mass#*^} - 1]}; mass=${mass%^*} ;;
			esac
			printf '<link name="%s">' "$link"
			[ "$mass" = - ] || printf '<inertial><mass value="%s"/><inertia ixx="%s" iyy="%s" izz="%s" ixy="0" ixz="0" iyz="0"/></inertial>' \
			    "$mass" "$mass" "$mass" "$mass"
			printf '</link>\n'
			[ -z "$parent" ] || printf '<joint name="j%d" type="%s"><parent link="%s"/><child link="%s"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>\n' \
			    "$n" "$type" "$parent" "$link"
			links+=("$link") parent=$link n=$((n + 1))
		done
		printf '</robot>\n'
	} > "$TMP/$name.urdf"
}

# libsdformat_fate ROBOT: "refuses", or the links phys has that
# libsdformat's conversion loses, one a line (none: nothing).
libsdformat_fate() {
	"$BATS_FILE_TMPDIR/oracle" "$1" > "$TMP/oracle" 2> /dev/null || { echo refuses; return; }
	jq -r '.link // empty' "$TMP/oracle" | sort > "$TMP/theirs"
	phys-introspect items "$1" '*/mass' | jq -r '.name | sub("/mass$"; "")' | sort |
	    comm -23 - "$TMP/theirs"
}

# phys_says ROBOT: the same, from phys's warnings.
phys_says() {
	local model
	model=$(basename "$1" .urdf)
	phys-sdf check "$1" | jq -r .message > "$TMP/said" || true
	if grep -q 'refuses the file' "$TMP/said"; then echo refuses; return; fi
	{ sed -n "s/^link '\([^']*\)' has .*libsdformat drops it.*/\1/p" "$TMP/said"
	  sed -n 's/.*libsdformat drops .*below it (\([^)]*\)).*/\1/p' "$TMP/said" |
	    tr ',' '\n' | tr -d ' '; } | sed "s/^/$model::/" | sort -u
}

@test "a link without mass: phys says what libsdformat does with it, robot by robot" {
	need_oracle
	# no <inertial> or mass 0 on a root lumped with a link of mass (the
	# base of turtlebot3, ANYmal, Go1): libsdformat keeps it, silently
	massless_robot lumproot base:- fixed trunk:2 revolute leg:1
	massless_robot zeroroot base:0 fixed trunk:2 revolute leg:1
	massless_robot sensor base:1 fixed sensor:-
	massless_robot welded world:- fixed b:1 revolute leg:1
	# a lump that reaches mass only after a lump of 0 + 0 kg: NaN
	massless_robot nan base:1 fixed l:0 fixed z:0 fixed w:1^2
	massless_robot nonan base:1 fixed l:0 fixed a:1 fixed z:0^2
	# dropped with the links below it
	massless_robot leaf base:1 revolute leaf:-
	massless_robot middle base:1 revolute mid:- revolute tip:1
	massless_robot mount base:1 fixed mount:- revolute arm:1
	massless_robot tiny base:1 revolute tiny:1e-7 revolute tip:1
	massless_robot worldleg world:- fixed b:- revolute leg:1^1
	# a massless root: no link is left
	massless_robot root base:- revolute leg:1 revolute foot:1
	massless_robot zerolump base:- fixed z:0 revolute leg:1^1
	for r in lumproot zeroroot sensor welded nan nonan leaf middle mount tiny worldleg root zerolump; do
		libsdformat_fate "$TMP/$r.urdf" > "$TMP/want"
		phys_says "$TMP/$r.urdf" > "$TMP/got"
		diff -u --label "libsdformat: $r" "$TMP/want" --label "phys says: $r" "$TMP/got"
	done
	# the false warning is gone, and a massless root lumped with its
	# trunk weighs the trunk
	[ -z "$(phys-sdf check "$TMP/lumproot.urdf")" ]
	[ "$(phys-param get "$TMP/lumproot.urdf" 'lumproot::base/inertial.mass' | jq .value)" = 2 ]
	# what libsdformat loses is said in full
	phys-sdf check "$TMP/root.urdf" | jq -r '[.line, .message] | @tsv' > "$TMP/said"
	grep -qx "3	link 'base' has no <inertial>: kept (a run gives it a stand-in mass, said as it starts; phys-inertia fix computes one); libsdformat drops it and the links below it (leg, foot), which leaves no link: it refuses the file" "$TMP/said"
	phys-sdf check "$TMP/tiny.urdf" | jq -r .message > "$TMP/said"
	grep -qx "link 'tiny' has mass 1e-07, which libsdformat takes for none (it is within 1e-6 of 0): kept; libsdformat drops it and the links below it (tip), and Gazebo runs without them" "$TMP/said"
	# no link of the robot has a mass: a run gives its links their
	# shapes' (massless.h), and the warning says that, not "mass 0"
	massless_robot none base:- revolute leg:-
	phys-sdf check "$TMP/none.urdf" | jq -r .message > "$TMP/said"
	grep -qx "link 'base' has no <inertial>: kept (no link of the robot has a mass: a run gives each moving link its collision shapes' mass, as phys-inertia fix computes it); libsdformat drops it and the links below it (leg), which leaves no link: it refuses the file" "$TMP/said"
}

@test "a robot without any inertial: check lists each link, fix writes only <inertial>s, then it simulates" {
	cp "$ROBOTS/bare.urdf" "$TMP/bare.urdf"
	run -1 phys-inertia check "$TMP/bare.urdf"
	echo "$output" | jq -c '[.link, .line, .valid]' > "$TMP/check"
	[ "$(cat "$TMP/check")" = "$(printf '%s\n' '["bare::base",16,false]' '["bare::link1",29,false]' '["bare::link2",42,false]')" ]
	phys-inertia fix --density 1000 --in-place "$TMP/bare.urdf"
	# only lines inserted, one <inertial> into each link
	diff "$ROBOTS/bare.urdf" "$TMP/bare.urdf" > "$TMP/diff" || true
	! grep -q '^<' "$TMP/diff" || false
	[ "$(grep -c '^>.*<inertial>' "$TMP/diff")" -eq 3 ]
	[ "$(grep -c '^[0-9]*a[0-9,]*$' "$TMP/diff")" -eq 3 ]
	phys-inertia check "$TMP/bare.urdf" | jq -c '[.link, .mass, .valid]' > "$TMP/check"
	# box 0.2 x 0.2 x 0.1, a 0.02 x 0.5 cylinder, a 0.1 sphere, of water
	awk 'BEGIN { printf "[\"bare::base\",%.15g,true]\n", 4; exit }' > /dev/null
	jq -e -s 'map(.[2]) | all' "$TMP/check"
	rel "$(jq -s '.[0][1]' "$TMP/check")" 4 1e-12
	rel "$(jq -s '.[1][1]' "$TMP/check")" "$(awk 'BEGIN { printf "%.15g", 3.141592653589793 * 0.02^2 * 0.5 * 1000 }')" 1e-12
	rel "$(jq -s '.[2][1]' "$TMP/check")" "$(awk 'BEGIN { printf "%.15g", 4 / 3 * 3.141592653589793 * 0.1^3 * 1000 }')" 1e-12
	# the wrist's sphere is 0.1 m off the axis: it falls, and nothing
	# runs with a stand-in mass any more
	run phys-step -t 0.5 -r 2 -i 'bare::wrist/position' "$TMP/bare.urdf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"mass of 0"* ]]
	echo "$output" | grep '"t":0.5' | jq -e '.items["bare::wrist/position"][0] | fabs > 0.01'
}

@test "xacro files are refused in one line that says to expand them" {
	printf '%s\n' '<?xml version="1.0"?>' '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">' \
	    '  <xacro:property name="l" value="1"/>' '  <link name="a"/>' '</robot>' > "$TMP/r.urdf.xacro"
	run -1 phys-inertia check "$TMP/r.urdf.xacro"
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"r.urdf.xacro:3: <xacro:property>: a xacro file, not URDF: expand it first (xacro $TMP/r.urdf.xacro > robot.urdf)" ]]
	# the same without the namespace declared
	sed 's/ xmlns:xacro="[^"]*"//' "$TMP/r.urdf.xacro" | phys-sdf check - > "$TMP/o" || true
	grep -q '"line":3,"severity":"error","message":"<xacro:property>: a xacro file' "$TMP/o"
}

@test "a URDF xacro made with a macro call it left unexpanded (Valkyrie's) loads as libsdformat reads it, the call skipped and said; one of xacro's own elements still makes it xacro's source" {
	cat > "$TMP/g.urdf" <<'URDF'
<?xml version="1.0"?>
<!-- autogenerated by xacro -->
<robot name="g" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="a"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="revolute"><origin xyz="0 0 -1"/><parent link="a"/><child link="b"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="b"><inertial><mass value="3"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <xacro:imu_block name="imu" port="none"/>
  </link>
  <xacro:pelvis_sensors rate="100"/>
</robot>
URDF
	run -0 --separate-stderr phys-step -n 0 "$TMP/g.urdf"
	assert_equal "$stderr" "phys-step: $TMP/g.urdf:7: <xacro:imu_block>: a call of a xacro macro left unexpanded (2 such), which libsdformat skips, and so does phys: what the macro makes is not in the robot"
	phys-param get "$TMP/g.urdf" '*/inertial.mass' | jq -r '"\(.name) \(.value)"' > "$TMP/mass"
	printf '%s\n' 'g::a/inertial.mass 2' 'g::b/inertial.mass 3' | diff - "$TMP/mass"
	if [ -x "$BATS_FILE_TMPDIR/oracle" ]; then
		"$BATS_FILE_TMPDIR/oracle" "$TMP/g.urdf" 2> /dev/null |
		    jq -r 'select(.link) | "\(.link)/inertial.mass \(.mass)"' | diff - "$TMP/mass"
	fi
	# a macro's definition: the file is xacro's to expand
	sed -i 's|<xacro:pelvis_sensors rate="100"/>|<xacro:macro name="m"/>|' "$TMP/g.urdf"
	run -1 phys-step -n 0 "$TMP/g.urdf"
	[[ "$output" == *"g.urdf:9: <xacro:macro>: a xacro file, not URDF: expand it first"* ]]
}

@test "real files: version 0.0, numbers across lines, an origin for the robot, swapped limits" {
	cat > "$TMP/r.urdf" <<'URDF'
<?xml version="0.0" ?>
<robot name="r">
  <origin xyz="1 2 3" rpy="0 0 0.5"/>
  <link name="a">
    <inertial>
      <mass value=" 2.5 "/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="
        0.2" iyz="0" izz="0.3 "/>
    </inertial>
  </link>
  <joint name="j" type="revolute">
    <origin xyz="0 0
      1"/>
    <parent link="a"/>
    <child link="b"/>
    <limit lower="0.5" upper="-0.5" effort="1" velocity="1"/>
  </joint>
  <link name="b">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial>
  </link>
  <gazebo>
    <pose>7 7 7 0 0 0</pose>
  </gazebo>
</robot>
URDF
	phys-sdf check "$TMP/r.urdf" | grep -q '"line":16,"severity":"warning","message":"joint '"'j'"': lower 0.5 is above upper -0.5; swapped, as libsdformat does"'
	phys-param get "$TMP/r.urdf" 'r::a/inertial.mass' 'r::a/inertial.inertia.iyy' 'r::j/axis.limit.lower' \
	    'r::j/axis.limit.upper' 'r::j/axis.limit.effort' 'r::j/axis.limit.velocity' |
	    jq -c .value | paste -sd' ' | grep -qx '2.5 0.2 -0.5 0.5 1 1'
	# <robot><origin> places the model, over the <gazebo><pose>
	phys-step -n 0 -i 'r::b/pose' "$TMP/r.urdf" 2> /dev/null |
	    jq -r '.items["r::b/pose"] | [.x, .y, .z, .yaw] | map(. * 1e9 | round / 1e9) | @tsv' > "$TMP/o"
	[ "$(cat "$TMP/o")" = "$(printf '1\t2\t4\t0.5')" ]
	sed -i '/<origin xyz="1 2 3"/d' "$TMP/r.urdf"
	phys-step -n 0 -i 'r::b/pose' "$TMP/r.urdf" 2> /dev/null |
	    jq -r '.items["r::b/pose"] | [.x, .y, .z] | @tsv' > "$TMP/o"
	[ "$(cat "$TMP/o")" = "$(printf '7\t7\t8')" ]
}

# cube_robot PKG: robot c, one link whose collision is PKG's meshes/cube.obj
# (a 0.1 m cube, cube_obj's), on standard output.
cube_robot() {
	cat <<URDF
<robot name="c">
  <link name="box">
    <inertial><mass value="1"/><inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial>
    <collision><geometry><mesh filename="package://$1/meshes/cube.obj"/></geometry></collision>
  </link>
</robot>
URDF
}

@test "a package:// mesh is found by its package.xml's <name> in the directories above the file, as rospack and ament know a package (Drake's models, package drake_models, cloned as models/)" {
	mkdir -p "$TMP/models/meshes" "$TMP/models/urdf"
	cat > "$TMP/models/package.xml" <<'XML'
<?xml version="1.0"?>
<package format="3">
  <name> my_models </name>
  <version>1.0.0</version>
</package>
XML
	cube_obj 1 > "$TMP/models/meshes/cube.obj"
	cube_robot my_models > "$TMP/models/urdf/c.urdf"
	phys-sdf world --ground --pose '0 0 0.3 0 0 0' -o "$TMP/w.sdf" "$TMP/models/urdf/c.urdf"
	# the 0.1 m cube rests at half its side
	z=$(phys-step -t 1.5 -r 1 -i 'c::box/pose' "$TMP/w.sdf" | tail -1 | jq '.items["c::box/pose"].z')
	near "$z" 0.05 0.002
	# another package's name, or no package.xml: not found, as before
	sed -i 's|my_models|other_models|' "$TMP/models/package.xml"
	run -1 phys-step -n 0 "$TMP/w.sdf"
	assert_output --partial "c.urdf:4: cannot find file 'package://my_models/meshes/cube.obj'"
}

@test "a package:// mesh of a package nested in a ROS_PACKAGE_PATH entry (a catkin workspace's src/, its repositories) is crawled for as rospack finds it, past CATKIN_IGNORE'd copies" {
	mkdir -p "$TMP/ws/src/repo/pkgs/cube_pkg/meshes" "$TMP/ws/src/a_old/cube_pkg/meshes" "$TMP/robot"
	printf '<package format="2"><name>cube_pkg</name></package>\n' > "$TMP/ws/src/repo/pkgs/cube_pkg/package.xml"
	cube_obj 1 > "$TMP/ws/src/repo/pkgs/cube_pkg/meshes/cube.obj"
	# an ignored copy, twice the size, first in name order
	cp "$TMP/ws/src/repo/pkgs/cube_pkg/package.xml" "$TMP/ws/src/a_old/cube_pkg/"
	cube_obj 1 | awk '$1 == "v" { $2 *= 2; $3 *= 2; $4 *= 2 } { print }' > "$TMP/ws/src/a_old/cube_pkg/meshes/cube.obj"
	touch "$TMP/ws/src/a_old/CATKIN_IGNORE"
	cube_robot cube_pkg > "$TMP/robot/c.urdf"
	run -1 phys-step -n 0 "$TMP/robot/c.urdf"
	assert_output --partial "c.urdf:4: cannot find file 'package://cube_pkg/meshes/cube.obj'"
	export ROS_PACKAGE_PATH="/nonexistent:$TMP/ws/src"
	phys-sdf world --ground --pose '0 0 0.3 0 0 0' -o "$TMP/w.sdf" "$TMP/robot/c.urdf"
	z=$(phys-step -t 1.5 -r 1 -i 'c::box/pose' "$TMP/w.sdf" | tail -1 | jq '.items["c::box/pose"].z')
	near "$z" 0.05 0.002
}

@test "better than the reference: a visual's <mesh scale> of one number (Drake's Skydio 2) skips that visual alone, with a warning; libsdformat loses the link's collision after it without a word" {
	need_oracle
	cat > "$TMP/q.urdf" <<'URDF'
<robot name="q">
  <link name="base">
    <inertial><mass value="0.775"/><inertia ixx="0.0015" ixy="0" ixz="0" iyy="0.0025" iyz="0" izz="0.0035"/></inertial>
    <visual><geometry><mesh filename="body.obj" scale=".00254"/></geometry></visual>
    <collision><geometry><box size="0.4 0.4 0.1"/></geometry></collision>
  </link>
</robot>
URDF
	# libsdformat keeps the link and its mass, not its collision
	"$BATS_FILE_TMPDIR/oracle" "$TMP/q.urdf" 2> /dev/null > "$TMP/o"
	jq -e 'select(.link == "q::base") | .mass == 0.775' "$TMP/o"
	! grep -q '"collision"' "$TMP/o" || false
	phys-param get "$TMP/q.urdf" 'q::base::*/geometry.box.size' | jq -e '.value == {"x":0.4,"y":0.4,"z":0.1}'
	run -0 --separate-stderr phys-step -n 0 "$TMP/q.urdf"
	assert_equal "$stderr" "phys-step: $TMP/q.urdf:4: link 'base': <mesh scale=\".00254\">: three numbers wanted; the visual is skipped (urdfdom stops reading the link there, and libsdformat loses its later visuals and collisions)"
	# the box collides: dropped on the ground, it rests at half its height
	phys-sdf world --ground --pose '0 0 0.3 0 0 0' -o "$TMP/w.sdf" "$TMP/q.urdf" 2> /dev/null
	z=$(phys-step -t 1.5 -r 1 -i 'q::base/pose' "$TMP/w.sdf" 2> /dev/null | tail -1 | jq '.items["q::base/pose"].z')
	near "$z" 0.05 0.002
	# a collision's mesh of such a scale is still refused
	sed -i 's|<box size="0.4 0.4 0.1"/>|<mesh filename="body.obj" scale="2"/>|' "$TMP/q.urdf"
	run -1 phys-param get "$TMP/q.urdf" 'q::base/inertial.mass'
	assert_output --partial "q.urdf:5: <mesh scale=\"2\">: three numbers wanted"
}

@test "better than the reference: capsules, massless lumps and floating joints are kept, with warnings" {
	cat > "$TMP/r.urdf" <<'URDF'
<robot name="r">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><capsule radius="0.1" length="0.4"/></geometry></collision>
  </link>
  <joint name="f" type="fixed"><parent link="a"/><child link="m1"/></joint>
  <link name="m1"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="g" type="fixed"><parent link="m1"/><child link="m2"/></joint>
  <link name="m2"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="free" type="floating"><parent link="a"/><child link="c"/><origin xyz="0 0 2"/></joint>
  <link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>
URDF
	run phys-step -t 0.5 -r 2 -i 'r::*/pose' "$TMP/r.urdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"r.urdf:4: link 'a': <capsule> is read; urdfdom stops reading the link here, so Gazebo loses this collision and the link's later ones"* ]]
	[[ "$output" == *"r.urdf:10: joint 'free' is floating: link 'c' moves free, from where the joint puts it (libsdformat refuses the file)"* ]]
	# the capsule collides; c is free where its joint puts it, and falls
	[[ "$output" == *'"r::a::a_collision/pose"'* ]]
	echo "$output" | grep '"t":0.5' | jq -e '.items["r::c/pose"].z | . < 2 - 9.8 * 0.25 / 2 + 0.01 and . > 2 - 9.8 * 0.25 / 2 - 0.01'
	phys-sdf print "$TMP/r.urdf" 2> /dev/null | grep -q '<sdf version="1.8">'
	# two massless links lumped into a: libsdformat's NaN, phys's sum
	[[ "$output" == *"r.urdf:2: link 'a': libsdformat lumps links of no mass together into it, which makes its centre of mass NaN, and refuses the file; phys adds their masses"* ]]
	[ "$(phys-param get "$TMP/r.urdf" 'r::a/inertial.mass' | jq .value)" = 1 ]
	# and with a and c of no mass too: libsdformat drops a, phys keeps
	# it, and a run gives the links their shapes' mass
	sed -i 's|<capsule radius="0.1" length="0.4"/>|<sphere radius="0.1"/>|; s|<mass value="1"/>|<mass value="0"/>|' "$TMP/r.urdf"
	phys-sdf check "$TMP/r.urdf" | grep -q '"line":3,"severity":"warning","message":"link '"'a'"' has mass 0: kept (no link of the robot has a mass: a run gives each moving link its collision shapes'"'"' mass, as phys-inertia fix computes it); libsdformat drops it and the links below it (c), which leaves no link: it refuses the file"'
	[ "$(phys-param get "$TMP/r.urdf" 'r::a/inertial.mass' | jq .value)" = 0 ]
}

@test "better than the reference: a visual's material of no name (Unitree H1-2's) loses libsdformat the link's collisions; phys keeps them and says so once" {
	need_oracle
	cat > "$TMP/m.urdf" <<'URDF'
<robot name="m">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry><material><color rgba="1 0 0 1"/></material></visual>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><origin xyz="0 0 1"/><parent link="a"/><child link="b"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="b">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry><material><color rgba="1 0 0 1"/></material></visual>
    <visual><geometry><box size="1 1 1"/></geometry><material><color rgba="0 1 0 1"/></material></visual>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
  </link>
</robot>
URDF
	# libsdformat: the links, none of their collisions
	"$BATS_FILE_TMPDIR/oracle" "$TMP/m.urdf" 2> /dev/null > "$TMP/o"
	[ "$(jq -r '.link // empty' "$TMP/o" | wc -l)" -eq 2 ]
	[ "$(jq -r '.collision // empty' "$TMP/o" | wc -l)" -eq 0 ]
	# phys: both collisions, said once for the two links
	[ "$(phys-param get "$TMP/m.urdf" '*/max_contacts' | wc -l)" -eq 2 ]
	run -0 --separate-stderr phys-step -n 1 "$TMP/m.urdf"
	assert_equal "$stderr" "phys-step: $TMP/m.urdf:4: <material> of a <visual> of link 'a' has no name, which URDF requires: libsdformat's parser refuses the visual and loses the link's collisions with it, and may lose more of the robot (2 links so); phys reads them"
	# named, nothing is said
	sed -i 's|<material>|<material name="red">|' "$TMP/m.urdf"
	run -0 --separate-stderr phys-step -n 1 "$TMP/m.urdf"
	assert_equal "$stderr" ""
}

@test "a link of no mass but moments lumped into its parent adds them, as libsdformat sums inertials (the Pioneer 3-DX's sonars)" {
	cat > "$TMP/p.urdf" <<'URDF'
<robot name="p">
  <link name="base">
    <inertial><origin xyz="0 0 0.1"/><mass value="3.5"/><inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>
  </link>
  <joint name="s" type="fixed"><origin xyz="0.1 0 0.2"/><parent link="base"/><child link="sonar"/></joint>
  <link name="sonar">
    <inertial><mass value="0"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
</robot>
URDF
	# its moments add as they are: no mass to carry them anywhere
	phys-param get "$TMP/p.urdf" 'p::base/inertial.*' | jq -c '[.name, .value]' > "$TMP/in"
	grep -q '\["p::base/inertial.mass",3.5\]' "$TMP/in"
	grep -q '\["p::base/inertial.inertia.ixx",2\]' "$TMP/in"
	grep -q '\["p::base/inertial.inertia.iyy",3\]' "$TMP/in"
	grep -q '\["p::base/inertial.inertia.izz",4\]' "$TMP/in"
	need_oracle
	agrees_with_libsdformat "$TMP/p.urdf"
}

@test "links named with a slash (Interbotix's /base_link, R2's r2/left_arm) are addressed by get, set, -s and -i: a name's parameter follows its last slash" {
	cat > "$TMP/s.urdf" <<'URDF'
<robot name="s">
  <link name="/base_link">
    <inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <joint name="arm/shoulder" type="revolute"><origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
    <parent link="/base_link"/><child link="arm/upper"/></joint>
  <link name="arm/upper">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
</robot>
URDF
	[ "$(phys-param get "$TMP/s.urdf" 's::/base_link/inertial.mass' | jq .value)" = 2 ]
	[ "$(phys-param get "$TMP/s.urdf" 's::arm/shoulder/axis.limit.upper' | jq .value)" = 1 ]
	phys-param set "$TMP/s.urdf" 's::arm/upper/inertial.mass=3' | grep -q '<mass value="3"/>'
	# a run: the arm's mass set by -s, its pose read by -i (free of gravity, it stays)
	run -0 --separate-stderr phys-step -q -n 0 -s 's::arm/upper/inertial.mass=3' -i 's::arm/upper/mass' -i 's::arm/upper/pose' "$TMP/s.urdf"
	[ "$(printf '%s\n' "$output" | tail -1 | jq '.items["s::arm/upper/mass"]')" = 3 ]
	[ "$(printf '%s\n' "$output" | tail -1 | jq '.items["s::arm/upper/pose"].z')" = 1 ]
	need_oracle
	agrees_with_libsdformat "$TMP/s.urdf"
}

@test "edits stay URDF: a mass is its <mass value>, a lumped one is refused, physics goes to a world" {
	cp "$ROBOTS/arm.urdf" "$TMP/arm.urdf"
	# the mass, and the tensor that follows it (inertia.follow)
	phys-param set --in-place "$TMP/arm.urdf" 'arm::upper/inertial.mass=2'
	diff "$ROBOTS/arm.urdf" "$TMP/arm.urdf" > "$TMP/diff" || true
	[ "$(head -1 "$TMP/diff")" = 40,42c40,42 ]
	[ "$(grep '^>' "$TMP/diff")" = "$(printf '%s\n' '>       <mass value="2"/>' \
	    '>       <inertia ixx="0.00083334" ixy="0" ixz="0" iyy="0.02708334" iyz="0"' '>         izz="0.02708334"/>')" ]
	run -1 phys-param set --in-place "$TMP/arm.urdf" 'arm::fore/inertial.mass=2'
	[[ "$output" == "phys-param: $TMP/arm.urdf:56: link 'fore' holds the mass of tool too, lumped by fixed joints: set each link's <inertial> in the URDF, or keep a joint with <gazebo reference=\"JOINT\"><preserveFixedJoint>true</preserveFixedJoint></gazebo>" ]]
	run -1 phys-param set --in-place "$TMP/arm.urdf" iters=100
	[[ "$output" == "phys-param: $TMP/arm.urdf is a URDF file: it holds no physics profile. Put the model in a world (phys-sdf world $TMP/arm.urdf > world.sdf) and use that" ]]
	run -1 phys-preset add fast --in-place "$TMP/arm.urdf"
	[[ "$output" == *"is a URDF file: it holds no physics profiles."* ]]
	# joint values: attributes of the URDF's own elements, or <gazebo> tags
	phys-param set --in-place "$TMP/arm.urdf" 'arm::elbow/axis.dynamics.damping=0.2' \
	    'arm::elbow/axis.limit.upper=2' 'arm::elbow/axis.dynamics.spring_stiffness=3' \
	    'arm::upper/gravity=false'
	phys-param get "$TMP/arm.urdf" 'arm::elbow/axis.dynamics.damping' 'arm::elbow/axis.limit.upper' \
	    'arm::elbow/axis.dynamics.spring_stiffness' 'arm::upper/gravity' | jq -c .value | paste -sd' ' | grep -qx '0.2 2 3 false'
	grep -q '<dynamics damping="0.2" friction="0"/>' "$TMP/arm.urdf"
	grep -q '<limit lower="-2.5" upper="2" effort="10" velocity="3"/>' "$TMP/arm.urdf"
	grep -q '<springStiffness>3</springStiffness>' "$TMP/arm.urdf"
	phys-sdf check "$TMP/arm.urdf" > /dev/null
	# tool0, a frame fixed to the tool without inertia, is no finding
	[ -z "$(phys-sdf check "$ROBOTS/arm.urdf")" ]
}

@test "phys-sdf print writes the SDF model, and it loads back the same" {
	package "$TMP/ros"
	export ROS_PACKAGE_PATH=$TMP/ros
	for r in arm pendulum rover wheel massless; do
		phys-sdf print "$ROBOTS/$r.urdf" > "$TMP/$r.sdf" 2> /dev/null
		head -2 "$TMP/$r.sdf" | grep -q '<sdf version="1.7">'
		phys_facts "$ROBOTS/$r.urdf" > "$TMP/want"
		phys_facts "$TMP/$r.sdf" > "$TMP/got"
		[ "$(wc -l < "$TMP/want")" -eq "$(wc -l < "$TMP/got")" ]
		facts_agree "$TMP/want" "$TMP/got"
	done
}

@test "libsdformat agrees: the arm, the pendulum, the wheel, the rover, the quadruped" {
	need_oracle
	package "$TMP/ros"
	export ROS_PACKAGE_PATH=$TMP/ros
	for r in arm pendulum wheel rover quadruped; do
		echo "robot $r"
		agrees_with_libsdformat "$ROBOTS/$r.urdf"
	done
}

# A robot of every <gazebo> tag and lumping option.
tags_robot() {
	cat > "$1" <<'URDF'
<robot name="t">
  <origin xyz="0 0 1" rpy="0 0 0.3"/>
  <link name="a">
    <inertial><origin xyz="0 0 0" rpy="0.1 0 0"/><mass value="4"/>
      <inertia ixx="0.5" ixy="0.01" ixz="0" iyy="0.7" iyz="0" izz="0.9"/></inertial>
    <collision><geometry><box size="0.4 0.3 0.2"/></geometry></collision>
    <collision name="a_bumper"><origin xyz="0.2 0 0"/><geometry><box size="0.05 0.3 0.05"/></geometry></collision>
    <collision name="bumper"><origin xyz="-0.2 0 0"/><geometry><box size="0.05 0.3 0.05"/></geometry></collision>
  </link>
  <joint name="fix1" type="fixed"><origin xyz="0.1 0 0.2" rpy="0 0.3 0"/><parent link="a"/><child link="b"/></joint>
  <link name="b">
    <inertial><origin xyz="0.01 0.02 0.03" rpy="0.2 0.1 0.3"/><mass value="0.5"/>
      <inertia ixx="0.001" ixy="0.0001" ixz="0" iyy="0.002" iyz="0" izz="0.003"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="spin" type="continuous"><origin xyz="0 0 0.1"/><parent link="b"/><child link="c"/><axis xyz="1 0 0"/>
    <limit effort="3" velocity="4"/><dynamics damping="0.3" friction="0.1"/></joint>
  <link name="c">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><cylinder radius="0.1" length="0.05"/></geometry></collision>
  </link>
  <joint name="kept" type="fixed"><origin xyz="-0.5 0 0"/><parent link="a"/><child link="d"/></joint>
  <link name="d"><inertial><mass value="0.2"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <joint name="held" type="fixed"><origin xyz="0 -0.5 0"/><parent link="a"/><child link="e"/></joint>
  <link name="e"><inertial><mass value="0.2"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <gazebo reference="a"><mu1>0.3</mu1><mu2>0.25</mu2><kp>1e6</kp><kd>50</kd><maxContacts>4</maxContacts>
    <selfCollide>true</selfCollide><dampingFactor>0.1</dampingFactor></gazebo>
  <gazebo reference="b"><mu1>0.9</mu1><turnGravityOff>false</turnGravityOff><sensor name="cam" type="camera"/></gazebo>
  <gazebo reference="c"><mu1 value="0.6"/><mu2>0.5</mu2><turnGravityOff>true</turnGravityOff>
    <fdir1>0 1 0</fdir1><maxVel>0.5</maxVel><minDepth>0.002</minDepth></gazebo>
  <gazebo reference="e"><gravity>false</gravity></gazebo>
  <gazebo reference="spin"><stopCfm>0.01</stopCfm><stopErp>0.3</stopErp><springStiffness>2</springStiffness>
    <springReference>0.1</springReference><implicitSpringDamper>true</implicitSpringDamper>
    <provideFeedback>true</provideFeedback></gazebo>
  <gazebo reference="kept"><preserveFixedJoint>true</preserveFixedJoint></gazebo>
  <gazebo reference="held"><disableFixedJointLumping>true</disableFixedJointLumping></gazebo>
  <gazebo reference="nothing"><mu1>1</mu1></gazebo>
  <gazebo><static>false</static><plugin name="p" filename="libfoo.so"/></gazebo>
</robot>
URDF
}

@test "<gazebo> tags reach what libsdformat gives them to" {
	tags_robot "$TMP/t.urdf"
	phys-param get "$TMP/t.urdf" 't::*/surface.friction.ode.mu' 't::*/surface.contact.ode.kp' \
	    't::a/self_collide' 't::a/velocity_decay.linear' 't::*/gravity' \
	    't::spin/physics.ode.limit.cfm' 't::spin/physics.ode.limit.erp' \
	    't::spin/axis.dynamics.spring_stiffness' 't::spin/axis.dynamics.spring_reference' \
	    't::spin/physics.ode.implicit_spring_damper' 't::spin/physics.provide_feedback' \
	    't::spin/axis.dynamics.damping' 't::spin/axis.limit.lower' \
	    't::c::c_collision/surface.friction.ode.fdir1' \
	    't::c::c_collision/surface.contact.ode.max_vel' \
	    't::c::c_collision/surface.contact.ode.min_depth' \
	    2> /dev/null | jq -r '[.name, (.value | if type == "object" then [.x, .y, .z] | join(" ") else . end)] | @tsv' > "$TMP/got"
	cat > "$TMP/want" <<'TSV'
t::a::a_collision/surface.friction.ode.mu	0.3
t::a::a_bumper_collision_1/surface.friction.ode.mu	0.3
t::a::a_fixed_joint_lump__bumper_collision_2/surface.friction.ode.mu	1
t::a::a_fixed_joint_lump__b_collision_3/surface.friction.ode.mu	0.9
t::c::c_collision/surface.friction.ode.mu	0.6
t::a::a_collision/surface.contact.ode.kp	1000000
t::a::a_bumper_collision_1/surface.contact.ode.kp	1000000
t::a::a_fixed_joint_lump__bumper_collision_2/surface.contact.ode.kp	1000000000000
t::a::a_fixed_joint_lump__b_collision_3/surface.contact.ode.kp	1000000000000
t::c::c_collision/surface.contact.ode.kp	1000000000000
t::a/self_collide	true
t::a/velocity_decay.linear	0.1
t::a/gravity	true
t::d/gravity	true
t::e/gravity	false
t::c/gravity	false
t::spin/physics.ode.limit.cfm	0.01
t::spin/physics.ode.limit.erp	0.3
t::spin/axis.dynamics.spring_stiffness	2
t::spin/axis.dynamics.spring_reference	0.1
t::spin/physics.ode.implicit_spring_damper	true
t::spin/physics.provide_feedback	true
t::spin/axis.dynamics.damping	0.3
t::spin/axis.limit.lower	-1e+16
t::c::c_collision/surface.friction.ode.fdir1	0 1 0
t::c::c_collision/surface.contact.ode.max_vel	0.5
t::c::c_collision/surface.contact.ode.min_depth	0.002
TSV
	sort "$TMP/want" > "$TMP/w"; sort "$TMP/got" > "$TMP/g"
	diff "$TMP/w" "$TMP/g"
	# preserveFixedJoint keeps a fixed joint, disableFixedJointLumping
	# makes a revolute held at 0; the named collision "bumper" of a is
	# out of reach of a's tags, as in Gazebo, and phys says so
	phys-introspect items "$TMP/t.urdf" '*/position' | jq -r .name | paste -sd' ' | grep -qx 't::spin/position t::held/position t::kept/position'
	[ "$(phys-param get "$TMP/t.urdf" 't::held/axis.limit.upper' | jq .value)" = 0 ]
	run phys-sdf check "$TMP/t.urdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"line":8,"severity":"warning","message":"collision '"'bumper'"' of link '"'a'"': the tags of <gazebo reference=\"a\"> (line 26) do not reach it'* ]]
	[[ "$output" == *'"line":28,"severity":"warning","message":"<sensor> in <gazebo>: stored but inert (kept in the SDF model; phys does not use it)"'* ]]
	[[ "$output" == *'"line":37,"severity":"warning","message":"<gazebo reference=\"nothing\">: the robot has no link or joint of that name; its tags reach nothing"'* ]]
	[[ "$output" == *'"line":38,"severity":"warning","message":"<plugin> in <gazebo>: stored but inert'* ]]
}

@test "libsdformat agrees on every <gazebo> tag and lumping option" {
	need_oracle
	tags_robot "$TMP/t.urdf"
	agrees_with_libsdformat "$TMP/t.urdf"
}

@test "a <gazebo> static robot stays put; a mimic joint follows its leader" {
	cat > "$TMP/r.urdf" <<'URDF'
<robot name="r">
  <link name="world"/>
  <joint name="weld" type="fixed"><parent link="world"/><child link="a"/></joint>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="lead" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="9"/></joint>
  <link name="b"><inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="follow" type="revolute"><parent link="a"/><child link="c"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="9"/><mimic joint="lead" multiplier="0.5" offset="0.1"/></joint>
  <link name="c"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
</robot>
URDF
	phys-step -t 0.5 -r 2 -i 'r::lead/position' -i 'r::follow/position' "$TMP/r.urdf" 2> /dev/null | tail -1 |
	    jq -r '.items | [.["r::lead/position"][0], .["r::follow/position"][0]] | @tsv' > "$TMP/o"
	lead=$(cut -f1 "$TMP/o")
	awk -v l="$lead" 'BEGIN { exit !(l > 0.3) }'
	near "$(cut -f2 "$TMP/o")" "$(awk -v l="$lead" 'BEGIN { printf "%.9g", 0.5 * l + 0.1 }')" 1e-3
	printf '%s\n' '<robot name="s"><link name="a"><inertial><mass value="1"/>' \
	    '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>' \
	    '<gazebo><static>true</static></gazebo></robot>' > "$TMP/s.urdf"
	phys-step -t 0.5 -r 2 -i 's::a/pose' "$TMP/s.urdf" 2> /dev/null | tail -1 | jq -e '.items["s::a/pose"].z == 0'
}

@test "messages name the URDF's lines" {
	bad() {
		run -1 phys-param list "$TMP/b.urdf"
		[[ "$output" == "phys-param: $TMP/b.urdf:$1: $2" ]] || { echo "got: $output"; return 1; }
	}
	printf '%s\n' '<robot name="b">' '<link name="a"><inertial><mass value="-1"/>' \
	    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>' > "$TMP/b.urdf"
	bad 2 "inertial.mass: -1 must be above 0"
	printf '%s\n' '<robot name="b">' '<link name="a"/>' '<joint name="j" type="hinge"><parent link="a"/><child link="c"/></joint>' '<link name="c"/></robot>' > "$TMP/b.urdf"
	bad 3 "joint 'j': unknown type 'hinge' (revolute, continuous, prismatic, fixed, floating, planar)"
	printf '%s\n' '<robot name="b">' '<link name="a"/>' '<joint name="j" type="fixed"><parent link="a"/>' '<child link="x"/></joint></robot>' > "$TMP/b.urdf"
	bad 4 "joint 'j': no link named 'x'"
	printf '%s\n' '<robot name="b">' '<link name="a"/>' '<link name="c"/></robot>' > "$TMP/b.urdf"
	bad 3 "two root links, 'a' and 'c' (every link but one needs a parent joint)"
	printf '%s\n' '<robot name="b"><link name="a">' '<collision><origin xyz="1 2"/><geometry><box size="1 1 1"/></geometry></collision>' '</link></robot>' > "$TMP/b.urdf"
	bad 2 '<origin xyz="1 2">: three numbers wanted'
	printf '%s\n' '<robot name="b"><link name="a"/>' '<joint name="j" type="revolute"><parent link="a"/><child link="c"/></joint>' '<link name="c"/></robot>' > "$TMP/b.urdf"
	bad 2 "joint 'j': a revolute joint needs <limit> (URDF requires it)"
}

@test "every command reads a URDF, by path and on standard input" {
	R=$ROBOTS/pendulum.urdf
	phys-step -n 0 -i 'pendulum::rod/pose' "$R" 2> /dev/null | jq -e '.items["pendulum::rod/pose"].z == 2'
	phys-step -n 0 -i 'pendulum::rod/pose' - < "$R" 2> /dev/null | jq -e '.items["pendulum::rod/pose"].z == 2'
	[ "$(phys-preset list -1 "$R")" = default_physics ]
	[ "$(phys-param get gravity - < "$R" | jq -c .value)" = '{"x":0,"y":0,"z":-9.8}' ]
	[ "$(phys-inertia check - < "$R" | jq -c '[.link, .file, .line, .mass]')" = '["pendulum::rod","<stdin>",22,3]' ]
	[ "$(phys-introspect items "$R" 'pendulum::pivot/position' | jq -r .name)" = pendulum::pivot/position ]
	phys-sdf check "$R"
	phys-sdf print - < "$R" | grep -q '<model name="pendulum">'
	phys-sweep plan -t 0.01 "$R" 'pendulum::pivot/axis.dynamics.damping=0,0.1' > "$TMP/plan"
	[ "$(wc -l < "$TMP/plan")" -eq 2 ]
	cd "$TMP" && phys-sweep run -j 1 plan 2> /dev/null && [ -s runs/0.jsonl ] && [ -s runs/1.jsonl ]
}

@test "a URDF included in a world, and phys-sdf world's ground" {
	phys-sdf world "$ROBOTS/wheel.urdf" > "$TMP/bare.sdf"
	phys-sdf world --ground "$ROBOTS/wheel.urdf" > "$TMP/ground.sdf"
	grep -q "<uri>$ROBOTS/wheel.urdf</uri>" "$TMP/bare.sdf"
	z() { phys-step -t 0.5 -r 2 -i 'wheel::wheel/pose' "$1" 2> /dev/null | tail -1 | jq '.items["wheel::wheel/pose"].z'; }
	# bare, it falls as in the URDF's own default world; on the ground it rests
	near "$(z "$TMP/bare.sdf")" "$(z "$ROBOTS/wheel.urdf")" 1e-12
	near "$(z "$TMP/ground.sdf")" 0.1 1e-3
	# edits of the included robot go to its own file
	run -1 phys-param set --in-place "$TMP/ground.sdf" 'wheel::wheel/inertial.mass=2'
	[[ "$output" == *"defined in the included file"*"wheel.urdf; edit that file instead"* ]]
	phys-param set --in-place "$TMP/ground.sdf" iters=80
	phys-preset list -1 "$TMP/ground.sdf" > /dev/null
	run -2 phys-sdf world - < "$ROBOTS/wheel.urdf"
	run -1 phys-sdf world "$WORLDS/pendulum.sdf"
	[[ "$output" == *"is a world already"* ]]
}

@test "a URDF included by a relative path is named in messages as a path from here, not as the parts joined; through a link, as joined" {
	mkdir -p "$TMP/a" "$TMP/b/out" "$TMP/c" "$TMP/x/y/out"
	cat > "$TMP/a/r.urdf" <<-'EOF'
	<?xml version="1.0"?>
	<robot name="r">
	  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <link name="arm"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
	    <limit lower="0.5" upper="1" effort="1" velocity="1"/></joint>
	</robot>
	EOF
	echo '<sdf version="1.7"><world name="w"><include><uri>../../a/r.urdf</uri></include></world></sdf>' > "$TMP/b/out/w.sdf"
	want=": joint 'r::j' starts at 0 rad on its first axis, outside its limits [0.5, 1]: it starts at 0.5 instead (a control line at t=0 can set its position)"
	run -0 --separate-stderr bash -c "cd '$TMP/c' && phys-step -n 1 ../b/out/w.sdf"
	assert_equal "$stderr" "phys-step: ../a/r.urdf:5$want"
	run -0 --separate-stderr bash -c "cd '$TMP/b/out' && phys-step -n 1 w.sdf"
	assert_equal "$stderr" "phys-step: ../../a/r.urdf:5$want"
	# out a link to x/y/out: ../b/out/../../a is x/a, not a (another
	# robot there, limits of its own)
	mkdir -p "$TMP/x/a"
	sed 's/lower="0.5"/lower="0.25"/' "$TMP/a/r.urdf" > "$TMP/x/a/r.urdf"
	mv "$TMP/b/out/w.sdf" "$TMP/x/y/out/"
	rmdir "$TMP/b/out"
	ln -s "$TMP/x/y/out" "$TMP/b/out"
	run -0 --separate-stderr bash -c "cd '$TMP/c' && phys-step -n 1 ../b/out/w.sdf"
	assert_equal "$stderr" "phys-step: ../b/out/../../a/r.urdf:5${want//0.5/0.25}"
}

@test "fix gives a robot of package:// meshes its inertia from the meshes" {
	package "$TMP/ros"
	export ROS_PACKAGE_PATH=$TMP/ros
	# the rover's chassis without its inertial, the caster without its own
	sed '/<link name="chassis">/,/<\/inertial>/{/<inertial>/,/<\/inertial>/d}' "$ROBOTS/rover.urdf" |
	    sed '/<link name="caster">/,/<\/inertial>/{/<inertial>/,/<\/inertial>/d}' > "$TMP/r.urdf"
	! grep -A2 '<link name="chassis">' "$TMP/r.urdf" | grep -q inertial || false
	cp "$TMP/r.urdf" "$TMP/fixed.urdf"
	phys-inertia fix --density 500 --in-place "$TMP/fixed.urdf" 'rover::chassis'
	! diff "$TMP/r.urdf" "$TMP/fixed.urdf" | grep -q '^<' || false
	# the 0.6 x 0.4 x 0.1 mesh box and the 0.05 caster sphere, at 500 kg/m^3
	rel "$(phys-param get "$TMP/fixed.urdf" 'rover::chassis/inertial.mass' | jq .value)" \
	    "$(awk 'BEGIN { printf "%.15g", 500 * (0.6 * 0.4 * 0.1 + 4 / 3 * 3.141592653589793 * 0.05^3) }')" 1e-9
	phys-inertia check "$TMP/fixed.urdf" | jq -e -s 'map(.valid) | all'
}

@test "an integer written with more after its digits (<max_contacts>10.0, TIAGo's <samples>818.0) is read as its leading digits, as libsdformat reads it, with a warning; phys refused the file" {
	need_oracle
	cat > "$TMP/i.sdf" <<'SDF'
<sdf version="1.7"><model name="m"><link name="l">
<collision name="c"><max_contacts>10.0</max_contacts><geometry><box><size>1 1 1</size></box></geometry></collision>
</link></model></sdf>
SDF
	[ "$("$BATS_FILE_TMPDIR/oracle" "$TMP/i.sdf" | jq -r '.max_contacts // empty')" = 10 ]
	[ "$(phys-param get "$TMP/i.sdf" 'm::l::c/max_contacts' | jq .value)" = 10 ]
	run -0 --separate-stderr phys-step -n 0 "$TMP/i.sdf"
	assert_equal "$stderr" "phys-step: $TMP/i.sdf:2: <max_contacts>10.0</max_contacts>: read as 10, as libsdformat reads an integer (its leading digits)"
	run -0 phys-sdf check "$TMP/i.sdf"
	assert_output "{\"file\":\"$TMP/i.sdf\",\"line\":2,\"severity\":\"warning\",\"message\":\"<max_contacts>10.0</max_contacts>: read as 10, as libsdformat reads an integer (its leading digits)\"}"
	# no digits at all: refused, as libsdformat refuses it
	sed -i 's|10.0|ten|' "$TMP/i.sdf"
	! "$BATS_FILE_TMPDIR/oracle" "$TMP/i.sdf" > /dev/null 2>&1 || false
	run -1 phys-param get "$TMP/i.sdf" 'm::l::c/max_contacts'
}

@test "a number or vector written with more after it (Drake's iiwa14 <velocity>2.356194490192345\"</velocity>) is read as libsdformat reads it, its leading part, with a warning at its line; phys refused the file" {
	need_oracle
	cat > "$TMP/n.sdf" <<'SDF'
<sdf version="1.9"><world name="w"><model name="m"><link name="a"><pose>0 0 1 0 0 0</pose>
<inertial><mass>2.5abc</mass><inertia><ixx>0.01"</ixx><iyy>0.01 2</iyy><izz>0.01</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.1"</radius></sphere></geometry>
<surface><friction><ode><mu>0.5x</mu></ode></friction></surface></collision></link>
<link name="b"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
<joint name="j" type="revolute"><parent>a</parent><child>b</child>
<axis><xyz>0 0 1 5</xyz><limit><lower>-1</lower><upper>1.5"</upper><velocity>2.3"</velocity></limit>
<dynamics><damping>.5e1q</damping></dynamics></axis></joint></model>
<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>9 9</size></plane></geometry></collision></link></model>
</world></sdf>
SDF
	agrees_with_libsdformat "$TMP/n.sdf"
	run -0 --separate-stderr phys-step -n 0 "$TMP/n.sdf"
	[[ "$stderr" == *"phys-step: $TMP/n.sdf:3: <radius>0.1\"</radius>: read as 0.1, as libsdformat reads a number (its leading number)"* ]]
	[[ "$stderr" == *"phys-step: $TMP/n.sdf:7: <xyz>0 0 1 5</xyz>: read as 0 0 1, as libsdformat reads a vector (its first three numbers)"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c 'radius>0.1')" = 1 ]
	run -0 phys-sdf check "$TMP/n.sdf"
	[ "$(grep -c '"severity":"warning".*as libsdformat reads' <<< "$output")" = 9 ]
	! grep -q '"severity":"error"' <<< "$output" || false
	# the radius reaches the engine: the ball comes to rest 0.1 m up
	z=$(phys-step -t 2 -r 1 -i 'm::a/pose' "$TMP/n.sdf" 2> /dev/null | tail -1 | jq '.items["m::a/pose"].z')
	rel "$z" 0.1 0.01
	# nothing that leads with a number: refused, as libsdformat refuses it
	sed -i 's|0.1"|r0.1|' "$TMP/n.sdf"
	! "$BATS_FILE_TMPDIR/oracle" "$TMP/n.sdf" > /dev/null 2>&1 || false
	run -1 phys-step -n 0 "$TMP/n.sdf"
	assert_output --partial "$TMP/n.sdf:3:"
}

# collision_rotations URDF: each collision's rotation matrix, "NAME R11
# .. R33" sorted, as phys writes it (its state line on standard input,
# poses of r::a's collisions) into $TMP/phys and as libsdformat reads
# the URDF into $TMP/sdformat.
collision_rotations() {
	jq -r "$JQ_FACTS"'.items | to_entries[] | pose("pose"; .key | sub("/pose$"; "") | sub(".*__"; "") | sub("_collision.*"; ""); .value | p6)' |
	    cut -d' ' -f2,6- | sort > "$TMP/phys"
	"$BATS_FILE_TMPDIR/oracle" "$1" | jq -r "$JQ_FACTS"'select(.collision) | pose("pose"; .collision | sub(".*__"; "") | sub("_collision.*"; ""); .pose)' |
	    cut -d' ' -f2,6- | sort > "$TMP/sdformat"
}

# turned: "NAME ANGLE" for each collision, the angle of R_phys^T
# R_libsdformat (collision_rotations).
turned() {
	paste -d' ' "$TMP/phys" "$TMP/sdformat" | awk '{
		t = 0; for (i = 0; i < 3; i++) for (k = 0; k < 3; k++) t += $(2 + 3 * k + i) * $(12 + 3 * k + i)
		c = (t - 1) / 2; if (c > 1) c = 1; print $1, atan2(sqrt(1 - c * c), c) }'
}

@test "a collision's pitch near 90 degrees: libsdformat turns it to 90 (urdfdom's Euler angles), phys keeps it as written and says by how much, once" {
	need_oracle
	cat > "$TMP/snap.urdf" <<'URDF'
<robot name="r">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision name="near"><origin rpy="0.3 1.568 0.2"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
    <collision name="exact"><origin rpy="0 1.5707963267948966 0"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
    <collision name="below"><origin rpy="0.1 -1.569 0.4"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
</robot>
URDF
	run -0 --separate-stderr phys-step -n 0 -i 'r::a::*/pose' "$TMP/snap.urdf"
	[ "$(grep -c . <<< "$stderr")" -eq 1 ]
	[[ "$stderr" == *"snap.urdf:4: link 'a': a collision's pitch within 0.0045 rad of 90 degrees, which libsdformat (urdfdom's Euler angles) writes as 90 degrees, turning 2 collisions by up to "*" rad; phys keeps the rotations as written" ]]
	said=$(sed -n 's/.*by up to \([^ ]*\) rad.*/\1/p' <<< "$stderr")
	# each collision's rotation matrix: phys's, libsdformat's, as written
	collision_rotations "$TMP/snap.urdf" <<< "$output"
	jq -nr "$JQ_FACTS"'pose("x"; "near"; [0, 0, 0, 0.3, 1.568, 0.2]), pose("x"; "exact"; [0, 0, 0, 0, 1.5707963267948966, 0]),
	    pose("x"; "below"; [0, 0, 0, 0.1, -1.569, 0.4])' | cut -d' ' -f2,6- | sort > "$TMP/written"
	cat "$TMP/phys" "$TMP/sdformat" "$TMP/written"
	[ "$(cut -d' ' -f1 "$TMP/sdformat" | tr '\n' ' ')" = "$(cut -d' ' -f1 "$TMP/phys" | tr '\n' ' ')" ]
	# phys: as written
	paste -d' ' "$TMP/phys" "$TMP/written" | awk '{ for (i = 2; i <= 10; i++) { d = $i - $(i + 10); if (d > 1e-12 || d < -1e-12) exit 1 } }'
	# libsdformat: the exact one as written, the two others turned, the
	# larger turn (the angle of R_phys^T R_sdformat) the one said
	turned | awk -v said="$said" '{ a = $2
		if ($1 == "exact" && a > 1e-9) exit 1
		if ($1 != "exact" && a < 1e-4) exit 1
		if (a > m) m = a }
	END { if (sprintf("%.2g", m) != said) { print "said " said ", turned " m; exit 1 } }'
}

# A collision lumped through a fixed joint is written by libsdformat in
# the link it ends in, its rotation turned by the joint's first: the
# pitch that snaps is that one's, not the one written in its own link.
@test "a lumped collision's pitch near 90 degrees is judged in the link it is lumped into, as libsdformat turns it: said by how much, and one that is near 90 only in its own link is not" {
	need_oracle
	cat > "$TMP/lump.urdf" <<'URDF'
<robot name="r">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="jb" type="fixed"><parent link="a"/><child link="b"/><origin rpy="0 1 0.3"/></joint>
  <link name="b">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision name="near"><origin rpy="0 0.5695 0"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
  <joint name="jc" type="fixed"><parent link="a"/><child link="c"/><origin rpy="0 -1 0"/></joint>
  <link name="c">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision name="own"><origin rpy="0.3 1.568 0.2"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
</robot>
URDF
	run -0 --separate-stderr phys-step -n 0 -i 'r::a::*/pose' "$TMP/lump.urdf"
	[[ "$stderr" == *"lump.urdf:8: link 'b': a collision's pitch within 0.0045 rad of 90 degrees, which libsdformat (urdfdom's Euler angles) writes as 90 degrees, turning 1 collision by up to "*" rad; phys keeps the rotation as written" ]] || fail "$stderr"
	said=$(sed -n 's/.*by up to \([^ ]*\) rad.*/\1/p' <<< "$stderr")
	# the angle between phys's rotation and libsdformat's, each collision
	collision_rotations "$TMP/lump.urdf" <<< "$output"
	[ "$(cut -d' ' -f1 "$TMP/phys" | tr '\n' ' ')" = "near own " ]
	turned | awk -v said="$said" '{ a = $2
		if ($1 == "own" && a > 1e-9) exit 1
		if ($1 == "near" && (a < 1e-4 || sprintf("%.2g", a) != said)) exit 1 }'
}

@test "elements URDF does not have (PyBullet's <contact>, Drake's rotor inertia and friction, Isaac Gym's <sdf>), which libsdformat drops without a word, are said at their line, once a name; the robot is read as libsdformat reads it" {
	need_oracle
	cat > "$TMP/x.urdf" <<'URDF'
<robot name="x" xmlns:drake="http://drake.mit.edu">
  <link name="a">
    <contact><lateral_friction value="0.8"/></contact>
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry>
      <drake:proximity_properties><drake:mu_dynamic value="0.5"/></drake:proximity_properties>
      <sdf resolution="256"/></collision>
  </link>
  <link name="b">
    <contact><lateral_friction value="0.8"/></contact>
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit effort="1" velocity="1" lower="-1" upper="1"/>
    <safety_controller k_velocity="1"/><drake:rotor_inertia value="0.1"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type></transmission>
</robot>
URDF
	agrees_with_libsdformat "$TMP/x.urdf"
	run -0 --separate-stderr phys-step -n 0 "$TMP/x.urdf"
	assert_equal "$stderr" "phys-step: $TMP/x.urdf:3: <contact> in <link> (2 of them): PyBullet's contact parameters, not URDF, and not read (libsdformat drops it too)
phys-step: $TMP/x.urdf:6: <drake:proximity_properties> in <collision>: Drake's, not URDF, and not read (libsdformat drops it too)
phys-step: $TMP/x.urdf:7: <sdf> in <collision>: Isaac Gym's signed distance field, not URDF, and not read (libsdformat drops it too)
phys-step: $TMP/x.urdf:15: <drake:rotor_inertia> in <joint>: Drake's, not URDF, and not read (libsdformat drops it too)"
	# the checker finds them as warnings
	run -0 phys-sdf check "$TMP/x.urdf"
	[ "$(grep -c '"severity":"warning".*not URDF, and not read' <<< "$output")" = 4 ]
}
