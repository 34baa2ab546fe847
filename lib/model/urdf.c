/*
 * urdf.c - URDF robots converted as libsdformat converts them.
 *
 * Gazebo and gz-sim read URDF through libsdformat's converter; a URDF here
 * gives the model they simulate. The facts of that conversion:
 *
 *  - The model is named after <robot name>. Links and joints keep their
 *    names; a link's frame is its parent joint's frame (<pose
 *    relative_to="JOINT"/>), a joint's pose is its <origin> in its parent
 *    link's frame. A root link named world is no link: each joint from it
 *    joins its child to the world.
 *  - Fixed joints are lumped: the child's inertial is merged into the
 *    parent's (mass summed, centre of mass weighted, tensor by parallel
 *    axes, expressed in the parent's inertial frame), its collisions and
 *    visuals move to the parent re-posed, and the movable joints below it
 *    take the parent as theirs, origins composed. <gazebo reference=
 *    "JOINT"> with <preserveFixedJoint> keeps a fixed joint, with
 *    <disableFixedJointLumping> makes it a revolute joint held at 0. A
 *    joint to world is never lumped. Links are visited from the root,
 *    children in the order of their joints' names (urdfdom keeps joints
 *    in a map), which fixes the order of lumped collisions.
 *  - Collision names: the <collision name> or, without one, the link's;
 *    then "_collision", then "_N" for the N-th collision of the link after
 *    the first; a name that does not begin with the link's name is
 *    prefixed with LINK_fixed_joint_lump__. The tags of <gazebo
 *    reference="LINK"> reach a collision of the link itself whose name has
 *    no such prefix, and a lumped one whose name holds
 *    _fixed_joint_lump__LINK_collision.
 *  - Continuous joints are revolute without position limits; lower >
 *    upper is swapped; <dynamics> gives damping and friction.
 *  - <gazebo> tags: mu1 mu2 fdir1 kp kd maxVel minDepth maxContacts
 *    laserRetro on each collision of the link; turnGravityOff,
 *    dampingFactor and selfCollide on the link; stopCfm stopErp
 *    springStiffness springReference implicitSpringDamper provideFeedback
 *    fudgeFactor on the joint; static on the model; a <collision> block
 *    into each collision; any other element copied into the link, joint
 *    or (without reference) model as it is. The tags of a lumped link go
 *    with it to its parent.
 *  - <robot><origin>, or a reference-less <gazebo><pose>, places the
 *    model; the origin wins.
 *  - package://PKG/... becomes model://PKG/...
 *
 * Where libsdformat loses data without a word, phys keeps it and warns
 * with file:line: a link without mass, once the links on fixed joints
 * below it are lumped into it, is kept (libsdformat drops it and every
 * link below it, and refuses a model left without links), massless links
 * lumped together add their masses (libsdformat's centre of mass is NaN
 * and it refuses the file), capsules are read (urdfdom stops reading
 * the link there), a floating joint leaves its child free where it is
 * (libsdformat refuses the file), a <mimic> becomes SDF's (libsdformat
 * drops it), an <inertia> missing a product reads it as 0 (urdfdom zeroes
 * the whole tensor), tags that reach nothing are named. Mesh URIs are
 * found here, through ROS_PACKAGE_PATH, AMENT_PREFIX_PATH,
 * GAZEBO_MODEL_PATH and the directories above the file (a package by its
 * folder's name or its package.xml's), and written as the file's path.
 *
 * The URDF is read as a stream (libxml2's SAX2), into what the
 * conversion needs, and never made a tree: loading a URDF costs what
 * loading the SDF it becomes costs. The converted document records, for
 * each link, collision and joint, the place of the URDF element it comes
 * from among the file's elements: an edit makes the URDF's tree then and
 * is written back into the URDF (urdfedit.c).
 */
#include "urdf.h"
#include "urdfint.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/parserInternals.h>

#include "file.h"
#include "inertia.h"

#define LUMP "_fixed_joint_lump__"



/*
 * An element of the URDF the converter reads, as the parser streamed it:
 * the URDF is never a tree here (its editor makes one when it must).
 */
struct u_el {
	const char *name;	/* its name; NULL when absent */
	long line;
	int ord;		/* its place among the file's elements */
	int attrs;		/* its attributes in the reader's strs, or -1 */
};

struct u_inertial {
	bool has;
	double mass;
	phys_pose origin;	/* the inertial frame in the link frame */
	double I[6];		/* ixx ixy ixz iyy iyz izz */
	struct u_el el, origin_el, mass_el, inertia_el;
};

struct u_shape {
	char *name;		/* the name attribute; NULL when none */
	int link;		/* the URDF link that holds it */
	bool collision;
	phys_pose origin;	/* in that link's frame */
	/* <collision> or <visual>, its <origin> and <geometry>, and the
	 * geometry's first element (<box>, <mesh>...) */
	struct u_el el, origin_el, geometry_el, shape_el;
	enum u_shape_kind kind;
	double size[3];
	char *uri;		/* a mesh: the file found, or the URI written */
	double scale[3];
};

struct u_link {
	char *name;
	struct u_el el;
	struct u_inertial in;
	int up;			/* its parent joint; -1 for the root */
	int *kids;		/* its child joints, in name order */
	size_t nkids;
	size_t first_shape, nshapes;	/* its visuals, then collisions */
	int body;		/* the link it is lumped into, or itself */
	phys_pose in_body;	/* its frame in that link's frame */
	phys_pose at;		/* its frame in the model frame */
};

/*
 * A link as libsdformat's converter leaves it: its mass once the links
 * below it on fixed joints are lumped into it, whether it then has an
 * <inertial> and a centre of mass of NaN (a lump of 0 kg with 0 kg
 * divides by 0), whether CreateSDF drops it (no <inertial>, or a mass
 * within 1e-6 of 0) and whether CreateSDF reaches it (no link above it
 * dropped).
 */
struct u_fate {
	double mass;
	bool has, nan, dropped, reached;
};

struct u_joint {
	char *name;
	struct u_el el, origin_el, parent_el, child_el, axis_el, limit_el,
	    dyn_el, mimic_el;
	enum u_joint_type type;
	phys_pose origin;	/* its frame in the parent link's frame */
	int parent, child;
	double axis[3];
	bool has_limit, has_dyn;
	double lower, upper, effort, velocity, damping, friction;
	char *mimic;
	double multiplier, offset;
	bool preserve, revolute0, lumped;
	bool swapped;		/* lower and upper, given the other way */
};

/* A <gazebo> block: its elements are kept as a small tree (the reader's
 * side document) to be copied into the model. */
struct u_ext {
	char *ref;		/* NULL: the robot */
	xmlNodePtr node;
	bool used;
};

struct name_ix {
	const char *name;
	int idx;
};

/* A list per link or joint of indices, as offsets into one array: item
 * i's are at[i] to at[i + 1] of of. */
struct lists {
	int *of, *at;
};

/* The names the writer has looked up in the output's dictionary, by the
 * address of the constant naming each (intern() below). */
struct interned {
	const char *name;
	const xmlChar *interned;
};
#define NINTERNED 128

struct reader {
	struct phys_doc *d;	/* the URDF */
	const struct phys_urdf_options *o;
	long at;		/* the line of the link being written, else 1 */
	struct phys_urdf *info;
	char *robot;
	struct u_link *links;
	struct u_joint *joints;
	struct u_shape *shapes;
	struct u_ext *exts;
	size_t nlinks, njoints, nshapes, nexts;
	size_t caplinks, capjoints, capshapes, capexts;
	struct u_el robot_el, origin_el;	/* <robot>, its <origin> */
	struct phys_buf strs;	/* attributes: "name\0value\0...\0" */
	xmlDocPtr side;		/* the <gazebo> blocks' elements */
	xmlDictPtr dict;	/* the names of the elements read */
	struct name_ix *link_ix, *joint_ix;	/* by name */
	int root;		/* the root link */
	/* Every pass over the tree is a pass over order, so that a long
	 * chain of links costs no stack and each pass is linear. */
	int *order;		/* the links from the root, children by name */
	int *pos;		/* each link's place in order */
	int *size;		/* the links of each link's subtree, itself too */
	int *next_body;		/* by place: the place of the next SDF link */
	struct lists lumps;	/* a body's links, in libsdformat's order */
	struct u_fate *fates;	/* by link */
	/* libsdformat refuses what it converts: no link left, or a NaN */
	bool no_link, nan;
	/* no link has a mass: a run gives them their shapes' (massless.h) */
	bool massless;
	struct lists link_exts, joint_exts;	/* <gazebo> blocks, in order */
	int minor;		/* the SDF version the model needs */
	xmlDocPtr out;
	xmlNodePtr model;
	struct interned names[NINTERNED];	/* out's element names */
};

/* ---- messages ---- */

