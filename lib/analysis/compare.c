/*
 * compare.c - several runs compared field by field (compare.h). The first
 * run's times lead; each other run is read alongside, its values taken at
 * those times, between its lines around them where it has none there.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Wall-clock items: never the same twice, whatever the engine. */
static const char *const wallclock[] = { "real_time", "real_time_factor" };

/* What one field of the first run has seen. */
struct field_cmp {
	double max_abs, max_rel, t, first_t;
	bool differ, seen;
	double *at;		/* every run's value at t, NaN where none */
};

/* One run read alongside the first. */
struct follower {
	struct phys_ist_src s;
	double *prev, prev_t, *now;	/* the line before and its value at t */
	bool have, have_prev;
	ssize_t *map;			/* first run's column -> this run's */
};

struct comparison {
	const struct phys_ist_opts *o;
	size_t n;			/* runs */
	struct phys_ist_src lead;
	struct follower *f;		/* runs 1 .. n-1, at f[1 .. n-1] */
	struct field_cmp *cmp;		/* per column of the lead */
	bool *skip;			/* wall-clock columns */
	struct phys_ist_euler *eulers;	/* the lead's poses' angles */
	size_t neulers;
	struct field_cmp *turns;	/* per pose: its orientations */
	bool *agree;			/* per column, now: an angle of a pose
					 * whose orientations agree */
	double (*rpy)[3];		/* per run: one pose's angles */
	double *row;			/* one value per run */
	bool outside;			/* some time only some runs cover */
	double outside_t;
};

static void
note_outside(struct comparison *c, double t)
{
	if (!c->outside || t < c->outside_t)
		c->outside_t = t;
	c->outside = true;
}

static bool
is_wallclock(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof wallclock / sizeof *wallclock; i++)
		if (strcmp(name, wallclock[i]) == 0)
			return true;
	return false;
}

/* Columns of the lead known: each run's columns of the same names. */
static void
setup(struct comparison *c)
{
	size_t k, i, ncols = c->lead.cols.n;

	c->cmp = phys_xcalloc(ncols + 1, sizeof *c->cmp);
	c->skip = phys_xcalloc(ncols + 1, sizeof *c->skip);
	c->agree = phys_xcalloc(ncols + 1, sizeof *c->agree);
	for (i = 0; i < ncols; i++) {
		c->cmp[i].at = phys_xcalloc(c->n, sizeof *c->cmp[i].at);
		c->skip[i] = is_wallclock(c->lead.cols.v[i].name);
	}
	c->neulers = phys_ist_cols_eulers(&c->lead.cols, &c->eulers);
	c->turns = phys_xcalloc(c->neulers + 1, sizeof *c->turns);
	for (i = 0; i < c->neulers; i++)
		c->turns[i].at = phys_xcalloc(c->n, sizeof *c->turns[i].at);
	c->rpy = phys_xcalloc(c->n, sizeof *c->rpy);
	for (k = 1; k < c->n; k++) {
		struct follower *f = &c->f[k];

		f->map = phys_xcalloc(ncols + 1, sizeof *f->map);
		for (i = 0; i < ncols; i++)
			f->map[i] = phys_ist_cols_index(&f->s.cols,
			    c->lead.cols.v[i].name);
		f->prev = phys_xcalloc(f->s.cols.n + 1, sizeof *f->prev);
		f->now = phys_xcalloc(f->s.cols.n + 1, sizeof *f->now);
	}
}

/* Run k on to its line at or just after t. */
static int
advance(struct comparison *c, size_t k, double t)
{
	struct follower *f = &c->f[k];
	int rc;

	while (f->have && f->s.t < t) {
		if (c->lead.n == 1 && !f->have_prev)
			note_outside(c, f->s.t);	/* before the lead starts */
		memcpy(f->prev, f->s.v, f->s.cols.n * sizeof *f->prev);
		f->prev_t = f->s.t;
		f->have_prev = true;
		if ((rc = phys_ist_src_next(&f->s, &c->o->sel, IST_COLS_LAX)) < 0)
			return -1;
		f->have = rc > 0;
	}
	return 0;
}

