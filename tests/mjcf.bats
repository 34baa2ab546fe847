#!/usr/bin/env bats
# MJCF models, read as MuJoCo 2.2.2 compiles them: the models of
# tests/data/mjcf/ compared with what Debian's libmujoco makes of them
# (tests/data/mujoco_oracle.c, built here; phys itself never links it):
# every body's world pose at qpos0, mass, centre of mass and inertia in
# world axes, and each joint's axis, limits and dynamics, to 1e-6.

load helper
bats_require_minimum_version 1.5.0

MJ="$BATS_TEST_DIRNAME/data/mjcf"

setup_file() {
	if [ -e /usr/include/mujoco/mujoco.h ]; then
		cc -O0 -o "$BATS_FILE_TMPDIR/oracle" \
		    "$BATS_TEST_DIRNAME/data/mujoco_oracle.c" -lmujoco -lm
		cc -O2 -o "$BATS_FILE_TMPDIR/run" \
		    "$BATS_TEST_DIRNAME/data/mujoco_print_oracle.c" -lmujoco -lm
	fi
}

need_mujoco() {
	[ -x "$BATS_FILE_TMPDIR/oracle" ] || skip "no libmujoco (libmujoco-dev) to compare with"
}

# Body facts, one a line, the same words for both sides:
#   NAME x y z R11 .. R33 mass cx cy cz Ixx Iyy Izz Ixy Ixz Iyz
# (R the body's rotation, c the centre of mass, I about it in world axes).
oracle_bodies() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | awk '$1 == "body" {
		w = $7; x = $8; y = $9; z = $10
		printf "%s %.12g %.12g %.12g", $2, $4, $5, $6
		printf " %.12g %.12g %.12g", 1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y)
		printf " %.12g %.12g %.12g", 2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x)
		printf " %.12g %.12g %.12g", 2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)
		for (i = 11; i <= 20; i++) printf " %.12g", $i
		printf "\n" }' | sort
}

phys_bodies() {
	phys-step -q -n 0 -i '*/pose' -i '*/inertial_pose' -i '*/mass' \
	    -i '*/inertia' "$1" | jq -r '.items as $i | $i | keys[] |
	    select(endswith("/mass")) | rtrimstr("/mass") as $l |
	    ($i[$l + "/pose"]) as $p | ($i[$l + "/inertial_pose"]) as $c |
	    ($i[$l + "/inertia"]) as $t |
	    [($l | sub(".*::"; "")), $p.x, $p.y, $p.z, $p.roll, $p.pitch, $p.yaw,
	     $i[$l + "/mass"], $c.x, $c.y, $c.z, $c.roll, $c.pitch, $c.yaw,
	     $t.ixx, $t.iyy, $t.izz, $t.ixy, $t.ixz, $t.iyz] | map(tostring) |
	    join(" ")' | awk '
	function rot(r, p, y) {	# R = Rz(y) Ry(p) Rx(r), into M
		M[1,1] = cos(y)*cos(p); M[1,2] = cos(y)*sin(p)*sin(r) - sin(y)*cos(r)
		M[1,3] = cos(y)*sin(p)*cos(r) + sin(y)*sin(r)
		M[2,1] = sin(y)*cos(p); M[2,2] = sin(y)*sin(p)*sin(r) + cos(y)*cos(r)
		M[2,3] = sin(y)*sin(p)*cos(r) - cos(y)*sin(r)
		M[3,1] = -sin(p); M[3,2] = cos(p)*sin(r); M[3,3] = cos(p)*cos(r)
	}
	{
		printf "%s %.12g %.12g %.12g", $1, $2, $3, $4
		rot($5, $6, $7)
		for (i = 1; i <= 3; i++) for (j = 1; j <= 3; j++) printf " %.12g", M[i,j]
		printf " %.12g %.12g %.12g %.12g", $8, $9, $10, $11
		rot($12, $13, $14)
		I[1,1] = $15; I[2,2] = $16; I[3,3] = $17
		I[1,2] = I[2,1] = $18; I[1,3] = I[3,1] = $19; I[2,3] = I[3,2] = $20
		for (i = 1; i <= 3; i++) for (j = 1; j <= 3; j++) {
			W[i,j] = 0
			for (k = 1; k <= 3; k++) for (l = 1; l <= 3; l++)
				W[i,j] += M[i,k] * I[k,l] * M[j,l]
		}
		printf " %.12g %.12g %.12g %.12g %.12g %.12g\n", W[1,1], W[2,2],
		    W[3,3], W[1,2], W[1,3], W[2,3]
	}' | grep -v '^worldbody ' | sort
}

# Joint facts: NAME ax ay az [lower upper] damping friction stiffness
# springref armature, limits and the spring's reference measured from
# qpos0 (phys measures a joint from where it is built); free joints have
# none in SDF; ball joints NAME [largest turn] damping friction stiffness
# armature.
oracle_joints() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | awk '$1 == "joint" && $4 != "free" {
		if ($4 == "ball") {
			printf "%s", $2
			if ($10) printf " %.12g", $9
			printf " %.12g %.12g %.12g %.12g\n", $11, $15, $12, $14
			next
		}
		printf "%s %.12g %.12g %.12g", $2, $5, $6, $7
		if ($10) printf " %.12g %.12g", $8 - $16, $9 - $16
		printf " %.12g %.12g %.12g %.12g", $11, $15, $12, $13 - $16
		printf " %.12g\n", $14 }' | sort
}

# typed FILE TYPE: the names of the joints of that type.
typed() {
	phys-sdf print "$1" 2>/dev/null |
	    sed -n 's/.*<joint name="\([^"]*\)" type="'"$2"'".*/\1/p' |
	    jq -Rsc 'split("\n")'
}

phys_joints() {
	phys-param list "$1" 2>/dev/null | jq -rs --argjson fixed "$(typed "$1" fixed)" \
	    --argjson ball "$(typed "$1" ball)" '
	    map(select(.name | test("/(axis\\.(xyz|limit\\.lower|limit\\.upper|dynamics\\.(damping|friction|spring_stiffness|spring_reference))|physics\\.mujoco\\.armature)$")))
	    | group_by(.name | sub("/.*"; "")) | .[] |
	    (map({(.name | sub(".*/"; "")): .value}) | add) as $v |
	    (.[0].name | sub("/.*"; "") | sub(".*::"; "")) as $n |
	    select(($fixed | index($n)) | not) |
	    if ($ball | index($n)) then
	    [$n] + (if $v["axis.limit.upper"] < 1e16 then [$v["axis.limit.upper"]]
	        else [] end) + [$v["axis.dynamics.damping"],
	        $v["axis.dynamics.friction"], $v["axis.dynamics.spring_stiffness"],
	        $v["physics.mujoco.armature"]] | map(tostring) | join(" ") else
	    [$n] + (if $v["axis.xyz"] then [$v["axis.xyz"].x, $v["axis.xyz"].y, $v["axis.xyz"].z]
	        else [0, 0, 1] end) +
	    (if $v["axis.limit.lower"] and $v["axis.limit.lower"] > -1e16 then
	        [$v["axis.limit.lower"], $v["axis.limit.upper"]] else [] end) +
	    (if $v["axis.xyz"] then [$v["axis.dynamics.damping"],
	        $v["axis.dynamics.friction"], $v["axis.dynamics.spring_stiffness"],
	        $v["axis.dynamics.spring_reference"]] else [] end) +
	    [$v["physics.mujoco.armature"]] | map(tostring) | join(" ") end' |
	    awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %.12g", $i
	        printf "\n" }' | sort
}

# agree WANT GOT: the same names, every number within 1e-6.
agree() {
	awk 'NR == FNR { want[$1] = $0; next }
	{
		if (!($1 in want)) { print "phys has " $1 " that MuJoCo has not"; bad = 1; next }
		n = split(want[$1], w, " ")
		if (n != NF) { print $1 ": " NF " fields, not " n; bad = 1 }
		for (i = 2; i <= NF && i <= n; i++) {
			d = $i - w[i]; if (d < 0) d = -d
			if (d > 1e-6) { printf "%s field %d: %s, MuJoCo %s\n", $1, i, $i, w[i]; bad = 1 }
		}
		seen[$1] = 1
	}
	END {
		for (k in want) if (!(k in seen)) { print "MuJoCo has " k " that phys has not"; bad = 1 }
		exit bad
	}' "$1" "$2"
}

# same_as_mujoco MODEL [LINK...]: bodies and joints as MuJoCo compiles
# them; the LINKs, phys's own between two joints of one body, aside.
# SAME_AS=FILE compares FILE, made from MODEL, instead.
same_as_mujoco() {
	local m="$1" f="${SAME_AS:-$1}"
	shift
	oracle_bodies "$m" > "$TMP/want"
	phys_bodies "$f" | awk -v extra=" $* " 'index(extra, " " $1 " ") == 0' > "$TMP/got"
	[ -s "$TMP/want" ]
	agree "$TMP/want" "$TMP/got"
	oracle_joints "$m" > "$TMP/want"
	phys_joints "$f" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
}

@test "mjcf: the body tree, poses, defaults and inertia from geoms are MuJoCo's" {
	need_mujoco
	same_as_mujoco "$MJ/tree.xml"
}

@test "mjcf: inertiafromgeom=\"false\": a body's <inertial> alone, its geoms' mass ignored, a body without one of no mass, as MuJoCo compiles it" {
	need_mujoco
	cat > "$TMP/iff.xml" <<-EOF
	<mujoco model="iff">
	  <compiler inertiafromgeom="false" meshdir="$MJ/meshes"/>
	  <asset><mesh name="w" file="wedge.obj"/></asset>
	  <worldbody>
	    <body name="a" pos="0 0 1">
	      <joint name="j" axis="0 1 0"/>
	      <inertial pos="0.1 0 0" mass="2" diaginertia="0.1 0.2 0.3"/>
	      <geom type="mesh" mesh="w" density="700"/>
	      <body name="b" pos="0.3 0 0">
	        <geom type="box" size="0.3 0.1 0.1"/>
	      </body>
	    </body>
	  </worldbody>
	</mujoco>
	EOF
	same_as_mujoco "$TMP/iff.xml"
}

@test "mjcf: angles in radians, eulerseq, every orientation form and fromto" {
	need_mujoco
	same_as_mujoco "$MJ/radian.xml"
}

@test "mjcf: fusestatic: bodies without joints are part of those they are welded to, the world's too, as MuJoCo fuses them; none in a model with an actuator" {
	need_mujoco
	same_as_mujoco "$MJ/fusestatic.xml"
	# MuJoCo 2.2.2 leaves them all alone where an element names others
	sed 's|</worldbody>|&<actuator><motor joint="shoulder"/></actuator>|' \
	    "$MJ/fusestatic.xml" > "$TMP/held.xml"
	same_as_mujoco "$TMP/held.xml"
	run phys-step -n 0 "$TMP/held.xml"
	[[ "$output" == *"held.xml:44: <motor>: fusestatic is left undone"* ]]
}

@test "mjcf: a mocap body is a kinematic link: a ball rests on it, and goes down with it when a control line moves it, under each engine" {
	cat > "$TMP/m.xml" <<-EOF
	<mujoco model="m"><worldbody>
	<body name="target" mocap="true" pos="0 0 1"><geom type="box" size="0.1 0.1 0.1"/></body>
	<body name="ball" pos="0 0 1.5"><freejoint/><geom size="0.1"/></body>
	</worldbody></mujoco>
	EOF
	phys-sdf world "$TMP/m.xml" > "$TMP/m.sdf"
	local e f z
	for e in bullet dart simbody; do
		phys-preset add --engine $e $e "$TMP/m.sdf" > "$TMP/m.$e.sdf"
	done
	echo '{"t":1,"name":"m::target/pose","value":{"x":0,"y":0,"z":0.6,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/ctl"
	for e in default_physics mujoco bullet dart simbody; do
		f=$TMP/m.$e.sdf
		[ -e "$f" ] || f=$TMP/m.xml
		phys-step -q -p $e -t 2 -r 10 -c "$TMP/ctl" -i 'm::ball/pose' "$f" > "$TMP/out"
		# on the box's top at 1.1, then at 0.7: the ball's centre 0.1 above
		z=$(jq -r 'select(.t == 1) | .items["m::ball/pose"].z' "$TMP/out")
		near "$z" 1.2 0.002 || fail "$e: z $z at t=1"
		z=$(tail -1 "$TMP/out" | jq '.items["m::ball/pose"].z')
		near "$z" 0.8 0.002 || fail "$e: z $z at t=2"
	done
	# as MuJoCo 2.2.2, none below another body or with joints
	sed 's|<geom type="box"|<joint/>&|' "$TMP/m.xml" > "$TMP/j.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/j.xml"
	assert_equal "$stderr" "phys-step: $TMP/j.xml:2: mocap body 'target': a mocap body is a child of the world without joints"
}

@test "mjcf: boundmass, boundinertia, balanceinertia, settotalmass and discardvisual" {
	need_mujoco
	same_as_mujoco "$MJ/compiler.xml"
}

@test "mjcf: inertiafromgeom=\"true\" and inertiagrouprange" {
	need_mujoco
	same_as_mujoco "$MJ/fromgeom.xml"
}

@test "mjcf: several joints on one body, through links of their own between them" {
	need_mujoco
	same_as_mujoco "$MJ/planar.xml" torso_rootx torso_rootz thigh_hip
}

