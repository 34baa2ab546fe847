/* massless.c - models of no mass run with their shapes' (massless.h). */
#include "massless.h"

#include <stdlib.h>

#include "inertia_world.h"
#include "mem.h"
#include "msg.h"
#include "param.h"
#include "sdf.h"

/* Where link li's values are written: a run's, or the world's own. */
struct values {
	struct phys_run_values *rv;	/* NULL: the world's */
	struct phys_scene *own;
};

static struct phys_value *
link_values(const struct values *to, int li)
{
	return to->rv ? phys_run_values_at(to->rv, PHYS_S_LINK, li) :
	    to->own->links[li].vals;
}

/* Whether link li's model has no mass and li moves, so that it may
 * be given its shapes'. */
static bool
to_fill(const struct phys_scene *w, int li)
{
	const struct phys_model *mo = &w->models[w->links[li].model];

	return mo->lightest < 0 && !mo->is_static && !w->links[li].welded;
}

/* One pass over the links, each model's said after: how many links,
 * their total mass, those left without. */
static int
fill(const struct values *to, const struct phys_scene *w)
{
	double *total = phys_xcalloc(w->nmodels + 1, sizeof *total);
	int *filled = phys_xcalloc(w->nmodels + 1, sizeof *filled);
	int *left = phys_xcalloc(w->nmodels + 1, sizeof *left);
	const struct phys_model *mo;
	struct phys_value *v;
	int all = 0, m, n;
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		if (!to_fill(w, (int)i))
			continue;
		v = link_values(to, (int)i);
		m = w->links[i].model;
		if (PVB(v, LINK_kinematic) || PVD(v, LINK_inertial_mass) != 0)
			continue;
		if (phys_link_values_geometry(w, (int)i,
		    PHYS_MASSLESS_DENSITY, v) > 0 &&
		    PVD(v, LINK_inertial_mass) > 0) {
			total[m] += PVD(v, LINK_inertial_mass);
			filled[m]++;
		} else {
			left[m]++;
		}
	}
	for (m = 0; m < (int)w->nmodels; m++) {
		if ((n = filled[m]) == 0)
			continue;
		mo = &w->models[m];
		all += n;
		phys_warnat(PHYS_AT(mo->doc, mo->node), "model '%s': none of "
		    "its links has a mass: its %d moving link%s run%s with "
		    "the mass and inertia of %s collision shapes at %d kg/m^3 "
		    "(%.4g kg in all), as phys-inertia fix --all writes them "
		    "and MuJoCo gives a body without <inertial>, not with "
		    "stand-ins of 1 g%s", mo->name, n, n == 1 ? "" : "s",
		    n == 1 ? "s" : "", n == 1 ? "its" : "their",
		    PHYS_MASSLESS_DENSITY, total[m], left[m] ? " (links of no "
		    "shape with a volume keep theirs)" : "");
	}
	free(total);
	free(filled);
	free(left);
	return all;
}

int
phys_massless_models_fill(struct phys_run_values *rv,
    const struct phys_scene *w)
{
	struct values to = { rv, NULL };

	return fill(&to, w);
}

int
phys_massless_models_fill_world(struct phys_scene *w)
{
	struct values to = { NULL, w };

	return fill(&to, w);
}
