#!/usr/bin/env bats
# phys-step -c from a pipe or FIFO: control lines applied as they arrive,
# and "save" lines that turn a tuning session into a profile on disk.

load helper
bats_require_minimum_version 1.5.0

# accel FILE: "t a_z" per step from the ball's vertical velocity.
accel() {
	jq -r '[.t, .items["ball::link/linear_vel"].z] | @tsv' "$1" |
	    awk 'NR > 1 { printf "%.9g %.9g\n", $1, ($2 - v) / ($1 - t) } { t = $1; v = $2 }'
}

@test "a FIFO fed while the run goes changes iters and gravity at the next step, and the fall follows" {
	mkfifo "$TMP/ctl"
	: > "$TMP/out"
	# The writer answers what it sees: at t = 0.2 s iters, at t = 0.5 s gravity.
	(
		exec 3> "$TMP/ctl"
		lines_at_least "$TMP/out" 201
		echo '{"name":"iters","value":123}' >&3
		lines_at_least "$TMP/out" 501
		echo '{"name":"gravity","value":{"x":0,"y":0,"z":-3}}' >&3
		sleep 1
	) &
	local writer=$!
	phys-step --realtime -t 1 -c "$TMP/ctl" -i 'ball::link/linear_vel' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/out"
	wait "$writer"
	# Each change is announced once, on the line of the step it arrived
	# after, and stays: no earlier than the writer sent it.
	ti=$(jq -r 'select(.engine.iters == 123) | .t' "$TMP/out" | head -1)
	tg=$(jq -r 'select(.engine.gravity.z == -3) | .t' "$TMP/out" | head -1)
	awk -v a="$ti" -v b="$tg" 'BEGIN { exit !(a >= 0.2 && a < 0.5 && b >= 0.5 && b < 1) }'
	[ "$(jq -r 'select(.engine) | .engine.iters' "$TMP/out" | tr '\n' ' ')" = "50 123 123 " ]
	# Semi-implicit Euler: every step's velocity change is g h exactly,
	# -9.81 up to the line that announces the new gravity, -3 after it.
	accel "$TMP/out" | awk -v tg="$tg" '
		{ want = $1 <= tg + 1e-9 ? -9.81 : -3; d = $2 - want
		  if (d < -1e-6 || d > 1e-6) { print "t=" $1 ": a=" $2 ", want " want; bad = 1 } n++ }
		END { exit bad || n != 1000 }'
}

@test "a line from a pipe with a future t waits for it; -c - is standard input" {
	printf '{"t":0.25,"name":"gravity","value":{"x":0,"y":0,"z":-1}}\n' |
	    phys-step --realtime -t 0.5 -c - -i 'ball::link/linear_vel' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/out"
	[ "$(jq -r 'select(.engine.gravity.z == -1) | .t' "$TMP/out")" = 0.25 ]
	# v(0.5) = -9.81 * 0.25 - 1 * 0.25, to the step
	near "$(jq -r '.items["ball::link/linear_vel"].z' "$TMP/out" | tail -1)" -2.7025 1e-9
}

@test "a control line whose time has passed when it arrives is skipped with a warning naming its line; the run goes on" {
	mkfifo "$TMP/ctl"
	: > "$TMP/out"
	(
		exec 3> "$TMP/ctl"
		echo '{"name":"iters","value":60}' >&3
		lines_at_least "$TMP/out" 300
		echo '{"t":0.1,"name":"iters","value":70}' >&3
		sleep 1
	) &
	local writer=$!
	run sh -c 'phys-step --realtime -t 1 -c "$1" "$2" 2>&1 > "$3"' sh \
	    "$TMP/ctl" "$WORLDS/falling_sphere.sdf" "$TMP/out"
	wait "$writer"
	[ "$status" -eq 0 ]
	[[ "$output" == "phys-step: $TMP/ctl:2: t=0.1 has passed: the line arrived when the run was at t=0."*"; line skipped" ]]
	# the first line applied, the late one not
	[ "$(jq -r 'select(.engine) | .engine.iters' "$TMP/out" | tail -1)" = 60 ]
	run -1 grep -c '"iters":70' "$TMP/out"
	[ "$(tail -1 "$TMP/out" | jq .t)" = 1 ]
}

@test "bad control lines on a stream warn with their line and the run goes on; from a file they are errors" {
	cp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	cat > "$TMP/lines" <<-'END'
	{"name":"nosuch","value":1}
	{"name":"iters","value":"many"}
	not json
	{"save":"accurate"}
	{"name":"iters","value":33}
	END
	run sh -c 'cat "$2" | phys-step -n 3 -c - --save-to "$1" "$1" 2>"$3"' sh \
	    "$TMP/w.sdf" "$TMP/lines" "$TMP/err"
	[ "$status" -eq 0 ]
	# each warned about once, with its line; the good line applied
	run cat "$TMP/err"
	assert_line --index 0 --partial "phys-step: <stdin>:1: "
	assert_line --index 0 --partial "nosuch"
	assert_line --index 1 --partial "phys-step: <stdin>:2: "
	assert_line --index 2 --partial "phys-step: <stdin>:3: not a JSON object"
	assert_line --index 3 --partial "phys-step: <stdin>:4: there is already a profile named 'accurate'"
	[ "${#lines[@]}" -eq 4 ]
	for l in 0 1 2 3; do [[ "${lines[$l]}" == *"; line skipped" ]]; done
	cmp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	run sh -c 'cat "$2" | phys-step -n 3 -c - "$1" 2>/dev/null | jq -c "select(.engine) | .engine.iters"' sh \
	    "$TMP/w.sdf" "$TMP/lines"
	assert_output 33
	# the same lines from a regular file: the first bad one ends it
	sed 's/^{/{"t":0,/' "$TMP/lines" > "$TMP/file"
	run phys-step -n 3 -c "$TMP/file" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output --partial "phys-step: $TMP/file:1: "
	[ "${#lines[@]}" -eq 1 ]
}

