/*
 * mjcflater.c - MJCF written for a MuJoCo after 2.2.2, as phys reads it.
 * Before a model is read, each element and attribute is looked up in
 * 2.2.2's schema (mjcf_schema.def). One the schema lacks is read where
 * phys reads it (a position servo's kv, a joint's actuatorfrcrange, a
 * body's gravcomp: mjcf.c), noted where it changes only how the model
 * looks or how MuJoCo searches for contacts, and refused at its line
 * otherwise: passed over, it would leave the model moving otherwise than
 * its file says, as an unknown <frame> once dropped the bodies it held.
 */
#include <string.h>

#include "mjcf_schema.h"
#include "mjcflater.h"
#include "mjcfint.h"
#include "names.h"

enum later_how {
	LATER_READ,	/* mjcf.c reads it */
	LATER_LOOKS,	/* how the model looks: noted */
	LATER_SEARCH,	/* how MuJoCo finds or solves contacts: noted */
	LATER_ASIDE,	/* how MuJoCo runs (memory, threads): noted */
	LATER_AT	/* as 2.2.2 moves the model at value; else refused */
};

/* The later MuJoCos' attributes phys knows, by the schema's element id. */
static const struct later {
	const char *elem, *name;
	enum later_how how;
	const char *value;	/* LATER_AT: the value 2.2.2 moves as */
} later[] = {
	{ "position", "kv", LATER_READ, NULL },
	{ "position", "dampratio", LATER_READ, NULL },
	{ "position", "inheritrange", LATER_READ, NULL },
	{ "joint", "actuatorfrcrange", LATER_READ, NULL },
	{ "joint", "actuatorfrclimited", LATER_READ, NULL },
	{ "joint", "actuatorgravcomp", LATER_READ, NULL },
	{ "body", "gravcomp", LATER_READ, NULL },
	{ "hfield", "elevation", LATER_READ, NULL },	/* refused at its geom */
	{ "material", "metallic", LATER_LOOKS, NULL },
	{ "material", "roughness", LATER_LOOKS, NULL },
	{ "texture", "colorspace", LATER_LOOKS, NULL },
	{ "texture", "nchannel", LATER_LOOKS, NULL },
	{ "texture", "content_type", LATER_LOOKS, NULL },
	{ "light", "type", LATER_LOOKS, NULL },
	{ "light", "intensity", LATER_LOOKS, NULL },
	{ "light", "range", LATER_LOOKS, NULL },
	{ "light", "bulbradius", LATER_LOOKS, NULL },
	{ "light", "texture", LATER_LOOKS, NULL },
	{ "camera", "sensorsize", LATER_LOOKS, NULL },
	{ "camera", "resolution", LATER_LOOKS, NULL },
	{ "camera", "focal", LATER_LOOKS, NULL },
	{ "camera", "focalpixel", LATER_LOOKS, NULL },
	{ "camera", "principal", LATER_LOOKS, NULL },
	{ "camera", "principalpixel", LATER_LOOKS, NULL },
	{ "camera", "orthographic", LATER_LOOKS, NULL },
	{ "camera", "output", LATER_LOOKS, NULL },
	{ "light", "softness", LATER_LOOKS, NULL },
	{ "compiler", "usethread", LATER_ASIDE, NULL },
	{ "compiler", "saveinertial", LATER_ASIDE, NULL },
	{ "size", "memory", LATER_ASIDE, NULL },
	{ "option", "sleep_tolerance", LATER_ASIDE, NULL },
	{ "compiler", "alignfree", LATER_AT, "false" },
	{ "option", "ccd_iterations", LATER_SEARCH, NULL },
	{ "option", "ccd_tolerance", LATER_SEARCH, NULL },
	{ "option", "sdf_iterations", LATER_SEARCH, NULL },
	{ "option", "sdf_initpoints", LATER_SEARCH, NULL },
	{ "mesh", "maxhullvert", LATER_SEARCH, NULL },
	{ "flag", "nativeccd", LATER_SEARCH, NULL },
	{ "flag", "midphase", LATER_SEARCH, NULL },
	{ "flag", "island", LATER_SEARCH, NULL },
	{ "flag", "autoreset", LATER_SEARCH, NULL },
	{ "flag", "eulerdamp", LATER_AT, "enable" },
	{ "flag", "multiccd", LATER_AT, "disable" },
	{ "flag", "invdiscrete", LATER_AT, "disable" },
	{ "flag", "sleep", LATER_AT, "disable" },
};

