/*
 * meshscan.c - mesh files recognised by content and counted before they
 * are decoded; see meshscan.h.
 *
 * The counts are upper bounds of what assimp builds: STL and OBJ by their
 * faces; Collada by a streaming pass over the XML (no tree is built, so
 * the pass itself costs little memory) that follows every instance the
 * visual scene makes, finds cycles, and checks each count attribute
 * against the values the file really holds.
 */
#include "meshscan.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "base.h"

const char *
phys_mesh_format_name(enum phys_mesh_format f)
{
	switch (f) {
	case PHYS_MESH_COLLADA:
		return "Collada";
	case PHYS_MESH_STL:
		return "STL";
	case PHYS_MESH_OBJ:
		return "OBJ";
	case PHYS_MESH_GLTF:
		return "glTF";
	default:
		return "unknown";
	}
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	    c == '\v';
}

/* Where the text starts: past a UTF-8 byte order mark and blanks. */
static size_t
text_start(const char *d, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(d, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && is_blank(d[i]))
		i++;
	return i;
}

static int
too_many_triangles(size_t n)
{
	if (n == SIZE_MAX)
		return phys_fail("more than %u triangles (the limit of one "
		    "mesh)", PHYS_MESH_MAX_TRIANGLES);
	return phys_fail("%zu triangles, more than the %u of one mesh", n,
	    PHYS_MESH_MAX_TRIANGLES);
}

/* ---- STL ---- */

/* As assimp decides: a binary file is 84 bytes and 50 per triangle
 * exactly, whatever its header says (some start with "solid"). */
static bool
binary_stl(const char *d, size_t len, size_t *ntri)
{
	const unsigned char *u = (const unsigned char *)d;
	uint32_t n;

	if (len < 84)
		return false;
	n = (uint32_t)u[80] | (uint32_t)u[81] << 8 | (uint32_t)u[82] << 16 |
	    (uint32_t)u[83] << 24;
	*ntri = n;
	return (len - 84) % 50 == 0 && (len - 84) / 50 == n;
}

static bool
word_at(const char *d, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return i + n <= len && memcmp(d + i, w, n) == 0 &&
	    (i + n == len || is_blank(d[i + n]));
}

/* Triangles of an ASCII STL file: its facets, or its vertices by three
 * when a facet has more. */
static size_t
ascii_stl_triangles(const char *d, size_t len)
{
	size_t i = 0, facets = 0, vertices = 0;

	while (i < len) {
		while (i < len && is_blank(d[i]))
			i++;
		if (word_at(d, len, i, "facet"))
			facets++;
		else if (word_at(d, len, i, "vertex"))
			vertices++;
		while (i < len && !is_blank(d[i]))
			i++;
	}
	return facets > vertices / 3 ? facets : vertices / 3;
}

/* ---- OBJ ---- */

static const char *const obj_keywords[] = { "v", "vt", "vn", "vp", "f", "l",
	"p", "o", "g", "s", "mtllib", "usemtl" };

/* The first word of the line at i, and where the line ends. */
static size_t
line_word(const char *d, size_t len, size_t i, size_t *wlen, size_t *end)
{
	size_t w;

	while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r'))
		i++;
	w = i;
	while (i < len && !is_blank(d[i]))
		i++;
	*wlen = i - w;
	while (i < len && d[i] != '\n')
		i++;
	*end = i;
	return w;
}

/* Does the first line that is neither blank nor a comment start as a
 * Wavefront OBJ line does? */
static bool
obj_like(const char *d, size_t len)
{
	size_t i = text_start(d, len), w, wl, end, k;

	while (i < len) {
		w = line_word(d, len, i, &wl, &end);
		if (wl > 0 && d[w] != '#') {
			for (k = 0; k < sizeof obj_keywords /
			    sizeof *obj_keywords; k++)
				if (strlen(obj_keywords[k]) == wl &&
				    memcmp(d + w, obj_keywords[k], wl) == 0)
					return true;
			return false;
		}
		i = end + 1;
	}
	return false;
}

