#!/usr/bin/env bats
# phys-sdf print --format mjcf: worlds and robots written as MuJoCo models,
# loaded by Debian's libmujoco 2.2.2 (tests/data/mujoco_print_oracle.c)
# and compared with libsdformat's reading of the source
# (tests/data/sdformat_oracle.cc, through tests/data/mjcf_compare.py) or
# with closed forms: bodies, masses, inertia, poses and joints to 1e-6,
# and a pendulum's period when MuJoCo runs the printed file.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	cc -O1 -o "$BATS_FILE_TMPDIR/mujoco" \
	    "$BATS_TEST_DIRNAME/data/mujoco_print_oracle.c" -lmujoco -lm
	build_sdformat_oracle
}

# print_oracle FILE [run T JOINT]: MuJoCo's reading of a printed file.
print_oracle() {
	"$BATS_FILE_TMPDIR/mujoco" "$@"
}

# moves_as_mujoco SRC MODEL KEY JOINT[:REF_DEGREES]...: from key KEY,
# each joint's position over 1 s under phys's MuJoCo engine (plus its
# ref: phys measures from it) and in MuJoCo's run of SRC printed back as
# MJCF are libmujoco's run of SRC, to 1e-9.
moves_as_mujoco() {
	moves_as_mujoco_reads "$1" "$@"
}

# moves_as_mujoco_reads SAME SRC MODEL KEY JOINT[:REF_DEGREES]...: the
# same, against libmujoco's run of SAME, which says what SRC says in
# MuJoCo 2.2.2's MJCF.
moves_as_mujoco_reads() {
	local same=$1 src=$2 model=$3 key=$4 j ref
	shift 4
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	for j in "$@"; do
		ref=$(awk -v d="${j#*:}" -v j="$j" 'BEGIN { printf "%.17g", j ~ /:/ ? d * atan2(0, -1) / 180 : 0 }')
		j=${j%%:*}
		print_oracle "$same" run 1 "$j" "$key" | awk 'NR % 50 == 0 { print $2 }' > "$TMP/want"
		[ "$(wc -l < "$TMP/want")" -eq 20 ]
		phys-step -q -p mujoco -t 1 -e 50 --keyframe "$key" -i "$model::$j/position" "$src" |
		    jq -r --argjson ref "$ref" 'select(.t > 0) | .items[] | .[0] + $ref' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
		print_oracle "$TMP/out.xml" run 1 "$j" "$key" | awk 'NR % 50 == 0 { print $2 }' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
}

# printed_agrees SOURCE: SOURCE printed as MJCF, MuJoCo's compilation of it
# compared with libsdformat's reading of SOURCE.
printed_agrees() {
	phys-sdf print --format mjcf "$1" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	"$BATS_FILE_TMPDIR/oracle" "$1" > "$TMP/sdformat"
	python3 "$BATS_TEST_DIRNAME/data/mjcf_compare.py" "$TMP/sdformat" \
	    "$TMP/mujoco"
}

# printed KIND NAME JQ: one value of MuJoCo's line for the named object.
printed() {
	jq -r --arg k "$1" --arg n "$2" "select(.[\$k] == \$n and
	    (\$k != \"body\" or has(\"mass\"))) | $3" "$TMP/mujoco"
}

# A world of every joint type MJCF holds, a free body, a nested model.
printed_joints_world() {
	cat > "$TMP/joints.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="joints">
<gravity>0 0 -9.81</gravity>
<physics name="fine" type="ode"><max_step_size>0.0005</max_step_size></physics>
<model name="free">
  <pose>1 2 3 0.3 -0.2 0.5</pose>
  <link name="body">
    <pose>0.1 0 0 0 0 0.4</pose>
    <inertial>
      <pose>0.01 0.02 -0.03 0.2 0.1 -0.3</pose>
      <mass>2.5</mass>
      <inertia><ixx>0.03</ixx><iyy>0.04</iyy><izz>0.05</izz><ixy>0.002</ixy><ixz>-0.001</ixz><iyz>0.003</iyz></inertia>
    </inertial>
    <collision name="c"><geometry><box><size>0.2 0.3 0.4</size></box></geometry>
      <surface><friction><ode><mu>0.6</mu></ode></friction>
      <contact><mujoco><solref><timeconst>0.01</timeconst></solref></mujoco></contact></surface>
    </collision>
  </link>
</model>
<model name="mech">
  <pose>0 0 1 0 0 0.2</pose>
  <link name="base"><inertial><mass>3</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
  <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint>
  <link name="arm">
    <pose>0.2 0 0 0.1 0 0</pose>
    <inertial><pose>0.1 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
  </link>
  <joint name="hinge" type="revolute"><parent>base</parent><child>arm</child>
    <pose>-0.05 0 0 0 0 0</pose>
    <axis><xyz>0 1 0</xyz><limit><lower>-1.2</lower><upper>0.7</upper></limit>
    <dynamics><damping>0.3</damping><friction>0.05</friction><spring_stiffness>2</spring_stiffness><spring_reference>0.1</spring_reference></dynamics></axis>
    <physics><mujoco><armature>0.05</armature></mujoco></physics>
  </joint>
  <link name="slider">
    <pose>0.5 0 0 0 0.3 0</pose>
    <inertial><mass>0.5</mass><inertia><ixx>0.002</ixx><iyy>0.002</iyy><izz>0.002</izz></inertia></inertial>
  </link>
  <joint name="slide" type="prismatic"><parent>arm</parent><child>slider</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-0.1</lower><upper>0.2</upper></limit><dynamics><damping>1.5</damping></dynamics></axis>
  </joint>
  <link name="sph">
    <pose>0.5 0.3 0 0 0 0</pose>
    <inertial><mass>0.7</mass><inertia><ixx>0.003</ixx><iyy>0.004</iyy><izz>0.005</izz></inertia></inertial>
  </link>
  <joint name="ball" type="ball"><parent>slider</parent><child>sph</child></joint>
  <link name="wheel">
    <pose>0 0.4 0 1.5707963267948966 0 0</pose>
    <inertial><mass>0.4</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.002</izz></inertia></inertial>
  </link>
  <joint name="spin" type="revolute"><parent>base</parent><child>wheel</child><axis><xyz>0 0 1</xyz></axis></joint>
  <link name="cross">
    <pose>0 -0.4 0 0 0 0</pose>
    <inertial><mass>0.6</mass><inertia><ixx>0.002</ixx><iyy>0.003</iyy><izz>0.004</izz></inertia></inertial>
  </link>
  <joint name="uni" type="universal"><parent>base</parent><child>cross</child>
    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  <model name="inner">
    <pose>0 0 0.5 0 0 0</pose>
    <link name="top">
      <pose>0.1 0 0 0 0 0</pose>
      <inertial><mass>0.2</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
    </link>
  </model>
  <joint name="lift" type="prismatic"><parent>base</parent><child>inner::top</child><axis><xyz>0 0 1</xyz></axis></joint>
</model>
</world>
</sdf>
SDF
}

@test "a URDF arm: MuJoCo's bodies, masses, inertia and joints are libsdformat's" {
	need_oracle
	run printed_agrees "$WORLDS/robots/arm.urdf"
	assert_success
	# the base is welded: no joint on it; the arm's two hinges limited
	[ "$(printed body base .parent)" = world ]
	[ "$(jq -s '[.[] | select(.joint)] | length' "$TMP/mujoco")" = 2 ]
	[ "$(printed joint shoulder '.range | join(" ")')" = "-2 2" ]
}

@test "a URDF robot keeps its floating base: a free joint on its root" {
	need_oracle
	run printed_agrees "$WORLDS/robots/pendulum.urdf"
	assert_success
	run printed_agrees "$WORLDS/robots/quadruped.urdf"
	assert_success
	[ "$(jq -s '[.[] | select(.type == "free")] | length' "$TMP/mujoco")" = 1 ]
}

@test "every joint type MJCF holds, a free body, a rotated full inertia: libsdformat's numbers" {
	need_oracle
	printed_joints_world
	run printed_agrees "$TMP/joints.sdf"
	assert_success
	[ "$(printed joint mech::ball .type)" = ball ]
	[ "$(printed joint mech::slide .type)" = slide ]
	[ "$(printed joint mech::spin '.range // "none"')" = none ]
	# the spring and its rest position
	[ "$(printed joint mech::hinge '[.stiffness, .springref] | join(" ")')" = "2 0.1" ]
	# a rotor's inertia, which the engine adds to the joint's
	[ "$(printed joint mech::hinge .armature)" = 0.05 ]
	[ "$(printed joint mech::slide .armature)" = 0 ]
	# a universal joint: the second axis's hinge first, fixed in the base
	run jq -r 'select(.body == "mech::cross" and .joint) | .joint' "$TMP/mujoco"
	assert_output "mech::uni_axis2
mech::uni"
	near "$(printed joint mech::uni_axis2 '.axis[0]')" "$(awk 'BEGIN { printf "%.17g", -sin(0.2) }')" 1e-9
	near "$(printed joint mech::uni_axis2 '.axis[1]')" "$(awk 'BEGIN { printf "%.17g", cos(0.2) }')" 1e-9
	# the free body
	[ "$(printed body free::body .parent)" = world ]
	[ "$(jq -r 'select(.body == "free::body" and .joint) | .type' "$TMP/mujoco")" = free ]
}

@test "a nested model's link: its body where the model poses put it" {
	printed_joints_world
	phys-sdf print --format mjcf "$TMP/joints.sdf" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	# mech at z 1 turned 0.2 about z, inner 0.5 up, top 0.1 along x
	near "$(printed body mech::inner::top '.pos[0]')" "$(awk 'BEGIN { printf "%.17g", 0.1 * cos(0.2) }')" 1e-9
	near "$(printed body mech::inner::top '.pos[1]')" "$(awk 'BEGIN { printf "%.17g", 0.1 * sin(0.2) }')" 1e-9
	near "$(printed body mech::inner::top '.pos[2]')" 1.5 1e-9
	[ "$(printed body mech::inner::top .parent)" = mech::base ]
	[ "$(printed joint mech::lift .type)" = slide ]
}

@test "the profile as <option>, surfaces as geom friction and solref" {
	printed_joints_world
	phys-sdf print --format mjcf "$TMP/joints.sdf" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	[ "$(jq -r 'select(.option) | .timestep' "$TMP/mujoco")" = 0.0005 ]
	near "$(jq -r 'select(.option) | .gravity[2]' "$TMP/mujoco")" -9.81 1e-12
	[ "$(printed geom c '.friction[0]')" = 0.6 ]
	[ "$(printed geom c '.solref | join(" ")')" = "0.01 1" ]
	# the box's half sizes
	[ "$(printed geom c '.size | join(" ")')" = "0.1 0.15 0.2" ]
}

@test "an MJCF model printed back runs by its MuJoCo profile: libmujoco reads the printed <option> as the source's and slides the box of a priority pad as it slides the source's, as phys's MuJoCo engine does" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/priority.xml"
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	print_oracle "$src" | jq -c 'select(.option) | [.timestep, .cone, .impratio]' > "$TMP/want"
	print_oracle "$TMP/out.xml" | jq -c 'select(.option) | [.timestep, .cone, .impratio]' > "$TMP/got"
	[ "$(cat "$TMP/want")" = "[0.002,1,10]" ]
	cmp "$TMP/want" "$TMP/got"
	# 1 s down the slope, a geom of the world body as in the source (a
	# body welded to the world weighs in MuJoCo's contact a little: the
	# box slid 0.35 mm further)
	print_oracle "$src" run 1 box | tail -1 > "$TMP/source"
	near "$(print_oracle "$TMP/out.xml" run 1 box | tail -1 | cut -d' ' -f2)" \
	    "$(cut -d' ' -f2 "$TMP/source")" 1e-9
	# phys's MuJoCo engine runs the source as libmujoco does, the pad's
	# solref and solimp setting how deep it rides
	phys-step -q -p mujoco -t 1 -e 500 -i 'priority::box/pose' "$src" | tail -1 |
	    jq -r '.items["priority::box/pose"] | [.x, .z] | @tsv' > "$TMP/phys"
	near "$(cut -f1 "$TMP/phys")" "$(cut -d' ' -f2 "$TMP/source")" 1e-9
	near "$(cut -f2 "$TMP/phys")" "$(cut -d' ' -f4 "$TMP/source")" 1e-9
}

