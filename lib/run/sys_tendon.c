/*
 * sys_tendon.c - phys's own system of an MJCF actuator that pulls a fixed
 * tendon (phys(7), SYSTEMS): the tendon's length L is its offset plus
 * the sum of coef times position over its joints, its rate the sum of
 * coef times rate; before each step the actuator's force, gain times
 * the control (held to its range) plus bias[0] + bias[1] L + bias[2] dL/dt
 * and held to the force range, is each joint's effort times its
 * coefficient, as MuJoCo 2.2.2 applies an actuator through a tendon;
 * under dynamics the activation takes the control's place in the force.
 * Its messages (gz.msgs.Double) are the control.
 *
 * TendonSpring, phys's system of an MJCF fixed tendon's stiffness and
 * damping: its force, -stiffness (L - spring_length) - damping dL/dt,
 * pulls the joints the same way.
 *
 * SiteActuator, phys's system of an MJCF actuator of a site (a drone's
 * rotor): its force, computed as a tendon actuator's with a length of 0
 * (MuJoCo 2.2.2's site transmission without refsite) and the site's
 * speed along its gear as the rate, pushes the link at the site along
 * the gear's force and turns it by the gear's torque, both in the site's
 * frame.
 */
#include "sysint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* A fixed tendon: L = offset + sum of coef times joint position. */
struct tendon {
	char *name;		/* NULL: none */
	int *joints;
	double *coef;		/* an actuator's gear times the coefficient */
	int n;
	double offset;		/* L at the joints' zero positions */
};

struct tendon_act {
	struct tendon t;
	double gain, bias[3];
	double ctrl[2], force[2];	/* ranges; infinite: none */
	double u;		/* the control, as given */
	/* Under dynamics the force's input is the activation, which
	 * integrates the control or follows it in time tau, within
	 * act_range. */
	enum phys_actuator_dynamics dyn;
	double tau, act_range[2], act;
};

/* The tendon's <joint>s (coef), <length_offset> and <tendon> name. */
static int
tendon_parse(const struct phys_sys_conf *c, struct tendon *s)
{
	xmlNodePtr e;
	char *text;
	bool ok;
	int j;

	for (e = phys_child(c->node, "joint"); e; e = phys_next(e, "joint")) {
		if ((j = phys_sys_joint(c, e)) < 0 ||
		    phys_sys_check_axis(c, e, j, 0) < 0)
			return -1;
		if (phys_joint_axes(c->w->joints[j].type) != 1)
			return phys_sys_fail(c, e, "joint '%s' is not a joint of "
			    "one axis", c->w->joints[j].name);
		s->joints = phys_xrealloc(s->joints, (size_t)(s->n + 1) *
		    sizeof *s->joints);
		s->coef = phys_xrealloc(s->coef, (size_t)(s->n + 1) *
		    sizeof *s->coef);
		s->joints[s->n] = j;
		s->coef[s->n] = 1;
		if ((text = phys_node_attr(e, "coef"))) {
			ok = phys_parse_double(text, &s->coef[s->n]) &&
			    isfinite(s->coef[s->n]);
			free(text);
			if (!ok)
				return phys_sys_fail(c, e, "%s", "<joint coef>: "
				    "not a finite number");
		}
		s->n++;
	}
	if (s->n == 0)
		return phys_sys_fail(c, NULL, "no <joint>: the tendon pulls "
		    "nothing");
	if (phys_sys_numbers(c, "length_offset", &s->offset, 1) < 0)
		return -1;
	s->name = phys_sys_text(c, "tendon");
	return 0;
}

/* The tendon's length and rate now. */
static void
tendon_state(const struct tendon *s, const struct phys_sys_run *r,
    double *len, double *rate)
{
	double pos[2], vel[2];
	int k;

	*len = s->offset;
	*rate = 0;
	for (k = 0; k < s->n; k++) {
		if (phys_engine_joint_state(r->e, s->joints[k], pos, vel) < 1)
			continue;
		*len += s->coef[k] * pos[0];
		*rate += s->coef[k] * vel[0];
	}
}

/* Force f along the tendon, on each joint times its coefficient. */
static int
tendon_pull(const struct tendon *s, const struct phys_sys_run *r, double f)
{
	int k;

	for (k = 0; k < s->n; k++)
		if (phys_sys_pull(r, s->joints[k], s->coef[k] * f) < 0)
			return -1;
	return 0;
}

