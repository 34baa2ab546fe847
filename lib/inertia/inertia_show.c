/*
 * inertia_show.c - collision shapes and boxes of equivalent inertia, drawn.
 *
 * Three views (front, side, top), one above the other, each at one scale
 * for both its axes. In a view, links whose drawings would overlap are
 * moved apart along its horizontal axis, and each link is named under its
 * shapes, so that every link's box can be told from its shapes and from
 * its neighbours'. A link with an invalid inertia has no box: its shapes
 * are drawn in red, and its name says why.
 *
 * When that picture cannot be read (names that would overprint, as on a
 * robot of fifty links; or a box far larger than its shapes that sets the
 * scale and leaves a link a few pixels across), every view is drawn as
 * rows of cells instead, a link in each, in the world's order of links, at
 * its own scale, said under it.
 */
#include "inertia_show.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inertia.h"
#include "inertia_check.h"
#include "inertia_world.h"

#define CIRCLE_SEGMENTS 48
#define IMAGE_W 1500
#define PLOT_W 1380		/* pixels of a view's plot across, about */
#define VIEW_MIN_H 160		/* pixels of a view's plot, at least */
#define VIEW_MAX_H 700
#define NAMES_H 48		/* pixels under the links for their names */
#define ROOF_H 12		/* pixels above the links */
#define CHAR_W 7		/* pixels of a character of the names */
#define VIEW_PAD 90		/* around a view: its title, ticks, names */
#define HEAD_H 86		/* the figure's title, and the legend ... */
#define KEY_LINE 16		/* ... a line each */
#define FOOT_LINE 18		/* a line of text under the views */
#define LABEL_LINE_H 12		/* pixels of a line of a name, about */
/* A view whose names would overlap, or whose scale a box standing out
 * sets, is drawn as cells instead: each link in its own, at its own scale. */
#define MIN_DRAWING 10		/* pixels across a link's shapes, at least */
#define CELL_DRAW_H 110		/* pixels of a link's drawing, at most */
#define CELL_MIN_W 120		/* pixels across a cell, at least */
#define CELL_PAD 8		/* pixels around a drawing in its cell */
#define CELL_LINE 15		/* pixels of a line of its label */
#define CELL_LINES 3		/* name, scale, what stands out */
#define CELL_BOX_MAX 3		/* a box larger than its shapes by more is clipped */
/* Labels and objects are tagged down from here: gnuplot keeps them in a
 * list by tag, and finds a new tag's place from the list's start (a
 * 20,000-link robot's labels tagged upwards took it 37 s, downwards 4) */
#define TAG_FIRST 1000000000
#define CELL_NAME_MAX 40	/* characters of a name; beyond, cut */
#define CELL_H (CELL_DRAW_H + CELL_LINES * CELL_LINE + 3 * CELL_PAD)

/* Where points go: a buffer, and the bounds of what went there. */
struct pen {
	struct phys_buf *b;	/* NULL: only measure */
	int u;			/* the horizontal axis (0 x, 1 y, 2 z) ... */
	double shift;		/* ... along which points move by this */
	double lo[3], hi[3];
	bool any;
	/* in a cell: points go as "x y" pixels, p[u] and p[v] about (ou, ov)
	 * times scale about the cell's centre (cx, cy), clipped to clip[] */
	bool cell;
	int v;
	double scale, ou, ov, cx, cy, clip[4];	/* x0 y0 x1 y1 */
};

static void
pen_start(struct pen *pn, struct phys_buf *b, int u, double shift)
{
	memset(pn, 0, sizeof *pn);
	pn->b = b;
	pn->u = u;
	pn->shift = shift;
}

/* "x y z" of a point in the world, a line. */
static void
point(struct pen *pn, phys_vec3 p)
{
	double v[3] = { p.x, p.y, p.z };
	int k;

	v[pn->u] += pn->shift;
	for (k = 0; k < 3; k++) {
		pn->lo[k] = pn->any ? fmin(pn->lo[k], v[k]) : v[k];
		pn->hi[k] = pn->any ? fmax(pn->hi[k], v[k]) : v[k];
		if (pn->b) {
			phys_buf_double(pn->b, v[k]);
			phys_buf_putc(pn->b, k < 2 ? ' ' : '\n');
		}
	}
	pn->any = true;
}

/*
 * The part of the segment from (x0, y0) to (x1, y1) inside the pen's
 * clip rectangle, as fractions t0 .. t1 of it; false when none is.
 */
static bool
clip_segment(const struct pen *pn, double x0, double y0, double x1,
    double y1, double *t0, double *t1)
{
	double p[4] = { x0 - x1, x1 - x0, y0 - y1, y1 - y0 };
	double q[4] = { x0 - pn->clip[0], pn->clip[2] - x0,
	    y0 - pn->clip[1], pn->clip[3] - y0 };
	int k;

	*t0 = 0, *t1 = 1;
	for (k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return false;
			continue;
		}
		if (p[k] < 0)
			*t0 = fmax(*t0, q[k] / p[k]);
		else
			*t1 = fmin(*t1, q[k] / p[k]);
	}
	return *t0 <= *t1;
}

