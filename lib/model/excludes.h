/*
 * excludes.h - link pairs that never touch, as an MJCF model's
 * <contact><exclude> and MuJoCo's filter have them. The MJCF reader
 * writes, in a link (mjcf.h's namespace):
 *   <phys:exclude link="OTHER"/>: this link and OTHER never touch;
 *   <phys:weld link="W" parent="P"/>: this link moves with W (MuJoCo's
 *   weld body: itself when it has joints, "world" when welded to the
 *   world), and W's parent moves with P (no parent: the world). Links of
 *   one weld, and links of a weld and of its parent weld, never touch:
 *   MuJoCo's filter in a size linear in the links.
 * The loader gathers them into the world (phys_scene.excluded, .welds).
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
/* Whether links l1 and l2 never touch by an exclusion or their welds. */
bool phys_excludes_pair(const struct phys_scene *w, int l1, int l2);
/* Whether a <phys:exclude> keeps links l1 and l2 apart. */
bool phys_excludes_listed(const struct phys_scene *w, int l1, int l2);
/* Whether links l1 and l2 never touch by their welds alone. */
bool phys_excludes_welded(const struct phys_scene *w, int l1, int l2);
/* Calls each(l1, l2, arg) for every pair of links, l1 < l2, that never
 * touch by their welds, in the order of l1 then l2: the links of each
 * weld bucketed once, then only the pairs kept apart visited. */
void phys_excludes_each_welded(const struct phys_scene *w,
    void (*each)(int l1, int l2, void *arg), void *arg);

#endif