/* Run k's values at t into f->now; false where it covers no t. */
static bool
value_at(struct comparison *c, size_t k, double t)
{
	struct follower *f = &c->f[k];
	double w;
	size_t i;

	if (f->have && f->s.t == t) {
		memcpy(f->now, f->s.v, f->s.cols.n * sizeof *f->now);
		return true;
	}
	if (!f->have || !f->have_prev)
		return false;
	w = (t - f->prev_t) / (f->s.t - f->prev_t);
	for (i = 0; i < f->s.cols.n; i++)
		f->now[i] = phys_ist_lerp(phys_ist_col_wraps(&f->s.cols.v[i]),
		    f->prev[i], f->s.v[i], w);
	return true;
}

/* A spread d at t over values of magnitude m, each run's in c->row; a
 * difference unless told it is none. */
static void
note_spread(struct comparison *c, struct field_cmp *fc, double d, double m,
    double t, bool may_differ)
{
	if (!fc->seen || d > fc->max_abs) {
		fc->max_abs = d;
		fc->t = t;
		memcpy(fc->at, c->row, c->n * sizeof *c->row);
	}
	fc->seen = true;
	if (m > 0 && d / m > fc->max_rel)
		fc->max_rel = d / m;
	if (may_differ && d > c->o->tol + c->o->reltol * m && !fc->differ) {
		fc->differ = true;
		fc->first_t = t;
	}
}

/*
 * Pose e's orientations at t: the largest angle between two runs' against
 * the largest there is, pi; each run's angle from the first run's in
 * c->row. Where a run lacks the pose, nothing (its fields say so). Where
 * they agree, so do its angles, however far apart: near a pitch of pi/2
 * roll and yaw far apart can be one orientation.
 */
static void
compare_turn(struct comparison *c, size_t e, double t)
{
	const struct phys_ist_euler *pe = &c->eulers[e];
	double d = 0;
	size_t k, j;

	if (!phys_ist_euler_get(c->lead.v, pe, NULL, c->rpy[0]))
		return;
	for (k = 1; k < c->n; k++)
		if (!phys_ist_euler_get(c->f[k].now, pe, c->f[k].map,
		    c->rpy[k]))
			return;
	for (k = 0; k < c->n; k++) {
		c->row[k] = phys_ist_rpy_turn(c->rpy[0], c->rpy[k]);
		for (j = 0; j < k; j++)
			d = fmax(d, phys_ist_rpy_turn(c->rpy[j], c->rpy[k]));
	}
	note_spread(c, &c->turns[e], d, M_PI, t, true);
	if (phys_ist_turn_agrees(d, c->o->tol, c->o->reltol))
		c->agree[pe->roll] = c->agree[pe->pitch] = c->agree[pe->yaw] =
		    true;
}

/* Column i at time t, each run's value in c->row (NaN: none). */
static void
compare_column(struct comparison *c, size_t i, double t)
{
	struct field_cmp *fc = &c->cmp[i];
	double hi = -INFINITY, lo = INFINITY, d, m, ref = NAN;
	bool nan = false, wraps = phys_ist_col_wraps(&c->lead.cols.v[i]);
	size_t k, have = 0;

	for (k = 0; k < c->n; k++) {
		double v = c->row[k];

		if (isnan(v)) {
			nan = true;
			continue;
		}
		/* an angle that wraps: each run's the shorter way from the
		 * first's, so that a spread across pi is the arc's */
		if (isnan(ref))
			ref = v;
		v = ref + phys_ist_sub(wraps, v, ref);
		hi = fmax(hi, v);
		lo = fmin(lo, v);
		have++;
	}
	if (have == 0)
		return;
	if (nan && have < c->n && !fc->differ) {
		/* a run has a number where another has none */
		fc->differ = true;
		fc->first_t = t;
	}
	d = hi - lo;
	m = fmax(fabs(hi), fabs(lo));
	note_spread(c, fc, d, m, t, !c->agree[i]);
}

