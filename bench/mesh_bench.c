/*
 * mesh_bench.c - milliseconds to load a mesh file as phys does (assimp,
 * welding, closedness): the best of five loads, in processor time (a
 * shared machine's load does not count). Prints "load MS TRIANGLES".
 */
#include <stdio.h>
#include <time.h>

#include "mesh.h"
#include "base.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	struct phys_mesh_spec spec = { 0 };
	struct phys_mesh *m;
	double best = -1, t;
	size_t ntri = 0;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: mesh_bench MESH\n");
		return 2;
	}
	spec.path = argv[1];
	spec.scale = v3(1, 1, 1);
	for (i = 0; i < 5; i++) {
		t = now();
		m = phys_mesh_load(&spec);
		t = now() - t;
		if (!m) {
			phys_report();
			return 1;
		}
		ntri = m->ntri;
		phys_mesh_free(m);
		if (best < 0 || t < best)
			best = t;
	}
	printf("load %.1f %zu\n", best * 1000, ntri);
	return 0;
}
