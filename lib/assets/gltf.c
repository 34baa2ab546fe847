/*
 * gltf.c - glTF 2.0 meshes checked, counted and packed into one GLB; see
 * gltf.h.
 *
 * Every count the decoder would trust is checked against the bytes that
 * hold it: an accessor inside its view, a view inside its buffer, a
 * buffer no longer than the file or chunk it comes from. The node tree is
 * counted with every instance (a node may be shared), by memo, so that
 * sharing cannot make the count itself take long.
 */
#include "gltf.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base.h"

#define GLB_MAGIC 0x46546c67u	/* "glTF" */
#define GLB_JSON 0x4e4f534au	/* "JSON" */
#define GLB_BIN 0x004e4942u	/* "BIN\0" */

struct gltf {
	json_t *root;
	const unsigned char *bin;	/* a GLB's BIN chunk, or NULL */
	size_t binlen;
	size_t nbuffers, nviews, naccessors, nmeshes, nnodes;
	size_t *buffer_len;		/* bytes each buffer holds */
	size_t *accessor_count;
	size_t *mesh_triangles;
	size_t *node_triangles, *node_count;	/* subtree, every instance */
	unsigned char *node_state;	/* 0 new, 1 on the path, 2 counted */
};

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static size_t
align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static bool
is_glb(const char *data, size_t len)
{
	return len >= 12 && le32((const unsigned char *)data) == GLB_MAGIC;
}

bool
phys_gltf_recognised(const char *data, size_t len)
{
	size_t i = 0;

	if (is_glb(data, len))
		return true;
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && isspace((unsigned char)data[i]))
		i++;
	return i < len && data[i] == '{';
}

/* ---- the JSON and its arrays ---- */

/* The JSON of a .gltf, or of a GLB's first chunk, and its BIN chunk. */
static int
open_json(struct gltf *g, const char *data, size_t len)
{
	const unsigned char *d = (const unsigned char *)data;
	const char *json = data;
	size_t jlen = len, at, clen;
	json_error_t err;

	if (is_glb(data, len)) {
		if (le32(d + 4) != 2)
			return phys_fail("GLB version %u: phys reads glTF 2.0",
			    le32(d + 4));
		if (le32(d + 8) != len)
			return phys_fail("GLB: its header says %u bytes, the "
			    "file has %zu", le32(d + 8), len);
		if (len < 20 || le32(d + 16) != GLB_JSON ||
		    (clen = le32(d + 12)) > len - 20)
			return phys_fail("%s", "GLB: no JSON chunk first, or "
			    "one longer than the file");
		json = data + 20;
		jlen = clen;
		at = 20 + clen;
		if (len - at >= 8 && le32(d + at + 4) == GLB_BIN) {
			clen = le32(d + at);
			if (clen > len - at - 8)
				return phys_fail("%s", "GLB: a BIN chunk "
				    "longer than the file");
			g->bin = d + at + 8;
			g->binlen = clen;
		}
	} else if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		json += 3;	/* a byte-order mark */
		jlen -= 3;
	}
	g->root = json_loadb(json, jlen, JSON_REJECT_DUPLICATES, &err);
	if (!g->root)
		return phys_fail("glTF: JSON line %d: %s", err.line, err.text);
	if (!json_is_object(g->root))
		return phys_fail("%s", "glTF: the JSON is not an object");
	return 0;
}

/* o[key] as an array (absent: empty), its length in *n. */
static json_t *
array_of(json_t *o, const char *key, size_t *n)
{
	json_t *a = json_object_get(o, key);

	*n = 0;
	if (!a)
		return NULL;
	if (!json_is_array(a)) {
		phys_fail("glTF: \"%s\" is not an array", key);
		return NULL;
	}
	*n = json_array_size(a);
	return a;
}

/*
 * o[key], a whole number from lo to hi: 1 and *out, 0 when absent (*out
 * left), -1 when anything else. what names o for the message.
 */
