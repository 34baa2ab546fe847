#!/usr/bin/env bats
# phys-sweep: plans that cover what they say, a fit of friction to a
# reference run, the same results on one worker, two, GNU parallel over ssh
# and a Slurm job array, and resuming a killed sweep without rerunning.

load helper
bats_require_minimum_version 1.5.0

MU='*::collision/surface.friction.ode.mu*'

# The sliding box given 2 m/s along x at t = 0.2 s; a reference run made
# with mu = 0.37, and a plan sweeping mu over 0.1 .. 0.9 in steps of 0.05
# (or over LO:HI:N as given).
fit_setup() {
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > push.jsonl
	phys-step -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' -s "$MU=0.37" sliding_box.sdf > ref.jsonl
	phys-sweep plan -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' sliding_box.sdf "$MU=${1:-0.1:0.9:17}" > plan.jsonl
}

# The state files 0 .. LAST (default 16) of DIR, named and summed, to
# compare sweeps: digest DIR [LAST].
digest() {
	(cd "$1" && for i in $(seq 0 "${2:-16}"); do printf '%s ' "$i"; cksum < "$i.jsonl"; done)
}

@test "plan: a grid is every combination, the first name slowest, values as given" {
	run -0 phys-sweep plan "$WORLDS/pendulum.sdf" iters=10,20 erp=0.1:0.9:5
	[ "${#lines[@]}" -eq 10 ]
	assert_equal "$(jq -r '[.id, .set.iters, .set.erp] | join(" ")' <<<"$output" | tr '\n' ,)" \
	    "0 10 0.1,1 10 0.3,2 10 0.5,3 10 0.7,4 10 0.9,5 20 0.1,6 20 0.3,7 20 0.5,8 20 0.7,9 20 0.9,"
	jq -e '.world and .duration == 1' <<<"${lines[0]}" > /dev/null
}

@test "plan: runs from a list of JSON objects, crossed with a grid; a uniform sample stays in its range" {
	printf '%s\n' '{"gravity":{"x":0,"y":0,"z":-9.81}}' '# the Moon' \
	    '{"gravity":{"x":0,"y":0,"z":-1.62}}' > "$TMP/list"
	run -0 phys-sweep plan -l "$TMP/list" "$WORLDS/pendulum.sdf" iters=10,20
	assert_equal "$(jq -r '[.id, .set.gravity, .set.iters] | join(",")' <<<"$output" | tr '\n' ' ')" \
	    "0,0 0 -9.81,10 1,0 0 -9.81,20 2,0 0 -1.62,10 3,0 0 -1.62,20 "
	run -0 phys-sweep plan --random 50 --seed 3 "$WORLDS/pendulum.sdf" erp=0.1:0.2
	[ "${#lines[@]}" -eq 50 ]
	jq -r '.set.erp' <<<"$output" | awk '$1 < 0.1 || $1 >= 0.2 { exit 1 }'
	[ "$(jq -r '.set.erp' <<<"$output" | sort -u | wc -l)" -eq 50 ]
}

@test "plan: a Latin-hypercube sample puts one value in each stratum of each axis, the same for a seed" {
	run -0 phys-sweep plan --lhs 8 --seed 7 "$WORLDS/pendulum.sdf" erp=0:1 cfm=0:0.8
	[ "${#lines[@]}" -eq 8 ]
	# floor(8 * erp) and floor(8 * cfm / 0.8) are each 0..7 once
	assert_equal "$(jq -r '.set.erp | tonumber * 8 | floor' <<<"$output" | sort -n | tr -d '\n')" 01234567
	assert_equal "$(jq -r '.set.cfm | tonumber * 10 | floor' <<<"$output" | sort -n | tr -d '\n')" 01234567
	first=$output
	run -0 phys-sweep plan --lhs 8 --seed 7 "$WORLDS/pendulum.sdf" erp=0:1 cfm=0:0.8
	assert_equal "$output" "$first"
	run -0 phys-sweep plan --lhs 8 --seed 8 "$WORLDS/pendulum.sdf" erp=0:1 cfm=0:0.8
	[ "$output" != "$first" ]
}

@test "plan: a name the world does not have fails before any run is planned" {
	run -1 --separate-stderr phys-sweep plan "$WORLDS/pendulum.sdf" itres=10,20
	[ -z "$output" ]
	[[ $stderr == *itres* ]]
	run -2 --separate-stderr phys-sweep plan "$WORLDS/pendulum.sdf" erp=0.1:0.9
	[[ $stderr == *LO:HI:N* ]]
	# a value the parameter cannot take: 200 values from 10 to 200 are not
	# whole numbers of iterations; a negative mass matched by a glob
	run -1 --separate-stderr phys-sweep plan "$WORLDS/pendulum.sdf" iters=10:200:200
	[ -z "$output" ]
	assert_equal "$stderr" 'phys-sweep: iters=10.9547738693: ode.solver.iters: "10.9547738693" is not an int'
	run -1 --separate-stderr phys-sweep plan "$WORLDS/pendulum.sdf" '*/inertial.mass=1,-2'
	[ -z "$output" ]
	[[ $stderr == *"mass=-2: "* ]]
}