/*
 * Elements of no schema that mjcf.c itself answers (refused, or an
 * actuator it does not read, said), and those it reads nothing of, whose
 * content is not looked at: what a sensor measures, how the model looks.
 */
static const char *const answered[] = { "flexcomp", "replicate", "plugin",
	"extension", "damper", NULL };
static const char *const unread[] = { "sensor", "visual", "statistic",
	"custom", NULL };

static bool
listed(const char *const *list, const char *name)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static const struct later *
later_of(const struct phys_mjcf_elem *e, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof later / sizeof *later; i++)
		if (strcmp(later[i].elem, e->id) == 0 &&
		    strcmp(later[i].name, name) == 0)
			return &later[i];
	return NULL;
}

static int
unknown_attr(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *e,
    const char *name)
{
	struct phys_close c = phys_mjcf_attr_close(e, name);
	char hint[256];

	return mj_fail(r, n, "unknown attribute '%s' of <%s>: neither "
	    "MuJoCo 2.2.2's nor a later MuJoCo's that phys reads, and "
	    "passed over it could change how the model moves: phys refuses "
	    "the model%s", name, e->name, phys_close_text(&c, false, hint,
	    sizeof hint));
}

static int
vet_attr(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *e,
    const char *name)
{
	const struct later *l = later_of(e, name);
	const char *v = own_attr(n, name);

	if (!l)
		return unknown_attr(r, n, e, name);
	switch (l->how) {
	case LATER_READ:
		return 0;
	case LATER_LOOKS:
		return mj_notef(r, n, "<%s %s>: a later MuJoCo's, for "
		    "how the model looks: not read", e->name, name);
	case LATER_ASIDE:
		return mj_notef(r, n, "<%s %s>: a later MuJoCo's, for how it "
		    "runs, not for how the model moves: not read", e->name,
		    name);
	case LATER_SEARCH:
		return mj_notef(r, n, "<%s %s>: a later MuJoCo's, for "
		    "how it finds contacts: not read (each engine finds "
		    "them its own way)", e->name, name);
	case LATER_AT:
		if (v && strcmp(v, l->value) == 0)
			return 0;
		return mj_fail(r, n, "<%s %s=\"%s\">: a later MuJoCo's; phys "
		    "moves the model as MuJoCo 2.2.2 does, as with %s=\"%s\": "
		    "phys refuses the model", e->name, name, v ? v : "",
		    name, l->value);
	}
	return 0;
}

static int
unknown_element(struct reader *r, xmlNodePtr n,
    const struct phys_mjcf_elem *parent)
{
	const char *name = (const char *)n->name;

	if (listed(answered, name))
		return 0;
	if (phys_mjcf_known(name))
		return mj_fail(r, n, "<%s> cannot sit in <%s>: phys refuses "
		    "the model", name, parent->name);
	return mj_fail(r, n, "unknown element <%s> in <%s>: neither MuJoCo "
	    "2.2.2's nor a later MuJoCo's that phys reads, and passed over, "
	    "what it holds or sets would be lost: phys refuses the model",
	    name, parent->name);
}

static int
vet(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *parent)
{
	const struct phys_mjcf_elem *e;
	xmlAttrPtr p;
	xmlNodePtr c;

	if (n->ns || phys_node_is(n, "include"))
		return 0;
	if (!(e = parent ? phys_mjcf_child(parent, (const char *)n->name) :
	    phys_mjcf_root()))
		return unknown_element(r, n, parent);
	if (listed(unread, e->name) || e->free)
		return 0;
	for (p = n->properties; p; p = p->next)
		if (!p->ns && !phys_mjcf_attr(e, (const char *)p->name) &&
		    vet_attr(r, n, e, (const char *)p->name) < 0)
			return -1;
	for (c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && vet(r, c, e) < 0)
			return -1;
	return 0;
}

int
phys_mjcf_vet(struct reader *r, xmlNodePtr root)
{
	return vet(r, root, NULL);
}
