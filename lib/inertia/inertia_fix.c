/* inertia_fix.c - each link's inertia from its collision geometry. */
#include "inertia_check.h"

#include <stdlib.h>
#include <string.h>

#include "inertia.h"
#include "inertia_world.h"
#include "paramio.h"
#include "sdfedit.h"

/* Links the globs name; without globs, those of models that move. */
static bool
selected(const struct phys_world *w, int li, size_t n, char *const *globs)
{
	size_t k;

	if (n == 0)
		return !w->models[w->links[li].model].is_static;
	for (k = 0; k < n; k++)
		if (phys_glob(globs[k], w->links[li].name))
			return true;
	return false;
}

/* Record the edits that give link li the inertia in. */
static int
write_inertial(struct phys_world *w, int li, const phys_inertia *in)
{
	static const enum phys_param_id ids[] = { PHYS_P_LINK_inertial_mass,
		PHYS_P_LINK_inertial_pose, PHYS_P_LINK_inertial_inertia_ixx,
		PHYS_P_LINK_inertial_inertia_ixy, PHYS_P_LINK_inertial_inertia_ixz,
		PHYS_P_LINK_inertial_inertia_iyy, PHYS_P_LINK_inertial_inertia_iyz,
		PHYS_P_LINK_inertial_inertia_izz };
	const double t[6] = { in->I.m[0][0], in->I.m[0][1], in->I.m[0][2],
		in->I.m[1][1], in->I.m[1][2], in->I.m[2][2] };
	struct phys_ref r = { NULL, PHYS_S_LINK, li };
	struct phys_value v;
	size_t k;

	for (k = 0; k < sizeof ids / sizeof *ids; k++) {
		memset(&v, 0, sizeof v);
		r.p = &phys_params[ids[k]];
		if (k == 0)
			v.u.d = in->mass;
		else if (k == 1)
			memcpy(v.u.pose, in->pose, sizeof v.u.pose);
		else
			v.u.d = t[k - 2];
		/* Only what changes: an absent element stays absent when its
		 * default is already right. */
		if (phys_value_equal(r.p, &v, phys_ref_value(w, &r)))
			continue;
		if (phys_world_edit(w, &r, &v) < 0)
			return -1;
	}
	return 0;
}

/*
 * SDF 1.11's automatic inertia in place of numbers: auto="true", the
 * computed elements (pose, tensor; mass unless kept) removed, and the
 * density written when one was given.
 */
static int
write_auto(struct phys_world *w, int li, double density, bool keep)
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

static int
fix_link(struct phys_world *w, int li, double density, bool keep,
    bool automatic, bool density_given)
{
	phys_inertia in;
	int n;

	/* The loader computed an automatic link's inertia: nothing to fix. */
	if (phys_link_auto_inertial(&w->links[li]) && !automatic)
		return 0;
	n = phys_link_geometry_inertia(w, li, keep ? 0 : density,
	    PVD(w->links[li].vals, LINK_inertial_mass), &in);
	if (n < 0)
		return -1;
	if (n == 0) {
		phys_warn("link '%s' has no collision geometry to compute "
		    "from; left as it is", w->links[li].name);
		return 0;
	}
	if (!phys_world_editable(w, PHYS_S_LINK, li)) {
		phys_warn("link '%s' is in the included file %s; left as it "
		    "is", w->links[li].name, w->links[li].doc->name);
		return 0;
	}
	if (automatic && w->model_doc)
		return phys_fail("%s: URDF has no automatic inertia; give "
		    "--density or --keep-mass instead of --auto", w->doc.name);
	if (automatic)
		return write_auto(w, li, density_given ? density : 0, keep);
	return write_inertial(w, li, &in);
}

int
phys_inertia_fix_world(struct phys_world *w, const struct phys_inertia_fix *o)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < w->nlinks && rc == 0; i++)
		if (selected(w, (int)i, o->nglobs, o->globs))
			rc = fix_link(w, (int)i, o->density, o->keep_mass,
			    o->automatic, o->density_given);
	return rc;
}