static int
compare_stream(struct comparison *c)
{
	const struct phys_ist_sel *sel = &c->o->sel;
	size_t k, i;
	int rc;

	for (k = 1; k < c->n; k++) {
		if ((rc = phys_ist_src_next(&c->f[k].s, sel, IST_COLS_LAX)) < 0)
			return -1;
		c->f[k].have = rc > 0;
	}
	while ((rc = phys_ist_src_next(&c->lead, sel, IST_COLS_LAX)) > 0) {
		bool all = true;

		if (!c->cmp)
			setup(c);
		for (k = 1; k < c->n; k++) {
			if (advance(c, k, c->lead.t) < 0)
				return -1;
			if (!value_at(c, k, c->lead.t))
				all = false;
		}
		if (!all) {
			note_outside(c, c->lead.t);
			continue;
		}
		for (k = 1; k < c->n; k++)
			phys_ist_eulers_near(c->lead.v, c->eulers, c->neulers,
			    c->f[k].now, c->f[k].map);
		memset(c->agree, 0, c->lead.cols.n * sizeof *c->agree);
		for (i = 0; i < c->neulers; i++)
			compare_turn(c, i, c->lead.t);
		for (i = 0; i < c->lead.cols.n; i++) {
			if (c->skip[i])
				continue;
			c->row[0] = c->lead.v[i];
			for (k = 1; k < c->n; k++)
				c->row[k] = c->f[k].map[i] >= 0 ?
				    c->f[k].now[c->f[k].map[i]] : NAN;
			compare_column(c, i, c->lead.t);
		}
	}
	if (rc < 0)
		return -1;
	/* lines of the others after the lead's end: theirs only */
	for (k = 1; k < c->n; k++)
		while (c->f[k].have) {
			if (c->lead.n == 0 || c->f[k].s.t > c->lead.t)
				note_outside(c, c->f[k].s.t);
			if ((rc = phys_ist_src_next(&c->f[k].s, sel,
			    IST_COLS_LAX)) < 0)
				return -1;
			c->f[k].have = rc > 0;
		}
	return 0;
}

static void
put_name(struct phys_buf *b, const char *s)
{
	phys_ist_put_jstr(b, s, strlen(s));
}

static void
put_number(struct phys_buf *b, double v)
{
	if (isfinite(v))
		phys_buf_double(b, v);
	else
		phys_buf_puts(b, "null");
}

/* {"field":F,"only_in":[the runs having column name]} */
static void
put_only(struct comparison *c, struct phys_buf *b, const char *name,
    const char *const *names)
{
	bool first = true;
	size_t k;

	phys_buf_puts(b, "{\"field\":");
	put_name(b, name);
	phys_buf_puts(b, ",\"only_in\":[");
	for (k = 0; k < c->n; k++) {
		const struct phys_ist_cols *cols = k ? &c->f[k].s.cols :
		    &c->lead.cols;

		if (phys_ist_cols_index(cols, name) < 0)
			continue;
		phys_buf_puts(b, first ? "" : ",");
		put_name(b, names[k]);
		first = false;
	}
	phys_buf_puts(b, "]}\n");
}

static void
put_field(struct comparison *c, struct phys_buf *b, const char *name,
    const struct field_cmp *fc, const char *const *names)
{
	size_t k;

	phys_buf_puts(b, "{\"field\":");
	put_name(b, name);
	phys_buf_puts(b, ",\"max_abs\":");
	put_number(b, fc->max_abs);
	phys_buf_puts(b, ",\"max_rel\":");
	put_number(b, fc->max_rel);
	phys_buf_puts(b, ",\"t\":");
	put_number(b, fc->t);
	phys_buf_puts(b, ",\"values\":{");
	for (k = 0; k < c->n; k++) {
		phys_buf_puts(b, k ? "," : "");
		put_name(b, names[k]);
		phys_buf_putc(b, ':');
		put_number(b, fc->at[k]);
	}
	phys_buf_puts(b, "},\"first_t\":");
	if (fc->differ)
		put_number(b, fc->first_t);
	else
		phys_buf_puts(b, "null");
	phys_buf_puts(b, "}\n");
}

/* The runs' first and last times apart: the "t" line. */
static void
put_times(struct comparison *c, struct phys_buf *b)
{
	double d = 0, m = 0;
	size_t k;

	for (k = 1; k < c->n; k++) {
		d = fmax(d, fmax(fabs(c->f[k].s.first_t - c->lead.first_t),
		    fabs(c->f[k].s.t - c->lead.t)));
		m = fmax(m, fmax(fabs(c->f[k].s.t), fabs(c->f[k].s.first_t)));
	}
	m = fmax(m, fmax(fabs(c->lead.t), fabs(c->lead.first_t)));
	phys_buf_puts(b, "{\"field\":\"t\",\"max_abs\":");
	put_number(b, d);
	phys_buf_puts(b, ",\"max_rel\":");
	put_number(b, m > 0 ? d / m : 0);
	phys_buf_puts(b, ",\"first_t\":");
	put_number(b, c->outside_t);
	phys_buf_puts(b, "}\n");
}

