/* inertia_world.c - links' inertia, as written and from their geometry. */
#include "inertia_world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

bool
phys_link_sdformat_refuses(const struct phys_link *l, const phys_inertia *in)
{
	if (l->doc && (l->doc->kind == PHYS_DOC_MJCF ||
	    l->doc->from == PHYS_DOC_MJCF))
		return false;
	return phys_inertia_sdformat_refuses(in);
}

const char *
phys_link_sdformat_note(const struct phys_link *l, const phys_inertia *in)
{
	return phys_link_sdformat_refuses(l, in) ? "; libsdformat finds it "
	    "invalid too, and refuses the file" : "";
}

const char *
phys_link_sdformat_only(const struct phys_link *l,
    const struct phys_inertia_verdict *v, char *msg, size_t len)
{
	snprintf(msg, len, "link '%s': its principal moments %.17g, %.17g, "
	    "%.17g break the triangle inequality by more than rounding, "
	    "which libsdformat finds invalid, and refuses the file; phys "
	    "takes them, within %g of the largest", l->name, v->moments[0],
	    v->moments[1], v->moments[2], PHYS_INERTIA_RTOL);
	return msg;
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
	case PHYS_GEOM_CONE:
		return v3(c->size[0], c->size[0], c->size[1] / 2);
	default:
		return v3(c->size[0], c->size[1], c->size[2]);
	}
}

