#!/usr/bin/env bats
# phys-step --lockstep: a controller in the loop, one reply read after each
# state line. worlds/inverted_pendulum.sdf is a pole upright at its hinge's
# zero, which falls unless a controller holds it; the controllers here are
# awk programs that read the state lines and write joint commands.

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/inverted_pendulum.sdf"
J='inverted::hinge'

# awk that reads a pipe a line at a time, as a controller must: mawk
# otherwise waits to fill its buffer, and the loop would stand still.
line_awk() {
	if awk -W version 2>/dev/null | grep -qi mawk; then
		awk -W interactive "$@"
	else
		awk "$@"
	fi
}

# The PD controller: u = -(30 q + 5 w) N m on the hinge, 1 N m more for
# the first 0.1 s (a push), one command a state line. examples/balance.c
# computes the same numbers through the C API.
PD='
function axis(name,   i, s) {
	i = index($0, "\"" name "\":[")
	if (i == 0)
		return 0
	s = substr($0, i + length(name) + 4)
	return substr(s, 1, index(s, "]") - 1) + 0
}
{
	t = substr($0, 6, index($0, ",") - 6) + 0
	u = -(30 * axis("inverted::hinge/position") + 5 * axis("inverted::hinge/velocity"))
	if (t < 0.1)
		u += 1
	printf "{\"name\":\"inverted::hinge/cmd_force\",\"value\":%.17g}\n", u
	fflush()
}'

# loop OUT PROGRAM [OPTION]...: phys-step --lockstep with the awk PROGRAM
# in the loop through a FIFO: the state lines in OUT, phys-step's standard
# error in OUT.err and its status in OUT.rc. The controller opens the FIFO
# both ways, so that it never waits for a phys-step that failed before
# opening it.
loop() {
	local out=$1 prog=$2
	shift 2
	rm -f "$TMP/ctl"
	mkfifo "$TMP/ctl"
	{ st=0
	  timeout 120 phys-step --lockstep -c "$TMP/ctl" "$@" 2> "$out.err" || st=$?
	  echo "$st" > "$out.rc"; } | tee "$out" | line_awk "$prog" 1<> "$TMP/ctl"
}

# angles FILE: the hinge's angle, a line each.
angles() {
	jq -r --arg i "$J/position" '.items[$i][0]' "$1"
}

# largest |x| of a column of numbers
largest() {
	awk '{ a = $1 < 0 ? -$1 : $1; if (a > m) m = a } END { printf "%.17g\n", m }'
}

balance() {
	loop "$TMP/$1" "$PD" -p "$1" -t 5 -r 200 -i "$J/*" "$W"
	[ "$(cat "$TMP/$1.rc")" = 0 ] || fail "$(cat "$TMP/$1.err")"
	[ "$(wc -l < "$TMP/$1")" -eq 1001 ]
	[ "$(tail -1 "$TMP/$1" | jq .t)" = 5 ]
	# the push tips it by 14 mrad at most; then it stands
	local most=$(angles "$TMP/$1" | largest)
	awk -v m="$most" 'BEGIN { exit !(m > 0.01 && m < 0.02) }' || fail "max |q| $most"
	near "$(angles "$TMP/$1" | tail -1)" 0 1e-9
	angles "$TMP/$1" | tail -200 | largest | awk '{ exit !($1 < 1e-6) }'
	# the commands the controller gave are the efforts applied
	[ "$(jq -r --arg i "$J/applied_effort" '.items[$i][0]' "$TMP/$1" | sed -n 2p)" != 0 ]
	# the same controller again: the same bytes
	loop "$TMP/$1.again" "$PD" -p "$1" -t 5 -r 200 -i "$J/*" "$W"
	cmp "$TMP/$1" "$TMP/$1.again"
}
@test "an inverted pendulum balanced for 5 s by a PD controller in awk, in lock-step at 200 Hz, byte-identical twice, under each engine" {
	each_engine balance
}

