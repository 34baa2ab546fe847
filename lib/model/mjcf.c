/*
 * mjcf.c - MJCF models converted into SDF, as MuJoCo 2.2.2 compiles them
 * (mjcf.h). The MJCF tree is read once, body by body, into MuJoCo's
 * terms (world poses at qpos0, inertial frames, joints, geoms); then the
 * SDF model is written from them. Defaults are resolved as MuJoCo's
 * classes inherit: an attribute an element lacks comes from its class
 * (its own "class", else the nearest body's "childclass", else "main"),
 * then from that class's parents.
 */
#include <ctype.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mesh.h"
#include "mjcf.h"
#include "mjcf_inertia.h"
#include "mjcfedit.h"
#include "names.h"
#include "num.h"
#include "pairkey.h"
#include "world_types.h"

#define MJ_MAX_DEPTH	64	/* nested default classes */
#define MJ_MAX_BODIES	1024	/* nested bodies (a chain, a rope) */
#define MJ_MAX_INCLUDES	1024	/* files included, all told */
/* The link between two joints of one body: this share of the body's mass
 * (of 1 kg when it has none), with this radius of gyration (m). */
#define CHAIN_SHARE	1e-3
#define CHAIN_GYRATION	1e-2

enum mj_joint_type { MJ_FREE, MJ_BALL, MJ_SLIDE, MJ_HINGE };

struct mj_class {
	char *name;
	int parent;		/* -1 for "main" */
	xmlNodePtr node;	/* the <default> */
	/* its child for the element last asked about (an element's
	 * attributes are asked one after another) */
	const xmlChar *asked;
	xmlNodePtr answer;
};

struct mj_mesh {
	char *name;
	char *file;		/* resolved path */
	char *uri;		/* the same beside the model's file, for SDF */
	double scale[3];
	long line;
	bool measured;		/* frame and box below computed */
	phys_pose frame;	/* centre and principal axes, mesh frame */
	double box[3];		/* half-sides of its inertia box (m) */
};

struct mj_geom {
	char *name;
	enum phys_mjcf_geom_type type;
	double size[3];
	phys_pose pose;		/* in its body */
	phys_pose ipose;	/* its inertia's frame in its body */
	double mass;		/* kg */
	double diag[3];		/* kg m^2, along ipose.q */
	double friction[3];	/* sliding, torsional (m), rolling (m) */
	double solref[2], solimp[5];
	int group, mesh, condim;
	int contype, conaffinity;	/* MuJoCo's collision bits */
	bool collides;		/* contype or conaffinity set */
	bool paired;		/* in a <pair>: a collision whatever its bits */
	bool inertia;		/* counted in the body's inertia */
	int body;		/* -1: the world body */
	xmlNodePtr node;	/* its <collision>, once written */
	long line;
};

/* <contact><pair>: two geoms that touch with a surface of their own. */
struct mj_pair {
	int g1, g2;
	int condim;
	double friction[5];	/* 2 sliding, torsional (m), 2 rolling (m) */
	double solref[2], solimp[5];
	long line;
};

struct mj_joint {
	char *name;
	enum mj_joint_type type;
	phys_vec3 pos, axis;	/* body frame */
	bool limited;
	double range[2];	/* rad or m, in MuJoCo's qpos */
	double ref, springref;
	double damping, stiffness, armature, frictionloss;
	long line;
};

struct mj_body {
	char *name;
	int parent;		/* -1: the world body */
	phys_pose world;	/* at qpos0 */
	struct phys_mjcf_inertial in;
	size_t geom0, ngeoms, joint0, njoints;
	long line;
};

struct mj_site {
	char *name;
	int body;
	phys_pose pose;
	long line;
};

struct reader {
	struct phys_doc *d;
	const struct phys_urdf_options *o;
	char *model;
	/* <compiler> */
	bool degree;
	char eulerseq[4];
	int inertiafromgeom;	/* 0 false, 1 true, 2 auto */
	int igroup[2];
	double boundmass, boundinertia, settotalmass;
	bool balanceinertia, autolimits, discardvisual, fusestatic;
	/* fusestatic, and nothing naming what it would move: each body
	 * without joints becomes part of the body it is welded to */
	bool fuse;
	char *meshdir;
	/* <option>, MuJoCo's defaults unless given */
	double timestep, gravity[3], tolerance, impratio;
	int integrator, solver, cone, iterations;
	long option_line;
	struct mj_class *cls;
	size_t ncls;
	struct mj_mesh *meshes;
	size_t nmeshes;
	struct mj_body *bodies;
	size_t nbodies;
	struct mj_geom *geoms;
	size_t ngeoms;
	struct mj_joint *joints;
	size_t njoints;
	struct mj_site *sites;
	size_t nsites;
	xmlNodePtr *equality;	/* <connect>, <weld> and <joint> to write */
	size_t nequality;
	bool mimic;		/* a coupled joint: SDF 1.11 */
	struct mj_act {
		int kind;	/* ACT_* */
		int joint;
		double gain, fmax;	/* N m per unit; force limit */
		double gear;	/* a motor's force per unit of control */
		size_t index;	/* among all the model's actuators */
		xmlNodePtr plugin;	/* its system, once written */
		long line;
	} *acts;
	size_t nacts;
	size_t nu;		/* actuators, read or not: MuJoCo's nu */
	/* <contact><exclude>: body pairs as keys (excl_key), sorted once
	 * read */
	int64_t *excl;
	size_t nexcl;
	struct mj_pair *pairs;
	size_t npairs;
	struct mj_key {		/* <keyframe><key> */
		char *name;
		double *qpos, *qvel;	/* nq and nv values */
		double *ctrl;		/* nu values; NULL: none given */
		long line;
	} *keys;
	size_t nkeys;
	size_t nincludes;
	/* what each included element came from, for messages */
	struct mj_origin { xmlNodePtr top; char *file; } *origins;
	size_t norigins;
	xmlDocPtr out;
};

static int
mj_fail(struct reader *r, xmlNodePtr n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The file an element was read from: an included one, or the model's. */
static const char *
file_of(const struct reader *r, xmlNodePtr n)
{
	size_t i;

	for (; n; n = n->parent)
		for (i = 0; i < r->norigins; i++)
			if (r->origins[i].top == n)
				return r->origins[i].file;
	return r->d->name;
}

static int
mj_fail(struct reader *r, xmlNodePtr n, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return phys_failat(file_of(r, n), n ? phys_node_line(n) : 0, "%s",
	    msg);
}

static void
mj_note(struct reader *r, xmlNodePtr n, const char *what)
{
	if (!r->o->quiet)
		phys_warnat_once(file_of(r, n), phys_node_line(n), "<%s>: %s",
		    (const char *)n->name, what);
}

/* The attribute's text, the document's own; NULL when absent. */
static const char *
own_attr(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a = n ? xmlHasProp(n, (const xmlChar *)name) : NULL;

	return a && a->children ? (const char *)a->children->content :
	    a ? "" : NULL;
}

/* ---- default classes ---- */

static int
class_find(const struct reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ncls; i++)
		if (strcmp(r->cls[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
read_defaults(struct reader *r, xmlNodePtr def, int parent, int depth)
{
	const char *name = own_attr(def, "class");
	xmlNodePtr c;
	int me;

	if (depth > MJ_MAX_DEPTH)
		return mj_fail(r, def, "%s", "defaults nested too deeply");
	if (parent < 0 && r->ncls)	/* a second top-level <default> */
		parent = 0;
	if (!name)
		name = parent < 0 ? "main" : "";
	if (!*name || class_find(r, name) >= 0)
		return mj_fail(r, def, "%s class name '%s'", *name ? "repeated" :
		    "a nested <default> needs a", name);
	r->cls = phys_xrealloc(r->cls, (r->ncls + 1) * sizeof *r->cls);
	me = (int)r->ncls++;
	memset(&r->cls[me], 0, sizeof r->cls[me]);
	r->cls[me].name = phys_xstrdup(name);
	r->cls[me].parent = parent;
	r->cls[me].node = def;
	for (c = phys_child(def, "default"); c; c = phys_next(c, "default"))
		if (read_defaults(r, c, me, depth + 1) < 0)
			return -1;
	return 0;
}

/* The class an element takes: its own, else the one it inherits. */
static int
class_of(struct reader *r, xmlNodePtr n, int inherited, int *out)
{
	const char *name = own_attr(n, "class");

	*out = inherited;
	if (!name)
		return 0;
	if ((*out = class_find(r, name)) < 0)
		return mj_fail(r, n, "unknown default class '%s'", name);
	return 0;
}

/* The attribute of element n (kind: its name in <default>) or its
 * class's, or that class's parents'. */
static const char *
attr(const struct reader *r, xmlNodePtr n, int cls, const char *name)
{
	const char *v = own_attr(n, name);
	struct mj_class *c;

	for (; !v && cls >= 0; cls = c->parent) {
		c = &r->cls[cls];
		if (!c->asked || (c->asked != n->name &&
		    !xmlStrEqual(c->asked, n->name))) {
			c->asked = n->name;
			c->answer = phys_child(c->node, (const char *)n->name);
		}
		if (c->answer)
			v = own_attr(c->answer, name);
	}
	return v;
}

/* n numbers of an attribute: 0 when absent, else exactly n. */
static int
numbers(struct reader *r, xmlNodePtr el, int cls, const char *name,
    double *out, int n)
{
	const char *v = attr(r, el, cls, name);
	int k;

	if (!v)
		return 0;
	k = phys_parse_doubles(v, out, n);
	if (k != n)
		return mj_fail(r, el, "%s=\"%.40s\": %d numbers expected", name,
		    v, n);
	return n;
}

/* Up to n numbers (n <= 6), at least min: how many. */
static int
some_numbers(struct reader *r, xmlNodePtr el, int cls, const char *name,
    double *out, int min, int n)
{
	const char *v = attr(r, el, cls, name);
	double tmp[8];
	int k;

	if (!v)
		return 0;
	k = phys_parse_doubles(v, tmp, 8);
	if (k < min || k > n)
		return mj_fail(r, el, "%s=\"%.40s\": %d to %d numbers expected",
		    name, v, min, n);
	memcpy(out, tmp, k * sizeof *out);
	return k;
}

static int
number(struct reader *r, xmlNodePtr el, int cls, const char *name,
    double *out)
{
	return numbers(r, el, cls, name, out, 1);
}

static int
keyword(struct reader *r, xmlNodePtr el, int cls, const char *name,
    const char *const *words, int dflt)
{
	const char *v = attr(r, el, cls, name);
	int i;

	if (!v)
		return dflt;
	for (i = 0; words[i]; i++)
		if (strcmp(v, words[i]) == 0)
			return i;
	return mj_fail(r, el, "%s=\"%.40s\": not one of MuJoCo's values", name,
	    v);
}

static int
flag(struct reader *r, xmlNodePtr el, int cls, const char *name, int dflt)
{
	static const char *const words[] = { "false", "true", NULL };

	return keyword(r, el, cls, name, words, dflt);
}

/* ---- orientations ---- */

static double
angle(const struct reader *r, double a)
{
	return r->degree ? a / 180 * M_PI : a;
}

static phys_quat
z_to(phys_vec3 v)
{
	phys_vec3 a = v3_cross(v3(0, 0, 1), v);
	double s = v3_norm(a), ang;
	phys_quat q;

	a = s < 1e-10 ? v3(1, 0, 0) : v3_scale(a, 1 / s);
	ang = atan2(s, v.z);
	q.w = cos(ang / 2);
	q.x = a.x * sin(ang / 2);
	q.y = a.y * sin(ang / 2);
	q.z = a.z * sin(ang / 2);
	return q;
}

static int
euler_quat(struct reader *r, xmlNodePtr el, const double e[3],
    phys_quat *q)
{
	phys_quat s = PHYS_QUAT_IDENTITY, t;
	double a;
	int i;

	for (i = 0; i < 3; i++) {
		a = angle(r, e[i]);
		t = (phys_quat){ cos(a / 2), 0, 0, 0 };
		switch (tolower((unsigned char)r->eulerseq[i])) {
		case 'x': t.x = sin(a / 2); break;
		case 'y': t.y = sin(a / 2); break;
		default: t.z = sin(a / 2); break;
		}
		/* lower case: moving axes; upper case: fixed axes */
		s = islower((unsigned char)r->eulerseq[i]) ?
		    phys_quat_mul(s, t) : phys_quat_mul(t, s);
	}
	(void)el;
	*q = phys_quat_normalize(s);
	return 0;
}

static int
xyaxes_quat(struct reader *r, xmlNodePtr el, const double v[6],
    phys_quat *q)
{
	phys_vec3 x = v3(v[0], v[1], v[2]), y = v3(v[3], v[4], v[5]), z;
	phys_mat3 m;

	if (v3_norm(x) < 1e-14)
		return mj_fail(r, el, "%s", "xyaxes: x axis too small");
	x = v3_normalize(x);
	y = v3_sub(y, v3_scale(x, v3_dot(x, y)));
	if (v3_norm(y) < 1e-14)
		return mj_fail(r, el, "%s", "xyaxes: y axis too small");
	y = v3_normalize(y);
	z = v3_normalize(v3_cross(x, y));
	m = (phys_mat3){ { { x.x, y.x, z.x }, { x.y, y.y, z.y },
	    { x.z, y.z, z.z } } };
	*q = phys_mat3_to_quat(m);
	return 0;
}

/* quat, then axisangle, xyaxes, zaxis and euler in MuJoCo's order: the
 * last given wins. */
static int
orientation(struct reader *r, xmlNodePtr el, int cls, phys_quat *q)
{
	double v[6];
	int k;

	*q = PHYS_QUAT_IDENTITY;
	if ((k = numbers(r, el, cls, "quat", v, 4)) < 0)
		return -1;
	if (k) {
		*q = (phys_quat){ v[0], v[1], v[2], v[3] };
		if (!(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] +
		    v[3] * v[3]) > 1e-14))
			return mj_fail(r, el, "%s", "quat is zero");
		*q = phys_quat_normalize(*q);
	}
	if ((k = numbers(r, el, cls, "axisangle", v, 4)) < 0)
		return -1;
	if (k) {
		if (v3_norm(v3(v[0], v[1], v[2])) < 1e-14)
			return mj_fail(r, el, "%s", "axisangle too small");
		*q = phys_quat_about(v3_normalize(v3(v[0], v[1], v[2])),
		    angle(r, v[3]));
	}
	if ((k = numbers(r, el, cls, "xyaxes", v, 6)) < 0 ||
	    (k && xyaxes_quat(r, el, v, q) < 0))
		return -1;
	if ((k = numbers(r, el, cls, "zaxis", v, 3)) < 0)
		return -1;
	if (k) {
		if (v3_norm(v3(v[0], v[1], v[2])) < 1e-14)
			return mj_fail(r, el, "%s", "zaxis too small");
		*q = z_to(v3_normalize(v3(v[0], v[1], v[2])));
	}
	if ((k = numbers(r, el, cls, "euler", v, 3)) < 0 ||
	    (k && euler_quat(r, el, v, q) < 0))
		return -1;
	return 0;
}

static int
position(struct reader *r, xmlNodePtr el, int cls, phys_vec3 *p)
{
	double v[3] = { 0, 0, 0 };

	if (numbers(r, el, cls, "pos", v, 3) < 0)
		return -1;
	*p = v3(v[0], v[1], v[2]);
	return 0;
}

/* ---- <option> ---- */

static const char *const integrators[] = { "Euler", "RK4", "implicit",
	NULL };
static const char *const solvers[] = { "PGS", "CG", "Newton", NULL };
static const char *const cones[] = { "pyramidal", "elliptic", NULL };

static int
read_option(struct reader *r, xmlNodePtr o)
{
	double it = r->iterations;
	int k;

	r->option_line = phys_node_line(o);
	if (number(r, o, -1, "timestep", &r->timestep) < 0 ||
	    numbers(r, o, -1, "gravity", r->gravity, 3) < 0 ||
	    number(r, o, -1, "tolerance", &r->tolerance) < 0 ||
	    number(r, o, -1, "impratio", &r->impratio) < 0 ||
	    number(r, o, -1, "iterations", &it) < 0)
		return -1;
	r->iterations = (int)it;
	if ((k = keyword(r, o, -1, "integrator", integrators,
	    r->integrator)) < 0)
		return -1;
	r->integrator = k;
	if ((k = keyword(r, o, -1, "solver", solvers, r->solver)) < 0)
		return -1;
	r->solver = k;
	if ((k = keyword(r, o, -1, "cone", cones, r->cone)) < 0)
		return -1;
	r->cone = k;
	if (!(r->timestep > 0))
		return mj_fail(r, o, "%s", "timestep must be positive");
	if (phys_child(o, "flag") && !r->o->quiet)
		phys_warnat(r->d->name, phys_node_line(phys_child(o, "flag")),
		    "%s", "<flag>: not read: every part of the dynamics is on");
	return 0;
}

/* ---- <compiler>, <include>, <asset> ---- */

static int
read_compiler(struct reader *r, xmlNodePtr c)
{
	static const char *const angles[] = { "radian", "degree", NULL };
	static const char *const coords[] = { "local", "global", NULL };
	static const char *const ifg[] = { "false", "true", "auto", NULL };
	const char *v;
	double g[2];
	int k;

	if ((k = keyword(r, c, -1, "angle", angles, r->degree)) < 0)
		return -1;
	r->degree = k;
	if (keyword(r, c, -1, "coordinate", coords, 0) == 1)
		return mj_fail(r, c, "%s", "coordinate=\"global\" is not read "
		    "(MuJoCo 2.2 deprecates it): write local coordinates");
	if ((v = own_attr(c, "eulerseq"))) {
		if (strlen(v) != 3 || strspn(v, "xyzXYZ") != 3)
			return mj_fail(r, c, "eulerseq=\"%.20s\": three of x, "
			    "y, z, X, Y, Z expected", v);
		memcpy(r->eulerseq, v, 4);
	}
	if ((k = keyword(r, c, -1, "inertiafromgeom", ifg,
	    r->inertiafromgeom)) < 0)
		return -1;
	r->inertiafromgeom = k;
	if ((k = numbers(r, c, -1, "inertiagrouprange", g, 2)) < 0)
		return -1;
	if (k) {
		r->igroup[0] = (int)g[0];
		r->igroup[1] = (int)g[1];
	}
	if (number(r, c, -1, "boundmass", &r->boundmass) < 0 ||
	    number(r, c, -1, "boundinertia", &r->boundinertia) < 0 ||
	    number(r, c, -1, "settotalmass", &r->settotalmass) < 0)
		return -1;
	if ((k = flag(r, c, -1, "balanceinertia", r->balanceinertia)) < 0)
		return -1;
	r->balanceinertia = k;
	if ((k = flag(r, c, -1, "autolimits", r->autolimits)) < 0)
		return -1;
	r->autolimits = k;
	if ((k = flag(r, c, -1, "discardvisual", r->discardvisual)) < 0)
		return -1;
	r->discardvisual = k;
	if ((k = flag(r, c, -1, "exactmeshinertia", 0)) < 0)
		return -1;
	if (k)
		mj_note(r, c, "exactmeshinertia is not read: meshes weigh as "
		    "MuJoCo's default inertia has them");
	if ((k = flag(r, c, -1, "fusestatic", r->fusestatic)) < 0)
		return -1;
	r->fusestatic = k;
	if ((v = own_attr(c, "meshdir")) || (v = own_attr(c, "assetdir"))) {
		free(r->meshdir);
		r->meshdir = phys_xstrdup(v);
	}
	return 0;
}

static char *
dir_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!slash)
		return phys_xstrdup(".");
	return phys_xasprintf("%.*s", (int)(slash - path), path);
}

