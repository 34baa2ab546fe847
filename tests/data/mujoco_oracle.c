/*
 * mujoco_oracle.c - what MuJoCo compiles an MJCF file into, for
 * tests/mjcf.bats: one line a body (not the world), then one a joint.
 *
 *   body NAME PARENT x y z qw qx qy qz mass cx cy cz Ixx Iyy Izz Ixy Ixz Iyz
 *   joint NAME BODY TYPE ax ay az lo hi limited damping stiffness
 *       springref armature frictionloss qpos0
 *
 * Poses are world poses after mj_kinematics at qpos0; c is the centre of
 * mass in the world and I the inertia about it in world axes; the joint
 * axis is in the body frame. With a keyframe's name, the poses are those
 * of that keyframe (mj_resetDataKeyframe), and a line a body follows:
 *
 *   vel NAME vx vy vz wx wy wz
 *
 * the velocity of the body frame's origin and the angular velocity, both
 * in world axes. Then one line a named geom, the number of geoms, and
 * one line a contact pair:
 *
 *   geom NAME condim f1 f2 f3 contype conaffinity
 *   ngeom N
 *   pair GEOM1 GEOM2 condim f1 f2 f3 f4 f5 timeconst dampratio
 *       dmin dmax width midpoint power
 *
 * cc -o mujoco_oracle mujoco_oracle.c -lmujoco
 */
#include <stdio.h>

#include <mujoco/mujoco.h>

static const char *const types[] = { "free", "ball", "slide", "hinge" };

static void
world_inertia(const mjModel *m, const mjData *d, int b, double out[6])
{
	const double *R = d->ximat + 9 * b, *I = m->body_inertia + 3 * b;
	double w[3][3];
	int i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			w[i][j] = 0;
			for (k = 0; k < 3; k++)
				w[i][j] += R[3 * i + k] * I[k] * R[3 * j + k];
		}
	out[0] = w[0][0];
	out[1] = w[1][1];
	out[2] = w[2][2];
	out[3] = w[0][1];
	out[4] = w[0][2];
	out[5] = w[1][2];
}

int
main(int argc, char **argv)
{
	char err[1000] = "";
	mjModel *m;
	mjData *d;
	double I[6], v[6];
	int b, j, key = -1;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mujoco_oracle MODEL.xml [KEYFRAME]\n");
		return 2;
	}
	if (!(m = mj_loadXML(argv[1], NULL, err, sizeof err))) {
		fprintf(stderr, "mujoco_oracle: %s\n", err);
		return 1;
	}
	d = mj_makeData(m);
	if (argc == 3) {
		if ((key = mj_name2id(m, mjOBJ_KEY, argv[2])) < 0) {
			fprintf(stderr, "mujoco_oracle: no keyframe %s\n",
			    argv[2]);
			return 1;
		}
		mj_resetDataKeyframe(m, d, key);
	}
	mj_kinematics(m, d);
	mj_comPos(m, d);
	mj_comVel(m, d);
	for (b = 1; b < m->nbody; b++) {
		world_inertia(m, d, b, I);
		printf("body %s %s %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
		    "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
		    "%.17g\n", mj_id2name(m, mjOBJ_BODY, b),
		    m->body_parentid[b] ? mj_id2name(m, mjOBJ_BODY,
		    m->body_parentid[b]) : "world",
		    d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2],
		    d->xquat[4 * b], d->xquat[4 * b + 1], d->xquat[4 * b + 2],
		    d->xquat[4 * b + 3], m->body_mass[b], d->xipos[3 * b],
		    d->xipos[3 * b + 1], d->xipos[3 * b + 2], I[0], I[1], I[2],
		    I[3], I[4], I[5]);
		if (key < 0)
			continue;
		mj_objectVelocity(m, d, mjOBJ_XBODY, b, v, 0);
		printf("vel %s %.17g %.17g %.17g %.17g %.17g %.17g\n",
		    mj_id2name(m, mjOBJ_BODY, b), v[3], v[4], v[5], v[0], v[1],
		    v[2]);
	}
	for (j = 0; j < m->njnt; j++)
		printf("joint %s %s %s %.17g %.17g %.17g %.17g %.17g %d %.17g "
		    "%.17g %.17g %.17g %.17g %.17g\n", mj_id2name(m, mjOBJ_JOINT, j),
		    mj_id2name(m, mjOBJ_BODY, m->jnt_bodyid[j]),
		    types[m->jnt_type[j]], m->jnt_axis[3 * j],
		    m->jnt_axis[3 * j + 1], m->jnt_axis[3 * j + 2],
		    m->jnt_range[2 * j], m->jnt_range[2 * j + 1],
		    m->jnt_limited[j], m->dof_damping[m->jnt_dofadr[j]],
		    m->jnt_stiffness[j], m->qpos_spring[m->jnt_qposadr[j]],
		    m->dof_armature[m->jnt_dofadr[j]],
		    m->dof_frictionloss[m->jnt_dofadr[j]],
		    m->qpos0[m->jnt_qposadr[j]]);
	for (j = 0; j < m->ngeom; j++)
		if (mj_id2name(m, mjOBJ_GEOM, j))
			printf("geom %s %d %.17g %.17g %.17g %d %d\n",
			    mj_id2name(m, mjOBJ_GEOM, j), m->geom_condim[j],
			    m->geom_friction[3 * j],
			    m->geom_friction[3 * j + 1],
			    m->geom_friction[3 * j + 2], m->geom_contype[j],
			    m->geom_conaffinity[j]);
	printf("ngeom %d\n", m->ngeom);
	for (j = 0; j < m->npair; j++)
		printf("pair %s %s %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
		    "%.17g %.17g %.17g %.17g %.17g\n",
		    mj_id2name(m, mjOBJ_GEOM, m->pair_geom1[j]),
		    mj_id2name(m, mjOBJ_GEOM, m->pair_geom2[j]),
		    m->pair_dim[j], m->pair_friction[5 * j],
		    m->pair_friction[5 * j + 1], m->pair_friction[5 * j + 2],
		    m->pair_friction[5 * j + 3], m->pair_friction[5 * j + 4],
		    m->pair_solref[2 * j], m->pair_solref[2 * j + 1],
		    m->pair_solimp[5 * j], m->pair_solimp[5 * j + 1],
		    m->pair_solimp[5 * j + 2], m->pair_solimp[5 * j + 3],
		    m->pair_solimp[5 * j + 4]);
	mj_deleteData(d);
	mj_deleteModel(m);
	return 0;
}
