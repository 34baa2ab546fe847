/*
 * reach.h - how far a collision's shape reaches along a direction (its
 * support function): where a shape starts against a plane, the ground a
 * run checks at its start and after a resize, and the ground
 * phys-sdf world sets a model on.
 */
#ifndef PHYS_REACH_H
#define PHYS_REACH_H

#include "geom.h"
#include "world_types.h"

/* How far collision c reaches from its origin along unit direction d of
 * its own frame (a mesh: its farthest vertex); NaN for a plane or a
 * heightmap, which reach without bound. */
double phys_collision_reach(const struct phys_collision *c, phys_vec3 d);

/* The lowest point of collision c placed at 'at' (its frame in the
 * world), along unit direction up of the world: how far along up it
 * lies; NaN where c has no reach. */
double phys_collision_lowest(const struct phys_collision *c, phys_pose at,
    phys_vec3 up);

#endif