/* A face of k corners is k - 2 triangles. */
static size_t
obj_triangles(const char *d, size_t len)
{
	size_t i = 0, w, wl, end, tris = 0, k, j;

	while (i < len) {
		w = line_word(d, len, i, &wl, &end);
		if (wl == 1 && d[w] == 'f') {
			for (k = 0, j = w + 1; j < end; k++) {
				while (j < end && is_blank(d[j]))
					j++;
				if (j == end)
					break;
				while (j < end && !is_blank(d[j]))
					j++;
			}
			if (k >= 3)
				tris = phys_size_add(tris, k - 2);
		}
		i = end + 1;
	}
	return tris;
}

void
phys_mesh_confine(char *data, size_t len, enum phys_mesh_format f)
{
	size_t i = 0, w, wl, end;

	if (f != PHYS_MESH_OBJ)
		return;
	while (i < len) {
		w = line_word(data, len, i, &wl, &end);
		if (wl == 6 && memcmp(data + w, "mtllib", 6) == 0)
			data[w] = '#';
		i = end + 1;
	}
}

size_t
phys_mesh_first_object(char *data, size_t len, enum phys_mesh_format f)
{
	size_t i = 0, w, wl, end, objects = 0;
	bool faces = false, cut = false, counted = false;

	if (f != PHYS_MESH_OBJ)
		return 0;
	for (; i < len; i = end + 1) {
		w = line_word(data, len, i, &wl, &end);
		if (wl == 1 && (data[w] == 'o' || data[w] == 'g')) {
			cut = cut || faces;	/* an object after faces */
			counted = false;
		} else if (wl == 1 && data[w] == 'f' && !cut) {
			faces = true;
		} else if (wl == 1 && data[w] == 'f') {
			data[w] = '#';
			objects += !counted;
			counted = true;
		}
	}
	return objects;
}

/* ---- Collada ---- */

enum { NONE = UINT32_MAX };

enum kind {
	K_NODE, K_SCENE, K_GEOMETRY, K_CONTROLLER, K_ARRAY, K_NODE_NAME
};

struct object {
	size_t id, name;	/* offsets into the string pool; 0: none */
	uint32_t parent;	/* the object it is written in, or NONE */
	enum kind kind;
	size_t tris;		/* of its own primitives */
	size_t count;		/* an array's count */
	long line;
};

struct ref {
	uint32_t from;
	enum kind to;
	size_t target;		/* string offset, the id without '#' */
	long line;
};

struct accessor {
	size_t source, count, stride, offset, params;
	long line;
};

enum prim { P_NONE, P_TRIANGLES, P_POLYGONS, P_LINES };

struct collada {
	xmlParserCtxtPtr ctxt;
	struct phys_buf pool;	/* NUL-separated strings; offset 0 is "" */
	struct object *obj;
	size_t nobj, capobj;
	struct ref *ref;
	size_t nref, capref;
	struct accessor *acc;
	size_t nacc, capacc;
	uint32_t *open;		/* the objects being read, innermost last */
	size_t nopen, capopen;
	size_t scene;		/* <instance_visual_scene> target, or 0 */
	size_t depth, nodes_open, nodes;
	/* the primitive element being read */
	enum prim prim;
	size_t prim_count, prim_offset, prim_tokens;
	bool prim_has_count;
	long prim_line;
	bool in_accessor;
	/* text being counted: of <p> or of an array */
	enum { T_NONE, T_P, T_ARRAY } text;
	bool in_token;
	size_t tokens;
	uint32_t array;
	int failed;
	/* the hash table of ids and node names */
	uint32_t *table;
	size_t tsize;
};

static void
stop(struct collada *c)
{
	c->failed = 1;
	xmlStopParser(c->ctxt);
}

static long
cline(struct collada *c)
{
	return c->ctxt->input ? c->ctxt->input->line : 0;
}

static void
cfail(struct collada *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
cfail(struct collada *c, const char *fmt, ...)
{
	char m[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	phys_fail("Collada line %ld: %s", cline(c), m);
	stop(c);
}

static size_t
keep_string(struct collada *c, const char *s, size_t n)
{
	size_t at = c->pool.len;

	phys_buf_putn(&c->pool, s, n);
	phys_buf_putc(&c->pool, '\0');
	return at;
}

static const char *
str(const struct collada *c, size_t off)
{
	return c->pool.s + off;
}

/* An attribute's value (libxml2 gives start and end), or NULL. */
static const xmlChar *
attr(int nattrs, const xmlChar **attrs, const char *name, size_t *n)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (strcmp((const char *)attrs[5 * i], name) == 0) {
			*n = (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]);
			return attrs[5 * i + 3];
		}
	return NULL;
}

