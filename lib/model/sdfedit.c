/*
 * sdfedit.c - edits of SDF documents that change only the bytes they must.
 *
 * Sources. The document's original text is one source; every piece of text
 * an edit inserts (a copied <physics> block, the elements set_text creates)
 * is a source of its own, already indented for the place it goes. A small
 * tokenizer finds every element of a source (start tag, end tag, nesting).
 * libxml2 builds its tree in document order, so the k-th element of the text
 * is the k-th element of a pre-order walk of the tree: each element node's
 * _private points at its record (names are checked). The original text is
 * tokenized once, on the first edit.
 *
 * Edits change the tree (so later lookups see them) and the records: new
 * text of a leaf, attribute changes, a removed flag, inserted nodes linked
 * into the tree with records in their own source. Each edit marks its node
 * and the ancestors dirty, stopping at the first one already dirty. Edits of
 * nodes that earlier edits inserted work the same way, on their source.
 *
 * Rendering walks the tree from the root. A clean element is copied byte for
 * byte from its source. A dirty one gets its start tag (attributes rewritten
 * in place, quote characters kept), then its new text (keeping the blanks
 * around a text-only content) or its children: the tree's element children
 * in order, each original child with the text before it, removed children
 * skipped together with their line, inserted ones taken from their source.
 * The cost is the size of the output plus the children of dirty elements:
 * a batch of edits is linear, whatever its size.
 *
 * Layout. An element "starts its line" when only blanks precede it on the
 * line, and "ends its line" when nothing but a same-line comment follows
 * before the newline. A new element goes after the sibling before it (or
 * before the first one, or inside an empty parent one level deeper); when
 * that neighbour has a line of its own so has the new element, indented the
 * same, otherwise it is written inline. One level of indentation is taken
 * from the document (default two spaces), the newline style too (LF, CRLF).
 *
 * Removed elements are kept (readable, but refused by further edits) until
 * the edits are freed. An edit inside an element that is removed later is
 * simply dropped with it.
 *
 * The tree and the text agree while edits are pending. After
 * phys_doc_edits_free() the tree keeps its changes but the text does not:
 * a later edit matches the tree to the text again and fails when elements
 * were added or removed.
 */
#include "sdfedit.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

enum {
	F_SELF = 1,		/* written <a/> */
	F_DIRTY = 2,		/* this element or something inside it changed */
	F_REMOVED = 4,		/* removed by phys_doc_remove */
	F_CLOSE = 8		/* children added to a parent written on one line */
};

struct attr_edit {
	char *name;
	char *value;		/* NULL: remove */
};

/* Edit state of one element, allocated on its first edit. */
struct recx {
	char *content;		/* new content, escaped; NULL when unchanged */
	struct attr_edit *attrs;
	size_t nattrs;
	char *close;		/* with F_CLOSE: newline and indent before </a> */
};

struct src;

/* One element of a source. Offsets are into src->text. */
struct rec {
	struct src *src;
	struct recx *x;
	uint32_t start;		/* '<' of the start tag */
	uint32_t stag_end;	/* just past the start tag's '>' */
	uint32_t etag_start;	/* '<' of the end tag; stag_end when <a/> */
	uint32_t end;		/* just past the element */
	int32_t parent, first_child, next_sib;	/* indices in src->recs */
	uint8_t flags;
};

struct src {
	const char *text;
	size_t len;
	char *own;		/* the text, when the source owns it */
	struct rec *recs;
	size_t nrecs;
	uint32_t *lines;	/* document: offsets of its newlines */
	size_t nlines;
	bool block;		/* inserted text (not the original document) */
	bool line;		/* block: starts with a newline, ends a line */
	char *base;		/* block: indentation of the line it starts on */
	/* render cursor over the top-level elements of a block */
	unsigned gen;
	size_t cur_pos;
	int32_t cur_child;
};

/* The edit session of a document; d->edits points at it. */
struct phys_sdf_edit {
	xmlDocPtr xml;
	struct src **srcs;	/* srcs[0] is the document */
	size_t nsrcs, capsrcs;
	char nl[3];		/* "\n" or "\r\n" */
	char *unit;		/* one level of indentation */
	unsigned gen;		/* render generation, for block cursors */
	xmlDocPtr attic;	/* holds removed elements; shares the dict */
};

/* ---- small helpers ---- */

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
is_nl(char c)
{
	return c == '\n' || c == '\r';
}

static bool
has_prefix(const char *t, size_t i, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n - i >= k && memcmp(t + i, p, k) == 0;
}

static const char *
find_str(const char *t, size_t from, size_t n, const char *pat)
{
	return memmem(t + from, n - from, pat, strlen(pat));
}

static void
put(struct phys_buf *b, const struct src *s, size_t from, size_t to)
{
	if (to > from)
		phys_buf_putn(b, s->text + from, to - from);
}

/* Length of the tag name starting at t[i]. */
static size_t
name_len(const char *t, size_t i, size_t n)
{
	size_t j = i;

	while (j < n && !is_ws(t[j]) && t[j] != '>' && t[j] != '/')
		j++;
	return j - i;
}

static bool
valid_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !(s[0] == '_' || s[0] == ':' ||
	    (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') ||
	    (unsigned char)s[0] >= 0x80))
		return false;
	for (i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(c == '_' || c == ':' || c == '-' || c == '.' ||
		    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c >= 0x80))
			return false;
	}
	return true;
}

/* Length of the UTF-8 sequence at s that XML 1.0 can hold, 0 if none:
 * no NUL or other control character but tab, newline and return, no
 * surrogate, nothing past U+10FFFF, not U+FFFE or U+FFFF. */
static size_t
xml_char_len(const unsigned char *s)
{
	unsigned long c;
	size_t n, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' ||
		    s[0] == '\r';
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe ||
	    c == 0xffff)
		return 0;
	return n;
}

bool
phys_xml_text_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p; p += n)
		if (!(n = xml_char_len(p)))
			return false;
	return true;
}

static int
refuse_text(const char *what, const char *s)
{
	struct phys_buf shown = { 0 };
	int rc;

	phys_buf_json_string(&shown, s);	/* controls made visible */
	rc = phys_fail("%s %s cannot be written in SDF: it is not UTF-8 text "
	    "or holds a control character", what, shown.s);
	phys_buf_free(&shown);
	return rc;
}

static void
put_text_escaped(struct phys_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': phys_buf_puts(b, "&amp;"); break;
		case '<': phys_buf_puts(b, "&lt;"); break;
		case '>': phys_buf_puts(b, "&gt;"); break;
		default: phys_buf_putc(b, *s);
		}
	}
}

