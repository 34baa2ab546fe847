/*
 * mjcflater.c - MJCF written for a MuJoCo after 2.2.2, as phys reads it.
 * Before a model is read, each element and attribute is looked up in
 * 2.2.2's schema (mjcf_schema.def). One the schema lacks is read where
 * phys reads it (a position servo's kv, a joint's actuatorfrcrange, a
 * body's gravcomp: mjcf.c), noted where it changes only how the model
 * looks or how MuJoCo searches for contacts, and refused at its line
 * otherwise: passed over, it would leave the model moving otherwise than
 * its file says, as an unknown <frame> once dropped the bodies it held
 * (a frame is now read too).
 */
#include <string.h>

#include "mjcf_schema.h"
#include "mjcflater.h"
#include "mjcfint.h"
#include "names.h"

/*
 * Elements of no schema that mjcf.c itself answers (refused, or an
 * actuator it does not read, said), and those it reads nothing of, whose
 * content is not looked at: what a sensor measures, how the model looks.
 */
static const char *const answered[] = { "flexcomp", "plugin", "extension",
	"damper", NULL };
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

/* Attribute name of element n, which the schema has or not (known), as
 * phys_mjcf_verdict judges it: 0, or -1 where phys refuses it; what is
 * only said, into acc. */
static int
vet_attr(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *e,
    const char *name, bool known, struct phys_mjcf_noted *acc, int *nacc)
{
	const struct phys_mjcf_later *l = phys_mjcf_later(e, name);
	const char *v = l && l->how == PHYS_MJ_LATER_AT ? own_attr(n, name) :
	    NULL;

	switch (phys_mjcf_verdict(l, known, v)) {
	case PHYS_MJ_UNKNOWN:
		return unknown_attr(r, n, e, name);
	case PHYS_MJ_NOTED:
		if (phys_mjcf_note(acc, nacc, name, known,
		    phys_mjcf_later_text(l)))
			return 0;
		return mj_notef(r, n, "<%s %s>: %s, %s", e->name, name, known ?
		    "MuJoCo's" : "a later MuJoCo's", phys_mjcf_later_text(l));
	case PHYS_MJ_REFUSED:
		return mj_fail(r, n, "<%s %s=\"%s\">: %s; phys moves the model "
		    "as with %s=\"%s\": phys refuses the model", e->name, name,
		    v ? v : "", known ? "not read" : "a later MuJoCo's, not "
		    "2.2.2's", name, l->value);
	default:
		return 0;
	}
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

static int vet(struct reader *r, xmlNodePtr n,
    const struct phys_mjcf_elem *parent);

/*
 * A later MuJoCo's <frame> or <replicate> in a body or the world body (or
 * in one of them): a pose and a childclass for what it holds, or copies
 * of it, which may sit where it does (mjcf.c reads them).
 */
static int
vet_meta(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *parent)
{
	const char *meta = (const char *)n->name;
	xmlAttrPtr p;
	xmlNodePtr c;

	for (p = n->properties; p; p = p->next)
		if (!p->ns && !phys_mjcf_meta_attr(meta, (const char *)
		    p->name))
			return mj_fail(r, n, "unknown attribute '%s' of "
			    "<%s>: phys refuses the model", p->name, meta);
	for (c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && vet(r, c, parent) < 0)
			return -1;
	return 0;
}

static int
vet(struct reader *r, xmlNodePtr n, const struct phys_mjcf_elem *parent)
{
	const struct phys_mjcf_elem *e;
	struct phys_mjcf_noted acc[PHYS_MJCF_MAX_NOTED];
	xmlAttrPtr p;
	xmlNodePtr c;
	int i, nacc = 0;

	if (n->ns || phys_node_is(n, "include"))
		return 0;
	if (phys_mjcf_meta_in(parent, (const char *)n->name))
		return vet_meta(r, n, parent);
	if (!(e = parent ? phys_mjcf_child(parent, (const char *)n->name) :
	    phys_mjcf_root()))
		return unknown_element(r, n, parent);
	if (listed(unread, e->name) || e->free)
		return 0;
	for (p = n->properties; p; p = p->next)
		if (!p->ns && vet_attr(r, n, e, (const char *)p->name,
		    phys_mjcf_attr(e, (const char *)p->name) != NULL, acc,
		    &nacc) < 0)
			return -1;
	for (i = 0; i < nacc; i++)
		mj_notef(r, n, "<%s %s>: %s, %s", e->name, acc[i].names,
		    acc[i].known ? "MuJoCo's" : "a later MuJoCo's",
		    acc[i].text);
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
