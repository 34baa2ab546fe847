#!/usr/bin/env bats
# Every engine, one world: worlds/closed_forms.sdf's eight cases, each
# checked against its closed form under each engine's profile (for_both),
# with the tolerance each meets; switching engines mid-run; Gazebo's
# worlds under Bullet.

load helper

W="$WORLDS/closed_forms.sdf"

# run_case PROFILE SECONDS: the world's state lines every 10 ms in $TMP/PROFILE,
# the slider and rotor set going at t = 0.
run_case() {
	printf '%s\n' \
	    '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' \
	    '{"t":0,"name":"rotor::link/angular_vel","value":{"x":0,"y":0,"z":2}}' \
	    > "$TMP/ctl"
	phys-step -p "$1" -t "$2" -r 100 -c "$TMP/ctl" -i '*::*/pose' \
	    -i '*::*/position' -i '*::*/velocity' -i '*::*/linear_vel' \
	    "$W" > "$TMP/$1" 2> "$TMP/$1.err"
}

# series FILE ITEM FIELD: "t value" per line.
series() {
	jq -r --arg i "$2" --arg f "$3" '[.t, (.items[$i] | if type == "array"
	    then .[($f|tonumber)] else .[$f] end)] | @tsv' "$1"
}

# at FILE T ITEM FIELD: the value at time T (failing when there is none).
at() {
	series "$1" "$3" "$4" | awk -v t="$2" '$1 == t && $2 != "" { print $2; n++ }
	    END { exit n != 1 }'
}

# Mean time between downward zero crossings of the second column, about
# the level given (0 by default).
period() {
	awk -v c="${1:-0}" '{ $2 -= c } NR > 1 && p > 0 && $2 <= 0 {
		tc = pt + (0 - p) * ($1 - pt) / ($2 - p)
		if (first == "") first = tc; else { last = tc; n++ } }
		{ pt = $1; p = $2 }
		END { if (n < 1) exit 1; printf "%.9g\n", (last - first) / n }'
}

fall() {
	run_case "$1" 1
	# ODE and Bullet integrate semi-implicitly: exactly
	# z0 - g h^2 n (n + 1) / 2; Simbody's fourth-order integrator follows
	# the parabola itself, z0 - g t^2 / 2.
	if [ "$1" = simbody ]; then
		near "$(at "$TMP/$1" 1 fall::link/pose z)" 25.095 1e-9
		return
	fi
	near "$(at "$TMP/$1" 1 fall::link/pose z)" \
	    "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
}
@test "free fall: z0 - g h^2 n (n + 1) / 2 (Simbody: z0 - g t^2 / 2) to 1e-9 under each engine" {
	for_both fall
}

pendulum() {
	run_case "$1" 6
	rel "$(series "$TMP/$1" pendulum::bob/pose roll | period)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) }')" 0.01
}
@test "pendulum: period 2 pi sqrt(I / (m g d)) within 1% under each engine" {
	for_both pendulum
}

slide() {
	run_case "$1" 1
	rel "$(at "$TMP/$1" 1 slide::link/pose x)" \
	    "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.05
	# ... and it has stopped
	near "$(at "$TMP/$1" 1 slide::link/linear_vel x)" 0 1e-3
}
@test "sliding: a box at 2 m/s stops after v^2 / (2 mu g) within 5% under each engine" {
	for_both slide
}

bounce() {
	run_case "$1" 1.2
	# the highest point after the first impact (t = 0.45 s)
	top=$(series "$TMP/$1" bounce::link/pose z | awk '$1 > 0.5 && $2 > m { m = $2 } END { print m }')
	rel "$(awk -v z="$top" 'BEGIN { print z - 0.1 }')" 0.25 0.05
}
@test "restitution: a ball dropped from 1 m with e = 0.5 rises again to e^2 m within 5% under each engine" {
	for_both bounce
}

rest() {
	run_case "$1" 2
	z=$(at "$TMP/$1" 2 rest::link/pose z)
	# sunk, but no deeper than the contact surface layer (1 mm)
	awk -v z="$z" 'BEGIN { exit !(z <= 0.1 + 1e-9 && z >= 0.1 - 0.00105) }' ||
		fail "rest box at $z"
	near "$(at "$TMP/$1" 2 rest::link/linear_vel z)" 0 1e-4
	near "$(at "$TMP/$1" 2 rest::link/pose roll)" 0 1e-6
}
@test "resting contact: a box on the ground stays, sunk at most the surface layer (Simbody: its compliance), under each engine" {
	for_both rest
}

