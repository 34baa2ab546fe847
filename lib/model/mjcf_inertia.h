/*
 * mjcf_inertia.h - mass and inertia as MuJoCo 2.2.2 compiles them: a
 * geom's from its shape and density (or mass), a body's from its geoms,
 * and the compiler's bounds on a body's (boundmass, boundinertia,
 * balanceinertia).
 */
#ifndef PHYS_MJCF_INERTIA_H
#define PHYS_MJCF_INERTIA_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"

enum phys_mjcf_geom_type {
	PHYS_MJ_PLANE, PHYS_MJ_HFIELD, PHYS_MJ_SPHERE, PHYS_MJ_CAPSULE,
	PHYS_MJ_ELLIPSOID, PHYS_MJ_CYLINDER, PHYS_MJ_BOX, PHYS_MJ_MESH
};

/* A body's inertial frame as MuJoCo keeps it: principal moments about
 * the centre of mass ipos, along the axes of iquat (body frame). */
struct phys_mjcf_inertial {
	double mass;		/* kg */
	phys_vec3 ipos;		/* m */
	phys_quat iquat;
	double diag[3];		/* kg m^2 */
};

/*
 * The volume (m^3) of a primitive of MuJoCo's sizes (half-lengths and
 * radii), or with shell its area (m^2: a later MuJoCo's shellinertia,
 * the density per area); 0 for a plane, a height field or a mesh.
 */
double phys_mjcf_volume(enum phys_mjcf_geom_type t, const double size[3],
    bool shell);
/* The principal moments of a primitive of the given mass, along its axes,
 * solid or a thin shell: MuJoCo's formulas (its capsule's hemispheres
 * included). */
void phys_mjcf_shape_diag(enum phys_mjcf_geom_type t, const double size[3],
    double mass, bool shell, double diag[3]);
/*
 * The body's inertial from n geoms of mass m[i], principal moments d[i]
 * along q[i], centred at p[i]: one geom's copied, several summed about
 * their common centre and diagonalized. Fails when several weigh nothing.
 */
int phys_mjcf_geoms_inertial(size_t n, const double *m, const double (*d)[3],
    const phys_vec3 *p, const phys_quat *q, struct phys_mjcf_inertial *out);
/*
 * MuJoCo's default (not exact) mesh inertia: the frame of a mesh's centre
 * and principal axes (pos, q, in the mesh's own frame) and the half-sides
 * of the uniform box of the same inertia; amount, what a mesh geom's
 * density weighs (MuJoCo 2.2.2: the box's volume, 8 box[0] box[1]
 * box[2]). With shell, a later MuJoCo's inertia="shell": the mass on
 * the faces, amount their area (m^2). v: nv xyz vertices, already
 * scaled; tri: ntri vertex triples; density (kg/m^3) the geom density
 * of the mesh's class, which MuJoCo weighs the mesh at. Fails on a mesh
 * of no area or volume.
 */
int phys_mjcf_mesh_box(const double *v, size_t nv, const unsigned *tri,
    size_t ntri, double density, bool shell, phys_vec3 *pos, phys_quat *q,
    double box[3], double *amount);
/* A full tensor (xx yy zz xy xz yz, body frame) as moments and axes. */
int phys_mjcf_full_inertia(const double full[6], double diag[3],
    phys_quat *q);

#endif
