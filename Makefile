# phys - rigid-body physics worlds from the command line.
#
#   make            build libphys.a and the commands into build/
#   make check      build with -Werror, run every bats suite on that build,
#                   and each fuzz harness for 3 s under AddressSanitizer+
#                   UndefinedBehaviorSanitizer, its regression inputs first
#   make check-sanitized  every suite that feeds hostile input, reads,
#                   edits or embeds, under the sanitizers
#   make check-fast the quick loop: build with -Werror, run every bats suite
#                   on that build, as many at once as there are cores
#   make demo       run a shipped world
#   make bench      speed measurements (never part of the tests)
#   make fuzz       run each libFuzzer harness FUZZ_SECONDS (default 600);
#                   an input slower than FUZZ_TIMEOUT (10) s is a hang
#   make deps       install the Debian packages the project needs
#   make spec       regenerate lib/table/spec_table.c from lib/table/spec/*.spec
#                   (make spec-import writes those from the SDFormat
#                   description files: Debian's sdformat-sdf, SPEC_EXTRA)
#   make install PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

CC ?= cc
CXX ?= c++
PKG_CONFIG ?= pkg-config
# The libraries phys links with, by pkg-config name: add new ones here.
# bullet-float64 is Debian libbullet-dev's double-precision build (the
# single-precision "bullet" cannot keep positions to 1e-9).
PKGS = libxml-2.0 jansson ode bullet-float64 qhull_r
# Asked of pkg-config when a rule runs, not when make reads this file, so
# that "make deps" has installed pkg-config and the -dev packages first.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) $(DLOPEN_PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS))
# Simbody's pkg-config file gives C++ flags (-std=c++11), which a C compile
# refuses: it is not one of PKGS (their flags reach every compile and
# libphys.pc's Requires). Its include path reaches the C++ engines only,
# its libraries every link, and libphys.pc names them in Libs.
SIMBODY_CFLAGS = $(filter-out -std=%,$(shell $(PKG_CONFIG) --cflags simbody))
SIMBODY_LIBS = $(shell $(PKG_CONFIG) --libs simbody)
# Compiled against, opened at run time by name (lib/base/dl.h), not linked:
# libgdal alone pulls in over a hundred libraries, whose loading cost every
# command 0.15 s of processor time (lib/assets/heightmap.c opens it for terrain),
# and assimp a third of a command's start-up (lib/assets/mesh.c, for meshes).
DLOPEN_PKGS = gdal assimp
# The name the loader knows a library by: its SONAME, read from the
# library the linker would take for -lNAME.
soname = $(shell objdump -p "$$($(CC) -print-file-name=lib$(1).so)" | \
	sed -n 's/^ *SONAME *//p')
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-Wstrict-prototypes -Wmissing-prototypes
# CPPFLAGS, CFLAGS and LDFLAGS are the user's (Debian's build flags pass
# them); ours come first so the user's can override them.
# lib/ is a folder per part (lib/README); a header is included by its
# bare name, found on this path.
LIB_PARTS = base table assets model engine run analysis inertia sweep api
LIB_INC = $(LIB_PARTS:%=-Ilib/%)
ALL_CPPFLAGS = $(LIB_INC) $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)
# The Bullet engine is C++ (lib/engine/*.cc) behind a C interface; the libraries'
# headers are system headers, so their warnings are not ours.
CXXWARN = -std=c++17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers
# g++ makes the statics of inline functions in the engines' headers
# "unique" global names, which the installed library would export; weak
# ones, as clang makes them, it keeps to itself (lib/api's objcopy).
NO_UNIQUE := $(shell $(CXX) -fno-gnu-unique -fsyntax-only -x c++ /dev/null \
	2>/dev/null && echo -fno-gnu-unique)
ALL_CXXFLAGS = $(CXXWARN) $(NO_UNIQUE) $(CFLAGS) $(CXXFLAGS) $(EXTRA_CFLAGS)
CXX_CPPFLAGS = $(LIB_INC) $(subst -I/,-isystem /,$(PKG_CFLAGS) $(SIMBODY_CFLAGS)) \
	$(CPPFLAGS)
