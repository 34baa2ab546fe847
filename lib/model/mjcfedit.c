/*
 * mjcfedit.c - a parameter of an MJCF model written back into the MJCF
 * file (mjcfedit.h), as urdfedit.c does for URDF.
 *
 * The reader expands <include>s into the file's tree, so the tree it
 * leaves is not the file's. Before that, phys_mjcf_mark numbers the
 * file's elements (in _private, the k-th element of the text being the
 * k-th of a pre-order walk). The first edit finds, for every link, joint
 * and collision of the converted model, the marked <body>, <joint> or
 * <geom> it comes from (the converter gives each element the line of its
 * MJCF element; the name tells elements of one line apart), then parses
 * the file again and edits that tree, which is the text's.
 *
 * A value is set on the element itself. When the element did not say it
 * and a <default> class did, the class is left alone (other elements
 * share it) and a warning says so. Values are in MuJoCo's terms: a hinge's
 * angles in the file's compiler unit, limits and spring reference
 * measured from qpos 0 rather than from ref as phys measures them, an
 * inertia as MuJoCo's diaginertia in the frame of pos and quat, or as
 * fullinertia in the body's frame.
 */
#include "mjcfedit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "mem.h"
#include "mjcf_defaults.h"
#include "num.h"
#include "sdfedit.h"

/* One link, joint or collision of the model, and its MJCF element. */
struct mj_ent {
	xmlNodePtr sdf;
	int ord;		/* its element's place in the file; -1: none */
	long copied;		/* the line of the <replicate> copying it */
	xmlNodePtr el;		/* that element in the file's own tree */
	/* a link: its inertial as edited so far, in SDF's terms */
	bool have;
	double mass;		/* kg */
	phys_pose pose;		/* of the inertial frame, in the body's */
	double I[3][3];		/* kg m^2, in the inertial frame */
};

struct phys_mjcf_map {
	struct mj_ent *ents;
	size_t n;
};

void
phys_mjcf_mark(struct phys_doc *src)
{
	xmlNodePtr n, top;
	intptr_t k = 0;

	for (n = top = src->root; n;) {
		n->_private = (void *)++k;
		if (xmlFirstElementChild(n)) {
			n = xmlFirstElementChild(n);
			continue;
		}
		while (n != top && !xmlNextElementSibling(n))
			n = n->parent;
		n = n != top ? xmlNextElementSibling(n) : NULL;
	}
}

/* The next element after n in a pre-order walk under top. */
static xmlNodePtr
walk(xmlNodePtr n, xmlNodePtr top)
{
	if (xmlFirstElementChild(n))
		return xmlFirstElementChild(n);
	while (n != top && !xmlNextElementSibling(n))
		n = n->parent;
	return n != top ? xmlNextElementSibling(n) : NULL;
}

static bool
same_attr(xmlNodePtr n, const char *name, const char *want)
{
	char *v = phys_node_attr(n, name);
	bool same = v && want && strcmp(v, want) == 0;

	free(v);
	return same;
}

/* Whether sdf is name as the converter renames a joint or site whose
 * name is taken in SDF: NAME_joint or NAME_frame, then a number. */
static bool
renamed_from(const char *sdf, const char *name)
{
	size_t n = strlen(name);

	if (!sdf || strncmp(sdf, name, n) != 0 || sdf[n] != '_' ||
	    (strncmp(sdf + n + 1, "joint", 5) != 0 &&
	    strncmp(sdf + n + 1, "frame", 5) != 0))
		return false;
	return strspn(sdf + n + 6, "0123456789") == strlen(sdf + n + 6);
}

/*
 * The marked element of the file that the converted element sdf comes
 * from: one of the tags, at sdf's line, of sdf's name (else of the name
 * it was renamed from, else unnamed).
 */
/* The line of the <replicate> n is in, 0 where none is. */
static long
replicated_by(xmlNodePtr n)
{
	for (; n && n->type == XML_ELEMENT_NODE; n = n->parent)
		if (phys_node_is(n, "replicate"))
			return phys_node_line(n);
	return 0;
}

static int
source_of(xmlNodePtr root, xmlNodePtr sdf, const char *const *tags,
    long *copied)
{
	/* an element of an <include>d file names that file too: none of
	 * this file's lines */
	long line = phys_node_where(sdf);
	char *name = phys_node_attr(sdf, "name"), *own;
	xmlNodePtr n, unnamed = NULL, renamed = NULL, found = NULL, any = NULL;
	size_t i;

	for (n = root; n && !found; n = walk(n, root)) {
		if (!n->_private || phys_node_line(n) != line ||
		    phys_node_is(n->parent, "default"))
			continue;
		for (i = 0; tags[i]; i++)
			if (phys_node_is(n, tags[i]))
				break;
		if (!tags[i])
			continue;
		if (!any)
			any = n;
		if (!xmlHasProp(n, (const xmlChar *)"name")) {
			if (!unnamed)
				unnamed = n;
		} else if (same_attr(n, "name", name)) {
			found = n;
		} else if (!renamed) {
			own = phys_node_attr(n, "name");
			if (own && renamed_from(name, own))
				renamed = n;
			free(own);
		}
	}
	free(name);
	found = found ? found : renamed ? renamed : unnamed;
	/* a replicate's copy is named otherwise: the element at its line */
	*copied = replicated_by(found ? found : any);
	return found ? (int)((intptr_t)found->_private - 1) : -1;
}

