/*
 * mujoco_loop.c - the bare MuJoCo loop phys-step is measured against
 * under a MuJoCo profile: the scene of gen_boxes.sh (N boxes of 0.1 m,
 * 1 kg, in a grid 0.3 m apart, dropped from 0.3 m onto a plane) as MJCF
 * loaded from memory, with MuJoCo's defaults, which are phys's for that
 * world (Euler, Newton, 100 iterations, pyramidal cones, contacts of
 * friction 1, solref 0.02 1, solimp 0.9 0.95 0.001), stepped with
 * mj_step. The constraint arrays are given the room phys-step's grow to
 * for the 100-box world. It prints the final height of the first box, so
 * the work cannot be optimized away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

static char *
scene(int n)
{
	size_t cap = 4096 + 512 * (size_t)n, len = 0;
	char *s = malloc(cap);
	int side = (int)ceil(sqrt(n)), i;

	len += (size_t)snprintf(s + len, cap - len,
	    "<mujoco><compiler angle=\"radian\" inertiafromgeom=\"false\"/>"
	    "<option timestep=\"0.001\" gravity=\"0 0 -9.8\"/>"
	    "<size nconmax=\"%d\" njmax=\"%d\"/>"
	    "<worldbody><geom type=\"plane\" size=\"0 0 1\"/>",
	    8 * n + 64, 32 * n + 128);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len,
		    "<body pos=\"%g %g 0.3\"><joint type=\"free\"/>"
		    "<inertial pos=\"0 0 0\" mass=\"1\" "
		    "diaginertia=\"0.0016667 0.0016667 0.0016667\"/>"
		    "<geom type=\"box\" size=\"0.05 0.05 0.05\"/></body>",
		    (i % side) * 0.3, (i / side) * 0.3);
	snprintf(s + len, cap - len, "</worldbody></mujoco>");
	return s;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	long steps = argc > 2 ? atol(argv[2]) : 2000, i;
	char *xml = scene(n), err[1024];
	mjVFS *vfs = calloc(1, sizeof *vfs);
	mjModel *m;
	mjData *d;

	mj_defaultVFS(vfs);
	mj_makeEmptyFileVFS(vfs, "boxes.xml", (int)strlen(xml));
	memcpy(vfs->filedata[0], xml, strlen(xml));
	if (!(m = mj_loadXML("boxes.xml", vfs, err, sizeof err))) {
		fprintf(stderr, "mujoco_loop: %s\n", err);
		return 1;
	}
	d = mj_makeData(m);
	for (i = 0; i < steps; i++)
		mj_step(m, d);
	printf("%.9g\n", d->qpos[2]);
	mj_deleteData(d);
	mj_deleteModel(m);
	mj_deleteVFS(vfs);
	free(vfs);
	free(xml);
	return 0;
}
