#!/usr/bin/env bats
# phys-introspect plot: the settings' effects on the gnuplot script and on
# the images, axes by unit, the text plot on a terminal, and live plots
# that redraw while the run goes: in tmux, into a file fed slowly, as
# sixel images on a pseudo-terminal that answers as a sixel terminal, and
# in a window on an X server of the test's own (Xvfb).
#
# introspect-run.jsonl: t = 0, 0.25, 0.5, 0.75, 1; box::link/pose.z =
# 2 - 2 t^2 (m), box::link/linear_vel.z = -4 t (m/s),
# robot::elbow/position = [t, -t].

load helper
bats_require_minimum_version 1.5.0

RUN="$BATS_TEST_DIRNAME/data/introspect-run.jsonl"
WORLDS="$BATS_TEST_DIRNAME/../worlds"

setup() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	cd "$BATS_TEST_TMPDIR"
}

# The rows of the script's first data block.
data_rows() {
	sed -n '/^\$run1 << EOD$/,/^EOD$/p' "$1" | sed '1d;$d'
}

@test "plot --script: ranges, title, log scale, colours and --window reach the script" {
	run -0 phys-introspect plot -f "$RUN" --script s.gp -o z.png \
		--xmin 0.25 --xmax 1 --ymin 0.5 --ymax 2 --title 'Drop test' \
		--logscale y --color 'box::*/pose.z=dark-red' --window 2 \
		'box::link/pose.z' 'robot::elbow/position.1'
	assert_output ""
	[ ! -e z.png ]		# the script is written, not run
	run -0 grep -Fx "set xrange [0.25:1]" s.gp
	run -0 grep -Fx "set yrange [0.5:2]" s.gp
	run -0 grep -Fx "set logscale y" s.gp
	run -0 grep -Fx "set title 'Drop test'" s.gp
	run -0 grep -F "using 1:2 with lines axes x1y1 linecolor rgb 'dark-red' title 'box::link/pose.z'" s.gp
	run -0 grep -c "linecolor" s.gp
	assert_output 1
	# the last two lines only: t, z = 2 - 2 t^2, position.1 = -t
	run -0 data_rows s.gp
	assert_output "$(printf '0.75 0.875 -0.75\n1 0 -1')"
	# the script draws the image when gnuplot runs it
	run -0 gnuplot s.gp
	run -0 file z.png
	assert_output --partial "PNG image data, 1024 x 640"
}

@test "plot: one axis a unit: y, then y2, then stacked panels" {
	phys-introspect plot -f "$RUN" --script one.gp 'box::link/pose.z' 'box::link/pose.x'
	run -1 grep -c 'x1y2\|multiplot' one.gp
	run -0 grep -c "'pose.. \[m\]'\|'pose.z \[m\]'\|'value \[m\]'" one.gp
	phys-introspect plot -f "$RUN" --script two.gp 'box::link/pose.z' 'box::link/linear_vel.z'
	run -0 grep -F "using 1:3 with lines axes x1y2 title 'box::link/linear_vel.z'" two.gp
	run -0 grep -F "using 1:2 with lines axes x1y1 title 'box::link/pose.z'" two.gp
	run -0 grep -c "pose.z \[m\]" two.gp
	run -0 grep -c "linear_vel.z \[m/s\]" two.gp
	phys-introspect plot -f "$RUN" --script three.gp 'box::link/pose.z' \
		'box::link/linear_vel.z' 'robot::elbow/position.0'
	run -0 grep -Fx "set multiplot" three.gp
	run -0 grep -c '^plot ' three.gp
	assert_output 3
	# never one axis of two units, as in "value [m, rad]"
	run -1 grep -h 'label.*\[[^]]*,' one.gp two.gp three.gp
}

@test "plot: stacked panels share one time axis, the image is sized to them, a legend in each" {
	# four units: m, m/s, rad or m, and none (a number of iterations)
	sed 's/"sim_time":\([0-9.]*\)/"sim_time":\1,"n":7/' "$RUN" > four.jsonl
	phys-introspect plot -f four.jsonl --script four.gp -o four.png 'box::link/pose.z' \
		'box::link/linear_vel.z' 'robot::elbow/position.0' n
	[ "$(grep -c '^plot ' four.gp)" -eq 4 ]
	# one time range for all, set once; tick labels and the axis' name
	# only under the last panel
	run -0 grep -c '^set xrange \[0:1\]$' four.gp
	assert_output 1
	[ "$(grep -c "^set format x ''$" four.gp)" -eq 3 ]
	[ "$(grep -c "^set xlabel 'sim time \[s\]'$" four.gp)" -eq 1 ]
	# each panel's legend names its own series only
	for f in box::link/pose.z box::link/linear_vel.z robot::elbow/position.0 n; do
		[ "$(grep -c "title '$f'" four.gp)" -eq 1 ]
	done
	# the panels sit one below the other without overlapping, each on
	# the same left margin
	awk '/^set tmargin at screen/ { t[++n] = $5 } /^set bmargin at screen/ { b[n] = $5 }
		END { for (i = 1; i <= n; i++) { if (!(t[i] > b[i])) exit 1; if (i > 1 && !(b[i - 1] > t[i])) exit 1 } exit n != 4 }' four.gp
	run -0 grep -c '^set lmargin' four.gp
	assert_output 1
	# drawn: taller than one plot, as the panels need
	run -0 gnuplot four.gp
	run -0 file -b four.png
	assert_output --regexp '^PNG image data, 1024 x (9[0-9][0-9]|1[0-9]{3}),'
	# --size still decides
	phys-introspect plot -f four.jsonl -o small.png --size 800x600 'box::link/pose.z' \
		'box::link/linear_vel.z' 'robot::elbow/position.0' n
	run -0 file -b small.png
	assert_output --partial "800 x 600"
}

