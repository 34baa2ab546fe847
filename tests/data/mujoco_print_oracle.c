/*
 * mujoco_print_oracle.c - an MJCF file as Debian's libmujoco 2.2.2
 * compiles it: the independent reference tests/mjcf-print.bats compares
 * phys-sdf print --format mjcf with. Loads the file by mj_loadXML, places
 * the model at qpos0 (mj_kinematics) and prints one JSON line per body,
 * joint and geom, and one for <option>:
 *
 *   body: mass, world pose (pos, rotation matrix row by row), the centre
 *         of mass in the body frame and the inertia tensor about it in
 *         the body frame's axes (iquat diag(inertia) iquat^T);
 *   joint: type, world anchor and axis, range (when limited), damping,
 *         stiffness, springref, frictionloss, armature, and its limits'
 *         margin, solref and solimp;
 *   geom: type, position in its body (a mesh's is its centre of mass:
 *         MuJoCo moves a mesh's vertices about it), size, friction,
 *         solref, solimp, margin, gap, contype, conaffinity, group,
 *         rgba, and colour: what MuJoCo's renderer draws it in (its rgba
 *         where that is not MuJoCo's default, else its material's).
 *
 * With "run T JOINT", prints instead "t qpos" of that joint after every
 * step for T seconds of simulated time, from qpos0 at rest; with "run T
 * JOINT KEY", from keyframe KEY (its controls too). JOINT may name a body
 * instead: "t x y z" of its frame's origin.
 *
 * Build: cc mujoco_print_oracle.c -lmujoco -lm. Exit 1, with MuJoCo's
 * complaint on standard error, when it refuses the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

static const char *const jtypes[] = { "free", "ball", "slide", "hinge" };
static const char *const gtypes[] = { "plane", "hfield", "sphere",
	"capsule", "ellipsoid", "cylinder", "box", "mesh" };

static const char *
name(const mjModel *m, int type, int i)
{
	const char *s = mj_id2name(m, type, i);

	return s ? s : "";
}

static void
nums(const char *key, const mjtNum *v, int n)
{
	int i;

	printf(",\"%s\":[", key);
	for (i = 0; i < n; i++)
		printf(i ? ",%.17g" : "%.17g", v[i]);
	printf("]");
}

static void
put_body(const mjModel *m, const mjData *d, int b)
{
	mjtNum R[9], D[9] = { 0 }, RD[9], I[9];
	int i, j, k;

	mju_quat2Mat(R, m->body_iquat + 4 * b);
	for (i = 0; i < 3; i++)
		D[4 * i] = m->body_inertia[3 * b + i];
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			RD[3 * i + j] = 0;
			for (k = 0; k < 3; k++)
				RD[3 * i + j] += R[3 * i + k] * D[3 * k + j];
		}
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			I[3 * i + j] = 0;
			for (k = 0; k < 3; k++)
				I[3 * i + j] += RD[3 * i + k] * R[3 * j + k];
		}
	printf("{\"body\":\"%s\",\"mass\":%.17g", name(m, mjOBJ_BODY, b),
	    m->body_mass[b]);
	nums("pos", d->xpos + 3 * b, 3);
	nums("rot", d->xmat + 9 * b, 9);
	nums("com", m->body_ipos + 3 * b, 3);
	nums("inertia", I, 9);
	printf(",\"parent\":\"%s\",\"mocap\":%s}\n",
	    name(m, mjOBJ_BODY, m->body_parentid[b]),
	    m->body_mocapid[b] >= 0 ? "true" : "false");
}

static void
put_joint(const mjModel *m, const mjData *d, int j)
{
	int dof = m->jnt_dofadr[j];

	printf("{\"joint\":\"%s\",\"type\":\"%s\",\"body\":\"%s\"",
	    name(m, mjOBJ_JOINT, j), jtypes[m->jnt_type[j]],
	    name(m, mjOBJ_BODY, m->jnt_bodyid[j]));
	nums("anchor", d->xanchor + 3 * j, 3);
	nums("axis", d->xaxis + 3 * j, 3);
	if (m->jnt_limited[j])
		nums("range", m->jnt_range + 2 * j, 2);
	nums("margin", m->jnt_margin + j, 1);
	nums("solreflimit", m->jnt_solref + mjNREF * j, mjNREF);
	nums("solimplimit", m->jnt_solimp + mjNIMP * j, mjNIMP);
	printf(",\"damping\":%.17g,\"stiffness\":%.17g,\"springref\":%.17g,"
	    "\"frictionloss\":%.17g,\"armature\":%.17g}\n", m->dof_damping[dof],
	    m->jnt_stiffness[j], m->qpos_spring[m->jnt_qposadr[j]],
	    m->dof_frictionloss[dof], m->dof_armature[dof]);
}

/* The colour MuJoCo's renderer draws geom g in: its rgba, unless that is
 * the default and it has a material, whose rgba it then takes. */
