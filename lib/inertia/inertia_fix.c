/* inertia_fix.c - each link's inertia from its collision geometry. */
#include "inertia_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inertia.h"
#include "inertia_world.h"
#include "paramio.h"
#include "sdfedit.h"

/* Links the globs name; without globs, those of models that move. Each
 * glob that names one is counted in hits. */
static bool
selected(const struct phys_scene *w, int li, const struct phys_inertia_fix *o,
    size_t *hits)
{
	bool any = false;
	size_t k;

	if (o->nglobs == 0)
		return !w->models[w->links[li].model].is_static;
	for (k = 0; k < o->nglobs; k++)
		if (phys_glob(o->globs[k], w->links[li].name)) {
			hits[k]++;
			any = true;
		}
	return any;
}

/*
 * v to the digits it needs: a sum of shapes' moments, moved by the
 * parallel axes, is exact to 14 digits, and what follows is arithmetic's
 * (a 0.2 m cube of 1000 kg/m^3 weighs 8, not 8.000000000000002); what is
 * below scale times 1e-12 (an off-diagonal of a symmetric body, a centre
 * on an axis) is 0.
 */
static double
tidy(double v, double scale)
{
	char text[32];

	if (!(fabs(v) > scale * 1e-12))
		return 0;
	snprintf(text, sizeof text, "%.14g", v);
	return strtod(text, NULL);
}

/* The inertial's own parameters, and how a report names them. */
static const struct {
	enum phys_param_id id;
	const char *name;
} inertial[] = {
	{ PHYS_P_LINK_inertial_mass, "mass" },
	{ PHYS_P_LINK_inertial_pose, "pose" },
	{ PHYS_P_LINK_inertial_inertia_ixx, "ixx" },
	{ PHYS_P_LINK_inertial_inertia_ixy, "ixy" },
	{ PHYS_P_LINK_inertial_inertia_ixz, "ixz" },
	{ PHYS_P_LINK_inertial_inertia_iyy, "iyy" },
	{ PHYS_P_LINK_inertial_inertia_iyz, "iyz" },
	{ PHYS_P_LINK_inertial_inertia_izz, "izz" },
};

/* The value of inertial[k] in in, tidied. */
static void
new_value(const phys_inertia *in, size_t k, struct phys_value *v)
{
	const double t[6] = { in->I.m[0][0], in->I.m[0][1], in->I.m[0][2],
		in->I.m[1][1], in->I.m[1][2], in->I.m[2][2] };
	double moments = fmax(fabs(t[0]), fmax(fabs(t[3]), fabs(t[5]))), len;
	size_t i;

	memset(v, 0, sizeof *v);
	if (k == 0) {
		v->u.d = tidy(in->mass, fabs(in->mass));
	} else if (k == 1) {
		/* a length of the body: sqrt(I / m) */
		len = in->mass > 0 ? sqrt(moments / in->mass) : 1;
		for (i = 0; i < 3; i++)
			v->u.pose[i] = tidy(in->pose[i], len);
		for (i = 3; i < 6; i++)
			v->u.pose[i] = tidy(in->pose[i], 1);
	} else {
		v->u.d = tidy(t[k - 2], moments);
	}
}

/*
 * Record the edits that give link li the inertia in, and say what they
 * change on stderr: the link, each value before and after.
 */
static int
write_inertial(struct phys_scene *w, int li, const phys_inertia *in)
{
	struct phys_ref r = { NULL, PHYS_S_LINK, li };
	struct phys_buf said = { 0 };
	const struct phys_value *old;
	struct phys_value v;
	xmlNodePtr at;
	size_t k;
	int rc = 0;

	for (k = 0; k < sizeof inertial / sizeof *inertial && rc == 0; k++) {
		r.p = &phys_params[inertial[k].id];
		new_value(in, k, &v);
		old = phys_ref_value(w, &r);
		/* Only what changes: an absent element stays absent when its
		 * default is already right. */
		if (phys_value_equal(r.p, &v, old))
			continue;
		phys_buf_printf(&said, "%s%s ", said.len ? ", " : "",
		    inertial[k].name);
		phys_value_sdf(r.p, old, &said);
		phys_buf_puts(&said, " -> ");
		phys_value_sdf(r.p, &v, &said);
		rc = phys_world_edit(w, &r, &v);
	}
	if (rc == 0 && said.len) {
		at = phys_child(w->links[li].node, "inertial");
		phys_warnat(PHYS_AT(w->links[li].doc, at ? at :
		    w->links[li].node), "%s: %s", w->links[li].name, said.s);
	}
	phys_buf_free(&said);
	return rc;
}

