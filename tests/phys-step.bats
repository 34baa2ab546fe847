#!/usr/bin/env bats
# phys-step: simulation checked against closed-form answers.

load helper
bats_require_minimum_version 1.5.0

@test "free fall matches z0 - g t^2 / 2 within the integrator's error" {
	phys-step -t 1 -e 100 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	# Semi-implicit Euler is off by g h t / 2 = 0.0049 m at most.
	near "$z" "$(awk 'BEGIN { print 10 - 9.81 / 2 }')" 0.0050
	# ... and agrees exactly with its own closed form z0 - g h^2 n (n+1) / 2.
	near "$z" "$(awk 'BEGIN { printf "%.15f", 10 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
}

@test "a pendulum's period is 2 pi sqrt(I / (m g d)) within 1%" {
	phys-step -t 6 -r 200 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$TMP/out"
	T=$(series "$TMP/out" pendulum::bob/pose roll | period)
	rel "$T" "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(0.26 / (9.81 * 0.5)) }')" 0.01
}

@test "the world step keeps a frictionless pendulum's energy within 1% over 10 s" {
	phys-step -p world -t 10 -r 20 -i 'pendulum/*_energy' "$WORLDS/pendulum.sdf" > "$TMP/out"
	jq -r '.items["pendulum/kinetic_energy"] + .items["pendulum/potential_energy"]' "$TMP/out" > "$TMP/e"
	e0=$(head -1 "$TMP/e")
	while read -r e; do rel "$e" "$e0" 0.01; done < "$TMP/e"
	# The swing really happens: kinetic energy reaches the drop in height.
	max_ke=$(jq -r '.items["pendulum/kinetic_energy"]' "$TMP/out" | sort -g | tail -1)
	rel "$max_ke" "$(awk 'BEGIN { print 9.81 * 0.5 * (1 - cos(0.05)) }')" 0.05
}

@test "the quick step runs the same pendulum to the same period" {
	phys-step -p quick -t 4 -r 200 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$TMP/q"
	phys-step -p world -t 4 -r 200 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$TMP/w"
	grep -q '"solver":"quick"' "$TMP/q"
	grep -q '"solver":"world"' "$TMP/w"
	rel "$(series "$TMP/q" pendulum::bob/pose roll | period)" \
	    "$(series "$TMP/w" pendulum::bob/pose roll | period)" 0.005
}

@test "a box given a speed by a control line slides v^2 / (2 mu g) (pyramid)" {
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p pyramid -t 1.5 -e 100 -c "$TMP/ctl" -i 'box::link/pose' "$WORLDS/sliding_box.sdf" > "$TMP/out"
	x0=$(series "$TMP/out" box::link/pose x | awk '$1 == 0.2 { print $2 }')
	x1=$(series "$TMP/out" box::link/pose x | tail -1 | cut -f2)
	d=$(awk -v a="$x0" -v b="$x1" 'BEGIN { print b - a }')
	rel "$d" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.05
}

@test "box_model uses mu as a force in newtons per contact" {
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p box -t 1.5 -e 100 -c "$TMP/ctl" -i 'box::link/pose' -i contacts "$WORLDS/sliding_box.sdf" > "$TMP/out"
	n=$(jq -r '.items.contacts' "$TMP/out" | tail -1)
	[ "$n" -eq 4 ]
	x0=$(series "$TMP/out" box::link/pose x | awk '$1 == 0.2 { print $2 }')
	x1=$(series "$TMP/out" box::link/pose x | tail -1 | cut -f2)
	d=$(awk -v a="$x0" -v b="$x1" 'BEGIN { print b - a }')
	# Four contacts each resist with 0.5 N: a = 2 m/s^2 on 1 kg.
	rel "$d" "$(awk -v n="$n" 'BEGIN { print 4 / (2 * n * 0.5 / 1) }')" 0.05
}

@test "a resting sphere sinks m g / kp plus min_depth" {
	phys-step -t 1 -e 1000 -i 'ball::link/pose' "$WORLDS/resting_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	depth=$(awk -v z="$z" 'BEGIN { print 0.1 - z }')
	# Springs in series: 10000 and 10000 N/m make 5000 N/m.
	rel "$depth" "$(awk 'BEGIN { print 9.81 / 5000 + 0.002 }')" 0.01
}

@test "a contact limit above the per-pair cap is warned about once, and the sphere still rests" {
	run -0 --separate-stderr phys-step -t 1 -e 1000 -i 'ball::link/pose' \
	    -s max_contacts=1000 -s '*::link::collision/max_contacts=1000' \
	    "$WORLDS/resting_sphere.sdf"
	assert_equal "$stderr" "phys-step: max_contacts 1000: at most 256 contact points are kept per colliding pair"
	printf '%s\n' "$output" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	rel "$(awk -v z="$z" 'BEGIN { print 0.1 - z }')" "$(awk 'BEGIN { print 9.81 / 5000 + 0.002 }')" 0.01
}

