/*
 * small_world.h - the world the line harnesses work on: a box resting on
 * a plane and a pendulum, so parameter and control lines find links,
 * collisions, joints and profiles to name (two of ODE and one of MuJoCo).
 */
#ifndef PHYS_FUZZ_WORLD_H
#define PHYS_FUZZ_WORLD_H

#include "world.h"

/*
 * Loads it into w, or aborts (the harness is broken without it); after an
 * input's first line "#mjcf", a small MuJoCo model instead (MJCF, whose
 * edits are MJCF's). How many bytes that line takes.
 */
size_t fuzz_world_for(struct phys_scene *w, const void *data, size_t size);

#endif
