/*
 * mjcfkey_write.c - keyframes as MJCF (mjcfkey_write.h). phys holds a
 * key as each link's pose and velocity; MuJoCo holds it as joint values.
 * A body's values are those that take it from where the file puts it at
 * rest on its parent (the loaded pose: MuJoCo's qpos0) to where the key
 * has it, and each is checked by where it would put the body, so that no
 * key is written that MuJoCo would start otherwise than phys does.
 */
#include "mjcfkey_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "geom.h"
#include "mem.h"
#include "mjcf.h"
#include "msg.h"
#include "num.h"
#include "param.h"
#include "sdf.h"
#include "sdfedit.h"

/* How far a joint's values may leave a link from its key: m, rad, m/s,
 * rad/s (relative above 1). A key read from MJCF is what joints give, to
 * rounding. */
#define KEY_TOL 1e-6
/* The key that holds the velocities of Gazebo's InitialVelocityPlugin,
 * which MuJoCo's model, always starting at rest, cannot. */
#define INITIAL_KEY "initial_velocity"

/* A link's state in the world: pose, its origin's velocity, angular
 * velocity. */
struct state {
	phys_pose pose;
	phys_vec3 lin, ang;
};

/* A body's motion against its place at rest on its parent: d, its pose
 * in that place's frame; at, its pose in the world; w and v, its angular
 * velocity and its origin's velocity less what the parent's motion gives
 * that point, in the world. */
struct rel {
	phys_pose d, at;
	phys_vec3 w, v;
};

struct keyw {
	const struct phys_scene *w;
	const struct phys_mjcf_tree *t;
	const char *key;
	bool initial;		/* the key is INITIAL_KEY */
	struct state *s;	/* per link, in the key */
	bool *known;		/* per link: s is set */
	struct phys_buf qpos, qvel;
	/* the first link the written joints cannot hold, and why */
	int bad_link;
	const char *bad_joint, *why;
};

/* ---- the key's states ---- */

/* The state a link's <phys:key> gives, from its model's frame. */
static bool
read_state(const struct phys_scene *w, int li, xmlNodePtr k,
    struct state *s)
{
	return phys_mjcf_key_state(w, li, k, &s->pose, &s->lin, &s->ang) == 0;
}

static void
fail(struct keyw *k, int li, const char *joint, const char *why)
{
	if (k->why)
		return;
	k->bad_link = li;
	k->bad_joint = joint;
	k->why = why;
}

/*
 * Link li's state in the key: its own when it is not static and holds
 * the key (the run sets only those: lib/run/keyframe.c), else carried at
 * rest on its parent body, or where it was loaded.
 */
static void
link_state(struct keyw *k, int li)
{
	const struct phys_link *l = &k->w->links[li];
	int up = k->t->up[li];
	struct state *s = &k->s[li], *p;
	xmlNodePtr n;

	if (k->known[li])
		return;
	k->known[li] = true;
	memset(s, 0, sizeof *s);
	s->pose = l->pose;
	if (up >= 0) {
		link_state(k, up);
		p = &k->s[up];
		s->pose = phys_pose_mul(p->pose, phys_pose_mul(phys_pose_inv(
		    k->w->links[up].pose), l->pose));
		s->ang = p->ang;
		s->lin = v3_add(p->lin, v3_cross(p->ang, v3_sub(s->pose.p,
		    p->pose.p)));
	}
	if (k->w->models[l->model].is_static)
		return;
	if (k->initial && k->w->models[l->model].has_init_vel) {
		/* as the run sets them: every link's, in the world */
		s->lin = k->w->models[l->model].init_linear;
		s->ang = k->w->models[l->model].init_angular;
		return;
	}
	n = phys_mjcf_key(l->node, k->key, NULL);
	if (n && !read_state(k->w, li, n, s))
		fail(k, li, NULL, "its <phys:key> is not a pose and two "
		    "velocities");
}

/* ---- joint values ---- */