static void
put_attr_escaped(struct phys_buf *b, const char *s, char q)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': phys_buf_puts(b, "&amp;"); break;
		case '<': phys_buf_puts(b, "&lt;"); break;
		case '\n': phys_buf_puts(b, "&#10;"); break;
		case '\r': phys_buf_puts(b, "&#13;"); break;
		case '\t': phys_buf_puts(b, "&#9;"); break;
		case '"':
			phys_buf_puts(b, q == '"' ? "&quot;" : "\"");
			break;
		case '\'':
			phys_buf_puts(b, q == '\'' ? "&apos;" : "'");
			break;
		default: phys_buf_putc(b, *s);
		}
	}
}

void
phys_buf_xml_attr(struct phys_buf *b, const char *s)
{
	put_attr_escaped(b, s, '"');
}

/* ---- tokenizer ---- */

static int
tok_fail(const char **why, const char *msg)
{
	*why = msg;
	return -1;
}

/* Past a <!DOCTYPE ...> (with its internal subset) starting at t[i]. */
static size_t
skip_decl(const char *t, size_t i, size_t n)
{
	size_t j = i + 2;
	int depth = 0;
	const char *e;

	while (j < n) {
		char c = t[j];

		if (c == '"' || c == '\'') {
			e = memchr(t + j + 1, c, n - j - 1);
			if (!e)
				return 0;
			j = (size_t)(e - t) + 1;
			continue;
		}
		if (has_prefix(t, j, n, "<!--")) {
			e = find_str(t, j + 4, n, "-->");
			if (!e)
				return 0;
			j = (size_t)(e - t) + 3;
			continue;
		}
		if (has_prefix(t, j, n, "<?")) {
			e = find_str(t, j + 2, n, "?>");
			if (!e)
				return 0;
			j = (size_t)(e - t) + 2;
			continue;
		}
		if (c == '[')
			depth++;
		else if (c == ']')
			depth--;
		else if (c == '>' && depth <= 0)
			return j + 1;
		j++;
	}
	return 0;
}

/* Find every element of s (a document or a sequence of elements). */
static int
tokenize(struct src *s, const char **why)
{
	const char *t = s->text, *e;
	size_t n = s->len, i = 0, cap = 0, depth = 0, scap = 0;
	int32_t *stk = NULL, *lastc = NULL, last_top = -1;
	int rc = -1;

	s->recs = NULL;
	s->nrecs = 0;
	if (n >= UINT32_MAX)
		return tok_fail(why, "text too large");
	while (i < n) {
		const char *lt = memchr(t + i, '<', n - i);
		struct rec *r;
		size_t j, idx;

		if (!lt)
			break;
		i = (size_t)(lt - t);
		if (has_prefix(t, i, n, "<?")) {
			if (!(e = find_str(t, i + 2, n, "?>")))
				goto bad;
			i = (size_t)(e - t) + 2;
			continue;
		}
		if (has_prefix(t, i, n, "<!--")) {
			if (!(e = find_str(t, i + 4, n, "-->")))
				goto bad;
			i = (size_t)(e - t) + 3;
			continue;
		}
		if (has_prefix(t, i, n, "<![CDATA[")) {
			if (!(e = find_str(t, i + 9, n, "]]>")))
				goto bad;
			i = (size_t)(e - t) + 3;
			continue;
		}
		if (has_prefix(t, i, n, "<!")) {
			if (!(j = skip_decl(t, i, n)))
				goto bad;
			i = j;
			continue;
		}
		if (has_prefix(t, i, n, "</")) {
			size_t nl1, nl2;

			if (depth == 0 || !(e = memchr(t + i, '>', n - i)))
				goto bad;
			r = &s->recs[stk[depth - 1]];
			nl1 = name_len(t, r->start + 1, n);
			nl2 = name_len(t, i + 2, n);
			if (nl1 != nl2 || memcmp(t + r->start + 1, t + i + 2,
			    nl1) != 0)
				goto bad;
			r->etag_start = (uint32_t)i;
			r->end = (uint32_t)(e - t) + 1;
			depth--;
			i = r->end;
			continue;
		}
		/* a start tag */
		if (s->nrecs == cap) {
			cap = cap ? cap * 2 : 64;
			s->recs = phys_xrealloc(s->recs, cap * sizeof *s->recs);
		}
		idx = s->nrecs++;
		r = &s->recs[idx];
		memset(r, 0, sizeof *r);
		r->src = s;
		r->start = (uint32_t)i;
		r->parent = depth ? stk[depth - 1] : -1;
		r->first_child = r->next_sib = -1;
		j = i + 1 + name_len(t, i + 1, n);
		if (j == i + 1)
			goto bad;
		for (;;) {
			while (j < n && is_ws(t[j]))
				j++;
			if (j >= n)
				goto bad;
			if (t[j] == '>') {
				j++;
				break;
			}
			if (t[j] == '/') {
				if (j + 1 >= n || t[j + 1] != '>')
					goto bad;
				j += 2;
				r->flags |= F_SELF;
				break;
			}
			while (j < n && !is_ws(t[j]) && t[j] != '=' &&
			    t[j] != '>' && t[j] != '/')
				j++;
			while (j < n && is_ws(t[j]))
				j++;
			if (j >= n || t[j] != '=')
				goto bad;
			j++;
			while (j < n && is_ws(t[j]))
				j++;
			if (j >= n || (t[j] != '"' && t[j] != '\''))
				goto bad;
			if (!(e = memchr(t + j + 1, t[j], n - j - 1)))
				goto bad;
			j = (size_t)(e - t) + 1;
		}
		r->stag_end = (uint32_t)j;
		if (r->flags & F_SELF)
			r->etag_start = r->end = (uint32_t)j;
		if (depth) {
			if (lastc[depth - 1] >= 0)
				s->recs[lastc[depth - 1]].next_sib = (int32_t)idx;
			else
				s->recs[stk[depth - 1]].first_child =
				    (int32_t)idx;
			lastc[depth - 1] = (int32_t)idx;
		} else {
			if (last_top >= 0)
				s->recs[last_top].next_sib = (int32_t)idx;
			last_top = (int32_t)idx;
		}
		if (!(r->flags & F_SELF)) {
			if (depth == scap) {
				scap = scap ? scap * 2 : 32;
				stk = phys_xrealloc(stk, scap * sizeof *stk);
				lastc = phys_xrealloc(lastc, scap * sizeof *lastc);
			}
			stk[depth] = (int32_t)idx;
			lastc[depth] = -1;
			depth++;
		}
		i = j;
	}
	if (depth != 0)
		goto bad;
	rc = 0;
	goto out;
bad:
	tok_fail(why, "its markup could not be followed");
	free(s->recs);
	s->recs = NULL;
	s->nrecs = 0;
out:
	free(stk);
	free(lastc);
	return rc;
}

/* ---- matching tree nodes to records ---- */

