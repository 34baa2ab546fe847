#!/usr/bin/env bats
# Hostile input: values out of range, deep expressions, duplicate keys,
# overflowing and invalid inertia. Each case failed before it was fixed;
# the fuzz harnesses in fuzz/ keep looking for more.

load helper
bats_require_minimum_version 1.5.0

setup() {
	TMP="$BATS_TEST_TMPDIR"
}

# first_engine WORLD ARGS...: the engine settings of a run's first line.
first_engine() {
	phys-step -n 1 "$@" | head -1 | jq -c .engine
}

# ---- issue 10 item 3: integer and step ranges, one rule on every path --

@test "iters above INT_MAX is refused in SDF, -s, control lines and phys-param set" {
	sed 's|<iters>50</iters>|<iters>2147483648</iters>|' "$WORLDS/falling_sphere.sdf" > "$TMP/w.sdf"
	line=$(grep -n 2147483648 "$TMP/w.sdf" | cut -d: -f1)
	want="ode.solver.iters: 2147483648 is above the maximum 1000000"
	run timeout 20 phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: $TMP/w.sdf:$line: $want"
	run timeout 20 phys-step -n 1 -s iters=2147483648 "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]	# a parameter's value: status 1 on every path
	assert_output "phys-step: $want"
	echo '{"t":0,"name":"iters","value":4294967297}' > "$TMP/c"
	run timeout 20 phys-step -n 1 -c "$TMP/c" "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: $TMP/c:1: ode.solver.iters: 4294967297 is above the maximum 1000000"
	run phys-param set "$WORLDS/falling_sphere.sdf" ode.solver.iters=2147483648
	[ "$status" -eq 1 ]
	assert_output "phys-param: $want"
	printf '%s\n' '{"name":"iters","value":1}' '{"name":"iters","value":2147483648}' > "$TMP/p"
	run phys-param set --file "$TMP/p" "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-param: $TMP/p:2: $want"
	# digits beyond a long are out of range too, not "not an int"
	run phys-step -n 1 -s iters=99999999999999999999999 "$WORLDS/falling_sphere.sdf"
	assert_output "phys-step: ode.solver.iters: 99999999999999999999999 is above the maximum 1000000"
}

@test "the largest iters reaches the engine unchanged; every int has a maximum" {
	[ "$(first_engine -s iters=1000000 "$WORLDS/falling_sphere.sdf" | jq .iters)" = 1000000 ]
	[ "$(first_engine -s max_contacts=2147483647 "$WORLDS/falling_sphere.sdf" | jq .max_contacts)" = 2147483647 ]
	run phys-step -n 1 -s max_contacts=2147483648 "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: max_contacts: 2147483648 is above the maximum 2147483647"
	# the registry states the maximum of every int parameter
	run sh -c "phys-param list --doc | jq -r 'select(.type == \"int\" and .max == null) | .name'"
	[ "$status" -eq 0 ]
	assert_output ""
}

@test "max_step_size 0 or 1e-300 is refused; 1e-6 s is the documented bound" {
	for h in 0 1e-300 9.99e-07; do
		run timeout 20 phys-step -n 1 -s max_step_size=$h "$WORLDS/falling_sphere.sdf"
		[ "$status" -eq 1 ]
		assert_output "phys-step: max_step_size: $h is below the minimum 1e-06"
		run phys-param set "$WORLDS/falling_sphere.sdf" max_step_size=$h
		[ "$status" -eq 1 ]
	done
	# the bound itself runs: two steps of 1 microsecond
	[ "$(phys-step -n 2 -s max_step_size=1e-6 "$WORLDS/falling_sphere.sdf" | tail -1 | jq .t)" = 2e-06 ]
	grep -q 'default 0.001, at least 1e-06' "$BATS_TEST_DIRNAME/../man/phys-params.7"
}

@test "a mass of 0 is refused by phys-param set, as phys-step refuses it" {
	cp "$WORLDS/falling_sphere.sdf" "$TMP/w.sdf"
	run phys-param set --in-place "$TMP/w.sdf" ball::link/inertial.mass=0
	[ "$status" -eq 1 ]
	assert_output "phys-param: inertial.mass: 0 must be above 0"
	cmp "$TMP/w.sdf" "$WORLDS/falling_sphere.sdf"
	# a glob stops at the first bad value and writes nothing
	run phys-param set --in-place "$TMP/w.sdf" '*/inertial.mass=-1'
	[ "$status" -eq 1 ]
	cmp "$TMP/w.sdf" "$WORLDS/falling_sphere.sdf"
	# the same rule on the command line; a file's mass of 0 is valid SDF,
	# run with a stand-in mass and a warning (tests/sdf-frames.bats), the
	# mass of its shapes where its model has no other
	# (tests/engine-conformance.bats)
	run phys-step -n 1 -s 'ball::link/inertial.mass=0' "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"inertial.mass: 0 must be above 0" ]]
	sed 's|<mass>1</mass>|<mass>0</mass>|' "$WORLDS/falling_sphere.sdf" > "$TMP/z.sdf"
	run --separate-stderr phys-step -n 1 "$TMP/z.sdf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"model 'ball': none of its links has a mass: its 1 moving link runs with the mass and inertia of its collision shapes at 1000 kg/m^3"* ]]
	# the smallest positive mass is a mass
	run phys-param set "$WORLDS/falling_sphere.sdf" ball::link/inertial.mass=1e-9
	[ "$status" -eq 0 ]
	phys-param list --doc "$WORLDS/falling_sphere.sdf" 'ball::link/inertial.mass' | jq -e '.exclusive_min == 0 and .min == null'
}

