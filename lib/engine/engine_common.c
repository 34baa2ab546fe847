/* engine_common.c - what every engine module computes the same way. */
#include "engine_common.h"

#include <math.h>

double
phys_engine_clock(double base, long n, double h)
{
	double rate = 1 / h;

	/* A step of 1/1000 s: dividing by 1000 gives 0.7 where multiplying
	 * by 0.001 gives 0.7000000000000001. */
	if (fabs(rate - round(rate)) < 1e-9 * rate)
		return base + (double)n / round(rate);
	return base + (double)n * h;
}

double
phys_joint_spring_damper(const struct phys_value *v, int k, double pos,
    double vel)
{
	double damping = k ? PVD(v, JOINT_axis2_dynamics_damping) :
	    PVD(v, JOINT_axis_dynamics_damping);
	double stiff = k ? PVD(v, JOINT_axis2_dynamics_spring_stiffness) :
	    PVD(v, JOINT_axis_dynamics_spring_stiffness);
	double ref = k ? PVD(v, JOINT_axis2_dynamics_spring_reference) :
	    PVD(v, JOINT_axis_dynamics_spring_reference);

	return -damping * vel - stiff * (pos - ref);
}

static double
axis_damping(const struct phys_value *v, int k)
{
	return k ? PVD(v, JOINT_axis2_dynamics_damping) :
	    PVD(v, JOINT_axis_dynamics_damping);
}

static double
axis_stiffness(const struct phys_value *v, int k)
{
	return k ? PVD(v, JOINT_axis2_dynamics_spring_stiffness) :
	    PVD(v, JOINT_axis_dynamics_spring_stiffness);
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
	*erp = h * kp / (h * kp + kd);
	*cfm = 1 / (h * kp + kd);
	return true;
}

/* The inverse of a symmetric 3x3 matrix; false when it is singular. */
static bool
mat3_inverse(phys_mat3 m, phys_mat3 *out)
{
	double (*a)[3] = m.m, det;
	int i, j;

	out->m[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
	out->m[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
	out->m[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
	out->m[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
	out->m[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
	out->m[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
	out->m[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
	out->m[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
	out->m[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
	det = a[0][0] * out->m[0][0] + a[0][1] * out->m[1][0] +
	    a[0][2] * out->m[2][0];
	if (!(fabs(det) > 0) || !isfinite(det))
		return false;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			out->m[i][j] /= det;
	return true;
}

phys_mat3
phys_inverse_inertia_world(const double inertia[9], phys_quat q)
{
	phys_mat3 in, inv, r;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			in.m[i][j] = inertia[3 * i + j];
	if (!mat3_inverse(in, &inv))
		return (phys_mat3){ { { 0 } } };
	r = phys_quat_to_mat3(q);
	return phys_mat3_mul(phys_mat3_mul(r, inv), phys_mat3_transpose(r));
}

/* [r]x M [r]x' for the cross-product matrix [r]x. */
static phys_mat3
cross_sandwich(phys_vec3 r, phys_mat3 m)
{
	phys_mat3 x = { { { 0, -r.z, r.y }, { r.z, 0, -r.x },
	    { -r.y, r.x, 0 } } };

	return phys_mat3_mul(phys_mat3_mul(x, m), phys_mat3_transpose(x));
}

double
phys_axis_inverse_inertia(const struct phys_body_inverse *child,
    const struct phys_body_inverse *parent, phys_vec3 anchor, phys_vec3 a,
    bool linear)
{
	const struct phys_body_inverse *b[2] = { child, parent };
	phys_mat3 k = { { { 0 } } }, kinv, s;
	phys_vec3 r, ia, c = v3(0, 0, 0);
	double inv = 0;
	int i, p, q;

	if (linear)
		return child->inv_mass + parent->inv_mass;
	/*
	 * A couple about a on the pair held at the anchor: the free pair's
	 * a' I^-1 a each, less what the anchor's three rows take back,
	 * c' K^-1 c with K = sum(m^-1 1 + [r]x I^-1 [r]x') and
	 * c = sum(r x I^-1 a), r from each centre of mass to the anchor.
	 */
	for (i = 0; i < 2; i++) {
		r = v3_sub(anchor, b[i]->com);
		ia = phys_mat3_apply(b[i]->inv_inertia, a);
		inv += v3_dot(a, ia);
		c = v3_add(c, v3_cross(r, ia));
		s = cross_sandwich(r, b[i]->inv_inertia);
		for (p = 0; p < 3; p++)
			for (q = 0; q < 3; q++)
				k.m[p][q] += s.m[p][q] + (p == q ?
				    b[i]->inv_mass : 0);
	}
	if (!mat3_inverse(k, &kinv))
		return inv;
	inv -= v3_dot(c, phys_mat3_apply(kinv, c));
	return inv > 0 ? inv : 0;
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
