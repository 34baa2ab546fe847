/*
 * engine_mujoco_hfield.h - a box or a cylinder lying on a MuJoCo
 * heightfield's triangles, held at the points MuJoCo's plane gives it.
 */
#ifndef PHYS_ENGINE_MUJOCO_HFIELD_H
#define PHYS_ENGINE_MUJOCO_HFIELD_H

#include <stdbool.h>

#include <mujoco/mujoco.h>

/*
 * Put phys's box-heightfield and cylinder-heightfield collisions in
 * MuJoCo's table of collision functions, which is the process's: they
 * call MuJoCo's own and act only for a model ours(m) answers true for.
 * Again: nothing more.
 */
void phys_mujoco_hfield_install(bool (*ours)(const mjModel *m));

#endif
