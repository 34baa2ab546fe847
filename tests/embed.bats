#!/usr/bin/env bats
# Embedding: phys.h driven from C. The programs are examples/*.c, built
# with every build ($PHYS_BIN/examples); the install tests install the
# library of that same build (its pub/libphys.a, as make install-lib does
# with B set to it) and build programs against the copy, found through
# pkg-config.
bats_require_minimum_version 1.5.0

load helper

ROOT="$BATS_TEST_DIRNAME/.."
EX="$PHYS_BIN/examples"
B=$(cd "$PHYS_BIN" && pwd)

# install_lib DESTDIR: make install-lib of the build under test, under
# DESTDIR with PREFIX=/usr. Its library is installed as built (-o: never
# made again here, not with other flags than its own).
install_lib() {
	make -s -C "$ROOT" install-lib B="$B" DESTDIR="$1" PREFIX=/usr -o "$B/pub/libphys.a"
}

# san_flags: what a program linked with the build's library needs beyond
# pkg-config's flags: the sanitizers' runtimes for a sanitized build
# (make check-sanitized's build/fuzz), whose objects call them.
san_flags() {
	if nm "$B/pub/libphys.a" | grep -q ' U __[a-z]*san_'; then
		echo -fsanitize=address,undefined
	fi
}

# The numbers of one item after T seconds, one per line, as the API
# reads them ...
api_values() {
	"$EX/drive" "${@:4}" "$1" until "$2" read "$3" | tr ' ' '\n' | tail -n +2
}

# ... and as phys-step writes them (fields in the order of the line).
step_values() {
	phys-step -t "$2" -i "$3" "${@:4}" "$1" | tail -n 1 |
		jq -r --arg i "$3" '.items[$i] | if type == "object" then .[]
			elif type == "array" then .[] else . end'
}

# Succeed when two lists of numbers are equal as doubles, in full.
same_numbers() {
	[ -n "$1" ] || fail "no numbers"
	paste <(printf '%s\n' "$1") <(printf '%s\n' "$2") | awk '
		NF != 2 || $1 + 0 != $2 + 0 { bad = 1; print "differ: " $0 > "/dev/stderr" }
		END { exit bad }'
}

@test "drop: the example's ball falls as free fall says" {
	run "$EX/drop"
	assert_success
	z=$(awk '$1 == "z" { print $2 }' <<<"$output")
	t=$(awk '$1 == "t" { print $2 }' <<<"$output")
	near "$t" 1 1e-12
	# 1000 semi-implicit Euler steps of h = 1 ms from rest at 10 m:
	# z = 10 - g h^2 n (n + 1) / 2, and within g h t / 2 of 10 - g t^2 / 2.
	near "$z" "$(awk 'BEGIN { printf "%.17g", 10 - 9.81 * 1e-6 * 1000 * 1001 / 2 }')" 1e-9
	near "$z" 5.095 "$(awk 'BEGIN { print 9.81 * 0.001 / 2 + 1e-9 }')"
}

@test "drop: a world from a file gives the same fall" {
	run "$EX/drop" "$WORLDS/falling_sphere.sdf"
	assert_success
	assert_line "z 5.09009500000003"
}

@test "the API and phys-step give identical numbers for the same world" {
	local w item
	for w in pendulum:pendulum::bob/pose pendulum:pendulum::pivot/position \
	    pendulum:pendulum/kinetic_energy box_stack:box2::link/pose \
	    box_stack:box0::link/linear_vel sliding_box:box::link/pose \
	    joints:contacts; do
		item=${w#*:}
		w="$WORLDS/${w%%:*}.sdf"
		same_numbers "$(api_values "$w" 0.7 "$item")" \
		    "$(step_values "$w" 0.7 "$item")"
	done
	# A time between steps: the last step overshoots by half a step at most.
	for t in 0.0104 0.0096 0.0105; do
		same_numbers "$(api_values "$WORLDS/pendulum.sdf" $t iterations)" \
		    "$(step_values "$WORLDS/pendulum.sdf" $t iterations)"
	done
}

@test "the API and phys-step agree on accelerations and forces over a step" {
	local w="$WORLDS/box_stack.sdf" item
	for item in box1::link/linear_accel box1::link/force box1::link/torque; do
		same_numbers "$(api_values "$w" 0.3 "$item")" \
		    "$(step_values "$w" 0.3 "$item")"
	done
}

@test "the API and phys-step apply the same control lines and profiles" {
	local w="$WORLDS/sliding_box.sdf" ctl="$BATS_TEST_TMPDIR/ctl.jsonl"
	cat >"$ctl" <<-'EOF2'
	{"t":0.2,"name":"box::link/linear_vel","value":{"x":2,"y":0,"z":0}}
	{"t":0.3,"preset":"box"}
	{"t":0.4,"name":"gravity","value":{"x":0,"y":0,"z":-5}}
	EOF2
	same_numbers "$(api_values "$w" 0.6 box::link/pose -c "$ctl")" \
	    "$(step_values "$w" 0.6 box::link/pose -c "$ctl")"
	# The same changes made by calls instead of control lines.
	run "$EX/drive" "$w" until 0.2 set box::link/linear_vel "2 0 0" \
	    until 0.3 profile box until 0.4 set gravity "0 0 -5" until 0.6 \
	    read box::link/pose
	assert_success
	same_numbers "$(tr ' ' '\n' <<<"$output" | tail -n +2)" \
	    "$(step_values "$w" 0.6 box::link/pose -c "$ctl")"
}

@test "a profile switch by the API is phys-step's -p from the switch on" {
	local w="$WORLDS/pendulum.sdf"
	# Started in "world" or switched to it at t = 0: the same run.
	same_numbers "$("$EX/drive" "$w" profile world until 0.5 read pendulum::bob/pose |
	    tr ' ' '\n' | tail -n +2)" "$(step_values "$w" 0.5 pendulum::bob/pose -p world)"
	run "$EX/drive" -p world "$w" get ode.solver.type
	assert_output "ode.solver.type world"
}

