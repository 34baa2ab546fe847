/*
 * sweep.h - many runs of one world: a plan of runs, workers that run
 * them, a score for each, the best run kept as a profile, and the score
 * against each swept parameter.
 *
 * A run line, one JSON object a line (phys-sweep(1)):
 *   {"id":N,"world":PATH,["preset","control","steps"|"duration","every",
 *    "items"],"set":{NAME:"VALUE",...}[,"score":S]}
 * A run's state lines go to DIR/ID.jsonl, written whole and renamed into
 * place, the first carrying the hash of the run line: a state file with
 * the run's hash is a finished run.
 */
#ifndef PHYS_SWEEP_H
#define PHYS_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "buf.h"
#include "expr.h"
#include "select.h"
#include "sim.h"
#include "world.h"

/* ---- plans: values of each swept name, combined into runs ---- */

enum phys_sweep_sample {
	PHYS_SWEEP_GRID,	/* every combination of the values */
	PHYS_SWEEP_RANDOM,	/* nsample runs, values drawn uniformly */
	PHYS_SWEEP_LHS		/* nsample runs, a Latin-hypercube sample */
};

struct phys_sweep_axis {
	char *name;
	char **vals;		/* the values as SDF text */
	size_t n;
	double lo, hi;		/* the range of a sample */
	bool fixed;		/* one value for every run (-s, or NAME=V in
				 * a sample) */
};

struct phys_sweep_plan {
	enum phys_sweep_sample sample;
	long nsample;
	uint64_t rng;		/* the generator's state, from the seed */
	struct phys_sweep_axis *axes;
	size_t naxes;
	json_t *fixed;		/* NAME:"VALUE" objects a run each: the
				 * list's lines, or one empty object */
	bool listed;
};

/* An empty plan; seed fixes a sample's values on every machine. */
void phys_sweep_plan_init(struct phys_sweep_plan *p,
    enum phys_sweep_sample sample, long nsample, unsigned long long seed);
void phys_sweep_plan_free(struct phys_sweep_plan *p);
/*
 * A swept name from NAME=V1,V2,... or NAME=LO:HI:N (a grid), or NAME=LO:HI
 * (a sample; NAME=V is one value for every run). A sample of an int
 * parameter is rounded to whole numbers. -1 with phys_error() on a
 * malformed one, or a name given twice: a usage error.
 */
int phys_sweep_plan_axis(struct phys_sweep_plan *p, const char *arg);
/* -s NAME=VALUE: one value of NAME for every run, as phys-step's. */
int phys_sweep_plan_set(struct phys_sweep_plan *p, const char *arg);
/* Runs from the lines of path, each a JSON object of NAME:VALUE, instead
 * of one run a grid point: every line combined with every grid point. */
int phys_sweep_plan_list(struct phys_sweep_plan *p, const char *path);
/*
 * Draw a sample's values, then check that every name means something in
 * w (a glob must match, a plain name resolve) and that each of its values
 * suits every parameter it names, in the profile the runs start in: a
 * thousand runs do not fail on one typing mistake.
 */
int phys_sweep_plan_check(struct phys_sweep_plan *p, struct phys_scene *w,
    int profile);
/* The run lines on out: ids from 0; the grid's first name varies
 * slowest. o gives what every run line holds besides its values. */
int phys_sweep_plan_write(const struct phys_sweep_plan *p,
    const struct phys_run_options *o, const char *world, FILE *out);

/* ---- run lines read back ---- */

/*
 * A plan is read as a stream, however large, and kept as text: a run's
 * line is parsed when the run needs it (a million runs as parsed objects
 * would take gigabytes). Each run has a hash of its line (its JSON with
 * the keys sorted, "score" left out), which the run writes into the first
 * line of its state file as "sweep_run": a state file with another hash,
 * or none, is not this run's, whatever its name.
 */
struct phys_sweep_run {
	long long id;
	uint64_t hash;
	size_t off;		/* where its line is in text */
	long lineno;
};

struct phys_sweep_runs {
	struct phys_sweep_run *run;	/* in file order */
	size_t n;
	struct phys_buf text;	/* the lines, each NUL-terminated */
	json_t **v;		/* every line parsed: phys_sweep_runs_parse */
	const char *name;	/* the file they were read from */
};

/* The run lines of path ("-": stdin), each checked: -1 with "file:line:
 * what". The ids must differ. */
int phys_sweep_runs_load(struct phys_sweep_runs *r, const char *path);
/*
 * Only the runs of path whose ids are ids[0..n), in the plan's order: the
 * other lines are read for their ids (which must differ) and not kept,
 * nor parsed when they begin as a plan's do ({"id":N,...). An id the
 * plan lacks: -1, "PLAN has no run N".
 */
int phys_sweep_runs_load_ids(struct phys_sweep_runs *r, const char *path,
    const long long *ids, size_t n);
/* Every line parsed into r->v (best, plot): 0, or -1. */
int phys_sweep_runs_parse(struct phys_sweep_runs *r);
/* Run i's line parsed: a new reference. */
json_t *phys_sweep_run_json(const struct phys_sweep_runs *r, size_t i);
void phys_sweep_runs_free(struct phys_sweep_runs *r);
long long phys_sweep_run_id(json_t *run);
/* DIR/ID.jsonl, the run's state file; the caller frees it. */
char *phys_sweep_state_path(const char *dir, long long id);

