/*
 * bullet_loop.cc - the bare Bullet loop phys-step is measured against
 * under a Bullet profile: the scene of gen_boxes.sh (N boxes of 0.1 m,
 * 1 kg, in a grid 0.3 m apart, dropped from 0.3 m onto a plane), 50
 * solver iterations, with the values phys gives Bullet for that world
 * (SDFormat's defaults: SOR 1.3, ERP 0.2, a surface layer of 1 mm, split
 * impulse below -0.01 m, friction 1 and no rolling friction, no bounce)
 * and phys's settings (two friction directions, four-point box-plane
 * manifolds at every step, no sleeping, one step of exactly h each time). It
 * prints the final height of the first box, so the work cannot be
 * optimized away.
 */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	long steps = argc > 2 ? atol(argv[2]) : 2000;
	int side = (int)ceil(sqrt(n));
	const double h = 0.001;
	btDefaultCollisionConfiguration config;

	config.setPlaneConvexMultipointIterations(5, 5);
	config.setConvexConvexMultipointIterations(3, 3);
	btCollisionDispatcher dispatcher(&config);
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
	btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
	btBoxShape box(btVector3(0.05, 0.05, 0.05));
	btCollisionObject ground;
	std::vector<std::unique_ptr<btRigidBody>> bodies;

	world.setGravity(btVector3(0, 0, -9.8));
	btContactSolverInfo &si = world.getSolverInfo();
	si.m_numIterations = 50;
	si.m_sor = 1.3;
	si.m_erp = si.m_erp2 = 0.2;
	si.m_linearSlop = 0.001;
	si.m_splitImpulse = true;
	si.m_splitImpulsePenetrationThreshold = -0.01;
	si.m_restitutionVelocityThreshold = 0;
	si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
	/* Bullet multiplies the two bodies' friction (1 and 1 as in phys)
	 * and their rolling friction (none, as in phys and Gazebo). */
	ground.setFriction(1);
	ground.setRollingFriction(0);
	ground.setCollisionShape(&plane);
	world.addCollisionObject(&ground);
	for (int i = 0; i < n; i++) {
		btRigidBody::btRigidBodyConstructionInfo ci(1, nullptr, &box,
		    btVector3(0.0016667, 0.0016667, 0.0016667));
		auto *b = new btRigidBody(ci);

		b->setWorldTransform(btTransform(btQuaternion(0, 0, 0, 1),
		    btVector3((i % side) * 0.3, (i / side) * 0.3, 0.3)));
		b->setActivationState(DISABLE_DEACTIVATION);
		b->setFriction(1);
		b->setRollingFriction(0);
		b->setRestitution(0);
		world.addRigidBody(b);
		bodies.emplace_back(b);
	}
	for (long s = 0; s < steps; s++)
		world.stepSimulation(h, 0, h);
	printf("%.9g\n", bodies[0]->getCenterOfMassPosition().z());
	for (auto &b : bodies)
		world.removeRigidBody(b.get());
	world.removeCollisionObject(&ground);
	return 0;
}
