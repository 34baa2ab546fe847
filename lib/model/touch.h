/*
 * touch.h - which collisions of a world may touch: Gazebo's rules on
 * given values, and the pairs of one model kept apart because one starts
 * wholly inside the other.
 *
 * A robot file may leave a collision inside another of its own model's
 * (a knee motor's cylinder inside the trunk, where the thigh's joint
 * turns it in place): no engine can push it out, and each tries its own
 * way (ODE jolts the trunk, MuJoCo diverges, DART takes a third of a
 * second a step, Simbody's meshes see no contact). Such pairs are kept
 * apart for every run, as an MJCF <exclude> would keep their links, and
 * said at load where the file's self_collide lets them touch.
 */
#ifndef PHYS_TOUCH_H
#define PHYS_TOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geom.h"
#include "world_types.h"

/* Whether links l1 and l2, of values v1 and v2, are of one skeleton (a
 * model's links and the nested ones its joints hang from them) that
 * collides with itself nowhere: neither its model nor either link asks
 * to (self_collide). */
bool phys_links_apart_in_model(const struct phys_scene *w, int l1, int l2,
    const struct phys_value *v1, const struct phys_value *v2);

/*
 * Whether collisions c1 and c2 may touch by Gazebo's rules on the values
 * given: l1 and l2 their links', a and b their own. Links of one model
 * only when the model or either link asks to (self_collide); two
 * surfaces only when the category bitmask of one meets the collide
 * bitmask of the other; a pair the world lists (pairs.h) always; a pair
 * an exclusion or a weld keeps apart (excludes.h) never. The pairs that
 * start one inside the other are not asked about here.
 */
bool phys_surfaces_may_touch(const struct phys_scene *w, int c1, int c2,
    const struct phys_value *l1, const struct phys_value *l2,
    const struct phys_value *a, const struct phys_value *b);

/* The sphere around collision ci as the world places it at the start:
 * its centre and radius (m); false for shapes without one (planes,
 * heightmaps, a mesh not loaded). */
bool phys_collision_bound(const struct phys_scene *w, int ci,
    phys_vec3 *centre, double *radius);

/* How far the boxes that bound collisions a and b at the start overlap,
 * along the direction they overlap least (m; 0 or less: apart or
 * touching), and into *thin the least thickness of the two boxes; false
 * for shapes without a box (planes, heightmaps, a mesh not loaded). */
bool phys_collision_overlap(const struct phys_scene *w, int a, int b,
    double *depth, double *thin);

/* Whether joint j keeps its two links from touching: every joint of two
 * links but one whose links may touch (an MJCF connect's or weld's). */
bool phys_joint_keeps_apart(const struct phys_joint *j);

/* The links each joint that keeps them apart joins, as sorted pair keys
 * (pairkey.h), n of them; the caller frees them. */
int64_t *phys_joined_links(const struct phys_scene *w, size_t *n);

/* The pairs of collisions of one model (two links no joint joins) that
 * start one wholly inside the other, into w->inside; unless quiet,
 * warned about, once for all, where the file's values let them touch. */
void phys_inside_find(struct phys_scene *w, bool quiet);
/* Whether collisions c1 and c2 are such a pair. */
bool phys_inside_listed(const struct phys_scene *w, int c1, int c2);

#endif