@test "a pair's margin wider than its geoms': MuJoCo's engine finds the pair's contacts within it and the geoms' others within their own, as libmujoco does, and the printed model runs alike" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/pairmargin.xml" want
	# the paired ball rests the pair's 5 cm above the floor, less what
	# its contact sinks
	want=$(print_oracle "$src" run 2 ball | tail -1 | cut -d' ' -f4)
	near "$want" 0.1496 1e-4
	near "$(phys-step -q -p mujoco -t 2 -e 1000 -i 'pairmargin::ball/pose' "$src" | tail -1 |
	    jq '.items["pairmargin::ball/pose"].z')" "$want" 1e-9
	# the other ball falls onto the floor untouched until it reaches it
	# (it would slow 5 cm above, were the floor's widened margin its)
	print_oracle "$src" run 0.3 other | awk 'NR % 10 == 0 { print $4 }' > "$TMP/want"
	phys-step -q -p mujoco -t 0.3 -e 10 -i 'pairmargin::other/pose' "$src" |
	    jq -r 'select(.t > 0) | .items["pairmargin::other/pose"].z' > "$TMP/got"
	[ "$(wc -l < "$TMP/got")" = 15 ]
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	near "$(print_oracle "$TMP/out.xml" run 2 ball | tail -1 | cut -d' ' -f4)" "$want" 1e-9
}
@test "a joint's soft limit (solreflimit, solimplimit, margin, from classes) and a geom's margin and gap: phys's MuJoCo engine and the printed model run as libmujoco runs the source" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/softlimit.xml"
	# the arm falls onto its limit of 20 degrees, which gives way: it
	# sinks 0.0143 rad past it and swings back
	print_oracle "$src" run 2 shoulder | awk 'NR % 100 == 0 { print $2 }' > "$TMP/want"
	phys-step -q -p mujoco -t 2 -e 100 -i 'softlimit::shoulder/position' "$src" |
	    jq -r 'select(.t > 0) | .items["softlimit::shoulder/position"][0]' > "$TMP/got"
	[ "$(wc -l < "$TMP/got")" = 10 ]
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# 0.0143 rad past, where MuJoCo's default softness holds it within
	# 0.004: the limit's own numbers are the ones run
	near "$(tail -1 "$TMP/got")" 0.33476 1e-4
	# the ball rests its margin less its gap (0.008) above the floor,
	# less what its contact sinks
	want=$(print_oracle "$src" run 2 ball | tail -1 | cut -d' ' -f4)
	near "$want" 0.10763 1e-4
	near "$(phys-step -q -p mujoco -t 2 -e 1000 -i 'softlimit::ball/pose' "$src" | tail -1 |
	    jq '.items["softlimit::ball/pose"].z')" "$want" 1e-9
	# printed back, libmujoco runs the same model
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	near "$(print_oracle "$TMP/out.xml" run 2 shoulder | tail -1 | cut -d' ' -f2)" "$(tail -1 "$TMP/got")" 1e-9
	near "$(print_oracle "$TMP/out.xml" run 2 ball | tail -1 | cut -d' ' -f4)" "$want" 1e-9
	# MuJoCo holds an impedance within 0.0001 and 0.9999: dm_control's
	# dmin of 0 is read as MuJoCo runs it, without a word
	run -0 --separate-stderr phys-param get softlimit::shoulder/physics.mujoco.limit.solimp.dmin softlimit::shoulder/physics.mujoco.limit.solref.timeconst "$src"
	[ "$(jq -s -c 'map(.value)' <<< "$output")" = "[0.0001,0.05]" ]
	[ -z "$stderr" ]
}

@test "a body of several joints (planar.xml's torso of three, its thigh of two): phys's MuJoCo engine weighs the links between them nothing and runs the model as libmujoco runs the source; printed back, each is one body of its joints again" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/planar.xml"
	print_oracle "$src" run 1 torso | awk 'NR % 100 == 0 { print $2, $4 }' > "$TMP/want"
	phys-step -q -p mujoco -t 1 -e 100 -i 'planar::torso/pose' "$src" |
	    jq -r 'select(.t > 0) | .items["planar::torso/pose"] | "\(.x) \(.z)"' > "$TMP/got"
	[ "$(wc -l < "$TMP/got")" = 5 ]
	# the torso falls and the leg folds: 0.88 m down in 1 s
	near "$(tail -1 "$TMP/got" | cut -d' ' -f2)" 0.122 1e-3
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	[ "$(jq -r 'select(.joint) | .body' "$TMP/mujoco" | sort | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = "2thigh 3torso " ]
	print_oracle "$TMP/out.xml" run 1 torso | awk 'NR % 100 == 0 { print $2, $4 }' > "$TMP/printed"
	lines_agree "$TMP/want" "$TMP/printed" 1e-9
}

@test "a limited joint of a loop that starts outside its limits (loopout.xml's crank, 1.9 rad out, as Cassie's feet) is pulled back under ODE, DART and Bullet as softly as MuJoCo's limit pulls it: it swings down to its far limit, as in libmujoco" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/loopout.xml"
	# ODE's stop ERP for MuJoCo's default limit (solreflimit 0.02 1,
	# dmax 0.95) at the model's step of 0.5 ms: h k / (h k + b)
	want=$(awk 'BEGIN { h = 0.0005; k = 1 / (0.95 * 0.95 * 0.02 * 0.02); b = 2 / (0.95 * 0.02); printf "%.17g", h * k / (h * k + b) }')
	near "$(phys-param get loopout::crank_joint/physics.ode.limit.erp "$src" | jq .value)" "$want" 1e-12
	mj=$(print_oracle "$src" run 1 crank | tail -1 | cut -d' ' -f2)
	near "$mj" -2.4444 1e-3
	crank() {
		phys-step -q -t 1 -e 2000 -i 'loopout::crank_joint/position' "$@" "$src" |
		    tail -1 | jq '.items["loopout::crank_joint/position"][0]'
	}
	near "$(crank)" "$mj" 0.01
	# at ODE's own stop ERP, 0.2, the stop throws it to its near limit
	near "$(crank -s 'loopout::*/physics.ode.limit.erp=0.2')" -0.5236 1e-3
	# DART pushes a joint that starts past a limit by the same ERP: after
	# one step of 0.5 ms the crank turns back at erp r / h, r the 30
	# degrees to its near limit
	phys-sdf world "$src" > "$TMP/w.sdf"
	local w e
	w=$(profile_world "$TMP/w.sdf" dart)
	for e in "$want" 0.2; do
		near "$(phys-step -q -p dart -s max_step_size=0.0005 -s "loopout::crank_joint/physics.ode.limit.erp=$e" -n 1 -e 1 -i 'loopout::crank_joint/velocity' "$w" |
		    tail -1 | jq '.items["loopout::crank_joint/velocity"][0]')" \
		    "$(awk -v e="$e" 'BEGIN { printf "%.17g", -e * (30 * atan2(0, -1) / 180) / 0.0005 }')" 1e-4
	done
	# Bullet's limit rows take the same stop ERP: 25 ms in, the crank is
	# within 0.3 rad of libmujoco's (0.165 rad out), where the ERP of 0.2
	# has flung it to its far limit (2.44 rad); after 1 s it rests there
	w=$(profile_world "$TMP/w.sdf" bullet)
	bullet_crank() {
		phys-step -q -p bullet -s max_step_size=0.0005 "$@" -i 'loopout::crank_joint/position' "$w" |
		    tail -1 | jq '.items["loopout::crank_joint/position"][0]'
	}
	mj=$(print_oracle "$src" run 0.025 crank | tail -1 | cut -d' ' -f2)
	near "$(bullet_crank -t 0.025)" "$mj" 0.3
	run near "$(bullet_crank -t 0.025 -s 'loopout::*/physics.ode.limit.erp=0.2')" "$mj" 0.3
	assert_failure
	near "$(bullet_crank -t 1)" -2.4444 0.01
}

@test "a pendulum printed as MJCF swings, under MuJoCo, with the closed-form period" {
	phys-sdf print --format mjcf "$WORLDS/pendulum.sdf" > "$TMP/p.xml"
	print_oracle "$TMP/p.xml" run 2 pivot > "$TMP/run"
	# released 0.05 rad from the bottom: it swings about -0.05 from qpos0
	T=$(period -0.05 < "$TMP/run")
	# 2 pi sqrt(I / (m g d)), I = 0.01 + 1 * 0.5^2, and the amplitude's
	# first correction, 1 + theta0^2 / 16
	want=$(awk 'BEGIN { printf "%.12g", 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) * (1 + 0.05^2 / 16) }')
	rel "$T" "$want" 1e-5
}

@test "a mesh link: the triangles as loaded, scale applied, where the collision puts them" {
	# a 0.2 m cube with a corner at the origin, scaled 2 along x
	{
		echo "solid cube"
		awk 'BEGIN {
		    v[0] = "0 0 0"; v[1] = "0.2 0 0"; v[2] = "0.2 0.2 0"; v[3] = "0 0.2 0"
		    v[4] = "0 0 0.2"; v[5] = "0.2 0 0.2"; v[6] = "0.2 0.2 0.2"; v[7] = "0 0.2 0.2"
		    split("0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 1 2 6 1 6 5 2 3 7 2 7 6 3 0 4 3 4 7", f)
		    for (i = 1; i <= 36; i += 3) {
			print "facet normal 0 0 0"; print "outer loop"
			for (k = 0; k < 3; k++) print "vertex " v[f[i + k]]
			print "endloop"; print "endfacet"
		    } }'
		echo "endsolid cube"
	} > "$TMP/cube.stl"
	cat > "$TMP/mesh.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><model name="m"><pose>0 0 1 0 0 0</pose>
<link name="block"><inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial>
<collision name="shell"><pose>0.5 0 0 0 0 0</pose><geometry><mesh><uri>$TMP/cube.stl</uri><scale>2 1 1</scale></mesh></geometry></collision>
</link></model></world></sdf>
SDF
	phys-sdf print --format mjcf "$TMP/mesh.sdf" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	[ "$(printed geom shell .type)" = mesh ]
	# MuJoCo holds a mesh about its centre: the cube's, 0.5 + 0.2 along x
	# (an STL holds single-precision numbers)
	near "$(printed geom shell '.pos[0]')" 0.7 1e-7
	near "$(printed geom shell '.pos[1]')" 0.1 1e-7
	near "$(printed geom shell '.pos[2]')" 0.1 1e-7
	# the link's own inertia, not the mesh's
	[ "$(printed body block .mass)" = 2 ]
	[ "$(printed body block '.inertia | [.[0], .[4], .[8]] | join(" ")')" = "0.1 0.2 0.3" ]
}

@test "a mesh MuJoCo reads is its file, referenced from the --output file's directory; one it cannot read its triangles; MuJoCo makes the same of both" {
	# one wedge as a binary STL (MuJoCo 2.2.2 reads it) and as an ASCII
	# one (it does not), in a model each
	mkdir -p "$TMP/meshes" "$TMP/out"
	python3 - "$TMP" <<'PY'
import struct, sys
v = [(0, 0, 0), (0.4, 0, 0), (0, 0.2, 0), (0, 0, 0.1), (0.4, 0, 0.1), (0, 0.2, 0.1)]
f = [(0, 2, 1), (3, 4, 5), (0, 1, 4), (0, 4, 3), (1, 2, 5), (1, 5, 4), (2, 0, 3), (2, 3, 5)]
with open(sys.argv[1] + "/meshes/bin.stl", "wb") as o:
    o.write(b"\0" * 80 + struct.pack("<I", len(f)))
    for t in f:
        o.write(struct.pack("<12fH", 0, 0, 0, *[x for i in t for x in v[i]], 0))
with open(sys.argv[1] + "/meshes/asc.stl", "w") as o:
    o.write("solid w\n")
    for t in f:
        o.write("facet normal 0 0 0\nouter loop\n")
        o.write("".join("vertex %g %g %g\n" % v[i] for i in t))
        o.write("endloop\nendfacet\n")
    o.write("endsolid w\n")
PY
	cat > "$TMP/wedges.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w">
<model name="bin"><link name="l"><collision name="c"><pose>0.1 0 0 0 0 0.5</pose><geometry><mesh><uri>meshes/bin.stl</uri><scale>1 2 0.5</scale></mesh></geometry></collision></link></model>
<model name="asc"><link name="l"><collision name="c"><pose>0.1 0 0 0 0 0.5</pose><geometry><mesh><uri>meshes/asc.stl</uri><scale>1 2 0.5</scale></mesh></geometry></collision></link></model>
</world></sdf>
SDF
	phys-sdf print --format mjcf -o "$TMP/out/w.xml" "$TMP/wedges.sdf"
	grep -q '<mesh name="m0" file="../meshes/bin.stl" scale="1 2 0.5"/>' "$TMP/out/w.xml"
	grep -q '<mesh name="m1" vertex="' "$TMP/out/w.xml"
	# beside the meshes' directory, with no ../ (the directory's name was
	# read past its end)
	phys-sdf print --format mjcf -o "$TMP/w.xml" "$TMP/wedges.sdf"
	grep -q '<mesh name="m0" file="meshes/bin.stl" scale="1 2 0.5"/>' "$TMP/w.xml"
	# on standard output, by its absolute path
	phys-sdf print --format mjcf "$TMP/wedges.sdf" | grep -q "<mesh name=\"m0\" file=\"$(realpath "$TMP/meshes/bin.stl")\""
	print_oracle "$TMP/out/w.xml" > "$TMP/mujoco"
	for f in '.mass' '.com[]' '.inertia[]'; do
		paste <(printed body bin::l "$f") <(printed body asc::l "$f") |
		    while read -r a b; do near "$a" "$b" 1e-9; done
	done
	for f in '.pos[]' '.size[]'; do
		paste <(printed geom bin::l::c "$f") <(printed geom asc::l::c "$f") |
		    while read -r a b; do near "$a" "$b" 1e-6; done
	done
	# the mesh's centre, where MuJoCo holds it, is the collision's
	near "$(printed geom bin::l::c '.pos[2]')" 0.025 1e-7
}

