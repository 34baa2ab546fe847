/*
 * sys_drive.c - gz-sim's systems that drive a vehicle on its wheels:
 * DiffDrive and AckermannSteering, with gz-sim's parameters, defaults and
 * topics.
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
 * both, and so on for max_ and for acceleration and jerk; with parts,
 * <min_linear_velocity> for the linear part alone and the like.
 */
static int
read_limits(const struct phys_sys_conf *c, struct limiter *lin,
    struct limiter *ang, bool parts)
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
			if (!parts)
				continue;
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
	    read_limits(c, &s->lin, &s->ang, true) < 0)
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
	NULL, dd_step, dd_message, dd_free, NULL, NULL, NULL
};

/* ---- AckermannSteering ---- */

struct ack {
	struct phys_servo *wheels;	/* the left ones, then the right */
	int nwheels, nleft;
	struct phys_servo *steer;	/* the same for steering joints */
	int nsteer, nsteer_left;
	bool steering_only;	/* an angle asked, not a twist */
	int actuator;		/* -1: no gz.msgs.Actuators */
	double separation, kingpin, base, limit, radius, gain;
	struct limiter lin, ang;
	double cmd_lin, cmd_ang;	/* the twist, or the angle, asked */
	double lin0, lin1, ang0, ang1;	/* the last two applied */
};

static int
ack_numbers(const struct phys_sys_conf *c, struct ack *s)
{
	s->separation = 1;
	s->kingpin = 0.8;
	s->base = 1;
	s->limit = 0.5;
	s->radius = 0.2;
	s->gain = 1;
	if (!s->steering_only &&
	    (phys_sys_double(c, "wheel_radius", &s->radius) < 0 ||
	    phys_sys_double(c, "kingpin_width", &s->kingpin) < 0))
		return -1;
	if (phys_sys_double(c, "wheel_separation", &s->separation) < 0 ||
	    phys_sys_double(c, "wheel_base", &s->base) < 0 ||
	    phys_sys_double(c, "steering_limit", &s->limit) < 0 ||
	    phys_sys_double(c, "steer_p_gain", &s->gain) < 0 ||
	    read_limits(c, &s->lin, &s->ang, false) < 0)
		return -1;
	if (!(s->radius > 0) || !(s->base > 0) || !(s->limit > 0))
		return phys_sys_fail(c, NULL, "<wheel_radius>, <wheel_base> "
		    "and <steering_limit> must be above 0");
	return 0;
}

/* The command topic: <topic>, else /model/M/<sub_topic>, else the
 * mode's: /model/M/steer_angle, /actuators or /model/M/cmd_vel. */
static int
ack_topic(const struct phys_sys_conf *c, struct ack *s)
{
	char *topic = phys_sys_text(c, "topic"), *sub;
	int rc;

	if (!topic && (sub = phys_sys_text(c, "sub_topic"))) {
		topic = phys_xasprintf("/model/%s/%s", c->model_name, sub);
		free(sub);
	}
	if (!topic)
		topic = s->actuator >= 0 ? phys_xstrdup("/actuators") :
		    phys_xasprintf("/model/%s/%s", c->model_name,
		    s->steering_only ? "steer_angle" : "cmd_vel");
	rc = phys_sys_subscribe(c, topic, s->actuator >= 0 ?
	    &phys_msg_actuators : s->steering_only ? &phys_msg_double :
	    &phys_msg_twist, 0);
	free(topic);
	return rc;
}

static int
ack_parse(const struct phys_sys_conf *c, void *state)
{
	struct ack *s = state;
	bool use = false;
	double n;
	int rc;

	s->actuator = -1;
	if (phys_sys_bool(c, "steering_only", &s->steering_only) < 0 ||
	    phys_sys_bool(c, "use_actuator_msg", &use) < 0)
		return -1;
	if (use) {
		if ((rc = phys_sys_double(c, "actuator_number", &n)) <= 0)
			return rc < 0 ? -1 : phys_sys_fail(c, NULL,
			    "<use_actuator_msg> needs an <actuator_number>");
		if (n < 0 || n != floor(n) || n > 1e6)
			return phys_sys_fail(c, phys_child(c->node,
			    "actuator_number"), "<actuator_number> %g is no "
			    "index", n);
		s->actuator = (int)n;
		s->steering_only = true;
	}
	if ((s->nsteer_left = add_wheels(c, "left_steering_joint", &s->steer,
	    &s->nsteer)) < 0 ||
	    add_wheels(c, "right_steering_joint", &s->steer, &s->nsteer) < 0)
		return -1;
	if (!s->steering_only &&
	    ((s->nleft = add_wheels(c, "left_joint", &s->wheels,
	    &s->nwheels)) < 0 ||
	    add_wheels(c, "right_joint", &s->wheels, &s->nwheels) < 0))
		return -1;
	if (ack_numbers(c, s) < 0)
		return -1;
	return ack_topic(c, s);
}

