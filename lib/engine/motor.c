/* motor.c - joint commands and the PIDs that follow them. */
#include "motor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_common.h"
#include "mem.h"
#include "sdf.h"

static const char *const command_props[] = {
	[PHYS_COMMAND_EFFORT] = "cmd_force",
	[PHYS_COMMAND_VELOCITY] = "cmd_vel",
	[PHYS_COMMAND_POSITION] = "cmd_pos",
};

int
phys_joint_axes(enum phys_joint_type t)
{
	switch (t) {
	case PHYS_JOINT_FIXED:
	case PHYS_JOINT_BALL:
	case PHYS_JOINT_SCREW:
	case PHYS_JOINT_GEARBOX:
		return 0;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		return 2;
	default:
		return 1;
	}
}

char *
phys_joint_no_axis(const struct phys_joint *j, const char *verb)
{
	char *type = j->node ? phys_node_attr(j->node, "type") : NULL;
	char *why;

	if (j->doc && j->node)
		why = phys_xasprintf("joint '%s' has no axis phys can %s: it "
		    "is a %s joint (%s:%ld), and fixed, ball, screw and "
		    "gearbox joints have none", j->name, verb, type ? type :
		    "fixed", PHYS_AT(j->doc, j->node));
	else
		why = phys_xasprintf("joint '%s' has no axis phys can %s "
		    "(fixed, ball, screw and gearbox joints have none)",
		    j->name, verb);
	free(type);
	return why;
}

void
phys_motors_init(struct phys_motors *m, size_t njoints)
{
	m->axis = njoints ? phys_xcalloc(njoints, sizeof *m->axis) : NULL;
	m->njoints = njoints;
	m->ncommanded = 0;
}

void
phys_motors_free(struct phys_motors *m)
{
	free(m->axis);
	memset(m, 0, sizeof *m);
}

enum phys_command_kind
phys_command_kind_of(const char *prop)
{
	int k;

	for (k = PHYS_COMMAND_EFFORT; k <= PHYS_COMMAND_POSITION; k++)
		if (strcmp(prop, command_props[k]) == 0)
			return (enum phys_command_kind)k;
	return PHYS_COMMAND_NONE;
}

const char *
phys_command_prop(enum phys_command_kind kind)
{
	return kind == PHYS_COMMAND_NONE ? "" : command_props[kind];
}

bool
phys_motors_active(const struct phys_motors *m, int joint)
{
	return m->axis && (m->axis[joint][0].kind != PHYS_COMMAND_NONE ||
	    m->axis[joint][1].kind != PHYS_COMMAND_NONE);
}

void
phys_motors_command(struct phys_motors *m, int joint,
    enum phys_command_kind kind, const double *target, int n)
{
	bool was = phys_motors_active(m, joint);
	int k;

	for (k = 0; k < n && k < 2; k++) {
		struct phys_axis_motor *a = &m->axis[joint][k];

		if (a->kind != kind) {
			memset(a, 0, sizeof *a);
			a->kind = kind;
		}
		a->target = target[k];
	}
	if (!was && phys_motors_active(m, joint))
		m->ncommanded++;
}

/* A joint's gains for one command kind, from its values. */
static struct phys_pid_gains
gains(const struct phys_value *v, enum phys_command_kind kind)
{
	static const enum phys_param_id ids[2][8] = {
		{ PHYS_P_JOINT_velocity_pid_p_gain,
		  PHYS_P_JOINT_velocity_pid_i_gain,
		  PHYS_P_JOINT_velocity_pid_d_gain,
		  PHYS_P_JOINT_velocity_pid_i_max,
		  PHYS_P_JOINT_velocity_pid_i_min,
		  PHYS_P_JOINT_velocity_pid_cmd_max,
		  PHYS_P_JOINT_velocity_pid_cmd_min,
		  PHYS_P_JOINT_velocity_pid_cmd_offset },
		{ PHYS_P_JOINT_position_pid_p_gain,
		  PHYS_P_JOINT_position_pid_i_gain,
		  PHYS_P_JOINT_position_pid_d_gain,
		  PHYS_P_JOINT_position_pid_i_max,
		  PHYS_P_JOINT_position_pid_i_min,
		  PHYS_P_JOINT_position_pid_cmd_max,
		  PHYS_P_JOINT_position_pid_cmd_min,
		  PHYS_P_JOINT_position_pid_cmd_offset }
	};
	const enum phys_param_id *id = ids[kind == PHYS_COMMAND_POSITION];
	double g[8];
	int k;

	for (k = 0; k < 8; k++)
		g[k] = v[phys_param_index[id[k]]].u.d;
	return (struct phys_pid_gains){ g[0], g[1], g[2], g[3], g[4], g[5],
	    g[6], g[7] };
}

