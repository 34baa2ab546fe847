/* inertia_check.c - the inertia of every link of a world, checked. */
#include "inertia_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inertia.h"
#include "inertia_world.h"

static double
largest_moment(const phys_inertia *in)
{
	double m[3];
	phys_mat3 R;

	if (phys_inertia_principal(in->I, m, &R) < 0)
		return NAN;
	return fmax(fabs(m[0]), fmax(fabs(m[1]), fabs(m[2])));
}

/*
 * The joints of each link, in joint order: link li's are
 * joint[first[li] .. first[li + 1]), so that a link's neighbours are
 * found without a walk over every joint (a chain of many links was
 * quadratic).
 */
struct link_joints {
	size_t *first;		/* nlinks + 1 */
	size_t *joint;
};

static void
link_joints_add(struct link_joints *lj, size_t *fill, int li, size_t j)
{
	if (li >= 0)
		lj->joint[fill[li]++] = j;
}

static void
link_joints_init(struct link_joints *lj, const struct phys_scene *w)
{
	size_t *fill, i, j;

	lj->first = phys_xcalloc(w->nlinks + 1, sizeof *lj->first);
	lj->joint = phys_xcalloc(2 * w->njoints + 1, sizeof *lj->joint);
	for (j = 0; j < w->njoints; j++) {
		if (w->joints[j].child >= 0)
			lj->first[w->joints[j].child + 1]++;
		if (w->joints[j].parent >= 0 &&
		    w->joints[j].parent != w->joints[j].child)
			lj->first[w->joints[j].parent + 1]++;
	}
	for (i = 0; i < w->nlinks; i++)
		lj->first[i + 1] += lj->first[i];
	fill = phys_xmalloc((w->nlinks + 1) * sizeof *fill);
	memcpy(fill, lj->first, (w->nlinks + 1) * sizeof *fill);
	for (j = 0; j < w->njoints; j++) {
		link_joints_add(lj, fill, w->joints[j].child, j);
		if (w->joints[j].parent != w->joints[j].child)
			link_joints_add(lj, fill, w->joints[j].parent, j);
	}
	free(fill);
}

static void
link_joints_free(struct link_joints *lj)
{
	free(lj->first);
	free(lj->joint);
}

/* Ratios across joints between moving links: the quick-step solver
 * converges poorly when neighbours differ by orders of magnitude. */
static void
joint_warnings(struct phys_scene *w, const struct link_joints *lj, int li,
    double limit, struct phys_buf *b)
{
	phys_inertia a, o;
	double mr, ir;
	char msg[512];
	size_t k, j;
	int other, n = 0;

	for (k = lj->first[li]; k < lj->first[li + 1]; k++) {
		const struct phys_joint *jt = &w->joints[j = lj->joint[k]];

		other = jt->child == li ? jt->parent : jt->parent == li ?
		    jt->child : -2;
		if (other < 0 || w->models[w->links[other].model].is_static ||
		    w->models[w->links[li].model].is_static)
			continue;
		phys_link_inertia(&w->links[li], &a);
		phys_link_inertia(&w->links[other], &o);
		mr = a.mass > o.mass ? a.mass / o.mass : o.mass / a.mass;
		ir = largest_moment(&a) / largest_moment(&o);
		ir = ir < 1 ? 1 / ir : ir;
		if (!(mr > limit) && !(ir > limit))
			continue;
		snprintf(msg, sizeof msg, "%s ratio %.3g across joint '%s' "
		    "(with '%s'): the quick-step solver converges poorly above "
		    "%g", mr > limit ? "mass" : "inertia", mr > limit ? mr : ir,
		    jt->name, w->links[other].name, limit);
		phys_buf_puts(b, n++ ? "," : ",\"warnings\":[");
		phys_buf_json_string(b, msg);
	}
	if (n)
		phys_buf_putc(b, ']');
}

double
phys_inertia_box_far(const struct phys_scene *w, int li,
    const phys_inertia *in, double limit, struct phys_buf *why)
{
	double r = phys_link_box_ratio(w, li, in);

	if (!(r > 0) || (r <= limit && r >= 1 / limit))
		return 0;
	phys_buf_printf(why, "its box of equivalent inertia is %.3g times its "
	    "shapes' (beyond %g)", r, limit);
	return r;
}

/*
 * Three equal moments of one significant digit and no products: a value
 * typed in to fill the element (Gazebo's 1, a robot's 0.01 on every
 * link), not the inertia of a body; the shapes, where the link has them,
 * say whether it happens to fit.
 */
static bool
placeholder(const phys_inertia *in, double *value)
{
	double v = in->I.m[0][0], m;

	if (!(v > 0) || in->I.m[1][1] != v || in->I.m[2][2] != v ||
	    in->I.m[0][1] != 0 || in->I.m[0][2] != 0 || in->I.m[1][2] != 0)
		return false;
	m = v / pow(10, floor(log10(v)));
	*value = v;
	return fabs(m - round(m)) < 1e-9 * m;
}