/* A segment in a cell, in its pixels, clipped to it. */
static void
cell_segment(struct pen *pn, phys_vec3 a, phys_vec3 c)
{
	double pa[3] = { a.x, a.y, a.z }, pc[3] = { c.x, c.y, c.z };
	double x0 = pn->cx + (pa[pn->u] - pn->ou) * pn->scale;
	double y0 = pn->cy + (pa[pn->v] - pn->ov) * pn->scale;
	double x1 = pn->cx + (pc[pn->u] - pn->ou) * pn->scale;
	double y1 = pn->cy + (pc[pn->v] - pn->ov) * pn->scale;
	double t0, t1;

	if (!clip_segment(pn, x0, y0, x1, y1, &t0, &t1))
		return;
	pn->any = true;
	phys_buf_printf(pn->b, "%.2f %.2f\n%.2f %.2f\n\n",
	    x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0,
	    x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1);
}

/* One segment, from a to c: its two points and a blank line. */
static void
segment(struct pen *pn, phys_vec3 a, phys_vec3 c)
{
	if (pn->cell) {
		cell_segment(pn, a, c);
		return;
	}
	point(pn, a);
	point(pn, c);
	if (pn->b)
		phys_buf_putc(pn->b, '\n');
}

/* The twelve edges of the box from lo to hi in the frame f. */
static void
box_edges(struct pen *pn, phys_pose f, phys_vec3 lo, phys_vec3 hi)
{
	int k, axis;

	for (k = 0; k < 8; k++)
		for (axis = 0; axis < 3; axis++) {
			int other = k | 1 << axis;
			phys_vec3 a, c;

			if (other == k)
				continue;
			a = v3(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y,
			    k & 4 ? hi.z : lo.z);
			c = v3(other & 1 ? hi.x : lo.x, other & 2 ? hi.y : lo.y,
			    other & 4 ? hi.z : lo.z);
			segment(pn, phys_pose_apply(f, a), phys_pose_apply(f, c));
		}
}

/* An ellipse about centre c in the plane of the frame's axes u and v
 * (0 x, 1 y, 2 z), semi-axes ru and rv. */
static void
ellipse(struct pen *pn, phys_pose f, phys_vec3 c, int u, int v,
    double ru, double rv)
{
	double p[3], q[3];
	int k;

	for (k = 0; k < CIRCLE_SEGMENTS; k++) {
		double t0 = 2 * M_PI * k / CIRCLE_SEGMENTS;
		double t1 = 2 * M_PI * (k + 1) / CIRCLE_SEGMENTS;

		p[0] = c.x, p[1] = c.y, p[2] = c.z;
		memcpy(q, p, sizeof q);
		p[u] += ru * cos(t0), p[v] += rv * sin(t0);
		q[u] += ru * cos(t1), q[v] += rv * sin(t1);
		segment(pn, phys_pose_apply(f, v3(p[0], p[1], p[2])),
		    phys_pose_apply(f, v3(q[0], q[1], q[2])));
	}
}

/* A cylinder or capsule of radius r along z, its straight part from -h to
 * h: end circles, four lines, and for a capsule the caps' outlines. */
static void
tube(struct pen *pn, phys_pose f, double r, double h, bool caps)
{
	int k, end;

	for (end = -1; end <= 1; end += 2) {
		phys_vec3 c = v3(0, 0, end * h);

		ellipse(pn, f, c, 0, 1, r, r);
		if (caps) {
			ellipse(pn, f, c, 0, 2, r, r);
			ellipse(pn, f, c, 1, 2, r, r);
		}
	}
	for (k = 0; k < 4; k++) {
		double x = r * cos(M_PI / 2 * k), y = r * sin(M_PI / 2 * k);

		segment(pn, phys_pose_apply(f, v3(x, y, -h)),
		    phys_pose_apply(f, v3(x, y, h)));
	}
}

static void
shape_edges(struct pen *pn, const struct phys_scene *w,
    const struct phys_collision *c)
{
	phys_pose f = phys_pose_mul(w->links[c->link].pose, c->pose);
	const double *s = c->size;
	phys_vec3 o = v3(0, 0, 0);

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		box_edges(pn, f, v3(-s[0] / 2, -s[1] / 2, -s[2] / 2),
		    v3(s[0] / 2, s[1] / 2, s[2] / 2));
		break;
	case PHYS_GEOM_SPHERE:
	case PHYS_GEOM_ELLIPSOID: {
		double r[3] = { s[0], s[c->shape == PHYS_GEOM_SPHERE ? 0 : 1],
		    s[c->shape == PHYS_GEOM_SPHERE ? 0 : 2] };

		ellipse(pn, f, o, 0, 1, r[0], r[1]);
		ellipse(pn, f, o, 1, 2, r[1], r[2]);
		ellipse(pn, f, o, 0, 2, r[0], r[2]);
		break;
	}
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
		tube(pn, f, s[0], s[1] / 2, c->shape == PHYS_GEOM_CAPSULE);
		break;
	case PHYS_GEOM_CONE:	/* its triangles' bounding box, as a mesh */
	case PHYS_GEOM_MESH:	/* its bounding box: a mesh's edges clutter */
		box_edges(pn, f, c->mesh->lo, c->mesh->hi);
		break;
	default:		/* planes and terrain have no extent to draw */
		break;
	}
}

/* What the picture says of one link. */
struct shown {
	bool drawn;		/* a moving link with shapes or a box */
	bool box;		/* its box of equivalent inertia, ... */
	phys_pose f;		/* ... its frame along the principal axes */
	phys_vec3 half;		/* and its half sides */
	double ratio;		/* box over shapes, 0 when not known */
	bool far;		/* beyond the ratio the picture flags */
	char *why;		/* the inertia is not valid: why */
};

