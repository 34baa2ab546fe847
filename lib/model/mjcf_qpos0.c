/*
 * mjcf_qpos0.c - what MuJoCo's compiler derives from the mass matrix at
 * qpos0 (mjcf_qpos0.h): a position servo's dampratio made its damping,
 * from the matrix's diagonal (dof_M0), and a joint's springdamper made
 * its stiffness and damping, from the inverse's diagonal
 * (dof_invweight0). The matrix is built as MuJoCo's composite rigid body
 * algorithm builds it: dofs i and j, j's at or above i, meet in the
 * bodies from i's down, whose composite inertia gives their entry (the
 * cross term of the kinetic energy of the two motions); armature adds to
 * the diagonal. It is kept and factored as MuJoCo keeps it, each row
 * its dof's entries with the dofs above it, so that a chain of n dofs
 * costs n times its depth, not n^3.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mjcf_qpos0.h"
#include "mjcfint.h"

/* MuJoCo's mjMINVAL. */
#define MIN_VAL 1e-15

/* One degree of freedom at qpos0: it turns about axis through anchor,
 * or moves along axis. */
struct dof {
	int body;
	bool turn;
	phys_vec3 axis, anchor;
};

/* The dofs of joint j of body b into d (its free joint: three moves along
 * the world's axes, three turns about the body's; a ball: three turns
 * about the body's axes), in MuJoCo's order: how many. */
static size_t
joint_dofs(const struct reader *r, size_t b, size_t j, struct dof *d)
{
	const struct mj_joint *jt = &r->joints[j];
	phys_pose w = r->bodies[b].world;
	phys_vec3 anchor = phys_pose_apply(w, jt->pos);
	size_t k, n = 0;

	switch (jt->type) {
	case MJ_FREE:
		for (k = 0; k < 3; k++)
			d[n++] = (struct dof){ (int)b, false, v3(k == 0, k == 1,
			    k == 2), anchor };
		/* FALLTHROUGH */
	case MJ_BALL:
		for (k = 0; k < 3; k++)
			d[n++] = (struct dof){ (int)b, true,
			    phys_quat_rotate(w.q, v3(k == 0, k == 1, k == 2)),
			    anchor };
		break;
	default:
		d[n++] = (struct dof){ (int)b, jt->type == MJ_HINGE,
		    phys_quat_rotate(w.q, jt->axis), anchor };
	}
	return n;
}

/* A body and those below it as one rigid body, about the world's origin:
 * mass, first moment (mass times centre) and rotational inertia. */
struct composite {
	double m;
	phys_vec3 h;
	phys_mat3 J;
};

static void
add_body(struct composite *c, const struct mj_body *k)
{
	phys_mat3 R = phys_quat_to_mat3(phys_quat_mul(k->world.q,
	    k->in.iquat));
	phys_vec3 x = phys_pose_apply(k->world, k->in.ipos);
	double m = k->in.mass, xx = v3_dot(x, x), p[3] = { x.x, x.y, x.z };
	size_t i, j;

	c->m += m;
	c->h = v3_add(c->h, v3_scale(x, m));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			c->J.m[i][j] += R.m[i][0] * k->in.diag[0] * R.m[j][0] +
			    R.m[i][1] * k->in.diag[1] * R.m[j][1] +
			    R.m[i][2] * k->in.diag[2] * R.m[j][2] +
			    m * ((i == j) * xx - p[i] * p[j]);
}

static void
add_composite(struct composite *to, const struct composite *c)
{
	size_t i, j;

	to->m += c->m;
	to->h = v3_add(to->h, c->h);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			to->J.m[i][j] += c->J.m[i][j];
}

/* Dof x as a motion: its turn and its origin's velocity. */
static void
motion(const struct dof *x, phys_vec3 *w, phys_vec3 *v)
{
	*w = x->turn ? x->axis : v3(0, 0, 0);
	*v = x->turn ? v3_cross(x->anchor, x->axis) : x->axis;
}

/* The entry of dofs a and b, both moving c's bodies: their kinetic
 * energy's cross term. */
