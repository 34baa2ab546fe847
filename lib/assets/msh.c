/* msh.c - MuJoCo's binary mesh file, read as MuJoCo 2.2.2 reads it. */
#include "msh.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base.h"

bool
phys_msh_named(const char *path)
{
	size_t len = path ? strlen(path) : 0;

	return len > 4 && strcasecmp(path + len - 4, ".msh") == 0;
}

/* The 32-bit word at p, little-endian whatever the host. */
static uint32_t
word(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
	    (uint32_t)u[3] << 24;
}

static double
float_at(const char *p)
{
	uint32_t w = word(p);
	float f;

	memcpy(&f, &w, sizeof f);
	return f;
}

/* The counts, as signed ints MuJoCo reads them, checked as it checks. */
static int
counts(const char *data, size_t len, int32_t c[4])
{
	uint64_t want;
	int k;

	if (len < 16)
		return phys_fail("%zu bytes: shorter than an MSH file's "
		    "header of 16", len);
	for (k = 0; k < 4; k++)
		c[k] = (int32_t)word(data + 4 * k);
	if (c[0] < 4 || c[1] < 0 || c[2] < 0 || c[3] < 0 ||
	    (c[1] > 0 && c[1] != c[0]) || (c[2] > 0 && c[2] != c[0]))
		return phys_fail("MSH counts %d vertices, %d normals, %d "
		    "texture coordinates, %d faces: MuJoCo wants 4 vertices "
		    "or more, and as many normals and coordinates as "
		    "vertices, or none", c[0], c[1], c[2], c[3]);
	want = 16 + 12 * ((uint64_t)c[0] + (uint64_t)c[1] + (uint64_t)c[3]) +
	    8 * (uint64_t)c[2];
	if (want != len)
		return phys_fail("MSH counts add up to %ju bytes; the file "
		    "has %zu", (uintmax_t)want, len);
	return 0;
}

int
phys_msh_read(const char *data, size_t len, double **v, size_t *nv,
    double **face, size_t *nf)
{
	const char *p;
	int32_t c[4];
	size_t i;

	if (counts(data, len, c) < 0)
		return -1;
	*nv = 3 * (size_t)c[0];
	*nf = 3 * (size_t)c[3];
	*v = phys_xcalloc(*nv, sizeof **v);
	*face = phys_xcalloc(*nf ? *nf : 1, sizeof **face);
	for (i = 0, p = data + 16; i < *nv; i++, p += 4)
		(*v)[i] = float_at(p);
	/* past the normals and texture coordinates: no use to physics */
	p += 12 * (size_t)c[1] + 8 * (size_t)c[2];
	for (i = 0; i < *nf; i++, p += 4)
		(*face)[i] = (int32_t)word(p);
	return 0;
}
