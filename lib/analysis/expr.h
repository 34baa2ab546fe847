/*
 * expr.h - small arithmetic expressions over named values, compiled once
 * and evaluated per state line (phys-introspect derive).
 *
 * Grammar, loosest binding first:
 *	expr	= sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
 *					(1 or 0; NaN when a side is)
 *	sum	= term { ("+" | "-") term }
 *	term	= unary { ("*" | "/") unary }
 *	unary	= ("-" | "+") unary | power
 *	power	= primary [ "^" unary ]		(right associative)
 *	primary	= number | name | name "(" expr { "," expr } ")" | "(" expr ")"
 *
 * A name is a run of letters, digits, '_', ':' and '.', starting with a
 * letter or '_'. A '/' continues a name when the next character is a letter
 * or '_' ("box::link/pose.x"); otherwise it divides ("a.x/2", "a.x / b.y").
 * A name may also be written in double quotes ("my-robot::link/pose.z").
 * The expression only lists the names it uses; the caller gives their
 * values, in that order, to phys_expr_eval().
 */
#ifndef PHYS_EXPR_H
#define PHYS_EXPR_H

#include <stdbool.h>
#include <stddef.h>

struct expr;

struct phys_expr_error {
	size_t column;		/* 1-based byte column in the text compiled */
	char msg[256];
};

/* NULL with err filled in when text is not a valid expression. */
struct expr *phys_expr_compile(const char *text, struct phys_expr_error *err);
/* Where in text err is, as two lines appended to b: the text (control
 * characters as blanks) and a caret under err's column, each after two
 * blanks. */
struct phys_buf;
void phys_expr_error_mark(struct phys_buf *b, const char *text,
    const struct phys_expr_error *err);
void phys_expr_free(struct expr *e);

/* Names used, in order of first use. */
size_t phys_expr_nrefs(const struct expr *e);
const char *phys_expr_ref_name(const struct expr *e, size_t i);
size_t phys_expr_ref_column(const struct expr *e, size_t i);

/* Value for the given name values; may be NaN or infinite. */
double phys_expr_eval(struct expr *e, const double *refs);

struct phys_unit;
/* The unit of the value from the units of the names (refs, in the order
 * of phys_expr_ref_name): m over s is m/s, a sum of metres metres; no
 * unit where the expression does not determine one. */
void phys_expr_unit(const struct expr *e, const struct phys_unit *refs,
    struct phys_unit *out);

/* True when s is a valid name (the left side of NAME=EXPR). */
bool phys_expr_valid_name(const char *s, size_t len);

#endif
