#!/usr/bin/env bats
# Dynamics of the field's worlds against closed forms, on both engines:
# joint damping far above what explicit forces survive, Gazebo's implicit
# spring-damper, and a damped torsion oscillator.

load helper
bats_require_minimum_version 1.5.0

# rotor ENGINE IMPLICIT DAMPING STIFFNESS STEP: a link of inertia 1 about
# its joint's axis (through its centre of mass), on the world, turning
# at 1 rad/s.
rotor() {
	cat <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$1"><max_step_size>$5</max_step_size></physics>
    <gravity>0 0 0</gravity>
    <model name="m">
      <link name="rotor">
        <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
      </link>
      <joint name="j" type="revolute">
        <parent>world</parent><child>rotor</child>
        <axis><xyz>0 0 1</xyz>
          <dynamics><damping>$3</damping><spring_stiffness>$4</spring_stiffness></dynamics>
        </axis>
        <physics><ode><implicit_spring_damper>$2</implicit_spring_damper></ode></physics>
      </joint>
      <plugin filename="libInitialVelocityPlugin.so" name="v"><angular>0 0 1</angular></plugin>
    </model>
  </world>
</sdf>
EOF
}

# pendulum ENGINE IMPLICIT DAMPING SOLVER: a 1 kg bob (inertia 0.01 about
# its centre) on a 1 m arm, let go level.
pendulum() {
	cat <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$1"><max_step_size>0.001</max_step_size>
      <ode><solver><type>$4</type></solver></ode></physics>
    <model name="m">
      <link name="bob">
        <pose>1 0 0 0 0 0</pose>
        <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
      </link>
      <joint name="j" type="revolute">
        <pose>-1 0 0 0 0 0</pose>
        <parent>world</parent><child>bob</child>
        <axis><xyz>0 1 0</xyz><dynamics><damping>$3</damping></dynamics></axis>
        <physics><ode><implicit_spring_damper>$2</implicit_spring_damper></ode></physics>
      </joint>
    </model>
  </world>
</sdf>
EOF
}

@test "damping with d h / I = 1000 settles without overshoot: both engines, explicit and implicit" {
	for engine in ode bullet; do
		for implicit in false true; do
			echo "$engine, implicit_spring_damper $implicit"
			rotor "$engine" "$implicit" 1000000 0 0.001 > "$TMP/w.sdf"
			phys-step -t 0.02 -i m::j/velocity "$TMP/w.sdf" |
			    jq -r '.items["m::j/velocity"][0]' > "$TMP/v"
			# never reversed, never growing, at rest within 5 steps;
			# the first step leaves at most the implicit Euler
			# step's 1 / (1 + d h / I) of the rate
			awk 'NR > 1 && ($1 < 0 || $1 > p) { print "step " NR ": " $1; exit 1 } { p = $1 }' "$TMP/v"
			near "$(sed -n 6p "$TMP/v")" 0 1e-9
			near "$(sed -n 2p "$TMP/v")" 0 "$(awk 'BEGIN { print 1 / 1001 + 1e-12 }')"
		done
	done
	# phys-sdf check: a warning where Gazebo classic's explicit force
	# diverges, none for the implicit form
	rotor ode false 1000000 0 0.001 > "$TMP/w.sdf"
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ "$(echo "$output" | jq -r '"\(.line) \(.severity)"')" = "10 warning" ]
	[[ "$output" == *"500 times what a step of 0.001 s can integrate"* ]]
	# and the run says it, once, at the joint's line, under each engine
	# that holds it as a force (DART's joints integrate it implicitly)
	for engine in ode bullet; do
		rotor $engine false 1000000 0 0.001 > "$TMP/w.sdf"
		run -0 --separate-stderr phys-step -n 3 "$TMP/w.sdf"
		[ "$(grep -c "w.sdf:10: joint 'm::j': damping 1e+06 on a link of inertia 1 is 500 times what a step of 0.001 s can integrate as a force" <<< "$stderr")" -eq 1 ]
	done
	# several such joints: check lists each, a run says the worst once
	rotor ode false 1000000 0 0.001 > "$TMP/w.sdf"
	sed -n '/<model name="m">/,/<\/model>/p' "$TMP/w.sdf" > "$TMP/m"
	{ sed 's/name="m"/name="m2"/; s/1000000/2000000/' "$TMP/m"
	  sed 's/name="m"/name="m3"/' "$TMP/m"; } > "$TMP/more"
	sed -i "/<\/world>/e cat $TMP/more" "$TMP/w.sdf"
	run phys-sdf check "$TMP/w.sdf"
	[ "$(echo "$output" | grep -c 'can integrate as a force')" -eq 3 ]
	run -0 --separate-stderr phys-step -n 3 "$TMP/w.sdf"
	[ "$(grep -c 'can integrate as a force' <<< "$stderr")" -eq 1 ]
	[[ "$stderr" == *"w.sdf:23: joint 'm2::j': damping 2e+06 on a link of inertia 1 is 1000 times what a step"*"(and 2 more joints: phys-sdf check lists each)"* ]]
	rotor ode true 1000000 0 0.001 > "$TMP/w.sdf"
	run phys-sdf check "$TMP/w.sdf"
	assert_success
	[ -z "$output" ]
	run -0 --separate-stderr phys-step -n 3 "$TMP/w.sdf"
	[[ "$stderr" != *"can integrate as a force"* ]]
	# an arm under gravity (the bob's inertia about the pivot is 1.01):
	# as a force over the step, damping takes back each step what gravity
	# gave it, g h L / I, and never more
	for engine in ode bullet; do
		pendulum "$engine" false 1010000 quick > "$TMP/w.sdf"
		phys-step -t 0.5 -e 10 -i m::j/velocity "$TMP/w.sdf" |
		    jq -r '.items["m::j/velocity"][0]' > "$TMP/v"
		awk '$1 < -1e-12 || $1 > 9.8 * 0.001 / 1.01 + 1e-5 { print "rate " $1; exit 1 }' "$TMP/v"
	done
}

