#!/usr/bin/env bats
# gz-sim's systems read from <plugin>: their parameters, defaults and
# topics as gz-sim has them, their commands as topic lines, each against
# its closed form or the behaviour gz-sim's example worlds describe, under
# every engine. The worlds are written here, each a few models with the
# plugin blocks of gz-sim's examples.

load helper

# world FILE: a world with one profile per engine around the models on
# stdin, gravity 9.81 m/s^2.
world() {
	{
		cat <<'EOF'
<?xml version="1.0"?>
<sdf version="1.6">
  <world name="default">
    <physics name="ode" type="ode" default="true"><max_step_size>0.001</max_step_size></physics>
    <physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
    <physics name="mujoco" type="mujoco"><max_step_size>0.001</max_step_size></physics>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <physics name="dart" type="dart"><max_step_size>0.001</max_step_size></physics>
    <gravity>0 0 -9.81</gravity>
EOF
		cat
		printf '  </world>\n</sdf>\n'
	} > "$1"
}

# rotor MODEL IZZ DAMPING PLUGIN...: gz-sim's example rotor: a 120 kg base
# welded to the world and a 0.6 kg rotor on joint j1 about z through its
# centre (inertia IZZ about it, the joint's damping DAMPING), the plugin
# blocks after.
rotor() {
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

# at FILE T ITEM: axis 0 (or the number) of ITEM at time T.
at() {
	jq -r --argjson t "$2" --arg i "$3" \
	    'select(.t == $t) | .items[$i] | if type == "array" then .[0] else . end' "$1"
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
$(rotor m 0.00012 0 '<plugin filename="libfoo.so" name="foo::Bar"/>')
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
	[[ "$output" == *"w.sdf:$n: plugin 'gz::sim::systems::JointPositionController' (libgz-sim8-joint-position-controller-system.so) is not run"* ]]
	n=$(grep -n 'libfoo' "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'foo::Bar' (libfoo.so) is not run"* ]]
	n=$(grep -n 'libimu' "$w" | cut -d: -f1)
	[[ "$output" == *"w.sdf:$n: plugin 'imu' (libimu.so) is not run"* ]]
	# once each, and nothing of the plugins phys reads
	[ "$(echo "$output" | grep -c 'is not run')" -eq 4 ]
	! echo "$output" | grep -q 'Physics\|InitialVelocity'
	run phys-step -q -t 0.01 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'not run'
}

@test "a topic line in a world that runs no system is an error naming its line" {
	world "$TMP/n.sdf" < /dev/null
	echo '{"t":0,"topic":"/go","msg":{"data":1}}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/n.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ctl:1: no system listens on topic '/go': the world runs no gz-sim system with topics"* ]]
	echo '{"t":0,"topic":"/go"}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/n.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *'ctl:1: a topic line needs "msg"'* ]]
}
