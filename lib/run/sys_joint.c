/*
 * sys_joint.c - gz-sim's systems that drive joints: JointPositionController,
 * JointController, ApplyJointForce and JointTrajectoryController, with
 * gz-sim's parameters, defaults and topics.
 *
 * The PID of the first two is the joints' own (motor.h): its gains, the
 * plugin's, become the joints' position_pid.* or velocity_pid.* at the
 * start of the run, where -s, control lines and sweeps may change them as
 * any other parameter, and its target, error and effort are the joints'
 * items. JointTrajectoryController sums two PIDs of its own per joint.
 * Their velocity commands (gz-sim's JointVelocityCmd) are followed by the
 * servo of sysutil.c.
 */
#include "sysint.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* gz-math's PID's eight numbers, as a plugin gives them. */
struct gains {
	double p, i, d, i_max, i_min, cmd_max, cmd_min, offset;
};

static const char *const gain_names[] = { "p_gain", "i_gain", "d_gain",
	"i_max", "i_min", "cmd_max", "cmd_min", "cmd_offset" };

/* The gains the plugin gives, over defaults g; *max_set when it gives
 * cmd_max. */
static int
read_gains(const struct phys_sys_conf *c, struct gains *g, bool *max_set)
{
	double *v[] = { &g->p, &g->i, &g->d, &g->i_max, &g->i_min,
		&g->cmd_max, &g->cmd_min, &g->offset };
	size_t k;
	int rc;

	for (k = 0; k < 8; k++) {
		if ((rc = phys_sys_double(c, gain_names[k], v[k])) < 0)
			return -1;
		if (k == 5 && max_set)
			*max_set = rc > 0;
	}
	return 0;
}

/* A joint's PID parameters for position commands [0] and velocity
 * commands [1], in struct gains' order. */
static const enum phys_param_id pid_params[2][8] = {
	{ PHYS_P_JOINT_position_pid_p_gain, PHYS_P_JOINT_position_pid_i_gain,
	  PHYS_P_JOINT_position_pid_d_gain, PHYS_P_JOINT_position_pid_i_max,
	  PHYS_P_JOINT_position_pid_i_min, PHYS_P_JOINT_position_pid_cmd_max,
	  PHYS_P_JOINT_position_pid_cmd_min,
	  PHYS_P_JOINT_position_pid_cmd_offset },
	{ PHYS_P_JOINT_velocity_pid_p_gain, PHYS_P_JOINT_velocity_pid_i_gain,
	  PHYS_P_JOINT_velocity_pid_d_gain, PHYS_P_JOINT_velocity_pid_i_max,
	  PHYS_P_JOINT_velocity_pid_i_min, PHYS_P_JOINT_velocity_pid_cmd_max,
	  PHYS_P_JOINT_velocity_pid_cmd_min,
	  PHYS_P_JOINT_velocity_pid_cmd_offset } };

/* The gains as joint j's PID for commands of kind (position or velocity). */
static void
set_gains(const struct phys_sys_conf *c, int j, enum phys_command_kind kind,
    const struct gains *g)
{
	const enum phys_param_id *ids =
	    pid_params[kind != PHYS_COMMAND_POSITION];
	const double v[] = { g->p, g->i, g->d, g->i_max, g->i_min, g->cmd_max,
		g->cmd_min, g->offset };
	size_t k;

	for (k = 0; k < 8; k++)
		phys_sys_set_param(c, j, ids[k], v[k]);
}

/* Parameter id of each of the n joints, at v. */
static void
set_each(const struct phys_sys_conf *c, const int *joints, int n,
    enum phys_param_id id, double v)
{
	int k;

	for (k = 0; k < n; k++)
		phys_sys_set_param(c, joints[k], id, v);
}

/*
 * <implicit_servo>, phys's (a plain or a phys: element): the joints'
 * implicit_servo, which takes their servo into the step under ODE,
 * Bullet and DART. The MJCF reader writes it for a model whose
 * integrator is implicit, as MuJoCo's takes its actuators' damping.
 */