falls() {
	# the same push, from a file, and no controller: over it goes
	printf '%s\n' "{\"t\":0,\"name\":\"$J/cmd_force\",\"value\":1}" \
	    "{\"t\":0.1,\"name\":\"$J/cmd_force\",\"value\":0}" > "$TMP/push"
	phys-step -p "$1" -t 5 -r 200 -c "$TMP/push" -i "$J/position" "$W" > "$TMP/$1"
	angles "$TMP/$1" | largest | awk '{ exit !($1 > 3) }'
}
@test "without the controller the pole falls, under each engine" {
	each_engine falls
}

same_as_api() {
	loop "$TMP/$1" "$PD" -p "$1" -t 5 -r 200 -i "$J/*" "$W"
	run -0 "$PHYS_BIN/examples/balance" -p "$1" "$W"
	assert_line "t 5"
	assert_line "max_angle $(angles "$TMP/$1" | largest)"
	assert_line "angle $(angles "$TMP/$1" | tail -1 | awk '{ printf "%.17g", $1 }')"
}
@test "the C API's loop (examples/balance.c, phys_run_control) gives the lock-step run's numbers, under each engine" {
	each_engine same_as_api
}

@test "-c -: the replies on standard input, the same run" {
	loop "$TMP/fifo" "$PD" -t 1 -r 200 "$W"
	rm -f "$TMP/back"
	mkfifo "$TMP/back"
	{ timeout 60 phys-step --lockstep -c - -t 1 -r 200 "$W" < "$TMP/back"; } |
	    tee "$TMP/stdin" | line_awk "$PD" 1<> "$TMP/back"
	cmp "$TMP/fifo" "$TMP/stdin"
}

@test "{} replies: the run is the run without control, byte for byte; a regular file of replies is read a line a state line" {
	phys-step -t 0.5 -r 100 -i "$J/*" "$W" > "$TMP/plain"
	loop "$TMP/empty" '{ print "{}"; fflush() }' -t 0.5 -r 100 -i "$J/*" "$W"
	[ "$(cat "$TMP/empty.rc")" = 0 ]
	cmp "$TMP/plain" "$TMP/empty"
	# a file of 51 replies for 51 state lines; a 52nd is never read
	yes '{}' | head -n 52 > "$TMP/replies"
	phys-step --lockstep -c "$TMP/replies" -t 0.5 -r 100 -i "$J/*" "$W" > "$TMP/file"
	cmp "$TMP/plain" "$TMP/file"
}

@test "an array of two commands in one reply: both apply before the next step" {
	# at t = 0.01 s: a torque of 2 N m and gravity 3 m/s^2, in one reply
	loop "$TMP/out" '{ if (NR == 2) print "[{\"name\":\"inverted::hinge/cmd_force\",\"value\":2},{\"name\":\"gravity\",\"value\":\"0 0 -3\"}]"; else print "{}"; fflush() }' \
	    -t 0.05 -r 100 -i "$J/applied_effort" "$W"
	[ "$(cat "$TMP/out.rc")" = 0 ] || fail "$(cat "$TMP/out.err")"
	jq -c . "$TMP/out"
	[ "$(jq -r --arg i "$J/applied_effort" '.items[$i][0]' "$TMP/out" | tr '\n' ' ')" = "0 0 2 2 2 2 " ]
	[ "$(jq -r 'select(.engine) | [.t, .engine.gravity.z] | @tsv' "$TMP/out" | tr '\t\n' ', ')" = "0,-9.81 0.02,-3 " ]
}