static int
whole(json_t *o, const char *key, json_int_t lo, json_int_t hi,
    json_int_t *out, const char *what, size_t i)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi)
		return phys_fail("glTF: %s %zu: \"%s\" is not a whole number "
		    "from %lld to %lld", what, i, key, (long long)lo,
		    (long long)hi);
	*out = json_integer_value(v);
	return 1;
}

/* An element of array a that must be an object. */
static json_t *
element(json_t *a, size_t i, const char *what)
{
	json_t *o = json_array_get(a, i);

	if (!json_is_object(o))
		phys_fail("glTF: %s %zu is not an object", what, i);
	return json_is_object(o) ? o : NULL;
}

/* ---- checks and counts ---- */

static int
check_asset(struct gltf *g)
{
	json_t *a = json_object_get(g->root, "asset"), *e;
	const char *v = json_string_value(json_object_get(a, "version"));
	size_t i, n;

	if (!json_is_object(a) || !v)
		return phys_fail("%s", "glTF: no \"asset\" with its "
		    "\"version\"");
	if (strncmp(v, "2.", 2) != 0)
		return phys_fail("glTF %s: phys reads glTF 2.0", v);
	if (!(e = array_of(g->root, "extensionsRequired", &n)) && n)
		return -1;
	for (i = 0; i < n; i++) {
		v = json_string_value(json_array_get(e, i));
		/* those of materials and textures, left out, need nothing */
		if (!v || (strncmp(v, "KHR_materials_", 14) != 0 &&
		    strncmp(v, "KHR_texture_", 12) != 0))
			return phys_fail("glTF: it requires the extension "
			    "%s, which phys does not read", v ? v : "(none)");
	}
	return 0;
}

static int
check_buffers(struct gltf *g)
{
	json_t *a, *b;
	json_int_t n;
	size_t i, total = 0;

	if (!(a = array_of(g->root, "buffers", &g->nbuffers)) && g->nbuffers)
		return -1;
	g->buffer_len = phys_xcalloc(g->nbuffers + 1, sizeof *g->buffer_len);
	for (i = 0; i < g->nbuffers; i++) {
		if (!(b = element(a, i, "buffer")))
			return -1;
		switch (whole(b, "byteLength", 1,
		    (json_int_t)PHYS_MESH_MAX_BYTES, &n, "buffer", i)) {
		case -1:
			return -1;
		case 0:
			return phys_fail("glTF: buffer %zu has no "
			    "\"byteLength\"", i);
		}
		g->buffer_len[i] = (size_t)n;
		total = phys_size_add(total, align4((size_t)n));
		if (json_object_get(b, "uri") &&
		    !json_is_string(json_object_get(b, "uri")))
			return phys_fail("glTF: buffer %zu: \"uri\" is not "
			    "a string", i);
		if (!json_object_get(b, "uri") && (i > 0 || !g->bin ||
		    g->binlen < (size_t)n))
			return phys_fail("glTF: buffer %zu has no \"uri\" and "
			    "no GLB chunk of its %lld bytes", i, (long long)n);
	}
	if (total > PHYS_MESH_MAX_BYTES)
		return phys_fail("glTF: its buffers hold more than the %d MB "
		    "of a mesh file", PHYS_MESH_MAX_MB);
	return 0;
}