static int
read_implicit(const struct phys_sys_conf *c, const int *joints, int n)
{
	bool implicit;
	int rc;

	if ((rc = phys_sys_bool(c, "implicit_servo", &implicit)) <= 0)
		return rc;
	set_each(c, joints, n, PHYS_P_JOINT_implicit_servo, implicit);
	return 0;
}

/*
 * Joint j's axis's servo of kind as a MuJoCo actuator: the PID gains the
 * run values v hold for it (what the plugin set), its force within the
 * PID's command bounds and the axis's effort limit.
 */
static void
add_servo(struct phys_sys_actuators *out, const struct phys_run_values *v,
    enum phys_mjcf_actuator_kind kind, int j, int axis, double target,
    const double range[2])
{
	const struct phys_value *jv = phys_run_values_get(v, PHYS_S_JOINT, j);
	struct phys_axis_values ax = phys_joint_axis_values(jv, axis);
	const enum phys_param_id *g = pid_params[kind == PHYS_MJCF_VELOCITY];
	struct phys_mjcf_actuator a = { kind, j, axis, 0, 0, 0, -INFINITY,
		INFINITY, target, NULL, NULL, { 0 }, { range[0], range[1] },
		{ -1, NULL, { 0 }, { 0 } }, false, 0 };
	double k[8];
	size_t i;

	if (kind != PHYS_MJCF_MOTOR) {
		for (i = 0; i < 8; i++)
			k[i] = jv[phys_param_index[g[i]]].u.d;
		a.kp = k[0], a.ki = k[1], a.kd = k[2];
		a.fmax = k[5], a.fmin = k[6];
	}
	if (kind == PHYS_MJCF_POSITION &&
	    PVD(jv, JOINT_position_pid_slew_max) >= 0) {
		a.slewed = true;
		a.slew = PVD(jv, JOINT_position_pid_slew_max);
	}
	if (ax.effort >= 0) {
		a.fmin = fmax(a.fmin, -ax.effort);
		a.fmax = fmin(a.fmax, ax.effort);
	}
	phys_sys_actuator_add(out, &a);
}

/* <use_actuator_msg> with its <actuator_number>: the index, or -1 when
 * the system takes gz.msgs.Double; -2 on error. */
static int
actuator_number(const struct phys_sys_conf *c)
{
	bool use = false;
	double n;
	int rc;

	if (phys_sys_bool(c, "use_actuator_msg", &use) < 0)
		return -2;
	if (!use)
		return -1;
	if ((rc = phys_sys_double(c, "actuator_number", &n)) < 0)
		return -2;
	if (rc == 0)
		return phys_sys_fail(c, phys_child(c->node, "use_actuator_msg"),
		    "<use_actuator_msg> needs an <actuator_number>"), -2;
	if (n < 0 || n != floor(n) || n > 1e6)
		return phys_sys_fail(c, phys_child(c->node, "actuator_number"),
		    "<actuator_number> %g is no index", n), -2;
	return (int)n;
}

/*
 * The topic of a joint controller: <topic>, else /model/MODEL/<sub_topic>,
 * else /actuators for actuator messages, else deflt; subscribed as slot 0
 * (gz.msgs.Double) or 1 (gz.msgs.Actuators).
 */
static int
controller_topic(const struct phys_sys_conf *c, int actuator,
    const char *deflt)
{
	char *topic = phys_sys_text(c, "topic"), *sub;
	int rc;

	if (!topic && (sub = phys_sys_text(c, "sub_topic"))) {
		topic = phys_xasprintf("/model/%s/%s", c->model_name, sub);
		free(sub);
	}
	if (!topic)
		topic = phys_xstrdup(actuator >= 0 ? "/actuators" : deflt);
	rc = phys_sys_subscribe(c, topic, actuator >= 0 ? &phys_msg_actuators :
	    &phys_msg_double, actuator >= 0);
	free(topic);
	return rc;
}

/* The first joint's name as the plugin wrote it (gz-sim's topics use it). */
static char *
first_joint_name(const struct phys_sys_conf *c)
{
	return phys_sys_text(c, "joint_name");
}

/* A message's command: Double's data, or the actuator's value in field
 * (position or velocity) of an Actuators message. */
