#!/usr/bin/env bats
# What phys says, said plainly and once: a run far slower than real time,
# what an edit changes beyond what was asked, warnings grouped rather than
# repeated per link.

load helper
bats_require_minimum_version 1.5.0

# chain_world N [IZZ]: a robot of N small links (36 g, 4 cm cubes) in a
# row along x, 0.5 m up, hinged on y one to the next, each with ixx = iyy
# = 0.01 (iCub's placeholder, far too large for such a link) and izz =
# IZZ (0.01 by default), over a ground plane with Gazebo's friction (ODE's
# mu 100, mu2 50); profiles for every engine.
chain_world() {
	local i
	{
		cat <<'H'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics name="ode" type="ode" default="true"><max_step_size>0.001</max_step_size></physics>
H
		for e in $(engines); do
			[ "$e" = ode ] || echo "    <physics name=\"$e\" type=\"$e\"><max_step_size>0.001</max_step_size></physics>"
		done
		cat <<'H'
    <model name="ground">
      <static>true</static>
      <link name="link">
        <collision name="c"><geometry><plane><normal>0 0 1</normal><size>100 100</size></plane></geometry>
          <surface><friction><ode><mu>100</mu><mu2>50</mu2></ode></friction></surface></collision>
      </link>
    </model>
    <model name="robot">
H
		for i in $(seq 0 $(($1 - 1))); do
			cat <<L
      <link name="l$i">
        <pose>$(awk -v i="$i" 'BEGIN { print i * 0.05 }') 0 0.5 0 0 0</pose>
        <inertial><mass>0.036</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>${2:-0.01}</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>0.04 0.04 0.04</size></box></geometry></collision>
      </link>
L
			[ "$i" -eq 0 ] || echo "      <joint name=\"j$i\" type=\"revolute\"><parent>l$((i - 1))</parent><child>l$i</child><axis><xyz>0 1 0</xyz></axis></joint>"
		done
		printf '    </model>\n  </world>\n</sdf>\n'
	}
}

# ---- a slow run ----

# A world made slow on purpose: 50 links at a 1 us step run at a few
# thousandths of real time on any machine (0.25 ms a step here), far
# below the 0.05 that is said; 0.01 s of it lasts seconds.
slow_run() {	# the command, for a shell
	chain_world 50 > "$TMP/slow.sdf"
	echo "'$PHYS_BIN/phys-step' -t 0.01 -s max_step_size=1e-6 -e 1000 '$TMP/slow.sdf'"
}

# tty_run CMD: CMD in a terminal (tmux) with stdout to $TMP/out, until
# it ends; its screen (stderr) in $TMP/screen.
tty_run() {
	local sock="phys-$$-$BATS_TEST_NUMBER" i
	rm -f "$TMP/rc"
	tmux -L "$sock" new-session -d -s s -x 200 -y 50 \
		"$1 > '$TMP/out'; echo \$? > '$TMP/rc'; sleep 60"
	for i in $(seq 600); do
		[ -s "$TMP/rc" ] && break
		sleep 0.1
	done
	tmux -L "$sock" capture-pane -p -J -t s > "$TMP/screen"
	tmux -L "$sock" kill-server
	[ -s "$TMP/rc" ]
}

@test "a run far slower than real time says so once on a terminal: the engine, its pace and what to try" {
	command -v tmux > /dev/null || skip "tmux is not installed"
	tty_run "$(slow_run)"
	[ "$(cat "$TMP/rc")" = 0 ]
	cat "$TMP/screen"
	[ "$(grep -c 'slow:' "$TMP/screen")" -eq 1 ]
	line=$(grep 'slow:' "$TMP/screen")
	[[ $line == "phys-step: slow: ODE runs this world at "*" times real time"* ]]
	[[ $line == *"-s max_step_size=2e-06, now 1e-06"* ]]
	[[ $line == *"another engine"* ]]
	# the factor said is below 0.05 and matches the run's own
	rtf=$(sed 's/.* at \([^ ]*\) times real time.*/\1/' <<<"$line")
	near "$rtf" 0.025 0.025
	# the state lines are all there, untouched
	[ "$(wc -l < "$TMP/out")" -eq 11 ]
	[[ $line != *"quick solver"* ]]
	# under ODE's world solver, its quick one is named too
	tty_run "$(slow_run) -t 0.004 -s ode.solver.type=world"
	[ "$(cat "$TMP/rc")" = 0 ]
	line=$(grep 'slow:' "$TMP/screen")
	[[ $line == *"now 1e-06), ODE's quick solver (-s ode.solver.type=quick: its world solver's work grows as the cube of the constraints, the quick one's as their number) or another engine"* ]]
}

@test "a slow run says nothing when standard error is not a terminal" {
	eval "$(slow_run)" > "$TMP/out" 2> "$TMP/err"
	[ "$(wc -l < "$TMP/out")" -eq 11 ]
	[ ! -s "$TMP/err" ]
}

# ---- warnings grouped ----