@test "visuals are geoms that touch nothing and weigh nothing, in group 1 with their colour, named as collisions are; a plane only on a static body; a mesh MuJoCo cannot read left out, said once" {
	printf 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' > "$TMP/tet.obj"
	: > "$TMP/shell.dae"
	cat > "$TMP/vis.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
<model name="ground"><static>true</static><link name="l">
<collision name="c"><geometry><plane><normal>0 0 1</normal><size>4 4</size></plane></geometry></collision>
<visual name="floor"><geometry><plane><normal>0 0 1</normal><size>4 4</size></plane></geometry></visual></link></model>
<model name="r"><pose>0 0 0.5 0 0 0</pose><link name="base"><inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.4 0.2 0.1</size></box></geometry></collision>
<visual name="body"><pose>0 0 0.1 0 0 0</pose><geometry><box><size>0.4 0.2 0.1</size></box></geometry><material><diffuse>1 0 0 1</diffuse></material></visual>
<visual name="wheel"><geometry><cylinder><radius>0.05</radius><length>0.02</length></cylinder></geometry></visual>
<visual name="tet"><geometry><mesh><uri>tet.obj</uri><scale>2 2 2</scale></mesh></geometry></visual>
<visual name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></visual>
<visual name="shell"><geometry><mesh><uri>shell.dae</uri></mesh></geometry></visual>
<visual name="sheet"><geometry><plane><normal>0 0 1</normal></plane></geometry></visual>
</link></model></world></sdf>
SDF
	run -0 --separate-stderr phys-sdf print --format mjcf -o "$TMP/vis.xml" "$TMP/vis.sdf"
	assert_equal "$stderr" "phys-sdf: $TMP/vis.sdf:12: visual 'r::base::shell': not written as MJCF: a mesh of a file MuJoCo 2.2.2 does not read (Collada, ASCII STL, glTF, or none found), or a shape MJCF has no geom for (a heightmap, a polyline, a plane of a moving body); a visual does not change the motion (and 1 more visual)"
	grep -q '<mesh name="v[0-9]*" file="tet.obj" scale="2 2 2"/>' "$TMP/vis.xml"
	print_oracle "$TMP/vis.xml" > "$TMP/mujoco"
	# five visuals that no contact reaches, the collisions as before
	[ "$(jq -s '[.[] | select(.geom and .contype == 0 and .conaffinity == 0 and .group == 1)] | length' "$TMP/mujoco")" = 5 ]
	[ "$(printed geom r::base::c '[.type, .contype, .conaffinity, .group] | @tsv')" = "$(printf 'box\t1\t1\t0')" ]
	[ "$(printed geom body '[.type, .size[], .pos[], .rgba[]] | @tsv')" = "$(printf 'box\t0.2\t0.1\t0.05\t0\t0\t0.1\t1\t0\t0\t1')" ]
	[ "$(printed geom wheel '[.type, .size[0], .size[1]] | @tsv')" = "$(printf 'cylinder\t0.05\t0.01')" ]
	[ "$(printed geom tet .type)" = mesh ]
	[ "$(printed geom r::base::c::visual '[.type, .size[0]] | @tsv')" = "$(printf 'sphere\t0.1')" ]
	[ "$(printed geom floor '[.type, .body] | @tsv')" = "$(printf 'plane\tworld')" ]
	# the body weighs its <inertial> alone
	[ "$(printed body r::base '[.mass, .com[], .inertia[]] | @tsv')" = "$(printf '2\t0\t0\t0\t0.1\t0\t0\t0\t0.2\t0\t0\t0\t0.3')" ]
	# dropped 0.4 m onto the ground, it rests on its collision box, not
	# on the visual box above it: its frame 0.05 m up
	print_oracle "$TMP/vis.xml" run 2 r::base | tail -1 > "$TMP/rest"
	near "$(awk '{ print $4 }' "$TMP/rest")" 0.05 2e-3
}

@test "a joint range of no width (SDF's way to hold a joint) is 1e-9 wide, which MuJoCo compiles, and holds an arm level under gravity" {
	cat > "$TMP/held.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><model name="m"><link name="base"/>
<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
<link name="arm"><inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="hold" type="revolute"><parent>base</parent><child>arm</child><axis><xyz>0 1 0</xyz><limit><lower>0</lower><upper>0</upper></limit></axis></joint>
</model></sdf>
SDF
	phys-sdf print --format mjcf "$TMP/held.sdf" > "$TMP/held.xml"
	grep -q '<joint name="hold" type="hinge" axis="0 1 0" range="0 1e-09" limited="true"' "$TMP/held.xml"
	# without the limit the arm would swing 90 degrees down in 1 s
	print_oracle "$TMP/held.xml" run 1 hold | tail -1 > "$TMP/pos"
	near "$(awk '{ print $2 }' "$TMP/pos")" 0 2e-3
}

@test "a massless moving link is written with the mass phys runs it with, and a shape of a size 0 is left out, each said once: MuJoCo, which refuses both, loads the file" {
	cat > "$TMP/gripper.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><model name="g">
<link name="base"><inertial><mass>0.2</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
<collision name="root"><geometry><box><size>0 0 0</size></box></geometry></collision>
<collision name="body"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link>
<link name="knuckle"><pose>0.1 0 0 0 0 0</pose><inertial><mass>0</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.01</radius></sphere></geometry></collision></link>
<joint name="j" type="revolute"><parent>base</parent><child>knuckle</child><axis><xyz>0 0 1</xyz></axis></joint>
<link name="tip"><pose>0.2 0 0 0 0 0</pose><inertial><mass>0</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0</radius></sphere></geometry></collision></link>
<joint name="k" type="revolute"><parent>knuckle</parent><child>tip</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>
SDF
	run -0 --separate-stderr phys-sdf print --format mjcf -o "$TMP/g.xml" "$TMP/gripper.sdf"
	[[ "$stderr" == *"gripper.sdf:4: collision 'g::base::root': a shape with a size of 0, not written as MJCF (MuJoCo refuses sizes that are not positive) (and 1 more collision)"* ]]
	[[ "$stderr" == *"gripper.sdf:6: link 'g::knuckle': mass 0, which MuJoCo refuses on a moving body: written with the mass phys runs it with, 0.0002 kg (1/1000 of its model's lightest link's) (and 1 more link)"* ]]
	print_oracle "$TMP/g.xml" > "$TMP/mujoco"
	# 1/1000 of the base's 0.2 kg, each moment that mass times (1 mm)^2
	[ "$(printed body knuckle .mass)" = 0.0002 ]
	for k in 0 4 8; do
		rel "$(printed body knuckle ".inertia[$k]")" 2e-10 1e-12
	done
	[ "$(printed body tip .mass)" = 0.0002 ]
	[ "$(jq -s '[.[] | select(.geom)] | length' "$TMP/mujoco")" = 2 ]
	# a robot of no mass at all is written with its shapes' at 1000
	# kg/m^3, as phys runs it: a box of 0.4 x 0.04 x 0.04 m, 0.64 kg,
	# its centre 0.2 m out
	cat > "$TMP/arm.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="arm">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="100"/></joint>
  <link name="upper"><collision><origin xyz="0.2 0 0"/><geometry><box size="0.4 0.04 0.04"/></geometry></collision></link>
</robot>
URDF
	run -0 --separate-stderr phys-sdf print --format mjcf -o "$TMP/arm.xml" "$TMP/arm.urdf"
	[[ "$stderr" == *"model 'arm': none of its links has a mass: its 2 moving links run with the mass and inertia of their collision shapes at 1000 kg/m^3 (4.64 kg in all)"* ]]
	print_oracle "$TMP/arm.xml" > "$TMP/mujoco"
	rel "$(printed body upper .mass)" 0.64 1e-12
	rel "$(printed body base .mass)" 4 1e-12
	near "$(printed body upper '.com[0]')" 0.2 1e-12
	# about y through its centre, m (0.4^2 + 0.04^2) / 12
	rel "$(jq -s '[.[] | select(.body == "upper")][0].inertia | max' "$TMP/mujoco")" "$(awk 'BEGIN { printf "%.12g", 0.64 * (0.16 + 0.0016) / 12 }')" 1e-9
}

@test "an MJCF model's geom groups come back as they were (visuals in 2, collisions in 3, as Menagerie's classes put them; a visual of group 0 too), through SDF as well" {
	cat > "$TMP/grp.xml" <<'XML'
<mujoco model="grp">
  <default><default class="visual"><geom contype="0" conaffinity="0" group="2"/></default>
  <default class="collision"><geom group="3"/></default></default>
  <worldbody><geom type="plane" size="2 2 0.1"/>
    <body name="b" pos="0 0 1"><freejoint/>
      <geom class="visual" type="sphere" size="0.1"/>
      <geom name="col" class="collision" type="sphere" size="0.1"/>
      <geom name="v0" type="box" size="0.05 0.05 0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
XML
	phys-sdf print --format mjcf "$TMP/grp.xml" > "$TMP/out.xml"
	phys-sdf print "$TMP/grp.xml" > "$TMP/grp.sdf"
	phys-sdf print --format mjcf "$TMP/grp.sdf" > "$TMP/out2.xml"
	for f in grp.xml out.xml out2.xml; do
		print_oracle "$TMP/$f" | jq -r 'select(.geom) | [.type, .group, .contype, .conaffinity] | @tsv' | sort > "$TMP/$f.g"
	done
	[ "$(wc -l < "$TMP/grp.xml.g")" = 4 ]
	cmp "$TMP/grp.xml.g" "$TMP/out.xml.g"
	cmp "$TMP/grp.xml.g" "$TMP/out2.xml.g"
}

@test "a joint closing a loop: a ghost body on the joint, welded to the child as stiffly as the joint holds: MuJoCo keeps the printed four-bar closed" {
	phys-sdf print --format mjcf "$WORLDS/fourbar.sdf" > "$TMP/out.xml" 2> /dev/null
	print_oracle "$TMP/out.xml" > "$TMP/mujoco"
	grep -q '<weld body1="loop::loop" body2="rocker" solref="0.002 1" solimp="0.9999 0.9999 0.001 0.5 2"/>' "$TMP/out.xml"
	# 2 s of swing in MuJoCo: the loop-closure equation (closure in
	# helper.bash) holds to 1 mm while the crank turns through more than
	# a radian (a weld of MuJoCo's default softness let it open 12 cm)
	print_oracle "$TMP/out.xml" run 2 crank_pivot > "$TMP/crank"
	print_oracle "$TMP/out.xml" run 2 rocker_pivot > "$TMP/rocker"
	paste "$TMP/crank" "$TMP/rocker" |
	    jq -R 'split("\t") | map(split(" ") | .[1] | tonumber) |
		{ items: { "fourbar::crank_pivot/position": [.[0]], "fourbar::rocker_pivot/position": [.[1]] } }' > "$TMP/swing"
	closure "$TMP/swing" > "$TMP/c"
	awk '{ exit !($1 < 1e-3 && $2 > 1) }' "$TMP/c" || fail "the printed loop opens $(cat "$TMP/c")"
	# the ghost stands where the rocker is
	for k in 0 1 2; do
		near "$(printed body loop::loop ".pos[$k]")" "$(printed body rocker ".pos[$k]")" 1e-12
	done
	[ "$(printed joint loop .body)" = loop::loop ]
}

@test "a ball joint's range, damping, stiffness, frictionloss and armature: phys's MuJoCo engine moves it as libmujoco does, and MuJoCo runs it printed back alike, to 1e-9" {
	# an arm on a shoulder ball swung from a key into its range, a
	# forearm on an elbow ball
	cat > "$TMP/balls.xml" <<'XML'
<mujoco model="bj">
  <compiler angle="radian"/>
  <option timestep="0.001"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="sh" type="ball" damping="0.3" stiffness="2" frictionloss="0.05" armature="0.01" range="0 0.3" limited="true"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="el" type="ball" damping="0.1" stiffness="0.5" range="0 0.5" limited="true"/>
        <geom type="capsule" fromto="0 0 0 0.3 0.1 0" size="0.025" mass="0.5"/>
      </body>
    </body>
  </worldbody>
  <keyframe><key name="k" qpos="1 0 0 0 0.9 0.3 0.3 0" qvel="0 2 1 1 0 3"/></keyframe>
</mujoco>
XML
	phys-sdf print --format mjcf "$TMP/balls.xml" > "$TMP/out.xml" 2>/dev/null
	print_oracle "$TMP/balls.xml" run 1 fore k | awk 'NR % 50 == 0 { print $2, $3, $4 }' > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -eq 20 ]
	phys-step -q -p mujoco -t 1 -e 50 --keyframe k -i 'bj::fore/pose' "$TMP/balls.xml" |
	    jq -r 'select(.t > 0) | .items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	print_oracle "$TMP/out.xml" run 1 fore k | awk 'NR % 50 == 0 { print $2, $3, $4 }' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# without its range the shoulder lets the forearm fall 0.19 m further
	sed 's|range="0 0.3" limited="true"||' "$TMP/balls.xml" > "$TMP/free.xml"
	print_oracle "$TMP/free.xml" run 1 fore k | awk 'NR == 1000 { print $4 }' > "$TMP/unlimited"
	awk -v a="$(cat "$TMP/unlimited")" -v b="$(tail -1 "$TMP/want" | cut -d' ' -f3)" 'BEGIN { d = a - b; exit !(d > 0.1 || d < -0.1) }'
}

# screw_world [KEY]: a 1 kg nut (izz 0.01) on a vertical screw of 0.1 m a
# radian from the world, MuJoCo's profile at 1 ms; KEY among its link's
# elements.
screw_world() {
	cat <<SDF
<?xml version="1.0"?>
<sdf xmlns:phys="urn:phys:mjcf" version="1.9"><world name="w">
<physics type="mujoco"><max_step_size>0.001</max_step_size></physics><gravity>0 0 -9.8</gravity>
<model name="m"><link name="nut"><pose>0 0 5 0 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.01</izz></inertia></inertial>${1:-}</link>
<joint name="s" type="screw"><parent>world</parent><child>nut</child>
<thread_pitch>-10</thread_pitch><axis><xyz>0 0 1</xyz></axis></joint></model>
</world></sdf>
SDF
}

