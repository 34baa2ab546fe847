#!/usr/bin/env bats
# Engines side by side: phys-step --engines runs one world under several
# engines and reports, per field, how far they part and when; it exits 0
# when they agree, 1 when they differ, 2 on trouble.

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/closed_forms.sdf"

@test "--engines all: a free fall is the same parabola under every engine, and they agree (exit 0)" {
	local e
	for e in $(engines); do
		echo "$e $(fall_form "$e" "$W")"
	done > "$TMP/forms"
	# the engines that step by semi-implicit Euler agree to 1e-9
	run phys-step --engines "$(awk '$2 == "euler" { print $1 }' "$TMP/forms" | paste -sd,)" \
	    --tolerance 1e-9 -t 1 -e 100 -i 'fall::link/pose' "$W"
	assert_success
	grep '^{' <<<"$output" > "$TMP/o"
	# one line per field of the pose and one for its orientation, each
	# engine's value at the largest spread
	[ "$(wc -l < "$TMP/o")" -eq 7 ]
	[ "$(jq -r '.values | keys_unsorted | join(",")' "$TMP/o" | sort -u)" = \
	    "$(awk '$2 == "euler" { print $1 }' "$TMP/forms" | paste -sd,)" ]
	jq -se 'map(select(.field == "fall::link/pose.z"))[0] | .max_abs <= 1e-9 and .first_t == null' "$TMP/o"
	# the orientations, as the largest angle between two engines'
	jq -se 'map(select(.field == "fall::link/pose.orientation"))[0] | .max_abs <= 1e-9 and .max_rel <= 1e-9 and .first_t == null' "$TMP/o"
	# "all" is every engine; those that follow the parabola itself
	# (Simbody) are g h t / 2 above semi-implicit Euler's: they agree to that
	run phys-step --engines all --tolerance 5e-3 -t 1 -e 100 -i 'fall::link/pose' "$W"
	assert_success
	grep '^{' <<<"$output" > "$TMP/o"
	[ "$(jq -r '.values | keys_unsorted | join(",")' "$TMP/o" | sort -u)" = "$(engines | paste -sd,)" ]
	grep -q parabola "$TMP/forms"
	near "$(jq -r 'select(.field == "fall::link/pose.z") | .max_abs' "$TMP/o")" 0.004905 1e-9
	for e in $(awk '$2 == "parabola" { print $1 }' "$TMP/forms"); do
		near "$(jq -r --arg e "$e" 'select(.field == "fall::link/pose.z") | .values[$e]' "$TMP/o")" 25.095 1e-9
	done
}

@test "--engines: where the engines part, the largest spread, its time and every engine's value there, as the runs say (exit 1)" {
	run phys-step --engines ode,bullet,dart --tolerance 1e-3 --runs "$TMP/runs" -t 1.2 -i 'bounce::link/pose' "$W"
	assert_failure 1
	grep '^{' <<<"$output" > "$TMP/o"
	for e in ode bullet dart; do
		[ -s "$TMP/runs/$e.jsonl" ]
	done
	# the bounce's height: recomputed from the runs' own lines
	for e in ode bullet dart; do
		jq -r '[.t, .items["bounce::link/pose"].z] | @tsv' "$TMP/runs/$e.jsonl" > "$TMP/$e.z"
	done
	paste "$TMP/ode.z" "$TMP/bullet.z" "$TMP/dart.z" | awk '{
		hi = $2; lo = $2
		if ($4 > hi) hi = $4; if ($4 < lo) lo = $4
		if ($6 > hi) hi = $6; if ($6 < lo) lo = $6
		if (hi - lo > m) { m = hi - lo; t = $1 }
		if (first == "" && hi - lo > 1e-3) first = $1 }
		END { printf "%.17g %s %s\n", m, t, first }' > "$TMP/want"
	read -r spread t first < "$TMP/want"
	jq -r 'select(.field == "bounce::link/pose.z") | "\(.max_abs) \(.t) \(.first_t)"' "$TMP/o" > "$TMP/got"
	read -r gspread gt gfirst < "$TMP/got"
	rel "$gspread" "$spread" 1e-12
	[ "$gt" = "$t" ] && [ "$gfirst" = "$first" ]
	# the values are those of the runs at that time
	for e in ode bullet dart; do
		near "$(jq -r "select(.field == \"bounce::link/pose.z\") | .values.$e" "$TMP/o")" \
		    "$(awk -v t="$t" '$1 == t { print $2 }' "$TMP/$e.z")" 0
	done
	# the ball rose again to within a centimetre of e^2 under each
	jq -se 'map(select(.field == "bounce::link/pose.z"))[0] | .max_abs < 0.01' "$TMP/o"
}

