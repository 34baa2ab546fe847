/*
 * heightmap.c - terrain heights through GDAL.
 *
 * One decoder for both kinds of terrain: GDAL reads the GeoTIFF DEMs
 * Gazebo takes, and its PNG and JPEG drivers (libpng, libjpeg inside)
 * read the grayscale images, 8 or 16 bits, with the same calls.
 *
 * A file's samples are read once per world, whatever number of
 * collisions name it; what a terrain would hold is counted against one
 * budget before it is allocated, and a terrain whose extent, offset or
 * heights are not finite or reach beyond what the engines collide is
 * refused rather than handed to them.
 */
#include "heightmap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cpl_error.h>
#include <gdal.h>

#include "dl.h"
#include "base.h"
#include "geom.h"
#include "trimesh.h"

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
	X(GDALSetCacheMax64) X(GDALGetRasterCount) X(GDALGetBlockSize) \
	X(CPLPushErrorHandler) X(CPLPopErrorHandler) X(CPLQuietErrorHandler)
static struct { GDAL_CALLS(PHYS_DL_POINTER) } gd;
static const char *const gd_names[] = { GDAL_CALLS(PHYS_DL_NAME) };

/* GDAL's cache of raster blocks: each file is read once, whole, so a
 * large cache (5% of the machine's memory by default) only doubles what
 * a raster costs. */
#define GDAL_CACHE_BYTES (16 << 20)

/* 0, or -1 with phys_error() saying why GDAL cannot be used. */
static int
gdal_load(void)
{
	static struct phys_dl_state st;
	bool first = st.state == 0;

	if (phys_dl_load(&st, PHYS_GDAL_SONAME, gd_names, (void **)&gd,
	    sizeof gd / sizeof(void *), "heightmaps need GDAL") < 0)
		return -1;
	if (first) {
		gd.GDALAllRegister();
		if (!getenv("GDAL_CACHEMAX"))
			gd.GDALSetCacheMax64(GDAL_CACHE_BYTES);
	}
	return 0;
}

/* A file's samples as read, no-data filled, before any scaling. */
struct phys_heightmap_file {
	char *path;
	size_t nx, ny;
	double *d;		/* NULL once trimmed */
	double lo, hi;		/* lowest and highest sample */
	bool image;		/* PNG or JPEG: Gazebo's image rules */
	double extent[2];	/* a DEM's own, in metres */
};

struct phys_heightmap_entry {
	char *key;
	struct phys_heightmap *hm;
};

