#!/usr/bin/env bats
# phys-preset: profiles in one world, and switching them in phys-step.
# Engine values are read back from what ODE received (the "engine" record
# phys-step writes when a profile is applied), not from the stored profile.

load helper
bats_require_minimum_version 1.5.0

setup() {
	TMP=$(mktemp -d)
	P="$WORLDS/presets.sdf"
	# the same world with no profile marked default
	sed 's/ default="true"//' "$P" > "$TMP/nodefault.sdf"
}

teardown() {
	rm -rf "$TMP"
}

# engine WORLD [phys-step options]: the first line's engine record.
engine() {
	local w=$1
	shift
	phys-step -n 0 "$@" "$w" 2>/dev/null | jq -c .engine
}

@test "list: name, engine, default mark and the starting profile" {
	run --separate-stderr phys-preset list "$P"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '{"name":"preset_1","type":"ode","default":true,"start":true}' ]
	[ "${lines[1]}" = '{"name":"preset_2","type":"ode","default":false,"start":false}' ]
	[ "${lines[2]}" = '{"name":"unused","type":"ode","default":true,"start":false}' ]
	# The second default="true" is reported with its line.
	[[ "$(phys-preset list "$P" 2>&1 >/dev/null)" == *"presets.sdf:56: profile 'unused' is also marked default"* ]]
}

@test "list -1 prints bare names; with none marked the first starts" {
	run phys-preset list -1 "$TMP/nodefault.sdf"
	[ "$output" = "$(printf 'preset_1\npreset_2\nunused')" ]
	run phys-preset list "$TMP/nodefault.sdf"
	[[ "${lines[0]}" == *'"start":true}' ]]
	[[ "${lines[2]}" == *'"default":false,"start":false}' ]]
}

@test "1. a world with several profiles starts with the default profile's values" {
	e=$(engine "$P")
	[ "$(jq -r .max_step_size <<<"$e")" = 0.01 ]
	[ "$(jq -r .iters <<<"$e")" = 50 ]
	[ "$(jq -r .sor <<<"$e")" = 1.4 ]
	[ "$(jq -r .cfm <<<"$e")" = 0.01 ]
	[ "$(jq -r .erp <<<"$e")" = 0.3 ]
	[ "$(jq -r .contact_max_correcting_vel <<<"$e")" = 200 ]
	[ "$(jq -r .contact_surface_layer <<<"$e")" = 0.002 ]
	# with none marked default: the first profile.
	[ "$(engine "$TMP/nodefault.sdf" | jq -r .iters)" = 50 ]
}

@test "Gazebo's preset worlds start with their default profile" {
	need_reference
	[ "$(engine "$REF/gazebo-worlds/presets.world" | jq -r .iters)" = 50 ]
	[ "$(engine "$REF/gazebo-worlds/presets_nodefault.world" | jq -r .iters)" = 50 ]
	# preset_example_sdf1_6.world marks its second profile default.
	[ "$(engine "$REF/gazebo-worlds/preset_example_sdf1_6.world" | jq -r .iters)" = 200 ]
}

@test "2. setting one parameter of the current profile changes it and no other" {
	echo '{"t":0.05,"name":"iters","value":77}' > "$TMP/ctl"
	phys-step -t 0.1 -c "$TMP/ctl" "$P" 2>/dev/null | jq -c 'select(.engine) | .engine' > "$TMP/e"
	[ "$(wc -l < "$TMP/e")" -eq 2 ]
	before=$(head -1 "$TMP/e")
	after=$(tail -1 "$TMP/e")
	[ "$(jq -r .iters <<<"$after")" = 77 ]
	[ "$(jq -c 'del(.iters)' <<<"$before")" = "$(jq -c 'del(.iters)' <<<"$after")" ]
}

