/* massless.c - models of no mass run with their shapes' (massless.h). */
#include "massless.h"

#include <stdlib.h>

#include "inertia_world.h"
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

/* Model m's moving massless links given their shapes' mass: how many,
 * their total mass in *total, those left without in *left. */
static int
fill_model(const struct values *to, const struct phys_scene *w, size_t m,
    double *total, int *left)
{
	const struct phys_link *l;
	struct phys_value *v;
	size_t i;
	int filled = 0;

	*total = 0;
	*left = 0;
	for (i = 0; i < w->nlinks; i++) {
		l = &w->links[i];
		if (l->model != (int)m || l->welded)
			continue;
		v = link_values(to, (int)i);
		if (PVB(v, LINK_kinematic) || PVD(v, LINK_inertial_mass) != 0)
			continue;
		if (phys_link_values_geometry(w, (int)i,
		    PHYS_MASSLESS_DENSITY, v) > 0 &&
		    PVD(v, LINK_inertial_mass) > 0) {
			*total += PVD(v, LINK_inertial_mass);
			filled++;
		} else {
			(*left)++;
		}
	}
	return filled;
}

static int
fill(const struct values *to, const struct phys_scene *w)
{
	const struct phys_model *mo;
	double total;
	int n, left, all = 0;
	size_t m;

	for (m = 0; m < w->nmodels; m++) {
		mo = &w->models[m];
		if (mo->lightest >= 0 || mo->is_static ||
		    (n = fill_model(to, w, m, &total, &left)) == 0)
			continue;
		all += n;
		phys_warnat(PHYS_AT(mo->doc, mo->node), "model '%s': none of "
		    "its links has a mass: its %d moving link%s run%s with "
		    "the mass and inertia of %s collision shapes at %d kg/m^3 "
		    "(%.4g kg in all), as phys-inertia fix --all writes them "
		    "and MuJoCo gives a body without <inertial>, not with "
		    "stand-ins of 1 g%s", mo->name, n, n == 1 ? "" : "s",
		    n == 1 ? "s" : "", n == 1 ? "its" : "their",
		    PHYS_MASSLESS_DENSITY, total, left ? " (links of no "
		    "shape with a volume keep theirs)" : "");
	}
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