@test "-r below the step rate: a 100 Hz controller's command holds for the 10 steps between its replies" {
	# each reply is logged with its time, for a replay step by step
	loop "$TMP/out" '
	{
		t = substr($0, 6, index($0, ",") - 6)
		printf "{\"name\":\"inverted::hinge/cmd_force\",\"value\":%d}\n", NR % 7 - 3
		printf "{\"t\":%s,\"name\":\"inverted::hinge/cmd_force\",\"value\":%d}\n", t, NR % 7 - 3 > "'"$TMP/log"'"
		fflush()
	}' -t 0.5 -r 100 -i "$J/position" -i "$J/applied_effort" "$W"
	[ "$(cat "$TMP/out.rc")" = 0 ] || fail "$(cat "$TMP/out.err")"
	[ "$(wc -l < "$TMP/out")" -eq 51 ]
	[ "$(wc -l < "$TMP/log")" -eq 51 ]
	# The same commands from a file at their times, with a line each
	# step: the applied effort is constant over each 10 ms, the reply
	# given at its start; and the lock-step run's lines are among these.
	phys-step -t 0.5 -e 1 -c "$TMP/log" -i "$J/position" -i "$J/applied_effort" "$W" > "$TMP/steps"
	jq -r --arg i "$J/applied_effort" '[.iter, .items[$i][0]] | @tsv' "$TMP/steps" |
	    awk 'NR > 1 { k = int(($1 - 1) / 10) + 1; want = k % 7 - 3
		if ($2 != want) { print "step " $1 ": " $2 ", want " want; bad = 1 } }
		END { exit bad }'
	[ "$(jq -r --arg i "$J/applied_effort" '.items[$i][0]' "$TMP/steps" | uniq | wc -l)" -ge 40 ]
	jq -c 'select(.iter % 10 == 0) | .items' "$TMP/steps" > "$TMP/a"
	jq -c '.items' "$TMP/out" > "$TMP/b"
	cmp "$TMP/a" "$TMP/b"
}

@test "a controller that dies mid-run: the FIFO and line named, exit 1, the last line whole" {
	loop "$TMP/out" 'NR == 50 { exit } { print "{}"; fflush() }' -t 5 -r 200 \
	    -i "$J/position" "$W"
	[ "$(cat "$TMP/out.rc")" = 1 ]
	assert_equal "$(cat "$TMP/out.err")" \
	    "phys-step: $TMP/ctl:50: the controller closed without replying to the state line at t=0.245"
	ends_whole "$TMP/out"
	[ "$(wc -l < "$TMP/out")" -eq 50 ]
	[ "$(tail -1 "$TMP/out" | jq .t)" = 0.245 ]
}

@test "a controller that writes garbage: the reply's line number, exit 1, the last line whole; an array names its bad element" {
	loop "$TMP/out" 'NR == 7 { print "{oops"; fflush(); next } { print "{}"; fflush() }' \
	    -t 5 -r 200 -i "$J/position" "$W"
	[ "$(cat "$TMP/out.rc")" = 1 ]
	[[ "$(cat "$TMP/out.err")" == "phys-step: $TMP/ctl:7: not a reply: a control object, an array of them, or {} for none: "* ]]
	ends_whole "$TMP/out"
	[ "$(wc -l < "$TMP/out")" -eq 7 ]
	[ "$(tail -1 "$TMP/out" | jq .t)" = 0.03 ]
	# an array whose second element names nothing: none of it applies
	loop "$TMP/out" 'NR == 3 { print "[{\"name\":\"inverted::hinge/cmd_force\",\"value\":1},{\"name\":\"itres\",\"value\":2}]"; fflush(); next } { print "{}"; fflush() }' \
	    -t 5 -r 200 -i "$J/applied_effort" "$W"
	[ "$(cat "$TMP/out.rc")" = 1 ]
	[[ "$(cat "$TMP/out.err")" == "phys-step: $TMP/ctl:3: element 2: unknown parameter 'itres'"* ]]
	# a blank line is no reply, nor is a number, nor a wrong arity
	for reply in '' '42' '{"name":"inverted::hinge/cmd_force","value":[1,2]}'; do
		loop "$TMP/out" "NR == 2 { print \"${reply//\"/\\\"}\"; fflush(); next } { print \"{}\"; fflush() }" \
		    -t 1 -r 200 -i "$J/position" "$W"
		[ "$(cat "$TMP/out.rc")" = 1 ] || fail "reply '$reply' taken"
		[[ "$(cat "$TMP/out.err")" == "phys-step: $TMP/ctl:2: "* ]] || fail "$(cat "$TMP/out.err")"
		ends_whole "$TMP/out"
		[ "$(wc -l < "$TMP/out")" -eq 2 ]
	done
}

