/*
 * drop.c - drop a ball with libphys and check its fall against the
 * closed form.
 *
 *   drop [WORLD]
 *
 * Without WORLD, a 1 kg ball of radius 0.1 m is dropped from z = 10 m in
 * an empty world (the SDF is in this file). With WORLD, that file must
 * hold a model "ball" with a link "link" and nothing in its way.
 *
 * The program steps the run until t = 1 s, reads the ball's height, and
 * prints, one per line, "name value":
 *
 *   t           simulated time reached (s)
 *   z           height of ball::link (m)
 *   z_exact     10 - g t^2 / 2, the closed form of free fall (m)
 *   z_stepped   z0 - g h^2 n (n + 1) / 2, what n steps of h of ODE's
 *               semi-implicit Euler give exactly (m)
 *
 * It exits 1 if z is not z_stepped to within 1e-9 m, or strays from the
 * closed form by more than the integrator's known error g h t / 2.
 *
 * Build against an installed libphys:
 *   cc -o drop drop.c $(pkg-config --cflags --libs libphys)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phys.h"

static const char ball_world[] =
    "<sdf version='1.7'><world name='drop'>"
    "<gravity>0 0 -9.81</gravity>"
    "<physics name='fine' type='ode'><max_step_size>0.001</max_step_size>"
    "</physics>"
    "<model name='ball'><pose>0 0 10 0 0 0</pose><link name='link'>"
    "<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy>"
    "<izz>0.004</izz></inertia></inertial>"
    "<collision name='c'><geometry><sphere><radius>0.1</radius></sphere>"
    "</geometry></collision></link></model></world></sdf>";

/* Print the library's message and end. */
static void
die(const char *what)
{
	fprintf(stderr, "drop: %s: %s\n", what, phys_errmsg());
	exit(1);
}

/* A parameter's value as numbers, through its SDF text. */
static void
get_numbers(phys_run *r, const char *name, double *v, int n)
{
	char text[128], *p = text, *end;
	int i;

	if (phys_run_get(r, name, text, sizeof text) < 0)
		die(name);
	for (i = 0; i < n; i++, p = end) {
		v[i] = strtod(p, &end);
		if (end == p)
			die(name);
	}
}

int
main(int argc, char **argv)
{
	phys_world *w;
	phys_run *r;
	double z0, z, t, n, h, g[3], zexact, zstep;

	if (argc > 1)
		w = phys_open_world(argv[1], NULL);
	else
		w = phys_open_world_text("drop.sdf", ball_world,
		    strlen(ball_world), NULL);
	if (!w)
		die("cannot open the world");
	r = phys_create_run(w, NULL);
	if (!r)
		die("cannot start the run");

	if (phys_run_read(r, "ball::link/pose.z", &z0, 1) < 0)
		die("ball::link/pose.z");
	get_numbers(r, "gravity", g, 3);
	get_numbers(r, "max_step_size", &h, 1);

	if (phys_run_until(r, 1.0) < 0)
		die("step");
	if (phys_run_read(r, "sim_time", &t, 1) < 0)
		die("sim_time");
	if (phys_run_read(r, "iterations", &n, 1) < 0)
		die("iterations");
	if (phys_run_read(r, "ball::link/pose.z", &z, 1) < 0)
		die("ball::link/pose.z");

	zexact = z0 + g[2] * t * t / 2;
	zstep = z0 + g[2] * h * h * n * (n + 1) / 2;
	printf("t %.17g\nz %.17g\nz_exact %.17g\nz_stepped %.17g\n", t, z,
	    zexact, zstep);

	phys_free_run(r);
	phys_free_world(w);
	if (fabs(z - zstep) > 1e-9 || fabs(z - zexact) > fabs(g[2]) * h * t / 2
	    + 1e-9) {
		fprintf(stderr, "drop: the fall is not free fall\n");
		return 1;
	}
	return 0;
}
