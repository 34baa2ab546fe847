#!/usr/bin/env bats
# The MuJoCo engine: its integrators, its model made again for a new
# joint axis, joints and couplings as MuJoCo equalities, contact friction
# and softness from the surfaces, meshes as convex hulls, and what it
# refuses. What every engine does (the closed-form cases, a kinematic
# loop, switching, its parameters reaching it) is checked under it in
# tests/engine-conformance.bats.

load helper

CF="$WORLDS/closed_forms.sdf"

# mujoco_world PROFILE_EXTRA MODELS: an SDF 1.7 world of g = 9.81 with a ground
# plane and a MuJoCo profile (and an ODE one), h = 1 ms.
mujoco_world() {
	cat <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="mujoco" type="mujoco"><max_step_size>0.001</max_step_size>$1</physics>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry>$3</collision></link></model>
$2
</world></sdf>
SDF
}

# free_body NAME X Z MASS I GEOMETRY [SURFACE]: a free link.
free_body() {
	echo "<model name=\"$1\"><pose>$2 0 $3 0 0 0</pose><link name=\"link\">
<inertial><mass>$4</mass><inertia><ixx>$5</ixx><iyy>$5</iyy><izz>$5</izz></inertia></inertial>
<collision name=\"c\"><geometry>$6</geometry>${7:+<surface>$7</surface>}</collision></link></model>"
}

@test "MuJoCo's integrators: Euler's free fall z0 - g h^2 n (n + 1) / 2 at 1 and 2 ms, RK4's exact; a bad value refused at its line" {
	# Euler (semi-implicit) falls g h^2 n (n + 1) / 2; RK4 is exact for a
	# constant force: g t^2 / 2
	phys-step -p mujoco -t 1 -e 1000 -i 'fall::link/pose' "$CF" 2>/dev/null | tail -1 > "$TMP/e"
	near "$(jq '.items["fall::link/pose"].z' "$TMP/e")" "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
	phys-step -p mujoco -t 1 -e 1000 -s mujoco.integrator=RK4 -i 'fall::link/pose' "$CF" 2>/dev/null | tail -1 > "$TMP/r"
	near "$(jq '.items["fall::link/pose"].z' "$TMP/r")" "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 / 2 }')" 1e-9
	# a step of 2 ms: 500 of them
	phys-step -p mujoco -t 1 -e 500 -s max_step_size=0.002 -i 'fall::link/pose' "$CF" 2>/dev/null | tail -1 > "$TMP/h"
	near "$(jq '.items["fall::link/pose"].z' "$TMP/h")" "$(awk 'BEGIN { printf "%.15f", 30 - 9.81 * 4e-6 * 500 * 501 / 2 }')" 1e-9
	mujoco_world '<mujoco><cone>circular</cone></mujoco>' "" > "$TMP/w.sdf"
	run phys-step -n 1 "$TMP/w.sdf"
	assert_failure 1
	assert_output --partial "w.sdf:3: mujoco.cone: \"circular\" is not one of pyramidal, elliptic"
}