@test "a state set by the API: a ball thrown up at g/2 m/s is back after 1 s" {
	run "$EX/drive" "$WORLDS/falling_sphere.sdf" \
	    set ball::link/linear_vel "0 0 4.905" until 1 read ball::link/pose.z \
	    read ball::link/linear_vel.z
	assert_success
	z=$(awk '/pose.z/ { print $2 }' <<<"$output")
	vz=$(awk '/linear_vel.z/ { print $2 }' <<<"$output")
	# Semi-implicit Euler: z = 10 + v0 t - g h^2 n (n + 1) / 2.
	near "$z" "$(awk 'BEGIN { printf "%.17g", 10 + 4.905 - 9.81e-6 * 1000 * 1001 / 2 }')" 1e-9
	near "$vz" -4.905 1e-9
}

@test "parameters set by the API reach the engine and read back" {
	run "$EX/drive" "$WORLDS/falling_sphere.sdf" set iters 20 get ode.solver.iters \
	    set gravity "0 0 -1.62" until 1 read ball::link/pose.z
	assert_success
	assert_line "ode.solver.iters 20"
	z=$(awk '/pose.z/ { print $2 }' <<<"$output")
	near "$z" "$(awk 'BEGIN { printf "%.17g", 10 - 1.62e-6 * 1000 * 1001 / 2 }')" 1e-9
}

@test "every run of a world starts from the world as opened" {
	run "$EX/drive" "$WORLDS/falling_sphere.sdf" set gravity "0 0 -1" \
	    set ball::link/inertial.mass 3 until 0.5 restart get gravity \
	    get ball::link/inertial.mass read sim_time until 1 read ball::link/pose.z
	assert_success
	assert_line "gravity 0 0 -9.81"
	assert_line "ball::link/inertial.mass 1"
	assert_line "sim_time 0"
	assert_line "ball::link/pose.z 5.09009500000003"
}

@test "a run's control lines change that run only: the next starts from the file" {
	cat > "$BATS_TEST_TMPDIR/ctl" <<'EOF'
{"t":0.5,"name":"gravity","value":{"x":0,"y":0,"z":-1}}
{"t":0.5,"name":"ball::link/inertial.mass","value":3}
{"t":0.5,"name":"ball::link/velocity_decay.linear","value":0.5}
{"t":0.5,"name":"iters","value":7}
{"t":0.5,"name":"max_step_size","value":0.002}
EOF
	run "$EX/drive" -c "$BATS_TEST_TMPDIR/ctl" "$WORLDS/falling_sphere.sdf" \
	    until 1 read ball::link/pose.z get gravity get max_step_size restart \
	    get gravity get iters get max_step_size get ball::link/inertial.mass \
	    get ball::link/velocity_decay.linear until 0.5 read ball::link/pose.z \
	    until 1 read ball::link/pose.z
	assert_success
	# the first run ran with its changes ...
	[ "${lines[1]}" = "gravity 0 0 -1" ]
	[ "${lines[2]}" = "max_step_size 0.002" ]
	# ... and the second starts from the file's values
	[ "${lines[3]}" = "gravity 0 0 -9.81" ]
	[ "${lines[4]}" = "iters 50" ]
	[ "${lines[5]}" = "max_step_size 0.001" ]
	[ "${lines[6]}" = "ball::link/inertial.mass 1" ]
	[ "${lines[7]}" = "ball::link/velocity_decay.linear 0" ]
	# free fall at g = 9.81 up to the change: z = 10 - g h^2 n (n + 1) / 2
	near "${lines[8]#* }" "$(awk 'BEGIN { printf "%.17g", 10 - 9.81e-6 * 500 * 501 / 2 }')" 1e-9
	# and the same end as the first run, to the last digit
	[ "${lines[9]}" = "${lines[0]}" ]
}