@test "a stiffer contact sinks less: kp set from the command line" {
	phys-step -t 1 -e 1000 -i 'ball::link/pose' \
	    -s 'ball::link::collision/surface.contact.ode.kp=40000' \
	    -s 'ground::link::collision/surface.contact.ode.kp=40000' \
	    -s 'ball::link::collision/surface.contact.ode.min_depth=0' \
	    "$WORLDS/resting_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	rel "$(awk -v z="$z" 'BEGIN { print 0.1 - z }')" "$(awk 'BEGIN { print 9.81 / 20000 }')" 0.01
}

@test "max_vel limits how fast a buried sphere is pushed out" {
	phys-step -t 0.3 -e 100 -i 'ball::link/pose' "$WORLDS/buried_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	near "$z" "$(awk 'BEGIN { print 0.05 + 0.1 * 0.3 }')" 1e-4
	# The smaller of the two surfaces wins.
	phys-step -t 0.3 -e 100 -i 'ball::link/pose' \
	    -s 'ground::link::collision/surface.contact.ode.max_vel=0.02' \
	    "$WORLDS/buried_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	near "$z" "$(awk 'BEGIN { print 0.05 + 0.02 * 0.3 }')" 1e-4
	# ... and the global contact_max_correcting_vel caps both.
	phys-step -t 0.3 -e 100 -i 'ball::link/pose' -s contact_max_correcting_vel=0.05 \
	    "$WORLDS/buried_sphere.sdf" > "$TMP/out"
	z=$(series "$TMP/out" ball::link/pose z | tail -1 | cut -f2)
	near "$z" "$(awk 'BEGIN { print 0.05 + 0.05 * 0.3 }')" 1e-4
}

# radial_under_cone WORLD: with cone_model every box of WORLD's ring slides
# straight out, its bearing from the centre unchanged.
radial_under_cone() {
	phys-step -t 3 -e 3000 -s friction_model=cone_model -i 'boxes::*/pose' "$1" > "$TMP/out"
	phys-step -n 0 -i 'boxes::*/pose' "$1" > "$TMP/start"
	jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' "$TMP/start" | sort > "$TMP/a0"
	tail -1 "$TMP/out" | jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' | sort > "$TMP/a1"
	[ "$(wc -l < "$TMP/a0")" -ge 8 ]
	join "$TMP/a0" "$TMP/a1" | awk '{
		a0 = atan2($3, $2); a1 = atan2($5, $4); d = a1 - a0
		d = atan2(sin(d), cos(d)); if (d < 0) d = -d
		if (d > 0.002) { print "box " $1 " turned by " d " rad"; bad = 1 } }
		END { exit bad }'
}

# turned_by_pyramid WORLD: with pyramid_model boxes off the 0/45/90 degree
# lines turn toward the nearer axis; boxes on them go straight.
turned_by_pyramid() {
	phys-step -t 3 -e 3000 -i 'boxes::*/pose' "$1" > "$TMP/out"
	phys-step -n 0 -i 'boxes::*/pose' "$1" > "$TMP/start"
	jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' "$TMP/start" | sort > "$TMP/a0"
	tail -1 "$TMP/out" | jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' | sort > "$TMP/a1"
	join "$TMP/a0" "$TMP/a1" | awk '
	function fold(a) { a = a * 180 / 3.141592653589793; while (a < 0) a += 90; while (a >= 90) a -= 90; return a }
	{	a0 = fold(atan2($3, $2)); a1 = fold(atan2($5, $4))
		on_line = (a0 < 0.01 || a0 > 89.99 || (a0 > 44.99 && a0 < 45.01))
		if (on_line) { d = a1 - a0; if (d < 0) d = -d; if (d > 0.1 && d < 89.9) { print "line box " $1 " turned"; bad = 1 } }
		else if (a0 < 45 && !(a1 < a0 - 1)) { print "box " $1 " at " a0 " did not turn toward 0: " a1; bad = 1 }
		else if (a0 > 45 && !(a1 > a0 + 1)) { print "box " $1 " at " a0 " did not turn toward 90: " a1; bad = 1 }
		else n++ }
	END { if (n < 4) { print "too few off-line boxes: " n; bad = 1 }; exit bad }'
}

@test "friction_pyramid.sdf: cone_model slides every box radially" {
	radial_under_cone "$WORLDS/friction_pyramid.sdf"
}

@test "friction_pyramid.sdf: pyramid_model turns boxes off the 0/45/90 degree lines toward an axis" {
	turned_by_pyramid "$WORLDS/friction_pyramid.sdf"
}

