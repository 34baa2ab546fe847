#!/usr/bin/env bats
# MJCF -> phys -> MJCF: phys-sdf print --format mjcf of an MJCF model
# keeps its contact exclusions and its keyframes. Both files are read by
# Debian's libmujoco 2.2.2 (tests/data/mujoco_key_oracle.c and
# tests/data/mujoco_oracle.c, built here): the keyframes' qpos and qvel,
# the bodies' states in them, and the pairs in contact, compared with the
# original's; and phys starts a run of each in a keyframe alike.

load helper
bats_require_minimum_version 1.5.0

MJ="$BATS_TEST_DIRNAME/data/mjcf"

setup_file() {
	if [ -e /usr/include/mujoco/mujoco.h ]; then
		cc -O0 -o "$BATS_FILE_TMPDIR/keys" \
		    "$BATS_TEST_DIRNAME/data/mujoco_key_oracle.c" -lmujoco -lm
		cc -O0 -o "$BATS_FILE_TMPDIR/oracle" \
		    "$BATS_TEST_DIRNAME/data/mujoco_oracle.c" -lmujoco -lm
		cc -O0 -o "$BATS_FILE_TMPDIR/run" \
		    "$BATS_TEST_DIRNAME/data/mujoco_print_oracle.c" -lmujoco -lm
	fi
}

need_key_oracle() {
	[ -x "$BATS_FILE_TMPDIR/keys" ] || skip "no libmujoco (libmujoco-dev) to compare with"
}

# keys_of FILE WHAT: MuJoCo's lines of that kind (qpos, qvel, exclude,
# contact), body names without phys's model scope ("m::trip::base" is
# base; the world's geoms' body, worldbody, is the world), sorted.
keys_of() {
	"$BATS_FILE_TMPDIR/keys" "$1" | awk -v what="$2" '$1 == what {
		if (what == "exclude" || what == "contact") {
			for (i = 2; i <= 3; i++) {
				sub(/.*::/, "", $i)
				if ($i == "worldbody") $i = "world"
			}
			if ($2 > $3) { t = $2; $2 = $3; $3 = t }
		}
		print }' | sort -u
}

@test "mjcf round trip: the keyframes' qpos and qvel of a free body, hinges, a slide, a ball and a body of two joints are MuJoCo's" {
	need_key_oracle
	phys-sdf print --format mjcf "$MJ/roundtrip.xml" > "$TMP/out.xml"
	grep -q '<key name="crouch"' "$TMP/out.xml"
	grep -q '<key name="moving"' "$TMP/out.xml"
	for what in qpos qvel; do
		keys_of "$MJ/roundtrip.xml" $what > "$TMP/want"
		keys_of "$TMP/out.xml" $what > "$TMP/got"
		[ "$(wc -l < "$TMP/want")" = 2 ]
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
}

# named FILE: MuJoCo's bodies with their parents, joints with their
# bodies and types, and named geoms, by name, sorted.
named() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | awk '$1 == "body" { print $1, $2, $3 }
	    $1 == "joint" { print $1, $2, $3, $4 } $1 == "geom" { print $1, $2 }' | sort
}

# geoms FILE: how many geoms MuJoCo compiles FILE with.
geoms() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | awk '$1 == "ngeom" { print $2 }'
}