@test "a box resized by one run: the next run of the world starts at the file's size and mass" {
	local b=box::link
	# a 0.4 m cube of 1 kg resting on a plane
	run --separate-stderr "$EX/drive" "$WORLDS/resting_box.sdf" \
	    set $b::collision/geometry.box.size "0.8 0.8 0.8" \
	    get $b/inertial.mass get $b/inertial.inertia.ixx \
	    until 2 read $b/pose.z restart \
	    get $b::collision/geometry.box.size get $b/inertial.mass \
	    get $b/inertial.inertia.ixx until 2 read $b/pose.z
	assert_success
	# the first run: twice the size at the same density is 8 times the
	# mass, 32 times the inertia, and the box rests at half its new size
	near "${lines[0]#* }" 8 1e-12
	near "${lines[1]#* }" "$(awk 'BEGIN { printf "%.17g", 8 * 0.8 * 0.8 / 6 }')" 1e-12
	near "${lines[2]#* }" 0.4 1e-6
	# the second: the file's size, mass and inertia, resting at 0.2
	[ "${lines[3]}" = "$b::collision/geometry.box.size 0.4 0.4 0.4" ]
	[ "${lines[4]}" = "$b/inertial.mass 1" ]
	near "${lines[5]#"$b/inertial.inertia.ixx "}" 0.026666666666666668 1e-15
	near "${lines[6]#* }" 0.2 1e-6
	# the library said once that the first run's box was grown 0.2 m
	# into the ground
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "${stderr_lines[0]}" == *"'box::link::collision', resized, reaches 0.2 m into 'ground::link::c'"* ]]
}

@test "errors: a bad name or value returns its code and a message naming it" {
	local w="$WORLDS/falling_sphere.sdf"
	run "$EX/drive" "$w" set ode.solver.no_such_thing 3
	assert_failure 1
	assert_output --partial "PHYS_ENAME"
	assert_output --partial "ode.solver.no_such_thing"
	run "$EX/drive" "$w" set iters many
	assert_failure 1
	assert_output --partial "PHYS_EVALUE"
	assert_output --partial "ode.solver.iters"
	run "$EX/drive" "$w" read ball::link/pose.w
	assert_failure 1
	assert_output --partial "PHYS_ENAME"
	assert_output --partial "ball::link/pose.w"
	run "$EX/drive" "$w" profile nope
	assert_failure 1
	assert_output --partial "PHYS_ENAME"
	assert_output --partial "nope"
	run "$EX/drive" "$w" set ball::link/pose "1 2 3"
	assert_failure 1
	assert_output --partial "PHYS_EVALUE"
	run "$EX/drive" "$BATS_TEST_TMPDIR/missing.sdf"
	assert_failure 1
	assert_output --partial "missing.sdf"
}

@test "errors: a diverging run stops with PHYS_ERUN naming the body" {
	run "$EX/drive" "$WORLDS/falling_sphere.sdf" set gravity "0 0 -1e14" step 5
	assert_failure 1
	assert_output --partial "PHYS_ERUN"
	assert_output --partial "ball::link"
}

@test "warnings go to the program's handler, not to stderr as phys" {
	run "$EX/drive" "$WORLDS/falling_sphere.sdf" set precon_iters 3 step 1
	assert_success
	assert_output "drive: warning: ode.solver.precon_iters is set but has no effect with ODE (kept as given)"
}

@test "make install-lib: the build's phys.h, libphys.a and libphys.pc build a program with pkg-config" {
	local d="$BATS_TEST_TMPDIR/root"
	run install_lib "$d"
	assert_success
	cmp "$B/pub/libphys.a" "$d/usr/lib/libphys.a"
	[ -f "$d/usr/include/phys.h" ] || fail "no phys.h"
	[ -f "$d/usr/lib/libphys.a" ] || fail "no libphys.a"
	[ -f "$d/usr/lib/pkgconfig/libphys.pc" ] || fail "no libphys.pc"
	[ -f "$d/usr/share/man/man3/libphys.3" ] || fail "no libphys(3)"
	grep -qx 'prefix=/usr' "$d/usr/lib/pkgconfig/libphys.pc"
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	flags=$(pkg-config --cflags --libs libphys)
	# Only the installed copy: the sources are copied away from lib/.
	cp "$ROOT/examples/drop.c" "$BATS_TEST_TMPDIR/"
	run cc -std=c99 -Wall -Wextra -Werror -pedantic -o "$BATS_TEST_TMPDIR/drop" \
	    "$BATS_TEST_TMPDIR/drop.c" $flags $(san_flags)
	assert_success
	run "$BATS_TEST_TMPDIR/drop"
	assert_success
	assert_line "z 5.09009500000003"
	# The header is also C++.
	printf '#include <phys.h>\nint main() { phys_run_def d = phys_default_run_def(); return d.profile != 0; }\n' >"$BATS_TEST_TMPDIR/t.cc"
	run c++ -fsyntax-only $(pkg-config --cflags libphys) "$BATS_TEST_TMPDIR/t.cc"
	assert_success
}