static bool
same_name(xmlNodePtr n, const struct rec *r)
{
	const char *t = r->src->text;
	size_t len = name_len(t, r->start + 1, r->src->len);
	const char *p = t + r->start + 1;
	size_t k;

	if (n->ns && n->ns->prefix) {
		k = strlen((const char *)n->ns->prefix);
		if (len <= k || memcmp(p, n->ns->prefix, k) != 0 ||
		    p[k] != ':')
			return false;
		p += k + 1;
		len -= k + 1;
	}
	return strlen((const char *)n->name) == len &&
	    memcmp(p, n->name, len) == 0;
}

/* Give the elements of the subtree at top, in document order, the records
 * of s from *k on; with s NULL, clear them. */
static int
map_subtree(xmlNodePtr top, struct src *s, size_t *k)
{
	xmlNodePtr n = top;

	for (;;) {
		if (n->type == XML_ELEMENT_NODE) {
			if (!s) {
				n->_private = NULL;
			} else {
				if (*k >= s->nrecs || !same_name(n, &s->recs[*k]))
					return -1;
				n->_private = &s->recs[(*k)++];
			}
			if (n->children) {
				n = n->children;
				continue;
			}
		}
		while (n != top && !n->next)
			n = n->parent;
		if (n == top)
			return 0;
		n = n->next;
	}
}

static struct rec *
rec_of(xmlNodePtr n)
{
	return n && n->type == XML_ELEMENT_NODE ? n->_private : NULL;
}

static int32_t
rec_index(const struct rec *r)
{
	return (int32_t)(r - r->src->recs);
}

/* ---- lines and indentation ---- */

/* Start of the whitespace run before r when r starts its line (the newline
 * before it, '\r' of "\r\n" included); otherwise r->start. */
static size_t
lead_from(const struct rec *r)
{
	const char *t = r->src->text;
	size_t p = r->start;

	while (p > 0 && is_blank(t[p - 1]))
		p--;
	if (p > 0 && t[p - 1] == '\n') {
		p--;
		if (p > 0 && t[p - 1] == '\r')
			p--;
		return p;
	}
	return r->start;
}

static bool
starts_line(const struct rec *r)
{
	const char *t = r->src->text;
	size_t p = r->start;

	while (p > 0 && is_blank(t[p - 1]))
		p--;
	return p == 0 ? !r->src->block : t[p - 1] == '\n';
}

/* Where the bytes that follow r on its line end: the newline after it
 * (not crossing the next sibling), or where its parent's content ends. */
static size_t
tail_to(const struct rec *r)
{
	const struct src *s = r->src;
	const char *t = s->text;
	size_t bound, p;
	const char *q;

	if (r->next_sib >= 0)
		bound = s->recs[r->next_sib].start;
	else if (r->parent >= 0)
		bound = s->recs[r->parent].etag_start;
	else
		bound = s->len;
	q = memchr(t + r->end, '\n', bound - r->end);
	if (!q)
		return bound;
	p = (size_t)(q - t);
	if (p > r->end && t[p - 1] == '\r')
		p--;
	return p;
}

static bool
ends_line(const struct rec *r)
{
	const struct src *s = r->src;
	size_t p = tail_to(r);

	if (p < s->len && is_nl(s->text[p]))
		return true;
	return s->block && s->line && r->parent < 0 && r->next_sib < 0 &&
	    p == s->len;
}

/* The first newline of r's content before its first child, or stag_end. */
static size_t
head_to(const struct rec *r)
{
	const struct src *s = r->src;
	const char *t = s->text;
	size_t bound = r->first_child >= 0 ? s->recs[r->first_child].start :
	    r->etag_start, p;
	const char *q = memchr(t + r->stag_end, '\n', bound - r->stag_end);

	if (!q)
		return r->stag_end;
	p = (size_t)(q - t);
	if (p > r->stag_end && t[p - 1] == '\r')
		p--;
	return p;
}

/* Index the newlines of the document, so a line start is found in
 * O(log n) even on a document written on one long line. */
static void
index_lines(struct src *s)
{
	const char *p = s->text, *end = s->text + s->len;
	size_t cap = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		if (s->nlines == cap) {
			cap = cap ? cap * 2 : 1024;
			s->lines = phys_xrealloc(s->lines, cap * sizeof *s->lines);
		}
		s->lines[s->nlines++] = (uint32_t)(p - s->text);
		p++;
	}
}