static int
message_value(int slot, const json_t *msg, int actuator, const char *field,
    double *out)
{
	const json_t *a;

	if (slot == 0) {
		*out = phys_msg_num(msg, "data");
		return 0;
	}
	a = phys_msg_get(msg, field);
	if ((size_t)actuator >= json_array_size(a))
		return phys_fail("msg.%s has %zu values: actuator %d is not "
		    "among them", field, json_array_size(a), actuator);
	*out = json_number_value(json_array_get(a, (size_t)actuator));
	return 0;
}

/* ---- JointPositionController ---- */

/*
 * <slew_max>, phys's (a plain or a phys: element): the joints'
 * position_pid.slew_max, how fast the position their PID follows moves
 * to a new target (the MJCF reader writes it for MuJoCo's pid actuator's
 * slewmax); not negative.
 */
static int
read_slew(const struct phys_sys_conf *c, const int *joints, int n)
{
	double slew;
	int rc;

	if ((rc = phys_sys_double(c, "slew_max", &slew)) <= 0)
		return rc;
	if (!(slew >= 0))
		return phys_sys_fail(c, phys_child(c->node, "slew_max"),
		    "<slew_max> %g: a speed, not negative", slew);
	set_each(c, joints, n, PHYS_P_JOINT_position_pid_slew_max, slew);
	return 0;
}

struct jpc {
	int *joints, n;
	int axis;		/* <joint_index> */
	int actuator;		/* -1: gz.msgs.Double */
	double target;		/* rad or m */
	double range[2];	/* <ctrl_range>, phys's (plain or phys:):
				 * its targets, as MuJoCo's ctrlrange */
	bool velocity;		/* <use_velocity_commands> */
	bool max_set;		/* <cmd_max> given: the speed limit then */
	double cmd_max;
	struct phys_servo *servo;	/* per joint, with velocity commands */
};

static int
jpc_parse(const struct phys_sys_conf *c, void *state)
{
	struct jpc *s = state;
	struct gains g = { 1, 0.1, 0.01, 1, -1, 1000, -1000, 0 };
	xmlNodePtr e;
	char *j0, *topic;
	double index = 0;
	int k, rc;

	if ((s->n = phys_sys_joints(c, "joint_name", &s->joints)) < 0)
		return -1;
	if (phys_sys_double(c, "joint_index", &index) < 0)
		return -1;
	if (index < 0 || index != floor(index) || index > 1)
		return phys_sys_fail(c, phys_child(c->node, "joint_index"),
		    "<joint_index> %g is no axis of a joint (0 or 1)", index);
	s->axis = (int)index;
	for (k = 0, e = phys_child(c->node, "joint_name"); k < s->n;
	    k++, e = phys_next(e, "joint_name"))
		if (phys_sys_check_axis(c, e, s->joints[k], s->axis) < 0)
			return -1;
	if (read_gains(c, &g, &s->max_set) < 0 ||
	    phys_sys_bool(c, "use_velocity_commands", &s->velocity) < 0 ||
	    phys_sys_double(c, "initial_position", &s->target) < 0 ||
	    read_implicit(c, s->joints, s->n) < 0 ||
	    phys_sys_range(c, "ctrl_range", s->range) < 0 ||
	    (s->actuator = actuator_number(c)) < -1)
		return -1;
	s->cmd_max = g.cmd_max;
	if (read_slew(c, s->joints, s->velocity ? 0 : s->n) < 0)
		return -1;
	if (!s->velocity)
		for (k = 0; k < s->n; k++)
			set_gains(c, s->joints[k], PHYS_COMMAND_POSITION, &g);
	s->servo = phys_xcalloc((size_t)s->n, sizeof *s->servo);
	for (k = 0; k < s->n; k++)
		phys_servo_init(&s->servo[k], s->joints[k], s->axis);
	j0 = first_joint_name(c);
	topic = phys_xasprintf("/model/%s/joint/%s/%d/cmd_pos", c->model_name,
	    j0, s->axis);
	rc = controller_topic(c, s->actuator, topic);
	free(topic);
	free(j0);
	return rc;
}

