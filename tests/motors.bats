#!/usr/bin/env bats
# Joint commands on control lines (cmd_force, cmd_vel, cmd_pos), the PIDs
# that follow them and the effort and speed limits that bound them, each
# against its closed form under every engine (worlds/motor.sdf: a 1 kg bob
# 0.5 m below a shoulder, I = 0.26 kg m^2 about the joint).

load helper
bats_require_minimum_version 1.5.0

W="$WORLDS/motor.sdf"
J='arm::shoulder'

# drive PROFILE SECONDS CONTROL-LINE [OPTION]...: the run's state lines
# every 10 ms in $TMP/PROFILE.
drive() {
	local p=$1 t=$2 line=$3
	shift 3
	echo "$line" > "$TMP/ctl"
	phys-step -p "$p" -t "$t" -r 100 -c "$TMP/ctl" -i "$J/*" "$@" "$W" \
	    > "$TMP/$p" 2> "$TMP/$p.err"
}

# axis FILE T PROPERTY: axis 0 of the shoulder's PROPERTY at time T.
axis() {
	jq -r --argjson t "$2" --arg i "$J/$3" 'select(.t == $t) | .items[$i][0]' "$1"
}

hold() {
	# kp (0.5 - q) = m g l sin q at rest, with no integral term.
	drive "$1" 4 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" \
	    -s "$J/position_pid.p_gain=100" -s "$J/position_pid.d_gain=10" \
	    -s "$J/position_pid.i_gain=0"
	local q=$(awk 'BEGIN { q = 0.5; for (i = 0; i < 200; i++)
	    q = 0.5 - 4.905 * sin(q) / 100; printf "%.12f", q }')
	near "$(axis "$TMP/$1" 4 position)" "$q" 1e-6
	# the error the items report, and the effort that holds the arm
	near "$(axis "$TMP/$1" 4 tracking_error)" "$(awk -v q="$q" 'BEGIN { print q - 0.5 }')" 1e-6
	near "$(axis "$TMP/$1" 4 applied_effort)" "$(awk -v q="$q" 'BEGIN { print 4.905 * sin(q) }')" 1e-4
	near "$(axis "$TMP/$1" 4 target)" 0.5 0
}
@test "cmd_pos, PD against gravity: the arm rests where kp (target - q) = m g l sin q, under each engine" {
	each_engine hold
}

# continuous NAME KP KD T: the arm's angle at T under a PD of KP and KD
# toward 0.5 rad from rest at 0, I q'' = kp (0.5 - q) - kd q' - m g l
# sin q, by RK4 in steps of 1e-5 s.
continuous() {
	awk -v kp="$1" -v kd="$2" -v t="$3" 'function acc(q, v) {
		return (kp * (0.5 - q) - kd * v - 4.905 * sin(q)) / 0.26 }
	BEGIN { h = 1e-5; q = 0; v = 0
	for (i = 0; i < t / h - 0.5; i++) {
		a1 = acc(q, v); a2 = acc(q + h / 2 * v, v + h / 2 * a1)
		a3 = acc(q + h / 2 * (v + h / 2 * a1), v + h / 2 * a2)
		a4 = acc(q + h * (v + h / 2 * a2), v + h * a3)
		q += h * (v + h / 6 * (a1 + a2 + a3))
		v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4) }
	printf "%.9f", q }'
}