/* Each view inside its buffer: its end in view_end, its stride. */
static int
check_views(struct gltf *g, size_t **len, size_t **stride)
{
	json_t *a, *v;
	json_int_t b, off, n, s;
	size_t i;
	int has_b, has_n;

	if (!(a = array_of(g->root, "bufferViews", &g->nviews)) && g->nviews)
		return -1;
	*len = phys_xcalloc(g->nviews + 1, sizeof **len);
	*stride = phys_xcalloc(g->nviews + 1, sizeof **stride);
	for (i = 0; i < g->nviews; i++) {
		off = s = 0;
		if (!(v = element(a, i, "bufferView")) ||
		    (has_b = whole(v, "buffer", 0, (json_int_t)g->nbuffers -
		    1, &b, "bufferView", i)) < 0 ||
		    (has_n = whole(v, "byteLength", 1,
		    (json_int_t)PHYS_MESH_MAX_BYTES, &n, "bufferView", i)) < 0 ||
		    whole(v, "byteOffset", 0, (json_int_t)PHYS_MESH_MAX_BYTES,
		    &off, "bufferView", i) < 0 ||
		    /* 0, below the specification's 4, as packed: assimp's */
		    whole(v, "byteStride", 0, 252, &s, "bufferView", i) < 0)
			return -1;
		if (!has_b || !has_n)
			return phys_fail("glTF: bufferView %zu: no \"buffer\" "
			    "or \"byteLength\"", i);
		if ((size_t)off + (size_t)n > g->buffer_len[b])
			return phys_fail("glTF: bufferView %zu: bytes %lld to "
			    "%lld of buffer %lld, which holds %zu", i,
			    (long long)off, (long long)(off + n), (long long)b,
			    g->buffer_len[b]);
		(*len)[i] = (size_t)n;
		(*stride)[i] = (size_t)s;
	}
	return 0;
}

/* The bytes of one element of accessor o, or 0 for an unknown type. */
static size_t
element_size(json_t *o)
{
	static const struct { const char *name; size_t n; } types[] = {
		{ "SCALAR", 1 }, { "VEC2", 2 }, { "VEC3", 3 }, { "VEC4", 4 },
		{ "MAT2", 4 }, { "MAT3", 9 }, { "MAT4", 16 }
	};
	const char *t = json_string_value(json_object_get(o, "type"));
	json_int_t c = json_integer_value(json_object_get(o,
	    "componentType"));
	size_t i, bytes;

	switch (c) {
	case 5120: case 5121: bytes = 1; break;
	case 5122: case 5123: bytes = 2; break;
	case 5125: case 5126: bytes = 4; break;
	default: return 0;
	}
	for (i = 0; t && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(t, types[i].name) == 0)
			/* matrix columns start at multiples of 4 bytes */
			return t[0] == 'M' ?
			    types[i].n * align4(bytes * (t[3] - '0')) /
			    (size_t)(t[3] - '0') : types[i].n * bytes;
	return 0;
}

static int
check_accessors(struct gltf *g, const size_t *view_len,
    const size_t *view_stride)
{
	json_t *a, *o;
	json_int_t count, view, off;
	size_t i, elem, stride, end, total = 0;
	int has_count;

	if (!(a = array_of(g->root, "accessors", &g->naccessors)) &&
	    g->naccessors)
		return -1;
	g->accessor_count = phys_xcalloc(g->naccessors + 1,
	    sizeof *g->accessor_count);
	for (i = 0; i < g->naccessors; i++) {
		off = 0;
		if (!(o = element(a, i, "accessor")))
			return -1;
		if (json_object_get(o, "sparse"))
			return phys_fail("glTF: accessor %zu is sparse, which "
			    "phys does not read", i);
		if (!(elem = element_size(o)))
			return phys_fail("glTF: accessor %zu: no known "
			    "\"type\" and \"componentType\"", i);
		if ((has_count = whole(o, "count", 1,
		    (json_int_t)PHYS_MESH_MAX_BYTES, &count, "accessor",
		    i)) < 0 || whole(o, "byteOffset", 0,
		    (json_int_t)PHYS_MESH_MAX_BYTES, &off, "accessor", i) < 0)
			return -1;
		if (!has_count)
			return phys_fail("glTF: accessor %zu has no \"count\"",
			    i);
		g->accessor_count[i] = (size_t)count;
		total = phys_size_add(total, phys_size_mul((size_t)count, elem));
		switch (whole(o, "bufferView", 0, (json_int_t)g->nviews - 1,
		    &view, "accessor", i)) {
		case -1:
			return -1;
		case 0:
			continue;	/* zeros */
		}
		stride = view_stride[view] ? view_stride[view] : elem;
		end = phys_size_add(phys_size_add((size_t)off, phys_size_mul(stride,
		    (size_t)count - 1)), elem);
		if (end > view_len[view])
			return phys_fail("glTF: accessor %zu: %lld elements "
			    "of %zu bytes end at byte %zu of bufferView %lld, "
			    "which holds %zu", i, (long long)count, elem, end,
			    (long long)view, view_len[view]);
	}
	if (total > PHYS_MESH_MAX_BYTES)
		return phys_fail("glTF: its accessors hold more than the %d MB "
		    "of a mesh file", PHYS_MESH_MAX_MB);
	return 0;
}

