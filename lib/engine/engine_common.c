/* engine_common.c - what every engine module computes the same way. */
#include "engine_common.h"

#include <ccd/ccd.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "excludes.h"
#include "inertia_follow.h"
#include "mesh.h"
#include "meshgrid.h"
#include "inertia_world.h"
#include "pairs.h"
#include "touch.h"
#include "inertia.h"
#include "mem.h"
#include "msg.h"

int
phys_engine_collision(const struct phys_collision *c,
    const struct phys_value *vals, struct phys_collision *out,
    struct phys_mesh **mesh)
{
	struct phys_collision hull;

	if (!c->hull)
		return phys_collision_sized(c, vals, out, mesh);
	hull = *c;
	hull.mesh = c->hull;	/* scaled as the mesh would be */
	return phys_collision_sized(&hull, vals, out, mesh);
}

void
phys_coupling_slip_note(const char *engine, const char *joint, double gap)
{
	phys_warn("joint '%s': its coupling (mimic) is %.2g off: %s holds "
	    "a coupling by a force from each link's own inertia, which "
	    "does not hold joints of light links under load; MuJoCo, DART "
	    "and Simbody hold it as a constraint", joint, fabs(gap), engine);
}

/* Integers above this do not all have a double. */
#define EXACT_INT 9007199254740992.0	/* 2^53 */

/* Whether x is within rounding of a whole number, which *m gets. */
static bool
whole(double x, double *m)
{
	*m = round(x);
	return x >= 0 && x < EXACT_INT / 1024 && fabs(x - *m) <= 1e-15 * x;
}

/* h as the fraction p/q, q being a whole number of steps a second (1/h)
 * or a power of ten: false when it is neither. */
static bool
step_fraction(double h, double *p, double *q)
{
	double d;

	if (whole(1 / h, q) && *q > 0) {
		*p = 1;
		return true;
	}
	for (d = 10; d <= 1e9; d *= 10)
		if (whole(h * d, p) && *p > 0) {
			*q = d;
			return true;
		}
	return false;
}

/*
 * Time counts in whole steps: base, itself such a count made by an
 * earlier step size (or 0), is m/D for D the new step's q times a power
 * of ten, and n steps of p/q later the time is (m + n p D/q) / D, one
 * division of whole numbers, which is the double nearest that decimal:
 * 1.5 s and 140 steps of 1/1000 s give 1.64, not 1.6400000000000001.
 */
double
phys_engine_clock(double base, long n, double h)
{
	double p, q, d, m, num;

	if (step_fraction(h, &p, &q))
		for (d = q; d <= q * 1e6; d *= 10)
			if (whole(base * d, &m)) {
				num = m + (double)n * p * (d / q);
				if (num < EXACT_INT && (double)n * p < EXACT_INT)
					return num / d;
				break;
			}
	return base + (double)n * h;
}

double
phys_joint_spring_damper(const struct phys_value *v, int k, double pos,
    double vel)
{
	struct phys_axis_values a = phys_joint_axis_values(v, k);

	return -a.damping * vel - a.stiffness * (pos - a.reference);
}

static double
axis_damping(const struct phys_value *v, int k)
{
	return phys_joint_axis_values(v, k).damping;
}

static double
axis_stiffness(const struct phys_value *v, int k)
{
	return phys_joint_axis_values(v, k).stiffness;
}

/*
 * The damping a step can take: -d v takes h inv d of the rate in one
 * step, all of it at d = 1 / (h inv). Above that the explicit force would
 * reverse the motion (and above twice that, grow it), so it is held
 * there: the motion stops within the step, as the damping would have it,
 * and no further. Below, the force is Gazebo's, unchanged.
 */
static double
damping_within_step(double d, double inv_inertia, double h)
{
	if (inv_inertia > 0 && d * h * inv_inertia > 1)
		return 1 / (h * inv_inertia);
	return d;
}

/* Link li's turn as loaded; the world's for -1. */
static phys_quat
loaded_turn(const struct phys_scene *sc, int li)
{
	return li < 0 ? PHYS_QUAT_IDENTITY : sc->links[li].pose.q;
}

double
phys_ball_turn(const struct phys_scene *sc, int ji, phys_quat child,
    phys_quat parent, phys_vec3 *axis)
{
	const struct phys_joint *j = &sc->joints[ji];
	/* where the child would be, its parent where it is */
	phys_quat rest = phys_quat_mul(parent, phys_quat_mul(phys_quat_conj(
	    loaded_turn(sc, j->parent)), loaded_turn(sc, j->child)));
	phys_quat d = phys_quat_normalize(phys_quat_mul(child,
	    phys_quat_conj(rest)));
	phys_vec3 u = v3(d.x, d.y, d.z);
	double s = v3_norm(u);

	if (!(s > 0)) {
		*axis = v3(1, 0, 0);
		return 0;
	}
	/* the shorter way round: q and -q are the same turn */
	*axis = v3_scale(u, (d.w < 0 ? -1 : 1) / s);
	return 2 * atan2(s, fabs(d.w));
}

phys_vec3
phys_ball_torque(const struct phys_scene *sc, int ji,
    const struct phys_value *v, phys_quat child, phys_quat parent,
    phys_vec3 w, double inv_inertia, double h)
{
	struct phys_axis_values a = phys_joint_axis_values(v, 0);
	phys_vec3 axis;
	double turn = phys_ball_turn(sc, ji, child, parent, &axis);

	return v3_add(v3_scale(w, -damping_within_step(a.damping,
	    inv_inertia, h)), v3_scale(axis, -a.stiffness * turn));
}

bool
phys_joint_damping_within_step(const struct phys_value *v, int k,
    double inv_bound, double h)
{
	return !(axis_damping(v, k) * h * inv_bound > 1);
}

double
phys_joint_spring_damper_stable(const struct phys_value *v, int k,
    double pos, double vel, double inv_inertia, double h)
{
	return phys_joint_spring_damper(v, k, pos, 0) -
	    damping_within_step(axis_damping(v, k), inv_inertia, h) * vel;
}

double
phys_joint_spring_damper_implicit(const struct phys_value *v, int k,
    double pos, double vel, double inv_inertia, double h)
{
	double spring = phys_joint_spring_damper(v, k, pos, 0);
	double kp = axis_stiffness(v, k);
	/* the spring on where the step ends: -k (x + h v') */
	double rate = (vel + h * inv_inertia * spring) /
	    (1 + h * h * kp * inv_inertia);

	return spring - h * kp * rate -
	    damping_within_step(axis_damping(v, k), inv_inertia, h) * vel;
}

bool
phys_joint_needs_inverse_inertia(const struct phys_value *v, int k,
    enum phys_joint_springs how, double inv_bound, double h)
{
	return (how == PHYS_SPRINGS_ROW && axis_stiffness(v, k) != 0) ||
	    !phys_joint_damping_within_step(v, k, inv_bound, h);
}

enum phys_joint_springs
phys_joint_springs(const struct phys_value *v)
{
	if (PVB(v, JOINT_physics_ode_implicit_spring_damper))
		return PHYS_SPRINGS_ROW;
	if (PVB(v, JOINT_physics_ode_cfm_damping))
		return PHYS_SPRINGS_DAMPING_ROW;
	return PHYS_SPRINGS_FORCE;
}

bool
phys_joint_spring_row(const struct phys_value *v, int k, double h,
    bool with_spring, double *erp, double *cfm)
{
	double kp = with_spring ? axis_stiffness(v, k) : 0;
	double kd = axis_damping(v, k);

	if (!(h * kp + kd > 0))
		return false;
	phys_spring_erp_cfm(kp, kd, h, erp, cfm);
	return true;
}

/* Links lighter than this are what solvers lose first beside others. */
#define PHYS_LIGHT_LINK 1e-6

static char *
light_link(const struct phys_scene *w, const struct phys_run_values *v)
{
	const struct phys_link *l;
	double m, least = 0;
	size_t i, at = 0;

	for (i = 0; i < w->nlinks; i++) {
		l = &w->links[i];
		m = PVD(phys_run_values_get(v, PHYS_S_LINK, (int)i),
		    LINK_inertial_mass);
		if (w->models[l->model].is_static || !(m > 0) ||
		    m >= PHYS_LIGHT_LINK || (least > 0 && m >= least))
			continue;
		least = m;
		at = i;
	}
	if (!(least > 0))
		return NULL;
	return phys_xasprintf("; likely cause: link '%s' weighs %g kg (%s:%ld), "
	    "below %g kg: beside heavier links, solvers lose a link that "
	    "light first (give it its real mass, or fix it to its parent)",
	    w->links[at].name, least, PHYS_AT(w->links[at].doc,
	    w->links[at].node), PHYS_LIGHT_LINK);
}

/* Principal moments further apart than this make a link thin about one
 * axis beyond any real part's (a rod 55 times as long as its radius is
 * 500): what solvers lose next. */
#define PHYS_THIN_LINK 1000

static char *
thin_link(const struct phys_scene *w, const struct phys_run_values *v)
{
	const struct phys_value *lv;
	double m[3], spread, most = 0, lo = 0, hi = 0;
	size_t i, at = 0;
	phys_mat3 R;

	for (i = 0; i < w->nlinks; i++) {
		lv = phys_run_values_get(v, PHYS_S_LINK, (int)i);
		if (w->models[w->links[i].model].is_static ||
		    phys_inertia_principal(phys_inertia_make(1,
		    PVD(lv, LINK_inertial_inertia_ixx),
		    PVD(lv, LINK_inertial_inertia_iyy),
		    PVD(lv, LINK_inertial_inertia_izz),
		    PVD(lv, LINK_inertial_inertia_ixy),
		    PVD(lv, LINK_inertial_inertia_ixz),
		    PVD(lv, LINK_inertial_inertia_iyz)).I, m, &R) < 0 ||
		    !(m[0] > 0))
			continue;
		spread = m[2] / m[0];
		if (spread > PHYS_THIN_LINK && spread > most) {
			most = spread;
			lo = m[0], hi = m[2];
			at = i;
		}
	}
	if (most == 0)
		return NULL;
	return phys_xasprintf("; likely cause: link '%s' (%s:%ld) has "
	    "principal moments from %g to %g kg m^2, %.0f times apart: "
	    "beside its neighbours, solvers lose a link that thin about one "
	    "axis first (phys-inertia check judges it against its shapes; "
	    "phys-inertia fix gives it theirs)", w->links[at].name,
	    PHYS_AT(w->links[at].doc, w->links[at].node), lo, hi, most);
}

