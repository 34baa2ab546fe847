# Shared set-up for every bats suite: bats-support, bats-assert, the build
# under test ($PHYS_BIN) first on PATH, and small numeric helpers.
# Their files sourced directly: their load.bash runs dirname once a file,
# sixteen processes before every test.
for f in /usr/lib/bats/bats-support/src/{output,error,lang}.bash \
    /usr/lib/bats/bats-assert/src/*.bash; do
	source "$f"
done
unset f

# a path without "." or ".." in it: zsh does not look up commands in such
# a directory of PATH for its completions ($commands)
PHYS_BIN=${PHYS_BIN:-$BATS_TEST_DIRNAME/../build}
PHYS_BIN=$(cd "$PHYS_BIN" 2>/dev/null && pwd -P || echo "$PHYS_BIN")
export PHYS_BIN
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

# once NAME CMD...: CMD's standard output kept as $BATS_FILE_TMPDIR/NAME
# (its standard error as NAME.err) for every test of the suite that asks
# for it, run once even when bats runs the tests side by side; prints
# the file's path.
once() {
	local out="$BATS_FILE_TMPDIR/$1"
	shift
	(
		flock 9
		if [ ! -e "$out" ]; then
			"$@" > "$out.part" 2> "$out.err" && mv "$out.part" "$out"
		fi
	) 9> "$out.lock"
	echo "$out"
}

# Sanitizer builds: leaks are checked, and any report fails the command.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export LSAN_OPTIONS="suppressions=$BATS_TEST_DIRNAME/data/lsan.supp"
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
# An awk function: rpy_matrix("R P Y", m) puts Rz(yaw) Ry(pitch) Rx(roll)
# into m[0..8], row by row.
RPY_MATRIX_AWK='
function rpy_matrix(s, m,   v, cr, sr, cp, sp, cy, sy) {
	split(s, v, " ")
	cr = cos(v[1]); sr = sin(v[1]); cp = cos(v[2]); sp = sin(v[2])
	cy = cos(v[3]); sy = sin(v[3])
	m[0] = cy * cp; m[1] = cy * sp * sr - sy * cr; m[2] = cy * sp * cr + sy * sr
	m[3] = sy * cp; m[4] = sy * sp * sr + cy * cr; m[5] = sy * sp * cr - cy * sr
	m[6] = -sp; m[7] = cp * sr; m[8] = cp * cr
}'

rel() {
	awk -v a="$1" -v e="$2" -v f="$3" 'BEGIN {
		d = a - e; if (d < 0) d = -d; m = e < 0 ? -e : e
		if (d <= f * m) exit 0
		printf "expected %s within %s relative of %s (off by %g)\n", a, f, e, d / m > "/dev/stderr"
		exit 1 }'
}

# engines: the engine types the binary runs, one a line, in the order of
# lib/engine/registry.c (phys-param list --doc gives each parameter a
# field per engine, between "engines" and "doc"): a new engine there is
# looped over by every suite that asks here. Asked once a suite.
engines() {
	cat "$(once engines engine_list)"
}
engine_list() {
	phys-param list --doc | head -1 | jq -r 'keys_unsorted as $k |
	    $k[($k | index("engines")) + 1:($k | index("doc"))][]'
}

# engine_profiles STEP: a <physics> profile per engine the binary runs,
# named as its type, of max_step_size STEP s, the first the default: for
# worlds a test writes to run under each engine.
engine_profiles() {
	local e d=' default="true"'
	for e in $(engines); do
		printf '    <physics name="%s" type="%s"%s><max_step_size>%s</max_step_size></physics>\n' \
		    "$e" "$e" "$d" "$1"
		d=
	done
}

# engine_name TYPE: the engine's name as messages give it ("MuJoCo"),
# from phys-param doc's row of max_step_size ("; ODE: native; ...").
engine_name() {
	awk -F '\t' -v t="$1" '$1 == t { print $2; n++ } END { exit n != 1 }' \
	    "$(once engine-names engine_names)"
}
# engine_names: each engine's type and name, a tab between
engine_names() {
	paste <(engines) <(phys-param doc |
	    awk '$0 == ".B max_step_size" { getline; print; exit }' |
	    tr ';' '\n' | sed -n 's/^ \([^ :][^:]*\): .*/\1/p')
}

