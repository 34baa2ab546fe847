#!/usr/bin/env bats
# Exact frames: pose attributes (degrees, quaternions), include poses and
# flattened names relative to frames, every digit of a pose kept; SDF
# versions, joint kinds and names, tolerant parsing and the loader's
# refusals. Every pose is compared with one computed by hand.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	build_sdformat_oracle
}

# swing_period: the mean period of m::j, from state lines on stdin, timed
# by its upward crossings of pi/2 (a pendulum let go horizontally).
swing_period() {
	jq -r '[.t, .items["m::j/position"][0]] | @tsv' | awk '
		NR > 1 && p < 1.5708 && $2 >= 1.5708 { tc = pt + ($1 - pt) * (1.5708 - p) / ($2 - p); if (f == "") f = tc; else { l = tc; n++ } }
		{ pt = $1; p = $2 } END { print (l - f) / n }'
}

# pose ITEM at the first line of file F, fields x y z roll pitch yaw
pose() {
	jq -r --arg i "$2" '.items[$i] | [.x, .y, .z, .roll, .pitch, .yaw] | map(. * 1e9 | round / 1e9) | @tsv' "$1" | head -1
}

# sdf_world VERSION BODY: a world file of that SDF version around BODY
sdf_world() {
	printf '<?xml version="1.0"?>\n<sdf version="%s">\n<world name="w">\n%s\n</world>\n</sdf>\n' "$1" "$2"
}

# a static model NAME at POSE (pose element text given whole)
static_model() {
	printf '<model name="%s"><static>true</static>%s<link name="l"/></model>\n' "$1" "$2"
}

@test "pose degrees=\"true\" and rotation_format=\"quat_xyzw\"" {
	sdf_world 1.9 "$(static_model d '<pose degrees="true">0 0 1 90 0 -45</pose>')
$(static_model q '<pose rotation_format="quat_xyzw">1 2 3 0 0 0.7071067811865476 0.7071067811865476</pose>')
$(static_model r '<pose rotation_format="euler_rpy" degrees="false">0 0 0 0.5 0 0</pose>')" > "$TMP/w.sdf"
	phys-step -n 0 -i '*/pose' "$TMP/w.sdf" > "$TMP/o"
	[ "$(pose "$TMP/o" d::l/pose)" = "$(printf '0\t0\t1\t1.570796327\t0\t-0.785398163')" ]
	# a quarter turn about z, as a unit quaternion
	[ "$(pose "$TMP/o" q::l/pose)" = "$(printf '1\t2\t3\t0\t0\t1.570796327')" ]
	[ "$(pose "$TMP/o" r::l/pose | cut -f4)" = 0.5 ]
}

@test "degrees and quaternions in links, collisions, frames, joints and includes" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
  <frame name="F"><pose degrees="true">0 0 0 0 0 90</pose></frame>
  <model name="m">
    <frame name="f"><pose rotation_format="quat_xyzw">0 0 0 0 0 1 0</pose></frame>
    <link name="a"><pose relative_to="f">1 0 0 0 0 0</pose>
      <collision name="c"><pose degrees="true">0 0 0 180 0 0</pose>
        <geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
    </link>
    <joint name="j" type="revolute"><pose degrees="true">1 0 0 0 0 90</pose>
      <parent>world</parent><child>a</child><axis><xyz>1 0 0</xyz></axis></joint>
  </model>
  <include><uri>crate</uri><name>k</name>
    <pose relative_to="F" rotation_format="quat_xyzw">1 0 0 0 0 0 1</pose></include>
</world>
</sdf>
SDF
	phys-step -n 0 -i '*/pose' -i 'm::a::c/pose' "$TMP/w.sdf" > "$TMP/o"
	# f turns half a turn about z: 1 m along its x is -1 m along world x
	[ "$(pose "$TMP/o" m::a/pose | cut -f1-3)" = "$(printf -- '-1\t0\t0')" ]
	# the collision is turned half a turn about the link's x
	near "$(jq '.items["m::a::c/pose"].roll | fabs' "$TMP/o")" 3.141592654 1e-9
	# the crate's link is 0.2 m up; F turns 1 m along x into world y
	[ "$(pose "$TMP/o" k::link/pose | cut -f1-3)" = "$(printf '0\t1\t0.2')" ]
	# the pivot is 1 m along the link's x (world -x) and its axis x turned
	# 90 degrees is world -y: the link swings down in the xz plane
	phys-step -t 0.2 -i 'm::a/pose' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["m::a/pose"].y' "$TMP/o")" 0 1e-9
	[ "$(jq '.items["m::a/pose"].z < -0.01' "$TMP/o")" = true ]
}

@test "an inertial pose in degrees is read, and written back in radians" {
	sdf_world 1.9 '<model name="m"><link name="l"><inertial><pose degrees="true">0 0 0 0 0 90</pose><mass>1</mass></inertial></link></model>' > "$TMP/w.sdf"
	near "$(phys-param get "$TMP/w.sdf" m::l/inertial.pose | jq .value.yaw)" 1.5707963267948966 1e-12
	# the attribute would misread the radians now written: it goes
	phys-param set "$TMP/w.sdf" 'm::l/inertial.pose=0 0 0 0 0 0.5' > "$TMP/e.sdf"
	grep -q '<pose>0 0 0 0 0 0.5</pose>' "$TMP/e.sdf"
	near "$(phys-param get "$TMP/e.sdf" m::l/inertial.pose | jq .value.yaw)" 0.5 1e-12
}

@test "pose attributes that make no sense are refused with file:line" {
	sdf_world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw" degrees="true">0 0 0 0 0 0 1</pose>')" > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:4: <pose>: degrees=\"true\" does not apply"* ]]
	sdf_world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw">0 0 0 0 0 0 0</pose>')" > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:4: <pose>: the quaternion is zero"* ]]
	sdf_world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw">0 0 0 0 0 0</pose>')" > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:4: <pose>: expected 7 numbers"* ]]
}

@test "an include's pose relative to a world frame" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <frame name="F"><pose>5 0 5 0 0 0</pose></frame>
  <include><uri>model://crate</uri><name>M1</name><pose relative_to="F"/></include>
  <model name="outer"><pose>0 0 10 0 0 0</pose>
    <frame name="G"><pose>0 3 0 0 0 0</pose></frame>
    <include><uri>model://crate</uri><name>M2</name><pose relative_to="G">1 0 0 0 0 0</pose></include>
  </model>
