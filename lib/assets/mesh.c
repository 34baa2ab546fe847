/*
 * mesh.c - triangle meshes: loading (the file read here, recognised and
 * bounded by meshscan.c, decoded by assimp in meshdec.c's process),
 * polyline extrusion, ellipsoid tessellation, closedness, neighbours
 * and the normals of contacts at their edges, and mass properties.
 */
#include "mesh.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "gltf.h"
#include "meshdec.h"
#include "meshscan.h"
#include "msh.h"

struct phys_mesh_entry {
	char *key;
	struct phys_mesh *mesh;
	struct phys_mesh *hull;	/* its convex hull, once asked for */
	bool hull_tried;	/* asked for: a flat mesh has none */
};

/* ---- building ---- */

static void
add_vertex(struct phys_mesh *m, size_t *cap, phys_vec3 p)
{
	if (m->nv == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		m->v = phys_xrealloc(m->v, *cap * 3 * sizeof *m->v);
	}
	m->v[3 * m->nv] = p.x;
	m->v[3 * m->nv + 1] = p.y;
	m->v[3 * m->nv + 2] = p.z;
	m->nv++;
}

static void
add_triangle(struct phys_mesh *m, size_t *cap, size_t a, size_t b, size_t c)
{
	if (m->ntri == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		m->tri = phys_xrealloc(m->tri, *cap * 3 * sizeof *m->tri);
	}
	m->tri[3 * m->ntri] = (unsigned)a;
	m->tri[3 * m->ntri + 1] = (unsigned)b;
	m->tri[3 * m->ntri + 2] = (unsigned)c;
	m->ntri++;
}

static phys_vec3
vertex(const struct phys_mesh *m, unsigned i)
{
	return v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
}

void
phys_mesh_free(struct phys_mesh *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->tri);
	free(m);
}

/* ---- welding, closedness, orientation ---- */

/* Vertex indices by the position (of the vertices v) they name. */
static int
cmp_position(const void *a, const void *b, void *v)
{
	const double *p = (const double *)v + 3 * *(const unsigned *)a;
	const double *q = (const double *)v + 3 * *(const unsigned *)b;
	int k;

	for (k = 0; k < 3; k++)
		if (p[k] != q[k])
			return p[k] < q[k] ? -1 : 1;
	return *(const unsigned *)a < *(const unsigned *)b ? -1 : 1;
}

/*
 * Files repeat a vertex per face (STL always, others per normal or
 * texture seam): one vertex per position lets edges be matched.
 * Triangles that collapse are dropped.
 */
static void
weld(struct phys_mesh *m)
{
	unsigned *order = phys_xmalloc((m->nv + 1) * sizeof *order);
	unsigned *remap = phys_xmalloc((m->nv + 1) * sizeof *remap);
	double *v = phys_xmalloc((m->nv + 1) * 3 * sizeof *v);
	size_t i, n = 0, t, k = 0;

	for (i = 0; i < m->nv; i++)
		order[i] = (unsigned)i;
	qsort_r(order, m->nv, sizeof *order, cmp_position, m->v);
	for (i = 0; i < m->nv; i++) {
		if (i == 0 || memcmp(m->v + 3 * order[i], m->v +
		    3 * order[i - 1], 3 * sizeof *v) != 0) {
			memcpy(v + 3 * n, m->v + 3 * order[i], 3 * sizeof *v);
			n++;
		}
		remap[order[i]] = (unsigned)(n - 1);
	}
	for (t = 0; t < m->ntri; t++) {
		unsigned a = remap[m->tri[3 * t]], b = remap[m->tri[3 * t + 1]],
		    c = remap[m->tri[3 * t + 2]];

		if (a == b || b == c || a == c)
			continue;
		m->tri[3 * k] = a, m->tri[3 * k + 1] = b, m->tri[3 * k + 2] = c;
		k++;
	}
	free(m->v);
	free(order);
	free(remap);
	m->v = v;
	m->nv = n;
	m->ntri = k;
}

struct edge {
	unsigned lo, hi;
	int forward;		/* 1 when the triangle runs lo -> hi */
	size_t at;		/* 3 t + k: triangle t's vertex k to k + 1 */
};

static int
cmp_edge(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;

	if (p->lo != q->lo)
		return p->lo < q->lo ? -1 : 1;
	if (p->hi != q->hi)
		return p->hi < q->hi ? -1 : 1;
	return p->forward - q->forward;
}

/* Triangle t's edges, each by its two vertex indices in increasing order,
 * sorted by them. */
static struct edge *
sorted_edges(const struct phys_mesh *m)
{
	size_t i, n = 3 * m->ntri;
	struct edge *e = phys_xmalloc((n + 1) * sizeof *e);

	for (i = 0; i < n; i++) {
		unsigned a = m->tri[i], b = m->tri[i % 3 == 2 ? i - 2 : i + 1];

		e[i].lo = a < b ? a : b;
		e[i].hi = a < b ? b : a;
		e[i].forward = a < b;
		e[i].at = i;
	}
	qsort(e, n, sizeof *e, cmp_edge);
	return e;
}

/* Closed and consistently oriented: each edge used exactly twice, once
 * in each direction. */
static bool
is_closed(const struct phys_mesh *m)
{
	struct edge *e;
	size_t i, n = 3 * m->ntri;
	bool ok = m->ntri >= 4;

	if (!ok)
		return false;
	e = sorted_edges(m);
	for (i = 0; i < n && ok; i += 2)
		ok = i + 1 < n && e[i].lo == e[i + 1].lo &&
		    e[i].hi == e[i + 1].hi && e[i].forward == 0 &&
		    e[i + 1].forward == 1 && (i + 2 >= n ||
		    e[i + 2].lo != e[i].lo || e[i + 2].hi != e[i].hi);
	free(e);
	return ok;
}

