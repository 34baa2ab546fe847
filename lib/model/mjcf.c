/*
 * mjcf.c - MJCF models converted into SDF, as MuJoCo 2.2.2 compiles them
 * (mjcf.h). The MJCF tree is read once, body by body, into MuJoCo's
 * terms (world poses at qpos0, inertial frames, joints, geoms: struct
 * reader, mjcfint.h); then mjcf_sdf.c writes the SDF model from them.
 * Defaults are resolved as MuJoCo's classes inherit: an attribute an
 * element lacks comes from its class (its own "class", else the nearest
 * body's "childclass", else "main"), then from that class's parents.
 * The keyframes the SDF model's links hold (<phys:key>) are read back
 * here too, from a loaded world.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "file.h"
#include "mem.h"
#include "mesh.h"
#include "meshscan.h"
#include "mjcf.h"
#include "mjcf_defaults.h"
#include "mjcf_inertia.h"
#include "mjcf_pid.h"
#include "mjcfedit.h"
#include "mjcf_schema.h"
#include "mjcfint.h"
#include "mjcflater.h"
#include "names.h"
#include "num.h"
#include "pairkey.h"
#include "world_types.h"

#define MJ_MAX_DEPTH	64	/* nested default classes */
#define MJ_MAX_BODIES	1024	/* nested bodies (a chain, a rope) */
#define MJ_MAX_COPIES	100000	/* elements <replicate>s make, in all */

static void
mj_note(struct reader *r, xmlNodePtr n, const char *what)
{
	mj_notef(r, n, "<%s>: %s", (const char *)n->name, what);
}

/* ---- default classes ---- */

static int
read_defaults(struct reader *r, xmlNodePtr def, int parent, int depth)
{
	const char *name = own_attr(def, "class");
	xmlNodePtr c;
	bool more;
	int me;

	if (depth > MJ_MAX_DEPTH)
		return mj_fail(r, def, "%s", "defaults nested too deeply");
	if (!name)
		name = parent < 0 ? "main" : "";
	/*
	 * A second top-level <default> (an included file's and the
	 * model's) is more of "main", as MuJoCo reads it: a class of its
	 * own whose parent is main as it was, which the elements and the
	 * classes read after it take as main. Classes read before keep
	 * main as it was, as MuJoCo copies a class into each child class
	 * when it reads it.
	 */
	more = parent < 0 && r->ncls && strcmp(name, "main") == 0;
	if (parent < 0 && r->ncls)
		parent = r->main;
	if (!*name || (!more && class_find(r, name) >= 0))
		return mj_fail(r, def, "%s class name '%s'", *name ? "repeated" :
		    "a nested <default> needs a", name);
	PHYS_GROW_ONE(r->cls, r->ncls);
	me = (int)r->ncls++;
	memset(&r->cls[me], 0, sizeof r->cls[me]);
	r->cls[me].name = phys_xstrdup(name);
	r->cls[me].parent = parent;
	r->cls[me].node = def;
	phys_name_table_add(&r->class_names, (size_t)me);
	if (strcmp(name, "main") == 0)
		r->main = me;
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

/*
 * An <option><flag>: what it turns off is applied as the model is read
 * (MJ_OFF_*, constraint being contact, limit, frictionloss and
 * equality); what changes nothing phys does (the solver's warm start, the
 * energy, sensors, control clamping, which phys does not do) is passed
 * over; what phys cannot do, refused.
 */
static int
read_flags(struct reader *r, xmlNodePtr f)
{
	static const struct {
		const char *name;
		const char *off;	/* the value that changes anything */
		unsigned bits;		/* what it turns off */
		const char *refused;	/* why phys cannot run it, or NULL */
	} flags[] = {
		{ "constraint", "disable", MJ_OFF_CONTACT | MJ_OFF_LIMIT |
		    MJ_OFF_FRICTIONLOSS | MJ_OFF_EQUALITY, NULL },
		{ "equality", "disable", MJ_OFF_EQUALITY, NULL },
		{ "frictionloss", "disable", MJ_OFF_FRICTIONLOSS, NULL },
		{ "limit", "disable", MJ_OFF_LIMIT, NULL },
		{ "contact", "disable", MJ_OFF_CONTACT, NULL },
		{ "passive", "disable", MJ_OFF_PASSIVE, NULL },
		{ "gravity", "disable", MJ_OFF_GRAVITY, NULL },
		{ "actuation", "disable", MJ_OFF_ACTUATION, NULL },
		{ "filterparent", "disable", 0, "phys keeps a body and its "
		    "parent apart, as MuJoCo does by default" },
		{ "override", "enable", 0, "it gives every contact "
		    "<option>'s o_margin, o_solref and o_solimp" },
		{ "clampctrl", NULL, 0, NULL }, { "warmstart", NULL, 0, NULL },
		{ "refsafe", NULL, 0, NULL }, { "sensor", NULL, 0, NULL },
		{ "energy", NULL, 0, NULL }, { "fwdinv", NULL, 0, NULL },
		{ "sensornoise", NULL, 0, NULL }, { "multiccd", NULL, 0, NULL },
		{ "nativeccd", NULL, 0, NULL }, { "midphase", NULL, 0, NULL },
		{ "island", NULL, 0, NULL }, { "autoreset", NULL, 0, NULL },
		{ "invdiscrete", NULL, 0, NULL }, { "sleep", NULL, 0, NULL },
		{ "eulerdamp", "disable", MJ_OFF_EULERDAMP, NULL },
	};
	static const char *const values[] = { "disable", "enable", NULL };
	xmlAttrPtr a;
	const char *name;
	size_t i;

	r->flag_line = phys_node_where(f);
	for (a = f->properties; a; a = a->next) {
		name = (const char *)a->name;
		for (i = 0; i < sizeof flags / sizeof *flags; i++)
			if (strcmp(name, flags[i].name) == 0)
				break;
		if (i == sizeof flags / sizeof *flags)
			return mj_fail(r, f, "<flag %s>: not one of MuJoCo's "
			    "flags", name);
		if (keyword(r, f, -1, name, values, 0) < 0)
			return -1;
		if (strcmp(name, "multiccd") == 0)
			r->multiccd = strcmp(own_attr(f, name), "enable") == 0;
		if (!flags[i].off || strcmp(own_attr(f, name), flags[i].off))
			continue;
		if (flags[i].refused)
			return mj_fail(r, f, "<flag %s=\"%s\">: phys cannot run "
			    "it (%s); phys refuses the model", name,
			    flags[i].off, flags[i].refused);
		r->off |= flags[i].bits;
	}
	return 0;
}

static int
read_option(struct reader *r, xmlNodePtr o)
{
	double it = r->iterations, nit = r->noslip_iterations;
	xmlNodePtr n;
	int k;

	r->option_line = phys_node_where(o);
	if (number(r, o, -1, "timestep", &r->timestep) < 0 ||
	    numbers(r, o, -1, "gravity", r->gravity, 3) < 0 ||
	    number(r, o, -1, "tolerance", &r->tolerance) < 0 ||
	    number(r, o, -1, "impratio", &r->impratio) < 0 ||
	    number(r, o, -1, "iterations", &it) < 0 ||
	    number(r, o, -1, "noslip_iterations", &nit) < 0 ||
	    number(r, o, -1, "noslip_tolerance", &r->noslip_tolerance) < 0 ||
	    number(r, o, -1, "density", &r->density) < 0 ||
	    number(r, o, -1, "viscosity", &r->viscosity) < 0 ||
	    numbers(r, o, -1, "wind", r->wind, 3) < 0)
		return -1;
	if (r->density < 0 || r->viscosity < 0)
		return mj_fail(r, o, "%s", "density and viscosity must not be "
		    "negative");
	if (it < 0 || it > INT_MAX || nit < 0 || nit > INT_MAX)
		return mj_fail(r, o, "%s", "iterations and noslip_iterations "
		    "must be whole numbers from 0 to 2147483647");
	r->iterations = (int)it;
	r->noslip_iterations = (int)nit;
	if (phys_mjcf_later_value("integrator", own_attr(o, "integrator"))) {
		/* Menagerie's arms name it: refusing them helps no one */
		mj_note(r, o, "integrator=\"implicitfast\" is MuJoCo 2.3's (2.2.2 "
		    "has none): read as implicit, which differs from it only in "
		    "keeping the Coriolis terms");
		r->integrator = 2;
	} else if ((k = keyword(r, o, -1, "integrator", integrators,
	    r->integrator)) < 0) {
		return -1;
	} else {
		r->integrator = k;
	}
	if ((k = keyword(r, o, -1, "solver", solvers, r->solver)) < 0)
		return -1;
	r->solver = k;
	if ((k = keyword(r, o, -1, "cone", cones, r->cone)) < 0)
		return -1;
	r->cone = k;
	if (!(r->timestep > 0))
		return mj_fail(r, o, "%s", "timestep must be positive");
	for (n = phys_child(o, "flag"); n; n = phys_next(n, "flag"))
		if (read_flags(r, n) < 0)
			return -1;
	if (r->off & MJ_OFF_GRAVITY)
		r->gravity[0] = r->gravity[1] = r->gravity[2] = 0;
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
	r->autolimits_given |= own_attr(c, "autolimits") != NULL;
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
	if ((k = flag(r, c, -1, "fitaabb", r->fitaabb)) < 0)
		return -1;
	r->fitaabb = k;
	if ((v = own_attr(c, "meshdir")) || (v = own_attr(c, "assetdir"))) {
		free(r->meshdir);
		r->meshdir = phys_xstrdup(v);
	}
	return 0;
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
	struct phys_doc inc, *d;
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
		if (++r->nincludes > PHYS_MJCF_MAX_INCLUDES)
			return mj_fail(r, n, "more than %d includes (does a "
			    "file include itself?)", PHYS_MJCF_MAX_INCLUDES);
		if (!(file = own_attr(n, "file")))
			return mj_fail(r, n, "%s", "<include> has no file");
		dir = phys_path_dir(r->d->path);
		path = file[0] == '/' ? phys_xstrdup(file) :
		    phys_path_tidy(phys_xasprintf("%s/%s", dir, file));
		free(dir);
		rc = phys_doc_load(&inc, path);
		free(path);
		if (rc < 0) {
			phys_doc_free(&inc);
			return mj_fail(r, n, "<include file=\"%s\">: %s", file,
			    phys_error());
		}
		if (!inc.xml || !phys_node_is(inc.root, "mujoco")) {
			phys_doc_free(&inc);
			return mj_fail(r, n, "<include file=\"%s\">: its root "
			    "element must be <mujoco>", file);
		}
		first = NULL;
		d = r->d;
		for (c = phys_child(inc.root, NULL); c; c = phys_next(c, NULL)) {
			copy = phys_doc_adopt(d, &inc, c);
			xmlAddPrevSibling(n, copy);
			first = first ? first : copy;
		}
		phys_doc_free(&inc);
		xmlUnlinkNode(n);
		xmlFreeNode(n);
		next = first ? first : next;
	}
	return 0;
}

/*
 * The geom density of class cls, which MuJoCo weighs a mesh of the class
 * at: the density of the class's <geom>, else its parents'.
 */
static int
class_geom_density(struct reader *r, xmlNodePtr n, int cls, double *out)
{
	struct class_lookup q = { (const xmlChar *)"geom", false };
	xmlNodePtr at = n;
	const char *v = NULL;

	for (; !v && cls >= 0; cls = r->cls[cls].parent)
		v = class_attr(r, q, cls, "density", &at);
	*out = 1000;
	return parsed_numbers(r, at, "density", v, out, 1) < 0 ? -1 : 0;
}

/* The name MuJoCo gives a nameless asset of a file: the file's, less
 * the last extension (Allegro's link_0.0.stl is link_0.0). */
static char *
file_stem(const char *file)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;

	return phys_xasprintf("%.*s", (int)(strrchr(base, '.') ?
	    strrchr(base, '.') - base : (ptrdiff_t)strlen(base)), base);
}

/* An attribute's list of numbers, as floats (MuJoCo keeps them so). */
static int
float_list(struct reader *r, xmlNodePtr n, const char *name, double **out,
    size_t *len)
{
	const char *v = own_attr(n, name);
	size_t i;

	*len = 0;
	if (!v)
		return 0;
	*out = phys_parse_double_list(v, 3 * (size_t)PHYS_MESH_MAX_TRIANGLES,
	    len);
	if (!*out)
		return mj_fail(r, n, "%s=\"%.40s\": numbers expected (at most "
		    "%u triangles' worth)", name, v, PHYS_MESH_MAX_TRIANGLES);
	for (i = 0; i < *len; i++) {
		double x = (*out)[i];

		if (!isfinite((*out)[i] = phys_as_float(x)))
			return mj_fail(r, n, "%s=\"%.40s\": %g is past the "
			    "range of the float MuJoCo keeps it in", name, v,
			    x);
	}
	return 0;
}

/*
 * Whether the faces of mesh m (their indices checked) turn one way: no
 * edge runs from one vertex to another in two of them, those whose
 * corners coincide included. Else the first such edge goes to m->twice,
 * for a geom of the mesh to refuse (MuJoCo compiles, and refuses, only
 * the meshes its geoms use).
 */
static void
find_twice(struct mj_mesh *m)
{
	size_t nf = m->nface / 3 * 3;
	int64_t *edges = phys_xcalloc(nf + 1, sizeof *edges);
	int64_t nv = (int64_t)(m->nvertex / 3);
	size_t i, k, ne = 0;

	m->twice[0] = m->twice[1] = -1;
	for (i = 0; i < nf; i += 3)
		for (k = 0; k < 3; k++)
			edges[ne++] = (int64_t)m->face[i + k] * nv +
			    (int64_t)m->face[i + (k + 1) % 3];
	phys_keys_sort(edges, ne);
	for (i = 1; i < ne; i++)
		if (edges[i] == edges[i - 1]) {
			m->twice[0] = edges[i] / nv;
			m->twice[1] = edges[i] % nv;
			break;
		}
	free(edges);
}

/* Mesh k for a geom: -1 where MuJoCo refuses it compiled. */
static int
mesh_compiles(struct reader *r, int k)
{
	const struct mj_mesh *m = &r->meshes[k];

	if (m->twice[0] < 0)
		return 0;
	return phys_failat(phys_doc_file(r->d, m->line),
	    phys_where_line(m->line), "mesh '%s': faces have inconsistent "
	    "orientation (two run from vertex %lld to vertex %lld): MuJoCo "
	    "refuses it", m->name, (long long)m->twice[0],
	    (long long)m->twice[1]);
}

/*
 * A mesh given by its vertices (and faces: none, their convex hull, as
 * MuJoCo makes it), checked now as MuJoCo checks it.
 */
