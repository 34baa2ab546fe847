/*
 * statein.c - reading state lines.
 *
 * Reading has two paths. State lines are machine-written compact JSON, so
 * a small scanner reads them in place without building a document and
 * converts only the numbers that are used. Anything it is not sure about
 * (blanks, escapes, non-ASCII names, nulls, odd values) goes to jansson,
 * which either reads the line or says exactly what is wrong with it.
 */
#include "statein.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct phys_ist_reader {
	struct phys_lines in;	/* a stream: only the line length is bounded */
	const char *path;	/* as given; "-" is stdin */
	const char *name;	/* for messages */
	char *line;
	long lineno;
	struct phys_ist_frame f;
	void *doc;		/* jansson document behind f, if any */
	struct phys_buf arena;	/* text made for f by the slow path */
};

/* Longest array item; its elements are fields named "0", "1", ... */
#define MAXARRAY 256

/* Bytes that stop the fast string scan: '"', '\\', controls, non-ASCII. */
static unsigned char strstop[256];
static char idxname[MAXARRAY][12];

static void
init_tables(void)
{
	static bool done;
	int c;

	if (done)
		return;
	for (c = 0; c < 256; c++)
		strstop[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
	for (c = 0; c < MAXARRAY; c++)
		snprintf(idxname[c], sizeof idxname[c], "%d", c);
	done = true;
}

struct phys_ist_numtxt
phys_ist_numtxt(double v)
{
	struct phys_ist_numtxt n;

	phys_fmt_double(n.s, sizeof n.s, v);
	return n;
}

double
phys_ist_value(struct phys_ist_field *f)
{
	if (f->num) {
		/* The scanner checked the syntax and the exponent's size. */
		f->v = strtod(f->num, NULL);
		f->num = NULL;
	}
	return f->v;
}

void
phys_ist_put_jstr(struct phys_buf *b, const char *s, size_t n)
{
	size_t i;
	char *tmp;

	init_tables();
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x80 && strstop[(unsigned char)s[i]])
			break;
	if (i == n) {
		phys_buf_reserve(b, n + 2);
		phys_buf_putc(b, '"');
		phys_buf_putn(b, s, n);
		phys_buf_putc(b, '"');
		return;
	}
	tmp = phys_xstrndup(s, n);
	phys_buf_json_string(b, tmp);
	free(tmp);
}

/* ---- frames ---------------------------------------------------------- */

static void
frame_reset(struct phys_ist_frame *f)
{
	f->nitems = f->nfields = f->ntop = 0;
}

static void
frame_free(struct phys_ist_frame *f)
{
	free(f->items);
	free(f->fields);
	free(f->top);
	memset(f, 0, sizeof *f);
}

static size_t
push_item(struct phys_ist_frame *f, const char *name, size_t nlen,
    enum phys_ist_kind kind)
{
	struct phys_ist_item *it;

	if (f->nitems == f->capitems) {
		f->capitems = f->capitems ? 2 * f->capitems : 64;
		f->items = phys_xrealloc(f->items, f->capitems * sizeof *f->items);
	}
	it = &f->items[f->nitems];
	it->name = name;
	it->nlen = nlen;
	it->kind = kind;
	it->first = f->nfields;
	it->n = 0;
	return f->nitems++;
}

static struct phys_ist_field *
push_field(struct phys_ist_frame *f, const char *name, size_t nlen)
{
	struct phys_ist_field *fl;

	if (f->nfields == f->capfields) {
		f->capfields = f->capfields ? 2 * f->capfields : 256;
		f->fields = phys_xrealloc(f->fields,
		    f->capfields * sizeof *f->fields);
	}
	fl = &f->fields[f->nfields++];
	fl->name = name;
	fl->nlen = nlen;
	fl->num = NULL;
	fl->v = NAN;
	f->items[f->nitems - 1].n++;
	return fl;
}

static void
push_top(struct phys_ist_frame *f, enum phys_ist_top_kind kind, const char *text,
    size_t len)
{
	if (f->ntop == f->captop) {
		f->captop = f->captop ? 2 * f->captop : 8;
		f->top = phys_xrealloc(f->top, f->captop * sizeof *f->top);
	}
	f->top[f->ntop++] = (struct phys_ist_top){ kind, text, len };
}

