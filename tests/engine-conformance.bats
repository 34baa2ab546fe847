#!/usr/bin/env bats
# What every engine must do, checked under each engine the binary lists
# (tests/helper.bash's engines: lib/engine/registry.c's list, so that a
# new engine there is checked here with no line changed): its parameters
# reach it or are warned about, worlds/closed_forms.sdf's eight cases and
# friction against their closed forms, asymmetric joint limits about and
# along either axis sign and a joint started outside them, a kinematic
# loop against its loop-closure equation, worlds/joints.sdf's joints
# against a pendulum's
# period and a stop's moment, a joint's torque held by friction on its
# parent, meshes, polylines, ellipsoids and
# heightmaps resting and rolling where geometry says, a switch between
# any two engines mid-run in both directions, identical runs, a
# divergence named; states set by control lines (kinematic links moving
# on and carrying what rests on them, a universal joint past a quarter
# turn, poses a joint holds or refuses) and a filter's values changed
# mid-run. What only one engine does is in its own tests/engine-*.bats.

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/closed_forms.sdf"

# box_obj X Y Z: a box of half sizes X Y Z centred on its origin, twelve
# triangles turned outwards, as OBJ.
box_obj() {
	printf 'v %s\n' "-$1 -$2 -$3" "$1 -$2 -$3" "$1 $2 -$3" "-$1 $2 -$3" \
	    "-$1 -$2 $3" "$1 -$2 $3" "$1 $2 $3" "-$1 $2 $3"
	printf 'f %s\n' '1 3 2' '1 4 3' '5 6 7' '5 7 8' '1 2 6' '1 6 5' \
	    '2 3 7' '2 7 6' '3 4 8' '3 8 7' '4 1 5' '4 5 8'
}

# closed_forms_run ENGINE: worlds/closed_forms.sdf under ENGINE's profile
# for 3 s (the spring's five swings, the pendulum's two), its state every
# 10 ms, the slider and the rotor set going at t = 0.
closed_forms_run() {
	printf '%s\n' \
	    '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' \
	    '{"t":0,"name":"rotor::link/angular_vel","value":{"x":0,"y":0,"z":2}}' \
	    > "$BATS_FILE_TMPDIR/cf-$1.ctl"
	phys-step -p "$1" -t 3 -r 100 -c "$BATS_FILE_TMPDIR/cf-$1.ctl" \
	    -i 'fall::link/pose' -i 'slide::link/pose' -i 'bounce::link/pose' -i 'rest::link/pose' \
	    -i 'pendulum::bob/pose' -i 'slide::link/linear_vel' -i 'rest::link/linear_vel' \
	    -i 'limit::hinge/position' \
	    -i 'rotor::spin/velocity' -i 'spring::slider/position' "$(profile_world "$W" "$1")"
}

# closed_forms ENGINE: the path of that run's state lines.
closed_forms() {
	once "cf-$1" closed_forms_run "$1"
}

# newval, a jq function: for a line of phys-param list --doc, a value
# other than the default and within the range, null for a choice of one.
NEWVAL='def newval: .type as $t | if $t == "bool" then .default | not
    elif .values then (.values - [.default])[0]
    else (if $t == "int" then .default + 1 elif .default == 0 then 0.5
	elif .default < 0 then 1 else .default * 1.5 end) as $v
    | if .max != null and $v > .max then (if $t == "int" then .default - 1
	else (.default + .max) / 2 end) else $v end end;'

# settings ENGINE SUPPORT...: for every numeric, boolean or chosen
# parameter phys-param list --doc says ENGINE treats as one of SUPPORT,
# "SCOPE NAME -s ENTITY/NAME=VALUE" (VALUE not its default) on one line,
# a collision's set on closed_forms.sdf's slider (but its shape's size),
# a joint's on its arm.
settings() {
	local e=$1
	shift
	phys-param list --doc | jq -r --arg e "$e" --args "$NEWVAL"'
	    select([.[$e]] | inside($ARGS.positional)) |
	    select(.type == "double" or .type == "int" or .type == "bool" or .values) |
	    select(.name | startswith("geometry.") | not) |
	    { physics: "", collision: "slide::link::collision/", joint: "limit::hinge/",
		link: "slide::link/" }[.scope] as $at | select($at) | newval as $v | select($v != null) |
	    "\(.scope) \(.name) -s \($at)\(.name)=\($v)"' "$@"
}

# reaches ENGINE: each parameter of ENGINE's own (native to it, or
# emulated by phys for it where it is another engine's elsewhere), set
# to another value, is that value in the engine record of the first state
# line (under the last part of its name, a solver's type as "solver"),
# and is not warned about.
reaches() {
	phys-param list --doc | jq -c --arg e "$1" "$NEWVAL"'select(.scope == "physics") |
	    select(.[$e] == "native" or (.[$e] == "emulated" and ([.[]] | index("other")))) |
	    newval as $v | select($v != null) |
	    { name, value: $v, key: (.name | split(".")[-1] | if . == "type" or . == "solver_type"
		then "solver" else . end) }' > "$TMP/own"
	[ -s "$TMP/own" ]
	phys-step -p "$1" -n 0 $(jq -r '"-s \(.name)=\(.value)"' "$TMP/own") "$(profile_world "$W" "$1")" \
	    > "$TMP/o" 2> "$TMP/err"
	jq -r --slurpfile r "$TMP/o" 'select($r[0].engine[.key] != .value) |
	    "\(.name)=\(.value) is not the record'"'"'s \(.key): \($r[0].engine[.key])"' "$TMP/own" > "$TMP/bad"
	[ ! -s "$TMP/bad" ] || fail "under $1: $(cat "$TMP/bad")"
	! grep -qFf <(jq -r .name "$TMP/own") "$TMP/err" || fail "$(cat "$TMP/err")"
}
@test "each engine's own parameters reach it: a value set is that value in the engine record, unwarned" {
	each_engine reaches
}

# unheeded ENGINE: every parameter ENGINE keeps but does not use
# ("inert"), every one of its own and every other engine's set at once:
# each inert one is named once as having no effect, none of its own is;
# the other engines' values are named once for each place they are set
# (the profile, a collision's surface, a joint's physics), under the
# first part of their names, or each by its own name where the engine
# honours some of that block (Bullet's friction from ODE's <mu>).
unheeded() {
	local name scope p opt arg
	local -a args=()
	name=$(engine_name "$1")
	settings "$1" inert other native emulated > "$TMP/set"
	while read -r scope p opt arg; do
		args+=("$opt" "$arg")
	done < "$TMP/set"
	phys-step -p "$1" -n 2 "${args[@]}" "$(profile_world "$W" "$1")" 2>&1 >/dev/null |
	    sed 's/^phys-step: //; s/^[^ ]*:[0-9]*: //' > "$TMP/err"
	# a parameter of no block ("implicit_servo") is said to be the
	# engines' that take it: "ODE's, Bullet's and DART's"
	phys-param list --doc | jq -r --argjson es "$(for e in $(engines); do
	    printf '["%s","%s"]\n' "$e" "$(engine_name "$e")"; done | jq -s -c .)" '
	    select(.name | contains(".") | not) | . as $p |
	    [$es[] | select($p[.[0]] != "other") | "\(.[1])'"'"'s"] as $o |
	    "\(.scope) \(.name)\t\(if ($o | length) == 0 then "another engine'"'"'s"
		elif ($o | length) == 1 then $o[0]
		else ($o[:-1] | join(", ")) + " and " + $o[-1] end)"' > "$TMP/owners"
	# the messages, each with the number of times it must be said
	phys-param list --doc | jq -r --arg e "$1" '[.scope, .name, .[$e]] | @tsv' |
	    awk -F '\t' -v n="$name" -v types="$(for e in $(engines); do printf '%s=%s;' "$e" "$(engine_name "$e")"; done)" '
		BEGIN { ent["collision"] = "slide::link::collision"
		ent["joint"] = "limit::hinge"; ent["link"] = "slide::link"
		k = split(types, t, ";"); for (i = 1; i < k; i++) { split(t[i], tn, "="); eng[tn[1]] = tn[2] } }
		FILENAME == ARGV[1] { own[$1] = $2; next }
		FILENAME == ARGV[2] { split($0, s, " "); set[s[1] " " s[2]]; next }
		# what the engine does with every parameter, the set ones in order
		{ how[$1 " " $2] = $3 }
		($1 " " $2) in set { ns++; sc[ns] = $1; nm[ns] = $2; hw[ns] = $3 }
		END { for (j = 1; j <= ns; j++) {
		  at = sc[j] == "physics" ? "" : sc[j] " '"'"'" ent[sc[j]] "'"'"': "
		  m = at nm[j] " is set but has no effect with " n " (kept as given)"
		  if (hw[j] == "inert") { print "1\t" m; continue }
		  if (hw[j] != "other") { print "0\t" m; continue }
		  # another engine'"'"'s: its block, the name up to the part that is an engine
		  k = split(nm[j], part, "."); b = ""; o = ""
		  for (i = 1; i <= k && o == ""; i++) { b = b (i > 1 ? "." : "") part[i]; if (part[i] in eng) o = eng[part[i]] }
		  # Simbody takes every servo into its step: implicit_servo
		  # asks nothing of it, and is not said
		  if (o == "" && k == 1) { print (nm[j] == "implicit_servo" && n == "Simbody" ? "0" : "1") "\t" at nm[j] " is " own[sc[j] " " nm[j]] " and has no effect with " n " (kept as given)"; continue }
		  if (o == "") { b = part[1]; o = "another engine" }
		  partly = 0
		  for (q in how) { split(q, qs, " "); if (qs[1] == sc[j] && index(qs[2], b ".") == 1 && how[q] != "other") partly = 1 }
		  if (partly) print "1\t" at nm[j] " is " o "'"'"'s and has no effect with " n " (kept as given)"
		  else print "1\t" at b " parameters are " o "'"'"'s and have no effect with " n " (kept as given)" } }' "$TMP/owners" "$TMP/set" - | sort -u > "$TMP/want"
	grep -q '^1' "$TMP/want"
	awk -F '\t' 'NR == FNR { want[$2] = $1; next } $0 in want { n[$0]++ }
	    END { for (w in want) if (n[w] != want[w]) { print "said " n[w] + 0 " times, not " want[w] ": " w; bad = 1 }; exit bad }' \
	    "$TMP/want" "$TMP/err" || fail "under $1: $(cat "$TMP/err")"
}
@test "parameters: what an engine keeps but does not use is warned about once each, its own never, another engine's block once" {
	each_engine unheeded
}

fall_case() {
	local z
	z=$(at "$(closed_forms "$1")" 1 fall::link/pose z)
	# semi-implicit Euler (ODE, Bullet, MuJoCo's default, DART) exactly;
	# or the parabola itself (Simbody's error-controlled integrator)
	if near "$z" "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9 2>/dev/null; then
		echo "semi-implicit Euler"
	else
		near "$z" "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 / 2 }')" 1e-9
		echo "the parabola"
	fi
}
@test "free fall: z0 - g h^2 n (n + 1) / 2 (semi-implicit Euler) or z0 - g t^2 / 2 to 1e-9 under each engine" {
	each_engine fall_case
}

pendulum_case() {
	rel "$(series "$(closed_forms "$1")" pendulum::bob/pose roll | period)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) }')" 0.01
}
@test "pendulum: period 2 pi sqrt(I / (m g d)) within 1% under each engine" {
	each_engine pendulum_case
}

massless_case() {
	sed "s|<world name=\"w\">|&<physics name=\"$1\" type=\"$1\"/>|" \
	    "$BATS_TEST_DIRNAME/data/massless_flange.sdf" > "$TMP/f.sdf"
	phys-step -p "$1" -t 3 -r 100 -i 'p::swing/position' -i 'b::box/pose' "$TMP/f.sdf" > "$TMP/o"
	jq -r '[.t, .items["p::swing/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 0.05 * (1 - cos(sqrt(2.9 * 9.81 / 4.133) * $1)); d = ($2 < 0 ? -$2 : $2) - e
	      if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.002) { print "swing off by " m; exit 1 } }'
	near "$(tail -1 "$TMP/o" | jq '.items["b::box/pose"].z')" 0.3 0.003
	# the bob's 2 kg hang from the flange, swinging at most 0.2 m/s
	# (ODE's quick solver's forces part from it by 0.6 N)
	phys-step -q -p "$1" -s ode.solver.type=world -t 3 -r 100 -i 'p::seat/force' "$TMP/f.sdf" |
	    jq -r 'select(.t > 0.01) | .items["p::seat/force"].z - 2 * 9.81 | fabs' |
	    awk '$1 > m { m = $1 } END { if (m > 0.1) { print "seat force off by " m; exit 1 } }'
}
@test "massless links welded to moving ones: a pendulum swinging through a massless flange at omega = sqrt(2.9 g / 4.133), the flange's weld carrying the bob, a box resting 0.3 m up on a massless skid's ball, under each engine" {
	each_engine massless_case
}

slide_case() {
	local f
	f=$(closed_forms "$1")
	rel "$(at "$f" 1 slide::link/pose x)" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.05
	# ... and it has stopped
	near "$(at "$f" 1 slide::link/linear_vel x)" 0 1e-3
}
@test "sliding: a box at 2 m/s stops after v^2 / (2 mu g) within 5% under each engine" {
	each_engine slide_case
}

# quarter ENGINE: the slider alone on the ground, its friction 0.25 in
# each engine's block (ODE's mu and mu2, Bullet's friction), given 2 m/s:
# where it is after 1.5 s.
quarter() {
	awk '/<model name="(fall|pendulum|bounce|rest|limit|rotor|spring)">/ { skip = 1 }
	    !skip { print } skip && /<\/model>/ { skip = 0 }' "$(profile_world "$W" "$1")" > "$TMP/slide.sdf"
	echo '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p "$1" -t 1.5 -e 1500 -c "$TMP/ctl" -i 'slide::link/pose' \
	    -s 'slide::link::collision/surface.friction.ode.mu=0.25' \
	    -s 'slide::link::collision/surface.friction.ode.mu2=0.25' \
	    -s 'slide::link::collision/surface.friction.bullet.friction=0.25' \
	    "$TMP/slide.sdf" 2>/dev/null | tail -1 | jq '.items["slide::link/pose"].x'
}
friction_case() {
	local x
	x=$(quarter "$1")
	rel "$x" "$(awk 'BEGIN { print 4 / (2 * 0.25 * 9.81) }')" 0.02
	# twice as far as at mu = 0.5
	rel "$x" "$(at "$(closed_forms "$1")" 1.5 slide::link/pose x | awk '{ print 2 * $1 }')" 0.005
}
@test "friction: at mu = 0.25 the box slides v^2 / (2 mu g) within 2%, twice as far as at 0.5, under each engine" {
	each_engine friction_case
}

# cubes_world FILE CTL: 24 upright cubes of 0.2 m, 1 kg, in rows at eight
# yaws (0 to 1.4 rad), the rows at mu 0.25, 0.5 and 0.7, on a plane of mu
# 1 (a pair's is the lesser); in CTL, each sent along x at 2 m/s.
cubes_world() {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>\n'
		engine_profiles 0.001
		printf '<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry>'
		printf '<surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision></link></model>\n'
		awk 'BEGIN { split("0.25 0.5 0.7", mu, " ")
		    for (r = 1; r <= 3; r++) for (k = 0; k < 8; k++)
			printf "<model name=\"c%d_%d\"><pose>0 %g 0.1 0 0 %.4f</pose><link name=\"link\"><inertial><mass>1</mass><inertia><ixx>0.0066667</ixx><iyy>0.0066667</iyy><izz>0.0066667</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry><surface><friction><ode><mu>%s</mu><mu2>%s</mu2></ode><bullet><friction>%s</friction></bullet></friction></surface></collision></link></model>\n",
			    r, k, (r * 8 + k) * 0.5, k * 0.2, mu[r], mu[r], mu[r] }'
		printf '</world></sdf>\n'
	} > "$1"
	awk 'BEGIN { for (r = 1; r <= 3; r++) for (k = 0; k < 8; k++)
	    printf "{\"t\":0,\"name\":\"c%d_%d::link/linear_vel\",\"value\":{\"x\":2,\"y\":0,\"z\":0}}\n", r, k }' > "$2"
}
cubes_case() {
	phys-step -p "$1" -t 1.5 -r 1 -c "$TMP/c.ctl" -i 'c*::link/pose' "$TMP/c.sdf" > "$TMP/out" 2>/dev/null
	# per cube: the slide against v^2 / (2 mu g), and the turn
	jq -s -r '.[0].items as $a | .[-1].items as $b | $a | keys[] |
	    [., $b[.].x - $a[.].x, $b[.].y - $a[.].y, $b[.].yaw - $a[.].yaw] | @tsv' "$TMP/out" |
	    awk 'BEGIN { mu[1] = 0.25; mu[2] = 0.5; mu[3] = 0.7 }
		function abs(v) { return v < 0 ? -v : v }
		{ split($1, p, /[c_:]/); e = 4 / (2 * mu[p[2]] * 9.81) }
		abs($2 - e) > 0.02 * e || abs($3) > 0.01 || abs($4) > 0.05 {
			printf "%s at mu %s slid %s m (%s m), %s m aside, turned %s rad\n",
			    $1, mu[p[2]], $2, e, $3, $4 > "/dev/stderr"; bad++ }
		END { exit bad > 0 }'
}
@test "upright cubes sent sliding at eight yaws and mu 0.25, 0.5 and 0.7 stop at v^2 / (2 mu g) within 2%, straight on, unturned, under each engine" {
	cubes_world "$TMP/c.sdf" "$TMP/c.ctl"
	each_engine cubes_case
}