double
phys_mjcf_joint_ref(const struct phys_joint *j, int k)
{
	xmlNodePtr n = phys_child(phys_child(j->node, k ? "axis2" : "axis"),
	    NULL);
	char *text;
	double v = 0;

	for (; n; n = phys_next(n, NULL))
		if (phys_mjcf_own(n, "ref")) {
			text = phys_node_text(n);
			if (!phys_parse_double(text, &v))
				v = 0;
			free(text);
			break;
		}
	return v;
}

static bool
near_v(phys_vec3 a, phys_vec3 b)
{
	return v3_norm(v3_sub(a, b)) <= KEY_TOL * (1 + v3_norm(b));
}

/* The angle of the turn from a to b. */
static double
turn_between(phys_quat a, phys_quat b)
{
	phys_quat d = phys_quat_mul(phys_quat_conj(a), b);

	return 2 * atan2(v3_norm(v3(d.x, d.y, d.z)), fabs(d.w));
}

/* Joint ji's child against its place at rest on the joint's parent. */
static struct rel
relative(const struct keyw *k, int ji)
{
	const struct phys_joint *j = &k->w->joints[ji];
	const struct state zero = { PHYS_POSE_IDENTITY, { 0, 0, 0 },
		{ 0, 0, 0 } };
	const struct state *p = j->parent >= 0 ? &k->s[j->parent] : &zero;
	const struct state *c = &k->s[j->child];
	phys_pose loaded = j->parent >= 0 ? k->w->links[j->parent].pose :
	    PHYS_POSE_IDENTITY, rest;
	struct rel r;

	rest = phys_pose_mul(p->pose, phys_pose_mul(phys_pose_inv(loaded),
	    k->w->links[j->child].pose));
	r.d = phys_pose_mul(phys_pose_inv(rest), c->pose);
	r.at = c->pose;
	r.w = v3_sub(c->ang, p->ang);
	r.v = v3_sub(c->lin, v3_add(p->lin, v3_cross(p->ang,
	    v3_sub(c->pose.p, p->pose.p))));
	return r;
}

static void
put_values(struct phys_buf *b, const double *x, int n)
{
	char s[40];
	int i;

	for (i = 0; i < n; i++) {
		phys_fmt_double(s, sizeof s, x[i]);
		phys_buf_printf(b, b->len ? " %s" : "%s", s);
	}
}

/* A turn about anchor c (in the body) leaves c where it was, and moves
 * the body's origin as it turns about c. */
static const char *
check_turn(const struct rel *r, phys_vec3 c)
{
	phys_vec3 anchor = phys_pose_apply(r->at, c);

	if (!near_v(r->d.p, v3_sub(c, phys_quat_rotate(r->d.q, c))))
		return "it moved off the joint's anchor";
	if (!near_v(r->v, v3_cross(r->w, v3_sub(r->at.p, anchor))))
		return "it moves off the joint's anchor";
	return NULL;
}

/* The angle a of axis k of joint j, which a pose gives modulo a turn,
 * nearest the middle of its range, else 0. */
static double
in_range(const struct phys_joint *j, int k, double a)
{
	struct phys_axis_values lim = phys_joint_axis_values(j->vals, k);

	return phys_angle_near(a, phys_has_lower(lim.lower) &&
	    phys_has_upper(lim.upper) ? (lim.lower + lim.upper) / 2 : 0);
}

/* A hinge about a (in the body), its joint's first axis. */
static const char *
hinge(const struct rel *r, const struct phys_joint *j, phys_vec3 a,
    phys_vec3 c, double x[2])
{
	phys_vec3 aw = phys_quat_rotate(r->at.q, a);

	x[0] = in_range(j, 0, phys_angle_about(r->d.q, a));
	x[1] = v3_dot(r->w, aw);
	if (turn_between(phys_quat_about(a, x[0]), r->d.q) > KEY_TOL)
		return "it turned about another axis than the hinge's";
	if (!near_v(r->w, v3_scale(aw, x[1])))
		return "it turns about another axis than the hinge's";
	return check_turn(r, c);
}

