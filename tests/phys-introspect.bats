#!/usr/bin/env bats
# phys-introspect: selecting, sampling, deriving, values at times, comparing
# runs and plotting, on small hand-written runs with known values.
#
# introspect-run.jsonl: t = 0, 0.25, 0.5, 0.75, 1 (exact in binary);
# box::link/pose.x = t, .z = 2 - 2 t^2 (2, 1.875, 1.5, 0.875, 0),
# box::link/linear_vel.z = -4 t, ball::link/pose = (3, 4, 0.5),
# robot::elbow/position = [t, -t]; line 1 carries "preset", line 4 an
# "event", line 5 another "preset".
# introspect-times.jsonl: t = 0, 0.1, ..., 1 with one item n = 0 .. 10.

load helper
bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/data"
RUN="$DATA/introspect-run.jsonl"
TIMES="$DATA/introspect-times.jsonl"
BAD="$DATA/introspect-bad.jsonl"

# The times of the lines kept by the given sampling options, on one line.
kept_times() {
	set -o pipefail
	phys-introspect filter n --csv -f "$TIMES" "$@" | sed 1d | cut -d, -f1 |
		paste -sd' '
}

have_gnuplot() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
}

@test "filter: one field, other members of the line copied (JSON)" {
	run -0 phys-introspect filter 'box::link/pose.z' -f "$RUN"
	assert_output - <<'EOF'
{"t":0,"iter":0,"items":{"box::link/pose":{"z":2}},"preset":"default"}
{"t":0.25,"iter":250,"items":{"box::link/pose":{"z":1.875}}}
{"t":0.5,"iter":500,"items":{"box::link/pose":{"z":1.5}}}
{"t":0.75,"iter":750,"items":{"box::link/pose":{"z":0.875}},"event":{"type":"contact","a":"box::link","b":"ground"}}
{"t":1,"iter":1000,"items":{"box::link/pose":{"z":0}},"preset":"accurate"}
EOF
}

@test "filter: globs choose fields and whole items, arrays stay arrays" {
	run -0 phys-introspect filter '*::link/pose.z' 'box::*/linear_vel' \
		'robot::elbow/position' -f "$RUN"
	assert_line --index 1 '{"t":0.25,"iter":250,"items":{"box::link/pose":{"z":1.875},"box::link/linear_vel":{"x":1,"y":0,"z":-1},"ball::link/pose":{"z":0.5},"robot::elbow/position":[0.25,-0.25]}}'
	assert_equal "${#lines[@]}" 5
}

@test "filter: part of an array is keyed by element number; stdin is the default" {
	run -0 phys-introspect filter 'robot::elbow/position.1' < "$RUN"
	assert_line --index 2 '{"t":0.5,"iter":500,"items":{"robot::elbow/position":{"1":-0.5}}}'
}

@test "filter --csv: sim_time first, then ITEM.FIELD columns in line order" {
	run -0 phys-introspect filter --csv 'robot::elbow/position.0' sim_time \
		'*::link/pose.z' -f "$RUN"
	assert_output - <<'EOF'
sim_time,box::link/pose.z,ball::link/pose.z,robot::elbow/position.0
0,2,0.5,0
0.25,1.875,0.5,0.25
0.5,1.5,0.5,0.5
0.75,0.875,0.5,0.75
1,0,0.5,1
EOF
}

@test "filter --tsv: a whole item becomes one column per field" {
	run -0 phys-introspect filter --tsv 'box::link/linear_vel' -f "$RUN"
	assert_output "$(printf '%s\t%s\t%s\t%s\n' \
		sim_time box::link/linear_vel.x box::link/linear_vel.y box::link/linear_vel.z \
		0 1 0 0 0.25 1 0 -1 0.5 1 0 -2 0.75 1 0 -3 1 1 0 -4)"
}

@test "filter: several runs are labelled, in JSON and CSV" {
	cd "$BATS_TEST_TMPDIR"
	cp "$RUN" a.jsonl
	head -n 2 "$RUN" > b.jsonl
	run -0 phys-introspect filter --csv 'box::link/pose.x' -f a.jsonl -f b.jsonl
	assert_output - <<'EOF'
run,sim_time,box::link/pose.x
a.jsonl,0,0
a.jsonl,0.25,0.25
a.jsonl,0.5,0.5
a.jsonl,0.75,0.75
a.jsonl,1,1
b.jsonl,0,0
b.jsonl,0.25,0.25
EOF
	run -0 phys-introspect filter 'box::link/pose.x' -f b.jsonl -f a.jsonl
	assert_line --index 1 '{"run":"b.jsonl","t":0.25,"iter":250,"items":{"box::link/pose":{"x":0.25}}}'
}

@test "filter: numbers are rewritten in shortest form; blanks and nulls take the slow path alike" {
	printf '%s\n' '{"t":0.50,"items":{"a":{"x":1.50,"y":-0.0,"z":1e2},"b":[2.0]}}' \
		'{ "t" : 1 , "items" : { "a" : { "x" : 1.5, "y" : null, "z" : 100 }, "b" : [ 2 ] } }' \
		> "$BATS_TEST_TMPDIR/odd.jsonl"
	run -0 phys-introspect filter a b -f "$BATS_TEST_TMPDIR/odd.jsonl"
	assert_output - <<'EOF'
{"t":0.5,"items":{"a":{"x":1.5,"y":0,"z":100},"b":[2]}}
{"t":1,"items":{"a":{"x":1.5,"y":null,"z":100},"b":[2]}}
EOF
}

@test "filter: a selector matching nothing is an error with a suggestion" {
	run -1 phys-introspect filter 'box::lnk/pose' -f "$RUN"
	assert_output "phys-introspect: $RUN:1: selector 'box::lnk/pose' matches nothing (did you mean 'box::link/pose'?)"
}

