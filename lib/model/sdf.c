/* sdf.c - secure loading of SDF documents and element lookup. */
#include "sdf.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#include "mjcfroot.h"

/*
 * libxml2's allocations, where phys_die may end what phys is doing (a
 * command, a call of the library): memory running out is "out of
 * memory", as for phys's own, not a null node that phys's code builds on
 * (a URDF of 40,000 links within 300 MB crashed so). Elsewhere (an
 * embedder's own use of libxml2) libxml2's own null, through the
 * functions it had before.
 */
static xmlMallocFunc was_malloc;
static xmlReallocFunc was_realloc;
static xmlStrdupFunc was_strdup;

static void *
xml_malloc(size_t n)
{
	void *p = was_malloc(n);

	if (!p && phys_may_die())
		phys_out_of_memory();
	return p;
}

static void *
xml_realloc(void *q, size_t n)
{
	void *p = was_realloc(q, n);

	if (!p && phys_may_die())
		phys_out_of_memory();
	return p;
}

static char *
xml_strdup(const char *s)
{
	char *p = was_strdup(s);

	if (!p && phys_may_die())
		phys_out_of_memory();
	return p;
}

__attribute__((constructor)) static void
xml_memory(void)
{
	xmlFreeFunc was_free;

	if (xmlMemGet(&was_free, &was_malloc, &was_realloc, &was_strdup) == 0)
		xmlMemSetup(was_free, xml_malloc, xml_realloc, xml_strdup);
}

/* libxml2 would print its own messages; the first error is reported instead. */
static void
quiet_errors(void *ctx, const char *msg, ...)
{
}

/* The first fatal error names the place; later ones follow from it. */
struct first_error {
	char *message;
	int line;
	/* libxml2 ran out of memory: it says so, or it could not make
	 * the text of an error */
	bool no_memory;
};

static void
keep_first_fatal(void *ctx, xmlErrorPtr e)
{
	struct first_error *f = ctx;

	if (e && e->level == XML_ERR_FATAL && (e->code == XML_ERR_NO_MEMORY ||
	    !e->message))
		f->no_memory = true;
	if (!f->message && e && e->level == XML_ERR_FATAL)
		f->message = phys_xstrdup(e->message ? e->message :
		    "not well-formed XML"), f->line = e->line;
}

static void
trim_message(char *msg)
{
	size_t n = strlen(msg);

	while (n > 0 && isspace((unsigned char)msg[n - 1]))
		msg[--n] = '\0';
}

/* Entity declarations are the door to expansion bombs and external files. */
static bool
has_entity_declarations(xmlDocPtr doc)
{
	xmlDtdPtr dtd = doc->intSubset;

	return (dtd && dtd->entities) || doc->extSubset;
}

static int
read_version(struct phys_doc *d)
{
	char *v = phys_node_attr(d->root, "version");
	int n;

	if (!v)
		return phys_failat(d->name, phys_node_line(d->root),
		    "<sdf> has no version attribute");
	n = sscanf(v, "%d.%d", &d->major, &d->minor);
	if (n != 2 || d->major != 1 || d->minor < 0) {
		phys_failat(d->name, phys_node_line(d->root),
		    "unsupported SDF version '%.40s' (supported: 1.4 to 1.12)",
		    v);
		free(v);
		return -1;
	}
	free(v);
	/* 1.10-1.12 are gz-sim's: what changed is read where it matters
	 * (screw_thread_pitch, limits of inf, mimic, inertial auto). */
	if (d->minor < 4 || d->minor > 12)
		phys_warnat(d->name, phys_node_line(d->root),
		    "SDF version 1.%d is outside 1.4-1.12; read as the nearest",
		    d->minor);
	return 0;
}

static bool
starts_with(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - s) >= n && memcmp(s, prefix, n) == 0;
}

/*
 * The text libxml2 parses: the file's own, or, when it holds what
 * libsdformat tolerates and libxml2 calls fatal, a copy with that made
 * harmless byte for byte in place, so lines and offsets stay the file's.
 * The copy is made on the first change only: most files need none, and
 * a large world's text would otherwise be copied (and paged in) twice.
 */
struct tolerant {
	const char *text;	/* the original */
	char *copy;		/* NULL until a byte must change */
	size_t len;
};

static char *
writable(struct tolerant *t)
{
	if (!t->copy)
		t->copy = phys_xstrndup(t->text, t->len);
	return t->copy;
}

