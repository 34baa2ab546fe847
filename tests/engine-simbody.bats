#!/usr/bin/env bats
# The Simbody engine: its compliant contact against closed forms (Hertz,
# the elastic foundation, Stribeck friction, restitution), kinematic
# loops (a four-bar linkage against the loop-closure equation, a
# parallelogram against its period, Gazebo's anchored and free loops),
# its compliant joint stops, joints, geometry, a loop carried over a
# switch, and what it refuses. What every engine does (the closed-form
# cases, switching, its parameters reaching it, joints) is checked under
# it in tests/engine-conformance.bats.

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/closed_forms.sdf"

# closed_forms.sdf's fall, pendulum and bounce cases alone, in $TMP/few.sdf.
few_world() {
	awk '/<model name="(slide|rest|limit|rotor|spring)">/ { skip = 1 }
	    !skip { print } skip && /<\/model>/ { skip = 0 }' "$W" > "$TMP/few.sdf"
}

# A ball of 0.1 m and a 0.1 m cube, 1 kg each, resting on a plane.
rest_world() {
	cat > "$TMP/rest.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <gravity>0 0 -9.81</gravity>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <model name="ball"><pose>0 0 0.1 0 0 0</pose><link name="link">
      <inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
    <model name="box"><pose>2 0 0.05 0 0 0</pose><link name="link">
      <inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>
  </world>
</sdf>
SDF
}

@test "Simbody stiffness: a ball rests sunk by Hertz's (3 m g / (4 E sqrt R))^(2/3), a cube by m g h / (k A); a surface's elastic modulus is its own" {
	rest_world
	local k
	for k in 1e8 1e7; do
		phys-step -t 1 -r 1 -s simbody.contact.stiffness=$k -i 'ball::link/pose' -i 'box::link/pose' \
		    "$TMP/rest.sdf" | tail -1 > "$TMP/o"
		# two surfaces of k: in series, E = k / 2^(3/2) for Hertz, k / 2 for the foundation of 1 m
		rel "$(jq '0.1 - .items["ball::link/pose"].z' "$TMP/o")" \
		    "$(awk -v k=$k 'BEGIN { E = k / 2^1.5; print (3 * 9.81 / (4 * E * sqrt(0.1)))^(2/3) }')" 0.005
		rel "$(jq '0.05 - .items["box::link/pose"].z' "$TMP/o")" \
		    "$(awk -v k=$k 'BEGIN { print 9.81 / (k / 2 * 0.01) }')" 0.005
	done
	# plane strain moduli E / (1 - nu^2) of 2e7 Pa, nu 0.3 and 0.5
	phys-step -t 1 -r 1 -s 'ground::link::c/surface.contact.elastic_modulus=2e7' \
	    -s 'ball::link::c/surface.contact.elastic_modulus=2e7' \
	    -s 'ball::link::c/surface.contact.poissons_ratio=0.5' -i 'ball::link/pose' "$TMP/rest.sdf" |
	    tail -1 > "$TMP/o"
	rel "$(jq '0.1 - .items["ball::link/pose"].z' "$TMP/o")" \
	    "$(awk 'BEGIN { a = (2e7 / 0.91)^(2/3); b = (2e7 / 0.75)^(2/3); E = (a * b / (a + b))^1.5
		print (3 * 9.81 / (4 * E * sqrt(0.1)))^(2/3) }')" 0.005
}

# stack N: N cubes of 0.2 m and 1 kg stacked on the ground, just touching.
stack() {
	local i
	{
		echo '<?xml version="1.0"?><sdf version="1.7"><world name="w"><gravity>0 0 -9.81</gravity>'
		echo '<physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>'
		echo '<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>'
		for ((i = 0; i < $1; i++)); do
			echo "<model name=\"box$i\"><pose>0 0 $(awk -v i=$i 'BEGIN { print 0.1 + 0.2 * i }') 0 0 0</pose><link name=\"link\">
<inertial><mass>1</mass><inertia><ixx>0.0066666666666666671</ixx><iyy>0.0066666666666666671</iyy><izz>0.0066666666666666671</izz></inertia></inertial>
<collision name=\"c\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>"
		done
		echo '</world></sdf>'
	} > "$TMP/stack.sdf"
}

@test "Simbody stack: ten cubes stand, each contact squeezed by the weight above it, n m g h / (k A), to 0.5%; none rings faster than the accuracy" {
	stack 10
	# settled within 0.05 s (the contacts ring at 200 Hz, damped)
	phys-step -t 0.1 -e 100 -i '*::link/pose' -i '*::link/linear_vel' "$TMP/stack.sdf" 2>/dev/null |
	    tail -1 > "$TMP/o"
	# each box sinks by the squeezes of the contacts below it: the one
	# under box i carries 10 - i boxes, k = 1e8 / 2 (two surfaces in
	# series) on A = 0.04 m^2, h = 1 m
	jq -r '.items | to_entries[] | select(.key | test("^box.*/pose$")) |
	    "\(.key | ltrimstr("box") | rtrimstr("::link/pose")) \(.value.x) \(.value.y) \(.value.z)"' "$TMP/o" |
	    sort -n | awk '{ i = $1; sq += (10 - i) * 9.81 / (5e7 * 0.04); sink = 0.1 + 0.2 * i - $4
		d = (sink - sq) / sq; if (d < 0) d = -d; if (d > m) m = d
		if ($2 * $2 + $3 * $3 > 1e-18) { print "box" i " moved sideways"; bad = 1 }
		n++ }
	    END { print "largest error", m; exit bad || n != 10 || m > 0.005 }'
	# Simbody's error norm is the largest over the speeds, not their
	# mean: no box rings at more than the accuracy, 1e-3 m/s
	jq -r '.items | to_entries[] | select(.key | test("^box.*/linear_vel$")) | .value.z' "$TMP/o" |
	    awk '{ if ($1 > m) m = $1; if (-$1 > m) m = -$1 } END { print "fastest", m; exit m > 1e-3 }'
}

@test "Simbody dissipation: a cube started 2 cm in the ground leaves it at 1/d; without d, plastic_coef_restitution and plastic_impact_velocity give (1 - e) / v" {
	rest_world
	echo '{"t":0,"name":"box::link/pose","value":{"x":2,"y":0,"z":0.03,"roll":0,"pitch":0,"yaw":0}}' > "$TMP/deep"
	local d
	for d in 2 4; do
		phys-step -t 0.3 -r 1000 -s simbody.contact.dissipation=$d -c "$TMP/deep" \
		    -i 'box::link/linear_vel' "$TMP/rest.sdf" > "$TMP/o.$d"
		# the force k x (1 + d xdot) vanishes as it separates at 1/d
		rel "$(jq '.items["box::link/linear_vel"].z' "$TMP/o.$d" | sort -g | tail -1)" \
		    "$(awk -v d=$d 'BEGIN { print 1 / d }')" 0.05
	done
	phys-step -t 0.3 -r 1000 -s simbody.contact.plastic_coef_restitution=0.6 \
	    -s simbody.contact.plastic_impact_velocity=0.1 -c "$TMP/deep" \
	    -i 'box::link/linear_vel' "$TMP/rest.sdf" > "$TMP/o.p"
	cmp <(jq -c .items "$TMP/o.4") <(jq -c .items "$TMP/o.p")
	# ... and it comes to rest at its foundation's depth
	phys-step -t 1.5 -r 1 -s simbody.contact.dissipation=2 -c "$TMP/deep" -i 'box::link/pose' \
	    "$TMP/rest.sdf" | tail -1 > "$TMP/o"
	rel "$(jq '0.05 - .items["box::link/pose"].z' "$TMP/o")" "$(awk 'BEGIN { print 9.81 / 5e5 }')" 0.02
}

@test "Simbody friction: the profile's coefficient, else the surfaces' mu (the smaller); viscous friction v0 exp(-mu_v g t)" {
	rest_world
	echo '{"t":0.1,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/push"
	phys-step -t 1.1 -r 10 -s simbody.contact.static_friction=0.3 -s simbody.contact.dynamic_friction=0.3 \
	    -c "$TMP/push" -i 'box::link/pose' "$TMP/rest.sdf" | tail -1 > "$TMP/o"
	rel "$(jq '.items["box::link/pose"].x - 2' "$TMP/o")" "$(awk 'BEGIN { print 4 / (2 * 0.3 * 9.81) }')" 0.002
	phys-step -t 1.2 -r 10 -s 'ground::link::c/surface.friction.ode.mu=0.2' \
	    -s 'box::link::c/surface.friction.ode.mu=0.5' -c "$TMP/push" -i 'box::link/pose' "$TMP/rest.sdf" |
	    tail -1 > "$TMP/o"
	rel "$(jq '.items["box::link/pose"].x - 2' "$TMP/o")" "$(awk 'BEGIN { print 4 / (2 * 0.2 * 9.81) }')" 0.002
	phys-step -t 0.3 -r 1000 -s simbody.contact.static_friction=0 -s simbody.contact.dynamic_friction=0 \
	    -s simbody.contact.viscous_friction=0.1 -c "$TMP/push" -i 'box::link/linear_vel' "$TMP/rest.sdf" |
	    tail -1 > "$TMP/o"
	rel "$(jq '.items["box::link/linear_vel"].x' "$TMP/o")" "$(awk 'BEGIN { print 2 * exp(-0.1 * 9.81 * 0.2) }')" 0.002
}

