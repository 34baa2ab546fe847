/*
 * introspect.c - the commands over runs of state lines: filter and derive
 * (one line out per line kept), at and delta (values at given times) and
 * diff (two runs compared field by field).
 */
#include "introspect.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- output ---------------------------------------------------------- */

/* Whole lines to the output, or into the ring of the last --window. */
struct emitter {
	FILE *out;
	long window;
	struct phys_buf *ring;
	size_t cap;
	unsigned long count;
	struct phys_buf line;
};

static struct phys_buf *
emit_begin(struct emitter *e)
{
	size_t slot;

	if (e->window <= 0) {
		phys_buf_clear(&e->line);
		return &e->line;
	}
	slot = (size_t)(e->count % (unsigned long)e->window);
	if (slot >= e->cap) {
		size_t ncap = e->cap ? 2 * e->cap : 64;

		if (ncap > (size_t)e->window)
			ncap = (size_t)e->window;
		e->ring = phys_xrealloc(e->ring, ncap * sizeof *e->ring);
		memset(&e->ring[e->cap], 0, (ncap - e->cap) * sizeof *e->ring);
		e->cap = ncap;
	}
	phys_buf_clear(&e->ring[slot]);
	return &e->ring[slot];
}

static void
emit_end(struct emitter *e)
{
	if (e->window <= 0)
		fwrite(e->line.s, 1, e->line.len, e->out);
	else
		e->count++;
}

static void
emit_flush(struct emitter *e)
{
	unsigned long w = (unsigned long)e->window, i, start, n;

	if (e->window <= 0)
		return;
	n = e->count < w ? e->count : w;
	start = e->count < w ? 0 : e->count % w;
	for (i = 0; i < n; i++) {
		struct phys_buf *b = &e->ring[(start + i) % w];

		fwrite(b->s, 1, b->len, e->out);
	}
	e->count = 0;
}

static void
emit_free(struct emitter *e)
{
	size_t i;

	for (i = 0; i < e->cap; i++)
		phys_buf_free(&e->ring[i]);
	free(e->ring);
	phys_buf_free(&e->line);
}

static char
sepchar(enum phys_ist_format fmt)
{
	return fmt == IST_TSV ? '\t' : ',';
}

/* A CSV cell is quoted only when it must be. */
static void
put_cell(struct phys_buf *b, const char *s, enum phys_ist_format fmt)
{
	const char *p;

	if (fmt == IST_TSV || !strpbrk(s, ",\"\r\n")) {
		phys_buf_puts(b, s);
		return;
	}
	phys_buf_putc(b, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			phys_buf_putc(b, '"');
		phys_buf_putc(b, *p);
	}
	phys_buf_putc(b, '"');
}

/* An empty cell for a missing or non-finite value. */
static void
put_num_cell(struct phys_buf *b, double v)
{
	if (isfinite(v))
		phys_buf_double(b, v);
}

static void
put_header(struct phys_buf *b, enum phys_ist_format fmt, bool run,
    const char *lead, const struct phys_ist_cols *c, const struct phys_ist_def *defs,
    size_t ndefs)
{
	size_t i;

	if (run) {
		put_cell(b, "run", fmt);
		phys_buf_putc(b, sepchar(fmt));
	}
	phys_buf_puts(b, lead);
	for (i = 0; c && i < c->n; i++) {
		phys_buf_putc(b, sepchar(fmt));
		put_cell(b, c->v[i].name, fmt);
	}
	for (i = 0; i < ndefs; i++) {
		phys_buf_putc(b, sepchar(fmt));
		put_cell(b, defs[i].name, fmt);
	}
	phys_buf_putc(b, '\n');
}

/* Start of a CSV row: the run when there are several, then t. */
static void
put_row_start(struct phys_buf *b, enum phys_ist_format fmt, const char *run,
    double t)
{
	if (run) {
		put_cell(b, run, fmt);
		phys_buf_putc(b, sepchar(fmt));
	}
	phys_buf_double(b, t);
}

typedef void items_fn(struct phys_buf *b, struct phys_ist_frame *f, void *ctx);

static const char units_key[] = "\"units\":";

/* Whether tp is the line's "units" member. */
static bool
is_units(const struct phys_ist_top *tp)
{
	return tp->kind == IST_TOP_OTHER && tp->len > sizeof units_key - 1 &&
	    memcmp(tp->text, units_key, sizeof units_key - 1) == 0;
}

/* A JSON line like f, its items written by fn; "run" first if given;
 * units, when given, the whole "units" member in place of f's. */