/* A spring explicit over the step needs k h^2 / I below 4 (I: the
 * child's smallest moment, or its mass for a slide). */
static char *
stiff_spring(const struct phys_scene *w, const struct phys_run_values *v,
    double h)
{
	const struct phys_value *jv, *cv;
	const struct phys_joint *j;
	double k, in;
	size_t i;
	int a;

	for (i = 0; i < w->njoints; i++) {
		j = &w->joints[i];
		jv = phys_run_values_get(v, PHYS_S_JOINT, (int)i);
		cv = phys_run_values_get(v, PHYS_S_LINK, j->child);
		if (phys_joint_springs(jv) == PHYS_SPRINGS_ROW)
			continue;
		in = j->type == PHYS_JOINT_PRISMATIC ?
		    PVD(cv, LINK_inertial_mass) :
		    fmin(PVD(cv, LINK_inertial_inertia_ixx),
		    fmin(PVD(cv, LINK_inertial_inertia_iyy),
		    PVD(cv, LINK_inertial_inertia_izz)));
		for (a = 0; a < 2; a++) {
			k = axis_stiffness(jv, a);
			if (k > 0 && (!(in > 0) || k * h * h / in > 4))
				return phys_xasprintf("; likely cause: joint "
				    "'%s' (%s:%ld) has a spring of %g on a "
				    "link of inertia %g, which a step of %g s "
				    "cannot integrate as a force (below %.3g s "
				    "it can; physics.ode.implicit_spring_damper "
				    "integrates it at any step)", j->name,
				    PHYS_AT(j->doc, j->node), k,
				    in, h, in > 0 ? 2 * sqrt(in / k) : 0.0);
		}
	}
	return NULL;
}

char *
phys_divergence_cause(const struct phys_scene *w,
    const struct phys_run_values *v, double h)
{
	char *why = light_link(w, v);

	if (!why)
		why = thin_link(w, v);
	if (!why)
		why = stiff_spring(w, v, h);
	return why ? why : phys_xstrdup("");
}

bool
phys_turned_from(double pos, double zero)
{
	return fabs(pos - zero) > PHYS_QUARTER_TURN;
}

bool
phys_stop_in_reach(double limit, double zero)
{
	return fabs(limit - zero) <= M_PI;
}

phys_pose
phys_kinematic_step(phys_pose p, phys_vec3 lin, phys_vec3 ang, double h)
{
	double a = v3_norm(ang) * h;

	p.p = v3_add(p.p, v3_scale(lin, h));
	if (a > 0)
		p.q = phys_quat_normalize(phys_quat_mul(phys_quat_about(
		    v3_normalize(ang), a), p.q));
	return p;
}

/* A velocity (turn: an angular one) set from outside, as
 * phys_check_state_set says. */
static int
rate_set(const char *what, phys_vec3 v, bool turn)
{
	double size = v3_size(v);

	if (!isfinite(v.x + v.y + v.z))
		return phys_fail("%s: %g %g %g is not finite", what, v.x, v.y,
		    v.z);
	if (turn && size > PHYS_FASTEST_TURN)
		return phys_fail("%s: %g rad/s is faster than any body turns "
		    "(%g rad/s)", what, size, PHYS_FASTEST_TURN);
	if (!turn && size > PHYS_FASTEST)
		return phys_fail("%s: %g m/s is faster than any body moves "
		    "(light's %.9g m/s)", what, size, PHYS_FASTEST);
	return 0;
}

int
phys_check_state_set(const char *what, const phys_vec3 *pos,
    const phys_vec3 *lin, const phys_vec3 *ang)
{
	double p[3];
	int k;

	if (pos) {
		p[0] = pos->x, p[1] = pos->y, p[2] = pos->z;
		for (k = 0; k < 3; k++)
			if (!(fabs(p[k]) <= PHYS_REACH))
				return phys_fail("%s: %g m along %c is farther "
				    "than phys places a body (%g m from the "
				    "origin along each axis)", what, p[k],
				    "xyz"[k], PHYS_REACH);
	}
	if (lin && rate_set(what, *lin, false) < 0)
		return -1;
	return ang ? rate_set(what, *ang, true) : 0;
}

int
phys_check_body(const struct phys_scene *w, const struct phys_run_values *v,
    double h, int link, phys_vec3 pos, phys_quat q, phys_vec3 vel,
    phys_vec3 angvel, double t)
{
	char *why;
	int rc;

	if (isfinite(pos.x + pos.y + pos.z + q.w + q.x + q.y + q.z + vel.x +
	    vel.y + vel.z + angvel.x + angvel.y + angvel.z) &&
	    fabs(pos.x) + fabs(pos.y) + fabs(pos.z) <= PHYS_FARTHEST &&
	    v3_dot(vel, vel) <= PHYS_FASTEST * PHYS_FASTEST &&
	    v3_dot(angvel, angvel) <= PHYS_FASTEST_TURN * PHYS_FASTEST_TURN)
		return 0;
	why = phys_divergence_cause(w, v, h);
	if (isfinite(pos.x + pos.y + pos.z + q.w + q.x + q.y + q.z + vel.x +
	    vel.y + vel.z + angvel.x + angvel.y + angvel.z) &&
	    fabs(pos.x) + fabs(pos.y) + fabs(pos.z) <= PHYS_FARTHEST)
		rc = phys_fail("simulation diverged: body '%s' moves at %.3g m/s "
		    "and %.3g rad/s at t=%.9g, faster than any body%s",
		    w->links[link].name, v3_norm(vel), v3_norm(angvel), t, why);
	else
		rc = phys_fail("simulation diverged: body '%s' has a non-finite "
		    "state at t=%.9g%s", w->links[link].name, t, why);
	free(why);
	return rc;
}

void
phys_link_values_mass(const struct phys_value *v, double *mass,
    double inertia[6])
{
	*mass = PVD(v, LINK_inertial_mass);
	inertia[0] = PVD(v, LINK_inertial_inertia_ixx);
	inertia[1] = PVD(v, LINK_inertial_inertia_iyy);
	inertia[2] = PVD(v, LINK_inertial_inertia_izz);
	inertia[3] = PVD(v, LINK_inertial_inertia_ixy);
	inertia[4] = PVD(v, LINK_inertial_inertia_ixz);
	inertia[5] = PVD(v, LINK_inertial_inertia_iyz);
}

/*
 * A massless link (mass 0 is valid SDF) runs with PHYS_MASSLESS_SHARE of
 * the mass of the lightest link of its model that has one (as the run's
 * values rv give them, or the file's when rv is NULL), or of 1 kg when
 * none has.
 */
static double
stand_in_mass(const struct phys_scene *w, const struct phys_run_values *rv,
    int li)
{
	const struct phys_value *v;
	double m, least = 0;
	size_t i;

	if (!rv)	/* as loaded: found once, at load */
		return phys_link_stand_in_mass(w, li);
	for (i = 0; i < w->nlinks; i++) {
		if (w->links[i].model != w->links[li].model)
			continue;
		v = rv ? phys_run_values_get(rv, PHYS_S_LINK, (int)i) :
		    w->links[i].vals;
		m = PVD(v, LINK_inertial_mass);
		if (m > 0 && (least == 0 || m < least))
			least = m;
	}
	return PHYS_MASSLESS_SHARE * (least > 0 ? least : 1);
}

/*
 * A link the world holds still moves nothing by its mass: one massless,
 * or lighter than PHYS_MASSLESS_SHARE of its model's heaviest link as
 * loaded (a base of a tiny mesh), runs with that link's mass and inertia
 * (1 kg and 0.01 kg m^2 when none has one), under every engine and
 * without a word, as a light link that carries heavy ones is one an
 * engine holds badly (Bullet's iterative solver let such a base swing;
 * ODE lost one of 1e-10 kg at the first step).
 */
static void
welded_stand_in(const struct phys_scene *w, const struct phys_run_values *rv,
    int li, double *mass, double given[6])
{
	int h = w->models[w->links[li].model].heaviest, k;
	const struct phys_value *v = h < 0 ? NULL : rv ?
	    phys_run_values_get(rv, PHYS_S_LINK, h) : w->links[h].vals;

	if (!(*mass >= 0) || (*mass > 0 && (!v ||
	    *mass >= PHYS_MASSLESS_SHARE * PVD(v, LINK_inertial_mass))))
		return;		/* refused as it is, or heavy enough */
	if (v) {
		phys_link_values_mass(v, mass, given);
		return;
	}
	*mass = 1;
	for (k = 0; k < 6; k++)
		given[k] = k < 3 ? 0.01 : 0;
}

/* The mass a link runs with: a file's 0 replaced when the engine takes a
 * stand-in then (said with its inertia's stand-in when it has none, the
 * one fault of a link that holds nothing); -1 when it is not positive. */
