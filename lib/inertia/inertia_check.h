/*
 * inertia_check.h - the inertia of every link of a world, checked, and
 * fixed from the links' collision geometry.
 */
#ifndef PHYS_INERTIA_CHECK_H
#define PHYS_INERTIA_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base.h"
#include "inertia.h"
#include "world.h"

/*
 * One JSON line a link into b: its mass, whether its inertia is valid
 * (mass > 0, positive definite, triangle inequality; tolerance 1e-9 of
 * the largest moment) and why not, principal moments, box of equivalent
 * inertia, the box its collision geometry spans and the density that
 * implies, whether it is static, why a valid inertia is implausible (its
 * box beyond ratio times its shapes', or a placeholder the shapes do not
 * bear out) and warnings for mass or inertia ratios above ratio across a
 * joint. Returns how many links are invalid.
 */
size_t phys_inertia_check_world(struct phys_scene *w, double ratio,
    struct phys_buf *b);

/*
 * The ratio of link li's box of equivalent inertia (in, valid) to its
 * shapes' when it is beyond limit or 1/limit, said into why; else 0.
 */
double phys_inertia_box_far(const struct phys_scene *w, int li,
    const phys_inertia *in, double limit, struct phys_buf *why);

struct phys_inertia_fix {
	bool all;		/* every selected link, not only the invalid */
	double density;		/* kg/m^3 of each shape */
	bool density_given;	/* written with automatic, else the default */
	bool keep_mass;		/* keep each link's mass, shared by volume */
	bool automatic;		/* SDF 1.11 <inertial auto="true"> */
	char **globs;		/* links to fix; none: those of models that
				 * are not static */
	size_t nglobs;
};

/*
 * Each selected link's inertial (mass, centre of mass, tensor) computed
 * from its collision geometry as uniform solids and recorded as edits of
 * w, or made automatic; the caller writes w. Selected: the links whose
 * inertia is not valid, or with o->all every one. Each value
 * changed is said on stderr, the link, the old and the new, with the
 * digits it needs. A link without collision geometry, or from an
 * included file, is left as it is, with a warning; so is a link whose
 * geometry gives no inertia (a mesh that is open, or was skipped as it
 * could not be read), and it is counted: the others are still fixed.
 * Returns how many were counted, or -1 (a glob that matches no link is
 * an error).
 */
int phys_inertia_fix_world(struct phys_scene *w,
    const struct phys_inertia_fix *o);

#endif
