#!/usr/bin/env bats
# Conventions the six commands share: --help repeats the man page's
# SYNOPSIS, --version, usage errors, closed pipes; the shell completions;
# phys-params(7) is what phys-param doc prints.

load helper
bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/.."

# need CMD: skip the test unless $PHYS_BIN has CMD.
need() {
	[ -x "$PHYS_BIN/$1" ] || skip "$1 is not built"
}

version() {
	sed -n 's/^#define PHYS_VERSION "\(.*\)"$/\1/p' "$ROOT/lib/util.h"
}

# The SYNOPSIS of a man page as text. The SYNOPSIS is written as text lines
# (inside .nf/.fi) with inline font escapes only: request lines are dropped,
# escapes removed, and each line's leading blanks (the alignment) with them.
man_synopsis() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$1" | sed -e "/^[.']/d" \
	    -e 's/\\f[BIRP]//g' -e 's/\\(dq/"/g' -e 's/\\&//g' \
	    -e 's/\\ / /g' -e 's/\\-/-/g' -e 's/\\e/\\/g' \
	    -e 's/^[[:blank:]]*//' -e 's/[[:blank:]]*$//'
}

# The usage block of CMD --help, up to the first empty line, without
# "usage: " and the blanks that align the lines.
help_usage() {
	"$1" --help | awk 'NF == 0 { exit } { print }' |
	    sed -e 's/^usage: //' -e 's/^[[:blank:]]*//' -e 's/[[:blank:]]*$//'
}

check_synopsis() {
	local page="$ROOT/man/$1.1" usage synopsis

	need "$1"
	[ -f "$page" ] || fail "man/$1.1 is missing"
	run -0 "$1" --help
	usage=$(help_usage "$1")
	synopsis=$(man_synopsis "$page")
	[ -n "$usage" ] || fail "$1 --help printed no usage block"
	assert_equal "$usage" "$synopsis"
}

check_version() {
	need "$1"
	run -0 --separate-stderr "$1" --version
	assert_output "$1 $(version)"
	[ -z "$stderr" ]
}

check_unknown_option() {
	local opt

	need "$1"
	for opt in --no-such-option -Z; do
		run -2 --separate-stderr "$1" "$opt"
		[ -z "$output" ] || fail "$1 $opt wrote on standard output: $output"
		printf '%s\n' "$stderr" | grep -q '^usage: ' ||
		    fail "$1 $opt gave no usage message: $stderr"
	done
}

# closed_pipe CMD ARG...: run CMD with its standard output a pipe that has
# no reader left (a FIFO opened both ways, then closed for reading), and
# standard error captured as $output.
closed_pipe() {
	run bash -c 'f=$1; shift
		mkfifo "$f" && exec 7<>"$f" 8>"$f" 7<&- && rm -f "$f" &&
		exec "$@" 2>&1 >&8 8>&-' _ "$BATS_TEST_TMPDIR/fifo" "$@"
}

# A command that writes to a closed pipe ends quietly: killed by SIGPIPE
# (141) or exiting 0, with nothing on standard error. CMD --help is tried,
# then CMD ARG...; each writes something when the pipe is open.
check_closed_pipe() {
	need "$1"
	quiet_on_closed_pipe "$1" --help
	quiet_on_closed_pipe "$@"
}

quiet_on_closed_pipe() {
	run -0 "$@"
	[ -n "$output" ] || fail "$* wrote nothing"
	closed_pipe "$@"
	[ "$status" -eq 141 ] || [ "$status" -eq 0 ] ||
	    fail "$*: status $status on a closed pipe"
	[ -z "$output" ] || fail "$* on a closed pipe: $output"
}