static int urdf_fail(struct reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void urdf_warn(struct reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void urdf_doubt(struct reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
urdf_fail(struct reader *r, long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return phys_failat(r->d->name, line, "%s", msg);
}

static void
vsay(struct reader *r, long line, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	phys_warnat(r->d->name, line, "%s", msg);
}

static void
urdf_warn(struct reader *r, long line, const char *fmt, ...)
{
	va_list ap;

	if (r->o->quiet)
		return;
	va_start(ap, fmt);
	vsay(r, line, fmt, ap);
	va_end(ap);
}

/* Input that is legal but most likely a mistake: said also where the
 * caller reads quietly, when it asks for these (only -q silences them). */
static void
urdf_doubt(struct reader *r, long line, const char *fmt, ...)
{
	va_list ap;

	if (r->o->quiet && !r->o->doubts)
		return;
	va_start(ap, fmt);
	vsay(r, line, fmt, ap);
	va_end(ap);
}

/* ---- the stream: what the converter reads of the URDF ---- */

/* What an element is to the converter, by where it is: what its
 * children can be. K_OTHER holds nothing the converter reads. */
enum u_kind { K_NONE, K_OTHER, K_ROBOT, K_ORIGIN, K_LINK, K_INERTIAL,
	K_SHAPE, K_GEOMETRY, K_JOINT, K_JOINT_PART, K_GAZEBO, K_GAZEBO_PART };

#define MAX_DEPTH 512	/* libxml2 stops at 256 levels */

#define UNREAD_KINDS	16	/* unread element names told apart */

struct stream {
	struct reader *r;
	xmlParserCtxtPtr ctxt;
	int depth, ord;
	enum u_kind kinds[MAX_DEPTH];
	xmlNodePtr gz;		/* inside a <gazebo> block: its element */
	int link, shape, joint;	/* the last of each begun */
	long xacro_line;	/* the first of xacro's own elements, 0: none */
	char xacro[64];
	long call_line;		/* the first macro call left, 0 for none */
	char call[64];
	int ncalls;
	bool entities;
	const char *over;	/* links or joints past the limit (sdf.h) */
	long over_line;
	long expr_line;		/* the first ${...} or $(...) left, 0: none */
	char expr[64];
	/* a visual's <material> without a name (URDF's requires one), the
	 * first's line and link, and how many links have one */
	long nameless_line;
	int nameless_first, nameless_last, nameless_links;
	/* elements URDF does not have where phys reads URDF's (PyBullet's
	 * <contact>, Drake's drake:*, Isaac Gym's <sdf>): each name and
	 * where it sits, its first line and how many, said at the end */
	struct unread {
		char name[48];
		const char *in;
		long line;
		int n;
	} unread[UNREAD_KINDS];
	int nunread;
};

/* xacro's ${...} and $(...): a value xacro did not expand, kept for a
 * warning at the first. */
static void
note_expression(struct stream *st, const char *v, size_t len)
{
	const char *p;

	if (st->expr_line)
		return;
	for (p = v; (p = memchr(p, '$', len - (size_t)(p - v))) &&
	    p + 1 < v + len; p++)
		if (p[1] == '{' || p[1] == '(') {
			st->expr_line = st->ctxt->input ?
			    st->ctxt->input->line : 1;
			snprintf(st->expr, sizeof st->expr, "%.*s",
			    (int)(v + len - p < 40 ? v + len - p : 40), p);
			return;
		}
}

/* One more link or joint than a world may hold (sdf.h): the stream
 * stops there, and the rest of a huge robot is not read. */
static bool
past_limit(struct stream *st, size_t count, size_t max, const char *what)
{
	if (count < max)
		return false;
	st->over = what;
	st->over_line = st->ctxt->input ? st->ctxt->input->line : 0;
	xmlStopParser(st->ctxt);
	return true;
}

/* Attribute values, entities decoded (&amp; is given as &#38;). */
static void
keep_attrs(struct stream *st, struct u_el *e, int n, const xmlChar **a)
{
	struct phys_buf *b = &st->r->strs;
	xmlChar *v;
	int i, len;

	e->attrs = (int)b->len;
	for (i = 0; i < n; i++, a += 5) {
		if (a[1])	/* prefixed: no URDF attribute */
			continue;
		len = (int)(a[4] - a[3]);
		note_expression(st, (const char *)a[3], (size_t)len);
		phys_buf_puts(b, (const char *)a[0]);
		phys_buf_putc(b, '\0');
		if (memchr(a[3], '&', (size_t)len) && (v =
		    xmlStringLenDecodeEntities(st->ctxt, a[3], len,
		    XML_SUBSTITUTE_REF, 0, 0, 0))) {
			phys_buf_puts(b, (const char *)v);
			xmlFree(v);
		} else {
			phys_buf_putn(b, (const char *)a[3], (size_t)len);
		}
		phys_buf_putc(b, '\0');
	}
	phys_buf_putc(b, '\0');
}

static bool
take(struct stream *st, struct u_el *e, const xmlChar *name, int n,
    const xmlChar **a)
{
	if (e->name)	/* only the first, as urdfdom reads */
		return false;
	/* the parser's dictionary goes with it: the reader's holds it */
	e->name = (const char *)xmlDictLookup(st->r->dict, name, -1);
	e->line = st->ctxt->input ? st->ctxt->input->line : 0;
	e->ord = st->ord;
	keep_attrs(st, e, n, a);
	return true;
}

static const char *
el_attr(const struct reader *r, const struct u_el *e, const char *name)
{
	const char *p;

	if (!e->name || e->attrs < 0)
		return NULL;
	for (p = r->strs.s + e->attrs; *p; p += strlen(p) + 1) {
		if (strcmp(p, name) == 0)
			return p + strlen(p) + 1;
		p += strlen(p) + 1;
	}
	return NULL;
}

/* A copy of an attribute's value, or NULL. */
static char *
el_attr_dup(const struct reader *r, const struct u_el *e, const char *name)
{
	const char *v = el_attr(r, e, name);

	return v ? phys_xstrdup(v) : NULL;
}

static struct u_el
new_el(void)
{
	struct u_el e = { NULL, 0, 0, -1 };

	return e;
}

static enum u_kind
begin_link(struct stream *st, const xmlChar *name, int n, const xmlChar **a)
{
	struct reader *r = st->r;
	struct u_link *l;

	if (past_limit(st, r->nlinks, PHYS_MAX_LINKS, "links"))
		return K_OTHER;
	PHYS_GROW(r->links, r->nlinks, r->caplinks);
	l = &r->links[st->link = (int)r->nlinks++];
	memset(l, 0, sizeof *l);
	l->el = l->in.el = l->in.origin_el = l->in.mass_el =
	    l->in.inertia_el = new_el();
	l->up = -1;
	l->first_shape = r->nshapes;
	take(st, &l->el, name, n, a);
	return K_LINK;
}

static enum u_kind
begin_shape(struct stream *st, const xmlChar *name, int n,
    const xmlChar **a)
{
	struct reader *r = st->r;
	struct u_shape *s;

	PHYS_GROW(r->shapes, r->nshapes, r->capshapes);
	s = &r->shapes[st->shape = (int)r->nshapes++];
	memset(s, 0, sizeof *s);
	s->el = s->origin_el = s->geometry_el = s->shape_el = new_el();
	s->link = st->link;
	s->collision = xmlStrEqual(name, (const xmlChar *)"collision");
	take(st, &s->el, name, n, a);
	r->links[st->link].nshapes = r->nshapes - r->links[st->link].first_shape;
	return K_SHAPE;
}

static enum u_kind
begin_joint(struct stream *st, const xmlChar *name, int n,
    const xmlChar **a)
{
	struct reader *r = st->r;
	struct u_joint *j;

	if (past_limit(st, r->njoints, PHYS_MAX_JOINTS, "joints"))
		return K_OTHER;
	PHYS_GROW(r->joints, r->njoints, r->capjoints);
	j = &r->joints[st->joint = (int)r->njoints++];
	memset(j, 0, sizeof *j);
	j->el = j->origin_el = j->parent_el = j->child_el = j->axis_el =
	    j->limit_el = j->dyn_el = j->mimic_el = new_el();
	take(st, &j->el, name, n, a);
	return K_JOINT;
}

/*
 * An element URDF does not have, as a child of 'in': libsdformat's
 * parser drops it without a word, Drake's rotor inertia and PyBullet's
 * friction with it; phys says so, once a name. Elements of ROS's own
 * that carry no physics (transmissions, ros2_control) are left alone.
 */
static enum u_kind
unread(struct stream *st, const char *in, const xmlChar *name,
    const xmlChar *prefix)
{
	char full[48];
	int i;

	if (xmlStrEqual(name, (const xmlChar *)"transmission") ||
	    xmlStrEqual(name, (const xmlChar *)"ros2_control") ||
	    (prefix && xmlStrEqual(prefix, (const xmlChar *)"xacro")))
		return K_OTHER;
	snprintf(full, sizeof full, "%s%s%.40s", prefix ? (const char *)
	    prefix : "", prefix ? ":" : "", (const char *)name);
	for (i = 0; i < st->nunread; i++)
		if (strcmp(st->unread[i].in, in) == 0 &&
		    strcmp(st->unread[i].name, full) == 0) {
			st->unread[i].n++;
			return K_OTHER;
		}
	if (st->nunread == UNREAD_KINDS)
		return K_OTHER;
	snprintf(st->unread[i].name, sizeof st->unread[i].name, "%s", full);
	st->unread[i].in = in;
	st->unread[i].line = st->ctxt->input ? st->ctxt->input->line : 0;
	st->unread[i].n = 1;
	st->nunread++;
	return K_OTHER;
}

/* Whose an unread element is, where its prefix or place says. */
static const char *
unread_origin(const struct unread *u)
{
	if (strncmp(u->name, "drake:", 6) == 0)
		return "Drake's, ";
	if (strcmp(u->name, "contact") == 0 && strcmp(u->in, "link") == 0)
		return "PyBullet's contact parameters, ";
	if (strcmp(u->name, "sdf") == 0 && strcmp(u->in, "collision") == 0)
		return "Isaac Gym's signed distance field, ";
	return "";
}

static void
say_unread(struct stream *st)
{
	const struct unread *u;
	char many[32];
	int i;

	for (i = 0; i < st->nunread; i++) {
		u = &st->unread[i];
		many[0] = '\0';
		if (u->n > 1)
			snprintf(many, sizeof many, " (%d of them)", u->n);
		urdf_warn(st->r, u->line, "<%s> in <%s>%s: %snot URDF, and "
		    "not read (libsdformat drops it too)", u->name, u->in,
		    many, unread_origin(u));
	}
}

/* An element of a <gazebo> block, into the side document. */
static void
gazebo_element(struct stream *st, const xmlChar *name, const xmlChar *prefix,
    int n, const xmlChar **a)
{
	struct reader *r = st->r;
	char *qname = prefix ? phys_xasprintf("%s:%s", (const char *)prefix,
	    (const char *)name) : NULL;
	xmlNodePtr e = xmlNewDocNode(r->side, NULL, (const xmlChar *)(qname ?
	    qname : (const char *)name), NULL);
	struct u_el attrs = new_el();
	const char *p;
	long line = st->ctxt->input ? st->ctxt->input->line : 0;

	free(qname);
	phys_node_set_line(e, line);
	take(st, &attrs, name, n, a);
	for (p = r->strs.s + attrs.attrs; *p; p += strlen(p) + 1) {
		xmlNewProp(e, (const xmlChar *)p,
		    (const xmlChar *)p + strlen(p) + 1);
		p += strlen(p) + 1;
	}
	r->strs.len = (size_t)attrs.attrs;	/* kept in the element */
	xmlAddChild(st->gz ? st->gz : xmlDocGetRootElement(r->side), e);
	st->gz = e;
}

static enum u_kind
robot_child(struct stream *st, const xmlChar *name, const xmlChar *prefix,
    int n, const xmlChar **a)
{
	struct reader *r = st->r;

	if (xmlStrEqual(name, (const xmlChar *)"link"))
		return begin_link(st, name, n, a);
	if (xmlStrEqual(name, (const xmlChar *)"joint"))
		return begin_joint(st, name, n, a);
	if (xmlStrEqual(name, (const xmlChar *)"origin"))
		return take(st, &r->origin_el, name, n, a) ? K_ORIGIN : K_OTHER;
	if (xmlStrEqual(name, (const xmlChar *)"robot"))
		urdf_doubt(r, st->ctxt->input ? st->ctxt->input->line : 0,
		    "%s", "a <robot> inside <robot>: what it holds is not "
		    "read (a URDF holds one robot)");
	if (xmlStrEqual(name, (const xmlChar *)"robot") ||
	    xmlStrEqual(name, (const xmlChar *)"material"))
		return K_OTHER;
	if (!xmlStrEqual(name, (const xmlChar *)"gazebo"))
		return unread(st, "robot", name, prefix);
	PHYS_GROW(r->exts, r->nexts, r->capexts);
	memset(&r->exts[r->nexts], 0, sizeof *r->exts);
	gazebo_element(st, name, NULL, n, a);
	r->exts[r->nexts].node = st->gz;
	r->exts[r->nexts].ref = phys_node_attr(st->gz, "reference");
	r->nexts++;
	return K_GAZEBO;
}

static enum u_kind
joint_child(struct stream *st, const xmlChar *name, const xmlChar *prefix,
    int n, const xmlChar **a)
{
	static const char *const parts[] = { "origin", "parent", "child",
		"axis", "limit", "dynamics", "mimic" };
	struct u_joint *j = &st->r->joints[st->joint];
	struct u_el *els[] = { &j->origin_el, &j->parent_el, &j->child_el,
		&j->axis_el, &j->limit_el, &j->dyn_el, &j->mimic_el };
	size_t i;

	for (i = 0; i < sizeof parts / sizeof *parts; i++)
		if (xmlStrEqual(name, (const xmlChar *)parts[i]))
			return take(st, els[i], name, n, a) ? K_JOINT_PART :
			    K_OTHER;
	/* URDF's own, for a robot's controllers, not its physics */
	if (xmlStrEqual(name, (const xmlChar *)"calibration") ||
	    xmlStrEqual(name, (const xmlChar *)"safety_controller"))
		return K_OTHER;
	return unread(st, "joint", name, prefix);
}

/* Link li's name as written, or "" (none yet). */
static const char *
link_name_or(const struct reader *r, int li)
{
	const char *n = li >= 0 ? el_attr(r, &r->links[li].el, "name") : NULL;

	return n ? n : "";
}

/*
 * A visual's <material> of no name: urdfdom, which libsdformat reads URDF
 * through, refuses the visual and with it the rest of the link (its
 * collisions), and may lose more of the robot; phys reads it all, and
 * says so once, when the reading ends (read_stream).
 */
static void
note_nameless_material(struct stream *st, int n, const xmlChar **a)
{
	int i;

	for (i = 0; i < n; i++)	/* SAX2: 5 pointers an attribute */
		if (xmlStrEqual(a[5 * i], (const xmlChar *)"name"))
			return;
	if (st->nameless_links && st->nameless_last == st->link)
		return;		/* a link's shapes come within it */
	if (!st->nameless_links) {
		st->nameless_line = st->ctxt->input ? st->ctxt->input->line :
		    0;
		st->nameless_first = st->link;
	}
	st->nameless_last = st->link;
	st->nameless_links++;
}

/* Where an element is, in the URDF: what it is to the converter. */
static enum u_kind
element_kind(struct stream *st, enum u_kind up, const xmlChar *name,
    const xmlChar *prefix, int n, const xmlChar **a)
{
	struct reader *r = st->r;
	struct u_inertial *in = st->link >= 0 ? &r->links[st->link].in : NULL;
	struct u_shape *s = st->shape >= 0 ? &r->shapes[st->shape] : NULL;

#define IS(x) xmlStrEqual(name, (const xmlChar *)(x))
	switch (up) {
	case K_NONE:
		return take(st, &r->robot_el, name, n, a) ? K_ROBOT : K_OTHER;
	case K_ROBOT:
		return robot_child(st, name, prefix, n, a);
	case K_LINK:
		if (IS("inertial"))
			return take(st, &in->el, name, n, a) ? K_INERTIAL :
			    K_OTHER;
		if (IS("collision") || IS("visual"))
			return begin_shape(st, name, n, a);
		return unread(st, "link", name, prefix);
	case K_INERTIAL:
		if (IS("origin"))
			return take(st, &in->origin_el, name, n, a), K_OTHER;
		if (IS("mass"))
			return take(st, &in->mass_el, name, n, a), K_OTHER;
		if (IS("inertia"))
			return take(st, &in->inertia_el, name, n, a), K_OTHER;
		return unread(st, "inertial", name, prefix);
	case K_SHAPE:
		if (IS("material") && !s->collision)
			note_nameless_material(st, n, a);
		if (IS("origin"))
			return take(st, &s->origin_el, name, n, a), K_OTHER;
		if (IS("geometry"))
			return take(st, &s->geometry_el, name, n, a) ?
			    K_GEOMETRY : K_OTHER;
		if (IS("material") && !s->collision)
			return K_OTHER;
		return unread(st, s->collision ? "collision" : "visual", name,
		    prefix);
	case K_GEOMETRY:
		return take(st, &s->shape_el, name, n, a), K_OTHER;
	case K_JOINT:
		return joint_child(st, name, prefix, n, a);
	default:
		return K_OTHER;
	}
#undef IS
}

/*
 * An element of xacro's: one of its own (a property, a macro, an
 * include, ...) makes the file xacro's source, which only xacro makes a
 * URDF of; any other is a call of a macro xacro left unexpanded (it
 * knew no such macro), which libsdformat skips, as phys does, said.
 */
static void
note_xacro(struct stream *st, const char *name, bool prefixed, size_t len)
{
	static const char *const own[] = { "property", "macro", "include",
		"arg", "if", "unless", "insert_block", "call", "element",
		"attribute" };
	const char *local = prefixed ? name : name + 6;
	long line = st->ctxt->input ? st->ctxt->input->line : 1;
	bool source = false;
	size_t i;

	for (i = 0; i < sizeof own / sizeof *own; i++)
		source |= strcmp(local, own[i]) == 0;
	if (source && !st->xacro_line) {
		st->xacro_line = line;
		snprintf(st->xacro, sizeof st->xacro, "%s%.*s", prefixed ?
		    "xacro:" : "", (int)(len < 50 ? len : 50), name);
	} else if (!source && st->ncalls++ == 0) {
		st->call_line = line;
		snprintf(st->call, sizeof st->call, "%s%.*s", prefixed ?
		    "xacro:" : "", (int)(len < 50 ? len : 50), name);
	}
}

static void
stream_start(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int n, int ndefaulted,
    const xmlChar **attrs)
{
	struct stream *st = ctx;
	enum u_kind up = st->depth ? st->kinds[st->depth - 1] : K_NONE, k;
	size_t len = strlen((const char *)name);

	/* xacro:NAME, its namespace declared (a prefix) or not (a name) */
	if ((prefix && xmlStrEqual(prefix, (const xmlChar *)"xacro")) ||
	    strncmp((const char *)name, "xacro:", 6) == 0)
		note_xacro(st, (const char *)name, prefix != NULL, len);
	if (st->gz) {
		gazebo_element(st, name, prefix, n, attrs);
		k = K_GAZEBO_PART;
	} else {
		k = element_kind(st, up, name, prefix, n, attrs);
	}
	st->ord++;
	if (st->depth < MAX_DEPTH)
		st->kinds[st->depth] = k;
	st->depth++;
}

static void
stream_end(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct stream *st = ctx;
	enum u_kind k;

	if (st->depth == 0)
		return;
	k = --st->depth < MAX_DEPTH ? st->kinds[st->depth] : K_OTHER;
	if (k == K_GAZEBO || k == K_GAZEBO_PART)
		st->gz = k == K_GAZEBO ? NULL : st->gz->parent;
	else if (k == K_SHAPE)
		st->shape = -1;
}

/* Text matters only in <gazebo> blocks: the values of their tags. */
static void
stream_text(void *ctx, const xmlChar *ch, int len)
{
	struct stream *st = ctx;

	if (st->gz) {
		note_expression(st, (const char *)ch, (size_t)len);
		xmlNodeAddContentLen(st->gz, ch, len);
	}
}

/* Entities are the door to expansion bombs and external files. */
static void
stream_entity(void *ctx, const xmlChar *name, int type,
    const xmlChar *publicid, const xmlChar *systemid, xmlChar *content)
{
	struct stream *st = ctx;

	st->entities = true;
	xmlStopParser(st->ctxt);
}

static int
read_stream(struct reader *r)
{
	struct stream st;
	xmlSAXHandler sax;
	int rc;

	memset(&st, 0, sizeof st);
	memset(&sax, 0, sizeof sax);
	st.r = r;
	st.link = st.shape = st.joint = -1;
	r->robot_el = r->origin_el = new_el();
	/* the attributes are shorter than the file: one allocation */
	phys_buf_reserve(&r->strs, r->d->len + 1);
	r->side = xmlNewDoc((const xmlChar *)"1.0");
	xmlDocSetRootElement(r->side, xmlNewDocNode(r->side, NULL,
	    (const xmlChar *)"robot", NULL));
	r->dict = xmlDictCreate();
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = stream_start;
	sax.endElementNs = stream_end;
	sax.characters = stream_text;
	sax.cdataBlock = stream_text;
	sax.entityDecl = stream_entity;
	rc = phys_doc_sax(r->d, &sax, &st, &st.ctxt);
	if (st.over)
		return urdf_fail(r, st.over_line, "more than %zu %s in the "
		    "world: the limit (LIMITS in phys(7))", strcmp(st.over,
		    "links") == 0 ? (size_t)PHYS_MAX_LINKS :
		    (size_t)PHYS_MAX_JOINTS, st.over);
	if (st.entities)
		return phys_failat(r->d->name, 1, "%s", "DTDs and entity "
		    "declarations are not allowed in URDF");
	if (rc < 0)
		return -1;
	if (st.xacro_line)
		return urdf_fail(r, st.xacro_line, "<%s>: a xacro file, not "
		    "URDF: expand it first (xacro %s > robot.urdf)", st.xacro,
		    strcmp(r->d->name, "<stdin>") == 0 ? "robot.xacro" :
		    r->d->name);
	if (st.call_line)
		urdf_doubt(r, st.call_line, "<%s>: a call of a xacro macro left "
		    "unexpanded (%d such), which libsdformat skips, and so "
		    "does phys: what the macro makes is not in the robot",
		    st.call, st.ncalls);
	if (st.expr_line)
		urdf_doubt(r, st.expr_line, "'%s': a xacro expression left "
		    "unexpanded, read as it is (the first; was the file made "
		    "by xacro?)", st.expr);
	say_unread(&st);
	if (st.nameless_links)
		urdf_warn(r, st.nameless_line, "<material> of a <visual> of "
		    "link '%s' has no name, which URDF requires: "
		    "libsdformat's parser refuses the visual and loses the "
		    "link's collisions with it, and may lose more of the "
		    "robot (%d link%s so); phys reads them",
		    link_name_or(r, st.nameless_first),
		    st.nameless_links,
		    st.nameless_links > 1 ? "s" : "");
	return 0;
}

/* ---- reading URDF ---- */

/*
 * Attribute attr of e as want numbers, blanks and newlines around and
 * between them allowed. 1 when read, 0 when absent, -1 on error.
 */
static int
attr_numbers(struct reader *r, const struct u_el *e, const char *attr,
    double *out, int want)
{
	const char *text = el_attr(r, e, attr);
	int k;

	if (!text)
		return 0;
	k = phys_parse_doubles(text, out, want);
	if (k != want)
		return urdf_fail(r, e->line, "<%s %s=\"%.60s\">: %s", e->name,
		    attr, text, want == 1 ? "not a number" : want == 3 ?
		    "three numbers wanted" : "wrong count of numbers");
	return 1;
}

static int
required_number(struct reader *r, const struct u_el *e, const char *attr,
    double *out)
{
	int rc = attr_numbers(r, e, attr, out, 1);

	if (rc == 0)
		return urdf_fail(r, e->line, "<%s> has no %s", e->name, attr);
	return rc < 0 ? -1 : 0;
}

/* An <origin> as a pose; the identity when there is none. */
static int
read_origin(struct reader *r, const struct u_el *o, phys_pose *out)
{
	double v[6] = { 0, 0, 0, 0, 0, 0 };

	*out = PHYS_POSE_IDENTITY;
	if (!o->name)
		return 0;
	if (attr_numbers(r, o, "xyz", v, 3) < 0 ||
	    attr_numbers(r, o, "rpy", v + 3, 3) < 0)
		return -1;
	*out = phys_pose_from6(v);
	return 0;
}

static int
read_inertial(struct reader *r, struct u_link *l)
{
	static const char *const names[6] = { "ixx", "ixy", "ixz", "iyy",
		"iyz", "izz" };
	struct u_inertial *in = &l->in;
	int k, rc;

	if (!in->el.name)
		return 0;
	in->has = true;
	if (read_origin(r, &in->origin_el, &in->origin) < 0)
		return -1;
	if (!in->mass_el.name)
		return urdf_fail(r, in->el.line, "link '%s': <inertial> has no "
		    "<mass>", l->name);
	if (required_number(r, &in->mass_el, "value", &in->mass) < 0)
		return -1;
	/* said here, as the SDF it becomes says it: lumped into a parent
	 * it would be summed away, and reported as the mass 0 left */
	if (in->mass < 0)
		return urdf_fail(r, in->mass_el.line, "inertial.mass: %g must "
		    "be above 0", in->mass);
	if (!in->inertia_el.name)
		return urdf_fail(r, in->el.line, "link '%s': <inertial> has no "
		    "<inertia>", l->name);
	for (k = 0; k < 6; k++) {
		rc = attr_numbers(r, &in->inertia_el, names[k], &in->I[k], 1);
		if (rc < 0)
			return -1;
		/* urdfdom then zeroes the whole tensor, and Gazebo runs that */
		if (rc == 0)
			urdf_warn(r, in->inertia_el.line, "link '%s': <inertia> "
			    "has no %s: read as 0 (libsdformat reads every "
			    "moment as 0)", l->name, names[k]);
	}
	return 0;
}

/* Where libsdformat finds a package:// or model:// URI's package. */
static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *
found(char *path)
{
	char *real;

	if (!is_file(path)) {
		free(path);
		return NULL;
	}
	real = realpath(path, NULL);
	free(path);
	return real;
}

static const char *
base_name(const char *dir, size_t len, size_t *blen)
{
	const char *b = dir;
	size_t i;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (i = 0; i < len; i++)
		if (dir[i] == '/' && i + 1 < len)
			b = dir + i + 1;
	*blen = (size_t)(dir + len - b);
	return b;
}

/* Whether text is word, blanks around it aside. */
static bool
same_word(const char *text, const char *word)
{
	size_t n;

	while (isspace((unsigned char)*text))
		text++;
	n = strlen(text);
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		n--;
	return n == strlen(word) && strncmp(text, word, n) == 0;
}

/*
 * Whether dir holds a ROS package.xml whose <name> is pkg: a package is
 * known by that name, as rospack and ament know it, whatever its folder
 * is called (Drake's models, package drake_models, cloned as models/).
 * A package.xml over 1 MB, or not a regular file, names nothing.
 */
static bool
package_named(const char *dir, size_t len, const char *pkg)
{
	char *path = phys_xasprintf("%.*s/package.xml", (int)len, dir);
	struct stat st;
	xmlDocPtr doc = NULL;
	xmlNodePtr n;
	xmlChar *name;
	char *data = NULL;
	size_t size;
	bool same = false;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < (1 << 20) &&
	    (data = phys_read_regular_file(path, &size)))
		doc = xmlReadMemory(data, (int)size, NULL, NULL, XML_PARSE_NONET |
		    XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	free(data);
	free(path);
	n = doc ? xmlDocGetRootElement(doc) : NULL;
	if (n && xmlStrEqual(n->name, (const xmlChar *)"package"))
		for (n = n->children; n; n = n->next)
			if (n->type == XML_ELEMENT_NODE &&
			    xmlStrEqual(n->name, (const xmlChar *)"name")) {
				name = xmlNodeGetContent(n);
				same = name && same_word((const char *)name,
				    pkg);
				xmlFree(name);
				break;
			}
	xmlFreeDoc(doc);
	return same;
}

/* pkg/rest under dir, or rest in dir when dir is the package itself (by
 * its folder's name or its package.xml's). */
static char *
in_dir(const char *dir, size_t len, const char *sub, const char *pkg,
    const char *rest)
{
	size_t blen;
	const char *b = base_name(dir, len, &blen);
	char *p;

	if ((p = found(phys_xasprintf("%.*s%s/%s/%s", (int)len, dir, sub, pkg,
	    rest))))
		return p;
	if (!*sub && ((blen == strlen(pkg) && strncmp(b, pkg, blen) == 0) ||
	    package_named(dir, len, pkg)))
		return found(phys_xasprintf("%.*s/%s", (int)len, dir, rest));
	return NULL;
}

static char *
in_path_var(const char *var, const char *sub, const char *pkg,
    const char *rest)
{
	const char *list = getenv(var), *p;
	char *path;
	size_t len;

	for (; list && *list; list = p + (*p != 0)) {
		p = list + strcspn(list, ":");
		len = (size_t)(p - list);
		if (len && (path = in_dir(list, len, sub, pkg, rest)))
			return path;
	}
	return NULL;
}

static char *
in_parents(const char *doc_path, const char *pkg, const char *rest)
{
	char *dir = phys_path_dir(doc_path), *abs = realpath(dir, NULL);
	char *slash, *p = NULL;

	free(dir);
	while (abs && !p) {
		p = in_dir(abs, strlen(abs), "", pkg, rest);
		slash = strrchr(abs, '/');
		if (!slash || slash == abs)
			break;
		*slash = '\0';
	}
	if (!p && abs)
		p = in_dir("/", 1, "", pkg, rest);
	free(abs);
	return p;
}

/*
 * How far a ROS_PACKAGE_PATH entry is searched for a package below it,
 * as rospack searches a catkin workspace's src/ (a repository holding
 * packages, a folder of repositories): a bound on the directories opened
 * per lookup, so that an entry of / costs little.
 */
enum { CRAWL_DEPTH = 4, CRAWL_DIRS = 2000, CRAWL_ENTRIES = 10000 };

static int
name_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory holding file name, a marker or a package.xml. */
static bool
holds(const char *dir, const char *name)
{
	char *p = phys_xasprintf("%s/%s", dir, name);
	bool yes = is_file(p);

	free(p);
	return yes;
}

/* Marked to be left alone, as catkin, colcon and ament leave it. */
static bool
ignored(const char *dir)
{
	return holds(dir, "CATKIN_IGNORE") || holds(dir, "COLCON_IGNORE") ||
	    holds(dir, "AMENT_IGNORE");
}

/* The subdirectories of dir, sorted (so that the first of two packages
 * of one name is the same on every machine), hidden ones left out. */
static char **
crawl_dirs(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char **out = NULL, *p;
	size_t cap = 0, seen = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) && seen++ < CRAWL_ENTRIES) {
		if (e->d_name[0] == '.')
			continue;
		p = phys_xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(p);
			continue;
		}
		if (*n == cap)
			out = phys_xrealloc(out, (cap = cap ? 2 * cap : 16) *
			    sizeof *out);
		out[(*n)++] = p;
	}
	closedir(d);
	if (*n)
		qsort(out, *n, sizeof *out, name_order);
	return out;
}

