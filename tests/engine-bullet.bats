#!/usr/bin/env bats
# The Bullet engine: what it refuses, and Gazebo's worlds with a <bullet>
# block. What every engine does (the closed-form cases, switching, its
# parameters reaching it, joints, geometry) is checked under it in
# tests/engine-conformance.bats.

load helper

W="$WORLDS/closed_forms.sdf"

@test "Bullet refuses what it cannot run, naming the element and line" {
	sed -e 's|<joint name="slider" type="prismatic">|<joint name="slider" type="screw"><thread_pitch>10</thread_pitch>|' \
	    -e 's|</joint>\(.*\)$|</joint>\1|' "$W" > "$TMP/screw.sdf"
	line=$(grep -n 'type="screw"' "$TMP/screw.sdf" | cut -d: -f1)
	run phys-step -p bullet -n 1 "$TMP/screw.sdf"
	assert_failure 1
	assert_output --partial "screw.sdf:$line: joint 'spring::slider': the Bullet engine runs no screw or gearbox joint"
	# the same world runs under ODE
	run phys-step -p ode -n 1 "$TMP/screw.sdf"
	assert_success
}

@test "Gazebo's worlds with a <bullet> block step under Bullet as under ODE" {
	need_reference
	local w n=0
	for w in inertia_ratio_pendulum presets; do
		# their ODE profiles, typed as Bullet: the <bullet> blocks apply
		sed 's/type="ode"/type="bullet"/' "$REF/gazebo-worlds/$w.world" > "$TMP/$w.world"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$REF/gazebo-worlds/$w.world" 2>/dev/null | tail -1 > "$TMP/ode"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$TMP/$w.world" 2>/dev/null > "$TMP/bul"
		[ "$(head -1 "$TMP/bul" | jq -r .engine.solver)" = sequential_impulse ]
		# every link ends within 1 cm of where ODE puts it
		paste <(tail -1 "$TMP/ode" | jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"') \
		      <(tail -1 "$TMP/bul" | jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"') |
			awk '$1 != $5 { exit 2 } { d = ($2-$6)^2 + ($3-$7)^2 + ($4-$8)^2; if (d > 1e-4) { print "differ: " $0; bad = 1 } n++ }
			    END { if (!n) exit 3; exit bad }'
		n=$((n + 1))
	done
	[ "$n" -eq 2 ]
}
