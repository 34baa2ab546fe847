/*
 * pairs.h - pairs of collisions that touch with a surface of their own,
 * as an MJCF model's <contact><pair> has them: the MJCF reader writes
 * <phys:pair link="OTHER" collision="NAME"> (mjcf.h's namespace) in the
 * first collision, holding an SDF <surface>; the loader gathers them
 * into the world (phys_scene.pairs). The two touch whatever their
 * bitmasks say, and their contacts take the pair's surface, not theirs.
 */
#ifndef PHYS_PAIRS_H
#define PHYS_PAIRS_H

#include "world_types.h"

/* Reads the values of the collision scope found under an element (the
 * loader's reader of a <collision>'s), into an array it makes. */
typedef int (*phys_pair_values_fn)(void *ctx, struct phys_doc *d,
    xmlNodePtr owner, struct phys_value **out);

/* The world's pairs from its collisions' <phys:pair>: 0, or -1 with
 * phys_error() naming the file:line of one naming no collision. */
int phys_pairs_read(struct phys_scene *w, phys_pair_values_fn read,
    void *ctx);
/* The pair of collisions c1 and c2, or NULL. */
const struct phys_contact_pair *phys_pair_find(const struct phys_scene *w,
    int c1, int c2);
/* Free what the world's pairs hold (their values live in its arena). */
void phys_pairs_free(struct phys_scene *w);

#endif