/* The target as the joints' position commands (the PID's own). */
static int
jpc_command(struct jpc *s, const struct phys_sys_run *r)
{
	int k;

	s->target = fmin(fmax(s->target, s->range[0]), s->range[1]);
	if (s->velocity)
		return 0;
	for (k = 0; k < s->n; k++)
		if (phys_sys_command(r, s->joints[k], s->axis,
		    PHYS_COMMAND_POSITION, s->target) < 0)
			return -1;
	return 0;
}

static int
jpc_start(void *state, const struct phys_sys_run *r)
{
	return jpc_command(state, r);
}

/*
 * <use_velocity_commands>: no PID, the speed that reaches the target in
 * this step (gz-sim's "perfect position"), at most cmd_max when the
 * plugin gives one; the first joint's error drives them all, as in
 * gz-sim.
 */
static int
jpc_step(void *state, const struct phys_sys_run *r, double h)
{
	struct jpc *s = state;
	double pos[2], vel[2], error, speed;
	int k;

	if (!s->velocity)
		return 0;
	if (phys_engine_joint_state(r->e, s->joints[0], pos, vel) <= s->axis)
		return 0;
	error = pos[s->axis] - s->target;
	if (s->max_set && fabs(error) > s->cmd_max * h)
		speed = error < 0 ? s->cmd_max : -s->cmd_max;
	else
		speed = -error / h;
	for (k = 0; k < s->n; k++) {
		s->servo[k].target = speed;
		if (phys_servo_step(&s->servo[k], r, h) < 0)
			return -1;
	}
	return 0;
}

static int
jpc_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct jpc *s = state;

	if (message_value(slot, msg, s->actuator, "position", &s->target) < 0)
		return -1;
	return jpc_command(s, r);
}

static int
jpc_check(const void *state, int slot, const json_t *msg)
{
	const struct jpc *s = state;
	double v;

	return message_value(slot, msg, s->actuator, "position", &v);
}

static void
jpc_free(void *state)
{
	struct jpc *s = state;

	free(s->joints);
	free(s->servo);
}

/* A servo of each joint's axis; with velocity commands, none MuJoCo has. */
static int
jpc_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	const struct jpc *s = state;
	int k;

	if (s->velocity)
		return -1;
	for (k = 0; k < s->n; k++)
		add_servo(out, v, PHYS_MJCF_POSITION, s->joints[k], s->axis,
		    s->target, s->range);
	return 0;
}

const struct phys_sys_kind phys_sys_joint_position_controller = {
	"JointPositionController", "joint-position-controller-system", false,
	sizeof(struct jpc), jpc_parse, jpc_start, jpc_step, jpc_message,
	jpc_free, jpc_check, jpc_actuators, NULL
};

/* ---- JointController ---- */

struct jc {
	int *joints, n;
	int actuator;		/* -1: gz.msgs.Double */
	double target;		/* rad/s or m/s */
	double range[2];	/* <ctrl_range>, phys's (plain or phys:):
				 * its targets, as MuJoCo's ctrlrange */
	bool force;		/* <use_force_commands>: the velocity PID */
	bool no_braking;	/* <disable_braking> */
	struct phys_servo *servo;	/* per joint, without force commands */
};

static int
jc_parse(const struct phys_sys_conf *c, void *state)
{
	struct jc *s = state;
	struct gains g = { 1, 0, 0, 1, -1, 1000, -1000, 0 };
	xmlNodePtr e;
	char *j0, *topic;
	int k, rc;

	if ((s->n = phys_sys_joints(c, "joint_name", &s->joints)) < 0)
		return -1;
	for (k = 0, e = phys_child(c->node, "joint_name"); k < s->n;
	    k++, e = phys_next(e, "joint_name"))
		if (phys_sys_check_axis(c, e, s->joints[k], 0) < 0)
			return -1;
	if (phys_sys_double(c, "initial_velocity", &s->target) < 0 ||
	    phys_sys_bool(c, "use_force_commands", &s->force) < 0 ||
	    read_implicit(c, s->joints, s->n) < 0 ||
	    phys_sys_range(c, "ctrl_range", s->range) < 0 ||
	    (s->actuator = actuator_number(c)) < -1)
		return -1;
	if (s->force) {
		if (read_gains(c, &g, NULL) < 0 ||
		    phys_sys_bool(c, "disable_braking", &s->no_braking) < 0)
			return -1;
		for (k = 0; k < s->n; k++)
			set_gains(c, s->joints[k], PHYS_COMMAND_VELOCITY, &g);
	}
	s->servo = phys_xcalloc((size_t)s->n, sizeof *s->servo);
	for (k = 0; k < s->n; k++)
		phys_servo_init(&s->servo[k], s->joints[k], 0);
	j0 = first_joint_name(c);
	topic = phys_xasprintf("/model/%s/joint/%s/cmd_vel", c->model_name, j0);
	rc = controller_topic(c, s->actuator, topic);
	free(topic);
	free(j0);
	return rc;
}