@test "--realtime with a FIFO paces from the first step: a line sent by hand lands when it was sent" {
	mkfifo "$TMP/ctl"
	# the run waits 1.5 s for its writer: that wait is no simulated time
	phys-step --realtime -t 2 -r 4 -c "$TMP/ctl" "$WORLDS/pendulum.sdf" > "$TMP/out" &
	pid=$!
	sleep 1.5
	exec 7> "$TMP/ctl"
	start=$(date +%s%N)
	sleep 1
	echo '{"name":"iters","value":77}' >&7
	wait "$pid"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	exec 7>&-
	# 2 s of simulated time took 2 s from the first step, not a burst
	[ "$ms" -ge 1800 ] || fail "the run took $ms ms"
	# and the line sent after 1 s came in around t = 1 s
	t=$(jq -r 'select(.engine.iters == 77) | .t' "$TMP/out")
	awk -v t="$t" 'BEGIN { exit !(t >= 0.75 && t <= 1.5) }' || fail "applied at t=$t"
	[ "$(wc -l < "$TMP/out")" -eq 9 ]
}

@test "without --realtime a live control stream never holds the run up" {
	mkfifo "$TMP/ctl"
	sleep 20 > "$TMP/ctl" &	# a writer that stays and says nothing
	writer=$!
	run timeout 10 phys-step -t 2 -e 1000 -c "$TMP/ctl" "$WORLDS/falling_sphere.sdf"
	kill "$writer"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "a control stream longer than the run is read only as far as the run goes: memory stays small" {
	# (the sanitizers' quarantine would hold on to every freed line)
	export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=4"
	w="$WORLDS/falling_sphere.sdf"
	/usr/bin/time -f %M -o "$TMP/rss0" phys-step -t 0.1 -e 100 "$w" > /dev/null
	# 64 MB of lines for a time the run never reaches, then as many for now
	/usr/bin/time -f %M -o "$TMP/rss1" sh -c 'yes "{\"t\":100,\"name\":\"iters\",\"value\":5}" |
	    head -c 64000000 | phys-step -t 0.1 -e 100 -c - "$1" > /dev/null' sh "$w"
	/usr/bin/time -f %M -o "$TMP/rss2" sh -c 'yes "{\"name\":\"iters\",\"value\":5}" |
	    head -c 64000000 | phys-step -t 0.1 -e 100 -c - "$1" > /dev/null' sh "$w"
	# kB: what the lines cost beyond the run itself
	[ $(($(cat "$TMP/rss1") - $(cat "$TMP/rss0"))) -lt 20000 ]
	[ $(($(cat "$TMP/rss2") - $(cat "$TMP/rss0"))) -lt 20000 ]
}

@test "a save line stores the tuned values as a profile that phys-preset shows and -p reruns byte for byte" {
	cp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	cat > "$TMP/ctl" <<-'END'
	{"t":0,"name":"iters","value":37}
	{"t":0,"name":"erp","value":0.35}
	{"t":0,"name":"cfm","value":1e-6}
	{"t":0.05,"save":"tuned"}
	END
	phys-step -t 0.3 -e 10 -c "$TMP/ctl" --save-to "$TMP/w.sdf" "$TMP/w.sdf" > "$TMP/tuned"
	phys-preset show tuned "$TMP/w.sdf" > "$TMP/show"
	value() { jq -r --arg n "$1" 'select(.name == $n) | .value' "$TMP/show"; }
	[ "$(value ode.solver.iters)" = 37 ]
	[ "$(value ode.constraints.erp)" = 0.35 ]
	[ "$(value ode.constraints.cfm)" = 1e-06 ]
	# the copy keeps what the starting profile said
	[ "$(value max_step_size)" = 0.002 ]
	phys-step -t 0.3 -e 10 -p tuned "$TMP/w.sdf" > "$TMP/rerun"
	phys-step -t 0.3 -e 10 "$TMP/w.sdf" > "$TMP/plain"
	# the same run but for the profile's name; and tuning changed it
	diff <(sed 's/"preset":"[a-z]*"//' "$TMP/tuned") <(sed 's/"preset":"[a-z]*"//' "$TMP/rerun")
	! cmp -s <(sed 's/"preset":"[a-z]*"//' "$TMP/plain") <(sed 's/"preset":"[a-z]*"//' "$TMP/rerun") || false
	# the rest of the file is as it was
	diff <(grep -v '^ *<' "$WORLDS/box_stack.sdf") <(grep -v '^ *<' "$TMP/w.sdf")
	[ "$(grep -c '<physics' "$TMP/w.sdf")" -eq 3 ]
}

@test "save lines: without --save-to, to a name the world has, or with no name, are errors with their line" {
	cp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	echo '{"t":0,"save":"x"}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/ctl:1: a \"save\" line needs --save-to WORLD"* ]]
	printf '{"t":0,"name":"iters","value":9}\n{"t":0,"save":"accurate"}\n' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" --save-to "$TMP/w.sdf" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output --partial "phys-step: $TMP/ctl:2: there is already a profile named 'accurate'"
	cmp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	echo '{"t":0,"save":""}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" --save-to "$TMP/w.sdf" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output --partial "ctl:1: \"save\" must be a profile name"
}