@test "mjcf: a body, its joint and its site may share a name, as in dm_control's models: in phys the joint is NAME_joint and the site NAME_frame (then a number while taken), as libsdformat renames them, said once a kind; an edit of the renamed joint is written to the MJCF's" {
	need_mujoco
	oracle_bodies "$MJ/names.xml" > "$TMP/want"
	phys_bodies "$MJ/names.xml" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	# a site is named thigh_joint: the joint thigh takes thigh_joint0
	oracle_joints "$MJ/names.xml" | sed 's/^thigh /thigh_joint0 /' | sort > "$TMP/want"
	phys_joints "$MJ/names.xml" > "$TMP/got"
	[ "$(wc -l < "$TMP/want")" = 2 ]
	agree "$TMP/want" "$TMP/got"
	run -0 --separate-stderr phys-sdf print "$MJ/names.xml"
	frames=$(printf '%s\n' "$output" | sed -n 's/.*<frame name="\([^"]*\)" attached_to="\([^"]*\)".*/\1@\2/p' | sort | tr '\n' ' ')
	assert_equal "$frames" "knee_frame@shin thigh_frame@thigh thigh_joint@thigh torso_frame@torso "
	run -0 --separate-stderr phys-step -n 0 "$MJ/names.xml"
	[[ "$stderr" == *"names.xml:14: joint 'thigh' is named 'thigh_joint0' in phys: it shares its name with a body (MJCF keeps a namespace for each kind, SDF one for a model's links, joints and frames)"$'\n'* ]]
	[[ "$stderr" == *"names.xml:11: site 'torso' is named 'torso_frame' in phys: it shares its name with a body or joint (MJCF keeps a namespace for each kind, SDF one for a model's links, joints and frames); 2 more sites likewise"* ]]
	[[ "$stderr" == *"names.xml:26: <tendon>: tendons are not read (but as an equality couples their joints, an actuator pulls a fixed one, a fixed one is a spring or damper, or one is limited): none of the others has friction loss, so the model moves as without them"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c 'is named')" = 2 ]
	cp "$MJ/names.xml" "$TMP/e.xml"
	phys-param set -q --in-place 'names::thigh_joint0/axis.dynamics.damping=2' "$TMP/e.xml"
	run diff "$MJ/names.xml" "$TMP/e.xml"
	assert_equal "$output" '14c14
<         <joint name="thigh" axis="0 1 0" range="-1 1" damping="0.5"/>
---
>         <joint name="thigh" axis="0 1 0" range="-1 1" damping="2"/>'
}

@test "mjcf: a leg hung from three hip joints, as dm_control's humanoids have it, hangs at its hip in the profile an MJCF model starts in (ODE's world solver) and under MuJoCo" {
	local p
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 3 -i 'hip::shin/pose' -i 'hip::foot/pose' "$MJ/hip.xml" | tail -1 > "$TMP/out"
		# straight down from the hip at 0.96: the knee 0.403 and the
		# ankle 0.39 below (ODE's quick solver sagged 6.5 cm)
		near "$(jq '.items["hip::shin/pose"].z' "$TMP/out")" 0.557 1e-3
		near "$(jq '.items["hip::foot/pose"].z' "$TMP/out")" 0.167 1e-3
	done
}

# edit_refused SOURCE SED LINE WANT: SOURCE edited by the sed script SED
# is refused by phys-step at LINE with WANT.
edit_refused() {
	sed "$2" "$1" > "$TMP/edited.xml"
	run -1 phys-step -q -n 1 "$TMP/edited.xml"
	assert_equal "$output" "phys-step: $TMP/edited.xml:$3: $4"
}

# mjcf_boxes N: an MJCF model of N free boxes 0.1 m high, dropped from 2 cm
# above the floor, 1 m apart.
mjcf_boxes() {
	local i
	{
		echo '<mujoco model="boxes"><worldbody><geom type="plane" size="5 5 0.1"/>'
		for i in $(seq "$1"); do
			echo "<body name=\"b$i\" pos=\"$i 0 0.07\"><freejoint/><geom type=\"box\" size=\"0.05 0.05 0.05\"/></body>"
		done
		echo '</worldbody></mujoco>'
	}
}

@test "mjcf: the profile an MJCF model starts in solves with ODE's world solver up to 32 degrees of freedom and its quick one beyond (the world solver's work grows as the cube of the constraints: Menagerie's G1 with hands took 22 s a simulated second); boxes come to rest on the floor under either" {
	local n solver
	for n in 5 6; do
		mjcf_boxes "$n" > "$TMP/boxes$n.xml"
		solver=$(phys-param get -q ode.solver.type "$TMP/boxes$n.xml" | jq -r .value)
		if [ "$n" = 5 ]; then assert_equal "$solver" world; else assert_equal "$solver" quick; fi
		phys-step -q -t 1 -r 1 -i 'boxes::b?/pose' "$TMP/boxes$n.xml" | tail -1 > "$TMP/out"
		# each at rest on the floor: its centre half its height up
		[ "$(jq '[.items[] | .z] | length' "$TMP/out")" = "$n" ]
		[ "$(jq '[.items[] | .z - 0.05 | fabs] | max < 1e-3' "$TMP/out")" = true ]
	done
}

@test "mjcf: a second top-level <default> (an included file's, then the model's) is more of main, for the elements and the classes read after it, not those read before, as MuJoCo reads it" {
	need_mujoco
	same_as_mujoco "$MJ/defaults.xml"
}

@test "mjcf: <include> of another MJCF file" {
	need_mujoco
	same_as_mujoco "$MJ/include.xml"
}

# swing ENGINE: the MJCF pendulum, included by an SDF world, swings with
# the period of its closed form, 2 pi sqrt(I / (m g d)) (1 + a^2 / 16).
swing() {
	local w
	w=$(profile_world "$TMP/world.sdf" "$1")
	phys-step -q -p "$1" -t 6 -i 'pendulum::bob/pose' "$w" > "$TMP/run"
	rel "$(series "$TMP/run" pendulum::bob/pose roll | period -0.1)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(1.001 / 9.81) * (1 + 0.01 / 16) }')" 0.01
}

# including MODEL WORLD: WORLD written, an SDF world of the Earth's
# gravity holding MODEL by <include>.
including() {
	cat > "$2" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
	<include><uri>$1</uri></include></world></sdf>
	EOF
}

# lifted ENGINE: $TMP/lift.sdf's car, pulled through a tendon of
# coefficient 2 by a servo of kp 100 (2 kp (u - 2 q) = m g; stiffness
# 4 kp, damping ratio 0.5), rests for the key's control, then for the
# one $TMP/ctl gives at t=2.
lifted() {
	phys-step -q -p "$1" -t 4 -r 1 --keyframe k -c "$TMP/ctl" -i 'lift::up/position' \
	    "$(profile_world "$TMP/lift.sdf" "$1")" > "$TMP/out"
	near "$(jq -r 'select(.t == 2) | .items[] | .[0]' "$TMP/out")" \
	    "$(awk 'BEGIN { print (0.5 - 9.81 / 200) / 2 }')" 1e-4
	near "$(tail -1 "$TMP/out" | jq '.items[] | .[0]')" \
	    "$(awk 'BEGIN { print (0.3 - 9.81 / 200) / 2 }')" 1e-4
}

@test "mjcf: an actuator of a fixed tendon holds its joints where its force meets the load: a 1 kg car on a slide of coefficient 2 pulled by a position servo of kp 100 rests at (u - m g / (2 kp)) / 2, for the key's control and one a control line gives, under each engine" {
	cat > "$TMP/lift.xml" <<-EOF
	<mujoco model="lift">
	  <option timestep="0.001"/>
	  <worldbody>
	    <body name="car" pos="0 0 1">
	      <joint name="up" type="slide" axis="0 0 1" damping="20"/>
	      <geom type="box" size="0.05 0.05 0.05" mass="1" contype="0" conaffinity="0"/>
	    </body>
	  </worldbody>
	  <tendon><fixed name="rope"><joint joint="up" coef="2"/></fixed></tendon>
	  <actuator><position name="lift" tendon="rope" kp="100"/></actuator>
	  <keyframe><key name="k" ctrl="0.5"/></keyframe>
	</mujoco>
	EOF
	phys-sdf world "$TMP/lift.xml" > "$TMP/lift.sdf"
	echo '{"t":2,"topic":"/model/lift/tendon/rope/cmd","msg":{"data":0.3}}' > "$TMP/ctl"
	each_engine lifted
	# what phys does not read is said where it is, and the model runs
	# without it: a second actuator of the joint, and one of a muscle
	sed -e 's|</actuator>|<motor name="more" joint="up"/><general tendon="rope" gaintype="muscle"/>&|' \
	    -e 's|ctrl="0.5"|ctrl="0.5 0 0"|' "$TMP/lift.xml" > "$TMP/more.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/more.xml"
	[[ "$stderr" == *"more.xml:10: <motor>: not read: a joint it drives is driven by an actuator before it that gz-sim's joint systems cannot add to: the model runs without it"* ]]
	[[ "$stderr" == *"more.xml:10: <general>: not read (phys reads motor, position, velocity, intvelocity, cylinder and general actuators of fixed gain and affine bias, of a joint, a fixed tendon or a site): the model runs without it"* ]]
}

# pid_held ENGINE: pid.xml's five sliders (tests/data/mjcf/pid.xml) under
# ENGINE, c, d and e sent a new target at t = 0.1.
pid_held() {
	phys-step -q -p "$1" -t 20 -r 10 -c "$TMP/ctl" -i 'pid::*/position' \
	    "$(profile_world "$TMP/pid.sdf" "$1")" > "$TMP/out"
	at() {
		jq -r --arg t "$1" --arg j "pid::$2/position" \
		    'select(.t == ($t | tonumber)) | .items[$j][0]' "$TMP/out"
	}
	# the weight m g less what the integral term may give, imax = 5 N,
	# on the P term: (9.81 - 5) / kp below the target; free, none
	near "$(at 20 ja)" "$(awk 'BEGIN { print -(9.81 - 5) / 100 }')" 1e-6
	near "$(at 20 jb)" 0 1e-5
	# the step to 1 slewed to 0.5 m/s from t = 0.1: a ramp, followed
	# kd v / kp = 0.05 m behind once the start has died away (e^-20 a
	# second), then held at 1
	near "$(at 1.1 jc)" "$(awk 'BEGIN { print 0.5 * 1 - 40 * 0.5 / 400 }')" 1e-3
	near "$(at 3.5 jc)" 1 1e-4
	# kp (1 - x) far beyond the range: pushed at 0.53 N one way, 0.9 N
	# the other, x = a t^2 / 2 over 0.5 s
	rel "$(at 0.6 jd)" "$(awk 'BEGIN { print 0.53 * 0.25 / 2 }')" 0.005
	rel "$(at 0.6 je)" "$(awk 'BEGIN { print -0.9 * 0.25 / 2 }')" 0.005
}

@test "mjcf: MuJoCo's pid actuator (mujoco.pid): its integral held to imax leaves part of a weight on its P term, free it bears it all; slewmax makes a step of the control a ramp, followed kd v / kp behind; an asymmetric forcerange bounds its push each way; under each engine" {
	phys-sdf world "$MJ/pid.xml" > "$TMP/pid.sdf"
	cat > "$TMP/ctl" <<-EOF
	{"t":0.1,"topic":"/model/pid/joint/jc/0/cmd_pos","msg":{"data":1}}
	{"t":0.1,"topic":"/model/pid/joint/jd/0/cmd_pos","msg":{"data":1}}
	{"t":0.1,"topic":"/model/pid/joint/je/0/cmd_pos","msg":{"data":-1}}
	EOF
	each_engine pid_held
	# phys-sdf check reads it; MJCF out says what MuJoCo 2.2.2 cannot
	# hold of it
	phys-sdf check "$MJ/pid.xml" > /dev/null
	run --separate-stderr phys-sdf print --format mjcf "$MJ/pid.xml"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"pid.xml:37: the servo of joint 'pid::jc': its slew limit, 0.5, is not written"* ]]
	# what MuJoCo refuses, and plugins phys does not read, at their line
	sed 's/instance="free" joint="jb" actdim="1"/instance="free" joint="jb"/' "$MJ/pid.xml" > "$TMP/bad.xml"
	run --separate-stderr phys-step -q -n 0 "$TMP/bad.xml"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"bad.xml:36: actuator has actdim 0, expected 1: MuJoCo refuses it"* ]]
	sed 's/<plugin plugin="mujoco.pid">/<plugin plugin="mujoco.elasticity.cable">/' "$MJ/pid.xml" > "$TMP/bad.xml"
	run --separate-stderr phys-step -q -n 0 "$TMP/bad.xml"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"bad.xml:8: plugin 'mujoco.elasticity.cable' is not read"* ]]
	run phys-sdf check "$TMP/bad.xml"
	[ "$status" -eq 1 ]
	sed 's/value="5"/value="-5"/' "$MJ/pid.xml" > "$TMP/bad.xml"
	run --separate-stderr phys-step -q -n 0 "$TMP/bad.xml"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"negative imax"* ]]
}

# on_hull ENGINE: the ball of $MJ/channel.xml at rest on the channel's
# convex hull, 0.5 m up, not in its slot (0.2 m up); Simbody's contact
# damped (its default dissipation bounces the ball for seconds).
on_hull() {
	phys-sdf world "$MJ/channel.xml" > "$TMP/ch.sdf"
	sed -i 's|</world>|<physics name="s" type="simbody"><simbody><contact><dissipation>2</dissipation></contact></simbody></physics>&|' "$TMP/ch.sdf"
	local p=$1
	[ "$p" = simbody ] && p=s
	phys-step -q -p "$p" -t 2 -r 1 -i 'channel::ball/pose' \
	    "$(profile_world "$TMP/ch.sdf" "$p")" > "$TMP/out"
	near "$(tail -1 "$TMP/out" | jq '.items[].z')" 0.6 0.002
}

@test "mjcf: a mesh geom collides as its convex hull, as MuJoCo collides it (SDF 1.11's optimization=\"convex_hull\"), under each engine" {
	phys-sdf print "$MJ/channel.xml" > "$TMP/ch.sdf"
	grep -q '<sdf xmlns:phys="urn:phys:mjcf" version="1.11">' "$TMP/ch.sdf"
	grep -q '<mesh optimization="convex_hull">' "$TMP/ch.sdf"
	each_engine on_hull
}

@test "mjcf: a MuJoCo pendulum included in an SDF world swings with its closed-form period under each engine" {
	including "$MJ/pendulum.xml" "$TMP/world.sdf"
	each_engine swing
}

@test "mjcf: every command reads an MJCF model, by path and on standard input" {
	local m="$MJ/pendulum.xml"
	phys-step -q -n 2 -i 'pendulum::bob/pose' "$m" | tail -1 | jq -e '.iter == 2'
	phys-step -q -n 2 -i 'pendulum::bob/pose' - < "$m" | tail -1 | jq -e '.iter == 2'
	phys-param get pendulum::bob/inertial.mass "$m" | jq -e '.value == 1'
	phys-sdf print "$m" | grep -q '<joint name="hinge" type="revolute">'
	phys-preset list -1 "$m" | grep -qx default_physics
	phys-inertia check "$m" | jq -e 'select(.link == "pendulum::bob") | .mass == 1'
	phys-sweep plan "$m" iters=1:2:2 | jq -se 'length == 2'
	phys-introspect items "$m" 'pendulum::hinge/*' |
	    jq -se 'map(.name) | index("pendulum::hinge/position") != null'
}

@test "mjcf: a parameter set on an MJCF file is written into it (mjcf-edit.bats), or given for a run" {
	phys-param set pendulum::bob/inertial.mass=2 "$MJ/pendulum.xml" |
	    grep -q '<inertial pos="0 0.0998334166468282 -0.995004165278026" mass="2" '
	phys-step -q -n 0 -s pendulum::bob/inertial.mass=2 -i 'pendulum::bob/mass' "$MJ/pendulum.xml" |
	    jq -e '.items["pendulum::bob/mass"] == 2'
}

@test "mjcf: malformed input and what phys cannot read are named at their file:line" {
	printf '<mujoco>\n<worldbody>\n<body name="a">\n<geom type="box" size="1 x"/>\n</body></worldbody></mujoco>\n' > "$TMP/bad.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/bad.xml"
	assert_equal "$stderr" "phys-step: $TMP/bad.xml:4: size=\"1 x\": 0 to 3 numbers expected"
	# a mesh's vertex past a float's range, in which MuJoCo keeps it
	printf '<mujoco>\n<asset>\n<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1e308"/>\n</asset>\n<worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>\n' > "$TMP/big.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/big.xml"
	assert_equal "$stderr" "phys-step: $TMP/big.xml:3: vertex=\"0 0 0 1 0 0 0 1 0 0 0 1e308\": 1e+308 is past the range of the float MuJoCo keeps it in"
	# a NaN, which MuJoCo reads after a warning, is refused as what it is
	sed 's/type="box" size="1 x"/type="sphere" size="1" rgba="1 nan 0 1"/' "$TMP/bad.xml" > "$TMP/nan.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/nan.xml"
	assert_equal "$stderr" "phys-step: $TMP/nan.xml:4: rgba=\"1 nan 0 1\": a number that is not finite"
	printf '<mujoco>\n<compiler autolimits="false"/><worldbody>\n<body name="a">\n<joint name="j" range="0 1"/><geom size="0.1"/>\n</body></worldbody></mujoco>\n' > "$TMP/lim.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/lim.xml"
	assert_equal "$stderr" "phys-step: $TMP/lim.xml:4: joint has range but not limited: MuJoCo refuses it under autolimits=\"false\""
	# a tendon that moves the model is refused, but a fixed spring or
	# damper (its own or its class's); one an actuator only pulls is not
	# (see names.xml's test)
	for t in 'limited="true" range="0 1"' 'range="0 1"' 'stiffness="2"' \
	    'class="d"' 'frictionloss="0.1"'; do
		printf '<mujoco>\n<compiler autolimits="true"/>\n<default><default class="d"><tendon damping="3"/></default></default>\n<worldbody>\n<body name="a"><joint name="j"/><geom size="0.1"/></body>\n</worldbody>\n<tendon>\n<fixed name="t" %s><joint joint="j" coef="1"/></fixed>\n</tendon>\n</mujoco>\n' "$t" > "$TMP/tendon.xml"
		case $t in
		*stiff* | *class*) run -0 phys-step -q -n 1 "$TMP/tendon.xml"; continue ;;
		*range*)
			# held by every engine (mjcf-print.bats)
			run -0 phys-step -q -n 1 "$TMP/tendon.xml"
			run -0 phys-step -q -p mujoco -n 1 "$TMP/tendon.xml"
			continue ;;
		esac
		run -1 --separate-stderr phys-step -n 1 "$TMP/tendon.xml"
		why="has frictionloss 0.1: phys reads the stiffness and damping of a fixed tendon only, and this one"
		assert_equal "$stderr" "phys-step: $TMP/tendon.xml:8: tendon 't' $why changes how the model moves; phys refuses the model"
	done
	# a fixed tendon's joint that is not there (MuJoCo refuses it too);
	# a ball joint, which a limit along a tendon cannot hold
	sed 's/frictionloss="0.1"/range="0 1"/' "$TMP/tendon.xml" > "$TMP/limited.xml"
	sed 's/<joint joint="j"/<joint joint="k"/' "$TMP/limited.xml" > "$TMP/nojoint.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/nojoint.xml"
	assert_equal "$stderr" "phys-step: $TMP/nojoint.xml:8: tendon 't': joint 'k': no such joint"
	sed 's/<joint name="j"/<joint name="j" type="ball"/' "$TMP/limited.xml" > "$TMP/ball.xml"
	run -1 --separate-stderr phys-step -q -n 1 "$TMP/ball.xml"
	assert_equal "$stderr" "phys-step: $TMP/ball.xml:8: tendon 't': joint 'j': neither a hinge nor a slide, which a limit along the tendon holds"
	printf '<mujoco>\n<worldbody>\n<body name="a"><joint name="j"/><geom size="0.1"/></body>\n</worldbody>\n<sensor>\n<jointpos joint="j"/>\n</sensor>\n<sensor><jointvel joint="j"/></sensor>\n</mujoco>\n' > "$TMP/sensor.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/sensor.xml"
	assert_equal "$stderr" "phys-step: $TMP/sensor.xml:5: <sensor>: not read (phys reports state lines instead)"
	# a geom's margin, which only MuJoCo's engine keeps: once for all
	printf '<mujoco>\n<default><geom margin="0.001"/></default>\n<worldbody>\n<geom type="plane" size="1 1 1"/>\n<body name="a" pos="0 0 1"><freejoint/><geom size="0.1"/></body>\n</worldbody>\n</mujoco>\n' > "$TMP/margin.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/margin.xml"
	assert_equal "$stderr" "phys-step: $TMP/margin.xml:5: collision 'MuJoCo Model::a::geom1': surface.contact.mujoco.margin is MuJoCo's and has no effect with ODE (kept as given) (and 1 more collision)"
	# a joint's friction loss as soft as MuJoCo's default, the softness
	# given being named
	printf '<mujoco>\n<worldbody>\n<body name="a"><joint name="j" frictionloss="0.1" solreffriction="0.05 1"/><geom size="0.1"/></body>\n</worldbody>\n</mujoco>\n' > "$TMP/fl.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/fl.xml"
	assert_equal "$stderr" "phys-step: $TMP/fl.xml:3: <joint>: solreffriction and solimpfriction are not kept: its friction loss is as soft as MuJoCo's default"
}

@test "mjcf: a limited joint's ODE stop ERP, derived from its solreflimit for the other engines, is not said under MuJoCo; one set with -s is" {
	local w="$BATS_TEST_DIRNAME/data/mjcf/softlimit.xml"
	# its ERP under ODE is MuJoCo's softness at the model's step
	[ "$(phys-param get 'softlimit::shoulder/physics.ode.limit.erp' "$w" 2> /dev/null | jq '.value < 0.2 and .value > 0')" = true ]
	run -0 --separate-stderr phys-step -p mujoco -n 1 "$w"
	[[ "$stderr" != *"physics.ode"* ]]
	run -0 --separate-stderr phys-step -p mujoco -n 1 -s 'softlimit::shoulder/physics.ode.limit.erp=0.3' "$w"
	[[ "$stderr" == *"joint 'softlimit::shoulder': physics.ode parameters are ODE's and have no effect with MuJoCo (kept as given)"* ]]
}

@test "mjcf: the world body's geoms are static ground that bodies rest on" {
	cat > "$TMP/drop.xml" <<-EOF
	<mujoco model="drop">
	  <worldbody>
	    <geom name="floor" type="plane" size="0 0 1"/>
	    <body name="ball" pos="0 0 0.5"><freejoint/><geom type="sphere" size="0.1"/></body>
	  </worldbody>
	</mujoco>
	EOF
	phys-step -q -t 1.5 -i 'drop::ball/pose' "$TMP/drop.xml" | tail -1 |
	    jq -r '.items["drop::ball/pose"].z' > "$TMP/z"
	near "$(cat "$TMP/z")" 0.1 0.005
}

