#!/usr/bin/env bats
# gz-sim's systems read from <plugin>: their parameters, defaults and
# topics as gz-sim has them, their commands as topic lines, each against
# its closed form or the behaviour gz-sim's example worlds describe, under
# every engine. The worlds are written here, each a few models with the
# plugin blocks of gz-sim's examples.

load helper
bats_require_minimum_version 1.5.0

# world FILE: a world with one profile per engine around the models on
# stdin, gravity 9.81 m/s^2.
world() {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.6">\n  <world name="default">\n'
		engine_profiles 0.001
		printf '    <gravity>0 0 -9.81</gravity>\n'
		cat
		printf '  </world>\n</sdf>\n'
	} > "$1"
}

# gz_rotor MODEL IZZ DAMPING PLUGIN...: gz-sim's example rotor: a 120 kg base
# welded to the world and a 0.6 kg rotor on joint j1 about z through its
# centre (inertia IZZ about it, the joint's damping DAMPING), the plugin
# blocks after.
gz_rotor() {
	local m=$1 izz=$2 b=$3
	shift 3
	cat <<EOF
    <model name="$m">
      <link name="base_link">
        <inertial><mass>120</mass><inertia><ixx>2.501</ixx><iyy>2.501</iyy><izz>5</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.5 0.5 0.01</size></box></geometry></collision>
      </link>
      <link name="rotor">
        <pose>0 0 0.1 0 0 0</pose>
        <inertial><mass>0.6</mass><inertia><ixx>0.032</ixx><iyy>0.032</iyy><izz>$izz</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.25 0.1 0.05</size></box></geometry></collision>
      </link>
      <joint name="world_fixed" type="fixed"><parent>world</parent><child>base_link</child></joint>
      <joint name="j1" type="revolute">
        <pose>0 0 -0.5 0 0 0</pose>
        <parent>base_link</parent><child>rotor</child>
        <axis><xyz>0 0 1</xyz><dynamics><damping>$b</damping></dynamics></axis>
      </joint>
      $*
    </model>
EOF
}

# value_at FILE T ITEM: axis 0 (or the number) of ITEM at time T.
value_at() {
	jq -r --argjson t "$2" --arg i "$3" \
	    'select(.t == $t) | .items[$i] | if type == "array" then .[0] else . end' "$1"
}

# mean_over FILE T0 T1 ITEM: ITEM's mean over the lines from T0 to T1 (s).
mean_over() {
	jq -s -r --argjson a "$2" --argjson b "$3" --arg i "$4" \
	    '[.[] | select(.t >= $a and .t <= $b) | .items[$i] |
	    if type == "array" then .[0] else . end] | add / length' "$1"
}

# run_world PROFILE SECONDS FILE [OPTION]...: state lines every 10 ms in
# $TMP/PROFILE, warnings in $TMP/PROFILE.err.
run_world() {
	local p=$1 t=$2 w=$3
	shift 3
	phys-step -p "$p" -t "$t" -r 100 "$@" "$w" > "$TMP/$p" 2> "$TMP/$p.err"
}

JPC='<plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">'

# ---- plugins phys does not run ----

@test "every plugin phys does not run is said once, with its file, line and name; -q silences it" {
	world "$TMP/w.sdf" <<EOF
    <plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>
    <plugin filename="gz-sim-scene-broadcaster-system" name="gz::sim::systems::SceneBroadcaster"/>
    <plugin filename="libgz-sim8-joint-position-controller-system.so" name="gz::sim::systems::JointPositionController"><joint_name>m::j1</joint_name></plugin>
$(gz_rotor m 0.00012 0 '<plugin filename="libfoo.so" name="foo::Bar"/>')
    <model name="spun">
      <link name="l"><pose>2 0 0 0 0 0</pose><sensor name="s" type="imu"><plugin filename="libimu.so" name="imu"/></sensor></link>
      <plugin filename="libInitialVelocityPlugin.so" name="v"><angular>0 0 1</angular></plugin>
    </model>
EOF
	run phys-step -t 0.01 -r 1000 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	local w="$TMP/w.sdf" n
	n=$(grep -n SceneBroadcaster "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'gz::sim::systems::SceneBroadcaster' (gz-sim-scene-broadcaster-system) is not run; phys(7) lists the gz-sim systems phys runs"* ]]
	n=$(grep -n 'libgz-sim8-joint' "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'gz::sim::systems::JointPositionController' (libgz-sim8-joint-position-controller-system.so) is not run: gz-sim runs it in a <model> only"* ]]
	n=$(grep -n 'libfoo' "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'foo::Bar' (libfoo.so) is not run"* ]]
	n=$(grep -n 'libimu' "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'imu' (libimu.so) is not run"* ]]
	# once each, and nothing of the plugins phys reads
	[ "$(echo "$output" | grep -c 'is not run')" -eq 4 ]
	! echo "$output" | grep -q 'Physics\|InitialVelocity' || false
	run phys-step -q -t 0.01 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'not run' || false
}

@test "a URDF's <gazebo> plugins are the model's, as libsdformat carries them: a system runs, another is said not run at its URDF line" {
	cat > "$TMP/r.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="r">
  <link name="world"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="spin" type="continuous">
    <parent link="world"/><child link="arm"/><axis xyz="0 0 1"/>
  </joint>
  <gazebo>
    <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
      <joint_name>spin</joint_name><initial_position>0.7</initial_position>
      <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain>
    </plugin>
    <plugin filename="libgazebo_ros2_control.so" name="gazebo_ros2_control"/>
  </gazebo>
</robot>
EOF
	run phys-step -t 2 -r 1 -i 'r::spin/position' "$TMP/r.urdf"
	[ "$status" -eq 0 ]
	local n=$(grep -n ros2_control "$TMP/r.urdf" | cut -d: -f1)
	[[ "$output" == *"r.urdf:$n: plugin 'gazebo_ros2_control' (libgazebo_ros2_control.so) is not run"* ]]
	near "$(echo "$output" | grep '"t":2' | jq -r '.items["r::spin/position"][0]')" 0.7 1e-4
	# phys-sdf check calls only the other inert
	run phys-sdf check "$TMP/r.urdf"
	[ "$(echo "$output" | grep -c 'plugin> in <gazebo>: stored but inert')" -eq 1 ]
	echo "$output" | grep -q "\"line\":$n,.*stored but inert"
}

@test "an <include>'s plugins are its model's" {
	mkdir -p "$TMP/models/spinner"
	printf '<?xml version="1.0"?>\n<model><name>spinner</name><sdf version="1.6">model.sdf</sdf></model>\n' \
	    > "$TMP/models/spinner/model.config"
	{ echo '<?xml version="1.0"?><sdf version="1.6">'
	  gz_rotor spinner 0.01 0
	  echo '</sdf>'; } > "$TMP/models/spinner/model.sdf"
	world "$TMP/w.sdf" <<EOF
    <include><uri>model://spinner</uri><name>s</name>
      $JPC<joint_name>j1</joint_name><initial_position>-0.4</initial_position>
        <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain></plugin>
    </include>
EOF
	SDF_PATH="$TMP/models" phys-step -t 2 -r 1 -i 's::j1/position' "$TMP/w.sdf" > "$TMP/out"
	near "$(value_at "$TMP/out" 2 's::j1/position')" -0.4 1e-6
	# a model file whose root is an <include> (PX4's of Fuel models):
	# the plugins of that include are the model's too, beside those of
	# the include naming the file
	mkdir -p "$TMP/models/wrap"
	printf '<?xml version="1.0"?>\n<model><name>wrap</name><sdf version="1.9">model.sdf</sdf></model>\n' \
	    > "$TMP/models/wrap/model.config"
	cat > "$TMP/models/wrap/model.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <include><uri>model://spinner</uri>
    $JPC<joint_name>j1</joint_name><initial_position>0.3</initial_position>
      <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain></plugin>
  </include>
</sdf>
EOF
	world "$TMP/w.sdf" <<EOF
    <include><uri>model://wrap</uri><name>w1</name></include>
    <include><uri>model://wrap</uri><name>w2</name><pose>2 0 0 0 0 0</pose>
      <plugin filename="gz-sim-joint-state-publisher-system" name="gz::sim::systems::JointStatePublisher"/>
    </include>
EOF
	SDF_PATH="$TMP/models" phys-step -t 2 -r 1 -i '*::j1/position' "$TMP/w.sdf" > "$TMP/out" 2> "$TMP/err"
	! grep -q 'not read' "$TMP/err" || false
	near "$(value_at "$TMP/out" 2 'w1::j1/position')" 0.3 1e-6
	near "$(value_at "$TMP/out" 2 'w2::j1/position')" 0.3 1e-6
	SDF_PATH="$TMP/models" phys-sdf print "$TMP/w.sdf" > "$TMP/printed.sdf"
	phys-step -t 2 -r 1 -i '*::j1/position' "$TMP/printed.sdf" > "$TMP/out"
	near "$(value_at "$TMP/out" 2 'w2::j1/position')" 0.3 1e-6
}

# ---- JointPositionController ----

