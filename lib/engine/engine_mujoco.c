/*
 * engine_mujoco.c - the MuJoCo engine (libmujoco 2.2.2). Every MuJoCo call
 * in phys lives here, behind the functions of engine_impl.h.
 *
 * MuJoCo 2.2.2 builds models only from MJCF text, so the world is written
 * as MJCF in memory and loaded through a virtual file system; every body,
 * joint, geom and equality is named after the phys entity it stands for
 * (l12, j3_0, c7, ...) and mapped back by index once loaded. Everything
 * the run's values can change is then written into the mjModel directly
 * (masses, inertias, joint dynamics, limits, sizes, options), so a value
 * reaches MuJoCo the same way at load and later.
 *
 * MuJoCo simulates in joint coordinates: links form a tree of bodies, each
 * held to its parent by the joints of phys's joint (two hinges for a
 * universal or revolute2 joint, a hinge and a slide coupled for a screw),
 * a free joint for the root of a model, no joint for a fixed one. The
 * body frame is the link frame, and the joints' zero is where the model
 * places the links: as loaded, or where they are when something MuJoCo
 * holds fixed changes and the model is made again (positions since load
 * then carry on as offsets). A joint that would close a loop is carried
 * by a light "ghost" body hanging from its parent, welded to its child by
 * an equality constraint; gearboxes, screws and mimic joints are joint
 * equality constraints. Static links' geometry belongs to the world body.
 *
 * Contacts get their surfaces' values every step, between MuJoCo's
 * collision detection and its constraint building: friction (condim 3, 4
 * or 6), softness (solref and solimp), restitution as a damping ratio.
 * Links that may not touch (same model without self_collide, joined by a
 * joint, bitmasks) are filtered out before the narrow phase; a model's
 * pairs with itself, where none touch, before the broadphase keeps them.
 */
#include "engine_impl.h"
#include "engine_mujoco_hfield.h"
#include "inertia.h"
#include "inertia_follow.h"
#include "mjcfwrite.h"
#include "pairkey.h"
#include "touch.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

/* libmujoco 2.2.2 exports its implicit integrator without declaring it
 * in mujoco.h (later versions do). */
void mj_implicit(const mjModel *m, mjData *d);

/* A ghost body (the far side of a loop joint) weighs this share of the
 * link it is welded to. */
#define GHOST_SHARE 1e-3
/* A bouncing contact's spring turns by at most this angle (rad) a step,
 * so that the step resolves the impact (see bounce()). */
#define BOUNCE_TURN 0.1
/* The constraint arrays MuJoCo 2.2.2 allocates grow with the square of
 * their rows: a world needing more than this, or than the process's
 * limits leave (phys_mem_room), is refused. */
#define MEMORY_BUDGET (1024.0 * 1024 * 1024)
/* The stack MuJoCo's broadphase may take for its body pairs, in mjtNums:
 * one for every two bodies (the links and the world). 5,000 bodies
 * overflowed the stack the compiler had been given. */
#define STACK_PAIRS(nlinks) (((size_t)(nlinks) + 1) * ((size_t)(nlinks) + 1) / 2)
/* Geom pairs whose filter answers are kept: a byte each (4 MB). */
#define FILTER_PAIRS (1u << 22)
/* Models whose geoms get a contype bit of their own (group_geoms), and
 * the geom pairs asked to find them each time the run's values change. */
#define GROUP_BITS 30
#define GROUP_PAIRS 20000

/* How a link is held in MuJoCo's tree. */
enum hold {
	HOLD_STATIC,	/* a static model's: its geoms are the world body's */
	HOLD_FREE,	/* a root: a free joint */
	HOLD_MOCAP,	/* a kinematic root: a mocap body */
	HOLD_JOINT	/* by the joints of phys joint via, to link up */
};

struct mlink {
	enum hold hold;
	int via;		/* HOLD_JOINT: the phys joint holding it */
	bool reversed;		/* via's parent is this link's tree child */
	int up;			/* tree parent link; -1: the world */
	int body;		/* MuJoCo body; 0 for static links */
	int mocap;		/* mocap index, -1 */
	phys_pose at;		/* where the model places it (its joints' zero) */
	double mass, inertia[6];	/* as MuJoCo holds them (floored) */
	phys_vec3 lin, ang;	/* a mocap link's velocity */
	phys_pose target;	/* what set_link_pose/vel fit the joints to */
	phys_vec3 tlin, tang;
	phys_vec3 force, torque;	/* the run's, at the centre of mass */
};

/* What a phys joint is in MuJoCo. */
enum role {
	ROLE_NONE,	/* between static links: nothing moves */
	ROLE_TREE,	/* holds a link in the tree */
	ROLE_LOOP,	/* carried by a ghost body welded to the child */
	ROLE_TIE,	/* a loop's ball or fixed joint of no values: its
			 * links' connect or weld, as in an MJCF model */
	ROLE_GEAR	/* a gearbox: an equality between two hinges */
};

struct mjoint {
	enum role role;
	int body;		/* the MuJoCo body carrying its joints */
	int naxes;		/* reported axes */
	int jnt[2];		/* per reported axis: its MuJoCo joint, -1 */
	double sign;		/* reported = sign * MuJoCo's (reversed: -1) */
	int ghost;		/* ROLE_LOOP: the ghost body */
	int eq;			/* ROLE_TIE: its equality */
	phys_vec3 xyz[2];	/* the axis values the model was built with */
	double offset[2];	/* reported at the model's zero */
	phys_vec3 force, torque;	/* on the child, last step */
	double effort[2];
	double cmd[2];		/* the command's effort (motor.h) */
	int act[2];		/* per reported axis: its servo actuator, -1 */
	struct phys_axis_servo servo[2];	/* the command's, if a servo */
	bool stiff_said;	/* a servo too stiff for the integrator, said */
	bool ball_said;		/* a ball's range off its loaded pose, said */
	double loop_f[2];	/* ROLE_LOOP: its spring and damper now */
};

struct mujoco_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;	/* the run's: every parameter */
	bool skip_unsupported;
	bool joint_forces;	/* computed each step (someone reads them) */
	mjModel *m;
	mjData *d;
	struct mlink *links;
	struct mjoint *joints;
	bool commanded;		/* some joint has had a command */
	bool loops;		/* some joint closes a loop (loop_forces) */
	bool pushed;		/* some link has had a force of the run's */
	int *geom_collision;	/* per MuJoCo geom: its collision, -1 */
	/* contact_filter's answers by geom pair, g1 * ngeom + g2, where
	 * there are at most FILTER_PAIRS: 0 not asked yet, 1 kept, 2 left
	 * out; given while the run's values had filtered_at changes. */
	unsigned char *filtered;
	unsigned long filtered_at;
	/* the run's values' changes when the model's collision values were
	 * set (apply_collision_values) */
	unsigned long collisions_at;
	/* edit_contacts' values by geom pair, kept while the run's values
	 * have memo_at changes (an open-addressed table of memo_cap, a
	 * power of 2; made again with the model) */
	struct pair_memo *memo;
	size_t nmemo, memo_cap;
	unsigned long memo_at;
	int *collision_geom;	/* per collision: its first geom, -1 */
	int *body_link;		/* per MuJoCo body: its link, -1 */
	int *body_ghost;	/* per MuJoCo body: the loop joint it carries, -1 */
	int *jnt_joint;		/* per MuJoCo joint: phys joint, -1 */
	int *jnt_axis;		/* per MuJoCo joint: reported axis */
	int64_t *connected;	/* link pairs joined by a joint, sorted */
	size_t nconnected;
	const struct phys_mesh **warned;	/* meshes said to be hulls */
	size_t nwarned;

	double step;
	/* The run's time, for messages: the driver's (a step's start while
	 * the step runs). */
	double now;
	int ncontacts;
	bool targets;		/* the links' targets hold the state */
	/* Geom pairs bouncing this step, and last step's (sorted). */
	int64_t *bouncing, *was_bouncing;
	size_t nbouncing, nwas, cap_bouncing, cap_was;
	mjtNum *saved;		/* qpos, qvel, warm start before a step */
	/* mujoco.eulerdamp false: joint damping explicit under Euler, the
	 * model's dof_damping set aside (in damping) for the integration,
	 * and put back by restore_state should MuJoCo stop within it */
	bool explicit_damping, damping_aside;
	mjtNum *damping;
	jmp_buf fail;		/* where a MuJoCo error returns to */
	bool catching;
	char fail_text[512];
	/* The run's welds: weld equalities of the model, which is made
	 * again where the links are when one begins or ends. */
	struct mweld { int parent, child; } *welds;
	size_t nwelds;
	bool said_stiff;	/* a contact's spring lowered: said once */
	bool broken;		/* MuJoCo stopped outside a step */
};

PHYS_ENGINE_FUNCTIONS(mujoco_engine)

static const struct phys_value *
vals(const struct mujoco_engine *e, phys_scope s, int idx)
{
	return phys_run_values_get(e->v, s, idx);
}

/* ---- MuJoCo's errors and warnings ---- */

/* The engine whose MuJoCo calls are running, for the handlers. */
static struct mujoco_engine *running;

/*
 * MuJoCo's errors (a full stack, a broken model) do not return: its
 * default handler waits for a key and exits. Within a step the error goes
 * back to the step, which restores the state and says so; elsewhere (at
 * load, setting a pose) back to the operation that called MuJoCo
 * (engine_impl.h's trap), which fails and leaves the engine broken.
 */
static void
mujoco_error(const char *msg)
{
	if (running && running->catching) {
		snprintf(running->fail_text, sizeof running->fail_text, "%s",
		    msg);
		longjmp(running->fail, 1);
	}
	snprintf(phys_engine_trap_text, sizeof phys_engine_trap_text,
	    "MuJoCo stopped: %s", msg);
	if (phys_engine_trap_armed())
		phys_engine_trap_spring();
	/* Every call into MuJoCo is under a trap: this is a fault of phys. */
	phys_warn("%s", phys_engine_trap_text);
	abort();
}

static int say_ran_out(const struct mujoco_engine *e);

/* The engine once MuJoCo has stopped in it outside a step: for want of
 * memory (compiling the model, making its data) said as phys's own
 * refusals are, where the world would take it. */
static int
mujoco_stopped(struct mujoco_engine *e)
{
	e->broken = true;
	e->catching = false;
	if (strstr(phys_engine_trap_text, "Could not allocate memory"))
		return say_ran_out(e);
	return phys_fail("%s", phys_engine_trap_text);
}

/* Arm the trap for an operation of e: -1 when MuJoCo stops in it or
 * stopped before. */
#define MUJOCO_TRAP(e, ret)						\
	if ((e)->broken) {						\
		phys_fail("MuJoCo cannot go on after it stopped: %s",	\
		    phys_engine_trap_text);				\
		ret;							\
	}								\
	PHYS_ENGINE_TRAP(mujoco_stopped(e); ret)

/* A full contact or constraint buffer within a step is not news: the
 * step is taken again with more room (grow_data). */
static void
mujoco_warning(const char *msg)
{
	if (running && running->catching && strstr(msg, "buffer is full"))
		return;
	phys_warn_once("MuJoCo: %s", msg);
}

static void
mujoco_init(void)
{
	mju_user_error = mujoco_error;
	mju_user_warning = mujoco_warning;
}

/* ---- geometry ---- */

static phys_quat
from_mjquat(const mjtNum *q)
{
	phys_quat r = { q[0], q[1], q[2], q[3] };

	return r;
}

static void
to_mjquat(phys_quat q, mjtNum *out)
{
	out[0] = q.w, out[1] = q.x, out[2] = q.y, out[3] = q.z;
}

static phys_vec3
from_mj(const mjtNum *v)
{
	return v3(v[0], v[1], v[2]);
}

static void
to_mj(phys_vec3 v, mjtNum *out)
{
	out[0] = v.x, out[1] = v.y, out[2] = v.z;
}

/* A rotation taking z to n (unit). */
static phys_quat
z_to(phys_vec3 n)
{
	phys_vec3 z = v3(0, 0, 1), a = v3_cross(z, n);
	double s = v3_norm(a), c = v3_dot(z, n);

	if (s < 1e-12)
		return c > 0 ? PHYS_QUAT_IDENTITY : (phys_quat){ 0, 1, 0, 0 };
	return phys_quat_about(v3_scale(a, 1 / s), atan2(s, c));
}

/* A body's pose in the world from MuJoCo's kinematics. */
static phys_pose
body_pose(const struct mujoco_engine *e, int b)
{
	phys_pose p;

	p.p = from_mj(e->d->xpos + 3 * b);
	p.q = from_mjquat(e->d->xquat + 4 * b);
	return p;
}

/* The velocity of the world point p moving with body b. */
static phys_vec3
point_vel(const struct mujoco_engine *e, int b, phys_vec3 p)
{
	const mjtNum *cv = e->d->cvel + 6 * b;
	phys_vec3 c = from_mj(e->d->subtree_com + 3 * e->m->body_rootid[b]);

	return v3_add(from_mj(cv + 3), v3_cross(from_mj(cv), v3_sub(p, c)));
}

/* ---- the tree: which joints hold which links ---- */

static bool
link_static(const struct phys_scene *w, int li)
{
	return w->models[w->links[li].model].is_static;
}

static int
refuse_joint(const struct phys_joint *j, const char *why)
{
	return phys_failat(PHYS_AT(j->doc, j->node),
	    "joint '%s': %s", j->name, why);
}

static int
refuse_collision(const struct phys_collision *c, const char *why)
{
	return phys_failat(PHYS_AT(c->doc, c->node),
	    "collision '%s': %s", c->name, why);
}

static void
hold_by(struct mujoco_engine *e, int li, int ji, int up, bool reversed,
    bool *in_tree)
{
	e->links[li].hold = HOLD_JOINT;
	e->links[li].via = ji;
	e->links[li].up = up >= 0 && e->links[up].hold != HOLD_STATIC ? up : -1;
	e->links[li].reversed = reversed;
	e->joints[ji].role = ROLE_TREE;
	in_tree[li] = true;
}

static bool
kinematic(const struct mujoco_engine *e, int li)
{
	return li >= 0 && PVB(vals(e, PHYS_S_LINK, li), LINK_kinematic);
}

/* Whether joint ji is its links' equality wherever it is
 * (phys_mjcf_tie_only). */
static bool
tie_only(const struct mujoco_engine *e, int ji)
{
	return phys_mjcf_tie_only(&e->w->joints[ji], vals(e, PHYS_S_JOINT,
	    ji));
}

/* One pass over the joints: each with one side in the tree brings the
 * other in, but for a kinematic link, which MuJoCo moves as a mocap
 * body, a root of its own (new_root): the joint then closes a loop, as
 * an MJCF mocap body's weld to a gripper does. True when one did. */
static bool
grow_tree(struct mujoco_engine *e, bool *in_tree)
{
	const struct phys_scene *w = e->w;
	bool grew = false;
	size_t i;

	for (i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];
		bool pin = j->parent < 0 || in_tree[j->parent];
		bool cin = in_tree[j->child];

		if (!phys_mjcf_tree_joint(j) || tie_only(e, (int)i) ||
		    e->joints[i].role != ROLE_NONE || pin == cin ||
		    kinematic(e, pin ? j->child : j->parent))
			continue;
		if (pin)
			hold_by(e, j->child, (int)i, j->parent, false, in_tree);
		else
			hold_by(e, j->parent, (int)i, j->child, true, in_tree);
		grew = true;
	}
	return grew;
}

static bool
is_child(const struct mujoco_engine *e, int li)
{
	const struct phys_scene *w = e->w;
	size_t i;

	for (i = 0; i < w->njoints; i++)
		if (phys_mjcf_tree_joint(&w->joints[i]) &&
		    !tie_only(e, (int)i) && w->joints[i].child == li)
			return true;
	return false;
}

/* A new root: the first link out of the tree that no joint holds as a
 * child, else the first out of the tree. False when all are in. */
static bool
new_root(struct mujoco_engine *e, bool *in_tree)
{
	const struct phys_scene *w = e->w;
	int pick = -1;
	size_t i;

	for (i = 0; i < w->nlinks && pick < 0; i++)
		if (!in_tree[i] && !is_child(e, (int)i))
			pick = (int)i;
	for (i = 0; i < w->nlinks && pick < 0; i++)
		if (!in_tree[i])
			pick = (int)i;
	if (pick < 0)
		return false;
	e->links[pick].hold = PVB(vals(e, PHYS_S_LINK, pick), LINK_kinematic) ?
	    HOLD_MOCAP : HOLD_FREE;
	e->links[pick].up = -1;
	in_tree[pick] = true;
	return true;
}

/* Whether joint ji, closing a loop, is a tie under the run's values
 * (phys_mjcf_ties): its links' connect or weld, else on a ghost. */
static bool
ties(const struct mujoco_engine *e, int ji)
{
	return phys_mjcf_ties(&e->w->joints[ji], vals(e, PHYS_S_JOINT, ji));
}

static void
plan_tree(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	bool *in_tree = phys_xcalloc(w->nlinks + 1, sizeof *in_tree);
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		e->links[i].hold = HOLD_STATIC;
		e->links[i].via = -1;
		e->links[i].up = -1;
		e->links[i].mocap = -1;
		in_tree[i] = link_static(w, (int)i);
	}
	e->loops = false;
	for (i = 0; i < w->njoints; i++) {
		e->joints[i].role = ROLE_NONE;
		e->joints[i].ghost = e->joints[i].eq = -1;
		e->joints[i].jnt[0] = e->joints[i].jnt[1] = -1;
		e->joints[i].sign = 1;
	}
	while (grow_tree(e, in_tree) || new_root(e, in_tree))
		continue;
	for (i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];
		bool moves = (j->parent >= 0 && !link_static(w, j->parent)) ||
		    !link_static(w, j->child);

		if (j->type == PHYS_JOINT_GEARBOX)
			e->joints[i].role = ROLE_GEAR;
		else if (phys_mjcf_tree_joint(j) &&
		    e->joints[i].role == ROLE_NONE && moves)
			e->joints[i].role = ties(e, (int)i) ? ROLE_TIE :
			    ROLE_LOOP;
		e->loops |= e->joints[i].role == ROLE_LOOP;
	}
	free(in_tree);
}

/* Link pairs joined by a joint never collide, as under ODE, but an MJCF
 * equality's (phys_joint_keeps_apart). */
static void
plan_connected(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	size_t i;

	e->connected = phys_xcalloc(w->njoints + 1, sizeof *e->connected);
	for (i = 0; i < w->njoints; i++)
		if (phys_mjcf_tree_joint(&w->joints[i]) &&
		    phys_joint_keeps_apart(&w->joints[i]))
			e->connected[e->nconnected++] = phys_pair_key(
			    w->joints[i].parent, w->joints[i].child,
			    (int64_t)w->nlinks);
	phys_keys_sort(e->connected, e->nconnected);
}

/* ---- MJCF: the world as MuJoCo reads it ---- */

/* Numbers, shapes and meshes as phys-sdf print --format mjcf writes them
 * (mjcfwrite.h). */
#define put_nums phys_mjcf_nums

static void
put_pose(struct phys_buf *b, phys_pose p)
{
	double pos[3] = { p.p.x, p.p.y, p.p.z };
	double q[4] = { p.q.w, p.q.x, p.q.y, p.q.z };

	put_nums(b, "pos", pos, 3);
	put_nums(b, "quat", q, 4);
}

static void
put_vec(struct phys_buf *b, const char *name, phys_vec3 v)
{
	double x[3] = { v.x, v.y, v.z };

	put_nums(b, name, x, 3);
}

/* The frame a link's joints and children are placed in: its own for a
 * moving link, the world's for a static one. */
static phys_pose
tree_frame(const struct mujoco_engine *e, int li)
{
	if (li < 0 || e->links[li].hold == HOLD_STATIC)
		return PHYS_POSE_IDENTITY;
	return e->links[li].at;
}

/* The turn of link li from its loaded pose to where the model places
 * it (none for the world). */
static phys_quat
turned(const struct mujoco_engine *e, int li)
{
	if (li < 0)
		return PHYS_QUAT_IDENTITY;
	return phys_quat_mul(e->links[li].at.q,
	    phys_quat_conj(e->w->links[li].pose.q));
}

/*
 * The MuJoCo joints standing for a joint type, in the order they turn
 * the child, as the reported axis each carries (kind[axis] is its kind):
 * hinges about an axis, slides along. Two hinges turn as under ODE, whose
 * universal and hinge-2 joints keep the first axis in the child and the
 * second in the parent: the second axis's hinge comes first, the first
 * axis's rides on it. A screw's slide travels along its one axis.
 */
static int
joint_kinds(enum phys_joint_type t, const char **kind, int *order)
{
	switch (t) {
	case PHYS_JOINT_REVOLUTE:
		kind[0] = "hinge", order[0] = 0;
		return 1;
	case PHYS_JOINT_PRISMATIC:
		kind[0] = "slide", order[0] = 0;
		return 1;
	case PHYS_JOINT_BALL:
		kind[0] = "ball", order[0] = 0;
		return 1;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		kind[0] = kind[1] = "hinge", order[0] = 1, order[1] = 0;
		return 2;
	case PHYS_JOINT_SCREW:	/* the turn, then the travel */
		kind[0] = "hinge", kind[1] = "slide", order[0] = 0, order[1] = 1;
		return 2;
	default:
		return 0;
	}
}

/*
 * Axis k of joint ji in the world at load: as the world gives it, or,
 * where the run's axis.xyz differs from the file's (-s, a change during
 * the run), that, in the joint frame, as SDF 1.7 takes it.
 */
static phys_vec3
joint_axis(const struct mujoco_engine *e, int ji, int k)
{
	const struct phys_joint *j = &e->w->joints[ji];
	phys_vec3 run = k ? PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis2_xyz) :
	    PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz);
	phys_vec3 file = k ? PVV(j->vals, JOINT_axis2_xyz) :
	    PVV(j->vals, JOINT_axis_xyz);

	if (run.x == file.x && run.y == file.y && run.z == file.z)
		return j->axis[k];
	return v3_normalize(phys_quat_rotate(j->pose.q, run));
}

/*
 * The MuJoCo joints of phys joint ji in a body placed at at. Each is
 * named j<joint>_<reported axis>. Reversed (the body is the phys
 * parent), the joints come in the opposite order and turn the other way:
 * reported = -MuJoCo's. The joint's frame is fixed in its child, and of a
 * universal or revolute2 joint's axes the first turns with the child, the
 * second with the parent: where the model places the links (loaded, or
 * where they are when it is made again), so are they.
 */
