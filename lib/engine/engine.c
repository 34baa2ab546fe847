/*
 * engine.c - the driver: the engine a profile's type picks, switching
 * engines in the middle of a run, and what is the same under every
 * engine: the clock and the step size it counts in, and the check of
 * every body after a step. Each engine's calls live in its own module
 * (engine_ode.c, engine_bullet.cc, ...), behind its operations table
 * (engine_impl.h); the driver calls the one running.
 */
#include "engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "engine_common.h"
#include "engine_impl.h"
#include "mem.h"
#include "msg.h"
#include "pairkey.h"
#include "touch.h"
#include "trimesh.h"

/* Servos to say something of (too stiff for the step, chattering
 * between their range's ends): their joints' names, and the stiffest. */
struct servo_note {
	struct phys_buf names;
	int count, joint;
	double ratio;
	struct phys_axis_servo servo;
};
struct phys_engine;
static void say_chatter(const struct phys_engine *e, struct servo_note *c,
    const char *too);

struct phys_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;
	struct phys_engine_options opt;
	/* the engine running: its module's operations (its description is
	 * ops->info, phys_engine_running) and its own state */
	const struct phys_engine_ops *ops;
	void *state;
	/* The clock: time base_time at iteration base_iter, then steps of
	 * h, so that it prints exactly (0.3, not 0.30000000000000004) and
	 * survives changes of step and of engine (phys_engine_clock). */
	double base_time, h;
	long base_iter, iterations;
	/* The error of an operation whose function here returns none (a
	 * query, apply_world): the next step returns it. */
	char **fault;
	struct phys_motors motors;		/* kept across switches */
	/* Per joint: its servo said too stiff or chattering, once a run.
	 * The first step's chatter is said at once, the later ones together
	 * at the end. */
	bool *servo_said;
	bool chatter_first;
	struct servo_note chatter_later;
	/* Links held to others by phys_engine_weld: kept across switches
	 * (the engine that takes over welds them again). */
	struct weld { int parent, child; bool on; } *welds;
	size_t nwelds;
	/* The velocities asked of each link since the last step (lines at
	 * one time): a later change of one of them keeps the other as
	 * asked, where an engine that fits its joints to one alone may have
	 * made less of it. */
	struct asked { bool lin, ang; phys_vec3 v, w; } *asked;
	bool any_asked;
	/* A joint come apart under the engine, said once a run. */
	bool apart_said;
	/* The bodies passed check_bodies after the last step and nothing
	 * has set them or the values their bounds come from since: an
	 * engine that asks for its state checked before a step
	 * (check_first) has it checked already. */
	bool checked;
};

/* Steps between two measures of the joints' gaps: a joint the solver
 * lets open stays open for many steps; a measure of every joint each
 * step would cost a light robot's step a few percent. */
#define APART_EVERY	16
/* A gap at a joint's anchor this wide (m) is a joint come apart: a
 * constraint that holds leaves well under a millimetre. */
#define APART_GAP	0.01
/* ... and a turn against each other the joint does not allow this large
 * (rad, 2.9 degrees) */
#define APART_TURN	0.05

/* Forward to the engine running: CALL(e, f, args) for operations with
 * arguments after the engine, CALL0(e, f) for those without; each
 * returns -1 when the operation failed. */
#define CALL(e, f, ...) ((e)->ops->f((e)->state, __VA_ARGS__))
#define CALL0(e, f) ((e)->ops->f((e)->state))

/* An operation failed that cannot say so to its caller: kept for the
 * next step (the first such error). */
static void
fault(const struct phys_engine *e)
{
	if (!*e->fault)
		*e->fault = phys_xstrdup(phys_error());
}

/* The step the run's values give, checked. */
static int
profile_step(const struct phys_engine *e, double *h)
{
	*h = PVD(phys_run_values_get(e->v, PHYS_S_PHYSICS, 0),
	    PHYSICS_max_step_size);
	if (!(*h > 0))
		return phys_fail("max_step_size must be positive");
	return 0;
}

/* The clock counts from now in steps of h. */
static void
rebase(struct phys_engine *e, double h)
{
	e->checked = false;
	e->base_time = phys_engine_time(e);
	e->base_iter = e->iterations;
	e->h = h;
}

/*
 * Bodies that start one inside another: each pair is pushed apart at
 * once, by contacts whose count and stiffness grow with the overlap.
 * Fifty boxes in one spot took DART 105 s and 3.3 GB for one step before
 * its allocation failed, MuJoCo over 1 GB, Simbody minutes; 500 took ODE
 * 120 s; 125 unit boxes 0.5 m apart, ODE 24 s and Simbody past 30 s. A
 * pair is deep when the centres of the spheres that bound the two are
 * closer than half the smaller radius and the boxes that bound them
 * overlap by more than a quarter of the thinner's thickness (resting or
 * touching shapes are not: a stack of twenty plates 1 cm thick was
 * refused by the spheres alone), or, for two shapes of phys's own
 * (convex: their boxes overlap no less than they do), when the boxes
 * overlap by more than 0.4 of the thinner's; more than MAX_DEEP_PAIRS such
 * pairs that may touch
 * are refused before any engine sees them (not two links a joint joins,
 * which every engine keeps apart: a robot's links overlap their
 * parents'). The pairs are found in order of x, at most MAX_DEEP_LOOKS
 * compared.
 */