</world>
</sdf>
SDF
	phys-step -n 0 -i '*/pose' "$TMP/w.sdf" > "$TMP/o"
	[ "$(pose "$TMP/o" M1/pose | cut -f1-3)" = "$(printf '5\t0\t5')" ]
	[ "$(pose "$TMP/o" outer::M2/pose | cut -f1-3)" = "$(printf '1\t3\t10')" ]
	sed -i 's/relative_to="F"/relative_to="nowhere"/' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:5: no frame or model named 'nowhere'"* ]]
}

@test "flattened nested names keep their relative_to" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <model name="P"><static>true</static>
    <frame name="M1::__model__" attached_to="M1::L1">
      <pose relative_to="__model__">10 0 0 0 0 1.5707963267948966</pose>
    </frame>
    <frame name="M1::F1" attached_to="M1::__model__">
      <pose>0 0 0 1.5707963267948966 0 0</pose>
    </frame>
    <link name="M1::L1"><pose relative_to="M1::F1"/></link>
    <model name="M1::M2">
      <pose relative_to="M1::F1">1 0 0 0 0 0</pose>
      <link name="L5"><pose>1 0 0 0 0 0</pose></link>
    </model>
  </model>
</world>
</sdf>
SDF
	phys-step -n 0 -i '*/pose' "$TMP/w.sdf" > "$TMP/o"
	# 10 0 0, turned 90 degrees about z, then about x: 2 m along x is +y
	[ "$(pose "$TMP/o" P::M1::M2::L5/pose | cut -f1-3)" = "$(printf '10\t2\t0')" ]
	[ "$(pose "$TMP/o" P::M1::M2/pose | cut -f1-3)" = "$(printf '10\t1\t0')" ]
	[ "$(pose "$TMP/o" P::M1::L1/pose | cut -f1-3)" = "$(printf '10\t0\t0')" ]
}

@test "a pose keeps every digit the file gives" {
	sdf_world 1.6 "$(static_model a '<pose>0 0 0 0 1.57079633 0</pose>')
$(static_model b '<pose>0 0 0 0 1.5707963 0</pose>')" > "$TMP/w.sdf"
	phys-step -n 0 -i '*/pose' "$TMP/w.sdf" > "$TMP/o"
	# past pi/2 the same rotation reads roll = yaw = pi, pitch = pi - p
	near "$(jq '.items["a/pose"].pitch' "$TMP/o")" "$(awk 'BEGIN { printf "%.17g", 3.141592653589793 - 1.57079633 }')" 1e-15
	near "$(jq '.items["b/pose"].pitch' "$TMP/o")" 1.5707963 1e-15
	near "$(jq '.items["b/pose"].roll' "$TMP/o")" 0 1e-15
}

# a nut of 1 kg, izz 0.01 kg m^2, on a vertical screw; PITCH_XML sets its
# thread
nut_world() {
	cat <<SDF
<?xml version="1.0"?>
<sdf version="$1">
<world name="w">
  <gravity>0 0 -9.8</gravity>
  <model name="m">
    <link name="nut"><pose>0 0 5 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.01</izz></inertia></inertial>
    </link>
    <joint name="s" type="screw"><parent>world</parent><child>nut</child>
      $2<axis><xyz>0 0 1</xyz></axis></joint>
  </model>
</world>
</sdf>
SDF
}

@test "screw: x = lead * theta, and the nut falls at g m / (m + J / lead^2)" {
	# thread_pitch -10 rad/m: 0.1 m per radian, a right-hand thread
	nut_world 1.9 '<thread_pitch>-10</thread_pitch>' > "$TMP/w.sdf"
	phys-step -t 10 -r 1 -i 'm::nut/pose' -i 'm::s/position' "$TMP/w.sdf" > "$TMP/o"
	# every second: travel is 0.1 m per radian of turn, to 1e-9 m
	jq -r '.items["m::s/position"] | .[1] - 0.1 * .[0] | fabs < 1e-9' "$TMP/o" | sort -u | grep -qx true
	[ "$(jq -r '.items["m::s/position"] | .[1] - 0.1 * .[0] | fabs < 1e-9' "$TMP/o" | sort -u)" = true ]
	# J / lead^2 = 1 kg: half of g, integrated the way the step does it
	tail -1 "$TMP/o" > "$TMP/last"
	near "$(jq '.items["m::nut/pose"].z' "$TMP/last")" "$(awk 'BEGIN { printf "%.12f", 5 - 4.9 * 1e-6 * 10000 * 10001 / 2 }')" 1e-6
	# right-hand: going down, it turns clockwise seen from above
	near "$(jq '.items["m::s/position"][1]' "$TMP/last")" "$(awk 'BEGIN { printf "%.12f", -4.9 * 1e-6 * 10000 * 10001 / 2 }')" 1e-6
	sed -n 2p "$TMP/o" > "$TMP/one"
	near "$(jq '.items["m::nut/pose"].yaw' "$TMP/one")" "$(jq '.items["m::s/position"][0] | . - 6.283185307179586 * ((. / 6.283185307179586) | round)' "$TMP/one")" 1e-9
	[ "$(jq '.items["m::s/position"][0] < -20' "$TMP/one")" = true ]
}

@test "screw: thread_pitch > 0 is a left-hand thread; SDF 1.10's screw_thread_pitch is m per turn, right-hand" {
	nut_world 1.9 '<thread_pitch>10</thread_pitch>' > "$TMP/w.sdf"
	phys-step -t 1 -r 1 -i 'm::s/position' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["m::s/position"] | .[1] + 0.1 * .[0]' "$TMP/o")" 0 1e-9
	[ "$(jq '.items["m::s/position"][0] > 20' "$TMP/o")" = true ]
	# 0.2 pi m per turn is 0.1 m per radian
	nut_world 1.10 '<screw_thread_pitch>0.6283185307179586</screw_thread_pitch>' > "$TMP/w.sdf"
	phys-step -t 1 -r 1 -i 'm::s/position' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["m::s/position"] | .[1] - 0.1 * .[0]' "$TMP/o")" 0 1e-9
	[ "$(jq '.items["m::s/position"][0] < -20' "$TMP/o")" = true ]
	nut_world 1.9 '<thread_pitch>0</thread_pitch>' > "$TMP/zero.sdf"
	run phys-step -n 0 "$TMP/zero.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *":10: joint 'm::s': thread_pitch is zero"* ]]
}

