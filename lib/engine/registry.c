/*
 * registry.c - every engine phys has. Adding an engine is a module
 * (engine_impl.h) and a line here; nothing else names one.
 */
#include "engine.h"

#include <string.h>

#include "paramio.h"

extern const struct phys_engine_info phys_engine_ode, phys_engine_bullet,
    phys_engine_simbody;

const struct phys_engine_info *const phys_engines[] = {
	&phys_engine_ode,
	&phys_engine_bullet,
	&phys_engine_simbody,
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

void
phys_engine_put_support(struct phys_buf *b, const struct phys_param *p)
{
	size_t i;

	for (i = 0; phys_engines[i]; i++) {
		phys_buf_printf(b, ",\"%s\":", phys_engines[i]->type);
		phys_buf_json_string(b,
		    phys_support_name(phys_engines[i]->support(p)));
	}
}
