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
 * A massless link (mass 0 is valid SDF) runs with this share of the mass
 * of the lightest link of its model that has one, or with this many kg
 * when none has: light enough to leave its model's motion as it is,
 * heavy enough for an engine, which divides by the mass.
 */
#define PHYS_MASSLESS_SHARE 1e-3
double phys_link_stand_in_mass(const struct phys_world *w, int link);

/*
 * A joint measured from the poses of its links, for engines whose joints
 * are not coordinates of their own: where its frame and axes were at load,
 * so that positions count from the loaded configuration, the same numbers
 * whichever engine moved the links.
 */
struct phys_joint_frames {
	phys_pose in_child;	/* joint frame, child link frame */
	phys_pose in_parent;	/* at load, parent link frame */
	phys_vec3 axis_parent[2];	/* axes at load, parent link frame */
	phys_quat rel0;		/* parent^-1 child rotation at load */
};

/* The frames of j with its links at parent and child (the world's pose is
 * the identity). */
void phys_joint_frames_init(struct phys_joint_frames *f,
    const struct phys_joint *j, phys_pose parent, phys_pose child);
/* Axis k in the world with the parent at parent: the first turns with
 * the parent, the second with the child (after the first axis's turn t1). */
phys_vec3 phys_joint_frames_axis(const struct phys_joint_frames *f,
    phys_pose parent, int k, double t1);
/* Position and rate per axis of a revolute, prismatic, universal or
 * revolute2 joint from its links' poses and velocities (link origins,
 * world frame; zero for the world); the number of axes, 0 for the others. */
int phys_joint_frames_state(const struct phys_joint_frames *f,
    enum phys_joint_type type, phys_pose parent, phys_vec3 parent_lin,
    phys_vec3 parent_ang, phys_pose child, phys_vec3 child_lin,
    phys_vec3 child_ang, double pos[2], double vel[2]);
/* The turn of q about a unit axis, in (-2 pi, 2 pi]. */
double phys_angle_about(phys_quat q, phys_vec3 axis);
/* The rotation of angle about a unit axis. */
phys_quat phys_quat_about(phys_vec3 axis, double angle);

#ifdef __cplusplus
}
#endif

#endif
