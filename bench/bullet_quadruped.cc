/*
 * bullet_quadruped.cc - the bare Bullet loop phys-step is measured against
 * on worlds/quadruped.sdf under its Bullet profile: the quadruped of
 * worlds/robots/quadruped.urdf written here by hand from the URDF's
 * numbers (a 5 kg trunk box 0.38 x 0.19 x 0.11 m dropped from 0.5 m; per
 * leg a 0.6 kg hip cylinder, a 1 kg thigh box, a 0.25 kg calf of a
 * cylinder and its foot sphere, the foot's fixed joint lumped into the
 * calf) on a plane, Bullet bodies at the links' centres of mass, each
 * calf started at its nearest limit, -0.9 rad, as phys-step starts it.
 * Each joint is a 6-DOF spring constraint (as phys makes it) turning
 * about its frame's x axis within the URDF's limits, and a damping of
 * 0.01 N m s/rad is a torque given as its turn over the step; the
 * values phys gives Bullet for that world: 50 iterations, SOR 1.3,
 * ERP 0.2, CFM 0, a surface layer of 1 mm, split impulse below -0.01 m,
 * friction 1, no rolling friction, no bounce, two friction directions,
 * several points a pair at once, no sleeping, one step of exactly h each
 * time. The robot's parts do not collide with each other. It prints the
 * trunk's final height, so the work cannot be optimized away.
 */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

static const double h = 0.001;
static const int ROBOT = 2, GROUND = 1;

static std::vector<std::unique_ptr<btCollisionShape>> shapes;
static std::vector<std::unique_ptr<btRigidBody>> bodies;
static std::vector<std::unique_ptr<btTypedConstraint>> joints;

/* A shape kept for the run. */
static btCollisionShape *
keep(btCollisionShape *s)
{
	shapes.emplace_back(s);
	return s;
}

/* A body of mass m at its centre of mass (x, y, z), inertia about the
 * link's axes, of shape s. */
static btRigidBody *
body(btDiscreteDynamicsWorld &w, double m, double x, double y, double z,
    double ixx, double iyy, double izz, btCollisionShape *s)
{
	btRigidBody::btRigidBodyConstructionInfo ci(m, nullptr, s,
	    btVector3(ixx, iyy, izz));
	auto *b = new btRigidBody(ci);

	b->setWorldTransform(btTransform(btQuaternion(0, 0, 0, 1),
	    btVector3(x, y, z)));
	b->setActivationState(DISABLE_DEACTIVATION);
	b->setFriction(1);
	b->setRollingFriction(0);
	b->setRestitution(0);
	w.addRigidBody(b, ROBOT, GROUND);
	bodies.emplace_back(b);
	return b;
}

/* A compound of one shape at (x, y, z) of the body, its z axis turned
 * onto y when sideways. */
static btCompoundShape *
offset(btCollisionShape *s, double x, double y, double z, bool sideways)
{
	auto *c = new btCompoundShape();
	btQuaternion q(0, 0, 0, 1);

	if (sideways)
		q.setRotation(btVector3(1, 0, 0), M_PI / 2);
	c->addChildShape(btTransform(q, btVector3(x, y, z)), s);
	keep(c);
	return c;
}

/* The joint's frame at (x, y, z) turning about (ax, ay, 0), in body b's
 * frame: its x axis the joint's, y and z as phys completes them. */
static btTransform
frame(const btRigidBody *b, double x, double y, double z, double ax,
    double ay)
{
	btVector3 X(ax, ay, 0), Y = fabs(ax) < 0.9 ? X.cross(btVector3(1, 0, 0)) :
	    X.cross(btVector3(0, 1, 0));
	btVector3 Z = X.cross(Y);
	btMatrix3x3 r(X.x(), Y.x(), Z.x(), X.y(), Y.y(), Z.y(), X.z(), Y.z(),
	    Z.z());

	return b->getWorldTransform().inverse() *
	    btTransform(r, btVector3(x, y, z));
}

/* A revolute joint limited to [lo, hi]: the constraint measures the
 * parent's turn from the child's, so Bullet holds it in [-hi, -lo]. */
static btGeneric6DofSpring2Constraint *
hinge(btDiscreteDynamicsWorld &w, btRigidBody *child, btRigidBody *parent,
    double x, double y, double z, double ax, double ay, double lo,
    double hi)
{
	auto *c = new btGeneric6DofSpring2Constraint(*parent, *child,
	    frame(parent, x, y, z, ax, ay), frame(child, x, y, z, ax, ay),
	    RO_XYZ);

	c->setLinearLowerLimit(btVector3(0, 0, 0));
	c->setLinearUpperLimit(btVector3(0, 0, 0));
	c->setAngularLowerLimit(btVector3(-hi, 0, 0));
	c->setAngularUpperLimit(btVector3(-lo, 0, 0));
	for (int row = 0; row < 6; row++) {
		c->setParam(BT_CONSTRAINT_STOP_ERP, 0.2, row);
		c->setParam(BT_CONSTRAINT_STOP_CFM, 0, row);
	}
	w.addConstraint(c, true);
	joints.emplace_back(c);
	return c;
}

