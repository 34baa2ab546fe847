/* geom.c - vectors, quaternions, poses and 3x3 matrices. */
#include "geom.h"

#include <math.h>

phys_quat
phys_quat_from_rpy(double roll, double pitch, double yaw)
{
	double cr = cos(roll / 2), sr = sin(roll / 2);
	double cp = cos(pitch / 2), sp = sin(pitch / 2);
	double cy = cos(yaw / 2), sy = sin(yaw / 2);
	phys_quat q;

	q.w = cr * cp * cy + sr * sp * sy;
	q.x = sr * cp * cy - cr * sp * sy;
	q.y = cr * sp * cy + sr * cp * sy;
	q.z = cr * cp * sy - sr * sp * cy;
	return q;
}

/*
 * Through the matrix: reading roll and yaw each from its own pair of
 * elements loses the rotation near pitch +-pi/2, where both pairs are
 * rounding noise (roll pi/2, yaw 0 for a link at roll 0.3, pitch pi/2).
 */
void
phys_quat_to_rpy(phys_quat q, double *roll, double *pitch, double *yaw)
{
	phys_mat3_to_rpy(phys_quat_to_mat3(phys_quat_normalize(q)), roll,
	    pitch, yaw);
}

phys_quat
phys_quat_mul(phys_quat a, phys_quat b)
{
	phys_quat q;

	q.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
	q.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
	q.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
	q.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
	return q;
}

phys_quat
phys_quat_conj(phys_quat q)
{
	phys_quat c = { q.w, -q.x, -q.y, -q.z };

	return c;
}

phys_quat
phys_quat_normalize(phys_quat q)
{
	double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);

	if (n == 0)
		return PHYS_QUAT_IDENTITY;
	q.w /= n, q.x /= n, q.y /= n, q.z /= n;
	return q;
}

phys_vec3
phys_quat_rotate(phys_quat q, phys_vec3 v)
{
	phys_vec3 u = v3(q.x, q.y, q.z);
	phys_vec3 t = v3_scale(v3_cross(u, v), 2);

	return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}

phys_mat3
phys_quat_to_mat3(phys_quat q)
{
	phys_mat3 r;
	double w = q.w, x = q.x, y = q.y, z = q.z;

	r.m[0][0] = 1 - 2 * (y * y + z * z);
	r.m[0][1] = 2 * (x * y - w * z);
	r.m[0][2] = 2 * (x * z + w * y);
	r.m[1][0] = 2 * (x * y + w * z);
	r.m[1][1] = 1 - 2 * (x * x + z * z);
	r.m[1][2] = 2 * (y * z - w * x);
	r.m[2][0] = 2 * (x * z - w * y);
	r.m[2][1] = 2 * (y * z + w * x);
	r.m[2][2] = 1 - 2 * (x * x + y * y);
	return r;
}

phys_quat
phys_mat3_to_quat(phys_mat3 r)
{
	double tr = r.m[0][0] + r.m[1][1] + r.m[2][2], s;
	phys_quat q;

	/* Pick the largest component to divide by: stable for every rotation. */
	if (tr > 0) {
		s = 2 * sqrt(tr + 1);
		q.w = s / 4;
		q.x = (r.m[2][1] - r.m[1][2]) / s;
		q.y = (r.m[0][2] - r.m[2][0]) / s;
		q.z = (r.m[1][0] - r.m[0][1]) / s;
	} else if (r.m[0][0] > r.m[1][1] && r.m[0][0] > r.m[2][2]) {
		s = 2 * sqrt(1 + r.m[0][0] - r.m[1][1] - r.m[2][2]);
		q.w = (r.m[2][1] - r.m[1][2]) / s;
		q.x = s / 4;
		q.y = (r.m[0][1] + r.m[1][0]) / s;
		q.z = (r.m[0][2] + r.m[2][0]) / s;
	} else if (r.m[1][1] > r.m[2][2]) {
		s = 2 * sqrt(1 + r.m[1][1] - r.m[0][0] - r.m[2][2]);
		q.w = (r.m[0][2] - r.m[2][0]) / s;
		q.x = (r.m[0][1] + r.m[1][0]) / s;
		q.y = s / 4;
		q.z = (r.m[1][2] + r.m[2][1]) / s;
	} else {
		s = 2 * sqrt(1 + r.m[2][2] - r.m[0][0] - r.m[1][1]);
		q.w = (r.m[1][0] - r.m[0][1]) / s;
		q.x = (r.m[0][2] + r.m[2][0]) / s;
		q.y = (r.m[1][2] + r.m[2][1]) / s;
		q.z = s / 4;
	}
	if (q.w < 0)	/* one sign for one rotation: stable output */
		q.w = -q.w, q.x = -q.x, q.y = -q.y, q.z = -q.z;
	return phys_quat_normalize(q);
}