@test "a new joint axis during a run makes MuJoCo's model again where the links are: the four-bar goes on, a pendulum turned onto a new axis stays as under ODE" {
	phys-step -p mujoco -t 2 -r 100 -i 'fourbar::*/position' "$WORLDS/fourbar.sdf" > "$TMP/a" 2>/dev/null
	# the same axes, written otherwise: each makes the model again
	printf '%s\n' '{"t":1,"name":"fourbar::knee/axis.xyz","value":{"x":0,"y":2,"z":0}}' \
	    '{"t":1.5,"name":"fourbar::loop/axis.xyz","value":{"x":0,"y":3,"z":0}}' > "$TMP/c"
	phys-step -p mujoco -t 2 -r 100 -c "$TMP/c" -i 'fourbar::*/position' "$WORLDS/fourbar.sdf" > "$TMP/b" 2>/dev/null
	awk '{ exit !($1 < 3e-4) }' <(closure "$TMP/b")
	paste <(jq -r '.items | [.["fourbar::crank_pivot/position"][0], .["fourbar::loop/position"][0]] | @tsv' "$TMP/a") \
	    <(jq -r '.items | [.["fourbar::crank_pivot/position"][0], .["fourbar::loop/position"][0]] | @tsv' "$TMP/b") |
	    awk '{ for (i = 1; i <= 2; i++) { d = $i - $(i + 2); if (d < 0) d = -d; if (d > m) m = d } }
		END { if (m > 1e-3) { print "off by " m; exit 1 } }'
	# turned about y at t = 1, the pendulum hangs where it was, its angle
	# carried on from the loaded configuration
	echo '{"t":1,"name":"pendulum::pivot/axis.xyz","value":{"x":0,"y":1,"z":0}}' > "$TMP/c"
	for p in ode mujoco; do
		phys-step -p $p -t 1.5 -r 10 -c "$TMP/c" -i 'pendulum::pivot/position' -i 'pendulum::bob/pose' "$CF" 2>/dev/null > "$TMP/$p"
	done
	near "$(at "$TMP/mujoco" 1.5 pendulum::bob/pose roll)" "$(at "$TMP/ode" 1.5 pendulum::bob/pose roll)" 1e-6
	near "$(at "$TMP/mujoco" 1.5 pendulum::pivot/position 0)" "$(at "$TMP/ode" 1.5 pendulum::pivot/position 0)" 1e-6
	near "$(at "$TMP/mujoco" 1.5 pendulum::bob/pose roll)" "$(at "$TMP/mujoco" 1 pendulum::bob/pose roll)" 1e-9
}

@test "universal and revolute2 joints turn as under ODE (first axis with the child), whichever link the tree holds first" {
	local type dir
	for type in universal revolute2; do
		for dir in "A B" "B A"; do
			double_pendulum mujoco $type $dir > "$TMP/w.sdf"
			for p in ode mujoco; do
				phys-step -p $p -t 0.3 -r 10 -i 'm::*/position' "$TMP/w.sdf" 2>/dev/null | tail -1 |
				    jq -r '.items | [.["m::top/position"][0], .["m::knee/position"][]] | @tsv' > "$TMP/$p"
			done
			echo "$type, parent and child $dir: ode $(cat "$TMP/ode"), mujoco $(cat "$TMP/mujoco")"
			paste "$TMP/ode" "$TMP/mujoco" | awk '{ for (i = 1; i <= 3; i++) { d = $i - $(i + 3)
			    if (d < 0) d = -d; if (d > 0.005) bad = 1 } } END { exit bad }'
		done
	done
}

# adds the MuJoCo profile to a world of tests/sdf-frames.bats's kind
with_mujoco() {
	sed 's|<world name="w">|<world name="w"><physics type="mujoco"><max_step_size>0.001</max_step_size></physics>|'
}

@test "screw, gearbox and mimic: MuJoCo's joint equalities hold their couplings, with the closed-form motions" {
	# a 1 kg nut, izz 0.01, on a screw of 0.1 m a radian: it falls at g / 2
	with_mujoco > "$TMP/s.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.8</gravity>
<model name="m"><link name="nut"><pose>0 0 5 0 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="s" type="screw"><parent>world</parent><child>nut</child>
<thread_pitch>-10</thread_pitch><axis><xyz>0 0 1</xyz></axis></joint></model>
</world></sdf>
SDF
	phys-step -t 4 -r 1 -i 'm::nut/pose' -i 'm::s/position' "$TMP/s.sdf" > "$TMP/o"
	[ "$(jq -r '.items["m::s/position"] | .[1] - 0.1 * .[0] | fabs < 1e-6' "$TMP/o" | sort -u)" = true ]
	near "$(tail -1 "$TMP/o" | jq '.items["m::nut/pose"].z')" "$(awk 'BEGIN { printf "%.12f", 5 - 4.9 * 1e-6 * 4000 * 4001 / 2 }')" 1e-5
	# a gearbox of ratio 2 about the base: w2 = -2 w1, and the spring of
	# 3 N m/rad on the first gear swings 0.1 + 4 * 0.05 kg m^2
	with_mujoco < "$BATS_TEST_DIRNAME/data/gearbox.sdf" > "$TMP/g.sdf"
	phys-step -t 3 -r 100 -i 'm::h*/velocity' -i 'm::h1/position' "$TMP/g.sdf" > "$TMP/o"
	jq -r '.items | (.["m::h2/velocity"][0] + 2 * .["m::h1/velocity"][0]) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-5) { print "gear slip " m; exit 1 } }'
	jq -r '[.t, .items["m::h1/position"][0]] | @tsv' "$TMP/o" | awk '
	    { e = 1 - cos(sqrt(10) * $1); d = $2 - e; if (d < 0) d = -d; if (d > m) m = d }
	    END { if (m > 0.005) { print "theta1 off by " m; exit 1 } }'
	# a slider mimics a hinge at half its angle, offset by 0.1 m
	with_mujoco < "$BATS_TEST_DIRNAME/data/mimic_slide.sdf" > "$TMP/m.sdf"
	phys-step -t 3 -r 100 -i 'm::j*/position' "$TMP/m.sdf" > "$TMP/o"
	# the offset is reached from the loaded 0 within the first steps
	jq -r 'select(.t >= 0.1) | .items | (.["m::jb/position"][0] - 0.5 * (.["m::ja/position"][0] - 0.2) - 0.1) | fabs' "$TMP/o" |
	    awk '$1 > m { m = $1 } END { if (m > 1e-6) { print "mimic off by " m; exit 1 } }'
}

