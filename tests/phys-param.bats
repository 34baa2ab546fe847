#!/usr/bin/env bats
# phys-param: the registry, lossless edits, and parameters changed at run time.

load helper
bats_require_minimum_version 1.5.0

@test "list without a world: every registry row, its name, type, alias, scope and units; --doc all its facts" {
	# plain: what a parameter is called and measured in, no more
	phys-param list > "$TMP/short"
	[ "$(jq -c 'select(.name == "ode.solver.iters")' "$TMP/short")" = \
	    '{"name":"ode.solver.iters","type":"int","alias":"iters","scope":"physics","units":""}' ]
	[ "$(jq -r 'keys_unsorted | join(",")' "$TMP/short" | sort -u | tr '\n' ' ')" = \
	    "name,type,alias,scope,units name,type,scope,units " ]
	phys-param list --doc > "$TMP/reg"
	[ "$(wc -l < "$TMP/reg")" -eq "$(wc -l < "$TMP/short")" ]
	# physics, world, link, collision and joint parameters, each scope's
	# names listed once (the physics ones are checked against SDFormat below)
	[ "$(jq -r .scope "$TMP/reg" | sort -u | tr '\n' ' ')" = "collision joint link physics world " ]
	row() { jq -e -s --arg n "$1" "map(select(.name == \$n))[0] | $2" "$TMP/reg"; }
	row ode.solver.iters '.alias == "iters" and .type == "int" and .default == 50 and .min == 1 and .ode == "native"'
	row ode.constraints.erp '.min == 0 and .max == 1 and .units == "1"'
	row ode.solver.friction_model '.values == ["pyramid_model","box_model","cone_model"]'
	row ode.solver.precon_iters '.ode == "inert"'
	row bullet.solver.iters '.engines == ["bullet"]'
	! row ode.solver.iters '.ode == "inert"' || false
	# every row documents itself
	[ "$(jq -r 'select(.doc == "" or .units == null) | .name' "$TMP/reg" | wc -l)" -eq 0 ]
	# globs and aliases select
	[ "$(phys-param list 'ode.constraints.*' | wc -l)" -eq 4 ]
	[ "$(phys-param list cfm | jq -r .name)" = ode.constraints.cfm ]
}

@test "list WORLD GLOB: instances with values; --doc adds the docs" {
	run phys-param list "$WORLDS/sliding_box.sdf" '*::link/inertial.*'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 16 ]
	[[ "$output" == *'{"name":"box::link/inertial.mass","type":"double","value":1}'* ]]
	[[ "$output" == *'{"name":"box::link/inertial.inertia.ixx","type":"double","value":0.006666666666666667}'* ]]
	[ "$(phys-param list "$WORLDS/pendulum.sdf" iters | jq -c '[.preset, .value]' | tr '\n' ' ')" = '["quick",100] ["world",50] ' ]
	phys-param list --doc "$WORLDS/sliding_box.sdf" 'box::link::collision/surface.friction.ode.mu' > "$TMP/l"
	jq -e -s '.[0] | .value == 0.5 and .units == "1" and .min == 0 and (.doc | length) > 10' "$TMP/l"
}

@test "get: current values, the specification's default marked" {
	run phys-param get iters sor 'box::link::collision/surface.friction.ode.mu' \
	    'box::link::collision/surface.contact.ode.kp' gravity "$WORLDS/sliding_box.sdf"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '{"name":"ode.solver.iters","type":"int","value":50,"preset":"pyramid"}' ]
	[ "${lines[1]}" = '{"name":"ode.solver.sor","type":"double","value":1.3,"is_default":true,"preset":"pyramid"}' ]
	[ "${lines[2]}" = '{"name":"box::link::collision/surface.friction.ode.mu","type":"double","value":0.5}' ]
	[ "${lines[3]}" = '{"name":"box::link::collision/surface.contact.ode.kp","type":"double","value":1000000000000,"is_default":true}' ]
	[ "${lines[4]}" = '{"name":"gravity","type":"vector3","value":{"x":0,"y":0,"z":-9.81}}' ]
	[ "$(phys-param get -p box friction_model "$WORLDS/sliding_box.sdf" | jq -r .value)" = box_model ]
}

