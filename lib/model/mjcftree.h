/*
 * mjcftree.h - the body tree of a world written as MJCF (mjcfwrite.c),
 * which the keyframes written with it (mjcfkey_write.c) follow.
 */
#ifndef PHYS_MJCFTREE_H
#define PHYS_MJCFTREE_H

#include <stdbool.h>

#include "geom.h"
#include "param.h"
#include "world_types.h"

/* Per link and per joint of the world written. */
struct phys_mjcf_tree {
	int *holder;		/* per link: the joint its body hangs by, -1 */
	int *up;		/* per link: the parent body's link, -1 world */
	bool *free;		/* per link: its body has a free joint */
	bool *loop;		/* per joint: it closes a loop: its joints are
				 * a ghost body's, hanging from its parent
				 * where its child is */
	bool *tie;		/* per joint: it closes a loop as a ball or
				 * fixed joint, which MJCF says as an
				 * equality (connect, weld) of its links */
};

/* Whether link li is a mocap body: a kinematic link of a moving model
 * that no joint holds, which MuJoCo moves where its mocap pose says. */
static inline bool
phys_mjcf_is_mocap(const struct phys_scene *w,
    const struct phys_mjcf_tree *t, int li)
{
	const struct phys_link *l = &w->links[li];

	return !w->models[l->model].is_static &&
	    PVB(l->vals, LINK_kinematic) && t->holder[li] < 0;
}

/* Where the MJCF joints of phys joint ji stand in its child's body: its
 * anchor, and its axis k (0 or 1) as a unit vector. */
static inline phys_vec3
phys_mjcf_joint_pos(const struct phys_scene *w, int ji)
{
	const struct phys_joint *j = &w->joints[ji];

	return phys_pose_apply(phys_pose_inv(w->links[j->child].pose),
	    j->pose.p);
}

static inline phys_vec3
phys_mjcf_joint_axis(const struct phys_scene *w, int ji, int k)
{
	const struct phys_joint *j = &w->joints[ji];

	return v3_normalize(phys_quat_rotate(phys_quat_conj(
	    w->links[j->child].pose.q), j->axis[k]));
}

#endif