@test "contact friction: mu along fdir1 and mu2 across it, torsional friction mu r N, MuJoCo's rolling friction" {
	local box='<box><size>0.2 0.2 0.2</size></box>' ball='<sphere><radius>0.1</radius></sphere>'
	local aniso='<friction><ode><mu>0.5</mu><mu2>0.25</mu2><fdir1>1 0 0</fdir1></ode></friction>'
	mujoco_world "" "$(free_body alongx 0 0.1 1 0.0066667 "$box" "$aniso")
$(free_body alongy 5 0.1 1 0.0066667 "$box" "$aniso")
$(free_body spin 10 0.1 1 0.004 "$ball" '<friction><torsional><coefficient>0.5</coefficient><patch_radius>0.02</patch_radius></torsional></friction>')
$(free_body roll 15 0.1 1 0.004 "$ball" '<friction><mujoco><rolling>0.005</rolling></mujoco></friction>')" > "$TMP/w.sdf"
	printf '%s\n' '{"t":0,"name":"alongx::link/linear_vel","value":{"x":2,"y":0,"z":0}}' \
	    '{"t":0,"name":"alongy::link/linear_vel","value":{"x":0,"y":2,"z":0}}' \
	    '{"t":0,"name":"spin::link/angular_vel","value":{"x":0,"y":0,"z":10}}' \
	    '{"t":0,"name":"roll::link/linear_vel","value":{"x":1,"y":0,"z":0}}' \
	    '{"t":0,"name":"roll::link/angular_vel","value":{"x":0,"y":10,"z":0}}' > "$TMP/c"
	phys-step -t 1 -r 10 -c "$TMP/c" -i '*::link/pose' -i '*::link/linear_vel' -i '*::link/angular_vel' "$TMP/w.sdf" > "$TMP/o"
	# v^2 / (2 mu g) along fdir1, v^2 / (2 mu2 g) across it
	rel "$(at "$TMP/o" 1 alongx::link/pose x)" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.05
	rel "$(at "$TMP/o" 1 alongy::link/pose y)" "$(awk 'BEGIN { print 4 / (2 * 0.25 * 9.81) }')" 0.05
	# the spin slows at (the smaller coefficient) mu r N / I
	rel "$(at "$TMP/o" 0.2 spin::link/angular_vel z)" "$(awk 'BEGIN { print 10 - 0.5 * 0.02 * 9.81 / 0.004 * 0.2 }')" 0.05
	# a rolling ball slows at mu_r N r / (I + m r^2)
	rel "$(awk -v v="$(at "$TMP/o" 0.8 roll::link/linear_vel x)" 'BEGIN { print (1 - v) / 0.8 }')" \
	    "$(awk 'BEGIN { print 0.005 * 9.81 * 0.1 / (0.004 + 0.01) }')" 0.1
}