stiff() {
	# kd h / I = 1e4 * 1e-3 / 0.26 = 38: a force computed at the step's
	# start multiplies the arm's rate by -37 a step (held within the
	# effort limit, the arm chatters to 0.338 rad). MuJoCo's implicit
	# integrator, Simbody's error control and, with implicit_servo,
	# ODE's and Bullet's motor rows and DART's implicit spring take the
	# servo into the step: the arm rests where kp (0.5 - q) = m g l sin
	# q. The rows are solved by iteration: enough of them for the rest
	# to 1e-7.
	local mj=
	[ "$1" = mujoco ] && mj='-s mujoco.integrator=implicit'
	drive "$1" 3 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" \
	    -s "$J/position_pid.p_gain=1e5" -s "$J/position_pid.d_gain=1e4" \
	    -s "$J/position_pid.i_gain=0" -s "$J/implicit_servo=true" \
	    -s ode.solver.iters=1000 -s bullet.solver.iters=1000 $mj
	local q=$(awk 'BEGIN { q = 0.5; for (i = 0; i < 200; i++)
	    q = 0.5 - 4.905 * sin(q) / 1e5; printf "%.12f", q }')
	near "$(axis "$TMP/$1" 3 position)" "$q" 1e-7
	# the effort the rows and the spring applied, in the joint's effort
	# and the servo's applied_effort (Simbody reports the servo's force
	# at the state, kd times the rate's noise)
	case $1 in ode|bullet|dart|mujoco)
		near "$(axis "$TMP/$1" 3 effort)" "$(awk -v q="$q" 'BEGIN { print 4.905 * sin(q) }')" 1e-4
		near "$(axis "$TMP/$1" 3 applied_effort)" "$(awk -v q="$q" 'BEGIN { print 4.905 * sin(q) }')" 1e-4 ;;
	esac
	case $1 in mujoco|simbody)
		# what the parameter asks, the engine does of itself: not said
		! grep -q "implicit_servo" "$TMP/$1.err" || false
		# MuJoCo's Euler holds the force over the step: the parameter
		# said to be the other engines', by name
		if [ "$1" = mujoco ]; then
			run --separate-stderr phys-step -p mujoco -n 1 -s "$J/implicit_servo=true" "$W"
			[[ "$stderr" == *"joint '$J': implicit_servo is ODE's, Bullet's and DART's and has no effect with MuJoCo"* ]]
		fi
	esac
	# On the way, within 2e-3 of the continuous motion (0.459 rad at
	# 0.25 s); MuJoCo's integrator takes only the damping implicitly,
	# and follows libmujoco (mjcf-print.bats).
	[ "$1" = mujoco ] ||
	    near "$(axis "$TMP/$1" 0.25 position)" "$(continuous 1e5 1e4 0.25)" 2e-3
}
@test "a servo too stiff for a force held over the step (kd h / I = 38): with implicit_servo every engine takes it into the step and holds the arm where kp (target - q) = m g l sin q; without, ODE says so at the first step" {
	each_engine stiff
	# Without implicit_servo, ODE holds the force over the step, as
	# gz-sim does, and its effort chatters between its limits: said
	# once, before, with the damping's share and what takes it into the
	# step (not said again as a chatter)
	drive ode 0.1 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" \
	    -s "$J/position_pid.p_gain=1e5" -s "$J/position_pid.d_gain=1e4" \
	    -s "$J/position_pid.i_gain=0"
	[ "$(grep -c "joint '$J': its servo is too stiff for ODE to hold its force over the step, as gz-sim does, and may shake the joint: its servo's damping over a step, d + p h = 10100, is 38.1 times I / h on link 'arm::bob' .*implicit_servo=true takes it into the step" "$TMP/ode.err")" -eq 1 ]
	grep -c "servo" "$TMP/ode.err" | grep -qx 1
	# MuJoCo's Euler integrator holds it over the step: said, with the
	# ratio (h D I^-1, D = kd + kp h) and the integrator that takes it
	engines | grep -qx mujoco || return 0
	drive mujoco 0.01 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" \
	    -s "$J/position_pid.p_gain=1e5" -s "$J/position_pid.d_gain=1e4" \
	    -s "$J/position_pid.i_gain=0"
	grep -q "joint '$J': its servo's damping over a step, d + p h = 10100, is 38.8 times I / h .*MuJoCo's Euler integrator .*(mujoco.integrator=implicit)" "$TMP/mujoco.err"
}
# applied_step ENGINE: the stiff servo taken into the step (implicit_servo,
# MuJoCo's implicit integrator) bringing the arm up, read at every step:
# its applied_effort is the force that moved the arm over the step,
# I (v' - v) / h + m g l sin q (q, v at the step's start), to 2e-3 N m
# of some 10; the force at the step's start would be kd times the
# rate's noise (25 against 1000 N m under MuJoCo at 20 ms).
applied_step() {
	phys-step -q -p "$1" -t 0.06 -r 1000 -c <(echo "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}") \
	    -i "$J/*" -s "$J/position_pid.p_gain=1e5" -s "$J/position_pid.d_gain=1e4" \
	    -s "$J/position_pid.i_gain=0" -s "$J/implicit_servo=true" \
	    -s ode.solver.iters=1000 -s bullet.solver.iters=1000 \
	    -s mujoco.integrator=implicit "$W" 2> /dev/null |
	    jq -r --arg j "$J" '[.t, .items[$j + "/position"][0], .items[$j + "/velocity"][0], .items[$j + "/applied_effort"][0]] | @tsv' |
	    awk 'NR > 1 && ($1 > 0.015 && $1 < 0.025 || $1 > 0.045) { f = ($3 - v) * 0.26 / 0.001 + 4.905 * sin(q); n++
		if ($4 - f > 2e-3 || f - $4 > 2e-3) { printf "at %s: applied %s, moved by %.6f\n", $1, $4, f; bad = 1 } }
		{ q = $2; v = $3 } END { exit bad || n < 15 }'
}
@test "a stiff servo taken into the step reports as applied_effort the force that moved the joint over the step, under ODE, Bullet, DART and MuJoCo's implicit integrator" {
	each_engine_of "ode bullet dart mujoco" applied_step
}
@test "MuJoCo switched from its implicit integrator to Euler mid-run: applied_effort is the force that moved the arm over each step, before and after" {
	engines | grep -qx mujoco || skip "no MuJoCo"
	printf '%s\n' "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" \
	    '{"t":0.03,"name":"mujoco.integrator","value":"Euler"}' > "$TMP/ctl"
	phys-step -q -p mujoco -t 0.04 -r 1000 -c "$TMP/ctl" -i "$J/*" \
	    -s "$J/position_pid.p_gain=100" -s "$J/position_pid.d_gain=10" \
	    -s "$J/position_pid.i_gain=0" -s mujoco.integrator=implicit "$W" |
	    jq -r --arg j "$J" '[.t, .items[$j + "/position"][0], .items[$j + "/velocity"][0], .items[$j + "/applied_effort"][0]] | @tsv' |
	    awk 'NR > 1 && $1 > 0.02 { f = ($3 - v) * 0.26 / 0.001 + 4.905 * sin(q); n++
		if ($4 - f > 1e-6 || f - $4 > 1e-6) { printf "at %s: applied %s, moved by %.9f\n", $1, $4, f; bad = 1 } }
		{ q = $2; v = $3 } END { exit bad || n < 15 }'
}
# chattering FILE: the joints whose efforts in FILE (state lines of each
# step's applied_effort) go from one end of their range (the largest
# effort the joint applies) to the other 20 steps in a row.
chattering() {
	jq -r '.items | to_entries[] | "\(.key) \(.value[0])"' "$1" |
	    awk '{ sub("/applied_effort", "", $1)
		n[$1]++; v[$1, n[$1]] = $2; a = $2 < 0 ? -$2 : $2
		if (a > top[$1]) top[$1] = a }
	    END { for (j in n) { f = 0; was = 0
		for (i = 1; i <= n[j]; i++) { x = v[j, i]
			end = x == top[j] || x == -top[j]
			f = end && was && x != v[j, i - 1] ? f + 1 : 0
			if (f == 20) { print j; break }
			was = end } } }' | sort
}