/* Body b turned by angle about the y axis through (x, y, z). */
static void
bend(btRigidBody *b, double x, double y, double z, double angle)
{
	btTransform about(btQuaternion(0, 0, 0, 1), btVector3(x, y, z));
	btTransform turn(btQuaternion(btVector3(0, 1, 0), angle));

	b->setWorldTransform(about * turn * about.inverse() *
	    b->getWorldTransform());
}

int
main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 10000;
	btDefaultCollisionConfiguration config;

	config.setPlaneConvexMultipointIterations(5, 5);
	config.setConvexConvexMultipointIterations(3, 3);
	btCollisionDispatcher dispatcher(&config);
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
	btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
	btCollisionObject ground;
	btRigidBody *trunk, *parts[12][2];
	btVector3 axes[12];

	world.setGravity(btVector3(0, 0, -9.81));
	btContactSolverInfo &si = world.getSolverInfo();
	si.m_numIterations = 50;
	si.m_sor = 1.3;
	si.m_erp = si.m_erp2 = 0.2;
	si.m_globalCfm = 0;
	si.m_linearSlop = 0.001;
	si.m_splitImpulse = true;
	si.m_splitImpulsePenetrationThreshold = -0.01;
	si.m_restitutionVelocityThreshold = 0;
	si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS |
	    SOLVER_ENABLE_FRICTION_DIRECTION_CACHING;
	ground.setFriction(1);
	ground.setRollingFriction(0);
	ground.setCollisionShape(&plane);
	world.addCollisionObject(&ground, GROUND, ROBOT | GROUND);
	trunk = body(world, 5, 0, 0, 0.5, 0.020083333, 0.065208333,
	    0.075208333, keep(new btBoxShape(btVector3(0.19, 0.095, 0.055))));
	for (int l = 0; l < 4; l++) {
		double x = l < 2 ? 0.19 : -0.19, sy = l % 2 ? -1 : 1;
		double y = 0.13 * sy, knee = 0.5 - 0.213;
		btRigidBody *hip, *thigh, *calf;
		btCompoundShape *foot;

		hip = body(world, 0.6, x, y, 0.5, 0.00038375, 0.0006075,
		    0.00038375, offset(keep(new btCylinderShapeZ(btVector3(0.045,
		    0.045, 0.02))), 0, 0, 0, true));
		thigh = body(world, 1, x, y, 0.5 - 0.1065, 0.0038557500,
		    0.0039140833, 0.00020833333,
		    keep(new btBoxShape(btVector3(0.02, 0.015, 0.1065))));
		foot = offset(keep(new btCylinderShapeZ(btVector3(0.013, 0.013,
		    0.0965))), 0, 0, -0.0965 + 0.1198, false);
		foot->addChildShape(btTransform(btQuaternion(0, 0, 0, 1),
		    btVector3(0, 0, -0.213 + 0.1198)),
		    keep(new btSphereShape(0.02)));
		calf = body(world, 0.25, x, y, knee - 0.1198, 0.00118015667,
		    0.00118015667, 0.0000249, foot);
		hinge(world, hip, trunk, x, 0.05 * sy, 0.5, 1, 0, -0.86, 0.86);
		hinge(world, thigh, hip, x, y, 0.5, 0, 1, -0.69, 3);
		hinge(world, calf, thigh, x, y, knee, 0, 1, -2.8, -0.9);
		bend(calf, x, y, knee, -0.9);
		parts[3 * l][0] = hip, parts[3 * l][1] = trunk;
		parts[3 * l + 1][0] = thigh, parts[3 * l + 1][1] = hip;
		parts[3 * l + 2][0] = calf, parts[3 * l + 2][1] = thigh;
		axes[3 * l] = btVector3(1, 0, 0);
		axes[3 * l + 1] = axes[3 * l + 2] = btVector3(0, 1, 0);
	}
	for (long s = 0; s < steps; s++) {
		for (int k = 0; k < 12; k++) {
			btRigidBody *c = parts[k][0], *p = parts[k][1];
			btVector3 a = p->getWorldTransform().getBasis() * axes[k];
			double rate = a.dot(c->getAngularVelocity() -
			    p->getAngularVelocity());

			c->applyTorqueImpulse(a * (-0.01 * rate * h));
			p->applyTorqueImpulse(a * (0.01 * rate * h));
		}
		world.stepSimulation(h, 0, h);
	}
	printf("%.9g\n", trunk->getCenterOfMassPosition().z());
	for (auto &j : joints)
		world.removeConstraint(j.get());
	for (auto &b : bodies)
		world.removeRigidBody(b.get());
	world.removeCollisionObject(&ground);
	return 0;
}
