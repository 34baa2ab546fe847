/*
 * introspect.c - state lines: reading, selecting, sampling, deriving,
 * comparing and plotting.
 *
 * Reading has two paths. State lines are machine-written compact JSON, so
 * a small scanner reads them in place without building a document and
 * converts only the numbers that are used. Anything it is not sure about
 * (blanks, escapes, non-ASCII names, nulls, odd values) goes to jansson,
 * which either reads the line or says exactly what is wrong with it.
 */
#include "introspect.h"
#include "items.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* A number as text for messages, valid until the end of the statement. */
struct numtxt {
	char s[40];
};

static struct numtxt
numtxt(double v)
{
	struct numtxt n;

	phys_fmt_double(n.s, sizeof n.s, v);
	return n;
}

double
ist_value(struct ist_field *f)
{
	if (f->num) {
		/* The scanner checked the syntax and the exponent's size. */
		f->v = strtod(f->num, NULL);
		f->num = NULL;
	}
	return f->v;
}

/* A JSON string from s[0..n), which need not be NUL-terminated. */
static void
put_jstr(struct phys_buf *b, const char *s, size_t n)
{
	size_t i;
	char *tmp;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x80 && strstop[(unsigned char)s[i]])
			break;
	if (i == n) {
		buf_reserve(b, n + 2);
		buf_putc(b, '"');
		buf_putn(b, s, n);
		buf_putc(b, '"');
		return;
	}
	tmp = xstrndup(s, n);
	buf_json_string(b, tmp);
	free(tmp);
}

/* ---- frames ---------------------------------------------------------- */

static void
frame_reset(struct ist_frame *f)
{
	f->nitems = f->nfields = f->ntop = 0;
}

static void
frame_free(struct ist_frame *f)
{
	free(f->items);
	free(f->fields);
	free(f->top);
	memset(f, 0, sizeof *f);
}

static size_t
push_item(struct ist_frame *f, const char *name, size_t nlen,
    enum ist_kind kind)
{
	struct ist_item *it;

	if (f->nitems == f->capitems) {
		f->capitems = f->capitems ? 2 * f->capitems : 64;
		f->items = xrealloc(f->items, f->capitems * sizeof *f->items);
	}
	it = &f->items[f->nitems];
	it->name = name;
	it->nlen = nlen;
	it->kind = kind;
	it->first = f->nfields;
	it->n = 0;
	return f->nitems++;
}