# A solid cylinder of radius 0.1 m lying on a plane, sent at 1 m/s: it
# slides until it rolls at v / (1 + I / (m r^2)) = 2/3 m/s. Simbody's
# elastic foundation dissipates as the cylinder's surface rolls through
# the contact (a rolling resistance): at 1 s/m it keeps 2/3 m/s to 2%
# over 2 s (its mesh's edges, 18 of them before, took a third of it);
# at SDF's default 100 s/m that resistance slows it all the while: at
# 2 s slower than at 1 s, both below the closed form.
@test "Simbody rolls a lying cylinder at v / (1 + I / (m r^2)) over its mesh's edges; the contact's dissipation is its rolling resistance" {
	cat > "$TMP/roll.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="cyl"><pose>0 0 0.1 1.5707963 0 0</pose><link name="l">
<inertial><mass>1</mass><inertia><ixx>0.0033333</ixx><iyy>0.0033333</iyy><izz>0.005</izz></inertia></inertial>
<collision name="c"><geometry><cylinder><radius>0.1</radius><length>0.2</length></cylinder></geometry></collision></link></model>
</world></sdf>
SDF
	echo '{"t":0,"name":"cyl::l/linear_vel","value":{"x":1,"y":0,"z":0}}' > "$TMP/go"
	phys-step -q -t 2 -r 2 -c "$TMP/go" -s simbody.contact.dissipation=1 \
	    -i 'cyl::l/linear_vel' "$TMP/roll.sdf" > "$TMP/out"
	for t in 1 1.5 2; do
		rel "$(at "$TMP/out" $t cyl::l/linear_vel x)" 0.6667 0.02
	done
	phys-step -q -t 2 -r 2 -c "$TMP/go" -i 'cyl::l/linear_vel' "$TMP/roll.sdf" > "$TMP/out"
	awk -v a="$(at "$TMP/out" 1 cyl::l/linear_vel x)" -v b="$(at "$TMP/out" 2 cyl::l/linear_vel x)" \
	    'BEGIN { exit !(b > 0 && b < 0.97 * a && a < 0.97 * 0.6667) }' ||
	    fail "at 100 s/m: $(at "$TMP/out" 1 cyl::l/linear_vel x) m/s at 1 s, $(at "$TMP/out" 2 cyl::l/linear_vel x) at 2 s"
}

@test "Simbody friction is the same in every direction: friction_pyramid.sdf's 16 boxes all slide straight out v^2 / (2 mu g)" {
	phys-preset add --engine simbody sb "$WORLDS/friction_pyramid.sdf" > "$TMP/fp.sdf"
	phys-step -p sb -t 1.2 -r 1 -i '*::link/pose' "$TMP/fp.sdf" 2>/dev/null | tail -1 |
	    jq -r '.items | to_entries[] | select(.key | test("box_")) | "\(.key) \(.value.x) \(.value.y)"' |
	    awk '{ n++; k = substr($1, index($1, "box_") + 4) + 0; a = k * atan2(0, -1) / 8
		r = sqrt($2 * $2 + $3 * $3); off = $3 * cos(a) - $2 * sin(a)
		if (r - 2 - 9 / (2 * 0.3 * 9.81) > 0.005 || 2 + 9 / (2 * 0.3 * 9.81) - r > 0.005 ||
		    off > 1e-6 || off < -1e-6) { print "box " k " at " r ", " off " off its line"; bad = 1 } }
		END { exit bad || n != 16 }'
}

@test "Simbody stiction: a cube on a slope of tan 0.45 creeps at half the transition speed, which override_stiction_transition_velocity sets" {
	# static friction 0.9 reaches 0.45 halfway through its smooth rise
	# (3 x^2 - 2 x^3) over the transition speed
	cat > "$TMP/slope.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <gravity>0 0 -9.81</gravity>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <model name="slope"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0.41036467732879783 0 0.9119215051751064</normal></plane></geometry></collision></link></model>
    <model name="box"><pose>0.020518233866439892 0 0.04559607525875532 0 0.4228539261329407 0</pose><link name="link">
      <inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>
  </world>
</sdf>
SDF
	speed() {
		phys-step -t 1 -r 1 "$@" -i 'box::link/linear_vel' "$TMP/slope.sdf" | tail -1 |
		    jq '.items["box::link/linear_vel"] | (.x * .x + .y * .y + .z * .z) | sqrt'
	}
	rel "$(speed)" 0.005 0.05
	rel "$(speed -s simbody.max_transient_velocity=0.02)" 0.01 0.05
	rel "$(speed -s simbody.contact.override_stiction_transition_velocity=0.002)" 0.001 0.05
}

@test "Simbody restitution: the larger coefficient of the two surfaces, above the smaller threshold and the capture velocity; accuracy reaches the integrator" {
	few_world
	top() {	# the highest point after the first impact, over e^2 m
		phys-step -p simbody -t 1.2 -r 500 "$@" -i 'bounce::link/pose' "$TMP/few.sdf" 2>/dev/null |
		    jq -r '[.t, .items["bounce::link/pose"].z] | @tsv' |
		    awk '$1 > 0.5 && $2 > m { m = $2 } END { print m - 0.1 }'
	}
	# the ground's coefficient instead of the ball's
	rel "$(top -s 'bounce::link::collision/surface.bounce.restitution_coefficient=0' \
	    -s 'ground::link::collision/surface.bounce.restitution_coefficient=0.5' \
	    -s 'ground::link::collision/surface.bounce.threshold=0')" 0.25 0.01
	# 4.4 m/s is slower than a threshold or capture velocity of 5 m/s:
	# no bounce, the profile's dissipation takes it all
	near "$(top -s 'bounce::link::collision/surface.bounce.threshold=5')" 0 1e-3
	near "$(top -s simbody.contact.override_impact_capture_velocity=5)" 0 1e-3
	# the integrator's accuracy decides how well it follows the impact
	rel "$(top -s simbody.accuracy=1e-4)" 0.25 0.01
	! rel "$(top -s simbody.accuracy=0.1)" 0.25 0.02 || false
}

# A crank-rocker (crank a = 0.5 m from A, coupler b = 1.2 m, rocker c =
# 1 m from D, A and D d = 1 m apart), released with the crank up: four
# revolute joints about -y, one of which closes the loop. Each link's
# frame is at its first pivot, along the link; its angle from +x towards
# +z is theta2 = 90 degrees + a's position for the crank and theta4 =
# 84.67 degrees + d's for the rocker.
fourbar_world() {
	cat > "$TMP/fourbar.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="fourbar">
    <gravity>0 0 -9.81</gravity>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <model name="crank_rocker">
      <link name="crank">
        <pose>0 0 2 0 -1.5707963267948966 0</pose>
        <inertial><pose>0.25 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.020833333333333332</iyy><izz>0.020833333333333332</izz></inertia></inertial>
      </link>
      <link name="coupler">
        <pose>0 0 2.5 0 -0.42581978074352445 0</pose>
        <inertial><pose>0.6 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.12</iyy><izz>0.12</izz></inertia></inertial>
      </link>
      <link name="rocker">
        <pose>1 0 2 0 -1.4778219388330651 0</pose>
        <inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.08333333333333333</iyy><izz>0.08333333333333333</izz></inertia></inertial>
      </link>
      <joint name="a" type="revolute"><parent>world</parent><child>crank</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="b" type="revolute"><parent>crank</parent><child>coupler</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="c" type="revolute"><pose>1 0 0 0 0 0</pose><parent>coupler</parent><child>rocker</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="d" type="revolute"><parent>world</parent><child>rocker</child><axis><xyz>0 -1 0</xyz></axis></joint>
    </model>
  </world>
</sdf>
SDF
}

@test "Simbody four-bar linkage: crank and rocker angles keep Freudenstein's loop-closure equation as the crank turns over, energy kept" {
	fourbar_world
	phys-step -t 3 -r 100 -i 'crank_rocker::*/position' -i 'crank_rocker/kinetic_energy' \
	    -i 'crank_rocker/potential_energy' "$TMP/fourbar.sdf" 2>/dev/null > "$TMP/o"
	# K1 cos t4 - K2 cos t2 + K3 = cos(t2 - t4), K1 = d/a, K2 = d/c,
	# K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c)
	jq -r '[.items["crank_rocker::a/position"][0], .items["crank_rocker::d/position"][0]] | @tsv' "$TMP/o" |
	    awk 'BEGIN { a = 0.5; b = 1.2; c = 1; d = 1; K3 = (a*a - b*b + c*c + d*d) / (2 * a * c)
		pi = atan2(0, -1) }
	    { t2 = pi / 2 + $1; t4 = 1.4778219388330651 + $2
		r = d / a * cos(t4) - d / c * cos(t2) + K3 - cos(t2 - t4); if (r < 0) r = -r
		if (r > m) m = r; if ($1 < lo) lo = $1
		if (NR > 1 && ($1 - p > 0.5 || p - $1 > 0.5)) { print "the crank jumped at " NR; exit 1 }
		p = $1 }
	    END { if (m > 1e-6) { print "off the loop by " m; exit 1 }
		# the crank went over the top and nearly round
		if (lo > -6) { print "the crank turned " lo; exit 1 } }'
	jq -r '.items["crank_rocker/kinetic_energy"] + .items["crank_rocker/potential_energy"]' "$TMP/o" |
	    awk 'NR == 1 { e = $1 } { d = $1 - e; if (d < 0) d = -d; if (d > m) m = d }
		END { if (m > 1e-6 * e) { print "energy moved by " m; exit 1 } }'
}