@test "servos too stiff for ODE's step are named at their first step, in one line; every joint that chatters is named once, there or after; implicit_servo on them stops theirs" {
	# The quadruped crouching under an 80/2 PD at 8 ms (the README's),
	# its efforts read at every step
	local q=quadruped::
	for leg in FR FL RR RL; do
		for j in hip:0 thigh:0.8 calf:-1.5; do
			echo "{\"t\":0,\"name\":\"$q${leg}_${j%:*}_joint/cmd_pos\",\"value\":${j#*:}}"
		done
	done > "$TMP/stand"
	printf '{"t":0,"name":"quadruped::*_joint/position_pid.%s","value":%s}\n' \
	    p_gain 80 d_gain 2 i_gain 0 >> "$TMP/stand"
	phys-step -p ode -s max_step_size=0.008 -t 2 -r 125 -c "$TMP/stand" \
	    -i "$q*_joint/applied_effort" "$WORLDS/quadruped.sdf" \
	    > "$TMP/out" 2> "$TMP/err"
	chattering "$TMP/out" > "$TMP/chatter"
	[ "$(wc -l < "$TMP/chatter")" -ge 3 ]
	# one line at the first step, with the stiffest's d + p h
	grep "too stiff for ODE to hold" "$TMP/err" > "$TMP/stiff"
	[ "$(wc -l < "$TMP/stiff")" -eq 1 ]
	grep -q "d + p h = 2.64, is [0-9.]* times I / h" "$TMP/stiff"
	sed 's/: their servos.*//' "$TMP/stiff" | grep -o "'[^']*'" | tr -d "'" | sort > "$TMP/s"
	grep "gone from one end of" "$TMP/err" | sed 's/: \(its\|their\) servo.*//' |
	    grep -o "'[^']*'" | tr -d "'" | sort > "$TMP/c"
	# each named once; every joint that chatters among them
	[ -z "$(comm -12 "$TMP/s" "$TMP/c")" ]
	[ -z "$(sort -u "$TMP/s" "$TMP/c" | comm -13 - "$TMP/chatter")" ]
	# with implicit_servo on the joints named stiff, none of them chatters
	phys-step -q -p ode -s max_step_size=0.008 -t 2 -r 125 -c "$TMP/stand" \
	    $(sed 's|.*|-s &/implicit_servo=true|' "$TMP/s") \
	    -i "$q*_joint/applied_effort" "$WORLDS/quadruped.sdf" > "$TMP/out2"
	[ -z "$(chattering "$TMP/out2" | comm -12 - "$TMP/s")" ]
}

critical() {
	# No gravity: I q'' = -kp (q - 1) - kd q', kd = 2 sqrt(kp I): critically
	# damped, q = 1 - (1 + w t) e^(-w t), w = sqrt(kp / I), never past 1.
	# The PD acts on each step's start (w h = 0.02): the fixed-step
	# engines lag the continuous curve by under 1% of the step.
	drive "$1" 1 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":1}" \
	    -s 'gravity=0 0 0' -s "$J/position_pid.p_gain=100" \
	    -s "$J/position_pid.d_gain=$(awk 'BEGIN { printf "%.12f", 2 * sqrt(26) }')" \
	    -s "$J/position_pid.i_gain=0"
	local t
	for t in 0.1 0.2 0.4; do
		near "$(axis "$TMP/$1" $t position)" \
		    "$(awk -v t=$t 'BEGIN { w = sqrt(100 / 0.26); print 1 - (1 + w * t) * exp(-w * t) }')" 5e-3
	done
	local top=$(jq -r --arg i "$J/position" '.items[$i][0]' "$TMP/$1" | sort -g | tail -1)
	near "$top" 1 1e-3
	awk -v q="$top" 'BEGIN { exit !(q <= 1 + 1e-6) }'
}
@test "cmd_pos, critically damped step: q = 1 - (1 + w t) e^(-w t) to 5e-3, no overshoot, under each engine" {
	each_engine critical
}