static void
link_shapes(struct pen *pn, const struct phys_scene *w, int li)
{
	size_t i;

	for (i = 0; i < w->ncollisions; i++)
		if (w->collisions[i].link == li)
			shape_edges(pn, w, &w->collisions[i]);
}

/* The link as the picture shows it; the warnings say it once. */
static void
look(const struct phys_scene *w, int li, double limit, struct shown *sh)
{
	const struct phys_link *l = &w->links[li];
	struct phys_inertia_verdict v;
	struct pen pn;
	struct phys_buf why = { 0 };
	phys_inertia in;
	phys_vec3 size;
	phys_mat3 R;

	memset(sh, 0, sizeof *sh);
	if (w->models[l->model].is_static)
		return;
	phys_link_inertia(l, &in);
	if (phys_inertia_validate(&in, &v) != PHYS_INERTIA_VALID ||
	    phys_inertia_box_equivalent(&in, &size, &R) < 0) {
		sh->why = phys_xstrdup(v.fault != PHYS_INERTIA_VALID ?
		    v.reason : phys_error());
		phys_warnat(PHYS_AT(l->doc, l->node), "%s: its inertia is "
		    "not valid (%s): no box of equivalent inertia", l->name,
		    sh->why);
	} else {
		sh->box = true;
		sh->f = phys_pose_mul(l->pose, phys_pose_from6(in.pose));
		sh->f.q = phys_quat_mul(sh->f.q, phys_mat3_to_quat(R));
		sh->half = v3_scale(size, 0.5);
		sh->ratio = phys_link_box_ratio(w, li, &in);
		sh->far = phys_inertia_box_far(w, li, &in, limit, &why) > 0;
		if (sh->far)
			phys_warnat(PHYS_AT(l->doc, l->node), "%s: %s", l->name,
			    why.s);
		phys_buf_free(&why);
	}
	pen_start(&pn, NULL, 0, 0);
	link_shapes(&pn, w, li);
	sh->drawn = pn.any || sh->box;
}

/* The link's extent in a view, shapes and box, before any move. */
static void
extent(const struct phys_scene *w, int li, const struct shown *sh, int u,
    double lo[3], double hi[3])
{
	struct pen pn;

	pen_start(&pn, NULL, u, 0);
	link_shapes(&pn, w, li);
	if (sh->box)
		box_edges(&pn, sh->f, v3_scale(sh->half, -1), sh->half);
	memcpy(lo, pn.lo, sizeof pn.lo);
	memcpy(hi, pn.hi, sizeof pn.hi);
}

/* One view, axes u across and v up (0 x, 1 y, 2 z). */
struct view {
	const char *title;
	int u, v;
	double *shift;		/* per link: the move along u */
	bool moved;
	double lo[3], hi[3];	/* of everything drawn, after the moves */
	/* its frame: pixels a metre on both axes, the plot's height, and
	 * the ranges shown */
	double scale, ulo, uhi, vlo, vhi;
	int height;
	/* drawn as cells: how many across, pixels across one, and each
	 * link's fit in its own */
	bool cells;
	int cols, cw;
	struct fit *fit;
};

/* A link in its cell: its scale, the point of the world at the centre of
 * its drawing, and whether its box goes beyond the cell. */
struct fit {
	double scale;		/* pixels a metre */
	double ou, ov;		/* metres along the view's axes */
	bool clipped;
	int x0, y0;		/* the cell's lower left corner, pixels */
};

/*
 * The view's frame: both axes at one scale, the drawing across the plot's
 * width with a tenth to spare either side, unless that makes the plot
 * taller than VIEW_MAX_H; room for the names under the links in pixels,
 * whatever the scale; a plot lower than VIEW_MIN_H gets its vertical range
 * widened (never squeezed, which would overprint its ticks).
 */
static void
view_frame(struct view *vw)
{
	double du = vw->hi[vw->u] - vw->lo[vw->u];
	double dv = vw->hi[vw->v] - vw->lo[vw->v];
	double h, extra, c;

	if (du <= 0 && dv <= 0)
		du = dv = 0.1;
	vw->scale = du > 0 ? PLOT_W / (du * 1.2) : HUGE_VAL;
	h = dv * vw->scale + NAMES_H + ROOF_H;
	if (h > VIEW_MAX_H) {
		vw->scale = (VIEW_MAX_H - NAMES_H - ROOF_H) / dv;
		h = VIEW_MAX_H;
	}
	vw->height = h < VIEW_MIN_H ? VIEW_MIN_H : (int)ceil(h);
	c = (vw->lo[vw->u] + vw->hi[vw->u]) / 2;
	vw->ulo = c - PLOT_W / vw->scale / 2;
	vw->uhi = c + PLOT_W / vw->scale / 2;
	extra = (vw->height - dv * vw->scale - NAMES_H - ROOF_H) / 2;
	vw->vlo = vw->lo[vw->v] - (NAMES_H + extra) / vw->scale;
	vw->vhi = vw->vlo + vw->height / vw->scale;
}

/* The longest line of the link's name under it, in characters. */
static size_t
label_chars(const struct phys_scene *w, const struct shown *sh, int li)
{
	size_t n = strlen(w->links[li].name);

	/* "invalid inertia", "box 0.123 x its shapes" */
	return sh[li].why || sh[li].far ? (n > 22 ? n : 22) : n;
}

