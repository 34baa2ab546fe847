/*
 * trimesh.h - a triangle mesh as every part of assets holds it: the
 * type alone, so that mesh.c, which loads and measures meshes, and
 * meshdec.c, which decodes their files, both use it without using each
 * other (mesh.h has the functions).
 */
#ifndef PHYS_TRIMESH_H
#define PHYS_TRIMESH_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"

struct phys_mesh {
	double *v;		/* xyz per vertex, in the collision frame */
	size_t nv;
	unsigned *tri;		/* three vertex indices per triangle */
	size_t ntri;
	phys_vec3 lo, hi;	/* bounding box */
	bool closed;		/* every edge shared by two triangles,
				 * oriented consistently and outwards */
	size_t left_out;	/* an OBJ's objects not read (first_object) */
	bool gltf;		/* from a glTF file, in its own axes */
};

#endif
