#!/usr/bin/env bats
# Joint commands by the kind of joint: a joint with no axis phys can
# command (fixed, ball, screw, gearbox) is refused with its name, type and
# place in the file, whether a control line or a gz-sim system asks and
# whichever engine runs; a revolute2 joint's two axes take commands the
# same way under every engine.

load helper

# kinds FILE: a world with a profile per engine and a model "m" whose links hang from a static frame by one
# joint of each kind phys commands none of, and a revolute2 joint "r2".
kinds() {
	local inertial='<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>'
	cat > "$1" <<EOF
<?xml version="1.0"?>
<sdf version="1.6">
  <world name="default">
$(engine_profiles 0.001)
    <model name="m">
      <link name="top">$inertial</link>
      <link name="a"><pose>0 0 -1 0 0 0</pose>$inertial</link>
      <link name="b"><pose>1 0 -1 0 0 0</pose>$inertial</link>
      <link name="c"><pose>2 0 -1 0 0 0</pose>$inertial</link>
      <link name="d"><pose>3 0 -1 0 0 0</pose>$inertial</link>
      <joint name="anchor" type="fixed"><parent>world</parent><child>top</child></joint>
      <joint name="weld" type="fixed"><parent>top</parent><child>a</child></joint>
      <joint name="socket" type="ball"><parent>top</parent><child>b</child></joint>
      <joint name="r2" type="revolute2"><parent>top</parent><child>c</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
      <joint name="slide" type="prismatic"><parent>top</parent><child>d</child>
        <axis><xyz>0 0 1</xyz></axis></joint>
    </model>
  </world>
</sdf>
EOF
}

no_axis_refused() {
	local j line
	for j in weld socket; do
		line=$(grep -n "name=\"$j\"" "$TMP/w.sdf" | cut -d: -f1)
		echo "{\"t\":0,\"name\":\"m::$j/cmd_force\",\"value\":1}" > "$TMP/ctl"
		run phys-step -p "$1" -t 0.01 -c "$TMP/ctl" "$TMP/w.sdf"
		[ "$status" -eq 1 ]
		[[ "$output" == *"ctl:1: m::$j/cmd_force: joint 'm::$j' has no axis phys can command: it is a $(sed -n "${line}s/.*type=\"\([a-z0-9]*\)\".*/\1/p" "$TMP/w.sdf") joint ($TMP/w.sdf:$line)"* ]]
		# a system that names it: an error at its plugin's line
		sed "s|</model>|<plugin filename=\"gz-sim-apply-joint-force-system\" name=\"gz::sim::systems::ApplyJointForce\"><joint_name>$j</joint_name></plugin></model>|" \
		    "$TMP/w.sdf" > "$TMP/p.sdf"
		run phys-step -p "$1" -t 0.01 "$TMP/p.sdf"
		[ "$status" -eq 1 ]
		[[ "$output" == *"p.sdf:$(grep -n ApplyJointForce "$TMP/p.sdf" | cut -d: -f1): ApplyJointForce: joint 'm::$j' has no axis phys can drive: it is a"*" joint ($TMP/p.sdf:$line)"* ]]
	done
}

@test "a command on a fixed or ball joint is refused with the joint's name, type and file:line, from a control line or a system, under each engine" {
	kinds "$TMP/w.sdf"
	each_engine no_axis_refused
}

@test "a command on a screw or gearbox joint is refused with the joint's name, type and file:line" {
	kinds "$TMP/w.sdf"
	sed -i -e 's|type="prismatic"|type="screw"|' "$TMP/w.sdf"
	echo '{"t":0,"name":"m::slide/cmd_vel","value":1}' > "$TMP/ctl"
	run phys-step -t 0.01 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"joint 'm::slide' has no axis phys can command: it is a screw joint ($TMP/w.sdf:$(grep -n 'name="slide"' "$TMP/w.sdf" | cut -d: -f1))"* ]]
	sed -i -e 's|<joint name="slide" type="screw">|<joint name="slide" type="gearbox"><gearbox_reference_body>top</gearbox_reference_body><gearbox_ratio>2</gearbox_ratio>|' \
	    -e 's|<parent>top</parent><child>d</child>|<parent>c</parent><child>d</child>|' "$TMP/w.sdf"
	run phys-step -t 0.01 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"joint 'm::slide' has no axis phys can command: it is a gearbox joint"* ]]
}

# revolute2 ENGINE: without gravity, an effort of 0.01 N m on each axis of
# r2 (about the child's centre, inertia 0.1) turns each by 0.05 rad in 1 s
# the way its position counts, the child turning as under ODE; a PD holds
# each axis at its target.
revolute2() {
	echo '{"t":0,"name":"m::r2/cmd_force","value":[0.01,0.01]}' > "$TMP/ctl"
	phys-step -p "$1" -t 1 -r 1 -c "$TMP/ctl" -s gravity='0 0 0' \
	    -i 'm::r2/position' -i 'm::r2/velocity' -i 'm::c/angular_vel' "$TMP/w.sdf" > "$TMP/$1"
	near "$(at "$TMP/$1" 1 m::r2/position 0)" 0.05 1e-4
	near "$(at "$TMP/$1" 1 m::r2/position 1)" 0.05 1e-4
	near "$(at "$TMP/$1" 1 m::r2/velocity 1)" 0.1 1e-3
	near "$(at "$TMP/$1" 1 m::c/angular_vel y)" "$(at "$TMP/ode" 1 m::c/angular_vel y)" 1e-3
	echo '{"t":0,"name":"m::r2/cmd_pos","value":[0.2,-0.3]}' > "$TMP/ctl"
	phys-step -p "$1" -t 3 -r 1 -c "$TMP/ctl" -s gravity='0 0 0' -s 'm::r2/position_pid.p_gain=10' \
	    -s 'm::r2/position_pid.d_gain=1' -i 'm::r2/position' "$TMP/w.sdf" > "$TMP/pd"
	near "$(at "$TMP/pd" 3 m::r2/position 0)" 0.2 2e-3
	near "$(at "$TMP/pd" 3 m::r2/position 1)" -0.3 2e-3
}

@test "a revolute2 joint: an effort on either axis turns it the way its position and rate count, the same way under every engine, and a PD holds both axes at their targets" {
	kinds "$TMP/w.sdf"
	each_engine revolute2
}