@test "plot of several runs: one colour a run, one dash pattern a field" {
	sed 's/"z":1.5,/"z":1.4,/' "$RUN" > b.jsonl
	phys-introspect plot -f "$RUN" -f b.jsonl --script runs.gp -o runs.png 'box::link/pose.[xz]'
	grep -F "using 1:2 with lines axes x1y1 linecolor 1 dashtype 1 title '$RUN: box::link/pose.x'" runs.gp
	grep -F "using 1:3 with lines axes x1y1 linecolor 1 dashtype 2 title '$RUN: box::link/pose.z'" runs.gp
	grep -F "using 1:2 with lines axes x1y1 linecolor 2 dashtype 1 title 'b.jsonl: box::link/pose.x'" runs.gp
	grep -F "using 1:3 with lines axes x1y1 linecolor 2 dashtype 2 title 'b.jsonl: box::link/pose.z'" runs.gp
	# --color still picks a field's colour in every run
	phys-introspect plot -f "$RUN" -f b.jsonl --script c.gp -o c.png --color '*.z=red' 'box::link/pose.[xz]'
	[ "$(grep -o "linecolor rgb 'red' dashtype 2" c.gp | wc -l)" -eq 2 ]
	# one run: gnuplot's own colour per field, as before
	phys-introspect plot -f "$RUN" --script one.gp -o one.png 'box::link/pose.[xz]'
	run -1 grep -c 'dashtype' one.gp
}

@test "plot: SVG background white by default, a colour or none; PNG and PDF sizes" {
	phys-introspect plot -f "$RUN" -o a.svg --size 800x500 'box::link/pose.z'
	run -0 grep -c '<rect x="0" y="0" width="800" height="500" fill="#ffffff"' a.svg
	phys-introspect plot -f "$RUN" -o b.svg --background '#102030' 'box::link/pose.z'
	run -0 grep -c '<rect x="0" y="0" width="1024" height="640" fill="#102030"' b.svg
	phys-introspect plot -f "$RUN" -o c.svg --background none 'box::link/pose.z'
	run -0 grep -c '<rect x="0" y="0" width="1024" height="640" fill="none"' c.svg
	phys-introspect plot -f "$RUN" -o d.png --size 640x400 'box::link/pose.z'
	run -0 file d.png
	assert_output --partial "PNG image data, 640 x 400"
	phys-introspect plot -f "$RUN" -o e.out --format pdf 'box::link/pose.z'
	run -0 file e.out
	assert_output --partial "PDF document"
}

@test "plot: bad settings are usage errors" {
	run -2 phys-introspect plot -f "$RUN" --script s.gp --xmin 1 --xmax 1 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: plot: --xmin 1 is not below --xmax 1"
	run -2 phys-introspect plot -f "$RUN" --script s.gp --size 640 'box::link/pose.z'
	assert_line --index 0 --partial "--size: '640' is not WIDTHxHEIGHT"
	run -2 phys-introspect plot -f "$RUN" --script s.gp --color 'box*=no colour' 'box::link/pose.z'
	assert_line --index 0 --partial "is not a colour"
	run -2 phys-introspect plot -f "$RUN" -o z.png --interval 1 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: plot: --interval needs --live"
	run -2 phys-introspect plot -f "$RUN" --script s.gp --logscale y --ymin 0 'box::link/pose.z'
	assert_line --index 0 --partial "logarithmic y axis needs a range above 0"
	run -2 phys-introspect filter -f "$RUN" --title x 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: filter: --title does not apply"
	# where DISPLAY is set but gnuplot has no window, a pipe is no terminal
	if ! gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -qw 'qt\|wxt\|x11'; then
		run -1 env DISPLAY=:99 "$PHYS_BIN/phys-introspect" plot --live -f "$RUN" 'box::link/pose.z'
		assert_output --partial "standard output is not a terminal: give -o FILE"
	fi
	run -2 phys-introspect plot -f "$RUN" --terminal tty 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: --terminal: 'tty' is none of text, sixel, window"
	run -2 phys-introspect plot -f "$RUN" --terminal text -o z.png 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: plot: --terminal and -o exclude each other"
	run -2 phys-introspect plot -f "$RUN" --terminal sixel --script s.gp 'box::link/pose.z'
	assert_line --index 0 "phys-introspect: plot: --terminal and --script exclude each other"
	run -2 phys-introspect plot -f "$RUN" --terminal sixel 'box::link/pose.z'
	assert_line --index 0 --partial "standard output is not a terminal"
	run -1 env -u DISPLAY "$PHYS_BIN/phys-introspect" plot -f "$RUN" --terminal window 'box::link/pose.z'
	assert_output "phys-introspect: plot --terminal window: DISPLAY is not set"
	run -1 phys-introspect plot -f "$RUN" --script s.gp --color 'ball*=red' 'box::link/pose.z'
	assert_output "phys-introspect: --color ball*=red: no plotted field matches 'ball*'"
	[ ! -e s.gp ]
}