@test "3. switching profile makes the engine report the other profile's values, solver type included" {
	echo '{"t":0.1,"preset":"world"}' > "$TMP/ctl"
	phys-step -t 0.2 -c "$TMP/ctl" "$WORLDS/pendulum.sdf" | jq -c 'select(.engine) | [.t, .preset, .engine.solver]' > "$TMP/e"
	[ "$(sed -n 1p "$TMP/e")" = '[0,"quick","quick"]' ]
	[ "$(sed -n 2p "$TMP/e")" = '[0.1,"world","world"]' ]
	# presets.sdf: every value of preset_2 arrives at once.
	echo '{"t":0.05,"preset":"preset_2"}' > "$TMP/ctl"
	e=$(phys-step -t 0.1 -c "$TMP/ctl" "$P" 2>/dev/null | jq -c 'select(.preset == "preset_2") | .engine')
	[ "$(jq -c '[.max_step_size, .iters, .sor, .cfm, .erp]' <<<"$e")" = '[0.02,100,1.5,0.02,0.6]' ]
}

@test "-p starts in a profile; an engine phys-step does not have is refused" {
	[ "$(engine "$P" -p unused | jq -c '[.iters, .erp]')" = '[200,0.7]' ]
	# gz-sim's trivial physics engine, which phys has not
	phys-preset add tp "$P" | sed 's/name="tp" type="ode"/name="tp" type="tpe"/' > "$TMP/b.world"
	run phys-step -n 1 -p tp "$TMP/b.world"
	[ "$status" -eq 1 ]
	[[ "$output" == *"profile 'tp' is for the tpe engine; phys-step runs ode, bullet"* ]]
	echo '{"t":0.01,"preset":"tp"}' > "$TMP/ctl"
	run phys-step -t 0.1 -c "$TMP/ctl" "$TMP/b.world"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tpe engine"* ]]
}

@test "4. a profile imported from a snippet, then switched to, reaches the engine" {
	cat > "$TMP/snippet.xml" <<'EOF'
<physics name="imported" type="ode">
  <max_step_size>0.004</max_step_size>
  <ode>
    <solver>
      <type>world</type>
      <iters>33</iters>
    </solver>
    <constraints>
      <cfm>0.001</cfm>
      <erp>0.45</erp>
    </constraints>
  </ode>
</physics>
EOF
	phys-preset import "$TMP/snippet.xml" "$WORLDS/pendulum.sdf" > "$TMP/w.sdf"
	[ "$(phys-preset list -1 "$TMP/w.sdf" | tail -1)" = imported ]
	echo '{"t":0.1,"preset":"imported"}' > "$TMP/ctl"
	e=$(phys-step -t 0.2 -c "$TMP/ctl" "$TMP/w.sdf" | jq -c 'select(.preset == "imported") | .engine')
	[ "$(jq -c '[.solver, .max_step_size, .iters, .cfm, .erp]' <<<"$e")" = '["world",0.004,33,0.001,0.45]' ]
}

@test "5. one unnamed <physics>, and none at all, run as default_physics" {
	[ "$(phys-preset list -1 "$WORLDS/legacy_physics.sdf")" = default_physics ]
	[ "$(phys-preset list -1 "$WORLDS/no_physics.sdf")" = default_physics ]
	phys-step -n 0 "$WORLDS/legacy_physics.sdf" > "$TMP/a"
	[ "$(jq -c '[.preset, .engine.solver, .engine.iters, .engine.gravity.z]' "$TMP/a")" = '["default_physics","world",40,-3.7]' ]
	phys-step -n 0 "$WORLDS/no_physics.sdf" > "$TMP/b"
	[ "$(jq -c '[.preset, .engine.solver, .engine.iters, .engine.max_step_size, .engine.gravity.z]' "$TMP/b")" = '["default_physics","quick",50,0.001,-9.8]' ]
}

