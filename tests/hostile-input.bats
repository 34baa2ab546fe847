#!/usr/bin/env bats
# Hostile input on the reading side: worlds that expand without end,
# files that are no files, readers that must stay linear, edits that
# would write what no longer loads, sweep plans out of range. Every input
# is made here, small; each case failed before it was fixed.

load helper
bats_require_minimum_version 1.5.0

setup() {
	TMP="$BATS_TEST_TMPDIR"
}

# guarded CMD...: CMD within the bounds these inputs must keep to (300 MB
# of address space; a minute as a guard against a hang): what they once
# cost (10 GB, minutes, no end) fails the test loudly.
guarded() {
	bounded 60 300000 "$@"
}

# tenfold DIR LEVELS: model files m0..mLEVELS under DIR, each including
# the next ten times: 10^LEVELS models from a few KB of files.
tenfold() {
	local i k
	for ((i = 0; i <= $2; i++)); do
		mkdir -p "$1/m$i"
		{
			echo "<?xml version='1.0'?><sdf version='1.9'><model name='m$i'>"
			for ((k = 0; k < 10 && i < $2; k++)); do
				echo "<include><uri>model://m$((i + 1))</uri><name>c$k</name><pose>$k 0 0 0 0 0</pose></include>"
			done
			echo "<link name='l'><inertial><mass>1</mass></inertial></link></model></sdf>"
		} > "$1/m$i/model.sdf"
	done
	cat > "$1/w.sdf" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w">
	<include><uri>model://m0</uri></include>
	</world></sdf>
	EOF
}

# ---- bounded loading ----

@test "model files including each other tenfold end at the include limit, with the includes that led there" {
	tenfold "$TMP" 5
	export GAZEBO_MODEL_PATH="$TMP"
	run guarded phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	assert_output --regexp "^phys-step: $TMP/m4/model.sdf:[0-9]+: more than 10000 included files in the world: the limit \(LIMITS in phys\(7\)\) \(included at $TMP/m3/model.sdf:[0-9]+, .*, at $TMP/w.sdf:3\)$"
	# check says it as a finding, and the library's words reach stderr
	run guarded phys-sdf check "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[ "$(jq -r .message <<< "$output" | grep -c 'more than 10000 included files')" -eq 1 ]
	# three levels (1111 models) are a world like any other
	sed -i 's|model://m0|model://m2|' "$TMP/w.sdf"
	run guarded phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	[ "$(head -1 <<< "$output" | jq '.items | keys | map(select(endswith("/pose"))) | length')" -eq 1111 ]
}

@test "out of memory is said on stderr, also by phys-sdf check" {
	tenfold "$TMP" 4
	export GAZEBO_MODEL_PATH="$TMP"
	# too little memory for the world: the loader runs out part way,
	# and says so (it once went to check's findings, lost with them)
	! sanitized ||
	    skip "a sanitized build cannot run in 80 MB of address space"
	run -1 --separate-stderr bash -c "ulimit -v 80000; exec phys-sdf check '$TMP/w.sdf'"
	# said on stderr where an allocation of phys's fails, or as the
	# check's finding at the includes where libxml2's does, or at a
	# link where the loader finds too little room left for more
	[ "$stderr" = "phys-sdf: out of memory" ] ||
	    jq -e 'select(.severity == "error") | .message | test("model.sdf: out of memory [(]included at ")' <<< "$output" ||
	    jq -e 'select(.severity == "error" and (.file | endswith("model.sdf")) and .line > 0) | .message | test("^the [0-9]+ MB the process.s memory limit of [0-9]+ MB leaves is too little to load more links .*[(]included at ")' <<< "$output"
}