@test "the installed library defines phys.h's functions and no other name" {
	local d="$BATS_TEST_TMPDIR/root"
	install_lib "$d" >/dev/null
	declared=$(grep -v '^typedef' "$d/usr/include/phys.h" |
		grep -o '^[a-z].*[ *]phys_[a-z0-9_]*(' | grep -o 'phys_[a-z0-9_]*(' |
		tr -d '(' | sort)
	# beside them, LAPACK's error handler (libphys(3))
	declared=$(printf '%s\nxerbla_\n' "$declared" | sort)
	defined=$(nm -g --defined-only "$d/usr/lib/libphys.a" | awk 'NF == 3 { print $3 }' | sort)
	[ "$(wc -l <<<"$declared")" -ge 15 ] || fail "too few declarations: $declared"
	run diff <(echo "$declared") <(echo "$defined")
	assert_success
	# Nothing of libxml2, jansson or ODE shows in the header.
	run grep -E '#include <(libxml|jansson|ode)|xml[A-Z]|json_t|dWorld' "$d/usr/include/phys.h"
	assert_failure
}

@test "an error of LAPACK's (Simbody's linear algebra) returns to its caller, not ending the program with status 0" {
	local d="$BATS_TEST_TMPDIR/root"
	install_lib "$d" >/dev/null
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	# DGEBAL told of a matrix of order -1: LAPACK's own handler prints
	# "** On entry to DGEBAL parameter number  2 had an illegal value"
	# to standard output and exits 0; the library's returns, and so
	# does DGEBAL, its INFO -2
	cat >"$BATS_TEST_TMPDIR/lapack.c" <<-'EOF2'
	#include <stddef.h>
	#include <stdio.h>
	#include <phys.h>
	void dgebal_(const char *, const int *, double *, const int *, int *,
	    int *, double *, int *, size_t);
	int main(void) {
		int n = -1, lda = 1, ilo, ihi, info = 0;
		double a[1], scale[1];
		/* the library linked: a world of nothing refused */
		if (phys_open_world("", NULL) != NULL)
			return 2;
		dgebal_("B", &n, a, &lda, &ilo, &ihi, scale, &info, 1);
		printf("returned, info %d\n", info);
		return 0;
	}
	EOF2
	run cc -std=c99 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/lapack" \
	    "$BATS_TEST_TMPDIR/lapack.c" $(pkg-config --cflags --libs libphys) $(san_flags)
	assert_success
	run "$BATS_TEST_TMPDIR/lapack"
	assert_success
	assert_output "returned, info -2"
}

@test "libphys(3) is mandoc -Tlint clean" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	run mandoc -Tlint "$ROOT/man/libphys.3"
	assert_success
	assert_output ""
}

@test "libphys(3) documents every function of phys.h" {
	local page="$ROOT/man/libphys.3" fn
	for fn in $(grep -v '^typedef' "$ROOT/lib/api/phys.h" |
	    grep -o '^[a-z].*[ *]phys_[a-z0-9_]*(' | grep -o 'phys_[a-z0-9_]*(' |
	    tr -d '('); do
		grep -q "^\.BI* \"[^\"]*[ *]$fn(" "$page" ||
		    fail "$fn is not in the SYNOPSIS"
		grep -q "^\.BR $fn ()" "$page" || fail "$fn is not described"
	done
}

