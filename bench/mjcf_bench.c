/*
 * mjcf_bench.c - an MJCF model read N times by phys's loader, as every
 * command reads a world: the processor time of one read, in seconds.
 *
 * usage: mjcf_bench MODEL.xml N
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

#include "msg.h"
#include "world.h"

int
main(int argc, char **argv)
{
	struct phys_load_options lo;
	struct phys_scene w;
	double t0;
	long i, n;

	if (argc != 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: mjcf_bench MODEL.xml N\n");
		return 2;
	}
	phys_load_options_default(&lo);
	lo.quiet = true;
	t0 = bench_clock(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		if (phys_world_load(&w, argv[1], &lo) < 0) {
			phys_report();
			return 1;
		}
		phys_world_free(&w);
	}
	printf("load %.9f\n", (bench_clock(CLOCK_PROCESS_CPUTIME_ID) - t0) / (double)n);
	return 0;
}
