/*
 * units.c - units of fields and derived values.
 *
 * A unit is known by its dimensions, twice the exponent of each of kg, m,
 * rad and s (twice, so that a square root stays whole), and written as
 * text. The angle counts as a dimension of its own, so that a sum of a
 * length and an angle is no unit. A unit made by combining others is
 * written from its dimensions (kg m^2/s^2 is J, m/s^2 stays m/s^2), unless
 * it is that of an operand, whose text it keeps (a sum of torques is N m).
 */
#include "units.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "item.h"

/* Exponents beyond this are no unit anyone means. */
#define MAXEXP 40

static const char *const base_names[PHYS_UNIT_NBASE] = { "kg", "m", "rad",
	"s" };

/* Units with names of their own, and 1 for none, as exponents doubled. */
static const struct {
	const char *name;
	signed char e[PHYS_UNIT_NBASE];
} named[] = {
	{ "N", { 2, 2, 0, -4 } },
	{ "J", { 2, 4, 0, -4 } },
	{ "W", { 2, 4, 0, -6 } },
	{ "1", { 0, 0, 0, 0 } },
};

void
phys_unit_none(struct phys_unit *u)
{
	memset(u, 0, sizeof *u);
}

void
phys_unit_number(struct phys_unit *u)
{
	phys_unit_none(u);
	u->number = true;
}

bool
phys_unit_known(const struct phys_unit *u)
{
	return !u->number && u->text[0] != '\0';
}

static bool
same_dims(const signed char *a, const signed char *b)
{
	return memcmp(a, b, PHYS_UNIT_NBASE) == 0;
}

/* One factor of a written unit, "m", "s^2", "N": its doubled exponents
 * times sign into e; false when it is no unit. */
static bool
parse_factor(const char *s, size_t n, int sign, int *e)
{
	const char *caret = memchr(s, '^', n);
	size_t len = caret ? (size_t)(caret - s) : n, i, k;
	double p = 1;
	char num[16], *end;

	if (caret) {
		if (n - len - 1 == 0 || n - len - 1 >= sizeof num)
			return false;
		memcpy(num, caret + 1, n - len - 1);
		num[n - len - 1] = '\0';
		p = strtod(num, &end);
		if (*end || !isfinite(p) || fabs(2 * p - round(2 * p)) > 1e-9 ||
		    fabs(p) > MAXEXP)
			return false;
	}
	for (i = 0; i < PHYS_UNIT_NBASE; i++)
		if (strlen(base_names[i]) == len &&
		    memcmp(s, base_names[i], len) == 0) {
			e[i] += sign * (int)lround(2 * p);
			return true;
		}
	for (k = 0; k < sizeof named / sizeof named[0]; k++)
		if (strlen(named[k].name) == len &&
		    memcmp(s, named[k].name, len) == 0) {
			for (i = 0; i < PHYS_UNIT_NBASE; i++)
				e[i] += sign * (int)lround(named[k].e[i] * p);
			return true;
		}
	return false;
}

bool
phys_unit_parse(struct phys_unit *u, const char *text)
{
	const char *p = text, *q;
	int e[PHYS_UNIT_NBASE] = { 0 }, sign = 1, i;
	bool ok = true;
	size_t n;

	phys_unit_none(u);
	while (*p == ' ')
		p++;
	n = strlen(p);
	while (n > 0 && p[n - 1] == ' ')
		n--;
	if (n == 0)
		return false;
	snprintf(u->text, sizeof u->text, "%.*s", (int)n, p);
	for (p = u->text; *p && ok;) {
		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p == '/') {
			ok = sign == 1;	/* one '/': what follows divides */
			sign = -1;
			p++;
			continue;
		}
		q = p + strcspn(p, " /");
		ok = parse_factor(p, (size_t)(q - p), sign, e);
		p = q;
	}
	for (i = 0; i < PHYS_UNIT_NBASE && ok; i++) {
		ok = e[i] >= -2 * MAXEXP && e[i] <= 2 * MAXEXP;
		u->e[i] = (signed char)e[i];
	}
	u->dims = ok;
	return ok;
}

/* "m^2", "s^0.5": one base and its doubled exponent d (> 0). */
static void
put_factor(struct phys_buf *b, const char *name, int d)
{
	if (b->len && b->s[b->len - 1] != '/')
		phys_buf_putc(b, ' ');
	phys_buf_puts(b, name);
	if (d % 2)
		phys_buf_printf(b, "^%g", d / 2.0);
	else if (d != 2)
		phys_buf_printf(b, "^%d", d / 2);
}

/* The text of u from its dimensions. */
static void
write_dims(struct phys_unit *u)
{
	struct phys_buf b = { 0 };
	bool den = false;
	size_t k;
	int i;

	for (k = 0; k < sizeof named / sizeof named[0]; k++)
		if (same_dims(u->e, named[k].e)) {
			snprintf(u->text, sizeof u->text, "%s", named[k].name);
			return;
		}
	for (i = 0; i < PHYS_UNIT_NBASE; i++)
		if (u->e[i] > 0)
			put_factor(&b, base_names[i], u->e[i]);
	for (i = 0; i < PHYS_UNIT_NBASE; i++)
		if (u->e[i] < 0) {
			if (!den)
				phys_buf_puts(&b, b.len ? "/" : "1/");
			den = true;
			put_factor(&b, base_names[i], -u->e[i]);
		}
	snprintf(u->text, sizeof u->text, "%s", b.s ? b.s : "");
	phys_buf_free(&b);
}

