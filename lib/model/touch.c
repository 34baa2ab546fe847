/*
 * touch.c - which collisions may touch (touch.h): Gazebo's rules on given
 * values, and the pairs of one model that start one inside the other,
 * found by a sweep over the collisions' bounding spheres sorted by model
 * and x, so that a world of many models costs what its largest does.
 */
#include "touch.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "excludes.h"
#include "mem.h"
#include "msg.h"
#include "pairkey.h"
#include "pairs.h"
#include "param.h"
#include "sdf.h"

/* At most this many pairs of bounding spheres looked at: past it (a
 * chain of 50,000 links along one axis) the rest are left to the
 * engines, as they were. */
#define MAX_INSIDE_LOOKS 20000000L
/* At most this many pairs kept apart (a hostile file of concentric
 * spheres would make every pair one): past it, the rest are left to the
 * engines. */
#define MAX_INSIDE_PAIRS 65536

bool
phys_links_apart_in_model(const struct phys_scene *w, int l1, int l2,
    const struct phys_value *v1, const struct phys_value *v2)
{
	int m = w->links[l1].skeleton;

	return m == w->links[l2].skeleton && !w->models[m].self_collide &&
	    !PVB(v1, LINK_self_collide) && !PVB(v2, LINK_self_collide);
}

bool
phys_surfaces_may_touch(const struct phys_scene *w, int c1, int c2,
    const struct phys_value *l1, const struct phys_value *l2,
    const struct phys_value *a, const struct phys_value *b)
{
	int k1 = w->collisions[c1].link, k2 = w->collisions[c2].link;

	if (w->npairs && phys_pair_find(w, c1, c2))
		return true;
	if (phys_excludes_pair(w, k1, k2) ||
	    phys_links_apart_in_model(w, k1, k2, l1, l2))
		return false;
	return phys_bitmasks_touch(
	    PVI(a, COLLISION_surface_contact_category_bitmask),
	    PVI(a, COLLISION_surface_contact_collide_bitmask),
	    PVI(b, COLLISION_surface_contact_category_bitmask),
	    PVI(b, COLLISION_surface_contact_collide_bitmask));
}

bool
phys_collision_bound(const struct phys_scene *w, int ci, phys_vec3 *centre,
    double *radius)
{
	const struct phys_collision *c = &w->collisions[ci];
	const double *s = c->size;
	phys_vec3 mid = v3(0, 0, 0);
	double r;

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		r = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) / 2;
		break;
	case PHYS_GEOM_SPHERE:
		r = s[0];
		break;
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CONE:
		r = hypot(s[0], s[1] / 2);
		break;
	case PHYS_GEOM_CAPSULE:
		r = s[0] + s[1] / 2;
		break;
	case PHYS_GEOM_ELLIPSOID:
		r = fmax(s[0], fmax(s[1], s[2]));
		break;
	case PHYS_GEOM_MESH:
		if (!c->mesh || c->mesh->nv == 0)
			return false;
		mid = v3((c->mesh->lo.x + c->mesh->hi.x) / 2,
		    (c->mesh->lo.y + c->mesh->hi.y) / 2,
		    (c->mesh->lo.z + c->mesh->hi.z) / 2);
		r = v3_norm(v3_sub(c->mesh->hi, mid));
		break;
	default:
		return false;
	}
	*centre = phys_pose_apply(phys_pose_mul(w->links[c->link].pose,
	    c->pose), mid);
	*radius = r;
	return isfinite(r) && isfinite(centre->x) && isfinite(centre->y) &&
	    isfinite(centre->z);
}

/* Collision ci's bounding box at the start: its pose in the world and
 * its half extents (m); false for shapes without one. */