@test "mjcf round trip: bodies, joints (the free one too) and named geoms keep their names and places, and the model its name, also through SDF" {
	need_key_oracle
	named "$MJ/roundtrip.xml" > "$TMP/want"
	[ "$(grep -c . "$TMP/want")" = 12 ]
	grep -q '^joint root base free$' "$TMP/want"
	phys-sdf print --format mjcf "$MJ/roundtrip.xml" > "$TMP/out.xml"
	# unnamed geoms, which SDF names, come back unnamed: the same
	# named geoms, and as many geoms
	named "$TMP/out.xml" > "$TMP/got"
	diff "$TMP/want" "$TMP/got"
	[ "$(geoms "$TMP/out.xml")" = "$(geoms "$MJ/roundtrip.xml")" ]
	grep -q '^<mujoco model="trip">' "$TMP/out.xml"
	phys-sdf print "$MJ/roundtrip.xml" > "$TMP/trip.sdf"
	phys-sdf print --format mjcf "$TMP/trip.sdf" > "$TMP/again.xml"
	named "$TMP/again.xml" > "$TMP/got"
	diff "$TMP/want" "$TMP/got"
	[ "$(geoms "$TMP/again.xml")" = "$(geoms "$MJ/roundtrip.xml")" ]
}

@test "mjcf round trip: an <exclude>, and the pairs MuJoCo's filter kept apart, touch in the written file as in the original" {
	need_key_oracle
	phys-sdf print --format mjcf "$MJ/roundtrip.xml" > "$TMP/out.xml"
	keys_of "$MJ/roundtrip.xml" contact > "$TMP/want"
	keys_of "$TMP/out.xml" contact > "$TMP/got"
	# the leg stands on the floor; the hand, in the base, does not touch it
	[ "$(cat "$TMP/want")" = "contact shin world" ]
	diff "$TMP/want" "$TMP/got"
	keys_of "$TMP/out.xml" exclude | grep -qx 'exclude base hand'
	# the hand's two joints are one body's again, the arm's child,
	# which MuJoCo's filter keeps apart from it by itself: no exclude
	# is written for it
	! keys_of "$TMP/out.xml" exclude | grep -q 'exclude arm hand' || false
	# without the exclusions the hand touches the base
	sed '/<contact>/,/<\/contact>/d' "$TMP/out.xml" > "$TMP/none.xml"
	keys_of "$TMP/none.xml" contact > "$TMP/got"
	printf 'contact base hand\ncontact shin world\n' | diff - "$TMP/got"
}

# states FILE KEY PROFILE: phys's first state line of a run of FILE from
# keyframe KEY: its links', collisions' and joints' items (not the
# model's, whose name the written file changes), names without their
# scope, one a line.
states() {
	phys-step -q -p "$3" -n 0 --keyframe "$2" -i '*/pose' -i '*/linear_vel' \
	    -i '*/angular_vel' "$1" | head -1 | jq -r '.items | to_entries[] |
	    select(.key | test("::")) | select(.key | test("worldbody") | not) |
	    [(.key | sub(".*::"; "")), (.value | if type == "object" then
	     [.[]] else . end | .[] | tostring)] | join(" ")' | sort
}

@test "mjcf round trip: phys starts the written file in each keyframe where it starts the original, under ODE and MuJoCo" {
	# the floor, written in a body welded to the world, is read back
	# as ground (a ball resting on it: the last test)
	cp "$MJ/roundtrip.xml" "$TMP/in.xml"
	phys-sdf print --format mjcf "$TMP/in.xml" > "$TMP/out.xml"
	for p in default_physics mujoco; do
		for k in crouch moving; do
			states "$TMP/in.xml" $k $p > "$TMP/want"
			states "$TMP/out.xml" $k $p > "$TMP/got"
			[ "$(wc -l < "$TMP/want")" = 28 ]
			lines_agree "$TMP/want" "$TMP/got" 1e-9
		done
	done
	# a keyframe moves the bodies: the two starts differ
	states "$TMP/in.xml" crouch mujoco > "$TMP/a"
	states "$TMP/in.xml" moving mujoco > "$TMP/b"
	run ! lines_agree "$TMP/a" "$TMP/b" 1e-3
}