static void
tendon_free(struct tendon *s)
{
	free(s->name);
	free(s->joints);
	free(s->coef);
}

/* <dynamics> (none, integrator, filter, filterexact) and its
 * <time_constant> (s) and <act_range>. */
static int
ta_dynamics(const struct phys_sys_conf *c, struct tendon_act *s)
{
	static const char *const names[] = { "none", "integrator", "filter",
		"filterexact" };
	const size_t n = sizeof names / sizeof *names;
	char *text = phys_sys_text(c, "dynamics");
	size_t k;

	s->dyn = PHYS_DYN_NONE;
	for (k = 0; text && k < n && strcmp(text, names[k]) != 0; k++)
		continue;
	free(text);
	if (k == n)
		return phys_sys_fail(c, phys_child(c->node, "dynamics"),
		    "<dynamics>: none, integrator, filter or filterexact");
	if (text)
		s->dyn = (enum phys_actuator_dynamics)k;
	s->tau = 1;
	if (phys_sys_numbers(c, "time_constant", &s->tau, 1) < 0 ||
	    phys_sys_range(c, "act_range", s->act_range) < 0)
		return -1;
	if ((s->dyn == PHYS_DYN_FILTER || s->dyn == PHYS_DYN_FILTEREXACT) &&
	    !(s->tau > 0))
		return phys_sys_fail(c, phys_child(c->node, "time_constant"),
		    "%s", "<time_constant>: must be positive");
	return 0;
}

/* The force's law: <gain> (1), <bias>, <ctrl_range>, <force_range> and
 * the dynamics. */
static int
ta_law(const struct phys_sys_conf *c, struct tendon_act *s)
{
	s->gain = 1;
	if (phys_sys_numbers(c, "gain", &s->gain, 1) < 0 ||
	    phys_sys_numbers(c, "bias", s->bias, 3) < 0 ||
	    phys_sys_range(c, "ctrl_range", s->ctrl) < 0 ||
	    phys_sys_range(c, "force_range", s->force) < 0)
		return -1;
	return ta_dynamics(c, s);
}

static int
ta_parse(const struct phys_sys_conf *c, void *state)
{
	struct tendon_act *s = state;
	char *topic, *joint;
	int rc;

	if (tendon_parse(c, &s->t) < 0 || ta_law(c, s) < 0)
		return -1;
	if (!(topic = phys_sys_text(c, "topic")) && s->t.name)
		topic = phys_xasprintf("/model/%s/tendon/%s/cmd", c->model_name,
		    s->t.name);
	else if (!topic) {	/* a joint's own actuator, as MJCF's */
		joint = phys_node_text(phys_child(c->node, "joint"));
		topic = phys_xasprintf("/model/%s/joint/%s/cmd", c->model_name,
		    joint);
		free(joint);
	}
	rc = phys_sys_subscribe(c, topic, &phys_msg_double, 0);
	free(topic);
	return rc;
}

static int
ta_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct tendon_act *s = state;

	(void)r;
	(void)slot;
	s->u = phys_msg_num(msg, "data");
	return 0;
}

/* The actuator's force at length len and rate, held to its range. */
static double
ta_force(const struct tendon_act *s, double len, double rate)
{
	double u = fmin(fmax(s->u, s->ctrl[0]), s->ctrl[1]), f;

	f = s->gain * (s->dyn == PHYS_DYN_NONE ? u : s->act) + s->bias[0] +
	    s->bias[1] * len + s->bias[2] * rate;
	return fmin(fmax(f, s->force[0]), s->force[1]);
}

/* The activation over a step of h, as MuJoCo's Euler step takes it (a
 * later MuJoCo's filterexact: as the filter moves over h exactly). */
static void
ta_activate(struct tendon_act *s, double h)
{
	double u = fmin(fmax(s->u, s->ctrl[0]), s->ctrl[1]);

	if (s->dyn == PHYS_DYN_NONE)
		return;
	if (s->dyn == PHYS_DYN_FILTEREXACT)
		s->act += (u - s->act) * -expm1(-h / s->tau);
	else
		s->act += h * (s->dyn == PHYS_DYN_INTEGRATOR ? u :
		    (u - s->act) / s->tau);
	s->act = fmin(fmax(s->act, s->act_range[0]), s->act_range[1]);
}