phys_quat
phys_quat_about(phys_vec3 axis, double angle)
{
	double s = sin(angle / 2);
	phys_quat q = { cos(angle / 2), axis.x * s, axis.y * s, axis.z * s };

	return q;
}

double
phys_angle_about(phys_quat q, phys_vec3 axis)
{
	return 2 * atan2(v3_dot(v3(q.x, q.y, q.z), axis), q.w);
}

double
phys_angle_between(phys_vec3 u, phys_vec3 w, phys_vec3 axis)
{
	return atan2(v3_dot(axis, v3_cross(u, w)), v3_dot(u, w));
}

double
phys_angle_near(double a, double near)
{
	return near + remainder(a - near, 2 * M_PI);
}

phys_pose
phys_pose_mul(phys_pose a, phys_pose b)
{
	phys_pose c;

	c.p = v3_add(a.p, phys_quat_rotate(a.q, b.p));
	c.q = phys_quat_normalize(phys_quat_mul(a.q, b.q));
	return c;
}

phys_pose
phys_pose_inv(phys_pose a)
{
	phys_pose c;

	c.q = phys_quat_conj(a.q);
	c.p = v3_scale(phys_quat_rotate(c.q, a.p), -1);
	return c;
}

phys_vec3
phys_pose_apply(phys_pose a, phys_vec3 v)
{
	return v3_add(a.p, phys_quat_rotate(a.q, v));
}

phys_pose
phys_pose_from6(const double v[6])
{
	phys_pose p;

	p.p = v3(v[0], v[1], v[2]);
	p.q = phys_quat_from_rpy(v[3], v[4], v[5]);
	return p;
}

void
phys_pose_to6(phys_pose p, double v[6])
{
	v[0] = p.p.x, v[1] = p.p.y, v[2] = p.p.z;
	phys_quat_to_rpy(p.q, &v[3], &v[4], &v[5]);
}

phys_mat3
phys_mat3_mul(phys_mat3 a, phys_mat3 b)
{
	phys_mat3 c;
	int i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			c.m[i][j] = 0;
			for (k = 0; k < 3; k++)
				c.m[i][j] += a.m[i][k] * b.m[k][j];
		}
	return c;
}

phys_mat3
phys_mat3_transpose(phys_mat3 a)
{
	phys_mat3 t;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			t.m[i][j] = a.m[j][i];
	return t;
}

phys_vec3
phys_mat3_apply(phys_mat3 a, phys_vec3 v)
{
	return v3(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
	    a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
	    a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}

bool
phys_mat3_inverse(phys_mat3 m, phys_mat3 *out)
{
	double (*a)[3] = m.m, det;
	int i, j;

	out->m[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
	out->m[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
	out->m[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
	out->m[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
	out->m[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
	out->m[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
	out->m[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
	out->m[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
	out->m[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
	det = a[0][0] * out->m[0][0] + a[0][1] * out->m[1][0] +
	    a[0][2] * out->m[2][0];
	if (!(fabs(det) > 0) || !isfinite(det))
		return false;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			out->m[i][j] /= det;
	return true;
}

void
phys_mat3_to_rpy(phys_mat3 r, double *roll, double *pitch, double *yaw)
{
	double c, s, h = hypot(r.m[2][1], r.m[2][2]);

	/*
	 * Take the roll that clears element (2,1), then read pitch and yaw
	 * from Q = R Rx(-roll) = Rz(yaw) Ry(pitch). Q's (0,1) and (1,1)
	 * elements are -sin(yaw) and cos(yaw) whatever the pitch, so yaw
	 * absorbs any error in roll near gimbal lock instead of amplifying it.
	 */
	*roll = h > 1e-15 ? atan2(r.m[2][1], r.m[2][2]) : 0;
	c = cos(*roll);
	s = sin(*roll);
	*pitch = atan2(-r.m[2][0], r.m[2][1] * s + r.m[2][2] * c);
	*yaw = atan2(r.m[0][2] * s - r.m[0][1] * c,
	    r.m[1][1] * c - r.m[1][2] * s);
}