int *
phys_mesh_neighbours(const struct phys_mesh *m)
{
	size_t i, j, n = 3 * m->ntri;
	struct edge *e = sorted_edges(m);
	int *nb = phys_xmalloc((n + 1) * sizeof *nb);

	for (i = 0; i < n; i++)
		nb[i] = -1;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && e[j].lo == e[i].lo && e[j].hi == e[i].hi;
		    j++)
			;
		if (j - i == 2 && e[i].at / 3 != e[i + 1].at / 3) {
			nb[e[i].at] = (int)(e[i + 1].at / 3);
			nb[e[i + 1].at] = (int)(e[i].at / 3);
		}
	}
	free(e);
	return nb;
}

/* Triangle t's normal, zero for one of no area. */
static phys_vec3
tri_normal(const struct phys_mesh *m, size_t t)
{
	phys_vec3 a = vertex(m, m->tri[3 * t]), b = vertex(m, m->tri[3 * t + 1]),
	    c = vertex(m, m->tri[3 * t + 2]);
	phys_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));

	return v3_norm(n) > 0 ? v3_normalize(n) : n;
}

/* The point of segment ab nearest to p. */
static phys_vec3
segment_nearest(phys_vec3 p, phys_vec3 a, phys_vec3 b)
{
	phys_vec3 ab = v3_sub(b, a);
	double l = v3_dot(ab, ab), s = l > 0 ? v3_dot(v3_sub(p, a), ab) / l : 0;

	return v3_add(a, v3_scale(ab, fmin(fmax(s, 0), 1)));
}

/* Triangle t's vertices, in x. */
static void
tri_vertices(const struct phys_mesh *m, size_t t, phys_vec3 x[3])
{
	int k;

	for (k = 0; k < 3; k++)
		x[k] = vertex(m, m->tri[3 * t + (size_t)k]);
}

/*
 * The edge of triangle x (of normal nf) nearest p, k for vertex k to
 * k + 1, the square of p's distance to it in *d2, and in *over whether p
 * is over the triangle (within its edges, seen along nf).
 */
static int
nearest_edge(const phys_vec3 x[3], phys_vec3 nf, phys_vec3 p, double *d2,
    bool *over)
{
	phys_vec3 e, q;
	double d;
	int k, near = 0;

	*d2 = HUGE_VAL;
	*over = true;
	for (k = 0; k < 3; k++) {
		e = v3_sub(x[(k + 1) % 3], x[k]);
		*over = *over && v3_dot(nf, v3_cross(e, v3_sub(p, x[k]))) *
		    v3_dot(nf, v3_cross(e, v3_sub(x[(k + 2) % 3], x[k]))) >= 0;
		q = v3_sub(p, segment_nearest(p, x[k], x[(k + 1) % 3]));
		d = v3_dot(q, q);
		if (d < *d2)
			*d2 = d, near = k;
	}
	return near;
}

phys_vec3
phys_mesh_nearest_on_triangle(const struct phys_mesh *m, size_t t,
    phys_vec3 p)
{
	phys_vec3 x[3], nf = tri_normal(m, t);
	double d2;
	bool over;
	int k;

	tri_vertices(m, t, x);
	k = nearest_edge(x, nf, p, &d2, &over);
	if (over && v3_norm(nf) > 0)
		return v3_sub(p, v3_scale(nf, v3_dot(v3_sub(p, x[0]), nf)));
	return segment_nearest(p, x[k], x[(k + 1) % 3]);
}

phys_vec3
phys_mesh_edge_normal(const struct phys_mesh *m, const int *nb, size_t t,
    phys_vec3 p, phys_vec3 n, phys_vec3 side, double reach)
{
	phys_vec3 x[3], nt = tri_normal(m, t), nf = nt, ng, e, out;
	double d, longest = 0, a, ag;
	bool over;
	int k, near;
	unsigned from, to;
	size_t u, j;

	if (v3_norm(nt) == 0)
		return n;
	/* the side of t the body is on: where its origin is, unless that is
	 * in t's plane; n's side then (an edge's normal may lie in it) */
	d = v3_dot(nt, v3_sub(side, p));
	if (fabs(d) > 1e-9 * v3_norm(v3_sub(side, p)) ? d < 0 :
	    v3_dot(nt, n) < 0)
		nf = v3_scale(nt, -1);
	tri_vertices(m, t, x);
	for (k = 0; k < 3; k++) {
		e = v3_sub(x[(k + 1) % 3], x[k]);
		longest = fmax(longest, v3_dot(e, e));
	}
	near = nearest_edge(x, nf, p, &d, &over);
	/* on the face, away from its edges (squares compared): the face's
	 * own */
	if (over && d > fmax(1e-18 * longest, reach * reach))
		return nf;
	if (nb[3 * t + (size_t)near] < 0)
		return n;	/* the mesh's border: any side may touch */
	u = (size_t)nb[3 * t + (size_t)near];
	from = m->tri[3 * t + (size_t)near];
	to = m->tri[3 * t + (size_t)(near + 1) % 3];
	/* u's normal on nf's side: u runs the edge the other way when wound
	 * as t, and then its normal is on nt's */
	for (j = 0; j < 3 && m->tri[3 * u + j] != from; j++)
		;
	ng = tri_normal(m, u);
	if ((j < 3 && m->tri[3 * u + (j + 1) % 3] == to) !=
	    (v3_dot(nf, nt) < 0))
		ng = v3_scale(ng, -1);
	/* out: in t's plane, across the edge from t, towards u */
	e = v3_normalize(v3_sub(x[(near + 1) % 3], x[near]));
	out = v3_cross(e, nf);
	if (v3_dot(out, v3_sub(x[(near + 2) % 3], x[near])) > 0)
		out = v3_scale(out, -1);
	ag = atan2(v3_dot(ng, out), v3_dot(ng, nf));
	if (ag <= 1e-9)		/* flat, or a valley: the face's own */
		return nf;
	/* a ridge: a normal between the two faces' */
	a = atan2(v3_dot(n, out), v3_dot(n, nf));
	return a < 0 ? nf : a > ag ? ng : n;
}