jpc_example() {
	# gz-sim's joint_position_controller.sdf: its default gains behind a
	# 0.5 N m s/rad damper on a 1.2e-4 kg m^2 rotor. "Try sending joint
	# position commands": data 1.0, then -1.0. The integral (0.1 N m/(rad
	# s)) first overshoots by a few hundredths, then draws the rotor in.
	printf '%s\n' '{"t":0,"topic":"/rotor_cmd","msg":{"data":1.0}}' \
	    '{"t":10,"topic":"rotor_cmd","msg":{"data":-1.0}}' > "$TMP/ctl"
	run_world "$1" 20 "$TMP/w.sdf" -c "$TMP/ctl" -i 'demo::j1/position'
	local a b
	for t in 8 18; do
		a=$(value_at "$TMP/$1" $t demo::j1/position)
		b=$(value_at "$TMP/$1" $((t + 2)) demo::j1/position)
		near "$a" "$([ $t = 8 ] && echo 1 || echo -1)" 0.05
		# closer at the end
		awk -v a="$a" -v b="$b" -v s=$([ $t = 8 ] && echo 1 || echo -1) \
		    'BEGIN { exit !((b - s)^2 < (a - s)^2) }'
	done
}
@test "JointPositionController, gz-sim's example: the rotor turns to 1 rad, then to -1 rad, as its topic says, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.00012 0.5 "$JPC<joint_name>j1</joint_name><topic>rotor_cmd</topic>
        <p_gain>1</p_gain><i_gain>0.1</i_gain><d_gain>0.01</d_gain><i_max>1</i_max><i_min>-1</i_min>
        <cmd_max>1000</cmd_max><cmd_min>-1000</cmd_min></plugin>")
EOF
	each_engine jpc_example
}

# pid_curve I B P I_GAIN D TARGET T: the angle at T of a rotor of inertia
# I with damping B driven from rest at 0 by gz-math's PID (cmd = -p e -
# i int(e) - d e', e = q - TARGET), integrated finely (RK4, 1e-5 s).
pid_curve() {
	awk -v I="$1" -v b="$2" -v p="$3" -v ki="$4" -v d="$5" -v tg="$6" -v T="$7" '
	function acc(q, w, s) { return (-p * (q - tg) - s - d * w - b * w) / I }
	BEGIN { h = 1e-5; q = 0; w = 0; s = 0; n = int(T / h + 0.5)
		for (k = 0; k < n; k++) {
			q1 = w; w1 = acc(q, w, s); s1 = ki * (q - tg)
			q2 = w + h/2*w1; w2 = acc(q + h/2*q1, w + h/2*w1, s + h/2*s1); s2 = ki * (q + h/2*q1 - tg)
			q3 = w + h/2*w2; w3 = acc(q + h/2*q2, w + h/2*w2, s + h/2*s2); s3 = ki * (q + h/2*q2 - tg)
			q4 = w + h*w3; w4 = acc(q + h*q3, w + h*w3, s + h*s3); s4 = ki * (q + h*q3 - tg)
			q += h/6*(q1 + 2*q2 + 2*q3 + q4); w += h/6*(w1 + 2*w2 + 2*w3 + w4)
			s += h/6*(s1 + 2*s2 + 2*s3 + s4)
		}
		printf "%.9f\n", q }'
}

jpc_pid() {
	# The plugin's default gains (p 1, i 0.1, d 0.01) on a 0.01 kg m^2
	# rotor with 0.05 N m s/rad of damping, told 1 rad: a lightly damped
	# swing about 1 rad the integral draws in.
	printf '%s\n' '{"t":0,"topic":"/model/demo/joint/j1/0/cmd_pos","msg":{"data":1}}' > "$TMP/ctl"
	run_world "$1" 4 "$TMP/w.sdf" -c "$TMP/ctl" -i 'demo::j1/*'
	for t in 0.25 0.5 1 2 4; do
		near "$(value_at "$TMP/$1" $t demo::j1/position)" "$(pid_curve 0.01 0.05 1 0.1 0.01 1 $t)" 5e-3
	done
	near "$(value_at "$TMP/$1" 4 demo::j1/target)" 1 0
}
@test "JointPositionController's defaults (p 1, i 0.1, d 0.01) and its default topic: gz-math's PID on the rotor, to 5e-3 rad, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0.05 "$JPC<joint_name>j1</joint_name></plugin>")
EOF
	each_engine jpc_pid
}

jpc_critical() {
	# p 4, d 0.4 on 0.01 kg m^2: critically damped, w = 20 rad/s;
	# -s gains (p 9, d 0.6: w = 30) take the place of the plugin's. The
	# PD acts on each step's start, its damping a step late: the engines
	# run ahead of the continuous curve by about w h / 2 of its rise.
	run_world "$1" 1 "$TMP/w.sdf" -i 'demo::j1/position'
	phys-step -p "$1" -t 1 -r 100 -i 'demo::j1/position' "$TMP/w.sdf" \
	    -s 'demo::j1/position_pid.p_gain=9' \
	    -s 'demo::j1/position_pid.d_gain=0.6' > "$TMP/$1.s"
	for t in 0.05 0.1 0.2; do
		near "$(value_at "$TMP/$1" $t demo::j1/position)" \
		    "$(awk -v t=$t 'BEGIN { w = 20; print 1 - (1 + w * t) * exp(-w * t) }')" 7e-3
		near "$(value_at "$TMP/$1.s" $t demo::j1/position)" \
		    "$(awk -v t=$t 'BEGIN { w = 30; print 1 - (1 + w * t) * exp(-w * t) }')" 1e-2
	done
}
@test "JointPositionController: initial_position and the plugin's gains, critically damped; -s gains override them, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>j1</joint_name><initial_position>1</initial_position>
        <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain></plugin>")
EOF
	each_engine jpc_critical
}

# arm MODEL PLUGIN...: worlds/motor.sdf's arm: a 1 kg bob 0.5 m below a
# shoulder about x (I = 0.26 kg m^2 about it), gravity's torque 4.905 sin q.
arm() {
	local m=$1
	shift
	cat <<EOF
    <model name="$m">
      <link name="bob">
        <pose>0 0 1.5 0 0 0</pose>
        <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
      </link>
      <joint name="shoulder" type="revolute">
        <parent>world</parent><child>bob</child><pose>0 0 0.5 0 0 0</pose>
        <axis><xyz>1 0 0</xyz></axis>
      </joint>
      $*
    </model>
EOF
}

jpc_hold() {
	run_world "$1" 4 "$TMP/w.sdf" -i 'arm::shoulder/*'
	# kp (0.5 - q) = m g l sin q at rest
	local q=$(awk 'BEGIN { q = 0.5; for (i = 0; i < 200; i++)
	    q = 0.5 - 4.905 * sin(q) / 100; printf "%.12f", q }')
	near "$(value_at "$TMP/$1" 4 arm::shoulder/position)" "$q" 1e-6
	near "$(value_at "$TMP/$1" 4 arm::shoulder/applied_effort)" "$(awk -v q="$q" 'BEGIN { print 4.905 * sin(q) }')" 1e-4
}
@test "JointPositionController holds an arm against gravity: kp (target - q) = m g l sin q at rest, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(arm arm "$JPC<joint_name>shoulder</joint_name><initial_position>0.5</initial_position>
        <p_gain>100</p_gain><d_gain>10</d_gain><i_gain>0</i_gain></plugin>")
EOF
	each_engine jpc_hold
}

jpc_many() {
	printf '%s\n' '{"t":0,"topic":"/model/twins/joint/a/1/cmd_pos","msg":{"data":0.3}}' > "$TMP/ctl"
	run_world "$1" 2 "$TMP/w.sdf" -c "$TMP/ctl" -i 'twins::*/position'
	local a=$(jq -r 'select(.t == 2) | .items["twins::a/position"] | @tsv' "$TMP/$1")
	local b=$(jq -r 'select(.t == 2) | .items["twins::b/position"] | @tsv' "$TMP/$1")
	# the second axis of each, the first left free (and still)
	near "$(echo "$a" | cut -f2)" 0.3 1e-4
	near "$(echo "$b" | cut -f2)" 0.3 1e-4
	near "$(echo "$a" | cut -f1)" 0 1e-6
}
@test "JointPositionController: several <joint_name>s, <joint_index> 1 and its topic /model/M/joint/J/1/cmd_pos, under each engine" {
	world "$TMP/w.sdf" <<EOF
    <model name="twins">
      <link name="p"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
      <link name="q"><pose>1 0 1 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
      <joint name="a" type="universal"><parent>world</parent><child>p</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
      <joint name="b" type="universal"><parent>world</parent><child>q</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
      <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
        <joint_name>a</joint_name><joint_name>b</joint_name><joint_index>1</joint_index>
        <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain>
      </plugin>
    </model>
EOF
	sed -i 's|<world name="default">|&<gravity>0 0 0</gravity>|' "$TMP/w.sdf"
	each_engine jpc_many
}