/* The first package pkg below dir (not below another package, nor in one
 * left alone): 1 and its directory in *root, 0 when none is met. */
static int
crawl(const char *dir, const char *pkg, int depth, size_t *budget,
    char **root)
{
	char **sub;
	size_t n, i, blen;
	const char *b;
	int met = 0;

	if (depth > CRAWL_DEPTH || *budget == 0)
		return 0;
	--*budget;
	sub = crawl_dirs(dir, &n);
	for (i = 0; i < n && !met; i++) {
		if (ignored(sub[i]))
			continue;
		b = base_name(sub[i], strlen(sub[i]), &blen);
		if ((blen == strlen(pkg) && strncmp(b, pkg, blen) == 0) ||
		    package_named(sub[i], strlen(sub[i]), pkg)) {
			*root = phys_xstrdup(sub[i]);
			met = 1;
		} else if (!holds(sub[i], "package.xml")) {
			met = crawl(sub[i], pkg, depth + 1, budget, root);
		}
	}
	for (i = 0; i < n; i++)
		free(sub[i]);
	free(sub);
	return met;
}

/*
 * The packages crawled for, met or not, with the ROS_PACKAGE_PATH they
 * were crawled for under: a robot names a package for each of its meshes,
 * and each would crawl again (every package.xml of /opt/ros/.../share
 * read per mesh). The process's, as ROS_PACKAGE_PATH is.
 */
static struct crawled {
	char *env, *pkg, *root;	/* root NULL: not met */
} crawled[32];
static size_t ncrawled;

/* pkg's directory crawled for below each ROS_PACKAGE_PATH entry, or
 * NULL. */
static const char *
crawl_path_var(const char *pkg)
{
	const char *env = getenv("ROS_PACKAGE_PATH"), *list, *p;
	size_t budget = CRAWL_DIRS, i;
	struct crawled *c;
	char *dir, *root = NULL;
	int met = 0;

	if (!env || !*env)
		return NULL;
	for (i = 0; i < ncrawled; i++)
		if (strcmp(crawled[i].env, env) == 0 &&
		    strcmp(crawled[i].pkg, pkg) == 0)
			return crawled[i].root;
	for (list = env; *list && !met; list = p + (*p != 0)) {
		p = list + strcspn(list, ":");
		if (p == list)
			continue;
		dir = phys_xstrndup(list, (size_t)(p - list));
		met = crawl(dir, pkg, 1, &budget, &root);
		free(dir);
	}
	c = &crawled[ncrawled < 32 ? ncrawled++ : 31];
	if (c->env) {	/* the last kept for the newest when full */
		free(c->env);
		free(c->pkg);
		free(c->root);
	}
	c->env = phys_xstrdup(env);
	c->pkg = phys_xstrdup(pkg);
	c->root = root;
	return root;
}

char *
phys_package_find(const char *doc_path, const char *uri)
{
	const char *name = strchr(uri, ':') + 3, *slash, *root;
	char *pkg, *p;

	/* package:///name is package://name, as pinocchio and
	 * example-robot-data have it, and model:///name model://name */
	name += strspn(name, "/");
	slash = strchr(name, '/');
	if (!slash || slash == name)
		return NULL;
	pkg = phys_xstrndup(name, (size_t)(slash - name));
	p = in_path_var("ROS_PACKAGE_PATH", "", pkg, slash + 1);
	if (!p)
		p = in_path_var("AMENT_PREFIX_PATH", "/share", pkg, slash + 1);
	if (!p)
		p = in_path_var("GAZEBO_MODEL_PATH", "", pkg, slash + 1);
	if (!p)
		p = in_parents(doc_path, pkg, slash + 1);
	if (!p && (root = crawl_path_var(pkg)))
		p = found(phys_xasprintf("%s/%s", root, slash + 1));
	free(pkg);
	return p;
}

/* The mesh file a URI names; NULL when it cannot be found. */
static char *
find_mesh(const struct phys_doc *d, const char *uri)
{
	char *dir, *p;

	if (strncmp(uri, "package://", 10) == 0 ||
	    strncmp(uri, "model://", 8) == 0)
		return phys_package_find(d->path, uri);
	if (strncmp(uri, "file://", 7) == 0)
		uri += 7;
	if (*uri == '/')
		return found(phys_xstrdup(uri));
	dir = phys_path_dir(d->path);
	p = phys_path_tidy(found(phys_xasprintf("%s/%s", dir, uri)));
	free(dir);
	return p;
}

/*
 * A visual's <mesh scale> that is not three numbers (Drake's Skydio 2:
 * scale=".00254"): urdfdom stops reading the link there, so libsdformat
 * keeps the link without that visual and its later visuals and
 * collisions, and says nothing. A visual moves nothing: phys skips it
 * alone and says so; 1 when skipped.
 */
static int
bad_visual_scale(struct reader *r, const struct u_shape *s)
{
	const char *text = el_attr(r, &s->shape_el, "scale");
	double v[3];

	if (s->collision || !text || phys_parse_doubles(text, v, 3) == 3)
		return 0;
	urdf_warn(r, s->shape_el.line, "link '%s': <mesh scale=\"%.60s\">: "
	    "three numbers wanted; the visual is skipped (urdfdom stops "
	    "reading the link there, and libsdformat loses its later visuals "
	    "and collisions)", r->links[s->link].name, text);
	return 1;
}