#define MAX_DEEP_PAIRS 64
#define MAX_DEEP_LOOKS 50000000L

struct bound {
	phys_vec3 c;	/* the centre in the world, m */
	double r;	/* the radius, m */
	int collision;
};

/* The sphere around collision ci at the world's start; false for shapes
 * without one (planes, heightmaps) or on a static model. */
static bool
bound_of(const struct phys_scene *w, int ci, struct bound *b)
{
	const struct phys_link *l = &w->links[w->collisions[ci].link];

	b->collision = ci;
	return !w->models[l->model].is_static &&
	    phys_collision_bound(w, ci, &b->c, &b->r);
}

static int
by_x(const void *a, const void *b)
{
	double xa = ((const struct bound *)a)->c.x,
	    xb = ((const struct bound *)b)->c.x;

	return (xa > xb) - (xa < xb);
}

/* Whether collision ci is a convex shape of phys's own (not a mesh):
 * the box that bounds it overlaps another no less than it does. */
static bool
convex_shape(const struct phys_scene *w, int ci)
{
	return w->collisions[ci].shape != PHYS_GEOM_MESH;
}

/* Whether bounds x and y start deep inside each other (above). */
static bool
deep_pair(const struct phys_scene *w, const struct bound *x,
    const struct bound *y)
{
	double depth, thin;
	bool close = v3_norm(v3_sub(x->c, y->c)) < fmin(x->r, y->r) / 2;

	if (!phys_collision_overlap(w, x->collision, y->collision, &depth,
	    &thin))
		return close;
	return (close && depth > thin / 4) || (convex_shape(w, x->collision) &&
	    convex_shape(w, y->collision) && depth > 0.4 * thin);
}

/* Whether collisions a and b may touch, on two links no joint joins. */
static bool
apart_may_touch(const struct phys_scene *w, const struct phys_run_values *v,
    const int64_t *joined, size_t njoined, int a, int b)
{
	int la = w->collisions[a].link, lb = w->collisions[b].link;

	return la != lb && !phys_key_listed(joined, njoined,
	    phys_pair_key(la, lb, (int64_t)w->nlinks)) &&
	    phys_collisions_may_touch(w, v, a, b);
}

static int
check_overlaps(const struct phys_scene *w, const struct phys_run_values *v)
{
	struct bound *b = phys_xcalloc(w->ncollisions + 1, sizeof *b), *x, *y;
	const struct phys_collision *c;
	size_t n = 0, i, j, deep = 0, first[2] = { 0, 0 }, njoined;
	double rmax = 0;
	long looks = 0;
	int64_t *joined = phys_joined_links(w, &njoined);

	for (i = 0; i < w->ncollisions; i++)
		if (bound_of(w, (int)i, &b[n])) {
			rmax = fmax(rmax, b[n].r);
			n++;
		}
	qsort(b, n, sizeof *b, by_x);
	for (i = 0; i < n && looks < MAX_DEEP_LOOKS; i++) {
		x = &b[i];
		for (j = i + 1; j < n && b[j].c.x - x->c.x < 2 * rmax &&
		    looks < MAX_DEEP_LOOKS; j++, looks++) {
			y = &b[j];
			/* the separating axes last: a robot's links are
			 * near one another, and mostly may not touch */
			if (v3_norm(v3_sub(x->c, y->c)) >= x->r + y->r ||
			    !apart_may_touch(w, v, joined, njoined,
			    x->collision, y->collision) || !deep_pair(w, x, y))
				continue;
			if (deep++ == 0) {
				first[0] = (size_t)x->collision;
				first[1] = (size_t)y->collision;
			}
		}
	}
	free(b);
	free(joined);
	if (deep <= MAX_DEEP_PAIRS)
		return 0;
	c = &w->collisions[first[1]];
	return phys_failat(PHYS_AT(c->doc, c->node),
	    "%zu pairs of collisions start deep inside each other ('%s' and "
	    "'%s' the first), more than the %d an engine is given: their "
	    "contacts would take minutes and gigabytes to push them apart; "
	    "move the bodies apart (phys(7), LIMITS)", deep,
	    w->collisions[first[0]].name, c->name, MAX_DEEP_PAIRS);
}

/*
 * A joint's values the table bounds at PHYS_COEFF_MAX in size (its
 * damping, spring and friction), which a file may write beyond (kept as
 * written, as libsdformat keeps them): no engine steps past them, so the
 * run is refused at the joint's line.
 */
static int
check_joint_values(const struct phys_scene *w, const struct phys_run_values *v)
{
	const struct phys_param *p;
	const struct phys_value *jv;
	size_t i, k;

	for (i = 0; i < w->njoints; i++) {
		jv = phys_run_values_get(v, PHYS_S_JOINT, (int)i);
		for (k = 0; k < phys_scope_count(PHYS_S_JOINT); k++) {
			p = phys_scope_param(PHYS_S_JOINT, k);
			if (p->max != PHYS_COEFF_MAX ||
			    fabs(jv[k].u.d) <= PHYS_COEFF_MAX)
				continue;
			return phys_failat(PHYS_AT(w->joints[i].doc,
			    w->joints[i].node), "joint '%s': %s %g is beyond "
			    "%g in size, which no engine steps past",
			    w->joints[i].name, p->name, jv[k].u.d, p->max);
		}
	}
	return 0;
}