jpc_velocity() {
	# No PID: the speed that reaches the target, at most cmd_max (2
	# rad/s): a ramp of 2 rad/s to 1 rad; without cmd_max, at once (in
	# a step where the engine moves at the speed it reaches, in a few
	# where it integrates the speed's rise: Simbody).
	printf '%s\n' '{"t":0,"topic":"/model/slow/joint/j1/0/cmd_pos","msg":{"data":1}}' \
	    '{"t":0,"topic":"/model/fast/joint/j1/0/cmd_pos","msg":{"data":1}}' > "$TMP/ctl"
	run_world "$1" 1 "$TMP/w.sdf" -c "$TMP/ctl" -i '*::j1/position'
	near "$(value_at "$TMP/$1" 0.25 slow::j1/position)" 0.5 1.5e-3
	near "$(value_at "$TMP/$1" 1 slow::j1/position)" 1 1e-6
	near "$(value_at "$TMP/$1" 0.05 fast::j1/position)" 1 1e-4
	near "$(value_at "$TMP/$1" 1 fast::j1/position)" 1 1e-6
}
@test "JointPositionController with use_velocity_commands: at cmd_max until the target, or at once, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor slow 0.01 0 "$JPC<joint_name>j1</joint_name><use_velocity_commands>true</use_velocity_commands><cmd_max>2</cmd_max></plugin>")
$(gz_rotor fast 0.01 0 "$JPC<joint_name>j1</joint_name><use_velocity_commands>1</use_velocity_commands></plugin>")
EOF
	sed -i 's|<model name="fast">|&<pose>2 0 0 0 0 0</pose>|' "$TMP/w.sdf"
	each_engine jpc_velocity
}

@test "a system's bad parameters and bad topic lines are errors naming the file and line" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>j9</joint_name></plugin>")
EOF
	run phys-step -t 0.1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	local n=$(grep -n '<joint_name>j9' "$TMP/w.sdf" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: JointPositionController: model 'demo' has no joint 'j9'"* ]]
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>j1</joint_name><p_gain>fast</p_gain></plugin>")
EOF
	run phys-step -t 0.1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"JointPositionController: <p_gain> 'fast' is not a number"* ]]
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>world_fixed</joint_name></plugin>")
EOF
	run phys-step -t 0.1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"joint 'demo::world_fixed' has no axis phys can drive"* ]]
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>j1</joint_name><topic>go</topic></plugin>")
EOF
	echo '{"t":0,"topic":"/stop","msg":{"data":1}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ctl:1: no system listens on topic '/stop' (the world's topics: /go)"* ]]
	echo '{"t":0,"topic":"/go","msg":{"data":"one"}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[[ "$output" == *"ctl:1: msg.data: expected a number, not a string (topic /go takes gz.msgs.Double)"* ]]
	echo '{"t":0,"topic":"/go","msg":{"value":1}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[[ "$output" == *"msg: gz.msgs.Double has no field 'value'"* ]]
	echo '{"t":0,"topic":"/go","msg":{"data":"NaN"}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	echo '{"t":0,"topic":"/go"}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[[ "$output" == *'a topic line needs "msg"'* ]]
	# a world that runs no system has no topics
	echo '{"t":0,"topic":"/go","msg":{"data":1}}' > "$TMP/ctl"
	world "$TMP/n.sdf" < /dev/null
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/n.sdf"
	[[ "$output" == *"no system listens on topic '/go': the world runs no gz-sim system with topics"* ]]
}

# ---- JointController ----

jc_example() {
	# gz-sim's joint_controller.sdf. Velocity mode: initial_velocity 5,
	# then "data: -1.0" and "data: 10.0", each held from the step it
	# arrives. Force mode (p 0.2, i 0.01): the velocity PID to 10 rad/s.
	printf '%s\n' '{"t":1,"topic":"/model/demo/joint/j1/cmd_vel","msg":{"data":-1.0}}' \
	    '{"t":2,"topic":"/model/demo/joint/j1/cmd_vel","msg":{"data":10.0}}' \
	    '{"t":0,"topic":"/model/demo2/joint/j1/cmd_vel","msg":{"data":10.0}}' > "$TMP/ctl"
	run_world "$1" 3 "$TMP/w.sdf" -c "$TMP/ctl" -i '*::j1/velocity'
	near "$(value_at "$TMP/$1" 0.5 demo::j1/velocity)" 5 1e-9
	near "$(value_at "$TMP/$1" 1.5 demo::j1/velocity)" -1 1e-9
	near "$(value_at "$TMP/$1" 3 demo::j1/velocity)" 10 1e-9
	near "$(value_at "$TMP/$1" 1 demo2::j1/velocity)" 10 1e-3
	near "$(value_at "$TMP/$1" 3 demo2::j1/velocity)" 10 1e-3
}
@test "JointController, gz-sim's example: velocity mode follows its commands at once, force mode through its PID, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.00012 0 '<plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
        <joint_name>j1</joint_name><initial_velocity>5.0</initial_velocity></plugin>')
$(gz_rotor demo2 0.00012 0 '<plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
        <joint_name>j1</joint_name><use_force_commands>true</use_force_commands>
        <p_gain>0.2</p_gain><i_gain>0.01</i_gain></plugin>')
EOF
	sed -i 's|<model name="demo2">|&<pose>0 0.5 0 0 -1.57 0</pose>|' "$TMP/w.sdf"
	each_engine jc_example
}

jc_limits() {
	# A velocity command within a 0.05 N m effort limit on 0.01 kg m^2:
	# 5 rad/s^2 until the 2 rad/s asked, then 2 rad/s. Braking disabled,
	# the force mode's rotor coasts at 3 rad/s when asked for 1.
	printf '%s\n' '{"t":1,"topic":"/model/coast/joint/j1/cmd_vel","msg":{"data":1}}' > "$TMP/ctl"
	run_world "$1" 2 "$TMP/w.sdf" -c "$TMP/ctl" -i '*::j1/velocity' -i '*::j1/applied_effort'
	near "$(value_at "$TMP/$1" 0.2 limited::j1/velocity)" 1 1e-3
	near "$(value_at "$TMP/$1" 0.2 limited::j1/applied_effort)" 0.05 1e-9
	near "$(value_at "$TMP/$1" 1 limited::j1/velocity)" 2 1e-6
	near "$(value_at "$TMP/$1" 0.9 coast::j1/velocity)" 3 1e-3
	near "$(value_at "$TMP/$1" 2 coast::j1/velocity)" 3 1e-3
}
@test "JointController: the velocity servo within the joint's effort limit; disable_braking lets it coast, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor limited 0.01 0 '<plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
        <joint_name>j1</joint_name><initial_velocity>2</initial_velocity></plugin>')
$(gz_rotor coast 0.01 0 '<plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
        <joint_name>j1</joint_name><initial_velocity>3</initial_velocity><use_force_commands>true</use_force_commands>
        <p_gain>1</p_gain><disable_braking>true</disable_braking></plugin>')
EOF
	sed -i 's|<model name="coast">|&<pose>2 0 0 0 0 0</pose>|' "$TMP/w.sdf"
	# the limit on the first model's joint only
	awk '/<model name="limited">/ { m = 1 } /<\/model>/ { m = 0 }
	    m && /<dynamics>/ { sub(/<dynamics>/, "<limit><effort>0.05</effort></limit><dynamics>") } { print }' \
	    "$TMP/w.sdf" > "$TMP/w2.sdf" && mv "$TMP/w2.sdf" "$TMP/w.sdf"
	each_engine jc_limits
}

# ---- ApplyJointForce ----

ajf_example() {
	# gz-sim's apply_joint_force.sdf: "data: 0.001" on a 1.2e-4 kg m^2
	# rotor with 1e-4 N m s/rad of damping, w = tau / b (1 - e^(-b t / I));
	# "data: 0.0" at 3 s stops the force: the rotor runs down, e^(-b t / I).
	printf '%s\n' '{"t":0,"topic":"/model/force/joint/j1/cmd_force","msg":{"data":0.001}}' \
	    '{"t":3,"topic":"/model/force/joint/j1/cmd_force","msg":{"data":0.0}}' > "$TMP/ctl"
	run_world "$1" 5 "$TMP/w.sdf" -c "$TMP/ctl" -i 'force::j1/velocity'
	for t in 0.5 1 3; do
		near "$(value_at "$TMP/$1" $t force::j1/velocity)" \
		    "$(awk -v t=$t 'BEGIN { print 10 * (1 - exp(-t / 1.2)) }')" 5e-3
	done
	near "$(value_at "$TMP/$1" 5 force::j1/velocity)" \
	    "$(awk 'BEGIN { print 10 * (1 - exp(-3 / 1.2)) * exp(-2 / 1.2) }')" 5e-3
}
@test "ApplyJointForce, gz-sim's example: a damped rotor runs up as tau / b (1 - e^(-b t / I)) and down when told 0, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor force 0.00012 0.0001 '<plugin filename="gz-sim-apply-joint-force-system" name="gz::sim::systems::ApplyJointForce">
        <joint_name>j1</joint_name></plugin>')
EOF
	each_engine ajf_example
}

# ---- DiffDrive ----