static void
map_free(struct phys_doc *d)
{
	if (d->mjcf)
		free(d->mjcf->ents);
	free(d->mjcf);
	d->mjcf = NULL;
}

/* The entity sdf, its element found in the tree root among tags. */
static void
map_add(struct phys_mjcf_map *m, xmlNodePtr root, xmlNodePtr sdf,
    const char *const *tags)
{
	struct mj_ent *e;

	m->ents = phys_xrealloc(m->ents, (m->n + 1) * sizeof *m->ents);
	e = &m->ents[m->n++];
	memset(e, 0, sizeof *e);
	e->sdf = sdf;
	e->ord = source_of(root, sdf, tags, &e->copied);
}

static void
map_model(struct phys_mjcf_map *m, xmlNodePtr root, xmlNodePtr model)
{
	static const char *const body[] = { "body", NULL };
	static const char *const joint[] = { "joint", "freejoint", NULL };
	static const char *const geom[] = { "geom", NULL };
	xmlNodePtr n, c;

	for (n = phys_child(model, NULL); n; n = phys_next(n, NULL)) {
		if (phys_node_is(n, "model"))
			map_model(m, root, n);
		else if (phys_node_is(n, "joint"))
			map_add(m, root, n, joint);
		if (!phys_node_is(n, "link"))
			continue;
		map_add(m, root, n, body);
		for (c = phys_child(n, "collision"); c;
		    c = phys_next(c, "collision"))
			map_add(m, root, c, geom);
	}
}

/*
 * The first edit: every entity's element found in the expanded tree, the
 * file parsed again, and each entity given its element of the new tree.
 */
static int
map_build(struct phys_doc *src, struct phys_doc *model)
{
	struct phys_mjcf_map *m;
	struct phys_doc fresh;
	xmlNodePtr n, *nodes = NULL;
	size_t count = 0, i;

	if (src->mjcf)
		return 0;
	m = phys_xcalloc(1, sizeof *m);
	for (n = phys_child(model->root, "model"); n; n = phys_next(n, "model"))
		map_model(m, src->root, n);
	if (phys_doc_load_text(&fresh, src->name, src->text, src->len) < 0) {
		free(m->ents);
		free(m);
		return -1;
	}
	for (n = fresh.root; n; n = walk(n, fresh.root)) {
		nodes = phys_xrealloc(nodes, (count + 1) * sizeof *nodes);
		nodes[count++] = n;
	}
	for (i = 0; i < m->n; i++)
		m->ents[i].el = m->ents[i].ord >= 0 &&
		    (size_t)m->ents[i].ord < count ? nodes[m->ents[i].ord] :
		    NULL;
	free(nodes);
	/* the file's own tree replaces the expanded one */
	xmlFreeDoc(src->xml);
	src->xml = fresh.xml;
	src->root = fresh.root;
	fresh.xml = NULL;
	phys_doc_free(&fresh);
	src->mjcf = m;
	src->urdf_free = map_free;
	return 0;
}

static struct mj_ent *
entity_of(struct phys_mjcf_map *m, xmlNodePtr sdf)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->ents[i].sdf == sdf)
			return &m->ents[i];
	return NULL;
}

/* ---- numbers and classes ---- */

/* n numbers, exactly and shortest, blank-separated. */
static void
put_numbers(struct phys_buf *b, const double *v, int n)
{
	char num[64];
	int i;

	for (i = 0; i < n; i++) {
		phys_fmt_double(num, sizeof num, v[i] == 0 ? 0 : v[i]);
		phys_buf_printf(b, i ? " %s" : "%s", num);
	}
}

static int
set_numbers(struct phys_doc *d, xmlNodePtr el, const char *attr,
    const double *v, int n)
{
	struct phys_buf b = { 0 };
	int rc;

	put_numbers(&b, v, n);
	rc = phys_doc_set_attr(d, el, attr, b.s);
	phys_buf_free(&b);
	return rc;
}

static char *
label(xmlNodePtr el, char *buf, size_t size)
{
	char *name = phys_node_attr(el, "name");

	if (name)
		snprintf(buf, size, "<%s> '%s'", (const char *)el->name, name);
	else
		snprintf(buf, size, "<%s>", (const char *)el->name);
	free(name);
	return buf;
}