@test "set: only the changed lines change" {
	# inertia.follow=none: the mass alone (the tensor would follow it)
	phys-param set iters=80 'box::link/inertia.follow=none' 'box::link/inertial.mass=2.5' "$WORLDS/sliding_box.sdf" > "$TMP/o.sdf"
	diff "$WORLDS/sliding_box.sdf" "$TMP/o.sdf" > "$TMP/d" || true
	[ "$(grep -c '^<' "$TMP/d")" -eq 2 ]
	[ "$(grep -c '^>' "$TMP/d")" -eq 2 ]
	grep -q '^>           <iters>80</iters>$' "$TMP/d"
	grep -q '^>           <mass>2.5</mass>$' "$TMP/d"
	# the first profile was the starting one; the other is untouched
	[ "$(phys-param get -p box iters "$TMP/o.sdf" | jq .value)" -eq 50 ]
}

@test "set: an absent element is inserted where the specification places it" {
	phys-param set sor=1.1 contact_surface_layer=0.003 "$WORLDS/pendulum.sdf" > "$TMP/o.sdf"
	# <sor> after <iters>; a new <constraints> block after <solver>
	awk '/<physics name="quick"/, /<\/physics>/' "$TMP/o.sdf" > "$TMP/p"
	cat > "$TMP/want" <<'EOF'
    <physics name="quick" type="ode" default="true">
      <max_step_size>0.001</max_step_size>
      <ode>
        <solver>
          <type>quick</type>
          <iters>100</iters>
          <sor>1.1</sor>
        </solver>
        <constraints>
          <contact_surface_layer>0.003</contact_surface_layer>
        </constraints>
      </ode>
    </physics>
EOF
	diff "$TMP/want" "$TMP/p"
	[ "$(phys-param get sor contact_surface_layer "$TMP/o.sdf" | jq -c .value | tr '\n' ' ')" = "1.1 0.003 " ]
}

# glob_set_changes_each_mu WORLD BOX: setting every collision's mu edits
# each <mu>0.3</mu> line of WORLD and no other; BOX's reads back 0.8.
glob_set_changes_each_mu() {
	run --separate-stderr phys-param set '*::collision/surface.friction.ode.mu=0.8' "$1"
	[ "$status" -eq 0 ]
	# the ground comes from an included file: skipped, and said so
	[[ "$stderr" == *"skipped 1 parameter of included models"* ]]
	printf '%s\n' "$output" > "$TMP/o.world"
	n=$(diff "$1" "$TMP/o.world" | grep -c '^>')
	[ "$n" -eq "$(grep -c '<mu>0.3</mu>' "$1")" ]
	head -2 "$TMP/o.world" | cmp - <(head -2 "$1")
	[ "$(phys-param get "$2/surface.friction.ode.mu" "$TMP/o.world" | jq .value)" = 0.8 ]
}

@test "set with a glob changes every match; comments and quoting survive" {
	glob_set_changes_each_mu "$WORLDS/friction_pyramid.sdf" 'boxes::box_3::link::collision'
}

@test "set with a glob on Gazebo's friction_pyramid.world" {
	need_reference
	glob_set_changes_each_mu "$REF/gazebo-worlds/friction_pyramid.world" 'boxes::box_3::link_1::collision'
}

@test "get | set --file - copies values between worlds" {
	phys-param get iters 'ode.constraints.*' "$WORLDS/presets.sdf" 2>/dev/null |
	    phys-param set --file - "$WORLDS/pendulum.sdf" > "$TMP/o.sdf"
	[ "$(phys-param get iters cfm erp contact_max_correcting_vel "$TMP/o.sdf" | jq -c .value | tr '\n' ' ')" = "50 0.01 0.3 200 " ]
}

