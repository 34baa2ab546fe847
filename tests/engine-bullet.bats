#!/usr/bin/env bats
# The Bullet engine: what it refuses, the mimic and gearbox it holds by a
# force, and Gazebo's worlds with a <bullet> block. What every engine
# does (the closed-form cases, switching, its parameters reaching it,
# joints, geometry) is checked under it in tests/engine-conformance.bats.

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/closed_forms.sdf"

@test "Bullet refuses what it cannot run, naming the element and line" {
	sed -e 's|<joint name="slider" type="prismatic">|<joint name="slider" type="screw"><thread_pitch>10</thread_pitch>|' \
	    -e 's|</joint>\(.*\)$|</joint>\1|' "$W" > "$TMP/screw.sdf"
	line=$(grep -n 'type="screw"' "$TMP/screw.sdf" | cut -d: -f1)
	run phys-step -p bullet -n 1 "$TMP/screw.sdf"
	assert_failure 1
	assert_output --partial "screw.sdf:$line: joint 'spring::slider': the Bullet engine runs no screw joint"
	# the same world runs under ODE
	run phys-step -p ode -n 1 "$TMP/screw.sdf"
	assert_success
}

@test "Bullet holds a mimic by a force: a slide follows a hinge at half its angle while a spring swings the hinge, theta = 1 - cos(sqrt(3 / 0.35) t); two fingers on a swinging palm stay mirrored" {
	sed 's|<world name="w">|&<physics name="bullet" type="bullet"/>|' \
	    "$BATS_TEST_DIRNAME/data/mimic_slide.sdf" > "$TMP/m.sdf"
	phys-step -p bullet -t 3 -r 100 -i 'm::j*/position' "$TMP/m.sdf" > "$TMP/o"
	# follower = 0.5 (leader - 0.2) + 0.1
	jq -r '.items | (.["m::jb/position"][0] - 0.5 * (.["m::ja/position"][0] - 0.2) - 0.1) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-6) { print "mimic off by " m; exit 1 } }'
	# the slider's 1 kg at half the rate: 0.1 + 0.25 kg m^2 on 3 N m/rad
	jq -r '[.t, .items["m::ja/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 1 - cos(sqrt(3 / 0.35) * $1); d = $2 - e; if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.005) { print "theta off by " m; exit 1 } }'
	# a gripper: a palm swinging under gravity on a hinge, two fingers
	# hinged to it, the second mimicking the first mirrored while a
	# spring opens the first
	cat > "$TMP/g.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11"><world name="w"><physics name="bullet" type="bullet"/>
<model name="g">
<link name="palm"><pose>0 0.5 1 0 0 0</pose><inertial><mass>0.5</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<link name="f1"><pose>0.05 0.6 1 0 0 0</pose><inertial><pose>0 0.05 0 0 0 0</pose><mass>0.05</mass><inertia><ixx>1e-4</ixx><iyy>1e-5</iyy><izz>1e-4</izz></inertia></inertial></link>
<link name="f2"><pose>-0.05 0.6 1 0 0 0</pose><inertial><pose>0 0.05 0 0 0 0</pose><mass>0.05</mass><inertia><ixx>1e-4</ixx><iyy>1e-5</iyy><izz>1e-4</izz></inertia></inertial></link>
<joint name="swing" type="revolute"><pose relative_to="__model__">0 0 1 0 0 0</pose><parent>world</parent><child>palm</child><axis><xyz>1 0 0</xyz></axis></joint>
<joint name="q1" type="revolute"><parent>palm</parent><child>f1</child>
<axis><xyz>0 0 1</xyz><dynamics><spring_reference>-0.5</spring_reference><spring_stiffness>0.2</spring_stiffness></dynamics></axis></joint>
<joint name="q2" type="revolute"><parent>palm</parent><child>f2</child>
<axis><xyz>0 0 1</xyz><mimic joint="q1" axis="axis"><multiplier>-1</multiplier><offset>0</offset><reference>0</reference></mimic></axis></joint>
</model></world></sdf>
SDF
	phys-step -p bullet -t 2 -r 100 -i 'g::q*/position' -i 'g::swing/position' "$TMP/g.sdf" > "$TMP/o" 2> "$TMP/err"
	# the palm swings through a right angle and back, the fingers open
	jq -r '.items["g::swing/position"][0] | fabs' "$TMP/o" | awk '$1 > m { m = $1 } END { if (m < 1) { print "palm swung only " m; exit 1 } }'
	near "$(jq -s 'map(.items["g::q1/position"][0]) | min' "$TMP/o")" -1 0.1
	jq -r '.items | (.["g::q2/position"][0] + .["g::q1/position"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-3) { print "fingers apart by " m; exit 1 } }'
	! grep -q 'coupling (mimic)' "$TMP/err" || false
}