/*
 * Joint damping the engine holds as a force over its step (ODE's and
 * Bullet's, the engines of Gazebo's implicit form) where a step cannot
 * integrate it so: held to what stops the motion within a step, as
 * phys-sdf check says; said once a run, at the joint's line, where the
 * run used to say nothing of it.
 */
static void
say_damping(const struct phys_engine *e)
{
	const struct phys_scene *w = e->w;
	const struct phys_joint *j, *top = NULL;
	char msg[512], worst[512];
	double f, most = 0;
	size_t i, n = 0;

	if (phys_engine_running(e)->support(&phys_params[
	    PHYS_P_JOINT_physics_ode_implicit_spring_damper]) ==
	    PHYS_SUPPORT_OTHER)
		return;
	/* one line, at the joint whose damping is the most too much: a
	 * humanoid's every joint may be so (phys-sdf check lists each) */
	for (i = 0; i < w->njoints; i++) {
		j = &w->joints[i];	/* a child the world is refused */
		f = phys_joint_damping_note(j, phys_run_values_get(e->v,
		    PHYS_S_JOINT, (int)i), phys_run_values_get(e->v,
		    PHYS_S_LINK, j->child), e->h, msg, sizeof msg);
		if (f > 0 && (n++ == 0 || f > most)) {
			most = f;
			top = j;
			memcpy(worst, msg, sizeof worst);
		}
	}
	if (n == 1)
		phys_warnat_once(phys_node_file(top->doc, top->node),
		    phys_node_line(top->node), "%s", worst);
	else if (n > 1)
		phys_warnat_once(phys_node_file(top->doc, top->node),
		    phys_node_line(top->node), "%s (and %zu more joint%s: "
		    "phys-sdf check lists each)", worst, n - 1, n > 2 ? "s" :
		    "");
}

/* A world's limited tendons are held by some engines only, its spatial
 * ones by fewer: -1, said at the first another cannot hold. */
static int
check_tendons(const struct phys_scene *w, const struct phys_engine_info *in)
{
	const struct phys_tendon *t;
	char *label;
	size_t i;
	int rc;

	for (i = 0; i < w->ntendons && !in->tendons; i++) {
		t = &w->tendons[i];
		if (t->njoints && in->fixed_tendons)
			continue;
		label = t->unnamed ? phys_xstrdup("a limited tendon of no "
		    "name") : phys_xasprintf("tendon '%s': a limited tendon",
		    t->name);
		rc = phys_failat(PHYS_AT(t->doc, t->node), "%s%s, which %s "
		    "cannot hold: phys's MuJoCo engine holds it (-p mujoco)",
		    label, in->fixed_tendons ? " between two points" : "",
		    in->name);
		free(label);
		return rc;
	}
	return 0;
}

struct phys_engine *
phys_engine_new(const struct phys_scene *w,
    const struct phys_engine_ops *ops, const struct phys_run_values *v,
    const struct phys_engine_options *opt)
{
	const struct phys_engine_info *engine;
	struct phys_engine *e;

	if (!ops)	/* an engine that cannot run here: said */
		return NULL;
	engine = ops->info;
	e = phys_xcalloc(1, sizeof *e);

	e->w = w;
	e->v = v;
	if (opt)
		e->opt = *opt;
	e->ops = ops;
	e->fault = phys_xcalloc(1, sizeof *e->fault);
	if (profile_step(e, &e->h) < 0 || check_overlaps(w, v) < 0 ||
	    check_joint_values(w, v) < 0 || check_tendons(w, engine) < 0 ||
	    !(e->state = e->ops->create(w, v, &e->opt, 0))) {
		free(e->fault);
		free(e);
		return NULL;
	}
	phys_motors_init(&e->motors, w->njoints);
	e->servo_said = phys_xcalloc(w->njoints + 1, sizeof *e->servo_said);
	e->asked = phys_xcalloc(w->nlinks + 1, sizeof *e->asked);
	say_damping(e);
	return e;
}

void
phys_engine_free(struct phys_engine *e)
{
	if (!e)
		return;
	say_chatter(e, &e->chatter_later, " later in the run");
	e->ops->destroy(e->state);
	free(*e->fault);
	free(e->fault);
	phys_motors_free(&e->motors);
	free(e->welds);
	free(e->servo_said);
	free(e->asked);
	free(e);
}

const struct phys_engine_info *
phys_engine_running(const struct phys_engine *e)
{
	return e->ops->info;
}

/*
 * A new engine starts from the world as loaded (its joints measure from
 * the loaded configuration, as the old engine's did), at the run's time,
 * and then takes over each dynamic link's pose and velocity (its joints'
 * turns: phys_engine_use_keeping_turns).
 */
