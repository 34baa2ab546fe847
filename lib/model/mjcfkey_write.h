/*
 * mjcfkey_write.h - the keyframes a world's links hold (<phys:key>,
 * mjcf.h) written as MJCF <keyframe>: each key's qpos and qvel in the
 * joint order of the body tree mjcfwrite.c writes, each joint's values
 * fitted to the links' poses and velocities in MuJoCo's conventions.
 */
#ifndef PHYS_MJCFKEY_WRITE_H
#define PHYS_MJCFKEY_WRITE_H

#include <stdbool.h>

#include "base.h"
#include "mjcftree.h"
#include "mjcfact.h"
#include "world_types.h"

/*
 * Append <keyframe> to b with one <key> per keyframe name the links of w
 * hold (nothing when none does). A link without the key stays where its
 * joints are at rest, on its parent. A key that the written joints cannot
 * hold (a link moved where its joint cannot take it, or moving as it
 * cannot) is left out and said once as a warning naming it; a loop's
 * ghost body may be left off its child, for the weld to close. A key's
 * commands for the actuators acts (n, as written), kept in their plugins
 * (<phys:key> there), are its ctrl: a servo's target, a motor's force.
 */
/* Axis k's MuJoCo ref of joint j, which phys measures from: an MJCF
 * joint's, kept in its axis as <phys:ref> (mjcf.h); 0 for others. */
double phys_mjcf_joint_ref(const struct phys_joint *j, int k);

void phys_mjcf_write_keys(const struct phys_scene *w,
    const struct phys_mjcf_tree *t, const struct phys_mjcf_actuator *acts,
    size_t nacts, struct phys_buf *b);

#endif