@test "errors: wrong type, out of range, unknown name, missing entity — exit 1, file untouched" {
	cp "$WORLDS/pendulum.sdf" "$TMP/w.sdf"
	cp "$TMP/w.sdf" "$TMP/orig.sdf"
	run --separate-stderr phys-param set --in-place iters=lots "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[ "$stderr" = 'phys-param: ode.solver.iters: "lots" is not an int' ]
	run --separate-stderr phys-param set --in-place erp=1.5 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"1.5 is above the maximum 1"* ]]
	run --separate-stderr phys-param set --in-place 'pendulum::bob/inertial.mas=3' "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no link parameter 'inertial.mas' (did you mean inertial.mass"* ]]
	run --separate-stderr phys-param set --in-place 'pendulum::bbo/inertial.mass=3' "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no entity named 'pendulum::bbo' (did you mean pendulum::bob?)"* ]]
	run --separate-stderr phys-param set --in-place iters=3 'gravity=0 0' "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	cmp "$TMP/w.sdf" "$TMP/orig.sdf"
	[ "$(ls -A "$TMP" | grep -c '^\.')" -eq 0 ]
	phys-param set --in-place iters=3 "$TMP/w.sdf"
	[ "$(phys-param get iters "$TMP/w.sdf" | jq .value)" -eq 3 ]
}

@test "an entity from an included file is refused with the file to edit" {
	run --separate-stderr phys-param set 'floor::link::collision/surface.friction.ode.mu=2' "$WORLDS/friction_pyramid.sdf"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"is defined in the included file"*"floor/model.sdf"* ]]
}

@test "doc: the generated manual page is the one shipped" {
	phys-param doc > "$TMP/p.7"
	diff -u "$BATS_TEST_DIRNAME/../man/phys-params.7" "$TMP/p.7"
	# entries as the page must read them (written out by hand from the
	# SDFormat defaults and ranges, and the bounds that keep a run finite:
	# at most 10^6 solver iterations, a mass above 0)
	grep -A1 -Fx '.B ode.solver.iters \fR(iters)\fP' "$TMP/p.7" | tail -1 |
	    grep -Fx 'int, default 50, from 1 to 1000000; ode; ODE: native; Bullet: another engine'\''s; MuJoCo: another engine'\''s; Simbody: another engine'\''s; DART: another engine'\''s.'
	grep -A1 -Fx '.B ode.constraints.erp \fR(erp)\fP' "$TMP/p.7" | tail -1 |
	    grep -Fx 'double, 1, default 0.2, from 0 to 1; ode; ODE: native; Bullet: another engine'\''s; MuJoCo: another engine'\''s; Simbody: another engine'\''s; DART: another engine'\''s.'
	grep -A1 -Fx '.B ode.solver.precon_iters \fR(precon_iters)\fP' "$TMP/p.7" | tail -1 |
	    grep -Fx 'int, default 0, from 0 to 1000000; ode; ODE: inert; Bullet: another engine'\''s; MuJoCo: another engine'\''s; Simbody: another engine'\''s; DART: another engine'\''s.'
	grep -A1 -Fx '.B bullet.solver.iters' "$TMP/p.7" | tail -1 |
	    grep -Fx 'int, default 50, from 1 to 1000000; bullet; ODE: another engine'\''s; Bullet: native; MuJoCo: another engine'\''s; Simbody: another engine'\''s; DART: another engine'\''s.'
	grep -A1 -Fx '.B surface.friction.bullet.friction2' "$TMP/p.7" | tail -1 | grep -q 'Bullet: inert; MuJoCo: another engine'\''s; Simbody: another engine'\''s; DART: another engine'\''s\.$'
	grep -A1 -Fx '.B inertial.mass' "$TMP/p.7" | tail -1 |
	    grep -Fx 'double, kg, default 1, above 0; all engines; ODE: native; Bullet: native; MuJoCo: native; Simbody: native; DART: native.'
	# one entry per parameter phys-param list knows, none twice in a scope
	[ "$(grep -c '^\.TP' "$TMP/p.7")" -eq "$(phys-param list | wc -l)" ]
	[ -z "$(phys-param list | jq -r '"\(.scope) \(.name)"' | sort | uniq -d)" ]
}

