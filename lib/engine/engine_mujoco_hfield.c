/*
 * engine_mujoco_hfield.c - a box lying on a MuJoCo heightfield's
 * triangles, held by its corners as on a plane.
 *
 * MuJoCo 2.2.2 collides a geom with a heightfield prism by prism: one
 * point for each triangle under the geom, wherever its search (MPR)
 * ends. Under a box lying on a flat heightfield those points are spread
 * unevenly, and the friction at them turns a sliding box and stops it
 * short (0.013 rad and 2.6% short over 0.25 m on 0.125 m cells), where
 * on a plane it slides straight. Where a face of the box lies on the
 * triangle under a corner (within 0.01 rad), that corner is a point with
 * the triangle's normal, as MuJoCo's plane gives a box's corners, and
 * MuJoCo's points on such triangles give way to the corners unless
 * deeper (a rise under the box). A box meeting the heightfield by an
 * edge or a corner keeps MuJoCo's points alone.
 */
#include <math.h>
#include <string.h>

#include "engine_common.h"
#include "engine_mujoco_hfield.h"

/* MuJoCo's point deeper than every corner by more than this is on a rise
 * under the box: its search finds depths to mpr_tolerance (1e-6 by
 * default) */
#define DEEPER 1e-5

static mjfCollision theirs;
static bool (*ours)(const mjModel *m);

struct hfield {
	const float *data;
	const mjtNum *size;	/* half x, half y, top, base */
	int nrow, ncol;
	mjtNum dx, dy;		/* a cell (m) */
};

/* A box in the heightfield's frame: its centre and half axes. */
struct box {
	mjtNum c[3], e[3][3];
};