@test "mjcf: a second <worldbody> adds to the world body, as a Menagerie scene's floor after its included robot: the ball rests on it under each profile" {
	cat > "$TMP/robot.xml" <<-EOF
	<mujoco model="robot">
	  <worldbody>
	    <body name="ball" pos="0 0 0.5"><freejoint/><geom type="sphere" size="0.1"/></body>
	  </worldbody>
	</mujoco>
	EOF
	cat > "$TMP/scene.xml" <<-EOF
	<mujoco model="scene">
	  <include file="robot.xml"/>
	  <worldbody>
	    <light pos="0 0 3"/>
	    <geom name="floor" type="plane" size="0 0 1"/>
	  </worldbody>
	</mujoco>
	EOF
	local p
	for p in default_physics mujoco; do
		near "$(phys-step -q -p $p -t 1.5 -i 'scene::ball/pose' "$TMP/scene.xml" | tail -1 |
		    jq -r '.items["scene::ball/pose"].z')" 0.1 0.005
	done
}

@test "mjcf: <option> gives the model file's world MuJoCo's gravity and step, and a profile of MuJoCo's values" {
	cat > "$TMP/fall.xml" <<-EOF
	<mujoco model="fall">
	  <option timestep="0.004" gravity="0 0 -3" integrator="RK4" solver="CG" iterations="17" tolerance="1e-9" cone="elliptic" impratio="2"/>
	  <worldbody><body name="b" pos="0 0 10"><freejoint/><geom size="0.1"/></body></worldbody>
	</mujoco>
	EOF
	phys-preset list "$TMP/fall.xml" | jq -s -e '(map(.name) == ["default_physics", "mujoco"]) and .[0].start'
	phys-param get max_step_size gravity "$TMP/fall.xml" | jq -s -e '.[0].value == 0.004 and .[1].value.z == -3'
	phys-param get -p mujoco mujoco.integrator mujoco.solver mujoco.iterations mujoco.tolerance mujoco.cone mujoco.impratio "$TMP/fall.xml" |
	    jq -s -e 'map(.value) == ["RK4", "CG", 17, 1e-9, "elliptic", 2]'
	# semi-implicit Euler's fall after n steps: z0 - g h^2 n (n + 1) / 2
	phys-step -q -n 25 -e 25 -i 'fall::b/pose' "$TMP/fall.xml" | tail -1 |
	    jq -r '.items["fall::b/pose"].z' > "$TMP/z"
	near "$(cat "$TMP/z")" "$(awk 'BEGIN { print 10 - 3 * 0.004 * 0.004 * 25 * 26 / 2 }')" 1e-9
	printf '<mujoco model="g"><worldbody><body name="b"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>\n' > "$TMP/g.xml"
	phys-param get gravity max_step_size "$TMP/g.xml" | jq -s -e '.[0].value.z == -9.81 and .[1].value == 0.002'
}

# mocap_carries ENGINE: tests/data/mjcf/mocap.xml under ENGINE, its mocap hand
# still for 0.5 s, then moved along x at 0.1 m/s for 1 s: the box hangs
# where the weld holds it, 0.1 m beside and below the hand, and goes
# with it; under MuJoCo's engine as MuJoCo's weld of its default
# softness holds it: 0.37 mm lower, as libmujoco's to 1e-9, and 4 mm
# behind.
mocap_carries() {
	local w tol=1e-6
	phys-sdf world -o "$TMP/mocap.sdf" "$MJ/mocap.xml"
	if [ "$1" = mujoco ]; then
		tol=2.5e-5
		near "$(phys-step -q -p mujoco -t 0.5 -e 500 -i 'mocap::box/pose' "$TMP/mocap.sdf" |
		    tail -1 | jq '.items[].z')" "$("$BATS_FILE_TMPDIR/run" "$MJ/mocap.xml" run 0.5 box |
		    tail -1 | cut -d' ' -f4)" 1e-9
	fi
	w=$(profile_world "$TMP/mocap.sdf" "$1")
	echo '{"t":0.5,"name":"mocap::hand/linear_vel","value":{"x":0.1,"y":0,"z":0}}' > "$TMP/move"
	phys-step -q -p "$1" -t 1.5 -e 500 -c "$TMP/move" -i 'mocap::hand/pose' \
	    -i 'mocap::box/pose' "$w" | jq -r 'select(.t > 0) | [.t,
	    .items["mocap::hand/pose"].x, .items["mocap::hand/pose"].z,
	    .items["mocap::box/pose"].x, .items["mocap::box/pose"].z] | @tsv' |
	    awk -v tol="$tol" '{ h = $1 > 0.5 ? 0.1 * ($1 - 0.5) : 0
	    if ((($2 - h) ^ 2 + ($3 - 1) ^ 2) > 1e-12 ||
	        (($4 - h - 0.1) ^ 2 + ($5 - 0.9) ^ 2) > tol) {
		print "at " $1 ": hand " $2 " " $3 ", box " $4 " " $5; bad = 1 } }
	    END { exit bad + (NR != 3) }' || fail "$1: the box is not carried"
	# the weld's wrench on its child, the hand (MuJoCo's body1): the
	# box's weight, 1 kg at 0.1 m beside it, as every engine reads it
	phys-step -q -p "$1" -t 0.5 -r 2 -i 'mocap::equality0/force' \
	    -i 'mocap::equality0/torque' "$w" | tail -1 |
	    jq -r '.items | [.["mocap::equality0/force"][], .["mocap::equality0/torque"][]] | @tsv' |
	    awk '{ w[1] = 0; w[2] = 0; w[3] = -9.81; w[4] = 0; w[5] = 0.981; w[6] = 0
		for (i = 1; i <= 6; i++) { e = $i - w[i]; if (e < 0) e = -e
		    if (e > 1e-3) { print "wrench " $0; exit 1 } } }' ||
	    fail "$1: the weld's wrench"
}

@test "mjcf: a mocap body welded to a free body (the OpenAI Fetch's hand target) holds it and carries it where it is moved, under every engine" {
	each_engine mocap_carries
}

@test "mjcf: a world phys-sdf world writes for an MJCF model keeps its <option>: the box falls as the model's step and gravity make it, under both profiles; included in a world of its own, or printed as a model file, the <option> left behind is said at its line" {
	cat > "$TMP/fall.xml" <<-EOF
	<mujoco model="fall">
	  <option timestep="0.004" gravity="0 0 -3"/>
	  <worldbody><body name="b" pos="0 0 10"><freejoint/><geom size="0.1"/></body></worldbody>
	</mujoco>
	EOF
	phys-sdf world -o "$TMP/w.sdf" "$TMP/fall.xml"
	# semi-implicit Euler's fall after n steps: z0 - g h^2 n (n + 1) / 2
	want=$(awk 'BEGIN { print 10 - 3 * 0.004 * 0.004 * 25 * 26 / 2 }')
	for p in default_physics mujoco; do
		phys-step -q -p $p -n 25 -e 25 -i 'fall::b/pose' "$TMP/w.sdf" | tail -1 |
		    jq -r '.items["fall::b/pose"].z' > "$TMP/z"
		near "$(cat "$TMP/z")" "$want" 1e-9
	done
	run -0 --separate-stderr phys-step -n 1 "$TMP/w.sdf"
	! grep -q 'option' <<< "$stderr" || false
	printf '<sdf version="1.7"><world name="w"><include><uri>fall.xml</uri></include></world></sdf>\n' > "$TMP/inc.sdf"
	run -0 --separate-stderr phys-step -n 1 "$TMP/inc.sdf"
	grep -q "fall.xml:2: <option> sets the world MuJoCo runs this model in: included in .*inc.sdf, it runs at that world's step of 0.001 s and gravity 0 0 -9.8, not at 0.004 s and 0 0 -3" <<< "$stderr"
	run -0 --separate-stderr phys-sdf print "$TMP/fall.xml"
	grep -q "fall.xml:2: <option> sets the world MuJoCo runs this model in, which the printed model file has no place for" <<< "$stderr"
}

# slid MODEL PROFILE: how far the box of MODEL slides down its slope in 1 s.
slid() {
	phys-step -q -p "$2" -t 1 -e 100 -i 'incline::box/pose' "$1" | tail -1 |
	    jq -r '.items["incline::box/pose"] | [.x, .z] | @tsv' |
	    awk '{ dx = $1 - 0.05; dz = $2 - 0.0866025403784; print sqrt(dx * dx + dz * dz) }'
}

# flagged FLAGS PROFILE: a ball of radius 0.1 let go 0.3 m above a floor and
# an arm on a hinge of range -10..10 degrees let go level, under an
# <option><flag FLAGS/>: the ball's height and the hinge's angle after
# 0.5 s.
flagged() {
	cat > "$TMP/flag.xml" <<-EOF
	<mujoco model="flag">
	  <option timestep="0.001"><flag $1/></option>
	  <worldbody>
	    <geom name="floor" type="plane" size="0 0 1"/>
	    <body name="ball" pos="0 0 0.3"><freejoint/><geom type="sphere" size="0.1"/></body>
	    <body name="arm" pos="2 0 1">
	      <joint name="hinge" axis="0 1 0" range="-10 10" limited="true"/>
	      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" contype="0" conaffinity="0"/>
	    </body>
	  </worldbody>
	</mujoco>
	EOF
	phys-step -q -p "$2" -t 0.5 -e 500 -i 'flag::ball/pose' -i 'flag::hinge/position' "$TMP/flag.xml" | tail -1 |
	    jq -r '[.items["flag::ball/pose"].z, .items["flag::hinge/position"][0]] | @tsv'
}

@test "mjcf: what an <option><flag> turns off is off under each profile: contact (the ball falls through its floor), gravity (it floats), limit and constraint (the arm swings past its range); a flag phys cannot run is refused at its line" {
	local p out fall
	fall=$(awk 'BEGIN { print 0.3 - 9.81 * 0.25 / 2 }')
	for p in default_physics mujoco; do
		out=$(flagged 'energy="enable"' $p)
		near "$(cut -f1 <<<"$out")" 0.1 0.005
		near "$(cut -f2 <<<"$out")" 0.1745 0.02
		near "$(cut -f1 <<<"$(flagged 'contact="disable"' $p)")" "$fall" 0.01
		[ "$(cut -f1 <<<"$(flagged 'gravity="disable"' $p)")" = 0.3 ]
		out=$(flagged 'limit="disable"' $p)
		awk -v a="$(cut -f2 <<<"$out")" 'BEGIN { exit !(a > 1) }'
		out=$(flagged 'constraint="disable"' $p)
		near "$(cut -f1 <<<"$out")" "$fall" 0.01
		awk -v a="$(cut -f2 <<<"$out")" 'BEGIN { exit !(a > 1) }'
	done
	flagged 'filterparent="disable"' default_physics > /dev/null 2>&1 || true
	run -1 phys-step -n 0 "$TMP/flag.xml"
	[[ "$output" == *"flag.xml:2: <flag filterparent=\"disable\">: phys cannot run it"* ]]
}

@test "mjcf: integrator=\"implicitfast\" (MuJoCo 2.3's, in Menagerie's arms) is read as implicit, said once; phys-sdf check warns of it" {
	printf '<mujoco model="f">\n<option integrator="implicitfast" timestep="0.004"/>\n<worldbody><body name="b"><freejoint/><geom size="0.1"/></body></worldbody>\n</mujoco>\n' > "$TMP/f.xml"
	run -0 --separate-stderr phys-step -n 0 -p mujoco "$TMP/f.xml"
	assert_equal "$stderr" "phys-step: $TMP/f.xml:2: <option>: integrator=\"implicitfast\" is MuJoCo 2.3's (2.2.2 has none): read as implicit, which differs from it only in keeping the Coriolis terms"
	[ "$(printf '%s\n' "$output" | head -1 | jq -r .engine.integrator)" = implicit ]
	run -0 phys-sdf check "$TMP/f.xml"
	[ "$(printf '%s\n' "$output" | jq -r .severity)" = warning ]
}

@test "mjcf: friction and condim: a box slides down a slope with g (sin a - mu cos a), without friction at condim 1" {
	local p
	for p in default_physics mujoco; do
		rel "$(slid "$MJ/incline.xml" $p)" "$(awk 'BEGIN { print 9.81 * (0.5 - 0.3 * sqrt(3) / 2) / 2 }')" 0.01
	done
	sed 's/<geom friction="0.3 0.005 0.0001"/<geom friction="0.3 0.005 0.0001" condim="1"/' "$MJ/incline.xml" > "$TMP/slick.xml"
	rel "$(slid "$TMP/slick.xml" default_physics)" "$(awk 'BEGIN { print 9.81 * 0.5 / 2 }')" 0.01
}

@test "mjcf: two geoms touch with MuJoCo's mix of their surfaces under each profile: the larger condim (a box of condim 1 grips a slope of 3) and the larger friction" {
	# the box alone condim 1, as Menagerie's Cassie and Go1 make their
	# bodies: it slides with the slope's 0.3, as MuJoCo has it
	sed 's|<geom type="box" size="0.1 0.1 0.1"/>|<geom type="box" size="0.1 0.1 0.1" condim="1"/>|' "$MJ/incline.xml" > "$TMP/box1.xml"
	# the slope's friction 0.2, the box's 0.3: MuJoCo takes 0.3
	sed 's|<geom name="slope" type="plane"|<geom name="slope" friction="0.2" type="plane"|' "$MJ/incline.xml" > "$TMP/low.xml"
	local p f
	for p in default_physics mujoco; do
		for f in box1 low; do
			echo "$p $f"
			rel "$(slid "$TMP/$f.xml" $p)" "$(awk 'BEGIN { print 9.81 * (0.5 - 0.3 * sqrt(3) / 2) / 2 }')" 0.01
		done
	done
	# both of condim 1 stay frictionless, under MuJoCo too
	sed 's/<geom friction="0.3 0.005 0.0001"/<geom friction="0.3 0.005 0.0001" condim="1"/' "$MJ/incline.xml" > "$TMP/slick.xml"
	rel "$(slid "$TMP/slick.xml" mujoco)" "$(awk 'BEGIN { print 9.81 * 0.5 / 2 }')" 0.01
}

@test "mjcf: a condim MuJoCo does not have (2, 5) is refused where it is given, in SDF as in MJCF" {
	local c
	for c in 2 5; do
		run phys-param set "ball::link::collision/surface.friction.mujoco.condim=$c" "$WORLDS/falling_sphere.sdf"
		[ "$status" -eq 1 ]
		assert_output --partial "surface.friction.mujoco.condim: \"$c\" is not one of 1, 3, 4, 6"
	done
	phys-param set 'ball::link::collision/surface.friction.mujoco.condim=4' "$WORLDS/falling_sphere.sdf" |
	    sed 's|<condim>4</condim>|<condim>5</condim>|' > "$TMP/c5.sdf"
	run phys-step -n 1 "$TMP/c5.sdf"
	[ "$status" -eq 1 ]
	assert_output --regexp "c5.sdf:[0-9]+: surface.friction.mujoco.condim: \"5\" is not one of 1, 3, 4, 6"
	sed 's|<geom type="box" size="0.1 0.1 0.1"/>|<geom type="box" size="0.1 0.1 0.1" condim="2"/>|' "$MJ/incline.xml" > "$TMP/c2.xml"
	run phys-step -n 1 "$TMP/c2.xml"
	[ "$status" -eq 1 ]
	assert_output --regexp 'c2.xml:[0-9]+: .*condim="2": 1, 3, 4 or 6'
}

# pair_slid ENGINE: how far the box of the pair's model (in $TMP/pair.xml),
# included by an SDF world, slides down its slope in 1 s under ENGINE,
# against the closed form of the pair's friction, 0.3.
pair_slid() {
	rel "$(slid "$(profile_world "$TMP/pair.sdf" "$1")" "$1")" \
	    "$(awk 'BEGIN { print 9.81 * (0.5 - 0.3 * sqrt(3) / 2) / 2 }')" 0.02
}

# priority_slid PROFILE: how far priority.xml's box slides in 1 s.
priority_slid() {
	phys-step -q -p "$1" -t 1 -e 100 -i 'priority::box/pose' "$MJ/priority.xml" | tail -1 |
	    jq -r '.items["priority::box/pose"] | [.x, .z] | @tsv' |
	    awk '{ dx = $1 - 0.05; dz = $2 - 0.0866025403784; print sqrt(dx * dx + dz * dz) }'
}

@test "mjcf: a geom of higher priority gives the pair its surface: the box's pad of friction 0.3 slides down a slope of 0.5 with g (sin a - 0.3 cos a) under each profile" {
	local p
	for p in default_physics mujoco; do
		rel "$(priority_slid $p)" "$(awk 'BEGIN { print 9.81 * (0.5 - 0.3 * sqrt(3) / 2) / 2 }')" 0.01
	done
}

# swung ENGINE: $TMP/spring.sdf's carts after 1 s, their tendon's
# length L - L0 at 0.275 cos(w t), w^2 = 11.25 (tendonspring.xml); phys
# measures x2 from its ref, 0.05.
swung() {
	phys-step -q -p "$1" -t 1 -r 1 --keyframe k -i 'spring::*/position' \
	    "$(profile_world "$TMP/spring.sdf" "$1")" | tail -1 > "$TMP/end"
	near "$(jq '.items["spring::x1/position"][0] - 0.5 * (.items["spring::x2/position"][0] + 0.05)' "$TMP/end")" \
	    "$(awk 'BEGIN { printf "%.12g", 0.2 + 0.275 * cos(sqrt(11.25)) }')" 1e-3
}

@test "mjcf: a fixed tendon of stiffness pulls its joints as a spring along it, at rest at the joints' springref, under each engine; one with friction loss, or a spatial one with stiffness, is refused" {
	phys-sdf world "$MJ/tendonspring.xml" > "$TMP/spring.sdf"
	each_engine swung
	sed 's/stiffness="10"/stiffness="10" frictionloss="1"/' "$MJ/tendonspring.xml" > "$TMP/fl.xml"
	run -1 phys-step -q -n 1 "$TMP/fl.xml"
	[[ "$output" == *"fl.xml:18: tendon 'link' has frictionloss 1: phys reads the stiffness and damping of a fixed tendon only"* ]]
	sed 's/stiffness="10"/stiffness="-10"/' "$MJ/tendonspring.xml" > "$TMP/neg.xml"
	run -1 phys-step -q -n 1 "$TMP/neg.xml"
	[[ "$output" == *"neg.xml:18: stiffness=\"-10\": must not be negative"* ]]
	sed -e 's|<fixed name="link" stiffness="10">|<spatial name="link" stiffness="10">|' \
	    -e 's|<joint joint="x1" coef="1"/>|<site site="s1"/>|' \
	    -e 's|<joint joint="x2" coef="-0.5"/>|<site site="s2"/>|' \
	    -e 's|<joint name="x[12]"[^>]*>|&<site name="s"/>|' \
	    -e 's|</fixed>|</spatial>|' "$MJ/tendonspring.xml" |
	    awk '/<site name="s"/ { sub(/name="s"/, "name=\"s" ++n "\"") } { print }' > "$TMP/spatial.xml"
	run -1 phys-step -q -n 1 "$TMP/spatial.xml"
	[[ "$output" == *"spatial.xml:18: tendon 'link' has stiffness 10: phys reads the stiffness and damping of a fixed tendon only"* ]]
}

