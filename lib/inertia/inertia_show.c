/* inertia_show.c - collision shapes and boxes of equivalent inertia, drawn. */
#include "inertia_show.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inertia.h"
#include "inertia_world.h"

#define CIRCLE_SEGMENTS 48

/* "x y z" of a point in the world, a line. */
static void
point(struct phys_buf *b, phys_vec3 p)
{
	double v[3] = { p.x, p.y, p.z };
	int k;

	for (k = 0; k < 3; k++) {
		phys_buf_double(b, v[k]);
		phys_buf_putc(b, k < 2 ? ' ' : '\n');
	}
}

/* One segment, from a to c: its two points and a blank line. */
static void
segment(struct phys_buf *b, phys_vec3 a, phys_vec3 c)
{
	point(b, a);
	point(b, c);
	phys_buf_putc(b, '\n');
}

/* The twelve edges of the box from lo to hi in the frame f. */
static void
box_edges(struct phys_buf *b, phys_pose f, phys_vec3 lo, phys_vec3 hi)
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
			segment(b, phys_pose_apply(f, a), phys_pose_apply(f, c));
		}
}

/* An ellipse about centre c in the plane of the frame's axes u and v
 * (0 x, 1 y, 2 z), semi-axes ru and rv. */
static void
ellipse(struct phys_buf *b, phys_pose f, phys_vec3 c, int u, int v,
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
		segment(b, phys_pose_apply(f, v3(p[0], p[1], p[2])),
		    phys_pose_apply(f, v3(q[0], q[1], q[2])));
	}
}

/* A cylinder or capsule of radius r along z, its straight part from -h to
 * h: end circles, four lines, and for a capsule the caps' outlines. */
static void
tube(struct phys_buf *b, phys_pose f, double r, double h, bool caps)
{
	int k, end;

	for (end = -1; end <= 1; end += 2) {
		phys_vec3 c = v3(0, 0, end * h);

		ellipse(b, f, c, 0, 1, r, r);
		if (caps) {
			ellipse(b, f, c, 0, 2, r, r);
			ellipse(b, f, c, 1, 2, r, r);
		}
	}
	for (k = 0; k < 4; k++) {
		double x = r * cos(M_PI / 2 * k), y = r * sin(M_PI / 2 * k);

		segment(b, phys_pose_apply(f, v3(x, y, -h)),
		    phys_pose_apply(f, v3(x, y, h)));
	}
}

static void
shape_edges(struct phys_buf *b, const struct phys_world *w,
    const struct phys_collision *c)
{
	phys_pose f = phys_pose_mul(w->links[c->link].pose, c->pose);
	const double *s = c->size;
	phys_vec3 o = v3(0, 0, 0);

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		box_edges(b, f, v3(-s[0] / 2, -s[1] / 2, -s[2] / 2),
		    v3(s[0] / 2, s[1] / 2, s[2] / 2));
		break;
	case PHYS_GEOM_SPHERE:
	case PHYS_GEOM_ELLIPSOID: {
		double r[3] = { s[0], s[c->shape == PHYS_GEOM_SPHERE ? 0 : 1],
		    s[c->shape == PHYS_GEOM_SPHERE ? 0 : 2] };

		ellipse(b, f, o, 0, 1, r[0], r[1]);
		ellipse(b, f, o, 1, 2, r[1], r[2]);
		ellipse(b, f, o, 0, 2, r[0], r[2]);
		break;
	}
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
		tube(b, f, s[0], s[1] / 2, c->shape == PHYS_GEOM_CAPSULE);
		break;
	case PHYS_GEOM_CONE:	/* its triangles' bounding box, as a mesh */
	case PHYS_GEOM_MESH:	/* its bounding box: a mesh's edges clutter */
		box_edges(b, f, c->mesh->lo, c->mesh->hi);
		break;
	default:		/* planes and terrain have no extent to draw */
		break;
	}
}

/* The box of equivalent inertia in the world, along the principal axes;
 * false when the link has none to draw. */
