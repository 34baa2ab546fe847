/* inertia.c - rigid-body inertia: shapes, frames, principal axes, checks. */
#include "inertia.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static const struct phys_shape_info shapes[PHYS_NSHAPES] = {
	[PHYS_SHAPE_BOX] = { "box", 3, { "X", "Y", "Z" }, false },
	[PHYS_SHAPE_SPHERE] = { "sphere", 1, { "R" }, false },
	[PHYS_SHAPE_CYLINDER] = { "cylinder", 2, { "R", "L" }, false },
	[PHYS_SHAPE_CAPSULE] = { "capsule", 2, { "R", "L" }, false },
	[PHYS_SHAPE_ELLIPSOID] = { "ellipsoid", 3, { "A", "B", "C" }, false },
	[PHYS_SHAPE_HOLLOW_SPHERE] = { "hollow-sphere", 1, { "R" }, true },
	[PHYS_SHAPE_HOLLOW_CYLINDER] = { "hollow-cylinder", 2, { "R", "L" },
	    true },
};

/* Shortest round-trip text of v, for messages; "nan" and "inf" too. */
struct numtext {
	char s[40];
};

static struct numtext
num(double v)
{
	struct numtext t;

	if (isfinite(v))
		phys_fmt_double(t.s, sizeof t.s, v);
	else
		snprintf(t.s, sizeof t.s, "%g", v);
	return t;
}

static phys_mat3
zero3(void)
{
	phys_mat3 z;

	memset(&z, 0, sizeof z);
	return z;
}

static phys_mat3
diag3(double a, double b, double c)
{
	phys_mat3 d = zero3();

	d.m[0][0] = a;
	d.m[1][1] = b;
	d.m[2][2] = c;
	return d;
}

static phys_mat3
add3(phys_mat3 a, phys_mat3 b)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			a.m[i][j] += b.m[i][j];
	return a;
}

static bool
finite3(phys_mat3 a)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			if (!isfinite(a.m[i][j]))
				return false;
	return true;
}

static double
det3(phys_mat3 a)
{
	return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
	    a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
	    a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

/* Rounding leaves R I R^T slightly asymmetric; a tensor is not. */
static phys_mat3
symmetrize(phys_mat3 a)
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			a.m[i][j] = a.m[j][i] = (a.m[i][j] + a.m[j][i]) / 2;
	return a;
}

static bool
has_rotation(const phys_inertia *in)
{
	return in->pose[3] != 0 || in->pose[4] != 0 || in->pose[5] != 0;
}

static phys_mat3
pose_rotation(const phys_inertia *in)
{
	return phys_quat_to_mat3(phys_quat_from_rpy(in->pose[3], in->pose[4],
	    in->pose[5]));
}

phys_inertia
phys_inertia_make(double mass, double ixx, double iyy, double izz,
    double ixy, double ixz, double iyz)
{
	phys_inertia in;

	memset(&in, 0, sizeof in);
	in.mass = mass;
	in.I.m[0][0] = ixx;
	in.I.m[1][1] = iyy;
	in.I.m[2][2] = izz;
	in.I.m[0][1] = in.I.m[1][0] = ixy;
	in.I.m[0][2] = in.I.m[2][0] = ixz;
	in.I.m[1][2] = in.I.m[2][1] = iyz;
	return in;
}

const struct phys_shape_info *
phys_shape_info(phys_shape_kind kind)
{
	return (unsigned)kind < PHYS_NSHAPES ? &shapes[kind] : NULL;
}

int
phys_shape_lookup(const char *name)
{
	int k;

	for (k = 0; k < PHYS_NSHAPES; k++)
		if (strcmp(shapes[k].name, name) == 0)
			return k;
	return -1;
}

/* A cylinder's or capsule's length may be 0: a disk, a sphere, a ring. */
static bool
is_length(phys_shape_kind kind, int i)
{
	return i == 1 && (kind == PHYS_SHAPE_CYLINDER ||
	    kind == PHYS_SHAPE_CAPSULE || kind == PHYS_SHAPE_HOLLOW_CYLINDER);
}