int
phys_engine_use(struct phys_engine *e, const struct phys_engine_ops *ops)
{
	const struct phys_engine_info *engine;
	struct phys_engine old = *e;
	phys_pose p;
	phys_vec3 lin, ang;
	double h;
	size_t i;

	if (!ops)	/* an engine that cannot run here: said */
		return -1;
	engine = ops->info;
	e->checked = false;
	if (ops == e->ops)
		return phys_engine_apply_profile(e);
	if (profile_step(e, &h) < 0 || check_tendons(e->w, engine) < 0)
		return -1;
	e->ops = ops;
	e->state = e->ops->create(e->w, e->v, &e->opt,
	    phys_engine_time(e));
	if (!e->state) {
		*e = old;
		return -1;
	}
	rebase(e, h);
	for (i = 0; i < e->w->nlinks; i++) {
		if (!phys_engine_link_dynamic(&old, (int)i))
			continue;
		phys_engine_link_pose(&old, (int)i, &p);
		phys_engine_link_vel(&old, (int)i, &lin, &ang);
		phys_engine_set_link_pose(e, (int)i, p);
		phys_engine_set_link_vel(e, (int)i, &lin, &ang);
	}
	for (i = 0; i < e->nwelds; i++)
		if (e->welds[i].on && CALL(e, weld, e->welds[i].parent,
		    e->welds[i].child, true) < 0) {
			e->ops->destroy(e->state);
			*e = old;
			return -1;
		}
	old.ops->destroy(old.state);
	return 0;
}

int
phys_engine_apply_profile(struct phys_engine *e)
{
	double h;

	if (profile_step(e, &h) < 0)
		return -1;
	rebase(e, h);
	return CALL0(e, apply_profile);
}

void
phys_engine_apply_world(struct phys_engine *e)
{
	e->checked = false;
	if (CALL0(e, apply_world) < 0)
		fault(e);
}

int
phys_engine_apply_link(struct phys_engine *e, int link)
{
	e->checked = false;
	return CALL(e, apply_link, link);
}

int
phys_engine_apply_joint(struct phys_engine *e, int joint)
{
	e->checked = false;
	return CALL(e, apply_joint, joint);
}

int
phys_engine_apply_collision(struct phys_engine *e, int collision)
{
	e->checked = false;
	return CALL(e, apply_collision, collision);
}

/* The largest push (linear) or turn a link of mass and inertia turn
 * takes for a step, within the rates every body is held to
 * (engine_common.h). */
static double
most_in_step(const struct phys_engine *e, bool linear, double mass,
    double turn)
{
	return linear ? PHYS_FASTEST * mass / e->h :
	    PHYS_FASTEST_TURN * turn / e->h;
}

static int
too_much(const struct phys_engine *e, const char *what, int li, bool linear,
    double f, double most)
{
	return phys_fail("%s %.3g %s would %s link '%s' faster than any body "
	    "%s within a step of %g s (at most %.3g %s)", what, f,
	    linear ? "N" : "N m", linear ? "move" : "turn",
	    e->w->links[li].name, linear ? "moves (light's speed)" :
	    "turns (1e8 rad/s)", e->h, most, linear ? "N" : "N m");
}

/*
 * Link li's mass, and half its inertia's trace about its centre: no
 * principal moment exceeds the other two together, so its inertia about
 * no axis through its centre is larger, and a turn judged by it is one
 * the link cannot take.
 */
static void
link_resistance(const struct phys_engine *e, int li, double *mass,
    double *turn)
{
	double I[6];

	phys_engine_link_mass(e, li, mass, I);
	*turn = (I[0] + I[1] + I[2]) / 2;
}

/* Link li's turn resistance about joint jt's anchor, which stays where
 * the joint was on both its links: link_resistance's, with its mass
 * times its centre's distance from the anchor squared. */
static double
turn_about_joint(const struct phys_engine *e, const struct phys_joint *jt,
    int li, double mass, double turn)
{
	const double *c = PV(phys_run_values_get(e->v, PHYS_S_LINK, li),
	    LINK_inertial_pose)->u.pose;
	phys_vec3 d = v3_sub(v3(c[0], c[1], c[2]), phys_pose_mul(
	    phys_pose_inv(e->w->links[li].pose), jt->pose).p);

	return turn + mass * v3_dot(d, d);
}

int
phys_engine_effort_fits(const struct phys_engine *e, int j, double f)
{
	const struct phys_joint *jt = &e->w->joints[j];
	bool linear = jt->type == PHYS_JOINT_PRISMATIC;
	int side[2] = { jt->child, jt->parent }, k, li;
	double mass, turn, most;
	char what[300];

	for (k = 0; k < 2; k++) {
		if ((li = side[k]) < 0 || !phys_engine_link_dynamic(e, li))
			continue;
		link_resistance(e, li, &mass, &turn);
		if (fabs(f) <= most_in_step(e, linear, mass, turn))
			continue;
		/* about the anchor (looked at only for a large effort) */
		most = most_in_step(e, linear, mass, turn_about_joint(e, jt,
		    li, mass, turn));
		if (fabs(f) <= most)
			continue;
		snprintf(what, sizeof what, "joint '%s': an effort of",
		    jt->name);
		return too_much(e, what, li, linear, f, most);
	}
	return 0;
}

int
phys_engine_wrench_fits(const struct phys_engine *e, int li,
    phys_vec3 force, phys_vec3 torque)
{
	double mass, turn, most;

	if (!phys_engine_link_dynamic(e, li))
		return 0;
	link_resistance(e, li, &mass, &turn);
	if (!(v3_size(force) <= (most = most_in_step(e, true, mass, turn))))
		return too_much(e, "a force of", li, true, v3_size(force),
		    most);
	if (!(v3_size(torque) <= (most = most_in_step(e, false, mass, turn))))
		return too_much(e, "a torque of", li, false, v3_size(torque),
		    most);
	return 0;
}

