/*
 * mjcf_inertia.c - mass and inertia as MuJoCo 2.2.2 compiles them
 * (its compiler's geom and body rules; see mjcf_inertia.h).
 */
#include <math.h>
#include <string.h>

#include "inertia.h"
#include "num.h"
#include "mjcf_inertia.h"

/* A thin shell's area (a later MuJoCo's shellinertia): an ellipsoid's
 * by Thomsen's formula, which that MuJoCo takes. */
static double
shell_area(enum phys_mjcf_geom_type t, const double s[3])
{
	const double p = 1.6075;

	switch (t) {
	case PHYS_MJ_SPHERE:
		return 4 * M_PI * s[0] * s[0];
	case PHYS_MJ_CAPSULE:
		return 4 * M_PI * s[0] * s[0] + 4 * M_PI * s[0] * s[1];
	case PHYS_MJ_CYLINDER:
		return 2 * M_PI * s[0] * s[0] + 4 * M_PI * s[0] * s[1];
	case PHYS_MJ_ELLIPSOID:
		return 4 * M_PI * pow((pow(s[0] * s[1], p) +
		    pow(s[1] * s[2], p) + pow(s[2] * s[0], p)) / 3, 1 / p);
	case PHYS_MJ_BOX:
		return 8 * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0]);
	default:
		return 0;
	}
}

double
phys_mjcf_volume(enum phys_mjcf_geom_type t, const double s[3], bool shell)
{
	if (shell)
		return shell_area(t, s);
	switch (t) {
	case PHYS_MJ_SPHERE:
		return 4 * M_PI * s[0] * s[0] * s[0] / 3;
	case PHYS_MJ_CAPSULE:
		return M_PI * (s[0] * s[0] * 2 * s[1] +
		    4 * s[0] * s[0] * s[0] / 3);
	case PHYS_MJ_CYLINDER:
		return M_PI * s[0] * s[0] * 2 * s[1];
	case PHYS_MJ_ELLIPSOID:
		return 4 * M_PI * s[0] * s[1] * s[2] / 3;
	case PHYS_MJ_BOX:
		return 8 * s[0] * s[1] * s[2];
	default:
		return 0;
	}
}

/* A capsule: its cylinder, and its two hemispheres as MuJoCo adds them. */
static void
capsule_diag(const double s[3], double mass, double d[3])
{
	double r = s[0], h = 2 * s[1];
	double ms = mass * 4 * r / (4 * r + 3 * h), mc = mass - ms;
	double is = 2 * ms * r * r / 5;

	d[0] = d[1] = mc * (3 * r * r + h * h) / 12 + is +
	    ms * h * (3 * r + 2 * h) / 8;
	d[2] = mc * r * r / 2 + is;
}

/*
 * Thin shells as a later MuJoCo weighs them: a capsule's tube and its
 * two hemispherical caps (each 2/3 m r^2 about its flat face, by the
 * sphere's symmetry), a cylinder's tube and two disks, exact; an
 * ellipsoid, which has no closed form, the difference of two solid ones
 * 1e-6 m apart, as that MuJoCo takes it.
 */
static void
capsule_shell(const double s[3], double mass, double d[3])
{
	double r = s[0], h = 2 * s[1], as = 4 * M_PI * r * r;
	double ms = mass * as / (as + 2 * M_PI * r * h), mc = mass - ms;
	double at = s[1] + r / 2, c = r / 2;

	d[0] = d[1] = mc * (6 * r * r + h * h) / 12 + 2 * ms * r * r / 3 +
	    ms * (at * at - c * c);
	d[2] = mc * r * r + 2 * ms * r * r / 3;
}

static void
cylinder_shell(const double s[3], double mass, double d[3])
{
	double r = s[0], h = 2 * s[1], ad = M_PI * r * r;
	double md = mass * ad / (2 * ad + 2 * M_PI * r * h);
	double mc = mass - 2 * md;

	d[0] = d[1] = mc * (6 * r * r + h * h) / 12 +
	    2 * (md * r * r / 4 + md * s[1] * s[1]);
	d[2] = mc * r * r + 2 * (md * r * r / 2);
}