int
phys_shape_check(const phys_shape *s)
{
	const struct phys_shape_info *info = phys_shape_info(s->kind);
	int i;

	if (!info)
		return phys_fail("unknown shape %d", (int)s->kind);
	for (i = 0; i < info->ndims; i++) {
		if (!isfinite(s->dim[i]))
			return phys_fail("%s: %s is not finite", info->name,
			    info->dims[i]);
		if (is_length(s->kind, i) ? s->dim[i] < 0 : s->dim[i] <= 0)
			return phys_fail("%s: %s must be %s (got %s)",
			    info->name, info->dims[i],
			    is_length(s->kind, i) ? "zero or positive" :
			    "positive", num(s->dim[i]).s);
	}
	return 0;
}

double
phys_shape_measure(const phys_shape *s)
{
	const double *d = s->dim;

	switch (s->kind) {
	case PHYS_SHAPE_BOX:
		return d[0] * d[1] * d[2];
	case PHYS_SHAPE_SPHERE:
		return 4 * M_PI * d[0] * d[0] * d[0] / 3;
	case PHYS_SHAPE_CYLINDER:
		return M_PI * d[0] * d[0] * d[1];
	case PHYS_SHAPE_CAPSULE:
		return M_PI * d[0] * d[0] * (d[1] + 4 * d[0] / 3);
	case PHYS_SHAPE_ELLIPSOID:
		return 4 * M_PI * d[0] * d[1] * d[2] / 3;
	case PHYS_SHAPE_HOLLOW_SPHERE:
		return 4 * M_PI * d[0] * d[0];
	case PHYS_SHAPE_HOLLOW_CYLINDER:
		return 2 * M_PI * d[0] * d[1];
	default:
		return 0;
	}
}

/*
 * A capsule is a cylinder and two hemispheres sharing the mass by volume.
 * About the centre of its flat face a hemisphere has the sphere's
 * 2/5 m r^2 on every axis; its centre of mass sits 3r/8 from that face,
 * so about an axis through the capsule's centre, at distance l/2 + 3r/8,
 * parallel axes give m (2r^2/5 - (3r/8)^2 + (l/2 + 3r/8)^2)
 * = m (2r^2/5 + l^2/4 + 3lr/8).
 */
static void
capsule_moments(double m, double r, double l, double *ixx, double *izz)
{
	double mcyl = m * 3 * l / (3 * l + 4 * r), mcaps = m - mcyl;

	*ixx = mcyl * (3 * r * r + l * l) / 12 +
	    mcaps * (2 * r * r / 5 + l * l / 4 + 3 * l * r / 8);
	*izz = mcyl * r * r / 2 + mcaps * 2 * r * r / 5;
}

int
phys_shape_inertia(const phys_shape *s, double m, phys_inertia *out)
{
	const double *d = s->dim;
	double ixx, iyy, izz;

	if (phys_shape_check(s) < 0)
		return -1;
	if (!isfinite(m) || m <= 0)
		return phys_fail("mass must be positive (got %s)", num(m).s);
	switch (s->kind) {
	case PHYS_SHAPE_BOX:
		ixx = m * (d[1] * d[1] + d[2] * d[2]) / 12;
		iyy = m * (d[0] * d[0] + d[2] * d[2]) / 12;
		izz = m * (d[0] * d[0] + d[1] * d[1]) / 12;
		break;
	case PHYS_SHAPE_SPHERE:
		ixx = iyy = izz = 2 * m * d[0] * d[0] / 5;
		break;
	case PHYS_SHAPE_CYLINDER:
		ixx = iyy = m * (3 * d[0] * d[0] + d[1] * d[1]) / 12;
		izz = m * d[0] * d[0] / 2;
		break;
	case PHYS_SHAPE_CAPSULE:
		capsule_moments(m, d[0], d[1], &ixx, &izz);
		iyy = ixx;
		break;
	case PHYS_SHAPE_ELLIPSOID:
		ixx = m * (d[1] * d[1] + d[2] * d[2]) / 5;
		iyy = m * (d[0] * d[0] + d[2] * d[2]) / 5;
		izz = m * (d[0] * d[0] + d[1] * d[1]) / 5;
		break;
	case PHYS_SHAPE_HOLLOW_SPHERE:
		ixx = iyy = izz = 2 * m * d[0] * d[0] / 3;
		break;
	case PHYS_SHAPE_HOLLOW_CYLINDER:
		/* Means: y^2 round the circle r^2/2, z^2 along it l^2/12. */
		ixx = iyy = m * (6 * d[0] * d[0] + d[1] * d[1]) / 12;
		izz = m * d[0] * d[0];
		break;
	default:
		return phys_fail("unknown shape %d", (int)s->kind);
	}
	if (!isfinite(ixx) || !isfinite(iyy) || !isfinite(izz))
		return phys_fail("%s: inertia out of range",
		    shapes[s->kind].name);
	*out = phys_inertia_make(m, ixx, iyy, izz, 0, 0, 0);
	return 0;
}

