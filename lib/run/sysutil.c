/* sysutil.c - what gz-sim's systems share: parameters, topics, commands
 * and the velocity servo. */
#include "sysint.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "engine_common.h"
#include "inertia.h"

/* ---- parameters ---- */

int
phys_sys_fail(const struct phys_sys_conf *c, xmlNodePtr e, const char *fmt,
    ...)
{
	va_list ap;
	char *what;
	int rc;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	rc = phys_failat(PHYS_AT(c->doc, e ? e : c->node),
	    "%s: %s", c->label, what ? what : fmt);
	free(what);
	return rc;
}

int
phys_sys_double(const struct phys_sys_conf *c, const char *name, double *out)
{
	xmlNodePtr e = phys_child(c->node, name);
	char *text;
	bool ok;

	if (!e)
		return 0;
	text = phys_node_text(e);
	ok = phys_parse_double(text, out);
	if (!ok)
		phys_sys_fail(c, e, "<%s> '%.40s' is not a number", name, text);
	free(text);
	return ok ? 1 : -1;
}

int
phys_sys_bool(const struct phys_sys_conf *c, const char *name, bool *out)
{
	xmlNodePtr e = phys_child(c->node, name);
	char *text, *p;
	bool ok;

	if (!e)
		return 0;
	text = phys_node_text(e);
	for (p = text; *p; p++)	/* libsdformat reads True as true */
		*p = (char)tolower((unsigned char)*p);
	ok = phys_parse_bool(text, out);
	if (!ok)
		phys_sys_fail(c, e, "<%s> '%.40s' is not true or false", name,
		    text);
	free(text);
	return ok ? 1 : -1;
}

int
phys_sys_numbers(const struct phys_sys_conf *c, const char *name,
    double *out, int n)
{
	xmlNodePtr e = phys_child(c->node, name);
	double v[6];
	char *text;
	int k, ok;

	if (!e)
		return 0;
	text = phys_node_text(e);
	ok = n <= 6 && phys_parse_doubles(text, v, n) == n;
	for (k = 0; ok && k < n; k++)
		ok = isfinite(v[k]);
	if (ok)
		memcpy(out, v, (size_t)n * sizeof *out);
	else
		phys_sys_fail(c, e, "<%s> '%.40s' is not %d finite number%s",
		    name, text, n, n > 1 ? "s" : "");
	free(text);
	return ok ? 1 : -1;
}

int
phys_sys_range(const struct phys_sys_conf *c, const char *name, double v[2])
{
	v[0] = -INFINITY;
	v[1] = INFINITY;
	if (phys_sys_numbers(c, name, v, 2) < 0)
		return -1;
	if (!(v[0] < v[1]))
		return phys_sys_fail(c, phys_child(c->node, name), "<%s>: its "
		    "first number must be below its second", name);
	return 0;
}

int
phys_sys_not_negative(const struct phys_sys_conf *c, const char *name,
    double *v)
{
	if (phys_sys_numbers(c, name, v, 1) < 0)
		return -1;
	if (!(*v >= 0))
		return phys_sys_fail(c, phys_child(c->node, name), "<%s>: "
		    "must not be negative", name);
	return 0;
}

int
phys_sys_vec3(const struct phys_sys_conf *c, const char *name, phys_vec3 *out)
{
	double v[3];
	int rc = phys_sys_numbers(c, name, v, 3);

	if (rc > 0)
		*out = v3(v[0], v[1], v[2]);
	return rc;
}

char *
phys_sys_text(const struct phys_sys_conf *c, const char *name)
{
	xmlNodePtr e = phys_child(c->node, name);

	return e ? phys_node_text(e) : NULL;
}

/* An entity of the plugin's model by the name element e holds. */
static int
entity(const struct phys_sys_conf *c, xmlNodePtr e, enum phys_kind kind,
    const char *what)
{
	char *name = phys_node_text(e), *full;
	int idx;

	if (!*name) {
		free(name);
		return phys_sys_fail(c, e, "<%s> is empty", (const char *)e->name);
	}
	full = c->model >= 0 ? phys_xasprintf("%s::%s",
	    phys_model_scope(c->w, c->model), name) : phys_xstrdup(name);
	idx = phys_world_entity_of(c->w, full, kind);
	if (idx < 0 && c->model >= 0)
		phys_sys_fail(c, e, "model '%s' has no %s '%s'",
		    c->w->models[c->model].name, what, name);
	else if (idx < 0)
		phys_sys_fail(c, e, "the world has no %s '%s'", what, name);
	free(name);
	free(full);
	return idx;
}

int
phys_sys_joint(const struct phys_sys_conf *c, xmlNodePtr e)
{
	return entity(c, e, PHYS_K_JOINT, "joint");
}