static void
put_json_line(struct phys_buf *b, const char *run, struct phys_ist_frame *f,
    items_fn *fn, void *ctx, const char *units)
{
	const struct phys_ist_top *tp;
	bool first = true;
	size_t i;

	phys_buf_putc(b, '{');
	if (run) {
		phys_buf_puts(b, "\"run\":");
		phys_ist_put_jstr(b, run, strlen(run));
		first = false;
	}
	for (i = 0; i < f->ntop; i++) {
		tp = &f->top[i];
		if (run && tp->kind == IST_TOP_OTHER && tp->len > 6 &&
		    memcmp(tp->text, "\"run\":", 6) == 0)
			continue;
		if (units && is_units(tp))
			continue;
		if (!first)
			phys_buf_putc(b, ',');
		first = false;
		switch (tp->kind) {
		case IST_TOP_T:
			phys_buf_puts(b, "\"t\":");
			phys_buf_double(b, f->t);
			break;
		case IST_TOP_ITEMS:
			phys_buf_puts(b, "\"items\":{");
			fn(b, f, ctx);
			phys_buf_putc(b, '}');
			break;
		case IST_TOP_OTHER:
			phys_buf_putn(b, tp->text, tp->len);
			break;
		}
	}
	if (units && *units) {
		phys_buf_putc(b, ',');
		phys_buf_puts(b, units);
	}
	phys_buf_puts(b, "}\n");
}

/* The run's name in output, only when there are several runs. */
static const char *
run_label(const struct phys_ist_opts *o, size_t k)
{
	return o->ninputs > 1 ? phys_display_name(o->inputs[k]) : NULL;
}

/* ---- filter ---------------------------------------------------------- */

static void
plan_items_fn(struct phys_buf *b, struct phys_ist_frame *f, void *ctx)
{
	bool first = true;

	phys_ist_put_plan_items(b, f, ctx, &first);
}

/* CSV cells for cols; an empty cell where f lacks a field. */
static void
put_col_cells(struct phys_buf *b, enum phys_ist_format fmt, struct phys_ist_cols *c,
    struct phys_ist_frame *f)
{
	struct phys_ist_field *fl;
	size_t i;

	for (i = 0; i < c->n; i++) {
		phys_buf_putc(b, sepchar(fmt));
		if ((fl = phys_ist_col_find(&c->v[i], f)))
			put_num_cell(b, phys_ist_value(fl));
	}
}

/* Shared state of filter and derive across runs. */
struct stream {
	const struct phys_ist_opts *o;
	struct emitter em;
	struct phys_ist_plan plan;	/* JSON: kept items */
	struct phys_ist_cols cols;	/* CSV: kept fields, from the first run */
	bool header;
	bool keep;		/* items of the input go out */
	struct phys_ist_deriver der;
	char *units;		/* derive: the lines' "units" member, or "" */
};

/* derive's "units" member: the input's, when its items are kept, then
 * each definition's that has one. */
static char *
derived_units(const struct stream *st, const struct phys_ist_frame *f)
{
	const struct phys_ist_top *tp;
	json_t *u = NULL;
	char *text, *out;
	size_t i;

	for (i = 0; st->keep && !u && i < f->ntop; i++) {
		tp = &f->top[i];
		if (is_units(tp))
			u = json_loadb(tp->text + sizeof units_key - 1,
			    tp->len - (sizeof units_key - 1), 0, NULL);
	}
	if (!json_is_object(u)) {
		json_decref(u);
		u = json_object();
	}
	for (i = 0; i < st->o->ndefs; i++)
		if (phys_unit_known(&st->der.units[i]))
			json_object_set_new(u, st->o->defs[i].name,
			    json_string(st->der.units[i].text));
	text = json_object_size(u) ? json_dumps(u, JSON_COMPACT) : NULL;
	out = text ? phys_xasprintf("%s%s", units_key, text) : phys_xstrdup("");
	free(text);
	json_decref(u);
	return out;
}

static int
stream_setup(struct stream *st, struct phys_ist_frame *f, const char *file)
{
	const struct phys_ist_opts *o = st->o;
	struct phys_ist_cols check;
	size_t i;
	int rc;

	if (o->format == IST_JSON || st->header) {
		/* Only to report selectors that match nothing. */
		if (o->sel.n > 0) {
			if (phys_ist_cols_build(&check, f, &o->sel, 0, file, NULL) < 0)
				return -1;
			phys_ist_cols_free(&check);
		}
	} else if (st->keep) {
		if (phys_ist_cols_build(&st->cols, f, &o->sel, IST_COLS_CSV, file,
		    NULL) < 0)
			return -1;
	}
	if (o->ndefs > 0) {
		if (phys_ist_deriver_bind(&st->der, o->defs, o->ndefs, f, file) < 0)
			return -1;
		free(st->units);
		st->units = derived_units(st, f);
		for (i = 0; st->keep && i < o->ndefs; i++) {
			struct phys_ist_col c = { 0 };

			rc = phys_ist_col_resolve(&c, f, o->defs[i].name);
			free(c.name);
			if (rc != -1 && (o->sel.n == 0 ||
			    phys_ist_sel_match(&o->sel, o->defs[i].name, NULL)))
				return phys_failat(file, f->line, "derived "
				    "name '%s' is an input item too",
				    o->defs[i].name);
		}
	}
	if (o->format != IST_JSON && !st->header) {
		struct phys_buf *b = &st->em.line;

		/* The header is not part of the window. */
		phys_buf_clear(b);
		put_header(b, o->format, o->ninputs > 1, "sim_time",
		    &st->cols, o->defs, o->ndefs);
		fwrite(b->s, 1, b->len, o->out);
		st->header = true;
	}
	return 0;
}