# grouped ENGINE: the chain's 50 links share one fault (no rigid body has
# their inertia: 0.01 + 0.01 < 0.03): one line for all, at the first
# link, saying how many more; nothing else said twice.
grouped() {
	phys-step -p "$1" -n 2 "$TMP/chain.sdf" 2> "$TMP/err" > /dev/null
	cat "$TMP/err"
	[ "$(grep -c 'inertia triangle inequality broken' "$TMP/err")" -eq 1 ]
	line=$(grep 'inertia triangle inequality broken' "$TMP/err")
	[[ $line == "phys-step: $TMP/chain.sdf:"*": link 'robot::l0': inertia triangle inequality broken: "*" (and 49 more links)" ]]
	# at the first link's element (its <link> or its <inertial>)
	at=$(cut -d: -f3 <<<"$line")
	first=$(grep -n '<link name="l0">' "$TMP/chain.sdf" | cut -d: -f1)
	[ "$at" -ge "$first" ] && [ "$at" -le $((first + 2)) ]
	[ "$(sort "$TMP/err" | uniq -d | wc -l)" -eq 0 ]
	[ "$(wc -l < "$TMP/err")" -le 3 ]
}
@test "a fault shared by 50 links is one warning line, at the first, with how many more, under each engine" {
	chain_world 50 0.03 > "$TMP/chain.sdf"
	each_engine grouped
	# -q: nothing
	[ -z "$(phys-step -q -n 2 "$TMP/chain.sdf" 2>&1 > /dev/null)" ]
}

@test "parameters for another engine name the element, the block (or the parameter, where the engine honours some of the block) and the engine it is of" {
	chain_world 2 | sed 's|<mu2>50</mu2>|<mu2>50</mu2></ode><bullet><friction>0.7</friction></bullet><ode>|' > "$TMP/chain.sdf"
	# ODE's <mu2> under Bullet (which takes <mu> from ODE's block: the
	# block is not all ODE's), Bullet's <bullet> under ODE, each at its
	# line
	at=$(grep -n '<surface>' "$TMP/chain.sdf" | cut -d: -f1)
	phys-step -p bullet -n 1 "$TMP/chain.sdf" 2> "$TMP/err" > /dev/null
	grep -Fx "phys-step: $TMP/chain.sdf:$at: collision 'ground::link::c': surface.friction.ode.mu2 is ODE's and has no effect with Bullet (kept as given)" "$TMP/err"
	! grep -F "surface.friction.ode parameters" "$TMP/err" || false
	phys-step -p ode -n 1 "$TMP/chain.sdf" 2> "$TMP/err" > /dev/null
	assert_equal "$(cat "$TMP/err")" "phys-step: $TMP/chain.sdf:$at: collision 'ground::link::c': surface.friction.bullet parameters are Bullet's and have no effect with ODE (kept as given)"
}

@test "phys-preset says nothing about the robot's links, only about the profiles" {
	# every link's mesh missing, and a second profile marked default
	chain_world 50 | sed 's|<box><size>0.04 0.04 0.04</size></box>|<mesh><uri>not_here.stl</uri></mesh>|; s|<physics name="bullet" type="bullet">|<physics name="bullet" type="bullet" default="true">|' > "$TMP/w.sdf"
	run -0 --separate-stderr phys-step -n 1 --skip-unsupported "$TMP/w.sdf"
	[[ $stderr == *"skipping collision 'robot::l0::c' (and 49 more collisions)"* ]]
	run -0 --separate-stderr phys-preset list -1 "$TMP/w.sdf"
	[ "$(tr '\n' ' ' <<<"$output")" = "ode $(engines | grep -vx ode | tr '\n' ' ')" ]
	at=$(grep -n '<physics name="bullet"' "$TMP/w.sdf" | cut -d: -f1)
	assert_equal "$stderr" "phys-preset: $TMP/w.sdf:$at: profile 'bullet' is also marked default; 'ode', the first so marked, is the default"
	# an edit, in place, says the same and no more
	run -0 --separate-stderr phys-preset add --in-place fast max_step_size=0.002 "$TMP/w.sdf"
	assert_equal "$stderr" "phys-preset: $TMP/w.sdf:$at: profile 'bullet' is also marked default; 'ode', the first so marked, is the default"
	[ "$(phys-preset show fast "$TMP/w.sdf" 2> /dev/null | jq 'select(.name == "max_step_size") | .value')" = 0.002 ]
}

# ---- a resize into the ground ----

