/*
 * mjcfint.h - what reading an MJCF model (mjcf.c) and writing the SDF
 * model from it (mjcf_sdf.c) share: the model as read, in MuJoCo's terms
 * (struct reader), and the helpers both use: messages at an element's
 * file and line, an element's attributes through its default classes,
 * the lookups of joints and excluded body pairs. Those are static inline
 * so that the writer uses nothing of mjcf.c, which calls it
 * (tools/check-lib: no two files use each other).
 */
#ifndef PHYS_MJCFINT_H
#define PHYS_MJCFINT_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "mjcf_inertia.h"
#include "names.h"
#include "num.h"
#include "pairkey.h"
#include "sdf.h"
#include "urdf.h"
#include "world_types.h"

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
	char *file;		/* resolved path; NULL: given by its lists */
	char *uri;		/* the same beside the model's file, for SDF */
	double *vertex;		/* its attributes' lists (numbers, three a */
	double *face;		/* vertex, three a triangle), as floats */
	size_t nvertex, nface;
	/* an edge two faces run the same way along (-1: none) */
	long long twice[2];
	double scale[3];
	/* refpos and refquat, which MuJoCo 2.2.2 applies to the vertices
	 * before scale: the pose a geom of the mesh composes with its own
	 * to stand where its vertices as given (times scale) are */
	phys_pose ref;
	long line;
	double density;		/* kg/m^3, its class's geom density */
	/* inertia="shell" (a later MuJoCo's): its mass on its faces */
	bool shell;
	/* its inertia as MuJoCo measures it, [0] of its volume, [1] of its
	 * faces (the mesh's shell, or a geom's shellinertia) */
	struct mj_mesh_measure {
		bool done;
		phys_pose frame;	/* centre and principal axes */
		double box[3];		/* half-sides of its inertia box (m) */
		double amount;		/* m^3, or m^2: what density weighs */
	} measure[2];
};

/* What an <option><flag> turns off, as phys applies it. */
enum {
	MJ_OFF_CONTACT = 1,	/* no geom touches another */
	MJ_OFF_LIMIT = 2,	/* joints unlimited */
	MJ_OFF_FRICTIONLOSS = 4,	/* joints without Coulomb friction */
	MJ_OFF_EQUALITY = 8,	/* no equality constraint */
	MJ_OFF_PASSIVE = 16,	/* joints without springs and damping */
	MJ_OFF_ACTUATION = 32,	/* no actuator */
	MJ_OFF_GRAVITY = 64,
	/* a later MuJoCo's eulerdamp: Euler's damping explicit, where
	 * 2.2.2 integrates it implicitly (mjcf_qpos0.c judges it) */
	MJ_OFF_EULERDAMP = 128,
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
	double margin, gap;	/* m */
	double solmix;		/* its weight in a mix of two geoms' */
	int priority;		/* the higher's surface is a pair's */
	int group, mesh, condim;
	double rgba[4];		/* the colour MuJoCo draws it in */
	int hfield;		/* a heightmap of this hfield; -1: none */
	int contype, conaffinity;	/* MuJoCo's collision bits */
	bool collides;		/* contype or conaffinity set */
	bool paired;		/* in a <pair>: a collision whatever its bits */
	bool inertia;		/* counted in the body's inertia */
	bool shell;		/* shellinertia (a later MuJoCo's): its mass
				 * on its surface */
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
	double margin, gap;	/* m */
	long line;
};

struct mj_joint {
	char *name;
	char *sdf;		/* its SDF name (name_apart) */
	enum mj_joint_type type;
	phys_vec3 pos, axis;	/* body frame */
	bool limited;
	double range[2];	/* rad or m, in MuJoCo's qpos */
	double ref, springref;
	double damping, stiffness, armature, frictionloss;
	/* its limits' softness, and how far inside the range they act (in
	 * the unit the file gives it: MuJoCo turns no degrees of it) */
	double solreflimit[2], solimplimit[5], margin;
	/* a later MuJoCo's actuatorfrcrange: the sum of its actuators'
	 * forces on it held to frcrange (N or N m) */
	bool frclimited;
	double frcrange[2];
	bool actgravcomp;	/* gravcomp counted among them */
	/* time constant (s) and damping ratio its stiffness and damping
	 * are made of, once the masses are final (mjcf_qpos0.c) */
	double springdamper[2];
	/* the equality it follows (phys holds a joint to one coupling as
	 * its follower: a mimic), or NULL */
	xmlNodePtr follows;
	long line;
	int body;		/* the body it moves */
	/* driven by an actuator read: of its own, or of a tendon */
	bool acted, tendon_acted;
};

