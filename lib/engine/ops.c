/*
 * ops.c - each engine's operations, found from its description: the one
 * place that names every module's table, so that what makes or switches
 * an engine (the run layer) links every engine's library, and what only
 * describes engines (registry.c, the parameters' documentation) or
 * drives one it is given (engine.c) links none.
 *
 * Compiled twice. Into libphys.a as it reads, every table linked. For
 * the commands that run engines (phys-step, phys-sweep) again with
 * PHYS_ENGINE_MODULES, every table a weak reference: the engines the
 * command's link asks for (-u) are in it, and each other one is opened
 * from its module, engines/TYPE.so beside the command or in
 * ../lib/phys/engines when installed, the first time a run asks for it.
 * DART's and Simbody's libraries were 100,000 of the 125,000 symbol
 * relocations phys-step made at every start, most of its 50 ms, for
 * worlds that never run them.
 */
#include "engine.h"

#include <stddef.h>

#include "engine_impl.h"

#define PHYS_E(type, bit_name, bit, gz) extern const struct phys_engine_ops \
    phys_engine_ops_##type;
#include "engines.def"
#undef PHYS_E

#ifndef PHYS_ENGINE_MODULES

static const struct phys_engine_ops *const modules[] = {
#define PHYS_E(type, bit_name, bit, gz) &phys_engine_ops_##type,
#include "engines.def"
#undef PHYS_E
};

const struct phys_engine_ops *
phys_engine_ops_of(const struct phys_engine_info *e)
{
	size_t i;

	for (i = 0; i < sizeof modules / sizeof *modules; i++)
		if (modules[i]->info == e)
			return modules[i];
	return NULL;
}

#else

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dl.h"
#include "msg.h"

#define PHYS_WEAK(x) _Pragma(#x)
#define PHYS_E(type, bit_name, bit, gz) PHYS_WEAK(weak phys_engine_ops_##type)
#include "engines.def"
#undef PHYS_E

static const struct {
	const char *type;
	const struct phys_engine_ops *linked;	/* NULL: a module's */
} modules[] = {
#define PHYS_E(type, bit_name, bit, gz) { #type, &phys_engine_ops_##type },
#include "engines.def"
#undef PHYS_E
};

/* Where the modules are, from the command's own path: "" when unknown. */
static void
module_dir(char *dir, size_t size)
{
	static const char *const below[] = { "engines", "../lib/phys/engines" };
	char exe[PATH_MAX], try[PATH_MAX + 32], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	size_t i;

	dir[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')))
		*slash = '\0';
	for (i = 0; i < sizeof below / sizeof *below; i++) {
		snprintf(try, sizeof try, "%s/%s", exe, below[i]);
		if (access(try, X_OK) == 0 || i + 1 == sizeof below /
		    sizeof *below) {
			snprintf(dir, size, "%s", try);
			return;
		}
	}
}

/* Engine e's table from its module into *ops, opened once (phys_dl_load
 * keeps st); NULL, said, when it cannot be had. */
static const struct phys_engine_ops *
open_module(struct phys_dl_state *st, void **ops,
    const struct phys_engine_info *e)
{
	char dir[PATH_MAX + 32], path[2 * PATH_MAX], sym[64];
	char what[2 * PATH_MAX + 64];
	const char *const names[] = { sym };

	module_dir(dir, sizeof dir);
	if (!dir[0]) {
		phys_fail("engine '%s' cannot be run: where its module is "
		    "cannot be known (/proc/self/exe cannot be read)", e->name);
		return NULL;
	}
	snprintf(path, sizeof path, "%s/%s.so", dir, e->type);
	snprintf(sym, sizeof sym, "phys_engine_ops_%s", e->type);
	snprintf(what, sizeof what, "engine '%s' cannot be run: its module "
	    "%s", e->name, path);
	if (phys_dl_load(st, path, names, ops, 1, what) < 0)
		return NULL;
	return *ops;
}

const struct phys_engine_ops *
phys_engine_ops_of(const struct phys_engine_info *e)
{
	static struct phys_dl_state opened[sizeof modules / sizeof *modules];
	static void *ops[sizeof modules / sizeof *modules];
	size_t i;

	for (i = 0; i < sizeof modules / sizeof *modules; i++) {
		if (modules[i].linked && modules[i].linked->info == e)
			return modules[i].linked;
		if (modules[i].linked || strcmp(modules[i].type, e->type))
			continue;
		return open_module(&opened[i], &ops[i], e);
	}
	return NULL;
}

#endif