/* 1 when read, 0 when skipped (with a warning), -1 on error. */
static int
read_mesh(struct reader *r, struct u_shape *s)
{
	const char *uri = el_attr(r, &s->shape_el, "filename");
	char *path;

	if (!uri)
		return urdf_fail(r, s->shape_el.line, "%s", "<mesh> has no "
		    "filename");
	s->scale[0] = s->scale[1] = s->scale[2] = 1;
	if (bad_visual_scale(r, s))
		return 0;
	if (attr_numbers(r, &s->shape_el, "scale", s->scale, 3) < 0)
		return -1;
	path = find_mesh(r->d, uri);
	if (path) {
		s->uri = path;
		return 1;
	}
	/* a collision's mesh is the loader's to skip when asked: it looks
	 * for it again, and says so at this line */
	if (s->collision && r->o->skip_missing) {
		s->uri = phys_xstrdup(uri);
		return 1;
	}
	if (!s->collision) {	/* a visual does not move anything */
		s->uri = strncmp(uri, "package://", 10) == 0 ?
		    phys_xasprintf("model://%s", uri + 10) : phys_xstrdup(uri);
		return 1;
	}
	return urdf_fail(r, s->shape_el.line, "cannot find file '%s' (searched "
	    "%s)", uri, strncmp(uri, "package://", 10) == 0 ||
	    strncmp(uri, "model://", 8) == 0 ? "ROS_PACKAGE_PATH, "
	    "AMENT_PREFIX_PATH's share/, GAZEBO_MODEL_PATH and the "
	    "directories above the file" : "beside the file");
}

/* 1 when the shape was read, 0 when it is skipped (with a warning). */
static int
read_geometry(struct reader *r, struct u_shape *s)
{
	const char *what = s->collision ? "collision" : "visual";
	const char *link = r->links[s->link].name, *g = s->shape_el.name;
	int rc;

	if (!g) {
		urdf_warn(r, s->geometry_el.name ? s->geometry_el.line :
		    s->el.line, "link '%s': a <%s> without geometry is skipped "
		    "(urdfdom stops reading the link there)", link, what);
		return 0;
	}
	if (strcmp(g, "box") == 0) {
		s->kind = US_BOX;
		rc = attr_numbers(r, &s->shape_el, "size", s->size, 3);
		if (rc == 0)
			return urdf_fail(r, s->shape_el.line, "%s", "<box> has "
			    "no size");
		return rc < 0 ? -1 : 1;
	}
	if (strcmp(g, "sphere") == 0) {
		s->kind = US_SPHERE;
		return required_number(r, &s->shape_el, "radius", s->size) < 0 ?
		    -1 : 1;
	}
	if (strcmp(g, "cylinder") == 0 || strcmp(g, "capsule") == 0) {
		s->kind = strcmp(g, "cylinder") == 0 ? US_CYLINDER : US_CAPSULE;
		if (required_number(r, &s->shape_el, "radius", s->size) < 0 ||
		    required_number(r, &s->shape_el, "length", s->size + 1) < 0)
			return -1;
		if (s->kind == US_CAPSULE) {
			urdf_warn(r, s->shape_el.line, "link '%s': <capsule> is "
			    "read; urdfdom stops reading the link here, so "
			    "Gazebo loses this %s and the link's later ones",
			    link, what);
			if (r->minor < 8)
				r->minor = 8;
		}
		return 1;
	}
	if (strcmp(g, "mesh") == 0) {
		s->kind = US_MESH;
		return read_mesh(r, s);
	}
	urdf_warn(r, s->shape_el.line, "link '%s': <%s> is not a URDF "
	    "geometry; the %s is skipped", link, g, what);
	return 0;
}

/*
 * libsdformat writes a URDF collision's rotation as urdfdom's Euler
 * angles, which put a pitch whose sine is within 1e-5 of +-1 (0.0045 rad
 * of 90 degrees) at exactly +-90 degrees, roll 0 and the yaw from the
 * rest: the turn that gives shape s (rad), 0 for none. The rotation is
 * the one written in the link it ends in: a collision lumped through a
 * fixed joint is turned by the joint's rotation first (Blue Robotics'
 * and the PhantomX Pincher's grippers). phys keeps the rotation as
 * written, and says so (note_pitch_snaps).
 */
static double
snap_turn(const struct reader *r, const struct u_shape *s)
{
	phys_quat q = phys_quat_mul(r->links[s->link].in_body.q,
	    s->origin.q), snap;
	double sarg = -2 * (q.x * q.z - q.w * q.y), yaw, dot, turn;

	if (!s->collision || fabs(sarg) < 0.99999)
		return 0;
	yaw = sarg > 0 ? 2 * atan2(-q.x, q.y) : 2 * atan2(q.x, -q.y);
	snap = phys_quat_from_rpy(0, copysign(M_PI / 2, sarg), yaw);
	dot = q.w * snap.w + q.x * snap.x + q.y * snap.y + q.z * snap.z;
	turn = 2 * acos(fmin(1, fabs(dot)));
	return turn < 1e-9 ? 0 : turn;	/* 90 degrees as written: none */
}

/* The collisions libsdformat turns, said once at the first: how many,
 * by how much at most. */
static void
note_pitch_snaps(struct reader *r)
{
	const struct u_shape *first = NULL;
	double turn, most = 0;
	size_t i;
	int n = 0;

	for (i = 0; i < r->nshapes; i++)
		if ((turn = snap_turn(r, &r->shapes[i])) > 0) {
			if (!n++)
				first = &r->shapes[i];
			most = fmax(most, turn);
		}
	if (!n)
		return;
	urdf_warn(r, first->origin_el.line, "link '%s': a collision's pitch "
	    "within 0.0045 rad of 90 degrees, which libsdformat (urdfdom's "
	    "Euler angles) writes as 90 degrees, turning %d collision%s by up "
	    "to %.2g rad; phys keeps the rotation%s as written",
	    r->links[first->link].name, n, n == 1 ? "" : "s", most,
	    n == 1 ? "" : "s");
}

/* Each link's shapes, read; those skipped are dropped from the list. */
static int
read_shapes(struct reader *r, struct u_link *l)
{
	size_t k, kept = l->first_shape;
	struct u_shape *s;
	int rc;

	for (k = l->first_shape; k < l->first_shape + l->nshapes; k++) {
		s = &r->shapes[k];
		if (read_origin(r, &s->origin_el, &s->origin) < 0)
			return -1;
		rc = read_geometry(r, s);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		s->name = el_attr_dup(r, &s->el, "name");
		if (kept != k) {
			r->shapes[kept] = *s;
			memset(s, 0, sizeof *s);
		}
		kept++;
	}
	l->nshapes = kept - l->first_shape;
	return 0;
}

