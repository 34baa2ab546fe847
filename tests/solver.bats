#!/usr/bin/env bats
# ODE's two solvers against closed forms on box-plane friction, where a
# box's four coplanar contacts make the contact problem redundant; a
# joint that ODE's and Bullet's iterative solvers let open, said; links
# welded to the world held still, their welds carrying their loads.

load helper
bats_require_minimum_version 1.5.0

# box_incline DEG MU: a 1 kg, 0.2 m cube resting on a plane tilted DEG about y
# (downhill is +x), both surfaces with friction coefficient MU.
box_incline() {
	awk -v deg="$1" -v mu="$2" 'BEGIN {
		th = deg * atan2(0, -1) / 180; s = sin(th); c = cos(th)
		fr = "<surface><friction><ode><mu>" mu "</mu><mu2>" mu "</mu2></ode></friction></surface>"
		print "<?xml version=\"1.0\"?>"
		print "<sdf version=\"1.7\"><world name=\"incline\"><gravity>0 0 -9.81</gravity>"
		print "<physics name=\"p\" type=\"ode\"><max_step_size>0.001</max_step_size>"
		print "<ode><solver><type>quick</type><iters>50</iters></solver></ode></physics>"
		printf "<model name=\"ground\"><static>true</static><link name=\"link\"><collision name=\"c\">"
		printf "<geometry><plane><normal>%.17g 0 %.17g</normal></plane></geometry>%s", s, c, fr
		print "</collision></link></model>"
		printf "<model name=\"box\"><pose>%.17g 0 %.17g 0 %.17g 0</pose><link name=\"link\">", 0.1 * s, 0.1 * c, th
		printf "<inertial><mass>1</mass><inertia><ixx>0.006666666666666667</ixx>"
		printf "<iyy>0.006666666666666667</iyy><izz>0.006666666666666667</izz></inertia></inertial>"
		printf "<collision name=\"c\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry>%s", fr
		print "</collision></link></model></world></sdf>" }'
}

# slope SOLVER DEG: distance slid down the slope in 1 s, from rest.
slope() {
	box_incline "$2" 0.5 > "$TMP/incline.sdf"
	phys-step -s ode.solver.type="$1" -t 1 -e 1000 -i 'box::link/pose' \
	    "$TMP/incline.sdf" 2> "$TMP/err" | tail -1 |
	    jq -r '.items["box::link/pose"] | [.x, .z] | @tsv' |
	    awk -v d="$2" '{ th = d * atan2(0, -1) / 180
		printf "%.9g\n", ($1 - 0.1 * sin(th)) * cos(th) - ($2 - 0.1 * cos(th)) * sin(th) }'
}

# a t^2 / 2 at t = 1 with a = g (sin - mu cos), mu = 0.5
slope_closed() {
	awk -v d="$1" 'BEGIN { th = d * atan2(0, -1) / 180
		printf "%.9g\n", 9.81 * (sin(th) - 0.5 * cos(th)) / 2 }'
}

# slide SOLVER: distance the sliding_box cube slides from 2 m/s.
slide() {
	echo '{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -p pyramid -s ode.solver.type="$1" -t 1.5 -e 1500 -c "$TMP/ctl" \
	    -i 'box::link/pose' "$WORLDS/sliding_box.sdf" 2> "$TMP/err" |
	    tail -1 | jq -r '.items["box::link/pose"].x'
}

@test "quick: a box given 2 m/s slides v^2 / (2 mu g) within 0.3%" {
	rel "$(slide quick)" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.003
}

@test "world: a box given 2 m/s slides v^2 / (2 mu g) within 2% (was 29% off)" {
	rel "$(slide world)" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.02
}

@test "quick: a box on 35 and 50 degree inclines (mu 0.5) moves g (sin - mu cos) t^2 / 2 within 0.3%" {
	for deg in 35 50; do
		rel "$(slope quick $deg)" "$(slope_closed $deg)" 0.003
	done
}

@test "quick: a box on a 20 degree incline, below the friction angle, stays put" {
	near "$(slope quick 20)" 0 1e-4
}

@test "world: a box on a 50 degree incline moves g (sin - mu cos) t^2 / 2 within 2% (was 5.6% off)" {
	rel "$(slope world 50)" "$(slope_closed 50)" 0.02
}