@test "more models, links or joints than a world may hold are refused at the one past the limit" {
	awk 'BEGIN { print "<?xml version=\"1.0\"?>"; print "<sdf version=\"1.9\"><world name=\"w\">"
		for (i = 0; i <= 50000; i++) printf "<model name=\"m%d\"><static>true</static><link name=\"l\"/></model>\n", i
		print "</world></sdf>" }' > "$TMP/models.sdf"
	run guarded phys-step -n 1 "$TMP/models.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: $TMP/models.sdf:50003: more than 50000 models in the world: the limit (LIMITS in phys(7))"
	# one model of 50,001 links
	awk 'BEGIN { print "<?xml version=\"1.0\"?>"; print "<sdf version=\"1.9\"><world name=\"w\"><model name=\"m\"><static>true</static>"
		for (i = 0; i <= 50000; i++) printf "<link name=\"l%d\"/>\n", i
		print "</model></world></sdf>" }' > "$TMP/links.sdf"
	run guarded phys-sdf check "$TMP/links.sdf"
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "50003: more than 50000 links in the world: the limit (LIMITS in phys(7))" ]
}

# urdf_chain N: a URDF robot of N links in a chain of revolute joints.
urdf_chain() {
	awk -v n="$1" 'BEGIN { print "<?xml version=\"1.0\"?>"; print "<robot name=\"r\">"
		for (i = 0; i < n; i++) {
			printf "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>", i
			printf "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></link>\n"
			if (i) printf "<joint name=\"j%d\" type=\"revolute\"><parent link=\"l%d\"/><child link=\"l%d\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n", i, i - 1, i
		}
		print "</robot>" }'
}

@test "a URDF of 100,000 links is refused at the link past the limit, by every command" {
	urdf_chain 100000 > "$TMP/r.urdf"
	for cmd in "phys-step -n 1" "phys-inertia check" "phys-sdf print"; do
		run -1 guarded $cmd "$TMP/r.urdf"
		assert_output "${cmd%% *}: $TMP/r.urdf:100002: more than 50000 links in the world: the limit (LIMITS in phys(7))"
	done
	# as an include too
	printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.9"><world name="w">' \
	    "<include><uri>$TMP/r.urdf</uri></include>" '</world></sdf>' > "$TMP/w.sdf"
	run -1 guarded phys-step -n 1 "$TMP/w.sdf"
	assert_output "phys-step: $TMP/r.urdf:100002: more than 50000 links in the world: the limit (LIMITS in phys(7)) (included at $TMP/w.sdf:3)"
}

@test "a URDF of 45,000 links within too little memory: refused at a line, never a crash" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# libxml2 ran out building the converted model and gave phys a null
	# node, which crashed every command within 300 MB; running out while
	# it was read said "out of memory" alone: the line reached is named
	urdf_chain 45000 > "$TMP/r.urdf"
	local l cmd
	for l in $(seq 150000 25000 300000); do
		for cmd in "phys-step -n 1" "phys-inertia check" "phys-sdf print"; do
			run bash -c 'ulimit -c 0 -v "$1"; shift; exec "$@"' _ "$l" $cmd "$TMP/r.urdf"
			[ "$status" -eq 1 ] || fail "$cmd within $l kB: status $status"
			[[ "${lines[-1]}" =~ ^${cmd%% *}:\ $TMP/r.urdf:[1-9][0-9]*:\ (out\ of\ memory\ \(the\ process.s\ memory\ limit\ is\ [0-9]+\ MB\)|link\ .*)$ ]] ||
			    fail "$cmd within $l kB: ${lines[-1]}"
		done
	done
	# within 300 MB it is read and converted in part: refused at the
	# link where the room left is too little for a thousand more
	run -1 bash -c 'ulimit -c 0 -v 300000; exec phys-step -n 1 "$1"' _ "$TMP/r.urdf"
	[[ "$output" =~ ^phys-step:\ $TMP/r.urdf:([0-9]+):\ link\ \'l([0-9]+)\':\ the\ [0-9]+\ MB\ the\ process.s\ memory\ limit\ of\ [0-9]+\ MB\ leaves\ is\ too\ little\ to\ convert\ more\ links\ \(([0-9]+)\ so\ far\):\ raise\ the\ limit,\ or\ read\ fewer$ ]] ||
	    fail "$output"
	[ "${BASH_REMATCH[1]}" -eq $((2 * BASH_REMATCH[2] + 2)) ]	# l's line
	[ $((BASH_REMATCH[3] % 1024)) -eq 0 ]
}

# mjcf_bodies N: an MJCF model of N bodies side by side, each a ball.
mjcf_bodies() {
	awk -v n="$1" 'BEGIN { print "<mujoco model=\"m\"><worldbody>"
		for (i = 0; i < n; i++) printf "<body name=\"b%d\"><geom size=\".1\"/></body>\n", i
		print "</worldbody></mujoco>" }'
}