/* The <default> of class name under def, or NULL. */
static xmlNodePtr
class_find(xmlNodePtr def, const char *name)
{
	xmlNodePtr c, f;

	if (same_attr(def, "class", name) || (!xmlHasProp(def,
	    (const xmlChar *)"class") && strcmp(name, "main") == 0))
		return def;
	for (c = phys_child(def, "default"); c; c = phys_next(c, "default"))
		if ((f = class_find(c, name)))
			return f;
	return NULL;
}

/* The <default> an element takes its values from: its class, else the
 * nearest body's childclass, else "main". */
static xmlNodePtr
class_of(xmlNodePtr root, xmlNodePtr el)
{
	char *name = phys_node_attr(el, "class");
	xmlNodePtr n, d, found = NULL;

	for (n = el->parent; !name && n && n != root; n = n->parent)
		if (phys_node_is(n, "body"))
			name = phys_node_attr(n, "childclass");
	for (d = phys_child(root, "default"); d && !found;
	    d = phys_next(d, "default"))
		found = class_find(d, name ? name : "main");
	free(name);
	return found;
}

/*
 * The numbers of attribute attr of el (a <tag>) as MuJoCo takes them:
 * dflt, then what each class from "main" down to el's gives, then el's
 * own, each replacing as many numbers as it has. *from is the class
 * that gave it last (NULL when el itself says it, or none does).
 */
static void
resolve(xmlNodePtr root, xmlNodePtr el, const char *tag, const char *attr,
    double *v, int n, xmlNodePtr *from)
{
	xmlNodePtr chain[64], d, t;
	char *s;
	int k = 0;

	*from = NULL;
	for (d = class_of(root, el); d && phys_node_is(d, "default") &&
	    k < 64; d = d->parent)
		chain[k++] = d;
	while (k-- > 0) {
		t = phys_child(chain[k], tag);
		if (t && (s = phys_node_attr(t, attr))) {
			if (phys_parse_doubles(s, v, n) > 0)
				*from = chain[k];
			free(s);
		}
	}
	if ((s = phys_node_attr(el, attr))) {
		if (phys_parse_doubles(s, v, n) > 0)
			*from = NULL;
		free(s);
	}
}

/* A word attribute (a joint's type, limited), resolved the same way. */
static char *
resolve_word(xmlNodePtr root, xmlNodePtr el, const char *tag,
    const char *attr)
{
	xmlNodePtr chain[64], d, t;
	char *s = phys_node_attr(el, attr), *w;
	int k = 0;

	if (s)
		return s;
	for (d = class_of(root, el); d && phys_node_is(d, "default") &&
	    k < 64; d = d->parent)
		chain[k++] = d;
	for (w = NULL; k-- > 0;) {
		t = phys_child(chain[k], tag);
		if (t && (s = phys_node_attr(t, attr))) {
			free(w);
			w = s;
		}
	}
	return w;
}

/*
 * Set number i of attribute attr of el to x, on the element: as many
 * numbers as it had, or up to i (the rest are what its class or MuJoCo
 * gives), all n when it had none.
 */
static int
set_number(struct phys_doc *d, xmlNodePtr el, const char *tag,
    const char *attr, int i, int n, const double *dflt, double x)
{
	double v[8];
	xmlNodePtr from;
	char *own = phys_node_attr(el, attr), *cls, what[300];
	int have = own ? phys_parse_doubles(own, v, n) : 0;

	free(own);
	memcpy(v, dflt, (size_t)n * sizeof *v);
	resolve(d->root, el, tag, attr, v, n, &from);
	v[i] = x;
	if (from) {
		cls = phys_node_attr(from, "class");
		phys_warnat(d->name, phys_node_line(el), "%s: %s came from "
		    "default class '%s'; set on the element, not on the class, "
		    "which other elements share", label(el, what, sizeof what),
		    attr, cls ? cls : "main");
		free(cls);
	}
	/* what the element gave, and up to i; all when it gave none */
	return set_numbers(d, el, attr, v, have <= 0 ? n : have > i + 1 ?
	    have : i + 1);
}

/* ---- bodies ---- */

static xmlNodePtr
compiler_of(xmlNodePtr root)
{
	xmlNodePtr c, last = NULL;

	for (c = phys_child(root, "compiler"); c; c = phys_next(c, "compiler"))
		last = c;
	return last;
}

/* The compiler's word attr, from the last <compiler> saying it. */
static char *
compiler_word(xmlNodePtr root, const char *attr)
{
	xmlNodePtr c;
	char *s, *w = NULL;

	for (c = phys_child(root, "compiler"); c; c = phys_next(c, "compiler"))
		if ((s = phys_node_attr(c, attr))) {
			free(w);
			w = s;
		}
	return w;
}

