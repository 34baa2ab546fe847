/*
 * mjcf_schema.c - the MJCF schema table, expanded from mjcf_schema.def,
 * and its look-ups.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

#include "mjcf_schema.h"

#define S PHYS_MJ_STRING
#define R PHYS_MJ_REAL
#define I PHYS_MJ_INT
#define B PHYS_MJ_BOOL
#define K PHYS_MJ_KEYWORD

#define MJ_E(ID, NAME, PARENTS, FREE) { #ID, NAME, PARENTS, FREE },
#define MJ_A(ID, NAME, TYPE, MIN, MAX, VALUES)
const struct phys_mjcf_elem phys_mjcf_elems[] = {
#include "mjcf_schema.def"
};
#undef MJ_E
#undef MJ_A

/* Each element's index, which its attributes carry. */
#define MJ_E(ID, NAME, PARENTS, FREE) ELEM_##ID,
#define MJ_A(ID, NAME, TYPE, MIN, MAX, VALUES)
enum {
#include "mjcf_schema.def"
};
#undef MJ_E
#undef MJ_A

/* An element's attributes follow it in mjcf_schema.def, so that the
 * table is in element order, each element's attributes together. */
#define MJ_E(ID, NAME, PARENTS, FREE)
#define MJ_A(ID, NAME, TYPE, MIN, MAX, VALUES) \
	{ #ID, ELEM_##ID, NAME, TYPE, MIN, MAX, VALUES },
const struct phys_mjcf_attr phys_mjcf_attrs[] = {
#include "mjcf_schema.def"
};
#undef MJ_E
#undef MJ_A

#undef S
#undef R
#undef I
#undef B
#undef K

const size_t phys_mjcf_nelems = sizeof phys_mjcf_elems /
    sizeof *phys_mjcf_elems;
const size_t phys_mjcf_nattrs = sizeof phys_mjcf_attrs /
    sizeof *phys_mjcf_attrs;

const struct phys_mjcf_elem *
phys_mjcf_root(void)
{
	return &phys_mjcf_elems[0];
}

/* Is word one of the blank-separated words of list? */
static bool
listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

const struct phys_mjcf_elem *
phys_mjcf_child(const struct phys_mjcf_elem *parent, const char *name)
{
	size_t i;

	for (i = 0; i < phys_mjcf_nelems; i++) {
		const struct phys_mjcf_elem *e = &phys_mjcf_elems[i];

		/* asked of every element a model has: the first letter
		 * first */
		if (e->name[0] == name[0] && strcmp(e->name, name) == 0 &&
		    (strcmp(e->parents, "*") == 0 || listed(e->parents,
		    parent->id)))
			return e;
	}
	return NULL;
}

bool
phys_mjcf_known(const char *name)
{
	size_t i;

	for (i = 0; i < phys_mjcf_nelems; i++)
		if (strcmp(phys_mjcf_elems[i].name, name) == 0)
			return true;
	return false;
}

const struct phys_mjcf_attr *
phys_mjcf_attr(const struct phys_mjcf_elem *e, const char *name)
{
	size_t ei = (size_t)(e - phys_mjcf_elems), lo = 0, mid;
	size_t hi = phys_mjcf_nattrs;

	/* the element's first attribute, by halves (the table is in
	 * element order), then its others in turn */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (phys_mjcf_attrs[mid].elem_index < ei)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < phys_mjcf_nattrs && phys_mjcf_attrs[lo].elem_index == ei;
	    lo++)
		if (phys_mjcf_attrs[lo].name[0] == name[0] &&
		    strcmp(phys_mjcf_attrs[lo].name, name) == 0)
			return &phys_mjcf_attrs[lo];
	return NULL;
}

struct phys_close
phys_mjcf_attr_close(const struct phys_mjcf_elem *e, const char *name)
{
	struct phys_close c = { { NULL }, { 0 }, 0 };
	size_t i;

	for (i = 0; i < phys_mjcf_nattrs; i++)
		if (strcmp(phys_mjcf_attrs[i].elem, e->id) == 0)
			phys_close_consider(&c, name, phys_mjcf_attrs[i].name);
	return c;
}

bool
phys_mjcf_no_range(const double range[2])
{
	return range[0] == 0 && range[1] == 0;
}