/* Whether the efforts f of joint j's n axes can be given for a step. */
static int
efforts_fit(const struct phys_engine *e, int j, const double f[2], int n)
{
	int k;

	for (k = 0; k < n && k < 2; k++)
		if (f[k] != 0 && phys_engine_effort_fits(e, j, f[k]) < 0)
			return -1;
	return 0;
}

/* The error set now, as what the run's next step would diverge on. */
static int
diverged_at(const struct phys_engine *e)
{
	char before[64];

	snprintf(before, sizeof before, "simulation diverged at t=%.9g: ",
	    phys_engine_time(e));
	return phys_fail_again(NULL, 0, before);
}

/*
 * How far joint j's servo s is past what a step that holds its force
 * follows: h D / I, D = d + p h its damping over the step (what it
 * resists the rate with, phys_servo_resistance) and I the child link's
 * inertia about the joint at most (*inertia). Above 2, a force held over
 * the step flips the rate at every step. 0 where it cannot be (no
 * damping over the step, a child that does not move).
 */
static double
servo_damping_ratio(const struct phys_engine *e, int j,
    const struct phys_axis_servo *s, double *inertia)
{
	const struct phys_joint *jt = &e->w->joints[j];
	double mass, turn, d = phys_servo_resistance(s, e->h);

	if (!s->on || !(d > 0) || jt->child < 0 ||
	    !phys_engine_link_dynamic(e, jt->child))
		return 0;
	link_resistance(e, jt->child, &mass, &turn);
	*inertia = jt->type == PHYS_JOINT_PRISMATIC ? mass :
	    turn_about_joint(e, jt, jt->child, mass, turn);
	return e->h * d / *inertia;
}

/* The longest step that follows servo s on inertia I: h (d + p h) = 2 I. */
static double
servo_step(const struct phys_axis_servo *s, double I)
{
	double p = -s->kq, d = -s->kv;

	if (!(p > 0))
		return 2 * I / d;
	return (sqrt(d * d + 8 * p * I) - d) / (2 * p);
}

/* Why joint j's servo s fails a step that holds its force, when its
 * damping over the step is the cause (servo_damping_ratio above 2);
 * NULL when it is not. Caller frees. */
static char *
servo_damping_cause(const struct phys_engine *e, int j,
    const struct phys_axis_servo *s)
{
	double I, ratio = servo_damping_ratio(e, j, s, &I);
	/* implicit_servo already in force is no advice */
	bool taken = phys_servo_implicit(s, e->w->joints[j].type);

	if (!(ratio > 2))
		return NULL;
	return phys_xasprintf("its servo's damping over a step, d + p h = %g, "
	    "is %.3g times I / h on link '%s' (I, its inertia about the "
	    "joint, at most %.3g): a force held over the step flips its rate "
	    "at every step; %sa step below %.3g s follows it",
	    phys_servo_resistance(s, e->h), ratio,
	    e->w->links[e->w->joints[j].child].name, I, taken ? "" :
	    "implicit_servo=true takes it into the step (ODE, Bullet and "
	    "DART, on a revolute or prismatic joint), as MuJoCo's implicit "
	    "integrator and Simbody do, or ", servo_step(s, I));
}

/* The effort of joint j's servo that did not fit: its damping is said as
 * the likely cause where it is. */
static void
servo_cause(const struct phys_engine *e, int j,
    const struct phys_joint_drive *drive, int n)
{
	char *why, *msg;
	int k;

	for (k = 0; k < n && k < 2; k++) {
		if (!(why = servo_damping_cause(e, j, &drive->servo[k])))
			continue;
		msg = phys_xstrdup(phys_error());
		phys_fail("%s; likely cause: %s", msg, why);
		free(msg);
		free(why);
		return;
	}
}

/* Steps in a row a servo's effort goes from one end of its range to
 * the other before it is said to chatter. */
#define CHATTER_STEPS 20

/* Joint j's servo s into note c: its name, and s where it is the
 * stiffest so far. */
static void
note_servo(const struct phys_engine *e, int j, const struct phys_axis_servo *s,
    struct servo_note *c)
{
	double I, ratio = servo_damping_ratio(e, j, s, &I);

	phys_buf_printf(&c->names, "%s'%s'", c->count ? ", " : "",
	    e->w->joints[j].name);
	if (c->count++ == 0 || ratio > c->ratio) {
		c->joint = j;
		c->ratio = ratio;
		c->servo = *s;
	}
}

/* Joint j's servo s on axis k, when it has just gone CHATTER_STEPS steps
 * from one end of its range to the other, into c: each joint once a
 * run, those after the run's first step of them into the run's end. */
static void
note_chatter(struct phys_engine *e, int j, int k,
    const struct phys_axis_servo *s, struct servo_note *c)
{
	if (e->motors.axis[j][k].flips != CHATTER_STEPS || e->servo_said[j])
		return;
	e->servo_said[j] = true;
	note_servo(e, j, s, e->chatter_first ? &e->chatter_later : c);
}

/* The servos of note c as one warning (a robot's twelve would say it
 * twelve times): "joint 'J': ONE", or "joints 'J', 'K': MANY", then the
 * stiffest one's damping where that is the cause. */