static bool
link_box(const struct phys_world *w, int li, phys_pose *f, phys_vec3 *half)
{
	const struct phys_link *l = &w->links[li];
	phys_inertia in;
	phys_vec3 size;
	phys_mat3 R;

	if (w->models[l->model].is_static)
		return false;
	phys_link_inertia(l, &in);
	if (phys_inertia_box_equivalent(&in, &size, &R) < 0)
		return false;
	*f = phys_pose_mul(l->pose, phys_pose_from6(in.pose));
	f->q = phys_quat_mul(f->q, phys_mat3_to_quat(R));
	*half = v3_scale(size, 0.5);
	return true;
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

/* Links standing out: their box this many times their shapes'. */
static bool
stands_out(const struct phys_world *w, int li, double limit, double *ratio)
{
	phys_inertia in;

	if (w->models[w->links[li].model].is_static)
		return false;
	phys_link_inertia(&w->links[li], &in);
	*ratio = phys_link_box_ratio(w, li, &in);
	return *ratio > 0 && (*ratio > limit || *ratio < 1 / limit);
}

static void
data_blocks(const struct phys_world *w, const struct phys_show_options *o,
    struct phys_buf *b, int *flagged)
{
	phys_pose f;
	phys_vec3 h;
	double ratio;
	size_t i;
	int n = 0;

	phys_buf_puts(b, "$shapes << EOD\n");
	for (i = 0; i < w->ncollisions; i++)
		shape_edges(b, w, &w->collisions[i]);
	phys_buf_puts(b, "EOD\n$boxes << EOD\n");
	for (i = 0; i < w->nlinks; i++)
		if (link_box(w, (int)i, &f, &h))
			box_edges(b, f, v3_scale(h, -1), h);
	phys_buf_puts(b, "EOD\n");
	for (i = 0; i < w->nlinks; i++) {
		flagged[i] = -1;
		if (!stands_out(w, (int)i, o->ratio, &ratio) ||
		    !link_box(w, (int)i, &f, &h))
			continue;
		phys_warn("%s: its box of equivalent inertia is %.3g times "
		    "its shapes' (beyond %g)", w->links[i].name, ratio,
		    o->ratio);
		phys_buf_printf(b, "$flag%d << EOD\n", n);
		box_edges(b, f, v3_scale(h, -1), h);
		phys_buf_puts(b, "EOD\n");
		flagged[i] = n++;
	}
}

/* One view: the axes u and v of the world (1 x, 2 y, 3 z). */
static void
view(const struct phys_world *w, struct phys_buf *b, const char *title,
    int u, int v, const int *flagged)
{
	static const char *const names = "xyz";
	phys_inertia in;
	size_t i;

	phys_buf_printf(b, "set title '%s'\nset xlabel '%c [m]'\n"
	    "set ylabel '%c [m]'\n", title, names[u - 1], names[v - 1]);
	/* the shapes over the boxes: where a box fits, both show */
	phys_buf_printf(b, "plot $boxes using %d:%d with lines lc rgb '#ff69b4' "
	    "lw 3 title 'box of equivalent inertia', \\\n  $shapes using "
	    "%d:%d with lines lc rgb '#2f4b7c' title 'collision shapes'", u,
	    v, u, v);
	for (i = 0; i < w->nlinks; i++) {
		char *label;

		if (flagged[i] < 0)
			continue;
		phys_link_inertia(&w->links[i], &in);
		label = phys_xasprintf("%s: box %.3g x its shapes",
		    w->links[i].name, phys_link_box_ratio(w, (int)i, &in));
		phys_buf_printf(b, ", \\\n  $flag%d using %d:%d with lines lc rgb "
		    "'#d62728' lw 3 dt 2 title ", flagged[i], u, v);
		gp_string(b, label);
		free(label);
	}
	phys_buf_putc(b, '\n');
}

int
phys_inertia_show_script(const struct phys_world *w,
    const struct phys_show_options *o, struct phys_buf *b)
{
	int *flagged = phys_xcalloc(w->nlinks + 1, sizeof *flagged), n = 0;
	char *title;
	size_t i;

	phys_buf_printf(b, "set terminal %s size 1500,560 font ',10'%s\n",
	    o->terminal, strcmp(o->terminal, "svg") == 0 ?
	    " background rgb 'white'" : "");
	phys_buf_puts(b, "set termoption noenhanced\nset output ");
	gp_string(b, o->output);
	phys_buf_putc(b, '\n');
	data_blocks(w, o, b, flagged);
	for (i = 0; i < w->nlinks; i++)
		n += flagged[i] >= 0;
	phys_buf_puts(b, "set size ratio -1\nset key below\nset grid\n"
	    "set multiplot layout 1,3 title ");
	title = phys_xasprintf("%s: collision shapes and boxes of equivalent "
	    "inertia (principal axes)", o->title);
	gp_string(b, title);
	free(title);
	phys_buf_putc(b, '\n');
	view(w, b, "front (x-z)", 1, 3, flagged);
	view(w, b, "side (y-z)", 2, 3, flagged);
	view(w, b, "top (x-y)", 1, 2, flagged);
	phys_buf_puts(b, "unset multiplot\n");
	free(flagged);
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
int
phys_inertia_show_draw(const struct phys_world *w,
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
phys_inertia_show_save_script(const struct phys_world *w,
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