static int
mesh_lists(struct reader *r, xmlNodePtr n, struct mj_mesh *m)
{
	struct phys_mesh *mesh;

	if (float_list(r, n, "vertex", &m->vertex, &m->nvertex) < 0 ||
	    float_list(r, n, "face", &m->face, &m->nface) < 0)
		return -1;
	mesh = phys_mesh_of_lists(m->vertex, m->nvertex, m->face, m->nface,
	    v3(1, 1, 1));
	if (!mesh)
		return mj_fail(r, n, "mesh '%s': %s", m->name, phys_error());
	find_twice(m);
	phys_mesh_free(mesh);
	return 0;
}

/*
 * A mesh's refpos p and refquat q: MuJoCo 2.2.2 takes each vertex v as
 * scale (q* (v - p)), a rigid move of the scaled mesh where the scale is
 * uniform or q turns nothing (the tests check this against libmujoco).
 * Its inverse, into m->ref, is what a geom of the mesh composes with its
 * pose; another scale with a turn would change the mesh's shape, and is
 * refused.
 */
static int
mesh_ref(struct reader *r, xmlNodePtr n, struct mj_mesh *m)
{
	double p[3] = { 0, 0, 0 }, q[4] = { 1, 0, 0, 0 };
	const double *s = m->scale;
	phys_quat turn;
	int kp, kq;

	m->ref = PHYS_POSE_IDENTITY;
	if ((kp = numbers(r, n, -1, "refpos", p, 3)) < 0 ||
	    (kq = numbers(r, n, -1, "refquat", q, 4)) < 0)
		return -1;
	if (!kp && !kq)
		return 0;
	if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-28))
		return mj_fail(r, n, "mesh '%s': refquat is zero", m->name);
	turn = phys_quat_normalize((phys_quat){ q[0], q[1], q[2], q[3] });
	if ((turn.x != 0 || turn.y != 0 || turn.z != 0) &&
	    (s[0] != s[1] || s[1] != s[2]))
		return mj_fail(r, n, "mesh '%s': a refquat that turns the "
		    "mesh with a scale of unequal factors (%g %g %g), which "
		    "MuJoCo applies after it, changes the mesh's shape: phys "
		    "refuses the model", m->name, s[0], s[1], s[2]);
	m->ref = phys_pose_inv((phys_pose){ v3(s[0] * p[0], s[1] * p[1],
	    s[2] * p[2]), turn });
	return 0;
}

/*
 * A later MuJoCo's mesh inertia: legacy (2.2.2's, its default) or shell
 * (the mass on the faces), which phys computes as that MuJoCo does;
 * convex and exact, which it does not, are refused.
 */
static int
mesh_inertia(struct reader *r, xmlNodePtr n, int cls, struct mj_mesh *m)
{
	static const char *const words[] = { "legacy", "shell", "convex",
		"exact", NULL };
	int k = keyword(r, n, cls, "inertia", words, 0);

	if (k < 0)
		return -1;
	if (k > 1)
		return mj_fail(r, n, "mesh '%s': inertia=\"%s\", a later "
		    "MuJoCo's, which phys does not compute (it computes "
		    "legacy, 2.2.2's, and shell): phys refuses the model",
		    m->name, words[k]);
	m->shell = k == 1;
	return 0;
}

static int
read_mesh(struct reader *r, xmlNodePtr n, int cls)
{
	const char *name = own_attr(n, "name"), *file = own_attr(n, "file");
	struct mj_mesh *m;
	char *dir;

	if (!file && phys_child(n, "plugin"))
		return mj_fail(r, n, "mesh '%s' is made by a plugin: plugins "
		    "are not read; phys refuses the model", name ? name : "");
	if (file && (own_attr(n, "vertex") || own_attr(n, "face")))
		return mj_fail(r, n, "mesh '%s' has both a file and a vertex "
		    "or face list: MuJoCo 2.2.2 refuses that for an STL or "
		    "MSH file and mixes the lists of an OBJ's with the "
		    "attributes'; phys refuses the model", name ? name : "");
	if (!file && !own_attr(n, "vertex"))
		return mj_fail(r, n, "%s", "<mesh> has no file and no "
		    "vertices");
	PHYS_GROW_ONE(r->meshes, r->nmeshes);
	m = &r->meshes[r->nmeshes++];
	memset(m, 0, sizeof *m);
	m->twice[0] = m->twice[1] = -1;
	m->line = phys_node_where(n);
	m->name = name ? phys_xstrdup(name) : file ? file_stem(file) :
	    phys_xstrdup("");
	phys_name_table_add(&r->mesh_names, r->nmeshes - 1);
	m->scale[0] = m->scale[1] = m->scale[2] = 1;
	if (numbers(r, n, cls, "scale", m->scale, 3) < 0 ||
	    class_geom_density(r, n, cls, &m->density) < 0 ||
	    mesh_ref(r, n, m) < 0 || mesh_inertia(r, n, cls, m) < 0)
		return -1;
	if (!file)
		return mesh_lists(r, n, m);
	if (file[0] == '/')
		m->uri = phys_xstrdup(file);
	else if (r->meshdir)
		m->uri = phys_xasprintf("%s/%s", r->meshdir, file);
	else
		m->uri = phys_xstrdup(file);
	dir = phys_path_dir(r->d->path);
	m->file = m->uri[0] == '/' ? phys_xstrdup(m->uri) :
	    phys_path_tidy(phys_xasprintf("%s/%s", dir, m->uri));
	free(dir);
	return 0;
}

/* A height field of its geoms' size (MuJoCo checks them there). */
static int
read_hfield(struct reader *r, xmlNodePtr n)
{
	const char *file = own_attr(n, "file"), *name = own_attr(n, "name");
	struct mj_hfield h = { NULL, { 0, 0, 0, 0 },
		file || own_attr(n, "elevation"), NULL };
	size_t len = file ? strlen(file) : 0;
	int i;

	if (numbers(r, n, -1, "size", h.size, 4) < 0)
		return -1;
	for (i = 0; i < 4; i++)
		if (!(h.size[i] > 0))
			return mj_fail(r, n, "%s", "a height field needs 4 "
			    "positive sizes");
	/* a PNG, as MuJoCo tells one: by its name */
	if (len >= 4 && strcasecmp(file + len - 4, ".png") == 0)
		h.uri = file[0] == '/' || !r->meshdir ? phys_xstrdup(file) :
		    phys_xasprintf("%s/%s", r->meshdir, file);
	h.name = name ? phys_xstrdup(name) : file ? file_stem(file) : NULL;
	PHYS_GROW_ONE(r->hfields, r->nhfields);
	r->hfields[r->nhfields++] = h;
	phys_name_table_add(&r->hfield_names, r->nhfields - 1);
	return 0;
}

/* MuJoCo's colour of a geom, and of a material, where none is given */
static const double geom_rgba[4] = { 0.5, 0.5, 0.5, 1 };
static const double material_rgba[4] = { 1, 1, 1, 1 };

/* A <material>: its name and colour, all a geom takes of it (its
 * texture and lighting are for a renderer). */
static int
read_material(struct reader *r, xmlNodePtr n, int cls)
{
	struct mj_material m = { NULL, { 0 } };

	if (!own_attr(n, "name"))
		return 0;	/* no geom can name it */
	memcpy(m.rgba, material_rgba, sizeof m.rgba);
	if (numbers(r, n, cls, "rgba", m.rgba, 4) < 0)
		return -1;
	m.name = phys_xstrdup(own_attr(n, "name"));
	PHYS_GROW_ONE(r->materials, r->nmaterials);
	r->materials[r->nmaterials++] = m;
	phys_name_table_add(&r->material_names, r->nmaterials - 1);
	return 0;
}

static int
read_assets(struct reader *r, xmlNodePtr a)
{
	xmlNodePtr n;
	int cls;

	for (n = phys_child(a, NULL); n; n = phys_next(n, NULL)) {
		if (class_of(r, n, r->main, &cls) < 0)
			return -1;
		if (phys_node_is(n, "mesh") && read_mesh(r, n, cls) < 0)
			return -1;
		if (phys_node_is(n, "hfield") && read_hfield(r, n) < 0)
			return -1;
		if (phys_node_is(n, "material") && read_material(r, n, cls) < 0)
			return -1;
	}
	return 0;
}

/*
 * An hfield geom whose field has no heights (no file, no elevation:
 * MuJoCo's are then all 0, as a model built to be filled in at run time
 * has them): the box it is, its top at the geom's frame, its base below;
 * any other is not read.
 */
static int
hfield_box(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	const char *name = attr(r, n, cls, "hfield");
	int k = phys_name_table_find(&r->hfield_names, name);
	size_t i = (size_t)k;

	if (k < 0)
		return mj_fail(r, n, "hfield geom: no hfield '%s'", name ?
		    name : "");
	if (r->hfields[i].uri) {
		/* heights from 0 at its frame up to the field's elevation */
		g->hfield = (int)i;
		g->size[0] = r->hfields[i].size[0];
		g->size[1] = r->hfields[i].size[1];
		g->size[2] = r->hfields[i].size[2];
		return 0;
	}
	if (r->hfields[i].data)
		return mj_fail(r, n, "hfield geom: height field '%s' has "
		    "heights inline or in MuJoCo's own binary file, which phys "
		    "does not read (a PNG it reads)", name);
	g->type = PHYS_MJ_BOX;
	g->size[0] = r->hfields[i].size[0];
	g->size[1] = r->hfields[i].size[1];
	g->size[2] = r->hfields[i].size[3] / 2;
	mj_note(r, n, "its height field has no heights (all 0 in MuJoCo): "
	    "read as the box it is, its top at the geom's frame");
	return 0;
}

static int
mesh_find(const struct reader *r, const char *name)
{
	return phys_name_table_find(&r->mesh_names, name);
}

/* ---- geoms, joints, sites ---- */

/* A body or joint past the world's bound: the model is read no further,
 * as a URDF's or SDF world's is not. */
static int
past_limit(struct reader *r, xmlNodePtr n, int max, const char *what)
{
	return mj_fail(r, n, "more than %d %s in the world: the limit "
	    "(LIMITS in phys(7))", max, what);
}

/*
 * Element n's name (NULL: it has none), suffixed as the <replicate> copy
 * it is read in names it; a name given in a replicate is kept for the
 * elements outside that name it (check_replicated).
 */
static char *
own_name(struct reader *r, xmlNodePtr n)
{
	const char *name = own_attr(n, "name");

	if (!name)
		return NULL;
	if (!r->suffix)
		return phys_xstrdup(name);
	PHYS_GROW_ONE(r->replicated, r->nreplicated);
	r->replicated[r->nreplicated++] = (struct mj_replicated){ name,
	    phys_node_where(n) };
	return phys_xasprintf("%s%s", name, r->suffix);
}

static const struct mj_mesh_measure *measure_mesh(struct reader *r,
    struct mj_mesh *m, bool shell);

/* How far v is from c across z. */
static double
across(phys_vec3 v, phys_vec3 c)
{
	return sqrt((v.x - c.x) * (v.x - c.x) + (v.y - c.y) * (v.y - c.y));
}

/* A rotation's matrix, each term as MuJoCo's quaternion's makes it. */
static phys_mat3
mujoco_mat(phys_quat q)
{
	double w = q.w * q.w, x = q.x * q.x, y = q.y * q.y, z = q.z * q.z;

	return (phys_mat3){ { { w + x - y - z, 2 * (q.x * q.y - q.w * q.z),
	    2 * (q.x * q.z + q.w * q.y) }, { 2 * (q.x * q.y + q.w * q.z),
	    w - x + y - z, 2 * (q.y * q.z - q.w * q.x) },
	    { 2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x),
	    w - x - y + z } } };
}

/* Mesh m not read or not measured: said at its own element, as MuJoCo
 * names the mesh (a geom of it may be far from it). */
static int
mesh_fail(struct reader *r, const struct mj_mesh *m)
{
	char *why = phys_xstrdup(phys_error());

	phys_failat(phys_doc_file(r->d, m->line), phys_where_line(m->line),
	    "mesh '%s': %s", m->name, why);
	free(why);
	return -1;
}

/* Mesh m as MuJoCo reads it: its lists, else its file (an OBJ's first
 * object only). */
static struct phys_mesh *
mujoco_mesh(const struct mj_mesh *m)
{
	struct phys_mesh_spec spec = { .path = m->file, .first_object = true,
		.scale = { m->scale[0], m->scale[1], m->scale[2] } };

	if (!m->file)
		return phys_mesh_of_lists(m->vertex, m->nvertex, m->face,
		    m->nface, spec.scale);
	return phys_mesh_load(&spec);
}

/*
 * The centre (cen) and half-sides (half) of the box that bounds mesh m's
 * vertices in the frame of its centre and principal axes, where MuJoCo
 * 2.2.2 keeps them (as floats); the farthest a vertex is from that
 * centre across z (rxy) and in all (r3); and the half-length (cap) of
 * the capsule of radius rxy that holds them all.
 */
struct mesh_extent {
	phys_vec3 cen;
	double half[3], rxy, r3, cap;
};

static int
mesh_extent(struct reader *r, const struct mj_mesh *m,
    const struct mj_mesh_measure *at, struct mesh_extent *x)
{
	phys_mat3 R = mujoco_mat(phys_quat_conj(at->frame.q));
	struct phys_mesh *mesh = mujoco_mesh(m);
	double lo[3] = { HUGE_VAL, HUGE_VAL, HUGE_VAL }, p[3], c[3], dxy, dz;
	double h;
	phys_vec3 *v;
	size_t i;
	int k;

	if (!mesh)
		return mesh_fail(r, m);
	v = phys_xcalloc(mesh->nv ? mesh->nv : 1, sizeof *v);
	for (k = 0; k < 3; k++)
		x->half[k] = -HUGE_VAL;
	for (i = 0; i < mesh->nv; i++) {
		/* centred, then turned by the matrix of the axes' inverse,
		 * each kept as floats, as MuJoCo 2.2.2 keeps them: a float's
		 * last bit is 3e-8 of a side of 30 cm */
		for (k = 0; k < 3; k++)
			p[k] = phys_as_float(phys_as_float(mesh->v[3 * i +
			    k]) - (k == 0 ? at->frame.p.x : k == 1 ?
			    at->frame.p.y : at->frame.p.z));
		for (k = 0; k < 3; k++)
			c[k] = phys_as_float(R.m[k][0] * p[0] +
			    R.m[k][1] * p[1] + R.m[k][2] * p[2]);
		v[i] = v3(c[0], c[1], c[2]);
		for (k = 0; k < 3; k++) {
			lo[k] = fmin(lo[k], c[k]);
			x->half[k] = fmax(x->half[k], c[k]);
		}
	}
	x->cen = v3((lo[0] + x->half[0]) / 2, (lo[1] + x->half[1]) / 2,
	    (lo[2] + x->half[2]) / 2);
	x->half[0] -= x->cen.x, x->half[1] -= x->cen.y;
	x->half[2] -= x->cen.z;
	x->rxy = x->r3 = x->cap = 0;
	for (i = 0; i < mesh->nv; i++) {
		x->r3 = fmax(x->r3, v3_norm(v3_sub(v[i], x->cen)));
		x->rxy = fmax(x->rxy, across(v[i], x->cen));
	}
	for (i = 0; i < mesh->nv; i++) {
		/* the cap's height over a vertex's distance across z */
		dxy = across(v[i], x->cen);
		dz = fabs(v[i].z - x->cen.z);
		h = x->rxy * sin(acos(fmin(1, dxy / x->rxy)));
		x->cap = fmax(x->cap, dz - h);
	}
	free(v);
	phys_mesh_free(mesh);
	return 0;
}