phys_mat3
phys_inertia_rotate(phys_mat3 I, phys_mat3 R)
{
	return symmetrize(phys_mat3_mul(phys_mat3_mul(R, I), phys_mat3_transpose(R)));
}

phys_mat3
phys_inertia_shift(phys_mat3 I, double mass, phys_vec3 d)
{
	double v[3] = { d.x, d.y, d.z }, dd = v3_dot(d, d);
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			I.m[i][j] += mass * ((i == j ? dd : 0) - v[i] * v[j]);
	return I;
}

phys_mat3
phys_inertia_link_tensor(const phys_inertia *in)
{
	if (!has_rotation(in))
		return in->I;
	return phys_inertia_rotate(in->I, pose_rotation(in));
}

int
phys_inertia_combine(const phys_inertia *parts, size_t n, phys_inertia *out)
{
	phys_vec3 c = v3(0, 0, 0), ci;
	phys_mat3 I = zero3();
	double m = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (!isfinite(parts[k].mass) || parts[k].mass < 0)
			return phys_fail("part %zu: mass must not be negative "
			    "(got %s)", k + 1, num(parts[k].mass).s);
		m += parts[k].mass;
		ci = v3(parts[k].pose[0], parts[k].pose[1], parts[k].pose[2]);
		c = v3_add(c, v3_scale(ci, parts[k].mass));
	}
	if (!(m > 0) || !isfinite(m))
		return phys_fail("total mass must be positive (got %s)",
		    num(m).s);
	c = v3_scale(c, 1 / m);
	for (k = 0; k < n; k++) {
		ci = v3(parts[k].pose[0], parts[k].pose[1], parts[k].pose[2]);
		I = add3(I, phys_inertia_shift(
		    phys_inertia_link_tensor(&parts[k]), parts[k].mass,
		    v3_sub(ci, c)));
	}
	if (!finite3(I) || !isfinite(c.x + c.y + c.z))
		return phys_fail("combined inertia out of range");
	memset(out, 0, sizeof *out);
	out->mass = m;
	out->I = symmetrize(I);
	out->pose[0] = c.x;
	out->pose[1] = c.y;
	out->pose[2] = c.z;
	out->has_pose = true;
	return 0;
}

/*
 * One Jacobi rotation in the (p, q) plane that zeroes a[p][q]: a becomes
 * P^T a P and the axes v become v P.
 */
static void
jacobi_rotate(double a[3][3], double v[3][3], int p, int q)
{
	double apq = a[p][q], theta, t, c, s, g, h;
	int r = 3 - p - q, k;

	if (apq == 0)
		return;
	/*
	 * t = tan(phi) is the smaller root of t^2 + 2 theta t - 1 = 0, so
	 * |phi| <= pi/4 and the rotation never swaps the pair; written this
	 * way it loses nothing when theta is huge (a nearly diagonal pair)
	 * or zero (a repeated pair). The diagonal moves by exactly t * apq,
	 * which keeps close moments as accurate as the input allows.
	 */
	theta = (a[q][q] - a[p][p]) / (2 * apq);
	if (fabs(theta) > 1e150)
		t = 1 / (2 * theta);
	else
		t = copysign(1, theta) /
		    (fabs(theta) + sqrt(theta * theta + 1));
	c = 1 / sqrt(t * t + 1);
	s = t * c;
	a[p][p] -= t * apq;
	a[q][q] += t * apq;
	a[p][q] = a[q][p] = 0;
	g = a[r][p];
	h = a[r][q];
	a[r][p] = a[p][r] = c * g - s * h;
	a[r][q] = a[q][r] = s * g + c * h;
	for (k = 0; k < 3; k++) {
		g = v[k][p];
		h = v[k][q];
		v[k][p] = c * g - s * h;
		v[k][q] = s * g + c * h;
	}
}