const char *
phys_mjcf_later_value(const char *attr, const char *v)
{
	static const struct {
		const char *attr, *value, *reading;
	} values[] = {
		{ "integrator", "implicitfast", "MuJoCo 2.3's, not 2.2.2's: "
		    "phys reads it as implicit" },
		{ "dyntype", "filterexact", "a later MuJoCo's, not 2.2.2's: "
		    "phys reads it, the filter taken exactly over each step" },
	};
	size_t i;

	for (i = 0; v && i < sizeof values / sizeof *values; i++)
		if (strcmp(values[i].attr, attr) == 0 &&
		    strcmp(values[i].value, v) == 0)
			return values[i].reading;
	return NULL;
}

bool
phys_mjcf_keyword(const char *values, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	if (!n)
		return false;
	for (p = values; (p = strstr(p, word)) != NULL; p += n)
		if ((p == values || p[-1] == '|') && (p[n] == '|' || !p[n]))
			return true;
	return false;
}

/* What phys makes of what a later MuJoCo added, by the element's id. */
static const struct phys_mjcf_later later[] = {
	{ "position", "kv", PHYS_MJ_LATER_READ, NULL },
	{ "position", "dampratio", PHYS_MJ_LATER_READ, NULL },
	{ "position", "inheritrange", PHYS_MJ_LATER_READ, NULL },
	{ "joint", "actuatorfrcrange", PHYS_MJ_LATER_READ, NULL },
	{ "joint", "actuatorfrclimited", PHYS_MJ_LATER_READ, NULL },
	{ "joint", "actuatorgravcomp", PHYS_MJ_LATER_READ, NULL },
	{ "body", "gravcomp", PHYS_MJ_LATER_READ, NULL },
	/* read to be refused at its geom */
	{ "hfield", "elevation", PHYS_MJ_LATER_READ, NULL },
	{ "material", "metallic", PHYS_MJ_LATER_LOOKS, NULL },
	{ "material", "roughness", PHYS_MJ_LATER_LOOKS, NULL },
	{ "texture", "colorspace", PHYS_MJ_LATER_LOOKS, NULL },
	{ "texture", "nchannel", PHYS_MJ_LATER_LOOKS, NULL },
	{ "texture", "content_type", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "type", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "intensity", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "range", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "bulbradius", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "texture", PHYS_MJ_LATER_LOOKS, NULL },
	{ "light", "softness", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "sensorsize", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "resolution", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "focal", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "focalpixel", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "principal", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "principalpixel", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "orthographic", PHYS_MJ_LATER_LOOKS, NULL },
	{ "camera", "output", PHYS_MJ_LATER_LOOKS, NULL },
	{ "compiler", "usethread", PHYS_MJ_LATER_ASIDE, NULL },
	{ "compiler", "saveinertial", PHYS_MJ_LATER_ASIDE, NULL },
	{ "size", "memory", PHYS_MJ_LATER_ASIDE, NULL },
	{ "option", "sleep_tolerance", PHYS_MJ_LATER_ASIDE, NULL },
	{ "compiler", "alignfree", PHYS_MJ_LATER_AT, "false" },
	{ "option", "ccd_iterations", PHYS_MJ_LATER_SEARCH, NULL },
	{ "option", "ccd_tolerance", PHYS_MJ_LATER_SEARCH, NULL },
	{ "option", "sdf_iterations", PHYS_MJ_LATER_SEARCH, NULL },
	{ "option", "sdf_initpoints", PHYS_MJ_LATER_SEARCH, NULL },
	{ "mesh", "maxhullvert", PHYS_MJ_LATER_SEARCH, NULL },
	{ "flag", "nativeccd", PHYS_MJ_LATER_SEARCH, NULL },
	{ "flag", "midphase", PHYS_MJ_LATER_SEARCH, NULL },
	{ "flag", "island", PHYS_MJ_LATER_ASIDE, NULL },
	{ "flag", "autoreset", PHYS_MJ_LATER_ASIDE, NULL },
	{ "flag", "eulerdamp", PHYS_MJ_LATER_READ, NULL },
	{ "flag", "invdiscrete", PHYS_MJ_LATER_AT, "disable" },
	{ "flag", "sleep", PHYS_MJ_LATER_AT, "disable" },
	{ "option", "jacobian", PHYS_MJ_LATER_ASIDE, NULL },
	{ "option", "ls_iterations", PHYS_MJ_LATER_ASIDE, NULL },
	{ "option", "ls_tolerance", PHYS_MJ_LATER_ASIDE, NULL },
	{ "mesh", "inertia", PHYS_MJ_LATER_READ, NULL },
	{ "geom", "shellinertia", PHYS_MJ_LATER_READ, NULL },
	/* MuJoCo 2.2.2's own, which phys leaves aside */
	{ "weld", "torquescale", PHYS_MJ_LATER_AT, "1" },
	{ "option", "mpr_iterations", PHYS_MJ_LATER_SEARCH, NULL },
	{ "option", "mpr_tolerance", PHYS_MJ_LATER_SEARCH, NULL },
	{ "compiler", "convexhull", PHYS_MJ_LATER_SEARCH, NULL },
};