static const char *
slide(const struct rel *r, phys_vec3 a, double x[2])
{
	phys_vec3 aw = phys_quat_rotate(r->at.q, a);

	x[0] = v3_dot(r->d.p, a);
	x[1] = v3_dot(r->v, aw);
	if (turn_between(PHYS_QUAT_IDENTITY, r->d.q) > KEY_TOL ||
	    !near_v(r->w, v3(0, 0, 0)))
		return "it turned on a slide";
	if (!near_v(r->d.p, v3_scale(a, x[0])) ||
	    !near_v(r->v, v3_scale(aw, x[1])))
		return "it moved across the slide";
	return NULL;
}

/*
 * A screw about a through c (in the body): its turn x[0] and travel x[1]
 * along a, lead metres a radian of turn (the travel says which turn of
 * the thread; without a lead, the turn nearest its range's middle), and
 * their rates x[2], x[3].
 */
static const char *
screw(const struct rel *r, const struct phys_joint *j, phys_vec3 a,
    phys_vec3 c, double x[4])
{
	double lead = phys_joint_screw_lead(j->vals);
	phys_vec3 aw = phys_quat_rotate(r->at.q, a);
	phys_vec3 off = v3_sub(r->d.p, v3_sub(c, phys_quat_rotate(r->d.q, c)));
	phys_vec3 anchor = phys_pose_apply(r->at, c);

	x[1] = v3_dot(off, a);
	x[0] = lead != 0 ? x[1] / lead :
	    in_range(j, 0, phys_angle_about(r->d.q, a));
	x[2] = v3_dot(r->w, aw);
	x[3] = lead * x[2];
	if (turn_between(phys_quat_about(a, x[0]), r->d.q) > KEY_TOL)
		return "it turned about another axis than the screw's, or "
		    "not as far as its travel along it says";
	if (!near_v(r->w, v3_scale(aw, x[2])))
		return "it turns about another axis than the screw's";
	if (!near_v(off, v3_scale(a, x[1])))
		return "it moved across the screw";
	if (!near_v(r->v, v3_add(v3_cross(r->w, v3_sub(r->at.p, anchor)),
	    v3_scale(aw, x[3]))))
		return "it moves along the screw unlike its turn";
	return NULL;
}

/* A ball: its turn, and its angular velocity in the body's frame. */
static const char *
ball(const struct rel *r, phys_vec3 c, double q[4], double v[3])
{
	phys_quat t = r->d.q;
	phys_vec3 wl = phys_quat_rotate(phys_quat_conj(r->at.q), r->w);

	if (t.w < 0)
		t = (phys_quat){ -t.w, -t.x, -t.y, -t.z };
	q[0] = t.w, q[1] = t.x, q[2] = t.y, q[3] = t.z;
	v[0] = wl.x, v[1] = wl.y, v[2] = wl.z;
	return check_turn(r, c);
}

static const char *
at_rest(const struct rel *r)
{
	if (turn_between(PHYS_QUAT_IDENTITY, r->d.q) > KEY_TOL ||
	    !near_v(r->d.p, v3(0, 0, 0)) || !near_v(r->w, v3(0, 0, 0)) ||
	    !near_v(r->v, v3(0, 0, 0)))
		return "it moved";
	return NULL;
}

/*
 * Two hinges at c, about a1 then a2 riding on it (in the body): the turn
 * is about a1 by x[0], then about a2 by x[1], the first taking a2 where
 * the turn takes it. Their rates x[2], x[3] fit the angular velocity
 * (least squares) about a1 as the body stood before them and about a2
 * as it stands.
 */
static const char *
two_hinges(const struct rel *r, const struct phys_joint *j, phys_vec3 a1,
    phys_vec3 a2, phys_vec3 c, double x[4])
{
	phys_vec3 to = phys_quat_rotate(r->d.q, a2), u, w2;
	phys_quat t1;
	double uw, det, b1, b2;

	x[0] = in_range(j, 1, phys_angle_between(v3_sub(a2, v3_scale(a1,
	    v3_dot(a1, a2))), v3_sub(to, v3_scale(a1, v3_dot(a1, to))), a1));
	t1 = phys_quat_about(a1, x[0]);
	x[1] = in_range(j, 0, phys_angle_about(phys_quat_mul(
	    phys_quat_conj(t1), r->d.q), a2));
	u = phys_quat_rotate(phys_quat_mul(r->at.q, phys_quat_conj(r->d.q)),
	    a1);
	w2 = phys_quat_rotate(r->at.q, a2);
	uw = v3_dot(u, w2);
	det = 1 - uw * uw;
	b1 = v3_dot(u, r->w), b2 = v3_dot(w2, r->w);
	x[2] = det > 1e-12 ? (b1 - uw * b2) / det : b1;
	x[3] = det > 1e-12 ? (b2 - uw * b1) / det : 0;
	if (turn_between(phys_quat_mul(t1, phys_quat_about(a2, x[1])),
	    r->d.q) > KEY_TOL)
		return "it turned about another axis than the joint's two";
	if (!near_v(r->w, v3_add(v3_scale(u, x[2]), v3_scale(w2, x[3]))))
		return "it turns about another axis than the joint's two";
	return check_turn(r, c);
}