@test "an MJCF model of more bodies or joints than a world may hold is refused at the one past the limit, by every command" {
	# it once took 800 MB and, for phys-sdf check, 14 s
	mjcf_bodies 50001 > "$TMP/b.xml"
	for cmd in "phys-step -n 1" "phys-inertia check" "phys-sdf print" "phys-param list"; do
		run -1 guarded $cmd "$TMP/b.xml"
		assert_output "${cmd%% *}: $TMP/b.xml:50002: more than 50000 links in the world: the limit (LIMITS in phys(7))"
	done
	run -1 guarded phys-sdf check "$TMP/b.xml"
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "50002: more than 50000 links in the world: the limit (LIMITS in phys(7))" ]
	# one body of 50,001 joints
	awk 'BEGIN { print "<mujoco model=\"m\"><worldbody><body name=\"b\"><geom size=\".1\"/>"
		for (i = 0; i <= 50000; i++) printf "<joint name=\"j%d\" axis=\"0 0 1\"/>\n", i
		print "</body></worldbody></mujoco>" }' > "$TMP/j.xml"
	run -1 guarded phys-step -n 1 "$TMP/j.xml"
	assert_output "phys-step: $TMP/j.xml:50002: more than 50000 joints in the world: the limit (LIMITS in phys(7))"
}

