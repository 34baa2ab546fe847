/*
 * param_bench.c - parameter lookups by name, and typed gets and sets
 * through the public API, per second.
 *
 * usage: param_bench WORLD
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

#include "ref.h"

int
main(int argc, char **argv)
{
	static const char *names[] = { "ode.solver.iters", "iters", "cfm",
		"ode.constraints.erp", "max_step_size", "friction_model",
		"surface.friction.ode.mu", "inertial.mass", "gravity", "sor" };
	const char *entity_names[] = { "ode.solver.iters", "gravity",
		"box0::link/inertial.mass", "box1::link::collision/surface.friction.ode.mu" };
	struct phys_scene w;
	struct phys_value v = { 0 };
	long i, n = 20000000, found = 0;
	double t0, t;

	if (argc != 2 || phys_world_load(&w, argv[1], NULL) < 0) {
		phys_report();
		return 2;
	}
	t0 = bench_clock(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++)
		found += phys_param_find(i % 10 < 6 ? PHYS_S_PHYSICS :
		    i % 10 < 8 ? PHYS_S_COLLISION : PHYS_S_LINK,
		    names[i % 10]) != NULL;
	t = bench_clock(CLOCK_MONOTONIC) - t0;
	printf("lookup %.1f M/s (%ld found)\n", n / t / 1e6, found);

	n = 5000000;
	t0 = bench_clock(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		if (phys_get_value(&w, entity_names[i & 3], 0, &v) < 0)
			return 1;
		phys_value_free(&v);
	}
	t = bench_clock(CLOCK_MONOTONIC) - t0;
	printf("get %.1f M/s\n", n / t / 1e6);

	t0 = bench_clock(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		v.u.d = 0.5 + (double)(i & 7);
		if (phys_set_value(&w, "box0::link/inertial.mass", 0, &v) < 0)
			return 1;
	}
	t = bench_clock(CLOCK_MONOTONIC) - t0;
	printf("set %.1f M/s\n", n / t / 1e6);
	phys_world_free(&w);
	return 0;
}
