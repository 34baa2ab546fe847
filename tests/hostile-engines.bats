#!/usr/bin/env bats
# Hostile worlds for the engines (issue 31): values an engine asserts on,
# work it would take minutes and gigabytes for, errors of libraries that
# exit. Each input (tests/data/hostile-engines.sh) gets "phys-step:
# FILE:LINE: message" and status 1 well within 10 s and 300 MB, and the
# state lines written before stay whole. tests/embed.bats feeds the same
# inputs to the C API. An error of ODE's itself (a pose it cannot collide)
# names the body and the time rather than a file.

load helper
bats_require_minimum_version 1.5.0

setup() {
	H="$TMP/h"
	sh "$BATS_TEST_DIRNAME/data/hostile-engines.sh" "$H"
}

# step_bounded ARGS...: phys-step ARGS in $H, at most 10 s (a guard against a
# hang, far above what a refusal takes) and, unless sanitized, 300 MB of
# address space; its peak resident size into $TMP/rss.
step_bounded() {
	(cd "$H" &&
	    /usr/bin/time -f %M -o "$TMP/rss" bash -c \
	    'out=$1; shift; bounded 10 300000 phys-step "$@" >"$out"' \
	    _ "$TMP/out" "$@")
}

# each case: ENGINE|WORLD|CONTROL|WHAT
@test "every hostile input is refused with its place and status 1, within the bounds" {
	local e w c what args line
	while IFS='|' read -r e w c what; do
		args=(-q)	# the refusal alone: a load's warnings aside
		[ "$e" = - ] || args+=(-p "$e")
		[ "$c" = - ] || args+=(-c "$c")
		run --separate-stderr step_bounded "${args[@]}" -t 0.02 "$w"
		[ "$status" -eq 1 ] || fail "$e $w $c: status $status: $stderr"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "$e $w $c: $stderr"
		# prog: file:line: message, the file the one that set the value
		[[ "$stderr" =~ ^phys-step:\ ([^:]+):([0-9]+):\ (.*)$ ]] ||
		    fail "$e $w $c: no file:line: $stderr"
		[ "${BASH_REMATCH[1]}" = "$([ "$c" = - ] && echo "$w" || echo "$c")" ] ||
		    fail "$e $w $c: names ${BASH_REMATCH[1]}"
		[[ "$stderr" == *"$what"* ]] || fail "$e $w $c: $stderr"
		sanitized || [ "$(tail -1 "$TMP/rss")" -lt 300000 ] ||
		    fail "$e $w $c: $(tail -1 "$TMP/rss") KB"
		[ ! -s "$TMP/out" ] || ends_whole "$TMP/out"
	done < "$H/cases"
}

