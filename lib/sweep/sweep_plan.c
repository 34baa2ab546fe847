/* sweep_plan.c - a plan: values of each swept name, combined into runs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "paramio.h"
#include "ref.h"
#include "sweep.h"

void
phys_sweep_plan_init(struct phys_sweep_plan *p, enum phys_sweep_sample sample,
    long nsample, unsigned long long seed)
{
	memset(p, 0, sizeof *p);
	p->sample = sample;
	p->nsample = nsample;
	p->rng = seed;
	p->fixed = json_array();
	json_array_append_new(p->fixed, json_object());
}

void
phys_sweep_plan_free(struct phys_sweep_plan *p)
{
	size_t i, k;

	for (i = 0; i < p->naxes; i++) {
		for (k = 0; k < p->axes[i].n; k++)
			free(p->axes[i].vals[k]);
		free(p->axes[i].vals);
		free(p->axes[i].name);
	}
	free(p->axes);
	json_decref(p->fixed);
	memset(p, 0, sizeof *p);
}

static void
axis_push(struct phys_sweep_axis *a, char *text)
{
	a->vals = phys_xrealloc(a->vals, (a->n + 1) * sizeof *a->vals);
	a->vals[a->n++] = text;
}

/* Grid values as text that reads back to the intended numbers: %.12g
 * turns 0.1 + 3 * 0.2 into 0.7, not 0.7000000000000001. */
static char *
grid_value(double lo, double hi, long i, long n)
{
	double v = n == 1 ? lo : lo + (hi - lo) * (double)i / (double)(n - 1);

	return phys_xasprintf("%.12g", v);
}

/* LO:HI:N (grid) or LO:HI (sample) in spec, which is cut up. */
static int
parse_range(struct phys_sweep_axis *a, char *spec, const char *arg,
    enum phys_sweep_sample sample)
{
	char *p = strchr(spec, ':'), *q;
	long n = 0;

	if (!p)
		return phys_fail("'%s': expected NAME=LO:HI%s", arg,
		    sample == PHYS_SWEEP_GRID ? ":N" : "");
	*p++ = '\0';
	q = strchr(p, ':');
	if (q)
		*q++ = '\0';
	if (!phys_parse_double(spec, &a->lo) || !phys_parse_double(p, &a->hi) ||
	    (sample == PHYS_SWEEP_GRID && (!q || !phys_parse_long(q, &n) ||
	    n < 1)) || (sample != PHYS_SWEEP_GRID && q))
		return phys_fail("'%s': expected NAME=LO:HI%s", arg,
		    sample == PHYS_SWEEP_GRID ? ":N with N >= 1" : "");
	for (long i = 0; i < n; i++)
		axis_push(a, grid_value(a->lo, a->hi, i, n));
	return 0;
}

/*
 * NAME=V1,V2,... or NAME=LO:HI:N (a grid), NAME=LO:HI (a sample), or, in a
 * sample, NAME=V: one value for every run, as -s gives it.
 */
static int
parse_axis(struct phys_sweep_axis *a, const char *arg,
    enum phys_sweep_sample sample)
{
	const char *eq = strchr(arg, '=');
	char *spec, *p, *r;
	int rc = 0;

	if (!eq || eq == arg)
		return phys_fail("'%s': expected NAME=VALUES", arg);
	a->name = phys_xstrndup(arg, (size_t)(eq - arg));
	spec = phys_xstrdup(eq + 1);
	p = strchr(spec, ':');
	if (sample != PHYS_SWEEP_GRID && !p) {
		if (strchr(spec, ',') || !*spec)
			rc = phys_fail("'%s': a sample takes NAME=LO:HI, or "
			    "one value NAME=V for every run", arg);
		else
			axis_push(a, phys_xstrdup(spec));
		a->fixed = true;
		free(spec);
		return rc;
	}
	if (sample != PHYS_SWEEP_GRID || (p && !strchr(spec, ','))) {
		rc = parse_range(a, spec, arg, sample);
		free(spec);
		return rc;
	}
	for (p = spec; rc == 0 && (r = strsep(&p, ",")) != NULL;) {
		if (!*r)
			rc = phys_fail("'%s': an empty value", arg);
		else
			axis_push(a, phys_xstrdup(r));
	}
	free(spec);
	return rc;
}

int
phys_sweep_plan_axis(struct phys_sweep_plan *p, const char *arg)
{
	size_t i;

	p->axes = phys_xrealloc(p->axes, (p->naxes + 1) * sizeof *p->axes);
	memset(&p->axes[p->naxes], 0, sizeof *p->axes);
	/* counted even when bad, so that the plan frees what it holds */
	if (parse_axis(&p->axes[p->naxes++], arg, p->sample) < 0)
		return -1;
	for (i = 0; i + 1 < p->naxes; i++)
		if (strcmp(p->axes[i].name, p->axes[p->naxes - 1].name) == 0)
			return phys_fail("'%s' is given twice",
			    p->axes[i].name);
	return 0;
}

