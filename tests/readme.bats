#!/usr/bin/env bats
# README.md's "## A tour" runs as written: each "    $ command" line, in
# order, in a directory holding a copy of worlds/, prints exactly the
# indented lines shown under it (none shown: it prints nothing) and exits 0.

load helper
bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/.."

# tour_split DIR: the tour's commands into DIR/cmd.N, what each shows into
# DIR/want.N (N from 1), and the count on standard output.
tour_split() {
	awk -v dir="$1" '
	/^## / { in_tour = ($0 == "## A tour"); next }
	!in_tour { next }
	/^    \$ / { n++; print substr($0, 7) > (dir "/cmd." n); printf "" > (dir "/want." n); shown = 1; next }
	shown && /^    / { print substr($0, 5) > (dir "/want." n); next }
	{ shown = 0 }
	END { print n + 0 }' "$ROOT/README.md"
}

setup() {
	mkdir "$TMP/tour" "$TMP/work"
	cp -R "$ROOT/worlds" "$TMP/work/"
	N=$(tour_split "$TMP/tour")
}

@test "the tour shows commands, and every command phys builds" {
	[ "$N" -ge 20 ]
	for cmd in "$PHYS_BIN"/phys-*; do
		name=${cmd##*/}
		grep -qw -- "$name" "$TMP"/tour/cmd.* || fail "the tour never runs $name"
	done
}

@test "the README's tour runs in order and prints what it shows" {
	cd "$TMP/work"
	for i in $(seq 1 "$N"); do
		shown=$(cat "$TMP/tour/cmd.$i")
		bash -c "$shown" > "$TMP/got" 2> "$TMP/err" || fail "\$ $shown
exit status $?: $(cat "$TMP/err")"
		diff -u "$TMP/tour/want.$i" "$TMP/got" > "$TMP/diff" || fail "\$ $shown
prints otherwise than README.md shows:
$(cat "$TMP/diff")"
	done
	# the tour ends in a plot
	[ "$(head -c 8 pendulum.png | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]
}
