#!/usr/bin/env bats
# phys-introspect plot: the settings' effects on the gnuplot script and on
# the images, axes by unit, the text plot on a terminal, and live plots
# that redraw while the run goes (in tmux, and into a file fed slowly).
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
	run -0 grep -Fx "set multiplot layout 3,1" three.gp
	run -0 grep -c '^plot ' three.gp
	assert_output 3
	# never one axis of two units, as in "value [m, rad]"
	run -1 grep -h 'label.*\[[^]]*,' one.gp two.gp three.gp
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

@test "plot --live -o FILE --interval: the file is rewritten while the input is still open" {
	mkfifo in
	phys-introspect plot --live --interval 0.1 -o live.svg -f in 'ball::link/pose.z' 2>err &
	pid=$!
	exec 5>in
	"$PHYS_BIN/phys-step" -t 0.2 -e 10 -i 'ball::link/pose' "$WORLDS/falling_sphere.sdf" > run.jsonl
	head -10 run.jsonl >&5
	for i in $(seq 100); do grep -q '</svg>' live.svg 2>/dev/null && break; sleep 0.1; done
	cp live.svg first.svg
	sed -n '11,$p' run.jsonl >&5
	for i in $(seq 100); do cmp -s live.svg first.svg || break; sleep 0.1; done
	cp live.svg second.svg
	kill -0 "$pid"		# still running: the input is open
	exec 5>&-
	wait "$pid"
	grep -q '</svg>' first.svg
	grep -q '</svg>' second.svg
	! cmp -s first.svg second.svg
	# the first frame is of 10 lines, the last of all 21: the time axis grows
	run -0 grep -c '>0.2<\|>0.2 <\|> 0.2<' live.svg
	run -1 grep -c '>0.2<\|>0.2 <\|> 0.2<' first.svg
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
