/*
 * startpose.h - where a world's links start once each joint whose file
 * pose lies outside its limits is set at its nearest limit, as a run
 * starts them under every engine (sim.c): the pose phys-sdf world
 * --ground sets on the ground.
 */
#ifndef PHYS_STARTPOSE_H
#define PHYS_STARTPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "world_types.h"

/* No link: what phys_links_joined avoids when it avoids none. */
#define PHYS_NO_LINK (-2)

/*
 * The links joined to link start, itself first, through every joint but
 * skip (-1: none), into out (room for w->nlinks) and *n: the joint that
 * joins one of them to link avoid (-1: the world; PHYS_NO_LINK: none),
 * which ends the walk, or -1.
 */
int phys_links_joined(const struct phys_scene *w, int start, int skip,
    int avoid, int *out, size_t *n);
/* Whether joint j lies on a loop (its child's side joined back to its
 * parent by another way): its side cannot move alone. */
bool phys_joint_in_loop(const struct phys_scene *w, int j);

/*
 * The world's links as trees, when its joints make trees: each link the
 * child of one joint at most (its up joint, or -1), none the child of
 * the world, no loop. Then the links beyond a joint are its child and
 * the links below it, and moving what lies beyond several joints takes
 * one pass down order (each link after the one it hangs from), not one
 * walk per joint: a chain of 20,000 links whose every joint started
 * outside its limits took 129 s to start.
 */
struct phys_link_tree {
	int *up;	/* per link: the joint it hangs from, or -1 */
	int *order;	/* the links, each after its up joint's parent */
};

/* w's trees into t (phys_link_tree_free frees them): 0, or -1 when its
 * joints do not make trees (t then holds nothing). */
int phys_link_tree(const struct phys_scene *w, struct phys_link_tree *t);
void phys_link_tree_free(struct phys_link_tree *t);
/* The link link hangs from in t (-1: none, or the world). */
int phys_link_tree_parent(const struct phys_scene *w,
    const struct phys_link_tree *t, int link);
/* The motion of joint jt's child's side as its position changes by d
 * about (along) axis through anchor: x -> q (x - a) + a for a turn. */
phys_pose phys_joint_motion(const struct phys_joint *jt, double d,
    phys_vec3 axis, phys_vec3 anchor);
/*
 * Each link's motion down t into move (w->nlinks), and into moved (or
 * NULL) whether it moves: the motion of the link it hangs from, then
 * its own joint's where joint(ctx, j, &m) gives one, m as the links were
 * before any moved (T_l = T_parent M_j). The count of joints that gave
 * one.
 */
int phys_link_tree_motions(const struct phys_scene *w,
    const struct phys_link_tree *t,
    bool (*joint)(void *ctx, int j, phys_pose *m), void *ctx,
    phys_pose *move, bool *moved);

/*
 * Each link's frame in the world into at (w->nlinks): its pose as loaded,
 * turned or slid with the links beyond every revolute or prismatic joint
 * whose position (0 where the file puts its links) is outside its
 * limits, to the nearer one. Joints a run cannot set are left as they
 * are: two-axis, screw and gearbox joints, those a loop closes, those
 * whose child the world holds, and an MJCF model's, which start where
 * MuJoCo starts them. The count of joints moved.
 */
int phys_links_within_limits(const struct phys_scene *w, phys_pose *at);

#endif