bool
phys_link_geometry_box(const struct phys_scene *w, int li, phys_vec3 *min,
    phys_vec3 *max, double *volume)
{
	const struct phys_link *l = &w->links[li];
	bool any = false;
	phys_shape s;
	phys_vec3 p;
	int c, k;

	*volume = 0;
	if (l->lost)	/* a part of it is not known */
		return false;
	for (c = l->first_collision; c < l->first_collision + l->ncollisions;
	    c++) {
		const struct phys_collision *col = &w->collisions[c];

		phys_vec3 lo, hi, com;
		phys_mat3 I;
		double v;

		if (col->shape == PHYS_GEOM_MESH) {
			lo = col->mesh->lo, hi = col->mesh->hi;
			if (phys_mesh_mass(col->mesh, &v, &com, &I) == 0)
				*volume += v;	/* an open mesh has none */
		} else if (body_shape(col, &s)) {
			*volume += phys_shape_measure(&s);
			hi = half_extents(col);
			lo = v3_scale(hi, -1);
		} else
			continue;
		for (k = 0; k < 8; k++) {	/* the corners, in the link frame */
			p = phys_pose_apply(col->pose, v3(k & 1 ? hi.x : lo.x,
			    k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z));
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

static phys_mat3
mat3_scaled(phys_mat3 a, double k)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			a.m[i][j] *= k;
	return a;
}

/*
 * A solid cone exactly: volume pi r^2 L / 3, the centre of mass a quarter
 * of the length above the base (at -L/4), and about it 3/80 (4 r^2 + L^2)
 * across and 3/10 r^2 along the axis, per unit mass. (libsdformat's own
 * calculator puts the centre of mass at the frame's origin.)
 */
static int
cone_solid(const struct phys_collision *c, double *volume, phys_inertia *out)
{
	double r = c->size[0], l = c->size[1], v = M_PI * r * r * l / 3;
	phys_pose com = { { 0, 0, -l / 4 }, { 1, 0, 0, 0 } };

	memset(out, 0, sizeof *out);
	*volume = v;
	out->mass = v;
	out->I.m[0][0] = out->I.m[1][1] = v * 3 / 80 * (4 * r * r + l * l);
	out->I.m[2][2] = v * 3 / 10 * r * r;
	phys_pose_to6(phys_pose_mul(c->pose, com), out->pose);
	out->has_pose = true;
	return 1;
}

int
phys_collision_solid(const struct phys_collision *c, double *volume,
    phys_inertia *out)
{
	phys_shape s;
	phys_vec3 com;
	phys_mat3 I;

	if (c->shape == PHYS_GEOM_MESH) {
		if (phys_mesh_mass(c->mesh, volume, &com, &I) < 0) {
			char *why = phys_xstrdup(phys_error());
			int rc = phys_fail("collision '%s': %s", c->name, why);

			free(why);
			return rc;
		}
		memset(out, 0, sizeof *out);
		out->mass = *volume;
		out->I = I;
		phys_pose_to6(phys_pose_mul(c->pose, (phys_pose){ com,
		    PHYS_QUAT_IDENTITY }), out->pose);
		out->has_pose = true;
		return 1;
	}
	if (c->shape == PHYS_GEOM_CONE)
		return cone_solid(c, volume, out);
	if (!body_shape(c, &s))
		return 0;
	if (phys_shape_check(&s) < 0)
		return -1;
	*volume = phys_shape_measure(&s);
	if (phys_shape_inertia(&s, *volume, out) < 0)
		return -1;
	phys_pose_to6(c->pose, out->pose);
	out->has_pose = true;
	return 1;
}

/* The parts scaled to their masses and combined: by density (each
 * collision's own when per_collision and it has one), or sharing mass
 * by volume when density <= 0. */
static int
solids_inertia(const struct phys_scene *w, int li, double density,
    bool per_collision, double mass, phys_inertia *out)
{
	const struct phys_link *l = &w->links[li];
	phys_inertia *parts;
	double volume = 0, weighted = 0, *v, rho, k;
	int c, n = 0, rc, i;

	if (l->lost)
		return phys_fail("%s (so the collision was skipped)",
		    l->lost);
	parts = phys_xmalloc(((size_t)l->ncollisions + 1) * sizeof *parts);
	v = phys_xmalloc(((size_t)l->ncollisions + 1) * sizeof *v);
	for (c = l->first_collision; c < l->first_collision + l->ncollisions;
	    c++) {
		const struct phys_collision *col = &w->collisions[c];

		rc = phys_collision_solid(col, &v[n], &parts[n]);
		if (rc < 0)
			goto out;
		if (rc == 0)
			continue;
		volume += v[n];
		rho = per_collision && col->density > 0 ? col->density :
		    density > 0 ? density : 1;
		weighted += rho * v[n];
		/* the density rides in mass until the total is known */
		parts[n].mass = rho;
		n++;
	}
	rc = n;
	if (n > 0 && !(volume > 0))
		rc = phys_fail("link '%s': its geometry has no volume", l->name);
	for (i = 0; i < n && rc > 0; i++) {
		k = density > 0 ? parts[i].mass : parts[i].mass * mass / weighted;
		parts[i].mass = k * v[i];
		parts[i].I = mat3_scaled(parts[i].I, k);
	}
	if (rc > 0 && phys_inertia_combine(parts, (size_t)n, out) < 0)
		rc = -1;
out:
	free(parts);
	free(v);
	return rc;
}

int
phys_link_geometry_inertia(const struct phys_scene *w, int li, double density,
    double mass, phys_inertia *out)
{
	return solids_inertia(w, li, density, false, mass, out);
}

bool
phys_link_auto_inertial(const struct phys_link *l)
{
	xmlNodePtr n = phys_child(l->node, "inertial");
	char *a = n ? phys_node_attr(n, "auto") : NULL;
	bool on = false;

	if (a && !phys_parse_bool(a, &on))
		on = false;
	free(a);
	return on;
}

int
phys_link_values_geometry(const struct phys_scene *w, int li, double density,
    struct phys_value *vals)
{
	struct phys_value *mass = PV(vals, LINK_inertial_mass);
	phys_inertia in;
	int n;

	n = solids_inertia(w, li, mass->given && mass->u.d > 0 ? 0 : density,
	    true, mass->u.d, &in);
	if (n <= 0)
		return n;
	mass->u.d = in.mass;
	memcpy(PV(vals, LINK_inertial_pose)->u.pose, in.pose, sizeof in.pose);
	PV(vals, LINK_inertial_pose)->given = true;
	PV(vals, LINK_inertial_inertia_ixx)->u.d = in.I.m[0][0];
	PV(vals, LINK_inertial_inertia_iyy)->u.d = in.I.m[1][1];
	PV(vals, LINK_inertial_inertia_izz)->u.d = in.I.m[2][2];
	PV(vals, LINK_inertial_inertia_ixy)->u.d = in.I.m[0][1];
	PV(vals, LINK_inertial_inertia_ixz)->u.d = in.I.m[0][2];
	PV(vals, LINK_inertial_inertia_iyz)->u.d = in.I.m[1][2];
	return n;
}

int
phys_link_auto_inertia(struct phys_scene *w, int li, double density)
{
	int n = phys_link_values_geometry(w, li, density, w->links[li].vals);

	if (n == 0)
		return phys_fail("link '%s': automatic inertia needs collision "
		    "geometry with a volume", w->links[li].name);
	return n < 0 ? -1 : 0;
}

double
phys_link_box_ratio(const struct phys_scene *w, int li, const phys_inertia *in)
{
	phys_vec3 lo, hi, size, box;
	double vol, a[3], g[3], t, worst = 1;
	phys_mat3 R;
	int i, j;

	if (!phys_link_geometry_box(w, li, &lo, &hi, &vol) ||
	    phys_inertia_box_equivalent(in, &size, &R) < 0)
		return 0;
	box = v3_sub(hi, lo);
	a[0] = size.x, a[1] = size.y, a[2] = size.z;
	g[0] = box.x, g[1] = box.y, g[2] = box.z;
	for (i = 0; i < 3; i++)		/* both longest first */
		for (j = i + 1; j < 3; j++)
			if (g[j] > g[i])
				t = g[i], g[i] = g[j], g[j] = t;
	for (i = 0; i < 3; i++) {
		t = g[i] > 0 && a[i] > 0 ? a[i] / g[i] : 0;
		if (t > 0 && fabs(log(t)) > fabs(log(worst)))
			worst = t;
	}
	return worst;
}