@test "a damped torsion oscillator follows theta = e^(-gamma t) sin(wd t) / wd: both engines, both paths" {
	# I = 1, k = 100, d = 2: gamma = 1, wd = sqrt(99); theta(0) = 0, rate 1
	for engine in ode bullet; do
		for implicit in false true; do
			echo "$engine, implicit_spring_damper $implicit"
			rotor "$engine" "$implicit" 2 100 0.0001 > "$TMP/w.sdf"
			phys-step -t 2 -e 500 -i m::j/position "$TMP/w.sdf" |
			    jq -r '[.t, .items["m::j/position"][0]] | @tsv' |
			    awk '{ wd = sqrt(99); want = exp(-$1) * sin(wd * $1) / wd
				d = $2 - want; if (d < 0) d = -d
				if (d > m) { m = d; at = $1 } }
				END { print "largest difference", m, "at t =", at; exit !(m < 2e-4) }'
		done
	done
}

@test "implicit_spring_damper puts ODE's damping in the solver: a heavily damped arm falls at g L / d" {
	# 9.8 N m of gravity at the pivot, d = 100000: 9.8e-5 rad/s from the
	# first step, where the damping as a force, held to what one step can
	# take, lets it fall a hundred times as fast
	pendulum ode true 100000 world > "$TMP/w.sdf"
	phys-step -t 0.5 -e 100 -i m::j/velocity "$TMP/w.sdf" |
	    jq -r '.items["m::j/velocity"][0]' | tail -n +2 > "$TMP/v"
	while read -r v; do
		rel "$v" 9.8e-5 1e-3
	done < "$TMP/v"
}

