/*
 * check.c - a world checked against the SDFormat specification of its
 * version (lib/spec_table.c), the parameter table's ranges, the loader and
 * the inertia checks: every finding is collected, none stops the others
 * except where the loader must stop.
 */
#include "check.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "inertia_world.h"
#include "mem.h"
#include "mjcfcheck.h"
#include "mjcfroot.h"
#include "names.h"
#include "param.h"
#include "sdfprint.h"
#include "spec.h"
#include "world.h"

static int version_index(const struct phys_spec_version *sv);

/* ---- findings ---- */

#define MAX_VERSIONS 32		/* the table holds 12 */

struct checker {
	struct phys_findings *out;
	struct phys_doc *doc;
	int rank;
	const struct phys_spec_version *spec;	/* of the element at hand */
};

/*
 * Where an element is in each version's description, -1 where it has no
 * place. An element is checked against the file's version; one that only
 * a later version describes against that version, with a warning
 * (libsdformat converts old files up and reads them with the newest
 * specification, so Gazebo accepts it).
 */
struct places {
	int ei[MAX_VERSIONS];
};

/* The versions a walk follows (a longer table would need MAX_VERSIONS). */
static int
nversions(void)
{
	return phys_spec_nversions < MAX_VERSIONS ? phys_spec_nversions :
	    MAX_VERSIONS;
}

static struct phys_finding *
add_finding(struct phys_findings *f, const char *file, long line,
    enum phys_severity sev, const char *element, const char *message)
{
	struct phys_finding *x;

	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->v = phys_xrealloc(f->v, f->cap * sizeof *f->v);
	}
	x = &f->v[f->n];
	memset(x, 0, sizeof *x);
	x->file = phys_xstrdup(file);
	x->line = line;
	x->severity = sev;
	x->message = phys_xstrdup(message);
	x->element = element ? phys_xstrdup(element) : NULL;
	x->seq = f->n++;
	if (sev == PHYS_SEV_ERROR)
		f->nerrors++;
	else
		f->nwarnings++;
	return x;
}