/* Force mode: the joints' velocity commands, through their PID; with
 * braking disabled, none while the first joint runs faster than asked
 * in the target's direction (it coasts). */
static int
jc_force(struct jc *s, const struct phys_sys_run *r)
{
	enum phys_command_kind kind = PHYS_COMMAND_VELOCITY;
	double pos[2], vel[2], error, sgn, target = s->target;
	int k;

	if (s->no_braking &&
	    phys_engine_joint_state(r->e, s->joints[0], pos, vel) > 0) {
		error = vel[0] - s->target;
		sgn = s->target > 0 ? 1 : s->target < 0 ? -1 : 0;
		if (sgn == 0 || sgn * error > 0) {
			kind = PHYS_COMMAND_EFFORT;
			target = 0;
		}
	}
	for (k = 0; k < s->n; k++)
		if (phys_sys_command(r, s->joints[k], 0, kind, target) < 0)
			return -1;
	return 0;
}

static int
jc_start(void *state, const struct phys_sys_run *r)
{
	struct jc *s = state;

	s->target = fmin(fmax(s->target, s->range[0]), s->range[1]);
	return s->force ? jc_force(s, r) : 0;
}

static int
jc_step(void *state, const struct phys_sys_run *r, double h)
{
	struct jc *s = state;
	int k;

	if (s->force)
		return s->no_braking ? jc_force(s, r) : 0;
	for (k = 0; k < s->n; k++) {
		s->servo[k].target = s->target;
		if (phys_servo_step(&s->servo[k], r, h) < 0)
			return -1;
	}
	return 0;
}

static int
jc_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct jc *s = state;

	if (message_value(slot, msg, s->actuator, "velocity", &s->target) < 0)
		return -1;
	s->target = fmin(fmax(s->target, s->range[0]), s->range[1]);
	return s->force ? jc_force(s, r) : 0;
}

static int
jc_check(const void *state, int slot, const json_t *msg)
{
	const struct jc *s = state;
	double v;

	return message_value(slot, msg, s->actuator, "velocity", &v);
}

static void
jc_free(void *state)
{
	struct jc *s = state;

	free(s->joints);
	free(s->servo);
}

/* A velocity servo of each joint with force commands; without them (the
 * speed set outright), none MuJoCo has. */
static int
jc_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	const struct jc *s = state;
	int k;

	if (!s->force || s->no_braking)
		return -1;
	for (k = 0; k < s->n; k++)
		add_servo(out, v, PHYS_MJCF_VELOCITY, s->joints[k], 0,
		    s->target, s->range);
	return 0;
}

const struct phys_sys_kind phys_sys_joint_controller = {
	"JointController", "joint-controller-system", false, sizeof(struct jc),
	jc_parse, jc_start, jc_step, jc_message, jc_free, jc_check,
	jc_actuators, NULL
};

/* ---- ApplyJointForce ---- */

struct ajf {
	int joint;
};

static int
ajf_parse(const struct phys_sys_conf *c, void *state)
{
	struct ajf *s = state;
	xmlNodePtr e = phys_child(c->node, "joint_name");
	char *name, *topic;
	int rc;

	if (!e)
		return phys_sys_fail(c, NULL, "no <joint_name>: the system "
		    "has no joint to drive");
	if ((s->joint = phys_sys_joint(c, e)) < 0 ||
	    phys_sys_check_axis(c, e, s->joint, 0) < 0)
		return -1;
	name = phys_node_text(e);
	topic = phys_xasprintf("/model/%s/joint/%s/cmd_force", c->model_name,
	    name);
	rc = phys_sys_subscribe(c, topic, &phys_msg_double, 0);
	free(topic);
	free(name);
	return rc;
}