# incline ENGINE: a ball of radius 0.1 and inertia 2/5 m r^2 at rest on a
# plane tilted 10 degrees about y.
incline() {
	nx=$(awk 'BEGIN { printf "%.17g", -sin(0.17453292519943295) }')
	nz=$(awk 'BEGIN { printf "%.17g", cos(0.17453292519943295) }')
	cat <<EOF2
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$1"><max_step_size>0.001</max_step_size></physics>
    <model name="slope"><static>true</static>
      <link name="l"><collision name="c"><geometry><plane><normal>$nx 0 $nz</normal><size>100 100</size></plane></geometry></collision></link>
    </model>
    <model name="ball">
      <pose>$(awk -v x="$nx" -v z="$nz" 'BEGIN { printf "%.17g 0 %.17g", 0.1 * x, 0.1 * z }') 0 0 0</pose>
      <link name="link">
        <inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
        <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
EOF2
}

# boxes ENGINE POSE...: 0.2 m cubes of 1 kg on the ground, one per pose.
boxes() {
	local engine=$1 i=0
	shift
	printf '<?xml version="1.0"?>\n<sdf version="1.9">\n<world name="w">\n'
	printf '<physics type="%s"><max_step_size>0.001</max_step_size></physics>\n' "$engine"
	printf '<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>\n'
	for pose; do
		printf '<model name="box%d"><pose>%s</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>0.006666666666666667</ixx><iyy>0.006666666666666667</iyy><izz>0.006666666666666667</izz></inertia></inertial><collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>\n' "$i" "$pose"
		i=$((i + 1))
	done
	printf '</world>\n</sdf>\n'
}

@test "a ball rolls down a 10 degree incline: s = 5/14 g sin(theta) t^2, both engines" {
	want=$(awk 'BEGIN { print 5 / 14 * 9.8 * sin(0.17453292519943295) }')
	for engine in ode bullet; do
		incline "$engine" > "$TMP/w.sdf"
		phys-step -t 1 -e 1000 -i ball::link/pose "$TMP/w.sdf" |
		    jq -r '.items["ball::link/pose"] | "\(.x) \(.z)"' > "$TMP/p"
		s=$(awk 'NR == 1 { x = $1; z = $2 } END { print sqrt(($1 - x)^2 + ($2 - z)^2) }' "$TMP/p")
		echo "$engine: $s m, closed form $want m"
		rel "$s" "$want" 0.01
		[ "$engine" = ode ] || bullet=$s
	done
	# and as bare Bullet rolls it, set up as Gazebo's Bullet does
	g++ -O2 $(pkg-config --cflags bullet-float64) -o "$TMP/bullet_incline" \
	    "$BATS_TEST_DIRNAME/data/bullet_incline.cc" $(pkg-config --libs bullet-float64)
	bare=$("$TMP/bullet_incline")
	echo "bare Bullet: $bare m"
	rel "$bullet" "$bare" 1e-4
}

@test "a box dropped on its edge falls flat, and ten stacked boxes stand: both engines" {
	for engine in ode bullet; do
		echo "$engine"
		boxes "$engine" "0 0 0.2 0.6 0 0" > "$TMP/w.sdf"
		phys-step -t 2 -e 2000 -i box0::link/pose "$TMP/w.sdf" |
		    tail -1 | jq -r '.items["box0::link/pose"] | "\(.z) \(.roll)"' > "$TMP/p"
		read -r z roll < "$TMP/p"
		near "$z" 0.1 0.002
		near "$roll" 0 1e-3
		set --
		for i in 0 1 2 3 4 5 6 7 8 9; do
			set -- "$@" "0 0 $(awk -v i=$i 'BEGIN { print 0.1 + 0.2 * i }') 0 0 0"
		done
		boxes "$engine" "$@" > "$TMP/s.sdf"
		phys-step -t 3 -e 3000 -i 'box9::link/pose' "$TMP/s.sdf" | tail -1 |
		    jq -r '.items["box9::link/pose"] | "\(.x) \(.y) \(.z)"' > "$TMP/p"
		read -r x y z < "$TMP/p"
		near "$x" 0 0.005
		near "$y" 0 0.005
		near "$z" 1.9 0.015
	done
}

