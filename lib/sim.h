/*
 * sim.h - a run: a world, an engine, a current profile, control lines,
 * and state lines written at the chosen samples.
 */
#ifndef PHYS_SIM_H
#define PHYS_SIM_H

#include <stdbool.h>
#include <stdio.h>

#include "world.h"

struct phys_run_options {
	long steps;		/* steps to take; < 0: use duration */
	double duration;	/* s of simulated time */
	const char *preset;	/* starting profile; NULL: the world's start */
	char **sets;		/* NAME=VALUE overrides of the starting profile */
	size_t nsets;
	long every;		/* write every Nth step (>= 1) */
	double rate;		/* Hz of simulated time; 0: use every */
	char **items;		/* item globs; none: the default items */
	size_t nitems;
	const char *control;	/* file of control lines, or NULL */
	bool realtime;		/* pace by real_time_factor */
	bool skip_unsupported;	/* skip unsupported collisions */
	bool progress;		/* progress on stderr */
};

void phys_run_options_default(struct phys_run_options *o);

/* Run and write state lines to out. Returns a PHYS_EXIT_* status; the
 * error has been reported on stderr when it is not PHYS_EXIT_OK. */
int phys_run(struct phys_world *w, const struct phys_run_options *o,
    FILE *out);

/* Turn a JSON value into SDF text for a parameter or state value
 * (numbers, booleans, strings, {"x","y","z"}, poses, arrays). */
struct json_t;
int phys_json_to_text(const struct json_t *v, struct phys_buf *out);

#endif
