/*
 * units.h - units of state line fields and of values derived from them:
 * read from text ("m/s^2", "N m"), combined as an expression combines its
 * values (m over s is m/s; a sum of metres is metres), written as text.
 */
#ifndef PHYS_UNITS_H
#define PHYS_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "statein.h"

/* The base units a unit is made of, in the order they are written. */
enum { PHYS_UNIT_KG, PHYS_UNIT_M, PHYS_UNIT_RAD, PHYS_UNIT_S, PHYS_UNIT_NBASE };

#define PHYS_UNIT_TEXT 48

struct phys_unit {
	bool dims;		/* e[] holds its dimensions */
	bool number;		/* a bare number: it takes the unit beside it */
	signed char e[PHYS_UNIT_NBASE];	/* twice each base's exponent */
	char text[PHYS_UNIT_TEXT];	/* as written; "" for no unit */
};

/* No unit known. */
void phys_unit_none(struct phys_unit *u);
/* A bare number, as 2 or pi. */
void phys_unit_number(struct phys_unit *u);
/* text as written ("m/s", "kg m^2", "N", "1"): its dimensions too when
 * they are known ("deg" keeps only its text). false for "" or text that
 * cannot be a unit ("rad or m"). */
bool phys_unit_parse(struct phys_unit *u, const char *text);
/* Whether u names a unit to show. */
bool phys_unit_known(const struct phys_unit *u);

/* The operations of an expression on the units of its operands. */
void phys_unit_mul(struct phys_unit *a, const struct phys_unit *b, int sign);
void phys_unit_add(struct phys_unit *a, const struct phys_unit *b);
/* a to the power p (twice p must be a whole number, else no unit). */
void phys_unit_pow(struct phys_unit *a, double p);
/* sin, exp...: of a plain number or an angle, a plain number. */
void phys_unit_plain(struct phys_unit *a, bool angle_ok);
/* asin, atan...: of a plain number, an angle. */
void phys_unit_angle(struct phys_unit *a);

/* The unit of a field (ITEM or ITEM.FIELD) of a run whose line is f: the
 * line's own "units" member first (derived values carry theirs), then
 * the item table (box::link/pose.z is in m). */
void phys_ist_field_unit(const struct phys_ist_frame *f, const char *name,
    struct phys_unit *u);

#endif