static int
run_mass(const struct phys_scene *w, const struct phys_run_values *rv,
    int li, const struct phys_mass_rules *r, bool at_load, long line,
    bool warn, bool no_inertia, double *mass)
{
	const struct phys_link *l = &w->links[li];
	const char *file = at_load ? phys_node_file(l->doc, l->node) :
	    NULL;
	char moments[80] = "";

	if (*mass == 0 && (r->stand_in == PHYS_STAND_IN_ALWAYS ||
	    (r->stand_in == PHYS_STAND_IN_AT_LOAD && at_load))) {
		/* Only a file gives 0: a user's 0 is refused before. */
		*mass = stand_in_mass(w, r->stand_in_from_run ? rv : NULL, li);
		if (no_inertia)
			snprintf(moments, sizeof moments, " and each "
			    "principal moment mass * (%g m)^2",
			    PHYS_MIN_GYRATION);
		if (warn)
			phys_warnat(file, line, "link '%s': mass 0%s, which "
			    "Gazebo refuses on a moving link; run with mass %g "
			    "kg (1/1000 of its model's lightest link, or of 1 "
			    "kg)%s", l->name, no_inertia ? " and no inertia" :
			    "", *mass, moments);
	}
	if (!(*mass > 0))
		return phys_failat(file, line, "link '%s': mass must be "
		    "positive, not %g (Gazebo refuses it too)", l->name, *mass);
	return 0;
}

/* The verdict on the tensor in: its warning at load, or its refusal. */
static int
judge_inertia(const struct phys_link *l, const phys_inertia *in,
    const struct phys_mass_rules *r, bool at_load, long line, bool warn,
    enum phys_inertia_fault *fault)
{
	const char *file = at_load ? phys_node_file(l->doc, l->node) :
	    NULL;
	struct phys_inertia_verdict v;

	switch (*fault = phys_inertia_validate(in, &v)) {
	case PHYS_INERTIA_NOT_FINITE:
		return phys_failat(file, line, "link '%s': %s", l->name,
		    v.reason);
	case PHYS_INERTIA_NOT_POSITIVE:
		if (!at_load)
			return phys_fail("link '%s': inertia is not positive "
			    "definite (phys-inertia check explains, "
			    "phys-inertia fix repairs)", l->name);
		if (warn)
			phys_warnat(file, line, "link '%s': inertia %s; run "
			    "with each principal moment at least mass * "
			    "(%g m)^2%s%s", l->name, v.reason,
			    PHYS_MIN_GYRATION, r->not_positive_note ?
			    r->not_positive_note : "",
			    phys_link_sdformat_note(l, in));
		return 0;
	case PHYS_INERTIA_TRIANGLE:
		if (!warn)
			return 0;
		if (r->form == PHYS_INERTIA_RIGID)
			phys_warnat(file, line, "link '%s': inertia %s: no "
			    "rigid body has it, and %s refuses it; run with "
			    "its smaller principal moments raised to meet the "
			    "largest (phys-inertia fix repairs it)%s", l->name,
			    v.reason, r->engine,
			    phys_link_sdformat_note(l, in));
		else
			phys_warnat(file, line, "link '%s': inertia %s: no "
			    "rigid body has it; run as written (phys-inertia "
			    "fix repairs it)%s", l->name, v.reason,
			    phys_link_sdformat_note(l, in));
		return 0;
	default:
		if (warn && at_load && phys_link_sdformat_refuses(l, in)) {
			char msg[512];

			phys_warnat(file, line, "%s",
			    phys_link_sdformat_only(l, &v, msg, sizeof msg));
		}
		return 0;
	}
}

/* R diag(mo) R'. */
static phys_mat3
from_principal(phys_mat3 R, const double mo[3])
{
	phys_mat3 D = { { { 0 } } };
	int k;

	for (k = 0; k < 3; k++)
		D.m[k][k] = mo[k];
	return phys_mat3_mul(phys_mat3_mul(R, D), phys_mat3_transpose(R));
}

/* The tensor's form for the engine, from the verdict fault. */
static int
shape_inertia(const struct phys_link *l, const phys_inertia *in,
    const struct phys_mass_rules *r, enum phys_inertia_fault fault,
    const char *file, long line, struct phys_link_mass *out)
{
	double floor = out->mass * PHYS_MIN_GYRATION * PHYS_MIN_GYRATION;
	double *mo = out->moments, lift;
	const double *g = out->given;
	phys_mat3 R = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
	int k;

	out->tensor = in->I;
	if (r->form == PHYS_INERTIA_AS_WRITTEN &&
	    fault != PHYS_INERTIA_NOT_POSITIVE)
		return 0;
	if (r->form == PHYS_INERTIA_PRINCIPAL && g[3] == 0 && g[4] == 0 &&
	    g[5] == 0) {
		/* already principal: the inertial frame as it is */
		mo[0] = g[0], mo[1] = g[1], mo[2] = g[2];
	} else {
		if (phys_inertia_principal(in->I, mo, &R) < 0)
			return phys_failat(file, line, "link '%s': inertia "
			    "has no principal axes", l->name);
		if (r->form == PHYS_INERTIA_PRINCIPAL)
			out->frame.q = phys_quat_normalize(phys_quat_mul(
			    out->frame.q, phys_mat3_to_quat(R)));
	}
	for (k = 0; k < 3; k++)
		mo[k] = fmax(mo[k], floor);
	/* Ascending: the two smaller must add up to the largest. */
	if (r->form == PHYS_INERTIA_RIGID &&
	    mo[0] + mo[1] < mo[2] * (1 + 1e-9)) {
		lift = (mo[2] * (1 + 1e-9) - mo[0] - mo[1]) / 2;
		mo[0] += lift, mo[1] += lift;
	}
	if (r->form != PHYS_INERTIA_PRINCIPAL)
		out->tensor = from_principal(R, mo);
	return 0;
}

/* The tensor an engine gets, its principal moments within r's spread. */
static int
spread_within(const struct phys_link *l, const struct phys_mass_rules *r,
    const char *file, long line, const struct phys_link_mass *out)
{
	double m[3], lo, hi;
	phys_mat3 R;

	if (r->spread == 0 || r->form == PHYS_INERTIA_PRINCIPAL)
		return 0;
	if (phys_inertia_principal(out->tensor, m, &R) < 0)
		return phys_failat(file, line, "link '%s': inertia has no "
		    "principal axes", l->name);
	lo = fmin(m[0], fmin(m[1], m[2]));
	hi = fmax(m[0], fmax(m[1], m[2]));
	if (hi <= r->spread * lo)
		return 0;
	return phys_failat(file, line, "link '%s': %s runs inertia whose "
	    "principal moments lie within a factor %g of each other, not %g "
	    "to %g kg m^2", l->name, r->engine, r->spread, lo, hi);
}

int
phys_heightmaps_within(const struct phys_scene *w, size_t most,
    const char *engine)
{
	const struct phys_collision *c;
	const struct phys_heightmap *hm;
	size_t i, n = 0;

	for (i = 0; i < w->ncollisions; i++) {
		c = &w->collisions[i];
		if (c->shape != PHYS_GEOM_HEIGHTMAP || !(hm = c->heightmap) ||
		    (n += hm->nx * hm->ny) <= most)
			continue;
		if (n == hm->nx * hm->ny)
			return phys_failat(PHYS_AT(c->doc, c->node),
			    "collision '%s': a heightmap of %zu x %zu samples; "
			    "the %s engine takes at most %zu (a smaller image "
			    "or <sampling>, or ODE or Bullet)", c->name, hm->nx,
			    hm->ny, engine, most);
		return phys_failat(PHYS_AT(c->doc, c->node), "collision '%s': "
		    "the world's heightmaps have %zu samples with this one; "
		    "the %s engine takes at most %zu together (smaller images "
		    "or <sampling>, or ODE or Bullet)", c->name, n, engine,
		    most);
	}
	return 0;
}

/* The link that is the nth of the world's moving links, counted from 0. */
static const struct phys_link *
moving_link(const struct phys_scene *w, size_t nth)
{
	size_t i;

	for (i = 0; i < w->nlinks; i++)
		if (!w->models[w->links[i].model].is_static && nth-- == 0)
			return &w->links[i];
	return NULL;
}

int
phys_links_within_room(const struct phys_scene *w, double per_link,
    const char *engine)
{
	const struct phys_link *l;
	double left, limit;
	size_t i, n = 0;
	char said[128];

	for (i = 0; i < w->nlinks; i++)
		n += !w->models[w->links[i].model].is_static;
	if (phys_mem_fits((double)n * per_link, &left, &limit) ||
	    !(l = moving_link(w, (size_t)(left / per_link))))
		return 0;
	return phys_failat(PHYS_AT(l->doc, l->node), "link '%s': the %s "
	    "engine would take about %.0f MB for the world's %zu moving links "
	    "(%.0f kB each), more than %s: raise the limit, or run it under "
	    "ODE or Bullet", l->name, engine, ceil(n * per_link / 1048576), n,
	    per_link / 1024, phys_mem_left_text(said, sizeof said, left,
	    limit));
}

long
phys_link_inertial_line(const struct phys_link *l)
{
	long line = phys_node_line(phys_path_find(l->node, "inertial"));

	return line ? line : phys_node_line(l->node);
}

int
phys_link_mass_prepare(const struct phys_scene *w,
    const struct phys_run_values *rv, int li, const struct phys_mass_rules *r,
    bool at_load, long line, bool quiet, struct phys_link_mass *out)
{
	const struct phys_link *l = &w->links[li];
	const struct phys_value *v = phys_run_values_get(rv, PHYS_S_LINK, li);
	const char *file = at_load ? phys_node_file(l->doc, l->node) :
	    NULL;
	/* a link the world holds still moves the same whatever its mass */
	bool warn = at_load && !quiet && !l->welded;
	enum phys_inertia_fault fault;
	const double *g = out->given;
	phys_inertia in;
	bool none;
	int k;

	if (!at_load)
		line = -1;
	phys_link_values_mass(v, &out->mass, out->given);
	if (l->welded)
		welded_stand_in(w, rv, li, &out->mass, out->given);
	out->frame = phys_pose_from6(PV(v, LINK_inertial_pose)->u.pose);
	/* no mass and no inertia: one warning says both stand-ins */
	none = out->mass == 0 && g[0] == 0 && g[1] == 0 && g[2] == 0 &&
	    g[3] == 0 && g[4] == 0 && g[5] == 0;
	if (run_mass(w, rv, li, r, at_load, line, warn, none, &out->mass) < 0)
		return -1;
	if (none && out->mass > 0)
		warn = false;
	for (k = 0; r->range > 0 && k < 6; k++)
		if (!(out->mass <= r->range && fabs(g[k]) <= r->range))
			return phys_failat(file, line, "link '%s': %s runs "
			    "masses and moments up to %g", l->name, r->engine,
			    r->range);
	if (r->range > 0 && !(out->mass >= 1 / r->range))
		return phys_failat(file, line, "link '%s': %s runs masses "
		    "from %g kg, not %g", l->name, r->engine, 1 / r->range,
		    out->mass);
	in = phys_inertia_make(out->mass, g[0], g[1], g[2], g[3], g[4], g[5]);
	if (!at_load && r->judged_later_by_engine) {
		out->tensor = in.I;
		return 0;
	}
	if (judge_inertia(l, &in, r, at_load, line, warn, &fault) < 0 ||
	    shape_inertia(l, &in, r, fault, file, line, out) < 0)
		return -1;
	return spread_within(l, r, file, line, out);
}