# slope_world FILE THETA: a plane THETA rad steep (down towards +x), mu
# 0.2, and a cube of 0.2 m, 1 kg, resting on it.
slope_world() {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>\n'
		engine_profiles 0.001
		awk -v th="$2" 'BEGIN { s = sin(th); c = cos(th)
		    f = "<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode><bullet><friction>0.2</friction></bullet></friction></surface>"
		    printf "<model name=\"ground\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><plane><normal>%.17g 0 %.17g</normal></plane></geometry>%s</collision></link></model>\n", s, c, f
		    printf "<model name=\"cube\"><pose>%.17g 0 %.17g 0 %s 0</pose><link name=\"link\"><inertial><mass>1</mass><inertia><ixx>0.0066667</ixx><iyy>0.0066667</iyy><izz>0.0066667</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry>%s</collision></link></model>\n",
			0.1 * s, 0.1 * c, th, f }'
		printf '</world></sdf>\n'
	} > "$1"
}
# slope_case ENGINE: down the slope, the cube's way and turn in 1 s
slope_case() {
	phys-step -p "$2" -t 1 -r 1 -i 'cube::link/pose' "$TMP/s$1.sdf" 2>/dev/null |
	    jq -s -r '.[0].items[] as $a | .[-1].items[] as $b |
		[((($b.x - $a.x) | . * .) + (($b.z - $a.z) | . * .)) | sqrt, $b.y, $b.yaw] | @tsv'
}
slopes_case() {
	local r
	# 0.3 rad, past the friction angle atan 0.2: a = g (sin - mu cos)
	r=$(slope_case 0.3 "$1")
	rel "$(echo "$r" | cut -f1)" "$(awk 'BEGIN { print 9.81 * (sin(0.3) - 0.2 * cos(0.3)) / 2 }')" 0.02
	near "$(echo "$r" | cut -f2)" 0 0.002
	near "$(echo "$r" | cut -f3)" 0 0.01
	# 0.15 rad, within it: held (Bullet's surface layer settles 1 mm)
	r=$(slope_case 0.15 "$1")
	near "$(echo "$r" | cut -f1)" 0 0.0015
}
@test "a cube on a slope past its friction angle slides g (sin - mu cos) t^2 / 2 within 2%, straight down, unturned; within it, it stays; under ODE, Bullet, DART and MuJoCo" {
	slope_world "$TMP/s0.3.sdf" 0.3
	slope_world "$TMP/s0.15.sdf" 0.15
	# Simbody's friction lets a held contact creep (under 1 cm/s, by
	# design: simbody.max_transient_velocity)
	each_engine_of "ode bullet dart mujoco" slopes_case
}

# A friction halved mid-run: the slider at mu = 0.5 given 2 m/s, its
# friction 0.25 from t = 0.2 s on, by control lines. It slides
# 2 (0.2) - mu g (0.2)^2 / 2 on 0.5, then v^2 / (2 mu g) on 0.25 from
# v = 2 - 0.5 g (0.2): 0.514 m, where 0.5 throughout gives 0.408 and
# 0.25 throughout 0.815.
halved_case() {
	local x g=9.81
	awk '/<model name="(fall|pendulum|bounce|rest|limit|rotor|spring)">/ { skip = 1 }
	    !skip { print } skip && /<\/model>/ { skip = 0 }' "$(profile_world "$W" "$1")" > "$TMP/slide.sdf"
	{
		echo '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}'
		for f in ode.mu ode.mu2 bullet.friction; do
			printf '{"t":0.2,"name":"slide::link::collision/surface.friction.%s","value":0.25}\n' "$f"
		done
	} > "$TMP/ctl"
	x=$(phys-step -p "$1" -t 1.5 -e 1500 -c "$TMP/ctl" -i 'slide::link/pose' \
	    -s 'slide::link::collision/surface.friction.bullet.friction=0.5' \
	    "$TMP/slide.sdf" 2>/dev/null | tail -1 | jq '.items["slide::link/pose"].x')
	rel "$x" "$(awk -v g=$g 'BEGIN { v = 2 - 0.5 * g * 0.2
	    print 0.4 - 0.5 * g * 0.02 + v * v / (2 * 0.25 * g) }')" 0.02
}
@test "friction changed mid-run: halved at t = 0.2 s by control lines, the box slides 0.4 - mu g 0.02 + v^2 / (2 (mu / 2) g) within 2% under each engine" {
	each_engine halved_case
}

bounce_case() {
	local top
	# the highest point after the first impact (t = 0.45 s)
	top=$(series "$(closed_forms "$1")" bounce::link/pose z |
	    awk '$1 > 0.5 && $1 <= 1.2 && $2 > m { m = $2 } END { print m }')
	rel "$(awk -v z="$top" 'BEGIN { print z - 0.1 }')" 0.25 0.05
}
@test "restitution: a ball dropped from 1 m with e = 0.5 rises again to e^2 m within 5% under each engine" {
	each_engine bounce_case
}

rest_case() {
	local f z
	f=$(closed_forms "$1")
	z=$(at "$f" 2 rest::link/pose z)
	# sunk, but no deeper than the contact surface layer (1 mm)
	awk -v z="$z" 'BEGIN { exit !(z <= 0.1 + 1e-9 && z >= 0.1 - 0.00105) }' ||
		fail "rest box at $z"
	near "$(at "$f" 2 rest::link/linear_vel z)" 0 1e-4
	near "$(at "$f" 2 rest::link/pose roll)" 0 1e-6
}
@test "resting contact: a box on the ground stays, sunk at most the surface layer (Simbody: its compliance), under each engine" {
	each_engine rest_case
}

# unmasked ENGINE: the ball resting on the ground from 0 to 0.5 s, its
# category and collide bitmasks 0 from then on: it falls through the
# ground freely, z(0.5) - g h^2 n (n + 1) / 2 after n steps of h.
unmasked() {
	local w z0 z1
	w=$(profile_world "$WORLDS/resting_sphere.sdf" "$1")
	printf '%s\n' '{"t":0.5,"name":"ball::link::collision/surface.contact.collide_bitmask","value":0}' \
	    '{"t":0.5,"name":"ball::link::collision/surface.contact.category_bitmask","value":0}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -e 100 -i 'ball::link/pose' -c "$TMP/ctl" "$w" > "$TMP/run"
	z0=$(at "$TMP/run" 0.5 ball::link/pose z)
	z1=$(at "$TMP/run" 1 ball::link/pose z)
	near "$z0" 0.1 0.005
	near "$z1" "$(awk -v z="$z0" 'BEGIN { print z - 9.81 * 1e-6 * 500 * 501 / 2 }')" 0.005
}
@test "a collision's bitmasks cleared mid-run by control lines: a resting ball falls through the ground from then on, under each engine" {
	each_engine unmasked
}

# self_collided ENGINE [LINE]: two 1 kg balls of one model 0.5 m apart
# without gravity, a sent at b at 1 m/s, LINE among the control lines:
# both balls' velocities along x after 1 s.
self_collided() {
	cat > "$TMP/two.sdf" <<'XML'
<sdf version="1.7"><world name="w"><gravity>0 0 0</gravity>
<physics name="ode" type="ode" default="true"><max_step_size>0.001</max_step_size></physics>
<model name="m">
 <link name="a"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
  <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
 <link name="b"><pose>0.5 0 0 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
  <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
</model></world></sdf>
XML
	printf '%s\n' '{"t":0,"name":"m::a/linear_vel","value":{"x":1,"y":0,"z":0}}' ${2:+"$2"} > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -e 1000 -c "$TMP/ctl" -i 'm::*/linear_vel' \
	    "$(profile_world "$TMP/two.sdf" "$1")" | tail -1 |
	    jq -r '[.items["m::a/linear_vel"].x, .items["m::b/linear_vel"].x] | @tsv'
}
# Without self_collide a passes through b; with it set on a at 0.1 s
# (0.2 s before they meet) a strikes b: momentum kept, b at least as
# fast as a (0.5 m/s each, MuJoCo's and Simbody's contacts giving back
# some of it).
self_collide_case() {
	local v
	v=$(self_collided "$1")
	near "$(cut -f1 <<<"$v")" 1 1e-9
	near "$(cut -f2 <<<"$v")" 0 1e-9
	v=$(self_collided "$1" '{"t":0.1,"name":"m::a/self_collide","value":true}')
	near "$(awk '{ print $1 + $2 }' <<<"$v")" 1 1e-6
	awk -v a="$(cut -f1 <<<"$v")" -v b="$(cut -f2 <<<"$v")" 'BEGIN { exit !(b >= a - 1e-6 && b >= 0.5 - 1e-6) }' ||
		fail "$1: after the impact a at $(cut -f1 <<<"$v"), b at $(cut -f2 <<<"$v") m/s"
}
@test "self_collide set mid-run: two links of one model that passed through each other strike, momentum kept, under each engine" {
	each_engine self_collide_case
}

# leg_robot ROTOR_Y: a URDF trunk with a hip, a thigh that collides with
# the rest of its robot (self_collide) and a knee motor fixed to the
# thigh on the thigh joint's axis, ROTOR_Y m across from the thigh's
# origin: at -0.09 wholly inside the trunk (y 0.03 to 0.05, the trunk's
# side at 0.075), at -0.06 half out of it.
leg_robot() {
	cat > "$TMP/leg.urdf" <<URDF
<?xml version="1.0"?>
<robot name="leg">
  <link name="trunk">
    <inertial><mass value="5"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.15" iyz="0" izz="0.16"/></inertial>
    <collision><geometry><box size="0.6 0.15 0.1"/></geometry></collision>
  </link>
  <joint name="hip_joint" type="revolute">
    <parent link="trunk"/><child link="hip"/><origin xyz="0.2 0.05 0"/><axis xyz="1 0 0"/>
    <limit lower="-0.8" upper="0.8" effort="30" velocity="10"/>
  </joint>
  <link name="hip">
    <inertial><mass value="1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
    <collision><origin xyz="0 0.08 0" rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.04" length="0.04"/></geometry></collision>
  </link>
  <joint name="thigh_joint" type="revolute">
    <parent link="hip"/><child link="thigh"/><origin xyz="0 0.08 0"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="30" velocity="10"/>
  </joint>
  <link name="thigh">
    <inertial><origin xyz="0 0 -0.1"/><mass value="0.6"/><inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.0004"/></inertial>
    <collision><origin xyz="0 0.03 -0.125"/><geometry><box size="0.04 0.03 0.25"/></geometry></collision>
  </link>
  <joint name="knee_rotor_joint" type="fixed">
    <parent link="thigh"/><child link="knee_rotor"/><origin xyz="0 $1 0"/>
  </joint>
  <link name="knee_rotor">
    <inertial><mass value="0.1"/><inertia ixx="4e-5" ixy="0" ixz="0" iyy="4e-5" iyz="0" izz="4e-5"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.03" length="0.02"/></geometry></collision>
  </link>
  <gazebo reference="thigh"><self_collide>1</self_collide></gazebo>
</robot>
URDF
}

# The motor wholly inside the trunk is kept apart from it: the robot falls
# as one body for 0.5 s, level and its joints still, its trunk at the
# free fall's z. Touching, the motor twisted the robot under ODE (roll
# 0.077), Bullet (2.9), MuJoCo and DART, not under Simbody. Half out, it
# touches the trunk at the first step under every engine.
motor_inside_case() {
	local e=$1 z
	leg_robot -0.09
	phys-step -q -p "$e" -t 0.5 -e 500 -i 'leg::trunk/pose' -i 'leg::*_joint/position' \
	    "$TMP/leg.urdf" | tail -1 > "$TMP/end"
	for f in roll pitch yaw; do
		near "$(jq ".items[\"leg::trunk/pose\"].$f" "$TMP/end")" 0 1e-9
	done
	near "$(jq '.items["leg::hip_joint/position"][0]' "$TMP/end")" 0 1e-9
	near "$(jq '.items["leg::thigh_joint/position"][0]' "$TMP/end")" 0 1e-9
	z=$(jq '.items["leg::trunk/pose"].z' "$TMP/end")
	near "$z" "$(awk 'BEGIN { printf "%.15f", -9.8 * 1e-6 * 500 * 501 / 2 }')" 1e-9 2>/dev/null ||
	    near "$z" "$(awk 'BEGIN { printf "%.15f", -9.8 * 0.25 / 2 }')" 1e-9
	leg_robot -0.06
	[ "$(phys-step -q -p "$e" -n 1 -i contacts "$TMP/leg.urdf" | tail -1 | jq .items.contacts)" -gt 0 ]
}
@test "a knee motor left wholly inside its robot's trunk, which self_collide lets it touch, is kept apart from it, said at its line: the robot falls as one body under each engine; half out, it touches" {
	each_engine motor_inside_case
	leg_robot -0.09
	run --separate-stderr phys-sdf check "$TMP/leg.urdf"
	[ "$output" = '{"file":"'"$TMP"'/leg.urdf","line":28,"severity":"warning","message":"collision '"'leg::thigh::thigh_fixed_joint_lump__knee_rotor_collision_1'"' starts wholly inside collision '"'leg::trunk::trunk_collision'"' of its own model, which self_collide lets it touch: no engine pushes it out as another does (ODE jolts the links, MuJoCo diverges), so the two are kept apart (phys(7), SDF SUPPORT)"}' ]
	# a command that only reads the robot says nothing of it
	run --separate-stderr phys-preset list "$TMP/leg.urdf"
	[[ "$stderr" != *"wholly inside"* ]]
	leg_robot -0.06
	run --separate-stderr phys-sdf check "$TMP/leg.urdf"
	[ -z "$output" ]
}

# An arm of 1 kg at 0.5 m (0.251 kg m^2 about its shoulder) let go level,
# a finger of no mass in the file on a revolute joint at its tip (a
# gripper's finger as URDF robots leave it): the arm reaches the bottom
# at sqrt(I / (m g d)) K(1 / sqrt 2), the finger's stand-in (1/1000 of
# the arm's mass) changing it by less than 0.1%. Bullet refused the
# robot.
# at_bottom: from state lines of arm::shoulder/position on standard
# input, the time the arm let go level reaches the bottom (pi / 2),
# interpolated between lines.
at_bottom() {
	jq -r 'select(.items) | [.t, .items["arm::shoulder/position"][0]] | @tsv' |
	    awk -v h=1.5707963267948966 'NR > 1 && v < h && $2 >= h {
		printf "%.9f\n", t + (h - v) * ($1 - t) / ($2 - v); exit }
		{ t = $1; v = $2 }'
}

massless_finger_case() {
	cat > "$TMP/arm.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="arm">
  <link name="world"/>
  <joint name="base_joint" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 2"/></joint>
  <link name="base">
    <inertial><mass value="5"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="100"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
  </link>
  <joint name="knuckle" type="revolute">
    <parent link="arm"/><child link="finger"/><origin xyz="1 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="10"/>
  </joint>
  <link name="finger">
    <collision><origin xyz="0.05 0 0"/><geometry><box size="0.1 0.02 0.02"/></geometry></collision>
  </link>
</robot>
URDF
	local t
	t=$(phys-step -q -p "$1" -t 0.6 -i 'arm::shoulder/position' "$TMP/arm.urdf" |
	    at_bottom)
	rel "$t" "$(awk 'BEGIN { printf "%.9f", sqrt(0.251 / (9.8 * 0.5)) * 1.8540746773013719 }')" 0.01
}
@test "a finger of no mass on a revolute joint at a swinging arm's tip runs with its stand-in: the arm reaches the bottom at sqrt(I / m g d) K(1/sqrt 2) within 1% under each engine" {
	each_engine massless_finger_case
}

