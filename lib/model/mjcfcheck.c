/*
 * mjcfcheck.c - an MJCF file checked as MuJoCo 2.2.2 reads and compiles
 * it. The walk checks each element against the schema table (where it
 * may sit, its attributes and their values) and gathers what the rules
 * need: names, references, default classes, the compiler's settings and
 * the bodies' masses; the rules run once the whole model, includes
 * and all, is read, as MuJoCo's compiler runs after its parser.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "base.h"
#include "file.h"
#include "mem.h"
#include "mjcf.h"
#include "mjcf_schema.h"
#include "mjcfcheck.h"
#include "mjcf_pid.h"
#include "mjcfroot.h"
#include "msg.h"
#include "names.h"
#include "sdf.h"

/* Includes nest at most this deep (MuJoCo refuses an include cycle). */
#define MAX_INCLUDE_DEPTH 8

/* A name given (kind "body", "joint", ...) or asked for. */
struct entry {
	const char *kind;
	char *name;
	char *key;		/* kind and name, for the list's index */
	const char *file;
	long line;
	const char *attr;	/* references: the attribute naming it */
};

struct list {
	struct entry *v;
	size_t n, cap;
	struct phys_name_table index;	/* by key, the first of each */
};

/* Where a body's mass may come from: its <inertial>, or its geoms when
 * the compiler computes inertia from geometry. */
struct mass_source {
	bool has_inertial, inertial_massless;
	/* bit g: a geom of group g (0 to 30; 31 any other) that weighs
	 * something (weighs) */
	unsigned long geom_groups;
};

/* The welded children whose mass counts for a moving body (MuJoCo lets
 * them carry it), at most this many looked at. */
#define MAX_SOURCES 8

/* A body that moves, for the mass rule: its own source first. */
struct moving {
	const char *file;
	long line;
	char *name;
	struct mass_source src[MAX_SOURCES];
	int nsrc;
};

struct checker {
	phys_mjcf_report fn;
	void *ctx;
	const char *file;	/* the element being checked, and its file */
	xmlNodePtr at;
	size_t nincludes;	/* files included so far */
	const char *dir;	/* includes are found from here */
	char **files;		/* the names of the files read, kept */
	size_t nfiles;
	struct list names, refs;
	struct moving *moving;
	size_t nmoving;
	char *inertiafromgeom;	/* the compiler's, as given */
	unsigned long igroups;	/* its inertiagrouprange, as bits */
	bool balanceinertia;
	bool autolimits;	/* a range given limits the joint */
	bool in_default;
};

static void walk(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *e, int depth);

/* ---- findings ---- */

static void
report(struct checker *ck, const char *file, xmlNodePtr n, bool error,
    const char *const *suggest, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
report(struct checker *ck, const char *file, xmlNodePtr n, bool error,
    const char *const *suggest, const char *fmt, ...)
{
	struct phys_mjcf_finding f;
	char msg[1024];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof f);
	f.file = file;
	f.line = n ? xmlGetLineNo(n) : 0;
	f.error = error;
	f.element = n ? (const char *)n->name : NULL;
	for (i = 0; suggest && i < 3 && suggest[i]; i++)
		f.suggest[i] = suggest[i];
	f.message = msg;
	ck->fn(&f, ck->ctx);
}

/* ---- names and references ---- */

/* Names of each kind apart: a kind is a word, its name anything. */
static char *
entry_key(const char *kind, const char *name)
{
	return phys_xasprintf("%s\037%s", kind, name);
}

static const char *
entry_key_of(size_t i, const void *l)
{
	return ((const struct list *)l)->v[i].key;
}

static void
list_init(struct list *l)
{
	memset(l, 0, sizeof *l);
	phys_name_table_init(&l->index, entry_key_of, l, false);
}

static void
list_free(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].key);
	}
	free(l->v);
	phys_name_table_free(&l->index);
}

static void
add(struct list *l, const char *kind, const char *name, const char *file,
    long line, const char *attr)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = phys_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = (struct entry){ kind, phys_xstrdup(name),
		entry_key(kind, name), file, line, attr };
	phys_name_table_add(&l->index, l->n - 1);
}

static const struct entry *
find(const struct list *l, const char *kind, const char *name)
{
	char *key = entry_key(kind, name);
	int i = phys_name_table_find(&l->index, key);

	free(key);
	return i < 0 ? NULL : &l->v[i];
}