static double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

double
phys_pid_step(const struct phys_pid_gains *g, double *integral, double e,
    double rate, double h)
{
	double cmd;

	*integral += g->i * h * e;
	if (g->i_max >= g->i_min)
		*integral = clamp(*integral, g->i_min, g->i_max);
	cmd = g->offset - g->p * e - *integral - g->d * rate;
	if (g->cmd_max >= g->cmd_min)
		cmd = clamp(cmd, g->cmd_min, g->cmd_max);
	return cmd;
}

/* The target a velocity command runs at: within the axis's speed limit. */
static double
velocity_target(const struct phys_axis_values *ax, double target)
{
	double lim = ax->velocity;

	return lim >= 0 ? clamp(target, -lim, lim) : target;
}

/* Axis a's effort from its command, gains g of the command's kind. */
static double
axis_effort(struct phys_axis_motor *a, const struct phys_axis_values *ax,
    const struct phys_pid_gains *g, double pos, double vel, double h)
{
	double rate;

	switch (a->kind) {
	case PHYS_COMMAND_EFFORT:
		a->error = 0;
		return a->target;
	case PHYS_COMMAND_POSITION:
		/* The target is held between commands: the error's rate is
		 * the axis's, measured, with no kick when the target moves. */
		a->error = pos - a->aim;
		return phys_pid_step(g, &a->integral, a->error, vel, h);
	case PHYS_COMMAND_VELOCITY:
		a->error = vel - velocity_target(ax, a->target);
		rate = a->has_last ? (a->error - a->last_error) / h : 0;
		a->last_error = a->error;
		a->has_last = true;
		return phys_pid_step(g, &a->integral, a->error, rate, h);
	default:
		return 0;
	}
}

static double
effort_held(const struct phys_axis_values *ax, double f)
{
	double lim = ax->effort;

	return lim >= 0 ? clamp(f, -lim, lim) : f;
}

double
phys_effort_held(const struct phys_value *v, int k, double f)
{
	struct phys_axis_values ax = phys_joint_axis_values(v, k);

	return effort_held(&ax, f);
}

/*
 * What axis a's position PID follows this step: its target, moved to at
 * most slew (unit/s; none when negative) times h from the last step's
 * aim, as MuJoCo's pid actuator limits its control's rate (the first
 * step's, which has no last, the target).
 */
static void
aim(struct phys_axis_motor *a, double slew, double h)
{
	if (slew >= 0 && a->has_aim)
		a->aim = clamp(a->target, a->aim - slew * h,
		    a->aim + slew * h);
	else
		a->aim = a->target;
	a->has_aim = true;
}

/*
 * Axis a's command as a servo (motor.h), when it is one: a position PID
 * (its rate the axis's) or a velocity PID without a derivative (whose
 * rate is measured between steps), of no integral, whose output and
 * effort limit leave some force.
 */
static bool
axis_servo(const struct phys_axis_motor *a, const struct phys_value *v,
    const struct phys_axis_values *ax, const struct phys_pid_gains *pid,
    struct phys_axis_servo *s)
{
	const struct phys_pid_gains g = *pid;
	double lim = ax->effort;

