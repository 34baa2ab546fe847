/*
 * expr.c - fuzz the expression parser: the input compiled as one NAME=EXPR
 * (or NAME[UNIT]=EXPR) of phys-introspect derive, evaluated with every name
 * at 1.5, and its unit found from names of several units.
 */
#include <stdlib.h>

#include "expr.h"
#include "fuzz.h"
#include "derive.h"
#include "units.h"

static const char *const unit_texts[] = { "m", "m/s", "rad", "kg m^2",
	"N m", "s^-1.5", "", "1" };
#define NUNITS (sizeof unit_texts / sizeof unit_texts[0])

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct phys_expr_error err;
	struct phys_ist_def d;
	struct phys_unit *units, u;
	double *refs;
	size_t i, n;

	if (phys_ist_def_parse(&d, text, &err) == 0) {
		n = phys_expr_nrefs(d.e);
		refs = malloc((n + 1) * sizeof *refs);
		units = malloc((n + 1) * sizeof *units);
		for (i = 0; i < n; i++) {
			refs[i] = 1.5;
			if (i % (NUNITS + 1) == NUNITS)
				phys_unit_number(&units[i]);
			else
				phys_unit_parse(&units[i],
				    unit_texts[i % (NUNITS + 1)]);
		}
		phys_expr_eval(d.e, refs);
		phys_expr_unit(d.e, units, &u);
		if (d.unit)
			phys_unit_parse(&u, d.unit);
		free(refs);
		free(units);
		phys_ist_def_free(&d);
	}
	free(text);
	return 0;
}