static size_t
line_start(const struct src *s, size_t pos)
{
	size_t lo = 0, hi = s->nlines, ls = pos;

	if (s->block) {
		while (ls > 0 && s->text[ls - 1] != '\n')
			ls--;
		return ls;
	}
	/* the last newline before pos */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->lines[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (size_t)s->lines[lo - 1] + 1 : 0;
}

/* The indentation of the line holding byte pos of s, as a new string. */
static char *
indent_at(const struct src *s, size_t pos)
{
	const char *t = s->text;
	size_t ls = line_start(s, pos), e;

	if (ls == 0 && s->block)
		return phys_xstrdup(s->base ? s->base : "");
	for (e = ls; e < s->len && is_blank(t[e]); e++)
		;
	return phys_xstrndup(t + ls, e - ls);
}

static char *
indent_of(const struct rec *r)
{
	return indent_at(r->src, r->start);
}

/* True when the line before r's line is blank. */
static bool
blank_line_before(const struct rec *r)
{
	const char *t = r->src->text;
	size_t q = lead_from(r);

	if (q == r->start)
		return false;
	while (q > 0 && is_blank(t[q - 1]))
		q--;
	return q > 0 && t[q - 1] == '\n';
}

/* True when the line after r's line is blank. */
static bool
blank_line_after(const struct rec *r)
{
	const struct src *s = r->src;
	size_t u = tail_to(r);

	if (u >= s->len || !is_nl(s->text[u]))
		return false;
	u += (s->text[u] == '\r') + 1;
	while (u < s->len && is_blank(s->text[u]))
		u++;
	return u < s->len && is_nl(s->text[u]);
}

/* The bytes a removal takes away: r with its line when r has a line of its
 * own (and one of two blank lines around it), else r and what follows it
 * on its line. */
static void
remove_range(const struct rec *r, size_t *from, size_t *to)
{
	const struct src *s = r->src;
	const char *t = s->text;
	size_t f = lead_from(r), e = tail_to(r), q, u;

	if (f == r->start || !ends_line(r)) {
		*from = r->start;
		*to = e;
		return;
	}
	/* blank line before and after: take the one before along */
	q = f;
	while (q > 0 && is_blank(t[q - 1]))
		q--;
	u = e < s->len ? e + (t[e] == '\r') + 1 : e;
	while (u < s->len && is_blank(t[u]))
		u++;
	if (q > 0 && t[q - 1] == '\n' && u < s->len && is_nl(t[u])) {
		q--;
		if (q > 0 && t[q - 1] == '\r')
			q--;
		f = q;
	}
	/* an inserted block's first element takes the block's blank lead */
	if (s->block && r->parent < 0) {
		for (q = 0; q < f && is_ws(t[q]); q++)
			;
		if (q == f)
			f = 0;
	}
	*from = f;
	*to = e;
}

/* ---- the session ---- */

static void
src_free(struct src *s)
{
	size_t i, k;

	if (!s)
		return;
	for (i = 0; i < s->nrecs; i++) {
		struct recx *x = s->recs[i].x;

		if (!x)
			continue;
		free(x->content);
		for (k = 0; k < x->nattrs; k++) {
			free(x->attrs[k].name);
			free(x->attrs[k].value);
		}
		free(x->attrs);
		free(x->close);
		free(x);
	}
	free(s->recs);
	free(s->lines);
	free(s->own);
	free(s->base);
	free(s);
}

static void
add_src(struct phys_sdf_edit *st, struct src *s)
{
	if (st->nsrcs == st->capsrcs) {
		st->capsrcs = st->capsrcs ? st->capsrcs * 2 : 16;
		st->srcs = phys_xrealloc(st->srcs, st->capsrcs * sizeof *st->srcs);
	}
	st->srcs[st->nsrcs++] = s;
}

static void
session_free(struct phys_sdf_edit *st)
{
	size_t i;

	/* the attic's nodes use its own dict reference, not the document */
	if (st->attic)
		xmlFreeDoc(st->attic);
	for (i = 0; i < st->nsrcs; i++)
		src_free(st->srcs[i]);
	free(st->srcs);
	free(st->unit);
	free(st);
}

void
phys_doc_edits_free(struct phys_doc *d)
{
	if (d->edits)
		session_free(d->edits);
	d->edits = NULL;
	d->nedits = d->capedits = 0;
}

/* One level of indentation: the first child that is indented deeper than
 * its parent on lines of their own. */
static char *
infer_unit(const struct src *s)
{
	size_t i;

	for (i = 0; i < s->nrecs; i++) {
		const struct rec *r = &s->recs[i], *p;
		char *ir, *ip;
		size_t lr, lp;

		if (r->parent < 0)
			continue;
		p = &s->recs[r->parent];
		if (!starts_line(r) || !starts_line(p))
			continue;
		ir = indent_of(r);
		ip = indent_of(p);
		lr = strlen(ir);
		lp = strlen(ip);
		if (lr > lp && memcmp(ir, ip, lp) == 0) {
			char *u = phys_xstrdup(ir + lp);

			free(ir);
			free(ip);
			return u;
		}
		free(ir);
		free(ip);
	}
	return phys_xstrdup("  ");
}

static struct phys_sdf_edit *
session(struct phys_doc *d)
{
	struct phys_sdf_edit *st;
	struct src *s;
	const char *why = NULL, *nl;
	size_t k = 0;

	if (d->edits)
		return d->edits;
	if (!d->xml || !d->root || !d->text) {
		phys_fail("%s: no document to edit", d->name ? d->name : "?");
		return NULL;
	}
	st = phys_xcalloc(1, sizeof *st);
	st->xml = d->xml;
	s = phys_xcalloc(1, sizeof *s);
	s->text = d->text;
	s->len = d->len;
	add_src(st, s);
	if (tokenize(s, &why) < 0 || map_subtree(d->root, s, &k) < 0 ||
	    k != s->nrecs) {
		map_subtree(d->root, NULL, NULL);
		session_free(st);
		phys_failat(d->name, 0, "cannot edit: %s",
		    why ? why : "its text and its elements do not match");
		return NULL;
	}
	index_lines(s);
	nl = memchr(d->text, '\n', d->len);
	strcpy(st->nl, nl && nl > d->text && nl[-1] == '\r' ? "\r\n" : "\n");
	st->unit = infer_unit(s);
	d->edits = st;
	d->edits_free = phys_doc_edits_free;
	return st;
}

static struct rec *
edit_rec(struct phys_doc *d, xmlNodePtr n, const char *what)
{
	struct phys_sdf_edit *st = d->edits;
	struct rec *r = rec_of(n);
	xmlNodePtr p;

	if (n && st && st->attic && n->doc == st->attic) {
		phys_failat(d->name, phys_node_line(n), "%s: <%s> was removed",
		    what, (const char *)n->name);
		return NULL;
	}
	for (p = n; p && p != d->root; p = p->parent)
		;
	if (!n || n->type != XML_ELEMENT_NODE || n->doc != d->xml || !r ||
	    !p) {
		phys_failat(d->name, 0, "%s: not an element of this document",
		    what);
		return NULL;
	}
	return r;
}

static struct recx *
recx(struct rec *r)
{
	if (!r->x)
		r->x = phys_xcalloc(1, sizeof *r->x);
	return r->x;
}

static void
mark_dirty(xmlNodePtr n)
{
	struct rec *r;

	for (; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
		if (!(r = n->_private) || (r->flags & F_DIRTY))
			return;
		r->flags |= F_DIRTY;
	}
}

static bool
has_element_child(xmlNodePtr n)
{
	return phys_child(n, NULL) != NULL;
}

static xmlNodePtr
last_element_child(xmlNodePtr n)
{
	xmlNodePtr c;

	for (c = n->last; c; c = c->prev)
		if (c->type == XML_ELEMENT_NODE)
			return c;
	return NULL;
}

/* ---- rendering ---- */

static int render_node(struct phys_sdf_edit *st, struct phys_buf *b,
    xmlNodePtr n);

static int
render_fail(xmlNodePtr n)
{
	return phys_fail("cannot render the edited document: <%s> was "
	    "changed outside the edit functions", n ? (const char *)n->name :
	    "?");
}

static struct attr_edit *
find_attr(struct recx *x, const char *name, size_t len)
{
	size_t i;

	for (i = 0; x && i < x->nattrs; i++)
		if (strlen(x->attrs[i].name) == len &&
		    memcmp(x->attrs[i].name, name, len) == 0)
			return &x->attrs[i];
	return NULL;
}

/* The start tag, attributes edited in place; expand turns <a/> into <a>. */
static void
emit_start_tag(struct phys_buf *b, const struct rec *r, bool expand)
{
	const struct src *s = r->src;
	const char *t = s->text, *e;
	size_t nattrs = r->x ? r->x->nattrs : 0;
	size_t p, pos, endws, i;
	char q0 = 0;
	bool *used;

	if (!nattrs && !expand) {
		put(b, s, r->start, r->stag_end);
		return;
	}
	used = phys_xcalloc(nattrs + 1, sizeof *used);
	p = r->start + 1 + name_len(t, r->start + 1, r->stag_end);
	pos = r->start;
	for (;;) {
		size_t ws = p, an, ae, vs, ve;
		struct attr_edit *ed;
		char q;

		while (p < r->stag_end && is_ws(t[p]))
			p++;
		if (p >= r->stag_end || t[p] == '>' || t[p] == '/') {
			endws = ws;
			break;
		}
		an = p;
		while (!is_ws(t[p]) && t[p] != '=')
			p++;
		ae = p;
		while (t[p] != '"' && t[p] != '\'')
			p++;
		q = t[p];
		if (!q0)
			q0 = q;
		vs = p + 1;
		e = memchr(t + vs, q, r->stag_end - vs);
		ve = (size_t)(e - t);
		p = ve + 1;
		ed = find_attr(r->x, t + an, ae - an);
		if (!ed)
			continue;
		used[ed - r->x->attrs] = true;
		if (!ed->value) {
			put(b, s, pos, ws);
			pos = p;
		} else {
			put(b, s, pos, vs);
			put_attr_escaped(b, ed->value, q);
			pos = ve;
		}
	}
	put(b, s, pos, endws);
	for (i = 0; i < nattrs; i++) {
		const struct attr_edit *ed = &r->x->attrs[i];
		char q = q0 ? q0 : '"';

		if (used[i] || !ed->value)
			continue;
		phys_buf_printf(b, " %s=%c", ed->name, q);
		put_attr_escaped(b, ed->value, q);
		phys_buf_putc(b, q);
	}
	free(used);
	if (expand)
		phys_buf_putc(b, '>');
	else
		put(b, s, endws, r->stag_end);
}

/* Skip removed record idx of s: copy what comes before its line. */
static int
skip_removed(struct phys_buf *b, const struct src *s, size_t *pos,
    int32_t idx)
{
	const struct rec *r = &s->recs[idx];
	size_t from, to;

	if (!(r->flags & F_REMOVED))
		return -1;
	remove_range(r, &from, &to);
	if (from < *pos)
		from = *pos;
	put(b, s, *pos, from);
	if (to > *pos)
		*pos = to;
	return 0;
}

/* A top-level element of a block, with the block text around it. */
static int
emit_block_unit(struct phys_sdf_edit *st, struct phys_buf *b, xmlNodePtr c,
    struct rec *rc)
{
	struct src *s = rc->src;
	int32_t idx = rec_index(rc), k;
	size_t t;

	if (s->gen != st->gen) {
		s->gen = st->gen;
		s->cur_pos = 0;
		s->cur_child = s->nrecs ? 0 : -1;
	}
	if (!s->block || rc->parent >= 0 || s->cur_child < 0 ||
	    idx < s->cur_child)
		return render_fail(c);
	while (s->cur_child != idx) {
		if (skip_removed(b, s, &s->cur_pos, s->cur_child) < 0)
			return render_fail(c);
		s->cur_child = s->recs[s->cur_child].next_sib;
	}
	put(b, s, s->cur_pos, rc->start);
	if (render_node(st, b, c) < 0)
		return -1;
	t = tail_to(rc);
	put(b, s, rc->end, t);
	s->cur_pos = t;
	s->cur_child = rc->next_sib;
	/* the rest of the block once its last element is out */
	for (k = s->cur_child; k >= 0 && (s->recs[k].flags & F_REMOVED);
	    k = s->recs[k].next_sib)
		;
	if (k < 0) {
		while (s->cur_child >= 0) {
			skip_removed(b, s, &s->cur_pos, s->cur_child);
			s->cur_child = s->recs[s->cur_child].next_sib;
		}
		put(b, s, s->cur_pos, s->len);
		s->cur_pos = s->len;
	}
	return 0;
}

static int
render_children(struct phys_sdf_edit *st, struct phys_buf *b, xmlNodePtr n,
    struct rec *r)
{
	const struct src *s = r->src;
	int32_t ri = rec_index(r), cp = r->first_child;
	size_t pos = r->stag_end, head = head_to(r), t, end;
	xmlNodePtr c;

	for (c = n->children; c; c = c->next) {
		struct rec *rc;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!(rc = c->_private))
			return render_fail(c);
		if (rc->src == s && rc->parent == ri) {
			int32_t idx = rec_index(rc);

			if (cp < 0 || idx < cp)
				return render_fail(c);
			while (cp != idx) {
				if (skip_removed(b, s, &pos, cp) < 0)
					return render_fail(c);
				cp = s->recs[cp].next_sib;
			}
			put(b, s, pos, rc->start);
			if (render_node(st, b, c) < 0)
				return -1;
			t = tail_to(rc);
			put(b, s, rc->end, t);
			pos = t;
			cp = rc->next_sib;
		} else {
			if (pos == r->stag_end) {
				put(b, s, pos, head);
				pos = head;
			}
			if (emit_block_unit(st, b, c, rc) < 0)
				return -1;
		}
	}
	while (cp >= 0) {
		if (skip_removed(b, s, &pos, cp) < 0)
			return render_fail(n);
		cp = s->recs[cp].next_sib;
	}
	end = r->etag_start;
	if (r->flags & F_CLOSE) {
		while (end > pos && is_blank(s->text[end - 1]))
			end--;
		put(b, s, pos, end);
		phys_buf_puts(b, r->x->close);
	} else {
		put(b, s, pos, end);
	}
	return 0;
}

