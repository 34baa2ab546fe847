/*
 * engine_mujoco_hfield.h - a box lying on a MuJoCo heightfield's
 * triangles, held by its corners as on a plane.
 */
#ifndef PHYS_ENGINE_MUJOCO_HFIELD_H
#define PHYS_ENGINE_MUJOCO_HFIELD_H

#include <stdbool.h>

#include <mujoco/mujoco.h>

/*
 * Put phys's box-heightfield collision in MuJoCo's table of collision
 * functions, which is the process's: it calls MuJoCo's own and acts only
 * for a model ours(m) answers true for. Again: nothing more.
 */
void phys_mujoco_hfield_install(bool (*ours)(const mjModel *m));

#endif