static double
child_number(xmlNodePtr n, const char *path)
{
	xmlNodePtr e = phys_path_find(n, path);
	char *s = e ? phys_node_text(e) : NULL;
	double v = 0;

	if (s && !phys_parse_double(s, &v))
		v = 0;
	free(s);
	return v;
}

/* The inertial the converter gave a link, once. */
static void
inertial_start(struct mj_ent *e)
{
	xmlNodePtr in = phys_child(e->sdf, "inertial"), pe;
	double v[6] = { 0, 0, 0, 0, 0, 0 };
	char *s;

	if (e->have)
		return;
	e->have = true;
	e->mass = child_number(in, "mass");
	if ((pe = phys_child(in, "pose")) && (s = phys_node_text(pe))) {
		(void)phys_parse_doubles(s, v, 6);
		free(s);
	}
	e->pose = phys_pose_from6(v);
	e->I[0][0] = child_number(in, "inertia.ixx");
	e->I[1][1] = child_number(in, "inertia.iyy");
	e->I[2][2] = child_number(in, "inertia.izz");
	e->I[0][1] = e->I[1][0] = child_number(in, "inertia.ixy");
	e->I[0][2] = e->I[2][0] = child_number(in, "inertia.ixz");
	e->I[1][2] = e->I[2][1] = child_number(in, "inertia.iyz");
}

static bool
diagonal(const double I[3][3])
{
	return I[0][1] == 0 && I[0][2] == 0 && I[1][2] == 0;
}

/* MuJoCo's fullinertia: I turned into the body's frame, in its order
 * M11 M22 M33 M12 M13 M23. */
static void
full_inertia(const struct mj_ent *e, double f[6])
{
	phys_mat3 R = phys_quat_to_mat3(e->pose.q);
	double W[3][3];
	int i, j, k, l;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			W[i][j] = 0;
			for (k = 0; k < 3; k++)
				for (l = 0; l < 3; l++)
					W[i][j] += R.m[i][k] * e->I[k][l] *
					    R.m[j][l];
		}
	f[0] = W[0][0];
	f[1] = W[1][1];
	f[2] = W[2][2];
	f[3] = W[0][1];
	f[4] = W[0][2];
	f[5] = W[1][2];
}

static const char *const orientations[] = { "quat", "euler", "axisangle",
	"xyaxes", "zaxis", NULL };

static int
unset_orientation(struct phys_doc *d, xmlNodePtr in)
{
	size_t i;

	for (i = 0; orientations[i]; i++)
		if (xmlHasProp(in, (const xmlChar *)orientations[i]) &&
		    phys_doc_set_attr(d, in, orientations[i], NULL) < 0)
			return -1;
	return 0;
}

/* The inertia as fullinertia, in place of any orientation. */
static int
set_full(struct phys_doc *d, xmlNodePtr in, const struct mj_ent *e)
{
	double f[6];

	full_inertia(e, f);
	if (unset_orientation(d, in) < 0 || (xmlHasProp(in, (const xmlChar *)
	    "diaginertia") && phys_doc_set_attr(d, in, "diaginertia",
	    NULL) < 0))
		return -1;
	return set_numbers(d, in, "fullinertia", f, 6);
}

static bool
identity(phys_quat q)
{
	return q.w == 1 && q.x == 0 && q.y == 0 && q.z == 0;
}

/* A new <inertial> holding all of e's. */
static int
inertial_new(struct phys_doc *d, xmlNodePtr body, const struct mj_ent *e)
{
	struct phys_buf b = { 0 };
	xmlNodePtr n, after = NULL;
	double v[6];
	int rc;

	phys_buf_puts(&b, "<inertial pos=\"");
	v[0] = e->pose.p.x;
	v[1] = e->pose.p.y;
	v[2] = e->pose.p.z;
	put_numbers(&b, v, 3);
	if (diagonal(e->I) && !identity(e->pose.q)) {
		phys_buf_puts(&b, "\" quat=\"");
		v[0] = e->pose.q.w;
		v[1] = e->pose.q.x;
		v[2] = e->pose.q.y;
		v[3] = e->pose.q.z;
		put_numbers(&b, v, 4);
	}
	phys_buf_puts(&b, "\" mass=\"");
	put_numbers(&b, &e->mass, 1);
	if (diagonal(e->I)) {
		phys_buf_puts(&b, "\" diaginertia=\"");
		v[0] = e->I[0][0];
		v[1] = e->I[1][1];
		v[2] = e->I[2][2];
		put_numbers(&b, v, 3);
	} else {
		phys_buf_puts(&b, "\" fullinertia=\"");
		full_inertia(e, v);
		put_numbers(&b, v, 6);
	}
	phys_buf_puts(&b, "\"/>");
	/* after the body's joints, where MJCF files keep it */
	for (n = phys_child(body, NULL); n; n = phys_next(n, NULL))
		if (phys_node_is(n, "joint") || phys_node_is(n, "freejoint"))
			after = n;
	rc = after ? phys_doc_insert_after(d, after, b.s) :
	    phys_doc_append_child(d, body, b.s);
	phys_buf_free(&b);
	return rc;
}