@test "gearbox: theta2 = -ratio * theta1, and the pair swings with J1 + ratio^2 J2" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <model name="m">
    <link name="base"><pose>0 0 1 0 0 0</pose></link>
    <link name="g1"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="g2"><pose>1 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.05</ixx><iyy>0.05</iyy><izz>0.05</izz></inertia></inertial></link>
    <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
    <joint name="h1" type="revolute"><parent>base</parent><child>g1</child>
      <axis><xyz>0 0 1</xyz><dynamics><spring_reference>1</spring_reference><spring_stiffness>3</spring_stiffness></dynamics></axis></joint>
    <joint name="h2" type="revolute"><parent>base</parent><child>g2</child>
      <axis><xyz>0 0 1</xyz></axis></joint>
    <joint name="gear" type="gearbox"><parent>g1</parent><child>g2</child>
      <gearbox_reference_body>base</gearbox_reference_body>
      <gearbox_ratio>2</gearbox_ratio>
      <axis><xyz>0 0 1</xyz></axis><axis2><xyz>0 0 1</xyz></axis2></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 10 -r 100 -i 'm::h*/velocity' -i 'm::h1/position' "$TMP/w.sdf" > "$TMP/o"
	# the rates keep the ratio: |w2 + 2 w1| small against |w1| up to 3 rad/s
	jq -r '.items | (.["m::h2/velocity"][0] + 2 * .["m::h1/velocity"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-3) { print "gear slip " m; exit 1 } }'
	# the spring of 3 N m/rad against 0.1 + 4 * 0.05 kg m^2: sqrt(10) rad/s,
	# theta1 = 1 - cos(sqrt(10) t)
	jq -r '[.t, .items["m::h1/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 1 - cos(sqrt(10) * $1); d = $2 - e; if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.03) { print "theta1 off by " m; exit 1 } }'
	sed 's|<gearbox_reference_body>base</gearbox_reference_body>||' "$TMP/w.sdf" > "$TMP/noref.sdf"
	run phys-step -n 0 "$TMP/noref.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"gearbox joint 'm::gear' has no <gearbox_reference_body>"* ]]
}

@test "screw and gearbox worlds load in every command" {
	nut_world 1.9 '<thread_pitch>-10</thread_pitch>' > "$TMP/w.sdf"
	phys-param list "$TMP/w.sdf" | jq -r .name | grep -qx 'm::s/thread_pitch'
	phys-preset list "$TMP/w.sdf" | jq -r .name | grep -qx default_physics
	phys-inertia check "$TMP/w.sdf" | jq -e 'select(.link == "m::nut") | .valid' > /dev/null
	phys-introspect items "$TMP/w.sdf" | grep -q 'm::s/position'
}

@test "SDF 1.6: a link and a joint may share a name, the joint then named NAME_joint as libsdformat names it; 1.7 refuses it" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <model name="m">
    <link name="arm"><pose>1 0 2 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
    <joint name="arm" type="revolute"><pose>-1 0 0 0 0 0</pose><parent>world</parent><child>arm</child>
      <axis><xyz>0 1 0</xyz><dynamics><damping>0.5</damping></dynamics></axis></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 0.3 -r 10 -i 'm::arm*/pose' -i 'm::arm_joint/position' "$TMP/w.sdf" 2>"$TMP/err" | tail -1 > "$TMP/o"
	grep -q "w.sdf:7: joint 'm::arm' shares its name with a link: it is named 'm::arm_joint'" "$TMP/err"
	# a 1 m pendulum about the pivot at (0, 0, 2); its angle is the pitch
	near "$(jq '.items["m::arm/pose"] | (.x * .x + (.z - 2) * (.z - 2))' "$TMP/o")" 1 1e-3
	# the joint's own pose item stays at the pivot and turns with the arm
	near "$(jq '.items["m::arm_joint/pose"] | (.x * .x + (.z - 2) * (.z - 2))' "$TMP/o")" 0 1e-6
	near "$(jq '.items["m::arm_joint/pose"].pitch' "$TMP/o")" "$(jq '.items["m::arm/pose"].pitch' "$TMP/o")" 1e-9
	near "$(jq '.items["m::arm_joint/position"][0]' "$TMP/o")" "$(jq '.items["m::arm/pose"].pitch' "$TMP/o")" 1e-9
	[ "$(phys-param get "$TMP/w.sdf" m::arm_joint/axis.dynamics.damping | jq .value)" = 0.5 ]
	# printed, it is a 1.7+ world that loads, the joint under that name
	phys-sdf print "$TMP/w.sdf" 2>/dev/null > "$TMP/p.sdf"
	phys-step -t 0.3 -r 10 -i 'm::arm/pose' "$TMP/p.sdf" | tail -1 > "$TMP/p"
	near "$(jq '.items["m::arm/pose"].pitch' "$TMP/p")" "$(jq '.items["m::arm/pose"].pitch' "$TMP/o")" 1e-9
	[ "$(phys-param get "$TMP/p.sdf" m::arm_joint/axis.dynamics.damping | jq .value)" = 0.5 ]
	[ "$(phys-param get "$TMP/w.sdf" m::arm/inertial.mass | jq .value)" = 1 ]
	sed -i 's/version="1.6"/version="1.7"/' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:7: duplicate name 'm::arm': a link has it ($TMP/w.sdf:"*"), and a model's links, joints and frames share one set of names from SDF 1.7 on"* ]]
	# a URDF's joint of a link's name, as libsdformat converts it
	cat > "$TMP/r.urdf" <<-'EOF'
	<robot name="r">
	  <link name="base"/>
	  <link name="tip"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <joint name="tip" type="revolute"><parent link="base"/><child link="tip"/>
	    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
	</robot>
	EOF
	run --separate-stderr phys-step -q -n 0 "$TMP/r.urdf"
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: $TMP/r.urdf:4: duplicate name 'r::tip': a link has it ($TMP/r.urdf:3), and a model's links, joints and frames share one set of names from SDF 1.7 on (a URDF's too, as libsdformat reads it)" ]
}

@test "a joint's parent and child may name frames (SDF 1.7+)" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <model name="m">
    <link name="bob"><pose>1 0 2 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
    <frame name="tip" attached_to="bob"><pose>0.5 0 0 0 0 0</pose></frame>
    <frame name="tip2" attached_to="tip"/>
    <joint name="j" type="revolute"><pose relative_to="__model__">0 0 2 0 0 0</pose>
      <parent>world</parent><child>tip2</child><axis><xyz>0 1 0</xyz></axis></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 0.3 -r 10 -i 'm::bob/pose' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	# the frame's link swings about the pivot at (0, 0, 2)
	near "$(jq '.items["m::bob/pose"] | (.x * .x + (.z - 2) * (.z - 2))' "$TMP/o")" 1 1e-3
	[ "$(jq '.items["m::bob/pose"].z < 1.9' "$TMP/o")" = true ]
	sed -i 's|attached_to="tip"/>|attached_to="tip2"/>|' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:8: frame 'tip2' is attached to itself"* ]]
}

