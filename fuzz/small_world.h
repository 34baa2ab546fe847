/*
 * small_world.h - the world the line harnesses work on: a box resting on
 * a plane and a pendulum, so parameter and control lines find links,
 * collisions, joints and profiles to name (two of ODE and one of MuJoCo).
 */
#ifndef PHYS_FUZZ_WORLD_H
#define PHYS_FUZZ_WORLD_H

#include "world.h"

/* Loads it into w, or aborts: the harness is broken without it. */
void fuzz_world(struct phys_scene *w);
/* The same of a small MuJoCo model (MJCF), whose edits are MJCF's. */
void fuzz_mjcf_world(struct phys_scene *w);

#endif
