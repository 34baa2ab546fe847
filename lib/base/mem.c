/* mem.c - checked allocation and arenas. */
#include "mem.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "msg.h"

static double left_under(int r, size_t used, double *limit);

void
phys_out_of_memory(void)
{
	double as = 0, data = 0;

	/* what is mapped is not asked: that may itself want memory */
	left_under(RLIMIT_AS, 0, &as);
	left_under(RLIMIT_DATA, 0, &data);
	if (as > 0 && (data == 0 || as <= data))
		data = as;
	if (data > 0)
		phys_die(PHYS_EXIT_FAIL, "out of memory (the process's memory "
		    "limit is %.0f MB)", data / 1048576);
	phys_die(PHYS_EXIT_FAIL, "out of memory");
}

void *
phys_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		phys_out_of_memory();
	return p;
}

void *
phys_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		phys_out_of_memory();
	return p;
}

void *
phys_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		phys_out_of_memory();
	return p;
}

char *
phys_xstrdup(const char *s)
{
	return phys_xstrndup(s, strlen(s));
}

char *
phys_xstrndup(const char *s, size_t n)
{
	char *p = phys_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
phys_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		phys_die(PHYS_EXIT_FAIL, "bad format");
	s = phys_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* ---- the process's limits ---------------------------------------- */

/* Kept of a limit for what the program allocates besides the one large
 * allocation (malloc's own, output buffers, a library's small ones). */
#define ROOM_RESERVE ((double)(16 << 20))

size_t
phys_mem_mapped(size_t *data)
{
	unsigned long size = 0, dat = 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %*u %*u %*u %*u %lu", &size, &dat) != 2)
			size = dat = 0;
		fclose(f);
	}
	if (data)
		*data = dat * page;
	return size * page;
}

/* What resource r's limit leaves beside used bytes (0: not known, half
 * the limit taken as used), or HUGE_VAL where it is not set. */
static double
left_under(int r, size_t used, double *limit)
{
	struct rlimit rl;

	if (getrlimit(r, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return HUGE_VAL;
	*limit = (double)rl.rlim_cur;
	return (used ? *limit - (double)used : *limit / 2) - ROOM_RESERVE;
}

double
phys_mem_room(double cap, double *limit)
{
	size_t data, size = phys_mem_mapped(&data);
	double as_limit = 0, data_limit = 0;
	double as = left_under(RLIMIT_AS, size, &as_limit);
	double dat = left_under(RLIMIT_DATA, data, &data_limit);

	*limit = 0;
	if (as >= cap && dat >= cap)
		return cap;
	*limit = as <= dat ? as_limit : data_limit;
	return fmax(fmin(as, dat), 0);
}

bool
phys_mem_fits(double need, double *left, double *limit)
{
	*left = phys_mem_room(HUGE_VAL, limit);
	return *limit == 0 || need <= *left;
}

bool
phys_mem_room_for_more(size_t count, double bytes, double *left,
    double *limit)
{
	*left = *limit = 0;
	return count == 0 || count % PHYS_ROOM_EVERY != 0 ||
	    phys_mem_fits(PHYS_ROOM_EVERY * bytes, left, limit);
}

const char *
phys_mem_left_text(char *buf, size_t n, double left, double limit)
{
	snprintf(buf, n, "the %.0f MB the process's memory limit of %.0f MB "
	    "leaves", floor(left / 1048576), limit / 1048576);
	return buf;
}

/* ---- arenas --------------------------------------------------------- */

struct phys_arena_block {
	struct phys_arena_block *next;
	size_t size;		/* bytes, this header included */
	max_align_t data[];
};

#define ARENA_FIRST ((size_t)64 << 10)
#define ARENA_MAX ((size_t)64 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
/*
 * The blocks of the last arena freed, up to this many bytes, wait for the
 * next one: a program that loads world after world (a sweep's runs, the
 * engines of --engines, an embedder) would otherwise have the kernel map
 * and zero their pages again at every load (a 50-body model read 500
 * times took 1.89 ms a read, 1.64 with them). Exchanged atomically, so
 * arenas of several threads share them safely; the blocks of an arena
 * freed later replace them.
 */
#define SPARE_MAX ((size_t)4 << 20)
static _Atomic(struct phys_arena_block *) spare;

/* A block of size bytes from the allocator, or NULL. */
static struct phys_arena_block *
block_alloc(size_t size)
{
	struct phys_arena_block *b;

	/*
	 * A block of whole huge pages asks for them: the values of a world
	 * of 10,000 models fill 35 MB, and a page fault for every 4 KB of
	 * them took longer than reading them. Only advice: where the kernel
	 * gives none, pages stay small.
	 */
	if (size >= HUGE_PAGE) {
		b = aligned_alloc(HUGE_PAGE, size);
		if (b)
			(void)madvise(b, size, MADV_HUGEPAGE);
	} else {
		b = malloc(size);
	}
	return b;
}

/*
 * A block of size bytes, a spare one if one is as large; where the
 * process's memory limit leaves less, the largest of size halved that it
 * leaves, down to least bytes: the limit is then met where a reader checks
 * for room and names the element (a world of 45,000 links within 300 MB
 * ran out on a 64 MB block with 40 MB still free, saying only that).
 */
static struct phys_arena_block *
block_new(struct phys_arena *a, size_t size, size_t least)
{
	struct phys_arena_block *b, **at;

	if (!a->head && !a->spare)
		a->spare = atomic_exchange(&spare, NULL);
	for (at = &a->spare; *at; at = &(*at)->next)
		if ((*at)->size >= size) {
			b = *at;
			*at = b->next;
			return b;
		}
	while (!(b = block_alloc(size)) && size / 2 >= least)
		size /= 2;
	if (!b)
		phys_out_of_memory();
	b->size = size;
	return b;
}

void *
phys_arena_alloc(struct phys_arena *a, size_t n)
{
	const size_t align = sizeof(max_align_t);
	struct phys_arena_block *b;
	size_t size;
	void *p;

	n = (n + align - 1) / align * align;
	if (!a->head || a->cap - a->used < n) {
		/* Each block as large as all before it: few blocks, and
		 * at most half of the memory unused. */
		size = a->total ? a->total : ARENA_FIRST;
		if (size > ARENA_MAX)
			size = ARENA_MAX;
		while (size - sizeof *b < n)
			size *= 2;
		b = block_new(a, size, sizeof *b + n);
		b->next = a->head;
		a->head = b;
		a->used = offsetof(struct phys_arena_block, data);
		a->cap = b->size;
		a->total += b->size;
	}
	p = (char *)a->head + a->used;
	a->used += n;
	return p;
}

static void
blocks_free(struct phys_arena_block *b)
{
	struct phys_arena_block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

void
phys_arena_free(struct phys_arena *a)
{
	struct phys_arena_block *b, *last = NULL;
	size_t total = 0;

	/* its blocks and the spare ones it did not use, as one list */
	for (b = a->head; b; b = b->next) {
		total += b->size;
		last = b;
	}
	for (b = a->spare; b; b = b->next)
		total += b->size;
	if (last)
		last->next = a->spare;
	else
		a->head = a->spare;
	if (a->head && total <= SPARE_MAX)
		blocks_free(atomic_exchange(&spare, a->head));
	else
		blocks_free(a->head);
	memset(a, 0, sizeof *a);
}