static int
edit_pose(struct phys_doc *d, xmlNodePtr in, struct mj_ent *e,
    phys_pose to)
{
	phys_quat q = e->pose.q;
	double p[3] = { to.p.x, to.p.y, to.p.z }, dot, v[4];

	dot = fabs(q.w * to.q.w + q.x * to.q.x + q.y * to.q.y + q.z * to.q.z);
	if ((to.p.x != e->pose.p.x || to.p.y != e->pose.p.y ||
	    to.p.z != e->pose.p.z) && set_numbers(d, in, "pos", p, 3) < 0)
		return -1;
	e->pose = to;
	if (dot > 1 - 1e-15)
		return 0;	/* the same frame */
	if (xmlHasProp(in, (const xmlChar *)"fullinertia") || !diagonal(e->I))
		return set_full(d, in, e);
	v[0] = to.q.w;
	v[1] = to.q.x;
	v[2] = to.q.y;
	v[3] = to.q.z;
	if (unset_orientation(d, in) < 0)
		return -1;
	return set_numbers(d, in, "quat", v, 4);
}

static int
edit_inertial(struct phys_doc *d, struct mj_ent *e, const char *what,
    const char *value)
{
	static const char *const comp[] = { "ixx", "iyy", "izz", "ixy", "ixz",
		"iyz" };
	static const int at[6][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 0, 1 },
		{ 0, 2 }, { 1, 2 } };
	/* compiler flags that make the masses MuJoCo's, not the file's */
	static const char *const flags[][2] = {
		{ "inertiafromgeom", "makes every body's from its geoms" },
		{ "fusestatic", "sums the bodies without joints into those "
		    "they are welded to" } };
	xmlNodePtr in = phys_child(e->el, "inertial");
	char *w, name[300];
	double x, v[6];
	bool on;
	int i;

	for (i = 0; i < 2; i++) {
		w = compiler_word(d->root, flags[i][0]);
		on = w && strcmp(w, "true") == 0;
		free(w);
		if (on)
			return phys_failat(d->name, phys_node_line(
			    compiler_of(d->root)), "%s's inertial cannot be "
			    "set: <compiler %s=\"true\"> %s", label(e->el,
			    name, sizeof name), flags[i][0], flags[i][1]);
	}
	if ((w = compiler_word(d->root, "settotalmass"))) {
		x = 0;
		(void)phys_parse_double(w, &x);
		free(w);
		if (x > 0)
			return phys_failat(d->name, phys_node_line(
			    compiler_of(d->root)), "%s's inertial cannot be "
			    "set: <compiler settotalmass> scales every body's "
			    "mass to its total", label(e->el, name,
			    sizeof name));
	}
	inertial_start(e);
	if (strcmp(what, "pose") == 0) {
		if (phys_parse_doubles(value, v, 6) != 6)
			return phys_fail("a pose needs six numbers, not '%s'",
			    value);
		if (!in) {
			e->pose = phys_pose_from6(v);
			return inertial_new(d, e->el, e);
		}
		return edit_pose(d, in, e, phys_pose_from6(v));
	}
	if (!phys_parse_double(value, &x))
		return phys_fail("'%s' is not a number", value);
	if (strcmp(what, "mass") == 0) {
		e->mass = x;
		return in ? set_numbers(d, in, "mass", &x, 1) :
		    inertial_new(d, e->el, e);
	}
	for (i = 0; i < 6; i++)
		if (strncmp(what, "inertia.", 8) == 0 &&
		    strcmp(what + 8, comp[i]) == 0)
			break;
	if (i == 6)
		return phys_fail("MJCF's <inertial> holds no %s", what);
	e->I[at[i][0]][at[i][1]] = e->I[at[i][1]][at[i][0]] = x;
	if (!in)
		return inertial_new(d, e->el, e);
	if (!xmlHasProp(in, (const xmlChar *)"fullinertia") && diagonal(e->I)) {
		v[0] = e->I[0][0];
		v[1] = e->I[1][1];
		v[2] = e->I[2][2];
		return set_numbers(d, in, "diaginertia", v, 3);
	}
	return set_full(d, in, e);
}

static int
edit_body(struct phys_doc *d, struct mj_ent *e, const struct phys_param *p,
    const char *value)
{
	char name[300];

	if (strncmp(p->name, "inertial.", 9) == 0)
		return edit_inertial(d, e, p->name + 9, value);
	return phys_failat(d->name, phys_node_line(e->el), "%s: MJCF's bodies "
	    "cannot hold %s; write the model as SDF (phys-sdf print) to set "
	    "it", label(e->el, name, sizeof name), p->name);
}