static struct phys_finding *
finding(struct checker *ck, xmlNodePtr n, enum phys_severity sev,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static struct phys_finding *
finding(struct checker *ck, xmlNodePtr n, enum phys_severity sev,
    const char *fmt, ...)
{
	struct phys_finding *x;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	x = add_finding(ck->out, PHYS_AT(ck->doc, n), sev,
	    n ? (const char *)n->name : NULL, msg);
	x->file_rank = ck->rank;
	return x;
}

/* ---- closest names ---- */

static void
attach_suggestions(struct phys_finding *x, const struct phys_close *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		x->suggest[i] = phys_xstrdup(c->name[i]);
}

/* ---- values of the specification's types ---- */

static bool
all_numbers(const char *text, int want_min, int want_max, bool integers)
{
	double v[8];
	long l;
	char word[128];
	const char *s = text;
	int n = phys_parse_doubles(text, v, want_max + 1);
	size_t len;

	if (n < want_min || n > want_max)
		return false;
	while (integers && *s) {
		while (isspace((unsigned char)*s))
			s++;
		len = strcspn(s, " \t\r\n");
		if (len == 0)
			break;
		if (len >= sizeof word)
			return false;
		memcpy(word, s, len);
		word[len] = '\0';
		if (!phys_parse_long(word, &l))
			return false;
		s += len;
	}
	return true;
}

static const char *
type_name(enum phys_spec_type t)
{
	static const char *const names[] = {
		"nothing", "a string", "true or false", "an integer",
		"a non-negative integer", "a number", "one character",
		"2 numbers", "2 integers", "3 numbers (x y z)",
		"4 numbers (x y z w)", "6 numbers (x y z roll pitch yaw)",
		"3 or 4 numbers (r g b [a])", "a time (seconds [nanoseconds])"
	};

	return names[t];
}

static bool
value_ok(enum phys_spec_type t, const char *text, bool quaternion_pose)
{
	long l;

	switch (t) {
	case PHYS_SPEC_NONE:
	case PHYS_SPEC_STRING:
		return true;
	case PHYS_SPEC_BOOL:
		return strcasecmp(text, "true") == 0 ||
		    strcasecmp(text, "false") == 0 || strcmp(text, "1") == 0 ||
		    strcmp(text, "0") == 0;
	case PHYS_SPEC_INT:
		return phys_parse_long(text, &l);
	case PHYS_SPEC_UINT:
		return phys_parse_long(text, &l) && l >= 0;
	case PHYS_SPEC_DOUBLE:
		return all_numbers(text, 1, 1, false);
	case PHYS_SPEC_CHAR:
		return strlen(text) == 1;
	case PHYS_SPEC_VECTOR2D:
		return all_numbers(text, 2, 2, false);
	case PHYS_SPEC_VECTOR2I:
		return all_numbers(text, 2, 2, true);
	case PHYS_SPEC_VECTOR3:
		return all_numbers(text, 3, 3, false);
	case PHYS_SPEC_QUATERNION:
		return all_numbers(text, 4, 4, false);
	case PHYS_SPEC_POSE:	/* empty: the default */
		return !*text || all_numbers(text, quaternion_pose ? 7 : 6,
		    quaternion_pose ? 7 : 6, false);
	case PHYS_SPEC_COLOR:
		return all_numbers(text, 3, 4, false);
	case PHYS_SPEC_TIME:
		return all_numbers(text, 1, 2, false);
	}
	return true;
}

/* ---- the element walk ---- */

static const struct phys_spec_elem *
elem(const struct checker *ck, int i)
{
	return &ck->spec->elems[i];
}

/* Elements and attributes in a namespace (gz:, ignition:, xmlns) are
 * free-form extensions. */
static bool
foreign_name(const xmlChar *name, xmlNsPtr ns)
{
	return ns != NULL || strchr((const char *)name, ':') != NULL;
}

static const struct phys_spec_attr *
find_attr(const struct checker *ck, const struct phys_spec_elem *e,
    const char *name)
{
	unsigned i;

	for (i = 0; i < e->nattrs; i++)
		if (strcmp(ck->spec->attrs[e->attr + i].name, name) == 0)
			return &ck->spec->attrs[e->attr + i];
	return NULL;
}

static void
unknown_attr(struct checker *ck, xmlNodePtr n, const struct phys_spec_elem *e,
    const char *name)
{
	struct phys_close c = { { NULL }, { 0 }, 0 };
	struct phys_finding *x;
	char hint[256];
	unsigned i;

	for (i = 0; i < e->nattrs; i++)
		phys_close_consider(&c, name, ck->spec->attrs[e->attr + i].name);
	phys_close_text(&c, false, hint, sizeof hint);
	x = finding(ck, n, PHYS_SEV_ERROR, "<%s> has no attribute '%s' in SDF "
	    "%d.%d%s", (const char *)n->name, name, ck->spec->major,
	    ck->spec->minor, hint);
	attach_suggestions(x, &c);
}

static bool
pose_is_quaternion(xmlNodePtr n)
{
	char *f = phys_node_attr(n, "rotation_format");
	bool q = f && strcmp(f, "quat_xyzw") == 0;

	free(f);
	return q;
}

/* The first version after the one at hand whose description of the
 * element has the attribute; -1 when none. */
static int
later_attr(const struct checker *ck, const struct places *pl, const char *name)
{
	struct checker tmp;
	int v;

	for (v = version_index(ck->spec) + 1; v < nversions(); v++) {
		if (pl->ei[v] < 0)
			continue;
		tmp.spec = &phys_spec_versions[v];
		if (find_attr(&tmp, &tmp.spec->elems[pl->ei[v]], name))
			return v;
	}
	return -1;
}

static void
check_attrs(struct checker *ck, xmlNodePtr n, const struct phys_spec_elem *e,
    const struct places *pl)
{
	const struct phys_spec_attr *a;
	xmlAttrPtr p;
	unsigned i;
	char *v;
	int later;

	for (p = n->properties; p; p = p->next) {
		if (foreign_name(p->name, p->ns))
			continue;
		a = find_attr(ck, e, (const char *)p->name);
		if (!a && (later = later_attr(ck, pl, (const char *)p->name)) >= 0)
			finding(ck, n, PHYS_SEV_WARNING, "attribute '%s' of <%s> "
			    "is from SDF %d.%d, not SDF %d.%d: Gazebo reads it, "
			    "other readers may not", (const char *)p->name,
			    (const char *)n->name,
			    phys_spec_versions[later].major,
			    phys_spec_versions[later].minor, ck->spec->major,
			    ck->spec->minor);
		if (!a && later >= 0)
			continue;
		if (!a) {
			unknown_attr(ck, n, e, (const char *)p->name);
			continue;
		}
		v = phys_node_attr(n, a->name);
		if (v && !value_ok(a->type, v, false))
			finding(ck, n, PHYS_SEV_ERROR, "<%s %s=\"%s\">: expected "
			    "%s", (const char *)n->name, a->name, v,
			    type_name(a->type));
		free(v);
	}
	for (i = 0; i < e->nattrs; i++) {
		a = &ck->spec->attrs[e->attr + i];
		if (a->required == PHYS_SPEC_ONE &&
		    !xmlHasProp(n, (const xmlChar *)a->name))
			finding(ck, n, PHYS_SEV_ERROR, "<%s> has no '%s' "
			    "attribute (required)", (const char *)n->name,
			    a->name);
	}
}

/* How libsdformat reads a value of type t by its leading part, or -1. */
static int
spec_leading_kind(enum phys_spec_type t)
{
	return t == PHYS_SPEC_INT || t == PHYS_SPEC_UINT ? PHYS_LEAD_INT :
	    t == PHYS_SPEC_DOUBLE ? PHYS_LEAD_NUMBER :
	    t == PHYS_SPEC_VECTOR3 ? PHYS_LEAD_VECTOR3 : -1;
}

/* False (and a finding) when the text is not of the element's type. */
static bool
check_value(struct checker *ck, xmlNodePtr n, const struct phys_spec_elem *e)
{
	char *text, num[PHYS_LEADING_MAX];
	const char *part;
	bool ok;
	int kind;

	if (e->type == PHYS_SPEC_NONE || e->type == PHYS_SPEC_STRING)
		return true;
	text = phys_node_text(n);
	if (!*text && e->def && e->type != PHYS_SPEC_POSE) {
		/* libsdformat keeps the default of an element without text */
		finding(ck, n, PHYS_SEV_WARNING, "<%s> is empty: the "
		    "specification's default %s applies", (const char *)n->name,
		    *e->def ? e->def : "(empty)");
		free(text);
		return true;
	}
	ok = value_ok(e->type, text, pose_is_quaternion(n));
	kind = spec_leading_kind(e->type);
	if (!ok && kind >= 0 &&
	    (part = phys_leading_as_sdformat(text, kind, num)) &&
	    (e->type != PHYS_SPEC_UINT || *part != '-')) {
		finding(ck, n, PHYS_SEV_WARNING, PHYS_LEADING_AS_SDFORMAT,
		    (const char *)n->name, text, (const char *)n->name,
		    part, phys_leading_what(kind));
		ok = true;
	} else if (!ok) {
		finding(ck, n, PHYS_SEV_ERROR, "<%s>%s</%s>: expected %s",
		    (const char *)n->name, text, (const char *)n->name,
		    e->type == PHYS_SPEC_POSE && pose_is_quaternion(n) ?
		    "7 numbers (x y z qx qy qz qw)" : type_name(e->type));
	}
	free(text);
	return ok;
}

/* The parameter-table scope an element opens, or -1. */
static int
param_scope(xmlNodePtr n)
{
	/* a profile: a joint's <physics> is the joint's */
	if (phys_node_is(n, "physics") && n->parent &&
	    phys_node_is(n->parent, "world"))
		return PHYS_S_PHYSICS;
	if (phys_node_is(n, "world"))
		return PHYS_S_WORLD;
	if (phys_node_is(n, "link"))
		return PHYS_S_LINK;
	if (phys_node_is(n, "collision"))
		return PHYS_S_COLLISION;
	if (phys_node_is(n, "joint"))
		return PHYS_S_JOINT;
	return -1;
}

/* Where the walk is in the parameter table: a scope and a dot path. */
struct param_at {
	int scope;		/* -1: outside every scope */
	char path[192];
};

static void
param_descend(const struct param_at *up, xmlNodePtr n, struct param_at *down)
{
	int s = param_scope(n);
	int len;

	down->scope = s;
	down->path[0] = '\0';
	if (s >= 0 || up->scope < 0)
		return;
	down->scope = up->scope;
	len = snprintf(down->path, sizeof down->path, "%s%s%s", up->path,
	    up->path[0] ? "." : "", (const char *)n->name);
	if (len < 0 || (size_t)len >= sizeof down->path)
		down->scope = -1;
}

/* Whether text is a value of p outside its range that the loader keeps
 * as written, saying so itself (phys_param_kept_outside_range). */
static bool
kept_outside_range(const struct phys_param *p, const char *text)
{
	struct phys_param open = *p;
	struct phys_value v;

	if (!phys_param_kept_outside_range(p))
		return false;
	open.min = PHYS_NOMIN;
	open.max = PHYS_NOMAX;
	memset(&v, 0, sizeof v);
	if (phys_value_parse(&open, text, &v) < 0)
		return false;
	phys_value_free(&v);
	return true;
}

static bool
zero_text(const char *text)
{
	double x;

	return phys_parse_double(text, &x) && x == 0;
}

/* Ranges and closed sets the parameter table knows beyond the spec. */
static void
check_param(struct checker *ck, xmlNodePtr n, const struct param_at *at)
{
	const struct phys_param *p;
	struct phys_value v;
	char *text;
	const char *why, *part;
	char num[PHYS_LEADING_MAX];

	if (at->scope < 0 || !at->path[0])
		return;
	p = phys_param_find((phys_scope)at->scope, at->path);
	if (!p || strcmp(p->name, at->path) != 0)
		return;
	text = phys_node_text(n);
	memset(&v, 0, sizeof v);
	if (!*text && p->type != PHYS_T_STRING) {
		/* empty: the default, said by the walk */
	} else if (p->type == PHYS_T_POSE && phys_pose_has_attributes(n)) {
		/* a quaternion or degrees: the spec's check (value_ok)
		 * reads it, as the loader does */
	} else if (p->id == PHYS_P_LINK_inertial_mass && zero_text(text)) {
		/* valid SDF, run by phys-step with a stand-in mass */
		finding(ck, n, PHYS_SEV_WARNING, "<%s>: a mass of 0 runs, on "
		    "a moving link, with 1/1000 of its model's lightest mass "
		    "(its shapes' mass at 1000 kg/m^3 when no link of its "
		    "model has one)", (const char *)n->name);
	} else if (kept_outside_range(p, text)) {
		/* the loader's warning says it, at this element */
	} else if (phys_value_parse(p, (part = phys_param_leading(p, text,
	    num, NULL)) ? part : text, &v) < 0) {
		/* (a value's leading part, said by check_value) */
		why = phys_error();
		finding(ck, n, PHYS_SEV_ERROR, "<%s>: %s", (const char *)n->name,
		    why);
	} else {
		phys_value_free(&v);
	}
	free(text);
}

/*
 * phys's own elements (the <mujoco> blocks, SDF having no MuJoCo): those
 * the parameter table names under the scope at hand. The parameter whose
 * name at starts, or NULL.
 */
static const struct phys_param *
own_param(const struct param_at *at)
{
	size_t i, n, len = strlen(at->path);
	const struct phys_param *p;

	if (at->scope < 0 || !len)
		return NULL;
	n = phys_scope_count((phys_scope)at->scope);
	for (i = 0; i < n; i++) {
		p = phys_scope_param((phys_scope)at->scope, i);
		if (strncmp(p->name, at->path, len) == 0 &&
		    (p->name[len] == '\0' || p->name[len] == '.'))
			return p;
	}
	return NULL;
}

static void
unknown_own_element(struct checker *ck, xmlNodePtr parent, xmlNodePtr c,
    const struct param_at *at)
{
	struct phys_close cand = { { NULL }, { 0 }, 0 };
	struct phys_finding *x;
	size_t i, k, n = phys_scope_count((phys_scope)at->scope), nn = 0;
	size_t len = strlen(at->path) - strlen((const char *)c->name);
	const struct phys_param *p;
	char names[32][64], hint[256];

	/* the table's names one level below the parent's path, each once */
	for (i = 0; i < n && nn < 32; i++) {
		p = phys_scope_param((phys_scope)at->scope, i);
		if (strncmp(p->name, at->path, len) != 0)
			continue;
		snprintf(names[nn], sizeof names[nn], "%.*s",
		    (int)strcspn(p->name + len, "."), p->name + len);
		for (k = 0; k < nn && strcmp(names[k], names[nn]) != 0; k++)
			continue;
		if (k == nn)
			nn++;
	}
	for (k = 0; k < nn; k++)
		phys_close_consider(&cand, (const char *)c->name, names[k]);
	phys_close_text(&cand, true, hint, sizeof hint);
	x = finding(ck, c, PHYS_SEV_ERROR, "unknown element <%s> in phys's "
	    "<%s>%s", (const char *)c->name, (const char *)parent->name, hint);
	attach_suggestions(x, &cand);
}

/* The elements below one of phys's own: each a parameter of the table
 * (its value checked) or a step towards one. */
static void
check_own_children(struct checker *ck, xmlNodePtr n, const struct param_at *at)
{
	struct param_at down;
	const struct phys_param *p;
	xmlNodePtr c;

	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL)) {
		if (foreign_name(c->name, c->ns))
			continue;
		param_descend(at, c, &down);
		p = own_param(&down);
		if (!p) {
			unknown_own_element(ck, n, c, &down);
			continue;
		}
		if (strcmp(p->name, down.path) == 0)
			check_param(ck, c, &down);
		else
			check_own_children(ck, c, &down);
	}
}