static int
by_ix_name(const void *a, const void *b)
{
	const struct name_ix *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int
ix_find(const struct name_ix *ix, size_t n, const char *name)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (ix && lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(ix[mid].name, name);
		if (c == 0)
			return ix[mid].idx;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Names sorted for lookups; -1 and the first name given twice (its
 * second place, in file order) in *dup.
 */
static struct name_ix *
name_index(const char *const *names, size_t n, int *dup)
{
	struct name_ix *ix = phys_xcalloc(n ? n : 1, sizeof *ix);
	size_t i;

	for (i = 0; i < n; i++) {
		ix[i].name = names[i];
		ix[i].idx = (int)i;
	}
	qsort(ix, n, sizeof *ix, by_ix_name);
	*dup = -1;
	for (i = 1; i < n; i++)
		if (strcmp(ix[i - 1].name, ix[i].name) == 0 &&
		    (*dup < 0 || ix[i].idx < *dup))
			*dup = ix[i].idx;
	return ix;
}

static int
find_link(const struct reader *r, const char *name)
{
	return ix_find(r->link_ix, r->nlinks, name);
}

static int
find_joint(const struct reader *r, const char *name)
{
	return ix_find(r->joint_ix, r->njoints, name);
}

static int
index_links(struct reader *r)
{
	const char **names = phys_xcalloc(r->nlinks + 1, sizeof *names);
	size_t i;
	int dup;

	for (i = 0; i < r->nlinks; i++)
		names[i] = r->links[i].name;
	r->link_ix = name_index(names, r->nlinks, &dup);
	free(names);
	if (dup >= 0)
		return urdf_fail(r, r->links[dup].el.line, "a second link named "
		    "'%s'", r->links[dup].name);
	return 0;
}

static int
index_joints(struct reader *r)
{
	const char **names = phys_xcalloc(r->njoints + 1, sizeof *names);
	size_t i;
	int dup;

	for (i = 0; i < r->njoints; i++)
		names[i] = r->joints[i].name;
	r->joint_ix = name_index(names, r->njoints, &dup);
	free(names);
	if (dup >= 0)
		return urdf_fail(r, r->joints[dup].el.line, "a second joint "
		    "named '%s'", r->joints[dup].name);
	return 0;
}

/*
 * The links, read in file order. Shapes sit in one array, each link's
 * together: a link's skipped shapes leave gaps that are closed here.
 */
static int
read_links(struct reader *r)
{
	struct u_link *l;
	size_t i, next = 0, k;

	for (i = 0; i < r->nlinks; i++) {
		l = &r->links[i];
		l->name = el_attr_dup(r, &l->el, "name");
		if (!l->name || !*l->name)
			return urdf_fail(r, l->el.line, "%s", "<link> has no "
			    "name");
		if (read_inertial(r, l) < 0 || read_shapes(r, l) < 0)
			return -1;
		for (k = 0; k < l->nshapes; k++)	/* close the gaps */
			if (next + k != l->first_shape + k) {
				r->shapes[next + k] = r->shapes[l->first_shape +
				    k];
				memset(&r->shapes[l->first_shape + k], 0,
				    sizeof *r->shapes);
			}
		l->first_shape = next;
		next += l->nshapes;
	}
	r->nshapes = next;
	if (r->nlinks == 0)
		return urdf_fail(r, r->robot_el.line, "robot '%s' has no <link>",
		    r->robot);
	return index_links(r);
}

static const struct {
	const char *name;
	enum u_joint_type type;
} joint_types[] = {
	{ "revolute", UJ_REVOLUTE }, { "continuous", UJ_CONTINUOUS },
	{ "prismatic", UJ_PRISMATIC }, { "fixed", UJ_FIXED },
	{ "floating", UJ_FLOATING }, { "planar", UJ_PLANAR }
};

static int
joint_type(struct reader *r, struct u_joint *j)
{
	const char *t = el_attr(r, &j->el, "type");
	size_t i;

	for (i = 0; t && i < sizeof joint_types / sizeof *joint_types; i++)
		if (strcmp(t, joint_types[i].name) == 0) {
			j->type = joint_types[i].type;
			return 0;
		}
	return t ? urdf_fail(r, j->el.line, "joint '%s': unknown type '%s' "
	    "(revolute, continuous, prismatic, fixed, floating, planar)",
	    j->name, t) : urdf_fail(r, j->el.line, "joint '%s' has no type",
	    j->name);
}

/* <parent link="..."/> or <child link="..."/>: the link's index. */
static int
joint_end(struct reader *r, struct u_joint *j, const struct u_el *e,
    const char *which, int *out)
{
	const char *name = el_attr(r, e, "link");

	if (!name)
		return urdf_fail(r, e->name ? e->line : j->el.line, "joint '%s' "
		    "names no %s link (<%s link=\"...\"/>)", j->name, which,
		    which);
	*out = find_link(r, name);
	if (*out < 0)
		return urdf_fail(r, e->line, "joint '%s': no link named '%s'",
		    j->name, name);
	return 0;
}

static int
read_limit(struct reader *r, struct u_joint *j)
{
	const struct u_el *e = &j->limit_el;
	double t;

	if (!e->name) {
		if (j->type == UJ_REVOLUTE || j->type == UJ_PRISMATIC)
			return urdf_fail(r, j->el.line, "joint '%s': a %s joint "
			    "needs <limit> (URDF requires it)", j->name,
			    j->type == UJ_REVOLUTE ? "revolute" : "prismatic");
		return 0;
	}
	j->has_limit = true;
	if (attr_numbers(r, e, "lower", &j->lower, 1) < 0 ||
	    attr_numbers(r, e, "upper", &j->upper, 1) < 0 ||
	    required_number(r, e, "effort", &j->effort) < 0 ||
	    required_number(r, e, "velocity", &j->velocity) < 0)
		return -1;
	if (j->lower > j->upper && j->type != UJ_CONTINUOUS) {
		urdf_warn(r, e->line, "joint '%s': lower %g is above upper %g; "
		    "swapped, as libsdformat does", j->name, j->lower,
		    j->upper);
		t = j->lower;
		j->lower = j->upper;
		j->upper = t;
		j->swapped = true;
	}
	return 0;
}

static int
read_joint_details(struct reader *r, struct u_joint *j)
{
	const struct u_el *e;

	j->axis[0] = 1;
	if (j->type != UJ_FIXED && j->type != UJ_FLOATING &&
	    (e = &j->axis_el)->name) {
		if (attr_numbers(r, e, "xyz", j->axis, 3) < 0)
			return -1;
		if (j->axis[0] == 0 && j->axis[1] == 0 && j->axis[2] == 0)
			return urdf_fail(r, e->line, "joint '%s': the axis is "
			    "zero", j->name);
	}
	if (read_limit(r, j) < 0)
		return -1;
	if ((e = &j->dyn_el)->name) {
		j->has_dyn = true;
		if (attr_numbers(r, e, "damping", &j->damping, 1) < 0 ||
		    attr_numbers(r, e, "friction", &j->friction, 1) < 0)
			return -1;
	}
	if ((e = &j->mimic_el)->name) {
		j->mimic = el_attr_dup(r, e, "joint");
		j->multiplier = 1;
		if (!j->mimic)
			return urdf_fail(r, e->line, "joint '%s': <mimic> names "
			    "no joint", j->name);
		if (attr_numbers(r, e, "multiplier", &j->multiplier, 1) < 0 ||
		    attr_numbers(r, e, "offset", &j->offset, 1) < 0)
			return -1;
	}
	return 0;
}

static int
read_joints(struct reader *r)
{
	struct u_joint *j;
	size_t i;

	for (i = 0; i < r->njoints; i++) {
		j = &r->joints[i];
		j->name = el_attr_dup(r, &j->el, "name");
		if (!j->name || !*j->name)
			return urdf_fail(r, j->el.line, "%s", "<joint> has no "
			    "name");
		if (joint_type(r, j) < 0 ||
		    read_origin(r, &j->origin_el, &j->origin) < 0 ||
		    joint_end(r, j, &j->parent_el, "parent", &j->parent) < 0 ||
		    joint_end(r, j, &j->child_el, "child", &j->child) < 0 ||
		    read_joint_details(r, j) < 0)
			return -1;
		if (j->type == UJ_PLANAR)
			return urdf_fail(r, j->el.line, "joint '%s': planar "
			    "joints are not supported (libsdformat does not "
			    "convert them either)", j->name);
		if (j->parent == j->child)
			return urdf_fail(r, j->el.line, "joint '%s': parent and "
			    "child are the same link", j->name);
	}
	return index_joints(r);
}

/* ---- the tree ---- */

static int
by_joint_name(const void *a, const void *b, void *reader)
{
	const struct reader *r = reader;

	return strcmp(r->joints[*(const int *)a].name,
	    r->joints[*(const int *)b].name);
}

static int
build_tree(struct reader *r)
{
	struct u_link *c, *p;
	size_t i;
	int root = -1;

	for (i = 0; i < r->njoints; i++) {
		c = &r->links[r->joints[i].child];
		p = &r->links[r->joints[i].parent];
		if (c->up >= 0)
			return urdf_fail(r, r->joints[i].el.line, "link '%s' is the "
			    "child of two joints, '%s' and '%s'", c->name,
			    r->joints[c->up].name, r->joints[i].name);
		c->up = (int)i;
		p->kids = phys_xrealloc(p->kids, (p->nkids + 1) *
		    sizeof *p->kids);
		p->kids[p->nkids++] = (int)i;
	}
	for (i = 0; i < r->nlinks; i++) {
		if (r->links[i].nkids > 1)
			qsort_r(r->links[i].kids, r->links[i].nkids,
			    sizeof *r->links[i].kids, by_joint_name, r);
		if (r->links[i].up >= 0)
			continue;
		if (root >= 0)
			return urdf_fail(r, r->links[i].el.line, "two root links, "
			    "'%s' and '%s' (every link but one needs a parent "
			    "joint)", r->links[root].name, r->links[i].name);
		root = (int)i;
	}
	if (root < 0)
		return urdf_fail(r, r->robot_el.line, "%s", "the joints form a loop: "
		    "no link is the root");
	r->root = root;
	return 0;
}

/* Lists of indices by owner: owner_of(i) for each item, -1 for none. */
static void
make_lists(struct lists *l, size_t nowners, const int *owner, size_t n)
{
	size_t i;
	int *fill;

	l->at = phys_xcalloc(nowners + 1, sizeof *l->at);
	l->of = phys_xcalloc(n ? n : 1, sizeof *l->of);
	for (i = 0; i < n; i++)
		if (owner[i] >= 0)
			l->at[owner[i] + 1]++;
	for (i = 0; i < nowners; i++)
		l->at[i + 1] += l->at[i];
	fill = phys_xcalloc(nowners ? nowners : 1, sizeof *fill);
	for (i = 0; i < n; i++)
		if (owner[i] >= 0)
			l->of[l->at[owner[i]] + fill[owner[i]]++] = (int)i;
	free(fill);
}

static void
lists_free(struct lists *l)
{
	free(l->of);
	free(l->at);
}

/*
 * The links in pre-order from the root, children in their joints' name
 * order, by an explicit stack. A link the walk does not reach is on a
 * loop of joints (each link has one parent at most).
 */
static int
build_order(struct reader *r)
{
	int *stack = phys_xcalloc(r->nlinks, sizeof *stack), li;
	size_t n = 0, top = 0, i;

	r->order = phys_xcalloc(r->nlinks, sizeof *r->order);
	r->pos = phys_xcalloc(r->nlinks, sizeof *r->pos);
	for (i = 0; i < r->nlinks; i++)
		r->pos[i] = -1;
	stack[top++] = r->root;
	while (top > 0) {
		li = stack[--top];
		r->pos[li] = (int)n;
		r->order[n++] = li;
		for (i = r->links[li].nkids; i > 0; i--)
			stack[top++] = r->joints[r->links[li].kids[i - 1]].child;
	}
	free(stack);
	for (i = 0; i < r->nlinks && n < r->nlinks; i++)
		if (r->pos[i] < 0)
			return urdf_fail(r, r->links[i].el.line, "link '%s' is on a "
			    "loop of joints", r->links[i].name);
	return 0;
}

static int
check_tree(struct reader *r)
{
	size_t i;

	if (build_order(r) < 0)
		return -1;
	for (i = 0; i < r->nlinks; i++)
		if ((int)i != r->root && strcmp(r->links[i].name, "world") == 0)
			return urdf_fail(r, r->links[i].el.line, "%s", "a link "
			    "named 'world' must be the root (it stands for the "
			    "world)");
	return 0;
}

static bool
is_world(const struct reader *r, int li)
{
	return li == r->root && strcmp(r->links[li].name, "world") == 0;
}

/* GetKeyValueAsString: the value attribute, or the text. */
static char *
tag_value(xmlNodePtr e)
{
	char *v = phys_node_attr(e, "value"), *t;
	size_t a, b;

	if (!v)
		return phys_node_text(e);
	for (a = 0; isspace((unsigned char)v[a]); a++)
		;
	for (b = strlen(v); b > a && isspace((unsigned char)v[b - 1]); b--)
		;
	t = phys_xstrndup(v + a, b - a);
	free(v);
	return t;
}

/* true, yes or 1 (in any case), as libsdformat reads a flag. */
static bool
tag_flag(xmlNodePtr e)
{
	char *v = tag_value(e);
	bool on = strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
	    strcmp(v, "1") == 0;

	free(v);
	return on;
}

static void
read_exts(struct reader *r)
{
	struct u_ext *x;
	xmlNodePtr e;
	int ji, *lo, *jo;
	size_t i;

	for (i = 0; i < r->nexts; i++) {
		x = &r->exts[i];
		if (!x->ref || (ji = find_joint(r, x->ref)) < 0)
			continue;
		for (e = phys_child(x->node, NULL); e; e = phys_next(e, NULL))
			if (phys_node_is(e, "preserveFixedJoint") &&
			    tag_flag(e))
				r->joints[ji].preserve = true;
			else if (phys_node_is(e, "disableFixedJointLumping") &&
			    tag_flag(e))
				r->joints[ji].revolute0 = true;
	}
	lo = phys_xcalloc(r->nexts + 1, sizeof *lo);
	jo = phys_xcalloc(r->nexts + 1, sizeof *jo);
	for (i = 0; i < r->nexts; i++) {
		lo[i] = r->exts[i].ref ? find_link(r, r->exts[i].ref) : -1;
		jo[i] = r->exts[i].ref ? find_joint(r, r->exts[i].ref) : -1;
	}
	make_lists(&r->link_exts, r->nlinks, lo, r->nexts);
	make_lists(&r->joint_exts, r->njoints, jo, r->nexts);
	free(lo);
	free(jo);
}

/* ---- lumping ---- */

static bool
lumped_joint(const struct reader *r, const struct u_joint *j)
{
	return j->type == UJ_FIXED && !j->preserve && !j->revolute0 &&
	    !is_world(r, j->parent);
}

/*
 * Each link's body (the link it is lumped into, or itself), its frame
 * in the body's frame and in the model's, the bodies' lists of links,
 * and the sizes of subtrees, in one pass down the order and one up.
 */
static void
assign_bodies(struct reader *r)
{
	struct u_link *l, *p;
	struct u_joint *j;
	int *owner = phys_xcalloc(r->nlinks, sizeof *owner), next;
	size_t i, k;

	r->size = phys_xcalloc(r->nlinks, sizeof *r->size);
	for (k = 0; k < r->nlinks; k++) {
		l = &r->links[r->order[k]];
		r->size[r->order[k]] = 1;
		l->body = r->order[k];
		l->in_body = l->at = PHYS_POSE_IDENTITY;
		if (l->up < 0)
			continue;
		j = &r->joints[l->up];
		p = &r->links[j->parent];
		j->lumped = lumped_joint(r, j);
		l->at = phys_pose_mul(p->at, j->origin);
		if (j->lumped) {
			l->body = p->body;
			l->in_body = phys_pose_mul(p->in_body, j->origin);
		}
	}
	for (k = 0; k < r->nlinks; k++)
		owner[k] = r->links[r->order[k]].body;
	/* the lists hold places in order: map them back to links */
	make_lists(&r->lumps, r->nlinks, owner, r->nlinks);
	for (i = 0; i < r->nlinks; i++)
		r->lumps.of[i] = r->order[r->lumps.of[i]];
	free(owner);
	for (k = r->nlinks; k-- > 1;) {
		l = &r->links[r->order[k]];
		r->size[r->joints[l->up].parent] += r->size[r->order[k]];
	}
	r->next_body = phys_xcalloc(r->nlinks + 1, sizeof *r->next_body);
	next = (int)r->nlinks;
	r->next_body[r->nlinks] = next;
	for (k = r->nlinks; k-- > 0;) {
		if (r->links[r->order[k]].body == r->order[k] &&
		    !is_world(r, r->order[k]))
			next = (int)k;
		r->next_body[k] = next;
	}
}

/* The links lumped into body, the body first, in libsdformat's order. */
static const int *
lump_list(const struct reader *r, int body, size_t *n)
{
	*n = (size_t)(r->lumps.at[body + 1] - r->lumps.at[body]);
	return r->lumps.of + r->lumps.at[body];
}

static phys_inertia
part_inertia(const struct u_inertial *in, phys_pose in_body)
{
	phys_inertia p = phys_inertia_make(in->mass, in->I[0], in->I[3],
	    in->I[5], in->I[1], in->I[2], in->I[4]);

	phys_pose_to6(phys_pose_mul(in_body, in->origin), p.pose);
	p.has_pose = true;
	return p;
}

/*
 * The inertial of a body with what is lumped into it: its own as written
 * when nothing with an <inertial> is lumped into it, else the sum,
 * expressed in the body's own inertial frame's axes (libsdformat keeps
 * the parent's inertial rotation).
 */
static void
lump_inertia(struct reader *r, const int *order, size_t n,
    struct u_inertial *out, char **lumped)
{
	struct u_link *b = &r->links[order[0]];
	phys_inertia *parts = phys_xcalloc(n, sizeof *parts), sum;
	struct phys_buf names = { 0 };
	phys_quat q = b->in.has ? b->in.origin.q : PHYS_QUAT_IDENTITY;
	phys_mat3 R = phys_quat_to_mat3(q), I;
	size_t i, k = 0;
	double mass = 0;

	*out = b->in;
	for (i = 0; i < n; i++) {
		struct u_link *l = &r->links[order[i]];

		if (!l->in.has)
			continue;
		parts[k++] = part_inertia(&l->in, l->in_body);
		mass += l->in.mass;
		if (i > 0)
			phys_buf_printf(&names, "%s%s", names.len ? ", " : "",
			    l->name);
	}
	*lumped = names.s;
	if (names.len == 0 || k == 0) {
		free(parts);
		return;
	}
	out->has = true;
	/* a body of no mass, which warn_lost names */
	if (!(mass > 0)) {
		memset(out->I, 0, sizeof out->I);
		out->mass = 0;
		free(parts);
		return;
	}
	phys_inertia_combine(parts, k, &sum);
	I = phys_inertia_rotate(sum.I, phys_mat3_transpose(R));
	out->mass = sum.mass;
	out->origin.p = v3(sum.pose[0], sum.pose[1], sum.pose[2]);
	out->origin.q = q;
	out->I[0] = I.m[0][0], out->I[1] = I.m[0][1], out->I[2] = I.m[0][2];
	out->I[3] = I.m[1][1], out->I[4] = I.m[1][2], out->I[5] = I.m[2][2];
	free(parts);
}

/* ---- writing the SDF model ---- */

/*
 * An element name in the output's dictionary. The converter names its
 * elements with a few dozen string constants: each is looked up once a
 * conversion, then found by its address (so only constants, whose
 * address is theirs for good, may be given). The names found are the
 * conversion's own, in its reader, which the document points to (its
 * _private) while it is written: conversions share nothing.
 */
static const xmlChar *
intern(xmlDocPtr doc, const char *name)
{
	struct interned *seen = doc->_private;
	size_t k = ((uintptr_t)name >> 3) % NINTERNED;

	if (!seen)
		return xmlDictLookup(doc->dict, (const xmlChar *)name, -1);
	if (seen[k].name != name) {
		seen[k].name = name;
		seen[k].interned = xmlDictLookup(doc->dict,
		    (const xmlChar *)name, -1);
	}
	return seen[k].interned;
}

static xmlNodePtr
add_el(xmlNodePtr parent, const char *name, long line)
{
	xmlNodePtr n = xmlNewDocNodeEatName(parent->doc, NULL,
	    (xmlChar *)intern(parent->doc, name), NULL);

	phys_node_set_line(n, line);
	xmlAddChild(parent, n);
	return n;
}

/*
 * <name>text</name>, new. The text is kept in the document's
 * dictionary, as libxml2's parser keeps names: a model's many equal
 * numbers ("0", "1") are stored once, and a node costs one allocation
 * less (xmlFreeNode leaves what the dictionary owns to it).
 */
static xmlNodePtr
new_text(xmlNodePtr parent, const char *name, const char *text, long line)
{
	xmlNodePtr n = add_el(parent, name, line), t;

	t = xmlNewDocText(parent->doc, NULL);
	t->content = (xmlChar *)xmlDictLookup(parent->doc->dict,
	    (const xmlChar *)text, -1);
	n->children = n->last = t;
	t->parent = n;
	return n;
}

/* AddKeyValue: <name>text</name> in place of any earlier one. */
static xmlNodePtr
add_text(xmlNodePtr parent, const char *name, const char *text, long line)
{
	xmlNodePtr old = phys_child(parent, name);

	if (old) {
		xmlUnlinkNode(old);
		xmlFreeNode(old);
	}
	return new_text(parent, name, text, line);
}

/* At most 6 numbers, into a buffer of NUMBERS_MAX bytes. */
#define NUMBERS_MAX (6 * 32)

static void
put_numbers(char *buf, const double *v, int n)
{
	char *p = buf;
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ' ';
		if (v[i] == 0)	/* and -0 */
			*p++ = '0';
		else
			p += phys_fmt_double(p, 32, v[i]);
	}
	*p = '\0';
}

/* <name>numbers</name>, new: an element of the conversion's own. */
static xmlNodePtr
add_numbers(xmlNodePtr parent, const char *name, const double *v, int n,
    long line)
{
	char buf[NUMBERS_MAX];

	put_numbers(buf, v, n);
	return new_text(parent, name, buf, line);
}

/* The same in place of an earlier one: a <gazebo> tag's. */
static xmlNodePtr
set_numbers(xmlNodePtr parent, const char *name, const double *v, int n,
    long line)
{
	char buf[NUMBERS_MAX];

	put_numbers(buf, v, n);
	return add_text(parent, name, buf, line);
}

/*
 * <name> holding the numbers of attribute attr of URDF element e, as the
 * file writes them (they read back to v exactly: they are what v was
 * read from), or v written when e has no such attribute.
 */
static xmlNodePtr
add_attr_numbers(struct reader *r, xmlNodePtr parent, const char *name,
    const struct u_el *e, const char *attr, const double *v, int n,
    long line)
{
	const char *t = el_attr(r, e, attr);
	char buf[NUMBERS_MAX];
	size_t a, b;

	if (!t)
		return add_numbers(parent, name, v, n, line);
	for (a = 0; isspace((unsigned char)t[a]); a++)
		;
	for (b = strlen(t); b > a && isspace((unsigned char)t[b - 1]); b--)
		;
	if (a == 0 && t[b] == '\0')	/* nothing to trim: as it is */
		return new_text(parent, name, t, line);
	if (b - a >= sizeof buf)
		return add_numbers(parent, name, v, n, line);
	memcpy(buf, t + a, b - a);
	buf[b - a] = '\0';
	return new_text(parent, name, buf, line);
}

/* A <pose>; none for the identity, SDF's default. */
static xmlNodePtr
add_pose(xmlNodePtr parent, phys_pose p, const char *relative_to,
    long line)
{
	double v[6];
	xmlNodePtr e;

	if (!relative_to && p.p.x == 0 && p.p.y == 0 && p.p.z == 0 &&
	    p.q.w == 1 && p.q.x == 0 && p.q.y == 0 && p.q.z == 0)
		return NULL;
	phys_pose_to6(p, v);
	e = add_numbers(parent, "pose", v, 6, line);
	if (relative_to)
		xmlSetProp(e, (const xmlChar *)"relative_to",
		    (const xmlChar *)relative_to);
	return e;
}

/* The trimmed text of attribute attr of e into buf, or "0 0 0". */
static size_t
triple_text(const struct reader *r, const struct u_el *e, const char *attr,
    char *buf, size_t size)
{
	const char *t = el_attr(r, e, attr);
	size_t a, b;

	if (!t)
		return (size_t)snprintf(buf, size, "0 0 0");
	for (a = 0; isspace((unsigned char)t[a]); a++)
		;
	for (b = strlen(t); b > a && isspace((unsigned char)t[b - 1]); b--)
		;
	if (b - a >= size)
		return size;
	memcpy(buf, t + a, b - a);
	buf[b - a] = '\0';
	return b - a;
}

/*
 * The <pose> of what an <origin> o places at p: as the file writes it
 * (xyz, then rpy: SDF's six numbers mean the same) when p is that origin
 * itself, not one moved by lumping; none for the identity.
 */
static void
add_origin(struct reader *r, xmlNodePtr parent, const struct u_el *o,
    phys_pose p, bool as_written, long line)
{
	char buf[NUMBERS_MAX];
	size_t n;

	if (!as_written || !o->name) {
		add_pose(parent, p, NULL, line);
		return;
	}
	n = triple_text(r, o, "xyz", buf, sizeof buf / 2);
	if (n >= sizeof buf / 2) {
		add_pose(parent, p, NULL, line);
		return;
	}
	buf[n++] = ' ';
	if (triple_text(r, o, "rpy", buf + n, sizeof buf - n) >= sizeof buf - n)
		add_pose(parent, p, NULL, line);
	else
		new_text(parent, "pose", buf, line);
}

/* The element at a slash path under parent, made where missing. */
static xmlNodePtr
path_el(xmlNodePtr parent, const char *path, long line)
{
	char part[64];
	const char *slash;
	size_t len;
	xmlNodePtr e;

	while (*path) {
		slash = strchr(path, '/');
		len = slash ? (size_t)(slash - path) : strlen(path);
		snprintf(part, sizeof part, "%.*s", (int)len, path);
		e = phys_child(parent, part);
		if (!e) {	/* part is no constant: not for intern */
			e = xmlNewDocNode(parent->doc, NULL,
			    (const xmlChar *)part, NULL);
			phys_node_set_line(e, line);
			xmlAddChild(parent, e);
		}
		parent = e;
		path += len + (slash != NULL);
	}
	return parent;
}

static void
record(struct reader *r, xmlNodePtr sdf, const struct u_el *urdf,
    phys_scope s, const char *ref)
{
	struct phys_urdf *info = r->info;
	struct u_entity *e;

	if (info->nents == info->capents) {
		info->capents = info->capents ? info->capents * 2 : 32;
		info->ents = phys_xrealloc(info->ents,
		    info->capents * sizeof *info->ents);
	}
	e = &info->ents[info->nents++];
	memset(e, 0, sizeof *e);
	e->sdf = sdf;
	e->ord = urdf->ord;
	e->line = urdf->line;
	e->scope = s;
	e->ref = ref ? phys_xstrdup(ref) : NULL;
}

static void
write_inertial(struct reader *r, xmlNodePtr link, const struct u_link *b,
    const struct u_inertial *in, bool own)
{
	long at = in->has ? in->el.line : b->el.line;
	xmlNodePtr e = add_el(link, "inertial", at), t;
	static const char *const names[6] = { "ixx", "ixy", "ixz", "iyy",
		"iyz", "izz" };
	int k;

	if (in->has)
		add_origin(r, e, &in->origin_el, in->origin, own,
		    own && in->origin_el.name ? in->origin_el.line : at);
	if (own)
		add_attr_numbers(r, e, "mass", &in->mass_el, "value",
		    &in->mass, 1, in->mass_el.name ? in->mass_el.line : at);
	else
		add_numbers(e, "mass", &in->mass, 1, at);
	at = own && in->inertia_el.name ? in->inertia_el.line : at;
	t = add_el(e, "inertia", at);
	/* products of 0 are SDF's default: a robot's many are left out */
	for (k = 0; k < 6; k++)
		if (in->I[k] != 0 || k == 0 || k == 3 || k == 5) {
			if (own)
				add_attr_numbers(r, t, names[k], &in->inertia_el,
				    names[k], &in->I[k], 1, at);
			else
				add_numbers(t, names[k], &in->I[k], 1, at);
		}
}

static void
write_geometry(struct reader *r, xmlNodePtr parent, const struct u_shape *s)
{
	xmlNodePtr g = add_el(parent, "geometry", s->geometry_el.line), e;
	const struct u_el *se = &s->shape_el;
	long at = se->line;

	switch (s->kind) {
	case US_BOX:
		e = add_el(g, "box", at);
		add_attr_numbers(r, e, "size", se, "size", s->size, 3, at);
		break;
	case US_SPHERE:
		e = add_el(g, "sphere", at);
		add_attr_numbers(r, e, "radius", se, "radius", s->size, 1, at);
		break;
	case US_CYLINDER:
	case US_CAPSULE:
		e = add_el(g, s->kind == US_CYLINDER ? "cylinder" : "capsule",
		    at);
		add_attr_numbers(r, e, "radius", se, "radius", s->size, 1, at);
		add_attr_numbers(r, e, "length", se, "length", s->size + 1, 1,
		    at);
		break;
	case US_MESH:
		e = add_el(g, "mesh", at);
		new_text(e, "uri", s->uri, at);
		if (s->scale[0] != 1 || s->scale[1] != 1 || s->scale[2] != 1)
			add_attr_numbers(r, e, "scale", se, "scale", s->scale,
			    3, at);
		break;
	}
}

/* CreateCollisions' names: see the top of the file. */
static char *
shape_name(const struct reader *r, const struct u_shape *s, int body,
    size_t count)
{
	const char *body_name = r->links[body].name;
	const char *base = s->name && *s->name ? s->name :
	    r->links[s->link].name;
	const char *ext = s->collision ? "_collision" : "_visual";
	size_t nb = strlen(body_name), pre = nb + sizeof LUMP - 1;
	char num[24] = "", *name, *made;

	if (count)
		snprintf(num, sizeof num, "_%zu", count);
	/* made after room for the prefix it may need */
	name = phys_xmalloc(pre + strlen(base) + strlen(ext) + strlen(num) + 1);
	made = name + pre;
	stpcpy(stpcpy(stpcpy(made, base), ext), num);
	if (strncmp(made, body_name, nb) == 0)
		memmove(name, made, strlen(made) + 1);
	else {
		memcpy(name, body_name, nb);
		memcpy(name + nb, LUMP, sizeof LUMP - 1);
	}
	return name;
}

/* Do the tags of <gazebo reference="ref"> reach collision name of body? */
static bool
tags_reach(const char *ref, const char *body, const char *name)
{
	char *lumped;
	bool yes;

	if (strcmp(ref, body) == 0)
		return strstr(name, LUMP) == NULL;
	lumped = phys_xasprintf(LUMP "%s_collision", ref);
	yes = strstr(name, lumped) != NULL;
	free(lumped);
	return yes;
}

/* The last child of ext named name, or NULL. */
static xmlNodePtr
last_tag(xmlNodePtr ext, const char *name)
{
	xmlNodePtr e, last = NULL;

	for (e = phys_child(ext, name); e; e = phys_next(e, name))
		last = e;
	return last;
}

/* A number tag, strictly read; 1 when present, 0 absent, -1 error. */
static int
tag_number(struct reader *r, xmlNodePtr ext, const char *name, double *out)
{
	xmlNodePtr e = last_tag(ext, name);
	char *v;
	bool ok;

	if (!e)
		return 0;
	v = tag_value(e);
	ok = phys_parse_double(v, out);
	free(v);
	if (!ok)
		return urdf_fail(r, phys_node_line(e), "<%s>: not a number", name);
	return 1;
}

static int
tag_to(struct reader *r, xmlNodePtr ext, const char *tag, xmlNodePtr into,
    const char *path)
{
	xmlNodePtr e = last_tag(ext, tag), parent;
	const char *slash = strrchr(path, '/');
	char *dir;
	double v;
	int rc = tag_number(r, ext, tag, &v);

	if (rc <= 0)
		return rc;
	dir = slash ? phys_xstrndup(path, (size_t)(slash - path)) : NULL;
	parent = dir ? path_el(into, dir, phys_node_line(e)) : into;
	free(dir);
	set_numbers(parent, slash ? slash + 1 : path, &v, 1, phys_node_line(e));
	return 0;
}

/* Copy a blob into parent; its nodes keep their lines. */
static xmlNodePtr
copy_blob(xmlNodePtr parent, xmlNodePtr e)
{
	xmlNodePtr c = xmlDocCopyNode(e, parent->doc, 1);

	xmlAddChild(parent, c);
	return c;
}

static int
apply_collision_tags(struct reader *r, xmlNodePtr ext, xmlNodePtr col)
{
	static const struct {
		const char *tag, *path;
	} tags[] = {
		{ "mu1", "surface/friction/ode/mu" },
		{ "mu2", "surface/friction/ode/mu2" },
		{ "kp", "surface/contact/ode/kp" },
		{ "kd", "surface/contact/ode/kd" },
		{ "maxVel", "surface/contact/ode/max_vel" },
		{ "minDepth", "surface/contact/ode/min_depth" },
		{ "laserRetro", "laser_retro" },
		{ "maxContacts", "max_contacts" },
	};
	xmlNodePtr e, b, old;
	char *v;
	size_t i;

	for (e = phys_child(ext, "collision"); e; e = phys_next(e,
	    "collision"))
		for (b = phys_child(e, NULL); b; b = phys_next(b, NULL)) {
			if (phys_node_is(b, "surface") &&
			    (old = phys_child(col, "surface"))) {
				xmlUnlinkNode(old);
				xmlFreeNode(old);
			}
			copy_blob(col, b);
		}
	for (i = 0; i < sizeof tags / sizeof *tags; i++) {
		if (tag_to(r, ext, tags[i].tag, col, tags[i].path) < 0)
			return -1;
		if (i == 1 && (e = last_tag(ext, "fdir1"))) {
			v = tag_value(e);
			add_text(path_el(col, "surface/friction/ode",
			    phys_node_line(e)),
			    "fdir1", v, phys_node_line(e));
			free(v);
		}
	}
	return 0;
}

/* The tags libsdformat reads itself; every other element is a blob. */
static bool
known_tag(xmlNodePtr e)
{
	static const char *const known[] = { "material", "collision",
		"visual", "static", "turnGravityOff", "dampingFactor",
		"maxVel", "minDepth", "mu1", "mu2", "fdir1", "kp", "kd",
		"selfCollide", "maxContacts", "laserRetro", "springReference",
		"springStiffness", "stopCfm", "stopErp", "fudgeFactor",
		"provideFeedback", "canonicalBody", "cfmDamping",
		"implicitSpringDamper", "disableFixedJointLumping",
		"preserveFixedJoint" };
	size_t i;

	for (i = 0; i < sizeof known / sizeof *known; i++)
		if (phys_node_is(e, known[i]))
			return true;
	return false;
}

static void
copy_blobs(xmlNodePtr ext, xmlNodePtr into)
{
	xmlNodePtr e;

	for (e = phys_child(ext, NULL); e; e = phys_next(e, NULL))
		if (!known_tag(e))
			copy_blob(into, e);
}

static int
apply_link_tags(struct reader *r, const struct u_ext *x, xmlNodePtr link,
    const char *body)
{
	xmlNodePtr e, vd;
	double v;
	int rc;

	if ((e = last_tag(x->node, "turnGravityOff"))) {
		char *t = tag_value(e);
		bool on = strcasecmp(t, "false") == 0 ||
		    strcasecmp(t, "no") == 0 || strcmp(t, "0") == 0;

		free(t);
		add_text(link, "gravity", on ? "true" : "false",
		    phys_node_line(e));
	}
	if ((rc = tag_number(r, x->node, "dampingFactor", &v)) < 0)
		return -1;
	if (rc > 0) {
		e = last_tag(x->node, "dampingFactor");
		vd = add_el(link, "velocity_decay", phys_node_line(e));
		set_numbers(vd, "linear", &v, 1, phys_node_line(e));
		set_numbers(vd, "angular", &v, 1, phys_node_line(e));
	}
	if ((e = last_tag(x->node, "selfCollide")))
		add_text(link, "self_collide", tag_flag(e) ? "1" : "0",
		    phys_node_line(e));
	copy_blobs(x->node, link);
	if (strcmp(x->ref, body) != 0 && (last_tag(x->node, "turnGravityOff") ||
	    last_tag(x->node, "dampingFactor") ||
	    last_tag(x->node, "selfCollide")))
		urdf_warn(r, phys_node_line(x->node), "link '%s' is lumped into '%s' (fixed "
		    "joint): its link tags apply to all of '%s'", x->ref, body,
		    body);
	return 0;
}

static int
apply_joint_tags(struct reader *r, xmlNodePtr ext, xmlNodePtr joint)
{
	static const struct {
		const char *tag, *path;
	} nums[] = {
		{ "stopCfm", "physics/ode/limit/cfm" },
		{ "stopErp", "physics/ode/limit/erp" },
		{ "springReference", "axis/dynamics/spring_reference" },
		{ "springStiffness", "axis/dynamics/spring_stiffness" },
		{ "fudgeFactor", "physics/ode/fudge_factor" },
	};
	xmlNodePtr e, isd = NULL;
	const char *v;
	size_t i;

	for (i = 0; i < sizeof nums / sizeof *nums; i++)
		if (tag_to(r, ext, nums[i].tag, joint, nums[i].path) < 0)
			return -1;
	/* libsdformat also writes <physics><ode><provide_feedback>, which
	 * no SDF version has */
	if ((e = last_tag(ext, "provideFeedback"))) {
		v = tag_flag(e) ? "true" : "false";
		add_text(path_el(joint, "physics", phys_node_line(e)),
		    "provide_feedback", v, phys_node_line(e));
	}
	/* cfmDamping is the old name of implicitSpringDamper */
	for (e = phys_child(ext, NULL); e; e = phys_next(e, NULL))
		if (phys_node_is(e, "implicitSpringDamper") ||
		    phys_node_is(e, "cfmDamping"))
			isd = e;
	if (isd) {
		v = tag_flag(isd) ? "true" : "false";
		add_text(path_el(joint, "physics/ode",
		    phys_node_line(isd)),
		    "implicit_spring_damper", v, phys_node_line(isd));
		add_text(path_el(joint, "physics/ode",
		    phys_node_line(isd)), "cfm_damping", v,
		    phys_node_line(isd));
	}
	copy_blobs(ext, joint);
	return 0;
}

static const char *
sdf_joint_type(const struct u_joint *j)
{
	if (j->revolute0 && !j->preserve && j->type == UJ_FIXED)
		return "revolute";
	switch (j->type) {
	case UJ_REVOLUTE:
	case UJ_CONTINUOUS:
		return "revolute";
	case UJ_PRISMATIC:
		return "prismatic";
	default:
		return "fixed";
	}
}

/* SDF 1.11's <mimic>: libsdformat drops URDF's. */
static void
write_mimic(struct reader *r, const struct u_joint *j, xmlNodePtr axis)
{
	int leader = find_joint(r, j->mimic);
	const struct u_joint *l = leader >= 0 ? &r->joints[leader] : NULL;
	xmlNodePtr m;

	if (!l || l->lumped || l->type == UJ_FIXED || l->type == UJ_FLOATING) {
		urdf_warn(r, j->mimic_el.line, "joint '%s': <mimic> names '%s', "
		    "which is no moving joint of the model; not followed",
		    j->name, j->mimic);
		return;
	}
	m = add_el(axis, "mimic", j->mimic_el.line);
	xmlSetProp(m, (const xmlChar *)"joint", (const xmlChar *)j->mimic);
	xmlSetProp(m, (const xmlChar *)"axis", (const xmlChar *)"axis");
	add_numbers(m, "multiplier", &j->multiplier, 1, j->mimic_el.line);
	add_numbers(m, "offset", &j->offset, 1, j->mimic_el.line);
	if (r->minor < 11)
		r->minor = 11;
}

static void
write_axis(struct reader *r, const struct u_joint *j, xmlNodePtr joint)
{
	long at = j->axis_el.name ? j->axis_el.line : j->el.line;
	xmlNodePtr axis = add_el(joint, "axis", at), e;
	static const double zero = 0;

	if (j->type == UJ_FIXED) {	/* disableFixedJointLumping */
		e = add_el(axis, "limit", j->el.line);
		add_numbers(e, "lower", &zero, 1, j->el.line);
		add_numbers(e, "upper", &zero, 1, j->el.line);
		e = add_el(axis, "dynamics", j->el.line);
		add_numbers(e, "damping", &zero, 1, j->el.line);
		add_numbers(e, "friction", &zero, 1, j->el.line);
		return;
	}
	add_attr_numbers(r, axis, "xyz", &j->axis_el, "xyz", j->axis, 3, at);
	if (j->has_limit) {
		const struct u_el *l = &j->limit_el;

		e = add_el(axis, "limit", l->line);
		if (j->type != UJ_CONTINUOUS) {
			add_attr_numbers(r, e, "lower", l, j->swapped ?
			    "upper" : "lower", &j->lower, 1, l->line);
			add_attr_numbers(r, e, "upper", l, j->swapped ?
			    "lower" : "upper", &j->upper, 1, l->line);
		}
		add_attr_numbers(r, e, "effort", l, "effort", &j->effort, 1,
		    l->line);
		add_attr_numbers(r, e, "velocity", l, "velocity",
		    &j->velocity, 1, l->line);
	}
	if (j->has_dyn) {
		const struct u_el *d = &j->dyn_el;

		e = add_el(axis, "dynamics", d->line);
		add_attr_numbers(r, e, "damping", d, "damping", &j->damping, 1,
		    d->line);
		add_attr_numbers(r, e, "friction", d, "friction",
		    &j->friction, 1, d->line);
	}
	if (j->mimic)
		write_mimic(r, j, axis);
}

static int
write_joint(struct reader *r, int ji)
{
	struct u_joint *j = &r->joints[ji];
	const struct u_link *p = &r->links[j->parent];
	bool world = is_world(r, j->parent);
	const char *type = sdf_joint_type(j);
	xmlNodePtr n = add_el(r->model, "joint", j->el.line);
	int k;

	/* its frame is its child's, SDF's default: no <pose> */
	xmlSetProp(n, (const xmlChar *)"name", (const xmlChar *)j->name);
	xmlSetProp(n, (const xmlChar *)"type", (const xmlChar *)type);
	new_text(n, "parent", world ? "world" : r->links[p->body].name,
	    j->el.line);
	new_text(n, "child", r->links[j->child].name, j->el.line);
	if (strcmp(type, "fixed") != 0)
		write_axis(r, j, n);
	record(r, n, &j->el, PHYS_S_JOINT, j->name);
	r->info->ents[r->info->nents - 1].jtype = j->type;
	for (k = r->joint_exts.at[ji]; k < r->joint_exts.at[ji + 1]; k++) {
		r->exts[r->joint_exts.of[k]].used = true;
		if (apply_joint_tags(r, r->exts[r->joint_exts.of[k]].node,
		    n) < 0)
			return -1;
	}
	return 0;
}

/* How many SDF links are below li, and the names of the first four. */
static size_t
bodies_below(const struct reader *r, int li, struct phys_buf *b)
{
	int end = r->pos[li] + r->size[li], k;
	size_t n = 0;

	for (k = r->next_body[r->pos[li] + 1]; k < end;
	    k = r->next_body[k + 1])
		if (n++ < 4)
			phys_buf_printf(b, "%s%s", b->len ? ", " : "",
			    r->links[r->order[k]].name);
	return n;
}

/*
 * Each link's fate in libsdformat's converter. ReduceFixedJoints first
 * lumps each link's children on fixed joints into it, the deepest first
 * and each link's in the order of their joints' names: a link without
 * an <inertial> gets one of 0 kg from the first child that has one, and
 * two masses summing to 0 make a centre of mass of NaN, which every lump
 * after carries. CreateSDF then walks from the root and drops, with all
 * below it, a link without an <inertial> or whose mass is within 1e-6 of
 * 0 (ignition::math::equal), lumped or not; the root named world is no
 * link and never dropped. A model left without a link, or a link with a
 * centre of mass of NaN, makes libsdformat refuse the file.
 */
static void
find_fates(struct reader *r)
{
	struct u_fate *f, *c;
	const struct u_link *l;
	size_t k, i, kept = 0;
	int li;

	r->fates = phys_xcalloc(r->nlinks, sizeof *r->fates);
	for (k = r->nlinks; k-- > 0;) {
		li = r->order[k];
		l = &r->links[li];
		f = &r->fates[li];
		f->has = l->in.has;
		f->mass = l->in.has ? l->in.mass : 0;
		for (i = 0; i < l->nkids; i++) {
			c = &r->fates[r->joints[l->kids[i]].child];
			if (!r->joints[l->kids[i]].lumped || !c->has)
				continue;
			f->has = true;
			f->mass += c->mass;
			f->nan = f->nan || c->nan || f->mass == 0;
		}
		f->dropped = !is_world(r, li) &&
		    (!f->has || fabs(f->mass) <= 1e-6);
	}
	for (k = 0; k < r->nlinks; k++) {
		li = r->order[k];
		l = &r->links[li];
		f = &r->fates[li];
		f->reached = l->up < 0 ||
		    (r->fates[r->joints[l->up].parent].reached &&
		    !r->fates[r->joints[l->up].parent].dropped);
		if (!f->reached || f->dropped || l->body != li ||
		    is_world(r, li))
			continue;
		kept++;
		r->nan = r->nan || f->nan;
	}
	r->no_link = kept == 0;
}

/* "has no <inertial>", "has mass 0", or a mass libsdformat takes for 0. */
static void
mass_words(const struct u_link *l, const struct u_fate *f,
    struct phys_buf *b)
{
	if (!f->has || (f->mass == 0 && !l->in.has))
		phys_buf_printf(b, "%s", "no <inertial>");
	else if (f->mass == 0)
		phys_buf_printf(b, "%s", "mass 0");
	else
		phys_buf_printf(b, "mass %g, which libsdformat takes for none "
		    "(it is within 1e-6 of 0)", f->mass);
}

/* What the links libsdformat drops leave Gazebo. */
static const char *
gazebo(const struct reader *r, size_t below)
{
	if (r->no_link)
		return ", which leaves no link: it refuses the file";
	if (r->nan)
		return "";
	return below ? ", and Gazebo runs without them" :
	    ", and Gazebo runs without it";
}

/* What phys does with a link of no mass (zero) it keeps. */
static const char *
kept_how(const struct reader *r, bool zero)
{
	if (r->massless)
		return " (no link of the robot has a mass: a run gives each "
		    "moving link its collision shapes' mass, as phys-inertia "
		    "fix computes it)";
	return zero ? " (a run gives it a stand-in mass, said as it starts; "
	    "phys-inertia fix computes one)" : "";
}

/*
 * libsdformat drops a link without mass with every link below it, even
 * one that is lumped (its own lumped children are merged first): a robot
 * can lose an arm, or every link, when libsdformat refuses the file.
 * phys keeps them all, and says so once, at the link CreateSDF reaches.
 */
static void
warn_lost(struct reader *r, int li)
{
	const struct u_link *l = &r->links[li];
	const struct u_fate *f = &r->fates[li];
	struct phys_buf names = { 0 }, has = { 0 };
	long line = l->in.has ? l->in.mass_el.line : l->el.line;
	bool zero = !f->has || f->mass == 0;
	size_t n = 0;

	if (!f->dropped || (!f->reached && (!zero || l->body != li)))
		return;
	n = bodies_below(r, li, &names);
	mass_words(l, f, &has);
	if (l->body == li && !f->reached)
		urdf_warn(r, line, "link '%s' has %s: kept%s", l->name,
		    has.s, kept_how(r, true));
	else if (l->body == li)
		urdf_warn(r, line, "link '%s' has %s: kept%s; libsdformat "
		    "drops it%s%s%s%s%s", l->name, has.s, kept_how(r, zero),
		    n ? " and the links below it (" : "", n ? names.s : "",
		    n > 4 ? ", ..." : "", n ? ")" : "", gazebo(r, n));
	else if (n)
		urdf_warn(r, line, "link '%s' has %s: libsdformat drops the "
		    "links below it (%s%s)%s%s; phys keeps them", l->name,
		    zero ? "no mass" : has.s, names.s, n > 4 ? ", ..." : "",
		    r->nan ? "" : " and Gazebo runs without ",
		    r->nan ? "" : "them");
	phys_buf_free(&names);
	phys_buf_free(&has);
}

/* A centre of mass of NaN in a link libsdformat keeps: it refuses it. */
static void
warn_nan(struct reader *r, int li)
{
	const struct u_fate *f = &r->fates[li];

	if (f->nan && f->reached && !f->dropped && r->links[li].body == li)
		urdf_warn(r, r->links[li].el.line, "link '%s': libsdformat "
		    "lumps links of no mass together into it, which makes its "
		    "centre of mass NaN, and refuses the file; phys adds "
		    "their masses", r->links[li].name);
}

static void
massless(struct u_inertial *in)
{
	if (!in->has) {
		memset(in, 0, sizeof *in);
		in->origin = PHYS_POSE_IDENTITY;
	}
}

static void
write_shapes(struct reader *r, xmlNodePtr link, int body, const int *order,
    size_t n, bool collision)
{
	const struct u_shape *s;
	const struct u_link *l;
	xmlNodePtr e;
	size_t i, k, count = 0;
	char *name;

	for (i = 0; i < n; i++) {
		l = &r->links[order[i]];
		for (k = l->first_shape; k < l->first_shape + l->nshapes; k++) {
			s = &r->shapes[k];
			if (s->collision != collision)
				continue;
			name = shape_name(r, s, body, count++);
			e = add_el(link, collision ? "collision" : "visual",
			    s->el.line);
			xmlSetProp(e, (const xmlChar *)"name",
			    (const xmlChar *)name);
			add_origin(r, e, &s->origin_el,
			    phys_pose_mul(l->in_body, s->origin), order[i] ==
			    body, s->el.line);
			/* phys reads no visual's geometry: written for
			 * printing and checking only */
			if (collision || r->o->visuals)
				write_geometry(r, e, s);
			if (collision) {
				record(r, e, &s->el, PHYS_S_COLLISION, l->name);
				r->info->ents[r->info->nents - 1].shape =
				    s->kind;
				r->info->ents[r->info->nents - 1].reached =
				    tags_reach(l->name, r->links[body].name,
				    name);
			}
			free(name);
		}
	}
}

static bool
collision_tags(xmlNodePtr ext)
{
	static const char *const tags[] = { "mu1", "mu2", "fdir1", "kp",
		"kd", "maxVel", "minDepth", "maxContacts", "laserRetro",
		"collision" };
	size_t i;

	for (i = 0; i < sizeof tags / sizeof *tags; i++)
		if (phys_child(ext, tags[i]))
			return true;
	return false;
}

/* The blocks of a body's links, in libsdformat's order, applied. */
static int
apply_body_exts(struct reader *r, xmlNodePtr link, int body,
    const int *order, size_t n)
{
	const char *bname = r->links[body].name;
	const struct lists *le = &r->link_exts;
	struct u_ext *x;
	xmlNodePtr c;
	char *cname;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		for (k = le->at[order[i]]; k < le->at[order[i] + 1]; k++) {
			x = &r->exts[le->of[k]];
			x->used = true;
			for (c = phys_child(link, "collision"); c;
			    c = phys_next(c, "collision")) {
				cname = phys_node_attr(c, "name");
				if (tags_reach(x->ref, bname, cname) &&
				    apply_collision_tags(r, x->node, c) < 0) {
					free(cname);
					return -1;
				}
				free(cname);
			}
			if (apply_link_tags(r, x, link, bname) < 0)
				return -1;
		}
	return 0;
}

/* Tags meant for a collision that libsdformat's names keep them from. */
static void
warn_unreached(struct reader *r, int body, const int *order, size_t n)
{
	const struct lists *le = &r->link_exts;
	const struct u_shape *s;
	const struct u_ext *x;
	const struct u_link *l;
	size_t i, k, count = 0;
	char *name;
	int e;

	for (i = 0; i < n; i++) {
		l = &r->links[order[i]];
		for (k = l->first_shape; k < l->first_shape + l->nshapes; k++) {
			s = &r->shapes[k];
			if (!s->collision)
				continue;
			name = shape_name(r, s, body, count++);
			for (e = le->at[order[i]]; e < le->at[order[i] + 1];
			    e++) {
				x = &r->exts[le->of[e]];
				if (!collision_tags(x->node) ||
				    tags_reach(x->ref, r->links[body].name,
				    name))
					continue;
				urdf_warn(r, s->el.line, "collision '%s' of link "
				    "'%s': the tags of <gazebo reference=\"%s\"> "
				    "(line %ld) do not reach it: libsdformat "
				    "names it '%s' and gives a link's tags to "
				    "its unnamed collisions only; Gazebo runs it "
				    "without them, and so does phys",
				    s->name ? s->name : "", x->ref, x->ref,
				    phys_node_line(x->node), name);
				break;
			}
			free(name);
		}
	}
}

/*
 * A link's pose is written in the model frame: the same frame as
 * libsdformat's <pose relative_to="JOINT"/> names, resolved here once,
 * which spares the loader a frame lookup per link.
 */
static int
write_body(struct reader *r, int li)
{
	struct u_link *l = &r->links[li];
	struct u_inertial in;
	const int *order;
	size_t n;
	char *lumped = NULL;
	xmlNodePtr link = add_el(r->model, "link", l->el.line);
	const struct u_joint *up = l->up >= 0 ? &r->joints[l->up] : NULL;
	int rc;

	xmlSetProp(link, (const xmlChar *)"name", (const xmlChar *)l->name);
	if (up && up->type == UJ_FLOATING)
		urdf_warn(r, up->el.line, "joint '%s' is floating: link '%s' "
		    "moves free, from where the joint puts it (libsdformat "
		    "refuses the file)", up->name, l->name);
	if (up)
		add_pose(link, l->at, NULL, up->el.line);
	order = lump_list(r, li, &n);
	lump_inertia(r, order, n, &in, &lumped);
	if (!in.has || !(in.mass > 0))
		massless(&in);
	write_inertial(r, link, l, &in, lumped == NULL);
	write_shapes(r, link, li, order, n, true);
	write_shapes(r, link, li, order, n, false);
	record(r, link, &l->el, PHYS_S_LINK, l->name);
	r->info->ents[r->info->nents - 1].lumped = lumped;
	rc = apply_body_exts(r, link, li, order, n);
	if (rc == 0)
		warn_unreached(r, li, order, n);
	return rc;
}

/* What a link's converted elements take, with room to spare: a URDF of
 * 45,000 links ran out of memory within 300 MB while converted. */
#define URDF_LINK_BYTES (12.0 * 1024)

/* CreateSDF: each link from the root, each joint before its child. */
static int
write_tree(struct reader *r)
{
	const struct u_link *l;
	double left, limit;
	char said[128];
	size_t k;
	int li;

	r->massless = true;
	for (k = 0; k < r->nlinks; k++)
		if (r->links[k].in.has && r->links[k].in.mass > 0)
			r->massless = false;
	for (k = 0; k < r->nlinks; k++) {
		li = r->order[k];
		l = &r->links[li];
		r->at = l->el.line;
		if (!phys_mem_room_for_more(k, URDF_LINK_BYTES, &left, &limit))
			return urdf_fail(r, l->el.line, "link '%s': %s is too "
			    "little to convert more links (%zu so far): raise "
			    "the limit, or read fewer", l->name,
			    phys_mem_left_text(said, sizeof said, left, limit),
			    k);
		warn_lost(r, li);
		warn_nan(r, li);
		if (is_world(r, li) || l->body != li)
			continue;
		if (l->up >= 0 && r->joints[l->up].type != UJ_FLOATING &&
		    write_joint(r, l->up) < 0)
			return -1;
		if (write_body(r, li) < 0)
			return -1;
	}
	return 0;
}

static void
apply_robot_exts(struct reader *r)
{
	struct u_ext *x;
	xmlNodePtr e;
	bool was_static = false, on;
	size_t i;

	for (i = 0; i < r->nexts; i++) {
		x = &r->exts[i];
		if (x->ref)
			continue;
		x->used = true;
		e = last_tag(x->node, "static");
		on = e && tag_flag(e);
		if (was_static && !e)
			urdf_warn(r, phys_node_line(x->node), "%s", "this <gazebo> block makes "
			    "the model move again: libsdformat writes "
			    "<static>false</static> for each block without "
			    "reference that does not say <static>");
		was_static = on;
		add_text(r->model, "static", on ? "true" : "false",
		    phys_node_line(e ? e : x->node));
		copy_blobs(x->node, r->model);
	}
}

/* <robot><origin> places the model, over a <gazebo><pose>. */
static int
robot_origin(struct reader *r)
{
	phys_pose p;
	xmlNodePtr old;

	if (!r->origin_el.name)
		return 0;
	if (read_origin(r, &r->origin_el, &p) < 0)
		return -1;
	if ((old = phys_child(r->model, "pose"))) {
		xmlUnlinkNode(old);
		xmlFreeNode(old);
	}
	add_pose(r->model, p, NULL, r->origin_el.line);
	return 0;
}

static void
warn_unused_exts(struct reader *r)
{
	const struct u_ext *x;
	size_t i;
	int ji;

	for (i = 0; i < r->nexts; i++) {
		x = &r->exts[i];
		if (x->used || !x->ref)
			continue;
		ji = find_joint(r, x->ref);
		if (ji >= 0 && r->joints[ji].lumped)
			urdf_warn(r, phys_node_line(x->node), "<gazebo reference=\"%s\">: the "
			    "joint is lumped (fixed); its tags reach nothing "
			    "but preserveFixedJoint and "
			    "disableFixedJointLumping", x->ref);
		else if (ji >= 0)
			urdf_warn(r, phys_node_line(x->node), "<gazebo reference=\"%s\">: the "
			    "joint is floating and becomes no SDF joint; its "
			    "tags reach nothing", x->ref);
		else if (find_link(r, x->ref) >= 0)
			urdf_warn(r, phys_node_line(x->node), "<gazebo reference=\"%s\">: the "
			    "world link is no link; its tags reach nothing",
			    x->ref);
		else
			urdf_warn(r, phys_node_line(x->node), "<gazebo reference=\"%s\">: the "
			    "robot has no link or joint of that name; its tags "
			    "reach nothing", x->ref);
	}
}

/* ---- what phys reads of the <gazebo> elements (phys-sdf check) ---- */

static bool
scope_reads(phys_scope s, const char *name)
{
	size_t i, n = phys_scope_count(s), len = strlen(name);
	const char *p;

	for (i = 0; i < n; i++) {
		p = phys_scope_param(s, i)->name;
		if (strncmp(p, name, len) == 0 && (p[len] == '\0' ||
		    p[len] == '.'))
			return true;
	}
	return false;
}

static bool
model_reads(xmlNodePtr e)
{
	char *file;
	bool ours;

	if (phys_node_is(e, "static") || phys_node_is(e, "self_collide") ||
	    phys_node_is(e, "pose"))
		return true;
	if (!phys_node_is(e, "plugin"))
		return false;
	/* a gz-sim system is phys-step's to run, or to say it does not */
	file = phys_node_attr(e, "filename");
	ours = file && (strstr(file, "InitialVelocityPlugin") ||
	    strstr(file, "gz-sim") || strstr(file, "ignition-gazebo"));
	free(file);
	return ours;
}

static void
note_inert(struct reader *r)
{
	const struct u_ext *x;
	xmlNodePtr e, c;
	bool link, joint, reads;
	size_t i;

	for (i = 0; i < r->nexts; i++) {
		x = &r->exts[i];
		link = x->ref && find_link(r, x->ref) >= 0;
		joint = x->ref && find_joint(r, x->ref) >= 0;
		for (e = phys_child(x->node, NULL); e; e = phys_next(e, NULL)) {
			if (phys_node_is(e, "material") ||
			    phys_node_is(e, "visual") ||
			    phys_node_is(e, "canonicalBody")) {
				phys_warnat(r->d->name, phys_node_line(e), "<%s> "
				    "in <gazebo>: stored but inert (phys "
				    "simulates no %s)", (const char *)e->name,
				    phys_node_is(e, "canonicalBody") ?
				    "canonical body" : "appearance");
				continue;
			}
			if (phys_node_is(e, "collision")) {
				for (c = phys_child(e, NULL); c;
				    c = phys_next(c, NULL))
					if (!scope_reads(PHYS_S_COLLISION,
					    (const char *)c->name))
						phys_warnat(r->d->name,
						    phys_node_line(c), "<%s> in "
						    "<gazebo><collision>: "
						    "stored but inert (kept in "
						    "the SDF; phys does not use "
						    "it)", (const char *)c->name);
				continue;
			}
			if (known_tag(e))
				continue;
			reads = x->ref ? (link && scope_reads(PHYS_S_LINK,
			    (const char *)e->name)) || (joint &&
			    scope_reads(PHYS_S_JOINT, (const char *)e->name)) :
			    model_reads(e);
			if (!reads)
				phys_warnat(r->d->name, phys_node_line(e), "<%s> "
				    "in <gazebo>: stored but inert (kept in the "
				    "SDF model; phys does not use it)",
				    (const char *)e->name);
		}
	}
}

/* ---- the conversion ---- */

static void
reader_free(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->nlinks; i++) {
		free(r->links[i].name);
		free(r->links[i].kids);
	}
	for (i = 0; i < r->njoints; i++) {
		free(r->joints[i].name);
		free(r->joints[i].mimic);
	}
	for (i = 0; i < r->nshapes; i++) {
		free(r->shapes[i].name);
		free(r->shapes[i].uri);
	}
	for (i = 0; i < r->nexts; i++)
		free(r->exts[i].ref);
	free(r->links);
	free(r->joints);
	free(r->shapes);
	free(r->exts);
	free(r->robot);
	free(r->link_ix);
	free(r->joint_ix);
	free(r->order);
	free(r->pos);
	free(r->size);
	free(r->fates);
	free(r->next_body);
	lists_free(&r->lumps);
	lists_free(&r->link_exts);
	lists_free(&r->joint_exts);
	phys_buf_free(&r->strs);
	if (r->side)
		xmlFreeDoc(r->side);
	if (r->dict)
		xmlDictFree(r->dict);
}