limit() {
	run_case "$1" 2
	near "$(at "$TMP/$1" 2 limit::hinge/position 0)" -0.3 0.01
	# held there for the whole second second (never past, never back up)
	series "$TMP/$1" limit::hinge/position 0 | awk '$1 >= 1 && ($2 < -0.31 || $2 > -0.29) { bad = 1 }
	    END { exit bad }' || fail "the arm left its limit"
}
@test "joint limit: a falling arm stops at its lower limit under each engine" {
	for_both limit
}

rotor() {
	run_case "$1" 1
	rel "$(at "$TMP/$1" 1 rotor::spin/velocity 0)" "$(awk 'BEGIN { print 2 * exp(-1) }')" 0.01
}
@test "viscous joint damping: w(t) = w0 exp(-c t / I) within 1% under each engine" {
	for_both rotor
}

spring() {
	run_case "$1" 3
	rel "$(series "$TMP/$1" spring::slider/position 0 | period 0.1)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(1 / 100) }')" 0.01
	# it swings between 0 and twice the reference
	max=$(series "$TMP/$1" spring::slider/position 0 | awk '$2 > m { m = $2 } END { print m }')
	near "$max" 0.2 0.005
}
@test "prismatic spring: period 2 pi sqrt(m / k) within 1% under each engine" {
	for_both spring
}

# fourbar PROFILE: worlds/fourbar.sdf swinging for 2 s keeps its loop
# closed (closure) within 0.3 mm while the crank turns through more than
# a radian.
fourbar() {
	phys-step -p "$1" -t 2 -r 100 -i 'fourbar::*/position' "$WORLDS/fourbar.sdf" 2>/dev/null > "$TMP/$1"
	closure "$TMP/$1" > "$TMP/c"
	echo "loop open by $(cut -d' ' -f1 "$TMP/c") m at most; the crank turned through $(cut -d' ' -f2 "$TMP/c")"
	awk '{ exit !($1 < 3e-4 && $2 > 1) }' "$TMP/c"
}
@test "a four-bar linkage (a kinematic loop) follows the loop-closure equation under each engine" {
	for_both fourbar
}

@test "a preset control line switches engine mid-fall; the parabola goes on to 1e-9 (ODE to Bullet and back)" {
	local from to
	for from in ode bullet; do
		to=$([ "$from" = ode ] && echo bullet || echo ode)
		echo "{\"t\":0.4,\"preset\":\"$to\"}" > "$TMP/sw"
		phys-step -p "$from" -t 1 -e 100 -c "$TMP/sw" -i 'fall::link/pose' \
		    -i 'fall::link/linear_vel' "$W" 2>/dev/null > "$TMP/o"
		# the line at the switch names the new profile and its solver
		[ "$(jq -r 'select(.t == 0.4) | .preset' "$TMP/o")" = "$to" ]
		near "$(at "$TMP/o" 1 fall::link/pose z)" \
		    "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
		near "$(at "$TMP/o" 1 fall::link/linear_vel z)" -9.81 1e-9
	done
}

@test "switching engine carries a swinging pendulum on: its period is unchanged" {
	echo '{"t":2.3,"preset":"bullet"}' > "$TMP/sw"
	phys-step -p ode -t 6 -r 100 -c "$TMP/sw" -i 'pendulum::bob/pose' "$W" 2>/dev/null > "$TMP/o"
	# the swing is continuous across the switch: no jump in the angle
	series "$TMP/o" pendulum::bob/pose roll | awk 'NR > 1 { d = $2 - p; if (d < 0) d = -d; if (d > m) m = d } { p = $2 }
	    END { exit !(m < 0.004) }'
	rel "$(series "$TMP/o" pendulum::bob/pose roll | period)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) }')" 0.01
}

@test "Bullet: what it cannot honour is kept and warned about once; ODE's own values are another engine's" {
	run phys-step -p bullet -n 2 -s 'slide::link::collision/surface.friction.bullet.friction2=0.3' \
	    -s 'slide::link::collision/surface.friction.bullet.friction=0.3' "$W"
	assert_success
	[ "$(grep -c 'surface.friction.bullet.friction2 is set but has no effect with Bullet' <<<"$output")" -eq 1 ]
	[[ "$output" != *"bullet.friction is set"* ]]
	[[ "$output" == *"collision surface parameters are for another engine and have no effect with Bullet"* ]]
	run phys-step -p ode -n 2 -s bullet.solver.iters=9 "$W"
	[ "$(grep -c 'bullet parameters are for another engine and have no effect with ODE' <<<"$output")" -eq 1 ]
}