static int
hfail(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
hfail(const char *path, const char *fmt, ...)
{
	char m[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	return phys_fail("heightmap: %s: %s", path, m);
}

static bool
within_reach(double v)
{
	return isfinite(v) && fabs(v) <= PHYS_REACH;
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

/* What GDAL allocates to read one block: a pixel-interleaved file's
 * block holds every band, each sample up to 16 bytes (complex doubles).
 * A 245-byte TIFF of 2,000 bands asked for 11 GB; allow 256 MB. */
#define BLOCK_BYTES_MAX (256.0 * (1 << 20))

static int
check_blocks(const char *path, GDALDatasetH ds)
{
	GDALRasterBandH band = gd.GDALGetRasterBand(ds, 1);
	int bx = 0, by = 0;
	double bytes;

	if (!band)
		return hfail(path, "%s", "the heightmap has no band");
	gd.GDALGetBlockSize(band, &bx, &by);
	bytes = (double)bx * by * gd.GDALGetRasterCount(ds) * 16;
	if (bx <= 0 || by <= 0 || bytes > BLOCK_BYTES_MAX)
		return hfail(path, "its blocks of %dx%d pixels in %d bands "
		    "would take more than 256 MB to read", bx, by,
		    gd.GDALGetRasterCount(ds));
	return 0;
}

/* The first band as doubles; no-data samples take the lowest valid one,
 * as do NaN and infinite ones. */
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

/* Whether n samples fit in what the process's memory limits (ulimit -v,
 * -d) leave: seven terrains of 2049 x 2049 samples ran out within 300 MB,
 * saying only that. */
static int
within_room(const char *path, size_t n)
{
	double left, limit, need = (double)n * sizeof(double);
	char said[128];

	if (phys_mem_fits(need, &left, &limit))
		return 0;
	return hfail(path, "its %zu samples would take %.0f MB, more than %s",
	    n, ceil(need / 1048576), phys_mem_left_text(said, sizeof said,
	    left, limit));
}

static int
check_grid(struct phys_heightmap_cache *c, const char *path, size_t nx,
    size_t ny)
{
	if (nx < 2 || ny < 2)
		return hfail(path, "%s", "a heightmap needs at least 2x2 "
		    "samples");
	if (nx > PHYS_HEIGHTMAP_MAX_SAMPLES / ny)
		return hfail(path, "%zux%zu samples, more than the %u of a "
		    "heightmap", nx, ny, PHYS_HEIGHTMAP_MAX_SAMPLES);
	if (c->samples + nx * ny > PHYS_HEIGHTMAP_BUDGET)
		return hfail(path, "the world's heightmaps would hold more than "
		    "%u samples (%u MB)", PHYS_HEIGHTMAP_BUDGET,
		    (unsigned)(PHYS_HEIGHTMAP_BUDGET / (1u << 20) * 8));
	return within_room(path, nx * ny);
}

/*
 * A DEM's own extent (projected units: metres), from its pixel size, or a
 * metre per pixel when it has none. A pixel size that is not a number or
 * makes the terrain reach past what the engines collide is refused.
 */
static int
dem_extent(const char *path, GDALDatasetH ds, struct phys_heightmap_file *f)
{
	double gt[6];

	if (gd.GDALGetGeoTransform(ds, gt) != CE_None || (gt[1] == 0 &&
	    gt[5] == 0)) {
		f->extent[0] = (double)(f->nx - 1);
		f->extent[1] = (double)(f->ny - 1);
		return 0;
	}
	f->extent[0] = fabs(gt[1]) * (double)(f->nx - 1);
	f->extent[1] = fabs(gt[5]) * (double)(f->ny - 1);
	if (!within_reach(f->extent[0]) || !within_reach(f->extent[1]) ||
	    !(f->extent[0] > 0) || !(f->extent[1] > 0))
		return hfail(path, "its pixel size (%g by %g) makes an extent of "
		    "%g by %g m; it must be above 0 and within %g m", gt[1],
		    gt[5], f->extent[0], f->extent[1], PHYS_REACH);
	return 0;
}

/* Only a regular file: a FIFO would block GDAL for ever, a device never
 * end. It is told by opening it without waiting; GDAL opens it by name
 * (its drivers look for files beside it), what was found here. */
static int
regular_file(const char *path)
{
	char *why;
	int fd = phys_open_regular(path);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	why = phys_xstrdup(phys_error());	/* "path: reason" */
	phys_fail("heightmap: %s", why);
	free(why);
	return -1;
}

static int
decode(struct phys_heightmap_cache *c, const char *path,
    struct phys_heightmap_file *f)
{
	GDALDatasetH ds;
	int rc = 0;

	if (regular_file(path) < 0 || gdal_load() < 0)
		return -1;
	/* GDAL's own messages stay quiet: failures are reported here. */
	gd.CPLPushErrorHandler(gd.CPLQuietErrorHandler);
	ds = gd.GDALOpen(path, GA_ReadOnly);
	if (!ds) {
		gd.CPLPopErrorHandler();
		return hfail(path, "%s", "cannot read the heightmap (not an "
		    "image or raster GDAL knows)");
	}
	f->nx = (size_t)gd.GDALGetRasterXSize(ds);
	f->ny = (size_t)gd.GDALGetRasterYSize(ds);
	f->image = is_image(ds);
	rc = check_grid(c, path, f->nx, f->ny);
	if (rc == 0 && !f->image)
		rc = dem_extent(path, ds, f);
	if (rc == 0)
		rc = check_blocks(path, ds);
	if (rc == 0 && !(f->d = read_band(ds, f->nx, f->ny, &f->lo, &f->hi)))
		rc = hfail(path, "%s", "cannot read the heightmap's samples");
	gd.CPLPopErrorHandler();
	gd.GDALClose(ds);
	if (rc == 0 && !isfinite(f->hi - f->lo))
		rc = hfail(path, "its elevations run from %g to %g, a range "
		    "beyond any number", f->lo, f->hi);
	if (rc < 0) {
		free(f->d);
		f->d = NULL;
		return -1;
	}
	c->samples += f->nx * f->ny;
	return 0;
}

/* The file's samples: decoded now, or kept from an earlier heightmap. */
static struct phys_heightmap_file *
file_of(struct phys_heightmap_cache *c, const char *path)
{
	struct phys_heightmap_file *f = NULL;
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i].path, path) == 0)
			f = &c->files[i];
	if (f && f->d)
		return f;
	if (!f) {
		c->files = phys_xrealloc(c->files, (c->nfiles + 1) *
		    sizeof *c->files);
		f = &c->files[c->nfiles];
		memset(f, 0, sizeof *f);
		if (decode(c, path, f) < 0)
			return NULL;
		f->path = phys_xstrdup(path);
		c->nfiles++;
		return f;
	}
	return decode(c, path, f) < 0 ? NULL : f;
}

