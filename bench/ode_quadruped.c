/*
 * ode_quadruped.c - the bare ODE loop phys-step is measured against on
 * worlds/quadruped.sdf under its ODE profile: the quadruped of
 * worlds/robots/quadruped.urdf written here by hand from the URDF's
 * numbers (a 5 kg trunk box 0.38 x 0.19 x 0.11 m dropped from 0.5 m; per
 * leg a 0.6 kg hip cylinder, a 1 kg thigh box, a 0.25 kg calf of a
 * cylinder and its foot sphere, the foot's fixed joint lumped into the
 * calf; hinges with the URDF's limits and a damping of 0.01 N m s/rad)
 * on a plane, ODE bodies at the links' centres of mass, each calf started
 * at its nearest limit, -0.9 rad, as phys-step starts it. Quick step of 50
 * iterations, SOR 1.3, ERP 0.2, contacts as phys-step gives them by
 * default (the smaller mu of the two surfaces, 1; kp 1e12 and kd 1 per
 * surface; max_vel 0.01; up to 10 a pair), the robot's parts not
 * colliding with each other. It prints the trunk's final height, so the
 * work cannot be optimized away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ode/ode.h>

static dWorldID world;
static dJointGroupID contacts;
static const double h = 0.001;

static void
near(void *data, dGeomID g1, dGeomID g2)
{
	dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
	dContactGeom cg[10];
	double kp = 1 / (1 / 1e12 + 1 / 1e12), kd = 2;
	dContact c;
	int i, n;

	(void)data;
	if (!b1 == !b2)		/* both static, or both the robot's */
		return;
	n = dCollide(g1, g2, 10, cg, sizeof *cg);
	for (i = 0; i < n; i++) {
		c.geom = cg[i];
		c.surface.mode = dContactSoftERP | dContactSoftCFM | dContactMu2 |
		    dContactApprox1;
		c.surface.mu = c.surface.mu2 = 1;
		c.surface.soft_erp = h * kp / (h * kp + kd);
		c.surface.soft_cfm = 1 / (h * kp + kd);
		dJointAttach(dJointCreateContact(world, contacts, &c), b1, b2);
	}
}

/* A body of mass m at its centre of mass (x, y, z), inertia about the
 * link's axes. */
static dBodyID
body(double m, double x, double y, double z, double ixx, double iyy,
    double izz)
{
	dBodyID b = dBodyCreate(world);
	dMass ms;

	dMassSetParameters(&ms, m, 0, 0, 0, ixx, iyy, izz, 0, 0, 0);
	dBodySetMass(b, &ms);
	dBodySetPosition(b, x, y, z);
	return b;
}

/* A geom on body b, offset (x, y, z) from its centre of mass, its z axis
 * turned onto y when sideways. */
static void
place(dGeomID g, dBodyID b, double x, double y, double z, int sideways)
{
	dMatrix3 r;

	dGeomSetBody(g, b);
	dGeomSetOffsetPosition(g, x, y, z);
	if (sideways) {
		dRFromAxisAndAngle(r, 1, 0, 0, M_PI / 2);
		dGeomSetOffsetRotation(g, r);
	}
}

static dJointID
hinge(dBodyID child, dBodyID parent, double x, double y, double z,
    double ax, double ay, double lo, double hi)
{
	dJointID j = dJointCreateHinge(world, NULL);

	dJointAttach(j, child, parent);
	dJointSetHingeAnchor(j, x, y, z);
	dJointSetHingeAxis(j, ax, ay, 0);
	dJointSetHingeParam(j, dParamLoStop, lo);
	dJointSetHingeParam(j, dParamHiStop, hi);
	return j;
}

/* Body b turned by angle about the y axis through (x, y, z). */
static void
bend(dBodyID b, double x, double y, double z, double angle)
{
	const dReal *p = dBodyGetPosition(b);
	double c = cos(angle), s = sin(angle), dx = p[0] - x, dz = p[2] - z;
	dMatrix3 r;

	dRFromAxisAndAngle(r, 0, 1, 0, angle);
	dBodySetRotation(b, r);
	dBodySetPosition(b, x + c * dx + s * dz, p[1], z - s * dx + c * dz);
}

int
main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 10000, s;
	dJointID joints[12];
	dSpaceID space;
	dBodyID trunk;
	int l, k;

	dInitODE2(0);
	world = dWorldCreate();
	space = dHashSpaceCreate(NULL);
	contacts = dJointGroupCreate(0);
	dWorldSetGravity(world, 0, 0, -9.81);
	dWorldSetQuickStepNumIterations(world, 50);
	dWorldSetQuickStepW(world, 1.3);
	dWorldSetERP(world, 0.2);
	dWorldSetCFM(world, 0);
	dWorldSetContactSurfaceLayer(world, 0);
	dWorldSetContactMaxCorrectingVel(world, 0.01);
	dWorldSetAutoDisableFlag(world, 0);
	dCreatePlane(space, 0, 0, 1, 0);
	trunk = body(5, 0, 0, 0.5, 0.020083333, 0.065208333, 0.075208333);
	place(dCreateBox(space, 0.38, 0.19, 0.11), trunk, 0, 0, 0, 0);
	for (l = 0; l < 4; l++) {
		double x = l < 2 ? 0.19 : -0.19, sy = l % 2 ? -1 : 1;
		double y = 0.13 * sy, knee = 0.5 - 0.213;
		dBodyID hip, thigh, calf;

		hip = body(0.6, x, y, 0.5, 0.00038375, 0.0006075, 0.00038375);
		place(dCreateCylinder(space, 0.045, 0.04), hip, 0, 0, 0, 1);
		thigh = body(1, x, y, 0.5 - 0.1065, 0.0038557500,
		    0.0039140833, 0.00020833333);
		place(dCreateBox(space, 0.04, 0.03, 0.213), thigh, 0, 0, 0, 0);
		calf = body(0.25, x, y, knee - 0.1198, 0.00118015667,
		    0.00118015667, 0.0000249);
		place(dCreateCylinder(space, 0.013, 0.193), calf, 0, 0,
		    -0.0965 + 0.1198, 0);
		place(dCreateSphere(space, 0.02), calf, 0, 0, -0.213 + 0.1198,
		    0);
		joints[3 * l] = hinge(hip, trunk, x, 0.05 * sy, 0.5, 1, 0,
		    -0.86, 0.86);
		joints[3 * l + 1] = hinge(thigh, hip, x, y, 0.5, 0, 1, -0.69, 3);
		joints[3 * l + 2] = hinge(calf, thigh, x, y, knee, 0, 1, -2.8,
		    -0.9);
		bend(calf, x, y, knee, -0.9);
	}
	for (s = 0; s < steps; s++) {
		for (k = 0; k < 12; k++)
			dJointAddHingeTorque(joints[k],
			    -0.01 * dJointGetHingeAngleRate(joints[k]));
		dSpaceCollide(space, NULL, near);
		dWorldQuickStep(world, h);
		dJointGroupEmpty(contacts);
	}
	printf("%.9g\n", dBodyGetPosition(trunk)[2]);
	dJointGroupDestroy(contacts);
	dSpaceDestroy(space);
	dWorldDestroy(world);
	dCloseODE();
	return 0;
}