@test "--engines: an engine without a profile of its own runs the starting one carried over to it" {
	# box_stack.sdf has ODE profiles only; it starts in "sloppy": a 2 ms
	# step and the quick (projected Gauss-Seidel) solver
	phys-step --engines ode,dart --runs "$TMP/runs" -n 10 -i 'box0::link/pose' \
	    "$WORLDS/box_stack.sdf" > /dev/null 2> "$TMP/err" || true
	head -1 "$TMP/runs/dart.jsonl" | jq -e '.preset == "dart_from_sloppy" and
	    .engine.solver == "pgs" and .engine.max_step_size == 0.002' ||
	    fail "$(head -1 "$TMP/runs/dart.jsonl")"
	head -1 "$TMP/runs/ode.jsonl" | jq -e '.preset == "sloppy"'
	# what DART has no counterpart for is named
	grep -q "profile 'sloppy': no dart counterpart, not carried over: ode.solver.iters" "$TMP/err"
	# a world with a profile of that engine runs it: the "dart" one
	phys-step --engines ode,dart --runs "$TMP/runs2" -n 1 -i 'fall::link/pose' "$W" > /dev/null || true
	head -1 "$TMP/runs2/dart.jsonl" | jq -e '.preset == "dart"'
}

@test "--engines: a plot of the fields, a colour an engine" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	phys-step --engines all -t 1 -i 'bounce::link/pose' --plot "$TMP/b.png" "$W" > /dev/null || true
	[ "$(file -b --mime-type "$TMP/b.png")" = image/png ]
}

@test "--engines: trouble is exit 2 (a run an engine refuses, a bad list, options without --engines, control lines from stdin)" {
	sed -e 's|<joint name="slider" type="prismatic">|<joint name="slider" type="screw"><thread_pitch>10</thread_pitch>|' "$W" > "$TMP/screw.sdf"
	run phys-step --engines ode,bullet -n 1 "$TMP/screw.sdf"
	[ "$status" -eq 2 ]
	assert_output --partial "the Bullet engine runs no screw joint"
	run phys-step --engines ode,nosuch -n 1 "$W"
	[ "$status" -eq 2 ]
	assert_output --partial "--engines: no engine 'nosuch' ($(engines | paste -sd, | sed 's/,/, /g'), or all)"
	run phys-step --engines ode -n 1 "$W"
	[ "$status" -eq 2 ]
	run phys-step --tolerance 1 -n 1 "$W"
	[ "$status" -eq 2 ]
	assert_output --partial "go with --engines"
	run phys-step --engines ode,dart -c - -n 1 "$W" < /dev/null
	[ "$status" -eq 2 ]
	assert_output --partial "its control lines come from a file"
}