@test "friction_pyramid.sdf: each box stops where mu g deceleration puts it" {
	# cone: |a| = mu g along the path, so a box slides v^2 / (2 mu g).
	# pyramid: mu g along x and along y apart, each stopping on its own.
	for model in cone_model pyramid_model; do
		phys-step -n 0 -i 'boxes::*::link/pose' "$WORLDS/friction_pyramid.sdf" |
		    jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' | sort > "$TMP/p0"
		phys-step -t 2 -e 2000 -s friction_model=$model -i 'boxes::*::link/pose' "$WORLDS/friction_pyramid.sdf" | tail -1 |
		    jq -r '.items | to_entries[] | [.key, .value.x, .value.y] | @tsv' | sort > "$TMP/p1"
		[ "$(wc -l < "$TMP/p1")" -eq 16 ]
		# every box starts at 3 m/s straight out from the origin; mu = 0.3
		join "$TMP/p0" "$TMP/p1" | awk -v model=$model '{
			r = sqrt($2 * $2 + $3 * $3); vx = 3 * $2 / r; vy = 3 * $3 / r; a = 0.3 * 9.81
			if (model == "cone_model") { ex = $2 + vx * 3 / (2 * a); ey = $3 + vy * 3 / (2 * a) }
			else { ex = $2 + vx * (vx < 0 ? -vx : vx) / (2 * a); ey = $3 + vy * (vy < 0 ? -vy : vy) / (2 * a) }
			d = sqrt(($4 - ex) ^ 2 + ($5 - ey) ^ 2)
			if (d > 0.005) { print model ": " $1 " stopped at " $4 ", " $5 ", not " ex ", " ey; bad = 1 } }
			END { exit bad }'
	done
}

@test "Gazebo's friction_pyramid.world: the same under both friction models" {
	need_reference
	radial_under_cone "$REF/gazebo-worlds/friction_pyramid.world"
	turned_by_pyramid "$REF/gazebo-worlds/friction_pyramid.world"
}

@test "two runs give byte-identical output" {
	phys-step -t 0.5 -i 'box::*' -i sim_time "$WORLDS/sliding_box.sdf" > "$TMP/a"
	phys-step -t 0.5 -i 'box::*' -i sim_time "$WORLDS/sliding_box.sdf" > "$TMP/b"
	[ -s "$TMP/a" ]
	cmp "$TMP/a" "$TMP/b"
}

@test "malformed XML is an error with file and line, exit 1" {
	printf '<sdf version="1.7">\n<world name="w">\n<model name="m">\n</world>\n</sdf>\n' > "$TMP/bad.sdf"
	run phys-step "$TMP/bad.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^phys-step:\ $TMP/bad.sdf:[0-9]+:\ malformed\ XML ]]
	[ "$(phys-step "$TMP/bad.sdf" 2>/dev/null | wc -c)" -eq 0 ]
}

@test "a negative mass is an error naming the line" {
	sed 's|<mass>1</mass>|<mass>-2</mass>|' "$WORLDS/falling_sphere.sdf" > "$TMP/neg.sdf"
	line=$(grep -n '<mass>-2' "$TMP/neg.sdf" | cut -d: -f1)
	run phys-step "$TMP/neg.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/neg.sdf:$line: "*"inertial.mass: -2 must be above 0"* ]]
}

@test "an unknown joint type is an error naming the line" {
	sed 's|type="revolute"|type="screwy"|' "$WORLDS/pendulum.sdf" > "$TMP/j.sdf"
	line=$(grep -n 'screwy' "$TMP/j.sdf" | cut -d: -f1)
	run phys-step "$TMP/j.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/j.sdf:$line: unknown joint type 'screwy'"* ]]
}

@test "an image collision is an error unless skipped with a warning" {
	# the collision's sphere (not the visual's) becomes an image
	sed '/<collision/,/<\/collision>/{
		/<sphere>/,/<\/sphere>/d
		s|<geometry>|<geometry><image><uri>x.png</uri><height>1</height></image>|
	}' "$WORLDS/falling_sphere.sdf" > "$TMP/mesh.sdf"
	grep -q '<geometry><image>' "$TMP/mesh.sdf"
	run phys-step -n 1 "$TMP/mesh.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ phys-step:\ .*mesh.sdf:[0-9]+:\ collision\ \'ball::link::collision\':\ \<image\>\ geometry\ is\ not\ supported ]]
	run phys-step -n 1 --skip-unsupported "$TMP/mesh.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" =~ skipping\ collision ]]
}

# box_on_ground FILE COLLISION: a 1 m box of link m::l, 1 m above a
# ground plane, its link holding COLLISION too (on its own line).
box_on_ground() {
	cat > "$1" <<EOF
<?xml version="1.0"?>
<sdf version="1.11">
  <world name="w">
    <gravity>0 0 -9.81</gravity>
    <model name="ground"><static>true</static><link name="l">
      <collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>
    </link></model>
    <model name="m">
      <pose>0 0 1 0 0 0</pose>
      <link name="l">
        <inertial><mass>1</mass><inertia><ixx>0.17</ixx><iyy>0.17</iyy><izz>0.17</izz></inertia></inertial>
        $2
        <collision name="box"><geometry><box><size>1 1 1</size></box></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
EOF
}