/* The kind of object an element's name is, NULL when it names none. */
static const char *
name_kind(const struct phys_mjcf_elem *e)
{
	static const char *const kinds[][2] = {
		{ "body", "body" }, { "joint", "joint" },
		{ "freejoint", "joint" }, { "geom", "geom" },
		{ "site", "site" }, { "camera", "camera" },
		{ "light", "light" }, { "mesh", "mesh" },
		{ "hfield", "hfield" }, { "texture", "texture" },
		{ "material", "material" }, { "skin", "skin" },
		{ "pair", "pair" }, { "exclude", "exclude" },
		{ "connect", "equality" }, { "weld", "equality" },
		{ "eq_joint", "equality" }, { "eq_tendon", "equality" },
		{ "distance", "equality" }, { "spatial", "tendon" },
		{ "fixed", "tendon" }, { "general", "actuator" },
		{ "motor", "actuator" }, { "position", "actuator" },
		{ "velocity", "actuator" }, { "intvelocity", "actuator" },
		{ "cylinder", "actuator" }, { "muscle", "actuator" },
		{ "adhesion", "actuator" }, { "key", "key" },
		{ "numeric", "numeric" }, { "ctext", "text" },
		{ "tuple", "tuple" },
	};
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (strcmp(kinds[i][0], e->id) == 0)
			return kinds[i][1];
	return strcmp(e->parents, "sensor") == 0 ? "sensor" : NULL;
}

/* The kind of object an attribute names, NULL when none. */
static const char *
ref_kind(const struct phys_mjcf_elem *e, const char *attr)
{
	static const char *const refs[][2] = {
		{ "mesh", "mesh" }, { "hfield", "hfield" },
		{ "material", "material" }, { "texture", "texture" },
		{ "body1", "body" }, { "body2", "body" }, { "body", "body" },
		{ "target", "body" }, { "joint1", "joint" },
		{ "joint2", "joint" }, { "jointinparent", "joint" },
		{ "tendon1", "tendon" }, { "tendon2", "tendon" },
		{ "tendon", "tendon" }, { "geom1", "geom" },
		{ "geom2", "geom" }, { "geom", "geom" }, { "site", "site" },
		{ "sidesite", "site" }, { "refsite", "site" },
		{ "cranksite", "site" }, { "slidersite", "site" },
		{ "actuator", "actuator" }, { "class", "class" },
		{ "childclass", "class" },
	};
	size_t i;

	if (strcmp(attr, "joint") == 0)
		return "joint";
	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		if (strcmp(refs[i][0], attr) == 0)
			return strcmp(e->id, "default") == 0 ? NULL : refs[i][1];
	return NULL;
}

/* ---- values ---- */

/* Count the numbers of text: -1 when a word is not one (an integer when
 * integers). */
static int
count_numbers(const char *text, bool integers)
{
	const char *p = text;
	char *end;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			return n;
		errno = 0;
		if (integers)
			(void)strtol(p, &end, 10);
		else
			(void)strtod(p, &end);
		if (end == p || (*end && *end != ' ' && *end != '\t' &&
		    *end != '\n' && *end != '\r'))
			return -1;
		p = end;
		n++;
	}
}

static void
count_error(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_attr *a, int c)
{
	char want[48];

	if (a->max == a->min)
		snprintf(want, sizeof want, "%d", a->min);
	else if (!a->max)
		snprintf(want, sizeof want, "%d or more", a->min);
	else
		snprintf(want, sizeof want, "%d to %d", a->min, a->max);
	report(ck, file, n, true, NULL, "<%s %s>: %d number%s, where MuJoCo "
	    "reads %s", n->name, a->name, c, c == 1 ? "" : "s", want);
}

static void
check_value(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_attr *a, const char *v)
{
	const char *later;
	int c;

	switch (a->type) {
	case PHYS_MJ_STRING:
		return;
	case PHYS_MJ_BOOL:
		if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
			report(ck, file, n, true, NULL, "<%s %s=\"%s\">: "
			    "true or false", n->name, a->name, v);
		return;
	case PHYS_MJ_KEYWORD:
		if ((later = phys_mjcf_later_value(a->name, v)))
			report(ck, file, n, false, NULL, "<%s %s=\"%s\">: %s",
			    n->name, a->name, v, later);
		else if (!phys_mjcf_keyword(a->values, v))
			report(ck, file, n, true, NULL, "<%s %s=\"%s\">: one "
			    "of %s", n->name, a->name, v, a->values);
		return;
	case PHYS_MJ_REAL:
	case PHYS_MJ_INT:
		c = count_numbers(v, a->type == PHYS_MJ_INT);
		if (c < 0)
			report(ck, file, n, true, NULL, "<%s %s=\"%s\">: not "
			    "%s", n->name, a->name, v, a->type == PHYS_MJ_INT ?
			    "integers" : "numbers");
		else if (c < a->min || (a->max && c > a->max))
			count_error(ck, file, n, a, c);
		return;
	}
}