@test "a reply's t: ahead, it waits for its time; passed, it is an error" {
	loop "$TMP/out" 'NR == 1 { print "{\"t\":0.035,\"name\":\"inverted::hinge/cmd_force\",\"value\":2}"; fflush(); next } { print "{}"; fflush() }' \
	    -t 0.05 -r 100 -i "$J/applied_effort" "$W"
	[ "$(cat "$TMP/out.rc")" = 0 ] || fail "$(cat "$TMP/out.err")"
	[ "$(jq -r --arg i "$J/applied_effort" '.items[$i][0]' "$TMP/out" | tr '\n' ' ')" = "0 0 0 0 2 2 " ]
	loop "$TMP/out" 'NR == 3 { print "{\"t\":0.01,\"name\":\"inverted::hinge/cmd_force\",\"value\":2}"; fflush(); next } { print "{}"; fflush() }' \
	    -t 0.05 -r 100 -i "$J/applied_effort" "$W"
	[ "$(cat "$TMP/out.rc")" = 1 ]
	assert_equal "$(cat "$TMP/out.err")" "phys-step: $TMP/ctl:3: t=0.01 has passed: the run is at t=0.02"
}

@test "a stop signal while the run waits for a reply: it stops at once, its last line whole, with the signal's status" {
	mkfifo "$TMP/ctl" "$TMP/state"
	phys-step --lockstep -c "$TMP/ctl" -t 5 -r 200 "$W" > "$TMP/state" 2> "$TMP/err" &
	local pid=$!
	# three replies, then none: the run waits after its fourth line
	tee "$TMP/out" < "$TMP/state" |
	    line_awk 'NR <= 3 { print "{}"; fflush() }' 1<> "$TMP/ctl" &
	local controller=$! i
	for i in $(seq 200); do
		[ "$(wc -l < "$TMP/out")" -ge 4 ] && break
		sleep 0.05
	done
	blocked_in "$pid" '*pipe_read'
	kill -s TERM "$pid"
	local st=0
	wait "$pid" || st=$?
	[ "$st" -eq 143 ] || fail "status $st"
	wait "$controller"
	[ "$(wc -l < "$TMP/out")" -eq 4 ]
	ends_whole "$TMP/out"
	[ ! -s "$TMP/err" ]
}

@test "--lockstep needs -c, and runs one engine" {
	run -2 --separate-stderr phys-step --lockstep -t 0.1 "$W"
	[[ "$stderr" == "phys-step: --lockstep needs -c FILE, where the controller's replies come from"* ]]
	run -2 --separate-stderr phys-step --lockstep -c /dev/null --engines ode,dart -t 0.1 "$W"
	[[ "$stderr" == "phys-step: --lockstep runs one engine"* ]]
	# an empty file: no reply to the first line of a longer run
	run -1 --separate-stderr phys-step --lockstep -c /dev/null -t 0.1 "$W"
	assert_equal "$stderr" "phys-step: /dev/null:1: the controller closed without replying to the state line at t=0"
	[ "$(jq -c .t <<<"$output")" = 0 ]
	# -n 0: one state line, and the controller may close after it
	run -0 phys-step --lockstep -c /dev/null -n 0 "$W"
	[ "${#lines[@]}" -eq 1 ]
}

@test "the C API: phys_run_control takes a reply (an array, {}) and refuses what phys-step refuses" {
	local ex="$PHYS_BIN/examples/drive"
	run -0 "$ex" "$W" control '{}' control "[{\"name\":\"$J/cmd_force\",\"value\":2},{\"name\":\"gravity\",\"value\":\"0 0 0\"}]" \
	    step 10 read "$J/applied_effort" get gravity
	assert_line "$J/applied_effort 2"
	assert_line "gravity 0 0 0"
	run -1 "$ex" "$W" control '{oops'
	[[ "$output" == "drive: PHYS_EINPUT: not a reply: a control object, an array of them, or {} for none: "* ]]
	run -1 "$ex" "$W" step 10 control "{\"t\":0.001,\"name\":\"$J/cmd_force\",\"value\":2}"
	assert_output "drive: PHYS_EINPUT: t=0.001 has passed: the run is at t=0.01"
	run -1 "$ex" "$W" control "[{\"name\":\"$J/cmd_force\",\"value\":2},{\"name\":\"nope\",\"value\":1}]"
	assert_output "drive: PHYS_EINPUT: element 2: unknown parameter 'nope'"
	# a line ahead of its time waits for it
	run -0 "$ex" "$W" control "{\"t\":0.005,\"name\":\"$J/cmd_force\",\"value\":3}" \
	    step 4 read "$J/applied_effort" step 2 read "$J/applied_effort"
	assert_line --index 0 "$J/applied_effort 0"
	assert_line --index 1 "$J/applied_effort 3"
}