/*
 * Rotate the pair away, or drop it when it is below what the diagonal can
 * resolve: then rotations would only stir rounding errors round and round
 * (three equal moments do that for ever). Dropping it moves the moments
 * by no more than the rounding of the diagonal itself, and measuring it
 * against sqrt(|app aqq|) keeps small moments accurate relative to
 * themselves.
 */
static void
jacobi_step(double a[3][3], double v[3][3], int p, int q)
{
	if (fabs(a[p][q]) <= DBL_EPSILON * sqrt(fabs(a[p][p] * a[q][q])))
		a[p][q] = a[q][p] = 0;
	else
		jacobi_rotate(a, v, p, q);
}

static void
swap_axes(double d[3], double v[3][3], int i, int j)
{
	double t;
	int k;

	t = d[i], d[i] = d[j], d[j] = t;
	for (k = 0; k < 3; k++)
		t = v[k][i], v[k][i] = v[k][j], v[k][j] = t;
}

/* Make column j's largest component positive, the first one on ties. */
static void
orient_axis(double v[3][3], int j)
{
	int k, big = 0;

	for (k = 1; k < 3; k++)
		if (fabs(v[k][j]) > fabs(v[big][j]))
			big = k;
	if (v[big][j] < 0)
		for (k = 0; k < 3; k++)
			v[k][j] = -v[k][j];
}

int
phys_inertia_principal(phys_mat3 I, double moments[3], phys_mat3 *R)
{
	double a[3][3], d[3], big = 0;
	int i, j, e, sweep;

	for (i = 0; i < 3; i++)
		for (j = i; j < 3; j++) {
			if (!isfinite(I.m[i][j]))
				return phys_fail("inertia tensor is not "
				    "finite");
			if (fabs(I.m[i][j]) > big)
				big = fabs(I.m[i][j]);
		}
	*R = diag3(1, 1, 1);
	if (big == 0) {
		moments[0] = moments[1] = moments[2] = 0;
		return 0;
	}
	/*
	 * Scaling by a power of two is exact and puts the largest element
	 * in [0.5, 1), so no step below can overflow or underflow whatever
	 * the units.
	 */
	frexp(big, &e);
	for (i = 0; i < 3; i++)
		for (j = i; j < 3; j++)
			a[i][j] = a[j][i] = ldexp(I.m[i][j], -e);
	/* Convergence is quadratic: a handful of sweeps, the cap is a guard. */
	for (sweep = 0; sweep < 32; sweep++) {
		if (a[0][1] == 0 && a[0][2] == 0 && a[1][2] == 0)
			break;
		jacobi_step(a, R->m, 0, 1);
		jacobi_step(a, R->m, 0, 2);
		jacobi_step(a, R->m, 1, 2);
	}
	for (i = 0; i < 3; i++)
		d[i] = a[i][i];
	/* A stable exchange sort of three keeps equal moments in place. */
	if (d[1] < d[0])
		swap_axes(d, R->m, 0, 1);
	if (d[2] < d[1])
		swap_axes(d, R->m, 1, 2);
	if (d[1] < d[0])
		swap_axes(d, R->m, 0, 1);
	orient_axis(R->m, 0);
	orient_axis(R->m, 1);
	if (det3(*R) < 0)
		for (i = 0; i < 3; i++)
			R->m[i][2] = -R->m[i][2];
	/* Scaled back, a moment up to twice the largest element can pass
	 * the largest double. */
	for (i = 0; i < 3; i++) {
		moments[i] = ldexp(d[i], e);
		if (!isfinite(moments[i]))
			return phys_fail("inertia tensor too large: a principal "
			    "moment is beyond the largest double");
	}
	return 0;
}

phys_mat3
phys_inverse_inertia_world(const double inertia[9], phys_quat q)
{
	phys_mat3 in, inv, r;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			in.m[i][j] = inertia[3 * i + j];
	if (!phys_mat3_inverse(in, &inv))
		return (phys_mat3){ { { 0 } } };
	r = phys_quat_to_mat3(q);
	return phys_mat3_mul(phys_mat3_mul(r, inv), phys_mat3_transpose(r));
}

