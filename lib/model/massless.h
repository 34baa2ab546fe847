/*
 * massless.h - a model none of whose links has a mass (a URDF of links
 * without <inertial>, a PyBullet tray of <mass value="0">), run with the
 * mass its shapes give.
 */
#ifndef PHYS_MASSLESS_H
#define PHYS_MASSLESS_H

#include "world.h"

/* The density a massless model's links are given, kg/m^3: water's, as
 * phys-inertia fix and MuJoCo's compiler assume. */
#define PHYS_MASSLESS_DENSITY 1000

/*
 * In the run's values rv, each moving link of mass 0 of a model none of
 * whose links has a mass gets the mass, centre and inertia of its
 * collision shapes at PHYS_MASSLESS_DENSITY (each collision's own
 * <density> first), as phys-inertia fix --all would write them: 1/1000
 * of no mass (1 g stand-ins) is no scale for a robot, and ODE's and
 * Bullet's solvers lose a chain of such links. Links of no volume keep
 * the stand-in. Said once a model. The number of links given a mass.
 */
int phys_massless_models_fill(struct phys_run_values *rv,
    const struct phys_scene *w);
/* The same into the world's own values: a world loaded to be written as
 * it runs (MJCF out). */
int phys_massless_models_fill_world(struct phys_scene *w);

#endif