@test "worlds: a name is required, a second world is reported, a repeated name refused" {
	printf '<sdf version="1.7">\n<world>\n</world>\n</sdf>\n' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:2: <world> has no name"* ]]
	printf '<sdf version="1.7">\n<world name="a">\n</world>\n<world name="b">\n</world>\n</sdf>\n' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"w.sdf:4: only the first world is run; world 'b' is not loaded"* ]]
	sed -i 's/name="b"/name="a"/' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:4: a second world named 'a'"* ]]
}

@test "frames attached to nothing, to themselves or in a cycle are refused" {
	for case in 'f|ghost|frame '"'"'f'"'"' is attached to '"'"'ghost'"'"', which this model does not have' \
	    'f|f|frame '"'"'f'"'"' is attached to itself' \
	    'f|g|frame '"'"'f'"'"' is attached to a cycle of frames'; do
		IFS='|' read -r name to msg <<<"$case"
		sdf_world 1.7 "<model name=\"m\"><link name=\"l\"/>
<frame name=\"$name\" attached_to=\"$to\"/>
<frame name=\"g\" attached_to=\"f\"/></model>" > "$TMP/w.sdf"
		run phys-step -n 0 "$TMP/w.sdf"
		[ "$status" -eq 1 ] || { echo "$case: $output"; false; }
		[[ "$output" == *"w.sdf:5: $msg"* ]] || { echo "$case: $output"; false; }
	done
	sdf_world 1.7 '<frame name="a" attached_to="b"/>
<frame name="b" attached_to="a"/>' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:4: frame 'a' is attached to a cycle of frames"* ]]
	sdf_world 1.7 '<frame name="a" attached_to="nobody"/>' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:4: frame 'a' is attached to 'nobody', which the world does not have"* ]]
}

@test "a joint loop runs with a warning; ODE closes it" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <model name="m">
    <link name="a"><pose>0 0 1 0 0 0</pose></link>
    <link name="b"><pose>1 0 1 0 0 0</pose></link>
    <joint name="ja" type="ball"><parent>world</parent><child>a</child></joint>
    <joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>
    <joint name="bw" type="ball"><pose>0 0 0 0 0 0</pose><parent>world</parent><child>b</child></joint>
  </model>
</world>
</sdf>
SDF
	run phys-step -t 0.5 -r 2 -i 'm::b/pose' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"w.sdf:9: joint 'm::bw' closes a kinematic loop"* ]]
	# pinned at both ends, the bar can only turn about the line through
	# them, which gravity does not drive: it stays
	near "$(tail -1 <<<"$output" | jq '.items["m::b/pose"].z')" 1 1e-3
}

@test "input ODE would stop on is refused with file:line, or run" {
	# revolute2 to the world: ODE's hinge2 needs two bodies; it runs
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <model name="m">
    <link name="a"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
    <joint name="j" type="revolute2"><pose>0 1 0 0 0 0</pose><parent>world</parent><child>a</child>
      <axis><xyz>0 0 1</xyz></axis><axis2><xyz>1 0 0</xyz></axis2></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 0.3 -r 10 -i 'm::a/pose' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	# swings about x through (0, 1, 1), 1 m away
	near "$(jq '.items["m::a/pose"] | ((.y - 1) * (.y - 1) + (.z - 1) * (.z - 1))' "$TMP/o")" 1 1e-3
	[ "$(jq '.items["m::a/pose"].z < 0.9' "$TMP/o")" = true ]
	# universal or revolute2 with parallel axes
	sed -i 's|<xyz>1 0 0</xyz>|<xyz>0 0 2</xyz>|' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:7: joint 'm::j': axis and axis2 are parallel"* ]]
	sed -i 's|revolute2|universal|' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:7: joint 'm::j': axis and axis2 are parallel"* ]]
	# a collision beyond ODE's collision space
	sdf_world 1.6 '<model name="m"><pose>0 0 8.9e9 0 0 0</pose><link name="l">
<collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision></link></model>' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:5: collision 'm::l::c': 8.9e+09 m along z is farther than phys places a body (2.6e+08 m from the origin along each axis)"* ]]
}

@test "SDF 1.10-1.12 load without a version warning; limits of inf mean no limit" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.12">
<world name="w">
  <model name="m">
    <link name="b"><pose>0 0 1 0 0 0</pose></link>
    <joint name="j" type="prismatic"><parent>world</parent><child>b</child>
      <axis><xyz>0 0 1</xyz><limit><lower>-inf</lower><upper>inf</upper><effort>inf</effort><velocity>inf</velocity></limit></axis></joint>
  </model>
</world>
</sdf>
SDF
	run --separate-stderr phys-step -t 0.5 -e 500 -i 'm::b/pose' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# no stop: a free fall along the slider
	near "$(tail -1 <<<"$output" | jq '.items["m::b/pose"].z')" "$(awk 'BEGIN { printf "%.12f", 1 - 9.8 * 1e-6 * 500 * 501 / 2 }')" 1e-9
	[ "$(phys-param get "$TMP/w.sdf" m::j/axis.limit.lower | jq .value)" = -1e+16 ]
	sed -i 's/1.12/1.13/' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:2: SDF version 1.13 is outside 1.4-1.12"* ]]
}

@test "SDF 1.11 mimic: follower = multiplier * (leader - reference) + offset" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11">
<world name="w">
  <model name="m">
    <link name="a"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="b"><pose>2 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <joint name="ja" type="revolute"><parent>world</parent><child>a</child>
      <axis><xyz>0 0 1</xyz><dynamics><spring_reference>1</spring_reference><spring_stiffness>3</spring_stiffness></dynamics></axis></joint>
    <joint name="jb" type="prismatic"><parent>world</parent><child>b</child>
      <axis><xyz>1 0 0</xyz>
        <mimic joint="ja" axis="axis"><multiplier>0.5</multiplier><offset>0</offset><reference>0</reference></mimic>
      </axis></joint>
  </model>
</world>
</sdf>
SDF
	phys-step -t 3 -r 100 -i 'm::j*/position' "$TMP/w.sdf" > "$TMP/o"
	jq -r '.items | (.["m::jb/position"][0] - 0.5 * .["m::ja/position"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-6) { print "mimic off by " m; exit 1 } }'
	# the slider's 1 kg moves at half the rate: 0.1 + 0.25 kg m^2 against
	# 3 N m/rad, theta = 1 - cos(sqrt(3 / 0.35) t)
	jq -r '[.t, .items["m::ja/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 1 - cos(sqrt(3 / 0.35) * $1); d = $2 - e; if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.03) { print "theta off by " m; exit 1 } }'
	sed -i 's/joint="ja"/joint="nobody"/' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:13: <mimic>: no joint named 'nobody' in this model"* ]]
}