/* Leading and trailing blanks of r's content when it is plain text. */
static void
content_blanks(const struct rec *r, size_t *lead, size_t *trail)
{
	const char *t = r->src->text;
	size_t a = r->stag_end, z = r->etag_start;

	*lead = *trail = 0;
	if ((r->flags & F_SELF) || memchr(t + a, '<', z - a))
		return;
	while (a < z && is_ws(t[a]))
		a++;
	while (z > a && is_ws(t[z - 1]))
		z--;
	*lead = a - r->stag_end;
	*trail = r->etag_start - z;
}

static int
render_node(struct phys_sdf_edit *st, struct phys_buf *b, xmlNodePtr n)
{
	struct rec *r = n->_private;
	const struct src *s;
	const char *content;
	bool self, expand;

	if (!r)
		return render_fail(n);
	s = r->src;
	if (!(r->flags & F_DIRTY)) {
		put(b, s, r->start, r->end);
		return 0;
	}
	self = r->flags & F_SELF;
	content = r->x ? r->x->content : NULL;
	expand = self && ((content && *content) || (r->flags & F_CLOSE) ||
	    (!content && has_element_child(n)));
	emit_start_tag(b, r, expand);
	if (self && !expand)
		return 0;
	if (content) {
		size_t lead, trail;

		content_blanks(r, &lead, &trail);
		put(b, s, r->stag_end, r->stag_end + lead);
		phys_buf_puts(b, content);
		put(b, s, r->etag_start - trail, r->etag_start);
	} else if (render_children(st, b, n, r) < 0) {
		return -1;
	}
	if (self) {
		phys_buf_puts(b, "</");
		phys_buf_putn(b, s->text + r->start + 1,
		    name_len(s->text, r->start + 1, r->stag_end));
		phys_buf_putc(b, '>');
	} else {
		put(b, s, r->etag_start, r->end);
	}
	return 0;
}

