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

# guarded CMD...: CMD within 1 GB of address space and a minute: what
# these inputs once cost (10 GB, minutes, no end) fails the test loudly.
guarded() {
	(ulimit -v 1048576; exec timeout -s KILL 60 "$@")
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
	run -1 --separate-stderr bash -c "ulimit -v 80000; exec phys-sdf check '$TMP/w.sdf'"
	[ "$stderr" = "phys-sdf: out of memory" ]
}

@test "more models, links or joints than a world may hold are refused at the one past the limit" {
	awk 'BEGIN { print "<?xml version=\"1.0\"?>"; print "<sdf version=\"1.9\"><world name=\"w\">"
		for (i = 0; i <= 10000; i++) printf "<model name=\"m%d\"><static>true</static><link name=\"l\"/></model>\n", i
		print "</world></sdf>" }' > "$TMP/models.sdf"
	run guarded phys-step -n 1 "$TMP/models.sdf"
	[ "$status" -eq 1 ]
	assert_output "phys-step: $TMP/models.sdf:10003: more than 10000 models in the world: the limit (LIMITS in phys(7))"
	# one model of 100,001 links
	awk 'BEGIN { print "<?xml version=\"1.0\"?>"; print "<sdf version=\"1.9\"><world name=\"w\"><model name=\"m\"><static>true</static>"
		for (i = 0; i <= 100000; i++) printf "<link name=\"l%d\"/>\n", i
		print "</model></world></sdf>" }' > "$TMP/links.sdf"
	run guarded phys-sdf check "$TMP/links.sdf"
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.line): \(.message)"' <<< "$output")" = "100003: more than 100000 links in the world: the limit (LIMITS in phys(7))" ]
}