/* ---- massless links riding on welded ones ---- */

/* Whether link li, massless, may ride on a link it is welded to. */
static bool
may_ride(const struct phys_scene *w, const struct phys_run_values *rv,
    int li)
{
	const struct phys_link *l = &w->links[li];
	const struct phys_value *v = phys_run_values_get(rv, PHYS_S_LINK, li);

	return !w->models[l->model].is_static && !l->welded &&
	    PVD(v, LINK_inertial_mass) == 0 && !PVB(v, LINK_kinematic);
}

/* Whether link li is a body of its own a rider may ride. */
static bool
own_body(const struct phys_scene *w, const struct phys_run_values *rv,
    int li)
{
	const struct phys_link *l = &w->links[li];

	return !w->models[l->model].is_static && (l->welded ||
	    PVD(phys_run_values_get(rv, PHYS_S_LINK, li),
	    LINK_inertial_mass) != 0);
}

/* Each link's fixed joint to a parent it may ride on, -1 for none. */
static int *
seats(const struct phys_scene *w, const struct phys_run_values *rv)
{
	int *seat = phys_xmalloc(w->nlinks * sizeof *seat);
	const struct phys_joint *j;
	size_t i;

	for (i = 0; i < w->nlinks; i++)
		seat[i] = -1;
	for (i = 0; i < w->njoints; i++) {
		j = &w->joints[i];
		if (j->type == PHYS_JOINT_FIXED && j->child >= 0 &&
		    j->parent >= 0 && j->child != j->parent &&
		    seat[j->child] < 0 && may_ride(w, rv, j->child))
			seat[j->child] = (int)i;
	}
	return seat;
}

/* The rider on side k (0: parent, 1: child) of joint ji that lists it:
 * -1 when that side is no rider, or the joint is its seat. */
static int
listing_rider(const struct phys_scene *w, const struct phys_rider *out,
    size_t ji, int k)
{
	const struct phys_joint *j = &w->joints[ji];
	int li = k ? j->child : j->parent;

	if (li < 0 || j->child < 0 || out[li].host < 0 ||
	    out[li].seat == (int)ji || (k == 0 && j->child == j->parent))
		return -1;
	return li;
}

/* The link on side k (0: parent, 1: child) of joint ji that lists the
 * joint among its own, or -1. */
typedef int side_fn(const struct phys_scene *w, const void *ctx, size_t ji,
    int k);

/* Each link's joints as side lists them: list[first[li] .. first[li +
 * 1]), first of nlinks + 1; counted, then placed, in time linear in the
 * links and joints. The list is the caller's to free. */
static int *
joints_by_link(const struct phys_scene *w, side_fn *side, const void *ctx,
    int *first)
{
	int *list = phys_xmalloc((2 * w->njoints + 1) * sizeof *list);
	int *next = phys_xcalloc(w->nlinks + 1, sizeof *next);
	size_t i;
	int k, li;

	for (i = 0; i <= w->nlinks; i++)
		first[i] = 0;
	for (i = 0; i < w->njoints; i++)
		for (k = 0; k < 2; k++)
			if ((li = side(w, ctx, i, k)) >= 0)
				first[li + 1]++;
	for (i = 0; i < w->nlinks; i++) {
		first[i + 1] += first[i];
		next[i] = first[i];
	}
	for (i = 0; i < w->njoints; i++)
		for (k = 0; k < 2; k++)
			if ((li = side(w, ctx, i, k)) >= 0)
				list[next[li]++] = (int)i;
	free(next);
	return list;
}

static int
rider_side(const struct phys_scene *w, const void *ctx, size_t ji, int k)
{
	return listing_rider(w, ctx, ji, k);
}

/* The other joints each rider is a side of, listed by rider. */
static int *
rider_joints(const struct phys_scene *w, struct phys_rider *out)
{
	int *first = phys_xmalloc((w->nlinks + 1) * sizeof *first);
	int *list = joints_by_link(w, rider_side, out, first);
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		out[i].first = first[i];
		out[i].n = first[i + 1] - first[i];
	}
	free(first);
	return list;
}

/*
 * Each link walks up its seats until a link already decided, one that is
 * a body of its own, or one without a seat; every link on the way rides
 * on what that one rides on, or on it, within PHYS_MAX_RIDE_DEPTH.
 */
int *
phys_find_riders(const struct phys_scene *w, const struct phys_run_values *rv,
    struct phys_rider *out)
{
	int *seat = seats(w, rv), *path, *depth, *joints;
	char *state = phys_xcalloc(w->nlinks ? w->nlinks : 1, 1);
	size_t i, n;
	int k, host, d;

	path = phys_xmalloc((w->nlinks + 1) * sizeof *path);
	depth = phys_xcalloc(w->nlinks + 1, sizeof *depth);
	for (i = 0; i < w->nlinks; i++)
		out[i] = (struct phys_rider){ -1, -1, PHYS_POSE_IDENTITY, 0, 0 };
	for (i = 0; i < w->nlinks; i++) {
		n = 0;
		/* 1: on this walk; 2: decided */
		for (k = (int)i; state[k] == 0 && seat[k] >= 0;
		    k = w->joints[seat[k]].parent) {
			state[k] = 1;
			path[n++] = k;
		}
		host = -1, d = 0;
		if (state[k] == 2 && out[k].host >= 0)
			host = out[k].host, d = depth[k];	/* below a rider */
		else if (state[k] != 1 && own_body(w, rv, k))
			host = k;	/* state 1: a loop of seats */
		while (n > 0) {
			k = path[--n];
			state[k] = 2;
			if (host < 0 || ++d > PHYS_MAX_RIDE_DEPTH)
				continue;
			depth[k] = d;
			out[k].host = host;
			out[k].seat = seat[k];
			out[k].in_host = phys_pose_mul(phys_pose_inv(
			    w->links[host].pose), w->links[k].pose);
		}
		state[i] = 2;
	}
	joints = rider_joints(w, out);
	free(seat);
	free(state);
	free(path);
	free(depth);
	return joints;
}

void
phys_rider_moments(const struct phys_run_values *rv, int li,
    const struct phys_rider *r, phys_quat q, phys_mat3 *I)
{
	const struct phys_value *v = phys_run_values_get(rv, PHYS_S_LINK, li);
	double m, g[6];
	phys_mat3 D, R;
	int a, b;

	phys_link_values_mass(v, &m, g);
	D = (phys_mat3){ { { g[0], g[3], g[4] }, { g[3], g[1], g[5] },
	    { g[4], g[5], g[2] } } };
	/* the rider's inertial frame in the frame q */
	R = phys_quat_to_mat3(phys_quat_mul(phys_quat_conj(q),
	    phys_quat_mul(r->in_host.q, phys_pose_from6(PV(v,
	    LINK_inertial_pose)->u.pose).q)));
	D = phys_mat3_mul(phys_mat3_mul(R, D), phys_mat3_transpose(R));
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++)
			I->m[a][b] += D.m[a][b];
}

int
phys_rider_change(const struct phys_scene *w, const struct phys_run_values *rv,
    int li, const struct phys_rider *r, const char *engine)
{
	const struct phys_value *v = phys_run_values_get(rv, PHYS_S_LINK, li);

	if (PVD(v, LINK_inertial_mass) == 0 && !PVB(v, LINK_kinematic))
		return 0;
	return phys_fail("link '%s': %s runs it, massless, as part of link "
	    "'%s' it is welded to: it cannot be given a mass or be made "
	    "kinematic in a run (MuJoCo, DART and Simbody can: -p mujoco)",
	    w->links[li].name, engine, w->links[r->host].name);
}

/*
 * What the seat of link li, at rest, takes: minus all else that acts on
 * it, (force, torque) and the n joints of list, each its wrench on its
 * child (li, or a child whose reaction on li is moved to li's centre of
 * mass). The force on li, the torque about its centre of mass.
 */
static void
at_rest(const struct phys_scene *w, const void *e, int li, const int *list,
    int n, phys_vec3 force, phys_vec3 torque, phys_joint_wrench_fn *wrench,
    phys_link_com_fn *com, phys_vec3 *out_force, phys_vec3 *out_torque)
{
	phys_vec3 c = com(e, li), f, t, sf = force, st = torque;
	const struct phys_joint *j;
	int k;

	for (k = 0; k < n; k++) {
		j = &w->joints[list[k]];
		wrench(e, list[k], &f, &t);
		if (j->child == li) {
			sf = v3_add(sf, f), st = v3_add(st, t);
			continue;
		}
		sf = v3_sub(sf, f);
		st = v3_sub(st, v3_add(t, v3_cross(v3_sub(com(e, j->child), c),
		    f)));
	}
	*out_force = v3_scale(sf, -1);
	*out_torque = v3_scale(st, -1);
}