@test "--engines: an engine that fails is named with why, the same why said once; those that finished are still compared (exit 2)" {
	sed -e 's|<joint name="slider" type="prismatic">|<joint name="slider" type="screw"><thread_pitch>10</thread_pitch>|' "$W" > "$TMP/screw.sdf"
	run --separate-stderr phys-step --engines ode,bullet,mujoco -t 0.5 -r 10 -i 'fall::link/pose' "$TMP/screw.sdf"
	[ "$status" -eq 2 ]
	# the two that finished, compared field by field
	[ "$(grep -c '"field":"fall::link/pose.z"' <<<"$output")" -eq 1 ]
	jq -se 'map(select(.field)) | length == 7 and all(.values | keys == ["mujoco", "ode"])' <<<"$output"
	# the one that failed, last, with why
	[ "$(tail -1 <<<"$output")" = '{"engine":"bullet","failed":"'"$TMP"'/screw.sdf:121: joint '"'spring::slider'"': the Bullet engine runs no screw joint (the other engines do: -p ode, -p dart)"}' ]
	# no file left in TMPDIR, and --runs keeps only the runs that finished
	mkdir "$TMP/tmp"
	run -2 env TMPDIR="$TMP/tmp" phys-step --engines ode,bullet,mujoco -t 0.5 -r 10 -i 'fall::link/pose' --runs "$TMP/runs" "$TMP/screw.sdf"
	[ -z "$(ls -A "$TMP/tmp")" ]
	[ "$(ls -A "$TMP/runs" | paste -sd' ')" = "mujoco.jsonl ode.jsonl" ]
	# as many failures as there are: two, then nothing to compare
	run --separate-stderr phys-step --engines bullet,ode,dart -t 0.1 -s 'gravity=0 0 -1e30' -i 'fall::link/pose' "$TMP/screw.sdf"
	[ "$status" -eq 2 ]
	[ "$(jq -r 'select(.failed) | "\(.engine): \(.failed)"' <<<"$output")" = "$(printf '%s\n' \
	    "bullet: $TMP/screw.sdf:121: joint 'spring::slider': the Bullet engine runs no screw joint (the other engines do: -p ode, -p dart)" \
	    "ode: simulation diverged: body 'fall::link' has a non-finite state at t=0.001" \
	    "dart: simulation diverged: body 'fall::link' has a non-finite state at t=0.001")" ]
	[[ "$stderr" == *"0 of 3 engines finished: nothing to compare"* ]]
	# ODE's and DART's failure, the same words, said once on stderr
	[ "$(grep -c "^phys-step: simulation diverged: body 'fall::link' has a non-finite state at t=0.001$" <<<"$stderr")" -eq 1 ]
	[ "$(grep -c "the Bullet engine runs no screw joint" <<<"$stderr")" -eq 1 ]
	# an item no engine has is the command line's fault: said once
	run --separate-stderr phys-step --engines ode,mujoco -n 1 -i 'fall::nosuch/pose' "$W"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "phys-step: no item matches 'fall::nosuch/pose' (phys-introspect items lists them)" ]
}

# wait_for GLOB: until a file matches GLOB (60 s at most).
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		compgen -G "$1" > /dev/null && return 0
		sleep 0.1
	done
	return 1
}

@test "--engines stopped by SIGTERM: what finished compared, the engine stopped and those not run named, no file left" {
	mkdir "$TMP/tmp"
	TMPDIR="$TMP/tmp" phys-step --engines ode,mujoco,bullet,dart -t 60 -r 1 -i 'fall::link/pose' "$W" > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	wait_for "$TMP/tmp/phys-step.*/mujoco.jsonl" || { kill $pid; fail "mujoco never finished"; }
	# two, as GNU timeout sends: the second changes nothing
	kill -TERM $pid
	kill -TERM $pid 2> /dev/null || true
	wait $pid && status=0 || status=$?
	[ "$status" -eq 143 ]
	jq -se 'map(select(.field)) | length == 7 and all(.values | keys == ["mujoco", "ode"])' "$TMP/out"
	[ "$(jq -c 'select(.failed)' "$TMP/out")" = "$(printf '%s\n' '{"engine":"bullet","failed":"stopped by SIGTERM"}' \
	    '{"engine":"dart","failed":"not run: stopped by SIGTERM before it"}')" ]
	# the runs' directory and the stopped run's file are gone
	[ -z "$(ls -A "$TMP/tmp")" ]
	# --runs keeps the finished runs, and only them
	phys-step --engines ode,mujoco,bullet -t 60 -r 1 -i 'fall::link/pose' --runs "$TMP/runs" "$W" > "$TMP/out" 2> /dev/null &
	pid=$!
	wait_for "$TMP/runs/mujoco.jsonl" || { kill $pid; fail "mujoco never finished"; }
	kill -TERM $pid
	wait $pid || true
	[ "$(ls -A "$TMP/runs" | paste -sd' ')" = "mujoco.jsonl ode.jsonl" ]
	[ "$(jq -r 'select(.failed) | .engine' "$TMP/out")" = bullet ]
}

