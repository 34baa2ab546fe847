/*
 * terrain.c - fuzz heightmap files through the path a world's <heightmap>
 * takes: GDAL reads the file once, into a world's cache, and it becomes
 * a terrain under the checks of extent, offset, heights and budget. The
 * first byte chooses a size and a sampling, so DEMs' own extents and
 * resampling run too.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "heightmap.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* Nothing written beside the input (GDAL's .aux.xml). */
	setenv("GDAL_PAM_ENABLED", "NO", 1);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double size3[3] = { 8, 8, 2 }, pos[3] = { 0, 0, 0.5 };
	struct phys_heightmap_cache c = { 0 };
	struct fuzz_file f;
	int sampling = size > 0 ? 1 + (data[0] >> 6) : 1;
	/* Gazebo's rule, or MuJoCo's (an MJCF hfield's: any grid) */
	struct phys_heightmap_rule rule = { size > 0 && (data[0] & 2), 0.1 };
	bool has_size = size > 0 && ((data[0] & 1) || rule.mujoco);

	fuzz_file_open(&f, data, size);
	/* twice: the second is the first's, from the cache */
	if (phys_heightmap_cache_get(&c, f.path, size3, has_size, pos,
	    sampling, &rule))
		phys_heightmap_cache_get(&c, f.path, size3, has_size, pos,
		    sampling, &rule);
	phys_heightmap_cache_trim(&c);
	phys_heightmap_cache_free(&c);
	fuzz_file_close(&f);
	return 0;
}