/* a's dimensions plus sign times b's. */
static bool
add_dims(signed char *a, const signed char *b, int sign)
{
	int i, v;

	for (i = 0; i < PHYS_UNIT_NBASE; i++) {
		v = a[i] + sign * b[i];
		if (v < -2 * MAXEXP || v > 2 * MAXEXP)
			return false;
		a[i] = (signed char)v;
	}
	return true;
}

void
phys_unit_mul(struct phys_unit *a, const struct phys_unit *b, int sign)
{
	static const signed char none[PHYS_UNIT_NBASE];
	struct phys_unit r;

	if (b->number)
		return;
	if (a->number && sign > 0) {
		*a = *b;
		return;
	}
	if (a->number) {
		r = *b;
		memset(r.e, 0, sizeof r.e);
		if (!b->dims || !add_dims(r.e, b->e, -1)) {
			phys_unit_none(a);
			return;
		}
		write_dims(&r);
		*a = r;
		return;
	}
	if (!a->dims || !b->dims) {
		phys_unit_none(a);
		return;
	}
	if (same_dims(b->e, none))	/* m times 1 is still m */
		return;
	if (same_dims(a->e, none) && sign > 0) {
		*a = *b;
		return;
	}
	if (!add_dims(a->e, b->e, sign)) {
		phys_unit_none(a);
		return;
	}
	write_dims(a);
}

void
phys_unit_add(struct phys_unit *a, const struct phys_unit *b)
{
	if (b->number)
		return;
	if (a->number) {
		*a = *b;
		return;
	}
	if (a->dims && b->dims ? same_dims(a->e, b->e) :
	    !a->dims && !b->dims && a->text[0] &&
	    strcmp(a->text, b->text) == 0)
		return;
	phys_unit_none(a);
}

void
phys_unit_pow(struct phys_unit *a, double p)
{
	double v;
	int i;

	if (a->number || p == 1)
		return;
	if (!a->dims || !isfinite(p)) {
		phys_unit_none(a);
		return;
	}
	for (i = 0; i < PHYS_UNIT_NBASE; i++) {
		v = a->e[i] * p;
		if (fabs(v - round(v)) > 1e-9 || fabs(v) > 2 * MAXEXP) {
			phys_unit_none(a);
			return;
		}
		a->e[i] = (signed char)lround(v);
	}
	write_dims(a);
}

void
phys_unit_plain(struct phys_unit *a, bool angle_ok)
{
	int i;

	if (a->number)
		return;
	for (i = 0; a->dims && i < PHYS_UNIT_NBASE; i++)
		if (a->e[i] != 0 && !(angle_ok && i == PHYS_UNIT_RAD))
			break;
	if (!a->dims || i < PHYS_UNIT_NBASE) {
		phys_unit_none(a);
		return;
	}
	phys_unit_parse(a, "1");
}

void
phys_unit_angle(struct phys_unit *a)
{
	static const signed char none[PHYS_UNIT_NBASE];

	if (a->number)
		return;
	if (a->dims && same_dims(a->e, none))
		phys_unit_parse(a, "rad");
	else
		phys_unit_none(a);
}

/* The line's "units" member: {"NAME":"UNIT",...}, or NULL. */
static json_t *
line_units(const struct phys_ist_frame *f)
{
	static const char key[] = "\"units\":";
	const struct phys_ist_top *tp;
	size_t i, n = sizeof key - 1;

	for (i = 0; i < f->ntop; i++) {
		tp = &f->top[i];
		if (tp->kind == IST_TOP_OTHER && tp->len > n &&
		    memcmp(tp->text, key, n) == 0)
			return json_loadb(tp->text + n, tp->len - n, 0, NULL);
	}
	return NULL;
}

void
phys_ist_field_unit(const struct phys_ist_frame *f, const char *name,
    struct phys_unit *u)
{
	const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
	json_t *units = line_units(f), *v;
	char *item;
	const char *text;

	if (dot && slash && dot < slash)
		dot = NULL;
	item = dot ? phys_xstrndup(name, (size_t)(dot - name)) :
	    phys_xstrdup(name);
	v = units ? json_object_get(units, name) : NULL;
	if (!json_is_string(v) && units)
		v = json_object_get(units, item);
	if (json_is_string(v))
		text = json_string_value(v);
	else
		text = phys_item_unit(item, dot ? dot + 1 : NULL);
	if (!text || !phys_unit_parse(u, text)) {
		/* its text alone, or none */
		if (!text || !*text)
			phys_unit_none(u);
	}
	json_decref(units);
	free(item);
}
