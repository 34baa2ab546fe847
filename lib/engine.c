/* engine.c - the engines phys has, found by their <physics type>. */
#include "engine.h"

#include <string.h>

const struct phys_engine_info *const phys_engines[] = {
	&phys_engine_ode,
	NULL
};

const struct phys_engine_info *
phys_engine_find(const char *type)
{
	size_t i;

	for (i = 0; phys_engines[i]; i++)
		if (strcmp(phys_engines[i]->type, type) == 0)
			return phys_engines[i];
	return NULL;
}