static void
info_free(struct phys_doc *d)
{
	struct phys_urdf *info = d->urdf;
	size_t i;

	if (!info)
		return;
	for (i = 0; i < info->nents; i++) {
		free(info->ents[i].ref);
		free(info->ents[i].lumped);
	}
	free(info->ents);
	if (info->owns_source) {
		phys_doc_free(info->source);
		free(info->source);
	}
	free(info);
	d->urdf = NULL;
}

/*
 * Joints whose <mimic>s lead back to themselves (a -> b -> a): no joint
 * of the cycle leads it, which no simulator can follow; said once per
 * cycle, at the <mimic> of its first joint in the file. Each joint is
 * walked once: 1 on the walk in hand, 2 when done.
 */
static void
warn_mimic_cycles(struct reader *r)
{
	char *mark = phys_xcalloc(r->njoints + 1, 1);
	struct phys_buf names = { 0 };
	size_t i;
	int j, k, n;

	for (i = 0; i < r->njoints; i++) {
		for (j = (int)i; j >= 0 && !mark[j]; j = r->joints[j].mimic ?
		    find_joint(r, r->joints[j].mimic) : -1)
			mark[j] = 1;
		if (j >= 0 && mark[j] == 1) {	/* back on this walk */
			phys_buf_clear(&names);
			for (k = j, n = 0; n == 0 || k != j; n++,
			    k = find_joint(r, r->joints[k].mimic))
				if (n < 4)
					phys_buf_printf(&names, "%s -> ",
					    r->joints[k].name);
			phys_buf_printf(&names, "%s%s", n > 4 ? "... -> " : "",
			    r->joints[j].name);
			urdf_doubt(r, r->joints[j].mimic_el.line, "joint '%s': "
			    "its <mimic> leads back to it (%s): a cycle no "
			    "joint leads", r->joints[j].name, names.s);
		}
		for (j = (int)i; j >= 0 && mark[j] == 1; j =
		    r->joints[j].mimic ? find_joint(r, r->joints[j].mimic) : -1)
			mark[j] = 2;
	}
	phys_buf_free(&names);
	free(mark);
}

