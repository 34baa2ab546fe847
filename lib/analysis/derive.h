/*
 * derive.h - derived fields: NAME=EXPR over the fields of each state line.
 */
#ifndef PHYS_DERIVE_H
#define PHYS_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"
#include "select.h"
#include "units.h"

struct phys_ist_def {
	char *name;
	char *unit;		/* NAME[UNIT]=EXPR: as written, or NULL */
	char *text;		/* the whole NAME=EXPR, for messages */
	size_t exprcol;		/* column of EXPR within text, 0-based */
	struct expr *e;
};
/* -1 with err->column counted in the whole operand. */
int phys_ist_def_parse(struct phys_ist_def *d, const char *operand,
    struct phys_expr_error *err);
void phys_ist_def_free(struct phys_ist_def *d);

enum phys_ist_bind_kind { IST_B_FIELD, IST_B_DERIVED, IST_B_TIME, IST_B_PI };

struct phys_ist_bind {
	enum phys_ist_bind_kind kind;
	size_t derived;		/* IST_B_DERIVED: which definition */
	struct phys_ist_col col;	/* IST_B_FIELD */
};

/* How each definition gets the values of the names it uses. */
struct phys_ist_deriver {
	const struct phys_ist_def *defs;
	size_t ndefs;
	struct phys_ist_bind **binds;
	double **args;
	double *val;		/* the values of the last line */
	struct phys_unit *units;	/* per definition: written, or derived */
	bool *warned;
};

/* Names resolve to earlier definitions, then fields of f, then t and pi;
 * each definition's unit is the one written, or the one its expression
 * gives the units of its names. */
int phys_ist_deriver_bind(struct phys_ist_deriver *d, const struct phys_ist_def *defs,
    size_t ndefs, const struct phys_ist_frame *f, const char *file);
/* d->val for the line f. */
int phys_ist_deriver_run(struct phys_ist_deriver *d, struct phys_ist_frame *f,
    const char *file);
void phys_ist_deriver_free(struct phys_ist_deriver *d);

#endif
