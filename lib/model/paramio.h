/*
 * paramio.h - parameter lines in and out, and writing edited worlds.
 *
 * A parameter line: {"name":"ode.solver.iters","type":"int","value":50}
 * with, as asked, "preset", "is_default" (true when the element is absent
 * and the value is the specification's), and the registry's "units",
 * "default", "min", "max", "values", "alias", "engines", the caller's
 * notes (phys-param's: for each engine phys runs, under its type ("ode"),
 * what it does with the parameter); then "doc".
 */
#ifndef PHYS_PARAMIO_H
#define PHYS_PARAMIO_H

#include <stdbool.h>

#include "ref.h"
#include "world.h"

enum {
	PHYS_PL_DOC = 1,	/* registry facts and the doc line */
	PHYS_PL_PRESET = 2	/* "preset" for physics parameters */
};

/* "native", "emulated", "inert" or "other". */
const char *phys_support_name(enum phys_engine_support s);
/* Fields a caller adds to a documentation line before its "doc", each
 * written as ',"key":value'. */
typedef void (*phys_param_notes)(struct phys_buf *b, const struct phys_param *p);
/* The registry row itself (no value): name, type, alias, scope and
 * units; with PHYS_PL_DOC its other facts too: default, range, values,
 * engines, notes and doc. */
void phys_param_line_registry(struct phys_buf *b, const struct phys_param *p,
    unsigned flags, phys_param_notes notes);
/* An instance with its value; notes (or NULL) with PHYS_PL_DOC. */
void phys_param_line(struct phys_buf *b, struct phys_scene *w,
    const struct phys_ref *r, const struct phys_value *v, unsigned flags,
    phys_param_notes notes);

/* Turn a JSON value into SDF text for a parameter or state value
 * (numbers, booleans, strings, {"x","y","z"}, poses, arrays). */
struct json_t;
int phys_json_to_text(const struct json_t *v, struct phys_buf *out);

/* Rank of an element path among its siblings for the SDF editor: the
 * position of the first registry row at or below it; ctx is a phys_scope
 * cast to a pointer. */
int phys_param_rank(const void *ctx, xmlNodePtr owner, const char *path);

/*
 * Record an edit setting r to the SDF text of v in the world document.
 * Physics parameters of the implicit profile create a <physics> element.
 * Entities from included files cannot be edited here: an error says which
 * file to edit.
 */
int phys_world_edit(struct phys_scene *w, const struct phys_ref *r,
    const struct phys_value *v);

/*
 * phys_world_open for a world that will be written back: in place, the
 * file is first locked against other editors (phys_edit_lock), so that
 * the read, the edit and the rename are one step for them.
 */
int phys_world_open_edit(struct phys_scene *w, const char *path,
    bool in_place, bool warn);
/* The same with the caller's load options. */
int phys_world_open_edit_with(struct phys_scene *w, const char *path,
    bool in_place, const struct phys_load_options *lo);

/* Write the edited world to stdout, or replace path in place (temporary
 * file, then rename). */
int phys_world_write(struct phys_scene *w, bool in_place);

#endif