double
phys_inverse_inertia_bound(const double I[9])
{
	double det = I[0] * (I[4] * I[8] - I[5] * I[7]) -
	    I[1] * (I[3] * I[8] - I[5] * I[6]) +
	    I[2] * (I[3] * I[7] - I[4] * I[6]);
	double half = (I[0] + I[4] + I[8]) / 2;

	if (!(det > 0))
		return INFINITY;
	return half * half / det;
}

/* [r]x M [r]x' for the cross-product matrix [r]x. */
static phys_mat3
cross_sandwich(phys_vec3 r, phys_mat3 m)
{
	phys_mat3 x = { { { 0, -r.z, r.y }, { r.z, 0, -r.x },
	    { -r.y, r.x, 0 } } };

	return phys_mat3_mul(phys_mat3_mul(x, m), phys_mat3_transpose(x));
}

double
phys_axis_inverse_inertia(const struct phys_body_inverse *child,
    const struct phys_body_inverse *parent, phys_vec3 anchor, phys_vec3 a,
    bool linear)
{
	const struct phys_body_inverse *b[2] = { child, parent };
	phys_mat3 k = { { { 0 } } }, kinv, s;
	phys_vec3 r, ia, c = v3(0, 0, 0);
	double inv = 0;
	int i, p, q;

	if (linear)
		return child->inv_mass + parent->inv_mass;
	/*
	 * A couple about a on the pair held at the anchor: the free pair's
	 * a' I^-1 a each, less what the anchor's three rows take back,
	 * c' K^-1 c with K = sum(m^-1 1 + [r]x I^-1 [r]x') and
	 * c = sum(r x I^-1 a), r from each centre of mass to the anchor.
	 */
	for (i = 0; i < 2; i++) {
		r = v3_sub(anchor, b[i]->com);
		ia = phys_mat3_apply(b[i]->inv_inertia, a);
		inv += v3_dot(a, ia);
		c = v3_add(c, v3_cross(r, ia));
		s = cross_sandwich(r, b[i]->inv_inertia);
		for (p = 0; p < 3; p++)
			for (q = 0; q < 3; q++)
				k.m[p][q] += s.m[p][q] + (p == q ?
				    b[i]->inv_mass : 0);
	}
	if (!phys_mat3_inverse(k, &kinv))
		return inv;
	inv -= v3_dot(c, phys_mat3_apply(kinv, c));
	return inv > 0 ? inv : 0;
}

/* The verdict, and the principal axes when the tensor is finite. */
static enum phys_inertia_fault
judge(const phys_inertia *in, struct phys_inertia_verdict *v, phys_mat3 *R)
{
	double *mo = v->moments;
	bool finite;

	memset(v, 0, sizeof *v);
	/* The tensor's moments are reported even beside a bad mass: a
	 * massless link often carries a written tensor. */
	finite = phys_inertia_principal(in->I, mo, R) == 0;
	if (!finite) {
		snprintf(v->reason, sizeof v->reason, "%s", phys_error());
		mo[0] = mo[1] = mo[2] = 0;
	}
	if (!isfinite(in->mass) || in->mass <= 0) {
		snprintf(v->reason, sizeof v->reason,
		    "mass must be positive (got %s)", num(in->mass).s);
		return v->fault = PHYS_INERTIA_BAD_MASS;
	}
	if (!finite)
		return v->fault = PHYS_INERTIA_NOT_FINITE;
	v->tol = PHYS_INERTIA_RTOL * fmax(fabs(mo[0]), fabs(mo[2]));
	if (mo[0] <= v->tol) {
		snprintf(v->reason, sizeof v->reason,
		    "not positive definite: principal moments %s, %s, %s "
		    "(the smallest must exceed %s)", num(mo[0]).s,
		    num(mo[1]).s, num(mo[2]).s, num(v->tol).s);
		return v->fault = PHYS_INERTIA_NOT_POSITIVE;
	}
	if (mo[0] + mo[1] < mo[2] - v->tol) {
		snprintf(v->reason, sizeof v->reason,
		    "triangle inequality broken: I1 + I2 < I3 (%s + %s < %s)",
		    num(mo[0]).s, num(mo[1]).s, num(mo[2]).s);
		return v->fault = PHYS_INERTIA_TRIANGLE;
	}
	return v->fault = PHYS_INERTIA_VALID;
}