@test "plan: a sample of an int parameter is whole numbers; fixed values and -s beside ranges; phys-step's -r and -s" {
	run -0 phys-sweep plan --lhs 8 --seed 2 -r 20 -s 'gravity=0 0 -1.62' "$WORLDS/pendulum.sdf" \
	    iters=10:90 erp=0.1:0.9 cfm=0.001
	[ "${#lines[@]}" -eq 8 ]
	# iters: whole numbers, one in each stratum of 10 .. 90
	jq -r '.set.iters' <<<"$output" | awk '$1 != int($1) { exit 1 }' || fail "not whole: $output"
	assert_equal "$(jq -r '.set.iters | tonumber | (. - 10) / 10 | floor' <<<"$output" | sort -n | tr -d '\n')" 01234567
	# the fixed value and -s in every run, with the rate
	[ "$(jq -r '[.set.cfm, .set.gravity, .rate] | join(",")' <<<"$output" | sort -u)" = "0.001,0 0 -1.62,20" ]
	# the runs run with them: 20 lines a second, the Moon's gravity
	cd "$TMP"
	printf '%s\n' "${lines[0]}" > plan.jsonl
	phys-sweep run -j 1 plan.jsonl 2> /dev/null
	[ "$(wc -l < runs/0.jsonl)" -eq 21 ]
	[ "$(head -1 runs/0.jsonl | jq .engine.gravity.z)" = -1.62 ]
	# a grid takes -s too
	run -0 phys-sweep plan -s iters=7 "$WORLDS/pendulum.sdf" erp=0.1,0.2
	[ "$(jq -r '.set.iters' <<<"$output" | sort -u)" = 7 ]
	# a name given twice, and a sample of what is no number
	run -2 --separate-stderr phys-sweep plan --random 3 -s iters=5 "$WORLDS/pendulum.sdf" iters=1:9
	assert_equal "${stderr%%$'\n'*}" "phys-sweep: 'iters' is given twice"
	run -1 --separate-stderr phys-sweep plan --random 3 "$WORLDS/pendulum.sdf" ode.solver.type=0:1
	[[ $stderr == *"ode.solver.type is a string: a sample draws numbers"* ]]
}

@test "score diff:REF interpolates the run at REF's own times, and says where REF is beyond the runs" {
	fit_setup 0.33:0.41:5
	phys-sweep run -j 2 plan.jsonl 2> /dev/null
	# the reference made with the same mu, 0.37, sampled at 7 Hz and 0.5 s longer
	phys-step -c push.jsonl -t 2 -r 7 -i 'box::link/pose' -s "$MU=0.37" sliding_box.sdf > ref7.jsonl
	run -0 --separate-stderr phys-sweep score diff:ref7.jsonl plan.jsonl 'box::link/pose.x'
	[ "${#lines[@]}" -eq 5 ]
	# said once for all the runs, which end at 1.5 s
	assert_equal "$stderr" "phys-sweep: ref7.jsonl: its lines at t=1.572 to 2 are beyond the run's times (0 to 1.5): not scored"
	# the run of 0.37 differs only by the interpolation between its lines
	# 0.05 s apart: at most a dt^2 / 8 = mu g 0.0025 / 8 = 1.2 mm
	s37=$(jq -r 'select(.set[] == "0.37") | .score' <<<"$output")
	awk -v s="$s37" 'BEGIN { exit !(s < 1.2e-3) }' || fail "0.37 scores $s37"
	# and it is the best, its neighbours off by their slide
	[ "$(phys-sweep best <<<"$output" | jq -r '.set[]')" = 0.37 ]
	# the same times: exactly 0
	run -0 phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x'
	[ "$(jq -r 'select(.set[] == "0.37") | .score' <<<"$output")" = 0 ]
}

@test "a sweep over mu finds the reference's 0.37 to within the grid step, and the saved profile reproduces the run" {
	fit_setup
	run -0 phys-sweep run -j 2 plan.jsonl
	[[ $output == *"17 runs: 17 done, 0 failed"* ]]
	phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' > scores.jsonl
	[ "$(wc -l < scores.jsonl)" -eq 17 ]
	mu=$(phys-sweep best scores.jsonl | jq -r '.set[]')
	near "$mu" 0.37 0.05
	# the slide of the best run is the closed form's for its mu: v^2 / (2 mu g)
	id=$(phys-sweep best scores.jsonl | jq -r .id)
	x=$(tail -1 "runs/$id.jsonl" | jq '.items["box::link/pose"].x')
	rel "$x" "$(awk -v m="$mu" 'BEGIN { print 4 / (2 * m * 9.81) }')" 0.02
	phys-sweep best --save-as fitted --in-place scores.jsonl sliding_box.sdf
	phys-preset list -1 sliding_box.sdf | grep -qx fitted
	phys-step -p fitted -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' sliding_box.sdf > again.jsonl
	# byte for byte but for the profile's name on the first line
	cmp <(tail -n +2 again.jsonl) <(tail -n +2 "runs/$id.jsonl")
	cmp <(head -1 again.jsonl | jq -c 'del(.preset)') <(head -1 "runs/$id.jsonl" | jq -c 'del(.preset, .sweep_run)')
	# nothing else in the world changed: the old values are the only differences
	[ "$(diff "$WORLDS/sliding_box.sdf" sliding_box.sdf | grep -c '^<')" -eq 4 ]
}