# massless_model_case ENGINE: a robot none of whose links has a mass (a
# URDF without <inertial>, as many are) runs with its shapes' mass at
# 1000 kg/m^3. An arm, a box of 0.4 x 0.04 x 0.04 m from the shoulder
# along x, is 0.64 kg and swings from level to the bottom at
# sqrt(I / (m g d)) K(1 / sqrt 2), I = m (0.4^2 + 0.04^2) / 12 + m 0.2^2
# about the shoulder, d = 0.2: with stand-ins of 1 g at its origin,
# which is on the shoulder's axis, it did not swing at all. A chain of
# three such links on joints of damping 10 dropped on the ground rests
# on its base: with stand-ins, ODE threw it through the ground, Bullet
# tipped it over and Simbody did not finish its first step.
massless_model_case() {
	cat > "$TMP/arm.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="arm">
  <link name="world"/>
  <joint name="mount" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 1"/></joint>
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 -0.05"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="100" velocity="100"/></joint>
  <link name="upper"><collision><origin xyz="0.2 0 0"/><geometry><box size="0.4 0.04 0.04"/></geometry></collision></link>
</robot>
URDF
	local t
	run -0 --separate-stderr phys-step -p "$1" -t 0.6 -i 'arm::shoulder/position' -i 'arm::upper/mass' "$TMP/arm.urdf"
	[[ "$stderr" == *"arm.urdf:2: model 'arm': none of its links has a mass: its 1 moving link runs with the mass and inertia of its collision shapes at 1000 kg/m^3 (0.64 kg in all), as phys-inertia fix --all writes them and MuJoCo gives a body without <inertial>, not with stand-ins of 1 g"* ]]
	rel "$(head -1 <<<"$output" | jq '.items["arm::upper/mass"]')" 0.64 1e-12
	t=$(at_bottom <<<"$output")
	rel "$t" "$(awk 'BEGIN { i = (0.16 + 0.0016) / 12 + 0.04
	    printf "%.9f", sqrt(i / (9.8 * 0.2)) * 1.8540746773013719 }')" 0.01
	cat > "$TMP/chain.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="chain">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="10"/><dynamics damping="10"/></joint>
  <link name="l1"><collision><origin xyz="0 0 0.15"/><geometry><cylinder radius="0.03" length="0.3"/></geometry></collision></link>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 0.3"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="10"/><dynamics damping="10"/></joint>
  <link name="l2"><collision><origin xyz="0 0 0.15"/><geometry><box size="0.04 0.04 0.3"/></geometry></collision></link>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/>
    <origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="10"/><dynamics damping="10"/></joint>
  <link name="l3"><collision><origin xyz="0 0 0.05"/><geometry><sphere radius="0.05"/></geometry></collision></link>
</robot>
URDF
	phys-sdf world -q --ground -o "$TMP/chain.sdf" "$TMP/chain.urdf"
	run -0 phys-step -q -p "$1" -t 1 -e 1000 -i 'chain::base/pose' -i 'chain::l1/mass' "$TMP/chain.sdf"
	rel "$(tail -1 <<<"$output" | jq '.items["chain::l1/mass"]')" "$(awk 'BEGIN { printf "%.12g", 1000 * atan2(0, -1) * 0.03^2 * 0.3 }')" 1e-9
	near "$(tail -1 <<<"$output" | jq '.items["chain::base/pose"].z')" 0.05 0.002
	near "$(tail -1 <<<"$output" | jq '.items["chain::base/pose"].roll')" 0 1e-3
}
@test "a robot of no mass at all runs with its shapes' mass at 1000 kg/m^3, said once: an arm of a 0.4 m box swings down at sqrt(I / m g d) K(1/sqrt 2) within 1%, a damped chain rests on the ground, under each engine" {
	each_engine massless_model_case
}

# open_box_case ENGINE: a 0.2 m cube without its top face (an OBJ of
# five faces: open, as CAD exports a robot's links) dropped from 0.5 m
# rests on its bottom at z = 0.1 within 2 mm, level. Simbody, whose
# elastic foundation needs an inside, collides its convex hull, said at
# the collision's line; it refused the mesh.
open_box_case() {
	{
		printf 'v %s\n' '-0.1 -0.1 -0.1' '0.1 -0.1 -0.1' '0.1 0.1 -0.1' '-0.1 0.1 -0.1' \
		    '-0.1 -0.1 0.1' '0.1 -0.1 0.1' '0.1 0.1 0.1' '-0.1 0.1 0.1'
		printf 'f %s\n' '1 3 2' '1 4 3' '1 2 6' '1 6 5' '2 3 7' '2 7 6' \
		    '3 4 8' '3 8 7' '4 1 5' '4 5 8'
	} > "$TMP/open.obj"
	cat > "$TMP/open.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
$(engine_profiles 0.001)
<model name="ground"><static>true</static><link name="link">
  <collision name="c"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision>
</link></model>
<model name="box"><pose>0 0 0.5 0 0 0</pose><link name="link">
  <inertial><mass>1</mass><inertia><ixx>0.0067</ixx><iyy>0.0067</iyy><izz>0.0067</izz></inertia></inertial>
  <collision name="c"><geometry><mesh><uri>open.obj</uri></mesh></geometry></collision>
</link></model>
</world></sdf>
SDF
	run --separate-stderr phys-step -p "$1" -t 1.5 -r 10 -i 'box::link/pose' "$TMP/open.sdf"
	[ "$status" -eq 0 ] || fail "$stderr"
	near "$(tail -1 <<<"$output" | jq '.items["box::link/pose"].z')" 0.1 0.002
	near "$(tail -1 <<<"$output" | jq '.items["box::link/pose"].roll')" 0 1e-3
	if [ "$1" = simbody ]; then
		grep -qx "phys-step: $TMP/open.sdf:[0-9]*: collision 'box::link::c': an open mesh, which Simbody's elastic foundation cannot collide (it needs an inside): its convex hull collides instead, as under MuJoCo" <<<"$stderr"
	fi
}
# hull_rests ENGINE: a bar's hull and a capsule let go 1 cm over a box,
# a cube's hull, a capsule lying and a cylinder standing over a hull, and
# a capsule over a cylinder's end, rest where they were put, level (Bullet 1 mm deep; the capsule free to
# roll, and under Simbody a faceted one, 6.5 mrad off level); MuJoCo
# with its multiccd flag (without, its convex collider finds one point,
# and the bar rocks onto an end, as libmujoco's does).
hull_rests() {
	phys-step -q -p "$1" -s mujoco.multiccd=true -t 2 -r 1 -i '*::l/pose' \
	    "$TMP/hulls.sdf" 2> /dev/null | tail -1 > "$TMP/o"
	for k in bar:x:0 bar:y:0 bar:z:0.03 bar:roll:0 bar:pitch:0 bar:yaw:0.7 \
	    b:x:3.2 b:y:0.1 b:z:1.5 b:yaw:0.3 cap:z:1.03 cap:roll:1.5707963:0.01 \
	    cyl:x:6 cyl:y:0.2 cyl:z:1.1 cyl:roll:0 cyl:pitch:0 \
	    boxcap:z:0.03 boxcap:roll:1.5707963:0.01 postcap:z:0.53 \
	    postcap:roll:1.5707963:0.01; do
		set -- ${k//:/ } 1.2e-3
		near "$(jq ".items[\"$1::l/pose\"].$2" "$TMP/o")" "$3" "$4"
	done
}

@test "convex hulls on a box and on a hull, a capsule and a cylinder on a hull, a capsule on a box and on a cylinder rest where they were put under each engine (ODE collides them at one point, and DART a capsule by ODE's detector: a bar sank through a box at 3 cm/s, a capsule 1.2 cm into a hull and 1.6 cm into a box, under DART to its axis)" {
	box_obj 0.6 0.03 0.03 > "$TMP/bar.obj"
	box_obj 0.5 0.5 0.5 > "$TMP/cube.obj"
	cat > "$TMP/hulls.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11"><world name="w">
<model name="table"><static>true</static><pose>0 0 -0.3 0 0 0</pose><link name="l"><collision name="c"><geometry><box><size>2 2 0.6</size></box></geometry></collision></link></model>
<model name="bar"><pose>0 0 0.04 0 0 0.7</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.0006</ixx><iyy>0.12</iyy><izz>0.12</izz></inertia></inertial>
<collision name="c"><geometry><mesh optimization="convex_hull"><uri>bar.obj</uri></mesh></geometry></collision></link></model>
<model name="a"><static>true</static><pose>3 0 0.5 0 0 0</pose><link name="l"><collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri></mesh></geometry></collision></link></model>
<model name="b"><pose>3.2 0.1 1.51 0 0 0.3</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.17</ixx><iyy>0.17</iyy><izz>0.17</izz></inertia></inertial>
<collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri></mesh></geometry></collision></link></model>
<model name="a2"><static>true</static><pose>6 0 0.5 0 0 0</pose><link name="l"><collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri></mesh></geometry></collision></link></model>
<model name="cap"><pose>6 -0.2 1.04 1.5707963267948966 0 0</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.0005</izz></inertia></inertial>
<collision name="c"><geometry><capsule><radius>0.03</radius><length>0.2</length></capsule></geometry></collision></link></model>
<model name="boxcap"><pose>0.8 0.8 0.04 1.5707963267948966 0 0</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.0005</izz></inertia></inertial>
<collision name="c"><geometry><capsule><radius>0.03</radius><length>0.2</length></capsule></geometry></collision></link></model>
<model name="post"><static>true</static><pose>9 0 0.25 0 0 0</pose><link name="l"><collision name="c"><geometry><cylinder><radius>0.5</radius><length>0.5</length></cylinder></geometry></collision></link></model>
<model name="postcap"><pose>9 0 0.54 1.5707963267948966 0 0</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.0005</izz></inertia></inertial>
<collision name="c"><geometry><capsule><radius>0.03</radius><length>0.2</length></capsule></geometry></collision></link></model>
<model name="cyl"><pose>6 0.2 1.11 0 0 0</pose>
<link name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.0005</izz></inertia></inertial>
<collision name="c"><geometry><cylinder><radius>0.03</radius><length>0.2</length></cylinder></geometry></collision></link></model>
</world></sdf>
SDF
	each_engine hull_rests
}

# round_rests ENGINE: on a cylinder's end (a post), a box, a box of
# triangles, a cylinder standing and one lying, and a ball; on a box, a
# cylinder standing and one lying: each rests where it was put, level,
# after 1 s. A wheel (a
# solid cylinder) rolls down a box sloping at 0.2 rad and down a
# cylinder's end sloping so, and a ball down the end, each at its closed
# form, 1/2 a t^2 with a = g sin(0.2) / (1 + I / m r^2), within 1%; under
# Simbody, whose contacts at SDF's default dissipation resist rolling,
# only the rests.
round_rests() {
	local k a engine=$1
	phys-step -q -p "$engine" -t 1 -r 1 -i '*::l/pose' "$TMP/round.sdf" \
	    2> /dev/null | tail -1 > "$TMP/o"
	for k in blk:z:0.55 blk:roll:0 blk:pitch:0 mbox:z:0.55 mbox:roll:0 \
	    mbox:pitch:0 mbox:x:-1 can:z:0.6 can:roll:0 \
	    can:pitch:0 log:z:0.54 log:roll:1.5707963 ball:z:0.55 ball:x:-1.2 \
	    can2:z:0.2 can2:roll:0 can2:pitch:0 log2:z:0.14 log2:roll:1.5707963; do
		set -- ${k//:/ } 1.2e-3
		near "$(jq ".items[\"$1::l/pose\"].$2" "$TMP/o")" "$3" "$4"
	done
	[ "$engine" != simbody ] || return 0
	for k in whl:0:0 whl2:0:5 ball2:-0.5:5.5; do
		set -- ${k//:/ }
		a=$(awk -v b="$1" 'BEGIN { f = b == "ball2" ? 2 / 5 : 1 / 2
		    printf "%.9f", 9.8 * sin(0.2) / (1 + f) }')
		set -- $(jq -r ".items[\"$1::l/pose\"] | \"\(.x) \(.y)\"" \
		    "$TMP/o") "$2" "$3"
		rel "$(awk -v x="$1" -v x0="$3" 'BEGIN { print (x - x0) / cos(0.2) }')" \
		    "$(awk -v a="$a" 'BEGIN { print a / 2 }')" 0.01
		near "$2" "$4" 3e-3
	done
}

@test "cylinders standing and lying, a box, a box of triangles and a ball rest on a cylinder's end, cylinders on a box; a wheel rolls down a sloping box and a sloping cylinder's end, a ball down the end, at their closed forms, under each engine (DART's FCL let a cylinder fall through a cylinder's end, ODE's one point let it sink in 1.8 cm lying, MuJoCo's 1.2 cm into a box, Bullet threw the box of triangles off)" {
	local s=1.5707963267948966
	box_obj 0.5 0.5 0.5 > "$TMP/cube.obj"
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		solid() {	# name pose static|mass geometry [inertia]
			printf '<model name="%s"><pose>%s</pose>' "$1" "$2"
			[ "$3" = static ] && printf '<static>true</static>'
			printf '<link name="l">'
			[ "$3" = static ] || printf '<inertial><mass>%s</mass><inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz></inertia></inertial>' "$3" $5
			printf '<collision name="c"><geometry>%s</geometry></collision></link></model>\n' "$4"
		}
		local cyl='<cylinder><radius>0.04</radius><length>0.2</length></cylinder>'
		local whl='<cylinder><radius>0.05</radius><length>0.2</length></cylinder>'
		local ball='<sphere><radius>0.05</radius></sphere>'
		solid post "-1 0 0.25 0 0 0" static '<cylinder><radius>0.5</radius><length>0.5</length></cylinder>'
		solid blk "-1 0.2 0.551 0 0 0.3" 1 '<box><size>0.1 0.1 0.1</size></box>' "0.0017 0.0017 0.0017"
		solid can "-1.2 0.2 0.601 0 0 0" 0.3 "$cyl" "0.0011 0.0011 0.00024"
		solid log "-0.7 0 0.541 $s 0 0" 0.3 '<cylinder><radius>0.04</radius><length>0.3</length></cylinder>' "0.0024 0.0024 0.00024"
		solid ball "-1.2 0 0.551 0 0 0" 0.5 "$ball" "0.0005 0.0005 0.0005"
		solid mbox "-1 -0.25 0.551 0 0 0.3" 1 '<mesh><uri>cube.obj</uri><scale>0.1 0.1 0.1</scale></mesh>' "0.0017 0.0017 0.0017"
		solid table "2 0 0.05 0 0 0" static '<box><size>1 1 0.1</size></box>'
		solid can2 "2 0.2 0.201 0 0 0" 0.3 "$cyl" "0.0011 0.0011 0.00024"
		solid log2 "2 -0.2 0.141 $s 0 0" 0.3 "$cyl" "0.0011 0.0011 0.00024"
		# slopes: their tops through the origin's normal at 0.1
		solid ramp "0 0 0 0 0.2 0" static '<box><size>10 2 0.2</size></box>'
		solid ramp2 "0 5 0 0 0.2 0" static '<cylinder><radius>3</radius><length>0.2</length></cylinder>'
		# on them, 0.05 m out along the normal: z = 0.15 / cos(0.2)
		solid whl "0 0 0.1530508 $s 0.2 0" 2 "$whl" "0.0079167 0.0079167 0.0025"
		solid whl2 "0 5 0.1530508 $s 0.2 0" 2 "$whl" "0.0079167 0.0079167 0.0025"
		solid ball2 "-0.5 5.5 0.2544058 0 0.2 0" 0.5 "$ball" "0.0005 0.0005 0.0005"
		printf '</world></sdf>\n'
	} > "$TMP/round.sdf"
	each_engine round_rests
}

# slides ENGINE: two boxes (one turned 0.3 rad about the normal), a box
# of twelve triangles, a bar's hull and two cylinders standing, each on
# a box, a cylinder's end, a box's hull and a
# box of triangles sloping at 0.3 rad, friction 0.2, slide down the
# slope 1/2 g (sin 0.3 - 0.2 cos 0.3) t^2 in 1 s, within 2%, straight
# down it within 3 mm (MuJoCo's veer up to 1.8 mm on their way of
# 0.51 m, ODE's 0.9 mm; Bullet's convex points, four in its manifold,
# veered a turned box 16 mm), standing square to it within 5 mrad.
slides() {
	local k s
	phys-step -q -p "$1" -t 1 -r 1 -i '*::l/pose' "$TMP/slope.sdf" \
	    2> /dev/null | tail -1 > "$TMP/o"
	for k in box:-0.8:-0.4 mbox:-0.4:0.4 hbar:0:-0.4 can:0.4:0.4 \
	    can2:0.8:-0.4 ybox:-1.2:0.4; do
		for s in 0 4 8 12; do
			# its z axis from the slope's normal, rad
			near "$(jq -r ".items[\"p$s::${k%%:*}::l/pose\"] |
			    \"\(.roll) \(.pitch) \(.yaw)\"" "$TMP/o" |
			    awk "$RPY_MATRIX_AWK"'{ rpy_matrix($0, m)
			    c = m[2] * sin(0.3) + m[8] * cos(0.3)
			    print atan2(sqrt(1 - (c > 1 ? 1 : c) ^ 2), c) }')" 0 5e-3
			set -- ${k//:/ } $(jq -r ".items[\"p$s::${k%%:*}::l/pose\"] |
			    \"\(.x) \(.y) \(.z)\"" "$TMP/o")
			# along the slope, from where it was put
			rel "$(awk -v x="$4" -v z="$6" -v x0="$2" 'BEGIN {
			    printf "%.9f", x * cos(0.3) - z * sin(0.3) - x0 }')" \
			    "$(awk 'BEGIN { g = 9.8
			    printf "%.9f", g * (sin(0.3) - 0.2 * cos(0.3)) / 2 }')" 0.02
			near "$5" "$(awk -v a="$s" -v b="$3" 'BEGIN { print a + b }')" 3e-3
		done
	done
}

@test "boxes, a box of triangles, a bar's hull and two standing cylinders slide down a sloping box, cylinder's end, hull and box of triangles at g (sin - mu cos), square to it, under each engine (ODE's test of two boxes found no points for a box turned on a sloping box, which fell 0.27 m into it; Bullet's points for a standing cylinder on a box, a hull or a cylinder's end lay mostly on its front half, and it slid 3.4% too far, and a turned box on a hull or a cylinder's end veered 16 mm; DART's FCL gave the box of triangles its sides' normals at its corners on a box, and it stuck; on a cylinder's end the box stopped, the cylinder slid 57% too far and the hull 2.8 times; ODE's detector gave the hull landing on the end a point 0.39 m deep, and it slid 2.5% short, and the box of triangles on a hull one point a triangle, on which it slid 60% short, and the hull on triangles one point, on which it rocked and slid 4.2% short; DART's FCL let a box slide 7% too far on a hull and 12.9% on triangles)" {
	box_obj 0.5 0.5 0.5 > "$TMP/cube.obj"
	local f='<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode><bullet><friction>0.2</friction><friction2>0.2</friction2></bullet></friction></surface>'
	local i='<inertial><mass>1</mass><inertia><ixx>0.0067</ixx><iyy>0.0067</iyy><izz>0.0067</izz></inertia></inertial>'
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		# each slope a model turned 0.3 rad about y, its face at z = 0
		# of its frame; what slides on it starts 1 mm over the face
		for s in 0:'<box><size>4 1.6 0.5</size></box>' \
		    4:'<cylinder><radius>2</radius><length>0.5</length></cylinder>' \
		    8:'<mesh optimization="convex_hull"><uri>cube.obj</uri><scale>4 1.6 0.5</scale></mesh>' \
		    12:'<mesh><uri>cube.obj</uri><scale>4 1.6 0.5</scale></mesh>'; do
			printf '<model name="p%s"><pose>0 %s 0 0 0.3 0</pose>\n' "${s%%:*}" "${s%%:*}"
			printf '<model name="slope"><static>true</static><pose>0 0 -0.25 0 0 0</pose><link name="l"><collision name="c"><geometry>%s</geometry>%s</collision></link></model>\n' "${s#*:}" "$f"
			printf '<model name="box"><pose>-0.8 -0.4 0.051 0 0 0</pose><link name="l">%s<collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>%s</collision></link></model>\n' "$i" "$f"
			printf '<model name="ybox"><pose>-1.2 0.4 0.101 0 0 0.3</pose><link name="l">%s<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry>%s</collision></link></model>\n' "$i" "$f"
			printf '<model name="mbox"><pose>-0.4 0.4 0.051 0 0 0</pose><link name="l">%s<collision name="c"><geometry><mesh><uri>cube.obj</uri><scale>0.1 0.1 0.1</scale></mesh></geometry>%s</collision></link></model>\n' "$i" "$f"
			printf '<model name="hbar"><pose>0 -0.4 0.026 0 0 0</pose><link name="l">%s<collision name="c"><geometry><mesh optimization="convex_hull"><uri>cube.obj</uri><scale>0.1 0.2 0.05</scale></mesh></geometry>%s</collision></link></model>\n' "$i" "$f"
			printf '<model name="can"><pose>0.4 0.4 0.051 0 0 0</pose><link name="l">%s<collision name="c"><geometry><cylinder><radius>0.05</radius><length>0.1</length></cylinder></geometry>%s</collision></link></model>\n' "$i" "$f"
			printf '<model name="can2"><pose>0.8 -0.4 0.101 0 0 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.0058</ixx><iyy>0.0058</iyy><izz>0.005</izz></inertia></inertial><collision name="c"><geometry><cylinder><radius>0.1</radius><length>0.2</length></cylinder></geometry>%s</collision></link></model>\n' "$f"
			printf '</model>\n'
		done
		printf '</world></sdf>\n'
	} > "$TMP/slope.sdf"
	each_engine slides
}