@test "mjcf: a <pair> touches with a surface of its own under each engine: the box its geoms' friction would hold slides with the pair's, also when neither geom has a bit" {
	including "$TMP/pair.xml" "$TMP/pair.sdf"
	cp "$MJ/pair.xml" "$TMP/pair.xml"
	each_engine pair_slid
	# as MuJoCo Menagerie's models for MJX have it: no geom collides by
	# its bits, the pairs alone touch
	sed 's/name="slope"/& contype="0" conaffinity="0"/; s/name="cube"/& contype="0" conaffinity="0"/' \
	    "$MJ/pair.xml" > "$TMP/pair.xml"
	rm -f "$TMP"/*-pair.sdf
	each_engine pair_slid
}

# oracle_pairs FILE: MuJoCo's pairs of FILE (mujoco_oracle.c), a line
# each, as much of each as its condim uses: the geoms (phys's scope left
# out, in name order), condim, the friction coefficients it takes,
# solref, solimp; then its named geoms' condim, friction and bits.
oracle_pairs() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | awk '$1 == "pair" {
		a = $2; b = $3; sub(/.*::/, "", a); sub(/.*::/, "", b)
		if (a > b) { t = a; a = b; b = t }
		n = $4 == 1 ? 0 : $4 == 3 ? 2 : $4 == 4 ? 3 : 4
		printf "%s %s %d", a, b, $4
		for (i = 5; i < 5 + n; i++) printf " %.12g", $i
		for (i = 10; i <= 16; i++) printf " %.12g", $i
		printf "\n" }
	    $1 == "geom" { n = $2; sub(/.*::/, "", n); print "geom", n, $3, $4, $5, $6, $7, $8 }' | sort
}

@test "mjcf: a <pair>'s values are MuJoCo's (its class's, else MuJoCo's own, never its geoms'), written back as <pair>s MuJoCo reads the same, its geoms' condim, friction and bits too" {
	need_mujoco
	cat > "$TMP/pairs.xml" <<-EOF
	<mujoco model="pairs">
	<default><geom friction="0.9 0.02 0.003" condim="6" solref="0.05 1"/>
	<default class="soft"><pair condim="4" friction="0.7 0.6 0.01" solref="0.04 0.9" solimp="0.8 0.9 0.002"/></default></default>
	<worldbody><geom name="floor" type="plane" size="1 1 0.1"/>
	<body name="a" pos="0 0 0.2"><freejoint/><geom name="ball" size="0.1"/></body>
	<body name="b" pos="0.5 0 0.2"><freejoint/><geom name="block" type="box" size="0.1 0.1 0.1" contype="0" conaffinity="0"/></body>
	<body name="c" pos="1 0 0.2"><freejoint/><geom name="pin" type="capsule" size="0.05 0.1"/></body></worldbody>
	<contact><pair geom1="floor" geom2="ball"/>
	<pair class="soft" geom1="block" geom2="floor"/>
	<pair geom1="pin" geom2="floor" condim="6" friction="0.4 0.5 0.02 0.001 0.001" solimp="0.7 0.8 0.003 0.4 3"/>
	<pair geom1="ball" geom2="block" condim="1"/></contact></mujoco>
	EOF
	oracle_pairs "$TMP/pairs.xml" > "$TMP/want"
	[ "$(grep -c ^pair "$TMP/want")" -eq 4 ] && [ "$(grep -c ^geom "$TMP/want")" -eq 4 ]
	phys-sdf print -q --format mjcf "$TMP/pairs.xml" > "$TMP/out.xml"
	oracle_pairs "$TMP/out.xml" > "$TMP/got"
	diff "$TMP/want" "$TMP/got"
}

@test "mjcf: a <pair> naming no geom is refused at its line; one of bodies a joint joins is named" {
	cat > "$TMP/bad.xml" <<-EOF
	<mujoco><worldbody><geom name="floor" type="plane" size="1 1 0.1"/>
	<body><freejoint/><geom name="ball" size="0.1"/></body></worldbody>
	<contact>
	<pair geom1="ball" geom2="flor"/></contact></mujoco>
	EOF
	run -1 phys-step -q -n 1 "$TMP/bad.xml"
	[[ "$output" == *"bad.xml:4: <pair>: no geom 'flor'"* ]]
	cat > "$TMP/arm.xml" <<-EOF
	<mujoco model="arm"><worldbody><geom name="floor" type="plane" size="1 1 0.1"/>
	<body name="upper" pos="0 0 1"><freejoint/><geom name="u" size="0.1"/>
	<body name="lower" pos="0 0 -0.3"><joint type="hinge"/><geom name="l" size="0.1"/></body></body></worldbody>
	<contact><pair geom1="u" geom2="floor"/>
	<pair geom1="u" geom2="l"/></contact></mujoco>
	EOF
	run phys-step -n 1 "$TMP/arm.xml"
	[ "$status" -eq 0 ]
	[[ "$output" == *"arm.xml:5: <pair>: its geoms' bodies are one, or joined by a joint"* ]]
	[[ "$output" != *"arm.xml:4:"* ]]
}

@test "mjcf: condim 4 and 6, solref and solimp reach MuJoCo's surface parameters" {
	cat > "$TMP/s.xml" <<-EOF
	<mujoco model="s"><worldbody><body name="b"><freejoint/>
	<geom name="g" size="0.1" condim="6" friction="0.7 0.02 0.003" solref="0.05 0.8" solimp="0.8 0.9 0.002 0.4 3"/>
	</body></worldbody></mujoco>
	EOF
	phys-param get -q 's::b::g/surface.friction.ode.mu' 's::b::g/surface.friction.torsional.coefficient' \
	    's::b::g/surface.friction.torsional.patch_radius' 's::b::g/surface.friction.mujoco.rolling' \
	    's::b::g/surface.contact.mujoco.solref.*' 's::b::g/surface.contact.mujoco.solimp.*' "$TMP/s.xml" |
	    jq -s -e 'map(.value) == [0.7, 0.02, 1, 0.003, 0.05, 0.8, 0.8, 0.9, 0.002, 0.4, 3]'
}

@test "mjcf: a mesh's refpos and refquat move its vertices before its scale, as MuJoCo 2.2.2 moves them: where its geoms stand, what they weigh, shapes fitted to it; a turn with a scale of unequal factors refused" {
	need_mujoco
	same_as_mujoco "$MJ/refmesh.xml"
	# MJCF out writes the geoms where the vertices stand, the mesh as in
	# its file
	phys-sdf print --format mjcf -o "$TMP/out.xml" "$MJ/refmesh.xml" 2>/dev/null
	! grep -q 'refquat\|refpos' "$TMP/out.xml" || false
	oracle_bodies "$MJ/refmesh.xml" > "$TMP/want"
	oracle_bodies "$TMP/out.xml" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	sed 's/scale="0.5 0.5 0.5"/scale="1 0.5 0.5"/' "$MJ/refmesh.xml" > "$TMP/bad.xml"
	run --separate-stderr phys-step -q -n 0 "$TMP/bad.xml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: $TMP/bad.xml:8: mesh 'turned': a refquat that turns the mesh with a scale of unequal factors (1 0.5 0.5), which MuJoCo applies after it, changes the mesh's shape: phys refuses the model" ]
}

# shell_closed_forms: each body of shells.xml as NAME MASS and its tensor
# in the body's frame (xx yy zz xy xz yz), from the closed forms of thin
# shells: plates, a tube and its disks, hemispherical caps, a sphere.
shell_closed_forms() {
	awk 'BEGIN {
		pi = atan2(0, -1)
		# a box of half-sides a b c: its six faces, each the integral
		# of the squared distances over it, per area
		a = 0.125; b = 0.25; c = 0.375; rho = 500
		m = rho * 8 * (a*b + b*c + c*a)
		xx = 8*rho * (b*c*(b*b + c*c)/3 + a*c*(b*b + c*c/3) + a*b*(b*b/3 + c*c))
		yy = 8*rho * (a*c*(a*a + c*c)/3 + b*c*(a*a + c*c/3) + a*b*(a*a/3 + c*c))
		zz = 8*rho * (a*b*(a*a + b*b)/3 + b*c*(a*a + b*b/3) + a*c*(a*a/3 + b*b))
		for (i = 1; i <= 3; i++) {
			n = i == 1 ? "crate" : i == 2 ? "hull" : "skin"
			printf "%s %.12g %.12g %.12g %.12g 0 0 0\n", n, m, xx, yy, zz
		}
		# a sphere: 2/3 m r^2
		r = 0.1; m = 1000 * 4*pi*r*r
		printf "ball %.12g %.12g %.12g %.12g 0 0 0\n", m, 2*m*r*r/3, 2*m*r*r/3, 2*m*r*r/3
		# a tube of radius r and length l, closed by two disks, its axis
		# turned onto x
		r = 0.1; l = 0.5; rho = 800
		mt = rho * 2*pi*r*l; md = rho * pi*r*r
		ax = mt*r*r + 2 * md*r*r/2
		tr = mt * (r*r/2 + l*l/12) + 2 * (md*r*r/4 + md*(l/2)^2)
		printf "tube %.12g %.12g %.12g %.12g 0 0 0\n", mt + 2*md, ax, tr, tr
		# a capsule: its tube and two hemispherical caps, each 2/3 mh r^2
		# about its flat face (a sphere'\''s by symmetry), moved from its
		# centre of area r/2 out to h + r/2
		r = 0.05; h = 0.2; rho = 1200
		mt = rho * 2*pi*r*2*h; ms = rho * 4*pi*r*r
		ax = mt*r*r + 2*ms*r*r/3
		tr = mt * (r*r/2 + (2*h)^2/12) + 2*ms*r*r/3 + ms*(h*h + h*r)
		printf "pill %.12g %.12g %.12g %.12g 0 0 0\n", mt + ms, tr, tr, ax
		# the solid mesh of the same box, as MuJoCo 2.2.2 weighs it
		m = 500 * 8*a*b*c
		printf "block %.12g %.12g %.12g %.12g 0 0 0\n", m, m*(b*b + c*c)/3, m*(a*a + c*c)/3, m*(a*a + b*b)/3
	}' | sort
}

@test "mjcf: thin shells (a later MuJoCo's geom shellinertia, mesh inertia=\"shell\") weigh as their closed forms; MJCF out carries them to MuJoCo 2.2.2; a mesh inertia phys does not compute refused at its line" {
	local m="$MJ/shells.xml"
	shell_closed_forms > "$TMP/want"
	run --separate-stderr phys_bodies "$m"
	[ "$status" -eq 0 ]
	# name, mass, the tensor in the body's frame
	printf '%s\n' "$output" | awk '$1 != "egg" { printf "%s %s", $1, $14
		for (i = 18; i <= 23; i++) printf " %s", $i; printf "\n" }' > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	# a mesh geom's shellinertia, read as MuJoCo 3.0 to 3.2 read it, is
	# said once, at its line
	run --separate-stderr phys-step -n 0 "$m"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | grep -c 'shellinertia of a geom of mesh')" -eq 1 ]
	printf '%s\n' "$stderr" | grep -q "shells.xml:$(grep -n 'mesh="solid" density="500" shellinertia' "$m" | cut -d: -f1): "
	run --separate-stderr phys_bodies "$m"
	# an ellipsoid's shell is the difference of two solids 1e-6 m apart:
	# a sphere's within 1e-4
	printf '%s\n' "$output" | awk '
	    $1 == "egg" { m = 1000 * 4*atan2(0, -1)*0.01; i = 2*m*0.01/3
		d = ($14 - m) / m; e = ($18 - i) / i
		exit !(d*d < 1e-16 && e*e < 1e-8 && $19 == $18 && $20 == $18) }'
	if [ -x "$BATS_FILE_TMPDIR/oracle" ]; then
		phys-sdf print -q --format mjcf -o "$TMP/out.xml" "$m"
		oracle_bodies "$TMP/out.xml" | awk '$1 != "egg" { printf "%s %s", $1, $14
			for (i = 18; i <= 23; i++) printf " %s", $i; printf "\n" }' > "$TMP/got"
		agree "$TMP/want" "$TMP/got"
	fi
	sed 's/inertia="shell"/inertia="convex"/' "$m" > "$TMP/convex.xml"
	run --separate-stderr phys-step -q -n 0 "$TMP/convex.xml"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"convex.xml:9: mesh 'hull': inertia=\"convex\", a later MuJoCo's, which phys does not compute"* ]]
	phys-sdf check "$m" > /dev/null
	run phys-sdf check "$TMP/convex.xml"
	[ "$status" -eq 1 ]
}

@test "mjcf: mesh geoms weigh as MuJoCo's default mesh inertia has them, scale and meshdir included" {
	need_mujoco
	same_as_mujoco "$MJ/mesh.xml"
	# a mesh of two walls: every pyramid counted positive for the
	# centre too, as MuJoCo 2.2.2 counts them (its mug, Allegro's links)
	same_as_mujoco "$MJ/hollow.xml"
	# a mesh named after its file less the last extension only
	sed 's|<mesh file="hollow.obj"|<mesh file="hollow.v1.obj"|; s|mesh="hollow"|mesh="hollow.v1"|' "$MJ/hollow.xml" > "$TMP/h.xml"
	mkdir -p "$TMP/meshes"
	cp "$MJ/meshes/hollow.obj" "$TMP/meshes/hollow.v1.obj"
	same_as_mujoco "$TMP/h.xml"
	# primitives fitted to meshes weigh as the shapes they are fitted
	# to, there (tests/mjcf-print.bats compares the shapes)
	same_as_mujoco "$MJ/fitted.xml"
	cp "$MJ/meshes/wedge.obj" "$MJ/meshes/hollow.obj" "$TMP/meshes/"
	sed 's|<compiler meshdir="meshes"/>|<compiler meshdir="meshes" fitaabb="true"/>|' "$MJ/fitted.xml" > "$TMP/aabb.xml"
	same_as_mujoco "$TMP/aabb.xml"
}

# splinter: an OBJ box 1 x 1.4 x 6 mm turned 30 degrees about z and 20
# about x, off its file's origin.
splinter() {
	awk 'BEGIN { a = 0.5236; b = 0.3491
	    for (i = 0; i < 8; i++) {
		x = (i % 2 ? 0.5 : -0.5) * 1e-3; y = (int(i / 2) % 2 ? 0.7 : -0.7) * 1e-3
		z = (i >= 4 ? 3 : -3) * 1e-3
		y1 = y * cos(b) - z * sin(b); z1 = y * sin(b) + z * cos(b)
		printf "v %.9f %.9f %.9f\n", 0.7 + x * cos(a) - y1 * sin(a), x * sin(a) + y1 * cos(a), 0.3 + z1 }
	    print "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6" }'
}

@test "mjcf: a mesh a few millimetres long weighs what MuJoCo weighs it: its tensor turned to its axes at its class's density" {
	need_mujoco
	mkdir -p "$TMP/meshes"
	splinter > "$TMP/meshes/splinter.obj"
	# at density 1, its products of inertia (1e-14 kg m^2) fall below
	# the tolerance MuJoCo turns the tensor to its axes at: it kept the
	# mesh's axes and weighed the splinter 2.4 times as heavy
	cat > "$TMP/s.xml" <<EOF
<mujoco model="s"><compiler meshdir="meshes"/>
<default><geom density="7800"/><default class="light"><geom density="300"/></default></default>
<asset><mesh file="splinter.obj"/><mesh name="light" class="light" file="splinter.obj"/></asset>
<worldbody><body name="steel"><freejoint/><geom type="mesh" mesh="splinter"/></body>
<body name="wood" pos="0 1 0"><freejoint/><geom type="mesh" mesh="light" density="300"/></body>
</worldbody></mujoco>
EOF
	same_as_mujoco "$TMP/s.xml"
	rel "$(phys-step -q -n 0 -i s::steel/mass "$TMP/s.xml" | jq '.items["s::steel/mass"]')" \
	    "$("$BATS_FILE_TMPDIR/oracle" "$TMP/s.xml" | awk '$2 == "steel" { print $11 }')" 1e-9
}

# on_first ENGINE: the ball over the first cube rests on it, the one over
# the second falls past it to the ground.
on_first() {
	phys-step -q -p "$1" -t 1.5 -r 1 -i 'cubes::over_first/pose' -i 'cubes::over_second/pose' \
	    "$(profile_world "$TMP/cubes.sdf" "$1")" > "$TMP/out"
	near "$(tail -1 "$TMP/out" | jq '.items["cubes::over_first/pose"].z')" 0.25 3e-3
	near "$(tail -1 "$TMP/out" | jq '.items["cubes::over_second/pose"].z')" 0.05 3e-3
}

@test "mjcf: an OBJ mesh of two objects is its first only, as MuJoCo 2.2.2 reads it: weighed so, colliding so under each engine, said with the mesh's line" {
	need_mujoco
	mkdir -p "$TMP/meshes"
	two_cubes > "$TMP/meshes/cubes.obj"
	cat > "$TMP/cubes.xml" <<EOF
<mujoco model="cubes"><compiler meshdir="meshes"/>
<asset><mesh file="cubes.obj"/></asset>
<worldbody><geom type="plane" size="5 5 0.1"/><geom type="mesh" mesh="cubes"/>
<body name="held" pos="3 0 0"><freejoint/><geom type="mesh" mesh="cubes"/></body>
<body name="over_first" pos="0.1 0.1 0.6"><freejoint/><geom size="0.05"/></body>
<body name="over_second" pos="0.7 0.1 0.6"><freejoint/><geom size="0.05"/></body>
</worldbody></mujoco>
EOF
	same_as_mujoco "$TMP/cubes.xml"
	run -0 --separate-stderr phys-step -n 0 "$TMP/cubes.xml"
	assert_equal "$stderr" "phys-step: $TMP/cubes.xml:2: mesh 'cubes': meshes/cubes.obj holds 1 more object after its first, which MuJoCo 2.2.2 leaves out (it reads an OBJ's first object): so does phys, for the mesh's mass and collisions"
	phys-sdf world "$TMP/cubes.xml" > "$TMP/cubes.sdf"
	each_engine on_first
}

# msh FILE FACES: a MuJoCo MSH file of the box 0.4 x 0.2 x 0.1 m from
# the origin, with its 12 faces, or (FACES 0) with none and a ninth
# vertex at its centre (MuJoCo then takes the hull).
msh() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
v = [(x, y, z) for z in (0, 0.1) for y in (0, 0.2) for x in (0, 0.4)]
f = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4),
     (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)]
if sys.argv[2] == '0':
    v, f = v + [(0.2, 0.1, 0.05)], []
d = struct.pack('<4i', len(v), 0, 0, len(f))
d += b''.join(struct.pack('<3f', *p) for p in v)
d += b''.join(struct.pack('<3i', *t) for t in f)
open(sys.argv[1], 'wb').write(d)
PY
}

# on_face ENGINE: each box of $TMP/lists.sdf, dropped 0.3 m, at rest on
# its largest face (its frame at the box's corner, on the ground).
on_face() {
	phys-step -q -p "$1" -t 1.5 -r 1 -i 'lists::*/pose' \
	    "$(profile_world "$TMP/lists.sdf" "$1")" > "$TMP/out"
	for b in listed hull box corners; do
		near "$(tail -1 "$TMP/out" | jq ".items[\"lists::$b/pose\"].z")" 0 3e-3
	done
}