@test "-p ENGINE where the world has no profile of that engine: every run under it (the start profile carried over, said once), mu fitted there, and the profile saved of that engine" {
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > push.jsonl
	phys-step -q -p dart -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' -s "$MU=0.37" sliding_box.sdf > ref.jsonl
	run -0 --separate-stderr phys-sweep plan -p dart -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' sliding_box.sdf "$MU=0.1:0.9:17"
	echo "$output" > plan.jsonl
	[ "$(grep -c "no profile named 'dart': running profile 'dart_from_pyramid' of engine dart" <<< "$stderr")" -eq 1 ]
	run -0 --separate-stderr phys-sweep run -j 2 plan.jsonl
	[[ $stderr == *"17 runs: 17 done, 0 failed"* ]]
	[[ $stderr != *"counterpart"* ]]
	for i in 0 16; do
		[ "$(head -1 "runs/$i.jsonl" | jq -r '.engine.solver')" = pgs ]
	done
	phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' > scores.jsonl
	mu=$(phys-sweep best scores.jsonl | jq -r '.set[]')
	near "$mu" 0.37 0.05
	# DART's slide for the best run's mu: v^2 / (2 mu g)
	id=$(phys-sweep best scores.jsonl | jq -r .id)
	x=$(tail -1 "runs/$id.jsonl" | jq '.items["box::link/pose"].x')
	rel "$x" "$(awk -v m="$mu" 'BEGIN { print 4 / (2 * m * 9.81) }')" 0.02
	phys-sweep best --save-as fitted --in-place scores.jsonl sliding_box.sdf 2> /dev/null
	[ "$(phys-preset list sliding_box.sdf | jq -r 'select(.name == "fitted") | .type')" = dart ]
	phys-step -p fitted -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' sliding_box.sdf > again.jsonl
	cmp <(tail -n +2 again.jsonl) <(tail -n +2 "runs/$id.jsonl")
}

@test "best --save-as: physics values go into the new profile only, world values where they live" {
	cd "$TMP"
	cp "$WORLDS/pendulum.sdf" .
	phys-sweep plan -n 10 pendulum.sdf 'ode.solver.ite*=33' 'gravity=0 0 -9' |
	    jq -c '. + {score: 1}' > scores.jsonl
	phys-sweep best --save-as tuned --in-place scores.jsonl pendulum.sdf
	assert_equal "$(phys-param get -p tuned ode.solver.iters pendulum.sdf | jq .value)" 33
	# the profile it was copied from keeps its value
	assert_equal "$(phys-param get -p quick ode.solver.iters pendulum.sdf | jq .value)" \
	    "$(phys-param get -p quick ode.solver.iters "$WORLDS/pendulum.sdf" | jq .value)"
	assert_equal "$(phys-param get gravity pendulum.sdf | jq -c .value)" '{"x":0,"y":0,"z":-9}'
	run -1 --separate-stderr phys-sweep best --save-as tuned scores.jsonl pendulum.sdf
	[[ $stderr == *tuned* ]]
}

@test "best --save-as: a run's own parameter swept (a servo's implicit_servo) is said and left out of the profile, the physics saved" {
	cd "$TMP"
	cp "$WORLDS/motor.sdf" .
	phys-sweep plan -n 10 motor.sdf 'max_step_size=0.002' 'arm::shoulder/implicit_servo=true' |
	    jq -c '. + {score: 1}' > scores.jsonl
	run -0 --separate-stderr phys-sweep best --save-as tuned --in-place scores.jsonl motor.sdf
	assert_equal "$stderr" "phys-sweep: arm::shoulder/implicit_servo=true is a run's own parameter, not saved with the profile: give it to the runs that use it (phys-step -s, a control line)"
	assert_equal "$(phys-param get -p tuned max_step_size motor.sdf | jq .value)" 0.002
	! grep -q implicit_servo motor.sdf || false
}

@test "score final and max read fields through expressions; best --maximize ranks the other way" {
	fit_setup
	phys-sweep run -j 2 plan.jsonl 2> /dev/null
	phys-sweep score 'final:box::link/pose.x' plan.jsonl > far.jsonl
	run -0 phys-sweep best --maximize far.jsonl
	assert_equal "$(jq -r '.set[]' <<<"$output")" 0.1
	run -0 phys-sweep best -k 3 far.jsonl
	assert_equal "$(jq -r '.set[]' <<<"$output" | tr '\n' ' ')" "0.9 0.85 0.8 "
	phys-sweep score 'final:2 * box::link/pose.x' plan.jsonl > twice.jsonl
	paste <(jq .score far.jsonl) <(jq .score twice.jsonl) |
	    awk '{ d = $2 - 2 * $1; if (d > 1e-12 || d < -1e-12) exit 1 }'
	# the largest x is at least the last, and the lowest z at most the last
	phys-sweep score 'max:box::link/pose.x' plan.jsonl > max.jsonl
	paste <(jq .score far.jsonl) <(jq .score max.jsonl) | awk '{ if ($2 < $1) exit 1 }'
}

