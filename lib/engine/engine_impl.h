/*
 * engine_impl.h - what an engine module is made of. A module keeps its
 * state in a struct of its own (struct E), defines the functions below as
 * static, each meaning what engine.h's phys_engine_ function of the same
 * name says, and ends with
 *
 *	PHYS_ENGINE_DEFINE(E, name, "type", "Name", support, record)
 *
 * which makes its description, struct phys_engine_info name, with the
 * operations table the dispatcher calls. lib/engine/registry.c lists it;
 * nothing else names an engine.
 */
#ifndef PHYS_ENGINE_IMPL_H
#define PHYS_ENGINE_IMPL_H

#include "engine.h"
#include "engine_common.h"

#define PHYS_ENGINE_FUNCTIONS(E)					\
static struct E *E##_new(const struct phys_world *w,			\
    const struct phys_run_values *v, const struct phys_engine_options *opt); \
static void E##_free(struct E *e);					\
static void E##_set_clock(struct E *e, double t, long iter);		\
static int E##_apply_profile(struct E *e);				\
static void E##_apply_world(struct E *e);				\
static int E##_apply_link(struct E *e, int link);			\
static int E##_apply_joint(struct E *e, int joint);			\
static int E##_apply_collision(struct E *e, int collision);		\
static int E##_step(struct E *e);					\
static double E##_time(const struct E *e);				\
static long E##_iterations(const struct E *e);				\
static void E##_link_pose(const struct E *e, int link, phys_pose *out);	\
static void E##_link_vel(const struct E *e, int link, phys_vec3 *lin,	\
    phys_vec3 *ang);							\
static void E##_link_com(const struct E *e, int link, phys_vec3 *com,	\
    phys_vec3 *com_vel);						\
static bool E##_link_dynamic(const struct E *e, int link);		\
static void E##_link_mass(const struct E *e, int link, double *mass,	\
    double inertia[6]);							\
static int E##_set_link_pose(struct E *e, int link, phys_pose p);	\
static int E##_set_link_vel(struct E *e, int link, const phys_vec3 *lin, \
    const phys_vec3 *ang);						\
static int E##_joint_state(const struct E *e, int joint, double pos[2],	\
    double vel[2]);							\
static void E##_joint_wrench(const struct E *e, int joint,		\
    phys_vec3 *force, phys_vec3 *torque);				\
static int E##_joint_effort(const struct E *e, int joint,		\
    double effort[2]);							\
static int E##_contact_count(const struct E *e);			\
static int E##_set_joint_effort(struct E *e, int joint,			\
    const double effort[2]);						\
static int E##_set_link_wrench(struct E *e, int link, phys_vec3 force,	\
    phys_vec3 torque);

/* The operations table over a module's functions: each takes the state
 * as void * and hands it on as the module's own type. */
/* The description has C linkage: lib/engine/registry.c, in C, lists it. */
#ifdef __cplusplus
#define PHYS_ENGINE_EXTERN extern "C"
#else
#define PHYS_ENGINE_EXTERN extern
#endif

#define PHYS_ENGINE_OP(E, ret, f, params, args)				\
static ret E##_op_##f params { return E##_##f args; }
#define PHYS_ENGINE_CONST(E) const struct E *