@test "the physics profile parameters are SDFormat's, with its defaults" {
	local spec=/usr/share/sdformat12/1.9/physics.sdf

	[ -f "$spec" ] || skip "SDFormat's own physics.sdf is not installed (sdformat-sdf)"
	# each <element> with a default, as a dotted path below <physics>
	tr '\n\t' '  ' < "$spec" | awk 'BEGIN { RS = "<" }
		/^element / {
			name = $0; sub(/.*name="/, "", name); sub(/".*/, "", name)
			path[++d] = name
			if ($0 ~ / default="/) {
				def = $0; sub(/.* default="/, "", def); sub(/".*/, "", def)
				p = path[2]; for (i = 3; i <= d; i++) p = p "." path[i]
				print p "\t" def
			}
			if ($0 ~ /\/>/) d--
		}
		/^\/element/ { d-- }' | sort > "$TMP/spec"
	[ "$(wc -l < "$TMP/spec")" -ge 30 ]
	# all but phys's own, the mujoco engine's block
	phys-param list --doc | jq -r 'select(.scope == "physics" and .engines != ["mujoco"]) |
	    [.name, (.default | tostring)] | @tsv' | sort > "$TMP/reg"
	diff <(cut -f1 "$TMP/spec") <(cut -f1 "$TMP/reg")
	# the same defaults, numbers compared as numbers ("1.0" is 1)
	join -t "$(printf '\t')" "$TMP/spec" "$TMP/reg" > "$TMP/both"
	[ "$(wc -l < "$TMP/both")" -eq "$(wc -l < "$TMP/spec")" ]
	awk -F'\t' '
		$2 != $3 && !($2 ~ /^[-+0-9.eE]+$/ && $2 + 0 == $3 + 0) {
			print $1 ": the specification says " $2 ", phys " $3; bad = 1 }
		END { exit bad }' "$TMP/both"
}

# ---- at run time: the change reaches ODE and shows physically ----

@test "more damping, set by a control line, slows a pendulum's swing" {
	phys-step -t 4 -r 1000 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" |
	    jq -r '[.t, .items["pendulum::bob/pose"].roll] | @tsv' > "$TMP/free"
	echo '{"t":1,"name":"pendulum::pivot/axis.dynamics.damping","value":0.05}' > "$TMP/ctl"
	phys-step -t 4 -r 1000 -c "$TMP/ctl" -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" |
	    jq -r '[.t, .items["pendulum::bob/pose"].roll] | @tsv' > "$TMP/damped"
	# |roll| at each turning point after t
	peaks() { awk -v t0="$2" '{ v = $2 < 0 ? -$2 : $2 } NR > 2 && $1 > t0 && pv >= ppv && pv > v { print pv } { ppv = pv; pv = v }' "$1"; }
	[ "$(peaks "$TMP/free" 0 | head -1)" = "$(peaks "$TMP/damped" 0 | head -1)" ]
	# undamped: every swing as wide as the first
	peaks "$TMP/free" 1 | while read -r a; do rel "$a" 0.05 0.002; done
	# damped: each half swing shrinks by exp(-c T / (4 I)), c = 0.05, I = 0.26
	ratio=$(awk 'BEGIN { print exp(-0.05 * 1.4466 / (4 * 0.26)) }')
	peaks "$TMP/damped" 1.1 | awk 'NR > 1 { print $1 / p } { p = $1 }' > "$TMP/r"
	[ "$(wc -l < "$TMP/r")" -ge 3 ]
	while read -r q; do rel "$q" "$ratio" 0.01; done < "$TMP/r"
}

@test "lower mu lengthens a slide in proportion" {
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	slide() {
		phys-step -t 2 -e 100 -c "$TMP/ctl" -i 'box::link/pose' "$@" "$WORLDS/sliding_box.sdf" |
		    jq -r '.items["box::link/pose"].x' | sed -n '3p;$p' | tr '\n' ' ' | awk '{ print $2 - $1 }'
	}
	d1=$(slide)
	# mu and mu2 of every collision: the slide runs along one of the two
	d2=$(slide -s '*::collision/surface.friction.ode.mu*=0.25')
	rel "$d2" "$(awk -v d="$d1" 'BEGIN { print 2 * d }')" 0.05
	rel "$d2" "$(awk 'BEGIN { print 4 / (2 * 0.25 * 9.81) }')" 0.05
}