static const char *
parsed_text(const struct tolerant *t)
{
	return t->copy ? t->copy : t->text;
}

/* Text before the first element (a declaration "?xml ...?>" that lost
 * its "<"): tinyxml2 keeps it as a text node of the document, which
 * libsdformat never reads; libxml2 stops at it. Blanked in place, line
 * breaks kept (a byte order mark stays: it names the encoding). Before
 * a declaration tinyxml2 stops too, and so this leaves it: what it
 * blanks is never before a declaration (declaration_first's). */
static void
text_before_root(struct tolerant *t)
{
	const char *s = t->text, *lt;
	size_t i = 0, n;

	if (t->len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	lt = memchr(s + i, '<', t->len - i);
	if (lt && starts_with(lt, s + t->len, "<?xml"))
		return;
	n = lt ? (size_t)(lt - s) : t->len;
	for (; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			writable(t)[i] = ' ';
}

/* Blank lines before <?xml: the declaration moves to the first byte and
 * the blanks follow it, so every later byte keeps its offset and line. */
static void
declaration_first(struct tolerant *t)
{
	const char *s = t->text;
	size_t blank = 0, decl, len = t->len;
	const char *close;
	char *c;

	while (blank < len && isspace((unsigned char)s[blank]))
		blank++;
	if (blank == 0 || !starts_with(s + blank, s + len, "<?xml") ||
	    !(close = memmem(s + blank, len - blank, "?>", 2)))
		return;
	decl = (size_t)(close + 2 - (s + blank));
	c = writable(t);
	memcpy(c, s + blank, decl);
	memcpy(c + decl, s, blank);	/* the original still holds them */
}

/* An XML declaration of a version other than 1.x (PyBullet's files say
 * version="0.0"): libxml2 stops at it, libsdformat and urdfdom read on.
 * The major digit becomes 1 in place. */
static void
declaration_version(struct tolerant *t)
{
	const char *s = parsed_text(t), *end = s + t->len, *close, *v;

	if (!starts_with(s, end, "<?xml") ||
	    !(close = memmem(s, (size_t)(end - s), "?>", 2)) ||
	    !(v = memmem(s, (size_t)(close - s), "version", 7)))
		return;
	for (v += 7; v < close && (isspace((unsigned char)*v) || *v == '=');
	    v++)
		;
	if (v + 3 < close && (*v == '"' || *v == '\'') &&
	    isdigit((unsigned char)v[1]) && v[1] != '1' && v[2] == '.')
		writable(t)[v + 1 - s] = '1';
}

/* "--" inside a comment: a blank in place of its first dash ("--->" ends
 * the comment as "-->"). Comments carry no meaning SDF reads. */
static void
comment_dashes(struct tolerant *t)
{
	const char *base = parsed_text(t), *end = base + t->len, *p = base;

	while ((p = memmem(p, (size_t)(end - p), "<!--", 4))) {
		for (p += 4; p + 1 < end; p++) {
			if (p[0] != '-' || p[1] != '-')
				continue;
			if (p + 2 < end && p[2] == '>')
				break;
			writable(t)[p - base] = ' ';
		}
	}
}

char *
phys_xml_tolerated(const char *text, size_t len)
{
	struct tolerant t = { text, NULL, len };

	text_before_root(&t);
	declaration_first(&t);
	declaration_version(&t);
	comment_dashes(&t);
	return t.copy;
}

/*
 * libxml2 reads the text through a callback, a block at a time, into a
 * buffer it keeps small by dropping what it has parsed:
 * xmlCtxtReadMemory would first copy all of it into a buffer of its own.
 */
struct reader {
	const char *p;
	size_t left;
};

static int
read_block(void *ctx, char *out, int size)
{
	struct reader *r = ctx;
	size_t n = r->left < (size_t)size ? r->left : (size_t)size;

	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return (int)n;
}

static int
close_nothing(void *ctx)
{
	return 0;
}

/*
 * libxml2 keeps an element's line in 16 bits: from line 65535 on, every
 * element said 65535. The start of each element is seen here: past that
 * line its exact line (the one libxml2 would store below it: where the
 * start tag ends) goes to the node's psvi, which nothing else uses, and
 * phys_node_line reads it there.
 */
static void
start_element(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs,
    int ndefaulted, const xmlChar **attrs)
{
	xmlParserCtxtPtr ctxt = ctx;
	xmlNodePtr parent = ctxt->node;

	xmlSAX2StartElementNs(ctx, name, prefix, uri, nns, ns, nattrs,
	    ndefaulted, attrs);
	if (ctxt->node && ctxt->node != parent && ctxt->input &&
	    ctxt->node->line == USHRT_MAX)
		ctxt->node->psvi = (void *)(intptr_t)ctxt->input->line;
}

/* The line a parse has reached. */
static long
ctxt_line(const void *ctxt, const char **file)
{
	const xmlParserCtxt *c = ctxt;

	(void)file;
	return c->input ? c->input->line : 0;
}

xmlDocPtr
phys_xml_read(const char *text, size_t len, const char *name, int opts)
{
	xmlParserCtxtPtr ctxt = len > INT_MAX ? NULL : xmlNewParserCtxt();
	struct phys_reading place = { name, ctxt_line, ctxt, NULL };
	xmlDocPtr doc;

	if (!ctxt)
		return NULL;
	phys_reading_push(&place);
	doc = xmlCtxtReadMemory(ctxt, text, (int)len, name, NULL, opts);
	phys_reading_pop(&place);
	xmlFreeParserCtxt(ctxt);
	return doc;
}

/*
 * Run libxml2 over d's text: with sax NULL, build d's tree; else call
 * sax's handlers with user. The text is first made what libxml2 reads
 * (struct tolerant); no network, no entity expansion, and the first
 * fatal error is the message.
 */
static int
parse_text(struct phys_doc *d, xmlSAXHandler *sax, void *user,
    xmlParserCtxtPtr *parser)
{
	/* No NOENT (entities stay unexpanded), no DTDLOAD, no HUGE.
	 * COMPACT: a text shorter than 16 bytes (most numbers) is kept
	 * inside its node rather than in an allocation of its own. */
	int opts = XML_PARSE_NONET | XML_PARSE_COMPACT, ok;
	const char *name = d->name;
	struct tolerant t = { d->text, phys_xml_tolerated(d->text, d->len),
		d->len };
	xmlParserCtxtPtr ctxt;
	const xmlError *e;
	struct first_error first = { NULL, 0, false };
	struct reader r;
	struct phys_reading place;

	xmlSetGenericErrorFunc(NULL, quiet_errors);
	r.p = parsed_text(&t);
	r.left = d->len;
	ctxt = sax ? xmlCreateIOParserCtxt(sax, user, read_block, close_nothing,
	    &r, XML_CHAR_ENCODING_NONE) : xmlNewParserCtxt();
	if (!ctxt) {
		free(t.copy);
		return phys_failat(name, 0, "out of memory");
	}
	xmlSetStructuredErrorFunc(&first, keep_first_fatal);
	place.file = name;
	place.where = ctxt_line;
	place.arg = ctxt;
	phys_reading_push(&place);
	if (sax) {
		*parser = ctxt;
		xmlCtxtUseOptions(ctxt, opts);
		xmlParseDocument(ctxt);
		*parser = NULL;
		ok = ctxt->wellFormed;
	} else {
		ctxt->sax->startElementNs = start_element;
		d->xml = xmlCtxtReadIO(ctxt, read_block, close_nothing, &r,
		    NULL, NULL, opts);
		ok = d->xml && ctxt->wellFormed;
	}
	phys_reading_pop(&place);
	xmlSetStructuredErrorFunc(NULL, NULL);
	free(t.copy);
	e = xmlCtxtGetLastError(ctxt);
	/* Namespace errors (an undeclared prefix, as in <ignition:...>) leave
	 * the document well-formed; libsdformat reads such files. */
	/* libxml2 out of memory: as phys's own allocations say it */
	if (!ok && (first.no_memory || ctxt->errNo == XML_ERR_NO_MEMORY)) {
		free(first.message);
		xmlFreeParserCtxt(ctxt);
		phys_out_of_memory();
	}
	if (!ok) {
		char *msg = first.message ? first.message :
		    phys_xstrdup(e && e->message ? e->message : "not well-formed XML");

		trim_message(msg);
		/* libxml2's words for its depth limit tell the user to
		 * change a parser option, which is not theirs to change */
		if (strncmp(msg, "Excessive depth in document", 27) == 0) {
			free(msg);
			msg = phys_xstrdup("elements nested deeper than 256, "
			    "more than phys reads");
		}
		phys_failat(name, first.message ? first.line : e ? e->line : 0,
		    "malformed XML: %s", msg);
		free(msg);
		xmlFreeParserCtxt(ctxt);
		return -1;
	}
	free(first.message);
	xmlFreeParserCtxt(ctxt);
	/* the format the file is, told by its root: a URDF's DTD is
	 * refused as URDF */
	if (!sax && has_entity_declarations(d->xml))
		return phys_failat(name, 1, "DTDs and entity declarations are "
		    "not allowed in %s", phys_node_is(xmlDocGetRootElement(
		    d->xml), "robot") ? "URDF" : phys_node_is(
		    xmlDocGetRootElement(d->xml), "mujoco") ? "MJCF" : "SDF");
	return 0;
}

/* Parse the text d owns (d->text, d->len). */
static int
parse_owned(struct phys_doc *d)
{
	const char *name = d->name;

	if (phys_xml_root_is(d->text, d->len, "robot")) {
		/* its converter parses it, as a stream, with no tree */
		d->kind = PHYS_DOC_URDF;
		return 0;
	}
	if (parse_text(d, NULL, NULL, NULL) < 0)
		return -1;
	d->root = xmlDocGetRootElement(d->xml);
	if (d->root && phys_node_is(d->root, "robot")) {
		d->kind = PHYS_DOC_URDF;	/* what the quick look missed */
		return 0;
	}
	if (d->root && phys_node_is(d->root, "mujoco")) {
		d->kind = PHYS_DOC_MJCF;	/* converted by mjcf.c */
		return 0;
	}
	if (!d->root || !phys_node_is(d->root, "sdf"))
		return phys_failat(name, d->root ? phys_node_line(d->root) : 1,
		    "the root element is <%s>, neither <sdf>, a URDF "
		    "<robot> nor MJCF's <mujoco>", d->root ?
		    (const char *)d->root->name : "none");
	/* a model file's model may be an include of one (libsdformat
	 * reads it so) */
	d->kind = (phys_child(d->root, "model") || phys_child(d->root,
	    "include")) && !phys_child(d->root, "world") ? PHYS_DOC_MODEL :
	    PHYS_DOC_WORLD;
	return read_version(d);
}

int
phys_doc_sax(struct phys_doc *d, xmlSAXHandler *sax, void *user,
    xmlParserCtxtPtr *parser)
{
	return parse_text(d, sax, user, parser);
}

int
phys_doc_tree(struct phys_doc *d)
{
	if (d->xml)
		return 0;
	if (parse_text(d, NULL, NULL, NULL) < 0)
		return -1;
	d->root = xmlDocGetRootElement(d->xml);
	return 0;
}

/* Load text (NUL-terminated at len), which d takes over. */
static int
load_owned(struct phys_doc *d, const char *name, char *text, size_t len)
{
	memset(d, 0, sizeof *d);
	d->name = phys_xstrdup(name);
	if (len > PHYS_MAX_FILE_BYTES + 4096) {	/* a wrapped snippet's tags */
		free(text);
		return phys_failat(name, 0, "file too large (limit %d MB)",
		    PHYS_MAX_FILE_MB);
	}
	d->text = text;
	d->len = len;
	return parse_owned(d);
}

int
phys_doc_load_text(struct phys_doc *d, const char *name, const char *text,
    size_t len)
{
	if (len > PHYS_MAX_FILE_BYTES + 4096)
		return load_owned(d, name, NULL, len);
	return load_owned(d, name, phys_xstrndup(text, len), len);
}

int
phys_doc_load(struct phys_doc *d, const char *path)
{
	const char *name = phys_display_name(path);
	size_t len;
	char *text = phys_read_regular_file(path, &len);
	int rc;

	if (!text) {
		memset(d, 0, sizeof *d);
		return -1;
	}
	rc = load_owned(d, name, text, len);	/* the file's buffer, not a copy */
	if (path && strcmp(path, "-") != 0)
		d->path = phys_xstrdup(path);
	return rc;
}

_Static_assert(sizeof(long) * CHAR_BIT > PHYS_LINE_BITS + 16,
    "a where holds a line and a file's number");

long
phys_node_where(xmlNodePtr n)
{
	if (n && n->type == XML_ELEMENT_NODE && n->line == USHRT_MAX &&
	    n->psvi)
		return (long)(intptr_t)n->psvi;	/* see start_element */
	return n ? xmlGetLineNo(n) : 0;
}

long
phys_where(long line, size_t file)
{
	if (line < 0 || line >= 1L << PHYS_LINE_BITS)
		line = 0;
	return line | (long)file << PHYS_LINE_BITS;
}

long
phys_where_line(long where)
{
	return where & ((1L << PHYS_LINE_BITS) - 1);
}

long
phys_node_line(xmlNodePtr n)
{
	return phys_where_line(phys_node_where(n));
}

const char *
phys_doc_file(const struct phys_doc *d, long where)
{
	size_t k = (size_t)(where >> PHYS_LINE_BITS);

	if (!d)
		return NULL;
	return k > 0 && k <= d->nfiles ? d->files[k - 1] : d->name;
}

const char *
phys_node_file(const struct phys_doc *d, xmlNodePtr n)
{
	return phys_doc_file(d, phys_node_where(n));
}

void
phys_node_set_line(xmlNodePtr n, long where)
{
	n->line = where < USHRT_MAX ? (unsigned short)where : USHRT_MAX;
	if (where >= USHRT_MAX)
		n->psvi = (void *)(intptr_t)where;	/* see start_element */
}

/* libxml2's copy keeps the 16-bit line, not the psvi that holds more. */
static void
copy_wheres(xmlNodePtr from, xmlNodePtr to)
{
	xmlNodePtr a, b;

	if (from->type != XML_ELEMENT_NODE)
		return;
	if (from->line == USHRT_MAX)
		phys_node_set_line(to, phys_node_where(from));
	for (a = from->children, b = to->children; a && b;
	    a = a->next, b = b->next)
		copy_wheres(a, b);
}

xmlNodePtr
phys_node_copy(xmlNodePtr n, xmlDocPtr doc)
{
	xmlNodePtr c = xmlDocCopyNode(n, doc, 1);

	if (c)
		copy_wheres(n, c);
	return c;
}

/* The number of file name among d's other files (1 on; 0: d itself),
 * added when new. */
static size_t
doc_file_number(struct phys_doc *d, const char *name)
{
	size_t k;

	if (strcmp(name, d->name) == 0)
		return 0;
	for (k = 0; k < d->nfiles; k++)
		if (strcmp(d->files[k], name) == 0)
			return k + 1;
	d->files = phys_xrealloc(d->files, (d->nfiles + 1) * sizeof *d->files);
	d->files[d->nfiles++] = phys_xstrdup(name);
	return d->nfiles;
}

static void
adopt_wheres(struct phys_doc *d, const struct phys_doc *from, xmlNodePtr a,
    xmlNodePtr b)
{
	long where;

	if (a->type != XML_ELEMENT_NODE)
		return;
	where = phys_node_where(a);
	phys_node_set_line(b, phys_where(phys_where_line(where),
	    doc_file_number(d, phys_doc_file(from, where))));
	for (a = a->children, b = b->children; a && b; a = a->next, b = b->next)
		adopt_wheres(d, from, a, b);
}

xmlNodePtr
phys_doc_adopt(struct phys_doc *d, const struct phys_doc *from, xmlNodePtr n)
{
	xmlNodePtr c = xmlDocCopyNode(n, d->xml, 1);

	if (c)
		adopt_wheres(d, from, n, c);
	return c;
}

bool
phys_node_attr_is(xmlNodePtr n, const char *name, const char *value)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	bool same = v && strcmp((const char *)v, value) == 0;

	xmlFree(v);
	return same;
}

bool
phys_node_is(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, name) == 0;
}

