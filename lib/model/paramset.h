/*
 * paramset.h - a world's parameters set by name, as phys-param set does:
 * from NAME=VALUE assignments and from parameter lines, each value
 * checked as it is collected and none written before all are.
 */
#ifndef PHYS_PARAMSET_H
#define PHYS_PARAMSET_H

#include <stddef.h>

#include "ref.h"
#include "world.h"

struct phys_param_edit {
	struct phys_ref ref;	/* ref.p NULL: model ref.idx's pose */
	char *text;		/* the value as SDF text */
};

struct phys_param_edits {
	struct phys_param_edit *v;
	size_t n;
	/* Matches of a glob in included models, whose files are not this
	 * world's to edit: skipped, and counted here. */
	size_t skipped_included;
};

/* NAME (a glob selects many) set to text in the given profile. */
int phys_param_edits_add(struct phys_param_edits *e, struct phys_scene *w,
    const char *name, const char *text, int profile);
/* The same from "NAME=VALUE". */
int phys_param_edits_assign(struct phys_param_edits *e, struct phys_scene *w,
    const char *arg, int profile);
/*
 * The same from each parameter line of path ("-": stdin), {"name","value"}
 * and maybe "preset": a profile this world has takes the line's value,
 * else the given one. An error names the file and line.
 */
int phys_param_edits_read(struct phys_param_edits *e, struct phys_scene *w,
    const char *path, int profile);
/*
 * Every value into the model and the document, in order: a resize moves
 * the link's inertial as its inertia.follow says (phys's own parameter,
 * which governs the assignments after it and is never written).
 */
int phys_param_edits_apply(struct phys_scene *w,
    const struct phys_param_edits *e);
void phys_param_edits_free(struct phys_param_edits *e);

#endif