@test "filter: a run given as an operand, where selectors go, is warned about: runs come with -f or on standard input" {
	cd "$BATS_TEST_TMPDIR"
	cp "$RUN" run.jsonl
	run -1 phys-introspect filter 'box::link/pose.z' run.jsonl < "$RUN"
	assert_line --index 0 "phys-introspect: selector 'run.jsonl' is also a file's name: a run is read with -f FILE, else from standard input"
	# with -f, a selector that is also a file's name is a selector
	mkdir box::link && : > box::link/pose.z
	run -0 phys-introspect filter 'box::link/pose.z' -f run.jsonl
	refute_output --partial "file's name"
	assert_line --index 0 --partial '"box::link/pose":{"z":'
}

@test "sampling: --every, --rate, --from/--to, --window and together" {
	run -0 kept_times
	assert_output "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1"
	run -0 kept_times --every 3
	assert_output "0 0.3 0.6 0.9"
	run -0 kept_times --rate 5
	assert_output "0 0.2 0.4 0.6 0.8 1"
	run -0 kept_times --rate 4
	assert_output "0 0.3 0.5 0.8 1"
	run -0 kept_times --rate 10
	assert_output "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1"
	run -0 kept_times --from 0.25 --to 0.6
	assert_output "0.3 0.4 0.5 0.6"
	run -0 kept_times --from 0.3 --to 0.3
	assert_output "0.3"
	run -0 kept_times --window 3
	assert_output "0.8 0.9 1"
	run -0 kept_times --from 0.2 --every 2 --window 2
	assert_output "0.8 1"
}

@test "sampling: --rate keeps times a rounding error early (0.1 added up)" {
	t=0
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		printf '{"t":%s,"items":{"n":%d}}\n' "$t" "$i"
		t=$(awk -v t="$t" 'BEGIN { printf "%.17g", t + 0.1 }')
	done > "$BATS_TEST_TMPDIR/sum.jsonl"
	run -0 grep -c '"t":0.79999999999999993,' "$BATS_TEST_TMPDIR/sum.jsonl"
	run -0 phys-introspect filter n --csv --rate 10 -f "$BATS_TEST_TMPDIR/sum.jsonl"
	assert_equal "${#lines[@]}" 12
	run -0 phys-introspect filter n --csv --rate 5 -f "$BATS_TEST_TMPDIR/sum.jsonl"
	assert_output "$(printf '%s\n' sim_time,n 0,1 0.2,3 0.4,5 0.6,7 0.7999999999999999,9 0.9999999999999999,11)"
}

@test "sampling: --window in JSON writes the last lines at the end" {
	run -0 phys-introspect filter n --window 2 -f "$TIMES"
	assert_output - <<'EOF'
{"t":0.9,"iter":900,"items":{"n":9}}
{"t":1,"iter":1000,"items":{"n":10}}
EOF
}

@test "derive: a 3-4-5 distance, division and precedence" {
	run -0 phys-introspect derive -f "$RUN" \
		'dist=hypot(ball::link/pose.x, ball::link/pose.y)' \
		'd3=hypot(3, 4, 12)' 'half=box::link/pose.z / 2' \
		'half2=box::link/pose.z/2' 'p=-2^2 + (1 + 2) * 3' 'twice=half*4' \
		'v=sqrt(box::link/linear_vel.x^2 + box::link/linear_vel.z^2)'
	# each line says the units its expressions give: none for numbers alone
	u='"units":{"dist":"m","half":"m","half2":"m","twice":"m","v":"m/s"}'
	assert_line --index 0 '{"t":0,"iter":0,"items":{"dist":5,"d3":13,"half":1,"half2":1,"p":5,"twice":4,"v":1},"preset":"default",'"$u}"
	assert_line --index 1 '{"t":0.25,"iter":250,"items":{"dist":5,"d3":13,"half":0.9375,"half2":0.9375,"p":5,"twice":3.75,"v":1.4142135623730951},'"$u}"
}

@test "derive: selectors keep input items; CSV columns" {
	run -0 phys-introspect derive 'box::link/pose.z' 'h=box::link/pose.z - 2' -f "$RUN"
	assert_line --index 1 '{"t":0.25,"iter":250,"items":{"box::link/pose":{"z":1.875},"h":-0.125},"units":{"h":"m"}}'
	run -0 phys-introspect derive --csv 'box::link/pose.z' \
		'dist=hypot(ball::link/pose.x, ball::link/pose.y)' -f "$RUN"
	assert_output - <<'EOF'
sim_time,box::link/pose.z,dist
0,2,5
0.25,1.875,5
0.5,1.5,5
0.75,0.875,5
1,0,5
EOF
}

@test "derive: a bad expression points at its column (exit 2)" {
	run -2 phys-introspect derive 'ok=1' 'dist=hypt(box::link/pose.x, 2)' -f "$RUN"
	assert_output - <<'EOF'
phys-introspect: expression 2, column 6: unknown function 'hypt' (did you mean 'hypot'?)
  dist=hypt(box::link/pose.x, 2)
       ^
EOF
	run -2 phys-introspect derive 'a=(1 + 2' -f "$RUN"
	assert_line --index 0 "phys-introspect: expression 1, column 9: missing ')'"
	assert_line --index 2 "          ^"
	run -2 phys-introspect derive 'a=1 2' -f "$RUN"
	assert_line --index 0 "phys-introspect: expression 1, column 5: expected an operator here"
	run -2 phys-introspect derive 'a=atan2(1)' -f "$RUN"
	assert_line --index 0 "phys-introspect: expression 1, column 3: atan2 takes 2 arguments"
}

