/*
 * gltf.h - glTF 2.0 meshes: a .gltf file with the buffers it names, or a
 * .glb, checked and counted from their JSON before any decoder reads
 * them, then packed into one GLB in memory that names no other file.
 *
 * A buffer a .gltf names is read here, as a regular file beside it, and
 * only as many bytes as the JSON says it holds, so that the decoder (which
 * would open any path from its own working directory) opens nothing.
 * What a collision needs no more than its triangles (images, textures,
 * materials, skins, animations) is left out of the packed file.
 */
#ifndef PHYS_GLTF_H
#define PHYS_GLTF_H

#include <stdbool.h>
#include <stddef.h>

#include "meshscan.h"

/* Whether data[0..len) is a GLB file, or JSON (a .gltf file). */
bool phys_gltf_recognised(const char *data, size_t len);

/*
 * Checks the file's JSON (every index in range, every accessor inside
 * its buffer view, every view inside its buffer, no node its own
 * ancestor, the extensions it needs) and counts what the decoder would
 * build: 0, or -1 with phys_error() saying why it is refused.
 */
int phys_gltf_scan(const char *data, size_t len, struct phys_mesh_scan *out);

/*
 * The file as one GLB whose buffer holds every buffer it names, read
 * beside path (a .gltf's directory); NULL and phys_error() when a buffer
 * cannot be read. The caller frees it. Only for a file phys_gltf_scan
 * accepted.
 */
char *phys_gltf_pack(const char *data, size_t len, const char *path,
    size_t *outlen);

#endif