@test "an MJCF model of 45,000 bodies within too little memory is refused at a line, by every command" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	# it takes some 1.1 GB; within 300 MB the conversion ran out of
	# memory naming nothing, within 150 MB its reading did
	awk 'BEGIN { print "<mujoco model=\"m\"><worldbody>"
		for (i = 0; i < 45000; i++) printf "<body name=\"b%d\" pos=\"%d %d 1\"><joint axis=\"0 1 0\"/><geom type=\"box\" size=\".1 .1 .1\"/></body>\n", i, i % 100, i / 100
		print "</worldbody></mujoco>" }' > "$TMP/b.xml"
	local l cmd
	for l in 150000 200000 300000 600000; do
		for cmd in "phys-step -n 1" "phys-inertia check" "phys-sdf print" "phys-sdf check"; do
			run --separate-stderr bash -c 'ulimit -c 0 -v "$1"; shift; exec "$@"' _ "$l" $cmd "$TMP/b.xml"
			[ "$status" -eq 1 ] || fail "$cmd within $l kB: status $status"
			if [ "$cmd" = "phys-sdf check" ] && [ -z "$stderr" ]; then
				jq -e -s 'map(select(.severity == "error")) | length == 1 and (.[0].line > 0)' <<< "$output" ||
				    fail "$cmd within $l kB: $output"
				continue
			fi
			[[ "$stderr" =~ ^${cmd%% *}:\ $TMP/b.xml:([1-9][0-9]*):\ (out\ of\ memory\ \(the\ process.s\ memory\ limit\ is\ [0-9]+\ MB\)|body\ \'b([0-9]+)\':\ the\ [0-9]+\ MB\ the\ process.s\ memory\ limit\ of\ [0-9]+\ MB\ leaves\ is\ too\ little\ to\ convert\ 45000\ bodies\ .*)$ ]] ||
			    fail "$cmd within $l kB: $stderr"
			# a body named is on its line
			[ -z "${BASH_REMATCH[3]}" ] ||
			    [ "${BASH_REMATCH[1]}" -eq $((BASH_REMATCH[3] + 2)) ]
		done
	done
}

@test "MJCF files including each other tenfold end at the include limit, by phys-sdf check too" {
	# six levels are a million includes: the check read them all (14 s)
	local i k
	for ((i = 0; i < 6; i++)); do
		{ echo "<mujoco>"
		  for ((k = 0; k < 10; k++)); do echo "<include file=\"f$((i + 1)).xml\"/>"; done
		  echo "</mujoco>"; } > "$TMP/f$i.xml"
	done
	echo '<mujoco><worldbody><body><geom size=".1"/></body></worldbody></mujoco>' > "$TMP/f6.xml"
	printf '%s\n' '<mujoco model="m">' '<include file="f0.xml"/>' '</mujoco>' > "$TMP/top.xml"
	# depth first, the 1,025th include is one of f5.xml's ten
	run -1 bounded 2 300000 phys-sdf check "$TMP/top.xml"
	[ "$(jq -s -r 'map(select(.severity == "error")) | .[0] | "\(.file | sub(".*/"; "")):\(.line): \(.message)"' <<< "$output")" = \
	    "f5.xml:10: more than 1024 includes (does a file include itself?)" ]
	run -1 bounded 2 300000 phys-step -n 1 "$TMP/top.xml"
	assert_output "phys-step: $TMP/f5.xml:10: more than 1024 includes (does a file include itself?)"
}

@test "MJCF keyframes of more values than the bound are refused at the key past it" {
	# 20,000 keys of 20,000 joints from 1 MB: it once ran past 100 s
	# and 8 GB
	awk 'BEGIN { print "<mujoco model=\"m\"><worldbody><body name=\"b\"><geom size=\".1\"/>"
		for (i = 0; i < 20000; i++) printf "<joint name=\"j%d\" axis=\"0 0 1\"/>\n", i
		print "</body></worldbody><keyframe>"
		for (i = 0; i < 20000; i++) printf "<key name=\"k%d\"/>\n", i
		print "</keyframe></mujoco>" }' > "$TMP/k.xml"
	run -1 guarded phys-step -n 1 "$TMP/k.xml"
	# each key: 20,000 positions and 20,000 speeds; the third passes
	[ "${lines[-1]}" = "phys-step: $TMP/k.xml:20005: keyframes of more than 100000 values (each key's qpos, qvel, mocap poses and ctrl): the limit (LIMITS in phys(7))" ]
	# 499 keys of 100 joints, 99,800 values, are read
	awk 'BEGIN { print "<mujoco model=\"m\"><worldbody><body name=\"b\" pos=\"0 0 1\"><geom size=\".1\"/>"
		for (i = 0; i < 100; i++) printf "<joint name=\"j%d\" axis=\"0 0 1\"/>\n", i
		print "</body></worldbody><keyframe>"
		for (i = 0; i < 499; i++) printf "<key name=\"k%d\"/>\n", i
		print "</keyframe></mujoco>" }' > "$TMP/k.xml"
	run -0 guarded phys-step -q -n 0 --keyframe k498 "$TMP/k.xml"
}

@test "phys-sdf check of an MJCF model gives did-you-mean to its first 100 dangling references" {
	# 20,000 references to no body among 20,000 bodies: each once
	# weighed every name
	{ mjcf_bodies 20000 | sed 's#</mujoco>##'
		echo "<contact>"
		awk 'BEGIN { for (i = 0; i < 20000; i++) printf "<exclude body1=\"c%d\" body2=\"b%d\"/>\n", i, i }'
		echo "</contact></mujoco>"; } > "$TMP/r.xml"
	run -1 guarded phys-sdf check "$TMP/r.xml"
	[ "$(wc -l <<< "$output")" -eq 20000 ]
	[ "$(jq -s '[.[] | select(.suggest)] | length' <<< "$output")" -eq 100 ]
	[ "$(jq -s -r '.[0].message' <<< "$output")" = "body1=\"c0\": no body is so named; did you mean 'b0', 'b1' or 'b2'?" ]
}

@test "phys-inertia check of a chain names each joint's neighbours, as many as there are" {
	# every other link 1000 times heavier: each joint warns, on both sides
	urdf_chain 2000 | awk '/<link name="l[0-9]*[13579]"/ { sub(/mass value="1"/, "mass value=\"1000\"") } { print }' > "$TMP/r.urdf"
	run -0 guarded phys-inertia check "$TMP/r.urdf"
	[ "$(wc -l <<< "$output")" -eq 2000 ]
	# an end has one neighbour, a middle link two
	[ "$(jq -s '[.[] | .warnings | length] | [.[0], .[1], .[1999]]' -c <<< "$output")" = "[1,2,1]" ]
	[ "$(jq -s '[.[] | .warnings | length] | add' <<< "$output")" -eq 3998 ]
}

