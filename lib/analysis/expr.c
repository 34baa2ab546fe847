/* expr.c - compile arithmetic expressions to postfix code and run it. */
#include "expr.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "units.h"

enum op {
	OP_NUM,			/* push num */
	OP_REF,			/* push refs[arg] */
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_POW,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,	/* 1 or 0 */
	OP_CALL			/* funcs[arg] on the top nargs values */
};

struct insn {
	enum op op;
	int arg, nargs;
	double num;
};

struct ref {
	char *name;
	size_t column;
};

struct expr {
	struct insn *code;
	size_t ncode, capcode;
	struct ref *refs;
	size_t nrefs;
	double *stack;
	int depth, maxdepth;	/* while compiling: stack use */
};

typedef double funcimpl(const double *a, int n);

static funcimpl f_abs, f_acos, f_asin, f_atan, f_atan2, f_cos, f_exp, f_hypot,
    f_log, f_max, f_min, f_pow, f_sin, f_sqrt, f_tan;

struct func {
	const char *name;
	int minargs, maxargs;
	funcimpl *fn;
};

/* max() and min() take any number of arguments from two on. */
#define VARIADIC INT_MAX

static const struct func funcs[] = {
	{ "abs", 1, 1, f_abs }, { "acos", 1, 1, f_acos },
	{ "asin", 1, 1, f_asin }, { "atan", 1, 1, f_atan },
	{ "atan2", 2, 2, f_atan2 }, { "cos", 1, 1, f_cos },
	{ "exp", 1, 1, f_exp }, { "hypot", 2, 3, f_hypot },
	{ "log", 1, 1, f_log }, { "max", 2, VARIADIC, f_max },
	{ "min", 2, VARIADIC, f_min }, { "pow", 2, 2, f_pow },
	{ "sin", 1, 1, f_sin }, { "sqrt", 1, 1, f_sqrt },
	{ "tan", 1, 1, f_tan },
};
#define NFUNCS (sizeof funcs / sizeof funcs[0])

/*
 * Every recursion of the parser passes through parse_unary(): parentheses,
 * call arguments, signs and the right side of '^'. Nesting deeper than
 * this is refused there rather than recursed into, so no input can
 * exhaust the stack.
 */
#define MAXNEST 200

struct parser {
	const char *text, *p;
	struct expr *e;
	struct phys_expr_error *err;
	int nest;
	bool failed;
};

static void parse_expr(struct parser *ps);

static void
fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = true;
	ps->err->column = (size_t)(at - ps->text) + 1;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
	va_end(ap);
}

static void
emit(struct parser *ps, enum op op, int arg, int nargs, double num)
{
	struct expr *e = ps->e;

	if (e->ncode == e->capcode) {
		e->capcode = e->capcode ? 2 * e->capcode : 16;
		e->code = phys_xrealloc(e->code, e->capcode * sizeof *e->code);
	}
	e->code[e->ncode++] = (struct insn){ op, arg, nargs, num };
	if (op == OP_NUM || op == OP_REF)
		e->depth++;
	else if (op == OP_CALL)
		e->depth -= nargs - 1;
	else if (op != OP_NEG)
		e->depth--;
	if (e->depth > e->maxdepth)
		e->maxdepth = e->depth;
}

static void
skip_blanks(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	    *ps->p == '\r')
		ps->p++;
}

static bool
name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == ':' ||
	    c == '.';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* End of the name starting at s; see the rule about '/' in expr.h. */
static const char *
name_end(const char *s)
{
	for (;;) {
		if (name_char(*s))
			s++;
		else if (*s == '/' && name_start(s[1]))
			s++;
		else
			return s;
	}
}

bool
phys_expr_valid_name(const char *s, size_t len)
{
	return len > 0 && name_start(*s) && (size_t)(name_end(s) - s) >= len;
}

static int
ref_index(struct parser *ps, const char *name, size_t len, const char *at)
{
	struct expr *e = ps->e;
	size_t i;

	for (i = 0; i < e->nrefs; i++)
		if (strlen(e->refs[i].name) == len &&
		    memcmp(e->refs[i].name, name, len) == 0)
			return (int)i;
	e->refs = phys_xrealloc(e->refs, (e->nrefs + 1) * sizeof *e->refs);
	e->refs[e->nrefs].name = phys_xstrndup(name, len);
	e->refs[e->nrefs].column = (size_t)(at - ps->text) + 1;
	return (int)e->nrefs++;
}