@test "derive: an unknown field, and one missing from a later line (exit 1)" {
	run -1 phys-introspect derive 'x=box::lnk/pose.x' -f "$RUN"
	assert_output "phys-introspect: $RUN:1: no field 'box::lnk/pose.x' for expression 1, column 3 (did you mean 'box::link/pose.x'?)"
	sed '3s/"ball::link/"gone::link/' "$RUN" > "$BATS_TEST_TMPDIR/gone.jsonl"
	run -1 --separate-stderr phys-introspect derive 'x=ball::link/pose.x' -f "$BATS_TEST_TMPDIR/gone.jsonl"
	assert_equal "$stderr" "phys-introspect: $BATS_TEST_TMPDIR/gone.jsonl:3: no field 'ball::link/pose.x'"
	assert_equal "${#lines[@]}" 2
}

@test "at: exact at a line, linear between lines" {
	run -0 phys-introspect at 0.375 'box::link/pose.z' 'robot::elbow/position.1' -f "$RUN"
	assert_output '{"t":0.375,"items":{"box::link/pose.z":1.6875,"robot::elbow/position.1":-0.375}}'
	run -0 phys-introspect at 0.5 --csv 'box::*/pose.[xz]' < "$RUN"
	assert_output "$(printf 'sim_time,box::link/pose.x,box::link/pose.z\n0.5,0.5,1.5')"
	run -0 phys-introspect at 0.1 'box::link/pose.x' -f "$RUN"
	near "$(echo "$output" | jq '.items["box::link/pose.x"]')" 0.1 1e-15
}

@test "delta: value(T2) - value(T1)" {
	run -0 phys-introspect delta 0.25 1 'box::link/pose.z' 'box::link/pose.x' -f "$RUN"
	assert_output '{"t1":0.25,"t2":1,"items":{"box::link/pose.x":0.75,"box::link/pose.z":-1.875}}'
	run -0 phys-introspect delta --csv 0 0.375 'box::link/linear_vel.z' -f "$RUN"
	assert_output "$(printf 't1,t2,box::link/linear_vel.z\n0,0.375,-1.5')"
}

# A ball spinning at 1 rad/s about z from yaw 3, without gravity: its
# yaw passes pi at 0.1416 s and goes on from -pi, remainder(3 + t, 2 pi).
spin_run() {
	printf '%s\n' '{"t":0,"name":"ball::link/pose","value":{"x":0,"y":0,"z":5,"roll":0,"pitch":0,"yaw":3}}' \
	    '{"t":0,"name":"ball::link/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$BATS_TEST_TMPDIR/spin.ctl"
	phys-step -q -t 0.4 -r "$1" -c "$BATS_TEST_TMPDIR/spin.ctl" -s 'gravity=0 0 0' \
	    -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf"
}
@test "at, delta and diff take a yaw across pi the shorter way round" {
	spin_run 10 > "$BATS_TEST_TMPDIR/spin10.jsonl"
	spin_run 20 > "$BATS_TEST_TMPDIR/spin20.jsonl"
	# 0.15 s lies between 3.1 and -3.083 (3.2 - 2 pi)
	run -0 phys-introspect at 0.15 'ball::link/pose.yaw' -f "$BATS_TEST_TMPDIR/spin10.jsonl"
	near "$(echo "$output" | jq '.items[]')" "$(awk 'BEGIN { printf "%.17g", 3.15 - 2 * 3.141592653589793 }')" 1e-7
	run -0 phys-introspect delta 0.1 0.2 'ball::link/pose.yaw' -f "$BATS_TEST_TMPDIR/spin10.jsonl"
	near "$(echo "$output" | jq '.items[]')" 0.1 1e-7
	# the coarser run, interpolated at the finer one's times, is the
	# same turn
	run -0 phys-introspect diff --tolerance 1e-7 "$BATS_TEST_TMPDIR/spin20.jsonl" \
	    "$BATS_TEST_TMPDIR/spin10.jsonl" 'ball::link/pose.yaw'
	[ "$(echo "$output" | jq '.max_abs < 1e-7')" = true ]
	# one run a hair past pi, the other a hair short of it: 2e-6 apart
	sed 's/"yaw":-3.0831853[0-9]*/"yaw":3.1415916/' "$BATS_TEST_TMPDIR/spin10.jsonl" > "$BATS_TEST_TMPDIR/a.jsonl"
	sed 's/"yaw":-3.0831853[0-9]*/"yaw":-3.1415916/' "$BATS_TEST_TMPDIR/spin10.jsonl" > "$BATS_TEST_TMPDIR/b.jsonl"
	run -0 phys-introspect diff --tolerance 1e-5 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" 'ball::link/pose.yaw'
	near "$(echo "$output" | jq .max_abs)" "$(awk 'BEGIN { printf "%.17g", 2 * 3.141592653589793 - 2 * 3.1415916 }')" 1e-12
}

@test "diff compares a pose's roll, pitch and yaw as the orientation they make: a ball turned past a pitch of pi/2, which phys-step gives as (pi, pi - p, pi), agrees with its closed form (0, p, 0); a roll of pi apart was a spread of pi" {
	printf '%s\n' '{"t":0,"name":"ball::link/pose","value":{"x":0,"y":0,"z":5,"roll":0,"pitch":1.2,"yaw":0}}' \
	    '{"t":0,"name":"ball::link/angular_vel","value":{"x":0,"y":1,"z":0}}' > "$BATS_TEST_TMPDIR/pitch.ctl"
	phys-step -q -t 0.8 -r 20 -c "$BATS_TEST_TMPDIR/pitch.ctl" -s 'gravity=0 0 0' \
	    -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > "$BATS_TEST_TMPDIR/pitch.jsonl"
	awk 'BEGIN { for (i = 0; i <= 16; i++) printf "{\"t\":%.17g,\"items\":{\"ball::link/pose\":{\"x\":0,\"y\":0,\"z\":5,\"roll\":0,\"pitch\":%.17g,\"yaw\":0}}}\n", i / 20, 1.2 + i / 20 }' > "$BATS_TEST_TMPDIR/closed.jsonl"
	# at 0.55 s the ball is pitched 1.75, given as roll pi, pitch 1.39
	[ "$(jq 'select(.t == 0.55) | .items["ball::link/pose"] | (.roll | fabs) > 3.14 and (.pitch - 1.3916 | fabs) < 1e-3' "$BATS_TEST_TMPDIR/pitch.jsonl")" = true ]
	run -0 phys-introspect diff --tolerance 1e-6 "$BATS_TEST_TMPDIR/closed.jsonl" "$BATS_TEST_TMPDIR/pitch.jsonl" 'ball::link/pose'
	[ "$(printf '%s\n' "$output" | jq -s 'length == 7 and (map(.max_abs) | max < 1e-6)')" = true ]
}