@test "one worker and two give the same state files; --stream tags each line with its run" {
	fit_setup
	phys-sweep run -j 1 --dir one plan.jsonl 2> /dev/null
	phys-sweep run -j 2 --dir two --stream plan.jsonl > stream.jsonl 2> /dev/null
	assert_equal "$(digest one)" "$(digest two)"
	# and a run is what phys-step gives for the same options, but for the
	# hash of its run line on the first line
	phys-step -c push.jsonl -t 1.5 -e 50 -i 'box::link/pose' -s "$MU=0.25" sliding_box.sdf > step.jsonl
	cmp <(tail -n +2 step.jsonl) <(tail -n +2 one/3.jsonl)
	cmp <(head -1 step.jsonl) <(head -1 one/3.jsonl | sed 's/,"sweep_run":"[0-9a-f]*"//')
	[ "$(jq -c 'select(.run == 3) | del(.run)' stream.jsonl)" = "$(cat one/3.jsonl)" ]
}

@test "progress: on a terminal only, erased before the summary" {
	command -v script > /dev/null || skip "script(1) is not installed"
	cd "$TMP"
	phys-sweep plan -n 20 "$WORLDS/pendulum.sdf" iters=10:50:5 > plan.jsonl
	run timeout 60 script -qfec "$PHYS_BIN/phys-sweep run -j 2 --dir tty plan.jsonl" /dev/null < /dev/null
	[ "$status" -eq 0 ]
	[[ $output == *$'\r'"phys-sweep: 5/5 runs, 0 failed, ETA "* ]] || fail "no progress: $output"
	# what the terminal shows at the end is the summary alone
	assert_equal "$(printf '%s' "$output" | sed 's/\r$//' | tail -1 | awk -F'\r' '{ print $NF }' |
	    sed 's/^\x1b\[K//; s/ ([0-9.]* s)$//')" "phys-sweep: 5 runs: 5 done, 0 failed, 0 already done"
	run -0 phys-sweep run -j 2 --dir file plan.jsonl
	assert_equal "$(sed 's/ ([0-9.]* s)$//' <<<"$output")" "phys-sweep: 5 runs: 5 done, 0 failed, 0 already done"
}

@test "a run that fails is reported and counted; the others finish" {
	fit_setup
	sed -i '4s/"0.25"/"-1"/' plan.jsonl
	run -1 phys-sweep run -j 2 plan.jsonl
	[[ $output == *"run 3 failed"* ]]
	[[ $output == *"16 done, 1 failed"* ]]
	[ ! -e runs/3.jsonl ]
	[ -z "$(ls -A runs | grep part)" ]
}

# kill_midway SIGNAL: start a sweep of 40 runs, kill it with SIGNAL once
# some have finished, and check that resuming runs only the others.
kill_midway() {
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	phys-sweep plan -t 1 -e 100 sliding_box.sdf "$MU=0.1:0.9:40" > plan.jsonl
	phys-sweep run -j 2 plan.jsonl 2> /dev/null &
	pid=$!
	for _ in $(seq 200); do
		[ "$(cat runs/log.jsonl 2> /dev/null | wc -l)" -ge 6 ] && break
		sleep 0.05
	done
	kill -"$1" "$pid"
	wait "$pid" || true
	sleep 0.2
	before=$(ls runs | grep -c '^[0-9]*\.jsonl$')
	[ "$before" -ge 6 ] && [ "$before" -lt 40 ] || fail "$before runs finished before the kill"
	stamps=$(cd runs && stat -c '%n %Y.%y' [0-9]*.jsonl)
	logged=$(wc -l < runs/log.jsonl)
	run -0 phys-sweep run -j 2 plan.jsonl
	[[ $output == *"$((40 - before)) done, 0 failed, $before already done"* ]] || fail "$output"
	# the resumed sweep ran exactly the runs without a state file, once
	# each, and left the files of the others untouched
	ran=$(tail -n +"$((logged + 1))" runs/log.jsonl | jq -r .id | sort -n)
	assert_equal "$(comm -23 <(seq 0 39 | sort) <(cut -d' ' -f1 <<<"$stamps" | sed 's/\.jsonl$//' | sort) | sort -n)" "$ran"
	assert_equal "$(cd runs && stat -c '%n %Y.%y' $(cut -d' ' -f1 <<<"$stamps"))" "$stamps"
	[ "$(ls runs | grep -c '^[0-9]*\.jsonl$')" -eq 40 ]
	[ -z "$(ls -A runs | grep part)" ]
}

@test "a sweep killed with SIGTERM resumes where it stopped" {
	kill_midway TERM
}

@test "a sweep killed with SIGKILL resumes where it stopped" {
	kill_midway KILL
}

