/*
 * msh.h - MuJoCo's binary mesh file (MSH), told by its name as MuJoCo
 * tells it: four 32-bit counts (vertices, normals, texture coordinates,
 * faces), then the vertices (3 floats each), normals (3), texture
 * coordinates (2) and faces (3 ints each), little-endian, nothing more.
 */
#ifndef PHYS_MSH_H
#define PHYS_MSH_H

#include <stdbool.h>
#include <stddef.h>

/* Whether path names an MSH file: it ends in .msh (any case). */
bool phys_msh_named(const char *path);

/*
 * The vertices (*nv numbers, three a vertex) and faces (*nf numbers, three
 * a triangle; none: MuJoCo takes the vertices' convex hull) of data[0..
 * len), checked as MuJoCo 2.2.2 checks them (sizes that add up to the
 * file's exactly); the caller frees both. -1 with phys_error() saying why.
 */
int phys_msh_read(const char *data, size_t len, double **v, size_t *nv,
    double **face, size_t *nf);

#endif
