#!/usr/bin/env bats
# The project itself: manual pages that lint clean and say which version
# they describe, and a Makefile that builds on a new machine with the
# user's compiler flags.

load helper
bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/.."

@test "every manual page passes mandoc -Tlint without warnings" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -W warning "$ROOT"/man/*.[17]
	[ "$status" -eq 0 ] || fail "$output"
	[ -z "$output" ] || fail "$output"
}

@test "every manual page's .TH line has one date and the version --version prints" {
	version=$(phys-step --version | cut -d' ' -f2)
	[ -n "$version" ]
	for page in "$ROOT"/man/*.[17]; do
		# .TH TITLE SECTION "date" "phys VERSION" ...
		th=$(grep -m1 '^\.TH ' "$page")
		[[ "$th" =~ ^\.TH\ [A-Z-]+\ [17]\ \"([0-9]{4}-[0-9]{2}-[0-9]{2})\"\ \"phys\ ([^\"]*)\" ]] ||
			fail "$page: $th"
		[ "${BASH_REMATCH[2]}" = "$version" ] || fail "$page: version ${BASH_REMATCH[2]}, not $version"
		dates="$dates ${BASH_REMATCH[1]}"
	done
	[ "$(tr ' ' '\n' <<<"$dates" | sed '/^$/d' | sort -u | wc -l)" -eq 1 ] || fail "dates:$dates"
}

# make, not seeing the make that may be running the tests
bare_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"
}

# A stand-in for pkg-config that notes each call and answers with marks.
fake_pkg_config() {
	cat > "$TMP/pkg-config" <<EOF
#!/bin/sh
echo "\$*" >> "$TMP/pkg-config.calls"
case \$1 in --cflags) echo -DFAKE_PKG_CFLAGS ;; --libs) echo -lfake_pkg_libs ;; esac
EOF
	chmod +x "$TMP/pkg-config"
}

@test "make asks pkg-config for flags only when it builds, so deps can install it first" {
	fake_pkg_config
	cd "$ROOT"
	# reading the Makefile and running deps does not ask
	run bare_make -n PKG_CONFIG="$TMP/pkg-config" deps
	[ "$status" -eq 0 ]
	[ ! -e "$TMP/pkg-config.calls" ]
	# building does, and what it says reaches the compiler and the linker
	run bare_make -n -B PKG_CONFIG="$TMP/pkg-config" B="$TMP/b" all
	[ "$status" -eq 0 ]
	[ -s "$TMP/pkg-config.calls" ]
	grep -q -- '-DFAKE_PKG_CFLAGS.* -c ' <<<"$output"
	grep -q -- "-o $TMP/b/phys-step .*-lfake_pkg_libs" <<<"$output"
}

@test "make honours the user's CPPFLAGS, CFLAGS and LDFLAGS, as Debian's builds pass them" {
	fake_pkg_config
	cd "$ROOT"
	run bare_make -n -B PKG_CONFIG="$TMP/pkg-config" B="$TMP/b" \
	    CPPFLAGS='-D_FORTIFY_SOURCE=2 -DUSER_CPP' CFLAGS='-g -O1 -DUSER_C' LDFLAGS='-Wl,-z,relro' all
	[ "$status" -eq 0 ]
	compiles=$(grep -- ' -c ' <<<"$output")
	links=$(grep -- "-o $TMP/b/phys-" <<<"$output")
	[ "$(wc -l <<<"$links")" -ge 5 ]
	# every compile has the user's flags, after ours, and not our -O2
	[ -z "$(grep -v -- '-DFAKE_PKG_CFLAGS.*-DUSER_CPP' <<<"$compiles")" ]
	[ -z "$(grep -v -- '-DUSER_C' <<<"$compiles")" ]
	[ -z "$(grep -- '-O2' <<<"$compiles")" ]
	[ -z "$(grep -v -- '-Wl,-z,relro' <<<"$links")" ]
}

@test "lib/: every #include stays within what its part may use, and no header includes itself back" {
	run "$ROOT/tools/check-layers"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "check-layers refuses an include that goes up a layer, and a header circle" {
	cp -r "$ROOT/lib" "$ROOT/tools" "$TMP/"
	sed -i '0,/#include "world.h"/s//#include "world.h"\n#include "sim.h"/' "$TMP/lib/model/world.c"
	printf '#include "inertia.h"\n' >>"$TMP/lib/base/geom.h"
	run "$TMP/tools/check-layers"
	[ "$status" -eq 1 ]
	assert_line --partial 'lib/model/world.c:3: includes sim.h, of run, which model may not use'
	assert_line --partial 'headers that include each other'
}

@test "libphys.a exports only phys_ names, and no two of its files use each other" {
	run "$ROOT/tools/check-lib" "$PHYS_BIN"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "cmd/ holds thin commands: none over 700 lines, and each with subcommands dispatches from one table" {
	local f n

	for f in "$ROOT"/cmd/*.c; do
		n=$(wc -l <"$f")
		[ "$n" -le 700 ] || fail "${f#"$ROOT"/} has $n lines: move its logic into lib/"
	done
	for f in phys-preset phys-param phys-inertia phys-introspect phys-sdf phys-sweep; do
		grep -q '^static const struct phys_command command = ' "$ROOT/cmd/$f.c" ||
		    fail "$f has no subcommand table"
		! grep -q 'strcmp(cmd, "' "$ROOT/cmd/$f.c" ||
		    fail "$f dispatches on subcommand names outside its table"
	done
}

@test "a test helper is defined once: no function but bats's own hooks in two test files" {
	cd "$BATS_TEST_DIRNAME"
	run sh -c "grep -ho '^[a-z_][a-z_0-9]*()' *.bats helper.bash | sort | uniq -d |
	    grep -v -x -e 'setup()' -e 'setup_file()' -e 'teardown()' -e 'teardown_file()'"
	assert_output ''
}

@test "make install: the installed phys-step opens DART and Simbody from PREFIX/lib/phys/engines, where a ball falls its closed form" {
	local e
	# the build under test as it is (-o all: nothing remade)
	bare_make -s -C "$ROOT" install B="$PHYS_BIN" DESTDIR="$TMP/root" \
	    PREFIX=/usr -o all > /dev/null
	[ -f "$TMP/root/usr/lib/phys/engines/dart.so" ]
	# only the installed command is on PATH, and the build's modules are
	# not beside it
	for e in dart simbody; do
		PATH="$TMP/root/usr/bin:/usr/bin:/bin" \
		    fall_form "$e" "$WORLDS/closed_forms.sdf" > "$TMP/form"
		grep -qx 'euler\|parabola' "$TMP/form"
	done
	# a command that has no module to open says so, and runs the others
	mkdir "$TMP/alone"
	cp "$TMP/root/usr/bin/phys-step" "$TMP/alone/"
	run -1 "$TMP/alone/phys-step" -p dart -n 1 "$WORLDS/closed_forms.sdf"
	assert_output --partial "phys-step: engine 'DART' cannot be run: its module $TMP/alone/../lib/phys/engines/dart.so, which could not be loaded: $TMP/alone/../lib/phys/engines/dart.so: cannot open shared object file"
	PATH="$TMP/alone:/usr/bin:/bin" fall_form ode "$WORLDS/closed_forms.sdf" | grep -qx 'euler\|parabola'
}