@test "world: a step Dantzig gives up on (a box's redundant contacts) is taken by the quick solver, said once" {
	s=$(slope world 35)
	# within 0.5% of the closed form (0.25% measured; Dantzig's forces
	# where it stopped left the box 3.2% off)
	rel "$s" "$(slope_closed 35)" 0.005
	run grep -c "world solver gave up on a step's contacts" "$TMP/err"
	assert_output 1
	run grep -c "ODE Message" "$TMP/err"
	assert_output 0
}

# hanging TYPE PHYSICS: a 1 kg, 0.1 m cube at z = 1 held to the world by a
# TYPE joint at its centre (a prismatic one along z, its lower stop at the
# start), PHYSICS being the joint's <physics><ode> content.
hanging() {
	cat <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="hanging"><gravity>0 0 -9.81</gravity>
<physics name="p" type="ode"><max_step_size>0.001</max_step_size>
<ode><solver><type>world</type></solver></ode></physics>
<model name="m"><pose>0 0 1 0 0 0</pose>
<link name="box"><inertial><mass>1</mass><inertia><ixx>0.0016666666666666668</ixx>
<iyy>0.0016666666666666668</iyy><izz>0.0016666666666666668</izz></inertia></inertial></link>
<joint name="j" type="$1"><parent>world</parent><child>box</child>
<axis><xyz>0 0 1</xyz><limit><lower>0</lower><upper>1</upper></limit></axis>
<physics><ode>$2</ode></physics></joint>
</model></world></sdf>
SDF
}

# sag TYPE PHYSICS: how far below its start the cube rests after 3 s.
sag() {
	hanging "$1" "$2" > "$TMP/hanging.sdf"
	phys-step -t 3 -e 3000 -i 'm::box/pose' "$TMP/hanging.sdf" 2> "$TMP/err" |
	    tail -1 | jq -r '1 - .items["m::box/pose"].z'
}

# m g / k with k = erp / (h cfm): the spring an ERP/CFM constraint is.
spring_sag() {
	awk -v erp="$1" -v cfm="$2" 'BEGIN { print 9.81 * 0.001 * cfm / erp }'
}

@test "a soft stop (limit cfm 0.1) gives way by m g h cfm / erp; a stiff one holds" {
	s=$(sag prismatic '<limit><cfm>0.1</cfm><erp>0.2</erp></limit>')
	rel "$s" "$(spring_sag 0.2 0.1)" 0.01
	s=$(sag prismatic '<limit><cfm>0</cfm><erp>0.2</erp></limit>')
	near "$s" 0 1e-6
}

@test "a fixed joint's own cfm and erp soften it as the spring they stand for" {
	s=$(sag fixed '<cfm>0.1</cfm><erp>0.2</erp>')
	rel "$s" "$(spring_sag 0.2 0.1)" 0.01
	s=$(sag fixed '<cfm>0.1</cfm><erp>0.4</erp>')
	rel "$s" "$(spring_sag 0.4 0.1)" 0.01
	s=$(sag fixed '')
	near "$s" 0 1e-6
	! grep -q . "$TMP/err" || false
	# 5 cm: a spring by choice, not a joint come apart (nothing said)
	s=$(sag fixed '<cfm>1</cfm><erp>0.2</erp>')
	rel "$s" "$(spring_sag 0.2 1)" 0.02
	! grep -q . "$TMP/err" || false
}

@test "a ball joint's own cfm and erp soften it as the spring they stand for" {
	s=$(sag ball '<cfm>0.05</cfm><erp>0.5</erp>')
	rel "$s" "$(spring_sag 0.5 0.05)" 0.01
}

@test "a revolute joint's own erp, which stock ODE cannot take, is said once" {
	s=$(sag revolute '<erp>0.5</erp>')
	run grep -c "joint 'm::j': physics.ode.erp is kept but inert" "$TMP/err"
	assert_output 1
}