/* ---- the walk ---- */

static void
unknown_attr(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *e, const char *name)
{
	struct phys_close c = phys_mjcf_attr_close(e, name);
	char hint[256];

	report(ck, file, n, true, c.name, "unknown attribute '%s' of <%s>%s",
	    name, e->name, phys_close_text(&c, false, hint, sizeof hint));
}

/* The value of attribute name, or NULL; the caller frees. */
static char *
attr(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/*
 * An attribute the schema has or not (known), as phys_mjcf_verdict
 * judges it: what phys notes, and a later MuJoCo's it reads, a warning
 * (phys loads the model, 2.2.2 may not), said with the element's others
 * alike (into acc, as the loader says them); what it refuses, an error;
 * one neither MuJoCo 2.2.2 nor phys knows, unknown.
 */
static void
aside_attr(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *e, const char *name, bool known,
    struct phys_mjcf_noted *acc, int *nacc)
{
	const struct phys_mjcf_later *l = phys_mjcf_later(e, name);
	char *v = l && l->how == PHYS_MJ_LATER_AT ? attr(n, name) : NULL;

	switch (phys_mjcf_verdict(l, known, v)) {
	case PHYS_MJ_UNKNOWN:
		unknown_attr(ck, file, n, e, name);
		break;
	case PHYS_MJ_REFUSED:
		report(ck, file, n, true, NULL, "<%s %s=\"%s\">: %s; phys "
		    "moves the model as with %s=\"%s\", and refuses it",
		    e->name, name, v ? v : "", known ? "not read" :
		    "a later MuJoCo's, not 2.2.2's", name, l->value);
		break;
	case PHYS_MJ_NOTED:
	case PHYS_MJ_READ:
		if (phys_mjcf_note(acc, nacc, name, known,
		    phys_mjcf_later_text(l)))
			break;
		report(ck, file, n, false, NULL, "<%s %s>: %s, %s", e->name,
		    name, known ? "MuJoCo's" : "a later MuJoCo's",
		    phys_mjcf_later_text(l));
		break;
	case PHYS_MJ_PLAIN:
		break;
	}
	free(v);
}

static const char *const orientations[] = { "quat", "axisangle", "xyaxes",
	"zaxis", "euler", NULL };

static void
check_attrs(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *e)
{
	const struct phys_mjcf_attr *a;
	struct phys_mjcf_noted acc[PHYS_MJCF_MAX_NOTED];
	const char *kind;
	xmlAttrPtr p;
	char *v;
	int norient = 0, i, nacc = 0;

	for (p = n->properties; p; p = p->next) {
		const char *name = (const char *)p->name;

		if (p->ns)
			continue;
		a = phys_mjcf_attr(e, name);
		aside_attr(ck, file, n, e, name, a != NULL, acc, &nacc);
		if (!a)
			continue;
		v = attr(n, name);
		check_value(ck, file, n, a, v ? v : "");
		if (v && !ck->in_default && (kind = ref_kind(e, name)) &&
		    !(strcmp(kind, "body") == 0 && strcmp(v, "world") == 0))
			add(&ck->refs, kind, v, file, xmlGetLineNo(n), a->name);
		free(v);
		for (i = 0; orientations[i]; i++)
			norient += strcmp(name, orientations[i]) == 0;
	}
	for (i = 0; i < nacc; i++)
		report(ck, file, n, false, NULL, "<%s %s>: %s, %s", e->name,
		    acc[i].names, acc[i].known ? "MuJoCo's" :
		    "a later MuJoCo's", acc[i].text);
	if (norient > 1)
		report(ck, file, n, true, NULL, "<%s>: more than one of quat, "
		    "axisangle, xyaxes, zaxis and euler: MuJoCo takes one "
		    "orientation", e->name);
}

/* Numbers of attribute name into v (up to max); how many were read. */
static int
numbers(xmlNodePtr n, const char *name, double *v, int max)
{
	char *s = attr(n, name), *p, *end;
	int k = 0;

	for (p = s; p && k < max; p = end) {
		v[k] = strtod(p, &end);
		if (end == p)
			break;
		k++;
	}
	free(s);
	return k;
}

/* An <inertial>: MuJoCo wants its mass, a tensor, and a tensor that a
 * rigid body can have. */
static void
check_inertial(struct checker *ck, const char *file, xmlNodePtr n)
{
	double m, d[6];

	if (numbers(n, "mass", &m, 1) != 1)
		report(ck, file, n, true, NULL, "<inertial> without its "
		    "mass");
	else if (m < 0)
		report(ck, file, n, true, NULL, "<inertial mass=\"%g\">: a "
		    "mass cannot be negative", m);
	if (numbers(n, "diaginertia", d, 3) == 3) {
		if (d[0] < 0 || d[1] < 0 || d[2] < 0)
			report(ck, file, n, true, NULL, "<inertial "
			    "diaginertia>: a moment cannot be negative");
		else if (!ck->balanceinertia && (d[0] + d[1] < d[2] ||
		    d[1] + d[2] < d[0] || d[0] + d[2] < d[1]))
			report(ck, file, n, true, NULL, "<inertial "
			    "diaginertia=\"%g %g %g\">: the moments break the "
			    "triangle inequality A + B >= C, which MuJoCo "
			    "refuses (balanceinertia=\"true\" makes them "
			    "satisfy it)", d[0], d[1], d[2]);
	} else if (numbers(n, "fullinertia", d, 6) == 6) {
		/* positive definite: the leading minors */
		double m2 = d[0] * d[1] - d[3] * d[3];
		double m3 = d[0] * (d[1] * d[2] - d[5] * d[5]) -
		    d[3] * (d[3] * d[2] - d[5] * d[4]) +
		    d[4] * (d[3] * d[5] - d[1] * d[4]);

		if (!(d[0] > 0 && m2 > 0 && m3 > 0))
			report(ck, file, n, true, NULL, "<inertial "
			    "fullinertia>: not positive definite, which "
			    "MuJoCo refuses");
	} else {
		report(ck, file, n, true, NULL, "<inertial> without "
		    "diaginertia or fullinertia");
	}
}

/* A joint's range, where the element itself limits it (limited="true",
 * or a range under autolimits; a class's limits are not followed). */
static void
check_range(struct checker *ck, const char *file, xmlNodePtr n)
{
	char *lim = attr(n, "limited");
	bool given = lim && strcmp(lim, "true") == 0;
	bool automatic = ck->autolimits && (!lim || strcmp(lim, "auto") == 0);
	double r[2];

	if (numbers(n, "range", r, 2) == 2 && (given || (automatic &&
	    !phys_mjcf_no_range(r))) && !(r[0] < r[1]))
		report(ck, file, n, true, NULL, "<%s range=\"%g %g\">: the "
		    "lower limit must be below the upper", n->name, r[0],
		    r[1]);
	free(lim);
}

/* An actuator acts on something: MuJoCo refuses one that names
 * nothing ("missing transmission target"). */
static void
check_transmission(struct checker *ck, const char *file, xmlNodePtr n)
{
	static const char *const targets[] = { "joint", "jointinparent",
		"tendon", "site", "cranksite", "body" };
	size_t i;

	for (i = 0; i < sizeof targets / sizeof *targets; i++)
		if (xmlHasProp(n, (const xmlChar *)targets[i]))
			return;
	report(ck, file, n, true, NULL, "<%s>: no joint, tendon, site or "
	    "body to act on: MuJoCo refuses an actuator without a "
	    "transmission target", n->name);
}

/* Does element n hold an element named name? */
static bool
holds(xmlNodePtr n, const char *name)
{
	xmlNodePtr c;

	for (c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    xmlStrEqual(c->name, (const xmlChar *)name))
			return true;
	return false;
}

static bool
has_joints(xmlNodePtr n)
{
	return holds(n, "joint") || holds(n, "freejoint");
}

/* Whether geom n weighs something as far as its own attributes say: a
 * mass given, else a density given, is positive (a class's are not
 * looked at). */
static bool
weighs(xmlNodePtr n)
{
	double v;

	if (numbers(n, "mass", &v, 1) == 1)
		return v > 0;
	return numbers(n, "density", &v, 1) != 1 || v > 0;
}

/* The groups lo to hi of an inertiagrouprange, as mass_source's bits. */
static unsigned long
group_bits(const double r[2])
{
	unsigned long bits = 0;
	int g;

	for (g = 0; g < 32; g++)
		if (g >= r[0] && g <= r[1] && (g < 31 || r[1] >= 31))
			bits |= 1ul << g;
	return bits;
}

static struct mass_source
mass_source(xmlNodePtr n)
{
	struct mass_source s = { false, false, 0 };
	double d[6], m, g;
	xmlNodePtr c;
	int k;

	for (c = n->children; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE &&
		    xmlStrEqual(c->name, (const xmlChar *)"geom") && weighs(c)) {
			if (numbers(c, "group", &g, 1) != 1)
				g = 0;
			s.geom_groups |= 1ul << (g >= 0 && g < 31 ? (int)g : 31);
		}
		if (c->type != XML_ELEMENT_NODE ||
		    !xmlStrEqual(c->name, (const xmlChar *)"inertial"))
			continue;
		s.has_inertial = true;
		s.inertial_massless = numbers(c, "mass", &m, 1) == 1 &&
		    m <= 0;
		if ((k = numbers(c, "diaginertia", d, 3)) == 3 &&
		    d[0] + d[1] + d[2] <= 0)
			s.inertial_massless = true;
	}
	return s;
}