# key_bodies FILE KEY: every body's world pose and velocities in keyframe
# KEY as MuJoCo sets it (mujoco_oracle.c), names without phys's scope.
key_bodies() {
	"$BATS_FILE_TMPDIR/oracle" "$1" "$2" | awk '
	$1 == "body" { n = $2; sub(/.*::/, "", n); s[$2] = n " " $4 " " $5 " " $6
		# the rotation, whatever the sign of the quaternion
		w = $7; x = $8; y = $9; z = $10
		s[$2] = s[$2] sprintf(" %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
		    1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y),
		    2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x),
		    2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)) }
	$1 == "vel" { print s[$2], $3, $4, $5, $6, $7, $8 }' | sort
}

@test "mjcf round trip: MuJoCo starts the written file in each keyframe where it starts the original, a hinge's ref included" {
	need_key_oracle
	phys-sdf print --format mjcf "$MJ/keyframe.xml" > "$TMP/out.xml"
	for k in crouch moving; do
		key_bodies "$MJ/keyframe.xml" $k > "$TMP/want"
		# the bodies of both files: phys's link between the hand's
		# two joints is a body of the written one
		key_bodies "$TMP/out.xml" $k | grep -v -e '^worldbody ' \
		    -e '^hand_wrist1 ' > "$TMP/got"
		# five bodies moved by the joints, the mocap body and its marker
		[ "$(wc -l < "$TMP/want")" = 7 ]
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
}

@test "mjcf round trip: a keyframe that leaves a connect and a weld apart starts MuJoCo where the original does" {
	need_key_oracle
	# the four-bar and the welded lid of loops.xml (not its gear: the
	# writer makes no joint equality), with keys that open the loop
	# and lift the lid off its weld: the written file's ghost bodies,
	# welded to the coupler and the lid, stay where their joints put
	# them, for the welds to pull together as the original's equalities
	sed -e '/<body name="wheel1"/,/<\/worldbody>/{/<\/worldbody>/!d}' \
	    -e '/<joint name="gear"/d' \
	    -e 's#</mujoco>#<keyframe><key name="lifted" qpos="0 0 0 0.1"/><key name="open" qpos="0.3 0 0 0" qvel="1 0 0 0"/></keyframe>&#' \
	    "$MJ/loops.xml" > "$TMP/loops.xml"
	phys-sdf print --format mjcf "$TMP/loops.xml" > "$TMP/out.xml"
	for k in lifted open; do
		grep -q "<key name=\"$k\"" "$TMP/out.xml"
		key_bodies "$TMP/loops.xml" $k > "$TMP/want"
		key_bodies "$TMP/out.xml" $k | grep -v '^loop ' > "$TMP/got"
		[ "$(wc -l < "$TMP/want")" = 4 ]
		lines_agree "$TMP/want" "$TMP/got" 1e-9
	done
}

