/* inertia_follow.c - resizes and new masses, and the inertia that follows. */
#include "inertia_follow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inertia.h"
#include "inertia_world.h"
#include "paramio.h"

#define GEOMETRY "geometry."

/* ---- mass, first and second moments: additive over parts ---- */

struct moments {
	double m;
	phys_vec3 h;		/* m c */
	phys_mat3 j;		/* integral of rho r r^T, link frame */
};

static const phys_mat3 zero3;

/* a + k b */
static phys_mat3
mat3_axpy(phys_mat3 a, double k, phys_mat3 b)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			a.m[i][j] += k * b.m[i][j];
	return a;
}

/* tr(a)/2 1 - a when going from inertia to second moments (and with
 * half = false, tr(a) 1 - a back). */
static phys_mat3
trace_flip(phys_mat3 a, bool half)
{
	double t = (a.m[0][0] + a.m[1][1] + a.m[2][2]) * (half ? 0.5 : 1);
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			a.m[i][j] = (i == j ? t : 0) - a.m[i][j];
	return a;
}

static phys_mat3
outer(phys_vec3 a, phys_vec3 b)
{
	phys_mat3 r = { { { a.x * b.x, a.x * b.y, a.x * b.z },
	    { a.y * b.x, a.y * b.y, a.y * b.z },
	    { a.z * b.x, a.z * b.y, a.z * b.z } } };

	return r;
}

static struct moments
moments_of(const phys_inertia *in, double k)
{
	phys_pose p = phys_pose_from6(in->pose);
	phys_mat3 il = phys_inertia_rotate(in->I, phys_quat_to_mat3(p.q));
	double m = in->mass * k;
	struct moments r;

	r.m = m;
	r.h = v3_scale(p.p, m);
	r.j = mat3_axpy(mat3_axpy(zero3, k, trace_flip(il, true)), m,
	    outer(p.p, p.p));
	return r;
}

static void
moments_add(struct moments *a, double k, const struct moments *b)
{
	a->m += k * b->m;
	a->h = v3_add(a->h, v3_scale(b->h, k));
	a->j = mat3_axpy(a->j, k, b->j);
}

/* Back to an inertia whose frame keeps like's rotation. */
static phys_inertia
inertia_of(const struct moments *s, const phys_inertia *like)
{
	phys_inertia out = *like;
	phys_vec3 c = v3_scale(s->h, 1 / s->m);
	phys_mat3 jc = mat3_axpy(s->j, -s->m, outer(c, c));
	phys_quat q = phys_pose_from6(like->pose).q;

	out.mass = s->m;
	out.I = phys_inertia_rotate(trace_flip(jc, false),
	    phys_mat3_transpose(phys_quat_to_mat3(q)));
	out.pose[0] = c.x, out.pose[1] = c.y, out.pose[2] = c.z;
	return out;
}

/* ---- a collision at the size its values hold ---- */

#define SIZE(id) PHYS_P_COLLISION_geometry_##id

static bool
changed(const struct phys_collision *c, const struct phys_value *vals,
    enum phys_param_id id)
{
	const struct phys_param *p = &phys_params[id];
	size_t i = phys_param_index[id];

	return !phys_value_equal(p, &c->vals[i], &vals[i]);
}

/* One size of the shape: the loaded one unless the values moved it. */
static void
take_double(const struct phys_collision *c, const struct phys_value *vals,
    enum phys_param_id id, double *dst)
{
	if (changed(c, vals, id))
		*dst = vals[phys_param_index[id]].u.d;
}

static void
take_vec3(const struct phys_collision *c, const struct phys_value *vals,
    enum phys_param_id id, double dst[3])
{
	phys_vec3 s = vals[phys_param_index[id]].u.v;

	if (changed(c, vals, id))
		dst[0] = s.x, dst[1] = s.y, dst[2] = s.z;
}