# vehicle NAME Y PLUGIN...: gz-sim's diff_drive.sdf vehicle: a 1.14 kg
# chassis on two 2 kg spheres of 0.3 m (wheels 1.25 m apart, on joints
# about their y) and a free 0.2 m caster ball behind, at y = Y.
vehicle() {
	local m=$1 y=$2
	shift 2
	local sphere='<inertial><mass>2</mass><inertia><ixx>0.145833</ixx><iyy>0.145833</iyy><izz>0.125</izz></inertia></inertial>
        <collision name="collision"><geometry><sphere><radius>0.3</radius></sphere></geometry>
          <surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision>'
	cat <<EOF
    <model name="$m">
      <pose>0 $y 0.325 0 0 0</pose>
      <link name="chassis">
        <pose>-0.151427 0 0.175 0 0 0</pose>
        <inertial><mass>1.14395</mass><inertia><ixx>0.126164</ixx><iyy>0.416519</iyy><izz>0.481014</izz></inertia></inertial>
        <collision name="collision"><geometry><box><size>2.01142 1 0.568726</size></box></geometry></collision>
      </link>
      <link name="left_wheel"><pose>0.554283 0.625029 -0.025 -1.5707 0 0</pose>$sphere</link>
      <link name="right_wheel"><pose>0.554282 -0.625029 -0.025 -1.5707 0 0</pose>$sphere</link>
      <link name="caster">
        <pose>-0.957138 0 -0.125 0 0 0</pose>
        <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
        <collision name="collision"><geometry><sphere><radius>0.2</radius></sphere></geometry></collision>
      </link>
      <joint name="left_wheel_joint" type="revolute"><parent>chassis</parent><child>left_wheel</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1.79769e+308</lower><upper>1.79769e+308</upper></limit></axis></joint>
      <joint name="right_wheel_joint" type="revolute"><parent>chassis</parent><child>right_wheel</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1.79769e+308</lower><upper>1.79769e+308</upper></limit></axis></joint>
      <joint name="caster_wheel" type="ball"><parent>chassis</parent><child>caster</child></joint>
      $*
    </model>
EOF
}

GROUND='<model name="ground_plane"><static>true</static><link name="link"><collision name="collision">
      <geometry><plane><normal>0 0 1</normal><size>100 100</size></plane></geometry></collision></link></model>'

DIFF='<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">
        <left_joint>left_wheel_joint</left_joint><right_joint>right_wheel_joint</right_joint>
        <wheel_separation>1.25</wheel_separation><wheel_radius>0.3</wheel_radius>
        <odom_publish_frequency>1</odom_publish_frequency>
        <max_linear_acceleration>1</max_linear_acceleration><min_linear_acceleration>-1</min_linear_acceleration>
        <max_angular_acceleration>2</max_angular_acceleration><min_angular_acceleration>-2</min_angular_acceleration>
        <max_linear_velocity>0.5</max_linear_velocity><min_linear_velocity>-0.5</min_linear_velocity>
        <max_angular_velocity>1</max_angular_velocity><min_angular_velocity>-1</min_angular_velocity>
      </plugin>'

# circle_of: the circle points ("x y" lines) lie on, by Kasa's least
# squares: "radius largest-miss".
circle_of() {
	awk 'BEGIN { n = 0 } { x[n] = $1; y[n] = $2; n++ }
	    END {
		# x^2 + y^2 + D x + E y + F = 0, least squares
		for (i = 0; i < n; i++) {
			z = -(x[i]^2 + y[i]^2)
			a11 += x[i]*x[i]; a12 += x[i]*y[i]; a13 += x[i]
			a22 += y[i]*y[i]; a23 += y[i]; a33 += 1
			b1 += x[i]*z; b2 += y[i]*z; b3 += z
		}
		a21 = a12; a31 = a13; a32 = a23
		det = a11*(a22*a33-a23*a32) - a12*(a21*a33-a23*a31) + a13*(a21*a32-a22*a31)
		D = (b1*(a22*a33-a23*a32) - a12*(b2*a33-a23*b3) + a13*(b2*a32-a22*b3)) / det
		E = (a11*(b2*a33-a23*b3) - b1*(a21*a33-a23*a31) + a13*(a21*b3-b2*a31)) / det
		F = (a11*(a22*b3-b2*a32) - a12*(a21*b3-b2*a31) + b1*(a21*a32-a22*a31)) / det
		cx = -D / 2; cy = -E / 2; r = sqrt(cx^2 + cy^2 - F)
		for (i = 0; i < n; i++) {
			d = sqrt((x[i]-cx)^2 + (y[i]-cy)^2) - r; if (d < 0) d = -d
			if (d > m) m = d
		}
		printf "%.6f %.6f\n", r, m }'
}

# circle FILE MODEL FROM: the circle the midpoint of MODEL's wheels draws
# from time FROM on.
circle() {
	jq -r --argjson t "$3" --arg l "$2::left_wheel/pose" --arg r "$2::right_wheel/pose" \
	    'select(.t >= $t) | .items | [(.[$l].x + .[$r].x) / 2, (.[$l].y + .[$r].y) / 2] | @tsv' "$1" |
	    circle_of
}

dd_circle() {
	# gz-sim's diff_drive.sdf commands: vehicle_blue "linear: {x: 0.5},
	# angular: {z: 0.05}", a circle of 10 m to the left; vehicle_green
	# "linear: {x: 1.0}, angular: {z: -0.1}", within its 0.5 m/s: 5 m to
	# the right. Each wheel turns at (v -+ w s / 2) / r, reached at the
	# 1 m/s^2 the plugin allows (the wheels' servos a little behind the
	# ramp, as the vehicle's inertia reaches them through the ground;
	# Bullet's friction keeps them within 5e-4 of their speed); each
	# radius to 2% (the contacts and the caster's drag).
	printf '%s\n' '{"t":0,"topic":"/model/vehicle_blue/cmd_vel","msg":{"linear":{"x":0.5},"angular":{"z":0.05}}}' \
	    '{"t":0,"topic":"/model/vehicle_green/cmd_vel","msg":{"linear":{"x":1.0},"angular":{"z":-0.1}}}' > "$TMP/ctl"
	phys-step -p "$1" -t 12 -r 10 -c "$TMP/ctl" -i '*::*_wheel/pose' -i '*::*_wheel_joint/velocity' \
	    "$TMP/w.sdf" > "$TMP/$1"
	near "$(value_at "$TMP/$1" 0.3 vehicle_blue::left_wheel_joint/velocity)" \
	    "$(awk 'BEGIN { print (0.3 - 0.05 * 1.25 / 2) / 0.3 }')" 2e-3
	near "$(value_at "$TMP/$1" 6 vehicle_blue::left_wheel_joint/velocity)" "$(awk 'BEGIN { print (0.5 - 0.05 * 1.25 / 2) / 0.3 }')" 1e-3
	near "$(value_at "$TMP/$1" 6 vehicle_blue::right_wheel_joint/velocity)" "$(awk 'BEGIN { print (0.5 + 0.05 * 1.25 / 2) / 0.3 }')" 1e-3
	near "$(value_at "$TMP/$1" 6 vehicle_green::left_wheel_joint/velocity)" "$(awk 'BEGIN { print (0.5 + 0.1 * 1.25 / 2) / 0.3 }')" 1e-3
	local c
	c=$(circle "$TMP/$1" vehicle_blue 2)
	rel "${c% *}" 10 0.02
	near "${c#* }" 0 0.01
	c=$(circle "$TMP/$1" vehicle_green 2)
	rel "${c% *}" 5 0.02
	near "${c#* }" 0 0.01
}
@test "DiffDrive, gz-sim's example: each vehicle draws the circle of radius v / w its cmd_vel asks, within its limits, under each engine" {
	world "$TMP/w.sdf" <<EOF
    $GROUND
$(vehicle vehicle_blue 2 "$DIFF")
$(vehicle vehicle_green -2 "$DIFF")
EOF
	each_engine dd_circle
}

@test "DiffDrive: /model/M/enable false stops the vehicle and leaves cmd_vel unheard until true; the wheel speeds follow gz-math's speed limiter (under ODE)" {
	world "$TMP/w.sdf" <<EOF
    $GROUND
$(vehicle v 0 "$DIFF")
EOF
	printf '%s\n' '{"t":0,"topic":"/model/v/cmd_vel","msg":{"linear":{"x":0.4}}}' \
	    '{"t":1,"topic":"/model/v/enable","msg":{"data":false}}' \
	    '{"t":1.5,"topic":"/model/v/cmd_vel","msg":{"linear":{"x":0.4}}}' \
	    '{"t":2,"topic":"/model/v/enable","msg":{"data":true}}' \
	    '{"t":2.5,"topic":"/model/v/cmd_vel","msg":{"linear":{"x":-0.2}}}' > "$TMP/ctl"
	phys-step -t 3 -r 100 -c "$TMP/ctl" -i 'v::left_wheel_joint/velocity' "$TMP/w.sdf" > "$TMP/out"
	# up at 1 m/s^2 to 0.4 m/s, down to rest when disabled, deaf until
	# enabled, then back at -0.2 m/s
	near "$(value_at "$TMP/out" 0.2 v::left_wheel_joint/velocity)" "$(awk 'BEGIN { print 0.2 / 0.3 }')" 2e-3
	near "$(value_at "$TMP/out" 1 v::left_wheel_joint/velocity)" "$(awk 'BEGIN { print 0.4 / 0.3 }')" 2e-3
	near "$(value_at "$TMP/out" 1.2 v::left_wheel_joint/velocity)" "$(awk 'BEGIN { print 0.2 / 0.3 }')" 2e-3
	near "$(value_at "$TMP/out" 2.4 v::left_wheel_joint/velocity)" 0 2e-3
	near "$(value_at "$TMP/out" 3 v::left_wheel_joint/velocity)" "$(awk 'BEGIN { print -0.2 / 0.3 }')" 2e-3
}