@test "a screw is a hinge and a slide coupled at its lead, a gearbox an equality between its gears: MuJoCo runs them as the closed forms say" {
	# the nut falls at m g lead^2 / (m lead^2 + izz) = g / 2, turning
	# 10 rad for each metre: libmujoco's run of the printed file after
	# 4 s of 1 ms steps of semi-implicit Euler
	screw_world > "$TMP/s.sdf"
	phys-sdf print --format mjcf "$TMP/s.sdf" > "$TMP/s.xml"
	print_oracle "$TMP/s.xml" run 4 s > "$TMP/turn"
	print_oracle "$TMP/s.xml" run 4 s_travel > "$TMP/travel"
	print_oracle "$TMP/s.xml" run 4 nut | tail -1 > "$TMP/nut"
	near "$(cut -d' ' -f4 "$TMP/nut")" "$(awk 'BEGIN { printf "%.12f", 5 - 4.9 * 1e-6 * 4000 * 4001 / 2 }')" 1e-5
	paste -d' ' "$TMP/turn" "$TMP/travel" | awk '
	    { d = $4 - 0.1 * $2; if (d < 0) d = -d; if (d > m) m = d; n++ }
	    END { if (n != 4000 || m > 1e-6) { print n " steps, travel off by " m; exit 1 } }'
	# two gears about a fixed base, ratio 2: w2 = -2 w1, and the spring
	# of 3 N m/rad on the first swings 0.1 + 4 * 0.05 kg m^2
	sed 's|<world name="w">|<world name="w"><physics type="mujoco"><max_step_size>0.001</max_step_size></physics>|' \
	    "$BATS_TEST_DIRNAME/data/gearbox.sdf" > "$TMP/g.sdf"
	phys-sdf print --format mjcf "$TMP/g.sdf" > "$TMP/g.xml"
	print_oracle "$TMP/g.xml" run 3 h1 > "$TMP/h1"
	print_oracle "$TMP/g.xml" run 3 h2 > "$TMP/h2"
	paste -d' ' "$TMP/h1" "$TMP/h2" | awk '
	    { d = $4 + 2 * $2; if (d < 0) d = -d; if (d > m) m = d
	      e = 1 - cos(sqrt(10) * $1) - $2; if (e < 0) e = -e; if (e > x) x = e; n++ }
	    END { if (n != 3000 || m > 1e-6 || x > 0.005) { print n " steps, gear slip " m ", theta1 off by " x; exit 1 } }'
}

@test "a keyed screw's turn and travel, and their rates, are its key's qpos and qvel; a gearbox without gears is refused, at its line" {
	# turned 2 rad, so 0.2 m up, at 3 rad/s and 0.3 m/s
	screw_world '<phys:key name="k"><phys:pose>0 0 5.2 0 0 2</phys:pose><phys:linear_vel>0 0 0.3</phys:linear_vel><phys:angular_vel>0 0 3</phys:angular_vel></phys:key>' > "$TMP/s.sdf"
	phys-sdf print --format mjcf "$TMP/s.sdf" > "$TMP/s.xml"
	run -0 xmllint --xpath 'string(//key[@name="k"]/@qpos)' "$TMP/s.xml"
	read -r turn travel <<<"$output"
	near "$turn" 2 1e-12
	near "$travel" 0.2 1e-12
	run -0 xmllint --xpath 'string(//key[@name="k"]/@qvel)' "$TMP/s.xml"
	read -r turn travel <<<"$output"
	near "$turn" 3 1e-12
	near "$travel" 0.3 1e-12
	# libmujoco starts the printed model there: after one 1 ms step the
	# nut is 0.2 m up, risen 0.3 mm more less what the step's gravity
	# takes back (g/2 h^2, 5e-6 m)
	print_oracle "$TMP/s.xml" run 0.001 nut k | head -1 > "$TMP/nut"
	near "$(cut -d' ' -f4 "$TMP/nut")" 5.2003 1e-5
	# a nut keyed up the screw but not turned with it: the key is left
	# out, said at its line
	sed -i 's|0 0 5.2 0 0 2|0 0 5.2 0 0 0|' "$TMP/s.sdf"
	run -0 --separate-stderr phys-sdf print --format mjcf "$TMP/s.sdf"
	[[ "$output" != *"<key"* ]]
	[[ "$stderr" == *"s.sdf:5: keyframe 'k' is not written as MJCF: joint 'm::s' cannot take link 'm::nut' where the key has it (it turned about another axis than the screw's, or not as far as its travel along it says)"* ]]
	cat > "$TMP/gear.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><model name="m">
<link name="a"/><link name="b"/><link name="c"/>
<joint name="s" type="gearbox"><parent>a</parent><child>b</child><gearbox_reference_body>c</gearbox_reference_body><axis><xyz>0 0 1</xyz></axis></joint>
</model></world></sdf>
SDF
	run -1 phys-sdf print --format mjcf "$TMP/gear.sdf"
	assert_output --partial "gear.sdf:4: joint 'm::s': MJCF has no gearbox: it is an equality coupling the revolute joints that turn its links about its reference body, and one of them has none"
}

@test "--format: sdf or mjcf, print's alone" {
	run -2 phys-sdf print --format urdf "$WORLDS/pendulum.sdf"
	assert_output --partial "--format: 'urdf' is neither sdf nor mjcf"
	run -2 phys-sdf check --format mjcf "$WORLDS/pendulum.sdf"
	assert_output --partial "--format is print's option"
	run -2 phys-sdf world --format mjcf "$WORLDS/robots/arm.urdf"
	assert_output --partial "--format is print's option"
	# sdf is the print as before
	cmp <(phys-sdf print "$WORLDS/pendulum.sdf") <(phys-sdf print --format sdf "$WORLDS/pendulum.sdf")
	# from standard input too
	cmp <(phys-sdf print --format mjcf < "$WORLDS/pendulum.sdf") <(phys-sdf print --format mjcf "$WORLDS/pendulum.sdf")
}

# arm_world PLUGIN: an arm of 1 kg at 0.5 m on a hinge about y, held
# horizontal by the joint system PLUGIN (its inner XML), under gravity.
arm_world() {
	cat > "$TMP/arm.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
	<model name="arm">
	<link name="base"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
	<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
	<link name="rod"><pose>0 0 1 0 0 0</pose><inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass>
	<inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
	<joint name="shoulder" type="revolute"><parent>base</parent><child>rod</child>
	<axis><xyz>0 1 0</xyz></axis></joint>
	$1
	</model></world></sdf>
	EOF
}

@test "a JointPositionController is MuJoCo's servo: the printed arm sags where kp theta = m g L cos theta under MuJoCo, as under phys" {
	arm_world '<plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
	<joint_name>shoulder</joint_name><p_gain>50</p_gain><i_gain>0</i_gain><d_gain>5</d_gain></plugin>'
	local want
	want=$(awk 'BEGIN { t = 0.1; for (i = 0; i < 100; i++) t = 9.81 * 0.5 * cos(t) / 50; printf "%.12f", t }')
	phys-sdf print --format mjcf "$TMP/arm.sdf" > "$TMP/arm.xml"
	# the PID's derivative gain: a general actuator's bias
	grep -q '<general joint="shoulder" gainprm="50" biastype="affine" biasprm="0 -50 -5"' "$TMP/arm.xml"
	near "$(print_oracle "$TMP/arm.xml" run 3 shoulder | tail -1 | cut -d' ' -f2)" "$want" 1e-9
	near "$(phys-step -q -t 3 -r 1 -i 'arm::shoulder/position' "$TMP/arm.sdf" |
	    tail -1 | jq '.items["arm::shoulder/position"][0]')" "$want" 1e-9
}

@test "what MuJoCo's actuators cannot do is named at the plugin: an integral gain, a start target, a joint moved by its speed" {
	arm_world '<plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
	<joint_name>shoulder</joint_name><initial_position>0.2</initial_position></plugin>
	<plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
	<joint_name>shoulder</joint_name></plugin>'
	run -0 --separate-stderr phys-sdf print --format mjcf "$TMP/arm.sdf"
	# gz-sim's defaults: i_gain 0.1, d_gain 0.01
	[[ "$output" == *'<general joint="shoulder" gainprm="1" biastype="affine" biasprm="0 -1 -0.01"'* ]]
	[ "$(grep -c '<velocity\|<motor' <<<"$output")" -eq 0 ]
	assert_equal "$stderr" "phys-sdf: $TMP/arm.sdf:12: <plugin> JointController is not written: no MuJoCo actuator does what it does
phys-sdf: $TMP/arm.sdf:10: the servo of joint 'arm::shoulder': its integral gain, 0.1, is not written: MuJoCo's position servo has a proportional and a derivative gain
phys-sdf: $TMP/arm.sdf:10: the servo of joint 'arm::shoulder': its command at the start, 0.2, is not written: MuJoCo's controls start at 0"
}

@test "an MJCF model's actuators and a key's controls printed back run in MuJoCo as the original: a position servo (of a joint with a ref), a velocity servo, a motor with a gear" {
	cat > "$TMP/act.xml" <<-EOF
	<mujoco model="act"><compiler autolimits="true"/><option gravity="0 0 0" timestep="0.001"/>
	<worldbody>
	<body name="cart"><joint name="slider" type="slide" axis="1 0 0" ref="0.1"/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
	<body name="cart2" pos="0 1 0"><joint name="slider2" type="slide" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="2"/></body>
	<body name="cart3" pos="0 2 0"><joint name="slider3" type="slide" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
	</worldbody>
	<actuator><position joint="slider" kp="100" forcerange="-30 30"/><velocity joint="slider2" kv="5"/>
	<motor joint="slider3" gear="2" ctrlrange="-1 1"/></actuator>
	<keyframe><key name="go" ctrl="0.5 1 1.5"/></keyframe>
	</mujoco>
	EOF
	phys-sdf print --format mjcf "$TMP/act.xml" > "$TMP/out.xml"
	local j
	for j in slider slider2 slider3; do
		print_oracle "$TMP/act.xml" run 1 $j go > "$TMP/want"
		print_oracle "$TMP/out.xml" run 1 $j go > "$TMP/got"
		[ "$(wc -l < "$TMP/want")" -eq 1000 ]
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
	# the motor's control past its range: a force of gear times the
	# range's end, 2 N on 1 kg, x = t^2 at 1 s
	near "$(tail -1 "$TMP/want" | cut -d' ' -f2)" 1 0.002
}

@test "an attribute MuJoCo reads as up to n numbers, given fewer (friction, solref, solimp, solreflimit, solimplimit), writes them over its class's, as libmujoco compiles it; phys refused solref=\"0.04\"" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/partial.xml"
	soft='select(.geom or .joint) | {n: (.geom // .joint), friction, solref, solimp, solreflimit, solimplimit} | with_entries(select(.value != null))'
	print_oracle "$src" | jq -c "$soft" > "$TMP/want"
	# the geom's 0.5 over its class's 1 0.1 0.2; solref 0.04 over 0.5 2
	grep -qx '{"n":"ga","friction":\[0.5,0.1,0.2\],"solref":\[0.04,2\],"solimp":\[0.7,0.9,0.01,0.5,2\]}' "$TMP/want"
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" | jq -c "$soft" > "$TMP/got"
	diff "$TMP/want" "$TMP/got"
	# and checks clean
	run phys-sdf check "$src"
	assert_success
	assert_output ""
}

@test "MJCF's joint equalities are held as softly as MuJoCo holds them (a class's solref, an equality's own solref and solimp), each as a joint equality: under phys's MuJoCo engine and printed back they move as libmujoco's (held, a slide moved up to 61 um apart over 1 s)" {
	moves_as_mujoco "$BATS_TEST_DIRNAME/data/mjcf/coupled.xml" coupled k s1 s2 h1 h2
	# the slide follows at twice plus 1 cm: held stiff under ODE, within
	# MuJoCo's softness under its engine
	local p tol
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 1 -r 1 --keyframe k -i 'coupled::s1/position' \
		    -i 'coupled::s2/position' "$BATS_TEST_DIRNAME/data/mjcf/coupled.xml" |
		    tail -1 | jq -r '.items | [.["coupled::s1/position"][0], .["coupled::s2/position"][0]] | @tsv' > "$TMP/s"
		read -r s1 s2 < "$TMP/s"
		tol=1e-6
		[ $p != mujoco ] || tol=1e-3
		near "$s2" "$(awk -v s="$s1" 'BEGIN { print 0.01 + 2 * s }')" $tol
	done
}

@test "MuJoCo's direct form of solref and solreflimit (-stiffness, -damping, as dm_control's quadruped gives its ball), once dropped for the default, moves as libmujoco's, under phys's MuJoCo engine and printed back" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/direct.xml"
	# the ball bounces on the floor (a pair takes the lesser of each
	# number), the arm on its limit
	moves_as_mujoco "$src" direct k drop swing
	run phys-step -t 0.01 "$src"
	assert_success
	refute_output --partial "not kept"
}

@test "actuators of fixed tendons (a position servo on two joints, one with a ref, its control and force held to their ranges; a general one of affine bias through a gear) move their joints as libmujoco's, under phys's MuJoCo engine and printed back as <tendon> and <general>" {
	# phys measures j1 from its ref, 10 degrees
	moves_as_mujoco "$BATS_TEST_DIRNAME/data/mjcf/tendonact.xml" tendon k j1:10 j2 j3
}