/* Images by Gazebo's rule: pixel / largest pixel; DEMs, and images by
 * MuJoCo's: the samples' range. */
static struct phys_heightmap *
make(struct phys_heightmap_cache *c, const char *path,
    struct phys_heightmap_file *f, const double size[3], bool has_size,
    const double pos[3], int sampling, const struct phys_heightmap_rule *rule)
{
	struct phys_heightmap *hm;
	size_t mx = (f->nx - 1) * (size_t)sampling + 1;
	size_t my = (f->ny - 1) * (size_t)sampling + 1, i;
	bool image = f->image && !rule->mujoco;
	double scale, base;

	if (image && (f->nx != f->ny || !power_of_two_plus_one(f->nx))) {
		hfail(path, "a heightmap image must be square with 2^n+1 "
		    "pixels a side (as Gazebo requires); it is %zux%zu", f->nx,
		    f->ny);
		return NULL;
	}

	if (mx > PHYS_HEIGHTMAP_MAX_SAMPLES / my) {
		hfail(path, "more than %u heightmap samples once sampled %d "
		    "times", PHYS_HEIGHTMAP_MAX_SAMPLES, sampling);
		return NULL;
	}
	/* unsampled, the file's samples (counted) become the map's */
	if (sampling > 1 && c->samples + mx * my > PHYS_HEIGHTMAP_BUDGET) {
		hfail(path, "the world's heightmaps would hold more than %u "
		    "samples (%u MB)", PHYS_HEIGHTMAP_BUDGET,
		    (unsigned)(PHYS_HEIGHTMAP_BUDGET / (1u << 20) * 8));
		return NULL;
	}
	if (sampling > 1 && within_room(path, mx * my) < 0)
		return NULL;
	hm = phys_xcalloc(1, sizeof *hm);
	memcpy(hm->size, size, sizeof hm->size);
	memcpy(hm->pos, pos, sizeof hm->pos);
	hm->base = rule->mujoco ? rule->base : 0;
	hm->path = f->path;
	hm->sampling = sampling;
	if (!image && !has_size) {
		hm->size[0] = f->extent[0];
		hm->size[1] = f->extent[1];
		hm->size[2] = f->hi - f->lo;
	}
	base = image ? 0 : f->lo;
	scale = image ? (f->hi > 0 ? hm->size[2] / f->hi : 0) :
	    (f->hi > f->lo ? hm->size[2] / (f->hi - f->lo) : 0);
	/* Unsampled, the map takes the file's samples rather than a copy
	 * (a 4097 x 4097 image held twice took 325 MB): another map of the
	 * file decodes it again (file_of). */
	if (sampling > 1) {
		hm->h = resample(f->d, f->nx, f->ny, sampling, &hm->nx,
		    &hm->ny);
	} else {
		hm->h = f->d;
		hm->nx = f->nx;
		hm->ny = f->ny;
		f->d = NULL;
		c->samples -= f->nx * f->ny;
	}
	for (i = 0; i < hm->nx * hm->ny; i++)
		hm->h[i] = (hm->h[i] - base) * scale + pos[2];
	hm->lo = hm->hi = hm->h[0];
	for (i = 0; i < hm->nx * hm->ny; i++) {
		hm->lo = fmin(hm->lo, hm->h[i]);
		hm->hi = fmax(hm->hi, hm->h[i]);
	}
	if (!within_reach(hm->lo) || !within_reach(hm->hi) ||
	    !within_reach(hm->size[2])) {
		hfail(path, "its heights run from %g to %g m; they must lie "
		    "within %g m", hm->lo, hm->hi, PHYS_REACH);
		free(hm->h);
		free(hm);
		return NULL;
	}
	c->samples += hm->nx * hm->ny;
	return hm;
}