#define PHYS_ENGINE_DEFINE(E, info, type, name, support, record)	\
static void *E##_op_new(const struct phys_world *w,			\
    const struct phys_run_values *v, const struct phys_engine_options *opt) \
{ return E##_new(w, v, opt); }						\
static void E##_op_free(void *s) { E##_free((struct E *)s); }		\
PHYS_ENGINE_OP(E, void, set_clock, (void *s, double t, long i), ((struct E *)s, t, i)) \
PHYS_ENGINE_OP(E, int, apply_profile, (void *s), ((struct E *)s))	\
PHYS_ENGINE_OP(E, void, apply_world, (void *s), ((struct E *)s))	\
PHYS_ENGINE_OP(E, int, apply_link, (void *s, int l), ((struct E *)s, l)) \
PHYS_ENGINE_OP(E, int, apply_joint, (void *s, int j), ((struct E *)s, j)) \
PHYS_ENGINE_OP(E, int, apply_collision, (void *s, int c), ((struct E *)s, c)) \
PHYS_ENGINE_OP(E, int, step, (void *s), ((struct E *)s))		\
PHYS_ENGINE_OP(E, double, time, (const void *s), ((PHYS_ENGINE_CONST(E))s)) \
PHYS_ENGINE_OP(E, long, iterations, (const void *s), ((PHYS_ENGINE_CONST(E))s)) \
PHYS_ENGINE_OP(E, void, link_pose, (const void *s, int l, phys_pose *p), \
    ((PHYS_ENGINE_CONST(E))s, l, p))					\
PHYS_ENGINE_OP(E, void, link_vel, (const void *s, int l, phys_vec3 *a,	\
    phys_vec3 *b), ((PHYS_ENGINE_CONST(E))s, l, a, b))			\
PHYS_ENGINE_OP(E, void, link_com, (const void *s, int l, phys_vec3 *a,	\
    phys_vec3 *b), ((PHYS_ENGINE_CONST(E))s, l, a, b))			\
PHYS_ENGINE_OP(E, bool, link_dynamic, (const void *s, int l),		\
    ((PHYS_ENGINE_CONST(E))s, l))					\
PHYS_ENGINE_OP(E, void, link_mass, (const void *s, int l, double *m,	\
    double in[6]), ((PHYS_ENGINE_CONST(E))s, l, m, in))			\
PHYS_ENGINE_OP(E, int, set_link_pose, (void *s, int l, phys_pose p),	\
    ((struct E *)s, l, p))						\
PHYS_ENGINE_OP(E, int, set_link_vel, (void *s, int l, const phys_vec3 *a, \
    const phys_vec3 *b), ((struct E *)s, l, a, b))			\
PHYS_ENGINE_OP(E, int, joint_state, (const void *s, int j, double p[2],	\
    double v[2]), ((PHYS_ENGINE_CONST(E))s, j, p, v))			\
PHYS_ENGINE_OP(E, void, joint_wrench, (const void *s, int j,		\
    phys_vec3 *f, phys_vec3 *t), ((PHYS_ENGINE_CONST(E))s, j, f, t))	\
PHYS_ENGINE_OP(E, int, joint_effort, (const void *s, int j,		\
    double f[2]), ((PHYS_ENGINE_CONST(E))s, j, f))			\
PHYS_ENGINE_OP(E, int, contact_count, (const void *s),			\
    ((PHYS_ENGINE_CONST(E))s))						\
PHYS_ENGINE_OP(E, int, set_joint_effort, (void *s, int j,		\
    const double f[2]), ((struct E *)s, j, f))				\
PHYS_ENGINE_OP(E, int, set_link_wrench, (void *s, int l, phys_vec3 f,	\
    phys_vec3 t), ((struct E *)s, l, f, t))				\
static const struct phys_engine_ops E##_ops = {				\
	E##_op_new, E##_op_free, E##_op_set_clock,			\
	E##_op_apply_profile, E##_op_apply_world, E##_op_apply_link,	\
	E##_op_apply_joint, E##_op_apply_collision, E##_op_step,	\
	E##_op_time, E##_op_iterations, E##_op_link_pose,		\
	E##_op_link_vel, E##_op_link_com, E##_op_link_dynamic,		\
	E##_op_link_mass, E##_op_set_link_pose, E##_op_set_link_vel,	\
	E##_op_joint_state, E##_op_joint_wrench, E##_op_joint_effort,	\
	E##_op_contact_count, E##_op_set_joint_effort,			\
	E##_op_set_link_wrench						\
};									\
PHYS_ENGINE_EXTERN const struct phys_engine_info info;			\
const struct phys_engine_info info = {					\
	type, name, support, record, sizeof record / sizeof *record,	\
	&E##_ops							\
};

#endif
