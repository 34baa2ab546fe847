/*
 * inertia.c - fuzz inertia lines: each line parsed, decomposed, judged,
 * turned into its equivalent box and scaled, as phys-inertia does.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "inertia.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

static void
one_line(const char *line)
{
	struct phys_inertia_verdict v;
	phys_inertia in, out;
	phys_vec3 size;
	double mo[3];
	phys_mat3 R;

	if (phys_inertia_parse_json(line, strlen(line), &in) < 0)
		return;
	phys_inertia_principal(in.I, mo, &R);
	phys_inertia_validate(&in, &v);
	phys_inertia_box_equivalent(&in, &size, &R);
	phys_inertia_scale(&in, v3(2, 0.5, 3), 7, &out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *line, *next;

	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		one_line(line);
	}
	free(text);
	return 0;
}
