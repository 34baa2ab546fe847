/*
 * inertia_follow.h - a value changed together with what depends on it:
 * resizing a collision's shape changes its geometry and, as the link's
 * inertia.follow says, the link's inertial; a new mass scales the tensor.
 *
 * The rule (phys-params(7), phys-inertia(1)): the link's body is its
 * written inertial; the resized shape's share of it, a uniform solid at
 * the link's density (the collision's <density>, or the link's mass over
 * its shapes' volume), is taken out at the old size and put back at the
 * new one, by mass, first and second moments about the link origin, so
 * the centre of mass and the products of inertia follow exactly.
 *   density  the density is kept: mass and tensor grow with the shape
 *   mass     the mass is kept: the result is scaled back to it
 *   none     the inertial is left as it is
 * A new inertial.mass scales the tensor by the same ratio (density or
 * mass), or leaves it (none).
 */
#ifndef PHYS_INERTIA_FOLLOW_H
#define PHYS_INERTIA_FOLLOW_H

#include <stdbool.h>

#include "ref.h"
#include "world.h"

/*
 * The collision c (as loaded, read-only) at the sizes its values vals
 * hold, in *out: where vals differ from c's own, the size is theirs,
 * and a rescaled mesh or an ellipsoid of other radii gets new triangles
 * in *mesh (the caller's to free; NULL when c's stay).
 */
int phys_collision_sized(const struct phys_collision *c,
    const struct phys_value *vals, struct phys_collision *out,
    struct phys_mesh **mesh);

/* Where an entity's values are: a world's own (file edits) or a run's. */
struct phys_values_at {
	struct phys_value *(*at)(void *ctx, phys_scope s, int idx);
	void *ctx;
};

/*
 * The rule on value arrays: store v (taken over) as r's value in va,
 * with the link's inertial following in va too. w is read only (shapes,
 * poses, which link a collision is on). *link is the link whose inertial
 * changed, or -1. On failure (-1, phys_error() says why) nothing changed
 * and v is freed.
 */
int phys_values_assign(const struct phys_scene *w,
    const struct phys_values_at *va, const struct phys_ref *r,
    struct phys_value *v, int *link);

/*
 * For file edits: phys_values_assign on w's own values, and the
 * collision's size and mesh updated to match. *link is the
 * link whose inertial changed, or -1. On failure (-1, phys_error() says
 * why) nothing changed and v is freed.
 */
int phys_world_assign(struct phys_scene *w, const struct phys_ref *r,
    struct phys_value *v, int *link);

/* Record in the document the link's inertial as its values hold it
 * (mass, tensor, and the pose when given), for a file edit. */
int phys_world_edit_inertial(struct phys_scene *w, int link);

#endif