/*
 * Moves apart, along u, the links whose drawings, or names under them,
 * overlap in the view: taken from left to right, each starts where it is
 * or just right of the one before, whichever is further right. A name is
 * as wide as its characters at the view's scale, unit (metres a
 * character), which depends on how far the links are moved: found again
 * from the moves, a few times, as it settles.
 */
static void
spread(const struct phys_scene *w, const struct shown *sh, struct view *vw)
{
	size_t n = w->nlinks, i, j, k, *order = phys_xcalloc(n + 1,
	    sizeof *order), m = 0;
	double (*lo)[3] = phys_xcalloc(n + 1, sizeof *lo);
	double (*hi)[3] = phys_xcalloc(n + 1, sizeof *hi);
	double edge, gap, span = 0, unit = 0, half, a, c;
	int u = vw->u, round;

	for (i = 0; i < n; i++)
		if (sh[i].drawn) {
			extent(w, (int)i, &sh[i], u, lo[i], hi[i]);
			span = fmax(span, hi[i][u] - lo[i][u]);
			for (j = m; j > 0 && lo[order[j - 1]][u] > lo[i][u]; j--)
				order[j] = order[j - 1];
			order[j] = i;
			m++;
		}
	gap = span * 0.25;
	for (round = 0; round < 4; round++) {
		edge = -HUGE_VAL;
		vw->moved = false;
		for (k = 0; k < m; k++) {
			i = order[k];
			/* the link's slot: its drawing, or its name if wider */
			c = (lo[i][u] + hi[i][u]) / 2;
			half = fmax(hi[i][u] - lo[i][u],
			    unit * (double)label_chars(w, sh, (int)i)) / 2;
			vw->shift[i] = fmax(0, edge + gap - (c - half));
			vw->moved |= k > 0 && vw->shift[i] > 0;
			edge = c + half + vw->shift[i];
			for (j = 0; j < 3; j++) {
				a = lo[i][j] + (j == (size_t)u ? vw->shift[i] : 0);
				c = hi[i][j] + (j == (size_t)u ? vw->shift[i] : 0);
				vw->lo[j] = k ? fmin(vw->lo[j], a) : a;
				vw->hi[j] = k ? fmax(vw->hi[j], c) : c;
			}
		}
		view_frame(vw);
		unit = CHAR_W / vw->scale;
	}
	free(order);
	free(lo);
	free(hi);
}

