/*
 * sdf.h - SDF and URDF documents: secure loading through libxml2 and
 * element lookup. The original text is kept next to the parsed tree, for
 * edits that change only the bytes they must (sdfedit.h). A document is
 * told by its root element, never by its name: <sdf> holding a <world>,
 * <sdf> holding a <model> and no world, a URDF <robot> or an MJCF
 * <mujoco>.
 */
#ifndef PHYS_SDF_H
#define PHYS_SDF_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "base.h"

struct phys_sdf_edit;
struct phys_urdf;
struct phys_mjcf_map;

/*
 * What one world may bring, its included files and converted URDFs
 * counted, checked as it loads (phys(7), LIMITS): far above any real
 * world or robot (a few thousand models, a few hundred links a robot),
 * so that files including each other many times over end early.
 */
#define PHYS_MAX_MODELS		50000
#define PHYS_MAX_LINKS		50000
#define PHYS_MAX_JOINTS		50000
#define PHYS_MAX_INCLUDES	10000	/* files <include>d, each time */
#define PHYS_MAX_INCLUDE_DEPTH	16	/* includes inside includes */

enum phys_doc_kind {
	PHYS_DOC_WORLD,		/* <sdf><world> (or <sdf> with neither) */
	PHYS_DOC_MODEL,		/* <sdf><model> without a <world> */
	PHYS_DOC_URDF,		/* <robot> */
	PHYS_DOC_MJCF		/* <mujoco> (mjcf.h) */
};

struct phys_doc {
	char *name;		/* for messages: the path, or "<stdin>" */
	char *path;		/* as given; NULL for stdin */
	char *text;		/* the original bytes, NUL-terminated */
	size_t len;
	xmlDocPtr xml;		/* NULL for a URDF until phys_doc_tree */
	xmlNodePtr root;	/* <sdf>, or <robot> */
	enum phys_doc_kind kind;
	int major, minor;	/* the sdf version attribute; 0 for URDF */
	struct phys_sdf_edit *edits;	/* pending edits, in recording order */
	size_t nedits, capedits;
	/* Frees edits: set by the editor that made them. */
	void (*edits_free)(struct phys_doc *d);
	/* The SDF model a URDF becomes (urdf.h) keeps here how it was made,
	 * freed by the converter's function. */
	struct phys_urdf *urdf;
	void (*urdf_free)(struct phys_doc *d);
	/* An MJCF file edited: which of its elements each entity of its
	 * model comes from (mjcfedit.c), freed through urdf_free. */
	struct phys_mjcf_map *mjcf;
};

/*
 * Parse an SDF or URDF file ("-" or NULL: stdin). No network, no
 * external entities, no DTD loading, no entity declarations, bounded
 * size. A xacro file is refused with the command that expands it.
 */
/*
 * What libxml2 calls fatal and the reference readers (libsdformat,
 * urdfdom, MuJoCo: tinyxml2) read past, made harmless byte for byte in a
 * copy of text, lines and offsets kept: blanks before the declaration, a
 * declaration's version other than 1.x, "--" inside a comment. NULL when
 * text needs none of it; the caller frees the copy.
 */
char *phys_xml_tolerated(const char *text, size_t len);
int phys_doc_load(struct phys_doc *d, const char *path);
int phys_doc_load_text(struct phys_doc *d, const char *name, const char *text,
    size_t len);
/*
 * A URDF is loaded as its text, kind PHYS_DOC_URDF, without a tree: its
 * converter reads it as a stream. phys_doc_sax runs the parser over the
 * text with the converter's SAX2 handlers (user is their context;
 * *parser is the parser's while it runs, for line numbers), with the
 * safeguards and messages of phys_doc_load. phys_doc_tree builds the
 * tree when an edit needs it.
 */
int phys_doc_sax(struct phys_doc *d, xmlSAXHandler *sax, void *user,
    xmlParserCtxtPtr *parser);
int phys_doc_tree(struct phys_doc *d);
void phys_doc_free(struct phys_doc *d);

long phys_node_line(xmlNodePtr n);
/* Give element n the line phys_node_line reads back, past libxml2's
 * 65535 too, for a document built in memory (URDF and MJCF read). */
void phys_node_set_line(xmlNodePtr n, long line);
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

#endif
