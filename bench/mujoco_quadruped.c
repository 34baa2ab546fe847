/*
 * mujoco_quadruped.c - the bare MuJoCo loop phys-step is measured against
 * on worlds/quadruped.sdf under its MuJoCo profile: the quadruped of
 * worlds/robots/quadruped.urdf written here by hand as MJCF from the
 * URDF's numbers (a 5 kg trunk box 0.38 x 0.19 x 0.11 m dropped from
 * 0.5 m; per leg a 0.6 kg hip cylinder, a 1 kg thigh box, a 0.25 kg calf
 * of a cylinder and its foot sphere; hinges of damping 0.01 N m s/rad
 * and the URDF's limits) on Gazebo's ground plane, the robot's own
 * parts not colliding with each other (the model does not self-collide),
 * each calf started at its nearest limit, -0.9 rad, as phys-step starts
 * it.
 * A contact's friction is the smaller of its surfaces' mu, as under ODE
 * (the ground's 100 against the robot's 1: 1, where MuJoCo would take
 * the larger); then
 * MuJoCo's solver defaults (Euler, Newton, 100 iterations, pyramidal
 * cones) at a 1 ms step. It prints the trunk's final height, so the work
 * cannot be optimized away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

/* The leg at x side sx (1 front, -1 rear) and y side sy (1 left). */
static size_t
leg(char *s, size_t cap, const char *name, int sx, int sy)
{
	return (size_t)snprintf(s, cap,
	    "<body name=\"%s_hip\" pos=\"%g %g 0\">"
	    "<inertial pos=\"0 %g 0\" quat=\"0.70710678 0.70710678 0 0\" "
	    "mass=\"0.6\" diaginertia=\"0.00038375 0.00038375 0.0006075\"/>"
	    "<joint type=\"hinge\" axis=\"1 0 0\" range=\"-0.86 0.86\" "
	    "limited=\"true\" damping=\"0.01\"/>"
	    "<geom type=\"cylinder\" size=\"0.045 0.02\" pos=\"0 %g 0\" "
	    "quat=\"0.70710678 0.70710678 0 0\"/>"
	    "<body pos=\"0 %g 0\">"
	    "<inertial pos=\"0 0 -0.1065\" quat=\"0.5 -0.5 -0.5 -0.5\" "
	    "mass=\"1\" diaginertia=\"0.00020833 0.00385575 0.00391408\"/>"
	    "<joint type=\"hinge\" axis=\"0 1 0\" range=\"-0.69 3\" "
	    "limited=\"true\" damping=\"0.01\"/>"
	    "<geom type=\"box\" size=\"0.02 0.015 0.1065\" "
	    "pos=\"0 0 -0.1065\"/>"
	    "<body pos=\"0 0 -0.213\">"
	    "<inertial pos=\"0 0 -0.1198\" quat=\"0.5 -0.5 -0.5 -0.5\" "
	    "mass=\"0.25\" diaginertia=\"2.49e-05 0.00118016 0.00118016\"/>"
	    "<joint type=\"hinge\" axis=\"0 1 0\" range=\"-2.8 -0.9\" "
	    "limited=\"true\" damping=\"0.01\"/>"
	    "<geom type=\"cylinder\" size=\"0.013 0.0965\" "
	    "pos=\"0 0 -0.0965\"/>"
	    "<geom type=\"sphere\" size=\"0.02\" pos=\"0 0 -0.213\"/>"
	    "</body></body></body>",
	    name, 0.19 * sx, 0.05 * sy, 0.08 * sy, 0.08 * sy, 0.08 * sy);
}

static char *
scene(void)
{
	size_t cap = 16384, len = 0;
	char *s = malloc(cap);

	len += (size_t)snprintf(s + len, cap - len,
	    "<mujoco><compiler angle=\"radian\" inertiafromgeom=\"false\"/>"
	    "<option timestep=\"0.001\" gravity=\"0 0 -9.81\"/>"
	    "<default><geom contype=\"1\" conaffinity=\"0\" condim=\"3\"/>"
	    "</default>"
	    "<worldbody><geom type=\"plane\" size=\"0 0 1\" contype=\"0\" "
	    "conaffinity=\"1\"/>"
	    "<body name=\"trunk\" pos=\"0 0 0.5\"><freejoint/>"
	    "<inertial pos=\"0 0 0\" mass=\"5\" "
	    "diaginertia=\"0.02008333 0.06520833 0.07520833\"/>"
	    "<geom type=\"box\" size=\"0.19 0.095 0.055\"/>");
	len += leg(s + len, cap - len, "FL", 1, 1);
	len += leg(s + len, cap - len, "FR", 1, -1);
	len += leg(s + len, cap - len, "RL", -1, 1);
	len += leg(s + len, cap - len, "RR", -1, -1);
	snprintf(s + len, cap - len, "</body></worldbody></mujoco>");
	return s;
}

int
main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 10000, i;
	char *xml = scene(), err[1024];
	mjVFS *vfs = calloc(1, sizeof *vfs);
	mjModel *m;
	mjData *d;

	mj_defaultVFS(vfs);
	mj_makeEmptyFileVFS(vfs, "quadruped.xml", (int)strlen(xml));
	memcpy(vfs->filedata[0], xml, strlen(xml));
	if (!(m = mj_loadXML("quadruped.xml", vfs, err, sizeof err))) {
		fprintf(stderr, "mujoco_quadruped: %s\n", err);
		return 1;
	}
	d = mj_makeData(m);
	/* the calves: every third hinge after the free joint */
	for (i = 3; i < m->njnt; i += 3)
		d->qpos[m->jnt_qposadr[i]] = -0.9;
	for (i = 0; i < steps; i++)
		mj_step(m, d);
	printf("%.9g %d\n", d->qpos[2], d->ncon);
	mj_deleteData(d);
	mj_deleteModel(m);
	mj_deleteVFS(vfs);
	free(vfs);
	free(xml);
	return 0;
}