/*
 * The values of the joints mjcfwrite.c writes for joint ji, in its
 * order (a universal joint's second axis first). A joint closing a loop
 * moves a ghost body that an equality welds to its child: values that
 * leave the ghost off the child are written as they fit, the weld then
 * pulling the two together as the loop's constraint does in the key.
 */
static void
joint_values(struct keyw *k, int ji, bool loop)
{
	const struct phys_joint *j = &k->w->joints[ji];
	phys_vec3 c = phys_mjcf_joint_pos(k->w, ji);
	phys_vec3 a = phys_mjcf_joint_axis(k->w, ji, 0);
	struct rel r = relative(k, ji);
	const char *why = NULL;
	double q[4] = { 0 }, v[3] = { 0 }, x[4];
	int nq = 1, nv = 1;

	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
		why = hinge(&r, j, a, c, q);
		v[0] = q[1];
		break;
	case PHYS_JOINT_PRISMATIC:
		why = slide(&r, a, q);
		v[0] = q[1];
		break;
	case PHYS_JOINT_BALL:
		why = ball(&r, c, q, v);
		nq = 4, nv = 3;
		break;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		why = two_hinges(&r, j, phys_mjcf_joint_axis(k->w, ji, 1), a,
		    c, x);
		q[0] = x[0], q[1] = x[1], v[0] = x[2], v[1] = x[3];
		nq = nv = 2;
		break;
	case PHYS_JOINT_SCREW:	/* the hinge, then the slide */
		why = screw(&r, j, a, c, x);
		q[0] = x[0], q[1] = x[1], v[0] = x[2], v[1] = x[3];
		nq = nv = 2;
		break;
	default:
		why = at_rest(&r);
		nq = nv = 0;
		break;
	}
	if (why && !loop)
		fail(k, j->child, j->name, why);
	/* a hinge's whole turns, which the poses do not say, from the
	 * key's position of the joint where it has one */
	if (nq == 1)
		(void)phys_mjcf_key_value(j->node, k->key, &q[0], NULL);
	/* MuJoCo's values from its ref, phys's from the built pose */
	if (j->type == PHYS_JOINT_REVOLUTE || j->type == PHYS_JOINT_PRISMATIC)
		q[0] += phys_mjcf_joint_ref(j, 0);
	if (nq == 2 && j->type != PHYS_JOINT_SCREW) {
		q[0] += phys_mjcf_joint_ref(j, 1);
		q[1] += phys_mjcf_joint_ref(j, 0);
	}
	put_values(&k->qpos, q, nq);
	put_values(&k->qvel, v, nv);
}

/* A free body: its position and turn, its origin's velocity in the world
 * and its angular velocity in its own frame, as MuJoCo's free joint
 * holds them. */
static void
free_values(struct keyw *k, int li)
{
	const struct state *s = &k->s[li];
	phys_quat t = s->pose.q;
	phys_vec3 wl = phys_quat_rotate(phys_quat_conj(t), s->ang);

	if (t.w < 0)
		t = (phys_quat){ -t.w, -t.x, -t.y, -t.z };
	put_values(&k->qpos, (double[7]){ s->pose.p.x, s->pose.p.y,
	    s->pose.p.z, t.w, t.x, t.y, t.z }, 7);
	put_values(&k->qvel, (double[6]){ s->lin.x, s->lin.y, s->lin.z,
	    wl.x, wl.y, wl.z }, 6);
}