@test "Simbody keeps worlds/fourbar.sdf's loop closed, |BC| = b from the crank's and rocker's angles, to 1e-9 m" {
	phys-step -p simbody -t 2 -r 100 -i 'fourbar::*/position' "$WORLDS/fourbar.sdf" 2>/dev/null > "$TMP/o"
	closure "$TMP/o" > "$TMP/c"
	awk '{ if ($1 > 1e-9 || $2 < 1) { print "off by " $1 ", turned " $2; exit 1 } }' "$TMP/c"
}

@test "Simbody parallelogram linkage: the coupler translates; the period is 2 pi sqrt(5/3 / (2 g)) (1 + theta0^2 / 16)" {
	# cranks of 1 m and 1 kg (I = 1/3 about the pivot) 1.5 m apart, a
	# coupler of 1 kg: kinetic energy (2/3 + 1) w^2 / 2 against a
	# potential of -2 g cos(theta)
	cat > "$TMP/para.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="p">
    <gravity>0 0 -9.81</gravity>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <model name="parallelogram">
      <link name="crank">
        <pose>0 0 2 0 1.5207963267948966 0</pose>
        <inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.08333333333333333</iyy><izz>0.08333333333333333</izz></inertia></inertial>
      </link>
      <link name="coupler">
        <pose>0.04997916927067833 0 1.0012497396050337 0 0 0</pose>
        <inertial><pose>0.75 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.1875</iyy><izz>0.1875</izz></inertia></inertial>
      </link>
      <link name="rocker">
        <pose>1.5 0 2 0 1.5207963267948966 0</pose>
        <inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>1e-4</ixx><iyy>0.08333333333333333</iyy><izz>0.08333333333333333</izz></inertia></inertial>
      </link>
      <joint name="a" type="revolute"><parent>world</parent><child>crank</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="b" type="revolute"><parent>crank</parent><child>coupler</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="c" type="revolute"><pose>1 0 0 0 0 0</pose><parent>coupler</parent><child>rocker</child><axis><xyz>0 -1 0</xyz></axis></joint>
      <joint name="d" type="revolute"><parent>world</parent><child>rocker</child><axis><xyz>0 -1 0</xyz></axis></joint>
    </model>
  </world>
</sdf>
SDF
	phys-step -t 4 -r 200 -i 'parallelogram::*/position' -i 'parallelogram::coupler/pose' \
	    "$TMP/para.sdf" 2>/dev/null > "$TMP/o"
	rel "$(series "$TMP/o" parallelogram::a/position 0 | period -0.05)" \
	    "$(awk 'BEGIN { print 2 * atan2(0, -1) * sqrt(5 / 3 / (2 * 9.81)) * (1 + 0.05^2 / 16) }')" 1e-4
	jq -r '[.items["parallelogram::coupler/pose"].pitch, .items["parallelogram::a/position"][0] -
	    .items["parallelogram::d/position"][0]] | @tsv' "$TMP/o" |
	    awk '{ for (i = 1; i <= 2; i++) if ($i > 1e-9 || $i < -1e-9) { print "coupler turned: " $0; exit 1 } }'
}

@test "Simbody runs loops as Gazebo's tests have them: a loop anchored to the world at two joints, a free loop falling on the ground" {
	# (Gazebo's anchored_loop and free_loop worlds: revolute joints
	# closing a chain, default inertias, joint damping and friction,
	# limits, self-collision)
	cat > "$TMP/loops.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6">
  <world name="loops">
    <gravity>0 0 -9.8</gravity>
    <physics name="simbody" type="simbody"/>
    <model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <model name="anchored">
      <pose>0 5 0 0 0 0</pose>
      <link name="l1"><pose>0 0 0.2 0.6435 0 0</pose>
        <inertial><pose>0 0 0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.045</ixx><iyy>0.04</iyy><izz>0.005</izz></inertia></inertial>
        <collision name="c"><pose>0 0 0.25 0 0 0</pose><geometry><box><size>0.1 0.2 0.7</size></box></geometry></collision></link>
      <link name="l2"><pose>0.1 -0.3 0.6 1.5708 0 0</pose>
        <inertial><pose>0 0 0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.045</ixx><iyy>0.04</iyy><izz>0.005</izz></inertia></inertial>
        <collision name="c"><pose>0 0 0.25 0 0 0</pose><geometry><box><size>0.1 0.2 0.7</size></box></geometry></collision></link>
      <link name="l3"><pose>0 -0.8 0.6 2.4981 0 0</pose>
        <inertial><pose>0 0 0.25 0 0 0</pose><mass>1</mass><inertia><ixx>0.045</ixx><iyy>0.04</iyy><izz>0.005</izz></inertia></inertial>
        <collision name="c"><pose>0 0 0.25 0 0 0</pose><geometry><box><size>0.1 0.2 0.7</size></box></geometry></collision></link>
      <joint name="j1" type="revolute"><parent>world</parent><child>l1</child><axis><xyz>1 0 0</xyz></axis></joint>
      <joint name="j2" type="revolute"><parent>l1</parent><child>l2</child><axis><xyz>1 0 0</xyz></axis></joint>
      <joint name="j3" type="revolute"><parent>l2</parent><child>l3</child>
        <axis><xyz>1 0 0</xyz><dynamics><damping>5</damping><friction>0.1</friction></dynamics></axis></joint>
      <joint name="j4" type="revolute"><pose>0 0 0.5 0 0 0</pose><parent>world</parent><child>l3</child><axis><xyz>1 0 0</xyz></axis></joint>
    </model>
    <model name="free">
      <self_collide>1</self_collide>
      <pose>0 0 0.8 1.5708 0.7854 0</pose>
      <link name="l0"><pose>-0.4 0 0 0 0 0</pose><collision name="c"><geometry><box><size>0.2 1 0.1</size></box></geometry></collision></link>
      <link name="l1"><pose>0 0.4 0.1 0 0 -1.5708</pose><collision name="c"><geometry><box><size>0.2 1 0.1</size></box></geometry></collision></link>
      <link name="l2"><pose>0.4 0 0 0 0 -3.14159</pose><collision name="c"><geometry><box><size>0.2 1 0.1</size></box></geometry></collision></link>
      <link name="l3"><pose>0 -0.4 0.1 0 0 1.5708</pose><collision name="c"><geometry><box><size>0.2 1 0.1</size></box></geometry></collision></link>
      <joint name="j01" type="revolute"><parent>l0</parent><child>l1</child><pose>0 -0.4 0 0 0 0</pose>
        <axis><xyz>0 0 1</xyz><limit><upper>1.4</upper><lower>-1.4</lower></limit></axis></joint>
      <joint name="j12" type="revolute"><parent>l1</parent><child>l2</child><pose>0 -0.4 0 0 0 0</pose><axis><xyz>0 0 1</xyz></axis></joint>
      <joint name="j23" type="revolute"><parent>l2</parent><child>l3</child><pose>0 -0.4 0 0 0 0</pose><axis><xyz>0 0 1</xyz></axis></joint>
      <joint name="j30" type="revolute"><parent>l3</parent><child>l0</child><pose>0 -0.4 0 0 0 0</pose><axis><xyz>0 0 1</xyz></axis></joint>
    </model>
  </world>
</sdf>
SDF
	run phys-step -t 1 -r 100 -i '*::j*/position' -i 'free::*/pose' "$TMP/loops.sdf"
	assert_success
	# the two loops' closing joints, said in one line
	[ "$(grep -c 'closes a kinematic loop.*(and 1 more joint)$' <<<"$output")" -eq 1 ]
	grep '^{' <<<"$output" > "$TMP/o"
	# a planar loop's turns add up to nothing: the anchored one's chain
	# turns as its second anchor does, the free one's four cancel
	jq -r '.items | [.["anchored::j1/position"][0] + .["anchored::j2/position"][0] +
	    .["anchored::j3/position"][0] - .["anchored::j4/position"][0],
	    .["free::j01/position"][0] + .["free::j12/position"][0] + .["free::j23/position"][0] +
	    .["free::j30/position"][0]] | @tsv' "$TMP/o" |
	    awk '{ for (i = 1; i <= 2; i++) if ($i > 1e-6 || $i < -1e-6) { print "loop open: " $0; exit 1 } }'
	# the free loop fell (it collapses as it lands) and lies on the
	# ground: no link below its half thickness
	[ "$(tail -1 "$TMP/o" | jq '[.items | to_entries[] | select(.key | test("^free::l./pose$")) | .value.z] | min < 0.4 and min > 0.04')" = true ]
	near "$(tail -1 "$TMP/o" | jq '.items["free::j01/position"][0] | fabs')" 1.2 0.2
}

