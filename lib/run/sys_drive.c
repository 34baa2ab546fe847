/*
 * sys_drive.c - gz-sim's systems that drive a vehicle on its wheels:
 * DiffDrive, with gz-sim's parameters, defaults and topics.
 *
 * The body's twist becomes wheel speeds, which the servo of sysutil.c
 * holds (gz-sim's JointVelocityCmd); gz-math's SpeedLimiter bounds the
 * twist's velocity, acceleration and jerk first.
 */
#include "sysint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* gz-math's SpeedLimiter: bounds on a speed and its first two rates,
 * none (infinite) until the plugin gives them. */
struct limiter {
	double vel[2], acc[2], jerk[2];	/* min, max */
};

static void
limiter_init(struct limiter *l)
{
	l->vel[0] = l->acc[0] = l->jerk[0] = -INFINITY;
	l->vel[1] = l->acc[1] = l->jerk[1] = INFINITY;
}

static double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* v bounded: its jerk from the two speeds before, then its acceleration
 * from the last, then itself. */
static double
limit(const struct limiter *l, double v, double v0, double v1, double h)
{
	double a0, a;

	if (!(h > 0))
		return v;
	/* (no bound, no arithmetic: a speed asked is given as it is) */
	if (isfinite(l->jerk[0]) || isfinite(l->jerk[1])) {
		a0 = (v0 - v1) / h;
		a = clamp(((v - v0) / h - a0) / h, l->jerk[0], l->jerk[1]);
		v = v0 + (a0 + a * h) * h;
	}
	if (isfinite(l->acc[0]) || isfinite(l->acc[1]))
		v = v0 + clamp((v - v0) / h, l->acc[0], l->acc[1]) * h;
	return clamp(v, l->vel[0], l->vel[1]);
}

/*
 * The limits of a twist's linear and angular parts: <min_velocity> for
 * both, <min_linear_velocity> for the linear part alone, and so on for
 * max_ and for acceleration and jerk.
 */
static int
read_limits(const struct phys_sys_conf *c, struct limiter *lin,
    struct limiter *ang)
{
	static const char *const what[] = { "velocity", "acceleration",
		"jerk" };
	static const char *const side[] = { "min", "max" };
	double *lv[] = { lin->vel, lin->acc, lin->jerk };
	double *av[] = { ang->vel, ang->acc, ang->jerk };
	char name[64];
	int w, s;

	limiter_init(lin);
	limiter_init(ang);
	for (w = 0; w < 3; w++)
		for (s = 0; s < 2; s++) {
			snprintf(name, sizeof name, "%s_%s", side[s], what[w]);
			if (phys_sys_double(c, name, &lv[w][s]) < 0 ||
			    phys_sys_double(c, name, &av[w][s]) < 0)
				return -1;
			snprintf(name, sizeof name, "%s_linear_%s", side[s],
			    what[w]);
			if (phys_sys_double(c, name, &lv[w][s]) < 0)
				return -1;
			snprintf(name, sizeof name, "%s_angular_%s", side[s],
			    what[w]);
			if (phys_sys_double(c, name, &av[w][s]) < 0)
				return -1;
		}
	return 0;
}

/* <topic>, else deflt (gz-sim's validTopic: the first that is a name). */
static int
subscribe_or(const struct phys_sys_conf *c, const char *deflt,
    const struct phys_msg_type *t, int slot)
{
	char *topic = phys_sys_text(c, "topic"), *name;
	int rc;

	if (topic && (name = phys_sys_topic_name(topic))) {
		free(name);
		rc = phys_sys_subscribe(c, topic, t, slot);
	} else {
		rc = phys_sys_subscribe(c, deflt, t, slot);
	}
	free(topic);
	return rc;
}

/* The servos of the wheel joints named <NAME>, after those in *s. */
static int
add_wheels(const struct phys_sys_conf *c, const char *name,
    struct phys_servo **s, int *n)
{
	xmlNodePtr e;
	int *joints, k, m;