@test "contact softness: solref and solimp give MuJoCo's sag (1 - d) g T^2, kp and kd its direct form; collide_without_contact and the bitmasks" {
	local ball='<sphere><radius>0.1</radius></sphere>' flat='<solimp><dmin>0.9</dmin><dmax>0.9</dmax></solimp>'
	# the surfaces' time constants 0.02 and 0.04 s mix to 0.03
	mujoco_world "" "$(free_body s 0 0.1 3 0.004 "$ball" "<contact><mujoco><solref><timeconst>0.04</timeconst></solref>$flat</mujoco></contact>")" \
	    "<surface><contact><mujoco><solref><timeconst>0.02</timeconst></solref>$flat</mujoco></contact></surface>" > "$TMP/w.sdf"
	phys-step -t 2 -r 1 -i 's::link/pose' "$TMP/w.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["s::link/pose"].z' "$TMP/o")" "$(awk 'BEGIN { printf "%.12f", 0.1 - 0.1 * 9.81 * 0.03^2 }')" 1e-7
	# kp 500 N/m (in series with the ground's 1e12) on 2 kg: (1 - d) g m / kp
	mujoco_world "" "$(free_body k 0 0.1 2 0.004 "$ball" "<contact><ode><kp>500</kp><kd>40</kd></ode><mujoco>$flat</mujoco></contact>")" \
	    "<surface><contact><mujoco>$flat</mujoco></contact></surface>" > "$TMP/k.sdf"
	phys-step -t 3 -r 1 -i 'k::link/pose' "$TMP/k.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["k::link/pose"].z' "$TMP/o")" "$(awk 'BEGIN { printf "%.12f", 0.1 - 0.1 * 9.81 * 2 / 500 }')" 1e-6
	# without contact: it falls through, its contact counted; with no
	# category and no collide bits: it falls through uncounted
	mujoco_world "" "$(free_body ghost 0 0.1 1 0.004 "$ball" '<contact><collide_without_contact>true</collide_without_contact></contact>')
$(free_body masked 5 0.1 1 0.004 "$ball" '<contact><collide_bitmask>0</collide_bitmask><category_bitmask>0</category_bitmask></contact>')" > "$TMP/c.sdf"
	phys-step -t 0.1 -r 100 -i '*::link/pose' -i contacts "$TMP/c.sdf" > "$TMP/o"
	[ "$(jq '.items.contacts' "$TMP/o" | sort -g | tail -1)" -eq 1 ]
	[ "$(at "$TMP/o" 0.1 ghost::link/pose z | awk '{ print ($1 < 0.06) }')" = 1 ]
	[ "$(at "$TMP/o" 0.1 masked::link/pose z | awk '{ print ($1 < 0.06) }')" = 1 ]
}

@test "meshes: a convex one collides, a non-convex one is said once with its line, a flat one refused; polylines exactly; a heightmap's slope" {
	local v='v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n'
	local f='f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n'
	printf "$v$f" > "$TMP/cube.obj"
	# an L-shaped prism: 3 of the 3.5 square units of its hull, 6/7
	printf 'v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n' > "$TMP/l.obj"
	printf 'v 0 0 1\nv 2 0 1\nv 2 1 1\nv 1 1 1\nv 1 2 1\nv 0 2 1\n' >> "$TMP/l.obj"
	printf 'f 1 4 2\nf 2 4 3\nf 1 6 4\nf 4 6 5\nf 7 8 10\nf 8 9 10\nf 7 10 12\nf 10 11 12\n' >> "$TMP/l.obj"
	awk 'BEGIN { for (i = 1; i <= 6; i++) { j = i % 6 + 1
		printf "f %d %d %d\nf %d %d %d\n", i, j, j + 6, i, j + 6, i + 6 } }' >> "$TMP/l.obj"
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n' > "$TMP/flat.obj"
	local mesh="<mesh><uri>$TMP/cube.obj</uri><scale>0.2 0.2 0.2</scale></mesh>"
	mujoco_world "" "$(free_body cube 0 0.5 1 0.0067 "$mesh")
