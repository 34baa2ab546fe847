#!/usr/bin/env bats
# Conventions the seven commands share: --help repeats the man page's
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
	sed -n 's/^#define PHYS_VERSION "\(.*\)"$/\1/p' "$ROOT/lib/base/cli.h"
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

# An unknown option: one line on stderr that points to --help, exit 2.
check_unknown_option() {
	local opt

	need "$1"
	for opt in --no-such-option -Z; do
		run -2 --separate-stderr "$1" "$opt"
		[ -z "$output" ] || fail "$1 $opt wrote on standard output: $output"
		assert_equal "$stderr" "$1: unknown option '$opt' (see $1 --help)"
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

@test "phys-sweep --help starts with the SYNOPSIS of phys-sweep(1)" {
	check_synopsis phys-sweep
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

@test "phys-sweep --version prints its name and the version" {
	check_version phys-sweep
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

@test "phys-step: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-step
}

@test "phys-preset: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-preset
}

@test "phys-param: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-param
}

@test "phys-inertia: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-inertia
}

@test "phys-introspect: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-introspect
}

@test "phys-sdf: an unknown option exits 2 with the usage on stderr only" {
	check_unknown_option phys-sdf
}

@test "phys-sweep: an unknown option exits 2 with one line on stderr only" {
	check_unknown_option phys-sweep
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

@test "phys-sweep ends quietly on a closed pipe" {
	check_closed_pipe phys-sweep plan "$WORLDS/pendulum.sdf" iters=1:100:100
}

# ---- completions ----

@test "bash completion loads quietly and covers the seven commands" {
	run --separate-stderr bash -c 'source "$1" || exit 1
		for c in phys-step phys-preset phys-param phys-inertia \
		    phys-introspect phys-sdf phys-sweep; do
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

@test "bash completion: an MJCF *.xml is a world operand, whose profiles -p offers" {
	[ -x "$PHYS_BIN/phys-preset" ] || skip "phys-preset is not built yet"
	mkdir "$TMP/c"
	cp "$ROOT/tests/data/mjcf/pendulum.xml" "$TMP/c/m.xml"
	touch "$TMP/c/notes.txt"
	complete_words phys-step "$TMP/c/"
	assert_equal "$output" "$TMP/c/m.xml"
	complete_words phys-step "$TMP/c/m.xml" -p ''
	assert_equal "$(printf '%s\n' "$output" | sort)" "$(printf 'default_physics\nmujoco')"
}

@test "bash completion: subcommands of phys-preset, phys-param, phys-inertia, phys-introspect, phys-sdf, phys-sweep" {
	complete_words phys-param ''
	assert_equal "$output" "$(printf '%s\n' list get set doc)"
	complete_words phys-preset ''
	assert_equal "$output" "$(printf '%s\n' list show use add remove rename \
	    export import diff)"
	complete_words phys-inertia ''
	assert_equal "$output" "$(printf '%s\n' box sphere cylinder capsule \
	    ellipsoid hollow-sphere hollow-cylinder principal box-equivalent \
	    scale check fix show)"
	complete_words phys-introspect ''
	assert_equal "$output" "$(printf '%s\n' items filter derive at delta \
	    diff plot)"
	complete_words phys-sdf ''
	assert_equal "$output" "$(printf '%s\n' check print world)"
	complete_words phys-sweep ''
	assert_equal "$output" "$(printf '%s\n' plan run run-one score best plot)"
	complete_words phys-sweep run --j
	assert_equal "$output" "--jobs"
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

# prompted SOCK: wait (a minute at most) until the shell in tmux server
# SOCK shows an empty prompt: its last line ends in $, > or #.
prompted() {
	local i now
	for i in $(seq 600); do
		now=$(tmux -L "$1" capture-pane -p -t c 2>/dev/null |
		    grep -v '^ *$' | tail -1 | sed 's/ *$//')
		case $now in
		*'$' | *'>' | *'#') return 0 ;;
		esac
		sleep 0.1
	done
}

# tab_complete SHELL LINE...: in SHELL (bash, zsh or fish), interactive
# in tmux with phys's completions loaded and $TMP/c as its directory, type
# each LINE and a Tab; print what each line became, one a line.
tab_complete() {
	local sh=$1 sock="phys-$$-$BATS_TEST_NUMBER-$1" line now c i
	local -a shell
	shift
	mkdir -p "$TMP/c/zdot" "$TMP/c/xdg/fish/completions"
	case $sh in
	bash)
		printf '%s\n' "PS1='\$ '" "source '$ROOT/completions/phys.bash'" > "$TMP/c/rc"
		shell=(bash --rcfile "$TMP/c/rc" --noprofile -i) ;;
	zsh)
		printf '%s\n' "PS1='\$ '" "fpath=('$ROOT/completions' \$fpath)" \
		    "autoload -Uz compinit && compinit -u -d '$TMP/c/zdot/dump'" > "$TMP/c/zdot/.zshrc"
		shell=(env ZDOTDIR="$TMP/c/zdot" zsh -i) ;;
	fish)
		for c in phys-step phys-preset phys-param phys-inertia phys-introspect phys-sdf phys-sweep; do
			ln -sf "$ROOT/completions/phys.fish" "$TMP/c/xdg/fish/completions/$c.fish"
		done
		shell=(env XDG_CONFIG_HOME="$TMP/c/xdg" fish -i) ;;
	esac
	( cd "$TMP/c" && PATH="$PHYS_BIN:$PATH" tmux -L "$sock" new-session -d -s c \
	    -x 200 -y 10 "$(printf '%q ' "${shell[@]}")" )
	prompted "$sock"
	for line in "$@"; do
		tmux -L "$sock" send-keys -t c -l "$line"
		tmux -L "$sock" send-keys -t c Tab
		# what the line shows once the completion has changed it (a
		# completion that runs phys under the sanitizers on a busy
		# machine may take many seconds: up to a minute)
		for i in $(seq 600); do
			sleep 0.1
			now=$(tmux -L "$sock" capture-pane -p -t c | grep -F -- "${line%% *}" |
			    tail -1 | sed 's/^.*[$#>] \(phys-\)/\1/; s/ *$//')
			# the typed line echoed whole and then extended by
			# the completion (what each case here expects), not
			# the line before it or part of it still being echoed
			case $now in
			"$line"?*) break ;;
			esac
			# a Tab the shell took while it was still busy with
			# the line before (a loaded machine) is given again
			[ $((i % 200)) -ne 0 ] ||
			    tmux -L "$sock" send-keys -t c Tab
		done
		sleep 0.2
		tmux -L "$sock" capture-pane -p -t c | grep -F -- "${line%% *}" | tail -1 |
		    sed 's/^.*[$#>] \(phys-\)/\1/; s/ *$//'
		tmux -L "$sock" send-keys -t c C-c
		# the next line typed once the shell shows an empty prompt
		# again: typed while it still held this one (a loaded
		# machine), it was appended to it
		prompted "$sock"
	done
	tmux -L "$sock" kill-server
}