static void
ellipsoid_shell(const double s[3], double mass, double d[3])
{
	const double eps = 1e-6;
	double e[3] = { s[0] + eps, s[1] + eps, s[2] + eps }, a[3], b[3];
	double va = 4 * M_PI * s[0] * s[1] * s[2] / 3;
	double vb = 4 * M_PI * e[0] * e[1] * e[2] / 3;
	double rho = mass / (vb - va);
	int k;

	phys_mjcf_shape_diag(PHYS_MJ_ELLIPSOID, s, rho * va, false, a);
	phys_mjcf_shape_diag(PHYS_MJ_ELLIPSOID, e, rho * vb, false, b);
	for (k = 0; k < 3; k++)
		d[k] = b[k] - a[k];
}

/* A box's six faces, each a plate of its share of the area. */
static void
box_shell(const double s[3], double mass, double d[3])
{
	double l[3] = { 2 * s[0], 2 * s[1], 2 * s[2] }, m[3], total;
	int k, i, j;

	/* m[k]: the mass of one face across axis k */
	total = 2 * (l[0] * l[1] + l[1] * l[2] + l[2] * l[0]);
	for (k = 0; k < 3; k++)
		m[k] = mass * l[(k + 1) % 3] * l[(k + 2) % 3] / total;
	for (k = 0; k < 3; k++) {
		i = (k + 1) % 3, j = (k + 2) % 3;
		/* two faces across k, in the plane of i and j; two across
		 * i and two across j, each s[] from the centre */
		d[k] = 2 * (m[k] * (l[i] * l[i] + l[j] * l[j]) / 12 +
		    m[i] * (l[j] * l[j] / 12 + s[i] * s[i]) +
		    m[j] * (l[i] * l[i] / 12 + s[j] * s[j]));
	}
}

void
phys_mjcf_shape_diag(enum phys_mjcf_geom_type t, const double s[3],
    double m, bool shell, double d[3])
{
	switch (t) {
	case PHYS_MJ_SPHERE:
		d[0] = d[1] = d[2] = (shell ? 2.0 / 3 : 2.0 / 5) * m * s[0] *
		    s[0];
		break;
	case PHYS_MJ_CAPSULE:
		if (shell)
			capsule_shell(s, m, d);
		else
			capsule_diag(s, m, d);
		break;
	case PHYS_MJ_CYLINDER:
		if (shell) {
			cylinder_shell(s, m, d);
			break;
		}
		d[0] = d[1] = m * (3 * s[0] * s[0] + 4 * s[1] * s[1]) / 12;
		d[2] = m * s[0] * s[0] / 2;
		break;
	case PHYS_MJ_ELLIPSOID:
		if (shell) {
			ellipsoid_shell(s, m, d);
			break;
		}
		d[0] = m * (s[1] * s[1] + s[2] * s[2]) / 5;
		d[1] = m * (s[0] * s[0] + s[2] * s[2]) / 5;
		d[2] = m * (s[0] * s[0] + s[1] * s[1]) / 5;
		break;
	case PHYS_MJ_BOX:
		if (shell) {
			box_shell(s, m, d);
			break;
		}
		/* FALLTHROUGH */
	case PHYS_MJ_MESH:	/* s: the half-sides of its inertia box */
		d[0] = m * (s[1] * s[1] + s[2] * s[2]) / 3;
		d[1] = m * (s[0] * s[0] + s[2] * s[2]) / 3;
		d[2] = m * (s[0] * s[0] + s[1] * s[1]) / 3;
		break;
	default:
		d[0] = d[1] = d[2] = 0;
	}
}

/* Moments and axes as MuJoCo orders them: largest first, a right-handed
 * frame. */