struct mj_body {
	char *name;
	int parent;		/* -1: the world body */
	bool mocap;		/* moved by the user, not by forces */
	bool gravcomp;		/* a later MuJoCo's: its weight borne */
	phys_pose world;	/* at qpos0 */
	struct phys_mjcf_inertial in;
	size_t geom0, ngeoms, joint0, njoints;
	long line;
};

/* A fixed tendon, as an equality may couple its joints or an actuator
 * pull them (others are not kept): its joints of nonzero coefficient. */
struct mj_tendon {
	const char *name;	/* the document's */
	const char **joint;	/* names, the document's */
	double *coef;
	size_t njoints;
	bool fixed;
	/* a spring and damper along it (N/m or N m/rad, N s/m), at rest
	 * at springlength (negative: its length at the joints' springref) */
	double stiffness, damping, springlength;
	/* limited: held within range (MuJoCo's measure) as softly as
	 * solreflimit and solimplimit say, from margin inside it; a spatial
	 * one between two sites (names, the document's) */
	bool limited;
	double range[2], solref[2], solimp[5], margin;
	const char *site[2];
	long line;
};

struct mj_site {
	char *name;
	char *sdf;		/* its SDF name (name_apart) */
	int body;
	phys_pose pose;
	long line;
};

enum { ACT_MOTOR, ACT_POSITION, ACT_VELOCITY, ACT_TENDON, ACT_SITE };
/* An actuator's dynamics: a filter, as 2.2.2 integrates it over a step,
 * or as a later MuJoCo's filterexact does, exactly. */
enum { MJ_DYN_NONE, MJ_DYN_INTEGRATOR, MJ_DYN_FILTER, MJ_DYN_FILTEREXACT };

/*
 * A linear coupling of joints, sum coef[k] q_k = c0 (q measured from
 * qpos0), the first joint following the others: a tendon equality as
 * phys holds it (a mimic of several leaders).
 */
#define MJ_COUPLED_MAX	(PHYS_MIMIC_LEADERS + 1)
struct mj_coupling {
	int joint[MJ_COUPLED_MAX];	/* the reader's joints */
	double coef[MJ_COUPLED_MAX];
	int n;
	double c0;
};