/* c's triangles at the scale s (c's own scale is its values'). */
static int
scaled_mesh(const struct phys_collision *c, phys_vec3 s,
    struct phys_mesh **mesh)
{
	phys_vec3 s0 = c->vals[phys_param_index[SIZE(mesh_scale)]].u.v;

	if (s.x == 0 || s.y == 0 || s.z == 0)
		return phys_fail("%s: a zero factor flattens the mesh",
		    phys_params[SIZE(mesh_scale)].name);
	*mesh = phys_mesh_scaled(c->mesh, v3(s.x / s0.x, s.y / s0.y,
	    s.z / s0.z));
	return 0;
}

int
phys_collision_sized(const struct phys_collision *c,
    const struct phys_value *vals, struct phys_collision *out,
    struct phys_mesh **mesh)
{
	*out = *c;
	*mesh = NULL;
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		take_vec3(c, vals, SIZE(box_size), out->size);
		break;
	case PHYS_GEOM_SPHERE:
		take_double(c, vals, SIZE(sphere_radius), &out->size[0]);
		break;
	case PHYS_GEOM_CYLINDER:
		take_double(c, vals, SIZE(cylinder_radius), &out->size[0]);
		take_double(c, vals, SIZE(cylinder_length), &out->size[1]);
		break;
	case PHYS_GEOM_CAPSULE:
		take_double(c, vals, SIZE(capsule_radius), &out->size[0]);
		take_double(c, vals, SIZE(capsule_length), &out->size[1]);
		break;
	case PHYS_GEOM_ELLIPSOID:
		if (!changed(c, vals, SIZE(ellipsoid_radii)))
			break;
		take_vec3(c, vals, SIZE(ellipsoid_radii), out->size);
		*mesh = phys_mesh_ellipsoid(out->size[0], out->size[1],
		    out->size[2]);
		break;
	case PHYS_GEOM_MESH:
		if (changed(c, vals, SIZE(mesh_scale)) && scaled_mesh(c,
		    vals[phys_param_index[SIZE(mesh_scale)]].u.v, mesh) < 0)
			return -1;
		break;
	default:
		break;
	}
	if (*mesh)
		out->mesh = *mesh;
	return 0;
}

/* ---- the rule ---- */

/* A collision of the link as its values size it: volume and solid. */
static int
solid_at(const struct phys_scene *w, const struct phys_values_at *va,
    int ci, double *volume, phys_inertia *out)
{
	struct phys_collision c;
	struct phys_mesh *mesh;
	int rc;

	if (phys_collision_sized(&w->collisions[ci],
	    va->at(va->ctx, PHYS_S_COLLISION, ci), &c, &mesh) < 0)
		return -1;
	rc = phys_collision_solid(&c, volume, out);
	phys_mesh_free(mesh);
	return rc;
}

/* The link's density: the collision's own, or mass over the volume of
 * its shapes (an open mesh has none). */
static int
link_density(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_collision *c, double *rho)
{
	const struct phys_link *l = &w->links[c->link];
	double volume = 0, v;
	phys_inertia in;
	int i;

	if (c->density > 0) {
		*rho = c->density;
		return 0;
	}
	for (i = l->first_collision; i < l->first_collision + l->ncollisions;
	    i++)
		if (solid_at(w, va, i, &v, &in) > 0)
			volume += v;
	if (!(volume > 0))
		return phys_fail("link '%s': its geometry has no volume to "
		    "keep a density over", l->name);
	*rho = PVD(va->at(va->ctx, PHYS_S_LINK, c->link),
	    LINK_inertial_mass) / volume;
	return 0;
}

/* The inertial of a link's values. */
static void
values_inertia(const struct phys_value *lv, phys_inertia *out)
{
	struct phys_link l = { .vals = (struct phys_value *)lv };

	phys_link_inertia(&l, out);
}