int
phys_sweep_plan_set(struct phys_sweep_plan *p, const char *arg)
{
	p->axes = phys_xrealloc(p->axes, (p->naxes + 1) * sizeof *p->axes);
	memset(&p->axes[p->naxes], 0, sizeof *p->axes);
	p->naxes++;
	if (!strchr(arg, '=') || *arg == '=')
		return phys_fail("--set %s: expected NAME=VALUE", arg);
	p->axes[p->naxes - 1].name = phys_xstrndup(arg,
	    strcspn(arg, "="));
	axis_push(&p->axes[p->naxes - 1], phys_xstrdup(strchr(arg, '=') + 1));
	p->axes[p->naxes - 1].fixed = true;
	return 0;
}

/* splitmix64: a small generator with a fixed, documented sequence, so a
 * seed gives the same sample on every machine. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
rng_unit(uint64_t *state)	/* [0, 1) */
{
	return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/*
 * Values of axis a for n runs: uniform, or one in each of n strata in a
 * random order (Latin hypercube); an int parameter's rounded to the
 * nearest whole number, so each is one its parameter takes.
 */
static void
sample_axis(struct phys_sweep_axis *a, long n, enum phys_sweep_sample sample,
    bool whole, uint64_t *rng)
{
	long *perm = phys_xcalloc((size_t)n, sizeof *perm), i, j, t;
	double u, x;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (long)(rng_next(rng) % (uint64_t)(i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++) {
		u = sample == PHYS_SWEEP_LHS ? ((double)perm[i] +
		    rng_unit(rng)) / (double)n : rng_unit(rng);
		x = a->lo + (a->hi - a->lo) * u;
		axis_push(a, whole ? phys_xasprintf("%.0f", round(x)) :
		    phys_xasprintf("%.10g", x));
	}
	free(perm);
}

static int
check_value(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	struct phys_value v;
	int rc;

	memset(&v, 0, sizeof v);
	rc = phys_value_parse(r->p, ctx, &v);
	phys_value_free(&v);
	return rc;
}

/* A glob must match, a plain name resolve, and each value parse for
 * every parameter the name names. */
static int
check_values(struct phys_scene *w, const char *name, int profile,
    char *const *vals, size_t n)
{
	struct phys_ref r;
	size_t i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		if (phys_has_glob(name)) {
			rc = phys_ref_each(w, name, profile, check_value,
			    vals[i]);
			if (rc == 0)
				return phys_fail("no parameter matches '%s'",
				    name);
			rc = rc < 0 ? -1 : 0;
		} else if ((rc = phys_ref_resolve(w, name, profile, &r)) == 0) {
			rc = check_value(w, &r, vals[i]);
		}
	}
	if (rc < 0) {
		/* the message names the parameter: said again with the
		 * name and value as given */
		char *why = phys_xstrdup(phys_error());

		phys_fail("%s=%s: %s", name, vals[i - 1], why);
		free(why);
		return -1;
	}
	return 0;
}

static int
first_param(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	*(const struct phys_param **)ctx = r->p;
	return 1;
}

/*
 * The type of what name names, to sample it: a number, or a whole one
 * (the first parameter a glob matches stands for all). -1 for a name
 * that names nothing or a parameter that is no number.
 */
static int
sample_type(struct phys_scene *w, const char *name, int profile, bool *whole)
{
	const struct phys_param *p = NULL;
	struct phys_ref r;

	if (phys_has_glob(name)) {
		if (phys_ref_each(w, name, profile, first_param, &p) < 0 || !p)
			return phys_fail("no parameter matches '%s'", name);
	} else if (phys_ref_resolve(w, name, profile, &r) == 0) {
		p = r.p;
	} else {
		return -1;
	}
	if (p->type != PHYS_T_DOUBLE && p->type != PHYS_T_INT)
		return phys_fail("%s is a %s: a sample draws numbers (give its "
		    "values as a grid, NAME=V1,V2,...)", name,
		    phys_type_name(p->type));
	*whole = p->type == PHYS_T_INT;
	return 0;
}

int
phys_sweep_plan_check(struct phys_sweep_plan *p, struct phys_scene *w,
    int profile)
{
	const char *name;
	json_t *fixed, *v;
	bool whole = false;
	size_t i, k;

	for (i = 0; p->sample != PHYS_SWEEP_GRID && i < p->naxes; i++) {
		if (p->axes[i].fixed)
			continue;
		if (sample_type(w, p->axes[i].name, profile, &whole) < 0)
			return -1;
		sample_axis(&p->axes[i], p->nsample, p->sample, whole,
		    &p->rng);
	}
	for (i = 0; i < p->naxes; i++)
		if (check_values(w, p->axes[i].name, profile, p->axes[i].vals,
		    p->axes[i].n) < 0)
			return -1;
	json_array_foreach(p->fixed, k, fixed)
		json_object_foreach(fixed, name, v) {
			char *text = (char *)json_string_value(v);

			if (check_values(w, name, profile, &text, 1) < 0)
				return -1;
		}
	return 0;
}

static int
list_line(char *line, long lineno, void *ctx)
{
	json_t *lines = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *set,
	    *v;
	struct phys_buf text = { 0 };
	const char *k;

	if (!json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("expected a JSON object of NAME:VALUE");
	}
	set = json_object();
	json_object_foreach(obj, k, v) {
		phys_buf_clear(&text);
		if (phys_json_to_text(v, &text) < 0) {
			json_decref(set);
			json_decref(obj);
			phys_buf_free(&text);
			return -1;
		}
		json_object_set_new(set, k, json_string(text.s ? text.s : ""));
	}
	phys_buf_free(&text);
	json_decref(obj);
	json_array_append_new(lines, set);
	return 0;
}

int
phys_sweep_plan_list(struct phys_sweep_plan *p, const char *path)
{
	if (!p->listed)
		json_array_clear(p->fixed);
	p->listed = true;
	return phys_each_line(path, list_line, p->fixed);
}

/* The run line's fixed part: everything but its id and values. */
static json_t *
run_base(const struct phys_run_options *o, const char *world)
{
	json_t *base = json_object(), *items;
	size_t i;

	json_object_set_new(base, "world", json_string(world));
	if (o->preset)
		json_object_set_new(base, "preset", json_string(o->preset));
	if (o->control)
		json_object_set_new(base, "control", json_string(o->control));
	if (o->steps >= 0)
		json_object_set_new(base, "steps", json_integer(o->steps));
	else
		json_object_set_new(base, "duration", json_real(o->duration));
	if (o->rate > 0)
		json_object_set_new(base, "rate", json_real(o->rate));
	else if (o->every > 1)
		json_object_set_new(base, "every", json_integer(o->every));
	if (o->nitems) {
		items = json_array();
		for (i = 0; i < o->nitems; i++)
			json_array_append_new(items, json_string(o->items[i]));
		json_object_set_new(base, "items", items);
	}
	return base;
}

static void
put_run(json_t *base, long id, json_t *fixed, const struct phys_sweep_plan *p,
    const long *pick, FILE *out)
{
	json_t *line = json_object(), *set = json_object(), *v;
	const char *k;
	size_t i;

	json_object_set_new(line, "id", json_integer(id));
	json_object_update(line, base);
	json_object_foreach(fixed, k, v)
		json_object_set(set, k, v);
	for (i = 0; i < p->naxes; i++)
		json_object_set_new(set, p->axes[i].name,
		    json_string(p->axes[i].vals[pick[i]]));
	json_object_set_new(line, "set", set);
	phys_sweep_put_run(line, out);
	json_decref(line);
}

/* Every grid point with fixed, the first name varying slowest. */
static void
put_grid(json_t *base, long *id, json_t *fixed,
    const struct phys_sweep_plan *p, long *pick, FILE *out)
{
	long nruns = 1;
	size_t i;

	for (i = 0; i < p->naxes; i++)
		nruns *= (long)p->axes[i].n;
	memset(pick, 0, (p->naxes + 1) * sizeof *pick);
	for (long r = 0; r < nruns; r++) {
		put_run(base, (*id)++, fixed, p, pick, out);
		for (i = p->naxes; i-- > 0;) {
			if (++pick[i] < (long)p->axes[i].n)
				break;
			pick[i] = 0;
		}
	}
}

int
phys_sweep_plan_write(const struct phys_sweep_plan *p,
    const struct phys_run_options *o, const char *world, FILE *out)
{
	json_t *base = run_base(o, world), *fixed;
	long *pick = phys_xcalloc(p->naxes + 1, sizeof *pick), id = 0;
	size_t i, k;

	json_array_foreach(p->fixed, k, fixed) {
		if (p->sample == PHYS_SWEEP_GRID) {
			put_grid(base, &id, fixed, p, pick, out);
			continue;
		}
		for (long s = 0; s < p->nsample; s++) {
			for (i = 0; i < p->naxes; i++)
				pick[i] = p->axes[i].fixed ? 0 : s;
			put_run(base, id++, fixed, p, pick, out);
		}
	}
	free(pick);
	json_decref(base);
	return 0;
}