/*
 * <include file="..."/>: the file's elements in its place, read on from
 * the first of them (an included file may include others; its path is
 * beside the model's file, as MuJoCo finds it).
 */
static int
expand_includes(struct reader *r, xmlNodePtr parent)
{
	xmlNodePtr n = phys_child(parent, NULL), next, c, copy, first;
	struct phys_doc inc;
	const char *file;
	char *dir, *path;
	int rc;

	for (; n; n = next) {
		next = phys_next(n, NULL);
		if (!phys_node_is(n, "include")) {
			if (expand_includes(r, n) < 0)
				return -1;
			continue;
		}
		if (++r->nincludes > MJ_MAX_INCLUDES)
			return mj_fail(r, n, "%s", "more than 1024 includes "
			    "(does a file include itself?)");
		if (!(file = own_attr(n, "file")))
			return mj_fail(r, n, "%s", "<include> has no file");
		dir = dir_of(r->d->path);
		path = file[0] == '/' ? phys_xstrdup(file) :
		    phys_xasprintf("%s/%s", dir, file);
		free(dir);
		rc = phys_doc_load(&inc, path);
		free(path);
		if (rc < 0)
			return mj_fail(r, n, "<include file=\"%s\">: %s", file,
			    phys_error());
		if (!inc.xml || !phys_node_is(inc.root, "mujoco")) {
			phys_doc_free(&inc);
			return mj_fail(r, n, "<include file=\"%s\">: its root "
			    "element must be <mujoco>", file);
		}
		first = NULL;
		for (c = phys_child(inc.root, NULL); c; c = phys_next(c, NULL)) {
			copy = xmlDocCopyNode(c, r->d->xml, 1);
			xmlAddPrevSibling(n, copy);
			first = first ? first : copy;
			r->origins = phys_xrealloc(r->origins, (r->norigins +
			    1) * sizeof *r->origins);
			r->origins[r->norigins].top = copy;
			r->origins[r->norigins++].file = phys_xstrdup(inc.name);
		}
		phys_doc_free(&inc);
		xmlUnlinkNode(n);
		xmlFreeNode(n);
		next = first ? first : next;
	}
	return 0;
}

static int
read_mesh(struct reader *r, xmlNodePtr n, int cls)
{
	const char *name = own_attr(n, "name"), *file = own_attr(n, "file");
	struct mj_mesh *m;
	char *dir;
	const char *base;

	if (!file)
		return mj_fail(r, n, "%s", "<mesh> has no file (vertex lists "
		    "are not read)");
	r->meshes = phys_xrealloc(r->meshes, (r->nmeshes + 1) *
	    sizeof *r->meshes);
	m = &r->meshes[r->nmeshes++];
	memset(m, 0, sizeof *m);
	m->line = phys_node_line(n);
	if (!name) {	/* MuJoCo names it after its file */
		base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		m->name = phys_xasprintf("%.*s", (int)(strcspn(base, ".")),
		    base);
	} else {
		m->name = phys_xstrdup(name);
	}
	m->scale[0] = m->scale[1] = m->scale[2] = 1;
	if (numbers(r, n, cls, "scale", m->scale, 3) < 0)
		return -1;
	if (file[0] == '/')
		m->uri = phys_xstrdup(file);
	else if (r->meshdir)
		m->uri = phys_xasprintf("%s/%s", r->meshdir, file);
	else
		m->uri = phys_xstrdup(file);
	dir = dir_of(r->d->path);
	m->file = m->uri[0] == '/' ? phys_xstrdup(m->uri) :
	    phys_xasprintf("%s/%s", dir, m->uri);
	free(dir);
	return 0;
}

static int
read_assets(struct reader *r, xmlNodePtr a)
{
	xmlNodePtr n;
	int cls;

	for (n = phys_child(a, NULL); n; n = phys_next(n, NULL)) {
		if (class_of(r, n, 0, &cls) < 0)
			return -1;
		if (phys_node_is(n, "mesh") && read_mesh(r, n, cls) < 0)
			return -1;
		if (phys_node_is(n, "hfield"))
			mj_note(r, n, "height fields are not read");
	}
	return 0;
}