@test "SDF 1.11+ elements phys cannot honour yet are refused or reported" {
	# a <joint> of the world is read (tests/field-loader.bats); one
	# naming no link is refused at its line
	sdf_world 1.12 '<model name="a"><link name="l"/></model><model name="b"><link name="l"/></model>
<joint name="j" type="fixed"><parent>a::l</parent><child>b::nothing</child></joint>' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:5: no link, frame or model named 'b::nothing' in the world"* ]]
	# a merged include is merged (tests/field-loader.bats)
	sdf_world 1.9 '<model name="m"><include merge="true"><uri>model://crate</uri></include></model>' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"loaded nested"* ]]
}

@test "XML details libsdformat accepts: blank lines before <?xml, -- in comments, undeclared prefixes, text before the root" {
	# a declaration that lost its "<" (a world of gz-sim's own tests) is
	# text before the root, which libsdformat reads past
	for head in '?xml version="1.0"?>\n<sdf version="1.9">\n<world name="w">' \
	    '\n\n<?xml version="1.0"?>\n<!-- a -- comment --->\n<sdf version="1.6">\n<world name="w">\n<ignition:plugin name="p"><x/></ignition:plugin>'; do
		printf "$head"'\n<model name="m"><pose>0 0 1 0 0 0</pose><link name="l"/></model>\n</world>\n</sdf>\n' > "$TMP/w.sdf"
		phys-step -n 0 -i 'm/pose' "$TMP/w.sdf" > "$TMP/o"
		[ "$(pose "$TMP/o" m/pose | cut -f3)" = 1 ]
		# lines are the file's own, and an edit changes only its line
		phys-param set "$TMP/w.sdf" m::l/inertial.mass=3 > "$TMP/e.sdf"
		[ "$(diff "$TMP/w.sdf" "$TMP/e.sdf" | grep -c '^[<>]')" -eq 2 ]
		[ ! -x "$BATS_FILE_TMPDIR/oracle" ] ||
		    "$BATS_FILE_TMPDIR/oracle" "$TMP/w.sdf" > /dev/null
	done
	sed -i 's|<link name="l"/>|<link name="l"><bad></link>|' "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:8: malformed XML"* ]]
	# text before a declaration stops libsdformat (tinyxml2), and phys
	printf 'junk\n<?xml version="1.0"?>\n<sdf version="1.9"><world name="w"/></sdf>\n' > "$TMP/w.sdf"
	run -1 phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:1: malformed XML"* ]]
	if [ -x "$BATS_FILE_TMPDIR/oracle" ]; then
		run "$BATS_FILE_TMPDIR/oracle" "$TMP/w.sdf"
		[ "$status" -ne 0 ]
	fi
	# the security limits hold: no entity declarations
	printf '<?xml version="1.0"?>\n<!DOCTYPE sdf [<!ENTITY x "y">]>\n<sdf version="1.6"><world name="w"/></sdf>\n' > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"entity declarations are not allowed"* ]]
}

@test "surface values outside phys's range load with a warning and act as in Gazebo" {
	sed 's|<max_vel>0.1</max_vel>|<max_vel>-1</max_vel>|' "$WORLDS/buried_sphere.sdf" > "$TMP/w.sdf"
	run --separate-stderr phys-step -t 0.05 -e 50 -s contact_max_correcting_vel=0.5 -i 'ball::link/pose' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"w.sdf:33: <max_vel> -1 is outside 0..inf; kept as written"* ]]
	# a negative max_vel is the global one: out at 0.5 m/s
	near "$(tail -1 <<<"$output" | jq '.items["ball::link/pose"].z')" "$(awk 'BEGIN { print 0.05 + 0.5 * 0.05 }')" 1e-4
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <model name="ground"><static>true</static><link name="l"><collision name="c">
    <geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
  <model name="ball"><pose>0 0 0.2 0 0 0</pose><link name="l"><collision name="c">
    <geometry><sphere><radius>0.1</radius></sphere></geometry>
    <surface><contact><collide_bitmask>65536</collide_bitmask><category_bitmask>65536</category_bitmask></contact></surface>
  </collision></link></model>
</world>
</sdf>
SDF
	run --separate-stderr phys-step -t 0.5 -e 500 -i 'ball::l/pose' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"w.sdf:8: <collide_bitmask> 65536 is outside 0..65535; kept as written"* ]]
	# bit 16 shares nothing with the ground's 0xffff: it falls through
	near "$(tail -1 <<<"$output" | jq '.items["ball::l/pose"].z')" "$(awk 'BEGIN { printf "%.12f", 0.2 - 9.8 * 1e-6 * 500 * 501 / 2 }')" 1e-9
}

@test "zero inertia runs as a point mass, broken triangle inequality runs, both with a warning" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <gravity>0 0 -9.81</gravity>
  <model name="m">
    <link name="bob"><pose>1 0 2 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial></link>
    <joint name="j" type="revolute"><pose>-1 0 0 0 0 0</pose><parent>world</parent><child>bob</child>
      <axis><xyz>0 1 0</xyz></axis></joint>
  </model>
  <model name="odd"><pose>5 0 1 0 0 0</pose>
    <link name="l"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz></inertia></inertial></link>
  </model>
</world>
</sdf>
SDF
	run --separate-stderr phys-step -s ode.solver.type=world -t 6 -r 500 -i 'm::j/position' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"w.sdf:7: link 'm::bob': inertia not positive definite"* ]]
	# the world solver runs: the quick solver's note is not for it
	[[ "$stderr" != *"quick solver"* ]]
	[[ "$stderr" == *"w.sdf:12: link 'odd::l': inertia triangle inequality broken"* ]]
	# a 1 m pendulum of a point mass let go horizontally: its period is
	# 4 sqrt(L/g) K(sin(pi/4)), K(1/sqrt 2) = 1.8540746773013719
	T=$(swing_period <<<"$output")
	rel "$T" "$(awk 'BEGIN { print 4 * sqrt(1 / 9.81) * 1.8540746773013719 }')" 0.01
}

@test "other engines' profiles: an ODE start runs; another start names a profile phys-step runs and -p" {
	sdf_world 1.6 '<physics name="fast" type="ode"><max_step_size>0.002</max_step_size></physics>
<physics name="bul" type="bullet"><max_step_size>0.001</max_step_size></physics>
<physics name="sim" type="simbody"><max_step_size>0.001</max_step_size></physics>
<physics name="dar" type="dart"><max_step_size>0.001</max_step_size></physics>
<physics name="tp" type="tpe"><max_step_size>0.001</max_step_size></physics>
<model name="m"><link name="l"/></model>' > "$TMP/w.sdf"
	phys-step -n 10 -i 'm::l/pose' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	# ten steps of 2 ms in free fall
	near "$(jq '.items["m::l/pose"].z' "$TMP/o")" "$(awk 'BEGIN { printf "%.12f", -9.8 * 4e-6 * 10 * 11 / 2 }')" 1e-12
	# gz-sim's trivial physics engine, which phys has not
	sed -i 's/name="tp" type="tpe"/name="tp" type="tpe" default="true"/' "$TMP/w.sdf"
	run phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"profile 'tp' is for the tpe engine; phys-step runs ode, bullet"* ]]
	[[ "$output" == *": -p fast runs the world's ODE profile 'fast' instead"* ]]
	phys-step -n 10 -p fast -i 'm::l/pose' "$TMP/w.sdf" | tail -1 | cmp - "$TMP/o"
}