static int
follow_resize(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_collision *old, const struct phys_collision *new,
    phys_inertia *out)
{
	const struct phys_link *l = &w->links[old->link];
	const struct phys_value *lv = va->at(va->ctx, PHYS_S_LINK, old->link);
	const char *follow = PVS(lv, LINK_inertia_follow);
	struct phys_inertia_verdict why;
	phys_inertia link, s0, s1;
	struct moments sum, m0, m1;
	double rho = 0, v0, v1;
	int rc;

	values_inertia(lv, &link);
	if (strcmp(follow, "none") == 0)
		return 0;
	rc = phys_collision_solid(old, &v0, &s0);
	if (rc <= 0)
		return rc;
	if (phys_collision_solid(new, &v1, &s1) < 0 ||
	    link_density(w, va, old, &rho) < 0)
		return -1;
	sum = moments_of(&link, 1);
	m0 = moments_of(&s0, rho);
	m1 = moments_of(&s1, rho);
	moments_add(&sum, -1, &m0);
	moments_add(&sum, 1, &m1);
	if (strcmp(follow, "mass") == 0 && sum.m > 0) {
		double k = link.mass / sum.m;

		sum.m = link.mass;
		sum.h = v3_scale(sum.h, k);
		sum.j = mat3_axpy(zero3, k, sum.j);
	}
	if (!(sum.m > 0))
		return phys_fail("link '%s': resizing '%s' leaves no mass "
		    "(its inertial is lighter than the shape at the link's "
		    "density; inertia.follow=none keeps it)", l->name,
		    old->name);
	*out = inertia_of(&sum, &link);
	if (phys_inertia_validate(out, &why) != PHYS_INERTIA_VALID)
		return phys_fail("link '%s': the inertia after resizing '%s' "
		    "is not physical (%s); inertia.follow=none keeps the "
		    "inertial as it is", l->name, old->name, why.reason);
	return 1;
}

static void
store(struct phys_value *dst, struct phys_value *v)
{
	phys_value_free(dst);
	*dst = *v;
	dst->given = true;
}

/* Marked given (written back to a file) only when it changes or was
 * written already: zero products stay unwritten. */
static void
set_double(struct phys_value *dst, double x)
{
	if (dst->u.d == x && !dst->given)
		return;
	dst->u.d = x;
	dst->given = true;
}

static void
store_inertia(struct phys_value *lv, const phys_inertia *in)
{
	struct phys_value *pose = PV(lv, LINK_inertial_pose);

	set_double(PV(lv, LINK_inertial_mass), in->mass);
	set_double(PV(lv, LINK_inertial_inertia_ixx), in->I.m[0][0]);
	set_double(PV(lv, LINK_inertial_inertia_iyy), in->I.m[1][1]);
	set_double(PV(lv, LINK_inertial_inertia_izz), in->I.m[2][2]);
	set_double(PV(lv, LINK_inertial_inertia_ixy), in->I.m[0][1]);
	set_double(PV(lv, LINK_inertial_inertia_ixz), in->I.m[0][2]);
	set_double(PV(lv, LINK_inertial_inertia_iyz), in->I.m[1][2]);
	if (memcmp(pose->u.pose, in->pose, 3 * sizeof *in->pose) != 0) {
		memcpy(pose->u.pose, in->pose, 3 * sizeof *in->pose);
		pose->given = true;
	}
}

/* The collision as v will make it: old (c at its current sizes) with
 * the size v; new triangles (from c's) in *mesh. */
static int
resized(const struct phys_collision *c, const struct phys_collision *old,
    const struct phys_param *p, const struct phys_value *v,
    struct phys_collision *out, struct phys_mesh **mesh)
{
	phys_vec3 s = v->u.v;

