/*
 * mjcf_schema.h - MuJoCo 2.2.2's MJCF as data (mjcf_schema.def): its
 * elements, where each may sit, and their attributes' value types.
 */
#ifndef PHYS_MJCF_SCHEMA_H
#define PHYS_MJCF_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "names.h"

enum phys_mjcf_type {
	PHYS_MJ_STRING,		/* any text: a name, a file */
	PHYS_MJ_REAL,		/* min..max real numbers */
	PHYS_MJ_INT,		/* min..max integers */
	PHYS_MJ_BOOL,		/* true or false */
	PHYS_MJ_KEYWORD		/* one of values */
};

struct phys_mjcf_attr {
	const char *elem;	/* the id of the element it belongs to */
	size_t elem_index;	/* that element's in phys_mjcf_elems */
	const char *name;
	enum phys_mjcf_type type;
	int min, max;		/* how many numbers; max 0: no upper bound */
	const char *values;	/* keywords, "a|b|c" */
};

struct phys_mjcf_elem {
	const char *id;
	const char *name;
	const char *parents;	/* ids, blank-separated; "*" anywhere */
	bool free;		/* content not checked */
};

extern const struct phys_mjcf_elem phys_mjcf_elems[];
extern const size_t phys_mjcf_nelems;
extern const struct phys_mjcf_attr phys_mjcf_attrs[];
extern const size_t phys_mjcf_nattrs;

/* The root element, <mujoco>. */
const struct phys_mjcf_elem *phys_mjcf_root(void);
/* The element named name that may sit in parent; NULL when none may. */
const struct phys_mjcf_elem *phys_mjcf_child(const struct phys_mjcf_elem
    *parent, const char *name);
/* May an element so named sit in any element? */
bool phys_mjcf_known(const char *name);
/* Element e's attribute so named; NULL when it has none. */
const struct phys_mjcf_attr *phys_mjcf_attr(const struct phys_mjcf_elem *e,
    const char *name);
/* The attributes of element e closest to a wrong name (names.h). */
struct phys_close phys_mjcf_attr_close(const struct phys_mjcf_elem *e,
    const char *name);
/*
 * What phys makes of an attribute a MuJoCo after 2.2.2 added (the
 * loader: mjcflater.c; phys-sdf check: mjcfcheck.c); any other the schema
 * lacks is refused.
 */
enum phys_mjcf_later_how {
	PHYS_MJ_LATER_READ,	/* the loader reads it */
	PHYS_MJ_LATER_LOOKS,	/* how the model looks: noted */
	PHYS_MJ_LATER_SEARCH,	/* how MuJoCo finds contacts: noted */
	PHYS_MJ_LATER_ASIDE,	/* how MuJoCo runs (memory, threads) */
	PHYS_MJ_LATER_AT	/* as 2.2.2 moves at value; else refused */
};

struct phys_mjcf_later {
	const char *elem;	/* the id of its element */
	const char *name;
	enum phys_mjcf_later_how how;
	const char *value;	/* PHYS_MJ_LATER_AT's */
};

/* Element e's later attribute so named; NULL when none is known. */
const struct phys_mjcf_later *phys_mjcf_later(const struct phys_mjcf_elem
    *e, const char *name);
/* Whether v is l's value (PHYS_MJ_LATER_AT), as text or as a number. */
bool phys_mjcf_later_at(const struct phys_mjcf_later *l, const char *v);

/* What phys makes of an attribute (the loader reads, notes or refuses;
 * phys-sdf check reports the same). */
enum phys_mjcf_verdict {
	PHYS_MJ_PLAIN,		/* 2.2.2's, read as 2.2.2 reads it */
	PHYS_MJ_READ,		/* a later MuJoCo's phys reads */
	PHYS_MJ_NOTED,		/* named, not read: it moves nothing */
	PHYS_MJ_REFUSED,	/* at a value phys does not move as */
	PHYS_MJ_UNKNOWN		/* neither 2.2.2's nor one phys knows */
};

/* The verdict on an attribute the schema has or not (known), l its entry
 * in the later table (phys_mjcf_later) or NULL, v its value (needed only
 * where l is PHYS_MJ_LATER_AT). */
enum phys_mjcf_verdict phys_mjcf_verdict(const struct phys_mjcf_later *l,
    bool known, const char *v);

/* Whether a later MuJoCo's element of the body tree so named (<frame>,
 * <replicate>) may sit in parent (a body or the world body; what it holds
 * sits in that body as its own), and whether it has an attribute so
 * named. */
bool phys_mjcf_meta_in(const struct phys_mjcf_elem *parent,
    const char *name);
bool phys_mjcf_meta_attr(const char *meta, const char *name);
/* What phys makes of it, for messages: "for how the model looks: not
 * read". */
const char *phys_mjcf_later_text(const struct phys_mjcf_later *l);
/*
 * The attributes of one element said alike (a later MuJoCo's camera's
 * focal, resolution and sensorsize: one line, not three), grouped by
 * what is said of them, as the loader and phys-sdf check say them.
 */
struct phys_mjcf_noted {
	const char *text;	/* phys_mjcf_later_text's */
	bool known;		/* MuJoCo 2.2.2's */
	char names[160];	/* "focal, resolution" */
};
#define PHYS_MJCF_MAX_NOTED 4
/* Add name to what acc (nacc of them) says alike; false where acc has no
 * room, and name is to be said alone. */
bool phys_mjcf_note(struct phys_mjcf_noted *acc, int *nacc,
    const char *name, bool known, const char *text);
/* Does the keyword list "a|b|c" hold word? */
bool phys_mjcf_keyword(const char *values, const char *word);
/* A later MuJoCo's value v of keyword attribute attr, which MuJoCo 2.2.2
 * does not know and phys reads (integrator="implicitfast",
 * dyntype="filterexact"): what phys makes of it, for messages; NULL for
 * any other. */
const char *phys_mjcf_later_value(const char *attr, const char *v);
/* A range of "0 0", MuJoCo's default, given or a class's: no range, as
 * MuJoCo compiles it (neither limited under autolimits nor refused
 * without). */
bool phys_mjcf_no_range(const double range[2]);

#endif