static void
bounds(struct phys_mesh *m)
{
	size_t i;

	m->lo = m->hi = m->nv ? vertex(m, 0) : v3(0, 0, 0);
	for (i = 1; i < m->nv; i++) {
		phys_vec3 p = vertex(m, (unsigned)i);

		m->lo = v3(fmin(m->lo.x, p.x), fmin(m->lo.y, p.y),
		    fmin(m->lo.z, p.z));
		m->hi = v3(fmax(m->hi.x, p.x), fmax(m->hi.y, p.y),
		    fmax(m->hi.z, p.z));
	}
}

/* A copy stretched by s along x, y, z: a mirroring (an odd number of
 * negative factors) turns the triangles over so they still face out. */
struct phys_mesh *
phys_mesh_scaled(const struct phys_mesh *m, phys_vec3 s)
{
	struct phys_mesh *out = phys_xcalloc(1, sizeof *out);
	bool flip = s.x * s.y * s.z < 0;
	size_t i;

	out->nv = m->nv;
	out->ntri = m->ntri;
	out->closed = m->closed;
	out->v = phys_xmalloc((m->nv ? m->nv : 1) * 3 * sizeof *out->v);
	out->tri = phys_xmalloc((m->ntri ? m->ntri : 1) * 3 * sizeof *out->tri);
	for (i = 0; i < m->nv; i++) {
		out->v[3 * i] = m->v[3 * i] * s.x;
		out->v[3 * i + 1] = m->v[3 * i + 1] * s.y;
		out->v[3 * i + 2] = m->v[3 * i + 2] * s.z;
	}
	for (i = 0; i < m->ntri; i++) {
		out->tri[3 * i] = m->tri[3 * i];
		out->tri[3 * i + 1] = m->tri[3 * i + (flip ? 2 : 1)];
		out->tri[3 * i + 2] = m->tri[3 * i + (flip ? 1 : 2)];
	}
	bounds(out);
	return out;
}

/* A copy with every vertex carried by the pose p. */
struct phys_mesh *
phys_mesh_moved(const struct phys_mesh *m, phys_pose p)
{
	struct phys_mesh *out = phys_mesh_scaled(m, (phys_vec3){ 1, 1, 1 });
	size_t i;

	for (i = 0; i < m->nv; i++) {
		phys_vec3 v = phys_pose_apply(p, (phys_vec3){ m->v[3 * i],
		    m->v[3 * i + 1], m->v[3 * i + 2] });

		out->v[3 * i] = v.x;
		out->v[3 * i + 1] = v.y;
		out->v[3 * i + 2] = v.z;
	}
	bounds(out);
	return out;
}

/* Signed volume, about the box centre for accuracy far from the origin. */
static double
signed_volume(const struct phys_mesh *m)
{
	phys_vec3 o = v3_scale(v3_add(m->lo, m->hi), 0.5);
	double vol = 0;
	size_t t;

	for (t = 0; t < m->ntri; t++) {
		phys_vec3 a = v3_sub(vertex(m, m->tri[3 * t]), o);
		phys_vec3 b = v3_sub(vertex(m, m->tri[3 * t + 1]), o);
		phys_vec3 c = v3_sub(vertex(m, m->tri[3 * t + 2]), o);

		vol += v3_dot(a, v3_cross(b, c)) / 6;
	}
	return vol;
}

/* Weld, bound, and for a closed mesh make the triangles face outwards
 * (files with inward windings are common; ODE needs them outwards). */
static void
finish(struct phys_mesh *m)
{
	size_t t;
	unsigned s;

	weld(m);
	bounds(m);
	m->closed = is_closed(m);
	if (m->closed && signed_volume(m) < 0)
		for (t = 0; t < m->ntri; t++) {
			s = m->tri[3 * t + 1];
			m->tri[3 * t + 1] = m->tri[3 * t + 2];
			m->tri[3 * t + 2] = s;
		}
}

/* ---- loading ---- */

static void
center_and_scale(struct phys_mesh *m, const struct phys_mesh_spec *spec)
{
	phys_vec3 c = v3(0, 0, 0), s = spec->scale;
	size_t i;

	if (spec->center && spec->submesh) {
		bounds(m);
		c = v3_scale(v3_add(m->lo, m->hi), 0.5);
	}
	for (i = 0; i < m->nv; i++) {
		m->v[3 * i] = (m->v[3 * i] - c.x) * s.x;
		m->v[3 * i + 1] = (m->v[3 * i + 1] - c.y) * s.y;
		m->v[3 * i + 2] = (m->v[3 * i + 2] - c.z) * s.z;
	}
	/* A mirroring scale turns the triangles inside out. */
	if (s.x * s.y * s.z < 0)
		for (i = 0; i < m->ntri; i++) {
			unsigned t = m->tri[3 * i + 1];

			m->tri[3 * i + 1] = m->tri[3 * i + 2];
			m->tri[3 * i + 2] = t;
		}
}

/*
 * A mesh file's bytes: a regular file (a FIFO could block for ever, a
 * device never end), its size checked before anything is read.
 */