@test "a mesh not found fails the load; --skip-unsupported runs without it" {
	box_on_ground "$TMP/miss.sdf" '<collision name="hull"><geometry><mesh><uri>hull.stl</uri></mesh></geometry></collision>'
	line=$(grep -n 'hull.stl' "$TMP/miss.sdf" | cut -d: -f1)
	run phys-step -t 0.1 "$TMP/miss.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/miss.sdf:$line: cannot find file 'hull.stl'"* ]]
	# skipped, the box collision still holds the link up: at rest, its
	# centre is half the box's height above the plane
	run phys-step -t 2 -r 1 -i 'm::l/pose' --skip-unsupported "$TMP/miss.sdf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$TMP/miss.sdf:$line: cannot find file 'hull.stl'"*"; skipping collision 'm::l::hull'"* ]]
	z=$(printf '%s\n' "$output" | grep '"t":2,' | jq '.items["m::l/pose"].z')
	awk -v z="$z" 'BEGIN { exit !(z > 0.49 && z < 0.501) }'
	# an automatic inertia would miss the skipped mesh's mass: refused
	sed 's|<inertial>.*</inertial>|<inertial auto="true"/>|' "$TMP/miss.sdf" > "$TMP/auto.sdf"
	run phys-step -t 0.1 --skip-unsupported "$TMP/auto.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"link 'm::l': <inertial auto=\"true\"> needs every collision, and one was skipped"* ]]
}

@test "a sphere of radius 0 (Drake's point contacts, Jaco's placeholder) under DART, MuJoCo and Simbody: refused, naming --skip-unsupported, which skips it under each of them alike" {
	box_on_ground "$TMP/point.sdf" '<collision name="point"><pose>0 0 -0.6 0 0 0</pose><geometry><sphere><radius>0</radius></sphere></geometry></collision>'
	line=$(grep -n 'name="point"' "$TMP/point.sdf" | cut -d: -f1)
	for e in dart mujoco simbody; do
		run -1 phys-step -p "$e" -n 1 "$TMP/point.sdf"
		assert_output --partial "point.sdf:$line: collision 'm::l::point': a shape with a size of 0"
		assert_output --partial "(--skip-unsupported skips it)"
		# skipped, the box holds the link up at half its height
		run -0 phys-step -p "$e" -t 2 -r 1 -i 'm::l/pose' --skip-unsupported "$TMP/point.sdf"
		[ "$(grep -c "point.sdf:$line: skipping collision 'm::l::point'" <<< "$output")" = 1 ]
		z=$(printf '%s\n' "$output" | grep '"t":2,' | jq '.items["m::l/pose"].z')
		awk -v z="$z" 'BEGIN { exit !(z > 0.49 && z < 0.501) }'
	done
}

@test "NaN and huge numbers in the world are refused" {
	sed 's|<mass>1</mass>|<mass>nan</mass>|' "$WORLDS/falling_sphere.sdf" > "$TMP/nan.sdf"
	run phys-step "$TMP/nan.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "inertial.mass: \"nan\" is not a number" ]]
	sed 's|<mass>1</mass>|<mass>1e999</mass>|' "$WORLDS/falling_sphere.sdf" > "$TMP/huge.sdf"
	line=$(grep -n '<mass>1e999</mass>' "$TMP/huge.sdf" | cut -d: -f1)
	rc=0
	phys-step "$TMP/huge.sdf" > "$TMP/out" 2> "$TMP/err" || rc=$?
	[ "$rc" -eq 1 ]
	# refused where it is written, before any state line
	[ "$(cat "$TMP/err")" = "phys-step: $TMP/huge.sdf:$line: inertial.mass: \"1e999\" is too large for a double" ]
	[ ! -s "$TMP/out" ]
	# below the least normal double: too small, not "not a number"
	run -1 --separate-stderr phys-step -n 1 -s max_step_size=1e-308 "$WORLDS/falling_sphere.sdf"
	[ "$stderr" = 'phys-step: max_step_size: "1e-308" is too small for a double' ]
}

@test "external entities are never loaded" {
	cat > "$TMP/xxe.sdf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE sdf [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
<sdf version="1.7"><world name="w"><model name="m"><static>&x;</static></model></world></sdf>
EOF
	run phys-step -n 1 "$TMP/xxe.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "entity declarations are not allowed" ]]
	[[ ! "$output" =~ root: ]]
}

@test "an unknown preset exits 2 and lists the profiles" {
	run phys-step -p nope "$WORLDS/pendulum.sdf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no profile named 'nope' (there are: quick, world)"* ]]
}