/* A valid inertia no body of the link's shapes has, and why. */
static bool
implausible(struct phys_scene *w, int li, const phys_inertia *in,
    double limit, struct phys_buf *why)
{
	phys_vec3 lo, hi;
	double vol, v;
	bool far = phys_inertia_box_far(w, li, in, limit, why) > 0;
	bool shapes = phys_link_geometry_box(w, li, &lo, &hi, &vol);

	if (placeholder(in, &v) && (far || !shapes))
		phys_buf_printf(why, "%sixx = iyy = izz = %g and no products: "
		    "a placeholder, not a body's inertia%s", far ? "; " : "", v,
		    shapes ? "" : " (the link has no shapes to compare with)");
	return why->len > 0;
}

static void
put_size(struct phys_buf *b, const char *key, phys_vec3 s)
{
	static const char *const xyz[] = { "x", "y", "z" };
	double v[3] = { s.x, s.y, s.z };

	phys_buf_printf(b, ",\"%s\":", key);
	phys_buf_json_numbers(b, xyz, v, 3);
}

/* The geometry's box and density, and how the equivalent box compares. */
static void
check_geometry(struct phys_scene *w, int li, const phys_inertia *in,
    bool valid, struct phys_buf *b)
{
	phys_vec3 lo, hi;
	double vol;

	if (!phys_link_geometry_box(w, li, &lo, &hi, &vol))
		return;
	put_size(b, "geometry_box", v3_sub(hi, lo));
	if (vol > 0) {
		phys_buf_puts(b, ",\"density\":");
		phys_buf_double(b, in->mass / vol);
	}
	if (!valid || phys_link_box_ratio(w, li, in) == 0)
		return;
	phys_buf_puts(b, ",\"box_ratio\":");
	phys_buf_double(b, phys_link_box_ratio(w, li, in));
}

static bool
check_link(struct phys_scene *w, const struct link_joints *lj, int li,
    double limit, struct phys_buf *b)
{
	struct phys_inertia_verdict v;
	struct phys_buf why = { 0 };
	phys_inertia in;
	phys_vec3 size;
	phys_mat3 R;
	bool valid, stat = w->models[w->links[li].model].is_static;

	phys_link_inertia(&w->links[li], &in);
	valid = phys_inertia_validate(&in, &v) == PHYS_INERTIA_VALID;
	phys_buf_puts(b, "{\"link\":");
	phys_buf_json_string(b, w->links[li].name);
	phys_buf_puts(b, ",\"file\":");
	phys_buf_json_string(b, phys_node_file(w->links[li].doc,
	    w->links[li].node));
	phys_buf_printf(b, ",\"line\":%ld", phys_node_line(w->links[li].node));
	phys_buf_puts(b, ",\"mass\":");
	phys_buf_double(b, in.mass);
	phys_buf_printf(b, ",\"valid\":%s", valid ? "true" : "false");
	if (!valid) {
		phys_buf_puts(b, ",\"reason\":");
		phys_buf_json_string(b, v.reason);
	}
	if (phys_link_sdformat_refuses(&w->links[li], &in))
		phys_buf_puts(b, ",\"libsdformat\":\"refuses\"");
	phys_buf_puts(b, ",\"tolerance\":");
	phys_buf_double(b, v.tol);
	phys_buf_puts(b, ",\"moments\":[");
	phys_buf_double(b, v.moments[0]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, v.moments[1]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, v.moments[2]);
	phys_buf_putc(b, ']');
	if (valid && phys_inertia_box_equivalent(&in, &size, &R) == 0)
		put_size(b, "box", size);
	check_geometry(w, li, &in, valid, b);
	if (w->links[li].lost) {	/* its geometry is not all known */
		phys_buf_puts(b, ",\"unread\":");
		phys_buf_json_string(b, w->links[li].lost);
	}
	/* a static link's inertia moves nothing */
	if (valid && !stat && implausible(w, li, &in, limit, &why)) {
		phys_buf_puts(b, ",\"implausible\":");
		phys_buf_json_string(b, why.s);
	}
	phys_buf_free(&why);
	if (stat)
		phys_buf_puts(b, ",\"static\":true");
	joint_warnings(w, lj, li, limit, b);
	phys_buf_puts(b, "}\n");
	return valid;
}

size_t
phys_inertia_check_world(struct phys_scene *w, double ratio,
    struct phys_buf *b)
{
	struct link_joints lj;
	size_t i, bad = 0;

	link_joints_init(&lj, w);
	for (i = 0; i < w->nlinks; i++)
		bad += !check_link(w, &lj, (int)i, ratio, b);
	link_joints_free(&lj);
	return bad;
}