# The angle between the orientations of roll, pitch, yaw $1 $2 $3 and $4
# $5 $6 (R = Rz(y) Ry(p) Rx(r)), from the trace of Ra^T Rb.
turn_between() {
	awk -v a="$1 $2 $3" -v b="$4 $5 $6" "$RPY_MATRIX_AWK"'
	BEGIN {
		rpy_matrix(a, A); rpy_matrix(b, B)
		for (i = 0; i < 9; i++) tr += A[i] * B[i]
		c = (tr - 1) / 2
		printf "%.17g\n", atan2(sqrt(1 - c * c), c)
	}'
}

@test "diff compares a pose's orientations as a whole (pose.orientation, the angle between them): near a pitch of pi/2, roll and yaw 0.5 apart are a turn of 0.0053 rad, as the rotation matrices' trace gives it, and within a tolerance of 0.01 agree (exit 0); a turn of 0.3 about z is 0.3; --series gives the angle at each time" {
	local p=1.56
	printf '{"t":0,"items":{"b::l/pose":{"x":0,"y":0,"z":0,"roll":0,"pitch":%s,"yaw":0}}}\n' "$p" > "$BATS_TEST_TMPDIR/a.jsonl"
	printf '{"t":0,"items":{"b::l/pose":{"x":0,"y":0,"z":0,"roll":0.5,"pitch":%s,"yaw":0.5}}}\n' "$p" > "$BATS_TEST_TMPDIR/b.jsonl"
	run -0 phys-introspect diff --tolerance 0.01 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl"
	want=$(turn_between 0 "$p" 0 0.5 "$p" 0.5)
	awk -v w="$want" 'BEGIN { exit !(w > 0.005 && w < 0.006) }'
	line=$(printf '%s\n' "$output" | jq -c 'select(.field == "b::l/pose.orientation")')
	rel "$(jq .max_abs <<< "$line")" "$want" 1e-6
	rel "$(jq .max_rel <<< "$line")" "$(awk -v w="$want" 'BEGIN { printf "%.17g", w / 3.141592653589793 }')" 1e-6
	# within the tolerance as an orientation, and so its roll and yaw,
	# though 0.5 apart: the runs agree (exit 0)
	[ "$(jq .first_t <<< "$line")" = null ]
	[ "$(printf '%s\n' "$output" | jq -c 'select(.field == "b::l/pose.roll") | [.max_abs, .first_t]')" = '[0.5,null]' ]
	# a tolerance below the turn: the orientation differs, and its angles
	run -1 phys-introspect diff --tolerance 0.004 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl"
	[ "$(printf '%s\n' "$output" | jq -c 'select(.field | endswith("roll", "orientation")) | .first_t' | tr '\n' ' ')" = '0 0 ' ]
	# a turn about z by 0.3 at a pitch of 0
	printf '{"t":0,"items":{"b::l/pose":{"x":0,"y":0,"z":0,"roll":0.2,"pitch":0,"yaw":0.3}}}\n' > "$BATS_TEST_TMPDIR/c.jsonl"
	printf '{"t":0,"items":{"b::l/pose":{"x":0,"y":0,"z":0,"roll":0.2,"pitch":0,"yaw":0.6}}}\n' > "$BATS_TEST_TMPDIR/d.jsonl"
	run -1 phys-introspect diff "$BATS_TEST_TMPDIR/c.jsonl" "$BATS_TEST_TMPDIR/d.jsonl" 'b::l/pose'
	line=$(printf '%s\n' "$output" | jq -c 'select(.field == "b::l/pose.orientation")')
	rel "$(jq .max_abs <<< "$line")" 0.3 1e-12
	[ "$(jq .first_t <<< "$line")" = 0 ]
	# --series: the angle at each time, a field of the pose that filter
	# selects
	run -1 phys-introspect diff --series "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl"
	rel "$(jq '.items."b::l/pose".orientation' <<< "$output")" "$want" 1e-6
	[ "$(jq '.items."b::l/pose".roll' <<< "$output")" = -0.5 ]
	phys-introspect diff --series "$BATS_TEST_TMPDIR/c.jsonl" "$BATS_TEST_TMPDIR/d.jsonl" > "$BATS_TEST_TMPDIR/s.jsonl" || [ $? = 1 ]
	run -0 phys-introspect filter --csv -f "$BATS_TEST_TMPDIR/s.jsonl" 'b::l/pose.orientation'
	rel "$(sed -n 2p <<< "$output" | cut -d, -f2)" 0.3 1e-12
}