static void
gp_string(struct phys_buf *b, const char *s)
{
	phys_buf_putc(b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			phys_buf_puts(b, "''");
		else
			phys_buf_putc(b, *s);
	phys_buf_putc(b, '\'');
}

/* The extent of the link's shapes, or box, or both, in metres. */
static void
measure(const struct phys_scene *w, const struct shown *sh, int li, int u,
    bool shapes, bool box, double lo[3], double hi[3])
{
	struct pen pn;

	pen_start(&pn, NULL, u, 0);
	if (shapes)
		link_shapes(&pn, w, li);
	if (box && sh->box)
		box_edges(&pn, sh->f, v3_scale(sh->half, -1), sh->half);
	memcpy(lo, pn.lo, sizeof pn.lo);
	memcpy(hi, pn.hi, sizeof pn.hi);
	if (!pn.any)
		lo[0] = lo[1] = lo[2] = hi[0] = hi[1] = hi[2] = 0;
}

/* Whether measure() found nothing. */
static bool
is_empty(const double lo[3], const double hi[3])
{
	int k;

	for (k = 0; k < 3; k++)
		if (lo[k] != 0 || hi[k] != 0)
			return false;
	return true;
}

/* Lines of a link's name under its drawing in a view at one scale. */
static int
label_lines(const struct shown *sh)
{
	return sh->why || sh->far ? 2 : 1;
}

/*
 * Whether the view at one scale can be read: every name inside the plot
 * and clear of every other (each as wide as its characters, a line high
 * per line), and no link's shapes drawn smaller than MIN_DRAWING where
 * boxes standing out larger than their shapes make the view more than
 * CELL_BOX_MAX times larger than the rest would (they set the scale and
 * squash the rest).
 */
static bool
view_readable(const struct phys_scene *w, const struct shown *sh,
    const struct view *vw)
{
	size_t n = w->nlinks, i, j, m = 0;
	double (*r)[4] = phys_xcalloc(n + 1, sizeof *r);
	double lo[3], hi[3], below = (NAMES_H - 26) / vw->scale, x, y, half;
	double rest_lo[2] = { HUGE_VAL, HUGE_VAL };
	double rest_hi[2] = { -HUGE_VAL, -HUGE_VAL }, squash = 1;
	bool ok = true, big, tiny = false;

	for (i = 0; i < n && ok; i++) {
		if (!sh[i].drawn)
			continue;
		extent(w, (int)i, &sh[i], vw->u, lo, hi);
		x = ((lo[vw->u] + hi[vw->u]) / 2 + vw->shift[i] - vw->ulo) *
		    vw->scale;
		y = (lo[vw->v] - below - vw->vlo) * vw->scale;
		half = (double)label_chars(w, sh, (int)i) * CHAR_W / 2;
		r[m][0] = x - half;
		r[m][1] = y - LABEL_LINE_H * (label_lines(&sh[i]) - 0.5);
		r[m][2] = x + half;
		r[m][3] = y + LABEL_LINE_H / 2.0;
		ok = r[m][0] >= 0 && r[m][2] <= PLOT_W;
		for (j = 0; j < m && ok; j++)
			ok = r[j][2] <= r[m][0] || r[m][2] <= r[j][0] ||
			    r[j][3] <= r[m][1] || r[m][3] <= r[j][1];
		m++;
		big = sh[i].far && sh[i].ratio > 1;
		measure(w, &sh[i], (int)i, vw->u, true, !big, lo, hi);
		if (!is_empty(lo, hi)) {
			lo[vw->u] += vw->shift[i], hi[vw->u] += vw->shift[i];
			for (j = 0; j < 2; j++) {
				int a = j ? vw->v : vw->u;

				rest_lo[j] = fmin(rest_lo[j], lo[a]);
				rest_hi[j] = fmax(rest_hi[j], hi[a]);
			}
		}
		/* (a link without shapes measures 0: its box is drawn) */
		measure(w, &sh[i], (int)i, vw->u, true, false, lo, hi);
		tiny |= !is_empty(lo, hi) && fmax(hi[vw->u] - lo[vw->u],
		    hi[vw->v] - lo[vw->v]) * vw->scale < MIN_DRAWING;
	}
	free(r);
	/* how much larger the boxes standing out make the view */
	for (j = 0; j < 2; j++) {
		int a = j ? vw->v : vw->u;

		if (rest_hi[j] > rest_lo[j])
			squash = fmax(squash, (vw->hi[a] - vw->lo[a]) /
			    (rest_hi[j] - rest_lo[j]));
	}
	return ok && !(tiny && squash > CELL_BOX_MAX);
}

/* The lines of a link's label in its cell; text[0] is cut to fit. */
static void
cell_label(const struct phys_scene *w, const struct shown *sh,
    const struct fit *f, int li, double across, char *text[CELL_LINES])
{
	const char *name = w->links[li].name, *tail;
	size_t n = strlen(name);

	/* the end: the link's own name, where a long robot's names differ
	 * (their front, the model's scope, is the same in every cell) */
	if (n > CELL_NAME_MAX) {
		tail = name + n - (CELL_NAME_MAX - 3);
		while ((*tail & 0xc0) == 0x80)	/* not inside a UTF-8 one */
			tail++;
		text[0] = phys_xasprintf("...%s", tail);
	} else {
		text[0] = phys_xstrdup(name);
	}
	text[1] = phys_xasprintf("cell %.3g m across", across);
	if (sh[li].why)
		text[2] = phys_xstrdup("invalid inertia (below)");
	else if (sh[li].far)
		text[2] = phys_xasprintf("box %.3g x its shapes%s",
		    sh[li].ratio, f->clipped ? ", clipped" : "");
	else
		text[2] = NULL;
}

/* Characters across the widest line a cell must hold. */
static size_t
cell_chars(const struct phys_scene *w, const struct shown *sh)
{
	size_t i, n, most = strlen("cell 0.000123 m across");

	for (i = 0; i < w->nlinks; i++) {
		if (!sh[i].drawn)
			continue;
		n = strlen(w->links[i].name);
		most = n > most ? n : most;
		if (sh[i].far)	/* as cell_label says it, at its longest */
			n = (size_t)snprintf(NULL, 0, "box %.3g x its shapes, "
			    "clipped", sh[i].ratio);
		else if (sh[i].why)
			n = strlen("invalid inertia (below)");
		most = n > most ? n : most;
	}
	return most > CELL_NAME_MAX ? CELL_NAME_MAX : most;
}

/* Pixels a metre that fit lo .. hi into dw by CELL_DRAW_H pixels. */
static double
fit_scale(const double lo[3], const double hi[3], int u, int v, double dw)
{
	double du = hi[u] - lo[u], dv = hi[v] - lo[v], s = HUGE_VAL;

	if (du > 0)
		s = dw / du;
	if (dv > 0)
		s = fmin(s, CELL_DRAW_H / dv);
	return isfinite(s) ? s : 1;
}

/*
 * Each link fitted to its own cell: its shapes and box to fill the
 * drawing's room; but when its box stands out larger than shapes it has,
 * the shapes take a CELL_BOX_MAX-th of the room at least, centred, and
 * the box is clipped at the cell if it must be.
 */
static void
cells_frame(const struct phys_scene *w, const struct shown *sh,
    struct view *vw)
{
	size_t i, m = 0, nd = 0;
	double lo[3], hi[3], blo[3], bhi[3], dw, s;
	int u = vw->u, v = vw->v, rows;
	struct pen pn;
	bool box_out;

	for (i = 0; i < w->nlinks; i++)
		nd += sh[i].drawn;
	vw->cw = (int)cell_chars(w, sh) * CHAR_W + 2 * CELL_PAD;
	vw->cw = vw->cw < CELL_MIN_W ? CELL_MIN_W : vw->cw;
	vw->cols = PLOT_W / vw->cw;
	vw->cw = PLOT_W / vw->cols;
	rows = nd ? (int)((nd + (size_t)vw->cols - 1) / (size_t)vw->cols) : 1;
	vw->cells = true;
	vw->moved = false;
	vw->scale = 1;
	vw->height = rows * CELL_H;
	vw->ulo = 0, vw->uhi = PLOT_W;
	vw->vlo = 0, vw->vhi = vw->height;
	dw = vw->cw - 2 * CELL_PAD;
	for (i = 0; i < w->nlinks; i++) {
		struct fit *f = &vw->fit[i];

		if (!sh[i].drawn)
			continue;
		pen_start(&pn, NULL, u, 0);
		link_shapes(&pn, w, (int)i);
		box_out = sh[i].far && sh[i].ratio > 1 && pn.any;
		measure(w, &sh[i], (int)i, u, true, true, lo, hi);
		s = fit_scale(lo, hi, u, v, dw);
		if (box_out) {
			measure(w, &sh[i], (int)i, u, true, false, lo, hi);
			s = fmax(s, fit_scale(lo, hi, u, v, dw) / CELL_BOX_MAX);
		}
		f->scale = s;
		f->ou = (lo[u] + hi[u]) / 2, f->ov = (lo[v] + hi[v]) / 2;
		measure(w, &sh[i], (int)i, u, false, true, blo, bhi);
		f->clipped = box_out && ((bhi[u] - blo[u]) * f->scale > dw +
		    1 || (bhi[v] - blo[v]) * f->scale > CELL_DRAW_H + 1);
		f->x0 = (int)(m % (size_t)vw->cols) * vw->cw;
		f->y0 = (rows - 1 - (int)(m / (size_t)vw->cols)) * CELL_H;
		m++;
	}
}

/* A pen that draws the link into its cell. */
static void
cell_pen(struct pen *pn, struct phys_buf *b, const struct view *vw,
    const struct fit *f)
{
	double bottom = f->y0 + 2 * CELL_PAD + CELL_LINES * CELL_LINE;

	pen_start(pn, b, vw->u, 0);
	pn->cell = true;
	pn->v = vw->v;
	pn->scale = f->scale;
	pn->ou = f->ou, pn->ov = f->ov;
	pn->cx = f->x0 + vw->cw / 2.0;
	pn->cy = bottom + CELL_DRAW_H / 2.0;
	/* half a pixel to spare: a drawing fitted to the room is all in */
	pn->clip[0] = f->x0 + CELL_PAD - 0.5;
	pn->clip[1] = bottom - 0.5;
	pn->clip[2] = f->x0 + vw->cw - CELL_PAD + 0.5;
	pn->clip[3] = bottom + CELL_DRAW_H + 0.5;
}

/* Each cell's frame and the lines of its label, in the view's pixels,
 * tagged down from *tag (TAG_FIRST). */
static void
cells_labels(const struct phys_scene *w, const struct shown *sh,
    const struct view *vw, int *tag, struct phys_buf *b)
{
	char *text[CELL_LINES];
	size_t i;
	int k, obj = TAG_FIRST;

	phys_buf_puts(b, "unset label\nunset object\n");
	for (i = 0; i < w->nlinks; i++) {
		const struct fit *f = &vw->fit[i];

		if (!sh[i].drawn)
			continue;
		phys_buf_printf(b, "set object %d rect from %d, %d to %d, %d "
		    "back fs empty border lc rgb '#cccccc'\n", obj--,
		    f->x0 + 1, f->y0 + 1, f->x0 + vw->cw - 1,
		    f->y0 + CELL_H - 1);
		cell_label(w, sh, f, (int)i, (vw->cw - 2 * CELL_PAD) /
		    f->scale, text);
		for (k = 0; k < CELL_LINES; k++) {
			if (!text[k])
				continue;
			phys_buf_printf(b, "set label %d ", (*tag)--);
			gp_string(b, text[k]);
			phys_buf_printf(b, " at %.6g, %.6g center front tc "
			    "rgb '%s'\n", f->x0 + vw->cw / 2.0,
			    f->y0 + CELL_PAD + (CELL_LINES - k - 0.5) *
			    CELL_LINE, k == 2 ? "#d62728" : k == 1 ?
			    "#777777" : "#333333");
			free(text[k]);
		}
	}
}

/* The view's data: $sN (shapes of valid links), $iN (shapes of invalid
 * ones), $bN (boxes), $fN (boxes far from their shapes). */
static void
view_data(const struct phys_scene *w, const struct shown *sh,
    const struct view *vw, int k, struct phys_buf *b)
{
	static const char tag[] = "sibf";
	struct pen pn;
	size_t i;
	int t;

	for (t = 0; t < 4; t++) {
		phys_buf_printf(b, "$%c%d << EOD\n", tag[t], k);
		for (i = 0; i < w->nlinks; i++) {
			if (!sh[i].drawn)
				continue;
			if (vw->cells)
				cell_pen(&pn, b, vw, &vw->fit[i]);
			else
				pen_start(&pn, b, vw->u, vw->shift[i]);
			if ((t == 0 && !sh[i].why) || (t == 1 && sh[i].why))
				link_shapes(&pn, w, (int)i);
			else if ((t == 2 && sh[i].box) || (t == 3 && sh[i].far))
				box_edges(&pn, sh[i].f, v3_scale(sh[i].half,
				    -1), sh[i].half);
		}
		/* gnuplot refuses a block without a point */
		if (t > 0 || vw->cells)
			phys_buf_puts(b, "NaN NaN NaN\n");
		phys_buf_puts(b, "EOD\n");
	}
}

/* Each link's name under its drawing in the view, and what is wrong. */
static void
view_labels(const struct phys_scene *w, const struct shown *sh,
    const struct view *vw, int *tag, struct phys_buf *b)
{
	/* two lines of names (centred on the point given) in their room */
	double lo[3], hi[3], below = (NAMES_H - 26) / vw->scale;
	struct phys_buf text = { 0 };
	size_t i;

	phys_buf_puts(b, "unset label\n");
	for (i = 0; i < w->nlinks; i++) {
		if (!sh[i].drawn)
			continue;
		extent(w, (int)i, &sh[i], vw->u, lo, hi);
		phys_buf_clear(&text);
		phys_buf_puts(&text, w->links[i].name);
		if (sh[i].why)
			phys_buf_puts(&text, "\\ninvalid inertia (below)");
		else if (sh[i].far)
			phys_buf_printf(&text, "\\nbox %.3g x its shapes",
			    sh[i].ratio);
		phys_buf_printf(b, "set label %d ", (*tag)--);
		/* a double-quoted string: \n breaks its lines */
		phys_buf_putc(b, '"');
		for (const char *c = text.s; *c; c++) {
			if (*c == '"' || (*c == '\\' && c[1] != 'n'))
				phys_buf_putc(b, '\\');
			phys_buf_putc(b, *c);
		}
		phys_buf_printf(b, "\" at %.6g, %.6g center front tc rgb '%s'\n",
		    (lo[vw->u] + hi[vw->u]) / 2 + vw->shift[i],
		    lo[vw->v] - below, sh[i].why || sh[i].far ? "#d62728" :
		    "#333333");
	}
	phys_buf_free(&text);
}

/* Under the views, why each link without a box has none. */
static void
footnotes(const struct phys_scene *w, const struct shown *sh, int top,
    int height, int *tag, struct phys_buf *b)
{
	size_t i;
	int n = 0;
	char *text;

	for (i = 0; i < w->nlinks; i++) {
		if (!sh[i].why)
			continue;
		text = phys_xasprintf("%s: invalid inertia, no box: %s",
		    w->links[i].name, sh[i].why);
		phys_buf_printf(b, "set label %d ", (*tag)--);
		gp_string(b, text);
		phys_buf_printf(b, " at screen 0.03, screen %.6f left front tc "
		    "rgb '#d62728'\n", 1 - (top + FOOT_LINE * n++ + 10.0) /
		    height);
		free(text);
	}
}

static void
view_plot(const struct view *vw, int k, bool legend, double key_top,
    bool any_invalid, bool any_far, double limit, struct phys_buf *b)
{
	static const char *const names = "xyz";

	int cu = vw->cells ? 1 : vw->u + 1, cv = vw->cells ? 2 : vw->v + 1;

	if (vw->cells)
		phys_buf_printf(b, "set title '%s: each link in its own cell, "
		    "at its own scale (%c across, %c up)'\n", vw->title,
		    names[vw->u], names[vw->v]);
	else
		phys_buf_printf(b, "set title '%s%s'\nset xlabel '%c [m]%s'\n"
		    "set ylabel '%c [m]'\n", vw->title, vw->moved ? ": links "
		    "that would overlap moved apart" : "", names[vw->u],
		    vw->moved ? " (a link moved keeps its size, not its place)" :
		    "", names[vw->v]);
	/* room around, and under for the names */
	phys_buf_printf(b, "set xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\n",
	    vw->ulo, vw->uhi, vw->vlo, vw->vhi);
	if (legend)
		phys_buf_printf(b, "set key at screen 0.5, screen %.6f center "
		    "top vertical\n", key_top);
	else
		phys_buf_puts(b, "unset key\n");
	/* the shapes over the boxes: where a box fits, both show */
	phys_buf_printf(b, "plot $b%d using %d:%d with lines lc rgb '#ff69b4' "
	    "lw 3 title 'box of equivalent inertia: the uniform box with the "
	    "link''s mass and moments of inertia, along its principal axes',"
	    " \\\n  $s%d using %d:%d with lines lc rgb '#2f4b7c' title "
	    "'collision shapes (a box matching them: the inertia fits the "
	    "shapes)'", k, cu, cv, k, cu, cv);
	if (any_far)
		phys_buf_printf(b, ", \\\n  $f%d using %d:%d with lines lc rgb "
		    "'#d62728' lw 3 dt 2 title 'box more than %g times "
		    "larger or smaller than its shapes'", k, cu, cv, limit);
	if (any_invalid)
		phys_buf_printf(b, ", \\\n  $i%d using %d:%d with lines lc rgb "
		    "'#d62728' title 'shapes of a link whose inertia is not "
		    "valid (no box)'", k, cu, cv);
	phys_buf_putc(b, '\n');
}

int
phys_inertia_show_script(const struct phys_scene *w,
    const struct phys_show_options *o, struct phys_buf *b)
{
	struct view views[3] = {
		{ .title = "front (x-z)", .u = 0, .v = 2 },
		{ .title = "side (y-z)", .u = 1, .v = 2 },
		{ .title = "top (x-y)", .u = 0, .v = 1 },
	};
	struct shown *sh = phys_xcalloc(w->nlinks + 1, sizeof *sh);
	bool any_invalid = false, any_far = false, cells = false;
	int k, n = 0, head, height, top, tag;
	char *title;
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		look(w, (int)i, o->ratio, &sh[i]);
		any_invalid |= sh[i].why != NULL;
		any_far |= sh[i].far;
		n += sh[i].why || sh[i].far;
	}
	head = HEAD_H + KEY_LINE * (2 + any_far + any_invalid);
	height = head;
	for (k = 0; k < 3; k++) {
		views[k].shift = phys_xcalloc(w->nlinks + 1, sizeof (double));
		views[k].fit = phys_xcalloc(w->nlinks + 1, sizeof (struct fit));
		spread(w, sh, &views[k]);
		cells |= !view_readable(w, sh, &views[k]);
	}
	for (k = 0; k < 3; k++) {
		if (cells)
			cells_frame(w, sh, &views[k]);
		height += views[k].height + VIEW_PAD;
	}
	for (i = 0; i < w->nlinks; i++)	/* a line below for each reason */
		height += sh[i].why ? FOOT_LINE : 0;
	phys_buf_printf(b, "set terminal %s size %d,%d font ',10'%s\n",
	    o->terminal, IMAGE_W, height, strcmp(o->terminal, "svg") == 0 ?
	    " background rgb 'white'" : "");
	phys_buf_puts(b, "set termoption noenhanced\nset output ");
	gp_string(b, o->output);
	phys_buf_putc(b, '\n');
	for (k = 0; k < 3; k++)
		view_data(w, sh, &views[k], k, b);
	phys_buf_puts(b, cells ? "set size ratio -1\nunset tics\n"
	    "unset border\nset lmargin 10\nset rmargin 4\nset multiplot title "
	    : "set size ratio -1\nset grid\nset lmargin 10\n"
	    "set rmargin 4\nset multiplot title ");
	title = phys_xasprintf("%s: each link's collision shapes and its box "
	    "of equivalent inertia", o->title);
	gp_string(b, title);
	free(title);
	phys_buf_putc(b, '\n');
	top = head;
	for (k = 0; k < 3; k++) {
		int h = views[k].height;

		/* the view's plot between its margins, at screen fractions */
		phys_buf_printf(b, "set tmargin at screen %.6f\nset bmargin at "
		    "screen %.6f\n", 1 - (top + 30.0) / height,
		    1 - (top + 30.0 + h) / height);
		tag = TAG_FIRST;
		if (cells)
			cells_labels(w, sh, &views[k], &tag, b);
		else
			view_labels(w, sh, &views[k], &tag, b);
		if (k == 2)
			footnotes(w, sh, top + h + VIEW_PAD, height, &tag, b);
		view_plot(&views[k], k, k == 0, 1 - 36.0 / height, any_invalid,
		    any_far, o->ratio, b);
		top += h + VIEW_PAD;
	}
	phys_buf_puts(b, "unset multiplot\n");
	for (k = 0; k < 3; k++) {
		free(views[k].shift);
		free(views[k].fit);
	}
	for (i = 0; i < w->nlinks; i++)
		free(sh[i].why);
	free(sh);
	return n;
}