static int
read_robot(struct reader *r)
{
	const char *v;

	if (read_stream(r) < 0)
		return -1;
	r->robot = el_attr_dup(r, &r->robot_el, "name");
	if (!r->robot || !*r->robot)
		return urdf_fail(r, r->robot_el.line, "%s", "<robot> has no "
		    "name");
	v = el_attr(r, &r->robot_el, "version");
	if (v && strcmp(v, "1.0") != 0 && strcmp(v, "1") != 0)
		urdf_warn(r, r->robot_el.line, "URDF version '%.20s': read as "
		    "1.0, the one there is", v);
	if (read_links(r) < 0 || read_joints(r) < 0 || build_tree(r) < 0 ||
	    check_tree(r) < 0)
		return -1;
	warn_mimic_cycles(r);
	read_exts(r);
	assign_bodies(r);
	note_pitch_snaps(r);
	find_fates(r);
	return 0;
}

static int
write_model(struct reader *r)
{
	xmlNodePtr sdf;
	char version[8];
	int rc;

	r->out = xmlNewDoc((const xmlChar *)"1.0");
	r->out->dict = xmlDictCreate();	/* for names and short texts */
	r->out->_private = r->names;	/* intern()'s, until written */
	sdf = xmlNewDocNode(r->out, NULL, (const xmlChar *)"sdf", NULL);
	phys_node_set_line(sdf, r->robot_el.line);
	xmlDocSetRootElement(r->out, sdf);
	r->model = add_el(sdf, "model", r->robot_el.line);
	xmlSetProp(r->model, (const xmlChar *)"name",
	    (const xmlChar *)r->robot);
	rc = write_tree(r);
	if (rc == 0) {
		apply_robot_exts(r);
		rc = robot_origin(r);
	}
	r->out->_private = NULL;
	if (rc < 0)
		return -1;
	warn_unused_exts(r);
	if (r->o->notes)
		note_inert(r);
	snprintf(version, sizeof version, "1.%d", r->minor);
	xmlSetProp(sdf, (const xmlChar *)"version", (const xmlChar *)version);
	return 0;
}