/* A count attribute: digits only. -1 if absent, -2 if not a count. */
static int
count_attr(int nattrs, const xmlChar **attrs, const char *name, size_t *out)
{
	size_t n, i;
	const xmlChar *v = attr(nattrs, attrs, name, &n);

	if (!v)
		return -1;
	*out = 0;
	for (i = 0; i < n && is_blank((char)v[i]); i++)
		;
	if (i == n)
		return -2;
	for (; i < n && isdigit(v[i]); i++)
		*out = phys_size_add(phys_size_mul(*out, 10), (size_t)(v[i] - '0'));
	for (; i < n && is_blank((char)v[i]); i++)
		;
	return i == n ? 0 : -2;
}

/* The count named, or a failure quoting what was written: 0, -1 when
 * absent (and not required), -2 after a failure. */
static int
need_count(struct collada *c, const char *elem, int nattrs,
    const xmlChar **attrs, const char *name, size_t *out, bool required)
{
	int rc = count_attr(nattrs, attrs, name, out);
	const xmlChar *v;
	size_t n;

	if (rc == 0 || (rc == -1 && !required))
		return rc;
	if (rc == -1) {
		cfail(c, "<%s> has no %s", elem, name);
		return -2;
	}
	v = attr(nattrs, attrs, name, &n);
	cfail(c, "<%s> %s=\"%.*s\" is not a count", elem, name,
	    (int)(n > 40 ? 40 : n), (const char *)v);
	return -2;
}

static uint32_t
add_object(struct collada *c, enum kind k, int nattrs, const xmlChar **attrs)
{
	struct object *o;
	const xmlChar *v;
	size_t n;

	if (c->nobj >= PHYS_MESH_MAX_OBJECTS) {
		cfail(c, "more than %u elements with an id",
		    PHYS_MESH_MAX_OBJECTS);
		return NONE;
	}
	if (c->nobj == c->capobj) {
		c->capobj = c->capobj ? 2 * c->capobj : 64;
		c->obj = phys_xrealloc(c->obj, c->capobj * sizeof *c->obj);
	}
	o = &c->obj[c->nobj];
	memset(o, 0, sizeof *o);
	o->kind = k;
	o->parent = c->nopen ? c->open[c->nopen - 1] : NONE;
	o->line = cline(c);
	if ((v = attr(nattrs, attrs, "id", &n)) && n > 0)
		o->id = keep_string(c, (const char *)v, n);
	if ((v = attr(nattrs, attrs, "name", &n)) && n > 0)
		o->name = keep_string(c, (const char *)v, n);
	return (uint32_t)c->nobj++;
}

static void
push_open(struct collada *c, uint32_t o)
{
	if (c->nopen == c->capopen) {
		c->capopen = c->capopen ? 2 * c->capopen : 64;
		c->open = phys_xrealloc(c->open, c->capopen * sizeof *c->open);
	}
	c->open[c->nopen++] = o;
}

/* A reference "#id" from the innermost object; other documents' ids
 * ("file.dae#id") are not followed by the decoder and not counted. */
static void
add_ref(struct collada *c, enum kind to, int nattrs, const xmlChar **attrs,
    const char *name)
{
	const xmlChar *v;
	size_t n;

	v = attr(nattrs, attrs, name, &n);
	if (!v || n < 2 || v[0] != '#' || c->nopen == 0)
		return;
	if (c->nref == c->capref) {
		c->capref = c->capref ? 2 * c->capref : 64;
		c->ref = phys_xrealloc(c->ref, c->capref * sizeof *c->ref);
	}
	c->ref[c->nref].from = c->open[c->nopen - 1];
	c->ref[c->nref].to = to;
	c->ref[c->nref].target = keep_string(c, (const char *)v + 1, n - 1);
	c->ref[c->nref].line = cline(c);
	c->nref++;
}

