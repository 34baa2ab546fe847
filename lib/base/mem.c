/* mem.c - checked allocation and arenas. */
#include "mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "msg.h"

void *
phys_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	return p;
}

void *
phys_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	return p;
}

void *
phys_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
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

/* ---- arenas --------------------------------------------------------- */

struct phys_arena_block {
	struct phys_arena_block *next;
	max_align_t data[];
};

#define ARENA_FIRST ((size_t)64 << 10)
#define ARENA_MAX ((size_t)64 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

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
		/*
		 * A block of whole huge pages asks for them: the values of
		 * a world of 10,000 models fill 35 MB, and a page fault for
		 * every 4 KB of them took longer than reading them. Only
		 * advice: where the kernel gives none, pages stay small.
		 */
		if (size >= HUGE_PAGE) {
			b = aligned_alloc(HUGE_PAGE, size);
			if (b)
				(void)madvise(b, size, MADV_HUGEPAGE);
		} else {
			b = malloc(size);
		}
		if (!b)
			phys_die(PHYS_EXIT_FAIL, "out of memory");
		b->next = a->head;
		a->head = b;
		a->used = offsetof(struct phys_arena_block, data);
		a->cap = size;
		a->total += size;
	}
	p = (char *)a->head + a->used;
	a->used += n;
	return p;
}

void
phys_arena_free(struct phys_arena *a)
{
	struct phys_arena_block *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	memset(a, 0, sizeof *a);
}