static double
entry(const struct composite *c, const struct dof *a, const struct dof *b)
{
	phys_vec3 wa, va, wb, vb;

	motion(a, &wa, &va);
	motion(b, &wb, &vb);
	return v3_dot(wa, phys_mat3_apply(c->J, wb)) + c->m * v3_dot(va, vb) +
	    v3_dot(va, v3_cross(wb, c->h)) + v3_dot(vb, v3_cross(wa, c->h));
}

/*
 * The model's mass matrix at qpos0, as MuJoCo keeps it: each dof's row
 * holds its entries with itself and the dofs above it (the rest are 0),
 * nearest first; factored in place as MuJoCo factors it, into L' D L.
 */
struct mass {
	struct dof *dof;
	size_t nv, *first;	/* first[j]: joint j's first dof */
	int *up;		/* the dof above, -1 none */
	size_t *depth;		/* the row's length */
	double **row, *m0;	/* m0: the diagonal, before factoring */
};

/* The dof above dof i: the one before it on its body, else the last of
 * the nearest body above with dofs. */
static int
dof_up(const struct reader *r, const struct mass *M, size_t i,
    const int *last)
{
	int b = M->dof[i].body;

	if (i > 0 && M->dof[i - 1].body == b)
		return (int)i - 1;
	for (b = r->bodies[b].parent; b >= 0; b = r->bodies[b].parent)
		if (last[b] >= 0)
			return last[b];
	return -1;
}

static void
build(const struct reader *r, struct mass *M)
{
	struct composite *c = phys_xcalloc(r->nbodies + 1, sizeof *c);
	int *last = phys_xcalloc(r->nbodies + 1, sizeof *last);
	size_t b, j, i, k;
	int u;

	M->dof = phys_xcalloc(6 * r->njoints + 1, sizeof *M->dof);
	M->first = phys_xcalloc(r->njoints + 1, sizeof *M->first);
	for (b = 0; b < r->nbodies; b++) {
		last[b] = -1;
		for (j = r->bodies[b].joint0; j < r->bodies[b].joint0 +
		    r->bodies[b].njoints; j++) {
			M->first[j] = M->nv;
			M->nv += joint_dofs(r, b, j, M->dof + M->nv);
			last[b] = (int)M->nv - 1;
		}
		add_body(&c[b], &r->bodies[b]);
	}
	/* bodies come before those below them */
	for (b = r->nbodies; b-- > 0;)
		if (r->bodies[b].parent >= 0)
			add_composite(&c[r->bodies[b].parent], &c[b]);
	M->up = phys_xcalloc(M->nv + 1, sizeof *M->up);
	M->depth = phys_xcalloc(M->nv + 1, sizeof *M->depth);
	M->row = phys_xcalloc(M->nv + 1, sizeof *M->row);
	M->m0 = phys_xcalloc(M->nv + 1, sizeof *M->m0);
	for (i = 0; i < M->nv; i++) {
		M->up[i] = dof_up(r, M, i, last);
		M->depth[i] = M->up[i] < 0 ? 1 : M->depth[M->up[i]] + 1;
		M->row[i] = phys_xcalloc(M->depth[i], sizeof **M->row);
		for (k = 0, u = (int)i; u >= 0; u = M->up[u], k++)
			M->row[i][k] = entry(&c[M->dof[i].body], &M->dof[i],
			    &M->dof[u]);
	}
	for (j = 0; j < r->njoints; j++)
		for (i = 0; i < nv_of[r->joints[j].type]; i++)
			M->row[M->first[j] + i][0] += r->joints[j].armature;
	for (i = 0; i < M->nv; i++)
		M->m0[i] = M->row[i][0];
	free(c);
	free(last);
}

/* M = L' D L in place, D on the diagonal (MuJoCo's mj_factorM); false
 * where M is not positive definite (a massless chain). */
static bool
factor(struct mass *M)
{
	double *rk, *ri, a;
	size_t k, s, t;
	int i, j;

	for (k = M->nv; k-- > 0;) {
		rk = M->row[k];
		if (!(rk[0] > 0))
			return false;
		for (i = M->up[k], s = 1; i >= 0; i = M->up[i], s++) {
			a = rk[s] / rk[0];
			ri = M->row[i];
			for (j = i, t = 0; j >= 0; j = M->up[j], t++)
				ri[t] -= rk[s + t] * a;
			rk[s] = a;
		}
	}
	return true;
}