static int
mesh_find(const struct reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nmeshes; i++)
		if (strcmp(r->meshes[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- geoms, joints, sites ---- */

static int
geom_shape(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	static const char *const types[] = { "plane", "hfield", "sphere",
		"capsule", "ellipsoid", "cylinder", "box", "mesh", NULL };
	const char *mesh;
	double ft[6];
	phys_vec3 v;
	int k;

	if ((k = keyword(r, n, cls, "type", types, PHYS_MJ_SPHERE)) < 0)
		return -1;
	g->type = k;
	g->mesh = -1;
	if (some_numbers(r, n, cls, "size", g->size, 0, 3) < 0)
		return -1;
	if (g->type == PHYS_MJ_HFIELD)
		return mj_fail(r, n, "%s", "height field geoms are not read");
	if (g->type == PHYS_MJ_MESH) {
		if (!(mesh = attr(r, n, cls, "mesh")) ||
		    (g->mesh = mesh_find(r, mesh)) < 0)
			return mj_fail(r, n, "mesh geom: no mesh '%s'", mesh ?
			    mesh : "");
	}
	if ((k = numbers(r, n, cls, "fromto", ft, 6)) < 0)
		return -1;
	if (!k)
		return position(r, n, cls, &g->pose.p) < 0 ||
		    orientation(r, n, cls, &g->pose.q) < 0 ? -1 : 0;
	if (g->type != PHYS_MJ_CAPSULE && g->type != PHYS_MJ_CYLINDER &&
	    g->type != PHYS_MJ_ELLIPSOID && g->type != PHYS_MJ_BOX)
		return mj_fail(r, n, "%s", "fromto requires capsule, cylinder, "
		    "box or ellipsoid");
	v = v3(ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]);
	g->size[1] = v3_norm(v) / 2;
	if (g->size[1] < 1e-14)
		return mj_fail(r, n, "%s", "fromto points too close");
	if (g->type == PHYS_MJ_ELLIPSOID || g->type == PHYS_MJ_BOX) {
		g->size[2] = g->size[1];
		g->size[1] = g->size[0];
	}
	g->pose.p = v3((ft[0] + ft[3]) / 2, (ft[1] + ft[4]) / 2,
	    (ft[2] + ft[5]) / 2);
	g->pose.q = z_to(v3_normalize(v));
	return 0;
}

/* A mesh's inertia frame and box, MuJoCo's way, once per mesh. */
static int
measure_mesh(struct reader *r, xmlNodePtr n, struct mj_mesh *m)
{
	struct phys_mesh_spec spec = { m->file, NULL, false,
		{ m->scale[0], m->scale[1], m->scale[2] } };
	struct phys_mesh *mesh;
	int rc;

	if (m->measured)
		return 0;
	if (!(mesh = phys_mesh_load(&spec)))
		return mj_fail(r, n, "mesh '%s': %s", m->name, phys_error());
	rc = phys_mjcf_mesh_box(mesh->v, mesh->nv, mesh->tri, mesh->ntri,
	    &m->frame.p, &m->frame.q, m->box);
	phys_mesh_free(mesh);
	if (rc < 0)
		return mj_fail(r, n, "mesh '%s': %s", m->name, phys_error());
	m->measured = true;
	return 0;
}

/* MuJoCo's check of a geom's sizes: those its type uses positive (a
 * plane's third, its grid spacing, too). */
static int
check_size(struct reader *r, xmlNodePtr n, const struct mj_geom *g)
{
	static const int used[] = { [PHYS_MJ_SPHERE] = 1,
		[PHYS_MJ_CAPSULE] = 2, [PHYS_MJ_ELLIPSOID] = 3,
		[PHYS_MJ_CYLINDER] = 2, [PHYS_MJ_BOX] = 3, [PHYS_MJ_MESH] = 0 };
	static const char *const names[] = { "plane", "height field",
		"sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh" };
	int i;

	if (g->type == PHYS_MJ_PLANE && !(g->size[2] > 0))
		return mj_fail(r, n, "%s", "a plane's third size must be "
		    "positive");
	for (i = 0; i < used[g->type]; i++)
		if (!(g->size[i] > 0))
			return mj_fail(r, n, "a %s needs %d positive size%s",
			    names[g->type], used[g->type], used[g->type] > 1 ?
			    "s" : "");
	return 0;
}

static int
geom_mass(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	double density = 1000, mass, vol;
	const double *mb;
	int k;

	if (number(r, n, cls, "density", &density) < 0 ||
	    (k = number(r, n, cls, "mass", &mass)) < 0)
		return -1;
	g->ipose = g->pose;
	if (g->type == PHYS_MJ_MESH) {
		if (!g->inertia)
			return 0;
		if (measure_mesh(r, n, &r->meshes[g->mesh]) < 0)
			return -1;
		mb = r->meshes[g->mesh].box;
		g->ipose = phys_pose_mul(g->pose, r->meshes[g->mesh].frame);
		vol = 8 * mb[0] * mb[1] * mb[2];
		g->mass = k && vol > 1e-15 ? mass : density * vol;
		phys_mjcf_shape_diag(g->type, mb, g->mass, g->diag);
	} else {
		vol = phys_mjcf_volume(g->type, g->size);
		g->mass = k && vol > 1e-15 ? mass : density * vol;
		phys_mjcf_shape_diag(g->type, g->size, g->mass, g->diag);
	}
	if (g->mass < 0 || density < 0)
		return mj_fail(r, n, "%s", "mass or density is negative");
	return 0;
}

static int
read_geom(struct reader *r, xmlNodePtr n, int cls, int body,
    bool needs_inertia)
{
	static const double solref[2] = { 0.02, 1 },
	    solimp[5] = { 0.9, 0.95, 0.001, 0.5, 2 };
	struct mj_geom g;
	double ct = 1, ca = 1, gr = 0, cd = 3;

	memset(&g, 0, sizeof g);
	g.pose = PHYS_POSE_IDENTITY;
	g.line = phys_node_line(n);
	g.friction[0] = 1;
	g.friction[1] = 0.005;
	g.friction[2] = 0.0001;
	memcpy(g.solref, solref, sizeof solref);
	memcpy(g.solimp, solimp, sizeof solimp);
	if (geom_shape(r, n, cls, &g) < 0 ||
	    number(r, n, cls, "contype", &ct) < 0 ||
	    number(r, n, cls, "conaffinity", &ca) < 0 ||
	    number(r, n, cls, "group", &gr) < 0 ||
	    number(r, n, cls, "condim", &cd) < 0 ||
	    some_numbers(r, n, cls, "friction", g.friction, 1, 3) < 0 ||
	    some_numbers(r, n, cls, "solref", g.solref, 2, 2) < 0 ||
	    some_numbers(r, n, cls, "solimp", g.solimp, 3, 5) < 0)
		return -1;
	if (check_size(r, n, &g) < 0)
		return -1;
	g.collides = ct != 0 || ca != 0;
	g.contype = (int)ct & 0xffff;
	g.conaffinity = (int)ca & 0xffff;
	if ((ct < 0 || ct > 0xffff || ca < 0 || ca > 0xffff) && !r->o->quiet)
		phys_warnat_once(r->d->name, g.line, "%s", "contype and "
		    "conaffinity above 16 bits: only their low 16 bits are "
		    "kept (SDF's bitmasks)");
	if (!g.collides && r->discardvisual)
		return 0;
	g.group = (int)gr;
	g.condim = (int)cd;
	if (cd != 1 && cd != 3 && cd != 4 && cd != 6)
		return mj_fail(r, n, "condim=\"%g\": 1, 3, 4 or 6", cd);
	if (g.solref[0] <= 0 && !r->o->quiet)
		phys_warnat_once(r->d->name, g.line, "%s", "solref of direct "
		    "stiffness and damping (negative): not kept; the contact "
		    "takes MuJoCo's default, 0.02 1");
	g.inertia = needs_inertia && body >= 0 && g.group >= r->igroup[0] &&
	    g.group <= r->igroup[1];
	if (geom_mass(r, n, cls, &g) < 0)
		return -1;
	if (own_attr(n, "name"))
		g.name = phys_xstrdup(own_attr(n, "name"));
	g.body = body;
	r->geoms = phys_xrealloc(r->geoms, (r->ngeoms + 1) * sizeof *r->geoms);
	r->geoms[r->ngeoms++] = g;
	return 0;
}

static int
joint_limits(struct reader *r, xmlNodePtr n, int cls, struct mj_joint *j)
{
	static const char *const lim[] = { "false", "true", "auto", NULL };
	int k, has;

	if ((has = numbers(r, n, cls, "range", j->range, 2)) < 0 ||
	    (k = keyword(r, n, cls, "limited", lim, 2)) < 0)
		return -1;
	if (k == 2 && has && !r->autolimits)
		return mj_fail(r, n, "%s", "joint has range but not limited: "
		    "MuJoCo refuses it without autolimits=\"true\"");
	j->limited = k == 1 || (k == 2 && has);
	if (j->limited && j->type != MJ_BALL && j->range[0] >= j->range[1])
		return mj_fail(r, n, "%s", "range[0] should be smaller than "
		    "range[1]");
	if (j->type == MJ_FREE && j->limited)
		return mj_fail(r, n, "%s", "a free joint takes no limits");
	if (j->limited && (j->type == MJ_HINGE || j->type == MJ_BALL)) {
		j->range[0] = angle(r, j->range[0]);
		j->range[1] = angle(r, j->range[1]);
	}
	return 0;
}

static int
read_joint(struct reader *r, xmlNodePtr n, int cls, bool free)
{
	static const char *const types[] = { "free", "ball", "slide", "hinge",
		NULL };
	struct mj_joint j;
	double ax[3] = { 0, 0, 1 };
	int k;

	memset(&j, 0, sizeof j);
	j.line = phys_node_line(n);
	if (free) {
		j.type = MJ_FREE;
		cls = -1;	/* <freejoint> takes no class */
	} else if ((k = keyword(r, n, cls, "type", types, MJ_HINGE)) < 0) {
		return -1;
	} else {
		j.type = k;
	}
	if (!free && (position(r, n, cls, &j.pos) < 0 ||
	    numbers(r, n, cls, "axis", ax, 3) < 0 ||
	    joint_limits(r, n, cls, &j) < 0 ||
	    number(r, n, cls, "ref", &j.ref) < 0 ||
	    number(r, n, cls, "springref", &j.springref) < 0 ||
	    number(r, n, cls, "damping", &j.damping) < 0 ||
	    number(r, n, cls, "stiffness", &j.stiffness) < 0 ||
	    number(r, n, cls, "armature", &j.armature) < 0 ||
	    number(r, n, cls, "frictionloss", &j.frictionloss) < 0))
		return -1;
	if (j.type == MJ_FREE || j.type == MJ_BALL) {
		ax[0] = ax[1] = 0;
		ax[2] = 1;
	}
	if (j.type == MJ_FREE)
		j.pos = v3(0, 0, 0);
	if (v3_norm(v3(ax[0], ax[1], ax[2])) < 1e-14)
		return mj_fail(r, n, "%s", "joint axis too small");
	j.axis = v3_normalize(v3(ax[0], ax[1], ax[2]));
	if (j.type == MJ_HINGE) {
		j.ref = angle(r, j.ref);
		j.springref = angle(r, j.springref);
	}
	if (own_attr(n, "name"))
		j.name = phys_xstrdup(own_attr(n, "name"));
	r->joints = phys_xrealloc(r->joints, (r->njoints + 1) *
	    sizeof *r->joints);
	r->joints[r->njoints++] = j;
	return 0;
}

static int
read_site(struct reader *r, xmlNodePtr n, int cls, int body)
{
	struct mj_site s;
	const char *name = own_attr(n, "name");

	if (!name)
		return 0;	/* an unnamed site is no frame one can name */
	memset(&s, 0, sizeof s);
	s.pose = PHYS_POSE_IDENTITY;
	if (position(r, n, cls, &s.pose.p) < 0 ||
	    orientation(r, n, cls, &s.pose.q) < 0)
		return -1;
	s.name = phys_xstrdup(name);
	s.body = body;
	s.line = phys_node_line(n);
	r->sites = phys_xrealloc(r->sites, (r->nsites + 1) * sizeof *r->sites);
	r->sites[r->nsites++] = s;
	return 0;
}

/* ---- bodies ---- */

static int
explicit_inertial(struct reader *r, xmlNodePtr n, struct mj_body *b)
{
	double full[6];
	int k;

	b->in.iquat = PHYS_QUAT_IDENTITY;
	if (position(r, n, -1, &b->in.ipos) < 0 ||
	    orientation(r, n, -1, &b->in.iquat) < 0)
		return -1;
	if (number(r, n, -1, "mass", &b->in.mass) < 1)
		return mj_fail(r, n, "%s", "<inertial> needs a mass");
	if ((k = numbers(r, n, -1, "fullinertia", full, 6)) < 0)
		return -1;
	if (k)
		return phys_mjcf_full_inertia(full, b->in.diag,
		    &b->in.iquat) < 0 ? mj_fail(r, n, "fullinertia: %s",
		    phys_error()) : 0;
	if (numbers(r, n, -1, "diaginertia", b->in.diag, 3) < 1)
		return mj_fail(r, n, "%s", "<inertial> needs diaginertia or "
		    "fullinertia");
	return 0;
}

/* The body's inertial from its geoms, as MuJoCo's compiler makes it. */
static int
geom_inertial(struct reader *r, xmlNodePtr n, struct mj_body *b)
{
	size_t i, k = 0, ng = b->ngeoms;
	double *m = phys_xcalloc(ng + 1, sizeof *m);
	double (*d)[3] = phys_xcalloc(ng + 1, sizeof *d);
	phys_vec3 *p = phys_xcalloc(ng + 1, sizeof *p);
	phys_quat *q = phys_xcalloc(ng + 1, sizeof *q);
	int rc = 0;

	for (i = b->geom0; i < b->geom0 + ng; i++) {
		if (!r->geoms[i].inertia)
			continue;
		m[k] = r->geoms[i].mass;
		memcpy(d[k], r->geoms[i].diag, sizeof d[k]);
		p[k] = r->geoms[i].ipose.p;
		q[k++] = r->geoms[i].ipose.q;
	}
	if (k && phys_mjcf_geoms_inertial(k, m, d, p, q, &b->in) < 0)
		rc = mj_fail(r, n, "body '%s': %s", b->name, phys_error());
	else
		rc = (int)k;
	free(m);
	free(d);
	free(p);
	free(q);
	return rc;
}

static int
bound_inertial(struct reader *r, xmlNodePtr n, struct mj_body *b)
{
	double *d = b->in.diag;
	int i;

	b->in.mass = fmax(b->in.mass, r->boundmass);
	for (i = 0; i < 3; i++)
		d[i] = fmax(d[i], r->boundinertia);
	if (b->in.mass < 0 || d[0] < 0 || d[1] < 0 || d[2] < 0)
		return mj_fail(r, n, "body '%s': mass and inertia cannot be "
		    "negative", b->name);
	if (d[0] + d[1] < d[2] || d[0] + d[2] < d[1] || d[1] + d[2] < d[0]) {
		if (!r->balanceinertia)
			return mj_fail(r, n, "body '%s': inertia must satisfy "
			    "A + B >= C (balanceinertia=\"true\" fixes it)",
			    b->name);
		d[0] = d[1] = d[2] = (d[0] + d[1] + d[2]) / 3;
	}
	return 0;
}

static bool
has_free(const struct reader *r, const struct mj_body *b)
{
	size_t k;

	for (k = 0; k < b->njoints; k++)
		if (r->joints[b->joint0 + k].type == MJ_FREE)
			return true;
	return false;
}

static const char *const unread[] = { "camera", "light", NULL };

static int read_body(struct reader *r, xmlNodePtr n, int parent,
    phys_pose at, int childclass, int depth);

/* A body's children: geoms first (its inertia needs them), then the rest. */
static int
body_children(struct reader *r, xmlNodePtr n, int me, int childclass,
    int depth, bool needs_inertia)
{
	xmlNodePtr c;
	int cls, i;

	for (c = phys_child(n, "geom"); c; c = phys_next(c, "geom"))
		if (class_of(r, c, childclass, &cls) < 0 ||
		    read_geom(r, c, cls, me, needs_inertia) < 0)
			return -1;
	if (me >= 0)
		r->bodies[me].ngeoms = r->ngeoms - r->bodies[me].geom0;
	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL)) {
		if (class_of(r, c, childclass, &cls) < 0)
			return -1;
		if (phys_node_is(c, "joint") || phys_node_is(c, "freejoint")) {
			if (me < 0)
				return mj_fail(r, c, "%s", "the world body "
				    "takes no joint");
			if (read_joint(r, c, cls, phys_node_is(c,
			    "freejoint")) < 0)
				return -1;
			r->bodies[me].njoints++;
		} else if (phys_node_is(c, "site")) {
			if (read_site(r, c, cls, me) < 0)
				return -1;
		} else if (phys_node_is(c, "body")) {
			continue;
		} else {
			for (i = 0; unread[i]; i++)
				if (phys_node_is(c, unread[i]))
					mj_note(r, c, "not read (phys "
					    "simulates no cameras or lights)");
			if (phys_node_is(c, "composite") ||
			    phys_node_is(c, "flexcomp") ||
			    phys_node_is(c, "replicate") ||
			    phys_node_is(c, "plugin"))
				return mj_fail(r, c, "<%s> is not read: phys "
				    "cannot represent it", (const char *)
				    c->name);
		}
	}
	for (c = phys_child(n, "body"); c; c = phys_next(c, "body"))
		if (read_body(r, c, me, me < 0 ? PHYS_POSE_IDENTITY :
		    r->bodies[me].world, childclass, depth + 1) < 0)
			return -1;
	return 0;
}

static int
read_body(struct reader *r, xmlNodePtr n, int parent, phys_pose at,
    int childclass, int depth)
{
	struct mj_body *b;
	xmlNodePtr in = phys_child(n, "inertial");
	const char *name = own_attr(n, "name"), *cc = own_attr(n, "childclass");
	phys_pose local = PHYS_POSE_IDENTITY;
	size_t me;
	bool from_geoms;
	int k = 0;

	if (depth > MJ_MAX_BODIES)
		return mj_fail(r, n, "%s", "bodies nested too deeply");
	if (cc && (childclass = class_find(r, cc)) < 0)
		return mj_fail(r, n, "unknown childclass '%s'", cc);
	if (position(r, n, -1, &local.p) < 0 ||
	    orientation(r, n, -1, &local.q) < 0)
		return -1;
	r->bodies = phys_xrealloc(r->bodies, (r->nbodies + 1) *
	    sizeof *r->bodies);
	me = r->nbodies++;
	b = &r->bodies[me];
	memset(b, 0, sizeof *b);
	b->name = name ? phys_xstrdup(name) : phys_xasprintf("body%zu",
	    me + 1);
	b->parent = parent;
	b->line = phys_node_line(n);
	b->world = phys_pose_mul(at, local);
	b->geom0 = r->ngeoms;
	b->joint0 = r->njoints;
	b->in.iquat = PHYS_QUAT_IDENTITY;
	from_geoms = r->inertiafromgeom == 1 || (!in &&
	    r->inertiafromgeom == 2);
	if (in && explicit_inertial(r, in, b) < 0)
		return -1;
	if (body_children(r, n, (int)me, childclass, depth, from_geoms) < 0)
		return -1;
	b = &r->bodies[me];
	if (from_geoms && (k = geom_inertial(r, n, b)) < 0)
		return -1;
	if (!in && !k) {
		/* MuJoCo copies the body's frame in its parent into the
		 * inertial frame (of no mass) */
		b->in.ipos = local.p;
		b->in.iquat = local.q;
	}
	if (b->njoints > 1 && has_free(r, b))
		return mj_fail(r, n, "body '%s': a free joint must be its body's "
		    "only joint", b->name);
	return bound_inertial(r, n, b);
}