/*
 * A sphere, capsule, cylinder, ellipsoid or box of a mesh: sized to the
 * mesh, at its centre and along its principal axes, as MuJoCo 2.2.2
 * fits it: to the mesh's inertia box (a capsule's radius the mean of two
 * sides, its half-length the third less half the radius), or with
 * <compiler fitaabb> to the box bounding its vertices (a sphere and a
 * capsule to hold them all, the box's centre taken in the geom's frame
 * before the axes turn it, as MuJoCo takes it); times fitscale. It is
 * then a geom of that shape, the mesh no part of it (the frame and box
 * the mesh's inertia gives: of its faces where it is a later MuJoCo's
 * shell, as that MuJoCo fits it).
 */
static int
fit_to_mesh(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	struct mj_mesh *m = &r->meshes[g->mesh];
	struct mesh_extent x = { { 0, 0, 0 }, { 0, 0, 0 }, 0, 0, 0 };
	const struct mj_mesh_measure *mm;
	double scale = 1, *s = g->size;
	const double *b;
	phys_pose at;
	int i;

	if (number(r, n, cls, "fitscale", &scale) < 0 ||
	    !(mm = measure_mesh(r, m, m->shell)))
		return -1;
	b = mm->box;
	if (g->type == PHYS_MJ_PLANE || g->type == PHYS_MJ_HFIELD)
		return mj_fail(r, n, "a %s cannot be fitted to mesh '%s'",
		    g->type == PHYS_MJ_PLANE ? "plane" : "height field",
		    m->name);
	at = phys_pose_mul(m->ref, mm->frame);
	if (r->fitaabb) {
		if (m->ref.q.x != 0 || m->ref.q.y != 0 || m->ref.q.z != 0)
			return mj_fail(r, n, "a geom fitted to the box about "
			    "mesh '%s' (fitaabb), whose refquat turns it: "
			    "phys refuses the model", m->name);
		if (mesh_extent(r, m, mm, &x) < 0)
			return -1;
		x.cen = phys_pose_apply(m->ref, x.cen);
		at.p = x.cen;
		b = x.half;
	}
	switch (g->type) {
	case PHYS_MJ_SPHERE:
		s[0] = r->fitaabb ? x.r3 : (b[0] + b[1] + b[2]) / 3;
		break;
	case PHYS_MJ_CAPSULE:
		s[0] = r->fitaabb ? x.rxy : (b[0] + b[1]) / 2;
		s[1] = r->fitaabb ? x.cap : fmax(0, b[2] - s[0] / 2);
		break;
	case PHYS_MJ_CYLINDER:
		s[0] = r->fitaabb ? x.rxy : (b[0] + b[1]) / 2;
		s[1] = b[2];
		break;
	default:	/* an ellipsoid, a box */
		memcpy(s, b, 3 * sizeof *s);
		break;
	}
	for (i = 0; i < 3; i++)
		s[i] *= scale;
	g->pose = phys_pose_mul(g->pose, at);
	g->mesh = -1;
	return 0;
}