enum phys_inertia_fault
phys_inertia_validate(const phys_inertia *in, struct phys_inertia_verdict *vp)
{
	struct phys_inertia_verdict v;
	phys_mat3 R;

	judge(in, &v, &R);
	if (vp)
		*vp = v;
	return v.fault;
}

bool
phys_inertia_sdformat_refuses(const phys_inertia *in)
{
	const phys_mat3 *I = &in->I;
	double d[3] = { I->m[0][0], I->m[1][1], I->m[2][2] }, mo[3], big;
	double h = 0.5 * fabs(d[0] + d[1] + d[2]), e = PHYS_SDFORMAT_SURE * h;
	phys_mat3 R;
	int k;

	if (in->mass < 0 || d[0] < -e || d[0] * d[1] - I->m[0][1] *
	    I->m[0][1] < -e * h || det3(*I) < -e * h * h)
		return true;
	big = fmax(d[0], fmax(d[1], d[2])) * 1e-6;
	if (fabs(I->m[0][1]) <= big && fabs(I->m[0][2]) <= big &&
	    fabs(I->m[1][2]) <= big)
		memcpy(mo, d, sizeof mo);
	else if (phys_inertia_principal(*I, mo, &R) < 0)
		return false;	/* not finite: phys's own refusal says it */
	for (k = 0; k < 3; k++)
		if (mo[k] < -e || mo[k] + mo[(k + 1) % 3] + e < mo[(k + 2) % 3])
			return true;
	return false;
}

int
phys_inertia_box_equivalent(const phys_inertia *in, phys_vec3 *size,
    phys_mat3 *R)
{
	struct phys_inertia_verdict v;
	double *mo = v.moments, d[3], d2;
	int i;

	if (judge(in, &v, R) != PHYS_INERTIA_VALID)
		return phys_fail("%s", v.reason);
	/*
	 * A box of sides a, b, c has Ixx = m (b^2 + c^2) / 12 and so on,
	 * hence Iyy + Izz - Ixx = m a^2 / 6. Within the tolerance the
	 * difference can be a rounding below zero: a flat box.
	 */
	for (i = 0; i < 3; i++) {
		d2 = 6 * (mo[(i + 1) % 3] + mo[(i + 2) % 3] - mo[i]) / in->mass;
		d[i] = d2 > 0 ? sqrt(d2) : 0;
		if (!isfinite(d[i]))
			return phys_fail("equivalent box out of range");
	}
	*size = v3(d[0], d[1], d[2]);
	return 0;
}

int
phys_inertia_scale(const phys_inertia *in, phys_vec3 s, double k,
    phys_inertia *out)
{
	double f[3] = { s.x, s.y, s.z }, tr, trs;
	phys_mat3 S, Ri;
	int i, j;

	for (i = 0; i < 3; i++)
		if (!isfinite(f[i]) || f[i] <= 0)
			return phys_fail("size factor must be positive "
			    "(got %s)", num(f[i]).s);
	if (!isfinite(k) || k <= 0)
		return phys_fail("mass factor must be positive (got %s)",
		    num(k).s);
	*out = *in;
	out->mass = in->mass * k;
	for (i = 0; i < 3; i++)
		out->pose[i] = in->pose[i] * f[i];
	if (f[0] == f[1] && f[1] == f[2]) {
		/* All elements scale alike; the general route adds rounding. */
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++)
				out->I.m[i][j] = in->I.m[i][j] *
				    (k * f[0] * f[0]);
	} else {
		/* The factors are along the link axes, where D acts. */
		S = phys_inertia_link_tensor(in);
		tr = S.m[0][0] + S.m[1][1] + S.m[2][2];
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++)
				S.m[i][j] = k * f[i] * f[j] *
				    ((i == j ? tr / 2 : 0) - S.m[i][j]);
		trs = S.m[0][0] + S.m[1][1] + S.m[2][2];
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++)
				S.m[i][j] = (i == j ? trs : 0) - S.m[i][j];
		if (has_rotation(in)) {
			Ri = phys_mat3_transpose(pose_rotation(in));
			S = phys_inertia_rotate(S, Ri);
		}
		out->I = symmetrize(S);
	}
	if (!isfinite(out->mass) || !finite3(out->I) ||
	    !isfinite(out->pose[0] + out->pose[1] + out->pose[2]))
		return phys_fail("scaled inertia out of range");
	return 0;
}