# ---- VelocityControl ----

VC='<plugin filename="gz-sim-velocity-control-system" name="gz::sim::systems::VelocityControl">'

# box MODEL X Y PLUGIN...: a free 2 kg box (0.1 kg m^2 about each axis).
box() {
	local m=$1 x=$2 y=$3
	shift 3
	cat <<EOF
    <model name="$m"><pose>$x $y 1 0 0 0</pose>
      <link name="link"><inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link>
      $*
    </model>
EOF
}

vc_example() {
	# gz-sim's velocity_control.sdf commands: each vehicle keeps the speed
	# asked in its own frame (its wheels' scrub on the ground slows its
	# turn within each step, as under gz-sim: over 2 s, yaws of 0.1 and
	# -0.2 asked, more than 80% of each); a box above the ground
	# draws the circle of v / w (the twist is held whole: gravity takes
	# only a step's worth of fall, g h, each step); a link with a twist of
	# its own moves at it, in its own frame.
	printf '%s\n' '{"t":0,"topic":"/model/vehicle_blue/cmd_vel","msg":{"linear":{"x":0.5},"angular":{"z":0.05}}}' \
	    '{"t":0,"topic":"/model/vehicle_green/cmd_vel","msg":{"linear":{"x":1.0},"angular":{"z":-0.1}}}' \
	    '{"t":0,"topic":"/model/circler/cmd_vel","msg":{"linear":{"x":1.0},"angular":{"z":0.5}}}' \
	    '{"t":0,"topic":"/model/pair/link/b/cmd_vel","msg":{"linear":{"x":2}}}' > "$TMP/ctl"
	phys-step -p "$1" -t 2 -r 10 -c "$TMP/ctl" -i '*::chassis/*' -i '*::link/pose' -i 'pair::*/*' "$TMP/w.sdf" > "$TMP/$1"
	local v
	v=$(jq -r 'select(.t == 2) | .items["vehicle_blue::chassis/linear_vel"] | (.x * .x + .y * .y | sqrt)' "$TMP/$1")
	near "$v" 0.5 1e-3
	v=$(jq -r 'select(.t == 2) | .items["vehicle_green::chassis/linear_vel"] | (.x * .x + .y * .y | sqrt)' "$TMP/$1")
	near "$v" 1 1e-3
	[ "$(jq -r 'select(.t == 2) | .items["vehicle_blue::chassis/pose"].yaw > 0.08' "$TMP/$1")" = true ]
	[ "$(jq -r 'select(.t == 2) | .items["vehicle_green::chassis/pose"].yaw < -0.16' "$TMP/$1")" = true ]
	# the free box: a circle of 2 m, to the left
	local c
	c=$(jq -r 'select(.t >= 0.1) | .items["circler::link/pose"] | "\(.x)\t\(.y)"' "$TMP/$1" | circle_of)
	near "${c% *}" 2 1e-3
	near "${c#* }" 0 1e-3
	# pair::b turned 90 degrees with its model: +x of its own is the
	# world's +y
	near "$(jq -r 'select(.t == 2) | .items["pair::b/linear_vel"].y' "$TMP/$1")" 2 1e-9
	near "$(jq -r 'select(.t == 2) | .items["pair::b/pose"].y' "$TMP/$1")" 9 1e-6
}
@test "VelocityControl, gz-sim's example: each model moves at the twist asked in its own frame; a link's own twist moves that link, under each engine" {
	world "$TMP/w.sdf" <<EOF
    $GROUND
$(vehicle vehicle_blue 2 "$VC</plugin>")
$(vehicle vehicle_green -2 "$VC</plugin>")
$(box circler 10 0 "$VC</plugin>")
    <model name="pair"><pose>20 5 5 0 0 1.5707963267948966</pose>
      <link name="a"><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
      <link name="b"><pose>0 1 0 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
      $VC<link_name>b</link_name></plugin>
    </model>
EOF
	each_engine vc_example
}

# ---- ApplyLinkWrench ----

alw_example() {
	# gz-sim's apply_link_wrench.sdf in free space: the box's persistent
	# -10 N along x and 0.1 N m about z (2 kg, 0.1 kg m^2): x = -2.5 t^2,
	# yaw = t^2 / 2 (to the fixed step's h/2 t), cleared at 1 s: on at
	# -5 m/s and 1 rad/s. A one-step 1000 N on the 4 kg cylinder: 0.25
	# m/s. 10 N at the origin of a link whose centre of mass is 0.1 m
	# off: 10 m/s^2 and, about the centre, -1 N m: -10 rad/s^2 at first.
	printf '%s\n' '{"t":0,"topic":"/world/default/wrench","msg":{"entity":{"name":"cylinder","type":"MODEL"},"wrench":{"force":{"y":1000}}}}' \
	    '{"t":0,"topic":"/world/default/wrench/persistent","msg":{"entity":{"name":"off::link","type":"LINK"},"wrench":{"force":{"y":10}}}}' \
	    '{"t":1,"topic":"/world/default/wrench/clear","msg":{"name":"box","type":"MODEL"}}' > "$TMP/ctl"
	phys-step -p "$1" -t 2 -r 100 -c "$TMP/ctl" -i '*::link/*' "$TMP/w.sdf" > "$TMP/$1"
	near "$(jq -r 'select(.t == 1) | .items["box::link/pose"].x' "$TMP/$1")" -2.5 3e-3
	near "$(jq -r 'select(.t == 1) | .items["box::link/pose"].yaw' "$TMP/$1")" 0.5 1e-3
	near "$(jq -r 'select(.t == 2) | .items["box::link/linear_vel"].x' "$TMP/$1")" -5 1e-9
	near "$(jq -r 'select(.t == 2) | .items["box::link/angular_vel"].z' "$TMP/$1")" 1 1e-9
	near "$(jq -r 'select(.t == 2) | .items["cylinder::link/linear_vel"].y' "$TMP/$1")" 0.25 1e-12
	near "$(jq -r 'select(.t == 0.01) | .items["off::link/angular_vel"].z' "$TMP/$1")" -0.1 1e-3
	near "$(jq -r 'select(.t == 0.01) | .items["off::link/inertial_linear_vel"].y' "$TMP/$1")" 0.1 1e-3
}
@test "ApplyLinkWrench, gz-sim's example: persistent wrenches from SDF and topics, one-step wrenches, clearing, forces off the centre of mass, under each engine" {
	world "$TMP/w.sdf" <<'EOF'
    <plugin filename="gz-sim-apply-link-wrench-system" name="gz::sim::systems::ApplyLinkWrench">
      <persistent><entity_name>box</entity_name><entity_type>model</entity_type>
        <force>-10 0 0</force><torque>0 0 0.1</torque></persistent>
    </plugin>
    <model name="box"><link name="link">
      <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    </link></model>
    <model name="cylinder"><pose>0 3 0 0 0 0</pose><link name="link">
      <inertial><mass>4</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    </link></model>
    <model name="off"><pose>0 -3 0 0 0 0</pose><link name="link">
      <inertial><pose>0.1 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    </link></model>
EOF
	sed -i 's|<gravity>0 0 -9.81</gravity>|<gravity>0 0 0</gravity>|' "$TMP/w.sdf"
	each_engine alw_example
	# a wrench for what the world has not is refused when read
	echo '{"t":0,"topic":"/world/default/wrench","msg":{"entity":{"name":"ghost","type":"MODEL"},"wrench":{}}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ctl:1: the world has no model 'ghost'"* ]]
}

# terminal ENGINE: $TMP/drag.sdf's ball pushed by 2 N through a medium
# of viscosity 1 (Stokes' drag c v, c = 3 pi sqrt(0.024)) reaches 2 / c.
terminal() {
	phys-step -q -p "$1" -t 6 -r 1 -i 'ball::link/linear_vel' "$TMP/drag.sdf" | tail -1 > "$TMP/end"
	rel "$(jq '.items[].x' "$TMP/end")" "$(awk 'BEGIN { printf "%.12g", 2 / (3 * atan2(0, -1) * sqrt(0.024)) }')" 1e-3
}

