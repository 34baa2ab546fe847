/*
 * meshdec.h - mesh files decoded where a crash cannot reach the program.
 *
 * assimp runs in a process of its own, forked when the first mesh is
 * read and kept for the others: it is limited in memory, processor time
 * and stack, takes the file's bytes through a socket and hands back
 * triangles in a simple format, checked on receipt. A decoder that
 * crashes, loops or runs out of memory fails that mesh with the reason;
 * the next mesh starts a new one.
 */
#ifndef PHYS_MESHDEC_H
#define PHYS_MESHDEC_H

#include <stddef.h>

#include "meshscan.h"

struct phys_mesh;

/* Memory a decoder may use beyond what it starts with. */
#define PHYS_MESH_DECODER_MB 1024

/* Processor seconds a decoder may take for a file of len bytes. One that
 * answers nothing for a minute and ten times as many seconds (of the
 * clock: it may be blocked, or the machine busy) is stopped. */
unsigned phys_mesh_decode_seconds(size_t len);
unsigned phys_mesh_decode_wall_seconds(size_t len);

/*
 * The triangles of data[0..len), recognised as format by phys_mesh_scan:
 * every node's meshes under its transforms, or only the mesh or node
 * named submesh. Vertices are not welded. NULL with phys_error() the
 * reason (without the file's name).
 */
struct phys_mesh *phys_mesh_decode(const char *data, size_t len,
    enum phys_mesh_format format, const char *submesh);

#endif