void
phys_seat_wrench(const struct phys_scene *w, const void *e, int li,
    const struct phys_rider *r, const int *joints, phys_vec3 force,
    phys_vec3 torque, phys_joint_wrench_fn *wrench, phys_link_com_fn *com,
    phys_vec3 *out_force, phys_vec3 *out_torque)
{
	at_rest(w, e, li, joints + r->first, r->n, force, torque, wrench, com,
	    out_force, out_torque);
}

/* ---- links the world holds still ---- */

bool
phys_joint_soft(const struct phys_run_values *rv, int j,
    phys_support_fn *support)
{
	enum phys_engine_support s = support(
	    &phys_params[PHYS_P_JOINT_physics_ode_cfm]);

	return (s == PHYS_SUPPORT_NATIVE || s == PHYS_SUPPORT_EMULATED) &&
	    PVD(phys_run_values_get(rv, PHYS_S_JOINT, j),
	    JOINT_physics_ode_cfm) > 0;
}

/* Whether link li may be still on its own account: welded, moving, not
 * moved by the run, its weld no spring. */
static bool
may_be_still(const struct phys_scene *w, const struct phys_run_values *rv,
    phys_support_fn *support, int li)
{
	const struct phys_link *l = &w->links[li];

	return l->welded && l->weld >= 0 &&
	    !PVB(phys_run_values_get(rv, PHYS_S_LINK, li), LINK_kinematic) &&
	    !phys_joint_soft(rv, l->weld, support);
}

/* Each link's answer, walking up its welds (phys_link's weld) to the
 * world, a static link or an answered link (welded links' welds reach
 * one: no cycles). */
static void
mark_still(const struct phys_scene *w, const struct phys_run_values *rv,
    phys_support_fn *support, bool *is)
{
	char *done = phys_xcalloc(w->nlinks + 1, 1);
	int *path = phys_xmalloc((w->nlinks + 1) * sizeof *path), li, p;
	size_t i, n;
	bool ans;

	for (i = 0; i < w->nlinks; i++) {
		for (n = 0, li = (int)i, ans = false; !done[li];) {
			path[n++] = li;
			if (!may_be_still(w, rv, support, li))
				break;
			p = w->joints[w->links[li].weld].parent;
			if (p < 0 || w->models[w->links[p].model].is_static) {
				ans = true;
				break;
			}
			li = p;
		}
		if (done[li] && n == 0)
			continue;
		if (done[li])
			ans = is[li];
		/* the first on the path may be still only if all above are */
		while (n > 0) {
			li = path[--n];
			is[li] = ans && may_be_still(w, rv, support, li);
			ans = is[li];
			done[li] = 1;
		}
	}
	free(done);
	free(path);
}

/* Whether link li (-1: the world) is held by the world: static or still. */
static bool
held_by_world(const struct phys_scene *w, const struct phys_still *s, int li)
{
	return li < 0 || w->models[w->links[li].model].is_static || s->is[li];
}

/* The still link on side k (0: parent, 1: child) of joint ji that lists
 * it among the joints that act on it, or -1: not its weld, nor another
 * weld to what the world holds (a loop of welds, whose shares no rigid
 * body fixes), nor one to the world as its child (it carries nothing of
 * the world's). */
static int
still_side(const struct phys_scene *w, const void *ctx, size_t ji, int k)
{
	const struct phys_still *s = ctx;
	const struct phys_joint *j = &w->joints[ji];
	int li = k ? j->child : j->parent;

	if (li < 0 || !s->is[li] || j->child < 0 ||
	    (k == 0 && j->child == li))
		return -1;
	if (k == 1 && j->type == PHYS_JOINT_FIXED &&
	    held_by_world(w, s, j->parent))
		return -1;
	return li;
}

void
phys_still_init(struct phys_still *s, const struct phys_scene *w,
    const struct phys_run_values *rv, phys_support_fn *support)
{
	size_t i;

	s->is = phys_xcalloc(w->nlinks + 1, sizeof *s->is);
	s->seat = phys_xmalloc((w->nlinks + 1) * sizeof *s->seat);
	s->first = phys_xmalloc((w->nlinks + 1) * sizeof *s->first);
	mark_still(w, rv, support, s->is);
	for (i = 0; i < w->nlinks; i++)
		s->seat[i] = s->is[i] ? w->links[i].weld : -1;
	s->joints = joints_by_link(w, still_side, s, s->first);
}

void
phys_still_free(struct phys_still *s)
{
	free(s->is);
	free(s->seat);
	free(s->first);
	free(s->joints);
	*s = (struct phys_still){ NULL, NULL, NULL, NULL };
}

void
phys_still_wrench(const struct phys_scene *w,
    const struct phys_run_values *rv, const struct phys_still *s,
    const void *e, int ji, phys_vec3 g, const struct phys_still_ask *ask,
    phys_vec3 *out_force, phys_vec3 *out_torque)
{
	int li = w->joints[ji].child;
	const struct phys_value *v;
	phys_vec3 f, t;
	double m, inertia[6];

	*out_force = *out_torque = v3(0, 0, 0);
	if (li < 0 || s->seat[li] != ji)
		return;
	ask->contacts(e, li, ask->com(e, li), &f, &t);
	v = phys_run_values_get(rv, PHYS_S_LINK, li);
	phys_link_values_mass(v, &m, inertia);
	if (PVB(v, LINK_gravity))
		f = v3_add(f, v3_scale(g, m));
	at_rest(w, e, li, s->joints + s->first[li], s->first[li + 1] -
	    s->first[li], f, t, ask->wrench, ask->com, out_force, out_torque);
}

/* ---- joints measured from link poses ---- */

void
phys_joint_frames_init(struct phys_joint_frames *f, const struct phys_joint *j,
    phys_pose parent, phys_pose child)
{
	int k;

	f->in_child = phys_pose_mul(phys_pose_inv(child), j->pose);
	f->in_parent = phys_pose_mul(phys_pose_inv(parent), j->pose);
	f->rel0 = phys_quat_mul(phys_quat_conj(parent.q), child.q);
	for (k = 0; k < 2; k++)
		f->axis_parent[k] = phys_quat_rotate(phys_quat_conj(parent.q),
		    j->axis[k]);
}

phys_vec3
phys_joint_frames_axis(const struct phys_joint_frames *f, phys_pose parent,
    int k, double t1)
{
	phys_vec3 a1 = f->axis_parent[0];

	if (k == 0)
		return phys_quat_rotate(parent.q, a1);
	return phys_quat_rotate(parent.q, phys_quat_rotate(phys_quat_about(a1,
	    t1), v3_normalize(f->axis_parent[1])));
}

int
phys_joint_frames_state(const struct phys_joint_frames *f,
    enum phys_joint_type type, phys_pose pp, phys_vec3 lp, phys_vec3 wp,
    phys_pose cp, phys_vec3 lc, phys_vec3 wc, double pos[2], double vel[2])
{
	phys_vec3 rel, a1, a2;
	phys_quat d;

	pos[0] = pos[1] = vel[0] = vel[1] = 0;
	/* The child's turn since load, in the parent's frame. */
	d = phys_quat_mul(phys_quat_mul(phys_quat_conj(pp.q), cp.q),
	    phys_quat_conj(f->rel0));
	a1 = f->axis_parent[0];
	switch (type) {
	case PHYS_JOINT_REVOLUTE:
		pos[0] = phys_angle_about(d, a1);
		vel[0] = v3_dot(v3_sub(wc, wp), phys_quat_rotate(pp.q, a1));
		return 1;
	case PHYS_JOINT_PRISMATIC: {
		phys_vec3 anchor = phys_pose_mul(cp, f->in_child).p;
		phys_vec3 r = v3_sub(anchor, phys_pose_mul(pp, f->in_parent).p);
		phys_vec3 axis = phys_quat_rotate(pp.q, a1);
		phys_vec3 va = v3_add(lc, v3_cross(wc, v3_sub(anchor, cp.p)));
		phys_vec3 vp = v3_add(lp, v3_cross(wp, v3_sub(anchor, pp.p)));

		pos[0] = v3_dot(r, axis);
		vel[0] = v3_dot(v3_sub(va, vp), axis);
		return 1;
	}
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		/* d = turn(a1, t1) * turn(a2, t2), a1 with the parent. */
		a2 = v3_normalize(f->axis_parent[1]);
		pos[0] = phys_angle_between(a2, phys_quat_rotate(d, a2), a1);
		rel = phys_quat_rotate(phys_quat_mul(phys_quat_conj(
		    phys_quat_about(a1, pos[0])), d), a1);
		pos[1] = phys_angle_between(a1, rel, a2);
		rel = v3_sub(wc, wp);
		vel[0] = v3_dot(rel, phys_joint_frames_axis(f, pp, 0, pos[0]));
		vel[1] = v3_dot(rel, phys_joint_frames_axis(f, pp, 1, pos[0]));
		return 2;
	default:
		return 0;
	}
}

/* ---- contacts ---- */

void
phys_spring_erp_cfm(double kp, double kd, double h, double *erp, double *cfm)
{
	*erp = h * kp / (h * kp + kd);
	*cfm = 1 / (h * kp + kd);
}

/* A negative max_vel is no limit of the surface's own (Gazebo's ODE
 * holds it to the global contact_max_correcting_vel, ODELink::UpdateSurface,
 * which phys's ODE applies to every contact). */
static double
surface_max_vel(const struct phys_value *v)
{
	double m = PVD(v, COLLISION_surface_contact_ode_max_vel);

	return m < 0 ? INFINITY : m;
}

static bool
kp_kd_given(const struct phys_value *v)
{
	return PV(v, COLLISION_surface_contact_ode_kp)->given ||
	    PV(v, COLLISION_surface_contact_ode_kd)->given;
}

void
phys_contact_bounce(const struct phys_value *a, const struct phys_value *b,
    double *restitution, double *threshold)
{
	*restitution = fmax(
	    PVD(a, COLLISION_surface_bounce_restitution_coefficient),
	    PVD(b, COLLISION_surface_bounce_restitution_coefficient));
	*threshold = fmin(PVD(a, COLLISION_surface_bounce_threshold),
	    PVD(b, COLLISION_surface_bounce_threshold));
}

