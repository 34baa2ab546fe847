/* engine_common.c - what every engine module computes the same way. */
#include "engine_common.h"

#include <math.h>
#include <stdbool.h>

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