# frame_chain N ORDER: a model of one link and N frames, each 1 m above
# the one it is attached to: ORDER up, frame i on frame i - 1 (the first
# on the link); down, frame i on frame i + 1 (the last on the link).
frame_chain() {
	awk -v n="$1" -v order="$2" 'BEGIN {
		print "<?xml version=\"1.0\"?>"
		print "<sdf version=\"1.9\"><world name=\"w\"><model name=\"m\"><link name=\"l\"/>"
		for (i = 0; i < n; i++) {
			if (order == "up")
				to = i ? "f" (i - 1) : "l"
			else
				to = i < n - 1 ? "f" (i + 1) : "l"
			printf "<frame name=\"f%d\" attached_to=\"%s\"><pose relative_to=\"%s\">0 0 1 0 0 0</pose></frame>\n", i, to, to
		}
		print "</model></world></sdf>" }'
}

@test "a chain of frames as long as a file makes it loads, checks and prints, each frame where the chain puts it" {
	# 50,000 frames each on the next: print's load once recursed along
	# the chain until its stack ran out (SIGSEGV, after 6 minutes)
	frame_chain 50000 down > "$TMP/down.sdf"
	run -0 guarded phys-sdf print "$TMP/down.sdf"
	[[ "$output" == *'<frame name="f0" attached_to="f1"><pose relative_to="__model__">0 0 50000 0 0 0</pose></frame>'* ]]
	# 20,000 each on the one before: check looked each up among all of
	# them, at every step of its chain (10 s for 2,000)
	frame_chain 20000 up > "$TMP/up.sdf"
	run -0 guarded phys-sdf check "$TMP/up.sdf"
	[ -z "$output" ]
	# longer than 64 frames is no cycle: check and print once said so
	frame_chain 70 up > "$TMP/up.sdf"
	run -0 phys-sdf check "$TMP/up.sdf"
	[ -z "$output" ]
	run -0 phys-sdf print "$TMP/up.sdf"
	[[ "$output" == *'<frame name="f69" attached_to="f68"><pose relative_to="__model__">0 0 70 0 0 0</pose></frame>'* ]]
	# a cycle of poses is one, however long, said once where it closes
	sed -i 's/attached_to="l"><pose relative_to="l"/attached_to="l"><pose relative_to="f69"/' "$TMP/up.sdf"
	run -1 phys-sdf check "$TMP/up.sdf"
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "3: pose of 'f0' is relative to itself (a cycle)" ]
	# by the loader, for every command, named by nothing or not
	run -1 phys-step -n 0 "$TMP/up.sdf"
	[ "$output" = "phys-step: $TMP/up.sdf:3: pose of 'f0' is relative to itself (a cycle)" ]
}

# ---- files that are no regular files ----

# terrain_world FILE URI: a world whose ground is a heightmap of URI, and
# a mesh-less ball; the line of the <uri> is its last line but three.
terrain_world() {
	cat > "$1" <<-EOF
	<?xml version="1.0"?>
	<sdf version="1.9"><world name="w">
	<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry>
	<heightmap><uri>$2</uri><size>10 10 1</size></heightmap>
	</geometry></collision></link></model>
	</world></sdf>
	EOF
}