static void
derived_items_fn(struct phys_buf *b, struct phys_ist_frame *f, void *ctx)
{
	struct stream *st = ctx;
	bool first = true;
	size_t i;

	if (st->keep) {
		if (!phys_ist_plan_same(&st->plan, f))
			phys_ist_plan_build(&st->plan, f, &st->o->sel);
		phys_ist_put_plan_items(b, f, &st->plan, &first);
	}
	for (i = 0; i < st->o->ndefs; i++) {
		if (!first)
			phys_buf_putc(b, ',');
		first = false;
		phys_ist_put_jstr(b, st->o->defs[i].name, strlen(st->o->defs[i].name));
		phys_buf_putc(b, ':');
		phys_buf_double(b, st->der.val[i]);
	}
}

static int
stream_line(struct stream *st, struct phys_ist_frame *f, const char *run,
    const char *file)
{
	const struct phys_ist_opts *o = st->o;
	struct phys_buf *b;
	size_t i;

	if (o->ndefs > 0 && phys_ist_deriver_run(&st->der, f, file) < 0)
		return -1;
	b = emit_begin(&st->em);
	if (o->format == IST_JSON) {
		if (o->ndefs > 0) {
			put_json_line(b, run, f, derived_items_fn, st,
			    st->units);
		} else {
			if (!phys_ist_plan_same(&st->plan, f))
				phys_ist_plan_build(&st->plan, f, &o->sel);
			put_json_line(b, run, f, plan_items_fn, &st->plan,
			    NULL);
		}
	} else {
		put_row_start(b, o->format, run, f->t);
		put_col_cells(b, o->format, &st->cols, f);
		for (i = 0; i < o->ndefs; i++) {
			phys_buf_putc(b, sepchar(o->format));
			put_num_cell(b, st->der.val[i]);
		}
		phys_buf_putc(b, '\n');
	}
	emit_end(&st->em);
	return 0;
}

