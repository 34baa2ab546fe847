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

/* Simulated time after n steps of h from base: exact for h = 1/k (0.7,
 * not 0.7000000000000001), which every engine's clock uses. */
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

/*
 * A screw joint's travel per radian of turn. SDF 1.10's screw_thread_pitch
 * is metres per revolution, positive for a right-hand thread; the older
 * thread_pitch is radians per metre, positive for a left-hand thread
 * (Gazebo classic's reading), so x = -theta / thread_pitch.
 */
double phys_joint_screw_lead(const struct phys_value *v);

/*
 * The mass a massless link (mass 0 is valid SDF) runs with: this share of
 * the mass of the lightest link of its model that has one, or this many
 * kg when none has; light enough to leave its model's motion as it is,
 * heavy enough for an engine, which divides by the mass.
 */
#define PHYS_MASSLESS_SHARE 1e-3
double phys_link_massless_mass(const struct phys_world *w, int li);

#ifdef __cplusplus
}
#endif

#endif