@test "Bullet and ODE run a massless link welded to a moving one as part of its body, each link's mass and inertia reported as its own; the rider cannot be made kinematic in a run" {
	for e in bullet ode; do
		sed "s|<world name=\"w\">|&<physics name=\"$e\" type=\"$e\"/>|" \
		    "$BATS_TEST_DIRNAME/data/massless_flange.sdf" > "$TMP/f.sdf"
		# each link's mass and inertia its own, the body's their sum
		phys-step -q -p "$e" -n 1 -i 'p::*/mass' -i 'p::*/inertia' "$TMP/f.sdf" | tail -1 > "$TMP/m"
		[ "$(jq -c '.items | [.["p::flange/mass"], .["p::flange/inertia"].iyy, .["p::arm/inertia"].iyy]' "$TMP/m")" = '[0,1,0.001]' ]
		# a massless tip between the flange and the bob rides too: each
		# weld down to the bob carries its 2 kg
		sed 's|<joint name="hang" type="fixed"><parent>flange</parent>|<link name="tip"><pose>0 0 -1.1 0 0 0</pose><inertial><mass>0</mass><inertia><ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial></link><joint name="t" type="fixed"><parent>flange</parent><child>tip</child></joint><joint name="hang" type="fixed"><parent>tip</parent>|' \
		    "$TMP/f.sdf" > "$TMP/tip.sdf"
		phys-step -q -p "$e" -s ode.solver.type=world -t 1 -r 2 -i 'p::*/force' "$TMP/tip.sdf" | tail -1 |
		    jq -e '.items | [.["p::seat/force"].z, .["p::t/force"].z, .["p::hang/force"].z] | (max - min) < 1e-6 and (.[0] - 19.6 | fabs) < 0.1'
		echo '{"t":0.5,"name":"p::flange/kinematic","value":true}' > "$TMP/c"
		run phys-step -p "$e" -t 1 -i sim_time -c "$TMP/c" "$TMP/f.sdf"
		assert_failure 1
		assert_output --partial "c:1: link 'p::flange': $(engine_name "$e") runs it, massless, as part of link 'p::arm' it is welded to"
	done
}