@test "the API's contract: counts, cut text, codes, one run per world" {
	local d="$BATS_TEST_TMPDIR/root"
	install_lib "$d" >/dev/null
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	cat >"$BATS_TEST_TMPDIR/contract.c" <<-'EOF2'
	#include <math.h>
	#include <stdio.h>
	#include <string.h>
	#include <phys.h>

	static int fails;
	#define CHECK(c) do { if (!(c)) { fails++; printf("line %d: %s (%s)\n", \
	    __LINE__, #c, phys_errmsg()); } } while (0)

	static const char bad[] = "<sdf version='1.7'>\n<world name='w'>\n"
	    "<model name='m'>\n</world></sdf>\n";
	static const char good[] = "<sdf version='1.7'><world name='w'>"
	    "<model name='m'><pose>0 0 2 0 0 0</pose><link name='l'><inertial>"
	    "<mass>2</mass></inertial></link></model></world></sdf>";

	int
	main(void)
	{
		double v[6] = { 0 }, vel[3] = { 1, 0, 0 }, zero[3] = { 0 };
		char text[8];
		phys_world *w;
		phys_run *r;

		CHECK(!phys_open_world_text("bad.sdf", bad, strlen(bad), NULL));
		CHECK(!strncmp(phys_errmsg(), "bad.sdf:", 8) && strstr(phys_errmsg(), "malformed XML"));
		CHECK(!phys_open_world(NULL, NULL));
		w = phys_open_world_text("good.sdf", good, strlen(good), NULL);
		CHECK(w && (r = phys_create_run(w, NULL)));
		if (!w || !r)
			return 1;
		CHECK(!phys_create_run(w, NULL) && strstr(phys_errmsg(), "already"));
		CHECK(phys_run_read(r, "m::l/pose", NULL, 0) == 6);
		CHECK(phys_run_read(r, "m::l/pose", v, 3) == 6 && v[2] == 2 && v[3] == 0);
		CHECK(phys_run_read(r, "m::l/pose.z", v, 1) == 1 && v[0] == 2);
		CHECK(phys_run_read(r, "m::l/pose.zz", v, 1) == PHYS_ENAME);
		CHECK(phys_run_step(r, -1) == PHYS_EUSE);
		CHECK(phys_run_until(r, NAN) == PHYS_EVALUE);
		CHECK(phys_run_set_numbers(r, "gravity", zero, 3) == PHYS_OK);
		CHECK(phys_run_set_numbers(r, "m::l/linear_vel", vel, 3) == PHYS_OK);
		CHECK(phys_run_set_numbers(r, "m::l/linear_vel", vel, 2) == PHYS_EVALUE);
		/* No gravity: 500 steps of the default 1 ms at 1 m/s. */
		CHECK(phys_run_step(r, 500) == PHYS_OK);
		CHECK(fabs(phys_run_time(r) - 0.5) < 1e-12);
		CHECK(phys_run_read(r, "m::l/pose.x", v, 1) == 1 && fabs(v[0] - 0.5) < 1e-12);
		CHECK(phys_run_read(r, "m/kinetic_energy", v, 1) == 1 && fabs(v[0] - 1) < 1e-12);
		CHECK(phys_run_get(r, "iters", text, sizeof text) == 2 && !strcmp(text, "50"));
		CHECK(phys_run_get(r, "gravity", text, 4) == 5 && !strcmp(text, "0 0"));
		CHECK(phys_run_set(r, "iters", "-3") == PHYS_EVALUE);
		CHECK(phys_run_set(r, "no_such", "1") == PHYS_ENAME && strstr(phys_errmsg(), "no_such"));
		CHECK(phys_run_use_profile(r, "nope") == PHYS_ENAME);
		CHECK(phys_run_read(NULL, "sim_time", v, 1) == PHYS_EUSE);
		phys_free_run(r);
		CHECK((r = phys_create_run(w, NULL)) && phys_run_time(r) == 0);
		CHECK(phys_run_read(r, "m::l/pose.x", v, 1) == 1 && v[0] == 0);
		phys_free_run(r);
		phys_free_world(w);
		printf("%d failed\n", fails);
		return fails != 0;
	}
	EOF2
	run cc -std=c99 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/contract" \
	    "$BATS_TEST_TMPDIR/contract.c" $(pkg-config --cflags --libs libphys) $(san_flags)
	assert_success
	run "$BATS_TEST_TMPDIR/contract"
	assert_output "0 failed"
	assert_success
}

@test "phys_run_publish: a cmd_vel message to a DiffDrive drives the carrier of worlds/detachable_joint.sdf at the commanded speed; a topic no system has and a message not of its type are PHYS_EINPUT" {
	local w="$WORLDS/detachable_joint.sdf" x
	x=$("$EX/drive" "$w" publish /model/carrier/cmd_vel '{"linear":{"x":0.5},"angular":{"z":0}}' \
	    until 2 read carrier::chassis/pose until 3 read carrier::chassis/pose | cut -d' ' -f2 | tr '\n' ' ')
	near "$(awk -v x="$x" 'BEGIN { split(x, a, " "); print a[2] - a[1] }')" 0.5 0.005
	# the same as the topic line phys-step reads
	echo '{"t":0,"topic":"/model/carrier/cmd_vel","msg":{"linear":{"x":0.5},"angular":{"z":0}}}' > "$BATS_TEST_TMPDIR/ctl"
	[ "$("$EX/drive" "$w" publish /model/carrier/cmd_vel '{"linear":{"x":0.5},"angular":{"z":0}}' until 1 read carrier::chassis/pose)" = \
	    "$("$EX/drive" -c "$BATS_TEST_TMPDIR/ctl" "$w" until 1 read carrier::chassis/pose)" ]
	run "$EX/drive" "$w" publish /model/nobody/cmd_vel '{}'
	[ "$status" -eq 1 ]
	[[ "$output" == "drive: PHYS_EINPUT: no system listens on topic '/model/nobody/cmd_vel'"* ]]
	run "$EX/drive" "$w" publish /model/carrier/cmd_vel '{"linear":{"x":"fast"}}'
	[ "$status" -eq 1 ]
	[[ "$output" == "drive: PHYS_EINPUT: msg.linear.x: expected a number"*"gz.msgs.Twist)" ]]
	run "$EX/drive" "$w" publish /model/carrier/cmd_vel '{oops'
	[ "$status" -eq 1 ]
	[[ "$output" == "drive: PHYS_EINPUT: message on topic '/model/carrier/cmd_vel' is not JSON: "* ]]
}