/* The inverse's diagonal entry of dof d: v' D^-1 v, v = L^-T e_d, which
 * is 0 but at d and the dofs above it. */
static double
inverse_diagonal(const struct mass *M, size_t d)
{
	size_t n = M->depth[d], m, l;
	double *v = phys_xcalloc(n, sizeof *v), s = 0;
	int *chain = phys_xcalloc(n, sizeof *chain), i;

	for (i = (int)d, m = 0; i >= 0; i = M->up[i], m++)
		chain[m] = i;
	for (m = 0; m < n; m++) {
		v[m] = m == 0;
		for (l = 0; l < m; l++)
			v[m] -= M->row[chain[l]][m - l] * v[l];
		s += v[m] * v[m] / M->row[chain[m]][0];
	}
	free(v);
	free(chain);
	return s;
}

/*
 * A position servo's dampratio: its damping the ratio times 2 sqrt(kp
 * m), m the mass its transmission moves: each joint's diagonal entry
 * over the square of the joint's motion per unit of the actuator's.
 */
static void
dampratios(struct reader *r, const struct mass *M)
{
	const double *m0 = M->m0;
	const struct mj_tendon *t;
	struct mj_act *a;
	double mass, g;
	size_t i, k;

	for (i = 0; i < r->nacts; i++) {
		a = &r->acts[i];
		if (!(a->dampratio > 0))
			continue;
		mass = 0;
		if (a->kind != ACT_TENDON) {
			mass = m0[M->first[a->joint]] / (a->gear * a->gear);
		} else {
			t = &r->tendons[a->tendon];
			for (k = 0; k < t->njoints; k++) {
				g = a->gear * t->coef[k];
				if (g * g > MIN_VAL)
					mass += m0[M->first[joint_find(r,
					    t->joint[k])]] / (g * g);
			}
		}
		a->bias[2] = -a->dampratio * 2 * sqrt(a->gain * mass);
		a->kd = -a->bias[2];
	}
}

/*
 * A joint's springdamper (time constant, damping ratio): its stiffness
 * and damping from the inertia the inverse's diagonal gives it, as
 * MuJoCo's compiler sets them, as its solref softens a constraint.
 */
static int
springdampers(struct reader *r, const struct mass *M, bool factored)
{
	struct mj_joint *j;
	double inertia, tc, ratio;
	size_t i;

	for (i = 0; i < r->njoints; i++) {
		j = &r->joints[i];
		tc = j->springdamper[0];
		ratio = j->springdamper[1];
		if (!(tc > 0 && ratio > 0))
			continue;
		if (!factored)
			return phys_failat(phys_doc_file(r->d, j->line),
			    phys_where_line(j->line), "joint '%s': "
			    "springdamper: the model's mass matrix is not "
			    "positive definite (a body without mass?)",
			    j->name ? j->name : "");
		inertia = 1 / fmax(MIN_VAL, inverse_diagonal(M,
		    M->first[i]));
		if (r->off & MJ_OFF_PASSIVE)
			continue;
		j->stiffness = inertia / fmax(MIN_VAL, tc * tc * ratio *
		    ratio);
		j->damping = 2 * inertia / fmax(MIN_VAL, tc);
	}
	return 0;
}

static bool
wanted(const struct reader *r)
{
	size_t i;

	for (i = 0; i < r->nacts; i++)
		if (r->acts[i].dampratio > 0)
			return true;
	for (i = 0; i < r->njoints; i++)
		if (r->joints[i].springdamper[0] > 0 &&
		    r->joints[i].springdamper[1] > 0)
			return true;
	return false;
}

int
phys_mjcf_from_qpos0(struct reader *r)
{
	struct mass M;
	bool factored;
	size_t i;
	int rc;

	if (!wanted(r))
		return 0;
	memset(&M, 0, sizeof M);
	build(r, &M);
	dampratios(r, &M);
	factored = factor(&M);
	rc = springdampers(r, &M, factored);
	for (i = 0; i < M.nv; i++)
		free(M.row[i]);
	free(M.row);
	free(M.m0);
	free(M.up);
	free(M.depth);
	free(M.dof);
	free(M.first);
	return rc;
}