@test "diff selects a pose's orientation alone (ITEM.orientation): one line, the angle between the runs' orientations as the matrices' trace gives it, its status by the tolerance alone though roll and yaw are 0.5 apart; --series writes that angle and no angles" {
	local p=1.56
	printf '{"t":0,"items":{"b::l/pose":{"x":1,"y":0,"z":0,"roll":0,"pitch":%s,"yaw":0}}}\n' "$p" > "$BATS_TEST_TMPDIR/a.jsonl"
	printf '{"t":0,"items":{"b::l/pose":{"x":2,"y":0,"z":0,"roll":0.5,"pitch":%s,"yaw":0.5}}}\n' "$p" > "$BATS_TEST_TMPDIR/b.jsonl"
	want=$(turn_between 0 "$p" 0 0.5 "$p" 0.5)
	# within a tolerance of 0.01: the orientation agrees, exit 0, though
	# x and the angles, which are not selected, are far apart
	run -0 --separate-stderr phys-introspect diff --tolerance 0.01 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" '*::l/pose.orientation'
	[ "${#lines[@]}" -eq 1 ]
	[ "$(jq -r .field <<< "$output")" = b::l/pose.orientation ]
	rel "$(jq .max_abs <<< "$output")" "$want" 1e-6
	[ "$(jq .first_t <<< "$output")" = null ]
	# below the turn: it differs (exit 1)
	run -1 phys-introspect diff --tolerance 0.004 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" 'b::l/pose.orientation'
	[ "$(jq .first_t <<< "$output")" = 0 ]
	# with x selected as well: x's line, then the orientation's
	run -1 phys-introspect diff --tolerance 0.01 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" 'b::l/pose.x' 'b::l/pose.orientation'
	[ "$(jq -r .field <<< "$output" | tr '\n' ' ')" = 'b::l/pose.x b::l/pose.orientation ' ]
	# --series: the pose holds the angle alone
	run -0 phys-introspect diff --series --tolerance 0.01 "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" 'b::l/pose.orientation'
	[ "$(jq -c '.items."b::l/pose" | keys' <<< "$output")" = '["orientation"]' ]
	rel "$(jq '.items."b::l/pose".orientation' <<< "$output")" "$want" 1e-6
}

@test "at: a time outside the run, and time going backwards, exit 1" {
	run -1 phys-introspect at 1.5 -f "$RUN"
	assert_output "phys-introspect: $RUN: time 1.5 is outside the data (0 to 1)"
	run -1 phys-introspect at -f "$RUN" -- -0.25
	assert_output "phys-introspect: $RUN: time -0.25 is outside the data (0 to 1)"
	{ sed -n 1p "$RUN"; sed -n 3p "$RUN"; sed -n 2p "$RUN"; } > "$BATS_TEST_TMPDIR/back.jsonl"
	run -1 phys-introspect at 0.9 -f "$BATS_TEST_TMPDIR/back.jsonl"
	assert_output "phys-introspect: $BATS_TEST_TMPDIR/back.jsonl:3: time goes backwards (0.25 after 0.5)"
}

@test "diff: a run against itself is clean (exit 0)" {
	run -0 phys-introspect diff "$RUN" - 'box::link/pose.z' sim_time < "$RUN"
	assert_output - <<'EOF'
{"field":"box::link/pose.z","max_abs":0,"max_rel":0,"first_t":null}
{"field":"sim_time","max_abs":0,"max_rel":0,"first_t":null}
EOF
	run -0 phys-introspect diff "$RUN" "$RUN"
	assert_equal "${#lines[@]}" 20
	refute_output --partial '"first_t":0'
}

@test "diff: a changed run gives the first divergence (exit 1) unless within tolerance" {
	sed '3s/"z":1.5,/"z":1.4,/; 4s/"z":0.875,/"z":0.9,/' "$RUN" > "$BATS_TEST_TMPDIR/mod.jsonl"
	run -1 phys-introspect diff "$RUN" "$BATS_TEST_TMPDIR/mod.jsonl" 'box::link/pose.[xz]'
	assert_line --index 0 '{"field":"box::link/pose.x","max_abs":0,"max_rel":0,"first_t":null}'
	assert_line --index 1 --partial '{"field":"box::link/pose.z","max_abs":0.1000'
	assert_line --index 1 --partial '"first_t":0.5}'
	near "$(echo "${lines[1]}" | jq .max_abs)" 0.1 1e-12
	near "$(echo "${lines[1]}" | jq .max_rel)" 0.0666666666666667 1e-12
	run -1 phys-introspect diff --tolerance 0.05 "$RUN" "$BATS_TEST_TMPDIR/mod.jsonl" 'box::link/pose.z'
	assert_output --partial '"first_t":0.5}'
	run -0 phys-introspect diff --tolerance 0.11 "$RUN" "$BATS_TEST_TMPDIR/mod.jsonl" 'box::link/pose.z'
	run -0 phys-introspect diff --rel-tolerance 0.07 "$RUN" "$BATS_TEST_TMPDIR/mod.jsonl" 'box::link/pose.z'
	run -1 phys-introspect diff --rel-tolerance 0.06 "$RUN" "$BATS_TEST_TMPDIR/mod.jsonl" 'box::link/pose.z'
}

@test "diff: another time base is interpolated; a shorter run differs in t" {
	sed -n '1p;3p;5p' "$RUN" > "$BATS_TEST_TMPDIR/coarse.jsonl"
	run -0 phys-introspect diff "$RUN" "$BATS_TEST_TMPDIR/coarse.jsonl" 'box::link/pose.x'
	assert_output '{"field":"box::link/pose.x","max_abs":0,"max_rel":0,"first_t":null}'
	run -1 phys-introspect diff "$RUN" "$BATS_TEST_TMPDIR/coarse.jsonl" 'box::link/pose.z'
	assert_output --partial '"max_abs":0.125,'
	assert_output --partial '"first_t":0.25}'
	head -n 3 "$RUN" > "$BATS_TEST_TMPDIR/short.jsonl"
	run -1 phys-introspect diff "$BATS_TEST_TMPDIR/short.jsonl" "$RUN" 'box::link/pose.x'
	assert_line --index 0 '{"field":"t","max_abs":0.5,"max_rel":0.5,"first_t":0.75}'
	assert_line --index 1 '{"field":"box::link/pose.x","max_abs":0,"max_rel":0,"first_t":null}'
}

@test "diff: a field in one run only is reported and differs" {
	sed 's/"ball::link/"bell::link/' "$RUN" > "$BATS_TEST_TMPDIR/renamed.jsonl"
	run -1 phys-introspect diff "$RUN" "$BATS_TEST_TMPDIR/renamed.jsonl" '*::link/pose.z'
	assert_output - <<EOF
{"field":"box::link/pose.z","max_abs":0,"max_rel":0,"first_t":null}
{"field":"ball::link/pose.z","only_in":"$RUN"}
{"field":"bell::link/pose.z","only_in":"$BATS_TEST_TMPDIR/renamed.jsonl"}
EOF
}