@test "changing gravity mid-run changes the fall at that time" {
	echo '{"t":0.5,"name":"gravity","value":{"x":0,"y":0,"z":-1.62}}' > "$TMP/ctl"
	phys-step -t 1 -r 4 -c "$TMP/ctl" -i 'ball::link/linear_vel' "$WORLDS/falling_sphere.sdf" |
	    jq -r '[.t, .items["ball::link/linear_vel"].z] | @tsv' > "$TMP/v"
	near "$(awk '$1 == 0.5 { print $2 }' "$TMP/v")" -4.905 1e-9
	near "$(awk '$1 == 1 { print $2 }' "$TMP/v")" "$(awk 'BEGIN { print -4.905 - 1.62 * 0.5 }')" 1e-9
}

@test "every kind of settable value is accepted by -s and control lines, and read back" {
	# A double, a pose, a string of a closed set and a joint's double, by
	# control lines at t=0; each shows in the run.
	cat > "$TMP/ctl" <<'EOF'
{"t":0,"name":"pendulum::bob/inertial.mass","value":2}
{"t":0,"name":"pendulum::bob/inertial.pose","value":{"x":0,"y":0,"z":0.1,"roll":0,"pitch":0,"yaw":0}}
{"t":0,"name":"friction_model","value":"cone_model"}
{"t":0,"name":"pendulum::pivot/axis.limit.lower","value":-0.02}
EOF
	phys-step -t 2 -r 100 -c "$TMP/ctl" -i 'pendulum::bob/*' -i 'pendulum::pivot/position' "$WORLDS/pendulum.sdf" > "$TMP/o"
	[ "$(head -1 "$TMP/o" | jq -r .engine.friction_model)" = cone_model ]
	[ "$(jq -s -c 'map(.items["pendulum::bob/mass"]) | unique' "$TMP/o")" = '[2]' ]
	# the centre of mass 0.1 m along the bob's z axis
	d=$(head -1 "$TMP/o" | jq -r '.items as $i | ($i["pendulum::bob/inertial_pose"] | [.x,.y,.z]) as $c | ($i["pendulum::bob/pose"] | [.x,.y,.z]) as $p | [range(3)] | map(($c[.] - $p[.]) * ($c[.] - $p[.])) | add | sqrt')
	near "$d" 0.1 1e-9
	# released 0.05 rad out, the bob swings 0.1 rad back unless stopped
	# by the lower limit 0.02 rad below its start
	near "$(jq -s 'map(.items["pendulum::pivot/position"][0]) | min' "$TMP/o")" -0.02 0.002
	# A bool, an int and a vector by -s: without gravity on the bob it
	# stays where it was released.
	phys-step -t 1 -r 10 -s 'pendulum::bob/gravity=false' -s iters=7 -s 'gravity=0 0 -1.62' \
	    -i 'pendulum::pivot/position' "$WORLDS/pendulum.sdf" > "$TMP/o"
	[ "$(head -1 "$TMP/o" | jq -c '[.engine.iters, .engine.gravity]')" = '[7,{"x":0,"y":0,"z":-1.62}]' ]
	[ "$(jq -s -c 'map(.items["pendulum::pivot/position"][0]) | unique' "$TMP/o")" = '[0]' ]
	# values the parameter does not take are refused where they are given
	echo '{"t":0,"name":"friction_model","value":"cone"}' > "$TMP/bad"
	run phys-step -n 2 -c "$TMP/bad" "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad:1: ode.solver.friction_model: \"cone\" is not one of pyramid_model, box_model, cone_model"* ]]
	run phys-step -n 2 -s 'pendulum::bob/inertial.mass=-1' "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"inertial.mass"* ]]
}

@test "the world may come first, as in phys(7)'s example" {
	cp "$WORLDS/pendulum.sdf" "$TMP/w.sdf"
	phys-param set --in-place "$TMP/w.sdf" ode.solver.iters=200
	[ "$(phys-param get "$TMP/w.sdf" iters | jq .value)" -eq 200 ]
	[ "$(phys-param get iters "$TMP/w.sdf" | jq .value)" -eq 200 ]
	run phys-param set iters=1 "$TMP/w.sdf" "$TMP/w.sdf"
	[ "$status" -eq 2 ]
}

