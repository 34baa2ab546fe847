/*
 * introspect.h - state lines in, chosen fields out: selection, sampling,
 * derived fields, values at a time, run comparison and plots.
 *
 * A state line is {"t":T,"items":{NAME:VALUE,...},...}; a VALUE is a
 * number, an object of numbers or an array of numbers. A field is named
 * ITEM.FIELD ("box::link/pose.z", "robot::elbow/position.0"); a scalar item
 * is a field named by the item alone ("sim_time").
 */
#ifndef PHYS_INTROSPECT_H
#define PHYS_INTROSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "expr.h"
#include "util.h"

enum ist_kind { IST_SCALAR, IST_OBJECT, IST_ARRAY };

/* A member of an object item, an element of an array, or a scalar's value. */
struct ist_field {
	const char *name;	/* not NUL-terminated; empty for a scalar */
	size_t nlen;
	const char *num;	/* number text not converted yet, or NULL */
	double v;		/* NaN for a JSON null */
};

struct ist_item {
	const char *name;	/* not NUL-terminated */
	size_t nlen;
	enum ist_kind kind;
	size_t first, n;	/* its fields: fields[first .. first + n) */
};

/* Top-level members, in the order the line gives them. */
enum ist_top_kind { IST_TOP_T, IST_TOP_ITEMS, IST_TOP_OTHER };
struct ist_top {
	enum ist_top_kind kind;
	const char *text;	/* IST_TOP_OTHER: compact "key":value */
	size_t len;
};

/* One state line; names point into the reader's line or document. */
struct ist_frame {
	double t;
	long line;
	struct ist_item *items;
	size_t nitems, capitems;
	struct ist_field *fields;
	size_t nfields, capfields;
	struct ist_top *top;
	size_t ntop, captop;
};

/* Value of a field, converting its text on first use. */
double ist_value(struct ist_field *f);

struct ist_reader {
	struct phys_lines in;	/* a stream: only the line length is bounded */
	const char *path;	/* as given; "-" is stdin */
	const char *name;	/* for messages */
	char *line;
	long lineno;
	struct ist_frame f;
	void *doc;		/* jansson document behind f, if any */
	struct phys_buf arena;	/* text made for f by the slow path */
};

int ist_open(struct ist_reader *r, const char *path);
/* 1 and r->f filled in, 0 at the end, -1 and phys_error() on bad input. */
int ist_read(struct ist_reader *r);
void ist_close(struct ist_reader *r);

/* Selectors: glob patterns over item names and ITEM.FIELD names. */
struct ist_sel {
	char **pat;
	size_t n;
};
void ist_sel_add(struct ist_sel *s, const char *pat);
void ist_sel_free(struct ist_sel *s);
/* One selector a line, blank lines and '#' comments skipped. */
int ist_sel_load(struct ist_sel *s, const char *path);
int ist_sel_save(const struct ist_sel *s, const char *path);

/* A derived field: NAME=EXPR. */
struct ist_def {
	char *name;
	char *text;		/* the whole NAME=EXPR, for messages */
	size_t exprcol;		/* column of EXPR within text, 0-based */
	struct expr *e;
};
/* -1 with err->column counted in the whole operand. */
int ist_def_parse(struct ist_def *d, const char *operand,
    struct expr_error *err);
void ist_def_free(struct ist_def *d);

/* Which lines to keep; every, window and rate are 0 when not used. */
struct ist_sampling {
	bool has_from, has_to;
	double from, to;
	long every, window;
	double rate;
};

enum ist_format { IST_JSON, IST_CSV, IST_TSV };

struct ist_opts {
	enum ist_format format;
	struct ist_sampling samp;
	bool keep;		/* derive: keep input items too */
	double tol, reltol;	/* diff */
	const char *output;	/* plot: FILE.png or FILE.svg; NULL: terminal */
	const char **inputs;	/* runs; "-" is stdin */
	size_t ninputs;
	struct ist_sel sel;
	struct ist_def *defs;
	size_t ndefs;
	FILE *out;
};

/*
 * The commands. Each returns 0, or -1 with phys_error() set after writing
 * only whole lines.
 */
int ist_filter(const struct ist_opts *o);
int ist_derive(const struct ist_opts *o);
/* One time: values at it; two: value(times[1]) - value(times[0]). */
int ist_at(const struct ist_opts *o, const double *times, size_t ntimes);
/* *differ is set when the runs part by more than the tolerance. */
int ist_diff(const struct ist_opts *o, const char *a, const char *b,
    bool *differ);
int ist_plot(const struct ist_opts *o);

/* SI unit of a field from its name ("box::link/pose.z" is "m"), or NULL. */
const char *ist_unit(const char *field);

/* Full path of an executable found on PATH, or NULL; caller frees. */
char *ist_find_program(const char *prog);

#endif
