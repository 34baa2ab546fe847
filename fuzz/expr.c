/*
 * expr.c - fuzz the expression parser: the input compiled as one NAME=EXPR
 * of phys-introspect derive and evaluated with every name at 1.5.
 */
#include <stdlib.h>

#include "expr.h"
#include "fuzz.h"
#include "derive.h"

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
	double *refs;
	size_t i, n;

	if (phys_ist_def_parse(&d, text, &err) == 0) {
		n = phys_expr_nrefs(d.e);
		refs = malloc((n + 1) * sizeof *refs);
		for (i = 0; i < n; i++)
			refs[i] = 1.5;
		phys_expr_eval(d.e, refs);
		free(refs);
		phys_ist_def_free(&d);
	}
	free(text);
	return 0;
}