$(free_body l1 5 1 1 0.0067 "<mesh><uri>$TMP/l.obj</uri><scale>0.2 0.2 0.2</scale></mesh>")
$(free_body l2 8 1 1 0.0067 "<mesh><uri>$TMP/l.obj</uri><scale>0.2 0.2 0.2</scale></mesh>")
<model name=\"wall\"><pose>12 0 0 0 0 0</pose><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>
$(free_body onl 12.5 1 1 0.0067 '<box><size>0.2 0.2 0.2</size></box>')
$(free_body notch 13.5 1 1 0.0067 '<box><size>0.2 0.2 0.2</size></box>')" |
	    sed 's|<pose>12.5 0 1|<pose>12.5 1.5 1|; s|<pose>13.5 0 1|<pose>13.5 1.5 1|' > "$TMP/w.sdf"
	phys-step -t 2 -r 1 -i '*::link/pose' "$TMP/w.sdf" > "$TMP/o" 2> "$TMP/err"
	cat "$TMP/err"
	# the cube rests on its face, sunk as a box would (under 1 mm)
	awk -v z="$(at "$TMP/o" 2 cube::link/pose z)" 'BEGIN { exit !(z < 1e-9 && z > -1e-3) }'
	# the L: named once, with the line of the first collision using it
	line=$(grep -n 'model name="l1"' "$TMP/w.sdf" | cut -d: -f1)
	[ "$(grep -c 'not convex' "$TMP/err")" -eq 1 ]
	grep -q "w.sdf:$((line + 2)): collision 'l1::link::c': its mesh is not convex (85.7% of its convex hull's volume): MuJoCo collides the hull" "$TMP/err"
	# the polyline is its concave self: a box over its notch falls to the
	# ground, one over its arm rests on top (a single point of contact
	# with each prism MuJoCo makes of it, so it may lean a little)
	near "$(at "$TMP/o" 2 onl::link/pose z)" 0.4 0.005
	near "$(at "$TMP/o" 2 notch::link/pose z)" 0.1 0.001
	# a flat mesh has no hull: refused at its line, or skipped
	mujoco_world "" "$(free_body f 0 1 1 0.0067 "<mesh><uri>$TMP/flat.obj</uri></mesh>")" > "$TMP/f.sdf"
	run phys-step -n 1 "$TMP/f.sdf"
	assert_failure 1
	assert_output --partial "f.sdf:9: collision 'f::link::c': its mesh is flat: MuJoCo collides a mesh's convex hull"
	run phys-step -n 1 --skip-unsupported "$TMP/f.sdf"
	assert_success
	assert_output --partial "skipping collision 'f::link::c'"
	# a heightmap rising to +y (its image's first row): a ball rolls to
	# -y, resting on the slope's height
	gray_png "$TMP/ramp.png" 33 'round(255 * (32 - j) / 32)'
	mujoco_world "" "<model name=\"t\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><heightmap><uri>$TMP/ramp.png</uri><size>8 8 2</size></heightmap></geometry></collision></link></model>
$(free_body ball 30 2 1 0.004 '<sphere><radius>0.1</radius></sphere>')" | sed 's|<pose>30 0 2|<pose>1 0 2|' > "$TMP/h.sdf"
	phys-step -t 1.5 -r 10 -i 'ball::link/pose' "$TMP/h.sdf" > "$TMP/o"
	y=$(at "$TMP/o" 1.5 ball::link/pose y)
	awk -v y="$y" 'BEGIN { exit !(y < -0.3) }'
	# on the plane z = 1 + y / 4, the ball's centre r / cos(atan(1/4)) above
	near "$(at "$TMP/o" 1.5 ball::link/pose z)" "$(awk -v y="$y" 'BEGIN { print 1 + y / 4 + 0.1 * sqrt(1 + 1 / 16) }')" 0.01
}