static int
principal(phys_mat3 I, double diag[3], phys_quat *q)
{
	double m[3];
	phys_mat3 R, S;
	int i, k;

	if (phys_inertia_principal(I, m, &R) < 0)
		return -1;
	for (k = 0; k < 3; k++) {
		diag[k] = m[2 - k];
		for (i = 0; i < 3; i++)
			S.m[i][k] = R.m[i][2 - k];
	}
	for (i = 0; i < 3; i++)	/* reversing the columns flips the hand */
		S.m[i][2] = -S.m[i][2];
	*q = phys_mat3_to_quat(S);
	return 0;
}

/*
 * Moments and axes of I as MuJoCo 2.2.2 finds a mesh's (mju_eig3):
 * Jacobi rotations gathered in a quaternion from the identity, each
 * zeroing the largest product of inertia, then the moments sorted
 * largest first by quarter turns. The same moments as principal()'s,
 * axes of the same lines; their signs are MuJoCo's, which place what a
 * mesh's frame places by its sides (a geom fitted to the box bounding
 * the mesh).
 */
static void
mujoco_axes(phys_mat3 I, double diag[3], phys_quat *q)
{
	static const int pick[3][3] = { { 0, 1, 2 }, { 0, 2, 1 },
		{ 1, 2, 0 } };	/* row, column, the axis turned about */
	double tau, t, c, s, a;
	phys_mat3 R, D;
	phys_quat turn;
	int iter, i, j, k, rk, ck, ax;

	*q = PHYS_QUAT_IDENTITY;
	for (iter = 0; iter < 500; iter++) {
		R = phys_quat_to_mat3(*q);
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++) {
				D.m[i][j] = 0;
				for (k = 0; k < 9; k++)
					D.m[i][j] += R.m[k / 3][i] *
					    I.m[k / 3][k % 3] * R.m[k % 3][j];
			}
		for (k = 0; k < 3; k++)
			diag[k] = D.m[k][k];
		k = fabs(D.m[0][1]) > fabs(D.m[0][2]) &&
		    fabs(D.m[0][1]) > fabs(D.m[1][2]) ? 0 :
		    fabs(D.m[0][2]) > fabs(D.m[1][2]) ? 1 : 2;
		rk = pick[k][0], ck = pick[k][1], ax = pick[k][2];
		if (fabs(D.m[rk][ck]) < 1e-12)
			break;
		tau = (D.m[ck][ck] - D.m[rk][rk]) / (2 * D.m[rk][ck]);
		t = tau >= 0 ? 1 / (tau + sqrt(1 + tau * tau)) :
		    -1 / (-tau + sqrt(1 + tau * tau));
		c = 1 / sqrt(1 + t * t);
		if (c > 1 - 1e-12)
			break;
		s = (tau >= 0 ? -1 : 1) * sqrt(0.5 - 0.5 * c) *
		    (ax == 1 ? -1 : 1);
		turn = (phys_quat){ sqrt(1 - s * s), ax == 0 ? s : 0,
		    ax == 1 ? s : 0, ax == 2 ? s : 0 };
		*q = phys_quat_normalize(phys_quat_mul(*q,
		    phys_quat_normalize(turn)));
	}
	for (j = 0; j < 3; j++) {	/* bubble sort: 0, 1, 0 */
		i = j % 2;
		if (diag[i] < diag[i + 1]) {
			a = diag[i], diag[i] = diag[i + 1], diag[i + 1] = a;
			turn = (phys_quat){ 0.707106781186548, 0, 0, 0 };
			if ((i + 2) % 3 == 0)
				turn.x = turn.w;
			else if ((i + 2) % 3 == 1)
				turn.y = turn.w;
			else
				turn.z = turn.w;
			*q = phys_quat_normalize(phys_quat_mul(*q, turn));
		}
	}
}

int
phys_mjcf_full_inertia(const double f[6], double diag[3], phys_quat *q)
{
	phys_mat3 I = { { { f[0], f[3], f[4] }, { f[3], f[1], f[5] },
		{ f[4], f[5], f[2] } } };

	return principal(I, diag, q);
}

