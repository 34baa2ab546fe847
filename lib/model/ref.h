/*
 * ref.h - parameter instances: a registry row bound to the profile or
 * entity it belongs to, addressed by the names of DESIGN's Names section:
 * "ode.solver.iters" (or an alias), "gravity",
 * "box::link/inertial.mass", "box::link::collision/surface.friction.ode.mu".
 */
#ifndef PHYS_REF_H
#define PHYS_REF_H

#include "param.h"
#include "world.h"

struct phys_ref {
	const struct phys_param *p;
	phys_scope scope;
	int idx;	/* profile index (PHYSICS), entity index, 0 (WORLD) */
};

/* Resolve one name; physics parameters belong to profile. On failure
 * phys_error() explains and suggests close names. */
int phys_ref_resolve(const struct phys_scene *w, const char *name, int profile,
    struct phys_ref *out);
struct phys_value *phys_ref_value(struct phys_scene *w,
    const struct phys_ref *r);
/* The canonical full name; caller frees. */
char *phys_ref_name(const struct phys_scene *w, const struct phys_ref *r);

/*
 * Every instance whose canonical name matches pattern (a glob, or a plain
 * name or alias); physics rows of one profile, or of every profile when
 * profile < 0. Returns how many matched, -1 if cb failed.
 */
typedef int (*phys_ref_cb)(struct phys_scene *w, const struct phys_ref *r,
    void *ctx);
int phys_ref_each(struct phys_scene *w, const char *pattern, int profile,
    phys_ref_cb cb, void *ctx);
/* The same instances, into *out (the caller frees it): how many. */
size_t phys_ref_match(const struct phys_scene *w, const char *pattern,
    int profile, struct phys_ref **out);

/*
 * Typed access by name: get copies the current value into out (free it with
 * phys_value_free); set checks the value against the parameter's range or
 * set of values and stores it (marked given). Both -1 with phys_error().
 */
int phys_get_value(struct phys_scene *w, const char *name, int profile,
    struct phys_value *out);
int phys_set_value(struct phys_scene *w, const char *name, int profile,
    const struct phys_value *v);

/* Does p apply to entity idx of scope s? A collision's geometry rows
 * apply to its own shape only. */
bool phys_param_applies(const struct phys_scene *w, phys_scope s, int idx,
    const struct phys_param *p);

/* The element name of a collision's shape: "box", "mesh", ... */
const char *phys_collision_shape(const struct phys_scene *w, int idx);

/* Is p one of a shape's sizes (a geometry row)? */
bool phys_param_is_size(const struct phys_param *p);

#endif