static int
geom_shape(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	static const char *const types[] = { "plane", "hfield", "sphere",
		"capsule", "ellipsoid", "cylinder", "box", "mesh", NULL };
	const char *mesh;
	double ft[6];
	phys_vec3 v;
	bool hfield;
	int k;

	if ((k = keyword(r, n, cls, "type", types, PHYS_MJ_SPHERE)) < 0)
		return -1;
	g->type = k;
	hfield = k == PHYS_MJ_HFIELD;
	g->mesh = -1;
	g->hfield = -1;
	if (some_numbers(r, n, cls, "size", g->size, 0, 3) < 0)
		return -1;
	if (g->type == PHYS_MJ_HFIELD && hfield_box(r, n, cls, g) < 0)
		return -1;
	mesh = attr(r, n, cls, "mesh");
	if (g->type == PHYS_MJ_MESH && (!mesh ||
	    (g->mesh = mesh_find(r, mesh)) < 0))
		return mj_fail(r, n, "mesh geom: no mesh '%s'", mesh ? mesh :
		    "");
	if (g->type != PHYS_MJ_MESH && mesh && (g->mesh = mesh_find(r,
	    mesh)) < 0)
		return mj_fail(r, n, "%s geom fitted to mesh '%s': no such "
		    "mesh", types[g->type], mesh);
	if (g->mesh >= 0 && mesh_compiles(r, g->mesh) < 0)
		return -1;
	if ((k = numbers(r, n, cls, "fromto", ft, 6)) < 0)
		return -1;
	if (k && mesh)
		return mj_fail(r, n, "fromto of a geom of mesh '%s': MuJoCo "
		    "allows none", mesh);
	if (!k && (position(r, n, cls, &g->pose.p) < 0 ||
	    orientation(r, n, cls, &g->pose.q) < 0))
		return -1;
	if (g->type != PHYS_MJ_MESH && mesh)
		return fit_to_mesh(r, n, cls, g);
	if (g->type == PHYS_MJ_MESH)
		g->pose = phys_pose_mul(g->pose, r->meshes[g->mesh].ref);
	if (!k && hfield && g->hfield < 0)	/* a box: under its frame */
		g->pose = phys_pose_mul(g->pose, (phys_pose){ { 0, 0,
		    -g->size[2] }, PHYS_QUAT_IDENTITY });
	if (!k)
		return 0;
	if (hfield || (g->type != PHYS_MJ_CAPSULE &&
	    g->type != PHYS_MJ_CYLINDER && g->type != PHYS_MJ_ELLIPSOID &&
	    g->type != PHYS_MJ_BOX))
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

/* A mesh's inertia frame and box, MuJoCo's way, once per mesh and
 * measure: of its faces (shell) or its volume. */
static const struct mj_mesh_measure *
measure_mesh(struct reader *r, struct mj_mesh *m, bool shell)
{
	struct mj_mesh_measure *x = &m->measure[shell];
	struct phys_mesh *mesh;
	int rc;

	if (x->done)
		return x;
	if (!(mesh = mujoco_mesh(m)))
		return mesh_fail(r, m), NULL;
	if (mesh->left_out && !r->o->quiet)
		phys_warnat_once(phys_doc_file(r->d, m->line),
		    phys_where_line(m->line), "mesh '%s': %s holds %zu more "
		    "object%s after its first, which MuJoCo 2.2.2 leaves out "
		    "(it reads an OBJ's first object): so does phys, for the "
		    "mesh's mass and collisions", m->name, m->uri,
		    mesh->left_out, mesh->left_out > 1 ? "s" : "");
	rc = phys_mjcf_mesh_box(mesh->v, mesh->nv, mesh->tri, mesh->ntri,
	    m->density, shell, &x->frame.p, &x->frame.q, x->box, &x->amount);
	phys_mesh_free(mesh);
	if (rc < 0)
		return mesh_fail(r, m), NULL;
	x->done = true;
	return x;
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

/*
 * A mesh geom's shellinertia: MuJoCo 3.0 to 3.2 weighed the mesh's faces
 * for it, MuJoCo 3.3 on refuses it and asks for the mesh's
 * inertia="shell"; phys reads it as the earlier did, saying so once.
 */
static void
shell_of_mesh(struct reader *r, xmlNodePtr n, const struct mj_geom *g)
{
	if (r->shell_mesh_said || r->meshes[g->mesh].shell)
		return;
	r->shell_mesh_said = true;
	mj_notef(r, n, "shellinertia of a geom of mesh '%s': read as MuJoCo "
	    "3.0 to 3.2 read it, the mass on the mesh's faces (MuJoCo 3.3 "
	    "on refuses it and reads the mesh's own inertia=\"shell\")",
	    r->meshes[g->mesh].name);
}

static int
geom_mass(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	const struct mj_mesh_measure *mm;
	double density = 1000, mass, vol;
	int k;

	if (number(r, n, cls, "density", &density) < 0 ||
	    (k = number(r, n, cls, "mass", &mass)) < 0)
		return -1;
	g->ipose = g->pose;
	if (g->type == PHYS_MJ_MESH) {
		if (!g->inertia)
			return 0;
		if (g->shell)
			shell_of_mesh(r, n, g);
		if (!(mm = measure_mesh(r, &r->meshes[g->mesh],
		    r->meshes[g->mesh].shell || g->shell)))
			return -1;
		g->ipose = phys_pose_mul(g->pose, mm->frame);
		vol = mm->amount;
		g->mass = k && vol > 1e-15 ? mass : density * vol;
		phys_mjcf_shape_diag(g->type, mm->box, g->mass, false,
		    g->diag);
	} else {
		vol = phys_mjcf_volume(g->type, g->size, g->shell);
		g->mass = k && vol > 1e-15 ? mass : density * vol;
		phys_mjcf_shape_diag(g->type, g->size, g->mass, g->shell,
		    g->diag);
	}
	if (g->mass < 0 || density < 0)
		return mj_fail(r, n, "%s", "mass or density is negative");
	return 0;
}

/*
 * The colour MuJoCo draws geom n in: its rgba where that is not the
 * default, else its material's, as MuJoCo's renderer chooses; a
 * material of no such name is refused, as MuJoCo's compiler refuses it.
 */
static int
geom_colour(struct reader *r, xmlNodePtr n, int cls, struct mj_geom *g)
{
	const char *mat = attr(r, n, cls, "material");
	int k;

	memcpy(g->rgba, geom_rgba, sizeof g->rgba);
	if (numbers(r, n, cls, "rgba", g->rgba, 4) < 0)
		return -1;
	if (!mat)
		return 0;
	if ((k = phys_name_table_find(&r->material_names, mat)) < 0)
		return mj_fail(r, n, "material '%.40s' not found", mat);
	if (default_rgba(g->rgba))
		memcpy(g->rgba, r->materials[k].rgba, sizeof g->rgba);
	return 0;
}

static int
read_geom(struct reader *r, xmlNodePtr n, int cls, int body,
    bool needs_inertia)
{
	struct mj_geom g;
	double ct = 1, ca = 1, gr = 0, cd = 3, pr = 0;
	int sh;

	memset(&g, 0, sizeof g);
	g.pose = PHYS_POSE_IDENTITY;
	g.line = phys_node_where(n);
	g.friction[0] = 1;
	g.friction[1] = 0.005;
	g.friction[2] = 0.0001;
	memcpy(g.solref, phys_mjcf_solref, sizeof g.solref);
	memcpy(g.solimp, phys_mjcf_solimp, sizeof g.solimp);
	g.solmix = 1;
	if ((sh = flag(r, n, cls, "shellinertia", 0)) < 0)
		return -1;
	g.shell = sh;
	if (geom_shape(r, n, cls, &g) < 0 ||
	    number(r, n, cls, "contype", &ct) < 0 ||
	    number(r, n, cls, "conaffinity", &ca) < 0 ||
	    number(r, n, cls, "group", &gr) < 0 ||
	    number(r, n, cls, "condim", &cd) < 0 ||
	    number(r, n, cls, "priority", &pr) < 0 ||
	    number(r, n, cls, "solmix", &g.solmix) < 0 ||
	    number(r, n, cls, "margin", &g.margin) < 0 ||
	    number(r, n, cls, "gap", &g.gap) < 0 ||
	    some_numbers(r, n, cls, "friction", g.friction, 1, 3) < 0 ||
	    some_numbers(r, n, cls, "solref", g.solref, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimp", g.solimp, 1, 5) < 0)
		return -1;
	if (check_size(r, n, &g) < 0)
		return -1;
	g.collides = (ct != 0 || ca != 0) && !(r->off & MJ_OFF_CONTACT);
	g.contype = (int)ct & 0xffff;
	g.conaffinity = (int)ca & 0xffff;
	if ((ct < 0 || ct > 0xffff || ca < 0 || ca > 0xffff) && !r->o->quiet)
		phys_warnat_once(phys_doc_file(r->d, g.line),
		    phys_where_line(g.line), "%s", "contype and conaffinity "
		    "above 16 bits: only their low 16 bits are kept (SDF's "
		    "bitmasks)");
	if (!g.collides && r->discardvisual)
		return 0;
	if (geom_colour(r, n, cls, &g) < 0)
		return -1;
	g.group = (int)gr;
	g.condim = (int)cd;
	g.priority = (int)pr;
	if (g.solmix < 0)
		return mj_fail(r, n, "solmix=\"%g\": must not be negative",
		    g.solmix);
	if (cd != 1 && cd != 3 && cd != 4 && cd != 6)
		return mj_fail(r, n, "condim=\"%g\": 1, 3, 4 or 6", cd);
	g.inertia = needs_inertia && body >= 0 && g.group >= r->igroup[0] &&
	    g.group <= r->igroup[1];
	if (fluid_on(r) && attr(r, n, cls, "fluidshape") &&
	    strcmp(attr(r, n, cls, "fluidshape"), "ellipsoid") == 0)
		return mj_fail(r, n, "%s", "fluidshape=\"ellipsoid\": MuJoCo's "
		    "ellipsoid fluid model is not read (phys applies its "
		    "inertia-box model to every body); phys refuses the model");
	/* a height field weighs nothing in MuJoCo */
	if (attr(r, n, cls, "type") && strcmp(attr(r, n, cls, "type"),
	    "hfield") == 0)
		g.inertia = false;
	if (geom_mass(r, n, cls, &g) < 0)
		return -1;
	g.name = own_name(r, n);
	g.body = body;
	PHYS_GROW_ONE(r->geoms, r->ngeoms);
	r->geoms[r->ngeoms++] = g;
	return 0;
}

/*
 * A range given without its limited attribute (what: "joint", ...):
 * limited under autolimits. MuJoCo 2.2.2 refuses it without; a later
 * MuJoCo (2.3.3 on), whose autolimits is on unless <compiler> turns it
 * off, limits it, and so does phys where the file does not turn it off,
 * saying so once. 0, or -1 where it is refused.
 */
static int
unlimited_range(struct reader *r, xmlNodePtr n, const char *what,
    const char *range, const char *limited)
{
	if (r->autolimits)
		return 0;
	if (r->autolimits_given)
		return mj_fail(r, n, "%s has %s but not %s: MuJoCo refuses it "
		    "under autolimits=\"false\"", what, range, limited);
	if (!r->autolimits_said)
		mj_notef(r, n, "%s has %s but not %s, which MuJoCo 2.2.2 "
		    "refuses: read as MuJoCo reads it from 2.3.3 on, whose "
		    "autolimits is on unless <compiler> turns it off: limited, "
		    "as is every such range of the model", what, range,
		    limited);
	r->autolimits_said = true;
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
	has = has && !phys_mjcf_no_range(j->range);
	if (k == 2 && has && unlimited_range(r, n, "joint", "range",
	    "limited") < 0)
		return -1;
	j->limited = k == 1 || (k == 2 && has);
	/* MuJoCo compiles a free joint unlimited, whatever its class says
	 * (a default limited="true" reaches it); one it says itself is
	 * said */
	if (j->type == MJ_FREE && j->limited) {
		j->limited = false;
		if (own_attr(n, "limited") || own_attr(n, "range"))
			mj_notef(r, n, "%s", "a free joint's limits: MuJoCo "
			    "takes none, and neither does phys");
	}
	if (j->limited && j->type != MJ_BALL && j->range[0] >= j->range[1])
		return mj_fail(r, n, "%s", "range[0] should be smaller than "
		    "range[1]");
	if (has && (j->type == MJ_HINGE || j->type == MJ_BALL)) {
		j->range[0] = angle(r, j->range[0]);
		j->range[1] = angle(r, j->range[1]);
	}
	return 0;
}

/* A joint's limit softness (MuJoCo's defaults where the file and its
 * classes give none); the friction loss's, which phys does not keep,
 * named where it differs from the default. */
static int
joint_softness(struct reader *r, xmlNodePtr n, int cls, struct mj_joint *j)
{
	const double *ref = phys_mjcf_solref, *imp = phys_mjcf_solimp;
	double fref[2], fimp[5];

	memcpy(j->solreflimit, ref, sizeof j->solreflimit);
	memcpy(j->solimplimit, imp, sizeof j->solimplimit);
	memcpy(fref, ref, sizeof fref);
	memcpy(fimp, imp, sizeof fimp);
	if (some_numbers(r, n, cls, "solreflimit", j->solreflimit, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimplimit", j->solimplimit, 1, 5) < 0 ||
	    number(r, n, cls, "margin", &j->margin) < 0 ||
	    some_numbers(r, n, cls, "solreffriction", fref, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimpfriction", fimp, 1, 5) < 0)
		return -1;
	if (j->frictionloss != 0 && (memcmp(fref, ref, sizeof fref) != 0 ||
	    memcmp(fimp, imp, sizeof fimp) != 0))
		mj_note(r, n, "solreffriction and solimpfriction are not kept: "
		    "its friction loss is as soft as MuJoCo's default");
	return 0;
}

static int limited_range(struct reader *r, xmlNodePtr n, int cls,
    const char *what, double range[2]);

/*
 * A later MuJoCo's actuatorfrcrange: the sum of the forces the joint's
 * actuators put on it is held to it (their gravcomp too where
 * actuatorgravcomp says so), in force as any range (limited_range).
 */
static int
actuator_force_range(struct reader *r, xmlNodePtr n, int cls,
    struct mj_joint *j)
{
	int k, gc;

	if ((k = limited_range(r, n, cls, "actuatorfrc", j->frcrange)) < 0 ||
	    (gc = flag(r, n, cls, "actuatorgravcomp", 0)) < 0)
		return -1;
	j->frclimited = k;
	j->actgravcomp = gc;
	if (j->frclimited && !(j->frcrange[0] <= 0 && j->frcrange[1] >= 0))
		return mj_fail(r, n, "actuatorfrcrange=\"%g %g\": MuJoCo "
		    "takes a range about 0", j->frcrange[0], j->frcrange[1]);
	if (j->type < MJ_SLIDE && j->frclimited)
		return mj_fail(r, n, "%s", "actuatorfrcrange on a free or ball "
		    "joint is not read: phys refuses the model");
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
	j.line = phys_node_where(n);
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
	    number(r, n, cls, "frictionloss", &j.frictionloss) < 0 ||
	    numbers(r, n, cls, "springdamper", j.springdamper, 2) < 0 ||
	    joint_softness(r, n, cls, &j) < 0))
		return -1;
	if (!free && actuator_force_range(r, n, cls, &j) < 0)
		return -1;
	if (j.type < MJ_SLIDE && j.springdamper[0] > 0 &&
	    j.springdamper[1] > 0)
		return mj_fail(r, n, "%s", "springdamper of a free or ball "
		    "joint: phys keeps no stiffness or damping of one: phys "
		    "refuses the model");
	if (r->off & MJ_OFF_LIMIT)
		j.limited = false;
	if (r->off & MJ_OFF_FRICTIONLOSS)
		j.frictionloss = 0;
	if (r->off & MJ_OFF_PASSIVE)
		j.damping = j.stiffness = 0;
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
	if (r->njoints >= PHYS_MAX_JOINTS)
		return past_limit(r, n, PHYS_MAX_JOINTS, "joints");
	j.name = own_name(r, n);
	PHYS_GROW_ONE(r->joints, r->njoints);
	r->joints[r->njoints++] = j;
	phys_name_table_add(&r->joint_names, r->njoints - 1);
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
	s.name = own_name(r, n);
	s.body = body;
	s.line = phys_node_where(n);
	PHYS_GROW_ONE(r->sites, r->nsites);
	r->sites[r->nsites++] = s;
	phys_name_table_add(&r->site_names, r->nsites - 1);
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

/*
 * Where a body's children are read from: the body (or the world body),
 * or a later MuJoCo's <frame> in it, which moves what it holds by its
 * pose and gives it its childclass.
 */
struct holder {
	int me;			/* the body, -1 the world's */
	int childclass;
	int depth;		/* of the body */
	bool needs_inertia;	/* its geoms weigh */
	phys_pose frame;	/* in the body's frame */
	const char *in;		/* the <frame> or <replicate> it is in */
};

/* The children's passes: geoms first (the body's inertia needs them),
 * then joints and sites, then bodies. */
enum { PASS_GEOMS, PASS_REST, PASS_BODIES };

static int read_children(struct reader *r, xmlNodePtr n,
    const struct holder *h, int pass);

/* A later MuJoCo's <frame>: what it holds, read as the body's. */
static int
read_frame(struct reader *r, xmlNodePtr n, const struct holder *h,
    int pass)
{
	struct holder in = *h;
	phys_pose local = PHYS_POSE_IDENTITY;
	const char *cc = own_attr(n, "childclass");

	if (cc && (in.childclass = class_find(r, cc)) < 0)
		return mj_fail(r, n, "unknown childclass '%s'", cc);
	if (position(r, n, -1, &local.p) < 0 ||
	    orientation(r, n, -1, &local.q) < 0)
		return -1;
	in.frame = phys_pose_mul(h->frame, local);
	in.in = (const char *)n->name;
	return read_children(r, n, &in, pass);
}

static const char *
replicated_name_of(size_t i, const void *ctx)
{
	return ((const struct reader *)ctx)->replicated[i].name;
}

/* What n holds, at any depth, naming a name of o. */
static int
names_replicated(struct reader *r, const struct phys_name_order *o,
    xmlNodePtr n)
{
	xmlAttrPtr p;
	xmlNodePtr c;
	const char *v;
	int i;

	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL)) {
		for (p = c->properties; p; p = p->next) {
			if (p->ns || xmlStrEqual(p->name, BAD_CAST "name") ||
			    xmlStrEqual(p->name, BAD_CAST "class") ||
			    !(v = own_attr(c, (const char *)p->name)) ||
			    (i = phys_name_order_find(o, v)) < 0)
				continue;
			return mj_fail(r, c, "<%s %s=\"%s\">: '%s' is named in "
			    "a <replicate> (line %ld), which a later MuJoCo "
			    "copies this <%s> with, each copy naming one of "
			    "its copies: phys does not copy it: phys refuses "
			    "the model", c->name, p->name, v, v,
			    phys_where_line(r->replicated[i].line), c->name);
		}
		if (names_replicated(r, o, c) < 0)
			return -1;
	}
	return 0;
}

/*
 * An actuator, tendon, equality or contact naming what a <replicate>
 * holds, by the name in the file: refused (MuJoCo makes a copy of it for
 * each copy there).
 */
static int
check_replicated(struct reader *r, xmlNodePtr root)
{
	static const char *const outside[] = { "actuator", "tendon",
		"equality", "contact" };
	struct phys_name_order o;
	xmlNodePtr n;
	size_t i;
	int rc = 0;

	if (!r->nreplicated)
		return 0;
	phys_name_order_make(&o, r->nreplicated, replicated_name_of, r);
	for (i = 0; i < sizeof outside / sizeof *outside && rc == 0; i++)
		for (n = phys_child(root, outside[i]); n && rc == 0;
		    n = phys_next(n, outside[i]))
			rc = names_replicated(r, &o, n);
	phys_name_order_free(&o);
	return rc;
}

/* The elements n holds, at any depth (a file's: a bounded number). */
static size_t
elements_in(xmlNodePtr n)
{
	xmlNodePtr c;
	size_t k = 0;

	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL))
		k += 1 + elements_in(c);
	return k;
}

/* The count of a <replicate>: 0, or -1 said. */
static int
replicate_count(struct reader *r, xmlNodePtr n, int *count)
{
	double c;
	int k;

	if ((k = numbers(r, n, -1, "count", &c, 1)) < 0)
		return -1;
	if (!k)
		return mj_fail(r, n, "%s", "<replicate> without a count");
	if (!(c >= 1 && c <= MJ_MAX_COPIES && c == floor(c)))
		return mj_fail(r, n, "count=\"%g\": a whole number from 1 to "
		    "%d", c, MJ_MAX_COPIES);
	*count = (int)c;
	return 0;
}

/*
 * A later MuJoCo's <replicate> (3.1.5 on): count copies of what it
 * holds, copy i at the sum of the offsets of the copies before it, each
 * turned as its copy is, and turned by i times euler; the names in copy
 * i suffixed with sep and i, padded to the digits of count (an inner
 * replicate's suffix before an outer one's), as that MuJoCo reads it.
 */
static int
read_replicate(struct reader *r, xmlNodePtr n, const struct holder *h,
    int pass)
{
	struct holder in = *h;
	const char *cc = own_attr(n, "childclass"), *sep = own_attr(n, "sep");
	double off[3] = { 0, 0, 0 }, euler[3] = { 0, 0, 0 }, e[3];
	char *outer = r->suffix;
	phys_vec3 at = v3(0, 0, 0);
	phys_quat q;
	int count = 0, i, k, rc = 0;

	if (cc && (in.childclass = class_find(r, cc)) < 0)
		return mj_fail(r, n, "unknown childclass '%s'", cc);
	if (replicate_count(r, n, &count) < 0 ||
	    numbers(r, n, -1, "offset", off, 3) < 0 ||
	    numbers(r, n, -1, "euler", euler, 3) < 0)
		return -1;
	/* each copy counted once, in the first pass */
	if (pass == PASS_GEOMS && (r->copies += (size_t)count *
	    elements_in(n)) > MJ_MAX_COPIES)
		return mj_fail(r, n, "<replicate>: more than %d elements "
		    "copied in the model: the limit (LIMITS in phys(7))",
		    MJ_MAX_COPIES);
	in.in = (const char *)n->name;
	for (i = 0; i < count && rc == 0; i++) {
		for (k = 0; k < 3; k++)
			e[k] = i * euler[k];
		euler_quat(r, n, e, &q);
		in.frame = phys_pose_mul(h->frame, (phys_pose){ at, q });
		at = v3_add(at, phys_quat_rotate(q, v3(off[0], off[1],
		    off[2])));
		r->suffix = phys_xasprintf("%s%0*d%s", sep ? sep : "",
		    snprintf(NULL, 0, "%d", count), i, outer ? outer : "");
		rc = read_children(r, n, &in, pass);
		free(r->suffix);
		r->suffix = outer;
	}
	return rc;
}

/* The last geom or site read, moved by its frame. */
static void
framed(phys_pose f, phys_pose *pose, phys_pose *ipose)
{
	*pose = phys_pose_mul(f, *pose);
	if (ipose)
		*ipose = phys_pose_mul(f, *ipose);
}

static int
read_other(struct reader *r, xmlNodePtr c, const struct holder *h, int cls)
{
	size_t i;

	if (phys_node_is(c, "joint") || phys_node_is(c, "freejoint")) {
		if (h->me < 0)
			return mj_fail(r, c, "%s", "the world body takes no "
			    "joint");
		if (h->in)
			return mj_fail(r, c, "a joint in a <%s> is not read: "
			    "phys refuses the model", h->in);
		if (read_joint(r, c, cls, phys_node_is(c, "freejoint")) < 0)
			return -1;
		r->joints[r->njoints - 1].body = h->me;
		r->bodies[h->me].njoints++;
	} else if (phys_node_is(c, "site")) {
		i = r->nsites;
		if (read_site(r, c, cls, h->me) < 0)
			return -1;
		if (r->nsites > i)
			framed(h->frame, &r->sites[i].pose, NULL);
	} else {
		for (i = 0; unread[i]; i++)
			if (phys_node_is(c, unread[i]))
				mj_note(r, c, "not read (phys simulates no "
				    "cameras or lights)");
		if (phys_node_is(c, "composite") ||
		    phys_node_is(c, "flexcomp") ||
		    phys_node_is(c, "plugin"))
			return mj_fail(r, c, "<%s> is not read: phys cannot "
			    "represent it", (const char *)c->name);
	}
	return 0;
}

static int
read_children(struct reader *r, xmlNodePtr n, const struct holder *h,
    int pass)
{
	const struct mj_body *b;
	xmlNodePtr c;
	size_t k;
	int cls;

	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL)) {
		if (phys_node_is(c, "frame") || phys_node_is(c,
		    "replicate")) {
			if ((phys_node_is(c, "frame") ? read_frame(r, c, h,
			    pass) : read_replicate(r, c, h, pass)) < 0)
				return -1;
			continue;
		}
		if (class_of(r, c, h->childclass, &cls) < 0)
			return -1;
		if (pass == PASS_GEOMS && phys_node_is(c, "geom")) {
			k = r->ngeoms;
			if (read_geom(r, c, cls, h->me, h->needs_inertia) < 0)
				return -1;
			if (r->ngeoms > k)
				framed(h->frame, &r->geoms[k].pose,
				    &r->geoms[k].ipose);
		} else if (pass == PASS_BODIES && phys_node_is(c, "body")) {
			b = h->me < 0 ? NULL : &r->bodies[h->me];
			if (read_body(r, c, h->me, phys_pose_mul(b ? b->world :
			    PHYS_POSE_IDENTITY, h->frame), h->childclass,
			    h->depth + 1) < 0)
				return -1;
		} else if (pass == PASS_REST && !phys_node_is(c, "geom") &&
		    !phys_node_is(c, "body") && read_other(r, c, h, cls) < 0) {
			return -1;
		}
	}
	return 0;
}