# slab_obj: $TMP/slab.obj, a box 4 x 4 x 0.5 m, its top at z = 0 a grid
# of 64 x 64 squares of two triangles each, its sides fans from its
# bottom's corners, outward.
slab_obj() {
	awk 'BEGIN { n = 64; w = 4
		for (j = 0; j <= n; j++)
			for (i = 0; i <= n; i++)
				printf "v %.9g %.9g 0\n", -w / 2 + w * i / n, -w / 2 + w * j / n
		printf "v %g %g -0.5\nv %g %g -0.5\nv %g %g -0.5\nv %g %g -0.5\n", \
		    -w / 2, -w / 2, w / 2, -w / 2, w / 2, w / 2, -w / 2, w / 2
		for (j = 0; j < n; j++)
			for (i = 0; i < n; i++) {
				a = j * (n + 1) + i + 1
				printf "f %d %d %d\nf %d %d %d\n", a, a + 1, a + n + 2, a, a + n + 2, a + n + 1
			}
		b = (n + 1) * (n + 1)
		printf "f %d %d %d\nf %d %d %d\n", b + 1, b + 3, b + 2, b + 1, b + 4, b + 3
		for (s = 0; s < 4; s++) {
			for (k = 0; k < n; k++) {
				if (s == 0) { p = k + 1; q = k + 2 }
				if (s == 1) { p = k * (n + 1) + n + 1; q = p + n + 1 }
				if (s == 2) { p = n * (n + 1) + n - k + 1; q = p - 1 }
				if (s == 3) { p = (n - k) * (n + 1) + 1; q = p - n - 1 }
				printf "f %d %d %d\n", b + s + 1, q, p
			}
			printf "f %d %d %d\n", b + s + 1, b + (s + 1) % 4 + 1, q
		}
	}' > "$TMP/slab.obj"
}

# fine_slides ENGINE [OPTION...]: sixteen bars' hulls and eight boxes of
# 0.3 x 0.1 x 0.1 m, turned 0 to 1.4 rad about the normal, eight hulls
# and the boxes dropped 1 mm and eight hulls set resting on three boxes
# whose tops are 8,192 triangles of 6 cm, sloping at 0.3 rad (friction
# 0.2), slide down them 1/2 g (sin 0.3 - 0.2 cos 0.3) t^2 in 1 s, within
# 1%, straight within 3 mm.
fine_slides() {
	local k s x y
	phys-step -q -p "$@" -t 1 -r 1 -i 'p*::h*::l/pose' "$TMP/fine.sdf" \
	    2> /dev/null | tail -1 > "$TMP/o"
	for s in 0 5 10; do
		for k in 0 1 2 3 4 5 6 7; do
			set -- $(jq -r ".items[\"p$s::h$k::l/pose\"] |
			    \"\(.x) \(.y) \(.z)\"" "$TMP/o")
			rel "$(awk -v x="$1" -v z="$3" 'BEGIN {
			    printf "%.9f", x * cos(0.3) - z * sin(0.3) + 1 }')" \
			    "$(awk 'BEGIN { g = 9.8
			    printf "%.9f", g * (sin(0.3) - 0.2 * cos(0.3)) / 2 }')" 0.01
			near "$2" "$(awk -v s="$s" -v k="$k" \
			    'BEGIN { print s - 1.6 + 0.45 * k }')" 3e-3
		done
	done
}

@test "bars' hulls and boxes at eight headings, dropped onto and resting on a box of fine triangles sloping at 0.3 rad, slide down it at g (sin - mu cos) under ODE, Bullet, DART (either detector) and MuJoCo (ODE and Bullet gave a hull one point a triangle, on which it rocked, and ODE named the triangle by its place in a list of its own; ODE's points and FCL's where a vertex of the floor lay under a hull's edge had normals tilted up to 1.4 rad: bars went up to 5% too far under Bullet, and stopped under DART, and boxes went 33% short under DART's ODE detector)" {
	slab_obj

	box_obj 0.5 0.5 0.5 > "$TMP/cube.obj"
	local f='<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode><bullet><friction>0.2</friction><friction2>0.2</friction2></bullet></friction></surface>'
	local i='<inertial><mass>1</mass><inertia><ixx>0.0017</ixx><iyy>0.0083</iyy><izz>0.0083</izz></inertia></inertial>'
	local s k
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		# p0's hulls and p10's boxes start 1 mm over the face, p5's
		# hulls on it
		local hull='<mesh optimization="convex_hull"><uri>cube.obj</uri><scale>0.3 0.1 0.1</scale></mesh>'
		local box='<box><size>0.3 0.1 0.1</size></box>'
		for s in 0:0.051:hull 5:0.05:hull 10:0.051:box; do
			set -- ${s//:/ }
			printf '<model name="p%s"><pose>0 %s 0 0 0.3 0</pose>\n' "$1" "$1"
			printf '<model name="slope"><static>true</static><link name="l"><collision name="c"><geometry><mesh><uri>slab.obj</uri></mesh></geometry>%s</collision></link></model>\n' "$f"
			for k in 0 1 2 3 4 5 6 7; do
				printf '<model name="h%s"><pose>-1 %s %s 0 0 %s</pose><link name="l">%s<collision name="c"><geometry>%s</geometry>%s</collision></link></model>\n' \
				    "$k" "$(awk -v k="$k" 'BEGIN { print -1.6 + 0.45 * k }')" \
				    "$2" "$(awk -v k="$k" 'BEGIN { print 0.2 * k }')" "$i" \
				    "${!3}" "$f"
			done
			printf '</model>\n'
		done
		printf '</world></sdf>\n'
	} > "$TMP/fine.sdf"
	# Simbody's elastic foundation takes some 30 s a simulated second
	# over these triangles: left out
	each_engine_of "ode bullet dart mujoco" fine_slides
	echo "under dart's ode detector"
	fine_slides dart -s dart.collision_detector=ode
}

# mesh_as_box ENGINE: each ellipsoid slides as far down the slope of
# fine triangles as down the box, within 0.5%, and as straight (3 mm).
mesh_as_box() {
	local k
	phys-step -q -p "$1" -t 1 -r 1 -i 'p*::e*::l/pose' "$TMP/ef.sdf" \
	    2> /dev/null | tail -1 > "$TMP/o"
	for k in 0 1 2; do
		rel "$(jq ".items[\"p0::e$k::l/pose\"] |
		    .x * (0.3 | cos) - .z * (0.3 | sin) + 1" "$TMP/o")" \
		    "$(jq ".items[\"p5::e$k::l/pose\"] |
		    .x * (0.3 | cos) - .z * (0.3 | sin) + 1" "$TMP/o")" 0.005
		near "$(jq ".items[\"p0::e$k::l/pose\"].y" "$TMP/o")" \
		    "$(jq ".items[\"p5::e$k::l/pose\"].y - 5" "$TMP/o")" 3e-3
	done
}

@test "ellipsoids at three headings slide down a slope of fine triangles as far as down a box, under ODE, Bullet, MuJoCo and DART (ODE met their polyhedron on triangles, 1.9% further; Bullet's edge points beside a face's sent one 18% further)" {
	slab_obj
	local f='<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode><bullet><friction>0.2</friction><friction2>0.2</friction2></bullet></friction></surface>'
	local i='<inertial><mass>1</mass><inertia><ixx>0.0065</ixx><iyy>0.0025</iyy><izz>0.0065</izz></inertia></inertial>'
	local s k
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		for s in '0:<mesh><uri>slab.obj</uri></mesh>:0' \
		    '5:<box><size>4 4 0.5</size></box>:-0.25'; do
			IFS=: read -r s g z <<< "$s"
			printf '<model name="p%s"><pose>0 %s 0 0 0.3 0</pose>\n' "$s" "$s"
			printf '<model name="slope"><static>true</static><link name="l"><collision name="c"><pose>0 0 %s 0 0 0</pose><geometry>%s</geometry>%s</collision></link></model>\n' "$z" "$g" "$f"
			for k in 0 1 2; do
				printf '<model name="e%s"><pose>-1 %s 0.051 0 0 %s</pose><link name="l">%s<collision name="c"><geometry><ellipsoid><radii>0.1 0.15 0.05</radii></ellipsoid></geometry>%s</collision></link></model>\n' \
				    "$k" "$(awk -v k="$k" 'BEGIN { print -1 + 0.8 * k }')" \
				    "$(awk -v k="$k" 'BEGIN { print k == 0 ? 0.3 : k == 1 ? 1.2 : 2 }')" \
				    "$i" "$f"
			done
			printf '</model>\n'
		done
		printf '</world></sdf>\n'
	} > "$TMP/ef.sdf"
	each_engine_of "ode bullet mujoco dart" mesh_as_box
}

# ellipsoid_rests ENGINE: the ellipsoid let fall 1 mm onto the box of
# triangles, its pole over the edge between the top's two triangles,
# rests on its short semi-axis (within 2.5 mm: Bullet's rests
# 2 mm into the triangles, on its contacts' layer), level within 5 mrad,
# after 1 s.
ellipsoid_rests() {
	local k
	phys-step -q -p "$1" -t 1 -r 1 -i 'e::l/pose' "$TMP/ell.sdf" \
	    2> /dev/null | tail -1 > "$TMP/o"
	for k in z:0.05:2.5e-3 roll:0:5e-3 pitch:0:5e-3; do
		set -- ${k//:/ }
		near "$(jq ".items[\"e::l/pose\"].$1" "$TMP/o")" "$2" "$3"
	done
}

@test "an ellipsoid rests level on its short semi-axis on a box of triangles under each engine (ODE's ellipsoid was triangles too, and stood tilted 30 mrad on a mesh; it is ODE's convex now, as a hull is)" {
	box_obj 0.5 0.5 0.5 > "$TMP/cube.obj"
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		printf '<model name="floor"><static>true</static><pose>0 0 -0.25 0 0 0</pose><link name="l"><collision name="c"><geometry><mesh><uri>cube.obj</uri><scale>2 2 0.5</scale></mesh></geometry></collision></link></model>\n'
		printf '<model name="e"><pose>0 0 0.051 0 0 0.3</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.0065</ixx><iyy>0.0025</iyy><izz>0.0065</izz></inertia></inertial><collision name="c"><geometry><ellipsoid><radii>0.1 0.15 0.05</radii></ellipsoid></geometry></collision></link></model>\n'
		printf '</world></sdf>\n'
	} > "$TMP/ell.sdf"
	each_engine ellipsoid_rests
}

# rocks ENGINE [WORLD]: the ellipsoid (semi-axes 0.1, 0.15 and 0.05 m,
# Ixx 0.005) let go turned 0.02 rad about x on a plane (or WORLD's
# ground) rocks about its lowest point,
# without slipping, at its closed-form period 2 pi sqrt((Ixx + m c^2) /
# (m g (b^2 / c - c))) (b^2 / c the radius of its curve there), within
# 1%, over 2 s.
rocks() {
	phys-step -q -p "$1" -t 2 -r 1000 -i 'e::l/pose' "${2:-$TMP/rock.sdf}" \
	    2> /dev/null | jq -r '[.t, .items["e::l/pose"].roll] | @tsv' \
	    > "$TMP/roll"
	rel "$(awk 'NR > 1 && p * $2 < 0 { z[n++] = t - p * ($1 - t) / ($2 - p) }
	    { p = $2; t = $1 }
	    END { if (n > 2) print 2 * (z[n - 1] - z[0]) / (n - 1) }' \
	    "$TMP/roll")" "$(awk 'BEGIN { b = 0.15; c = 0.05
	    print 2 * atan2(0, -1) * sqrt((0.005 + c ^ 2) / (9.8 * (b ^ 2 / c - c))) }')" 0.01
}

@test "an ellipsoid rocks on a plane at its closed-form period under each engine (ODE and Bullet collided its polyhedron, on whose faces it stood without rocking through its rest)" {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		printf '<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>4 4</size></plane></geometry><surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision></link></model>\n'
		printf '<model name="e"><pose>0 0 0.0501 0.02 0 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.005</ixx><iyy>0.0025</iyy><izz>0.0065</izz></inertia></inertial><collision name="c"><geometry><ellipsoid><radii>0.1 0.15 0.05</radii></ellipsoid></geometry><surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision></link></model>\n'
		printf '</world></sdf>\n'
	} > "$TMP/rock.sdf"
	each_engine rocks
}