saturate() {
	# A velocity command whose PID asks more than the 0.5 N m limit: the
	# arm turns at tau / I until it reaches 2 rad/s, then holds it.
	drive "$1" 2 "{\"t\":0,\"name\":\"$J/cmd_vel\",\"value\":2}" \
	    -s 'gravity=0 0 0' -s "$J/axis.limit.effort=0.5" \
	    -s "$J/velocity_pid.p_gain=100"
	near "$(axis "$TMP/$1" 0.5 velocity)" "$(awk 'BEGIN { print 0.5 / 0.26 * 0.5 }')" 1e-5
	near "$(axis "$TMP/$1" 0.5 applied_effort)" 0.5 0
	awk -v f="$(axis "$TMP/$1" 0.5 cmd_effort)" 'BEGIN { exit !(f > 100) }'
	near "$(axis "$TMP/$1" 2 velocity)" 2 1e-6
}
@test "cmd_vel under an effort limit: tau / I until the target, then the target, under each engine" {
	each_engine saturate
}

speed_limit() {
	# The speed limit bounds what a velocity command asks.
	drive "$1" 1 "{\"t\":0,\"name\":\"$J/cmd_vel\",\"value\":5}" \
	    -s 'gravity=0 0 0' -s "$J/axis.limit.velocity=1.5" \
	    -s "$J/velocity_pid.p_gain=100"
	near "$(axis "$TMP/$1" 1 velocity)" 1.5 1e-6
}
@test "cmd_vel beyond axis.limit.velocity runs at the limit, under each engine" {
	each_engine speed_limit
	! grep -q 'no effect' "$TMP/ode.err" || false
}

damped_rotor() {
	# ApplyJointForce's case: a held effort on a damped rotor,
	# w(t) = tau / b (1 - e^(-b t / I)).
	drive "$1" 1 "{\"t\":0,\"name\":\"$J/cmd_force\",\"value\":0.2}" \
	    -s 'gravity=0 0 0' -s "$J/axis.dynamics.damping=0.5"
	local t
	for t in 0.25 1; do
		near "$(axis "$TMP/$1" $t velocity)" \
		    "$(awk -v t=$t 'BEGIN { print 0.2 / 0.5 * (1 - exp(-0.5 * t / 0.26)) }')" 1e-3
	done
	near "$(axis "$TMP/$1" 1 applied_effort)" 0.2 0
}
@test "cmd_force on a damped rotor: w = tau / b (1 - e^(-b t / I)) to 1e-3, under each engine" {
	each_engine damped_rotor
}

weak() {
	# Asked to lift the arm level, a motor of 2 N m (less than m g l)
	# stops where gravity's torque equals it: asin(tau / (m g l)).
	# Saturated, the PID's damping is gone: the joint's own settles it.
	drive "$1" 4 "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":1.5707963}" \
	    -s "$J/axis.limit.effort=2" -s "$J/position_pid.p_gain=1000" \
	    -s "$J/position_pid.d_gain=50" -s "$J/axis.dynamics.damping=2"
	near "$(axis "$TMP/$1" 4 position)" "$(awk 'BEGIN { x = 2 / 4.905; print atan2(x, sqrt(1 - x * x)) }')" 1e-5
}
@test "an effort limit too weak for the load: the arm rests at asin(tau_max / (m g l)), under each engine" {
	each_engine weak
}

@test "a command stays in force across engine switches: held at the same rest under each engine in turn" {
	local t=0 p lines=
	for p in bullet mujoco simbody dart ode; do
		t=$((t + 1))
		lines="$lines{\"t\":$t,\"preset\":\"$p\"}"$'\n'
	done
	printf '%s\n%s' "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" "$lines" > "$TMP/ctl"
	phys-step -t 5.9 -r 10 -c "$TMP/ctl" -i "$J/position" \
	    -s "$J/position_pid.p_gain=100" -s "$J/position_pid.d_gain=10" \
	    -s "$J/position_pid.i_gain=0" "$W" > "$TMP/o"
	local q=$(awk 'BEGIN { q = 0.5; for (i = 0; i < 200; i++)
	    q = 0.5 - 4.905 * sin(q) / 100; printf "%.12f", q }')
	for t in 0.9 1.9 2.9 3.9 4.9 5.9; do
		near "$(jq -r --argjson t $t --arg i "$J/position" 'select(.t == $t) | .items[$i][0]' "$TMP/o")" "$q" 1e-5
	done
}