static void
put_joints(struct phys_buf *b, const struct mujoco_engine *e, int ji,
    phys_pose at, bool reversed)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const char *kind[2];
	int order[2], n = joint_kinds(j->type, kind, order), i, k;
	phys_pose inv = phys_pose_inv(at);
	phys_pose frame = phys_pose_mul(phys_pose_mul(e->links[j->child].at,
	    phys_pose_inv(e->w->links[j->child].pose)), j->pose);
	bool second;
	phys_vec3 dir;

	for (i = 0; i < n; i++) {
		k = order[reversed ? n - 1 - i : i];
		phys_buf_printf(b, "<joint name=\"j%d_%d\" type=\"%s\"", ji, k,
		    kind[k]);
		put_vec(b, "pos", phys_pose_apply(inv, frame.p));
		if (j->type != PHYS_JOINT_BALL) {
			second = k == 1 && (j->type == PHYS_JOINT_UNIVERSAL ||
			    j->type == PHYS_JOINT_REVOLUTE2);
			dir = phys_quat_rotate(turned(e, second ? j->parent :
			    j->child), joint_axis(e, ji, j->type ==
			    PHYS_JOINT_SCREW ? 0 : k));
			/* ODE's hinge-2 measures its second angle the other
			 * way round */
			if (j->type == PHYS_JOINT_REVOLUTE2 && k == 1)
				dir = v3_scale(dir, -1);
			put_vec(b, "axis", v3_normalize(phys_quat_rotate(inv.q,
			    dir)));
		}
		phys_buf_puts(b, "/>\n");
	}
}

/* Placeholder mass properties: the real ones are set once loaded. */
static void
put_inertial(struct phys_buf *b)
{
	phys_buf_puts(b, "<inertial pos=\"0 0 0\" mass=\"1\" "
	    "diaginertia=\"1 1 1\"/>\n");
}

static void
put_mesh_asset(struct phys_buf *b, int ci, const struct phys_mesh *m)
{
	char name[32];

	snprintf(name, sizeof name, "m%d", ci);
	phys_mjcf_mesh(b, name, m);
}

/*
 * A polyline is an extruded polygon, concave maybe, which MuJoCo's
 * convex hull of it would fill in. Its top is the ear-clipped triangles
 * of the polygon (every vertex at the top height): each, extruded down,
 * is a convex prism, and together they are the polyline exactly.
 */
static bool
is_polyline(const struct phys_collision *c)
{
	return c->shape == PHYS_GEOM_MESH &&
	    phys_child(phys_child(c->node, "geometry"), "polyline");
}

/* The top triangles of a polyline's mesh: their first vertices' indices
 * in tri, three each; their count. */
static size_t
polyline_tops(const struct phys_mesh *m, size_t *tops)
{
	double top = m->hi.z;
	size_t t, k, n = 0;

	for (t = 0; t < m->ntri; t++) {
		for (k = 0; k < 3 && m->v[3 * m->tri[3 * t + k] + 2] == top; k++)
			continue;
		if (k == 3)
			tops[n++] = 3 * t;
	}
	return n;
}

static void
put_prism(struct phys_buf *b, int ci, size_t k, const struct phys_mesh *m,
    const unsigned *tri)
{
	static const unsigned faces[24] = { 0, 1, 2, 3, 5, 4, 0, 3, 4, 0, 4,
	    1, 1, 4, 5, 1, 5, 2, 2, 5, 3, 2, 3, 0 };
	double v[18];
	int i;

	for (i = 0; i < 3; i++) {
		memcpy(v + 3 * i, m->v + 3 * tri[i], 3 * sizeof *v);
		memcpy(v + 9 + 3 * i, m->v + 3 * tri[i], 3 * sizeof *v);
		v[9 + 3 * i + 2] = m->lo.z;
	}
	phys_buf_printf(b, "<mesh name=\"m%d_%zu\"", ci, k);
	put_nums(b, "vertex", v, 18);
	phys_buf_puts(b, " face=\"");
	for (i = 0; i < 24; i++)
		phys_buf_printf(b, i ? " %u" : "%u", faces[i]);
	phys_buf_puts(b, "\"/>\n");
}

static void
put_polyline_assets(struct phys_buf *b, int ci, const struct phys_mesh *m)
{
	size_t *tops = phys_xcalloc(m->ntri + 1, sizeof *tops);
	size_t n = polyline_tops(m, tops), k;

	for (k = 0; k < n; k++)
		put_prism(b, ci, k, m, m->tri + tops[k]);
	free(tops);
}

/*
 * MuJoCo 2.2.2's compiler keeps several copies of every height field's
 * samples: twelve terrains of 4097 x 4097 took it 3.4 GB where ODE and
 * Bullet took 575 MB. The world's samples together are bounded.
 */
#define MAX_HFIELD_SAMPLES (1u << 22)

/* Whether collision ci is a box, sphere, cylinder or capsule of a size 0
 * at the run's values (1), which MuJoCo cannot make; -1 on error. */
static int
zero_sized(struct mujoco_engine *e, int ci)
{
	const struct phys_collision *wc = &e->w->collisions[ci];
	struct phys_collision c;
	struct phys_mesh *own;

	if (wc->shape != PHYS_GEOM_BOX && wc->shape != PHYS_GEOM_SPHERE &&
	    wc->shape != PHYS_GEOM_CYLINDER && wc->shape != PHYS_GEOM_CAPSULE)
		return 0;
	if (phys_collision_sized(wc, vals(e, PHYS_S_COLLISION, ci), &c,
	    &own) < 0)
		return -1;
	phys_mesh_free(own);
	return phys_collision_zero_size(&c);
}

/*
 * The assets: the collisions' meshes at their run's sizes and the
 * heightmaps. A mesh without volume (flat, or nearly) has no convex hull
 * for MuJoCo to collide, and a shape of a size 0 none to make: refused,
 * or skipped under --skip-unsupported.
 */
static int
put_assets(struct phys_buf *b, struct mujoco_engine *e, bool *skip)
{
	const struct phys_scene *w = e->w;
	struct phys_collision c;
	struct phys_mesh *own;
	double s[4];
	size_t i;
	int rc = 0, zero;

	if (phys_heightmaps_within(w, MAX_HFIELD_SAMPLES, "MuJoCo") < 0)
		return -1;
	phys_buf_puts(b, "<asset>\n");
	for (i = 0; i < w->ncollisions && rc == 0; i++) {
		const struct phys_collision *wc = &w->collisions[i];

		if (wc->shape == PHYS_GEOM_HEIGHTMAP) {
			phys_heightmap_mujoco_size(wc->heightmap, s);
			phys_buf_printf(b, "<hfield name=\"h%zu\" nrow=\"%zu\" "
			    "ncol=\"%zu\"", i, wc->heightmap->ny,
			    wc->heightmap->nx);
			put_nums(b, "size", s, 4);
			phys_buf_puts(b, "/>\n");
			continue;
		}
		if ((zero = zero_sized(e, (int)i)) < 0)
			return -1;
		if (zero) {
			/* refused, or skipped as a flat mesh is */
			if (!e->skip_unsupported)
				rc = refuse_collision(wc,
				    PHYS_ZERO_SIZE_WHY("MuJoCo")
				    " (--skip-unsupported skips it)");
			else
				phys_warnat(PHYS_AT(wc->doc, wc->node),
				    "skipping collision '%s': %s", wc->name,
				    PHYS_ZERO_SIZE_WHY("MuJoCo"));
			skip[i] = true;
			continue;
		}
		/* a cone is its triangles: MuJoCo has no cone, and a cone
		 * is its own convex hull */
		if (wc->shape != PHYS_GEOM_MESH && wc->shape != PHYS_GEOM_CONE)
			continue;
		/* the mesh as it is, hull asked for or not: MuJoCo makes
		 * the hull of every mesh itself */
		if (phys_collision_sized(wc, vals(e, PHYS_S_COLLISION,
		    (int)i), &c, &own) < 0)
			return -1;
		if (is_polyline(wc)) {
			put_polyline_assets(b, (int)i, c.mesh);
		} else if (phys_mesh_flat(c.mesh)) {
			if (!e->skip_unsupported)
				rc = refuse_collision(wc, "its mesh is flat: "
				    "MuJoCo collides a mesh's convex hull, "
				    "which has no volume here "
				    "(--skip-unsupported skips it)");
			else
				phys_warnat(PHYS_AT(wc->doc, wc->node),
				    "skipping collision '%s': a flat mesh, "
				    "which MuJoCo cannot collide", wc->name);
			skip[i] = true;
		} else {
			put_mesh_asset(b, (int)i, c.mesh);
		}
		phys_mesh_free(own);
	}
	phys_buf_puts(b, "</asset>\n");
	return rc;
}

/* A polyline's prisms, named c<collision> and c<collision>_<k>. */
static int
put_polyline_geoms(struct phys_buf *b, int ci, const struct phys_mesh *m,
    phys_pose p)
{
	size_t *tops = phys_xcalloc(m->ntri + 1, sizeof *tops);
	size_t n = polyline_tops(m, tops), k;

	phys_buf_puts(b, " type=\"mesh\"");
	for (k = 0; k < n; k++) {
		if (k)
			phys_buf_printf(b, "<geom name=\"c%d_%zu\" type=\"mesh\"",
			    ci, k);
		phys_buf_printf(b, " mesh=\"m%d_%zu\"", ci, k);
		put_pose(b, p);
		phys_buf_puts(b, "/>\n");
	}
	free(tops);
	return 0;
}

/* One geom of collision ci, posed at p in its body's frame. */
static int
put_geom(struct phys_buf *b, struct mujoco_engine *e, int ci, phys_pose p,
    bool moving)
{
	const struct phys_collision *wc = &e->w->collisions[ci];
	struct phys_collision c;
	struct phys_mesh *own;

	if (phys_collision_sized(wc, vals(e, PHYS_S_COLLISION, ci), &c,
	    &own) < 0)
		return -1;
	phys_mesh_free(own);	/* MuJoCo's ellipsoids are exact */
	phys_buf_printf(b, "<geom name=\"c%d\"", ci);
	switch (c.shape) {
	case PHYS_GEOM_BOX:
	case PHYS_GEOM_SPHERE:
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
	case PHYS_GEOM_ELLIPSOID:
		phys_mjcf_shape(b, &c);
		break;
	case PHYS_GEOM_PLANE:
		if (moving)
			return refuse_collision(wc, "a plane must belong to "
			    "a static model");
		phys_buf_puts(b, " type=\"plane\" size=\"0 0 1\"");
		p.q = phys_quat_mul(p.q, z_to(v3_normalize(c.normal)));
		break;
	case PHYS_GEOM_MESH:
	case PHYS_GEOM_CONE:
		if (is_polyline(wc))
			return put_polyline_geoms(b, ci, wc->mesh, p);
		phys_buf_printf(b, " type=\"mesh\" mesh=\"m%d\"", ci);
		break;
	case PHYS_GEOM_HEIGHTMAP:
		if (moving)
			return refuse_collision(wc, "a heightmap must belong "
			    "to a static model");
		phys_buf_printf(b, " type=\"hfield\" hfield=\"h%d\"", ci);
		p = phys_pose_mul(p, (phys_pose){ { c.heightmap->pos[0],
		    c.heightmap->pos[1], c.heightmap->lo }, PHYS_QUAT_IDENTITY });
		break;
	}
	put_pose(b, p);
	phys_buf_puts(b, "/>\n");
	return 0;
}

static int
put_geoms(struct phys_buf *b, struct mujoco_engine *e, int li,
    const bool *skip)
{
	const struct phys_link *l = &e->w->links[li];
	bool moving = e->links[li].hold != HOLD_STATIC;
	int ci;

	for (ci = l->first_collision; ci < l->first_collision +
	    l->ncollisions; ci++)
		if (!skip[ci] && put_geom(b, e, ci, moving ?
		    e->w->collisions[ci].pose : phys_pose_mul(l->pose,
		    e->w->collisions[ci].pose), moving) < 0)
			return -1;
	return 0;
}

static int put_children(struct phys_buf *b, struct mujoco_engine *e,
    int up, const bool *skip);

/*
 * The ends of the spatial tendons on link li, as sites of its body in
 * its frame (li moving), or for li -1 those on the world and on static
 * links, as sites of the world body in the world's frame.
 */
static void
put_tendon_sites(struct phys_buf *b, const struct mujoco_engine *e, int li)
{
	const struct phys_scene *w = e->w;
	const struct phys_tendon *t;
	size_t i;
	int k, l;

	for (i = 0; i < w->ntendons; i++) {
		t = &w->tendons[i];
		for (k = 0; !t->njoints && k < 2; k++) {
			l = t->link[k];
			if (li < 0 ? l >= 0 && e->links[l].hold !=
			    HOLD_STATIC : l != li)
				continue;
			phys_buf_printf(b, "<site name=\"t%zu_%d\"", i, k);
			put_vec(b, "pos", li < 0 ? phys_tendon_end(w, t, k) :
			    t->at[k]);
			phys_buf_puts(b, "/>\n");
		}
	}
}

/* A link's body, its joints, geoms and the bodies it carries. */
static int
put_link(struct phys_buf *b, struct mujoco_engine *e, int li,
    const bool *skip)
{
	const struct mlink *ml = &e->links[li];
	phys_pose at = ml->at;

	phys_buf_printf(b, "<body name=\"l%d\"", li);
	put_pose(b, phys_pose_mul(phys_pose_inv(tree_frame(e, ml->up)), at));
	if (ml->hold == HOLD_MOCAP)
		phys_buf_puts(b, " mocap=\"true\"");
	phys_buf_puts(b, ">\n");
	put_inertial(b);
	if (ml->hold == HOLD_FREE)
		phys_buf_printf(b, "<joint name=\"f%d\" type=\"free\"/>\n", li);
	else if (ml->hold == HOLD_JOINT)
		put_joints(b, e, ml->via, at, ml->reversed);
	if (put_geoms(b, e, li, skip) < 0)
		return -1;
	put_tendon_sites(b, e, li);
	if (put_children(b, e, li, skip) < 0)
		return -1;
	phys_buf_puts(b, "</body>\n");
	return 0;
}

/* The ghost of loop joint ji: at its child's loaded pose, hanging from
 * the parent's body by the joint's own joints, no geometry. */
static void
put_ghost(struct phys_buf *b, struct mujoco_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	phys_pose at = e->links[j->child].at;

	phys_buf_printf(b, "<body name=\"g%d\"", ji);
	put_pose(b, phys_pose_mul(phys_pose_inv(tree_frame(e, j->parent)), at));
	phys_buf_puts(b, ">\n");
	put_inertial(b);
	put_joints(b, e, ji, at, false);
	phys_buf_puts(b, "</body>\n");
}

/* The bodies held to link up (-1: to the world, static links' too). */
static int
put_children(struct phys_buf *b, struct mujoco_engine *e, int up,
    const bool *skip)
{
	const struct phys_scene *w = e->w;
	size_t i;

	for (i = 0; i < w->nlinks; i++)
		if (e->links[i].hold != HOLD_STATIC && e->links[i].up == up &&
		    put_link(b, e, (int)i, skip) < 0)
			return -1;
	for (i = 0; i < w->njoints; i++) {
		int p = w->joints[i].parent;

		if (e->joints[i].role == ROLE_LOOP && (p == up || (up < 0 &&
		    (p < 0 || e->links[p].hold == HOLD_STATIC))))
			put_ghost(b, e, (int)i);
	}
	return 0;
}

static const char *
body_name(const struct mujoco_engine *e, int li, char *buf, size_t size)
{
	if (li < 0 || e->links[li].hold == HOLD_STATIC)
		return "world";
	snprintf(buf, size, "l%d", li);
	return buf;
}

/*
 * A gearbox turns its child about the reference body by -ratio times
 * its parent's turn. MuJoCo couples the two revolute joints that turn
 * them about the reference: gear[k] is each, and coef[k] the factor from
 * its position to the turn about the gearbox's axis k.
 */
static int
gear_joints(const struct mujoco_engine *e, int ji, int gear[2], double coef[2])
{
	const struct phys_joint *j = &e->w->joints[ji];

	if (phys_gearbox_gears(e->w, j, gear, coef) < 0)
		return refuse_joint(j, "the MuJoCo engine couples the "
		    "revolute joints that turn a gearbox's links about its "
		    "reference body, and one of them has none");
	return 0;
}

/* joint1 = c0 + c1 joint2, both MuJoCo joints, from qpos0. */
static void
put_coupling(struct phys_buf *b, const char *name, int j1, int k1, int j2,
    int k2, double c0, double c1)
{
	double poly[5] = { c0, c1, 0, 0, 0 };

	phys_buf_printf(b, "<joint name=\"%s\" joint1=\"j%d_%d\" "
	    "joint2=\"j%d_%d\"", name, j1, k1, j2, k2);
	put_nums(b, "polycoef", poly, 5);
	phys_buf_puts(b, "/>\n");
}

/* A mimic axis is a hinge or slide of its joint, coupled to one of its
 * leader's. */
static bool
coupled_axis(const struct mujoco_engine *e, int ji, int k)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const char *kind[2];
	int order[2], n = joint_kinds(j->type, kind, order);

	return k < n && j->type != PHYS_JOINT_BALL &&
	    (e->joints[ji].role == ROLE_TREE || e->joints[ji].role == ROLE_LOOP);
}

static int
check_mimic(const struct mujoco_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	int i;

	for (i = 0; i < j->mimic.nleaders; i++)
		if (!coupled_axis(e, j->mimic.lead[i].joint, 0))
			return refuse_joint(j, "the MuJoCo engine couples a "
			    "mimic axis to a hinge or slide of its leader, "
			    "which this leader's axis is not");
	if (!coupled_axis(e, ji, 0))
		return refuse_joint(j, "the MuJoCo engine couples a mimic "
		    "axis only when it is a hinge or a slide");
	return 0;
}

/* Whether joint j's mimic is a tendon of MuJoCo's (put_mimic_tendons). */
static bool
mimic_tendon(const struct phys_joint *j)
{
	return j->mimic.nleaders && phys_mjcf_mimic_tendon_coef(j) != 0;
}

/*
 * A mimic of several leaders, or of an MJCF tendon equality, is a fixed
 * tendon of the follower and its leaders held at a length, the
 * follower's coefficient as that tendon's (phys_mjcf_mimic_tendon_coef);
 * one of one leader a joint equality. MuJoCo weighs the softness of each
 * its own way (a joint equality by the sum of the two joints' inverse
 * weights, a tendon by its coefficients squared, and its impedance by a
 * violation the coefficients scale): a coupled slide of multiplier 2 held
 * by a tendon moved up to 61 um from libmujoco's in 1 s. Their
 * coefficients are set from the joints' senses once loaded (apply_mimic).
 */
static void
put_mimic_tendons(struct phys_buf *b, const struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	size_t i;
	int k;

	for (i = 0; i < w->njoints; i++) {
		const struct phys_mimic *mi = &w->joints[i].mimic;

		if (!mimic_tendon(&w->joints[i]))
			continue;
		phys_buf_printf(b, "<fixed name=\"mimic%zu\"><joint "
		    "joint=\"j%zu_0\" coef=\"1\"/>", i, i);
		for (k = 0; k < mi->nleaders; k++)
			phys_buf_printf(b, "<joint joint=\"j%d_0\" "
			    "coef=\"1\"/>", mi->lead[k].joint);
		phys_buf_puts(b, "</fixed>\n");
	}
}

/*
 * The limited tendons (struct phys_tendon), each tN: a spatial one
 * between its sites, a fixed one of its joints, of coefficients and a
 * range in phys's sense that apply_tendons turns to MuJoCo's once
 * loaded. A joint MuJoCo does not move cannot be one of its joints.
 */
static int
put_limited_tendons(struct phys_buf *b, const struct mujoco_engine *e)
{
	const struct phys_tendon *t;
	size_t i;
	int k, j;

	for (i = 0; i < e->w->ntendons; i++) {
		t = &e->w->tendons[i];
		phys_buf_printf(b, "<%s name=\"t%zu\" limited=\"true\"",
		    t->njoints ? "fixed" : "spatial", i);
		put_nums(b, "range", t->range, 2);
		put_nums(b, "solreflimit", t->solref, 2);
		put_nums(b, "solimplimit", t->solimp, 5);
		put_nums(b, "margin", &t->margin, 1);
		phys_buf_puts(b, ">");
		for (k = 0; k < t->njoints; k++) {
			j = t->joints[k];
			if (e->joints[j].role != ROLE_TREE &&
			    e->joints[j].role != ROLE_LOOP)
				return phys_failat(PHYS_AT(t->doc, t->node),
				    "tendon '%s': joint '%s' does not move "
				    "under MuJoCo (it joins static links, or "
				    "is a gearbox)", t->name,
				    e->w->joints[j].name);
			phys_buf_printf(b, "<joint joint=\"j%d_0\"", j);
			put_nums(b, "coef", &t->coef[k], 1);
			phys_buf_puts(b, "/>");
		}
		for (k = 0; !t->njoints && k < 2; k++)
			phys_buf_printf(b, "<site site=\"t%zu_%d\"/>", i, k);
		phys_buf_printf(b, "</%s>\n", t->njoints ? "fixed" :
		    "spatial");
	}
	return 0;
}

/* The tendons: mimics' and the limited ones. */
static int
put_tendons(struct phys_buf *b, const struct mujoco_engine *e)
{
	bool any = e->w->ntendons > 0;
	size_t i;
	int rc;

	for (i = 0; !any && i < e->w->njoints; i++)
		any = mimic_tendon(&e->w->joints[i]);
	if (!any)
		return 0;
	phys_buf_puts(b, "<tendon>\n");
	put_mimic_tendons(b, e);
	rc = put_limited_tendons(b, e);
	phys_buf_puts(b, "</tendon>\n");
	return rc;
}

/*
 * A tie (ROLE_TIE): its links' connect at the joint's centre, in the
 * first body's frame, or their weld at their poses as the model is made
 * (MuJoCo's qpos0); the moving link first, as MuJoCo's body1.
 */
static void
put_tie(struct phys_buf *b, struct mujoco_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bool child_first = j->child >= 0 &&
	    e->links[j->child].hold != HOLD_STATIC;
	int l1 = child_first ? j->child : j->parent;
	int l2 = child_first ? j->parent : j->child;
	/* the joint's frame is fixed in its child */
	phys_pose at = phys_pose_mul(e->links[j->child].at, phys_pose_mul(
	    phys_pose_inv(e->w->links[j->child].pose), j->pose));
	phys_vec3 a = phys_pose_mul(phys_pose_inv(tree_frame(e, l1)), at).p;
	char n1[32], n2[32];

	phys_buf_printf(b, "<%s name=\"t%d\" body1=\"%s\" body2=\"%s\"",
	    j->type == PHYS_JOINT_BALL ? "connect" : "weld", ji,
	    body_name(e, l1, n1, sizeof n1), body_name(e, l2, n2, sizeof n2));
	if (j->type == PHYS_JOINT_BALL)
		put_nums(b, "anchor", (double[3]){ a.x, a.y, a.z }, 3);
	phys_buf_puts(b, "/>\n");
}