static char *
read_mesh_file(const char *path, size_t *len)
{
	struct stat st;
	char *data;
	ssize_t k = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		phys_fail("%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
			phys_fail("%s", strerror(EISDIR));
		else
			phys_fail("not a regular file (%s)", fstat(fd, &st) ==
			    0 ? phys_file_kind(st.st_mode) : strerror(errno));
		close(fd);
		return NULL;
	}
	if ((uintmax_t)st.st_size > PHYS_MESH_MAX_BYTES) {
		phys_fail("%jd bytes, more than the %d MB of a mesh file",
		    (intmax_t)st.st_size, PHYS_MESH_MAX_MB);
		close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	data = phys_xmalloc(*len + 1);
	k = phys_read_full(fd, data, *len);
	close(fd);
	if (k < 0 || (size_t)k < *len) {
		phys_fail("read error: %s", k < 0 ? strerror(errno) :
		    "the file shrank while it was read");
		free(data);
		return NULL;
	}
	data[*len] = '\0';
	return data;
}

/* NaN and infinite coordinates (read, or made by a scale or a unit)
 * would reach the engines as they are. */
static int
check_finite(const struct phys_mesh *m)
{
	size_t i;

	for (i = 0; i < 3 * m->nv; i++)
		if (!isfinite(m->v[i]))
			return phys_fail("vertex %zu has a coordinate that is "
			    "not a finite number (NaN or infinite)", i / 3);
	return 0;
}

/* After welding: is any triangle left, and does any have an area? */
static int
check_area(const struct phys_mesh *m)
{
	size_t t;

	for (t = 0; t < m->ntri; t++) {
		phys_vec3 a = vertex(m, m->tri[3 * t]);
		phys_vec3 b = vertex(m, m->tri[3 * t + 1]);
		phys_vec3 c = vertex(m, m->tri[3 * t + 2]);

		if (v3_norm(v3_cross(v3_sub(b, a), v3_sub(c, a))) > 0)
			return 0;
	}
	if (m->ntri == 0)
		return phys_fail("%s", "the mesh has no triangles (once "
		    "triangles whose corners coincide are dropped)");
	return phys_fail("%s", "no triangle of the mesh has an area: they "
	    "all lie on one line");
}

/* Scaled, checked and finished: a mesh as every reader hands it on. */
static struct phys_mesh *
shape(struct phys_mesh *m, const struct phys_mesh_spec *spec)
{
	center_and_scale(m, spec);
	if (check_finite(m) < 0) {
		phys_mesh_free(m);
		return NULL;
	}
	finish(m);
	if (check_area(m) < 0) {
		phys_mesh_free(m);
		return NULL;
	}
	return m;
}

/* A face's index as a vertex's: a whole number below nv. */
static int
face_index(double f, size_t nv, unsigned *out)
{
	if (!(f >= 0 && f < (double)nv && f == floor(f)))
		return phys_fail("face index %g is not one of the %zu vertices "
		    "(0 to %zu)", f, nv, nv - 1);
	*out = (unsigned)f;
	return 0;
}

/* The lists as a mesh, unscaled; no faces: the vertices' hull. */
static struct phys_mesh *
lists_mesh(const double *v, size_t nv, const double *face, size_t nf)
{
	struct phys_mesh *m, *h;
	size_t i;

	if (nv % 3 || nf % 3) {
		phys_fail("%zu %s: three a %s", nv % 3 ? nv : nf, nv % 3 ?
		    "vertex coordinates" : "face indices", nv % 3 ? "vertex" :
		    "triangle");
		return NULL;
	}
	if (nv / 3 < 4 || nv / 3 > UINT32_MAX ||
	    nf / 3 > PHYS_MESH_MAX_TRIANGLES) {
		phys_fail("%zu vertices and %zu triangles: 4 vertices or more "
		    "(as MuJoCo wants), at most %u triangles", nv / 3, nf / 3,
		    PHYS_MESH_MAX_TRIANGLES);
		return NULL;
	}
	m = phys_xcalloc(1, sizeof *m);
	m->nv = nv / 3;
	m->v = phys_xcalloc(nv, sizeof *m->v);
	memcpy(m->v, v, nv * sizeof *v);
	m->ntri = nf / 3;
	m->tri = phys_xcalloc(nf ? nf : 1, sizeof *m->tri);
	for (i = 0; i < nf; i++)
		if (face_index(face[i], m->nv, &m->tri[i]) < 0) {
			phys_mesh_free(m);
			return NULL;
		}
	if (m->ntri)
		return m;
	h = phys_mesh_hull(m);
	phys_mesh_free(m);
	return h;
}

struct phys_mesh *
phys_mesh_of_lists(const double *v, size_t nv, const double *face,
    size_t nf, phys_vec3 scale)
{
	struct phys_mesh_spec spec = { .scale = scale };
	struct phys_mesh *m = lists_mesh(v, nv, face, nf);

	return m ? shape(m, &spec) : NULL;
}

/* MuJoCo's MSH file: one mesh, no submeshes. */
static struct phys_mesh *
msh_mesh(const char *data, size_t len, const char *submesh)
{
	struct phys_mesh *m;
	double *v, *face;
	size_t nv, nf;

	if (submesh) {
		phys_fail("an MSH file holds one mesh: no submesh '%s'",
		    submesh);
		return NULL;
	}
	if (phys_msh_read(data, len, &v, &nv, &face, &nf) < 0)
		return NULL;
	m = lists_mesh(v, nv, face, nf);
	free(v);
	free(face);
	return m;
}

/* A glTF file and its buffers, packed into one GLB, decoded. */
static struct phys_mesh *
gltf_decoded(const char *data, size_t len, const struct phys_mesh_spec *spec)
{
	struct phys_mesh_scan scan;
	struct phys_mesh *m;
	size_t n;
	char *glb;

	if (phys_gltf_scan(data, len, &scan) < 0)
		return NULL;
	if (scan.triangles > PHYS_MESH_MAX_TRIANGLES) {
		phys_fail("glTF: more than %u triangles once instances are "
		    "counted", PHYS_MESH_MAX_TRIANGLES);
		return NULL;
	}
	if (!(glb = phys_gltf_pack(data, len, spec->path, &n)))
		return NULL;
	m = phys_mesh_decode(glb, n, PHYS_MESH_GLTF, spec->submesh);
	free(glb);
	if (m)
		m->gltf = true;
	return m;
}

/* The file's meshes as its format's decoder reads them. */
static struct phys_mesh *
decoded(char *data, size_t len, const struct phys_mesh_spec *spec)
{
	struct phys_mesh_scan scan;
	struct phys_mesh *m;
	size_t left_out;

	if (phys_msh_named(spec->path))
		return msh_mesh(data, len, spec->submesh);
	if (phys_gltf_recognised(data, len))
		return gltf_decoded(data, len, spec);
	if (phys_mesh_scan(data, len, &scan) < 0)
		return NULL;
	phys_mesh_confine(data, len, scan.format);
	left_out = spec->first_object ?
	    phys_mesh_first_object(data, len, scan.format) : 0;
	m = phys_mesh_decode(data, len, scan.format, spec->submesh);
	if (m)
		m->left_out = left_out;
	return m;
}

static struct phys_mesh *
load(const struct phys_mesh_spec *spec)
{
	struct phys_mesh *m;
	size_t len;
	char *data = read_mesh_file(spec->path, &len);

	if (!data)
		return NULL;
	m = decoded(data, len, spec);
	free(data);
	if (!m)
		return NULL;
	if (m->ntri == 0) {
		phys_mesh_free(m);
		phys_fail("%s", "the mesh has no triangles");
		return NULL;
	}
	return shape(m, spec);
}

struct phys_mesh *
phys_mesh_load(const struct phys_mesh_spec *spec)
{
	struct phys_mesh *m = load(spec);
	char *why;

	if (!m) {
		why = phys_xstrdup(phys_error());
		phys_fail("mesh: %s: %s", spec->path, why);
		free(why);
	}
	return m;
}

/* ---- polylines: ear clipping and extrusion ---- */

static double
cross2(const double *o, const double *a, const double *b)
{
	return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static bool
inside_triangle(const double *p, const double *a, const double *b,
    const double *c)
{
	return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 &&
	    cross2(c, a, p) >= 0;
}

/* Winding-number test: is p inside the polygon? */
static bool
inside_polygon(const double *p, const double *xy, size_t n)
{
	size_t i, j;
	bool in = false;

	for (i = 0, j = n - 1; i < n; j = i++)
		if ((xy[2 * i + 1] > p[1]) != (xy[2 * j + 1] > p[1]) &&
		    p[0] < (xy[2 * j] - xy[2 * i]) * (p[1] - xy[2 * i + 1]) /
		    (xy[2 * j + 1] - xy[2 * i + 1]) + xy[2 * i])
			in = !in;
	return in;
}

/*
 * Triangulates the counter-clockwise polygon idx[0..n) (indices into xy)
 * by clipping ears: a convex corner whose triangle holds no other
 * corner. Appends triangles of polygon indices; -1 when no ear is left
 * (the polygon crosses itself).
 */
static int
ear_clip(const double *xy, size_t *idx, size_t n, size_t *out)
{
	size_t k = 0, i, j, guard = 0;

	while (n > 3) {
		bool found = false;

		for (i = 0; i < n && !found; i++) {
			size_t a = idx[(i + n - 1) % n], b = idx[i],
			    c = idx[(i + 1) % n];

			if (cross2(xy + 2 * a, xy + 2 * b, xy + 2 * c) <= 0)
				continue;
			found = true;
			for (j = 0; j < n && found; j++) {
				size_t p = idx[j];

				if (p != a && p != b && p != c &&
				    inside_triangle(xy + 2 * p, xy + 2 * a,
				    xy + 2 * b, xy + 2 * c))
					found = false;
			}
			if (found) {
				out[k++] = a, out[k++] = b, out[k++] = c;
				memmove(idx + i, idx + i + 1,
				    (n - i - 1) * sizeof *idx);
				n--;
			}
		}
		if (!found || ++guard > 1000000)
			return -1;
	}
	out[k++] = idx[0], out[k++] = idx[1], out[k++] = idx[2];
	return (int)(k / 3);
}

/* A polyline's corners: repeated points (the closing one too) and points
 * on a straight stretch dropped; its signed area (positive: counter-
 * clockwise). -1 when fewer than three corners enclose an area. */
static int
clean_ring(const double *pts, size_t n, double **out, size_t *nout,
    double *area)
{
	double *xy = phys_xmalloc((2 * n + 2) * sizeof *xy);
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (k == 0 || pts[2 * i] != xy[2 * k - 2] ||
		    pts[2 * i + 1] != xy[2 * k - 1]) {
			xy[2 * k] = pts[2 * i], xy[2 * k + 1] = pts[2 * i + 1];
			k++;
		}
	while (k > 1 && xy[0] == xy[2 * k - 2] && xy[1] == xy[2 * k - 1])
		k--;
	/* Points on a straight stretch are no corners: no ear has them. */
	for (i = 0; k > 3 && i < k;)
		if (cross2(xy + 2 * ((i + k - 1) % k), xy + 2 * i,
		    xy + 2 * ((i + 1) % k)) == 0) {
			memmove(xy + 2 * i, xy + 2 * i + 2,
			    2 * (k - i - 1) * sizeof *xy);
			k--;
		} else
			i++;
	*area = 0;
	for (i = 0; i < k; i++)
		*area += xy[2 * i] * xy[2 * ((i + 1) % k) + 1] -
		    xy[2 * ((i + 1) % k)] * xy[2 * i + 1];
	if (k < 3 || *area == 0) {
		free(xy);
		return phys_fail("%s", "a polyline needs three points "
		    "enclosing an area");
	}
	*out = xy;
	*nout = k;
	return 0;
}

/* Whether segments ab and cd cross (touching at an end is no crossing). */
static bool
segments_cross(const double *a, const double *b, const double *c,
    const double *d)
{
	double d1 = cross2(a, b, c), d2 = cross2(a, b, d);
	double d3 = cross2(c, d, a), d4 = cross2(c, d, b);

	return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) &&
	    ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/* Whether the segment between points a and b (indices into xy) crosses
 * one of the edges (pairs of indices) e[0..2n). */
static bool
blocked(const double *xy, size_t a, size_t b, const size_t *e, size_t n)
{
	size_t i, p, q;

	for (i = 0; i < n; i++) {
		p = e[2 * i];
		q = e[2 * i + 1];
		if (p == a || p == b || q == a || q == b)
			continue;
		if (segments_cross(xy + 2 * a, xy + 2 * b, xy + 2 * p,
		    xy + 2 * q))
			return true;
	}
	return false;
}

/*
 * A hole (clockwise, points first..first+nh of xy) joined to the ring
 * (counter-clockwise) by a bridge from its right-most corner to the
 * nearest ring corner the bridge reaches without crossing an edge: the
 * ring runs out along the bridge, round the hole and back, one polygon
 * that ear clipping takes. e[0..2ne): the edges no bridge may cross,
 * those of the outline, the holes and the bridges made before.
 */
#define BRIDGE_WORK 100000000

static int
bridge_hole(const double *xy, size_t **ring, size_t *n, size_t first,
    size_t nh, size_t *e, size_t *ne, size_t *work)
{
	size_t i, m = first, best = 0, k, v;
	double d, bestd = HUGE_VAL;
	size_t *r;

	for (i = first; i < first + nh; i++)
		if (xy[2 * i] > xy[2 * m])
			m = i;
	for (i = 0; i < *n; i++) {
		v = (*ring)[i];
		d = hypot(xy[2 * v] - xy[2 * m], xy[2 * v + 1] - xy[2 * m + 1]);
		if (d >= bestd)
			continue;
		/* each look costs every edge: bounded, untrusted input */
		if ((*work += *ne) > BRIDGE_WORK)
			return phys_fail("%s", "polylines with holes too many "
			    "or too detailed to join (over 10^8 steps)");
		if (!blocked(xy, v, m, e, *ne)) {
			bestd = d;
			best = i;
		}
	}
	if (bestd == HUGE_VAL)
		return phys_fail("%s", "a hole of a polyline cannot be "
		    "reached from its outline (do the polylines cross?)");
	e[2 * *ne] = (*ring)[best];
	e[2 * *ne + 1] = m;
	(*ne)++;
	r = phys_xmalloc((*n + nh + 2) * sizeof *r);
	k = 0;
	for (i = 0; i <= best; i++)
		r[k++] = (*ring)[i];
	for (i = 0; i <= nh; i++)
		r[k++] = first + (m - first + i) % nh;
	for (i = best; i < *n; i++)
		r[k++] = (*ring)[i];
	free(*ring);
	*ring = r;
	*n = k;
	return 0;
}

/* The walls of a ring of n corners from first (at base + first below,
 * base + total + first above), its edges walked in its own direction:
 * outwards of the solid for an outline (counter-clockwise) and for a
 * hole (clockwise). */
static void
walls(struct phys_mesh *m, size_t *capt, size_t base, size_t total,
    size_t first, size_t n)
{
	size_t i, a, b;

	for (i = 0; i < n; i++) {
		a = first + i;
		b = first + (i + 1) % n;
		add_triangle(m, capt, base + a, base + b, base + total + b);
		add_triangle(m, capt, base + a, base + total + b,
		    base + total + a);
	}
}

/* The right-most x of the n points from first. */
static double
right_most(const double *xy, size_t first, size_t n)
{
	double x = -HUGE_VAL;
	size_t i;

	for (i = first; i < first + n; i++)
		x = fmax(x, xy[2 * i]);
	return x;
}

/* Ring k of a group turned to the way it must run: the outline (k == 0)
 * counter-clockwise, holes clockwise. */
static void
orient(double *xy, size_t first, size_t n, double area, bool outline)
{
	size_t j, o;
	double t;

	if ((area > 0) == outline)
		return;
	for (j = 0; j < n / 2; j++) {
		o = first + n - 1 - j;
		t = xy[2 * (first + j)];
		xy[2 * (first + j)] = xy[2 * o], xy[2 * o] = t;
		t = xy[2 * (first + j) + 1];
		xy[2 * (first + j) + 1] = xy[2 * o + 1], xy[2 * o + 1] = t;
	}
}

/* The caps and walls of the group's points, once its ring is clipped. */
static void
extrude_caps(struct phys_mesh *m, size_t *capv, size_t *capt,
    const double *xy, size_t total, const size_t *tri, int nt,
    const size_t *first, const size_t *count, size_t nmembers, double height)
{
	size_t base = m->nv, i;

	for (i = 0; i < total; i++)
		add_vertex(m, capv, v3(xy[2 * i], xy[2 * i + 1], 0));
	for (i = 0; i < total; i++)
		add_vertex(m, capv, v3(xy[2 * i], xy[2 * i + 1], height));
	for (i = 0; i < (size_t)nt; i++) {
		add_triangle(m, capt, base + total + tri[3 * i],
		    base + total + tri[3 * i + 1], base + total + tri[3 * i + 2]);
		add_triangle(m, capt, base + tri[3 * i], base + tri[3 * i + 2],
		    base + tri[3 * i + 1]);
	}
	for (i = 0; i < nmembers; i++)
		walls(m, capt, base, total, first[i], count[i]);
}

/*
 * An outline and the holes in it, extruded: the caps from the outline
 * bridged to each hole in turn, the right-most hole first.
 */
static int
extrude_group(struct phys_mesh *m, size_t *capv, size_t *capt,
    double *const *rings, const size_t *nr, const double *areas,
    const size_t *members, size_t nm, double height)
{
	size_t total = 0, i, j, k, n, ne = 0, work = 0;
	size_t *first = phys_xmalloc(nm * sizeof *first);
	size_t *count = phys_xmalloc(nm * sizeof *count);
	size_t *order = phys_xmalloc(nm * sizeof *order);
	size_t *ring, *tri, *e;
	double *xy;
	int nt, rc = 0;

	for (i = 0; i < nm; i++) {
		first[i] = total;
		count[i] = nr[members[i]];
		total += count[i];
	}
	xy = phys_xmalloc(2 * total * sizeof *xy);
	e = phys_xmalloc(2 * (total + nm) * sizeof *e);
	for (i = 0; i < nm; i++) {
		memcpy(xy + 2 * first[i], rings[members[i]],
		    2 * count[i] * sizeof *xy);
		orient(xy, first[i], count[i], areas[members[i]], i == 0);
		for (j = 0; j < count[i]; j++, ne++) {
			e[2 * ne] = first[i] + j;
			e[2 * ne + 1] = first[i] + (j + 1) % count[i];
		}
		order[i] = i;
	}
	for (i = 1; i < nm; i++)	/* holes, right-most first */
		for (j = i + 1; j < nm; j++)
			if (right_most(xy, first[order[j]], count[order[j]]) >
			    right_most(xy, first[order[i]], count[order[i]])) {
				k = order[i], order[i] = order[j], order[j] = k;
			}
	n = count[0];
	ring = phys_xmalloc(n * sizeof *ring);
	for (i = 0; i < n; i++)
		ring[i] = i;
	for (i = 1; i < nm && rc == 0; i++)
		rc = bridge_hole(xy, &ring, &n, first[order[i]],
		    count[order[i]], e, &ne, &work);
	tri = phys_xmalloc(3 * (n + 2) * sizeof *tri);
	nt = rc < 0 ? -1 : ear_clip(xy, ring, n, tri);
	if (rc == 0 && nt < 0)
		rc = phys_fail("%s", "a polyline crosses itself");
	if (rc == 0)
		extrude_caps(m, capv, capt, xy, total, tri, nt, first, count,
		    nm, height);
	free(xy);
	free(e);
	free(first);
	free(count);
	free(order);
	free(ring);
	free(tri);
	return rc;
}

/* How many of the other rings hold ring i (by its first corner). */
static size_t
depth(double *const *rings, const size_t *nr, size_t n, size_t i)
{
	size_t j, d = 0;

	for (j = 0; j < n; j++)
		if (j != i && inside_polygon(rings[i], rings[j], nr[j]))
			d++;
	return d;
}

/*
 * As Gazebo extrudes the polylines of one geometry: a polyline inside
 * another is a hole in it, one inside a hole an island again.
 */
struct phys_mesh *
phys_mesh_extrude(const double *const *xy, const size_t *npoints,
    size_t npolygons, double height)
{
	struct phys_mesh *m;
	double **rings, *areas;
	size_t capv = 0, capt = 0, i, j, *nr, *dep, *members, nm;
	int rc = 0;

	if (!(height > 0) || !isfinite(height)) {
		phys_fail("%s", "a polyline's height must be positive");
		return NULL;
	}
	rings = phys_xcalloc(npolygons + 1, sizeof *rings);
	nr = phys_xcalloc(npolygons + 1, sizeof *nr);
	areas = phys_xcalloc(npolygons + 1, sizeof *areas);
	dep = phys_xcalloc(npolygons + 1, sizeof *dep);
	members = phys_xcalloc(npolygons + 1, sizeof *members);
	for (i = 0; i < npolygons && rc == 0; i++)
		rc = clean_ring(xy[i], npoints[i], &rings[i], &nr[i],
		    &areas[i]);
	for (i = 0; i < npolygons && rc == 0; i++)
		dep[i] = depth(rings, nr, npolygons, i);
	m = phys_xcalloc(1, sizeof *m);
	/* each outline (even depth) with the holes one deeper inside it */
	for (i = 0; i < npolygons && rc == 0; i++) {
		if (dep[i] % 2)
			continue;
		members[0] = i;
		nm = 1;
		for (j = 0; j < npolygons; j++)
			if (dep[j] == dep[i] + 1 && inside_polygon(rings[j],
			    rings[i], nr[i]))
				members[nm++] = j;
		rc = extrude_group(m, &capv, &capt, rings, nr, areas, members,
		    nm, height);
	}
	for (i = 0; i < npolygons; i++)
		free(rings[i]);
	free(rings);
	free(nr);
	free(areas);
	free(dep);
	free(members);
	if (rc < 0) {
		phys_mesh_free(m);
		return NULL;
	}
	finish(m);
	return m;
}

/* ---- ellipsoids ---- */

enum { ELLIPSOID_STACKS = 16, ELLIPSOID_SLICES = 32 };

struct phys_mesh *
phys_mesh_ellipsoid(double a, double b, double c)
{
	struct phys_mesh *m = phys_xcalloc(1, sizeof *m);
	size_t capv = 0, capt = 0, i, j, top, bottom, ring;

	add_vertex(m, &capv, v3(0, 0, c));
	for (i = 1; i < ELLIPSOID_STACKS; i++) {
		double th = M_PI * (double)i / ELLIPSOID_STACKS;

		for (j = 0; j < ELLIPSOID_SLICES; j++) {
			double ph = 2 * M_PI * (double)j / ELLIPSOID_SLICES;

			add_vertex(m, &capv, v3(a * sin(th) * cos(ph),
			    b * sin(th) * sin(ph), c * cos(th)));
		}
	}
	add_vertex(m, &capv, v3(0, 0, -c));
	top = 0;
	bottom = m->nv - 1;
	for (j = 0; j < ELLIPSOID_SLICES; j++) {
		size_t j1 = (j + 1) % ELLIPSOID_SLICES;

		add_triangle(m, &capt, top, 1 + j, 1 + j1);
		ring = 1 + (ELLIPSOID_STACKS - 2) * ELLIPSOID_SLICES;
		add_triangle(m, &capt, bottom, ring + j1, ring + j);
		for (i = 0; i + 2 < ELLIPSOID_STACKS; i++) {
			size_t u = 1 + i * ELLIPSOID_SLICES, d = u +
			    ELLIPSOID_SLICES;

			add_triangle(m, &capt, u + j, d + j, d + j1);
			add_triangle(m, &capt, u + j, d + j1, u + j1);
		}
	}
	finish(m);
	return m;
}

/* ---- cones ---- */

enum { CONE_SLICES = 32 };

struct phys_mesh *
phys_mesh_cone(double r, double length)
{
	struct phys_mesh *m = phys_xcalloc(1, sizeof *m);
	size_t capv = 0, capt = 0, j;

	add_vertex(m, &capv, v3(0, 0, length / 2));	/* 0: the apex */
	add_vertex(m, &capv, v3(0, 0, -length / 2));	/* 1: the base's centre */
	for (j = 0; j < CONE_SLICES; j++) {
		double ph = 2 * M_PI * (double)j / CONE_SLICES;

		add_vertex(m, &capv, v3(r * cos(ph), r * sin(ph), -length / 2));
	}
	for (j = 0; j < CONE_SLICES; j++) {
		size_t a = 2 + j, b = 2 + (j + 1) % CONE_SLICES;

		add_triangle(m, &capt, 0, a, b);
		add_triangle(m, &capt, 1, b, a);
	}
	finish(m);
	return m;
}

/* ---- mass properties ---- */

int
phys_mesh_mass(const struct phys_mesh *m, double *volume, phys_vec3 *com,
    phys_mat3 *I)
{
	phys_vec3 o = v3_scale(v3_add(m->lo, m->hi), 0.5), c = v3(0, 0, 0);
	double vol = 0, S[3][3] = { { 0 } }, tr;
	size_t t;
	int i, j;

	if (!m->closed)
		return phys_fail("%s", "the mesh is open (not watertight: some "
		    "edge does not join exactly two consistently wound "
		    "triangles), so it bounds no volume");
	/*
	 * Divergence theorem over the signed tetrahedra (o, a, b, c): each
	 * has volume d/6, d = a.(b x c), centroid (a+b+c)/4 and second
	 * moments d/120 (sum v v^T + (sum v)(sum v)^T).
	 */
	for (t = 0; t < m->ntri; t++) {
		phys_vec3 v[3], s;
		double d;
		int k;

		for (k = 0; k < 3; k++)
			v[k] = v3_sub(vertex(m, m->tri[3 * t + k]), o);
		d = v3_dot(v[0], v3_cross(v[1], v[2]));
		s = v3_add(v3_add(v[0], v[1]), v[2]);
		vol += d / 6;
		c = v3_add(c, v3_scale(s, d / 24));
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++) {
				double si = (&s.x)[i], sj = (&s.x)[j], vv = 0;

				for (k = 0; k < 3; k++)
					vv += (&v[k].x)[i] * (&v[k].x)[j];
				S[i][j] += d / 120 * (vv + si * sj);
			}
	}
	if (!(vol > 0))
		return phys_fail("%s", "the mesh bounds no volume");
	c = v3_scale(c, 1 / vol);
	for (i = 0; i < 3; i++)		/* second moments about the centre */
		for (j = 0; j < 3; j++)
			S[i][j] -= vol * (&c.x)[i] * (&c.x)[j];
	tr = S[0][0] + S[1][1] + S[2][2];
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			I->m[i][j] = (i == j ? tr : 0) - S[i][j];
	*volume = vol;
	*com = v3_add(c, o);
	return 0;
}

/* ---- the cache ---- */

static char *
spec_key(const struct phys_mesh_spec *s)
{
	return phys_xasprintf("%s\n%s\n%d %d\n%.17g %.17g %.17g", s->path,
	    s->submesh ? s->submesh : "", s->center, s->first_object,
	    s->scale.x, s->scale.y, s->scale.z);
}

static const struct phys_mesh *
keep(struct phys_mesh_cache *c, char *key, struct phys_mesh *m)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->e = phys_xrealloc(c->e, c->cap * sizeof *c->e);
	}
	c->e[c->n].key = key;
	c->e[c->n].mesh = m;
	c->e[c->n].hull = NULL;
	c->e[c->n].hull_tried = false;
	return c->e[c->n++].mesh;
}