@test "two unnamed <physics> blocks are an error; so is a duplicate name" {
	sed 's|<physics name="world" type="ode">|<physics type="ode">|; s|<physics name="quick" type="ode" default="true">|<physics type="ode">|' \
	    "$WORLDS/pendulum.sdf" > "$TMP/two.sdf"
	run phys-preset list "$TMP/two.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"two.sdf:"*": a second unnamed <physics> block"* ]]
	sed 's|<physics name="world"|<physics name="quick"|' "$WORLDS/pendulum.sdf" > "$TMP/dup.sdf"
	run phys-step -n 1 "$TMP/dup.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a second <physics> profile named 'quick'"* ]]
}

@test "switching from 5 to 200 iterations mid-run reduces a stack's penetration" {
	echo '{"t":1.5,"preset":"accurate"}' > "$TMP/ctl"
	phys-step -t 3 -r 50 -c "$TMP/ctl" -i 'box*::link/pose' "$WORLDS/box_stack.sdf" |
	    jq -r '[.t, ([.items | to_entries[] | ((.key | ltrimstr("box") | split(":")[0] | tonumber) * 0.2 + 0.1 - .value.z) | fabs] | max)] | @tsv' > "$TMP/err"
	before=$(awk '$1 > 0.5 && $1 <= 1.5 { s += $2; n++ } END { print s / n }' "$TMP/err")
	after=$(awk '$1 > 2 && $1 <= 3 { s += $2; n++ } END { print s / n }' "$TMP/err")
	# millimetres before, a hundredth of that after
	awk -v b="$before" -v a="$after" 'BEGIN { exit !(b > 5e-4 && a < b / 10) }'
}

@test "gravity and step size of the new profile take effect at the switch" {
	cat > "$TMP/legacy.sdf" <<'EOF'
<sdf version="1.5">
  <world name="w">
    <physics name="earth" type="ode"><gravity>0 0 -9.8</gravity><max_step_size>0.001</max_step_size></physics>
    <physics name="moon" type="ode"><gravity>0 0 -1.6</gravity><max_step_size>0.002</max_step_size></physics>
    <model name="ball"><pose>0 0 10 0 0 0</pose><link name="link"><inertial><mass>1</mass></inertial></link></model>
  </world>
</sdf>
EOF
	echo '{"t":0.5,"preset":"moon"}' > "$TMP/ctl"
	phys-step -t 1 -r 4 -c "$TMP/ctl" -i 'ball::link/linear_vel' "$TMP/legacy.sdf" |
	    jq -r '[.t, .iter, .items["ball::link/linear_vel"].z] | @tsv' > "$TMP/v"
	# 500 steps of 1 ms, then 250 of 2 ms
	[ "$(awk '$1 == 1 { print $2 }' "$TMP/v")" = 750 ]
	near "$(awk '$1 == 0.5 { print $3 }' "$TMP/v")" -4.9 1e-9
	near "$(awk '$1 == 1 { print $3 }' "$TMP/v")" "$(awk 'BEGIN { print -4.9 - 1.6 * 0.5 }')" 1e-9
}

@test "show: the profile's values, defaults marked" {
	run phys-preset show preset_2 "$P"
	[ "$status" -eq 0 ]
	[[ "$output" == *'{"name":"ode.solver.iters","type":"int","value":100,"preset":"preset_2"}'* ]]
	[[ "$output" == *'{"name":"ode.solver.type","type":"string","value":"quick","is_default":true,"preset":"preset_2"}'* ]]
	# bullet rows are not an ode profile's business
	[[ "$output" != *bullet* ]]
}

@test "use: one default profile, nothing else changed" {
	phys-preset use preset_2 "$P" > "$TMP/u.world"
	diff "$P" "$TMP/u.world" > "$TMP/d" || true
	[ "$(grep -c '^[<>]' "$TMP/d")" -eq 6 ]
	[ "$(phys-preset list "$TMP/u.world" 2>&1 | grep -c '"default":true')" -eq 1 ]
	[ "$(engine "$TMP/u.world" | jq -r .iters)" = 100 ]
}

