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
	/* what a converted model was written in (PHYS_DOC_URDF or
	 * PHYS_DOC_MJCF); 0 for a file read as it is */
	enum phys_doc_kind from;
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
	/* The other files its elements were read from (an MJCF model's
	 * <include>s), which their lines name (phys_node_file). */
	char **files;
	size_t nfiles;
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
/* libxml2's xmlReadMemory of len bytes of text called name, with opts,
 * as a reading (phys_reading_push) of name: memory running out names the
 * line reached. */
xmlDocPtr phys_xml_read(const char *text, size_t len, const char *name,
    int opts);
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

/*
 * Where an element was read: its line, and for an element a converter
 * made from another file than the document's (an MJCF model's
 * <include>d file), which one, as the file's number in the document's
 * files (from 1) above bit PHYS_LINE_BITS of a "where".
 */
#define PHYS_LINE_BITS	32
long phys_node_line(xmlNodePtr n);
/* Line and file together (phys_where_line and phys_doc_file take them
 * apart), to be given to another element. */
long phys_node_where(xmlNodePtr n);
long phys_where(long line, size_t file);
long phys_where_line(long where);
/* The file where names: d's own, or one of its files. */
const char *phys_doc_file(const struct phys_doc *d, long where);
/* The file element n of d was read from. */
const char *phys_node_file(const struct phys_doc *d, xmlNodePtr n);
/* Element n of document d's file and line, as phys_failat and
 * phys_warnat take them. */
#define PHYS_AT(d, n)	phys_node_file((d), (n)), phys_node_line(n)
/* Give element n a where (a line, or a line and a file) that
 * phys_node_line and phys_node_file read back, past libxml2's 65535 too,
 * for a document built in memory (URDF and MJCF read). */
void phys_node_set_line(xmlNodePtr n, long where);
/* A deep copy of n into doc, its elements' lines and files kept. */
xmlNodePtr phys_node_copy(xmlNodePtr n, xmlDocPtr doc);
/* A deep copy of n, an element of from, for d: each element keeps its
 * line, and the file it came from joins d's files (phys_node_file names
 * it). NULL when memory ran out. */
xmlNodePtr phys_doc_adopt(struct phys_doc *d, const struct phys_doc *from,
    xmlNodePtr n);
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
/* Whether n has attribute name, of that value. */
bool phys_node_attr_is(xmlNodePtr n, const char *name, const char *value);
/* True when the element name is name. */
/*
 * A value libsdformat reads by its leading part, what follows ignored: an
 * integer's leading digits (std::stoi: "10.0" is 10), a number's leading
 * number (std::stod: "1.5\"" is 1.5), a vector's first three numbers
 * (a stream: "0 0 1 5" is 0 0 1). phys reads it so too, saying
 * PHYS_LEADING_AS_SDFORMAT with phys_leading_what(kind): that part, as
 * written, into num (of PHYS_LEADING_MAX), or NULL when text is whole or
 * no such part leads.
 */
enum phys_leading { PHYS_LEAD_INT, PHYS_LEAD_NUMBER, PHYS_LEAD_VECTOR3 };
#define PHYS_LEADING_MAX 128
const char *phys_leading_as_sdformat(const char *text, enum phys_leading kind,
    char *num);
const char *phys_leading_what(enum phys_leading kind);
#define PHYS_LEADING_AS_SDFORMAT "<%s>%s</%s>: read as %s, as libsdformat " \
	"reads %s"

bool phys_node_is(xmlNodePtr n, const char *name);

#endif
