/*
 * items.h - the items a run of a world can report ("box::link/pose",
 * "robot::elbow/position", "sim_time"): the kinds of lib/table/item.h
 * instanced for the world's entities.
 */
#ifndef PHYS_ITEMS_H
#define PHYS_ITEMS_H

#include <stddef.h>

#include "item.h"
#include "world.h"

/* One item of one world. */
struct phys_item {
	enum phys_item_kind kind;
	int entity;		/* index of the owner; 0 for the world */
	char *name;
};

struct phys_item_list {
	struct phys_item *v;
	size_t n;
};

/* Every item a run of w can produce, in a stable order. */
void phys_items_all(const struct phys_scene *w, struct phys_item_list *out);
/* The items matching any pattern; with none, each link's pose, sim_time
 * and iterations. A pattern matching nothing is an error. */
int phys_items_select(const struct phys_scene *w, char **patterns,
    size_t npatterns, struct phys_item_list *out);
void phys_items_free(struct phys_item_list *l);
/* {"name","type","units","fields":[...],"doc"} and a newline. */
void phys_item_line(const struct phys_scene *w, const struct phys_item *it,
    struct phys_buf *b);
/* The line of every item a run of w can produce, or of those the globs
 * match (none matching one is an error), into b. */
int phys_items_lines(const struct phys_scene *w, char **globs, size_t n,
    struct phys_buf *b);

#endif