const struct phys_mesh *
phys_mesh_cache_get(struct phys_mesh_cache *c, const struct phys_mesh_spec *spec)
{
	char *key = spec_key(spec);
	struct phys_mesh *m;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->e[i].key && strcmp(c->e[i].key, key) == 0) {
			free(key);
			return c->e[i].mesh;
		}
	m = phys_mesh_load(spec);
	if (!m) {
		free(key);
		return NULL;
	}
	return keep(c, key, m);
}

const struct phys_mesh *
phys_mesh_cache_keep(struct phys_mesh_cache *c, struct phys_mesh *m)
{
	return keep(c, NULL, m);
}

const struct phys_mesh *
phys_mesh_cache_hull(struct phys_mesh_cache *c, const struct phys_mesh *m)
{
	size_t i;

	for (i = 0; i < c->n && c->e[i].mesh != m; i++)
		;
	if (i == c->n)
		return phys_fail("%s", "no such mesh in the cache"), NULL;
	if (!c->e[i].hull_tried) {
		c->e[i].hull_tried = true;
		c->e[i].hull = phys_mesh_hull(m);	/* NULL: why said */
	} else if (!c->e[i].hull) {
		phys_fail("%s", "the mesh has no convex hull (it is flat)");
	}
	return c->e[i].hull;
}

void
phys_mesh_cache_free(struct phys_mesh_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->e[i].key);
		phys_mesh_free(c->e[i].mesh);
		phys_mesh_free(c->e[i].hull);
	}
	free(c->e);
	memset(c, 0, sizeof *c);
}