/* The effort, held on the joint's first axis until the next message. */
static int
ajf_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct ajf *s = state;

	return phys_sys_command(r, s->joint, 0, PHYS_COMMAND_EFFORT,
	    phys_msg_num(msg, "data"));
}

/* A motor: its control the force. */
static int
ajf_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	add_servo(out, v, PHYS_MJCF_MOTOR, ((const struct ajf *)state)->joint,
	    0, 0, (const double[2]){ -INFINITY, INFINITY });
	return 0;
}

const struct phys_sys_kind phys_sys_apply_joint_force = {
	"ApplyJointForce", "apply-joint-force-system", false,
	sizeof(struct ajf), ajf_parse, NULL, NULL, ajf_message, NULL, NULL,
	ajf_actuators, NULL
};

/* ---- JointTrajectoryController ---- */

/* One joint it drives: its two PIDs (gz-sim's defaults: all 0, off) and
 * the targets of the current point. */
struct jtc_joint {
	int joint;
	const char *name;	/* as trajectories name it: its own name */
	double initial;
	struct phys_pid pos, vel;
	double target[3];	/* position, velocity, effort */
};

/* A point of a trajectory: each joint's position, velocity and effort
 * (NAN where the point gives none: the target stays), and its time. */
struct jtc_point {
	double *v;		/* 3 per joint of the trajectory */
	double at;		/* s after the trajectory's start */
};

enum { JTC_NEW, JTC_ACTIVE, JTC_REACHED };

struct jtc {
	struct jtc_joint *joints;
	int n;
	bool header_time;	/* use_header_start_time */
	/* the trajectory followed */
	int *which;		/* per name of the trajectory: a joint, -1 */
	int nnames;
	struct jtc_point *points;
	int npoints, index, status;
	double start;
	bool has_start;
};

/* The joints the plugin names, or every one-axis joint of its model. */
static int
jtc_joints(const struct phys_sys_conf *c, struct jtc *s)
{
	const struct phys_scene *w = c->w;
	int *js = NULL, n, k;
	size_t i;

	if (phys_child(c->node, "joint_name")) {
		if ((n = phys_sys_joints(c, "joint_name", &js)) < 0)
			return -1;
		for (k = 0; k < n; k++)
			if (phys_joint_axes(w->joints[js[k]].type) != 1) {
				free(js);
				return phys_sys_fail(c, NULL, "joint '%s' is not "
				    "a joint of one axis phys can drive",
				    w->joints[js[k]].name);
			}
	} else {
		n = 0;
		for (i = 0; i < w->njoints; i++)
			if (w->joints[i].model == c->model &&
			    phys_joint_axes(w->joints[i].type) == 1) {
				js = phys_xrealloc(js, (size_t)(n + 1) *
				    sizeof *js);
				js[n++] = (int)i;
			}
		if (n == 0)
			return phys_sys_fail(c, NULL, "model '%s' has no joint "
			    "of one axis to drive", w->models[c->model].name);
	}
	s->joints = phys_xcalloc((size_t)n, sizeof *s->joints);
	for (k = 0; k < n; k++) {
		const char *full = w->joints[js[k]].name, *own = strrchr(full,
		    ':');

		s->joints[k].joint = js[k];
		s->joints[k].name = own ? own + 1 : full;
	}
	s->n = n;
	free(js);
	return 0;
}

/* Every <NAME> in turn, the k-th for the k-th joint; d for the rest. */
static int
jtc_values(const struct phys_sys_conf *c, struct jtc *s, const char *name,
    size_t off, double d)
{
	xmlNodePtr e = phys_child(c->node, name);
	char *text;
	double v;
	int k;

	for (k = 0; k < s->n; k++) {
		v = d;
		if (e) {
			text = phys_node_text(e);
			if (!phys_parse_double(text, &v)) {
				free(text);
				return phys_sys_fail(c, e, "<%s> is not a "
				    "number", name);
			}
			free(text);
			e = phys_next(e, name);
		}
		*(double *)((char *)&s->joints[k] + off) = v;
	}
	return 0;
}