@test "FluidForces and ApplyLinkWrench on one link add up: a ball pushed by 2 N through a viscous medium reaches the speed where Stokes' drag meets the push, under each engine" {
	world "$TMP/drag.sdf" <<'EOF'
    <plugin filename="gz-sim-apply-link-wrench-system" name="gz::sim::systems::ApplyLinkWrench">
      <persistent><entity_name>ball</entity_name><entity_type>model</entity_type>
        <force>2 0 0</force></persistent>
    </plugin>
    <model name="ball"><link name="link">
      <inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
    </link>
    <plugin filename="phys-fluid-forces-system" name="phys::systems::FluidForces">
      <viscosity>1</viscosity>
    </plugin></model>
EOF
	sed -i 's|<gravity>0 0 -9.81</gravity>|<gravity>0 0 0</gravity>|' "$TMP/drag.sdf"
	each_engine terminal
}

# ---- JointTrajectoryController ----

JTC='<plugin filename="gz-sim-joint-trajectory-controller-system" name="gz::sim::systems::JointTrajectoryController">'

jtc_points() {
	# Each point's targets from the step after the point before's time:
	# position (p 16, d 0.8, within 20 N m), velocity (p 0.6, i 175) and
	# effort (0.05 N m: 5 rad/s^2 on 0.01 kg m^2).
	printf '%s\n' '{"t":0,"topic":"/model/p/joint_trajectory","msg":{"joint_names":["j1"],"points":[{"positions":[1],"time_from_start":{"nsec":500000000}},{"positions":[-1],"time_from_start":{"sec":1,"nsec":500000000}},{"positions":[0.5],"timeFromStart":{"sec":"3"}}]}}' \
	    '{"t":0,"topic":"/model/v/joint_trajectory","msg":{"jointNames":["j1"],"points":[{"velocities":[2],"time_from_start":{"sec":1.0}},{"velocities":[-1],"time_from_start":{"sec":2}}]}}' \
	    '{"t":0,"topic":"/custom_effort","msg":{"joint_names":["j1"],"points":[{"effort":[0.05],"time_from_start":{"sec":1}},{"effort":[0],"time_from_start":{"sec":2}}]}}' > "$TMP/ctl"
	run_world "$1" 4 "$TMP/w.sdf" -c "$TMP/ctl" -i '*::j1/*'
	near "$(value_at "$TMP/$1" 0.5 p::j1/position)" 1 1e-3
	near "$(value_at "$TMP/$1" 1.5 p::j1/position)" -1 1e-3
	near "$(value_at "$TMP/$1" 3 p::j1/position)" 0.5 1e-3
	near "$(value_at "$TMP/$1" 4 p::j1/position)" 0.5 1e-4
	near "$(value_at "$TMP/$1" 1 v::j1/velocity)" 2 1e-3
	near "$(value_at "$TMP/$1" 2 v::j1/velocity)" -1 1e-3
	near "$(value_at "$TMP/$1" 4 v::j1/velocity)" -1 1e-3
	near "$(value_at "$TMP/$1" 0.5 e::j1/velocity)" 2.5 1e-3
	near "$(value_at "$TMP/$1" 1 e::j1/velocity)" 5 1e-3
	# a point holds through the step that starts at its time
	near "$(value_at "$TMP/$1" 4 e::j1/velocity)" 5.005 1e-6
}
@test "JointTrajectoryController: a trajectory's points in turn, through its position and velocity PIDs and its efforts, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor p 0.01 0 "$JTC<position_p_gain>16</position_p_gain><position_d_gain>0.8</position_d_gain>
        <position_cmd_min>-20</position_cmd_min><position_cmd_max>20</position_cmd_max></plugin>")
$(gz_rotor v 0.01 0 "$JTC<velocity_p_gain>0.6</velocity_p_gain><velocity_i_gain>175</velocity_i_gain>
        <velocity_cmd_min>-10</velocity_cmd_min><velocity_cmd_max>10</velocity_cmd_max></plugin>")
$(gz_rotor e 0.01 0 "$JTC<topic>custom_effort</topic></plugin>")
EOF
	sed -i 's|<model name="v">|&<pose>2 0 0 0 0 0</pose>|; s|<model name="e">|&<pose>4 0 0 0 0 0</pose>|' "$TMP/w.sdf"
	each_engine jtc_points
}

@test "JointTrajectoryController, gz-sim's example: the position-controlled arm ends where the last point says; a name it does not drive is refused (under ODE)" {
	world "$TMP/w.sdf" <<EOF
    <model name="RR_position_control">
      <joint name="fix" type="fixed"><parent>world</parent><child>link0</child></joint>
      <link name="link0"><inertial><mass>0.5</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
      <link name="link1"><pose>0 0 0.15 0 0 0</pose>
        <inertial><pose>0 0 0.15 0 0 0</pose><mass>0.1</mass><inertia><ixx>0.0008</ixx><iyy>0.0008</iyy><izz>0.0001</izz></inertia></inertial></link>
      <link name="link2"><pose>0 0 0.45 0 0 0</pose>
        <inertial><pose>0 0 0.15 0 0 0</pose><mass>0.1</mass><inertia><ixx>0.0008</ixx><iyy>0.0008</iyy><izz>0.0001</izz></inertia></inertial></link>
      <joint name="RR_position_control_joint1" type="revolute"><parent>link0</parent><child>link1</child><axis><xyz>1 0 0</xyz></axis></joint>
      <joint name="RR_position_control_joint2" type="revolute"><parent>link1</parent><child>link2</child><axis><xyz>1 0 0</xyz></axis></joint>
      $JTC
        <joint_name>RR_position_control_joint1</joint_name>
        <initial_position>0.7854</initial_position>
        <position_p_gain>20</position_p_gain><position_i_gain>0.4</position_i_gain><position_d_gain>1.0</position_d_gain>
        <position_i_min>-1</position_i_min><position_i_max>1</position_i_max>
        <position_cmd_min>-20</position_cmd_min><position_cmd_max>20</position_cmd_max>
        <joint_name>RR_position_control_joint2</joint_name>
        <initial_position>-1.5708</initial_position>
        <position_p_gain>10</position_p_gain><position_i_gain>0.2</position_i_gain><position_d_gain>0.5</position_d_gain>
        <position_i_min>-1</position_i_min><position_i_max>1</position_i_max>
        <position_cmd_min>-10</position_cmd_min><position_cmd_max>10</position_cmd_max>
      </plugin>
    </model>
EOF
	sed -i 's|<gravity>0 0 -9.81</gravity>|<gravity>0 0 0</gravity>|' "$TMP/w.sdf"
	# gz topic -t "/model/RR_position_control/joint_trajectory" -m
	# gz.msgs.JointTrajectory -p 'joint_names: ... points { positions:
	# -0.7854 positions: 1.5708 time_from_start { sec: 0 nsec: 250000000 }
	# } ...', from the example's comment, at 2 s (the arm first goes to
	# its initial positions)
	echo '{"t":2,"topic":"/model/RR_position_control/joint_trajectory","msg":{"joint_names":["RR_position_control_joint1","RR_position_control_joint2"],"points":[{"positions":[-0.7854,1.5708],"time_from_start":{"sec":0,"nsec":250000000}},{"positions":[-1.5708,0],"time_from_start":{"sec":0,"nsec":500000000}},{"positions":[-1.5708,-1.5708],"time_from_start":{"sec":0,"nsec":750000000}},{"positions":[0,0],"time_from_start":{"sec":1,"nsec":0}}]}}' > "$TMP/ctl"
	phys-step -t 6 -r 10 -c "$TMP/ctl" -i 'RR_position_control::*/position' "$TMP/w.sdf" > "$TMP/out"
	near "$(value_at "$TMP/out" 2 RR_position_control::RR_position_control_joint1/position)" 0.7854 2e-3
	near "$(value_at "$TMP/out" 2 RR_position_control::RR_position_control_joint2/position)" -1.5708 2e-3
	near "$(value_at "$TMP/out" 6 RR_position_control::RR_position_control_joint1/position)" 0 2e-3
	near "$(value_at "$TMP/out" 6 RR_position_control::RR_position_control_joint2/position)" 0 2e-3
	echo '{"t":0,"topic":"/model/RR_position_control/joint_trajectory","msg":{"joint_names":["elbow"],"points":[]}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ctl:1: msg.joint_names: 'elbow' is no joint the controller drives"* ]]
}

# ---- AckermannSteering ----