ALL_LDFLAGS = $(EXTRA_LDFLAGS) $(LDFLAGS)
# MuJoCo (Debian's libmujoco-dev, 2.2.2) ships no pkg-config file: its
# headers are in the default include path and it links as -lmujoco.
MUJOCO_LIBS = -lmujoco
# DART (libdart-dev) runs behind lib/engine/engine_dart.cc. Its pkg-config
# flags name a C++ standard (-std=c++11) that neither our C nor our C++17
# can take, so it is not among PKGS: its headers reach that one file, its
# libraries every link, and its ODE collision detector and its copy of
# ODE's LCP solver (whose error handlers the engine sets), which have no
# .pc file of their own, are named here; libccd, which FCL uses too, finds
# how two convex shapes overlap for ODE and DART (engine_common.c).
DART_CFLAGS = $(filter-out -std=%,$(shell $(PKG_CONFIG) --cflags dart ccd))
DART_LIBS = -ldart-collision-ode -ldart-external-odelcpsolver \
	$(shell $(PKG_CONFIG) --libs dart ccd)
# Linked by $(CC): the C++ runtime the C++ engines need is named here.
LDLIBS = $(PKG_LIBS) $(SIMBODY_LIBS) $(MUJOCO_LIBS) $(DART_LIBS) -lstdc++ -lm

B ?= build
CMDS = phys-step phys-preset phys-param phys-inertia phys-introspect phys-sdf phys-sweep
LIB_SRC := $(sort $(wildcard lib/*/*.c))
LIB_CXX_SRC := $(sort $(wildcard lib/*/*.cc))
# The engines the commands that run engines open from modules (below):
# their objects, for the modules and libphys.a both, are compiled
# position-independent, in obj/pic.
MODULE_ENGINES = dart simbody
MODULE_OBJ = $(MODULE_ENGINES:%=$(B)/obj/pic/engine/engine_%.o)
# The C++ first: each takes as long to compile as dozens of C files, so
# that under -j the C files fill the other cores instead of one C++ file
# compiling alone at the end.
LIB_OBJ := $(filter-out $(MODULE_ENGINES:%=$(B)/obj/engine/engine_%.o), \
	$(LIB_CXX_SRC:lib/%.cc=$(B)/obj/%.o)) $(MODULE_OBJ) \
	$(LIB_SRC:lib/%.c=$(B)/obj/%.o)
CMD_SRC := $(wildcard $(CMDS:%=cmd/%.c))
BINS := $(CMD_SRC:cmd/%.c=$(B)/%)
CMD_OBJ := $(CMD_SRC:cmd/%.c=$(B)/obj/cmd_%.o)
# Each compile writes the headers it read (the system's left out) into a
# .d file beside its object, and an empty rule for each (-MP), so that a
# header deleted or renamed stops no build; make reads them at the end of
# this file. An object is then rebuilt when a header it includes, directly
# or through others, changes, and only then.
DEPFLAGS = -MMD -MP

all: $(BINS)

$(B)/obj/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/obj/assets/heightmap.o: ALL_CPPFLAGS += -DPHYS_GDAL_SONAME='"$(call soname,gdal)"'
$(B)/obj/assets/meshdec.o: ALL_CPPFLAGS += -DPHYS_ASSIMP_SONAME='"$(call soname,assimp)"'