	if ((m = phys_sys_joints(c, name, &joints)) < 0)
		return -1;
	for (k = 0, e = phys_child(c->node, name); k < m;
	    k++, e = phys_next(e, name))
		if (phys_sys_check_axis(c, e, joints[k], 0) < 0) {
			free(joints);
			return -1;
		}
	*s = phys_xrealloc(*s, (size_t)(*n + m) * sizeof **s);
	for (k = 0; k < m; k++)
		phys_servo_init(&(*s)[*n + k], joints[k], 0);
	*n += m;
	free(joints);
	return m;
}

/* ---- DiffDrive ---- */

struct dd {
	struct phys_servo *wheels;	/* the left ones, then the right */
	int nwheels, nleft;
	double separation, radius;	/* m */
	struct limiter lin, ang;
	double cmd_lin, cmd_ang;	/* the twist asked: m/s, rad/s */
	double lin0, lin1, ang0, ang1;	/* the last two twists applied */
	bool disabled;
};

static int
dd_parse(const struct phys_sys_conf *c, void *state)
{
	struct dd *s = state;
	char *topic;
	int rc;

	s->separation = 1;
	s->radius = 0.2;
	if ((s->nleft = add_wheels(c, "left_joint", &s->wheels,
	    &s->nwheels)) < 0 ||
	    add_wheels(c, "right_joint", &s->wheels, &s->nwheels) < 0 ||
	    phys_sys_double(c, "wheel_separation", &s->separation) < 0 ||
	    phys_sys_double(c, "wheel_radius", &s->radius) < 0 ||
	    read_limits(c, &s->lin, &s->ang) < 0)
		return -1;
	if (!(s->radius > 0))
		return phys_sys_fail(c, phys_child(c->node, "wheel_radius"),
		    "<wheel_radius> must be above 0");
	topic = phys_xasprintf("/model/%s/cmd_vel", c->model_name);
	rc = subscribe_or(c, topic, &phys_msg_twist, 0);
	free(topic);
	if (rc < 0)
		return -1;
	topic = phys_xasprintf("/model/%s/enable", c->model_name);
	rc = phys_sys_subscribe(c, topic, &phys_msg_boolean, 1);
	free(topic);
	return rc;
}

/* The twist asked, within its limits, as the wheels' speeds. */
static int
dd_step(void *state, const struct phys_sys_run *r, double h)
{
	struct dd *s = state;
	double lin = limit(&s->lin, s->cmd_lin, s->lin0, s->lin1, h);
	double ang = limit(&s->ang, s->cmd_ang, s->ang0, s->ang1, h);
	double half = ang * s->separation / 2;
	int k;

	s->lin1 = s->lin0;
	s->lin0 = lin;
	s->ang1 = s->ang0;
	s->ang0 = ang;
	for (k = 0; k < s->nwheels; k++) {
		s->wheels[k].target = (k < s->nleft ? lin - half : lin + half) /
		    s->radius;
		if (phys_servo_step(&s->wheels[k], r, h) < 0)
			return -1;
	}
	return 0;
}

/* cmd_vel: the twist's linear x and angular z, unless disabled; enable:
 * false stops the vehicle and leaves cmd_vel unheard until true. */
static int
dd_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct dd *s = state;

	if (slot == 1) {
		s->disabled = !json_is_true(phys_msg_get(msg, "data"));
		if (s->disabled)
			s->cmd_lin = s->cmd_ang = 0;
	} else if (!s->disabled) {
		s->cmd_lin = phys_msg_num(msg, "linear.x");
		s->cmd_ang = phys_msg_num(msg, "angular.z");
	}
	return 0;
}

static void
dd_free(void *state)
{
	struct dd *s = state;

	free(s->wheels);
}

const struct phys_sys_kind phys_sys_diff_drive = {
	"DiffDrive", "diff-drive-system", false, sizeof(struct dd), dd_parse,
	NULL, dd_step, dd_message, dd_free, NULL
};
