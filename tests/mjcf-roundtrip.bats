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

# lines_agree WANT GOT TOL: the same words, every number within TOL.
lines_agree() {
	awk -v tol="$3" 'NR == FNR { want[FNR] = $0; n = FNR; next }
	{
		got[FNR] = $0; m = FNR
		k = split(want[FNR], w, " ")
		if (k != NF) { print "line " FNR ": " NF " fields, not " k; bad = 1; next }
		for (i = 1; i <= NF; i++) {
			if (w[i] ~ /^[-0-9.e+]+$/) {
				d = $i - w[i]; if (d < 0) d = -d
				if (d <= tol) continue
			} else if ($i == w[i])
				continue
			printf "line %d field %d: %s, not %s\n", FNR, i, $i, w[i]; bad = 1
		}
	}
	END { if (n != m) { print m " lines, not " n; bad = 1 }; exit bad }' "$1" "$2"
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
	# the hand's two joints: phys's link between them parts it from the
	# arm in the written tree, and MuJoCo's filter then no longer does
	keys_of "$TMP/out.xml" exclude | grep -qx 'exclude arm hand'
	# without the exclusions the hand touches the base and the arm
	sed '/<contact>/,/<\/contact>/d' "$TMP/out.xml" > "$TMP/none.xml"
	keys_of "$TMP/none.xml" contact > "$TMP/got"
	printf 'contact arm hand\ncontact base hand\ncontact shin world\n' | diff - "$TMP/got"
}