$(B)/obj/%.o: lib/%.cc
	@mkdir -p $(@D)
	$(CXX) $(CXX_CPPFLAGS) $(ALL_CXXFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/obj/engine/engine_common.o: ALL_CPPFLAGS += \
	$(shell $(PKG_CONFIG) --cflags ccd)

$(B)/obj/cmd_%.o: cmd/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/libphys.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/%: $(B)/obj/cmd_%.o $(B)/libphys.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(B)/libphys.a $(LDLIBS)

# The commands that run engines link ODE, Bullet and MuJoCo and open DART
# and Simbody from their modules, $(B)/engines/TYPE.so, when a run first
# asks for one (lib/engine/ops.c, compiled again as ops_modules.o): their
# libraries were most of every start of these commands. A module is its
# engine's object and libraries; the names of libphys it calls, which
# link-args lists, the command links (-u) and exports (--dynamic-list).
ENGINE_CMDS = phys-step phys-sweep
LINKED_ENGINES = ode bullet mujoco
MODULES = $(MODULE_ENGINES:%=$(B)/engines/%.so)
$(B)/engines/dart.so: MODULE_LIBS = $(DART_LIBS)
$(B)/engines/simbody.so: MODULE_LIBS = $(SIMBODY_LIBS)
$(MODULE_OBJ): ALL_CXXFLAGS += -fPIC
ENGINE_CMD_OBJ = $(B)/obj/engine/ops_modules.o @$(B)/engines/link-args \
	$(LINKED_ENGINES:%=-Wl,-u,phys_engine_ops_%)
ENGINE_CMD_LIBS = $(PKG_LIBS) $(MUJOCO_LIBS) \
	$(shell $(PKG_CONFIG) --libs ccd) -lstdc++ -lm

$(B)/obj/pic/%.o: lib/%.cc
	@mkdir -p $(@D)
	$(CXX) $(CXX_CPPFLAGS) $(ALL_CXXFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/obj/pic/engine/engine_dart.o: CXX_CPPFLAGS += $(subst -I/,-isystem /,$(DART_CFLAGS))

$(B)/engines/%.so: $(B)/obj/pic/engine/engine_%.o
	@mkdir -p $(@D)
	$(CXX) -shared $(ALL_LDFLAGS) -o $@ $< $(MODULE_LIBS) -lm

$(B)/engines/link-args: $(MODULE_OBJ)
	@mkdir -p $(@D)
	nm -u $(MODULE_OBJ) | awk '$$2 ~ /^phys_/ { print $$2 }' | sort -u >$@.names
	{ echo '{'; sed 's/$$/;/' $@.names; echo '};'; } >$(B)/engines/exports
	{ sed 's/^/-Wl,-u,/' $@.names; echo "-Wl,--dynamic-list=$(B)/engines/exports"; } >$@

$(B)/obj/engine/ops_modules.o: lib/engine/ops.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -DPHYS_ENGINE_MODULES $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(ENGINE_CMDS:%=$(B)/%): $(B)/%: $(B)/obj/cmd_%.o $(B)/obj/engine/ops_modules.o \
    $(B)/libphys.a $(B)/engines/link-args $(MODULES)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(ENGINE_CMD_OBJ) $(B)/libphys.a $(ENGINE_CMD_LIBS)

deps:
	@sh tools/deps.sh

# The check's builds use every core unless make was given -j: a clean
# clone builds twice (plain; the sanitized library and its harnesses)
# within the check's time.
CHECK_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))

# The suites that feed hostile values, files and engine worlds, edit
# files, embed the library, stop runs and read models, which
# check-sanitized runs against the sanitized build (build/fuzz:
# AddressSanitizer and UndefinedBehaviorSanitizer). Within check, these
# paths meet the sanitizers through the fuzz harnesses (sdf, urdf, mjcf,
# mesh, terrain, plan, param, state, control, expr, inertia, the engines
# through the public API), each replaying the hostile inputs kept in
# fuzz/regress first: check builds the sanitized library and harnesses,
# not the commands.
SAN_SUITES = hostile hostile-input hostile-engines embed faults stop \
	live-control phys-param mjcf-edit assets urdf sdf-model model-file \
	phys-sdf mjcf-check
comma = ,
empty =
space = $(empty) $(empty)

check: deps
	@$(MAKE) --no-print-directory $(CHECK_JOBS) all EXTRA_CFLAGS=-Werror
	@$(MAKE) --no-print-directory spec-check
	@+$(FUZZ_MAKE) $(CHECK_JOBS) fuzz-bins
	@FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) sh fuzz/run build/fuzz $(CHECK_FUZZ_SECONDS) \
		$(FUZZERS) >build/fuzz/check.tap || true
	@TEST_TAP=build/fuzz/check.tap sh tests/run build

# Every suite that feeds hostile input, reads, edits or embeds, on the
# sanitized build alone.
check-sanitized: deps
	@$(MAKE) --no-print-directory $(CHECK_JOBS) fuzz-build
	@sh tests/run build/fuzz:$(subst $(space),$(comma),$(strip $(SAN_SUITES)))

# What check runs on the plain build alone: no sanitizers, no fuzzing.
check-fast: deps
	@$(MAKE) --no-print-directory $(CHECK_JOBS) all EXTRA_CFLAGS=-Werror
	@$(MAKE) --no-print-directory spec-check
	@sh tests/run build