/* The bodies hanging from link up (-1: the world), in the order
 * mjcfwrite.c writes them, MuJoCo's order of joints. */
static void
walk(struct keyw *k, int up)
{
	const struct phys_scene *w = k->w;
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		if (k->t->up[i] != up)
			continue;
		if (k->t->free[i])
			free_values(k, (int)i);
		else if (k->t->holder[i] >= 0)
			joint_values(k, k->t->holder[i], false);
		walk(k, (int)i);
	}
	for (i = 0; i < w->njoints; i++)
		if (k->t->loop[i] && w->joints[i].parent == up)
			joint_values(k, (int)i, true);
}

/* The mocap bodies' poses in the key, as MuJoCo's mpos and mquat: the
 * bodies of the world in the written order. False when there are none. */
static bool
mocap_values(struct keyw *k, struct phys_buf *pos, struct phys_buf *quat)
{
	const struct state *s;
	phys_quat q;
	size_t i;

	for (i = 0; i < k->w->nlinks; i++) {
		if (k->t->up[i] >= 0 || !phys_mjcf_is_mocap(k->w, k->t, (int)i))
			continue;
		s = &k->s[i];
		q = s->pose.q;
		if (q.w < 0)
			q = (phys_quat){ -q.w, -q.x, -q.y, -q.z };
		put_values(pos, (double[3]){ s->pose.p.x, s->pose.p.y,
		    s->pose.p.z }, 3);
		put_values(quat, (double[4]){ q.w, q.x, q.y, q.z }, 4);
	}
	return pos->len > 0;
}

/* ---- the keys ---- */

/* Said once: where the key is, in the link the joints cannot hold. */
static void
warn_left_out(const struct keyw *k)
{
	const struct phys_link *l = &k->w->links[k->bad_link];
	xmlNodePtr n = phys_mjcf_key(l->node, k->key, NULL);
	xmlNodePtr at = n ? n : l->node;
	const char *file = l->doc ? phys_node_file(l->doc, at) : "";

	if (k->bad_joint)
		phys_warnat(file, phys_node_line(at), "keyframe '%s' is not "
		    "written as MJCF: joint '%s' cannot take link '%s' where "
		    "the key has it (%s)", k->key, k->bad_joint, l->name,
		    k->why);
	else
		phys_warnat(file, phys_node_line(at), "keyframe '%s' is not "
		    "written as MJCF: link '%s': %s", k->key, l->name, k->why);
}

/* The actuators' commands in key name as MuJoCo's ctrl (a servo's
 * target, a motor's force: gear 1), 0 where a plugin has none: false
 * when none has any. */
static bool
ctrl_values(const struct phys_scene *w, const struct phys_mjcf_actuator *acts,
    size_t n, const char *name, struct phys_buf *ctrl)
{
	double v;
	size_t i;
	bool any = false;

	for (i = 0; i < n; i++) {
		if (acts[i].kind == PHYS_MJCF_SPRING)
			continue;	/* no actuator */
		v = 0;
		if (phys_mjcf_key_value(acts[i].plugin, name, &v, NULL) > 0)
			any = true;
		else
			v = 0;
		/* a servo's target from MuJoCo's ref, as its qpos */
		if (acts[i].kind == PHYS_MJCF_POSITION)
			v += phys_mjcf_joint_ref(&w->joints[acts[i].joint],
			    acts[i].axis);
		put_values(ctrl, &v, 1);
	}
	return any;
}

/* Key name as a <key>, or a warning; true when written. */
static bool
put_key(const struct phys_scene *w, const struct phys_mjcf_tree *t,
    const struct phys_mjcf_actuator *acts, size_t nacts, const char *name,
    struct phys_buf *b)
{
	struct keyw k = { w, t, name, strcmp(name, INITIAL_KEY) == 0, NULL,
		NULL, { 0 }, { 0 }, -1, NULL, NULL };
	struct phys_buf mpos = { 0 }, mquat = { 0 }, ctrl = { 0 };
	size_t i;