@test "a massless link welded to a moving one rides on it without a word; one on a hinge runs with 1/1000 of its model's lightest mass, with a warning; a user's mass 0 is refused" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
<world name="w">
  <gravity>0 0 -9.81</gravity>
  <model name="m">
    <link name="bob"><pose>1 0 2 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz></inertia></inertial></link>
    <link name="sensor"><pose>2 0 2 0 0 0</pose>
      <inertial><mass>0</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial></link>
    <joint name="j" type="revolute"><pose>-1 0 0 0 0 0</pose><parent>world</parent><child>bob</child>
      <axis><xyz>0 1 0</xyz></axis></joint>
    <link name="flap"><pose>1 0 2 0 0 0</pose>
      <inertial><mass>0</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial></link>
    <joint name="weld" type="fixed"><parent>bob</parent><child>sensor</child></joint>
    <joint name="hinge" type="revolute"><parent>bob</parent><child>flap</child>
      <axis><xyz>1 0 0</xyz></axis></joint>
  </model>
  <model name="wall"><static>true</static>
    <link name="l"><inertial><mass>0</mass></inertial></link></model>
</world>
</sdf>
SDF
	run --separate-stderr phys-step -s ode.solver.type=world -t 6 -r 500 -i 'm::j/position' -i 'm::*/mass' -i 'm/potential_energy' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"w.sdf:13: link 'm::flap': mass 0 and no inertia, which Gazebo refuses on a moving link; run with mass 0.001 kg (1/1000 of its model's lightest link, or of 1 kg) and each principal moment mass * (0.001 m)^2"* ]]
	[ "$(grep -c 'mass 0' <<<"$stderr")" -eq 1 ]	# once; the static wall has no body
	! grep -q 'positive definite' <<<"$stderr" || false	# its inertia said with its mass
	[ "$(tail -1 <<<"$output" | jq '.items["m::flap/mass"]')" = 0.001 ]
	# the sensor is part of the bob's body, massless
	[ "$(tail -1 <<<"$output" | jq '.items["m::sensor/mass"]')" = 0 ]
	# energies count the mass that runs: both links 2 m up at the start
	near "$(head -1 <<<"$output" | jq '.items["m/potential_energy"]')" "$(awk 'BEGIN { printf "%.12g", 1.001 * 9.81 * 2 }')" 1e-9
	# the bob swings as the 1 m point-mass pendulum it is: 4 sqrt(L/g)
	# K(1/sqrt 2) from horizontal. Had the sensor the SDF default of 1 kg,
	# 2 m out, the period would be about 1.3 times that.
	T=$(swing_period <<<"$output")
	rel "$T" "$(awk 'BEGIN { print 4 * sqrt(1 / 9.81) * 1.8540746773013719 }')" 0.01
	# what the user writes must make a run possible
	run phys-step -n 1 -s 'm::bob/inertial.mass=0' "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"inertial.mass: 0 must be above 0"* ]]
}

@test "relative_to=\"\" is the default frame, as libsdformat has it: a joint's child, a frame's attached_to, not the model (a joint 5.4 m off, its axis turned)" {
	cat > "$TMP/empty.sdf" <<'SDF'
<?xml version="1.0" ?>
<sdf version="1.7">
  <model name="m">
    <link name="L1"><pose>1 0 0 0 0 1.5707963267948966</pose></link>
    <frame name="F" attached_to="L1">
      <pose relative_to="">0 2 0 0 0 0</pose>
    </frame>
    <link name="L2"><pose relative_to="F">0 0 0 0 0 0</pose></link>
    <link name="C"><pose>5 0 0 0 1.5707963267948966 0</pose></link>
    <joint name="J" type="revolute">
      <pose relative_to="">0 0 1 0 0 0</pose>
      <parent>L1</parent><child>C</child>
      <axis><xyz>0 0 1</xyz></axis>
    </joint>
  </model>
</sdf>
SDF
	# by hand: F is 2 along L1's y (turned a quarter about z: the
	# world's -x) from L1, at (-1, 0, 0); J is 1 along C's z (pitched a
	# quarter: the world's x), at (6, 0, 0)
	run -0 phys-step -q -n 0 -i 'm::L2/pose' -i 'm::J/pose' "$TMP/empty.sdf"
	near "$(jq '.items["m::L2/pose"].x' <<< "$output")" -1 1e-12
	near "$(jq '.items["m::L2/pose"].yaw' <<< "$output")" 1.5707963267948966 1e-12
	near "$(jq '.items["m::J/pose"].x' <<< "$output")" 6 1e-12
	near "$(jq '.items["m::J/pose"].z' <<< "$output")" 0 1e-12
	need_oracle
	agrees_with_libsdformat "$TMP/empty.sdf"
	run -0 phys-sdf check "$TMP/empty.sdf"
}