/* After column i, the yaw of a pose: the line of its orientations. */
static void
put_turn(struct comparison *c, struct phys_buf *b, size_t i,
    const char *const *names, bool *differ)
{
	char *name;
	size_t e;

	for (e = 0; e < c->neulers; e++) {
		if (c->eulers[e].yaw != i || !c->turns[e].seen)
			continue;
		name = phys_ist_euler_turn_name(&c->lead.cols, &c->eulers[e]);
		put_field(c, b, name, &c->turns[e], names);
		*differ |= c->turns[e].differ;
		free(name);
	}
}

static void
report(struct comparison *c, const char *const *names, bool *differ)
{
	struct phys_buf b = { 0 };
	size_t k, i;

	if (c->outside) {
		put_times(c, &b);
		*differ = true;
	}
	for (i = 0; i < c->lead.cols.n; i++) {
		const char *name = c->lead.cols.v[i].name;
		bool everywhere = true;

		if (c->skip[i])
			continue;
		for (k = 1; k < c->n; k++)
			everywhere &= c->f[k].map[i] >= 0;
		if (!everywhere) {
			put_only(c, &b, name, names);
			*differ = true;
		} else if (c->cmp[i].seen) {
			put_field(c, &b, name, &c->cmp[i], names);
			*differ |= c->cmp[i].differ;
			put_turn(c, &b, i, names, differ);
		}
	}
	/* fields the lead lacks, each once */
	for (k = 1; k < c->n; k++)
		for (i = 0; i < c->f[k].s.cols.n; i++) {
			const char *name = c->f[k].s.cols.v[i].name;
			size_t j;
			bool said = false;

			if (is_wallclock(name) ||
			    phys_ist_cols_index(&c->lead.cols, name) >= 0)
				continue;
			for (j = 1; j < k && !said; j++)
				said = phys_ist_cols_index(&c->f[j].s.cols,
				    name) >= 0;
			if (said)
				continue;
			put_only(c, &b, name, names);
			*differ = true;
		}
	fwrite(b.s ? b.s : "", 1, b.len, c->o->out);
	phys_buf_free(&b);
}

/* Selectors must match something in some run. */
static int
check_selectors(struct comparison *c)
{
	const struct phys_ist_sel *sel = &c->o->sel;
	size_t i, k;

	for (i = 0; i < sel->n; i++) {
		bool hit = c->lead.hits && c->lead.hits[i] > 0;

		for (k = 1; k < c->n && !hit; k++)
			hit = c->f[k].s.hits && c->f[k].s.hits[i] > 0;
		if (!hit)
			return phys_fail("selector '%s' matches nothing in any "
			    "run", sel->pat[i]);
	}
	return 0;
}

static void
comparison_free(struct comparison *c)
{
	size_t k, i;

	/* before the lead is closed, which forgets its columns */
	for (i = 0; c->cmp && i < c->lead.cols.n; i++)
		free(c->cmp[i].at);
	for (i = 0; c->turns && i < c->neulers; i++)
		free(c->turns[i].at);
	free(c->turns);
	free(c->rpy);
	phys_ist_src_close(&c->lead);
	for (k = 1; k < c->n; k++) {
		phys_ist_src_close(&c->f[k].s);
		free(c->f[k].prev);
		free(c->f[k].now);
		free(c->f[k].map);
	}
	free(c->cmp);
	free(c->skip);
	free(c->agree);
	free(c->eulers);
	free(c->f);
	free(c->row);
}

int
phys_ist_compare(const struct phys_ist_opts *o, const char *const *names,
    bool *differ)
{
	struct comparison c;
	size_t k;
	int rc = -1;

	*differ = false;
	if (o->ninputs < 2)
		return phys_fail("comparing needs two runs at least");
	memset(&c, 0, sizeof c);
	c.o = o;
	c.n = o->ninputs;
	c.f = phys_xcalloc(c.n, sizeof *c.f);
	c.row = phys_xcalloc(c.n, sizeof *c.row);
	if (phys_ist_src_open(&c.lead, o->inputs[0], NULL) < 0)
		goto out;
	for (k = 1; k < c.n; k++)
		if (phys_ist_src_open(&c.f[k].s, o->inputs[k], NULL) < 0)
			goto out;
	if (compare_stream(&c) < 0)
		goto out;
	if (!c.cmp)
		setup(&c);
	rc = 0;
	if (check_selectors(&c) < 0)
		rc = -1;
	else
		report(&c, names, differ);
out:
	comparison_free(&c);
	return rc;
}
