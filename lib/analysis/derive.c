/*
 * derive.c - derived fields: NAME=EXPR over the fields of each state line.
 */
#include "derive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NAME[UNIT] before the '=': the unit's extent within [s, e), or 0. */
static int
split_unit(const char *s, const char **e, const char **u, size_t *ulen,
    struct phys_expr_error *err, const char *operand)
{
	const char *open = memchr(s, '[', (size_t)(*e - s));

	*u = NULL;
	if (!open)
		return 0;
	if ((*e)[-1] != ']' || *e - open < 3 ||
	    memchr(open + 1, '[', (size_t)(*e - open - 1)) ||
	    memchr(open + 1, ']', (size_t)(*e - open - 2)) ||
	    memchr(open + 1, '"', (size_t)(*e - open - 2))) {
		err->column = (size_t)(open - operand) + 1;
		snprintf(err->msg, sizeof err->msg, "a unit is written "
		    "NAME[UNIT]=EXPR, as in speed[m/s]=...");
		return -1;
	}
	*u = open + 1;
	*ulen = (size_t)(*e - open - 2);
	*e = open;
	return 0;
}

int
phys_ist_def_parse(struct phys_ist_def *d, const char *operand, struct phys_expr_error *err)
{
	const char *eq = strchr(operand, '='), *s = operand, *e, *u;
	size_t ulen = 0;

	memset(d, 0, sizeof *d);
	if (!eq) {
		err->column = 1;
		snprintf(err->msg, sizeof err->msg, "expected NAME=EXPR");
		return -1;
	}
	while (*s == ' ')
		s++;
	for (e = eq; e > s && e[-1] == ' '; e--)
		;
	if (split_unit(s, &e, &u, &ulen, err, operand) < 0)
		return -1;
	if (!phys_expr_valid_name(s, (size_t)(e - s))) {
		err->column = (size_t)(s - operand) + 1;
		snprintf(err->msg, sizeof err->msg, e == s ? "no name before "
		    "'='" : "'%.*s' is not a name: use letters, digits, '_', "
		    "':', '/' and '.', starting with a letter or '_'",
		    (int)(e - s), s);
		return -1;
	}
	if (!(d->e = phys_expr_compile(eq + 1, err))) {
		err->column += (size_t)(eq + 1 - operand);
		return -1;
	}
	d->name = phys_xstrndup(s, (size_t)(e - s));
	d->unit = u ? phys_xstrndup(u, ulen) : NULL;
	d->text = phys_xstrdup(operand);
	d->exprcol = (size_t)(eq + 1 - operand);
	return 0;
}

void
phys_ist_def_free(struct phys_ist_def *d)
{
	free(d->name);
	free(d->unit);
	free(d->text);
	phys_expr_free(d->e);
	memset(d, 0, sizeof *d);
}

void
phys_ist_deriver_free(struct phys_ist_deriver *d)
{
	size_t i, j;

	if (!d->binds)
		return;
	for (i = 0; i < d->ndefs; i++) {
		for (j = 0; d->binds[i] && j < phys_expr_nrefs(d->defs[i].e); j++)
			free(d->binds[i][j].col.name);
		free(d->binds[i]);
		free(d->args[i]);
	}
	free(d->binds);
	free(d->args);
	free(d->val);
	free(d->units);
	free(d->warned);
	memset(d, 0, sizeof *d);
}

static int
bind_fail(const struct phys_ist_frame *f, const char *file, size_t k,
    const struct phys_ist_def *d, size_t r, int why)
{
	const char *name = phys_expr_ref_name(d->e, r);
	size_t column = d->exprcol + phys_expr_ref_column(d->e, r);
	char *hint;

	if (why == -2)
		return phys_failat(file, f->line, "'%s' in expression %zu, "
		    "column %zu, is not a number: name one of its fields, "
		    "as in '%s.x'", name, k + 1, column, name);
	hint = phys_ist_suggest(f, name);
	if (!*hint && strchr(name, '/')) {
		free(hint);
		hint = phys_xstrdup(" (to divide, put blanks around '/')");
	}
	phys_failat(file, f->line, "no field '%s' for expression %zu, "
	    "column %zu%s", name, k + 1, column, hint);
	free(hint);
	return -1;
}