# car NAME PLUGIN...: a 1.14 kg chassis on four 2 kg spheres of 0.3 m,
# 1.5 m apart front to back and 1.25 m across; the front ones turn on
# steering joints about z 1 m apart (the kingpins), within 0.6 rad.
car() {
	local m=$1
	shift
	local wheel='<inertial><mass>2</mass><inertia><ixx>0.145833</ixx><iyy>0.145833</iyy><izz>0.125</izz></inertia></inertial>
        <collision name="collision"><geometry><sphere><radius>0.3</radius></sphere></geometry>
          <surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision>'
	local knuckle='<inertial><mass>0.5</mass><inertia><ixx>0.0015</ixx><iyy>0.0015</iyy><izz>0.0015</izz></inertia></inertial>'
	local spin='<axis><xyz>0 0 1</xyz><limit><lower>-1.79769e+308</lower><upper>1.79769e+308</upper></limit></axis>'
	local steer='<axis><xyz>0 0 1</xyz><limit><lower>-0.6</lower><upper>0.6</upper></limit></axis>'
	cat <<EOF
    <model name="$m">
      <pose>0 0 0.325 0 0 0</pose>
      <link name="chassis"><pose>0 0 0.175 0 0 0</pose>
        <inertial><mass>1.14395</mass><inertia><ixx>0.126164</ixx><iyy>0.416519</iyy><izz>0.481014</izz></inertia></inertial>
        <collision name="collision"><geometry><box><size>2.01142 1 0.568726</size></box></geometry></collision>
      </link>
      <link name="front_left_wheel"><pose>0.75 0.625 -0.025 -1.5707 0 0</pose>$wheel</link>
      <link name="front_right_wheel"><pose>0.75 -0.625 -0.025 -1.5707 0 0</pose>$wheel</link>
      <link name="rear_left_wheel"><pose>-0.75 0.625 -0.025 -1.5707 0 0</pose>$wheel</link>
      <link name="rear_right_wheel"><pose>-0.75 -0.625 -0.025 -1.5707 0 0</pose>$wheel</link>
      <link name="front_left_knuckle"><pose>0.75 0.5 -0.025 0 0 0</pose>$knuckle</link>
      <link name="front_right_knuckle"><pose>0.75 -0.5 -0.025 0 0 0</pose>$knuckle</link>
      <joint name="front_left_steering_joint" type="revolute"><parent>chassis</parent><child>front_left_knuckle</child>$steer</joint>
      <joint name="front_right_steering_joint" type="revolute"><parent>chassis</parent><child>front_right_knuckle</child>$steer</joint>
      <joint name="front_left_wheel_joint" type="revolute"><parent>front_left_knuckle</parent><child>front_left_wheel</child>$spin</joint>
      <joint name="front_right_wheel_joint" type="revolute"><parent>front_right_knuckle</parent><child>front_right_wheel</child>$spin</joint>
      <joint name="rear_left_wheel_joint" type="revolute"><parent>chassis</parent><child>rear_left_wheel</child>$spin</joint>
      <joint name="rear_right_wheel_joint" type="revolute"><parent>chassis</parent><child>rear_right_wheel</child>$spin</joint>
      $*
    </model>
EOF
}

ACK='<plugin filename="gz-sim-ackermann-steering-system" name="gz::sim::systems::AckermannSteering">
        <left_joint>front_left_wheel_joint</left_joint><left_joint>rear_left_wheel_joint</left_joint>
        <right_joint>front_right_wheel_joint</right_joint><right_joint>rear_right_wheel_joint</right_joint>
        <left_steering_joint>front_left_steering_joint</left_steering_joint>
        <right_steering_joint>front_right_steering_joint</right_steering_joint>
        <kingpin_width>1.0</kingpin_width><steering_limit>0.5</steering_limit>
        <wheel_base>1.5</wheel_base><wheel_separation>1.25</wheel_separation><wheel_radius>0.3</wheel_radius>
        <min_velocity>-1</min_velocity><max_velocity>1</max_velocity>
        <min_acceleration>-3</min_acceleration><max_acceleration>3</max_acceleration>
        <steer_p_gain>4</steer_p_gain>
      </plugin>'

ack_circle() {
	# gz-sim's ackermann_steering.sdf command, "linear: {x: 0.5},
	# angular: {z: 0.1}", on a car whose plugin has its geometry: a turn
	# of 5 m. The steering joints settle where atan(B / (R -+ K / 2))
	# puts them; the rear axle's middle draws the circle.
	echo '{"t":0,"topic":"/model/car/cmd_vel","msg":{"linear":{"x":0.5},"angular":{"z":0.1}}}' > "$TMP/ctl"
	phys-step -p "$1" -t 12 -r 10 -c "$TMP/ctl" -i 'car::*_wheel/pose' -i 'car::*_joint/position' "$TMP/w.sdf" > "$TMP/$1"
	# settled from 5 s to 7 s (DART's tyres shake them by 3e-3 rad)
	near "$(mean_over "$TMP/$1" 5 7 car::front_left_steering_joint/position)" "$(awk 'BEGIN { print atan2(1.5, 5 - 0.5) }')" 1e-3
	near "$(mean_over "$TMP/$1" 5 7 car::front_right_steering_joint/position)" "$(awk 'BEGIN { print atan2(1.5, 5 + 0.5) }')" 1e-3
	local c
	c=$(jq -r --arg l car::rear_left_wheel/pose --arg r car::rear_right_wheel/pose \
	    'select(.t >= 3) | .items | [(.[$l].x + .[$r].x) / 2, (.[$l].y + .[$r].y) / 2] | @tsv' "$TMP/$1" | circle_of)
	rel "${c% *}" 5 0.03
	near "${c#* }" 0 0.01
}
@test "AckermannSteering: the steering joints turn to atan(B / (R -+ K / 2)), the rear axle draws the circle of v / w, under each engine" {
	world "$TMP/w.sdf" <<EOF
    $GROUND
$(car car "$ACK")
EOF
	each_engine ack_circle
}

@test "AckermannSteering with steering_only: an angle on /model/M/steer_angle turns the steering joints and leaves the wheels alone (under ODE)" {
	world "$TMP/w.sdf" <<EOF
    $GROUND
$(car car "$(echo "$ACK" | sed 's|<steer_p_gain>|<steering_only>true</steering_only>&|')")
EOF
	echo '{"t":0,"topic":"/model/car/steer_angle","msg":{"data":0.3}}' > "$TMP/ctl"
	phys-step -t 4 -r 10 -c "$TMP/ctl" -i 'car::*_joint/*' "$TMP/w.sdf" > "$TMP/out"
	# B = 1.5, S = 1.25
	near "$(value_at "$TMP/out" 4 car::front_left_steering_joint/position)" \
	    "$(awk 'BEGIN { a = 0.3; print atan2(3 * sin(a), 3 * cos(a) - 1.25 * sin(a)) }')" 1e-4
	near "$(value_at "$TMP/out" 4 car::front_right_steering_joint/position)" \
	    "$(awk 'BEGIN { a = 0.3; print atan2(3 * sin(a), 3 * cos(a) + 1.25 * sin(a)) }')" 1e-4
	near "$(value_at "$TMP/out" 4 car::rear_left_wheel_joint/applied_effort)" 0 0
}