@test "a worker killed in a run fails that run alone; a new worker takes the rest" {
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	# runs of 5 s (5,000 steps each): the worker is still at work when
	# the third is logged, also on a fast machine (runs of 1 s were all
	# done by then)
	phys-sweep plan -t 5 -e 100 sliding_box.sdf "$MU=0.1:0.9:30" > plan.jsonl
	phys-sweep run -j 1 --dir ref plan.jsonl 2> /dev/null
	phys-sweep run -j 1 plan.jsonl 2> err &
	pid=$!
	# the one worker, once it has finished some runs: kill it in its next
	lines_at_least runs/log.jsonl 3
	worker=$(pgrep -P "$pid")
	[ -n "$worker" ] || fail "no worker"
	kill -KILL "$worker"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 1 ] || fail "exit status $st: $(cat err)"
	killed=$(jq -r 'select(.status == 137) | .id' runs/log.jsonl)
	[ "$(wc -w <<<"$killed")" -eq 1 ] || fail "$(cat err)"
	grep -q "run $killed failed (signal 9)" err
	grep -q "30 runs: 29 done, 1 failed" err
	[ ! -e "runs/$killed.jsonl" ] && [ -z "$(ls -A runs | grep part)" ]
	# the runs after it were made by another worker, and are the same
	rm "ref/$killed.jsonl"
	assert_equal "$(cd runs && cksum [0-9]*.jsonl)" "$(cd ref && cksum [0-9]*.jsonl)"
	# an empty state file (left by a system crash) is not a finished run
	: > runs/0.jsonl
	run -0 phys-sweep run -j 1 plan.jsonl
	[[ $output == *"30 runs: 2 done, 0 failed, 28 already done"* ]] || fail "$output"
	assert_equal "$(tail -2 runs/log.jsonl | jq -r .id | sort -n)" "$(printf '%s\n' 0 "$killed")"
}

@test "plot: each point is a run's (mu, score), the lowest at the mu the sweep found" {
	fit_setup 0.1:0.9:9
	phys-sweep run plan.jsonl 2> /dev/null
	phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' > scores.jsonl
	phys-sweep plot --script landscape.gp -o landscape.png scores.jsonl
	[ ! -e landscape.png ]
	# one panel, labelled with the swept name; its points are the lines
	# between "plot '-'" and "e", and they are the runs' pairs
	assert_equal "$(grep -c "^plot '-'" landscape.gp)" 1
	grep -qF "set xlabel '$MU'" landscape.gp
	# (the best run in a block of its own, after the others)
	points=$(awk '/^plot /{ p = 1; next } p && NF == 2 && $1 ~ /^[-0-9.]/' landscape.gp)
	paste <(sort -g <<<"$points") <(jq -r '"\(.set[] | tonumber) \(.score)"' scores.jsonl | sort -g) |
	    awk 'NF != 4 || $1 != $3 || $2 != $4 { bad = 1 } END { exit bad || NR != 9 }' ||
	    fail "plotted: $points"
	lowest=$(sort -g -k2 <<<"$points" | head -1 | cut -d' ' -f1)
	best=$(phys-sweep best scores.jsonl | jq -r '.set[]')
	awk -v a="$lowest" -v b="$best" 'BEGIN { exit !(a == b) }' || fail "lowest at $lowest, best $best"
	near "$lowest" 0.37 0.1
	# gnuplot draws the script into the image it names
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	gnuplot landscape.gp
	[[ $(file -b landscape.png) == "PNG image data, 640 x 360,"* ]] || fail "$(file -b landscape.png)"
}

# ---- sweeps that cannot corrupt each other; large plans ----

# hashes DIR: each state file's id and the "sweep_run" of its first line.
hashes() {
	(cd "$1" && for f in [0-9]*.jsonl; do
		printf '%s %s\n' "${f%.jsonl}" "$(head -1 "$f" | jq -r .sweep_run)"
	done | sort -n)
}

@test "a second sweep into a directory in use is refused at once; the state files are the first plan's alone" {
	local pid st
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	phys-sweep plan -t 3 sliding_box.sdf "$MU=0.1:0.9:10" > a.jsonl
	phys-sweep plan -t 3 sliding_box.sdf "$MU=0.15:0.95:10" > b.jsonl
	phys-sweep run -j 1 a.jsonl 2> a.err &
	pid=$!
	for _ in $(seq 200); do
		[ "$(cat runs/log.jsonl 2> /dev/null | wc -l)" -ge 1 ] && break
		sleep 0.02
	done
	# held (its worker runs on), so that it is surely still there
	kill -s STOP "$pid"
	run -1 --separate-stderr phys-sweep run -j 1 b.jsonl
	[ "$stderr" = "phys-sweep: runs: another sweep is running into this directory; two would mix their runs (wait for it to end, or give --dir another directory)" ] || { kill -s CONT "$pid"; fail "$stderr"; }
	run -1 --separate-stderr phys-sweep run-one b.jsonl 7
	[ "$stderr" = "phys-sweep: runs: another sweep is running into this directory; two would mix their runs (wait for it to end, or give --dir another directory)" ] || { kill -s CONT "$pid"; fail "$stderr"; }
	kill -s CONT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 0 ] || fail "the first sweep: $(cat a.err)"
	# every state file is plan a's: a second run of a finds them done,
	# and plan b's scores refuse them
	run -0 --separate-stderr phys-sweep run -j 1 a.jsonl
	[[ "$stderr" == *"10 runs: 0 done, 0 failed, 10 already done"* ]] || fail "$stderr"
	run -1 --separate-stderr phys-sweep score 'final:box::link/pose.x' b.jsonl
	[ "$(grep -c 'was made by another run' <<<"$stderr")" -eq 10 ]
	[ -z "$(ls -A runs | grep part)" ]
	# run-one processes, the tasks of one array, share the directory
	phys-sweep run-one --dir shared a.jsonl 0 1 2 2> /dev/null &
	pid=$!
	phys-sweep run-one --dir shared a.jsonl 3 4 5 2> /dev/null
	wait "$pid"
	[ "$(ls shared/[0-9]*.jsonl | wc -l)" -eq 6 ]
	[ -z "$(ls -A shared | grep part)" ]
}