/* An element phys reads that SDF does not describe: said once, where it
 * starts, then checked against the parameter table. */
static void
check_own(struct checker *ck, xmlNodePtr parent, xmlNodePtr c,
    const struct param_at *at, const struct phys_param *p)
{
	const char *engine = phys_engine_type_name(p->engines);

	finding(ck, c, PHYS_SEV_WARNING, "<%s> in <%s> is phys's own%s%s%s, "
	    "not SDFormat: other readers ignore it", (const char *)c->name,
	    (const char *)parent->name, engine ? " block for its " : "",
	    engine ? engine : "", engine ? " engine" : "");
	if (strcmp(p->name, at->path) == 0)
		check_param(ck, c, at);
	else
		check_own_children(ck, c, at);
}

static void
unknown_element(struct checker *ck, xmlNodePtr parent,
    const struct phys_spec_elem *pe, xmlNodePtr c)
{
	struct phys_close cand = { { NULL }, { 0 }, 0 };
	struct phys_finding *x;
	char hint[256];
	unsigned i;

	for (i = 0; i < pe->nkids; i++) {
		const char *name =
		    elem(ck, ck->spec->kids[pe->kid + i].elem)->name;

		if (name)
			phys_close_consider(&cand, (const char *)c->name, name);
	}
	phys_close_text(&cand, true, hint, sizeof hint);
	/* A name close to a known one is a misspelling, which every reader
	 * ignores: an error. Another is an extension a simulator may read
	 * (gz-sim's <gz_frame_id>): libsdformat keeps it with a warning. */
	if (cand.n)
		x = finding(ck, c, PHYS_SEV_ERROR, "unknown element <%s> in "
		    "<%s> (SDF %d.%d)%s", (const char *)c->name,
		    (const char *)parent->name, ck->spec->major,
		    ck->spec->minor, hint);
	else
		x = finding(ck, c, PHYS_SEV_WARNING, "unknown element <%s> in "
		    "<%s> (SDF %d.%d): not SDFormat; libsdformat keeps it and "
		    "phys ignores it", (const char *)c->name,
		    (const char *)parent->name, ck->spec->major,
		    ck->spec->minor);
	attach_suggestions(x, &cand);
}

