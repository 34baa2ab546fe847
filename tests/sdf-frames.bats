#!/usr/bin/env bats
# Exact frames: pose attributes (degrees, quaternions), include poses and
# flattened names relative to frames, every digit of a pose kept; SDF
# versions, joint kinds and names, tolerant parsing and the loader's
# refusals. Every pose is compared with one computed by hand.

load helper

setup() {
	TMP=$(mktemp -d)
	export SDF_PATH="$WORLDS/models"
}

teardown() {
	rm -rf "$TMP"
}

# pose ITEM at the first line of file F, fields x y z roll pitch yaw
pose() {
	jq -r --arg i "$2" '.items[$i] | [.x, .y, .z, .roll, .pitch, .yaw] | map(. * 1e9 | round / 1e9) | @tsv' "$1" | head -1
}

# world VERSION BODY: a world file of that SDF version around BODY
world() {
	printf '<?xml version="1.0"?>\n<sdf version="%s">\n<world name="w">\n%s\n</world>\n</sdf>\n' "$1" "$2"
}

# a static model NAME at POSE (pose element text given whole)
static_model() {
	printf '<model name="%s"><static>true</static>%s<link name="l"/></model>\n' "$1" "$2"
}

@test "pose degrees=\"true\" and rotation_format=\"quat_xyzw\"" {
	world 1.9 "$(static_model d '<pose degrees="true">0 0 1 90 0 -45</pose>')
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

@test "pose attributes that make no sense are refused with file:line" {
	world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw" degrees="true">0 0 0 0 0 0 1</pose>')" > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:4: <pose>: degrees=\"true\" does not apply"* ]]
	world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw">0 0 0 0 0 0 0</pose>')" > "$TMP/w.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:4: <pose>: the quaternion is zero"* ]]
	world 1.9 "$(static_model d '<pose rotation_format="quat_xyzw">0 0 0 0 0 0</pose>')" > "$TMP/w.sdf"
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
	world 1.6 "$(static_model a '<pose>0 0 0 0 1.57079633 0</pose>')
$(static_model b '<pose>0 0 0 0 1.5707963 0</pose>')" > "$TMP/w.sdf"
	phys-step -n 0 -i '*/pose' "$TMP/w.sdf" > "$TMP/o"
	# past pi/2 the same rotation reads roll = yaw = pi, pitch = pi - p
	near "$(jq '.items["a/pose"].pitch' "$TMP/o")" "$(awk 'BEGIN { printf "%.17g", 3.141592653589793 - 1.57079633 }')" 1e-15
	near "$(jq '.items["b/pose"].pitch' "$TMP/o")" 1.5707963 1e-15
	near "$(jq '.items["b/pose"].roll' "$TMP/o")" 0 1e-15
}
