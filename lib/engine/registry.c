/*
 * registry.c - every engine phys has: the modules lib/table/engines.def
 * names. Adding an engine is a module (engine_impl.h) and a line there;
 * the parameters' engine bits, this list, the engine gz-sim's physics
 * plugin names and every list of engines phys prints follow from them.
 */
#include "engine.h"

#include <stdbool.h>
#include <string.h>

#include "mem.h"

#include "paramio.h"

const struct phys_engine_info *const phys_engines[] = {
#define PHYS_E(type, bit_name, bit, gz) &phys_engine_##type,
#include "engines.def"
#undef PHYS_E
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

/* What gz-sim runs for p: the engine its plugin names (*named) where
 * phys has it, else its default, DART. */
static const struct phys_engine_info *
gz_sim_engine(const struct phys_profile *p, bool *named)
{
	const char *type = phys_profile_gz_type(p);
	const struct phys_engine_info *e = type ? phys_engine_find(type) :
	    NULL;

	*named = p->gz_plugin && e;
	return e ? e : phys_engine_find("dart");
}

/* A gz-sim profile runs what gz-sim runs (gz_sim_engine). */
const struct phys_engine_info *
phys_profile_engine(const struct phys_profile *p)
{
	bool named;

	return p->gz_placeholder ? gz_sim_engine(p, &named) :
	    phys_engine_find(p->type);
}

void
phys_world_engines(struct phys_scene *w)
{
	const struct phys_engine_info *e;
	size_t i;

	for (i = 0; i < w->nprofiles; i++)
		if (w->profiles[i].gz_placeholder &&
		    (e = phys_profile_engine(&w->profiles[i])))
			w->profiles[i].engine = e->type;
}

/* A profile that writes an engine's type, in a world gz-sim runs on
 * another: said, as phys runs what is written. */
static char *
typed_note(const struct phys_profile *p, const struct phys_engine_info *e)
{
	bool named;
	const struct phys_engine_info *gz = gz_sim_engine(p, &named);

	if (p->gz_plugin && !named)
		return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no "
		    "type and runs the engine its physics plugin names (%s), "
		    "which phys does not have; phys runs %s as written",
		    p->type, p->gz_plugin, e->name);
	if (!gz || gz == e)
		return NULL;
	return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no type "
	    "and runs %s, %s; phys runs %s as written (-p %s runs %s)",
	    p->type, gz->name, named ? "as its physics plugin names" :
	    "its default", e->name, gz->type, gz->name);
}

char *
phys_profile_engine_note(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_profile_engine(p);
	bool named;
	char *what, *note;

	if (!e)
		return NULL;
	(void)gz_sim_engine(p, &named);
	if (!p->gz_placeholder)
		return p->gz_system && p->node ? typed_note(p, e) : NULL;
	what = p->node ? phys_xasprintf("<physics type=\"%s\">: gz-sim reads "
	    "no type and", p->type) : phys_xstrdup("no <physics>: gz-sim");
	if (named)
		note = phys_xasprintf("%s runs the engine its physics plugin "
		    "names (%s): running %s", what, p->gz_plugin, e->name);
	else if (p->gz_plugin)
		note = phys_xasprintf("%s runs the engine its physics plugin "
		    "names %s, which phys does not have: running %s, gz-sim's "
		    "default", what, p->gz_plugin, e->name);
	else
		note = phys_xasprintf("%s runs DART when no physics plugin "
		    "names an engine: running %s", what, e->name);
	free(what);
	return note;
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
