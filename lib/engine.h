/*
 * engine.h - the small interface every physics engine implements.
 *
 * The engine reads parameters from the world model's registry values and
 * owns nothing of the model. Poses are link frames (not centres of mass);
 * velocities are those of the link frame's origin, in the world frame.
 */
#ifndef PHYS_ENGINE_H
#define PHYS_ENGINE_H

#include <stdbool.h>

#include "geom.h"
#include "world.h"

struct phys_engine;

/* What the engine actually runs with, read back from it. */
struct phys_engine_config {
	const char *solver;	/* "world" or "quick" */
	int iters;
	double sor, cfm, erp;
	double step;		/* s */
	double max_correcting_vel, surface_layer;
	int max_contacts;
	const char *friction_model;
	phys_vec3 gravity;
};

struct phys_engine_options {
	bool skip_unsupported;	/* unsupported shapes: warn and skip */
};

/* Build bodies, geometry and joints, set up with the values of a
 * <physics> profile; NULL with phys_error() on failure. */
struct phys_engine *phys_engine_new(struct phys_world *w,
    const struct phys_value *profile, const struct phys_engine_options *opt);
void phys_engine_free(struct phys_engine *e);

/* Apply every parameter of a <physics> profile (solver type included). */
int phys_engine_apply_profile(struct phys_engine *e,
    const struct phys_value *vals);
/* Apply the world's gravity (and other world values). */
void phys_engine_apply_world(struct phys_engine *e);
/* Re-read one entity's registry values after a change. */
int phys_engine_apply_link(struct phys_engine *e, int link);
int phys_engine_apply_joint(struct phys_engine *e, int joint);
/* Re-read a collision's size (its shape stays): after a resize. */
int phys_engine_apply_collision(struct phys_engine *e, int collision);

/* One step of the profile's max_step_size. Returns -1 with phys_error()
 * naming the body when the state stops being finite. */
int phys_engine_step(struct phys_engine *e);
double phys_engine_time(const struct phys_engine *e);
long phys_engine_iterations(const struct phys_engine *e);
void phys_engine_config(const struct phys_engine *e,
    struct phys_engine_config *c);

void phys_engine_link_pose(const struct phys_engine *e, int link,
    phys_pose *out);
void phys_engine_link_vel(const struct phys_engine *e, int link,
    phys_vec3 *lin, phys_vec3 *ang);
/* Centre of mass in the world, and mass and world inertia about it. */
void phys_engine_link_com(const struct phys_engine *e, int link,
    phys_vec3 *com, phys_vec3 *com_vel);
bool phys_engine_link_dynamic(const struct phys_engine *e, int link);
/* Mass and inertia about the centre of mass (ixx iyy izz ixy ixz iyz, in
 * the inertial frame) as the engine holds them; the model's for statics. */
void phys_engine_link_mass(const struct phys_engine *e, int link,
    double *mass, double inertia[6]);
int phys_engine_set_link_pose(struct phys_engine *e, int link, phys_pose p);
int phys_engine_set_link_vel(struct phys_engine *e, int link,
    const phys_vec3 *lin, const phys_vec3 *ang);

/* Joint position and rate per axis; the number of axes is returned. */
int phys_engine_joint_state(const struct phys_engine *e, int joint,
    double pos[2], double vel[2]);
/* Force and torque the joint applies to its child, world frame. */
void phys_engine_joint_wrench(const struct phys_engine *e, int joint,
    phys_vec3 *force, phys_vec3 *torque);
/* Generalized force along each joint axis (N m or N) in the last step:
 * the constraint's, limits and friction included, plus springs and
 * damping. Returns the number of axes. */
int phys_engine_joint_effort(const struct phys_engine *e, int joint,
    double effort[2]);
/* Contacts found in the last step. */
int phys_engine_contact_count(const struct phys_engine *e);

#endif
