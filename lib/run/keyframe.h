/*
 * keyframe.h - a model's named start state (an MJCF keyframe, which the
 * MJCF reader keeps in the model's links: mjcf.h) set as a run's state.
 */
#ifndef PHYS_KEYFRAME_H
#define PHYS_KEYFRAME_H

#include "engine.h"
#include "world.h"

/* 0 when some model of w has the keyframe name, else -1 with
 * phys_error() naming the keyframes there are. */
int phys_keyframe_check(const struct phys_scene *w, const char *name);
/* Every dynamic link that has keyframe name moved to its pose and
 * velocity in it (its model's frame as loaded): 0, or -1 with
 * phys_error(). */
int phys_keyframe_apply(struct phys_engine *e, const struct phys_scene *w,
    const char *name);

#endif