static int
stream_run(struct stream *st, size_t k)
{
	const struct phys_ist_opts *o = st->o;
	struct phys_ist_sampler sm = { &o->samp, 0, false, 0 };
	struct phys_ist_reader *r;
	struct phys_ist_frame *f;
	bool first = true;
	int rc;

	if (!(r = phys_ist_open(o->inputs[k])))
		return -1;
	f = phys_ist_frame(r);
	while ((rc = phys_ist_read(r)) > 0) {
		if (first && stream_setup(st, f, phys_ist_name(r)) < 0) {
			rc = -1;
			break;
		}
		first = false;
		if (phys_ist_sample(&sm, f->t) && stream_line(st, f,
		    run_label(o, k), phys_ist_name(r)) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0)
		emit_flush(&st->em);
	phys_ist_close(r);
	return rc;
}

/* filter and derive: one pass over each run, one line out per line kept. */
static int
stream_all(const struct phys_ist_opts *o)
{
	struct stream st;
	size_t k;
	int rc = 0;

	memset(&st, 0, sizeof st);
	st.o = o;
	st.em.out = o->out;
	st.em.window = o->samp.window;
	st.keep = o->ndefs == 0 || o->keep || o->sel.n > 0;
	for (k = 0; k < o->ninputs && rc == 0; k++)
		rc = stream_run(&st, k);
	emit_free(&st.em);
	phys_ist_plan_free(&st.plan);
	phys_ist_cols_free(&st.cols);
	phys_ist_deriver_free(&st.der);
	free(st.units);
	return rc;
}

int
phys_ist_filter(const struct phys_ist_opts *o)
{
	return stream_all(o);
}

int
phys_ist_derive(const struct phys_ist_opts *o)
{
	return stream_all(o);
}

/* ---- at and delta ---------------------------------------------------- */

/* Values of every column at each time, read in one pass. */
static int
values_at(struct phys_ist_src *s, const struct phys_ist_sel *sel, unsigned flags,
    const double *times, size_t nt, double **out)
{
	double *prev = NULL, prev_t = 0, w;
	bool done[2] = { false, false };
	size_t j, i, left = nt;
	int rc = 0;

	while (left > 0 && (rc = phys_ist_src_next(s, sel, flags)) > 0) {
		if (!prev)
			prev = phys_xcalloc(s->cols.n + 1, sizeof *prev);
		for (j = 0; j < nt; j++) {
			if (done[j])
				continue;
			if (s->t == times[j]) {
				out[j] = phys_xcalloc(s->cols.n + 1, sizeof **out);
				memcpy(out[j], s->v, s->cols.n * sizeof *s->v);
			} else if (s->n > 1 && prev_t < times[j] &&
			    times[j] < s->t) {
				out[j] = phys_xcalloc(s->cols.n + 1, sizeof **out);
				w = (times[j] - prev_t) / (s->t - prev_t);
				for (i = 0; i < s->cols.n; i++)
					out[j][i] = phys_ist_lerp(
					    phys_ist_col_wraps(&s->cols.v[i]),
					    prev[i], s->v[i], w);
			} else {
				continue;
			}
			done[j] = true;
			left--;
		}
		memcpy(prev, s->v, s->cols.n * sizeof *s->v);
		prev_t = s->t;
	}
	free(prev);
	if (rc < 0)
		return -1;
	if (s->n == 0)
		return phys_failat(s->name, 0, "no state lines");
	for (j = 0; j < nt; j++)
		if (!done[j])
			return phys_failat(s->name, 0, "time %s is outside "
			    "the data (%s to %s)", phys_ist_numtxt(times[j]).s,
			    phys_ist_numtxt(s->first_t).s, phys_ist_numtxt(s->t).s);
	return 0;
}

static void
put_at_line(struct phys_buf *b, const struct phys_ist_opts *o, const char *run,
    const double *times, size_t nt, const struct phys_ist_cols *c, const double *v)
{
	size_t i;

	if (o->format != IST_JSON) {
		if (run) {
			put_cell(b, run, o->format);
			phys_buf_putc(b, sepchar(o->format));
		}
		for (i = 0; i < nt; i++) {
			if (i)
				phys_buf_putc(b, sepchar(o->format));
			phys_buf_double(b, times[i]);
		}
		for (i = 0; i < c->n; i++) {
			phys_buf_putc(b, sepchar(o->format));
			put_num_cell(b, v[i]);
		}
		phys_buf_putc(b, '\n');
		return;
	}
	phys_buf_putc(b, '{');
	if (run) {
		phys_buf_puts(b, "\"run\":");
		phys_ist_put_jstr(b, run, strlen(run));
		phys_buf_putc(b, ',');
	}
	for (i = 0; i < nt; i++) {
		phys_buf_puts(b, nt == 1 ? "\"t\":" : i == 0 ? "\"t1\":" :
		    "\"t2\":");
		phys_buf_double(b, times[i]);
		phys_buf_putc(b, ',');
	}
	phys_buf_puts(b, "\"items\":{");
	for (i = 0; i < c->n; i++) {
		if (i)
			phys_buf_putc(b, ',');
		phys_ist_put_jstr(b, c->v[i].name, strlen(c->v[i].name));
		phys_buf_putc(b, ':');
		phys_buf_double(b, v[i]);
	}
	phys_buf_puts(b, "}}\n");
}

static int
at_run(const struct phys_ist_opts *o, size_t k, const double *times, size_t nt,
    struct phys_ist_cols *first, struct phys_buf *b)
{
	unsigned flags = o->format == IST_JSON ? 0 : IST_COLS_CSV;
	double *vals[2] = { NULL, NULL };
	struct phys_ist_src s;
	size_t i;
	int rc;

	if (phys_ist_src_open(&s, o->inputs[k], first->v ? first : NULL) < 0) {
		phys_ist_src_close(&s);
		return -1;
	}
	rc = values_at(&s, &o->sel, flags, times, nt, vals);
	if (rc == 0) {
		if (nt == 2)
			for (i = 0; i < s.cols.n; i++)
				vals[0][i] = phys_ist_sub(phys_ist_col_wraps(
				    &s.cols.v[i]), vals[1][i], vals[0][i]);
		phys_buf_clear(b);
		if (o->format != IST_JSON && !first->v)
			put_header(b, o->format, o->ninputs > 1, nt == 1 ?
			    "sim_time" : sepchar(o->format) == ',' ?
			    "t1,t2" : "t1\tt2", &s.cols, NULL, 0);
		put_at_line(b, o, run_label(o, k), times, nt, &s.cols,
		    vals[0]);
		fwrite(b->s, 1, b->len, o->out);
		/* CSV: later runs fill the first run's columns. */
		if (o->format != IST_JSON && !first->v)
			phys_ist_cols_copy(first, &s.cols);
	}
	free(vals[0]);
	free(vals[1]);
	phys_ist_src_close(&s);
	return rc;
}

int
phys_ist_at(const struct phys_ist_opts *o, const double *times, size_t ntimes)
{
	struct phys_buf b = { 0 };
	struct phys_ist_cols first = { 0 };
	size_t k;
	int rc = 0;

	for (k = 0; k < o->ninputs && rc == 0; k++)
		rc = at_run(o, k, times, ntimes, &first, &b);
	phys_buf_free(&b);
	phys_ist_cols_free(&first);
	return rc;
}

/* ---- diff ------------------------------------------------------------ */

/* A selector missing in one run is no error (the report says it), and
 * ITEM.orientation chooses a pose's orientation alone. */
#define DIFF_COLS (IST_COLS_LAX | IST_COLS_TURNS)

struct cmp {
	double max_abs, max_rel, first_t;
	bool differ;
};

/* Values d apart at t, of magnitude m. */
static void
note_apart(struct cmp *c, double d, double m, double t, double tol,
    double rel)
{
	if (d > c->max_abs)
		c->max_abs = d;
	if (m > 0 && d / m > c->max_rel)
		c->max_rel = d / m;
	if (d > tol + rel * m && !c->differ) {
		c->differ = true;
		c->first_t = t;
	}
}

static void
compare(struct cmp *c, bool wraps, double a, double b, double t, double tol,
    double rel)
{
	if (isnan(a) || isnan(b)) {
		if (isnan(a) != isnan(b) && !c->differ) {
			c->differ = true;
			c->first_t = t;
		}
		return;
	}
	note_apart(c, fabs(phys_ist_sub(wraps, a, b)), fmax(fabs(a), fabs(b)),
	    t, tol, rel);
}

/* Pose e's orientations in A and B at t: the angle between them, noted
 * against the largest there is, pi; NaN where a run lacks the pose. */
static double
compare_turn(struct cmp *c, const struct phys_ist_euler *e, const double *a,
    const double *b, const ssize_t *map, double t,
    const struct phys_ist_opts *o)
{
	double ra[3], rb[3], d;

	if (!phys_ist_euler_get(a, e, NULL, ra) ||
	    !phys_ist_euler_get(b, e, map, rb))
		return NAN;
	d = phys_ist_rpy_turn(ra, rb);
	note_apart(c, d, M_PI, t, o->tol, o->reltol);
	return d;
}

struct diffstate {
	struct phys_ist_src a, b;
	double *bprev, bprev_t, *vb;
	bool have_bprev, have_b;
	ssize_t *map;		/* A column -> B column, or -1 */
	struct phys_ist_euler *eulers;	/* A's poses' angles */
	size_t neulers;
	struct cmp *cmp;
	struct cmp *turns;	/* per pose of A: its orientations */
	double *turn;		/* per pose of A, now: the angle between them */
	bool *agree;		/* per column of A, now: an angle of a pose
				 * whose orientations agree */
	bool outside;		/* some time is covered by one run only */
	double outside_t;
	struct phys_buf line;	/* --series: the line being written */
	long skipped;		/* --series: A's lines outside B */
	double skip_lo, skip_hi;
};

/* Columns i and j are fields of one item. */
static bool
same_item(const struct phys_ist_col *a, const struct phys_ist_col *b)
{
	return a->itemlen == b->itemlen && a->flen && b->flen &&
	    memcmp(a->name, b->name, a->itemlen) == 0;
}

/* After a pose's fields (columns [i, j)), the angle between A's and B's
 * orientations that compare_line found. */
static void
put_series_turn(struct phys_buf *b, struct diffstate *d, size_t i, size_t j,
    bool first)
{
	size_t e;

	for (e = 0; e < d->neulers; e++)
		if (d->eulers[e].yaw >= i && d->eulers[e].yaw < j &&
		    !isnan(d->turn[e])) {
			phys_buf_puts(b, first ? "\"orientation\":" :
			    ",\"orientation\":");
			phys_buf_double(b, d->turn[e]);
		}
}

/* Columns [i, j) of one item, those B has too: an array of all its
 * elements stays an array; otherwise an object of the fields, as filter
 * writes them. */
static void
put_series_item(struct phys_buf *b, struct diffstate *d, size_t i, size_t j)
{
	const struct phys_ist_frame *f = phys_ist_frame(d->a.r);
	const struct phys_ist_col *c = d->a.cols.v;
	const struct phys_ist_item *it = &f->items[c[i].item];
	bool array = it->kind == IST_ARRAY && j - i == it->n, first = true;
	size_t k;

	phys_ist_put_jstr(b, c[i].name, c[i].flen ? c[i].itemlen :
	    strlen(c[i].name));
	phys_buf_putc(b, ':');
	if (!c[i].flen) {
		phys_buf_double(b, d->a.v[i] - d->vb[d->map[i]]);
		return;	/* a scalar: no angle that wraps */
	}
	for (k = i; array && k < j; k++)
		array = c[k].field == k - i && d->map[k] >= 0;
	phys_buf_putc(b, array ? '[' : '{');
	for (k = i; k < j; k++) {
		if (d->map[k] < 0 || c[k].turn_only)
			continue;
		if (!first)
			phys_buf_putc(b, ',');
		first = false;
		if (!array) {
			phys_ist_put_jstr(b, c[k].name + c[k].itemlen + 1,
			    c[k].flen);
			phys_buf_putc(b, ':');
		}
		phys_buf_double(b, phys_ist_sub(phys_ist_col_wraps(&c[k]),
		    d->a.v[k], d->vb[d->map[k]]));
	}
	if (!array)
		put_series_turn(b, d, i, j, first);
	phys_buf_putc(b, array ? ']' : '}');
}

/* --series: A - B at A's time, as a state line of the fields both have,
 * with A's "units" member. */
static void
put_series_line(struct diffstate *d, FILE *out)
{
	const struct phys_ist_frame *f = phys_ist_frame(d->a.r);
	const struct phys_ist_col *c = d->a.cols.v;
	struct phys_buf *b = &d->line;
	size_t i, j, k, n = d->a.cols.n;
	bool first = true;

	phys_buf_clear(b);
	phys_buf_puts(b, "{\"t\":");
	phys_buf_double(b, d->a.t);
	phys_buf_puts(b, ",\"items\":{");
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_item(&c[i], &c[j]); j++)
			;
		for (k = i; k < j && d->map[k] < 0; k++)
			;
		if (k == j)	/* only in A: left out */
			continue;
		if (!first)
			phys_buf_putc(b, ',');
		first = false;
		put_series_item(b, d, i, j);
	}
	phys_buf_putc(b, '}');
	for (i = 0; i < f->ntop; i++)
		if (is_units(&f->top[i])) {
			phys_buf_putc(b, ',');
			phys_buf_putn(b, f->top[i].text, f->top[i].len);
		}
	phys_buf_puts(b, "}\n");
	fwrite(b->s, 1, b->len, out);
}

