/*
 * hull.c - the convex hull of a mesh's vertices, through qhull (its
 * reentrant library): what a collision collides when its mesh asks for
 * it (<mesh optimization="convex_hull">) and what MuJoCo collides of
 * every mesh, so that an MJCF model's meshes touch alike everywhere.
 */
#include "mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "base.h"

#define fail_null(...)	(phys_fail(__VA_ARGS__), NULL)

/* qhull's first line of complaint, for the error phys reports. */
static void
first_line(char *text, size_t len, char *out, size_t cap)
{
	size_t i;

	for (i = 0; i < len && i + 1 < cap && text[i] != '\n'; i++)
		out[i] = text[i];
	out[i] = '\0';
}

/* The triangle of facet f with its vertices numbered in the hull (ids,
 * by qhull's point id) and turned so that they run counter-clockwise
 * seen from outside. */
static void
facet_triangle(qhT *qh, facetT *f, const unsigned *ids, const double *v,
    unsigned out[3])
{
	vertexT *vertex, **vertexp;
	phys_vec3 a, b, c, n;
	int k = 0;
	unsigned t;

	FOREACHvertex_(f->vertices) {
		if (k < 3)
			out[k] = ids[qh_pointid(qh, vertex->point)];
		k++;
	}
	a = v3(v[3 * out[0]], v[3 * out[0] + 1], v[3 * out[0] + 2]);
	b = v3(v[3 * out[1]], v[3 * out[1] + 1], v[3 * out[1] + 2]);
	c = v3(v[3 * out[2]], v[3 * out[2] + 1], v[3 * out[2] + 2]);
	n = v3_cross(v3_sub(b, a), v3_sub(c, a));
	if (n.x * f->normal[0] + n.y * f->normal[1] + n.z * f->normal[2] < 0) {
		t = out[1];
		out[1] = out[2];
		out[2] = t;
	}
}

/* The hull qhull built, as a closed mesh of its own vertices. */
static struct phys_mesh *
hull_mesh(qhT *qh, const struct phys_mesh *m)
{
	struct phys_mesh *h = phys_xcalloc(1, sizeof *h);
	unsigned *ids = phys_xcalloc(m->nv, sizeof *ids);
	vertexT *vertex;
	facetT *facet;
	size_t i;
	int p;

	FORALLvertices {
		p = qh_pointid(qh, vertex->point);
		ids[p] = (unsigned)h->nv++;
	}
	h->v = phys_xcalloc(3 * h->nv, sizeof *h->v);
	FORALLvertices {
		p = qh_pointid(qh, vertex->point);
		memcpy(h->v + 3 * ids[p], m->v + 3 * p, 3 * sizeof *h->v);
	}
	FORALLfacets
		h->ntri++;
	h->tri = phys_xcalloc(3 * h->ntri, sizeof *h->tri);
	i = 0;
	FORALLfacets
		facet_triangle(qh, facet, ids, h->v, h->tri + 3 * i++);
	free(ids);
	h->lo = h->hi = v3(h->v[0], h->v[1], h->v[2]);
	for (i = 1; i < h->nv; i++) {
		h->lo = v3(fmin(h->lo.x, h->v[3 * i]),
		    fmin(h->lo.y, h->v[3 * i + 1]),
		    fmin(h->lo.z, h->v[3 * i + 2]));
		h->hi = v3(fmax(h->hi.x, h->v[3 * i]),
		    fmax(h->hi.y, h->v[3 * i + 1]),
		    fmax(h->hi.z, h->v[3 * i + 2]));
	}
	h->closed = true;
	return h;
}

/* Spread of the vertices along their thinnest direction, against their
 * extent. */
static double
thickness(const struct phys_mesh *m)
{
	phys_vec3 p0, p1, p2, p, n;
	double best = 0, d, size;
	size_t i;

	if (m->nv < 4)
		return 0;
	p0 = v3(m->v[0], m->v[1], m->v[2]);
	p1 = p0;
	for (i = 0; i < m->nv; i++) {
		p = v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
		if ((d = v3_norm(v3_sub(p, p0))) > best)
			best = d, p1 = p;
	}
	if (!((size = best) > 0))
		return 0;
	p2 = p0, best = 0;
	for (i = 0; i < m->nv; i++) {
		p = v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
		d = v3_norm(v3_cross(v3_sub(p, p0), v3_sub(p1, p0)));
		if (d > best)
			best = d, p2 = p;
	}
	n = v3_cross(v3_sub(p1, p0), v3_sub(p2, p0));
	if (!(v3_norm(n) > 0))
		return 0;
	n = v3_normalize(n);
	best = 0;
	for (i = 0; i < m->nv; i++) {
		p = v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
		best = fmax(best, fabs(v3_dot(v3_sub(p, p0), n)));
	}
	return best / size;
}

bool
phys_mesh_flat(const struct phys_mesh *m)
{
	return thickness(m) < 1e-6;
}

struct phys_mesh *
phys_mesh_hull(const struct phys_mesh *m)
{
	qhT qh_qh, *qh = &qh_qh;
	struct phys_mesh *h = NULL;
	char *said = NULL, line[200];
	size_t len = 0;
	int curlong, totlong, rc;
	FILE *err;

	if (m->nv < 4)
		return fail_null("a mesh of %zu vertices has no convex hull",
		    m->nv);
	if (phys_mesh_flat(m))
		return fail_null("%s", "the mesh has no convex hull (it is "
		    "flat: its vertices lie in one plane)");
	/* qhull speaks on a stream; what it says becomes phys's error */
	err = open_memstream(&said, &len);
	if (!err)
		return fail_null("%s", "out of memory");
	qh_zero(qh, err);
	/* Qt: triangulated facets; the points are read, not kept */
	rc = qh_new_qhull(qh, 3, (int)m->nv, m->v, False, (char *)"qhull Qt",
	    NULL, err);
	if (rc == 0)
		h = hull_mesh(qh, m);
	qh_freeqhull(qh, !qh_ALL);
	qh_memfreeshort(qh, &curlong, &totlong);
	fclose(err);
	if (!h) {
		first_line(said ? said : (char *)"", len, line, sizeof line);
		free(said);
		return fail_null("the mesh has no convex hull (it is flat: "
		    "qhull says \"%s\")", line);
	}
	free(said);
	return h;
}
