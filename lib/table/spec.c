/* spec.c - looking things up in the SDFormat specification's table. */
#include "spec.h"

#include <string.h>

const struct phys_spec_version *
phys_spec_find(int major, int minor, bool *exact)
{
	const struct phys_spec_version *best = &phys_spec_versions[0], *v;
	int i;

	for (i = 0; i < phys_spec_nversions; i++) {
		v = &phys_spec_versions[i];
		if (v->major < major || (v->major == major && v->minor <= minor))
			best = v;
	}
	*exact = best->major == major && best->minor == minor;
	return best;
}

/* The default of child under the first element named parent reached
 * from index i; seen marks the elements visited (indices are 16 bits). */
static const char *
find_default(const struct phys_spec_version *v, unsigned i,
    const char *parent, const char *child, unsigned char *seen)
{
	const struct phys_spec_elem *e = &v->elems[i], *k;
	const char *d;
	unsigned j;

	if (seen[i / 8] & (1u << (i % 8)))
		return NULL;
	seen[i / 8] |= 1u << (i % 8);
	for (j = 0; j < e->nkids; j++) {
		k = &v->elems[v->kids[e->kid + j].elem];
		if (e->name && strcmp(e->name, parent) == 0 && k->name &&
		    strcmp(k->name, child) == 0 && k->def)
			return k->def;
	}
	for (j = 0; j < e->nkids; j++)
		if ((d = find_default(v, v->kids[e->kid + j].elem, parent,
		    child, seen)))
			return d;
	return NULL;
}

const char *
phys_spec_default(int major, int minor, const char *parent,
    const char *child)
{
	unsigned char seen[65536 / 8];
	const struct phys_spec_version *v;
	bool exact;

	v = phys_spec_find(major, minor, &exact);
	memset(seen, 0, sizeof seen);
	return find_default(v, (unsigned)v->root, parent, child, seen);
}

static bool
find_name(const struct phys_spec_version *v, unsigned i, const char *name,
    unsigned char *seen)
{
	const struct phys_spec_elem *e = &v->elems[i];
	unsigned j;

	if (seen[i / 8] & (1u << (i % 8)))
		return false;
	seen[i / 8] |= 1u << (i % 8);
	if (e->name && strcmp(e->name, name) == 0)
		return true;
	for (j = 0; j < e->nkids; j++)
		if (find_name(v, v->kids[e->kid + j].elem, name, seen))
			return true;
	return false;
}

bool
phys_spec_describes(int major, int minor, const char *name)
{
	unsigned char seen[65536 / 8];
	const struct phys_spec_version *v;
	bool exact;

	v = phys_spec_find(major, minor, &exact);
	memset(seen, 0, sizeof seen);
	return find_name(v, (unsigned)v->root, name, seen);
}
