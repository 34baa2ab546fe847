/*
 * urdfedit.c - a parameter of a URDF's model written back into the URDF,
 * in the URDF's own terms, through the lossless editor (sdfedit.h): an
 * attribute of the element URDF holds it in, or an element of a
 * <gazebo reference="..."> block in the tag libsdformat reads for it.
 * Nothing else in the file changes.
 */
#include "urdf.h"
#include "urdfint.h"

#include <stdlib.h>
#include <string.h>

#include "sdfedit.h"

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

static struct u_entity *
entity_of(struct phys_urdf *info, xmlNodePtr node)
{
	size_t i;

	for (i = 0; i < info->nents; i++)
		if (info->ents[i].sdf == node)
			return &info->ents[i];
	return NULL;
}

static const char *
entity_name(const struct u_entity *e, char *buf, size_t size)
{
	char *name = phys_node_attr(e->urdf, "name");

	snprintf(buf, size, "%s", name ? name : "");
	free(name);
	return buf;
}

/* The child named name of parent in the URDF, made from xml if absent. */
static xmlNodePtr
urdf_child(struct phys_doc *u, xmlNodePtr parent, const char *name,
    const char *xml)
{
	xmlNodePtr c = phys_child(parent, name);

	if (c)
		return c;
	if (phys_doc_append_child(u, parent, xml) < 0)
		return NULL;
	return phys_child(parent, name);
}

static int
set_attr(struct phys_doc *u, xmlNodePtr n, const char *attr, const char *v)
{
	return n ? phys_doc_set_attr(u, n, attr, v) : -1;
}

/* "x y z r p y" as URDF's xyz and rpy. */
static int
set_origin(struct phys_doc *u, xmlNodePtr owner, const char *pose)
{
	double v[6];
	struct phys_buf xyz = { 0 }, rpy = { 0 };
	xmlNodePtr o;
	int rc;

	if (phys_parse_doubles(pose, v, 6) != 6)
		return phys_fail("a pose needs six numbers, not '%s'", pose);
	put_numbers(&xyz, v, 3);
	put_numbers(&rpy, v + 3, 3);
	o = urdf_child(u, owner, "origin", "<origin xyz=\"0 0 0\" "
	    "rpy=\"0 0 0\"/>");
	rc = set_attr(u, o, "xyz", xyz.s);
	if (rc == 0)
		rc = set_attr(u, o, "rpy", rpy.s);
	phys_buf_free(&xyz);
	phys_buf_free(&rpy);
	return rc;
}

static int
edit_inertial(struct phys_doc *u, const struct u_entity *e,
    const struct phys_param *p, const char *v)
{
	const char *what = p->name + strlen("inertial.");
	char name[256];
	xmlNodePtr in;

	if (e->lumped)
		return phys_failat(u->name, phys_node_line(e->urdf), "link "
		    "'%s' holds the mass of %s too, lumped by fixed joints: "
		    "set each link's <inertial> in the URDF, or keep a joint "
		    "with <gazebo reference=\"JOINT\"><preserveFixedJoint>true"
		    "</preserveFixedJoint></gazebo>", entity_name(e, name,
		    sizeof name), e->lumped);
	in = urdf_child(u, e->urdf, "inertial", "<inertial>\n"
	    "  <mass value=\"0\"/>\n"
	    "  <inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" "
	    "izz=\"0\"/>\n</inertial>");
	if (!in)
		return -1;
	if (strcmp(what, "mass") == 0)
		return set_attr(u, urdf_child(u, in, "mass",
		    "<mass value=\"0\"/>"), "value", v);
	if (strcmp(what, "pose") == 0)
		return set_origin(u, in, v);
	return set_attr(u, urdf_child(u, in, "inertia", "<inertia ixx=\"0\" "
	    "ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/>"),
	    what + strlen("inertia."), v);
}

/* The last <gazebo reference="ref"> holding path (slash-separated),
 * else the last one of ref, else NULL. */