	k.s = phys_xcalloc(w->nlinks + 1, sizeof *k.s);
	k.known = phys_xcalloc(w->nlinks + 1, sizeof *k.known);
	for (i = 0; i < w->nlinks; i++)
		link_state(&k, (int)i);
	if (!k.why)
		walk(&k, -1);
	if (k.why) {
		warn_left_out(&k);
	} else {
		phys_buf_puts(b, "    <key name=\"");
		phys_buf_xml_attr(b, name);
		phys_buf_putc(b, '"');
		if (k.qpos.len)
			phys_buf_printf(b, " qpos=\"%s\" qvel=\"%s\"",
			    k.qpos.s, k.qvel.s);
		if (mocap_values(&k, &mpos, &mquat))
			phys_buf_printf(b, " mpos=\"%s\" mquat=\"%s\"",
			    mpos.s, mquat.s);
		if (ctrl_values(w, acts, nacts, name, &ctrl))
			phys_buf_printf(b, " ctrl=\"%s\"", ctrl.s);
		phys_buf_puts(b, "/>\n");
	}
	phys_buf_free(&ctrl);
	phys_buf_free(&mpos);
	phys_buf_free(&mquat);
	phys_buf_free(&k.qpos);
	phys_buf_free(&k.qvel);
	free(k.s);
	free(k.known);
	return !k.why;
}

/* Whether model mi moves under an InitialVelocityPlugin. */
static bool
has_initial_velocity(const struct phys_scene *w, size_t mi)
{
	return w->models[mi].has_init_vel && !w->models[mi].is_static;
}

/* Said of each such model once INITIAL_KEY is written. */
static void
said_initial_velocity(const struct phys_scene *w)
{
	const struct phys_model *m;
	size_t i;

	for (i = 0; i < w->nmodels; i++) {
		if (!has_initial_velocity(w, i))
			continue;
		m = &w->models[i];
		phys_warnat(m->doc ? phys_node_file(m->doc, m->node) : "",
		    phys_node_line(m->node),
		    "model '%s': the velocities of its InitialVelocityPlugin "
		    "are keyframe '%s' (a MuJoCo model starts at rest; reset "
		    "to that keyframe to start it moving)", m->name,
		    INITIAL_KEY);
	}
}

/* The keyframe names the links hold, each once, as first met; first
 * INITIAL_KEY where a model has initial velocities. */
static char **
key_names(const struct phys_scene *w, size_t *n)
{
	char **names = NULL;
	xmlChar *v;
	xmlNodePtr k;
	size_t i, m;

	*n = 0;
	for (i = 0; i < w->nmodels && !*n; i++)
		if (has_initial_velocity(w, i)) {
			names = phys_xcalloc(1, sizeof *names);
			names[(*n)++] = phys_xstrdup(INITIAL_KEY);
		}
	for (i = 0; i < w->nlinks; i++)
		for (k = phys_mjcf_key(w->links[i].node, NULL, NULL); k;
		    k = phys_mjcf_key(w->links[i].node, NULL, k)) {
			if (!(v = xmlGetProp(k, (const xmlChar *)"name")))
				continue;
			for (m = 0; m < *n && strcmp(names[m],
			    (const char *)v) != 0; m++)
				;
			if (m == *n) {
				names = phys_xrealloc(names, (*n + 1) *
				    sizeof *names);
				names[(*n)++] = phys_xstrdup((const char *)v);
			}
			xmlFree(v);
		}
	return names;
}

void
phys_mjcf_write_keys(const struct phys_scene *w,
    const struct phys_mjcf_tree *t, const struct phys_mjcf_actuator *acts,
    size_t nacts, struct phys_buf *b)
{
	struct phys_buf keys = { 0 };
	size_t i, n;
	char **names = key_names(w, &n);
	for (i = 0; i < n; i++) {
		if (put_key(w, t, acts, nacts, names[i], &keys) &&
		    strcmp(names[i], INITIAL_KEY) == 0)
			said_initial_velocity(w);
		free(names[i]);
	}
	free(names);
	if (keys.len)
		phys_buf_printf(b, "  <keyframe>\n%s  </keyframe>\n", keys.s);
	phys_buf_free(&keys);
}