@test "placement_frame: an <include>'s and a model's own put that frame where the pose says, the model following, as libsdformat places them; an unknown one, or one without a pose, is refused" {
	mkdir -p "$TMP/models/arm"
	cat > "$TMP/models/arm/model.config" <<'CFG'
<?xml version="1.0"?>
<model><name>arm</name><sdf version="1.8">model.sdf</sdf></model>
CFG
	cat > "$TMP/models/arm/model.sdf" <<'SDF'
<?xml version="1.0" ?>
<sdf version="1.8">
  <model name="arm">
    <link name="L1"><pose>1 0 0 0 0 0</pose></link>
    <link name="L2"><pose>0 2 0 0 0 1.5707963267948966</pose></link>
    <frame name="F" attached_to="L1"><pose relative_to="L1">0 0 1 0.5 0 0</pose></frame>
    <joint name="J" type="revolute"><pose>0 0 0.5 0 0 0</pose>
      <parent>L1</parent><child>L2</child><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
</sdf>
SDF
	cat > "$TMP/placed.sdf" <<'SDF'
<?xml version="1.0" ?>
<sdf version="1.8">
  <world name="w">
    <include><name>by_link</name><uri>model://arm</uri>
      <pose>0 10 0 1.5707963267948966 0 0</pose><placement_frame>L2</placement_frame></include>
    <include><name>by_frame</name><uri>model://arm</uri>
      <pose>3 0 0 0 0 0</pose><placement_frame>F</placement_frame></include>
    <include><name>by_joint</name><uri>model://arm</uri>
      <pose>0 -5 1 0 0 0</pose><placement_frame>J</placement_frame></include>
    <model name="own" placement_frame="L1">
      <pose>7 7 7 0 0 0</pose>
      <link name="L1"><pose>1 2 3 0 0 0</pose></link>
      <model name="inner" placement_frame="K">
        <pose>0 0 -1 0 0 0</pose>
        <link name="K"><pose>0 0 2 0 0 0</pose></link>
      </model>
    </model>
  </world>
</sdf>
SDF
	export SDF_PATH="$TMP/models"
	run -0 phys-step -q -n 0 -i '*/pose' "$TMP/placed.sdf"
	pose() { jq -c ".items[\"$1/pose\"] | [.x, .y, .z, .roll, .pitch, .yaw] | map(. * 1e9 | round / 1e9)" <<< "$output"; }
	# by hand: each placement frame where the pose puts it
	assert_equal "$(pose by_link::L2)" "[0,10,0,1.570796327,0,0]"
	assert_equal "$(pose own::L1)" "[7,7,7,0,0,0]"
	# the nested model's K 1 below own's frame (6, 5, 4)
	assert_equal "$(pose own::inner::K)" "[6,5,3,0,0,0]"
	# F sits 1 above L1, rolled 0.5: by_frame's L1 1 below (3, 0, 0) in
	# F's frame
	assert_equal "$(pose by_frame::L1)" "[3,-0.479425539,-0.877582562,-0.5,0,0]"
	# J sits 0.5 above L2, its child, turned as L2: by_joint's L2 0.5
	# below (0, -5, 1), unturned
	assert_equal "$(pose by_joint::L2)" "[0,-5,0.5,0,0,0]"
	need_oracle
	agrees_with_libsdformat "$TMP/placed.sdf"
	# refused as libsdformat refuses them
	sed 's|<placement_frame>L2</placement_frame>|<placement_frame>L9</placement_frame>|' "$TMP/placed.sdf" > "$TMP/unknown.sdf"
	run -1 phys-step -n 0 "$TMP/unknown.sdf"
	assert_output --partial "placement frame 'L9': the model has no link, joint, frame or model of that name"
	run -1 "$BATS_FILE_TMPDIR/oracle" "$TMP/unknown.sdf"
	sed 's|<pose>3 0 0 0 0 0</pose><placement_frame>F|<placement_frame>F|' "$TMP/placed.sdf" > "$TMP/nopose.sdf"
	run -1 phys-step -n 0 "$TMP/nopose.sdf"
	assert_output --partial "nopose.sdf:7: <placement_frame> needs the <include>'s <pose>: where the frame goes"
}

@test "a world frame attached to a model's link or frame by its scoped name (M1::L, M1::G) places what is relative to it, as libsdformat does; phys refused the world" {
	cat > "$TMP/wf.sdf" <<'SDF'
<?xml version="1.0" ?>
<sdf version="1.8">
  <world name="w">
    <model name="M1">
      <pose>1 0 0 0 0 1.5707963267948966</pose>
      <link name="L"><pose>0 1 0 0 0 0</pose></link>
      <frame name="G" attached_to="L"><pose>0 0 2 0 0 0</pose></frame>
    </model>
    <frame name="F" attached_to="M1::L"><pose>0 0 1 0 0 0</pose></frame>
    <frame name="H" attached_to="M1::G"><pose>1 0 0 0 0 0</pose></frame>
    <model name="M3"><pose relative_to="F">0 0 0 0 0 0</pose><link name="K"/></model>
    <model name="M4"><pose relative_to="H">0 0 0 0 0 0</pose><link name="K"/></model>
  </world>
</sdf>
SDF
	# by hand: M1 turned a quarter about z puts L at the origin, F 1
	# above it, G 2 above it and H 1 along G's x (the world's y)
	run -0 phys-step -q -n 0 -i 'M?/pose' "$TMP/wf.sdf"
	assert_equal "$(jq -c '.items["M3/pose"] | [.x, .y, .z, .yaw] | map(. * 1e9 | round / 1e9)' <<< "$output")" "[0,0,1,1.570796327]"
	assert_equal "$(jq -c '.items["M4/pose"] | [.x, .y, .z, .yaw] | map(. * 1e9 | round / 1e9)' <<< "$output")" "[0,1,2,1.570796327]"
	run -0 phys-sdf check "$TMP/wf.sdf"
	need_oracle
	agrees_with_libsdformat "$TMP/wf.sdf"
}

@test "every frame must resolve, named or not, as libsdformat's pose graph has it: a cycle of poses or a pose relative to nothing is refused by phys-step too (it ran them), in a model and in the world" {
	for body in '<model name="m"><link name="l"/>
<frame name="a"><pose relative_to="b">1 0 0 0 0 0</pose></frame>
<frame name="b"><pose relative_to="a">1 0 0 0 0 0</pose></frame></model>|w.sdf:5: pose of '"'a'"' is relative to itself (a cycle)' \
	    '<model name="m"><link name="l"/>
<frame name="a"><pose relative_to="ghost">1 0 0 0 0 0</pose></frame></model>|w.sdf:5: no frame named '"'ghost'"' in this model' \
	    '<frame name="a"><pose relative_to="b"/></frame>
<frame name="b"><pose relative_to="a"/></frame>|w.sdf:4: pose of '"'a'"' is relative to itself (a cycle)' \
	    '<frame name="a"><pose relative_to="ghost"/></frame>|w.sdf:4: no frame or model named '"'ghost'"' in the world (models are known once read)'; do
		sdf_world 1.9 "${body%|*}
$(static_model s '')" > "$TMP/w.sdf"
		run -1 phys-step -n 0 "$TMP/w.sdf"
		[[ "$output" == *"${body#*|}" ]] || { echo "$body: $output"; false; }
		run -1 phys-sdf check "$TMP/w.sdf"
		[ -x "$BATS_FILE_TMPDIR/oracle" ] || continue
		run "$BATS_FILE_TMPDIR/oracle" "$TMP/w.sdf"
		[ "$status" -ne 0 ]
	done
}