static int
jtc_parse(const struct phys_sys_conf *c, void *state)
{
	static const char *const gains[] = { "p_gain", "i_gain", "d_gain",
		"i_max", "i_min", "cmd_max", "cmd_min", "cmd_offset" };
	static const size_t fields[] = { offsetof(struct phys_pid, g.p),
		offsetof(struct phys_pid, g.i), offsetof(struct phys_pid, g.d),
		offsetof(struct phys_pid, g.i_max),
		offsetof(struct phys_pid, g.i_min),
		offsetof(struct phys_pid, g.cmd_max),
		offsetof(struct phys_pid, g.cmd_min),
		offsetof(struct phys_pid, g.offset) };
	/* gz-sim's: every gain 0, the clamps' max below their min (none) */
	static const double defaults[] = { 0, 0, 0, -1, 0, -1, 0, 0 };
	struct jtc *s = state;
	char name[32], *attr, *topic;
	int k, rc;

	if (jtc_joints(c, s) < 0 ||
	    jtc_values(c, s, "initial_position",
	    offsetof(struct jtc_joint, initial), 0) < 0)
		return -1;
	for (k = 0; k < 8; k++) {
		snprintf(name, sizeof name, "position_%s", gains[k]);
		if (jtc_values(c, s, name, offsetof(struct jtc_joint, pos) +
		    fields[k], defaults[k]) < 0)
			return -1;
		snprintf(name, sizeof name, "velocity_%s", gains[k]);
		if (jtc_values(c, s, name, offsetof(struct jtc_joint, vel) +
		    fields[k], defaults[k]) < 0)
			return -1;
	}
	for (k = 0; k < s->n; k++)
		s->joints[k].target[0] = s->joints[k].initial;
	/* gz-sim reads it as the plugin's attribute; an element also does */
	if ((attr = phys_node_attr(c->node, "use_header_start_time"))) {
		rc = phys_parse_bool(attr, &s->header_time) ? 0 :
		    phys_sys_fail(c, NULL, "use_header_start_time='%.20s' is "
		    "not true or false", attr);
		free(attr);
		if (rc < 0)
			return -1;
	}
	if (phys_sys_bool(c, "use_header_start_time", &s->header_time) < 0)
		return -1;
	s->status = JTC_REACHED;
	topic = phys_sys_text(c, "topic");
	if (!topic || !*topic) {
		free(topic);
		topic = phys_xasprintf("/model/%s/joint_trajectory",
		    c->model_name);
	}
	rc = phys_sys_subscribe(c, topic, &phys_msg_joint_trajectory, 0);
	free(topic);
	return rc;
}

static void
jtc_forget(struct jtc *s)
{
	int k;

	for (k = 0; k < s->npoints; k++)
		free(s->points[k].v);
	free(s->points);
	free(s->which);
	s->points = NULL;
	s->which = NULL;
	s->npoints = s->nnames = s->index = 0;
}

/* The joint a trajectory's name is, or -1 with phys_error(). */
static int
jtc_find(const struct jtc *s, const char *name)
{
	int k;

	for (k = 0; k < s->n; k++)
		if (strcmp(s->joints[k].name, name) == 0)
			return k;
	return phys_fail("msg.joint_names: '%.60s' is no joint the "
	    "controller drives", name);
}

static int
jtc_check(const void *state, int slot, const json_t *msg)
{
	const json_t *names = phys_msg_get(msg, "joint_names");
	size_t i;

	if (json_array_size(names) == 0)
		return phys_fail("msg.joint_names: a trajectory names its "
		    "joints");
	for (i = 0; i < json_array_size(names); i++)
		if (jtc_find(state, json_string_value(json_array_get(names,
		    i))) < 0)
			return -1;
	return 0;
}

/* A point's value k of name i, NAN when it gives none. */
static double
point_value(const json_t *point, const char *field, size_t i)
{
	const json_t *a = phys_msg_get(point, field);

	return i < json_array_size(a) ?
	    json_number_value(json_array_get(a, i)) : NAN;
}