/* The equality constraints: loops' welds and ties, screws, gearboxes,
 * mimics. Their factors are set again from the run's values once
 * loaded. */
static int
put_equalities(struct phys_buf *b, struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	char name[48], other[32];
	int gear[2];
	double coef[2];
	size_t i;

	phys_buf_puts(b, "<equality>\n");
	for (i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		if (e->joints[i].role == ROLE_TIE)
			put_tie(b, e, (int)i);
		if (e->joints[i].role == ROLE_LOOP)
			phys_buf_printf(b, "<weld name=\"w%zu\" body1=\"g%zu\" "
			    "body2=\"%s\"/>\n", i, i, body_name(e, j->child,
			    other, sizeof other));
		if (j->type == PHYS_JOINT_SCREW &&
		    e->joints[i].role != ROLE_NONE) {
			snprintf(name, sizeof name, "s%zu", i);
			put_coupling(b, name, (int)i, 1, (int)i, 0, 0, 1);
		}
		if (e->joints[i].role == ROLE_GEAR) {
			if (gear_joints(e, (int)i, gear, coef) < 0)
				return -1;
			snprintf(name, sizeof name, "q%zu", i);
			put_coupling(b, name, gear[1], 0, gear[0], 0, 0, -1);
		}
		if (j->mimic.nleaders && check_mimic(e, (int)i) < 0)
			return -1;
		snprintf(name, sizeof name, "mimic%zu", i);
		if (j->mimic.nleaders && phys_mjcf_mimic_tendon_coef(j) == 0)
			put_coupling(b, name, (int)i, 0, j->mimic.lead[0].joint,
			    0, 0, 1);
		else if (j->mimic.nleaders)	/* its tendon held */
			phys_buf_printf(b, "<tendon name=\"%s\" "
			    "tendon1=\"%s\"/>\n", name, name);
	}
	for (i = 0; i < e->nwelds; i++)
		phys_buf_printf(b, "<weld name=\"d%zu\" body1=\"%s\" "
		    "body2=\"%s\"/>\n", i, body_name(e, e->welds[i].parent,
		    name, sizeof name), body_name(e, e->welds[i].child, other,
		    sizeof other));
	phys_buf_puts(b, "</equality>\n");
	return 0;
}

/* At most as many dofs as a link's body has: a free root's six, three
 * for a link a joint holds (a ball's). */
static double
link_dofs(const struct mujoco_engine *e, int li)
{
	return e->links[li].hold == HOLD_FREE ? 6 :
	    e->links[li].hold == HOLD_JOINT ? 3 : 0;
}

/*
 * Each link's depth in the tree (1 for a root) and the dofs from its root
 * to it, found once each: up its tree to a link known, then down again.
 */
static void
tree_paths(const struct mujoco_engine *e, int *depth, double *dofs)
{
	int li, k, d;
	double n;

	for (li = 0; li < (int)e->w->nlinks; li++) {
		for (k = li, d = 0, n = 0; k >= 0 && !depth[k];
		    k = e->links[k].up) {
			d++;
			n += link_dofs(e, k);
		}
		d += k >= 0 ? depth[k] : 0;
		n += k >= 0 ? dofs[k] : 0;
		for (k = li; k >= 0 && !depth[k]; k = e->links[k].up) {
			depth[k] = d--;
			dofs[k] = n;
			n -= link_dofs(e, k);
		}
	}
}

/* At least as many entries as MuJoCo's mass matrix keeps: each dof's
 * row holds the dofs from its root to it (a chain of n hinges n^2 / 2, n
 * free bodies 21 n). */
static double
mass_entries(const struct mujoco_engine *e)
{
	size_t nl = e->w->nlinks, i;
	int *depth = phys_xcalloc(nl + 1, sizeof *depth);
	double *dofs = phys_xcalloc(nl + 1, sizeof *dofs), n = 0;

	tree_paths(e, depth, dofs);
	for (i = 0; i < nl; i++)
		n += link_dofs(e, (int)i) * dofs[i];
	free(depth);
	free(dofs);
	return n;
}

/*
 * Sizes of the constraint arrays a model starts with (a step that
 * outgrows them makes them larger: grow_data), and a stack for the
 * compiler's own computations (the data's is set once loaded). The
 * compiler makes a data of them, so they are held to half the budget or
 * of what the process's limits leave (data_bytes, with nv at most what
 * the links and joints could move): 5,000 bodies asked it for 50 GB,
 * and it failed without a reason.
 */
static void
put_size(struct phys_buf *b, const struct mujoco_engine *e)
{
	size_t nconmax = 2 * e->w->ncollisions + 32;
	size_t njmax = 4 * nconmax + 8 * e->w->njoints + 32;
	size_t nv = 6 * e->w->nlinks + 3 * e->w->njoints;
	double limit, budget = phys_mem_room(MEMORY_BUDGET, &limit);
	/* 12 nj^2 + 24 nj nv <= budget / 2 */
	double fit = (sqrt(576.0 * nv * nv + 24.0 * budget) - 24.0 * nv) / 24;
	double nm = mass_entries(e);

	if ((double)njmax > fit)
		njmax = (size_t)fmax(fit, 32);
	/* the compiler's forward pass takes stack for twice the mass matrix's
	 * entries (a chain of 80 hinges overflowed without them), and for
	 * MuJoCo's default Newton solver on the contacts at qpos0, 3 nv^2
	 * (MuJoCo's stonehenge of 76 stones in contact overflowed) */
	phys_buf_printf(b, "<size nconmax=\"%zu\" njmax=\"%zu\" "
	    "nstack=\"%.0f\"/>\n", nconmax, njmax, fmin(10000.0 + 20.0 * nv +
	    10.0 * njmax + (double)STACK_PAIRS(e->w->nlinks) + 2 * nm +
	    3.0 * nv * nv, fmax(budget / 2 / sizeof(mjtNum), 10000.0)));
}

/*
 * A general actuator on each hinge and slide that takes commands, named
 * a<joint>_<reported axis>: a servo command (motor.h) sets its gain and
 * bias, so that MuJoCo's implicit integrator takes its damping into the
 * step as it takes an MJCF servo's. Idle, they are off (actuation
 * disabled while no servo runs).
 */
static void
put_servos(struct phys_buf *b, const struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	size_t i;
	int k, n;

	phys_buf_puts(b, "<actuator>\n");
	for (i = 0; i < w->njoints; i++) {
		n = phys_joint_axes(w->joints[i].type);
		if (e->joints[i].role != ROLE_TREE &&
		    e->joints[i].role != ROLE_LOOP)
			continue;
		for (k = 0; k < n; k++)
			phys_buf_printf(b, "<general name=\"a%zu_%d\" "
			    "joint=\"j%zu_%d\" gaintype=\"fixed\" "
			    "biastype=\"affine\" gainprm=\"1\" "
			    "biasprm=\"0 0 0\" ctrllimited=\"false\" "
			    "forcelimited=\"false\"/>\n", i, k, i, k);
	}
	phys_buf_puts(b, "</actuator>\n");
}

static int
write_mjcf(struct mujoco_engine *e, struct phys_buf *b)
{
	const struct phys_scene *w = e->w;
	bool *skip = phys_xcalloc(w->ncollisions + 1, sizeof *skip);
	size_t i;
	int rc = 0;

	phys_buf_puts(b, "<mujoco model=\"phys\">\n"
	    "<compiler angle=\"radian\" inertiafromgeom=\"false\" "
	    "boundmass=\"0\" boundinertia=\"0\" balanceinertia=\"false\" "
	    "fusestatic=\"false\" discardvisual=\"true\" "
	    "convexhull=\"true\"/>\n");
	put_size(b, e);
	phys_buf_puts(b, "<default><geom contype=\"1\" conaffinity=\"1\" "
	    "condim=\"3\"/></default>\n");
	if (put_assets(b, e, skip) < 0) {
		free(skip);
		return -1;
	}
	phys_buf_puts(b, "<worldbody>\n");
	for (i = 0; i < w->nlinks && rc == 0; i++)
		if (e->links[i].hold == HOLD_STATIC)
			rc = put_geoms(b, e, (int)i, skip);
	put_tendon_sites(b, e, -1);
	if (rc == 0)
		rc = put_children(b, e, -1, skip);
	phys_buf_puts(b, "</worldbody>\n");
	if (rc == 0)
		rc = put_tendons(b, e);
	if (rc == 0)
		rc = put_equalities(b, e);
	put_servos(b, e);
	phys_buf_puts(b, "</mujoco>\n");
	free(skip);
	return rc;
}

/* ---- loading ---- */

/*
 * MuJoCo's complaint about a model names the MJCF element ("Object name
 * = c12, ..."): point at the phys entity it stands for where there is one.
 * Its compiler out of stack or memory where the process's limits held
 * its data below the budget (put_size) is the world's want of memory.
 */
static int
refuse_model(const struct mujoco_engine *e, const char *err)
{
	const struct phys_scene *w = e->w;
	const char *at = strstr(err, "Object name = ");
	char what[256], kind = 0;
	int idx = -1;
	double limit;

	if ((strstr(err, "Stack overflow") ||
	    strstr(err, "Could not allocate memory")) &&
	    (phys_mem_room(MEMORY_BUDGET, &limit), limit > 0))
		return say_ran_out(e);

	snprintf(what, sizeof what, "%.*s", (int)strcspn(err, "\n"), err);
	if (strncmp(what, "Error: ", 7) == 0)
		memmove(what, what + 7, strlen(what + 7) + 1);
	if (at && sscanf(at + 14, "%c%d", &kind, &idx) == 2 && idx >= 0) {
		if ((kind == 'c' || kind == 'm' || kind == 'h') &&
		    (size_t)idx < w->ncollisions)
			return refuse_collision(&w->collisions[idx], what);
		if (kind == 'l' && (size_t)idx < w->nlinks)
			return phys_failat(PHYS_AT(w->links[idx].doc,
			    w->links[idx].node),
			    "link '%s': MuJoCo refuses it: %s",
			    w->links[idx].name, what);
		if ((kind == 'j' || kind == 'g' || kind == 'w') &&
		    (size_t)idx < w->njoints)
			return refuse_joint(&w->joints[idx], what);
	}
	return phys_fail("MuJoCo refuses the world: %s", what);
}

static mjModel *
load_mjcf(const struct mujoco_engine *e, const struct phys_buf *xml)
{
	mjVFS *vfs = phys_xcalloc(1, sizeof *vfs);
	char err[1024] = "";
	mjModel *m = NULL;

	mj_defaultVFS(vfs);
	if (mj_makeEmptyFileVFS(vfs, "phys.xml", (int)xml->len) == 0) {
		memcpy(vfs->filedata[0], xml->s, xml->len);
		m = mj_loadXML("phys.xml", vfs, err, sizeof err);
	} else {
		snprintf(err, sizeof err, "the model does not fit in memory");
	}
	mj_deleteVFS(vfs);
	free(vfs);
	if (!m)
		refuse_model(e, err);
	return m;
}

static int
find(const mjModel *m, int type, const char *fmt, int a, int b)
{
	char name[48];

	snprintf(name, sizeof name, fmt, a, b);
	return mj_name2id(m, type, name);
}

/* From MuJoCo's ids back to phys's entities, and the other way. */
static void
map_model(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	const mjModel *m = e->m;
	size_t i;
	int k, id;

	e->geom_collision = phys_xcalloc((size_t)m->ngeom + 1, sizeof(int));
	if ((size_t)m->ngeom * (size_t)m->ngeom <= FILTER_PAIRS)
		e->filtered = phys_xcalloc((size_t)m->ngeom * (size_t)m->ngeom +
		    1, 1);
	e->filtered_at = e->v->changes;
	e->collision_geom = phys_xcalloc(w->ncollisions + 1, sizeof(int));
	e->body_link = phys_xcalloc((size_t)m->nbody, sizeof(int));
	e->body_ghost = phys_xcalloc((size_t)m->nbody, sizeof(int));
	e->jnt_joint = phys_xcalloc((size_t)m->njnt + 1, sizeof(int));
	e->jnt_axis = phys_xcalloc((size_t)m->njnt + 1, sizeof(int));
	for (k = 0; k < m->ngeom; k++)
		e->geom_collision[k] = -1;
	for (k = 0; k < m->nbody; k++)
		e->body_link[k] = e->body_ghost[k] = -1;
	for (k = 0; k < m->njnt; k++)
		e->jnt_joint[k] = -1;
	for (i = 0; i < w->ncollisions; i++) {
		id = find(m, mjOBJ_GEOM, "c%d", (int)i, 0);
		e->collision_geom[i] = id;
		for (k = 1; id >= 0; k++) {
			e->geom_collision[id] = (int)i;
			id = find(m, mjOBJ_GEOM, "c%d_%d", (int)i, k);
		}
	}
	for (i = 0; i < w->nlinks; i++) {
		struct mlink *ml = &e->links[i];

		ml->body = ml->hold == HOLD_STATIC ? 0 :
		    find(m, mjOBJ_BODY, "l%d", (int)i, 0);
		if (ml->body > 0)
			e->body_link[ml->body] = (int)i;
		ml->mocap = ml->hold == HOLD_MOCAP ?
		    m->body_mocapid[ml->body] : -1;
	}
	for (i = 0; i < w->njoints; i++) {
		struct mjoint *mj = &e->joints[i];
		const struct phys_joint *j = &w->joints[i];

		mj->naxes = 0;
		mj->xyz[0] = PVV(vals(e, PHYS_S_JOINT, (int)i), JOINT_axis_xyz);
		mj->xyz[1] = PVV(vals(e, PHYS_S_JOINT, (int)i), JOINT_axis2_xyz);
		mj->eq = -1;
		if (mj->role == ROLE_LOOP) {
			mj->ghost = find(m, mjOBJ_BODY, "g%d", (int)i, 0);
			e->body_ghost[mj->ghost] = (int)i;
			mj->body = mj->ghost;
		} else if (mj->role == ROLE_TIE) {
			mj->eq = find(m, mjOBJ_EQUALITY, "t%d", (int)i, 0);
			mj->body = -1;
		} else if (mj->role == ROLE_TREE) {
			int carrier = e->links[j->child].via == (int)i ?
			    j->child : j->parent;

			mj->body = e->links[carrier].body;
			mj->sign = e->links[carrier].reversed ? -1 : 1;
		}
		for (k = 0; k < 2; k++) {
			mj->jnt[k] = find(m, mjOBJ_JOINT, "j%d_%d", (int)i, k);
			mj->act[k] = find(m, mjOBJ_ACTUATOR, "a%d_%d", (int)i,
			    k);
			if (mj->jnt[k] < 0)
				continue;
			e->jnt_joint[mj->jnt[k]] = (int)i;
			e->jnt_axis[mj->jnt[k]] = k;
			if (m->jnt_type[mj->jnt[k]] != mjJNT_BALL)
				mj->naxes = k + 1;
		}
	}
}

/* ---- values into the model ---- */

/*
 * A link's mass as every engine takes it (phys_link_mass_prepare), its
 * stand-in for mass 0 from the run's masses, handed to MuJoCo in
 * principal axes; a static link's (the world body's geoms) without
 * warnings.
 */
static const struct phys_mass_rules mujoco_mass = {
	.engine = "MuJoCo",
	.form = PHYS_INERTIA_PRINCIPAL,
	.stand_in = PHYS_STAND_IN_AT_LOAD,
	.stand_in_from_run = true,
	.range = PHYS_MASS_RANGE,
};

/* Mass, principal moments and the principal frame in the link frame. */
static int
link_inertia(struct mujoco_engine *e, int li, bool at_load, double *mass,
    double mo[3], phys_pose *frame)
{
	struct mlink *ml = &e->links[li];
	struct phys_link_mass lm;
	int rc;

	rc = phys_link_mass_prepare(e->w, e->v, li, &mujoco_mass, at_load,
	    phys_link_inertial_line(&e->w->links[li]), ml->hold == HOLD_STATIC,
	    &lm);
	memcpy(ml->inertia, lm.given, sizeof ml->inertia);
	if (rc < 0)
		return -1;
	memcpy(mo, lm.moments, 3 * sizeof *mo);
	*mass = ml->mass = lm.mass;
	*frame = lm.frame;
	return 0;
}

/*
 * MuJoCo's compiler marks a body whose inertial frame is its own
 * (sameframe) and, from that, "simple" bodies whose share of the mass
 * matrix it factors in a shortcut: a body whose inertial frame moves off
 * its own loses both.
 */
static void
set_body_mass(mjModel *m, int b, double mass, const double mo[3],
    phys_pose frame)
{
	bool same = frame.p.x == 0 && frame.p.y == 0 && frame.p.z == 0 &&
	    frame.q.w == 1 && frame.q.x == 0 && frame.q.y == 0 &&
	    frame.q.z == 0;
	int i, n = 0;

	m->body_mass[b] = mass;
	m->body_inertia[3 * b] = mo[0];
	m->body_inertia[3 * b + 1] = mo[1];
	m->body_inertia[3 * b + 2] = mo[2];
	to_mj(frame.p, m->body_ipos + 3 * b);
	to_mjquat(frame.q, m->body_iquat + 4 * b);
	m->body_sameframe[b] = same;
	if (same || !m->body_simple[b])
		return;
	m->body_simple[b] = 0;
	for (i = m->nv - 1; i >= 0; i--)
		m->dof_simplenum[i] = m->body_simple[m->dof_bodyid[i]] ? ++n :
		    (n = 0);
}

/* A link's mass properties into its body, and into the ghosts of the
 * loop joints it closes (a small share of them). */
static int
apply_mass(struct mujoco_engine *e, int li, bool at_load)
{
	const struct phys_scene *w = e->w;
	double mass, mo[3], g[3];
	phys_pose frame;
	size_t i;
	int k;

	if (link_inertia(e, li, at_load, &mass, mo, &frame) < 0)
		return -1;
	/* a frame between two joints of one MJCF body weighs nothing, as
	 * in MuJoCo (a joint that moves it moves the body too) */
	if (w->links[li].between_joints)
		mass = mo[0] = mo[1] = mo[2] = 0;
	if (e->links[li].body > 0)
		set_body_mass(e->m, e->links[li].body, mass, mo, frame);
	for (i = 0; i < w->njoints; i++) {
		if (e->joints[i].role != ROLE_LOOP || w->joints[i].child != li)
			continue;
		for (k = 0; k < 3; k++)
			g[k] = GHOST_SHARE * mo[k];
		set_body_mass(e->m, e->joints[i].ghost, GHOST_SHARE * mass, g,
		    frame);
	}
	return 0;
}

/*
 * A loop joint's limits and friction act on its ghost's joints, whose
 * softness MuJoCo scales by what moves them alone (dof_invweight0): the
 * ghost, a thousandth of the child it carries through its weld. Taken
 * as they were, a limit let the child through by 0.12 rad at 1 rad/s and
 * Coulomb friction slowed it as a damper: they are given the weight of
 * the child on the joint's own axes, which the ghost is a share of.
 */
static void
ghost_weights(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	size_t i;
	int k, jid, n, dof;

	for (i = 0; i < e->w->njoints; i++) {
		const struct mjoint *mj = &e->joints[i];

		if (mj->role != ROLE_LOOP)
			continue;
		for (k = 0; k < 2; k++) {
			if ((jid = mj->jnt[k]) < 0)
				continue;
			n = m->jnt_type[jid] == mjJNT_BALL ? 3 : 1;
			for (dof = m->jnt_dofadr[jid]; n-- > 0; dof++)
				m->dof_invweight0[dof] *= GHOST_SHARE;
		}
	}
}

/*
 * MuJoCo's constants that follow from the masses (invweight0, used to
 * scale constraint softness, and the subtree masses) at the loaded
 * configuration; it computes them in the data, whose state is kept.
 */
static void
set_constants(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	mjData *d = e->d;
	mjtNum *keep = phys_xmalloc(((size_t)m->nq + (size_t)m->nv + 1) *
	    sizeof *keep);

	memcpy(keep, d->qpos, (size_t)m->nq * sizeof *keep);
	memcpy(keep + m->nq, d->qvel, (size_t)m->nv * sizeof *keep);
	mj_setConst(m, d);
	memcpy(d->qpos, keep, (size_t)m->nq * sizeof *keep);
	memcpy(d->qvel, keep + m->nq, (size_t)m->nv * sizeof *keep);
	free(keep);
	ghost_weights(e);
}

static void
set_polycoef(mjModel *m, int eq, double c0, double c1)
{
	if (eq < 0)
		return;
	m->eq_data[mjNEQDATA * eq] = c0;
	m->eq_data[mjNEQDATA * eq + 1] = c1;
}

/*
 * A mimic: follower = sum m_i leader_i + base, each reported = sign q +
 * offset at the model's zero, is the tendon q_f - sum sign_f sign_i m_i
 * q_i held at sign_f (base + sum m_i off_i - off_f), lengths from qpos0
 * as MuJoCo measures them.
 */
static void
apply_mimic(struct mujoco_engine *e, int ji)
{
	const struct phys_mimic *mi = &e->w->joints[ji].mimic;
	mjModel *m = e->m;
	char name[48];
	double sf = e->joints[ji].sign, c0, a;
	int t, adr, i, li;

	snprintf(name, sizeof name, "mimic%d", ji);
	if ((a = phys_mjcf_mimic_tendon_coef(&e->w->joints[ji])) == 0) {
		/* q_f - q_f0 = c0 + c1 (q_l - q_l0) */
		li = mi->lead[0].joint;
		c0 = phys_mimic_base(mi) - e->joints[ji].offset[0] +
		    mi->lead[0].multiplier * e->joints[li].offset[0];
		set_polycoef(m, mj_name2id(m, mjOBJ_EQUALITY, name), sf * c0,
		    sf * e->joints[li].sign * mi->lead[0].multiplier);
		return;
	}
	if ((t = mj_name2id(m, mjOBJ_TENDON, name)) < 0)
		return;
	adr = m->tendon_adr[t];
	m->wrap_prm[adr] = a;
	c0 = phys_mimic_base(mi) - e->joints[ji].offset[0];
	for (i = 0; i < mi->nleaders; i++) {
		li = mi->lead[i].joint;
		m->wrap_prm[adr + i + 1] = -a * sf * e->joints[li].sign *
		    mi->lead[i].multiplier;
		c0 += mi->lead[i].multiplier * e->joints[li].offset[0];
	}
	/* its length at qpos0 with these coefficients (MuJoCo's constants
	 * may have been set before them) */
	m->tendon_length0[t] = 0;
	for (i = 0; i < m->tendon_num[t]; i++)
		m->tendon_length0[t] += m->wrap_prm[adr + i] *
		    m->qpos0[m->jnt_qposadr[m->wrap_objid[adr + i]]];
	set_polycoef(m, mj_name2id(m, mjOBJ_EQUALITY, name), a * sf * c0, 0);
}