@test "actuators of joints no gz-sim system is (a servo through a gear, a general one of another bias, a motor of force range not symmetric about 0), refused or not read before, run as libmujoco runs them, under phys's MuJoCo engine and printed back" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/jointact.xml" p
	moves_as_mujoco "$src" jact k hinge:5 slide spin
	# the cart rests where 2 u + 3 - 40 q = m g, for the key's control
	# and for the one a control line gives on the joint's topic
	echo '{"t":4,"topic":"/model/jact/joint/slide/cmd","msg":{"data":1.5}}' > "$TMP/ctl"
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 8 -r 0.25 --keyframe k -c "$TMP/ctl" -i 'jact::slide/position' "$src" |
		    jq -r 'select(.t > 0) | .items[] | .[0]' > "$TMP/got"
		near "$(sed -n 1p "$TMP/got")" "$(awk 'BEGIN { print (1 - 0.5 * 9.81 + 3) / 40 }')" 1e-5
		near "$(sed -n 2p "$TMP/got")" "$(awk 'BEGIN { print (3 - 0.5 * 9.81 + 3) / 40 }')" 1e-5
	done
	# the motor pushes at its range's upper end, 0.05 N m, not at 1:
	# 1000 steps of h = 1 ms turn the wheel (I = m r^2 / 2, m = 1000 pi
	# r^2 0.04) by a h^2 1000 1001 / 2
	near "$(print_oracle "$src" run 1 spin k | tail -1 | cut -d' ' -f2)" "$(awk 'BEGIN { I = 1000 * atan2(0, -1) * 0.01 * 0.04 * 0.01 / 2
	    printf "%.12f", 0.05 / I * 1e-6 * 500500 }')" 1e-9
}

@test "actuators under dynamics (a filter, an integrator held to its actrange, on a joint, a tendon and a motor; MuJoCo's intvelocity and cylinder) move their joints as libmujoco's, under phys's MuJoCo engine and printed back" {
	moves_as_mujoco "$BATS_TEST_DIRNAME/data/mjcf/dynact.xml" dyn k hinge slide spin rise stroke
	sed 's| actrange="-0.1 0.3"||' "$BATS_TEST_DIRNAME/data/mjcf/dynact.xml" > "$TMP/norange.xml"
	run -1 phys-step -q -n 1 "$TMP/norange.xml"
	assert_equal "$output" "phys-step: $TMP/norange.xml:36: intvelocity needs an actrange, its first number below its second"
}

@test "a later MuJoCo's filterexact takes its filter exactly over each step: its servo moves as libmujoco 2.2.2 moves a filter of the time constant that goes as far in a step, under phys's MuJoCo engine and printed back as that filter; phys-sdf check says whose it is" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/dynact.xml"
	# 1 - exp(-h / tau) of the step, as 2.2.2's h / tau' of its filter
	local tau=$(awk 'BEGIN { h = 0.001; printf "%.17g", h / (1 - exp(-h / 0.1)) }')
	sed 's|dyntype="filter" dynprm="0.1"|dyntype="filterexact" dynprm="0.1"|' "$src" > "$TMP/exact.xml"
	sed "s|dyntype=\"filter\" dynprm=\"0.1\"|dyntype=\"filter\" dynprm=\"$tau\"|" "$src" > "$TMP/same.xml"
	grep -q filterexact "$TMP/exact.xml"
	moves_as_mujoco_reads "$TMP/same.xml" "$TMP/exact.xml" dyn k hinge
	grep -q 'gainprm="5" .*dyntype="filter" dynprm="0.10050083333' "$TMP/out.xml"
	run -0 phys-sdf check "$TMP/exact.xml"
	[[ "$output" == *'"<general dyntype=\"filterexact\">: a later MuJoCo'"'"'s, not 2.2.2'"'"'s: phys reads it, the filter taken exactly over each step"'* ]]
	# under ODE, the servo's effort over the step to t: 5 act - 5 q - 0.1
	# dq/dt, at the step's start, act = 0.7 (1 - exp(-(t - h) / 0.1))
	phys-step -q -t 0.01 --keyframe k -i 'dyn::hinge/applied_effort' -i 'dyn::hinge/position' \
	    -i 'dyn::hinge/velocity' "$TMP/exact.xml" | jq -r 'select(.t > 0) | [.t,
	    .items["dyn::hinge/applied_effort"][0], .items["dyn::hinge/position"][0],
	    .items["dyn::hinge/velocity"][0]] | @tsv' |
	    awk '{ act = 0.7 * (1 - exp(-($1 - 0.001) / 0.1)); want = 5 * act - 5 * q - 0.1 * v
		d = $2 - want; if (d < 0) d = -d
		if (d > 1e-12) { print "t " $1 ": effort " $2 ", want " want; bad = 1 }
		q = $3; v = $4; n++ }
		END { exit bad || n != 10 }'
}

@test "an hfield without heights (all 0 in MuJoCo, as dm_control's suite leaves its terrain for run time) is the box it is: a ball rests on its top as on libmujoco's under MuJoCo, and on it under ODE; one with heights is refused at its geom" {
	cat > "$TMP/hf.xml" <<-EOF
	<mujoco model="hf">
	  <asset><hfield name="ground" nrow="11" ncol="11" size="2 2 1 0.1"/></asset>
	  <worldbody>
	    <geom type="hfield" hfield="ground" pos="0 0 0.3"/>
	    <body name="ball" pos="0.3 0.2 1"><freejoint/><geom size="0.1"/></body>
	  </worldbody>
	</mujoco>
	EOF
	print_oracle "$TMP/hf.xml" run 1 ball | awk 'NR % 50 == 0 { print $4 }' > "$TMP/want"
	phys-step -q -p mujoco -t 1 -e 50 -i 'hf::ball/pose' "$TMP/hf.xml" |
	    jq -r 'select(.t > 0) | .items[].z' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-7
	near "$(phys-step -q -t 1 -r 1 -i 'hf::ball/pose' "$TMP/hf.xml" | tail -1 | jq '.items[].z')" 0.4 1e-3
	run -0 --separate-stderr phys-step -n 1 "$TMP/hf.xml"
	assert_equal "$stderr" "phys-step: $TMP/hf.xml:4: <geom>: its height field has no heights (all 0 in MuJoCo): read as the box it is, its top at the geom's frame"
	sed 's|ncol="11"|& elevation="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1"|' \
	    "$TMP/hf.xml" > "$TMP/data.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/data.xml"
	assert_equal "$stderr" "phys-step: $TMP/data.xml:4: hfield geom: height field 'ground' has heights inline or in MuJoCo's own binary file, which phys does not read (a PNG it reads)"
}

# hfield_rest ENGINE: terrain.xml's ball rests on its hfield's plateau,
# its centre at 0.35 m (MuJoCo's rule; Gazebo's would give 0.375).
hfield_rest() {
	near "$(phys-step -q -p "$1" -t 1 -r 1 -i 'terrain::ball/pose' \
	    "$(profile_world "$TMP/terrain.sdf" "$1")" | tail -1 | jq '.items[].z')" 0.35 3e-3
}

@test "an hfield of a PNG is a heightmap by MuJoCo's rule (any grid; its samples' range spans the elevation; its first row the +y edge; its base kept): a ball over its plateau moves as libmujoco moves it under phys's MuJoCo engine and printed back, and rests on it under each engine" {
	cp "$BATS_TEST_DIRNAME/data/mjcf/terrain.xml" "$TMP/"
	python3 "$BATS_TEST_DIRNAME/data/mjcf/terrain_png.py" "$TMP/terrain.png"
	print_oracle "$TMP/terrain.xml" run 1 ball | awk 'NR % 50 == 0 { print $4 }' > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -eq 20 ]
	phys-step -q -p mujoco -t 1 -e 50 -i 'terrain::ball/pose' "$TMP/terrain.xml" |
	    jq -r 'select(.t > 0) | .items[].z' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# a nameless hfield is named after its file, as MuJoCo names it
	sed 's|<hfield name="t" |<hfield |; s|hfield="t"|hfield="terrain"|' "$TMP/terrain.xml" > "$TMP/nameless.xml"
	phys-step -q -p mujoco -t 1 -e 50 -i 'terrain::ball/pose' "$TMP/nameless.xml" |
	    jq -r 'select(.t > 0) | .items[].z' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# printed back: the PNG as an hfield of the same size and base
	phys-sdf print --format mjcf "$TMP/terrain.xml" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" run 1 ball | awk 'NR % 50 == 0 { print $4 }' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	phys-sdf world "$TMP/terrain.xml" > "$TMP/terrain.sdf"
	each_engine hfield_rest
	# a base is MuJoCo's, by its rule only
	phys-sdf print -q "$TMP/terrain.xml" |
	    sed 's|<phys:rule>mujoco</phys:rule>|<phys:rule>gazebo</phys:rule>|' > "$TMP/gazebo.sdf"
	run -1 phys-step -q -n 1 "$TMP/gazebo.sdf"
	[[ "$output" == *"gazebo.sdf:"*": <base>: the solid MuJoCo keeps under a height field, by MuJoCo's rule only (<rule>mujoco</rule>)" ]]
}

@test "a servo too stiff for an explicit step (Menagerie's iiwa: kp 2000, kv 200 on a link of 2e-3 kg m2) under the implicit integrator: phys's MuJoCo engine takes its damping into the step, as libmujoco does, and follows libmujoco; ODE does too, implicit_servo set, but not under Euler" {
	cat > "$TMP/stiff.xml" <<-EOF
	<mujoco model="stiff">
	  <option integrator="implicit" timestep="0.002"/>
	  <worldbody>
	    <body name="link" pos="0 0 1">
	      <joint name="hinge" axis="0 1 0" range="-3 3" limited="true"/>
	      <inertial mass="1.2" pos="0.02 0 0" diaginertia="0.001 0.001 0.001"/>
	    </body>
	  </worldbody>
	  <actuator>
	    <general joint="hinge" gaintype="fixed" biastype="affine" gainprm="2000" biasprm="0 -2000 -200" forcerange="-300 300" forcelimited="true"/>
	  </actuator>
	  <keyframe><key name="go" ctrl="0.5"/></keyframe>
	</mujoco>
	EOF
	# kv h / I = 200 * 0.002 / 0.00148 = 270: an explicit step multiplies
	# the velocity by -269
	print_oracle "$TMP/stiff.xml" run 0.5 hinge go | awk 'NR % 25 == 0 { print $2 }' > "$TMP/want"
	phys-step -q -p mujoco -t 0.5 -e 25 --keyframe go -i 'stiff::hinge/position' "$TMP/stiff.xml" |
	    jq -r 'select(.t > 0) | .items["stiff::hinge/position"][0]' > "$TMP/got"
	[ "$(wc -l < "$TMP/want")" -eq 10 ]
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# under Euler, ODE holds the force over the step, as gz-sim does:
	# without a force range the arm diverges, the servo's damping named
	# as the likely cause, (200 + 2000 h) h / I = 206 with I at most half
	# the trace and m d^2, 0.0015 + 1.2 * 0.02^2, and what takes it into
	# the step
	sed -e 's/ forcerange="-300 300" forcelimited="true"//' \
	    -e 's/integrator="implicit"/integrator="Euler"/' "$TMP/stiff.xml" > "$TMP/free.xml"
	run -1 --separate-stderr phys-step -q -t 0.5 --keyframe go "$TMP/free.xml"
	[[ "$stderr" == *"joint 'stiff::hinge': an effort of "*"; likely cause: its servo's damping over a step, d + p h = 204, is 206 times I / h on link 'stiff::link' (I, its inertia about the joint, at most 0.00198)"*"implicit_servo=true takes it into the step"* ]]
	# implicit_servo: ODE takes it into the step, and the arm rests
	# against its limit, 3 degrees (MuJoCo's soft limit gives way)
	near "$(phys-step -q -t 0.5 -r 10 --keyframe go -s 'stiff::hinge/implicit_servo=true' \
	    -i 'stiff::hinge/position' "$TMP/free.xml" | tail -1 |
	    jq '.items["stiff::hinge/position"][0]')" "$(awk 'BEGIN { printf "%.12f", 3 * atan2(0, -1) / 180 }')" 1e-4
	# and so it does by itself under the implicit integrator
	sed 's/integrator="Euler"/integrator="implicit"/' "$TMP/free.xml" > "$TMP/implicit.xml"
	near "$(phys-step -q -t 0.5 -r 10 --keyframe go -i 'stiff::hinge/position' "$TMP/implicit.xml" |
	    tail -1 | jq '.items["stiff::hinge/position"][0]')" "$(awk 'BEGIN { printf "%.12f", 3 * atan2(0, -1) / 180 }')" 1e-4
}

@test "an InitialVelocityPlugin's velocities are a keyframe MuJoCo starts from as phys starts the world: a thrown box's parabola, a wheel's turn of 3 rad/s" {
	cat > "$TMP/iv.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
<gravity>0 0 -9.81</gravity>
<model name="box">
  <pose>0 0 2 0 0 0</pose>
  <link name="link">
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>0.2 0.3 0.4</size></box></geometry></collision>
  </link>
  <plugin filename="libInitialVelocityPlugin.so" name="iv"><linear>1.5 0 2</linear><angular>0 0 0</angular></plugin>
</model>
<model name="wheel">
  <pose>3 0 1 0 0 0</pose>
  <link name="link">
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.2</izz></inertia></inertial>
  </link>
  <joint name="hinge" type="revolute"><parent>world</parent><child>link</child><axis><xyz>0 0 1</xyz></axis></joint>
  <plugin filename="libInitialVelocityPlugin.so" name="iv"><linear>0 0 0</linear><angular>0 0 3</angular></plugin>
</model>
</world>
</sdf>
SDF
	run --separate-stderr phys-sdf print --format mjcf "$TMP/iv.sdf"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > "$TMP/iv.xml"
	[ "${stderr_lines[0]}" = "phys-sdf: $TMP/iv.sdf:5: model 'box': the velocities of its InitialVelocityPlugin are keyframe 'initial_velocity' (a MuJoCo model starts at rest; reset to that keyframe to start it moving)" ]
	[[ "${stderr_lines[1]}" == "phys-sdf: $TMP/iv.sdf:13: model 'wheel': "* ]]
	# 1 s of semi-implicit Euler at 1 ms: x = 1.5 t, z = 2 + 2 t - g h^2 n (n + 1) / 2
	print_oracle "$TMP/iv.xml" run 1 box::link initial_velocity | tail -1 > "$TMP/box"
	near "$(cut -d' ' -f2 "$TMP/box")" 1.5 1e-9
	near "$(cut -d' ' -f4 "$TMP/box")" "$(awk 'BEGIN { printf "%.12f", 4 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
	near "$(print_oracle "$TMP/iv.xml" run 1 wheel::hinge initial_velocity | tail -1 | cut -d' ' -f2)" 3 1e-9
	# phys's run of the world starts the same
	phys-step -q -t 1 -e 1000 -i 'box::link/pose' -i 'wheel::hinge/position' "$TMP/iv.sdf" | tail -1 > "$TMP/phys"
	near "$(jq '.items["box::link/pose"].z' "$TMP/phys")" "$(cut -d' ' -f4 "$TMP/box")" 1e-9
	near "$(jq '.items["wheel::hinge/position"][0]' "$TMP/phys")" 3 1e-5
	# at rest without it
	near "$(print_oracle "$TMP/iv.xml" run 1 wheel::hinge | tail -1 | cut -d' ' -f2)" 0 1e-12
}