@test "the bounds are the engines' own: one box short of them runs" {
	# 11 boxes in one spot are 55 deep pairs, under the 64 refused
	sed '/name="b1[2-9]"\|name="b[2-9][0-9]"\|name="b50"/d' "$H/pile50.sdf" > "$H/pile11.sdf"
	[ "$(grep -c '<model name="b' "$H/pile11.sdf")" -eq 11 ]
	run step_bounded -p ode -n 2 pile11.sdf
	assert_success
	[ "$(wc -l < "$TMP/out")" -eq 3 ]
	# 20 of the 50 boxes 0.56 m inside one another are 46 deep pairs,
	# under the 64 refused, and 1,116 rows for DART's solver, under the
	# 2,048 refused: it pushes the corner's box out of the grid, as ODE
	# does
	sed '/name="b[2-4][0-9]"/d' "$H/grid44.sdf" > "$H/near20.sdf"
	[ "$(grep -c '<model name="b' "$H/near20.sdf")" -eq 20 ]
	run step_bounded -p dart -n 2 -i b0::l/pose near20.sdf
	assert_success
	[ "$(tail -1 "$TMP/out" | jq '.items["b0::l/pose"].x < -1e-6')" = true ]
	# a 257 x 257 terrain is within DART's and MuJoCo's heightmap bounds
	sed 's|<sampling>4</sampling>|<sampling>1</sampling>|' "$H/terrain4.sdf" > "$H/terrain1.sdf"
	run step_bounded -p mujoco -n 1 terrain1.sdf
	assert_success
	# DART's 131,072 triangles of it take about 105 MB: within 300 MB
	# FCL's tree of them was cut short without a word, and the ball
	# reaching it (t = 0.77 s) crashed the program; refused at the
	# terrain's line instead, and run within 500 MB, the ball resting on
	# the terrain (heights 0 to 2 m), not fallen through (-6 m)
	sanitized || {
		run --separate-stderr bash -c 'cd "$1" && bounded 10 300000 phys-step -q -p dart -t 1.5 terrain1.sdf >/dev/null' _ "$H"
		assert_failure 1
		[[ "$stderr" =~ ^phys-step:\ terrain1.sdf:8:\ collision\ \'t::link::c\':\ the\ DART\ engine\ would\ take\ about\ [0-9]+\ MB\ for\ the\ world\'s\ 131072\ triangles\ .*raise\ the\ limit,\ or\ run\ it\ under\ ODE\ or\ Bullet$ ]] ||
		    fail "$stderr"
	}
	run bash -c 'cd "$1" && bounded 10 500000 phys-step -q -p dart -t 1.5 -e 1500 -i ball::link/pose terrain1.sdf' _ "$H"
	assert_success
	[ "$(echo "${lines[1]}" | jq '.items["ball::link/pose"].z > 0.1')" = true ]
	# a chain of 96 links, as deep as MuJoCo nests bodies, falls as one
	# body under it: its last link 0.5 g t^2 down after 0.1 s, as the
	# Euler integrator takes it (g h^2 n (n + 1) / 2); its compiler once
	# ran out of stack for the chain's mass matrix from 80 links
	run step_bounded -p mujoco -t 0.1 -r 10 -i c::l95/pose chain96.sdf
	assert_success
	near "$(tail -1 "$TMP/out" | jq '.items["c::l95/pose"].z')" \
	    "$(awk 'BEGIN { print 10 - 0.1 * 95 - 9.8 * 1e-6 * 100 * 101 / 2 }')" 1e-9
	# and an accuracy just below 1 reaches Simbody
	run step_bounded -p simbody -n 1 -s simbody.accuracy=0.999 good.sdf
	assert_success
	[ "$(head -1 "$TMP/out" | jq .engine.accuracy)" = 0.999 ]
}

@test "an inertia DART cannot invert, raised by phys to be positive definite, is refused after the warning that says so" {
	run --separate-stderr step_bounded -p dart -n 30 skew.sdf
	assert_failure 1
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" == "phys-step: skew.sdf:8: link 'b::bob': inertia not positive definite: principal moments -1e+17, 0.001, 1e+17"* ]]
	[[ "${stderr_lines[1]}" == "phys-step: skew.sdf:8: link 'b::bob': DART runs inertia whose principal moments lie within a factor 1e+12 of each other, not 0 to 1e+17 kg m^2" ]]
}

@test "an effort or a wrench is refused where it would take its link past the fastest body in a step, and not below" {
	local e
	# arm.sdf's bound (tests/data/hostile-engines.sh): 1e8 rad/s *
	# (0.006 + 1) kg m^2 / 1 ms = 1.006e11 N m, judged by half the
	# bob's inertia's trace (its inertia about the axis, 1.004 kg m^2,
	# cannot be larger); the ball of 1 kg takes light's speed * 1 kg /
	# 1 ms = 2.998e11 N
	for e in ode bullet mujoco dart simbody; do
		echo '{"t":0,"name":"arm::pivot/cmd_force","value":-1.003e11}' > "$H/near.jsonl"
		run step_bounded -p $e -n 1 -i 'arm::pivot/velocity' \
		    -c near.jsonl arm.sdf
		assert_success
		# the one step turns it at 1.003e11 N m * 1 ms / 1.004 kg
		# m^2 = 0.999e8 rad/s (its weight adds 1e-10 of that)
		jq -e 'select(.iter == 1) | .items."arm::pivot/velocity"[0] |
		    fabs / 0.999e8 | . > 0.9999 and . < 1.0001' "$TMP/out" >/dev/null ||
		    fail "$e: $(tail -1 "$TMP/out")"
		echo '{"t":0,"name":"arm::pivot/cmd_force","value":-1.007e11}' > "$H/far.jsonl"
		run --separate-stderr step_bounded -p $e -n 1 -c far.jsonl arm.sdf
		assert_failure 1
		[[ "$stderr" == *"far.jsonl:1: joint 'arm::pivot': an effort of -1.01e+11 N m would turn link 'arm::bob' faster than any body turns (1e8 rad/s) within a step of 0.001 s (at most 1.01e+11 N m)" ]] ||
		    fail "$e: $stderr"
		sed 's|1e300|2.99e11|' "$H/wrench.jsonl" > "$H/near.jsonl"
		run step_bounded -p $e -n 1 -c near.jsonl wrench.sdf
		assert_success
		sed 's|1e300|3.0e11|' "$H/wrench.jsonl" > "$H/far.jsonl"
		run --separate-stderr step_bounded -p $e -n 1 -c far.jsonl wrench.sdf
		assert_failure 1
		[[ "$stderr" == *"far.jsonl:1: a force of 3e+11 N would move link 'ball::link'"* ]] ||
		    fail "$e: $stderr"
	done
	# a controller's output is checked before each step: a position PID
	# of gain 1e300 whose output is not clamped (cmd_max < cmd_min)
	echo '{"t":0.002,"name":"arm::pivot/cmd_pos","value":1}' > "$H/pid.jsonl"
	for e in ode dart; do
		run --separate-stderr step_bounded -p $e -n 10 -c pid.jsonl \
		    -s 'arm::pivot/position_pid.p_gain=1e300' \
		    -s 'arm::pivot/position_pid.cmd_max=0' \
		    -s 'arm::pivot/position_pid.cmd_min=1' arm.sdf
		assert_failure 1
		[[ "$stderr" == "phys-step: simulation diverged at t=0.002: joint 'arm::pivot': an effort of 1e+300 N m would turn"* ]] ||
		    fail "$e: $stderr"
		ends_whole "$TMP/out"
	done
}

@test "a stack of twenty plates 1 cm thick resting on one another is not deep inside itself: it stands under ODE and DART" {
	# each plate's centre is within half its bounding sphere's radius of
	# the next seven: 145 such pairs were refused as deep
	{
		sed -n '1,/<model name="ground">/p' "$H/good.sdf"
		awk 'BEGIN { for (i = 0; i < 20; i++) printf "<model name=\"p%d\"><pose>0 0 %.3f 0 0 0</pose><link name=\"l\"><inertial><mass>0.5</mass><inertia><ixx>0.00375</ixx><iyy>0.00375</iyy><izz>0.0075</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.3 0.3 0.01</size></box></geometry></collision></link></model>\n", i, 0.005 + 0.01 * i }'
		echo '</world></sdf>'
	} > "$H/plates.sdf"
	for e in ode dart; do
		run step_bounded -p $e -t 0.2 -r 5 -i p19::l/pose plates.sdf
		assert_success
		near "$(tail -1 "$TMP/out" | jq '.items["p19::l/pose"].z')" 0.195 1e-3
	done
}

@test "MuJoCo refuses a world of more free bodies than its Newton solver has room for before compiling it; under PGS the bound is not its" {
	# 1,200 free spheres are 7,200 dofs: 3 nv^2 numbers are 1.2 GB, past
	# the 1024 MB a MuJoCo run takes (5,000 were compiled for 8 s and
	# 657 MB before the refusal, 20,000 for minutes)
	{
		sed -n '1,/<model name="ground">/p' "$H/good.sdf"
		awk 'BEGIN { for (i = 0; i < 1200; i++) printf "<model name=\"s%d\"><pose>%g %g 1 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>\n", i, 0.5 * (i % 40), 0.5 * int(i / 40) }'
		echo '</world></sdf>'
	} > "$H/spheres.sdf"
	# (no limit of the process's here: the budget is what refuses it)
	run --separate-stderr bash -c 'cd "$1" && exec timeout -s KILL 10 phys-step -q -p mujoco -n 1 spheres.sdf' _ "$H"
	assert_failure 1
	assert_equal "$stderr" "phys-step: spheres.sdf:2: at t=0, the MuJoCo engine would need 1187 MB for this world's 7200 degrees of freedom or more (its Newton solver's matrices are dense, 3 nv^2 numbers), more than the 1024 MB it is given: run it under ODE or Bullet"
	# within 300 MB of address space, what that leaves refuses it
	run --separate-stderr step_bounded -q -p mujoco -n 1 spheres.sdf
	assert_failure 1
	sanitized || [[ "$stderr" =~ ^"phys-step: spheres.sdf:2: at t=0, the MuJoCo engine would need 1187 MB for this world's 7200 degrees of freedom or more (its Newton solver's matrices are dense, 3 nv^2 numbers), more than the "[0-9]+" MB the process's memory limit of 293 MB leaves: run it under ODE or Bullet, or raise the limit"$ ]] ||
	    fail "$stderr"
	sanitized || [ "$(tail -1 "$TMP/rss")" -lt 100000 ]
	# PGS takes no such matrices
	run --separate-stderr step_bounded -q -p mujoco -s mujoco.solver=PGS -n 1 spheres.sdf
	[[ "$stderr" != *"degrees of freedom"* ]]
}

@test "MuJoCo advises a lower max_contacts only where one contact a pair would fit: 125 boxes each 0.2 m inside its neighbours run so" {
	# 2,272 contacts at t=0 would take 1.4 GB of MuJoCo's dense arrays,
	# past the 1024 MB a run is given; one a pair fits
	awk 'BEGIN { print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\">"
		print "<physics name=\"m\" type=\"mujoco\"><max_step_size>0.001</max_step_size></physics>"
		print "<model name=\"ground\"><static>true</static><link name=\"l\"><collision name=\"c\"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>"
		for (i = 0; i < 125; i++) printf "<model name=\"b%d\"><pose>%g %g %g 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>\n", i, 0.8 * (i % 5), 0.8 * (int(i / 5) % 5), 0.5 + 0.8 * int(i / 25)
		print "</world></sdf>" }' > "$TMP/g.sdf"
	run --separate-stderr phys-step -q -n 3 "$TMP/g.sdf"
	assert_failure 1
	[[ "$stderr" =~ ^phys-step:\ $TMP/g.sdf:[0-9]+:\ collision\ \'b[0-9]+::l::c\':\ at\ t=0,\ the\ MuJoCo\ engine\ would\ need\ [0-9]+\ MB\ for\ this\ world.s\ [0-9]+\ contacts\ .*more\ than\ the\ 1024\ MB\ it\ is\ given:\ lower\ max_contacts,\ run\ it\ under\ ODE\ or\ Bullet$ ]] ||
	    fail "$stderr"
	# and so it runs, the boxes pushed apart
	run -0 phys-step -q -n 3 -s max_contacts=1 -e 3 -i b62::l/pose -i b0::l/pose "$TMP/g.sdf"
	[ "$(echo "${lines[1]}" | jq '.items["b0::l/pose"].x < 0 and .items["b0::l/pose"].y < 0')" = true ]
}

@test "MuJoCo's data is held to what the process's memory limit leaves: a floor of 100 boxes is refused at a box's line within 250 MB, and runs without it" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# MuJoCo's arrays for the floor's contacts grow to 118 MB in its
	# first steps, 161 MB in all: within 300 MB of address space MuJoCo
	# said "Could not allocate memory", naming nothing (within 300 MB, as
	# a build that mapped DART's and Simbody's libraries at every start
	# had 55 MB less of it)
	run --separate-stderr bash -c 'cd "$1" && ulimit -v 256000 &&
	    exec timeout -s KILL 10 phys-step -q -p mujoco -n 5 floor100.sdf >out' _ "$H"
	assert_failure 1
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	[[ "$stderr" != *"Could not allocate"* ]] || fail "$stderr"
	local re="^phys-step: floor100.sdf:([0-9]+): collision 'b([0-9]+)::l::c': at t=([0-9.]+), the MuJoCo engine would need ([0-9]+) MB for this world's [0-9]+ contacts \([0-9]+ of them this collision's; MuJoCo 2.2.2's constraint arrays are dense\), more than the ([0-9]+) MB the process's memory limit of 250 MB leaves: run it under ODE or Bullet, or raise the limit$"
	# not "lower max_contacts": at one contact a pair its 425 contacts
	# still take 118 MB
	[[ "$stderr" =~ $re ]] || fail "$stderr"
	# the line is the named box's, what it needed past what was left,
	# and the steps before the refusal written whole
	sed -n "${BASH_REMATCH[1]}p" "$H/floor100.sdf" | grep -q "<model name=\"b${BASH_REMATCH[2]}\">"
	[ "${BASH_REMATCH[4]}" -gt "${BASH_REMATCH[5]}" ]
	[ "${BASH_REMATCH[5]}" -lt 250 ]
	[ "$(wc -l < "$H/out")" = "$(awk -v t="${BASH_REMATCH[3]}" 'BEGIN { print t / 0.001 + 1 }')" ]
	ends_whole "$H/out"
	# under every bound from 150 MB to 250 MB it is phys's refusal at a line,
	# whichever of MuJoCo's allocations (the compiler's, the data at
	# load or in a step) the bound falls on
	local l
	for l in $(seq 150000 25000 250000); do
		run --separate-stderr bash -c 'cd "$1" && ulimit -v "$2" &&
		    exec timeout -s KILL 10 phys-step -q -p mujoco -n 5 floor100.sdf >/dev/null' _ "$H" "$l"
		[ "$status" -eq 1 ] && [[ "$stderr" =~ ^phys-step:\ floor100.sdf:[0-9]+:\ .*the\ MuJoCo\ engine\ .*raise\ the\ limit$ ]] ||
		    fail "under $l KB: status $status: $stderr"
	done
	# without the limit it runs, the boxes resting on the ground
	run /usr/bin/time -f %M -o "$TMP/rss" bash -c 'cd "$1" &&
	    exec timeout -s KILL 10 phys-step -q -p mujoco -t 0.1 -r 100 -i b55::l/pose floor100.sdf' _ "$H"
	assert_success
	[ "${#lines[@]}" -eq 11 ]
	near "$(echo "${lines[10]}" | jq '.items["b55::l/pose"].z')" 0.5 1e-3
	[ "$(tail -1 "$TMP/rss")" -lt 300000 ]
}

@test "DART and Simbody are given no more links than the process's memory limit leaves them; a world loads no more links than it leaves room for" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# 10,000 free spheres 2 m apart: DART takes 400 MB, Simbody 450 MB;
	# within 300 MB of address space each stopped in its own library
	# with "out of memory", naming nothing
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\">"
		for (i = 0; i < 10000; i++)
			printf "<model name=\"m%d\"><pose>%d %d 1 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>\n", i, 2 * (i % 100), 2 * int(i / 100)
		print "</world></sdf>" }' > "$H/many.sdf"
	local e re
	for e in dart simbody; do
		run --separate-stderr bash -c 'cd "$1" && ulimit -v 307200 &&
		    exec timeout -s KILL 20 phys-step -q -p "$2" -n 2 many.sdf' _ "$H" "$e"
		assert_failure 1
		re="^phys-step: many.sdf:([0-9]+): link 'm([0-9]+)::l': the (DART|Simbody) engine would take about ([0-9]+) MB for the world's 10000 moving links \(([0-9]+) kB each\), more than the ([0-9]+) MB the process's memory limit of 300 MB leaves: raise the limit, or run it under ODE or Bullet$"
		[[ "$stderr" =~ $re ]] || fail "$e: $stderr"
		# the line is the named link's model's, the first past the room
		sed -n "${BASH_REMATCH[1]}p" "$H/many.sdf" | grep -q "<model name=\"m${BASH_REMATCH[2]}\">"
		# (the MB said are whole: what is left, rounded down)
		[ "${BASH_REMATCH[2]}" -ge $((BASH_REMATCH[6] * 1024 / BASH_REMATCH[5])) ] &&
		    [ "${BASH_REMATCH[2]}" -le $(((BASH_REMATCH[6] + 1) * 1024 / BASH_REMATCH[5] + 1)) ] ||
		    fail "$e: m${BASH_REMATCH[2]} for ${BASH_REMATCH[6]} MB"
		[ "${BASH_REMATCH[4]}" -gt "${BASH_REMATCH[6]}" ]
	done
	# 1,000 of them run under both within the limit, falling freely:
	# g t^2 / 2 in 0.1 s, within a step's g t h
	sed '/<model name="m[0-9]\{4\}"/d' "$H/many.sdf" > "$H/some.sdf"
	for e in dart simbody; do
		run bash -c 'cd "$1" && ulimit -v 307200 &&
		    exec timeout -s KILL 20 phys-step -q -p "$2" -t 0.1 -e 100 -i m999::l/pose some.sdf' _ "$H" "$e"
		assert_success
		near "$(echo "${lines[1]}" | jq '.items["m999::l/pose"].z')" \
		    "$(awk 'BEGIN { printf "%.9f", 1 - 9.8 * 0.01 / 2 }')" 0.001
	done
	# a model of 1,000 links included 45 times: it ran out of memory
	# while loading within 300 MB, saying only that
	mkdir -p "$H/inc/thousand"
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><model name=\"t\">"
		for (i = 0; i < 1000; i++)
			printf "<link name=\"l%d\"><pose>%d %d 1 0 0 0</pose><collision name=\"c\"><geometry><box><size>0.5 0.5 0.5</size></box></geometry></collision></link>\n", i, i % 40, int(i / 40)
		print "</model></sdf>" }' > "$H/inc/thousand/model.sdf"
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\">"
		for (k = 0; k < 45; k++)
			printf "<include><uri>thousand</uri><name>t%d</name><pose>0 0 %d 0 0 0</pose></include>\n", k, 2 * k
		print "</world></sdf>" }' > "$H/inc/w.sdf"
	run --separate-stderr bash -c 'cd "$1" && ulimit -v 307200 &&
	    exec timeout -s KILL 20 phys-step -q -n 1 w.sdf' _ "$H/inc"
	assert_failure 1
	re="^phys-step: thousand/model.sdf:([0-9]+): the ([0-9]+) MB the process's memory limit of 300 MB leaves is too little to load more links \(the world has ([0-9]+) so far, about 11 kB each, and an engine takes more\): raise the limit, or load fewer \(included at w.sdf:([0-9]+)\)$"
	[[ "$stderr" =~ $re ]] || fail "$stderr"
	[ $((BASH_REMATCH[3] % 1024)) -eq 0 ]
	[ "${BASH_REMATCH[2]}" -lt 16 ]
}