@test "add: a copy with overrides, or the specification's defaults" {
	phys-preset add fast --copy preset_2 iters=10 cfm=0.5 "$P" > "$TMP/a.world"
	diff "$P" "$TMP/a.world" | grep '^>' > "$TMP/added" || true
	[ "$(head -1 "$TMP/added")" = '>     <physics name="fast" type="ode">' ]
	[ "$(phys-param get -p fast iters cfm erp "$TMP/a.world" | jq -c .value | tr '\n' ' ')" = "10 0.5 0.6 " ]
	phys-preset add plain "$WORLDS/pendulum.sdf" > "$TMP/p.sdf"
	[ "$(phys-param get -p plain max_step_size iters "$TMP/p.sdf" | jq -c .value | tr '\n' ' ')" = "0.001 50 " ]
	run phys-preset add quick "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"already a profile named 'quick'"* ]]
	run phys-preset add x iters=abc "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"is not an int"* ]]
}

@test "remove the default: the first remaining profile starts" {
	phys-preset remove preset_1 "$P" > "$TMP/r.world"
	[ "$(phys-preset list -1 "$TMP/r.world" | tr '\n' ' ')" = "preset_2 unused " ]
	# 'unused' is now the only one marked default
	[ "$(engine "$TMP/r.world" | jq -r .iters)" = 200 ]
	phys-preset remove unused "$TMP/r.world" | phys-preset remove preset_2 - > "$TMP/none.world"
	[ "$(phys-preset list -1 "$TMP/none.world")" = default_physics ]
	phys-preset remove preset_2 "$TMP/nodefault.sdf" > "$TMP/n.world"
	[ "$(engine "$TMP/n.world" | jq -r .iters)" = 50 ]
}

@test "rename, and unknown names exit 2 listing the profiles" {
	phys-preset rename preset_2 slow "$P" > "$TMP/n.world"
	[ "$(phys-preset list -1 "$TMP/n.world" | tr '\n' ' ')" = "preset_1 slow unused " ]
	run phys-preset rename nope x "$P"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no profile named 'nope' (there are: preset_1, preset_2, unused)"* ]]
}

@test "export then import round-trips exactly" {
	phys-preset export preset_2 "$P" > "$TMP/p2.xml"
	[ "$(head -1 "$TMP/p2.xml")" = '<physics name="preset_2" type="ode">' ]
	phys-preset remove preset_2 "$P" > "$TMP/w.world"
	phys-preset import "$TMP/p2.xml" "$TMP/w.world" > "$TMP/back.world"
	phys-preset export preset_2 "$TMP/back.world" | cmp - "$TMP/p2.xml"
	# the block reads back in its new place with the values presets.world
	# gives preset_2, and the specification's defaults for the rest
	expected='max_step_size=0.02 real_time_factor=1 real_time_update_rate=1000
max_contacts=20 ode.solver.type="quick" ode.solver.min_step_size=0.002
ode.solver.island_threads=0 ode.solver.iters=100 ode.solver.precon_iters=0
ode.solver.sor=1.5 ode.solver.thread_position_correction=false
ode.solver.use_dynamic_moi_rescaling=false
ode.solver.friction_model="pyramid_model" ode.constraints.cfm=0.02
ode.constraints.erp=0.6 ode.constraints.contact_max_correcting_vel=100
ode.constraints.contact_surface_layer=0.001'
	for w in "$P" "$TMP/back.world"; do
		[ "$(phys-preset show preset_2 "$w" 2>/dev/null | jq -r '"\(.name)=\(.value | tojson)"' | sort)" = \
		    "$(printf '%s\n' $expected | sort)" ]
	done
	# importing a whole world takes all its profiles; a clash is an error
	phys-preset import "$WORLDS/pendulum.sdf" "$P" > "$TMP/both.world"
	[ "$(phys-preset list -1 "$TMP/both.world" | tr '\n' ' ')" = "preset_1 preset_2 unused quick world " ]
	run phys-preset import "$P" "$P"
	[ "$status" -eq 1 ]
	[[ "$output" == *"already a profile named 'preset_1'"* ]]
}