/* A body's children, and those of the frames in it. */
static int
body_children(struct reader *r, xmlNodePtr n, int me, int childclass,
    int depth, bool needs_inertia)
{
	struct holder h = { me, childclass, depth, needs_inertia,
		PHYS_POSE_IDENTITY, NULL };

	if (read_children(r, n, &h, PASS_GEOMS) < 0)
		return -1;
	if (me >= 0)
		r->bodies[me].ngeoms = r->ngeoms - r->bodies[me].geom0;
	if (read_children(r, n, &h, PASS_REST) < 0)
		return -1;
	return read_children(r, n, &h, PASS_BODIES);
}

static int
read_body(struct reader *r, xmlNodePtr n, int parent, phys_pose at,
    int childclass, int depth)
{
	struct mj_body *b;
	xmlNodePtr in = phys_child(n, "inertial");
	const char *name = own_attr(n, "name"), *cc = own_attr(n, "childclass");
	phys_pose local = PHYS_POSE_IDENTITY;
	double gravcomp = 0;
	size_t me;
	bool from_geoms;
	int k = 0;

	if (depth > MJ_MAX_BODIES)
		return mj_fail(r, n, "%s", "bodies nested too deeply");
	if (cc && (childclass = class_find(r, cc)) < 0)
		return mj_fail(r, n, "unknown childclass '%s'", cc);
	if (position(r, n, -1, &local.p) < 0 ||
	    orientation(r, n, -1, &local.q) < 0 ||
	    number(r, n, -1, "gravcomp", &gravcomp) < 0)
		return -1;
	if (gravcomp != 0 && gravcomp != 1)
		return mj_fail(r, n, "gravcomp=\"%g\": phys bears a body's "
		    "weight whole (1) or not at all (0), not a part of it: "
		    "phys refuses the model", gravcomp);
	if (r->nbodies >= PHYS_MAX_LINKS)
		return past_limit(r, n, PHYS_MAX_LINKS, "links");
	PHYS_GROW_ONE(r->bodies, r->nbodies);
	me = r->nbodies++;
	b = &r->bodies[me];
	memset(b, 0, sizeof *b);
	b->name = name ? own_name(r, n) : phys_xasprintf("body%zu",
	    me + 1);
	phys_name_table_add(&r->body_names, me);
	b->parent = parent;
	b->line = r->at = phys_node_where(n);
	b->world = phys_pose_mul(at, local);
	b->geom0 = r->ngeoms;
	b->joint0 = r->njoints;
	b->in.iquat = PHYS_QUAT_IDENTITY;
	/* a borne weight is a passive force against gravity: <flag> turns
	 * it off with either */
	b->gravcomp = gravcomp == 1 &&
	    !(r->off & (MJ_OFF_GRAVITY | MJ_OFF_PASSIVE));
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
	if ((b->mocap = flag(r, n, -1, "mocap", 0)) &&
	    (parent >= 0 || b->njoints))
		return mj_fail(r, n, "mocap body '%s': a mocap body is a child "
		    "of the world without joints", b->name);
	return bound_inertial(r, n, b);
}

/* ---- the conversion ---- */

/* What phys does not read yet, and what the model loses without it. */
static const struct {
	const char *name;
	bool refuse;	/* the model cannot move as MuJoCo moves it */
	const char *why;
} not_read[] = {
	{ "sensor", false, "not read (phys reports state lines instead)" },
};

/* A range in force (what: "" for a tendon's range, "ctrl", "force" or
 * "act" for an actuator's, "actuatorfrc" for a joint's actuators'): 1
 * with the range, 0 when
 * none, -1 for an error: a range given without its limited attribute
 * and without autolimits, or one in force whose first number is not
 * below its second, as MuJoCo refuses both. As for joints, a range makes
 * it limited under autolimits. */
static int
limited_range(struct reader *r, xmlNodePtr n, int cls, const char *what,
    double range[2])
{
	static const char *const lim[] = { "false", "true", "auto", NULL };
	char attr_range[24], attr_lim[24];
	const char *whose = !*what ? "tendon" : strcmp(what,
	    "actuatorfrc") == 0 ? "joint" : "actuator";
	int k, has;

	snprintf(attr_range, sizeof attr_range, "%srange", what);
	snprintf(attr_lim, sizeof attr_lim, "%slimited", what);
	if ((has = numbers(r, n, cls, attr_range, range, 2)) < 0 ||
	    (k = keyword(r, n, cls, attr_lim, lim, 2)) < 0)
		return -1;
	has = has && !phys_mjcf_no_range(range);
	if (k == 2 && has && unlimited_range(r, n, whose, attr_range,
	    attr_lim) < 0)
		return -1;
	k = k == 1 || (k == 2 && has);
	if (k && !(range[0] < range[1]))
		return mj_fail(r, n, "%s: its first number must be below its "
		    "second", attr_range);
	return k;
}

/* ---- tendons ---- */

/*
 * A tendon moves nothing of itself unless it is limited, a spring, a
 * damper or has friction loss. A fixed one that is a spring or damper
 * is phys's TendonSpring; a limited one, fixed or spatial between two
 * sites, is a <phys:tendon>, which phys's MuJoCo engine holds; one with
 * friction loss, or a spatial one that is a spring or damper, would
 * leave the model moving otherwise without it, and is refused. One that
 * only an actuator pulls (which is named as not read where it is) or a
 * sensor reads is left out.
 */
/* How a message names a tendon: by its name, or by its kind when it has
 * none (a scene's rope). */
static const char *
tendon_label(const char *name, xmlNodePtr n, char *buf, size_t len)
{
	if (name && *name)
		snprintf(buf, len, "tendon '%s'", name);
	else
		snprintf(buf, len, "a <%s> tendon of no name", n->name);
	return buf;
}

/*
 * Tendon t's limit (n its element, range its own): how softly it holds
 * (solreflimit, solimplimit, margin); a spatial one's two sites. A
 * spatial tendon of more sites, or wrapped around a geom, or over a
 * pulley, is refused.
 */
static int
read_tendon_limit(struct reader *r, xmlNodePtr n, int cls,
    struct mj_tendon *t, const double range[2])
{
	char label[200];
	xmlNodePtr c;
	int k = 0;

	t->limited = true;
	memcpy(t->range, range, sizeof t->range);
	memcpy(t->solref, phys_mjcf_solref, sizeof t->solref);
	memcpy(t->solimp, phys_mjcf_solimp, sizeof t->solimp);
	if (some_numbers(r, n, cls, "solreflimit", t->solref, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimplimit", t->solimp, 1, 5) < 0 ||
	    number(r, n, cls, "margin", &t->margin) < 0)
		return -1;
	for (c = phys_child(n, NULL); !t->fixed && c; c = phys_next(c,
	    NULL)) {
		if (!phys_node_is(c, "site") || k == 2 || !own_attr(c,
		    "site"))
			return mj_fail(r, c, "%s: a limited spatial tendon of "
			    "two sites is read; one of more, or wrapped about "
			    "a geom, or over a pulley, is not, and phys "
			    "refuses the model", tendon_label(t->name, n,
			    label, sizeof label));
		t->site[k++] = own_attr(c, "site");
	}
	if (!t->fixed && k < 2)
		return mj_fail(r, n, "%s: a spatial tendon needs two sites",
		    tendon_label(t->name, n, label, sizeof label));
	if (r->o->notes && !t->fixed)	/* said before a run finds it */
		mj_notef(r, n, "%s is limited and spatial: phys's MuJoCo "
		    "engine holds it, the other engines refuse the model",
		    tendon_label(t->name, n, label, sizeof label));
	return 0;
}

static int
read_tendon(struct reader *r, xmlNodePtr n)
{
	static const char *const acting[] = { "stiffness", "damping",
		"frictionloss" };
	struct mj_tendon t = { .name = own_attr(n, "name"),
		.fixed = phys_node_is(n, "fixed"), .springlength = -1,
		.line = phys_node_where(n) };
	double *kept[] = { NULL, NULL, NULL };	/* stiffness, damping */
	const char *name = t.name ? t.name : "";
	xmlNodePtr c;
	double x, range[2];
	char label[200];
	int cls, k;
	size_t i;

	if (class_of(r, n, r->main, &cls) < 0)
		return -1;
	for (c = phys_child(n, "joint"); t.fixed && c; c = phys_next(c,
	    "joint")) {
		if (number(r, c, -1, "coef", &x) < 0) {
			free(t.joint);
			free(t.coef);
			return -1;
		}
		if (!own_attr(c, "coef"))
			x = 1;	/* MuJoCo's default */
		if (x == 0)
			continue;	/* no part of the length */
		t.joint = phys_xrealloc(t.joint, (t.njoints + 1) *
		    sizeof *t.joint);
		t.coef = phys_xrealloc(t.coef, (t.njoints + 1) *
		    sizeof *t.coef);
		t.joint[t.njoints] = own_attr(c, "joint");
		t.coef[t.njoints++] = x;
	}
	PHYS_GROW_ONE(r->tendons, r->ntendons);
	r->tendons[r->ntendons++] = t;	/* the reader frees it */
	phys_name_table_add(&r->tendon_names, r->ntendons - 1);
	kept[0] = &r->tendons[r->ntendons - 1].stiffness;
	kept[1] = &r->tendons[r->ntendons - 1].damping;
	if (number(r, n, cls, "springlength",
	    &r->tendons[r->ntendons - 1].springlength) < 0)
		return -1;
	if ((k = limited_range(r, n, cls, "", range)) < 0 ||
	    (k && !(r->off & MJ_OFF_LIMIT) && read_tendon_limit(r, n, cls,
	    &r->tendons[r->ntendons - 1], range) < 0))
		return -1;
	for (i = 0; i < sizeof acting / sizeof *acting; i++) {
		x = 0;
		if (number(r, n, cls, acting[i], &x) < 0)
			return -1;
		if (x < 0)
			return mj_fail(r, n, "%s=\"%g\": must not be negative",
			    acting[i], x);
		if (x != 0 && kept[i] && t.fixed) {
			*kept[i] = x;
			continue;
		}
		if (x != 0)
			return mj_fail(r, n, "%s has %s %s: phys reads the "
			    "stiffness and damping of a fixed tendon only, and "
			    "this one changes how the model moves; phys "
			    "refuses the model", tendon_label(name, n, label,
			    sizeof label), acting[i],
			    attr(r, n, cls, acting[i]));
	}
	return 0;
}

/*
 * The joints of fixed tendon t: joints of the model, as MuJoCo's compiler
 * has them; a spring's or a limit's hinges and slides (an actuator's are
 * checked with it, tendon_actuator; phys reads no other).
 */
static int
check_tendon(struct reader *r, const struct mj_tendon *t)
{
	const char *why = NULL;
	size_t k;
	int j;

	for (k = 0; k < t->njoints && !why; k++) {
		if ((j = joint_find(r, t->joint[k])) < 0)
			why = "no such joint";
		else if ((sprung(r, t) || t->limited) &&
		    r->joints[j].type < MJ_SLIDE)
			why = t->limited ? "neither a hinge nor a slide, which "
			    "a limit along the tendon holds" : "neither a "
			    "hinge nor a slide, which a spring along the "
			    "tendon pulls";
	}
	if (!why)
		return 0;
	return phys_failat(phys_doc_file(r->d, t->line),
	    phys_where_line(t->line), "tendon '%s': joint '%s': %s",
	    t->name ? t->name : "", t->joint[k - 1] ? t->joint[k - 1] : "",
	    why);
}

static int
check_tendons(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->ntendons; i++)
		if (check_tendon(r, &r->tendons[i]) < 0)
			return -1;
	return 0;
}

/* Joint k of fixed tendon t, which check_tendons found in the model. */
static int
tendon_joint(const struct reader *r, const struct mj_tendon *t, size_t k)
{
	return joint_find(r, t->joint[k]);
}

/* Whether joint j is pulled by a spring tendon. */
static bool
joint_sprung(const struct reader *r, int j)
{
	const struct mj_tendon *t;
	size_t i, k;

	for (i = 0; i < r->ntendons; i++) {
		t = &r->tendons[i];
		for (k = 0; sprung(r, t) && k < t->njoints; k++)
			if (tendon_joint(r, t, k) == j)
				return true;
	}
	return false;
}

static int
read_tendons(struct reader *r, xmlNodePtr t)
{
	size_t k = r->ntendons;
	xmlNodePtr n;

	for (n = phys_child(t, NULL); n; n = phys_next(n, NULL))
		if (read_tendon(r, n) < 0)
			return -1;
	for (n = phys_child(t, NULL); n; n = phys_next(n, NULL), k++)
		if (!r->tendons[k].limited && (!phys_node_is(n, "fixed") ||
		    (!own_attr(n, "stiffness") && !own_attr(n, "damping"))))
			break;
	if (n)
		mj_note(r, t, "tendons are not read (but as an equality "
		    "couples their joints, an actuator pulls a fixed one, a "
		    "fixed one is a spring or damper, or one is limited): "
		    "none of the others has friction loss, so the model "
		    "moves as without them");
	return 0;
}

/* ---- equality constraints ---- */

static int
body_find(const struct reader *r, const char *name)
{
	return phys_name_table_find(&r->body_names, name);
}

