/* mem.h - checked allocation and arenas. */
#ifndef PHYS_BASE_MEM_H
#define PHYS_BASE_MEM_H

#include <stddef.h>

/* Checked allocation: out of memory is fatal. */
void *phys_xmalloc(size_t n);
void *phys_xcalloc(size_t n, size_t size);
void *phys_xrealloc(void *p, size_t n);
char *phys_xstrdup(const char *s);
char *phys_xstrndup(const char *s, size_t n);
char *phys_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * An arena: the many small arrays of one owner (a world's parameter
 * values) cut from a few large blocks and freed together. Zero-initialise
 * it; memory is aligned for any type and not cleared.
 */
struct phys_arena_block;
struct phys_arena {
	struct phys_arena_block *head;
	size_t used, cap;	/* bytes of head */
	size_t total;		/* bytes of all blocks */
};
void *phys_arena_alloc(struct phys_arena *a, size_t n);
void phys_arena_free(struct phys_arena *a);

#endif
