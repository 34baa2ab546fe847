/*
 * meshgrid.c - the triangles of a mesh near a box (meshgrid.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "meshgrid.h"

/* Entries a triangle may take on average before the cells are made
 * coarser, and the few more any mesh may have: a grid takes at most
 * about 80 bytes a triangle (cells, entries, marks and the answer). */
#define ENTRIES_PER_TRIANGLE 8
#define ENTRIES_SPARE 4096
/* The most cells along an axis. */
#define CELLS_MAX 1024

struct phys_mesh_grid {
	const struct phys_mesh *m;
	double lo[3], size;	/* the first cell's low corner; a cell's side */
	size_t n[3];		/* cells along each axis */
	/* cell c's triangles: tri[start[c]] to tri[start[c + 1]]; a mesh
	 * has fewer than 2^32 / ENTRIES_PER_TRIANGLE (phys_mesh_grid_new) */
	uint32_t *start, *tri;
	uint32_t *seen;		/* each triangle's last query */
	uint32_t query;
	size_t *found, nfound;
};

static double
axis(phys_vec3 v, int k)
{
	return k == 0 ? v.x : k == 1 ? v.y : v.z;
}

/* The cells along axis k that span lo to hi, first to last. */
static void
span(const struct phys_mesh_grid *g, int k, double lo, double hi,
    size_t *first, size_t *last)
{
	double a = floor((lo - g->lo[k]) / g->size);
	double b = floor((hi - g->lo[k]) / g->size);
	double top = (double)g->n[k] - 1;

	*first = (size_t)fmax(0, fmin(top, a));
	*last = (size_t)fmax(0, fmin(top, b));
}

/* Triangle t's bounds, lo and hi. */
static void
bounds(const struct phys_mesh *m, size_t t, double lo[3], double hi[3])
{
	int j, k;

	for (k = 0; k < 3; k++) {
		lo[k] = INFINITY;
		hi[k] = -INFINITY;
	}
	/* comparisons, not fmin and fmax: a mesh's vertices are finite
	 * (mesh.c), and this is the grid's inner loop */
	for (j = 0; j < 3; j++) {
		const double *p = m->v + 3 * (size_t)m->tri[3 * t + (size_t)j];

		for (k = 0; k < 3; k++) {
			lo[k] = p[k] < lo[k] ? p[k] : lo[k];
			hi[k] = p[k] > hi[k] ? p[k] : hi[k];
		}
	}
}

/* The cells triangle t reaches: first[k] to last[k] along each axis;
 * returns how many. */
static size_t
cells_of(const struct phys_mesh_grid *g, size_t t, size_t first[3],
    size_t last[3])
{
	double lo[3], hi[3];
	size_t c = 1;
	int k;

	bounds(g->m, t, lo, hi);
	for (k = 0; k < 3; k++) {
		span(g, k, lo[k], hi[k], &first[k], &last[k]);
		c *= last[k] - first[k] + 1;
	}
	return c;
}

/* Cells of side size over m: their number along each axis, false when
 * one axis would take more than CELLS_MAX. */
static bool
lay_cells(struct phys_mesh_grid *g, double size)
{
	int k;

	g->size = size;
	for (k = 0; k < 3; k++) {
		double ext = axis(g->m->hi, k) - axis(g->m->lo, k);
		double n = size > 0 ? floor(ext / size) + 1 : 1;

		if (!(n <= CELLS_MAX))
			return false;
		g->n[k] = (size_t)n;
		g->lo[k] = axis(g->m->lo, k);
	}
	return true;
}

/* The side of a cell for about one triangle a cell over m's bounds, of
 * its largest axes where the others are thinner than a cell. */
static double
first_size(const struct phys_mesh *m)
{
	double e[3] = { m->hi.x - m->lo.x, m->hi.y - m->lo.y,
	    m->hi.z - m->lo.z }, t, n = (double)m->ntri, s;
	int i, j;

	for (i = 0; i < 3; i++)		/* largest first */
		for (j = i + 1; j < 3; j++)
			if (e[j] > e[i]) {
				t = e[i], e[i] = e[j], e[j] = t;
			}
	s = cbrt(e[0] * e[1] * e[2] / n);
	if (!(e[2] >= s && s > 0))	/* flat: a floor */
		s = sqrt(e[0] * e[1] / n);
	if (!(e[1] >= s && s > 0))	/* thin: a rail */
		s = e[0] / n;
	return s;
}

