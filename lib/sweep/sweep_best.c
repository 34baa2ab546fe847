/* sweep_best.c - the scored runs ranked, the best kept as a profile, and
 * the score against each swept parameter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "paramio.h"
#include "plot.h"
#include "preset.h"
#include "ref.h"
#include "sweep.h"

double
phys_sweep_score_of(json_t *run)
{
	json_t *v = json_object_get(run, "score");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Better score first; runs without a score last; then by id, so that
 * ties rank the same every time. */
static int
by_score(const void *a, const void *b, void *ctx)
{
	json_t *ra = *(json_t *const *)a, *rb = *(json_t *const *)b;
	double x = phys_sweep_score_of(ra), y = phys_sweep_score_of(rb);
	bool maximize = *(const bool *)ctx;
	long long ia = phys_sweep_run_id(ra), ib = phys_sweep_run_id(rb);

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return (maximize ? x < y : x > y) ? 1 : -1;
	return ia < ib ? -1 : ia > ib;
}

void
phys_sweep_rank(struct phys_sweep_runs *r, bool maximize)
{
	qsort_r(r->v, r->n, sizeof *r->v, by_score, &maximize);
}

/*
 * A run's value for every parameter its name matches: a physics parameter
 * goes into the new profile (the profile it started from is left as it
 * was); a world or entity parameter, which a <physics> block cannot hold,
 * is written where it lives.
 */
struct save_ctx {
	const char *text;
	char **sets;		/* NAME=VALUE of the new profile */
	size_t nsets;
	int matched;
	bool run_only;		/* it matched a run's own parameter */
};

static int
save_one(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	struct save_ctx *c = ctx;
	struct phys_value v;
	char *name;
	int rc;

	c->matched++;
	if (phys_param_run_only(r->p)) {	/* no file holds it */
		c->run_only = true;
		return 0;
	}
	if (r->scope == PHYS_S_PHYSICS) {
		name = phys_ref_name(w, r);
		c->sets = phys_xrealloc(c->sets, (c->nsets + 1) * sizeof *c->sets);
		c->sets[c->nsets++] = phys_xasprintf("%s=%s", name, c->text);
		free(name);
		return 0;
	}
	if (!phys_world_editable(w, r->scope, r->idx))
		return phys_fail("cannot save a value of an included model: "
		    "edit its own file");
	memset(&v, 0, sizeof v);
	rc = phys_value_parse(r->p, c->text, &v);
	if (rc == 0)
		rc = phys_world_edit(w, r, &v);
	phys_value_free(&v);
	return rc;
}

int
phys_sweep_save_best(struct phys_scene *w, json_t *run, const char *name)
{
	struct save_ctx c = { 0 };
	json_t *set = json_object_get(run, "set"), *v;
	const char *k, *preset = json_string_value(json_object_get(run,
	    "preset"));
	int from, rc = 0;

	from = preset ? phys_preset_resolve(w, preset, false) : w->start;
	if (from < 0)
		rc = -1;
	json_object_foreach(set, k, v) {
		if (rc < 0)
			break;
		c.text = json_string_value(v);
		c.matched = 0;
		c.run_only = false;
		if (phys_ref_each(w, k, from, save_one, &c) < 0)
			rc = -1;
		else if (c.matched == 0)
			rc = phys_fail("no parameter matches '%s'", k);
		else if (c.run_only)
			phys_warn("%s=%s is a run's own parameter, not saved with "
			    "the profile: give it to the runs that use it "
			    "(phys-step -s, a control line)", k, c.text);
	}
	/* the runs' profile made of the start one (-p ENGINE): the start
	 * profile carried over to that engine, as the runs had it */
	if (rc == 0 && phys_preset_made_for_run(w, from))
		rc = phys_preset_add(w, name, w->start, w->profiles[from].type,
		    c.sets, c.nsets);
	else if (rc == 0)
		rc = phys_preset_add(w, name, from, NULL, c.sets, c.nsets);
	while (c.nsets > 0)
		free(c.sets[--c.nsets]);
	free(c.sets);
	return rc;
}

/* A run's value of a swept name, as text; "" when it has none. */
static const char *
set_value(json_t *run, const char *name)
{
	const char *s = json_string_value(json_object_get(json_object_get(run,
	    "set"), name));

	return s ? s : "";
}

