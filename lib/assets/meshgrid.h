/*
 * meshgrid.h - the triangles of a mesh near a box: a grid of cells over
 * the mesh, each listing the triangles whose bounds reach into it. For a
 * detector that names no triangles, or the wrong ones (ODE's for a hull
 * on a mesh gives the place of a triangle in a list it keeps).
 */
#ifndef PHYS_MESHGRID_H
#define PHYS_MESHGRID_H

#include <stddef.h>

#include "geom.h"
#include "trimesh.h"

struct phys_mesh_grid;

/* The grid of m (which must outlive it), in m's frame; NULL for a mesh
 * of no triangles or of 2^28 or more. At most 8 entries a triangle and
 * a few thousand more: a mesh of large and small triangles gets coarser
 * cells. */
struct phys_mesh_grid *phys_mesh_grid_new(const struct phys_mesh *m);

/* The triangles (indices into m->tri / 3) whose bounds meet the box lo
 * to hi (m's frame), each once, their number into *n: good until the
 * next call on g. */
const size_t *phys_mesh_grid_find(struct phys_mesh_grid *g, phys_vec3 lo,
    phys_vec3 hi, size_t *n);

void phys_mesh_grid_free(struct phys_mesh_grid *g);

#endif