# each_engine CMD ARGS...: CMD ARGS ENGINE for every engine the binary
# lists, ENGINE also naming the world's profile for it (as in
# worlds/closed_forms.sdf and worlds/resting_box.sdf). Not as
# "CMD || fail", which would turn off set -e inside CMD and let all its
# checks but the last pass unseen: the output of a failing test shows
# the engine last named.
each_engine() {
	local e
	for e in $(engines); do
		echo "under $e"
		"$@" "$e"
	done
}

# each_engine_of "ENGINE..." CMD...: each_engine over those of the
# ENGINEs phys has.
each_engine_of() {
	local e list=$1
	shift
	for e in $list; do
		engines | grep -qx "$e" || continue
		echo "under $e"
		"$@" "$e"
	done
}

# profile_world WORLD ENGINE: the path of a world with a profile named
# ENGINE: WORLD where it has one, else a copy in $TMP with one carried
# over from WORLD's default profile (phys-preset add --engine), so that a
# new engine runs the shipped worlds before they name it.
profile_world() {
	if phys-preset list -1 "$1" | grep -qx "$2"; then
		echo "$1"
		return
	fi
	phys-preset add -q --engine "$2" "$2" "$1" > "$TMP/$2-$(basename "$1")"
	echo "$TMP/$2-$(basename "$1")"
}

# series FILE ITEM [FIELD]: "t value" per state line, FIELD a key of an
# object item or the index into an array one (none for a number).
series() {
	jq -r --arg i "$2" --arg f "${3-}" '[.t, (.items[$i] | if type == "array"
	    then .[($f|tonumber)] elif type == "object" then .[$f] else . end)] | @tsv' "$1"
}

# at FILE T ITEM FIELD: the value at time T (failing when there is none).
at() {
	series "$1" "$3" "$4" | awk -v t="$2" '$1 == t && $2 != "" { print $2; n++ }
	    END { exit n != 1 }'
}

# period [LEVEL]: the mean time between downward crossings of LEVEL (0
# by default) by the second column of "t value" lines on stdin.
period() {
	awk -v c="${1:-0}" '{ $2 -= c } NR > 1 && p > 0 && $2 <= 0 {
		tc = pt + (0 - p) * ($1 - pt) / ($2 - p)
		if (first == "") first = tc; else { last = tc; n++ } }
		{ pt = $1; p = $2 }
		END { if (n < 1) exit 1; printf "%.9g\n", (last - first) / n }'
}

# fall_form ENGINE WORLD: how ENGINE integrates a free fall, from
# WORLD's sphere fall::link (at rest at 30 m) after 10 steps of 1 ms:
# "euler" for semi-implicit Euler's z0 - g h^2 n (n + 1) / 2, "parabola"
# for z0 - g t^2 / 2 (an integrator exact for a constant force); fails
# when the fall follows neither.
fall_form() {
	phys-step -p "$1" -n 10 -i 'fall::link/pose' "$2" 2>/dev/null | tail -1 |
	    jq -r '.items["fall::link/pose"].z' | awk '{
		e = 30 - 9.81 * 1e-6 * 10 * 11 / 2; p = 30 - 9.81 * 0.01 * 0.01 / 2
		if ($1 - e < 1e-12 && e - $1 < 1e-12) print "euler"
		else if ($1 - p < 1e-12 && p - $1 < 1e-12) print "parabola"
		else { print "a fall of neither form: " $1 > "/dev/stderr"; exit 1 } }'
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

# double_pendulum ENGINE TYPE PARENT CHILD: a world of two links, the
# upper (B) on a revolute joint to the world, the lower (A) hanging from
# it by a joint of type TYPE from PARENT to CHILD (with parent A, B has
# two parents: an engine's tree holds one, the other closes a loop), with
# an "ode" profile (its world solver) and ENGINE's, steps of 1 ms.
double_pendulum() {
	cat <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size><ode><solver><type>world</type></solver></ode></physics>
<physics name="$1" type="$1"><max_step_size>0.001</max_step_size></physics>
<model name="m">
<link name="B"><pose>0 0.2 1.5 0.4 0 0</pose>
<inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.01</izz></inertia></inertial></link>
<link name="A"><pose>0.3 0.4 0.6 0.2 0.5 0</pose>
<inertial><mass>2</mass><pose>0 0 -0.2 0 0 0</pose><inertia><ixx>0.03</ixx><iyy>0.02</iyy><izz>0.01</izz><ixy>0.001</ixy></inertia></inertial></link>
<joint name="top" type="revolute"><parent>world</parent><child>B</child>
<pose>0 0 0.5 0 0 0</pose><axis><xyz>1 0 0</xyz></axis></joint>
<joint name="knee" type="$2"><parent>$3</parent><child>$4</child>
<pose relative_to="B">0 0 -0.5 0 0 0</pose><axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
</model></world></sdf>
SDF
}