@test "derive: units follow from the expression; NAME[UNIT] writes one; the plot's axes show them" {
	run -0 phys-introspect derive -f "$RUN" \
		'speed=hypot(box::link/linear_vel.x, box::link/linear_vel.z)' \
		'a=speed / t' 'e=0.5 * 2 * speed^2' 'drop=2 - box::link/pose.z' \
		'r=sqrt(ball::link/pose.x^2 + ball::link/pose.y^2)' 'turn=atan2(ball::link/pose.y, ball::link/pose.x)' \
		's=sin(box::link/pose.yaw)' 'mixed=box::link/pose.z + box::link/pose.yaw' \
		'deg[deg]=box::link/pose.yaw * 180 / pi' 'g[m/s^2]=9.81'
	# m/s from m/s; over s, m/s^2; m^2/s^2 times numbers (no mass here);
	# a sum of metres (and a number) metres; a root of a sum of squares;
	# an angle; a sine none; a sum of m and rad none; the written ones
	assert_line --index 1 --partial '"units":{"speed":"m/s","a":"m/s^2","e":"m^2/s^2","drop":"m","r":"m","turn":"rad","s":"1","deg":"deg","g":"m/s^2"}}'
	# a derived run's units go on through another derive
	phys-introspect derive -f "$RUN" 'v=hypot(box::link/linear_vel.x, box::link/linear_vel.z)' > "$TMP/d1"
	run -0 phys-introspect derive -f "$TMP/d1" 'p=2 * v * v' 'k=v * t'
	assert_line --index 0 --partial '"units":{"p":"m^2/s^2","k":"m"}}'
	run -2 phys-introspect derive -f "$RUN" 'v[m/s=1'
	assert_line --index 0 "phys-introspect: expression 1, column 2: a unit is written NAME[UNIT]=EXPR, as in speed[m/s]=..."
	have_gnuplot
	phys-introspect derive --keep -f "$RUN" 'speed=hypot(box::link/linear_vel.x, box::link/linear_vel.z)' \
		'mixed=box::link/pose.z + box::link/pose.yaw' |
		phys-introspect plot --script "$TMP/s.gp" -o "$TMP/s.png" speed 'box::link/pose.z' mixed
	# three units: speed's, pose.z's and none, a panel each, never shared
	grep -Fq "'speed [m/s]'" "$TMP/s.gp"
	grep -Fq "'pose.z [m]'" "$TMP/s.gp"
	grep -Fq "'mixed'" "$TMP/s.gp"
	[ "$(grep -c '^plot ' "$TMP/s.gp")" -eq 3 ]
}

@test "diff --series: A - B at A's times, B interpolated, as state lines for filter, derive and plot" {
	sed -n '1p;3p;5p' "$RUN" > "$TMP/coarse.jsonl"
	run -1 phys-introspect diff --series "$RUN" "$TMP/coarse.jsonl" 'box::link/pose.z' 'robot::elbow/position' sim_time
	# z = 2 - 2 t^2 against the chords of its coarse samples: 0, 0.125, 0,
	# 0.125, 0 at t = 0 .. 1; t and the arrays agree everywhere
	assert_output - <<'END'
{"t":0,"items":{"box::link/pose":{"z":0},"sim_time":0,"robot::elbow/position":[0,0]}}
{"t":0.25,"items":{"box::link/pose":{"z":0.125},"sim_time":0,"robot::elbow/position":[0,0]}}
{"t":0.5,"items":{"box::link/pose":{"z":0},"sim_time":0,"robot::elbow/position":[0,0]}}
{"t":0.75,"items":{"box::link/pose":{"z":0.125},"sim_time":0,"robot::elbow/position":[0,0]}}
{"t":1,"items":{"box::link/pose":{"z":0},"sim_time":0,"robot::elbow/position":[0,0]}}
END
	# the same run: status 0, every difference 0
	run -0 phys-introspect diff --series "$RUN" "$RUN" 'box::link/pose.x'
	[ "${#lines[@]}" -eq 5 ]
	# A's lines outside B: no line, and a warning saying which
	head -n 3 "$RUN" > "$TMP/short.jsonl"
	run -1 --separate-stderr phys-introspect diff --series "$RUN" "$TMP/short.jsonl" 'box::link/pose.x'
	[ "${#lines[@]}" -eq 3 ]
	assert_equal "$stderr" "phys-introspect: $RUN: 2 lines, t=0.75 to 1, are outside the times of $TMP/short.jsonl (0 to 0.5): no difference for them"
	# it pipes on: filter --csv, derive, plot
	run -0 bash -c "phys-introspect diff --series '$RUN' '$TMP/coarse.jsonl' 'box::link/pose.z' |
		phys-introspect filter --csv 'box::link/pose.z'"
	assert_output "$(printf 'sim_time,box::link/pose.z\n0,0\n0.25,0.125\n0.5,0\n0.75,0.125\n1,0')"
	run -0 bash -c "phys-introspect diff --series '$RUN' '$TMP/coarse.jsonl' 'box::link/pose.z' |
		phys-introspect derive --csv 'mm=1000 * box::link/pose.z'"
	assert_line --index 2 '0.25,125'
	have_gnuplot
	phys-introspect diff --series "$RUN" "$TMP/coarse.jsonl" 'box::link/pose.z' |
		phys-introspect plot --script "$TMP/d.gp" -o "$TMP/d.svg" 'box::link/pose.z'
	grep -Fq "'pose.z [m]'" "$TMP/d.gp"
}