void
phys_contact_friction(const struct phys_value *a, double mu_a, double mu2_a,
    const struct phys_value *b, double mu_b, double mu2_b, double *mu,
    double *mu2)
{
	const struct phys_value *ca = PV(a, COLLISION_surface_friction_mujoco_condim);
	const struct phys_value *cb = PV(b, COLLISION_surface_friction_mujoco_condim);
	int first;

	if (!ca->given || !cb->given) {
		*mu = fmin(mu_a, mu_b);
		*mu2 = fmin(mu2_a, mu2_b);
	} else if ((first = phys_contact_priority(a, b)) != 0) {
		/* the higher priority's alone */
		*mu = first > 0 ? mu_a : mu_b;
		*mu2 = first > 0 ? mu2_a : mu2_b;
		if ((first > 0 ? ca : cb)->u.i == 1)
			*mu = *mu2 = 0;
	} else if (ca->u.i == 1 && cb->u.i == 1) {
		*mu = *mu2 = 0;
	} else {
		*mu = fmax(mu_a, mu_b);
		*mu2 = fmax(mu2_a, mu2_b);
	}
}

int
phys_contact_priority(const struct phys_value *a, const struct phys_value *b)
{
	long pa = PVI(a, COLLISION_surface_contact_mujoco_priority);
	long pb = PVI(b, COLLISION_surface_contact_mujoco_priority);

	if (!PV(a, COLLISION_surface_friction_mujoco_condim)->given ||
	    !PV(b, COLLISION_surface_friction_mujoco_condim)->given)
		return 0;
	return pa > pb ? 1 : pa < pb ? -1 : 0;
}

void
phys_contact_surface(const struct phys_value *a, const struct phys_value *b,
    struct phys_contact_surface *s)
{
	phys_contact_friction(a, PVD(a, COLLISION_surface_friction_ode_mu),
	    PVD(a, COLLISION_surface_friction_ode_mu2), b,
	    PVD(b, COLLISION_surface_friction_ode_mu),
	    PVD(b, COLLISION_surface_friction_ode_mu2), &s->mu, &s->mu2);
	s->slip1 = fmax(PVD(a, COLLISION_surface_friction_ode_slip1),
	    PVD(b, COLLISION_surface_friction_ode_slip1));
	s->slip2 = fmax(PVD(a, COLLISION_surface_friction_ode_slip2),
	    PVD(b, COLLISION_surface_friction_ode_slip2));
	phys_contact_bounce(a, b, &s->bounce, &s->bounce_vel);
	s->kp = 1 / (1 / PVD(a, COLLISION_surface_contact_ode_kp) +
	    1 / PVD(b, COLLISION_surface_contact_ode_kp));
	s->kd = PVD(a, COLLISION_surface_contact_ode_kd) +
	    PVD(b, COLLISION_surface_contact_ode_kd);
	s->kp_kd_given = kp_kd_given(a) || kp_kd_given(b);
	s->min_depth = fmin(PVD(a, COLLISION_surface_contact_ode_min_depth),
	    PVD(b, COLLISION_surface_contact_ode_min_depth));
	s->max_vel = fmin(surface_max_vel(a), surface_max_vel(b));
}

bool
phys_collisions_may_touch(const struct phys_scene *w,
    const struct phys_run_values *rv, int c1, int c2)
{
	int l1 = w->collisions[c1].link, l2 = w->collisions[c2].link;

	return !phys_inside_listed(w, c1, c2) && phys_surfaces_may_touch(w,
	    c1, c2, phys_run_values_get(rv, PHYS_S_LINK, l1),
	    phys_run_values_get(rv, PHYS_S_LINK, l2),
	    phys_run_values_get(rv, PHYS_S_COLLISION, c1),
	    phys_run_values_get(rv, PHYS_S_COLLISION, c2));
}

/* Whether a pair the world lists names a collision of each link. */
static bool
links_paired(const struct phys_scene *w, int l1, int l2)
{
	size_t i;
	int a, b;

	for (i = 0; i < w->npairs; i++) {
		a = w->collisions[w->pairs[i].c1].link;
		b = w->collisions[w->pairs[i].c2].link;
		if ((a == l1 && b == l2) || (a == l2 && b == l1))
			return true;
	}
	return false;
}

bool
phys_links_never_touch(const struct phys_scene *w, int l1, int l2)
{
	return phys_excludes_pair(w, l1, l2) && !links_paired(w, l1, l2);
}

bool
phys_links_may_touch(const struct phys_scene *w,
    const struct phys_run_values *rv, int l1, int l2)
{
	if (phys_links_apart_in_model(w, l1, l2, phys_run_values_get(rv,
	    PHYS_S_LINK, l1), phys_run_values_get(rv, PHYS_S_LINK, l2)))
		return links_paired(w, l1, l2);
	return !phys_links_never_touch(w, l1, l2);
}

void
phys_contact_surfaces(const struct phys_scene *w,
    const struct phys_run_values *rv, int c1, int c2,
    const struct phys_value **a, const struct phys_value **b)
{
	const struct phys_contact_pair *p = w->npairs ?
	    phys_pair_find(w, c1, c2) : NULL;

	if (p) {
		*a = *b = p->vals;
		return;
	}
	*a = phys_run_values_get(rv, PHYS_S_COLLISION, c1);
	*b = phys_run_values_get(rv, PHYS_S_COLLISION, c2);
}

bool
phys_contact_without_force(const struct phys_value *a,
    const struct phys_value *b)
{
	return PVB(a, COLLISION_surface_contact_collide_without_contact) ||
	    PVB(b, COLLISION_surface_contact_collide_without_contact);
}

bool
phys_contact_without_force_reported(const struct phys_value *a,
    const struct phys_value *b)
{
	return (PVI(a,
	    COLLISION_surface_contact_collide_without_contact_bitmask) &
	    PVI(b, COLLISION_surface_contact_collide_without_contact_bitmask))
	    != 0;
}

/* Joint j's anchor as link li's side has it at pose p (its frame moves
 * with li from where the world put both). */
static phys_vec3
anchor_on(const struct phys_scene *w, int j, int li, phys_pose p)
{
	phys_pose at = li < 0 ? PHYS_POSE_IDENTITY : w->links[li].pose;

	return phys_pose_mul(p, phys_pose_mul(phys_pose_inv(at),
	    w->joints[j].pose)).p;
}

bool
phys_joint_turn_off_axis(enum phys_joint_type t)
{
	return t == PHYS_JOINT_REVOLUTE || t == PHYS_JOINT_SCREW;
}

double
phys_joint_turn(const struct phys_scene *w, int j, phys_pose pp,
    phys_pose cp)
{
	const struct phys_joint *jt = &w->joints[j];
	phys_quat p0 = jt->parent < 0 ? PHYS_POSE_IDENTITY.q :
	    w->links[jt->parent].pose.q, c0 = jt->child < 0 ?
	    PHYS_POSE_IDENTITY.q : w->links[jt->child].pose.q, err;
	phys_vec3 a;

	/* the turn since load, in the parent's frame */
	err = phys_quat_normalize(phys_quat_mul(phys_quat_mul(
	    phys_quat_conj(pp.q), cp.q), phys_quat_conj(phys_quat_mul(
	    phys_quat_conj(p0), c0))));
	if (phys_joint_turn_off_axis(jt->type)) {
		a = phys_quat_rotate(phys_quat_conj(p0), jt->axis[0]);
		return acos(fmax(-1, fmin(1, v3_dot(a, phys_quat_rotate(err,
		    a)))));
	}
	if (jt->type == PHYS_JOINT_FIXED || jt->type == PHYS_JOINT_PRISMATIC)
		return 2 * acos(fmin(1, fabs(err.w)));
	return 0;
}

double
phys_joint_gap(const struct phys_scene *w, int j, phys_pose pp,
    phys_pose cp)
{
	const struct phys_joint *jt = &w->joints[j];
	phys_vec3 d, axis;

	if (jt->type == PHYS_JOINT_GEARBOX)
		return 0;
	d = v3_sub(anchor_on(w, j, jt->child, cp),
	    anchor_on(w, j, jt->parent, pp));
	if (jt->type == PHYS_JOINT_PRISMATIC || jt->type == PHYS_JOINT_SCREW) {
		axis = phys_quat_rotate(phys_quat_mul(cp.q, jt->child < 0 ?
		    PHYS_POSE_IDENTITY.q : phys_quat_conj(
		    w->links[jt->child].pose.q)), jt->axis[0]);
		d = v3_sub(d, v3_scale(axis, v3_dot(d, axis)));
	}
	return v3_norm(d);
}

int
phys_tendon_past(const struct phys_tendon *t, double len, double *bound)
{
	if (len > t->range[1]) {
		*bound = t->range[1];
		return -1;
	}
	if (len < t->range[0]) {
		*bound = t->range[0];
		return 1;
	}
	return 0;
}

int
phys_tendon_joints_held(const struct phys_scene *w,
    bool (*held)(const void *ctx, int joint), const void *ctx,
    const char *engine, const char *what)
{
	const struct phys_tendon *t;
	size_t i;
	int k;

	for (i = 0; i < w->ntendons; i++)
		for (t = &w->tendons[i], k = 0; k < t->njoints; k++)
			if (!held(ctx, t->joints[k]))
				return phys_failat(PHYS_AT(t->doc, t->node),
				    "tendon '%s': the %s engine holds %s, not "
				    "'%s'", t->name, engine, what,
				    w->joints[t->joints[k]].name);
	return 0;
}

static int
index_order(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	return (i > j) - (i < j);
}