@test "hostile worlds through the API: an error code and a message each, and the caller carries on" {
	local d="$BATS_TEST_TMPDIR/root" h="$BATS_TEST_TMPDIR/h" limit=
	install_lib "$d" >/dev/null
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	sh "$BATS_TEST_DIRNAME/data/hostile-engines.sh" "$h"
	cat >"$BATS_TEST_TMPDIR/hostile.c" <<-'EOF2'
	#include <math.h>
	#include <stdio.h>
	#include <string.h>
	#include <phys.h>

	static int fails;
	#define CHECK(c, what) do { if (!(c)) { fails++; printf("%s: %s (%s)\n", \
	    what, #c, phys_errmsg()); } } while (0)

	/* The good world still runs: the ball falls as semi-implicit Euler
	 * says over 100 steps of 1 ms under profile p. */
	static void
	carry_on(const char *p, const char *after)
	{
		phys_run_def d = phys_default_run_def();
		phys_world *w = phys_open_world("good.sdf", NULL);
		phys_run *r;
		double z = 0;

		d.profile = p;
		CHECK(w && (r = phys_create_run(w, &d)), after);
		if (!w || !r)
			return;
		CHECK(phys_run_step(r, 100) == PHYS_OK, after);
		CHECK(phys_run_read(r, "ball::link/pose.z", &z, 1) == 1 &&
		    fabs(z - (1 - 9.8e-6 * 100 * 101 / 2)) < 1e-3, after);
		phys_free_run(r);
		phys_free_world(w);
	}

	/* One case: it fails, with its message, at the open, the run's
	 * start or a step. */
	static void
	hostile(char *e, char *world, char *control, const char *what)
	{
		phys_world_def wd = phys_default_world_def();
		phys_run_def d = phys_default_run_def();
		phys_world *w;
		phys_run *r = NULL;
		int rc = PHYS_OK;

		wd.quiet = 1;
		d.profile = strcmp(e, "-") ? e : NULL;
		d.control = strcmp(control, "-") ? control : NULL;
		if ((w = phys_open_world(world, &wd)) && (r = phys_create_run(w, &d)))
			rc = phys_run_until(r, 0.02);
		CHECK(!w || !r || rc < 0, world);
		CHECK(strstr(phys_errmsg(), what) != NULL, world);
		phys_free_run(r);
		phys_free_world(w);
		carry_on(d.profile, world);
	}

	int
	main(void)
	{
		static const char *const engines[] = { "ode", "bullet", "mujoco",
		    "dart", "simbody" };
		char line[512], *e, *world, *control, *what;
		FILE *f = fopen("cases", "r");
		phys_world *w;
		phys_run *r;
		int i, j, n = 0;

		while (f && fgets(line, sizeof line, f)) {
			line[strcspn(line, "\n")] = '\0';
			e = strtok(line, "|");
			world = strtok(NULL, "|");
			control = strtok(NULL, "|");
			what = strtok(NULL, "|");
			hostile(e, world, control, what);
			n++;
		}
		CHECK(n >= 10, "cases");
		/* Values refused as they are set, the run going on. */
		w = phys_open_world("good.sdf", NULL);
		CHECK(w && (r = phys_create_run(w, NULL)), "good.sdf");
		if (!w || !r)
			return 1;
		CHECK(phys_run_set(r, "simbody.accuracy", "1") == PHYS_EVALUE &&
		    strstr(phys_errmsg(), "simbody.accuracy: 1 is refused"), "set");
		CHECK(phys_run_step(r, 2) == PHYS_OK, "set");
		/* Every engine to every other, mid-run. */
		for (i = 0; i < 5; i++)
			for (j = 0; j < 5; j++) {
				CHECK(phys_run_use_profile(r, engines[i]) == PHYS_OK, engines[i]);
				CHECK(phys_run_step(r, 1) == PHYS_OK, engines[i]);
				CHECK(phys_run_use_profile(r, engines[j]) == PHYS_OK, engines[j]);
				CHECK(phys_run_step(r, 1) == PHYS_OK, engines[j]);
			}
		/* A state past where phys places a body: refused as given,
		 * the run going on. */
		CHECK(phys_run_control(r, "{\"name\":\"ball::link/pose\",\"value\":"
		    "{\"x\":1e308,\"y\":1e308,\"z\":0,\"roll\":0,\"pitch\":0,"
		    "\"yaw\":0}}") == PHYS_EINPUT &&
		    strstr(phys_errmsg(), "farther than phys places a body"), "pose");
		CHECK(phys_run_step(r, 1) == PHYS_OK, "pose");
		phys_free_run(r);
		phys_free_world(w);
		/* ODE stops in a step: PHYS_ERUN with its message, no exit. */
		w = phys_open_world("far.sdf", NULL);
		CHECK(w && (r = phys_create_run(w, NULL)), "far.sdf");
		if (!w || !r)
			return 1;
		CHECK(phys_run_set(r, "gravity", "0 0 2e7") == PHYS_OK, "far");
		CHECK(phys_run_step(r, 2) == PHYS_ERUN &&
		    strstr(phys_errmsg(), "ODE stopped"), "far");
		CHECK(phys_run_step(r, 1) == PHYS_ERUN, "after");
		phys_free_run(r);
		phys_free_world(w);
		for (i = 0; i < 5; i++)
			carry_on(engines[i], "at the end");
		printf("%d cases, %d failed\n", n, fails);
		return fails != 0;
	}
	EOF2
	run cc -std=c99 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/hostile" \
	    "$BATS_TEST_TMPDIR/hostile.c" $(pkg-config --cflags --libs libphys) $(san_flags)
	assert_success
	# within 300 MB of address space (not under ASan, which reserves
	# terabytes), and a guard against a hang
	[ -n "$(san_flags)" ] || limit="ulimit -v 300000;"
	# (a run's warnings, such as Simbody's on a terrain's cost, on stderr)
	run --separate-stderr bash -c "cd '$h' && $limit exec timeout -s KILL 120 '$BATS_TEST_TMPDIR/hostile'"
	assert_output --regexp '^[0-9]+ cases, 0 failed$'
	assert_success
}