@test "a FIFO, a device or a directory as a world, an include's model.sdf or model.config, or terrain is refused at once, at the element that names it" {
	mkdir -p "$TMP/m" "$TMP/mc" "$TMP/md"
	mkfifo "$TMP/m/model.sdf" "$TMP/mc/model.config" "$TMP/fifo.sdf" "$TMP/dem.tif"
	mkdir "$TMP/md/model.sdf"
	echo "<sdf version='1.9'><model name='mc'><link name='l'/></model></sdf>" > "$TMP/mc/model.sdf"
	export GAZEBO_MODEL_PATH="$TMP"
	for m in m mc md; do
		printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.9"><world name="w">' \
		    "<include><uri>model://$m</uri></include>" '</world></sdf>' > "$TMP/w_$m.sdf"
	done
	for cmd in "phys-step -n 1" "phys-inertia check" "phys-param get gravity"; do
		prog=${cmd%% *}
		run -1 guarded $cmd "$TMP/w_m.sdf"
		assert_output "$prog: $TMP/w_m.sdf:3: $TMP/m/model.sdf: not a regular file (a FIFO)"
		run -1 guarded $cmd "$TMP/w_mc.sdf"
		assert_output "$prog: $TMP/w_mc.sdf:3: $TMP/mc/model.config: not a regular file (a FIFO)"
		run -1 guarded $cmd "$TMP/fifo.sdf"
		assert_output "$prog: $TMP/fifo.sdf: not a regular file (a FIFO)"
		run -1 guarded $cmd /dev/zero
		assert_output "$prog: /dev/zero: not a regular file (a character device)"
	done
	run -1 guarded phys-sdf check "$TMP/w_m.sdf"
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "3: $TMP/m/model.sdf: not a regular file (a FIFO)" ]
	# the world itself, checked (phys-sdf check waited on it)
	run -1 guarded phys-sdf check "$TMP/fifo.sdf"
	[ "$(jq -r .message <<< "$output")" = "$TMP/fifo.sdf: not a regular file (a FIFO)" ]
	run -1 guarded phys-sdf check /dev/zero
	[ "$(jq -r .message <<< "$output")" = "/dev/zero: not a regular file (a character device)" ]
	# an MJCF model's <include>, by the loader and by the checker (which
	# waited on it)
	printf '%s\n' '<mujoco model="m">' '  <include file="fifo.sdf"/>' \
	    '  <worldbody/>' '</mujoco>' > "$TMP/inc.xml"
	run -1 guarded phys-step -n 1 "$TMP/inc.xml"
	assert_output "phys-step: $TMP/inc.xml:2: <include file=\"fifo.sdf\">: $TMP/fifo.sdf: not a regular file (a FIFO)"
	run -1 guarded phys-sdf check "$TMP/inc.xml"
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "2: <include file=\"fifo.sdf\">: $TMP/fifo.sdf: not a regular file (a FIFO)" ]
	# a model directory whose model.sdf is a directory is not found
	run -1 guarded phys-step -n 1 "$TMP/w_md.sdf"
	# terrain
	terrain_world "$TMP/t.sdf" "$TMP/dem.tif"
	run -1 guarded phys-step -n 1 "$TMP/t.sdf"
	assert_output "phys-step: $TMP/t.sdf:4: heightmap: $TMP/dem.tif: not a regular file (a FIFO)"
	# a mesh
	mkfifo "$TMP/m.stl"
	sed 's|<heightmap><uri>.*</uri><size>10 10 1</size></heightmap>|<mesh><uri>m.stl</uri></mesh>|' "$TMP/t.sdf" > "$TMP/mesh.sdf"
	run -1 guarded phys-step -n 1 "$TMP/mesh.sdf"
	assert_output "phys-step: $TMP/mesh.sdf:4: mesh: $TMP/m.stl: not a regular file (a FIFO)"
	# standard input stays a world
	run -0 guarded phys-step -n 0 - < "$WORLDS/falling_sphere.sdf"
}

# ---- sweep plans ----

# plan_refused SED WANT: plan.jsonl edited by SED is refused at its line
# 2 with WANT, before any run.
plan_refused() {
	sed "$1" plan.jsonl > bad.jsonl
	rm -rf runs
	run -1 guarded phys-sweep run --dir runs bad.jsonl
	assert_output "phys-sweep: bad.jsonl:2: $2"
	[ ! -e runs ] || [ -z "$(ls runs)" ]
}