@test "a different plan into the same directory is run, not taken as done; score refuses another plan's state files" {
	cd "$TMP"
	cp "$WORLDS/sliding_box.sdf" .
	phys-sweep plan -t 0.5 sliding_box.sdf "$MU=0.1:0.9:9" > a.jsonl
	phys-sweep plan -t 0.5 sliding_box.sdf "$MU=0.2:1:9" > b.jsonl
	phys-sweep run -j 2 a.jsonl 2> /dev/null
	run -0 --separate-stderr phys-sweep run -j 2 b.jsonl
	[[ "$stderr" == *"phys-sweep: runs: 9 state files were made by other runs (another plan's): run again"* ]] || fail "$stderr"
	[[ "$stderr" == *"9 runs: 9 done, 0 failed, 0 already done"* ]] || fail "$stderr"
	# now every state file is plan b's: plan a's scores are refused
	run -1 --separate-stderr phys-sweep score 'final:box::link/pose.x' a.jsonl
	[ -z "$output" ]
	[ "$(grep -c 'was made by another run' <<<"$stderr")" -eq 9 ]
	run -0 --separate-stderr phys-sweep score 'final:box::link/pose.x' b.jsonl
	[ "${#lines[@]}" -eq 9 ]
	# the same plan written with other spacing and key order is the same
	# plan: nothing to run again
	jq -c -S . b.jsonl | sed 's/,/, /' > b2.jsonl
	run -0 --separate-stderr phys-sweep run -j 2 b2.jsonl
	[[ "$stderr" == *"9 runs: 0 done, 0 failed, 9 already done"* ]] || fail "$stderr"
}

@test "a plan of 600,000 runs, past the 64 MB limit, is read once through by run-one; run reads one past 64 MB" {
	local pad i
	cd "$TMP"
	cp "$WORLDS/falling_sphere.sdf" .
	# 600,000 runs, as the plan command writes them (its first 2000 lines
	# compared; reading each id against all before it, as before, took
	# hours)
	awk -v w="$TMP/falling_sphere.sdf" 'BEGIN { for (i = 0; i < 600000; i++)
		printf "{\"id\":%d,\"world\":\"%s\",\"steps\":2,\"set\":{\"ball::link/inertial.mass\":\"%d\",\"iters\":\"%d\"}}\n",
		    i, w, 1 + int(i / 1000), 1 + i % 1000 }' > big.jsonl
	cmp <(phys-sweep plan -n 2 "$TMP/falling_sphere.sdf" 'ball::link/inertial.mass=1:600:600' 'iters=1:1000:1000' | head -2000) \
	    <(head -2000 big.jsonl)
	[ "$(wc -l < big.jsonl)" -eq 600000 ]
	[ "$(stat -c %s big.jsonl)" -gt $((64 << 20)) ]
	run -0 timeout -k 5 60 phys-sweep run-one big.jsonl 599999 123
	[ "$(hashes runs | wc -l)" -eq 2 ]
	[ "$(head -1 runs/599999.jsonl | jq .iter)" -eq 0 ]
	jq -e '.items["ball::link/pose"]' runs/123.jsonl > /dev/null
	# an id twice, or one the plan lacks, far down (a plan on a pipe too)
	run -1 --separate-stderr sh -c '{ cat big.jsonl; sed -n 5p big.jsonl; } | timeout -k 5 60 phys-sweep run-one - 3'
	[ "$stderr" = "phys-sweep: <stdin>:600001: run 4 comes twice" ]
	run -1 --separate-stderr timeout -k 5 60 phys-sweep run-one big.jsonl 600000
	[ "$stderr" = "phys-sweep: big.jsonl has no run 600000" ]
	# and run: 20 runs of 4 MB each (JSON spread out with blanks)
	pad=$(head -c 4000000 /dev/zero | tr '\0' ' ')
	for i in $(seq 0 19); do
		printf '{"id":%d,%s"world":"falling_sphere.sdf","steps":2,"set":{"iters":"%d"}}\n' "$i" "$pad" $((10 + i))
	done > long.jsonl
	[ "$(stat -c %s long.jsonl)" -gt $((64 << 20)) ]
	run -0 --separate-stderr phys-sweep run -j 2 --dir long long.jsonl
	[[ "$stderr" == *"20 runs: 20 done, 0 failed"* ]] || fail "$stderr"
}

