#!/usr/bin/env bats
# Standard output and stop signals when a single engine step takes
# minutes: a stop signal, or a reader that has gone, ends the command
# within STOP_DEADLINE_MS of lib/base/stop.c all the same, with the whole
# state lines it had and its last line whole. The slow step is ODE's
# solver on a stack of overlapping boxes (each half inside the next, not
# so deep that the driver refuses them) at 10^6 iterations a step
# (minutes of CPU a step); the signal is sent once the program has spent
# a second of CPU time, which it can only have spent inside that step.

load helper
bats_require_minimum_version 1.5.0

setup() {
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?>\n<sdf version=\"1.7\">\n<world name=\"slow\">"
		print "<physics name=\"p\" type=\"ode\"><max_step_size>0.001</max_step_size>" \
		    "<ode><solver><iters>1000000</iters></solver></ode></physics>"
		print "<model name=\"ground\"><static>true</static><link name=\"l\"><collision name=\"c\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>"
		for (i = 0; i < 60; i++)
			printf "<model name=\"b%d\"><pose>0 0 %g 0 0 0</pose><link name=\"l\">" \
			    "<inertial><mass>1</mass></inertial><collision name=\"c\"><geometry>" \
			    "<box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>\n",
			    i, 0.05 + i * 0.05
		print "</world>\n</sdf>" }' > "$TMP/slow.sdf"
}

teardown() {
	[ -n "${PID:-}" ] && kill -s KILL "$PID" 2> /dev/null || true
}

# cpu_past PID TICKS: wait until PID has used TICKS clock ticks of CPU
# (user and system, its own threads), or fail if it ends first.
cpu_past() {
	local t
	while t=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null); do
		[ "$t" -ge "$2" ] && return 0
		sleep 0.05
	done
	echo "$1 ended before it used $2 ticks"
	return 1
}

ticks() {
	getconf CLK_TCK
}

@test "standard output is buffered by 64 KB: a long run to a file is written in writes of up to 64 KB of whole lines" {
	command -v strace > /dev/null || skip "strace is not installed"
	strace -qq -e trace=write -e signal=none -o "$TMP/trace" \
	    phys-step -t 2 -i '*' "$WORLDS/box_stack.sdf" > "$TMP/out"
	ends_whole "$TMP/out"
	# the largest write to standard output: a buffer's worth of whole
	# lines, no more than 64 KB, and well past stdio's own 8 KB
	local most
	most=$(awk -F' = ' '/^write\(1,/ { if ($NF + 0 > m) m = $NF + 0 } END { print m + 0 }' "$TMP/trace")
	[ "$most" -le 65536 ] || fail "a write of $most bytes"
	[ "$most" -gt 60000 ] || fail "the largest write is $most bytes"
}

@test "SIGTERM, SIGINT, SIGHUP during a step of minutes: the run ends with its state line, whole, and the signal's status" {
	local sig st
	for sig in TERM INT HUP; do
		rm -f "$TMP/out"
		env --default-signal=HUP,INT,TERM phys-step -n 3 "$TMP/slow.sdf" > "$TMP/out" 3>&- &
		PID=$!
		cpu_past "$PID" "$(ticks)"
		kill -s "$sig" "$PID"
		gone_within 10 "$PID"
		st=0
		wait "$PID" || st=$?
		[ "$st" -eq $((128 + $(kill -l "$sig"))) ] || fail "$sig: status $st"
		# the line of t=0, before the first step, and nothing more
		ends_whole "$TMP/out"
		[ "$(jq -c .t "$TMP/out")" = 0 ]
	done
}

@test "SIGTERM during a step of minutes, output to a pipe: its lines reach the reader whole" {
	local st
	mkfifo "$TMP/p"
	cat "$TMP/p" > "$TMP/out" 3>&- &
	local reader=$!
	phys-step -n 3 "$TMP/slow.sdf" > "$TMP/p" 3>&- &
	PID=$!
	cpu_past "$PID" "$(ticks)"
	kill -s TERM "$PID"
	gone_within 10 "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 143 ] || fail "status $st"
	wait "$reader"
	ends_whole "$TMP/out"
	[ "$(jq -c .t "$TMP/out")" = 0 ]
}

@test "a reader that goes during a step of minutes: the run ends as a write would end it (SIGPIPE)" {
	local st
	mkfifo "$TMP/ctl" "$TMP/state"
	# a lock-step controller that answers the first line, then goes
	phys-step --lockstep -c "$TMP/ctl" -n 3 "$TMP/slow.sdf" > "$TMP/state" 2> "$TMP/err" &
	PID=$!
	{ head -n 1 > "$TMP/out"; echo '{}'; } < "$TMP/state" > "$TMP/ctl"
	gone_within 10 "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 141 ] || fail "status $st: $(cat "$TMP/err")"
	[ ! -s "$TMP/err" ]
	ends_whole "$TMP/out"
}

@test "--engines stopped during a step of minutes: the engine stopped and those not run named, no file left" {
	local st
	mkdir "$TMP/tmp"
	TMPDIR="$TMP/tmp" phys-step --engines ode,bullet -n 3 -i 'b0::l/pose' "$TMP/slow.sdf" > "$TMP/out" 2> "$TMP/err" &
	PID=$!
	cpu_past "$PID" "$(ticks)"
	kill -s TERM "$PID"
	gone_within 10 "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 143 ] || fail "status $st"
	assert_equal "$(jq -c 'select(.failed)' "$TMP/out")" "$(printf '%s\n' \
	    '{"engine":"ode","failed":"stopped by SIGTERM"}' \
	    '{"engine":"bullet","failed":"not run: stopped by SIGTERM before it"}')"
	ends_whole "$TMP/out"
	[ -z "$(ls -A "$TMP/tmp")" ]
}

@test "phys-sweep run with workers, stopped while a worker is in a step of minutes: workers and temporary files go with it" {
	local st
	cd "$TMP"
	phys-sweep plan -n 3 slow.sdf 'iters=999999,1000000' > plan.jsonl
	phys-sweep run -j 2 plan.jsonl > out 2> err &
	PID=$!
	# a worker (a child of the sweep) deep in its first step
	local w=
	while [ -z "$w" ]; do
		w=$(pgrep -P "$PID" | head -n 1)
		kill -0 "$PID" || fail "the sweep ended: $(cat err)"
		[ -n "$w" ] || sleep 0.05
	done
	cpu_past "$w" "$(ticks)"
	kill -s TERM "$PID"
	gone_within 10 "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 143 ] || fail "status $st: $(cat err)"
	gone_within 10 "$w"
	[ -z "$(pgrep -P "$PID")" ]
	[ -z "$(ls -A runs | grep -v '^log.jsonl$' | grep -v '^.lock$')" ] || fail "left: $(ls -A runs)"
}
