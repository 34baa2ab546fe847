/*
 * apart.c - joints whose links an engine let come apart (apart.h). A
 * revolute, ball, universal, revolute2 or fixed joint keeps its anchor
 * one point of both links; a prismatic or screw joint keeps it on its
 * axis, carried by the parent. A gearbox has no anchor.
 */
#include "apart.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "mem.h"

struct anchor {
	bool measured;
	bool slides;		/* only off the axis is a gap */
	phys_vec3 in_parent, in_child;	/* the anchor in each link's frame */
	phys_vec3 axis;		/* the parent's, unit */
};

struct phys_apart {
	const struct phys_scene *w;
	struct anchor *a;	/* per joint */
};

static phys_pose
link_pose_loaded(const struct phys_scene *w, int link)
{
	return link < 0 ? (phys_pose){ { 0, 0, 0 }, { 1, 0, 0, 0 } } :
	    w->links[link].pose;
}

static struct anchor
anchor_of(const struct phys_scene *w, const struct phys_joint *j)
{
	phys_pose pi = phys_pose_inv(link_pose_loaded(w, j->parent));
	phys_pose ci = phys_pose_inv(link_pose_loaded(w, j->child));
	struct anchor a = { 0 };

	if (j->type == PHYS_JOINT_GEARBOX || j->child < 0)
		return a;
	a.measured = true;
	a.slides = j->type == PHYS_JOINT_PRISMATIC ||
	    j->type == PHYS_JOINT_SCREW;
	a.in_parent = phys_pose_apply(pi, j->pose.p);
	a.in_child = phys_pose_apply(ci, j->pose.p);
	a.axis = phys_quat_rotate(pi.q, j->axis[0]);
	return a;
}

struct phys_apart *
phys_apart_new(const struct phys_scene *w)
{
	struct phys_apart *a = phys_xcalloc(1, sizeof *a);
	size_t i;

	a->w = w;
	a->a = phys_xcalloc(w->njoints + 1, sizeof *a->a);
	for (i = 0; i < w->njoints; i++)
		a->a[i] = anchor_of(w, &w->joints[i]);
	return a;
}

void
phys_apart_free(struct phys_apart *a)
{
	if (!a)
		return;
	free(a->a);
	free(a);
}

void
phys_apart_moved(struct phys_apart *a, int link)
{
	size_t i;

	for (i = 0; i < a->w->njoints; i++)
		if (a->w->joints[i].parent == link ||
		    a->w->joints[i].child == link)
			a->a[i].measured = false;
}

/* The gap at joint i's anchor with its links at pp and cp (m). */
static double
gap_at(const struct anchor *a, phys_pose pp, phys_pose cp)
{
	phys_vec3 p = phys_pose_apply(pp, a->in_parent);
	phys_vec3 c = phys_pose_apply(cp, a->in_child);
	phys_vec3 d = { c.x - p.x, c.y - p.y, c.z - p.z };
	phys_vec3 u;
	double along;

	if (a->slides) {
		u = phys_quat_rotate(pp.q, a->axis);
		along = d.x * u.x + d.y * u.y + d.z * u.z;
		d.x -= along * u.x;
		d.y -= along * u.y;
		d.z -= along * u.z;
	}
	return sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

int
phys_apart_widest(const struct phys_apart *a, phys_apart_pose_fn *pose,
    const void *ctx, double *gap, int *others)
{
	const struct phys_joint *j;
	phys_pose pp, cp;
	double g;
	size_t i;
	int widest = -1, open = 0;

	*gap = 0;
	for (i = 0; i < a->w->njoints; i++) {
		if (!a->a[i].measured)
			continue;
		j = &a->w->joints[i];
		pp = link_pose_loaded(a->w, -1);
		if (j->parent >= 0)
			pose(ctx, j->parent, &pp);
		pose(ctx, j->child, &cp);
		if (!((g = gap_at(&a->a[i], pp, cp)) >= PHYS_APART_GAP))
			continue;
		open++;
		if (g > *gap) {
			*gap = g;
			widest = (int)i;
		}
	}
	*others = open > 0 ? open - 1 : 0;
	return widest;
}
