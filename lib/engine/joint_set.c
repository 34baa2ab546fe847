/*
 * joint_set.c - a joint's position or rate set by the run: the links
 * beyond it (its child and all that hangs from it) turn or slide about
 * the joint's axis as one body, under whichever engine runs, so that a
 * robot starts where its user says; and each joint's turns carried over
 * to a new engine.
 */
#include "engine.h"

#include <math.h>
#include <stdlib.h>

#include "engine_common.h"
#include "mem.h"
#include "startpose.h"

/* The most quarter turns a position set takes (each moves every link
 * beyond the joint): 1,024 turns. */
#define MAX_QUARTER_TURNS 4096

/* The links on the child's side of joint j, child first: 0 with their
 * count, or -1 when a loop joins them back to the parent. */
static int
subtree(const struct phys_scene *w, int j, int *out, size_t *n)
{
	const struct phys_joint *jt = &w->joints[j];
	int back = phys_links_joined(w, jt->child, j, jt->parent, out, n);

	if (back < 0)
		return 0;
	return phys_fail("joint '%s': its links form a loop with its parent "
	    "through joint '%s': its position cannot be set alone", jt->name,
	    w->joints[back].name);
}

/* Where link li is, moved to its new pose or not (the world: -1). */
static phys_pose
pose_after(const struct phys_engine *e, int li, const bool *moved,
    const phys_pose *to)
{
	phys_pose p;

	if (li < 0)
		return PHYS_POSE_IDENTITY;
	if (moved[li])
		return to[li];
	phys_engine_link_pose(e, li, &p);
	return p;
}

int
phys_engine_joints_hold(const struct phys_engine *e,
    const struct phys_scene *w, const bool *moved, const phys_pose *to)
{
	const struct phys_joint *jt;
	phys_pose pp, cp;
	double gap, turn;
	char how[64];
	size_t j;

	for (j = 0; j < w->njoints; j++) {
		jt = &w->joints[j];
		if ((jt->parent >= 0 && moved[jt->parent]) ==
		    (jt->child >= 0 && moved[jt->child]))
			continue;
		pp = pose_after(e, jt->parent, moved, to);
		cp = pose_after(e, jt->child, moved, to);
		gap = phys_joint_gap(w, (int)j, pp, cp);
		/* a turn within what solvers leave (a milliradian) is not
		 * the pose's */
		turn = phys_joint_turn(w, (int)j, pp, cp);
		if (gap > 1e-6)
			snprintf(how, sizeof how, "pulled %.3g m apart", gap);
		else if (turn > 1e-3)
			snprintf(how, sizeof how, "turned %.3g rad%s", turn,
			    phys_joint_turn_off_axis(jt->type) ?
			    " off its axis" : "");
		else
			continue;
		return phys_fail("joint '%s' would be %s: it holds link "
		    "'%s' to %s (set its position instead, or move what it "
		    "holds with it)", jt->name, how, w->links[jt->child].name,
		    jt->parent < 0 ? "the world" : w->links[jt->parent].name);
	}
	return 0;
}

/* Joint j's axis and anchor in the world now: they move with its child. */
static void
axis_now(const struct phys_engine *e, const struct phys_scene *w, int j,
    phys_vec3 *axis, phys_vec3 *anchor)
{
	const struct phys_joint *jt = &w->joints[j];
	const struct phys_link *c = &w->links[jt->child];
	phys_pose now, frame;

	phys_engine_link_pose(e, jt->child, &now);
	frame = phys_pose_mul(now, phys_pose_mul(phys_pose_inv(c->pose),
	    jt->pose));
	*anchor = frame.p;
	*axis = phys_quat_rotate(phys_quat_mul(now.q, phys_quat_conj(
	    c->pose.q)), jt->axis[0]);
}

static int
settable_joint(const struct phys_scene *w, int j)
{
	const struct phys_joint *jt = &w->joints[j];

	if (jt->type != PHYS_JOINT_REVOLUTE && jt->type != PHYS_JOINT_PRISMATIC)
		return phys_fail("joint '%s': only a revolute or prismatic "
		    "joint's position and velocity can be set", jt->name);
	if (jt->child < 0)
		return phys_fail("joint '%s': its child is the world", jt->name);
	return 0;
}

/* A link's state: read before any of its side moves. */
struct link_state {
	phys_pose p;
	phys_vec3 lin, ang;
};

