/*
 * mjcfwrite.h - a loaded world written as a MuJoCo model (MJCF, as MuJoCo
 * 2.2.2 reads it): its links as bodies nested along their joints, their
 * masses and inertia, the joints MJCF can hold, the collisions as geoms,
 * the starting profile as <option>.
 */
#ifndef PHYS_MJCFWRITE_H
#define PHYS_MJCFWRITE_H

#include "base.h"
#include "world_types.h"

/*
 * Append the MJCF of w to b. A joint MJCF cannot hold (a screw, a
 * gearbox, one closing a loop) fails, with phys_error() at the joint's
 * file:line; what is left out without changing the motion (visuals,
 * heightmaps) is said once as a warning.
 */
int phys_mjcf_write(const struct phys_scene *w, struct phys_buf *b);

#endif