@test "an ellipsoid rocks on a flat heightmap at the closed-form period under ODE and Bullet (ODE collided its polyhedron there: dropped, it rocked 0.4 rad about its long axis where on a plane 0.11 about its short one)" {
	flat_png "$TMP/flat.png"
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
		engine_profiles 0.001
		printf '<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><heightmap><uri>flat.png</uri><size>4 4 1</size><pos>0 0 -1</pos></heightmap></geometry><surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision></link></model>\n'
		printf '<model name="e"><pose>0.01 0.02 0.0501 0.02 0 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.005</ixx><iyy>0.0025</iyy><izz>0.0065</izz></inertia></inertial><collision name="c"><geometry><ellipsoid><radii>0.1 0.15 0.05</radii></ellipsoid></geometry><surface><friction><ode><mu>1</mu><mu2>1</mu2></ode></friction></surface></collision></link></model>\n'
		printf '</world></sdf>\n'
	} > "$TMP/rock_hm.sdf"
	rock_hm() { rocks "$1" "$TMP/rock_hm.sdf"; }
	each_engine_of "ode bullet" rock_hm
}

@test "an open mesh (a cube without its top) rests on its bottom under each engine; Simbody collides its convex hull, said at its line" {
	each_engine open_box_case
}

# A kinematic platform whose centre of mass is 0.2 m off its origin.
kinematic_world() {
	cat > "$TMP/kin.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
<gravity>0 0 -9.81</gravity>
<model name="plat">
  <pose>0 0 1 0 0 0</pose>
  <link name="link">
    <kinematic>true</kinematic>
    <inertial><pose>0.2 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>1 1 0.1</size></box></geometry></collision>
  </link>
</model>
</world>
</sdf>
SDF
}

# kinematic_path ENGINE: set moving at 1 m/s and turning at 2 rad/s, the
# platform's origin goes straight on and it turns about it: at 1 s the
# origin at x = 1, the yaw 2, the centre of mass at (1 + 0.2 cos 2,
# 0.2 sin 2); its velocities as set.
kinematic_path() {
	local w
	kinematic_world
	w=$(profile_world "$TMP/kin.sdf" "$1")
	printf '%s\n' '{"t":0,"name":"plat::link/linear_vel","value":{"x":1,"y":0,"z":0}}' \
	    '{"t":0,"name":"plat::link/angular_vel","value":{"x":0,"y":0,"z":2}}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -e 1000 -c "$TMP/ctl" -i 'plat::link/*' "$w" | tail -1 > "$TMP/end"
	near "$(jq '.items["plat::link/pose"].x' "$TMP/end")" 1 1e-9
	near "$(jq '.items["plat::link/pose"].y' "$TMP/end")" 0 1e-9
	near "$(jq '.items["plat::link/pose"].yaw' "$TMP/end")" 2 1e-9
	near "$(jq '.items["plat::link/inertial_pose"].x' "$TMP/end")" "$(awk 'BEGIN { printf "%.15f", 1 + 0.2 * cos(2) }')" 1e-9
	near "$(jq '.items["plat::link/inertial_pose"].y' "$TMP/end")" "$(awk 'BEGIN { printf "%.15f", 0.2 * sin(2) }')" 1e-9
	near "$(jq '.items["plat::link/linear_vel"].x' "$TMP/end")" 1 1e-9
	near "$(jq '.items["plat::link/angular_vel"].z' "$TMP/end")" 2 1e-9
}
@test "a kinematic link set moving goes on at its velocities: its origin straight on, turning about it, under each engine" {
	each_engine kinematic_path
}

# carried ENGINE: a box resting on a kinematic platform set moving at
# 0.5 m/s at 0.5 s slips until friction (mu 1) has brought it to the
# platform's speed, v^2 / (2 mu g) behind it, then rides along.
carried() {
	local w
	cat > "$TMP/carry.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
<gravity>0 0 -9.81</gravity>
<model name="plat">
  <pose>0 0 0.5 0 0 0</pose>
  <link name="link">
    <kinematic>true</kinematic>
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>4 4 0.1</size></box></geometry></collision>
  </link>
</model>
<model name="box">
  <pose>0 0 0.6 0 0 0</pose>
  <link name="link">
    <inertial><mass>1</mass><inertia><ixx>0.0017</ixx><iyy>0.0017</iyy><izz>0.0017</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
  </link>
</model>
</world>
</sdf>
SDF
	w=$(profile_world "$TMP/carry.sdf" "$1")
	echo '{"t":0.5,"name":"plat::link/linear_vel","value":{"x":0.5,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 2.5 -e 500 -c "$TMP/ctl" -i 'box::link/*' "$w" | tail -1 > "$TMP/end"
	near "$(jq '.items["box::link/pose"].x' "$TMP/end")" "$(awk 'BEGIN { printf "%.9f", 1 - 0.25 / (2 * 9.81) }')" 0.005
	near "$(jq '.items["box::link/linear_vel"].x' "$TMP/end")" 0.5 1e-3
}
@test "a box on a kinematic platform set moving is carried along, v^2 / (2 mu g) behind it after its slip, under each engine" {
	each_engine carried
}

# cardan_turn ENGINE: a bob hung 1 m below a universal joint, set turning
# at 1 rad/s about the joint's second axis (its velocity and angular
# velocity set by two lines) without gravity, turns on past the quarter
# turn: 2.5 rad at 2.5 s, the bob at (-sin 2.5, 3 - cos 2.5) m.
cardan_turn() {
	local w
	cat > "$TMP/cardan.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
<gravity>0 0 0</gravity>
<model name="cardan">
  <pose>0 0 3 0 0 0</pose>
  <link name="bob">
    <pose>0 0 -1 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
  </link>
  <joint name="j" type="universal">
    <parent>world</parent>
    <child>bob</child>
    <pose>0 0 1 0 0 0</pose>
    <axis><xyz>1 0 0</xyz></axis>
    <axis2><xyz>0 1 0</xyz></axis2>
  </joint>
</model>
</world>
</sdf>
SDF
	w=$(profile_world "$TMP/cardan.sdf" "$1")
	printf '%s\n' '{"t":0,"name":"cardan::bob/linear_vel","value":{"x":-1,"y":0,"z":0}}' \
	    '{"t":0,"name":"cardan::bob/angular_vel","value":{"x":0,"y":1,"z":0}}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 2.5 -e 2500 -c "$TMP/ctl" -i 'cardan::j/position' -i 'cardan::bob/pose' "$w" | tail -1 > "$TMP/end"
	near "$(jq '.items["cardan::j/position"][1]' "$TMP/end")" 2.5 1e-4
	near "$(jq '.items["cardan::j/position"][0]' "$TMP/end")" 0 1e-6
	near "$(jq '.items["cardan::bob/pose"].x' "$TMP/end")" "$(awk 'BEGIN { printf "%.12f", -sin(2.5) }')" 1e-4
	near "$(jq '.items["cardan::bob/pose"].z' "$TMP/end")" "$(awk 'BEGIN { printf "%.12f", 3 - cos(2.5) }')" 1e-4
}
@test "a universal joint turns on past a quarter turn about its second axis, at the rate two lines set, under each engine" {
	each_engine cardan_turn
}

# held_pose ENGINE: the pendulum's bob set where its pivot holds it, at
# 0.3 rad, starts its swing there (0.25 from the loaded 0.05, less 1 ms of
# fall); the model moved as a whole, or the bob off its pivot, is refused
# naming the joint.
held_pose() {
	local w
	w=$(profile_world "$WORLDS/pendulum.sdf" "$1")
	awk 'BEGIN { printf "{\"t\":0.5,\"name\":\"pendulum::bob/pose\",\"value\":{\"x\":0,\"y\":%.17g,\"z\":%.17g,\"roll\":0.3,\"pitch\":0,\"yaw\":0}}\n",
	    0.5 * sin(0.3), 2 - 0.5 * cos(0.3) }' > "$TMP/ctl"
	near "$(phys-step -q -p "$1" -t 0.501 -e 1 -c "$TMP/ctl" -i 'pendulum::pivot/position' "$w" |
	    tail -1 | jq '.items["pendulum::pivot/position"][0]')" 0.25 2e-4
	echo '{"t":0.5,"name":"pendulum/pose","value":{"x":5,"y":1,"z":3,"roll":0,"pitch":0,"yaw":1}}' > "$TMP/ctl"
	run --separate-stderr phys-step -q -p "$1" -t 1 -c "$TMP/ctl" "$w"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "phys-step: $TMP/ctl:1: joint 'pendulum::pivot' would be pulled 5.92 m apart: it holds link 'pendulum::bob' to the world"* ]]
	echo '{"t":0.5,"name":"pendulum::bob/pose","value":{"x":0,"y":0,"z":1,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/ctl"
	run --separate-stderr phys-step -q -p "$1" -t 1 -c "$TMP/ctl" "$w"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"joint 'pendulum::pivot' would be pulled 0.5 m apart"* ]]
	# turned about its pivot, but not about the pivot's axis
	awk 'BEGIN { printf "{\"t\":0.5,\"name\":\"pendulum::bob/pose\",\"value\":{\"x\":%.17g,\"y\":0,\"z\":%.17g,\"roll\":0,\"pitch\":0.3,\"yaw\":0}}\n",
	    -0.5 * sin(0.3), 2 - 0.5 * cos(0.3) }' > "$TMP/ctl"
	run --separate-stderr phys-step -q -p "$1" -t 1 -c "$TMP/ctl" "$w"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"joint 'pendulum::pivot' would be turned 0.3 rad off its axis: it holds link 'pendulum::bob' to the world"* ]]
}
@test "a link's pose set where its joint holds it starts it there; a model or link moved off a joint is refused, naming it, under each engine" {
	each_engine held_pose
}

# model_spin_world: $TMP/pair.sdf, two bodies 1 m apart welded into one
# model, without gravity.
model_spin_world() {
	cat > "$TMP/pair.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
<world name="w">
<gravity>0 0 0</gravity>
<model name="pair">
  <pose>0 0 1 0 0 0</pose>
  <link name="a">
    <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial>
  </link>
  <link name="b">
    <pose>1 0 0 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial>
  </link>
  <joint name="weld" type="fixed"><parent>a</parent><child>b</child></joint>
</model>
</world>
</sdf>
SDF
}

# model_spin ENGINE: the pair set
# turning at 2 rad/s about z by the model's angular_vel (its canonical
# link's origin kept still), turn as one body without gravity: link a's
# yaw 2 at 1 s, the centre of mass, 0.5 m from it, gone straight on at
# omega x r = 1 m/s, so a at (0.5 - 0.5 cos 2, 1 - 0.5 sin 2) (MuJoCo and
# DART move a body's origin, not its centre, by Euler steps: 1e-3 m).
model_spin() {
	local w
	model_spin_world
	w=$(profile_world "$TMP/pair.sdf" "$1")
	echo '{"t":0,"name":"pair/angular_vel","value":{"x":0,"y":0,"z":2}}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -e 1000 -c "$TMP/ctl" -i 'pair::a/pose' "$w" | tail -1 > "$TMP/end"
	near "$(jq '.items["pair::a/pose"].yaw' "$TMP/end")" 2 1e-4
	near "$(jq '.items["pair::a/pose"].x' "$TMP/end")" "$(awk 'BEGIN { printf "%.12f", 0.5 - 0.5 * cos(2) }')" 2e-3
	near "$(jq '.items["pair::a/pose"].y' "$TMP/end")" "$(awk 'BEGIN { printf "%.12f", 1 - 0.5 * sin(2) }')" 2e-3
}
@test "a model set turning turns as one body, its joints' rates kept, under each engine" {
	each_engine model_spin
}

# root_carry ENGINE: the same bodies hinged about z instead of welded: link
# a set moving at 1 m/s carries b, which hangs from it, along (the hinge
# keeps its rate, 0): both 1 m on after 1 s.
root_carry() {
	local w
	model_spin_world
	sed -i 's|<joint name="weld" type="fixed"><parent>a</parent><child>b</child></joint>|<joint name="hinge" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>|' "$TMP/pair.sdf"
	w=$(profile_world "$TMP/pair.sdf" "$1")
	echo '{"t":0,"name":"pair::a/linear_vel","value":{"x":1,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -e 1000 -c "$TMP/ctl" -i 'pair::*/pose' "$w" | tail -1 > "$TMP/end"
	near "$(jq '.items["pair::a/pose"].x' "$TMP/end")" 1 1e-6
	near "$(jq '.items["pair::b/pose"].x' "$TMP/end")" 2 1e-6
	near "$(jq '.items["pair::b/pose"].y' "$TMP/end")" 0 1e-6
}
@test "a link set moving carries the links that hang from it, their joints keeping their rates, under each engine" {
	each_engine root_carry
}

limit_case() {
	local f
	f=$(closed_forms "$1")
	near "$(at "$f" 2 limit::hinge/position 0)" -0.3 0.01
	# held there from the first second on (never past, never back up)
	series "$f" limit::hinge/position 0 | awk '$1 >= 1 && ($2 < -0.31 || $2 > -0.29) { bad = 1 }
	    END { exit bad }' || fail "the arm left its limit"
}
@test "joint limit: a falling arm stops at its lower limit under each engine" {
	each_engine limit_case
}

# swing_case ENGINE: worlds/motor.sdf's arm (m g l = 4.905 N m, I = 0.26
# kg m^2) let go at 1.2 rad swings down onto its limit at -0.3 rad: until
# 10 mrad from it, at its free swing's rate, |v| = sqrt(2 m g l (cos q -
# cos 1.2) / I) (to 1%: a limit that slows the arm before it is reached
# fails); then it stops there, within 3 mrad (MuJoCo's limit is soft by
# design, solref's 20 ms: 35 mrad).
swing_case() {
	local tol=3e-3
	[ "$1" = mujoco ] && tol=4e-2
	sed -e "s|<xyz>1 0 0</xyz>|<xyz>1 0 0</xyz><limit><lower>-0.3</lower><upper>1.5</upper></limit>|" \
	    "$WORLDS/motor.sdf" > "$TMP/arm.sdf"
	echo '{"t":0,"name":"arm::shoulder/position","value":1.2}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 0.6 -r 1000 -c "$TMP/ctl" -i 'arm::shoulder/position' \
	    -i 'arm::shoulder/velocity' "$TMP/arm.sdf" |
	    jq -r '[.t, .items["arm::shoulder/position"][0], .items["arm::shoulder/velocity"][0]] | @tsv' > "$TMP/swing"
	awk '$2 <= -0.29 { exit } { v = sqrt(2 * 4.905 * (cos($2) - cos(1.2)) / 0.26)
		if ($3 + v > 0.01 * 4.75 || $3 + v < -0.01 * 4.75) { printf "at %s: %s rad/s, free %.6g\n", $1, $3, -v; bad = 1; exit } }
	    END { exit bad }' "$TMP/swing" || fail "the arm slowed before its limit"
	awk -v tol=$tol 'NR == 1 { m = $2 } $2 < m { m = $2 } END { exit !(m >= -0.3 - tol) }' "$TMP/swing" ||
	    fail "the arm went past its limit"
	# and it reached the limit
	awk 'NR == 1 { m = $2 } $2 < m { m = $2 } END { exit !(m <= -0.297) }' "$TMP/swing" ||
	    fail "the arm stopped short of its limit"
}
@test "an arm swung onto its limit keeps its free swing's rate until it reaches it, and stops there, under each engine" {
	each_engine swing_case
}

# limited_arm AXIS KIND LOWER UPPER: worlds/motor.sdf's arm about (or,
# KIND prismatic, along) AXIS, limited to [LOWER, UPPER], in $TMP/arm.sdf.
limited_arm() {
	sed -e "s/type=\"revolute\"/type=\"$2\"/" \
	    -e "s|<xyz>1 0 0</xyz>|<xyz>$1</xyz><limit><lower>$3</lower><upper>$4</upper></limit>|" \
	    "$WORLDS/motor.sdf" > "$TMP/arm.sdf"
}

