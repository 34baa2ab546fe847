/*
 * mjcf_coupling.c - an MJCF tendon equality as phys holds it (mjcfint.h):
 * a linear coupling of the fixed tendons' joints, one of them following
 * the rest (a mimic of several leaders), and any equality's softness,
 * read by the loader (mjcf.c) and written into the SDF it makes
 * (mjcf_sdf.c).
 */
#include "mjcfint.h"
#include "mjcf_defaults.h"

/* A joint of a tendon's that a coupling moves: a named hinge or slide. */
static int
coupled_joint(struct reader *r, xmlNodePtr n, const char *name)
{
	int j = name ? joint_find(r, name) : -1;

	if (j < 0)
		return mj_fail(r, n, "<tendon> equality: no joint '%s'",
		    name ? name : "");
	if (r->joints[j].type < MJ_SLIDE)
		return mj_fail(r, n, "%s", "<tendon> equality: between hinge "
		    "and slide joints only");
	return 0;
}

/* Term k of c gains a q: the joint's own, or a new one. */
static int
coupling_add(struct reader *r, xmlNodePtr n, struct mj_coupling *c,
    const char *joint, double a)
{
	int j = joint ? joint_find(r, joint) : -1, k;

	if (coupled_joint(r, n, joint) < 0)
		return -1;
	for (k = 0; k < c->n; k++)
		if (c->joint[k] == j) {
			c->coef[k] += a;
			return 0;
		}
	if (c->n == MJ_COUPLED_MAX)
		return mj_fail(r, n, "<tendon> equality of more than %d "
		    "joints: not read", MJ_COUPLED_MAX);
	c->joint[c->n] = j;
	c->coef[c->n++] = a;
	return 0;
}

/*
 * Which joint of c follows the others, put first: the first that
 * follows no other equality (each joint follows one coupling in phys,
 * as a mimic); the same one each time n is asked.
 */
static int
couple_follower(struct reader *r, xmlNodePtr n, struct mj_coupling *c)
{
	int k, j;
	double a;

	for (k = 0; k < c->n; k++)
		if (!r->joints[c->joint[k]].follows ||
		    r->joints[c->joint[k]].follows == n)
			break;
	if (k == c->n)
		return mj_fail(r, n, "%s", "<tendon> equality: each of its "
		    "joints follows another equality already; phys holds a "
		    "joint to one coupling as its follower");
	j = c->joint[k];
	a = c->coef[k];
	c->joint[k] = c->joint[0];
	c->coef[k] = c->coef[0];
	c->joint[0] = j;
	c->coef[0] = a;
	r->joints[j].follows = n;
	return 0;
}

/*
 * A tendon equality as phys holds it, a linear coupling of joints: of
 * fixed tendons, L1 = c0 + c1 L2 (first order), each L = sum coef q from
 * qpos0, is sum a_k q_k = c0 over their joints (one in both counted
 * once), the first joint of tendon1 following the others. Any other is
 * refused at n.
 */
int
phys_mjcf_tendon_terms(struct reader *r, xmlNodePtr n, struct mj_coupling *c)
{
	const char *n1 = own_attr(n, "tendon1"), *n2 = own_attr(n, "tendon2");
	int t1 = tendon_find(r, n1), t2 = tendon_find(r, n2), k, m;
	double poly[5] = { 0, 1, 0, 0, 0 };
	const struct mj_tendon *t;
	size_t i;

	memset(c, 0, sizeof *c);
	if (some_numbers(r, n, -1, "polycoef", poly, 1, 5) < 0)
		return -1;
	if (t1 < 0 || (n2 && t2 < 0))
		return mj_fail(r, n, "<tendon> equality: no tendon '%s'",
		    t1 < 0 ? (n1 ? n1 : "") : n2);
	if (poly[2] != 0 || poly[3] != 0 || poly[4] != 0)
		return mj_fail(r, n, "%s", "<tendon> equality of a polynomial "
		    "above first order: not read");
	if (!r->tendons[t1].fixed || (n2 && !r->tendons[t2].fixed))
		return mj_fail(r, n, "%s", "<tendon> equality: phys reads one "
		    "of fixed tendons only, as a coupling of their joints; "
		    "this one is not read, and it changes how the model "
		    "moves");
	for (k = 0; k < (n2 ? 2 : 1); k++) {
		t = &r->tendons[k ? t2 : t1];
		for (i = 0; i < t->njoints; i++)
			if (coupling_add(r, n, c, t->joint[i], k ? -poly[1] *
			    t->coef[i] : t->coef[i]) < 0)
				return -1;
	}
	c->c0 = poly[0];
	for (k = m = 0; k < c->n; k++)	/* terms that cancel out go */
		if (c->coef[k] != 0) {
			c->joint[m] = c->joint[k];
			c->coef[m++] = c->coef[k];
		}
	c->n = m;
	if (c->n < 2)
		return mj_fail(r, n, "%s", "<tendon> equality that holds "
		    "fewer than two joints: not read");
	return couple_follower(r, n, c);
}

int
phys_mjcf_equality_softness(struct reader *r, xmlNodePtr n, double ref[2],
    double imp[5])
{
	const char *name = own_attr(n, "class");
	int cls = name ? class_find(r, name) : r->main;

	memcpy(ref, phys_mjcf_solref, 2 * sizeof *ref);
	memcpy(imp, phys_mjcf_solimp, 5 * sizeof *imp);
	return some_numbers(r, n, cls, "solref", ref, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimp", imp, 1, 5) < 0 ? -1 : 0;
}