static struct ist_field *
push_field(struct ist_frame *f, const char *name, size_t nlen)
{
	struct ist_field *fl;

	if (f->nfields == f->capfields) {
		f->capfields = f->capfields ? 2 * f->capfields : 256;
		f->fields = xrealloc(f->fields,
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
push_top(struct ist_frame *f, enum ist_top_kind kind, const char *text,
    size_t len)
{
	if (f->ntop == f->captop) {
		f->captop = f->captop ? 2 * f->captop : 8;
		f->top = xrealloc(f->top, f->captop * sizeof *f->top);
	}
	f->top[f->ntop++] = (struct ist_top){ kind, text, len };
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
fast_value(struct ist_frame *f, const char *name, size_t nlen, const char *p)
{
	struct ist_field *fl;
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
fast_items(struct ist_frame *f, const char *p)
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
items_unique(const struct ist_frame *f)
{
	static size_t *slot, cap;
	const struct ist_item *it, *o;
	size_t size = 16, mask, i, h;

	if (f->nitems < 2)
		return true;
	while (size < 2 * f->nitems)
		size *= 2;
	if (size > cap) {
		free(slot);
		slot = xcalloc(size, sizeof *slot);
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
fast_line(struct ist_frame *f, const char *p, const char *end)
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
slow_number(struct ist_reader *r, json_t *v, double *out)
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
slow_item(struct ist_reader *r, const char *name, json_t *v)
{
	struct ist_frame *f = &r->f;
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
slow_member(struct ist_reader *r, const char *key, json_t *v, bool *seen_t,
    bool *seen_items)
{
	struct ist_frame *f = &r->f;
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
		buf_json_string(&r->arena, key);
		buf_putc(&r->arena, ':');
		dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		buf_puts(&r->arena, dump ? dump : "null");
		free(dump);
		push_top(f, IST_TOP_OTHER, NULL, r->arena.len - start);
	}
	return 0;
}

static int
slow_line(struct ist_reader *r, const char *s, size_t len)
{
	struct ist_frame *f = &r->f;
	json_error_t jerr;
	json_t *root, *v;
	const char *key;
	bool seen_t = false, seen_items = false;
	size_t i, off = 0;

	frame_reset(f);
	buf_clear(&r->arena);
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

int
ist_open(struct ist_reader *r, const char *path)
{
	memset(r, 0, sizeof *r);
	init_tables();
	r->path = path;
	r->name = phys_display_name(path);
	return phys_lines_open(&r->in, path, 0);
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
ist_read(struct ist_reader *r)
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
ist_close(struct ist_reader *r)
{
	phys_lines_close(&r->in);
	if (r->doc)
		json_decref(r->doc);
	frame_free(&r->f);
	buf_free(&r->arena);
	memset(r, 0, sizeof *r);
}

/* ---- selectors ------------------------------------------------------- */

void
ist_sel_add(struct ist_sel *s, const char *pat)
{
	s->pat = xrealloc(s->pat, (s->n + 1) * sizeof *s->pat);
	s->pat[s->n++] = xstrdup(pat);
}

void
ist_sel_free(struct ist_sel *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->pat[i]);
	free(s->pat);
	s->pat = NULL;
	s->n = 0;
}

static int
add_selector_line(char *line, long lineno, void *ctx)
{
	char *end;

	line += strspn(line, " \t");
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\r'))
		*--end = '\0';
	ist_sel_add(ctx, line);
	return 0;
}

int
ist_sel_load(struct ist_sel *s, const char *path)
{
	return phys_each_line(path, add_selector_line, s);
}

int
ist_sel_save(const struct ist_sel *s, const char *path)
{
	struct phys_atomic a;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strchr(s->pat[i], '\n') || s->pat[i][0] == '#' ||
		    s->pat[i][0] == ' ' || s->pat[i][0] == '\t')
			return phys_fail("selector '%s' cannot be saved: it "
			    "would not read back the same", s->pat[i]);
	if (phys_atomic_open(&a, path) < 0)
		return -1;
	fputs("# phys-introspect selection: one selector a line\n", a.fp);
	for (i = 0; i < s->n; i++)
		fprintf(a.fp, "%s\n", s->pat[i]);
	return phys_atomic_commit(&a);
}

/* "ITEM" or "ITEM.FIELD", NUL-terminated, in b. */
static const char *
flat_name(struct phys_buf *b, const struct ist_item *it,
    const struct ist_field *fl)
{
	buf_clear(b);
	buf_putn(b, it->name, it->nlen);
	if (it->kind != IST_SCALAR) {
		buf_putc(b, '.');
		buf_putn(b, fl->name, fl->nlen);
	}
	return b->s;
}

static bool
sel_match(const struct ist_sel *s, const char *name, size_t *hits)
{
	bool any = false;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (phys_glob(s->pat[i], name)) {
			any = true;
			if (hits)
				hits[i]++;
		}
	return any;
}

/* " (did you mean 'X'?)" for the name in f closest to want, or "". */
static char *
suggest(const struct ist_frame *f, const char *want)
{
	struct phys_buf nb = { 0 };
	char *best = NULL, *res;
	size_t i, j, d, bestd = (size_t)-1, limit;

	for (i = 0; i < f->nitems; i++) {
		const struct ist_item *it = &f->items[i];

		for (j = 0; j <= it->n; j++) {
			if (j == 0) {
				buf_clear(&nb);
				buf_putn(&nb, it->name, it->nlen);
			} else if (it->kind != IST_SCALAR) {
				flat_name(&nb, it,
				    &f->fields[it->first + j - 1]);
			} else {
				continue;
			}
			d = phys_edit_distance(want, nb.s);
			if (d < bestd) {
				bestd = d;
				free(best);
				best = xstrdup(nb.s);
			}
		}
	}
	buf_free(&nb);
	limit = strlen(want) / 4 > 2 ? strlen(want) / 4 : 2;
	res = best && bestd <= limit ?
	    xasprintf(" (did you mean '%s'?)", best) : xstrdup("");
	free(best);
	return res;
}

/* ---- columns: fields addressed by name, found fast line after line --- */

struct col {
	char *name;		/* ITEM or ITEM.FIELD */
	size_t itemlen;		/* length of ITEM */
	size_t flen;		/* length of FIELD; 0 for a scalar */
	size_t item, field;	/* where it was last time: tried first */
};

struct cols {
	struct col *v;
	size_t n;
};

static void
cols_add(struct cols *c, const char *name, size_t itemlen, size_t item,
    size_t field)
{
	struct col *k;

	c->v = xrealloc(c->v, (c->n + 1) * sizeof *c->v);
	k = &c->v[c->n++];
	k->name = xstrdup(name);
	k->itemlen = itemlen;
	k->flen = name[itemlen] ? strlen(name) - itemlen - 1 : 0;
	k->item = item;
	k->field = field;
}

static void
cols_free(struct cols *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static void
cols_copy(struct cols *dst, const struct cols *src)
{
	size_t i;

	memset(dst, 0, sizeof *dst);
	for (i = 0; i < src->n; i++)
		cols_add(dst, src->v[i].name, src->v[i].itemlen, 0, 0);
}

static ssize_t
cols_index(const struct cols *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

static bool
item_is(const struct ist_item *it, const struct col *c)
{
	return it->nlen == c->itemlen && memcmp(it->name, c->name,
	    c->itemlen) == 0 && (it->kind == IST_SCALAR) == (c->flen == 0);
}

static bool
field_is(const struct ist_field *fl, const struct col *c)
{
	return fl->nlen == c->flen && memcmp(fl->name,
	    c->name + c->itemlen + 1, c->flen) == 0;
}

/* The field of f that c names, or NULL; remembers where it was. */
static struct ist_field *
col_find(struct col *c, struct ist_frame *f)
{
	const struct ist_item *it;
	size_t i, j;

	if (c->item >= f->nitems || !item_is(&f->items[c->item], c)) {
		for (i = 0; i < f->nitems; i++)
			if (item_is(&f->items[i], c))
				break;
		if (i == f->nitems)
			return NULL;
		c->item = i;
	}
	it = &f->items[c->item];
	if (c->flen == 0)
		return &f->fields[it->first];
	if (c->field < it->n && field_is(&f->fields[it->first + c->field], c))
		return &f->fields[it->first + c->field];
	for (j = 0; j < it->n; j++)
		if (field_is(&f->fields[it->first + j], c)) {
			c->field = j;
			return &f->fields[it->first + j];
		}
	return NULL;
}

#define COLS_LAX 1		/* a selector matching nothing is no error */
#define COLS_CSV 2		/* sim_time is the first column already */

static bool
is_sim_time(const struct ist_item *it)
{
	return it->kind == IST_SCALAR && it->nlen == 8 &&
	    memcmp(it->name, "sim_time", 8) == 0;
}

static int
check_hits(const struct ist_sel *s, const size_t *hits,
    const struct ist_frame *f, const char *file)
{
	size_t i;
	char *hint;

	for (i = 0; i < s->n; i++)
		if (hits[i] == 0) {
			hint = suggest(f, s->pat[i]);
			phys_failat(file, f->line, "selector '%s' matches "
			    "nothing%s", s->pat[i], hint);
			free(hint);
			return -1;
		}
	return 0;
}

/*
 * The fields the selectors choose in f, in line order; with no selectors,
 * every field.
 */
static int
cols_build(struct cols *c, const struct ist_frame *f, const struct ist_sel *s,
    unsigned flags, const char *file, size_t *hits_out)
{
	struct phys_buf nb = { 0 };
	size_t *hits = xcalloc(s->n, sizeof *hits), i, j;
	const struct ist_item *it;
	bool whole;
	int rc = 0;

	memset(c, 0, sizeof *c);
	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		buf_clear(&nb);
		buf_putn(&nb, it->name, it->nlen);
		whole = sel_match(s, nb.s, hits) || s->n == 0;
		if (it->kind == IST_SCALAR) {
			if (whole && !((flags & COLS_CSV) && is_sim_time(it)))
				cols_add(c, nb.s, it->nlen, i, 0);
			continue;
		}
		for (j = 0; j < it->n; j++) {
			flat_name(&nb, it, &f->fields[it->first + j]);
			if (sel_match(s, nb.s, hits) || whole)
				cols_add(c, nb.s, it->nlen, i, j);
		}
	}
	if (!(flags & COLS_LAX))
		rc = check_hits(s, hits, f, file);
	if (hits_out)
		memcpy(hits_out, hits, s->n * sizeof *hits);
	free(hits);
	buf_free(&nb);
	if (rc < 0)
		cols_free(c);
	return rc;
}

/*
 * A column for a name typed by the user. Item names may hold dots, so
 * every item that is a prefix of the name is tried.
 * 0: found; -1: no such field; -2: it is an object or array item.
 */
static int
col_resolve(struct col *c, const struct ist_frame *f, const char *name)
{
	const struct ist_item *it;
	size_t i, j, len = strlen(name);
	int rc = -1;

	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		if (it->nlen > len || memcmp(it->name, name, it->nlen) != 0)
			continue;
		if (name[it->nlen] == '\0') {
			if (it->kind != IST_SCALAR) {
				rc = -2;
				continue;
			}
			c->name = xstrdup(name);
			c->itemlen = len;
			c->flen = 0;
			c->item = i;
			c->field = 0;
			return 0;
		}
		if (name[it->nlen] != '.' || it->kind == IST_SCALAR)
			continue;
		for (j = 0; j < it->n; j++) {
			const struct ist_field *fl = &f->fields[it->first + j];

			if (fl->nlen == len - it->nlen - 1 && memcmp(fl->name,
			    name + it->nlen + 1, fl->nlen) == 0) {
				c->name = xstrdup(name);
				c->itemlen = it->nlen;
				c->flen = fl->nlen;
				c->item = i;
				c->field = j;
				return 0;
			}
		}
	}
	return rc;
}

/* ---- which items a JSON line keeps, decided once per line layout ------ */

enum { SEL_NONE, SEL_WHOLE, SEL_SOME };

struct plan {
	bool valid;
	struct phys_buf names;	/* the layout decided for, back to back */
	size_t *itoff, *ftoff;	/* name offsets in names */
	struct ist_item *items;	/* copies; name fields unused */
	size_t *flen;
	unsigned char *imode, *fsel;
	size_t nitems, nfields;
};

static bool
plan_same(const struct plan *p, const struct ist_frame *f)
{
	size_t i;

	if (!p->valid || p->nitems != f->nitems || p->nfields != f->nfields)
		return false;
	for (i = 0; i < f->nitems; i++)
		if (p->items[i].nlen != f->items[i].nlen ||
		    p->items[i].kind != f->items[i].kind ||
		    p->items[i].n != f->items[i].n ||
		    memcmp(p->names.s + p->itoff[i], f->items[i].name,
		    f->items[i].nlen) != 0)
			return false;
	for (i = 0; i < f->nfields; i++)
		if (p->flen[i] != f->fields[i].nlen ||
		    memcmp(p->names.s + p->ftoff[i], f->fields[i].name,
		    f->fields[i].nlen) != 0)
			return false;
	return true;
}

static void
plan_free(struct plan *p)
{
	buf_free(&p->names);
	free(p->itoff);
	free(p->ftoff);
	free(p->items);
	free(p->flen);
	free(p->imode);
	free(p->fsel);
	memset(p, 0, sizeof *p);
}

static void
plan_build(struct plan *p, const struct ist_frame *f, const struct ist_sel *s)
{
	struct phys_buf nb = { 0 };
	const struct ist_item *it;
	size_t i, j, nsel;

	plan_free(p);
	p->nitems = f->nitems;
	p->nfields = f->nfields;
	p->itoff = xcalloc(f->nitems, sizeof *p->itoff);
	p->items = xcalloc(f->nitems, sizeof *p->items);
	p->imode = xcalloc(f->nitems, 1);
	p->ftoff = xcalloc(f->nfields, sizeof *p->ftoff);
	p->flen = xcalloc(f->nfields, sizeof *p->flen);
	p->fsel = xcalloc(f->nfields, 1);
	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		p->items[i] = *it;
		p->itoff[i] = p->names.len;
		buf_putn(&p->names, it->name, it->nlen);
		buf_clear(&nb);
		buf_putn(&nb, it->name, it->nlen);
		if (s->n == 0 || sel_match(s, nb.s, NULL)) {
			p->imode[i] = SEL_WHOLE;
			continue;
		}
		if (it->kind == IST_SCALAR)
			continue;
		for (nsel = 0, j = 0; j < it->n; j++) {
			flat_name(&nb, it, &f->fields[it->first + j]);
			if (sel_match(s, nb.s, NULL)) {
				p->fsel[it->first + j] = 1;
				nsel++;
			}
		}
		p->imode[i] = nsel == 0 ? SEL_NONE :
		    nsel == it->n ? SEL_WHOLE : SEL_SOME;
	}
	for (i = 0; i < f->nfields; i++) {
		p->ftoff[i] = p->names.len;
		p->flen[i] = f->fields[i].nlen;
		buf_putn(&p->names, f->fields[i].name, f->fields[i].nlen);
	}
	buf_free(&nb);
	p->valid = true;
}

/* The kept items of f, as members of an "items" object. */
static void
put_plan_items(struct phys_buf *b, struct ist_frame *f, const struct plan *p,
    bool *first)
{
	const struct ist_item *it;
	struct ist_field *fl;
	size_t i, j;
	bool one;

	for (i = 0; i < f->nitems; i++) {
		if (p->imode[i] == SEL_NONE)
			continue;
		it = &f->items[i];
		if (!*first)
			buf_putc(b, ',');
		*first = false;
		put_jstr(b, it->name, it->nlen);
		buf_putc(b, ':');
		fl = &f->fields[it->first];
		if (it->kind == IST_SCALAR) {
			buf_double(b, ist_value(fl));
			continue;
		}
		if (it->kind == IST_ARRAY && p->imode[i] == SEL_WHOLE) {
			buf_putc(b, '[');
			for (j = 0; j < it->n; j++) {
				if (j)
					buf_putc(b, ',');
				buf_double(b, ist_value(&fl[j]));
			}
			buf_putc(b, ']');
			continue;
		}
		/* Part of an array becomes an object keyed "0", "1", ... */
		buf_putc(b, '{');
		for (one = false, j = 0; j < it->n; j++) {
			if (p->imode[i] != SEL_WHOLE && !p->fsel[it->first + j])
				continue;
			if (one)
				buf_putc(b, ',');
			one = true;
			put_jstr(b, fl[j].name, fl[j].nlen);
			buf_putc(b, ':');
			buf_double(b, ist_value(&fl[j]));
		}
		buf_putc(b, '}');
	}
}

/* ---- derived fields -------------------------------------------------- */

int
ist_def_parse(struct ist_def *d, const char *operand, struct expr_error *err)
{
	const char *eq = strchr(operand, '='), *s = operand, *e;

	memset(d, 0, sizeof *d);
	if (!eq) {
		err->column = 1;
		snprintf(err->msg, sizeof err->msg, "expected NAME=EXPR");
		return -1;
	}
	while (*s == ' ')
		s++;
	for (e = eq; e > s && e[-1] == ' '; e--)
		;
	if (!expr_valid_name(s, (size_t)(e - s))) {
		err->column = (size_t)(s - operand) + 1;
		snprintf(err->msg, sizeof err->msg, e == s ? "no name before "
		    "'='" : "'%.*s' is not a name: use letters, digits, '_', "
		    "':', '/' and '.', starting with a letter or '_'",
		    (int)(e - s), s);
		return -1;
	}
	if (!(d->e = expr_compile(eq + 1, err))) {
		err->column += (size_t)(eq + 1 - operand);
		return -1;
	}
	d->name = xstrndup(s, (size_t)(e - s));
	d->text = xstrdup(operand);
	d->exprcol = (size_t)(eq + 1 - operand);
	return 0;
}

void
ist_def_free(struct ist_def *d)
{
	free(d->name);
	free(d->text);
	expr_free(d->e);
	memset(d, 0, sizeof *d);
}

enum bind_kind { B_FIELD, B_DERIVED, B_TIME, B_PI };

struct bind {
	enum bind_kind kind;
	size_t derived;		/* B_DERIVED: which definition */
	struct col col;		/* B_FIELD */
};

/* How each definition gets the values of the names it uses. */
struct deriver {
	const struct ist_def *defs;
	size_t ndefs;
	struct bind **binds;
	double **args;
	double *val;
	bool *warned;
};

static void
deriver_free(struct deriver *d)
{
	size_t i, j;

	if (!d->binds)
		return;
	for (i = 0; i < d->ndefs; i++) {
		for (j = 0; d->binds[i] && j < expr_nrefs(d->defs[i].e); j++)
			free(d->binds[i][j].col.name);
		free(d->binds[i]);
		free(d->args[i]);
	}
	free(d->binds);
	free(d->args);
	free(d->val);
	free(d->warned);
	memset(d, 0, sizeof *d);
}

static int
bind_fail(const struct ist_frame *f, const char *file, size_t k,
    const struct ist_def *d, size_t r, int why)
{
	const char *name = expr_ref_name(d->e, r);
	size_t column = d->exprcol + expr_ref_column(d->e, r);
	char *hint;

	if (why == -2)
		return phys_failat(file, f->line, "'%s' in expression %zu, "
		    "column %zu, is not a number: name one of its fields, "
		    "as in '%s.x'", name, k + 1, column, name);
	hint = suggest(f, name);
	if (!*hint && strchr(name, '/')) {
		free(hint);
		hint = xstrdup(" (to divide, put blanks around '/')");
	}
	phys_failat(file, f->line, "no field '%s' for expression %zu, "
	    "column %zu%s", name, k + 1, column, hint);
	free(hint);
	return -1;
}

/* Names resolve to earlier definitions, then fields, then t and pi. */
static int
deriver_bind(struct deriver *d, const struct ist_def *defs, size_t ndefs,
    const struct ist_frame *f, const char *file)
{
	size_t i, j, k, n;
	struct bind *b;
	const char *name;
	int rc;

	deriver_free(d);
	d->defs = defs;
	d->ndefs = ndefs;
	d->binds = xcalloc(ndefs, sizeof *d->binds);
	d->args = xcalloc(ndefs, sizeof *d->args);
	d->val = xcalloc(ndefs, sizeof *d->val);
	d->warned = xcalloc(ndefs, sizeof *d->warned);
	for (i = 0; i < ndefs; i++) {
		n = expr_nrefs(defs[i].e);
		d->binds[i] = xcalloc(n, sizeof *d->binds[i]);
		d->args[i] = xcalloc(n, sizeof *d->args[i]);
		for (j = 0; j < n; j++) {
			b = &d->binds[i][j];
			name = expr_ref_name(defs[i].e, j);
			for (k = i; k-- > 0;)
				if (strcmp(defs[k].name, name) == 0)
					break;
			if (k != (size_t)-1) {
				b->kind = B_DERIVED;
				b->derived = k;
			} else if ((rc = col_resolve(&b->col, f, name)) == 0) {
				b->kind = B_FIELD;
			} else if (strcmp(name, "t") == 0) {
				b->kind = B_TIME;
			} else if (strcmp(name, "pi") == 0) {
				b->kind = B_PI;
			} else {
				return bind_fail(f, file, i, &defs[i], j, rc);
			}
		}
	}
	return 0;
}

static int
deriver_run(struct deriver *d, struct ist_frame *f, const char *file)
{
	struct ist_field *fl;
	struct bind *b;
	size_t i, j, n;

	for (i = 0; i < d->ndefs; i++) {
		n = expr_nrefs(d->defs[i].e);
		for (j = 0; j < n; j++) {
			b = &d->binds[i][j];
			switch (b->kind) {
			case B_FIELD:
				if (!(fl = col_find(&b->col, f)))
					return phys_failat(file, f->line,
					    "no field '%s'", b->col.name);
				d->args[i][j] = ist_value(fl);
				break;
			case B_DERIVED:
				d->args[i][j] = d->val[b->derived];
				break;
			case B_TIME:
				d->args[i][j] = f->t;
				break;
			case B_PI:
				d->args[i][j] = M_PI;
				break;
			}
		}
		d->val[i] = expr_eval(d->defs[i].e, d->args[i]);
		if (!isfinite(d->val[i]) && !d->warned[i]) {
			d->warned[i] = true;
			phys_warnat(file, f->line, "%s is not a finite number; "
			    "written as %s", d->defs[i].name, "null or an "
			    "empty cell");
		}
	}
	return 0;
}

/* ---- sampling and output --------------------------------------------- */

struct sampler {
	const struct ist_sampling *o;
	long seen;
	bool started;
	double nextk;
};

/*
 * A line within a millionth of a period before its sample time still
 * counts, so rounding in accumulated times does not skip a sample.
 */
#define RATE_SLACK 1e-6

static bool
sample(struct sampler *s, double t)
{
	const struct ist_sampling *o = s->o;
	double x;
	long i;

	if ((o->has_from && t < o->from) || (o->has_to && t > o->to))
		return false;
	i = s->seen++;
	if (o->every > 1 && i % o->every != 0)
		return false;
	if (o->rate > 0) {
		x = t * o->rate;
		if (s->started && x < s->nextk - RATE_SLACK)
			return false;
		s->nextk = floor(x + RATE_SLACK) + 1;
		s->started = true;
	}
	return true;
}

/* Whole lines to the output, or into the ring of the last --window. */
struct emitter {
	FILE *out;
	long window;
	struct phys_buf *ring;
	size_t cap;
	unsigned long count;
	struct phys_buf line;
};

static struct phys_buf *
emit_begin(struct emitter *e)
{
	size_t slot;

	if (e->window <= 0) {
		buf_clear(&e->line);
		return &e->line;
	}
	slot = (size_t)(e->count % (unsigned long)e->window);
	if (slot >= e->cap) {
		size_t ncap = e->cap ? 2 * e->cap : 64;

		if (ncap > (size_t)e->window)
			ncap = (size_t)e->window;
		e->ring = xrealloc(e->ring, ncap * sizeof *e->ring);
		memset(&e->ring[e->cap], 0, (ncap - e->cap) * sizeof *e->ring);
		e->cap = ncap;
	}
	buf_clear(&e->ring[slot]);
	return &e->ring[slot];
}

static void
emit_end(struct emitter *e)
{
	if (e->window <= 0)
		fwrite(e->line.s, 1, e->line.len, e->out);
	else
		e->count++;
}

static void
emit_flush(struct emitter *e)
{
	unsigned long w = (unsigned long)e->window, i, start, n;

	if (e->window <= 0)
		return;
	n = e->count < w ? e->count : w;
	start = e->count < w ? 0 : e->count % w;
	for (i = 0; i < n; i++) {
		struct phys_buf *b = &e->ring[(start + i) % w];

		fwrite(b->s, 1, b->len, e->out);
	}
	e->count = 0;
}

static void
emit_free(struct emitter *e)
{
	size_t i;

	for (i = 0; i < e->cap; i++)
		buf_free(&e->ring[i]);
	free(e->ring);
	buf_free(&e->line);
}

static char
sepchar(enum ist_format fmt)
{
	return fmt == IST_TSV ? '\t' : ',';
}

/* A CSV cell is quoted only when it must be. */
static void
put_cell(struct phys_buf *b, const char *s, enum ist_format fmt)
{
	const char *p;

	if (fmt == IST_TSV || !strpbrk(s, ",\"\r\n")) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			buf_putc(b, '"');
		buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

/* An empty cell for a missing or non-finite value. */
static void
put_num_cell(struct phys_buf *b, double v)
{
	if (isfinite(v))
		buf_double(b, v);
}

static void
put_header(struct phys_buf *b, enum ist_format fmt, bool run,
    const char *lead, const struct cols *c, const struct ist_def *defs,
    size_t ndefs)
{
	size_t i;

	if (run) {
		put_cell(b, "run", fmt);
		buf_putc(b, sepchar(fmt));
	}
	buf_puts(b, lead);
	for (i = 0; c && i < c->n; i++) {
		buf_putc(b, sepchar(fmt));
		put_cell(b, c->v[i].name, fmt);
	}
	for (i = 0; i < ndefs; i++) {
		buf_putc(b, sepchar(fmt));
		put_cell(b, defs[i].name, fmt);
	}
	buf_putc(b, '\n');
}

/* Start of a CSV row: the run when there are several, then t. */
static void
put_row_start(struct phys_buf *b, enum ist_format fmt, const char *run,
    double t)
{
	if (run) {
		put_cell(b, run, fmt);
		buf_putc(b, sepchar(fmt));
	}
	buf_double(b, t);
}

typedef void items_fn(struct phys_buf *b, struct ist_frame *f, void *ctx);

/* A JSON line like f, its items written by fn; "run" first if given. */
static void
put_json_line(struct phys_buf *b, const char *run, struct ist_frame *f,
    items_fn *fn, void *ctx)
{
	const struct ist_top *tp;
	bool first = true;
	size_t i;

	buf_putc(b, '{');
	if (run) {
		buf_puts(b, "\"run\":");
		put_jstr(b, run, strlen(run));
		first = false;
	}
	for (i = 0; i < f->ntop; i++) {
		tp = &f->top[i];
		if (run && tp->kind == IST_TOP_OTHER && tp->len > 6 &&
		    memcmp(tp->text, "\"run\":", 6) == 0)
			continue;
		if (!first)
			buf_putc(b, ',');
		first = false;
		switch (tp->kind) {
		case IST_TOP_T:
			buf_puts(b, "\"t\":");
			buf_double(b, f->t);
			break;
		case IST_TOP_ITEMS:
			buf_puts(b, "\"items\":{");
			fn(b, f, ctx);
			buf_putc(b, '}');
			break;
		case IST_TOP_OTHER:
			buf_putn(b, tp->text, tp->len);
			break;
		}
	}
	buf_puts(b, "}\n");
}

/* The run's name in output, only when there are several runs. */
static const char *
run_label(const struct ist_opts *o, size_t k)
{
	return o->ninputs > 1 ? phys_display_name(o->inputs[k]) : NULL;
}

/* ---- filter ---------------------------------------------------------- */

static void
plan_items_fn(struct phys_buf *b, struct ist_frame *f, void *ctx)
{
	bool first = true;

	put_plan_items(b, f, ctx, &first);
}

/* CSV cells for cols; an empty cell where f lacks a field. */
static void
put_col_cells(struct phys_buf *b, enum ist_format fmt, struct cols *c,
    struct ist_frame *f)
{
	struct ist_field *fl;
	size_t i;

	for (i = 0; i < c->n; i++) {
		buf_putc(b, sepchar(fmt));
		if ((fl = col_find(&c->v[i], f)))
			put_num_cell(b, ist_value(fl));
	}
}

/* Shared state of filter and derive across runs. */
struct stream {
	const struct ist_opts *o;
	struct emitter em;
	struct plan plan;	/* JSON: kept items */
	struct cols cols;	/* CSV: kept fields, from the first run */
	bool header;
	bool keep;		/* items of the input go out */
	struct deriver der;
};

static int
stream_setup(struct stream *st, struct ist_frame *f, const char *file)
{
	const struct ist_opts *o = st->o;
	struct cols check;
	size_t i;
	int rc;

	if (o->format == IST_JSON || st->header) {
		/* Only to report selectors that match nothing. */
		if (o->sel.n > 0) {
			if (cols_build(&check, f, &o->sel, 0, file, NULL) < 0)
				return -1;
			cols_free(&check);
		}
	} else if (st->keep) {
		if (cols_build(&st->cols, f, &o->sel, COLS_CSV, file,
		    NULL) < 0)
			return -1;
	}
	if (o->ndefs > 0) {
		if (deriver_bind(&st->der, o->defs, o->ndefs, f, file) < 0)
			return -1;
		for (i = 0; st->keep && i < o->ndefs; i++) {
			struct col c = { 0 };

			rc = col_resolve(&c, f, o->defs[i].name);
			free(c.name);
			if (rc != -1 && (o->sel.n == 0 ||
			    sel_match(&o->sel, o->defs[i].name, NULL)))
				return phys_failat(file, f->line, "derived "
				    "name '%s' is an input item too",
				    o->defs[i].name);
		}
	}
	if (o->format != IST_JSON && !st->header) {
		struct phys_buf *b = &st->em.line;

		/* The header is not part of the window. */
		buf_clear(b);
		put_header(b, o->format, o->ninputs > 1, "sim_time",
		    &st->cols, o->defs, o->ndefs);
		fwrite(b->s, 1, b->len, o->out);
		st->header = true;
	}
	return 0;
}

static void
derived_items_fn(struct phys_buf *b, struct ist_frame *f, void *ctx)
{
	struct stream *st = ctx;
	bool first = true;
	size_t i;

	if (st->keep) {
		if (!plan_same(&st->plan, f))
			plan_build(&st->plan, f, &st->o->sel);
		put_plan_items(b, f, &st->plan, &first);
	}
	for (i = 0; i < st->o->ndefs; i++) {
		if (!first)
			buf_putc(b, ',');
		first = false;
		put_jstr(b, st->o->defs[i].name, strlen(st->o->defs[i].name));
		buf_putc(b, ':');
		buf_double(b, st->der.val[i]);
	}
}

static int
stream_line(struct stream *st, struct ist_frame *f, const char *run,
    const char *file)
{
	const struct ist_opts *o = st->o;
	struct phys_buf *b;
	size_t i;

	if (o->ndefs > 0 && deriver_run(&st->der, f, file) < 0)
		return -1;
	b = emit_begin(&st->em);
	if (o->format == IST_JSON) {
		if (o->ndefs > 0) {
			put_json_line(b, run, f, derived_items_fn, st);
		} else {
			if (!plan_same(&st->plan, f))
				plan_build(&st->plan, f, &o->sel);
			put_json_line(b, run, f, plan_items_fn, &st->plan);
		}
	} else {
		put_row_start(b, o->format, run, f->t);
		put_col_cells(b, o->format, &st->cols, f);
		for (i = 0; i < o->ndefs; i++) {
			buf_putc(b, sepchar(o->format));
			put_num_cell(b, st->der.val[i]);
		}
		buf_putc(b, '\n');
	}
	emit_end(&st->em);
	return 0;
}

static int
stream_run(struct stream *st, size_t k)
{
	const struct ist_opts *o = st->o;
	struct sampler sm = { &o->samp, 0, false, 0 };
	struct ist_reader r;
	bool first = true;
	int rc;

	if (ist_open(&r, o->inputs[k]) < 0)
		return -1;
	while ((rc = ist_read(&r)) > 0) {
		if (first && stream_setup(st, &r.f, r.name) < 0) {
			rc = -1;
			break;
		}
		first = false;
		if (sample(&sm, r.f.t) && stream_line(st, &r.f,
		    run_label(o, k), r.name) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0)
		emit_flush(&st->em);
	ist_close(&r);
	return rc;
}

/* filter and derive: one pass over each run, one line out per line kept. */
static int
stream_all(const struct ist_opts *o)
{
	struct stream st;
	size_t k;
	int rc = 0;

	memset(&st, 0, sizeof st);
	st.o = o;
	st.em.out = o->out;
	st.em.window = o->samp.window;
	st.keep = o->ndefs == 0 || o->keep || o->sel.n > 0;
	for (k = 0; k < o->ninputs && rc == 0; k++)
		rc = stream_run(&st, k);
	emit_free(&st.em);
	plan_free(&st.plan);
	cols_free(&st.cols);
	deriver_free(&st.der);
	return rc;
}

int
ist_filter(const struct ist_opts *o)
{
	return stream_all(o);
}

int
ist_derive(const struct ist_opts *o)
{
	return stream_all(o);
}

/* ---- rows: chosen fields as numbers, line after line ----------------- */

struct src {
	struct ist_reader r;
	struct cols cols;
	size_t *hits;		/* per selector: fields chosen */
	bool built;
	double *v;
	double t, first_t;
	long n;			/* rows read */
};

static int
src_open(struct src *s, const char *path, const struct cols *given)
{
	memset(s, 0, sizeof *s);
	if (given) {
		cols_copy(&s->cols, given);
		s->v = xcalloc(s->cols.n + 1, sizeof *s->v);
		s->built = true;
	}
	return ist_open(&s->r, path);
}

static void
src_close(struct src *s)
{
	ist_close(&s->r);
	cols_free(&s->cols);
	free(s->hits);
	free(s->v);
}

/* 1 with s->t and s->v set, 0 at the end, -1 on error. */
static int
src_next(struct src *s, const struct ist_sel *sel, unsigned flags)
{
	struct ist_frame *f = &s->r.f;
	struct ist_field *fl;
	size_t i;
	int rc;

	if ((rc = ist_read(&s->r)) <= 0)
		return rc;
	if (!s->built) {
		s->hits = xcalloc(sel->n + 1, sizeof *s->hits);
		if (cols_build(&s->cols, f, sel, flags, s->r.name,
		    s->hits) < 0)
			return -1;
		s->v = xcalloc(s->cols.n + 1, sizeof *s->v);
		s->built = true;
	}
	if (s->n > 0 && f->t < s->t)
		return phys_failat(s->r.name, f->line, "time goes backwards "
		    "(%s after %s)", numtxt(f->t).s, numtxt(s->t).s);
	if (s->n++ == 0)
		s->first_t = f->t;
	s->t = f->t;
	for (i = 0; i < s->cols.n; i++) {
		if (!(fl = col_find(&s->cols.v[i], f)))
			return phys_failat(s->r.name, f->line, "no field '%s'",
			    s->cols.v[i].name);
		s->v[i] = ist_value(fl);
	}
	return 1;
}

static double
lerp(double a, double b, double w)
{
	return a + (b - a) * w;
}

/* ---- at and delta ---------------------------------------------------- */

/* Values of every column at each time, read in one pass. */
static int
values_at(struct src *s, const struct ist_sel *sel, unsigned flags,
    const double *times, size_t nt, double **out)
{
	double *prev = NULL, prev_t = 0, w;
	bool done[2] = { false, false };
	size_t j, i, left = nt;
	int rc = 0;

	while (left > 0 && (rc = src_next(s, sel, flags)) > 0) {
		if (!prev)
			prev = xcalloc(s->cols.n + 1, sizeof *prev);
		for (j = 0; j < nt; j++) {
			if (done[j])
				continue;
			if (s->t == times[j]) {
				out[j] = xcalloc(s->cols.n + 1, sizeof **out);
				memcpy(out[j], s->v, s->cols.n * sizeof *s->v);
			} else if (s->n > 1 && prev_t < times[j] &&
			    times[j] < s->t) {
				out[j] = xcalloc(s->cols.n + 1, sizeof **out);
				w = (times[j] - prev_t) / (s->t - prev_t);
				for (i = 0; i < s->cols.n; i++)
					out[j][i] = lerp(prev[i], s->v[i], w);
			} else {
				continue;
			}
			done[j] = true;
			left--;
		}
		memcpy(prev, s->v, s->cols.n * sizeof *s->v);
		prev_t = s->t;
	}
	free(prev);
	if (rc < 0)
		return -1;
	if (s->n == 0)
		return phys_failat(s->r.name, 0, "no state lines");
	for (j = 0; j < nt; j++)
		if (!done[j])
			return phys_failat(s->r.name, 0, "time %s is outside "
			    "the data (%s to %s)", numtxt(times[j]).s,
			    numtxt(s->first_t).s, numtxt(s->t).s);
	return 0;
}

static void
put_at_line(struct phys_buf *b, const struct ist_opts *o, const char *run,
    const double *times, size_t nt, const struct cols *c, const double *v)
{
	size_t i;

	if (o->format != IST_JSON) {
		if (run) {
			put_cell(b, run, o->format);
			buf_putc(b, sepchar(o->format));
		}
		for (i = 0; i < nt; i++) {
			if (i)
				buf_putc(b, sepchar(o->format));
			buf_double(b, times[i]);
		}
		for (i = 0; i < c->n; i++) {
			buf_putc(b, sepchar(o->format));
			put_num_cell(b, v[i]);
		}
		buf_putc(b, '\n');
		return;
	}
	buf_putc(b, '{');
	if (run) {
		buf_puts(b, "\"run\":");
		put_jstr(b, run, strlen(run));
		buf_putc(b, ',');
	}
	for (i = 0; i < nt; i++) {
		buf_puts(b, nt == 1 ? "\"t\":" : i == 0 ? "\"t1\":" :
		    "\"t2\":");
		buf_double(b, times[i]);
		buf_putc(b, ',');
	}
	buf_puts(b, "\"items\":{");
	for (i = 0; i < c->n; i++) {
		if (i)
			buf_putc(b, ',');
		put_jstr(b, c->v[i].name, strlen(c->v[i].name));
		buf_putc(b, ':');
		buf_double(b, v[i]);
	}
	buf_puts(b, "}}\n");
}

static int
at_run(const struct ist_opts *o, size_t k, const double *times, size_t nt,
    struct cols *first, struct phys_buf *b)
{
	unsigned flags = o->format == IST_JSON ? 0 : COLS_CSV;
	double *vals[2] = { NULL, NULL };
	struct src s;
	size_t i;
	int rc;

	if (src_open(&s, o->inputs[k], first->v ? first : NULL) < 0) {
		src_close(&s);
		return -1;
	}
	rc = values_at(&s, &o->sel, flags, times, nt, vals);
	if (rc == 0) {
		if (nt == 2)
			for (i = 0; i < s.cols.n; i++)
				vals[0][i] = vals[1][i] - vals[0][i];
		buf_clear(b);
		if (o->format != IST_JSON && !first->v)
			put_header(b, o->format, o->ninputs > 1, nt == 1 ?
			    "sim_time" : sepchar(o->format) == ',' ?
			    "t1,t2" : "t1\tt2", &s.cols, NULL, 0);
		put_at_line(b, o, run_label(o, k), times, nt, &s.cols,
		    vals[0]);
		fwrite(b->s, 1, b->len, o->out);
		/* CSV: later runs fill the first run's columns. */
		if (o->format != IST_JSON && !first->v)
			cols_copy(first, &s.cols);
	}
	free(vals[0]);
	free(vals[1]);
	src_close(&s);
	return rc;
}

int
ist_at(const struct ist_opts *o, const double *times, size_t ntimes)
{
	struct phys_buf b = { 0 };
	struct cols first = { 0 };
	size_t k;
	int rc = 0;

	for (k = 0; k < o->ninputs && rc == 0; k++)
		rc = at_run(o, k, times, ntimes, &first, &b);
	buf_free(&b);
	cols_free(&first);
	return rc;
}

/* ---- diff ------------------------------------------------------------ */

struct cmp {
	double max_abs, max_rel, first_t;
	bool differ;
};

static void
compare(struct cmp *c, double a, double b, double t, double tol, double rel)
{
	double d, m;

	if (isnan(a) || isnan(b)) {
		if (isnan(a) != isnan(b) && !c->differ) {
			c->differ = true;
			c->first_t = t;
		}
		return;
	}
	d = fabs(a - b);
	m = fmax(fabs(a), fabs(b));
	if (d > c->max_abs)
		c->max_abs = d;
	if (m > 0 && d / m > c->max_rel)
		c->max_rel = d / m;
	if (d > tol + rel * m && !c->differ) {
		c->differ = true;
		c->first_t = t;
	}
}

struct diffstate {
	struct src a, b;
	double *bprev, bprev_t, *vb;
	bool have_bprev, have_b;
	ssize_t *map;		/* A column -> B column, or -1 */
	struct cmp *cmp;
	bool outside;		/* some time is covered by one run only */
	double outside_t;
};

static void
note_outside(struct diffstate *d, double t)
{
	if (!d->outside || t < d->outside_t)
		d->outside_t = t;
	d->outside = true;
}

/* Move B on to the line at or just after t. */
static int
advance_b(struct diffstate *d, const struct ist_sel *sel, double t)
{
	int rc;

	while (d->have_b && d->b.t < t) {
		if (d->a.n == 1 && !d->have_bprev)
			note_outside(d, d->b.t);	/* before A starts */
		memcpy(d->bprev, d->b.v, d->b.cols.n * sizeof *d->bprev);
		d->bprev_t = d->b.t;
		d->have_bprev = true;
		if ((rc = src_next(&d->b, sel, COLS_LAX)) < 0)
			return -1;
		d->have_b = rc > 0;
	}
	return 0;
}

/* B's values at A's time into d->vb; false outside B. */
static bool
b_at(struct diffstate *d, double t)
{
	size_t i;
	double w;

	if (d->have_b && d->b.t == t) {
		memcpy(d->vb, d->b.v, d->b.cols.n * sizeof *d->vb);
		return true;
	}
	if (!d->have_b || !d->have_bprev)
		return false;
	w = (t - d->bprev_t) / (d->b.t - d->bprev_t);
	for (i = 0; i < d->b.cols.n; i++)
		d->vb[i] = lerp(d->bprev[i], d->b.v[i], w);
	return true;
}

static void
diff_setup(struct diffstate *d)
{
	size_t i;
	ssize_t j;

	d->map = xcalloc(d->a.cols.n + 1, sizeof *d->map);
	d->cmp = xcalloc(d->a.cols.n + 1, sizeof *d->cmp);
	for (i = 0; i < d->a.cols.n; i++) {
		j = cols_index(&d->b.cols, d->a.cols.v[i].name);
		d->map[i] = j;
	}
	d->bprev = xcalloc(d->b.cols.n + 1, sizeof *d->bprev);
	d->vb = xcalloc(d->b.cols.n + 1, sizeof *d->vb);
}

static int
diff_stream(struct diffstate *d, const struct ist_opts *o)
{
	const struct ist_sel *sel = &o->sel;
	size_t i;
	int rc;

	if ((rc = src_next(&d->b, sel, COLS_LAX)) < 0)
		return -1;
	d->have_b = rc > 0;
	while ((rc = src_next(&d->a, sel, COLS_LAX)) > 0) {
		if (!d->map)
			diff_setup(d);
		if (advance_b(d, sel, d->a.t) < 0)
			return -1;
		if (!b_at(d, d->a.t)) {
			note_outside(d, d->a.t);
			continue;
		}
		for (i = 0; i < d->a.cols.n; i++)
			if (d->map[i] >= 0)
				compare(&d->cmp[i], d->a.v[i],
				    d->vb[d->map[i]], d->a.t, o->tol,
				    o->reltol);
	}
	if (rc < 0)
		return -1;
	/* B lines after A's end are covered by B only. */
	while (d->have_b) {
		if (d->a.n == 0 || d->b.t > d->a.t)
			note_outside(d, d->b.t);
		if ((rc = src_next(&d->b, sel, COLS_LAX)) < 0)
			return -1;
		d->have_b = rc > 0;
	}
	return 0;
}

static void
put_diff_line(struct phys_buf *b, const char *field, const struct cmp *c,
    const char *only)
{
	buf_puts(b, "{\"field\":");
	put_jstr(b, field, strlen(field));
	if (only) {
		buf_puts(b, ",\"only_in\":");
		put_jstr(b, only, strlen(only));
	} else {
		buf_puts(b, ",\"max_abs\":");
		buf_double(b, c->max_abs);
		buf_puts(b, ",\"max_rel\":");
		buf_double(b, c->max_rel);
		buf_puts(b, ",\"first_t\":");
		if (c->differ)
			buf_double(b, c->first_t);
		else
			buf_puts(b, "null");
	}
	buf_puts(b, "}\n");
}

static void
diff_report(struct diffstate *d, const struct ist_opts *o, bool *differ)
{
	struct phys_buf b = { 0 };
	struct cmp tc = { 0 };
	size_t i;

	if (d->a.n == 0 || d->b.n == 0) {
		if (d->a.n != d->b.n) {
			put_diff_line(&b, "t", NULL, d->a.n ? d->a.r.name :
			    d->b.r.name);
			*differ = true;
		}
	} else if (d->outside) {
		tc.max_abs = fmax(fabs(d->a.first_t - d->b.first_t),
		    fabs(d->a.t - d->b.t));
		tc.max_rel = tc.max_abs / fmax(fmax(fabs(d->a.first_t),
		    fabs(d->b.first_t)), fmax(fabs(d->a.t), fabs(d->b.t)));
		tc.differ = true;
		tc.first_t = d->outside_t;
		put_diff_line(&b, "t", &tc, NULL);
		*differ = true;
	}
	for (i = 0; i < d->a.cols.n; i++) {
		if (d->map && d->map[i] >= 0) {
			put_diff_line(&b, d->a.cols.v[i].name, &d->cmp[i],
			    NULL);
			*differ |= d->cmp[i].differ;
		} else {
			put_diff_line(&b, d->a.cols.v[i].name, NULL,
			    d->a.r.name);
			*differ = true;
		}
	}
	for (i = 0; i < d->b.cols.n; i++)
		if (cols_index(&d->a.cols, d->b.cols.v[i].name) < 0) {
			put_diff_line(&b, d->b.cols.v[i].name, NULL,
			    d->b.r.name);
			*differ = true;
		}
	fwrite(b.s ? b.s : "", 1, b.len, o->out);
	buf_free(&b);
}

/* Selectors must match something in at least one of the runs. */
static int
diff_check_sel(struct diffstate *d, const struct ist_sel *sel)
{
	size_t i;

	for (i = 0; i < sel->n; i++)
		if ((!d->a.hits || d->a.hits[i] == 0) &&
		    (!d->b.hits || d->b.hits[i] == 0))
			return phys_fail("selector '%s' matches nothing in "
			    "either run", sel->pat[i]);
	return 0;
}

int
ist_diff(const struct ist_opts *o, const char *a, const char *b,
    bool *differ)
{
	struct diffstate d;
	int rc = -1;

	memset(&d, 0, sizeof d);
	*differ = false;
	if (src_open(&d.a, a, NULL) == 0 && src_open(&d.b, b, NULL) == 0 &&
	    diff_stream(&d, o) == 0) {
		rc = 0;
		if (d.a.n + d.b.n > 0 && diff_check_sel(&d, &o->sel) < 0)
			rc = -1;
		else
			diff_report(&d, o, differ);
	}
	src_close(&d.a);
	src_close(&d.b);
	free(d.map);
	free(d.cmp);
	free(d.bprev);
	free(d.vb);
	return rc;
}

/* ---- units and plots ------------------------------------------------- */

/* Units come from the item table: "box::link/pose.z" is in m. */
const char *
ist_unit(const char *name)
{
	const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
	char *item;
	const char *u;

	if (!dot || (slash && dot < slash))
		return phys_item_unit(name, NULL);
	item = xstrndup(name, (size_t)(dot - name));
	u = phys_item_unit(item, dot + 1);
	free(item);
	return u;
}

/* The y axis: the common tail of the fields and their units. */
static char *
ylabel(const struct cols *const *cs, size_t nc)
{
	struct phys_buf u = { 0 };
	const char *tail = NULL, *t, *unit;
	bool same = true;
	size_t i, k;
	char *label;

	for (k = 0; k < nc; k++)
		for (i = 0; i < cs[k]->n; i++) {
			t = strrchr(cs[k]->v[i].name, '/');
			t = t ? t + 1 : cs[k]->v[i].name;
			if (tail && strcmp(tail, t) != 0)
				same = false;
			tail = t;
			unit = ist_unit(cs[k]->v[i].name);
			if (!unit || (u.s && (strcmp(u.s, unit) == 0 ||
			    strstr(u.s, unit))))
				continue;
			if (u.len)
				buf_puts(&u, ", ");
			buf_puts(&u, unit);
		}
	label = xasprintf("%s%s%s%s", same && tail ? tail : "value",
	    u.len ? " [" : "", u.len ? u.s : "", u.len ? "]" : "");
	buf_free(&u);
	return label;
}

struct table {
	struct cols cols;
	const char *name;
	double *t, *v;
	size_t nrows, cap;
};

static void
table_add(struct table *tb, size_t n, double t, const double *v)
{
	if (tb->nrows == tb->cap) {
		tb->cap = tb->cap ? 2 * tb->cap : 1024;
		tb->t = xrealloc(tb->t, tb->cap * sizeof *tb->t);
		tb->v = xrealloc(tb->v, tb->cap * (n ? n : 1) * sizeof *tb->v);
	}
	tb->t[tb->nrows] = t;
	memcpy(tb->v + tb->nrows * n, v, n * sizeof *v);
	tb->nrows++;
}

static int
table_load(struct table *tb, const struct ist_opts *o, const char *path)
{
	struct sampler sm = { &o->samp, 0, false, 0 };
	struct src s;
	size_t skip, n;
	int rc;

	memset(tb, 0, sizeof *tb);
	tb->name = phys_display_name(path);
	if (src_open(&s, path, NULL) < 0) {
		src_close(&s);
		return -1;
	}
	while ((rc = src_next(&s, &o->sel, 0)) > 0)
		if (sample(&sm, s.t))
			table_add(tb, s.cols.n, s.t, s.v);
	cols_copy(&tb->cols, &s.cols);
	src_close(&s);
	if (rc < 0)
		return -1;
	if (tb->nrows == 0)
		return phys_failat(tb->name, 0, "no state lines to plot");
	n = tb->cols.n;
	if (o->samp.window > 0 && tb->nrows > (size_t)o->samp.window) {
		skip = tb->nrows - (size_t)o->samp.window;
		memmove(tb->t, tb->t + skip, (size_t)o->samp.window *
		    sizeof *tb->t);
		memmove(tb->v, tb->v + skip * n, (size_t)o->samp.window * n *
		    sizeof *tb->v);
		tb->nrows = (size_t)o->samp.window;
	}
	return 0;
}

static void
table_free(struct table *tb)
{
	cols_free(&tb->cols);
	free(tb->t);
	free(tb->v);
}

/* A gnuplot single-quoted string: only the quote itself is special. */
static void
put_gpstr(struct phys_buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_putc(b, '\'');
		buf_putc(b, *s == '\n' ? ' ' : *s);
	}
	buf_putc(b, '\'');
}

static void
put_gpnum(struct phys_buf *b, double v)
{
	if (isfinite(v))
		buf_double(b, v);
	else
		buf_puts(b, "NaN");	/* a gap in the line */
}

static bool
has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);

	return n > k && strcasecmp(path + n - k, ext) == 0;
}

static void
terminal_size(int *w, int *h)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	long v;

	*w = 80;
	*h = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		*w = ws.ws_col;
		*h = ws.ws_row;
	} else {
		if (c && phys_parse_long(c, &v) && v > 20 && v < 1000)
			*w = (int)v;
		if (l && phys_parse_long(l, &v) && v > 5 && v < 1000)
			*h = (int)v;
	}
	if (*h > 6)
		(*h)--;		/* room for the prompt */
}

static void
put_terminal(struct phys_buf *b, const char *output, const char *tmp)
{
	int w, h;

	if (!output) {
		terminal_size(&w, &h);
		buf_printf(b, "set terminal dumb noenhanced nofeed size "
		    "%d,%d\n", w, h);
		return;
	}
	if (has_ext(output, ".svg"))
		buf_puts(b, "set terminal svg noenhanced size 1024,640\n");
	else
		buf_puts(b, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		    "  set terminal pngcairo noenhanced size 1024,640\n"
		    "} else {\n"
		    "  set terminal png noenhanced size 1024,640\n"
		    "}\n");
	buf_puts(b, "set output ");
	put_gpstr(b, tmp);
	buf_putc(b, '\n');
}

static void
put_script(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const char *output, const char *tmp)
{
	const struct cols **cs = xcalloc(ntb, sizeof *cs);
	char *label, *title;
	size_t k, r, i;
	bool first = true;

	put_terminal(b, output, tmp);
	for (k = 0; k < ntb; k++)
		cs[k] = &tbs[k].cols;
	label = ylabel(cs, ntb);
	buf_puts(b, "set xlabel 'sim time [s]'\nset ylabel ");
	put_gpstr(b, label);
	buf_puts(b, "\nset grid\nset key below\n");
	free(label);
	free(cs);
	for (k = 0; k < ntb; k++) {
		buf_printf(b, "$run%zu << EOD\n", k + 1);
		for (r = 0; r < tbs[k].nrows; r++) {
			put_gpnum(b, tbs[k].t[r]);
			for (i = 0; i < tbs[k].cols.n; i++) {
				buf_putc(b, ' ');
				put_gpnum(b, tbs[k].v[r * tbs[k].cols.n + i]);
			}
			buf_putc(b, '\n');
		}
		buf_puts(b, "EOD\n");
	}
	buf_puts(b, "plot");
	for (k = 0; k < ntb; k++)
		for (i = 0; i < tbs[k].cols.n; i++) {
			title = ntb > 1 ? xasprintf("%s: %s", tbs[k].name,
			    tbs[k].cols.v[i].name) :
			    xstrdup(tbs[k].cols.v[i].name);
			buf_printf(b, "%s $run%zu using 1:%zu with lines "
			    "title ", first ? "" : ",", k + 1, i + 2);
			put_gpstr(b, title);
			free(title);
			first = false;
		}
	buf_puts(b, "\n");
	if (output)
		buf_puts(b, "unset output\n");
}

char *
ist_find_program(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;
	char *cand;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = e + 1) {
		e = strchrnul(p, ':');
		cand = e == p ? xasprintf("./%s", prog) :
		    xasprintf("%.*s/%s", (int)(e - p), p, prog);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!*e)
			return NULL;
	}
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* gnuplot reads the script on its standard input. */
static int
run_gnuplot(const char *prog, const struct phys_buf *script)
{
	void (*old)(int);
	int fds[2], status, werr = 0, bad;
	pid_t pid;

	if (pipe(fds) < 0)
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(prog, "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	/* A gnuplot that stops early must not kill us with SIGPIPE. */
	old = signal(SIGPIPE, SIG_IGN);
	bad = write_all(fds[1], script->s, script->len);
	if (bad)
		werr = errno;
	close(fds[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return phys_fail("gnuplot: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return phys_fail("cannot run %s", prog);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return phys_fail("gnuplot failed (%s %d)", WIFEXITED(status) ?
		    "exit status" : "signal", WIFEXITED(status) ?
		    WEXITSTATUS(status) : WTERMSIG(status));
	if (bad)
		return phys_fail("cannot write to gnuplot: %s",
		    strerror(werr));
	return 0;
}

/* New images get the usual permissions, not mkstemp's 0600. */
static void
image_mode(struct phys_atomic *a, const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0)
		return;
	mask = umask(0);
	umask(mask);
	(void)fchmod(fileno(a->fp), 0666 & ~mask);
}

static int
plot_tables(const struct ist_opts *o, const char *prog,
    const struct table *tbs, size_t ntb)
{
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	int rc;

	if (o->output) {
		if (phys_atomic_open(&a, o->output) < 0)
			return -1;
		image_mode(&a, o->output);
	}
	put_script(&script, tbs, ntb, o->output, o->output ? a.tmp : NULL);
	rc = run_gnuplot(prog, &script);
	buf_free(&script);
	if (!o->output)
		return rc;
	if (rc < 0) {
		phys_atomic_abort(&a);
		return -1;
	}
	return phys_atomic_commit(&a);
}

int
ist_plot(const struct ist_opts *o)
{
	struct table *tbs;
	char *prog;
	size_t k, n = 0;
	int rc = 0;

	if (!(prog = ist_find_program("gnuplot")))
		return phys_fail("gnuplot not found: install the Debian "
		    "package gnuplot-nox");
	tbs = xcalloc(o->ninputs, sizeof *tbs);
	for (k = 0; k < o->ninputs && rc == 0; k++, n++)
		rc = table_load(&tbs[k], o, o->inputs[k]);
	if (rc == 0)
		rc = plot_tables(o, prog, tbs, o->ninputs);
	for (k = 0; k < n; k++)
		table_free(&tbs[k]);
	free(tbs);
	free(prog);
	return rc;
}