static void
note_skipped(struct diffstate *d, double t)
{
	if (d->skipped++ == 0)
		d->skip_lo = t;
	d->skip_hi = t;
}

static void
note_outside(struct diffstate *d, double t)
{
	if (!d->outside || t < d->outside_t)
		d->outside_t = t;
	d->outside = true;
}

/* Move B on to the line at or just after t. */
static int
advance_b(struct diffstate *d, const struct phys_ist_sel *sel, double t)
{
	int rc;

	while (d->have_b && d->b.t < t) {
		if (d->a.n == 1 && !d->have_bprev)
			note_outside(d, d->b.t);	/* before A starts */
		memcpy(d->bprev, d->b.v, d->b.cols.n * sizeof *d->bprev);
		d->bprev_t = d->b.t;
		d->have_bprev = true;
		if ((rc = phys_ist_src_next(&d->b, sel, DIFF_COLS)) < 0)
			return -1;
		d->have_b = rc > 0;
	}
	return 0;
}

/* B's values at A's time into d->vb; false outside B. */
static bool
b_at(struct diffstate *d, double t)
{
	size_t i;
	double w;

	if (d->have_b && d->b.t == t) {
		memcpy(d->vb, d->b.v, d->b.cols.n * sizeof *d->vb);
		return true;
	}
	if (!d->have_b || !d->have_bprev)
		return false;
	w = (t - d->bprev_t) / (d->b.t - d->bprev_t);
	for (i = 0; i < d->b.cols.n; i++)
		d->vb[i] = phys_ist_lerp(phys_ist_col_wraps(&d->b.cols.v[i]),
		    d->bprev[i], d->b.v[i], w);
	return true;
}

