/*
 * sdf.h - SDF documents: secure loading through libxml2, element lookup,
 * and edits that change only the bytes they must.
 *
 * The original text is kept next to the parsed tree. Edits are recorded
 * against the tree and applied to the text, so comments, attribute quoting,
 * element order, unknown elements and indentation all survive: a diff
 * between input and output shows only the edited lines.
 */
#ifndef PHYS_SDF_H
#define PHYS_SDF_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "base.h"

struct phys_sdf_edit;

struct phys_doc {
	char *name;		/* for messages: the path, or "<stdin>" */
	char *path;		/* as given; NULL for stdin */
	char *text;		/* the original bytes, NUL-terminated */
	size_t len;
	xmlDocPtr xml;
	xmlNodePtr root;	/* <sdf> */
	int major, minor;	/* the sdf version attribute */
	struct phys_sdf_edit *edits;	/* pending edits, in recording order */
	size_t nedits, capedits;
};

/*
 * Parse an SDF file ("-" or NULL: stdin). No network, no external
 * entities, no DTD loading, no entity declarations, bounded size.
 */
int phys_doc_load(struct phys_doc *d, const char *path);
int phys_doc_load_text(struct phys_doc *d, const char *name, const char *text,
    size_t len);
void phys_doc_free(struct phys_doc *d);

long phys_node_line(xmlNodePtr n);
/* First element child named name (any name when NULL). */
xmlNodePtr phys_child(xmlNodePtr parent, const char *name);
/* Next element sibling named name (any name when NULL). */
xmlNodePtr phys_next(xmlNodePtr n, const char *name);
/* Element at a dot path under owner ("ode.solver.iters"); NULL if absent. */
xmlNodePtr phys_path_find(xmlNodePtr owner, const char *path);
/* Text content with surrounding blanks trimmed; caller frees. */
char *phys_node_text(xmlNodePtr n);
/* The same for reading at once, without an allocation when it is short:
 * valid until phys_text_done(t). */
struct phys_text {
	char buf[256];
	char *heap;	/* a longer text */
};
const char *phys_node_text_tmp(xmlNodePtr n, struct phys_text *t);
void phys_text_done(struct phys_text *t);
/* Attribute value or NULL; caller frees. */
char *phys_node_attr(xmlNodePtr n, const char *name);
/* True when the element name is name. */
bool phys_node_is(xmlNodePtr n, const char *name);

/*
 * Edits. Each records a change to the tree and to the pending text;
 * phys_doc_render() returns the edited text. Several edits may be recorded
 * before rendering; they must not overlap (an edit inside an element that
 * another edit removes is an error).
 *
 * rank orders sibling elements the way the specification places them: for
 * an element path relative to owner (e.g. "ode.solver"), a number, lower
 * first; -1 when unknown (placed after known ones).
 */
typedef int (*phys_rank_fn)(const void *ctx, xmlNodePtr owner,
    const char *path);

/* Set the text of the leaf at path under owner, creating missing elements
 * (each inserted among its siblings by rank, indented like them). */
int phys_doc_set_text(struct phys_doc *d, xmlNodePtr owner, const char *path,
    const char *text, phys_rank_fn rank, const void *ctx);
/* Set (value != NULL) or remove (value == NULL) an attribute. */
int phys_doc_set_attr(struct phys_doc *d, xmlNodePtr n, const char *name,
    const char *value);
/* Remove an element with its line (leading indentation and newline). */
int phys_doc_remove(struct phys_doc *d, xmlNodePtr n);
/* Insert a block of XML text (one or more elements) as new line(s) after
 * the element "after", indented like it; re-indents the block's lines. */
int phys_doc_insert_after(struct phys_doc *d, xmlNodePtr after,
    const char *xml_text);
/* Insert as the last element child of parent (indented one level deeper). */
int phys_doc_append_child(struct phys_doc *d, xmlNodePtr parent,
    const char *xml_text);
/* The original text with every recorded edit applied; caller frees. */
char *phys_doc_render(struct phys_doc *d, size_t *len);
/* Forget every recorded edit (also done by phys_doc_free). */
void phys_doc_edits_free(struct phys_doc *d);
/* True when XML can hold s: UTF-8 without control characters other than
 * tab, newline and carriage return. Edits refuse other text. */
bool phys_xml_text_ok(const char *s);
/* s escaped for an attribute value in double quotes. */
void phys_buf_xml_attr(struct phys_buf *b, const char *s);
/* An element and its contents as it appears in the (original) text,
 * re-indented so its own line starts at column 0; caller frees. */
char *phys_doc_node_text(struct phys_doc *d, xmlNodePtr n);

#endif
