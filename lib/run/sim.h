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
	const char *keyframe;	/* the models' start state, or NULL */
	char **sets;		/* NAME=VALUE overrides of the starting profile */
	size_t nsets;
	long every;		/* write every Nth step (>= 1) */
	double rate;		/* Hz of simulated time; 0: use every */
	char **items;		/* item globs; none: the default items */
	size_t nitems;
	const char *control;	/* file of control lines, or NULL */
	bool lockstep;		/* control: a controller's replies, one
				 * read after each state line */
	const char *save_to;	/* world file "save" lines add profiles to */
	bool realtime;		/* pace by real_time_factor */
	bool skip_unsupported;	/* skip unsupported collisions */
	bool progress;		/* progress on stderr */
	const char *label;	/* what the progress names ("dart 3/5"), or
				 * NULL */
	const char *tag;	/* "key":value the first state line also holds
				 * (a sweep's hash of the run), or NULL */
	bool caller_reports;	/* phys_sim_run leaves its error in
				 * phys_error() unsaid */
};

void phys_run_options_default(struct phys_run_options *o);
/*
 * A run option of the command line, as getopt_long gave it: c is -c, -e,
 * -n, -p, -r, -s, -t or the command's letter for --items (-i). Sets it in
 * o and returns true; false when c is none of these. A bad value is a
 * usage error against usage_text. The items and the sets are arg itself,
 * in o->items and o->sets, which the caller frees.
 */
bool phys_run_option(int c, int items, const char *arg, const char *usage_text,
    struct phys_run_options *o);

/*
 * A run, stepped by its caller. phys_sim_new sets up the starting profile
 * with its overrides, the control lines and the engine, and applies the
 * control lines for time zero: 0, or -1 with phys_error(), or -2 when
 * the fault is a name the caller gave (profile, override, item). The
 * run keeps o and w: both must outlive it. The run copies w's values when
 * it starts and changes only its copy: w stays as loaded, and several runs
 * may share it.
 */
struct phys_sim;
struct phys_item;
struct phys_item_list;
int phys_sim_new(struct phys_sim **out, const struct phys_scene *w,
    const struct phys_run_options *o);
void phys_sim_free(struct phys_sim *s);
/* One step, then the control lines due before the next: 0 or -1 (the
 * state stopped being finite, or a control line failed). */
int phys_sim_step(struct phys_sim *s);
double phys_sim_time(const struct phys_sim *s);		/* s */
double phys_sim_step_size(const struct phys_sim *s);	/* s, of the next step */
/* The run's items (o->items), and one item's numbers now in the order of
 * its fields: how many (an axes item has one per joint axis). */
const struct phys_item_list *phys_sim_items(const struct phys_sim *s);
int phys_sim_item_values(struct phys_sim *s, const struct phys_item *it,
    double v[6]);
/* Set a link's or model's pose or velocity, or parameters (NAME may be a
 * glob, as phys-step -s), from SDF text, at once: 0, -1 for a bad value,
 * -2 when nothing has that name. */
int phys_sim_set(struct phys_sim *s, const char *name, const char *text);
/* A parameter's value now, as SDF text: 0, or -2 when there is none so
 * named. */
int phys_sim_get(struct phys_sim *s, const char *name, struct phys_buf *out);
/* Control lines now, as a lock-step reply gives them (a control object,
 * an array of them, or {}): those without "t" apply at once, those ahead
 * wait for their time. 0; -1 when the text is refused (nothing of it
 * applies); -3 when a line failed as it applied (the run cannot go on). */
int phys_sim_control(struct phys_sim *s, const char *text);
/* Switch to a physics profile: 0, -1, or -2 when there is none so named. */
int phys_sim_use_profile(struct phys_sim *s, const char *name);

/* Run w as o says and write state lines to out. Returns a PHYS_EXIT_*
 * status; the error has been reported on stderr when it is not
 * PHYS_EXIT_OK. */
int phys_sim_run(const struct phys_scene *w, const struct phys_run_options *o,
    FILE *out);

#endif
