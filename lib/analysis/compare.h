/*
 * compare.h - several runs of one world (one per engine, say) compared
 * field by field: how far apart they get, when, and which run says what
 * there.
 */
#ifndef PHYS_COMPARE_H
#define PHYS_COMPARE_H

#include <stdbool.h>

#include "introspect.h"

/*
 * Compare the runs o->inputs, named names[k] in the report, at the times
 * of the first (the others' values interpolated there, as diff does),
 * over the fields o->sel chooses (every field without selectors) but the
 * wall-clock ones (real_time, real_time_factor). One line per field on
 * o->out:
 *
 *	{"field":F,"max_abs":D,"max_rel":R,"t":T,"values":{NAME:V,...},
 *	 "first_t":T1}
 *
 * D is the largest spread (highest value less lowest) over the times, T
 * the time of it and values every run's there; R the largest spread over
 * the larger magnitude; T1 the first time the spread exceeds o->tol +
 * o->reltol times that magnitude, or null. A field some runs lack gives
 * {"field":F,"only_in":[NAME,...]}; runs over different times a first
 * line for "t". *differ is set when anything differs. 0, or -1 with
 * phys_error().
 */
int phys_ist_compare(const struct phys_ist_opts *o, const char *const *names,
    bool *differ);

#endif