/* Add mass m, moments d along q, centred at p, about c, into I. */
static void
add_about(phys_mat3 *I, double m, const double d[3], phys_vec3 p,
    phys_quat q, phys_vec3 c)
{
	phys_mat3 R = phys_quat_to_mat3(q);
	phys_vec3 r = v3_sub(p, c);
	double rr[3] = { r.x, r.y, r.z }, r2 = v3_dot(r, r);
	int i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			for (k = 0; k < 3; k++)
				I->m[i][j] += R.m[i][k] * d[k] * R.m[j][k];
			I->m[i][j] += m * ((i == j ? r2 : 0) - rr[i] * rr[j]);
		}
}

int
phys_mjcf_geoms_inertial(size_t n, const double *m, const double (*d)[3],
    const phys_vec3 *p, const phys_quat *q, struct phys_mjcf_inertial *out)
{
	phys_vec3 c = { 0, 0, 0 };
	phys_mat3 I;
	size_t i;

	if (n == 1) {
		out->mass = m[0];
		out->ipos = p[0];
		out->iquat = q[0];
		memcpy(out->diag, d[0], sizeof out->diag);
		return 0;
	}
	memset(&I, 0, sizeof I);
	out->mass = 0;
	for (i = 0; i < n; i++) {
		out->mass += m[i];
		c = v3_add(c, v3_scale(p[i], m[i]));
	}
	if (out->mass < 1e-15)
		return phys_fail("%s", "body mass is too small, cannot "
		    "compute center of mass");
	out->ipos = c = v3_scale(c, 1 / out->mass);
	for (i = 0; i < n; i++)
		add_about(&I, m[i], d[i], p[i], q[i], c);
	return principal(I, out->diag, &out->iquat);
}

/* Two floats' sum and difference, each taken as a float. */
static double
f32_add(double a, double b)
{
	return phys_as_float(phys_as_float(a) + phys_as_float(b));
}

static double
f32_sub(double a, double b)
{
	return phys_as_float(phys_as_float(a) - phys_as_float(b));
}

/*
 * A triangle's area, unit normal and centre, of vertices that are
 * floats: MuJoCo 2.2.2 adds them for the centre and subtracts them for
 * the edges as floats (single precision: 1e-7 of a 400 kg box's mass
 * otherwise), the rest in double.
 */
static double
triangle(phys_vec3 a, phys_vec3 b, phys_vec3 c, phys_vec3 *n, phys_vec3 *cen)
{
	phys_vec3 e1 = v3(f32_sub(b.x, a.x), f32_sub(b.y, a.y), f32_sub(b.z, a.z));
	phys_vec3 e2 = v3(f32_sub(c.x, a.x), f32_sub(c.y, a.y), f32_sub(c.z, a.z));
	phys_vec3 x = v3_cross(e1, e2);
	double len = v3_norm(x);

	*n = len > 0 ? v3_scale(x, 1 / len) : v3(0, 0, 0);
	*cen = v3(phys_as_float(f32_add(f32_add(a.x, b.x), c.x) / 3),
	    phys_as_float(f32_add(f32_add(a.y, b.y), c.y) / 3),
	    phys_as_float(f32_add(f32_add(a.z, b.z), c.z) / 3));
	return len / 2;
}

static phys_vec3
vertex(const double *v, const unsigned *t, int k, phys_vec3 shift)
{
	const double *p = v + 3 * (size_t)t[k];

	/* MuJoCo 2.2.2 keeps a mesh's vertices, scaled, as floats */
	return v3_sub(v3(phys_as_float(p[0]), phys_as_float(p[1]),
	    phys_as_float(p[2])), shift);
}

/* The vertex less the mesh's centre, as MuJoCo 2.2.2 moves its vertices
 * to it before it weighs the mesh: kept as floats again. */
static phys_vec3
centred(const double *v, const unsigned *t, int k, phys_vec3 centre)
{
	phys_vec3 a = vertex(v, t, k, centre);

	return v3(phys_as_float(a.x), phys_as_float(a.y), phys_as_float(a.z));
}

/* The centre as MuJoCo 2.2.2 finds it: pyramids from the faces' area
 * centroid, each counted positive as its legacy mesh inertia counts them
 * (a mesh of two walls, MuJoCo's mug, or not closed, Allegro's links,
 * has its centre elsewhere by signed volumes). */