static int
find_func(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NFUNCS; i++)
		if (strlen(funcs[i].name) == len &&
		    memcmp(funcs[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

static void
unknown_func(struct parser *ps, const char *name, size_t len)
{
	char *s = phys_xstrndup(name, len);
	size_t i, d, best = (size_t)-1, bi = 0;

	for (i = 0; i < NFUNCS; i++) {
		d = phys_edit_distance(s, funcs[i].name);
		if (d < best) {
			best = d;
			bi = i;
		}
	}
	if (best <= 2)
		fail(ps, name, "unknown function '%s' (did you mean '%s'?)",
		    s, funcs[bi].name);
	else
		fail(ps, name, "unknown function '%s'", s);
	free(s);
}

static void
parse_call(struct parser *ps, const char *name, size_t len)
{
	int f = find_func(name, len), nargs = 0;

	if (f < 0) {
		unknown_func(ps, name, len);
		return;
	}
	ps->p++;		/* '(' */
	skip_blanks(ps);
	if (*ps->p != ')') {
		for (;;) {
			parse_expr(ps);
			if (ps->failed)
				return;
			nargs++;
			skip_blanks(ps);
			if (*ps->p != ',')
				break;
			ps->p++;
		}
	}
	if (*ps->p != ')') {
		fail(ps, ps->p, *ps->p ? "expected ',' or ')' here" :
		    "missing ')'");
		return;
	}
	ps->p++;
	if (nargs < funcs[f].minargs || nargs > funcs[f].maxargs) {
		if (funcs[f].maxargs == VARIADIC)
			fail(ps, name, "%s takes at least %d arguments",
			    funcs[f].name, funcs[f].minargs);
		else if (funcs[f].minargs == funcs[f].maxargs)
			fail(ps, name, "%s takes %d argument%s", funcs[f].name,
			    funcs[f].minargs, funcs[f].minargs == 1 ? "" : "s");
		else
			fail(ps, name, "%s takes %d or %d arguments",
			    funcs[f].name, funcs[f].minargs, funcs[f].maxargs);
		return;
	}
	emit(ps, OP_CALL, f, nargs, 0);
}

static void
parse_number(struct parser *ps)
{
	const char *s = ps->p, *q = s;
	char *tmp;
	double v;

	while (is_digit(*q))
		q++;
	if (*q == '.')
		for (q++; is_digit(*q); q++)
			;
	if (q == s + 1 && *s == '.') {
		fail(ps, s, "unexpected '.'");
		return;
	}
	if ((*q == 'e' || *q == 'E') && (is_digit(q[1]) ||
	    ((q[1] == '+' || q[1] == '-') && is_digit(q[2])))) {
		q += 2;
		while (is_digit(*q))
			q++;
	}
	tmp = phys_xstrndup(s, (size_t)(q - s));
	if (!phys_parse_double(tmp, &v)) {
		fail(ps, s, "number '%s' is out of range", tmp);
		free(tmp);
		return;
	}
	free(tmp);
	ps->p = q;
	emit(ps, OP_NUM, 0, 0, v);
}

static void
parse_quoted(struct parser *ps)
{
	const char *s = ps->p + 1, *q = strchr(s, '"');

	if (!q) {
		fail(ps, ps->p, "unterminated quoted name");
		return;
	}
	if (q == s) {
		fail(ps, ps->p, "empty quoted name");
		return;
	}
	emit(ps, OP_REF, ref_index(ps, s, (size_t)(q - s), ps->p), 0, 0);
	ps->p = q + 1;
}

static void
parse_primary(struct parser *ps)
{
	const char *s;

	skip_blanks(ps);
	s = ps->p;
	if (is_digit(*s) || *s == '.') {
		parse_number(ps);
	} else if (*s == '"') {
		parse_quoted(ps);
	} else if (name_start(*s)) {
		ps->p = name_end(s);
		skip_blanks(ps);
		if (*ps->p == '(')
			parse_call(ps, s, (size_t)(name_end(s) - s));
		else
			emit(ps, OP_REF, ref_index(ps, s,
			    (size_t)(name_end(s) - s), s), 0, 0);
	} else if (*s == '(') {
		ps->p++;
		parse_expr(ps);
		skip_blanks(ps);
		if (ps->failed)
			return;
		if (*ps->p != ')') {
			fail(ps, ps->p, *ps->p ? "expected ')' here" :
			    "missing ')'");
			return;
		}
		ps->p++;
	} else if (*s == '\0') {
		fail(ps, s, "expression ends too soon");
	} else {
		fail(ps, s, "unexpected '%c'", *s);
	}
}

static void parse_unary(struct parser *ps);

static void
parse_power(struct parser *ps)
{
	parse_primary(ps);
	if (ps->failed)
		return;
	skip_blanks(ps);
	if (*ps->p == '^') {
		ps->p++;
		parse_unary(ps);	/* right associative; allows 2^-1 */
		emit(ps, OP_POW, 0, 0, 0);
	}
}

static void
parse_signed(struct parser *ps)
{
	bool neg;

	skip_blanks(ps);
	if (*ps->p != '-' && *ps->p != '+') {
		parse_power(ps);
		return;
	}
	neg = *ps->p == '-';
	ps->p++;
	parse_unary(ps);
	if (neg && !ps->failed)
		emit(ps, OP_NEG, 0, 0, 0);
}

static void
parse_unary(struct parser *ps)
{
	skip_blanks(ps);
	if (++ps->nest > MAXNEST) {
		fail(ps, ps->p, "expression nested too deeply");
		return;
	}
	parse_signed(ps);
	ps->nest--;
}

static void
parse_term(struct parser *ps)
{
	char c;

	parse_unary(ps);
	while (!ps->failed) {
		skip_blanks(ps);
		c = *ps->p;
		if (c != '*' && c != '/')
			return;
		ps->p++;
		parse_unary(ps);
		emit(ps, c == '*' ? OP_MUL : OP_DIV, 0, 0, 0);
	}
}

static void
parse_sum(struct parser *ps)
{
	char c;

	parse_term(ps);
	while (!ps->failed) {
		skip_blanks(ps);
		c = *ps->p;
		if (c != '+' && c != '-')
			return;
		ps->p++;
		parse_term(ps);
		emit(ps, c == '+' ? OP_ADD : OP_SUB, 0, 0, 0);
	}
}

/* The comparison written at p, with its length; -1 for none. */
static int
comparison(const char *p, int *len)
{
	static const struct {
		const char *text;
		enum op op;
	} ops[] = {
		{ "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ }, { "!=", OP_NE },
		{ "<", OP_LT }, { ">", OP_GT }
	};
	size_t i;

	for (i = 0; i < sizeof ops / sizeof *ops; i++)
		if (strncmp(p, ops[i].text, strlen(ops[i].text)) == 0) {
			*len = (int)strlen(ops[i].text);
			return (int)ops[i].op;
		}
	return -1;
}

/* One comparison at most: "a < b < c" is refused, not read as C would. */
static void
parse_expr(struct parser *ps)
{
	int op, len;

	parse_sum(ps);
	if (ps->failed)
		return;
	skip_blanks(ps);
	if ((op = comparison(ps->p, &len)) < 0)
		return;
	ps->p += len;
	parse_sum(ps);
	emit(ps, (enum op)op, 0, 0, 0);
	skip_blanks(ps);
	if (!ps->failed && comparison(ps->p, &len) >= 0)
		fail(ps, ps->p, "one comparison at most (use parentheses)");
}

struct expr *
phys_expr_compile(const char *text, struct phys_expr_error *err)
{
	struct parser ps = { text, text, NULL, err, 0, false };

	ps.e = phys_xcalloc(1, sizeof *ps.e);
	parse_expr(&ps);
	if (!ps.failed && *ps.p != '\0') {
		if (name_start(*ps.p) || is_digit(*ps.p) || *ps.p == '"' ||
		    *ps.p == '(')
			fail(&ps, ps.p, "expected an operator here");
		else if (*ps.p == ')')
			fail(&ps, ps.p, "unmatched ')'");
		else
			fail(&ps, ps.p, "unexpected '%c'", *ps.p);
	}
	if (ps.failed) {
		phys_expr_free(ps.e);
		return NULL;
	}
	ps.e->stack = phys_xmalloc((size_t)(ps.e->maxdepth + 1) *
	    sizeof *ps.e->stack);
	return ps.e;
}

void
phys_expr_error_mark(struct phys_buf *b, const char *text,
    const struct phys_expr_error *err)
{
	const char *p;
	size_t i;

	phys_buf_puts(b, "  ");
	for (p = text; *p; p++)
		phys_buf_putc(b, (unsigned char)*p < ' ' ? ' ' : *p);
	phys_buf_puts(b, "\n  ");
	for (i = 1; i < err->column; i++)
		phys_buf_putc(b, ' ');
	phys_buf_puts(b, "^\n");
}

void
phys_expr_free(struct expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nrefs; i++)
		free(e->refs[i].name);
	free(e->refs);
	free(e->code);
	free(e->stack);
	free(e);
}

size_t
phys_expr_nrefs(const struct expr *e)
{
	return e->nrefs;
}

const char *
phys_expr_ref_name(const struct expr *e, size_t i)
{
	return e->refs[i].name;
}

size_t
phys_expr_ref_column(const struct expr *e, size_t i)
{
	return e->refs[i].column;
}

static double f_abs(const double *a, int n) { return fabs(a[0]); }
static double f_acos(const double *a, int n) { return acos(a[0]); }
static double f_asin(const double *a, int n) { return asin(a[0]); }
static double f_atan(const double *a, int n) { return atan(a[0]); }
static double f_atan2(const double *a, int n) { return atan2(a[0], a[1]); }
static double f_cos(const double *a, int n) { return cos(a[0]); }
static double f_exp(const double *a, int n) { return exp(a[0]); }
static double f_log(const double *a, int n) { return log(a[0]); }
static double f_pow(const double *a, int n) { return pow(a[0], a[1]); }
static double f_sin(const double *a, int n) { return sin(a[0]); }
static double f_sqrt(const double *a, int n) { return sqrt(a[0]); }
static double f_tan(const double *a, int n) { return tan(a[0]); }

/* Three arguments: the length of a vector, without overflow. */
static double
f_hypot(const double *a, int n)
{
	return n == 2 ? hypot(a[0], a[1]) : hypot(hypot(a[0], a[1]), a[2]);
}

static double
f_max(const double *a, int n)
{
	double v = a[0];
	int i;

	for (i = 1; i < n; i++)
		if (a[i] > v || isnan(a[i]))
			v = a[i];
	return v;
}

static double
f_min(const double *a, int n)
{
	double v = a[0];
	int i;

	for (i = 1; i < n; i++)
		if (a[i] < v || isnan(a[i]))
			v = a[i];
	return v;
}

/* A comparison's value: 1 or 0, NaN when either side is (a missing value
 * is not a pass). */
static double
compare(enum op op, double a, double b)
{
	if (isnan(a) || isnan(b))
		return NAN;
	switch (op) {
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_EQ: return a == b;
	default: return a != b;
	}
}

double
phys_expr_eval(struct expr *e, const double *refs)
{
	double *st = e->stack;
	const struct insn *c, *end = e->code + e->ncode;
	int sp = 0;

	for (c = e->code; c < end; c++) {
		switch (c->op) {
		case OP_NUM:
			st[sp++] = c->num;
			break;
		case OP_REF:
			st[sp++] = refs[c->arg];
			break;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		case OP_ADD:
			sp--;
			st[sp - 1] += st[sp];
			break;
		case OP_SUB:
			sp--;
			st[sp - 1] -= st[sp];
			break;
		case OP_MUL:
			sp--;
			st[sp - 1] *= st[sp];
			break;
		case OP_DIV:
			sp--;
			st[sp - 1] /= st[sp];
			break;
		case OP_POW:
			sp--;
			st[sp - 1] = pow(st[sp - 1], st[sp]);
			break;
		case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ:
		case OP_NE:
			sp--;
			st[sp - 1] = compare(c->op, st[sp - 1], st[sp]);
			break;
		case OP_CALL:
			sp -= c->nargs;
			st[sp] = funcs[c->arg].fn(st + sp, c->nargs);
			sp++;
			break;
		}
	}
	return sp == 1 ? st[0] : NAN;
}

/* ---- units ----------------------------------------------------------- */

/* What a function makes of the units of its arguments a[0..n). */
static void
call_unit(const char *fn, struct phys_unit *a, const double *val,
    const bool *isconst, int n)
{
	int i;

	if (strcmp(fn, "sin") == 0 || strcmp(fn, "cos") == 0 ||
	    strcmp(fn, "tan") == 0) {
		phys_unit_plain(a, true);
	} else if (strcmp(fn, "exp") == 0 || strcmp(fn, "log") == 0) {
		phys_unit_plain(a, false);
	} else if (strcmp(fn, "asin") == 0 || strcmp(fn, "acos") == 0 ||
	    strcmp(fn, "atan") == 0) {
		phys_unit_plain(a, false);
		phys_unit_angle(a);
	} else if (strcmp(fn, "atan2") == 0) {
		phys_unit_add(a, &a[1]);
		if (!a->number && phys_unit_known(a))
			phys_unit_parse(a, "rad");
	} else if (strcmp(fn, "sqrt") == 0) {
		phys_unit_pow(a, 0.5);
	} else if (strcmp(fn, "pow") == 0) {
		if (isconst[1])
			phys_unit_pow(a, val[1]);
		else if (!a->number || !a[1].number)
			phys_unit_none(a);
	} else if (strcmp(fn, "abs") != 0) {
		/* hypot, max, min: of values of one unit, that unit */
		for (i = 1; i < n; i++)
			phys_unit_add(a, &a[i]);
	}
}

/*
 * The unit of e's value from those of its names: the code run on units
 * instead of numbers. Numbers written in it take the unit beside them;
 * an exponent must be one (a constant). A bare number is no unit.
 */
void
phys_expr_unit(const struct expr *e, const struct phys_unit *refs,
    struct phys_unit *out)
{
	size_t n = (size_t)e->maxdepth + 1;
	struct phys_unit *st = phys_xcalloc(n, sizeof *st);
	double *val = phys_xcalloc(n, sizeof *val);
	bool *isconst = phys_xcalloc(n, sizeof *isconst);
	const struct insn *c, *end = e->code + e->ncode;
	int sp = 0, i;
	bool all;

	for (c = e->code; c < end; c++) {
		switch (c->op) {
		case OP_NUM:
			phys_unit_number(&st[sp]);
			val[sp] = c->num;
			isconst[sp++] = true;
			continue;
		case OP_REF:
			st[sp] = refs[c->arg];
			isconst[sp++] = false;
			continue;
		case OP_NEG:
			val[sp - 1] = -val[sp - 1];
			continue;
		case OP_CALL:
			sp -= c->nargs;
			call_unit(funcs[c->arg].name, &st[sp], &val[sp],
			    &isconst[sp], c->nargs);
			for (all = true, i = 0; i < c->nargs; i++)
				all = all && isconst[sp + i];
			val[sp] = funcs[c->arg].fn(&val[sp], c->nargs);
			isconst[sp++] = all;
			continue;
		default:
			break;
		}
		sp--;
		if (c->op >= OP_LT && c->op <= OP_NE) {
			/* a truth, 1 or 0: no unit */
			phys_unit_number(&st[sp - 1]);
			val[sp - 1] = compare(c->op, val[sp - 1], val[sp]);
			isconst[sp - 1] = isconst[sp - 1] && isconst[sp];
			continue;
		}
		if (c->op == OP_ADD || c->op == OP_SUB)
			phys_unit_add(&st[sp - 1], &st[sp]);
		else if (c->op == OP_MUL || c->op == OP_DIV)
			phys_unit_mul(&st[sp - 1], &st[sp], c->op == OP_MUL ? 1 :
			    -1);
		else if (isconst[sp])
			phys_unit_pow(&st[sp - 1], val[sp]);
		else if (!st[sp - 1].number || !st[sp].number)
			phys_unit_none(&st[sp - 1]);
		val[sp - 1] = c->op == OP_ADD ? val[sp - 1] + val[sp] :
		    c->op == OP_SUB ? val[sp - 1] - val[sp] :
		    c->op == OP_MUL ? val[sp - 1] * val[sp] :
		    c->op == OP_DIV ? val[sp - 1] / val[sp] :
		    pow(val[sp - 1], val[sp]);
		isconst[sp - 1] = isconst[sp - 1] && isconst[sp];
	}
	*out = st[0];
	if (out->number)
		phys_unit_none(out);
	free(st);
	free(val);
	free(isconst);
}