/* Link li's motion (s) turned by q with it, so that each joint keeps
 * its rate. */
static int
turn_motion(struct phys_engine *e, int li, struct link_state *s,
    phys_quat q)
{
	if ((q.x == 0 && q.y == 0 && q.z == 0) || (v3_dot(s->lin, s->lin) ==
	    0 && v3_dot(s->ang, s->ang) == 0))
		return 0;
	s->lin = phys_quat_rotate(q, s->lin);
	s->ang = phys_quat_rotate(q, s->ang);
	return phys_engine_set_link_vel(e, li, &s->lin, &s->ang);
}

/* Link li, at s, moved by move, its motion with it. */
static int
place_link(struct phys_engine *e, int li, struct link_state s,
    phys_pose move)
{
	if (phys_engine_set_link_pose(e, li, phys_pose_mul(move, s.p)) < 0)
		return -1;
	return turn_motion(e, li, &s, move.q);
}

/* Link li of the moving side, at s, moved by the joint's change d of
 * position (rate false) or of rate (true) about axis through anchor. */
static int
move_link(struct phys_engine *e, const struct phys_joint *jt, int li,
    struct link_state s, bool rate, double d, phys_vec3 axis,
    phys_vec3 anchor)
{
	phys_vec3 w = v3_scale(axis, d);

	if (!rate)
		return place_link(e, li, s, phys_joint_motion(jt, d, axis,
		    anchor));
	if (jt->type == PHYS_JOINT_PRISMATIC) {
		s.lin = v3_add(s.lin, w);
	} else {
		s.ang = v3_add(s.ang, w);
		s.lin = v3_add(s.lin, v3_cross(w, v3_sub(s.p.p, anchor)));
	}
	return phys_engine_set_link_vel(e, li, &s.lin, &s.ang);
}

/* The dynamic links of the moving side (n) moved as one body: each read
 * before any is set, so that an engine holding the run's sets until its
 * next reading (Simbody) fits them once a part, not once a link. */
static int
move_side(struct phys_engine *e, const struct phys_joint *jt,
    const int *links, size_t n, struct link_state *s, bool rate, double d,
    phys_vec3 axis, phys_vec3 anchor)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		phys_engine_link_pose(e, links[i], &s[i].p);
		phys_engine_link_vel(e, links[i], &s[i].lin, &s[i].ang);
	}
	for (i = 0; i < n && rc == 0; i++)
		if (phys_engine_link_dynamic(e, links[i]))
			rc = move_link(e, jt, links[i], s[i], rate, d, axis,
			    anchor);
	return rc;
}

/*
 * The parts a change d of joint j's position takes, each at most a
 * quarter turn, so that every engine, which finds its joint's angle from
 * its links' poses nearest the angle it had, counts the whole turns; -1
 * past MAX_QUARTER_TURNS, said.
 */
static double
quarter_turns(const struct phys_scene *w, int j, double d)
{
	double parts = w->joints[j].type != PHYS_JOINT_REVOLUTE ? 1 :
	    ceil(fabs(d) / PHYS_QUARTER_TURN);

	if (parts <= MAX_QUARTER_TURNS)
		return parts;
	return phys_fail("joint '%s': a turn of %g rad from where it is is "
	    "more than phys sets (%d turns)", w->joints[j].name, d,
	    MAX_QUARTER_TURNS / 4);
}

/* The joint's position (rate false) or rate set to target: every dynamic
 * link of its child's side moved as one body. */
static int
set_joint(struct phys_engine *e, const struct phys_scene *w, int j,
    double target, bool rate)
{
	int *links = phys_xcalloc(w->nlinks, sizeof *links);
	struct link_state *s = NULL;
	double pos[2], vel[2], d, parts, p;
	phys_vec3 axis, anchor;
	size_t n;
	int rc;

	if ((rc = settable_joint(w, j)) < 0 ||
	    (rc = subtree(w, j, links, &n)) < 0) {
		free(links);
		return rc;
	}
	phys_engine_joint_state(e, j, pos, vel);
	axis_now(e, w, j, &axis, &anchor);
	d = target - (rate ? vel[0] : pos[0]);
	parts = rate ? 1 : quarter_turns(w, j, d);
	if ((rc = parts < 0 ? -1 : 0) == 0)
		s = phys_xcalloc(n + 1, sizeof *s);
	for (p = 0; p < parts && rc == 0; p++)
		rc = move_side(e, &w->joints[j], links, n, s, rate, d / parts,
		    axis, anchor);
	free(s);
	free(links);
	return rc;
}

