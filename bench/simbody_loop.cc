/*
 * simbody_loop.cc - the bare Simbody loop phys-step is measured against
 * under a Simbody profile: the scene of gen_boxes.sh (N boxes of 0.1 m,
 * 1 kg, in a grid 0.3 m apart, dropped from 0.3 m onto a plane), made as
 * phys makes it for Simbody (each box a free body with a mesh of its
 * faces, its longest edge split in three, an elastic layer of 1 m; the
 * plane a half-space; SDFormat's <simbody> defaults: stiffness 1e8,
 * dissipation 100, friction 0.9, transition speed 0.01 m/s; Simbody's
 * Runge-Kutta-Merson integrator at accuracy 1e-3, each step ending at
 * its millisecond, never interpolated), with Simbody's own contact
 * forces. It prints the final height of the first box, so the work
 * cannot be optimized away.
 */
#include <Simbody.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace SimTK;

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	long steps = argc > 2 ? atol(argv[2]) : 1000;
	int side = (int)ceil(sqrt(n));
	const double h = 0.001;
	MultibodySystem sys;
	SimbodyMatterSubsystem matter(sys);
	GeneralForceSubsystem forces(sys);
	ContactTrackerSubsystem tracker(sys);
	CompliantContactSubsystem contact(sys, tracker);
	Force::Gravity gravity(forces, matter, Vec3(0, 0, -9.8));
	ContactMaterial material(1e8, 100, 0.9, 0.9, 0);
	std::vector<MobilizedBody::Free> boxes;

	contact.setTransitionVelocity(0.01);
	/* The half-space's outward normal is its -x: turned to +z. */
	matter.Ground().updBody().addContactSurface(Rotation(Pi / 2, YAxis),
	    ContactSurface(ContactGeometry::HalfSpace(), material));
	for (int i = 0; i < n; i++) {
		Body::Rigid body(MassProperties(1, Vec3(0),
		    Inertia(0.0016667)));

		body.addContactSurface(Transform(), ContactSurface(
		    ContactGeometry::TriangleMesh(PolygonalMesh::createBrickMesh(
		    Vec3(0.05), 2)), material, 1));
		boxes.push_back(MobilizedBody::Free(matter.Ground(), Transform(),
		    body, Transform()));
	}
	State s = sys.realizeTopology();
	sys.realizeModel(s);
	for (int i = 0; i < n; i++)
		boxes[(size_t)i].setQToFitTransform(s, Transform(Vec3(
		    (i % side) * 0.3, (i / side) * 0.3, 0.3)));
	RungeKuttaMersonIntegrator integ(sys);
	integ.setAccuracy(1e-3);
	integ.setUseInfinityNorm(true);
	integ.setMaximumStepSize(h);
	integ.setAllowInterpolation(false);
	integ.initialize(s);
	for (long k = 1; k <= steps; k++)
		integ.stepTo((double)k / 1000);
	printf("%.9g\n", boxes[0].getBodyOriginLocation(integ.getState())[2]);
	return 0;
}