@test "Simbody's joint stops are compliant (joints.sdf): the stop holds the arm past -0.3 rad by its moment m g L cos(theta) over the stiffness" {
	sed 's/<physics type="ode">/<physics type="simbody">/' "$WORLDS/joints.sdf" > "$TMP/j.sdf"
	# a softer stop than SDF's default (1e8 N m/rad, dissipation 1, which
	# keeps a resting link bouncing by micrometres): it settles
	phys-step -t 4.2 -r 500 -s 'hinge::j/axis.limit.stiffness=1e5' -s 'hinge::j/axis.limit.dissipation=10' \
	    -i 'hinge::j/position' "$TMP/j.sdf" 2>/dev/null | tail -1 > "$TMP/o"
	[ "$(jq -r .t "$TMP/o")" = 4.2 ]
	near "$(at "$TMP/o" 4.2 hinge::j/position 0)" "$(awk 'BEGIN { print -0.3 - 9.81 * cos(0.3) / 1e5 }')" 1e-6
}

@test "Simbody universal joint: the first axis turns with the child, the second with the parent, as under ODE and MuJoCo (pose = Ry(q2) Rx(q1), a revolute2 Ry(-q2) Rx(q1)); a switch from ODE carries the angles on" {
	cat > "$TMP/u.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <gravity>0 0 0</gravity>
  <physics name="ode" type="ode"><ode><solver><type>world</type></solver></ode></physics>
  <physics name="simbody" type="simbody"/>
  <model name="m">
    <link name="a"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial></link>
    <joint name="u" type="universal"><parent>world</parent><child>a</child>
      <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  </model>
</world>
</sdf>
SDF
	echo '{"t":0,"name":"m::a/angular_vel","value":{"x":1,"y":1,"z":0}}' > "$TMP/c"
	sed 's/type="universal"/type="revolute2"/' "$TMP/u.sdf" > "$TMP/r2.sdf"
	# x fixed in the child, y in the world: no yaw, roll and pitch the
	# two angles (which the link's swing makes large: 1.11 and 0.88 rad);
	# a revolute2 joint's second angle the other way round, as ODE's
	for t in u:1 r2:-1; do
		phys-step -p simbody -t 1 -r 100 -c "$TMP/c" -i 'm::a/pose' -i 'm::u/*' "$TMP/${t%:*}.sdf" > "$TMP/o"
		tail -1 "$TMP/o" | jq -r --argjson s "${t#*:}" '.items | [.["m::a/pose"].yaw,
		    .["m::a/pose"].roll - .["m::u/position"][0], .["m::a/pose"].pitch - $s * .["m::u/position"][1],
		    .["m::u/position"][0] - 1, $s * .["m::u/position"][1] - 0.8] | @tsv' |
		    awk '{ for (i = 1; i <= 3; i++) if ($i > 1e-9 || $i < -1e-9) { print "not Ry Rx: " $0; exit 1 }
			if ($4 < 0.05 || $5 < 0.05) { print "barely swung: " $0; exit 1 } }'
	done
	# the rate is the angle's: a revolute2's second one falls as its angle does
	series "$TMP/o" m::u/position 1 | awk 'NR > 1 { r = ($2 - p) / ($1 - t) } { p = $2; t = $1 } END { print r }' > "$TMP/rate"
	near "$(cat "$TMP/rate")" "$(at "$TMP/o" 1 m::u/velocity 1)" 0.01
	# ODE for half the time, then Simbody: the angles and rates go on
	printf '%s\n' '{"t":0,"name":"m::a/angular_vel","value":{"x":1,"y":1,"z":0}}' \
	    '{"t":0.5,"preset":"simbody"}' > "$TMP/c"
	phys-step -p ode -t 0.51 -n 510 -c "$TMP/c" -i 'm::u/*' "$TMP/u.sdf" > "$TMP/s"
	for k in 0 1; do
		for f in position velocity; do
			a=$(jq -r --argjson k $k "select(.t == 0.499) | .items[\"m::u/$f\"][\$k]" "$TMP/s")
			b=$(jq -r --argjson k $k "select(.t == 0.501) | .items[\"m::u/$f\"][\$k]" "$TMP/s")
			c=$(jq -r --argjson k $k "select(.t == 0.5) | .items[\"m::u/$f\"][\$k]" "$TMP/s")
			# continuous: the middle sample halfway between its neighbours
			near "$c" "$(awk -v a="$a" -v b="$b" 'BEGIN { print (a + b) / 2 }')" 1e-5
		done
	done
}

@test "Simbody joints: a screw (turn and travel), a continuous joint past 2 pi, mimic, kinematic links, link gravity and velocity decay" {
	cat > "$TMP/k.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.11">
<world name="w">
  <gravity>0 0 -9.81</gravity>
  <physics name="simbody" type="simbody"/>
  <model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
  <model name="nut">
    <link name="link"><pose>0 0 5 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
    <joint name="thread" type="screw"><parent>world</parent><child>link</child>
      <screw_thread_pitch>0.6283185307179586</screw_thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
  <model name="wheel">
    <link name="link"><pose>3 0 5 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.5</ixx><iyy>0.5</iyy><izz>0.5</izz></inertia></inertial></link>
    <joint name="spin" type="continuous"><parent>world</parent><child>link</child><axis><xyz>1 0 0</xyz></axis></joint>
  </model>
  <model name="m">
    <link name="a"><pose>6 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="b"><pose>8 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <joint name="ja" type="revolute"><parent>world</parent><child>a</child>
      <axis><xyz>0 0 1</xyz><dynamics><spring_reference>1</spring_reference><spring_stiffness>3</spring_stiffness></dynamics></axis></joint>
    <joint name="jb" type="prismatic"><parent>world</parent><child>b</child>
      <axis><xyz>1 0 0</xyz>
        <mimic joint="ja" axis="axis"><multiplier>0.5</multiplier><offset>0</offset><reference>0</reference></mimic>
      </axis></joint>
  </model>
  <model name="decay"><pose>0 3 5 0 0 0</pose><link name="link"><gravity>false</gravity>
    <velocity_decay><linear>0.01</linear><angular>0.02</angular></velocity_decay>
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial></link></model>
  <model name="kin"><pose>0 6 0.5 0 0 0</pose><link name="link"><kinematic>true</kinematic>
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>
</world>
</sdf>
SDF
	printf '%s\n' '{"t":0,"name":"wheel::link/angular_vel","value":{"x":10,"y":0,"z":0}}' \
	    '{"t":0,"name":"decay::link/linear_vel","value":{"x":1,"y":0,"z":0}}' \
	    '{"t":0,"name":"decay::link/angular_vel","value":{"x":0,"y":0,"z":1}}' \
	    '{"t":0,"name":"kin::link/linear_vel","value":{"x":0.5,"y":0,"z":0}}' > "$TMP/c"
	phys-step -t 1 -r 10 -c "$TMP/c" -i '*::link/pose' -i '*::link/linear_vel' -i '*::link/angular_vel' \
	    -i '*::*/position' "$TMP/k.sdf" > "$TMP/o"
	# a lead of 0.1 m/rad (0.2 pi m a turn, right-handed): the nut falls
	# at g L^2 / (L^2 + I / m) and turns by the travel over the lead
	near "$(at "$TMP/o" 1 nut::link/pose z)" "$(awk 'BEGIN { print 5 - 9.81 * 0.01 / 0.02 / 2 }')" 1e-9
	near "$(at "$TMP/o" 1 nut::thread/position 0)" "$(awk 'BEGIN { print -9.81 * 0.01 / 0.02 / 2 / 0.1 }')" 1e-9
	near "$(at "$TMP/o" 1 nut::thread/position 1)" "$(awk 'BEGIN { print -9.81 * 0.01 / 0.02 / 2 }')" 1e-9
	near "$(at "$TMP/o" 1 wheel::spin/position 0)" 10 1e-9
	# the slider mimics half the hinge, which swings as 1 - cos(sqrt(3 / 0.35) t)
	jq -r '.items | [.["m::jb/position"][0] - 0.5 * .["m::ja/position"][0],
	    .["m::ja/position"][0]] | @tsv' "$TMP/o" | paste - <(jq .t "$TMP/o") |
	    awk '{ e = 1 - cos(sqrt(3 / 0.35) * $3); if ($1 > 1e-9 || $1 < -1e-9 || $2 - e > 1e-9 || e - $2 > 1e-9) {
		print "mimic off: " $0; exit 1 } }'
	# a tenth of a second: 100 steps losing 1 % and 2 % each
	rel "$(at "$TMP/o" 0.1 decay::link/linear_vel x)" "$(awk 'BEGIN { print 0.99^100 }')" 1e-5
	rel "$(at "$TMP/o" 0.1 decay::link/angular_vel z)" "$(awk 'BEGIN { print 0.98^100 }')" 1e-5
	near "$(at "$TMP/o" 1 decay::link/pose z)" 5 1e-12
	# the kinematic box keeps its velocity, through gravity and the ground
	near "$(at "$TMP/o" 1 kin::link/pose x)" 0.5 1e-9
	near "$(at "$TMP/o" 1 kin::link/pose z)" 0.5 1e-12
}

@test "Simbody geometry: a mesh cube, boxes on a polyline, a capsule and a cylinder rest sunk micrometres; an ellipsoid by Hertz's depth" {
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) -lm -o "$TMP/geomgen"
	mkdir "$TMP/gen" && "$TMP/geomgen" "$TMP/gen"
	local in='<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'
	cat > "$TMP/g.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="cube"><pose>0 0 0.7 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/gen/cube.stl</uri></mesh></geometry></collision></link></model>