@test "Bullet holds a gearbox by a force through its gears' hinges: w2 = -2 w1, the first gear swinging with J1 + ratio^2 J2, theta1 = 1 - cos(sqrt(10) t); gears without hinges to the reference are refused" {
	sed 's|<world name="w">|&<physics name="bullet" type="bullet"/>|' \
	    "$BATS_TEST_DIRNAME/data/gearbox.sdf" > "$TMP/g.sdf"
	phys-step -p bullet -t 3 -r 100 -i 'm::h*/velocity' -i 'm::h1/position' "$TMP/g.sdf" > "$TMP/o"
	jq -r '.items | (.["m::h2/velocity"][0] + 2 * .["m::h1/velocity"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-3) { print "gear slip " m; exit 1 } }'
	jq -r '[.t, .items["m::h1/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 1 - cos(sqrt(10) * $1); d = $2 - e; if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.005) { print "theta1 off by " m; exit 1 } }'
	# the second gear on a ball joint: nothing to couple it through
	sed -i 's|<joint name="h2" type="revolute"><parent>base</parent><child>g2</child><axis><xyz>0 0 1</xyz></axis></joint>|<joint name="h2" type="ball"><parent>base</parent><child>g2</child></joint>|' "$TMP/g.sdf"
	run -1 --separate-stderr phys-step -p bullet -n 1 "$TMP/g.sdf"
	[[ "$stderr" == *"g.sdf:14: joint 'm::gear': the Bullet engine couples a gearbox's gears only through revolute joints that hinge them to its reference body"* ]]
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

# coulomb_plate VX WZ T: where a plate of 0.4 m x 0.4 m, 1 kg, on its four
# corners, each pressed by a quarter of its weight and each sliding with
# Coulomb's friction (mu 0.2, against its own slip), is after T s, sent
# at VX m/s along x spinning at WZ rad/s: "x y yaw", integrated by small
# steps. Its moment of inertia about z is m (a^2 + b^2) / 12.
coulomb_plate() {
	awk -v vx="$1" -v w="$2" -v T="$3" 'BEGIN {
		a = 0.2; I = 0.32 / 12; N = 9.81 / 4; dt = 1e-5; x = y = th = 0; vy = 0
		for (k = 0; k * dt < T; k++) {
			fx = fy = tz = 0
			for (c = 0; c < 4; c++) {
				lx = c % 2 ? a : -a; ly = c >= 2 ? a : -a
				rx = cos(th) * lx - sin(th) * ly; ry = sin(th) * lx + cos(th) * ly
				sx = vx - w * ry; sy = vy + w * rx; s = sqrt(sx * sx + sy * sy)
				if (s < 1e-12) continue
				gx = -0.2 * N * sx / s; gy = -0.2 * N * sy / s
				fx += gx; fy += gy; tz += rx * gy - ry * gx
			}
			nvx = vx + fx * dt; nvy = vy + fy * dt; nw = w + tz / I * dt
			# at rest: friction stops, it does not turn back
			if (nvx * vx + nvy * vy <= 0 && vx * vx + vy * vy < 1e-6) nvx = nvy = 0
			if (nw * w <= 0 && w * w < 1e-4) nw = 0
			vx = nvx; vy = nvy; w = nw
			x += vx * dt; y += vy * dt; th += w * dt
		}
		printf "%.9g %.9g %.9g\n", x, y, th }'
}

plate_case() {
	local ref got
	printf '{"t":0,"name":"plate::link/linear_vel","value":{"x":1,"y":0,"z":0}}\n{"t":0,"name":"plate::link/angular_vel","value":{"x":0,"y":0,"z":%s}}\n' "$1" > "$TMP/ctl"
	got=$(phys-step -p bullet -t 2 -r 1 -c "$TMP/ctl" -i plate::link/pose "$TMP/p.sdf" |
	    tail -1 | jq -r '.items[] | "\(.x) \(.y) \(.yaw)"')
	ref=$(coulomb_plate 1 "$1" 2)
	echo "spun at $1 rad/s: $got, Coulomb's $ref"
	rel "${got%% *}" "${ref%% *}" 0.01
	near "$(echo "$got" | cut -d' ' -f2)" "$(echo "$ref" | cut -d' ' -f2)" 0.002
	rel "${got##* }" "${ref##* }" 0.01
}
@test "Bullet takes Coulomb's friction at each sliding point: a plate sent sliding while it spins moves and turns as Coulomb's law, point by point, makes it" {
	cat > "$TMP/p.sdf" <<'EOF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry>
<surface><friction><ode><mu>0.2</mu></ode></friction></surface></collision></link></model>
<model name="plate"><pose>0 0 0.01 0 0 0</pose><link name="link">
<inertial><mass>1</mass><inertia><ixx>0.0133667</ixx><iyy>0.0133667</iyy><izz>0.0266667</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.4 0.4 0.02</size></box></geometry>
<surface><friction><ode><mu>0.2</mu></ode></friction></surface></collision></link></model>
</world></sdf>
EOF
	# ODE and DART bound each of two fixed directions apart, MuJoCo's
	# cone is a pyramid: neither is Coulomb's law, and they differ
	plate_case 3
	plate_case 10
}