static xmlNodePtr
gazebo_block(struct phys_doc *u, const char *ref, const char *first)
{
	xmlNodePtr g, last = NULL, holder = NULL;

	for (g = phys_child(u->root, "gazebo"); g; g = phys_next(g, "gazebo"))
		if (phys_node_attr_is(g, "reference", ref)) {
			last = g;
			if (phys_child(g, first))
				holder = g;
		}
	return holder ? holder : last;
}

static int
any_rank(const void *ctx, xmlNodePtr owner, const char *path)
{
	return -1;
}

/* Set the element at a dot path in ref's <gazebo> block, making the
 * block (after the URDF element at) and the path as needed. */
static int
set_gazebo(struct phys_doc *u, xmlNodePtr at, const char *ref,
    const char *path, const char *v)
{
	size_t len = strcspn(path, ".");
	char first[64];
	struct phys_buf b = { 0 };
	xmlNodePtr g;
	int rc;

	snprintf(first, sizeof first, "%.*s", (int)len, path);
	g = gazebo_block(u, ref, first);
	/* a tag may hold its value in an attribute, as <mu1 value="1"/> */
	if (g && !path[len] && phys_child(g, first) &&
	    xmlHasProp(phys_child(g, first), (const xmlChar *)"value"))
		return phys_doc_set_attr(u, phys_child(g, first), "value", v);
	if (!g) {
		phys_buf_puts(&b, "<gazebo reference=\"");
		phys_buf_xml_attr(&b, ref);
		phys_buf_puts(&b, "\"/>");
		rc = phys_doc_insert_after(u, at, b.s);
		phys_buf_free(&b);
		if (rc < 0)
			return -1;
		g = gazebo_block(u, ref, first);
	}
	return phys_doc_set_text(u, g, path, v, any_rank, NULL);
}

/* The <gazebo> tags libsdformat reads, by the parameter they become. */
static const struct {
	phys_scope scope;
	const char *param, *tag;
} tag_params[] = {
	{ PHYS_S_LINK, "self_collide", "selfCollide" },
	{ PHYS_S_COLLISION, "surface.friction.ode.mu", "mu1" },
	{ PHYS_S_COLLISION, "surface.friction.ode.mu2", "mu2" },
	{ PHYS_S_COLLISION, "surface.friction.ode.fdir1", "fdir1" },
	{ PHYS_S_COLLISION, "surface.contact.ode.kp", "kp" },
	{ PHYS_S_COLLISION, "surface.contact.ode.kd", "kd" },
	{ PHYS_S_COLLISION, "surface.contact.ode.max_vel", "maxVel" },
	{ PHYS_S_COLLISION, "surface.contact.ode.min_depth", "minDepth" },
	{ PHYS_S_COLLISION, "max_contacts", "maxContacts" },
	{ PHYS_S_COLLISION, "laser_retro", "laserRetro" },
	{ PHYS_S_JOINT, "axis.dynamics.spring_stiffness", "springStiffness" },
	{ PHYS_S_JOINT, "axis.dynamics.spring_reference", "springReference" },
	{ PHYS_S_JOINT, "physics.ode.limit.cfm", "stopCfm" },
	{ PHYS_S_JOINT, "physics.ode.limit.erp", "stopErp" },
	{ PHYS_S_JOINT, "physics.ode.implicit_spring_damper",
	    "implicitSpringDamper" },
	{ PHYS_S_JOINT, "physics.ode.cfm_damping", "implicitSpringDamper" },
	{ PHYS_S_JOINT, "physics.ode.fudge_factor", "fudgeFactor" },
	{ PHYS_S_JOINT, "physics.provide_feedback", "provideFeedback" },
};

static const char *
tag_of(phys_scope s, const char *param)
{
	size_t i;

	for (i = 0; i < sizeof tag_params / sizeof *tag_params; i++)
		if (tag_params[i].scope == s &&
		    strcmp(tag_params[i].param, param) == 0)
			return tag_params[i].tag;
	return NULL;
}

