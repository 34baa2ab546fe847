/*
 * dart_loop.cc - the bare DART loop phys-step is measured against under a
 * DART profile: the scene of gen_boxes.sh (N boxes of 0.1 m, 1 kg, in a
 * grid 0.3 m apart, dropped from 0.3 m onto the ground), as DART runs it
 * by itself: a skeleton of one free body a box, FCL's primitive shapes
 * with the ground a box 2 km wide (as phys makes a plane for FCL), DART's
 * Dantzig solver with its projected Gauss-Seidel fallback, DART's own
 * contacts (friction 1, no bounce), steps of 1 ms. It prints the final
 * height of the first box, so the work cannot be optimized away.
 */
#include <dart/collision/fcl/FCLCollisionDetector.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace dd = dart::dynamics;

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	long steps = argc > 2 ? atol(argv[2]) : 2000;
	int side = (int)ceil(sqrt(n));
	auto world = dart::simulation::World::create();
	auto fcl = dart::collision::FCLCollisionDetector::create();
	auto box = std::make_shared<dd::BoxShape>(Eigen::Vector3d(0.1, 0.1, 0.1));
	auto slab = std::make_shared<dd::BoxShape>(Eigen::Vector3d(2000, 2000,
	    2000));
	dd::BodyNode *first = nullptr;

	std::cerr.rdbuf(nullptr);	/* as phys-step keeps DART quiet */
	world->setTimeStep(0.001);
	world->setGravity(Eigen::Vector3d(0, 0, -9.8));
	fcl->setPrimitiveShapeType(dart::collision::FCLCollisionDetector::PRIMITIVE);
	world->getConstraintSolver()->setCollisionDetector(fcl);

	auto ground = dd::Skeleton::create("ground");
	dd::WeldJoint::Properties wp;
	wp.mT_ParentBodyToJoint.translation() = Eigen::Vector3d(0, 0, -1000);
	auto g = ground->createJointAndBodyNodePair<dd::WeldJoint>(nullptr, wp);
	g.second->createShapeNodeWith<dd::CollisionAspect,
	    dd::DynamicsAspect>(slab);
	ground->setMobile(false);
	world->addSkeleton(ground);
	for (int i = 0; i < n; i++) {
		auto skel = dd::Skeleton::create("box" + std::to_string(i));
		auto pair = skel->createJointAndBodyNodePair<dd::FreeJoint>();
		Eigen::Isometry3d t = Eigen::Isometry3d::Identity();

		pair.second->setInertia(dd::Inertia(1, Eigen::Vector3d::Zero(),
		    Eigen::Vector3d(0.0016667, 0.0016667, 0.0016667).asDiagonal()));
		pair.second->createShapeNodeWith<dd::CollisionAspect,
		    dd::DynamicsAspect>(box);
		t.translation() = Eigen::Vector3d((i % side) * 0.3,
		    (i / side) * 0.3, 0.3);
		dd::FreeJoint::setTransformOf(pair.first, t);
		world->addSkeleton(skel);
		if (!first)
			first = pair.second;
	}
	for (long s = 0; s < steps; s++)
		world->step();
	printf("%.9g\n", first->getWorldTransform().translation().z());
	return 0;
}