universal() {
	echo "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":[0.3,-0.2]}" > "$TMP/ctl"
	phys-step -p "$1" -t 4 -r 1 -c "$TMP/ctl" -s 'gravity=0 0 0' -i "$J/position" \
	    -s "$J/position_pid.p_gain=50" -s "$J/position_pid.d_gain=5" "$TMP/u.sdf" > "$TMP/o"
	near "$(jq -r --arg i "$J/position" 'select(.t == 4) | .items[$i][0]' "$TMP/o")" 0.3 1e-4
	near "$(jq -r --arg i "$J/position" 'select(.t == 4) | .items[$i][1]' "$TMP/o")" -0.2 1e-4
}
@test "a two-axis command: a universal joint's axes each follow their own target, under each engine" {
	sed -e 's/type="revolute"/type="universal"/' \
	    -e 's|</axis>|</axis><axis2><xyz>0 1 0</xyz></axis2>|' "$W" > "$TMP/u.sdf"
	each_engine universal
}

@test "bad commands: the wrong count, not a number, a joint without axes, an unknown joint; each with file:line" {
	echo "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":[1,2]}" > "$TMP/c1"
	run phys-step -c "$TMP/c1" "$W"
	assert_failure 1
	assert_output --partial "c1:1: $J/cmd_pos: expected a number for the joint's 1 axis"
	echo "{\"t\":0,\"name\":\"$J/cmd_vel\",\"value\":\"nan\"}" > "$TMP/c2"
	run phys-step -c "$TMP/c2" "$W"
	assert_failure 1
	assert_output --partial "c2:1: $J/cmd_vel: expected a number"
	sed 's/type="revolute"/type="ball"/' "$W" > "$TMP/b.sdf"
	echo "{\"t\":0,\"name\":\"$J/cmd_force\",\"value\":1}" > "$TMP/c3"
	run phys-step -c "$TMP/c3" "$TMP/b.sdf"
	assert_failure 1
	assert_output --partial "c3:1: $J/cmd_force: joint '$J' has no axis phys can command"
	echo '{"t":0,"name":"arm::elbow/cmd_pos","value":1}' > "$TMP/c4"
	run phys-step -c "$TMP/c4" "$W"
	assert_failure 1
	assert_output --partial "c4:1:"
	assert_output --partial "elbow"
}

@test "the PID gains are a run's: set with -s and control lines; a file edit is refused, naming the parameter" {
	run phys-param set "$J/position_pid.p_gain=10" "$W"
	assert_failure 1
	assert_output --partial "position_pid.p_gain: a run's own parameter"
	phys-param list --doc > "$TMP/doc"
	jq -se 'map(select(.name == "position_pid.p_gain"))[0] | .default == 1 and .units == "N m/rad or N/m" and .mujoco == "emulated"' "$TMP/doc"
	# the limits act now, under every engine
	jq -se 'map(select(.name == "axis.limit.effort" or .name == "axis2.limit.velocity")) | length == 2 and all(.ode == "emulated" and .bullet == "emulated" and .mujoco == "emulated" and .simbody == "emulated" and .dart == "emulated")' "$TMP/doc"
}

# two.sdf: the arm with a forearm, 0.5 kg 0.5 m below an elbow on the bob.
two_links() {
	awk '/<\/model>/ { print "<link name=\"fore\"><pose>0 0 1.0 0 0 0</pose><inertial><mass>0.5</mass><inertia><ixx>0.005</ixx><iyy>0.005</iyy><izz>0.005</izz></inertia></inertial><collision name=\"c\"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link>"
	    print "<joint name=\"elbow\" type=\"revolute\"><parent>bob</parent><child>fore</child><pose>0 0 0.5 0 0 0</pose><axis><xyz>1 0 0</xyz></axis></joint>" }
	    { print }' "$W" > "$TMP/two.sdf"
}

start_pose() {
	phys-step -p "$1" -n 0 -c "$TMP/ctl" -s 'gravity=0 0 0' -i 'arm::*/position' \
	    -i 'arm::*/velocity' -i 'arm::fore/pose' -i 'arm::fore/linear_vel' "$TMP/two.sdf" > "$TMP/o"
	local it='.items'
	near "$(jq -r "$it[\"arm::shoulder/position\"][0]" "$TMP/o")" 0.5 1e-12
	near "$(jq -r "$it[\"arm::elbow/position\"][0]" "$TMP/o")" 0.3 1e-12
	near "$(jq -r "$it[\"arm::elbow/velocity\"][0]" "$TMP/o")" 1 1e-12
	near "$(jq -r "$it[\"arm::shoulder/velocity\"][0]" "$TMP/o")" 0 1e-12
	# the forearm's centre: 0.5 m along each link, at 0.5 and 0.8 rad
	near "$(jq -r "$it[\"arm::fore/pose\"].y" "$TMP/o")" "$(awk 'BEGIN { printf "%.15g", 0.5 * sin(0.5) + 0.5 * sin(0.8) }')" 1e-12
	near "$(jq -r "$it[\"arm::fore/pose\"].z" "$TMP/o")" "$(awk 'BEGIN { printf "%.15g", 2 - 0.5 * cos(0.5) - 0.5 * cos(0.8) }')" 1e-12
	near "$(jq -r "$it[\"arm::fore/pose\"].roll" "$TMP/o")" 0.8 1e-12
	# turning at 1 rad/s about the elbow: 0.5 m/s across the forearm
	near "$(jq -r "$it[\"arm::fore/linear_vel\"].y" "$TMP/o")" "$(awk 'BEGIN { printf "%.15g", 0.5 * cos(0.8) }')" 1e-9
}
@test "joint positions and rates set like link poses: the links beyond each joint move with it, under each engine" {
	two_links
	printf '%s\n' '{"t":0,"name":"arm::shoulder/position","value":0.5}' \
	    '{"t":0,"name":"arm::elbow/position","value":0.3}' \
	    '{"t":0,"name":"arm::elbow/velocity","value":1}' > "$TMP/ctl"
	each_engine start_pose
}