static const float *
colour(const mjModel *m, int g)
{
	static const float dflt[4] = { 0.5f, 0.5f, 0.5f, 1 };
	const float *c = m->geom_rgba + 4 * g;
	int mat = m->geom_matid[g];

	if (mat >= 0 && memcmp(c, dflt, sizeof dflt) == 0)
		return m->mat_rgba + 4 * mat;
	return c;
}

static void
nums_f(const char *key, const float *v, int n)
{
	int i;

	printf(",\"%s\":[", key);
	for (i = 0; i < n; i++)
		printf("%s%.9g", i ? "," : "", v[i]);
	printf("]");
}

static void
put_geom(const mjModel *m, int g)
{
	printf("{\"geom\":\"%s\",\"type\":\"%s\",\"body\":\"%s\"",
	    name(m, mjOBJ_GEOM, g), gtypes[m->geom_type[g]],
	    name(m, mjOBJ_BODY, m->geom_bodyid[g]));
	nums("pos", m->geom_pos + 3 * g, 3);
	nums("size", m->geom_size + 3 * g, 3);
	nums("friction", m->geom_friction + 3 * g, 3);
	nums("solref", m->geom_solref + mjNREF * g, mjNREF);
	nums("solimp", m->geom_solimp + mjNIMP * g, mjNIMP);
	nums("margin", m->geom_margin + g, 1);
	nums("gap", m->geom_gap + g, 1);
	printf(",\"contype\":%d,\"conaffinity\":%d,\"group\":%d",
	    m->geom_contype[g], m->geom_conaffinity[g], m->geom_group[g]);
	printf(",\"rgba\":[%.9g,%.9g,%.9g,%.9g]", m->geom_rgba[4 * g],
	    m->geom_rgba[4 * g + 1], m->geom_rgba[4 * g + 2],
	    m->geom_rgba[4 * g + 3]);
	nums_f("colour", colour(m, g), 4);
	printf("}\n");
}

static int
run(mjModel *m, mjData *d, double seconds, const char *joint)
{
	int j = mj_name2id(m, mjOBJ_JOINT, joint);
	int b = mj_name2id(m, mjOBJ_BODY, joint);

	if (j < 0 && b < 0) {
		fprintf(stderr, "mujoco_print_oracle: no joint or body %s\n",
		    joint);
		return 1;
	}
	while (d->time < seconds - m->opt.timestep / 2) {
		mj_step(m, d);
		if (j >= 0) {
			printf("%.17g %.17g\n", d->time,
			    d->qpos[m->jnt_qposadr[j]]);
			continue;
		}
		mj_kinematics(m, d);	/* a step leaves the last pose's */
		printf("%.17g %.17g %.17g %.17g\n", d->time,
			    d->xpos[3 * b], d->xpos[3 * b + 1],
			    d->xpos[3 * b + 2]);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char err[1024] = "";
	mjModel *m;
	mjData *d;
	int i, rc = 0;

	if (argc != 2 && !((argc == 5 || argc == 6) &&
	    strcmp(argv[2], "run") == 0)) {
		fprintf(stderr, "usage: mujoco_print_oracle FILE "
		    "[run T JOINT [KEY]]\n");
		return 2;
	}
	if (!(m = mj_loadXML(argv[1], NULL, err, sizeof err))) {
		fprintf(stderr, "mujoco_print_oracle: %s\n", err);
		return 1;
	}
	d = mj_makeData(m);
	if (argc == 6) {
		if ((i = mj_name2id(m, mjOBJ_KEY, argv[5])) < 0) {
			fprintf(stderr, "mujoco_print_oracle: no keyframe %s\n",
			    argv[5]);
			return 1;
		}
		mj_resetDataKeyframe(m, d, i);
	}
	if (argc >= 5) {
		rc = run(m, d, atof(argv[3]), argv[4]);
	} else {
		mj_kinematics(m, d);
		mj_comPos(m, d);
		printf("{\"option\":true,\"timestep\":%.17g",
		    m->opt.timestep);
		nums("gravity", m->opt.gravity, 3);
		printf(",\"integrator\":%d,\"cone\":%d,\"solver\":%d,"
		    "\"iterations\":%d,\"impratio\":%.17g}\n",
		    m->opt.integrator, m->opt.cone, m->opt.solver,
		    m->opt.iterations, m->opt.impratio);
		for (i = 1; i < m->nbody; i++)
			put_body(m, d, i);
		for (i = 0; i < m->njnt; i++)
			put_joint(m, d, i);
		for (i = 0; i < m->ngeom; i++)
			put_geom(m, i);
	}
	mj_deleteData(d);
	mj_deleteModel(m);
	return rc;
}
