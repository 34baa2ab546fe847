/*
 * apart.h - joints whose two links an engine let come apart: each
 * joint's anchor, as the world loads it, carried by each of its links,
 * measured against the other's. An engine of free bodies held together
 * by constraints (ODE, Bullet) whose iterative solver does not settle a
 * stiff chain in its iterations lets a joint open; the joint positions
 * it reports then say nothing of it.
 */
#ifndef PHYS_APART_H
#define PHYS_APART_H

#include "geom.h"
#include "world_types.h"

/* A gap at a joint's anchor this wide (m) is a joint come apart: a
 * constraint that holds leaves well under a millimetre. */
#define PHYS_APART_GAP	0.01

struct phys_apart;

struct phys_apart *phys_apart_new(const struct phys_scene *w);
void phys_apart_free(struct phys_apart *a);
/* Link's pose was set in the run: its joints may open where it was put,
 * and are not measured from then on. */
void phys_apart_moved(struct phys_apart *a, int link);

/* Where a link is now. */
typedef void phys_apart_pose_fn(const void *ctx, int link, phys_pose *out);

/* The widest joint at least PHYS_APART_GAP open with its links where
 * pose puts them, its gap in *gap and how many others are open in
 * *others; -1 when none is. */
int phys_apart_widest(const struct phys_apart *a, phys_apart_pose_fn *pose,
    const void *ctx, double *gap, int *others);

#endif
