/*
 * excludes.h - link pairs that never touch, as an MJCF model's
 * <contact><exclude> and MuJoCo's parent filter have them: the MJCF
 * reader writes <phys:exclude link="OTHER"/> (mjcf.h's namespace) in a
 * link; the loader gathers them into the world (phys_scene.excluded).
 */
#ifndef PHYS_EXCLUDES_H
#define PHYS_EXCLUDES_H

#include <stdbool.h>

#include "world_types.h"

/* The world's excluded pairs from its links' <phys:exclude>: 0, or -1
 * with phys_error() naming the file:line of one naming no link. */
int phys_excludes_read(struct phys_scene *w);
/* Name local (a link's, "link::collision") in the scope of link li's
 * model, as <phys:exclude> and <phys:pair> name others: the model's name,
 * not the link's up to its last "::" (an MJCF body's name may hold "::",
 * as phys-sdf print --format mjcf writes them). The caller frees it. */
char *phys_model_scoped(const struct phys_scene *w, int li,
    const char *local);
/* Whether links l1 and l2 never touch by an exclusion. */
bool phys_excludes_pair(const struct phys_scene *w, int l1, int l2);

#endif