static bool
is(const xmlChar *name, const char *s)
{
	return strcmp((const char *)name, s) == 0;
}

static bool
is_array(const xmlChar *name)
{
	size_t n = strlen((const char *)name);

	return n > 6 && strcmp((const char *)name + n - 6, "_array") == 0;
}

static void
start_text(struct collada *c, int what)
{
	c->text = what;
	c->in_token = false;
	c->tokens = 0;
}

static void
start_primitive(struct collada *c, const xmlChar *name, int nattrs,
    const xmlChar **attrs)
{
	c->prim = is(name, "triangles") ? P_TRIANGLES : is(name, "lines") ||
	    is(name, "linestrips") ? P_LINES : P_POLYGONS;
	c->prim_offset = 0;
	c->prim_tokens = 0;
	c->prim_line = cline(c);
	c->prim_has_count = need_count(c, (const char *)name, nattrs, attrs,
	    "count", &c->prim_count, false) == 0;
}

static void
start_array(struct collada *c, const xmlChar *name, int nattrs,
    const xmlChar **attrs)
{
	size_t count;

	if (need_count(c, (const char *)name, nattrs, attrs, "count", &count,
	    true) < 0)
		return;
	c->array = add_object(c, K_ARRAY, nattrs, attrs);
	if (c->array == NONE)
		return;
	c->obj[c->array].count = count;
	start_text(c, T_ARRAY);
}

static void
start_accessor(struct collada *c, int nattrs, const xmlChar **attrs)
{
	struct accessor a = { 0, 0, 1, 0, 0, 0 };
	const xmlChar *v;
	size_t n;

	if (need_count(c, "accessor", nattrs, attrs, "count", &a.count,
	    false) == -2 ||
	    need_count(c, "accessor", nattrs, attrs, "stride", &a.stride,
	    false) == -2 ||
	    need_count(c, "accessor", nattrs, attrs, "offset", &a.offset,
	    false) == -2)
		return;
	v = attr(nattrs, attrs, "source", &n);
	if (v && n > 1 && v[0] == '#')
		a.source = keep_string(c, (const char *)v + 1, n - 1);
	a.line = cline(c);
	if (c->nacc == c->capacc) {
		c->capacc = c->capacc ? 2 * c->capacc : 64;
		c->acc = phys_xrealloc(c->acc, c->capacc * sizeof *c->acc);
	}
	c->acc[c->nacc++] = a;
	c->in_accessor = true;
}

static void
on_start(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs,
    int ndefaulted, const xmlChar **attrs)
{
	struct collada *c = ((xmlParserCtxtPtr)ctx)->_private;
	size_t off;
	uint32_t o;

	if (c->failed)
		return;
	if (c->depth++ == 0 && !is(name, "COLLADA")) {
		cfail(c, "not a Collada file: the root element is <%.40s>",
		    (const char *)name);
		return;
	}
	if (is(name, "node")) {
		if (++c->nodes_open > PHYS_MESH_MAX_DEPTH) {
			cfail(c, "nodes nested deeper than %d levels",
			    PHYS_MESH_MAX_DEPTH);
			return;
		}
		if (++c->nodes > PHYS_MESH_MAX_NODES) {
			cfail(c, "more than %u nodes", PHYS_MESH_MAX_NODES);
			return;
		}
	}
	if (is(name, "node") || is(name, "visual_scene") ||
	    is(name, "geometry") || is(name, "controller")) {
		o = add_object(c, is(name, "node") ? K_NODE :
		    is(name, "visual_scene") ? K_SCENE : is(name, "geometry") ?
		    K_GEOMETRY : K_CONTROLLER, nattrs, attrs);
		if (o != NONE)
			push_open(c, o);
	} else if (is(name, "instance_node"))
		add_ref(c, K_NODE, nattrs, attrs, "url");
	else if (is(name, "instance_geometry"))
		add_ref(c, K_GEOMETRY, nattrs, attrs, "url");
	else if (is(name, "instance_controller"))
		add_ref(c, K_CONTROLLER, nattrs, attrs, "url");
	else if (is(name, "skin") || is(name, "morph"))
		add_ref(c, K_GEOMETRY, nattrs, attrs, "source");
	else if (is(name, "instance_visual_scene")) {
		const xmlChar *v = attr(nattrs, attrs, "url", &off);

		if (v && off > 1 && v[0] == '#')
			c->scene = keep_string(c, (const char *)v + 1, off - 1);
	} else if (is(name, "triangles") || is(name, "polylist") ||
	    is(name, "polygons") || is(name, "tristrips") ||
	    is(name, "trifans") || is(name, "lines") || is(name, "linestrips"))
		start_primitive(c, name, nattrs, attrs);
	else if (is(name, "input") && c->prim != P_NONE) {
		size_t k;

		if (need_count(c, "input", nattrs, attrs, "offset", &k,
		    false) == 0 && k > c->prim_offset)
			c->prim_offset = k;
	} else if (is(name, "p") && c->prim != P_NONE)
		start_text(c, T_P);
	else if (is_array(name))
		start_array(c, name, nattrs, attrs);
	else if (is(name, "accessor"))
		start_accessor(c, nattrs, attrs);
	else if (is(name, "param") && c->in_accessor)
		c->acc[c->nacc - 1].params++;
}