@test "joint damping is implicit: a light damped rotor slows as (1 + h c / I)^-n (explicitly, 1 - h c / I = -9 a step); armature lengthens a spring's period" {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="mujoco" type="mujoco"><max_step_size>0.001</max_step_size></physics>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size></physics>
<model name="r"><link name="link"><pose>0 0 1 0 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz></inertia></inertial></link>
<joint name="j" type="revolute"><parent>world</parent><child>link</child><axis><xyz>0 0 1</xyz><dynamics><damping>1</damping></dynamics></axis></joint></model>
<model name="s"><link name="link"><pose>3 0 1 0 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
<joint name="j" type="prismatic"><parent>world</parent><child>link</child><axis><xyz>1 0 0</xyz>
<dynamics><spring_reference>0.1</spring_reference><spring_stiffness>100</spring_stiffness></dynamics></axis>
<physics><mujoco><armature>1</armature></mujoco></physics></joint></model>
</world></sdf>
SDF
	echo '{"t":0,"name":"r::link/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$TMP/c"
	phys-step -t 3 -r 1000 -c "$TMP/c" -i 'r::j/velocity' -i 's::j/position' "$TMP/w.sdf" > "$TMP/o"
	# h c / I = 10
	rel "$(at "$TMP/o" 0.003 r::j/velocity 0)" "$(awk 'BEGIN { printf "%.17g", 1 / 11^3 }')" 1e-9
	# 1 kg and 1 kg of armature on 100 N/m
	rel "$(series "$TMP/o" s::j/position 0 | period 0.1)" "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(2 / 100) }')" 0.01
}

@test "kinematic links move at their velocity (and fall once dynamic), gravity switches off, velocity_decay takes its share each step; a divergence names the body" {
	mujoco_world "" "$(free_body k 0 1 1 0.004 '<box><size>0.2 0.2 0.2</size></box>')
$(free_body nog 3 1 2 0.004 '<sphere><radius>0.1</radius></sphere>')
$(free_body decay 6 1 2 0.004 '<sphere><radius>0.1</radius></sphere>')" |
	    sed 's|<model name="k"><pose>0 0 1 0 0 0</pose><link name="link">|&<kinematic>true</kinematic>|;
		s|<model name="nog"><pose>3 0 1 0 0 0</pose><link name="link">|&<gravity>false</gravity>|;
		s|<model name="decay"><pose>6 0 1 0 0 0</pose><link name="link">|&<gravity>false</gravity><velocity_decay><linear>0.01</linear></velocity_decay>|' > "$TMP/w.sdf"
	printf '%s\n' '{"t":0,"name":"k::link/linear_vel","value":{"x":1,"y":0,"z":0}}' \
	    '{"t":0,"name":"decay::link/linear_vel","value":{"x":1,"y":0,"z":0}}' \
	    '{"t":0.5,"name":"nog::link/gravity","value":true}' \
	    '{"t":0.5,"name":"k::link/kinematic","value":false}' > "$TMP/c"
	phys-step -t 1 -r 4 -c "$TMP/c" -i '*::link/pose' -i '*::link/linear_vel' "$TMP/w.sdf" > "$TMP/o"
	near "$(at "$TMP/o" 0.5 k::link/pose x)" 0.5 1e-9
	near "$(at "$TMP/o" 0.5 k::link/pose z)" 1 1e-12
	# made dynamic, it keeps its velocity and falls
	near "$(at "$TMP/o" 0.75 k::link/pose x)" 0.75 1e-9
	near "$(at "$TMP/o" 0.75 k::link/pose z)" "$(awk 'BEGIN { printf "%.12f", 1 - 9.81 * 1e-6 * 250 * 251 / 2 }')" 1e-9
	near "$(at "$TMP/o" 0.5 nog::link/pose z)" 1 1e-12
	near "$(at "$TMP/o" 0.75 nog::link/pose z)" "$(awk 'BEGIN { printf "%.12f", 1 - 9.81 * 1e-6 * 250 * 251 / 2 }')" 1e-9
	rel "$(at "$TMP/o" 1 decay::link/linear_vel x)" "$(awk 'BEGIN { printf "%.17g", 0.99^1000 }')" 1e-9
	# a stiff spring on a light slider, stepped explicitly
	cat > "$TMP/d.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><physics type="mujoco"><max_step_size>0.001</max_step_size></physics>
<model name="m"><link name="link"><pose>0 0 1 0 0 0</pose>
<inertial><mass>0.001</mass><inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz></inertia></inertial></link>
<joint name="j" type="prismatic"><parent>world</parent><child>link</child><axis><xyz>1 0 0</xyz>
<dynamics><spring_stiffness>1e9</spring_stiffness><spring_reference>0.1</spring_reference></dynamics></axis></joint></model>
</world></sdf>
SDF
	run phys-step -t 1 "$TMP/d.sdf"
	assert_failure 1
	assert_output --regexp "simulation diverged: body 'm::link' moves at [^ ]+ m/s and [^ ]+ rad/s at t=[^ ]+, faster than any body; likely cause: joint 'm::j' "
}