# libFuzzer harnesses (fuzz/), built by clang with the library instrumented
# into build/fuzz, and the commands with them (sanitized: check-sanitized
# runs SAN_SUITES on them); fuzz/run seeds them, replays fuzz/regress and
# fuzzes.
FUZZ_SECONDS ?= 600
# and within make check, each briefly, counted with the tests
CHECK_FUZZ_SECONDS = 3
# Seconds one input may take before it counts as a hang; raise it on a
# machine so loaded that a normal input waits longer for the CPU.
FUZZ_TIMEOUT ?= 10
# the engines' first: replaying its regression inputs takes longest, and
# the others run beside it
FUZZERS = engines sdf state control param inertia expr mesh terrain plan urdf \
	mjcf
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_HELPERS = fuzz small_world
FUZZ_OBJ = $(FUZZERS:%=$(B)/obj/fuzz_%.o) $(FUZZ_HELPERS:%=$(B)/obj/fuzz_%.o)

# Compiled as the library is (fuzzer-no-link), linked with libFuzzer's main.
$(B)/obj/fuzz_%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -Ifuzz $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/fuzz-%: $(B)/obj/fuzz_%.o $(FUZZ_HELPERS:%=$(B)/obj/fuzz_%.o) $(B)/libphys.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-bins: $(FUZZERS:%=$(B)/fuzz-%)

# make in build/fuzz with the sanitizers and libFuzzer's instrumentation
FUZZ_MAKE = $(MAKE) --no-print-directory B=build/fuzz CC=clang CXX=clang++ \
	OPT=-O1 EXTRA_CFLAGS="-Werror -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
	EXTRA_LDFLAGS="$(FUZZ_SAN) -fsanitize-link-c++-runtime"

fuzz-build:
	@+$(FUZZ_MAKE) all fuzz-bins

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) sh fuzz/run build/fuzz $(FUZZ_SECONDS) $(FUZZERS)

# deps first, then a new make for the build: never both at once under -j.
demo: deps
	@$(MAKE) --no-print-directory all
	$(B)/phys-step -t 1 -e 100 worlds/falling_sphere.sdf

# The README's picture of inertia, from a shipped world.
doc/inertia.png: worlds/inertia_show.sdf $(B)/phys-inertia
	$(B)/phys-inertia show -o $@ worlds/inertia_show.sdf

# lib/table/spec_table.c is made from lib/table/spec/VERSION.spec, the
# facts of the SDFormat specification's description files in a form of our
# own: make spec makes it again, spec-check (part of check and check-fast)
# fails when it is not what they give. spec-import reads the description
# files into them again: Debian's sdformat-sdf, and versions it lacks
# (1.10-1.12) from a checkout of the SDFormat repository's sdf/ directory
# when one is at hand; a version not read keeps its file.
SPEC_DIR ?= ../shared/reference
SPEC_EXTRA ?= $(foreach v,1.10 1.11 1.12,$(if $(wildcard $(SPEC_DIR)/sdformat-$(v)/root.sdf),$(v)=$(SPEC_DIR)/sdformat-$(v)))

spec:
	tools/gen-spec > lib/table/spec_table.c.tmp
	mv lib/table/spec_table.c.tmp lib/table/spec_table.c

spec-check:
	@mkdir -p $(B)
	@tools/gen-spec > $(B)/spec_table.c
	@cmp -s $(B)/spec_table.c lib/table/spec_table.c || { \
		echo "lib/table/spec_table.c is not what lib/table/spec/ gives (make spec)" >&2; \
		exit 1; }

spec-import:
	tools/import-spec -o lib/table/spec $(SPEC_EXTRA)

