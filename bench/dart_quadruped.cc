/*
 * dart_quadruped.cc - the bare DART loop phys-step is measured against on
 * worlds/quadruped.sdf under its DART profile: the quadruped of
 * worlds/robots/quadruped.urdf written here by hand from the URDF's
 * numbers (a 5 kg trunk box 0.38 x 0.19 x 0.11 m dropped from 0.5 m; per
 * leg a 0.6 kg hip cylinder, a 1 kg thigh box, a 0.25 kg calf of a
 * cylinder and its foot sphere, the foot's fixed joint lumped into the
 * calf; revolute joints with the URDF's limits and a damping of 0.01
 * N m s/rad) as one skeleton, on a plane, as DART runs it by itself:
 * DART's ODE collision detector, its Dantzig solver with the projected
 * Gauss-Seidel fallback, its own contacts of friction 1 (the smaller mu
 * of the two surfaces, as phys takes it) and its own joint limits, steps
 * of 1 ms. The calves start at their nearest limit (see below). It prints
 * the trunk's final height and the last step's contacts, so the work
 * cannot be optimized away.
 */
#include <dart/collision/ode/OdeCollisionDetector.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/CylinderShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/PlaneShape.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace dd = dart::dynamics;

/* A shape on body b at (x, y, z) of its frame, its z axis turned onto y
 * when sideways. */
static void
shape(dd::BodyNode *b, const dd::ShapePtr &s, double x, double y, double z,
    bool sideways = false)
{
	auto *n = b->createShapeNodeWith<dd::CollisionAspect,
	    dd::DynamicsAspect>(s);
	Eigen::Isometry3d t = Eigen::Isometry3d::Identity();

	if (sideways)
		t.linear() = Eigen::AngleAxisd(M_PI / 2,
		    Eigen::Vector3d::UnitX()).toRotationMatrix();
	t.translation() = Eigen::Vector3d(x, y, z);
	n->setRelativeTransform(t);
	n->getDynamicsAspect()->setFrictionCoeff(1);
}

/* A body on a revolute joint at (x, y, z) of its parent's frame. */
static dd::BodyNode *
link(const dd::SkeletonPtr &skel, dd::BodyNode *parent, const char *name,
    double x, double y, double z, const Eigen::Vector3d &axis, double lo,
    double hi, double m, const Eigen::Vector3d &com,
    const Eigen::Vector3d &moments)
{
	dd::RevoluteJoint::Properties jp;
	dd::BodyNode::Properties bp;

	jp.mName = std::string(name) + "_joint";
	bp.mName = name;

	jp.mT_ParentBodyToJoint.translation() = Eigen::Vector3d(x, y, z);
	jp.mAxis = axis;
	jp.mPositionLowerLimits[0] = lo;
	jp.mPositionUpperLimits[0] = hi;
	jp.mIsPositionLimitEnforced = true;
	jp.mDampingCoefficients[0] = 0.01;
	bp.mInertia = dd::Inertia(m, com, moments.asDiagonal());
	return skel->createJointAndBodyNodePair<dd::RevoluteJoint>(parent, jp,
	    bp).second;
}

int
main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 10000;
	auto world = dart::simulation::World::create();
	auto ground = dd::Skeleton::create("ground");
	auto robot = dd::Skeleton::create("quadruped");
	Eigen::Vector3d x = Eigen::Vector3d::UnitX();
	Eigen::Vector3d y = Eigen::Vector3d::UnitY();

	std::cerr.rdbuf(nullptr);	/* as phys-step keeps DART quiet */
	world->setTimeStep(0.001);
	world->setGravity(Eigen::Vector3d(0, 0, -9.81));
	world->getConstraintSolver()->setCollisionDetector(
	    dart::collision::OdeCollisionDetector::create());

	auto g = ground->createJointAndBodyNodePair<dd::WeldJoint>().second;
	shape(g, std::make_shared<dd::PlaneShape>(Eigen::Vector3d::UnitZ(), 0),
	    0, 0, 0);
	ground->setMobile(false);
	world->addSkeleton(ground);

	dd::BodyNode::Properties tp;
	tp.mInertia = dd::Inertia(5, Eigen::Vector3d::Zero(),
	    Eigen::Vector3d(0.020083333, 0.065208333, 0.075208333).asDiagonal());
	auto trunk = robot->createJointAndBodyNodePair<dd::FreeJoint>(nullptr,
	    dd::FreeJoint::Properties(), tp);
	shape(trunk.second, std::make_shared<dd::BoxShape>(
	    Eigen::Vector3d(0.38, 0.19, 0.11)), 0, 0, 0);
	for (int l = 0; l < 4; l++) {
		double sx = l < 2 ? 1 : -1, sy = l % 2 ? -1 : 1;
		std::string leg = std::string(l < 2 ? "F" : "R") +
		    (l % 2 ? "R" : "L");
		auto *hip = link(robot, trunk.second, (leg + "_hip").c_str(),
		    0.19 * sx, 0.05 * sy, 0, x,
		    -0.86, 0.86, 0.6, Eigen::Vector3d(0, 0.08 * sy, 0),
		    Eigen::Vector3d(0.00038375, 0.0006075, 0.00038375));
		auto *thigh = link(robot, hip, (leg + "_thigh").c_str(), 0, 0.08 * sy, 0, y, -0.69, 3, 1,
		    Eigen::Vector3d(0, 0, -0.1065),
		    Eigen::Vector3d(0.0038557500, 0.0039140833, 0.00020833333));
		auto *calf = link(robot, thigh, (leg + "_calf").c_str(), 0, 0, -0.213, y, -2.8, -0.9,
		    0.25, Eigen::Vector3d(0, 0, -0.1198),
		    Eigen::Vector3d(0.00118015667, 0.00118015667, 0.0000249));
		/* at its nearest limit, as phys-step starts a calf started
		 * outside its limits (DART's limit would hold it there) */
		calf->getParentJoint()->setPosition(0, -0.9);

		shape(hip, std::make_shared<dd::CylinderShape>(0.045, 0.04), 0,
		    0.08 * sy, 0, true);
		shape(thigh, std::make_shared<dd::BoxShape>(
		    Eigen::Vector3d(0.04, 0.03, 0.213)), 0, 0, -0.1065);
		shape(calf, std::make_shared<dd::CylinderShape>(0.013, 0.193),
		    0, 0, -0.0965);
		shape(calf, std::make_shared<dd::SphereShape>(0.02), 0, 0,
		    -0.213);
	}
	Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
	t.translation() = Eigen::Vector3d(0, 0, 0.5);
	dd::FreeJoint::setTransformOf(trunk.first, t);
	world->addSkeleton(robot);
	for (long s = 0; s < steps; s++)
		world->step();
	printf("%.9g %zu\n", trunk.second->getWorldTransform().translation().z(),
	    world->getLastCollisionResult().getNumContacts());
	return 0;
}