	*out = *old;
	*mesh = NULL;
	switch (p->id) {
	case PHYS_P_COLLISION_geometry_box_size:
	case PHYS_P_COLLISION_geometry_ellipsoid_radii:
		out->size[0] = s.x, out->size[1] = s.y, out->size[2] = s.z;
		if (c->shape == PHYS_GEOM_ELLIPSOID)
			*mesh = phys_mesh_ellipsoid(s.x, s.y, s.z);
		break;
	case PHYS_P_COLLISION_geometry_sphere_radius:
	case PHYS_P_COLLISION_geometry_cylinder_radius:
	case PHYS_P_COLLISION_geometry_capsule_radius:
		out->size[0] = v->u.d;
		break;
	case PHYS_P_COLLISION_geometry_cylinder_length:
	case PHYS_P_COLLISION_geometry_capsule_length:
		out->size[1] = v->u.d;
		break;
	case PHYS_P_COLLISION_geometry_mesh_scale:
		if (scaled_mesh(c, s, mesh) < 0)
			return -1;
		break;
	default:
		return phys_fail("%s: not a size", p->name);
	}
	if (*mesh)
		out->mesh = *mesh;
	return 0;
}

/* The collision before (at the sizes of va) and after v; the link's
 * inertial follows. now and mesh, when not NULL, get the collision after
 * and its new triangles. */
static int
resize(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_ref *r, struct phys_value *v, int *link,
    struct phys_collision *now, struct phys_mesh **mesh)
{
	const struct phys_collision *c = &w->collisions[r->idx];
	struct phys_value *cv = va->at(va->ctx, PHYS_S_COLLISION, r->idx);
	struct phys_collision old, new;
	struct phys_mesh *m0, *m1 = NULL;
	phys_inertia in;
	int rc;

	if (phys_collision_sized(c, cv, &old, &m0) < 0)
		return -1;
	rc = resized(c, &old, r->p, v, &new, &m1);
	if (rc == 0)
		rc = follow_resize(w, va, &old, &new, &in);
	phys_mesh_free(m0);
	if (rc < 0 || !mesh)
		phys_mesh_free(m1);
	if (rc < 0)
		return -1;
	if (mesh)
		*now = new, *mesh = m1;
	store(&cv[phys_param_index[r->p->id]], v);
	if (rc > 0) {
		store_inertia(va->at(va->ctx, PHYS_S_LINK, c->link), &in);
		*link = c->link;
	}
	return 0;
}

/* Every value of in a number: what is written must load again. */
static bool
inertia_finite(const phys_inertia *in)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			if (!isfinite(in->I.m[i][j]))
				return false;
	return isfinite(in->mass) && isfinite(in->pose[0]) &&
	    isfinite(in->pose[1]) && isfinite(in->pose[2]);
}

/*
 * The inertia of a link given mass m: its own scaled by the new mass
 * over the old; a link without mass has nothing to scale, and takes the
 * inertia of its collision geometry at that mass, as phys-inertia fix
 * --keep-mass computes it.
 */
static int
scaled_inertia(const struct phys_scene *w, const struct phys_value *lv,
    int li, double m, phys_inertia *in)
{
	double k = m / PVD(lv, LINK_inertial_mass);
	int i, j, n;

	values_inertia(lv, in);
	if (!(PVD(lv, LINK_inertial_mass) > 0) || !isfinite(k)) {
		n = phys_link_geometry_inertia(w, li, 0, m, in);
		if (n < 0)
			return -1;
		if (n == 0)
			return phys_fail("link '%s' has no mass to scale its "
			    "inertia from, nor collision geometry to compute "
			    "one: set its inertia too (inertial.inertia.ixx, "
			    "iyy, izz), or inertia.follow=none first",
			    w->links[li].name);
		in->mass = m;	/* the sum of its shares, as given */
	} else {
		in->mass = m;
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++)
				in->I.m[i][j] *= k;
	}
	if (!inertia_finite(in))
		return phys_fail("link '%s': a mass of %g makes its inertia "
		    "beyond any number", w->links[li].name, m);
	return 0;
}

