/*
 * engine_mujoco_hfield.c - a box or a cylinder lying on a MuJoCo
 * heightfield's triangles, held at the points MuJoCo's plane gives it.
 *
 * MuJoCo 2.2.2 collides a geom with a heightfield prism by prism: one
 * point for each triangle under the geom, wherever its search (MPR)
 * ends. Under a box or a cylinder lying on a flat heightfield those
 * points are spread unevenly, and the friction at them turns a sliding
 * shape and stops it short (a box 2.6% short over 0.25 m on 0.125 m
 * cells, a standing cylinder 8% short and turned 0.19 rad), where on a
 * plane it slides straight. Where the shape lies on the triangle under
 * its centre (a box's face, a cylinder's end or side within 0.01 rad),
 * the points MuJoCo's plane would give it (a box's corners, three on a
 * cylinder's rim or the two ends of its lowest line) are its points on
 * the triangles under them that share that plane, and MuJoCo's points on
 * such triangles give way to them unless deeper (a rise under the
 * shape). A shape meeting the heightfield otherwise keeps MuJoCo's
 * points alone.
 */
#include <math.h>
#include <string.h>

#include "engine_common.h"
#include "engine_mujoco_hfield.h"

/* MuJoCo's point deeper than every one of phys's by more than this is on
 * a rise under the shape: its search finds depths to mpr_tolerance (1e-6
 * by default) */
#define DEEPER 1e-5

static mjfCollision theirs[mjNGEOMTYPES];
static bool (*ours)(const mjModel *m);

struct hfield {
	const float *data;
	const mjtNum *size;	/* half x, half y, top, base */
	int nrow, ncol;
	mjtNum dx, dy;		/* a cell (m) */
};