@test "plot on a terminal: the y axis has a label and legend entries stay apart" {
	command -v script >/dev/null || skip "script(1) is not installed"
	COLUMNS=100 LINES=30 script -qec "'$PHYS_BIN/phys-introspect' plot -f '$RUN' \
		'box::link/pose.x' 'box::link/pose.z' 'robot::elbow/position.0' 'robot::elbow/position.1'" \
		/dev/null > screen </dev/null
	run -0 grep -c 'pose.. \[m\]\|value \[m\]' screen
	# each title is followed by blanks and its own line sample
	run -0 grep -Ec 'box::link/pose.x +[^ ]{7}' screen
	run -0 grep -Ec 'box::link/pose.z +[^ ]{7}' screen
	run -1 grep -Ec '[*#$%@&=]{7}[A-Za-z]' screen
}

# Polls tmux's screen until it shows a plot other than $1; prints it.
next_screen() {
	local s i
	for i in $(seq 100); do
		s=$(tmux -L "$SOCK" capture-pane -p -t plot 2>/dev/null) || true
		if [[ $s == *"sim time [s]"* && $s != "$1" ]]; then
			printf '%s\n' "$s"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

@test "plot --live in a real terminal (tmux) redraws while the run goes" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="phys-$$-$BATS_TEST_NUMBER"
	tmux -L "$SOCK" new-session -d -s plot -x 100 -y 30 \
		"env -u DISPLAY '$PHYS_BIN/phys-step' --realtime -t 4 -e 20 -i 'ball::link/pose' \
		'$WORLDS/falling_sphere.sdf' 2>/dev/null | env -u DISPLAY \
		'$PHYS_BIN/phys-introspect' plot --live --interval 0.2 'ball::link/pose.z' 2>err; sleep 30"
	first=$(next_screen "") || { tmux -L "$SOCK" kill-server; false; }
	second=$(next_screen "$first") || { tmux -L "$SOCK" kill-server; false; }
	tmux -L "$SOCK" kill-server
	[[ $first == *"pose.z [m]"* && $second == *"pose.z [m]"* ]]
	[[ $first == *"ball::link/pose.z"* ]]
	[ "$first" != "$second" ]
	# one frame in place: the axis label appears once on the screen
	[ "$(grep -c 'pose.z \[m\]' <<<"$second")" -eq 1 ]
}

# pane: what tmux's pane shows now.
pane() {
	tmux -L "$SOCK" capture-pane -p -t plot
}

# pane_until TEXT: wait (up to 10 s) until the pane shows TEXT; print it.
pane_until() {
	local s i
	for i in $(seq 100); do
		s=$(pane 2>/dev/null) || true
		if [[ $s == *"$1"* ]]; then
			printf '%s\n' "$s"
			return 0
		fi
		sleep 0.1
	done
	printf '%s\n' "$s"
	return 1
}

@test "plot --live in tmux: the run's warnings and its last error stay below the frames, and after the end" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="phys-$$-$BATS_TEST_NUMBER"
	"$PHYS_BIN/phys-step" -t 1 -e 20 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	# a run that warns while it goes, then fails just before its end
	cat > src.sh <<-END
	head -20 run.jsonl; sleep 0.6
	echo 'phys-step: ctl:3: unknown parameter 'itres'; line skipped' >&2
	sleep 0.6; sed -n '21,40p' run.jsonl; sleep 0.6
	echo 'phys-step: simulation diverged at t=1' >&2
	tail -n +41 run.jsonl
	END
	tmux -L "$SOCK" new-session -d -s plot -x 90 -y 30 \
		"sh src.sh | env -u DISPLAY '$PHYS_BIN/phys-introspect' plot --live --interval 0.1 'ball::link/pose.z'; echo status=\$?; sleep 30"
	out=$(pane_until "status=0") || { tmux -L "$SOCK" kill-server; fail "$out"; }
	tmux -L "$SOCK" kill-server
	# the last frame is there, whole, and both messages under it
	[[ $out == *"sim time [s]"* && $out == *"pose.z [m]"* ]]
	grep -q "line skipped" <<<"$out"
	grep -q "simulation diverged at t=1" <<<"$out"
	[ "$(grep -n 'sim time \[s\]' <<<"$out" | cut -d: -f1)" -lt "$(grep -n 'diverged' <<<"$out" | cut -d: -f1)" ]
}