static double
msg_time(const json_t *t)
{
	return phys_msg_num(t, "sec") + phys_msg_num(t, "nsec") * 1e-9;
}

/* A new trajectory: followed from the next step (or from its header's
 * time, with use_header_start_time), the one before forgotten. */
static int
jtc_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	static const char *const fields[] = { "positions", "velocities",
		"effort" };
	struct jtc *s = state;
	const json_t *names = phys_msg_get(msg, "joint_names"),
	    *points = phys_msg_get(msg, "points"), *p;
	size_t i, k, f;

	jtc_forget(s);
	s->nnames = (int)json_array_size(names);
	s->which = phys_xcalloc((size_t)s->nnames, sizeof *s->which);
	for (i = 0; i < (size_t)s->nnames; i++)
		s->which[i] = jtc_find(s, json_string_value(
		    json_array_get(names, i)));
	s->npoints = (int)json_array_size(points);
	s->points = phys_xcalloc((size_t)s->npoints + 1, sizeof *s->points);
	for (k = 0; k < (size_t)s->npoints; k++) {
		p = json_array_get(points, k);
		s->points[k].v = phys_xcalloc((size_t)s->nnames * 3 + 1,
		    sizeof(double));
		for (i = 0; i < (size_t)s->nnames; i++)
			for (f = 0; f < 3; f++)
				s->points[k].v[3 * i + f] = point_value(p,
				    fields[f], i);
		s->points[k].at = msg_time(phys_msg_get(p, "time_from_start"));
	}
	s->has_start = s->header_time && phys_msg_get(msg, "header.stamp");
	if (s->has_start)
		s->start = msg_time(phys_msg_get(msg, "header.stamp"));
	s->status = JTC_NEW;
	return 0;
}

/* The targets of the current point, for the joints it names. */
static void
jtc_targets(struct jtc *s)
{
	const struct jtc_point *p = &s->points[s->index];
	int i, f;

	for (i = 0; i < s->nnames; i++)
		for (f = 0; f < 3; f++)
			if (s->which[i] >= 0 && !isnan(p->v[3 * i + f]))
				s->joints[s->which[i]].target[f] =
				    p->v[3 * i + f];
}

/*
 * gz-sim's: a trajectory starts at the first step after it came; at each
 * step the point followed is the first whose time has not passed, its
 * targets held until the next; each joint's effort is its position PID's
 * plus its velocity PID's plus the point's effort.
 */
static int
jtc_step(void *state, const struct phys_sys_run *r, double h)
{
	struct jtc *s = state;
	double t = phys_engine_time(r->e), pos[2], vel[2], f;
	bool update = false;
	int k;

	if (s->status == JTC_NEW) {
		if (!s->has_start)
			s->start = t;
		s->status = s->npoints ? JTC_ACTIVE : JTC_REACHED;
		update = true;
	}
	if (s->status == JTC_ACTIVE)
		while (s->index + 1 < s->npoints &&
		    s->points[s->index].at < t - s->start - 1e-12) {
			s->index++;
			update = true;
		}
	if (update && s->status == JTC_ACTIVE) {
		jtc_targets(s);
		if (s->index + 1 >= s->npoints)
			s->status = JTC_REACHED;
	}
	for (k = 0; k < s->n; k++) {
		struct jtc_joint *j = &s->joints[k];

		if (phys_engine_joint_state(r->e, j->joint, pos, vel) < 1)
			continue;
		f = phys_pid_update(&j->pos, pos[0] - j->target[0], h) +
		    phys_pid_update(&j->vel, vel[0] - j->target[1], h) +
		    j->target[2];
		if (phys_sys_command(r, j->joint, 0, PHYS_COMMAND_EFFORT,
		    f) < 0)
			return -1;
	}
	return 0;
}

static void
jtc_free(void *state)
{
	struct jtc *s = state;

	jtc_forget(s);
	free(s->joints);
}

const struct phys_sys_kind phys_sys_joint_trajectory_controller = {
	"JointTrajectoryController", "joint-trajectory-controller-system",
	false, sizeof(struct jtc), jtc_parse, NULL, jtc_step, jtc_message,
	jtc_free, jtc_check, NULL, NULL
};