@test "plan lines are checked as the options they stand for, at their line" {
	cd "$TMP"
	cp "$WORLDS/falling_sphere.sdf" w.sdf
	phys-sweep plan -n 10 w.sdf iters=10,20 > plan.jsonl
	local bad want
	while IFS='|' read -r bad want; do
		plan_refused "2s/\"steps\":10/$bad/" "$want"
	done <<-'EOF'
	"every":0|"every": 0 is not a whole number of at least 1 (as --every)
	"steps":-1|"steps": -1 is not a whole number of at least 0 (as --steps)
	"steps":"x"|"steps": "x" is not a whole number of at least 0 (as --steps)
	"steps":1e19|"steps": 1e19 is not a whole number of at least 0 (as --steps)
	"steps":2.5|"steps": 2.5 is not a whole number of at least 0 (as --steps)
	"duration":-1|"duration": -1 must be at least 0 (as --duration)
	"steps":10,"rate":-1|"rate": -1 must be above 0 (as --rate)
	EOF
	# a value of "set" as -s takes it, before any run
	while IFS='|' read -r bad want; do
		plan_refused "2s#\"set\":{[^}]*}#$bad#" "$want"
	done <<-'EOF'
	"set":{"iters":"1e300"}|"set": 'iters': ode.solver.iters: "1e300" is not an int
	"set":{"bogus":"1"}|"set": 'bogus': no profile or world parameter is named 'bogus'
	"set":{"ball::link/inertial.mass":"-2"}|"set": 'ball::link/inertial.mass': inertial.mass: -2 must be above 0
	"set":{"ball::link/bogus":"1"}|"set": 'ball::link/bogus': no link, collision or joint parameter is named 'bogus'
	EOF
	# the plan as written still runs
	run -0 guarded phys-sweep run --dir runs plan.jsonl
}

@test "a plan whose world is a FIFO, or a plan that is one, is refused at once" {
	cd "$TMP"
	cp "$WORLDS/falling_sphere.sdf" w.sdf
	mkfifo fifo.sdf planfifo
	phys-sweep plan -n 10 w.sdf iters=10,20 | sed 's/"w.sdf"/"fifo.sdf"/' > plan.jsonl
	run -1 guarded phys-sweep run --dir runs plan.jsonl
	assert_output 'phys-sweep: plan.jsonl:1: "world": fifo.sdf: not a regular file (a FIFO)'
	run -1 guarded phys-sweep run --dir runs planfifo
	assert_output 'phys-sweep: planfifo: not a regular file (a FIFO)'
}

# ---- edits that would write what no longer loads ----

@test "a massless link's new mass takes its geometry's inertia; one with no geometry is refused with what to do" {
	cat > "$TMP/r.urdf" <<-'EOF'
	<?xml version="1.0"?>
	<robot name="r">
	  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <link name="a"><collision><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision></link>
	  <link name="b"/>
	  <joint name="j" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
	  <joint name="k" type="revolute"><parent link="base"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
	</robot>
	EOF
	cp "$TMP/r.urdf" "$TMP/orig.urdf"
	run -0 phys-param set --in-place "$TMP/r.urdf" 'r::a/inertial.mass=2'
	# a 2 kg box of 0.1 x 0.2 x 0.3 m at z = 0.5: m (b^2 + c^2) / 12 ...
	run -0 phys-param get r::a/inertial.mass r::a/inertial.inertia.ixx r::a/inertial.inertia.iyy r::a/inertial.inertia.izz r::a/inertial.pose "$TMP/r.urdf"
	[ "$(jq -r 'select(.name | endswith("mass")) | .value' <<< "$output")" = 2 ]
	near "$(jq -r 'select(.name | endswith("ixx")) | .value' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.04 + 0.09) / 12 }')" 1e-12
	near "$(jq -r 'select(.name | endswith("iyy")) | .value' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.01 + 0.09) / 12 }')" 1e-12
	near "$(jq -r 'select(.name | endswith("izz")) | .value' <<< "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.01 + 0.04) / 12 }')" 1e-12
	near "$(jq -r 'select(.name | endswith("pose")) | .value.z' <<< "$output")" 0.5 1e-12
	# nothing written is inf or nan, and the file loads
	! grep -Eiq 'inf|nan' "$TMP/r.urdf" || false
	run -0 phys-step -q -n 1 "$TMP/r.urdf"
	# no geometry: refused, the file as it was
	cp "$TMP/orig.urdf" "$TMP/r.urdf"
	run -1 phys-param set --in-place "$TMP/r.urdf" 'r::b/inertial.mass=2'
	assert_output "phys-param: link 'r::b' has no mass to scale its inertia from, nor collision geometry to compute one: set its inertia too (inertial.inertia.ixx, iyy, izz), or inertia.follow=none first"
	cmp "$TMP/orig.urdf" "$TMP/r.urdf"
}