@test "mjcf: a mesh given by its vertices (and faces, or none: their convex hull) or by MuJoCo's MSH file weighs what MuJoCo weighs it, and rests on its face under each engine" {
	need_mujoco
	mkdir -p "$TMP/meshes"
	msh "$TMP/meshes/box.msh" 1
	msh "$TMP/meshes/corners.msh" 0
	cat > "$TMP/lists.xml" <<EOF
<mujoco model="lists"><compiler meshdir="meshes"/>
<asset>
<mesh name="tet" scale="0.5 1 2" vertex="0 0 0  1 0 0  0 1 0  0 0 1" face="0 2 1  0 1 3  0 3 2  1 2 3"/>
<mesh name="listed" vertex="0 0 0 .4 0 0 0 .2 0 .4 .2 0 0 0 .1 .4 0 .1 0 .2 .1 .4 .2 .1 .2 .1 .05"/>
<mesh name="faced" scale="0.1 0.1 0.1" file="box.msh"/><mesh file="box.msh"/><mesh file="corners.msh"/>
</asset>
<worldbody><geom type="plane" size="5 5 0.1"/>
<body name="tet" pos="0 3 1"><freejoint/><geom type="mesh" mesh="tet"/></body>
<body name="listed" pos="0 0 0.3"><freejoint/><geom type="mesh" mesh="listed" density="500"/></body>
<body name="hull" pos="1 0 0.3"><freejoint/><geom type="mesh" mesh="faced"/><geom type="mesh" mesh="listed"/></body>
<body name="box" pos="2 0 0.3"><freejoint/><geom type="mesh" mesh="box"/></body>
<body name="corners" pos="3 0 0.3"><freejoint/><geom type="mesh" mesh="corners"/></body>
</worldbody></mujoco>
EOF
	same_as_mujoco "$TMP/lists.xml"
	# the closed form: a box of 0.4 x 0.2 x 0.1 m weighs 4 kg at 500
	# kg/m^3, 8 at MuJoCo's default 1000; its tenth 8 g more
	phys-step -q -n 0 -i 'lists::*/mass' "$TMP/lists.xml" > "$TMP/m"
	rel "$(jq '.items["lists::listed/mass"]' "$TMP/m")" 4 1e-6
	rel "$(jq '.items["lists::box/mass"]' "$TMP/m")" 8 1e-6
	rel "$(jq '.items["lists::corners/mass"]' "$TMP/m")" 8 1e-6
	rel "$(jq '.items["lists::hull/mass"]' "$TMP/m")" 8.008 1e-6
	# the SDF model keeps the lists, as MuJoCo keeps them: floats
	phys-sdf print "$TMP/lists.xml" | grep -q '<phys:vertices>0 0 0 0.4000000059604645 0 0 '
	# printed as MJCF (the lists as lists, the MSH file by its name),
	# MuJoCo compiles the same bodies
	phys-sdf print --format mjcf -o "$TMP/out.xml" "$TMP/lists.xml"
	grep -q '<mesh name="m[0-9]" file="meshes/box.msh"/>' "$TMP/out.xml"
	oracle_bodies "$TMP/lists.xml" > "$TMP/want"
	oracle_bodies "$TMP/out.xml" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	phys-sdf world "$TMP/lists.xml" > "$TMP/lists.sdf"
	each_engine on_face
}

@test "mjcf: an MSH file whose counts do not add up to its size is refused at its mesh's line, as MuJoCo refuses it" {
	need_mujoco
	msh "$TMP/box.msh" 1
	head -c 100 "$TMP/box.msh" > "$TMP/cut.msh"
	printf '<mujoco model="m"><asset><mesh file="%s"/></asset>\n<worldbody><body><freejoint/><geom type="mesh" mesh="cut"/></body></worldbody></mujoco>\n' cut.msh > "$TMP/cut.xml"
	run -1 phys-step -q -n 0 "$TMP/cut.xml"
	assert_output "phys-step: $TMP/cut.xml:1: mesh 'cut': mesh: $TMP/cut.msh: MSH counts add up to 256 bytes; the file has 100"
	! "$BATS_FILE_TMPDIR/oracle" "$TMP/cut.xml" > /dev/null 2>&1 || false
	# a header of more normals than vertices
	printf '\010\0\0\0\011\0\0\0\0\0\0\0\0\0\0\0' > "$TMP/cut.msh"
	run -1 phys-step -q -n 0 "$TMP/cut.xml"
	assert_output "phys-step: $TMP/cut.xml:1: mesh 'cut': mesh: $TMP/cut.msh: MSH counts 8 vertices, 9 normals, 0 texture coordinates, 0 faces: MuJoCo wants 4 vertices or more, and as many normals and coordinates as vertices, or none"
	! "$BATS_FILE_TMPDIR/oracle" "$TMP/cut.xml" > /dev/null 2>&1 || false
}

# tips RUN: how far apart the coupler's and the rocker's tips are, which
# the connect joins, and the lid's height, which the weld holds, at the
# end of RUN.
tips() {
	tail -1 "$1" | jq -r '.items | [.["loops::coupler/pose"].x, .["loops::coupler/pose"].z,
	    .["loops::coupler/pose"].pitch, .["loops::rocker/pose"].x, .["loops::rocker/pose"].z,
	    .["loops::rocker/pose"].pitch, .["loops::lid/pose"].z] | @tsv' | awk '{
		ax = $1 + 0.4 * sin($3); az = $2 + 0.4 * cos($3)
		bx = $4 - 0.2 * cos($6) + 0.4 * sin($6); bz = $5 + 0.2 * sin($6) + 0.4 * cos($6)
		printf "%.9f %.9f\n", sqrt((ax - bx)^2 + (az - bz)^2), $7 }'
}

@test "mjcf: equality constraints: a connect closes a four-bar, a weld holds, a joint equality gears two wheels" {
	local p
	# the coupler's and the rocker's tips, which the connect joins,
	# start in each other: MuJoCo lets them touch, and their contact
	# fights the connect, unless excluded
	sed 's|<equality>|<contact><exclude body1="coupler" body2="rocker"/></contact>\n  &|' "$MJ/loops.xml" > "$TMP/apart.xml"
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 1 -e 50 -i 'loops::*/pose' -i 'loops::w*/position' "$TMP/apart.xml" > "$TMP/run"
		read -r gap lid < <(tips "$TMP/run")
		near "$gap" 0 1e-3
		near "$lid" 1 1e-3
		# the pendulum of wheel 1 swings, and wheel 2 turns half as far
		# back from 10 degrees: MuJoCo 2.2.2 measures both joints of
		# a joint equality from qpos0 (w2's ref of 10 degrees is not
		# taken off c0), as phys measures a joint from where it is built
		tail -1 "$TMP/run" | jq -r '.items | [.["loops::w1/position"][0], .["loops::w2/position"][0]] | @tsv' > "$TMP/w"
		read -r w1 w2 < "$TMP/w"
		awk -v a="$w1" 'BEGIN { exit !(a < -0.1 || a > 0.1) }'
		near "$w2" "$(awk -v a="$w1" 'BEGIN { print 0.1745329251994 - 0.5 * a }')" 1e-3
	done
	# a softness of its own, its class's too (Cassie's <default><equality
	# solref>), is said to be MuJoCo's engine's alone, where it was said
	# of its own only
	sed 's|<compiler autolimits="true"/>|&<default><equality solref="0.005 1"/></default>|' "$MJ/loops.xml" > "$TMP/soft.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/soft.xml"
	[[ "$stderr" == *"soft.xml:"*": <connect>: its solref and solimp are MuJoCo's engine's: ODE, Bullet, DART and Simbody hold its loop rigid"* ]]
	# MuJoCo lets the coupler and the rocker touch, and so does phys:
	# MuJoCo's engine runs the linkage as libmujoco does, with the
	# <exclude> and without it (without, the crank ends 11 rad round
	# under libmujoco; 0.1 under phys when it kept a joint's links apart)
	need_mujoco
	for p in apart loops; do
		f=$TMP/apart.xml
		[ $p = apart ] || f=$MJ/loops.xml
		paste <("$BATS_FILE_TMPDIR/run" "$f" run 1 crank_joint) \
		    <(phys-step -q -p mujoco -t 1 -i 'loops::crank_joint/position' "$f" |
		    jq -r 'select(.t > 0) | .items[][0]') |
		    awk '{ e = $2 - $3; if (e < 0) e = -e; if (e > m) m = e; n++ }
			END { if (n != 500 || m > 1e-9) { print n " lines, off by " m; exit 1 } }'
	done
}

# lid_rests ENGINE: the lid a connect joins to a pin by its box's top
# edge, let go 80 degrees open, closes on the box (MuJoCo lets the two
# touch, and so does every engine): its centre 0.2 + 0.01 m up, level
# (Bullet 1.5 mm into the box: its contacts rest that deep).
lid_rests() {
	phys-step -q -p "$1" -t 1.5 -e 50 -i 'lid::lid/pose' "$MJ/lid.xml" | tail -1 |
	    jq -r '.items["lid::lid/pose"] | [.x, .z, .pitch] | @tsv' > "$TMP/lid"
	read -r x z pitch < "$TMP/lid"
	near "$x" 0 1e-3
	near "$z" 0.21 2e-3
	near "$pitch" 0 0.01
}

@test "mjcf: two bodies a connect joins touch under every engine, as MuJoCo lets them; MJCF out writes the free body and its connect again" {
	each_engine lid_rests
	phys-sdf print --format mjcf "$MJ/lid.xml" > "$TMP/out.xml" 2> /dev/null
	[ "$(grep -c '<freejoint/>' "$TMP/out.xml")" = 2 ]
	grep -q '<connect body1="lid" body2="base"' "$TMP/out.xml"
	! grep -q '<exclude' "$TMP/out.xml"
	# printed as SDF, the joint keeps its mark; without it, its links
	# are kept apart as any joint's, and the lid swings through the box
	phys-sdf print "$MJ/lid.xml" 2> /dev/null | sed 's|<phys:touch/>||' > "$TMP/apart.sdf"
	z=$(phys-step -q -t 1.5 -e 50 -i 'lid::lid/pose' "$TMP/apart.sdf" 2> /dev/null | tail -1 | jq '.items[].z')
	awk -v z="$z" 'BEGIN { exit !(z < 0.15) }'
	need_mujoco
	# libmujoco on the file and on MJCF out's, and phys's MuJoCo engine:
	# the lid closed, 0.2098 m up (its contacts' softness), alike to 1e-9
	# (kept apart, it swings through the box)
	z=$("$BATS_FILE_TMPDIR/run" "$MJ/lid.xml" run 1.5 lid | tail -1 | awk '{ print $4 }')
	near "$z" 0.20982 2e-5
	near "$("$BATS_FILE_TMPDIR/run" "$TMP/out.xml" run 1.5 lid | tail -1 | awk '{ print $4 }')" "$z" 1e-9
	near "$(phys-step -q -p mujoco -t 1.5 -e 50 -i 'lid::lid/pose' "$MJ/lid.xml" | tail -1 | jq '.items[].z')" "$z" 1e-9
}

@test "mjcf: a tendon equality of fixed tendons couples their two joints, each length measured from qpos0 as MuJoCo measures it, under each engine with couplings; any other is refused at its line" {
	local e f tol
	phys-sdf world "$MJ/tendons.xml" > "$TMP/t.sdf"
	for e in dart simbody; do
		phys-preset add -q --engine $e $e "$TMP/t.sdf" > "$TMP/t.$e.sdf"
	done
	for e in default_physics mujoco dart simbody; do
		f=$TMP/t.$e.sdf
		[ -e "$f" ] || f=$MJ/tendons.xml
		phys-step -q -p $e -t 2 -i 'tendons::j*/position' "$f" | tail -1 |
		    jq -r '.items | [.["tendons::ja/position"][0], .["tendons::jb/position"][0], .["tendons::jc/position"][0]] | @tsv' > "$TMP/j"
		read -r ja jb jc < "$TMP/j"
		echo "$e: $ja $jb $jc"
		# the joints swing (jb from 0), held to ja + 2 jb = 0.3 and
		# -0.5 jc = 0.05 + 0.4 jb (by MuJoCo as softly as its default
		# solref holds them: 2.3 mm off)
		tol=1e-3
		[ $e != mujoco ] || tol=5e-3
		awk -v b="$jb" 'BEGIN { exit !(b < -0.1 || b > 0.1) }'
		near "$(awk -v a="$ja" -v b="$jb" 'BEGIN { print a + 2 * b }')" 0.3 $tol
		near "$(awk -v c="$jc" -v b="$jb" 'BEGIN { print -0.5 * c - 0.4 * b }')" 0.05 $tol
	done
	sed 's|polycoef="0.05 0.4 0 0 0"|polycoef="0.05 0.4 1 0 0"|' "$MJ/tendons.xml" > "$TMP/square.xml"
	run -1 --separate-stderr phys-step -q -n 1 "$TMP/square.xml"
	assert_equal "$stderr" "phys-step: $TMP/square.xml:28: <tendon> equality of a polynomial above first order: not read"
	sed 's|tendon1="ab"|& tendon2="nope"|' "$MJ/tendons.xml" > "$TMP/nope.xml"
	run -1 --separate-stderr phys-step -q -n 1 "$TMP/nope.xml"
	assert_equal "$stderr" "phys-step: $TMP/nope.xml:27: <tendon> equality: no tendon 'nope'"
}

@test "mjcf: a tendon equality of three joints holds them, 0.5 qa + qb - 0.5 qc = 0, under each engine, Bullet by a force, and the carts swing at w^2 = k / 3 (closed form); a joint held to two couplings takes the other's joint as follower" {
	local e f src="$MJ/coupled3.xml" ja jb jc
	phys-sdf world "$src" > "$TMP/c.sdf"
	for e in dart simbody bullet; do
		phys-preset add -q --engine $e $e "$TMP/c.sdf" > "$TMP/c.$e.sdf"
	done
	for e in default_physics mujoco dart simbody bullet; do
		f=$TMP/c.$e.sdf
		[ -e "$f" ] || f=$src
		phys-step -q -p $e -t 1.5707963 -e 1571 -i 'coupled3::q*/position' "$f" | tail -1 |
		    jq -r '.items | [.["coupled3::qa/position"][0], .["coupled3::qb/position"][0], .["coupled3::qc/position"][0]] | @tsv' > "$TMP/q"
		read -r ja jb jc < "$TMP/q"
		echo "$e: $ja $jb $jc"
		# half a period: qb = qc = 2 s, qa = -2 s
		near "$jb" 0.2 1e-3
		near "$jc" 0.2 1e-3
		near "$ja" -0.2 1e-3
		near "$(awk -v a="$ja" -v b="$jb" -v c="$jc" 'BEGIN { print 0.5 * a + b - 0.5 * c }')" 0 1e-4
	done
	# the printed SDF: a <mimic> and a <phys:mimic> of the third joint
	phys-sdf print "$src" > "$TMP/p.sdf" 2>/dev/null
	grep -q '<phys:mimic joint="qc">' "$TMP/p.sdf"
	# qa follows a joint equality already: the tendon's next joint follows it
	sed 's|</equality>|<joint joint1="qa" joint2="qb" polycoef="0 -0.5 0 0 0"/></equality>|' "$src" > "$TMP/two.xml"
	sed -i 's|<tendon tendon1="sum"/>||; s|</equality>|<tendon tendon1="sum"/></equality>|' "$TMP/two.xml"
	phys-step -q -t 1 -e 1000 -i 'coupled3::q*/position' "$TMP/two.xml" | tail -1 |
	    jq -r '.items | [.["coupled3::qa/position"][0], .["coupled3::qb/position"][0], .["coupled3::qc/position"][0]] | @tsv' > "$TMP/q"
	read -r ja jb jc < "$TMP/q"
	near "$ja" "$(awk -v b="$jb" 'BEGIN { print -0.5 * b }')" 1e-3
	near "$(awk -v a="$ja" -v b="$jb" -v c="$jc" 'BEGIN { print 0.5 * a + b - 0.5 * c }')" 0 1e-3
	awk -v b="$jb" 'BEGIN { exit !(b > 0.05) }'
	# an SDF axis of two <mimic>s is refused, where the second was ignored
	sed 's|<phys:mimic joint="qc">|<mimic joint="qc">|; s|</phys:mimic>|</mimic>|' "$TMP/p.sdf" > "$TMP/twice.sdf"
	run -1 phys-step -q -n 1 "$TMP/twice.sdf"
	[[ "$output" == *"a second <mimic> of the axis"* ]]
}

