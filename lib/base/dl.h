/*
 * dl.h - libraries opened when first needed (dlopen), not linked.
 *
 * A library that only some worlds need (GDAL for terrain, assimp for
 * meshes) would cost every command its loading at start-up, with all the
 * libraries it pulls in. Its header still declares every call, so each
 * pointer keeps the library's own type:
 *
 *	#define CALLS(X) X(fooOpen) X(fooClose)
 *	static struct { CALLS(PHYS_DL_POINTER) } foo;
 *	static const char *const foo_names[] = { CALLS(PHYS_DL_NAME) };
 *	...
 *	if (phys_dl_load(&state, SONAME, foo_names, (void **)&foo,
 *	    sizeof foo / sizeof(void *), "meshes need assimp") < 0)
 */
#ifndef PHYS_DL_H
#define PHYS_DL_H

#include <stddef.h>

#define PHYS_DL_POINTER(f) __typeof__(f) *f;
#define PHYS_DL_NAME(f) #f,

/* Once per state: 0 not tried, 1 loaded, -1 failed. */
struct phys_dl_state {
	int state;
	char why[256];
};

/* Opens soname and fills slots[i] with names[i] the first time; 0, or -1
 * with phys_error() saying "WHAT, which could not be loaded: why". */
int phys_dl_load(struct phys_dl_state *st, const char *soname,
    const char *const names[], void **slots, size_t n, const char *what);

#endif