/* Values are separated by blanks; a value may be cut between calls. */
static void
on_text(void *ctx, const xmlChar *ch, int len)
{
	struct collada *c = ((xmlParserCtxtPtr)ctx)->_private;
	int i;

	if (c->text == T_NONE || c->failed)
		return;
	for (i = 0; i < len; i++) {
		bool blank = is_blank((char)ch[i]);

		if (!blank && !c->in_token)
			c->tokens++;
		c->in_token = !blank;
	}
}

static void
end_primitive(struct collada *c, struct object *geom)
{
	size_t stride = phys_size_add(c->prim_offset, 1), vertices, tris;

	if (c->prim_has_count && c->prim_count > c->prim_tokens) {
		cfail(c, "a primitive's count %zu is more than the %zu indices "
		    "it holds", c->prim_count, c->prim_tokens);
		return;
	}
	if (c->prim_tokens > 0 && c->prim_offset >= c->prim_tokens) {
		cfail(c, "an <input> offset %zu is past the primitive's %zu "
		    "indices", c->prim_offset, c->prim_tokens);
		return;
	}
	vertices = c->prim_tokens / stride;
	tris = c->prim == P_TRIANGLES ? vertices / 3 :
	    c->prim == P_POLYGONS ? vertices : 0;
	if (geom)
		geom->tris = phys_size_add(geom->tris, tris);
	c->prim = P_NONE;
}

static void
end_array(struct collada *c)
{
	const struct object *a = &c->obj[c->array];

	if (a->count > c->tokens)
		cfail(c, "an array's count %zu is more than the %zu values it "
		    "holds", a->count, c->tokens);
	c->text = T_NONE;
}

static void
on_end(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct collada *c = ((xmlParserCtxtPtr)ctx)->_private;
	struct object *top;

	if (c->failed)
		return;
	c->depth--;
	top = c->nopen ? &c->obj[c->open[c->nopen - 1]] : NULL;
	if (is(name, "node"))
		c->nodes_open--;
	if (is(name, "node") || is(name, "visual_scene") ||
	    is(name, "geometry") || is(name, "controller")) {
		if (c->nopen > 0)
			c->nopen--;
	} else if (is(name, "p") && c->text == T_P) {
		c->prim_tokens = phys_size_add(c->prim_tokens, c->tokens);
		c->text = T_NONE;
	} else if (c->prim != P_NONE && (is(name, "triangles") ||
	    is(name, "polylist") || is(name, "polygons") ||
	    is(name, "tristrips") || is(name, "trifans") ||
	    is(name, "lines") || is(name, "linestrips")))
		end_primitive(c, top);
	else if (is_array(name) && c->text == T_ARRAY)
		end_array(c);
	else if (is(name, "accessor"))
		c->in_accessor = false;
}

/* A DTD could declare entities that expand without bound: Collada files
 * have none, and one is refused before its declarations are read. */
