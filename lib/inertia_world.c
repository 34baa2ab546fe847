/* inertia_world.c - links' inertia, as written and from their geometry. */
#include "inertia_world.h"

#include <math.h>
#include <string.h>

void
phys_link_inertia(const struct phys_link *l, phys_inertia *out)
{
	const struct phys_value *v = l->vals;

	*out = phys_inertia_make(PVD(v, LINK_inertial_mass),
	    PVD(v, LINK_inertial_inertia_ixx), PVD(v, LINK_inertial_inertia_iyy),
	    PVD(v, LINK_inertial_inertia_izz), PVD(v, LINK_inertial_inertia_ixy),
	    PVD(v, LINK_inertial_inertia_ixz), PVD(v, LINK_inertial_inertia_iyz));
	memcpy(out->pose, PV(v, LINK_inertial_pose)->u.pose, sizeof out->pose);
	out->has_pose = PV(v, LINK_inertial_pose)->given;
}

/* A collision's shape as an inertia body; false for planes. */
static bool
body_shape(const struct phys_collision *c, phys_shape *s)
{
	memset(s, 0, sizeof *s);
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		s->kind = PHYS_SHAPE_BOX;
		memcpy(s->dim, c->size, sizeof s->dim);
		return true;
	case PHYS_GEOM_SPHERE:
		s->kind = PHYS_SHAPE_SPHERE;
		s->dim[0] = c->size[0];
		return true;
	case PHYS_GEOM_CYLINDER:
		s->kind = PHYS_SHAPE_CYLINDER;
		s->dim[0] = c->size[0];
		s->dim[1] = c->size[1];
		return true;
	case PHYS_GEOM_CAPSULE:
		s->kind = PHYS_SHAPE_CAPSULE;
		s->dim[0] = c->size[0];
		s->dim[1] = c->size[1];
		return true;
	case PHYS_GEOM_ELLIPSOID:
		s->kind = PHYS_SHAPE_ELLIPSOID;
		memcpy(s->dim, c->size, sizeof s->dim);
		return true;
	default:
		return false;
	}
}

/* Half extents of a shape along its own axes. */
static phys_vec3
half_extents(const struct phys_collision *c)
{
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		return v3(c->size[0] / 2, c->size[1] / 2, c->size[2] / 2);
	case PHYS_GEOM_SPHERE:
		return v3(c->size[0], c->size[0], c->size[0]);
	case PHYS_GEOM_CYLINDER:
		return v3(c->size[0], c->size[0], c->size[1] / 2);
	case PHYS_GEOM_CAPSULE:
		return v3(c->size[0], c->size[0], c->size[1] / 2 + c->size[0]);
	default:
		return v3(c->size[0], c->size[1], c->size[2]);
	}
}

bool
phys_link_geometry_box(const struct phys_world *w, int li, phys_vec3 *min,
    phys_vec3 *max, double *volume)
{
	const struct phys_link *l = &w->links[li];
	bool any = false;
	phys_shape s;
	phys_vec3 h, p;
	int c, k;

	*volume = 0;
	for (c = l->first_collision; c < l->first_collision + l->ncollisions;
	    c++) {
		const struct phys_collision *col = &w->collisions[c];

		if (!body_shape(col, &s))
			continue;
		*volume += phys_shape_measure(&s);
		h = half_extents(col);
		for (k = 0; k < 8; k++) {	/* the corners, in the link frame */
			p = pose_apply(col->pose, v3(k & 1 ? h.x : -h.x,
			    k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z));
			if (!any) {
				*min = *max = p;
				any = true;
			}
			min->x = fmin(min->x, p.x), max->x = fmax(max->x, p.x);
			min->y = fmin(min->y, p.y), max->y = fmax(max->y, p.y);
			min->z = fmin(min->z, p.z), max->z = fmax(max->z, p.z);
		}
	}
	return any;
}

int
phys_link_geometry_inertia(const struct phys_world *w, int li, double density,
    double mass, phys_inertia *out)
{
	const struct phys_link *l = &w->links[li];
	phys_inertia parts[64];
	double volume = 0, v[64];
	phys_shape s;
	int c, n = 0, k;

	for (c = l->first_collision; c < l->first_collision + l->ncollisions &&
	    n < 64; c++) {
		if (!body_shape(&w->collisions[c], &s))
			continue;
		if (phys_shape_check(&s) < 0)
			return -1;
		v[n] = phys_shape_measure(&s);
		volume += v[n];
		pose_to6(w->collisions[c].pose, parts[n].pose);
		parts[n].has_pose = true;
		n++;
	}
	if (n == 0)
		return 0;
	if (!(volume > 0))
		return phys_fail("link '%s': its geometry has no volume",
		    l->name);
	for (k = 0, c = l->first_collision; k < n; c++) {
		double pose[6];

		if (!body_shape(&w->collisions[c], &s))
			continue;
		memcpy(pose, parts[k].pose, sizeof pose);
		if (phys_shape_inertia(&s, density > 0 ? density * v[k] :
		    mass * v[k] / volume, &parts[k]) < 0)
			return -1;
		memcpy(parts[k].pose, pose, sizeof pose);
		parts[k].has_pose = true;
		k++;
	}
	return phys_inertia_combine(parts, (size_t)n, out) < 0 ? -1 : n;
}