@test "what each engine does with a profile parameter, as --doc says, is what a run does" {
	# One run given a value other than the default for every physics
	# parameter: it warns of each one ODE keeps without effect (inert, or
	# another engine's block) and of none it honours (native, emulated).
	phys-param list --doc | jq -r 'select(.scope == "physics") |
	    [.name, .type, (.default | tostring), (.max // "" | tostring),
	     ((.values // []) | join(" ")), .ode] | join("|")' > "$TMP/rows"
	sets=() names=()
	while IFS='|' read -r name type def max values how; do
		case $type in
		bool) v=$([ "$def" = true ] && echo false || echo true) ;;
		int) v=$((def + 1)) ;;
		double) v=$(awk -v d="$def" -v m="$max" 'BEGIN {
			printf "%.17g", m != "" ? (d + m) / 2 : d + 1 }') ;;
		string) v=$(tr ' ' '\n' <<<"$values" | grep -vx -- "$def" | head -1) ;;
		esac
		[ -n "$v" ] && [ "$v" != "$def" ] || continue
		sets+=(-s "$name=$v")
		names+=("$name|$how")
	done < "$TMP/rows"
	[ "${#names[@]}" -gt 30 ]
	phys-step -n 1 "${sets[@]}" "$WORLDS/falling_sphere.sdf" 2> "$TMP/err" > /dev/null ||
	    fail "$(cat "$TMP/err")"
	for nh in "${names[@]}"; do
		name=${nh%|*} how=${nh#*|}
		case $how in
		inert) grep -qF "$name is set but has no effect with ODE" "$TMP/err" ||
			fail "$name ($how) set without a warning" ;;
		other) grep -q "${name%%.*}[a-z_.]* parameters are [A-Za-z ]*'s and have no effect with ODE" "$TMP/err" ||
			fail "$name ($how) set without a warning" ;;
		*) ! grep -qF "$name " "$TMP/err" ||
			fail "$name ($how) warned: $(cat "$TMP/err")" ;;
		esac
	done
}

@test "a world whose includes do not resolve: get and set of its profiles work, one warning" {
	cat > "$TMP/away.sdf" <<-'E'
	<?xml version="1.0"?>
	<sdf version="1.7">
	  <world name="w">
	    <physics name="fast" type="ode" default="true">
	      <max_step_size>0.002</max_step_size>
	    </physics>
	    <include>
	      <uri>model://not_on_this_machine</uri>
	    </include>
	  </world>
	</sdf>
	E
	run --separate-stderr phys-param get max_step_size "$TMP/away.sdf"
	[ "$status" -eq 0 ]
	[ "$(jq .value <<< "$output")" = 0.002 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"away.sdf:8: cannot find model 'model://not_on_this_machine'"* ]]
	run --separate-stderr phys-param set --in-place iters=70 "$TMP/away.sdf"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	grep -q '<include>' "$TMP/away.sdf"
	[ "$(phys-param get -q iters "$TMP/away.sdf" | jq .value)" -eq 70 ]
}

@test "-p ENGINE where no profile has that name: get shows the profile phys-step -p ENGINE runs, said once; set is refused, naming phys-preset add" {
	run -0 --separate-stderr phys-param get -p dart "$WORLDS/sliding_box.sdf" dart.solver.solver_type max_step_size
	[ "$(grep -c "no profile named 'dart': running profile 'dart_from_pyramid' of engine dart" <<< "$stderr")" -eq 1 ]
	run_line=$(phys-step -q -p dart -n 0 "$WORLDS/sliding_box.sdf" | head -1)
	assert_equal "$(jq -r 'select(.name == "dart.solver.solver_type") | .value' <<< "$output")" "$(jq -r .engine.solver <<< "$run_line")"
	assert_equal "$(jq -r 'select(.name == "max_step_size") | .value' <<< "$output")" "$(jq -r .engine.max_step_size <<< "$run_line")"
	[ "$(jq -r .preset <<< "$output" | sort -u)" = dart_from_pyramid ]
	cp "$WORLDS/sliding_box.sdf" "$TMP/w.sdf"
	run -2 --separate-stderr phys-param set -p dart --in-place dart.solver.solver_type=dantzig "$TMP/w.sdf"
	[[ "$stderr" == *"has no profile of engine dart to edit ('phys-preset add --engine dart NAME' makes one)" ]]
	cmp "$TMP/w.sdf" "$WORLDS/sliding_box.sdf"
}