@test "plot --live whose terminal dies under a background job (tmux killed): the plot ends, and its run with it" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="phys-$$-$BATS_TEST_NUMBER"
	cp "$WORLDS/falling_sphere.sdf" dies.sdf
	# a job of its own process group (set -m) that no one sends SIGHUP:
	# only its terminal's end tells it
	tmux -L "$SOCK" new-session -d -s plot -x 100 -y 30 \
		"bash -c 'set -m; env -u DISPLAY \"$PHYS_BIN/phys-step\" -t 1e6 -r 200 -i ball::link/pose \"$PWD/dies.sdf\" 2> run.err |
		env -u DISPLAY \"$PHYS_BIN/phys-introspect\" plot --live --interval 0.2 ball::link/pose.z 2> plot.err & echo \$! > plot.pid; wait'"
	out=$(pane_until "sim time [s]") || { tmux -L "$SOCK" kill-server; fail "$out"; }
	local plot run
	plot=$(cat plot.pid)
	run=$(pgrep -f -n "$PWD/dies.sdf")
	tmux -L "$SOCK" kill-server
	# a failure guard, not a measure: both end at once
	timeout 10 tail -s 0.05 --pid="$plot" -f /dev/null || { kill "$plot" "$run"; fail "the plot runs on"; }
	timeout 10 tail -s 0.05 --pid="$run" -f /dev/null || { kill "$run"; fail "the run goes on"; }
	[ "$(cat plot.err)" = "phys-introspect: the terminal has gone" ]
	[ ! -s run.err ]
}

# redrawn WIDTH PANE: PANE holds one frame that fills a WIDTH-column
# terminal (120x40 or 60x20) but the three rows at the bottom
redrawn() {
	local wide row
	wide=$(wc -L <<<"$2")
	row=$(grep -n 'sim time \[s\]' <<<"$2" | cut -d: -f1)
	[ "$(grep -c 'pose.z \[m\]' <<<"$2")" -eq 1 ] || return 1
	if [ "$1" -eq 120 ]; then
		[ "$wide" -gt 100 ] && [ "${row:-0}" -gt 30 ]
	else
		[ "$wide" -le 60 ] && [ "${row:-0}" -gt 12 ] && [ "${row:-99}" -le 17 ]
	fi
}

@test "plot --live in tmux follows the terminal's size (SIGWINCH), 20 times" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="phys-$$-$BATS_TEST_NUMBER"
	"$PHYS_BIN/phys-step" -t 1 -e 20 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	mkfifo in
	tmux -L "$SOCK" new-session -d -s plot -x 60 -y 20 \
		"env -u DISPLAY '$PHYS_BIN/phys-introspect' plot --live --interval 0.1 -f in 'ball::link/pose.z'; sleep 30"
	exec 7>in
	head -30 run.jsonl >&7
	small=$(pane_until "sim time [s]") || { tmux -L "$SOCK" kill-server; fail "$small"; }
	# no new line comes: each new size alone redraws the plot
	for k in $(seq 20); do
		if [ $((k % 2)) -eq 1 ]; then w=120 h=40; else w=60 h=20; fi
		tmux -L "$SOCK" resize-window -t plot -x "$w" -y "$h"
		# up to 20 s, for a loaded machine; a whole redrawn frame ends
		# the wait (a capture may catch one half drawn: look again)
		for i in $(seq 400); do
			now=$(pane)
			redrawn "$w" "$now" && break
			sleep 0.05
		done
		redrawn "$w" "$now" ||
		    { tmux -L "$SOCK" kill-server; fail "$k: not redrawn at ${w}x$h: $now"; }
	done
	exec 7>&-
	tmux -L "$SOCK" kill-server
	[ "$(wc -L <<<"$small")" -le 60 ]
}

