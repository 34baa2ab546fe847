/* pairkey.c - sorted sets of pair keys (pairkey.h). */
#include "pairkey.h"

#include <stdlib.h>

int
phys_key_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

void
phys_keys_sort(int64_t *keys, size_t n)
{
	if (n > 1)
		qsort(keys, n, sizeof *keys, phys_key_cmp);
}

bool
phys_key_listed(const int64_t *keys, size_t n, int64_t key)
{
	return n && bsearch(&key, keys, n, sizeof key, phys_key_cmp) != NULL;
}