/* A box or a cylinder in the heightfield's frame. */
struct solid {
	int type;		/* mjGEOM_BOX or mjGEOM_CYLINDER */
	mjtNum c[3];		/* centre */
	mjtNum e[3][3];		/* a box's half axes, a cylinder's x
				 * (radius long) and axis (unit) */
	mjtNum r, hl;		/* a cylinder's radius and half length */
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

/*
 * Whether solid s lies on a triangle of unit normal n: a face of a box,
 * a cylinder's cap (its axis along n) or side (its axis across n).
 */
static bool
lies_on(const struct solid *s, const mjtNum n[3])
{
	const mjtNum on = PHYS_FACE_ON * PHYS_FACE_ON;
	mjtNum x;
	int k;

	if (s->type == mjGEOM_CYLINDER) {
		x = dot3(s->e[2], n);
		return x * x > on || x * x < 1 - on;
	}
	for (k = 0; k < 3; k++) {
		x = dot3(s->e[k], n);
		if (x * x > on * dot3(s->e[k], s->e[k]))
			return true;
	}
	return false;
}

/*
 * Whether (x, y) is over a triangle solid s lies on as it lies on normal
 * n0 (the two within 0.01 rad): its corner into v, its normal into n.
 */
static bool
lying_at(const struct hfield *h, const struct solid *s, const mjtNum n0[3],
    mjtNum x, mjtNum y, mjtNum v[3], mjtNum n[3])
{
	return triangle_at(h, x, y, v, n) && dot3(n, n0) > PHYS_FACE_ON &&
	    lies_on(s, n);
}

/* a + k b, into out */
static void
add_scaled(mjtNum out[3], const mjtNum a[3], mjtNum k, const mjtNum b[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = a[i] + k * b[i];
}

/* A box's corners under its centre along n0, into p: their number. */
static int
box_points(const struct solid *s, const mjtNum n0[3], mjtNum p[8][3])
{
	mjtNum o[3];
	int i, k, np = 0;

	for (k = 0; k < 8; k++) {
		for (i = 0; i < 3; i++)
			o[i] = (k & 1 ? s->e[0][i] : -s->e[0][i]) +
			    (k & 2 ? s->e[1][i] : -s->e[1][i]) +
			    (k & 4 ? s->e[2][i] : -s->e[2][i]);
		if (dot3(o, n0) < 0)
			add_scaled(p[np++], s->c, 1, o);
	}
	return np;
}

/*
 * A cylinder's points as MuJoCo's plane gives them: on a cap, three on
 * its rim a third of a turn apart, from the cylinder's x; on its side,
 * the two ends of its lowest line.
 */
static int
cylinder_points(const struct solid *s, const mjtNum n0[3], mjtNum p[8][3])
{
	mjtNum a[3], d[3], w[3], x = dot3(s->e[2], n0), l;
	const mjtNum *u = s->e[0];

	memcpy(a, s->e[2], sizeof a);	/* the axis, turned down */
	if (x > 0)
		a[0] = -a[0], a[1] = -a[1], a[2] = -a[2];
	if (x * x > 0.5) {	/* on a cap */
		add_scaled(d, s->c, s->hl, a);
		w[0] = a[1] * u[2] - a[2] * u[1];
		w[1] = a[2] * u[0] - a[0] * u[2];
		w[2] = a[0] * u[1] - a[1] * u[0];
		add_scaled(p[0], d, 1, u);
		add_scaled(d, d, -0.5, u);
		add_scaled(p[1], d, sqrt(3.0) / 2, w);
		add_scaled(p[2], d, -sqrt(3.0) / 2, w);
		return 3;
	}
	add_scaled(d, n0, -x, s->e[2]);	/* n0 across the axis */
	l = sqrt(dot3(d, d));
	add_scaled(w, s->c, -s->r / l, d);
	add_scaled(p[0], w, s->hl, a);
	add_scaled(p[1], w, -s->hl, a);
	return 2;
}

/*
 * Solid s's points on triangles it lies on, within margin, into con as
 * MuJoCo's plane gives them (the field's frame at pos1, mat1): their
 * number. *deepest: the least distance among them; n0: the normal of the
 * triangle under s's centre, which each point's triangle shares.
 */
static int
points(const struct hfield *h, const struct solid *s, const mjtNum n0[3],
    const mjtNum *pos1, const mjtNum *mat1, mjtNum margin, mjContact *con,
    mjtNum *deepest)
{
	mjtNum p[8][3], v[3], n[3], w[3], dist;
	int i, k, np, nc = 0;

	np = s->type == mjGEOM_BOX ? box_points(s, n0, p) :
	    cylinder_points(s, n0, p);
	for (k = 0; k < np; k++) {
		if (!lying_at(h, s, n0, p[k][0], p[k][1], v, n))
			continue;
		for (i = 0; i < 3; i++)
			w[i] = p[k][i] - v[i];
		dist = dot3(w, n);
		if (dist > margin)
			continue;
		*deepest = fmin(*deepest, dist);
		memset(&con[nc], 0, sizeof con[nc]);
		con[nc].dist = dist;
		to_world(con[nc].frame, mat1, n);
		add_scaled(p[k], p[k], -dist / 2, n);
		to_world(w, mat1, p[k]);
		add_scaled(con[nc].pos, pos1, 1, w);
		nc++;
	}
	return nc;
}

/* Geom g2 (a box or a cylinder) in heightfield g1's frame. */
static void
solid_in(const mjModel *m, const mjData *d, int g1, int g2,
    struct solid *s)
{
	const mjtNum *mat1 = d->geom_xmat + 9 * g1, *mat2 = d->geom_xmat +
	    9 * g2, *size = m->geom_size + 3 * g2;
	bool box = m->geom_type[g2] == mjGEOM_BOX;
	mjtNum w[3];
	int i, k;

	s->type = m->geom_type[g2];
	s->r = size[0];
	s->hl = size[1];
	for (i = 0; i < 3; i++)
		w[i] = d->geom_xpos[3 * g2 + i] - d->geom_xpos[3 * g1 + i];
	to_frame(s->c, mat1, w);
	for (k = 0; k < 3; k++) {
		/* a cylinder's x radius long, its axis of unit length */
		mjtNum len = box ? size[k] : k ? 1 : size[0];

		for (i = 0; i < 3; i++)
			w[i] = mat2[3 * i + k] * len;
		to_frame(s->e[k], mat1, w);
	}
}

/* Whether MuJoCo's point con (world) is on a triangle s lies on. */
static bool
on_triangle(const struct hfield *h, const struct solid *s,
    const mjtNum n0[3], const mjtNum *pos1, const mjtNum *mat1,
    const mjContact *con)
{
	mjtNum d[3], p[3], v[3], n[3];

	d[0] = con->pos[0] - pos1[0];
	d[1] = con->pos[1] - pos1[1];
	d[2] = con->pos[2] - pos1[2];
	to_frame(p, mat1, d);
	return lying_at(h, s, n0, p[0], p[1], v, n);
}

static int
hfield_solid(const mjModel *m, const mjData *d, mjContact *con, int g1,
    int g2, mjtNum margin)
{
	int n = theirs[m->geom_type[g2]](m, d, con, g1, g2, margin);
	const mjtNum *pos1 = d->geom_xpos + 3 * g1, *mat1 = d->geom_xmat +
	    9 * g1;
	mjtNum deepest = INFINITY, v[3], n0[3];
	mjContact mine[8];
	struct hfield h;
	struct solid s;
	int hid, i, kept, nc;

	if (n == 0 || !ours || !ours(m))
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
	solid_in(m, d, g1, g2, &s);
	if (!triangle_at(&h, s.c[0], s.c[1], v, n0) || !lies_on(&s, n0))
		return n;
	nc = points(&h, &s, n0, pos1, mat1, margin, mine, &deepest);
	if (nc == 0)
		return n;
	for (i = kept = 0; i < n; i++)
		if (con[i].dist < deepest - DEEPER ||
		    !on_triangle(&h, &s, n0, pos1, mat1, &con[i]))
			con[kept++] = con[i];
	for (i = 0; i < nc && kept < mjMAXCONPAIR; i++)
		con[kept++] = mine[i];
	return kept;
}

void
phys_mujoco_hfield_install(bool (*fn)(const mjModel *m))
{
	static const int types[] = { mjGEOM_BOX, mjGEOM_CYLINDER };
	mjfCollision *at;
	size_t k;

	ours = fn;
	for (k = 0; k < sizeof types / sizeof types[0]; k++) {
		at = &mjCOLLISIONFUNC[mjGEOM_HFIELD][types[k]];
		if (*at && *at != hfield_solid) {
			theirs[types[k]] = *at;
			*at = hfield_solid;
		}
	}
}