@test "diff --series: two free falls part as (g2 - g1) h^2 n (n + 1) / 2" {
	w="$WORLDS/falling_sphere.sdf"
	phys-step -t 1 -e 100 -i 'ball::link/pose' "$w" > "$TMP/earth"
	# the moon's run sampled twice as often: its own lines at the earth's times
	phys-step -t 1 -e 50 -i 'ball::link/pose' -s 'gravity=0 0 -1.62' "$w" > "$TMP/moon"
	phys-introspect diff --series "$TMP/earth" "$TMP/moon" 'ball::link/pose.z' > "$TMP/d" || true
	[ "$(wc -l < "$TMP/d")" -eq 11 ]
	# h = 0.001 s, n = 1000 t: -(9.81 - 1.62) h^2 n (n + 1) / 2
	jq -r '[.t, .items["ball::link/pose"].z] | @tsv' "$TMP/d" | while read -r t dz; do
		near "$dz" "$(awk -v t="$t" 'BEGIN { n = 1000 * t; printf "%.17g", -8.19e-6 * n * (n + 1) / 2 }')" 1e-9
	done
}

@test "--selection reads what --save-selection wrote" {
	sel="$BATS_TEST_TMPDIR/sel"
	run -0 phys-introspect filter --csv --save-selection "$sel" 'box::*/pose.z' sim_time -f "$RUN"
	want=$output
	run -0 cat "$sel"
	assert_output "$(printf '%s\n' '# phys-introspect selection: one selector a line' 'box::*/pose.z' sim_time)"
	run -0 phys-introspect filter --csv --selection "$sel" -f "$RUN"
	assert_output "$want"
	printf '%s\n' '# heights' '' '  box::link/pose.z  ' '# and time' 'sim_time' > "$sel"
	run -0 phys-introspect filter --csv --selection "$sel" -f "$RUN"
	assert_output "$want"
	run -0 phys-introspect derive --save-selection "$sel" 'box::link/pose.z' 'h=2*box::link/pose.z' < /dev/null
	run -0 phys-introspect at 0.5 --selection "$sel" -f "$RUN"
	assert_output '{"t":0.5,"items":{"box::link/pose.z":1.5}}'
	run -0 phys-introspect derive --selection "$sel" -f "$RUN"
	assert_line --index 2 '{"t":0.5,"iter":500,"items":{"box::link/pose":{"z":1.5},"h":3},"units":{"h":"m"}}'
}

@test "plot: a PNG and an SVG, units and run names on the figure" {
	have_gnuplot
	cd "$BATS_TEST_TMPDIR"
	cp "$RUN" a.jsonl
	run -0 phys-introspect plot -o z.png 'box::link/pose.z' -f a.jsonl
	assert_output ""
	run -0 bash -c "head -c 8 z.png | od -An -tx1 | tr -d ' \n'"
	assert_output "89504e470d0a1a0a"
	sed 's/"z":1.5,/"z":1.4,/' a.jsonl > b.jsonl
	run -0 phys-introspect plot -o z.svg 'box::link/pose.z' 'box::link/linear_vel.z' \
		-f a.jsonl -f b.jsonl
	run -0 grep -c '<svg' z.svg
	run -0 grep -c 'b.jsonl: box::link/linear_vel.z' z.svg
	# two units, two axes: never one axis labelled "value [m, m/s]"
	run -0 grep -c 'pose.z \[m\]' z.svg
	run -0 grep -c 'linear_vel.z \[m/s\]' z.svg
	run -1 grep -c 'value \[' z.svg
	run -0 grep -c 'sim time \[s\]' z.svg
	run -0 ls -A
	assert_output "$(printf 'a.jsonl\nb.jsonl\nz.png\nz.svg')"
}

@test "plot: missing or failing gnuplot leaves no file" {
	cd "$BATS_TEST_TMPDIR"
	mkdir bin out
	run -1 env PATH="$PWD/bin" "$PHYS_BIN/phys-introspect" plot -o out/z.png \
		'box::link/pose.z' -f "$RUN"
	assert_output "phys-introspect: gnuplot not found: install the Debian package gnuplot-nox"
	printf '#!/bin/sh\ncat >/dev/null\necho "gnuplot: broken" >&2\nexit 1\n' > bin/gnuplot
	chmod +x bin/gnuplot
	run -1 env PATH="$PWD/bin:/usr/bin:/bin" "$PHYS_BIN/phys-introspect" plot \
		-o out/z.png 'box::link/pose.z' -f "$RUN"
	assert_line --index 0 "gnuplot: broken"
	assert_line --index 1 "phys-introspect: gnuplot failed (exit status 1)"
	run -0 ls -A out
	assert_output ""
}

@test "plot: no -o off a terminal, or another extension, is a usage error" {
	run -2 phys-introspect plot 'box::link/pose.z' -f "$RUN"
	assert_line --index 0 "phys-introspect: plot: standard output is not a terminal: give -o FILE.png, -o FILE.svg or -o FILE.pdf"
	run -2 phys-introspect plot -o z.gif 'box::link/pose.z' -f "$RUN"
	assert_line --index 0 --partial "must end in .png, .svg or .pdf, or give --format"
}

@test "a malformed line: exit 1 with file and line, whole lines before it" {
	run -1 --separate-stderr phys-introspect filter 'box::link/pose.x' -f "$BAD"
	assert_output - <<'EOF'
{"t":0,"iter":0,"items":{"box::link/pose":{"x":0}},"preset":"default"}
{"t":0.25,"iter":250,"items":{"box::link/pose":{"x":0.25}}}
EOF
	[[ $stderr == "phys-introspect: $BAD:3: bad JSON at column "* ]]
	run -1 phys-introspect filter n < <(echo '{"t":0,"items":{"n":1}}'; echo '{"items":{"n":2}}')
	assert_line --index 0 '{"t":0,"items":{"n":1}}'
	assert_line --index 1 'phys-introspect: <stdin>:2: not a state line: no "t"'
	run -1 phys-introspect at 0 < <(echo '{"t":0,"items":{"n":"one"}}')
	assert_output "phys-introspect: <stdin>:1: item 'n' is not a number, an object of numbers or an array of numbers"
}