@test "plot --live in tmux: suspended (^Z) or interrupted (^C), it gives the shell back the whole screen" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="phys-$$-$BATS_TEST_NUMBER"
	tmux -L "$SOCK" new-session -d -s plot -x 80 -y 24 "env -u DISPLAY PS1='$ ' bash --norc --noprofile -i"
	tmux -L "$SOCK" send-keys -t plot "'$PHYS_BIN/phys-step' --realtime -t 60 -e 50 -i 'ball::link/pose' \
		'$WORLDS/falling_sphere.sdf' | '$PHYS_BIN/phys-introspect' plot --live --interval 0.2 'ball::link/pose.z'" Enter
	pane_until "sim time [s]" > /dev/null || { tmux -L "$SOCK" kill-server; fail "no plot"; }
	# suspended: the shell's output scrolls the whole screen, the plot gone
	tmux -L "$SOCK" send-keys -t plot C-z
	pane_until "Stopped" > /dev/null || { tmux -L "$SOCK" kill-server; fail "not suspended"; }
	# "99" is seq's, not the command line's: on a loaded machine the
	# typed "seq 100" alone was caught before its output
	tmux -L "$SOCK" send-keys -t plot "seq 100" Enter
	out=$(pane_until "99") || { tmux -L "$SOCK" kill-server; fail "$out"; }
	first=$(head -1 <<<"$out")
	# continued: the plot is drawn again
	tmux -L "$SOCK" send-keys -t plot "fg" Enter
	back=$(pane_until "sim time [s]") || { tmux -L "$SOCK" kill-server; fail "$back"; }
	# interrupted: the same
	tmux -L "$SOCK" send-keys -t plot C-c
	sleep 0.5
	tmux -L "$SOCK" send-keys -t plot "seq 200" Enter
	end=$(pane_until "199") || { tmux -L "$SOCK" kill-server; fail "$end"; }
	tmux -L "$SOCK" kill-server
	[[ $first =~ ^[0-9]+$ ]] || fail "the plot stayed on top: $out"
	[[ $(head -1 <<<"$end") =~ ^[0-9]+$ ]] || fail "the plot stayed on top: $end"
	[[ $back == *"pose.z [m]"* ]]
}

@test "plot --live -o FILE --interval: the file is rewritten while the input is still open" {
	mkfifo in
	phys-introspect plot --live --interval 0.1 -o live.svg -f in 'ball::link/pose.z' 2>err &
	pid=$!
	exec 5>in
	"$PHYS_BIN/phys-step" -t 0.2 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	head -10 run.jsonl >&5
	eventually 60 grep -q '</svg>' live.svg
	cp live.svg first.svg
	sed -n '11,$p' run.jsonl >&5
	eventually 60 not_same live.svg first.svg
	cp live.svg second.svg
	kill -0 "$pid"		# still running: the input is open
	exec 5>&-
	wait "$pid"
	grep -q '</svg>' first.svg
	grep -q '</svg>' second.svg
	! cmp -s first.svg second.svg || false
	# the first frame is of 10 lines, the last of all 21: the time axis grows
	run -0 grep -c '>0.2<\|>0.2 <\|> 0.2<' live.svg
	run -1 grep -c '>0.2<\|>0.2 <\|> 0.2<' first.svg
}

# in_state PID S: the process's state is S (T stopped, Z a zombie; a
# process gone counts as Z).
in_state() {
	local state
	state=$(cut -d')' -f2 "/proc/$1/stat" 2>/dev/null | cut -c2)
	[ "${state:-Z}" = "$2" ]
}

not_same() {
	! cmp -s "$1" "$2" || false
}

# live_until_gone PID: wait up to 30 s for PID to end; its status.
live_until_gone() {
	timeout 30 tail -s 0.05 --pid="$1" -f /dev/null || return 99
	wait "$1"
}

@test "plot --live ends when its input ends, its gnuplot stopped or killed (20 times each)" {
	"$PHYS_BIN/phys-step" -t 0.2 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	for i in $(seq 20); do
		for sig in STOP KILL; do
			rm -f in live.svg
			mkfifo in
			phys-introspect plot --live --interval 0.05 -o live.svg -f in 'ball::link/pose.z' 2>err &
			pid=$!
			exec 7>in
			head -5 run.jsonl >&7
			# its first frame drawn (gnuplot's start may take
			# seconds on a loaded machine)
			eventually 60 grep -q '</svg>' live.svg ||
			    fail "SIG$sig: no first frame: $(cat err)"
			gp=$(pgrep -P "$pid")
			[ -n "$gp" ] || fail "no gnuplot"
			kill -"$sig" "$gp"
			# stopped (or dead) before the rest of the input comes
			want=T
			[ "$sig" = STOP ] || want=Z
			eventually 30 in_state "$gp" "$want" ||
			    fail "gnuplot never in state $want"
			tail -n +6 run.jsonl >&7 || {
				st=0
				wait "$pid" || st=$?
				fail "SIG$sig: the plot stopped reading its input (status $st): $(cat err)"; }
			exec 7>&-
			# the input has ended: so has the plot, with the reason
			status=0
			live_until_gone "$pid" || status=$?
			[ "$status" -ne 99 ] || { kill -9 "$pid" "$gp"; fail "SIG$sig: still running"; }
			[ "$status" -eq 1 ] || fail "SIG$sig: exit status $status: $(cat err)"
			if [ "$sig" = STOP ]; then
				grep -q "phys-introspect: gnuplot (process $gp) was stopped when the input ended" err
			else
				grep -q "phys-introspect: gnuplot stopped drawing" err
			fi
			! kill -0 "$gp" 2>/dev/null || fail "gnuplot left running"
			# the last image drawn is whole
			grep -q '</svg>' live.svg
		done
	done
}