bench: deps
	@$(MAKE) --no-print-directory all
	@PKGS="$(PKGS)" SIMBODY_LIBS="$(SIMBODY_LIBS)" DART_LIBS="$(DART_LIBS)" DART_CFLAGS="$(DART_CFLAGS)" sh bench/run

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -d $(DESTDIR)$(LIBDIR)/phys/engines
	install -m 644 $(MODULES) $(DESTDIR)$(LIBDIR)/phys/engines
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(wildcard man/*.7) $(DESTDIR)$(MANDIR)/man7
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	for c in $(CMDS); do install -m 644 completions/phys.bash $(DESTDIR)$(BASHCOMPDIR)/$$c; done
	install -m 644 completions/_phys $(DESTDIR)$(ZSHCOMPDIR)/_phys
	for c in $(CMDS); do install -m 644 completions/phys.fish $(DESTDIR)$(FISHCOMPDIR)/$$c.fish; done

uninstall:
	for c in $(CMDS); do rm -f $(DESTDIR)$(BINDIR)/$$c $(DESTDIR)$(MANDIR)/man1/$$c.1 \
		$(DESTDIR)$(BASHCOMPDIR)/$$c $(DESTDIR)$(FISHCOMPDIR)/$$c.fish; done
	rm -f $(DESTDIR)$(MANDIR)/man7/phys.7 $(DESTDIR)$(MANDIR)/man7/phys-params.7 \
		$(DESTDIR)$(ZSHCOMPDIR)/_phys
	rm -rf $(DESTDIR)$(LIBDIR)/phys

clean:
	rm -rf build

.PHONY: all deps check check-fast check-sanitized demo bench install uninstall clean spec spec-check fuzz-build \
	spec-import fuzz fuzz-bins
.SECONDARY:

# ---- Embedding: libphys.a, phys.h and libphys.pc for C programs, and
# the programs in examples/ (built with every build, run by the tests) ----
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
OBJCOPY ?= objcopy
VERSION := $(shell sed -n 's/^\#define PHYS_VERSION "\(.*\)"/\1/p' lib/base/cli.h)
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
PUBLIB = $(B)/pub/libphys.a

all: $(PUBLIB) $(B)/libphys.pc $(EXAMPLES)

# The functions phys.h declares: the only global names of the installed
# library, so that a program's own xmalloc or buf_puts never clashes;
# and LAPACK's error handler, which Simbody's LAPACK calls in place of
# its own (libphys(3)).
$(B)/pub/phys.syms: lib/api/phys.h Makefile
	@mkdir -p $(@D)
	{ sed -n '/^typedef/d; s/^[a-z_ ]*[ *]\(phys_[a-z0-9_]*\)(.*/\1/p' lib/api/phys.h; \
	    echo xerbla_; } >$@

$(PUBLIB): $(LIB_OBJ) $(B)/pub/phys.syms
	$(LD) -r -o $(B)/pub/phys.o $(LIB_OBJ)
	$(OBJCOPY) --keep-global-symbols=$(B)/pub/phys.syms $(B)/pub/phys.o
	@rm -f $@
	$(AR) rcs $@ $(B)/pub/phys.o

# Rewritten when PREFIX or LIBDIR change, so install gets the right paths.
$(B)/libphys.pc: lib/api/libphys.pc.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@PREFIX@|$(PREFIX)|' \
		-e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@REQUIRES@|$(PKGS)|' \
		-e 's|@LIBS@|$(SIMBODY_LIBS) $(DART_LIBS)|' \
		lib/api/libphys.pc.in >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/obj/example_%.o: examples/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/examples/%: $(B)/obj/example_%.o $(PUBLIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

install: install-lib
install-lib: $(PUBLIB) $(B)/libphys.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(PUBLIB) $(DESTDIR)$(LIBDIR)/libphys.a
	install -m 644 lib/api/phys.h $(DESTDIR)$(INCLUDEDIR)/phys.h
	install -m 644 $(B)/libphys.pc $(DESTDIR)$(PKGCONFIGDIR)/libphys.pc
	install -m 644 man/libphys.3 $(DESTDIR)$(MANDIR)/man3/libphys.3

uninstall: uninstall-lib
uninstall-lib:
	rm -f $(DESTDIR)$(LIBDIR)/libphys.a $(DESTDIR)$(INCLUDEDIR)/phys.h \
		$(DESTDIR)$(PKGCONFIGDIR)/libphys.pc $(DESTDIR)$(MANDIR)/man3/libphys.3

.PHONY: install-lib uninstall-lib FORCE

# ---- Header dependencies ----
OBJ := $(LIB_OBJ) $(CMD_OBJ) $(FUZZ_OBJ) $(B)/obj/engine/ops_modules.o \
	$(patsubst examples/%.c,$(B)/obj/example_%.o,$(wildcard examples/*.c))
DEPS := $(wildcard $(OBJ:.o=.d))
include $(DEPS)
# An object built before its compile wrote a .d (an older build/) is built
# once more: nothing else would tell make which headers it read.
$(filter-out $(DEPS:.d=.o),$(OBJ)): FORCE