@test "a torsion spring keeps its energy over a period, through +-2pi/3 and +-pi: angles are continuous on both engines" {
	# I = 1, k = 1, rate w at 0: theta = w sin t, E = w^2 / 2
	for engine in ode bullet; do
		for w in 2.5 4; do
			echo "$engine, amplitude $w rad"
			rotor "$engine" false 0 1 0.001 | sed "s|<angular>0 0 1</angular>|<angular>0 0 $w</angular>|" > "$TMP/w.sdf"
			phys-step -t 6.2832 -e 10 -i m::j/position -i m/kinetic_energy "$TMP/w.sdf" |
			    jq -r '[.t, .items["m::j/position"][0], .items["m/kinetic_energy"]] | @tsv' |
			    awk -v w="$w" '{ e = $3 + $2 * $2 / 2; d = (e - w * w / 2) / (w * w / 2)
				if (d < 0) d = -d; if (d > m) m = d
				p = $2 - w * sin($1); if (p < 0) p = -p; if (p > mp) mp = p }
				END { print "energy off by", m, "angle by", mp; exit !(m < 1e-3 && mp < 1e-4) }'
		done
	done
}

@test "a heightmap's <pos> raises it by z only, as Gazebo's ODE does, with a warning for x and y: both engines" {
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) -lm -o "$TMP/geomgen"
	mkdir "$TMP/gen" && "$TMP/geomgen" "$TMP/gen"
	for engine in ode bullet; do
		cat > "$TMP/w.sdf" <<EOF2
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$engine"><max_step_size>0.001</max_step_size></physics>
    <model name="t"><static>true</static><link name="link"><collision name="c"><geometry>
      <heightmap><uri>$TMP/gen/bowl.tif</uri><size>8 8 2</size><pos>3 2 0.5</pos></heightmap>
    </geometry></collision></link></model>
    <model name="s"><pose>0 0 1 0 0 0</pose><link name="link">
      <inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
      <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
    </link></model>
  </world>
</sdf>
EOF2
		phys-step -t 2 -e 2000 -i s::link/pose "$TMP/w.sdf" 2> "$TMP/e" | tail -1 |
		    jq -r '.items["s::link/pose"] | "\(.x) \(.y) \(.z)"' > "$TMP/p"
		read -r x y z < "$TMP/p"
		echo "$engine: $x $y $z"
		# the bowl's bottom stays under the collision's origin, pos.z up
		near "$z" 0.6 0.01
		near "$x" 0 0.01
		near "$y" 0 0.01
		grep -q "w.sdf:6: heightmap <pos> 3 2: only its z is applied" "$TMP/e"
	done
	run phys-sdf check "$TMP/w.sdf"
	[ "$(echo "$output" | jq -r 'select(.line == 6) | .severity')" = warning ]
}

@test "a divergence names the body, the time and the likely cause: a spring too stiff for the step, a link under 1e-6 kg" {
	for engine in ode bullet; do
		rotor "$engine" false 0 1000000 0.001 |
		    sed 's|<ixx>1</ixx><iyy>1</iyy><izz>1</izz>|<ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz>|' > "$TMP/w.sdf"
		run phys-step -t 1 "$TMP/w.sdf"
		[ "$status" -eq 1 ]
		[[ "$output" =~ "simulation diverged: body 'm::rotor' moves at "[^\ ]+" m/s and "[^\ ]+" rad/s at t=0.00" ]]
		[[ "$output" == *"likely cause: joint 'm::j' ($TMP/w.sdf:10) has a spring of 1e+06 on a link of inertia 1e-06"* ]]
		# in its implicit form the same spring holds the rotor still
		sed 's|<implicit_spring_damper>false|<implicit_spring_damper>true|' "$TMP/w.sdf" > "$TMP/i.sdf"
		phys-step -t 1 -e 1000 -i m::j/position "$TMP/i.sdf" | tail -1 |
		    jq '.items["m::j/position"][0]' > "$TMP/p"
		near "$(cat "$TMP/p")" 0 1e-3
	done
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity>0 0 0</gravity>
    <model name="m">
      <link name="body"><inertial><mass>1</mass></inertial></link>
      <link name="flap"><inertial><mass>1e-8</mass><inertia><ixx>1e-12</ixx><iyy>1e-12</iyy><izz>1e-12</izz></inertia></inertial></link>
      <joint name="hinge" type="revolute"><parent>body</parent><child>flap</child><axis><xyz>0 1 0</xyz></axis></joint>
    </model>
  </world>
</sdf>
EOF2
	echo '{"t":0.01,"name":"gravity","value":"0 0 -1e14"}' > "$TMP/ctl"
	run phys-step -t 1 -c "$TMP/ctl" "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "simulation diverged" ]]
	[[ "$output" =~ "t=0.01" ]]
	[[ "$output" == *"likely cause: link 'm::flap' weighs 1e-08 kg ($TMP/w.sdf:7), below 1e-06 kg"* ]]
}