/* ---- the SDF model ---- */

static void
set_line(xmlNodePtr n, long line)
{
	n->line = line < USHRT_MAX ? (unsigned short)line : USHRT_MAX;
	if (line >= USHRT_MAX)
		n->psvi = (void *)(intptr_t)line;
}

static xmlNodePtr
add(xmlNodePtr parent, const char *name, const char *text, long line)
{
	xmlNodePtr n = xmlNewTextChild(parent, NULL, (const xmlChar *)name,
	    (const xmlChar *)text);

	set_line(n, line);
	return n;
}

static xmlNodePtr
add_nums(xmlNodePtr parent, const char *name, const double *v, int n,
    long line)
{
	char buf[6 * 32], *p = buf;
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ' ';
		if (v[i] == 0)
			*p++ = '0';
		else
			p += phys_fmt_double(p, 32, v[i]);
	}
	*p = '\0';
	return add(parent, name, buf, line);
}

static void
add_num(xmlNodePtr parent, const char *name, double v, long line)
{
	add_nums(parent, name, &v, 1, line);
}

static void
add_pose(xmlNodePtr parent, phys_pose p, long line)
{
	double v[6];

	if (p.p.x == 0 && p.p.y == 0 && p.p.z == 0 && p.q.w == 1 &&
	    p.q.x == 0 && p.q.y == 0 && p.q.z == 0)
		return;
	phys_pose_to6(p, v);
	add_nums(parent, "pose", v, 6, line);
}

static void
set_name(xmlNodePtr n, const char *name)
{
	xmlSetProp(n, (const xmlChar *)"name", (const xmlChar *)name);
}

static void
write_geometry(struct reader *r, xmlNodePtr parent, const struct mj_geom *g)
{
	xmlNodePtr geo = add(parent, "geometry", NULL, g->line), s;
	const double *z = g->size;
	double v[3];

	switch (g->type) {
	case PHYS_MJ_PLANE:
		s = add(geo, "plane", NULL, g->line);
		add(s, "normal", "0 0 1", g->line);
		v[0] = z[0] > 0 ? 2 * z[0] : 1e3;	/* 0: infinite */
		v[1] = z[1] > 0 ? 2 * z[1] : 1e3;
		add_nums(s, "size", v, 2, g->line);
		break;
	case PHYS_MJ_SPHERE:
		s = add(geo, "sphere", NULL, g->line);
		add_num(s, "radius", z[0], g->line);
		break;
	case PHYS_MJ_CAPSULE:
	case PHYS_MJ_CYLINDER:
		s = add(geo, g->type == PHYS_MJ_CAPSULE ? "capsule" :
		    "cylinder", NULL, g->line);
		add_num(s, "radius", z[0], g->line);
		add_num(s, "length", 2 * z[1], g->line);
		break;
	case PHYS_MJ_ELLIPSOID:
		s = add(geo, "ellipsoid", NULL, g->line);
		add_nums(s, "radii", z, 3, g->line);
		break;
	case PHYS_MJ_BOX:
		s = add(geo, "box", NULL, g->line);
		v[0] = 2 * z[0];
		v[1] = 2 * z[1];
		v[2] = 2 * z[2];
		add_nums(s, "size", v, 3, g->line);
		break;
	default:
		s = add(geo, "mesh", NULL, g->line);
		add(s, "uri", r->meshes[g->mesh].uri, g->line);
		add_nums(s, "scale", r->meshes[g->mesh].scale, 3, g->line);
	}
}

/*
 * MuJoCo's contact dimension through phys's surface: sliding friction
 * (none for condim 1), torsional friction as a coefficient over a patch
 * of 1 m (condim 4 and 6; phys's default patch of none gives no spin
 * otherwise), rolling friction (condim 6); solref and
 * solimp as MuJoCo's engine takes them.
 */
struct mj_contact {
	int condim;
	double mu, mu2, torsional, rolling;
	const double *solref, *solimp;
	const int *bits;	/* contype, conaffinity; NULL: none */
	long line;
};

static void
write_surface_of(xmlNodePtr c, const struct mj_contact *k)
{
	static const char *const imp[] = { "dmin", "dmax", "width",
		"midpoint", "power" };
	xmlNodePtr s = add(c, "surface", NULL, k->line), f, e, m;
	char bits[16];
	int i;

	xmlSetNs(s, NULL);	/* SDF's, in a <phys:pair> too */
	f = add(s, "friction", NULL, k->line);
	e = add(f, "ode", NULL, k->line);
	add_num(e, "mu", k->condim == 1 ? 0 : k->mu, k->line);
	add_num(e, "mu2", k->condim == 1 ? 0 : k->mu2, k->line);
	if (k->condim >= 4) {	/* else none: no patch, no spin */
		e = add(f, "torsional", NULL, k->line);
		add_num(e, "coefficient", k->torsional, k->line);
		add(e, "use_patch_radius", "true", k->line);
		add(e, "patch_radius", "1", k->line);
	}
	if (k->condim == 6)
		add_num(add(f, "mujoco", NULL, k->line), "rolling",
		    k->rolling, k->line);
	m = add(s, "contact", NULL, k->line);
	if (k->bits) {
		/* MuJoCo's rule is SDF's: contype as category, conaffinity
		 * as the mask of what it collides with */
		snprintf(bits, sizeof bits, "%d", k->bits[1]);
		add(m, "collide_bitmask", bits, k->line);
		snprintf(bits, sizeof bits, "%d", k->bits[0]);
		add(m, "category_bitmask", bits, k->line);
	}
	m = add(m, "mujoco", NULL, k->line);
	e = add(m, "solref", NULL, k->line);
	add_num(e, "timeconst", k->solref[0] > 0 ? k->solref[0] : 0.02,
	    k->line);
	add_num(e, "dampratio", k->solref[0] > 0 ? k->solref[1] : 1, k->line);
	e = add(m, "solimp", NULL, k->line);
	for (i = 0; i < 5; i++)
		add_num(e, imp[i], k->solimp[i], k->line);
}

static void
write_surface(xmlNodePtr c, const struct mj_geom *g)
{
	const int bits[2] = { g->contype, g->conaffinity };
	struct mj_contact k = { g->condim, g->friction[0], g->friction[0],
		g->friction[1], g->friction[2], g->solref, g->solimp, bits,
		g->line };

	write_surface_of(c, &k);
}

static int weld_of(const struct reader *r, int i);

/* Whether body i is fused into the body it is welded to (fusestatic). */
static bool
fused(const struct reader *r, int i)
{
	return r->fuse && i >= 0 && r->bodies[i].njoints == 0;
}

/* The body whose link holds body i's geoms, sites and children's
 * joints: itself, or the one a fused body is part of (-1: the world). */
static int
holder_of(const struct reader *r, int i)
{
	return fused(r, i) ? weld_of(r, i) : i;
}

/* Body i's frame in its holder's (in the world's for the world). */
static phys_pose
frame_in_holder(const struct reader *r, int i)
{
	int h = holder_of(r, i);

	if (h == i)
		return PHYS_POSE_IDENTITY;
	if (h < 0)
		return r->bodies[i].world;
	return phys_pose_mul(phys_pose_inv(r->bodies[h].world),
	    r->bodies[i].world);
}

/* The link body i (-1: the world) is part of, as joints name it. */
static const char *
holder_link(const struct reader *r, int i)
{
	int h = i < 0 ? -1 : holder_of(r, i);

	return h < 0 ? "world" : r->bodies[h].name;
}

/*
 * Whether geom i, of body (-1: the world body), is ground: a plane or a
 * height field that nothing moves. MuJoCo's static bodies (welded to the
 * world) hold them as the world body does; phys holds such shapes only
 * in a static model, so they go in the world body's (write_world_geoms),
 * in the world's frame.
 */
static bool
ground(const struct reader *r, int body, size_t i)
{
	enum phys_mjcf_geom_type t = r->geoms[i].type;

	return ((t == PHYS_MJ_PLANE || t == PHYS_MJ_HFIELD) &&
	    (body < 0 || weld_of(r, body) < 0)) ||
	    (body >= 0 && holder_of(r, body) < 0);
}

/* Geoms g0..g0+n of body (-1: the world body) into link: the ground, in
 * the world's frame, when ground_only, else the others. */
static void
write_geoms(struct reader *r, xmlNodePtr link, int body, size_t g0,
    size_t n, bool ground_only, phys_pose frame)
{
	const struct mj_geom *g;
	xmlNodePtr c;
	size_t i;
	char *name;

	for (i = g0; i < g0 + n; i++) {
		g = &r->geoms[i];
		if ((!g->collides && !g->paired && !r->o->visuals) ||
		    (body >= 0 && ground(r, body, i) != ground_only))
			continue;
		name = g->name ? phys_xstrdup(g->name) :
		    phys_xasprintf("geom%zu", i);
		c = add(link, g->collides || g->paired ? "collision" : "visual",
		    NULL, g->line);
		set_name(c, name);
		free(name);
		add_pose(c, phys_pose_mul(frame, g->pose), g->line);
		write_geometry(r, c, g);
		if (!g->collides && !g->paired)
			continue;
		r->geoms[i].node = c;
		write_surface(c, g);
	}
}

static void
write_inertial(xmlNodePtr link, const struct mj_body *b)
{
	xmlNodePtr in = add(link, "inertial", NULL, b->line), t;
	phys_pose p = { b->in.ipos, b->in.iquat };

	add_pose(in, p, b->line);
	add_num(in, "mass", b->in.mass, b->line);
	t = add(in, "inertia", NULL, b->line);
	add_num(t, "ixx", b->in.diag[0], b->line);
	add_num(t, "iyy", b->in.diag[1], b->line);
	add_num(t, "izz", b->in.diag[2], b->line);
}

static void
write_axis(xmlNodePtr jn, const struct mj_joint *j)
{
	xmlNodePtr ax = add(jn, "axis", NULL, j->line), e;
	double v[3] = { j->axis.x, j->axis.y, j->axis.z };

	add_nums(ax, "xyz", v, 3, j->line);
	if (j->limited) {
		/* phys measures a joint from where it is built: MuJoCo's
		 * qpos less ref */
		e = add(ax, "limit", NULL, j->line);
		add_num(e, "lower", j->range[0] - j->ref, j->line);
		add_num(e, "upper", j->range[1] - j->ref, j->line);
	}
	e = add(ax, "dynamics", NULL, j->line);
	add_num(e, "damping", j->damping, j->line);
	add_num(e, "friction", j->frictionloss, j->line);
	add_num(e, "spring_reference", j->springref - j->ref, j->line);
	add_num(e, "spring_stiffness", j->stiffness, j->line);
}

/* The name of joint k of body b, which an unnamed joint takes from it. */
static char *
joint_name(const struct reader *r, const struct mj_body *b, size_t k)
{
	const struct mj_joint *j = &r->joints[b->joint0 + k];

	if (j->name)
		return phys_xstrdup(j->name);
	return b->njoints > 1 ? phys_xasprintf("%s_joint%zu", b->name, k) :
	    phys_xasprintf("%s_joint", b->name);
}

/*
 * The link that joint k of a body of several joints moves: the body's
 * own for the last joint, else one of no mass at the body's pose, named
 * BODY_JOINT, which the next joint moves on.
 */
static char *
chain_link(const struct reader *r, const struct mj_body *b, size_t k)
{
	char *j, *name;

	if (k + 1 >= b->njoints)
		return phys_xstrdup(b->name);
	j = joint_name(r, b, k);
	name = phys_xasprintf("%s_%s", b->name, j);
	free(j);
	return name;
}

static void
write_chain_links(struct reader *r, xmlNodePtr model, const struct mj_body *b)
{
	double m = CHAIN_SHARE * (b->in.mass > 0 ? b->in.mass : 1);
	xmlNodePtr link, in, t;
	size_t k;
	char *name;

	for (k = 0; k + 1 < b->njoints; k++) {
		name = chain_link(r, b, k);
		link = add(model, "link", NULL, r->joints[b->joint0 + k].line);
		set_name(link, name);
		free(name);
		add_pose(link, b->world, b->line);
		in = add(link, "inertial", NULL, b->line);
		add_num(in, "mass", m, b->line);
		t = add(in, "inertia", NULL, b->line);
		add_num(t, "ixx", m * CHAIN_GYRATION * CHAIN_GYRATION, b->line);
		add_num(t, "iyy", m * CHAIN_GYRATION * CHAIN_GYRATION, b->line);
		add_num(t, "izz", m * CHAIN_GYRATION * CHAIN_GYRATION, b->line);
	}
	if (b->njoints > 1 && !r->o->quiet)
		phys_warnat_once(r->d->name, b->line, "body '%s' has %zu "
		    "joints: each but the last moves a link of its own at the "
		    "body, of %g of the body's mass (MuJoCo's have none; SDF "
		    "needs a link between two joints)", b->name, b->njoints,
		    CHAIN_SHARE);
}

static void
write_one_joint(struct reader *r, xmlNodePtr model, const struct mj_body *b,
    size_t k)
{
	static const char *const sdf[] = { NULL, "ball", "prismatic",
		"revolute" };
	const struct mj_joint *j = &r->joints[b->joint0 + k];
	xmlNodePtr jn = add(model, "joint", NULL, j->line);
	char *name = joint_name(r, b, k), *parent, *child;
	phys_pose at = PHYS_POSE_IDENTITY;

	parent = k ? chain_link(r, b, k - 1) :
	    phys_xstrdup(holder_link(r, b->parent));
	child = chain_link(r, b, k);
	set_name(jn, name);
	xmlSetProp(jn, (const xmlChar *)"type", (const xmlChar *)sdf[j->type]);
	add(jn, "parent", parent, j->line);
	add(jn, "child", child, j->line);
	free(parent);
	free(child);
	at.p = j->pos;
	add_pose(jn, at, j->line);
	if (j->type != MJ_BALL)
		write_axis(jn, j);
	else if ((j->limited || j->damping != 0 || j->stiffness != 0 ||
	    j->armature != 0 || j->frictionloss != 0) && !r->o->quiet)
		phys_warnat(r->d->name, j->line, "ball joint '%s': its range, "
		    "damping, stiffness, armature and frictionloss are not "
		    "kept (phys's ball joints have none)", name);
	free(name);
	if (j->armature != 0 && j->type != MJ_BALL)
		add_num(add(add(jn, "physics", NULL, j->line), "mujoco", NULL,
		    j->line), "armature", j->armature, j->line);
}