@test "a plank on twenty static cubes: more contacts than MuJoCo was given room for, none dropped" {
	local cubes="" i j
	for i in 0 1 2 3 4 5 6 7 8 9; do
		for j in 0 1; do
			cubes="$cubes<collision name=\"c$i$j\"><pose>$(awk -v i=$i -v j=$j 'BEGIN { print -0.9 + 0.2 * i, -0.15 + 0.3 * j }') 0.05 0 0 0</pose><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>"
		done
	done
	mujoco_world "" "<model name=\"bed\"><static>true</static><link name=\"link\">$cubes</link></model>
$(free_body plank 0 0.2 5 0.1 '<box><size>2 0.5 0.1</size></box>')" > "$TMP/w.sdf"
	phys-step -t 1 -r 2 -i 'plank::link/pose' -i contacts "$TMP/w.sdf" > "$TMP/o"
	# four corners on each cube: 80 contacts (room was made for 74)
	[ "$(jq 'select(.t == 1) | .items.contacts' "$TMP/o")" -eq 80 ]
	near "$(at "$TMP/o" 1 plank::link/pose z)" 0.15 0.001
	near "$(at "$TMP/o" 1 plank::link/pose roll)" 0 1e-4
}

@test "phys-sdf check names MuJoCo's block as phys's own and its misspellings; phys-param names its values MuJoCo's alone" {
	mujoco_world '<mujoco><itrations>5</itrations><cone>elliptic</cone></mujoco>' "" > "$TMP/w.sdf"
	run phys-sdf check "$TMP/w.sdf"
	assert_failure 1
	assert_line --partial '"line":3,"severity":"warning","message":"<mujoco> in <physics> is phys'\''s own block for its mujoco engine, not SDFormat: other readers ignore it"'
	assert_line --partial '"line":3,"severity":"error","message":"unknown element <itrations> in phys'\''s <mujoco>; did you mean <iterations>?"'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(phys-param list --doc | jq -r 'select(.name == "mujoco.cone" or .name == "surface.friction.ode.mu") |
	    "\(.ode) \(.bullet) \(.mujoco)"' | tr '\n' ' ')" = "other other native native native native " ]
}

@test "phys-preset add --engine mujoco carries the step, iterations and friction cone over, and back" {
	phys-preset add --engine mujoco --copy accurate mj ode.solver.friction_model=cone_model "$WORLDS/box_stack.sdf" > "$TMP/a.sdf" 2> "$TMP/err"
	grep -q "profile 'accurate': no mujoco counterpart, not carried over: ode.solver.type" "$TMP/err"
	[ "$(phys-param get -p mj max_step_size mujoco.iterations mujoco.cone "$TMP/a.sdf" | jq -r .value | tr '\n' ' ')" = \
	    "0.001 200 pyramidal " ]
	phys-preset add --engine mujoco --copy accurate mj2 "$TMP/a.sdf" 2>/dev/null |
	    phys-param set -p mj2 mujoco.cone=elliptic mujoco.iterations=7 - > "$TMP/b.sdf"
	phys-preset add --engine ode --copy mj2 back "$TMP/b.sdf" > "$TMP/c.sdf" 2> "$TMP/err"
	[ "$(phys-param get -p back ode.solver.iters ode.solver.friction_model "$TMP/c.sdf" | jq -r .value | tr '\n' ' ')" = \
	    "7 cone_model " ]
	[ ! -s "$TMP/err" ]
}

