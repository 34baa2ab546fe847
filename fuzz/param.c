/*
 * param.c - fuzz parameter lines as phys-param set --from reads them: each
 * line's name resolved in a small world, its value parsed, checked and
 * written into the SDF, which is rendered back; after a first line
 * "#mjcf", into a small MuJoCo model, in MJCF's terms.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "paramio.h"
#include "ref.h"
#include "sdfedit.h"
#include "small_world.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

static void
set_line(struct phys_scene *w, const char *line)
{
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
	json_t *name = json_object_get(obj, "name");
	struct phys_buf text = { 0 };
	struct phys_value v;
	struct phys_ref r;

	if (json_is_string(name) &&
	    phys_json_to_text(json_object_get(obj, "value"), &text) == 0 &&
	    phys_ref_resolve(w, json_string_value(name), w->start, &r) == 0 &&
	    phys_value_parse(r.p, text.s ? text.s : "", &v) == 0) {
		phys_world_edit(w, &r, &v);
		phys_value_free(&v);
	}
	phys_buf_free(&text);
	json_decref(obj);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_scene w;
	char *text = fuzz_text(data, size), *line, *next;
	size_t len;

	int n = 0;

	fuzz_world_for(&w, text, strlen(text));
	/* A failed name costs a search for suggestions: 64 lines are plenty. */
	for (line = text; line && n++ < 64; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		set_line(&w, line);
	}
	free(phys_doc_render(&w.doc, &len));
	phys_world_free(&w);
	free(text);
	return 0;
}