static int
mesh_centre(const double *v, const unsigned *tri, size_t ntri,
    phys_vec3 *com)
{
	phys_vec3 fc = { 0, 0, 0 }, o = { 0, 0, 0 }, n, c, a, b, d;
	double area = 0, vol = 0, ar, pv;
	size_t i;

	for (i = 0; i < ntri; i++) {
		a = vertex(v, tri + 3 * i, 0, o);
		b = vertex(v, tri + 3 * i, 1, o);
		d = vertex(v, tri + 3 * i, 2, o);
		ar = triangle(a, b, d, &n, &c);
		fc = v3_add(fc, v3_scale(c, ar));
		area += ar;
	}
	if (area < 1e-15)
		return phys_fail("%s", "mesh surface area is too small");
	fc = v3_scale(fc, 1 / area);
	*com = o;
	for (i = 0; i < ntri; i++) {
		a = vertex(v, tri + 3 * i, 0, o);
		b = vertex(v, tri + 3 * i, 1, o);
		d = vertex(v, tri + 3 * i, 2, o);
		ar = triangle(a, b, d, &n, &c);
		pv = fabs(v3_dot(v3_sub(c, fc), n) * ar / 3);
		vol += pv;
		*com = v3_add(*com, v3_scale(v3_add(v3_scale(c, 0.75),
		    v3_scale(fc, 0.25)), pv));
	}
	if (vol < 1e-15)
		return phys_fail("%s", "mesh volume is too small");
	*com = v3_scale(*com, 1 / vol);
	return 0;
}

/* x, kept as a float where fl: each step of a float sum or product
 * taken in double and rounded to float is the float step exactly
 * (53 bits are more than twice 24 and 2) */
static double
rnd(double x, bool fl)
{
	return fl ? phys_as_float(x) : x;
}

/*
 * The products of inertia of a face's vertices D, E, F (about the
 * origin), times w / c: c 20 for the pyramid of a face (w its volume),
 * 12 for the face itself (w its area), as MuJoCo sums them; with fl,
 * each term as MuJoCo 2.2.2 sums its float vertices' (a later MuJoCo
 * sums doubles).
 */
static void
add_products(double P[6], const double D[3], const double E[3],
    const double F[3], double w, double c, bool fl)
{
	static const int k[6][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 0, 1 },
		{ 0, 2 }, { 1, 2 } };
	double t, x[6];
	int j, a, b, i;

	for (j = 0; j < 6; j++) {
		a = k[j][0], b = k[j][1];
		t = rnd(rnd(rnd(D[a] * D[b], fl) + rnd(E[a] * E[b], fl), fl) +
		    rnd(F[a] * F[b], fl), fl);
		t = rnd(2 * t, fl);
		x[0] = D[a] * E[b], x[1] = D[b] * E[a], x[2] = D[a] * F[b];
		x[3] = D[b] * F[a], x[4] = E[a] * F[b], x[5] = E[b] * F[a];
		for (i = 0; i < 6; i++)
			t = rnd(t + rnd(x[i], fl), fl);
		P[j] += w / c * t;
	}
}

/* The inertia box of products P weighed at density over amount (m^3, or
 * m^2 for a shell), along the axes MuJoCo finds, into q and box. */
static int
inertia_box(const double P[6], double density, double amount,
    phys_quat *q, double box[3])
{
	phys_mat3 I = { { { P[1] + P[2], -P[3], -P[4] },
	    { -P[3], P[0] + P[2], -P[5] }, { -P[4], -P[5], P[0] + P[1] } } };
	double e[3];

	mujoco_axes(I, e, q);
	if (!(e[2] > 0) || e[0] + e[1] < e[2] || e[0] + e[2] < e[1] ||
	    e[1] + e[2] < e[0])
		return phys_fail("%s", "mesh inertia is not a body's");
	box[0] = sqrt(6 * (e[1] + e[2] - e[0]) / (amount * density)) / 2;
	box[1] = sqrt(6 * (e[0] + e[2] - e[1]) / (amount * density)) / 2;
	box[2] = sqrt(6 * (e[0] + e[1] - e[2]) / (amount * density)) / 2;
	return 0;
}