@test "<option> noslip_iterations and noslip_tolerance reach phys's MuJoCo engine and MJCF out: a box gripping a slope rests where libmujoco's no-slip solver holds it (2e-7 m from where it holds it without)" {
	sed -e 's/friction="0.3 /friction="0.8 /' -e 's|<default>|<option noslip_iterations="20" noslip_tolerance="1e-9"/><default>|' \
	    "$BATS_TEST_DIRNAME/data/mjcf/incline.xml" > "$TMP/grip.xml"
	print_oracle "$TMP/grip.xml" run 2 box | tail -1 | cut -d' ' -f2-4 > "$TMP/want"
	phys-step -q -p mujoco -t 2 -r 1 -i 'incline::box/pose' "$TMP/grip.xml" |
	    tail -1 | jq -r '.items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-11
	phys-sdf print --format mjcf "$TMP/grip.xml" > "$TMP/out.xml"
	print_oracle "$TMP/out.xml" run 2 box | tail -1 | cut -d' ' -f2-4 > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-11
}

# viscous_wind ENGINE: $TMP/visc.sdf's ball, let go at rest in a wind of
# 2 m/s and Stokes' drag c v (c = 3 pi d 0.5, d = sqrt(0.024) its box's
# side), at x = w (t - (1 - exp(-c t / m)) m / c) after 1 s; the step
# of each engine's profile keeps within 0.3% of it.
viscous_wind() {
	local p=$1
	[ "$1" != ode ] || p=default_physics
	phys-step -q -p "$p" -t 1 -r 1 --keyframe k -i 'fluid::ball/pose' \
	    "$(profile_world "$TMP/visc.sdf" "$p")" | tail -1 > "$TMP/end"
	rel "$(jq '.items[].x' "$TMP/end")" \
	    "$(awk 'BEGIN { c = 3 * atan2(0, -1) * sqrt(0.024) * 0.5; printf "%.12g", 2 * (1 - (1 - exp(-c)) / c) }')" 3e-3
}

@test "MJCF's medium (<option> density, viscosity, wind) drags each body as MuJoCo's inertia-box model does: as libmujoco under phys's MuJoCo engine and printed back, to 1e-9; a ball in a viscous wind as Stokes' drag says under each engine" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/fluid.xml" b
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	for b in ball plate; do
		print_oracle "$src" run 1 "$b" k | awk 'NR % 50 == 0' | cut -d' ' -f2-4 > "$TMP/want"
		[ "$(wc -l < "$TMP/want")" -eq 10 ]
		phys-step -q -p mujoco -t 1 -e 50 --keyframe k -i "fluid::$b/pose" "$src" |
		    jq -r 'select(.t > 0) | .items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
		print_oracle "$TMP/out.xml" run 1 "$b" k | awk 'NR % 50 == 0' | cut -d' ' -f2-4 > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
	sed 's/density="1.2" //' "$src" > "$TMP/visc.xml"
	phys-sdf world "$TMP/visc.xml" > "$TMP/visc.sdf"
	each_engine viscous_wind
}

# Under RK4 MuJoCo takes the medium's drag again at each of its four
# stages; phys's FluidForces takes it once a step and holds it, as
# MuJoCo's Euler step takes passive forces, which it says at <option>:
# the bodies keep within 4e-4 m of libmujoco's after 1 s (found on the
# Crazyflie's model, which runs RK4 in air: 2.2 mm lower after a 1 s fall).
@test "MJCF's medium under RK4: phys's MuJoCo engine holds the drag through each step and says so at <option>; the bodies keep within 1e-3 m of libmujoco's" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/fluid.xml" b
	sed 's|<option |<option integrator="RK4" |' "$src" > "$TMP/rk4.xml"
	for b in ball plate; do
		print_oracle "$TMP/rk4.xml" run 1 "$b" k | tail -1 | cut -d' ' -f2-4 > "$TMP/want"
		run -0 --separate-stderr phys-step -p mujoco -t 1 -r 1 --keyframe k -i "fluid::$b/pose" "$TMP/rk4.xml"
		[ "$stderr" = "phys-step: $TMP/rk4.xml:6: the medium's drag is taken at each step's start and held through the step, where MuJoCo's integrator takes its forces again within the step (MuJoCo's RK4: a ball of 30 g and 10 cm radius falling 1 s in air lands 2.3 mm lower than libmujoco's)" ]
		tail -1 <<<"$output" | jq -r '.items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-3
	done
	# under Euler, as libmujoco to 1e-9 (above), nothing is said
	run -0 --separate-stderr phys-step -p mujoco -n 1 --keyframe k "$src"
	[ -z "$stderr" ]
}

@test "MJCF's medium: <flag passive=\"disable\"> turns it off, as in MuJoCo; MuJoCo's ellipsoid model is refused at its geom; a negative density is an error" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/fluid.xml"
	sed 's|gravity="0 0 0"/>|gravity="0 0 0"><flag passive="disable"/></option>|' "$src" > "$TMP/off.xml"
	# the ball stays where it was let go
	near "$(phys-step -q -t 1 -r 1 --keyframe k -i 'fluid::ball/pose' "$TMP/off.xml" | tail -1 | jq '.items[].x')" 0 1e-12
	near "$(print_oracle "$TMP/off.xml" run 1 ball k | tail -1 | cut -d' ' -f2)" 0 1e-12
	sed 's|<geom type="sphere" size="0.1" mass="1"/>|<geom type="sphere" size="0.1" mass="1" fluidshape="ellipsoid"/>|' "$src" > "$TMP/ell.xml"
	run -1 phys-step -q -n 1 "$TMP/ell.xml"
	[[ "$output" == "phys-step: $TMP/ell.xml:10: fluidshape=\"ellipsoid\": MuJoCo's ellipsoid fluid model is not read"* ]]
	sed 's/density="1.2"/density="-1"/' "$src" > "$TMP/neg.xml"
	run -1 phys-step -q -n 1 "$TMP/neg.xml"
	[[ "$output" == "phys-step: $TMP/neg.xml:6: density and viscosity must not be negative" ]]
}

@test "FluidForces, phys's own system, written in SDF: a link of a full inertia tensor, let go in a wind across its principal axes, is dragged as libmujoco drags it printed as MJCF, under ODE and phys's MuJoCo engine; a bad value is an error at its line" {
	cat > "$TMP/kite.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w">
	<gravity>0 0 0</gravity>
	<physics name="ode" type="ode" default="true"><max_step_size>0.002</max_step_size></physics>
	<physics name="mujoco" type="mujoco"><max_step_size>0.002</max_step_size></physics>
	<model name="kite">
	  <link name="sail"><pose>0 0 1 0 0 0</pose>
	    <inertial><pose>0.1 0 0 0.3 0.2 0.1</pose><mass>0.5</mass>
	      <inertia><ixx>0.02</ixx><iyy>0.01</iyy><izz>0.025</izz><ixy>0.003</ixy><ixz>-0.002</ixz><iyz>0.001</iyz></inertia>
	    </inertial>
	  </link>
	  <plugin filename="phys-fluid-forces-system" name="phys::systems::FluidForces">
	    <density>1.2</density>
	    <viscosity>0.05</viscosity>
	    <wind>3 2 -1</wind>
	  </plugin>
	</model></world></sdf>
	EOF
	phys-sdf print --format mjcf "$TMP/kite.sdf" > "$TMP/kite.xml"
	print_oracle "$TMP/kite.xml" run 1 sail | awk 'NR % 50 == 0' | cut -d' ' -f2-4 > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -eq 10 ]
	local p
	for p in ode mujoco; do
		phys-step -q -p $p -t 1 -e 50 -i 'kite::sail/pose' "$TMP/kite.sdf" |
		    jq -r 'select(.t > 0) | .items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
	# it moves: 0.98 m downwind along x in the second
	awk 'END { exit !($1 > 0.9) }' "$TMP/want"
	sed 's|<density>1.2</density>|<density>-1.2</density>|' "$TMP/kite.sdf" > "$TMP/bad.sdf"
	run -1 phys-step -q -n 1 "$TMP/bad.sdf"
	assert_equal "$output" "phys-step: $TMP/bad.sdf:13: FluidForces: <density>: must not be negative"
}

@test "a fixed tendon's spring and damper (rest length given, or from the joints' springref), and a servo of one of its joints beside it, move as libmujoco moves them, under phys's MuJoCo engine and printed back" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/tendonspring.xml"
	sed -e 's|stiffness="10"|stiffness="10" damping="0.7"|' \
	    -e 's|<option gravity="0 0 0"/>|<option gravity="0 0 0" timestep="0.001"/>|' \
	    -e 's|</tendon>|&<actuator><position joint="x1" kp="3"/></actuator>|' \
	    -e 's|qpos="0.5 0.05"|qpos="0.5 0.05" ctrl="0.4"|' "$src" > "$TMP/damped.xml"
	moves_as_mujoco "$TMP/damped.xml" spring k x1 x2:2.864788975654116
	sed 's|stiffness="10"|stiffness="10" springlength="0.3"|' "$TMP/damped.xml" > "$TMP/rest.xml"
	moves_as_mujoco "$TMP/rest.xml" spring k x1 x2:2.864788975654116
}

@test "an actuator's ctrlrange holds its control as MuJoCo holds it (a position servo's target, a velocity servo's speed, a motor's asymmetric range): from keys past the ranges and within them, as libmujoco under phys's MuJoCo engine and printed back; a range without ctrllimited is limited as MuJoCo from 2.3.3 on limits it, said once, and refused under autolimits=\"false\"" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/ctrlrange.xml" k
	for k in k in; do
		moves_as_mujoco "$src" cr "$k" hinge:0.1 axle rail
	done
	sed 's|<compiler autolimits="true"/>||' "$src" > "$TMP/nolim.xml"
	moves_as_mujoco_reads "$src" "$TMP/nolim.xml" cr k hinge:0.1 axle rail
	run --separate-stderr phys-step -n 1 "$TMP/nolim.xml"
	[ "$(grep -c 'limited, as is every such range' <<< "$stderr")" -eq 1 ]
	sed 's|<compiler autolimits="true"/>|<compiler autolimits="false"/>|' "$src" > "$TMP/nolim.xml"
	run -1 phys-step -q -n 1 "$TMP/nolim.xml"
	assert_equal "$output" "phys-step: $TMP/nolim.xml:24: actuator has ctrlrange but not ctrllimited: MuJoCo refuses it under autolimits=\"false\""
	# ctrllimited from a class's <general>, which MuJoCo's position,
	# velocity and motor share, as dm_control's fish and manipulator
	# have it
	sed 's|<compiler autolimits="true"/>|<default><general ctrllimited="true"/></default>|' "$src" > "$TMP/shared.xml"
	moves_as_mujoco "$TMP/shared.xml" cr k hinge:0.1 axle rail
	# a range in force must rise, as MuJoCo has it, for every actuator
	sed 's|ctrlrange="-0.5 0.5"|ctrlrange="0.5 0.5"|' "$src" > "$TMP/flat.xml"
	run -1 phys-step -q -n 1 "$TMP/flat.xml"
	assert_equal "$output" "phys-step: $TMP/flat.xml:24: ctrlrange: its first number must be below its second"
}

@test "a joint that starts outside its range (dm_control's hopper's knee) starts there under phys's MuJoCo engine, pushed in by MuJoCo's soft limit as libmujoco pushes it, without a word; under ODE it starts at its limit, said" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/outside.xml"
	run -0 --separate-stderr phys-step -p mujoco -n 1 "$src"
	[ -z "$stderr" ]
	moves_as_mujoco "$src" outside k knee
	run -0 --separate-stderr phys-step -n 1 -i 'outside::knee/position' "$src"
	[[ "$stderr" == *"outside.xml:8: joint 'outside::knee' starts at 0 rad on its first axis, outside its limits [0.0872665, 2.61799]: it starts at 0.0872665 instead"* ]]
}

@test "what a MuJoCo after 2.2.2 reads: a position servo's kv (its class's) and dampratio (of the mass it moves at qpos0), inheritrange, a joint's actuatorfrcrange through a gear and off centre, ranges without limited: as libmujoco moves the same said in 2.2.2's MJCF, under phys's MuJoCo engine and printed back" {
	moves_as_mujoco_reads "$BATS_TEST_DIRNAME/data/mjcf/later-2.2.2.xml" \
	    "$BATS_TEST_DIRNAME/data/mjcf/later.xml" later k shoulder elbow rail rail2
}

