/*
 * sdfedit.h - edits of an SDF document that change only the bytes they
 * must. Edits are recorded against the tree and applied to the original
 * text, so comments, attribute quoting, element order, unknown elements
 * and indentation all survive: a diff between input and output shows only
 * the edited lines.
 */
#ifndef PHYS_SDFEDIT_H
#define PHYS_SDFEDIT_H

#include "sdf.h"

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