@test "memory running out in a call: NULL or PHYS_ENOMEM, what it built freed, and the caller carries on" {
	local d="$BATS_TEST_TMPDIR/root" h="$BATS_TEST_TMPDIR/h"
	# the address space is what runs out: ASan's shadow takes terabytes
	[ -z "$(san_flags)" ] || skip "a sanitized build"
	install_lib "$d" >/dev/null
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	sh "$BATS_TEST_DIRNAME/data/hostile-engines.sh" "$h"
	# 10,000 boxes: about 130 MB once loaded
	awk 'BEGIN { print "<?xml version=\"1.0\"?><sdf version=\"1.7\"><world name=\"w\">"
		for (i = 0; i < 10000; i++)
			printf "<model name=\"b%d\"><pose>%d 0 1 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.2</ixx><iyy>0.2</iyy><izz>0.2</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision><visual name=\"v\"><geometry><box><size>1 1 1</size></box></geometry></visual></link></model>\n", i, 2 * i
		print "</world></sdf>" }' > "$h/big.sdf"
	cat >"$BATS_TEST_TMPDIR/oom.c" <<-'EOF2'
	#include <math.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <sys/resource.h>
	#include <phys.h>

	static int fails;
	#define CHECK(c, what) do { if (!(c)) { fails++; printf("%s: %s (%s)\n", \
	    what, #c, phys_errmsg()); } } while (0)

	/* The address space in use now (bytes). */
	static long
	in_use(void)
	{
		char line[256];
		long kb = -1;
		FILE *f = fopen("/proc/self/status", "r");

		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "VmSize: %ld kB", &kb) == 1)
				break;
		if (f)
			fclose(f);
		return kb * 1024;
	}

	/* The good world: the ball falls as semi-implicit Euler says. */
	static void
	carry_on(const char *after)
	{
		phys_world *w = phys_open_world("good.sdf", NULL);
		phys_run *r = NULL;
		double z = 0;

		CHECK(w && (r = phys_create_run(w, NULL)), after);
		if (!w || !r)
			return;
		CHECK(phys_run_step(r, 100) == PHYS_OK, after);
		CHECK(phys_run_read(r, "ball::link/pose.z", &z, 1) == 1 &&
		    fabs(z - (1 - 9.8e-6 * 100 * 101 / 2)) < 1e-3, after);
		phys_free_run(r);
		phys_free_world(w);
	}

	/* Address space for mb MB more than now, from here on. */
	static void
	limit(long mb)
	{
		struct rlimit rl;

		/* the soft limit only: the next may be higher */
		CHECK(getrlimit(RLIMIT_AS, &rl) == 0, "getrlimit");
		rl.rlim_cur = in_use() + mb * 1024 * 1024;
		CHECK(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit");
	}

	/* Whether msg says memory ran out within the limit the test set. */
	static int
	oom(const char *msg)
	{
		static const char said[] = "out of memory (the process's "
		    "memory limit is ";

		return strncmp(msg, said, sizeof said - 1) == 0 &&
		    strstr(msg, " MB)") != NULL;
	}

	/* Address space without a bound of the test's. */
	static void
	unlimit(void)
	{
		struct rlimit rl;

		CHECK(getrlimit(RLIMIT_AS, &rl) == 0, "getrlimit");
		rl.rlim_cur = rl.rlim_max;
		CHECK(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit");
	}

	int
	main(void)
	{
		static const long start[] = { 2, 8, 32 };
		phys_world_def wd = phys_default_world_def();
		phys_world *big;
		phys_run *r;
		char what[64];
		long mb;
		int i;

		wd.quiet = 1;
		carry_on("before");
		/* the big world cannot be opened, with ever more room short
		 * of what it takes (first: a run that ran out in an engine's
		 * library leaves what it built taken, and the heap kept):
		 * out of memory, at the line reached where it was being
		 * read, or refused at a link for the room left */
		for (mb = 4; mb <= 52; mb += 8) {
			limit(mb);
			big = phys_open_world("big.sdf", &wd);
			snprintf(what, sizeof what, "big.sdf in %ld MB", mb);
			CHECK(!big && (oom(phys_errmsg()) ||
			    (strncmp(phys_errmsg(), "big.sdf:", 8) == 0 &&
			    (strstr(phys_errmsg(), "too little to load more links") ||
			    oom(strstr(phys_errmsg(), ": ") + 2)))),
			    what);
			phys_free_world(big);
			carry_on(what);
		}
		unlimit();
		/* the big world opened, its runs cannot start */
		CHECK((big = phys_open_world("big.sdf", &wd)) != NULL, "big.sdf");
		for (i = 0; big && i < 3; i++) {
			limit(start[i]);
			r = phys_create_run(big, NULL);
			snprintf(what, sizeof what, "a run with %ld MB", start[i]);
			CHECK(!r && oom(phys_errmsg()), what);
			phys_free_run(r);
			/* what an engine had built when its library ran out
			 * stays taken (its state unknown): as much room again */
			limit(start[i]);
			carry_on(what);
		}
		phys_free_world(big);
		printf("%d failed\n", fails);
		return fails != 0;
	}
	EOF2
	run cc -std=c99 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/oom" \
	    "$BATS_TEST_TMPDIR/oom.c" $(pkg-config --cflags --libs libphys)
	assert_success
	run bash -c "cd '$h' && exec timeout -s KILL 120 '$BATS_TEST_TMPDIR/oom'"
	assert_output "0 failed"
	assert_success
}

# DART's copy of ODE's LCP solver calls its debug handler on an internal
# error (an assertion of its factorisation: Isaac Gym's cabinet under
# DART) and aborts the process once the handler returns. The program
# here stands in for that solver (the dynamic linker takes its
# dSolveLCP for the library's) and fails as it does, through the
# library's own dDebug: phys's handler jumps back to its Dantzig solver,
# whose step is solved by projected Gauss-Seidel, said once, and the
# program carries on, a ball resting on the ground at its radius. The
# abort ended the process with "ODE INTERNAL ERROR".
@test "an internal error of DART's LCP solver does not end the embedder's process: the step falls back on Gauss-Seidel" {
	local d="$BATS_TEST_TMPDIR/root"
	install_lib "$d"
	export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$d"
	cat > "$BATS_TEST_TMPDIR/lcp.cc" <<'CC'
#include <cstdio>
#include <cstring>
#include <phys.h>

namespace dart { namespace external { namespace ode {
void dDebug(int num, const char *msg, ...);
bool dSolveLCP(int, double *, double *, double *, double *, int, double *,
    double *, int *, bool)
{
	dDebug(1, "assertion \"%s\" failed", "d[i] != 0");
	return true;
}
} } }

static void said(const char *message, void *ctx)
{
	(void)ctx;
	if (strstr(message, "Dantzig"))
		printf("said: %s\n", message);
}

static const char sdf[] = "<sdf version='1.7'><world name='w'>"
    "<physics name='d' type='dart'/>"
    "<model name='g'><static>true</static><link name='l'><collision name='c'>"
    "<geometry><plane><normal>0 0 1</normal></plane></geometry></collision>"
    "</link></model>"
    "<model name='b'><pose>0 0 0.1 0 0 0</pose><link name='l'>"
    "<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy>"
    "<izz>0.004</izz></inertia></inertial><collision name='c'><geometry>"
    "<sphere><radius>0.1</radius></sphere></geometry></collision></link>"
    "</model></world></sdf>";

int main()
{
	phys_world *w;
	phys_run *r;
	double z[6];

	phys_set_warning_handler(said, NULL);
	w = phys_open_world_text("w", sdf, strlen(sdf), NULL);
	r = w ? phys_create_run(w, NULL) : NULL;
	if (!r || phys_run_until(r, 0.5) != 0 ||
	    phys_run_read(r, "b::l/pose", z, 6) < 0)
		return 2;
	printf("t %g z %.6f\n", phys_run_time(r), z[2]);
	phys_free_run(r);
	phys_free_world(w);
	return 0;
}
CC
	run c++ -rdynamic -o "$BATS_TEST_TMPDIR/lcp" "$BATS_TEST_TMPDIR/lcp.cc" \
	    $(pkg-config --cflags --libs libphys) $(san_flags)
	assert_success
	run --separate-stderr "$BATS_TEST_TMPDIR/lcp"
	assert_success
	assert_line "said: DART's Dantzig solver stopped on a system of constraints it found singular (assertion \"d[i] != 0\" failed): such a step's constraints are solved by projected Gauss-Seidel"
	[ "$(grep -c '^said' <<<"$output")" -eq 1 ]
	z=$(awk '$1 == "t" { print $4 }' <<<"$output")
	near "$(awk '$1 == "t" { print $2 }' <<<"$output")" 0.5 1e-9
	near "$z" 0.1 1e-3
}
