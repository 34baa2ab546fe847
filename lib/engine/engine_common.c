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

double
phys_joint_screw_lead(const struct phys_value *v)
{
	if (PV(v, JOINT_screw_thread_pitch)->given)
		return PVD(v, JOINT_screw_thread_pitch) / (2 * M_PI);
	return -1 / PVD(v, JOINT_thread_pitch);
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
phys_link_massless_mass(const struct phys_world *w, int li)
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