@test "diff: the parameters whose values differ, with both values" {
	run --separate-stderr phys-preset diff preset_1 preset_2 "$P"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == '{"name":"max_step_size","type":"double","values":{"preset_1":0.01,"preset_2":0.02}}' ]]
	[[ "$output" == *'{"name":"ode.solver.iters","type":"int","values":{"preset_1":50,"preset_2":100}}'* ]]
	[[ "$output" != *'"real_time_factor"'* ]]
	[ -z "$(phys-preset diff preset_1 preset_1 "$P")" ]
}

@test "--in-place edits in place through a temporary file; a failure leaves the file alone" {
	cp "$WORLDS/pendulum.sdf" "$TMP/w.sdf"
	phys-preset use --in-place world "$TMP/w.sdf"
	[ "$(phys-preset list "$TMP/w.sdf" | jq -r 'select(.start) | .name')" = world ]
	cp "$TMP/w.sdf" "$TMP/before.sdf"
	run phys-preset add --in-place x iters=-5 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	cmp "$TMP/w.sdf" "$TMP/before.sdf"
	[ "$(ls -A "$TMP" | grep -c '^\.')" -eq 0 ]
}

@test "-s overrides belong to the starting profile: they come back with it" {
	printf '%s\n' '{"t":0.1,"preset":"world"}' '{"t":0.2,"preset":"quick"}' > "$TMP/ctl"
	phys-step -t 0.3 -s iters=77 -c "$TMP/ctl" "$WORLDS/pendulum.sdf" |
	    jq -c 'select(.engine) | [.t, .preset, .engine.iters]' > "$TMP/e"
	[ "$(tr '\n' ' ' < "$TMP/e")" = '[0,"quick",77] [0.1,"world",50] [0.2,"quick",77] ' ]
	# the world file itself is unchanged by the run
	[ "$(phys-param get -p quick iters "$WORLDS/pendulum.sdf" | jq .value)" -eq 100 ]
}