@test "links a joint joins are not counted as starting deep inside each other: 100 fixed to one in its spot fall freely" {
	# self_collide, but the children's bitmasks keep them from each other
	awk 'BEGIN {
		c = "<collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry>"
		print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\"><gravity>0 0 -10</gravity>"
		print "<model name=\"m\"><self_collide>true</self_collide><link name=\"r\">" c "</collision></link>"
		for (i = 0; i < 100; i++) {
			print "<link name=\"b" i "\">" c "<surface><contact><collide_bitmask>0x01</collide_bitmask><category_bitmask>0x02</category_bitmask></contact></surface></collision></link>"
			print "<joint name=\"j" i "\" type=\"fixed\"><parent>r</parent><child>b" i "</child></joint>"
		}
		print "</model></world></sdf>"
	}' > "$TMP/joined.sdf"
	run -0 --separate-stderr phys-step -q -t 0.1 -e 100 -i 'm::r/pose' "$TMP/joined.sdf"
	near "$(echo "$output" | tail -1 | jq '.items["m::r/pose"].z')" -0.05 0.0011
}

@test "ODE's world solver is not given more rows to factor together than it solves in a second" {
	# 2,000 links welded to one: 12,000 rows (minutes and gigabytes a
	# step); refused before the first step is taken
	run --separate-stderr step_bounded -n 10 welded2000.sdf
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: at t=0 ODE's world solver would solve 12000 constraint rows of bodies joined by joints and contacts together, at most 2000: its time grows with their cube and its memory with their square (-s ode.solver.type=quick solves them by iteration)" ]
	[ "$(jq -s length "$TMP/out")" -eq 1 ]
	ends_whole "$TMP/out"
	# 300 of them, 1,800 rows, run; the quick solver takes 2,000
	run step_bounded -n 1 welded300.sdf
	assert_success
	run step_bounded -n 10 -s ode.solver.type=quick welded2000.sdf
	assert_success
}

