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

double
phys_link_stand_in_mass(const struct phys_world *w, int li)
{
	double m, least = 0;
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		if (w->links[i].model != w->links[li].model)
			continue;
		m = PVD(w->links[i].vals, LINK_inertial_mass);
		if (m > 0 && (least == 0 || m < least))
			least = m;
	}
	return PHYS_MASSLESS_SHARE * (least > 0 ? least : 1);
}

/* ---- joints measured from link poses ---- */

double
phys_angle_about(phys_quat q, phys_vec3 axis)
{
	return 2 * atan2(v3_dot(v3(q.x, q.y, q.z), axis), q.w);
}

phys_quat
phys_quat_about(phys_vec3 axis, double angle)
{
	double s = sin(angle / 2);
	phys_quat q = { cos(angle / 2), axis.x * s, axis.y * s, axis.z * s };

	return q;
}

/* atan2 of the turn from u to w about axis (all unit, u and w normal to
 * axis or nearly). */
static double
turn(phys_vec3 u, phys_vec3 w, phys_vec3 axis)
{
	return atan2(v3_dot(axis, v3_cross(u, w)), v3_dot(u, w));
}

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
		pos[0] = turn(a2, phys_quat_rotate(d, a2), a1);
		rel = phys_quat_rotate(phys_quat_mul(phys_quat_conj(
		    phys_quat_about(a1, pos[0])), d), a1);
		pos[1] = turn(a1, rel, a2);
		rel = v3_sub(wc, wp);
		vel[0] = v3_dot(rel, phys_joint_frames_axis(f, pp, 0, pos[0]));
		vel[1] = v3_dot(rel, phys_joint_frames_axis(f, pp, 1, pos[0]));
		return 2;
	default:
		return 0;
	}
}