/* ---- fast path: compact lines as phys-step writes them --------------- */

/* p is just past the opening quote; returns the closing quote or NULL. */
static const char *
fast_string(const char *p)
{
	while (!strstop[(unsigned char)*p])
		p++;
	return *p == '"' ? p : NULL;
}

static bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * A JSON number; NULL for a long one or a 3-digit exponent, which might
 * overflow: jansson decides those.
 */
static const char *
fast_number(const char *p)
{
	const char *s = p, *e;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (digit(*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!digit(*++p))
			return NULL;
		while (digit(*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		e = p;
		if (!digit(*p))
			return NULL;
		while (digit(*p))
			p++;
		if (p - e > 2)
			return NULL;
	}
	return p - s > 32 ? NULL : p;
}

/*
 * Duplicate keys are refused by jansson (JSON_REJECT_DUPLICATES), which
 * says where; the scanner sends any line with one to it rather than
 * letting readers pick different copies. Keys of one object are compared
 * pairwise up to MAXKEYS; a larger object also goes to jansson.
 */
#define MAXKEYS 16

struct keys {
	const char *s[MAXKEYS];
	size_t len[MAXKEYS], n;
};

/* Adds a key; false when it is there already or there are too many. */
static bool
key_add(struct keys *k, const char *s, size_t len)
{
	size_t i;

	if (k->n == MAXKEYS)
		return false;
	for (i = 0; i < k->n; i++)
		if (k->len[i] == len && memcmp(k->s[i], s, len) == 0)
			return false;
	k->s[k->n] = s;
	k->len[k->n++] = len;
	return true;
}

/* Any JSON value, for members copied through unchanged. */
static const char *
fast_skip(const char *p, int depth)
{
	struct keys k;
	const char *q;

	if (depth > 32)
		return NULL;
	switch (*p) {
	case '"':
		p = fast_string(p + 1);
		return p ? p + 1 : NULL;
	case '{':
		if (*++p == '}')
			return p + 1;
		k.n = 0;
		for (;;) {
			if (*p != '"' || !(q = fast_string(p + 1)) ||
			    !key_add(&k, p + 1, (size_t)(q - p - 1)) ||
			    q[1] != ':' || !(p = fast_skip(q + 2, depth + 1)))
				return NULL;
			if (*p == '}')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	case '[':
		if (*++p == ']')
			return p + 1;
		for (;;) {
			if (!(p = fast_skip(p, depth + 1)))
				return NULL;
			if (*p == ']')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	case 't':
		return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f':
		return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n':
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default:
		return fast_number(p);
	}
}

static const char *
fast_value(struct phys_ist_frame *f, const char *name, size_t nlen, const char *p)
{
	struct phys_ist_field *fl;
	const char *k, *q;
	struct keys seen;

	if (*p == '{') {
		push_item(f, name, nlen, IST_OBJECT);
		if (*++p == '}')
			return p + 1;
		seen.n = 0;
		for (;;) {
			if (*p != '"' || !(q = fast_string(p + 1)) ||
			    q[1] != ':' ||
			    !key_add(&seen, p + 1, (size_t)(q - p - 1)))
				return NULL;
			k = p + 1;
			fl = push_field(f, k, (size_t)(q - k));
			fl->num = q + 2;
			if (!(p = fast_number(q + 2)))
				return NULL;
			if (*p == '}')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (*p == '[') {
		push_item(f, name, nlen, IST_ARRAY);
		if (*++p == ']')
			return p + 1;
		for (;;) {
			if (f->items[f->nitems - 1].n == MAXARRAY)
				return NULL;
			k = idxname[f->items[f->nitems - 1].n];
			fl = push_field(f, k, strlen(k));
			fl->num = p;
			if (!(p = fast_number(p)))
				return NULL;
			if (*p == ']')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	push_item(f, name, nlen, IST_SCALAR);
	fl = push_field(f, "", 0);
	fl->num = p;
	return fast_number(p);
}

static const char *
fast_items(struct phys_ist_frame *f, const char *p)
{
	const char *q;

	if (*p++ != '{')
		return NULL;
	if (*p == '}')
		return p + 1;
	for (;;) {
		if (*p != '"' || !(q = fast_string(p + 1)) || q[1] != ':')
			return NULL;
		if (!(p = fast_value(f, p + 1, (size_t)(q - p - 1), q + 2)))
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

/* FNV-1a of an item name, for items_unique(). */
static size_t
name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* No two items share a name: an open-addressing set of item indices,
 * at most half full. The table is kept from line to line. */
static bool
items_unique(const struct phys_ist_frame *f)
{
	static size_t *slot, cap;
	const struct phys_ist_item *it, *o;
	size_t size = 16, mask, i, h;

	if (f->nitems < 2)
		return true;
	while (size < 2 * f->nitems)
		size *= 2;
	if (size > cap) {
		free(slot);
		slot = phys_xcalloc(size, sizeof *slot);
		cap = size;
	} else {
		memset(slot, 0, size * sizeof *slot);
	}
	mask = size - 1;
	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		for (h = name_hash(it->name, it->nlen) & mask; slot[h];
		    h = (h + 1) & mask) {
			o = &f->items[slot[h] - 1];
			if (o->nlen == it->nlen &&
			    memcmp(o->name, it->name, it->nlen) == 0)
				return false;
		}
		slot[h] = i + 1;	/* 0 is an empty slot */
	}
	return true;
}

static bool
fast_line(struct phys_ist_frame *f, const char *p, const char *end)
{
	const char *key, *q;
	bool seen_t = false, seen_items = false;
	struct keys others = { .n = 0 };
	size_t klen;

	if (*p++ != '{')
		return false;
	for (;;) {
		if (*p != '"' || !(q = fast_string(p + 1)) || q[1] != ':')
			return false;
		key = p;
		klen = (size_t)(q - p - 1);
		if (klen == 1 && key[1] == 't') {
			if (seen_t || !fast_number(q + 2))
				return false;
			f->t = strtod(q + 2, NULL);
			seen_t = true;
			push_top(f, IST_TOP_T, NULL, 0);
			p = fast_number(q + 2);
		} else if (klen == 5 && memcmp(key + 1, "items", 5) == 0) {
			if (seen_items || !(p = fast_items(f, q + 2)))
				return false;
			seen_items = true;
			push_top(f, IST_TOP_ITEMS, NULL, 0);
		} else {
			if (!key_add(&others, key + 1, klen) ||
			    !(p = fast_skip(q + 2, 0)))
				return false;
			push_top(f, IST_TOP_OTHER, key, (size_t)(p - key));
		}
		if (*p == '}')
			break;
		if (*p++ != ',')
			return false;
	}
	return p + 1 == end && seen_t && seen_items && items_unique(f);
}

/* ---- slow path: jansson --------------------------------------------- */

static int
slow_number(struct phys_ist_reader *r, json_t *v, double *out)
{
	if (json_is_null(v))
		*out = NAN;
	else if (json_is_number(v))
		*out = json_number_value(v);
	else
		return -1;
	return 0;
}

static int
slow_item(struct phys_ist_reader *r, const char *name, json_t *v)
{
	struct phys_ist_frame *f = &r->f;
	const char *key;
	json_t *m;
	double d;
	size_t i;

	if (json_is_object(v)) {
		push_item(f, name, strlen(name), IST_OBJECT);
		json_object_foreach(v, key, m) {
			if (slow_number(r, m, &d) < 0)
				return phys_failat(r->name, r->lineno,
				    "item '%s': field '%s' is not a number",
				    name, key);
			push_field(f, key, strlen(key))->v = d;
		}
	} else if (json_is_array(v)) {
		push_item(f, name, strlen(name), IST_ARRAY);
		if (json_array_size(v) > MAXARRAY)
			return phys_failat(r->name, r->lineno,
			    "item '%s' has more than %d values", name,
			    MAXARRAY);
		json_array_foreach(v, i, m) {
			if (slow_number(r, m, &d) < 0)
				return phys_failat(r->name, r->lineno,
				    "item '%s': value %zu is not a number",
				    name, i);
			push_field(f, idxname[i], strlen(idxname[i]))->v = d;
		}
	} else {
		push_item(f, name, strlen(name), IST_SCALAR);
		if (slow_number(r, v, &d) < 0)
			return phys_failat(r->name, r->lineno, "item '%s' is "
			    "not a number, an object of numbers or an array "
			    "of numbers", name);
		push_field(f, "", 0)->v = d;
	}
	return 0;
}

static int
slow_member(struct phys_ist_reader *r, const char *key, json_t *v, bool *seen_t,
    bool *seen_items)
{
	struct phys_ist_frame *f = &r->f;
	const char *name;
	json_t *iv;
	char *dump;
	size_t start;

	if (strcmp(key, "t") == 0) {
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return phys_failat(r->name, r->lineno,
			    "\"t\" is not a number");
		f->t = json_number_value(v);
		*seen_t = true;
		push_top(f, IST_TOP_T, NULL, 0);
	} else if (strcmp(key, "items") == 0) {
		if (!json_is_object(v))
			return phys_failat(r->name, r->lineno,
			    "\"items\" is not an object");
		json_object_foreach(v, name, iv)
			if (slow_item(r, name, iv) < 0)
				return -1;
		*seen_items = true;
		push_top(f, IST_TOP_ITEMS, NULL, 0);
	} else {
		/* The text lives in the arena; pointers are set at the end. */
		start = r->arena.len;
		phys_buf_json_string(&r->arena, key);
		phys_buf_putc(&r->arena, ':');
		dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		phys_buf_puts(&r->arena, dump ? dump : "null");
		free(dump);
		push_top(f, IST_TOP_OTHER, NULL, r->arena.len - start);
	}
	return 0;
}

static int
slow_line(struct phys_ist_reader *r, const char *s, size_t len)
{
	struct phys_ist_frame *f = &r->f;
	json_error_t jerr;
	json_t *root, *v;
	const char *key;
	bool seen_t = false, seen_items = false;
	size_t i, off = 0;

	frame_reset(f);
	phys_buf_clear(&r->arena);
	root = json_loadb(s, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.column > 0)
			return phys_failat(r->name, r->lineno,
			    "bad JSON at column %d: %s", jerr.column,
			    jerr.text);
		return phys_failat(r->name, r->lineno, "bad JSON: %s",
		    jerr.text);
	}
	r->doc = root;
	if (!json_is_object(root))
		return phys_failat(r->name, r->lineno,
		    "not a state line: not a JSON object");
	json_object_foreach(root, key, v)
		if (slow_member(r, key, v, &seen_t, &seen_items) < 0)
			return -1;
	if (!seen_t || !seen_items)
		return phys_failat(r->name, r->lineno,
		    "not a state line: no \"%s\"", seen_t ? "items" : "t");
	for (i = 0; i < f->ntop; i++)
		if (f->top[i].kind == IST_TOP_OTHER) {
			f->top[i].text = r->arena.s + off;
			off += f->top[i].len;
		}
	return 0;
}

/* ---- reader ---------------------------------------------------------- */

struct phys_ist_reader *
phys_ist_open(const char *path)
{
	struct phys_ist_reader *r = phys_xcalloc(1, sizeof *r);

	init_tables();
	r->path = path;
	r->name = phys_display_name(path);
	if (phys_lines_open(&r->in, path, 0) < 0) {
		phys_ist_close(r);
		return NULL;
	}
	return r;
}

struct phys_ist_frame *
phys_ist_frame(struct phys_ist_reader *r)
{
	return &r->f;
}

const char *
phys_ist_name(const struct phys_ist_reader *r)
{
	return r->name;
}

static bool
blank_line(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		n--;
	return n == 0;
}

int
phys_ist_read(struct phys_ist_reader *r)
{
	size_t n;
	int rc;

	for (;;) {
		if (r->doc) {
			json_decref(r->doc);
			r->doc = NULL;
		}
		if ((rc = phys_lines_next(&r->in, &r->line, &n)) <= 0)
			return rc;
		r->lineno = r->in.lineno;
		if (blank_line(r->line, n))
			continue;
		frame_reset(&r->f);
		r->f.line = r->lineno;
		if (fast_line(&r->f, r->line, r->line + n))
			return 1;
		return slow_line(r, r->line, n) < 0 ? -1 : 1;
	}
}

void
phys_ist_close(struct phys_ist_reader *r)
{
	if (!r)
		return;
	phys_lines_close(&r->in);
	if (r->doc)
		json_decref(r->doc);
	frame_free(&r->f);
	phys_buf_free(&r->arena);
	free(r);
}