/* The dynamic links that move (moves) each placed once, by move from
 * where they were (s), all at once (phys_engine_set_link_poses); their
 * motion turns with them. */
static int
place_links(struct phys_engine *e, const struct phys_scene *w,
    const struct phys_link_tree *t, const bool *moves, const phys_pose *move,
    struct link_state *s)
{
	int *links = phys_xcalloc(w->nlinks + 1, sizeof *links);
	phys_pose *to = phys_xcalloc(w->nlinks + 1, sizeof *to);
	size_t i, n = 0;
	int l, rc;

	for (i = 0; i < w->nlinks; i++) {
		l = t->order[i];
		if (!moves[l] || !phys_engine_link_dynamic(e, l))
			continue;
		links[n] = l;
		to[n++] = phys_pose_mul(move[l], s[l].p);
	}
	rc = phys_engine_set_link_poses(e, links, to, n);
	for (i = 0; i < n && rc == 0; i++)
		rc = turn_motion(e, links[i], &s[links[i]], move[links[i]].q);
	free(links);
	free(to);
	return rc;
}

/* A part of a set of joints: each one's change (d), whether it is set. */
struct joint_set_part {
	struct phys_engine *e;
	const struct phys_scene *w;
	const double *d;
	const bool *set;
};

/* Joint j's motion in the part, read where its child is. */
static bool
part_joint(void *ctx, int j, phys_pose *m)
{
	const struct joint_set_part *sp = ctx;
	phys_vec3 axis, anchor;

	if (!sp->set[j])
		return false;
	axis_now(sp->e, sp->w, j, &axis, &anchor);
	*m = phys_joint_motion(&sp->w->joints[j], sp->d[j], axis,
	    anchor);
	return true;
}

/* Each link that moves in one part of a set of joints (set[j] by d[j]),
 * down t (phys_link_tree_motions): read, all of them, before any is set;
 * then each moved once. */
static int
move_down(struct phys_engine *e, const struct phys_scene *w,
    const struct phys_link_tree *t, const double *d, const bool *set)
{
	struct joint_set_part sp = { e, w, d, set };
	struct link_state *s = phys_xcalloc(w->nlinks + 1, sizeof *s);
	phys_pose *move = phys_xcalloc(w->nlinks + 1, sizeof *move);
	bool *moves = phys_xcalloc(w->nlinks + 1, sizeof *moves);
	size_t l;
	int rc;

	(void)phys_link_tree_motions(w, t, part_joint, &sp, move, moves);
	for (l = 0; l < w->nlinks; l++)
		if (moves[l]) {
			phys_engine_link_pose(e, (int)l, &s[l].p);
			phys_engine_link_vel(e, (int)l, &s[l].lin, &s[l].ang);
		}
	rc = place_links(e, w, t, moves, move, s);
	free(s);
	free(move);
	free(moves);
	return rc;
}

/* A set of joints js at to (n) planned: each one's change (d[joint])
 * and whether it is set (set[joint]), or why[i] why js[i] is not; the
 * parts the set takes, each joint's at most a quarter turn. */
static double
plan_set(struct phys_engine *e, const struct phys_scene *w, const int *js,
    const double *to, size_t n, double *d, bool *set, char **why)
{
	double pos[2], vel[2], parts = 1, pj;
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		j = js[i];
		if (settable_joint(w, j) == 0) {
			phys_engine_joint_state(e, j, pos, vel);
			d[j] = to[i] - pos[0];
			if ((pj = quarter_turns(w, j, d[j])) >= 0) {
				set[j] = true;
				parts = fmax(parts, pj);
				continue;
			}
		}
		why[i] = phys_xstrdup(phys_error());
	}
	return parts;
}

