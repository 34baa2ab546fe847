/* sweep_score.c - a score for each run, through the state-line reader. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "select.h"
#include "statein.h"
#include "sweep.h"

/* The window EXPR@FROM:TO ends text with: its '@' (outside a quoted
 * name), or NULL. */
static char *
window_at(char *text)
{
	char *at = NULL, *p;
	bool quoted = false;

	for (p = text; *p; p++)
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '@' && !quoted)
			at = p;
	return at;
}

/* "FROM:TO", either side empty: the window in seconds. */
static int
parse_window(struct phys_sweep_score *s, const char *w)
{
	const char *colon = strchr(w, ':');
	char *from;
	bool ok;

	if (!colon)
		return phys_fail("'@%s': a window is @FROM:TO in seconds "
		    "(either may be left out)", w);
	from = phys_xstrndup(w, (size_t)(colon - w));
	ok = (!*from || phys_parse_double(from, &s->from)) &&
	    (!colon[1] || phys_parse_double(colon + 1, &s->to));
	free(from);
	if (!ok || s->from > s->to)
		return phys_fail("'@%s': a window is @FROM:TO in seconds, "
		    "FROM <= TO", w);
	return 0;
}

int
phys_sweep_score_parse(struct phys_sweep_score *s, const char *spec)
{
	static const char *const kinds[] = { "final:", "max:", "min:",
	    "mean:", "diff:" };
	struct phys_expr_error err;
	const char *text;
	char *at;
	size_t i;

	memset(s, 0, sizeof *s);
	s->from = -INFINITY;
	s->to = INFINITY;
	for (i = 0; i < 5 && strncmp(spec, kinds[i], strlen(kinds[i])); i++)
		;
	if (i == 5)
		return phys_fail("'%s': SCORE is final:EXPR, max:EXPR, "
		    "min:EXPR, mean:EXPR (each may end in @FROM:TO) or "
		    "diff:REF", spec);
	s->kind = (enum phys_sweep_score_kind)i;
	text = spec + strlen(kinds[i]);
	if (s->kind == PHYS_SCORE_DIFF) {
		s->ref = text;
		return 0;
	}
	s->text = phys_xstrdup(text);
	if ((at = window_at(s->text))) {
		*at = '\0';
		if (parse_window(s, at + 1) < 0)
			return -1;
	}
	if (!(s->e = phys_expr_compile(s->text, &err)))
		return phys_fail("'%s': column %zu: %s", s->text, err.column,
		    err.msg);
	return 0;
}

void
phys_sweep_score_free(struct phys_sweep_score *s)
{
	if (s->e)
		phys_expr_free(s->e);
	s->e = NULL;
	free(s->text);
	s->text = NULL;
	phys_ist_sel_free(&s->sel);
	phys_buf_free(&s->name);
}

/* The full name of a field of item it: ITEM, or ITEM.FIELD. */
static const char *
field_name(struct phys_sweep_score *s, const struct phys_ist_item *it,
    const struct phys_ist_field *f)
{
	phys_buf_clear(&s->name);
	phys_buf_putn(&s->name, it->name, it->nlen);
	if (f->nlen) {
		phys_buf_putc(&s->name, '.');
		phys_buf_putn(&s->name, f->name, f->nlen);
	}
	return s->name.s;
}

static struct phys_ist_field *
find_field(struct phys_sweep_score *s, struct phys_ist_frame *f,
    const char *name)
{
	for (size_t i = 0; i < f->nitems; i++) {
		struct phys_ist_item *it = &f->items[i];

		for (size_t j = 0; j < it->n; j++)
			if (strcmp(field_name(s, it, &f->fields[it->first + j]),
			    name) == 0)
				return &f->fields[it->first + j];
	}
	return NULL;
}

static int
score_expr(struct phys_sweep_score *s, struct phys_ist_reader *r,
    double *out)
{
	size_t n = phys_expr_nrefs(s->e), k;
	double *refs = phys_xcalloc(n + 1, sizeof *refs), v, acc = NAN;
	double sum = 0;
	long lines = 0;
	struct phys_ist_frame *f;
	struct phys_ist_field *fd;
	const char *want;
	int got;

	while ((got = phys_ist_read(r)) > 0) {
		f = phys_ist_frame(r);
		if (f->t < s->from || f->t > s->to)
			continue;
		for (k = 0; k < n; k++) {
			want = phys_expr_ref_name(s->e, k);
			if (!(fd = find_field(s, f, want))) {
				free(refs);
				return phys_failat(phys_ist_name(r), f->line,
				    "no field '%s'", want);
			}
			refs[k] = phys_ist_value(fd);
		}
		v = phys_expr_eval(s->e, refs);
		sum += v;
		lines++;
		if (s->kind == PHYS_SCORE_FINAL || isnan(acc) ||
		    (s->kind == PHYS_SCORE_MAX ? v > acc : v < acc))
			acc = v;
	}
	free(refs);
	if (got < 0)
		return -1;
	if (lines == 0 || (isnan(acc) && s->kind != PHYS_SCORE_MEAN))
		return phys_fail("%s: no state lines%s", phys_ist_name(r),
		    isinf(s->from) && isinf(s->to) ? "" : " in the window");
	*out = s->kind == PHYS_SCORE_MEAN ? sum / (double)lines : acc;
	return 0;
}

/* The run's values at time t into v: its line there, or between the
 * lines around it, interpolated. false when t is beyond the run. */