/* The couplings of joint ji (screw, gearbox, mimic) from its values. */
static void
apply_couplings(struct mujoco_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	mjModel *m = e->m;
	const double *off = e->joints[ji].offset;
	int gear[2];
	double coef[2], ratio, lead;
	char name[48];


	if (j->type == PHYS_JOINT_SCREW) {
		/* travel = lead turn, both from the loaded configuration */
		lead = phys_joint_screw_lead(vals(e, PHYS_S_JOINT, ji));
		snprintf(name, sizeof name, "s%d", ji);
		set_polycoef(m, mj_name2id(m, mjOBJ_EQUALITY, name),
		    e->joints[ji].sign * (lead * off[0] - off[1]), lead);
	}
	if (e->joints[ji].role == ROLE_GEAR && gear_joints(e, ji, gear,
	    coef) == 0) {
		ratio = PVD(vals(e, PHYS_S_JOINT, ji), JOINT_gearbox_ratio);
		snprintf(name, sizeof name, "q%d", ji);
		/* turn_k = coef_k (sign_k q_k + offset_k), turn_1 = -ratio
		 * turn_0 */
		set_polycoef(m, mj_name2id(m, mjOBJ_EQUALITY, name),
		    e->joints[gear[1]].sign * (-ratio * coef[0] * coef[1] *
		    e->joints[gear[0]].offset[0] - e->joints[gear[1]].offset[0]),
		    -ratio * coef[0] * coef[1] * e->joints[gear[0]].sign *
		    e->joints[gear[1]].sign);
	}
	if (j->mimic.nleaders)
		apply_mimic(e, ji);
}

/*
 * Each fixed limited tendon in MuJoCo's sense of its joints: phys's
 * position is sign qpos + offset (apply_joint_values), so a coefficient
 * c of phys's is c sign of MuJoCo's, and its range is phys's less the
 * sum of c offset.
 */
static void
apply_tendons(struct mujoco_engine *e)
{
	const struct phys_tendon *t;
	mjModel *m = e->m;
	double shift;
	char name[32];
	size_t i;
	int k, tid, j;

	for (i = 0; i < e->w->ntendons; i++) {
		t = &e->w->tendons[i];
		snprintf(name, sizeof name, "t%zu", i);
		if (!t->njoints || (tid = mj_name2id(m, mjOBJ_TENDON,
		    name)) < 0)
			continue;
		for (shift = 0, k = 0; k < t->njoints; k++) {
			j = t->joints[k];
			m->wrap_prm[m->tendon_adr[tid] + k] = t->coef[k] *
			    e->joints[j].sign;
			shift += t->coef[k] * e->joints[j].offset[0];
		}
		m->tendon_range[2 * tid] = t->range[0] - shift;
		m->tendon_range[2 * tid + 1] = t->range[1] - shift;
	}
}

/* How softly MuJoCo joint jid's limits hold, and from how far inside its
 * range they act: the phys joint's MuJoCo block (an MJCF joint's
 * solreflimit, solimplimit and margin). */
static void
limit_softness(mjModel *m, int jid, const struct phys_value *v)
{
	struct phys_mjcf_softness s;

	phys_mjcf_softness(v, PHYS_MJCF_LIMIT, &s);
	memcpy(&m->jnt_solref[mjNREF * jid], s.solref, sizeof s.solref);
	memcpy(&m->jnt_solimp[mjNIMP * jid], s.solimp, sizeof s.solimp);
	m->jnt_margin[jid] = PVD(v, JOINT_physics_mujoco_limit_margin);
}

/* The turn from where the model places link li on link up (-1: the
 * world), its ball's qpos0, to where it was loaded on it. */
static phys_quat
loaded_turn(const struct mujoco_engine *e, int li, int up)
{
	phys_quat now = e->links[li].at.q, load = e->w->links[li].pose.q;

	if (up >= 0) {
		now = phys_quat_mul(phys_quat_conj(e->links[up].at.q), now);
		load = phys_quat_mul(phys_quat_conj(e->w->links[up].pose.q),
		    load);
	}
	return phys_quat_mul(phys_quat_conj(now), load);
}

/*
 * A ball's damping, Coulomb friction and armature on each of its three
 * turns, its spring pulling it to where it was loaded, its range the
 * largest turn from the model's zero (qpos0): where the model was made
 * again elsewhere (rebuild), the range is about there, which is said.
 */
static void
apply_ball_values(struct mujoco_engine *e, int ji)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	const struct phys_joint *j = &e->w->joints[ji];
	struct mjoint *mj = &e->joints[ji];
	struct phys_axis_values a = phys_joint_axis_values(v, 0);
	mjModel *m = e->m;
	int jid = mj->jnt[0], dof = m->jnt_dofadr[jid], k, li, up;
	int q = m->jnt_qposadr[jid];
	phys_quat t;

	for (k = 0; k < 3; k++) {
		m->dof_damping[dof + k] = mj->role == ROLE_LOOP ? 0 :
		    a.damping;
		m->dof_frictionloss[dof + k] = a.friction;
		m->dof_armature[dof + k] = PVD(v,
		    JOINT_physics_mujoco_armature);
	}
	m->jnt_stiffness[jid] = mj->role == ROLE_LOOP ? 0 : a.stiffness;
	li = mj->role == ROLE_LOOP ? j->child : e->body_link[mj->body];
	up = mj->role == ROLE_LOOP ? j->parent : e->links[li].up;
	t = phys_quat_normalize(loaded_turn(e, li, up));
	m->qpos_spring[q] = t.w, m->qpos_spring[q + 1] = t.x;
	m->qpos_spring[q + 2] = t.y, m->qpos_spring[q + 3] = t.z;
	m->jnt_limited[jid] = phys_has_upper(a.upper);
	m->jnt_range[2 * jid] = 0;
	m->jnt_range[2 * jid + 1] = a.upper;
	limit_softness(m, jid, v);
	/* MuJoCo turns a ball in its body's (the child link's) axes, where
	 * the other engines hold its friction on the joint frame's */
	t = phys_quat_mul(phys_quat_conj(e->w->links[j->child].pose.q),
	    j->pose.q);
	if (a.friction > 0 && fabs(t.w) < 1 - 1e-12)
		phys_warnat_once(PHYS_AT(j->doc, j->node), "ball joint '%s': "
		    "MuJoCo holds its friction on each of its child link's "
		    "axes, which its frame turns from by %.3g rad (ODE, "
		    "Bullet, DART and Simbody on the joint frame's)", j->name,
		    2 * acos(fmin(1, fabs(t.w))));
	t = phys_quat_normalize(loaded_turn(e, li, up));
	if (m->jnt_limited[jid] && fabs(t.w) < 1 - 1e-12 && !mj->ball_said) {
		mj->ball_said = true;
		phys_warn("ball joint '%s': its range is held about where the "
		    "MuJoCo model was made again, %.3g rad from where it was "
		    "loaded", j->name, 2 * acos(fmin(1, fabs(t.w))));
	}
}

/* Limits, damping, Coulomb friction, springs and armature of joint ji's
 * hinges and slides, in MuJoCo's sense of each (reversed: negated), or
 * its ball's. */
static int
apply_joint_values(struct mujoco_engine *e, int ji)
{

	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	struct mjoint *mj = &e->joints[ji];
	mjModel *m = e->m;
	struct phys_axis_values a;
	int k, jid, dof;
	double s = mj->sign, lo, hi;

	if (mj->jnt[0] >= 0 && m->jnt_type[mj->jnt[0]] == mjJNT_BALL) {
		apply_ball_values(e, ji);
		return 0;
	}
	for (k = 0; k < 2; k++) {
		jid = mj->jnt[k];
		if (jid < 0)
			continue;
		a = phys_joint_axis_values(v, k);
		dof = m->jnt_dofadr[jid];
		/* MuJoCo's q = sign (reported - offset) */
		lo = a.lower - mj->offset[k];
		hi = a.upper - mj->offset[k];
		m->jnt_limited[jid] = phys_axis_limited(&a);
		m->jnt_range[2 * jid] = s > 0 ? lo : -hi;
		m->jnt_range[2 * jid + 1] = s > 0 ? hi : -lo;
		/* a loop's spring and damper are forces (loop_forces) */
		m->dof_damping[dof] = mj->role == ROLE_LOOP ? 0 : a.damping;
		m->dof_frictionloss[dof] = a.friction;
		m->jnt_stiffness[jid] = mj->role == ROLE_LOOP ? 0 :
		    a.stiffness;
		m->qpos_spring[m->jnt_qposadr[jid]] = s * (a.reference -
		    mj->offset[k]);
		m->dof_armature[dof] = PVD(v, JOINT_physics_mujoco_armature);
		limit_softness(m, jid, v);
	}
	apply_couplings(e, ji);
	return 0;
}

static void
set_softness(mjModel *m, int eq, const double ref[2], const double imp[5])
{
	int k;

	for (k = 0; k < 2; k++)
		m->eq_solref[mjNREF * eq + k] = ref[k];
	for (k = 0; k < 5; k++)
		m->eq_solimp[mjNIMP * eq + k] = imp[k];
}

/* Loops' welds and the couplings (screws, gearboxes, mimics) stand for
 * joints, which hold (phys_mjcf_hold); a mimic, equality mimic<i>
 * (put_equalities), as softly as an MJCF equality's softness it comes
 * with says (phys_mjcf_equality). */
static void
soften_equalities(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	double ref[2], imp[5];
	char name[48];
	size_t i;
	int eq;

	phys_mjcf_hold(e->step, ref, imp);
	for (eq = 0; eq < m->neq; eq++)
		set_softness(m, eq, ref, imp);
	for (i = 0; i < e->w->njoints; i++) {
		snprintf(name, sizeof name, "mimic%zu", i);
		if (!e->w->joints[i].mimic.nleaders ||
		    (eq = mj_name2id(m, mjOBJ_EQUALITY, name)) < 0)
			continue;
		phys_mjcf_equality(vals(e, PHYS_S_JOINT, (int)i), e->step, ref,
		    imp);
		set_softness(m, eq, ref, imp);
	}
	/* a tie as softly as an MJCF connect or weld it was read from */
	for (i = 0; i < e->w->njoints; i++) {
		if ((eq = e->joints[i].eq) < 0)
			continue;
		phys_mjcf_equality(vals(e, PHYS_S_JOINT, (int)i), e->step, ref,
		    imp);
		set_softness(m, eq, ref, imp);
	}
}

static int
integrator(const char *s)
{
	if (strcmp(s, "RK4") == 0)
		return mjINT_RK4;
	if (strcmp(s, "implicit") == 0)
		return mjINT_IMPLICIT;
	return mjINT_EULER;
}

static int
solver(const char *s)
{
	if (strcmp(s, "PGS") == 0)
		return mjSOL_PGS;
	if (strcmp(s, "CG") == 0)
		return mjSOL_CG;
	return mjSOL_NEWTON;
}

/* ---- contacts ---- */

/* Gazebo's rules (phys_collisions_may_touch), and no link with itself,
 * none with a link a joint joins it to. */
static bool
pair_excluded(const struct mujoco_engine *e, int c1, int c2)
{
	const struct phys_scene *w = e->w;
	int l1 = w->collisions[c1].link, l2 = w->collisions[c2].link;

	if (l1 == l2 || !phys_collisions_may_touch(w, e->v, c1, c2))
		return true;
	return phys_key_listed(e->connected, e->nconnected,
	    phys_pair_key(l1, l2, (int64_t)w->nlinks));
}

/* Whether geoms g1 and g2 of e's model may not touch. */
static bool
geoms_excluded(const struct mujoco_engine *e, int g1, int g2)
{
	const mjModel *m = e->m;
	int c1 = e->geom_collision[g1], c2 = e->geom_collision[g2];

	if (c1 < 0 || c2 < 0)
		return true;
	if (m->body_weldid[m->geom_bodyid[g1]] == 0 &&
	    m->body_weldid[m->geom_bodyid[g2]] == 0)
		return true;	/* neither can move */
	return pair_excluded(e, c1, c2);
}

/* Whether m is the model of the engine whose MuJoCo calls are running:
 * phys's collision functions act for phys's models only. */
static bool
model_running(const mjModel *m)
{
	return running && running->m == m;
}

/* MuJoCo asks before the narrow phase: 1 discards the pair. The answer
 * is kept (filtered) where there is room. */
static int
contact_filter(const mjModel *m, mjData *d, int g1, int g2)
{
	struct mujoco_engine *e = running;
	unsigned char *known;

	(void)d;
	if (!e || e->m != m)
		return 0;
	if (!e->filtered)
		return geoms_excluded(e, g1, g2);
	if (e->filtered_at != e->v->changes) {
		memset(e->filtered, 0, (size_t)m->ngeom * (size_t)m->ngeom);
		e->filtered_at = e->v->changes;
	}
	known = &e->filtered[(size_t)g1 * (size_t)m->ngeom + (size_t)g2];
	if (!*known)
		*known = geoms_excluded(e, g1, g2) ? 2 : 1;
	return *known == 2;
}

/* The restitution e a spring-damper contact of damping ratio z has,
 * leaving when its force vanishes (before the spring is relaxed). */
static double
restitution_of(double z)
{
	double s = sqrt(1 - z * z), a = atan2(2 * z * s, 1 - 2 * z * z);

	return exp(-z / s * (M_PI - a));
}

/* The damping ratio of restitution e (0 < e < 1), by bisection. */
static double
damping_for(double e)
{
	double lo = 0, hi = 1 / sqrt(2.0), mid;
	int i;

	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (restitution_of(mid) > e)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* What a pair of surfaces makes of a contact's softness. */
struct softness {
	double solref[2], solimp[5];
	bool direct;	/* solref as -stiffness, -damping */
	double stiff;	/* how much stiffer the spring was than a step
			 * follows (0: as given) */
	int given;	/* the collision that gives it */
};


/*
 * The contact's solref and solimp: the surfaces' MuJoCo values mixed as
 * MuJoCo mixes two geoms' (mix_weight), unless neither gives a solref and
 * one gives kp or kd: then a spring kp and a damper kd on the pair's
 * effective mass (springs in series, dampers in parallel, as under ODE),
 * which is MuJoCo's direct form. Its damping is kd + h kp, as ODE's step
 * (implicit in the spring) damps it: with kd alone Go1's feet (kp 1e6
 * N/m, kd 1 N s/m) bounced back as fast as they landed. A spring stiffer
 * than a step can follow (per unit mass above 1 / (2h)^2: MuJoCo's
 * shortest safe time constant, 2h) takes that response, critically
 * damped, instead; set_contact says so once. At 1 / h^2, the limit before,
 * Go1 dropped on the ground diverged.
 */
/* a's weight in the mix of two surfaces' solref and solimp, as MuJoCo
 * weighs two geoms': all of the higher priority's (MJCF geoms'), else by
 * solmix (the mean, as they are 1 unless given), half each when both are
 * 0. */
static double
mix_weight(const struct phys_value *a, const struct phys_value *b)
{
	double sa = PVD(a, COLLISION_surface_contact_mujoco_solmix);
	double sb = PVD(b, COLLISION_surface_contact_mujoco_solmix);
	int first = phys_contact_priority(a, b);

	if (first)
		return first > 0 ? 1 : 0;
	if (sa < mjMINVAL && sb < mjMINVAL)
		return 0.5;
	return sa < mjMINVAL ? 0 : sb < mjMINVAL ? 1 : sa / (sa + sb);
}

/*
 * Two surfaces' solref as MuJoCo mixes two geoms': the higher priority's
 * (w 1 or 0); else weighed by w where both are time constants, and where
 * either is MuJoCo's direct form (0 or less), the lesser of each number:
 * the stiffer spring, the stronger damper.
 */
static void
mix_solref(const struct phys_mjcf_softness *x,
    const struct phys_mjcf_softness *y, bool priority, double w,
    double out[2])
{
	int i;

	for (i = 0; i < 2; i++)
		if (priority || (x->solref[0] > 0 && y->solref[0] > 0))
			out[i] = w * x->solref[i] + (1 - w) * y->solref[i];
		else
			out[i] = fmin(x->solref[i], y->solref[i]);
}

static struct softness
contact_softness(const struct mujoco_engine *e, const struct phys_value *a,
    const struct phys_value *b, const struct phys_contact_surface *cs,
    double invmass, const int ci[2])
{
	struct phys_mjcf_softness sa, sb;
	struct softness out;
	double kp, kd, h = e->step, w = mix_weight(a, b);
	int i;

	phys_mjcf_softness(a, PHYS_MJCF_CONTACT, &sa);
	phys_mjcf_softness(b, PHYS_MJCF_CONTACT, &sb);
	for (i = 0; i < 5; i++)
		out.solimp[i] = w * sa.solimp[i] + (1 - w) * sb.solimp[i];
	out.stiff = 0;
	out.direct = !sa.ref_given && !sb.ref_given && cs->kp_kd_given;
	if (!out.direct) {
		mix_solref(&sa, &sb, phys_contact_priority(a, b), w,
		    out.solref);
		out.direct = out.solref[0] <= 0;
		return out;
	}
	kp = cs->kp * invmass;
	kd = (cs->kd + h * cs->kp) * invmass;
	if (kp > 1 / (4 * h * h) || kd > 1 / h) {
		out.stiff = fmax(kp * 4 * h * h, kd * h);
		out.given = PV(a, COLLISION_surface_contact_ode_kp)->given ||
		    PV(a, COLLISION_surface_contact_ode_kd)->given ? ci[0] : ci[1];
		out.direct = false;
		out.solref[0] = 2 * h;
		out.solref[1] = 1;
		return out;
	}
	out.solref[0] = -kp;
	out.solref[1] = -kd;
	return out;
}

/*
 * MuJoCo has no coefficient of restitution: a contact bounces as its
 * spring-damper does. A bouncing contact gets the damping ratio that
 * returns the share e of the approach speed, and a time constant long
 * enough for the step to follow the impact (the spring turns at most
 * BOUNCE_TURN radians a step); in the direct form, the damping that
 * gives that ratio with the contact's stiffness.
 */
static void
bounce(struct softness *s, double restitution, double h)
{
	double z = damping_for(restitution);

	if (s->direct) {
		s->solref[1] = -2 * z * sqrt(-s->solref[0]);
		return;
	}
	s->solref[0] = fmax(s->solref[0], h / (BOUNCE_TURN * z));
	s->solref[1] = z;
}

/* Torsional friction as MuJoCo's spin coefficient (a length): the
 * torsional coefficient times the contact patch's radius. */
static double
spin_friction(const struct phys_value *a, const struct phys_value *b,
    double depth)
{
	double mu = fmin(PVD(a, COLLISION_surface_friction_torsional_coefficient),
	    PVD(b, COLLISION_surface_friction_torsional_coefficient));
	bool patch = PVB(a, COLLISION_surface_friction_torsional_use_patch_radius) &&
	    PVB(b, COLLISION_surface_friction_torsional_use_patch_radius);
	double r;

	if (patch)
		r = fmax(PVD(a, COLLISION_surface_friction_torsional_patch_radius),
		    PVD(b, COLLISION_surface_friction_torsional_patch_radius));
	else
		r = sqrt(fmin(PVD(a, COLLISION_surface_friction_torsional_surface_radius),
		    PVD(b, COLLISION_surface_friction_torsional_surface_radius)) *
		    fmax(depth, 0));
	return mu * r;
}

/* fdir1 of a collision, in the world, when it gives one. */
static phys_vec3
world_fdir(const struct mujoco_engine *e, int ci)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	phys_vec3 d = PVV(vals(e, PHYS_S_COLLISION, ci),
	    COLLISION_surface_friction_ode_fdir1);
	phys_pose link;

	if (v3_norm(d) == 0)
		return d;
	mujoco_engine_link_pose(e, c->link, &link);
	return v3_normalize(phys_quat_rotate(phys_pose_mul(link, c->pose).q, d));
}

/* The smallest friction coefficient MuJoCo's cones take along a used
 * direction. */
#define MIN_MU 1e-5

/* The pair's effective inverse mass along the normal, as MuJoCo weighs
 * bodies (translational invweight0). */
static double
pair_invmass(const mjModel *m, const mjContact *con)
{
	return m->body_invweight0[2 * m->geom_bodyid[con->geom1]] +
	    m->body_invweight0[2 * m->geom_bodyid[con->geom2]];
}

/*
 * What the contacts of one pair of collisions share in a step: their
 * surfaces' values, the spring they make (its bounce aside), the
 * rolling coefficient and the direction fdir1 gives (zero: none).
 * Reckoned once for the pair's contacts, which differ only in point,
 * normal and depth.
 */
struct contact_pair {
	const struct phys_value *a, *b;
	struct phys_contact_surface cs;
	struct softness soft;
	double roll;
	double includemargin;	/* the pair's margin less its gap */
	phys_vec3 fdir;
};

static void
pair_of(const struct mujoco_engine *e, const mjContact *con, int c1, int c2,
    struct contact_pair *p)
{
	phys_contact_surfaces(e->w, e->v, c1, c2, &p->a, &p->b);
	phys_contact_surface(p->a, p->b, &p->cs);
	p->soft = contact_softness(e, p->a, p->b, &p->cs,
	    pair_invmass(e->m, con), (const int[2]){ c1, c2 });
	/* MuJoCo's own parameter, by MuJoCo's rule: the larger (a ball
	 * that rolls gives it; the ground need not) */
	p->roll = fmax(PVD(p->a, COLLISION_surface_friction_mujoco_rolling),
	    PVD(p->b, COLLISION_surface_friction_mujoco_rolling));
	/* the larger margin and gap, as MuJoCo takes two geoms' (a pair's
	 * surface is both) */
	p->includemargin =
	    fmax(PVD(p->a, COLLISION_surface_contact_mujoco_margin),
	    PVD(p->b, COLLISION_surface_contact_mujoco_margin)) -
	    fmax(PVD(p->a, COLLISION_surface_contact_mujoco_gap),
	    PVD(p->b, COLLISION_surface_contact_mujoco_gap));
}

/* The pair's first friction direction where its links are now: the
 * first surface's, else the second's. */
static void
pair_fdir(const struct mujoco_engine *e, int c1, int c2,
    struct contact_pair *p)
{
	p->fdir = world_fdir(e, c1);
	if (v3_norm(p->fdir) == 0)
		p->fdir = world_fdir(e, c2);
}

