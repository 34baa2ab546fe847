/*
 * heightmap.c - terrain heights through GDAL.
 *
 * One decoder for both kinds of terrain: GDAL reads the GeoTIFF DEMs
 * Gazebo takes, and its PNG and JPEG drivers (libpng, libjpeg inside)
 * read the grayscale images, 8 or 16 bits, with the same calls.
 */
#include "heightmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cpl_error.h>
#include <gdal.h>

#include "dl.h"
#include "base.h"

/*
 * GDAL is opened when the first heightmap is read (dl.h), not linked: its
 * library pulls in over a hundred others, and loading them cost every
 * command about 0.15 s of processor time at start-up, terrain or not.
 */
#ifndef PHYS_GDAL_SONAME
#define PHYS_GDAL_SONAME "libgdal.so"
#endif
#define GDAL_CALLS(X) X(GDALAllRegister) X(GDALOpen) X(GDALClose) \
	X(GDALGetDatasetDriver) X(GDALGetDriverShortName) \
	X(GDALGetRasterXSize) X(GDALGetRasterYSize) X(GDALGetRasterBand) \
	X(GDALRasterIO) X(GDALGetRasterNoDataValue) X(GDALGetGeoTransform) \
	X(CPLPushErrorHandler) X(CPLPopErrorHandler) X(CPLQuietErrorHandler)
static struct { GDAL_CALLS(PHYS_DL_POINTER) } gd;
static const char *const gd_names[] = { GDAL_CALLS(PHYS_DL_NAME) };

/* 0, or -1 with phys_error() saying why GDAL cannot be used. */
static int
gdal_load(void)
{
	static struct phys_dl_state st;
	bool first = st.state == 0;

	if (phys_dl_load(&st, PHYS_GDAL_SONAME, gd_names, (void **)&gd,
	    sizeof gd / sizeof(void *), "heightmaps need GDAL") < 0)
		return -1;
	if (first)
		gd.GDALAllRegister();
	return 0;
}

/* Bounded memory: samples after sampling, and the sampling itself. */
#define MAX_SAMPLES (1u << 25)
#define MAX_SAMPLING 16

void
phys_heightmap_free(struct phys_heightmap *hm)
{
	if (!hm)
		return;
	free(hm->h);
	free(hm);
}

static bool
is_image(GDALDatasetH ds)
{
	const char *drv =
	    gd.GDALGetDriverShortName(gd.GDALGetDatasetDriver(ds));

	return strcmp(drv, "PNG") == 0 || strcmp(drv, "JPEG") == 0;
}

static bool
power_of_two_plus_one(size_t n)
{
	return n >= 3 && ((n - 1) & (n - 2)) == 0;
}

/* The first band as doubles; no-data samples take the lowest valid one. */
static double *
read_band(GDALDatasetH ds, size_t nx, size_t ny, double *lo, double *hi)
{
	GDALRasterBandH band = gd.GDALGetRasterBand(ds, 1);
	double *d = phys_xmalloc(nx * ny * sizeof *d), nodata;
	int has_nodata = 0;
	size_t i;
	bool any = false;

	if (!band || gd.GDALRasterIO(band, GF_Read, 0, 0, (int)nx, (int)ny,
	    d, (int)nx, (int)ny, GDT_Float64, 0, 0) != CE_None) {
		free(d);
		return NULL;
	}
	nodata = gd.GDALGetRasterNoDataValue(band, &has_nodata);
	for (i = 0; i < nx * ny; i++) {
		if ((has_nodata && d[i] == nodata) || !isfinite(d[i]))
			continue;
		*lo = any ? fmin(*lo, d[i]) : d[i];
		*hi = any ? fmax(*hi, d[i]) : d[i];
		any = true;
	}
	if (!any) {
		free(d);
		return NULL;
	}
	for (i = 0; i < nx * ny; i++)
		if ((has_nodata && d[i] == nodata) || !isfinite(d[i]))
			d[i] = *lo;
	return d;
}

/* Bilinear samples between the pixels, s per pixel. */
static double *
resample(const double *d, size_t nx, size_t ny, int s, size_t *mx, size_t *my)
{
	size_t i, j;
	double *o;

	*mx = (nx - 1) * (size_t)s + 1;
	*my = (ny - 1) * (size_t)s + 1;
	o = phys_xmalloc(*mx * *my * sizeof *o);
	for (j = 0; j < *my; j++)
		for (i = 0; i < *mx; i++) {
			size_t x0 = i / (size_t)s, y0 = j / (size_t)s;
			size_t x1 = x0 + (x0 + 1 < nx), y1 = y0 + (y0 + 1 < ny);
			double fx = (double)(i % (size_t)s) / s;
			double fy = (double)(j % (size_t)s) / s;

			o[j * *mx + i] = (1 - fy) * ((1 - fx) * d[y0 * nx + x0] +
			    fx * d[y0 * nx + x1]) + fy * ((1 - fx) *
			    d[y1 * nx + x0] + fx * d[y1 * nx + x1]);
		}
	return o;
}