/* The triangles of primitive p of mesh m (points and lines: none). */
static int
primitive_triangles(struct gltf *g, json_t *p, size_t m, size_t *out)
{
	json_t *attr = json_object_get(p, "attributes");
	json_int_t pos, idx, mode = 4, last = (json_int_t)g->naccessors - 1;
	size_t n;
	int has_idx;

	*out = 0;
	if (!json_is_object(p) || !json_is_object(attr))
		return phys_fail("glTF: mesh %zu: a primitive without "
		    "\"attributes\"", m);
	if (whole(p, "mode", 0, 6, &mode, "mesh", m) < 0 ||
	    (has_idx = whole(p, "indices", 0, last, &idx, "mesh", m)) < 0)
		return -1;
	switch (whole(attr, "POSITION", 0, last, &pos, "mesh", m)) {
	case -1:
		return -1;
	case 0:
		return 0;
	}
	n = g->accessor_count[has_idx ? idx : pos];
	if (mode == 4)
		*out = n / 3;
	else if (mode >= 5)
		*out = n >= 3 ? n - 2 : 0;
	return 0;
}

static int
count_meshes(struct gltf *g)
{
	json_t *a, *m, *prims;
	size_t i, j, np, t;

	if (!(a = array_of(g->root, "meshes", &g->nmeshes)) && g->nmeshes)
		return -1;
	g->mesh_triangles = phys_xcalloc(g->nmeshes + 1,
	    sizeof *g->mesh_triangles);
	for (i = 0; i < g->nmeshes; i++) {
		if (!(m = element(a, i, "mesh")))
			return -1;
		if (!(prims = array_of(m, "primitives", &np)))
			return phys_fail("glTF: mesh %zu has no "
			    "\"primitives\"", i);
		for (j = 0; j < np; j++) {
			if (primitive_triangles(g, json_array_get(prims, j),
			    i, &t) < 0)
				return -1;
			g->mesh_triangles[i] = phys_size_add(g->mesh_triangles[i],
			    t);
		}
	}
	return 0;
}

/* Node i's subtree, every instance counted, into the memo. */
static int
count_node(struct gltf *g, json_t *nodes, size_t i, int depth)
{
	json_t *n = json_array_get(nodes, i), *kids;
	json_int_t mesh, k;
	size_t j, nk, tri = 0, count = 1;

	if (g->node_state[i] == 2)
		return 0;
	if (g->node_state[i] == 1)
		return phys_fail("glTF: node %zu is its own ancestor", i);
	if (depth > PHYS_MESH_MAX_DEPTH)
		return phys_fail("glTF: nodes nested deeper than %d levels",
		    PHYS_MESH_MAX_DEPTH);
	if (!json_is_object(n))
		return phys_fail("glTF: node %zu is not an object", i);
	g->node_state[i] = 1;
	switch (whole(n, "mesh", 0, (json_int_t)g->nmeshes - 1, &mesh,
	    "node", i)) {
	case -1:
		return -1;
	case 1:
		tri = g->mesh_triangles[mesh];
	}
	if (!(kids = array_of(n, "children", &nk)) && nk)
		return -1;
	for (j = 0; j < nk; j++) {
		k = json_integer_value(json_array_get(kids, j));
		if (!json_is_integer(json_array_get(kids, j)) || k < 0 ||
		    (size_t)k >= g->nnodes)
			return phys_fail("glTF: node %zu: child %zu is not a "
			    "node", i, j);
		if (count_node(g, nodes, (size_t)k, depth + 1) < 0)
			return -1;
		tri = phys_size_add(tri, g->node_triangles[k]);
		count = phys_size_add(count, g->node_count[k]);
	}
	g->node_triangles[i] = tri;
	g->node_count[i] = count;
	g->node_state[i] = 2;
	return 0;
}

