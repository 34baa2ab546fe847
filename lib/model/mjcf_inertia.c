/*
 * mjcf_inertia.c - mass and inertia as MuJoCo 2.2.2 compiles them
 * (its compiler's geom and body rules; see mjcf_inertia.h).
 */
#include <math.h>
#include <string.h>

#include "inertia.h"
#include "mjcf_inertia.h"

double
phys_mjcf_volume(enum phys_mjcf_geom_type t, const double s[3])
{
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

void
phys_mjcf_shape_diag(enum phys_mjcf_geom_type t, const double s[3],
    double m, double d[3])
{
	switch (t) {
	case PHYS_MJ_SPHERE:
		d[0] = d[1] = d[2] = 2 * m * s[0] * s[0] / 5;
		break;
	case PHYS_MJ_CAPSULE:
		capsule_diag(s, m, d);
		break;
	case PHYS_MJ_CYLINDER:
		d[0] = d[1] = m * (3 * s[0] * s[0] + 4 * s[1] * s[1]) / 12;
		d[2] = m * s[0] * s[0] / 2;
		break;
	case PHYS_MJ_ELLIPSOID:
		d[0] = m * (s[1] * s[1] + s[2] * s[2]) / 5;
		d[1] = m * (s[0] * s[0] + s[2] * s[2]) / 5;
		d[2] = m * (s[0] * s[0] + s[1] * s[1]) / 5;
		break;
	case PHYS_MJ_BOX:
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
	return (float)a + (float)b;
}

static double
f32_sub(double a, double b)
{
	return (float)a - (float)b;
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
	*cen = v3((float)f32_add(f32_add(a.x, b.x), c.x) / 3.0f,
	    (float)f32_add(f32_add(a.y, b.y), c.y) / 3.0f,
	    (float)f32_add(f32_add(a.z, b.z), c.z) / 3.0f);
	return len / 2;
}

static phys_vec3
vertex(const double *v, const unsigned *t, int k, phys_vec3 shift)
{
	const double *p = v + 3 * (size_t)t[k];

	/* MuJoCo 2.2.2 keeps a mesh's vertices, scaled, as floats */
	return v3_sub(v3((float)p[0], (float)p[1], (float)p[2]), shift);
}

/* The vertex less the mesh's centre, as MuJoCo 2.2.2 moves its vertices
 * to it before it weighs the mesh: kept as floats again. */
static phys_vec3
centred(const double *v, const unsigned *t, int k, phys_vec3 centre)
{
	phys_vec3 a = vertex(v, t, k, centre);

	return v3((float)a.x, (float)a.y, (float)a.z);
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

int
phys_mjcf_mesh_box(const double *v, size_t nv, const unsigned *tri,
    size_t ntri, double density, phys_vec3 *pos, phys_quat *q,
    double box[3])
{
	static const int k[6][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 0, 1 },
		{ 0, 2 }, { 1, 2 } };
	double P[6] = { 0 }, vol = 0, pv, ar, e[3];
	float D[3], E[3], F[3];
	phys_vec3 a, b, c, n, cen;
	phys_mat3 I;
	size_t i;
	int j;

	(void)nv;
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
		D[0] = a.x, D[1] = a.y, D[2] = a.z;
		E[0] = b.x, E[1] = b.y, E[2] = b.z;
		F[0] = c.x, F[1] = c.y, F[2] = c.z;
		for (j = 0; j < 6; j++)
			P[j] += density * pv / 20 * (2 * (D[k[j][0]] *
			    D[k[j][1]] + E[k[j][0]] * E[k[j][1]] +
			    F[k[j][0]] * F[k[j][1]]) +
			    D[k[j][0]] * E[k[j][1]] + D[k[j][1]] * E[k[j][0]] +
			    D[k[j][0]] * F[k[j][1]] + D[k[j][1]] * F[k[j][0]] +
			    E[k[j][0]] * F[k[j][1]] + E[k[j][1]] * F[k[j][0]]);
	}
	I = (phys_mat3){ { { P[1] + P[2], -P[3], -P[4] },
	    { -P[3], P[0] + P[2], -P[5] }, { -P[4], -P[5], P[0] + P[1] } } };
	mujoco_axes(I, e, q);
	if (!(e[2] > 0) || e[0] + e[1] < e[2] || e[0] + e[2] < e[1] ||
	    e[1] + e[2] < e[0])
		return phys_fail("%s", "mesh inertia is not a body's");
	box[0] = sqrt(6 * (e[1] + e[2] - e[0]) / (vol * density)) / 2;
	box[1] = sqrt(6 * (e[0] + e[2] - e[1]) / (vol * density)) / 2;
	box[2] = sqrt(6 * (e[0] + e[1] - e[2]) / (vol * density)) / 2;
	return 0;
}