/* The unit of definition i: the one written, or its expression's. */
static void
bind_unit(struct phys_ist_deriver *d, size_t i, const struct phys_ist_frame *f)
{
	const struct phys_ist_def *def = &d->defs[i];
	size_t j, n = phys_expr_nrefs(def->e);
	struct phys_unit *refs;

	if (def->unit) {
		phys_unit_parse(&d->units[i], def->unit);
		return;
	}
	refs = phys_xcalloc(n + 1, sizeof *refs);
	for (j = 0; j < n; j++) {
		const struct phys_ist_bind *b = &d->binds[i][j];

		switch (b->kind) {
		case IST_B_FIELD:
			phys_ist_field_unit(f, b->col.name, &refs[j]);
			break;
		case IST_B_DERIVED:
			refs[j] = d->units[b->derived];
			break;
		case IST_B_TIME:
			phys_unit_parse(&refs[j], "s");
			break;
		case IST_B_PI:
			phys_unit_number(&refs[j]);
			break;
		}
	}
	phys_expr_unit(def->e, refs, &d->units[i]);
	free(refs);
}

/* Names resolve to earlier definitions, then fields, then t and pi. */
int
phys_ist_deriver_bind(struct phys_ist_deriver *d, const struct phys_ist_def *defs, size_t ndefs,
    const struct phys_ist_frame *f, const char *file)
{
	size_t i, j, k, n;
	struct phys_ist_bind *b;
	const char *name;
	int rc;

	phys_ist_deriver_free(d);
	d->defs = defs;
	d->ndefs = ndefs;
	d->binds = phys_xcalloc(ndefs, sizeof *d->binds);
	d->args = phys_xcalloc(ndefs, sizeof *d->args);
	d->val = phys_xcalloc(ndefs, sizeof *d->val);
	d->units = phys_xcalloc(ndefs, sizeof *d->units);
	d->warned = phys_xcalloc(ndefs, sizeof *d->warned);
	for (i = 0; i < ndefs; i++) {
		n = phys_expr_nrefs(defs[i].e);
		d->binds[i] = phys_xcalloc(n, sizeof *d->binds[i]);
		d->args[i] = phys_xcalloc(n, sizeof *d->args[i]);
		for (j = 0; j < n; j++) {
			b = &d->binds[i][j];
			name = phys_expr_ref_name(defs[i].e, j);
			for (k = i; k-- > 0;)
				if (strcmp(defs[k].name, name) == 0)
					break;
			if (k != (size_t)-1) {
				b->kind = IST_B_DERIVED;
				b->derived = k;
			} else if ((rc = phys_ist_col_resolve(&b->col, f, name)) == 0) {
				b->kind = IST_B_FIELD;
			} else if (strcmp(name, "t") == 0) {
				b->kind = IST_B_TIME;
			} else if (strcmp(name, "pi") == 0) {
				b->kind = IST_B_PI;
			} else {
				return bind_fail(f, file, i, &defs[i], j, rc);
			}
		}
		bind_unit(d, i, f);
	}
	return 0;
}

int
phys_ist_deriver_run(struct phys_ist_deriver *d, struct phys_ist_frame *f, const char *file)
{
	struct phys_ist_field *fl;
	struct phys_ist_bind *b;
	size_t i, j, n;

	for (i = 0; i < d->ndefs; i++) {
		n = phys_expr_nrefs(d->defs[i].e);
		for (j = 0; j < n; j++) {
			b = &d->binds[i][j];
			switch (b->kind) {
			case IST_B_FIELD:
				if (!(fl = phys_ist_col_find(&b->col, f)))
					return phys_failat(file, f->line,
					    "no field '%s'", b->col.name);
				d->args[i][j] = phys_ist_value(fl);
				break;
			case IST_B_DERIVED:
				d->args[i][j] = d->val[b->derived];
				break;
			case IST_B_TIME:
				d->args[i][j] = f->t;
				break;
			case IST_B_PI:
				d->args[i][j] = M_PI;
				break;
			}
		}
		d->val[i] = phys_expr_eval(d->defs[i].e, d->args[i]);
		if (!isfinite(d->val[i]) && !d->warned[i]) {
			d->warned[i] = true;
			phys_warnat(file, f->line, "%s is not a finite number; "
			    "written as %s", d->defs[i].name, "null or an "
			    "empty cell");
		}
	}
	return 0;
}

