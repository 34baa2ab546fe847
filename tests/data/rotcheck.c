/*
 * rotcheck: roll, pitch and yaw keep the rotation. For random attitudes,
 * the singular ones (pitch exactly +-pi/2, any roll and yaw) and those
 * within 1e-12 of them: rpy -> rotation -> rpy -> rotation gives the same
 * matrix to 1e-12, from a quaternion and from a matrix; a quaternion
 * through rpy comes back as the same rotation. Prints the number of
 * rotations checked; exit 1 on the first that moves.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "geom.h"

static uint64_t state = 0x2545f4914f6cdd1dULL;

static double
uniform(double lo, double hi)	/* xorshift64* */
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return lo + (hi - lo) * (double)((state * 2685821657736338717ULL) >>
	    11) / 9007199254740992.0;
}

static double
mat_distance(phys_mat3 a, phys_mat3 b)
{
	double d = 0;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			if (fabs(a.m[i][j] - b.m[i][j]) > d)
				d = fabs(a.m[i][j] - b.m[i][j]);
	return d;
}

static long checked;

static void
check(double roll, double pitch, double yaw)
{
	phys_mat3 r0, r1, r2;
	phys_pose p = { { 1, 2, 3 }, { 1, 0, 0, 0 } };
	double r, pt, y, v[6];

	r0 = phys_quat_to_mat3(phys_quat_from_rpy(roll, pitch, yaw));
	phys_quat_to_rpy(phys_quat_from_rpy(roll, pitch, yaw), &r, &pt, &y);
	r1 = phys_quat_to_mat3(phys_quat_from_rpy(r, pt, y));
	phys_mat3_to_rpy(r0, &r, &pt, &y);
	r2 = phys_quat_to_mat3(phys_quat_from_rpy(r, pt, y));
	p.q = phys_quat_from_rpy(roll, pitch, yaw);
	phys_pose_to6(p, v);
	if (mat_distance(r0, r1) > 1e-12 || mat_distance(r0, r2) > 1e-12 ||
	    mat_distance(r0, phys_quat_to_mat3(phys_pose_from6(v).q)) >
	    1e-12) {
		printf("rpy %.17g %.17g %.17g moves: %g (quaternion), "
		    "%g (matrix)\n", roll, pitch, yaw, mat_distance(r0, r1),
		    mat_distance(r0, r2));
		exit(1);
	}
	checked++;
}

/* A random unit quaternion through rpy and back: the same rotation. */
static void
check_quat(void)
{
	phys_quat q = phys_quat_normalize((phys_quat){ uniform(-1, 1),
	    uniform(-1, 1), uniform(-1, 1), uniform(-1, 1) });
	double r, p, y;

	phys_quat_to_rpy(q, &r, &p, &y);
	if (mat_distance(phys_quat_to_mat3(q),
	    phys_quat_to_mat3(phys_quat_from_rpy(r, p, y))) > 1e-12) {
		printf("quaternion %.17g %.17g %.17g %.17g moves\n", q.w, q.x,
		    q.y, q.z);
		exit(1);
	}
	checked++;
}

int
main(void)
{
	static const double offsets[] = { 0, 1e-12, -1e-12, 1e-14, -1e-15,
	    1e-9, -1e-7 };
	int i, k, s;

	for (i = 0; i < 10000; i++) {
		check(uniform(-M_PI, M_PI), uniform(-M_PI / 2, M_PI / 2),
		    uniform(-M_PI, M_PI));
		check_quat();
	}
	for (i = 0; i < 2000; i++)
		for (s = -1; s <= 1; s += 2)
			for (k = 0; k < (int)(sizeof offsets / sizeof *offsets);
			    k++)
				check(uniform(-M_PI, M_PI), s * (M_PI / 2 -
				    offsets[k]), uniform(-M_PI, M_PI));
	/* the link: roll 0.3 at pitch exactly pi/2 */
	check(0.3, 1.5707963267948966, 0);
	printf("%ld\n", checked);
	return 0;
}