/* ---- joints ---- */

static const double zero[8];

/* A parameter held as number I of the N of an MJCF attribute, whose
 * numbers default to DFLT. */
struct attr_part {
	const char *param, *attr;
	int i, n;
	const double *dflt;
};

/* The seven parameters PREFIX.solref.* and PREFIX.solimp.* as numbers
 * of the attributes REF and IMP. */
#define SOFTNESS_PARTS(PREFIX, REF, IMP) \
	{ PREFIX ".solref.timeconst", REF, 0, 2, phys_mjcf_solref }, \
	{ PREFIX ".solref.dampratio", REF, 1, 2, phys_mjcf_solref }, \
	{ PREFIX ".solimp.dmin", IMP, 0, 5, phys_mjcf_solimp }, \
	{ PREFIX ".solimp.dmax", IMP, 1, 5, phys_mjcf_solimp }, \
	{ PREFIX ".solimp.width", IMP, 2, 5, phys_mjcf_solimp }, \
	{ PREFIX ".solimp.midpoint", IMP, 3, 5, phys_mjcf_solimp }, \
	{ PREFIX ".solimp.power", IMP, 4, 5, phys_mjcf_solimp }

/* The part of parts (n of them) that holds parameter p, NULL if none. */
static const struct attr_part *
part_of(const struct attr_part *parts, size_t n, const struct phys_param *p)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(p->name, parts[i].param) == 0)
			return &parts[i];
	return NULL;
}

/* The <joint> equality that couples MJCF joint el to another (its
 * joint1), NULL where none does. */
static xmlNodePtr
joint_equality(xmlNodePtr root, xmlNodePtr el)
{
	char *name = phys_node_attr(el, "name"), *j1;
	xmlNodePtr q, n, found = NULL;

	for (q = phys_child(root, "equality"); name && q && !found;
	    q = phys_next(q, "equality"))
		for (n = phys_child(q, "joint"); n && !found;
		    n = phys_next(n, "joint")) {
			j1 = phys_node_attr(n, "joint1");
			if (j1 && strcmp(j1, name) == 0)
				found = n;
			free(j1);
		}
	free(name);
	return found;
}

/* A coupled joint's physics.mujoco.equality.* into its equality's
 * solref and solimp. */
static int
edit_equality(struct phys_doc *d, struct mj_ent *e, const struct phys_param *p,
    double x)
{
	static const struct attr_part parts[] = {
		SOFTNESS_PARTS("physics.mujoco.equality", "solref", "solimp"),
	};
	const struct attr_part *a = part_of(parts, sizeof parts /
	    sizeof *parts, p);
	xmlNodePtr q = joint_equality(d->root, e->el);
	char name[300];

	if (a && q)
		return set_number(d, q, "equality", a->attr, a->i, a->n,
		    a->dflt, x);
	return phys_failat(d->name, phys_node_line(e->el), "%s: no <joint> "
	    "equality couples it (joint1) to hold %s; write the model as SDF "
	    "(phys-sdf print) to set it", label(e->el, name, sizeof name),
	    p->name);
}