static void
on_dtd(void *ctx, const xmlChar *name, const xmlChar *ext,
    const xmlChar *sys)
{
	struct collada *c = ((xmlParserCtxtPtr)ctx)->_private;

	cfail(c, "%s", "a DTD (<!DOCTYPE>) is not allowed");
}

static void
on_error(void *ctx, xmlErrorPtr e)
{
	struct collada *c = ((xmlParserCtxtPtr)ctx)->_private;
	char *m;
	size_t n;

	if (c->failed || !e || e->level < XML_ERR_ERROR)
		return;
	m = phys_xstrdup(e->message ? e->message : "not well-formed");
	n = strcspn(m, "\n");
	m[n] = '\0';
	while (n > 0 && is_blank(m[n - 1]))
		m[--n] = '\0';
	phys_fail("Collada line %d: not well-formed XML: %s", e->line, m);
	free(m);
	stop(c);
}

/* ---- ids, references and the instanced scene ---- */

static size_t
hash(enum kind k, const char *s)
{
	size_t h = 14695981039346656037u ^ (size_t)k;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static const char *
key_of(const struct collada *c, uint32_t i, enum kind k)
{
	return str(c, k == K_NODE_NAME ? c->obj[i].name : c->obj[i].id);
}

static enum kind
kind_of(const struct collada *c, uint32_t i, enum kind k)
{
	return k == K_NODE_NAME ? K_NODE_NAME : c->obj[i].kind;
}

/* The table holds each object once by id and each node once more by
 * name: slot values are index * 2 + (1 for the name). */
static uint32_t
lookup(const struct collada *c, enum kind k, const char *s)
{
	size_t h = hash(k, s) & (c->tsize - 1);
	uint32_t v, i;
	enum kind vk;

	while ((v = c->table[h]) != NONE) {
		i = v / 2;
		vk = v % 2 ? K_NODE_NAME : c->obj[i].kind;
		if (vk == k && strcmp(key_of(c, i, vk), s) == 0)
			return i;
		h = (h + 1) & (c->tsize - 1);
	}
	return NONE;
}

static void
insert(struct collada *c, uint32_t i, enum kind k)
{
	const char *s = key_of(c, i, k);
	size_t h;

	if (!*s || lookup(c, kind_of(c, i, k), s) != NONE)
		return;		/* the first of equal ids wins */
	h = hash(kind_of(c, i, k), s) & (c->tsize - 1);
	while (c->table[h] != NONE)
		h = (h + 1) & (c->tsize - 1);
	c->table[h] = 2 * i + (k == K_NODE_NAME);
}

static void
build_table(struct collada *c)
{
	size_t i;

	for (c->tsize = 64; c->tsize < 4 * c->nobj; c->tsize *= 2)
		;
	c->table = phys_xmalloc(c->tsize * sizeof *c->table);
	memset(c->table, 0xff, c->tsize * sizeof *c->table);
	for (i = 0; i < c->nobj; i++) {
		insert(c, (uint32_t)i, c->obj[i].kind);
		if (c->obj[i].kind == K_NODE)
			insert(c, (uint32_t)i, K_NODE_NAME);
	}
}

/* As assimp resolves an instance: by id, and a node also by its name. */
static uint32_t
resolve(const struct collada *c, enum kind k, const char *s)
{
	uint32_t i = lookup(c, k, s);

	if (i == NONE && k == K_NODE)
		i = lookup(c, K_NODE_NAME, s);
	return i;
}

static int
check_accessors(struct collada *c)
{
	size_t i, need;
	uint32_t a;

	for (i = 0; i < c->nacc; i++) {
		const struct accessor *x = &c->acc[i];

		if (x->count == 0 || !x->source)
			continue;
		a = lookup(c, K_ARRAY, str(c, x->source));
		if (a == NONE)
			continue;
		need = phys_size_add(phys_size_add(x->offset, phys_size_mul(x->count - 1,
		    x->stride)), x->params ? x->params : 1);
		if (need > c->obj[a].count)
			return phys_fail("Collada line %ld: an <accessor> reads "
			    "%zu values of an array of %zu", x->line, need,
			    c->obj[a].count);
	}
	return 0;
}

/* What an object builds, its instances included. */
struct value {
	size_t tris, nodes, depth;
};

/*
 * The edges: from each object to the objects written in it and to those
 * it instances, sorted by origin: object i's run from to[first[i]] to
 * to[first[i + 1]].
 */
static void
edges(const struct collada *c, size_t **firstp, uint32_t **top)
{
	size_t i, n = 0, *first, *at;
	uint32_t t, *to;

	first = phys_xcalloc(c->nobj + 1, sizeof *first);
	for (i = 0; i < c->nobj; i++)
		if (c->obj[i].parent != NONE)
			first[c->obj[i].parent + 1]++, n++;
	for (i = 0; i < c->nref; i++)
		if (resolve(c, c->ref[i].to, str(c, c->ref[i].target)) != NONE)
			first[c->ref[i].from + 1]++, n++;
	for (i = 1; i <= c->nobj; i++)
		first[i] += first[i - 1];
	to = phys_xmalloc((n + 1) * sizeof *to);
	at = phys_xmalloc((c->nobj + 1) * sizeof *at);
	memcpy(at, first, (c->nobj + 1) * sizeof *at);
	for (i = 0; i < c->nobj; i++)
		if (c->obj[i].parent != NONE)
			to[at[c->obj[i].parent]++] = (uint32_t)i;
	for (i = 0; i < c->nref; i++)
		if ((t = resolve(c, c->ref[i].to, str(c, c->ref[i].target))) !=
		    NONE)
			to[at[c->ref[i].from]++] = t;
	free(at);
	*firstp = first;
	*top = to;
}

static int
cycle(const struct collada *c, uint32_t i)
{
	const struct object *o = &c->obj[i];

	return phys_fail("Collada line %ld: node '%s' contains itself "
	    "(through <instance_node>): its instances never end", o->line,
	    o->name ? str(c, o->name) : str(c, o->id));
}

/* Depth first from root without recursion (instances may chain deep);
 * state: 0 not seen, 1 on the path, 2 done. */
static int
evaluate(const struct collada *c, uint32_t root, const size_t *first,
    const uint32_t *to, unsigned char *state, struct value *val)
{
	uint32_t *stack = phys_xmalloc((c->nobj + 1) * sizeof *stack);
	size_t *next = phys_xmalloc((c->nobj + 1) * sizeof *next), n = 0;
	int rc = 0;

	if (state[root] == 2)
		goto out;
	stack[n++] = root;
	state[root] = 1;
	next[root] = first[root];
	while (n > 0 && rc == 0) {
		uint32_t v = stack[n - 1], t;

		if (next[v] < first[v + 1]) {
			t = to[next[v]++];
			if (state[t] == 1)
				rc = cycle(c, t);
			else if (state[t] == 0) {
				state[t] = 1;
				next[t] = first[t];
				stack[n++] = t;
			}
			continue;
		}
		val[v].tris = c->obj[v].tris;
		val[v].nodes = c->obj[v].kind == K_NODE;
		val[v].depth = 0;
		for (t = 0; first[v] + t < first[v + 1]; t++) {
			const struct value *w = &val[to[first[v] + t]];

			val[v].tris = phys_size_add(val[v].tris, w->tris);
			val[v].nodes = phys_size_add(val[v].nodes, w->nodes);
			if (w->depth > val[v].depth)
				val[v].depth = w->depth;
		}
		val[v].depth += c->obj[v].kind == K_NODE;
		state[v] = 2;
		n--;
	}
out:
	free(stack);
	free(next);
	return rc;
}

/* The scene the file instantiates, or every visual scene when it names
 * none that exists. */
static int
scene_value(struct collada *c, struct phys_mesh_scan *out)
{
	unsigned char *state = phys_xcalloc(c->nobj + 1, 1);
	struct value *val = phys_xcalloc(c->nobj + 1, sizeof *val);
	uint32_t *to, s = NONE;
	size_t *first, i, depth = 0;
	int rc = 0;

	edges(c, &first, &to);
	if (c->scene)
		s = lookup(c, K_SCENE, str(c, c->scene));
	for (i = 0; i < c->nobj && rc == 0; i++) {
		if (c->obj[i].kind != K_SCENE || (s != NONE && i != s))
			continue;
		rc = evaluate(c, (uint32_t)i, first, to, state, val);
		out->triangles = phys_size_add(out->triangles, val[i].tris);
		out->nodes = phys_size_add(out->nodes, val[i].nodes);
		if (val[i].depth > depth)
			depth = val[i].depth;
	}
	free(first);
	free(to);
	free(state);
	free(val);
	if (rc == 0 && depth > PHYS_MESH_MAX_DEPTH)
		rc = phys_fail("Collada: nodes nested deeper than %d levels "
		    "once instances are counted", PHYS_MESH_MAX_DEPTH);
	if (rc == 0 && out->nodes > PHYS_MESH_MAX_NODES)
		rc = phys_fail("Collada: %s than %u nodes once instances are "
		    "counted", out->nodes == SIZE_MAX ? "far more" : "more",
		    PHYS_MESH_MAX_NODES);
	return rc;
}

static void
collada_free(struct collada *c)
{
	phys_buf_free(&c->pool);
	free(c->obj);
	free(c->ref);
	free(c->acc);
	free(c->open);
	free(c->table);
}

static int
scan_collada(const char *data, size_t len, struct phys_mesh_scan *out)
{
	struct collada c;
	xmlSAXHandler sax;
	int rc;

	if (len > INT_MAX)
		return phys_fail("%s", "too large");
	memset(&c, 0, sizeof c);
	phys_buf_putc(&c.pool, '\0');
	memset(&sax, 0, sizeof sax);
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.characters = on_text;
	sax.cdataBlock = on_text;
	sax.internalSubset = on_dtd;
	sax.serror = on_error;
	c.ctxt = xmlCreateMemoryParserCtxt(data, (int)len);
	if (!c.ctxt)
		return phys_fail("%s", "out of memory");
	/* HUGE: deep and long documents are bounded here, not by libxml2's
	 * defaults (256 levels of any element, 10 MB of text in one). */
	xmlCtxtUseOptions(c.ctxt, XML_PARSE_NONET | XML_PARSE_HUGE);
	memcpy(c.ctxt->sax, &sax, sizeof sax);
	c.ctxt->_private = &c;
	xmlParseDocument(c.ctxt);
	rc = c.failed ? -1 : 0;
	if (rc == 0 && !c.ctxt->wellFormed)
		rc = phys_fail("%s", "Collada: not well-formed XML");
	xmlFreeParserCtxt(c.ctxt);
	if (rc == 0) {
		build_table(&c);
		rc = check_accessors(&c);
	}
	if (rc == 0)
		rc = scene_value(&c, out);
	collada_free(&c);
	return rc;
}

/* ---- recognition ---- */

static bool
starts_with_word(const char *d, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return i + n <= len && memcmp(d + i, w, n) == 0 &&
	    (i + n == len || is_blank(d[i + n]));
}

int
phys_mesh_scan(const char *data, size_t len, struct phys_mesh_scan *out)
{
	size_t i = text_start(data, len), n;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (binary_stl(data, len, &n)) {
		out->format = PHYS_MESH_STL;
		out->triangles = n;
	} else if (memchr(data, '\0', len)) {
		return phys_fail("%s", "not a Collada, STL, OBJ or glTF file, "
		    "the mesh formats phys reads (it is binary, and neither a "
		    "binary STL file, 84 bytes and 50 per triangle, nor a GLB)");
	} else if (i < len && data[i] == '<') {
		out->format = PHYS_MESH_COLLADA;
		rc = scan_collada(data, len, out);
	} else if (starts_with_word(data, len, i, "solid")) {
		out->format = PHYS_MESH_STL;
		out->triangles = ascii_stl_triangles(data, len);
	} else if (obj_like(data, len)) {
		out->format = PHYS_MESH_OBJ;
		out->triangles = obj_triangles(data, len);
	} else
		return phys_fail("%s", "not a Collada, STL, OBJ or glTF file, "
		    "the mesh formats phys reads (recognised by their "
		    "content)");
	if (rc == 0 && out->triangles > PHYS_MESH_MAX_TRIANGLES)
		rc = too_many_triangles(out->triangles);
	return rc;
}