/* Where conversion has reached, for memory running out (the parse
 * names its own line while it runs). */
static long
reached(const void *reader, const char **file)
{
	(void)file;
	return ((const struct reader *)reader)->at;
}

int
phys_urdf_convert(struct phys_doc *src, bool owns, struct phys_doc *out,
    const struct phys_urdf_options *o)
{
	struct phys_urdf_options quiet = { .quiet = true };
	struct phys_reading place = { src->name, reached, NULL, NULL };
	struct reader r;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.d = src;
	r.o = o ? o : &quiet;
	r.minor = 7;	/* libsdformat's: URDF is compatible with 1.7 */
	r.info = phys_xcalloc(1, sizeof *r.info);
	r.info->source = src;
	r.info->owns_source = owns;
	out->urdf = r.info;
	out->urdf_free = info_free;
	out->name = phys_xstrdup(src->name);
	out->path = src->path ? phys_xstrdup(src->path) : NULL;
	r.at = 1;
	place.arg = &r;
	phys_reading_push(&place);
	rc = read_robot(&r);
	if (rc == 0)
		rc = write_model(&r);
	phys_reading_pop(&place);
	if (r.out && rc == 0) {
		out->xml = r.out;
		out->root = xmlDocGetRootElement(r.out);
		out->kind = PHYS_DOC_MODEL;
		out->from = PHYS_DOC_URDF;
		out->major = 1;
		out->minor = r.minor;
	} else if (r.out) {
		xmlFreeDoc(r.out);
	}
	reader_free(&r);
	return rc;
}

struct phys_doc *
phys_urdf_source(const struct phys_doc *d)
{
	return d && d->urdf ? d->urdf->source : NULL;
}