/* A body: a free joint only at the top; a moving one's mass is looked
 * at once the compiler's settings are known. */
static void
check_body(struct checker *ck, const char *file, xmlNodePtr n, bool top)
{
	struct moving mv = { file, xmlGetLineNo(n), NULL, { { 0 } }, 0 };
	xmlNodePtr c;
	char *t;

	for (c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		t = attr(c, "type");
		if (!top && (xmlStrEqual(c->name,
		    (const xmlChar *)"freejoint") || (xmlStrEqual(c->name,
		    (const xmlChar *)"joint") && t && strcmp(t, "free") == 0)))
			report(ck, file, c, true, NULL, "a free joint only on "
			    "a body of <worldbody> itself: MuJoCo frees "
			    "top-level bodies alone");
		free(t);
	}
	if (!has_joints(n))
		return;
	mv.src[mv.nsrc++] = mass_source(n);
	for (c = n->children; c && mv.nsrc < MAX_SOURCES; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    xmlStrEqual(c->name, (const xmlChar *)"body") &&
		    !has_joints(c))
			mv.src[mv.nsrc++] = mass_source(c);
	mv.name = attr(n, "name");
	ck->moving = phys_xrealloc(ck->moving, (ck->nmoving + 1) *
	    sizeof *ck->moving);
	ck->moving[ck->nmoving++] = mv;
}