<model name="l"><pose>5 0 0 0 0 0</pose><static>true</static><link name="link"><collision name="c"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>
<model name="b"><pose>5.5 1.5 0.6 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="notch"><pose>6.5 1.5 0.6 0 0 0</pose><link name="link">$in<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
<model name="e"><pose>-5 0 0.3 0 0 0</pose><link name="link"><inertial auto="true"/><collision name="c"><geometry><ellipsoid><radii>0.3 0.2 0.1</radii></ellipsoid></geometry></collision></link></model>
<model name="cap"><pose>-8 0 0.4 0 0 0</pose><link name="link">$in<collision name="c"><geometry><capsule><radius>0.1</radius><length>0.4</length></capsule></geometry></collision></link></model>
<model name="cyl"><pose>-11 0 0.4 0 0 0</pose><link name="link">$in<collision name="c"><geometry><cylinder><radius>0.2</radius><length>0.4</length></cylinder></geometry></collision></link></model>
</world></sdf>
SDF
	phys-step -t 1.2 -r 100 -i '*::link/pose' "$TMP/g.sdf" > "$TMP/o"
	# resting on their lowest faces, sunk a few micrometres
	near "$(at "$TMP/o" 1.2 cube::link/pose z)" 0.5 1e-5
	near "$(at "$TMP/o" 1.2 b::link/pose z)" 0.4 1e-5
	near "$(at "$TMP/o" 1.2 notch::link/pose z)" 0.1 1e-4
	near "$(at "$TMP/o" 1.2 cap::link/pose z)" 0.3 1e-4
	near "$(at "$TMP/o" 1.2 cyl::link/pose z)" 0.2 1e-4
	# an ellipsoid of Simbody's on the plane: Hertz's sink under its own
	# weight (1000 kg/m^3), within its curvature radii of 0.4 and 0.9 m
	sink=$(awk -v z="$(at "$TMP/o" 1.2 e::link/pose z)" 'BEGIN { print 0.1 - z }')
	awk -v x="$sink" 'BEGIN { m = 1000 * 4 / 3 * atan2(0, -1) * 0.006; E = 1e8 / 2^1.5
	    lo = (3 * m * 9.81 / (4 * E * sqrt(0.9)))^(2/3); hi = (3 * m * 9.81 / (4 * E * sqrt(0.4)))^(2/3)
	    exit !(x > lo && x < hi) }' || fail "ellipsoid sunk by $sink"
}

# Two discs on revolute joints to the world (the second's axis turned
# over), geared 2 to 1 about z.
gear_world() {
	cat > "$TMP/gear.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <physics name="simbody" type="simbody"/>
  <physics name="ode" type="ode"><ode><solver><type>world</type></solver></ode></physics>
  <model name="g">
    <link name="a"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="b"><pose>1 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <joint name="ja" type="revolute"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz></axis></joint>
    <joint name="jb" type="revolute"><parent>world</parent><child>b</child><axis><xyz>0 0 -1</xyz></axis></joint>
    <joint name="gear" type="gearbox"><parent>a</parent><child>b</child>
      <gearbox_reference_body>world</gearbox_reference_body><gearbox_ratio>2</gearbox_ratio>
      <axis><xyz>0 0 1</xyz></axis><axis2><xyz>0 0 1</xyz></axis2></joint>
  </model>
</world>
</sdf>
SDF
}

@test "Simbody gearbox: the second disc turns -2 times the first; set going, the pair shares its momentum as under ODE" {
	gear_world
	echo '{"t":0,"name":"g::a/angular_vel","value":{"x":0,"y":0,"z":1}}' > "$TMP/c"
	phys-step -t 1 -r 10 -c "$TMP/c" -i 'g::*/pose' "$TMP/gear.sdf" > "$TMP/o"
	jq -r '.items | .["g::b/pose"].yaw + 2 * .["g::a/pose"].yaw' "$TMP/o" |
	    awk '{ if ($1 > 1e-9 || $1 < -1e-9) { print "off by " $1; exit 1 } }'
	# the first disc set at 1 rad/s, the gear takes its share: I w0 =
	# I w + 2 I (2 w), w = 0.2 rad/s
	near "$(at "$TMP/o" 1 g::a/pose yaw)" 0.2 1e-9
	phys-step -p ode -t 1 -r 10 -c "$TMP/c" -i 'g::*/pose' "$TMP/gear.sdf" | tail -1 > "$TMP/ode"
	near "$(jq '.items["g::b/pose"].yaw' "$TMP/ode")" "$(at "$TMP/o" 1 g::b/pose yaw)" 1e-6
}

@test "Simbody refuses what it cannot run, naming the element and line; --skip-unsupported skips an open mesh" {
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n' > "$TMP/sheet.obj"
	cat > "$TMP/bad.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.7">
<world name="w">
  <physics name="simbody" type="simbody"/>
  <physics name="ode" type="ode"/>
  <model name="m">
    <link name="a"><pose>0 0 1 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
      <collision name="c"><geometry><mesh><uri>$TMP/sheet.obj</uri></mesh></geometry></collision></link>
    <joint name="u" type="universal"><parent>world</parent><child>a</child>
      <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
  </model>
</world>
</sdf>
SDF
	run phys-step -n 1 "$TMP/bad.sdf"
	assert_failure 1
	assert_output --partial "bad.sdf:9: collision 'm::a::c': the Simbody engine collides only closed meshes"
	run phys-step --skip-unsupported -n 1 "$TMP/bad.sdf"
	assert_success
	assert_output --partial "bad.sdf:9: skipping collision 'm::a::c': not a closed mesh"
	# a tilted flat grid: qhull made its hull a few rounding errors thick,
	# and boxes fell through it
	awk 'BEGIN { for (j = 0; j <= 4; j++) for (i = 0; i <= 4; i++)
		printf "v %g %g %.17g\n", i / 4, j / 4, 0.03 * i / 4 + 0.02 * j / 4
	    for (j = 0; j < 4; j++) for (i = 0; i < 4; i++) {
		a = 5 * j + i + 1; printf "f %d %d %d\nf %d %d %d\n", a, a + 1, a + 6, a, a + 6, a + 5 } }' > "$TMP/sheet.obj"
	run phys-step -n 1 "$TMP/bad.sdf"
	assert_failure 1
	assert_output --partial "bad.sdf:9: collision 'm::a::c': the Simbody engine collides only closed meshes"
	# axes not at right angles
	sed -i 's|<xyz>0 1 0</xyz></axis2>|<xyz>1 1 0</xyz></axis2>|' "$TMP/bad.sdf"
	run phys-step --skip-unsupported -n 1 "$TMP/bad.sdf"
	assert_failure 1
	assert_output --partial "bad.sdf:10: joint 'm::u': the Simbody engine's universal joint needs perpendicular axes"
	# a gearbox of links not turning about its axes on the reference body
	gear_world
	sed -i 's|<axis><xyz>0 0 -1</xyz></axis></joint>|<axis><xyz>1 0 0</xyz></axis></joint>|' "$TMP/gear.sdf"
	run phys-step -p simbody -n 1 "$TMP/gear.sdf"
	assert_failure 1
	assert_output --partial "gear.sdf:13: joint 'g::gear': the Simbody engine gears two links each held to the reference body by a revolute joint along the gearbox's axis"
	# a gearbox's ratio changed during a run
	gear_world
	echo '{"t":0.01,"name":"g::gear/gearbox_ratio","value":3}' > "$TMP/c"
	run phys-step -p simbody -t 0.1 -c "$TMP/c" "$TMP/gear.sdf"
	assert_failure 1
	assert_output --partial "joint 'g::gear': the Simbody engine cannot change a screw's pitch or a gearbox's ratio during a run"
	# a plane on a moving link
	sed -e 's|<sphere><radius>0.1</radius></sphere></geometry></collision>|<plane><normal>0 0 1</normal></plane></geometry></collision>|' "$W" > "$TMP/plane.sdf"
	run phys-step -p simbody -n 1 "$TMP/plane.sdf"
	assert_failure 1
	assert_output --partial "collision 'fall::link::collision': a plane must belong to a static model"
	# a joint's axis turned during a run
	echo '{"t":0.01,"name":"pendulum::pivot/axis.xyz","value":{"x":0,"y":1,"z":0}}' > "$TMP/c"
	run phys-step -p simbody -t 0.1 -c "$TMP/c" "$W"
	assert_failure 1
	assert_output --partial "joint 'pendulum::pivot': the Simbody engine cannot turn a joint's axis during a run"
}