@test "topic lines on a live stream: each at its time; a bad one is skipped with a warning and the run goes on" {
	world "$TMP/w.sdf" <<EOF
$(gz_rotor demo 0.01 0 "$JPC<joint_name>j1</joint_name><topic>rotor_cmd</topic>
        <p_gain>4</p_gain><d_gain>0.4</d_gain><i_gain>0</i_gain></plugin>")
EOF
	printf '%s\n' '{"t":0.5,"topic":"/rotor_cmd","msg":{"data":1}}' '{"topic":"/nowhere","msg":{}}' |
	    phys-step --realtime -t 1.5 -r 10 -c - -i 'demo::j1/position' "$TMP/w.sdf" > "$TMP/out" 2> "$TMP/err"
	near "$(value_at "$TMP/out" 0.5 demo::j1/position)" 0 1e-9
	near "$(value_at "$TMP/out" 1.5 demo::j1/position)" 1 1e-3
	grep -q "no system listens on topic '/nowhere'.*line skipped" "$TMP/err"
}

# ---- DetachableJoint ----

DJ='<plugin filename="gz-sim-detachable-joint-system" name="gz::sim::systems::DetachableJoint">'

# crane [PLUGIN BODY]: a static crane whose hook holds the box below it (2
# kg, at 2 m, turned 0.1 rad about x) by a DetachableJoint, gz-sim's
# default topics unless the body says others.
crane() {
	cat <<EOF
    <model name="crane">
      <static>true</static>
      <pose>0.3 0 3 0 0 0.4</pose>
      <link name="hook">
        <collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision>
      </link>
      $DJ<parent_link>hook</parent_link><child_model>box</child_model><child_link>body</child_link>${1-}</plugin>
    </model>
    <model name="box">
      <pose>0 0 2 0.1 0 0</pose>
      <link name="body">
        <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.3 0.3 0.3</size></box></geometry></collision>
      </link>
    </model>
EOF
}

# free_fall_z T T0: the height of a free fall from 2 m at rest at T0, at T.
free_fall_z() {
	awk -v t="$1" -v t0="$2" 'BEGIN { printf "%.12f", 2 - 9.81 * (t - t0)^2 / 2 }'
}

# held_dropped_held ENGINE: held still until 0.5 s, a free fall from 2 m
# after (semi-implicit Euler's or the parabola's, within g h (t - t0) / 2),
# held again from 1 s where it then is.
held_dropped_held() {
	run_world "$1" 1.5 "$TMP/w.sdf" -c "$TMP/ctl" -i 'box::body/*'
	local t z
	for t in 0.1 0.5; do
		near "$(at "$TMP/$1" $t box::body/pose z)" 2 1e-6
	done
	for t in 0.7 0.9 1; do
		near "$(at "$TMP/$1" $t box::body/pose z)" "$(free_fall_z $t 0.5)" 2.5e-3
	done
	z=$(at "$TMP/$1" 1 box::body/pose z)
	near "$(at "$TMP/$1" 1.5 box::body/pose z)" "$z" 1e-6
	near "$(at "$TMP/$1" 1.5 box::body/linear_vel z)" 0 1e-4
	near "$(at "$TMP/$1" 1.5 box::body/pose roll)" 0.1 1e-6
}

@test "DetachableJoint: a box held under a static crane stays put, falls freely from the detach message on, and is held where it is by the attach message, on gz-sim's default topics, under each engine" {
	world "$TMP/w.sdf" <<EOF
$(crane)
EOF
	printf '%s\n' '{"t":0.5,"topic":"/model/crane/detachable_joint/detach","msg":{}}' \
	    '{"t":1,"topic":"/model/crane/detachable_joint/attach","msg":{}}' > "$TMP/ctl"
	each_engine held_dropped_held
}

@test "DetachableJoint: the weld stays through switches of engine; a second attach or detach is ignored" {
	world "$TMP/w.sdf" <<EOF
$(crane '<detach_topic>/drop</detach_topic><attach_topic>/grab</attach_topic>')
EOF
	printf '%s\n' '{"t":0,"topic":"/grab","msg":{}}' '{"t":0.1,"preset":"bullet"}' \
	    '{"t":0.2,"preset":"mujoco"}' '{"t":0.3,"preset":"simbody"}' \
	    '{"t":0.4,"preset":"dart"}' '{"t":0.45,"preset":"ode"}' \
	    '{"t":0.5,"topic":"/drop","msg":{}}' '{"t":0.6,"topic":"/drop","msg":{}}' > "$TMP/ctl"
	phys-step -t 0.9 -r 10 -c "$TMP/ctl" -i 'box::body/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(at "$TMP/out" 0.5 box::body/pose z)" 2 1e-6
	near "$(at "$TMP/out" 0.9 box::body/pose z)" "$(free_fall_z 0.9 0.5)" 2.5e-3
	echo '{"t":0,"topic":"/model/crane/detachable_joint/detach","msg":{}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no system listens on topic '/model/crane/detachable_joint/detach'"*"/drop"* ]]
}

@test "DetachableJoint: <topic> is the detach topic when there is no <detach_topic>; initial_attach false starts detached" {
	world "$TMP/w.sdf" <<EOF
$(crane '<topic>/release</topic><initial_attach>false</initial_attach>')
EOF
	printf '%s\n' '{"t":0,"topic":"/model/crane/detachable_joint/attach","msg":{}}' \
	    '{"t":0.5,"topic":"/release","msg":{}}' > "$TMP/ctl"
	phys-step -t 0.9 -r 10 -c "$TMP/ctl" -i 'box::body/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(at "$TMP/out" 0.5 box::body/pose z)" 2 1e-6
	near "$(at "$TMP/out" 0.9 box::body/pose z)" "$(free_fall_z 0.9 0.5)" 2.5e-3
	phys-step -t 0.5 -r 10 -i 'box::body/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(at "$TMP/out" 0.5 box::body/pose z)" "$(free_fall_z 0.5 0)" 2.5e-3
}

@test "DetachableJoint: a missing parameter or parent link is an error at the plugin's line; a child model that is not there is warned about once (suppress_child_warning silences it) and nothing is held" {
	world "$TMP/w.sdf" <<EOF
$(crane | sed 's|<child_link>body</child_link>||')
EOF
	run phys-step -t 0.01 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:$(grep -n DetachableJoint "$TMP/w.sdf" | cut -d: -f1): DetachableJoint: <child_link> is required"* ]]
	world "$TMP/w.sdf" <<EOF
$(crane | sed 's|<parent_link>hook|<parent_link>arm|')
EOF
	run phys-step -t 0.01 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"DetachableJoint: model 'crane' has no link 'arm'"* ]]
	world "$TMP/w.sdf" <<EOF
$(crane | sed 's|<child_model>box|<child_model>crate|')
EOF
	phys-step -t 0.5 -r 10 -i 'box::body/pose' "$TMP/w.sdf" > "$TMP/out" 2> "$TMP/err"
	[ "$(grep -c "DetachableJoint: no link 'body' in a model 'crate'" "$TMP/err")" -eq 1 ]
	near "$(at "$TMP/out" 0.5 box::body/pose z)" "$(free_fall_z 0.5 0)" 2.5e-3
	world "$TMP/w.sdf" <<EOF
$(crane '<suppress_child_warning>true</suppress_child_warning>' | sed 's|<child_model>box|<child_model>crate|')
EOF
	phys-step -t 0.01 "$TMP/w.sdf" > /dev/null 2> "$TMP/err"
	! grep -q crate "$TMP/err" || false
}

# carrier ENGINE: worlds/detachable_joint.sdf with the lines its comment
# gives: the carrier drives at 0.5 m/s; each crumb rides with it until its
# detach, then falls 0.3 m to the ground ahead of where it was let go by
# what it moved in its fall (0.5 m/s for sqrt(2 0.3 / g)), and rests
# there while the other rides on.
carrier() {
	sed -n 's/^    \({"t".*}\)$/\1/p' "$BATS_TEST_DIRNAME/../worlds/detachable_joint.sdf" > "$TMP/ctl"
	[ "$(wc -l < "$TMP/ctl")" -eq 3 ]
	phys-step -p "$1" -t 5 -r 10 -c "$TMP/ctl" -i 'carrier::chassis/pose' -i 'crumb*::body/pose' \
	    "$BATS_TEST_DIRNAME/../worlds/detachable_joint.sdf" > "$TMP/out"
	local x2 x3 lead=$(awk 'BEGIN { printf "%.9f", 0.5 * sqrt(2 * 0.3 / 9.81) }')
	near "$(at "$TMP/out" 5 carrier::chassis/pose x)" "$(at "$TMP/out" 4 carrier::chassis/pose x | awk '{ print $1 + 0.5 }')" 0.04
	x2=$(at "$TMP/out" 2 carrier::chassis/pose x)
	x3=$(at "$TMP/out" 3 carrier::chassis/pose x)
	near "$(at "$TMP/out" 2 crumb1::body/pose x)" "$(awk -v x=$x2 'BEGIN { print x - 1 }')" 0.005
	near "$(at "$TMP/out" 2.9 crumb2::body/pose z)" 0.4 0.003
	near "$(at "$TMP/out" 3 crumb2::body/pose x)" "$(awk -v x=$x3 'BEGIN { print x - 1 }')" 0.005
	near "$(at "$TMP/out" 5 crumb1::body/pose z)" 0.1 0.003
	near "$(at "$TMP/out" 5 crumb1::body/pose x)" "$(awk -v x=$x2 -v l=$lead 'BEGIN { print x - 1 + l }')" 0.02
	near "$(at "$TMP/out" 5 crumb1::body/pose x)" "$(at "$TMP/out" 4 crumb1::body/pose x)" 1e-3
	near "$(at "$TMP/out" 5 crumb2::body/pose z)" 0.1 0.003
	near "$(at "$TMP/out" 5 crumb2::body/pose x)" "$(awk -v x=$x3 -v l=$lead 'BEGIN { print x - 1 + l }')" 0.02
}

@test "DetachableJoint, a carrier that leaves its crumbs (worlds/detachable_joint.sdf): the commands its comment gives drive it and drop each crumb where it is, as the comment says, under each engine" {
	each_engine carrier
}

@test "TendonActuator, phys's own system, known by its name alone: a 1 kg car on a slide pulled through a coefficient of 2 by a force of 100 (u - L) rests at (u - m g / 200) / 2, for the control its topic gives; a bad parameter is an error at its line" {
	cat > "$TMP/lift.sdf" <<-EOF
	<sdf version="1.9"><world name="w">
	<model name="lift">
	  <link name="car"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
	  <joint name="up" type="prismatic"><parent>world</parent><child>car</child>
	    <axis><xyz>0 0 1</xyz><dynamics><damping>20</damping></dynamics></axis></joint>
	  <plugin filename="my-build-of-it" name="phys::systems::TendonActuator">
	    <joint coef="2">up</joint>
	    <gain>100</gain>
	    <bias>0 -100 0</bias>
	  </plugin>
	</model></world></sdf>
	EOF
	echo '{"t":0,"topic":"/model/lift/joint/up/cmd","msg":{"data":0.5}}' > "$TMP/ctl"
	run -0 --separate-stderr phys-step -t 3 -r 1 -c "$TMP/ctl" -i 'lift::up/position' "$TMP/lift.sdf"
	[ -z "$stderr" ]
	near "$(printf '%s\n' "$output" | tail -1 | jq '.items[] | .[0]')" "$(awk 'BEGIN { print (0.5 - 9.81 / 200) / 2 }')" 1e-4
	sed 's|<bias>0 -100 0</bias>|<bias>0 -100</bias>|' "$TMP/lift.sdf" > "$TMP/bad.sdf"
	run -1 --separate-stderr phys-step -n 1 "$TMP/bad.sdf"
	assert_equal "$stderr" "phys-step: $TMP/bad.sdf:9: TendonActuator: <bias> '0 -100' is not 3 finite numbers"
}