@test "a divergence beside a link thin about one axis names it as the likely cause, and the moment of its shape runs" {
	# a pan-tilt head as a SubT robot has it: 0.1 kg links of moments
	# 1e-8 and 1.7e-5 kg m^2 on a 20 kg base, each joint under gz-sim's
	# JointController in force mode
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <model name="m">
      <pose>0 0 0.1 0 0 0</pose>
      <link name="base"><inertial><mass>20</mass><inertia><ixx>0.6</ixx><iyy>1.7</iyy><izz>2</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>1 0.5 0.2</size></box></geometry></collision></link>
      <link name="pan"><pose>0.4 0 0.4 0 0 0</pose><inertial><mass>0.1</mass><inertia><ixx>1.6875e-5</ixx><iyy>1e-8</iyy><izz>1.6875e-5</izz></inertia></inertial></link>
      <link name="tilt"><pose>0.4 0 0.45 0 0 0</pose><inertial><mass>0.1</mass><inertia><ixx>1.6875e-5</ixx><iyy>1e-8</iyy><izz>1.6875e-5</izz></inertia></inertial></link>
      <joint name="pan_joint" type="revolute"><parent>base</parent><child>pan</child><axis><xyz>0 0 1</xyz><dynamics><damping>0.5</damping></dynamics></axis></joint>
      <joint name="tilt_joint" type="revolute"><parent>pan</parent><child>tilt</child><axis><xyz>0 1 0</xyz><dynamics><damping>0.5</damping></dynamics></axis></joint>
      <plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController"><joint_name>pan_joint</joint_name><use_force_commands>true</use_force_commands><p_gain>0.4</p_gain><i_gain>10</i_gain></plugin>
      <plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController"><joint_name>tilt_joint</joint_name><use_force_commands>true</use_force_commands><p_gain>0.4</p_gain><i_gain>10</i_gain></plugin>
    </model>
  </world>
</sdf>
EOF2
	run -1 phys-step -q -t 2 -r 10 "$TMP/w.sdf"
	[[ "$output" == *"simulation diverged"* ]]
	[[ "$output" == *"likely cause: link 'm::pan' ($TMP/w.sdf:9) has principal moments from 1e-08 to 1.6875e-05 kg m^2, 1688 times apart"* ]]
	# the cause it is: with the moment of their shape (a cylinder of
	# 0.1 kg and radius 14 mm: m r^2 / 2 about its axis) they run
	phys-step -q -t 2 -r 10 -s 'm::pan/inertial.inertia.iyy=9.8e-6' -s 'm::tilt/inertial.inertia.iyy=9.8e-6' "$TMP/w.sdf" > "$TMP/out"
	[ "$(jq -s 'last | .t' "$TMP/out")" = 2 ]
}

