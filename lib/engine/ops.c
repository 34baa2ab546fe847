/*
 * ops.c - each engine's operations, found from its description: the one
 * place that names every module's table, so that what makes or switches
 * an engine (the run layer) links every engine's library, and what only
 * describes engines (registry.c, the parameters' documentation) or
 * drives one it is given (engine.c) links none.
 */
#include "engine.h"

#include <stddef.h>

#include "engine_impl.h"

#define PHYS_E(type, bit_name, bit, gz) extern const struct phys_engine_ops \
    phys_engine_ops_##type;
#include "engines.def"
#undef PHYS_E

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