char *
phys_doc_render(struct phys_doc *d, size_t *len)
{
	struct phys_sdf_edit *st = d->edits;
	struct phys_buf b = { 0 };
	const struct rec *r;

	if (!st) {
		if (len)
			*len = d->len;
		return phys_xstrndup(d->text ? d->text : "", d->len);
	}
	if (!(r = rec_of(d->root))) {
		render_fail(d->root);
		return NULL;
	}
	st->gen++;
	phys_buf_reserve(&b, d->len + 64);
	put(&b, r->src, 0, r->start);
	if (render_node(st, &b, d->root) < 0) {
		phys_buf_free(&b);
		return NULL;
	}
	put(&b, r->src, r->end, r->src->len);
	if (len)
		*len = b.len;
	return b.s;
}

char *
phys_doc_node_text(struct phys_doc *d, xmlNodePtr n)
{
	struct phys_sdf_edit *st = session(d);
	struct phys_buf b = { 0 }, o = { 0 };
	struct rec *r;
	char *ind;
	size_t il, i, k;

	if (!st || !(r = edit_rec(d, n, "node text")))
		return NULL;
	st->gen++;
	if (render_node(st, &b, n) < 0) {
		phys_buf_free(&b);
		return NULL;
	}
	ind = indent_of(r);
	il = strlen(ind);
	phys_buf_reserve(&o, b.len + 1);
	for (i = 0; i < b.len; i++) {
		phys_buf_putc(&o, b.s[i]);
		if (b.s[i] != '\n')
			continue;
		for (k = 0; k < il && i + 1 < b.len && b.s[i + 1] == ind[k];
		    k++)
			i++;
	}
	if (!o.s)
		phys_buf_putn(&o, "", 0);
	free(ind);
	phys_buf_free(&b);
	return o.s;
}

/* ---- insertion ---- */

/* Where and how a new block goes. */
struct place {
	xmlNodePtr parent;
	xmlNodePtr prev;	/* after this element, or */
	xmlNodePtr next;	/* before this first element child, or neither:
				 * into the empty parent */
	bool line;		/* on lines of its own */
	bool blank;		/* after a blank line, as prev is followed by one */
	char *indent;		/* of the block's lines */
	char *base;		/* of the line an inline block starts on */
	char *close;		/* open up a one-line parent: newline + indent */
};

static void
place_free(struct place *pl)
{
	free(pl->indent);
	free(pl->base);
	free(pl->close);
}

static int
make_place(struct phys_doc *d, struct phys_sdf_edit *st, xmlNodePtr parent,
    xmlNodePtr prev, xmlNodePtr next, struct place *pl)
{
	struct rec *rp = edit_rec(d, parent, "insert"), *r;

	memset(pl, 0, sizeof *pl);
	if (!rp)
		return -1;
	if (rp->x && rp->x->content)
		return phys_failat(d->name, phys_node_line(parent),
		    "cannot add elements inside <%s> after setting its text",
		    (const char *)parent->name);
	pl->parent = parent;
	pl->prev = prev;
	pl->next = next;
	if (prev) {
		if (!(r = edit_rec(d, prev, "insert")))
			return -1;
		pl->line = starts_line(r) && ends_line(r);
		pl->indent = indent_of(r);
		pl->base = indent_at(r->src, r->end);
		/* siblings spaced out by blank lines */
		pl->blank = pl->line && blank_line_after(r) &&
		    (r->next_sib >= 0 || blank_line_before(r));
	} else if (next) {
		if (!(r = edit_rec(d, next, "insert")))
			return -1;
		pl->line = starts_line(r);
		pl->indent = indent_of(r);
		pl->base = indent_at(rp->src, head_to(rp));
	} else {
		char *pi = indent_of(rp);
		const struct src *s = rp->src;

		pl->line = starts_line(rp);
		pl->indent = phys_xasprintf("%s%s", pi, st->unit);
		pl->base = indent_at(s, rp->stag_end);
		if (pl->line && !(rp->flags & F_CLOSE) &&
		    !memchr(s->text + rp->stag_end, '\n',
		    rp->etag_start - rp->stag_end))
			pl->close = phys_xasprintf("%s%s", st->nl, pi);
		free(pi);
	}
	return 0;
}

/* Link the top-level nodes of list (consumed) at pl; elements only. */
static void
link_nodes(struct place *pl, xmlNodePtr *nodes, size_t n)
{
	xmlNodePtr prev = pl->prev;
	size_t i;

	for (i = 0; i < n; i++) {
		if (prev)
			xmlAddNextSibling(prev, nodes[i]);
		else if (pl->next)
			xmlAddPrevSibling(pl->next, nodes[i]);
		else
			xmlAddChild(pl->parent, nodes[i]);
		if (prev)
			prev = nodes[i];
	}
}

/*
 * Add the block text (consumed) at pl. chain: the nodes set_text built for
 * it (one nested chain); NULL to parse the text in the parent's context.
 */