# sanitized: the programs under test are a sanitized build (make
# check-sanitized's build/fuzz), which reserves terabytes of address
# space for its shadow and keeps freed blocks a while: address-space
# bounds and resident sizes do not apply to it.
# Asked of nm once a suite (the binary's symbol table is large).
sanitized() {
	[ "$(cat "$(once sanitized asan_build)")" = yes ]
}
asan_build() {
	if nm "$PHYS_BIN/phys-step" 2>/dev/null | grep -q __asan_init; then
		echo yes
	else
		echo no
	fi
}

# bounded SECONDS KB CMD...: CMD killed after SECONDS of processor time
# (far above what the work takes) or six times as many by the clock (a
# guard against a hang that spends none), and, unless sanitized, refused
# more than KB of address space: what a hostile input once cost fails
# the test loudly instead of exhausting the machine. Processor time, not
# the clock's, holds the bound: a Simbody refusal of 3 s took past 10 s
# by the clock while other builds shared the machine's two processors.
# Sanitized commands run two to three times slower and reserve address
# space of their own: they get three times the time and no bound on
# space (the plain run of the same suite holds the bounds themselves).
bounded() {
	local s=$1 kb=$2
	shift 2
	if sanitized; then
		s=$((s * 3))
		(ulimit -t "$s" && exec timeout -s KILL "$((s * 6))" "$@")
	else
		(ulimit -v "$kb" -t "$s" &&
		    exec timeout -s KILL "$((s * 6))" "$@")
	fi
}
# bounded and what it calls, for a suite's child shells (bash -c) too
export -f bounded sanitized asan_build once