# ---- item 7: every recursive path of the expression parser is bounded --

# derive_deep EXPR: derive on a 1 MiB stack, where the unbounded parser
# crashed long before 60000 levels.
derive_deep() {
	run bash -c 'ulimit -s 1024; exec phys-introspect derive "$1" < "$2"' _ "$1" \
	    "$BATS_TEST_DIRNAME/data/introspect-run.jsonl"
}

@test "derive refuses a long a^a^a chain and deep signs, calls and parentheses" {
	local e
	for e in "$(printf 'sim_time^%.0s' $(seq 12000))1" \
	    "$(printf -- '-%.0s' $(seq 60000))1" \
	    "$(printf -- '-(%.0s' $(seq 30000))1$(printf ')%.0s' $(seq 30000))" \
	    "$(printf 'abs(%.0s' $(seq 20000))1$(printf ')%.0s' $(seq 20000))" \
	    "$(printf '(%.0s' $(seq 60000))1$(printf ')%.0s' $(seq 60000))" \
	    "$(printf '2^-%.0s' $(seq 30000))1"; do
		derive_deep "x=$e"
		[ "$status" -eq 2 ]
		[[ "${lines[0]}" == "phys-introspect: expression 1, column "*": expression nested too deeply" ]]
	done
}

@test "nesting up to the limit still computes: 199 parentheses, 60 signs, 60 powers" {
	derive_deep "x=$(printf '(%.0s' $(seq 199))sim_time+1$(printf ')%.0s' $(seq 199))"
	[ "$status" -eq 0 ]
	[ "$(jq -s -c 'map(.items.x)' <<<"$output")" = "$(jq -s -c 'map(.items.sim_time + 1)' "$BATS_TEST_DIRNAME/data/introspect-run.jsonl")" ]
	# 60 minus signs are an even number: the value itself
	derive_deep "x=$(printf -- '-%.0s' $(seq 60))2"
	[ "$(jq -r .items.x <<<"${lines[0]}")" = 2 ]
	# 1^1^...^2 is 1 whatever the association; 2^1^1^... is 2
	derive_deep "x=2$(printf '^1%.0s' $(seq 60))"
	[ "$(jq -r .items.x <<<"${lines[0]}")" = 2 ]
}

# ---- item 11: max() and min() of many arguments, overflowing moments --

@test "max and min take any number of arguments from two on" {
	args=$(seq -s, 0 99)
	run phys-introspect derive "a=max($args)" "b=min($args)" "c=max(sim_time,$args,-5)" \
	    < "$BATS_TEST_DIRNAME/data/introspect-run.jsonl"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.items.a, .items.b, .items.c]' <<<"${lines[0]}")" = '[99,0,99]' ]
	run phys-introspect derive 'a=max(1)' < "$BATS_TEST_DIRNAME/data/introspect-run.jsonl"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "phys-introspect: expression 1, column 3: max takes at least 2 arguments" ]
}

@test "principal: moments beyond the largest double are an error, not null" {
	run --separate-stderr phys-inertia principal <<<'{"mass":1,"ixx":1e308,"iyy":1e308,"izz":1e308,"ixy":1e308,"ixz":1e308,"iyz":1e308}'
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "phys-inertia: <stdin>:1: inertia tensor too large: a principal moment is beyond the largest double" ]
	# moments 1e308, 1e308 and 1.6e308: still doubles
	run phys-inertia principal <<<'{"mass":1,"ixx":1.2e308,"iyy":1.2e308,"izz":1.2e308,"ixy":2e307,"ixz":2e307,"iyz":2e307}'
	[ "$status" -eq 0 ]
	rel "$(jq '.moments[2]' <<<"$output")" 1.6e308 1e-12
}

# ---- item 12: principal says when an inertia is physically invalid ----