# mapped A B: the values each profile of "$TMP/c.sdf" gives its engine's
# solver and constraint parameters, and the shared ones, as one line.
mapped() {
	local p e
	for p in "$1:$2" "$3:$4"; do
		e=${p#*:}
		phys-param get -p "${p%%:*}" max_step_size real_time_factor \
		    max_contacts "$e.solver.min_step_size" "$e.solver.iters" \
		    "$e.solver.sor" "$e.constraints.cfm" "$e.constraints.erp" \
		    "$e.constraints.contact_surface_layer" "$TMP/c.sdf" |
		    jq -r .value | tr '\n' ' '
		echo
	done
}

@test "add --engine bullet --copy an ODE profile carries what means the same and names the rest" {
	phys-preset add --engine bullet --copy preset_1 bul "$P" > "$TMP/c.sdf" 2> "$TMP/err"
	[ "$(phys-preset list "$TMP/c.sdf" 2> /dev/null | jq -r 'select(.name == "bul") | .type')" = bullet ]
	mapped preset_1 ode bul bullet > "$TMP/v"
	[ "$(sed -n 1p "$TMP/v")" = "$(sed -n 2p "$TMP/v")" ]
	# preset_1's own values, not the defaults: 0.01 s, sor 1.4, cfm 0.01, layer 0.002
	[ "$(sed -n 2p "$TMP/v")" = "0.01 1 20 0.001 50 1.4 0.01 0.3 0.002 " ]
	run grep -c "profile 'preset_1': no bullet counterpart, not carried over: ode.constraints.contact_max_correcting_vel" "$TMP/err"
	assert_output 1
	# nothing else in the world changed
	diff "$P" "$TMP/c.sdf" | grep -v '^>' | grep -qv '^[0-9a-f,]*a[0-9,]*$' && false
	# and back: an ODE profile from the Bullet one, with an override
	phys-preset add --engine ode --copy bul back iters=7 "$TMP/c.sdf" > "$TMP/d.sdf" 2> "$TMP/err"
	mv "$TMP/d.sdf" "$TMP/c.sdf"
	mapped bul bullet back ode > "$TMP/v"
	[ "$(sed -n 2p "$TMP/v")" = "0.01 1 20 0.001 7 1.4 0.01 0.3 0.002 " ]
	! grep -q counterpart "$TMP/err" || false
}

@test "add --engine: the solver type is no counterpart; a Bullet profile's own ones are named going back" {
	phys-preset add --copy preset_2 w ode.solver.type=world "$P" 2> /dev/null |
	    phys-preset add --engine bullet --copy w b bullet.constraints.split_impulse=false - > "$TMP/c.sdf" 2> "$TMP/err"
	grep -q "profile 'w': no bullet counterpart, not carried over: ode.solver.type$" "$TMP/err"
	[ "$(phys-param get -p b bullet.solver.type "$TMP/c.sdf" 2> /dev/null | jq -r .value)" = sequential_impulse ]
	phys-preset add --engine ode --copy b o "$TMP/c.sdf" 2> "$TMP/err" > /dev/null
	grep -q "profile 'b': no ode counterpart, not carried over: bullet.constraints.split_impulse$" "$TMP/err"
}

@test "add --engine simbody: the smallest step and the shared values carried over, ODE's solver named; Simbody's own named going back" {
	phys-preset add --engine simbody --copy preset_1 sim "$P" > "$TMP/c.sdf" 2> "$TMP/err"
	[ "$(phys-preset list "$TMP/c.sdf" 2> /dev/null | jq -r 'select(.name == "sim") | .type')" = simbody ]
	# ODE's solver.min_step_size is Simbody's min_step_size
	[ "$(phys-param get -p sim max_step_size real_time_factor max_contacts simbody.min_step_size \
	    "$TMP/c.sdf" 2> /dev/null | jq -r .value | tr '\n' ' ')" = "0.01 1 20 0.001 " ]
	grep -q "presets.sdf:$(grep -n 'name="preset_1"' "$P" | cut -d: -f1): profile 'preset_1': no simbody counterpart, not carried over: ode.solver.iters, ode.solver.sor, ode.constraints.cfm, ode.constraints.erp, ode.constraints.contact_max_correcting_vel, ode.constraints.contact_surface_layer$" "$TMP/err"
	# the profile runs under Simbody, with the values carried
	[ "$(phys-step -p sim -n 1 "$TMP/c.sdf" 2> /dev/null | head -1 | jq -c '.engine | [.max_step_size, .accuracy]')" = '[0.01,0.001]' ]
	# and back, Simbody's own values are named
	phys-preset add --engine simbody --copy preset_1 s2 simbody.accuracy=0.01 simbody.contact.stiffness=1e7 "$P" 2> /dev/null |
	    phys-preset add --engine bullet --copy s2 b - > "$TMP/d.sdf" 2> "$TMP/err"
	grep -q "profile 's2': no bullet counterpart, not carried over: simbody.accuracy, simbody.contact.stiffness$" "$TMP/err"
	[ "$(phys-param get -p b bullet.solver.min_step_size "$TMP/d.sdf" 2> /dev/null | jq -r .value)" = 0.001 ]
}

@test "add --engine: an unknown engine is refused; --in-place leaves the file alone on failure" {
	cp "$P" "$TMP/w.sdf"
	run phys-preset add --in-place --engine havok --copy preset_1 h "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown engine 'havok'"* ]]
	run phys-preset add --in-place --engine bullet --copy preset_1 h bullet.solver.iters=-5 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	cmp "$P" "$TMP/w.sdf"
	[ "$(ls -A "$TMP" | grep -c '^\.')" -eq 0 ]
	phys-preset add --in-place --engine bullet --copy preset_1 h "$TMP/w.sdf" 2> /dev/null
	[ "$(phys-preset list "$TMP/w.sdf" 2> /dev/null | jq -r 'select(.name == "h") | .type')" = bullet ]
}

