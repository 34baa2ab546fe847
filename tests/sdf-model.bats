#!/usr/bin/env bats
# The world model: frames and relative_to, nested models, includes with
# overrides, joint axes per SDF version, and every joint type, checked by
# where bodies are and how they move.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	build_sdformat_oracle
}

# pose_of FILE ITEM: the item's pose on each line of FILE, "x y z roll
# pitch yaw" tab-separated, rounded to 1e-9.
pose_of() {
	jq -r --arg i "$2" '.items[$i] | [.x, .y, .z, .roll, .pitch, .yaw] | map(. * 1e9 | round / 1e9) | @tsv' "$1"
}

@test "frames: relative_to, <frame>, nested models and include overrides" {
	phys-step -n 0 -i '*/pose' "$WORLDS/frames.sdf" > "$TMP/o"
	# model turned 90 degrees at x = 1; mount 1 m along its y: the origin
	[ "$(pose_of "$TMP/o" robot::base/pose | cut -f1-3)" = "$(printf '0\t0\t0.5')" ]
	near "$(pose_of "$TMP/o" robot::base/pose | cut -f6)" 1.5707963267948966 1e-9
	[ "$(pose_of "$TMP/o" robot::arm::tip/pose | cut -f1-3)" = "$(printf '0\t0\t1.5')" ]
	[ "$(pose_of "$TMP/o" robot::arm/pose | cut -f1-3)" = "$(printf '0\t0\t1.5')" ]
	# included twice under new names, with new poses; the link is 0.2 m up
	[ "$(pose_of "$TMP/o" crate_a::link/pose | cut -f1-3)" = "$(printf '5\t0\t0.2')" ]
	[ "$(pose_of "$TMP/o" crate_b::link/pose | cut -f1-3)" = "$(printf '7\t0\t3.2')" ]
}

@test "include: model.config picks the newest SDF; static is overridden" {
	phys-step -t 0.5 -e 500 -i 'crate_*::link/pose' "$WORLDS/frames.sdf" | tail -1 > "$TMP/o"
	# crate_a was made static, crate_b falls freely
	[ "$(pose_of "$TMP/o" crate_a::link/pose | cut -f3)" = 0.2 ]
	near "$(pose_of "$TMP/o" crate_b::link/pose | cut -f3)" "$(awk 'BEGIN { printf "%.12f", 3.2 - 9.81 * 1e-6 * 500 * 501 / 2 }')" 1e-6
	# the 1.6 edition's model is named old_crate: not the one loaded
	[ -z "$(phys-introspect items "$WORLDS/frames.sdf" | grep old_crate)" ]
	unset SDF_PATH
	run phys-step -n 0 "$WORLDS/frames.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"frames.sdf:"*": cannot find model 'model://crate'"* ]]
}

@test "include: a URI naming the model's SDF file itself, absolute or beside the world" {
	mkdir -p "$TMP/m"
	cat > "$TMP/m/ball.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.6"><model name="ball"><link name="link"><pose>0 0 1 0 0 0</pose>
<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model></sdf>
SDF
	cat > "$TMP/w.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.6"><world name="w">
<include><uri>$TMP/m/ball.sdf</uri><name>a</name></include>
<include><uri>m/ball.sdf</uri><name>b</name><pose>2 0 0 0 0 0</pose></include>
</world></sdf>
SDF
	phys-step -n 0 -i '*::link/pose' "$TMP/w.sdf" > "$TMP/o"
	[ "$(pose_of "$TMP/o" a::link/pose | cut -f1,3)" = "$(printf '0\t1')" ]
	[ "$(pose_of "$TMP/o" b::link/pose | cut -f1,3)" = "$(printf '2\t1')" ]
	run phys-step -n 0 "$TMP/w.sdf" <<< ''
	rm "$TMP/m/ball.sdf"
	run phys-step -n 0 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:3: cannot find model '$TMP/m/ball.sdf'"* ]]
}

@test "1.7 axes expressed in the model frame" {
	# model x is world y: gravity along -z does not move the slider
	phys-step -t 0.5 -e 500 -i 'robot::base/pose' "$WORLDS/frames.sdf" | tail -1 > "$TMP/o"
	[ "$(pose_of "$TMP/o" robot::base/pose | cut -f1-3)" = "$(printf '0\t0\t0.5')" ]
	# gravity along -y drives it: a free fall along world y
	phys-step -s 'gravity=0 -2 0' -t 0.5 -e 500 -i 'robot::base/pose' "$WORLDS/frames.sdf" | tail -1 > "$TMP/o"
	near "$(pose_of "$TMP/o" robot::base/pose | cut -f2)" "$(awk 'BEGIN { printf "%.12f", -2 * 1e-6 * 500 * 501 / 2 }')" 1e-9
	near "$(pose_of "$TMP/o" robot::base/pose | cut -f1)" 0 1e-9
	near "$(pose_of "$TMP/o" robot::base/pose | cut -f3)" 0.5 1e-9
}