static void
set_friction(mjContact *con, const struct contact_pair *p)
{
	double mu = p->cs.mu, mu2 = p->cs.mu2;
	double spin = spin_friction(p->a, p->b, -con->dist);
	double roll = p->roll;
	phys_vec3 n = from_mj(con->frame), d;

	if (mu <= 0 && mu2 <= 0 && spin <= 0 && roll <= 0) {
		con->dim = 1;
		return;
	}
	con->dim = roll > 0 ? 6 : spin > 0 ? 4 : 3;
	con->friction[0] = fmax(mu, MIN_MU);
	con->friction[1] = fmax(mu2, MIN_MU);
	con->friction[2] = fmax(spin, MIN_MU);
	con->friction[3] = con->friction[4] = fmax(roll, MIN_MU);
	d = v3_sub(p->fdir, v3_scale(n, v3_dot(p->fdir, n)));
	if (v3_norm(d) > 1e-9) {
		d = v3_normalize(d);
		to_mj(d, con->frame + 3);
		to_mj(v3_cross(n, d), con->frame + 6);
	}
}

static void
keep_bouncing(struct mujoco_engine *e, int64_t key)
{
	if (e->nbouncing == e->cap_bouncing) {
		e->cap_bouncing = e->cap_bouncing ? 2 * e->cap_bouncing : 16;
		e->bouncing = phys_xrealloc(e->bouncing, e->cap_bouncing *
		    sizeof *e->bouncing);
	}
	e->bouncing[e->nbouncing++] = key;
}

/*
 * Whether the pair's contact bounces: decided when the pair first
 * touches (the approach faster than the smaller threshold, the larger
 * coefficient above 0) and kept until it parts, for the spring to give
 * back what it took.
 */
static double
restitution(struct mujoco_engine *e, const mjContact *con,
    const struct phys_contact_surface *cs, int64_t key)
{
	double rc = cs->bounce;
	const mjModel *m = e->m;
	phys_vec3 p = from_mj(con->pos), n = from_mj(con->frame);
	double approach;

	if (!(rc > 0) || rc >= 1)
		return rc >= 1 ? 1 - 1e-6 : 0;
	if (!phys_key_listed(e->was_bouncing, e->nwas, key)) {
		approach = v3_dot(v3_sub(point_vel(e, m->geom_bodyid[con->geom1], p),
		    point_vel(e, m->geom_bodyid[con->geom2], p)), n);
		if (!(approach > cs->bounce_vel))
			return 0;
	}
	keep_bouncing(e, key);
	return rc;
}

static void
set_contact(struct mujoco_engine *e, mjContact *con,
    const struct contact_pair *p, int64_t key, bool first_pass)
{
	struct softness s = p->soft;
	double rc;

	rc = first_pass ? restitution(e, con, &p->cs, key) :
	    phys_key_listed(e->bouncing, e->nbouncing, key) ? p->cs.bounce : 0;
	set_friction(con, p);
	if (s.stiff > 0 && !e->said_stiff) {
		const struct phys_collision *c = &e->w->collisions[s.given];

		phys_warnat(PHYS_AT(c->doc, c->node),
		    "collision '%s': kp %g N/m and kd %g N s/m (the pair's) "
		    "make a spring %.3g times stiffer than a MuJoCo step of "
		    "%g s follows: such contacts take MuJoCo's shortest safe "
		    "response instead, a time constant of 2h = %g s, "
		    "critically damped", c->name, p->cs.kp, p->cs.kd, s.stiff,
		    e->step, 2 * e->step);
		e->said_stiff = true;
	}
	if (rc > 0)
		bounce(&s, fmin(rc, 1 - 1e-6), e->step);
	memcpy(con->solref, s.solref, sizeof s.solref);
	memcpy(con->solimp, s.solimp, sizeof s.solimp);
	con->includemargin = p->includemargin;
}

/* A step done: its bouncing pairs become the ones the next step keeps. */
static void
swap_bouncing(struct mujoco_engine *e)
{
	int64_t *t = e->was_bouncing;
	size_t cap = e->cap_was;

	e->was_bouncing = e->bouncing;
	e->cap_was = e->cap_bouncing;
	e->nwas = e->nbouncing;
	e->bouncing = t;
	e->cap_bouncing = cap;
	e->nbouncing = 0;
}

static int
by_depth(const void *x, const void *y)
{
	const mjContact *a = x, *b = y;

	return a->dist < b->dist ? -1 : a->dist > b->dist;
}

/*
 * The n contacts of one geom pair at con that lie within the margin its
 * surfaces give (the larger), moved to the front: how many. A
 * pair's wider margin widens its geoms' (apply_margins), which finds
 * their other contacts farther out than MuJoCo finds them.
 */
static int
within_margin(mjContact *con, int n, double margin)
{
	int k, found = 0;

	for (k = 0; k < n; k++) {
		if (!(con[k].dist <= margin))
			continue;
		if (found != k)		/* 500 bytes each */
			con[found] = con[k];
		found++;
	}
	return found;
}

/*
 * What edit_contacts takes for a geom pair, from its two surfaces: the
 * same every step until the run's values change, so kept (reckoning them
 * afresh was a third of phys's share of a legged robot's step).
 */
struct pair_memo {
	int64_t key;		/* geom1 * ngeom + geom2; -1: an empty slot */
	int limit;		/* contacts kept, the deepest */
	double margin;		/* the larger of the surfaces' */
	bool without_force, counted;
	bool fdir_turns;	/* a surface gives fdir1, turning with it */
	struct contact_pair pair;	/* its fdir where it does not turn */
};

static size_t
memo_slot(const struct mujoco_engine *e, int64_t key)
{
	size_t i = (size_t)((uint64_t)key * 0x9e3779b97f4a7c15u >> 20);

	for (i &= e->memo_cap - 1; e->memo[i].key >= 0 &&
	    e->memo[i].key != key; i = (i + 1) & (e->memo_cap - 1))
		continue;
	return i;
}

/* An empty table of cap slots, the old one's entries moved in. */
static void
memo_grow(struct mujoco_engine *e, size_t cap)
{
	struct pair_memo *old = e->memo;
	size_t i, n = e->memo_cap;

	e->memo = phys_xcalloc(cap, sizeof *e->memo);
	e->memo_cap = cap;
	for (i = 0; i < cap; i++)
		e->memo[i].key = -1;
	for (i = 0; i < n; i++)
		if (old[i].key >= 0)
			e->memo[memo_slot(e, old[i].key)] = old[i];
	free(old);
}

/* The values of the pair of the contacts at con (their collisions c1,
 * c2), reckoned when not kept. */
static const struct pair_memo *
pair_memo(struct mujoco_engine *e, const mjContact *con, int c1, int c2)
{
	int64_t key = (int64_t)con->geom1 * e->m->ngeom + con->geom2;
	const struct phys_value *a, *b;
	struct pair_memo *pm;
	size_t i;

	if (!e->memo)
		memo_grow(e, 64);
	if (e->memo_at != e->v->changes) {
		for (i = 0; i < e->memo_cap; i++)
			e->memo[i].key = -1;
		e->nmemo = 0;
		e->memo_at = e->v->changes;
	}
	if (e->memo[i = memo_slot(e, key)].key == key)
		return &e->memo[i];
	if (2 * (e->nmemo + 1) > e->memo_cap) {
		memo_grow(e, 2 * e->memo_cap);
		i = memo_slot(e, key);
	}
	e->nmemo++;
	pm = &e->memo[i];
	phys_contact_surfaces(e->w, e->v, c1, c2, &a, &b);
	pm->key = key;
	pm->limit = (int)fmin(fmin(PVI(a, COLLISION_max_contacts),
	    PVI(b, COLLISION_max_contacts)),
	    PVI(vals(e, PHYS_S_PHYSICS, 0), PHYSICS_max_contacts));
	pm->margin = fmax(PVD(a, COLLISION_surface_contact_mujoco_margin),
	    PVD(b, COLLISION_surface_contact_mujoco_margin));
	pm->without_force = phys_contact_without_force(a, b);
	pm->counted = !pm->without_force ||
	    phys_contact_without_force_reported(a, b);
	pair_of(e, con, c1, c2, &pm->pair);
	pair_fdir(e, c1, c2, &pm->pair);
	pm->fdir_turns = v3_norm(pm->pair.fdir) > 0;
	return pm;
}

/*
 * This step's contacts, between MuJoCo's collision detection and its
 * constraints: each pair's kept to its limit (the deepest), counted, left
 * out when it collides without contact, given its surfaces' values. On
 * the first pass of a step the contact count and the pairs that bounce
 * are taken; later passes (RK4's stages) keep them; swap_bouncing hands
 * them to the next step once this one is done.
 */
static void
edit_contacts(struct mujoco_engine *e, bool first_pass)
{
	mjData *d = e->d;
	int n = d->ncon, i = 0, out = 0, j, c1, c2, kept, found;
	const struct pair_memo *pm;
	struct contact_pair pair;

	if (first_pass) {
		e->ncontacts = 0;
		e->nbouncing = 0;
	}
	while (i < n) {
		mjContact *con = &d->contact[i];

		for (j = i + 1; j < n && d->contact[j].geom1 == con->geom1 &&
		    d->contact[j].geom2 == con->geom2; j++)
			continue;
		c1 = e->geom_collision[con->geom1];
		c2 = e->geom_collision[con->geom2];
		pm = pair_memo(e, con, c1, c2);
		found = within_margin(con, j - i, pm->margin);
		kept = found < pm->limit ? found : pm->limit;
		if (kept < found)
			qsort(con, (size_t)found, sizeof *con, by_depth);
		if (first_pass && pm->counted)
			e->ncontacts += kept;
		if (!pm->without_force) {
			pair = pm->pair;
			if (pm->fdir_turns)
				pair_fdir(e, c1, c2, &pair);
			for (; kept > 0; kept--, i++) {
				if (out != i)	/* 500 bytes each */
					d->contact[out] = d->contact[i];
				set_contact(e, &d->contact[out++], &pair,
				    pm->key, first_pass);
			}
		}
		i = j;
	}
	d->ncon = out;
	if (first_pass && e->nbouncing)
		phys_keys_sort(e->bouncing, e->nbouncing);
}

/* ---- stepping ---- */

/* Body b's motion at world point p when it is a mocap body (its link's
 * velocities, held): false for any other body. */
static bool
mocap_motion(const struct mujoco_engine *e, int b, const mjtNum *p,
    phys_vec3 *v, phys_vec3 *w)
{
	int k = e->m->body_mocapid[b];
	const struct mlink *ml;

	if (k < 0 || e->body_link[b] < 0)
		return false;
	ml = &e->links[e->body_link[b]];
	*w = ml->ang;
	*v = v3_add(ml->lin, v3_cross(ml->ang, v3_sub(from_mj(p),
	    from_mj(e->d->xpos + 3 * b))));
	return true;
}

/*
 * MuJoCo holds a mocap body still in its contacts: a moving one pushes by
 * its penetration alone and carries nothing that rests on it. A kinematic
 * link's velocity is its contacts' too, as under the other engines: each
 * contact row of a mocap body gets the velocity its motion adds (what
 * efc_vel = J qvel would hold, were it moved by joints) and the reference
 * acceleration that velocity asks for (aref = -B vel - K imp pos), between
 * MuJoCo's velocity stage and its solver. A row is a direction of the
 * contact frame, the normal, tangents, then turns about them (elliptic
 * cones), or the normal plus and minus the friction times each of the
 * others (pyramidal), of geom2's motion less geom1's.
 */
static void
mocap_contact_motion(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	mjData *d = e->d;
	phys_vec3 v1, w1, v2, w2, dv, dw, f[3];
	double rel[6], extra;
	int i, j, r, n, a;
	bool pyramid = m->opt.cone == mjCONE_PYRAMIDAL;

	if (m->nmocap == 0)
		return;
	for (i = 0; i < d->ncon; i++) {
		const mjContact *c = &d->contact[i];
		bool m1 = mocap_motion(e, m->geom_bodyid[c->geom1], c->pos,
		    &v1, &w1);
		bool m2 = mocap_motion(e, m->geom_bodyid[c->geom2], c->pos,
		    &v2, &w2);

		if ((!m1 && !m2) || (a = c->efc_address) < 0)
			continue;
		dv = v3_sub(m2 ? v2 : v3(0, 0, 0), m1 ? v1 : v3(0, 0, 0));
		dw = v3_sub(m2 ? w2 : v3(0, 0, 0), m1 ? w1 : v3(0, 0, 0));
		for (j = 0; j < 3; j++) {
			f[j] = from_mj(c->frame + 3 * j);
			rel[j] = v3_dot(f[j], dv);
			rel[3 + j] = v3_dot(f[j], dw);
		}
		n = !pyramid ? c->dim : c->dim == 1 ? 1 : 2 * (c->dim - 1);
		for (r = 0; r < n; r++) {
			if (pyramid && c->dim > 1)
				extra = rel[0] + (r % 2 ? -1 : 1) *
				    c->friction[r / 2] * rel[r / 2 + 1];
			else
				extra = rel[r];
			d->efc_vel[a + r] += extra;
			d->efc_aref[a + r] -= d->efc_KBIP[4 * (a + r) + 1] *
			    extra;
		}
	}
}

/*
 * MuJoCo 2.2.2's mj_fwdVelocity but for its mj_comVel, whose body
 * velocities refresh() left current for the state a step starts from:
 * tendon and actuator velocities, passive forces, the constraints'
 * reference accelerations, the bias forces. A sparse model's tendon
 * velocities take MuJoCo's own stage (its sparse product is internal).
 */
static void
velocity_stage(const mjModel *m, mjData *d)
{
	if (m->ntendon && mj_isSparse(m)) {
		mj_fwdVelocity(m, d);
		return;
	}
	if (m->ntendon)
		mju_mulMatVec(d->ten_velocity, d->ten_J, d->qvel, m->ntendon,
		    m->nv);
	mju_mulMatVec(d->actuator_velocity, d->actuator_moment, d->qvel,
	    m->nu, m->nv);
	mj_passive(m, d);
	mj_referenceConstraint(m, d);
	mj_rne(m, d, 0, d->qfrc_bias);
}

/*
 * What a step's forces and accelerations come from: MuJoCo's
 * mj_fwdPosition with phys's contact values put in between collision
 * detection and the constraints, then the rest of mj_forward. The
 * kinematics of the state a step starts from are current already
 * (refresh); later passes (RK4's stages) compute them.
 */
static void
forward(struct mujoco_engine *e, bool first_pass)
{
	const mjModel *m = e->m;
	mjData *d = e->d;

	if (!first_pass) {
		mj_kinematics(m, d);
		mj_comPos(m, d);
	}
	mj_camlight(m, d);
	mj_tendon(m, d);
	mj_crb(m, d);
	mj_factorM(m, d);
	mj_collision(m, d);
	edit_contacts(e, first_pass);
	mj_makeConstraint(m, d);
	mj_transmission(m, d);
	mj_projectConstraint(m, d);
	/* mj_forwardSkip from the velocity stage on, without sensors */
	if (first_pass)
		velocity_stage(m, d);
	else
		mj_fwdVelocity(m, d);
	mocap_contact_motion(e);
	mj_fwdActuation(m, d);
	mj_fwdAcceleration(m, d);
	mj_fwdConstraint(m, d);
}

/* The kinematics and velocities of the current state, which queries
 * read and the next step starts from. */
static void
refresh(struct mujoco_engine *e)
{
	mj_kinematics(e->m, e->d);
	mj_comPos(e->m, e->d);
	mj_comVel(e->m, e->d);
}

/* RK4 as MuJoCo's mj_RungeKutta, each stage through forward(). */
static void
runge_kutta(struct mujoco_engine *e)
{
	static const double A[3][3] = { { 0.5, 0, 0 }, { 0, 0.5, 0 },
	    { 0, 0, 1 } };
	static const double B[4] = { 1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6 };
	const mjModel *m = e->m;
	mjData *d = e->d;
	int nq = m->nq, nv = m->nv, i, j;
	double h = m->opt.timestep, t = d->time;
	mjtNum *buf = phys_xcalloc((size_t)(nq + 10 * nv) + 1, sizeof *buf);
	mjtNum *q0 = buf, *v[4], *f[4], *dq = buf + nq + 8 * nv;
	mjtNum *dv = dq + nv;

	for (i = 0; i < 4; i++) {
		v[i] = buf + nq + 2 * i * nv;
		f[i] = v[i] + nv;
	}
	mju_copy(q0, d->qpos, nq);
	mju_copy(v[0], d->qvel, nv);
	mju_copy(f[0], d->qacc, nv);
	for (i = 1; i < 4; i++) {
		mju_zero(dq, nv);
		mju_zero(dv, nv);
		for (j = 0; j < i; j++) {
			mju_addToScl(dq, v[j], A[i - 1][j], nv);
			mju_addToScl(dv, f[j], A[i - 1][j], nv);
		}
		mju_copy(d->qpos, q0, nq);
		mj_integratePos(m, d->qpos, dq, h);
		mju_copy(v[i], v[0], nv);
		mju_addToScl(v[i], dv, h, nv);
		mju_copy(d->qvel, v[i], nv);
		d->time = t + (i == 3 ? 1 : 0.5) * h;
		forward(e, false);
		mju_copy(f[i], d->qacc, nv);
	}
	mju_zero(dq, nv);
	mju_zero(dv, nv);
	for (j = 0; j < 4; j++) {
		mju_addToScl(dq, v[j], B[j], nv);
		mju_addToScl(dv, f[j], B[j], nv);
	}
	mju_copy(d->qpos, q0, nq);
	mju_copy(d->qvel, v[0], nv);
	mju_addToScl(d->qvel, dv, h, nv);
	mj_integratePos(m, d->qpos, dq, h);
	d->time = t + h;
	free(buf);
}

/*
 * Forces of phys's own: a link without gravity gets its weight back, and
 * velocity_decay removes its share of a link's velocities every step, as
 * under ODE (a force of that much momentum over the step).
 */
static void
link_forces(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	mjData *d = e->d;
	phys_vec3 g = from_mj(m->opt.gravity), f, t, w, lin;
	double mass, dl, da;
	phys_mat3 R;
	size_t i;
	int b, k;

	for (i = 0; i < e->w->nlinks; i++) {
		const struct phys_value *v = vals(e, PHYS_S_LINK, (int)i);

		b = e->links[i].body;
		if (b <= 0 || m->body_weldid[b] == 0)
			continue;
		mass = m->body_mass[b];
		dl = PVD(v, LINK_velocity_decay_linear);
		da = PVD(v, LINK_velocity_decay_angular);
		f = PVB(v, LINK_gravity) ? v3(0, 0, 0) : v3_scale(g, -mass);
		t = v3(0, 0, 0);
		if (dl > 0 || da > 0) {
			w = from_mj(d->cvel + 6 * b);
			lin = point_vel(e, b, from_mj(d->xipos + 3 * b));
			f = v3_sub(f, v3_scale(lin, mass * dl / e->step));
			for (k = 0; k < 9; k++)
				R.m[k / 3][k % 3] = d->ximat[9 * b + k];
			w = phys_mat3_apply(phys_mat3_transpose(R), w);
			w = v3(w.x * m->body_inertia[3 * b], w.y *
			    m->body_inertia[3 * b + 1], w.z *
			    m->body_inertia[3 * b + 2]);
			t = v3_scale(phys_mat3_apply(R, w), -da / e->step);
		}
		to_mj(f, d->xfrc_applied + 6 * b);
		to_mj(t, d->xfrc_applied + 6 * b + 3);
	}
}

/* The forces the run puts on links, beside link_forces' (a body's
 * xfrc_applied acts at its centre of mass). */
static void
link_wrenches(struct mujoco_engine *e)
{
	const struct mlink *l;
	double *x;
	size_t i;

	for (i = 0; i < e->w->nlinks; i++) {
		l = &e->links[i];
		if (l->body <= 0 || e->m->body_weldid[l->body] == 0)
			continue;
		x = e->d->xfrc_applied + 6 * l->body;
		x[0] += l->force.x, x[1] += l->force.y, x[2] += l->force.z;
		x[3] += l->torque.x, x[4] += l->torque.y, x[5] += l->torque.z;
	}
}

/* A kinematic link moves with its velocities. */
static void
move_mocap(struct mujoco_engine *e)
{
	mjData *d = e->d;
	phys_pose p;
	size_t i;

	for (i = 0; i < e->w->nlinks; i++) {
		const struct mlink *ml = &e->links[i];
		mjtNum *pos, *quat;

		if (ml->mocap < 0)
			continue;
		pos = d->mocap_pos + 3 * ml->mocap;
		quat = d->mocap_quat + 4 * ml->mocap;
		p = phys_kinematic_step((phys_pose){ from_mj(pos),
		    from_mjquat(quat) }, ml->lin, ml->ang, e->step);
		to_mj(p.p, pos);
		if (v3_norm(ml->ang) > 0)
			to_mjquat(p.q, quat);
	}
}

/* The coefficient of dof in constraint row i of the Jacobian. */
static double
jacobian_at(const mjModel *m, const mjData *d, int i, int dof)
{
	int k, adr;

	if (!mj_isSparse(m))
		return d->efc_J[i * m->nv + dof];
	adr = d->efc_J_rowadr[i];
	for (k = 0; k < d->efc_J_rownnz[i]; k++)
		if (d->efc_J_colind[adr + k] == dof)
			return d->efc_J[adr + k];
	return 0;
}

/*
 * A tie's wrench on its child, about the child's centre of mass, from
 * its equality's rows in this step's solution: MuJoCo's connect and weld
 * rows are the first body's point's gap from the second's (world axes)
 * and, for a weld, the axis of neg(q2) q1 relpose, each of whose rates is
 * half that of the turn (torquescale times); their forces act on the
 * first body, the opposite on the second.
 */
