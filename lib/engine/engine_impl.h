/*
 * engine_impl.h - what each engine module provides to lib/engine.c, the
 * one place that picks an engine. Each engine keeps its state in its own
 * struct; the functions mean what the phys_engine_ ones of engine.h say.
 */
#ifndef PHYS_ENGINE_IMPL_H
#define PHYS_ENGINE_IMPL_H

#include "engine.h"

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

#define PHYS_ENGINE_FUNCTIONS(E)					\
struct E *E##_new(const struct phys_world *w,				\
    const struct phys_run_values *v, const struct phys_engine_options *opt); \
void E##_free(struct E *e);						\
/* The clock from now on: time t after iteration iter. */		\
void E##_set_clock(struct E *e, double t, long iter);			\
int E##_apply_profile(struct E *e);					\
void E##_apply_world(struct E *e);					\
int E##_apply_link(struct E *e, int link);				\
int E##_apply_joint(struct E *e, int joint);				\
int E##_apply_collision(struct E *e, int collision);			\
int E##_step(struct E *e);						\
double E##_time(const struct E *e);					\
long E##_iterations(const struct E *e);					\
void E##_link_pose(const struct E *e, int link, phys_pose *out);	\
void E##_link_vel(const struct E *e, int link, phys_vec3 *lin,		\
    phys_vec3 *ang);							\
void E##_link_com(const struct E *e, int link, phys_vec3 *com,		\
    phys_vec3 *com_vel);						\
bool E##_link_dynamic(const struct E *e, int link);			\
void E##_link_mass(const struct E *e, int link, double *mass,		\
    double inertia[6]);							\
int E##_set_link_pose(struct E *e, int link, phys_pose p);		\
int E##_set_link_vel(struct E *e, int link, const phys_vec3 *lin,	\
    const phys_vec3 *ang);						\
int E##_joint_state(const struct E *e, int joint, double pos[2],	\
    double vel[2]);							\
void E##_joint_wrench(const struct E *e, int joint, phys_vec3 *force,	\
    phys_vec3 *torque);							\
int E##_joint_effort(const struct E *e, int joint, double effort[2]);	\
int E##_contact_count(const struct E *e);

PHYS_ENGINE_FUNCTIONS(ode_engine)
PHYS_ENGINE_FUNCTIONS(bullet_engine)

#ifdef __cplusplus
}
#endif

#endif