/* A link's gravity: turnGravityOff where the URDF says it already. */
static int
edit_gravity(struct phys_doc *u, const struct u_entity *e, const char *v)
{
	xmlNodePtr g = gazebo_block(u, e->ref, "turnGravityOff");
	bool on;

	if (!phys_parse_bool(v, &on))
		return phys_fail("gravity is true or false, not '%s'", v);
	if (g && phys_child(g, "turnGravityOff"))
		return set_gazebo(u, e->urdf, e->ref, "turnGravityOff",
		    on ? "false" : "true");
	return set_gazebo(u, e->urdf, e->ref, "gravity", v);
}

static int
edit_link(struct phys_doc *u, const struct u_entity *e,
    const struct phys_param *p, const char *v)
{
	const char *tag = tag_of(PHYS_S_LINK, p->name);
	xmlNodePtr g;
	char name[256];

	if (strncmp(p->name, "inertial.", 9) == 0)
		return edit_inertial(u, e, p, v);
	if (strcmp(p->name, "gravity") == 0)
		return edit_gravity(u, e, v);
	if (strncmp(p->name, "velocity_decay.", 15) == 0 &&
	    (g = gazebo_block(u, e->ref, "dampingFactor")) &&
	    phys_child(g, "dampingFactor"))
		return phys_failat(u->name, phys_node_line(phys_child(g,
		    "dampingFactor")), "link '%s': <dampingFactor> sets both "
		    "velocity decays; edit it there", entity_name(e, name,
		    sizeof name));
	return set_gazebo(u, e->urdf, e->ref, tag ? tag : p->name, v);
}

static const char *
shape_attr(const struct phys_param *p, enum u_shape_kind k)
{
	static const struct {
		const char *param, *attr;
	} attrs[] = {
		{ "geometry.box.size", "size" },
		{ "geometry.sphere.radius", "radius" },
		{ "geometry.cylinder.radius", "radius" },
		{ "geometry.cylinder.length", "length" },
		{ "geometry.capsule.radius", "radius" },
		{ "geometry.capsule.length", "length" },
		{ "geometry.mesh.scale", "scale" },
	};
	size_t i;

	(void)k;
	for (i = 0; i < sizeof attrs / sizeof *attrs; i++)
		if (strcmp(attrs[i].param, p->name) == 0)
			return attrs[i].attr;
	return NULL;
}

static int
edit_collision(struct phys_doc *u, const struct u_entity *e,
    const struct phys_param *p, const char *v)
{
	const char *attr = shape_attr(p, e->shape), *tag;
	xmlNodePtr link = e->urdf->parent;
	char *path;
	int rc;

	if (attr)
		return set_attr(u, phys_child(phys_child(e->urdf, "geometry"),
		    NULL), attr, v);
	if (!e->reached)
		return phys_failat(u->name, phys_node_line(e->urdf), "this "
		    "collision's surface cannot be set in URDF: libsdformat "
		    "gives the tags of <gazebo reference=\"%s\"> only to the "
		    "link's unnamed collisions (remove its name, or write the "
		    "robot as SDF: phys-sdf print)", e->ref);
	tag = tag_of(PHYS_S_COLLISION, p->name);
	if (tag)
		return set_gazebo(u, link, e->ref, tag, v);
	path = phys_xasprintf("collision.%s", p->name);
	rc = set_gazebo(u, link, e->ref, path, v);
	free(path);
	return rc;
}