/* The twist asked as a turning radius the steering can reach (gz-sim's
 * special cases: a turn in place is the tightest turn, no turn a radius
 * of 1e9 m). */
static double
turning_radius(const struct ack *s, double lin, double ang)
{
	double r = lin / ang, rmin = s->base / sin(s->limit);

	if (fabs(lin) > 0) {
		if (r >= 0 && r < rmin)
			r = rmin;
		if (r <= 0 && r > -rmin)
			r = -rmin;
	} else if (fabs(ang) >= 0.001) {
		r = (ang > 0 ? 1 : -1) * rmin;
	}
	if (fabs(ang) < 0.001)
		r = 1e9;
	return r;
}

/* The steering joints turned towards their angles, at steer_p_gain
 * times what they lack (rad/s), through the velocity servo. */
static int
steer_to(struct ack *s, const struct phys_sys_run *r, double h,
    double left, double right)
{
	double pos[2], vel[2], at[2] = { 0, 0 };
	int side, k;

	for (side = 0; side < 2; side++) {
		k = side ? s->nsteer_left : 0;
		if (phys_engine_joint_state(r->e, s->steer[k].joint, pos,
		    vel) > 0)
			at[side] = pos[0];
	}
	for (k = 0; k < s->nsteer; k++) {
		s->steer[k].target = s->gain * (k < s->nsteer_left ?
		    left - at[0] : right - at[1]);
		if (phys_servo_step(&s->steer[k], r, h) < 0)
			return -1;
	}
	return 0;
}

static int
ack_step(void *state, const struct phys_sys_run *r, double h)
{
	struct ack *s = state;
	double lin, ang, rad, phi, left, right, d;
	int k;

	if (s->steering_only) {
		ang = limit(&s->ang, s->cmd_ang, s->ang0, s->ang1, h);
		if (fabs(ang) > s->limit)
			ang = ang > 0 ? s->limit : -s->limit;
		s->ang1 = s->ang0;
		s->ang0 = ang;
		d = 2 * s->base * cos(ang);
		left = atan(2 * s->base * sin(ang) / (d - s->separation *
		    sin(ang)));
		right = atan(2 * s->base * sin(ang) / (d + s->separation *
		    sin(ang)));
		return steer_to(s, r, h, left, right);
	}
	lin = limit(&s->lin, s->cmd_lin, s->lin0, s->lin1, h);
	ang = limit(&s->ang, s->cmd_ang, s->ang0, s->ang1, h);
	s->lin1 = s->lin0;
	s->lin0 = lin;
	s->ang1 = s->ang0;
	s->ang0 = ang;
	rad = turning_radius(s, lin, ang);
	left = atan(s->base / (rad - s->kingpin / 2));
	right = atan(s->base / (rad + s->kingpin / 2));
	phi = atan(s->base / rad);
	/* each side's wheels at its speed, a differential of sorts */
	d = s->separation * tan(phi) / (2 * s->base);
	for (k = 0; k < s->nwheels; k++) {
		s->wheels[k].target = lin * (k < s->nleft ? 1 - d : 1 + d) /
		    s->radius;
		if (phys_servo_step(&s->wheels[k], r, h) < 0)
			return -1;
	}
	return steer_to(s, r, h, left, right);
}

static int
ack_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct ack *s = state;
	const json_t *a;

	if (s->actuator >= 0) {
		a = phys_msg_get(msg, "position");
		if ((size_t)s->actuator >= json_array_size(a))
			return phys_fail("msg.position has %zu values: "
			    "actuator %d is not among them",
			    json_array_size(a), s->actuator);
		s->cmd_ang = json_number_value(json_array_get(a,
		    (size_t)s->actuator));
	} else if (s->steering_only) {
		s->cmd_ang = phys_msg_num(msg, "data");
	} else {
		s->cmd_lin = phys_msg_num(msg, "linear.x");
		s->cmd_ang = phys_msg_num(msg, "angular.z");
	}
	return 0;
}

static void
ack_free(void *state)
{
	struct ack *s = state;

	free(s->wheels);
	free(s->steer);
}

const struct phys_sys_kind phys_sys_ackermann_steering = {
	"AckermannSteering", "ackermann-steering-system", false,
	sizeof(struct ack), ack_parse, NULL, ack_step, ack_message, ack_free,
	NULL, NULL, NULL
};