static int
ta_step(void *state, const struct phys_sys_run *r, double h)
{
	struct tendon_act *s = state;
	double len, rate;

	tendon_state(&s->t, r, &len, &rate);
	if (tendon_pull(&s->t, r, ta_force(s, len, rate)) < 0)
		return -1;
	ta_activate(s, h);
	return 0;
}

static void
ta_free(void *state)
{
	tendon_free(&((struct tendon_act *)state)->t);
}

/* MuJoCo's actuator of a fixed tendon, as it is. */
static int
ta_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	const struct tendon_act *s = state;
	struct phys_mjcf_actuator a = { PHYS_MJCF_TENDON, s->t.joints[0], 0, 0,
		0, 0, s->force[0], s->force[1], s->u, NULL, NULL,
		{ s->t.name, s->t.joints, s->t.coef, (size_t)s->t.n, s->t.offset,
		  s->gain,
		  { s->bias[0], s->bias[1], s->bias[2] },
		  { s->ctrl[0], s->ctrl[1] }, s->dyn, s->tau,
		  { s->act_range[0], s->act_range[1] }, 0, 0, 0 },
		{ -INFINITY, INFINITY }, { -1, NULL, { 0 }, { 0 } }, false, 0 };

	(void)v;
	phys_sys_actuator_add(out, &a);
	return 0;
}

const struct phys_sys_kind phys_sys_tendon_actuator = {
	"TendonActuator", "phys-tendon-actuator-system", false,
	sizeof(struct tendon_act), ta_parse, NULL, ta_step, ta_message,
	ta_free, NULL, ta_actuators, NULL
};

/* ---- TendonSpring ---- */

struct tendon_spring {
	struct tendon t;
	double stiffness;	/* N/m or N m/rad */
	double damping;		/* N s/m or N m s/rad */
	double rest;		/* <spring_length>: L where it pulls by 0 */
};

static int
ts_parse(const struct phys_sys_conf *c, void *state)
{
	struct tendon_spring *s = state;

	if (tendon_parse(c, &s->t) < 0 ||
	    phys_sys_not_negative(c, "stiffness", &s->stiffness) < 0 ||
	    phys_sys_not_negative(c, "damping", &s->damping) < 0)
		return -1;
	s->rest = s->t.offset;
	return phys_sys_numbers(c, "spring_length", &s->rest, 1) < 0 ? -1 : 0;
}

static int
ts_step(void *state, const struct phys_sys_run *r, double h)
{
	struct tendon_spring *s = state;
	double len, rate;

	(void)h;
	tendon_state(&s->t, r, &len, &rate);
	return tendon_pull(&s->t, r, -s->stiffness * (len - s->rest) -
	    s->damping * rate);
}

static void
ts_free(void *state)
{
	tendon_free(&((struct tendon_spring *)state)->t);
}

/* MuJoCo's fixed tendon of stiffness and damping, no actuator. */
static int
ts_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	const struct tendon_spring *s = state;
	struct phys_mjcf_actuator a = { PHYS_MJCF_SPRING, s->t.joints[0], 0,
		0, 0, 0, -INFINITY, INFINITY, 0, NULL, NULL,
		{ s->t.name, s->t.joints, s->t.coef, (size_t)s->t.n,
		  s->t.offset, 0, { 0, 0, 0 }, { -INFINITY, INFINITY },
		  PHYS_DYN_NONE, 0, { -INFINITY, INFINITY }, s->stiffness,
		  s->damping, s->rest }, { -INFINITY, INFINITY },
		{ -1, NULL, { 0 }, { 0 } }, false, 0 };

	(void)v;
	phys_sys_actuator_add(out, &a);
	return 0;
}

const struct phys_sys_kind phys_sys_tendon_spring = {
	"TendonSpring", "phys-tendon-spring-system", false,
	sizeof(struct tendon_spring), ts_parse, NULL, ts_step, NULL, ts_free,
	NULL, ts_actuators, NULL
};

/* ---- SiteActuator ---- */

