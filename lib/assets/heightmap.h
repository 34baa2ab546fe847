/*
 * heightmap.h - terrain heights from grayscale images (PNG, JPEG) and
 * DEMs (GeoTIFF and the other rasters GDAL reads), by Gazebo's rules.
 */
#ifndef PHYS_HEIGHTMAP_H
#define PHYS_HEIGHTMAP_H

#include <stdbool.h>
#include <stddef.h>

struct phys_heightmap {
	size_t nx, ny;		/* samples along x (columns), y (rows) */
	double *h;		/* heights, row-major; row 0 is the +y edge,
				 * column 0 the -x edge */
	double size[3];		/* extent along x and y; height range */
	double pos[3];		/* offset; pos[2] is the height of a zero */
	double lo, hi;		/* lowest and highest height */
};

/*
 * Images: square, 2^n+1 pixels a side; height = pixel / (largest pixel)
 * * size.z + pos.z, the first band read. DEMs: any grid of at least 2x2;
 * height = (elevation - lowest) / (highest - lowest) * size.z + pos.z,
 * and without a size (has_size false) the raster's own extent and
 * elevation range. sampling >= 1 samples per pixel, bilinear between.
 */
struct phys_heightmap *phys_heightmap_load(const char *path,
    const double size[3], bool has_size, const double pos[3], int sampling);
void phys_heightmap_free(struct phys_heightmap *hm);

#endif