static bool
start_box(const struct phys_scene *w, int ci, phys_pose *at, phys_vec3 *half)
{
	const struct phys_collision *c = &w->collisions[ci];
	const double *s = c->size;
	phys_pose mid = { v3(0, 0, 0), { 1, 0, 0, 0 } };

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		*half = v3(s[0] / 2, s[1] / 2, s[2] / 2);
		break;
	case PHYS_GEOM_SPHERE:
		*half = v3(s[0], s[0], s[0]);
		break;
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CONE:
		*half = v3(s[0], s[0], s[1] / 2);
		break;
	case PHYS_GEOM_CAPSULE:
		*half = v3(s[0], s[0], s[0] + s[1] / 2);
		break;
	case PHYS_GEOM_ELLIPSOID:
		*half = v3(s[0], s[1], s[2]);
		break;
	case PHYS_GEOM_MESH:
		if (!c->mesh || c->mesh->nv == 0)
			return false;
		mid.p = v3_scale(v3_add(c->mesh->lo, c->mesh->hi), 0.5);
		*half = v3_sub(c->mesh->hi, mid.p);
		break;
	default:
		return false;
	}
	*at = phys_pose_mul(phys_pose_mul(w->links[c->link].pose, c->pose),
	    mid);
	return true;
}

/* How far a box of half extents half along axes ax reaches along l. */
static double
reach_along(const phys_vec3 ax[3], phys_vec3 half, phys_vec3 l)
{
	return half.x * fabs(v3_dot(ax[0], l)) + half.y *
	    fabs(v3_dot(ax[1], l)) + half.z * fabs(v3_dot(ax[2], l));
}

static void
box_axes(phys_quat q, phys_vec3 ax[3])
{
	ax[0] = phys_quat_rotate(q, v3(1, 0, 0));
	ax[1] = phys_quat_rotate(q, v3(0, 1, 0));
	ax[2] = phys_quat_rotate(q, v3(0, 0, 1));
}

/* The boxes' overlap on each of the 15 directions that may part two
 * boxes (their faces' normals and their edges' crossings): the least. */
bool
phys_collision_overlap(const struct phys_scene *w, int a, int b,
    double *depth, double *thin)
{
	phys_pose pa, pb;
	phys_vec3 ha, hb, A[3], B[3], d, l;
	double n;
	int i;

	if (!start_box(w, a, &pa, &ha) || !start_box(w, b, &pb, &hb))
		return false;
	box_axes(pa.q, A);
	box_axes(pb.q, B);
	d = v3_sub(pb.p, pa.p);
	*depth = INFINITY;
	for (i = 0; i < 15; i++) {
		l = i < 3 ? A[i] : i < 6 ? B[i - 3] :
		    v3_cross(A[(i - 6) / 3], B[(i - 6) % 3]);
		/* edges nearly parallel: their faces' normals part them */
		if (!((n = v3_norm(l)) > 1e-9))
			continue;
		l = v3_scale(l, 1 / n);
		*depth = fmin(*depth, reach_along(A, ha, l) +
		    reach_along(B, hb, l) - fabs(v3_dot(d, l)));
	}
	*thin = 2 * fmin(fmin(fmin(ha.x, ha.y), ha.z),
	    fmin(fmin(hb.x, hb.y), hb.z));
	return isfinite(*depth) && isfinite(*thin);
}

/* ---- one collision wholly inside another ---- */

struct sphere {
	int collision;
	int skeleton;
	phys_vec3 c;	/* centre in the world, m */
	double r;	/* radius, m */
};

/* Where collision ci is in the world at the start. */
static phys_pose
placed(const struct phys_scene *w, int ci)
{
	const struct phys_collision *c = &w->collisions[ci];

	return phys_pose_mul(w->links[c->link].pose, c->pose);
}

/* How far collision a reaches from its centre along the world's unit
 * vector u: exact for boxes, spheres, cylinders, capsules and
 * ellipsoids, its bounding sphere's radius r for other shapes. */
static double
reach(const struct phys_scene *w, const struct sphere *a, phys_vec3 u)
{
	const struct phys_collision *c = &w->collisions[a->collision];
	phys_quat q = placed(w, a->collision).q;
	phys_vec3 x = phys_quat_rotate(q, v3(1, 0, 0));
	phys_vec3 y = phys_quat_rotate(q, v3(0, 1, 0));
	phys_vec3 z = phys_quat_rotate(q, v3(0, 0, 1));
	const double *s = c->size;
	double uz = fabs(v3_dot(u, z));

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		return (fabs(v3_dot(u, x)) * s[0] + fabs(v3_dot(u, y)) * s[1] +
		    uz * s[2]) / 2;
	case PHYS_GEOM_SPHERE:
		return s[0];
	case PHYS_GEOM_CYLINDER:
		return uz * s[1] / 2 + s[0] * sqrt(fmax(0, 1 - uz * uz));
	case PHYS_GEOM_CAPSULE:
		return uz * s[1] / 2 + s[0];
	case PHYS_GEOM_ELLIPSOID:
		return hypot(hypot(s[0] * v3_dot(u, x), s[1] * v3_dot(u, y)),
		    s[2] * uz);
	default:
		return a->r;
	}
}