static int
edit_joint(struct phys_doc *u, const struct u_entity *e,
    const struct phys_param *p, const char *v)
{
	const char *tag = tag_of(PHYS_S_JOINT, p->name);
	char name[256];
	xmlNodePtr n;

	entity_name(e, name, sizeof name);
	if (tag)
		return set_gazebo(u, e->urdf, e->ref, tag, v);
	if (strcmp(p->name, "axis.xyz") == 0)
		return set_attr(u, urdf_child(u, e->urdf, "axis",
		    "<axis xyz=\"1 0 0\"/>"), "xyz", v);
	if (strcmp(p->name, "axis.dynamics.damping") == 0 ||
	    strcmp(p->name, "axis.dynamics.friction") == 0)
		return set_attr(u, urdf_child(u, e->urdf, "dynamics",
		    "<dynamics damping=\"0\" friction=\"0\"/>"),
		    p->name + strlen("axis.dynamics."), v);
	if (strncmp(p->name, "axis.limit.", 11) == 0 &&
	    strcmp(p->name + 11, "stiffness") != 0 &&
	    strcmp(p->name + 11, "dissipation") != 0) {
		n = phys_child(e->urdf, "limit");
		if (e->jtype == UJ_CONTINUOUS && (!n ||
		    strcmp(p->name, "axis.limit.lower") == 0 ||
		    strcmp(p->name, "axis.limit.upper") == 0))
			return phys_failat(u->name, phys_node_line(e->urdf),
			    "joint '%s' is continuous: URDF gives it no "
			    "position limits%s; make it a revolute joint with a "
			    "<limit>", name, n ? "" : " and it has no <limit>");
		return set_attr(u, n, p->name + 11, v);
	}
	return phys_failat(u->name, phys_node_line(e->urdf), "joint '%s': "
	    "URDF cannot hold %s (neither the joint nor libsdformat's "
	    "<gazebo> tags have it); write the robot as SDF (phys-sdf print) "
	    "to set it", name, p->name);
}

/*
 * The converter read the URDF as a stream: the first edit makes its tree,
 * and finds each entity's element by its place among the elements (the
 * tree holds them in document order).
 */
static int
urdf_tree(struct phys_urdf *info)
{
	struct phys_doc *u = info->source;
	xmlNodePtr n, top, *nodes = NULL;
	size_t count = 0, cap = 0, i;
	int rc = 0;

	if (info->mapped)
		return 0;
	if (phys_doc_tree(u) < 0)
		return -1;
	info->mapped = true;
	for (n = top = u->root; n;) {	/* every element, in order */
		if (count == cap) {
			cap = cap ? cap * 2 : 1024;
			nodes = phys_xrealloc(nodes, cap * sizeof *nodes);
		}
		nodes[count++] = n;
		if (xmlFirstElementChild(n)) {
			n = xmlFirstElementChild(n);
			continue;
		}
		while (n != top && !xmlNextElementSibling(n))
			n = n->parent;
		n = n != top ? xmlNextElementSibling(n) : NULL;
	}
	for (i = 0; i < info->nents && rc == 0; i++)
		if (info->ents[i].ord >= 0 && (size_t)info->ents[i].ord < count)
			info->ents[i].urdf = nodes[info->ents[i].ord];
		else
			rc = phys_failat(u->name, info->ents[i].line, "%s",
			    "cannot edit: the file's elements are not those "
			    "read");
	free(nodes);
	return rc;
}

int
phys_urdf_edit(struct phys_doc *d, phys_scope s, xmlNodePtr node,
    const struct phys_param *p, const char *value)
{
	struct u_entity *e = d->urdf ? entity_of(d->urdf, node) : NULL;
	struct phys_doc *u = phys_urdf_source(d);

	if (!e || e->scope != s)
		return phys_fail("%s: no URDF element for this entity", d->name);
	if (urdf_tree(d->urdf) < 0)
		return -1;
	switch (s) {
	case PHYS_S_LINK:
		return edit_link(u, e, p, value);
	case PHYS_S_COLLISION:
		return edit_collision(u, e, p, value);
	case PHYS_S_JOINT:
		return edit_joint(u, e, p, value);
	default:
		return phys_fail("%s holds no %s parameters", u->name,
		    phys_scope_name(s));
	}
}
