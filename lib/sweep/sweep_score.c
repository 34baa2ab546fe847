/* sweep_score.c - a score for each run, through the state-line reader. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "statein.h"
#include "sweep.h"

int
phys_sweep_score_parse(struct phys_sweep_score *s, const char *spec)
{
	static const char *const kinds[] = { "final:", "max:", "min:",
	    "diff:" };
	struct phys_expr_error err;
	const char *text;
	size_t i;

	memset(s, 0, sizeof *s);
	for (i = 0; i < 4 && strncmp(spec, kinds[i], strlen(kinds[i])); i++)
		;
	if (i == 4)
		return phys_fail("'%s': SCORE is final:EXPR, max:EXPR, "
		    "min:EXPR or diff:REF", spec);
	s->kind = (enum phys_sweep_score_kind)i;
	text = spec + strlen(kinds[i]);
	if (s->kind == PHYS_SCORE_DIFF) {
		s->ref = text;
		return 0;
	}
	if (!(s->e = phys_expr_compile(text, &err)))
		return phys_fail("'%s': column %zu: %s", text, err.column,
		    err.msg);
	return 0;
}

void
phys_sweep_score_free(struct phys_sweep_score *s)
{
	if (s->e)
		phys_expr_free(s->e);
	s->e = NULL;
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

static bool
selected(const struct phys_sweep_score *s, const char *item,
    const char *field)
{
	if (s->sel.n == 0)
		return true;
	for (size_t i = 0; i < s->sel.n; i++)
		if (phys_glob(s->sel.pat[i], field) ||
		    phys_glob(s->sel.pat[i], item))
			return true;
	return false;
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
	struct phys_ist_frame *f;
	struct phys_ist_field *fd;
	const char *want;
	int got;

	while ((got = phys_ist_read(r)) > 0) {
		f = phys_ist_frame(r);
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
		if (s->kind == PHYS_SCORE_FINAL || isnan(acc) ||
		    (s->kind == PHYS_SCORE_MAX ? v > acc : v < acc))
			acc = v;
	}
	free(refs);
	if (got < 0)
		return -1;
	if (isnan(acc))
		return phys_fail("%s: no state lines", phys_ist_name(r));
	*out = acc;
	return 0;
}

/* The selected fields of one line of r against the same fields of ref's
 * line: their squared differences summed into *sum, counted in *n. */
static int
diff_line(struct phys_sweep_score *s, struct phys_ist_frame *rf,
    struct phys_ist_reader *ref, struct phys_ist_frame *ff, double *sum,
    long *n)
{
	struct phys_ist_field *f;
	double d;
	int rc = 0;

	for (size_t i = 0; i < rf->nitems && rc == 0; i++) {
		struct phys_ist_item *it = &rf->items[i];
		char *item = phys_xstrndup(it->name, it->nlen);

		for (size_t j = 0; j < it->n && rc == 0; j++) {
			char *name = phys_xstrdup(field_name(s, it,
			    &rf->fields[it->first + j]));

			if (!selected(s, item, name)) {
				free(name);
				continue;
			}
			if (!(f = find_field(s, ff, name))) {
				rc = phys_failat(phys_ist_name(ref), ff->line,
				    "no field '%s'", name);
			} else {
				d = phys_ist_value(&rf->fields[it->first + j]) -
				    phys_ist_value(f);
				*sum += d * d;
				(*n)++;
			}
			free(name);
		}
		free(item);
	}
	return rc;
}

/* The RMS difference of the selected fields, line by line at the same
 * times, from the reference run. */
static int
score_diff(struct phys_sweep_score *s, struct phys_ist_reader *r,
    double *out)
{
	struct phys_ist_reader *ref;
	struct phys_ist_frame *rf, *ff;
	double sum = 0;
	long n = 0;
	int ga, gb, rc = 0;

	if (!(ref = phys_ist_open(s->ref)))
		return -1;
	for (;;) {
		ga = phys_ist_read(r);
		gb = phys_ist_read(ref);
		if (ga < 0 || gb < 0) {
			rc = -1;
			break;
		}
		if (ga == 0 || gb == 0) {
			if (ga != gb)
				rc = phys_fail("%s has %s state lines than %s",
				    phys_ist_name(r), ga ? "more" : "fewer",
				    phys_ist_name(ref));
			break;
		}
		rf = phys_ist_frame(r);
		ff = phys_ist_frame(ref);
		if (fabs(rf->t - ff->t) > 1e-9) {
			rc = phys_failat(phys_ist_name(r), rf->line, "t=%g where "
			    "%s has t=%g", rf->t, phys_ist_name(ref), ff->t);
			break;
		}
		if ((rc = diff_line(s, rf, ref, ff, &sum, &n)) < 0)
			break;
	}
	phys_ist_close(ref);
	if (rc == 0 && n == 0)
		rc = phys_fail("no field of %s is selected", phys_ist_name(r));
	if (rc == 0)
		*out = sqrt(sum / (double)n);
	return rc;
}

int
phys_sweep_score_file(struct phys_sweep_score *s, const char *path,
    double *out)
{
	struct phys_ist_reader *r = phys_ist_open(path);
	int rc;

	if (!r)
		return -1;
	rc = s->kind == PHYS_SCORE_DIFF ? score_diff(s, r, out) :
	    score_expr(s, r, out);
	phys_ist_close(r);
	return rc;
}

int
phys_sweep_score_runs(struct phys_sweep_score *s,
    const struct phys_sweep_runs *r, const char *dir, FILE *out)
{
	double v = NAN;
	char *path;
	int rc = 0;

	for (size_t i = 0; i < r->n; i++) {
		path = phys_sweep_state_path(dir, r->v[i]);
		if (access(path, F_OK) != 0) {
			phys_warn("run %lld has no state file %s (not run yet, "
			    "or failed)", phys_sweep_run_id(r->v[i]), path);
			rc = 1;
		} else if (phys_sweep_score_file(s, path, &v) < 0) {
			phys_warn("%s", phys_error());
			rc = 1;
		} else {
			json_object_set_new(r->v[i], "score", isfinite(v) ?
			    json_real(v) : json_null());
			phys_sweep_put_run(r->v[i], out);
		}
		free(path);
	}
	return rc;
}