static void
say_note(const struct phys_engine *e, struct servo_note *c, const char *one,
    const char *many)
{
	char *why;

	if (c->count == 0)
		return;
	why = servo_damping_cause(e, c->joint, &c->servo);
	if (c->count == 1)
		phys_warn("joint %s: %s%s%s", c->names.s, one, why ? ": " : "",
		    why ? why : "");
	else
		phys_warn("joints %s: %s%s%s%s%s", c->names.s, many,
		    why ? "; on '" : "", why ? e->w->joints[c->joint].name : "",
		    why ? "', the stiffest: " : "", why ? why : "");
	free(why);
	phys_buf_free(&c->names);
	c->count = 0;
}

/* Servos that chatter; "too" for those after the run's first. */
static void
say_chatter(const struct phys_engine *e, struct servo_note *c, const char *too)
{
	char *one = phys_xasprintf("its servo's effort has gone from one end "
	    "of its range to the other at each of %d steps%s", CHATTER_STEPS,
	    too);
	char *many = phys_xasprintf("their servos' efforts have gone from one "
	    "end of their range to the other at each of %d steps%s",
	    CHATTER_STEPS, too);

	say_note(e, c, one, many);
	free(one);
	free(many);
}

/* Whether the engine running holds a servo's force over its step unless
 * implicit_servo takes it into the step (ODE, Bullet, DART), as gz-sim
 * does. */
static bool
holds_servos(const struct phys_engine *e)
{
	return phys_engine_running(e)->support(
	    &phys_params[PHYS_P_JOINT_implicit_servo]) != PHYS_SUPPORT_OTHER;
}

/* Joint j's servo s, held over the step by such an engine, when it is
 * too stiff for that (servo_damping_ratio above 2), into c: said before
 * it shakes the joint, once a run (its chatter is not said again). */
static void
note_stiff(struct phys_engine *e, int j, const struct phys_axis_servo *s,
    struct servo_note *c)
{
	double I;

	if (!s->on || phys_servo_implicit(s, e->w->joints[j].type) ||
	    e->servo_said[j] ||
	    !holds_servos(e) || !(servo_damping_ratio(e, j, s, &I) > 2))
		return;
	e->servo_said[j] = true;
	note_servo(e, j, s, c);
}

/* The servos of one step that are too stiff for their engine's step. */
static void
say_stiff(const struct phys_engine *e, struct servo_note *c)
{
	char *one, *many;

	if (c->count == 0)
		return;
	one = phys_xasprintf("its servo is too stiff for %s to hold its "
	    "force over the step, as gz-sim does, and may shake the joint",
	    phys_engine_running(e)->name);
	many = phys_xasprintf("their servos are too stiff for %s to hold "
	    "their forces over the step, as gz-sim does, and may shake the "
	    "joints", phys_engine_running(e)->name);

	say_note(e, c, one, many);
	free(one);
	free(many);
}

/* Each commanded joint's efforts for the step about to be taken, from
 * its state now. */
static int
drive_joints(struct phys_engine *e)
{
	struct phys_joint_drive drive;
	struct servo_note chatter = { 0 }, stiff = { 0 };
	double pos[2], vel[2];
	size_t j;
	int n, k;

	for (j = 0; j < e->w->njoints; j++) {
		if (!phys_motors_active(&e->motors, (int)j))
			continue;
		if ((n = CALL(e, joint_state, (int)j, pos, vel)) < 0)
			return -1;
		phys_motors_drive(&e->motors, (int)j,
		    phys_run_values_get(e->v, PHYS_S_JOINT, (int)j), n, pos,
		    vel, e->h, &drive);
		if (efforts_fit(e, (int)j, drive.effort, n) < 0) {
			servo_cause(e, (int)j, &drive, n);
			return diverged_at(e);
		}
		for (k = 0; k < n && k < 2; k++) {
			note_stiff(e, (int)j, &drive.servo[k], &stiff);
			note_chatter(e, (int)j, k, &drive.servo[k], &chatter);
		}
		if (CALL(e, set_joint_effort, (int)j, &drive) < 0)
			return -1;
	}
	say_stiff(e, &stiff);
	if (chatter.count) {
		say_chatter(e, &chatter, "");
		e->chatter_first = true;
	}
	return 0;
}

int
phys_engine_command(struct phys_engine *e, int joint,
    enum phys_command_kind kind, const double *target, int n)
{
	const struct phys_value *v = phys_run_values_get(e->v, PHYS_S_JOINT,
	    joint);
	double f[2] = { 0, 0 };
	int k;

	/* An effort is held within the axis's limit before it is given. */
	for (k = 0; kind == PHYS_COMMAND_EFFORT && k < n && k < 2; k++)
		f[k] = phys_effort_held(v, k, target[k]);
	if (efforts_fit(e, joint, f, n) < 0)
		return -1;
	phys_motors_command(&e->motors, joint, kind, target, n);
	return 0;
}

int
phys_engine_set_link_wrench(struct phys_engine *e, int link, phys_vec3 force,
    phys_vec3 torque)
{
	if (phys_engine_wrench_fits(e, link, force, torque) < 0)
		return diverged_at(e);
	return CALL(e, set_link_wrench, link, force, torque);
}