# max_rss_kb CMD...: run CMD (status ignored), print its peak resident set
# (its reaped children, the mesh decoder among them, included).
max_rss_kb() {
	/usr/bin/time -f %M -o "$TMP/rss" "$@" >/dev/null 2>"$TMP/err" || true
	tail -1 "$TMP/rss"
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

# ends_whole FILE: the last byte is a newline and every line is JSON.
ends_whole() {
	[ -s "$1" ] || { echo "$1 is empty"; return 1; }
	[ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 0a ] ||
	    { echo "$1 ends inside a line"; return 1; }
	jq -c . "$1" >/dev/null
}

# blocked_in PID PATTERN: wait (60 s at most) until PID's main thread is
# blocked in a kernel function matching PATTERN (/proc/PID/wchan: a
# write to a full pipe is *pipe_write, a read of an empty one
# *pipe_read): an event to wait for, where a sleep would only hope.
blocked_in() {
	local i w
	for ((i = 0; i < 1200; i++)); do
		w=$(cat "/proc/$1/wchan" 2> /dev/null) || { echo "$1 has ended"; return 1; }
		# shellcheck disable=SC2053
		[[ $w == $2 ]] && return 0
		sleep 0.05
	done
	echo "$1 never blocked in $2 (it is in ${w:-?})"
	return 1
}

# eventually SECONDS CMD...: wait until CMD succeeds, polling every
# 0.05 s; fail after SECONDS (a guard against a hang, far above the time
# it takes on a loaded machine: never a measure of it).
eventually() {
	local n=$(($1 * 20)) i
	shift
	for ((i = 0; i < n; i++)); do
		"$@" 2> /dev/null && return 0
		sleep 0.05
	done
	echo "not within $n polls: $*"
	return 1
}

# gone_within SECONDS PID: the process has ended within SECONDS (a guard
# against a program that does not stop, far above the time it takes:
# never a measure of it).
gone_within() {
	timeout "$1" tail -s 0.05 --pid="$2" -f /dev/null || { echo "still running $1 s after the signal"; return 1; }
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

# lines_at_least FILE N: wait (up to 20 s, a guard against a hang) until
# FILE holds N lines: an event to wait for, not a time.
lines_at_least() {
	local i
	for i in $(seq 2000); do
		[ "$(wc -l < "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.01
	done
	echo "$1 has $(wc -l < "$1") lines, not $2"
	return 1
}

# ---- libsdformat as the reference (tests/data/sdformat_oracle.cc) ----

# build_sdformat_oracle: in a setup_file, where Debian's libsdformat is
# installed.
# Compiled once for the suites that use it (6 s of C++ each), beside the
# build under test, named by its source's checksum.
build_sdformat_oracle() {
	local src=$BATS_TEST_DIRNAME/data/sdformat_oracle.cc kept
	pkg-config --exists sdformat12 2>/dev/null || return 0
	kept=$PHYS_BIN/test-oracles/sdformat-$(cksum < "$src" | cut -d' ' -f1)
	if [ ! -x "$kept" ]; then
		mkdir -p "${kept%/*}" 2>/dev/null || kept=$BATS_FILE_TMPDIR/kept
		c++ -O0 -o "$kept.$$" "$src" \
		    $(pkg-config --cflags --libs sdformat12) &&
		    mv "$kept.$$" "$kept"
	fi
	cp "$kept" "$BATS_FILE_TMPDIR/oracle"
}

# need_oracle: skip a comparison with libsdformat when it is not installed.
need_oracle() {
	[ -x "$BATS_FILE_TMPDIR/oracle" ] || skip "no libsdformat (libsdformat-dev) to compare with"
}

# Facts as "KIND NAME numbers...": poses as x y z and the rotation matrix
# (rpy give the same rotation many ways), masses, inertias, limits, and
# surface values. The same words for both sides, compared by facts_agree.
JQ_FACTS='
def R(r; p; y): [((y|cos) * (p|cos)), ((y|cos) * (p|sin) * (r|sin) - (y|sin) * (r|cos)),
	((y|cos) * (p|sin) * (r|cos) + (y|sin) * (r|sin)), ((y|sin) * (p|cos)),
	((y|sin) * (p|sin) * (r|sin) + (y|cos) * (r|cos)), ((y|sin) * (p|sin) * (r|cos) - (y|cos) * (r|sin)),
	(0 - (p|sin)), ((p|cos) * (r|sin)), ((p|cos) * (r|cos))];
def pose(k; n; v): "\(k) \(n) \(v[0]) \(v[1]) \(v[2]) \(R(v[3]; v[4]; v[5]) | map(tostring) | join(" "))";
def p6: [.x, .y, .z, .roll, .pitch, .yaw];
'

# oracle_facts FILE: libsdformat's.
oracle_facts() {
	"$BATS_FILE_TMPDIR/oracle" "$1" | jq -r "$JQ_FACTS"'
	if .model then pose("pose"; .model; .pose)
	elif .link then pose("pose"; .link; .pose), pose("inertial_pose"; .link; .inertial_pose),
		"mass \(.link) \(.mass)",
		(. as $l | ("ixx", "iyy", "izz", "ixy", "ixz", "iyz") | "\(.) \($l.link) \($l[.])")
	elif .collision then pose("pose"; .collision; .pose),
		(. as $c | ("mu", "mu2", "kp", "kd", "max_contacts") | select($c[.] != null) | "\(.) \($c.collision) \($c[.])")
	elif .joint then pose("pose"; .joint; .pose),
		(. as $j | select(.lower != null) | ("lower", "upper", "damping", "friction") | "\(.) \($j.joint) \($j[.])")
	else empty end'
}

# phys_facts FILE: phys's, from what phys-step and phys-param say (the
# poses as read: without limits, so that no joint outside them starts at
# the nearest).
phys_facts() {
	local free=()
	phys-param get "$1" '*/axis.limit.lower' > /dev/null 2>&1 &&
	    free=(-s '*/axis.limit.lower=-1e16' -s '*/axis.limit.upper=1e16')
	phys-step -n 0 "${free[@]}" -i '*/pose' "$1" 2> /dev/null | jq -r "$JQ_FACTS"'
	.items | to_entries[] | pose("pose"; .key | sub("/pose$"; ""); .value | p6)'
	phys-param get "$1" '*' | jq -r "$JQ_FACTS"'
	(.name | [sub("/[^/]*$"; ""), sub("^.*/"; "")]) as [$n, $p] |
	{"inertial.mass": "mass", "inertial.inertia.ixx": "ixx", "inertial.inertia.iyy": "iyy",
	 "inertial.inertia.izz": "izz", "inertial.inertia.ixy": "ixy", "inertial.inertia.ixz": "ixz",
	 "inertial.inertia.iyz": "iyz", "surface.friction.ode.mu": "mu", "surface.friction.ode.mu2": "mu2",
	 "surface.contact.ode.kp": "kp", "surface.contact.ode.kd": "kd", "max_contacts": "max_contacts",
	 "axis.limit.lower": "lower", "axis.limit.upper": "upper", "axis.dynamics.damping": "damping",
	 "axis.dynamics.friction": "friction"}[$p] as $k |
	if $p == "inertial.pose" then pose("inertial_pose"; $n; .value | p6)
	elif $k then "\($k) \($n) \(.value)" else empty end'
}

# facts_agree WANT GOT: every fact of WANT is in GOT, equal within 1e-9
# (relative to the value's size, and at least absolute).
facts_agree() {
	awk 'NR == FNR { k = $1 " " $2; want[k] = $0; next }
	{ k = $1 " " $2; if (!(k in want)) next; seen[k] = 1
	  n = split(want[k], w, " ")
	  for (i = 3; i <= n; i++) {
		d = $i - w[i]; if (d < 0) d = -d; m = w[i] < 0 ? -w[i] : w[i]
		if (d > 1e-9 * (m > 1 ? m : 1)) { print "differs: " want[k] "\n    phys: " $0; bad = 1; next }
	  } }
	END { for (k in want) if (!(k in seen)) { print "phys lacks: " want[k]; bad = 1 }
	      exit bad }' "$1" "$2"
}

# agrees_with_libsdformat ROBOT: phys reads it as libsdformat converts it.
agrees_with_libsdformat() {
	oracle_facts "$1" > "$TMP/want"
	phys_facts "$1" > "$TMP/got"
	[ "$(wc -l < "$TMP/want")" -gt 3 ]
	facts_agree "$TMP/want" "$TMP/got"
}

# cube_obj N: a 0.1 m cube whose every face is an N x N grid (12 N^2
# triangles), outward, as an OBJ on standard output.
cube_obj() {
	awk -v n="$1" 'BEGIN { h = 0.05
	    for (f = 0; f < 6; f++) { a = int(f / 2); s = f % 2 ? 1 : -1
		u = (a + 1) % 3; w = (a + 2) % 3; b = v
		for (i = 0; i <= n; i++) for (j = 0; j <= n; j++) {
			p[a] = s * h; p[u] = -h + 2 * h * i / n; p[w] = -h + 2 * h * j / n
			printf "v %g %g %g\n", p[0], p[1], p[2]; v++ }
		for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
			q = b + i * (n + 1) + j + 1; r = q + n + 1
			if (s > 0) printf "f %d %d %d\nf %d %d %d\n", q, r, r + 1, q, r + 1, q + 1
			else printf "f %d %d %d\nf %d %d %d\n", q, r + 1, r, q, q + 1, r + 1 } } }'
}

# two_cubes: an OBJ of two objects, cubes 0.2 m a side: the first over
# x 0..0.2, the second over x 0.6..0.8.
two_cubes() {
	awk 'BEGIN { for (o = 0; o < 2; o++) {
		printf "o cube%d\n", o
		for (i = 0; i < 8; i++)
			printf "v %g %g %g\n", 0.6 * o + (i % 2) * 0.2, (int(i / 2) % 2) * 0.2, (i >= 4) * 0.2
		b = 8 * o
		printf "f %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\n", b+1, b+3, b+4, b+2, b+5, b+6, b+8, b+7, b+1, b+2, b+6, b+5
		printf "f %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\n", b+3, b+7, b+8, b+4, b+1, b+5, b+7, b+3, b+2, b+4, b+8, b+6 } }'
}

# gray_png FILE N VALUE: a grayscale PNG of N x N samples, each VALUE, a
# Python expression in the sample's column i and row j (0 to 255).
gray_png() {
	python3 - "$@" <<'PY'
import math, struct, sys, zlib
path, n, value = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
raw = b''.join(b'\x00' + bytes(int(eval(value, {'math': math, 'i': i, 'j': j}))
                                for i in range(n)) for j in range(n))
open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' +
    chunk(b'IHDR', struct.pack('>IIBBBBB', n, n, 8, 0, 0, 0, 0)) +
    chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
PY
}

# flat_png FILE: a heightmap image of 33 x 33 samples, all 128.
flat_png() {
	gray_png "$1" 33 128
}