static void
diff_setup(struct diffstate *d)
{
	size_t i;
	ssize_t j;

	d->map = phys_xcalloc(d->a.cols.n + 1, sizeof *d->map);
	d->cmp = phys_xcalloc(d->a.cols.n + 1, sizeof *d->cmp);
	for (i = 0; i < d->a.cols.n; i++) {
		j = phys_ist_cols_index(&d->b.cols, d->a.cols.v[i].name);
		d->map[i] = j;
	}
	d->bprev = phys_xcalloc(d->b.cols.n + 1, sizeof *d->bprev);
	d->vb = phys_xcalloc(d->b.cols.n + 1, sizeof *d->vb);
	d->neulers = phys_ist_cols_eulers(&d->a.cols, &d->eulers);
	d->turns = phys_xcalloc(d->neulers + 1, sizeof *d->turns);
	d->turn = phys_xcalloc(d->neulers + 1, sizeof *d->turn);
	d->agree = phys_xcalloc(d->a.cols.n + 1, sizeof *d->agree);
}

/* A's line against B at its time: the poses' orientations, then each
 * field, a pose's angles apart only where its orientations are. */
static void
compare_line(struct diffstate *d, const struct phys_ist_opts *o)
{
	const struct phys_ist_euler *e;
	size_t i;

	memset(d->agree, 0, d->a.cols.n * sizeof *d->agree);
	for (i = 0; i < d->neulers; i++) {
		e = &d->eulers[i];
		d->turn[i] = compare_turn(&d->turns[i], e, d->a.v, d->vb,
		    d->map, d->a.t, o);
		if (phys_ist_turn_agrees(d->turn[i], o->tol, o->reltol))
			d->agree[e->roll] = d->agree[e->pitch] =
			    d->agree[e->yaw] = true;
	}
	for (i = 0; i < d->a.cols.n; i++)
		if (d->map[i] >= 0)	/* agreeing: no tolerance exceeded */
			compare(&d->cmp[i], phys_ist_col_wraps(&d->a.cols.v[i]),
			    d->a.v[i], d->vb[d->map[i]], d->a.t,
			    d->agree[i] ? INFINITY : o->tol, o->reltol);
}