/* The equalities SDF holds as joints: each checked, kept for writing. */
static int
read_equality(struct reader *r, xmlNodePtr eq)
{
	xmlNodePtr n;
	const char *b1, *b2, *j1, *j2;
	double poly[5] = { 0, 1, 0, 0, 0 }, ref[2], imp[5];
	bool soft;
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
			if (r->joints[joint_find(r, j1)].follows)
				return mj_fail(r, n, "<joint> equality: joint "
				    "'%s' follows another equality already; "
				    "phys holds a joint to one coupling as its "
				    "follower", j1);
			r->joints[joint_find(r, j1)].follows = n;
			r->mimic = true;
		} else if (phys_node_is(n, "tendon")) {
			struct mj_coupling c;

			if (phys_mjcf_tendon_terms(r, n, &c) < 0)
				return -1;
			r->mimic = true;
		} else {
			return mj_fail(r, n, "<%s> equality constraints are "
			    "not read, and they change how the model moves; "
			    "phys refuses the model", (const char *)n->name);
		}
		if (phys_mjcf_equality_softness(r, n, ref, imp) < 0)
			return -1;
		soft = memcmp(ref, phys_mjcf_solref, sizeof ref) ||
		    memcmp(imp, phys_mjcf_solimp, sizeof imp);
		if (soft)
			mj_notef(r, n, "<%s>: its solref and solimp are "
			    "MuJoCo's engine's: ODE, Bullet, DART and Simbody "
			    "hold its %s rigid", (const char *)n->name,
			    phys_node_is(n, "connect") || phys_node_is(n,
			    "weld") ? "loop" : "coupling");
		PHYS_GROW_ONE(r->equality, r->nequality);
		r->equality[r->nequality++] = n;
	}
	return 0;
}

/* ---- actuators ---- */

/* What an actuator's ctrlrange becomes where it is not a force limit. */
/*
 * A motor's force on its joint, as MuJoCo 2.2.2 makes it: the actuator's
 * force, gain times control (the control within a ctrlrange), held to
 * its forcerange, times the gear. A symmetric ctrlrange bounds it as the
 * forcerange does; the joint's effort limit is gear times the tighter
 * (another ctrlrange makes the motor a TendonActuator).
 */
static void
motor_limits(struct mj_act *a, double gear, double force, int clim,
    const double cr[2])
{
	double gain = a->gain;

	if (clim)
		force = fmin(force, fabs(gain) * cr[1]);
	a->gear = gear * gain;
	a->fmax = phys_has_upper(force) ? fabs(gear) * force : PHYS_NO_LIMIT;
}

/*
 * A position servo's gain kp, bias 0 -kp -kv, and a later MuJoCo's
 * damping: kv, or dampratio, a ratio of the critical damping, which
 * stands in for kv (the element's own, else its classes'); 0, or -2 on
 * error.
 */
static int
position_force(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a)
{
	bool own_kv = own_attr(n, "kv"), own_ratio = own_attr(n, "dampratio");
	double kv = 0, ratio = 0;
	int hk, hr;

	if (number(r, n, cls, "kp", &a->gain) < 0 ||
	    (hk = number(r, n, own_ratio ? -1 : cls, "kv", &kv)) < 0 ||
	    (hr = number(r, n, own_kv ? -1 : cls, "dampratio", &ratio)) < 0)
		return -2;
	if (hk && hr) {
		mj_fail(r, n, "%s", "kv and dampratio: MuJoCo takes one of "
		    "them");
		return -2;
	}
	if (kv < 0 || ratio < 0) {
		mj_fail(r, n, "%s=\"%g\": MuJoCo refuses a negative damping",
		    hk ? "kv" : "dampratio", hk ? kv : ratio);
		return -2;
	}
	a->bias[1] = -a->gain;
	a->bias[2] = -kv;
	a->dampratio = ratio;
	return 0;
}

/*
 * MuJoCo's actuators of dynamics: an integrated velocity servo (a
 * position servo of kp on its activation, which integrates the control
 * within its actrange) and a pneumatic cylinder (a filter of timeconst,
 * of gain its area, or that of its diameter, and bias its bias); 0, or
 * -2 on error.
 */
static int
dynamic_force(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a)
{
	double d;
	int k;

	if (phys_node_is(n, "intvelocity")) {
		if (number(r, n, cls, "kp", &a->gain) < 0)
			return -2;
		a->bias[1] = -a->gain;
		a->dyn = MJ_DYN_INTEGRATOR;
		return 0;
	}
	a->tau = 1;
	if (number(r, n, cls, "timeconst", &a->tau) < 0 ||
	    numbers(r, n, cls, "bias", a->bias, 3) < 0 ||
	    number(r, n, cls, "area", &a->gain) < 0 ||
	    (k = number(r, n, cls, "diameter", &d)) < 0)
		return -2;
	if (k)
		a->gain = M_PI / 4 * d * d;
	a->dyn = MJ_DYN_FILTER;
	return 0;
}

/* An actuator's dyntype, MuJoCo's and a later MuJoCo's filterexact,
 * which phys reads; what each is of phys's (-1: not run) */
static const char *const dyns[] = { "none", "integrator", "filter",
	"muscle", "user", "filterexact", NULL };
static const int dyn_of[] = { MJ_DYN_NONE, MJ_DYN_INTEGRATOR,
	MJ_DYN_FILTER, -1, -1, MJ_DYN_FILTEREXACT };

/*
 * An actuator's force as MuJoCo 2.2.2 makes it of its input and its
 * transmission's length L: gain times the input plus bias[0] + bias[1] L
 * + bias[2] dL/dt, of a motor (gain 1), a position servo (kp, bias 0 -kp
 * 0), a velocity servo (kv, bias 0 0 -kv) or a general actuator of fixed
 * gain, no or affine bias, the input the control, or, under its dynamics,
 * its activation (MJ_DYN_*, of time constant dynprm[0]): 0, or -1 for any
 * other (-2 on error).
 */
static int
affine_force(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a)
{
	static const char *const gains[] = { "fixed", "muscle", "user",
		NULL };
	static const char *const biases[] = { "none", "affine", "muscle",
		"user", NULL };
	/* MuJoCo's arrays of 10 (mjNGAIN, mjNBIAS, mjNDYN), of which
	 * what phys runs (a fixed gain, an affine bias, a filter) uses the
	 * first three at most: the rest are read and mean nothing */
	double g[10] = { 1 }, prm[10] = { 1 }, bias[10] = { 0 };
	int gt, bt, dt;

	a->bias[0] = a->bias[1] = a->bias[2] = 0;
	a->gain = 1;
	a->dyn = MJ_DYN_NONE;
	if (phys_node_is(n, "position"))
		return position_force(r, n, cls, a);
	if (phys_node_is(n, "intvelocity") || phys_node_is(n, "cylinder"))
		return dynamic_force(r, n, cls, a);
	if (phys_node_is(n, "velocity")) {
		if (number(r, n, cls, "kv", &a->gain) < 0)
			return -2;
		a->bias[2] = -a->gain;
		return 0;
	}
	if (phys_node_is(n, "motor"))
		return 0;
	if (!phys_node_is(n, "general"))
		return -1;
	if ((gt = keyword(r, n, cls, "gaintype", gains, 0)) < 0 ||
	    (bt = keyword(r, n, cls, "biastype", biases, 0)) < 0 ||
	    (dt = keyword(r, n, cls, "dyntype", dyns, 0)) < 0 ||
	    some_numbers(r, n, cls, "gainprm", g, 1, 10) < 0 ||
	    some_numbers(r, n, cls, "biasprm", bias, 1, 10) < 0 ||
	    some_numbers(r, n, cls, "dynprm", prm, 1, 10) < 0)
		return -2;
	memcpy(a->bias, bias, sizeof a->bias);
	a->gain = g[0];
	a->dyn = dyn_of[dt];
	a->tau = prm[0];
	if (bt == 0)
		a->bias[0] = a->bias[1] = a->bias[2] = 0;
	return gt == 0 && bt <= 1 && a->dyn >= 0 ? 0 : -1;
}

/* An actuator of a joint, its force read (affine_force), as the gz-sim
 * joint system it is: a motor (a general one without bias), a position
 * servo (a general one of bias 0 -kp -kv, as Menagerie's arms have it, or
 * a later MuJoCo's position of kv: kv a damping the servo adds, into
 * a->kd) or a velocity servo; -1 for none of them. */
static int
joint_kind(xmlNodePtr n, struct mj_act *a)
{
	const double *b = a->bias;

	a->kd = 0;
	if (phys_node_is(n, "motor"))
		return ACT_MOTOR;
	if (phys_node_is(n, "velocity"))
		return ACT_VELOCITY;
	if (a->dyn != MJ_DYN_NONE)
		return -1;
	a->kd = -b[2];
	if (phys_node_is(n, "position"))
		return ACT_POSITION;
	if (b[0] == 0 && b[1] == 0 && b[2] == 0)
		return ACT_MOTOR;
	if (b[0] == 0 && b[1] == -a->gain && b[2] <= 0)
		return ACT_POSITION;
	return -1;
}

/*
 * Whether an actuator read before drives joint j where the one being read
 * cannot drive it too: one that is a joint system of gz-sim's (system)
 * shares its joint with none, as it commands it; actuators of tendons
 * (TendonActuator) pull their joints together, their forces summed.
 */
static bool
driven(const struct reader *r, int j, bool system)
{
	return r->joints[j].acted || (system && r->joints[j].tendon_acted);
}

/* An actuator read, its joints marked driven. */
static void
act_add(struct reader *r, const struct mj_act *a)
{
	const struct mj_tendon *t;
	size_t k;

	PHYS_GROW_ONE(r->acts, r->nacts);
	r->acts[r->nacts++] = *a;
	if (a->kind == ACT_TENDON) {
		t = &r->tendons[a->tendon];
		for (k = 0; k < t->njoints; k++)
			r->joints[tendon_joint(r, t, k)].tendon_acted = true;
	} else if (a->kind != ACT_SITE) {
		r->joints[a->joint].acted = true;
	}
}

#define DRIVEN_TWICE "not read: a joint it drives is driven by an " \
	"actuator before it that gz-sim's joint systems cannot add to: the " \
	"model runs without it"

#define NOT_READ "not read (phys reads motor, position, velocity, " \
	"intvelocity, cylinder and general actuators of fixed gain and " \
	"affine bias, of a joint, a fixed tendon or a site): the model " \
	"runs without it"

/*
 * An actuator's ctrlrange in force (limited_range), or a later MuJoCo's
 * inheritrange of a position servo of joint j (-1: of a tendon): the
 * joint's range about its middle, scaled by it. 1 with the range, 0 when
 * none, -1 on error.
 */
static int
ctrl_range(struct reader *r, xmlNodePtr n, int cls, int j, double cr[2])
{
	const struct mj_joint *jt = j >= 0 ? &r->joints[j] : NULL;
	double inherit = 0, mid, half;
	int clim;

	if ((clim = limited_range(r, n, cls, "ctrl", cr)) < 0 ||
	    (phys_node_is(n, "position") && number(r, n, cls,
	    "inheritrange", &inherit) < 0))
		return -1;
	if (!(inherit > 0))
		return clim;
	if (clim)
		return mj_fail(r, n, "%s", "ctrlrange and inheritrange: MuJoCo "
		    "takes one of them");
	if (!jt)
		return mj_fail(r, n, "%s", "inheritrange of a tendon's range "
		    "is not read: phys refuses the model");
	if (!(jt->range[0] < jt->range[1]))
		return mj_fail(r, n, "inheritrange: joint '%s' has no range",
		    jt->name ? jt->name : "");
	mid = (jt->range[0] + jt->range[1]) / 2;
	half = (jt->range[1] - jt->range[0]) / 2 * inherit;
	cr[0] = mid - half;
	cr[1] = mid + half;
	return 1;
}

/*
 * The actuatorfrcrange of joint j (a later MuJoCo's) on an actuator of it
 * alone, whose force moves the joint by g per unit: the actuator's force
 * held to that range over g as well as to its own forcerange (lim, fr);
 * 0, or -1 where the two leave no force between them.
 */
static int
joint_force_range(struct reader *r, xmlNodePtr n, int j, double g,
    int *lim, double fr[2])
{
	const struct mj_joint *jt = &r->joints[j];
	double lo, hi;

	if (!jt->frclimited || g == 0)
		return 0;
	lo = (g > 0 ? jt->frcrange[0] : jt->frcrange[1]) / g;
	hi = (g > 0 ? jt->frcrange[1] : jt->frcrange[0]) / g;
	if (*lim) {
		lo = fmax(lo, fr[0]);
		hi = fmin(hi, fr[1]);
	}
	if (!(lo <= hi))
		return mj_fail(r, n, "its forcerange and joint '%s''s "
		    "actuatorfrcrange leave it no force in common: phys "
		    "refuses the model", jt->name ? jt->name : "");
	fr[0] = lo;
	fr[1] = hi;
	*lim = 1;
	return 0;
}

/*
 * An actuator's force, control and activation ranges, each where lim
 * (force, ctrl, act) says it is in force (none: infinite): 0, or -1 for
 * a filter of no time constant.
 */
static int
act_ranges(struct reader *r, xmlNodePtr n, struct mj_act *a,
    const int lim[3], const double fr[2], const double cr[2],
    const double ar[2])
{
	if ((a->dyn == MJ_DYN_FILTER || a->dyn == MJ_DYN_FILTEREXACT) &&
	    !(a->tau > 0))
		return mj_fail(r, n, "dynprm=\"%g\": a filter's time constant "
		    "must be positive", a->tau);
	a->force[0] = lim[0] ? fr[0] : -INFINITY;
	a->force[1] = lim[0] ? fr[1] : INFINITY;
	a->ctrl[0] = lim[1] ? cr[0] : -INFINITY;
	a->ctrl[1] = lim[1] ? cr[1] : INFINITY;
	a->act[0] = lim[2] ? ar[0] : -INFINITY;
	a->act[1] = lim[2] ? ar[1] : INFINITY;
	return 0;
}

/*
 * An actuator of fixed tendon t, its force read (affine_force): the
 * control and the force within their ranges where they are in force,
 * gear times the force on the tendon (pulling each joint by its
 * coefficient), as gear times the tendon's length and rate are its
 * length and rate.
 */