static int
add_block(struct phys_doc *d, struct phys_sdf_edit *st, struct place *pl,
    char *text, size_t len, xmlNodePtr chain)
{
	struct src *s = phys_xcalloc(1, sizeof *s);
	xmlNodePtr list = chain, c, next, *nodes = NULL;
	size_t nn = 0, k = 0;
	const char *why = NULL;
	struct rec *rp;
	int rc = -1;

	s->own = text;
	s->text = text;
	s->len = len;
	s->block = true;
	s->line = pl->line;
	s->base = phys_xstrdup(pl->base ? pl->base : "");
	s->cur_child = -1;
	if (!chain) {
		xmlParserErrors err;
		const xmlError *e;

		if (len > INT_MAX) {
			phys_failat(d->name, 0, "cannot insert: text too large");
			goto out;
		}
		xmlResetLastError();
		err = xmlParseInNodeContext(pl->parent, text, (int)len,
		    XML_PARSE_NONET, &list);
		if (err != XML_ERR_OK) {
			char *msg;

			e = xmlGetLastError();
			msg = phys_xstrdup(e && e->message ? e->message :
			    "not well-formed XML");
			for (k = strlen(msg); k > 0 && is_ws(msg[k - 1]); k--)
				msg[k - 1] = '\0';
			phys_failat(d->name, 0, "cannot insert: malformed XML: %s",
			    msg);
			free(msg);
			xmlFreeNodeList(list);
			list = NULL;
			goto out;
		}
	}
	if (tokenize(s, &why) < 0 || s->nrecs == 0) {
		phys_failat(d->name, 0, "cannot insert: the text is not a "
		    "sequence of XML elements");
		goto out;
	}
	/* only elements (with blanks, comments and PIs between) */
	for (c = list; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE || c->type == XML_COMMENT_NODE ||
		    c->type == XML_PI_NODE)
			continue;
		if (c->type == XML_TEXT_NODE && c->content) {
			const xmlChar *p = c->content;

			while (*p && is_ws((char)*p))
				p++;
			if (!*p)
				continue;
		}
		phys_failat(d->name, 0, "cannot insert: only elements may be "
		    "inserted, not text");
		goto out;
	}
	for (c = list, k = 0; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && map_subtree(c, s, &k) < 0)
			break;
	if (c || k != s->nrecs) {
		phys_failat(d->name, 0, "cannot insert: the text and its "
		    "elements do not match");
		goto out;
	}
	/* detach the list, keep its elements */
	nodes = phys_xcalloc(s->nrecs + 1, sizeof *nodes);
	for (c = list; c; c = next) {
		next = c->next;
		c->next = c->prev = NULL;
		c->parent = NULL;
		if (c->type == XML_ELEMENT_NODE)
			nodes[nn++] = c;
		else
			xmlFreeNode(c);
	}
	list = NULL;
	link_nodes(pl, nodes, nn);
	rp = pl->parent->_private;
	if (pl->close) {
		rp->flags |= F_CLOSE;
		free(recx(rp)->close);
		rp->x->close = pl->close;
		pl->close = NULL;
	}
	mark_dirty(pl->parent);
	add_src(st, s);
	s = NULL;
	d->nedits++;
	rc = 0;
out:
	if (list) {
		for (c = list; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				map_subtree(c, NULL, NULL);
		xmlFreeNodeList(list);
	}
	free(nodes);
	src_free(s);
	return rc;
}

/*
 * The block for xml_text at pl: its lines (blank lines around it dropped,
 * the first line's indentation taken off every line, "\r\n" normalised)
 * each on a new line with pl->indent; inline, the first line as is.
 */
static char *
block_text(struct phys_sdf_edit *st, const struct place *pl,
    const char *xml_text, size_t *len)
{
	struct phys_buf b = { 0 };
	const char *p = xml_text, *end = xml_text + strlen(xml_text), *ls;
	const char *ind0;
	size_t il0, k;
	bool first = true;

	/* drop leading blank lines and trailing whitespace */
	for (ls = p; p < end && is_ws(*p); p++)
		if (*p == '\n')
			ls = p + 1;
	p = ls;
	while (end > p && is_ws(end[-1]))
		end--;
	ind0 = p;
	for (il0 = 0; p + il0 < end && is_blank(p[il0]); il0++)
		;
	if (pl->blank)
		phys_buf_puts(&b, st->nl);
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p), blank;

		if (n > 0 && p[n - 1] == '\r')
			n--;
		for (k = 0; k < il0 && k < n && p[k] == ind0[k]; k++)
			;
		p += k;
		n -= k;
		for (blank = 0; blank < n && is_blank(p[blank]); blank++)
			;
		if (!first || pl->line)
			phys_buf_puts(&b, st->nl);
		if (blank < n) {
			if (!first || pl->line)
				phys_buf_puts(&b, pl->indent);
			phys_buf_putn(&b, p, n);
		}
		first = false;
		if (!e)
			break;
		p = e + 1;
	}
	if (!b.s)
		phys_buf_putn(&b, "", 0);
	*len = b.len;
	return b.s;
}

static int
insert_text(struct phys_doc *d, struct phys_sdf_edit *st, struct place *pl,
    const char *xml_text)
{
	size_t len;
	char *text;

	if (!xml_text)
		return phys_fail("cannot insert: no text");
	text = block_text(st, pl, xml_text, &len);
	if (len == 0) {
		free(text);
		return phys_failat(d->name, 0, "cannot insert: empty text");
	}
	return add_block(d, st, pl, text, len, NULL);
}

int
phys_doc_insert_after(struct phys_doc *d, xmlNodePtr after,
    const char *xml_text)
{
	struct phys_sdf_edit *st = session(d);
	struct place pl;
	int rc;

	if (!st || !edit_rec(d, after, "insert after"))
		return -1;
	if (after == d->root || !after->parent ||
	    after->parent->type != XML_ELEMENT_NODE)
		return phys_failat(d->name, phys_node_line(after),
		    "cannot insert after the root element");
	if (make_place(d, st, after->parent, after, NULL, &pl) < 0) {
		place_free(&pl);
		return -1;
	}
	rc = insert_text(d, st, &pl, xml_text);
	place_free(&pl);
	return rc;
}

int
phys_doc_append_child(struct phys_doc *d, xmlNodePtr parent,
    const char *xml_text)
{
	struct phys_sdf_edit *st = session(d);
	struct place pl;
	int rc;

	if (!st || !edit_rec(d, parent, "append"))
		return -1;
	if (make_place(d, st, parent, last_element_child(parent), NULL,
	    &pl) < 0) {
		place_free(&pl);
		return -1;
	}
	rc = insert_text(d, st, &pl, xml_text);
	place_free(&pl);
	return rc;
}

/* ---- removal and attributes ---- */

int
phys_doc_remove(struct phys_doc *d, xmlNodePtr n)
{
	struct phys_sdf_edit *st = session(d);
	struct rec *r;
	xmlNodePtr parent;

	if (!st || !(r = edit_rec(d, n, "remove")))
		return -1;
	parent = n->parent;
	if (n == d->root || !parent || parent->type != XML_ELEMENT_NODE)
		return phys_failat(d->name, phys_node_line(n),
		    "cannot remove the root element");
	r->flags |= F_REMOVED;
	mark_dirty(parent);
	/*
	 * The node is kept until the edits are freed, so pointers to it stay
	 * readable and edits of it fail cleanly. It moves to a document of
	 * its own sharing the dictionary its names live in, as d->xml may be
	 * freed first (phys_doc_free).
	 */
	if (!st->attic) {
		st->attic = xmlNewDoc(NULL);
		if (!st->attic)
			phys_die(PHYS_EXIT_FAIL, "out of memory");
		if (d->xml->dict) {
			st->attic->dict = d->xml->dict;
			xmlDictReference(st->attic->dict);
		}
	}
	xmlUnlinkNode(n);
	xmlSetTreeDoc(n, st->attic);
	xmlAddChild((xmlNodePtr)st->attic, n);
	d->nedits++;
	return 0;
}