/* The first element from n on named name (any, for NULL). Asked for
 * every parameter of every entity a world loads: a name's first letter
 * rules out most elements before it is compared. */
static xmlNodePtr
first_element(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && (!name ||
		    (n->name[0] == (xmlChar)name[0] &&
		    strcmp((const char *)n->name, name) == 0)))
			return n;
	return NULL;
}

const char *
phys_leading_as_sdformat(const char *text, enum phys_leading kind, char *num)
{
	const char *at = text, *end;
	size_t used = 0, len;
	double d;
	long l;
	int i, n = kind == PHYS_LEAD_VECTOR3 ? 3 : 1;

	if (kind == PHYS_LEAD_INT) {
		if (phys_parse_long(text, &l) || !phys_parse_long_prefix(text,
		    &l))
			return NULL;
		snprintf(num, PHYS_LEADING_MAX, "%ld", l);
		return num;
	}
	for (i = 0; i < n; i++) {
		while (isspace((unsigned char)*at))
			at++;
		if (!(end = phys_parse_double_prefix(at, &d)))
			return NULL;
		len = (size_t)(end - at);
		if (used + len + 1 >= PHYS_LEADING_MAX)
			return NULL;
		if (i > 0)
			num[used++] = ' ';
		memcpy(num + used, at, len);
		used += len;
		at = end;
	}
	while (isspace((unsigned char)*at))
		at++;
	if (!*at)
		return NULL;	/* the whole text: refused for another reason */
	num[used] = '\0';
	return num;
}