@test "1.5 axes: use_parent_model_frame, or the joint frame" {
	phys-step -t 0.5 -e 500 -i 'm::*/pose' "$WORLDS/axes_1_5.sdf" | tail -1 > "$TMP/o"
	# along world y under the profile's gravity of 2 m/s^2 in -y
	near "$(pose_of "$TMP/o" m::a/pose | cut -f2)" "$(awk 'BEGIN { printf "%.12f", -2 * 1e-6 * 500 * 501 / 2 }')" 1e-9
	near "$(pose_of "$TMP/o" m::a/pose | cut -f3)" 1 1e-9
	# along world -z: a free fall from 1.5 m
	near "$(pose_of "$TMP/o" m::b/pose | cut -f3)" "$(awk 'BEGIN { printf "%.12f", 1.5 - 9.81 * 1e-6 * 500 * 501 / 2 }')" 1e-9
	near "$(pose_of "$TMP/o" m::b/pose | cut -f2)" 0 1e-9
}

@test "ball and universal joints swing as 1 m pendulums; a fixed joint holds" {
	phys-step -t 4.2 -r 500 -i '*::bob/pose' -i 'fixed::body/pose' "$WORLDS/joints.sdf" > "$TMP/o"
	for m in ball cardan; do
		T=$(jq -r --arg i "$m::bob/pose" '[.t, .items[$i].roll] | @tsv' "$TMP/o" | awk '
			NR > 1 && p > 0 && $2 <= 0 { tc = pt - p * ($1 - pt) / ($2 - p); if (f == "") f = tc; else { l = tc; n++ } }
			{ pt = $1; p = $2 } END { print (l - f) / n }')
		# a point mass 1 m out, plus the bob's own 0.001 kg m^2
		rel "$T" "$(awk 'BEGIN { print 2 * 3.141592653589793 * sqrt(1.001 / 9.81) }')" 0.01
	done
	tail -1 "$TMP/o" > "$TMP/last"
	[ "$(pose_of "$TMP/last" fixed::body/pose | cut -f1-3)" = "$(printf '2\t0\t3')" ]
}

@test "a revolute joint's lower stop holds the falling bob at -0.3 rad" {
	phys-step -t 2 -r 10 -i 'hinge::j/position' "$WORLDS/joints.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["hinge::j/position"][0]' "$TMP/o")" -0.3 0.005
	phys-step -t 2 -r 10 -s 'hinge::j/axis.limit.lower=-0.1' -i 'hinge::j/position' "$WORLDS/joints.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["hinge::j/position"][0]' "$TMP/o")" -0.1 0.005
}

@test "link flags: gravity off floats, kinematic ignores forces" {
	phys-step -t 0.5 -e 500 -s 'ball::link/gravity=false' -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" | tail -1 > "$TMP/o"
	[ "$(pose_of "$TMP/o" ball::link/pose | cut -f3)" = 10 ]
	echo '{"t":0,"name":"ball::link/linear_vel","value":{"x":1,"y":0,"z":0}}' > "$TMP/c"
	phys-step -t 0.5 -e 500 -c "$TMP/c" -s 'ball::link/kinematic=true' -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" | tail -1 > "$TMP/o"
	[ "$(pose_of "$TMP/o" ball::link/pose | cut -f1,3)" = "$(printf '0.5\t10')" ]
}

# Two spheres of one model 0.5 m apart, no gravity; sphere a is launched
# at b at 1 m/s. $1 goes into the model element.
two_spheres() {
	cat <<XML
<sdf version="1.7"><world name="w"><gravity>0 0 0</gravity>
<model name="m">$1
 <link name="a"><inertial><mass>1</mass></inertial>
  <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
 <link name="b"><pose>0.5 0 0 0 0 0</pose><inertial><mass>1</mass></inertial>
  <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
</model></world></sdf>
XML
	echo '{"t":0,"name":"m::a/linear_vel","value":{"x":1,"y":0,"z":0}}' > "$TMP/c"
}

@test "self_collide: links of one model pass through each other unless asked" {
	two_spheres "" > "$TMP/two.sdf"
	phys-step -t 1 -e 1000 -c "$TMP/c" -i 'm::*/pose' "$TMP/two.sdf" | tail -1 > "$TMP/o"
	near "$(pose_of "$TMP/o" m::a/pose | cut -f1)" 1 1e-9
	near "$(pose_of "$TMP/o" m::b/pose | cut -f1)" 0.5 1e-9
	# with it, a strikes b, which moves off
	phys-step -t 1 -e 1000 -c "$TMP/c" -s 'm::a/self_collide=true' -i 'm::*/pose' "$TMP/two.sdf" | tail -1 > "$TMP/o"
	awk -v a="$(pose_of "$TMP/o" m::a/pose | cut -f1)" -v b="$(pose_of "$TMP/o" m::b/pose | cut -f1)" 'BEGIN { exit !(a < 0.9 && b > 0.6 && b - a >= 0.2 - 1e-3) }'
}

@test "ODE-inert parameters are kept and warned about once" {
	run phys-step -n 1 -s precon_iters=5 -s 'ball::link::collision/surface.friction.torsional.coefficient=2' "$WORLDS/falling_sphere.sdf"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'ode.solver.precon_iters is set but has no effect with ODE' <<<"$output")" -eq 1 ]
	[[ "$output" == *"torsional.coefficient is set but has no effect"* ]]
	run phys-step -n 1 -s precon_iters=0 "$WORLDS/falling_sphere.sdf"
	[[ "$output" != *"no effect"* ]]
	# another engine's block: one line for the block
	run phys-step -n 1 -s bullet.solver.iters=9 -s bullet.constraints.cfm=0.1 "$WORLDS/falling_sphere.sdf"
	[ "$(grep -c "bullet parameters are Bullet's and have no effect with ODE" <<<"$output")" -eq 1 ]
}

@test "Gazebo's own worlds load and run" {
	need_reference
	for w in "$REF"/gazebo-worlds/*.world; do
		run phys-step -t 0.05 -r 20 -i '*/kinetic_energy' -i '*/potential_energy' -i '*::*/mass' "$w"
		check_gazebo_world "$w" || { echo "$w: $output"; false; }
	done
}

# What a run of a Gazebo world must show ($status and $output of
# phys-step -t 0.05 -r 20 WORLD): a refusal names the unsupported element
# and its line; otherwise the engine got the world's gravity (SDFormat's
# default 0 0 -9.8 when none is written), the run reached t = 0.05, and
# the total energy of these passive worlds did not grow by more than
# contacts pushing bodies that start inside others out can give: at most
# the surfaces' max_vel (0.01 m/s by default) upwards, M g 0.01 t.
check_gazebo_world() {
	local g

	if [ "$status" -ne 0 ]; then
		[ "$status" -eq 1 ] &&
		    [[ "$output" == *"$1:"[0-9]*": "*" is not supported (--skip-unsupported skips such collisions)" ]]
		return
	fi
	g=$(grep -o '<gravity>[^<]*</gravity>' "$1" | sed 's/<[^>]*>//g' | awk 'NF == 3' | head -1)
	[ -n "$g" ] || g="0 0 -9.8"
	printf '%s\n' "$output" | grep '^{' > "$TMP/run"
	[ "$(head -1 "$TMP/run" | jq -r '.engine.gravity | "\(.x) \(.y) \(.z)"')" = \
	    "$(awk '{ print $1 + 0, $2 + 0, $3 + 0 }' <<<"$g")" ] || return 1
	near "$(tail -1 "$TMP/run" | jq .t)" 0.05 1e-9 || return 1
	jq -s '(.[0].items | [to_entries[] | select(.key | endswith("/mass")) | .value] | add // 0) as $m
		| map([.items | to_entries[] | select(.key | endswith("_energy")) | .value] | add)
		| .[0] as $e0 | (.[-1] - $e0) <= 1e-6 + 1e-5 * ($e0 | fabs) + $m * 9.8 * 0.01 * 0.05' \
	    "$TMP/run" | grep -qx true
}

@test "joint effort: a stop holds m g L cos(theta); damping gives -c omega" {
	phys-step -t 2 -r 2 -i 'hinge::j/effort' "$WORLDS/joints.sdf" | tail -1 > "$TMP/o"
	rel "$(jq '.items["hinge::j/effort"][0]' "$TMP/o")" "$(awk 'BEGIN { OFMT = "%.17g"; print 1 * 9.81 * 1 * cos(0.3) }')" 1e-6
	echo '{"t":0,"name":"pendulum::pivot/axis.dynamics.damping","value":0.5}' > "$TMP/c"
	phys-step -t 1.5 -r 20 -c "$TMP/c" -i 'pendulum::pivot/*' "$WORLDS/pendulum.sdf" |
	    jq -r '.items | [.["pendulum::pivot/velocity"][0], .["pendulum::pivot/effort"][0]] | @tsv' | tail -n +2 |
	    awk '{ e = -0.5 * $1; d = $2 - e; if (d < 0) d = -d; if (d > 0.05 * 0.5 * 0.3 + 0.002) { print "effort " $2 " vs " e; bad = 1 } } END { exit bad }'
}

@test "world frames: a model relative_to a <frame> or to another model" {
	cat > "$TMP/wf.sdf" <<'XML'
<sdf version="1.8"><world name="w">
<frame name="table"><pose>2 0 1 0 0 1.5707963267948966</pose></frame>
<frame name="corner" attached_to="table"><pose>0.5 0 0 0 0 0</pose></frame>
<model name="a"><static>true</static><pose relative_to="corner">0 0 0.1 0 0 0</pose><link name="l"/></model>
<model name="b"><static>true</static><pose relative_to="a">1 0 0 0 0 0</pose><link name="l"/></model>
</world></sdf>
XML
	phys-step -n 0 -i '[ab]/pose' "$TMP/wf.sdf" > "$TMP/o"
	[ "$(pose_of "$TMP/o" a/pose | cut -f1-3)" = "$(printf '2\t0.5\t1.1')" ]
	[ "$(pose_of "$TMP/o" b/pose | cut -f1-3)" = "$(printf '2\t1.5\t1.1')" ]
	sed -i 's|relative_to="a"|relative_to="ghost"|' "$TMP/wf.sdf"
	run phys-step -n 0 "$TMP/wf.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"wf.sdf:5: no frame or model named 'ghost'"* ]]
}

@test "a model's own self_collide makes all its links collide" {
	two_spheres '<self_collide>true</self_collide>' > "$TMP/two.sdf"
	phys-step -t 1 -e 1000 -c "$TMP/c" -i 'm::*/pose' "$TMP/two.sdf" | tail -1 > "$TMP/o"
	awk -v b="$(pose_of "$TMP/o" m::b/pose | cut -f1)" 'BEGIN { exit !(b > 0.6) }'
}

@test "what libsdformat refuses or reads in part: two joints of one name and an unknown canonical_link are refused at their lines; a model without a link (not static) is said; a second model at a model file's root is said and left out, as libsdformat reads the first alone" {
	printf '%s\n' '<?xml version="1.0" ?>' '<sdf version="1.6">' '  <model name="m">' \
	    '    <link name="a"/><link name="b"/><link name="c"/>' \
	    '    <joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>' \
	    '    <joint name="j" type="fixed"><parent>b</parent><child>c</child></joint>' \
	    '  </model>' '</sdf>' > "$TMP/twice.sdf"
	run -1 phys-step -n 0 "$TMP/twice.sdf"
	assert_output "phys-step: $TMP/twice.sdf:6: joint 'm::j' is named twice in its model"
	sed 's/version="1.6"/version="1.8"/' "$TMP/twice.sdf" > "$TMP/twice18.sdf"
	run -1 phys-step -n 0 "$TMP/twice18.sdf"
	assert_output "phys-step: $TMP/twice18.sdf:6: joint 'm::j' is named twice in its model"
	printf '%s\n' '<?xml version="1.0" ?>' '<sdf version="1.8">' '  <model name="m" canonical_link="c">' \
	    '    <link name="a"/><link name="b"/>' '  </model>' '</sdf>' > "$TMP/canon.sdf"
	run -1 phys-step -n 0 "$TMP/canon.sdf"
	assert_output "phys-step: $TMP/canon.sdf:3: canonical_link 'c': the model has no link of that name"
	printf '%s\n' '<?xml version="1.0" ?>' '<sdf version="1.8">' '  <world name="w">' \
	    '    <model name="empty"/>' '    <model name="still"><static>true</static></model>' \
	    '    <model name="outer"><model name="inner"><link name="l"/></model></model>' \
	    '  </world>' '</sdf>' > "$TMP/empty.sdf"
	run -0 --separate-stderr phys-step -n 0 "$TMP/empty.sdf"
	assert_equal "$stderr" "phys-step: $TMP/empty.sdf:4: model 'empty' has no link, which libsdformat refuses (a model must have at least one link): it moves nothing"
	printf '%s\n' '<?xml version="1.0" ?>' '<sdf version="1.8">' '  <model name="first"><link name="l"/></model>' \
	    '  <model name="second"><link name="l"><pose>0 0 1 0 0 0</pose></link></model>' '</sdf>' > "$TMP/two.sdf"
	run -0 --separate-stderr phys-step -n 0 -i '*/pose' "$TMP/two.sdf"
	assert_equal "$stderr" "phys-step: $TMP/two.sdf:4: a second <model> at the file's root, where SDF has one: libsdformat reads the first alone, and so does phys"
	assert_equal "$(jq -c '.items | keys' <<< "$output")" '["first/pose","first::l/pose"]'
	need_oracle
	for f in twice twice18 canon empty; do
		run -1 "$BATS_FILE_TMPDIR/oracle" "$TMP/$f.sdf"
	done
	# a static model without a link is none of its faults
	sed '/name="empty"/d' "$TMP/empty.sdf" > "$TMP/still.sdf"
	"$BATS_FILE_TMPDIR/oracle" "$TMP/still.sdf" > /dev/null
	run -0 --separate-stderr phys-step -n 0 "$TMP/still.sdf"
	assert_equal "$stderr" ""
	run -1 --separate-stderr "$BATS_FILE_TMPDIR/oracle" "$TMP/two.sdf"
	[[ "$stderr" == *"Root object can only contain one model. Using the first one found"* ]]
}

# params_world: $TMP/models/box (a 1 kg box link at 0.5 m, a 2 kg arm
# hinged to it 1 m away) and $TMP/edit.sdf, which includes it with
# <experimental:params> edits of each kind.
params_world() {
	mkdir -p "$TMP/models/box"
	printf '%s\n' '<?xml version="1.0"?>' '<model><name>box</name><sdf version="1.9">model.sdf</sdf></model>' > "$TMP/models/box/model.config"
	cat > "$TMP/models/box/model.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="box">
    <link name="base_link">
      <pose>0 0 0.5 0 0 0</pose>
      <inertial><mass>1</mass></inertial>
      <collision name="box_col"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision>
      <visual name="vis"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></visual>
    </link>
    <link name="arm"><pose>1 0 0.5 0 0 0</pose><inertial><mass>2</mass></inertial></link>
    <joint name="hinge" type="revolute"><parent>base_link</parent><child>arm</child><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
</sdf>
SDF
	cat > "$TMP/edit.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity>0 0 -9.8</gravity>
    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
    <include>
      <uri>model://box</uri>
      <experimental:params>
        <collision element_id="base_link" action="add" name="foot">
          <pose>0 0 -0.3 0 0 0</pose>
          <geometry><box><size>0.4 0.4 0.02</size></box></geometry>
        </collision>
        <link element_id="arm" action="modify">
          <pose>0 0 1.5 0 0 0</pose>
          <inertial><mass>3</mass></inertial>
        </link>
        <visual element_id="base_link::vis" action="remove"/>
        <link element_id="base_link">
          <inertial action="modify"><mass>4</mass></inertial>
        </link>
        <joint element_id="hinge" action="modify" type="fixed"/>
      </experimental:params>
    </include>
  </world>
</sdf>
SDF
}

@test "an <include>'s <experimental:params> edits the included model as libsdformat does (add, modify, remove, and each child's own action): poses, masses and joints as its oracle reads them, and the robot rests on the foot it added (phys refused the world)" {
	params_world
	export SDF_PATH="$TMP/models"
	# the box and the 3 kg arm now welded on top of it rest on the added
	# foot: its centre 0.3 m below the box's, half its 0.02 m above the
	# ground
	run -0 --separate-stderr phys-step -q -t 2 -r 1 -i 'box::base_link/pose' -i 'box::arm/pose' "$TMP/edit.sdf"
	near "$(tail -1 <<< "$output" | jq '.items["box::base_link/pose"].z')" 0.31 2e-3
	near "$(tail -1 <<< "$output" | jq '.items["box::arm/pose"].z')" 1.31 2e-3
	run -0 phys-param get "$TMP/edit.sdf" 'box::arm/inertial.mass' 'box::base_link/inertial.mass'
	assert_equal "$(jq -r .value <<< "$output" | tr '\n' ' ')" "3 4 "
	run -0 phys-sdf check "$TMP/edit.sdf"
	need_oracle
	agrees_with_libsdformat "$TMP/edit.sdf"
	"$BATS_FILE_TMPDIR/oracle" "$TMP/edit.sdf" > "$TMP/oracle"
	[ "$(jq -r 'select(.joint) | .type' "$TMP/oracle")" = fixed ]
	[ "$(jq -r 'select(.collision) | .collision' "$TMP/oracle" | sort | tr '\n' ' ')" = "box::base_link::box_col box::base_link::foot ground::l::c " ]
}

@test "an <experimental:params> edit libsdformat skips with an error is refused at its line: a missing element, no element_id, an unknown action, an element added twice or one SDFormat does not describe; a bad value it brings is named at its own file and line; edits past the bound on their work are refused" {
	params_world
	export SDF_PATH="$TMP/models"
	for case in 's|base_link::vis"|base_link::nothing"|@17@<visual element_id='"'base_link::nothing'"'>: the included model has no such element' \
	    's|element_id="arm" ||@13@<link>: no element_id: which element it edits' \
	    's|action="remove"|action="delete"|@17@<visual element_id='"'base_link::vis'"'>: the action is not add, modify, remove or replace' \
	    's|name="foot"|name="box_col"|@9@<collision element_id='"'base_link'"'>: the included model has that element there already' \
	    's|<collision element_id="base_link" action="add" name="foot">|<bogus element_id="base_link" action="add" name="foot">|; s|</collision>$|</bogus>|@9@<bogus element_id='"'base_link'"'>: no element SDFormat describes' \
	    's|<inertial action="modify">|<inertial>|@19@<inertial>: needs an action: add, modify, remove or replace'; do
		IFS='@' read -r script line msg <<< "$case"
		sed "$script" "$TMP/edit.sdf" > "$TMP/bad.sdf"
		run -1 phys-step -n 0 "$TMP/bad.sdf"
		assert_output "phys-step: $TMP/bad.sdf:$line: <experimental:params>: $msg"
		[ -x "$BATS_FILE_TMPDIR/oracle" ] || continue
		run "$BATS_FILE_TMPDIR/oracle" "$TMP/bad.sdf"
		[ "$status" -ne 0 ] || { echo "oracle took: $case"; false; }
	done
	sed 's|<size>0.4 0.4 0.02|<size>abc|' "$TMP/edit.sdf" > "$TMP/bad.sdf"
	run -1 phys-step -n 0 "$TMP/bad.sdf"
	assert_output --partial "phys-step: $TMP/bad.sdf:11: <size>"
	# 20,000 frames added to one model: each added looks among those
	# before it for its name (8 s); the work is bounded
	awk 'BEGIN { print "<?xml version=\"1.0\"?><sdf version=\"1.9\"><world name=\"w\"><include><uri>model://box</uri><experimental:params>"
		for (i = 0; i < 20000; i++) printf "<frame element_id=\"\" action=\"add\" name=\"f%d\"/>\n", i
		print "</experimental:params></include></world></sdf>" }' > "$TMP/many.sdf"
	run -1 bounded 10 300000 phys-step -n 0 "$TMP/many.sdf"
	[[ "$output" =~ many\.sdf:[0-9]+:\ \<experimental:params\>:\ \<frame\ element_id=\'\'\>:\ its\ edits\ look\ at\ more\ than\ 5000000\ elements\ of\ the\ included\ model:\ the\ limit\ \(LIMITS\ in\ phys\(7\)\) ]]
	# its elements are the world file's: phys-param says where
	run -1 phys-param set --in-place "$TMP/edit.sdf" 'box::base_link::foot/geometry.box.size=0.5 0.5 0.02'
	assert_output "phys-param: box::base_link::foot is brought into an included model by <experimental:params> at $TMP/edit.sdf:9; edit it there"
}

@test "a collision without geometry (SDF requires one) is said and touches nothing, as libsdformat reads it empty: its link falls through the ground (phys refused the file)" {
	printf '%s\n' '<?xml version="1.0" ?>' '<sdf version="1.7">' '  <world name="w">' \
	    '    <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>' \
	    '    <model name="m"><pose>0 0 0.5 0 0 0</pose><link name="l">' \
	    '      <collision name="c"><pose>0 0 0 0 0 0</pose></collision>' \
	    '    </link></model>' '  </world>' '</sdf>' > "$TMP/nogeom.sdf"
	run -0 --separate-stderr phys-step -t 0.5 -e 500 -i 'm::l/pose' "$TMP/nogeom.sdf"
	assert_equal "$stderr" "phys-step: $TMP/nogeom.sdf:6: collision 'm::l::c' has no geometry, which SDF requires: libsdformat reads it as <empty/>, touching nothing, and so does phys"
	# free fall through the plane: z = 0.5 - g t^2 / 2 (ODE's steps add
	# g h t / 2)
	near "$(tail -1 <<< "$output" | jq '.items["m::l/pose"].z')" "$(awk 'BEGIN { print 0.5 - 9.8 * 0.25 / 2 }')" 3e-3
	need_oracle
	"$BATS_FILE_TMPDIR/oracle" "$TMP/nogeom.sdf" > /dev/null
}

@test "a nested model's link a joint hangs from a link of the model is of that model's skeleton, as gz-physics's DART holds it: two blades welded to a rod, overlapping at its axis, do not touch (the model does not collide with itself) and the rod turns freely under every engine; a nested ball no joint holds still rests on the model's shelf" {
	echo '{"t":0,"name":"spinner::spin/velocity","value":2}' > "$TMP/c"
	local e
	for e in ode bullet dart mujoco simbody; do
		phys-step -q -p $e -t 1 -r 1 -c "$TMP/c" -i 'spinner::spin/position' \
		    -i 'spinner::ball::link/pose' -i contacts "$BATS_TEST_DIRNAME/data/blades.sdf" |
		    tail -1 > "$TMP/o"
		echo "$e: $(cat "$TMP/o")"
		# the ball's contact only (the blades touched under four
		# engines; DART diverged with a box under the rod)
		[ "$(jq .items.contacts "$TMP/o")" = 1 ]
		# 2 rad/s for 1 s, nothing holding it back
		near "$(jq '.items["spinner::spin/position"][0]' "$TMP/o")" 2 3e-3
		# on the shelf's top (1.05) at its radius
		near "$(jq '.items["spinner::ball::link/pose"].z' "$TMP/o")" 1.1 2e-3
	done
}

# xyz_at ITEM: x, y and z of a pose item in $output's first line, to 1e-9.
xyz_at() {
	jq -r --arg i "$1" '.items[$i] | [.x, .y, .z] | map(. * 1e9 | round / 1e9) | @tsv' <<< "$output" | head -1
}

@test "a model file whose root is an <include> (as PX4's models of Fuel models are) is that model, as libsdformat reads it: alone, and included under a name and pose that win; printed and checked as such (phys refused it: nothing to simulate)" {
	params_world
	mkdir -p "$TMP/models/wrap" "$TMP/models/loop"
	printf '%s\n' '<?xml version="1.0"?>' '<model><name>wrap</name><sdf version="1.9">model.sdf</sdf></model>' > "$TMP/models/wrap/model.config"
	printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.9">' '  <include><uri>model://box</uri><name>bb</name><pose>0 0 2 0 0 0</pose></include>' '</sdf>' > "$TMP/models/wrap/model.sdf"
	printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.9"><world name="w">' \
	    '<include><uri>model://wrap</uri><name>outer</name><pose>5 0 0 0 0 0.5</pose></include>' \
	    '<include><uri>model://wrap</uri></include>' '</world></sdf>' > "$TMP/w.sdf"
	export SDF_PATH="$TMP/models"
	# by hand: the box's base link 0.5 m above its model; its arm 1 m
	# along the model's x, turned 0.5 rad about z under "outer"
	run -0 --separate-stderr phys-step -q -n 0 -i '*/pose' "$TMP/models/wrap/model.sdf"
	[ "$(xyz_at bb::base_link/pose)" = "$(printf '0\t0\t2.5')" ]
	run -0 --separate-stderr phys-step -q -n 0 -i '*/pose' "$TMP/w.sdf"
	near "$(jq '.items["outer::arm/pose"].x' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", 5 + cos(0.5) }')" 1e-12
	near "$(jq '.items["outer::arm/pose"].y' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", sin(0.5) }')" 1e-12
	near "$(jq '.items["outer::arm/pose"].z' <<< "$output")" 0.5 1e-12
	[ "$(xyz_at bb::arm/pose)" = "$(printf '1\t0\t2.5')" ]
	run -0 phys-sdf check "$TMP/w.sdf"
	[ -z "$output" ]
	run -0 phys-sdf check "$TMP/models/wrap/model.sdf"
	[ -z "$output" ]
	phys-sdf print "$TMP/w.sdf" > "$TMP/printed.sdf"
	[ "$(grep -c '<include' "$TMP/printed.sdf")" = 0 ]
	run -0 phys-step -q -n 0 -i '*/pose' "$TMP/printed.sdf"
	near "$(jq '.items["outer::arm/pose"].x' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", 5 + cos(0.5) }')" 1e-12
	near "$(jq '.items["outer::arm/pose"].y' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", sin(0.5) }')" 1e-12
	near "$(jq '.items["outer::arm/pose"].z' <<< "$output")" 0.5 1e-12
	# a file that includes itself ends at the bound on nested includes
	printf '%s\n' '<?xml version="1.0"?>' '<model><name>loop</name><sdf version="1.9">model.sdf</sdf></model>' > "$TMP/models/loop/model.config"
	printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.9"><include><uri>model://loop</uri></include></sdf>' > "$TMP/models/loop/model.sdf"
	run -1 bounded 10 300000 phys-step -n 0 "$TMP/models/loop/model.sdf"
	[[ "$output" == *"model.sdf:2: includes nested more than 16 deep: the limit (LIMITS in phys(7))"* ]]
	need_oracle
	agrees_with_libsdformat "$TMP/w.sdf"
	agrees_with_libsdformat "$TMP/models/wrap/model.sdf"
	agrees_with_libsdformat "$TMP/printed.sdf"
}