int
phys_engine_weld(struct phys_engine *e, int parent, int child, bool on)
{
	size_t i;

	for (i = 0; i < e->nwelds; i++)
		if (e->welds[i].parent == parent && e->welds[i].child == child)
			break;
	if (i == e->nwelds) {
		if (!on)
			return 0;
		e->welds = phys_xrealloc(e->welds, (i + 1) * sizeof *e->welds);
		e->welds[e->nwelds++] = (struct weld){ parent, child, false };
	}
	if (e->welds[i].on == on)
		return 0;
	e->checked = false;
	if (CALL(e, weld, parent, child, on) < 0)
		return -1;
	e->welds[i].on = on;
	return 0;
}

const struct phys_axis_motor *
phys_engine_motor(const struct phys_engine *e, int joint, int axis)
{
	return &e->motors.axis[joint][axis];
}

/* Every body within bounds at time t, else the step diverged: -1, the
 * error naming the body, the time and the likely cause. */
static int
check_bodies(const struct phys_engine *e, double t)
{
	struct phys_body_state b;
	size_t i;
	int has;

	for (i = 0; i < e->w->nlinks; i++)
		if ((has = CALL(e, body_state, (int)i, &b)) < 0 ||
		    (has && phys_check_body(e->w, e->v, e->h, (int)i, b.pos,
		    b.q, b.vel, b.angvel, t) < 0))
			return -1;
	return 0;
}

/* What the servos the engine took into its step applied, in place of the
 * effort the driver computed at the step's start. */
static int
servo_efforts(struct phys_engine *e)
{
	double eff[2];
	size_t j;
	int n;

	for (j = 0; j < e->w->njoints; j++) {
		if (!phys_motors_active(&e->motors, (int)j))
			continue;
		if ((n = CALL(e, servo_effort, (int)j, eff)) < 0)
			return -1;
		if (n > 0)
			e->motors.axis[j][0].applied = eff[0];
	}
	return 0;
}

/* The joints' commands, then the engine's step; what either says of
 * many joints alike, as one warning. */
static int
drive_and_step(struct phys_engine *e, double t0, double t1)
{
	int rc = 0;

	phys_warn_batch_begin();
	if (e->motors.ncommanded && drive_joints(e) < 0)
		rc = -1;
	if (rc == 0 && CALL(e, step, t0, t1) < 0)
		rc = -1;
	if (rc == 0 && e->motors.ncommanded)
		rc = servo_efforts(e);
	phys_warn_batch_end();
	return rc;
}

/* Link li's pose now; the world's for -1. */
static phys_pose
pose_now(const struct phys_engine *e, int li)
{
	phys_pose p = PHYS_POSE_IDENTITY;

	if (li >= 0)
		phys_engine_link_pose(e, li, &p);
	return p;
}

/* Whether link li moves under the engine's forces (its joints hold it):
 * not the world, a static link, or a kinematic one the run moves. */
static bool
held(const struct phys_engine *e, int li)
{
	return li >= 0 && phys_engine_link_dynamic(e, li) &&
	    !PVB(phys_run_values_get(e->v, PHYS_S_LINK, li), LINK_kinematic);
}

/* How joint j has come apart: its gap and its turn the joint does not
 * allow; how far past what holds, the larger of the two as a ratio. */
static double
apart(const struct phys_engine *e, int j, double *gap, double *turn)
{
	const struct phys_joint *jt = &e->w->joints[j];
	phys_pose pp = pose_now(e, jt->parent), cp = pose_now(e, jt->child);

	*gap = phys_joint_gap(e->w, j, pp, cp);
	*turn = phys_joint_turn(e->w, j, pp, cp);
	return fmax(*gap / APART_GAP, *turn / APART_TURN);
}

/* What came apart, said: "came 0.02 m apart at its anchor", "turned
 * 0.3 rad off its axis", or both. */
static void
apart_words(const struct phys_joint *jt, double gap, double turn,
    char *buf, size_t size)
{
	int n = 0;

	if (gap >= APART_GAP)
		n = snprintf(buf, size, "came %.3g m apart at its anchor", gap);
	if (turn >= APART_TURN)
		snprintf(buf + n, size - (size_t)n, "%sturned %.3g rad %s",
		    n ? " and " : "", turn, phys_joint_turn_off_axis(jt->type) ?
		    "off its axis" : "against each other");
}

/* A joint the engine let come apart (its gap at least APART_GAP, or a
 * turn it does not allow at least APART_TURN), the widest, said once a
 * run with what may hold it: the positions and rates the engine reports
 * of it say nothing of it. A soft joint may stretch; one between links
 * the run moves (kinematic, static) is the run's to keep. */
static void
say_apart(struct phys_engine *e, double t)
{
	const struct phys_engine_info *info = phys_engine_running(e);
	const struct phys_joint *jt;
	double gap, turn, past, worst = 1, wgap = 0, wturn = 0;
	int open = 0, which = -1;
	char more[48] = "", what[96] = "";
	const char *hint;
	size_t j;

	for (j = 0; j < e->w->njoints; j++) {
		jt = &e->w->joints[j];
		if (phys_joint_soft(e->v, (int)j, info->support) ||
		    !(held(e, jt->parent) || held(e, jt->child)))
			continue;
		if (!((past = apart(e, (int)j, &gap, &turn)) >= 1))
			continue;
		open++;
		if (past > worst || which < 0)
			worst = past, which = (int)j, wgap = gap, wturn = turn;
	}
	if (which < 0)
		return;
	e->apart_said = true;
	if (open > 1)
		phys_more_text(more, sizeof more, (size_t)(open - 1), "joint");
	apart_words(&e->w->joints[which], wgap, wturn, what, sizeof what);
	hint = info->apart_hint ? info->apart_hint(
	    phys_run_values_get(e->v, PHYS_S_PHYSICS, 0)) : NULL;
	phys_warn("joint '%s': its links %s by t=%.9g under %s, whose "
	    "solver did not hold it%s; %s%sa smaller max_step_size may",
	    e->w->joints[which].name, what, t, info->name, more,
	    hint ? hint : "", hint ? " or " : "");
}