void
phys_engine_set_joint_positions(struct phys_engine *e,
    const struct phys_scene *w, const int *js, const double *to, size_t n,
    char **why)
{
	struct phys_link_tree t;
	double *d, parts, k;
	bool *set;
	size_t i;
	int j, rc = 0;

	for (i = 0; i < n; i++)
		why[i] = NULL;
	if (phys_link_tree(w, &t) < 0) {
		for (i = 0; i < n; i++)
			if (set_joint(e, w, js[i], to[i], false) < 0)
				why[i] = phys_xstrdup(phys_error());
		return;
	}
	d = phys_xcalloc(w->njoints + 1, sizeof *d);
	set = phys_xcalloc(w->njoints + 1, sizeof *set);
	parts = plan_set(e, w, js, to, n, d, set, why);
	for (j = 0; j < (int)w->njoints; j++)
		d[j] /= parts;
	for (k = 0; k < parts && rc == 0; k++)
		rc = move_down(e, w, &t, d, set);
	for (i = 0; rc < 0 && i < n; i++)
		if (!why[i])
			why[i] = phys_xstrdup(phys_error());
	free(d);
	free(set);
	phys_link_tree_free(&t);
}

int
phys_engine_move_links(struct phys_engine *e, int ref, const phys_vec3 *to_lin,
    const phys_vec3 *to_ang, const int *links, size_t n)
{
	phys_vec3 *lin = phys_xcalloc(n + 1, sizeof *lin);
	phys_vec3 *ang = phys_xcalloc(n + 1, sizeof *ang);
	phys_vec3 dv, dw, at;
	phys_pose p;
	size_t i;
	int rc = 0;

	phys_engine_link_vel_asked(e, ref, &dv, &dw);
	phys_engine_link_pose(e, ref, &p);
	at = p.p;
	dv = to_lin ? v3_sub(*to_lin, dv) : v3(0, 0, 0);
	dw = to_ang ? v3_sub(*to_ang, dw) : v3(0, 0, 0);
	for (i = 0; i < n; i++) {
		phys_engine_link_vel_asked(e, links[i], &lin[i], &ang[i]);
		phys_engine_link_pose(e, links[i], &p);
		lin[i] = v3_add(lin[i], v3_add(dv, v3_cross(dw,
		    v3_sub(p.p, at))));
		ang[i] = v3_add(ang[i], dw);
	}
	for (i = 0; i < n && rc == 0; i++)
		if (phys_engine_link_dynamic(e, links[i]))
			rc = phys_engine_set_link_vel(e, links[i], &lin[i],
			    &ang[i]);
	free(lin);
	free(ang);
	return rc;
}

int
phys_engine_set_link_motion(struct phys_engine *e,
    const struct phys_scene *w, int li, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	int *links = phys_xcalloc(w->nlinks + 1, sizeof *links);
	size_t n = 0, j;
	int rc;

	for (j = 0; j < w->njoints && w->joints[j].child != li; j++)
		continue;
	if (j == w->njoints)	/* held by none: all joined to it */
		phys_links_joined(w, li, -1, PHYS_NO_LINK, links, &n);
	else if (phys_links_joined(w, li, (int)j, w->joints[j].parent, links,
	    &n) >= 0)
		links[0] = li, n = 1;	/* a loop: it alone */
	rc = phys_engine_move_links(e, li, lin, ang, links, n);
	free(links);
	return rc;
}

int
phys_engine_set_joint_position(struct phys_engine *e,
    const struct phys_scene *w, int j, double target)
{
	return set_joint(e, w, j, target, false);
}

int
phys_engine_set_joint_velocity(struct phys_engine *e,
    const struct phys_scene *w, int j, double target)
{
	return set_joint(e, w, j, target, true);
}

int
phys_engine_use_keeping_turns(struct phys_engine *e,
    const struct phys_scene *w, const struct phys_engine_ops *ops)
{
	double *was = phys_xcalloc(w->njoints + 1, sizeof *was);
	double pos[2], vel[2];
	size_t j;
	int rc;

	for (j = 0; j < w->njoints; j++)
		if (phys_engine_joint_state(e, (int)j, pos, vel) > 0)
			was[j] = pos[0];
	rc = phys_engine_use(e, ops);
	for (j = 0; j < w->njoints && rc == 0; j++) {
		const struct phys_joint *jt = &w->joints[j];

		if (jt->type != PHYS_JOINT_REVOLUTE || jt->child < 0 ||
		    !phys_engine_link_dynamic(e, jt->child) ||
		    phys_engine_joint_state(e, (int)j, pos, vel) < 1 ||
		    fabs(was[j] - pos[0]) < M_PI)
			continue;
		/* one a loop closes, or turned past what a set takes, keeps
		 * its angle as read */
		(void)set_joint(e, w, (int)j, was[j], false);
	}
	free(was);
	return rc;
}