@test "a joint that starts outside its limits is warned about with the joint's file:line; set inside at t=0, it is not" {
	sed 's|<xyz>1 0 0</xyz>|<xyz>1 0 0</xyz><limit><lower>0.2</lower><upper>1.2</upper></limit>|' "$W" > "$TMP/lim.sdf"
	run phys-step -n 1 "$TMP/lim.sdf"
	assert_success
	assert_output --partial "lim.sdf:45: joint 'arm::shoulder' starts at 0 rad on its first axis, outside its limits [0.2, 1.2]: it starts at 0.2 instead"
	# a universal joint's axes cannot be set: its engine's stop acts
	sed -e 's|type="revolute"|type="universal"|' \
	    -e 's|</axis>|</axis><axis2><xyz>0 1 0</xyz></axis2>|' "$TMP/lim.sdf" > "$TMP/lim2.sdf"
	run phys-step -n 1 "$TMP/lim2.sdf"
	assert_success
	assert_output --partial "lim2.sdf:45: joint 'arm::shoulder' starts at 0 rad on its first axis, outside its limits [0.2, 1.2]: its position cannot be set (two axes); each engine's stop pushes it back its own way"
	echo '{"t":0,"name":"arm::shoulder/position","value":0.5}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" "$TMP/lim.sdf"
	assert_success
	refute_output --partial "outside its limits"
	run phys-step -q -n 1 "$TMP/lim.sdf"
	refute_output --partial "outside its limits"
}

@test "a joint's position that cannot be set alone is refused: a ball joint, a joint inside a loop" {
	sed 's/type="revolute"/type="ball"/' "$W" > "$TMP/b.sdf"
	echo '{"t":0,"name":"arm::shoulder/position","value":0.5}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" "$TMP/b.sdf"
	assert_failure 1
	assert_output --partial "ctl:1:"
	echo '{"t":0,"name":"fourbar::crank_pivot/position","value":0.5}' > "$TMP/ctl"
	run phys-step -n 1 -c "$TMP/ctl" "$WORLDS/fourbar.sdf"
	assert_failure 1
	assert_output --partial "ctl:1: joint 'fourbar::crank_pivot': its links form a loop with its parent"
}

@test "a sweep of gains and physics together, scored on the controller's outcome: a comparison over a window of time" {
	cd "$TMP"
	echo "{\"t\":0,\"name\":\"$J/cmd_pos\",\"value\":0.5}" > ctl
	phys-sweep plan -t 6 -r 20 -c ctl -i "$J/*" -s "$J/position_pid.d_gain=10" \
	    -s "$J/position_pid.i_gain=0" "$W" "$J/position_pid.p_gain=20,50,200" \
	    'gravity=0 0 -9.81,0 0 -3' > plan.jsonl
	phys-sweep run -q -j 2 plan.jsonl
	# the steady error, -m g l sin q / kp, for each pair
	phys-sweep score "final:$J/tracking_error.0" plan.jsonl > err.jsonl
	jq -r '[.set["arm::shoulder/position_pid.p_gain"], (.set.gravity | split(" ")[2]), .score] | @tsv' err.jsonl |
	    while read -r kp g e; do
		near "$e" "$(awk -v kp=$kp -v g=$g 'BEGIN { q = 0.5; for (i = 0; i < 500; i++)
		    q = 0.5 + g * 0.5 * sin(q) / kp; printf "%.12f", q - 0.5 }')" 1e-5
	    done
	# held above 0.45 rad from 5 s to 6 s: all but the softest under full gravity
	phys-sweep score "min:$J/position.0 > 0.45 @5:6" plan.jsonl > held.jsonl
	jq -r '[.set["arm::shoulder/position_pid.p_gain"], (.set.gravity | split(" ")[2]), .score] | @tsv' held.jsonl > held.tsv
	[ "$(awk '$3 == 1' held.tsv | wc -l)" -eq 5 ]
	grep -q '^20	-9.81	0$' held.tsv
	grep -q '^200	-9.81	1$' held.tsv
	# the share of lines a comparison holds in
	phys-sweep score "mean:$J/position.0 > 0.45 @5:6" plan.jsonl > mean.jsonl
	[ "$(jq -s 'map(.score) | sort | .[0]' mean.jsonl)" = 0 ]
	run phys-sweep score "min:$J/position.0 > 0.45 @6:5" plan.jsonl
	assert_failure 2
	assert_output --partial "FROM <= TO"
	run phys-sweep score "min:$J/position.0 > 0.4 > 0.3" plan.jsonl
	assert_failure 2
	assert_output --partial "one comparison at most"
}

