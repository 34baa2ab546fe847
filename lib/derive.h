/*
 * derive.h - derived fields: NAME=EXPR over the fields of each state line.
 */
#ifndef PHYS_DERIVE_H
#define PHYS_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"
#include "select.h"

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

enum ist_bind_kind { IST_B_FIELD, IST_B_DERIVED, IST_B_TIME, IST_B_PI };

struct ist_bind {
	enum ist_bind_kind kind;
	size_t derived;		/* IST_B_DERIVED: which definition */
	struct ist_col col;	/* IST_B_FIELD */
};

/* How each definition gets the values of the names it uses. */
struct ist_deriver {
	const struct ist_def *defs;
	size_t ndefs;
	struct ist_bind **binds;
	double **args;
	double *val;		/* the values of the last line */
	bool *warned;
};

/* Names resolve to earlier definitions, then fields of f, then t and pi. */
int ist_deriver_bind(struct ist_deriver *d, const struct ist_def *defs,
    size_t ndefs, const struct ist_frame *f, const char *file);
/* d->val for the line f. */
int ist_deriver_run(struct ist_deriver *d, struct ist_frame *f,
    const char *file);
void ist_deriver_free(struct ist_deriver *d);

#endif
