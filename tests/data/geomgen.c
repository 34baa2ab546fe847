/*
 * geomgen.c - writes the meshes and terrains tests/geometry.bats uses,
 * into the directory given: one unit cube (edges 1 m, centred on the
 * origin) as ASCII STL, binary STL, OBJ and Collada (in centimetres,
 * under a node transform), a unit right tetrahedron, a channel (a slot
 * between two walls, one closed OBJ), and a bowl terrain
 * h = ((x/R)^2 + (y/R)^2) / 2 as a 33x33 PNG and as a GeoTIFF, plus a
 * 30x30 PNG no heightmap may use; and GeoTIFFs no terrain may use: the
 * bowl with a NaN pixel size (nan_pixel.tif), with a pixel size of 1e308
 * (huge_pixel.tif), with elevations of -1e308 and 1e308 (huge_elev.tif),
 * and a 2049x2049 raster of a few kilobytes whose blocks are all left
 * out (sparse.tif; sparse4097.tif, 4097x4097). The cube as glTF too:
 * cube.gltf with its buffer in
 * "cube data.bin", and cube.glb, both turned and lifted by two nested
 * nodes, with a material whose image no file holds.
 *
 *	cc geomgen.c $(pkg-config --cflags --libs gdal) -lm -o geomgen
 *	./geomgen DIR
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gdal.h>

static const double cube_v[8][3] = {
	{ -.5, -.5, -.5 }, { .5, -.5, -.5 }, { .5, .5, -.5 }, { -.5, .5, -.5 },
	{ -.5, -.5, .5 }, { .5, -.5, .5 }, { .5, .5, .5 }, { -.5, .5, .5 },
};
/* Counter-clockwise seen from outside. */
static const int cube_t[12][3] = {
	{ 0, 2, 1 }, { 0, 3, 2 }, { 4, 5, 6 }, { 4, 6, 7 },
	{ 0, 1, 5 }, { 0, 5, 4 }, { 1, 2, 6 }, { 1, 6, 5 },
	{ 2, 3, 7 }, { 2, 7, 6 }, { 3, 0, 4 }, { 3, 4, 7 },
};
static const double tet_v[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 },
	{ 0, 0, 1 } };
static const int tet_t[4][3] = { { 0, 2, 1 }, { 0, 1, 3 }, { 0, 3, 2 },
	{ 1, 2, 3 } };

static FILE *
open_in(const char *dir, const char *name, const char *mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, mode);
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void
ascii_stl(const char *dir, const char *name, const double (*v)[3],
    const int (*t)[3], int nt)
{
	FILE *f = open_in(dir, name, "w");
	int i, k;

	fprintf(f, "solid %s\n", name);
	for (i = 0; i < nt; i++) {
		fprintf(f, " facet normal 0 0 0\n  outer loop\n");
		for (k = 0; k < 3; k++)
			fprintf(f, "   vertex %g %g %g\n", v[t[i][k]][0],
			    v[t[i][k]][1], v[t[i][k]][2]);
		fprintf(f, "  endloop\n endfacet\n");
	}
	fprintf(f, "endsolid %s\n", name);
	fclose(f);
}

static void
put_f32(FILE *f, double x)
{
	float v = (float)x;
	unsigned char b[4];
	uint32_t u;

	memcpy(&u, &v, sizeof u);
	b[0] = u & 255, b[1] = u >> 8 & 255, b[2] = u >> 16 & 255;
	b[3] = u >> 24 & 255;
	fwrite(b, 1, 4, f);
}

static void
binary_stl(const char *dir)
{
	FILE *f = open_in(dir, "cube_binary.stl", "wb");
	unsigned char header[80] = "binary cube", n[4] = { 12, 0, 0, 0 },
	    attr[2] = { 0, 0 };
	int i, k;

	fwrite(header, 1, sizeof header, f);
	fwrite(n, 1, 4, f);
	for (i = 0; i < 12; i++) {
		for (k = 0; k < 3; k++)
			put_f32(f, 0);
		for (k = 0; k < 9; k++)
			put_f32(f, cube_v[cube_t[i][k / 3]][k % 3]);
		fwrite(attr, 1, 2, f);
	}
	fclose(f);
}