static int
edit_joint(struct phys_doc *d, struct mj_ent *e, const struct phys_param *p,
    const char *value)
{
	static const struct attr_part plain[] = {
		{ "axis.dynamics.damping", "damping", 0, 1, zero },
		{ "axis.dynamics.friction", "frictionloss", 0, 1, zero },
		{ "axis.dynamics.spring_stiffness", "stiffness", 0, 1, zero },
		{ "physics.mujoco.armature", "armature", 0, 1, zero },
		{ "physics.mujoco.limit.margin", "margin", 0, 1, zero },
		SOFTNESS_PARTS("physics.mujoco.limit", "solreflimit",
		    "solimplimit"),
	};
	const struct attr_part *a;
	char name[300], *type, *w;
	double x, ref = 0, unit = 1, v[3];
	xmlNodePtr from;
	bool hinge, ball, degree = true;

	label(e->el, name, sizeof name);
	type = phys_node_is(e->el, "freejoint") ? phys_xstrdup("free") :
	    resolve_word(d->root, e->el, "joint", "type");
	hinge = !type || strcmp(type, "hinge") == 0;
	ball = type && strcmp(type, "ball") == 0;
	if (type && strcmp(type, "hinge") && strcmp(type, "slide") && !ball) {
		free(type);
		return phys_failat(d->name, phys_node_line(e->el), "%s is a "
		    "free joint: phys keeps no %s of it", name, p->name);
	}
	free(type);
	/* a ball has no axis, and its range is its largest turn */
	if (ball && (strcmp(p->name, "axis.xyz") == 0 ||
	    strcmp(p->name, "axis.limit.lower") == 0 ||
	    strcmp(p->name, "axis.dynamics.spring_reference") == 0))
		return phys_failat(d->name, phys_node_line(e->el), "%s is a "
		    "ball joint, whose MJCF holds no %s", name, p->name);
	if (strcmp(p->name, "axis.xyz") == 0) {
		if (phys_parse_doubles(value, v, 3) != 3)
			return phys_fail("an axis needs three numbers, not "
			    "'%s'", value);
		return set_numbers(d, e->el, "axis", v, 3);
	}
	if (!phys_parse_double(value, &x))
		return phys_fail("'%s' is not a number", value);
	if ((a = part_of(plain, sizeof plain / sizeof *plain, p)))
		return set_number(d, e->el, "joint", a->attr, a->i, a->n,
		    a->dflt, x);
	if (strncmp(p->name, "physics.mujoco.equality.", 24) == 0)
		return edit_equality(d, e, p, x);
	/* phys measures from ref, in radians; the file from qpos 0, in its
	 * unit */
	if ((w = compiler_word(d->root, "angle"))) {
		degree = strcmp(w, "radian") != 0;
		free(w);
	}
	if ((hinge || ball) && degree)
		unit = 180 / M_PI;
	if (!ball)
		resolve(d->root, e->el, "joint", "ref", &ref, 1, &from);
	if (strcmp(p->name, "axis.dynamics.spring_reference") == 0)
		return set_number(d, e->el, "joint", "springref", 0, 1, zero,
		    x * unit + ref);
	if (strcmp(p->name, "axis.limit.lower") == 0 ||
	    strcmp(p->name, "axis.limit.upper") == 0) {
		if (!phys_path_find(e->sdf, "axis.limit"))
			return phys_failat(d->name, phys_node_line(e->el),
			    "%s has no limits; give it a range in the file "
			    "(MuJoCo's range holds both ends)", name);
		return set_number(d, e->el, "joint", "range",
		    p->name[11] == 'l' ? 0 : 1, 2, zero, x * unit + ref);
	}
	return phys_failat(d->name, phys_node_line(e->el), "%s: MJCF's joints "
	    "cannot hold %s; write the model as SDF (phys-sdf print) to set "
	    "it", name, p->name);
}

/* ---- geoms ---- */

static int
edit_geom(struct phys_doc *d, struct mj_ent *e, const struct phys_param *p,
    const char *value)
{
	static const double friction[3] = { 1, 0.005, 0.0001 };
	static const double condim[1] = { 3 }, priority[1] = { 0 },
	    solmix[1] = { 1 };
	static const struct attr_part attrs[] = {
		{ "surface.friction.ode.mu", "friction", 0, 3, friction },
		{ "surface.friction.torsional.coefficient", "friction", 1, 3,
		    friction },
		{ "surface.friction.mujoco.rolling", "friction", 2, 3,
		    friction },
		{ "surface.friction.mujoco.condim", "condim", 0, 1, condim },
		{ "surface.contact.mujoco.priority", "priority", 0, 1,
		    priority },
		{ "surface.contact.mujoco.solmix", "solmix", 0, 1, solmix },
		{ "surface.contact.mujoco.margin", "margin", 0, 1, zero },
		{ "surface.contact.mujoco.gap", "gap", 0, 1, zero },
		SOFTNESS_PARTS("surface.contact.mujoco", "solref", "solimp"),
	};
	const struct attr_part *a;
	char name[300];
	double x, v[3];
	xmlNodePtr from;

	label(e->el, name, sizeof name);
	if (!phys_parse_double(value, &x))
		return phys_fail("'%s' is not a number", value);
	if (strcmp(p->name, "surface.friction.ode.mu2") == 0) {
		memcpy(v, friction, sizeof v);
		resolve(d->root, e->el, "geom", "friction", v, 3, &from);
		if (x == v[0])
			return 0;
		return phys_failat(d->name, phys_node_line(e->el), "%s: "
		    "MuJoCo's geoms have one sliding friction, which "
		    "surface.friction.ode.mu sets (mu2 follows it)", name);
	}
	if ((a = part_of(attrs, sizeof attrs / sizeof *attrs, p)))
		return set_number(d, e->el, "geom", a->attr, a->i, a->n,
		    a->dflt, x);
	return phys_failat(d->name, phys_node_line(e->el), "%s: MJCF's geoms "
	    "cannot hold %s; write the model as SDF (phys-sdf print) to set "
	    "it", name, p->name);
}

/* ---- <option> ---- */

/* The <option> that says attr last, else the last one, else a new one. */
static xmlNodePtr
option_for(struct phys_doc *d, const char *attr)
{
	xmlNodePtr o, last = NULL, holder = NULL;

	for (o = phys_child(d->root, "option"); o; o = phys_next(o, "option")) {
		last = o;
		if (xmlHasProp(o, (const xmlChar *)attr))
			holder = o;
	}
	if (holder || last)
		return holder ? holder : last;
	if ((o = compiler_of(d->root)) ? phys_doc_insert_after(d, o,
	    "<option/>") < 0 : phys_doc_append_child(d, d->root,
	    "<option/>") < 0)
		return NULL;
	return phys_child(d->root, "option");
}