int
phys_sys_link(const struct phys_sys_conf *c, xmlNodePtr e)
{
	return entity(c, e, PHYS_K_LINK, "link");
}

int
phys_sys_joints(const struct phys_sys_conf *c, const char *name, int **out)
{
	xmlNodePtr e;
	int n = 0, j;

	*out = NULL;
	for (e = phys_child(c->node, name); e; e = phys_next(e, name)) {
		if ((j = phys_sys_joint(c, e)) < 0) {
			free(*out);
			*out = NULL;
			return -1;
		}
		*out = phys_xrealloc(*out, (size_t)(n + 1) * sizeof **out);
		(*out)[n++] = j;
	}
	if (n == 0)
		return phys_sys_fail(c, NULL, "no <%s>: the system has no "
		    "joint to drive", name);
	return n;
}

void
phys_sys_set_param(const struct phys_sys_conf *c, int joint,
    enum phys_param_id id, double v)
{
	struct phys_value *vals = phys_run_values_at(c->vals, PHYS_S_JOINT,
	    joint);
	struct phys_value *x = &vals[phys_param_index[id]];

	if (phys_params[id].type == PHYS_T_BOOL)
		x->u.b = v != 0;
	else
		x->u.d = v;
	x->given = true;
}

void
phys_sys_actuator_add(struct phys_sys_actuators *out,
    const struct phys_mjcf_actuator *a)
{
	out->v = phys_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
	out->v[out->n++] = *a;
}

/* ---- topics ---- */

char *
phys_sys_topic_name(const char *topic)
{
	struct phys_buf b = { 0 };
	const char *s;

	phys_buf_putc(&b, '/');
	for (s = topic; *s; s++) {
		if (*s == '@')
			continue;
		if (s[0] == ':' && s[1] == '=') {
			s++;
			continue;
		}
		if (*s == '/' && b.s[b.len - 1] == '/')
			continue;
		phys_buf_putc(&b, *s == ' ' ? '_' : *s);
	}
	while (b.len > 1 && b.s[b.len - 1] == '/')
		b.s[--b.len] = '\0';
	if (b.len <= 1) {
		phys_buf_free(&b);
		return NULL;
	}
	return b.s;
}

int
phys_sys_subscribe(const struct phys_sys_conf *c, const char *topic,
    const struct phys_msg_type *t, int slot)
{
	struct phys_systems *all = c->all;
	char *name = phys_sys_topic_name(topic);
	size_t i;

	if (!name)
		return phys_sys_fail(c, NULL, "'%.60s' is no topic name",
		    topic);
	for (i = 0; i < all->ntopics; i++)
		if (strcmp(all->topics[i], name) == 0)
			break;
	if (i == all->ntopics) {
		all->topics = phys_xrealloc(all->topics, (i + 1) *
		    sizeof *all->topics);
		all->topics[all->ntopics++] = name;
	} else {
		free(name);
	}
	all->subs = phys_xrealloc(all->subs, (all->nsubs + 1) *
	    sizeof *all->subs);
	all->subs[all->nsubs++] = (struct phys_sys_sub){ (int)i, t, c->inst,
		slot };
	return 0;
}

/* ---- commands ---- */

int
phys_sys_model_links(const struct phys_scene *w, int mi, int **out)
{
	size_t i;
	int m, n = 0;

	*out = NULL;
	for (i = 0; i < w->nlinks; i++) {
		for (m = w->links[i].model; m >= 0 && m != mi;
		    m = w->models[m].parent)
			;
		if (m < 0)
			continue;
		*out = phys_xrealloc(*out, (size_t)(n + 1) * sizeof **out);
		(*out)[n++] = (int)i;
	}
	return n;
}

int
phys_sys_push(const struct phys_sys_run *r, int link, phys_vec3 f,
    phys_vec3 t)
{
	phys_vec3 *p = &r->pushes[2 * link];

	p[0] = v3_add(p[0], f);
	p[1] = v3_add(p[1], t);
	return phys_engine_set_link_wrench(r->e, link, p[0], p[1]);
}

int
phys_sys_pull(const struct phys_sys_run *r, int joint, double f)
{
	r->pulls[joint] += f;
	return phys_sys_command(r, joint, 0, PHYS_COMMAND_EFFORT,
	    r->pulls[joint]);
}

int
phys_sys_command(const struct phys_sys_run *r, int joint, int axis,
    enum phys_command_kind kind, double target)
{
	const struct phys_axis_motor *a0;
	double t[2];

	if (axis == 0)
		return phys_engine_command(r->e, joint, kind, &target, 1);
	/* One kind for both axes: the first keeps its target. */
	a0 = phys_engine_motor(r->e, joint, 0);
	t[0] = a0->kind == kind ? a0->target : 0;
	t[1] = target;
	return phys_engine_command(r->e, joint, kind, t, 2);
}