# chain_gaps LINES: for each state line of tests/data/light_link_chain.sdf
# ('chain::*/pose' items), "t gap_pivot gap_elbow": how far apart each
# joint's anchor is as its two links carry it (m), from their poses alone.
chain_gaps() {
	jq -r 'select(.items) | [.t] + ([.items["chain::light/pose"],
	    .items["chain::bob/pose"]] | map(.x, .z, .roll, .pitch, .yaw)) |
	    @tsv' "$1" | awk -F '\t' '
	# (dx, 0, 0) in a frame at (x, z) turned by roll, pitch, yaw: the
	# chain moves in the x-z plane, its axes all along y
	function carry(x, z, r, p, y, dx) {
		cx = x + cos(y) * cos(p) * dx; cz = z - sin(p) * dx
	}
	{
		carry($2, $3, $4, $5, $6, -0.25); gp = sqrt(cx^2 + (cz - 1)^2)
		carry($2, $3, $4, $5, $6, 0.25); ax = cx; az = cz
		carry($7, $8, $9, $10, $11, -0.5)
		printf "%s %.9g %.9g\n", $1, gp, sqrt((cx - ax)^2 + (cz - az)^2)
	}'
}

@test "a joint an iterative solver lets open (a 100 kg bob under a 10 g link) is said once, with the gap the links' poses give, under ODE's quick solver and Bullet; not under enough iterations, ODE's world solver or MuJoCo; under the world solver at a long step, with the step alone as the hint" {
	W="$BATS_TEST_DIRNAME/data/light_link_chain.sdf"
	for e in bullet ode; do
		phys-step -p "$e" -t 2 -e 1 -i 'chain::*/pose' "$W" \
		    > "$TMP/$e" 2> "$TMP/$e.err"
		msg=$(grep 'apart' "$TMP/$e.err")
		[ "$(printf '%s\n' "$msg" | wc -l)" = 1 ]
		name=$(engine_name "$e")
		[[ "$msg" =~ joint\ \'chain::(pivot|elbow)\':\ its\ links\ came\ ([0-9.e+-]+)\ m\ apart\ at\ its\ anchor\ by\ t=([0-9.]+)\ under\ $name, ]]
		joint=${BASH_REMATCH[1]} gap=${BASH_REMATCH[2]} t=${BASH_REMATCH[3]}
		col=$([ "$joint" = pivot ] && echo 2 || echo 3)
		chain_gaps "$TMP/$e" > "$TMP/$e.gaps"
		rel "$(awk -v t="$t" -v c="$col" '$1 == t { print $c }' "$TMP/$e.gaps")" "$gap" 0.005
		awk -v a="$gap" 'BEGIN { exit !(a >= 0.01) }' || fail "gap $gap"
		awk '{ m = $2 > m ? $2 : m; m = $3 > m ? $3 : m } END { exit !(m >= 0.05) }' "$TMP/$e.gaps"
	done
	grep -q 'more bullet.solver.iters' "$TMP/bullet.err"
	# a force mixing of the joints' own is ODE's: Bullet's joints are
	# still rows that should hold
	phys-step -p bullet -s 'chain::*/physics.ode.cfm=1e-3' -t 2 -r 1 "$W" \
	    2>&1 >/dev/null | grep -q "came .* apart at its anchor"
	grep -q 'ode.solver.type world' "$TMP/ode.err"
	# under the world solver, which solves each step exactly, only a
	# smaller step is the hint (it once named the world solver itself)
	run --separate-stderr phys-step -p ode -s ode.solver.type=world \
	    -s max_step_size=0.02 -t 2 -r 1 "$W"
	[[ "$stderr" == *"apart at its anchor by t="*" under ODE, whose solver did not hold it; a smaller max_step_size may" ]]
	# held: under 1 cm all along, and nothing said
	for a in "-p bullet -s bullet.solver.iters=1000" \
	    "-p ode -s ode.solver.iters=1000" "-p ode -s ode.solver.type=world" \
	    "-p mujoco"; do
		# shellcheck disable=SC2086
		phys-step $a -t 2 -e 1 -i 'chain::*/pose' "$W" > "$TMP/held" 2> "$TMP/held.err"
		! grep -q 'apart' "$TMP/held.err" || false
		chain_gaps "$TMP/held" | awk '{ m = $2 > m ? $2 : m; m = $3 > m ? $3 : m }
		    END { exit !(m < 0.01) }'
	done
	# a kinematic link the run moves off its hinge is the run's doing
	cat > "$TMP/kin.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><model name="m">
<link name="k"><pose>0 0 1 0 0 0</pose><kinematic>true</kinematic><inertial><mass>1</mass></inertial></link>
<joint name="j" type="revolute"><parent>world</parent><child>k</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></world></sdf>
SDF
	echo '{"t":0,"name":"m::k/linear_vel","value":{"x":1,"y":0,"z":0}}' > "$TMP/kin.ctl"
	for e in bullet ode; do
		phys-step -p "$e" -t 1 -r 1 -c "$TMP/kin.ctl" -i 'm::k/pose' "$TMP/kin.sdf" \
		    2> "$TMP/kin.err" | tail -1 > "$TMP/kin"
		near "$(jq '.items["m::k/pose"].x' "$TMP/kin")" 1 1e-9
		! grep -q 'apart' "$TMP/kin.err" || false
	done
}

@test "a weld an iterative solver lets bend (the 100 kg bob welded to the 10 g link, ODE's quick solver at 2 iterations) is said with the turn the links' poses give" {
	# the elbow a weld; the pivot a spring by choice, which is not said
	sed -e '/<joint name="elbow"/,/<\/joint>/s/revolute/fixed/' \
	    -e '/<joint name="elbow"/,/<\/joint>/{/<axis>/d}' \
	    "$BATS_TEST_DIRNAME/data/light_link_chain.sdf" > "$TMP/bent.sdf"
	phys-step -p ode -s ode.solver.iters=2 \
	    -s 'chain::pivot/physics.ode.cfm=1e-9' -t 1 -e 1 \
	    -i 'chain::*/pose' "$TMP/bent.sdf" > "$TMP/out" 2> "$TMP/err"
	msg=$(grep apart "$TMP/err")
	[[ "$msg" =~ joint\ \'chain::elbow\':\ its\ links\ came\ [0-9.e+-]+\ m\ apart\ at\ its\ anchor\ and\ turned\ ([0-9.e+-]+)\ rad\ against\ each\ other\ by\ t=([0-9.]+)\ under\ ODE, ]] ||
	    fail "$msg"
	turn=${BASH_REMATCH[1]} t=${BASH_REMATCH[2]}
	awk -v a="$turn" 'BEGIN { exit !(a >= 0.05) }' || fail "turn $turn"
	# the chain turns about y alone: the weld's turn is the pitches'
	rel "$(jq -r --argjson t "$t" 'select(.t == $t) | .items |
	    .["chain::light/pose"].pitch - .["chain::bob/pose"].pitch |
	    fabs' "$TMP/out")" "$turn" 0.005
}

# link_xyz FILE ITEM: the x y z of a pose item on the last state line.
link_xyz() {
	tail -1 "$1" | jq -r --arg i "$2" '.items[$i] | [.x, .y, .z] | @tsv'
}

@test "an arm on a 0.1 kg base no joint frees (MuJoCo welds it to the world), under stiff servos: ODE's two solvers and Bullet keep the base where it is, as MuJoCo does, and the arm within 1 cm of MuJoCo's; a weld of ODE's force mixing is a spring under ODE alone" {
	W="$BATS_TEST_DIRNAME/data/mjcf/welded_arm.xml"
	phys-step -q -p mujoco -t 0.5 -r 2 -i '*::link_6/pose' "$W" > "$TMP/mujoco"
	read -r mx my mz <<<"$(link_xyz "$TMP/mujoco" 'welded_arm::link_6/pose')"
	for e in "ode -s ode.solver.type=quick" "ode -s ode.solver.type=world" \
	    bullet; do
		phys-step -q -p $e -t 0.5 -r 2 -i '*::base/pose' \
		    -i '*::link_6/pose' "$W" > "$TMP/out"
		# the base: not a hair off its pose
		[ "$(tail -1 "$TMP/out" | jq -c \
		    '.items["welded_arm::base/pose"] | map(.)')" = \
		    "[0,0,0,0,0,0]" ] ||
		    fail "$e: the base moved: $(tail -1 "$TMP/out")"
		read -r x y z <<<"$(link_xyz "$TMP/out" 'welded_arm::link_6/pose')"
		awk -v a="$x $y $z" -v b="$mx $my $mz" 'BEGIN { split(a, p); split(b, q)
			d = sqrt((p[1] - q[1])^2 + (p[2] - q[2])^2 + (p[3] - q[3])^2)
			if (d < 0.01) exit 0
			printf "link_6 %g m from MuJoCo'\''s\n", d > "/dev/stderr"; exit 1 }' ||
		    fail "under $e"
	done
	# a weld's own force mixing is ODE's: a spring there, whose base
	# moves; Bullet's weld is rigid, its base still
	for e in bullet ode; do
		phys-step -q -p $e -s 'welded_arm::base_weld/physics.ode.cfm=1e-3' \
		    -t 0.5 -r 2 -i '*::base/pose' "$W" | tail -1 |
		    jq -c '.items["welded_arm::base/pose"] | map(.)' > "$TMP/$e"
	done
	[ "$(cat "$TMP/bullet")" = "[0,0,0,0,0,0]" ]
	[ "$(cat "$TMP/ode")" != "[0,0,0,0,0,0]" ]
}

# weld_carries WORLD JOINT FZ TY OFF TREL: under every engine, the weld
# JOINT's force on its link, after 1 s at rest, is FZ up (N) and its
# torque TY about y (N m, within TREL relative), the other components
# within OFF of 0.
weld_carries() {
	local e fx fy fz tx ty tz
	for e in $(engines); do
		phys-step -q -p "$e" -t 1 -r 1 -i "$2/force" -i "$2/torque" \
		    "$1" > "$TMP/out"
		read -r fx fy fz tx ty tz <<<"$(tail -1 "$TMP/out" | jq -r \
		    --arg f "$2/force" --arg t "$2/torque" \
		    '.items | [.[$f][], .[$t][]] | @tsv')"
		near "$fx" 0 "$5" && near "$fy" 0 "$5" && near "$tx" 0 "$5" &&
		    near "$tz" 0 "$5" && rel "$fz" "$3" 1e-6 &&
		    rel "$ty" "$4" "$6" || fail "under $e"
	done
}

@test "a weld to the world carries what hangs from it: under every engine, a 50 kg bob at rest below a base 0.1 kg welded beside its pivot puts (50.1 kg) g and 0.1 m x (50 kg) g on the weld" {
	# SDF's gravity: 9.8 m/s^2
	weld_carries "$BATS_TEST_DIRNAME/data/welded_pendulum.sdf" arm::weld \
	    "$(awk 'BEGIN { print 50.1 * 9.8 }')" \
	    "$(awk 'BEGIN { print 0.1 * 50 * 9.8 }')" 1e-9 1e-9
}

@test "a weld to the world carries what rests on its link: under every engine, a 2 kg box at rest on a 10 kg table top welded to the world, 0.3 m off its centre, puts (12 kg) g and 0.3 m x (2 kg) g on the weld" {
	# Simbody's compliant contact rests the box 4e-5 m off
	weld_carries "$BATS_TEST_DIRNAME/data/welded_table.sdf" table::weld \
	    "$(awk 'BEGIN { print 12 * 9.8 }')" \
	    "$(awk 'BEGIN { print -0.3 * 2 * 9.8 }')" 1e-3 5e-4
}

@test "a tensor raised to the floor names ODE's world solver as the remedy under the quick solver, not under the world solver itself" {
	cat > "$TMP/np.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 0</gravity><model name="m"><link name="l">
<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>2</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
</link></model></world></sdf>
SDF
	# principal moments of [[1 2 0] [2 1 0] [0 0 1]]: -1, 1, 3
	run --separate-stderr phys-step -s ode.solver.type=quick -n 1 "$TMP/np.sdf"
	[[ "$stderr" == *"np.sdf:3: link 'm::l': inertia not positive definite: principal moments -1, 1, 3 "*"(ODE's quick solver may not converge on it: -s ode.solver.type=world solves it exactly); libsdformat finds it invalid too, and refuses the file" ]]
	run --separate-stderr phys-step -s ode.solver.type=world -n 1 "$TMP/np.sdf"
	[[ "$stderr" == *"np.sdf:3: link 'm::l': inertia not positive definite: principal moments -1, 1, 3 "* ]]
	[[ "$stderr" != *"quick solver"* ]]
}