@test "an error of ODE in a step ends the run with its message after the lines computed" {
	run --separate-stderr step_bounded -c far.jsonl -t 100 far.sdf
	[ "$status" -eq 1 ]
	[[ "$stderr" == "phys-step: simulation diverged at t=10: body 'ball::link' is lost (ODE stopped: "* ]]
	# the state at 0 and after the first step, each whole
	[ "$(jq -s length "$TMP/out")" -eq 2 ]
	ends_whole "$TMP/out"
}

@test "a run switching through every engine, each to each, mid-run keeps going" {
	local e f t=0 n=0
	: > "$H/switch.jsonl"
	for e in ode bullet mujoco dart simbody; do
		for f in ode bullet mujoco dart simbody; do
			[ "$e" = "$f" ] && continue
			t=$((t + 2)); n=$((n + 1))
			printf '{"t":%s,"preset":"%s"}\n{"t":%s,"preset":"%s"}\n' \
			    "$(awk -v t=$t 'BEGIN { print t / 1000 }')" "$e" \
			    "$(awk -v t=$t 'BEGIN { print (t + 1) / 1000 }')" "$f" >> "$H/switch.jsonl"
		done
	done
	run --separate-stderr step_bounded -c switch.jsonl -t 0.05 -e 1 good.sdf
	assert_success
	[ "$(jq -s length "$TMP/out")" -eq 51 ]
	ends_whole "$TMP/out"
	# the ball falls freely all along: 1 - g t^2 / 2 within a step's error
	near "$(tail -1 "$TMP/out" | jq '.items["ball::link/pose"].z')" \
	    "$(awk 'BEGIN { print 1 - 9.8 * 0.05 * 0.05 / 2 }')" 0.001
}

