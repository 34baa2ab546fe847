/*
 * inertia_world.h - the inertia of a world's links: as written, and as
 * their collision geometry implies.
 */
#ifndef PHYS_INERTIA_WORLD_H
#define PHYS_INERTIA_WORLD_H

#include <stdbool.h>

#include "inertia.h"
#include "world_types.h"	/* not world.h: its loader uses this file */

/* The link's <inertial>: mass, tensor and pose in the link frame. */
void phys_link_inertia(const struct phys_link *l, phys_inertia *out);

/*
 * Whether libsdformat surely refuses the file link l is read from for the
 * inertia in (phys_inertia_sdformat_refuses): never of an MJCF model's
 * links, which libsdformat does not read.
 */
bool phys_link_sdformat_refuses(const struct phys_link *l,
    const phys_inertia *in);

/* What a message on link l's inertia in adds where libsdformat surely
 * refuses it too ("; libsdformat finds it invalid too, and refuses the
 * file"), else "". */
const char *phys_link_sdformat_note(const struct phys_link *l,
    const phys_inertia *in);

/* What is said of link l, whose inertia phys takes (verdict v) and
 * libsdformat refuses: a tensor at the edge of the triangle inequality,
 * within phys's tolerance and past libsdformat's. Written into msg. */
const char *phys_link_sdformat_only(const struct phys_link *l,
    const struct phys_inertia_verdict *v, char *msg, size_t len);

/*
 * The box spanned by the link's collision geometry in the link frame
 * (planes left out), and the summed volume of its shapes. False when the
 * link has no such geometry.
 */
bool phys_link_geometry_box(const struct phys_scene *w, int link,
    phys_vec3 *min, phys_vec3 *max, double *volume);

/*
 * The inertia of the link's collision geometry as uniform solids, each at
 * its collision pose, combined with the parallel-axis theorem (overlaps
 * count twice). With density > 0 each shape weighs density times its
 * volume; otherwise the total is mass, shared by volume. The result's
 * pose has the centre of mass and no rotation; the tensor is in link axes.
 * Returns the number of shapes used (0: none), or -1.
 */
int phys_link_geometry_inertia(const struct phys_scene *w, int link,
    double density, double mass, phys_inertia *out);

/* A collision's solid at unit density: its volume, and its inertia
 * (mass = volume) posed in the link frame. 0 for planes and heightmaps,
 * which bound no volume; -1 on an open mesh or a bad shape. */
int phys_collision_solid(const struct phys_collision *c, double *volume,
    phys_inertia *out);

/*
 * The side of the box of equivalent inertia over the geometry box's, both
 * sorted longest first, that is furthest from 1: near 1 for a uniform
 * solid. 0 when the link has no geometry or its inertia is not valid.
 */
double phys_link_box_ratio(const struct phys_scene *w, int link,
    const phys_inertia *in);

/*
 * The LINK-scope values vals of link li (its file's, or a run's) given
 * the mass, centre of mass and inertia of its collision geometry, each
 * collision at its own <density> or else density; a mass above 0 that
 * vals give (a <mass> written) is kept, the densities scaled to it. The
 * number of shapes used: 0 when none has a volume (vals untouched), -1
 * on an unreadable one.
 */
int phys_link_values_geometry(const struct phys_scene *w, int li,
    double density, struct phys_value *vals);

/* SDF 1.11: does the link's <inertial> say auto="true"? */
bool phys_link_auto_inertial(const struct phys_link *l);
/*
 * Automatic inertia: the link's inertial values (mass, pose, tensor) from
 * its collision geometry, meshes included, each collision at its own
 * <density> or else density. A mass the link gives is kept: the
 * densities are scaled to it.
 */
int phys_link_auto_inertia(struct phys_scene *w, int link, double density);

#endif