@test "Bullet: the profile's values reach it (the engine record), and friction changes the slide" {
	phys-step -p bullet -n 1 -s bullet.solver.iters=7 -s bullet.solver.sor=1.1 \
	    -s bullet.constraints.cfm=1e-6 -s bullet.constraints.erp=0.4 \
	    -s bullet.constraints.contact_surface_layer=0.002 "$W" 2>/dev/null | head -1 > "$TMP/o"
	[ "$(jq -c '.engine | [.solver, .iters, .sor, .cfm, .erp, .contact_surface_layer]' "$TMP/o")" = \
	    '["sequential_impulse",7,1.1,1e-06,0.4,0.002]' ]
	# mu = 0.25 doubles the sliding distance
	printf '%s\n' '{"t":0,"name":"slide::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p bullet -t 1.5 -e 1500 -c "$TMP/ctl" -s 'slide::link::collision/surface.friction.bullet.friction=0.25' \
	    -i 'slide::link/pose' "$W" 2>/dev/null | tail -1 > "$TMP/o"
	rel "$(jq '.items["slide::link/pose"].x' "$TMP/o")" "$(awk 'BEGIN { print 4 / (2 * 0.25 * 9.81) }')" 0.05
}

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

@test "Bullet geometry: a moving mesh cube, a static polyline, an ellipsoid and a heightmap bowl" {
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) -lm -o "$TMP/geomgen"
	mkdir "$TMP/gen" && "$TMP/geomgen" "$TMP/gen"
	local in='<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'
	cat > "$TMP/g.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="cube"><pose>0 0 0.7 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/gen/cube.stl</uri></mesh></geometry></collision></link></model>
<model name="l"><pose>5 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>
<model name="b"><pose>5.5 1.5 1 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="notch"><pose>6.5 1.5 1 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="e"><pose>-5 0 1 0 0 0</pose><link name="link"><inertial auto="true"/><collision name="c"><geometry><ellipsoid><radii>0.3 0.2 0.1</radii></ellipsoid></geometry></collision></link></model>
<model name="t"><pose>20 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><heightmap><uri>$TMP/gen/bowl.tif</uri><size>8 8 2</size><pos>0 0 0.5</pos></heightmap></geometry></collision></link></model>
<model name="s"><pose>21.5 -1 3 0 0 0</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry><surface><friction><bullet><rolling_friction>0</rolling_friction></bullet></friction></surface></collision></link></model>
</world></sdf>
SDF
	phys-step -t 6 -r 100 -i '*::link/pose' "$TMP/g.sdf" > "$TMP/o"
	# resting on their lowest faces, sunk at most the surface layer (1 mm)
	near "$(at "$TMP/o" 6 cube::link/pose z)" 0.4995 0.0006
	near "$(at "$TMP/o" 6 b::link/pose z)" 0.3995 0.0006
	near "$(at "$TMP/o" 6 notch::link/pose z)" 0.0995 0.0006
	near "$(at "$TMP/o" 6 e::link/pose z)" 0.0995 0.0006
	# the ball rolls through the bowl's bottom (pos.z, a radius below it)
	series "$TMP/o" s::link/pose z | awk '$1 > 1 && (m == "" || $2 < m) { m = $2 } END { print m }' > "$TMP/min"
	near "$(cat "$TMP/min")" 0.6 0.01
}

@test "Bullet joints (joints.sdf): ball and universal swing as 1 m pendulums, fixed holds, a stop's effort is m g L cos(theta)" {
	sed 's/<physics type="ode">/<physics type="bullet">/' "$WORLDS/joints.sdf" > "$TMP/j.sdf"
	phys-step -t 4.2 -r 500 -i '*::bob/pose' -i 'fixed::body/pose' -i '*::j/*' "$TMP/j.sdf" 2>/dev/null > "$TMP/o"
	[ "$(head -1 "$TMP/o" | jq -r .engine.solver)" = sequential_impulse ]
	for m in ball cardan; do
		rel "$(series "$TMP/o" $m::bob/pose roll | period)" \
		    "$(awk 'BEGIN { print 2 * 3.141592653589793 * sqrt(1.001 / 9.81) }')" 0.01
	done
	near "$(at "$TMP/o" 4.2 fixed::body/pose z)" 3 1e-6
	near "$(at "$TMP/o" 4.2 hinge::j/position 0)" -0.3 0.005
	rel "$(at "$TMP/o" 4.2 hinge::j/effort 0)" "$(awk 'BEGIN { print 9.81 * cos(0.3) }')" 0.005
	# the universal joint's first angle is the swing, measured from the
	# loaded 0.05 rad, as under ODE
	near "$(at "$TMP/o" 4.2 cardan::j/position 0)" \
	    "$(awk -v r="$(at "$TMP/o" 4.2 cardan::bob/pose roll)" 'BEGIN { print r - 0.05 }')" 1e-6
}