static int
diff_stream(struct diffstate *d, const struct phys_ist_opts *o)
{
	const struct phys_ist_sel *sel = &o->sel;
	int rc;

	if ((rc = phys_ist_src_next(&d->b, sel, DIFF_COLS)) < 0)
		return -1;
	d->have_b = rc > 0;
	while ((rc = phys_ist_src_next(&d->a, sel, DIFF_COLS)) > 0) {
		if (!d->map)
			diff_setup(d);
		if (advance_b(d, sel, d->a.t) < 0)
			return -1;
		if (!b_at(d, d->a.t)) {
			note_outside(d, d->a.t);
			if (o->series)
				note_skipped(d, d->a.t);
			continue;
		}
		phys_ist_eulers_near(d->a.v, d->eulers, d->neulers, d->vb,
		    d->map);
		compare_line(d, o);
		if (o->series)
			put_series_line(d, o->out);
	}
	if (rc < 0)
		return -1;
	/* B lines after A's end are covered by B only. */
	while (d->have_b) {
		if (d->a.n == 0 || d->b.t > d->a.t)
			note_outside(d, d->b.t);
		if ((rc = phys_ist_src_next(&d->b, sel, DIFF_COLS)) < 0)
			return -1;
		d->have_b = rc > 0;
	}
	return 0;
}

static void
put_diff_line(struct phys_buf *b, const char *field, const struct cmp *c,
    const char *only)
{
	phys_buf_puts(b, "{\"field\":");
	phys_ist_put_jstr(b, field, strlen(field));
	if (only) {
		phys_buf_puts(b, ",\"only_in\":");
		phys_ist_put_jstr(b, only, strlen(only));
	} else {
		phys_buf_puts(b, ",\"max_abs\":");
		phys_buf_double(b, c->max_abs);
		phys_buf_puts(b, ",\"max_rel\":");
		phys_buf_double(b, c->max_rel);
		phys_buf_puts(b, ",\"first_t\":");
		if (c->differ)
			phys_buf_double(b, c->first_t);
		else
			phys_buf_puts(b, "null");
	}
	phys_buf_puts(b, "}\n");
}

/* After column i, the yaw of a pose both runs give whole: the line of its
 * orientations. */
static void
put_turn_line(struct diffstate *d, struct phys_buf *b, size_t i,
    bool *differ)
{
	const struct phys_ist_euler *e;
	char *name;
	size_t k;

	for (k = 0; k < d->neulers; k++) {
		e = &d->eulers[k];
		if (e->yaw != i || d->map[e->roll] < 0 || d->map[e->pitch] < 0)
			continue;
		name = phys_ist_euler_turn_name(&d->a.cols, e);
		put_diff_line(b, name, &d->turns[k], NULL);
		*differ |= d->turns[k].differ;
		free(name);
	}
}

static void
diff_report(struct diffstate *d, const struct phys_ist_opts *o, bool *differ)
{
	struct phys_buf b = { 0 };
	struct cmp tc = { 0 };
	size_t i;

	if (d->a.n == 0 || d->b.n == 0) {
		if (d->a.n != d->b.n) {
			put_diff_line(&b, "t", NULL, d->a.n ? d->a.name :
			    d->b.name);
			*differ = true;
		}
	} else if (d->outside) {
		tc.max_abs = fmax(fabs(d->a.first_t - d->b.first_t),
		    fabs(d->a.t - d->b.t));
		tc.max_rel = tc.max_abs / fmax(fmax(fabs(d->a.first_t),
		    fabs(d->b.first_t)), fmax(fabs(d->a.t), fabs(d->b.t)));
		tc.differ = true;
		tc.first_t = d->outside_t;
		put_diff_line(&b, "t", &tc, NULL);
		*differ = true;
	}
	for (i = 0; i < d->a.cols.n; i++) {
		if (d->map && d->map[i] >= 0) {
			if (!d->a.cols.v[i].turn_only) {
				put_diff_line(&b, d->a.cols.v[i].name,
				    &d->cmp[i], NULL);
				*differ |= d->cmp[i].differ;
			}
			put_turn_line(d, &b, i, differ);
		} else {
			put_diff_line(&b, d->a.cols.v[i].name, NULL,
			    d->a.name);
			*differ = true;
		}
	}
	for (i = 0; i < d->b.cols.n; i++)
		if (phys_ist_cols_index(&d->a.cols, d->b.cols.v[i].name) < 0) {
			put_diff_line(&b, d->b.cols.v[i].name, NULL,
			    d->b.name);
			*differ = true;
		}
	fwrite(b.s ? b.s : "", 1, b.len, o->out);
	phys_buf_free(&b);
}

/* --series: what the lines leave out is said on standard error; the
 * status is diff's. */