/* The swept names whose values are numbers, in the first run's order. */
static size_t
numeric_names(const struct phys_sweep_runs *p, const char ***out)
{
	json_t *v;
	const char *k;
	size_t n = 0;
	double x;

	*out = phys_xcalloc(json_object_size(json_object_get(p->v[0], "set")) +
	    1, sizeof **out);
	json_object_foreach(json_object_get(p->v[0], "set"), k, v) {
		bool all = true;

		for (size_t r = 0; r < p->n && all; r++)
			all = phys_parse_double(set_value(p->v[r], k), &x);
		if (all)
			(*out)[n++] = k;
	}
	return n;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of the n sorted values v, interpolated; NaN for none
 * (every run failed: no score to place). */
static double
quantile(const double *v, size_t n, double q)
{
	double at;
	size_t i;

	if (n == 0)
		return NAN;
	at = q * (double)(n - 1);
	i = (size_t)at;

	return i + 1 < n ? v[i] + (v[i + 1] - v[i]) * (at - (double)i) : v[i];
}

/*
 * The score axis: what the runs span, but for scores far out (beyond 3
 * interquartile ranges of the quartiles), which would squeeze the rest to
 * a line: they are drawn on the axis' edge instead. The best run is
 * always in range.
 */
static void
score_range(const struct phys_sweep_runs *p, double best, double *lo,
    double *hi)
{
	double *v = phys_xcalloc(p->n + 1, sizeof *v), q1, q3, in_lo, in_hi;
	size_t n = 0, i;

	for (i = 0; i < p->n; i++)
		if (isfinite(phys_sweep_score_of(p->v[i])))
			v[n++] = phys_sweep_score_of(p->v[i]);
	qsort(v, n, sizeof *v, cmp_double);
	q1 = quantile(v, n, 0.25);
	q3 = quantile(v, n, 0.75);
	in_lo = q3 > q1 ? q1 - 3 * (q3 - q1) : -HUGE_VAL;
	in_hi = q3 > q1 ? q3 + 3 * (q3 - q1) : HUGE_VAL;
	*lo = HUGE_VAL;
	*hi = -HUGE_VAL;
	for (i = 0; i < n; i++)
		if ((v[i] >= in_lo && v[i] <= in_hi) || v[i] == best) {
			*lo = fmin(*lo, v[i]);
			*hi = fmax(*hi, v[i]);
		}
	free(v);
}

/* The runs' points of one panel: its name's value and the score, the
 * score put on the axis' edge when beyond it. which: 0 the runs in range,
 * 1 the best (run best), 2 above the axis, 3 below. */
static size_t
put_points(struct phys_buf *b, const struct phys_sweep_runs *p,
    const char *name, int which, size_t best, double lo, double hi)
{
	double x, y;
	size_t r, n = 0;
	int w;

	for (r = 0; r < p->n; r++) {
		y = phys_sweep_score_of(p->v[r]);
		if (!isfinite(y))
			continue;
		w = r == best ? 1 : y > hi ? 2 : y < lo ? 3 : 0;
		if (w != which)
			continue;
		phys_parse_double(set_value(p->v[r], name), &x);
		phys_buf_printf(b, "%.17g %.17g\n", x, w == 2 ? hi : w == 3 ?
		    lo : y);
		n++;
	}
	phys_buf_puts(b, "e\n");
	return n;
}

/* One panel: the score against name. */
static void
panel(struct phys_buf *b, const struct phys_sweep_landscape *l,
    const struct phys_ist_canvas *c, const char *name, size_t best,
    double lo, double hi)
{
	const struct phys_sweep_runs *p = l->runs;
	/* text: plot symbols; images: filled dots, a ring round the best */
	const char *pts = c->text ? "pt '*'" : "pt 7 ps 0.8 lc rgb '#2f4b7c'";
	const char *ptb = c->text ? "pt '@'" : "pt 6 ps 3 lw 2 lc rgb '#d62728'";
	const char *ptu = c->text ? "pt '^'" : "pt 9 ps 1.5 lc rgb '#777777'";
	const char *ptd = c->text ? "pt 'v'" : "pt 11 ps 1.5 lc rgb '#777777'";
	size_t above = 0, below = 0, r;
	double y, top = -HUGE_VAL;
	char *t;

	for (r = 0; r < p->n; r++) {
		y = phys_sweep_score_of(p->v[r]);
		if (r == best)
			continue;
		above += isfinite(y) && y > hi;
		below += isfinite(y) && y < lo;
		if (isfinite(y) && y > hi)
			top = fmax(top, y);
	}
	phys_buf_puts(b, "set xlabel ");
	phys_ist_put_gpstr(b, name);
	phys_buf_puts(b, " noenhanced\n");
	if (!l->logy && hi > lo)
		phys_buf_printf(b, "set yrange [%.17g:%.17g]\n", lo - (hi - lo) *
		    0.08, hi + (hi - lo) * 0.08);
	phys_buf_puts(b, "plot '-' using 1:2 with points ");
	phys_buf_puts(b, pts);
	phys_buf_puts(b, " title 'a run', '-' using 1:2 with points ");
	phys_buf_puts(b, ptb);
	t = phys_xasprintf("the best run, %lld (score %.6g)",
	    phys_sweep_run_id(p->v[best]), phys_sweep_score_of(p->v[best]));
	phys_buf_puts(b, " title ");
	phys_ist_put_gpstr(b, t);
	free(t);
	if (above) {
		t = phys_xasprintf("%zu run%s above the axis, up to %.3g", above,
		    above == 1 ? "" : "s", top);
		phys_buf_printf(b, ", '-' using 1:2 with points %s title ", ptu);
		phys_ist_put_gpstr(b, t);
		free(t);
	}
	if (below) {
		phys_buf_printf(b, ", '-' using 1:2 with points %s title '%zu "
		    "run%s below the axis'", ptd, below, below == 1 ? "" : "s");
	}
	phys_buf_putc(b, '\n');
	put_points(b, p, name, 0, best, lo, hi);
	put_points(b, p, name, 1, best, lo, hi);
	if (above)
		put_points(b, p, name, 2, best, lo, hi);
	if (below)
		put_points(b, p, name, 3, best, lo, hi);
}

size_t
phys_sweep_landscape_names(const struct phys_sweep_runs *p,
    const char ***names)
{
	return p->n ? numeric_names(p, names) : 0;
}

void
phys_sweep_landscape_body(struct phys_buf *b, const struct phys_ist_canvas *c,
    void *ctx)
{
	const struct phys_sweep_landscape *l = ctx;
	const struct phys_sweep_runs *p = l->runs;
	double top = NAN, y, lo = -HUGE_VAL, hi = HUGE_VAL, id, bid = 0;
	size_t i, r, best = 0;

	/* the best run as best ranks it: ties to the lowest id */
	for (r = 0; r < p->n; r++) {
		y = phys_sweep_score_of(p->v[r]);
		id = (double)phys_sweep_run_id(p->v[r]);
		if (isfinite(y) && (isnan(top) || (l->maximize ? y > top :
		    y < top) || (y == top && id < bid))) {
			top = y;
			best = r;
			bid = id;
		}
	}
	if (!l->logy)
		score_range(p, top, &lo, &hi);
	/* text: the axis' name above it, as phys-introspect plot's */
	phys_buf_puts(b, c->text ? "set label 1 'score' at graph 0, graph 1 "
	    "offset character -4, character 1 left\nset tmargin 2\n" :
	    "set ylabel 'score'\n");
	phys_buf_puts(b, "set grid\n");
	phys_buf_puts(b, c->text ? "set key below\n" :
	    "set key outside top center horizontal\n");
	if (l->logx)
		phys_buf_puts(b, "set logscale x\n");
	if (l->logy)
		phys_buf_puts(b, "set logscale y\n");
	/* a margin, so that the points at the ends of a range are seen */
	phys_buf_puts(b, "set offsets graph 0.05, graph 0.05, 0, 0\n");
	phys_buf_printf(b, "set multiplot layout %zu,1", l->nnames);
	if (l->title) {
		phys_buf_puts(b, " title ");
		phys_ist_put_gpstr(b, l->title);
	}
	phys_buf_putc(b, '\n');
	for (i = 0; i < l->nnames; i++)
		panel(b, l, c, l->names[i], best, lo, hi);
	phys_buf_puts(b, "unset multiplot\n");
}