@test "mjcf: an error inside an included file names that file; a file that includes itself is refused" {
	printf '<mujoco>\n<body name="x">\n<geom type="box" size="1"/>\n</body>\n</mujoco>\n' > "$TMP/part.xml"
	printf '<mujoco>\n<worldbody>\n<include file="part.xml"/>\n</worldbody>\n</mujoco>\n' > "$TMP/main.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/main.xml"
	assert_equal "$stderr" "phys-step: $TMP/part.xml:3: a box needs 3 positive sizes"
	printf '<mujoco>\n<include file="self.xml"/><include file="self.xml"/>\n</mujoco>\n' > "$TMP/self.xml"
	run -1 --separate-stderr phys-step -n 1 "$TMP/self.xml"
	assert_equal "$stderr" "phys-step: $TMP/self.xml:2: more than 1024 includes (does a file include itself?)"
}

@test "mjcf: what is said of an included file's body, joint, geom or option after the reading names that file and line; an edit of one is refused, not written to the including file's element of that line" {
	mkdir "$TMP/inc"
	cat > "$TMP/inc/part.xml" <<-'EOF'
	<mujoco>
	  <worldbody>
	    <body name="arm" pos="0 0 1">
	      <joint name="hinge" axis="1 0 0" range="0.5 1" limited="true"/>
	      <geom type="capsule" fromto="0 0 0 0 0 0.3" size="0.02"/>
	      <body name="tip" pos="0 0 0.3">
	        <joint name="socket" type="ball" damping="0.1" armature="0.01" range="0 30" limited="true"/>
	        <geom type="sphere" size="0.05"/>
	      </body>
	    </body>
	  </worldbody>
	  <option timestep="0.002"/>
	</mujoco>
	EOF
	cat > "$TMP/inc/main.xml" <<-'EOF'
	<mujoco model="m">
	  <include file="part.xml"/>
	  <worldbody>
	    <geom name="floor" type="plane" size="5 5 .1"/>
	    <geom type="capsule" fromto="1 0 0 1 0 0.3" size="0.02"/>
	  </worldbody>
	</mujoco>
	EOF
	cd "$TMP/inc"
	run -0 --separate-stderr phys-step -n 1 main.xml
	assert_equal "$(printf '%s\n' "$stderr" | cut -d: -f1-3)" "$(printf '%s\n' \
	    "phys-step: part.xml:7" "phys-step: part.xml:4")"
	[[ "$stderr" == *"part.xml:7: joint 'm::socket': physics.mujoco parameters are MuJoCo's and have no effect with ODE"* ]]
	[[ "$stderr" == *"part.xml:4: joint 'm::hinge' starts at 0 rad"* ]]
	run -0 phys-inertia check main.xml
	assert_equal "$(printf '%s\n' "$output" | jq -r '"\(.link) \(.file):\(.line)"')" \
	    "$(printf '%s\n' "m::arm part.xml:3" "m::tip part.xml:6" \
	    "m::worldbody::worldbody main.xml:1")"
	run -0 --separate-stderr phys-sdf print main.xml
	assert_equal "$stderr" "phys-sdf: part.xml:12: <option> sets the world MuJoCo runs this model in, which the printed model file has no place for: 'phys-sdf world' writes a world that keeps it"
	# the arm's capsule (part.xml:5) is not main.xml's (main.xml:5)
	cp main.xml before.xml
	run -1 --separate-stderr phys-param set --in-place \
	    'm::arm::geom0/surface.friction.ode.mu=0.3' main.xml
	assert_equal "$stderr" "phys-param: main.xml: 'geom0' is made by phys or comes from an <include>d file: no element of this file holds its surface.friction.ode.mu"
	cmp before.xml main.xml
}

@test "mjcf: phys-sdf print writes the SDF model an MJCF file becomes, which loads back to MuJoCo's numbers" {
	need_mujoco
	local m
	for m in tree radian compiler planar include; do
		phys-sdf print "$MJ/$m.xml" > "$TMP/$m.sdf"
		SAME_AS="$TMP/$m.sdf" same_as_mujoco "$MJ/$m.xml" torso_rootx torso_rootz thigh_hip
	done
}

@test "mjcf: phys-sdf print --format mjcf writes an MJCF file back as a model MuJoCo compiles to the original's bodies, poses, masses and inertia" {
	need_mujoco
	local m
	# fixtures libmujoco 2.2.2 loads (loops.xml's connect is written
	# back as a body of its own and a weld: not the same bodies)
	for m in tree radian compiler planar include fusestatic fromgeom \
	    fitted mesh hollow mocap; do
		phys-sdf print --format mjcf -o "$TMP/$m.xml" "$MJ/$m.xml"
		oracle_bodies "$MJ/$m.xml" > "$TMP/want"
		oracle_bodies "$TMP/$m.xml" > "$TMP/got"
		[ -s "$TMP/want" ]
		echo "$m"
		agree "$TMP/want" "$TMP/got"
	done
}

@test "mjcf: actuators: a position servo holds a weight m g / kp below its target, a velocity servo lets it fall at m g / kv" {
	local p
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 3 -e 1500 -i 'servo::*/position' -i 'servo::*/velocity' "$MJ/servo.xml" |
		    tail -1 > "$TMP/end"
		near "$(jq '.items["servo::lift/position"][0]' "$TMP/end")" -0.0981 1e-6
		near "$(jq '.items["servo::drop/velocity"][0]' "$TMP/end")" -0.981 1e-6
	done
}

@test "mjcf: a general actuator of bias 0 -kp -kv is a servo with damping kv, as Menagerie's arms have it: a cart moves critically damped to its target" {
	local p x
	for p in default_physics mujoco; do
		x=$(phys-step -q -p $p -t 0.3 --keyframe go -i 'pd::slide/position' "$MJ/pd.xml" | tail -1 | jq '.items[][0]')
		# 1 - (1 + 10 t) exp(-10 t) at 0.3 s, to the step's first order
		near "$x" 0.800852 2e-3
	done
}

# stiff_rest ENGINE: the arm of $TMP/stiff.sdf at rest under ENGINE,
# where kp (u - q) = -m g l cos q for u = 0.5; ODE's quick solver and
# Bullet's sequential impulses need 300 iterations to converge on the
# servo's row (with 50: 4e-4 and 3e-3 rad short).
stiff_rest() {
	local more=(-s "$1.solver.iters=300")
	[[ "$1" == ode || "$1" == bullet ]] || more=()
	phys-step -q -p "$1" -t 3 -r 1 --keyframe k "${more[@]}" -i 'stiff::elbow/position' \
	    "$(profile_world "$TMP/stiff.sdf" "$1")" > "$TMP/out"
	near "$(tail -1 "$TMP/out" | jq '.items[][0]')" \
	    "$(awk 'BEGIN { q = 0.5; for (i = 0; i < 50; i++) q = 0.5 + 0.05 * 9.81 * cos(q) / 2000; printf "%.12g", q }')" 1e-6
}

@test "mjcf: under the implicit integrator a stiff servo (Menagerie's kp 2000 and kv 200 on a link of 2.6e-3 kg m^2) holds its arm where kp (u - q) meets the load under each engine; under Euler it diverges, in ODE as in MuJoCo" {
	phys-sdf world "$MJ/stiff.xml" > "$TMP/stiff.sdf"
	each_engine stiff_rest
	sed 's/integrator="implicit"/integrator="Euler"/' "$MJ/stiff.xml" > "$TMP/euler.xml"
	run -1 phys-step -q -t 1 --keyframe k "$TMP/euler.xml"
	[[ "$output" == *"diverged"*"likely cause: its servo's damping"* ]]
	run -1 phys-step -q -p mujoco -t 1 --keyframe k "$TMP/euler.xml"
	[[ "$output" == *"diverged"* ]]
	# the SDF model keeps it in the servo's plugin, read as a bool
	phys-sdf print "$MJ/stiff.xml" |
	    sed 's|<phys:implicit_servo>true<|<phys:implicit_servo>maybe<|' > "$TMP/bad.sdf"
	run -1 phys-step -q -n 1 "$TMP/bad.sdf"
	[[ "$output" == *"bad.sdf:$(grep -n implicit_servo "$TMP/bad.sdf" | cut -d: -f1): JointPositionController: <implicit_servo> 'maybe' is not true or false"* ]]
}

# ctrl_held ENGINE: ctrlrange.xml's actuators from key k, each asked past its
# ctrlrange: the arm rests at 0.5 rad (phys measures it from its ref,
# 0.1 degree), the wheel turns at 2 rad/s, the cart (its motor's range
# 0 to 3) stays; from key in, within them, the cart goes 2 N / 2 kg.
ctrl_held() {
	phys-step -q -p "$1" -t 3 -r 1 --keyframe k -i 'cr::*/position' -i 'cr::*/velocity' \
	    "$(profile_world "$TMP/cr.sdf" "$1")" | tail -1 > "$TMP/end"
	near "$(jq '.items["cr::hinge/position"][0]' "$TMP/end")" \
	    "$(awk 'BEGIN { printf "%.12g", 0.5 - 0.1 * atan2(0, -1) / 180 }')" 1e-3
	near "$(jq '.items["cr::axle/velocity"][0]' "$TMP/end")" 2 1e-6
	near "$(jq '.items["cr::rail/position"][0]' "$TMP/end")" 0 1e-9
	phys-step -q -p "$1" -t 3 -r 1 --keyframe in -i 'cr::rail/position' \
	    "$(profile_world "$TMP/cr.sdf" "$1")" | tail -1 > "$TMP/end"
	rel "$(jq '.items[][0]' "$TMP/end")" 4.5 2e-3
}

@test "mjcf: an actuator's ctrlrange holds the control it is asked under each engine: a position servo's target, a velocity servo's speed, a motor's force (its range not symmetric); a control line too" {
	phys-sdf world "$MJ/ctrlrange.xml" > "$TMP/cr.sdf"
	each_engine ctrl_held
	# a control line past the range is held to it as the key's is
	echo '{"t":0,"topic":"/model/cr/joint/axle/cmd_vel","msg":{"data":-7}}' > "$TMP/ctl"
	near "$(phys-step -q -t 2 -r 1 -c "$TMP/ctl" -i 'cr::axle/velocity' "$MJ/ctrlrange.xml" | tail -1 | jq '.items[][0]')" -1 1e-6
}

@test "mjcf: a keyframe's controls: the servo holds its arm at the key's target, the motor turns its wheel by gear times control, under ODE and MuJoCo" {
	local p
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 1 --keyframe up -i 'keyctrl::*/position' "$MJ/keyctrl.xml" |
		    tail -1 > "$TMP/end"
		# phys measures the hinge from its ref: 0.8 - 0.1
		near "$(jq '.items["keyctrl::hinge/position"][0]' "$TMP/end")" 0.7 1e-6
		# 10 rad/s^2 for 1 s, in 500 semi-implicit steps of 2 ms
		rel "$(jq '.items["keyctrl::axle/position"][0]' "$TMP/end")" 5 0.003
	done
	sed 's/ctrl="0.8 7 0.05"/ctrl="0.8 0.05"/' "$MJ/keyctrl.xml" > "$TMP/short.xml"
	run -1 phys-step -q -n 0 "$TMP/short.xml"
	[[ "$output" == *"short.xml:24: ctrl: 3 numbers expected (the model's nu)"* ]]
}

# Every body's state in keyframe KEY of MODEL, one a line:
#   NAME x y z R11 .. R33 vx vy vz wx wy wz
# (R the body's rotation; v its origin's velocity, w its angular velocity,
# in world axes), as MuJoCo's mj_resetDataKeyframe sets it ...
oracle_key() {
	"$BATS_FILE_TMPDIR/oracle" "$1" "$2" | awk '$1 == "body" {
		w = $7; x = $8; y = $9; z = $10
		s[$2] = sprintf("%s %.12g %.12g %.12g %.12g %.12g %.12g %.12g %.12g %.12g %.12g %.12g %.12g",
		    $2, $4, $5, $6, 1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y),
		    2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x),
		    2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)) }
	    $1 == "vel" { printf "%s %.12g %.12g %.12g %.12g %.12g %.12g\n", s[$2], $3, $4, $5, $6, $7, $8 }' | sort
}

# ... and as phys starts a run in it: phys_key FILE KEY MODEL ENGINE.
phys_key() {
	phys-step -q -p "$4" -n 0 --keyframe "$2" -i "$3::*/pose" \
	    -i "$3::*/linear_vel" -i "$3::*/angular_vel" "$1" | jq -r --arg m "$3::" \
	    '.items as $i | $i | keys[] | select(endswith("/linear_vel")) |
	    rtrimstr("/linear_vel") as $l | $i[$l + "/pose"] as $p |
	    $i[$l + "/linear_vel"] as $v | $i[$l + "/angular_vel"] as $w |
	    [($l | ltrimstr($m)), $p.x, $p.y, $p.z, $p.roll, $p.pitch, $p.yaw,
	     $v.x, $v.y, $v.z, $w.x, $w.y, $w.z] | map(tostring) | join(" ")' |
	    awk '{
		r = $5; p = $6; y = $7
		printf "%s %.12g %.12g %.12g", $1, $2, $3, $4
		printf " %.12g %.12g %.12g", cos(y)*cos(p), cos(y)*sin(p)*sin(r) - sin(y)*cos(r), cos(y)*sin(p)*cos(r) + sin(y)*sin(r)
		printf " %.12g %.12g %.12g", sin(y)*cos(p), sin(y)*sin(p)*sin(r) + cos(y)*cos(r), sin(y)*sin(p)*cos(r) - cos(y)*sin(r)
		printf " %.12g %.12g %.12g", -sin(p), cos(p)*sin(r), cos(p)*cos(r)
		for (i = 8; i <= 13; i++) printf " %.12g", $i
		printf "\n" }' | grep -v -e '^worldbody' -e '^hand_wrist1 ' | sort
}

# keyed ENGINE: the keyed model, included by an SDF world, starts in each
# of its keyframes as MuJoCo's would.
keyed() {
	local w k
	w=$(profile_world "$TMP/world.sdf" "$1")
	for k in crouch moving; do
		oracle_key "$MJ/keyframe.xml" $k > "$TMP/want"
		phys_key "$w" $k keyed "$1" > "$TMP/got"
		agree "$TMP/want" "$TMP/got"
	done
}

@test "mjcf: a keyframe (free, hinge with ref, slide, ball, two joints on a body) starts every engine where MuJoCo's does, moving as it does" {
	need_mujoco
	cat > "$TMP/world.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 0</gravity>
	<include><uri>$MJ/keyframe.xml</uri></include></world></sdf>
	EOF
	each_engine keyed
}

# keyloop ENGINE: the parallelogram of keyloop.xml, its loop closed by a
# connect, starts in its keyframe where MuJoCo's does (its joints' sides
# cannot move alone, which refused every keyframe of a model with a loop:
# Cassie's, xArm's; they are left where the key's poses put them), and
# swings as the closed form of its one degree of
# freedom: the coupler translates, so (2 I + m L^2 / 4) theta'' =
# -g (2 m_arm / 4 + m_coupler / 2) sin theta with the oracle's masses
# and moments, integrated in fine steps: theta(0.5) = -0.127968927, to
# the first-order engines' 1.2e-3 and Simbody's 1e-6. phys's MuJoCo
# engine holds the connect as MuJoCo does, at its softness (through a
# ghost body, stiff, it was 7e-5 rad off libmujoco's after 1 s): to 1e-9.
keyloop() {
	local tol
	oracle_key "$MJ/keyloop.xml" swung > "$TMP/want"
	phys_key "$MJ/keyloop.xml" swung keyloop "$1" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	case $1 in simbody) tol=1e-6 ;; *) tol=1.2e-3 ;; esac
	near "$(phys-step -q -p "$1" -t 0.5 -r 2 --keyframe swung \
	    -i 'keyloop::crank_hinge/position' "$MJ/keyloop.xml" |
	    tail -1 | jq '.items[][0]')" -0.127968927 "$tol"
	if [ "$1" = mujoco ]; then
		paste <("$BATS_FILE_TMPDIR/run" "$MJ/keyloop.xml" run 1 crank_hinge swung) \
		    <(phys-step -q -p mujoco -t 1 --keyframe swung \
		    -i 'keyloop::crank_hinge/position' "$MJ/keyloop.xml" |
		    jq -r 'select(.t > 0) | .items[][0]') |
		    awk '{ e = $2 - $3; if (e < 0) e = -e; if (e > m) m = e; n++ }
			END { if (n != 500 || m > 1e-9) { print n " lines, off by " m; exit 1 } }'
	fi
	# a whole turn on: the same poses, nothing said of them, nor of the
	# connect's softness (MuJoCo's engine holds it)
	run -0 --separate-stderr phys-step -n 0 -p "$1" --keyframe around "$MJ/keyloop.xml"
	[[ $stderr != *"keyframe 'around'"* ]]
	[[ $stderr != *"<connect>"* ]]
	# a key that leaves the loop open: Simbody, which closes it before
	# the run, says how far that moved its joints from the key's
	run -0 --separate-stderr phys-step -n 0 -p "$1" --keyframe ajar "$MJ/keyloop.xml"
	if [ "$1" = simbody ]; then
		[[ $stderr == *"keyloop.xml:18: keyframe 'ajar': joint 'keyloop::rocker_hinge' of a loop starts 0.0308 rad from the key's position, where Simbody closed the loop the key leaves open (and 1 more joint)"* ]]
	else
		[[ $stderr != *"keyframe 'ajar'"* ]]
	fi
}

@test "mjcf: a keyframe of a model with a loop (a parallelogram closed by a connect) starts every engine where MuJoCo's does, and it swings as its closed form" {
	need_mujoco
	each_engine keyloop
}

# bar_rests FILE: where the bar of FILE rests after 1 s under phys's
# MuJoCo engine and under libmujoco 2.2.2, to 1e-9
bar_rests() {
	local z
	z=$("$BATS_FILE_TMPDIR/run" "$1" run 1 bar | tail -1 | awk '{ print $4 }')
	near "$(phys-step -q -p mujoco -t 1 -e 500 -i 'ccd::bar/pose' "$1" | tail -1 | jq '.items[].z')" "$z" 1e-9
	echo "$z"
}