@test "--set with an alias and a full name reaches the engine" {
	phys-step -n 0 -s iters=77 -s ode.constraints.erp=0.4 "$WORLDS/pendulum.sdf" > "$TMP/out"
	[ "$(jq '.engine.iters' "$TMP/out")" -eq 77 ]
	[ "$(jq '.engine.erp' "$TMP/out")" = 0.4 ]
	run phys-step -n 0 -s iter=77 "$WORLDS/pendulum.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "did you mean" ]]
}

@test "reads the world from standard input" {
	phys-step -n 10 < "$WORLDS/falling_sphere.sdf" > "$TMP/a"
	phys-step -n 10 - < "$WORLDS/falling_sphere.sdf" > "$TMP/b"
	phys-step -n 10 "$WORLDS/falling_sphere.sdf" > "$TMP/c"
	cmp "$TMP/a" "$TMP/c"
	cmp "$TMP/b" "$TMP/c"
}

@test "a closed pipe ends the run quietly" {
	run bash -c "phys-step -t 100 '$WORLDS/falling_sphere.sdf' 2>'$TMP/err' | head -1"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ ! -s "$TMP/err" ]
}

@test "--every and --rate choose the samples" {
	phys-step -t 0.1 -e 20 "$WORLDS/falling_sphere.sdf" | jq -r .t | tr '\n' ' ' > "$TMP/t"
	[ "$(cat "$TMP/t")" = "0 0.02 0.04 0.06 0.08 0.1 " ]
	phys-step -t 0.1 -r 25 "$WORLDS/falling_sphere.sdf" | jq -r .t | tr '\n' ' ' > "$TMP/t"
	[ "$(cat "$TMP/t")" = "0 0.04 0.08 " ]
}

@test "t stays the exact decimal the sampling asks for after a profile changes the step" {
	# sloppy's 0.002 s steps, then accurate's 0.001 s from t = 1.5 s
	echo '{"t":1.5,"preset":"accurate"}' > "$TMP/switch"
	phys-step -t 3 -r 50 -c "$TMP/switch" -i 'box5::link/pose' \
	    "$WORLDS/box_stack.sdf" | grep -o '"t":[^,]*' | cut -d: -f2 > "$TMP/t"
	[ "$(wc -l < "$TMP/t")" -eq 151 ]
	# every line's t written as k/50: 1.64, not 1.6400000000000001
	seq 0 150 | awk '{ printf "%.2f\n", $1 / 50 }' | sed 's/0*$//; s/\.$//' > "$TMP/want"
	diff "$TMP/want" "$TMP/t"
	# steps that are no 1/k s (0.003), changed mid-run to 0.0007
	printf '%s\n' '{"t":0.003,"name":"max_step_size","value":0.002}' \
	    '{"t":0.5,"name":"max_step_size","value":0.0007}' > "$TMP/steps"
	phys-step -t 0.6 -e 7 -s max_step_size=0.003 -c "$TMP/steps" -i sim_time \
	    "$WORLDS/falling_sphere.sdf" | grep -o '"t":[^,]*' | cut -d: -f2 > "$TMP/t"
	# 0, then 0.003 + 0.002 k, then 0.5004 + 0.0007 k: four decimals at most
	run -1 grep -Ev '^[0-9]+(\.[0-9]{1,4})?$' "$TMP/t"
	grep -qx 0.015 "$TMP/t"
	grep -qx 0.5011 "$TMP/t"
}

@test "a warning about a value says where the value came from: the world's line, the control line, or nothing for -s" {
	# an ODE profile with values ODE cannot honour and another engine's block
	sed 's|<iters>50</iters>|<iters>50</iters><precon_iters>4</precon_iters>|; s|</ode>|</ode><bullet><solver><iters>9</iters></solver></bullet>|' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/w.sdf"
	line() { grep -n "$1" "$TMP/w.sdf" | head -1 | cut -d: -f1; }
	run phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	assert_line "phys-step: $TMP/w.sdf:$(line '<precon_iters>'): ode.solver.precon_iters is set but has no effect with ODE (kept as given)"
	assert_line "phys-step: $TMP/w.sdf:$(line '<bullet>'): bullet parameters are Bullet's and have no effect with ODE (kept as given)"
	# a control line's value: that line; -s: no position
	echo '{"t":0,"name":"ball::link::collision/surface.friction.torsional.coefficient","value":2}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" -s 'ball::link::collision/surface.friction.torsional.patch_radius=0.2' "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 0 ]
	assert_line "phys-step: $TMP/ctl:1: collision 'ball::link::collision': surface.friction.torsional.coefficient is set but has no effect with ODE (kept as given)"
	assert_line "phys-step: collision 'ball::link::collision': surface.friction.torsional.patch_radius is set but has no effect with ODE (kept as given)"
	# run under another engine, the profile made for it from the file's
	# keeps the file's block for it (as Gazebo reads the element) and
	# says what it leaves and what does nothing at the file's lines
	sed 's|</ode>|</ode><simbody><min_step_size>0.0005</min_step_size><accuracy>0.0123</accuracy></simbody>|' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/s.sdf"
	run -0 --separate-stderr phys-step -p simbody -n 1 "$TMP/s.sdf"
	[ "$(head -1 <<<"$output" | jq .engine.accuracy)" = 0.0123 ]
	grep -qx "phys-step: $TMP/s.sdf:$(grep -n '<physics' "$TMP/s.sdf" | head -1 | cut -d: -f1): profile '[^']*': no simbody counterpart, not carried over: ode\..*" <<<"$stderr"
	grep -qx "phys-step: $TMP/s.sdf:$(grep -n '<simbody>' "$TMP/s.sdf" | cut -d: -f1): simbody.min_step_size is set but has no effect with Simbody (kept as given)" <<<"$stderr"
}