@test "Simbody says before the run, once with its line, how slow a fine mesh will be: 20 ms a simulated second for each triangle on another mesh" {
	cube_obj 8 > "$TMP/fine.obj"	# 768 triangles
	cube_obj 2 > "$TMP/coarse.obj"	# 48
	local in='<inertial><mass>1</mass><inertia><ixx>0.00167</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial>'
	cat > "$TMP/m.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w">
<physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="fine"><pose>0 0 0.05 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/fine.obj</uri></mesh></geometry></collision></link></model>
<model name="coarse"><pose>0 0 0.15 0 0 0</pose><link name="link">$in
<collision name="c"><geometry><mesh><uri>$TMP/coarse.obj</uri></mesh></geometry></collision></link></model>
</world></sdf>
SDF
	run phys-step -t 0.05 -e 50 "$TMP/m.sdf"
	assert_success
	# a sixth of 768 triangles on a mesh at 20 ms each: 2.56 s
	[ "$(grep -c "m.sdf:6: collision 'fine::link::c': 768 triangles, which Simbody's elastic foundation springs one by one: each in contact takes about 1 ms of processor time a simulated second on a plane and 20 ms on another mesh (a sixth of them on a mesh: about 3 s)" <<< "$output")" -eq 1 ]
	[ "$(grep -c "triangles, which Simbody" <<< "$output")" -eq 1 ]
	# the coarse cube rests on the fine one, its base 0.1 m up
	near "$(tail -1 <<< "$output" | jq '.items["coarse::link/pose"].z')" 0.15 0.001
}

@test "Simbody: a four-bar's loop survives a switch from ODE and back (joint positions carried by the link poses)" {
	fourbar_world
	# parallel in time: one run under Simbody throughout, one under ODE
	# for 0.2 s; the crank starts at the top, where ODE has not moved it
	sed -i 's|<physics name="simbody" type="simbody">|<physics name="ode" type="ode" default="true"><ode><solver><type>world</type></solver></ode></physics>\n    &|' \
	    "$TMP/fourbar.sdf"
	echo '{"t":0.05,"preset":"simbody"}' > "$TMP/sw"
	phys-step -t 1 -r 100 -c "$TMP/sw" -i 'crank_rocker::*/position' "$TMP/fourbar.sdf" 2>/dev/null > "$TMP/o"
	[ "$(jq -r 'select(.t == 0.05) | .preset' "$TMP/o")" = simbody ]
	jq -r 'select(.t >= 0.05) | [.items["crank_rocker::a/position"][0], .items["crank_rocker::d/position"][0]] | @tsv' "$TMP/o" |
	    awk 'BEGIN { a = 0.5; b = 1.2; c = 1; d = 1; K3 = (a*a - b*b + c*c + d*d) / (2 * a * c); pi = atan2(0, -1) }
	    { t2 = pi / 2 + $1; t4 = 1.4778219388330651 + $2
		r = d / a * cos(t4) - d / c * cos(t2) + K3 - cos(t2 - t4); if (r < 0) r = -r; if (r > m) m = r }
	    END { if (m > 1e-6) { print "off the loop by " m; exit 1 } }'
}

@test "Gazebo's worlds with a <simbody> block step under Simbody as under ODE" {
	need_reference
	local w
	# its ODE profile typed as Simbody: its <simbody> block applies
	w=inertia_ratio_pendulum
	sed 's/type="ode"/type="simbody"/' "$REF/gazebo-worlds/$w.world" > "$TMP/$w.world"
	phys-step -t 1 -e 1000 -i '*::*/pose' "$REF/gazebo-worlds/$w.world" 2>/dev/null | tail -1 > "$TMP/ode"
	phys-step -t 1 -e 1000 -i '*::*/pose' "$TMP/$w.world" 2>/dev/null > "$TMP/sim"
	[ "$(head -1 "$TMP/sim" | jq -c '.engine | [.dissipation, .static_friction, .dynamic_friction]')" = '[10,0.15,0.1]' ]
	# every link ends within 1 cm of where ODE puts it
	paste <(tail -1 "$TMP/ode" | jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"') \
	      <(tail -1 "$TMP/sim" | jq -r '.items | to_entries[] | "\(.key) \(.value.x) \(.value.y) \(.value.z)"') |
		awk '$1 != $5 { exit 2 } { d = ($2-$6)^2 + ($3-$7)^2 + ($4-$8)^2; if (d > 1e-4) { print "differ: " $0; bad = 1 } n++ }
		    END { if (!n) exit 3; exit bad }'
	# presets.world's profiles, retyped: its simbody block's min_step_size
	# is said to do nothing
	sed 's/type="ode"/type="simbody"/' "$REF/gazebo-worlds/presets.world" > "$TMP/p.world"
	run phys-step -n 10 "$TMP/p.world"
	assert_success
	assert_output --partial "simbody.min_step_size is set but has no effect with Simbody"
}

@test "Simbody: a diverging run stops naming the body and its non-finite state, the step after the time it was set" {
	# under 9e99 m/s^2, Simbody's own steps end in a state not finite
	echo '{"t":0.01,"name":"gravity","value":"0 0 -9e99"}' > "$TMP/ctl"
	run phys-step -p simbody -t 1 -c "$TMP/ctl" "$(profile_world "$WORLDS/falling_sphere.sdf" simbody)"
	assert_failure 1
	assert_output --partial "simulation diverged: body 'ball::link' has a non-finite state at t=0.011"
}

# hinged_urdf FILE ROBOT BASE JOINT CHILD "LOWER UPPER" MASS [DYNAMICS]:
# a robot of a 1 kg BASE fixed to the world and a CHILD of MASS at 0.05
# m (1e-5 kg m^2 about its centre) on JOINT, a hinge about y within the
# limits (effort 1), the joint's element on line 6.
# turned_from_rest A B I: the turn, after 0.1 s from rest at 0, of a
# link of moment I about its axis under a torque A + B cos q (a constant
# torque and gravity on its centre, out along the link at q = 0), by RK4
# in steps of 1e-5 s.
turned_from_rest() {
	awk -v A="$1" -v B="$2" -v I="$3" '
	function acc(q) { return (A + B * cos(q)) / I }
	BEGIN { q = 0; u = 0; h = 1e-5
		for (n = 0; n < 10000; n++) {
			k1q = u; k1u = acc(q)
			k2q = u + h / 2 * k1u; k2u = acc(q + h / 2 * k1q)
			k3q = u + h / 2 * k2u; k3u = acc(q + h / 2 * k2q)
			k4q = u + h * k3u; k4u = acc(q + h * k3q)
			q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q)
			u += h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u)
		}
		printf "%.9f", q }'
}

hinged_urdf() {
	local lim=($6)
	cat > "$1" <<URDF
<?xml version="1.0"?>
<robot name="$2">
  <link name="world"/>
  <joint name="$3_joint" type="fixed"><parent link="world"/><child link="$3"/></joint>
  <link name="$3"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="$4" type="revolute">
    <parent link="$3"/><child link="$5"/><axis xyz="0 1 0"/>
    <limit lower="${lim[0]}" upper="${lim[1]}" effort="1" velocity="5"/>
    ${8:-}
  </joint>
  <link name="$5"><inertial><origin xyz="0.05 0 0"/><mass value="$7"/><inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial></link>
</robot>
URDF
}

