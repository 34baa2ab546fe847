/*
 * sys_fluid.c - phys's own system of a medium the model moves through
 * (phys(7), SYSTEMS), as MuJoCo 2.2.2's inertia-box fluid model applies
 * it to each body of mass: a link is the box of its mass and principal
 * moments, and before each step its drag in a medium of <density> and
 * <viscosity> flowing at <wind> is a force through its centre of mass and
 * a torque, from its velocities at the step's start (as MuJoCo's Euler
 * step takes its passive forces).
 */
#include "sysint.h"

#include <math.h>
#include <stdlib.h>

#include "base.h"
#include "inertia.h"

/* MuJoCo's mjMINVAL: a body lighter than it feels no fluid, and a box
 * side is never below its root. */
#define FLUID_MINVAL 1e-15

struct fluid {
	double density;		/* kg/m^3 */
	double viscosity;	/* Pa s */
	phys_vec3 wind;		/* m/s, world axes */
	int *links, n;
	struct phys_doc *doc;	/* where it is given, for messages */
	xmlNodePtr node;
};

static int
fluid_parse(const struct phys_sys_conf *c, void *state)
{
	struct fluid *s = state;
	int *all, n, k;

	if (phys_sys_not_negative(c, "density", &s->density) < 0 ||
	    phys_sys_not_negative(c, "viscosity", &s->viscosity) < 0 ||
	    phys_sys_vec3(c, "wind", &s->wind) < 0)
		return -1;
	/* MuJoCo has no body where SDF needs a link between two joints */
	n = phys_sys_model_links(c->w, c->model, &all);
	for (k = 0; k < n; k++)
		if (!c->w->links[all[k]].between_joints)
			all[s->n++] = all[k];
	s->links = all;
	s->doc = c->doc;
	s->node = c->node;
	return 0;
}

/* Link li's principal axes in the world (columns of *q) and its box:
 * the sides of the uniform box of its mass and principal moments.
 * False when it is too light to feel the medium. */
static bool
link_box(const struct phys_sys_run *r, int li, phys_mat3 *q, double box[3])
{
	const struct phys_value *v = phys_run_values_get(r->vals, PHYS_S_LINK,
	    li);
	double mass, in[6], mom[3];
	phys_mat3 I = { { { 0 } } }, axes = { { { 1, 0, 0 }, { 0, 1, 0 },
		{ 0, 0, 1 } } };
	phys_pose lp, ip;
	int k;

	phys_engine_link_mass(r->e, li, &mass, in);
	if (!(mass >= FLUID_MINVAL) || !phys_engine_link_dynamic(r->e, li))
		return false;
	mom[0] = in[0], mom[1] = in[1], mom[2] = in[2];
	/* a diagonal tensor keeps its frame, as MuJoCo keeps a body's
	 * inertial frame: its moments are the principal ones */
	if (in[3] != 0 || in[4] != 0 || in[5] != 0) {
		I.m[0][0] = in[0], I.m[1][1] = in[1], I.m[2][2] = in[2];
		I.m[0][1] = I.m[1][0] = in[3];
		I.m[0][2] = I.m[2][0] = in[4];
		I.m[1][2] = I.m[2][1] = in[5];
		if (phys_inertia_principal(I, mom, &axes) < 0)
			return false;
	}
	for (k = 0; k < 3; k++)
		box[k] = sqrt(fmax(FLUID_MINVAL, mom[(k + 1) % 3] +
		    mom[(k + 2) % 3] - mom[k]) / mass * 6);
	phys_engine_link_pose(r->e, li, &lp);
	ip = phys_pose_mul(lp, phys_pose_from6(PV(v, LINK_inertial_pose)->u.pose));
	*q = phys_mat3_mul(phys_quat_to_mat3(ip.q), axes);
	return true;
}

/* MuJoCo's inertia-box drag on a box of sides b moving at lin and turning
 * at ang (its principal axes): force f and torque t in those axes. */
