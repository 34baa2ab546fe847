/*
 * inertia.h - rigid-body inertia: shapes, frames, principal axes, checks.
 *
 * Conventions, shared with phys-inertia(1):
 *  - An inertia is a mass and a tensor about the centre of mass, expressed
 *    in the axes of the inertial frame, whose pose in the link frame is
 *    SDF's <inertial><pose> (origin at the centre of mass).
 *  - Products of inertia are the tensor's own off-diagonal elements, as in
 *    SDF: ixy = I.m[0][1] = I.m[1][0] = -integral(rho x y).
 *  - Principal moments are sorted ascending; R holds the principal axes as
 *    columns, is a proper rotation and I = R diag(moments) R^T.
 *
 * Every function is pure: it never prints or exits. Failures return -1
 * with the reason in phys_error().
 */
#ifndef PHYS_INERTIA_H
#define PHYS_INERTIA_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"
#include "buf.h"
#include "msg.h"

/*
 * The tolerance of the validity checks, relative to the largest principal
 * moment: a tensor is positive definite when its smallest moment exceeds
 * it, and the triangle inequality may be short by at most it.
 */
#define PHYS_INERTIA_RTOL 1e-9

typedef struct {
	double mass;
	phys_mat3 I;		/* symmetric, about the centre of mass */
	double pose[6];		/* x y z roll pitch yaw of the inertial frame */
	bool has_pose;		/* pose was given; all zero when not */
} phys_inertia;

/* mass and tensor from SDF's six numbers, no pose. */
phys_inertia phys_inertia_make(double mass, double ixx, double iyy,
    double izz, double ixy, double ixz, double iyz);

/* Shapes, centred on their centre of mass; cylinder and capsule along z. */
typedef enum {
	PHYS_SHAPE_BOX,			/* size x y z */
	PHYS_SHAPE_SPHERE,		/* radius */
	PHYS_SHAPE_CYLINDER,		/* radius, length */
	PHYS_SHAPE_CAPSULE,		/* radius, straight length */
	PHYS_SHAPE_ELLIPSOID,		/* semi-axes a b c along x y z */
	PHYS_SHAPE_HOLLOW_SPHERE,	/* thin shell: radius */
	PHYS_SHAPE_HOLLOW_CYLINDER,	/* open thin tube: radius, length */
	PHYS_NSHAPES
} phys_shape_kind;

typedef struct {
	phys_shape_kind kind;
	double dim[3];			/* in the order listed above */
} phys_shape;

struct phys_shape_info {
	const char *name;		/* "box", "hollow-sphere", ... */
	int ndims;
	const char *dims[3];		/* operand names: "X", "R", "L", ... */
	bool shell;			/* measure is an area, density kg/m^2 */
};

const struct phys_shape_info *phys_shape_info(phys_shape_kind kind);
/* The kind named name, or -1. */
int phys_shape_lookup(const char *name);
/*
 * Dimensions must be finite; radii, semi-axes and box sides positive,
 * lengths of cylinders and capsules non-negative.
 */
int phys_shape_check(const phys_shape *s);
/* Volume in m^3, or for a shell its area in m^2. */
double phys_shape_measure(const phys_shape *s);
/* Uniform body of the given mass (> 0), about its centre, no pose. */
int phys_shape_inertia(const phys_shape *s, double mass, phys_inertia *out);

/* R I R^T: the tensor I, given in frame B, expressed in frame A, R = A<-B. */
phys_mat3 phys_inertia_rotate(phys_mat3 I, phys_mat3 R);
/*
 * Parallel axes: the tensor about a point at offset d from the centre of
 * mass, I + m (|d|^2 1 - d d^T), in the same axes as I and d.
 */
phys_mat3 phys_inertia_shift(phys_mat3 I, double mass, phys_vec3 d);
/* The tensor about the centre of mass in the link frame's axes. */
phys_mat3 phys_inertia_link_tensor(const phys_inertia *in);

/*
 * Several bodies, each posed in one common frame, as one body: mass is the
 * sum, the pose's position the joint centre of mass, its rotation zero,
 * and the tensor about that point in the common axes. Masses must be
 * finite and >= 0 with a positive sum; a part of no mass adds its own
 * moments (not carried anywhere), as gz-math's sum of inertials does, by
 * which libsdformat lumps a URDF's massless link.
 */
int phys_inertia_combine(const phys_inertia *parts, size_t n,
    phys_inertia *out);

/*
 * Principal moments, ascending, and axes of a symmetric tensor (upper
 * triangle read), by cyclic Jacobi rotations: accurate for repeated and
 * nearly repeated moments at any scale. R's columns are the axes; it is
 * a proper rotation, and each of its first two columns has its largest
 * component positive (the first such on ties). Fails when an element is
 * not finite or a moment would overflow.
 */