# pushed_case ENGINE: pushed one way for 1 s, then the other for 1 s,
# without gravity, the arm rests on the limit of that side: about and
# along each axis sign (Simbody's stops are elastic: they bounce within
# 4 cm at first).
pushed_case() {
	local axis kind lo tol=2e-3
	[ "$1" = simbody ] && tol=4e-2
	printf '%s\n' '{"t":0,"name":"arm::shoulder/cmd_force","value":3}' \
	    '{"t":1,"name":"arm::shoulder/cmd_force","value":-3}' > "$TMP/ctl"
	for axis in "1 0 0" "-1 0 0" "0 1 0" "0 -1 0"; do
		for kind in revolute prismatic; do
			lo=$([ $kind = revolute ] && echo -2.818 || echo -0.3)
			limited_arm "$axis" $kind $lo 0.1
			phys-step -q -p "$1" -t 2 -r 1 -c "$TMP/ctl" -s 'gravity=0 0 0' \
			    -i arm::shoulder/position "$TMP/arm.sdf" |
			    jq -r 'select(.t > 0) | .items["arm::shoulder/position"][0]' > "$TMP/o"
			echo "$kind along $axis: rests on 0.1 pushed 3, then on $lo pushed -3"
			near "$(sed -n 1p "$TMP/o")" 0.1 $tol
			near "$(sed -n 2p "$TMP/o")" $lo $tol
		done
	done
}
@test "asymmetric limits hold on the side each bounds, about and along each axis sign, under each engine" {
	each_engine pushed_case
}

# outside_case ENGINE: an arm that starts at 0, outside its limits
# [-2.818, -0.888] as a robot's straight leg is outside its knee's,
# starts at -0.888 and stays there without gravity, about either axis
# sign; so does one whose limits are a turn away, [-8, -7], or below
# -6.5 alone, and a slider outside [-0.3, -0.1]. (Each engine's stop
# pushed it back its own way: MuJoCo's and DART's on past the other
# limit, ODE's round and round where its angle wraps at pi.)
outside_case() {
	local axis kind lo hi
	for axis in "1 0 0" "-1 0 0"; do
		for kind in revolute:-2.818:-0.888 revolute:-8:-7 revolute:-1e16:-6.5 prismatic:-0.3:-0.1; do
			IFS=: read -r kind lo hi <<< "$kind"
			limited_arm "$axis" $kind $lo $hi
			phys-step -q -p "$1" -t 1 -r 100 -s 'gravity=0 0 0' \
			    -i arm::shoulder/position "$TMP/arm.sdf" > "$TMP/o"
			echo "$kind along $axis, [$lo, $hi]"
			jq -r '[.t, .items["arm::shoulder/position"][0]] | @tsv' "$TMP/o" |
			    awk -v hi=$hi 'function abs(v) { return v < 0 ? -v : v }
				$1 == 0 && abs($2 - hi) > 1e-9 { print "starts at " $2 > "/dev/stderr"; bad = 1 }
				abs($2 - hi) > 1e-3 { printf "t %s: at %s\n", $1, $2 > "/dev/stderr"; bad = 1; exit }
				END { exit bad }'
		done
	done
}
@test "a joint that starts outside its limits starts at the nearest of them under each engine" {
	each_engine outside_case
}

# turns_case ENGINE: limits a turn away hold, as do limits on one side
# alone (ODE's and Bullet's angles wrap at pi, where their stops stood
# unless the limits were within [-pi, pi]): the arm, set at -7 (it
# reads -7 at once), pushed either way without gravity, rests on -7.5
# or -6.5; limited below -7.5 alone, it rests there, and set at 30 with
# no limits it reads 30.
turns_case() {
	local lo hi f lim tol=2e-3 c
	[ "$1" = simbody ] && tol=4e-2
	for c in -7.5:-6.5:-3:-7.5 -7.5:-6.5:3:-6.5 -7.5:1e16:-3:-7.5; do
		IFS=: read -r lo hi f lim <<< "$c"
		limited_arm "1 0 0" revolute $lo $hi
		printf '%s\n' '{"t":0,"name":"arm::shoulder/position","value":-7}' \
		    "{\"t\":0,\"name\":\"arm::shoulder/cmd_force\",\"value\":$f}" > "$TMP/ctl"
		phys-step -q -p "$1" -t 1 -r 1 -c "$TMP/ctl" -s 'gravity=0 0 0' \
		    -i arm::shoulder/position "$TMP/arm.sdf" > "$TMP/o"
		echo "[$lo, $hi], pushed $f: rests on $lim"
		near "$(jq -r 'select(.t == 0) | .items["arm::shoulder/position"][0]' "$TMP/o")" -7 1e-9
		near "$(jq -r 'select(.t == 1) | .items["arm::shoulder/position"][0]' "$TMP/o")" $lim $tol
	done
	sed 's|<limit>.*</limit>||' "$TMP/arm.sdf" > "$TMP/free.sdf"
	echo '{"t":0,"name":"arm::shoulder/position","value":30}' > "$TMP/ctl"
	phys-step -q -p "$1" -n 1 -c "$TMP/ctl" -i arm::shoulder/position "$TMP/free.sdf" > "$TMP/o"
	near "$(jq -r 'select(.t == 0) | .items["arm::shoulder/position"][0]' "$TMP/o")" 30 1e-9
	# limits the wrong way round, [-1, -5], hold nothing (DART held
	# the arm to -5 alone, MuJoCo to both, ODE to -1): pushed by -3 N m
	# for 1 s, it turns 3 / 0.26 kg m^2 / 2 = 5.769 rad, as if free
	limited_arm "1 0 0" revolute -1 -5
	echo '{"t":0,"name":"arm::shoulder/cmd_force","value":-3}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1 -r 1 -c "$TMP/ctl" -s 'gravity=0 0 0' \
	    -i arm::shoulder/position "$TMP/arm.sdf" > "$TMP/o"
	near "$(jq -r 'select(.t == 1) | .items["arm::shoulder/position"][0]' "$TMP/o")" -5.769 0.01
}
@test "limits several turns away, on one side alone, or none the wrong way round, and a position of several turns, under each engine" {
	each_engine turns_case
}

@test "a joint's turns are carried across every engine switch" {
	# set at -10 rad within [-12, -8] and pushed by -3 N m without
	# gravity: -10 - 3 / 0.26 kg m^2 * t^2 / 2 until the stop at -12,
	# through all five engines a 0.2 s each (a new engine read the
	# poses it took over as 4 pi less)
	limited_arm "1 0 0" revolute -12 -8
	{
		printf '%s\n' '{"t":0,"name":"arm::shoulder/position","value":-10}' \
		    '{"t":0,"name":"arm::shoulder/cmd_force","value":-3}'
		t=0.1
		for p in bullet mujoco dart simbody ode; do
			echo "{\"t\":$t,\"preset\":\"$p\"}"
			t=$(awk -v t=$t 'BEGIN { print t + 0.1 }')
		done
	} > "$TMP/ctl"
	phys-step -q -p ode -t 1.5 -r 20 -c "$TMP/ctl" -s 'gravity=0 0 0' \
	    -i arm::shoulder/position "$TMP/arm.sdf" > "$TMP/o"
	jq -r '[.t, .items["arm::shoulder/position"][0]] | @tsv' "$TMP/o" |
	    awk 'function abs(v) { return v < 0 ? -v : v }
		{ want = -10 - 3 / 0.26 * $1 * $1 / 2; if (want < -12) want = -12 }
		$1 <= 0.55 && abs($2 - want) > 5e-3 || $1 >= 1 && abs($2 + 12) > 4e-2 {
			printf "t %s: at %s, not %s\n", $1, $2, want > "/dev/stderr"; bad = 1 }
		END { exit bad }'
}

rotor_case() {
	rel "$(at "$(closed_forms "$1")" 1 rotor::spin/velocity 0)" "$(awk 'BEGIN { print 2 * exp(-1) }')" 0.01
}
@test "viscous joint damping: w(t) = w0 exp(-c t / I) within 1% under each engine" {
	each_engine rotor_case
}

# ball_world ENGINE AXIS: a 1 kg body of 0.01 kg m^2 about each axis, held
# at its centre by a ball joint from the world, without gravity, AXIS in
# the joint's <axis>, under ENGINE's profile.
ball_world() {
	cat > "$TMP/ball.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 0</gravity>
<physics name="$1" type="$1"><max_step_size>0.001</max_step_size></physics>
<model name="m"><link name="bob"><pose>0 0 1 0 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="b" type="ball"><parent>world</parent><child>bob</child>
<axis>$2</axis></joint></model>
</world></sdf>
SDF
	echo '{"t":0,"name":"m::bob/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$TMP/spin"
}

# Each of a ball's turns takes its axis's damping, spring and friction as
# a hinge's does. Set turning at 1 rad/s about z, a damping of 0.02 N m
# s/rad and a spring of 1 N m/rad swing it as theta = e^-t sin(wd t) / wd,
# wd = 10 sqrt(0.99), under every engine (Simbody to 1e-5 rad, the
# others' steps to 3e-4 of the swing's 0.06: DART's to 2e-3 while its
# implicit spring damped it); a Coulomb friction of 0.005 N m slows it
# by 0.5 rad/s^2 to a stop at 2 s under every engine (ODE and Bullet:
# motor rows, which stopped it not at all before); every engine holds its
# range, the largest turn, 0.3 rad, to 0.01 (MuJoCo alone did before).
ball_dynamics_case() {
	local tol
	ball_world "$1" '<dynamics><damping>0.02</damping><spring_stiffness>1</spring_stiffness></dynamics>'
	run -0 --separate-stderr phys-step -p "$1" -t 1 -r 4 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf"
	# what Gazebo does not do, said of the SDF file, once
	[ "$stderr" = "phys-step: $TMP/ball.sdf:6: ball joint 'm::b': phys turns it by its axis's damping, friction, spring and upper limit, which Gazebo's engines leave out" ] ||
	    fail "$1: $stderr"
	case $1 in
	simbody) tol=1e-5 ;;
	*) tol=3e-4 ;;
	esac
	jq -r '[.t, .items["m::bob/pose"].yaw] | @tsv' <<<"$output" |
	    awk -v tol="$tol" '{ w = 10 * sqrt(0.99)
		e = exp(-$1) * sin(w * $1) / w - $2; if (e < 0) e = -e
		if (e > m) m = e; n++ }
		END { if (n != 5 || m > tol) { print n " lines, off by " m; exit 1 } }'
	ball_world "$1" '<dynamics><friction>0.005</friction></dynamics>'
	run -0 --separate-stderr phys-step -p "$1" -t 2.5 -r 4 -c "$TMP/spin" -i 'm::bob/angular_vel' "$TMP/ball.sdf"
	[ "$(grep -c . <<<"$stderr")" -eq 1 ] || fail "$1: $stderr"
	jq -r '[.t, .items["m::bob/angular_vel"].z] | @tsv' <<<"$output" |
	    awk '{ e = ($1 < 2 ? 1 - 0.5 * $1 : 0) - $2; if (e < 0) e = -e
		if (e > m) m = e; n++ }
		END { if (n != 11 || m > 4e-3) { print n " lines, off by " m; exit 1 } }'
	ball_world "$1" '<limit><upper>0.3</upper></limit>'
	# the farthest it turns, 0.3 (then each engine gives it back as its
	# hinge's stop does: MuJoCo's soft limit an eighth of its rate)
	run -0 --separate-stderr phys-step -p "$1" -t 1 -r 100 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf"
	[[ $stderr != *"has no effect"* ]] || fail "$1: $stderr"
	near "$(jq -s 'map(.items["m::bob/pose"].yaw) | max' <<<"$output")" 0.3 0.01
	# spun about (0.6, 0.8, 0), it stops at a turn of 0.3 about that
	# axis: the range bounds the turn, not each of its coordinates
	# (which a box of 0.3 would leave free to 0.375)
	echo '{"t":0,"name":"m::bob/angular_vel","value":{"x":0.6,"y":0.8,"z":0}}' > "$TMP/spin"
	phys-step -q -p "$1" -t 1 -r 100 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf" |
	    jq -r '.items["m::bob/pose"] | [.roll, .pitch, .yaw] | @tsv' |
	    awk 'function abs(v) { return v < 0 ? -v : v }
		{ r = $1 / 2; p = $2 / 2; y = $3 / 2
		w = cos(r) * cos(p) * cos(y) + sin(r) * sin(p) * sin(y)
		x = sin(r) * cos(p) * cos(y) - cos(r) * sin(p) * sin(y)
		v = cos(r) * sin(p) * cos(y) + sin(r) * cos(p) * sin(y)
		z = cos(r) * cos(p) * sin(y) - sin(r) * sin(p) * cos(y)
		s = sqrt(x * x + v * v + z * z); a = 2 * atan2(s, abs(w))
		if (a > top) { top = a; ax = x / s; ay = v / s; az = z / s } }
		END { if (abs(top - 0.3) > 0.01 || abs(ax - 0.6) > 0.01 ||
		    abs(ay - 0.8) > 0.01 || abs(az) > 0.01) {
			printf "turned %g about (%g, %g, %g)\n", top, ax, ay, az
			exit 1 } }' || fail "$1"
	# a range below 0 is 0, as MuJoCo takes a ball's (the larger of 0
	# and the limit): held there, not pushed back and forth about it
	ball_world "$1" '<limit><upper>-0.1</upper></limit>'
	near "$(phys-step -q -p "$1" -t 1 -r 4 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf" |
	    tail -1 | jq '.items[] | [.roll, .pitch, .yaw] | map(fabs) | max')" 0 1e-3 || fail "$1: below 0"
}
@test "a ball joint's damping, spring, friction and range act on its turns under every engine, as a hinge's closed forms say; its range bounds the whole turn" {
	each_engine ball_dynamics_case
}

# loop_case TYPE ENGINE: the body of ball_world held by two joints of
# TYPE (ball or revolute about z) at its centre, the second closing a loop
# and holding the values: they act as a tree joint's do, the first case's
# closed forms to the same bounds. Under MuJoCo, whose loop joint is
# carried by a light body welded to its child, any damping sent the body
# off to 1e15 rad/s within 10 steps, the limit let it through to 0.42 and
# the friction slowed it as a damper; under DART a loop ball held none.
loop_case() {
	local ax= lo= t=$1
	shift
	if [ "$t" = revolute ]; then
		ax='<xyz>0 0 1</xyz>' lo='<lower>-1</lower>'
	fi
	loop_world() {
		ball_world "$1" "$ax$3"
		sed -i "s|<joint name=\"b\" type=\"ball\">|<joint name=\"tree\" type=\"$2\"><parent>world</parent><child>bob</child><axis>$ax</axis></joint>\n<joint name=\"b\" type=\"$2\">|" "$TMP/ball.sdf"
	}
	loop_world "$1" "$t" '<dynamics><damping>0.02</damping><spring_stiffness>1</spring_stiffness></dynamics>'
	run -0 --separate-stderr phys-step -p "$1" -t 1 -r 4 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf"
	[[ $stderr == *"joint 'm::b' closes a kinematic loop"* ]] || fail "$1: $stderr"
	jq -r '[.t, .items["m::bob/pose"].yaw] | @tsv' <<<"$output" |
	    awk '{ w = 10 * sqrt(0.99)
		e = exp(-$1) * sin(w * $1) / w - $2; if (e < 0) e = -e
		if (e > m) m = e; n++ }
		END { if (n != 5 || m > 3e-4) { print n " lines, off by " m; exit 1 } }' ||
	    fail "$1 $t: damping and spring"
	loop_world "$1" "$t" '<dynamics><friction>0.005</friction></dynamics>'
	phys-step -q -p "$1" -t 2.5 -r 4 -c "$TMP/spin" -i 'm::bob/angular_vel' "$TMP/ball.sdf" |
	    jq -r '[.t, .items["m::bob/angular_vel"].z] | @tsv' |
	    awk '{ e = ($1 < 2 ? 1 - 0.5 * $1 : 0) - $2; if (e < 0) e = -e
		if (e > m) m = e; n++ }
		END { if (n != 11 || m > 4e-3) { print n " lines, off by " m; exit 1 } }' ||
	    fail "$1 $t: friction"
	loop_world "$1" "$t" "<limit>$lo<upper>0.3</upper></limit>"
	near "$(phys-step -q -p "$1" -t 1 -r 100 -c "$TMP/spin" -i 'm::bob/pose' "$TMP/ball.sdf" |
	    jq -s 'map(.items["m::bob/pose"].yaw) | max')" 0.3 0.01 || fail "$1 $t: range"
}
@test "a joint closing a loop, revolute or ball, takes its damping, spring, friction and limits as a tree joint does, under every engine" {
	each_engine loop_case revolute
	each_engine loop_case ball
}