static void
box_drag(const struct fluid *s, const double b[3], const double lin[3],
    const double ang[3], double f[3], double t[3])
{
	double d = (b[0] + b[1] + b[2]) / 3, b4[3];
	int k, i, j;

	for (k = 0; k < 3; k++) {
		/* Stokes' drag on the sphere of the sides' mean */
		f[k] = -3 * M_PI * d * s->viscosity * lin[k];
		t[k] = -M_PI * d * d * d * s->viscosity * ang[k];
		b4[k] = b[k] * b[k] * b[k] * b[k];
	}
	for (k = 0; k < 3; k++) {
		i = (k + 1) % 3, j = (k + 2) % 3;
		f[k] -= 0.5 * s->density * b[i] * b[j] * fabs(lin[k]) * lin[k];
		t[k] -= s->density * b[k] * (b4[i] + b4[j]) * fabs(ang[k]) *
		    ang[k] / 64;
	}
}

static int
fluid_step(void *state, const struct phys_sys_run *r, double h)
{
	struct fluid *s = state;
	double box[3], lin[3], ang[3], f[3], t[3];
	phys_vec3 com, comv, lv, av, rel, fw, tw;
	phys_mat3 q;
	int k, i;

	(void)h;
	for (k = 0; k < s->n; k++) {
		fw = tw = v3(0, 0, 0);
		if (link_box(r, s->links[k], &q, box)) {
			phys_engine_link_com(r->e, s->links[k], &com, &comv);
			phys_engine_link_vel(r->e, s->links[k], &lv, &av);
			rel = v3_sub(comv, s->wind);
			for (i = 0; i < 3; i++) {
				lin[i] = q.m[0][i] * rel.x + q.m[1][i] * rel.y +
				    q.m[2][i] * rel.z;
				ang[i] = q.m[0][i] * av.x + q.m[1][i] * av.y +
				    q.m[2][i] * av.z;
			}
			box_drag(s, box, lin, ang, f, t);
			fw = phys_mat3_apply(q, v3(f[0], f[1], f[2]));
			tw = phys_mat3_apply(q, v3(t[0], t[1], t[2]));
		}
		/* every step, so that a link that stops feeling it is let go */
		if (phys_sys_push(r, s->links[k], fw, tw) < 0)
			return -1;
	}
	return 0;
}

/*
 * The drag is taken at each step's start and held through the step, as
 * MuJoCo's Euler step takes its passive forces; MuJoCo's RK4 takes them
 * again at each of its four stages, which a force held through the step
 * cannot be: said once, where the engine says it does so
 * (forces_restaged; a ball of 30 g and 10 cm radius falling 1 s in air
 * lands 2.3 mm lower than libmujoco's).
 */
static int
fluid_start(void *state, const struct phys_sys_run *r)
{
	const struct phys_engine_info *in = phys_engine_running(r->e);
	const struct fluid *s = state;

	if (in->forces_restaged && in->forces_restaged(phys_run_values_get(
	    r->vals, PHYS_S_PHYSICS, 0)))
		phys_warnat_once(PHYS_AT(s->doc, s->node), "the medium's drag "
		    "is taken at each step's start and held through the step, "
		    "where %s's integrator takes its forces again within the "
		    "step (MuJoCo's RK4: a ball of 30 g and 10 cm radius "
		    "falling 1 s in air lands 2.3 mm lower than libmujoco's)",
		    in->name);
	return 0;
}

static void
fluid_medium(const void *state, struct phys_mjcf_medium *out)
{
	const struct fluid *s = state;

	out->density = s->density;
	out->viscosity = s->viscosity;
	out->wind[0] = s->wind.x;
	out->wind[1] = s->wind.y;
	out->wind[2] = s->wind.z;
}

static void
fluid_free(void *state)
{
	struct fluid *s = state;

	free(s->links);
}

const struct phys_sys_kind phys_sys_fluid_forces = {
	"FluidForces", "phys-fluid-forces-system", false, sizeof(struct fluid),
	fluid_parse, fluid_start, fluid_step, NULL, fluid_free, NULL, NULL,
	fluid_medium
};
