/*
 * heightmap.h - terrain heights from grayscale images (PNG, JPEG) and
 * DEMs (GeoTIFF and the other rasters GDAL reads), by Gazebo's rules.
 */
#ifndef PHYS_HEIGHTMAP_H
#define PHYS_HEIGHTMAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Bounds of memory: one heightmap holds at most PHYS_HEIGHTMAP_MAX_SAMPLES
 * once sampled; the heightmaps of a world and the files' own samples, read
 * once per file, at most PHYS_HEIGHTMAP_BUDGET together (256 MB as
 * doubles, a run within 300 MB).
 */
#define PHYS_HEIGHTMAP_MAX_SAMPLES (1u << 25)
#define PHYS_HEIGHTMAP_BUDGET (1u << 25)
#define PHYS_HEIGHTMAP_MAX_SAMPLING 16

struct phys_heightmap {
	size_t nx, ny;		/* samples along x (columns), y (rows) */
	double *h;		/* heights, row-major; row 0 is the +y edge,
				 * column 0 the -x edge */
	double size[3];		/* extent along x and y; height range */
	double pos[3];		/* offset; pos[2] is the height of a zero */
	double lo, hi;		/* lowest and highest height */
	double base;		/* MuJoCo's solid below lo; 0: none */
	const char *path;	/* the file it was made of */
	int sampling;		/* samples per pixel */
};

/*
 * The heightmap as a MuJoCo height field: half sizes along x and y, the
 * height range (never 0) and the solid below its lowest point (its
 * base, else the range and at least 0.1 m); the field's samples are then
 * (h - lo) / range, and it stands lo above its geom's frame.
 */
void phys_heightmap_mujoco_size(const struct phys_heightmap *hm,
    double size[4]);

/*
 * Every heightmap of a world, each file decoded once however many
 * collisions name it, each heightmap made once per file and parameters.
 */
struct phys_heightmap_cache {
	struct phys_heightmap_file *files;	/* decoded samples, by path */
	size_t nfiles;
	struct phys_heightmap_entry *maps;
	size_t nmaps;
	size_t samples;		/* held now, against the budget */
};

/* Whose rules make heights of an image's pixels: Gazebo's (square, 2^n+1
 * a side; pixel / largest), or MuJoCo's (an hfield's: any grid, its
 * range spanning the height, a solid of base m below its lowest point). */
struct phys_heightmap_rule {
	bool mujoco;
	double base;
};

/*
 * By Gazebo's rule, images: square, 2^n+1 pixels a side; height = pixel
 * / (largest pixel) * size.z + pos.z, the first band read. DEMs, and
 * images by MuJoCo's rule (an hfield's PNG, of a size): any grid of at
 * least 2x2; height = (sample - lowest) / (highest - lowest) * size.z +
 * pos.z, and a DEM without a size (has_size false) the raster's own
 * extent and elevation range. sampling >= 1 samples per pixel, bilinear
 * between. NULL with phys_error() "heightmap: PATH: why".
 */
const struct phys_heightmap *phys_heightmap_cache_get(
    struct phys_heightmap_cache *c, const char *path, const double size[3],
    bool has_size, const double pos[3], int sampling,
    const struct phys_heightmap_rule *rule);
struct phys_mesh;

/*
 * The surface of heightmap hm over sample columns i0..i1 and rows j0..j1
 * (row 0 its +y edge) as triangles in its frame, centred on pos, two per
 * cell split along the diagonal from its +x +y corner to its -x -y one,
 * counter-clockwise seen from above, as ODE's height field splits them:
 * into out, its vertices and triangles allocated (free them).
 */
void phys_heightmap_triangles(const struct phys_heightmap *hm, size_t i0,
    size_t j0, size_t i1, size_t j1, struct phys_mesh *out);
/* Drop the files' samples once the world's heightmaps are made. */
void phys_heightmap_cache_trim(struct phys_heightmap_cache *c);
void phys_heightmap_cache_free(struct phys_heightmap_cache *c);

#endif
