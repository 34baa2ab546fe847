/* startpose.c - the links beyond a joint, and where they start
 * (startpose.h). */
#include "startpose.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "mem.h"
#include "param.h"
#include "sdf.h"

int
phys_links_joined(const struct phys_scene *w, int start, int skip, int avoid,
    int *out, size_t *n)
{
	bool *in = phys_xcalloc(w->nlinks, sizeof *in);
	size_t head = 0, k;
	int back = -1;

	*n = 0;
	out[(*n)++] = start;
	in[start] = true;
	while (head < *n && back < 0) {
		int l = out[head++];

		for (k = w->link_joints_at[l]; k < w->link_joints_at[l + 1];
		    k++) {
			int ji = w->link_joints[k];
			const struct phys_joint *o = &w->joints[ji];
			int other = o->parent == l ? o->child : o->parent;

			if (ji == skip)
				continue;
			if (other == avoid) {
				back = ji;
				break;
			}
			if (other >= 0 && !in[other]) {
				in[other] = true;
				out[(*n)++] = other;
			}
		}
	}
	free(in);
	return back;
}

bool
phys_joint_in_loop(const struct phys_scene *w, int j)
{
	const struct phys_joint *jt = &w->joints[j];
	int *links = phys_xcalloc(w->nlinks ? w->nlinks : 1, sizeof *links);
	size_t n;
	bool loop = jt->child >= 0 && phys_links_joined(w, jt->child, j,
	    jt->parent, links, &n) >= 0;

	free(links);
	return loop;
}

int
phys_link_tree(const struct phys_scene *w, struct phys_link_tree *t)
{
	size_t j, k, n = 0, head = 0, l;

	t->up = phys_xcalloc(w->nlinks + 1, sizeof *t->up);
	t->order = phys_xcalloc(w->nlinks + 1, sizeof *t->order);
	for (l = 0; l < w->nlinks; l++)
		t->up[l] = -1;
	for (j = 0; j < w->njoints; j++) {
		int c = w->joints[j].child;

		if (c < 0 || t->up[c] >= 0)
			goto not_trees;
		t->up[c] = (int)j;
	}
	for (l = 0; l < w->nlinks; l++)
		if (t->up[l] < 0 || w->joints[t->up[l]].parent < 0)
			t->order[n++] = (int)l;
	while (head < n) {
		int p = t->order[head++];

		for (k = w->link_joints_at[p]; k < w->link_joints_at[p + 1];
		    k++) {
			const struct phys_joint *o =
			    &w->joints[w->link_joints[k]];

			if (o->parent == p && o->child != p &&
			    t->up[o->child] == w->link_joints[k])
				t->order[n++] = o->child;
		}
	}
	if (n == w->nlinks)
		return 0;
not_trees:	/* a link the child of two joints, or of the world; a loop */
	phys_link_tree_free(t);
	return -1;
}

void
phys_link_tree_free(struct phys_link_tree *t)
{
	free(t->up);
	free(t->order);
	t->up = t->order = NULL;
}

int
phys_link_tree_parent(const struct phys_scene *w,
    const struct phys_link_tree *t, int link)
{
	return t->up[link] < 0 ? -1 : w->joints[t->up[link]].parent;
}

/* Where joint j of the world would start, outside its limits: its
 * nearest limit; NAN when it starts within them or a run leaves it. */
static double
limit_start(const struct phys_scene *w, size_t j)
{
	const struct phys_joint *jt = &w->joints[j];
	struct phys_axis_values a;

	if ((jt->type != PHYS_JOINT_REVOLUTE &&
	    jt->type != PHYS_JOINT_PRISMATIC) || jt->child < 0 ||
	    (jt->doc && jt->doc->from == PHYS_DOC_MJCF) ||
	    w->links[jt->child].welded ||
	    w->models[w->links[jt->child].model].is_static ||
	    PVB(w->links[jt->child].vals, LINK_kinematic))
		return NAN;
	a = phys_joint_axis_values(jt->vals, 0);
	if (0 < a.lower - 1e-9)
		return a.lower;
	if (0 > a.upper + 1e-9)
		return a.upper;
	return NAN;
}

/* Whether a joint other than j holds one of links (n) to the world: the
 * links beyond j then close a loop through it. */