/*
 * As MuJoCo's mj_step: the engine steps from t0 to t1, the clock counts
 * the step once the engine has made it, and the state it leaves is
 * checked (and, for an engine that asks, the state it starts from).
 */
int
phys_engine_step(struct phys_engine *e)
{
	double t0 = phys_engine_time(e), t1 = phys_engine_clock(e->base_time,
	    e->iterations + 1 - e->base_iter, e->h);

	if (*e->fault)
		return phys_fail("%s", *e->fault);
	if (phys_engine_running(e)->check_first && !e->checked &&
	    check_bodies(e, t0) < 0)
		return -1;
	e->checked = false;
	if (drive_and_step(e, t0, t1) < 0)
		return -1;
	if (e->any_asked) {
		memset(e->asked, 0, e->w->nlinks * sizeof *e->asked);
		e->any_asked = false;
	}
	e->iterations++;
	if (check_bodies(e, t1) < 0)
		return -1;
	e->checked = true;
	if (!e->apart_said && e->iterations % APART_EVERY == 0)
		say_apart(e, t1);
	return 0;
}

double
phys_engine_time(const struct phys_engine *e)
{
	return phys_engine_clock(e->base_time, e->iterations - e->base_iter,
	    e->h);
}

long
phys_engine_iterations(const struct phys_engine *e)
{
	return e->iterations;
}

/*
 * A query that failed (a C++ engine's exception) answers zeros, the
 * identity for a pose, and the run stops at its next step with the
 * error.
 */
void
phys_engine_link_pose(const struct phys_engine *e, int link, phys_pose *out)
{
	if (CALL(e, link_pose, link, out) < 0) {
		fault(e);
		*out = PHYS_POSE_IDENTITY;
	}
}

void
phys_engine_link_vel(const struct phys_engine *e, int link, phys_vec3 *lin,
    phys_vec3 *ang)
{
	if (CALL(e, link_vel, link, lin, ang) < 0) {
		fault(e);
		*lin = *ang = v3(0, 0, 0);
	}
}

void
phys_engine_link_com(const struct phys_engine *e, int link, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	if (CALL(e, link_com, link, com, com_vel) < 0) {
		fault(e);
		*com = *com_vel = v3(0, 0, 0);
	}
}

bool
phys_engine_link_dynamic(const struct phys_engine *e, int link)
{
	int rc = CALL(e, link_dynamic, link);

	if (rc < 0)
		fault(e);
	return rc > 0;
}

void
phys_engine_link_mass(const struct phys_engine *e, int link, double *mass,
    double inertia[6])
{
	if (CALL(e, link_mass, link, mass, inertia) < 0) {
		fault(e);
		*mass = 0;
		memset(inertia, 0, 6 * sizeof *inertia);
	}
}

int
phys_engine_set_link_pose(struct phys_engine *e, int link, phys_pose p)
{
	e->checked = false;
	return CALL(e, set_link_pose, link, p);
}

int
phys_engine_set_link_poses(struct phys_engine *e, const int *links,
    const phys_pose *poses, size_t n)
{
	e->checked = false;
	return n ? CALL(e, set_link_poses, links, poses, n) : 0;
}

int
phys_engine_set_link_vel(struct phys_engine *e, int link, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	struct asked *a = &e->asked[link];

	e->checked = false;
	if (lin)
		a->lin = true, a->v = *lin;
	if (ang)
		a->ang = true, a->w = *ang;
	e->any_asked |= lin || ang;
	return CALL(e, set_link_vel, link, lin, ang);
}

void
phys_engine_link_vel_asked(const struct phys_engine *e, int link,
    phys_vec3 *lin, phys_vec3 *ang)
{
	const struct asked *a = &e->asked[link];

	phys_engine_link_vel(e, link, lin, ang);
	if (a->lin)
		*lin = a->v;
	if (a->ang)
		*ang = a->w;
}

int
phys_engine_joint_state(const struct phys_engine *e, int joint, double pos[2],
    double vel[2])
{
	int n = CALL(e, joint_state, joint, pos, vel);

	if (n < 0) {
		fault(e);
		return 0;
	}
	return n;
}

void
phys_engine_joint_wrench(const struct phys_engine *e, int joint,
    phys_vec3 *force, phys_vec3 *torque)
{
	if (CALL(e, joint_wrench, joint, force, torque) < 0) {
		fault(e);
		*force = *torque = v3(0, 0, 0);
	}
}

int
phys_engine_joint_effort(const struct phys_engine *e, int joint,
    double effort[2])
{
	int n = CALL(e, joint_effort, joint, effort);

	if (n < 0) {
		fault(e);
		return 0;
	}
	return n;
}

int
phys_engine_contact_count(const struct phys_engine *e)
{
	int n = CALL0(e, contact_count);

	if (n < 0) {
		fault(e);
		return 0;
	}
	return n;
}