@test "comparisons in derived values: 1 or 0, with no unit" {
	phys-step -t 0.5 -r 10 -i 'arm::bob/pose' "$W" |
	    phys-introspect derive 'low=arm::bob/pose.z < 1.4999' > "$TMP/o"
	[ "$(jq -r '.items.low' "$TMP/o" | sort -u | tr '\n' ' ')" = "0 " ]
	[ "$(jq -c '.units // {}' "$TMP/o" | sort -u)" = '{}' ]
	phys-step -t 1 -r 10 -s 'arm::shoulder/axis.dynamics.damping=0' \
	    -c <(echo '{"t":0,"name":"arm::shoulder/position","value":0.3}') -i 'arm::shoulder/position' "$W" |
	    phys-introspect derive --csv 'out=arm::shoulder/position.0 >= 0' > "$TMP/c"
	grep -q ',1$' "$TMP/c"
	grep -q ',0$' "$TMP/c"
}

@test "a control line names many joints' gains by a pattern, as -s does; a pattern naming none is refused with its line" {
	two_links
	printf '%s\n' '{"t":0,"name":"arm::*/position_pid.p_gain","value":300}' \
	    '{"t":0,"name":"arm::*/position_pid.d_gain","value":30}' \
	    '{"t":0,"name":"arm::shoulder/cmd_pos","value":0.4}' \
	    '{"t":0,"name":"arm::elbow/cmd_pos","value":-0.3}' > "$TMP/ctl"
	phys-step -t 4 -r 1 -c "$TMP/ctl" -s 'gravity=0 0 0' -i 'arm::*/position' "$TMP/two.sdf" > "$TMP/o"
	near "$(jq -r 'select(.t == 4) | .items["arm::shoulder/position"][0]' "$TMP/o")" 0.4 1e-4
	near "$(jq -r 'select(.t == 4) | .items["arm::elbow/position"][0]' "$TMP/o")" -0.3 1e-4
	echo '{"t":0,"name":"leg::*/position_pid.p_gain","value":300}' > "$TMP/bad"
	run phys-step -c "$TMP/bad" "$TMP/two.sdf"
	assert_failure 1
	assert_output --partial "bad:1: no parameter matches 'leg::*/position_pid.p_gain'"
}

lift() {
	# A 1 kg block on a vertical slider, its servo (kp 1e5, kd 1e4: kd h
	# / m = 10) within an output range of [-5, 20] N: at rest where kp
	# (target - x) = m g; past the range, the range's end, so the block
	# rises at 20 / 1 - g and falls at -5 / 1 - g (to h's order: 5e-4 at
	# 0.05 s). With implicit_servo, ODE's and Bullet's rows hold the
	# range's middle as an effort and the rest within a symmetric one.
	cat > "$TMP/lift.sdf" <<-SDF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
	<physics name="$1" type="$1"><max_step_size>0.001</max_step_size></physics>
	<model name="lift">
	<link name="block"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass>
	<inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
	<joint name="slide" type="prismatic"><parent>world</parent><child>block</child>
	<axis><xyz>0 0 1</xyz></axis></joint>
	</model></world></sdf>
	SDF
	printf '%s\n' '{"t":0,"name":"lift::slide/cmd_pos","value":0.1}' \
	    '{"t":2,"name":"lift::slide/cmd_pos","value":0.5}' \
	    '{"t":4,"name":"lift::slide/cmd_pos","value":-0.5}' > "$TMP/ctl"
	local s=lift::slide/position_pid
	phys-step -t 4.05 -r 20 -c "$TMP/ctl" -i 'lift::slide/position' -i 'lift::slide/applied_effort' \
	    -s $s.p_gain=1e5 -s $s.d_gain=1e4 -s $s.i_gain=0 -s $s.cmd_max=20 \
	    -s $s.cmd_min=-5 -s lift::slide/implicit_servo=true \
	    -s ode.solver.iters=1000 -s bullet.solver.iters=1000 \
	    "$TMP/lift.sdf" > "$TMP/$1"
	local x=lift::slide/position f=lift::slide/applied_effort
	near "$(at "$TMP/$1" 2 $x 0)" "$(awk 'BEGIN { printf "%.12f", 0.1 - 9.81e-5 }')" 1e-7
	near "$(at "$TMP/$1" 2.05 $x 0)" "$(awk 'BEGIN { printf "%.12f", 0.1 - 9.81e-5 + (20 - 9.81) / 2 * 0.05^2 }')" 5e-4
	near "$(at "$TMP/$1" 4 $x 0)" "$(awk 'BEGIN { printf "%.12f", 0.5 - 9.81e-5 }')" 1e-7
	near "$(at "$TMP/$1" 4.05 $x 0)" "$(awk 'BEGIN { printf "%.12f", 0.5 - 9.81e-5 + (-5 - 9.81) / 2 * 0.05^2 }')" 5e-4
	# the effort applied: m g at rest, the range's ends past it
	near "$(at "$TMP/$1" 2 $f 0)" 9.81 1e-6
	near "$(at "$TMP/$1" 2.05 $f 0)" 20 1e-6
	near "$(at "$TMP/$1" 4.05 $f 0)" -5 1e-6
}
@test "implicit_servo, a stiff servo on a slider within an uneven output range: at rest where kp (target - x) = m g, at the range's ends past it, under ODE, Bullet and DART" {
	each_engine_of "ode bullet dart" lift
}