@test "completion inside quotes, and of parameters after phys-sweep plan WORLD and fields after -f RUN, in bash, zsh and fish (tmux)" {
	command -v tmux > /dev/null || skip "tmux is not installed"
	# The completions are shell code: the plain build tests them. Under
	# the sanitizers every command they run is many times slower, and on
	# make check's loaded machine one of the fifteen Tabs here went
	# unanswered for a minute, twice (it never did alone).
	! sanitized || skip "completions typed in tmux, under the sanitizers"
	need phys-introspect
	mkdir -p "$TMP/c"
	cp "$WORLDS/box_stack.sdf" "$TMP/c/w.sdf"
	cp "$BATS_TEST_DIRNAME/data/introspect-run.jsonl" "$TMP/c/run.jsonl"
	for sh in bash zsh fish; do
		command -v "$sh" > /dev/null || continue
		run tab_complete "$sh" \
		    "phys-step w.sdf -i 'box5::link/po" \
		    "phys-step w.sdf -s \"box5::link/inertial.ma" \
		    "phys-sweep plan w.sdf ite" \
		    "phys-introspect filter -f run.jsonl 'box::link/pose.ro" \
		    "phys-introspect diff run.jsonl run.jsonl robot::el"
		assert_line --index 0 "phys-step w.sdf -i 'box5::link/pose'"
		assert_line --index 1 --partial "phys-step w.sdf -s \"box5::link/inertial.mass="
		assert_line --index 2 "phys-sweep plan w.sdf iters="
		assert_line --index 3 "phys-introspect filter -f run.jsonl 'box::link/pose.roll'"
		assert_line --index 4 --regexp '^phys-introspect diff run.jsonl run.jsonl robot::elbow/position'
	done
}

# help_options COMMAND [SUBCOMMAND]: the long options its --help lists
# on option lines but --version, one a line.
help_options() {
	"$@" --help 2>&1 | grep -oE '^ +(-[A-Za-z0-9], )?--[a-z][a-z0-9-]*' |
	    grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- --version | sort -u
}