/* <physics><gravity> after SDF 1.5: ignored, as libsdformat does, with
 * the loader's warning. */
static bool
legacy_gravity(xmlNodePtr parent, xmlNodePtr c)
{
	return phys_node_is(parent, "physics") && phys_node_is(c, "gravity");
}

/* Index into pe's kids of the one named name; -1 when none, -2 when pe
 * takes any element (a plugin's data). */
static int
find_kid(const struct checker *ck, const struct phys_spec_elem *pe,
    const char *name)
{
	unsigned i;
	int any = -1;

	for (i = 0; i < pe->nkids; i++) {
		const char *k = elem(ck, ck->spec->kids[pe->kid + i].elem)->name;

		if (!k)
			any = -2;
		else if (strcmp(k, name) == 0)
			return (int)i;
	}
	return any;
}

/*
 * Required children missing. Like libsdformat, a required element that
 * has a default is taken at its default, and only a joint's are errors;
 * one whose default is a placeholder ("__default__": a material script's
 * <uri>) means nothing at its default, and is a warning elsewhere.
 */
static void
check_required(struct checker *ck, xmlNodePtr n, const struct phys_spec_elem *e,
    const unsigned *count)
{
	const struct phys_spec_elem *k;
	unsigned i;

	for (i = 0; i < e->nkids; i++) {
		k = elem(ck, ck->spec->kids[e->kid + i].elem);
		if (count[i] || !k->name || (ck->spec->kids[e->kid + i].required !=
		    PHYS_SPEC_ONE && ck->spec->kids[e->kid + i].required !=
		    PHYS_SPEC_SOME))
			continue;
		if (phys_node_is(n, "mesh") && strcmp(k->name, "uri") == 0 &&
		    phys_child(n, "vertices"))
			finding(ck, n, PHYS_SEV_WARNING, "%s", "<mesh> is given "
			    "by <phys:vertices> (an MJCF mesh's lists), not "
			    "by a <uri>: other readers see no mesh");
		else if (k->def && strcmp(k->def, "__default__") == 0)
			finding(ck, n, phys_node_is(n, "joint") ?
			    PHYS_SEV_ERROR : PHYS_SEV_WARNING, "<%s> has no <%s> "
			    "(required)", (const char *)n->name, k->name);
	}
}

static void
later_version_warning(struct checker *ck, xmlNodePtr c, int v)
{
	finding(ck, c, PHYS_SEV_WARNING, "<%s> in <%s> is from SDF %d.%d, "
	    "not SDF %d.%d: Gazebo reads it, other readers may not",
	    (const char *)c->name, (const char *)c->parent->name,
	    phys_spec_versions[v].major, phys_spec_versions[v].minor,
	    ck->spec->major, ck->spec->minor);
}

/* The places of a child named name in every version at or after from;
 * the first version that has it, -1 when none, or -2 when the element
 * takes any child there (a plugin's data). */
static int
descend(const struct places *up, int from, const char *name,
    struct places *down)
{
	const struct phys_spec_version *sv;
	const struct phys_spec_elem *pe;
	struct checker tmp;
	int v, k, first = -1;

	for (v = 0; v < nversions(); v++) {
		down->ei[v] = -1;
		if (v < from || up->ei[v] < 0)
			continue;
		sv = &phys_spec_versions[v];
		pe = &sv->elems[up->ei[v]];
		tmp.spec = sv;
		k = find_kid(&tmp, pe, name);
		if (k == -2 && first < 0)
			return -2;
		if (k < 0)
			continue;
		down->ei[v] = sv->kids[pe->kid + k].elem;
		if (first < 0)
			first = v;
	}
	return first;
}

/* True when a version after self takes several of the child (SDF 1.6
 * made <physics> repeatable: the profiles). */
static bool
later_allows_many(const struct places *pl, int self, const char *name)
{
	const struct phys_spec_version *sv;
	const struct phys_spec_elem *pe;
	struct checker tmp;
	int v, k;

	for (v = self + 1; v < nversions(); v++) {
		if (pl->ei[v] < 0)
			continue;
		sv = tmp.spec = &phys_spec_versions[v];
		pe = &sv->elems[pl->ei[v]];
		k = find_kid(&tmp, pe, name);
		if (k >= 0 && (sv->kids[pe->kid + k].required == PHYS_SPEC_SOME ||
		    sv->kids[pe->kid + k].required == PHYS_SPEC_ANY))
			return true;
	}
	return false;
}

static int
version_index(const struct phys_spec_version *sv)
{
	return (int)(sv - phys_spec_versions);
}

/* SDF 1.6's <pose frame="F">: read as relative_to, as libsdformat 9 and
 * later read it (Gazebo 9 and older ignored it). */
static void
old_pose_frame(struct checker *ck, xmlNodePtr n)
{
	char *f;

	if (!phys_node_is(n, "pose") || ck->doc->major != 1 ||
	    ck->doc->minor > 6 || xmlHasProp(n, (const xmlChar *)"relative_to"))
		return;
	f = phys_node_attr(n, "frame");
	if (f && *f)
		finding(ck, n, PHYS_SEV_WARNING, "<pose frame=\"%s\">: read as "
		    "relative_to=\"%s\", as libsdformat 9 and later read it "
		    "(Gazebo 9 and older ignore it)", f, f);
	free(f);
}

static void walk_at(struct checker *ck, xmlNodePtr n, const struct places *pl,
    int v, const struct param_at *at);