static int
tendon_actuator(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a,
    int t, int joint)
{
	const char *tn = r->tendons[t].name ? r->tendons[t].name : "";
	double gear[6] = { 1 }, fr[2] = { 0, 0 }, cr[2] = { 0, 0 };
	double ar[2] = { 0, 0 };
	int k, flim, clim, alim;
	size_t i;

	if (!r->tendons[t].fixed) {
		mj_note(r, n, NOT_READ);
		return 0;
	}
	for (i = 0; i < r->tendons[t].njoints; i++) {
		k = tendon_joint(r, &r->tendons[t], i);
		if (r->joints[k].type < MJ_SLIDE)
			return mj_fail(r, n, "tendon '%s': joint '%s' is "
			    "neither a hinge nor a slide", tn,
			    r->tendons[t].joint[i]);
		if (driven(r, k, false)) {
			mj_note(r, n, DRIVEN_TWICE);
			return 0;
		}
	}
	if (some_numbers(r, n, cls, "gear", gear, 1, 6) < 0 ||
	    (flim = limited_range(r, n, cls, "force", fr)) < 0 ||
	    (clim = ctrl_range(r, n, cls, joint, cr)) < 0 ||
	    (alim = limited_range(r, n, cls, "act", ar)) < 0)
		return -1;
	/* an intvelocity's activation is held to its range, whatever its
	 * actlimited says */
	if (phys_node_is(n, "intvelocity") && ((alim = numbers(r, n, cls,
	    "actrange", ar, 2)) < 0 || !alim || !(ar[0] < ar[1])))
		return mj_fail(r, n, "%s", "intvelocity needs an actrange, "
		    "its first number below its second");
	/* a tendon of several joints on one so held: check_force_ranges */
	if (r->tendons[t].njoints == 1 && joint_force_range(r, n,
	    tendon_joint(r, &r->tendons[t], 0), gear[0] *
	    r->tendons[t].coef[0], &flim, fr) < 0)
		return -1;
	if (act_ranges(r, n, a, (int[3]){ flim, clim, alim }, fr, cr, ar) < 0)
		return -1;
	a->kind = ACT_TENDON;
	a->joint = -1;
	a->tendon = t;
	a->gear = gear[0];
	act_add(r, a);
	return 0;
}

static int
read_tendon_actuator(struct reader *r, xmlNodePtr n, int cls,
    struct mj_act *a, const char *tn)
{
	int t = tendon_find(r, tn);

	if (t < 0)
		return mj_fail(r, n, "no tendon '%s'", tn);
	return tendon_actuator(r, n, cls, a, t, -1);
}

/*
 * An actuator of joint j that no joint system of gz-sim's is (a servo
 * through a gear, a force range not symmetric about 0, a general one of
 * another affine bias): the actuator of a fixed tendon of that joint
 * alone, as MuJoCo's joint transmission is.
 */
static int
joint_tendon_actuator(struct reader *r, xmlNodePtr n, int cls,
    struct mj_act *a, int j)
{
	struct mj_tendon t = { .njoints = 1, .fixed = true,
		.springlength = -1, .line = a->line };

	t.joint = phys_xcalloc(1, sizeof *t.joint);
	t.coef = phys_xcalloc(1, sizeof *t.coef);
	t.joint[0] = r->joints[j].name;
	t.coef[0] = 1;
	PHYS_GROW_ONE(r->tendons, r->ntendons);
	r->tendons[r->ntendons++] = t;
	phys_name_table_add(&r->tendon_names, r->ntendons - 1);
	return tendon_actuator(r, n, cls, a, (int)r->ntendons - 1, j);
}

/*
 * An actuator of a site (no refsite: its length is 0, as MuJoCo 2.2.2
 * has it): its force, gain times the control plus bias[0] + bias[2]
 * times the site's speed along the gear, pushes the site's body along
 * gear's force and turns it by gear's torque, both in the site's frame:
 * phys's SiteActuator (a drone's rotors).
 */
static int
site_actuator(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a,
    const char *sn)
{
	double fr[2] = { 0, 0 }, cr[2] = { 0, 0 }, ar[2] = { 0, 0 };
	int flim, clim, alim;
	int k = phys_name_table_find(&r->site_names, sn);
	size_t i = (size_t)k;

	if (k < 0)
		return mj_fail(r, n, "no site '%s'", sn);
	if (r->sites[i].body < 0)
		return mj_fail(r, n, "site '%s' is the world's: its actuator "
		    "pushes nothing", sn);
	if (a->dampratio > 0)
		return mj_fail(r, n, "%s", "a site's position servo of a "
		    "dampratio: not read");
	a->sgear[0] = 1;
	if (some_numbers(r, n, cls, "gear", a->sgear, 1, 6) < 0 ||
	    (flim = limited_range(r, n, cls, "force", fr)) < 0 ||
	    (clim = ctrl_range(r, n, cls, -1, cr)) < 0 ||
	    (alim = limited_range(r, n, cls, "act", ar)) < 0)
		return -1;
	if (act_ranges(r, n, a, (int[3]){ flim, clim, alim }, fr, cr, ar) < 0)
		return -1;
	a->kind = ACT_SITE;
	a->joint = -1;
	a->site = (int)i;
	act_add(r, a);
	return 0;
}

/* The pid plugin of actuator n: its instance's configuration, or its
 * own <config> keys. */
static int
pid_of(struct reader *r, xmlNodePtr n, struct mj_pid *p)
{
	const char *which = own_attr(n, "plugin");
	const char *inst = own_attr(n, "instance");
	int k;

	if (!which || strcmp(which, "mujoco.pid") != 0)
		return mj_fail(r, n, PHYS_MJCF_PID_ONLY, which ? which : "");
	if (!inst)
		return phys_mjcf_pid_config(r, n, p);
	if ((k = phys_name_table_find(&r->pid_names, inst)) < 0)
		return mj_fail(r, n, "no plugin instance '%s'", inst);
	*p = r->pids[k];
	return 0;
}

/*
 * MuJoCo's pid actuator of a joint (a later MuJoCo's plugin, mujoco.pid):
 * kp (ctrl - q) + kd (0 - dq/dt) + ki I, I the error's integral held to
 * imax / ki, ctrl within ctrlrange and at most slewmax h from the last
 * step's, the force within forcerange: a position servo with those, as
 * the plugin computes it (dyntype none, gear 1; MuJoCo's check of its
 * actdim kept).
 */
static int
pid_actuator(struct reader *r, xmlNodePtr n, int cls, struct mj_act *a)
{
	const char *jn = own_attr(n, "joint");
	double gear[6] = { 1 }, fr[2] = { 0, 0 }, cr[2] = { 0, 0 }, ad = -1;
	struct mj_pid p;
	int lim, clim, dt, want;

	if (pid_of(r, n, &p) < 0)
		return -1;
	if (!jn)
		return mj_fail(r, n, "%s", "a pid actuator of a tendon or a "
		    "site is not read: phys refuses the model");
	if ((a->joint = joint_find(r, jn)) < 0)
		return mj_fail(r, n, "no joint '%s'", jn);
	if (r->joints[a->joint].type < MJ_SLIDE)
		return mj_fail(r, n, "%s", "an actuator of a free or ball joint "
		    "is not read");
	if ((dt = keyword(r, n, cls, "dyntype", dyns, 0)) < 0 ||
	    some_numbers(r, n, cls, "gear", gear, 1, 6) < 0 ||
	    number(r, n, cls, "actdim", &ad) < 0 ||
	    (lim = limited_range(r, n, cls, "force", fr)) < 0 ||
	    (clim = ctrl_range(r, n, cls, a->joint, cr)) < 0 ||
	    joint_force_range(r, n, a->joint, gear[0], &lim, fr) < 0)
		return -1;
	if (dyn_of[dt] != MJ_DYN_NONE || gear[0] != 1 ||
	    joint_sprung(r, a->joint))
		return mj_fail(r, n, "%s", "a pid actuator of dynamics, of a "
		    "gear other than 1 or of a joint a spring tendon pulls is "
		    "not read: phys refuses the model");
	want = (p.ki != 0) + p.has_slew;
	if ((ad < 0 ? 0 : ad) != want)
		return mj_fail(r, n, "actuator has actdim %g, expected %d: "
		    "MuJoCo refuses it (actdim=\"%d\" on the actuator)",
		    ad < 0 ? 0 : ad, want, want);
	if (driven(r, a->joint, true))
		return mj_note(r, n, DRIVEN_TWICE), 0;
	a->kind = ACT_POSITION;
	a->pid = true;
	a->gain = p.kp, a->kd = p.kd, a->ki = p.ki;
	a->imax = p.has_imax && p.ki != 0 ? p.imax : PHYS_NO_LIMIT;
	a->slew = p.has_slew ? p.slew : -1;
	a->fmax = lim ? fr[1] : PHYS_NO_LIMIT;
	a->fmin = lim ? fr[0] : -PHYS_NO_LIMIT;
	a->ctrl[0] = clim ? cr[0] : -INFINITY;
	a->ctrl[1] = clim ? cr[1] : INFINITY;
	a->gear = 1;
	act_add(r, a);
	return 0;
}

static int
read_actuator(struct reader *r, xmlNodePtr n)
{
	const char *jn = own_attr(n, "joint"), *tn = own_attr(n, "tendon");
	struct mj_act a = { 0 };
	double gear[6] = { 1 }, fr[2] = { 0, 0 }, cr[2] = { 0, 0 };
	int cls, lim, clim, k;

	if (class_of(r, n, r->main, &cls) < 0)
		return -1;
	if (phys_node_is(n, "plugin")) {
		a.line = phys_node_where(n);
		a.index = r->nu++;
		a.tendon = -1;
		return pid_actuator(r, n, cls, &a);
	}
	if (!jn && !tn && !own_attr(n, "site") &&
	    !own_attr(n, "jointinparent") && !own_attr(n, "cranksite") &&
	    !own_attr(n, "body"))
		return mj_fail(r, n, "<%s>: no joint, tendon, site or body to "
		    "act on: MuJoCo refuses an actuator without a transmission "
		    "target", (const char *)n->name);
	a.line = phys_node_where(n);
	a.index = r->nu++;
	a.tendon = -1;
	if ((k = affine_force(r, n, cls, &a)) == -2)
		return -1;
	if (k == 0 && !jn && !tn && own_attr(n, "site"))
		return site_actuator(r, n, cls, &a, own_attr(n, "site"));
	if (k < 0 || (!jn && !tn)) {
		mj_note(r, n, NOT_READ);
		return 0;
	}
	if (!jn)
		return read_tendon_actuator(r, n, cls, &a, tn);
	a.kind = joint_kind(n, &a);
	if ((a.joint = joint_find(r, jn)) < 0)
		return mj_fail(r, n, "no joint '%s'", jn);
	if (r->joints[a.joint].type < MJ_SLIDE)
		return mj_fail(r, n, "%s", "an actuator of a free or ball joint "
		    "is not read");
	if (some_numbers(r, n, cls, "gear", gear, 1, 6) < 0 ||
	    (lim = limited_range(r, n, cls, "force", fr)) < 0 ||
	    (clim = ctrl_range(r, n, cls, a.joint, cr)) < 0 ||
	    joint_force_range(r, n, a.joint, gear[0], &lim, fr) < 0)
		return -1;
	/* where a spring pulls the joint, its actuator pulls beside it */
	if (a.kind < 0 || (gear[0] != 1 && a.kind != ACT_MOTOR) ||
	    (lim && fr[0] != -fr[1]) || joint_sprung(r, a.joint) ||
	    (a.kind == ACT_MOTOR && clim && cr[0] != -cr[1]))
		return joint_tendon_actuator(r, n, cls, &a, a.joint);
	if (driven(r, a.joint, true)) {
		mj_note(r, n, DRIVEN_TWICE);
		return 0;
	}
	a.ctrl[0] = clim ? cr[0] : -INFINITY;
	a.ctrl[1] = clim ? cr[1] : INFINITY;
	if (a.kind == ACT_MOTOR)
		motor_limits(&a, gear[0], lim ? fr[1] : PHYS_NO_LIMIT, clim,
		    cr);
	else {
		a.fmax = lim ? fr[1] : PHYS_NO_LIMIT;
		a.gear = gear[0];
	}
	act_add(r, &a);
	return 0;
}

/*
 * What a joint's actuatorfrcrange holds that phys cannot: the sum of
 * several actuators' forces (phys holds each actuator's), the force of a
 * tendon of several joints (phys holds an actuator's force, not its
 * share on one joint), and a borne weight counted among them (phys bears
 * it apart, as the link's lost gravity).
 */
static int
check_force_ranges(struct reader *r)
{
	const struct mj_tendon *t;
	size_t i, k, *pulls = phys_xcalloc(r->njoints + 1, sizeof *pulls);
	bool borne = false;
	int rc = 0;

	for (i = 0; i < r->nbodies; i++)
		borne |= r->bodies[i].gravcomp;
	/* a pull through a tendon of several joints counts as two */
	for (i = 0; i < r->nacts; i++) {
		if (r->acts[i].kind == ACT_SITE)
			continue;
		if (r->acts[i].kind != ACT_TENDON) {
			pulls[r->acts[i].joint]++;
			continue;
		}
		t = &r->tendons[r->acts[i].tendon];
		for (k = 0; k < t->njoints; k++)
			pulls[tendon_joint(r, t, k)] += t->njoints > 1 ? 2 : 1;
	}
	for (i = 0; i < r->njoints && rc == 0; i++) {
		const struct mj_joint *jt = &r->joints[i];
		const char *name = jt->name ? jt->name : "";

		if (!jt->frclimited)
			continue;
		if (pulls[i] > 1)
			rc = phys_failat(phys_doc_file(r->d, jt->line),
			    phys_where_line(jt->line), "joint '%s': its "
			    "actuatorfrcrange holds the sum of several "
			    "actuators' forces, or a tendon's share, where "
			    "phys holds each actuator's force: phys refuses "
			    "the model", name);
		else if (jt->actgravcomp && borne)
			rc = phys_failat(phys_doc_file(r->d, jt->line),
			    phys_where_line(jt->line), "joint '%s': "
			    "actuatorgravcomp counts a borne weight among the "
			    "forces its actuatorfrcrange holds, where phys "
			    "bears it apart: phys refuses the model", name);
	}
	free(pulls);
	return rc;
}

/* ---- keyframes ---- */

long
phys_mjcf_option_line(const struct phys_doc *d)
{
	xmlNodePtr opt = phys_child(d->root, "option");

	return opt && opt->properties ? phys_node_where(opt) : 0;
}

bool
phys_mjcf_derived(xmlNodePtr n)
{
	return n && xmlHasNsProp(n, (const xmlChar *)"derived",
	    (const xmlChar *)PHYS_KEY_NS) != NULL;
}

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

int
phys_mjcf_key_value(xmlNodePtr holder, const char *name, double *v,
    xmlNodePtr *at)
{
	xmlNodePtr e = phys_mjcf_key(holder, name, NULL);
	char *text;
	bool ok;

	if (at)
		*at = e;
	if (!e)
		return 0;
	text = phys_node_text(e);
	ok = phys_parse_double(text, v) && isfinite(*v);
	free(text);
	return ok ? 1 : -1;
}

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
    size_t count, const char *of)
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
		return mj_fail(r, n, "%s: %zu numbers expected (%s)", name,
		    count, of);
	return 0;
}

/* The mocap bodies' poses as the model has them, MuJoCo's mocap_pos
 * and mocap_quat (nmocap of each). */