static void
write_joints(struct reader *r, xmlNodePtr model, const struct mj_body *b)
{
	xmlNodePtr jn;
	char *name;
	size_t k;

	if (b->njoints == 1 && r->joints[b->joint0].type == MJ_FREE)
		return;		/* an SDF link without a joint moves free */
	if (fused(r, (int)(b - r->bodies)))
		return;		/* part of the body it is welded to */
	for (k = 0; k < b->njoints; k++)
		write_one_joint(r, model, b, k);
	if (b->njoints)
		return;
	name = phys_xasprintf("%s_weld", b->name);
	jn = add(model, "joint", NULL, b->line);
	set_name(jn, name);
	free(name);
	xmlSetProp(jn, (const xmlChar *)"type", (const xmlChar *)"fixed");
	add(jn, "parent", holder_link(r, b->parent), b->line);
	add(jn, "child", b->name, b->line);
}

static void
write_sites(struct reader *r, xmlNodePtr model, int body, const char *of,
    phys_pose frame)
{
	const struct mj_site *s;
	xmlNodePtr f;
	size_t i;

	for (i = 0; i < r->nsites; i++) {
		s = &r->sites[i];
		if (s->body != body)
			continue;
		f = add(model, "frame", NULL, s->line);
		set_name(f, s->name);
		xmlSetProp(f, (const xmlChar *)"attached_to",
		    (const xmlChar *)of);
		add_pose(f, phys_pose_mul(frame, s->pose), s->line);
	}
}

/* settotalmass: every body's mass and inertia scaled alike. */
static void
scale_mass(struct reader *r)
{
	double total = 0, k;
	size_t i;

	if (!(r->settotalmass > 0))
		return;
	for (i = 0; i < r->nbodies; i++)
		total += r->bodies[i].in.mass;
	if (!(total > 0))
		return;
	k = r->settotalmass / total;
	for (i = 0; i < r->nbodies; i++) {
		r->bodies[i].in.mass *= k;
		r->bodies[i].in.diag[0] *= k;
		r->bodies[i].in.diag[1] *= k;
		r->bodies[i].in.diag[2] *= k;
	}
}

/*
 * fusestatic: each fused body's mass and inertia added to the body it is
 * part of (the world takes its own), in that body's frame, as MuJoCo
 * sums them: about their common centre, diagonalized again.
 */
static int
fuse_inertials(struct reader *r)
{
	struct phys_mjcf_inertial *h, sum;
	double m[2], d[2][3];
	phys_vec3 p[2];
	phys_quat q[2];
	phys_pose at;
	size_t i;
	int k;

	for (i = 0; i < r->nbodies; i++) {
		const struct phys_mjcf_inertial *f = &r->bodies[i].in;

		if (!fused(r, (int)i) || holder_of(r, (int)i) < 0 ||
		    !(f->mass > 0))
			continue;
		h = &r->bodies[holder_of(r, (int)i)].in;
		at = frame_in_holder(r, (int)i);
		m[0] = h->mass, m[1] = f->mass;
		p[0] = h->ipos, p[1] = phys_pose_apply(at, f->ipos);
		q[0] = h->iquat, q[1] = phys_quat_mul(at.q, f->iquat);
		for (k = 0; k < 3; k++)
			d[0][k] = h->diag[k], d[1][k] = f->diag[k];
		if (!(h->mass > 0)) {
			h->mass = f->mass, h->ipos = p[1], h->iquat = q[1];
			memcpy(h->diag, f->diag, sizeof h->diag);
			continue;
		}
		if (phys_mjcf_geoms_inertial(2, m, (const double (*)[3])d, p, q,
		    &sum) < 0)
			return mj_fail(r, r->d->root, "body '%s': %s",
			    r->bodies[i].name, phys_error());
		*h = sum;
	}
	return 0;
}

static void
write_world_geoms(struct reader *r, xmlNodePtr model, long line)
{
	size_t n = r->nbodies ? r->bodies[0].geom0 : r->ngeoms, i, k;
	xmlNodePtr m, link;
	bool any = n > 0;

	for (i = 0; i < r->nbodies && !any; i++)
		for (k = 0; k < r->bodies[i].ngeoms && !any; k++)
			any = ground(r, (int)i, r->bodies[i].geom0 + k);
	if (!any && !r->nsites)
		return;
	/* the world body's geoms: ground, which nothing moves */
	m = add(model, "model", NULL, line);
	set_name(m, "worldbody");
	add(m, "static", "true", line);
	link = add(m, "link", NULL, line);
	set_name(link, "worldbody");
	write_geoms(r, link, -1, 0, n, true, PHYS_POSE_IDENTITY);
	for (i = 0; i < r->nbodies; i++)
		write_geoms(r, link, (int)i, r->bodies[i].geom0,
		    r->bodies[i].ngeoms, true, r->bodies[i].world);
	write_sites(r, m, -1, "worldbody", PHYS_POSE_IDENTITY);
	for (i = 0; i < r->nbodies; i++)
		if (fused(r, (int)i) && holder_of(r, (int)i) < 0)
			write_sites(r, m, (int)i, "worldbody",
			    r->bodies[i].world);
}

/*
 * The world a model file of MJCF runs in: MuJoCo's gravity, and two
 * profiles: the default one, ODE's at MuJoCo's timestep, and "mujoco",
 * MuJoCo's engine with the <option> values as they are.
 */
static void
write_world(struct reader *r, xmlNodePtr sdf, long line)
{
	xmlNodePtr w, p, m;

	if (r->option_line)
		line = r->option_line;
	w = add(sdf, "world", NULL, line);
	set_name(w, "default");
	add_nums(w, "gravity", r->gravity, 3, line);
	p = add(w, "physics", NULL, line);
	set_name(p, "default_physics");
	xmlSetProp(p, (const xmlChar *)"type", (const xmlChar *)"ode");
	xmlSetProp(p, (const xmlChar *)"default", (const xmlChar *)"true");
	add_num(p, "max_step_size", r->timestep, line);
	p = add(w, "physics", NULL, line);
	set_name(p, "mujoco");
	xmlSetProp(p, (const xmlChar *)"type", (const xmlChar *)"mujoco");
	add_num(p, "max_step_size", r->timestep, line);
	m = add(p, "mujoco", NULL, line);
	add(m, "integrator", integrators[r->integrator], line);
	add(m, "solver", solvers[r->solver], line);
	add_num(m, "iterations", r->iterations, line);
	add_num(m, "tolerance", r->tolerance, line);
	add(m, "cone", cones[r->cone], line);
	add_num(m, "impratio", r->impratio, line);
}

static int joint_find(const struct reader *r, const char *name);
static void write_actuators(struct reader *r, xmlNodePtr model);
static void write_pairs(struct reader *r, xmlNodePtr sdf);
static void write_key_controls(struct reader *r, xmlNodePtr sdf);
static xmlNsPtr phys_ns(xmlNodePtr sdf);
static void write_keys(struct reader *r, xmlNodePtr sdf, xmlNodePtr model);
static void write_excludes(struct reader *r, xmlNodePtr sdf,
    xmlNodePtr model);

/* A connect is a ball joint at its anchor, a weld a fixed joint: loops
 * that phys closes as constraints. */
static void
write_loop(struct reader *r, xmlNodePtr model, xmlNodePtr n, size_t i)
{
	const char *b1 = own_attr(n, "body1"), *b2 = own_attr(n, "body2");
	const char *name = own_attr(n, "name");
	bool ball = phys_node_is(n, "connect");
	phys_pose at = PHYS_POSE_IDENTITY;
	double a[3] = { 0, 0, 0 };
	xmlNodePtr jn = add(model, "joint", NULL, phys_node_line(n));
	char *nm = name ? phys_xstrdup(name) : phys_xasprintf("equality%zu",
	    i);

	set_name(jn, nm);
	free(nm);
	xmlSetProp(jn, (const xmlChar *)"type", (const xmlChar *)(ball ?
	    "ball" : "fixed"));
	add(jn, "parent", b2 ? b2 : "world", phys_node_line(n));
	add(jn, "child", b1, phys_node_line(n));
	if (ball && numbers(r, n, -1, "anchor", a, 3) == 3) {
		at.p = v3(a[0], a[1], a[2]);
		add_pose(jn, at, phys_node_line(n));
	}
}

/* joint1 = c0 + c1 joint2, in MuJoCo's positions: a mimic of joint2,
 * offset by what the refs make of c0. */
static void
write_coupling(struct reader *r, xmlNodePtr model, xmlNodePtr n)
{
	const struct mj_joint *j1 = &r->joints[joint_find(r,
	    own_attr(n, "joint1"))];
	const struct mj_joint *j2 = &r->joints[joint_find(r,
	    own_attr(n, "joint2"))];
	double poly[5] = { 0, 1, 0, 0, 0 }, off;
	xmlNodePtr jn, ax, m;
	char *name;

	(void)some_numbers(r, n, -1, "polycoef", poly, 1, 5);
	off = poly[0] + poly[1] * j2->ref - j1->ref;
	for (jn = phys_child(model, "joint"); jn; jn = phys_next(jn, "joint")) {
		name = phys_node_attr(jn, "name");
		if (name && strcmp(name, j1->name) == 0)
			break;
		free(name);
	}
	if (!jn || !(ax = phys_child(jn, "axis")))
		return;
	free(name);
	m = add(ax, "mimic", NULL, phys_node_line(n));
	xmlSetProp(m, (const xmlChar *)"joint", (const xmlChar *)j2->name);
	xmlSetProp(m, (const xmlChar *)"axis", (const xmlChar *)"axis");
	add_num(m, "multiplier", poly[1], phys_node_line(n));
	add_num(m, "offset", off, phys_node_line(n));
}

static int
write_model(struct reader *r, long line)
{
	xmlNodePtr sdf, model, link, *links;
	const struct mj_body *b;
	size_t i;

	r->out = xmlNewDoc((const xmlChar *)"1.0");
	sdf = xmlNewDocNode(r->out, NULL, (const xmlChar *)"sdf", NULL);
	set_line(sdf, line);
	xmlDocSetRootElement(r->out, sdf);
	xmlSetProp(sdf, (const xmlChar *)"version", (const xmlChar *)"1.9");
	write_world(r, sdf, line);
	model = add(sdf, "model", NULL, line);
	set_name(model, r->model);
	/* MuJoCo's bodies touch each other, as their geoms' bits allow */
	add(model, "self_collide", "true", line);
	scale_mass(r);
	if (r->fuse && fuse_inertials(r) < 0)
		return -1;
	links = phys_xcalloc(r->nbodies + 1, sizeof *links);
	for (i = 0; i < r->nbodies; i++) {
		b = &r->bodies[i];
		if (fused(r, (int)i))
			continue;
		link = links[i] = add(model, "link", NULL, b->line);
		set_name(link, b->name);
		add_pose(link, b->world, b->line);
		write_inertial(link, b);
		write_geoms(r, link, (int)i, b->geom0, b->ngeoms, false,
		    PHYS_POSE_IDENTITY);
		write_chain_links(r, model, b);
	}
	/* a fused body's geoms in the link of the body it is part of */
	for (i = 0; i < r->nbodies; i++)
		if (fused(r, (int)i) && holder_of(r, (int)i) >= 0)
			write_geoms(r, links[holder_of(r, (int)i)], (int)i,
			    r->bodies[i].geom0, r->bodies[i].ngeoms, false,
			    frame_in_holder(r, (int)i));
	free(links);
	for (i = 0; i < r->nbodies; i++) {
		write_joints(r, model, &r->bodies[i]);
		if (holder_of(r, (int)i) >= 0)
			write_sites(r, model, (int)i, holder_link(r, (int)i),
			    frame_in_holder(r, (int)i));
	}
	for (i = 0; i < r->nequality; i++)
		if (phys_node_is(r->equality[i], "joint"))
			write_coupling(r, model, r->equality[i]);
		else
			write_loop(r, model, r->equality[i], i);
	write_actuators(r, model);
	write_key_controls(r, sdf);
	write_keys(r, sdf, model);
	write_excludes(r, sdf, model);
	write_world_geoms(r, model, line);
	write_pairs(r, sdf);
	if (r->mimic)
		xmlSetProp(sdf, (const xmlChar *)"version",
		    (const xmlChar *)"1.11");
	return 0;
}

/* ---- the conversion ---- */

/* What phys does not read yet, and what the model loses without it. */
static const struct {
	const char *name;
	bool refuse;	/* the model cannot move as MuJoCo moves it */
	const char *why;
} not_read[] = {
	{ "tendon", true, "tendons are not read, and they change how the "
	    "model moves" },
	{ "sensor", false, "not read (phys reports state lines instead)" },
	{ "extension", true, "plugins are not read" },
};

/* ---- equality constraints ---- */