@test "--engines: progress on a terminal's stderr names the engine and its place in the list; none elsewhere" {
	command -v script > /dev/null || skip "script(1) is not installed"
	run timeout 60 script -qfec "$PHYS_BIN/phys-step --engines ode,mujoco --realtime -t 0.8 -r 2 -i sim_time $W > $TMP/out" /dev/null < /dev/null
	[ "$status" -eq 0 ]
	grep -aEq 'phys-step: ode 1/2: t=[0-9.]+/0\.800 s +[0-9]+% +ETA' <<<"$output"
	grep -aEq 'phys-step: mujoco 2/2: t=[0-9.]+/0\.800 s +[0-9]+% +ETA' <<<"$output"
	! grep -aq 'ETA' "$TMP/out" || false
	run -0 --separate-stderr phys-step --engines ode,mujoco --realtime -t 0.6 -i sim_time "$W"
	[[ "$stderr" != *ETA* ]]
}

@test "--engines: a yaw across pi, read between one engine's lines, is no spread" {
	# A ball spinning at 1 rad/s about z from yaw 3, without gravity:
	# its yaw passes pi at 0.1416 s and goes on from -pi. ODE steps 1 ms
	# and Bullet 3 ms, so that Bullet's yaw is read between its lines
	# at ODE's times, across pi too; the engines turn alike, to 1e-6.
	printf '%s\n' '{"t":0,"name":"ball::link/pose","value":{"x":0,"y":0,"z":5,"roll":0,"pitch":0,"yaw":3}}' \
	    '{"t":0,"name":"ball::link/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$TMP/spin.ctl"
	cp "$WORLDS/falling_sphere.sdf" "$TMP/spin.sdf"
	phys-preset add -q bullet --engine bullet --copy fine max_step_size=0.003 --in-place "$TMP/spin.sdf"
	run -0 phys-step -q --engines ode,bullet --tolerance 1e-6 -t 0.3 -r 1000 -c "$TMP/spin.ctl" \
	    -s 'gravity=0 0 0' -i 'ball::link/pose' "$TMP/spin.sdf"
	grep '"field":"ball::link/pose.yaw"' <<<"$output" > "$TMP/yaw"
	jq -e '.max_abs < 1e-6' "$TMP/yaw"
}

@test "--engines: a box resting on its side, at a pitch of pi/2, is one orientation under every engine however far apart their roll and yaw are written (exit 0)" {
	# At a pitch of pi/2 roll and yaw are one turn: a difference of 1e-11
	# in an engine's orientation can write them 1.5 rad from another's
	# (ODE's here). Closed form: the box stays as placed, 0.1 m up
	# (MuJoCo's soft contact tilts it 2.5e-5 rad as it settles).
	cat > "$TMP/side.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="b"><pose>0 0 0.1 0 1.5707963267948966 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial><collision name="c"><geometry><box><size>0.2 0.3 0.4</size></box></geometry></collision></link></model>
</world></sdf>
SDF
	run -0 phys-step -q --engines ode,bullet,mujoco,dart --tolerance 0.01 -t 1 -e 100 -i 'b::l/pose' "$TMP/side.sdf"
	printf '%s\n' "$output" > "$TMP/report"
	jq -se 'map(select(.field == "b::l/pose.orientation"))[0] | .max_abs < 1e-4' "$TMP/report"
	jq -se 'map(select(.field == "b::l/pose.z"))[0] | .values | map(. - 0.1 | fabs < 0.005) | all' "$TMP/report"
	jq -se 'map(select(.field == "b::l/pose.pitch"))[0] | .values | map(. - 1.5707963267948966 | fabs < 1e-4) | all' "$TMP/report"
	[ "$(jq -c 'select(.first_t != null)' "$TMP/report")" = "" ]
}