@test "the values of one element that do nothing with the engine are one warning, at that element's line, each named; collisions alike are one line" {
	# two balls whose surfaces give torsional friction (inert under
	# Bullet), ODE's mu2 and MuJoCo's rolling friction, on one line each
	sed 's|<collision name="collision">|<collision name="collision"><surface><friction><torsional><coefficient>2</coefficient><patch_radius>0.2</patch_radius></torsional><ode><mu>1</mu><mu2>0.5</mu2></ode><mujoco><rolling>0.01</rolling></mujoco></friction></surface>|' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/w.sdf"
	sed -n '/<model name="ball">/,/<\/model>/p' "$TMP/w.sdf" | sed 's/<model name="ball">/<model name="ball2"><pose>2 0 10 0 0 0<\/pose>/' > "$TMP/m2"
	sed -i "/<\/world>/e cat $TMP/m2" "$TMP/w.sdf"
	phys-preset add -q bullet --engine bullet --copy fine --in-place "$TMP/w.sdf"
	l=$(grep -n '<collision name="collision"><surface>' "$TMP/w.sdf" | head -1 | cut -d: -f1)
	run -0 --separate-stderr phys-step -p bullet -n 1 "$TMP/w.sdf"
	assert_equal "$stderr" "phys-step: $TMP/w.sdf:$l: collision 'ball::link::collision': surface.friction.torsional.coefficient and surface.friction.torsional.patch_radius are set but have no effect with Bullet; surface.friction.ode.mu2 is ODE's and has no effect with Bullet; surface.friction.mujoco.rolling is MuJoCo's and has no effect with Bullet (kept as given) (and 1 more collision)"
}

@test "Gazebo's presets.world: every warning names its line" {
	need_reference
	run -0 --separate-stderr phys-step -n 1 "$REF/gazebo-worlds/presets.world"
	mapfile -t lines <<<"$stderr"
	[ "${#lines[@]}" -ge 5 ]
	for l in "${lines[@]}"; do
		[[ $l == "phys-step: $REF/gazebo-worlds/presets.world:"[0-9]*": "* ]] || fail "no line: $l"
	done
}

