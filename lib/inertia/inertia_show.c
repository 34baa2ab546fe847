/*
 * inertia_show.c - collision shapes and boxes of equivalent inertia, drawn.
 *
 * Three views (front, side, top), one above the other, each at one scale
 * for both its axes. In a view, links whose drawings would overlap are
 * moved apart along its horizontal axis, and each link is named under its
 * shapes, so that every link's box can be told from its shapes and from
 * its neighbours'. A link with an invalid inertia has no box: its shapes
 * are drawn in red, and its name says why.
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

/* Where points go: a buffer, and the bounds of what went there. */
struct pen {
	struct phys_buf *b;	/* NULL: only measure */
	int u;			/* the horizontal axis (0 x, 1 y, 2 z) ... */
	double shift;		/* ... along which points move by this */
	double lo[3], hi[3];
	bool any;
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

/* One segment, from a to c: its two points and a blank line. */
static void
segment(struct pen *pn, phys_vec3 a, phys_vec3 c)
{
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
		phys_warn("%s: its inertia is not valid (%s): no box of "
		    "equivalent inertia", l->name, sh->why);
	} else {
		sh->box = true;
		sh->f = phys_pose_mul(l->pose, phys_pose_from6(in.pose));
		sh->f.q = phys_quat_mul(sh->f.q, phys_mat3_to_quat(R));
		sh->half = v3_scale(size, 0.5);
		sh->ratio = phys_link_box_ratio(w, li, &in);
		sh->far = phys_inertia_box_far(w, li, &in, limit, &why) > 0;
		if (sh->far)
			phys_warn("%s: %s", l->name, why.s);
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
			pen_start(&pn, b, vw->u, vw->shift[i]);
			if ((t == 0 && !sh[i].why) || (t == 1 && sh[i].why))
				link_shapes(&pn, w, (int)i);
			else if ((t == 2 && sh[i].box) || (t == 3 && sh[i].far))
				box_edges(&pn, sh[i].f, v3_scale(sh[i].half,
				    -1), sh[i].half);
		}
		/* gnuplot refuses a block without a point */
		if (t > 0)
			phys_buf_puts(b, "NaN NaN NaN\n");
		phys_buf_puts(b, "EOD\n");
	}
}

/* Each link's name under its drawing in the view, and what is wrong. */
static void
view_labels(const struct phys_scene *w, const struct shown *sh,
    const struct view *vw, struct phys_buf *b)
{
	/* two lines of names (centred on the point given) in their room */
	double lo[3], hi[3], below = (NAMES_H - 26) / vw->scale;
	struct phys_buf text = { 0 };
	size_t i;
	int n = 0;

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
		phys_buf_printf(b, "set label %d ", ++n);
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
    int height, struct phys_buf *b)
{
	size_t i;
	int n = 0;
	char *text;

	for (i = 0; i < w->nlinks; i++) {
		if (!sh[i].why)
			continue;
		text = phys_xasprintf("%s: invalid inertia, no box: %s",
		    w->links[i].name, sh[i].why);
		phys_buf_printf(b, "set label %zu ", 1000 + i);
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

	phys_buf_printf(b, "set title '%s%s'\nset xlabel '%c [m]%s'\n"
	    "set ylabel '%c [m]'\n", vw->title, vw->moved ? ": links that "
	    "would overlap moved apart" : "", names[vw->u], vw->moved ?
	    " (a link moved keeps its size, not its place)" : "",
	    names[vw->v]);
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
	    "shapes)'", k, vw->u + 1, vw->v + 1, k, vw->u + 1, vw->v + 1);
	if (any_far)
		phys_buf_printf(b, ", \\\n  $f%d using %d:%d with lines lc rgb "
		    "'#d62728' lw 3 dt 2 title 'box more than %g times "
		    "larger or smaller than its shapes'", k, vw->u + 1,
		    vw->v + 1, limit);
	if (any_invalid)
		phys_buf_printf(b, ", \\\n  $i%d using %d:%d with lines lc rgb "
		    "'#d62728' title 'shapes of a link whose inertia is not "
		    "valid (no box)'", k, vw->u + 1, vw->v + 1);
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
	bool any_invalid = false, any_far = false;
	int k, n = 0, head, height, top;
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
		spread(w, sh, &views[k]);
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
	phys_buf_puts(b, "set size ratio -1\nset grid\nset lmargin 10\n"
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
		view_labels(w, sh, &views[k], b);
		if (k == 2)
			footnotes(w, sh, top + h + VIEW_PAD, height, b);
		view_plot(&views[k], k, k == 0, 1 - 36.0 / height, any_invalid,
		    any_far, o->ratio, b);
		top += h + VIEW_PAD;
	}
	phys_buf_puts(b, "unset multiplot\n");
	for (k = 0; k < 3; k++)
		free(views[k].shift);
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
	gp = popen("gnuplot", "w");
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
