/*
 * mujoco_load.c - the bare reference for reading MJCF: MuJoCo's own
 * mj_loadXML of a model, N times, and the processor time of one, in
 * seconds.
 *
 * usage: mujoco_load MODEL.xml N
 */
#include <stdio.h>
#include <stdlib.h>

#include <mujoco/mujoco.h>

#include "bench_clock.h"

int
main(int argc, char **argv)
{
	char err[1000] = "";
	mjModel *m;
	double t0;
	long i, n;

	if (argc != 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: mujoco_load MODEL.xml N\n");
		return 2;
	}
	t0 = bench_clock(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		if (!(m = mj_loadXML(argv[1], NULL, err, sizeof err))) {
			fprintf(stderr, "mujoco_load: %s\n", err);
			return 1;
		}
		mj_deleteModel(m);
	}
	printf("load %.9f\n", (bench_clock(CLOCK_PROCESS_CPUTIME_ID) - t0) / (double)n);
	return 0;
}