@test "a diverging simulation stops with an error naming the body" {
	# 9e99 m/s^2 for 1 ms sends the ball 9e93 m: past 1e15 m, said as a
	# state not finite
	echo '{"t":0.01,"name":"gravity","value":"0 0 -9e99"}' > "$TMP/ctl"
	run phys-step -t 1 -c "$TMP/ctl" "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "simulation diverged: body 'ball::link' has a non-finite state at t=0.011" ]]
	# ODE's own faults end the same way, after the last complete line:
	# two balls 2e9 m up after a step of 10 s, beyond ODE's collision space
	sed -e 's|<max_step_size>[^<]*<|<max_step_size>10<|' \
	    -e 's|</world>|<model name="ball2"><pose>5 0 1 0 0 0</pose><link name="link"><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model></world>|' \
	    "$WORLDS/falling_sphere.sdf" > "$TMP/far.sdf"
	echo '{"t":0,"name":"gravity","value":"0 0 2e7"}' > "$TMP/ctl"
	run phys-step -t 100 -c "$TMP/ctl" "$TMP/far.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "simulation diverged at t=10: body '"ball2?::link"' is lost (ODE stopped: " ]]
	phys-step -t 100 -c "$TMP/ctl" "$TMP/far.sdf" 2>/dev/null > "$TMP/out" || true
	[ "$(wc -l < "$TMP/out")" -eq 2 ]
	jq -c . "$TMP/out" > /dev/null
}

@test "a state past where phys places a body or faster than any body moves, or a gravity DART cannot step, is refused at its control line, before the run; a state within runs" {
	local w="$WORLDS/falling_sphere.sdf" p="$WORLDS/pendulum.sdf" bad ok
	bad=(
	    "$w|ball::link/pose|{\"x\":0,\"y\":3e8,\"z\":0,\"roll\":0,\"pitch\":0,\"yaw\":0}|3e+08 m along y is farther than phys places a body (2.6e+08 m from the origin along each axis)"
	    "$w|ball/pose|{\"x\":0,\"y\":0,\"z\":-1e20,\"roll\":0,\"pitch\":0,\"yaw\":0}|-1e+20 m along z is farther than phys places a body"
	    "$w|ball::link/linear_vel|{\"x\":3e8,\"y\":4e8,\"z\":0}|5e+08 m/s is faster than any body moves (light's 299792458 m/s)"
	    "$w|ball/angular_vel|{\"x\":0,\"y\":0,\"z\":1.5e8}|1.5e+08 rad/s is faster than any body turns (1e+08 rad/s)"
	    "$p|pendulum::pivot/velocity|-1e300|1e+300 rad/s is faster than any body turns"
	    "$p|pendulum::pivot/cmd_vel|2e8|2e+08 rad/s is faster than any body turns"
	    "$p|pendulum::pivot/position|3e8|3e+08 rad is farther than phys places a body (2.6e+08 rad)"
	    "$p|pendulum::pivot/cmd_pos|-1e20|-1e+20 rad is farther than phys places a body"
	    "$w|gravity|\"0 0 -1e200\"|0 0 -1e+200 is refused: dart takes only vectors whose largest component in size is above 0 and below 1e+100"
	)
	for c in "${bad[@]}"; do
		IFS='|' read -r world name value why <<<"$c"
		printf '{"t":0.5,"name":"%s","value":%s}\n' "$name" "$value" > "$TMP/ctl"
		run --separate-stderr phys-step -t 1 -c "$TMP/ctl" "$world"
		[ "$status" -eq 1 ] || fail "$name $value: status $status"
		[ -z "$output" ] || fail "$name $value: a run started"
		[[ "$stderr" == "phys-step: $TMP/ctl:1: $name: $why"* ]] || fail "$stderr"
	done
	# within the bounds: a ball at 2.9e8 m/s moves 2.9e5 m a step
	echo '{"t":0.5,"name":"ball::link/linear_vel","value":{"x":2.9e8,"y":0,"z":0}}' > "$TMP/ctl"
	run -0 phys-step -q -t 0.502 -i 'ball::link/pose' -c "$TMP/ctl" "$w"
	near "$(tail -1 <<<"$output" | jq '.items["ball::link/pose"].x')" 5.8e5 1e-3
}

@test "--help and --version" {
	run phys-step --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: phys-step "* ]]
	run phys-step --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^phys-step\ [0-9] ]]
	run phys-step --bogus
	[ "$status" -eq 2 ]
}

@test "--realtime paces the run but changes nothing in it" {
	phys-step -t 0.2 -e 50 "$WORLDS/falling_sphere.sdf" > "$TMP/a"
	phys-step --realtime -s real_time_factor=1000 -t 0.2 -e 50 "$WORLDS/falling_sphere.sdf" > "$TMP/b"
	[ "$(jq -s 'map(.engine) | map(select(.)) | length' "$TMP/b")" -eq 1 ]
	diff <(jq -c 'del(.engine)' "$TMP/a") <(jq -c 'del(.engine)' "$TMP/b")
}

