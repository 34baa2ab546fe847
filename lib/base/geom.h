/* geom.h - vectors, quaternions, poses and 3x3 matrices (SI units, radians). */
#ifndef PHYS_GEOM_H
#define PHYS_GEOM_H

#include <math.h>
#include <stdbool.h>

typedef struct { double x, y, z; } phys_vec3;
typedef struct { double w, x, y, z; } phys_quat;	/* unit, w first */
typedef struct { phys_vec3 p; phys_quat q; } phys_pose;	/* child in parent */
typedef struct { double m[3][3]; } phys_mat3;		/* row-major */

/*
 * How far from the world's origin, along each axis, phys places geometry
 * and bodies, in metres: ODE files geometry in cells of 1/8 m and up,
 * counted in ints, and stops on an assertion past 2^31 / 8 m.
 */
#define PHYS_REACH 2.6e8

static const phys_quat PHYS_QUAT_IDENTITY = { 1, 0, 0, 0 };
static const phys_pose PHYS_POSE_IDENTITY = { { 0, 0, 0 }, { 1, 0, 0, 0 } };

/* Small vector operations, inline: called in every engine's inner loops. */
static inline phys_vec3
v3(double x, double y, double z)
{
	phys_vec3 v = { x, y, z };

	return v;
}

static inline phys_vec3
v3_add(phys_vec3 a, phys_vec3 b)
{
	return v3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline phys_vec3
v3_sub(phys_vec3 a, phys_vec3 b)
{
	return v3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline phys_vec3
v3_scale(phys_vec3 a, double s)
{
	return v3(a.x * s, a.y * s, a.z * s);
}

static inline double
v3_dot(phys_vec3 a, phys_vec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline phys_vec3
v3_cross(phys_vec3 a, phys_vec3 b)
{
	return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
	    a.x * b.y - a.y * b.x);
}

static inline double
v3_norm(phys_vec3 a)
{
	return sqrt(v3_dot(a, a));
}

/* The length of a vector of any finite size (v3_norm's square may
 * overflow: 1e300 0 0 has length 1e300, not inf). */
static inline double
v3_size(phys_vec3 a)
{
	return hypot(hypot(a.x, a.y), a.z);
}

static inline phys_vec3
v3_normalize(phys_vec3 a)
{
	double n = v3_norm(a);

	return n > 0 ? v3_scale(a, 1 / n) : a;
}

/* SDF's roll-pitch-yaw: fixed axes x then y then z, R = Rz(yaw) Ry(pitch) Rx(roll). */
phys_quat phys_quat_from_rpy(double roll, double pitch, double yaw);
void phys_quat_to_rpy(phys_quat q, double *roll, double *pitch, double *yaw);
phys_quat phys_quat_mul(phys_quat a, phys_quat b);
phys_quat phys_quat_conj(phys_quat q);
phys_quat phys_quat_normalize(phys_quat q);
phys_vec3 phys_quat_rotate(phys_quat q, phys_vec3 v);
phys_mat3 phys_quat_to_mat3(phys_quat q);
phys_quat phys_mat3_to_quat(phys_mat3 r);	/* r must be a rotation */
/* The rotation of angle about a unit axis. */
phys_quat phys_quat_about(phys_vec3 axis, double angle);
/* The turn of q about a unit axis (its twist), in (-2 pi, 2 pi]. */
double phys_angle_about(phys_quat q, phys_vec3 axis);
/* The turn from u to w about axis, in [-pi, pi] (all unit, u and w
 * normal to axis or nearly). */
double phys_angle_between(phys_vec3 u, phys_vec3 w, phys_vec3 axis);
/* The angle a moved by whole turns to within half a turn of near: an
 * angle read modulo a turn, continuing the one before. */
double phys_angle_near(double a, double near);

/* a then b: the pose of b's child in a's parent frame. */
phys_pose phys_pose_mul(phys_pose a, phys_pose b);
phys_pose phys_pose_inv(phys_pose a);
phys_vec3 phys_pose_apply(phys_pose a, phys_vec3 v);
/* From/to SDF's six numbers x y z roll pitch yaw. */
phys_pose phys_pose_from6(const double v[6]);
void phys_pose_to6(phys_pose p, double v[6]);

phys_mat3 phys_mat3_mul(phys_mat3 a, phys_mat3 b);
phys_mat3 phys_mat3_transpose(phys_mat3 a);
phys_vec3 phys_mat3_apply(phys_mat3 a, phys_vec3 v);
/* The inverse of a; false when it is singular or not finite. */
bool phys_mat3_inverse(phys_mat3 a, phys_mat3 *out);

/*
 * Roll, pitch, yaw of a rotation matrix (R = Rz(yaw) Ry(pitch) Rx(roll)),
 * accurate to rounding at every attitude, gimbal lock included, unlike
 * going through asin. At pitch = +-pi/2 roll is 0 and yaw takes the rest.
 */
void phys_mat3_to_rpy(phys_mat3 r, double *roll, double *pitch, double *yaw);

#endif
