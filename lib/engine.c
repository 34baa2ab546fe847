/*
 * engine.c - the engine a profile's type picks, and switching engines in
 * the middle of a run. Each engine's calls live in its own module
 * (engine_ode.c, engine_bullet.cc); this file only forwards to the one
 * running.
 */
#include "engine_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct phys_engine {
	struct phys_world *w;
	struct phys_engine_options opt;
	/* Exactly one is set: the engine running. */
	struct ode_engine *ode;
	struct bullet_engine *bullet;
};

/* Forward to the engine running: CALL(e, f, args) for functions with
 * arguments after the engine, CALL0(e, f) for those without. */
#define CALL(e, f, ...) ((e)->bullet ? bullet_engine_##f((e)->bullet, \
    __VA_ARGS__) : ode_engine_##f((e)->ode, __VA_ARGS__))
#define CALL0(e, f) ((e)->bullet ? bullet_engine_##f((e)->bullet) : \
    ode_engine_##f((e)->ode))

double
phys_engine_clock(double base, long n, double h)
{
	double rate = 1 / h;

	/* A step of 1/1000 s: dividing by 1000 gives 0.7 where multiplying
	 * by 0.001 gives 0.7000000000000001. */
	if (fabs(rate - round(rate)) < 1e-9 * rate)
		return base + (double)n / round(rate);
	return base + (double)n * h;
}

static bool
is_bullet(const char *type)
{
	return strcmp(type, "bullet") == 0;
}

bool
phys_engine_runs(const char *type)
{
	return strcmp(type, "ode") == 0 || is_bullet(type);
}

const char *
phys_engine_title(const char *type)
{
	return is_bullet(type) ? "Bullet" : "ODE";
}

phys_ode_support
phys_engine_support(const char *type, const struct phys_param *p)
{
	return is_bullet(type) ? bullet_engine_support(p) : p->ode;
}

/* Build the engine of type; e->ode and e->bullet are both unset. */
static int
build(struct phys_engine *e, const char *type, const struct phys_value *vals)
{
	if (is_bullet(type))
		e->bullet = bullet_engine_new(e->w, vals, &e->opt);
	else
		e->ode = ode_engine_new(e->w, vals, &e->opt);
	return e->ode || e->bullet ? 0 : -1;
}

struct phys_engine *
phys_engine_new(struct phys_world *w, const char *type,
    const struct phys_value *profile, const struct phys_engine_options *opt)
{
	struct phys_engine *e = xcalloc(1, sizeof *e);

	e->w = w;
	if (opt)
		e->opt = *opt;
	if (build(e, type, profile) < 0) {
		free(e);
		return NULL;
	}
	return e;
}

void
phys_engine_free(struct phys_engine *e)
{
	if (!e)
		return;
	ode_engine_free(e->ode);
	bullet_engine_free(e->bullet);
	free(e);
}

const char *
phys_engine_type(const struct phys_engine *e)
{
	return e->bullet ? "bullet" : "ode";
}

/*
 * A new engine starts from the world as loaded (its joints measure from
 * the loaded configuration, as the old engine's did) and then takes over
 * the clock and each dynamic link's pose and velocity.
 */
int
phys_engine_use(struct phys_engine *e, const char *type,
    const struct phys_value *vals)
{
	struct phys_engine old = *e;
	phys_pose p;
	phys_vec3 lin, ang;
	size_t i;

	if (strcmp(type, phys_engine_type(e)) == 0)
		return phys_engine_apply_profile(e, vals);
	e->ode = NULL;
	e->bullet = NULL;
	if (build(e, type, vals) < 0) {
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
	ode_engine_free(old.ode);
	bullet_engine_free(old.bullet);
	return 0;
}

int
phys_engine_apply_profile(struct phys_engine *e, const struct phys_value *vals)
{
	return CALL(e, apply_profile, vals);
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
phys_engine_step(struct phys_engine *e)
{
	return CALL0(e, step);
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
phys_engine_config(const struct phys_engine *e, struct phys_engine_config *c)
{
	CALL(e, config, c);
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
