# phys - rigid-body physics worlds from the command line.
#
#   make            build libphys.a and the commands into build/
#   make check      build with -Werror, run every bats suite, then again
#                   under AddressSanitizer+UndefinedBehaviorSanitizer
#   make demo       run a shipped world
#   make bench      speed measurements (never part of the tests)
#   make fuzz       run each libFuzzer harness FUZZ_SECONDS (default 600)
#   make deps       install the Debian packages the project needs
#   make install PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

CC ?= cc
PKGS = libxml-2.0 jansson ode
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lxml2 -ljansson -lode)
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Ilib $(PKG_CFLAGS)
LDLIBS = $(PKG_LIBS) -lm

B ?= build
CMDS = phys-step phys-preset phys-param phys-inertia phys-introspect
LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_OBJ := $(LIB_SRC:lib/%.c=$(B)/obj/%.o)
CMD_SRC := $(wildcard $(CMDS:%=cmd/%.c))
BINS := $(CMD_SRC:cmd/%.c=$(B)/%)
HEADERS := $(wildcard lib/*.h lib/*.def)

all: $(BINS)

$(B)/obj/%.o: lib/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/obj/cmd_%.o: cmd/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libphys.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/%: $(B)/obj/cmd_%.o $(B)/libphys.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libphys.a $(LDLIBS)

deps:
	@sh tools/deps.sh

check: deps
	@$(MAKE) --no-print-directory all EXTRA_CFLAGS=-Werror
	@$(MAKE) --no-print-directory all B=build/asan OPT=-O1 \
		EXTRA_CFLAGS="-Werror -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined"
	@sh tests/run build build/asan
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20

# libFuzzer harnesses (fuzz/), built by clang with the library instrumented
# into build/fuzz; fuzz/run seeds them, replays fuzz/regress and fuzzes.
FUZZ_SECONDS ?= 600
FUZZERS = sdf state control param inertia expr
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_HELPERS = fuzz/fuzz.c fuzz/small_world.c

$(B)/fuzz-%: fuzz/%.c $(FUZZ_HELPERS) fuzz/fuzz.h fuzz/small_world.h $(B)/libphys.a
	$(CC) $(ALL_CFLAGS) -Ifuzz -fsanitize=fuzzer $(LDFLAGS) -o $@ $< \
		$(FUZZ_HELPERS) $(B)/libphys.a $(LDLIBS)

fuzz-bins: $(FUZZERS:%=$(B)/fuzz-%)

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-bins B=build/fuzz CC=clang OPT=-O1 \
		EXTRA_CFLAGS="-Werror -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		LDFLAGS="$(FUZZ_SAN)"
	@sh fuzz/run build/fuzz $(FUZZ_SECONDS) $(FUZZERS)

demo: deps all
	$(B)/phys-step -t 1 -e 100 worlds/falling_sphere.sdf

bench: deps all
	@sh bench/run

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
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

clean:
	rm -rf build

.PHONY: all deps check demo bench install uninstall clean fuzz fuzz-bins
.SECONDARY:
