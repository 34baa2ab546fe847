# Shared set-up for every bats suite: bats-support, bats-assert, the build
# under test ($PHYS_BIN) first on PATH, and small numeric helpers.
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${PHYS_BIN:=$BATS_TEST_DIRNAME/../build}"
PATH="$PHYS_BIN:$PATH"
WORLDS="$BATS_TEST_DIRNAME/../worlds"
# Every test writes only below $TMP: its own directory, unless the suite's
# setup makes another. Never empty, so "$TMP/x" cannot mean "/x".
TMP=${BATS_TEST_TMPDIR:-$BATS_RUN_TMPDIR}
# The reference corpus (SDFormat spec files, Gazebo's worlds and models) is
# not part of the project: beside the clone, or where PHYS_REFERENCE says.
REF=${PHYS_REFERENCE:-$BATS_TEST_DIRNAME/../../shared/reference}
export GAZEBO_MODEL_PATH="$REF/gazebo-models"
export GAZEBO_RESOURCE_PATH="$REF/gazebo-resources"
# the project's own models, for <include><uri>model://NAME</uri></include>
export SDF_PATH="$WORLDS/models"

# need_reference: skip a test that reads the reference corpus when it is absent.
need_reference() {
	[ -d "$REF/gazebo-worlds" ] || skip "no reference corpus at $REF (PHYS_REFERENCE)"
}
# Sanitizer builds: leaks are checked, and any report fails the command.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# near ACTUAL EXPECTED TOL: succeed when |actual - expected| <= tol.
near() {
	awk -v a="$1" -v e="$2" -v t="$3" 'BEGIN {
		d = a - e; if (d < 0) d = -d
		if (d <= t) exit 0
		printf "expected %s within %s of %s (off by %g)\n", a, t, e, d > "/dev/stderr"
		exit 1 }'
}

# rel ACTUAL EXPECTED FRACTION: succeed when within that relative error.
rel() {
	awk -v a="$1" -v e="$2" -v f="$3" 'BEGIN {
		d = a - e; if (d < 0) d = -d; m = e < 0 ? -e : e
		if (d <= f * m) exit 0
		printf "expected %s within %s relative of %s (off by %g)\n", a, f, e, d / m > "/dev/stderr"
		exit 1 }'
}

# for_both CMD ARGS...: CMD ARGS PROFILE for the world's "ode" profile and
# its "bullet", "mujoco", "simbody" and "dart" ones (worlds/closed_forms.sdf,
# worlds/resting_box.sdf). Not as "CMD || fail", which would turn off set -e
# inside CMD and let all its checks but the last pass unseen: the output of
# a failing test shows the profile last named.
for_both() {
	local p
	for p in ode bullet mujoco simbody dart; do
		echo "under the $p profile"
		"$@" "$p"
	done
}

# risen PROFILE FROM TO SECONDS: the height of a body a resize left sunk in
# the ground at FROM, whose resting height is TO, SECONDS later: TO where
# the contacts push it out at once (ODE's here correct at 0.5 m/s, Bullet's
# split impulse at once), FROM plus what DART corrects at 1 mm/s (its
# contacts' largest correcting speed) under DART.
risen() {
	if [ "$1" = dart ]; then
		awk -v f="$2" -v s="$4" 'BEGIN { printf "%.9g\n", f + 0.001 * s }'
	else
		echo "$3"
	fi
}

# closure FILE: the loop-closure equation of worlds/fourbar.sdf over a run
# of its state lines: the largest | |BC| - b |, with theta2 and theta4
# from the two ground joints, and how far the crank turned.
closure() {
	jq -r '.items | [.["fourbar::crank_pivot/position"][0], .["fourbar::rocker_pivot/position"][0]] | @tsv' "$1" |
	    awk 'BEGIN { a = 0.2; b = 0.5; c = 0.4; d = 0.5; pi = atan2(0, -1)
		t20 = pi / 3; t40 = 83.25143474099328 * pi / 180 }
		{ t2 = t20 - $1; t4 = t40 - $2
		  bx = a * cos(t2); bz = a * sin(t2); cx = d + c * cos(t4); cz = c * sin(t4)
		  r = sqrt((cx - bx)^2 + (cz - bz)^2) - b; if (r < 0) r = -r; if (r > m) m = r
		  if ($1 > hi) hi = $1; if ($1 < lo) lo = $1 }
		END { printf "%.9g %.9g\n", m, hi - lo }'
}

# freq FILE FROM TO: the frequency over a time window of the second
# column ("t value" lines), from its upward zero crossings.
freq() {
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b && NR > 1 && p < 0 && $2 >= 0 {
		tc = pt + (0 - p) * ($1 - pt) / ($2 - p)
		if (first == "") first = tc; else { last = tc; n++ } }
		{ pt = $1; p = $2 }
		END { printf "%.9g\n", n / (last - first) }' "$1"
}