static int
check_arguments(const char *path, const double size[3], bool has_size,
    const double pos[3], int sampling)
{
	int k;

	if (sampling < 1 || sampling > PHYS_HEIGHTMAP_MAX_SAMPLING)
		return hfail(path, "sampling must be 1 to %d",
		    PHYS_HEIGHTMAP_MAX_SAMPLING);
	for (k = 0; k < 3; k++)
		if ((has_size && !within_reach(size[k])) ||
		    !within_reach(pos[k]))
			return hfail(path, "its size and position must lie "
			    "within %g m", PHYS_REACH);
	if (has_size && !(size[0] > 0 && size[1] > 0))
		return hfail(path, "%s", "its extent along x and y must be "
		    "positive");
	return 0;
}

const struct phys_heightmap *
phys_heightmap_cache_get(struct phys_heightmap_cache *c, const char *path,
    const double size[3], bool has_size, const double pos[3], int sampling,
    const struct phys_heightmap_rule *rule)
{
	struct phys_heightmap_file *f;
	struct phys_heightmap *hm;
	char *key;
	size_t i;

	if (check_arguments(path, size, has_size, pos, sampling) < 0)
		return NULL;
	if (rule->mujoco && (!has_size || !(rule->base >= 0) ||
	    !within_reach(rule->base))) {
		hfail(path, "%s", "MuJoCo's rule needs the hfield's size and a "
		    "base of 0 or more");
		return NULL;
	}
	key = phys_xasprintf("%s\n%d %.17g %d %d %.17g %.17g %.17g %.17g "
	    "%.17g %.17g", path, rule->mujoco, rule->base, has_size, sampling,
	    size[0], size[1], size[2], pos[0], pos[1], pos[2]);
	for (i = 0; i < c->nmaps; i++)
		if (strcmp(c->maps[i].key, key) == 0) {
			free(key);
			return c->maps[i].hm;
		}
	if (!(f = file_of(c, path)) ||
	    !(hm = make(c, path, f, size, has_size, pos, sampling, rule))) {
		free(key);
		return NULL;
	}
	c->maps = phys_xrealloc(c->maps, (c->nmaps + 1) * sizeof *c->maps);
	c->maps[c->nmaps].key = key;
	c->maps[c->nmaps].hm = hm;
	c->nmaps++;
	return hm;
}

void
phys_heightmap_mujoco_size(const struct phys_heightmap *hm, double size[4])
{
	size[0] = hm->size[0] / 2;
	size[1] = hm->size[1] / 2;
	size[2] = fmax(hm->hi - hm->lo, 1e-6);
	size[3] = hm->base > 0 ? hm->base : fmax(size[2], 0.1);
}

void
phys_heightmap_cache_trim(struct phys_heightmap_cache *c)
{
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (c->files[i].d) {
			c->samples -= c->files[i].nx * c->files[i].ny;
			free(c->files[i].d);
			c->files[i].d = NULL;
		}
}

void
phys_heightmap_cache_free(struct phys_heightmap_cache *c)
{
	size_t i;

	phys_heightmap_cache_trim(c);
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i].path);
	for (i = 0; i < c->nmaps; i++) {
		free(c->maps[i].key);
		free(c->maps[i].hm->h);
		free(c->maps[i].hm);
	}
	free(c->files);
	free(c->maps);
	memset(c, 0, sizeof *c);
}

void
phys_heightmap_triangles(const struct phys_heightmap *hm, size_t i0,
    size_t j0, size_t i1, size_t j1, struct phys_mesh *out)
{
	double dx = hm->size[0] / (double)(hm->nx - 1);
	double dy = hm->size[1] / (double)(hm->ny - 1);
	size_t w = i1 - i0 + 1, i, j, k = 0;

	memset(out, 0, sizeof *out);
	out->nv = w * (j1 - j0 + 1);
	out->v = phys_xmalloc(3 * out->nv * sizeof *out->v);
	out->ntri = 2 * (w - 1) * (j1 - j0);
	out->tri = phys_xmalloc(3 * out->ntri * sizeof *out->tri);
	for (j = j0; j <= j1; j++)
		for (i = i0; i <= i1; i++) {
			double *p = &out->v[3 * ((j - j0) * w + i - i0)];

			p[0] = hm->pos[0] - hm->size[0] / 2 + (double)i * dx;
			p[1] = hm->pos[1] + hm->size[1] / 2 - (double)j * dy;
			p[2] = hm->h[j * hm->nx + i];
		}
	for (j = 0; j + j0 < j1; j++)
		for (i = 0; i + i0 < i1; i++) {
			unsigned a = (unsigned)(j * w + i), b = a + 1;
			unsigned c = a + (unsigned)w, d = c + 1;
			unsigned t[6] = { a, c, b, b, c, d };

			memcpy(&out->tri[k], t, sizeof t);
			k += 6;
		}
}