static int
body_find(const struct reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nbodies; i++)
		if (strcmp(r->bodies[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
joint_find(const struct reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->njoints; i++)
		if (r->joints[i].name && strcmp(r->joints[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The equalities SDF holds as joints: each checked, kept for writing. */
static int
read_equality(struct reader *r, xmlNodePtr eq)
{
	xmlNodePtr n;
	const char *b1, *b2, *j1, *j2;
	double poly[5] = { 0, 1, 0, 0, 0 };
	int k;

	for (n = phys_child(eq, NULL); n; n = phys_next(n, NULL)) {
		if (flag(r, n, -1, "active", 1) == 0) {
			mj_note(r, n, "inactive: left out, as MuJoCo leaves it");
			continue;
		}
		if (phys_node_is(n, "connect") || phys_node_is(n, "weld")) {
			b1 = own_attr(n, "body1");
			b2 = own_attr(n, "body2");
			if (!b1 || body_find(r, b1) < 0 ||
			    (b2 && body_find(r, b2) < 0))
				return mj_fail(r, n, "<%s>: no body '%s'",
				    (const char *)n->name, !b1 ? "" :
				    body_find(r, b1) < 0 ? b1 : b2);
			if (phys_node_is(n, "weld") && own_attr(n, "relpose"))
				return mj_fail(r, n, "%s", "<weld relpose>: "
				    "a weld other than the bodies' pose at "
				    "qpos0 is not read");
		} else if (phys_node_is(n, "joint")) {
			j1 = own_attr(n, "joint1");
			j2 = own_attr(n, "joint2");
			if ((k = some_numbers(r, n, -1, "polycoef", poly, 1,
			    5)) < 0)
				return -1;
			if (!j1 || joint_find(r, j1) < 0 || !j2 ||
			    joint_find(r, j2) < 0)
				return mj_fail(r, n, "%s", "<joint> equality: "
				    "phys reads it between two named joints "
				    "only");
			if (poly[2] != 0 || poly[3] != 0 || poly[4] != 0)
				return mj_fail(r, n, "%s", "<joint> equality of "
				    "a polynomial above first order: not read");
			if (r->joints[joint_find(r, j1)].type < MJ_SLIDE ||
			    r->joints[joint_find(r, j2)].type < MJ_SLIDE)
				return mj_fail(r, n, "%s", "<joint> equality: "
				    "between hinge and slide joints only");
			r->mimic = true;
		} else {
			return mj_fail(r, n, "<%s> equality constraints are "
			    "not read, and they change how the model moves; "
			    "phys refuses the model", (const char *)n->name);
		}
		if (own_attr(n, "solref") || own_attr(n, "solimp"))
			mj_note(r, n, "solref and solimp of equality "
			    "constraints are not kept: the joint is rigid");
		r->equality = phys_xrealloc(r->equality, (r->nequality + 1) *
		    sizeof *r->equality);
		r->equality[r->nequality++] = n;
	}
	return 0;
}

/* ---- actuators ---- */

enum { ACT_MOTOR, ACT_POSITION, ACT_VELOCITY };

/* A <general> actuator as the kind it acts as: a motor (no bias) or a
 * position servo (gain kp, bias 0 -kp 0); -1 for any other. */
static int
general_kind(struct reader *r, xmlNodePtr n, int cls, double *gain)
{
	static const char *const gains[] = { "fixed", "muscle", "user",
		NULL };
	static const char *const biases[] = { "none", "affine", "muscle",
		"user", NULL };
	double g[3] = { 1, 0, 0 }, b[3] = { 0, 0, 0 };
	int gt, bt;

	if ((gt = keyword(r, n, cls, "gaintype", gains, 0)) < 0 ||
	    (bt = keyword(r, n, cls, "biastype", biases, 0)) < 0 ||
	    some_numbers(r, n, cls, "gainprm", g, 1, 3) < 0 ||
	    some_numbers(r, n, cls, "biasprm", b, 1, 3) < 0)
		return -2;
	if (own_attr(n, "dyntype") && strcmp(own_attr(n, "dyntype"),
	    "none") != 0)
		return -1;
	*gain = g[0];
	if (gt != 0 || g[1] != 0 || g[2] != 0)
		return -1;
	if (bt == 0 || (b[0] == 0 && b[1] == 0 && b[2] == 0))
		return ACT_MOTOR;
	if (bt == 1 && b[0] == 0 && b[1] == -g[0] && b[2] == 0)
		return ACT_POSITION;
	return -1;
}

/* An actuator's ctrlrange or forcerange (what, "ctrl" or "force") in
 * force: 1 with the range, 0 when none, -1 for an error. As for joints,
 * a range makes it limited under autolimits. */
static int
act_range(struct reader *r, xmlNodePtr n, int cls, const char *what,
    double range[2])
{
	static const char *const lim[] = { "false", "true", "auto", NULL };
	char attr_range[16], attr_lim[16];
	int k, has;

	snprintf(attr_range, sizeof attr_range, "%srange", what);
	snprintf(attr_lim, sizeof attr_lim, "%slimited", what);
	if ((has = numbers(r, n, cls, attr_range, range, 2)) < 0 ||
	    (k = keyword(r, n, cls, attr_lim, lim, 2)) < 0)
		return -1;
	return k == 1 || (k == 2 && has && r->autolimits);
}

static int
read_actuator(struct reader *r, xmlNodePtr n)
{
	const char *jn = own_attr(n, "joint");
	struct mj_act a = { 0 };
	double gear[6] = { 1 }, fr[2] = { 0, 0 }, cr[2] = { 0, 0 };
	int cls, lim, clim;

	if (class_of(r, n, 0, &cls) < 0)
		return -1;
	a.line = phys_node_line(n);
	a.index = r->nu++;
	if (phys_node_is(n, "motor")) {
		a.kind = ACT_MOTOR;
	} else if (phys_node_is(n, "position")) {
		a.kind = ACT_POSITION;
		a.gain = 1;
		if (number(r, n, cls, "kp", &a.gain) < 0)
			return -1;
	} else if (phys_node_is(n, "velocity")) {
		a.kind = ACT_VELOCITY;
		a.gain = 1;
		if (number(r, n, cls, "kv", &a.gain) < 0)
			return -1;
	} else if (phys_node_is(n, "general")) {
		if ((a.kind = general_kind(r, n, cls, &a.gain)) == -2)
			return -1;
	} else {
		a.kind = -1;
	}
	if (a.kind < 0 || !jn) {
		mj_note(r, n, "not read (phys reads motor, position, velocity "
		    "and servo-like general actuators of a joint): the model "
		    "runs without it");
		return 0;
	}
	if ((a.joint = joint_find(r, jn)) < 0)
		return mj_fail(r, n, "no joint '%s'", jn);
	if (r->joints[a.joint].type < MJ_SLIDE)
		return mj_fail(r, n, "%s", "an actuator of a free or ball joint "
		    "is not read");
	if (some_numbers(r, n, cls, "gear", gear, 1, 6) < 0 ||
	    (lim = act_range(r, n, cls, "force", fr)) < 0 ||
	    (clim = act_range(r, n, cls, "ctrl", cr)) < 0)
		return -1;
	if (gear[0] != 1 && a.kind != ACT_MOTOR)
		return mj_fail(r, n, "%s", "a servo of gear other than 1 is not "
		    "read");
	if (lim && fr[0] != -fr[1])
		return mj_fail(r, n, "%s", "a force range not symmetric about "
		    "0 is not read");
	a.fmax = lim ? fr[1] : 1e16;
	a.gear = gear[0];
	/* a motor's force is gear times its control: a symmetric ctrlrange
	 * bounds it as forcerange does */
	if (clim && a.kind == ACT_MOTOR && cr[0] == -cr[1])
		a.fmax = fmin(a.fmax, fabs(gear[0]) * cr[1]);
	else if (clim)
		mj_note(r, n, "ctrlrange is not kept (but a motor's symmetric "
		    "one, as its force limit): a command is taken as it is");
	r->acts = phys_xrealloc(r->acts, (r->nacts + 1) * sizeof *r->acts);
	r->acts[r->nacts++] = a;
	return 0;
}

/* A motor's force limit as its joint's effort limit, which bounds every
 * command of the joint. */
static void
effort_limit(xmlNodePtr model, const char *joint, double fmax, long line)
{
	xmlNodePtr j, ax, lim;
	xmlChar *v;
	bool same;

	for (j = phys_child(model, "joint"); j; j = phys_next(j, "joint")) {
		v = xmlGetProp(j, (const xmlChar *)"name");
		same = v && strcmp((const char *)v, joint) == 0;
		xmlFree(v);
		if (same)
			break;
	}
	if (!j || !(ax = phys_child(j, "axis")))
		return;
	if (!(lim = phys_child(ax, "limit")))
		lim = add(ax, "limit", NULL, line);
	add_num(lim, "effort", fmax, line);
}

/*
 * The actuators as gz-sim's joint systems: a position servo as a
 * JointPositionController of gain kp held at qpos 0, a velocity servo as a
 * JointController of gain kv on the speed held at 0, a motor as
 * ApplyJointForce (its messages are the force: gear is not applied).
 */
static void
write_actuators(struct reader *r, xmlNodePtr model)
{
	static const char *const files[] = {
		"gz-sim-apply-joint-force-system",
		"gz-sim-joint-position-controller-system",
		"gz-sim-joint-controller-system" };
	static const char *const names[] = {
		"gz::sim::systems::ApplyJointForce",
		"gz::sim::systems::JointPositionController",
		"gz::sim::systems::JointController" };
	const struct mj_act *a;
	const struct mj_body *b = NULL;
	xmlNodePtr p;
	size_t i, k;
	char *jn;

	for (i = 0; i < r->nacts; i++) {
		a = &r->acts[i];
		for (k = 0; k < r->nbodies; k++) {
			b = &r->bodies[k];
			if ((size_t)a->joint >= b->joint0 &&
			    (size_t)a->joint < b->joint0 + b->njoints)
				break;
		}
		if (!b || k == r->nbodies)
			continue;	/* every joint is a body's */
		p = r->acts[i].plugin = add(model, "plugin", NULL, a->line);
		xmlSetProp(p, (const xmlChar *)"filename",
		    (const xmlChar *)files[a->kind]);
		xmlSetProp(p, (const xmlChar *)"name",
		    (const xmlChar *)names[a->kind]);
		jn = joint_name(r, b, a->joint - b->joint0);
		add(p, "joint_name", jn, a->line);
		if (a->kind == ACT_MOTOR) {
			if (a->fmax < 1e16)
				effort_limit(model, jn, a->fmax, a->line);
			free(jn);
			continue;
		}
		if (a->kind == ACT_VELOCITY)
			add(p, "use_force_commands", "true", a->line);
		add_num(p, "p_gain", a->gain, a->line);
		add(p, "i_gain", "0", a->line);
		add(p, "d_gain", "0", a->line);
		add(p, "i_max", "0", a->line);
		add(p, "i_min", "0", a->line);
		free(jn);
		add_num(p, "cmd_max", a->fmax, a->line);
		add_num(p, "cmd_min", -a->fmax, a->line);
		if (a->kind == ACT_POSITION)
			add_num(p, "initial_position", -r->joints[a->joint].ref,
			    a->line);
	}
}

/*
 * A keyframe's controls, in each actuator's plugin as <phys:key name>
 * holding the command a message to it would carry: a servo's target in
 * phys's measure (a position less the joint's ref), a motor's force
 * (gear times the control).
 */
static void
write_key_controls(struct reader *r, xmlNodePtr sdf)
{
	xmlNodePtr e;
	const struct mj_act *a;
	const struct mj_key *k;
	char num[32];
	size_t i, j;
	double v;

	for (i = 0; i < r->nacts; i++) {
		a = &r->acts[i];
		for (j = 0; j < r->nkeys && a->plugin; j++) {
			k = &r->keys[j];
			if (!k->ctrl)
				continue;
			v = k->ctrl[a->index];
			v = a->kind == ACT_MOTOR ? a->gear * v :
			    a->kind == ACT_POSITION ?
			    v - r->joints[a->joint].ref : v;
			phys_fmt_double(num, sizeof num, v);
			e = xmlNewTextChild(a->plugin, phys_ns(sdf),
			    (const xmlChar *)"key", (const xmlChar *)num);
			set_line(e, k->line);
			xmlSetProp(e, (const xmlChar *)"name",
			    (const xmlChar *)k->name);
		}
	}
}

/* ---- keyframes ---- */

bool
phys_mjcf_own(xmlNodePtr n, const char *tag)
{
	return n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
	    strcmp((const char *)n->ns->href, PHYS_KEY_NS) == 0 &&
	    strcmp((const char *)n->name, tag) == 0;
}

/* n numbers of the key's element tag into v: 0, or -1. */
static int
key_numbers(const struct phys_link *l, xmlNodePtr k, const char *tag,
    double *v, int n)
{
	xmlNodePtr e = phys_child(k, tag);
	char *text = e ? phys_node_text(e) : NULL;
	int got = text ? phys_parse_doubles(text, v, n) : -1;

	free(text);
	if (got != n)
		return phys_fail("link '%s': its keyframe's <%s> needs %d "
		    "numbers", l->name, tag, n);
	return 0;
}

int
phys_mjcf_key_state(const struct phys_scene *w, int li, xmlNodePtr k,
    phys_pose *pose, phys_vec3 *lin, phys_vec3 *ang)
{
	const struct phys_link *l = &w->links[li];
	phys_pose m = w->models[l->model].pose;
	double v[6], u[6];

	if (key_numbers(l, k, "pose", v, 6) < 0 ||
	    key_numbers(l, k, "linear_vel", u, 3) < 0 ||
	    key_numbers(l, k, "angular_vel", u + 3, 3) < 0)
		return -1;
	*pose = phys_pose_mul(m, phys_pose_from6(v));
	*lin = phys_quat_rotate(m.q, v3(u[0], u[1], u[2]));
	*ang = phys_quat_rotate(m.q, v3(u[3], u[4], u[5]));
	return 0;
}

xmlNodePtr
phys_mjcf_key(xmlNodePtr holder, const char *name, xmlNodePtr after)
{
	xmlNodePtr n = after ? after->next : holder ? holder->children : NULL;
	xmlChar *v;
	bool same;

	for (; n; n = n->next) {
		if (!phys_mjcf_own(n, "key"))
			continue;
		if (!name)
			return n;
		v = xmlGetProp(n, (const xmlChar *)"name");
		same = v && strcmp((const char *)v, name) == 0;
		xmlFree(v);
		if (same)
			return n;
	}
	return NULL;
}


/* A free, ball, slide or hinge joint's values in qpos and in qvel. */
static const size_t nq_of[] = { 7, 4, 1, 1 }, nv_of[] = { 6, 3, 1, 1 };

/* MuJoCo's qpos0, the model as written: a free body where it is, balls
 * unturned, slides and hinges at ref. Joints are in body order. */
static void
qpos0(const struct reader *r, double *q)
{
	const struct mj_body *b;
	const struct mj_joint *j;
	size_t i, k;

	for (i = 0; i < r->nbodies; i++) {
		b = &r->bodies[i];
		for (k = 0; k < b->njoints; k++) {
			j = &r->joints[b->joint0 + k];
			if (j->type == MJ_FREE) {
				*q++ = b->world.p.x;
				*q++ = b->world.p.y;
				*q++ = b->world.p.z;
				*q++ = b->world.q.w;
				*q++ = b->world.q.x;
				*q++ = b->world.q.y;
				*q++ = b->world.q.z;
			} else if (j->type == MJ_BALL) {
				*q++ = 1;
				*q++ = 0;
				*q++ = 0;
				*q++ = 0;
			} else {
				*q++ = j->ref;
			}
		}
	}
}

/* A key's qpos or qvel: exactly n numbers when given. */
static int
key_values(struct reader *r, xmlNodePtr n, const char *name, double *out,
    size_t count)
{
	const char *v = own_attr(n, name);
	double *tmp;
	int k;

	if (!v)
		return 0;
	if (count > INT_MAX - 1)
		return mj_fail(r, n, "%s", "too many joints");
	tmp = phys_xcalloc(count + 1, sizeof *tmp);
	k = phys_parse_doubles(v, tmp, (int)count + 1);
	if (k >= 0 && (size_t)k == count)
		memcpy(out, tmp, count * sizeof *out);
	free(tmp);
	if (k < 0 || (size_t)k != count)
		return mj_fail(r, n, "%s: %zu numbers expected (the model's "
		    "%s)", name, count, name[0] == 'c' ? "nu" :
		    name[1] == 'p' ? "nq" : "nv");
	return 0;
}

static int
read_key(struct reader *r, xmlNodePtr n)
{
	static const char *const unkept[] = { "act", "mpos", "mquat", NULL };
	struct mj_key k = { 0 };
	size_t nq = 0, nv = 0, i;
	double t = 0;
	const char *name = own_attr(n, "name");

	for (i = 0; i < r->njoints; i++) {
		nq += nq_of[r->joints[i].type];
		nv += nv_of[r->joints[i].type];
	}
	if (!name || !*name)
		return mj_fail(r, n, "%s", "<key>: phys chooses a keyframe by "
		    "its name, and this one has none");
	for (i = 0; i < r->nkeys; i++)
		if (strcmp(r->keys[i].name, name) == 0)
			return mj_fail(r, n, "repeated keyframe name '%s'",
			    name);
	k.qpos = phys_xcalloc(nq + 1, sizeof *k.qpos);
	k.qvel = phys_xcalloc(nv + 1, sizeof *k.qvel);
	qpos0(r, k.qpos);
	if (own_attr(n, "ctrl"))
		k.ctrl = phys_xcalloc(r->nu + 1, sizeof *k.ctrl);
	if (key_values(r, n, "qpos", k.qpos, nq) < 0 ||
	    key_values(r, n, "qvel", k.qvel, nv) < 0 ||
	    (k.ctrl && key_values(r, n, "ctrl", k.ctrl, r->nu) < 0) ||
	    number(r, n, -1, "time", &t) < 0) {
		free(k.qpos);
		free(k.qvel);
		free(k.ctrl);
		return -1;
	}
	if (t != 0)
		mj_note(r, n, "time is not kept: a run's clock starts at 0");
	for (i = 0; unkept[i]; i++)
		if (own_attr(n, unkept[i]))
			mj_note(r, n, "act, mpos and mquat are not kept: a "
			    "keyframe sets the joints' positions and "
			    "velocities, and the actuators' controls");
	k.name = phys_xstrdup(name);
	k.line = phys_node_line(n);
	r->keys = phys_xrealloc(r->keys, (r->nkeys + 1) * sizeof *r->keys);
	r->keys[r->nkeys++] = k;
	return 0;
}

/* A frame moving in the model: its pose, its origin's velocity and its
 * angular velocity, in the model's frame. */
struct key_frame {
	phys_pose pose;
	phys_vec3 lin, ang;
};

/* The joints of one body moving at qpos, qvel (consumed), as MuJoCo's
 * kinematics turns them: each after the one before, about its axis as
 * the body stands then; f is the body's frame before them. at[k] is the
 * frame after joint k: its origin moves with the frame before the joints,
 * with each turn about its anchor and with each slide. */
static void
key_joints(const struct reader *r, const struct mj_body *b,
    struct key_frame f, const double **qpos, const double **qvel,
    struct key_frame *at)
{
	const struct mj_joint *j;
	const double *q, *v;
	phys_vec3 *anchor, *spin, slide = v3(0, 0, 0), base = f.pose.p, a;
	size_t k, i, n = 0;

	anchor = phys_xcalloc(b->njoints + 1, sizeof *anchor);
	spin = phys_xcalloc(b->njoints + 1, sizeof *spin);
	for (k = 0; k < b->njoints; k++) {
		j = &r->joints[b->joint0 + k];
		q = *qpos;
		v = *qvel;
		*qpos += nq_of[j->type];
		*qvel += nv_of[j->type];
		a = phys_pose_apply(f.pose, j->pos);
		switch (j->type) {
		case MJ_FREE:	/* a body of the world's, all of its motion */
			f.pose.p = base = v3(q[0], q[1], q[2]);
			f.pose.q = phys_quat_normalize((phys_quat){ q[3], q[4],
			    q[5], q[6] });
			f.lin = v3(v[0], v[1], v[2]);
			f.ang = phys_quat_rotate(f.pose.q, v3(v[3], v[4],
			    v[5]));
			n = 0;
			slide = v3(0, 0, 0);
			break;
		case MJ_BALL:
			f.pose.q = phys_quat_normalize(phys_quat_mul(f.pose.q,
			    phys_quat_normalize((phys_quat){ q[0], q[1], q[2],
			    q[3] })));
			spin[n] = phys_quat_rotate(f.pose.q, v3(v[0], v[1],
			    v[2]));
			anchor[n++] = a;
			f.pose.p = v3_sub(a, phys_quat_rotate(f.pose.q, j->pos));
			break;
		case MJ_HINGE:
			spin[n] = v3_scale(phys_quat_rotate(f.pose.q, j->axis),
			    v[0]);
			anchor[n++] = a;
			f.pose.q = phys_quat_normalize(phys_quat_mul(f.pose.q,
			    phys_quat_about(j->axis, q[0] - j->ref)));
			f.pose.p = v3_sub(a, phys_quat_rotate(f.pose.q, j->pos));
			break;
		case MJ_SLIDE:
			a = phys_quat_rotate(f.pose.q, j->axis);
			f.pose.p = v3_add(f.pose.p, v3_scale(a, q[0] - j->ref));
			slide = v3_add(slide, v3_scale(a, v[0]));
			break;
		}
		at[k].pose = f.pose;
		at[k].lin = v3_add(v3_add(f.lin, v3_cross(f.ang,
		    v3_sub(f.pose.p, base))), slide);
		at[k].ang = f.ang;
		for (i = 0; i < n; i++) {
			at[k].lin = v3_add(at[k].lin, v3_cross(spin[i],
			    v3_sub(f.pose.p, anchor[i])));
			at[k].ang = v3_add(at[k].ang, spin[i]);
		}
	}
	free(anchor);
	free(spin);
}

/* A link's state in a keyframe, in the model's frame, as an element of
 * phys's own namespace (the run sets it: lib/run/keyframe.c). */
static void
write_key_state(xmlNodePtr link, xmlNsPtr ns, const char *key,
    const struct key_frame *f, long line)
{
	xmlNodePtr k = xmlNewChild(link, ns, (const xmlChar *)"key", NULL);
	double v[6];

	set_line(k, line);
	set_name(k, key);
	phys_pose_to6(f->pose, v);
	add_nums(k, "pose", v, 6, line);
	v[0] = f->lin.x, v[1] = f->lin.y, v[2] = f->lin.z;
	add_nums(k, "linear_vel", v, 3, line);
	v[0] = f->ang.x, v[1] = f->ang.y, v[2] = f->ang.z;
	add_nums(k, "angular_vel", v, 3, line);
}

/* The links written for the bodies, in write_model's order: each body's,
 * then those between its joints: body[i] and chain[joint] (the link
 * that joint moves, but for a body's last). */
static void
links_written(const struct reader *r, xmlNodePtr model, xmlNodePtr *body,
    xmlNodePtr *chain)
{
	xmlNodePtr n = phys_child(model, "link");
	size_t i, k;

	for (i = 0; i < r->nbodies && n; i++) {
		if (fused(r, (int)i))
			continue;	/* no link of its own */
		body[i] = n;
		n = phys_next(n, "link");
		for (k = 0; k + 1 < r->bodies[i].njoints && n; k++) {
			chain[r->bodies[i].joint0 + k] = n;
			n = phys_next(n, "link");
		}
	}
}

/* Each keyframe as every body's (and chain link's) pose and velocity. */
static void
write_key(struct reader *r, xmlNsPtr ns, xmlNodePtr *body, xmlNodePtr *chain,
    const struct mj_key *key)
{
	struct key_frame *f = phys_xcalloc(r->nbodies, sizeof *f), *at, in;
	const double *q = key->qpos, *v = key->qvel;
	const struct mj_body *b;
	size_t i, k;

	for (i = 0; i < r->nbodies; i++) {
		b = &r->bodies[i];
		memset(&in, 0, sizeof in);
		in.pose = b->world;
		if (b->parent >= 0) {
			in = f[b->parent];
			in.pose = phys_pose_mul(in.pose, phys_pose_mul(
			    phys_pose_inv(r->bodies[b->parent].world),
			    b->world));
			in.lin = v3_add(in.lin, v3_cross(in.ang,
			    v3_sub(in.pose.p, f[b->parent].pose.p)));
		}
		at = phys_xcalloc(b->njoints + 1, sizeof *at);
		key_joints(r, b, in, &q, &v, at);
		f[i] = b->njoints ? at[b->njoints - 1] : in;
		for (k = 0; k < b->njoints; k++)
			write_key_state(k + 1 < b->njoints ?
			    chain[b->joint0 + k] : body[i], ns, key->name,
			    &at[k], key->line);
		if (!b->njoints && body[i])
			write_key_state(body[i], ns, key->name, &in,
			    key->line);
		free(at);
	}
	free(f);
}

/* phys's namespace (mjcf.h), declared once in the <sdf>. */
static xmlNsPtr
phys_ns(xmlNodePtr sdf)
{
	xmlNsPtr ns = xmlSearchNsByHref(sdf->doc, sdf,
	    (const xmlChar *)PHYS_KEY_NS);

	return ns ? ns : xmlNewNs(sdf, (const xmlChar *)PHYS_KEY_NS,
	    (const xmlChar *)"phys");
}

static void
write_keys(struct reader *r, xmlNodePtr sdf, xmlNodePtr model)
{
	xmlNodePtr *body, *chain;
	xmlNsPtr ns;
	size_t i;

	if (!r->nkeys)
		return;
	ns = phys_ns(sdf);
	body = phys_xcalloc(r->nbodies + 1, sizeof *body);
	chain = phys_xcalloc(r->njoints + 1, sizeof *chain);
	links_written(r, model, body, chain);
	for (i = 0; i < r->nkeys; i++)
		write_key(r, ns, body, chain, &r->keys[i]);
	free(body);
	free(chain);
}

/* ---- contacts ---- */

/* The named geoms in name order, for the pairs' binary search: found
 * in n log n, however many. */
static const char *
geom_name(size_t i, const void *r)
{
	return ((const struct reader *)r)->geoms[i].name;
}

/* The body whose link holds geom gi, -1 for the world's (its own, and
 * the ground). */
static int
geom_holder(const struct reader *r, int gi)
{
	int b = r->geoms[gi].body;

	return b < 0 || ground(r, b, (size_t)gi) ? -1 : holder_of(r, b);
}

/* Whether bodies a and b (-1: the world) are one, or a joint joins
 * them in the model written: phys keeps such links apart. */
static bool
joined(const struct reader *r, int a, int b)
{
	if (a == b)
		return true;
	if (a >= 0 && r->bodies[a].parent == b &&
	    !has_free(r, &r->bodies[a]))
		return true;
	return b >= 0 && r->bodies[b].parent == a &&
	    !has_free(r, &r->bodies[b]);
}

/*
 * <pair geom1 geom2>, its values from its class's <pair> and MuJoCo's
 * defaults (condim 3, friction 1 1 0.005 0.0001 0.0001, the default
 * solref and solimp), not from its geoms: as MuJoCo 2.2.2 compiles it.
 */
static int
read_pair(struct reader *r, xmlNodePtr n, struct phys_name_order *order)
{
	static const double fr[5] = { 1, 1, 0.005, 0.0001, 0.0001 },
	    ref[2] = { 0.02, 1 }, imp[5] = { 0.9, 0.95, 0.001, 0.5, 2 };
	struct mj_pair p;
	const char *name[2] = { own_attr(n, "geom1"), own_attr(n, "geom2") };
	double cd = 3, margin = 0, gap = 0;
	int cls, *g[2] = { &p.g1, &p.g2 }, i;

	memset(&p, 0, sizeof p);
	p.line = phys_node_line(n);
	memcpy(p.friction, fr, sizeof fr);
	memcpy(p.solref, ref, sizeof ref);
	memcpy(p.solimp, imp, sizeof imp);
	if (class_of(r, n, 0, &cls) < 0 ||
	    number(r, n, cls, "condim", &cd) < 0 ||
	    some_numbers(r, n, cls, "friction", p.friction, 1, 5) < 0 ||
	    some_numbers(r, n, cls, "solref", p.solref, 2, 2) < 0 ||
	    some_numbers(r, n, cls, "solimp", p.solimp, 3, 5) < 0 ||
	    number(r, n, cls, "margin", &margin) < 0 ||
	    number(r, n, cls, "gap", &gap) < 0)
		return -1;
	if (cd != 1 && cd != 3 && cd != 4 && cd != 6)
		return mj_fail(r, n, "condim=\"%g\": 1, 3, 4 or 6", cd);
	p.condim = (int)cd;
	if (!order->at)
		phys_name_order_make(order, r->ngeoms, geom_name, r);
	for (i = 0; i < 2; i++)
		if (!name[i] || (*g[i] = phys_name_order_find(order,
		    name[i])) < 0)
			return mj_fail(r, n, "<pair>: no geom '%s'",
			    name[i] ? name[i] : "");
	if (p.g1 == p.g2)
		return mj_fail(r, n, "<pair>: geom '%s' with itself",
		    name[0]);
	if (geom_holder(r, p.g1) < 0 && geom_holder(r, p.g2) < 0) {
		mj_note(r, n, "both geoms are the world's, which never moves: "
		    "they never touch");
		return 0;
	}
	if (joined(r, geom_holder(r, p.g1), geom_holder(r, p.g2)))
		mj_note(r, n, "its geoms' bodies are one, or joined by a joint: "
		    "phys keeps such links apart under every engine, and the "
		    "pair never touches");
	if (margin != 0 || gap != 0)
		mj_note(r, n, "margin and gap are not kept: its contacts begin "
		    "where the geoms touch");
	if (p.condim == 6 && p.friction[4] != p.friction[3])
		mj_note(r, n, "its second rolling coefficient is not kept: "
		    "both rolling directions take the first");
	if (p.solref[0] <= 0)
		mj_note(r, n, "solref of direct stiffness and damping "
		    "(negative): not kept; the contact takes MuJoCo's default, "
		    "0.02 1");
	r->geoms[p.g1].paired = r->geoms[p.g2].paired = true;
	r->pairs = phys_xrealloc(r->pairs, (r->npairs + 1) * sizeof *r->pairs);
	r->pairs[r->npairs++] = p;
	return 0;
}

/* The key of bodies a and b (-1: the world) as a pair. */
static int64_t
excl_key(const struct reader *r, int a, int b)
{
	return phys_pair_key(a + 1, b + 1, (int64_t)r->nbodies + 1);
}

/* <exclude body1 body2> and <pair geom1 geom2> kept. */
static int
read_contact(struct reader *r, xmlNodePtr c)
{
	xmlNodePtr n;
	const char *b[2];
	struct phys_name_order order = { 0 };
	int k[2], i, rc = 0;

	for (n = phys_child(c, NULL); n && rc == 0; n = phys_next(n, NULL)) {
		if (phys_node_is(n, "pair")) {
			rc = read_pair(r, n, &order);
			continue;
		}
		if (!phys_node_is(n, "exclude")) {
			mj_note(r, n, "not read");
			continue;
		}
		b[0] = own_attr(n, "body1");
		b[1] = own_attr(n, "body2");
		for (i = 0; i < 2 && rc == 0; i++)
			if (!b[i] || ((k[i] = body_find(r, b[i])) < 0 &&
			    strcmp(b[i], "world") != 0))
				rc = mj_fail(r, n, "<exclude>: no body '%s'",
				    b[i] ? b[i] : "");
		if (rc < 0)
			break;
		r->excl = phys_xrealloc(r->excl, (r->nexcl + 1) *
		    sizeof *r->excl);
		r->excl[r->nexcl++] = excl_key(r, k[0], k[1]);
	}
	phys_name_order_free(&order);
	phys_keys_sort(r->excl, r->nexcl);
	return rc;
}

/* The body whose frame body i moves with: itself when it has joints,
 * else its parent's (-1: the world), as MuJoCo welds them. */
static int
weld_of(const struct reader *r, int i)
{
	while (i >= 0 && !r->bodies[i].njoints)
		i = r->bodies[i].parent;
	return i;
}

static bool
touches(const struct reader *r, int i)
{
	const struct mj_body *b = &r->bodies[i];
	size_t k;

	for (k = b->geom0; k < b->geom0 + b->ngeoms; k++)
		if (r->geoms[k].collides)
			return true;
	return false;
}

/* Whether an <exclude> names bodies a and b (-1: the world): a search a
 * pair, not a pass over them all. */
static bool
is_excluded(const struct reader *r, int a, int b)
{
	return phys_key_listed(r->excl, r->nexcl, excl_key(r, a, b));
}

/* <phys:exclude link=other> in link. */
static void
write_exclude(xmlNodePtr sdf, xmlNodePtr link, const char *other, long line)
{
	xmlNodePtr e = xmlNewChild(link, phys_ns(sdf),
	    (const xmlChar *)"exclude", NULL);

	set_line(e, line);
	xmlSetProp(e, (const xmlChar *)"link", (const xmlChar *)other);
}

/*
 * Body i's weld in its link, as <phys:weld> (excludes.h): MuJoCo's filter
 * keeps bodies welded together apart, and a body and its parent's
 * (unless that is the world). Written as each link's weld and its weld
 * parent, not as the pairs, which grow as the square of a weld's bodies
 * (10,000 bodies welded to one made 50 million exclusions).
 */
static void
write_weld(struct reader *r, xmlNodePtr sdf, xmlNodePtr link, int i)
{
	int wi = weld_of(r, i), pi = wi >= 0 ? weld_of(r,
	    r->bodies[wi].parent) : -1;
	xmlNodePtr e = xmlNewChild(link, phys_ns(sdf),
	    (const xmlChar *)"weld", NULL);

	set_line(e, r->bodies[i].line);
	xmlSetProp(e, (const xmlChar *)"link",
	    (const xmlChar *)(wi >= 0 ? r->bodies[wi].name : "world"));
	if (wi >= 0 && pi >= 0)
		xmlSetProp(e, (const xmlChar *)"parent",
		    (const xmlChar *)r->bodies[pi].name);
}

/*
 * What MuJoCo's filter keeps apart, in the links that touch: each one's
 * weld; each <exclude> of two bodies, in the first's link; and the world's
 * geoms and each body welded to the world or excluded from it, in the
 * body's link.
 */
static void
write_excludes(struct reader *r, xmlNodePtr sdf, xmlNodePtr model)
{
	xmlNodePtr *body, *chain;
	size_t i;
	bool world = r->nbodies ? r->bodies[0].geom0 > 0 : r->ngeoms > 0;
	bool *touch = phys_xcalloc(r->nbodies + 1, sizeof *touch);
	int h, a, b;

	/* a link touches by its own geoms and those of the bodies fused
	 * into it */
	for (i = 0; i < r->nbodies; i++) {
		h = holder_of(r, (int)i);
		if (h >= 0)
			touch[h] |= touches(r, (int)i);
		else
			world |= touches(r, (int)i);
	}
	body = phys_xcalloc(r->nbodies + 1, sizeof *body);
	chain = phys_xcalloc(r->njoints + 1, sizeof *chain);
	links_written(r, model, body, chain);
	for (i = 0; i < r->nexcl; i++) {
		/* keys of bodies + 1 (0: the world), sorted */
		a = (int)(r->excl[i] / ((int64_t)r->nbodies + 1)) - 1;
		b = (int)(r->excl[i] % ((int64_t)r->nbodies + 1)) - 1;
		if (a >= 0 && a != b && touch[a] && touch[b] &&
		    (!i || r->excl[i] != r->excl[i - 1]))
			write_exclude(sdf, body[a], r->bodies[b].name,
			    r->bodies[a].line);
	}
	for (i = 0; i < r->nbodies; i++) {
		if (!touch[i] || fused(r, (int)i))
			continue;
		write_weld(r, sdf, body[i], (int)i);
		if (world && (weld_of(r, (int)i) < 0 ||
		    is_excluded(r, -1, (int)i)))
			write_exclude(sdf, body[i], "worldbody::worldbody",
			    r->bodies[i].line);
	}
	free(touch);
	free(body);
	free(chain);
}

/* Each pair as <phys:pair> (pairs.h) in the <collision> of its first
 * geom the world does not hold, naming the other. */
static void
write_pairs(struct reader *r, xmlNodePtr sdf)
{
	xmlNodePtr e;
	size_t i;

	for (i = 0; i < r->npairs; i++) {
		const struct mj_pair *p = &r->pairs[i];
		struct mj_contact k = { p->condim, p->friction[0],
			p->friction[1], p->friction[2], p->friction[3],
			p->solref, p->solimp, NULL, p->line };
		int host = geom_holder(r, p->g1) >= 0 ? p->g1 : p->g2;
		int other = host == p->g1 ? p->g2 : p->g1;
		int ob = geom_holder(r, other);

		if (!r->geoms[host].node)
			continue;	/* not written, and said so */
		e = xmlNewChild(r->geoms[host].node, phys_ns(sdf),
		    (const xmlChar *)"pair", NULL);
		set_line(e, p->line);
		xmlSetProp(e, (const xmlChar *)"link", (const xmlChar *)(ob < 0 ?
		    "worldbody::worldbody" : r->bodies[ob].name));
		xmlSetProp(e, (const xmlChar *)"collision",
		    (const xmlChar *)r->geoms[other].name);
		write_surface_of(e, &k);
	}
}

/*
 * What keeps MuJoCo 2.2.2 from fusing static bodies (it then fuses none):
 * an element that names others by their place, an actuator, a sensor, a
 * contact pair or exclusion, an equality, a tendon, a custom tuple or a
 * skin. The first, or NULL.
 */
static xmlNodePtr
fusion_blocked(xmlNodePtr root)
{
	static const char *const naming[][2] = { { "actuator", NULL },
		{ "sensor", NULL }, { "contact", NULL }, { "equality", NULL },
		{ "tendon", NULL }, { "custom", "tuple" }, { "asset", "skin" },
		{ "deformable", "skin" } };
	xmlNodePtr n, c;
	size_t i;

	for (i = 0; i < sizeof naming / sizeof *naming; i++)
		for (n = phys_child(root, naming[i][0]); n;
		    n = phys_next(n, naming[i][0]))
			if ((c = phys_child(n, naming[i][1])))
				return c;
	return NULL;
}

static int
read_top(struct reader *r, xmlNodePtr root)
{
	xmlNodePtr n, c;
	size_t i;

	for (n = phys_child(root, "compiler"); n; n = phys_next(n, "compiler"))
		if (read_compiler(r, n) < 0)
			return -1;
	for (n = phys_child(root, "option"); n; n = phys_next(n, "option"))
		if (read_option(r, n) < 0)
			return -1;
	for (n = phys_child(root, "default"); n; n = phys_next(n, "default"))
		if (read_defaults(r, n, -1, 0) < 0)
			return -1;
	if (!r->ncls) {
		r->cls = phys_xcalloc(1, sizeof *r->cls);
		r->cls[0].name = phys_xstrdup("main");
		r->cls[0].parent = -1;
		r->ncls = 1;
	}
	for (n = phys_child(root, "asset"); n; n = phys_next(n, "asset"))
		if (read_assets(r, n) < 0)
			return -1;
	for (n = phys_child(root, NULL); n; n = phys_next(n, NULL))
		for (i = 0; i < sizeof not_read / sizeof *not_read; i++) {
			if (!phys_node_is(n, not_read[i].name) ||
			    (!phys_child(n, NULL) && !n->properties))
				continue;
			if (not_read[i].refuse)
				return mj_fail(r, n, "<%s>: %s; phys refuses "
				    "the model", not_read[i].name,
				    not_read[i].why);
			mj_note(r, n, not_read[i].why);
		}
	for (n = phys_child(root, "worldbody"); n;
	    n = phys_next(n, "worldbody"))
		if (body_children(r, n, -1, 0, 0, false) < 0)
			return -1;
	for (n = phys_child(root, "equality"); n; n = phys_next(n, "equality"))
		if (read_equality(r, n) < 0)
			return -1;
	for (n = phys_child(root, "actuator"); n; n = phys_next(n, "actuator"))
		for (c = phys_child(n, NULL); c; c = phys_next(c, NULL))
			if (read_actuator(r, c) < 0)
				return -1;
	for (n = phys_child(root, "contact"); n; n = phys_next(n, "contact"))
		if (read_contact(r, n) < 0)
			return -1;
	for (n = phys_child(root, "keyframe"); n; n = phys_next(n, "keyframe"))
		for (c = phys_child(n, "key"); c; c = phys_next(c, "key"))
			if (read_key(r, c) < 0)
				return -1;
	if ((r->fuse = r->fusestatic && !(n = fusion_blocked(root))) ||
	    !r->fusestatic)
		return 0;
	mj_note(r, n, "fusestatic is left undone: MuJoCo 2.2.2 fuses no "
	    "static body in a model with one, nor does phys");
	return 0;
}
static void
reader_free(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->ncls; i++)
		free(r->cls[i].name);
	for (i = 0; i < r->nmeshes; i++) {
		free(r->meshes[i].name);
		free(r->meshes[i].file);
		free(r->meshes[i].uri);
	}
	for (i = 0; i < r->nbodies; i++)
		free(r->bodies[i].name);
	for (i = 0; i < r->ngeoms; i++)
		free(r->geoms[i].name);
	for (i = 0; i < r->njoints; i++)
		free(r->joints[i].name);
	for (i = 0; i < r->nsites; i++)
		free(r->sites[i].name);
	free(r->cls);
	free(r->meshes);
	free(r->bodies);
	free(r->geoms);
	free(r->joints);
	free(r->sites);
	free(r->equality);
	free(r->acts);
	free(r->excl);
	free(r->pairs);
	for (i = 0; i < r->nkeys; i++) {
		free(r->keys[i].name);
		free(r->keys[i].qpos);
		free(r->keys[i].qvel);
		free(r->keys[i].ctrl);
	}
	free(r->keys);
	for (i = 0; i < r->norigins; i++)
		free(r->origins[i].file);
	free(r->origins);
	free(r->meshdir);
	free(r->model);
	if (r->out)
		xmlFreeDoc(r->out);
}

int
phys_mjcf_convert(struct phys_doc *src, bool owns, struct phys_doc *out,
    const struct phys_urdf_options *o)
{
	struct phys_urdf_options quiet = { true, false, false };
	struct reader r;
	const char *name;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.d = src;
	r.o = o ? o : &quiet;
	r.degree = true;	/* MuJoCo's default */
	memcpy(r.eulerseq, "xyz", 4);
	r.inertiafromgeom = 2;
	r.igroup[0] = 0;
	r.igroup[1] = 5;
	r.settotalmass = -1;
	r.timestep = 0.002;
	r.gravity[2] = -9.81;
	r.tolerance = 1e-8;
	r.impratio = 1;
	r.integrator = 0;
	r.solver = 2;
	r.iterations = 100;
	name = own_attr(src->root, "model");
	r.model = phys_xstrdup(name && *name ? name : "MuJoCo Model");
	out->name = phys_xstrdup(src->name);
	out->path = src->path ? phys_xstrdup(src->path) : NULL;
	if (!owns)	/* the file may be edited (mjcfedit.h) */
		phys_mjcf_mark(src);
	rc = expand_includes(&r, src->root);
	if (rc == 0)
		rc = read_top(&r, src->root);
	if (rc == 0)
		rc = write_model(&r, phys_node_line(src->root));
	if (rc == 0) {
		out->xml = r.out;
		r.out = NULL;
		out->root = xmlDocGetRootElement(out->xml);
		out->kind = PHYS_DOC_MODEL;
		out->major = 1;
		out->minor = r.mimic ? 11 : 9;
	}
	reader_free(&r);
	if (owns) {
		/* the source is not needed once converted */
		phys_doc_free(src);
		free(src);
	}
	return rc;
}