# The quadruped of worlds/quadruped.sdf held standing by a PD in awk: each
# state line's 12 joint positions and rates in, 12 cmd_force lines out
# (80 N m/rad, 2 N m s/rad towards hips 0, thighs 0.8 rad, calves
# -1.5 rad), the engine holding each effort within its URDF limit.
QPD='
function axis(name,   i, s) {
	i = index($0, "\"" name "\":[")
	if (i == 0) {
		print "no " name > "/dev/stderr"
		exit 1
	}
	s = substr($0, i + length(name) + 4)
	return substr(s, 1, index(s, "]") - 1) + 0
}
BEGIN {
	n = split("FR FL RR RL", legs, " ")
	split("hip thigh calf", parts, " ")
	goal["hip"] = 0; goal["thigh"] = 0.8; goal["calf"] = -1.5
}
{
	out = ""
	for (l = 1; l <= n; l++)
		for (p = 1; p <= 3; p++) {
			j = "quadruped::" legs[l] "_" parts[p] "_joint"
			u = 80 * (goal[parts[p]] - axis(j "/position")) - 2 * axis(j "/velocity")
			out = out (out == "" ? "" : ",") sprintf("{\"name\":\"%s/cmd_force\",\"value\":%.17g}", j, u)
		}
	print "[" out "]"
	fflush()
}'

quadruped() {
	local w=$(profile_world "$WORLDS/quadruped.sdf" "$1") sel=(-i 'quadruped::trunk/pose'
	    -i 'quadruped::*_joint/position' -i 'quadruped::*_joint/velocity'
	    -i 'quadruped::*_joint/applied_effort')
	loop "$TMP/$1" "$QPD" -p "$1" -t 2 "${sel[@]}" "$w"
	[ "$(cat "$TMP/$1.rc")" = 0 ] || fail "$(cat "$TMP/$1.err")"
	[ "$(wc -l < "$TMP/$1")" -eq 2001 ]
	# standing: the trunk 0.33 m up in the commanded pose, level
	jq -r 'select(.t >= 1) | .items["quadruped::trunk/pose"] | [.z, .roll, .pitch] | @tsv' "$TMP/$1" |
	    awk 'function abs(v) { return v < 0 ? -v : v }
		$1 < 0.25 || $1 > 0.4 || abs($2) > 0.1 || abs($3) > 0.1 { print "trunk at " $0 > "/dev/stderr"; exit 1 }'
	near "$(tail -1 "$TMP/$1" | jq '.items["quadruped::trunk/pose"].z')" 0.32 0.03
	# the efforts the controller asked, held within the URDF's limits
	phys-param get "$w" 'quadruped::*_joint/axis.limit.effort' |
	    jq -r '[(.name | sub("/axis.limit.effort$"; "/applied_effort")), .value] | @tsv' > "$TMP/limits"
	[ "$(wc -l < "$TMP/limits")" -eq 12 ]
	jq -r '.t as $t | .items | to_entries[] | select(.key | endswith("/applied_effort")) |
	    [.key, .value[0], $t] | @tsv' "$TMP/$1" |
	    awk -F'\t' 'NR == FNR { lim[$1] = $2; next }
		{ a = $2 < 0 ? -$2 : $2; n++; if (a > lim[$1] + 1e-9) { print $3 ": " $1 " " $2 > "/dev/stderr"; exit 1 } }
		END { if (n != 12 * 2001) exit 1 }' "$TMP/limits" -
	# byte-identical again, over its first half second (the landing)
	loop "$TMP/$1.again" "$QPD" -p "$1" -t 0.5 "${sel[@]}" "$w"
	head -501 "$TMP/$1" | cmp - "$TMP/$1.again"
}
@test "the quadruped held standing by a PD on its 12 joints written in awk, in lock-step at 1 kHz: the trunk up after 2 s, every effort within its URDF limit, byte-identical twice, under each engine" {
	each_engine quadruped
}