@test "mjcf: multiccd: MuJoCo's convex collider finds a bar's four corners on a box, and the bar rests flat under phys's MuJoCo engine as under libmujoco; without, it rocks onto one end; an included file's flag too; MJCF out keeps it" {
	need_mujoco
	cat > "$TMP/opt.xml" <<-'EOF'
	<mujoco>
	  <option>
	    <flag multiccd="enable"/>
	  </option>
	</mujoco>
	EOF
	# a bar 1.2 m long, 6 cm high, a hull of its eight corners, let go 1
	# cm over a box
	cat > "$TMP/ccd.xml" <<-'EOF'
	<mujoco model="ccd">
	  <include file="opt.xml"/>
	  <asset>
	    <mesh name="bar" vertex="-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1" scale=".6 .03 .03"/>
	  </asset>
	  <worldbody>
	    <geom type="box" size="1 1 .3" pos="0 0 -.3"/>
	    <body name="bar" pos="0 0 .04" euler="0 0 40"><freejoint/><geom type="mesh" mesh="bar"/></body>
	  </worldbody>
	</mujoco>
	EOF
	# flat: its centre 3 cm up, but for its contacts' softness
	near "$(bar_rests "$TMP/ccd.xml")" 0.03 2e-4
	phys-step -q -n 0 -p mujoco "$TMP/ccd.xml" | jq -e '.engine.multiccd == true'
	# without the flag, one contact: an end sinks in
	sed 's|<include file="opt.xml"/>||' "$TMP/ccd.xml" > "$TMP/one.xml"
	z=$(bar_rests "$TMP/one.xml")
	awk -v z="$z" 'BEGIN { exit !(z < 0.025) }'
	phys-sdf print --format mjcf -o "$TMP/out.xml" "$TMP/ccd.xml"
	grep -q '<flag multiccd="enable"/>' "$TMP/out.xml"
	near "$("$BATS_FILE_TMPDIR/run" "$TMP/out.xml" run 1 bar | tail -1 | awk '{ print $4 }')" "$("$BATS_FILE_TMPDIR/run" "$TMP/ccd.xml" run 1 bar | tail -1 | awk '{ print $4 }')" 1e-9
	run -0 phys-sdf check "$TMP/ccd.xml"
}

@test "mjcf: a key of no name is named keyN, N its index among the keys, and starts a run where MuJoCo's key N does" {
	need_mujoco
	sed -e 's/<key name="crouch"/<key/' -e 's/<key name="moving"/<key/' \
	    "$MJ/keyframe.xml" > "$TMP/unnamed.xml"
	run --separate-stderr phys-step -n 0 --keyframe key1 -i 'keyed::*/pose' "$TMP/unnamed.xml"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"unnamed.xml:39: a key of no name is named 'key0' (its index among the keys): a keyframe is chosen by its name"* ]]
	[[ "$stderr" == *"unnamed.xml:41: a key of no name is named 'key1'"* ]]
	oracle_key "$MJ/keyframe.xml" crouch > "$TMP/want"
	phys_key "$TMP/unnamed.xml" key0 keyed mujoco > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	oracle_key "$MJ/keyframe.xml" moving > "$TMP/want"
	phys_key "$TMP/unnamed.xml" key1 keyed ode > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	# a name a key before it has is not taken
	sed -e 's/<key name="crouch"/<key name="key1"/' -e 's/<key name="moving"/<key/' \
	    "$MJ/keyframe.xml" > "$TMP/taken.xml"
	run --separate-stderr phys-step -n 0 "$TMP/taken.xml"
	[[ "$stderr" == *"taken.xml:41: a key of no name is named 'key1_1'"* ]]
	phys_key "$TMP/taken.xml" key1_1 keyed mujoco > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
}

@test "mjcf: a keyframe past where phys places a body, or faster than any body moves, is refused at its <key>, at the start and from a control line" {
	cat > "$TMP/k.xml" <<-'EOF'
	<mujoco model="k"><worldbody>
	<body name="b" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
	</worldbody><keyframe>
	<key name="fast" qvel="0 1e300 0 0 0 0"/>
	<key name="far" qpos="0 0 -3e8 1 0 0 0"/>
	<key name="spin" qvel="0 0 0 2e8 0 0"/>
	<key name="ok" qpos="0 0 2e8 1 0 0 0" qvel="0 0 2.9e8 0 0 0"/>
	</keyframe></mujoco>
	EOF
	run --separate-stderr phys-step -n 1 --keyframe fast "$TMP/k.xml"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[ "$stderr" = "phys-step: $TMP/k.xml:4: keyframe 'fast' of link 'k::b': 1e+300 m/s is faster than any body moves (light's 299792458 m/s)" ]
	run --separate-stderr phys-step -n 1 --keyframe far "$TMP/k.xml"
	[ "$stderr" = "phys-step: $TMP/k.xml:5: keyframe 'far' of link 'k::b': -3e+08 m along z is farther than phys places a body (2.6e+08 m from the origin along each axis)" ]
	echo '{"t":0.002,"keyframe":"spin"}' > "$TMP/ctl"
	run --separate-stderr phys-step -n 5 -c "$TMP/ctl" "$TMP/k.xml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: $TMP/ctl:1: $TMP/k.xml:6: keyframe 'spin' of link 'k::b': 2e+08 rad/s is faster than any body turns (1e+08 rad/s)" ]
	# within: 2e8 m up at 2.9e8 m/s, a step of MuJoCo's 2 ms later
	# 5.8e5 m higher, less g h^2
	run -0 phys-step -q -n 1 --keyframe ok -i 'k::b/pose' "$TMP/k.xml"
	near "$(tail -1 <<<"$output" | jq '.items["k::b/pose"].z')" "$(awk 'BEGIN { printf "%.17g", 2e8 + (2.9e8 - 9.81 * 0.002) * 0.002 }')" 1e-6
}

@test "mjcf: a keyframe a control line names mid-run sets the model to it: a falling body set back up at rest falls from there, z0 - g h^2 n (n + 1) / 2, under each engine" {
	cat > "$TMP/k.xml" <<-'EOF'
	<mujoco model="k"><option timestep="0.001"/><worldbody>
	<body name="b" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
	</worldbody><keyframe>
	<key name="up" qpos="0.5 0 2 1 0 0 0"/>
	</keyframe></mujoco>
	EOF
	echo '{"t":0.5,"keyframe":"up"}' > "$TMP/ctl"
	# 200 steps of 1 ms after it, from rest at 2 m, semi-implicit Euler
	fell() {
		run -0 phys-step -q -p "$1" -t 0.7 -r 10 -c "$TMP/ctl" -i 'k::b/pose' "$TMP/k.xml"
		tail -1 <<<"$output" | jq -e '.items["k::b/pose"] |
		    (.x - 0.5 | fabs) < 1e-6 and (.z - (2 - 9.81 * 1e-6 * 200 * 201 / 2) | fabs) < 2e-3' > /dev/null
	}
	each_engine fell
}

# exclude_stack ENGINE: the boxes of exclude.xml, as $TMP/x.xml has them, in an
# SDF world: where the upper one is at 0.25 s and at 1 s.
exclude_stack() {
	local w
	cat > "$TMP/world.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
	<include><uri>$TMP/x.xml</uri></include></world></sdf>
	EOF
	w=$(profile_world "$TMP/world.sdf" "$1")
	phys-step -q -p "$1" -t 1 -i 'stack::high/pose' "$w" > "$TMP/run"
	echo "$(at "$TMP/run" 0.25 stack::high/pose z) $(at "$TMP/run" 1 stack::high/pose z)"
}

# landed ENGINE: the upper box rests on the lower, 0.3 m up.
landed() {
	local z
	z=$(exclude_stack "$1")
	near "${z#* }" 0.3 0.005
}

# through ENGINE: the upper box falls freely through the lower, at 0.5 -
# g t^2 / 2 at t = 0.25 s, and rests on the floor at 0.1 m.
through() {
	local z
	z=$(exclude_stack "$1")
	near "${z% *}" "$(awk 'BEGIN { print 0.5 - 9.81 * 0.25^2 / 2 }')" 0.005
	near "${z#* }" 0.1 0.005
}

@test "mjcf: bodies of one model touch, as MuJoCo's do; an <exclude> or contype and conaffinity keep two boxes apart under each engine" {
	cp "$MJ/exclude.xml" "$TMP/x.xml"
	each_engine landed
	sed 's#</worldbody>#&<contact><exclude body1="high" body2="low"/></contact>#' "$MJ/exclude.xml" > "$TMP/x.xml"
	each_engine through
	# the floor's bits 3 meet the upper box's 2; the lower box's 1 do not
	sed -e 's#name="top"#& contype="2" conaffinity="2"#' \
	    -e 's#name="floor"#& contype="3" conaffinity="3"#' "$MJ/exclude.xml" > "$TMP/x.xml"
	through ode
	through mujoco
	sed -e 's#name="top"#& contype="2" conaffinity="3"#' \
	    -e 's#name="floor"#& contype="3" conaffinity="3"#' "$MJ/exclude.xml" > "$TMP/x.xml"
	landed ode
}

# excluded_swing ENGINE: the pitch of $TMP/deep.xml's arm a after 0.02 s.
excluded_swing() {
	phys-step -q -p "$1" -t 0.02 -i 'deep::a/pose' "$TMP/deep.xml" |
	    tail -1 | jq '.items["deep::a/pose"].pitch'
}

@test "mjcf: an excluded pair is never tracked by Simbody: two arms half through each other, a light finger making Simbody's steps small, swing as under MuJoCo (they stopped the run, past the bound on a step's contact work)" {
	# a hinge that stops its light link within 1e-6 s takes Simbody
	# some 2,000 steps of its own in each of 2 ms
	cat > "$TMP/deep.xml" <<-EOF
	<mujoco model="deep"><worldbody><body name="t" pos="0 0 1">
	<geom type="box" size="0.2 0.1 0.05"/>
	<body name="a" pos="0 0 0.1"><joint type="hinge" axis="0 1 0"/>
	<geom type="capsule" fromto="0 0 0 0.2 0 0.2" size="0.05"/></body>
	<body name="b" pos="0 0 0.1"><joint type="hinge" axis="1 0 0"/>
	<geom type="capsule" fromto="0 0 0 0.15 0 0.25" size="0.05"/></body>
	<body name="f" pos="0.2 0 0"><joint type="hinge" axis="0 1 0" damping="0.001"/>
	<geom type="sphere" pos="0.01 0 0" size="0.005" mass="1e-5"/></body>
	</body></worldbody><contact><exclude body1="a" body2="b"/></contact></mujoco>
	EOF
	local want e
	want=$(excluded_swing mujoco)
	for e in $(engines); do
		echo "under $e"
		case $e in
		# a swing from rest, a t^2 / 2, where a step of 2 ms
		# taken ten times gives a dt^2 (1 + ... + 10): 1.1 times it
		simbody) rel "$(awk -v p="$(excluded_swing simbody)" 'BEGIN { print p * 1.1 }')" "$want" 0.001 ;;
		*) rel "$(excluded_swing "$e")" "$want" 0.001 ;;
		esac
	done
}

@test "mjcf: MuJoCo's filter keeps apart a body and its parent through two joints, and a body welded to its parent from its grandparent" {
	# each body's box overlaps its parent's: touching, they would push
	# apart at once; kept apart, nothing moves without gravity
	cat > "$TMP/f.xml" <<-EOF
	<mujoco model="f"><option gravity="0 0 0"/><worldbody>
	<body name="a" pos="0 0 1"><freejoint/><geom type="box" size="0.2 0.2 0.2"/>
	<body name="b" pos="0.1 0 0"><joint axis="1 0 0"/><joint axis="0 1 0"/>
	<geom type="box" size="0.2 0.2 0.2"/>
	<body name="c" pos="0.1 0 0"><geom type="box" size="0.2 0.2 0.2"/>
	<body name="d" pos="0.35 0 0"><joint axis="0 0 1"/><geom type="box" size="0.2 0.2 0.2"/>
	</body></body></body></body></worldbody></mujoco>
	EOF
	moved() {
		phys-step -q -t 0.2 -e 100 -i 'f::*/linear_vel' "$1" | tail -1 |
		    jq '[.items[] | .x, .y, .z | fabs] | max'
	}
	near "$(moved "$TMP/f.xml")" 0 1e-9
	# the same model without phys's exclusions: the boxes fly apart
	phys-sdf print "$TMP/f.xml" 2> /dev/null | grep -v 'phys:exclude\|phys:weld' > "$TMP/f.sdf"
	[ "$(awk -v v="$(moved "$TMP/f.sdf")" 'BEGIN { print (v > 0.01) }')" = 1 ]
}

# welded N: an MJCF model of a free ball with N balls welded to it, all in
# one spot, falling at 10 m/s^2.
welded() {
	awk -v n="$1" 'BEGIN {
		printf "<mujoco model=\"weld\"><option gravity=\"0 0 -10\" timestep=\"0.001\"/>"
		printf "<worldbody><body name=\"r\"><freejoint/><geom size=\"0.1\"/>"
		for (i = 0; i < n; i++)
			printf "<body name=\"b%d\" pos=\"0 0 0.01\"><geom size=\"0.1\"/></body>", i
		print "</body></worldbody></mujoco>"
	}'
}

@test "mjcf: bodies welded to one in one spot fall as one under each engine; 3,000 of them print in a size linear in them" {
	# MuJoCo's filter keeps them apart: each body's weld is written, not
	# each pair of them (4.5 million for 3,000: 160 MB), and the engines'
	# broad phases leave them out; no pair starts deep inside another.
	# (100 of them: under ODE's exact solver, to which MuJoCo's Newton
	# maps, 300 welds are a dense system of 1,800 rows, 0.5 s a step.)
	welded 100 > "$TMP/w.xml"
	phys-sdf world "$TMP/w.xml" > "$TMP/w.sdf"
	local e z
	for e in bullet dart simbody; do
		phys-preset add --engine $e $e "$TMP/w.sdf" > "$TMP/w.$e.sdf"
	done
	for e in default_physics mujoco bullet dart simbody; do
		f=$TMP/w.$e.sdf
		[ -e "$f" ] || f=$TMP/w.xml
		z=$(phys-step -q -p $e -t 0.1 -e 100 -i 'weld::r/pose' "$f" |
		    tail -1 | jq '.items["weld::r/pose"].z')
		# z = -g t^2 / 2 = -0.05, within each engine's first-order step
		near "$z" -0.05 0.0011 || fail "$e: z $z"
	done
	welded 3000 > "$TMP/w.xml"
	bounded 10 600000 phys-sdf print "$TMP/w.xml" > "$TMP/w.out"
	# about 1.3 KB a body, however many are welded together
	[ "$(wc -c < "$TMP/w.out")" -lt 6000000 ]
}

@test "mjcf: a motor's ctrlrange and its forcerange bound its force, which its gear multiplies, as MuJoCo 2.2.2 makes it: a 1 kg cart reaches 2 m/s, then 1 m/s, in 1 s" {
	cat > "$TMP/act.xml" <<-EOF
	<mujoco model="act"><compiler autolimits="true"/><option gravity="0 0 0"/>
	<worldbody><body name="cart"><joint name="slider" type="slide" axis="1 0 0"/>
	<geom type="box" size="0.1 0.1 0.1" mass="1"/></body></worldbody>
	<actuator><motor joint="slider" gear="2" ctrlrange="-1 1"/></actuator></mujoco>
	EOF
	echo '{"t":0,"topic":"/model/act/joint/slider/cmd_force","msg":{"data":100}}' > "$TMP/act.jsonl"
	local p
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 1 -e 500 -c "$TMP/act.jsonl" -i 'act::slider/velocity' "$TMP/act.xml" | tail -1 > "$TMP/end"
		near "$(jq '.items["act::slider/velocity"][0]' "$TMP/end")" 2 1e-9
	done
	# the force held to 0.5 N, then geared: 1 N (libmujoco's too)
	sed -i 's/ctrlrange="-1 1"/& forcerange="-0.5 0.5"/' "$TMP/act.xml"
	for p in default_physics mujoco; do
		phys-step -q -p $p -t 1 -e 500 -c "$TMP/act.jsonl" -i 'act::slider/velocity' "$TMP/act.xml" | tail -1 > "$TMP/end"
		near "$(jq '.items["act::slider/velocity"][0]' "$TMP/end")" 1 1e-9
	done
}

# borne ENGINE: tests/data/mjcf/gravcomp.xml's ball floats on at the
# key's speed; its arm, whose weight is borne, swings by its bob's
# alone: 1/2 I w^2 = m g L sin q (I 0.2185, m 0.5, L 0.5).
borne() {
	phys-step -q -p "$1" -t 1 -e 1000 --keyframe k -i gravcomp::ball/pose \
	    -i gravcomp::swing/position -i gravcomp::swing/velocity \
	    "$(profile_world "$TMP/gravcomp.sdf" "$1")" | tail -1 > "$TMP/end"
	near "$(jq '.items["gravcomp::ball/pose"].x' "$TMP/end")" 0.3 1e-6
	near "$(jq '.items["gravcomp::ball/pose"].z' "$TMP/end")" 1 1e-6
	rel "$(jq '.items["gravcomp::swing/velocity"][0] | . * . * 0.2185 / 2' "$TMP/end")" \
	    "$(jq '.items["gravcomp::swing/position"][0] | 0.5 * 9.81 * 0.5 * sin' "$TMP/end")" 0.01
}

@test "mjcf: a later MuJoCo's gravcomp bears a body's weight under each engine: a ball floats, an arm swings by its bob's weight alone; MJCF out says it cannot write it" {
	phys-sdf world "$BATS_TEST_DIRNAME/data/mjcf/gravcomp.xml" > "$TMP/gravcomp.sdf"
	each_engine borne
	run -0 --separate-stderr phys-sdf print --format mjcf "$BATS_TEST_DIRNAME/data/mjcf/gravcomp.xml"
	[[ "$stderr" == *"gravcomp.xml:11: link 'gravcomp::ball' has no gravity, which MuJoCo 2.2.2 has no way to say (a later MuJoCo's gravcomp=\"1\" does): written with gravity"* ]]
}