static void
mocap0(const struct reader *r, double *m, size_t nmocap)
{
	const phys_pose *p;
	size_t i, k = 0;

	for (i = 0; i < r->nbodies; i++) {
		if (!r->bodies[i].mocap)
			continue;
		p = &r->bodies[i].world;
		m[3 * k] = p->p.x, m[3 * k + 1] = p->p.y, m[3 * k + 2] = p->p.z;
		m[3 * nmocap + 4 * k] = p->q.w;
		m[3 * nmocap + 4 * k + 1] = p->q.x;
		m[3 * nmocap + 4 * k + 2] = p->q.y;
		m[3 * nmocap + 4 * k + 3] = p->q.z;
		k++;
	}
}

/* Each key's values become elements of the model: a thousand keys of
 * fifty joints, far above a real model's, and no more. */
#define MAX_KEY_VALUES 100000

/* The name of an unnamed key: keyN, N its index among the keys (as
 * MuJoCo numbers them), made apart from any other key's name. */
static const char *
unnamed_key(struct reader *r, char *buf, size_t size)
{
	int k;

	snprintf(buf, size, "key%zu", r->nkeys);
	for (k = 1; phys_name_table_find(&r->key_names, buf) >= 0; k++)
		snprintf(buf, size, "key%zu_%d", r->nkeys, k);
	return buf;
}

static int
read_key(struct reader *r, xmlNodePtr n)
{
	struct mj_key k = { 0 };
	size_t nq = 0, nv = 0, nmocap = 0, i;
	double t = 0;
	const char *name = own_attr(n, "name");
	char made[48];

	for (i = 0; i < r->njoints; i++) {
		nq += nq_of[r->joints[i].type];
		nv += nv_of[r->joints[i].type];
	}
	for (i = 0; i < r->nbodies; i++)
		nmocap += r->bodies[i].mocap;
	if (!name || !*name) {
		name = unnamed_key(r, made, sizeof made);
		mj_notef(r, n, "a key of no name is named '%s' (its index "
		    "among the keys): a keyframe is chosen by its name", name);
	}
	if (phys_name_table_find(&r->key_names, name) >= 0)
		return mj_fail(r, n, "repeated keyframe name '%s'", name);
	r->key_values += nq + nv + 7 * nmocap + (own_attr(n, "ctrl") ?
	    r->nu : 0);
	if (r->key_values > MAX_KEY_VALUES)
		return mj_fail(r, n, "keyframes of more than %d values (each "
		    "key's qpos, qvel, mocap poses and ctrl): the limit (LIMITS "
		    "in phys(7))", MAX_KEY_VALUES);
	k.qpos = phys_xcalloc(nq + 1, sizeof *k.qpos);
	k.qvel = phys_xcalloc(nv + 1, sizeof *k.qvel);
	k.mocap = phys_xcalloc(7 * nmocap + 1, sizeof *k.mocap);
	qpos0(r, k.qpos);
	mocap0(r, k.mocap, nmocap);
	if (own_attr(n, "ctrl"))
		k.ctrl = phys_xcalloc(r->nu + 1, sizeof *k.ctrl);
	if (key_values(r, n, "qpos", k.qpos, nq, "the model's nq") < 0 ||
	    key_values(r, n, "qvel", k.qvel, nv, "the model's nv") < 0 ||
	    key_values(r, n, "mpos", k.mocap, 3 * nmocap,
	    "3 for each mocap body") < 0 ||
	    key_values(r, n, "mquat", k.mocap + 3 * nmocap, 4 * nmocap,
	    "4 for each mocap body") < 0 ||
	    (k.ctrl && key_values(r, n, "ctrl", k.ctrl, r->nu,
	    "the model's nu") < 0) ||
	    number(r, n, -1, "time", &t) < 0) {
		free(k.qpos);
		free(k.qvel);
		free(k.mocap);
		free(k.ctrl);
		return -1;
	}
	if (t != 0)
		mj_note(r, n, "time is not kept: a run's clock starts at 0");
	if (own_attr(n, "act"))
		mj_note(r, n, "act is not kept: a keyframe sets the joints' "
		    "positions and velocities, the mocap bodies' poses and "
		    "the actuators' controls");
	k.name = phys_xstrdup(name);
	k.line = phys_node_where(n);
	PHYS_GROW_ONE(r->keys, r->nkeys);
	r->keys[r->nkeys++] = k;
	phys_name_table_add(&r->key_names, r->nkeys - 1);
	return 0;
}

/* ---- contacts ---- */

/* The named geoms in name order, for the pairs' binary search: found
 * in n log n, however many. */
static const char *
geom_name(size_t i, const void *r)
{
	return ((const struct reader *)r)->geoms[i].name;
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
	static const double fr[5] = { 1, 1, 0.005, 0.0001, 0.0001 };
	struct mj_pair p;
	const char *name[2] = { own_attr(n, "geom1"), own_attr(n, "geom2") };
	double cd = 3;
	int cls, *g[2] = { &p.g1, &p.g2 }, i;

	memset(&p, 0, sizeof p);
	p.line = phys_node_where(n);
	memcpy(p.friction, fr, sizeof fr);
	memcpy(p.solref, phys_mjcf_solref, sizeof p.solref);
	memcpy(p.solimp, phys_mjcf_solimp, sizeof p.solimp);
	if (class_of(r, n, r->main, &cls) < 0 ||
	    number(r, n, cls, "condim", &cd) < 0 ||
	    some_numbers(r, n, cls, "friction", p.friction, 1, 5) < 0 ||
	    some_numbers(r, n, cls, "solref", p.solref, 1, 2) < 0 ||
	    some_numbers(r, n, cls, "solimp", p.solimp, 1, 5) < 0 ||
	    number(r, n, cls, "margin", &p.margin) < 0 ||
	    number(r, n, cls, "gap", &p.gap) < 0)
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
	if (phys_mjcf_geom_holder(r, p.g1) < 0 &&
	    phys_mjcf_geom_holder(r, p.g2) < 0) {
		mj_note(r, n, "both geoms are the world's, which never moves: "
		    "they never touch");
		return 0;
	}
	if (joined(r, phys_mjcf_geom_holder(r, p.g1),
	    phys_mjcf_geom_holder(r, p.g2)))
		mj_note(r, n, "its geoms' bodies are one, or joined by a joint: "
		    "phys keeps such links apart under every engine, and the "
		    "pair never touches");
	if (p.condim == 6 && p.friction[4] != p.friction[3])
		mj_note(r, n, "its second rolling coefficient is not kept: "
		    "both rolling directions take the first");
	r->geoms[p.g1].paired = r->geoms[p.g2].paired = true;
	PHYS_GROW_ONE(r->pairs, r->npairs);
	r->pairs[r->npairs++] = p;
	return 0;
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
		PHYS_GROW_ONE(r->excl, r->nexcl);
		r->excl[r->nexcl++] = excl_key(r, k[0], k[1]);
	}
	phys_name_order_free(&order);
	phys_keys_sort(r->excl, r->nexcl);
	return rc;
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

	if (phys_mjcf_vet(r, root) < 0)
		return -1;
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
		PHYS_GROW_ONE(r->cls, r->ncls);
		memset(&r->cls[0], 0, sizeof r->cls[0]);
		r->cls[0].name = phys_xstrdup("main");
		r->cls[0].parent = -1;
		r->ncls = 1;
		phys_name_table_add(&r->class_names, 0);
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
	for (n = phys_child(root, "extension"); n;
	    n = phys_next(n, "extension"))
		if (phys_mjcf_read_extension(r, n) < 0)
			return -1;
	for (n = phys_child(root, "tendon"); n; n = phys_next(n, "tendon"))
		if (read_tendons(r, n) < 0)
			return -1;
	for (n = phys_child(root, "worldbody"); n;
	    n = phys_next(n, "worldbody"))
		if (body_children(r, n, -1, r->main, 0, false) < 0)
			return -1;
	if (check_replicated(r, root) < 0 || check_tendons(r) < 0)
		return -1;
	/* what a <flag> turned off is not read (read_flags) */
	for (n = phys_child(root, "equality"); n &&
	    !(r->off & MJ_OFF_EQUALITY); n = phys_next(n, "equality"))
		if (read_equality(r, n) < 0)
			return -1;
	for (n = phys_child(root, "actuator"); n &&
	    !(r->off & MJ_OFF_ACTUATION); n = phys_next(n, "actuator"))
		for (c = phys_child(n, NULL); c; c = phys_next(c, NULL))
			if (read_actuator(r, c) < 0)
				return -1;
	if (check_force_ranges(r) < 0)
		return -1;
	for (n = phys_child(root, "contact"); n &&
	    !(r->off & MJ_OFF_CONTACT); n = phys_next(n, "contact"))
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
#define NAME_OF(kind, array)						\
	static const char *						\
	kind##_name_of(size_t i, const void *ctx)			\
	{								\
		return ((const struct reader *)ctx)->array[i].name;	\
	}
NAME_OF(class, cls)
NAME_OF(mesh, meshes)
NAME_OF(hfield, hfields)
NAME_OF(material, materials)
NAME_OF(body, bodies)
NAME_OF(joint, joints)
NAME_OF(site, sites)
NAME_OF(tendon, tendons)
NAME_OF(key, keys)
NAME_OF(pid, pids)
#undef NAME_OF

static void
names_init(struct reader *r)
{
	phys_name_table_init(&r->class_names, class_name_of, r, true);
	phys_name_table_init(&r->mesh_names, mesh_name_of, r, false);
	phys_name_table_init(&r->hfield_names, hfield_name_of, r, false);
	phys_name_table_init(&r->material_names, material_name_of, r,
	    false);
	phys_name_table_init(&r->body_names, body_name_of, r, false);
	phys_name_table_init(&r->joint_names, joint_name_of, r, false);
	phys_name_table_init(&r->site_names, site_name_of, r, false);
	phys_name_table_init(&r->tendon_names, tendon_name_of, r, false);
	phys_name_table_init(&r->key_names, key_name_of, r, false);
	phys_name_table_init(&r->pid_names, pid_name_of, r, false);
}

static void
reader_free(struct reader *r)
{
	size_t i;

	free(r->replicated);

	for (i = 0; i < r->ncls; i++)
		free(r->cls[i].name);
	for (i = 0; i < r->nmeshes; i++) {
		free(r->meshes[i].name);
		free(r->meshes[i].file);
		free(r->meshes[i].uri);
		free(r->meshes[i].vertex);
		free(r->meshes[i].face);
	}
	for (i = 0; i < r->nbodies; i++)
		free(r->bodies[i].name);
	for (i = 0; i < r->ngeoms; i++)
		free(r->geoms[i].name);
	for (i = 0; i < r->njoints; i++) {
		free(r->joints[i].name);
		free(r->joints[i].sdf);
	}
	for (i = 0; i < r->nsites; i++) {
		free(r->sites[i].name);
		free(r->sites[i].sdf);
	}
	for (i = 0; i < r->ntendons; i++) {
		free(r->tendons[i].joint);
		free(r->tendons[i].coef);
	}
	free(r->tendons);
	free(r->cls);
	free(r->meshes);
	for (i = 0; i < r->nhfields; i++) {
		free(r->hfields[i].name);
		free(r->hfields[i].uri);
	}
	free(r->hfields);
	for (i = 0; i < r->nmaterials; i++)
		free(r->materials[i].name);
	free(r->materials);
	free(r->bodies);
	free(r->geoms);
	free(r->joints);
	free(r->sites);
	free(r->equality);
	free(r->acts);
	phys_mjcf_pids_free(r);
	free(r->excl);
	free(r->pairs);
	for (i = 0; i < r->nkeys; i++) {
		free(r->keys[i].name);
		free(r->keys[i].qpos);
		free(r->keys[i].qvel);
		free(r->keys[i].mocap);
		free(r->keys[i].ctrl);
	}
	free(r->keys);
	free(r->meshdir);
	phys_name_table_free(&r->class_names);
	phys_name_table_free(&r->mesh_names);
	phys_name_table_free(&r->hfield_names);
	phys_name_table_free(&r->material_names);
	phys_name_table_free(&r->body_names);
	phys_name_table_free(&r->joint_names);
	phys_name_table_free(&r->site_names);
	phys_name_table_free(&r->tendon_names);
	phys_name_table_free(&r->key_names);
	phys_name_table_free(&r->pid_names);
	free(r->model);
	if (r->out)
		xmlFreeDoc(r->out);
}

static void
copy_files(struct phys_doc *d, char *const *files, size_t n)
{
	size_t i;

	while (d->nfiles > 0)
		free(d->files[--d->nfiles]);
	free(d->files);
	d->files = n ? phys_xcalloc(n, sizeof *d->files) : NULL;
	for (i = 0; i < n; i++)
		d->files[i] = phys_xstrdup(files[i]);
	d->nfiles = n;
}

/* Where conversion has reached: the body being read or written, else
 * the model's root. */
static long
reached(const void *reader, const char **file)
{
	const struct reader *r = reader;

	*file = phys_doc_file(r->d, r->at);
	return phys_where_line(r->at);
}

int
phys_mjcf_convert(struct phys_doc *src, bool owns, struct phys_doc *out,
    const struct phys_urdf_options *o)
{
	struct phys_urdf_options quiet = { .quiet = true };
	struct phys_reading place = { NULL, reached, NULL, NULL };
	struct reader r;
	const char *name;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.d = src;
	r.o = o ? o : &quiet;
	names_init(&r);
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
	r.noslip_tolerance = 1e-6;
	name = own_attr(src->root, "model");
	r.model = phys_xstrdup(name && *name ? name : "MuJoCo Model");
	out->name = phys_xstrdup(src->name);
	out->path = src->path ? phys_xstrdup(src->path) : NULL;
	if (!owns)	/* the file may be edited (mjcfedit.h) */
		phys_mjcf_mark(src);
	r.at = phys_node_where(src->root);
	place.arg = &r;
	phys_reading_push(&place);
	rc = expand_includes(&r, src->root);
	if (rc == 0)
		rc = read_top(&r, src->root);
	if (rc == 0)
		rc = phys_mjcf_write_sdf(&r, phys_node_line(src->root));
	phys_reading_pop(&place);
	if (rc == 0) {
		out->xml = r.out;
		r.out = NULL;
		out->root = xmlDocGetRootElement(out->xml);
		out->kind = PHYS_DOC_MODEL;
		out->from = PHYS_DOC_MJCF;
		out->major = 1;
		out->minor = r.mimic ? 11 : 9;
		/* the files its elements' lines name */
		copy_files(out, src->files, src->nfiles);
	}
	reader_free(&r);
	if (owns) {
		/* the source is not needed once converted */
		phys_doc_free(src);
		free(src);
	}
	return rc;
}