@test "plot: the best run ringed, an outlier on the axis' edge, --size and --logscale, text in plot symbols, no text into a file" {
	fit_setup 0.05:0.9:18
	phys-sweep run -j 2 plan.jsonl 2> /dev/null
	phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' > scores.jsonl
	# one run far off: score 50
	jq -c 'if .id == 0 then .score = 50 else . end' scores.jsonl > odd.jsonl
	phys-sweep plot --script odd.gp -o odd.png --size 900x500 --logscale x odd.jsonl
	grep -q "size 900,500" odd.gp
	grep -qx "set logscale x" odd.gp
	# the score axis ends near the others' largest, not at 50; the odd one
	# is drawn at its end, and counted
	top=$(jq -s '[.[] | select(.id != 0) | .score] | max' odd.jsonl)
	hi=$(sed -n 's/^set yrange \[.*:\(.*\)\]$/\1/p' odd.gp)
	awk -v h="$hi" -v t="$top" 'BEGIN { exit !(h > t && h < 1.2 * t) }' || fail "yrange up to $hi, top $top"
	grep -q "1 run above the axis, up to 50" odd.gp
	# the best run in a block of its own, at its (mu, score)
	best=$(phys-sweep best odd.jsonl)
	grep -q "the best run, $(jq .id <<<"$best") (score" odd.gp
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	gnuplot odd.gp
	[[ $(file -b odd.png) == "PNG image data, 900 x 500,"* ]] || fail "$(file -b odd.png)"
	# text on a terminal: plot symbols, '@' the best, '^' the odd one
	command -v script > /dev/null || skip "script(1) is not installed"
	COLUMNS=90 LINES=30 script -qec "'$PHYS_BIN/phys-sweep' plot --terminal text odd.jsonl" /dev/null > screen < /dev/null
	grep -q '@' screen
	grep -q '\^' screen
	grep -q 'a run *\*' screen
	run -1 grep -E '[A-H] *$' screen
	# as phys-introspect plot: no text into a file, a usage error
	run -2 --separate-stderr phys-sweep plot odd.jsonl
	assert_equal "${stderr%%$'\n'*}" "phys-sweep: plot: standard output is not a terminal: give -o FILE.png, -o FILE.svg or -o FILE.pdf"
	run -2 --separate-stderr phys-sweep plot -o odd.txt odd.jsonl
	[[ $stderr == *"the name must end in .png, .svg or .pdf, or give --format"* ]]
}

# ---- schedulers: GNU parallel over ssh, Slurm ----

