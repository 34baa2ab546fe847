/*
 * sets.h - disjoint sets over 0..n-1 in an array of parents (up[i] == i
 * for a root): the trees of joined links, the loops joints close.
 */
#ifndef PHYS_BASE_SETS_H
#define PHYS_BASE_SETS_H

/* The root of i's set, each element passed pointed at its grandparent
 * (path halving: a chain of n is walked once, then in short steps). */
static inline int
phys_set_root(int *up, int i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

#endif
