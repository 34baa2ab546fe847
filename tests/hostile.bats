#!/usr/bin/env bats
# Hostile input: values out of range, deep expressions, duplicate keys,
# overflowing and invalid inertia. Each case failed before it was fixed;
# the fuzz harnesses in fuzz/ keep looking for more.

load helper

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
	[ "$status" -eq 2 ]	# an option's value: a usage error
	assert_output "phys-step: $want"
	echo '{"t":0,"name":"iters","value":4294967297}' > "$TMP/c"
	run timeout 20 phys-step -n 1 -c "$TMP/c" "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: $TMP/c:1: ode.solver.iters: 4294967297 is above the maximum 1000000"
	run phys-param set "$WORLDS/falling_sphere.sdf" ode.solver.iters=2147483648
	[ "$status" -eq 1 ]
	assert_output "phys-param: $want"
	printf '%s\n' '{"name":"iters","value":1}' '{"name":"iters","value":2147483648}' > "$TMP/p"
	run phys-param set --from "$TMP/p" "$WORLDS/falling_sphere.sdf"
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
	[ "$status" -eq 2 ]
	assert_output "phys-step: max_contacts: 2147483648 is above the maximum 2147483647"
	# the registry states the maximum of every int parameter
	run sh -c "phys-param list --doc | jq -r 'select(.type == \"int\" and .max == null) | .name'"
	[ "$status" -eq 0 ]
	assert_output ""
}

@test "max_step_size 0 or 1e-300 is refused; 1e-6 s is the documented bound" {
	for h in 0 1e-300 9.99e-07; do
		run timeout 20 phys-step -n 1 -s max_step_size=$h "$WORLDS/falling_sphere.sdf"
		[ "$status" -eq 2 ]
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
	run phys-param set -i "$TMP/w.sdf" ball::link/inertial.mass=0
	[ "$status" -eq 1 ]
	assert_output "phys-param: inertial.mass: 0 must be above 0"
	cmp "$TMP/w.sdf" "$WORLDS/falling_sphere.sdf"
	# a glob stops at the first bad value and writes nothing
	run phys-param set -i "$TMP/w.sdf" '*/inertial.mass=-1'
	[ "$status" -eq 1 ]
	cmp "$TMP/w.sdf" "$WORLDS/falling_sphere.sdf"
	# the same rule at load and in control lines
	sed 's|<mass>1</mass>|<mass>0</mass>|' "$WORLDS/falling_sphere.sdf" > "$TMP/z.sdf"
	run phys-step -n 1 "$TMP/z.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"inertial.mass: 0 must be above 0" ]]
	# the smallest positive mass is a mass
	run phys-param set "$WORLDS/falling_sphere.sdf" ball::link/inertial.mass=1e-9
	[ "$status" -eq 0 ]
	phys-param list --doc "$WORLDS/falling_sphere.sdf" 'ball::link/inertial.mass' | jq -e '.exclusive_min == 0 and .min == null'
}
