#!/usr/bin/env bats
# Mass, inertia and centre of mass changed by phys-step control lines take
# effect at their time (Gazebo's inertia-resizing tests, on worlds of ours).

load helper

pitch() {	# control file, time: the plank's pitch then
	phys-step -t 2 -r 10 ${1:+-c "$1"} -i 'seesaw::plank/pose' "$WORLDS/seesaw.sdf" |
	    jq -r --argjson t "$2" 'select(.t == $t) | .items["seesaw::plank/pose"].pitch'
}

@test "a cube made heavier tips the plank with the angular acceleration torque / inertia" {
	# At t=0.5 cube_plus goes from 1 to 3 kg, its own inertia following
	# (inertia.follow=density): 3 times 0.0066667. About the hinge: torque
	# g * 1.8 * (3 - 1); inertia: the plank's iyy 2.66708, the cubes' own
	# (3 + 1) 0.0066667 and m (1.8^2 + 0.125^2) for each cube (3 + 1 kg).
	# From rest, pitch = alpha (t - 0.5)^2 / 2 while the angle is small.
	echo '{"t":0.5,"name":"cube_plus::link/inertial.mass","value":3}' > "$TMP/c"
	phys-step -t 0.7 -r 10 -c "$TMP/c" -i 'seesaw::plank/pose' "$WORLDS/seesaw.sdf" |
	    jq -r '[.t, .items["seesaw::plank/pose"].pitch] | @tsv' > "$TMP/p"
	alpha=$(awk 'BEGIN { OFMT = "%.12g"
		i = 2.6670833333333337 + (3 + 1) * 0.006666666666666668 + (3 + 1) * (1.8 ^ 2 + 0.125 ^ 2)
		print 9.81 * 1.8 * (3 - 1) / i }')
	near "$(awk '$1 == 0.5 { print $2 }' "$TMP/p")" 0 1e-5
	for t in 0.6 0.7; do
		rel "$(awk -v t=$t '$1 == t { print $2 }' "$TMP/p")" \
		    "$(awk -v a="$alpha" -v t=$t 'BEGIN { print a * (t - 0.5) ^ 2 / 2 }')" 0.01
	done
}

@test "a heavier cube on one end tips the plank toward it" {
	echo '{"t":0.5,"name":"cube_plus::link/inertial.mass","value":3}' > "$TMP/c"
	near "$(pitch "$TMP/c" 0.5)" 0 1e-4
	awk -v p="$(pitch "$TMP/c" 1.5)" 'BEGIN { exit !(p > 0.3) }'
	echo '{"t":0.5,"name":"cube_minus::link/inertial.mass","value":3}' > "$TMP/c"
	awk -v p="$(pitch "$TMP/c" 1.5)" 'BEGIN { exit !(p < -0.3) }'
}

@test "moving the plank's centre of mass toward one cube tips it that way" {
	echo '{"t":0.5,"name":"seesaw::plank/inertial.pose","value":{"x":-0.5,"y":0,"z":0,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/c"
	awk -v p="$(pitch "$TMP/c" 1.5)" 'BEGIN { exit !(p < -0.3) }'
	echo '{"t":0.5,"name":"seesaw::plank/inertial.pose","value":{"x":0.5,"y":0,"z":0,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/c"
	awk -v p="$(pitch "$TMP/c" 1.5)" 'BEGIN { exit !(p > 0.3) }'
	# the plank turns about its hinge: the link frame stays put
	phys-step -t 1 -r 10 -c "$TMP/c" -i 'seesaw::plank/pose' "$WORLDS/seesaw.sdf" | tail -1 |
	    jq -r '.items["seesaw::plank/pose"] | [.x, .z] | @tsv' | { read -r x z; near "$x" 0 1e-5; near "$z" 1 1e-5; }
}

@test "a larger moment of inertia lowers a pendulum's frequency to sqrt(m g d / I) / 2 pi" {
	echo '{"t":4.5,"name":"pendulum::bob/inertial.inertia.ixx","value":0.1}' > "$TMP/c"
	phys-step -t 12 -r 500 -c "$TMP/c" -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" |
	    jq -r '[.t, .items["pendulum::bob/pose"].roll] | @tsv' > "$TMP/roll"
	pi=3.141592653589793
	rel "$(freq "$TMP/roll" 0 4.5)" "$(awk -v pi=$pi 'BEGIN { print sqrt(1 * 9.81 * 0.5 / 0.26) / (2 * pi) }')" 0.02
	rel "$(freq "$TMP/roll" 5 12)" "$(awk -v pi=$pi 'BEGIN { print sqrt(1 * 9.81 * 0.5 / 0.35) / (2 * pi) }')" 0.02
}

@test "values read back from the engine after a change equal what was set" {
	cat > "$TMP/c" <<'JSON'
{"t":0.01,"name":"pendulum::bob/inertial.mass","value":2.5}
{"t":0.01,"name":"pendulum::bob/inertial.inertia.ixx","value":0.03}
{"t":0.01,"name":"pendulum::bob/inertial.inertia.ixy","value":0.001}
{"t":0.01,"name":"pendulum::bob/inertial.pose","value":{"x":0,"y":0,"z":0.1,"roll":0,"pitch":0,"yaw":0}}
JSON
	phys-step -n 20 -e 10 -c "$TMP/c" -i 'pendulum::bob/mass' -i 'pendulum::bob/inertia' -i 'pendulum::bob/inertial_pose' -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$TMP/o"
	[ "$(sed -n 1p "$TMP/o" | jq -c '[.items["pendulum::bob/mass"], .items["pendulum::bob/inertia"].ixx]')" = '[1,0.01]' ]
	last=$(tail -1 "$TMP/o")
	[ "$(jq -c '[.items["pendulum::bob/mass"], .items["pendulum::bob/inertia"].ixx, .items["pendulum::bob/inertia"].ixy]' <<<"$last")" = '[2.5,0.03,0.001]' ]
	# the centre of mass sits 0.1 m along the bob's z axis
	d=$(jq -r '.items as $i | ($i["pendulum::bob/inertial_pose"] | [.x,.y,.z]) as $c | ($i["pendulum::bob/pose"] | [.x,.y,.z]) as $p | [range(3)] | map(($c[.] - $p[.]) * ($c[.] - $p[.])) | add | sqrt' <<<"$last")
	near "$d" 0.1 1e-9
	# a mass of zero is refused where it is given
	echo '{"t":0.01,"name":"pendulum::bob/inertial.mass","value":0}' > "$TMP/z"
	run phys-step -n 20 -c "$TMP/z" "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"z:1: inertial.mass: 0 must be above 0"* ]]
}