/*
 * A parameter that is a <flag> of MJCF's <option> (a later MuJoCo's
 * eulerdamp): the <flag> that says it last, else one of the <option>
 * option_for gives, "disable" for false.
 */
static int
edit_flag(struct phys_doc *d, const char *attr, const char *value)
{
	xmlNodePtr o, f, at = NULL;
	bool on;

	if (!phys_parse_bool(value, &on))
		return phys_fail("'%s' is not true or false", value);
	for (o = phys_child(d->root, "option"); o; o = phys_next(o, "option"))
		for (f = phys_child(o, "flag"); f; f = phys_next(f, "flag"))
			if (xmlHasProp(f, (const xmlChar *)attr))
				at = f;
	if (!at) {
		/* no <option> has an attribute "flag": the last, or new */
		if (!(o = option_for(d, "flag")))
			return -1;
		if (!phys_child(o, "flag") &&
		    phys_doc_append_child(d, o, "<flag/>") < 0)
			return -1;
		at = phys_child(o, "flag");
	}
	return phys_doc_set_attr(d, at, attr, on ? "enable" : "disable");
}

static int
edit_option(struct phys_doc *d, phys_scope s, xmlNodePtr node,
    const struct phys_param *p, const char *value)
{
	static const struct {
		const char *param, *attr;
		bool word;
	} opts[] = {
		{ "max_step_size", "timestep", false },
		{ "mujoco.integrator", "integrator", true },
		{ "mujoco.solver", "solver", true },
		{ "mujoco.iterations", "iterations", false },
		{ "mujoco.tolerance", "tolerance", false },
		{ "mujoco.cone", "cone", true },
		{ "mujoco.impratio", "impratio", false },
	};
	xmlNodePtr o;
	double v[3];
	size_t i;

	if (s == PHYS_S_WORLD && strcmp(p->name, "gravity") == 0) {
		if (phys_parse_doubles(value, v, 3) != 3)
			return phys_fail("gravity needs three numbers, not "
			    "'%s'", value);
		return (o = option_for(d, "gravity")) ?
		    set_numbers(d, o, "gravity", v, 3) : -1;
	}
	if (s == PHYS_S_PHYSICS && strcmp(p->name, "mujoco.eulerdamp") == 0)
		return edit_flag(d, "eulerdamp", value);
	for (i = 0; s == PHYS_S_PHYSICS && i < sizeof opts / sizeof *opts; i++)
		if (strcmp(p->name, opts[i].param) == 0)
			break;
	if (s != PHYS_S_PHYSICS || i == sizeof opts / sizeof *opts)
		return phys_failat(d->name, phys_node_line(d->root), "MJCF's "
		    "<option> cannot hold %s; put the model in an SDF world "
		    "(phys-sdf world) to set it", p->name);
	(void)node;
	if (!(o = option_for(d, opts[i].attr)))
		return -1;
	if (opts[i].word)
		return phys_doc_set_attr(d, o, opts[i].attr, value);
	if (!phys_parse_double(value, v))
		return phys_fail("'%s' is not a number", value);
	return set_numbers(d, o, opts[i].attr, v, 1);
}

int
phys_mjcf_edit(struct phys_doc *src, struct phys_doc *model,
    phys_scope s, xmlNodePtr node, const struct phys_param *p,
    const char *value)
{
	struct mj_ent *e;
	char *name;
	int rc;

	if (!model || map_build(src, model) < 0)
		return -1;
	if (s == PHYS_S_WORLD || s == PHYS_S_PHYSICS)
		return edit_option(src, s, node, p, value);
	e = entity_of(src->mjcf, node);
	if (e && e->copied) {
		name = phys_node_attr(node, "name");
		rc = phys_fail("%s: '%s' is one of the copies the <replicate> "
		    "at line %ld makes: an edit of its element would change "
		    "every copy: no element of this file holds its %s alone",
		    src->name, name ? name : "?", e->copied, p->name);
		free(name);
		return rc;
	}
	if (!e || !e->el) {
		name = node ? phys_node_attr(node, "name") : NULL;
		rc = phys_fail("%s: '%s' is made by phys or comes from an "
		    "<include>d file: no element of this file holds its %s",
		    src->name, name ? name : "?", p->name);
		free(name);
		return rc;
	}
	switch (s) {
	case PHYS_S_LINK:
		return edit_body(src, e, p, value);
	case PHYS_S_JOINT:
		return edit_joint(src, e, p, value);
	case PHYS_S_COLLISION:
		return edit_geom(src, e, p, value);
	default:
		return phys_fail("%s holds no %s parameters", src->name,
		    phys_scope_name(s));
	}
}