size_t
phys_contact_spread(const phys_vec3 *at, const double *depth, size_t n,
    size_t limit, size_t *keep)
{
	double *gap;	/* squared distance to the nearest kept; -1: kept */
	size_t i, best = 0, next, k = 0;
	phys_vec3 d;

	if (n <= limit) {
		for (i = 0; i < n; i++)
			keep[i] = i;
		return n;
	}
	gap = phys_xmalloc(n * sizeof *gap);
	for (i = 0; i < n; i++) {
		gap[i] = INFINITY;
		if (depth[i] > depth[best])
			best = i;
	}
	while (k < limit) {
		keep[k++] = best;
		gap[best] = -1;
		next = n;
		for (i = 0; i < n; i++) {
			if (gap[i] < 0)
				continue;
			d = v3_sub(at[i], at[best]);
			gap[i] = fmin(gap[i], v3_dot(d, d));
			if (next == n || gap[i] > gap[next])
				next = i;
		}
		if (next == n)
			break;
		best = next;
	}
	free(gap);
	qsort(keep, k, sizeof *keep, index_order);
	return k;
}

/* ---- corners two convex shapes touch at ---- */

/* Face i of shape s (a box's six, a cylinder's two ends and its round
 * side, a hull's): how deep local point l lies beneath it, and its
 * outward normal in the shape's frame (the round side's at l). */
static double
face_depth(const struct phys_corner_shape *s, size_t i, phys_vec3 l,
    phys_vec3 *f)
{
	double t, rho;

	if (s->kind == PHYS_CORNER_HULL) {
		const double *pl = s->planes + 4 * i;

		*f = v3(pl[0], pl[1], pl[2]);
		return pl[3] - v3_dot(*f, l);
	}
	if (s->kind == PHYS_CORNER_BOX) {
		t = i / 2 == 0 ? l.x : i / 2 == 1 ? l.y : l.z;
		*f = v3_scale(v3(i / 2 == 0, i / 2 == 1, i / 2 == 2),
		    i % 2 ? -1 : 1);
		return (i / 2 == 0 ? s->half.x : i / 2 == 1 ? s->half.y :
		    s->half.z) - (i % 2 ? -t : t);
	}
	if (i < 2) {
		*f = v3(0, 0, i ? -1 : 1);
		return s->length / 2 - (i ? -l.z : l.z);
	}
	rho = hypot(l.x, l.y);
	*f = rho > 0 ? v3(l.x / rho, l.y / rho, 0) : v3(0, 0, 0);
	return s->radius - rho;
}

/* How many faces of shape s face_depth knows: a cylinder's round side
 * among them unless flat; none for a sphere or a capsule. */
static size_t
face_count(const struct phys_corner_shape *s, bool flat)
{
	return s->kind == PHYS_CORNER_BOX ? 6 : s->kind ==
	    PHYS_CORNER_CYLINDER ? (flat ? 2 : 3) : s->kind ==
	    PHYS_CORNER_HULL ? s->nplanes : 0;
}

/* Whether world point x lies in shape s, or within reach of it. */
static bool
corner_in(const struct phys_corner_shape *s, phys_vec3 x, double reach)
{
	phys_vec3 l = phys_pose_apply(phys_pose_inv(s->at), x), f;
	size_t i, k = face_count(s, false);

	switch (s->kind) {
	case PHYS_CORNER_SPHERE:
		return v3_norm(l) <= s->radius + reach;
	case PHYS_CORNER_ELLIPSOID:	/* within reach of its least axis */
		return v3_norm(v3(l.x / s->half.x, l.y / s->half.y, l.z /
		    s->half.z)) <= 1 + reach / fmin(s->half.x, fmin(s->half.y,
		    s->half.z));
	case PHYS_CORNER_CAPSULE:
		l.z -= fmax(-s->length / 2, fmin(s->length / 2, l.z));
		return v3_norm(l) <= s->radius + reach;
	default:	/* beneath each face */
		for (i = 0; i < k; i++)
			if (face_depth(s, i, l, &f) < -reach)
				return false;
		return k > 0;
	}
}

/* A round shape's corners deepest along world direction down: a
 * capsule's two ends, a cylinder's rims; returns how many. */
static size_t
round_corners(const struct phys_corner_shape *s, phys_vec3 down,
    phys_vec3 *x)
{
	phys_vec3 d = phys_quat_rotate(phys_quat_conj(s->at.q), down), u;
	double r = s->radius, h = s->length / 2, a;
	size_t n = 0, k;
	int end;

	if (s->kind == PHYS_CORNER_CAPSULE) {
		for (end = -1; end <= 1; end += 2)
			x[n++] = phys_pose_apply(s->at, v3_add(v3(0, 0,
			    end * h), v3_scale(d, r)));
		return n;
	}
	u = v3(d.x, d.y, 0);
	u = v3_norm(u) > 1e-9 ? v3_scale(u, 1 / v3_norm(u)) : v3(1, 0, 0);
	/* Each rim's points are spaced from its deepest, not fixed in the
	 * cylinder: a rim point fixed in a rolling cylinder came within
	 * reach of the floor ahead of it and held it back (a wheel rolling
	 * down a cylinder's sloping end under ODE lost 4% of its travel in
	 * 1 s). */
	for (end = -1; end <= 1; end += 2)
		for (k = 0; k < PHYS_CORNER_RIM_POINTS; k++) {
			a = 2 * M_PI * (double)k / PHYS_CORNER_RIM_POINTS;
			x[n++] = phys_pose_apply(s->at, v3(r * (u.x * cos(a) -
			    u.y * sin(a)), r * (u.y * cos(a) + u.x * sin(a)),
			    end * h));
		}
	return n;
}

/* Shape s's corners in the world (a round one's deepest along down), into
 * x (room for PHYS_CORNERS_MAX); returns how many, 0 past that room. */
static size_t
corners_of(const struct phys_corner_shape *s, phys_vec3 down, phys_vec3 *x)
{
	size_t i;

	switch (s->kind) {
	case PHYS_CORNER_CAPSULE:
	case PHYS_CORNER_CYLINDER:
		return round_corners(s, down, x);
	case PHYS_CORNER_BOX:
		for (i = 0; i < 8; i++)
			x[i] = phys_pose_apply(s->at, v3(i & 1 ? s->half.x :
			    -s->half.x, i & 2 ? s->half.y : -s->half.y,
			    i & 4 ? s->half.z : -s->half.z));
		return 8;
	case PHYS_CORNER_HULL:
		if (s->nv > PHYS_CORNERS_MAX)
			return 0;
		for (i = 0; i < s->nv; i++) {
			const double *q = s->v + s->v_stride * i;

			x[i] = phys_pose_apply(s->at, v3(q[0], q[1], q[2]));
		}
		return s->nv;
	default:
		return 0;
	}
}

bool
phys_corner_pair(enum phys_corner_kind a, enum phys_corner_kind b)
{
	enum phys_corner_kind o = a == PHYS_CORNER_HULL ? b :
	    b == PHYS_CORNER_HULL ? a : a == PHYS_CORNER_CAPSULE ? b :
	    b == PHYS_CORNER_CAPSULE ? a : PHYS_CORNER_NONE;

	/* an ellipsoid's one point with any other, the detector's being
	 * its polyhedron's */
	if (a == PHYS_CORNER_ELLIPSOID || b == PHYS_CORNER_ELLIPSOID)
		return a != PHYS_CORNER_NONE && b != PHYS_CORNER_NONE;
	if (a == PHYS_CORNER_SPHERE || b == PHYS_CORNER_SPHERE)
		return false;	/* one point is a sphere's contact */
	if (a == PHYS_CORNER_HULL || b == PHYS_CORNER_HULL)
		return o != PHYS_CORNER_NONE;
	if (a == PHYS_CORNER_CYLINDER && b == PHYS_CORNER_CYLINDER)
		return true;
	return o == PHYS_CORNER_BOX || o == PHYS_CORNER_CYLINDER;
}

size_t
phys_corner_points(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 p, phys_vec3 n,
    double depth, double reach, phys_vec3 *at, double *deep, size_t max)
{
	phys_vec3 x[PHYS_CORNERS_MAX];
	size_t k = 0, i, j, m;
	double d;
	int side;

	if (max == 0)
		return 0;
	at[k] = p;
	deep[k++] = depth;
	for (side = 0; side < 2; side++) {
		/* b lies where (y - p).n <= depth, a where it is >= 0 */
		m = corners_of(side ? b : a, side ? n : v3_scale(n, -1), x);
		for (i = 0; i < m && k < max; i++) {
			d = side ? v3_dot(v3_sub(x[i], p), n) : depth +
			    v3_dot(v3_sub(p, x[i]), n);
			if (d < -reach || !corner_in(side ? a : b, x[i], reach))
				continue;
			for (j = 0; j < k && v3_norm(v3_sub(at[j], x[i])) >=
			    1e-9; j++)
				continue;
			if (j == k) {
				at[k] = x[i];
				deep[k++] = fmax(d, 0);
			}
		}
	}
	return k;
}

phys_vec3
phys_corner_support(const struct phys_corner_shape *s, phys_vec3 dir)
{
	phys_vec3 d = phys_quat_rotate(phys_quat_conj(s->at.q), dir), x, best;
	double r, xy = hypot(d.x, d.y), far;
	size_t i;

	switch (s->kind) {
	case PHYS_CORNER_BOX:
		x = v3(copysign(s->half.x, d.x), copysign(s->half.y, d.y),
		    copysign(s->half.z, d.z));
		break;
	case PHYS_CORNER_HULL:
		best = v3(s->v[0], s->v[1], s->v[2]);
		far = v3_dot(best, d);
		for (i = 1; i < s->nv; i++) {
			const double *q = s->v + s->v_stride * i;

			if (v3_dot(v3(q[0], q[1], q[2]), d) > far) {
				best = v3(q[0], q[1], q[2]);
				far = v3_dot(best, d);
			}
		}
		x = best;
		break;
	case PHYS_CORNER_CYLINDER:
		r = xy > 0 ? s->radius / xy : 0;
		x = v3(d.x * r, d.y * r, copysign(s->length / 2, d.z));
		break;
	case PHYS_CORNER_ELLIPSOID:	/* r^2 d / |r d|, each axis's r */
		x = v3(s->half.x * d.x, s->half.y * d.y, s->half.z * d.z);
		r = v3_norm(x);
		x = r > 0 ? v3(s->half.x * x.x / r, s->half.y * x.y / r,
		    s->half.z * x.z / r) : v3(0, 0, 0);
		break;
	default:	/* a sphere, a capsule: a sphere about an end */
		x = v3_norm(d) > 0 ? v3_scale(d, s->radius / v3_norm(d)) :
		    v3(0, 0, 0);
		if (s->kind == PHYS_CORNER_CAPSULE)
			x.z += copysign(s->length / 2, d.z);
		break;
	}
	return phys_pose_apply(s->at, x);
}