# A ball's Coulomb friction f acts on each of its three turns about the
# joint frame's axes (a box, as MuJoCo's frictionloss on a ball's three
# dofs): set spinning at (3, 4, 0) rad/s, the turns slow at f / I =
# 0.5 rad/s^2 each, |w| = sqrt((3 - t/2)^2 + (4 - t/2)^2), not the
# 5 - t/2 of a friction against the whole spin. A frame turned 1 rad from
# the link's gives the same under ODE, Bullet, DART and Simbody, in its
# own axes; MuJoCo turns a ball in its link's axes, and says so. (Bullet
# held it on its Euler angles' axes at first: 3.23 rad/s at 2 s.)
ball_box_case() {
	local want
	want=$(awk 'BEGIN { for (t = 0; t <= 2; t += 0.25) printf "%.3f ", sqrt((3 - t / 2)^2 + (4 - t / 2)^2) }')
	ball_world "$1" '<dynamics><friction>0.005</friction></dynamics>'
	echo '{"t":0,"name":"m::bob/angular_vel","value":{"x":3,"y":4,"z":0}}' > "$TMP/spin"
	# an inertial frame turned from the link's changes nothing
	sed -i 's|<inertial><mass>|<inertial><pose>0 0 0 0.5 0.3 0.2</pose><mass>|' "$TMP/ball.sdf"
	spun() {
		phys-step -q -p "$1" -t 2 -r 4 -c "$TMP/spin" -i 'm::bob/angular_vel' "$TMP/ball.sdf" |
		    jq -r '.items["m::bob/angular_vel"] | (.x * .x + .y * .y + .z * .z) | sqrt' |
		    awk '{ printf "%.3f ", $1 }'
	}
	[ "$(spun "$1")" = "$want" ] || fail "$1: $(spun "$1"), not $want"
	# the joint frame turned 1 rad from the link's (roll 0.9, pitch 0.5,
	# yaw 0.1), the spin (3, 4, 0) in its axes: the same
	sed -i 's|<joint name="b" type="ball">|&<pose>0 0 0 0.9 0.5 0.1</pose>|' "$TMP/ball.sdf"
	echo '{"t":0,"name":"m::bob/angular_vel","value":{"x":3.8660481462757863,"y":2.8868227578161894,"z":1.3114595287816124}}' > "$TMP/spin"
	run --separate-stderr spun "$1"
	if [ "$1" = mujoco ]; then
		[ "$output" != "$want" ]
		run -0 --separate-stderr phys-step -p mujoco -n 1 "$TMP/ball.sdf"
		[[ $stderr == *"ball.sdf:6: ball joint 'm::b': MuJoCo holds its friction on each of its child link's axes, which its frame turns from by 1 rad (ODE, Bullet, DART and Simbody on the joint frame's)"* ]]
	else
		[ "$output" = "$want" ] || fail "$1: $output, not $want"
	fi
}
@test "a ball joint's friction slows each of its three turns about the joint frame's axes at f / I (a box), under every engine; MuJoCo, which turns it in its link's axes, says so" {
	each_engine ball_box_case
}

# flywheel_case ENGINE: worlds/flywheel.sdf under ENGINE's profile, 0.5 N m
# on the wheel's joint from 0.5 s. The joint's rate 1 s later is
# tau t / izz = 25 rad/s, less what the box turns back; friction holds
# the box against the joint's reaction: ODE, Bullet and DART to a few
# mrad, MuJoCo's soft friction and Simbody's stiction by a creep of 3 and
# 19 mrad while the wheel turns 12.5 rad. (Bullet once answered a
# torque with friction a step late: the box turned 75 mrad, the joint
# 0.3% fast.)
flywheel_case() {
	local w
	w=$(profile_world "$WORLDS/flywheel.sdf" "$1")
	echo '{"t":0.5,"name":"rig::spin/cmd_force","value":0.5}' > "$TMP/ctl"
	phys-step -q -p "$1" -t 1.5 -e 1500 -c "$TMP/ctl" -i 'rig::box/pose' \
	    -i 'rig::spin/velocity' "$w" > "$TMP/run"
	rel "$(at "$TMP/run" 1.5 rig::spin/velocity 0)" 25 0.001
	near "$(at "$TMP/run" 1.5 rig::box/pose yaw)" 0 0.03
}
@test "a joint's torque spins a flywheel at tau t / I on a box that friction holds against its reaction, under each engine" {
	each_engine flywheel_case
}

spring_case() {
	local f max
	f=$(closed_forms "$1")
	rel "$(series "$f" spring::slider/position 0 | period 0.1)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(1 / 100) }')" 0.01
	# it swings between 0 and twice the reference
	max=$(series "$f" spring::slider/position 0 | awk '$2 > m { m = $2 } END { print m }')
	near "$max" 0.2 0.005
}
@test "prismatic spring: period 2 pi sqrt(m / k) within 1% under each engine" {
	each_engine spring_case
}

# undamped_case ENGINE: a hinge spring of 10 N m/rad, no damping, turns
# a 1 kg bob 0.5 m out (0.251 kg m^2) from 0 about its reference 0.2:
# theta = 0.2 (1 - cos(w t)), w = sqrt(10 / 0.251). Its last 4 s of 20
# still swing from 0 to 0.4 to 2e-3 and the first 2 s follow the cosine
# to 1e-3 (DART's implicit spring, left alone, damped it to 0.057..0.344).
undamped_case() {
	run -0 --separate-stderr phys-step -p "$1" -t 20 -r 100 \
	    -i 'arm::hinge/position' "$TMP/undamped.sdf"
	jq -r '[.t, .items["arm::hinge/position"][0]] | @tsv' <<<"$output" |
	    awk '{ w = sqrt(10 / 0.251)
		if ($1 <= 2) { e = 0.2 * (1 - cos(w * $1)) - $2
			if (e < 0) e = -e; if (e > off) off = e }
		if ($1 >= 16) { if ($2 > hi) hi = $2
			if (n++ == 0 || $2 < lo) lo = $2 } }
		END { if (off > 1e-3 || hi < 0.398 || hi > 0.402 ||
		    lo < -0.002 || lo > 0.002) {
			print "off by " off ", swings " lo " to " hi; exit 1 } }'
}
@test "an undamped hinge spring swings on at its amplitude, as theta = 0.2 (1 - cos(w t)), for 20 s under each engine" {
	cat > "$TMP/undamped.sdf" <<'EOF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <gravity>0 0 0</gravity>
    <physics name="p" type="ode"><max_step_size>0.001</max_step_size></physics>
    <model name="arm">
      <link name="bob">
        <pose>0 -0.5 1 0 0 0</pose>
        <inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      </link>
      <joint name="hinge" type="revolute">
        <parent>world</parent><child>bob</child>
        <pose>0 0.5 0 0 0 0</pose>
        <axis><xyz>1 0 0</xyz><dynamics><spring_stiffness>10</spring_stiffness><spring_reference>0.2</spring_reference></dynamics></axis>
      </joint>
    </model>
  </world>
</sdf>
EOF
	each_engine undamped_case
}

# fourbar ENGINE: worlds/fourbar.sdf swinging for 2 s keeps its loop
# closed (closure) within 0.3 mm while the crank turns through more than
# a radian.
fourbar() {
	phys-step -p "$1" -t 2 -r 100 -i 'fourbar::*/position' \
	    "$(profile_world "$WORLDS/fourbar.sdf" "$1")" 2>/dev/null > "$TMP/o"
	closure "$TMP/o" > "$TMP/c"
	echo "loop open by $(cut -d' ' -f1 "$TMP/c") m at most; the crank turned through $(cut -d' ' -f2 "$TMP/c")"
	awk '{ exit !($1 < 3e-4 && $2 > 1) }' "$TMP/c"
	# however the engine closes the loop (an equality, a constraint, a
	# joint cut from the tree), the joint that closes it has its one angle
	[ "$(jq -r '.items["fourbar::loop/position"] | length' "$TMP/o" | sort -u)" = 1 ]
}
@test "a four-bar linkage (a kinematic loop) follows the loop-closure equation under each engine" {
	each_engine fourbar
}

# joints ENGINE: worlds/joints.sdf's profile retyped as ENGINE's, its stop
# made softer than SDF's default (1e8 N m/rad, which the engines that
# read it, Simbody's, ring on by micrometres) where an engine reads it.
joints() {
	sed "s/<physics type=\"ode\">/<physics type=\"$1\">/" "$WORLDS/joints.sdf" > "$TMP/j.sdf"
	phys-step -t 4.2 -r 100 -s 'hinge::j/axis.limit.stiffness=1e5' -s 'hinge::j/axis.limit.dissipation=10' \
	    -i 'ball::bob/pose' -i 'cardan::bob/pose' -i 'fixed::body/pose' -i 'fixed::j/force' \
	    -i 'hinge::j/*' -i 'cardan::j/position' "$TMP/j.sdf" 2>/dev/null > "$TMP/o"
	for m in ball cardan; do
		# a point mass 1 m out, plus the bob's own 0.001 kg m^2, swinging
		# 0.05 rad: (1 + theta0^2 / 16) longer than a small swing
		rel "$(series "$TMP/o" $m::bob/pose roll | period)" \
		    "$(awk 'BEGIN { print 2 * 3.141592653589793 * sqrt(1.001 / 9.81) * (1 + 0.05^2 / 16) }')" 1e-4
	done
	tail -1 "$TMP/o" > "$TMP/end"
	near "$(at "$TMP/end" 4.2 fixed::body/pose z)" 3 1e-9
	near "$(at "$TMP/end" 4.2 fixed::j/force z)" 9.81 1e-6
	# the stop holds the arm: at -0.3 rad (past it by no more than a
	# soft stop gives), its effort m g L cos(theta), its force the weight
	theta=$(at "$TMP/end" 4.2 hinge::j/position 0)
	near "$theta" -0.3 0.005
	rel "$(at "$TMP/end" 4.2 hinge::j/effort 0)" "$(awk -v t="$theta" 'BEGIN { print 9.81 * cos(t) }')" 1e-4
	near "$(at "$TMP/end" 4.2 hinge::j/force z)" 9.81 1e-6
	# the universal joint's first angle is the swing, measured from the
	# loaded 0.05 rad
	near "$(at "$TMP/end" 4.2 cardan::j/position 0)" \
	    "$(awk -v r="$(at "$TMP/end" 4.2 cardan::bob/pose roll)" 'BEGIN { print r - 0.05 }')" 1e-7
}
@test "joints (joints.sdf): ball and universal swing as 1 m pendulums to 0.01%, fixed holds, a stop's effort is m g L cos(theta), under each engine" {
	each_engine joints
}

# geometry_world ENGINE: a world of ENGINE's profile on the ground: a
# mesh cube (tests/data/geomgen.c's, 1 m) dropped 0.2 m onto a face, an
# L-shaped static polyline 0.3 m tall with a box dropped onto its arm and
# one into its notch, an ellipsoid of radii 0.3, 0.2 and 0.1 m dropped
# 0.2 m, and a ball let go on the side of a heightmap bowl, z = 0.5 +
# (x^2 + y^2) / 16 about its centre.
geometry_world() {
	local in='<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'
	cat <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="p" type="$1"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="cube"><pose>0 0 0.7 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/gen/cube.stl</uri></mesh></geometry></collision></link></model>
<model name="l"><pose>5 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>
<model name="b"><pose>5.5 1.5 0.6 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="notch"><pose>6.5 1.5 0.6 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="e"><pose>-5 0 0.3 0 0 0</pose><link name="link"><inertial auto="true"/><collision name="c"><geometry><ellipsoid><radii>0.3 0.2 0.1</radii></ellipsoid></geometry></collision></link></model>
<model name="t"><pose>20 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><heightmap><uri>$TMP/gen/bowl.tif</uri><size>8 8 2</size><pos>0 0 0.5</pos></heightmap></geometry></collision></link></model>
<model name="s"><pose>20.8 -0.6 1.2 0 0 0</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
</world></sdf>
SDF
}

geometry() {
	local m
	geometry_world "$1" > "$TMP/g.sdf"
	phys-step -t 1.2 -r 100 -i '*::link/pose' "$TMP/g.sdf" 2>/dev/null > "$TMP/o"
	# resting on their lowest faces (the ellipsoid on its shortest radius),
	# sunk by at most the contact surface layer (1 mm), no higher
	for m in cube:0.5 b:0.4 notch:0.1 e:0.1; do
		awk -v z="$(at "$TMP/o" 1.2 ${m%:*}::link/pose z)" -v h=${m#*:} 'BEGIN {
		    exit !(z <= h + 1e-5 && z >= h - 0.0011) }' || fail "${m%:*} at $(at "$TMP/o" 1.2 ${m%:*}::link/pose z), not ${m#*:}"
	done
	# the ball rolls down the bowl, on its surface (its 33 x 33 samples'
	# chords are off by 1 mm), a radius above it, to its centre
	jq -r '.items["s::link/pose"] | [.x - 20, .y, .z] | @tsv' "$TMP/o" | tail -70 |
	    awk '{ d = $3 - (0.5 + ($1 * $1 + $2 * $2) / 16 + 0.1); if (d < 0) d = -d; if (d > m) m = d }
		END { if (m > 0.003) { print "off the bowl by " m; exit 1 } }'
	[ "$(tail -1 "$TMP/o" | jq '.items["s::link/pose"].x < 20.5')" = true ]
}
@test "geometry: a mesh cube, boxes on a polyline's arm and in its notch, an ellipsoid rest on their faces; a ball rolls down a heightmap bowl, under each engine" {
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) -lm -o "$TMP/geomgen"
	mkdir "$TMP/gen" && "$TMP/geomgen" "$TMP/gen"
	each_engine geometry
}