int
phys_doc_set_attr(struct phys_doc *d, xmlNodePtr n, const char *name,
    const char *value)
{
	struct phys_sdf_edit *st = session(d);
	struct attr_edit *ed;
	struct recx *x;
	struct rec *r;

	if (!st || !(r = edit_rec(d, n, "set attribute")))
		return -1;
	if (!name || !valid_name(name, strlen(name)))
		return phys_fail("invalid attribute name '%s'",
		    name ? name : "");
	if (value && !phys_xml_text_ok(value))
		return refuse_text("the value", value);
	x = recx(r);
	if (!(ed = find_attr(x, name, strlen(name)))) {
		x->attrs = phys_xrealloc(x->attrs, (x->nattrs + 1) *
		    sizeof *x->attrs);
		ed = &x->attrs[x->nattrs++];
		ed->name = phys_xstrdup(name);
		ed->value = NULL;
	}
	free(ed->value);
	ed->value = value ? phys_xstrdup(value) : NULL;
	if (value)
		xmlSetProp(n, (const xmlChar *)name, (const xmlChar *)value);
	else
		xmlUnsetProp(n, (const xmlChar *)name);
	mark_dirty(n);
	d->nedits++;
	return 0;
}

/* ---- text ---- */

static int
set_leaf(struct phys_doc *d, xmlNodePtr n, const char *text)
{
	struct rec *r = edit_rec(d, n, "set text");
	struct phys_buf b = { 0 }, raw = { 0 };
	size_t lead = 0, trail = 0;
	struct recx *x;

	if (!r)
		return -1;
	if (has_element_child(n))
		return phys_failat(d->name, phys_node_line(n),
		    "<%s> has child elements; cannot set its text",
		    (const char *)n->name);
	x = recx(r);
	put_text_escaped(&b, text);
	if (!b.s)
		phys_buf_putn(&b, "", 0);
	free(x->content);
	x->content = b.s;
	/* the tree gets the same text, blanks around it included */
	if (!(r->flags & F_SELF)) {
		content_blanks(r, &lead, &trail);
		put(&raw, r->src, r->stag_end, r->stag_end + lead);
	}
	phys_buf_puts(&raw, text);
	if (!(r->flags & F_SELF))
		put(&raw, r->src, r->etag_start - trail, r->etag_start);
	xmlNodeSetContent(n, NULL);
	if (raw.len)
		xmlNodeAddContentLen(n, (const xmlChar *)raw.s, (int)raw.len);
	phys_buf_free(&raw);
	mark_dirty(n);
	d->nedits++;
	return 0;
}

static int
rank_key(phys_rank_fn rank, const void *ctx, xmlNodePtr owner,
    const char *path)
{
	int k = rank ? rank(ctx, owner, path) : -1;

	return k < 0 ? INT_MAX : k;
}

/* Elements comps[i..n-1], nested, around text: the block and its nodes. */
static int
create_path(struct phys_doc *d, struct phys_sdf_edit *st, xmlNodePtr owner,
    xmlNodePtr parent, char **comps, size_t i, size_t n, const char *text,
    phys_rank_fn rank, const void *ctx)
{
	struct phys_buf path = { 0 }, blk = { 0 };
	xmlNodePtr x, target = NULL, last = NULL, top, cur;
	struct place pl;
	size_t k, plen, lvl;
	int newkey, rc;

	for (k = 0; k < i; k++)
		phys_buf_printf(&path, "%s.", comps[k]);
	plen = path.len;
	phys_buf_puts(&path, comps[i]);
	newkey = rank_key(rank, ctx, owner, path.s);
	for (x = phys_child(parent, NULL); x; x = phys_next(x, NULL)) {
		path.len = plen;
		path.s[plen] = '\0';
		phys_buf_puts(&path, (const char *)x->name);
		if (rank_key(rank, ctx, owner, path.s) > newkey) {
			target = x;
			break;
		}
		last = x;
	}
	phys_buf_free(&path);
	if (make_place(d, st, parent, last, last ? NULL : target, &pl) < 0) {
		place_free(&pl);
		return -1;
	}
	/* the text */
	if (pl.blank)
		phys_buf_puts(&blk, st->nl);
	if (pl.line)
		phys_buf_printf(&blk, "%s%s", st->nl, pl.indent);
	for (k = i; k < n; k++) {
		if (k > i && pl.line) {
			phys_buf_printf(&blk, "%s%s", st->nl, pl.indent);
			for (lvl = i; lvl < k; lvl++)
				phys_buf_puts(&blk, st->unit);
		}
		phys_buf_printf(&blk, "<%s>", comps[k]);
	}
	put_text_escaped(&blk, text);
	for (k = n; k-- > i;) {
		phys_buf_printf(&blk, "</%s>", comps[k]);
		if (k > i && pl.line) {
			phys_buf_printf(&blk, "%s%s", st->nl, pl.indent);
			for (lvl = i + 1; lvl < k; lvl++)
				phys_buf_puts(&blk, st->unit);
		}
	}
	/* the nodes */
	top = cur = xmlNewDocNode(d->xml, NULL, (const xmlChar *)comps[i],
	    NULL);
	for (k = i + 1; k < n; k++) {
		xmlNodePtr c = xmlNewDocNode(d->xml, NULL,
		    (const xmlChar *)comps[k], NULL);

		xmlAddChild(cur, c);
		cur = c;
	}
	if (*text)
		xmlNodeAddContent(cur, (const xmlChar *)text);
	rc = add_block(d, st, &pl, blk.s, blk.len, top);
	place_free(&pl);
	return rc;
}

int
phys_doc_set_text(struct phys_doc *d, xmlNodePtr owner, const char *path,
    const char *text, phys_rank_fn rank, const void *ctx)
{
	struct phys_sdf_edit *st = session(d);
	char **comps = NULL, *copy;
	const char *p;
	size_t n = 0, i;
	xmlNodePtr cur;
	int rc;

	if (!st || !edit_rec(d, owner, "set text"))
		return -1;
	if (!text || !path)
		return phys_fail("set text: no %s", text ? "path" : "text");
	if (!phys_xml_text_ok(text))
		return refuse_text("the value", text);
	copy = phys_xstrdup(path);
	for (p = copy; *p;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		if (!valid_name(p, len)) {
			free(comps);
			free(copy);
			return phys_fail("invalid element path '%s'", path);
		}
		comps = phys_xrealloc(comps, (n + 1) * sizeof *comps);
		comps[n++] = (char *)p;
		if (!dot)
			break;
		copy[dot - copy] = '\0';
		p = dot + 1;
		if (!*p) {
			free(comps);
			free(copy);
			return phys_fail("invalid element path '%s'", path);
		}
	}
	cur = owner;
	for (i = 0; i < n; i++) {
		xmlNodePtr c = phys_child(cur, comps[i]);

		if (!c)
			break;
		cur = c;
	}
	if (i == n)
		rc = set_leaf(d, cur, text);
	else
		rc = create_path(d, st, owner, cur, comps, i, n, text, rank,
		    ctx);
	free(comps);
	free(copy);
	return rc;
}