/* Lays the cells and counts the entries, coarser until they fit. */
static size_t
size_cells(struct phys_mesh_grid *g)
{
	const struct phys_mesh *m = g->m;
	double most = (double)ENTRIES_PER_TRIANGLE * (double)m->ntri +
	    ENTRIES_SPARE, all;
	double s = first_size(m);
	size_t t, first[3], last[3];

	if (!(s > 0 && s < INFINITY))
		s = 0;
	for (;;) {
		if (lay_cells(g, s)) {
			for (all = 0, t = 0; t < m->ntri && all <= most; t++)
				all += (double)cells_of(g, t, first, last);
			if (all <= most)
				return (size_t)all;
		}
		if (s == 0)
			return 0;
		s *= 2;
	}
}

static size_t
cell_index(const struct phys_mesh_grid *g, size_t i, size_t j, size_t k)
{
	return (k * g->n[1] + j) * g->n[0] + i;
}

/* Each triangle into the cells it reaches: start counts them first. */
static void
fill(struct phys_mesh_grid *g)
{
	size_t ncell = g->n[0] * g->n[1] * g->n[2], t, i, j, k, c;
	size_t first[3], last[3];
	uint32_t *at;

	for (t = 0; t < g->m->ntri; t++) {
		cells_of(g, t, first, last);
		for (k = first[2]; k <= last[2]; k++)
			for (j = first[1]; j <= last[1]; j++)
				for (i = first[0]; i <= last[0]; i++)
					g->start[cell_index(g, i, j, k) + 1]++;
	}
	for (c = 0; c < ncell; c++)
		g->start[c + 1] += g->start[c];
	at = phys_xmalloc(ncell * sizeof *at);
	for (c = 0; c < ncell; c++)
		at[c] = g->start[c];
	for (t = 0; t < g->m->ntri; t++) {
		cells_of(g, t, first, last);
		for (k = first[2]; k <= last[2]; k++)
			for (j = first[1]; j <= last[1]; j++)
				for (i = first[0]; i <= last[0]; i++)
					g->tri[at[cell_index(g, i, j, k)]++] =
					    (uint32_t)t;
	}
	free(at);
}

struct phys_mesh_grid *
phys_mesh_grid_new(const struct phys_mesh *m)
{
	struct phys_mesh_grid *g;
	size_t entries;

	if (!m || m->ntri == 0 || m->ntri >= UINT32_MAX / 2 /
	    ENTRIES_PER_TRIANGLE)
		return NULL;
	g = phys_xcalloc(1, sizeof *g);
	g->m = m;
	entries = size_cells(g);
	g->start = phys_xcalloc(g->n[0] * g->n[1] * g->n[2] + 1,
	    sizeof *g->start);
	g->tri = phys_xmalloc((entries ? entries : 1) * sizeof *g->tri);
	g->seen = phys_xcalloc(m->ntri, sizeof *g->seen);
	g->found = phys_xmalloc(m->ntri * sizeof *g->found);
	fill(g);
	return g;
}

/* Cell c's triangles whose bounds meet lo to hi, not yet found by this
 * query, onto g->found. */
static void
take_cell(struct phys_mesh_grid *g, size_t c, phys_vec3 lo, phys_vec3 hi)
{
	double tlo[3], thi[3];
	size_t e, t;
	int a;

	for (e = g->start[c]; e < g->start[c + 1]; e++) {
		t = g->tri[e];
		if (g->seen[t] == g->query)
			continue;
		g->seen[t] = g->query;
		bounds(g->m, t, tlo, thi);
		for (a = 0; a < 3 && tlo[a] <= axis(hi, a) &&
		    thi[a] >= axis(lo, a); a++)
			continue;
		if (a == 3)
			g->found[g->nfound++] = t;
	}
}

const size_t *
phys_mesh_grid_find(struct phys_mesh_grid *g, phys_vec3 lo, phys_vec3 hi,
    size_t *n)
{
	size_t first[3], last[3], i, j, k;
	int a;

	g->nfound = 0;
	if (++g->query == 0) {	/* marks of 2^32 queries ago */
		memset(g->seen, 0, g->m->ntri * sizeof *g->seen);
		g->query = 1;
	}
	for (a = 0; a < 3; a++)
		span(g, a, axis(lo, a), axis(hi, a), &first[a], &last[a]);
	for (k = first[2]; k <= last[2]; k++)
		for (j = first[1]; j <= last[1]; j++)
			for (i = first[0]; i <= last[0]; i++)
				take_cell(g, cell_index(g, i, j, k), lo, hi);
	*n = g->nfound;
	return g->found;
}

void
phys_mesh_grid_free(struct phys_mesh_grid *g)
{
	if (!g)
		return;
	free(g->start);
	free(g->tri);
	free(g->seen);
	free(g->found);
	free(g);
}
