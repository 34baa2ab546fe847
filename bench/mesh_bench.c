/*
 * mesh_bench.c - milliseconds to load a mesh file as phys does (read,
 * recognised and counted, decoded by assimp in the decoder process,
 * handed back, welded, closedness): the best of five loads after the
 * first, and the first, which starts the decoder. Wall-clock time: the
 * decoder's work is in another process, which processor time of this
 * one would leave out; measure on a quiet machine. Prints "load MS
 * TRIANGLES" and "first MS".
 */
#include <stdio.h>

#include "bench_clock.h"

#include "mesh.h"
#include "base.h"

int
main(int argc, char **argv)
{
	struct phys_mesh_spec spec = { 0 };
	struct phys_mesh *m;
	double best = -1, first = 0, t;
	size_t ntri = 0;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: mesh_bench MESH\n");
		return 2;
	}
	spec.path = argv[1];
	spec.scale = v3(1, 1, 1);
	for (i = 0; i < 6; i++) {
		t = bench_clock(CLOCK_MONOTONIC);
		m = phys_mesh_load(&spec);
		t = bench_clock(CLOCK_MONOTONIC) - t;
		if (!m) {
			phys_report();
			return 1;
		}
		ntri = m->ntri;
		phys_mesh_free(m);
		if (i == 0)
			first = t;
		else if (best < 0 || t < best)
			best = t;
	}
	printf("load %.1f %zu\n", best * 1000, ntri);
	printf("first %.1f\n", first * 1000);
	return 0;
}