@test "usage errors exit 2" {
	run -2 phys-introspect
	assert_line --index 0 "phys-introspect: no command given"
	run -2 phys-introspect filtre x
	assert_line --index 0 "phys-introspect: unknown command 'filtre'; did you mean filter?"
	run -2 phys-introspect filter --bogus x
	run -2 phys-introspect filter -f "$RUN"
	assert_line --index 0 "phys-introspect: filter: no SELECTOR given"
	run -2 phys-introspect derive 'box::link/pose.z' -f "$RUN"
	assert_line --index 0 "phys-introspect: derive: no NAME=EXPR given"
	run -2 phys-introspect at -f "$RUN"
	run -2 phys-introspect at soon -f "$RUN"
	run -2 phys-introspect diff --csv "$RUN" "$RUN"
	assert_line --index 0 "phys-introspect: diff: --csv does not apply"
	run -2 phys-introspect filter --csv --tsv x -f "$RUN"
	run -2 phys-introspect filter --every 0 x -f "$RUN"
	run -2 phys-introspect filter --rate -1 x -f "$RUN"
	run -2 phys-introspect filter --window two x -f "$RUN"
	run -2 phys-introspect filter --from 2 --to 1 x -f "$RUN"
	run -2 phys-introspect filter x -f - -f -
	run -2 phys-introspect diff - - x
	run -2 phys-introspect derive 'a=1' 'a=2' -f "$RUN"
}

@test "--help gives the synopsis of the man page; --version" {
	run -0 phys-introspect --help
	assert_line --index 0 "usage: phys-introspect filter [OPTION]... SELECTOR..."
	usage=$(printf '%s\n' "$output" | sed -n '/^usage:/,/^$/p' | sed '/^$/d; s/^usage: //; s/^ *//')
	man="$BATS_TEST_DIRNAME/../man/phys-introspect.1"
	synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" | sed '/^\./d' |
		sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\&//g')
	assert_equal "$synopsis" "$usage"
	run -0 phys-introspect --version
	assert_output --regexp '^phys-introspect [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "a closed pipe ends quietly; output is the same run to run" {
	run -0 bash -c 'yes "$(head -n 1 "$1")" | head -n 100000 |
		phys-introspect filter "*" 2>"$2" | head -n 1 >/dev/null; cat "$2"' _ "$RUN" "$BATS_TEST_TMPDIR/err"
	assert_output ""
	a=$(phys-introspect filter '*' --csv -f "$RUN")
	b=$(phys-introspect filter '*' --csv -f "$RUN")
	assert_equal "$a" "$b"
}

# ---- items of a world, and derived quantities checked physically ----

@test "items: every item of a world with type, units and fields" {
	run phys-introspect items "$WORLDS/pendulum.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *'{"name":"sim_time","type":"double","units":"s","fields":[]'* ]]
	[[ "$output" == *'{"name":"pendulum::bob/pose","type":"pose","units":"m, rad","fields":["x","y","z","roll","pitch","yaw"]'* ]]
	[[ "$output" == *'{"name":"pendulum::pivot/position","type":"axes","units":"rad or m","fields":["0"]'* ]]
	[[ "$output" == *'"name":"pendulum/kinetic_energy","type":"double","units":"J"'* ]]
	# phys-step can produce every one of them
	names=$(phys-introspect items "$WORLDS/pendulum.sdf" | jq -r .name | sort)
	args=$(printf -- "-i %s " $names)
	phys-step -n 3 $args "$WORLDS/pendulum.sdf" | tail -1 | jq -r '.items | keys[]' | sort > "$TMP/got"
	[ "$names" = "$(cat "$TMP/got")" ]
	# globs select; an unmatched glob is an error
	[ "$(phys-introspect items "$WORLDS/pendulum.sdf" '*/position' | jq -r .name)" = pendulum::pivot/position ]
	run phys-introspect items "$WORLDS/pendulum.sdf" 'nothing*'
	[ "$status" -eq 1 ]
}

@test "a free-falling link reports linear_accel.z = -g and force = m a" {
	phys-step -t 0.5 -r 4 -i 'ball::link/linear_accel' -i 'ball::link/force' "$WORLDS/falling_sphere.sdf" |
	    phys-introspect filter --csv 'ball::link/linear_accel.z' 'ball::link/force.z' > "$TMP/a.csv"
	[ "$(head -1 "$TMP/a.csv")" = 'sim_time,ball::link/linear_accel.z,ball::link/force.z' ]
	tail -n +3 "$TMP/a.csv" | while IFS=, read -r t a f; do
		near "$a" -9.81 1e-9
		near "$f" -9.81 1e-9
	done
}

@test "a body resting on a plane reports a net force near zero and a contact" {
	phys-step -t 1 -r 4 -i 'ball::link/force' -i contacts "$WORLDS/resting_sphere.sdf" > "$TMP/r"
	fz=$(phys-introspect at 1 'ball::link/force.z' < "$TMP/r" | jq '.items["ball::link/force.z"] // .items["ball::link/force"].z')
	near "$fz" 0 1e-6
	[ "$(phys-introspect at 1 contacts < "$TMP/r" | jq '.items.contacts')" -ge 1 ]
}

@test "derive: a pendulum's height from its pose follows its potential energy" {
	phys-step -t 1 -r 10 -i 'pendulum::bob/pose' -i 'pendulum/potential_energy' "$WORLDS/pendulum.sdf" |
	    phys-introspect derive 'pe=9.81 * 1 * pendulum::bob/pose.z' 'd=pe - pendulum/potential_energy' --csv > "$TMP/d"
	tail -n +2 "$TMP/d" | while IFS=, read -r t pe d; do near "$d" 0 1e-9; done
}