static int
new_mass(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_ref *r, struct phys_value *v, int *link)
{
	struct phys_value *lv = va->at(va->ctx, PHYS_S_LINK, r->idx);
	bool follow = strcmp(PVS(lv, LINK_inertia_follow), "none") != 0;
	phys_inertia in;

	if (follow && scaled_inertia(w, lv, r->idx, v->u.d, &in) < 0) {
		phys_value_free(v);
		return -1;
	}
	store(PV(lv, LINK_inertial_mass), v);
	*link = r->idx;
	if (follow)
		store_inertia(lv, &in);
	return 0;
}

/* now and mesh, when not NULL, get the resized collision and its new
 * mesh (NULL when the triangles stay). */
static int
assign(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_ref *r, struct phys_value *v, int *link,
    struct phys_collision *now, struct phys_mesh **mesh)
{
	*link = -1;
	if (!phys_param_applies(w, r->scope, r->idx, r->p)) {
		phys_value_free(v);
		return phys_fail("%s: the collision is a %s, not a %.*s",
		    phys_entity_name(w, r->scope, r->idx),
		    phys_collision_shape(w, r->idx),
		    (int)strcspn(r->p->name + strlen(GEOMETRY), "."),
		    r->p->name + strlen(GEOMETRY));
	}
	if (phys_param_is_size(r->p)) {
		if (resize(w, va, r, v, link, now, mesh) == 0)
			return 0;
		phys_value_free(v);
		return -1;
	}
	if (r->scope == PHYS_S_LINK && r->p->id == PHYS_P_LINK_inertial_mass)
		return new_mass(w, va, r, v, link);
	store(&va->at(va->ctx, r->scope, r->idx)[phys_param_index[r->p->id]],
	    v);
	return 0;
}

int
phys_values_assign(const struct phys_scene *w, const struct phys_values_at *va,
    const struct phys_ref *r, struct phys_value *v, int *link)
{
	return assign(w, va, r, v, link, NULL, NULL);
}

static struct phys_value *
world_values(void *ctx, phys_scope s, int idx)
{
	return phys_entity_values(ctx, s, idx);
}

/*
 * A file edit: the world's own values, and its collision's size and
 * mesh made to match them, so the next assignment starts from there
 * and the loaded values stay the collision's own.
 */
int
phys_world_assign(struct phys_scene *w, const struct phys_ref *r,
    struct phys_value *v, int *link)
{
	const struct phys_values_at va = { world_values, w };
	struct phys_collision now;
	struct phys_mesh *mesh = NULL;
	struct phys_collision *c;

	now.mesh = NULL;
	if (r->scope != PHYS_S_COLLISION || !phys_param_is_size(r->p))
		return assign(w, &va, r, v, link, NULL, NULL);
	if (assign(w, &va, r, v, link, &now, &mesh) < 0)
		return -1;
	c = &w->collisions[r->idx];
	memcpy(c->size, now.size, sizeof c->size);
	if (mesh)
		c->mesh = phys_mesh_cache_keep(&w->meshes, mesh);
	if (mesh && c->hull)	/* the new mesh's: none when flat now */
		c->hull = phys_mesh_cache_hull(&w->meshes, c->mesh);
	return 0;
}

int
phys_world_edit_inertial(struct phys_scene *w, int li)
{
	static const enum phys_param_id ids[] = {
		PHYS_P_LINK_inertial_mass, PHYS_P_LINK_inertial_pose,
		PHYS_P_LINK_inertial_inertia_ixx,
		PHYS_P_LINK_inertial_inertia_ixy,
		PHYS_P_LINK_inertial_inertia_ixz,
		PHYS_P_LINK_inertial_inertia_iyy,
		PHYS_P_LINK_inertial_inertia_iyz,
		PHYS_P_LINK_inertial_inertia_izz
	};
	struct phys_ref r = { NULL, PHYS_S_LINK, li };
	const struct phys_value *v;
	size_t i;

	for (i = 0; i < sizeof ids / sizeof *ids; i++) {
		r.p = &phys_params[ids[i]];
		v = phys_ref_value(w, &r);
		if (v->given && phys_world_edit(w, &r, v) < 0)
			return -1;
	}
	return 0;
}