/* The nodes of every scene (with none, every node), every instance. */
static int
count_scenes(struct gltf *g, struct phys_mesh_scan *out)
{
	json_t *nodes, *scenes, *roots;
	size_t i, j, ns, nr, k;

	if (!(nodes = array_of(g->root, "nodes", &g->nnodes)) && g->nnodes)
		return -1;
	g->node_triangles = phys_xcalloc(g->nnodes + 1, sizeof(size_t));
	g->node_count = phys_xcalloc(g->nnodes + 1, sizeof(size_t));
	g->node_state = phys_xcalloc(g->nnodes + 1, 1);
	if (!(scenes = array_of(g->root, "scenes", &ns)) && ns)
		return -1;
	for (i = 0; i < (ns ? ns : g->nnodes); i++) {
		roots = ns ? json_object_get(json_array_get(scenes, i),
		    "nodes") : NULL;
		nr = ns ? json_array_size(roots) : 1;
		for (j = 0; j < nr; j++) {
			k = ns ? (size_t)json_integer_value(
			    json_array_get(roots, j)) : i;
			if (ns && (!json_is_integer(json_array_get(roots,
			    j)) || k >= g->nnodes))
				return phys_fail("glTF: scene %zu: root %zu "
				    "is not a node", i, j);
			if (count_node(g, nodes, k, 0) < 0)
				return -1;
			out->triangles = phys_size_add(out->triangles,
			    g->node_triangles[k]);
			out->nodes = phys_size_add(out->nodes, g->node_count[k]);
		}
	}
	if (out->nodes > PHYS_MESH_MAX_NODES)
		return phys_fail("glTF: more than %u nodes once instances are "
		    "counted", PHYS_MESH_MAX_NODES);
	return 0;
}

static void
gltf_free(struct gltf *g)
{
	json_decref(g->root);
	free(g->buffer_len);
	free(g->accessor_count);
	free(g->mesh_triangles);
	free(g->node_triangles);
	free(g->node_count);
	free(g->node_state);
}

/* Every check, and the counts; g holds the JSON after. */
static int
scan(struct gltf *g, const char *data, size_t len,
    struct phys_mesh_scan *out)
{
	size_t *view_len = NULL, *view_stride = NULL;
	int rc;

	memset(g, 0, sizeof *g);
	memset(out, 0, sizeof *out);
	out->format = PHYS_MESH_GLTF;
	rc = open_json(g, data, len);
	if (rc == 0)
		rc = check_asset(g);
	if (rc == 0)
		rc = check_buffers(g);
	if (rc == 0)
		rc = check_views(g, &view_len, &view_stride);
	if (rc == 0)
		rc = check_accessors(g, view_len, view_stride);
	free(view_len);
	free(view_stride);
	if (rc == 0)
		rc = count_meshes(g);
	if (rc == 0)
		rc = count_scenes(g, out);
	return rc;
}

int
phys_gltf_scan(const char *data, size_t len, struct phys_mesh_scan *out)
{
	struct gltf g;
	int rc = scan(&g, data, len, out);

	gltf_free(&g);
	return rc;
}

/* ---- packing ---- */