@test "a world gz-sim's physics system runs, without <physics>, under each engine: the profile made for it lets the ball fall freely (each such profile lost two strings of its defaults)" {
	local e
	cat > "$H/gz.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w">
	<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>
	<model name="ball"><pose>0 0 1 0 0 0</pose><link name="link">
	<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
	<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
	</link></model></world></sdf>
	EOF
	for e in $(engines); do
		echo "under $e"
		run --separate-stderr step_bounded -q -p "$e" -t 0.05 -e 1 gz.sdf
		assert_success
		near "$(tail -1 "$TMP/out" | jq '.items["ball::link/pose"].z')" \
		    "$(awk 'BEGIN { print 1 - 9.8 * 0.05 * 0.05 / 2 }')" 0.001
	done
}

@test "a value Simbody asserts on, sent mid-run, is refused at its line after the lines computed" {
	printf '{}\n{}\n{}\n{"name":"simbody.accuracy","value":1}\n' > "$H/replies.jsonl"
	run --separate-stderr step_bounded -p simbody --lockstep -c replies.jsonl -n 10 good.sdf
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: replies.jsonl:4: simbody.accuracy: 1 is refused: simbody takes only values above 0 and below 1 (its integrator asserts on any other)" ]
	# the state at 0 and after each of the three steps replied to
	[ "$(jq -s length "$TMP/out")" -eq 4 ]
	ends_whole "$TMP/out"
	# 0.999 reaches Simbody (the line after it says so) and the run ends
	sed -i 's/"value":1}/"value":0.999}/' "$H/replies.jsonl"
	printf '{}\n%.0s' $(seq 7) >> "$H/replies.jsonl"
	run step_bounded -p simbody --lockstep -c replies.jsonl -n 10 good.sdf
	assert_success
	[ "$(jq -s -c 'map(.engine.accuracy)' "$TMP/out")" = '[0.001,null,null,null,0.999,null,null,null,null,null,null]' ]
}

