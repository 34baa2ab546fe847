/*
 * bullet_incline: a ball rolling down a 10 degree incline in bare Bullet,
 * as Gazebo's Bullet sets it up: friction 1 (the smaller of the two
 * objects'), no rolling friction, two friction directions, SOR 1.3, ERP
 * 0.2, a surface layer of 1 mm, split impulse below -0.01 m, 50
 * iterations, one step of 1 ms at a time. A ball of radius 0.1 m and
 * 1 kg starts at rest touching the plane; prints the distance it has
 * rolled after 1 s.
 */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>

int
main()
{
	const double h = 0.001, theta = 0.17453292519943295, r = 0.1;
	btVector3 n(-sin(theta), 0, cos(theta));
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher(&config);
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
	btStaticPlaneShape plane(n, 0);
	btSphereShape sphere(r);
	btCollisionObject ground;

	world.setGravity(btVector3(0, 0, -9.8));
	btContactSolverInfo &si = world.getSolverInfo();
	si.m_numIterations = 50;
	si.m_sor = 1.3;
	si.m_erp = si.m_erp2 = 0.2;
	si.m_linearSlop = 0.001;
	si.m_splitImpulse = true;
	si.m_splitImpulsePenetrationThreshold = -0.01;
	si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
	ground.setCollisionShape(&plane);
	ground.setFriction(1);
	ground.setRollingFriction(0);
	world.addCollisionObject(&ground);
	btRigidBody::btRigidBodyConstructionInfo ci(1, nullptr, &sphere,
	    btVector3(0.004, 0.004, 0.004));
	btRigidBody ball(ci);
	btTransform start;
	start.setIdentity();
	start.setOrigin(n * r);
	ball.setWorldTransform(start);
	ball.setFriction(1);
	ball.setRollingFriction(0);
	ball.setActivationState(DISABLE_DEACTIVATION);
	world.addRigidBody(&ball);
	for (int i = 0; i < 1000; i++)
		world.stepSimulation(h, 0, h);
	btVector3 d = ball.getCenterOfMassPosition() - n * r;
	printf("%.9g\n", d.length());
	world.removeRigidBody(&ball);
	world.removeCollisionObject(&ground);
	return 0;
}