# A finger of 3.5e-5 kg m^2 about its joint (0.01 kg, 5 cm out), as
# Allegro's are, whose joint has damping d: its motion stops within
# 3.5e-5 / d s, and Simbody's error-controlled integrator takes steps
# that short while the finger moves. At d = 60, 5.8e-7 s: about 1,700 of
# its steps a millisecond, said before the run; at 60,000, 5.8e-10 s: a
# run stops at 20,000. Friction f was such a damping too (f / vt below
# the stiction transition speed vt, 0.01): Allegro's 10 N m stopped the
# finger within 3.5e-8 s. A joint whose friction so decays more than 28
# radians in a step is held by a lock while it sticks, released where
# the lock's force passes f: the finger sticks under gravity, the
# friction holding m g L, and a command of more than f turns it as
# Coulomb friction has it, I q'' = c + m g L cos q - f (RK4 here, to
# 1e-3 rad after 0.1 s; ODE's figure is 1% ahead).
@test "Simbody: a joint whose damping stops its light link within 5.8e-7 s is named, with that time, before the run and when a run stops at 20,000 steps of Simbody's own; friction that would is held by a lock, the finger sticking and sliding as Coulomb's closed form; the shipped robots are named for neither" {
	hinged_urdf "$TMP/finger.urdf" hand palm knuckle finger "-1 1" 0.01 \
	    '<dynamics damping="60"/>'
	run --separate-stderr phys-step -p simbody -n 1 "$TMP/finger.urdf"
	[ "$status" -eq 0 ]
	grep -qx "phys-step: $TMP/finger.urdf:6: joint 'hand::knuckle': its damping and friction (a damping of friction / 0.01 below that stiction transition speed) stop its link's motion within 5.8e-07 s, which Simbody's error-controlled integrator follows while the link moves: a step of 0.001 s takes of the order of 1.7e+03 of its own, and a run stops at 20000 (a larger simbody.contact.override_stiction_transition_velocity runs faster)" <<<"$stderr" || fail "$stderr"
	sed -i 's/damping="60"/damping="60000"/' "$TMP/finger.urdf"
	run --separate-stderr phys-step -q -p simbody -n 2 "$TMP/finger.urdf"
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: simulation stopped at t=0: Simbody took 20000 steps of its own within one and did not reach its end (joint 'hand::knuckle' stops its link's motion within 5.8e-10 s)" ] || fail "$stderr"
	# Allegro's friction: held, unsaid; the finger sticks, its effort the
	# m g L friction holds
	hinged_urdf "$TMP/allegro.urdf" hand palm knuckle finger "-1 1" 0.01 \
	    '<dynamics damping="3" friction="10"/>'
	run -0 --separate-stderr phys-step -p simbody -t 0.2 -r 10 \
	    -i 'hand::knuckle/position' -i 'hand::knuckle/effort' "$TMP/allegro.urdf"
	[[ $stderr != *"stop its link's motion"* ]] || fail "$stderr"
	tail -1 <<<"$output" | jq -e '.items["hand::knuckle/position"][0] == 0'
	near "$(tail -1 <<<"$output" | jq '.items["hand::knuckle/effort"][0]')" -0.0049 1e-12
	# friction 0.02 (held: 0.02 / (0.01 * 3.5e-5) decays 57 radians in a
	# step) and a command of 0.025 from t = 0.2 s: it slides
	hinged_urdf "$TMP/slide.urdf" hand palm knuckle finger "-3 3" 0.01 \
	    '<dynamics friction="0.02"/>'
	echo '{"t":0.2,"name":"hand::knuckle/cmd_force","value":0.025}' > "$TMP/turn.ctl"
	run -0 phys-step -q -p simbody -t 0.3 -r 10 -c "$TMP/turn.ctl" \
	    -i 'hand::knuckle/position' "$TMP/slide.urdf"
	grep '"t":0.2,' <<<"$output" | jq -e '.items["hand::knuckle/position"][0] == 0'
	want=$(turned_from_rest 0.005 0.0049 "$(awk 'BEGIN { print 1e-5 + 0.01 * 0.05^2 }')")
	near "$(tail -1 <<<"$output" | jq '.items["hand::knuckle/position"][0]')" "$want" 1e-3
	# beside a box resting on the ground, whose triangles in contact are
	# reckoned at each of those steps, the joint is still named as the
	# cause (the box was said to be deep inside the ground)
	cat > "$TMP/rest.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
<physics name="s" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
<model name="box"><pose>2 0 0.25 0 0 0</pose><link name="l"><inertial><mass>10</mass><inertia><ixx>0.4</ixx><iyy>0.4</iyy><izz>0.4</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.5 0.5 0.5</size></box></geometry></collision></link></model>
<model name="hand"><pose>0 0 1 0 0 0</pose>
<link name="finger"><inertial><pose>0.05 0 0 0 0 0</pose><mass>0.01</mass><inertia><ixx>1e-5</ixx><iyy>1e-5</iyy><izz>1e-5</izz></inertia></inertial></link>
<joint name="knuckle" type="revolute"><parent>world</parent><child>finger</child>
<axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit><dynamics><damping>600</damping></dynamics></axis></joint>
</model></world></sdf>
SDF
	run --separate-stderr phys-step -q -n 2 "$TMP/rest.sdf"
	[ "$status" -eq 1 ]
	[[ $stderr == "phys-step: $TMP/rest.sdf:9: simulation stopped at t=0: Simbody took "*" steps of its own within one, reckoning the forces of "*" triangles in contact, and did not reach its end (joint 'hand::knuckle' stops its link's motion within 5.8e-08 s; the most triangles at once, "*", between collisions 'ground::l::c' and 'box::l::c')" ]] || fail "$stderr"
	# the shipped robots' joints are far from it
	for w in "$WORLDS/quadruped.sdf" "$WORLDS/go1like.sdf"; do
		run --separate-stderr phys-step -p simbody -n 1 "$w"
		[[ "$stderr" != *"stiction transition speed"* ]]
	done
}

# A joint stop is a spring of axis.limit.stiffness k on the link's moment
# I about the axis: at the stop the link rings at sqrt(k / I), which
# Simbody's explicit integrator can follow only in steps of under about
# 2.8 / sqrt(k / I). SDF's default 1e8 on a forearm's 2.6e-4 kg m^2
# (1e-5 about its centre, 0.1 kg at 0.05 m) would ask for 222 steps of
# its own a millisecond while the arm rests on it; the quadruped's legs
# for about 55 (15 s of processor time a simulated second on its folded
# legs). A stop that rings more than 28 radians in a step is held by a
# lock while the link rests on it, released when the lock would pull: the
# arm, which gravity presses on its upper stop (0), rests there exactly,
# the stop holding m g L; pulled by 2 m g L from t = 0.5 s, it turns as
# I q'' = -2 m g L + m g L cos q from rest at 0 (RK4 here, to 1e-4 rad
# after 0.1 s; the spring's stored turn, released, made it 4e-3 off).
# A stop Simbody can follow is a spring still: at the stiffness that
# takes 10 of its steps, 2e5, the arm rests past it by m g L / k.
@test "Simbody holds a link resting on a stop too stiff to follow: the arm rests exactly at its stop, which holds m g L, without a word; pulled by 2 m g L it turns off it as I q'' = -2 m g L + m g L cos q; a stop it can follow rests it past by m g L / k" {
	hinged_urdf "$TMP/arm.urdf" arm base elbow forearm "-1 0" 0.1
	echo '{"t":0.5,"name":"arm::elbow/cmd_force","value":-0.098}' > "$TMP/pull.ctl"
	run --separate-stderr phys-step -p simbody -t 0.6 -r 10 -c "$TMP/pull.ctl" \
	    -i 'arm::elbow/position' -i 'arm::elbow/effort' "$TMP/arm.urdf"
	[ "$status" -eq 0 ]
	[[ $stderr != *"its stop"* ]] || fail "$stderr"
	# at rest on the stop: 0, holding m g L = 0.049 N m
	grep '"t":0.5,' <<<"$output" | jq -e '.items["arm::elbow/position"][0] == 0'
	near "$(grep '"t":0.5,' <<<"$output" | jq '.items["arm::elbow/effort"][0]')" -0.049 1e-12
	want=$(turned_from_rest -0.098 0.049 "$(awk 'BEGIN { print 1e-5 + 0.1 * 0.05^2 }')")
	near "$(tail -1 <<<"$output" | jq '.items["arm::elbow/position"][0]')" "$want" 1e-4
	# pushed onto it instead, it stays there, holding both
	echo '{"t":0.5,"name":"arm::elbow/cmd_force","value":0.098}' > "$TMP/push.ctl"
	run -0 phys-step -q -p simbody -t 0.6 -r 10 -c "$TMP/push.ctl" \
	    -i 'arm::elbow/position' -i 'arm::elbow/effort' "$TMP/arm.urdf"
	tail -1 <<<"$output" | jq -e '.items["arm::elbow/position"][0] == 0'
	near "$(tail -1 <<<"$output" | jq '.items["arm::elbow/effort"][0]')" -0.049 1e-12
	# the stop moved under it (upper -0.2 from t = 0.5 s): released, the
	# spring takes it there, where it is held by m g L cos 0.2
	echo '{"t":0.5,"name":"arm::elbow/axis.limit.upper","value":-0.2}' > "$TMP/move.ctl"
	run -0 phys-step -q -p simbody -t 0.6 -r 10 -c "$TMP/move.ctl" \
	    -i 'arm::elbow/position' -i 'arm::elbow/effort' "$TMP/arm.urdf"
	tail -1 <<<"$output" | jq -e '.items["arm::elbow/position"][0] == -0.2'
	near "$(tail -1 <<<"$output" | jq '.items["arm::elbow/effort"][0]')" \
	    "$(awk 'BEGIN { printf "%.15f", -0.049 * cos(0.2) }')" 1e-12
	# a slide's stop alike: a car of 10 g dropped 0.1 m onto its lower
	# stop (settled by a dissipation of 100) rests at it, held by m g
	cat > "$TMP/slide.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.8</gravity>
<physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="m"><link name="car"><pose>0 0 1 0 0 0</pose>
<inertial><mass>0.01</mass><inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz></inertia></inertial></link>
<joint name="s" type="prismatic"><parent>world</parent><child>car</child>
<axis><xyz>0 0 1</xyz><limit><lower>-0.1</lower><upper>0.1</upper><dissipation>100</dissipation></limit></axis></joint>
</model></world></sdf>
SDF
	run -0 phys-step -q -t 1 -r 1 -i 'm::s/position' -i 'm::s/effort' "$TMP/slide.sdf"
	tail -1 <<<"$output" | jq -e '.items["m::s/position"][0] == -0.1'
	near "$(tail -1 <<<"$output" | jq '.items["m::s/effort"][0]')" 0.098 1e-12
	# a stop soft enough to follow is a spring: the arm rests past it by
	# m g L / k
	run --separate-stderr phys-step -p simbody -t 1 -r 1 -s simbody.accuracy=1e-7 \
	    -s 'arm::elbow/axis.limit.stiffness=2e5' -s 'arm::elbow/axis.limit.dissipation=10' \
	    -i 'arm::elbow/position' "$TMP/arm.urdf"
	[ "$status" -eq 0 ]
	[[ $stderr != *"its stop"* ]]
	near "$(tail -1 <<<"$output" | jq '.items["arm::elbow/position"][0]')" \
	    "$(awk 'BEGIN { print 0.1 * 9.8 * 0.05 / 2e5 }')" 1e-9
	# the shipped quadruped's stops are held: nothing said of them
	run --separate-stderr phys-step -p simbody -n 1 "$WORLDS/quadruped.sdf"
	[[ $stderr != *"its stop"* ]]
}

# Where the stop cannot be held (a universal joint's axes, one lock for
# both), it is said as before: the stop that rings fastest, how many of
# Simbody's steps a step at it takes, and a stiffness that takes 10.
@test "Simbody says before the run which joint stop it cannot hold rings fastest, how many of its own steps a step there takes, and a stiffness that takes 10" {
	hinged_urdf "$TMP/arm.urdf" arm base elbow forearm "-1 0" 0.1
	sdf=$(phys-sdf print "$TMP/arm.urdf" 2> /dev/null | sed 's|type="revolute"|type="universal"|; s|</axis>|</axis><axis2><xyz>0 0 1</xyz></axis2>|')
	echo "$sdf" > "$TMP/u.sdf"
	run --separate-stderr phys-step -p simbody -n 1 "$TMP/u.sdf"
	[ "$status" -eq 0 ]
	want=$(awk 'BEGIN {
		I = 1e-5 + 0.1 * 0.05^2; w = sqrt(1e8 / I); k = I * (10 * 2.8 / 0.001)^2
		printf "joint '\''arm::elbow'\'': its stop (axis.limit.stiffness 1e+08 on its link'\''s %.2g kg m^2 about the axis) rings at %.2g rad/s, which Simbody'\''s integrator follows while a link is at a stop: a step of 0.001 s there takes about %d of its own, not 1 (a stiffness of %.2g would take 10, giving by %.2g rad under the joint'\''s effort)", I, w, int(0.001 * w / 2.8) + 1, k, 1 / k }')
	grep -qF ": $want" <<<"$stderr" || fail "$stderr"
	[[ $want == *"about 222 of its own"*"stiffness of 2e+05 would"* ]]
}

# A ball joint's range is a stop of the same law along the turn's axis
# (its largest turn, MuJoCo's ball limit): it rings fastest about the
# child's least moment about the joint's centre. A rod of 1 kg whose
# centre is 0.5 m out along x, 0.5 kg m^2 about x and 0.3 about y and z
# there, has moments (0.5, 0.55, 0.55) about the joint: 0.5, not its own
# least 0.3. At the stiffness said to take 10, gravity holds it past its
# range of 0.3 by m g L cos(0.3) / k.
@test "Simbody says how fast a ball joint's range rings, on the child's least moment about the joint; at the stiffness it gives, the rod rests past its range by m g L cos(range) / k" {
	cat > "$TMP/rod.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
<physics name="s" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="m"><link name="rod"><pose>0 0 1 0 0 0</pose>
<inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.5</ixx><iyy>0.3</iyy><izz>0.3</izz></inertia></inertial></link>
<joint name="b" type="ball"><parent>world</parent><child>rod</child>
<axis><limit><upper>0.3</upper><stiffness>1e9</stiffness><dissipation>10</dissipation></limit></axis></joint></model>
</world></sdf>
SDF
	run -0 --separate-stderr phys-step -n 1 "$TMP/rod.sdf"
	want=$(awk 'BEGIN { I = 0.5; w = sqrt(1e9 / I); k = I * (10 * 2.8 / 0.001)^2
		printf "joint '\''m::b'\'': its stop (axis.limit.stiffness 1e+09 on its link'\''s %.2g kg m^2 about the ball'\''s least axis) rings at %.2g rad/s, which Simbody'\''s integrator follows while a link is at a stop: a step of 0.001 s there takes about %d of its own, not 1 (a stiffness of %.2g would take 10)", I, w, int(0.001 * w / 2.8) + 1, k }')
	grep -qxF "phys-step: $TMP/rod.sdf:6: $want" <<<"$stderr" || fail "$stderr"
	[[ $want == *"takes about 16 of its own"*"stiffness of 3.9e+08 would"* ]]
	run -0 --separate-stderr phys-step -t 3 -r 1 -s simbody.accuracy=1e-7 \
	    -s 'm::b/axis.limit.stiffness=3.9e8' -i 'm::rod/pose' "$TMP/rod.sdf"
	[[ $stderr != *"its stop"* ]]
	near "$(tail -1 <<<"$output" | jq '.items["m::rod/pose"].pitch')" \
	    "$(awk 'BEGIN { printf "%.15f", 0.3 + 9.8 * 0.5 * cos(0.3) / 3.9e8 }')" 1e-10
}

# Six cylinders standing on the floor, while a damped finger makes each
# step take some 600 of Simbody's own: their 192 triangles in contact
# each, reckoned at every one, pass the step's bound of 1e6, and the run
# stops saying so, with the finger's joint as the cause and the pair that
# has the most triangles in contact at once. It named that pair as "deep inside each other" before, as it
# named a falling humanoid's arm on its ankle (40 triangles in contact
# over 1000 steps); a pair is so named only where it did most of the
# work (hostile-engines.sh's two boxes half through each other).
@test "Simbody: a step that reckons too many triangles stops with their count, its steps, and the pair with the most at once, not naming a pair that merely touches as deep inside each other" {
	{
		echo '<mujoco model="many"><worldbody><geom name="floor" type="plane" size="5 5 0.1"/>'
		echo '<body name="palm" pos="0 0 2"><body name="finger"><joint name="knuckle" axis="0 1 0" range="-1 1" limited="true" damping="60"/>'
		echo '<inertial pos="0.05 0 0" mass="0.01" diaginertia="1e-5 1e-5 1e-5"/></body></body>'
		for i in 1 2 3 4 5 6; do
			echo "<body name=\"c$i\" pos=\"$i 0 0.1\"><freejoint/><geom name=\"g$i\" type=\"cylinder\" size=\"0.1 0.1\"/></body>"
		done
		echo '</worldbody></mujoco>'
	} > "$TMP/many.xml"
	run -1 --separate-stderr phys-step -q -p simbody -n 2 "$TMP/many.xml"
	[[ $stderr == "phys-step: $TMP/many.xml:2: simulation stopped at t=0: Simbody took "*" steps of its own within one, reckoning the forces of "*" triangles in contact, and did not reach its end (joint 'many::knuckle' stops its link's motion within 5.8e-07 s; the most triangles at once, 192, between collisions 'many::worldbody::worldbody::floor' and 'many::c1::g1')" ]] || fail "$stderr"
}

# Collisions whose bitmasks keep them from their own kind (an MJCF hand's
# geoms of contype 1 and conaffinity 0) share a clique, so Simbody never
# tracks two of them; one a listed pair names is kept apart from the rest
# of its kind two by two, and touches its partner: a box listed with the
# slab it lands on rests on it (0.3 m), one not listed falls through it
# to the floor (0.1 m).
@test "Simbody keeps collisions of a kind their bitmasks part apart as cliques: a box a listed pair names rests on the slab, the other falls through it, as under MuJoCo" {
	cat > "$TMP/p.xml" <<'XML'
<mujoco model="p">
  <default><geom contype="1" conaffinity="0"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" conaffinity="1"/>
    <body name="slab" pos="0 0 0.1"><freejoint/><geom name="g1" type="box" size="0.3 0.3 0.1" mass="1"/></body>
    <body name="listed" pos="-0.15 0 0.35"><freejoint/><geom name="g2" type="box" size="0.1 0.1 0.1" mass="1"/></body>
    <body name="other" pos="0.15 0 0.35"><freejoint/><geom name="g3" type="box" size="0.1 0.1 0.1" mass="1"/></body>
  </worldbody>
  <contact><pair geom1="g1" geom2="g2"/></contact>
</mujoco>
XML
	local p
	for p in simbody mujoco; do
		phys-step -q -p $p -t 1 -e 500 -i 'p::*/pose' "$TMP/p.xml" 2>/dev/null | tail -1 > "$TMP/o"
		near "$(jq '.items["p::slab/pose"].z' "$TMP/o")" 0.1 1e-3
		near "$(jq '.items["p::listed/pose"].z' "$TMP/o")" 0.3 1e-3
		near "$(jq '.items["p::other/pose"].z' "$TMP/o")" 0.1 1e-3
	done
}

# Two kinds whose bitmasks part them (contype 1, conaffinity 0 and
# contype 4, conaffinity 2, as Cassie's pelvis and shins have them) share
# a clique too: two cylinders of those kinds, 5 cm apart and deep inside
# each other, fall side by side, while a damped finger makes each step
# take some 600 of Simbody's. Before, the tracker reckoned their 480
# triangles in each of those and the first step stopped, naming the pair
# "deep inside each other" (Cassie's first step so).
@test "Simbody keeps two kinds of collision their bitmasks part apart as a clique: cylinders inside each other never tracked, however many of its own steps a step takes" {
	cat > "$TMP/kinds.xml" <<'XML'
<mujoco model="kinds">
  <worldbody>
    <body name="palm" pos="0 0 2">
      <body name="finger">
        <joint name="knuckle" axis="0 1 0" range="-1 1" limited="true" damping="60"/>
        <inertial pos="0.05 0 0" mass="0.01" diaginertia="1e-5 1e-5 1e-5"/>
      </body>
    </body>
    <body name="a" pos="0 0 1"><freejoint/><geom type="cylinder" size="0.1 0.1" contype="1" conaffinity="0"/></body>
    <body name="b" pos="0.05 0 1"><freejoint/><geom type="cylinder" size="0.1 0.1" contype="4" conaffinity="2"/></body>
  </worldbody>
</mujoco>
XML
	run -0 --separate-stderr phys-step -q -p simbody -n 3 -e 3 -i 'kinds::a/pose' -i 'kinds::b/pose' "$TMP/kinds.xml"
	tail -1 <<<"$output" > "$TMP/o"
	near "$(jq '.items["kinds::b/pose"].x - .items["kinds::a/pose"].x' "$TMP/o")" 0.05 1e-12
	# and fall freely, as Simbody keeps a parabola: 1 - g t^2 / 2
	near "$(jq '.items["kinds::a/pose"].z' "$TMP/o")" "$(awk 'BEGIN { printf "%.12f", 1 - 9.81 * 0.006^2 / 2 }')" 1e-9
}
