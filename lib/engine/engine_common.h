/*
 * engine_common.h - what every engine module computes the same way, below
 * both the modules and the dispatcher (lib/engine/engine.c).
 */
#ifndef PHYS_ENGINE_COMMON_H
#define PHYS_ENGINE_COMMON_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Simulated time after n steps of h from base: the double nearest the
 * exact decimal for steps of 1/k s or of a decimal fraction of a second,
 * also after a change of step (0.7, not 0.7000000000000001; 1.64 after
 * 1.5 s and 140 steps of 0.001 s), which every engine's clock uses. */
double phys_engine_clock(double base, long n, double h);

/* The spring and viscous damping force along axis k (0 or 1) of a joint
 * with values v at position pos and rate vel: every engine applies it as
 * an explicit generalized force. */
double phys_joint_spring_damper(const struct phys_value *v, int k, double pos,
    double vel);
/* A link's mass and inertia (ixx iyy izz ixy ixz iyz) as its values give
 * them. */
void phys_link_values_mass(const struct phys_value *v, double *mass,
    double inertia[6]);

#ifdef __cplusplus
}
#endif

#endif