static int
base64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* The first n bytes a data: URI's base64 holds, into out. */
static int
data_uri(const char *uri, unsigned char *out, size_t n, size_t i)
{
	const char *s = strchr(uri, ',');
	size_t got = 0;
	unsigned acc = 0;
	int bits = 0, v;

	if (!s || s - uri < 7 || strncmp(s - 7, ";base64", 7) != 0)
		return phys_fail("glTF: buffer %zu: a data URI that is not "
		    "base64", i);
	for (s++; *s && *s != '=' && got < n; s++) {
		if ((v = base64_value((unsigned char)*s)) < 0)
			return phys_fail("glTF: buffer %zu: '%c' in its "
			    "base64", i, *s);
		acc = (acc << 6) | (unsigned)v;
		if ((bits += 6) >= 8) {
			bits -= 8;
			out[got++] = (unsigned char)(acc >> bits);
		}
	}
	if (got < n)
		return phys_fail("glTF: buffer %zu: its data URI holds %zu "
		    "bytes, not %zu", i, got, n);
	return 0;
}

/* A relative URI's path ("%20" a blank), from the directory of path. */
static char *
buffer_path(const char *uri, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *rel = phys_xmalloc(strlen(uri) + 1), *out;
	size_t i, n = 0;
	int hi, lo;

	for (i = 0; uri[i]; i++) {
		if (uri[i] == '%' && isxdigit((unsigned char)uri[i + 1]) &&
		    isxdigit((unsigned char)uri[i + 2])) {
			hi = isdigit((unsigned char)uri[i + 1]) ? uri[i + 1] -
			    '0' : (tolower((unsigned char)uri[i + 1]) - 'a' +
			    10);
			lo = isdigit((unsigned char)uri[i + 2]) ? uri[i + 2] -
			    '0' : (tolower((unsigned char)uri[i + 2]) - 'a' +
			    10);
			rel[n++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			rel[n++] = uri[i];
		}
	}
	rel[n] = '\0';
	if (rel[0] == '/' || !slash) {
		return rel;
	}
	out = phys_xasprintf("%.*s/%s", (int)(slash - path), path, rel);
	free(rel);
	return out;
}

/* The first n bytes of the file a buffer's URI names, into out. */
static int
file_buffer(const char *uri, const char *path, unsigned char *out,
    size_t n, size_t i)
{
	char *file, *why;
	struct stat st;
	ssize_t k;
	int fd;

	if (strstr(uri, "://"))
		return phys_fail("glTF: buffer %zu: '%s' is not a file "
		    "beside the mesh", i, uri);
	file = buffer_path(uri, path);
	fd = phys_open_regular(file);
	if (fd < 0) {
		why = phys_xstrdup(phys_error());	/* names the file */
		phys_fail("glTF: buffer %zu: %s", i, why);
		free(why);
		free(file);
		return -1;
	}
	if (fstat(fd, &st) < 0 || (uintmax_t)st.st_size < n) {
		close(fd);
		k = phys_fail("glTF: buffer %zu: %s holds fewer than the "
		    "%zu bytes its byteLength says", i, file, n);
		free(file);
		return (int)k;
	}
	k = phys_read_full(fd, out, n);
	close(fd);
	if (k < 0 || (size_t)k < n) {
		k = phys_fail("glTF: buffer %zu: %s: %s", i, file, k < 0 ?
		    strerror(errno) : "shorter than it was");
		free(file);
		return (int)k;
	}
	free(file);
	return 0;
}

/* Every buffer of a, the file's "buffers", into bin, each at its base. */
static int
read_buffers(struct gltf *g, json_t *a, const char *path, unsigned char *bin,
    const size_t *base)
{
	const char *uri;
	size_t i;

	for (i = 0; i < g->nbuffers; i++) {
		uri = json_string_value(json_object_get(json_array_get(a, i),
		    "uri"));
		if (!uri)
			memcpy(bin + base[i], g->bin, g->buffer_len[i]);
		else if (strncmp(uri, "data:", 5) == 0) {
			if (data_uri(uri, bin + base[i], g->buffer_len[i],
			    i) < 0)
				return -1;
		} else if (file_buffer(uri, path, bin + base[i],
		    g->buffer_len[i], i) < 0)
			return -1;
	}
	return 0;
}

/* The JSON as the packed file has it: one buffer, no other file named,
 * nothing a collision does not use. */
static void
edit_json(struct gltf *g, const size_t *base, size_t total)
{
	static const char *const dropped[] = { "images", "textures",
		"samplers", "materials", "animations", "skins",
		"extensionsUsed", "extensionsRequired", NULL };
	json_t *a, *o, *p, *prims;
	json_int_t b, off;
	size_t i, j, n;

	for (i = 0; dropped[i]; i++)
		json_object_del(g->root, dropped[i]);
	a = json_object_get(g->root, "bufferViews");
	for (i = 0; i < g->nviews; i++) {
		o = json_array_get(a, i);
		b = json_integer_value(json_object_get(o, "buffer"));
		off = json_integer_value(json_object_get(o, "byteOffset"));
		json_object_set_new(o, "buffer", json_integer(0));
		json_object_set_new(o, "byteOffset",
		    json_integer((json_int_t)base[b] + off));
	}
	a = json_object_get(g->root, "meshes");
	for (i = 0; i < g->nmeshes; i++) {
		prims = json_object_get(json_array_get(a, i), "primitives");
		n = json_array_size(prims);
		for (j = 0; j < n; j++) {
			p = json_array_get(prims, j);
			json_object_del(p, "material");
			json_object_del(p, "extensions");
		}
	}
	a = json_object_get(g->root, "nodes");
	for (i = 0; i < g->nnodes; i++)
		json_object_del(json_array_get(a, i), "skin");
	a = json_array();
	if (total) {
		o = json_object();
		json_object_set_new(o, "byteLength",
		    json_integer((json_int_t)total));
		json_array_append_new(a, o);
	}
	json_object_set_new(g->root, "buffers", a);
}

/* A GLB of json and a BIN chunk of total bytes, left for the caller to
 * fill (at *bin): the header and the JSON chunk written. */
static char *
glb(const char *json, size_t total, unsigned char **bin, size_t *outlen)
{
	size_t jl = strlen(json), jp = align4(jl);
	size_t len = 12 + 8 + jp + (total ? 8 + total : 0);
	unsigned char *o = phys_xcalloc(len, 1);

	put32(o, GLB_MAGIC);
	put32(o + 4, 2);
	put32(o + 8, (uint32_t)len);
	put32(o + 12, (uint32_t)jp);
	put32(o + 16, GLB_JSON);
	memcpy(o + 20, json, jl);
	memset(o + 20 + jl, ' ', jp - jl);
	if (total) {
		put32(o + 20 + jp, (uint32_t)total);
		put32(o + 24 + jp, GLB_BIN);
	}
	*bin = o + 28 + jp;
	*outlen = len;
	return (char *)o;
}

char *
phys_gltf_pack(const char *data, size_t len, const char *path,
    size_t *outlen)
{
	struct phys_mesh_scan counts;
	struct gltf g;
	json_t *buffers = NULL;
	unsigned char *bin;
	size_t *base = NULL, total = 0, i;
	char *json, *out = NULL;

	if (scan(&g, data, len, &counts) < 0)
		goto done;
	base = phys_xcalloc(g.nbuffers + 1, sizeof *base);
	for (i = 0; i < g.nbuffers; i++) {
		base[i] = total;
		total += align4(g.buffer_len[i]);
	}
	/* the JSON first: its edit needs only the buffers' places, so
	 * that the buffers are read once, into the packed file itself */
	buffers = json_incref(json_object_get(g.root, "buffers"));
	edit_json(&g, base, total);
	json = json_dumps(g.root, JSON_COMPACT);
	if (!json) {
		phys_fail("%s", "glTF: out of memory");
		goto done;
	}
	out = glb(json, total, &bin, outlen);
	free(json);
	if (read_buffers(&g, buffers, path, bin, base) < 0) {
		free(out);
		out = NULL;
	}
done:
	json_decref(buffers);
	free(base);
	gltf_free(&g);
	return out;
}