@test "principal: bad mass, zero or negative moments, the triangle inequality and indefinite tensors are invalid" {
	local l
	while IFS='|' read -r l reason; do
		run phys-inertia principal <<<"$l"
		[ "$status" -eq 1 ]
		[ "$(jq -r .valid <<<"$output")" = false ]
		[[ "$(jq -r .reason <<<"$output")" == "$reason"* ]]
	done <<'LINES'
{"mass":0,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}|mass must be positive (got 0)
{"mass":-2,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}|mass must be positive (got -2)
{"mass":1,"ixx":0,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}|not positive definite: principal moments 0, 1, 1
{"mass":1,"ixx":-1,"iyy":2,"izz":2,"ixy":0,"ixz":0,"iyz":0}|not positive definite: principal moments -1, 2, 2
{"mass":1,"ixx":1,"iyy":1,"izz":3,"ixy":0,"ixz":0,"iyz":0}|triangle inequality broken: I1 + I2 < I3 (1 + 1 < 3)
{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":2,"ixz":0,"iyz":0}|not positive definite: principal moments -1, 1, 3
LINES
	# a flat plate sits on the triangle inequality and is valid
	run phys-inertia principal --mass 1 --ixx 1 --iyy 2 --izz 3
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.valid, .reason]' <<<"$output")" = '[true,null]' ]
}

@test "principal: every line is written, the invalid ones marked, and the status is 1" {
	printf '%s\n' '{"mass":1,"ixx":1,"iyy":2,"izz":2.5,"ixy":0,"ixz":0,"iyz":0}' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":3,"ixy":0,"ixz":0,"iyz":0}' \
	    '{"mass":2,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}' > "$TMP/in"
	run --separate-stderr phys-inertia principal "$TMP/in"
	[ "$status" -eq 1 ]
	[ "$stderr" = "" ]
	[ "$(jq -s -c 'map(.valid)' <<<"$output")" = '[true,false,true]' ]
	# as check says of the same tensor in a world
	run phys-inertia principal --mass 1 --ixx 1 --iyy 1 --izz 3
	[ "$status" -eq 1 ]
}

# ---- item 9: duplicate keys in state lines, on the fast path too -------

@test "state lines with a duplicate key are refused with line and column by every reader" {
	local l col
	while IFS='|' read -r col l; do
		printf '%s\n' '{"t":0,"items":{"a":1,"b":{"x":1}}}' "$l" > "$TMP/s"
		for cmd in "filter --csv a" "filter a" "derive z=a" "at 5 a"; do
			run phys-introspect $cmd < "$TMP/s"
			[ "$status" -eq 1 ] || fail "$cmd accepted $l"
			assert_output --partial "phys-introspect: <stdin>:2: bad JSON at column $col: duplicate object key"
		done
	done <<'LINES'
31|{"t":0,"items":{"a":1,"b":2,"a":3}}
36|{"t":0,"items":{"a":{"x":1,"y":2,"x":3}}}
22|{"t":0,"iter":1,"iter":2,"items":{"a":1}}
31|{"t":0,"engine":{"g":{"x":1,"x":2}},"items":{"a":1}}
26|{"t":0,"items":{"a":1},"t":1}
LINES
}

@test "items that differ only past a hash collision or in kind are still told apart" {
	# a thousand items, and an object and a scalar with distinct names
	jq -nc '{t: 0, items: ([range(1000) | {key: "m\(.)::link/x", value: .}] | from_entries + {"o": {"x": 1, "y": 2}})}' > "$TMP/s"
	run phys-introspect filter --csv 'm999::link/x' 'o.y' < "$TMP/s"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "0,999,2" ]
}

@test "an error past line 65535 names its element's own line, not 65535" {
	{
		echo '<?xml version="1.0"?>'
		echo '<sdf version="1.7"><world name="w">'
		awk 'BEGIN { for (i = 0; i < 70000; i++) print "" }'
		echo '<model name="m"><pose>1 2</pose><link name="l"/></model>'
		echo '<model name="m"><link name="l"/></model>'
		echo '</world></sdf>'
	} > "$TMP/w.sdf"
	run phys-param get iters "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-param: $TMP/w.sdf:70003: <pose>: expected 6 numbers (x y z roll pitch yaw)"
	sed -i 's|<pose>1 2</pose>||' "$TMP/w.sdf"
	run phys-param get iters "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-param: $TMP/w.sdf:70004: "* ]]
}

@test "elements nested past 256, in SDF and MJCF, are refused in the user's words, not the XML library's" {
	awk 'BEGIN { printf "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\">"
		for (i = 0; i < 300; i++) printf "<a>"; for (i = 0; i < 300; i++) printf "</a>"
		print "</world></sdf>" }' > "$TMP/deep.sdf"
	# a rope of 300 nested bodies: MuJoCo 2.2.2 refuses it too
	awk 'BEGIN { printf "<mujoco><worldbody>"
		for (i = 0; i < 300; i++) printf "<body><joint/><geom size=\"0.01\"/>"
		for (i = 0; i < 300; i++) printf "</body>"
		print "</worldbody></mujoco>" }' > "$TMP/rope.xml"
	local f
	for f in deep.sdf rope.xml; do
		run -1 --separate-stderr phys-step -n 1 "$TMP/$f"
		assert_equal "$stderr" "phys-step: $TMP/$f:1: malformed XML: elements nested deeper than 256, more than phys reads"
	done
}