# A connect and a weld are read as a ball and a fixed joint closing a
# loop, and written back as a connect at the same anchor and a weld, as
# soft as the source's (phys held them stiff, and MuJoCo's engine closed
# them through a ghost body, 7e-5 rad off libmujoco's after 1 s): the
# printed model has the source's bodies, masses, centres of mass and
# inertia, joints and named geoms, nothing more (each loop wrote a ghost
# body, a ball joint and a weld before: Cassie's, xArm7's and the
# 2F-85's models came back with bodies their sources have not), and
# libmujoco runs it as the source; a loop of no MJCF softness (an SDF
# model's) is written as stiff as phys holds loops.
@test "mjcf round trip: a connect and a weld come back as a connect and a weld, with the source's bodies, joints, masses, inertia and softness" {
	need_key_oracle
	phys-sdf print --format mjcf "$MJ/loops.xml" > "$TMP/out.xml"
	grep -q '<connect body1="coupler" body2="rocker" anchor="0 0 0.399999' "$TMP/out.xml"
	grep -q '<weld body1="lid" solref=' "$TMP/out.xml"
	named "$MJ/loops.xml" > "$TMP/want"
	named "$TMP/out.xml" > "$TMP/got"
	diff "$TMP/want" "$TMP/got"
	"$BATS_FILE_TMPDIR/oracle" "$MJ/loops.xml" | grep '^body' | cut -d' ' -f2- | sort > "$TMP/want"
	"$BATS_FILE_TMPDIR/oracle" "$TMP/out.xml" | grep '^body' | cut -d' ' -f2- | sort > "$TMP/got"
	[ "$(wc -l < "$TMP/want")" = 6 ]
	lines_agree "$TMP/want" "$TMP/got" 1e-12
	# the two links of the connect touch, as MuJoCo lets them, and are
	# no <exclude>: libmujoco runs the printed linkage as phys's MuJoCo
	# engine runs the source, to 1e-9
	! grep -q '<exclude' "$TMP/out.xml"
	paste <("$BATS_FILE_TMPDIR/run" "$TMP/out.xml" run 1 crank_joint) \
	    <(phys-step -q -p mujoco -t 1 -i 'loops::crank_joint/position' "$MJ/loops.xml" |
	    jq -r 'select(.t > 0) | .items[][0]') |
	    awk '{ e = $2 - $3; if (e < 0) e = -e; if (e > m) m = e; n++ }
		END { if (n != 500 || m > 1e-9) { print n " lines, off by " m; exit 1 } }'
	# the parallelogram, printed, swung from its key: libmujoco runs it
	# as the source, whose connect, of MuJoCo's default softness, lets
	# the coupler tilt 2.3e-4 rad from level
	phys-sdf print --format mjcf "$MJ/keyloop.xml" > "$TMP/kl.xml"
	grep -q '<connect body1="coupler" body2="rocker" anchor="1 0 0" solref="0.02 1"' "$TMP/kl.xml"
	paste <("$BATS_FILE_TMPDIR/run" "$MJ/keyloop.xml" run 1 coupler_hinge swung) \
	    <("$BATS_FILE_TMPDIR/run" "$TMP/kl.xml" run 1 coupler_hinge swung) |
	    awk '{ e = $2 - $4; if (e < 0) e = -e; if (e > m) m = e; n++ }
		END { if (n != 500 || m > 1e-9) { print n " lines, off by " m; exit 1 } }'
	# the same loop of no softness of its own (its SDF without it) is
	# held level to 1e-6 rad, as stiffly as phys holds loops
	phys-sdf print "$MJ/keyloop.xml" |
	    sed '/<joint name="equality0"/,/<\/joint>/{/<physics>/,/<\/physics>/d}' > "$TMP/kl.sdf"
	! grep -q solref "$TMP/kl.sdf"
	# (a model alone: phys's step of 1 ms, two of which are its time
	# constant)
	phys-sdf print --format mjcf "$TMP/kl.sdf" > "$TMP/stiff.xml"
	grep -q '<connect body1="coupler" body2="rocker" anchor="1 0 0" solref="0.002' "$TMP/stiff.xml"
	paste <("$BATS_FILE_TMPDIR/run" "$TMP/stiff.xml" run 1 crank_hinge swung) \
	    <("$BATS_FILE_TMPDIR/run" "$TMP/stiff.xml" run 1 coupler_hinge swung) |
	    awk '{ e = $2 + $4; if (e < 0) e = -e; if (e > m) m = e; n++ }
		END { if (n != 1000 || m > 1e-6) { print n " lines, off by " m; exit 1 } }'
}