@test "a later MuJoCo's attribute phys does not read, or an element, is refused at its line (before, both were passed over); one for how the model looks is noted; one that 2.2.2 moves as at its value only is refused at another" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/later.xml"
	sed 's|<joint name="elbow"|<joint name="elbow" foo="1"|' "$src" > "$TMP/foo.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/foo.xml"
	assert_equal "$stderr" "phys-step: $TMP/foo.xml:17: unknown attribute 'foo' of <joint>: neither MuJoCo 2.2.2's nor a later MuJoCo's that phys reads, and passed over it could change how the model moves: phys refuses the model; did you mean 'pos'?"
	# MuJoCo 3's model asset: passed over, what it held would be lost
	sed 's|<option timestep="0.001"/>|&<asset><model name="m" file="m.xml"/></asset>|' "$src" > "$TMP/model.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/model.xml"
	[[ "$stderr" == "phys-step: $TMP/model.xml:8: unknown element <model> in <asset>: "*"phys refuses the model" ]]
	sed 's|<option timestep="0.001"/>|<option timestep="0.001"><flag invdiscrete="enable"/></option><asset><material name="m" metallic="0.5" roughness="0.2"/></asset>|' "$src" > "$TMP/flag.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/flag.xml"
	assert_equal "$stderr" "phys-step: $TMP/flag.xml:8: <flag invdiscrete=\"enable\">: a later MuJoCo's, not 2.2.2's; phys moves the model as with invdiscrete=\"disable\": phys refuses the model"
	sed -i 's|invdiscrete="enable"|invdiscrete="disable"|' "$TMP/flag.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/flag.xml"
	# an element's attributes said alike are said in one line
	[[ "$stderr" == *"flag.xml:8: <material metallic, roughness>: a later MuJoCo's, for how the model looks: not read"* ]]
	[ "$(grep -c "for how the model looks" <<< "$stderr")" -eq 1 ]
	# kv and dampratio both, a body's weight borne in part
	sed 's|dampratio="0.5"|& kv="1"|' "$src" > "$TMP/both.xml"
	run -1 --separate-stderr phys-step -q -n 1 "$TMP/both.xml"
	assert_equal "$stderr" "phys-step: $TMP/both.xml:35: kv and dampratio: MuJoCo takes one of them"
	# MuJoCo 2.2.2's own that phys leaves aside, at a value that moves
	# the model: refused, where it was dropped without a word
	sed 's|<option timestep="0.001"/>|&<equality><weld body1="cart" torquescale="2"/></equality>|' "$src" > "$TMP/weld.xml"
	run -1 phys-step -q -n 1 "$TMP/weld.xml"
	assert_equal "$output" "phys-step: $TMP/weld.xml:8: <weld torquescale=\"2\">: not read; phys moves the model as with torquescale=\"1\": phys refuses the model"
	sed -i 's|torquescale="2"|torquescale="1.0"|' "$TMP/weld.xml"
	run -0 phys-step -q -n 1 "$TMP/weld.xml"
	sed 's|<body name="cart" |<body name="cart" gravcomp="0.5" |' "$src" > "$TMP/half.xml"
	run -1 --separate-stderr phys-step -q -n 1 "$TMP/half.xml"
	assert_equal "$stderr" "phys-step: $TMP/half.xml:22: gravcomp=\"0.5\": phys bears a body's weight whole (1) or not at all (0), not a part of it: phys refuses the model"
}

@test "a later MuJoCo's <frame> moves the geoms, sites and bodies it holds by its pose, nested, and gives them its childclass: as libmujoco moves the same said without frames, under phys's MuJoCo engine and printed back; a joint in a frame is refused at its line" {
	moves_as_mujoco_reads "$BATS_TEST_DIRNAME/data/mjcf/frame-2.2.2.xml" \
	    "$BATS_TEST_DIRNAME/data/mjcf/frame.xml" frame k hinge slide
	sed 's|<geom type="capsule"|<joint name="bad"/>&|' "$BATS_TEST_DIRNAME/data/mjcf/frame.xml" > "$TMP/joint.xml"
	run -1 phys-step -q -n 1 "$TMP/joint.xml"
	assert_equal "$output" "phys-step: $TMP/joint.xml:18: a joint in a <frame> is not read: phys refuses the model"
}

@test "a joint's springdamper is its stiffness and damping from the inertia the mass matrix's inverse gives it at qpos0 (a floating base's motion counted, armature too), as MuJoCo's compiler makes them: as libmujoco moves the model, under phys's MuJoCo engine and printed back; on a ball joint it is refused" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/springdamper.xml"
	moves_as_mujoco "$src" springdamper k hip knee ankle
	sed 's|<freejoint name="free"/>|<joint name="free" type="ball" springdamper="0.1 1"/>|; s|qpos="0 0 1 1 0 0 0 |qpos="1 0 0 0 |' "$src" > "$TMP/ball.xml"
	run -1 phys-step -q -n 1 "$TMP/ball.xml"
	assert_equal "$output" "phys-step: $TMP/ball.xml:15: springdamper of a free or ball joint: phys keeps no stiffness or damping of one: phys refuses the model"
}

@test "a tendon equality of three joints (dm_control's quadruped's legs) moves under phys's MuJoCo engine, and printed back as a tendon of the same coefficients, as libmujoco moves the source, to 1e-9; one of two tendons is printed back too, where it was left out" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/coupled3.xml"
	# held as softly as MuJoCo holds it, by a tendon of the source's
	# coefficients (phys held it stiff, its follower's coefficient 1)
	moves_as_mujoco "$src" coupled3 moved qa qb qc
	grep -q '<tendon tendon1="qa::mimic" polycoef="0 0 0 0 0" solref="0.02 1"' "$TMP/out.xml"
	grep -q '<joint joint="qa" coef="0.5"/>' "$TMP/out.xml"
	# a tendon equality of two joints, left out of the printed model
	# before, as a tendon
	phys-sdf print --format mjcf "$BATS_TEST_DIRNAME/data/mjcf/tendons.xml" > "$TMP/t.xml"
	grep -q '<tendon tendon1="ja::mimic" polycoef="0.3 0 0 0 0"' "$TMP/t.xml"
	print_oracle "$TMP/t.xml" run 2 ja | tail -1 | awk '{ print $2 }' > "$TMP/ja"
	print_oracle "$TMP/t.xml" run 2 jb | tail -1 | awk '{ print $2 }' > "$TMP/jb"
	# ja + 2 jb = 0.3 from qpos0 (ja's ref of 0.2), as softly as MuJoCo
	# holds it (its other equality, of two tendons, MuJoCo weighs by
	# each tendon: ja ends 1% from libmujoco's run of the source)
	near "$(awk -v a="$(cat "$TMP/ja")" -v b="$(cat "$TMP/jb")" 'BEGIN { print a - 0.2 + 2 * b }')" 0.3 5e-3
	awk -v b="$(cat "$TMP/jb")" 'BEGIN { exit !(b < -0.1 || b > 0.1) }'
}

@test "an actuator of a site, pushed off its body's centre along a tilted site and damped by the site's speed, moves the body under phys's MuJoCo engine, and printed back as a site and a general actuator, as libmujoco moves it, to 1e-9" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/drone.xml"
	print_oracle "$src" run 1 cf2 flip | awk 'NR % 100 == 0 { print $2, $3, $4 }' > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -eq 10 ]
	phys-step -q -p mujoco -t 1 -e 100 --keyframe flip -i 'drone::cf2/pose' "$src" |
	    jq -r 'select(.t > 0) | .items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	phys-sdf print --format mjcf "$src" > "$TMP/out.xml"
	grep -q '<general site="rotor" gear="0 0 1 0 0 0.01"' "$TMP/out.xml"
	print_oracle "$TMP/out.xml" run 1 cf2 flip | awk 'NR % 100 == 0 { print $2, $3, $4 }' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
}

@test "MJCF: gainprm and biasprm of MuJoCo's full ten numbers (Barkour's servos, in a class) drive the joints as libmujoco drives them; too many are refused at the class's line" {
	cat > "$TMP/ten.xml" <<'XML'
<mujoco model="ten">
  <!-- two servos of a class, written with the ten numbers MuJoCo keeps
       (the trailing ones mean nothing to a fixed gain and an affine bias) -->
  <option timestep="0.001"/>
  <default>
    <default class="servo">
      <general biastype="affine" gainprm="35 0 0 0 0 0 0 0 0 0" biasprm="0 -35 -0.65 0 0 0 0 0 0 0"/>
    </default>
  </default>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="0.5"/>
      <body name="fore" pos="0.3 0 0">
        <joint name="elbow" axis="0 1 0" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.2"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general class="servo" joint="shoulder"/>
    <general class="servo" joint="elbow"/>
  </actuator>
  <keyframe><key name="k" ctrl="0.6 -0.4"/></keyframe>
</mujoco>
XML
	moves_as_mujoco "$TMP/ten.xml" ten k shoulder elbow
	sed 's/gainprm="35 0 0 0 0 0 0 0 0 0"/gainprm="35 0 0 0 0 0 0 0 0 0 0"/' "$TMP/ten.xml" > "$TMP/eleven.xml"
	run -1 phys-step -n 1 "$TMP/eleven.xml"
	assert_output --partial "eleven.xml:7: gainprm=\"35 0 0 0 0 0 0 0 0 0 0\": 1 to 10 numbers expected"
}

@test "MJCF: a free joint's damping (a class's, as BXI Elf2's), which MuJoCo applies to the body's six velocities and a free link has not, is said, with its numbers: the body falls as MuJoCo drops it undamped" {
	cat > "$TMP/drop.xml" <<'XML'
<mujoco model="drop">
  <default><joint damping="0.5" armature="0.01"/></default>
  <option timestep="0.002"/>
  <worldbody>
    <body name="ball" pos="0 0 10">
      <joint type="free"/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
</mujoco>
XML
	sed 's| damping="0.5" armature="0.01"||' "$TMP/drop.xml" > "$TMP/undamped.xml"
	run -0 --separate-stderr phys-step -p mujoco -t 0.5 -e 250 -i 'drop::ball/pose' "$TMP/drop.xml"
	[[ "$stderr" == *"drop.xml:6: free joint of body 'ball': its damping, stiffness, armature and frictionloss (0.5, 0, 0.01, 0), which MuJoCo applies to the body's six velocities, are not kept (a free link has none)"* ]]
	z=$(tail -1 <<< "$output" | jq '.items["drop::ball/pose"].z')
	# as libmujoco drops the body without the damping, not with it
	near "$z" "$(print_oracle "$TMP/undamped.xml" run 0.5 ball | tail -1 | cut -d' ' -f4)" 1e-9
	damped=$(print_oracle "$TMP/drop.xml" run 0.5 ball | tail -1 | cut -d' ' -f4)
	awk -v a="$z" -v b="$damped" 'BEGIN { d = a - b; exit !(d > 1e-3 || d < -1e-3) }'
	# <freejoint/> takes no class's values, in MuJoCo and phys alike
	sed 's|<joint type="free"/>|<freejoint/>|' "$TMP/drop.xml" > "$TMP/short.xml"
	run -0 --separate-stderr phys-step -p mujoco -n 0 "$TMP/short.xml"
	[[ "$stderr" != *"free joint"* ]]
	near "$(print_oracle "$TMP/short.xml" run 0.5 ball | tail -1 | cut -d' ' -f4)" "$z" 1e-9
}

# fitted_geoms FILE: libmujoco's geoms of FILE, a line each: name (less
# phys's scope), type, position, size.
fitted_geoms() {
	print_oracle "$1" | jq -r 'select(.geom and .geom != "") |
	    [(.geom | sub(".*::"; "")), .type] + (.pos + .size | map(tostring)) |
	    join(" ")' | sort
}

@test "a sphere, capsule, cylinder, ellipsoid or box of a mesh (ARX L5's capsules) is fitted as MuJoCo fits it, to the mesh's inertia box or with fitaabb to its bounding box, times fitscale: printed back, libmujoco compiles each where and as large as it compiles the source's" {
	local f
	cp -r "$BATS_TEST_DIRNAME/data/mjcf/meshes" "$TMP/"
	sed 's|<compiler meshdir="meshes"/>|<compiler meshdir="meshes" fitaabb="true"/>|' \
	    "$BATS_TEST_DIRNAME/data/mjcf/fitted.xml" > "$TMP/fitaabb.xml"
	for f in "$BATS_TEST_DIRNAME/data/mjcf/fitted.xml" "$TMP/fitaabb.xml"; do
		fitted_geoms "$f" > "$TMP/want"
		[ "$(wc -l < "$TMP/want")" -eq 5 ]
		phys-sdf print -q --format mjcf "$f" > "$TMP/out.xml"
		fitted_geoms "$TMP/out.xml" > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-6
	done
	# a fitted plane is MuJoCo's error too
	sed 's|type="sphere" mesh="wedge"|type="plane" mesh="wedge"|' "$BATS_TEST_DIRNAME/data/mjcf/fitted.xml" > "$TMP/plane.xml"
	run -1 phys-step -n 0 "$TMP/plane.xml"
	[[ "$output" == *"plane.xml:11: a plane cannot be fitted to mesh 'wedge'"* ]]
}

# colours PRINTED: libmujoco's colour of each geom of the colours model
# and of PRINTED, name by name, one line each.
colours() {
	print_oracle "$1" | jq -r 'select(.geom) | [.geom, .colour[]] | @tsv' | sort
}