static void
check_children(struct checker *ck, xmlNodePtr n, const struct phys_spec_elem *e,
    const struct places *pl, const struct param_at *at)
{
	unsigned *count = phys_xcalloc(e->nkids ? e->nkids : 1, sizeof *count);
	int self = version_index(ck->spec), v, k;
	const struct phys_param *p;
	struct param_at down;
	struct places below;
	enum phys_spec_required r;
	xmlNodePtr c;

	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL)) {
		if (foreign_name(c->name, c->ns))
			continue;
		v = descend(pl, self, (const char *)c->name, &below);
		if (v == -2)
			continue;
		if (v < 0 && legacy_gravity(n, c))
			continue;	/* the loader's warning says it */
		/* a model file's root <include>: libsdformat reads it as the
		 * file's model, and the loader does (what it names checked
		 * as it loads) */
		if (v < 0 && phys_node_is(n, "sdf") &&
		    phys_node_is(c, "include"))
			continue;
		param_descend(at, c, &down);
		if (v < 0 && (p = own_param(&down))) {
			check_own(ck, n, c, &down, p);
			continue;
		}
		if (v < 0) {
			unknown_element(ck, n, e, c);
			continue;
		}
		if (v != self) {
			later_version_warning(ck, c, v);
			walk_at(ck, c, &below, v, &down);
			continue;
		}
		k = find_kid(ck, e, (const char *)c->name);
		r = ck->spec->kids[e->kid + k].required;
		if (++count[k] == 2 && (r == PHYS_SPEC_OPTIONAL ||
		    r == PHYS_SPEC_ONE) && !later_allows_many(pl, self,
		    (const char *)c->name))
			finding(ck, c, PHYS_SEV_WARNING, "a second <%s> in <%s>; "
			    "only one is read", (const char *)c->name,
			    (const char *)n->name);
		if (r == PHYS_SPEC_DEPRECATED)
			finding(ck, c, PHYS_SEV_WARNING, "<%s> is deprecated in "
			    "SDF %d.%d", (const char *)c->name, ck->spec->major,
			    ck->spec->minor);
		walk_at(ck, c, &below, v, &down);
	}
	check_required(ck, n, e, count);
	free(count);
}

/* ---- duplicate names ---- */

/* Sibling kinds whose names must differ. From SDF 1.7 the frames of a
 * model (links, joints, frames, nested models) share one namespace. */
static const char *const model_kinds[] = { "link", "joint", "frame",
    "model", NULL };
static const char *const world_kinds[] = { "model", "frame", NULL };
static const char *const link_kinds[] = { "collision", "visual", "sensor",
    NULL };

/* The kind an element counts as among kinds: its own name, or "model"
 * for an <include> where models are counted; NULL when not counted. */
static const char *
kind_of(xmlNodePtr n, const char *const *kinds)
{
	const char *as = phys_node_is(n, "include") ? "model" :
	    (const char *)n->name;

	if (n->type != XML_ELEMENT_NODE)
		return NULL;
	for (; *kinds; kinds++)
		if (strcmp(as, *kinds) == 0)
			return *kinds;
	return NULL;
}

/* An element's name; an <include> is named by its <name> when it has one. */
static char *
entity_name(xmlNodePtr n)
{
	if (phys_node_is(n, "include")) {
		xmlNodePtr e = phys_child(n, "name");

		return e ? phys_node_text(e) : NULL;
	}
	return phys_node_attr(n, "name");
}

struct named {
	char *name;
	const char *kind;	/* NULL when all kinds share the namespace */
	xmlNodePtr node;
	size_t order;
};

static int
by_name(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c == 0 && a->kind != b->kind)
		c = strcmp(a->kind, b->kind);
	if (c == 0)
		c = a->order < b->order ? -1 : a->order > b->order;
	return c;
}

/* Siblings sorted by namespace and name: a name taken is one that equals
 * the first of its run, in any number of siblings. */
