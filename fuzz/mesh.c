/*
 * mesh.c - fuzz mesh files through the path a world's <mesh> takes: read,
 * recognised and counted, decoded by assimp in the decoder process (which
 * a crash or a hang there ends, to be restarted for the next input),
 * handed back, checked, welded and weighed. The first byte chooses a
 * submesh and a mirroring scale, so those paths run too, and whether the
 * file is named as MuJoCo's MSH (read by phys itself, not assimp).
 */
#include "fuzz.h"
#include "mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The input as a file named .msh, in path (of cap bytes); false when it
 * cannot be written. */
static bool
msh_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	bool ok;

	snprintf(path, cap, "%s/fuzz-%ld.msh", dir ? dir : "/tmp",
	    (long)getpid());
	if (!(f = fopen(path, "wb")))
		return false;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_mesh_spec spec = { 0 };
	struct fuzz_file f;
	struct phys_mesh *m;
	double volume;
	phys_vec3 com;
	phys_mat3 I;
	char msh[4096];
	bool named = size > 0 && (data[0] & 8) && msh_file(data, size, msh,
	    sizeof msh);

	fuzz_file_open(&f, data, size);
	spec.path = named ? msh : f.path;
	spec.submesh = size > 0 && (data[0] & 1) ? "N" : NULL;
	spec.center = size > 0 && (data[0] & 2);
	spec.scale = size > 0 && (data[0] & 4) ? v3(-1, 2, 0.5) : v3(1, 1, 1);
	m = phys_mesh_load(&spec);
	if (m) {
		phys_mesh_mass(m, &volume, &com, &I);
		phys_mesh_free(m);
	}
	fuzz_file_close(&f);
	if (named)
		unlink(msh);
	return 0;
}