/* Whether collision a lies wholly inside collision b (a box, a sphere, a
 * cylinder or a capsule) as the world places them at the start. */
static bool
wholly_inside(const struct phys_scene *w, const struct sphere *a,
    const struct sphere *b)
{
	const struct phys_collision *cb = &w->collisions[b->collision];
	const double *s = cb->size;
	phys_pose pb;
	phys_vec3 p, axis[3];
	double half, along;
	int i;

	if (a->r >= b->r || v3_norm(v3_sub(a->c, b->c)) > b->r)
		return false;
	pb = placed(w, b->collision);
	p = phys_pose_apply(phys_pose_inv(pb), a->c);
	for (i = 0; i < 3; i++)
		axis[i] = phys_quat_rotate(pb.q, v3(i == 0, i == 1, i == 2));
	switch (cb->shape) {
	case PHYS_GEOM_BOX:
		return fabs(p.x) + reach(w, a, axis[0]) <= s[0] / 2 &&
		    fabs(p.y) + reach(w, a, axis[1]) <= s[1] / 2 &&
		    fabs(p.z) + reach(w, a, axis[2]) <= s[2] / 2;
	case PHYS_GEOM_SPHERE:
		return v3_norm(p) + a->r <= s[0];
	case PHYS_GEOM_CYLINDER:
		return fabs(p.z) + reach(w, a, axis[2]) <= s[1] / 2 &&
		    hypot(p.x, p.y) + a->r <= s[0];
	case PHYS_GEOM_CAPSULE:
		half = s[1] / 2;
		along = fmax(-half, fmin(half, p.z));
		return v3_norm(v3(p.x, p.y, p.z - along)) + a->r <= s[0];
	default:
		return false;
	}
}

static int
by_skeleton_x(const void *pa, const void *pb)
{
	const struct sphere *a = pa, *b = pb;

	if (a->skeleton != b->skeleton)
		return (a->skeleton > b->skeleton) - (a->skeleton < b->skeleton);
	return (a->c.x > b->c.x) - (a->c.x < b->c.x);
}

/* Whether collision c was read from MJCF: its geoms touch as MuJoCo's,
 * the reference, do. */
static bool
from_mjcf(const struct phys_collision *c)
{
	return c->doc && (c->doc->kind == PHYS_DOC_MJCF ||
	    c->doc->from == PHYS_DOC_MJCF);
}

/* The dynamic collisions of SDF and URDF with a bounding sphere, n of
 * them, sorted by model then x. */
static struct sphere *
spheres(const struct phys_scene *w, size_t *n)
{
	struct sphere *s = phys_xcalloc(w->ncollisions + 1, sizeof *s);
	const struct phys_link *l;
	size_t i;

	*n = 0;
	for (i = 0; i < w->ncollisions; i++) {
		l = &w->links[w->collisions[i].link];
		if (w->models[l->model].is_static || l->skeleton < 0 ||
		    from_mjcf(&w->collisions[i]) ||
		    !phys_collision_bound(w, (int)i, &s[*n].c, &s[*n].r))
			continue;
		s[*n].collision = (int)i;
		s[*n].skeleton = l->skeleton;
		(*n)++;
	}
	qsort(s, *n, sizeof *s, by_skeleton_x);
	return s;
}

bool
phys_joint_keeps_apart(const struct phys_joint *j)
{
	return j->parent >= 0 && j->child >= 0 && !j->touch;
}

int64_t *
phys_joined_links(const struct phys_scene *w, size_t *n)
{
	int64_t *k = phys_xcalloc(w->njoints + 1, sizeof *k);
	size_t i;

	*n = 0;
	for (i = 0; i < w->njoints; i++)
		if (phys_joint_keeps_apart(&w->joints[i]))
			k[(*n)++] = phys_pair_key(w->joints[i].parent,
			    w->joints[i].child, (int64_t)w->nlinks);
	phys_keys_sort(k, *n);
	return k;
}