# ---- legal but suspicious URDF, and messages in the user's format ----

@test "URDF: mimic cycles, xacro left unexpanded and a nested robot are warned about at their lines" {
	cat > "$TMP/r.urdf" <<-'EOF'
	<?xml version="1.0"?>
	<robot name="r">
	  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <link name="b_${suffix}"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
	    <mimic joint="jb"/></joint>
	  <joint name="jb" type="revolute"><parent link="base"/><child link="b_${suffix}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
	    <mimic joint="ja"/></joint>
	  <robot name="inner"><link name="x"/></robot>
	</robot>
	EOF
	run -0 --separate-stderr guarded phys-step -n 1 "$TMP/r.urdf"
	assert_equal "$stderr" "phys-step: $TMP/r.urdf:10: a <robot> inside <robot>: what it holds is not read (a URDF holds one robot)
phys-step: $TMP/r.urdf:5: '\${suffix}': a xacro expression left unexpanded, read as it is (the first; was the file made by xacro?)
phys-step: $TMP/r.urdf:7: joint 'ja': its <mimic> leads back to it (ja -> jb -> ja): a cycle no joint leads"
	# the commands that read a robot without running it say them too,
	# each once; -q silences them
	local cmd want
	for cmd in "phys-inertia check" "phys-param list" \
	    "phys-introspect items"; do
		run --separate-stderr guarded $cmd "$TMP/r.urdf"
		want="${cmd%% *}: $TMP/r.urdf:10: a <robot> inside <robot>"
		[[ "$stderr" == *"$want"* ]] || fail "$cmd: $stderr"
		[[ "$stderr" == *"r.urdf:7: joint 'ja': its <mimic> leads back"* ]] ||
			fail "$cmd: $stderr"
		[ "$(grep -c 'leads back' <<< "$stderr")" = 1 ] ||
			fail "$cmd: $stderr"
	done
	run -0 --separate-stderr guarded phys-inertia check -q "$TMP/r.urdf"
	assert_equal "$stderr" ""
	# a chain that ends is no cycle
	sed -i '9s|<mimic joint="ja"/>||' "$TMP/r.urdf"
	run -0 --separate-stderr guarded phys-step -n 1 "$TMP/r.urdf"
	[[ "$stderr" != *"leads back"* ]]
}

@test "URDF: a DTD is refused as URDF, a negative mass as negative, lumped or not" {
	printf '%s\n' '<?xml version="1.0"?>' '<!DOCTYPE robot [ <!ENTITY x "1"> ]>' '<robot name="r"><link name="a"/></robot>' > "$TMP/dtd.urdf"
	run -1 guarded phys-step -n 1 "$TMP/dtd.urdf"
	assert_output "phys-step: $TMP/dtd.urdf:1: DTDs and entity declarations are not allowed in URDF"
	cat > "$TMP/r.urdf" <<-'EOF'
	<?xml version="1.0"?>
	<robot name="r">
	  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <link name="c"><inertial><mass value="-1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
	  <joint name="f" type="fixed"><parent link="base"/><child link="c"/></joint>
	</robot>
	EOF
	for cmd in "phys-step -n 1" "phys-inertia check"; do
		run -1 guarded $cmd "$TMP/r.urdf"
		assert_output "${cmd%% *}: $TMP/r.urdf:4: inertial.mass: -1 must be above 0"
	done
	run -1 guarded phys-sdf check "$TMP/r.urdf"
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "4: inertial.mass: -1 must be above 0" ]
}