static bool
held_by_world(const struct phys_scene *w, size_t j, const int *links,
    size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = w->link_joints_at[links[i]];
		    k < w->link_joints_at[links[i] + 1]; k++) {
			const struct phys_joint *o =
			    &w->joints[w->link_joints[k]];

			if ((size_t)w->link_joints[k] != j &&
			    (o->parent < 0 || o->child < 0))
				return true;
		}
	return false;
}

phys_pose
phys_joint_motion(const struct phys_joint *jt, double d, phys_vec3 axis,
    phys_vec3 anchor)
{
	phys_pose move = PHYS_POSE_IDENTITY;

	if (jt->type == PHYS_JOINT_PRISMATIC) {
		move.p = v3_scale(axis, d);
	} else {
		move.q = phys_quat_about(axis, d);
		move.p = v3_sub(anchor, phys_quat_rotate(move.q, anchor));
	}
	return move;
}

/* The motion that sets joint j at to, its child's side carried from
 * where the world put it to child (the child's frame now). */
static phys_pose
limit_motion(const struct phys_scene *w, size_t j, phys_pose child,
    double to)
{
	const struct phys_joint *jt = &w->joints[j];
	const struct phys_link *c = &w->links[jt->child];
	phys_pose move, frame;
	phys_vec3 axis;

	move = phys_pose_mul(child, phys_pose_inv(c->pose));
	frame = phys_pose_mul(move, jt->pose);
	axis = phys_quat_rotate(move.q, jt->axis[0]);
	return phys_joint_motion(jt, to, axis, frame.p);
}

int
phys_link_tree_motions(const struct phys_scene *w,
    const struct phys_link_tree *t,
    bool (*joint)(void *ctx, int j, phys_pose *m), void *ctx,
    phys_pose *move, bool *moved)
{
	phys_pose m;
	size_t i;
	int l, p, n = 0;
	bool moves;

	for (i = 0; i < w->nlinks; i++) {
		l = t->order[i];
		p = phys_link_tree_parent(w, t, l);
		moves = p >= 0 && (!moved || moved[p]);
		move[l] = p < 0 ? PHYS_POSE_IDENTITY : move[p];
		if (t->up[l] >= 0 && joint(ctx, t->up[l], &m)) {
			move[l] = phys_pose_mul(move[l], m);
			moves = true;
			n++;
		}
		if (moved)
			moved[l] = moves;
	}
	return n;
}

/* Joint j's motion to the nearer of its limits, as the world put it. */
static bool
limit_joint(void *ctx, int j, phys_pose *m)
{
	const struct phys_scene *w = ctx;
	double to = limit_start(w, (size_t)j);

	if (isnan(to))
		return false;
	*m = limit_motion(w, (size_t)j, w->links[w->joints[j].child].pose,
	    to);
	return true;
}

int
phys_links_within_limits(const struct phys_scene *w, phys_pose *at)
{
	struct phys_link_tree t;
	int *links;
	phys_pose *move, m;
	size_t i, j, n;
	double to;
	int moved = 0;

	if (phys_link_tree(w, &t) == 0) {
		move = phys_xcalloc(w->nlinks + 1, sizeof *move);
		moved = phys_link_tree_motions(w, &t, limit_joint,
		    (void *)w, move, NULL);
		for (i = 0; i < w->nlinks; i++)
			at[i] = phys_pose_mul(move[i], w->links[i].pose);
		free(move);
		phys_link_tree_free(&t);
		return moved;
	}
	links = phys_xcalloc(w->nlinks ? w->nlinks : 1, sizeof *links);
	for (i = 0; i < w->nlinks; i++)
		at[i] = w->links[i].pose;
	for (j = 0; j < w->njoints; j++) {
		const struct phys_joint *jt = &w->joints[j];

		if (isnan(to = limit_start(w, j)) ||
		    phys_links_joined(w, jt->child, (int)j, jt->parent, links,
		    &n) >= 0 || held_by_world(w, j, links, n))
			continue;
		m = limit_motion(w, j, at[jt->child], to);
		for (i = 0; i < n; i++)
			at[links[i]] = phys_pose_mul(m, at[links[i]]);
		moved++;
	}
	free(links);
	return moved;
}