# circuit ENGINE...: a walk through the engines that takes every ordered
# pair of them once (an Euler circuit of the complete directed graph):
# from the first, out and back to each later one, each of those tours
# spliced in where its engine is first met.
circuit() {
	local -a e=("$@") s=("$1") t
	local i j k
	for ((i = 0; i < ${#e[@]}; i++)); do
		for ((k = 0; k < ${#s[@]}; k++)); do
			[ "${s[k]}" = "${e[i]}" ] && break
		done
		t=()
		for ((j = i + 1; j < ${#e[@]}; j++)); do
			t+=("${e[j]}" "${e[i]}")
		done
		s=("${s[@]:0:k+1}" "${t[@]}" "${s[@]:k+1}")
	done
	echo "${s[@]}"
}

# switching_run: closed_forms.sdf's falling sphere and pendulum alone (no
# ground), a profile for every engine, switched every 0.3 s along the
# circuit; the engine each ran under and how it integrates a fall in
# $BATS_FILE_TMPDIR/forms.
switching_run() {
	local -a seq
	local e i w="$BATS_FILE_TMPDIR/switch.sdf"
	awk '/<model name="(ground|slide|bounce|rest|limit|rotor|spring)">/ { skip = 1 }
	    !skip { print } skip && /<\/model>/ { skip = 0 }' "$W" > "$w"
	for e in $(engines); do
		TMP=$BATS_FILE_TMPDIR profile_world "$w" "$e" > "$w.path"
		[ "$(cat "$w.path")" = "$w" ] || mv "$(cat "$w.path")" "$w"
		echo "$e $(fall_form "$e" "$w")"
	done > "$BATS_FILE_TMPDIR/forms"
	seq=($(circuit $(engines)))
	for ((i = 1; i < ${#seq[@]}; i++)); do
		printf '{"t":%s,"preset":"%s"}\n' "$(awk -v i=$i 'BEGIN { print 0.3 * i }')" "${seq[i]}"
	done > "$BATS_FILE_TMPDIR/switches"
	phys-step -p "${seq[0]}" -t "$(awk -v n=${#seq[@]} 'BEGIN { print 0.3 * n }')" -r 100 \
	    -c "$BATS_FILE_TMPDIR/switches" -i 'fall::link/pose' -i 'fall::link/linear_vel' \
	    -i 'pendulum::bob/pose' -i 'pendulum/kinetic_energy' -i 'pendulum/potential_energy' "$w"
}

@test "switching engines mid-fall, every engine to every other: each line at a switch names the new profile, the fall goes on to 1e-9" {
	f=$(once switching switching_run)
	echo "$(circuit $(engines))"
	# a switch at each 0.3 s, to the engine the circuit names
	diff <(jq -r 'select(.preset) | "\(.t) \(.preset)"' "$f" | tail -n +2) \
	    <(jq -r '"\(.t) \(.preset)"' "$BATS_FILE_TMPDIR/switches")
	# each stretch of 300 steps from the last one's height and speed: by
	# semi-implicit Euler, z + n h v - g h^2 n (n + 1) / 2, or on the
	# parabola, z + v T - g T^2 / 2; v - g T either way
	{
		jq -r 'select(.preset) | [.t, .preset] | @tsv' "$f"
		tail -1 "$f" | jq -r '[.t, "end"] | @tsv'
	} | while read -r t p; do
		printf '%s\t%s\t%s\n' "$t" "$p" "$(jq -r --argjson t "$t" 'select(.t == $t) |
		    [.items["fall::link/pose"].z, .items["fall::link/linear_vel"].z] | @tsv' "$f")"
	done > "$TMP/at-switches"
	[ "$(wc -l < "$TMP/at-switches")" -eq $(($(wc -l < "$BATS_FILE_TMPDIR/switches") + 2)) ]
	awk 'NR == FNR { form[$1] = $2; next }
	    { if (FNR > 1) { n = 300; h = 0.001; T = n * h
		if (form[k] == "parabola") z += v * T - 9.81 * T * T / 2
		else z += n * h * v - 9.81 * h * h * n * (n + 1) / 2
		v -= 9.81 * T }
	      else { z = 30; v = 0 }
	      dz = $3 - z; dv = $4 - v
	      if (dz > 1e-9 || dz < -1e-9 || dv > 1e-9 || dv < -1e-9) {
		printf "%s, %s to %s: z %.12f, not %.12f; v %.12f, not %.12f\n", $1, k, $2, $3, z, $4, v
		bad = 1 }
	      k = $2 }
	    END { exit bad }' "$BATS_FILE_TMPDIR/forms" "$TMP/at-switches"
}

@test "switching engines mid-swing, every engine to every other: the angle and the energy go on without a jump, the period is kept to 0.2%" {
	f=$(once switching switching_run)
	# no jump in the angle between two samples (0.01 s apart)
	series "$f" pendulum::bob/pose roll | awk 'NR > 1 { d = $2 - p; if (d < 0) d = -d; if (d > m) m = d } { p = $2 }
	    END { print "largest step", m; exit !(m < 0.004) }'
	# the energy over the first step of each engine (from the line at the
	# switch) changes by less than 2e-5 J (of the 0.0061 J swing); over
	# the run it stays within 1e-4 J, each stretch of semi-implicit Euler
	# adding its own swing of 1.4e-5 J
	jq -r '[.t, .items["pendulum/kinetic_energy"] + .items["pendulum/potential_energy"], .preset // ""] | @tsv' "$f" |
	    awk -F '\t' 'NR == 1 { e0 = $2 } { d = $2 - e0; if (d < 0) d = -d; if (d > m) m = d }
		sw { j = $2 - p; if (j < 0) j = -j; if (j > 2e-5) { print "a jump of " j " after " $1; bad = 1 } }
		{ p = $2; sw = NR > 1 && $3 != "" } END { print "energy within", m; exit bad || m > 1e-4 }'
	rel "$(series "$f" pendulum::bob/pose roll | period)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) }')" 0.002
}

identical() {
	echo '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p "$1" -t 0.5 -c "$TMP/ctl" -i '*::*/*' "$(profile_world "$W" "$1")" 2>/dev/null > "$TMP/a"
	phys-step -p "$1" -t 0.5 -c "$TMP/ctl" -i '*::*/*' "$(profile_world "$W" "$1")" 2>/dev/null > "$TMP/b"
	[ -s "$TMP/a" ]
	cmp "$TMP/a" "$TMP/b"
}
@test "identical input, identical output, byte for byte, under each engine" {
	each_engine identical
}

diverged() {
	# one step of 1 ms under 1e14 m/s^2 gives g h = 1e11 m/s, past light's
	echo '{"t":0.01,"name":"gravity","value":"0 0 -1e14"}' > "$TMP/ctl"
	run phys-step -p "$1" -t 1 -c "$TMP/ctl" "$(profile_world "$WORLDS/falling_sphere.sdf" "$1")"
	assert_failure 1
	assert_output --partial "simulation diverged: body 'ball::link' moves at 1e+11 m/s and 0 rad/s at t=0.011, faster than any body"
}
@test "gravity of 1e14 m/s^2 from 0.01 s stops the run at the step after, naming the body, its speed g h and the time, under each engine" {
	each_engine diverged
}

# bumpy_field DIR: DIR/bump.png, a heightmap of 33 x 33 samples of
# 128 + 60 sin(0.6 i) cos(0.45 j) (i along x, j the row, from +y);
# DIR/field.py, its surface and what lies under it; and DIR/bump_ball.sdf,
# bump_capsule.sdf, bump_cylinder.sdf and bump_block.sdf: the field
# 4 x 4 x 1 m, and twelve balls of 0.1 m, capsules or cylinders of 0.05
# by 0.2 m or cubes of 0.155 m, two boxes and two hulls (of DIR/cube.obj)
# in turn (tipped 1.2 rad) let go 1 cm above it, at twelve places over
# its slopes and hollows.
bumpy_field() {
	box_obj 0.5 0.5 0.5 > "$1/cube.obj"
	gray_png "$1/bump.png" 33 \
	    'round(128 + 60 * math.sin(i * 0.6) * math.cos(j * 0.45))'
	cat > "$1/field.py" <<'PY'
# The field's surface as ODE's heightfield has it (a square of samples
# split from its +x, +y corner to its -x, -y one), and how far a shape
# lies in it.
import math
n = 33
V = [[int(round(128 + 60 * math.sin(i * 0.6) * math.cos(j * 0.45)))
      for i in range(n)] for j in range(n)]
top = max(max(r) for r in V)	# an image's brightest sample: 1 m
d = 4 / (n - 1)
def P(i, j):
    return (-2 + i * d, 2 - j * d, V[j][i] / top)
cells = {}
for j in range(n - 1):
    for i in range(n - 1):
        a, b, c, e = P(i, j), P(i + 1, j), P(i, j + 1), P(i + 1, j + 1)
        cells[i, j] = [(a, c, b), (b, c, e)]
def sub(u, v): return [u[k] - v[k] for k in range(3)]
def dot(u, v): return sum(u[k] * v[k] for k in range(3))
def on(a, u, t): return [a[k] + t * u[k] for k in range(3)]
def closest(p, a, b, c):
    # the point of triangle abc nearest p, by its Voronoi regions
    ab, ac, ap = sub(b, a), sub(c, a), sub(p, a)
    d1, d2 = dot(ab, ap), dot(ac, ap)
    if d1 <= 0 and d2 <= 0: return a
    bp = sub(p, b); d3, d4 = dot(ab, bp), dot(ac, bp)
    if d3 >= 0 and d4 <= d3: return b
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0: return on(a, ab, d1 / (d1 - d3))
    cp = sub(p, c); d5, d6 = dot(ab, cp), dot(ac, cp)
    if d6 >= 0 and d5 <= d6: return c
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0: return on(a, ac, d2 / (d2 - d6))
    va = d3 * d6 - d5 * d4
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        return on(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)))
    den = 1 / (va + vb + vc)
    return [a[k] + ab[k] * vb * den + ac[k] * vc * den for k in range(3)]
def distance(p):
    # from the triangles of the squares within 0.25 m of p, where a
    # shape of these touches
    i, j = int((p[0] + 2) // d), int((2 - p[1]) // d)
    return min(math.dist(p, closest(p, *t))
               for u in range(i - 2, i + 3) for w in range(j - 2, j + 3)
               for t in cells.get((u, w), ()))
def height(p):
    # the surface's height under point p
    i, j = int((p[0] + 2) // d), int((2 - p[1]) // d)
    a, b, c, e = P(i, j), P(i + 1, j), P(i, j + 1), P(i + 1, j + 1)
    u, w = (p[0] - a[0]) / d, (a[1] - p[1]) / d
    return (a[2] + u * (b[2] - a[2]) + w * (c[2] - a[2]) if u + w <= 1 else
            e[2] + (1 - u) * (c[2] - e[2]) + (1 - w) * (b[2] - e[2]))
def under(p):
    # how far point p is under the surface, 0 above it
    return distance(p) if p[2] < height(p) else 0
def point(v, x):
    # point x of a body at pose v (roll, pitch, yaw as SDF turns them)
    cr, sr = math.cos(v['roll']), math.sin(v['roll'])
    cp, sp = math.cos(v['pitch']), math.sin(v['pitch'])
    cy, sy = math.cos(v['yaw']), math.sin(v['yaw'])
    R = [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
         [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
         [-sp, cp * sr, cp * cr]]
    c = (v['x'], v['y'], v['z'])
    return [c[i] + sum(R[i][k] * x[k] for k in range(3)) for i in range(3)]
def depth(shape, v):
    # how far a ball, a capsule, a cylinder or a block (a box or a box's
    # hull) at pose v is in the field
    if shape == 'ball':
        return 0.1 - distance(point(v, (0, 0, 0)))
    if shape == 'capsule':	# its axis's 21 points, those that may be
        # within its radius of the field (slopes up to 56 degrees)
        axis = [point(v, (0, 0, h / 100)) for h in range(-10, 11)]
        return 0.05 - min((distance(p) for p in axis
                           if p[2] - height(p) < 0.12), default=1)
    if shape == 'block':	# its corners, its edges' and faces' middles
        return max(under(point(v, (a * 0.0775, b * 0.0775, c * 0.0775)))
                   for a in (-1, 0, 1) for b in (-1, 0, 1)
                   for c in (-1, 0, 1))
    return max(under(point(v, (0.05 * math.cos(a * math.pi / 12),
                               0.05 * math.sin(a * math.pi / 12), h / 20)))
               for a in range(24) for h in range(-2, 3))
PY
	python3 - "$1" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from field import distance
head = ('<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
        '<model name="g"><static>true</static><link name="l"><collision '
        'name="c"><geometry><heightmap><uri>bump.png</uri><size>4 4 1'
        '</size></heightmap></geometry></collision></link></model>\n')
shapes = {'ball': '<sphere><radius>0.1</radius></sphere>',
          'capsule': '<capsule><radius>0.05</radius><length>0.2</length>'
                     '</capsule>',
          'cylinder': '<cylinder><radius>0.05</radius><length>0.2</length>'
                      '</cylinder>',
          # cubes of 0.155 m, two boxes and two hulls in turn
          'block': ('<box><size>0.155 0.155 0.155</size></box>',
                    '<mesh optimization="convex_hull"><uri>cube.obj</uri>'
                    '<scale>0.155 0.155 0.155</scale></mesh>')}
worlds = dict.fromkeys(shapes, head)
k = 0
for x in (-1.2, -0.5, 0.3, 1.1):
    for y in (-1.0, 0.2, 1.3):
        z = 1.2		# 1 cm above for a ball; tipped, the others' ends
        while distance((x, y, z)) > 0.11:
            z -= 0.002
        for name, geometry in shapes.items():
            up, tip = (0, 0) if name == 'ball' else (0.1, 1.2)
            if isinstance(geometry, tuple):
                geometry = geometry[k // 2 % len(geometry)]
            worlds[name] += (
                '<model name="b%d"><pose>%g %g %.3f %g %g 0</pose><link '
                'name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx>'
                '<iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>'
                '<collision name="c"><geometry>%s</geometry></collision>'
                '</link></model>\n' % (k, x, y, z + up, tip, tip / 4,
                                       geometry))
        k += 1
for name, world in worlds.items():
    open('%s/bump_%s.sdf' % (sys.argv[1], name), 'w').write(
        world + '</world></sdf>\n')
PY
}

# rolls_on_field SHAPE MM ENGINE: the shapes roll and bounce over the field
# for 1.5 s (the others tumble for 1.2), and none goes further into it
# than MM (MuJoCo's contact is soft, solref 0.02 s: 8 mm for a ball, 20
# for the others), each 20 ms, measured from the field's triangles as ODE
# splits them; SHAPE ball, capsule, cylinder or block.
rolls_on_field() {
	local w mm=$2 t=1.5
	w=$(profile_world "$TMP/bump_$1.sdf" "$3")
	[ "$3" = mujoco ] && { [ "$1" = ball ] && mm=8 || mm=20; }
	[ "$1" = ball ] || t=1.2
	phys-step -q -p "$3" -t "$t" -e 20 -i 'b*::l/pose' "$w" > "$TMP/roll.jsonl"
	python3 - "$TMP" "$TMP/roll.jsonl" "$1" "$mm" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from field import depth
deepest, at = -1, None
for line in open(sys.argv[2]):
    o = json.loads(line)
    for k, v in o['items'].items():
        if max(abs(v['x']), abs(v['y'])) > 1.8:
            continue	# rolled off the field's edge
        mm = 1000 * depth(sys.argv[3], v)
        if mm > deepest:
            deepest, at = mm, (k, o['t'])
print('deepest %.1f mm (%s at %g s)' % (deepest, *at))
sys.exit(deepest > float(sys.argv[4]))
PY
}

@test "balls rolling over a bumpy heightmap stay on its surface, ODE's split of its squares, under each engine (ODE's own field let one 4 cm in and held it 7 cm deep; Bullet and Simbody split the squares the other way: 2 cm apart)" {
	bumpy_field "$TMP"
	each_engine rolls_on_field ball 1.5
}

@test "capsules and cylinders tumbling over a bumpy heightmap stay on its surface under ODE, Bullet, MuJoCo and DART (ODE's own field, which DART's ode detector used, let capsules in to their axes and a cylinder 14 cm)" {
	bumpy_field "$TMP"
	each_engine_of "ode bullet mujoco dart" rolls_on_field capsule 6
	each_engine_of "ode bullet mujoco dart" rolls_on_field cylinder 6
}

@test "boxes and hulls tumbling over a bumpy heightmap stay within 4 mm of its surface under ODE, Bullet, MuJoCo and DART (ODE's own field let a box's edge 1.5 cm into it across a ridge; Bullet's margin rounded a box's edges: 7.5 mm; DART's points of a box on triangles missed an edge across a ridge, 1.8 cm, and FCL's of a hull let it 5.4 mm in)" {
	bumpy_field "$TMP"
	each_engine_of "ode bullet mujoco dart" rolls_on_field block 4
}

@test "under ODE a capsule over more of a heightmap's cells than its patch takes (1,024) meets ODE's field there, said once, and rests on it" {
	gray_png "$TMP/fine.png" 257 200	# cells of 4 / 256 = 1.6 cm
	# 3.5 + 2 m by 2 m: 352 x 128 cells under it; the field's top at 1 m
	cat > "$TMP/big.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11"><world name="w">
<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><heightmap><uri>fine.png</uri><size>4 4 1</size></heightmap></geometry></collision></link></model>
<model name="c"><pose>0 0 2.01 0 1.5707963267948966 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial><collision name="c"><geometry><capsule><radius>1</radius><length>1.5</length></capsule></geometry></collision></link></model>
</world></sdf>
SDF
	phys-step -t 1 -e 1000 -i 'c::l/pose' "$TMP/big.sdf" > "$TMP/out" 2> "$TMP/err"
	[ "$(grep -c "more than 1024 of its cells meets ODE's height field" "$TMP/err")" = 1 ]
	near "$(tail -1 "$TMP/out" | jq '.items["c::l/pose"].z')" 2 0.002
}

@test "under ODE the patches of a heightmap under all shapes together take at most 262,144 cells: 324 capsules over 3.9 mm cells, 950 each, past them meet ODE's field, said once, and all rest on the field" {
	gray_png "$TMP/fine.png" 1025 200
	python3 - "$TMP" <<'PY'
import sys
s = ('<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
     '<model name="g"><static>true</static><link name="l"><collision '
     'name="c"><geometry><heightmap><uri>fine.png</uri><size>4 4 1</size>'
     '</heightmap></geometry></collision></link></model>\n')
for k in range(324):	# lying, 1 mm above the field's top at 1 m
    s += ('<model name="c%d"><pose>%g %g 1.0501 0 1.5707963267948966 0'
          '</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>1'
          '</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial><collision '
          'name="c"><geometry><capsule><radius>0.05</radius><length>0.02'
          '</length></capsule></geometry></collision></link></model>\n'
          % (k, -1.7 + k // 18 * 0.2, -1.7 + k % 18 * 0.2))
open(sys.argv[1] + '/many.sdf', 'w').write(s + '</world></sdf>\n')
PY
	phys-step -n 20 -e 20 -i 'c*::l/pose' "$TMP/many.sdf" > "$TMP/out" 2> "$TMP/err"
	[ "$(grep -c "more than 262144 of their cells together" "$TMP/err")" = 1 ]
	[ "$(tail -1 "$TMP/out" | jq '[.items[].z | . * 1e4 | round] | unique')" = "$(printf '[\n  10500\n]')" ]
}
