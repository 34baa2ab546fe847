/*
 * meshscan.h - mesh files recognised by their content and bounded before
 * any decoder reads them.
 *
 * A world names mesh files that come from anywhere. Only the formats phys
 * documents are accepted (Collada, STL, OBJ; glTF by gltf.h), told apart
 * by their bytes, not their names; and what the decoder would build from
 * them (triangles
 * with every instance counted, scene nodes, their nesting) is counted
 * from the file first, so that a small file cannot make it allocate
 * gigabytes or recurse without end.
 */
#ifndef PHYS_MESHSCAN_H
#define PHYS_MESHSCAN_H

#include <stddef.h>

/* What a mesh file may cost (phys(7), LIMITS). */
#define PHYS_MESH_MAX_MB 256
#define PHYS_MESH_MAX_BYTES ((size_t)PHYS_MESH_MAX_MB << 20)
#define PHYS_MESH_MAX_TRIANGLES 2000000u
#define PHYS_MESH_MAX_NODES 100000u
#define PHYS_MESH_MAX_DEPTH 256
/* Elements with an id in a Collada file (nodes, geometries, arrays...). */
#define PHYS_MESH_MAX_OBJECTS 1000000u

enum phys_mesh_format {
	PHYS_MESH_UNKNOWN,
	PHYS_MESH_COLLADA,
	PHYS_MESH_STL,
	PHYS_MESH_OBJ,
	PHYS_MESH_GLTF		/* packed as one GLB first (gltf.h) */
};

struct phys_mesh_scan {
	enum phys_mesh_format format;
	size_t triangles;	/* at most, every instance counted */
	size_t nodes;		/* scene nodes, every instance counted */
};

/*
 * Recognises data[0..len) and counts what it would build: 0, or -1 with
 * phys_error() saying why it is refused (no file name: the caller adds
 * it).
 */
int phys_mesh_scan(const char *data, size_t len, struct phys_mesh_scan *out);

/*
 * What the decoder would open beside the file, taken out of data in
 * place: an OBJ's material libraries ("mtllib" lines become comments;
 * a collision needs no materials, and a library could name a FIFO or a
 * device). Collada and STL files name no other file assimp reads.
 */
void phys_mesh_confine(char *data, size_t len, enum phys_mesh_format f);

/*
 * An OBJ's first object, as MuJoCo 2.2.2 reads the file: the faces before
 * the first "o" or "g" line that follows a face; those after it become
 * comments in place. Returns how many objects with faces were left out
 * (0 for the other formats, or an OBJ of one object).
 */
size_t phys_mesh_first_object(char *data, size_t len, enum phys_mesh_format f);

/* "Collada", "STL", "OBJ", "glTF". */
const char *phys_mesh_format_name(enum phys_mesh_format f);

#endif