static const char *const line_keys[7] = {
	"mass", "ixx", "iyy", "izz", "ixy", "ixz", "iyz"
};
static const char *const pose_keys[6] = {
	"x", "y", "z", "roll", "pitch", "yaw"
};

static bool
is_key(const char *key, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(key, names[i]) == 0)
			return true;
	return false;
}

/* The n named numbers of obj into out; prefix names obj in messages. */
static int
get_numbers(json_t *obj, const char *prefix, const char *const *names,
    int n, double *out)
{
	json_t *val;
	int i;

	for (i = 0; i < n; i++) {
		val = json_object_get(obj, names[i]);
		if (!val)
			return phys_fail("missing key \"%s%s\"", prefix,
			    names[i]);
		if (!json_is_number(val))
			return phys_fail("\"%s%s\" is not a number", prefix,
			    names[i]);
		out[i] = json_number_value(val);
		if (!isfinite(out[i]))
			return phys_fail("\"%s%s\" is not finite", prefix,
			    names[i]);
	}
	return 0;
}

static int
check_keys(json_t *obj, const char *prefix, const char *const *names, int n,
    bool pose)
{
	const char *key;
	json_t *val;

	json_object_foreach(obj, key, val) {
		if (!is_key(key, names, n) &&
		    !(pose && strcmp(key, "pose") == 0))
			return phys_fail("unknown key \"%s%s\"", prefix, key);
	}
	return 0;
}

static int
parse_object(json_t *obj, phys_inertia *out)
{
	double v[7];
	json_t *pose;

	if (!json_is_object(obj))
		return phys_fail("expected a JSON object");
	if (check_keys(obj, "", line_keys, 7, true) < 0 ||
	    get_numbers(obj, "", line_keys, 7, v) < 0)
		return -1;
	*out = phys_inertia_make(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	pose = json_object_get(obj, "pose");
	if (!pose)
		return 0;
	if (!json_is_object(pose))
		return phys_fail("\"pose\" is not an object");
	if (check_keys(pose, "pose.", pose_keys, 6, false) < 0 ||
	    get_numbers(pose, "pose.", pose_keys, 6, out->pose) < 0)
		return -1;
	out->has_pose = true;
	return 0;
}

int
phys_inertia_parse_json(const char *text, size_t len, phys_inertia *out)
{
	json_error_t err;
	json_t *root;
	int rc;

	/* All numbers as doubles: an integer too big for json_int_t is fine. */
	root = json_loadb(text, len,
	    JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
	if (!root)
		return phys_fail("invalid JSON: %s", err.text);
	rc = parse_object(root, out);
	json_decref(root);
	return rc;
}

static void
put_field(struct phys_buf *b, const char *sep, const char *key, double v)
{
	phys_buf_puts(b, sep);
	phys_buf_json_string(b, key);
	phys_buf_putc(b, ':');
	phys_buf_double(b, v);
}

int
phys_inertia_write(struct phys_buf *b, const phys_inertia *in)
{
	double v[7] = { in->mass, in->I.m[0][0], in->I.m[1][1], in->I.m[2][2],
	    in->I.m[0][1], in->I.m[0][2], in->I.m[1][2] };
	int i;

	for (i = 0; i < 7; i++)
		if (!isfinite(v[i]))
			return phys_fail("\"%s\" is not finite", line_keys[i]);
	for (i = 0; in->has_pose && i < 6; i++)
		if (!isfinite(in->pose[i]))
			return phys_fail("\"pose.%s\" is not finite",
			    pose_keys[i]);
	for (i = 0; i < 7; i++)
		put_field(b, i ? "," : "{", line_keys[i], v[i]);
	if (in->has_pose) {
		phys_buf_puts(b, ",\"pose\":");
		for (i = 0; i < 6; i++)
			put_field(b, i ? "," : "{", pose_keys[i], in->pose[i]);
		phys_buf_putc(b, '}');
	}
	phys_buf_putc(b, '}');
	return 0;
}
