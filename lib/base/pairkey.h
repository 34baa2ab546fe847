/*
 * pairkey.h - unordered pairs of indices (links, collisions, geoms) as
 * keys that sort: a set of pairs kept as a sorted array of keys answers
 * "is this pair in it" by binary search.
 */
#ifndef PHYS_BASE_PAIRKEY_H
#define PHYS_BASE_PAIRKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The key of the pair {a, b} of indices in 0..n-1, either order. */
static inline int64_t
phys_pair_key(int a, int b, int64_t n)
{
	return a < b ? (int64_t)a * n + b : (int64_t)b * n + a;
}

/* The pair {*a, *b}, *a < *b, a key of phys_pair_key(.., n) holds. */
static inline void
phys_pair_split(int64_t key, int64_t n, int *a, int *b)
{
	*a = (int)(key / n);
	*b = (int)(key % n);
}

/* qsort's and bsearch's order of keys. */
int phys_key_cmp(const void *a, const void *b);
/* Sorts n keys. */
void phys_keys_sort(int64_t *keys, size_t n);
/* Whether key is among n sorted keys. */
bool phys_key_listed(const int64_t *keys, size_t n, int64_t key);

#endif