@test "memory running out ends a run with \"out of memory\" and status 1, under -q too, Bullet's included" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# -q dropped the last words; Bullet passed malloc's NULL on and
	# crashed (a 4,000-link chain under 200 MB)
	# (or the world is refused as it loads, for the room the limit
	# leaves, at a link's line)
	# (the bounds are 55 MB under those of a build that linked DART's
	# and Simbody's libraries, which it mapped at every start)
	run bash -c 'cd "$1" && ulimit -v 96000 && phys-step -q -p ode -t 0 bent2000.sdf >/dev/null' _ "$H"
	assert_failure 1
	assert_output --regexp "^phys-step: (out of memory|bent2000.sdf:[0-9]+: the [0-9]+ MB the process's memory limit of 94 MB leaves is too little to load more links .*)$"
	run bash -c 'cd "$1" && ulimit -v 145000 && phys-step -q -p bullet -t 0 bent4000.sdf >/dev/null' _ "$H"
	assert_failure 1
	assert_output --partial "out of memory"
}

@test "memory running out inside ODE (its allocator, C++'s operator new) ends the run with \"out of memory\" and status 1, at every bound" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# ODE went on with its allocator's null (SIGSEGV) and let a
	# std::bad_alloc from its hash space through phys's C frames
	# (SIGABRT), each at bounds a few hundred KB apart: the least bound
	# under which the run finishes is found by halving, to 2 MB, and the
	# 8 MB below it tried every 500 KB
	local lo=50000 hi=400000 mid top l
	while [ $((hi - lo)) -gt 2000 ]; do
		mid=$(((lo + hi) / 2))
		if bash -c 'cd "$1" && ulimit -v "$2" && phys-step -q -p ode \
		    -n 2 grid500.sdf >/dev/null 2>&1' _ "$H" $mid; then
			hi=$mid
		else
			lo=$mid
		fi
	done
	top=$hi
	for l in $(seq $((top - 500)) -500 $((top - 8000))); do
		# (below about 48 MB the dynamic loader cannot map the
		# libraries, status 127, 100 here: phys-step does not start)
		run bash -c 'cd "$1" && ulimit -v "$2" &&
		    phys-step -q -p ode -n 2 grid500.sdf >/dev/null ||
		    { s=$?; [ $s -ne 127 ] || s=100; exit $s; }' _ "$H" "$l"
		[ "$status" -eq 0 ] || { [ "$status" -eq 1 ] &&
		    [[ "$output" == *"out of memory"* ]]; } || {
		    [ "$status" -eq 100 ] &&
		    [[ "$output" == *"error while loading shared libraries"* ]]; } ||
		    fail "under $l KB: status $status: $output"
	done
}

