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

# frequency over a time window, from upward zero crossings of the roll
freq() {
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b && NR > 1 && p < 0 && $2 >= 0 {
		tc = pt + (0 - p) * ($1 - pt) / ($2 - p)
		if (first == "") first = tc; else { last = tc; n++ } }
		{ pt = $1; p = $2 }
		END { printf "%.9g\n", n / (last - first) }' "$1"
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

# ---- shape sizes: the inertia and the collision follow a resize ----

# A 0.4 m cube of 1 kg on a plane (the world's header says more).
resting_box() {
	cp "$WORLDS/resting_box.sdf" "$TMP/box.sdf"
}

# mass and ixx, iyy, izz the engine holds at the end of a run with control file $1
held() {
	phys-step -n 20 -e 20 -c "$1" "${@:2}" -i 'box::link/mass' -i 'box::link/inertia' "$TMP/box.sdf" | tail -1 |
	    jq -r '.items | [.["box::link/mass"], .["box::link/inertia"].ixx, .["box::link/inertia"].iyy, .["box::link/inertia"].izz] | @tsv'
}

@test "doubling a box's size at run time gives 8 times its mass and 32 times its inertia (density kept)" {
	resting_box
	echo '{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	held "$TMP/c" | { read -r m ixx iyy izz
		rel "$m" 8 1e-12 &&
		for i in "$ixx" "$iyy" "$izz"; do rel "$i" 0.8533333333333334 1e-12 || exit 1; done; }
}

@test "with inertia.follow=mass a doubled box keeps its mass and gets 4 times its inertia" {
	resting_box
	printf '%s\n' '{"t":0.002,"name":"box::link/inertia.follow","value":"mass"}' \
	    '{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	held "$TMP/c" | { read -r m ixx iyy izz
		rel "$m" 1 1e-12 &&
		for i in "$ixx" "$iyy" "$izz"; do rel "$i" 0.10666666666666667 1e-12 || exit 1; done; }
}

@test "with inertia.follow=none a resize leaves the inertial; a non-uniform resize follows per axis" {
	resting_box
	echo '{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	held "$TMP/c" -s 'box::link/inertia.follow=none' | { read -r m ixx iyy izz
		[ "$m" = 1 ] && near "$ixx" 0.026666666666666668 1e-17 && near "$izz" 0.026666666666666668 1e-17; }
	# three times as tall at 15.625 kg/m^3: m = 3, ixx = m (y^2 + z^2) / 12
	echo '{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.4,"y":0.4,"z":1.2}}' > "$TMP/c"
	held "$TMP/c" | { read -r m ixx iyy izz
		rel "$m" 3 1e-12 && rel "$ixx" 0.4 1e-12 && rel "$iyy" 0.4 1e-12 &&
		    rel "$izz" 0.08 1e-12; }
}

@test "a new mass scales the tensor with it, unless inertia.follow=none" {
	resting_box
	echo '{"t":0.005,"name":"box::link/inertial.mass","value":3}' > "$TMP/c"
	held "$TMP/c" | { read -r m ixx iyy izz; [ "$m" = 3 ] && rel "$ixx" 0.08 1e-12; }
	held "$TMP/c" -s 'box::link/inertia.follow=none' | { read -r m ixx iyy izz; [ "$m" = 3 ] && near "$ixx" 0.026666666666666668 1e-17; }
}

@test "a resized box's collision changes with it: resting on a plane, its centre rises to half the new size" {
	resting_box
	echo '{"t":0.5,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	phys-step -t 2.5 -r 2 -c "$TMP/c" -i 'box::link/pose' "$TMP/box.sdf" |
	    jq -r '[.t, .items["box::link/pose"].z] | @tsv' > "$TMP/z"
	near "$(awk '$1 == 0.5 { print $2 }' "$TMP/z")" 0.2 1e-6
	near "$(awk '$1 == 2.5 { print $2 }' "$TMP/z")" 0.4 1e-6
	# the sphere of the other shapes: -s sets a size before the run
	run phys-step -n 1 -s 'box::link::collision/geometry.sphere.radius=1' "$TMP/box.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"box::link::collision: no geometry.sphere.radius: the collision is a box"* ]]
}

@test "a pendulum's frequency after its bob is doubled at run time is sqrt(m g d / I) / 2 pi" {
	# a 0.4 m cube of 1 kg, 0.5 m below a hinge on x: I = m a^2 / 6 + m d^2
	cat > "$TMP/p.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <gravity>0 0 -9.81</gravity>
    <physics name="p" type="ode"><max_step_size>0.001</max_step_size>
      <ode><solver><type>world</type></solver></ode></physics>
    <model name="pendulum">
      <link name="bob">
        <pose>0 0.024989584635339165 1.5006248698025169 0.05 0 0</pose>
        <inertial>
          <mass>1</mass>
          <inertia><ixx>0.026666666666666668</ixx><iyy>0.026666666666666668</iyy><izz>0.026666666666666668</izz></inertia>
        </inertial>
        <collision name="collision">
          <geometry><box><size>0.4 0.4 0.4</size></box></geometry>
        </collision>
      </link>
      <joint name="pivot" type="revolute">
        <parent>world</parent>
        <child>bob</child>
        <pose>0 0 0.5 0 0 0</pose>
        <axis><xyz>1 0 0</xyz></axis>
      </joint>
    </model>
  </world>
</sdf>
SDF
	echo '{"t":4.5,"name":"pendulum::bob::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	phys-step -t 12 -r 500 -c "$TMP/c" -i 'pendulum::bob/pose' "$TMP/p.sdf" |
	    jq -r '[.t, .items["pendulum::bob/pose"].roll] | @tsv' > "$TMP/roll"
	pi=3.141592653589793
	rel "$(freq "$TMP/roll" 0 4.5)" "$(awk -v pi=$pi 'BEGIN { print sqrt(1 * 9.81 * 0.5 / (0.16 / 6 + 0.25)) / (2 * pi) }')" 0.01
	rel "$(freq "$TMP/roll" 5 12)" "$(awk -v pi=$pi 'BEGIN { print sqrt(8 * 9.81 * 0.5 / (8 * 0.64 / 6 + 8 * 0.25)) / (2 * pi) }')" 0.01
}