# sunk ENGINE: the 0.4 m cube resting on the plane doubled at t = 0.5 s:
# its new half size, 0.4 m, below its centre, reaches 0.4 - z into the
# ground (z the centre's height then); said once, with the link, the
# depth and the time, under every engine. A later resize that takes it
# no deeper says nothing more.
sunk() {
	printf '%s\n' '{"t":0.5,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' \
	    '{"t":0.7,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	phys-step -p "$1" -t 1 -r 1000 -c "$TMP/c" -i 'box::link/pose' "$(profile_world "$WORLDS/resting_box.sdf" "$1")" \
	    > "$TMP/o" 2> "$TMP/err"
	cat "$TMP/err"
	[ "$(grep -c 'resized, reaches' "$TMP/err")" -eq 1 ]
	line=$(grep 'resized, reaches' "$TMP/err")
	[[ $line == "phys-step: $TMP/c:1: link 'box::link': at t=0.5 s its collision 'box::link::collision', resized, reaches "*" m into '"*"': each engine pushes it out its own way (it may jump)" ]]
	depth=$(sed 's/.* reaches \([^ ]*\) m into.*/\1/' <<<"$line")
	z=$(at "$TMP/o" 0.5 'box::link/pose' z)
	near "$depth" "$(awk -v z="$z" 'BEGIN { print 0.4 - z }')" 0.001
}
@test "a resize that sinks a collision into the ground is said once, with the link, the depth and the time, under each engine" {
	each_engine sunk
	# shrinking says nothing, nor does -s at a size that stays clear
	echo '{"t":0.5,"name":"box::link::collision/geometry.box.size","value":{"x":0.2,"y":0.2,"z":0.2}}' > "$TMP/c"
	run -0 --separate-stderr phys-step -t 0.6 -c "$TMP/c" "$WORLDS/resting_box.sdf"
	[ -z "$stderr" ]
	# -s: from the start, no position
	run -0 --separate-stderr phys-step -n 1 -s 'box::link::collision/geometry.box.size=0.8 0.8 0.8' "$WORLDS/resting_box.sdf"
	[[ $stderr == "phys-step: link 'box::link': at t=0 s its collision 'box::link::collision', resized, reaches 0.2"*" m into "* ]]
	# ground that is a static box: a ball of 0.1 m resting on a slab
	# whose top is at z = 0, grown to 0.4 m, reaches 0.3 m into it
	cat > "$TMP/slab.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.7"><world name="w">
	<model name="slab"><static>true</static><link name="l"><pose>0 0 -0.5 0 0 0</pose>
	<collision name="c"><geometry><box><size>10 10 1</size></box></geometry></collision></link></model>
	<model name="ball"><pose>0 0 0.1 0 0 0</pose><link name="link">
	<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
	<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
	</world></sdf>
	EOF
	echo '{"t":0,"name":"ball::link::c/geometry.sphere.radius","value":0.4}' > "$TMP/c"
	run -0 --separate-stderr phys-step -n 1 -c "$TMP/c" "$TMP/slab.sdf"
	[ "$stderr" = "phys-step: $TMP/c:1: link 'ball::link': at t=0 s its collision 'ball::link::c', resized, reaches 0.3 m into 'slab::l::c': each engine pushes it out its own way (it may jump)" ]
}

# placed ENGINE: worlds/buried_sphere.sdf's ball of radius 0.1 m starts
# with its centre 0.05 m up: 0.05 m into the ground, said at its
# collision's line under every engine; set clear of it at t = 0, or set
# into it, as placed.
placed() {
	local w l
	w=$(profile_world "$WORLDS/buried_sphere.sdf" "$1")
	l=$(grep -n '<collision name="collision">' "$w" | tail -1 | cut -d: -f1)
	run -0 --separate-stderr phys-step -p "$1" -n 1 "$w"
	[ "$(grep -c 'starts .* m into' <<<"$stderr")" -eq 1 ]
	grep -qxF "phys-step: $w:$l: link 'ball::link': starts 0.05 m into 'ground::link::collision': each engine pushes it out its own way (it may jump)" <<<"$stderr"
	echo '{"t":0,"name":"ball::link/pose","value":{"x":0,"y":0,"z":0.1,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/c"
	run -0 --separate-stderr phys-step -p "$1" -n 1 -c "$TMP/c" "$w"
	[[ $stderr != *"m into"* ]]
	echo '{"t":0,"name":"ball::link/pose","value":{"x":0,"y":0,"z":0.02,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/c"
	run -0 --separate-stderr phys-step -p "$1" -n 1 -c "$TMP/c" "$w"
	[[ $stderr == *"link 'ball::link': starts 0.08 m into 'ground::link::collision'"* ]]
}
@test "a link that starts deep in the ground, as placed, is said at its collision's line with its depth, under each engine" {
	each_engine placed
}

@test "a link that starts in the ground where the two never touch is not said: an arm's base welded to the world through its floor, as Menagerie's iiwa has it; a ball dropped in beside it is" {
	cat > "$TMP/arm.xml" <<-EOF
	<mujoco model="arm">
	  <worldbody>
	    <geom name="floor" type="plane" size="0 0 0.05"/>
	    <body name="base"><geom type="cylinder" size="0.1 0.1" mass="5"/></body>
	    <body name="ball" pos="1 0 0.05"><freejoint/><geom size="0.1"/></body>
	  </worldbody>
	</mujoco>
	EOF
	run -0 --separate-stderr phys-step -t 0.5 -r 2 -i 'arm::base/pose' "$TMP/arm.xml"
	[[ $stderr == *"link 'arm::ball': starts 0.05 m into '"*"floor'"* ]]
	[[ $stderr != *"arm::base'"* ]]
	# and the base stays where it is
	near "$(printf '%s\n' "$output" | tail -1 | jq '.items[].z')" 0 1e-9
}
