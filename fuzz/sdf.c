/*
 * sdf.c - fuzz the SDF loader: a world (or a model file, or a URDF) from
 * memory, its parameters listed and two edits rendered back, as
 * phys-param does: a world value and the first link's mass.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "paramio.h"
#include "sdfedit.h"
#include "ref.h"
#include "world.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_isolate();
	return 0;
}

/* Each parameter's line, built and dropped. */
static int
list_one(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	struct phys_buf *b = ctx;

	phys_buf_clear(b);
	phys_param_line(b, w, r, phys_ref_value(w, r), PHYS_PL_PRESET, NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_scene w = { 0 };
	struct phys_buf b = { 0 };
	struct phys_value v;
	struct phys_ref r;
	size_t len;
	char *text, *mass;

	if (fuzz_load(&w, "fuzz.sdf", data, size, false) == 0) {
		phys_ref_each(&w, "*", -1, list_one, &b);
		if (phys_ref_resolve(&w, "gravity", w.start, &r) == 0 &&
		    phys_value_parse(r.p, "0 0 -1.62", &v) == 0) {
			if (phys_world_edit(&w, &r, &v) == 0 &&
			    (text = phys_doc_render(&w.doc, &len)))
				free(text);
			phys_value_free(&v);
		}
		mass = w.nlinks ? phys_xasprintf("%s/inertial.mass",
		    w.links[0].name) : NULL;
		if (mass && phys_ref_resolve(&w, mass, w.start, &r) == 0 &&
		    phys_value_parse(r.p, "2.5", &v) == 0) {
			if (phys_world_edit(&w, &r, &v) == 0 &&
			    (text = phys_doc_render(&w.doc, &len)))
				free(text);
			phys_value_free(&v);
		}
		free(mass);
	}
	phys_buf_free(&b);
	phys_world_free(&w);
	return 0;
}