struct site_act {
	struct tendon_act a;	/* its force; no joints */
	int link;
	char *site;		/* its name: the topic's */
	phys_pose at;		/* the site in the link's frame */
	double pose[6], gear[6];	/* as given */
};

static int
sa_parse(const struct phys_sys_conf *c, void *state)
{
	struct site_act *s = state;
	char *topic;
	int rc;

	s->gear[0] = 1;
	if ((s->link = phys_sys_link(c, phys_child(c->node,
	    "link_name"))) < 0 ||
	    phys_sys_numbers(c, "pose", s->pose, 6) < 0 ||
	    phys_sys_numbers(c, "gear", s->gear, 6) < 0 ||
	    ta_law(c, &s->a) < 0)
		return -1;
	s->at = phys_pose_from6(s->pose);
	s->site = phys_sys_text(c, "site");
	if (!(topic = phys_sys_text(c, "topic")))
		topic = phys_xasprintf("/model/%s/site/%s/cmd", c->model_name,
		    s->site ? s->site : c->w->links[s->link].name);
	rc = phys_sys_subscribe(c, topic, &phys_msg_double, 0);
	free(topic);
	return rc;
}

/* The site's gear in the world: its force's direction, its torque's, and
 * where it acts; the speed along them (MuJoCo's actuator velocity). */
static double
sa_frame(const struct site_act *s, const struct phys_sys_run *r,
    phys_vec3 *f, phys_vec3 *t, phys_vec3 *p)
{
	phys_vec3 com, comv, lin, ang, v;
	phys_pose lp, site;

	phys_engine_link_pose(r->e, s->link, &lp);
	site = phys_pose_mul(lp, s->at);
	*f = phys_quat_rotate(site.q, v3(s->gear[0], s->gear[1], s->gear[2]));
	*t = phys_quat_rotate(site.q, v3(s->gear[3], s->gear[4], s->gear[5]));
	*p = site.p;
	phys_engine_link_com(r->e, s->link, &com, &comv);
	phys_engine_link_vel(r->e, s->link, &lin, &ang);
	v = v3_add(comv, v3_cross(ang, v3_sub(site.p, com)));
	return v3_dot(*f, v) + v3_dot(*t, ang);
}

static int
sa_step(void *state, const struct phys_sys_run *r, double h)
{
	struct site_act *s = state;
	phys_vec3 f, t, p, com, comv;
	double rate = sa_frame(s, r, &f, &t, &p), x;

	x = ta_force(&s->a, 0, rate);	/* a site's length is 0 */
	/* the force at the site: through the centre of mass, with the
	 * torque of its arm */
	phys_engine_link_com(r->e, s->link, &com, &comv);
	f = v3_scale(f, x);
	t = v3_add(v3_scale(t, x), v3_cross(v3_sub(p, com), f));
	if (phys_sys_push(r, s->link, f, t) < 0)
		return -1;
	ta_activate(&s->a, h);
	return 0;
}

static void
sa_free(void *state)
{
	free(((struct site_act *)state)->site);
}

/* MuJoCo's actuator of a site, as it is. */
static int
sa_actuators(const void *state, const struct phys_run_values *v,
    struct phys_sys_actuators *out)
{
	const struct site_act *s = state;
	const struct tendon_act *t = &s->a;
	struct phys_mjcf_actuator a = { PHYS_MJCF_SITE, -1, 0, 0, 0, 0,
		t->force[0], t->force[1], t->u, NULL, NULL,
		{ NULL, NULL, NULL, 0, 0, t->gain,
		  { t->bias[0], t->bias[1], t->bias[2] },
		  { t->ctrl[0], t->ctrl[1] }, t->dyn, t->tau,
		  { t->act_range[0], t->act_range[1] }, 0, 0, 0 },
		{ -INFINITY, INFINITY },
		{ s->link, s->site, { 0 }, { 0 } }, false, 0 };

	(void)v;
	memcpy(a.site.pose, s->pose, sizeof s->pose);
	memcpy(a.site.gear, s->gear, sizeof s->gear);
	phys_sys_actuator_add(out, &a);
	return 0;
}

const struct phys_sys_kind phys_sys_site_actuator = {
	"SiteActuator", "phys-site-actuator-system", false,
	sizeof(struct site_act), sa_parse, NULL, sa_step, ta_message,
	sa_free, NULL, sa_actuators, NULL
};
