/*
 * balance.c - balance an inverted pendulum with libphys: a controller in
 * the loop, as phys-step --lockstep runs one, without the pipes.
 *
 *   balance [-p PROFILE] WORLD [SECONDS]
 *
 * WORLD holds a pole on a hinge, upright at the joint's zero, stepped
 * by 1 ms (the project's worlds/inverted_pendulum.sdf). Every 5 steps
 * (200 Hz) the program reads the hinge's angle q and rate w and
 * commands the torque
 *
 *   u = -(30 q + 5 w)   (N m; 1 N m more for the first 0.1 s, a push)
 *
 * as a control line, {"name":"inverted::hinge/cmd_force","value":u},
 * which holds until the next. After SECONDS (default 5) it prints, one
 * per line, "name value":
 *
 *   t          simulated time reached (s)
 *   angle      the hinge's angle then (rad)
 *   max_angle  the largest |angle| on the way (rad)
 *
 * and exits 1 if the pole leaned more than 0.1 rad: it fell.
 *
 * Build against an installed libphys:
 *   cc -o balance balance.c $(pkg-config --cflags --libs libphys)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "phys.h"

#define HINGE "inverted::hinge"
#define EVERY 5		/* steps between two commands */

static void
die(const char *what)
{
	fprintf(stderr, "balance: %s: %s\n", what, phys_errmsg());
	exit(1);
}

static double
read1(phys_run *r, const char *item)
{
	double v;

	if (phys_run_read(r, item, &v, 1) < 0)
		die(item);
	return v;
}

/* The controller: the state now in, a command out. */
static void
control(phys_run *r)
{
	double q = read1(r, HINGE "/position"), w = read1(r, HINGE "/velocity");
	double u = -(30 * q + 5 * w);
	char line[128];

	if (phys_run_time(r) < 0.1)
		u += 1;
	snprintf(line, sizeof line, "{\"name\":\"" HINGE "/cmd_force\","
	    "\"value\":%.17g}", u);
	if (phys_run_control(r, line) < 0)
		die(line);
}

int
main(int argc, char **argv)
{
	phys_run_def def = phys_default_run_def();
	double seconds = 5, q, most = 0;
	phys_world *w;
	phys_run *r;
	long n, i;
	int c;

	while ((c = getopt(argc, argv, "p:")) != -1) {
		if (c != 'p') {
			fprintf(stderr, "usage: balance [-p PROFILE] WORLD "
			    "[SECONDS]\n");
			return 2;
		}
		def.profile = optarg;
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, "usage: balance [-p PROFILE] WORLD [SECONDS]\n");
		return 2;
	}
	if (optind + 1 < argc)
		seconds = atof(argv[optind + 1]);
	if (!(w = phys_open_world(argv[optind], NULL)))
		die(argv[optind]);
	if (!(r = phys_create_run(w, &def)))
		die("run");
	/* As phys-step --lockstep -t SECONDS -r 200 with 1 ms steps: a
	 * command after each sample but the last. */
	n = lround(seconds * 1000 / EVERY);
	for (i = 0;; i++) {
		q = read1(r, HINGE "/position");
		most = fabs(q) > most ? fabs(q) : most;
		if (i == n)
			break;
		control(r);
		if (phys_run_step(r, EVERY) < 0)
			die("step");
	}
	printf("t %.17g\nangle %.17g\nmax_angle %.17g\n", phys_run_time(r), q,
	    most);
	phys_free_run(r);
	phys_free_world(w);
	if (fclose(stdout) != 0)
		return 1;
	return most > 0.1;
}