	if (a->kind != PHYS_COMMAND_POSITION &&
	    a->kind != PHYS_COMMAND_VELOCITY)
		return false;
	if (g.i != 0 || a->integral != 0 || (a->kind ==
	    PHYS_COMMAND_VELOCITY && g.d != 0))
		return false;
	s->fmin = g.cmd_max >= g.cmd_min ? g.cmd_min : -INFINITY;
	s->fmax = g.cmd_max >= g.cmd_min ? g.cmd_max : INFINITY;
	if (lim >= 0) {
		s->fmin = fmax(s->fmin, -lim);
		s->fmax = fmin(s->fmax, lim);
	}
	if (!(s->fmin <= s->fmax))
		return false;
	s->implicit = PVB(v, JOINT_implicit_servo);
	if (a->kind == PHYS_COMMAND_POSITION) {
		/* offset - p (pos - aim) - d vel */
		s->base = g.offset + g.p * a->aim;
		s->kq = -g.p;
		s->kv = -g.d;
	} else {
		/* offset - p (vel - target) */
		s->base = g.offset + g.p * velocity_target(ax, a->target);
		s->kq = 0;
		s->kv = -g.p;
	}
	return isfinite(s->base) && isfinite(s->kq) && isfinite(s->kv);
}

void
phys_motors_drive(struct phys_motors *m, int joint,
    const struct phys_value *v, int n, const double pos[2],
    const double vel[2], double h, struct phys_joint_drive *out)
{
	int k;

	memset(out, 0, sizeof *out);
	for (k = 0; k < n && k < 2; k++) {
		struct phys_axis_motor *a = &m->axis[joint][k];
		struct phys_axis_values ax;
		struct phys_pid_gains g = { 0 };
		double f, was = a->applied;
		bool end;

		if (a->kind == PHYS_COMMAND_NONE)
			continue;
		/* read once an axis: each is a walk over the joint's values */
		ax = phys_joint_axis_values(v, k);
		if (a->kind != PHYS_COMMAND_EFFORT)
			g = gains(v, a->kind);
		if (a->kind == PHYS_COMMAND_POSITION)
			aim(a, PVD(v, JOINT_position_pid_slew_max), h);
		out->servo[k].on = axis_servo(a, v, &ax, &g, &out->servo[k]);
		f = axis_effort(a, &ax, &g, pos[k], vel[k], h);
		if (!isfinite(f))
			f = 0;
		a->asked = f;
		a->applied = effort_held(&ax, f);
		out->effort[k] = a->applied;
		/* a servo thrown from one end of its range to the other */
		end = out->servo[k].on && (a->applied == out->servo[k].fmin ||
		    a->applied == out->servo[k].fmax);
		a->flips = end && a->at_end && a->applied != was ?
		    a->flips + 1 : 0;
		a->at_end = end;
	}
}

double
phys_servo_pull(const struct phys_axis_servo *s, double pos, double vel)
{
	return s->base + s->kq * pos + s->kv * vel;
}

double
phys_servo_force(const struct phys_axis_servo *s, double pos, double vel)
{
	return clamp(phys_servo_pull(s, pos, vel), s->fmin, s->fmax);
}

bool
phys_servo_implicit(const struct phys_axis_servo *s, enum phys_joint_type t)
{
	return s->on && s->implicit && (t == PHYS_JOINT_REVOLUTE ||
	    t == PHYS_JOINT_PRISMATIC);
}

double
phys_servo_resistance(const struct phys_axis_servo *s, double h)
{
	return -(s->kq * h + s->kv);
}

bool
phys_servo_stiff(const struct phys_axis_servo *s, double h, double inv)
{
	double d = phys_servo_resistance(s, h);

	return s->on && isfinite(d) && h * d * inv >= 2;
}

bool
phys_servo_row(const struct phys_axis_servo *s, double h, double inv,
    double pos, struct phys_servo_row *r)
{
	double d = phys_servo_resistance(s, h);

	if (!s->implicit || !phys_servo_stiff(s, h, inv) ||
	    isfinite(s->fmin) != isfinite(s->fmax))
		return false;
	r->middle = isfinite(s->fmin) ? (s->fmin + s->fmax) / 2 : 0;
	r->half = isfinite(s->fmin) ? (s->fmax - s->fmin) / 2 : INFINITY;
	r->rate = (phys_servo_pull(s, pos, 0) - r->middle) / d;
	r->cfm = 1 / d;
	return r->half > 0 && isfinite(r->middle) && isfinite(r->rate);
}