static mjtNum
dot3(const mjtNum a[3], const mjtNum b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* m's transpose times v: a world vector in a frame of rotation m. */
static void
to_frame(mjtNum out[3], const mjtNum m[9], const mjtNum v[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = m[i] * v[0] + m[3 + i] * v[1] + m[6 + i] * v[2];
}

/* m times v: a vector of a frame of rotation m in the world. */
static void
to_world(mjtNum out[3], const mjtNum m[9], const mjtNum v[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = dot3(m + 3 * i, v);
}

static void
vertex(const struct hfield *h, int c, int r, mjtNum v[3])
{
	v[0] = h->dx * c - h->size[0];
	v[1] = h->dy * r - h->size[1];
	v[2] = h->data[r * h->ncol + c] * h->size[2];
}

/*
 * The triangle under (x, y) of the field's frame, each cell split as
 * MuJoCo's prisms split it, from corner (c, r) to (c + 1, r + 1): a
 * corner of it into v, its upward unit normal into n. False outside the
 * field.
 */
static bool
triangle_at(const struct hfield *h, mjtNum x, mjtNum y, mjtNum v[3],
    mjtNum n[3])
{
	mjtNum gx = (x + h->size[0]) / h->dx, gy = (y + h->size[1]) / h->dy;
	mjtNum a[3], b[3], l;
	int c, r;

	if (!(gx >= 0 && gy >= 0 && gx <= h->ncol - 1 && gy <= h->nrow - 1))
		return false;
	c = (int)fmin(floor(gx), h->ncol - 2);
	r = (int)fmin(floor(gy), h->nrow - 2);
	vertex(h, c, r, v);
	vertex(h, c + 1, r + 1, b);
	if (gy - r >= gx - c)
		vertex(h, c, r + 1, a);
	else
		vertex(h, c + 1, r, a);
	a[0] -= v[0], a[1] -= v[1], a[2] -= v[2];
	b[0] -= v[0], b[1] -= v[1], b[2] -= v[2];
	n[0] = a[1] * b[2] - a[2] * b[1];
	n[1] = a[2] * b[0] - a[0] * b[2];
	n[2] = a[0] * b[1] - a[1] * b[0];
	l = sqrt(dot3(n, n));
	if (n[2] < 0)
		l = -l;
	n[0] /= l, n[1] /= l, n[2] /= l;
	return true;
}

/* Whether a face of box b lies on a triangle of unit normal n. */
static bool
face_on(const struct box *b, const mjtNum n[3])
{
	const mjtNum on = PHYS_FACE_ON * PHYS_FACE_ON;
	mjtNum x;
	int k;

	for (k = 0; k < 3; k++) {
		x = dot3(b->e[k], n);
		if (x * x > on * dot3(b->e[k], b->e[k]))
			return true;
	}
	return false;
}

/* Whether MuJoCo's point con (world) is on a triangle box b lies on. */
static bool
on_face(const struct hfield *h, const struct box *b, const mjtNum *pos1,
    const mjtNum *mat1, const mjContact *con)
{
	mjtNum d[3], p[3], v[3], n[3];

	d[0] = con->pos[0] - pos1[0];
	d[1] = con->pos[1] - pos1[1];
	d[2] = con->pos[2] - pos1[2];
	to_frame(p, mat1, d);
	return triangle_at(h, p[0], p[1], v, n) && face_on(b, n);
}

/*
 * Box b's corners on triangles it lies on, within margin, into con as
 * MuJoCo's plane gives them (the field's frame at pos1, mat1): their
 * number, at most max. *deepest: the least distance among them.
 */
static int
corners(const struct hfield *h, const struct box *b, const mjtNum *pos1,
    const mjtNum *mat1, mjtNum margin, mjContact *con, int max,
    mjtNum *deepest)
{
	mjtNum o[3], q[3], v[3], n[3], dist, w[3];
	int i, k, nc = 0;

	for (k = 0; k < 8 && nc < max; k++) {
		for (i = 0; i < 3; i++)
			o[i] = (k & 1 ? b->e[0][i] : -b->e[0][i]) +
			    (k & 2 ? b->e[1][i] : -b->e[1][i]) +
			    (k & 4 ? b->e[2][i] : -b->e[2][i]);
		for (i = 0; i < 3; i++)
			q[i] = b->c[i] + o[i];
		if (!triangle_at(h, q[0], q[1], v, n) || !face_on(b, n) ||
		    dot3(o, n) > 0)	/* a corner of the top face */
			continue;
		for (i = 0; i < 3; i++)
			w[i] = q[i] - v[i];
		dist = dot3(w, n);
		if (dist > margin)
			continue;
		*deepest = fmin(*deepest, dist);
		memset(&con[nc], 0, sizeof con[nc]);
		con[nc].dist = dist;
		to_world(con[nc].frame, mat1, n);
		for (i = 0; i < 3; i++)
			q[i] -= n[i] * dist / 2;
		to_world(w, mat1, q);
		for (i = 0; i < 3; i++)
			con[nc].pos[i] = pos1[i] + w[i];
		nc++;
	}
	return nc;
}

/* Box g2 in heightfield g1's frame. */
static void
box_in(const mjModel *m, const mjData *d, int g1, int g2, struct box *b)
{
	const mjtNum *mat1 = d->geom_xmat + 9 * g1, *mat2 = d->geom_xmat +
	    9 * g2, *size = m->geom_size + 3 * g2;
	mjtNum w[3];
	int i, k;

	for (i = 0; i < 3; i++)
		w[i] = d->geom_xpos[3 * g2 + i] - d->geom_xpos[3 * g1 + i];
	to_frame(b->c, mat1, w);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < 3; i++)
			w[i] = mat2[3 * i + k] * size[k];
		to_frame(b->e[k], mat1, w);
	}
}

static int
hfield_box(const mjModel *m, const mjData *d, mjContact *con, int g1,
    int g2, mjtNum margin)
{
	int n = theirs(m, d, con, g1, g2, margin), hid, i, kept, nc;
	mjContact mine[8];
	mjtNum deepest = INFINITY;
	struct hfield h;
	struct box b;

	if (n == 0 || !ours || !ours(m) || m->geom_type[g2] != mjGEOM_BOX)
		return n;
	hid = m->geom_dataid[g1];
	h.data = m->hfield_data + m->hfield_adr[hid];
	h.size = m->hfield_size + 4 * hid;
	h.nrow = m->hfield_nrow[hid];
	h.ncol = m->hfield_ncol[hid];
	if (h.nrow < 2 || h.ncol < 2)
		return n;
	h.dx = 2 * h.size[0] / (h.ncol - 1);
	h.dy = 2 * h.size[1] / (h.nrow - 1);
	box_in(m, d, g1, g2, &b);
	nc = corners(&h, &b, d->geom_xpos + 3 * g1, d->geom_xmat + 9 * g1,
	    margin, mine, 8, &deepest);
	if (nc == 0)
		return n;
	for (i = kept = 0; i < n; i++)
		if (con[i].dist < deepest - DEEPER ||
		    !on_face(&h, &b, d->geom_xpos + 3 * g1,
		    d->geom_xmat + 9 * g1, &con[i]))
			con[kept++] = con[i];
	for (i = 0; i < nc && kept < mjMAXCONPAIR; i++)
		con[kept++] = mine[i];
	return kept;
}

void
phys_mujoco_hfield_install(bool (*fn)(const mjModel *m))
{
	mjfCollision *at = &mjCOLLISIONFUNC[mjGEOM_HFIELD][mjGEOM_BOX];

	ours = fn;
	if (*at && *at != hfield_box) {
		theirs = *at;
		*at = hfield_box;
	}
}