int
phys_sys_check_axis(const struct phys_sys_conf *c, xmlNodePtr e, int joint,
    int axis)
{
	const struct phys_joint *j = &c->w->joints[joint];
	int n = phys_joint_axes(j->type);

	if (n == 0) {
		char *why = phys_joint_no_axis(j, "drive");
		int rc = phys_sys_fail(c, e, "%s", why);

		free(why);
		return rc;
	}
	if (axis < 0 || axis >= n)
		return phys_sys_fail(c, e, "joint '%s' has no axis %d (it has "
		    "%d)", j->name, axis, n);
	return 0;
}

/* ---- gz-math's PID (motor.h's), its rate the error's change ---- */

double
phys_pid_update(struct phys_pid *pid, double error, double h)
{
	double rate;

	if (!(h > 0) || !isfinite(error))
		return 0;
	rate = (error - pid->last) / h;
	pid->last = error;
	return phys_pid_step(&pid->g, &pid->integral, error, rate, h);
}

/* ---- the velocity servo ---- */

void
phys_servo_init(struct phys_servo *s, int joint, int axis)
{
	memset(s, 0, sizeof *s);
	s->joint = joint;
	s->axis = axis;
}

/* A link as an axis's inertia sees it, now; the world and static links
 * have none to give. */
static struct phys_body_inverse
body_inverse(const struct phys_sys_run *r, int link)
{
	struct phys_body_inverse b;
	double mass, in[6], I[9];
	phys_vec3 comv;
	phys_pose lp;

	memset(&b, 0, sizeof b);
	if (link < 0 || !phys_engine_link_dynamic(r->e, link))
		return b;
	phys_engine_link_mass(r->e, link, &mass, in);
	I[0] = in[0], I[1] = in[3], I[2] = in[4];
	I[3] = in[3], I[4] = in[1], I[5] = in[5];
	I[6] = in[4], I[7] = in[5], I[8] = in[2];
	phys_engine_link_pose(r->e, link, &lp);
	lp = phys_pose_mul(lp, phys_pose_from6(PV(phys_run_values_get(r->vals,
	    PHYS_S_LINK, link), LINK_inertial_pose)->u.pose));
	b.inv_mass = mass > 0 ? 1 / mass : 0;
	b.inv_inertia = phys_inverse_inertia_world(I, lp.q);
	phys_engine_link_com(r->e, link, &b.com, &comv);
	return b;
}

/* How link has turned since the world was loaded. */
static phys_quat
turned(const struct phys_sys_run *r, int link)
{
	phys_pose now;

	if (link < 0)
		return (phys_quat){ 1, 0, 0, 0 };
	phys_engine_link_pose(r->e, link, &now);
	return phys_quat_mul(now.q, phys_quat_conj(r->w->links[link].pose.q));
}

/* The inverse inertia of axis k of joint ji now, its two bodies alone. */
static double
axis_inverse_inertia(const struct phys_sys_run *r, int ji, int k)
{
	const struct phys_joint *j = &r->w->joints[ji];
	struct phys_body_inverse c = body_inverse(r, j->child);
	struct phys_body_inverse p = body_inverse(r, j->parent);
	int frame = j->child >= 0 ? j->child : j->parent;
	/* a universal or revolute2 joint's first axis turns with the parent */
	int axis_frame = k == 0 && (j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2) ? j->parent : frame;
	phys_vec3 anchor = j->pose.p, axis;
	phys_pose now;

	if (frame >= 0) {
		phys_engine_link_pose(r->e, frame, &now);
		anchor = phys_pose_apply(phys_pose_mul(now,
		    phys_pose_inv(r->w->links[frame].pose)), j->pose.p);
	}
	axis = phys_quat_rotate(turned(r, axis_frame), j->axis[k]);
	return phys_axis_inverse_inertia(&c, &p, anchor, axis,
	    j->type == PHYS_JOINT_PRISMATIC);
}

int
phys_servo_step(struct phys_servo *s, const struct phys_sys_run *r, double h)
{
	double pos[2], vel[2], inv, load = 0, f;

	if (phys_engine_joint_state(r->e, s->joint, pos, vel) <= s->axis)
		return 0;
	inv = axis_inverse_inertia(r, s->joint, s->axis);
	if (!(inv > 0) || !(h > 0))
		return 0;	/* both bodies static: nothing moves */
	if (s->has_last) {
		load = (vel[s->axis] - s->last_vel) / (h * inv) -
		    phys_engine_motor(r->e, s->joint, s->axis)->applied;
		load = (load + s->load) / 2;
		s->load = load;
	}
	f = (s->target - vel[s->axis]) / (h * inv) - load;
	s->last_vel = vel[s->axis];
	s->has_last = true;
	return phys_sys_command(r, s->joint, s->axis, PHYS_COMMAND_EFFORT, f);
}
