/* reach.c - a collision's support function (reach.h). */
#include <math.h>
#include <stddef.h>

#include "reach.h"

double
phys_collision_reach(const struct phys_collision *c, phys_vec3 d)
{
	double rho = sqrt(d.x * d.x + d.y * d.y), h = 0, x;
	size_t i;

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		return (fabs(d.x) * c->size[0] + fabs(d.y) * c->size[1] +
		    fabs(d.z) * c->size[2]) / 2;
	case PHYS_GEOM_SPHERE:
		return c->size[0];
	case PHYS_GEOM_CYLINDER:
		return c->size[0] * rho + fabs(d.z) * c->size[1] / 2;
	case PHYS_GEOM_CAPSULE:
		return c->size[0] + fabs(d.z) * c->size[1] / 2;
	case PHYS_GEOM_ELLIPSOID:
		return sqrt(pow(c->size[0] * d.x, 2) +
		    pow(c->size[1] * d.y, 2) + pow(c->size[2] * d.z, 2));
	case PHYS_GEOM_CONE:	/* apex at +length/2, base at -length/2 */
		return fmax(d.z * c->size[1] / 2, -d.z * c->size[1] / 2 +
		    c->size[0] * rho);
	case PHYS_GEOM_MESH:
		if (!c->mesh || c->mesh->nv == 0)
			return NAN;
		for (i = 0; i < c->mesh->nv; i++) {
			x = c->mesh->v[3 * i] * d.x + c->mesh->v[3 * i + 1] *
			    d.y + c->mesh->v[3 * i + 2] * d.z;
			if (i == 0 || x > h)
				h = x;
		}
		return h;
	default:
		return NAN;
	}
}

double
phys_collision_lowest(const struct phys_collision *c, phys_pose at,
    phys_vec3 up)
{
	phys_vec3 down = phys_quat_rotate(phys_quat_conj(at.q),
	    v3_scale(up, -1));

	return v3_dot(at.p, up) - phys_collision_reach(c, down);
}
