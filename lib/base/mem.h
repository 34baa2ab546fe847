/* mem.h - checked allocation and arenas. */
#ifndef PHYS_BASE_MEM_H
#define PHYS_BASE_MEM_H

#include <stdbool.h>
#include <stddef.h>

/* Checked allocation: out of memory is fatal (phys_out_of_memory). */
void *phys_xmalloc(size_t n);
void *phys_xcalloc(size_t n, size_t size);
void *phys_xrealloc(void *p, size_t n);
char *phys_xstrdup(const char *s);
char *phys_xstrndup(const char *s, size_t n);
char *phys_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* phys_die's "out of memory", with the process's memory limit if set. */
_Noreturn void phys_out_of_memory(void);

/* Bytes of address space the process maps now, and into *data (unless
 * NULL) those of its data and stack, which RLIMIT_DATA bounds: 0 where
 * /proc does not say. */
size_t phys_mem_mapped(size_t *data);
/*
 * The bytes one large allocation may take now, at most cap: what the
 * process's limits on address space and data (ulimit -v, -d) leave
 * beside what it maps, less a reserve for the rest of the program. A
 * library asked for more than that fails inside itself, often saying
 * no more than that it ran out. *limit gets the limit that bounds the
 * room, in bytes, or 0 where cap does.
 */
double phys_mem_room(double cap, double *limit);

/* Whether need bytes fit in what the process's limits leave (always
 * where none is set), *left and *limit as phys_mem_room gives them. */
bool phys_mem_fits(double need, double *left, double *limit);
/* "the N MB the process's memory limit of M MB leaves", for a refusal,
 * into buf of n bytes. */
const char *phys_mem_left_text(char *buf, size_t n, double left,
    double limit);
/*
 * At every PHYS_ROOM_EVERY-th of count items a reader makes, whether the
 * process's limits leave room for as many more of bytes each: false where
 * they do not, with what they leave (*left) and the limit, in bytes. A
 * reader that stops there names the item, where running out would not.
 */
#define PHYS_ROOM_EVERY 1024
bool phys_mem_room_for_more(size_t count, double bytes, double *left,
    double *limit);

/* Room for one more in arr, of n used and cap allocated: doubling, so an
 * array grown one at a time is copied log n times, not n. */
#define PHYS_GROW(arr, n, cap) do {					\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 16;				\
		(arr) = phys_xrealloc((arr), (cap) * sizeof *(arr));	\
	}								\
} while (0)

/* The same for an array only ever grown so from NULL, its capacity the
 * power of two at or above n (16 at least), kept nowhere. */
#define PHYS_GROW_ONE(arr, n) do {					\
	if ((n) == 0)							\
		(arr) = phys_xrealloc((arr), 16 * sizeof *(arr));	\
	else if ((n) >= 16 && ((n) & ((n) - 1)) == 0)			\
		(arr) = phys_xrealloc((arr), 2 * (n) * sizeof *(arr));	\
} while (0)

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
	struct phys_arena_block *spare;	/* blocks to use before new ones */
};
void *phys_arena_alloc(struct phys_arena *a, size_t n);
void phys_arena_free(struct phys_arena *a);

#endif