# Whatever a test started is stopped, even when it failed half-way.
teardown() {
	[ -z "${S-}" ] || stop_sshd
	[ -z "${D-}" ] || stop_slurm
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# An sshd of our own on a free localhost port, with its own host key, that
# lets in a key made here.
start_sshd() {
	command -v /usr/sbin/sshd > /dev/null || skip "sshd is not installed (openssh-server)"
	command -v parallel > /dev/null || skip "GNU parallel is not installed"
	S=$TMP/ssh
	mkdir -p "$S" /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$S/host_key"
	ssh-keygen -q -t ed25519 -N '' -f "$S/user_key"
	cp "$S/user_key.pub" "$S/authorized_keys"
	port=$(free_port)
	cat > "$S/sshd_config" <<-CONF
	Port $port
	ListenAddress 127.0.0.1
	HostKey $S/host_key
	AuthorizedKeysFile $S/authorized_keys
	PidFile $S/sshd.pid
	StrictModes no
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	UsePAM no
	CONF
	cat > "$S/ssh_config" <<-CONF
	Host sweephost
	  HostName 127.0.0.1
	  Port $port
	  User $(id -un)
	  IdentityFile $S/user_key
	  IdentitiesOnly yes
	  StrictHostKeyChecking no
	  UserKnownHostsFile $S/known_hosts
	  LogLevel ERROR
	  ControlMaster auto
	  ControlPath $S/cm-%C
	  ControlPersist 60
	CONF
	/usr/sbin/sshd -f "$S/sshd_config" -E "$S/sshd.log" ||
	    skip "sshd cannot start: $(cat "$S/sshd.log")"
	for _ in $(seq 50); do
		ssh -F "$S/ssh_config" sweephost true 2> /dev/null && return 0
		sleep 0.1
	done
	skip "sshd started but takes no login: $(cat "$S/sshd.log")"
}

# The shared connection first (it would outlive the test), then sshd.
stop_sshd() {
	ssh -F "$TMP/ssh/ssh_config" -O exit sweephost 2> /dev/null || true
	[ -s "$TMP/ssh/sshd.pid" ] && kill "$(cat "$TMP/ssh/sshd.pid")" || true
}

@test "GNU parallel over ssh runs the plan's runs remotely and returns the same state files" {
	start_sshd
	# five runs around the answer, same step: each job costs several ssh
	# round trips, and the machine may be busy
	fit_setup 0.3:0.5:5
	phys-sweep run -j 2 --dir local plan.jsonl 2> /dev/null
	echo "2/sweephost" > hosts
	mkdir -p runs remote
	jq -r .id plan.jsonl | parallel --ssh "ssh -F $S/ssh_config" --sshloginfile hosts \
	    --env PATH --env SDF_PATH --wd "$TMP/remote" \
	    --basefile plan.jsonl --basefile sliding_box.sdf --basefile push.jsonl \
	    --return 'runs/{}.jsonl' --cleanup \
	    phys-sweep run-one plan.jsonl {} 2> parallel.err || { stop_sshd; fail "$(cat parallel.err)"; }
	stop_sshd
	# every run was made in the remote directory (its log stays there)
	# and its state file brought back here, where nothing ran
	[ "$(jq -r 'select(.status == 0) | .id' "$TMP/remote/runs/log.jsonl" | sort -un | wc -l)" -eq 5 ]
	[ ! -e runs/log.jsonl ]
	assert_equal "$(digest runs 4)" "$(digest local 4)"
	mu=$(phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' | phys-sweep best | jq -r '.set[]')
	near "$mu" 0.37 0.05
}

@test "GNU parallel --transferfile sends one plan a run and returns its state" {
	start_sshd
	fit_setup
	sed -i 2q plan.jsonl
	phys-sweep run -j 2 --dir local plan.jsonl 2> /dev/null
	mkdir -p one runs
	for i in 0 1; do sed -n "$((i + 1))p" plan.jsonl > "one/$i.jsonl"; done
	ls one/*.jsonl | parallel --ssh "ssh -F $S/ssh_config" --sshlogin 2/sweephost \
	    --env PATH --env SDF_PATH --wd "$TMP/remote" \
	    --basefile sliding_box.sdf --basefile push.jsonl \
	    --transferfile {} --return 'runs/{/.}.jsonl' --cleanup \
	    phys-sweep run-one {} {/.} 2> parallel.err || { stop_sshd; fail "$(cat parallel.err)"; }
	stop_sshd
	assert_equal "$(digest runs 1)" "$(digest local 1)"
}

# A one-node Slurm: slurmctld and slurmd on localhost with a configuration
# of our own (no munge: auth/none, as the daemons and the client are this
# one machine and user).
start_slurm() {
	command -v slurmctld > /dev/null && command -v slurmd > /dev/null &&
	    command -v sbatch > /dev/null || skip "Slurm is not installed (slurm-wlm)"
	[ "$(id -u)" -eq 0 ] || skip "slurmd runs jobs as their user only as root"
	D=$TMP/slurm
	mkdir -p "$D/state" "$D/spool"
	host=$(hostname -s)
	cat > "$D/slurm.conf" <<-CONF
	ClusterName=physsweep
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$(free_port)
	SlurmdPort=$(free_port)
	AuthType=auth/none
	CredType=cred/none
	SlurmUser=root
	SlurmdUser=root
	StateSaveLocation=$D/state
	SlurmdSpoolDir=$D/spool
	SlurmctldPidFile=$D/slurmctld.pid
	SlurmdPidFile=$D/slurmd.pid
	SlurmctldLogFile=$D/slurmctld.log
	SlurmdLogFile=$D/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	MpiDefault=none
	ReturnToService=2
	SchedulerType=sched/builtin
	JobCompType=jobcomp/none
	AccountingStorageType=accounting_storage/none
	NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
	PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	CONF
	export SLURM_CONF=$D/slurm.conf
	slurmctld -f "$SLURM_CONF" -i || skip "slurmctld cannot start: $(tail -3 "$D/slurmctld.log")"
	slurmd -f "$SLURM_CONF" || { stop_slurm; skip "slurmd cannot start: $(tail -3 "$D/slurmd.log")"; }
	for _ in $(seq 100); do
		sinfo -h -o %t 2> /dev/null | grep -qx idle && return 0
		sleep 0.1
	done
	stop_slurm
	skip "the Slurm node never came up: $(tail -3 "$D/slurmd.log")"
}

stop_slurm() {
	local f pid
	for f in slurmd slurmctld; do
		[ -s "$D/$f.pid" ] || continue
		pid=$(cat "$D/$f.pid")
		kill "$pid" 2> /dev/null || continue
		for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	done
}

@test "a Slurm job array runs the plan's runs and gives the same state files" {
	start_slurm
	fit_setup
	phys-sweep run -j 2 --dir local plan.jsonl 2> /dev/null
	# two array tasks, each a share of the ids: short runs, few jobs
	id=$(sbatch --parsable -o "$TMP/slurm-%a.out" --array=0-1 --wrap \
	    'phys-sweep run-one plan.jsonl $(seq $SLURM_ARRAY_TASK_ID 2 16)') || {
		stop_slurm; fail "sbatch failed"; }
	# until the queue no longer holds them (sbatch --wait asks after 2 s,
	# then after 8 more), then each task's exit status
	while [ -n "$(squeue -h -j "$id" 2> /dev/null)" ]; do sleep 0.1; done
	codes=$(scontrol -o show job "$id" | grep -o 'ExitCode=[0-9:]*' | sort | uniq -c)
	stop_slurm
	[ "$(echo $codes)" = "2 ExitCode=0:0" ] || fail "tasks ended $codes: $(cat "$TMP"/slurm-*.out)"
	assert_equal "$(digest runs)" "$(digest local)"
	mu=$(phys-sweep score diff:ref.jsonl plan.jsonl 'box::link/pose.x' | phys-sweep best | jq -r '.set[]')
	near "$mu" 0.37 0.05
}

@test "plot: scores where every run failed are one line and exit 1, not a gnuplot error" {
	printf '%s\n' '{"id":0,"world":"w.sdf","set":{"iters":"10"},"score":null}' \
	    '{"id":1,"world":"w.sdf","set":{"iters":"20"},"score":null}' > "$TMP/sc.jsonl"
	run phys-sweep plot -o "$TMP/p.png" "$TMP/sc.jsonl"
	[ "$status" -eq 1 ]
	[ "$output" = "phys-sweep: no run has a score to plot (each failed or was not scored)" ]
	[ ! -e "$TMP/p.png" ]
}