static void
obj(const char *dir)
{
	FILE *f = open_in(dir, "cube.obj", "w");
	int i;

	for (i = 0; i < 8; i++)
		fprintf(f, "v %g %g %g\n", cube_v[i][0], cube_v[i][1],
		    cube_v[i][2]);
	for (i = 0; i < 12; i++)
		fprintf(f, "f %d %d %d\n", cube_t[i][0] + 1, cube_t[i][1] + 1,
		    cube_t[i][2] + 1);
	fclose(f);
}

/*
 * A channel 1 m square and 0.5 m high, its bottom at z = 0, with a slot
 * 0.5 m wide and 0.3 m deep along y: the U of its profile (x, z)
 * extruded from y = -0.5 to 0.5, one closed mesh (its ends each three
 * convex quads). Its convex hull is the whole 1 x 1 x 0.5 m block.
 */
static const double u_xz[8][2] = {	/* counter-clockwise */
	{ -.5, 0 }, { .5, 0 }, { .5, .5 }, { .25, .5 }, { .25, .2 },
	{ -.25, .2 }, { -.25, .5 }, { -.5, .5 },
};

/* Triangle a b c of the channel's vertices, turned to face along n. */
static void
facing(FILE *f, int a, int b, int c, const double n[3])
{
	double p[3][3], u[3], v[3], d;
	int i, k[3] = { a, b, c };

	for (i = 0; i < 3; i++) {
		p[i][0] = u_xz[k[i] % 8][0];
		p[i][1] = k[i] < 8 ? -.5 : .5;
		p[i][2] = u_xz[k[i] % 8][1];
	}
	for (i = 0; i < 3; i++) {
		u[i] = p[1][i] - p[0][i];
		v[i] = p[2][i] - p[0][i];
	}
	d = (u[1] * v[2] - u[2] * v[1]) * n[0] +
	    (u[2] * v[0] - u[0] * v[2]) * n[1] +
	    (u[0] * v[1] - u[1] * v[0]) * n[2];
	if (d < 0)
		fprintf(f, "f %d %d %d\n", a + 1, c + 1, b + 1);
	else
		fprintf(f, "f %d %d %d\n", a + 1, b + 1, c + 1);
}

static void
channel(const char *dir)
{
	/* the ends' quads, by profile point */
	static const int quad[3][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 0 },
	    { 0, 1, 4, 5 } };
	FILE *f = open_in(dir, "channel.obj", "w");
	double n[3];
	int i, j, e;

	for (i = 0; i < 16; i++)	/* 0-7 at y = -0.5, 8-15 at 0.5 */
		fprintf(f, "v %g %g %g\n", u_xz[i % 8][0], i < 8 ? -.5 : .5,
		    u_xz[i % 8][1]);
	for (i = 0; i < 8; i++) {	/* the sides: outward of each edge */
		j = (i + 1) % 8;
		n[0] = u_xz[j][1] - u_xz[i][1];
		n[1] = 0;
		n[2] = u_xz[i][0] - u_xz[j][0];
		facing(f, i, j, j + 8, n);
		facing(f, i, j + 8, i + 8, n);
	}
	for (e = 0; e < 2; e++) {	/* the ends */
		n[0] = n[2] = 0;
		n[1] = e ? 1 : -1;
		for (i = 0; i < 3; i++) {
			facing(f, 8 * e + quad[i][0], 8 * e + quad[i][1],
			    8 * e + quad[i][2], n);
			facing(f, 8 * e + quad[i][0], 8 * e + quad[i][2],
			    8 * e + quad[i][3], n);
		}
	}
	fclose(f);
}

/*
 * The cube in centimetres (<unit meter="0.01">), its vertices shifted
 * by -50 cm in z and turned -90 degrees about z; the node turns them
 * back and lifts them 50 cm: the same unit cube once both apply.
 */