enum phys_sweep_state {
	PHYS_SWEEP_NOT_RUN,	/* no state file, or an empty one */
	PHYS_SWEEP_DONE,	/* this run's */
	PHYS_SWEEP_OTHER	/* another plan's run, or one without a hash */
};
enum phys_sweep_state phys_sweep_state(const char *dir,
    const struct phys_sweep_run *run);
/* "sweep_run":"HASH", as a run writes it into its first state line. */
char *phys_sweep_run_tag(const struct phys_sweep_run *run);
/* A run line on out, compact, with the keys in their order. */
void phys_sweep_put_run(json_t *run, FILE *out);

/* ---- running: a few forked workers, each many runs ---- */

struct phys_sweep_options {
	const char *dir;	/* where state files go (made when missing) */
	long jobs;		/* workers, at least 1 */
	bool shared;		/* beside other sweeps of the same kind
				 * (run-one); otherwise the directory's
				 * only sweep */
};

/*
 * Run the runs of r that want[] selects and that have not finished in
 * o->dir, o->jobs at a time, each in a forked worker; each ended run is
 * a line of DIR/log.jsonl, each failed one a warning, and a terminal's
 * stderr shows the progress. 0 when every run finished, 1 when one
 * failed, -1 with phys_error() when the sweep could not go on. A stop
 * request (SIGTERM, SIGHUP, SIGINT) ends the workers and their partial
 * files: -1, with the signal in *stopped, which the caller raises again.
 */
int phys_sweep_run(const struct phys_sweep_runs *r, const bool *want,
    const struct phys_sweep_options *o, int *stopped);
/* Every finished run's state lines on out, in plan order, each with its
 * "run" id first. */
int phys_sweep_stream(const char *dir, const struct phys_sweep_runs *r,
    FILE *out);

/* ---- scores ---- */

enum phys_sweep_score_kind {
	PHYS_SCORE_FINAL, PHYS_SCORE_MAX, PHYS_SCORE_MIN, PHYS_SCORE_MEAN,
	PHYS_SCORE_DIFF
};

struct phys_sweep_score {
	enum phys_sweep_score_kind kind;
	struct expr *e;		/* final, max, min, mean: the expression */
	char *text;		/* its text, the window cut off */
	double from, to;	/* s: the lines scored, from <= t <= to */
	const char *ref;	/* diff: the reference run's state file */
	struct phys_ist_sel sel;	/* diff: the fields compared */
	struct phys_buf name;	/* scratch: a field's full name */
};

/*
 * SCORE: final:EXPR, max:EXPR, min:EXPR or mean:EXPR (EXPR over a run's
 * fields, as phys-introspect derive's; a comparison is 1 or 0, so
 * min:z>0.25 says whether z stayed above 0.25 and mean: for how much of
 * the run), optionally over a window of time, EXPR@FROM:TO (either side
 * may be left out), or diff:REF, the RMS difference of the
 * selected fields from the run REF, line by line. -1 with phys_error() on
 * a malformed one: a usage error. spec must outlive s.
 */
int phys_sweep_score_parse(struct phys_sweep_score *s, const char *spec);
void phys_sweep_score_free(struct phys_sweep_score *s);
/* The score of one run's state lines. */
int phys_sweep_score_file(struct phys_sweep_score *s, const char *path,
    double *out);
/*
 * Each run of r with its "score" (null when not finite) on out. A run
 * without a state file in dir, or one that cannot be scored, is warned
 * about and left out: then 1, else 0.
 */
int phys_sweep_score_runs(struct phys_sweep_score *s,
    const struct phys_sweep_runs *r, const char *dir, FILE *out);

/* ---- the best run ---- */

/* A run's "score", NaN when it has none. */
double phys_sweep_score_of(json_t *run);
/* Best first (lowest, or highest with maximize), runs without a score
 * last, ties by id: the same order every time. */
void phys_sweep_rank(struct phys_sweep_runs *r, bool maximize);
/*
 * The run's values into w as a new profile name, copied from the profile
 * the run started from: a physics parameter goes into the profile, a
 * world or entity parameter where it lives. The caller writes w.
 */
int phys_sweep_save_best(struct phys_scene *w, json_t *run, const char *name);
/*
 * The score against each swept parameter whose values are all numbers, a
 * panel each, drawn by phys_ist_plot_custom: names and nnames from
 * phys_sweep_landscape_names (which the caller frees).
 */
struct phys_sweep_landscape {
	const struct phys_sweep_runs *runs;
	const char **names;
	size_t nnames;
	bool maximize;		/* the best run is the highest score */
	bool logx, logy;
	const char *title;
};
/* The swept names whose values are all numbers, in the first run's order:
 * how many (0: none, and nothing to free). */
size_t phys_sweep_landscape_names(const struct phys_sweep_runs *p,
    const char ***names);
/*
 * The panels (a phys_ist_body_fn, ctx a struct phys_sweep_landscape):
 * each run a point, the best one marked; scores far beyond the others'
 * (three interquartile ranges past the quartiles) are drawn on the
 * axis' edge, counted in the legend, so that they do not squeeze the
 * rest. On text, plot symbols: '*' a run, '@' the best, '^' and 'v' the
 * runs off the axis.
 */
struct phys_ist_canvas;
void phys_sweep_landscape_body(struct phys_buf *b,
    const struct phys_ist_canvas *c, void *ctx);

#endif