struct finding {
	const struct phys_scene *w;
	int64_t *joined;
	size_t njoined;
	int64_t *found;
	size_t nfound, cap;
	int (*said)[2];	/* the pairs to say, inner collision first */
	size_t nsaid, said_cap;
};

/* Pair a, b kept if a lies inside b, on two links no joint joins, not
 * already kept apart or paired by the file; to be said where the file's
 * values let them touch. */
static void
consider(struct finding *f, const struct sphere *a, const struct sphere *b)
{
	const struct phys_scene *w = f->w;
	const struct phys_collision *ca = &w->collisions[a->collision];
	const struct phys_collision *cb = &w->collisions[b->collision];
	int la = ca->link, lb = cb->link;

	if (la == lb || !wholly_inside(w, a, b) ||
	    phys_key_listed(f->joined, f->njoined,
	    phys_pair_key(la, lb, (int64_t)w->nlinks)) ||
	    phys_excludes_pair(w, la, lb) ||
	    (w->npairs && phys_pair_find(w, a->collision, b->collision)))
		return;
	PHYS_GROW(f->found, f->nfound, f->cap);
	f->found[f->nfound++] = phys_pair_key(a->collision, b->collision,
	    (int64_t)w->ncollisions);
	if (phys_surfaces_may_touch(w, a->collision, b->collision,
	    w->links[la].vals, w->links[lb].vals, ca->vals, cb->vals)) {
		PHYS_GROW(f->said, f->nsaid, f->said_cap);
		f->said[f->nsaid][0] = a->collision;
		f->said[f->nsaid++][1] = b->collision;
	}
}

static int
by_inner(const void *pa, const void *pb)
{
	const int *a = pa, *b = pb;

	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) :
	    (a[1] > b[1]) - (a[1] < b[1]);
}

/* The pairs found that would touch, in the file's order: a robot's four
 * legs one line, at the first. */
static void
say(struct finding *f)
{
	const struct phys_collision *a, *b;
	size_t i;

	if (f->nsaid > 1)	/* qsort must not be given NULL, even for 0 */
		qsort(f->said, f->nsaid, sizeof *f->said, by_inner);
	phys_warn_batch_begin();
	for (i = 0; i < f->nsaid; i++) {
		a = &f->w->collisions[f->said[i][0]];
		b = &f->w->collisions[f->said[i][1]];
		phys_warnat(PHYS_AT(a->doc, a->node), "collision '%s' starts "
		    "wholly inside collision '%s' of its own model, which "
		    "self_collide lets it touch: no engine pushes it out as "
		    "another does (ODE jolts the links, MuJoCo diverges), so "
		    "the two are kept apart (phys(7), SDF SUPPORT)",
		    a->name, b->name);
	}
	phys_warn_batch_end();
}

void
phys_inside_find(struct phys_scene *w, bool quiet)
{
	struct finding f = { w, NULL, 0, NULL, 0, 0, NULL, 0, 0 };
	struct sphere *s;
	size_t n, i, j;
	long looks = 0;

	s = spheres(w, &n);
	f.joined = phys_joined_links(w, &f.njoined);
	/* each collision as the outer one, the others whose centres are
	 * within its radius along x as the inner */
	for (i = 0; i < n && looks < MAX_INSIDE_LOOKS &&
	    f.nfound < MAX_INSIDE_PAIRS; i++) {
		for (j = i; j-- > 0 && s[j].skeleton == s[i].skeleton &&
		    s[i].c.x - s[j].c.x <= s[i].r; looks++)
			consider(&f, &s[j], &s[i]);
		for (j = i + 1; j < n && s[j].skeleton == s[i].skeleton &&
		    s[j].c.x - s[i].c.x <= s[i].r; j++, looks++)
			consider(&f, &s[j], &s[i]);
	}
	if (!quiet)
		say(&f);
	phys_keys_sort(f.found, f.nfound);
	free(w->inside);
	w->inside = f.found;
	w->ninside = f.nfound;
	free(f.joined);
	free(f.said);
	free(s);
}

bool
phys_inside_listed(const struct phys_scene *w, int c1, int c2)
{
	return w->ninside && phys_key_listed(w->inside, w->ninside,
	    phys_pair_key(c1, c2, (int64_t)w->ncollisions));
}