static void
collada(const char *dir)
{
	FILE *f = open_in(dir, "cube.dae", "w");
	int i;

	fprintf(f, "<?xml version=\"1.0\"?>\n"
	    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
	    "version=\"1.4.1\">\n<asset><unit meter=\"0.01\" name=\"cm\"/>"
	    "<up_axis>Z_UP</up_axis></asset>\n<library_geometries>"
	    "<geometry id=\"cube\" name=\"cube\"><mesh>\n"
	    "<source id=\"p\"><float_array id=\"pa\" count=\"24\">");
	for (i = 0; i < 8; i++)	/* (x, y) turned -90 degrees: (y, -x) */
		fprintf(f, " %g %g %g", 100 * cube_v[i][1],
		    -100 * cube_v[i][0], 100 * cube_v[i][2] - 50);
	fprintf(f, "</float_array><technique_common><accessor source=\"#pa\" "
	    "count=\"8\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
	    "<param name=\"Y\" type=\"float\"/><param name=\"Z\" "
	    "type=\"float\"/></accessor></technique_common></source>\n"
	    "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/>"
	    "</vertices>\n<triangles count=\"12\"><input semantic=\"VERTEX\" "
	    "source=\"#v\" offset=\"0\"/><p>");
	for (i = 0; i < 12; i++)
		fprintf(f, " %d %d %d", cube_t[i][0], cube_t[i][1],
		    cube_t[i][2]);
	fprintf(f, "</p></triangles>\n</mesh></geometry></library_geometries>\n"
	    "<library_visual_scenes><visual_scene id=\"s\">"
	    "<node id=\"n\" name=\"box_node\"><translate>0 0 50</translate>"
	    "<rotate>0 0 1 90</rotate><instance_geometry url=\"#cube\"/>"
	    "</node></visual_scene></library_visual_scenes>\n"
	    "<scene><instance_visual_scene url=\"#s\"/></scene>\n"
	    "</COLLADA>\n");
	fclose(f);
}

/*
 * The unit cube as glTF: its vertices turned -90 degrees about z and
 * lowered 0.5 m, which the child node's rotation and the two nodes'
 * translations (0.25 m each) undo.
 */
static const char gltf_json[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,"
    "\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"root\",\"translation\":[0,0,0.25],"
    "\"children\":[1]},{\"name\":\"box_node\",\"mesh\":0,"
    "\"translation\":[0,0,0.25],"
    "\"rotation\":[0,0,0.7071067811865476,0.7071067811865476]}],"
    "\"meshes\":[{\"name\":\"cube\",\"primitives\":[{\"attributes\":"
    "{\"POSITION\":0},\"indices\":1,\"material\":0}]}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":"
    "{\"index\":0}}}],\"textures\":[{\"source\":0}],"
    "\"images\":[{\"uri\":\"no such image.png\"}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":8,"
    "\"type\":\"VEC3\",\"min\":[-0.5,-0.5,-1],\"max\":[0.5,0.5,0]},"
    "{\"bufferView\":1,\"componentType\":5123,\"count\":36,"
    "\"type\":\"SCALAR\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":96},"
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":72}],"
    "\"buffers\":[{%s\"byteLength\":168}]}";

static void
put_u32(FILE *f, uint32_t u)
{
	unsigned char b[4] = { u & 255, u >> 8 & 255, u >> 16 & 255,
		u >> 24 & 255 };

	fwrite(b, 1, 4, f);
}

/* The 168 bytes of the cube's buffer: 8 float positions, 36 indices. */
static void
gltf_buffer(FILE *f)
{
	unsigned char b[2];
	int i, k;

	for (i = 0; i < 8; i++) {
		put_f32(f, cube_v[i][1]);
		put_f32(f, -cube_v[i][0]);
		put_f32(f, cube_v[i][2] - .5);
	}
	for (i = 0; i < 12; i++)
		for (k = 0; k < 3; k++) {
			b[0] = (unsigned char)cube_t[i][k];
			b[1] = 0;
			fwrite(b, 1, 2, f);
		}
}

static void
gltf(const char *dir)
{
	FILE *f = open_in(dir, "cube.gltf", "w");
	char json[4096];
	size_t n, pad;

	fprintf(f, gltf_json, "\"uri\":\"cube%20data.bin\",");
	fclose(f);
	f = open_in(dir, "cube data.bin", "wb");
	gltf_buffer(f);
	fclose(f);
	n = (size_t)snprintf(json, sizeof json, gltf_json, "");
	pad = (4 - n % 4) % 4;
	f = open_in(dir, "cube.glb", "wb");
	fwrite("glTF", 1, 4, f);
	put_u32(f, 2);
	put_u32(f, (uint32_t)(12 + 8 + n + pad + 8 + 168));
	put_u32(f, (uint32_t)(n + pad));
	fwrite("JSON", 1, 4, f);
	fwrite(json, 1, n, f);
	fwrite("   ", 1, pad, f);
	put_u32(f, 168);
	fwrite("BIN", 1, 4, f);	/* and its NUL */
	gltf_buffer(f);
	fclose(f);
}