# slow_gnuplot DIR: DIR/gnuplot, which does what gnuplot does with each
# script phys-introspect has it load (strace shows it): read the file in
# one read(), write the output file the script names, print the frame's
# mark, and only then read on to the file's end, here 0.3 s later. What
# it finds past the script it ran goes into DIR/past.
slow_gnuplot() {
	cat > "$1/gnuplot" <<'SH'
#!/bin/bash
dir=$(dirname "$0")
: > "$dir/past"
while IFS= read -r line; do
	case $line in
	"load '"*)
		f=${line:6}
		exec 3< "${f%?}"
		script=$(dd bs=1M count=1 <&3 2>/dev/null)
		out=$(sed -n "s/^set output '\(.*\)'$/\1/p" <<<"$script")
		[ -z "$out" ] || echo '<svg></svg>' > "$out"
		grep -q "^print 'phys-introspect: frame done'" <<<"$script" &&
		    echo 'phys-introspect: frame done'
		sleep 0.3
		cat <&3 >> "$dir/past"
		exec 3<&- ;;
	esac
done
SH
	chmod +x "$1/gnuplot"
}

@test "plot --live never rewrites a script gnuplot may still be reading to its end: a gnuplot slow to find it finds nothing more" {
	mkdir bin
	slow_gnuplot bin
	"$PHYS_BIN/phys-step" -t 0.2 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	# each row a frame: each script longer than the last
	(while IFS= read -r l; do echo "$l"; sleep 0.05; done < run.jsonl) |
	    PATH="$PWD/bin:$PATH" run -0 phys-introspect plot --live --interval 0.01 -o live.svg 'ball::link/pose.z'
	[ -s live.svg ]
	# a rewritten script gave it the next script's tail, with its mark
	[ ! -s bin/past ] || fail "read past its script: $(head -c 300 bin/past)"
}

@test "plot --live stopped by SIGTERM or SIGHUP ends by the signal and leaves no gnuplot script behind" {
	"$PHYS_BIN/phys-step" -t 0.2 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	mkdir tmp
	# (a background job of a script ignores SIGINT)
	for sig in TERM HUP; do
		# the last round's frame would pass for this one's first
		rm -f in live.svg
		mkfifo in
		TMPDIR="$PWD/tmp" phys-introspect plot --live --interval 0.05 -o live.svg -f in 'ball::link/pose.z' 2>err &
		pid=$!
		exec 7>in
		head -5 run.jsonl >&7
		eventually 60 grep -q '</svg>' live.svg || fail "SIG$sig: no first frame: $(cat err)"
		[ -n "$(ls tmp)" ] || fail "SIG$sig: no script while it runs"
		kill -"$sig" "$pid"
		status=0
		live_until_gone "$pid" || status=$?
		exec 7>&-
		[ "$status" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit status $status"
		[ -z "$(ls tmp)" ] || fail "SIG$sig: left $(ls tmp)"
	done
}

@test "plot --live keeps the last --window samples and needs one run" {
	"$PHYS_BIN/phys-step" -t 0.1 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	run -0 phys-introspect plot --live -o w.svg --window 3 -f run.jsonl 'ball::link/pose.z'
	run -0 phys-introspect plot -o all.svg -f run.jsonl --from 0.08 'ball::link/pose.z'
	# the last three samples are t = 0.08, 0.09, 0.1: the same plot (a
	# gnuplot that drew frames before writes "black" for "currentColor")
	cmp <(sed 's/stroke="black"/stroke="currentColor"/g' w.svg) \
		<(sed 's/stroke="black"/stroke="currentColor"/g' all.svg)
	run -2 phys-introspect plot --live -o w.svg -f run.jsonl -f run.jsonl 'ball::link/pose.z'
	assert_line --index 0 "phys-introspect: plot: --live draws one run"
}

# ---- sixel: a pseudo-terminal that answers as a sixel terminal ----

# sixel_frames FILE: each sixel image (ESC P ... ESC \) of FILE into
# frame1.six, frame2.six, ...; prints their number.
sixel_frames() {
	awk 'BEGIN { RS = "\033\\\\" } (i = index($0, "\033P")) {
		f = "frame" ++n ".six"; printf "%s\033\\", substr($0, i) > f; close(f)
	} END { print n + 0 }' "$1"
}

# The terminal is back as it was: line editing and echo on.
terminal_restored() {
	grep -qw icanon "$1" && grep -qw echo "$1"
	! grep -qw -- '-icanon\|-echo' "$1" || false
}