/* New images get the usual permissions, not mkstemp's 0600. */
static void
umask_mode(FILE *fp)
{
	mode_t mask = umask(0);

	umask(mask);
	(void)fchmod(fileno(fp), 0666 & ~mask);
}

/* gnuplot draws into the temporary file, renamed when it succeeded. */
const char *
phys_inertia_show_terminal(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && strcmp(dot, ".png") == 0)
		return "pngcairo";
	if (dot && strcmp(dot, ".svg") == 0)
		return "svg";
	return NULL;
}

int
phys_inertia_show_draw(const struct phys_scene *w,
    const struct phys_show_options *o)
{
	struct phys_show_options tmp;
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	FILE *gp;
	int rc;

	if (phys_atomic_open(&a, o->output) < 0)
		return -1;
	umask_mode(a.fp);
	/* the script names the temporary file */
	tmp = *o;
	tmp.output = a.tmp;
	phys_inertia_show_script(w, &tmp, &script);
	fflush(stdout);
	/* gnuplot reads a script on its standard input a byte a read (20 s
	 * for a 5,000-link robot's 10 MB); loaded through cat, it reads it
	 * buffered, as a file (2 s) */
	gp = popen("gnuplot -e \"load '< cat'\"", "w");
	if (!gp) {
		phys_atomic_abort(&a);
		phys_buf_free(&script);
		return phys_fail("cannot run gnuplot (Debian: gnuplot-nox)");
	}
	rc = fwrite(script.s, 1, script.len, gp) == script.len ? 0 : -1;
	if (pclose(gp) != 0 || rc < 0) {
		phys_atomic_abort(&a);
		phys_buf_free(&script);
		return phys_fail("gnuplot failed drawing %s", o->output);
	}
	phys_buf_free(&script);
	return phys_atomic_commit(&a);
}

int
phys_inertia_show_save_script(const struct phys_scene *w,
    const struct phys_show_options *o, const char *path)
{
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	int rc;

	phys_inertia_show_script(w, o, &script);
	if (phys_atomic_open(&a, path) < 0) {
		phys_buf_free(&script);
		return -1;
	}
	umask_mode(a.fp);
	rc = fwrite(script.s, 1, script.len, a.fp) == script.len ? 0 : -1;
	phys_buf_free(&script);
	if (rc < 0) {
		phys_atomic_abort(&a);
		return phys_fail("%s: write failed", path);
	}
	return phys_atomic_commit(&a);
}