# arrivals RTF SECONDS: run --realtime and print, for each state line as
# it reaches the reader, its sim time and the wall time since the start.
arrivals() {
	local start=$EPOCHREALTIME line
	phys-step --realtime -s "real_time_factor=$1" -t "$2" -r 4 -i sim_time \
	    "$WORLDS/falling_sphere.sdf" | while IFS= read -r line; do
		line=${line#'{"t":'}
		printf '%s %s\n' "${line%%,*}" "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
	done
}

@test "--realtime: no line arrives before its sim time divided by real_time_factor" {
	# A loaded machine can only make a run slower: the bounds are lower ones.
	arrivals 1 1 > "$TMP/rt1"
	[ "$(wc -l < "$TMP/rt1")" -eq 5 ]
	awk '$2 < $1 - 0.002 { print "t=" $1 " arrived at " $2 " s"; bad = 1 } END { exit bad }' "$TMP/rt1"
	awk 'END { exit !($1 == 1 && $2 >= 0.95) }' "$TMP/rt1"
	# half speed: 0.5 s of sim time take at least 1 s
	arrivals 0.5 0.5 > "$TMP/rt05"
	awk '$2 < 2 * $1 - 0.002 { print "t=" $1 " arrived at " $2 " s"; bad = 1 } END { exit bad }' "$TMP/rt05"
	awk 'END { exit !($1 == 0.5 && $2 >= 0.95) }' "$TMP/rt05"
}

# A 1 kg link whose centre of mass is 0.2 m off its origin along x.
offset_com_world() {
	cat > "$1" <<-'END'
	<?xml version="1.0"?>
	<sdf version="1.7">
	  <world name="spin">
	    <gravity>0 0 -9.81</gravity>
	    <model name="m">
	      <pose>0 0 5 0 0 0</pose>
	      <link name="link">
	        <inertial>
	          <pose>0.2 0 0 0 0 0</pose>
	          <mass>1</mass>
	          <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
	        </inertial>
	      </link>
	    </model>
	  </world>
	</sdf>
	END
}

@test "centre-of-mass motion: v_com = v + omega x r, and it falls at g while the origin circles it" {
	offset_com_world "$TMP/w.sdf"
	# spin at 2 rad/s about the vertical through the centre of mass:
	# the origin, 0.2 m from it, moves at omega x (-r) = (0, -0.4, 0)
	cat > "$TMP/ctl" <<-'END'
	{"t":0,"name":"m::link/angular_vel","value":{"x":0,"y":0,"z":2}}
	{"t":0,"name":"m::link/linear_vel","value":{"x":0,"y":-0.4,"z":0}}
	END
	phys-step -t 1 -e 50 -c "$TMP/ctl" -i 'm::link/*' "$TMP/w.sdf" > "$TMP/out"
	jq -r '.items as $i | ($i["m::link/pose"]) as $p | ($i["m::link/inertial_pose"]) as $c |
	    ($i["m::link/linear_vel"]) as $v | ($i["m::link/angular_vel"]) as $w |
	    ($i["m::link/inertial_linear_vel"]) as $vc |
	    ($c.x - $p.x) as $rx | ($c.y - $p.y) as $ry | ($c.z - $p.z) as $rz |
	    [$vc.x - ($v.x + $w.y * $rz - $w.z * $ry),
	     $vc.y - ($v.y + $w.z * $rx - $w.x * $rz),
	     $vc.z - ($v.z + $w.x * $ry - $w.y * $rx),
	     $i["m::link/inertial_angular_vel"].z - $w.z] | map(fabs) | max' "$TMP/out" |
	    while read -r d; do near "$d" 0 1e-12; done
	# the centre of mass stands still sideways and falls freely ...
	jq -r 'select(.t > 0) | .items["m::link/inertial_linear_vel"] | [.x, .y] | .[]' "$TMP/out" |
	    while read -r v; do near "$v" 0 1e-9; done
	jq -r 'select(.t > 0) | .items["m::link/inertial_linear_accel"] | .x, .y, .z' "$TMP/out" |
	    paste - - - | while read -r x y z; do near "$x" 0 1e-9; near "$y" 0 1e-9; near "$z" -9.81 1e-9; done
	# ... and does not turn: no angular acceleration
	jq -r 'select(.t > 0) | .items["m::link/inertial_angular_accel"] | .x, .y, .z' "$TMP/out" |
	    while read -r a; do near "$a" 0 1e-9; done
	# while the origin circles it: centripetal omega^2 r = 0.8 m/s^2 sideways
	jq -r 'select(.t > 0) | .items["m::link/linear_accel"] | sqrt(.x * .x + .y * .y)' "$TMP/out" |
	    while read -r a; do rel "$a" 0.8 0.002; done
}

@test "a pendulum's joint frame stays at the pivot and turns with the bob" {
	phys-step -t 1.5 -e 50 -i 'pendulum::pivot/pose' -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$TMP/out"
	# the pivot is 0.5 m above the bob's centre, at (0, 0, 2) in the world
	jq -r '.items["pendulum::pivot/pose"] | .x, .y, .z - 2' "$TMP/out" |
	    while read -r d; do near "$d" 0 1e-4; done
	# its frame is the bob's turned by nothing: same roll, which swings
	jq -r '[.items["pendulum::pivot/pose"].roll, .items["pendulum::bob/pose"].roll] | @tsv' "$TMP/out" |
	    while read -r a b; do near "$a" "$b" 1e-12; done
	[ "$(jq -r '.items["pendulum::pivot/pose"].roll' "$TMP/out" | sort -g | head -1 | cut -c1)" = - ]
}

@test "the number writer gives the text of the first of %.15g, %.16g, %.17g that reads back, on over a million doubles" {
	# tests/data/fmtcheck.c: random bits, every decade the exact integer
	# path takes, decimals of 15 to 17 digits and their neighbours, powers
	# of two and ten; against printf and strtod.
	san=
	if nm "$PHYS_BIN/libphys.a" 2>/dev/null | grep -q __asan_; then
		san="-fsanitize=address,undefined"
	fi
	n=400000
	[ -z "$san" ] || n=50000
	cc -O2 -std=c11 -D_GNU_SOURCE $san $(printf -- '-I%s ' "$BATS_TEST_DIRNAME"/../lib/*/) -o "$TMP/fmtcheck" \
	    "$BATS_TEST_DIRNAME/data/fmtcheck.c" "$PHYS_BIN/libphys.a" \
	    $(pkg-config --libs libxml-2.0 jansson ode assimp gdal) -lm
	run "$TMP/fmtcheck" "$n"
	assert_success
	[ "$output" -ge $((3 * n)) ]
}
