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
};

static int
save_one(struct phys_world *w, const struct phys_ref *r, void *ctx)
{
	struct save_ctx *c = ctx;
	struct phys_value v;
	char *name;
	int rc;

	c->matched++;
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
phys_sweep_save_best(struct phys_world *w, json_t *run, const char *name)
{
	struct save_ctx c = { 0 };
	json_t *set = json_object_get(run, "set"), *v;
	const char *k, *preset = json_string_value(json_object_get(run,
	    "preset"));
	int from, rc = 0;

	from = preset ? phys_world_profile(w, preset) : w->start;
	if (from < 0)
		rc = phys_fail("%s has no profile '%s'", w->doc.name, preset);
	json_object_foreach(set, k, v) {
		if (rc < 0)
			break;
		c.text = json_string_value(v);
		c.matched = 0;
		if (phys_ref_each(w, k, from, save_one, &c) < 0)
			rc = -1;
		else if (c.matched == 0)
			rc = phys_fail("no parameter matches '%s'", k);
	}
	if (rc == 0)
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

size_t
phys_sweep_landscape(const struct phys_sweep_runs *p, const char *output,
    struct phys_buf *b)
{
	const char *ext = output ? strrchr(output, '.') : NULL, **names;
	size_t n = p->n ? numeric_names(p, &names) : 0;

	if (n == 0) {
		if (p->n)
			free(names);
		return 0;
	}
	if (!output)
		phys_buf_printf(b, "set terminal dumb 79 %zu\n", 24 * n);
	else {
		phys_buf_printf(b, "set terminal %s size 640,%zu\nset output ",
		    ext && strcmp(ext, ".png") == 0 ? "pngcairo" : "svg",
		    360 * n);
		phys_ist_put_gpstr(b, output);
		phys_buf_putc(b, '\n');
	}
	/* a margin, so that the points at the ends of a range are seen */
	phys_buf_printf(b, "set multiplot layout %zu,1\nset ylabel \"score\"\n"
	    "set offsets graph 0.05, graph 0.05, graph 0.1, graph 0.1\n", n);
	for (size_t i = 0; i < n; i++) {
		phys_buf_puts(b, "set xlabel ");
		phys_ist_put_gpstr(b, names[i]);
		phys_buf_puts(b, " noenhanced\nplot '-' using 1:2 with points pt 7 "
		    "notitle\n");
		for (size_t r = 0; r < p->n; r++) {
			double x = 0, y = phys_sweep_score_of(p->v[r]);

			if (isnan(y))
				continue;
			phys_parse_double(set_value(p->v[r], names[i]), &x);
			phys_buf_printf(b, "%.17g %.17g\n", x, y);
		}
		phys_buf_puts(b, "e\n");
	}
	phys_buf_puts(b, "unset multiplot\n");
	free(names);
	return n;
}