/*
 * SDF 1.11's automatic inertia in place of numbers: auto="true", the
 * computed elements (pose, tensor; mass unless kept) removed, and the
 * density written when one was given.
 */
static int
write_auto(struct phys_scene *w, int li, double density, bool keep)
{
	struct phys_doc *d = w->links[li].doc;
	xmlNodePtr in = phys_child(w->links[li].node, "inertial"), e;
	char num[64], *text;
	int rc;

	if (!in)
		return phys_doc_append_child(d, w->links[li].node,
		    "<inertial auto=\"true\"/>") < 0 ? -1 :
		    (density > 0 ? write_auto(w, li, density, keep) : 0);
	if (phys_doc_set_attr(d, in, "auto", "true") < 0)
		return -1;
	if ((e = phys_child(in, "pose")) && phys_doc_remove(d, e) < 0)
		return -1;
	if ((e = phys_child(in, "inertia")) && phys_doc_remove(d, e) < 0)
		return -1;
	if (!keep && (e = phys_child(in, "mass")) && phys_doc_remove(d, e) < 0)
		return -1;
	if (!(density > 0))
		return 0;
	if ((e = phys_child(in, "density")) && phys_doc_remove(d, e) < 0)
		return -1;
	phys_fmt_double(num, sizeof num, density);
	text = phys_xasprintf("<density>%s</density>", num);
	rc = phys_doc_append_child(d, in, text);
	free(text);
	return rc;
}

/* Where link li is written. */
#define LINK_AT(w, li)	PHYS_AT((w)->links[li].doc, (w)->links[li].node)

static int
fix_link(struct phys_scene *w, int li, double density, bool keep,
    bool automatic, bool density_given)
{
	phys_inertia in;
	int n;

	/* The loader computed an automatic link's inertia: nothing to fix. */
	if (phys_link_auto_inertial(&w->links[li]) && !automatic)
		return 0;
	if (automatic && w->links[li].doc == &w->doc)
		phys_warnat(PHYS_AT(&w->doc, w->links[li].node),
		    "%s: inertial made automatic", w->links[li].name);
	n = phys_link_geometry_inertia(w, li, keep ? 0 : density,
	    PVD(w->links[li].vals, LINK_inertial_mass), &in);
	if (n < 0) {	/* this link only: the others are still fixed */
		phys_warn("%s: left as it is: %s", w->links[li].name,
		    phys_error());
		return 1;
	}
	if (n == 0) {
		phys_warnat(LINK_AT(w, li), "link '%s' has no collision "
		    "geometry to compute from; left as it is",
		    w->links[li].name);
		return 0;
	}
	if (!phys_world_editable(w, PHYS_S_LINK, li)) {
		phys_warn("link '%s' is in the included file %s; left as it "
		    "is", w->links[li].name, phys_node_file(w->links[li].doc,
		    w->links[li].node));
		return 0;
	}
	if (automatic && w->model_doc)
		return phys_fail("%s: %s has no automatic inertia; give "
		    "--density or --keep-mass instead of --auto", w->doc.name,
		    w->doc.kind == PHYS_DOC_MJCF ? "an MJCF body" : "URDF");
	if ((automatic ? write_auto(w, li, density_given ? density : 0,
	    keep) : write_inertial(w, li, &in)) < 0) {
		/* an edit the file refuses (a URDF link holding links lumped
		 * into it) costs this link, not the others */
		phys_warn("%s: left as it is: %s", w->links[li].name,
		    phys_error());
		return 1;
	}
	return 0;
}

/* Whether the link's inertia is one a body can have. */
static bool
valid(const struct phys_scene *w, int li)
{
	phys_inertia in;

	phys_link_inertia(&w->links[li], &in);
	return phys_inertia_validate(&in, NULL) == PHYS_INERTIA_VALID;
}

int
phys_inertia_fix_world(struct phys_scene *w, const struct phys_inertia_fix *o)
{
	size_t i, *hits = phys_xcalloc(o->nglobs + 1, sizeof *hits);
	int rc = 0, left = 0;

	for (i = 0; i < w->nlinks && rc >= 0; i++)
		if (selected(w, (int)i, o, hits) &&
		    (o->all || !valid(w, (int)i)) &&
		    (rc = fix_link(w, (int)i, o->density, o->keep_mass,
		    o->automatic, o->density_given)) > 0)
			left++;
	if (rc > 0)
		rc = 0;
	/* A pattern matching nothing is bad input, as in every command. */
	for (i = 0; rc == 0 && i < o->nglobs; i++)
		if (hits[i] == 0)
			rc = phys_fail("no link matches '%s' (phys-inertia "
			    "check lists them)", o->globs[i]);
	free(hits);
	return rc < 0 ? rc : left;
}