const char *
phys_leading_what(enum phys_leading kind)
{
	return kind == PHYS_LEAD_INT ? "an integer (its leading digits)" :
	    kind == PHYS_LEAD_NUMBER ? "a number (its leading number)" :
	    "a vector (its first three numbers)";
}

xmlNodePtr
phys_child(xmlNodePtr parent, const char *name)
{
	return parent ? first_element(parent->children, name) : NULL;
}

xmlNodePtr
phys_next(xmlNodePtr n, const char *name)
{
	return n ? first_element(n->next, name) : NULL;
}

xmlNodePtr
phys_path_find(xmlNodePtr owner, const char *path)
{
	const char *dot;
	size_t len;
	xmlNodePtr c;

	while (owner && *path) {
		dot = strchr(path, '.');
		len = dot ? (size_t)(dot - path) : strlen(path);
		if (len >= 128)		/* no element name is that long */
			return NULL;
		/* each part compared where it is, not copied first; most
		 * elements ruled out by their first letter */
		for (c = owner->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE &&
			    c->name[0] == (xmlChar)path[0] &&
			    strncmp((const char *)c->name, path, len) == 0 &&
			    c->name[len] == '\0')
				break;
		owner = c;
		path += len + (dot != NULL);
	}
	return owner;
}

/*
 * The content of an element holding one text node (or nothing), trimmed,
 * where it is: what nearly every element SDF reads holds, and what
 * xmlNodeGetContent would copy first. False for anything else.
 */