# A link's inertia libsdformat finds invalid ("has invalid inertia") makes
# it refuse the file: gz-math's rule, its tolerance 10 machine epsilons of
# half the trace, the principal moments its diagonal where the products
# are within 1e-6 of it. phys says so where the rule fails by more than
# rounding (1e-12 of half the trace), with its own verdict: an error for
# a tensor no body has, a warning for one within phys's 1e-9 and past
# libsdformat's; never where libsdformat takes it (no inertia at all,
# which phys runs with a stand-in).
@test "a link's inertia libsdformat refuses is said to be refused, and one it takes is not, case by case as the oracle loads them" {
	local c name mass ixx iyy izz ixy said
	for c in "broken 1 1 1 3 0 refuses" "edge 1 1 1 2.0000000001 0 warns" \
	    "rounding 1 1 1 2.0000000000000004 0 -" "none 1 0 0 0 0 -" \
	    "product 1 1 1 1 2 refuses" "tiny 1 1 1 2 1e-7 -"; do
		set -- $c
		name=$1 mass=$2 ixx=$3 iyy=$4 izz=$5 ixy=$6 said=$7
		cat > "$TMP/$name.sdf" <<SDF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><model name="m"><link name="a">
<inertial><mass>$mass</mass><inertia><ixx>$ixx</ixx><iyy>$iyy</iyy><izz>$izz</izz><ixy>$ixy</ixy></inertia></inertial>
</link></model></world></sdf>
SDF
		phys-sdf check "$TMP/$name.sdf" > "$TMP/said" || true
		case $said in
		refuses)
			grep -q '"severity":"error","message":"link '"'m::a'"': .*; libsdformat finds it invalid too, and refuses the file"' "$TMP/said" || fail "$name: $(cat "$TMP/said")" ;;
		warns)
			grep -q '"severity":"warning","message":"link '"'m::a'"': its principal moments 1, 1, 2.0000000001 break the triangle inequality by more than rounding, which libsdformat finds invalid, and refuses the file; phys takes them, within 1e-09 of the largest"' "$TMP/said" || fail "$name: $(cat "$TMP/said")" ;;
		-)
			! grep -q libsdformat "$TMP/said" || fail "$name: $(cat "$TMP/said")" ;;
		esac
		if [ -x "$BATS_FILE_TMPDIR/oracle" ]; then
			if "$BATS_FILE_TMPDIR/oracle" "$TMP/$name.sdf" > /dev/null 2> "$TMP/err"; then
				[ "$said" = - ] || fail "$name: libsdformat loads it"
			else
				grep -q "has invalid inertia" "$TMP/err"
				[ "$said" != - ] || fail "$name: libsdformat refuses it"
			fi
		fi
	done
	# phys-inertia check gives libsdformat's verdict beside phys's
	phys-inertia check "$TMP/edge.sdf" | jq -e '.valid == true and .libsdformat == "refuses"'
	{ phys-inertia check "$TMP/broken.sdf" || true; } | jq -e '.valid == false and .libsdformat == "refuses"'
	phys-inertia check "$TMP/tiny.sdf" | jq -e '.valid == true and has("libsdformat") == false'
	# a run says it with its warning on the inertia
	run -0 --separate-stderr phys-step -n 1 "$TMP/broken.sdf"
	[[ $stderr == *"broken.sdf:3: link 'm::a': inertia triangle inequality broken: I1 + I2 < I3 (1 + 1 < 3): no rigid body has it; run as written (phys-inertia fix repairs it); libsdformat finds it invalid too, and refuses the file"* ]] || fail "$stderr"
	run -0 --separate-stderr phys-step -n 1 "$TMP/edge.sdf"
	[[ $stderr == *"edge.sdf:3: link 'm::a': its principal moments 1, 1, 2.0000000001 break"* ]] || fail "$stderr"
	run -0 --separate-stderr phys-step -n 1 "$TMP/tiny.sdf"
	[[ $stderr != *libsdformat* ]]
}