# complete_words WORD...: in a new bash with the completions loaded, run
# the completion function of the first word with COMP_WORDS set to the
# words (the last one is completed) and print COMPREPLY, one a line.
complete_words() {
	run --separate-stderr bash -c 'src=$1; shift
		source "$src" || exit 1
		fn=$(complete -p "$1" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[ -n "$fn" ] || exit 1
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/completions/phys.bash" "$@"
}

# complete_line LINE: the same, with COMP_LINE as bash sets it (the cursor
# at the end), so that COMP_WORDBREAKS applies.
complete_line() {
	run --separate-stderr bash -c 'source "$1" || exit 1
		COMP_LINE=$2
		COMP_POINT=${#2}
		read -r -a COMP_WORDS <<< "$2"
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		fn=$(complete -p "${COMP_WORDS[0]}" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		"$fn" "${COMP_WORDS[0]}" "" ""
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/completions/phys.bash" "$1"
}

# ---- --help and the man pages' SYNOPSIS ----

@test "phys-step --help starts with the SYNOPSIS of phys-step(1)" {
	check_synopsis phys-step
}

@test "phys-preset --help starts with the SYNOPSIS of phys-preset(1)" {
	check_synopsis phys-preset
}

@test "phys-param --help starts with the SYNOPSIS of phys-param(1)" {
	check_synopsis phys-param
}

@test "phys-inertia --help starts with the SYNOPSIS of phys-inertia(1)" {
	check_synopsis phys-inertia
}

@test "phys-introspect --help starts with the SYNOPSIS of phys-introspect(1)" {
	check_synopsis phys-introspect
}

@test "phys-sdf --help starts with the SYNOPSIS of phys-sdf(1)" {
	check_synopsis phys-sdf
}

# ---- --version ----

@test "phys-step --version prints its name and the version" {
	check_version phys-step
}

@test "phys-preset --version prints its name and the version" {
	check_version phys-preset
}

@test "phys-param --version prints its name and the version" {
	check_version phys-param
}

@test "phys-inertia --version prints its name and the version" {
	check_version phys-inertia
}

@test "phys-introspect --version prints its name and the version" {
	check_version phys-introspect
}

@test "phys-sdf --version prints its name and the version" {
	check_version phys-sdf
}

@test "every man page names the version the commands print" {
	local page v
	v=$(version)
	[ -n "$v" ]
	for page in "$ROOT"/man/*.[17]; do
		grep -q "^\.TH .*\"phys $v\"" "$page" ||
		    fail "$(basename "$page"): .TH does not name phys $v"
	done
}

# ---- unknown options ----

@test "phys-step: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-step
}

@test "phys-preset: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-preset
}

@test "phys-param: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-param
}

@test "phys-inertia: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-inertia
}

@test "phys-introspect: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-introspect
}

@test "phys-sdf: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-sdf
}

# ---- closed pipes ----

@test "phys-step ends quietly on a closed pipe" {
	check_closed_pipe phys-step -t 1 "$WORLDS/pendulum.sdf"
}

@test "phys-preset ends quietly on a closed pipe" {
	check_closed_pipe phys-preset list "$WORLDS/pendulum.sdf"
}

@test "phys-param ends quietly on a closed pipe" {
	check_closed_pipe phys-param list
}

@test "phys-inertia ends quietly on a closed pipe" {
	check_closed_pipe phys-inertia sphere 0.1 --mass 1
}

@test "phys-introspect ends quietly on a closed pipe" {
	check_closed_pipe phys-introspect filter -f \
	    "$BATS_TEST_DIRNAME/data/introspect-run.jsonl" '*'
}

@test "phys-sdf ends quietly on a closed pipe" {
	check_closed_pipe phys-sdf print "$WORLDS/pendulum.sdf"
}

# ---- completions ----

@test "bash completion loads quietly and covers the six commands" {
	run --separate-stderr bash -c 'source "$1" || exit 1
		for c in phys-step phys-preset phys-param phys-inertia \
		    phys-introspect phys-sdf; do
			complete -p "$c" || exit 1
		done' _ "$ROOT/completions/phys.bash"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	assert_line --regexp '^complete -F [^ ]+ phys-step$'
	assert_line --regexp '^complete -F [^ ]+ phys-introspect$'
}

@test "bash completion: phys-step -p offers the profiles of the world on the line" {
	[ -x "$PHYS_BIN/phys-preset" ] || skip "phys-preset is not built yet"
	complete_words phys-step "$WORLDS/pendulum.sdf" -p ''
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	assert_equal "$(printf '%s\n' "$output" | sort)" "$(printf 'quick\nworld')"
	complete_words phys-step "$WORLDS/pendulum.sdf" --preset q
	assert_equal "$output" "quick"
}

@test "bash completion: subcommands of phys-preset, phys-param, phys-inertia, phys-introspect, phys-sdf" {
	complete_words phys-param ''
	assert_equal "$output" "$(printf '%s\n' list get set doc)"
	complete_words phys-preset ''
	assert_equal "$output" "$(printf '%s\n' list show use add remove rename \
	    export import diff)"
	complete_words phys-inertia ''
	assert_equal "$output" "$(printf '%s\n' box sphere cylinder capsule \
	    ellipsoid hollow-sphere hollow-cylinder principal box-equivalent \
	    scale check fix)"
	complete_words phys-introspect ''
	assert_equal "$output" "$(printf '%s\n' items filter derive at delta \
	    diff plot)"
	complete_words phys-sdf ''
	assert_equal "$output" "$(printf '%s\n' check print)"
	complete_words phys-step --pre
	assert_equal "$output" "--preset"
}

@test "bash completion: parameter names from the registry and from the world" {
	need phys-param
	complete_words phys-param get ite
	assert_equal "$output" "iters"
	complete_words phys-step -s solver_t
	assert_equal "$output" "solver_type="
	# A scoped name is completed after its last ':', as bash expects.
	complete_line "phys-step $WORLDS/pendulum.sdf -s pendulum::bob/inertial.ma"
	[ -z "$stderr" ] || fail "$stderr"
	assert_equal "$output" "bob/inertial.mass="
}

@test "bash completion is silent when the commands it asks are missing or fail" {
	printf '<sdf version="1.7"><world name="w"><oops/>' > "$BATS_TEST_TMPDIR/bad.sdf"
	complete_words phys-step "$BATS_TEST_TMPDIR/bad.sdf" -p ''
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	[ -z "$output" ]
	complete_words phys-step "$BATS_TEST_TMPDIR/bad.sdf" -i ''
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	PATH=/usr/bin:/bin complete_words phys-step "$WORLDS/pendulum.sdf" -p ''
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	[ -z "$output" ]
	PATH=/usr/bin:/bin complete_words phys-param get it
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || fail "$stderr"
	[ -z "$output" ]
}

@test "zsh completion parses" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	run zsh -n "$ROOT/completions/_phys"
	[ "$status" -eq 0 ] || fail "$output"
	run head -n 1 "$ROOT/completions/_phys"
	assert_output "#compdef phys-step phys-preset phys-param phys-inertia phys-introspect phys-sdf"
}

@test "fish completion parses" {
	command -v fish > /dev/null || skip "fish is not installed"
	run fish -n "$ROOT/completions/phys.fish"
	[ "$status" -eq 0 ] || fail "$output"
}

# ---- phys-params(7) ----

@test "man/phys-params.7 is what phys-param doc prints" {
	need phys-param
	phys-param doc > "$BATS_TEST_TMPDIR/phys-params.7"
	run diff -u "$ROOT/man/phys-params.7" "$BATS_TEST_TMPDIR/phys-params.7"
	[ "$status" -eq 0 ] || fail "man/phys-params.7 is stale (phys-param doc > man/phys-params.7):
$output"
}