@test "MJCF colours (a geom's rgba, its class's, its material's, a material's class's, an alpha) reach the SDF model as its visuals' colours and transparency, a geom that collides drawn by a visual twin as MuJoCo draws it; printed back, directly or through SDF, libmujoco draws every geom as it draws the source's" {
	cat > "$TMP/colours.xml" <<'XML'
<mujoco model="colours">
  <default>
    <default class="green"><geom rgba="0 1 0 1"/><material rgba="0 0 1 0.5"/></default>
    <default class="hidden"><geom group="3"/></default>
  </default>
  <asset>
    <material name="red" rgba="1 0 0 1"/>
    <material name="blue" class="green"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" material="red"/>
    <body name="b" pos="0 0 0.2">
      <freejoint/>
      <geom name="box" type="box" size="0.1 0.1 0.1" material="blue"/>
      <geom name="hull" class="hidden" type="sphere" size="0.12" rgba="0.3 0.3 0.3 1"/>
      <geom name="red" type="sphere" size="0.05" pos="0 0 0.1" material="red" contype="0" conaffinity="0"/>
      <geom name="grey" type="sphere" size="0.05" pos="0 0 0.1" material="red" rgba="0.2 0.2 0.2 1" contype="0" conaffinity="0"/>
      <geom name="green" type="sphere" size="0.05" pos="0 0 0.1" class="green" material="red" contype="0" conaffinity="0"/>
      <geom name="plain" type="sphere" size="0.05" pos="0 0 0.1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
XML
	colours "$TMP/colours.xml" > "$TMP/want"
	# the source draws six colours: not all the same, so the test can fail
	[ "$(cut -f2- "$TMP/want" | sort -u | wc -l)" -eq 6 ]
	grep -qx "$(printf 'box\t0\t0\t1\t0.5')" "$TMP/want"
	phys-sdf print -q "$TMP/colours.xml" > "$TMP/colours.sdf"
	xmllint --noout "$TMP/colours.sdf"
	# SDF's readers draw visuals: the box and the floor have a twin, the
	# hull in group 3 (which MuJoCo's viewer hides) none
	[ "$(xmllint --xpath 'count(//link[@name="b"]/visual)' "$TMP/colours.sdf")" = 5 ]
	[ "$(xmllint --xpath 'count(//visual[@name="hull"])' "$TMP/colours.sdf")" = 0 ]
	[ "$(xmllint --xpath 'string(//visual[@name="box"]/material/diffuse)' "$TMP/colours.sdf")" = "0 0 1 0.5" ]
	[ "$(xmllint --xpath 'string(//visual[@name="box"]/transparency)' "$TMP/colours.sdf")" = 0.5 ]
	[ "$(xmllint --xpath 'string(//visual[@name="floor"]/material/diffuse)' "$TMP/colours.sdf")" = "1 0 0 1" ]
	# no geom twice: as many as the source's
	phys-sdf print -q --format mjcf "$TMP/colours.xml" > "$TMP/direct.xml"
	phys-sdf print -q --format mjcf "$TMP/colours.sdf" > "$TMP/through.xml"
	for f in direct through; do
		colours "$TMP/$f.xml" > "$TMP/got"
		diff "$TMP/want" "$TMP/got"
	done
	# a material of no such name is MuJoCo's error, at the geom's line
	sed 's/material="blue"/material="cyan"/' "$TMP/colours.xml" > "$TMP/bad.xml"
	run -1 print_oracle "$TMP/bad.xml"
	[[ "$output" == *"material 'cyan' not found"* ]]
	run -1 phys-step -n 0 "$TMP/bad.xml"
	[ "$output" = "phys-step: $TMP/bad.xml:14: material 'cyan' not found" ]
}

# body_agrees SRC MODEL BODY...: each body's frame over 1.5 s, every 150th
# step of 1 ms (SRC's gravity and step SDF's default world's, as an SDF
# model is printed without one), under phys's MuJoCo engine and in libmujoco's runs of SRC printed
# as MJCF directly and through SDF, is libmujoco's run of SRC, to 1e-9.
body_agrees() {
	local src=$1 model=$2 b f
	shift 2
	phys-sdf print -q --format mjcf "$src" > "$TMP/direct.xml"
	phys-sdf print -q "$src" > "$TMP/via.sdf"
	phys-sdf print -q --format mjcf "$TMP/via.sdf" > "$TMP/through.xml"
	for b in "$@"; do
		print_oracle "$src" run 1.5 "$b" | awk 'NR % 150 == 0 { print $2, $3, $4 }' > "$TMP/want"
		[ "$(wc -l < "$TMP/want")" -eq 10 ]
		phys-step -q -p mujoco -t 1.5 -e 150 -i "$model::$b/pose" "$src" |
		    jq -r 'select(.t > 0) | .items[] | "\(.x) \(.y) \(.z)"' > "$TMP/got"
		lines_agree "$TMP/want" "$TMP/got" 1e-9
		for f in direct through; do
			print_oracle "$TMP/$f.xml" run 1.5 "$b" | awk 'NR % 150 == 0 { print $2, $3, $4 }' > "$TMP/got"
			lines_agree "$TMP/want" "$TMP/got" 1e-9
		done
	done
}

# taut_holds ENGINE: tests/data/mjcf/taut.xml's wheel a turned by 1 N m,
# then by -1, under ENGINE: at t = 1 s, each wheel where the closed form
# of the pair puts it, within 0.2% of a's turn, and the tendon at its
# bound. Alone, a turns at 1/0.2 rad/s^2 until the tendon's length
# q0 - 2 q1 reaches 0.5 (t* = sqrt(0.2) s); drawing taut takes a third
# of its rate (the pair's momentum along the tendon, whose rate ends at
# 0); then both turn as one of 0.2 + 0.4 / 4 kg m^2, b at half a's rate.
taut_holds() {
	local s want got
	phys-sdf world -o "$TMP/taut.sdf" "$BATS_TEST_DIRNAME/data/mjcf/taut.xml"
	for s in 1 -1; do
		echo "{\"t\":0,\"name\":\"taut::j0/cmd_force\",\"value\":$s}" > "$TMP/turn.jsonl"
		got=$(phys-step -q -p "$1" -t 1 -e 1000 \
		    -c "$TMP/turn.jsonl" -i 'taut::j?/position' -i 'taut::t/length' \
		    "$(profile_world "$TMP/taut.sdf" "$1")" |
		    jq -r 'select(.t == 1) | .items | [.["taut::j0/position"][0],
		    .["taut::j1/position"][0], .["taut::t/length"]] | @tsv')
		want=$(awk -v s="$s" 'BEGIN { ts = sqrt(0.2); w = ts / 0.2 * 2 / 3
		    d = 1 - ts; q0 = 0.5 + w * d + d * d / 0.6
		    printf "%.12g\t%.12g\t%.12g", s * q0, s * (q0 - 0.5) / 2, s * 0.5 }')
		echo "$1, $s: got $got, want $want"
		awk -v g="$got" -v w="$want" 'BEGIN { split(g, a, "\t"); split(w, b, "\t")
		    tol = 0.002 * (b[1] < 0 ? -b[1] : b[1])
		    for (i = 1; i <= 2; i++) if ((a[i] - b[i]) ^ 2 > tol ^ 2) exit 1
		    exit (a[3] - b[3]) ^ 2 > 1e-6 }' || fail "$1: not the closed form"
	done
}

@test "a limited fixed tendon holds under every engine: two wheels it joins, one turned by a torque either way, move once it draws taut as the closed form of the pair says, within 0.2%, its length at the bound" {
	each_engine taut_holds
}

@test "limited tendons (a rope of two sites from the world and from an arm, dm_control's ball_in_cup's; a fixed one across two joints, one of a ref, MuJoCo's humanoid's hamstring) hold as libmujoco holds them under phys's MuJoCo engine, to 1e-9, and printed back, directly or through SDF; the other engines refuse the rope at the tendon's line; such a model's default profile is MuJoCo's" {
	local mj="$BATS_TEST_DIRNAME/data/mjcf"
	body_agrees "$mj/rope.xml" rope ball bob
	# the strings are taut at the end: 0.3 m from the hook, 0.25 from
	# the arm's tip (the margin's 0.01 inside)
	print_oracle "$mj/rope.xml" run 1.5 ball | tail -1 |
	    awk '{ d = sqrt($2 ^ 2 + $3 ^ 2 + ($4 - 1) ^ 2); exit !(d > 0.29 && d < 0.31) }'
	# its length, an item: the ball's distance from the hook in
	# libmujoco's run
	# (the model's default profile: MuJoCo's, as it has a limited tendon)
	phys-step -q -t 1.5 -e 150 -i 'rope::string/length' "$mj/rope.xml" |
	    jq -r 'select(.t > 0) | .items[]' > "$TMP/got"
	print_oracle "$mj/rope.xml" run 1.5 ball |
	    awk 'NR % 150 == 0 { printf "%.17g\n", sqrt($2 ^ 2 + $3 ^ 2 + ($4 - 1) ^ 2) }' > "$TMP/want"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	moves_as_mujoco "$mj/hamstring.xml" hamstring bent hip:11.459155902616464 knee
	# its range from qpos0 (the ref), back and forth in floating point
	grep -Eq '<fixed name="hamstring" limited="true" range="-0.30*[0-9]? 0.9" solreflimit="0.03 1.2"' "$TMP/out.xml"
	# it holds: hip and knee end where the tendon, not gravity, stops them
	print_oracle "$mj/hamstring.xml" run 1 hip bent > "$TMP/hip"
	print_oracle "$mj/hamstring.xml" run 1 knee bent > "$TMP/knee"
	paste "$TMP/hip" "$TMP/knee" | awk '{ l = 0.5 * $2 - 0.5 * $4; if (l > m) m = l } END { exit !(m > 0.9 && m < 0.95) }'
	run -1 phys-step -q -p default_physics -n 1 "$mj/rope.xml"
	[ "$output" = "phys-step: $mj/rope.xml:29: tendon 'rope::string': a limited tendon between two points, which ODE cannot hold: phys's MuJoCo engine holds it (-p mujoco)" ]
	run -1 phys-step -q -p dart -n 1 "$mj/rope.xml"
	[[ "$output" == *"rope.xml:29: tendon 'rope::string': a limited tendon between two points, which DART cannot hold"* ]]
	# written by hand in SDF: a fault at its line, and one in the world,
	# not a model, is said not to be read
	cat > "$TMP/hand.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9" xmlns:phys="urn:phys:mjcf"><world name="w">
<phys:tendon name="t"><phys:range>0 1</phys:range></phys:tendon>
<model name="m"><link name="a"/><link name="b"><pose>1 0 0 0 0 0</pose></link>
<phys:tendon name="r"><phys:end link="a">0 0 0</phys:end><phys:end link="c">0 0 0</phys:end><phys:range>0 1</phys:range></phys:tendon>
</model></world></sdf>
SDF
	run -1 phys-step -q -p mujoco -n 0 "$TMP/hand.sdf"
	[ "$output" = "phys-step: $TMP/hand.sdf:5: <phys:end>: no link named 'c' in this model" ]
	sed -i 's/link="c"/link="b"/' "$TMP/hand.sdf"
	run -0 --separate-stderr phys-step -p mujoco -n 0 "$TMP/hand.sdf"
	assert_equal "${stderr_lines[0]}" "phys-step: $TMP/hand.sdf:3: <phys:tendon> is a model's: one of the world is not read"
	# a rope that wraps a geom is not read
	sed 's|<site site="hook"/>|&<geom geom="x"/>|' "$mj/rope.xml" > "$TMP/wrap.xml"
	run -1 phys-step -q -p mujoco -n 1 "$TMP/wrap.xml"
	[[ "$output" == *"wrap.xml:30: tendon 'string': a limited spatial tendon of two sites is read; one of more, or wrapped about a geom, or over a pulley, is not"* ]]
}

@test "a URDF robot's package:// mesh is found as phys reads it and referenced from the printed file, which MuJoCo loads: the mesh at its scale, the floating base free" {
	need_oracle
	mkdir -p "$TMP/ros/rover_description/meshes" "$TMP/out"
	# rover_description's meshes/chassis.stl: a unit cube, binary STL
	python3 - "$TMP/ros/rover_description/meshes/chassis.stl" <<'PY'
import struct, sys
v = [(x, y, z) for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)]
f = [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 1, 5), (0, 5, 4),
     (2, 6, 7), (2, 7, 3), (0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5)]
with open(sys.argv[1], 'wb') as o:
    o.write(b'\0' * 80 + struct.pack('<I', len(f)))
    for t in f:
        o.write(struct.pack('<3f', 0, 0, 0))
        for i in t:
            o.write(struct.pack('<3f', *v[i]))
        o.write(b'\0\0')
PY
	ROS_PACKAGE_PATH="$TMP/ros" phys-sdf print --format mjcf -o "$TMP/out/rover.xml" "$WORLDS/robots/rover.urdf"
	grep -q 'file="../ros/rover_description/meshes/chassis.stl" scale="0.6 0.4 0.1"' "$TMP/out/rover.xml"
	print_oracle "$TMP/out/rover.xml" > "$TMP/mujoco"
	# MuJoCo's mesh geom: the half sides of its box of inertia, sorted
	[ "$(printed geom chassis_collision '.size | map(. * 1e6 | round) | join(" ")')" = "50000 200000 300000" ]
	[ "$(jq -s '[.[] | select(.type == "free")] | length' "$TMP/mujoco")" = 1 ]
	"$BATS_FILE_TMPDIR/oracle" "$WORLDS/robots/rover.urdf" > "$TMP/sdformat"
	python3 "$BATS_TEST_DIRNAME/data/mjcf_compare.py" "$TMP/sdformat" "$TMP/mujoco"
}