static int
check_grid(const char *path, GDALDatasetH ds, size_t nx, size_t ny,
    int sampling)
{
	if (sampling < 1 || sampling > MAX_SAMPLING)
		return phys_fail("heightmap sampling must be 1 to %d",
		    MAX_SAMPLING);
	if (is_image(ds) && (nx != ny || !power_of_two_plus_one(nx)))
		return phys_fail("%s: a heightmap image must be square with "
		    "2^n+1 pixels a side (as Gazebo requires); it is %zux%zu",
		    path, nx, ny);
	if (nx < 2 || ny < 2)
		return phys_fail("%s: a heightmap needs at least 2x2 samples",
		    path);
	if (((nx - 1) * (size_t)sampling + 1) * ((ny - 1) * (size_t)sampling +
	    1) > MAX_SAMPLES)
		return phys_fail("%s: more than %u heightmap samples", path,
		    MAX_SAMPLES);
	return 0;
}

/* A DEM without <size> keeps its own extent (projected units: metres). */
static void
dem_extent(GDALDatasetH ds, size_t nx, size_t ny, double lo, double hi,
    double size[3])
{
	double gt[6];

	if (gd.GDALGetGeoTransform(ds, gt) == CE_None && gt[1] != 0 &&
	    gt[5] != 0) {
		size[0] = fabs(gt[1]) * (double)(nx - 1);
		size[1] = fabs(gt[5]) * (double)(ny - 1);
	} else {
		size[0] = (double)(nx - 1);
		size[1] = (double)(ny - 1);
	}
	size[2] = hi - lo;
}

struct phys_heightmap *
phys_heightmap_load(const char *path, const double size[3], bool has_size,
    const double pos[3], int sampling)
{
	struct phys_heightmap *hm;
	GDALDatasetH ds;
	double *raw, lo = 0, hi = 0, scale, base;
	size_t nx, ny, i;
	bool image;

	if (gdal_load() < 0)
		return NULL;
	/* GDAL's own messages stay quiet: failures are reported here. */
	gd.CPLPushErrorHandler(gd.CPLQuietErrorHandler);
	ds = gd.GDALOpen(path, GA_ReadOnly);
	if (!ds) {
		gd.CPLPopErrorHandler();
		phys_fail("%s: cannot read the heightmap (not an image or "
		    "raster GDAL knows)", path);
		return NULL;
	}
	nx = (size_t)gd.GDALGetRasterXSize(ds);
	ny = (size_t)gd.GDALGetRasterYSize(ds);
	image = is_image(ds);
	if (check_grid(path, ds, nx, ny, sampling) < 0) {
		gd.CPLPopErrorHandler();
		gd.GDALClose(ds);
		return NULL;
	}
	raw = read_band(ds, nx, ny, &lo, &hi);
	gd.CPLPopErrorHandler();
	if (!raw) {
		gd.GDALClose(ds);
		phys_fail("%s: cannot read the heightmap's samples", path);
		return NULL;
	}
	hm = phys_xcalloc(1, sizeof *hm);
	memcpy(hm->size, size, sizeof hm->size);
	memcpy(hm->pos, pos, sizeof hm->pos);
	if (!image && !has_size)
		dem_extent(ds, nx, ny, lo, hi, hm->size);
	gd.GDALClose(ds);
	/* Images: pixel / largest pixel; DEMs: the elevation range. */
	base = image ? 0 : lo;
	scale = image ? (hi > 0 ? hm->size[2] / hi : 0) :
	    (hi > lo ? hm->size[2] / (hi - lo) : 0);
	for (i = 0; i < nx * ny; i++)
		raw[i] = (raw[i] - base) * scale + pos[2];
	hm->h = sampling > 1 ? resample(raw, nx, ny, sampling, &hm->nx,
	    &hm->ny) : raw;
	if (sampling > 1)
		free(raw);
	else
		hm->nx = nx, hm->ny = ny;
	hm->lo = hm->hi = hm->h[0];
	for (i = 0; i < hm->nx * hm->ny; i++) {
		hm->lo = fmin(hm->lo, hm->h[i]);
		hm->hi = fmax(hm->hi, hm->h[i]);
	}
	return hm;
}