static void
as_array(phys_vec3 a, double f[3])
{
	f[0] = a.x, f[1] = a.y, f[2] = a.z;
}

/*
 * A later MuJoCo's shell inertia of a mesh (its inertia="shell"): the
 * mass on the faces, of uniform density per area, about their centre of
 * area; that MuJoCo takes the vertices in double.
 */
static int
mesh_shell_box(const double *v, const unsigned *tri, size_t ntri,
    double density, phys_vec3 *pos, phys_quat *q, double box[3],
    double *area)
{
	double P[6] = { 0 }, ar;
	const double *p[3];
	phys_vec3 c = { 0, 0, 0 }, t[3];
	double D[3], E[3], F[3];
	size_t i;
	int k;

	*area = 0;
	for (i = 0; i < ntri; i++) {
		for (k = 0; k < 3; k++) {
			p[k] = v + 3 * (size_t)tri[3 * i + k];
			t[k] = v3(p[k][0], p[k][1], p[k][2]);
		}
		ar = v3_norm(v3_cross(v3_sub(t[1], t[0]),
		    v3_sub(t[2], t[0]))) / 2;
		c = v3_add(c, v3_scale(v3_add(v3_add(t[0], t[1]), t[2]),
		    ar / 3));
		*area += ar;
	}
	if (!(*area >= 1e-15))
		return phys_fail("%s", "mesh surface area is too small");
	*pos = v3_scale(c, 1 / *area);
	for (i = 0; i < ntri; i++) {
		for (k = 0; k < 3; k++) {
			p[k] = v + 3 * (size_t)tri[3 * i + k];
			t[k] = v3_sub(v3(p[k][0], p[k][1], p[k][2]), *pos);
		}
		ar = v3_norm(v3_cross(v3_sub(t[1], t[0]),
		    v3_sub(t[2], t[0]))) / 2;
		as_array(t[0], D), as_array(t[1], E), as_array(t[2], F);
		add_products(P, D, E, F, density * ar, 12, false);
	}
	return inertia_box(P, density, *area, q, box);
}

int
phys_mjcf_mesh_box(const double *v, size_t nv, const unsigned *tri,
    size_t ntri, double density, bool shell, phys_vec3 *pos, phys_quat *q,
    double box[3], double *amount)
{
	double P[6] = { 0 }, vol = 0, pv, ar, D[3], E[3], F[3];
	phys_vec3 a, b, c, n, cen;
	size_t i;

	(void)nv;
	if (shell)
		return mesh_shell_box(v, tri, ntri, density, pos, q, box,
		    amount);
	if (mesh_centre(v, tri, ntri, pos) < 0)
		return -1;
	for (i = 0; i < ntri; i++) {
		a = centred(v, tri + 3 * i, 0, *pos);
		b = centred(v, tri + 3 * i, 1, *pos);
		c = centred(v, tri + 3 * i, 2, *pos);
		ar = triangle(a, b, c, &n, &cen);
		/* every pyramid counted positive: MuJoCo's legacy rule */
		pv = fabs(v3_dot(cen, n) * ar / 3);
		vol += pv;
		/* the products of a face's float vertices are summed as
		 * floats, as MuJoCo 2.2.2 sums them; weighed at the
		 * density, as MuJoCo weighs them before it turns the
		 * tensor to its axes, whose tolerance is absolute (a bone
		 * of dm_control's dog, 5 mm long, kept its mesh's axes at
		 * density 1 and had twice MuJoCo's mass) */
		as_array(a, D), as_array(b, E), as_array(c, F);
		add_products(P, D, E, F, density * pv, 20, true);
	}
	if (inertia_box(P, density, vol, q, box) < 0)
		return -1;
	/* MuJoCo 2.2.2 weighs a mesh geom as its inertia box */
	*amount = 8 * box[0] * box[1] * box[2];
	return 0;
}