static void
tie_wrench(struct mujoco_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct mjoint *mj = &e->joints[ji];
	const mjModel *m = e->m;
	const mjData *d = e->d;
	const mjtNum *data = m->eq_data + mjNEQDATA * mj->eq;
	int b1 = m->eq_obj1id[mj->eq], b2 = m->eq_obj2id[mj->eq];
	int c = j->child >= 0 ? e->links[j->child].body : 0, row, k, n = 0;
	mjtNum f[6] = { 0 }, at[3], q[4], q2n[4], t1[4], t2[4], ek[3];
	phys_vec3 force, torque = v3(0, 0, 0), x;
	double s = c == b1 ? 1 : -1;

	for (row = 0; row < d->nefc && n < 6; row++)
		if (d->efc_type[row] == mjCNSTR_EQUALITY &&
		    d->efc_id[row] == mj->eq)
			f[n++] = d->efc_force[row];
	/* the first body's point the rows hold */
	mju_rotVecMat(at, data + (m->eq_type[mj->eq] == mjEQ_WELD ? 3 : 0),
	    d->xmat + 9 * b1);
	mju_addTo3(at, d->xpos + 3 * b1);
	force = v3(f[0], f[1], f[2]);
	if (m->eq_type[mj->eq] == mjEQ_WELD) {
		mju_mulQuat(q, d->xquat + 4 * b1, data + 6);
		mju_negQuat(q2n, d->xquat + 4 * b2);
		for (k = 0; k < 3; k++) {
			mju_zero3(ek);
			ek[k] = 1;
			mju_mulQuatAxis(t1, q2n, ek);
			mju_mulQuat(t2, t1, q);
			(&torque.x)[k] = 0.5 * data[10] * (f[3] * t2[1] +
			    f[4] * t2[2] + f[5] * t2[3]);
		}
	}
	x = from_mj(d->xipos + 3 * (c > 0 ? c : b1));
	mj->force = v3_scale(force, s);
	mj->torque = v3_scale(v3_add(torque, v3_cross(v3_sub(from_mj(at),
	    x), force)), s);
}

/*
 * Each joint's wrench on its child and effort along its axes, from this
 * step's solution: the interaction force MuJoCo's recursion gives the
 * body carrying the joint (on the child, about its centre of mass), and
 * along each axis the limit and friction rows' forces plus the spring and
 * damping MuJoCo applied.
 */
static void
joint_forces(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	const mjModel *m = e->m;
	mjData *d = e->d;
	size_t i;
	int k, b, jid, row;

	mj_rnePostConstraint(m, d);
	for (i = 0; i < w->njoints; i++) {
		struct mjoint *mj = &e->joints[i];
		const struct phys_joint *j = &w->joints[i];
		phys_vec3 c, x;
		double s;

		mj->force = mj->torque = v3(0, 0, 0);
		mj->effort[0] = mj->effort[1] = 0;
		if (mj->role == ROLE_TIE)
			tie_wrench(e, (int)i);
		b = mj->body;
		if ((mj->role != ROLE_TREE && mj->role != ROLE_LOOP) || b <= 0)
			continue;
		/* the force on the body from its tree parent */
		s = mj->role == ROLE_TREE && mj->sign < 0 ? -1 : 1;
		mj->force = v3_scale(from_mj(d->cfrc_int + 6 * b + 3), s);
		mj->torque = v3_scale(from_mj(d->cfrc_int + 6 * b), s);
		c = from_mj(d->subtree_com + 3 * m->body_rootid[b]);
		x = from_mj(d->xipos + 3 * e->links[j->child].body);
		mj->torque = v3_add(mj->torque, v3_cross(v3_sub(c, x),
		    mj->force));
		for (k = 0; k < mj->naxes; k++)
			if ((jid = mj->jnt[k]) >= 0)
				mj->effort[k] = mj->sign *
				    d->qfrc_passive[m->jnt_dofadr[jid]] +
				    mj->cmd[k] + mj->loop_f[k];
	}
	for (row = 0; row < d->nefc; row++) {
		int t = d->efc_type[row], id = d->efc_id[row], dof;

		if (t == mjCNSTR_LIMIT_JOINT)
			jid = id;
		else if (t == mjCNSTR_FRICTION_DOF)
			jid = m->dof_jntid[id];
		else
			continue;
		if (e->jnt_joint[jid] < 0)
			continue;
		dof = m->jnt_dofadr[jid];
		e->joints[e->jnt_joint[jid]].effort[e->jnt_axis[jid]] +=
		    e->joints[e->jnt_joint[jid]].sign * d->efc_force[row] *
		    jacobian_at(m, d, row, dof);
	}
}

/*
 * Servo s of axis k of joint mj on its actuator a: force = base + kq pos
 * + kv vel along the reported axis, where pos = sign (qpos - qpos0) +
 * offset and vel = sign qvel; the actuator's gear is the sign, so that
 * its length and velocity are sign qpos and sign qvel, its bias takes kq
 * and kv, and its control the rest.
 */
static void
set_servo(struct mujoco_engine *e, struct mjoint *mj, int k, int a,
    const struct phys_axis_servo *s)
{
	mjModel *m = e->m;
	int jid = mj->jnt[k];
	bool limited = isfinite(s->fmin) || isfinite(s->fmax);
	double h = m->opt.timestep, inv = m->dof_invweight0[m->jnt_dofadr[jid]];

	m->actuator_gear[6 * a] = mj->sign;
	m->actuator_biasprm[mjNBIAS * a + 1] = s->kq;
	m->actuator_biasprm[mjNBIAS * a + 2] = s->kv;
	m->actuator_forcelimited[a] = limited;
	m->actuator_forcerange[2 * a] = fmax(s->fmin, -DBL_MAX);
	m->actuator_forcerange[2 * a + 1] = fmin(s->fmax, DBL_MAX);
	e->d->ctrl[a] = s->base + s->kq * (mj->offset[k] - mj->sign *
	    m->qpos0[m->jnt_qposadr[jid]]);
	/* MuJoCo's other integrators hold the actuator's force over the
	 * step: a servo stiffer than that flips the rate at every step,
	 * which its force range can hide as a chatter */
	if (mj->stiff_said || m->opt.integrator == mjINT_IMPLICIT ||
	    !phys_servo_stiff(s, h, inv))
		return;
	mj->stiff_said = true;
	phys_warn_once("joint '%s': its servo's damping over a step, d + p h "
	    "= %g, is %.3g times I / h (I at the model's zero): MuJoCo's %s integrator holds its "
	    "force over the step, which flips the joint's rate at every "
	    "step; its implicit one (mujoco.integrator=implicit) takes the "
	    "servo into the step", e->w->joints[mj - e->joints].name,
	    phys_servo_resistance(s, h), h * phys_servo_resistance(s, h) * inv,
	    m->opt.integrator == mjINT_RK4 ? "RK4" : "Euler");
}

static void mujoco_engine_link_pose(const struct mujoco_engine *e, int li,
    phys_pose *out);
static int mujoco_engine_joint_state(const struct mujoco_engine *e, int ji,
    double pos[2], double vel[2]);

/* What the bodies on either side of loop joint ji give of its turn's
 * (angular) or travel's inverse inertia at most, a moving body's least
 * moment or its mass; the world and static links none. */
static double
loop_inverse_bound(const struct mujoco_engine *e, int ji, bool angular)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const mjModel *m = e->m;
	double inv = 0, least;
	int side, li, b;

	for (side = 0; side < 2; side++) {
		li = side ? j->parent : j->child;
		b = li < 0 ? 0 : e->links[li].body;
		if (b <= 0 || m->body_weldid[b] == 0)
			continue;
		least = fmin(m->body_inertia[3 * b], fmin(m->body_inertia[3 *
		    b + 1], m->body_inertia[3 * b + 2]));
		inv += angular ? (least > 0 ? 1 / least : 0) :
		    (m->body_mass[b] > 0 ? 1 / m->body_mass[b] : 0);
	}
	return inv;
}

/*
 * A loop joint's spring and damper, as generalized forces on its ghost's
 * joints, held to what stops the motion within the step as ODE's and
 * Bullet's are (phys_joint_spring_damper_stable, phys_ball_torque). On
 * the ghost's own joints MuJoCo 2.2.2 integrates damping implicitly for
 * the ghost's thousandth of the link's inertia, which its Newton and CG
 * solvers do not follow through the ghost's weld: a damper of 1e-4 N m s
 * on a loop joint sent its link to 1e15 rad/s within 10 steps.
 */
static void
loop_forces(struct mujoco_engine *e, int ji)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	const struct phys_joint *j = &e->w->joints[ji];
	struct mjoint *mj = &e->joints[ji];
	const mjModel *m = e->m;
	mjData *d = e->d;
	double pos[2], vel[2], f, R[9];
	phys_vec3 w, t;
	phys_pose c, p = PHYS_POSE_IDENTITY;
	int k, dof, n;

	mj->loop_f[0] = mj->loop_f[1] = 0;
	if (mj->jnt[0] < 0)
		return;
	dof = m->jnt_dofadr[mj->jnt[0]];
	if (m->jnt_type[mj->jnt[0]] == mjJNT_BALL) {
		/* the ghost's turn and rate stand for the child's */
		c = body_pose(e, mj->ghost);
		if (j->parent >= 0)
			mujoco_engine_link_pose(e, j->parent, &p);
		mju_quat2Mat(R, d->xquat + 4 * mj->ghost);
		mju_mulMatVec(&w.x, R, d->qvel + dof, 3, 3);
		t = phys_ball_torque(e->w, ji, v, c.q, p.q, w,
		    loop_inverse_bound(e, ji, true), e->step);
		mju_mulMatTVec(d->qfrc_applied + dof, R, &t.x, 3, 3);
		return;
	}
	n = mujoco_engine_joint_state(e, ji, pos, vel);
	for (k = 0; k < n; k++) {
		if (mj->jnt[k] < 0)
			continue;
		f = phys_joint_spring_damper_stable(v, k, pos[k], vel[k],
		    loop_inverse_bound(e, ji, j->type !=
		    PHYS_JOINT_PRISMATIC), e->step);
		mj->loop_f[k] = f;
		d->qfrc_applied[m->jnt_dofadr[mj->jnt[k]]] += mj->sign * f;
	}
}

/* The joints' commands: servos on their actuators, other efforts as
 * generalized forces on their axes' dofs, with loops' springs and
 * dampers. */
static void
joint_commands(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	size_t i;
	int k, jid, a;
	bool servos = false;

	mju_zero(e->d->qfrc_applied, m->nv);
	for (i = 0; i < e->w->njoints; i++) {
		struct mjoint *mj = &e->joints[i];

		if (mj->role == ROLE_LOOP)
			loop_forces(e, (int)i);
		for (k = 0; k < mj->naxes; k++) {
			if ((jid = mj->jnt[k]) < 0)
				continue;
			a = mj->act[k];
			if (a >= 0 && mj->servo[k].on) {
				set_servo(e, mj, k, a, &mj->servo[k]);
				servos = true;
				continue;
			}
			if (a >= 0) {	/* idle */
				m->actuator_biasprm[mjNBIAS * a + 1] = 0;
				m->actuator_biasprm[mjNBIAS * a + 2] = 0;
				e->d->ctrl[a] = 0;
			}
			if (mj->cmd[k] != 0)
				e->d->qfrc_applied[m->jnt_dofadr[jid]] +=
				    mj->sign * mj->cmd[k];
		}
	}
	if (servos)
		m->opt.disableflags &= ~mjDSBL_ACTUATION;
	else
		m->opt.disableflags |= mjDSBL_ACTUATION;
}

/*
 * What joint mj's servo applied over the step MuJoCo's implicit
 * integrator just made beyond its force at the step's start
 * (actuator_force, the driver's effort): kv times the axis's change of
 * rate over the step, as that integrator takes the actuator's damping
 * into the step (MuJoCo 2.2.2 keeps that derivative where the force is
 * at an end of its range too). False under its other integrators, which
 * hold the start's force over the step, or without a servo.
 */
static bool
servo_share(const struct mujoco_engine *e, const struct mjoint *mj,
    double *share)
{
	const mjModel *m = e->m;
	int dof;

	if (m->opt.integrator != mjINT_IMPLICIT || mj->naxes < 1 ||
	    mj->act[0] < 0 || mj->jnt[0] < 0 || !mj->servo[0].on)
		return false;
	dof = m->jnt_dofadr[mj->jnt[0]];
	/* e->saved holds the step's start, qpos then qvel, until the next */
	*share = mj->servo[0].kv * mj->sign * (e->d->qvel[dof] -
	    e->saved[m->nq + dof]);
	return true;
}

/* Each joint's effort, its servo's share (servo_share) added. */
static void
servo_shares(struct mujoco_engine *e)
{
	double share;
	size_t i;

	for (i = 0; i < e->w->njoints; i++)
		if (servo_share(e, &e->joints[i], &share))
			e->joints[i].effort[0] += share;
}

static void
put_damping_back(struct mujoco_engine *e)
{
	if (e->damping_aside)
		mju_copy(e->m->dof_damping, e->damping, e->m->nv);
	e->damping_aside = false;
}

/*
 * MuJoCo 2.2.2's Euler step with joint damping as an explicit force, as
 * a later MuJoCo's eulerdamp flag disabled has it: the forward pass put
 * -d qdot among the passive forces, and mj_Euler, finding no damping,
 * integrates that acceleration as it is instead of taking damping into
 * the step (M + h D).
 */
static void
euler_explicit_damping(struct mujoco_engine *e)
{
	mjModel *m = e->m;

	mju_copy(e->damping, m->dof_damping, m->nv);
	mju_zero(m->dof_damping, m->nv);
	e->damping_aside = true;
	mj_Euler(m, e->d);
	put_damping_back(e);
}

/* One step of the state in d; MuJoCo's errors return to the caller. */
static void
step_once(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	mjData *d = e->d;

	link_forces(e);
	if (e->pushed)
		link_wrenches(e);
	if (e->commanded || e->loops)
		joint_commands(e);
	forward(e, true);
	if (e->w->njoints && e->joint_forces)
		joint_forces(e);
	switch (m->opt.integrator) {
	case mjINT_RK4:
		runge_kutta(e);
		break;
	case mjINT_IMPLICIT:
		mj_implicit(m, d);
		if (e->commanded)
			servo_shares(e);
		break;
	default:
		if (e->explicit_damping)
			euler_explicit_damping(e);
		else
			mj_Euler(m, d);
		break;
	}
	move_mocap(e);
}

/* ---- room for contacts and constraints ---- */

/* Bytes a data of these sizes takes, its dense constraint arrays
 * dominating (MuJoCo 2.2.2 sizes them njmax by njmax and by nv). */
static double
data_bytes(const mjModel *m)
{
	double nj = m->njmax, nv = m->nv;

	return 8 * nj * (2 * nv + nj + 32) + 4 * nj * (2 * nv + nj + 8) +
	    8.0 * m->nstack + (double)sizeof(mjContact) * m->nconmax;
}

/* Megabytes, for messages. */
#define MB(bytes) ((bytes) / (1024 * 1024))

/* The element a refusal of the whole world names: its <world>, or the
 * model of the model file or URDF a world was made around in memory. */
static long
world_line(const struct mujoco_engine *e, const char **file)
{
	const struct phys_scene *w = e->w;

	if (w->host && w->nmodels) {
		*file = phys_node_file(w->models[0].doc, w->models[0].node);
		return phys_node_line(w->models[0].node);
	}
	*file = phys_node_file(&w->doc, w->node);
	return phys_node_line(w->node);
}

/*
 * The collision of a moving link in the most of the data's contacts (how
 * many into *n), -1 for none: the contacts that outgrew the data were
 * mostly its, where the ground's are every body's.
 */
static int
busiest_collision(const struct mujoco_engine *e, int *n)
{
	const struct phys_scene *w = e->w;
	int i, k, c, best = -1;
	int *count;

	*n = 0;
	if (!e->m || !e->d || !e->geom_collision)
		return -1;
	count = phys_xcalloc(w->ncollisions + 1, sizeof *count);
	for (i = 0; i < e->d->ncon; i++)
		for (k = 0; k < 2; k++) {
			c = e->geom_collision[k ? e->d->contact[i].geom2 :
			    e->d->contact[i].geom1];
			if (c < 0 || link_static(w, w->collisions[c].link))
				continue;
			if (++count[c] > *n)
				*n = count[c], best = c;
		}
	free(count);
	return best;
}

#define DENSE "MuJoCo 2.2.2's constraint arrays are dense"

/* Where what needed memory was past, into buf: the room limit (the
 * process's, ulimit -v or -d; 0: MEMORY_BUDGET) left, or, room < 0,
 * that MuJoCo's allocation (of need bytes; 0: not known) failed. */
static void
past_room(char *buf, size_t n, double need, double room, double limit)
{
	char said[128];
	size_t k;

	if (room >= 0 && limit > 0)
		snprintf(buf, n, ", more than %s", phys_mem_left_text(said,
		    sizeof said, room, limit));
	else if (room >= 0)
		snprintf(buf, n, ", more than the %.0f MB it is given",
		    MB(MEMORY_BUDGET));
	else
		snprintf(buf, n, "%s", need > 0 ?
		    ", which MuJoCo could not allocate" : "");
	k = strlen(buf);
	if (room < 0 && limit > 0)
		snprintf(buf + k, n - k, " within the process's memory limit "
		    "of %.0f MB", MB(limit));
}

/* The constraint rows a contact of dim takes under cone. */
static int
contact_rows(int dim, int cone)
{
	return dim == 1 ? 1 : cone == mjCONE_PYRAMIDAL ? 2 * (dim - 1) : dim;
}

/*
 * Whether the data would fit in room with one contact a touching pair
 * (max_contacts 1): those contacts' rows and the joints', the arrays
 * doubled from their sizes now until they hold them, as grow_data does.
 * A floor of 100 boxes side by side needs 118 MB so, where the advice to
 * lower max_contacts within 300 MB helped nothing.
 */
static bool
one_contact_fits(const struct mujoco_engine *e, double room)
{
	const mjData *d = e->d;
	mjModel m;
	int64_t *keys;
	size_t i;
	int pairs = 0;
	double rows;

	if (!e->m || !d || d->ncon <= 0 || room <= 0)
		return false;
	/* each contact as its pair's key, its rows (at most 10, a
	 * pyramid of condim 6) in the low digits: sorted, a pair's
	 * contacts stand together */
	keys = phys_xcalloc((size_t)d->ncon, sizeof *keys);
	for (i = 0; i < (size_t)d->ncon; i++)
		keys[i] = phys_pair_key(d->contact[i].geom1,
		    d->contact[i].geom2, (int64_t)e->m->ngeom) * 16 +
		    contact_rows(d->contact[i].dim, e->m->opt.cone);
	phys_keys_sort(keys, (size_t)d->ncon);
	rows = d->ne + d->nf;
	for (i = 0; i < (size_t)d->ncon; i++)
		if (i == 0 || keys[i] / 16 != keys[i - 1] / 16) {
			pairs++;
			rows += (double)(keys[i] % 16);
		}
	free(keys);
	m = *e->m;
	m.nconmax = m.nconmax > 0 ? m.nconmax : 1;
	m.njmax = m.njmax > 0 ? m.njmax : 1;
	while (m.nconmax < pairs)
		m.nconmax *= 2;
	while (m.njmax < rows)
		m.njmax *= 2;
	m.nstack = (int)fmin(2147483647.0, fmax(m.nstack, 4.0 * m.njmax *
	    (m.nv + 8) + 4.0 * m.nv * m.nv));
	return data_bytes(&m) <= room;
}

/*
 * A refusal for want of memory at the run's time: need bytes (0: not
 * known) for what (NULL: the contacts' arrays), past room (past_room).
 * Said at the collision of a moving link in the most of the data's
 * contacts, whose growth asked for the memory, or at the world's line
 * before there are any; a limit can be raised, the budget not.
 */
static int
say_no_room(const struct mujoco_engine *e, const char *what, double need,
    double room, double limit)
{
	char on[256] = "", for_[256], amount[64], past[160];
	int n, c = what ? -1 : busiest_collision(e, &n);
	const char *file;
	long line = world_line(e, &file);
	double now;
	/* where MuJoCo's own allocation failed, what is left now */
	bool fewer = !what && one_contact_fits(e, room >= 0 ? room :
	    phys_mem_room(MEMORY_BUDGET, &now));

	snprintf(for_, sizeof for_, "%s", what ? what :
	    "this world (" DENSE ")");
	if (c >= 0) {
		const struct phys_collision *col = &e->w->collisions[c];

		file = phys_node_file(col->doc, col->node);
		line = phys_node_line(col->node);
		snprintf(on, sizeof on, "collision '%s': ", col->name);
		snprintf(for_, sizeof for_, "this world's %d contacts (%d of "
		    "them this collision's; " DENSE ")", e->d->ncon, n);
	}
	if (need > 0)
		snprintf(amount, sizeof amount, "would need %.0f MB for",
		    ceil(MB(need)));
	else
		snprintf(amount, sizeof amount, "ran out of memory for");
	past_room(past, sizeof past, need, room, limit);
	return phys_failat(file, line, "%sat t=%.9g, the MuJoCo engine %s "
	    "%s%s: %s%s", on, e->now, amount, for_, past, fewer ?
	    "lower max_contacts, run it under ODE or Bullet" :
	    "run it under ODE or Bullet",
	    limit > 0 ? ", or raise the limit" : "");
}

/* MuJoCo ran out of memory making the model or its data (which a data's
 * size estimated short of it let it try). */
static int
say_ran_out(const struct mujoco_engine *e)
{
	double limit;

	phys_mem_room(HUGE_VAL, &limit);	/* any limit set */
	return say_no_room(e, NULL, e->m ? data_bytes(e->m) : 0, -1, limit);
}

/* The state a data holds, into another of the same model. */
static void
copy_state(const mjModel *m, mjData *to, const mjData *from)
{
	mju_copy(to->qpos, from->qpos, m->nq);
	mju_copy(to->qvel, from->qvel, m->nv);
	mju_copy(to->qacc_warmstart, from->qacc_warmstart, m->nv);
	mju_copy(to->mocap_pos, from->mocap_pos, 3 * m->nmocap);
	mju_copy(to->mocap_quat, from->mocap_quat, 4 * m->nmocap);
	to->time = from->time;
}

/*
 * A new data with twice the room for contacts and constraint rows (full
 * is MuJoCo's warning that some were dropped) or twice the stack, the
 * state carried over; refused beyond MEMORY_BUDGET or what the process's
 * limits leave, the old data taken into account (it is freed after).
 */
static int
grow_data(struct mujoco_engine *e, bool stack)
{
	mjModel *m = e->m;
	int nconmax = m->nconmax, njmax = m->njmax, nstack = m->nstack;
	double room, limit, need;
	mjData *d;

	if (stack) {
		m->nstack *= 2;
	} else {
		if (e->d->warning[mjWARN_CONTACTFULL].number)
			m->nconmax *= 2;
		if (e->d->warning[mjWARN_CNSTRFULL].number)
			m->njmax *= 2;
		m->nstack = (int)fmin(2147483647.0, fmax(m->nstack,
		    4.0 * m->njmax * (m->nv + 8) + 4.0 * m->nv * m->nv));
	}
	room = phys_mem_room(MEMORY_BUDGET, &limit);
	if (data_bytes(m) > room || m->njmax < 0 || m->nconmax < 0) {
		need = data_bytes(m);
		m->nconmax = nconmax, m->njmax = njmax, m->nstack = nstack;
		return say_no_room(e, NULL, need, room, limit);
	}
	d = mj_makeData(m);
	if (!d)
		return say_ran_out(e);
	copy_state(m, d, e->d);
	mj_deleteData(e->d);
	e->d = d;
	refresh(e);
	return 0;
}