@test "plot --live on a sixel terminal: frames in place, sized to the terminal, the ball falls as it should" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	command -v sixel2png >/dev/null || skip "sixel2png is not installed (libsixel-bin)"
	# 60 x 20 characters of 480 x 400 pixels: images of 480 x 340, three
	# rows left for the run's messages. Both axes fixed, so that all
	# frames share them.
	python3 "$BATS_TEST_DIRNAME/data/sixel-term.py" 60x20 480x400 screen \
		"env -u DISPLAY '$PHYS_BIN/phys-step' --realtime -t 1.2 -e 20 -i 'ball::link/pose' \
		'$WORLDS/falling_sphere.sdf' 2>/dev/null | env -u DISPLAY '$PHYS_BIN/phys-introspect' \
		plot --live --interval 0.25 --xmin 0 --xmax 1.2 --ymin 0 --ymax 11 \
		--color 'ball*=#ff0000' 'ball::link/pose.z' 2>err; echo \$? > rc; stty -a > stty"
	[ "$(cat rc)" = 0 ] || fail "$(cat err)"
	terminal_restored stty
	# each frame drawn from the top left of the screen
	run -0 grep -c $'\e\\[H\eP' screen
	n=$(sixel_frames screen)
	[ "$n" -ge 3 ] || fail "$n frames"
	sixel2png -i frame2.six -o early.png
	sixel2png -i "frame$n.six" -o last.png
	run -0 file -b early.png
	assert_output "PNG image data, 480 x 340, 8-bit/color RGB, non-interlaced"
	run -0 file -b last.png
	assert_output "PNG image data, 480 x 340, 8-bit/color RGB, non-interlaced"
	! cmp -s early.png last.png || false
	# the curve's pixels: column and row of each column it crosses
	python3 "$BATS_TEST_DIRNAME/data/png-curve.py" ff0000 early.png last.png
	sed 1d early.png.curve > early
	sed 1d last.png.curve > last
	read -r c0 r0 < early
	read -r c1 r1 < last
	read -r ce re < <(tail -1 early)
	read -r cl rl < <(tail -1 last)
	# both start at (0 s, 10 m), the same pixel
	near "$c1" "$c0" 1
	near "$r1" "$r0" 1.5
	# later in time, lower: the ball has fallen on
	[ "$cl" -gt $((ce + 100)) ]
	awk -v a="$rl" -v b="$re" 'BEGIN { exit !(a > b + 100) }'
	# a free fall: the drop grows as the square of the time, so at half
	# the last frame's time the curve has dropped a quarter as far
	cm=$(( (c1 + cl) / 2 ))
	rm=$(awk -v c="$cm" '$1 == c { print $2 }' last)
	rel "$(awk -v m="$rm" -v a="$r1" 'BEGIN { print m - a }')" \
		"$(awk -v l="$rl" -v a="$r1" 'BEGIN { print (l - a) / 4 }')" 0.06
}

@test "plot on a terminal that does not answer the query: the text plot, within the timeout" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	python3 "$BATS_TEST_DIRNAME/data/sixel-term.py" --mute 80x24 800x480 screen \
		"s=\$(date +%s%N); '$PHYS_BIN/phys-introspect' plot -f '$RUN' 'box::link/pose.z' 2>err;
		echo \$? > rc; echo \$(( (\$(date +%s%N) - s) / 1000000 )) > ms; stty -a > stty"
	[ "$(cat rc)" = 0 ] || fail "$(cat err)"
	terminal_restored stty
	run -0 grep -c $'\e\\[c' screen		# asked once
	assert_output 1
	run -0 grep -c 'pose.z \[m\]' screen	# and drew text
	run -1 grep -c $'\eP' screen
	# the answer is waited for half a second, then gnuplot draws
	[ "$(cat ms)" -lt 4000 ] || fail "took $(cat ms) ms"
	# --terminal sixel draws sixel without asking, at --size
	python3 "$BATS_TEST_DIRNAME/data/sixel-term.py" --mute 80x24 800x480 screen \
		"'$PHYS_BIN/phys-introspect' plot --terminal sixel --size 320x200 -f '$RUN' 'box::link/pose.z'"
	run -1 grep -c $'\e\\[c' screen
	[ "$(sixel_frames screen)" = 1 ]
	command -v sixel2png >/dev/null || skip "sixel2png is not installed (libsixel-bin)"
	sixel2png -i frame1.six -o one.png
	run -0 file one.png
	assert_output --partial "PNG image data, 320 x 200"
	# and --terminal text on a sixel terminal, text
	python3 "$BATS_TEST_DIRNAME/data/sixel-term.py" 80x24 800x480 screen \
		"'$PHYS_BIN/phys-introspect' plot --terminal text -f '$RUN' 'box::link/pose.z'"
	run -1 grep -c $'\e\\[c\|\eP' screen
	run -0 grep -c 'pose.z \[m\]' screen
}

# ---- a window, on an X server of the test's own ----

# The id of gnuplot's plot window on $DISPLAY, once there is one.
plot_window() {
	local i id
	for i in $(seq 100); do
		id=$(xwininfo -root -children 2>/dev/null |
			awk '$2 ~ /^"Gnuplot/ { print $1; exit }')
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}

# xwd_until_new ID OLD NEW: a picture of window ID into NEW once it
# differs from OLD and stays so for 0.3 s, a frame drawn whole (at most
# 10 s).
xwd_until_new() {
	local i
	for i in $(seq 30); do
		xwd -silent -id "$1" -out "$3" 2>/dev/null && ! cmp -s "$2" "$3" &&
			sleep 0.3 && xwd -silent -id "$1" -out "$3.again" &&
			cmp -s "$3" "$3.again" && return 0
		sleep 0.1
	done
	return 1
}

