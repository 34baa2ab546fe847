/*
 * inertia_lines.h - inertia lines in, lines about them out: principal
 * axes, the box of equivalent inertia, the body resized or reweighed.
 *
 * An inertia line: {"mass":M,"ixx":I,"iyy":I,"izz":I,"ixy":I,"ixz":I,
 * "iyz":I}, optionally with the centre of mass "pose" in the link frame.
 */
#ifndef PHYS_INERTIA_LINES_H
#define PHYS_INERTIA_LINES_H

#include <stdio.h>

#include "base.h"
#include "inertia.h"

/*
 * The work done on one inertia line: the output line (without its
 * newline) appended to b. -1 is an error; 1 a line written that says the
 * inertia is invalid.
 */
typedef int (*phys_inertia_line_fn)(const phys_inertia *in,
    struct phys_buf *b, const void *ctx);

/* {"mass","valid"[,"reason"],"moments":[I1,I2,I3],"quat","rpy"[,"pose"]}:
 * the moments ascending, I = R diag(moments) R^T with R's columns the
 * axes; "pose" is the principal frame's when the line has a pose. Valid as
 * phys_inertia_validate judges; ctx is unused. */
int phys_inertia_principal_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx);
/* {"mass","size":{"x","y","z"},"quat","rpy"[,"pose"]}: the uniform box of
 * the same mass and inertia, along the principal axes, longest side
 * first; ctx is unused. */
int phys_inertia_box_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx);

/* How phys_inertia_scale_line sets the new mass. */
enum phys_mass_rule {
	PHYS_MASS_KEEP,		/* the same mass */
	PHYS_MASS_FIXED_DENSITY,	/* times the volume ratio */
	PHYS_MASS_DENSITY_FACTOR,	/* times the volume ratio and value */
	PHYS_MASS_FACTOR,	/* times value */
	PHYS_MASS_NEW		/* value */
};

struct phys_inertia_scaling {
	phys_vec3 size;		/* factors along the link frame's axes */
	enum phys_mass_rule rule;
	double value;		/* the factor or the mass */
};

/* The size factors of text "S" (the same along every axis) or
 * "SX,SY,SZ": 0; -1 when it is neither; -2 when a factor is not above 0. */
int phys_inertia_size_factors(const char *text, phys_vec3 *out);
/* The inertia line of the body resized and reweighed as ctx, a struct
 * phys_inertia_scaling, says. */
int phys_inertia_scale_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx);

/*
 * Each inertia line of path (NULL or "-": stdin; blank lines and #
 * comments skipped) through fn, each output line written whole to out:
 * 0, 1 when a line said its inertia is invalid, or -1 at the first bad
 * line ("file:line: what").
 */
int phys_inertia_filter(const char *path, phys_inertia_line_fn fn,
    const void *ctx, FILE *out);

#endif