static bool
plain_text(xmlNodePtr n, const char **s, size_t *len)
{
	xmlNodePtr c = n ? n->children : NULL;
	const char *t;
	size_t k;

	if (!n || n->type != XML_ELEMENT_NODE ||
	    (c && (c->next || c->type != XML_TEXT_NODE)))
		return false;
	t = c && c->content ? (const char *)c->content : "";
	while (isspace((unsigned char)*t))
		t++;
	k = strlen(t);
	while (k > 0 && isspace((unsigned char)t[k - 1]))
		k--;
	*s = t;
	*len = k;
	return true;
}

char *
phys_node_text(xmlNodePtr n)
{
	xmlChar *raw;
	const char *s;
	size_t len;
	char *out;

	if (plain_text(n, &s, &len))
		return phys_xstrndup(s, len);
	raw = xmlNodeGetContent(n);
	s = raw ? (const char *)raw : "";
	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	out = phys_xstrndup(s, len);
	xmlFree(raw);
	return out;
}

const char *
phys_node_text_tmp(xmlNodePtr n, struct phys_text *t)
{
	const char *s;
	size_t len;

	t->heap = NULL;
	if (plain_text(n, &s, &len) && len < sizeof t->buf) {
		memcpy(t->buf, s, len);
		t->buf[len] = '\0';
		return t->buf;
	}
	return t->heap = phys_node_text(n);
}

void
phys_text_done(struct phys_text *t)
{
	free(t->heap);
	t->heap = NULL;
}

char *
phys_node_attr(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a = xmlHasProp(n, (const xmlChar *)name);
	xmlChar *v;
	char *out;

	/* a value of one text node (nearly all) is copied once, not twice */
	if (a && a->type == XML_ATTRIBUTE_NODE && a->children &&
	    !a->children->next && a->children->type == XML_TEXT_NODE &&
	    a->children->content)
		return phys_xstrdup((const char *)a->children->content);
	v = xmlGetProp(n, (const xmlChar *)name);

	if (!v)
		return NULL;
	out = phys_xstrdup((const char *)v);
	xmlFree(v);
	return out;
}

void
phys_doc_free(struct phys_doc *d)
{
	if (d->xml)
		xmlFreeDoc(d->xml);
	free(d->name);
	free(d->path);
	free(d->text);
	if (d->edits_free)
		d->edits_free(d);
	if (d->urdf_free)
		d->urdf_free(d);
	while (d->nfiles > 0)
		free(d->files[--d->nfiles]);
	free(d->files);
	memset(d, 0, sizeof *d);
}