static bool
outgrown(const mjData *d)
{
	return d->warning[mjWARN_CONTACTFULL].number ||
	    d->warning[mjWARN_CNSTRFULL].number;
}

/* One attempt at a step: 0 done, 1 out of room, -1 a MuJoCo error. */
static int
attempt(struct mujoco_engine *e)
{
	running = e;
	e->catching = true;
	if (setjmp(e->fail)) {
		e->catching = false;
		return strstr(e->fail_text, "Stack overflow") ? 2 : -1;
	}
	step_once(e);
	e->catching = false;
	return outgrown(e->d) ? 1 : 0;
}

/* ---- setting poses and velocities: joint positions and rates fitted ---- */

/* The link a body stands for (a ghost stands for its joint's child),
 * -1 for the world. */
static int
body_target(const struct mujoco_engine *e, int b)
{
	if (b <= 0)
		return -1;
	if (e->body_link[b] >= 0)
		return e->body_link[b];
	if (e->body_ghost[b] >= 0)
		return e->w->joints[e->body_ghost[b]].child;
	return -1;
}

/* Every link's pose and velocity as they are: what a fit keeps where
 * nothing else is asked. */
static void
take_targets(struct mujoco_engine *e)
{
	size_t i;

	if (e->targets)
		return;
	for (i = 0; i < e->w->nlinks; i++) {
		struct mlink *ml = &e->links[i];

		mujoco_engine_link_pose(e, (int)i, &ml->target);
		mujoco_engine_link_vel(e, (int)i, &ml->tlin, &ml->tang);
	}
	e->targets = true;
}

static phys_pose
body_rest(const mjModel *m, int b)
{
	phys_pose p;

	p.p = from_mj(m->body_pos + 3 * b);
	p.q = from_mjquat(m->body_quat + 4 * b);
	return p;
}

/* Turn x about a hinge or ball at local anchor c by local rotation r. */
static phys_pose
turn_about(phys_pose x, phys_vec3 c, phys_quat r)
{
	phys_pose y;

	y.q = phys_quat_normalize(phys_quat_mul(x.q, r));
	y.p = v3_add(x.p, v3_sub(phys_quat_rotate(x.q, c),
	    phys_quat_rotate(y.q, c)));
	return y;
}

/* A body's pose from its parent's and its joints' positions, as
 * mj_kinematics composes them. */
static phys_pose
body_fk(const mjModel *m, int b, phys_pose parent, const mjtNum *qpos)
{
	phys_pose x = phys_pose_mul(parent, body_rest(m, b));
	int j, a;

	for (j = m->body_jntadr[b]; j < m->body_jntadr[b] +
	    m->body_jntnum[b]; j++) {
		phys_vec3 c = from_mj(m->jnt_pos + 3 * j);
		phys_vec3 ax = from_mj(m->jnt_axis + 3 * j);

		a = m->jnt_qposadr[j];
		switch (m->jnt_type[j]) {
		case mjJNT_FREE:
			x.p = from_mj(qpos + a);
			x.q = phys_quat_normalize(from_mjquat(qpos + a + 3));
			break;
		case mjJNT_BALL:
			x = turn_about(x, c, phys_quat_normalize(
			    from_mjquat(qpos + a)));
			break;
		case mjJNT_HINGE:
			x = turn_about(x, c, phys_quat_about(ax, qpos[a] -
			    m->qpos0[a]));
			break;
		case mjJNT_SLIDE:
			x.p = v3_add(x.p, phys_quat_rotate(x.q, v3_scale(ax,
			    qpos[a] - m->qpos0[a])));
			break;
		}
	}
	return x;
}

/* The part of v across unit axis a. */
static phys_vec3
across(phys_vec3 v, phys_vec3 a)
{
	return v3_sub(v, v3_scale(a, v3_dot(v, a)));
}

/*
 * The joint positions of body b that bring it nearest to pose x, its
 * parent at p: each hinge the turn about its axis (whole turns kept from
 * the position it had), slides the travel along theirs, a ball the whole
 * turn, two hinges the turn split between them.
 */
static void
fit_positions(const mjModel *m, mjData *d, int b, phys_pose p, phys_pose x)
{
	phys_pose rest = phys_pose_mul(p, body_rest(m, b));
	phys_pose delta = phys_pose_mul(phys_pose_inv(rest), x);
	int j0 = m->body_jntadr[b], n = m->body_jntnum[b], j, a;
	phys_quat left = delta.q;

	if (n == 1 && m->jnt_type[j0] == mjJNT_FREE) {
		a = m->jnt_qposadr[j0];
		to_mj(x.p, d->qpos + a);
		to_mjquat(x.q, d->qpos + a + 3);
		return;
	}
	for (j = j0; j < j0 + n; j++) {
		phys_vec3 ax = from_mj(m->jnt_axis + 3 * j), next;
		double q;

		a = m->jnt_qposadr[j];
		switch (m->jnt_type[j]) {
		case mjJNT_BALL:
			to_mjquat(phys_quat_normalize(left), d->qpos + a);
			break;
		case mjJNT_SLIDE:
			d->qpos[a] = m->qpos0[a] + v3_dot(delta.p, ax);
			break;
		case mjJNT_HINGE:
			/* with a second hinge after it, the turn that brings
			 * that hinge's axis where it goes */
			if (j + 1 < j0 + n && m->jnt_type[j + 1] == mjJNT_HINGE) {
				next = from_mj(m->jnt_axis + 3 * (j + 1));
				q = phys_angle_between(v3_normalize(across(
				    next, ax)), v3_normalize(across(
				    phys_quat_rotate(left, next), ax)), ax);
			} else {
				q = phys_angle_about(left, ax);
			}
			q = phys_angle_near(q, d->qpos[a] - m->qpos0[a]);
			d->qpos[a] = m->qpos0[a] + q;
			left = phys_quat_mul(phys_quat_about(ax, -q), left);
			break;
		}
	}
}

struct motion {
	phys_vec3 w, v;		/* angular, and linear of the origin */
};

/* Joint rates of body b that bring it nearest to velocities want, its
 * parent moving with pm from pp; the motion they give it. */
static struct motion
fit_rates(const mjModel *m, mjData *d, int b, phys_vec3 pp, struct motion pm,
    struct motion want)
{
	int j0 = m->body_jntadr[b], n = m->body_jntnum[b], j, k, dof;
	phys_vec3 xb = from_mj(d->xpos + 3 * b), wrel, ax[2], c;
	struct motion out;
	double g[3], r[2], det;
	phys_mat3 R;

	if (n == 1 && m->jnt_type[j0] == mjJNT_FREE) {
		dof = m->jnt_dofadr[j0];
		to_mj(want.v, d->qvel + dof);
		for (k = 0; k < 9; k++)
			R.m[k / 3][k % 3] = d->xmat[9 * b + k];
		to_mj(phys_mat3_apply(phys_mat3_transpose(R), want.w),
		    d->qvel + dof + 3);
		return want;
	}
	out.w = pm.w;
	out.v = v3_add(pm.v, v3_cross(pm.w, v3_sub(xb, pp)));
	wrel = v3_sub(want.w, pm.w);
	for (j = j0; j < j0 + n; j++) {
		phys_vec3 a = from_mj(d->xaxis + 3 * j);
		phys_vec3 anchor = from_mj(d->xanchor + 3 * j), vrel, wj;
		double rate;

		dof = m->jnt_dofadr[j];
		switch (m->jnt_type[j]) {
		case mjJNT_BALL:
			for (k = 0; k < 9; k++)
				R.m[k / 3][k % 3] = d->xmat[9 * b + k];
			to_mj(phys_mat3_apply(phys_mat3_transpose(R), wrel),
			    d->qvel + dof);
			wj = wrel;
			out.w = v3_add(out.w, wj);
			out.v = v3_add(out.v, v3_cross(wj, v3_sub(xb, anchor)));
			break;
		case mjJNT_SLIDE:
			c = v3_add(want.v, v3_cross(want.w, v3_sub(anchor, xb)));
			vrel = v3_sub(c, v3_add(pm.v, v3_cross(pm.w,
			    v3_sub(anchor, pp))));
			rate = v3_dot(vrel, a);
			d->qvel[dof] = rate;
			out.v = v3_add(out.v, v3_scale(a, rate));
			break;
		case mjJNT_HINGE:
			if (j + 1 < j0 + n && m->jnt_type[j + 1] == mjJNT_HINGE) {
				/* two hinges: least squares over both axes */
				ax[0] = a;
				ax[1] = from_mj(d->xaxis + 3 * (j + 1));
				g[0] = v3_dot(ax[0], ax[0]);
				g[1] = v3_dot(ax[0], ax[1]);
				g[2] = v3_dot(ax[1], ax[1]);
				r[0] = v3_dot(ax[0], wrel);
				r[1] = v3_dot(ax[1], wrel);
				det = g[0] * g[2] - g[1] * g[1];
				rate = fabs(det) > 1e-12 ?
				    (g[2] * r[0] - g[1] * r[1]) / det : r[0];
			} else {
				rate = v3_dot(wrel, a);
			}
			d->qvel[dof] = rate;
			wj = v3_scale(a, rate);
			wrel = v3_sub(wrel, wj);
			out.w = v3_add(out.w, wj);
			out.v = v3_add(out.v, v3_cross(wj, v3_sub(xb, anchor)));
			break;
		}
	}
	return out;
}

/*
 * The state nearest to the links' targets: bodies in tree order, each
 * one's joints fitted from where its parent ended up (a static link's
 * cannot move; mocap bodies are set directly).
 */
static void
fit(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	mjData *d = e->d;
	int nb = m->nbody, b, t, up;
	phys_pose *at = phys_xcalloc((size_t)nb, sizeof *at);
	struct motion *mo = phys_xcalloc((size_t)nb, sizeof *mo), want;

	at[0] = PHYS_POSE_IDENTITY;
	for (b = 1; b < nb; b++) {
		up = m->body_parentid[b];
		t = body_target(e, b);
		if (t >= 0 && m->body_jntnum[b] > 0)
			fit_positions(m, d, b, at[up], e->links[t].target);
		at[b] = body_fk(m, b, at[up], d->qpos);
	}
	mj_kinematics(m, d);
	for (b = 1; b < nb; b++) {
		up = m->body_parentid[b];
		t = body_target(e, b);
		if (t < 0 || m->body_jntnum[b] == 0) {
			mo[b].w = mo[up].w;
			mo[b].v = v3_add(mo[up].v, v3_cross(mo[up].w,
			    v3_sub(at[b].p, at[up].p)));
			continue;
		}
		want.w = e->links[t].tang;
		want.v = e->links[t].tlin;
		mo[b] = fit_rates(m, d, b, at[up].p, mo[up], want);
	}
	free(at);
	free(mo);
	refresh(e);
}

/* ---- mesh hulls ---- */

/* The volume of the convex hull MuJoCo made of mesh id. */
static double
hull_volume(const mjModel *m, int id)
{
	const int *g;
	const float *v;
	int nv, nf, f, k;
	double sum = 0;
	phys_vec3 p[3];

	if (id < 0 || m->mesh_graphadr[id] < 0)
		return 0;
	g = m->mesh_graph + m->mesh_graphadr[id];
	v = m->mesh_vert + 3 * m->mesh_vertadr[id];
	nv = g[0], nf = g[1];
	g += 2 + 3 * nv + 3 * nf;	/* the faces' global vertex ids */
	for (f = 0; f < nf; f++) {
		for (k = 0; k < 3; k++)
			p[k] = v3(v[3 * g[3 * f + k]], v[3 * g[3 * f + k] + 1],
			    v[3 * g[3 * f + k] + 2]);
		sum += v3_dot(p[0], v3_cross(p[1], p[2]));
	}
	return fabs(sum) / 6;
}

/*
 * MuJoCo collides a mesh as its convex hull. Said once per mesh, naming
 * the first collision using it, where that differs from the mesh: an
 * open mesh (no solid), or a solid below the hull's volume.
 */
static void
say_hulls(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	double vol, hull;
	phys_vec3 com;
	phys_mat3 I;
	size_t i, k;

	for (i = 0; i < w->ncollisions; i++) {
		const struct phys_collision *c = &w->collisions[i];
		int g = e->collision_geom[i];

		if (c->shape != PHYS_GEOM_MESH || g < 0 || is_polyline(c) ||
		    c->hull)	/* the hull asked for */
			continue;
		for (k = 0; k < e->nwarned && e->warned[k] != c->mesh; k++)
			continue;
		if (k < e->nwarned)
			continue;
		hull = hull_volume(e->m, e->m->geom_dataid[g]);
		if (!c->mesh->closed || phys_mesh_mass(c->mesh, &vol, &com,
		    &I) < 0)
			phys_warnat(PHYS_AT(c->doc, c->node),
			    "collision '%s': its mesh is open, not a solid's "
			    "surface: MuJoCo collides its convex hull", c->name);
		else if (vol < (1 - 1e-3) * hull)
			phys_warnat(PHYS_AT(c->doc, c->node),
			    "collision '%s': its mesh is not convex (%.3g%% of "
			    "its convex hull's volume): MuJoCo collides the "
			    "hull", c->name, 100 * vol / hull);
		else
			continue;
		e->warned = phys_xrealloc(e->warned, (e->nwarned + 1) *
		    sizeof *e->warned);
		e->warned[e->nwarned++] = c->mesh;
	}
}

/* ---- the engine's operations ---- */

/* MuJoCo's heights: the heightmap's rows from its -y edge, scaled to
 * [0, 1] over its range. */
static void
fill_hfields(struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	mjModel *m = e->m;
	size_t i, r, c;
	int h;

	for (i = 0; i < w->ncollisions; i++) {
		const struct phys_heightmap *hm = w->collisions[i].heightmap;
		float *data;
		double range;

		if (w->collisions[i].shape != PHYS_GEOM_HEIGHTMAP ||
		    e->collision_geom[i] < 0)
			continue;
		h = m->geom_dataid[e->collision_geom[i]];
		data = m->hfield_data + m->hfield_adr[h];
		range = fmax(hm->hi - hm->lo, 1e-6);
		for (r = 0; r < hm->ny; r++)
			for (c = 0; c < hm->nx; c++)
				data[r * hm->nx + c] = (float)((hm->h[(hm->ny -
				    1 - r) * hm->nx + c] - hm->lo) / range);
	}
}

static void
free_model(struct mujoco_engine *e)
{
	if (running == e)
		running = NULL;
	mj_deleteData(e->d);
	mj_deleteModel(e->m);
	e->d = NULL;
	e->m = NULL;
	free(e->geom_collision);
	free(e->filtered);
	e->filtered = NULL;
	free(e->memo);
	e->memo = NULL;
	e->nmemo = e->memo_cap = 0;
	free(e->collision_geom);
	free(e->body_link);
	free(e->body_ghost);
	free(e->jnt_joint);
	free(e->jnt_axis);
	free(e->saved);
	free(e->damping);
	e->damping = NULL;
	e->geom_collision = e->collision_geom = e->body_link = NULL;
	e->body_ghost = e->jnt_joint = e->jnt_axis = NULL;
	e->saved = NULL;
}

/* The numbers MuJoCo's solver and integrator take on its stack for nv
 * degrees of freedom and nj constraint rows, in dense matrices. */
static double
dense_numbers(int solver, int integrator, double nv, double nj)
{
	double n = 0;

	if (solver == mjSOL_NEWTON)
		n += 3 * nv * nv;
	if (solver == mjSOL_PGS)
		n += 4 * nj * nv;
	if (integrator == mjINT_IMPLICIT)
		n += 8 * nv * nv;
	return n;
}

/* The stack a data starts with: what MuJoCo's solvers take of it (Newton
 * a dense Hessian, the dual PGS the constraints against every dof), grown
 * when a step runs out (grow_data). */
static int
stack_size(const mjModel *m)
{
	double nv = m->nv, nj = m->njmax;
	double n = 2000 + 16 * nj + 16 * nv + 20.0 * (m->nq + m->nbody +
	    m->njnt + m->ngeom + m->neq) + (double)STACK_PAIRS(m->nbody - 1);

	n += dense_numbers(m->opt.solver, m->opt.integrator, nv, nj);
	return (int)fmin(n, 2147483647.0);
}

/*
 * MuJoCo 2.2.2 reads its XML no deeper than 100 elements (its parser's
 * bound): <mujoco>, <worldbody> and a body's own <joint> and <geom> among
 * them leave 96 bodies nested, and a model deeper is refused before it is
 * written, naming the link past it.
 */
#define MAX_BODY_DEPTH 96

static int
within_depth(const struct mujoco_engine *e)
{
	const struct phys_scene *w = e->w;
	int *depth = phys_xcalloc(w->nlinks + 1, sizeof *depth), rc = 0;
	double *dofs = phys_xcalloc(w->nlinks + 1, sizeof *dofs);
	size_t li;

	tree_paths(e, depth, dofs);
	for (li = 0; li < w->nlinks && rc == 0; li++)
		if (depth[li] > MAX_BODY_DEPTH)
			rc = phys_failat(PHYS_AT(w->links[li].doc,
			    w->links[li].node), "link '%s' hangs %d links "
			    "deep in its tree: MuJoCo 2.2.2 nests at most %d "
			    "bodies (its XML parser's bound); another engine "
			    "runs it", w->links[li].name, depth[li],
			    MAX_BODY_DEPTH);
	free(depth);
	free(dofs);
	return rc;
}

/* Whether no two of the n geoms may touch (contact_filter would discard
 * every pair of them); *asked counts the pairs asked. */
static bool
apart_within(const struct mujoco_engine *e, const int *geoms, size_t n,
    size_t *asked)
{
	size_t a, b;

	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (++*asked > GROUP_PAIRS ||
			    !geoms_excluded(e, geoms[a], geoms[b]))
				return false;
	return true;
}

/* The model geom g's collision belongs to, or -1. */
static int
geom_model(const struct mujoco_engine *e, int g)
{
	int c = e->geom_collision[g];

	return c < 0 ? -1 : e->w->links[e->w->collisions[c].link].model;
}

/*
 * MuJoCo's broadphase drops a pair of single-geom bodies whose contype
 * and conaffinity bits do not meet before it sorts the pairs it keeps
 * and asks contact_filter of each: the geoms of a model none of whose
 * links may touch each other (one without self_collide) share a bit
 * that their conaffinity lacks, for the first GROUP_BITS such models,
 * so that a robot's pairs with itself are never built. Only pairs that
 * contact_filter would discard are dropped; it still judges the rest.
 */
static void
group_geoms(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	size_t nm = e->w->nmodels, mi, asked = 0;
	size_t *start = phys_xcalloc(nm + 2, sizeof *start);
	int *geoms = phys_xcalloc((size_t)m->ngeom + 1, sizeof *geoms);
	int all = (int)(~0u >> 1), bit = 0, g, k;

	/* the geoms by model: start[mi] .. start[mi + 1] of geoms */
	for (g = 0; g < m->ngeom; g++) {
		m->geom_contype[g] = e->geom_collision[g] < 0 ? 0 :
		    1 << GROUP_BITS;
		m->geom_conaffinity[g] = e->geom_collision[g] < 0 ? 0 : all;
		if ((k = geom_model(e, g)) >= 0)
			start[k + 2]++;
	}
	for (mi = 2; mi < nm + 2; mi++)
		start[mi] += start[mi - 1];
	for (g = 0; g < m->ngeom; g++)
		if ((k = geom_model(e, g)) >= 0)
			geoms[start[k + 1]++] = g;
	for (mi = 0; mi < nm && bit < GROUP_BITS; mi++) {
		size_t n = start[mi + 1] - start[mi];
		int *in = geoms + start[mi];

		if (n < 2 || !apart_within(e, in, n, &asked))
			continue;
		while (n-- > 0) {
			m->geom_contype[in[n]] = 1 << bit;
			m->geom_conaffinity[in[n]] = all & ~(1 << bit);
		}
		bit++;
	}
	free(start);
	free(geoms);
}

/*
 * Each geom's margin and gap, its collision's: how far apart MuJoCo
 * finds its contacts (a pair's contact then takes the pair's values,
 * set_contact). A pair's margin wider than its geoms' widens theirs, as
 * MuJoCo finds a <pair>'s contacts within the pair's margin: their other
 * contacts found farther than their own margin stay inactive, as each
 * contact's includemargin is its surfaces'.
 */
static void
apply_margins(struct mujoco_engine *e)
{
	mjModel *m = e->m;
	const struct phys_scene *w = e->w;
	double *wide = phys_xcalloc(w->ncollisions + 1, sizeof *wide);
	size_t k;
	int g, c;

	for (k = 0; k < w->npairs; k++) {
		double pm = PVD(w->pairs[k].vals,
		    COLLISION_surface_contact_mujoco_margin);

		wide[w->pairs[k].c1] = fmax(wide[w->pairs[k].c1], pm);
		wide[w->pairs[k].c2] = fmax(wide[w->pairs[k].c2], pm);
	}
	for (g = 0; g < m->ngeom; g++) {
		if ((c = e->geom_collision[g]) < 0)
			continue;
		m->geom_margin[g] = fmax(wide[c], PVD(vals(e,
		    PHYS_S_COLLISION, c), COLLISION_surface_contact_mujoco_margin));
		m->geom_gap[g] = PVD(vals(e, PHYS_S_COLLISION, c),
		    COLLISION_surface_contact_mujoco_gap);
	}
	free(wide);
}

/* The collision values MuJoCo's model holds, where the others are read
 * at every contact: margins and gaps, and the contype bits; again
 * whenever the run's values change. */
static void
apply_collision_values(struct mujoco_engine *e)
{
	e->collisions_at = e->v->changes;
	apply_margins(e);
	group_geoms(e);
}

/*
 * The model and data of the world at its run's values: MJCF written,
 * loaded, mapped back, every value applied. The state is the loaded
 * configuration at rest.
 */
/*
 * MuJoCo's Newton solver and its implicit integrator take dense matrices
 * of the degrees of freedom squared on its stack (3 nv^2 and 8 nv^2
 * numbers): a world whose links surely have more than the budget or the
 * process's limits allow is refused before its model is compiled (5,000
 * free spheres were compiled for 8 s and 657 MB before the data's size
 * refused them, and 20,000 for minutes). Its dofs at least: 6 a free
 * link, 1 a joint's.
 */