@test "a world whose includes do not resolve: list, show, diff and edits work, one warning each" {
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
	    <include>
	      <uri>model://nor_this_one</uri>
	    </include>
	  </world>
	</sdf>
	E
	run --separate-stderr phys-preset list "$TMP/away.sdf"
	[ "$status" -eq 0 ]
	[ "$output" = '{"name":"fast","type":"ode","default":true,"start":true}' ]
	# one warning for both includes, with the first one's line
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"away.sdf:8: cannot find model 'model://not_on_this_machine'"*"1 more include"* ]]
	[ "$(phys-preset show fast "$TMP/away.sdf" 2> /dev/null | jq 'select(.name == "max_step_size") | .value')" = 0.002 ]
	cp "$TMP/away.sdf" "$TMP/w.sdf"
	run --separate-stderr phys-preset add --in-place --copy fast slow max_step_size=0.004 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	# the includes are still there, and only the new profile was added
	[ "$(grep -c '<include>' "$TMP/w.sdf")" -eq 2 ]
	diff "$TMP/away.sdf" "$TMP/w.sdf" | grep -v '^>' | grep -qv '^[0-9a-f,]*a[0-9,]*$' && false
	run phys-preset diff fast slow "$TMP/w.sdf"
	[[ "$output" == *'{"name":"max_step_size","type":"double","values":{"fast":0.002,"slow":0.004}}'* ]]
	phys-preset use --in-place slow "$TMP/w.sdf" 2> /dev/null
	[ "$(phys-preset list -1 "$TMP/w.sdf" 2> /dev/null | tr '\n' ' ')" = "fast slow " ]
	[ "$(phys-preset list "$TMP/w.sdf" 2> /dev/null | jq -r 'select(.start) | .name')" = slow ]
	# -q: no warning at all
	[ -z "$(phys-preset list -q "$TMP/w.sdf" 2>&1 > /dev/null)" ]
	# a model run still needs them: phys-step refuses the world
	run phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
}

@test "add to a world without <physics>: its implicit profile is written out and stays the start one, the run unchanged" {
	cp "$WORLDS/no_physics.sdf" "$TMP/w.sdf"
	phys-step -n 50 "$TMP/w.sdf" > "$TMP/before"
	phys-preset add --in-place --engine mujoco --copy default_physics mj "$TMP/w.sdf"
	[ "$(phys-preset list "$TMP/w.sdf" | jq -c '[.name, .type, .start]' | tr '\n' ' ')" = \
	    '["default_physics","ode",true] ["mj","mujoco",false] ' ]
	# written as export writes the implicit one, before the new one
	phys-preset export default_physics "$WORLDS/no_physics.sdf" > "$TMP/implicit"
	[ "$(phys-preset export default_physics "$TMP/w.sdf")" = "$(cat "$TMP/implicit")" ]
	# the same run, line for line: ODE's, not MuJoCo's
	phys-step -n 50 "$TMP/w.sdf" | diff "$TMP/before" -
	[ "$(phys-step -n 0 -p mj "$TMP/w.sdf" | jq -r .preset)" = mj ]
	# the same for a profile imported, and for one added without --engine
	phys-preset export mj "$TMP/w.sdf" > "$TMP/mj.xml"
	phys-preset import "$TMP/mj.xml" "$WORLDS/no_physics.sdf" | phys-preset list -1 - > "$TMP/names"
	[ "$(tr '\n' ' ' < "$TMP/names")" = "default_physics mj " ]
	[ "$(phys-preset add fast max_step_size=0.004 "$WORLDS/no_physics.sdf" | phys-step -n 0 - | jq -r .preset)" = default_physics ]
}
