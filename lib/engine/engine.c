/*
 * engine.c - the engine a profile's type picks, and switching engines in
 * the middle of a run. Each engine's calls live in its own module
 * (engine_ode.c, engine_bullet.cc), behind its operations table; this
 * file only forwards to the one running.
 */
#include "engine.h"

#include <stdlib.h>

struct phys_engine {
	const struct phys_world *w;
	const struct phys_run_values *v;
	struct phys_engine_options opt;
	const struct phys_engine_info *info;	/* the engine running */
	void *state;				/* its own */
	struct phys_motors motors;		/* kept across switches */
};

/* Forward to the engine running: CALL(e, f, args) for operations with
 * arguments after the engine, CALL0(e, f) for those without. */
#define CALL(e, f, ...) ((e)->info->ops->f((e)->state, __VA_ARGS__))
#define CALL0(e, f) ((e)->info->ops->f((e)->state))

struct phys_engine *
phys_engine_new(const struct phys_world *w,
    const struct phys_engine_info *engine, const struct phys_run_values *v,
    const struct phys_engine_options *opt)
{
	struct phys_engine *e = phys_xcalloc(1, sizeof *e);

	e->w = w;
	e->v = v;
	if (opt)
		e->opt = *opt;
	e->info = engine;
	e->state = engine->ops->create(w, v, &e->opt);
	if (!e->state) {
		free(e);
		return NULL;
	}
	phys_motors_init(&e->motors, w->njoints);
	return e;
}

void
phys_engine_free(struct phys_engine *e)
{
	if (!e)
		return;
	e->info->ops->destroy(e->state);
	phys_motors_free(&e->motors);
	free(e);
}

const struct phys_engine_info *
phys_engine_running(const struct phys_engine *e)
{
	return e->info;
}

/*
 * A new engine starts from the world as loaded (its joints measure from
 * the loaded configuration, as the old engine's did) and then takes over
 * the clock and each dynamic link's pose and velocity.
 */
int
phys_engine_use(struct phys_engine *e, const struct phys_engine_info *engine)
{
	struct phys_engine old = *e;
	phys_pose p;
	phys_vec3 lin, ang;
	size_t i;

	if (engine == e->info)
		return phys_engine_apply_profile(e);
	e->info = engine;
	e->state = engine->ops->create(e->w, e->v, &e->opt);
	if (!e->state) {
		*e = old;
		return -1;
	}
	CALL(e, set_clock, phys_engine_time(&old),
	    phys_engine_iterations(&old));
	for (i = 0; i < e->w->nlinks; i++) {
		if (!phys_engine_link_dynamic(&old, (int)i))
			continue;
		phys_engine_link_pose(&old, (int)i, &p);
		phys_engine_link_vel(&old, (int)i, &lin, &ang);
		phys_engine_set_link_pose(e, (int)i, p);
		phys_engine_set_link_vel(e, (int)i, &lin, &ang);
	}
	old.info->ops->destroy(old.state);
	return 0;
}

int
phys_engine_apply_profile(struct phys_engine *e)
{
	return CALL0(e, apply_profile);
}

void
phys_engine_apply_world(struct phys_engine *e)
{
	CALL0(e, apply_world);
}

int
phys_engine_apply_link(struct phys_engine *e, int link)
{
	return CALL(e, apply_link, link);
}

int
phys_engine_apply_joint(struct phys_engine *e, int joint)
{
	return CALL(e, apply_joint, joint);
}

int
phys_engine_apply_collision(struct phys_engine *e, int collision)
{
	return CALL(e, apply_collision, collision);
}

/* Each commanded joint's efforts for the step about to be taken, from
 * its state now. */
static int
drive_joints(struct phys_engine *e)
{
	double pos[2], vel[2], f[2], h = PVD(phys_run_values_get(e->v,
	    PHYS_S_PHYSICS, 0), PHYSICS_max_step_size);
	size_t j;
	int n;

	for (j = 0; j < e->w->njoints; j++) {
		if (!phys_motors_active(&e->motors, (int)j))
			continue;
		n = CALL(e, joint_state, (int)j, pos, vel);
		phys_motors_effort(&e->motors, (int)j,
		    phys_run_values_get(e->v, PHYS_S_JOINT, (int)j), n, pos,
		    vel, h, f);
		if (CALL(e, set_joint_effort, (int)j, f) < 0)
			return -1;
	}
	return 0;
}

int
phys_engine_step(struct phys_engine *e)
{
	if (e->motors.ncommanded && drive_joints(e) < 0)
		return -1;
	return CALL0(e, step);
}

int
phys_engine_command(struct phys_engine *e, int joint,
    enum phys_command_kind kind, const double *target, int n)
{
	phys_motors_command(&e->motors, joint, kind, target, n);
	return 0;
}

int
phys_engine_set_link_wrench(struct phys_engine *e, int link, phys_vec3 force,
    phys_vec3 torque)
{
	return CALL(e, set_link_wrench, link, force, torque);
}

const struct phys_axis_motor *
phys_engine_motor(const struct phys_engine *e, int joint, int axis)
{
	return &e->motors.axis[joint][axis];
}

double
phys_engine_time(const struct phys_engine *e)
{
	return CALL0(e, time);
}

long
phys_engine_iterations(const struct phys_engine *e)
{
	return CALL0(e, iterations);
}

void
phys_engine_link_pose(const struct phys_engine *e, int link, phys_pose *out)
{
	CALL(e, link_pose, link, out);
}

void
phys_engine_link_vel(const struct phys_engine *e, int link, phys_vec3 *lin,
    phys_vec3 *ang)
{
	CALL(e, link_vel, link, lin, ang);
}

void
phys_engine_link_com(const struct phys_engine *e, int link, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	CALL(e, link_com, link, com, com_vel);
}

bool
phys_engine_link_dynamic(const struct phys_engine *e, int link)
{
	return CALL(e, link_dynamic, link);
}

void
phys_engine_link_mass(const struct phys_engine *e, int link, double *mass,
    double inertia[6])
{
	CALL(e, link_mass, link, mass, inertia);
}

int
phys_engine_set_link_pose(struct phys_engine *e, int link, phys_pose p)
{
	return CALL(e, set_link_pose, link, p);
}

int
phys_engine_set_link_vel(struct phys_engine *e, int link, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	return CALL(e, set_link_vel, link, lin, ang);
}

int
phys_engine_joint_state(const struct phys_engine *e, int joint, double pos[2],
    double vel[2])
{
	return CALL(e, joint_state, joint, pos, vel);
}

void
phys_engine_joint_wrench(const struct phys_engine *e, int joint,
    phys_vec3 *force, phys_vec3 *torque)
{
	CALL(e, joint_wrench, joint, force, torque);
}

int
phys_engine_joint_effort(const struct phys_engine *e, int joint,
    double effort[2])
{
	return CALL(e, joint_effort, joint, effort);
}

int
phys_engine_contact_count(const struct phys_engine *e)
{
	return CALL0(e, contact_count);
}
