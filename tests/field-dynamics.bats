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