struct reader {
	struct phys_doc *d;
	const struct phys_urdf_options *o;
	char *model;
	long at;		/* where the body being read or written is */
	/* <compiler> */
	bool degree;
	char eulerseq[4];
	int inertiafromgeom;	/* 0 false, 1 true, 2 auto */
	int igroup[2];
	double boundmass, boundinertia, settotalmass;
	bool balanceinertia, autolimits, discardvisual, fusestatic;
	bool fitaabb;		/* a geom fitted to a mesh: to its box */
	/* autolimits given by the file, and a range without its limited
	 * attribute read as a later MuJoCo reads it (said once) */
	bool autolimits_given, autolimits_said;
	bool shell_mesh_said;	/* a mesh geom's shellinertia, said once */
	/* <option><flag>: the parts of MuJoCo's dynamics the model turns
	 * off (MJ_OFF_*) */
	unsigned off;
	long flag_line;		/* the <flag>'s */
	/* fusestatic, and nothing naming what it would move: each body
	 * without joints becomes part of the body it is welded to */
	bool fuse;
	char *meshdir;
	/* <option>, MuJoCo's defaults unless given */
	double timestep, gravity[3], tolerance, impratio, noslip_tolerance;
	double density, viscosity, wind[3];	/* the medium's */
	int integrator, solver, cone, iterations, noslip_iterations;
	bool multiccd;		/* a later MuJoCo's flag, enabled */
	long option_line;
	struct mj_class *cls;
	size_t ncls;
	int main;		/* the class "main" is, the last read */
	struct mj_mesh *meshes;
	size_t nmeshes;
	/* <hfield>s: MuJoCo's size (half sides, top, base) and whether a
	 * file or elevation gives its heights (else all 0) */
	struct mj_hfield {
		char *name;	/* its own, else its file's (file_stem) */
		double size[4];
		bool data;
		/* its PNG, as its geoms' heightmap names it (beside the
		 * model's file, as a mesh's); NULL: none (inline heights,
		 * or MuJoCo's own binary file, are not read) */
		char *uri;
	} *hfields;
	size_t nhfields;
	/* <material>s: the colour each gives a geom of no rgba of its own */
	struct mj_material {
		char *name;
		double rgba[4];
	} *materials;
	size_t nmaterials;
	struct mj_body *bodies;
	size_t nbodies;
	struct mj_geom *geoms;
	size_t ngeoms;
	struct mj_joint *joints;
	size_t njoints;
	struct mj_site *sites;
	size_t nsites;
	struct mj_tendon *tendons;
	size_t ntendons;
	/* each kind's names by hash, as they are read: a reader linear in
	 * its input however many names it looks up (of classes, the last
	 * of a name: the main class read last) */
	struct phys_name_table class_names, mesh_names, hfield_names,
	    material_names, body_names, joint_names, site_names, tendon_names,
	    key_names, pid_names;
	/* within a later MuJoCo's <replicate>: the suffix of the names read
	 * (NULL: none), and the names given in one, with their lines */
	char *suffix;
	size_t copies;		/* elements replicates made */
	struct mj_replicated {
		const char *name;	/* the file's */
		long line;
	} *replicated;
	size_t nreplicated;
	xmlNodePtr *equality;	/* <connect>, <weld> and <joint> to write */
	size_t nequality;
	bool mimic;		/* a coupled joint: SDF 1.11 */
	bool hulls;		/* a mesh collides as its hull: SDF 1.11 */
	struct mj_act {
		int kind;	/* ACT_* */
		int joint;	/* -1: a tendon's or a site's */
		/* ACT_SITE's: its site, and its gear (force, torque) in
		 * the site's frame */
		int site;
		double sgear[6];
		/* A fixed tendon's: its force gain times control plus
		 * bias[0] + bias[1] L + bias[2] dL/dt of its length L, the
		 * control within ctrl[], the force within force[] */
		int tendon;
		double bias[3], ctrl[2], force[2];
		/* the input, under dynamics (MJ_DYN_*), its activation:
		 * integrated from the control (integrator), or following
		 * it in time tau (filter), held to act[] */
		int dyn;
		double tau, act[2];
		double gain, fmax;	/* N m per unit; force limit */
		double kd;	/* a servo's damping (N m s): general's -biasprm[2] */
		/* a later MuJoCo's: the servo's damping as a ratio of its
		 * critical damping at qpos0, made kd (and -bias[2]) once
		 * the masses are final (mjcf_sdf.c); 0: none */
		double dampratio;
		double gear;	/* a motor's force per unit of control */
		/* a MuJoCo pid actuator's (mujoco.pid), a position servo:
		 * its integral gain, the integral term's bound (N m;
		 * PHYS_NO_LIMIT: none; 0 for any other servo, which has
		 * no integral), its control's fastest rate (< 0: none) and its
		 * force's lower bound (fmax the upper) */
		bool pid;
		double ki, imax, slew, fmin;
		size_t index;	/* among all the model's actuators */
		xmlNodePtr plugin;	/* its system, once written */
		long line;
	} *acts;
	size_t nacts;
	size_t nu;		/* actuators, read or not: MuJoCo's nu */
	/* <extension>'s instances of mujoco.pid, MuJoCo's pid actuator */
	struct mj_pid {
		char *name;
		double kp, ki, kd;	/* its gains */
		double imax;	/* the integral term's bound, N m (< 0: none) */
		double slew;	/* the control's fastest rate (< 0: none) */
		bool has_imax, has_slew;
	} *pids;
	size_t npids;
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
		/* the mocap bodies' positions, then their quaternions
		 * (w x y z), in body order: 7 values each */
		double *mocap;
		long line;
	} *keys;
	size_t nkeys;
	size_t key_values;	/* all keys' qpos, qvel, mocap and ctrl */
	size_t nincludes;
	xmlDocPtr out;
};