@test "completions offer the options each subcommand's help lists, and -q/--quiet, in bash, fish and zsh" {
	local cs o zfn
	local -a cmds=("phys-step" "phys-preset add" "phys-preset use"
	    "phys-preset list" "phys-param set" "phys-param get" "phys-param list"
	    "phys-inertia box" "phys-inertia scale" "phys-inertia fix"
	    "phys-inertia show" "phys-inertia check" "phys-introspect plot"
	    "phys-introspect diff" "phys-introspect derive" "phys-sdf check"
	    "phys-sweep plan" "phys-sweep run" "phys-sweep run-one"
	    "phys-sweep score" "phys-sweep best" "phys-sweep plot")
	for cs in "${cmds[@]}"; do
		# the options the help lists, then what each shell offers
		# shellcheck disable=SC2086 # "command subcommand"
		{ help_options $cs; printf '%s\n' --quiet --help; } > "$TMP/want"
		# shellcheck disable=SC2086
		complete_words $cs --
		[ -z "$stderr" ] || fail "$stderr"
		o=$(grep -vxF -f <(printf '%s\n' "${lines[@]}") "$TMP/want") &&
		    fail "bash: '$cs --' does not offer" $o
		if command -v fish > /dev/null; then
			run fish -c "source '$ROOT/completions/phys.fish'; complete -C '$cs --'"
			o=$(grep -vxF -f <(cut -f1 <<< "$output") "$TMP/want") &&
			    fail "fish: '$cs --' does not offer" $o
		fi
		# zsh: the command's function names each option
		zfn=_${cs%% *}
		zfn=${zfn//-/_}
		sed -n "/^(( \$+functions\[$zfn\] ))/,/^}/p" "$ROOT/completions/_phys" > "$TMP/zfn"
		for o in $(cat "$TMP/want"); do
			grep -q -- "$o[]=\['\x27]" "$TMP/zfn" ||
			    grep -q -- ",$o[]=\['\x27}]" "$TMP/zfn" ||
			    fail "zsh: $zfn does not name $o"
		done
	done
	# The spellings kept for one release are not offered.
	complete_words phys-sweep best --
	refute_line --keep
	complete_words phys-preset add --
	refute_line --from
	complete_words phys-param set --
	refute_line --from
	refute_line -i
}

@test "zsh completion parses" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	run zsh -n "$ROOT/completions/_phys"
	[ "$status" -eq 0 ] || fail "$output"
	run head -n 1 "$ROOT/completions/_phys"
	assert_output "#compdef phys-step phys-preset phys-param phys-inertia phys-introspect phys-sdf phys-sweep"
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

# ---- conventions every command keeps (the commands the Makefile builds) ----

# The commands, one a line, as the Makefile's CMDS names them.
commands() {
	sed -n 's/^CMDS *= *//p' "$ROOT/Makefile" | tr -s ' \t' '\n' | sed '/^$/d'
}

# The subcommands CMD --help shows: the word after CMD on its usage lines.
subcommands() {
	"$1" --help | awk 'NF == 0 { exit } { print }' |
	    sed -n "s/^\(usage:\)\{0,1\} *$1 \([a-z][a-z-]*\).*/\2/p" | sort -u
}

@test "the command list is known" {
	[ "$(commands | wc -l)" -ge 5 ] || fail "no CMDS in the Makefile"
	commands | grep -qx phys-step
	commands | grep -qx phys-introspect
}

# Every option line of every command's and subcommand's --help: "CMD
# SHORT LONG ARG" (SHORT "-" when none, ARG "-" when it takes no value).
option_lines() {
	local cmd sub
	for cmd in $(commands); do
		{ "$cmd" --help; for sub in $(subcommands "$cmd"); do "$cmd" "$sub" --help; done; } 2>/dev/null |
		    sed -n 's/^  *\(-[a-zA-Z1]\), \(--[a-z][a-z0-9-]*\)[ =]\{0,1\}\([A-Z][^ ]*\)\{0,1\}.*/\1 \2 \3/p;
			s/^  *\(--[a-z][a-z0-9-]*\)[ =]\{0,1\}\([A-Z][^ ]*\)\{0,1\}.*/- \1 \2/p' |
		    awk -v c="$cmd" '{ print c, $1, $2, ($3 == "" ? "-" : "arg") }'
	done | sort -u
}

@test "one meaning per option: a letter is one long option, a long option takes a value or not, in every command; phys(7) lists them" {
	option_lines > "$TMP/opts"
	[ "$(wc -l < "$TMP/opts")" -gt 60 ]
	# a letter, the same long option everywhere
	awk '$2 != "-" { print $2, $3 }' "$TMP/opts" | sort -u |
	    awk '{ n[$1]++; l[$1] = l[$1] " " $2 } END { for (k in n) if (n[k] > 1) { print k ":" l[k]; bad = 1 } exit bad }' ||
	    fail "letters with two meanings"
	# a long option, one short letter or none, a value or none
	awk '{ print $3, $4 }' "$TMP/opts" | sort -u |
	    awk '{ n[$1]++ } END { for (k in n) if (n[k] > 1) { print k; bad = 1 } exit bad }' ||
	    fail "long options taking a value in one command and not in another"
	awk '$2 != "-" { print $3, $2 }' "$TMP/opts" | sort -u |
	    awk '{ n[$1]++ } END { for (k in n) if (n[k] > 1) { print k; bad = 1 } exit bad }' ||
	    fail "long options with two letters"
	# the old spellings are gone from the help
	run -1 grep -E ' -I | --from FILE| --keep N| -s, --save-as| -i, --in-place| -e, --engine' "$TMP/opts"
	# every letter in phys(7)'s table
	for l in $(awk '$2 != "-" { print $2 }' "$TMP/opts" | sort -u); do
		grep -q "^\\\\fB\\\\${l}\\\\fR" "$ROOT/man/phys.7" || fail "phys(7) lacks $l"
	done
	# -q and -V in every command
	for cmd in $(commands); do
		grep -q "^$cmd -q --quiet" "$TMP/opts" || fail "$cmd has no -q"
		grep -q "^$cmd -V --version" "$TMP/opts" || fail "$cmd has no -V"
		"$cmd" -V | grep -q "^$cmd "
	done
}

@test "the spellings an option had before: still taken this release, with a warning saying what to write" {
	cp "$WORLDS/box_stack.sdf" "$TMP/w.sdf"
	run -0 --separate-stderr phys-preset add -i -f accurate fast iters=20 "$TMP/w.sdf"
	[[ "$stderr" == *"phys-preset: -i is deprecated and will go in the next release: write --in-place (-i is --items in phys-step and phys-sweep)"* ]]
	[[ "$stderr" == *"phys-preset: -f is deprecated"*"write --copy"* ]]
	[ "$(phys-preset list -1 "$TMP/w.sdf" | tail -1)" = fast ]
	# -q silences it, wherever it is
	run -0 --separate-stderr phys-preset remove -i fast "$TMP/w.sdf" -q
	[ -z "$stderr" ]
	run -0 --separate-stderr phys-param set -i --from /dev/null iters=7 "$TMP/w.sdf"
	[[ "$stderr" == *"-i is deprecated"*"--in-place"* && "$stderr" == *"--from is deprecated"*"--file"* ]]
	[ "$(phys-param get iters "$TMP/w.sdf" | jq .value)" = 7 ]
	run -0 --separate-stderr phys-sweep plan -I 'box0::link/pose' "$TMP/w.sdf" iters=5
	[[ "$stderr" == *"-I is deprecated"*"write -i"* ]]
	[ "$(jq -c .items <<<"$output")" = '["box0::link/pose"]' ]
	run -0 --separate-stderr phys-inertia scale --size 2 --fixed-density < /dev/null
	[[ "$stderr" == *"--size is deprecated"*"--size-factor"* ]]
}

@test "-h prints what --help prints, on every command" {
	local cmd

	for cmd in $(commands); do
		[ -x "$PHYS_BIN/$cmd" ] || fail "$cmd is not built"
		run -0 --separate-stderr "$cmd" --help
		local long=$output
		[[ "$long" == "usage: $cmd"* ]] || fail "$cmd --help: $long"
		run -0 --separate-stderr "$cmd" -h
		assert_equal "$output" "$long"
		[ -z "$stderr" ] || fail "$cmd -h: $stderr"
	done
}

@test "a mistyped long option: one line, the closest option, a pointer to --help" {
	local cmd

	for cmd in $(commands); do
		run -2 --separate-stderr "$cmd" --hepl
		[ -z "$output" ] || fail "$cmd --hepl wrote on stdout: $output"
		assert_equal "$stderr" "$cmd: unknown option '--hepl'; did you mean --help? (see $cmd --help)"
		run -2 --separate-stderr "$cmd" --versoin
		assert_equal "$stderr" "$cmd: unknown option '--versoin'; did you mean --version? (see $cmd --help)"
	done
	run -2 --separate-stderr phys-step --stpes 3 "$WORLDS/pendulum.sdf"
	assert_equal "$stderr" "phys-step: unknown option '--stpes'; did you mean --steps? (see phys-step --help)"
	run -2 --separate-stderr phys-introspect diff --tolerence 1 a b
	assert_equal "$stderr" "phys-introspect: unknown option '--tolerence'; did you mean --tolerance? (see phys-introspect --help)"
	run -2 --separate-stderr phys-inertia sphere 1 --mas 1 --dnesity 2
	assert_equal "$stderr" "phys-inertia: unknown option '--dnesity'; did you mean --density? (see phys-inertia --help)"
}

@test "an ambiguous, valueless or missing option value is one line too" {
	run -2 --separate-stderr phys-step --re 5 "$WORLDS/pendulum.sdf"
	assert_equal "$stderr" "phys-step: ambiguous option '--re'; did you mean --realtime or --rel-tolerance? (see phys-step --help)"
	run -2 --separate-stderr phys-step --realtime=yes "$WORLDS/pendulum.sdf"
	assert_equal "$stderr" "phys-step: no value is taken by option '--realtime' (see phys-step --help)"
	run -2 --separate-stderr phys-step "$WORLDS/pendulum.sdf" --duration
	assert_equal "$stderr" "phys-step: missing value for option '--duration' (see phys-step --help)"
	run -2 --separate-stderr phys-step "$WORLDS/pendulum.sdf" -t
	assert_equal "$stderr" "phys-step: missing value for option '-t' (see phys-step --help)"
	run -2 --separate-stderr phys-step --realtime -Zn1 "$WORLDS/pendulum.sdf"
	assert_equal "$stderr" "phys-step: unknown option '-Z' (see phys-step --help)"
}

@test "a profile the world lacks is a bad option value: exit 2 on every command, the profiles named" {
	local w="$WORLDS/pendulum.sdf"
	local want="no profile named 'nope' (there are: quick, world)"

	run -2 --separate-stderr phys-step -n 1 -p nope "$w"
	assert_equal "$stderr" "phys-step: $want"
	run -2 --separate-stderr phys-param get -p nope iters "$w"
	assert_equal "$stderr" "phys-param: $want"
	run -2 --separate-stderr phys-preset show nope "$w"
	assert_equal "$stderr" "phys-preset: $want"
	run -2 --separate-stderr phys-sweep plan -p nope "$w" iters=1,2
	assert_equal "$stderr" "phys-sweep: $want"
	[ -z "$output" ]
}

@test "a pattern that matches nothing exits 1 in every command, saying how to list what there is" {
	local w="$WORLDS/pendulum.sdf"

	run -1 --separate-stderr phys-step -n 1 -i 'nope*/pose' "$w"
	assert_equal "$stderr" "phys-step: no item matches 'nope*/pose' (phys-introspect items lists them)"
	run -1 --separate-stderr phys-step -n 1 -s 'nope*=1' "$w"
	assert_equal "$stderr" "phys-step: no parameter matches 'nope*'"
	run -1 --separate-stderr phys-param get 'nope*' "$w"
	run -1 --separate-stderr phys-param set 'nope*=1' "$w"
	run -1 --separate-stderr phys-introspect items "$w" 'nope*'
	run -1 --separate-stderr phys-sweep plan "$w" 'nope*=1,2'
	phys-step -n 1 -i 'pendulum::bob/pose' "$w" > "$BATS_TEST_TMPDIR/run"
	run -1 --separate-stderr phys-introspect filter -f "$BATS_TEST_TMPDIR/run" 'nope*'
	[ -z "$output" ]
	run -1 --separate-stderr phys-inertia fix "$w" 'nope::*'
	[ -z "$output" ]
	assert_equal "$stderr" "phys-inertia: no link matches 'nope::*' (phys-inertia check lists them)"
}

@test "-q silences the warnings of every command, and only them" {
	# two profiles marked default: a warning from every command that loads it
	sed 's/<physics name="accurate" type="ode">/<physics name="accurate" type="ode" default="true">/' \
	    "$WORLDS/box_stack.sdf" > "$BATS_TEST_TMPDIR/w.sdf"
	local w="$BATS_TEST_TMPDIR/w.sdf"
	grep -q 'name="accurate" type="ode" default="true"' "$w"
	run -0 --separate-stderr phys-step -n 1 "$w"
	[[ "$stderr" == *"w.sdf:"*": profile 'accurate' is also marked default"* ]]
	for c in "phys-step -n 1 -q $w" "phys-step -q -n 1 $w" "phys-preset list -q $w" \
	    "phys-preset -q list $w" "phys-sdf print -q $w" "phys-inertia -q show -o $BATS_TEST_TMPDIR/i.svg $WORLDS/inertia_show.sdf" \
	    "phys-inertia fix -q $WORLDS/bad_inertia.sdf" "phys-param set -q --in-place iters=3 $w" \
	    "phys-sweep plan -q -n 2 $w iters=3"; do
		run -0 --separate-stderr $c
		[ -z "$stderr" ] || fail "$c: $stderr"
	done
	# the same without -q warns
	run -0 --separate-stderr phys-inertia fix "$WORLDS/bad_inertia.sdf"
	[ -n "$stderr" ]
	# phys-introspect: a run longer than the other it is compared with
	phys-step -q -t 0.2 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$BATS_TEST_TMPDIR/a"
	phys-step -q -t 0.1 -i 'pendulum::bob/pose' "$WORLDS/pendulum.sdf" > "$BATS_TEST_TMPDIR/b"
	run -1 --separate-stderr phys-introspect diff --series "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[[ "$stderr" == *"are outside the times of"* ]]
	run -1 --separate-stderr phys-introspect diff -q --series "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ -z "$stderr" ]
	[ -n "$output" ]
	# errors still are said
	run -1 --separate-stderr phys-step -q -n 1 -s 'nope=1' "$w"
	[ -n "$stderr" ]
}

# The usage block of a --help or of a usage error: up to the first empty
# line, without "usage: " and the blanks that align the lines.
usage_block() {
	awk 'NF == 0 { exit } { print }' |
	    sed -e 's/^usage: //' -e 's/^[[:blank:]]*//' -e 's/[[:blank:]]*$//'
}

# The lines of SUB in the SYNOPSIS of CMD(1): those that start with
# "CMD SUB", and the lines that continue them; sub_lines CMD SUB reads
# the SYNOPSIS on its standard input.
synopsis_of() {
	man_synopsis "$ROOT/man/$1.1" | sub_lines "$1" "$2"
}
sub_lines() {
	awk -v cmd="$1" -v name="$2" '
	    $0 == cmd " " name || index($0, cmd " " name " ") == 1 { on = 1; print; next }
	    index($0, cmd " ") == 1 || /^[A-Z]+:/ { on = 0; next }
	    on { print }'
}

@test "COMMAND SUB --help: the SUB lines of the SYNOPSIS, once, then SUB's own help" {
	local cmd sub subs usage want long syn whole n=0

	for cmd in $(commands); do
		subs=$(subcommands "$cmd")
		syn=$(man_synopsis "$ROOT/man/$cmd.1")
		whole=$(help_usage "$cmd")
		for sub in $subs; do
			run -0 --separate-stderr "$cmd" "$sub" --help
			[ -z "$stderr" ] || fail "$cmd $sub --help: $stderr"
			usage=$(usage_block <<<"$output")
			want=$(sub_lines "$cmd" "$sub" <<<"$syn")
			[ -n "$want" ] || fail "$sub is not in the SYNOPSIS of $cmd(1)"
			assert_equal "$usage" "$want"
			# some help after the usage, and not the command's whole
			[ "${#lines[@]}" -gt "$(wc -l <<<"$usage")" ] ||
			    fail "$cmd $sub --help has no help"
			[[ "$output" != *"$whole"* ]] ||
			    fail "$cmd $sub --help prints every command's usage"
			long=$output
			run -0 --separate-stderr "$cmd" "$sub" -h
			assert_equal "$output" "$long"
			n=$((n + 1))
		done
	done
	[ "$n" -ge 30 ] || fail "only $n subcommands"
}

@test "a usage error in a subcommand: the problem, then that subcommand's usage alone" {
	local args cmd sub usage

	while read -r args; do
		set -- $args
		cmd=$1 sub=$2
		run -2 --separate-stderr "$@"
		[ -z "$output" ] || fail "$args wrote on stdout"
		[[ "${stderr_lines[0]}" == "$cmd: "* ]] || fail "$args: $stderr"
		usage=$(printf '%s\n' "${stderr_lines[@]:1}" | usage_block)
		assert_equal "$usage" "$(synopsis_of "$cmd" "$sub")"
	done <<EOF
phys-param get iters
phys-param set
phys-param doc extra
phys-preset show quick
phys-preset add
phys-preset rename a b
phys-sdf print a b
phys-sweep plan
phys-sweep score final:x
phys-sweep best a b c
phys-inertia check
phys-inertia principal a b
phys-inertia box 1 2
phys-introspect at
phys-introspect diff a
EOF
}

@test "a mistyped subcommand gets the closest ones, in one line" {
	local cmd sub subs

	run -2 --separate-stderr phys-param lst
	assert_equal "$stderr" "phys-param: unknown command 'lst'; did you mean list?"
	[ -z "$output" ]
	run -2 --separate-stderr phys-preset shwo "$WORLDS/pendulum.sdf"
	assert_equal "$stderr" "phys-preset: unknown command 'shwo'; did you mean show?"
	run -2 --separate-stderr phys-inertia hollow 1
	assert_equal "$stderr" "phys-inertia: unknown command 'hollow'; did you mean hollow-sphere or hollow-cylinder?"
	run -2 --separate-stderr phys-introspect fitler x
	assert_equal "$stderr" "phys-introspect: unknown command 'fitler'; did you mean filter?"
	run -2 --separate-stderr phys-param frobnicate
	assert_equal "$stderr" "phys-param: unknown command 'frobnicate' (see phys-param --help)"
	# every subcommand of every command, with its last letter dropped
	for cmd in $(commands); do
		subs=$(subcommands "$cmd")
		for sub in $subs; do
			[ "${#sub}" -ge 4 ] || continue
			run -2 --separate-stderr "$cmd" "${sub%?}x"
			[ "${#lines[@]}" -eq 0 ] || fail "$cmd ${sub%?}x wrote on stdout"
			[[ "$stderr" == "$cmd: unknown command '${sub%?}x'; did you mean "*"$sub"*"?" ]] ||
			    fail "$cmd ${sub%?}x: $stderr"
			[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$stderr"
		done
	done
}

# ---- exit status: diff(1)'s where a command compares ----

@test "phys-introspect diff exits 0 when the runs agree, 1 when they differ, 2 on trouble" {
	local run="$BATS_TEST_DIRNAME/data/introspect-run.jsonl"

	run -0 phys-introspect diff "$run" "$run"
	sed 's/"z":0\.5/"z":0.625/' "$run" > "$BATS_TEST_TMPDIR/changed.jsonl"
	! cmp -s "$run" "$BATS_TEST_TMPDIR/changed.jsonl" || false
	run -1 phys-introspect diff "$run" "$BATS_TEST_TMPDIR/changed.jsonl"
	run -2 --separate-stderr phys-introspect diff "$run" "$BATS_TEST_TMPDIR/missing.jsonl"
	[[ "$stderr" == *"missing.jsonl: No such file or directory" ]]
	run -2 --separate-stderr phys-introspect diff "$run" "$BATS_TEST_DIRNAME/data/introspect-bad.jsonl"
	[[ "$stderr" == *"introspect-bad.jsonl:3: bad JSON"* ]]
	run -2 phys-introspect diff "$run"
}

@test "phys-preset diff exits 0 for the same values, 1 when they differ, 2 on trouble" {
	run -0 phys-preset diff quick quick "$WORLDS/pendulum.sdf"
	[ -z "$output" ]
	run -1 --separate-stderr phys-preset diff quick world "$WORLDS/pendulum.sdf"
	assert_line '{"name":"ode.solver.type","type":"string","values":{"quick":"quick","world":"world"}}'
	[ -z "$stderr" ]
	run -2 phys-preset diff quick nope "$WORLDS/pendulum.sdf"
	run -2 phys-preset diff quick world "$BATS_TEST_TMPDIR/missing.sdf"
	printf '<sdf version="1.7"><world name="w">' > "$BATS_TEST_TMPDIR/bad.sdf"
	run -2 phys-preset diff a b "$BATS_TEST_TMPDIR/bad.sdf"
}

@test "an unknown parameter name exits 1 in every command that takes one" {
	local w="$WORLDS/pendulum.sdf" ctl="$BATS_TEST_TMPDIR/ctl"

	echo '{"t":0,"name":"no_such_param","value":1}' > "$ctl"
	for args in "phys-step -n 1 -s no_such_param=1 $w" \
	    "phys-step -n 1 -c $ctl $w" \
	    "phys-param get no_such_param $w" \
	    "phys-param set no_such_param=1 $w" \
	    "phys-param set --file $ctl $w" \
	    "phys-param list $w no_such_param" \
	    "phys-param list no_such_param" \
	    "phys-preset add p no_such_param=1 $w"; do
		run --separate-stderr $args
		[ "$status" -eq 1 ] || fail "$args: status $status: $stderr"
		[[ "$stderr" == *no_such_param* || "$stderr" == *"no parameter matches"* ]] ||
		    fail "$args: $stderr"
		[ -z "$output" ] || fail "$args wrote $output"
	done
}

@test "unsupported SDF version names the versions that are supported" {
	printf '<sdf version="2.0"><world name="w"/></sdf>\n' > "$BATS_TEST_TMPDIR/v2.sdf"
	run -1 --separate-stderr phys-step "$BATS_TEST_TMPDIR/v2.sdf"
	assert_equal "$stderr" "phys-step: $BATS_TEST_TMPDIR/v2.sdf:1: unsupported SDF version '2.0' (supported: 1.4 to 1.12)"
}

# ---- terminals: a hint for standard input, progress on stderr only ----

# on_tty COMMAND: run the shell command with a pseudo-terminal for its
# standard input, output and error; $output is what the terminal got.
on_tty() {
	command -v script > /dev/null || skip "script(1) is not installed"
	run timeout 60 script -qfec "$1" /dev/null < /dev/null
}

@test "reading standard input from a terminal is said on stderr, not waited on silently" {
	on_tty "$PHYS_BIN/phys-step -n 0"
	[[ "$output" == "phys-step: reading an SDF world from standard input"* ]] ||
	    fail "no hint: $output"
	on_tty "$PHYS_BIN/phys-step -n 0 -"
	[[ "$output" == "phys-step: reading an SDF world from standard input"* ]]
	# not when standard input is a file
	run -0 --separate-stderr phys-step -n 0 - < "$WORLDS/pendulum.sdf"
	[ -z "$stderr" ] || fail "$stderr"
	# the filters that read lines say so too
	on_tty "$PHYS_BIN/phys-introspect filter sim_time"
	[[ "$output" == "phys-introspect: reading state lines from standard input"* ]] ||
	    fail "no hint: $output"
	on_tty "$PHYS_BIN/phys-inertia principal"
	[[ "$output" == "phys-inertia: reading inertia lines from standard input"* ]] ||
	    fail "no hint: $output"
	run -0 --separate-stderr phys-introspect filter sim_time < "$BATS_TEST_DIRNAME/data/introspect-run.jsonl"
	[ -z "$stderr" ] || fail "$stderr"
}

@test "progress: on a terminal's stderr, with the total and an ETA, erased before data" {
	local p='phys-step: t=[0-9.]+/1\.200 s +[0-9]+% +ETA [0-9]+ s'

	on_tty "$PHYS_BIN/phys-step --realtime -t 1.2 -r 2 -i sim_time $WORLDS/falling_sphere.sdf"
	[ "$status" -eq 0 ] || fail "$output"
	printf '%s' "$output" > "$BATS_TEST_TMPDIR/tty"
	# drawn at least three times, in place: CR, the text, erase to the end
	[ "$(grep -aEo "$p" "$BATS_TEST_TMPDIR/tty" | wc -l)" -ge 3 ]
	# each drawing is erased (CR, erase line) before anything else comes
	perl -0777 -ne '
		my $n = () = /\rphys-step: t=[^\r\n]*\e\[K/g;
		my $bad = () = /\rphys-step: t=[^\r\n]*\e\[K(?!\r\e\[K|\rphys-step: t=)/g;
		exit($n >= 3 && $bad == 0 ? 0 : 1)' "$BATS_TEST_TMPDIR/tty" ||
	    fail "progress not erased before data: $(od -c "$BATS_TEST_TMPDIR/tty" | head -40)"
	# what the terminal shows: each line from its last CR, erasures done;
	# every data line is there whole
	sed 's/\r$//' "$BATS_TEST_TMPDIR/tty" | awk -F'\r' '{ print $NF }' |
	    sed 's/^\x1b\[K//' > "$BATS_TEST_TMPDIR/shown"
	[ "$(grep -c '^{"t":[0-9.]*,"iter":[0-9]*,.*}}$' "$BATS_TEST_TMPDIR/shown")" -eq 3 ]
}

@test "progress: nothing of it when stderr is not a terminal" {
	on_tty "$PHYS_BIN/phys-step --realtime -t 0.8 -r 2 $WORLDS/falling_sphere.sdf 2> $BATS_TEST_TMPDIR/err"
	[ "$status" -eq 0 ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ] || fail "$(cat "$BATS_TEST_TMPDIR/err")"
	[[ "$output" != *ETA* ]]
	run -0 --separate-stderr phys-step --realtime -t 0.6 "$WORLDS/falling_sphere.sdf"
	[ -z "$stderr" ]
}