@test "<cone> (SDF 1.11): its exact inertia, centre of mass a quarter up from the base, and it stands on its base: every engine" {
	for engine in ode bullet mujoco; do
		cat > "$TMP/w.sdf" <<EOF2
<?xml version="1.0"?>
<sdf version="1.11">
  <world name="w">
    <physics type="$engine"/>
    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <model name="m"><pose>0 0 1.1 0 0 0</pose>
      <link name="l">
        <inertial auto="true"><density>1000</density></inertial>
        <collision name="c"><geometry><cone><radius>0.5</radius><length>2</length></cone></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
EOF2
		phys-step -t 2 -e 2000 -i m::l/pose -i m::l/mass -i m::l/inertia -i m::l/inertial_pose "$TMP/w.sdf" | tail -1 > "$TMP/o"
		m=$(awk 'BEGIN { printf "%.17g", 1000 * atan2(0, -1) * 0.25 * 2 / 3 }')
		rel "$(jq '.items["m::l/mass"]' "$TMP/o")" "$m" 1e-12
		# 3/80 (4 r^2 + L^2) across, 3/10 r^2 along the axis, per kg
		rel "$(jq '.items["m::l/inertia"].ixx' "$TMP/o")" "$(awk -v m="$m" 'BEGIN { printf "%.17g", m * 3 / 80 * 5 }')" 1e-12
		rel "$(jq '.items["m::l/inertia"].iyy' "$TMP/o")" "$(awk -v m="$m" 'BEGIN { printf "%.17g", m * 3 / 80 * 5 }')" 1e-12
		rel "$(jq '.items["m::l/inertia"].izz' "$TMP/o")" "$(awk -v m="$m" 'BEGIN { printf "%.17g", m * 3 / 10 * 0.25 }')" 1e-12
		# on its base: the frame L/2 up, the centre of mass L/4
		near "$(jq '.items["m::l/pose"].z' "$TMP/o")" 1 0.002
		near "$(jq '.items["m::l/inertial_pose"].z' "$TMP/o")" 0.5 0.002
		# MuJoCo's soft contact lets the 32-sided base rock by 2e-5 rad
		near "$(jq '.items["m::l/pose"].roll' "$TMP/o")" 0 "$([ $engine = mujoco ] && echo 1e-4 || echo 1e-6)"
	done
}

@test "polylines with holes, as Gazebo extrudes them: a ball falls through the hole, another rests on the rim; the inertia of the frame: both engines" {
	ring() {	# ring HALF: a square polyline of that half-side, 0.5 m tall
		printf '<polyline><point>-%s -%s</point><point>%s -%s</point><point>%s %s</point><point>-%s %s</point><height>0.5</height></polyline>' $1 $1 $1 $1 $1 $1 $1 $1
	}
	ball() {	# ball NAME X Y
		printf '<model name="%s"><pose>%s %s 1 0 0 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>' $1 $2 $3
	}
	for engine in ode bullet; do
		cat > "$TMP/w.sdf" <<EOF2
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$engine"/>
    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <model name="frame"><static>true</static><link name="l"><collision name="c"><geometry>$(ring 1)$(ring 0.5)</geometry></collision></link></model>
    $(ball through 0 0) $(ball rim 0.75 0.75)
    <model name="solid"><pose>5 0 0 0 0 0</pose><link name="l"><inertial auto="true"><density>1000</density></inertial>
      <collision name="c"><geometry>$(ring 1)$(ring 0.5)</geometry></collision></link></model>
    <model name="island"><pose>10 0 0 0 0 0</pose><link name="l"><inertial auto="true"><density>1000</density></inertial>
      <collision name="c"><geometry>$(ring 1)$(ring 0.5)$(ring 0.2)</geometry></collision></link></model>
  </world>
</sdf>
EOF2
		phys-step -t 2 -e 2000 -i '*::l/pose' -i '*::l/mass' -i solid::l/inertia "$TMP/w.sdf" | tail -1 > "$TMP/o"
		echo "$engine"
		near "$(jq '.items["through::l/pose"].z' "$TMP/o")" 0.1 0.002
		near "$(jq '.items["rim::l/pose"].z' "$TMP/o")" 0.6 0.002
		# 0.5 m of a 2 m square less a 1 m one; an island of 0.4 m in the hole
		rel "$(jq '.items["solid::l/mass"]' "$TMP/o")" 1500 1e-12
		rel "$(jq '.items["island::l/mass"]' "$TMP/o")" 1580 1e-12
		# about z: 2000 (2^2 + 2^2) / 12 - 500 (1 + 1) / 12
		rel "$(jq '.items["solid::l/inertia"].izz' "$TMP/o")" 1250 1e-9
	done
}