static bool
run_at(struct phys_ist_src *run, bool have_run, const double *prev,
    double prev_t, bool have_prev, double t, double *v)
{
	double w;
	size_t i;

	if (have_run && run->t == t) {
		memcpy(v, run->v, run->cols.n * sizeof *v);
		return true;
	}
	if (!have_run || !have_prev)
		return false;
	w = (t - prev_t) / (run->t - prev_t);
	for (i = 0; i < run->cols.n; i++)
		v[i] = prev[i] + (run->v[i] - prev[i]) * w;
	return true;
}

/*
 * The RMS difference of the selected fields from the reference run, at
 * the reference's times: a measured trajectory has its own, so the run
 * is interpolated between its lines around each. Reference lines beyond
 * the run's times are not scored, and said so.
 */
static int
score_diff(struct phys_sweep_score *s, const char *path, double *out)
{
	struct phys_ist_src ref, run;
	double *prev = NULL, *v = NULL, prev_t = 0, sum = 0, d, lo = 0, hi = 0;
	bool have_prev = false, have_run = false;
	long n = 0, beyond = 0;
	size_t i;
	int rc;

	memset(&run, 0, sizeof run);
	if (phys_ist_src_open(&ref, s->ref, NULL) < 0 ||
	    (rc = phys_ist_src_next(&ref, &s->sel, 0)) < 0) {
		phys_ist_src_close(&ref);
		return -1;
	}
	if (rc == 0) {
		phys_ist_src_close(&ref);
		return phys_fail("%s: no state lines", phys_display_name(s->ref));
	}
	if (phys_ist_src_open(&run, path, &ref.cols) < 0)
		goto out;
	prev = phys_xcalloc(ref.cols.n + 1, sizeof *prev);
	v = phys_xcalloc(ref.cols.n + 1, sizeof *v);
	if ((rc = phys_ist_src_next(&run, &s->sel, 0)) < 0)
		goto out;
	have_run = rc > 0;
	do {
		/* the run on to its line at or after the reference's time */
		while (have_run && run.t < ref.t) {
			memcpy(prev, run.v, run.cols.n * sizeof *prev);
			prev_t = run.t;
			have_prev = true;
			if ((rc = phys_ist_src_next(&run, &s->sel, 0)) < 0)
				goto out;
			have_run = rc > 0;
		}
		if (!run_at(&run, have_run, prev, prev_t, have_prev, ref.t,
		    v)) {
			if (beyond++ == 0)
				lo = ref.t;
			hi = ref.t;
			continue;
		}
		for (i = 0; i < ref.cols.n; i++) {
			d = v[i] - ref.v[i];
			sum += d * d;
			n++;
		}
	} while ((rc = phys_ist_src_next(&ref, &s->sel, 0)) > 0);
	if (rc == 0 && beyond)
		/* once for all the runs of one span */
		phys_warn_once("%s: its lines at t=%s to %s are beyond the "
		    "run's times (%s to %s): not scored",
		    phys_display_name(s->ref), phys_ist_numtxt(lo).s,
		    phys_ist_numtxt(hi).s, phys_ist_numtxt(run.first_t).s,
		    phys_ist_numtxt(run.t).s);
	if (rc == 0 && n == 0)
		rc = phys_fail("%s: no line of %s is within the run's times, "
		    "or no field is selected", run.name,
		    phys_display_name(s->ref));
	if (rc == 0)
		*out = sqrt(sum / (double)n);
out:
	if (rc > 0)
		rc = 0;
	free(prev);
	free(v);
	phys_ist_src_close(&run);
	phys_ist_src_close(&ref);
	return rc < 0 ? -1 : rc;
}

int
phys_sweep_score_file(struct phys_sweep_score *s, const char *path,
    double *out)
{
	struct phys_ist_reader *r;
	int rc;

	if (s->kind == PHYS_SCORE_DIFF)
		return score_diff(s, path, out);
	if (!(r = phys_ist_open(path)))
		return -1;
	rc = score_expr(s, r, out);
	phys_ist_close(r);
	return rc;
}

int
phys_sweep_score_runs(struct phys_sweep_score *s,
    const struct phys_sweep_runs *r, const char *dir, FILE *out)
{
	double v = NAN;
	json_t *run;
	char *path;
	int rc = 0;

	for (size_t i = 0; i < r->n; i++) {
		path = phys_sweep_state_path(dir, r->run[i].id);
		switch (phys_sweep_state(dir, &r->run[i])) {
		case PHYS_SWEEP_NOT_RUN:
			phys_warn("run %lld has no state file %s (not run yet, "
			    "or failed)", r->run[i].id, path);
			rc = 1;
			break;
		case PHYS_SWEEP_OTHER:
			phys_warn("run %lld: %s was made by another run (another "
			    "plan's, or a sweep too old to say): not scored; "
			    "run the plan again", r->run[i].id, path);
			rc = 1;
			break;
		case PHYS_SWEEP_DONE:
			if (phys_sweep_score_file(s, path, &v) < 0) {
				phys_warn("%s", phys_error());
				rc = 1;
				break;
			}
			run = phys_sweep_run_json(r, i);
			json_object_set_new(run, "score", isfinite(v) ?
			    json_real(v) : json_null());
			phys_sweep_put_run(run, out);
			json_decref(run);
			break;
		}
		free(path);
	}
	return rc;
}
