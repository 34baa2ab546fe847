/*
 * dl.c - libraries opened when first needed; see dl.h.
 */
#include "dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"


int
phys_dl_load(struct phys_dl_state *st, const char *soname,
    const char *const names[], void **slots, size_t n, const char *what)
{
	void *lib, *f;
	size_t i;

	if (st->state == 0) {
		lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
		st->state = lib ? 1 : -1;
		for (i = 0; i < n && st->state > 0; i++) {
			/* POSIX: a function's address comes back as a void *,
			 * and a function pointer holds it. */
			if (!(f = dlsym(lib, names[i])))
				st->state = -1;
			memcpy(&slots[i], &f, sizeof f);
		}
		if (st->state < 0)
			snprintf(st->why, sizeof st->why, "%s", dlerror());
	}
	if (st->state < 0)
		return phys_fail("%s, which could not be loaded: %s", what,
		    st->why);
	return 0;
}
