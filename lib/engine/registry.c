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

#define PHYS_E(type, bit_name, bit) extern const struct phys_engine_info \
    phys_engine_##type;
#include "engines.def"
#undef PHYS_E

const struct phys_engine_info *const phys_engines[] = {
#define PHYS_E(type, bit_name, bit) &phys_engine_##type,
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

/* The engine a gz-sim physics plugin's file name names: the engine whose
 * gz_plugin its last part holds (a folder's name says nothing), or whose
 * type it is; NULL for one phys does not have (gz-physics-tpe-plugin). */
static const struct phys_engine_info *
gz_engine(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t i;

	base = base ? base + 1 : file;
	for (i = 0; phys_engines[i]; i++)
		if (phys_engines[i]->gz_plugin &&
		    strstr(base, phys_engines[i]->gz_plugin))
			return phys_engines[i];
	return phys_engine_find(file);
}

/*
 * A gz-sim profile runs the engine its physics plugin names where phys
 * has it, else gz-sim's default, DART.
 */
const struct phys_engine_info *
phys_profile_engine(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_engine_find(p->type);

	if (e || !p->gz_placeholder)
		return e;
	if (p->gz_plugin && (e = gz_engine(p->gz_plugin)))
		return e;
	return phys_engine_find("dart");
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

char *
phys_profile_engine_note(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_profile_engine(p);
	bool named = p->gz_plugin && gz_engine(p->gz_plugin) == e;

	if (!p->gz_placeholder || !e)
		return NULL;
	if (named)
		return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no "
		    "type; it runs the engine its physics plugin names (%s): "
		    "running %s", p->type, p->gz_plugin, e->name);
	if (p->gz_plugin)
		return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no "
		    "type; its physics plugin names %s, which phys does not "
		    "have: running %s, gz-sim's default", p->type,
		    p->gz_plugin, e->name);
	return phys_xasprintf("<physics type=\"%s\">: gz-sim reads no type "
	    "and, with no physics plugin naming an engine, runs DART: "
	    "running %s", p->type, e->name);
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