@test "Gazebo's worlds under a MuJoCo profile: its pendulums swing as under ODE, the friction pyramid's boxes slide as far in every direction on an elliptic cone" {
	need_reference
	local w
	for w in simple_pendulums pendulum_axes; do
		# its ODE profile typed as MuJoCo's (its step and gravity kept),
		# or a MuJoCo one where it has none
		if grep -q '<physics' "$REF/gazebo-worlds/$w.world"; then
			sed 's/type="ode"/type="mujoco"/' "$REF/gazebo-worlds/$w.world"
		else
			sed 's|<world name="\([^"]*\)">$|&<physics type="mujoco"/>|' "$REF/gazebo-worlds/$w.world"
		fi > "$TMP/$w.world"
		grep -q '<physics.*type="mujoco"' "$TMP/$w.world"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$REF/gazebo-worlds/$w.world" 2>/dev/null | tail -1 > "$TMP/ode"
		phys-step -t 1 -e 1000 -i '*::*/pose' "$TMP/$w.world" 2>/dev/null > "$TMP/mj"
		[ "$(head -1 "$TMP/mj" | jq -r .engine.solver)" = Newton ]
		tail -1 "$TMP/mj" > "$TMP/mj1"
		mv "$TMP/mj1" "$TMP/mj"
		# every link within 0.1 mm of where ODE puts it
		paste <(jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"' "$TMP/ode") \
		      <(jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"' "$TMP/mj") |
			awk '$1 != $5 { exit 2 } { d = ($2-$6)^2 + ($3-$7)^2 + ($4-$8)^2; if (d > 1e-8) { print "differ: " $0; bad = 1 } n++ }
			    END { if (n < 10) exit 3; exit bad }'
	done
	# 32 boxes sent out at 9 m/s in every direction on mu = 0.3: after
	# 2 s each is 9 + 18 - 0.3 g 2 m from the centre
	sed 's|<physics type="ode">|<physics name="mj" type="mujoco" default="true"><mujoco><cone>elliptic</cone></mujoco></physics><physics name="o" type="ode">|' \
	    "$REF/gazebo-worlds/friction_pyramid.world" > "$TMP/f.world"
	phys-step -t 2 -e 2000 -i 'boxes::*::link_1/pose' "$TMP/f.world" 2>/dev/null | tail -1 |
	    jq -r '.items[] | [.x, .y] | @tsv' | awk '{ r = sqrt($1^2 + $2^2); d = r - (27 - 0.3 * 9.81 * 2)
		if (d < 0) d = -d; if (d > m) m = d; n++ } END { if (n != 32 || m > 0.05) { print n, m; exit 1 } }'
}

@test "40 boxes stacked four high at the start, in contact before the first step, rest in their stacks under MuJoCo (its compiler's pass over the contacts at the start overflowed its stack: MuJoCo refused the world)" {
	local i
	{
		echo '<mujoco model="pile"><worldbody><geom type="plane" size="10 10 0.1"/>'
		for i in $(seq 0 39); do
			echo "<body name=\"b$i\" pos=\"$((i / 4)) 0 $((i % 4)).05\"><freejoint/><geom type=\"box\" size=\"0.05 0.05 0.05\"/></body>"
		done
		echo '</worldbody></mujoco>'
	} | sed 's/ \([0-3]\)\.05"/ 0.\105"/' > "$BATS_TEST_TMPDIR/pile.xml"
	grep -q 'pos="9 0 0.305"' "$BATS_TEST_TMPDIR/pile.xml"
	phys-step -q -p mujoco -t 0.5 -r 2 -i 'pile::b*/pose' "$BATS_TEST_TMPDIR/pile.xml" | tail -1 > "$BATS_TEST_TMPDIR/out"
	# each where it was stacked, 0.1 m a box, to the 3 mm MuJoCo's soft
	# contacts give under four of them, and none pushed aside
	[ "$(jq '[.items | to_entries[] | select(.key | test("::b[0-9]+/pose$"))] | length' "$BATS_TEST_TMPDIR/out")" = 40 ]
	[ "$(jq '[.items | to_entries[] | select(.key | test("::b[0-9]+/pose$")) |
	    (.key | capture("::b(?<i>[0-9]+)/").i | tonumber) as $i |
	    (.value.z - (0.05 + 0.1 * ($i % 4)) | fabs) < 3e-3 and (.value.x - ($i / 4 | floor) | fabs) < 1e-3] | all' "$BATS_TEST_TMPDIR/out")" = true ]
}