static void
check_names(struct checker *ck, xmlNodePtr parent, const char *const *kinds,
    bool shared)
{
	struct named *v = NULL;
	size_t n = 0, cap = 0, i, first = 0;
	xmlNodePtr c;
	char *name;

	for (c = phys_child(parent, NULL); c; c = phys_next(c, NULL)) {
		if (!kind_of(c, kinds) || !(name = entity_name(c)))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = phys_xrealloc(v, cap * sizeof *v);
		}
		v[n].name = name;
		v[n].kind = shared ? "" : kind_of(c, kinds);
		v[n].node = c;
		v[n].order = n;
		n++;
	}
	if (n > 1)	/* qsort wants an array, even of none */
		qsort(v, n, sizeof *v, by_name);
	for (i = 1; i < n; i++) {
		if (strcmp(v[first].name, v[i].name) != 0 ||
		    strcmp(v[first].kind, v[i].kind) != 0) {
			first = i;
			continue;
		}
		finding(ck, v[i].node, PHYS_SEV_ERROR, "<%s> name '%s' is taken "
		    "by the <%s> at line %ld", (const char *)v[i].node->name,
		    v[i].name, (const char *)v[first].node->name,
		    phys_node_line(v[first].node));
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static void
check_scope_names(struct checker *ck, xmlNodePtr n)
{
	bool frames = ck->doc->major > 1 || ck->doc->minor >= 7;

	if (phys_node_is(n, "model"))
		check_names(ck, n, model_kinds, frames);
	else if (phys_node_is(n, "world"))
		check_names(ck, n, world_kinds, frames);
	else if (phys_node_is(n, "link"))
		check_names(ck, n, link_kinds, false);
}

static void
walk_at(struct checker *ck, xmlNodePtr n, const struct places *pl, int v,
    const struct param_at *at)
{
	const struct phys_spec_version *outer = ck->spec;
	const struct phys_spec_elem *e;

	ck->spec = &phys_spec_versions[v];
	e = &ck->spec->elems[pl->ei[v]];
	check_attrs(ck, n, e, pl);
	old_pose_frame(ck, n);
	if (!e->free && !phys_node_is(n, "plugin")) {
		if (check_value(ck, n, e))
			check_param(ck, n, at);
		check_scope_names(ck, n);
		check_children(ck, n, e, pl, at);
	}
	ck->spec = outer;
}

static void
check_doc(struct phys_findings *out, struct phys_doc *d, int rank)
{
	struct checker ck = { out, d, rank, NULL };
	struct param_at top = { -1, "" };
	struct places pl;
	bool exact;
	int v, base;

	if (!d->root)
		return;
	ck.spec = phys_spec_find(d->major, d->minor, &exact);
	if (!exact)
		finding(&ck, d->root, PHYS_SEV_WARNING, "SDF %d.%d is not "
		    "described here; checked against SDF %d.%d", d->major,
		    d->minor, ck.spec->major, ck.spec->minor);
	base = version_index(ck.spec);
	for (v = 0; v < nversions(); v++)
		pl.ei[v] = v >= base ? phys_spec_versions[v].root : -1;
	walk_at(&ck, d->root, &pl, base, &top);
}

/* ---- what the loader and the inertia checks say ---- */

/* "file:line: message" back into its parts. */
static void
add_message(struct phys_findings *out, const char *fallback_file,
    enum phys_severity sev, const char *text)
{
	const char *p, *colon = NULL;
	char *file;
	long line = 0;

	for (p = strchr(text, ':'); p; p = strchr(p + 1, ':'))
		if (isdigit((unsigned char)p[1]) && strspn(p + 1, "0123456789") &&
		    strncmp(p + 1 + strspn(p + 1, "0123456789"), ": ", 2) == 0) {
			colon = p;
			break;
		}
	if (!colon) {
		add_finding(out, fallback_file, 0, sev, NULL, text);
		return;
	}
	file = phys_xstrndup(text, (size_t)(colon - text));
	line = strtol(colon + 1, NULL, 10);
	add_finding(out, file, line, sev, NULL,
	    colon + 3 + strspn(colon + 1, "0123456789"));
	free(file);
}

struct sink_ctx {
	struct phys_findings *out;
	const char *file;
};

static void
collect_warning(const char *file, long line, const char *message, void *ctx)
{
	struct sink_ctx *s = ctx;
	char *text = file ? phys_xasprintf("%s:%ld: %s", file, line, message) :
	    phys_xstrdup(message);

	add_message(s->out, s->file, PHYS_SEV_WARNING, text);
	free(text);
}

static void
collect_frame_error(const char *why, void *ctx)
{
	struct sink_ctx *s = ctx;

	add_message(s->out, s->file, PHYS_SEV_ERROR, why);
}

static xmlNodePtr
inertial_node(const struct phys_link *l)
{
	xmlNodePtr n = phys_child(l->node, "inertial");

	return n ? n : l->node;
}

static void
check_inertia(struct phys_findings *out, struct phys_scene *w)
{
	struct phys_inertia_verdict v;
	phys_inertia in;
	bool is_static;
	char msg[512];
	size_t i;

	for (i = 0; i < w->nlinks; i++) {
		phys_link_inertia(&w->links[i], &in);
		if (phys_inertia_validate(&in, &v) == PHYS_INERTIA_VALID) {
			if (phys_link_sdformat_refuses(&w->links[i], &in))
				add_finding(out, PHYS_AT(w->links[i].doc,
				    inertial_node(&w->links[i])),
				    PHYS_SEV_WARNING, "inertial",
				    phys_link_sdformat_only(&w->links[i], &v,
				    msg, sizeof msg));
			continue;
		}
		/* a massless link is warned about at its <mass> */
		if (v.fault == PHYS_INERTIA_BAD_MASS && in.mass == 0)
			continue;
		is_static = w->models[w->links[i].model].is_static;
		snprintf(msg, sizeof msg, "link '%s': %s%s%s",
		    w->links[i].name, v.reason, is_static ? " (ignored: the "
		    "model is static)" : "", phys_link_sdformat_note(
		    &w->links[i], &in));
		add_finding(out, PHYS_AT(w->links[i].doc,
		    inertial_node(&w->links[i])),
		    is_static ? PHYS_SEV_WARNING : PHYS_SEV_ERROR, "inertial",
		    msg);
	}
}

/*
 * Joint damping an explicit force cannot integrate at a step of h (d h / I
 * above 2, I the child's smallest moment, or its mass for a slide):
 * Gazebo classic diverges there; phys holds the force to what stops the
 * motion within a step, and honours the implicit form. Its message into
 * msg, or 0 when the joint's damping fits (or is implicit).
 */
double
phys_joint_damping_note(const struct phys_joint *j,
    const struct phys_value *jv, const struct phys_value *cv, double h,
    char *msg, size_t len)
{
	double d, in, ratio;
	int k;

	if (PVB(jv, JOINT_physics_ode_implicit_spring_damper) ||
	    PVB(jv, JOINT_physics_ode_cfm_damping))
		return 0;
	in = j->type == PHYS_JOINT_PRISMATIC ? PVD(cv, LINK_inertial_mass) :
	    fmin(PVD(cv, LINK_inertial_inertia_ixx),
	    fmin(PVD(cv, LINK_inertial_inertia_iyy),
	    PVD(cv, LINK_inertial_inertia_izz)));
	for (k = 0; k < 2; k++) {
		d = k ? PVD(jv, JOINT_axis2_dynamics_damping) :
		    PVD(jv, JOINT_axis_dynamics_damping);
		ratio = in > 0 ? d * h / in : HUGE_VAL;
		if (!(d > 0) || ratio <= 2)
			continue;
		snprintf(msg, len, "joint '%s': damping %g on a link of "
		    "inertia %g is %g times what a step of %g s can integrate "
		    "as a force (Gazebo classic diverges); phys holds it to "
		    "what stops the motion within a step, and "
		    "<implicit_spring_damper>true</implicit_spring_damper> puts "
		    "it in the solver", j->name, d, in, ratio / 2, h);
		return ratio / 2;
	}
	return 0;
}

/* The starting profile's damping notes, at the joints' lines. */
static void
check_damping(struct phys_findings *out, struct phys_scene *w)
{
	const struct phys_joint *j;
	double h = PVD(w->profiles[w->start].vals, PHYSICS_max_step_size);
	char msg[512];
	size_t i;

	for (i = 0; i < w->njoints; i++) {
		j = &w->joints[i];
		if (phys_joint_damping_note(j, j->vals,
		    w->links[j->child].vals, h, msg, sizeof msg))
			add_finding(out, PHYS_AT(j->doc, j->node),
			    PHYS_SEV_WARNING, "joint", msg);
	}
}

/* Whether gz-sim runs the engine a profile's type names: the one its
 * physics plugin names, else DART. */
static bool
gz_runs_type(const struct phys_profile *p)
{
	const char *gz = phys_profile_gz_type(p);

	return gz && strcmp(gz, p->type) == 0;
}

/* gz-sim's placeholder engine type, or a type gz-sim does not read: the
 * world runs, on which engine the run says (phys-step), this says where
 * it comes from. */
static void
check_gz_profiles(struct phys_findings *out, struct phys_scene *w)
{
	const struct phys_profile *p;
	char msg[512];
	size_t i;

	for (i = 0; i < w->nprofiles; i++) {
		p = &w->profiles[i];
		if (!p->node || (!p->gz_placeholder &&
		    (!p->gz_system || gz_runs_type(p))))
			continue;
		if (!p->gz_placeholder)
			snprintf(msg, sizeof msg, "<physics type=\"%s\">: "
			    "gz-sim reads no type and runs %s%s%s; phys runs "
			    "the type written", p->type, p->gz_plugin ?
			    "the engine its physics plugin names (" : "DART",
			    p->gz_plugin ? p->gz_plugin : "",
			    p->gz_plugin ? ")" : "");
		else if (p->gz_plugin)
			snprintf(msg, sizeof msg, "<physics type=\"%s\"> is "
			    "gz-sim's placeholder: gz-sim runs the engine its "
			    "physics plugin names (%s); phys runs its engine "
			    "of that kind, else DART, else ODE", p->type,
			    p->gz_plugin);
		else
			snprintf(msg, sizeof msg, "<physics type=\"%s\"> is "
			    "gz-sim's placeholder: gz-sim runs DART, and so "
			    "does phys where it has DART, else ODE", p->type);
		add_finding(out, PHYS_AT(p->doc, p->node),
		    PHYS_SEV_WARNING, "physics", msg);
	}
	p = &w->profiles[w->start];
	if (phys_gz_start_note(w, msg, sizeof msg))
		add_finding(out, PHYS_AT(p->doc, p->node), PHYS_SEV_WARNING,
		    "physics", msg);
}

bool
phys_gz_start_note(const struct phys_scene *w, char *msg, size_t len)
{
	const struct phys_profile *p = &w->profiles[w->start];

	if (w->start == 0 || !p->gz_system || !p->node)
		return false;
	snprintf(msg, len, "profile '%s' is marked default, and phys starts "
	    "in it as libsdformat reads the world; gz-sim runs the first "
	    "<physics>, '%s'", p->name, w->profiles[0].name);
	return true;
}

/* ---- order ---- */

static int
doc_rank(const struct phys_scene *w, const char *file)
{
	size_t i;

	if (w->doc.name && strcmp(file, w->doc.name) == 0)
		return 0;
	for (i = 0; i < w->nincludes; i++)
		if (w->includes[i]->name &&
		    strcmp(file, w->includes[i]->name) == 0)
			return (int)i + 1;
	return (int)w->nincludes + 1;
}

static int
by_place(const void *pa, const void *pb)
{
	const struct phys_finding *a = pa, *b = pb;

	if (a->file_rank != b->file_rank)
		return a->file_rank < b->file_rank ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void
free_finding(struct phys_finding *x)
{
	size_t i;

	free(x->file);
	free(x->message);
	free(x->element);
	free(x->also);
	for (i = 0; i < 3; i++)
		free(x->suggest[i]);
}

/*
 * The loader stops at its first error, which the walk has often reported
 * already in its own words: an error at a place that has one is dropped,
 * and so is a finding identical to an earlier one (a model included
 * twice).
 */
static bool
is_loader(const struct phys_finding *x, size_t loader_first,
    size_t loader_end)
{
	return x->seq >= loader_first && x->seq < loader_end;
}

static bool
same_place(const struct phys_finding *a, const struct phys_finding *b)
{
	return a->file_rank == b->file_rank && a->line == b->line &&
	    strcmp(a->file, b->file) == 0;
}

/*
 * Whether the loader's warning w may be about what the check's finding c
 * says: c names an element and maybe an attribute ("<joint
 * actuatorfrcrange>: ..."); a finding of an attribute is another's
 * subject than a warning that does not name that attribute (the same
 * joint's range without limited).
 */
static bool
same_subject(const struct phys_finding *c, const struct phys_finding *w)
{
	const char *m = c->message, *a, *end;
	char attr[64];
	size_t len;

	if (*m != '<' || !(a = strpbrk(m, " >")) || *a != ' ')
		return true;	/* an element's, or no element named */
	a++;
	end = a + strcspn(a, "=> ");
	len = (size_t)(end - a);
	if (!len || len >= sizeof attr)
		return true;
	memcpy(attr, a, len);
	attr[len] = '\0';
	return strstr(w->message, attr) != NULL;
}

/*
 * v is sorted by place: only the findings around i can share its place.
 * The loader's error gives way to a check's error at its place; with
 * defer, its warning to any finding there of its subject.
 */
static bool
redundant(const struct phys_finding *v, size_t n, size_t i,
    size_t loader_first, size_t loader_end, bool defer)
{
	bool from_loader = is_loader(&v[i], loader_first, loader_end);
	size_t lo = i, j;

	while (lo > 0 && same_place(&v[lo - 1], &v[i]))
		lo--;
	for (j = lo; j < n && same_place(&v[j], &v[i]); j++) {
		if (j == i || v[j].line < 0)
			continue;
		if (j < i && strcmp(v[j].message, v[i].message) == 0)
			return true;
		if (from_loader && !is_loader(&v[j], loader_first, loader_end) &&
		    ((v[i].severity == PHYS_SEV_ERROR &&
		    v[j].severity == PHYS_SEV_ERROR) ||
		    (defer && v[i].severity != PHYS_SEV_ERROR &&
		    same_subject(&v[j], &v[i]))))
			return true;
	}
	return false;
}

/* Warnings by file, then message, then place: a warning said again
 * lies next to its first. */
static int
by_text(const void *pa, const void *pb)
{
	const struct phys_finding *a = *(const struct phys_finding *const *)pa;
	const struct phys_finding *b = *(const struct phys_finding *const *)pb;
	int c;

	if (a->file_rank != b->file_rank)
		return a->file_rank < b->file_rank ? -1 : 1;
	if ((c = strcmp(a->file, b->file)) != 0 ||
	    (c = strcmp(a->message, b->message)) != 0)
		return c;
	return by_place(a, b);
}

/*
 * A warning said word for word at several lines of one file is one
 * finding, at its first line, holding the others (also): a model's
 * every joint need not repeat it. Errors stay one a place. The dropped
 * findings are marked with line -1.
 */
static void
gather_repeats(struct phys_findings *f)
{
	struct phys_finding **w = phys_xcalloc(f->n ? f->n : 1, sizeof *w);
	struct phys_finding *first = NULL;
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		if (f->v[i].line >= 0 && f->v[i].severity != PHYS_SEV_ERROR)
			w[n++] = &f->v[i];
	if (n > 1)
		qsort(w, n, sizeof *w, by_text);
	for (i = 0; i < n; i++) {
		if (!first || first->file_rank != w[i]->file_rank ||
		    strcmp(first->file, w[i]->file) != 0 ||
		    strcmp(first->message, w[i]->message) != 0) {
			first = w[i];
			continue;
		}
		first->also = phys_xrealloc(first->also, (first->nalso + 1) *
		    sizeof *first->also);
		first->also[first->nalso++] = w[i]->line;
		free_finding(w[i]);
		memset(w[i], 0, sizeof *w[i]);
		w[i]->line = -1;
	}
	free(w);
}

static void
sort_and_dedupe(struct phys_findings *f, size_t loader_first,
    size_t loader_end, bool defer)
{
	size_t i, n = 0;
	bool *gone = phys_xcalloc(f->n ? f->n : 1, sizeof *gone);

	if (f->n > 1)
		qsort(f->v, f->n, sizeof *f->v, by_place);
	f->nerrors = f->nwarnings = 0;
	for (i = 0; i < f->n; i++)
		gone[i] = redundant(f->v, f->n, i, loader_first, loader_end,
		    defer);
	for (i = 0; i < f->n; i++)
		if (gone[i]) {
			free_finding(&f->v[i]);
			f->v[i].line = -1;
		}
	free(gone);
	gather_repeats(f);
	for (i = 0; i < f->n; i++) {
		if (f->v[i].line < 0)
			continue;
		f->v[n++] = f->v[i];
		if (f->v[n - 1].severity == PHYS_SEV_ERROR)
			f->nerrors++;
		else
			f->nwarnings++;
	}
	f->n = n;
}

/* ---- MJCF ---- */

static void
collect_mjcf(const struct phys_mjcf_finding *m, void *ctx)
{
	struct phys_findings *out = ctx;
	struct phys_finding *x;
	size_t i;

	x = add_finding(out, m->file, m->line, m->error ? PHYS_SEV_ERROR :
	    PHYS_SEV_WARNING, m->element, m->message);
	for (i = 0; i < 3 && m->suggest[i]; i++)
		x->suggest[i] = phys_xstrdup(m->suggest[i]);
}

/* The findings in walk order, each file after the one including it:
 * ranked by file as met, then by line. */
static void
rank_mjcf(struct phys_findings *out)
{
	size_t i, k;

	for (i = 0; i < out->n; i++) {
		out->v[i].file_rank = (int)i;
		for (k = 0; k < i; k++)
			if (strcmp(out->v[k].file, out->v[i].file) == 0) {
				out->v[i].file_rank = out->v[k].file_rank;
				break;
			}
	}
}

/*
 * What phys-step says of an MJCF model is said here too, as of an SDF
 * world: what it refuses that the schema and MuJoCo's rules pass (a
 * primitive geom of a mesh, MuJoCo's ellipsoid fluid model), an error,
 * and what it reads otherwise or leaves out (a later MuJoCo's range
 * without limited, a camera), a warning; where the checks above say
 * something of the same element, theirs stands (sort_and_dedupe).
 */
static void
mjcf_loader(const char *path, const char *name, const char *text,
    size_t len, struct phys_findings *out)
{
	struct phys_load_options lo;
	struct sink_ctx sink = { out, name };
	struct phys_scene w;
	bool erred = false;
	size_t i;
	int rc;

	phys_load_options_default(&lo);
	lo.notes = true;
	memset(&w, 0, sizeof w);
	phys_set_warning_sink(collect_warning, &sink);
	rc = phys_doc_load_text(&w.doc, name, text, len);
	if (rc == 0 && path && strcmp(path, "-") != 0)
		w.doc.path = phys_xstrdup(path);
	if (rc == 0)
		rc = phys_world_load_doc(&w, &lo);
	/* the loader stops at the first fault, which the checks found
	 * first when they found one */
	for (i = 0; i < out->n; i++)
		erred |= out->v[i].severity == PHYS_SEV_ERROR;
	if (rc < 0 && !erred)
		add_message(out, name, PHYS_SEV_ERROR, phys_error());
	phys_world_free(&w);
}

/*
 * The world as the loader reads it from text already read (a file read
 * once: standard input cannot be read twice), or, for MJCF, its own
 * check; true when the text was MJCF and out holds its findings.
 */
static bool
load_or_mjcf(struct phys_scene *w, const char *path, const char *name,
    const struct phys_load_options *lo, struct phys_findings *out, int *rc)
{
	size_t len, first;
	char *text = phys_read_regular_file(path, &len);

	memset(w, 0, sizeof *w);
	if (text && phys_mjcf_text(text, len)) {
		phys_mjcf_check(name, path && strcmp(path, "-") != 0 ? path :
		    NULL, text, len, collect_mjcf, out);
		first = out->n;
		mjcf_loader(path, name, text, len, out);
		free(text);
		rank_mjcf(out);
		sort_and_dedupe(out, first, out->n, true);
		return true;
	}
	if (!text) {
		*rc = -1;
		return false;
	}
	*rc = phys_doc_load_text(&w->doc, name, text, len);
	free(text);
	if (*rc == 0 && path && strcmp(path, "-") != 0)
		w->doc.path = phys_xstrdup(path);
	if (*rc == 0)
		*rc = phys_world_load_doc(w, lo);
	return false;
}

void
phys_check_world(const char *path, struct phys_findings *out)
{
	struct phys_load_options lo;
	struct phys_scene w;
	struct sink_ctx sink = { out, phys_display_name(path) };
	size_t i, loader_first, loader_end;
	int rc;

	memset(out, 0, sizeof *out);
	phys_load_options_default(&lo);
	lo.skip_unsupported = true;
	lo.notes = true;
	phys_set_warning_sink(collect_warning, &sink);
	if (load_or_mjcf(&w, path, sink.file, &lo, out, &rc)) {
		phys_set_warning_sink(NULL, NULL);
		return;
	}
	phys_set_warning_sink(NULL, NULL);
	loader_first = 0;
	if (rc < 0)
		add_message(out, sink.file, PHYS_SEV_ERROR, phys_error());
	loader_end = out->n;
	if (rc == 0) {
		phys_frames_check(&w, collect_frame_error, &sink);
		check_inertia(out, &w);
		check_gz_profiles(out, &w);
		check_damping(out, &w);
	}
	/* A URDF is checked as the model it becomes: what its <gazebo>
	 * blocks copy in is SDF, at the URDF's lines. */
	check_doc(out, w.model_doc ? w.model_doc : &w.doc, 0);
	for (i = 0; i < w.nincludes; i++)
		check_doc(out, w.includes[i], (int)i + 1);
	for (i = 0; i < out->n; i++)
		out->v[i].file_rank = doc_rank(&w, out->v[i].file);
	sort_and_dedupe(out, loader_first, loader_end, false);
	phys_world_free(&w);
}

void
phys_findings_json(const struct phys_findings *f, struct phys_buf *b)
{
	const struct phys_finding *x;
	size_t i, k;

	for (i = 0; i < f->n; i++) {
		x = &f->v[i];
		phys_buf_puts(b, "{\"file\":");
		phys_buf_json_string(b, x->file);
		phys_buf_printf(b, ",\"line\":%ld,\"severity\":\"%s\",\"message\":",
		    x->line, x->severity == PHYS_SEV_ERROR ? "error" :
		    "warning");
		phys_buf_json_string(b, x->message);
		if (x->element) {
			phys_buf_puts(b, ",\"element\":");
			phys_buf_json_string(b, x->element);
		}
		for (k = 0; k < 3 && x->suggest[k]; k++) {
			phys_buf_puts(b, k ? "," : ",\"suggest\":[");
			phys_buf_json_string(b, x->suggest[k]);
		}
		if (k)
			phys_buf_putc(b, ']');
		for (k = 0; k < x->nalso; k++)
			phys_buf_printf(b, "%s%ld", k ? "," : ",\"also\":[",
			    x->also[k]);
		if (x->nalso)
			phys_buf_putc(b, ']');
		phys_buf_puts(b, "}\n");
	}
}

void
phys_findings_free(struct phys_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free_finding(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof *f);
}