@test "a stiff servo on a universal joint, which ODE holds as a force over the step, diverges with its damping named as the likely cause" {
	# kd h / I = 200 * 0.002 / 0.0015 = 267 (I at most half the trace,
	# 0.0015); no effort limit, no output range
	cat > "$TMP/cross.sdf" <<-SDF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
	<physics name="ode" type="ode"><max_step_size>0.002</max_step_size></physics>
	<model name="m">
	<link name="link"><pose>0 0 1 0 0 0</pose><inertial><mass>1.2</mass>
	<inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial></link>
	<joint name="cross" type="universal"><parent>world</parent><child>link</child>
	<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
	</model></world></sdf>
	SDF
	echo '{"t":0,"name":"m::cross/cmd_pos","value":[0.5,0.2]}' > "$TMP/ctl"
	local s=m::cross/position_pid
	run -1 --separate-stderr phys-step -q -t 0.5 -c "$TMP/ctl" -s $s.p_gain=2000 \
	    -s $s.d_gain=200 -s $s.i_gain=0 -s $s.cmd_max=1e9 -s $s.cmd_min=-1e9 \
	    -s m::cross/axis.limit.effort=-1 -s m::cross/axis2.limit.effort=-1 "$TMP/cross.sdf"
	[[ "$stderr" == *"joint 'm::cross': an effort of "*"; likely cause: its servo's damping over a step, d + p h = 204, is 272 times I / h on link 'm::link' (I, its inertia about the joint, at most 0.0015)"* ]]
	# implicit_servo does not take a universal joint's servo into the
	# step: said at the first step all the same
	run -1 --separate-stderr phys-step -t 0.5 -c "$TMP/ctl" -s $s.p_gain=2000 \
	    -s $s.d_gain=200 -s $s.i_gain=0 -s $s.cmd_max=1e9 -s $s.cmd_min=-1e9 \
	    -s m::cross/implicit_servo=true \
	    -s m::cross/axis.limit.effort=-1 -s m::cross/axis2.limit.effort=-1 "$TMP/cross.sdf"
	[[ "$stderr" == *"joint 'm::cross': its servo is too stiff for ODE to hold its force over the step"* ]]
}

spin() {
	# A velocity servo (p 1e4 on I = 0.26: p h / I = 38) told 5 rad/s
	# within the arm's 1000 N m limit: tau / I = 3846 rad/s^2 for the
	# 1.3 ms it takes, then 5 rad/s, so 15 - 5^2 / (2 tau / I) rad at 3 s
	# (to a step's share, 3e-3). Held at its limit over a step, the rate
	# would jump 3.8 rad/s either side of 5 at every step.
	echo "{\"t\":0,\"name\":\"$J/cmd_vel\",\"value\":5}" > "$TMP/ctl"
	phys-step -q -p "$1" -t 3 -r 1 -c "$TMP/ctl" -i "$J/*" -s 'gravity=0 0 0' \
	    -s "$J/velocity_pid.p_gain=1e4" -s "$J/velocity_pid.i_gain=0" \
	    -s "$J/velocity_pid.d_gain=0" -s "$J/implicit_servo=true" \
	    -s ode.solver.iters=200 -s bullet.solver.iters=200 "$W" > "$TMP/$1"
	near "$(axis "$TMP/$1" 3 velocity)" 5 1e-6
	near "$(axis "$TMP/$1" 3 position)" "$(awk 'BEGIN { printf "%.9f", 15 - 25 / (2 * 1000 / 0.26) }')" 3e-3
}
@test "implicit_servo, a stiff velocity servo within its effort limit: tau / I to its target, then the target, under ODE, Bullet and DART" {
	each_engine_of "ode bullet dart" spin
}

@test "implicit_servo on a robot standing on its foot: an ankle servo at its effort limit, its load through the foot's contact, stays within the limit and holds the pole up, under every engine as under MuJoCo" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/ankle.xml" p
	for p in mujoco ode bullet dart simbody; do
		run -0 phys-step -q -p $p -t 1 -e 1 --keyframe k -i 'ank::ankle/position' -i 'ank::ankle/applied_effort' "$src"
		echo "$p: $(tail -1 <<< "$output" | jq -c .items)"
		# upright within 0.01 rad after 1 s (MuJoCo: 6e-4)
		near "$(tail -1 <<< "$output" | jq '.items["ank::ankle/position"][0]')" 0 0.01
		# DART's spring pushed 786 N m at a 20 N m limit, and the pole fell
		# (MuJoCo's applied_effort holds its implicit damping's share)
		[ $p = mujoco ] || jq -r '.items["ank::ankle/applied_effort"][0]' <<< "$output" |
		    awk '{ a = $1 < 0 ? -$1 : $1; if (a > 20 + 1e-9) { print "effort " $1; exit 1 } }'
	done
}