# terraces_png FILE: a heightmap image of 65 x 65 samples, 1/16 of its
# side apart: 80 higher towards +x (rising from x = -1/4 to 1/4 of its
# side), 160 higher towards +y (from y = -1/2 to 1/2 of its side). Row 0
# is its +y edge, column 0 its -x edge.
terraces_png() {
	gray_png "$1" 65 'min(max((i - 32) * 5 + 40, 0), 80) + min(max((32 - j) * 5 + 80, 0), 160)'
}

@test "Bullet's heightmap is the file's, not mirrored: balls rest on four terraces of a 4 m field at their heights, and one rolls down its ramp towards -y, 5/7 g sin a t^2 / 2 along it, as under ODE" {
	local e b want got
	terraces_png "$TMP/t.png"
	ball() {
		echo "<model name=\"$1\"><pose>$2 0 0 0</pose><link name=\"link\">
<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
<collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>"
	}
	# at 0.6 m for the largest sample, 240: the terraces at 0, 0.2 (+x),
	# 0.4 (+y) and 0.6 m, joined by planes; over x > 0.5 the ramp is
	# z = 0.4 + 0.2 y, tan a = 0.2, and a ball of 0.1 m touches it with
	# its centre 0.1 sqrt(1.04) above it
	cat > "$TMP/w.sdf" <<EOW
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size></physics>
<physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
<model name="t"><static>true</static><link name="link"><collision name="c">
<geometry><heightmap><uri>$TMP/t.png</uri><size>4 4 0.6</size></heightmap></geometry>
</collision></link></model>
$(ball a "1.2 1.5 0.72")
$(ball b "-1.2 1.5 0.52")
$(ball c "1.2 -1.5 0.32")
$(ball d "-1.2 -1.5 0.12")
$(ball r "1.2 0 0.501980390271856")
</world></sdf>
EOW
	# r after 0.5 s: s = 5/7 g sin a t^2 / 2 down the ramp, s cos a
	# towards -y and s sin a down
	want=$(awk 'BEGIN { c = 1 / sqrt(1.04); s = 5 / 14 * 9.81 * 0.25 * 0.2 * c
	    printf "%.9f %.9f", -s * c, 0.501980390 - s * 0.2 * c }')
	# flat where the balls rest and a plane where one rolls, the
	# surfaces are the samples' whatever the triangles; 2 mm is what
	# Bullet's contacts hold a ball into a surface, 1 mm, and more. A
	# map mirrored in y would put a 0.4 m higher or lower, and roll r
	# towards +y.
	for e in ode bullet; do
		run -0 phys-step -p $e -t 0.5 -i '*::link/pose' "$TMP/w.sdf"
		for b in "a 1.2 1.5 0.7" "b -1.2 1.5 0.5" "c 1.2 -1.5 0.3" \
		    "d -1.2 -1.5 0.1" "r 1.2 $want"; do
			set -- $b
			got=$(tail -1 <<< "$output" |
			    jq -r --arg m "$1::link/pose" \
			    '.items[$m] | "\(.x) \(.y) \(.z)"')
			set -- $got $2 $3 $4
			near "$1" "$4" 0.002 || fail "$e: ${b%% *} at $got"
			near "$2" "$5" 0.002 || fail "$e: ${b%% *} at $got"
			near "$3" "$6" 0.002 || fail "$e: ${b%% *} at $got"
		done
	done
}