# world_frame_chain N: a world of N frames in a chain, each 1 m along x from
# the one before (relative_to it) and attached to it; a model 1 m above
# the last, welded to it by a joint of the world; and a model whose 70
# frames chain the same way, its link 1 m above the last, its joint's
# parent that frame.
world_frame_chain() {
	awk -v n="$1" 'BEGIN {
		print "<?xml version=\"1.0\"?><sdf version=\"1.11\"><world name=\"w\">"
		print "<frame name=\"f0\"><pose>1 0 0 0 0 0</pose></frame>"
		for (i = 1; i < n; i++)
			printf "<frame name=\"f%d\" attached_to=\"f%d\"><pose relative_to=\"f%d\">1 0 0 0 0 0</pose></frame>\n", i, i - 1, i - 1
		printf "<model name=\"w\"><pose relative_to=\"f%d\">0 0 1 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass></inertial></link></model>\n", n - 1
		printf "<joint name=\"wj\" type=\"fixed\"><parent>f%d</parent><child>w::l</child></joint>\n", n - 1
		print "<model name=\"m\"><link name=\"b\"><inertial><mass>1</mass></inertial></link>"
		print "<frame name=\"g0\" attached_to=\"b\"><pose>0 1 0 0 0 0</pose></frame>"
		for (i = 1; i < 70; i++)
			printf "<frame name=\"g%d\" attached_to=\"g%d\"><pose relative_to=\"g%d\">0 1 0 0 0 0</pose></frame>\n", i, i - 1, i - 1
		print "<link name=\"c\"><pose relative_to=\"g69\">0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>"
		print "<joint name=\"j\" type=\"fixed\"><parent>g69</parent><child>c</child></joint>"
		print "</model></world></sdf>" }'
}

@test "chains of frames longer than 64, in the world and in a model, place what is relative to their ends as libsdformat places it (phys refused them as cycles); 100,000 world frames load in seconds" {
	world_frame_chain 40 > "$TMP/w.sdf"
	run -0 --separate-stderr phys-step -q -n 0 -i 'w::l/pose' -i 'm::c/pose' "$TMP/w.sdf"
	# by hand: 40 frames 1 m along x, then 1 m up; 70 frames 1 m along y
	[ "$(pose <(echo "$output") w::l/pose | cut -f1-3)" = "$(printf '40\t0\t1')" ]
	[ "$(pose <(echo "$output") m::c/pose | cut -f1-3)" = "$(printf '0\t70\t1')" ]
	run -0 phys-sdf check "$TMP/w.sdf"
	if [ -x "$BATS_FILE_TMPDIR/oracle" ]; then
		"$BATS_FILE_TMPDIR/oracle" "$TMP/w.sdf" > "$TMP/oracle"
		[ "$(jq -c 'select(.link == "w::l" or .link == "m::c") | .pose[0:3]' "$TMP/oracle")" = "$(printf '[40,0,1]\n[0,70,1]')" ]
	fi
	world_frame_chain 100000 > "$TMP/big.sdf"
	run -0 --separate-stderr bounded 10 300000 phys-step -q -n 0 -i 'w::l/pose' "$TMP/big.sdf"
	[ "$(pose <(echo "$output") w::l/pose | cut -f1-3)" = "$(printf '100000\t0\t1')" ]
}

@test "a link relative to a chain of 70 frames that ends in a nested model's frame waits for that model, as a short chain does (phys refused it)" {
	awk 'BEGIN { print "<?xml version=\"1.0\"?><sdf version=\"1.9\"><world name=\"w\"><model name=\"m\">"
		print "<link name=\"base\"><pose relative_to=\"f69\">0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>"
		print "<frame name=\"f0\"><pose relative_to=\"inner::g\">1 0 0 0 0 0</pose></frame>"
		for (i = 1; i < 70; i++) printf "<frame name=\"f%d\"><pose relative_to=\"f%d\">1 0 0 0 0 0</pose></frame>\n", i, i - 1
		print "<model name=\"inner\"><pose>0 5 0 0 0 0</pose><link name=\"il\"><inertial><mass>1</mass></inertial></link><frame name=\"g\"><pose>0 0 2 0 0 0</pose></frame></model>"
		print "</model></world></sdf>" }' > "$TMP/w.sdf"
	run -0 phys-step -q -n 0 -i 'm::base/pose' "$TMP/w.sdf"
	# by hand: inner at y 5, g 2 up, 70 frames 1 m along x, 1 m up
	[ "$(pose <(echo "$output") m::base/pose | cut -f1-3)" = "$(printf '70\t5\t3')" ]
	need_oracle
	agrees_with_libsdformat "$TMP/w.sdf"
}

@test "a model with no link of its own is attached to its first nested model's canonical link, as libsdformat has it (phys refused a frame of it)" {
	sdf_world 1.9 '<model name="outer"><pose>0 0 10 0 0 0</pose>
<frame name="G"><pose>0 3 0 0 0 0</pose></frame>
<model name="M2"><pose relative_to="G">1 0 0 0 0 0</pose><link name="l"><inertial><mass>1</mass></inertial></link></model>
<model name="M3"><link name="k"><inertial><mass>1</mass></inertial></link></model>
<joint name="j" type="revolute"><parent>G</parent><child>M3::k</child><axis><xyz>0 0 1</xyz></axis></joint>
</model>' > "$TMP/w.sdf"
	run -0 --separate-stderr phys-step -q -n 1000 -r 1 -i 'outer::M2::l/pose' -i 'outer::M3::k/pose' "$TMP/w.sdf"
	# by hand: M2 at G, 1 m along x: (1, 3, 10); M3's link hinged to G,
	# which is M2's link's frame: it falls with M2, 0.5 g t^2 (Euler: 0.5 g h^2 n (n+1))
	[ "$(pose <(echo "$output") outer::M2::l/pose | cut -f1-3)" = "$(printf '1\t3\t10')" ]
	near "$(jq -s '.[-1].items["outer::M3::k/pose"].z' <<< "$output")" "$(awk 'BEGIN { printf "%.12g", 10 - 0.5 * 9.8 * 1e-6 * 1000 * 1001 }')" 1e-9
	need_oracle
	agrees_with_libsdformat "$TMP/w.sdf"
	# a static model with no link at all has frames too, and a world
	# frame may be attached to it
	sdf_world 1.9 '<model name="s"><static>true</static><pose>0 2 0 0 0 0</pose><frame name="f"><pose>1 0 0 0 0 0</pose></frame></model>
<frame name="wf" attached_to="s"><pose relative_to="s::f">0 0 1 0 0 0</pose></frame>
<model name="k"><pose relative_to="wf"/><link name="l"><inertial><mass>1</mass></inertial></link></model>' > "$TMP/w.sdf"
	run -0 --separate-stderr phys-step -q -n 0 -i 'k::l/pose' "$TMP/w.sdf"
	[ "$(pose <(echo "$output") k::l/pose | cut -f1-3)" = "$(printf '1\t2\t1')" ]
	agrees_with_libsdformat "$TMP/w.sdf"
}