/* Of shape s's flat faces, the one whose outward normal (world) lies
 * nearest dir, if nearer than *most (a cosine): into *best, *most. */
static void
nearest_face(const struct phys_corner_shape *s, phys_vec3 dir,
    phys_vec3 *best, double *most)
{
	phys_vec3 f;
	size_t i, k = face_count(s, true);
	double c;

	for (i = 0; i < k; i++) {
		face_depth(s, i, v3(0, 0, 0), &f);
		f = phys_quat_rotate(s->at.q, f);
		c = v3_dot(f, dir) / v3_norm(f);
		if (c > *most) {
			*most = c;
			*best = v3_scale(f, 1 / v3_norm(f));
		}
	}
}

phys_vec3
phys_corner_normal(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 n)
{
	phys_vec3 best = n, fa = v3(0, 0, 0);
	double most = PHYS_FACE_ON, from_b;

	nearest_face(b, n, &best, &most);
	from_b = most;
	nearest_face(a, v3_scale(n, -1), &fa, &most);
	return most > from_b ? v3_scale(fa, -1) : best;
}

/* A corner shape for libccd: its support mapping, and a point inside it
 * (a hull's vertices' mean: its frame's origin may lie outside it). */
static void
ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
	phys_vec3 x = phys_corner_support(obj, v3(dir->v[0], dir->v[1],
	    dir->v[2]));

	ccdVec3Set(out, x.x, x.y, x.z);
}

static phys_vec3
corner_centre(const struct phys_corner_shape *s)
{
	phys_vec3 c = v3(0, 0, 0);
	size_t i;

	if (s->kind != PHYS_CORNER_HULL || s->nv == 0)
		return s->at.p;
	for (i = 0; i < s->nv; i++)
		c = v3_add(c, v3(s->v[s->v_stride * i],
		    s->v[s->v_stride * i + 1], s->v[s->v_stride * i + 2]));
	return phys_pose_apply(s->at, v3_scale(c, 1 / (double)s->nv));
}

static void
ccd_centre(const void *obj, ccd_vec3_t *out)
{
	phys_vec3 c = corner_centre(obj);

	ccdVec3Set(out, c.x, c.y, c.z);
}

bool
phys_corner_deepest(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 *p, phys_vec3 *n,
    double *depth)
{
	ccd_t ccd;
	ccd_real_t d = -1;
	ccd_vec3_t dir, pos;
	phys_vec3 m;

	CCD_INIT(&ccd);
	ccd.support1 = ccd.support2 = ccd_support;
	ccd.center1 = ccd.center2 = ccd_centre;
	ccd.max_iterations = 100;
	ccd.mpr_tolerance = 1e-9;
	/* dir moves b out of a: the normal from b into a is -dir */
	if (ccdMPRPenetration(a, b, &ccd, &d, &dir, &pos) != 0 ||
	    !(d >= 0 && d < INFINITY))
		return false;
	m = v3(-dir.v[0], -dir.v[1], -dir.v[2]);
	if (!(v3_norm(m) > 0.5 && v3_norm(m) < 2))
		return false;
	*n = v3_normalize(m);
	*depth = d;
	/* pos lies midway: a's side is half the depth back along n */
	*p = v3_sub(v3(pos.v[0], pos.v[1], pos.v[2]), v3_scale(*n, d / 2));
	return true;
}

bool
phys_corner_inside(const struct phys_corner_shape *s, phys_vec3 x,
    double reach, phys_vec3 *outward, double *depth, bool *alone)
{
	phys_vec3 l = phys_pose_apply(phys_pose_inv(s->at), x), f, g;
	double in, first = INFINITY, second = INFINITY;
	size_t i, k = face_count(s, false), near = 0;

	/* most points asked about lie outside: the first face they are
	 * outside of answers */
	for (i = 0; i < k; i++) {
		if ((in = face_depth(s, i, l, &g)) < -reach)
			return false;
		if (in < first) {
			first = in;
			near = i;
		}
	}
	if (k == 0)
		return false;
	face_depth(s, near, l, &f);
	if (v3_norm(f) == 0)
		return false;
	f = v3_normalize(f);
	/* the next face not in the nearest's plane (a hull's face may be
	 * several triangles); the round side is no flat face */
	for (i = 0; i < k; i++)
		if (i != near && (in = face_depth(s, i, l, &g)) < second &&
		    !(v3_norm(g) > 0 && v3_dot(v3_normalize(g), f) >
		    PHYS_FACE_ON))
			second = in;
	*outward = v3_normalize(phys_quat_rotate(s->at.q, f));
	*depth = first;
	*alone = second - first >= 2 * reach &&
	    !(s->kind == PHYS_CORNER_CYLINDER && near == 2);
	return true;
}

bool
phys_corner_face(const struct phys_corner_shape *s, phys_vec3 x,
    double reach, phys_vec3 *outward)
{
	double depth;
	bool alone;

	return phys_corner_inside(s, x, reach, outward, &depth, &alone) &&
	    depth <= reach && alone;
}

size_t
phys_corner_corners(const struct phys_corner_shape *s, phys_vec3 down,
    phys_vec3 *x)
{
	return corners_of(s, down, x);
}

size_t
phys_corner_over_triangle(const struct phys_corner_shape *s,
    const phys_vec3 t[3], double most, double reach, phys_vec3 *n,
    phys_vec3 *at, double *deep, size_t max)
{
	phys_vec3 x[PHYS_CORNERS_MAX], f = v3_cross(v3_sub(t[1], t[0]),
	    v3_sub(t[2], t[0]));
	size_t m, i, k = 0;
	int e;
	double d;

	if (!(v3_norm(f) > 0))
		return 0;
	*n = v3_normalize(f);
	if (v3_dot(*n, v3_sub(corner_centre(s), t[0])) < 0)
		*n = v3_scale(*n, -1);
	if (s->kind == PHYS_CORNER_ELLIPSOID || s->kind == PHYS_CORNER_SPHERE)
		x[0] = phys_corner_support(s, v3_scale(*n, -1)), m = 1;
	else
		m = corners_of(s, v3_scale(*n, -1), x);
	for (i = 0; i < m && k < max; i++) {
		d = v3_dot(*n, v3_sub(t[0], x[i]));
		if (d < -reach || d > most + reach)
			continue;
		/* over the triangle: on the inner side of each edge */
		for (e = 0; e < 3; e++)
			if (v3_dot(v3_cross(v3_sub(t[(e + 1) % 3], t[e]),
			    v3_sub(x[i], t[e])), f) < 0)
				break;
		if (e < 3)
			continue;
		at[k] = x[i];
		deep[k++] = d;
	}
	return k;
}

bool
phys_corner_flat_on(const struct phys_corner_shape *s, phys_vec3 n)
{
	phys_vec3 f;
	double most = PHYS_FACE_ON;

	nearest_face(s, v3_scale(n, -1), &f, &most);
	return most > PHYS_FACE_ON;
}

phys_vec3
phys_mesh_contact_normal(struct phys_mesh_grid *g, const struct phys_mesh *m,
    const int *nb, phys_pose at, phys_vec3 x, phys_vec3 n, double deep,
    const struct phys_corner_shape *s)
{
	phys_pose inv = phys_pose_inv(at);
	phys_vec3 p = phys_pose_apply(inv, x), r;
	double d, best = INFINITY, reach = deep + PHYS_CORNER_REACH;
	const size_t *tri;
	size_t i, t = 0, k;

	if (!g || !nb || s->kind == PHYS_CORNER_NONE)
		return n;
	r = v3(reach, reach, reach);
	tri = phys_mesh_grid_find(g, v3_sub(p, r), v3_add(p, r), &k);
	for (i = 0; i < k; i++) {
		d = v3_norm(v3_sub(p, phys_mesh_nearest_on_triangle(m, tri[i],
		    p)));
		if (d < best)
			best = d, t = tri[i];
	}
	if (!(best <= reach))
		return n;
	return phys_quat_rotate(at.q, phys_mesh_edge_normal(m, nb, t, p,
	    phys_quat_rotate(inv.q, n), phys_pose_apply(inv, corner_centre(s)),
	    reach));
}

bool
phys_hull_plane(const struct phys_mesh *m, size_t k, phys_vec3 inside,
    double pl[4])
{
	const unsigned *t = m->tri + 3 * k;
	const double *q[3] = { m->v + 3 * (size_t)t[0],
	    m->v + 3 * (size_t)t[1], m->v + 3 * (size_t)t[2] };
	phys_vec3 a = v3(q[0][0], q[0][1], q[0][2]);
	phys_vec3 n = v3_cross(v3_sub(v3(q[1][0], q[1][1], q[1][2]), a),
	    v3_sub(v3(q[2][0], q[2][1], q[2][2]), a));

	if (!(v3_norm(n) > 0))
		return false;
	n = v3_normalize(n);
	if (v3_dot(n, v3_sub(inside, a)) > 0)	/* outward */
		n = v3_scale(n, -1);
	pl[0] = n.x, pl[1] = n.y, pl[2] = n.z;
	pl[3] = v3_dot(n, a);
	return true;
}