const struct phys_mjcf_later *
phys_mjcf_later(const struct phys_mjcf_elem *e, const char *name)
{
	size_t i;

	/* asked of every attribute a model has: the first letter first */
	for (i = 0; i < sizeof later / sizeof *later; i++)
		if (later[i].name[0] == name[0] &&
		    strcmp(later[i].name, name) == 0 &&
		    strcmp(later[i].elem, e->id) == 0)
			return &later[i];
	return NULL;
}

bool
phys_mjcf_later_at(const struct phys_mjcf_later *l, const char *v)
{
	const char *p = v, *q = l->value;
	char *e1, *e2;

	if (!v)
		return false;
	if (strcmp(v, l->value) == 0)
		return true;
	/* numbers: equal one by one, as many of each */
	for (;;) {
		double a = strtod(p, &e1), b = strtod(q, &e2);

		if (e1 == p || e2 == q)
			break;
		if (a != b)
			return false;
		p = e1;
		q = e2;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	while (*q == ' ')
		q++;
	return p != v && !*p && !*q;
}

enum phys_mjcf_verdict
phys_mjcf_verdict(const struct phys_mjcf_later *l, bool known, const char *v)
{
	if (!l)
		return known ? PHYS_MJ_PLAIN : PHYS_MJ_UNKNOWN;
	switch (l->how) {
	case PHYS_MJ_LATER_READ:
		return PHYS_MJ_READ;
	case PHYS_MJ_LATER_AT:
		return !phys_mjcf_later_at(l, v) ? PHYS_MJ_REFUSED : known ?
		    PHYS_MJ_PLAIN : PHYS_MJ_READ;
	default:
		return PHYS_MJ_NOTED;
	}
}

/* A later MuJoCo's elements of the body tree, and their attributes. */
static const struct {
	const char *name;
	const char *attrs[9];
} metas[] = {
	{ "frame", { "name", "childclass", "pos", "quat", "axisangle",
	    "xyaxes", "zaxis", "euler", NULL } },
	{ "replicate", { "count", "sep", "offset", "euler", "childclass",
	    NULL } },
};

static int
meta_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof metas / sizeof *metas; i++)
		if (strcmp(metas[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool
phys_mjcf_meta_in(const struct phys_mjcf_elem *parent, const char *name)
{
	return meta_of(name) >= 0 && parent && (strcmp(parent->id,
	    "body") == 0 || strcmp(parent->id, "worldbody") == 0);
}

bool
phys_mjcf_meta_attr(const char *meta, const char *name)
{
	int m = meta_of(meta);
	size_t i;

	for (i = 0; m >= 0 && metas[m].attrs[i]; i++)
		if (strcmp(metas[m].attrs[i], name) == 0)
			return true;
	return false;
}

bool
phys_mjcf_note(struct phys_mjcf_noted *acc, int *nacc, const char *name,
    bool known, const char *text)
{
	struct phys_mjcf_noted *a;
	size_t len;
	int i;

	for (i = 0; i < *nacc; i++)
		if (acc[i].known == known && strcmp(acc[i].text, text) == 0)
			break;
	if (i == PHYS_MJCF_MAX_NOTED)
		return false;
	if (i == *nacc)
		acc[(*nacc)++] = (struct phys_mjcf_noted){ text, known, "" };
	a = &acc[i];
	len = strlen(a->names);
	if (len + strlen(name) + 3 > sizeof a->names)
		return false;
	snprintf(a->names + len, sizeof a->names - len, "%s%s",
	    len ? ", " : "", name);
	return true;
}

const char *
phys_mjcf_later_text(const struct phys_mjcf_later *l)
{
	switch (l->how) {
	case PHYS_MJ_LATER_READ:
		return "which MuJoCo 2.2.2 refuses: phys reads it";
	case PHYS_MJ_LATER_LOOKS:
		return "for how the model looks: not read";
	case PHYS_MJ_LATER_SEARCH:
		return "for how it finds contacts: not read (each engine "
		    "finds them its own way)";
	case PHYS_MJ_LATER_ASIDE:
		return "for how it runs, not for how the model moves: not read";
	case PHYS_MJ_LATER_AT:
		break;
	}
	return "which MuJoCo 2.2.2 refuses: phys reads it at the value "
	    "2.2.2 moves the model as";
}
