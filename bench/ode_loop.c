/*
 * ode_loop.c - the bare ODE loop phys-step is measured against: the scene
 * of gen_boxes.sh (N boxes of 0.1 m, 1 kg, in a grid 0.3 m apart, dropped
 * from 0.3 m onto a plane), stepped with quick step and 50 iterations,
 * contacts with the same surface values phys-step gives them by default
 * (mu 1, kp 1e12 and kd 1 per surface, max_vel 0.01, up to 10 contacts a
 * pair). It prints the final height of the first box, so the work cannot
 * be optimized away and the two programs can be compared. With a third
 * argument, an OBJ file of "v" and "f" lines (bench/gen_ground.sh), the
 * ground is that static triangle mesh instead of the plane: the same
 * 20,000 triangles phys-step reads from the file through assimp, with the
 * same preprocessing (face angles), in the same hash space.
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
	if (!b1 && !b2)
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

/* The OBJ ground as an ODE triangle mesh; the arrays live to the end. */
static void
mesh_ground(dSpaceID space, const char *path)
{
	FILE *f = fopen(path, "r");
	double *v = NULL, x, y, z;
	dTriIndex *t = NULL;
	size_t nv = 0, nt = 0;
	unsigned a, b, c;
	char line[256];
	dTriMeshDataID d = dGeomTriMeshDataCreate();

	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "v %lf %lf %lf", &x, &y, &z) == 3) {
			v = realloc(v, (nv + 1) * 3 * sizeof *v);
			v[3 * nv] = x, v[3 * nv + 1] = y, v[3 * nv + 2] = z;
			nv++;
		} else if (sscanf(line, "f %u %u %u", &a, &b, &c) == 3) {
			t = realloc(t, (nt + 1) * 3 * sizeof *t);
			t[3 * nt] = a - 1, t[3 * nt + 1] = b - 1, t[3 * nt + 2] = c - 1;
			nt++;
		}
	}
	fclose(f);
	dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof *v, (int)nv, t,
	    (int)(3 * nt), 3 * sizeof *t);
	dGeomTriMeshDataPreprocess2(d,
	    1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
	dCreateTriMesh(space, d, NULL, NULL, NULL);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	long steps = argc > 2 ? atol(argv[2]) : 2000, s;
	int side = (int)ceil(sqrt(n)), i;
	dBodyID *bodies = calloc((size_t)n, sizeof *bodies);
	dSpaceID space;
	dMass m;

	dInitODE2(0);
	world = dWorldCreate();
	space = dHashSpaceCreate(NULL);
	contacts = dJointGroupCreate(0);
	dWorldSetGravity(world, 0, 0, -9.8);
	dWorldSetQuickStepNumIterations(world, 50);
	dWorldSetQuickStepW(world, 1.3);
	dWorldSetERP(world, 0.2);
	dWorldSetCFM(world, 0);
	dWorldSetContactSurfaceLayer(world, 0);
	dWorldSetContactMaxCorrectingVel(world, 0.01);
	dWorldSetAutoDisableFlag(world, 0);
	if (argc > 3)
		mesh_ground(space, argv[3]);
	else
		dCreatePlane(space, 0, 0, 1, 0);
	for (i = 0; i < n; i++) {
		bodies[i] = dBodyCreate(world);
		dMassSetParameters(&m, 1, 0, 0, 0, 0.0016667, 0.0016667,
		    0.0016667, 0, 0, 0);
		dBodySetMass(bodies[i], &m);
		dBodySetPosition(bodies[i], (i % side) * 0.3, (i / side) * 0.3,
		    0.3);
		dGeomSetBody(dCreateBox(space, 0.1, 0.1, 0.1), bodies[i]);
	}
	for (s = 0; s < steps; s++) {
		dSpaceCollide(space, NULL, near);
		dWorldQuickStep(world, h);
		dJointGroupEmpty(contacts);
	}
	printf("%.9g\n", dBodyGetPosition(bodies[0])[2]);
	dCloseODE();
	return 0;
}