static void
series_report(struct diffstate *d, bool *differ)
{
	size_t i;

	*differ = d->outside || d->a.n != d->b.n;
	for (i = 0; i < d->neulers; i++)
		*differ |= d->turns[i].differ;
	for (i = 0; i < d->a.cols.n; i++) {
		*differ |= d->map && (d->map[i] < 0 || (d->cmp[i].differ &&
		    !d->a.cols.v[i].turn_only));
		if (d->map && d->map[i] < 0)
			phys_warn("%s: only in %s, left out",
			    d->a.cols.v[i].name, d->a.name);
	}
	for (i = 0; i < d->b.cols.n; i++)
		if (phys_ist_cols_index(&d->a.cols, d->b.cols.v[i].name) < 0) {
			phys_warn("%s: only in %s, left out",
			    d->b.cols.v[i].name, d->b.name);
			*differ = true;
		}
	if (d->skipped)
		phys_warn("%s: %ld lines, t=%s to %s, are outside the times "
		    "of %s (%s to %s): no difference for them", d->a.name,
		    d->skipped, phys_ist_numtxt(d->skip_lo).s,
		    phys_ist_numtxt(d->skip_hi).s, d->b.name,
		    phys_ist_numtxt(d->b.first_t).s,
		    phys_ist_numtxt(d->b.t).s);
}

/* Selectors must match something in at least one of the runs. */
static int
diff_check_sel(struct diffstate *d, const struct phys_ist_sel *sel)
{
	size_t i;

	for (i = 0; i < sel->n; i++)
		if ((!d->a.hits || d->a.hits[i] == 0) &&
		    (!d->b.hits || d->b.hits[i] == 0))
			return phys_fail("selector '%s' matches nothing in "
			    "either run", sel->pat[i]);
	return 0;
}

int
phys_ist_diff(const struct phys_ist_opts *o, const char *a, const char *b,
    bool *differ)
{
	struct diffstate d;
	int rc = -1;

	memset(&d, 0, sizeof d);
	*differ = false;
	if (phys_ist_src_open(&d.a, a, NULL) == 0 && phys_ist_src_open(&d.b, b, NULL) == 0 &&
	    diff_stream(&d, o) == 0) {
		rc = 0;
		if (d.a.n + d.b.n > 0 && diff_check_sel(&d, &o->sel) < 0)
			rc = -1;
		else if (o->series)
			series_report(&d, differ);
		else
			diff_report(&d, o, differ);
	}
	phys_ist_src_close(&d.a);
	phys_ist_src_close(&d.b);
	free(d.map);
	free(d.eulers);
	free(d.turns);
	free(d.turn);
	free(d.agree);
	free(d.cmp);
	free(d.bprev);
	free(d.vb);
	phys_buf_free(&d.line);
	return rc;
}

int
phys_ist_save_selection(const struct phys_ist_opts *o, const char *path)
{
	struct phys_ist_sel all = { 0 };
	size_t i;
	int rc;

	for (i = 0; i < o->sel.n; i++)
		phys_ist_sel_add(&all, o->sel.pat[i]);
	for (i = 0; i < o->ndefs; i++)
		phys_ist_sel_add(&all, o->defs[i].text);
	rc = phys_ist_sel_save(&all, path);
	phys_ist_sel_free(&all);
	return rc;
}

/* ---- the options from a command line -------------------------------- */

int
phys_ist_def_add(struct phys_ist_opts *o, const char *text,
    struct phys_expr_error *err, size_t *same)
{
	struct phys_ist_def d;
	size_t i;

	if (phys_ist_def_parse(&d, text, err) < 0)
		return -1;
	for (i = 0; i < o->ndefs; i++)
		if (strcmp(o->defs[i].name, d.name) == 0) {
			phys_ist_def_free(&d);
			*same = i;
			return -2;
		}
	o->defs = phys_xrealloc(o->defs, (o->ndefs + 1) * sizeof *o->defs);
	o->defs[o->ndefs++] = d;
	return 0;
}

int
phys_ist_operand(struct phys_ist_opts *o, const char *s, bool defs,
    struct phys_expr_error *err, size_t *same)
{
	if (defs && strchr(s, '='))
		return phys_ist_def_add(o, s, err, same);
	if (!*s)
		return -3;
	phys_ist_sel_add(&o->sel, s);
	return 0;
}

void
phys_ist_input_add(struct phys_ist_opts *o, const char *path)
{
	o->inputs = phys_xrealloc(o->inputs, (o->ninputs + 1) *
	    sizeof *o->inputs);
	o->inputs[o->ninputs++] = path;
}

int
phys_ist_inputs(struct phys_ist_opts *o)
{
	size_t i;
	int stdins = 0;

	if (o->ninputs == 0)
		phys_ist_input_add(o, "-");
	for (i = 0; i < o->ninputs; i++)
		stdins += strcmp(o->inputs[i], "-") == 0;
	if (stdins > 1)
		return phys_fail("standard input can be read only once");
	return stdins;
}

void
phys_ist_opts_free(struct phys_ist_opts *o)
{
	size_t i;

	phys_ist_sel_free(&o->sel);
	for (i = 0; i < o->ndefs; i++)
		phys_ist_def_free(&o->defs[i]);
	free(o->defs);
	free(o->inputs);
	o->defs = NULL;
	o->inputs = NULL;
	o->ndefs = o->ninputs = 0;
}