/* The parser's first complaint (libxml2 keeps only its last). */
struct first_error {
	bool seen;
	long line;
	char message[256];
};

static void
keep_first(void *ctx, const xmlError *e)
{
	struct first_error *f = ctx;

	if (f->seen || !e || e->level < XML_ERR_ERROR)
		return;
	f->seen = true;
	f->line = e->line;
	snprintf(f->message, sizeof f->message, "%.*s", e->message ?
	    (int)strcspn(e->message, "\n") : 7, e->message ? e->message :
	    "not XML");
}

/* Parse text safely: no network, no entities expanded; NULL with the
 * first error in *err. */
static xmlDocPtr
parse(const char *text, size_t len, const char *name,
    struct first_error *err)
{
	char *tolerated = phys_xml_tolerated(text, len);
	xmlDocPtr doc;

	memset(err, 0, sizeof *err);
	xmlSetStructuredErrorFunc(err, (xmlStructuredErrorFunc)keep_first);
	doc = phys_xml_read(tolerated ? tolerated : text, len, name,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	free(tolerated);
	if (!doc && !err->seen)
		snprintf(err->message, sizeof err->message, "not XML");
	/* entity declarations are the door to expansion bombs and
	 * external files: MJCF has no use for them */
	if (doc && ((doc->intSubset && doc->intSubset->entities) ||
	    doc->extSubset)) {
		const char *at = memmem(text, len, "<!DOCTYPE", 9), *p;

		err->line = 1;	/* the DOCTYPE's: libxml2 keeps no line */
		for (p = text; at && p < at; p++)
			err->line += *p == '\n';
		snprintf(err->message, sizeof err->message, "DTDs and entity "
		    "declarations are not allowed in MJCF");
		xmlFreeDoc(doc);
		doc = NULL;
	}
	return doc;
}

/* <include file="...">: the file's <mujoco> children, in place. */
static void
include(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *parent, int depth)
{
	char *f = attr(n, "file"), *path, *text, *name;
	struct first_error err;
	xmlDocPtr doc;
	xmlNodePtr root, c;
	size_t len;

	if (!f) {
		report(ck, file, n, true, NULL, "<include> without file");
		return;
	}
	if (depth >= MAX_INCLUDE_DEPTH) {
		report(ck, file, n, true, NULL, "<include file=\"%s\">: "
		    "includes nest more than %d deep", f, MAX_INCLUDE_DEPTH);
		free(f);
		return;
	}
	/* past the bound, said once: files that include each other
	 * tenfold, six deep, were read a million times (14 s) */
	if (++ck->nincludes > PHYS_MJCF_MAX_INCLUDES) {
		if (ck->nincludes == PHYS_MJCF_MAX_INCLUDES + 1)
			report(ck, file, n, true, NULL, "more than %d includes "
			    "(does a file include itself?)",
			    PHYS_MJCF_MAX_INCLUDES);
		free(f);
		return;
	}
	path = f[0] == '/' ? phys_xstrdup(f) : phys_xasprintf("%s/%s",
	    ck->dir, f);
	if (!(text = phys_read_regular_file(path, &len))) {
		report(ck, file, n, true, NULL, "<include file=\"%s\">: %s",
		    f, phys_error());
		free(f);
		free(path);
		return;
	}
	name = path;
	ck->files = phys_xrealloc(ck->files, (ck->nfiles + 1) *
	    sizeof *ck->files);
	ck->files[ck->nfiles++] = name;
	doc = parse(text, len, name, &err);
	free(text);
	if (!doc) {
		struct phys_mjcf_finding fd = { name, err.line, true, NULL,
			{ NULL }, err.message };

		ck->fn(&fd, ck->ctx);
	} else if (!(root = xmlDocGetRootElement(doc)) ||
	    !xmlStrEqual(root->name, (const xmlChar *)"mujoco")) {
		report(ck, name, root, true, NULL, "an included file's root "
		    "element must be <mujoco>");
	} else {
		for (c = root->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				walk(ck, name, c, parent, depth + 1);
	}
	xmlFreeDoc(doc);
	free(f);
}

static void
unknown_element(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *parent)
{
	const char *name = (const char *)n->name;
	struct phys_close c = { { NULL }, { 0 }, 0 };
	/* a sensor phys does not read (a later MuJoCo's, as MuJoCo 3's
	 * <contact>, or a misspelt one) does not keep phys from loading the
	 * model: a warning */
	bool sensor = strcmp(parent->id, "sensor") == 0;
	char hint[256];
	size_t i;

	if (phys_mjcf_known(name) && !sensor) {
		report(ck, file, n, true, NULL, "<%s> cannot sit in <%s>",
		    name, parent->name);
		return;
	}
	for (i = 0; i < phys_mjcf_nelems; i++)
		if (phys_mjcf_child(parent, phys_mjcf_elems[i].name) ==
		    &phys_mjcf_elems[i])
			phys_close_consider(&c, name, phys_mjcf_elems[i].name);
	report(ck, file, n, !sensor, c.name, "unknown element <%s> in <%s>%s%s",
	    name, parent->name, sensor ? " (MuJoCo 2.2.2 has no such sensor; "
	    "phys reads no sensor and loads the model)" : "",
	    phys_close_text(&c, true, hint, sizeof hint));
}

/* An object's name: its own, or, for an asset read from a file, the
 * file's name without directory and extension, as MuJoCo names it. */
static char *
object_name(xmlNodePtr n, const char *kind)
{
	char *v = attr(n, "name"), *f, *base, *dot;

	if (v || (strcmp(kind, "mesh") != 0 && strcmp(kind, "hfield") != 0 &&
	    strcmp(kind, "texture") != 0 && strcmp(kind, "skin") != 0) ||
	    !(f = attr(n, "file")))
		return v;
	base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
	if ((dot = strrchr(base, '.')) && dot != base)
		*dot = '\0';
	v = phys_xstrdup(base);
	free(f);
	return v;
}

/* Plugin n's name: mujoco.pid, or an error. */
static void
pid_name(struct checker *ck, const char *file, xmlNodePtr n)
{
	char *v = attr(n, "plugin");

	if (!v || strcmp(v, "mujoco.pid") != 0)
		report(ck, file, n, true, NULL, PHYS_MJCF_PID_ONLY,
		    v ? v : "");
	free(v);
}

/*
 * A later MuJoCo's plugins, n in parent: an <extension> and an
 * actuator's <plugin>, which phys reads for mujoco.pid (MuJoCo's pid
 * actuator) and refuses for any other, as the loader does. Whether n is
 * one.
 */
static bool
later_plugin(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *parent)
{
	bool ext = parent == phys_mjcf_root() &&
	    xmlStrEqual(n->name, (const xmlChar *)"extension");
	bool act = parent && strcmp(parent->id, "actuator") == 0 &&
	    xmlStrEqual(n->name, (const xmlChar *)"plugin");
	xmlNodePtr c;

	if (!ext && !act)
		return false;
	report(ck, file, n, false, NULL, "<%s>: a later MuJoCo's, which "
	    "MuJoCo 2.2.2 refuses: phys reads its pid actuator, mujoco.pid",
	    (const char *)n->name);
	if (act)
		pid_name(ck, file, n);
	for (c = phys_child(n, "plugin"); ext && c; c = phys_next(c, "plugin"))
		pid_name(ck, file, c);
	return true;
}

/* Element n, a child of an element parent, and what it holds. */
static void
walk(struct checker *ck, const char *file, xmlNodePtr n,
    const struct phys_mjcf_elem *parent, int depth)
{
	const struct phys_mjcf_elem *e;
	const char *kind;
	bool was = ck->in_default;
	xmlAttrPtr p;
	xmlNodePtr c;
	double range[2];
	char *v;

	ck->file = file;
	ck->at = n;
	if (xmlStrEqual(n->name, (const xmlChar *)"include")) {
		include(ck, file, n, parent, depth);
		return;
	}
	if (phys_mjcf_meta_in(parent, (const char *)n->name)) {
		/* a later MuJoCo's: what it holds sits in its body */
		report(ck, file, n, false, NULL, "<%s>: a later MuJoCo's, "
		    "which MuJoCo 2.2.2 refuses: phys reads it", n->name);
		for (p = n->properties; p; p = p->next)
			if (!p->ns && !phys_mjcf_meta_attr((const char *)
			    n->name, (const char *)p->name))
				report(ck, file, n, true, NULL, "unknown "
				    "attribute '%s' of <%s>", p->name,
				    n->name);
		for (c = n->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				walk(ck, file, c, parent, depth);
		return;
	}
	if (later_plugin(ck, file, n, parent))
		return;
	if (!(e = parent ? phys_mjcf_child(parent, (const char *)n->name) :
	    phys_mjcf_root())) {
		unknown_element(ck, file, n, parent);
		return;
	}
	check_attrs(ck, file, n, e);
	if (strcmp(e->id, "default") == 0) {
		ck->in_default = true;
		v = attr(n, "class");
		add(&ck->names, "class", v ? v : "main", file,
		    xmlGetLineNo(n), NULL);
		free(v);
	} else if (!ck->in_default && (kind = name_kind(e)) &&
	    (v = object_name(n, kind))) {
		const struct entry *was_named = find(&ck->names, kind, v);

		if (was_named)
			report(ck, file, n, true, NULL, "%s name '%s' given "
			    "twice (first at %s:%ld): MuJoCo refuses a "
			    "repeated name", kind, v, was_named->file,
			    was_named->line);
		else
			add(&ck->names, kind, v, file, xmlGetLineNo(n), NULL);
		free(v);
	}
	if (strcmp(e->id, "compiler") == 0) {
		if ((v = attr(n, "inertiafromgeom"))) {
			free(ck->inertiafromgeom);
			ck->inertiafromgeom = v;
		}
		if (numbers(n, "inertiagrouprange", range, 2) == 2)
			ck->igroups = group_bits(range);
		if ((v = attr(n, "balanceinertia")))
			ck->balanceinertia = strcmp(v, "true") == 0;
		free(v);
		if ((v = attr(n, "autolimits")))
			ck->autolimits = strcmp(v, "true") == 0;
		free(v);
	}
	if (!ck->in_default) {
		if (strcmp(e->id, "inertial") == 0)
			check_inertial(ck, file, n);
		else if (strcmp(e->id, "joint") == 0)
			check_range(ck, file, n);
		else if (strcmp(e->id, "body") == 0)
			check_body(ck, file, n, strcmp(parent->id,
			    "worldbody") == 0);
		else if (parent && strcmp(parent->id, "actuator") == 0 &&
		    strcmp(e->id, "plugin") != 0)
			check_transmission(ck, file, n);
	}
	if (!e->free)
		for (c = n->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				walk(ck, file, c, e, depth);
	ck->in_default = was;
}

/* ---- the compiler's rules, once all is read ---- */

/* Dangling references given did-you-mean: each weighs every name of its
 * kind, so past these many a hostile file's check would be quadratic. */
#define MAX_SUGGESTED 100

static void
check_refs(struct checker *ck)
{
	struct phys_close c;
	char hint[256];
	size_t i, k, suggested = 0;

	for (i = 0; i < ck->refs.n; i++) {
		const struct entry *r = &ck->refs.v[i];
		struct phys_mjcf_finding f;
		char msg[512];

		if (find(&ck->names, r->kind, r->name) ||
		    (strcmp(r->kind, "class") == 0 &&
		    strcmp(r->name, "main") == 0))
			continue;
		memset(&c, 0, sizeof c);
		for (k = 0; suggested < MAX_SUGGESTED && k < ck->names.n; k++)
			if (strcmp(ck->names.v[k].kind, r->kind) == 0)
				phys_close_consider(&c, r->name, ck->names.v[k].name);
		suggested++;
		snprintf(msg, sizeof msg, "%s=\"%s\": no %s%s is so named%s",
		    r->attr, r->name, strcmp(r->kind, "class") == 0 ?
		    "default " : "", r->kind, phys_close_text(&c, false, hint,
		    sizeof hint));
		memset(&f, 0, sizeof f);
		f.file = r->file;
		f.line = r->line;
		f.error = true;
		for (k = 0; k < c.n; k++)
			f.suggest[k] = c.name[k];
		f.message = msg;
		ck->fn(&f, ck->ctx);
	}
}

/* A moving body needs mass and inertia of its own or of a body welded
 * to it: from an <inertial>, or, when the compiler computes inertia from
 * geometry, from geoms. */
static void
check_masses(struct checker *ck)
{
	const char *ifg = ck->inertiafromgeom ? ck->inertiafromgeom : "auto";
	struct phys_mjcf_finding f;
	char msg[512];
	bool massless, has_geom;
	size_t i;
	int k;

	for (i = 0; i < ck->nmoving; i++) {
		const struct moving *mv = &ck->moving[i];

		massless = true;
		for (k = 0; k < mv->nsrc && massless; k++) {
			const struct mass_source *s = &mv->src[k];

			has_geom = (s->geom_groups & ck->igroups) != 0;
			/* with no geom in the groups, MuJoCo keeps the
			 * <inertial> even so */
			if (strcmp(ifg, "true") == 0)
				massless = !has_geom && (!s->has_inertial ||
				    s->inertial_massless);
			else if (s->has_inertial)
				massless = s->inertial_massless;
			else
				massless = strcmp(ifg, "false") == 0 ||
				    !has_geom;
		}
		if (!massless)
			continue;
		snprintf(msg, sizeof msg, "body%s%s%s moves (it has joints) "
		    "and has no mass: MuJoCo refuses a moving body whose mass "
		    "and inertia are not positive", mv->name ? " '" : "",
		    mv->name ? mv->name : "", mv->name ? "'" : "");
		memset(&f, 0, sizeof f);
		f.file = mv->file;
		f.line = mv->line;
		f.error = true;
		f.element = "body";
		f.message = msg;
		ck->fn(&f, ck->ctx);
	}
}

/* The element the check has reached. */
static long
checking(const void *checker, const char **file)
{
	const struct checker *ck = checker;

	if (!ck->at)
		return 0;
	*file = ck->file;
	return xmlGetLineNo(ck->at);
}

void
phys_mjcf_check(const char *name, const char *path, const char *text,
    size_t len, phys_mjcf_report fn, void *ctx)
{
	struct phys_reading place = { NULL, checking, NULL, NULL };
	struct checker ck;
	xmlDocPtr doc;
	size_t i;
	char *dir = phys_path_dir(path);
	struct first_error err;

	memset(&ck, 0, sizeof ck);
	ck.igroups = group_bits((const double[2]){ 0, 5 });	/* MuJoCo's */
	list_init(&ck.names);
	list_init(&ck.refs);
	ck.fn = fn;
	ck.ctx = ctx;
	ck.dir = dir;
	doc = parse(text, len, name, &err);
	if (!doc) {
		struct phys_mjcf_finding f = { name, err.line, true, NULL,
			{ NULL }, err.message };

		fn(&f, ctx);
	} else {
		place.arg = &ck;
		phys_reading_push(&place);
		walk(&ck, name, xmlDocGetRootElement(doc), NULL, 0);
		ck.at = NULL;
		check_refs(&ck);
		check_masses(&ck);
		phys_reading_pop(&place);
		xmlFreeDoc(doc);
	}
	list_free(&ck.names);
	list_free(&ck.refs);
	for (i = 0; i < ck.nmoving; i++)
		free(ck.moving[i].name);
	for (i = 0; i < ck.nfiles; i++)
		free(ck.files[i]);
	free(ck.moving);
	free(ck.files);
	free(ck.inertiafromgeom);
	free(dir);
}