@test "a chain whose every joint starts outside its limits starts at them under each engine, where the closed form puts it, within the bounds" {
	# Each joint is set 0.1 rad over: the last link's origin is the sum
	# over i of 0.1 (-sin 0.1 i, -cos 0.1 i) below the first joint. Each
	# engine's chain as deep as it takes one within the bounds (MuJoCo 96,
	# DART 300: 600 links took DART 12 to 17 s on a busy machine, 6 to
	# 9 s of it the system's, in a million page faults inside libdart;
	# 300 take 0.5 s), half as deep when sanitized (a run then takes four
	# times as long).
	local en e n
	for en in ode:4000 bullet:2000 simbody:2000 dart:300 mujoco:96; do
		e=${en%:*} n=${en#*:}
		! sanitized || [ "$n" -lt 100 ] || n=$((n / 2))
		run step_bounded -p "$e" -q -t 0 "bent$n.sdf"
		[ "$status" -eq 0 ] || fail "$e $n: status $status: $output"
		run bash -c 'jq -r --arg l "c::l$(($2 - 1))/pose" \
		    ".items[\$l] | \"\(.x) \(.z)\"" "$1" | awk -v n="$2" "{
			x = 0; z = 9.9
			for (i = 1; i < n - 1; i++) {
				x -= 0.1 * sin(0.1 * i); z -= 0.1 * cos(0.1 * i)
			}
			d = (\$1 - x) ^ 2 + (\$2 - z) ^ 2
			print (d < 1e-12 ? \"ok\" : \"off\"), \$0, x, z }"' \
		    _ "$TMP/out" "$n"
		[ "${lines[0]%% *}" = ok ] || fail "$e $n: $output"
	done
}