@test "mjcf round trip: a universal joint's keyframe is its two hinges' angles and rates" {
	# the head turned by Ry(0.4) Rx(0.7) (roll 0.7, pitch 0.4), turning
	# at -0.3 rad/s about y and 0.5 rad/s about x as Ry(0.4) carries it
	local w1 w3
	read -r w1 w3 <<< "$(awk 'BEGIN { printf "%.17g %.17g", 0.5 * cos(0.4), -0.5 * sin(0.4) }')"
	cat > "$TMP/u.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9" xmlns:phys="urn:phys:mjcf"><world name="w">
	<model name="u"><pose>0 0 1 0 0 0</pose>
	  <link name="base"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
	  <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
	  <link name="head">
	    <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.03</izz></inertia></inertial>
	    <phys:key name="tilt"><phys:pose>0 0 0 0.7 0.4 0</phys:pose>
	      <phys:linear_vel>0 0 0</phys:linear_vel><phys:angular_vel>$w1 -0.3 $w3</phys:angular_vel></phys:key>
	  </link>
	  <joint name="neck" type="universal"><parent>base</parent><child>head</child>
	    <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
	</model></world></sdf>
	EOF
	phys-sdf print --format mjcf "$TMP/u.sdf" > "$TMP/u.xml"
	# the hinge of axis2, fixed in the base, first
	sed -n 's/.*<key name="tilt" qpos="\([^"]*\)" qvel="\([^"]*\)".*/\1 \2/p' "$TMP/u.xml" > "$TMP/got"
	echo "0.4 0.7 -0.3 0.5" > "$TMP/want"
	lines_agree "$TMP/want" "$TMP/got" 1e-12
}

@test "mjcf round trip: a keyframe the written joints cannot hold is named once on stderr and left out" {
	# a pendulum whose keyframe 'off' has the bob away from its hinge
	cat > "$TMP/w.sdf" <<-'EOF'
	<?xml version="1.0"?>
	<sdf version="1.9" xmlns:phys="urn:phys:mjcf"><world name="w">
	<model name="p"><pose>0 0 2 0 0 0</pose>
	  <link name="bob"><pose>0 0 -1 0 0 0</pose>
	    <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
	    <phys:key name="swing"><phys:pose>-0.479425538604203 0 -0.877582561890373 0 0.5 0</phys:pose>
	      <phys:linear_vel>0 0 0</phys:linear_vel><phys:angular_vel>0 0 0</phys:angular_vel></phys:key>
	    <phys:key name="off"><phys:pose>0.3 0 -1 0 0 0</phys:pose>
	      <phys:linear_vel>0 0 0</phys:linear_vel><phys:angular_vel>0 0 0</phys:angular_vel></phys:key>
	  </link>
	  <joint name="pivot" type="revolute"><parent>world</parent><child>bob</child>
	    <pose>0 0 1 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
	</model></world></sdf>
	EOF
	run --separate-stderr phys-sdf print --format mjcf "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[ "$(grep -c "keyframe 'off'" <<< "$stderr")" = 1 ]
	grep -q "keyframe 'off' is not written as MJCF: joint 'p::pivot' cannot take link 'p::bob' where the key has it (it moved off the joint's anchor)" <<< "$stderr"
	! grep -q "swing" <<< "$stderr" || false
	near "$(sed -n 's/.*<key name="swing" qpos="\([^"]*\)" qvel="0".*/\1/p' <<< "$output")" 0.5 1e-12
	! grep -q 'name="off"' <<< "$output" || false
}

@test "mjcf round trip: a floor in a body without joints is ground, which a ball comes to rest on, before and after" {
	cat > "$TMP/in.xml" <<-EOF
	<mujoco model="drop">
	  <worldbody>
	    <body name="ground" pos="0 0 -0.5" euler="0 0 30">
	      <geom name="floor" type="plane" size="5 5 0.1"/>
	    </body>
	    <body name="ball" pos="0.3 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
	  </worldbody>
	</mujoco>
	EOF
	phys-sdf print --format mjcf "$TMP/in.xml" > "$TMP/out.xml"
	for f in in out; do
		for p in default_physics mujoco; do
			# 1.5 m of fall and 1 s at rest: the centre a radius above
			phys-step -q -p $p -t 2 -e 100 -i '*::ball/pose' "$TMP/$f.xml" |
			    tail -1 | jq -r '.items[] | "\(.x) \(.z)"' > "$TMP/end"
			read -r x z < "$TMP/end"
			near "$z" -0.4 2e-3
			near "$x" 0.3 1e-6
		done
	done
}