/* <option>'s keywords, in MuJoCo's order. */
static const char *const integrators[] = { "Euler", "RK4", "implicit",
	NULL };
static const char *const solvers[] = { "PGS", "CG", "Newton", NULL };
static const char *const cones[] = { "pyramidal", "elliptic", NULL };

/* A free, ball, slide or hinge joint's values in qpos and in qvel. */
static const size_t nq_of[] = { 7, 4, 1, 1 }, nv_of[] = { 6, 3, 1, 1 };

static inline int
mj_fail(struct reader *r, xmlNodePtr n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the model moves through a medium: MuJoCo's fluid forces are
 * passive ones, which <flag passive="disable"> turns off too. */
static inline bool
fluid_on(const struct reader *r)
{
	return (r->density > 0 || r->viscosity > 0) &&
	    !(r->off & MJ_OFF_PASSIVE);
}

/* Whether tendon t pulls its joints of itself, as a spring or damper
 * (passive forces, which <flag passive="disable"> turns off). */
static inline bool
sprung(const struct reader *r, const struct mj_tendon *t)
{
	return (t->stiffness != 0 || t->damping != 0) &&
	    !(r->off & MJ_OFF_PASSIVE);
}

/* Whether colour c is a geom's default (0.5 0.5 0.5 1), as MuJoCo
 * compares it: in the floats it keeps. */
static inline bool
default_rgba(const double c[4])
{
	return (float)c[0] == 0.5f && (float)c[1] == 0.5f &&
	    (float)c[2] == 0.5f && (float)c[3] == 1.0f;
}

/* The file an element was read from: an included one (the model's
 * files), or the model's. */
static inline const char *
file_of(const struct reader *r, xmlNodePtr n)
{
	return phys_node_file(r->d, n);
}

static inline int
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

/* A note at element n, said once unless the reader is quiet: 0. */
static inline int
mj_notef(struct reader *r, xmlNodePtr n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline int
mj_notef(struct reader *r, xmlNodePtr n, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (r->o->quiet)
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	phys_warnat_once(file_of(r, n), phys_node_line(n), "%s", msg);
	return 0;
}

/*
 * The attribute's text, the document's own; NULL when absent. Its
 * element's attributes are compared here, most ruled out by a name's
 * first letter: through xmlHasProp, the calls and comparisons took a
 * twentieth of a model's read. A DTD's default attributes, which MJCF
 * files hardly have, are still asked of it.
 */
static inline const char *
own_attr(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a = NULL;

	if (n && n->type == XML_ELEMENT_NODE)
		for (a = n->properties; a; a = a->next)
			if (a->name[0] == (xmlChar)name[0] &&
			    strcmp((const char *)a->name, name) == 0)
				break;
	if (!a && n && n->doc && n->doc->intSubset)
		a = xmlHasProp(n, (const xmlChar *)name);

	return a && a->children ? (const char *)a->children->content :
	    a ? "" : NULL;
}

/* The element a <default> holds for n's kind: n's own name, but a
 * <fixed> or <spatial> tendon's <tendon>, and any equality's (a
 * <connect>, a <joint> of <equality>) <equality>. */
static inline const xmlChar *
default_kind(xmlNodePtr n)
{
	static const xmlChar tendon[] = "tendon", equality[] = "equality";
	const char *name = (const char *)n->name;

	if (n->parent && n->parent->type == XML_ELEMENT_NODE &&
	    xmlStrEqual(n->parent->name, equality))
		return equality;
	return (name[0] == 'f' && strcmp(name, "fixed") == 0) ||
	    (name[0] == 's' && strcmp(name, "spatial") == 0) ? tendon :
	    n->name;
}

/* Whether n is an actuator's element (of <actuator> or <default>): a
 * name's first letter rules out most before it is compared. */
static inline bool
is_actuator(xmlNodePtr n)
{
	static const char *const kinds[] = { "general", "motor", "position",
		"velocity", "cylinder", "muscle", "adhesion", "damper",
		"intvelocity" };
	const char *k = (const char *)n->name;
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (kinds[i][0] == k[0] && strcmp(k, kinds[i]) == 0)
			return true;
	return false;
}

/*
 * An attribute every actuator has, which MuJoCo's actuators of any kind
 * share in a class: its <default> keeps one actuator, which each of its
 * actuator elements (a <general>, a <motor>, ...) sets in turn. The
 * gains and biases a kind's own attributes make (kp, kv) stay the kind's.
 */
static inline bool
shared_actuator_attr(const char *name)
{
	static const char *const own[] = { "kp", "kv", "gainprm", "biasprm",
		"gaintype", "biastype", "dyntype", "dynprm", "timeconst",
		"area", "diameter", "bias", "gain", "force", "scale", "range",
		"lmin", "lmax", "vmax", "fpmax", "fvmax", "damping", "kpv",
		"inheritrange" };
	size_t i;

	for (i = 0; i < sizeof own / sizeof *own; i++)
		if (own[i][0] == name[0] && strcmp(name, own[i]) == 0)
			return false;
	return true;
}

/* Attribute name of the actuator elements of <default> d: the last one
 * that gives it, that element in *at. */
static inline const char *
actuator_default(xmlNodePtr d, const char *name, xmlNodePtr *at)
{
	const char *v = NULL, *w;
	xmlNodePtr c;

	for (c = d ? d->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && is_actuator(c) &&
		    (w = own_attr(c, name))) {
			v = w;
			*at = c;
		}
	return v;
}

/*
 * Where an attribute of element n is looked up in its classes: the
 * element of n's kind each <default> holds, or, for what actuators
 * share, any actuator's of the <default>. Decided once for a lookup
 * through a chain of classes.
 */
struct class_lookup {
	const xmlChar *kind;
	bool shared;
};

static inline struct class_lookup
class_lookup(xmlNodePtr n, const char *name)
{
	struct class_lookup q = { default_kind(n), false };

	q.shared = is_actuator(n) && shared_actuator_attr(name);
	return q;
}

/* The attribute name in class cls as q looks it up, NULL where the class
 * does not write it; in *at the element that does. */
static inline const char *
class_attr(const struct reader *r, struct class_lookup q, int cls,
    const char *name, xmlNodePtr *at)
{
	struct mj_class *c = &r->cls[cls];
	const char *v = NULL;

	if (q.shared)
		return actuator_default(c->node, name, at);
	if (!c->asked || (c->asked != q.kind && !xmlStrEqual(c->asked,
	    q.kind))) {
		c->asked = q.kind;
		c->answer = phys_child(c->node, (const char *)q.kind);
	}
	if (c->answer && (v = own_attr(c->answer, name)))
		*at = c->answer;
	return v;
}

/* The attribute of element n or its class's, or that class's parents';
 * in *at the element that writes it (n when none does). */
static inline const char *
attr_at(const struct reader *r, xmlNodePtr n, int cls, const char *name,
    xmlNodePtr *at)
{
	const char *v = own_attr(n, name);
	struct class_lookup q;

	*at = n;
	if (v || cls < 0)
		return v;
	q = class_lookup(n, name);
	for (; !v && cls >= 0; cls = r->cls[cls].parent)
		v = class_attr(r, q, cls, name, at);
	return v;
}

static inline const char *
attr(const struct reader *r, xmlNodePtr n, int cls, const char *name)
{
	xmlNodePtr at;

	return attr_at(r, n, cls, name, &at);
}

/* Whether value v has a word that reads as a number but not a finite
 * one (nan, inf, 1e999). */
static inline bool
nonfinite_word(const char *v)
{
	char *end;
	double x;

	while (*(v += strspn(v, " \t\r\n"))) {
		x = strtod(v, &end);
		if (end > v && (!*end || strchr(" \t\r\n", *end)) &&
		    !isfinite(x))
			return true;
		v += strcspn(v, " \t\r\n");
	}
	return false;
}

/* Attribute name's value v is not the numbers expected ("4", "1 to
 * 10"): -1, said. */
static inline int
numbers_fail(struct reader *r, xmlNodePtr at, const char *name,
    const char *v, const char *expected)
{
	if (nonfinite_word(v))
		return mj_fail(r, at, "%s=\"%.40s\": a number that is not "
		    "finite", name, v);
	return mj_fail(r, at, "%s=\"%.40s\": %s numbers expected", name, v,
	    expected);
}

/* n numbers of attribute name's value v (of element at): 0 when v is
 * NULL, else exactly n. */
static inline int
parsed_numbers(struct reader *r, xmlNodePtr at, const char *name,
    const char *v, double *out, int n)
{
	char expected[16];

	if (!v)
		return 0;
	if (phys_parse_doubles(v, out, n) != n) {
		snprintf(expected, sizeof expected, "%d", n);
		return numbers_fail(r, at, name, v, expected);
	}
	return n;
}

/* n numbers of an attribute: 0 when absent, else exactly n. */
static inline int
numbers(struct reader *r, xmlNodePtr el, int cls, const char *name,
    double *out, int n)
{
	xmlNodePtr at;
	const char *v = attr_at(r, el, cls, name, &at);

	return parsed_numbers(r, at, name, v, out, n);
}

/* Up to n numbers (n <= 12), at least min, over out: how many, of the
 * element's own or the nearest class's. */
static inline int
some_numbers_of(struct reader *r, const char *v, xmlNodePtr at,
    const char *name, double *out, int min, int n)
{
	double tmp[12];
	char expected[32];
	int k = phys_parse_doubles(v, tmp, 12);

	if (k < min || k > n) {
		snprintf(expected, sizeof expected, "%d to %d", min, n);
		return numbers_fail(r, at, name, v, expected);
	}
	memcpy(out, tmp, k * sizeof *out);
	return k;
}

/*
 * An attribute MuJoCo reads as up to n numbers: each class from the
 * outermost writes its numbers over its parent's, and the element its
 * own over its class's, as MuJoCo copies a class's values and reads an
 * element's over them (a class's friction "1 0.1 0.1" and a geom's "0.5"
 * make 0.5 0.1 0.1). How many the nearest gives, 0 when none does.
 */
static inline int
some_numbers(struct reader *r, xmlNodePtr el, int cls, const char *name,
    double *out, int min, int n)
{
	const char *v[32];
	xmlNodePtr at[32];
	int depth = 0, k = 0;
	struct class_lookup q = class_lookup(el, name);

	at[0] = el;
	if ((v[0] = own_attr(el, name)))
		depth = 1;
	for (; cls >= 0 && depth < 32; cls = r->cls[cls].parent)
		if ((v[depth] = class_attr(r, q, cls, name, &at[depth])))
			depth++;
	while (depth-- > 0)
		if ((k = some_numbers_of(r, v[depth], at[depth], name, out,
		    min, n)) < 0)
			return -1;
	return k;
}

/* The class of that name; of "main", the last (read_defaults). */
static inline int
class_find(const struct reader *r, const char *name)
{
	return phys_name_table_find(&r->class_names, name);
}

/* no name: none */
static inline int
joint_find(const struct reader *r, const char *name)
{
	return phys_name_table_find(&r->joint_names, name);
}

static inline int
tendon_find(const struct reader *r, const char *name)
{
	return phys_name_table_find(&r->tendon_names, name);
}

/* The key of bodies a and b (-1: the world) as a pair. */
static inline int64_t
excl_key(const struct reader *r, int a, int b)
{
	return phys_pair_key(a + 1, b + 1, (int64_t)r->nbodies + 1);
}

/* The body whose link holds geom gi in the SDF model, -1 for the world's
 * (its own, and the ground): mjcf_sdf.c. */
int phys_mjcf_geom_holder(const struct reader *r, int gi);

/* A tendon equality n as a coupling of its joints into c: 0, or -1 with
 * phys_error() at n (mjcf.c). */
int phys_mjcf_tendon_terms(struct reader *r, xmlNodePtr n,
    struct mj_coupling *c);

/* Equality n's solref and solimp as MuJoCo compiles them: its own
 * numbers over its class's <equality>, a class's over its parent's, over
 * MuJoCo's defaults: 0, or -1 with phys_error() at the element
 * (mjcf_coupling.c). */
int phys_mjcf_equality_softness(struct reader *r, xmlNodePtr n,
    double ref[2], double imp[5]);

/* The SDF model of what r holds into r->out, an <sdf> document whose
 * elements carry the lines of the MJCF elements they come from (line:
 * the <mujoco>'s): 0, or -1 with phys_error() at the element. */
int phys_mjcf_write_sdf(struct reader *r, long line);

#endif
