/*
 * introspect.h - the phys-introspect commands over runs of state lines:
 * filter, derive, at, delta and diff (plot is in plot.h).
 */
#ifndef PHYS_INTROSPECT_H
#define PHYS_INTROSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "derive.h"
#include "select.h"

enum phys_ist_format { IST_JSON, IST_CSV, IST_TSV };

struct phys_ist_opts {
	enum phys_ist_format format;
	struct phys_ist_sampling samp;
	bool keep;		/* derive: keep input items too */
	double tol, reltol;	/* diff */
	bool series;		/* diff: A - B as state lines */
	const char *output;	/* plot: FILE.png or FILE.svg; NULL: terminal */
	const char **inputs;	/* runs; "-" is stdin */
	size_t ninputs;
	struct phys_ist_sel sel;
	struct phys_ist_def *defs;
	size_t ndefs;
	FILE *out;
};

/* The selectors and definitions of o into path, one a line, for
 * --selection to read back. */
int phys_ist_save_selection(const struct phys_ist_opts *o, const char *path);

/*
 * NAME=EXPR added to o's definitions: 0; -1 with *err where text is
 * wrong; -2 when o defines NAME already, *same that definition's index.
 */
int phys_ist_def_add(struct phys_ist_opts *o, const char *text,
    struct phys_expr_error *err, size_t *same);
/*
 * An operand of a command: a selector, or with defs (derive's) a NAME=EXPR
 * added as phys_ist_def_add adds it. 0; -1 or -2 as phys_ist_def_add; -3
 * for an empty selector.
 */
int phys_ist_operand(struct phys_ist_opts *o, const char *s, bool defs,
    struct phys_expr_error *err, size_t *same);
/* A run to read (path "-": standard input). */
void phys_ist_input_add(struct phys_ist_opts *o, const char *path);
/* The runs o reads, standard input when none was added: how many of them
 * are standard input (0 or 1), or -1 when it is given more than once. */
int phys_ist_inputs(struct phys_ist_opts *o);
/* What o holds (selectors, definitions, the list of runs), freed. */
void phys_ist_opts_free(struct phys_ist_opts *o);

/*
 * The commands. Each returns 0, or -1 with phys_error() set after writing
 * only whole lines.
 */
int phys_ist_filter(const struct phys_ist_opts *o);
int phys_ist_derive(const struct phys_ist_opts *o);
/* One time: values at it; two: value(times[1]) - value(times[0]). */
int phys_ist_at(const struct phys_ist_opts *o, const double *times, size_t ntimes);
/* *differ is set when the runs part by more than the tolerance. The
 * report is a line per field, or with o->series the difference A - B at
 * each time of A (B interpolated) as state lines. */
int phys_ist_diff(const struct phys_ist_opts *o, const char *a, const char *b,
    bool *differ);

#endif