@test "mjcf: a massless body the world holds still (no joint of its own: welded, as Menagerie's base and camera bodies are) runs without a word of its mass, under every engine; -p of an engine the model has no profile of runs under it; a massless body that moves is still said" {
	cat > "$TMP/still.xml" <<'XML'
<mujoco>
  <worldbody>
    <body name="base">
      <body name="cam"><camera name="c"/></body>
      <body name="arm" pos="0 0 1">
        <joint name="j" axis="0 1 0"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0.3 0 0"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="j"/></actuator>
</mujoco>
XML
	for p in default_physics mujoco; do
		run -0 --separate-stderr phys-step -p $p -n 1 "$TMP/still.xml"
		[[ "$stderr" != *"mass 0"* ]]
		[[ "$stderr" != *"not positive definite"* ]]
	done
	# the arm hangs from the base, held still as the world holds it: it
	# swings as under MuJoCo, under each engine named by -p, a profile
	# of its own made for those the model has none of (Bullet refused
	# the massless base, and took a light one badly)
	want=$(phys-step -q -p mujoco -t 0.2 -e 100 -i 'MuJoCo Model::j/position' "$TMP/still.xml" | tail -1 | jq '.items[][0]')
	awk -v q="$want" 'BEGIN { exit !(q > 0.5) }'
	for p in ode bullet dart; do
		run -0 --separate-stderr phys-step -p $p -t 0.2 -e 100 -i 'MuJoCo Model::j/position' "$TMP/still.xml"
		near "$(tail -1 <<< "$output" | jq '.items[][0]')" "$want" 1e-3
		[[ "$stderr" != *"mass"* ]]
	done
	[[ "$stderr" == *"no profile named 'dart': running profile 'dart_from_default_physics' of engine dart"* ]]
	# a base of 1e-10 kg (a tiny mesh's) held still too: under Bullet the
	# arm hung still (8e-6 rad after 0.2 s)
	sed 's|<body name="base">|<body name="base"><inertial pos="0 0 0" mass="1e-10" diaginertia="1e-14 1e-14 1e-14"/>|' "$TMP/still.xml" > "$TMP/tiny.xml"
	for p in ode bullet; do
		run -0 phys-step -q -p $p -t 0.2 -e 100 -i 'MuJoCo Model::j/position' "$TMP/tiny.xml"
		near "$(tail -1 <<< "$output" | jq '.items[][0]')" "$want" 1e-3
	done
	run -2 phys-step -q -p nope -n 1 "$TMP/still.xml"
	assert_output "phys-step: no profile named 'nope' (there are: default_physics, mujoco)"
	sed 's|<body name="cam">|<body name="cam"><freejoint/>|' "$TMP/still.xml" > "$TMP/moves.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/moves.xml"
	# no mass and no inertia: one warning says both
	[[ "$stderr" == *"link 'MuJoCo Model::cam': mass 0 and no inertia, which Gazebo refuses on a moving link; run with mass "*" kg (1/1000 of its model's lightest link, or of 1 kg) and each principal moment mass * (0.001 m)^2"* ]]
	[ "$(grep -c "'MuJoCo Model::cam'" <<< "$stderr")" -eq 1 ]
}

@test "mjcf: an actuator of a site (a drone's rotor) pushes its body along its gear in the site's frame: 9.81 N on 0.5 kg climbs at g, 0.004 N m on Izz 0.004 turns at 1 rad/s^2, under each engine (closed form); a site that is not there is refused" {
	local src="$MJ/drone.xml" p z yaw
	for p in ode bullet dart simbody mujoco; do
		phys-step -q -p $p -t 1 -e 1000 --keyframe climb -i 'drone::cf/pose' "$src" |
		    tail -1 | jq -r '.items[] | "\(.z) \(.yaw)"' > "$TMP/q"
		read -r z yaw < "$TMP/q"
		echo "$p: $z $yaw"
		# z = 1 + g t^2 / 2, yaw = t^2 / 2 at t = 1 (the step's error:
		# semi-implicit Euler adds h t / 2)
		near "$z" 5.905 0.006
		near "$yaw" 0.5 0.001
	done
	sed 's|site="rotor"|site="nope"|' "$src" > "$TMP/nope.xml"
	run -1 phys-step -q -n 1 "$TMP/nope.xml"
	assert_output --partial "nope.xml:30: no site 'nope'"
}

@test "mjcf: a key's hinge angles start each engine where the key puts them, whole turns too (a wrist keyed at 0.96 rad started at -5.32 under MuJoCo, a joint at -2.55 at its other limit under ODE), and MJCF out writes them back so" {
	cat > "$TMP/arm.xml" <<'XML'
<mujoco model="arm">
  <compiler angle="radian"/>
  <worldbody>
    <body name="l1" pos="0 0 1">
      <joint name="j1" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/>
      <body name="l2" pos="0.2 0 0" quat="1 -1 0 0">
        <joint name="j2" axis="0 0 1" limited="true" range="-2.57 2.57"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/>
        <body name="l3" pos="0.2 0 0" quat="1 1 0 0">
          <joint name="j3" axis="0 0 1" limited="true" range="-2.09 2.09"/>
          <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/>
          <body name="l4" pos="0.2 0 0" quat="1 -1 0 0">
            <joint name="j4" axis="0 0 1"/>
            <geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.02"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <keyframe>
    <key name="far" qpos="3.14159265 -2.54818071 0.95993109 4.71238898"/>
  </keyframe>
</mujoco>
XML
	local p
	for p in mujoco ode bullet dart simbody; do
		phys-step -q -p $p -n 0 --keyframe far -i 'arm::j?/position' "$TMP/arm.xml" |
		    jq -r '[.items[][0]] | map(tostring) | join(" ")' > "$TMP/q"
		echo "$p: $(cat "$TMP/q")"
		echo "3.14159265 -2.54818071 0.95993109 4.71238898" > "$TMP/want"
		lines_agree "$TMP/want" "$TMP/q" 1e-7
	done
	phys-sdf print --format mjcf "$TMP/arm.xml" > "$TMP/out.xml"
	sed -n 's/.*<key name="far" qpos="\([^"]*\)".*/\1/p' "$TMP/out.xml" > "$TMP/q"
	lines_agree "$TMP/want" "$TMP/q" 1e-9
}

@test "mjcf: where ODE's coupling slips (a chain of light and heavy links under a motor), the run says so once, and truly: ODE is off the constraint where MuJoCo and DART hold it" {
	local src="$MJ/slip.xml" p sum tol
	for p in mujoco dart ode; do
		run -0 --separate-stderr phys-step -p $p -t 0.5 -r 2 --keyframe push -i 'leg::j?/position' "$src"
		sum=$(tail -1 <<< "$output" | jq '[.items[][0]] | add')
		echo "$p: $sum"
		if [ $p = ode ]; then
			awk -v s="$sum" 'BEGIN { exit !(s > 0.01 || s < -0.01) }'
			[ "$(grep -c "its coupling (mimic) is .* off: ODE holds a coupling by a force" <<< "$stderr")" -eq 1 ]
		else
			# MuJoCo as softly as its default solref holds it (2.5 mm)
			tol=1e-3
			[ $p != mujoco ] || tol=5e-3
			near "$sum" 0 $tol
			[[ "$stderr" != *"coupling (mimic)"* ]]
		fi
	done
}

@test "mjcf: a range of \"0 0\", given or a class's, is no range, as MuJoCo has it: not limited under autolimits, not refused without; limited=\"true\" on it is refused, by phys-step and phys-sdf check alike" {
	need_mujoco
	cat > "$TMP/zero.xml" <<'XML'
<mujoco model="zero">
  <compiler autolimits="true"/>
  <default>
    <default class="z"><joint range="0 0"/></default>
    <default class="r"><joint range="-1 1"/></default>
  </default>
  <worldbody>
    <body name="a"><joint name="given" axis="0 1 0" range="0 0"/><geom size="0.1" mass="1"/>
      <body name="b" pos="0 0 -0.3"><joint name="inherited" class="z" axis="0 1 0"/><geom size="0.1" mass="1"/>
        <body name="c" pos="0 0 -0.3"><joint name="overridden" class="r" axis="0 1 0" range="0 0"/><geom size="0.1" mass="1"/>
          <body name="d" pos="0 0 -0.3"><joint name="limited" class="r" axis="0 1 0"/><geom size="0.1" mass="1"/></body>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="given" ctrlrange="0 0"/></actuator>
</mujoco>
XML
	same_as_mujoco "$TMP/zero.xml"
	# only the last joint is limited, to its class's range
	[ "$(oracle_joints "$TMP/zero.xml" | awk 'NF > 9' | cut -d' ' -f1)" = limited ]
	run -0 phys-sdf check "$TMP/zero.xml"
	sed 's|<compiler autolimits="true"/>||; s|name="limited" class="r"|name="limited"|' "$TMP/zero.xml" > "$TMP/plain.xml"
	same_as_mujoco "$TMP/plain.xml"
	run -0 phys-sdf check "$TMP/plain.xml"
	sed 's|range="0 0"/><geom|range="0 0" limited="true"/><geom|' "$TMP/zero.xml" > "$TMP/bad.xml"
	run -1 "$BATS_FILE_TMPDIR/oracle" "$TMP/bad.xml"
	run -1 phys-step -n 0 "$TMP/bad.xml"
	assert_output "phys-step: $TMP/bad.xml:8: range[0] should be smaller than range[1]"
	run -1 phys-sdf check "$TMP/bad.xml"
	[[ "$output" == *'"line":8,"severity":"error","message":"<joint range=\"0 0\">: the lower limit must be below the upper"'* ]]
}

@test "mjcf: a stiff servo that a joint's armature steadies under MuJoCo's Euler integrator is taken into the step by ODE, Bullet and DART, which have no armature, said once: each rests at its target as MuJoCo does (they stayed at 0)" {
	local src="$MJ/rotor.xml" p
	for p in mujoco ode bullet dart; do
		run -0 --separate-stderr phys-step -p $p -t 1 -e 500 --keyframe k -i 'rotor::j/position' -i 'rotor::j/velocity' "$src"
		echo "$p: $(tail -1 <<< "$output")"
		near "$(tail -1 <<< "$output" | jq '.items["rotor::j/position"][0]')" 0.5 1e-6
		near "$(tail -1 <<< "$output" | jq '.items["rotor::j/velocity"][0]')" 0 1e-6
		[ "$(grep -c "rotor.xml:14: 1 servo of joints with armature, which steadies a stiff servo under MuJoCo's Euler integrator: ODE, Bullet and DART, which have no armature, take it into the step in its place (implicit_servo)" <<< "$stderr")" -eq 1 ]
	done
}

@test "mjcf: a class's limited=\"true\" reaching a free joint (BXI Elf2's) leaves it unlimited, as MuJoCo compiles it; one written on the free joint is said; phys refused both" {
	need_mujoco
	cat > "$TMP/freelim.xml" <<'XML'
<mujoco model="freelim">
  <compiler angle="radian"/>
  <default><joint limited="true" range="-1 1"/></default>
  <worldbody>
    <body name="base" pos="0 0 0.5">
      <freejoint name="root"/>
      <geom type="sphere" size="0.1" mass="1"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.2"/>
      </body>
    </body>
  </worldbody>
</mujoco>
XML
	same_as_mujoco "$TMP/freelim.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/freelim.xml"
	[[ "$stderr" != *"free joint"* ]]
	# the hinge keeps its class's limits
	assert_equal "$(phys-param get "$TMP/freelim.xml" 'freelim::hinge/axis.limit.upper' | jq .value)" 1
	sed 's|<freejoint name="root"/>|<joint name="root" type="free" limited="true"/>|' "$TMP/freelim.xml" > "$TMP/said.xml"
	"$BATS_FILE_TMPDIR/oracle" "$TMP/said.xml" > /dev/null
	run -0 --separate-stderr phys-step -n 1 "$TMP/said.xml"
	[[ "$stderr" == *"said.xml:6: a free joint's limits: MuJoCo takes none, and neither does phys"* ]]
	run -0 phys-sdf check "$TMP/said.xml"
}

# The wheel of model $1 spun at 10 rad/s for $2 s under profile $3 (more
# phys-step options after), its rate at the end.
spun_down() {
	local f="$1" t="$2" p="$3"
	shift 3
	phys-step -q -p "$p" --keyframe spun -t "$t" -r "$(awk -v t="$t" 'BEGIN { print 1 / t }')" \
	    -i 'eulerdamp::spin/velocity' "$@" "$f" | tail -1 | jq '.items[][0]'
}

@test "mjcf: a later MuJoCo's eulerdamp=\"disable\" damps as an explicit force under Euler, rate (1 - h d / I) a step, where 2.2.2 gives 1 / (1 + h d / I): the MuJoCo engine's and ODE's; mujoco.eulerdamp sets it for any world, and phys-param writes it as the flag; not read under another integrator; MJCF out says it is left out" {
	run -0 --separate-stderr phys-step -n 1 "$MJ/eulerdamp.xml"
	assert_equal "$stderr" ""
	# h d / I = 0.001 * 0.5 / 0.1 = 0.005 a step, 500 steps
	explicit=$(awk 'BEGIN { printf "%.17g", 10 * (1 - 0.005) ^ 500 }')
	rel "$(spun_down "$MJ/eulerdamp.xml" 0.5 mujoco)" "$explicit" 1e-9
	rel "$(spun_down "$MJ/eulerdamp.xml" 0.5 default_physics)" "$explicit" 1e-9
	# without the flag, 2.2.2's implicit damping: 1.3% faster here
	sed 's|<flag eulerdamp="disable"/>||' "$MJ/eulerdamp.xml" > "$TMP/implicit.xml"
	rel "$(spun_down "$TMP/implicit.xml" 0.5 mujoco)" "$(awk 'BEGIN { printf "%.17g", 10 / (1 + 0.005) ^ 500 }')" 1e-9
	rel "$(spun_down "$TMP/implicit.xml" 0.5 mujoco -s mujoco.eulerdamp=false)" "$explicit" 1e-9
	# set in the file: a <flag> of its <option>
	phys-param set --in-place -p mujoco mujoco.eulerdamp=false "$TMP/implicit.xml"
	grep -q '<flag eulerdamp="disable"/>' "$TMP/implicit.xml"
	rel "$(spun_down "$TMP/implicit.xml" 0.5 mujoco)" "$explicit" 1e-9
	# forty times the damping: 0.2 of the rate a step, 50 steps
	sed 's/damping="0.5"/damping="20"/' "$MJ/eulerdamp.xml" > "$TMP/d.xml"
	rel "$(spun_down "$TMP/d.xml" 0.05 mujoco)" "$(awk 'BEGIN { printf "%.17g", 10 * 0.8 ^ 50 }')" 1e-9
	run -0 phys-sdf check "$TMP/d.xml"
	run -0 --separate-stderr phys-sdf print --format mjcf "$TMP/d.xml"
	assert_equal "$stderr" "phys-sdf: mujoco.eulerdamp=false is left out: MuJoCo 2.2.2 has no such flag, and takes joint damping into its Euler step implicitly"
	# RK4 has no use for it
	sed 's/integrator="Euler"/integrator="RK4"/' "$TMP/d.xml" > "$TMP/rk.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/rk.xml"
	assert_equal "$stderr" "phys-step: $TMP/rk.xml:5: <flag eulerdamp=\"disable\">: a later MuJoCo's, for its Euler integrator only (the model's is RK4): not read"
	# a later MuJoCo's other flags, at values 2.2.2 moves the model as
	sed 's|<flag eulerdamp="disable"/>|<flag invdiscrete="disable" sleep="disable" island="enable" autoreset="disable"/>|' "$MJ/eulerdamp.xml" > "$TMP/f.xml"
	run -0 --separate-stderr phys-step -n 1 "$TMP/f.xml"
	assert_equal "$stderr" "phys-step: $TMP/f.xml:5: <flag island, autoreset>: a later MuJoCo's, for how it runs, not for how the model moves: not read"
}

@test "mjcf: a later MuJoCo's <replicate> copies what it holds, nested, each copy at the offsets of those before it and turned by its euler, its names suffixed as that MuJoCo suffixes them: as libmujoco reads the same written out by hand; an actuator naming a replicated joint, a bad count and too many copies are refused at their lines, and an edit of one copy" {
	need_mujoco
	SAME_AS="$MJ/replicate.xml" same_as_mujoco "$MJ/replicate-2.2.2.xml"
	# and written out as MJCF, each copy a body of its own
	phys-sdf print -q --format mjcf "$MJ/replicate.xml" > "$TMP/out.xml"
	oracle_bodies "$MJ/replicate-2.2.2.xml" > "$TMP/want"
	oracle_bodies "$TMP/out.xml" > "$TMP/got"
	agree "$TMP/want" "$TMP/got"
	# the suffix padded to count's digits, an inner one's first
	run -0 --separate-stderr phys-sdf print "$MJ/replicate.xml"
	[ "$(printf '%s\n' "$output" | grep -c '<frame name="mark0[0-9]"')" = 10 ]
	[[ "$output" == *'<collision name="ball_12">'* ]]
	# MuJoCo copies an element that names a replicated one, with it
	edit_refused "$MJ/replicate.xml" 's|</worldbody>|&<actuator><motor joint="hinge"/></actuator>|' 28 \
	    "<motor joint=\"hinge\">: 'hinge' is named in a <replicate> (line 18), which a later MuJoCo copies this <motor> with, each copy naming one of its copies: phys does not copy it: phys refuses the model"
	edit_refused "$MJ/replicate.xml" 's|count="3"|count="2.5"|' 16 \
	    'count="2.5": a whole number from 1 to 100000'
	edit_refused "$MJ/replicate.xml" 's|<geom name="ball"|<joint name="j2"/>&|' 21 \
	    'a joint in a <replicate> is not read: phys refuses the model'
	# copies of copies bounded: 1000 x 1000 sites
	edit_refused "$MJ/replicate.xml" 's|<replicate count="10" offset="0.1 0 0">|<replicate count="1000"><replicate count="1000">|; s|<site name="mark" pos="0 -1 0"/>|&</replicate>|' 25 \
	    '<replicate>: more than 100000 elements copied in the model: the limit (LIMITS in phys(7))'
	# an edit of one copy, which its element would make of every copy
	cp "$MJ/replicate.xml" "$TMP/edit.xml"
	run -1 phys-param set -q --in-place 'replicate::arm1::geom4/surface.friction.ode.mu=0.3' "$TMP/edit.xml"
	assert_equal "$output" "phys-param: $TMP/edit.xml: 'geom4' is one of the copies the <replicate> at line 16 makes: an edit of its element would change every copy: no element of this file holds its surface.friction.ode.mu alone"
	run -1 phys-param set -q --in-place 'replicate::hinge2/axis.dynamics.damping=2' "$TMP/edit.xml"
	[[ "$output" == *"'hinge2' is one of the copies the <replicate> at line 16 makes"* ]]
	cmp "$MJ/replicate.xml" "$TMP/edit.xml"
}