/* The bowl over [-1, 1]^2 in pixels: 0 at the centre, 1 at the edges'
 * middles; images scale it to 0..255 (its largest value, at the corners,
 * is 2: 255 there). */
static double
bowl(int i, int j, int n)
{
	double x = 2.0 * i / (n - 1) - 1, y = 2.0 * j / (n - 1) - 1;

	return (x * x + y * y) / 2;
}

static void
raster(const char *dir, const char *name, const char *driver, int n,
    GDALDataType type, double scale)
{
	GDALDriverH mem = GDALGetDriverByName("MEM");
	GDALDriverH out = GDALGetDriverByName(driver);
	GDALDatasetH ds = GDALCreate(mem, "", n, n, 1, type, NULL), copy;
	double *d = malloc(sizeof *d * (size_t)n * (size_t)n);
	double gt[6] = { 1000, 0.25, 0, 2000, 0, -0.25 };
	char path[4096];
	int i, j;

	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			d[j * n + i] = type == GDT_Byte ?
			    round(scale * bowl(i, j, n)) : scale * bowl(i, j, n);
	if (GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, n, n, d, n,
	    n, GDT_Float64, 0, 0) != CE_None)
		exit(1);
	GDALSetGeoTransform(ds, gt);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	copy = GDALCreateCopy(out, path, ds, 0, NULL, NULL, NULL);
	if (!copy)
		exit(1);
	GDALClose(copy);
	GDALClose(ds);
	free(d);
}

/* The bowl as a Float64 GeoTIFF with the given pixel size; two corners
 * replaced when corner is not 0. */
static void
dem(const char *dir, const char *name, double pixel, double corner)
{
	GDALDriverH mem = GDALGetDriverByName("MEM");
	GDALDatasetH ds = GDALCreate(mem, "", 33, 33, 1, GDT_Float64, NULL), copy;
	double d[33 * 33], gt[6] = { 0, pixel, 0, 0, 0, -pixel };
	char path[4096];
	int i, j;

	for (j = 0; j < 33; j++)
		for (i = 0; i < 33; i++)
			d[j * 33 + i] = bowl(i, j, 33);
	if (corner != 0) {
		d[0] = -corner;
		d[33 * 33 - 1] = corner;
	}
	if (GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, 33, 33, d,
	    33, 33, GDT_Float64, 0, 0) != CE_None)
		exit(1);
	GDALSetGeoTransform(ds, gt);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	copy = GDALCreateCopy(GDALGetDriverByName("GTiff"), path, ds, 0, NULL,
	    NULL, NULL);
	if (!copy)
		exit(1);
	GDALClose(copy);
	GDALClose(ds);
}

/* A flat DEM of n x n samples in a file of a few kilobytes. */
static void
sparse(const char *dir, const char *name, int n)
{
	char path[4096], *opts[] = { "SPARSE_OK=TRUE", "TILED=YES", NULL };
	double gt[6] = { 0, 1, 0, 0, 0, -1 };
	GDALDatasetH ds;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ds = GDALCreate(GDALGetDriverByName("GTiff"), path, n, n, 1,
	    GDT_Float32, opts);
	if (!ds)
		exit(1);
	GDALSetGeoTransform(ds, gt);
	GDALClose(ds);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: geomgen DIR\n");
		return 2;
	}
	ascii_stl(argv[1], "cube.stl", cube_v, cube_t, 12);
	ascii_stl(argv[1], "tetra.stl", tet_v, tet_t, 4);
	binary_stl(argv[1]);
	obj(argv[1]);
	channel(argv[1]);
	collada(argv[1]);
	gltf(argv[1]);
	GDALAllRegister();
	raster(argv[1], "bowl.png", "PNG", 33, GDT_Byte, 127.5);
	raster(argv[1], "bowl.tif", "GTiff", 33, GDT_Float32, 100);
	raster(argv[1], "bad.png", "PNG", 30, GDT_Byte, 127.5);
	dem(argv[1], "nan_pixel.tif", NAN, 0);
	dem(argv[1], "huge_pixel.tif", 1e308, 0);
	dem(argv[1], "huge_elev.tif", 0.25, 1e308);
	sparse(argv[1], "sparse.tif", 2049);
	sparse(argv[1], "sparse4097.tif", 4097);
	return 0;
}