static int
within_budget(const struct mujoco_engine *e)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);
	int sol = solver(PVS(v, PHYSICS_mujoco_solver));
	int in = integrator(PVS(v, PHYSICS_mujoco_integrator));
	double nv = 0, limit, room = phys_mem_room(MEMORY_BUDGET, &limit);
	char what[160];
	size_t li;

	for (li = 0; li < e->w->nlinks; li++)
		nv += e->links[li].hold == HOLD_FREE ? 6 :
		    e->links[li].hold == HOLD_JOINT ? 1 : 0;
	if (8 * dense_numbers(sol, in, nv, 0) <= room)
		return 0;
	snprintf(what, sizeof what, "this world's %.0f degree%s of freedom or "
	    "more (its %s's matrices are dense, %.0f nv^2 numbers)", nv,
	    nv == 1 ? "" : "s",
	    in != mjINT_IMPLICIT ? "Newton solver" : sol != mjSOL_NEWTON ?
	    "implicit integrator" : "Newton solver and implicit integrator",
	    dense_numbers(sol, in, 1, 0));
	return say_no_room(e, what, 8 * dense_numbers(sol, in, nv, 0), room,
	    limit);
}

static int
build(struct mujoco_engine *e, bool at_load)
{
	const struct phys_scene *w = e->w;
	struct phys_buf xml = { 0 };
	double room, limit;
	size_t i;

	plan_tree(e);
	if (within_depth(e) < 0 || within_budget(e) < 0 ||
	    write_mjcf(e, &xml) < 0) {
		phys_buf_free(&xml);
		return -1;
	}
	e->m = load_mjcf(e, &xml);
	phys_buf_free(&xml);
	if (!e->m)
		return -1;
	map_model(e);
	e->m->opt.disableflags |= mjDSBL_ACTUATION;	/* no servo yet */
	fill_hfields(e);
	if (mujoco_engine_apply_profile(e) < 0)
		return -1;
	e->m->nstack = stack_size(e->m);
	room = phys_mem_room(MEMORY_BUDGET, &limit);
	if (data_bytes(e->m) > room)
		return say_no_room(e, NULL, data_bytes(e->m), room, limit);
	running = e;
	e->d = mj_makeData(e->m);
	if (!e->d)
		return say_ran_out(e);
	e->saved = phys_xcalloc((size_t)(e->m->nq + 2 * e->m->nv +
	    7 * e->m->nmocap) + 1, sizeof *e->saved);
	e->damping = phys_xcalloc((size_t)e->m->nv + 1, sizeof *e->damping);
	mujoco_engine_apply_world(e);
	for (i = 0; i < w->nlinks; i++)
		if (apply_mass(e, (int)i, at_load) < 0)
			return -1;
	for (i = 0; i < w->njoints; i++)
		apply_joint_values(e, (int)i);
	apply_tendons(e);
	apply_collision_values(e);
	set_constants(e);
	refresh(e);
	if (at_load)
		say_hulls(e);
	return 0;
}

static struct mujoco_engine *
mujoco_engine_new(const struct phys_scene *w, const struct phys_run_values *v,
    const struct phys_engine_options *opt, double t)
{
	struct mujoco_engine *e = phys_xcalloc(1, sizeof *e);
	size_t i;

	mujoco_init();
	/* MuJoCo's state is left as it is when MuJoCo stops in it, the
	 * engine freed as after any other stop */
	PHYS_ENGINE_TRAP(mujoco_stopped(e); mujoco_engine_free(e);
	    return NULL)
	mjcb_contactfilter = contact_filter;
	phys_mujoco_hfield_install(model_running);
	e->w = w;
	e->v = v;
	e->now = t;
	e->skip_unsupported = opt && opt->skip_unsupported;
	e->joint_forces = !opt || !opt->no_joint_forces;
	e->links = phys_xcalloc(w->nlinks + 1, sizeof *e->links);
	e->joints = phys_xcalloc(w->njoints + 1, sizeof *e->joints);
	e->step = PVD(vals(e, PHYS_S_PHYSICS, 0), PHYSICS_max_step_size);
	for (i = 0; i < w->nlinks; i++)
		e->links[i].at = w->links[i].pose;
	plan_connected(e);
	if (build(e, true) < 0) {
		mujoco_engine_free(e);
		return NULL;
	}
	for (i = 0; i < w->nlinks; i++) {
		const struct phys_model *mo = &w->models[w->links[i].model];

		if (mo->has_init_vel && mujoco_engine_link_dynamic(e, (int)i))
			mujoco_engine_set_link_vel(e, (int)i, &mo->init_linear,
			    &mo->init_angular);
	}
	return e;
}

static void
mujoco_engine_free(struct mujoco_engine *e)
{
	if (!e)
		return;
	free_model(e);
	free(e->links);
	free(e->joints);
	free(e->connected);
	free(e->warned);
	free(e->bouncing);
	free(e->was_bouncing);
	free(e->welds);
	free(e);
}

/*
 * What cannot change in place (a link made kinematic or dynamic, a mesh
 * of a new size, a joint's axis) makes the model again where every link
 * is, moving as it was: the joints' zero is then there, and their
 * positions since load carry on as offsets (as ODE's do when it sets a
 * joint up again).
 */
static int
rebuild(struct mujoco_engine *e)
{
	int nconmax = e->m->nconmax, njmax = e->m->njmax;
	double pos[2], vel[2];
	size_t i;
	int k;

	take_targets(e);
	for (i = 0; i < e->w->nlinks; i++)
		e->links[i].at = e->links[i].target;
	for (i = 0; i < e->w->njoints; i++) {
		mujoco_engine_joint_state(e, (int)i, pos, vel);
		for (k = 0; k < 2; k++)
			e->joints[i].offset[k] = pos[k];
	}
	free_model(e);
	if (build(e, false) < 0)
		return -1;
	if (nconmax > e->m->nconmax || njmax > e->m->njmax) {
		e->m->nconmax = nconmax > e->m->nconmax ? nconmax :
		    e->m->nconmax;
		e->m->njmax = njmax > e->m->njmax ? njmax : e->m->njmax;
		if (grow_data(e, false) < 0)
			return -1;
	}
	for (i = 0; i < e->w->nlinks; i++) {
		struct mlink *ml = &e->links[i];

		if (ml->mocap < 0)
			continue;
		to_mj(ml->target.p, e->d->mocap_pos + 3 * ml->mocap);
		to_mjquat(ml->target.q, e->d->mocap_quat + 4 * ml->mocap);
		ml->lin = ml->tlin;
		ml->ang = ml->tang;
	}
	e->targets = true;
	fit(e);
	return 0;
}

static int
mujoco_engine_apply_profile(struct mujoco_engine *e)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);
	mjOption *o = &e->m->opt;

	MUJOCO_TRAP(e, return -1);

	e->step = PVD(v, PHYSICS_max_step_size);
	o->timestep = e->step;
	o->integrator = integrator(PVS(v, PHYSICS_mujoco_integrator));
	o->solver = solver(PVS(v, PHYSICS_mujoco_solver));
	o->iterations = (int)PVI(v, PHYSICS_mujoco_iterations);
	o->tolerance = PVD(v, PHYSICS_mujoco_tolerance);
	o->noslip_iterations = (int)PVI(v, PHYSICS_mujoco_noslip_iterations);
	o->noslip_tolerance = PVD(v, PHYSICS_mujoco_noslip_tolerance);
	o->cone = strcmp(PVS(v, PHYSICS_mujoco_cone), "elliptic") == 0 ?
	    mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
	o->impratio = PVD(v, PHYSICS_mujoco_impratio);
	if (PVB(v, PHYSICS_mujoco_multiccd))
		o->enableflags |= mjENBL_MULTICCD;
	else
		o->enableflags &= ~mjENBL_MULTICCD;
	e->explicit_damping = !PVB(v, PHYSICS_mujoco_eulerdamp);
	soften_equalities(e);
	return 0;
}

static void
mujoco_engine_apply_world(struct mujoco_engine *e)
{
	to_mj(PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity), e->m->opt.gravity);
}

static int
mujoco_engine_apply_link(struct mujoco_engine *e, int li)
{
	bool kinematic = PVB(vals(e, PHYS_S_LINK, li), LINK_kinematic);
	struct mlink *ml = &e->links[li];

	MUJOCO_TRAP(e, return -1);

	if (ml->hold == HOLD_STATIC)
		return 0;
	if (kinematic != (ml->hold == HOLD_MOCAP))
		return rebuild(e);
	if (apply_mass(e, li, false) < 0)
		return -1;
	set_constants(e);
	refresh(e);
	return 0;
}

static int
mujoco_engine_apply_joint(struct mujoco_engine *e, int ji)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	const struct phys_joint *j = &e->w->joints[ji];

	const struct mjoint *mj = &e->joints[ji];
	phys_vec3 a = PVV(v, JOINT_axis_xyz), b = PVV(v, JOINT_axis2_xyz);

	MUJOCO_TRAP(e, return -1);

	if (!(v3_norm(a) > 0) || ((j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2) && !(v3_norm(b) > 0)))
		return phys_fail("joint '%s': axis is zero", j->name);
	/* MuJoCo's joint axes are the model's: a new one makes it again,
	 * as does a loop's joint that a tie (ROLE_TIE) cannot hold */
	if ((mj->role == ROLE_TIE || mj->role == ROLE_LOOP) &&
	    (mj->role == ROLE_TIE) != ties(e, ji))
		return rebuild(e);
	if (a.x != mj->xyz[0].x || a.y != mj->xyz[0].y || a.z != mj->xyz[0].z ||
	    b.x != mj->xyz[1].x || b.y != mj->xyz[1].y || b.z != mj->xyz[1].z)
		return rebuild(e);
	apply_joint_values(e, ji);
	set_constants(e);
	refresh(e);
	return 0;
}

/* The radius of a geom's bounding sphere, as MuJoCo's compiler has it. */
static double
bounding_radius(int type, const mjtNum *s)
{
	switch (type) {
	case mjGEOM_SPHERE:
		return s[0];
	case mjGEOM_CAPSULE:
		return s[0] + s[1];
	case mjGEOM_CYLINDER:
		return sqrt(s[0] * s[0] + s[1] * s[1]);
	case mjGEOM_ELLIPSOID:
		return fmax(s[0], fmax(s[1], s[2]));
	case mjGEOM_BOX:
		return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	default:
		return 0;
	}
}

/* A resize: a shape's sizes change in place; a mesh is made again. */
static int
mujoco_engine_apply_collision(struct mujoco_engine *e, int ci)
{
	const struct phys_collision *wc = &e->w->collisions[ci];
	int g = e->collision_geom[ci];
	struct phys_collision c;
	struct phys_mesh *own;
	mjtNum *s;

	MUJOCO_TRAP(e, return -1);

	if (g < 0 || wc->shape == PHYS_GEOM_PLANE ||
	    wc->shape == PHYS_GEOM_HEIGHTMAP)
		return 0;
	if (wc->shape == PHYS_GEOM_MESH)
		return rebuild(e);
	if (phys_collision_sized(wc, vals(e, PHYS_S_COLLISION, ci), &c,
	    &own) < 0)
		return -1;
	phys_mesh_free(own);
	s = e->m->geom_size + 3 * g;
	switch (c.shape) {
	case PHYS_GEOM_BOX:
		s[0] = c.size[0] / 2, s[1] = c.size[1] / 2, s[2] = c.size[2] / 2;
		break;
	case PHYS_GEOM_SPHERE:
		s[0] = c.size[0];
		break;
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
		s[0] = c.size[0], s[1] = c.size[1] / 2;
		break;
	case PHYS_GEOM_ELLIPSOID:
		s[0] = c.size[0], s[1] = c.size[1], s[2] = c.size[2];
		break;
	default:
		break;
	}
	e->m->geom_rbound[g] = bounding_radius(e->m->geom_type[g], s);
	return 0;
}

static void
save_state(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	mjtNum *s = e->saved;

	mju_copy(s, e->d->qpos, m->nq);
	mju_copy(s + m->nq, e->d->qvel, m->nv);
	mju_copy(s + m->nq + m->nv, e->d->qacc_warmstart, m->nv);
	mju_copy(s + m->nq + 2 * m->nv, e->d->mocap_pos, 3 * m->nmocap);
	mju_copy(s + m->nq + 2 * m->nv + 3 * m->nmocap, e->d->mocap_quat,
	    4 * m->nmocap);
}

static void
restore_state(struct mujoco_engine *e)
{
	const mjModel *m = e->m;
	const mjtNum *s = e->saved;

	mju_copy(e->d->qpos, s, m->nq);
	mju_copy(e->d->qvel, s + m->nq, m->nv);
	mju_copy(e->d->qacc_warmstart, s + m->nq + m->nv, m->nv);
	mju_copy(e->d->mocap_pos, s + m->nq + 2 * m->nv, 3 * m->nmocap);
	mju_copy(e->d->mocap_quat, s + m->nq + 2 * m->nv + 3 * m->nmocap,
	    4 * m->nmocap);
	e->d->pstack = 0;
	put_damping_back(e);
	refresh(e);
}

/*
 * One step of max_step_size. A step that runs out of room for contacts,
 * constraint rows or stack is taken again from the same state with more
 * (MuJoCo would drop contacts, or stop).
 */
static int
mujoco_engine_step(struct mujoco_engine *e, double t0, double t1)
{
	int rc;

	MUJOCO_TRAP(e, return -1);

	e->now = t0;
	if (e->collisions_at != e->v->changes)
		apply_collision_values(e);
	save_state(e);
	while ((rc = attempt(e)) != 0) {
		restore_state(e);
		if (rc < 0)
			return phys_fail("simulation diverged at t=%.9g: MuJoCo "
			    "stopped: %s", t0, e->fail_text);
		if (grow_data(e, rc == 2) < 0)
			return -1;
		save_state(e);
	}
	swap_bouncing(e);
	e->now = t1;
	e->targets = false;
	refresh(e);
	return 0;
}

static void
mujoco_engine_link_pose(const struct mujoco_engine *e, int li,
    phys_pose *out)
{
	const struct mlink *ml = &e->links[li];

	if (ml->body <= 0) {
		*out = e->w->links[li].pose;
		return;
	}
	*out = body_pose(e, ml->body);
}

static void
mujoco_engine_link_vel(const struct mujoco_engine *e, int li,
    phys_vec3 *lin, phys_vec3 *ang)
{
	const struct mlink *ml = &e->links[li];

	if (ml->body <= 0) {
		*lin = *ang = v3(0, 0, 0);
	} else if (ml->mocap >= 0) {
		*lin = ml->lin;
		*ang = ml->ang;
	} else {
		*ang = from_mj(e->d->cvel + 6 * ml->body);
		*lin = point_vel(e, ml->body, from_mj(e->d->xpos + 3 *
		    ml->body));
	}
}

static void
mujoco_engine_link_com(const struct mujoco_engine *e, int li, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	const struct mlink *ml = &e->links[li];
	phys_vec3 lin, ang;
	phys_pose p;

	if (ml->body <= 0) {
		*com = phys_pose_apply(e->w->links[li].pose, v3(
		    PV(vals(e, PHYS_S_LINK, li), LINK_inertial_pose)->u.pose[0],
		    PV(vals(e, PHYS_S_LINK, li), LINK_inertial_pose)->u.pose[1],
		    PV(vals(e, PHYS_S_LINK, li), LINK_inertial_pose)->u.pose[2]));
		*com_vel = v3(0, 0, 0);
		return;
	}
	*com = from_mj(e->d->xipos + 3 * ml->body);
	if (ml->mocap >= 0) {
		mujoco_engine_link_vel(e, li, &lin, &ang);
		mujoco_engine_link_pose(e, li, &p);
		*com_vel = v3_add(lin, v3_cross(ang, v3_sub(*com, p.p)));
		return;
	}
	*com_vel = point_vel(e, ml->body, *com);
}

/* Every link with a body of its own: its frame. */
static bool
mujoco_engine_body_state(const struct mujoco_engine *e, int li,
    struct phys_body_state *out)
{
	phys_pose p;

	if (e->links[li].body <= 0)
		return false;
	mujoco_engine_link_pose(e, li, &p);
	mujoco_engine_link_vel(e, li, &out->vel, &out->angvel);
	out->pos = p.p;
	out->q = p.q;
	return true;
}

static bool
mujoco_engine_link_dynamic(const struct mujoco_engine *e, int li)
{
	const struct mlink *ml = &e->links[li];

	return ml->body > 0 && (ml->mocap >= 0 ||
	    e->m->body_weldid[ml->body] != 0);
}

static void
mujoco_engine_link_mass(const struct mujoco_engine *e, int li, double *mass,
    double inertia[6])
{
	const struct mlink *ml = &e->links[li];

	if (ml->body <= 0) {
		phys_link_values_mass(vals(e, PHYS_S_LINK, li), mass, inertia);
		return;
	}
	*mass = ml->mass;
	memcpy(inertia, ml->inertia, sizeof ml->inertia);
}

static int
mujoco_engine_set_link_pose(struct mujoco_engine *e, int li, phys_pose p)
{
	return mujoco_engine_set_link_poses(e, &li, &p, 1);
}

/* Links' poses (n, none static), fitted of them: mocap bodies set, then
 * the others fitted once, to all their targets. */
static int
place_links(struct mujoco_engine *e, const int *links, const phys_pose *p,
    size_t n, size_t fitted)
{
	struct mlink *ml;
	size_t i;

	MUJOCO_TRAP(e, return -1);

	for (i = 0; i < n; i++) {
		ml = &e->links[links[i]];
		if (ml->mocap < 0)
			continue;
		to_mj(p[i].p, e->d->mocap_pos + 3 * ml->mocap);
		to_mjquat(p[i].q, e->d->mocap_quat + 4 * ml->mocap);
	}
	if (fitted < n) {
		refresh(e);
		e->targets = false;
	}
	if (fitted == 0)
		return 0;
	take_targets(e);
	for (i = 0; i < n; i++)
		if (e->links[links[i]].mocap < 0)
			e->links[links[i]].target = p[i];
	fit(e);
	return 0;
}

static int
mujoco_engine_set_link_poses(struct mujoco_engine *e, const int *links,
    const phys_pose *p, size_t n)
{
	size_t i, fitted = 0;

	for (i = 0; i < n; i++) {
		if (e->links[links[i]].hold == HOLD_STATIC)
			return phys_fail("link '%s' is static: its pose "
			    "cannot change", e->w->links[links[i]].name);
		fitted += e->links[links[i]].mocap < 0;
	}
	return place_links(e, links, p, n, fitted);
}

/* Velocities are those of the link origin, in the world frame. */
static int
mujoco_engine_set_link_vel(struct mujoco_engine *e, int li,
    const phys_vec3 *lin, const phys_vec3 *ang)
{
	struct mlink *ml = &e->links[li];

	MUJOCO_TRAP(e, return -1);

	if (ml->hold == HOLD_STATIC)
		return phys_fail("link '%s' is static: it cannot move",
		    e->w->links[li].name);
	if (ml->mocap >= 0) {
		if (lin)
			ml->lin = *lin;
		if (ang)
			ml->ang = *ang;
		e->targets = false;
		return 0;
	}
	take_targets(e);
	if (lin)
		ml->tlin = *lin;
	if (ang)
		ml->tang = *ang;
	fit(e);
	return 0;
}

static int
mujoco_engine_joint_state(const struct mujoco_engine *e, int ji,
    double pos[2], double vel[2])
{
	const struct mjoint *mj = &e->joints[ji];
	const mjModel *m = e->m;
	int k, jid;

	pos[0] = pos[1] = vel[0] = vel[1] = 0;
	for (k = 0; k < mj->naxes; k++) {
		jid = mj->jnt[k];
		pos[k] = mj->sign * (e->d->qpos[m->jnt_qposadr[jid]] -
		    m->qpos0[m->jnt_qposadr[jid]]) + mj->offset[k];
		vel[k] = mj->sign * e->d->qvel[m->jnt_dofadr[jid]];
	}
	return mj->naxes;
}

static void
mujoco_engine_joint_wrench(const struct mujoco_engine *e, int ji,
    phys_vec3 *force, phys_vec3 *torque)
{
	*force = e->joints[ji].force;
	*torque = e->joints[ji].torque;
}

static int
mujoco_engine_joint_effort(const struct mujoco_engine *e, int ji,
    double effort[2])
{
	effort[0] = e->joints[ji].effort[0];
	effort[1] = e->joints[ji].effort[1];
	return e->joints[ji].naxes;
}

/* A servo's force over the last step: its force at the step's start and
 * its share (servo_share); none where the driver's, the start's, is it. */
static int
mujoco_engine_servo_effort(const struct mujoco_engine *e, int joint,
    double eff[2])
{
	const struct mjoint *mj = &e->joints[joint];
	double share;

	if (!servo_share(e, mj, &share))
		return 0;
	eff[0] = e->d->actuator_force[mj->act[0]] + share;
	return 1;
}

static int
mujoco_engine_set_joint_effort(struct mujoco_engine *e, int joint,
    const struct phys_joint_drive *drive)
{
	e->joints[joint].cmd[0] = drive->effort[0];
	e->joints[joint].cmd[1] = drive->effort[1];
	e->joints[joint].servo[0] = drive->servo[0];
	e->joints[joint].servo[1] = drive->servo[1];
	e->commanded = true;
	return 0;
}

static int
mujoco_engine_set_link_wrench(struct mujoco_engine *e, int link,
    phys_vec3 force, phys_vec3 torque)
{
	e->links[link].force = force;
	e->links[link].torque = torque;
	e->pushed = true;
	return 0;
}

/* A weld holds the pair where the model places it, which is where it is
 * when the model is made again. */
static int
mujoco_engine_weld(struct mujoco_engine *e, int parent, int child, bool on)
{
	size_t i;

	MUJOCO_TRAP(e, return -1);
	for (i = 0; i < e->nwelds; i++)
		if (e->welds[i].parent == parent && e->welds[i].child == child)
			break;
	if (!on) {
		if (i == e->nwelds)
			return 0;
		e->welds[i] = e->welds[--e->nwelds];
		return rebuild(e);
	}
	if (e->links[parent].hold == HOLD_STATIC &&
	    e->links[child].hold == HOLD_STATIC)
		return 0;	/* both static: nothing moves */
	e->welds = phys_xrealloc(e->welds, (e->nwelds + 1) * sizeof *e->welds);
	e->welds[e->nwelds++] = (struct mweld){ parent, child };
	if (rebuild(e) < 0) {
		e->nwelds--;
		return -1;
	}
	return 0;
}

static int
mujoco_engine_contact_count(const struct mujoco_engine *e)
{
	return e->ncontacts;
}

PHYS_ENGINE_DEFINE(mujoco_engine, mujoco)