# An X server of the test's own, on a display number Xvfb picks free and
# tells, in DISPLAY once it answers.
start_x() {
	local i
	Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3>display 2>xvfb.err &
	XPID=$!
	for i in $(seq 100); do [ -s display ] && break; sleep 0.1; done
	export DISPLAY=":$(cat display)"
	[ "$DISPLAY" != ":" ] || { stop_x; fail "Xvfb: $(cat xvfb.err)"; }
	for i in $(seq 100); do
		xwininfo -root >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	stop_x
	fail "Xvfb on $DISPLAY does not answer: $(cat xvfb.err)"
}

stop_x() {
	if [ -n "${XPID:-}" ]; then
		kill "$XPID" 2>/dev/null
		wait "$XPID" 2>/dev/null || true
	fi
	XPID=
}

teardown() {
	stop_x
}

# The processes started with DISPLAY=$DISPLAY, our display only (read by
# the shell itself: a command started for it would be one of them).
on_display() {
	local f e pid
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/}
		pid=${pid%/environ}
		while IFS= read -r -d '' e; do
			[[ $e == "DISPLAY=$DISPLAY" ]] && { echo "$pid"; break; }
		done 2>/dev/null < "$f"
	done
	return 0
}

@test "plot --live in a window (Xvfb): redrawn while the run goes; the last frame stays after the input ends" {
	for t in Xvfb xwininfo xwd xkill; do
		command -v "$t" >/dev/null || skip "$t is not installed (xvfb, x11-utils, x11-apps)"
	done
	gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -qw 'qt\|wxt\|x11' ||
		skip "gnuplot has no window terminal (gnuplot-x11)"
	start_x
	mkfifo in
	phys-introspect plot --live --interval 0.1 -f in 'ball::link/pose.z' > out 2>err &
	pid=$!
	exec 5>in
	"$PHYS_BIN/phys-step" -t 1 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	head -30 run.jsonl >&5
	wid=$(plot_window) || { stop_x; fail "no window: $(cat err)"; }
	: > none
	xwd_until_new "$wid" none first || { stop_x; fail "no picture"; }
	sed -n '31,70p' run.jsonl >&5
	xwd_until_new "$wid" first second || { stop_x; fail "the window was not redrawn"; }
	kill -0 "$pid"		# still drawing: the input is open
	sed -n '71,$p' run.jsonl >&5
	exec 5>&-
	wait "$pid" || { stop_x; fail "$(cat err)"; }
	# the input ended: phys-introspect and its gnuplot are done, the window
	# shows the last frame until it is closed
	[ ! -s out ]
	xwd_until_new "$wid" second last || { stop_x; fail "no last frame"; }
	keeper=$(on_display)
	[ -n "$keeper" ] || fail "nothing keeps the window"
	# closing the window ends what kept it
	xkill -id "$wid" >/dev/null
	for i in $(seq 50); do [ -z "$(on_display)" ] && break; sleep 0.1; done
	[ -z "$(on_display)" ] || fail "left running: $(on_display)"
	! xwininfo -id "$wid" >/dev/null 2>&1 || false
	# without --live, the same: drawn, and kept after the command ends
	run -0 phys-introspect plot --terminal window -f run.jsonl 'ball::link/pose.z'
	wid=$(plot_window) || fail "no window"
	[ -n "$(on_display)" ]
	xkill -id "$wid" >/dev/null
}

@test "plot in a window: a window terminal that opens none (wxt where GTK cannot start) gives way to x11, said once" {
	for t in Xvfb xwininfo xkill; do
		command -v "$t" >/dev/null || skip "$t is not installed (xvfb, x11-utils, x11-apps)"
	done
	terms=$(gnuplot -e 'print GPVAL_TERMINALS' 2>&1)
	grep -qw wxt <<< "$terms" && grep -qw x11 <<< "$terms" ||
		skip "gnuplot has not both wxt and x11 (gnuplot-x11)"
	grep -qw qt <<< "$terms" && skip "gnuplot has qt, which comes first"
	start_x
	"$PHYS_BIN/phys-step" -t 1 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	# GTK made to look for a Wayland display there is none of: wxt
	# cannot start; x11 does not use GTK
	for live in "" --live; do
		GDK_BACKEND=wayland phys-introspect plot $live --terminal window \
		    -f run.jsonl 'ball::link/pose.z' > out 2> err ||
			{ stop_x; fail "$(cat err)"; }
		[ "$(grep -c "wxt terminal opened no window.*: drawing with x11" err)" = 1 ] ||
			{ stop_x; fail "$(cat err)"; }
		wid=$(plot_window) || { stop_x; fail "no window: $(cat err)"; }
		xkill -id "$wid" >/dev/null
		for i in $(seq 50); do [ -z "$(on_display)" ] && break; sleep 0.1; done
	done
}