int phys_inertia_principal(phys_mat3 I, double moments[3], phys_mat3 *R);

enum phys_inertia_fault {
	PHYS_INERTIA_VALID,
	PHYS_INERTIA_BAD_MASS,		/* not finite, or <= 0 */
	PHYS_INERTIA_NOT_FINITE,	/* a tensor element, or a moment */
	PHYS_INERTIA_NOT_POSITIVE,	/* smallest moment <= tol */
	PHYS_INERTIA_TRIANGLE		/* I1 + I2 < I3 - tol */
};

struct phys_inertia_verdict {
	enum phys_inertia_fault fault;
	double moments[3];	/* ascending; zero when not finite */
	double tol;		/* PHYS_INERTIA_RTOL * largest |moment| */
	char reason[256];	/* "" when valid */
};

/* Returns the fault and fills v (which may be NULL). */
enum phys_inertia_fault phys_inertia_validate(const phys_inertia *in,
    struct phys_inertia_verdict *v);

/*
 * Whether libsdformat surely refuses a link of this inertia ("has invalid
 * inertia", the file not loaded): gz-math's rule fails by more than any
 * rounding could explain. The rule: the mass is not negative, the
 * tensor's leading minors are not below, nor are its principal moments
 * (its diagonal where every product is within 1e-6 of the largest
 * diagonal element), nor does a moment exceed the other two's sum by
 * more than, 10 machine epsilons of half the trace. Its eigenvalues are
 * not phys's to the last bits: a rod's least moment, 0 written, comes out
 * at some 1e-15 of the trace either side of 0, and either side of the
 * rule. Refused here: failing by more than PHYS_SDFORMAT_SURE of half the
 * trace (in its units for the minors). Far stricter than
 * phys_inertia_validate at the triangle's edge, looser at zero.
 */
#define PHYS_SDFORMAT_SURE 1e-12
bool phys_inertia_sdformat_refuses(const phys_inertia *in);

/*
 * The box of uniform density with the same mass and tensor: size along
 * the principal axes (the longest first) and R as phys_inertia_principal.
 * Fails with the verdict's reason on an invalid inertia.
 */
int phys_inertia_box_equivalent(const phys_inertia *in, phys_vec3 *size,
    phys_mat3 *R);

/*
 * The body resized by factors s (> 0) along the link frame's axes, its
 * mass multiplied by mass_ratio (> 0). With the second moments
 * S = integral(rho r r^T) = tr(I)/2 1 - I in link axes, S' = k D S D and
 * I' = tr(S') 1 - S', D = diag(s): exact for any tensor and any pose.
 * The centre of mass moves to D c; the inertial frame keeps its rotation.
 */
int phys_inertia_scale(const phys_inertia *in, phys_vec3 s,
    double mass_ratio, phys_inertia *out);

/* The inverse of a body's inertia in the world: R I^-1 R'. inertia is
 * about the centre of mass in the body frame (row-major); zero when it
 * is singular. */
phys_mat3 phys_inverse_inertia_world(const double inertia[9], phys_quat q);

/* At least a' I^-1 a for every unit a, without inverting I: 1 / l_min
 * <= (tr I / 2)^2 / det I, since the other two moments' product is at
 * most (tr I / 2)^2; infinity when I is singular. */
double phys_inverse_inertia_bound(const double inertia[9]);

/* A body as an axis's inertia sees it: world frame; a static or
 * kinematic body (or the world) has inv_mass 0 and inv_inertia 0. */
struct phys_body_inverse {
	double inv_mass;
	phys_mat3 inv_inertia;	/* about the centre of mass */
	phys_vec3 com;
};
/*
 * The inverse inertia of a joint's motion along a, its two bodies alone:
 * for a turn, the two held together at the anchor (a lower bound of the
 * motion's inertia, which the joint's other rows and the rest of the
 * world only raise; exact for a link on the world); for a slide, the two
 * masses.
 */
double phys_axis_inverse_inertia(const struct phys_body_inverse *child,
    const struct phys_body_inverse *parent, phys_vec3 anchor, phys_vec3 a,
    bool linear);

/*
 * An inertia line: one JSON object with the numbers mass, ixx, iyy, izz,
 * ixy, ixz, iyz and optionally pose {x, y, z, roll, pitch, yaw}. Unknown
 * and duplicate keys are refused.
 */
int phys_inertia_parse_json(const char *text, size_t len, phys_inertia *out);
/*
 * Appends the line, without newline, in that key order with the pose
 * last when has_pose; -1 and nothing appended when a number is not finite.
 */
int phys_inertia_write(struct phys_buf *b, const phys_inertia *in);

#endif
