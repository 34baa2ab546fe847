/*
 * mujoco_key_oracle.c - an MJCF file's keyframes and contact filter as
 * Debian's libmujoco 2.2.2 compiles them, for tests/mjcf-roundtrip.bats.
 * Loads the file by mj_loadXML and prints, one a line:
 *
 *   qpos KEY q...       the keyframe's qpos (m->key_qpos), in joint order
 *   qvel KEY v...       its qvel (m->key_qvel)
 *   exclude B1 B2       an excluded body pair (m->exclude_signature)
 *   contact B1 B2       two bodies in contact at qpos0 (mj_forward)
 *
 * Body names are MuJoCo's; B1 sorts before B2.
 *
 * cc -o mujoco_key_oracle mujoco_key_oracle.c -lmujoco
 */
#include <stdio.h>
#include <string.h>

#include <mujoco/mujoco.h>

static const char *
body(const mjModel *m, int b)
{
	const char *s = mj_id2name(m, mjOBJ_BODY, b);

	return s ? s : "world";
}

static void
pair(const char *what, const char *a, const char *b)
{
	if (strcmp(a, b) > 0)
		printf("%s %s %s\n", what, b, a);
	else
		printf("%s %s %s\n", what, a, b);
}

static void
values(const char *what, const char *key, const mjtNum *v, int n)
{
	int i;

	printf("%s %s", what, key);
	for (i = 0; i < n; i++)
		printf(" %.17g", v[i]);
	printf("\n");
}

int
main(int argc, char **argv)
{
	char err[1000] = "";
	mjModel *m;
	mjData *d;
	const char *name;
	int i, sig;

	if (argc != 2) {
		fprintf(stderr, "usage: mujoco_key_oracle MODEL.xml\n");
		return 2;
	}
	if (!(m = mj_loadXML(argv[1], NULL, err, sizeof err))) {
		fprintf(stderr, "mujoco_key_oracle: %s\n", err);
		return 1;
	}
	for (i = 0; i < m->nkey; i++) {
		name = mj_id2name(m, mjOBJ_KEY, i);
		values("qpos", name ? name : "", m->key_qpos + i * m->nq, m->nq);
		values("qvel", name ? name : "", m->key_qvel + i * m->nv, m->nv);
	}
	for (i = 0; i < m->nexclude; i++) {
		sig = m->exclude_signature[i];
		pair("exclude", body(m, (sig >> 16) - 1),
		    body(m, (sig & 0xffff) - 1));
	}
	d = mj_makeData(m);
	mj_forward(m, d);
	for (i = 0; i < d->ncon; i++)
		pair("contact", body(m, m->geom_bodyid[d->contact[i].geom1]),
		    body(m, m->geom_bodyid[d->contact[i].geom2]));
	mj_deleteData(d);
	mj_deleteModel(m);
	return 0;
}
