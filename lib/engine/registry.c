/*
 * registry.c - every engine phys has. Adding an engine is a module
 * (engine_impl.h) and a line here; nothing else names one.
 */
#include "engine.h"

#include <stdbool.h>
#include <string.h>

#include "mem.h"

#include "paramio.h"

extern const struct phys_engine_info phys_engine_ode, phys_engine_bullet,
    phys_engine_mujoco, phys_engine_simbody, phys_engine_dart;

const struct phys_engine_info *const phys_engines[] = {
	&phys_engine_ode,
	&phys_engine_bullet,
	&phys_engine_mujoco,
	&phys_engine_simbody,
	&phys_engine_dart,
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

/*
 * A gz-sim profile runs the engine its physics plugin names where phys
 * has it, else gz-sim's default, DART, else ODE (phys's engine while it
 * has no DART).
 */
const struct phys_engine_info *
phys_profile_engine(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_engine_find(p->type);

	if (e || !p->gz_placeholder)
		return e;
	if (p->gz_engine && (e = phys_engine_find(p->gz_engine)))
		return e;
	if ((e = phys_engine_find("dart")))
		return e;
	return phys_engine_find("ode");
}

void
phys_world_engines(struct phys_world *w)
{
	const struct phys_engine_info *e;
	size_t i;

	for (i = 0; i < w->nprofiles; i++)
		if (w->profiles[i].gz_placeholder &&
		    (e = phys_profile_engine(&w->profiles[i])))
			w->profiles[i].engine = e->type;
}

char *
phys_profile_engine_note(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_profile_engine(p);
	bool named = p->gz_engine && phys_engine_find(p->gz_engine) == e;

	if (!p->gz_placeholder || !e)
		return NULL;
	if (named)
		return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no "
		    "type; it runs the engine its physics plugin names (%s): "
		    "running %s", p->type, p->gz_plugin, e->name);
	if (p->gz_plugin)
		return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no "
		    "type; its physics plugin names %s, which phys does not "
		    "have: running %s%s", p->type, p->gz_plugin, e->name,
		    strcmp(e->type, "dart") == 0 ? ", gz-sim's default" :
		    " (gz-sim's default, DART, is not in phys)");
	return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no type "
	    "and, with no physics plugin naming an engine, runs DART: "
	    "running %s%s", p->type, e->name, strcmp(e->type, "dart") == 0 ?
	    "" : " (phys has no DART)");
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
