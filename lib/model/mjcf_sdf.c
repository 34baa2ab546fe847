/*
 * mjcf_sdf.c - the SDF model of an MJCF model as mjcf.c reads it
 * (mjcfint.h): the world's gravity and profiles from <option>, a link per
 * body at its pose at qpos0 (one fusestatic fuses is part of the link of
 * the body it is welded to, its mass summed into it; settotalmass scales
 * every mass), its geoms as collisions, the ground in a static model of
 * the world body's, the joints (with a link between two joints of one
 * body), sites as frames, connect and weld constraints as joints and
 * joint couplings as mimics, actuators as gz-sim's joint systems, and in
 * phys's namespace (mjcf.h) the keyframes, exclusions, welds and contact
 * pairs.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mjcf.h"
#include "mjcf_defaults.h"
#include "mjcf_inertia.h"
#include "mjcf_qpos0.h"
#include "mjcfint.h"
#include "names.h"
#include "pairkey.h"
#include "param.h"

/* The link between two joints of one body: this share of the body's mass
 * (of 1 kg when it has none), with this radius of gyration (m). */
#define CHAIN_SHARE	1e-3
#define CHAIN_GYRATION	1e-2

/* ODE's constraint force mixing in an MJCF model's default profile: the
 * leg of tests/data/mjcf/hip.xml sags 0.07 mm under it (0.7 mm at 1e-9). */
#define MJCF_CFM	1e-10

/* The most degrees of freedom a model's default profile solves with ODE's
 * world solver, whose work a step grows as the cube of the constraint
 * rows: dm_control's humanoid has 27; under it Menagerie's G1 with hands
 * (49) took 22 s a simulated second and MuJoCo's stonehenge (456) 850 s,
 * against 0.2 s and 0.6 s under the quick solver. */
#define MJCF_WORLD_DOFS	32

/* ---- the SDF model ---- */

/*
 * A text node of text. One shorter than two pointers (most numbers) is
 * kept inside the node, as libxml2's parser keeps it in an SDF file's
 * (XML_PARSE_COMPACT): every libxml2 call that frees or changes a text
 * node knows that place. A model's thousands of values take no
 * allocation each.
 */
static xmlNodePtr
new_text(xmlDocPtr doc, const char *text)
{
	xmlNodePtr t = xmlNewDocText(doc, NULL);
	size_t len = strlen(text);

	if (len < 2 * sizeof(void *)) {
		memcpy(&t->properties, text, len + 1);
		t->content = (xmlChar *)&t->properties;
	} else {
		t->content = xmlStrdup((const xmlChar *)text);
	}
	return t;
}

static xmlNodePtr
add(xmlNodePtr parent, const char *name, const char *text, long line)
{
	/* in its parent's namespace, as libxml2's xmlNewTextChild makes it */
	xmlNodePtr n = xmlNewDocNode(parent->doc, parent->ns,
	    (const xmlChar *)name, NULL);

	xmlAddChild(parent, n);
	if (text)
		xmlAddChild(n, new_text(parent->doc, text));
	phys_node_set_line(n, line);
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

static xmlNsPtr phys_ns(xmlNodePtr sdf);

/* A list of numbers of any length (a mesh's vertices), in phys's
 * namespace: SDF has no such element. */
static void
add_list(xmlNodePtr parent, const char *name, const double *v, size_t n,
    long line)
{
	struct phys_buf b = { 0 };
	size_t i;

	phys_buf_reserve(&b, 1);
	for (i = 0; i < n; i++) {
		if (i)
			phys_buf_putc(&b, ' ');
		phys_buf_double(&b, v[i]);
	}
	xmlSetNs(add(parent, name, b.s, line),
	    phys_ns(xmlDocGetRootElement(parent->doc)));
	phys_buf_free(&b);
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

/* A mesh by its file, or by its lists where the MJCF gives them. */
static void
write_mesh(xmlNodePtr s, const struct mj_mesh *m, long line)
{
	if (m->uri)
		add(s, "uri", m->uri, line);
	else {
		add_list(s, "vertices", m->vertex, m->nvertex, line);
		if (m->nface)
			add_list(s, "faces", m->face, m->nface, line);
	}
	add_nums(s, "scale", m->scale, 3, line);
	/* an OBJ's first object only, as MuJoCo reads it */
	xmlSetNs(add(s, "rule", "mujoco", line),
	    phys_ns(xmlDocGetRootElement(s->doc)));
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
	case PHYS_MJ_HFIELD:	/* of a PNG (hfield_box makes the others) */
		s = add(geo, "heightmap", NULL, g->line);
		add(s, "uri", r->hfields[g->hfield].uri, g->line);
		v[0] = 2 * z[0];
		v[1] = 2 * z[1];
		v[2] = z[2];
		add_nums(s, "size", v, 3, g->line);
		xmlSetNs(add(s, "rule", "mujoco", g->line),
		    phys_ns(xmlDocGetRootElement(s->doc)));
		xmlSetNs(add_nums(s, "base", &r->hfields[g->hfield].size[3], 1,
		    g->line), phys_ns(xmlDocGetRootElement(s->doc)));
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
		/* MuJoCo collides a mesh's convex hull, as SDF 1.11 says */
		if (g->collides || g->paired) {
			xmlSetProp(s, (const xmlChar *)"optimization",
			    (const xmlChar *)"convex_hull");
			r->hulls = true;
		}
		write_mesh(s, &r->meshes[g->mesh], g->line);
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
	int condim, priority;
	double solmix, margin, gap;
	double mu, mu2, torsional, rolling;
	const double *solref, *solimp;
	const int *bits;	/* contype, conaffinity; NULL: none */
	long line;
};

/* Solimp's number i as MuJoCo runs it: it holds an impedance (dmin,
 * dmax) within 0.0001 and 0.9999, whatever the file says (dm_control's
 * joints give a dmin of 0). */
static double
impedance(int i, double x)
{
	return i < 2 ? fmin(fmax(x, 0.0001), 0.9999) : x;
}

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
	/* a condim of 1 is frictionless only against another of 1: MuJoCo
	 * takes the larger condim and coefficients of two geoms, which the
	 * condim given makes phys do (phys_contact_friction) */
	add_num(e, "mu", k->mu, k->line);
	add_num(e, "mu2", k->mu2, k->line);
	if (k->condim >= 4) {	/* else none: no patch, no spin */
		e = add(f, "torsional", NULL, k->line);
		add_num(e, "coefficient", k->torsional, k->line);
		add(e, "use_patch_radius", "true", k->line);
		add(e, "patch_radius", "1", k->line);
	}
	e = add(f, "mujoco", NULL, k->line);
	if (k->condim == 6)
		add_num(e, "rolling", k->rolling, k->line);
	add_num(e, "condim", k->condim, k->line);
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
	add_num(e, "timeconst", k->solref[0], k->line);
	add_num(e, "dampratio", k->solref[1], k->line);
	/* MuJoCo's default solimp is the parameters' own: written only
	 * when another, as a joint's is (a 50-body model's read was 3%
	 * shorter without the 600 elements) */
	if (memcmp(k->solimp, phys_mjcf_solimp, 5 * sizeof *k->solimp)) {
		e = add(m, "solimp", NULL, k->line);
		for (i = 0; i < 5; i++)
			add_num(e, imp[i], impedance(i, k->solimp[i]),
			    k->line);
	}
	if (k->priority != 0)
		add_num(m, "priority", k->priority, k->line);
	if (k->solmix != 1)
		add_num(m, "solmix", k->solmix, k->line);
	if (k->margin != 0)
		add_num(m, "margin", k->margin, k->line);
	if (k->gap != 0)
		add_num(m, "gap", k->gap, k->line);
}

static void
write_surface(xmlNodePtr c, const struct mj_geom *g)
{
	const int bits[2] = { g->contype, g->conaffinity };
	struct mj_contact k = { g->condim, g->priority, g->solmix,
		g->margin, g->gap, g->friction[0], g->friction[0], g->friction[1], g->friction[2],
		g->solref, g->solimp, bits, g->line };

	write_surface_of(c, &k);
}

static int weld_of(const struct reader *r, int i);

/* Whether body i is fused into its parent (fusestatic): it has no
 * joints, and is not a mocap body, which the user moves. */
static bool
fused(const struct reader *r, int i)
{
	return r->fuse && i >= 0 && r->bodies[i].njoints == 0 &&
	    !r->bodies[i].mocap;
}

/* The body whose link holds body i's geoms, sites and children's
 * joints: itself, or the one a fused body is part of (-1: the world):
 * the body it is welded to, or the mocap body it is fixed on. */
static int
holder_of(const struct reader *r, int i)
{
	while (fused(r, i))
		i = r->bodies[i].parent;
	return i;
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

/* An unnamed geom's collision or visual, which SDF names (geomN): MJCF
 * out writes the geom unnamed again (<phys:unnamed/>). */
static void
mark_unnamed(xmlNodePtr c, long line)
{
	xmlNodePtr e = xmlNewChild(c, phys_ns(xmlDocGetRootElement(c->doc)),
	    (const xmlChar *)"unnamed", NULL);

	phys_node_set_line(e, line);
}

/*
 * A geom's group, which SDF has no word for and a viewer shows or hides
 * geoms by: MJCF out writes it back (<phys:group>). A collision's of 0,
 * MuJoCo's default, is left unsaid; a visual's is always said (MJCF out
 * puts an SDF visual in group 1).
 */
static void
mark_group(xmlNodePtr c, int group, bool visual, long line)
{
	char text[16];
	xmlNodePtr e;

	if (group == 0 && !visual)
		return;
	snprintf(text, sizeof text, "%d", group);
	e = xmlNewChild(c, phys_ns(xmlDocGetRootElement(c->doc)),
	    (const xmlChar *)"group", (const xmlChar *)text);
	phys_node_set_line(e, line);
}

/*
 * A visual's colour, MuJoCo's rgba: the material's ambient and diffuse
 * colours (what SDF's readers draw), its alpha as SDF's transparency.
 */
static void
write_colour(xmlNodePtr visual, const struct mj_geom *g)
{
	xmlNodePtr m;

	if (g->rgba[3] < 1)
		add_num(visual, "transparency", 1 - g->rgba[3], g->line);
	m = add(visual, "material", NULL, g->line);
	add_nums(m, "ambient", g->rgba, 4, g->line);
	add_nums(m, "diffuse", g->rgba, 4, g->line);
}

/* A collision's colour, which SDF has no word for, where it is not
 * MuJoCo's default: MJCF out writes it back (<phys:rgba>). */
static void
mark_rgba(xmlNodePtr c, const struct mj_geom *g)
{
	if (!default_rgba(g->rgba))
		xmlSetNs(add_nums(c, "rgba", g->rgba, 4, g->line),
		    phys_ns(xmlDocGetRootElement(c->doc)));
}

/* Geom g as element kind ("collision", "visual") of link, named name. */
static xmlNodePtr
write_shape(struct reader *r, xmlNodePtr link, const char *kind,
    const struct mj_geom *g, const char *name, phys_pose frame)
{
	xmlNodePtr e = add(link, kind, NULL, g->line);

	set_name(e, name);
	if (!g->name)
		mark_unnamed(e, g->line);
	mark_group(e, g->group, *kind == 'v', g->line);
	add_pose(e, phys_pose_mul(frame, g->pose), g->line);
	write_geometry(r, e, g);
	return e;
}

/*
 * Whether a geom that collides is also drawn as a visual of its own
 * when printing: MuJoCo draws every geom of groups 0 to 2 (its viewer's
 * default), where an SDF reader draws visuals only. The visual is the
 * collision's twin (<phys:twin/>), which MJCF out does not write: the
 * geom it writes for the collision is drawn.
 */
static bool
drawn_twin(const struct reader *r, const struct mj_geom *g)
{
	return r->o->visuals && g->group >= 0 && g->group <= 2;
}

/* Geoms g0..g0+n of body (-1: the world body) into link: the ground, in
 * the world's frame, when ground_only, else the others. */
static void
write_geoms(struct reader *r, xmlNodePtr link, int body, size_t g0,
    size_t n, bool ground_only, phys_pose frame)
{
	const struct mj_geom *g;
	xmlNodePtr c, v;
	size_t i;
	char *name;
	bool collides;

	for (i = g0; i < g0 + n; i++) {
		g = &r->geoms[i];
		collides = g->collides || g->paired;
		if ((!collides && !r->o->visuals) ||
		    (body >= 0 && ground(r, body, i) != ground_only))
			continue;
		name = g->name ? phys_xstrdup(g->name) :
		    phys_xasprintf("geom%zu", i);
		if (collides) {
			c = write_shape(r, link, "collision", g, name, frame);
			r->geoms[i].node = c;
			mark_rgba(c, g);
			write_surface(c, g);
		}
		if (!collides || drawn_twin(r, g)) {
			v = write_shape(r, link, "visual", g, name, frame);
			if (collides)
				xmlSetNs(add(v, "twin", NULL, g->line),
				    phys_ns(xmlDocGetRootElement(v->doc)));
			write_colour(v, g);
		}
		free(name);
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
	if (j->limited && j->type == MJ_BALL) {
		/* a ball's range is its largest turn from qpos0 */
		e = add(ax, "limit", NULL, j->line);
		add_num(e, "lower", 0, j->line);
		add_num(e, "upper", j->range[1], j->line);
	} else if (j->limited) {
		/* phys measures a joint from where it is built: MuJoCo's
		 * qpos less ref */
		e = add(ax, "limit", NULL, j->line);
		add_num(e, "lower", j->range[0] - j->ref, j->line);
		add_num(e, "upper", j->range[1] - j->ref, j->line);
	}
	e = add(ax, "dynamics", NULL, j->line);
	add_num(e, "damping", j->damping, j->line);
	add_num(e, "friction", j->frictionloss, j->line);
	/* a ball's spring pulls towards qpos0 */
	add_num(e, "spring_reference", j->type == MJ_BALL ? 0 :
	    j->springref - j->ref, j->line);
	add_num(e, "spring_stiffness", j->stiffness, j->line);
	if (j->ref != 0) {
		/* kept for MJCF written back (mjcfkey_write.h) */
		char num[32];
		xmlNsPtr ns = phys_ns(xmlDocGetRootElement(jn->doc));

		phys_fmt_double(num, sizeof num, j->ref);
		phys_node_set_line(xmlNewTextChild(ax, ns,
		    (const xmlChar *)"ref", (const xmlChar *)num), j->line);
	}
}

/* The SDF name of joint k of body b (name_apart gives it). */
static char *
joint_name(const struct reader *r, const struct mj_body *b, size_t k)
{
	return phys_xstrdup(r->joints[b->joint0 + k].sdf);
}

/*
 * The link that joint k of a body of several joints moves: the body's
 * own for the last joint, else one of no mass at the body's pose, named
 * BODY_JOINT, which the next joint moves on.
 */
static char *
chain_link(const struct reader *r, const struct mj_body *b, size_t k)
{
	const char *scope;
	size_t n;
	char *j, *name;

	scope = phys_last_scope(b->name);
	n = scope ? (size_t)(scope - b->name) + 2 : 0;

	if (k + 1 >= b->njoints)
		return phys_xstrdup(b->name);
	j = joint_name(r, b, k);
	/* a scope the body's and joint's names share is said once (MJCF
	 * that phys wrote names both model::name): trip::hand_wrist1 */
	name = phys_xasprintf("%s_%s", b->name, strncmp(j, b->name, n) == 0 ?
	    j + n : j);
	free(j);
	return name;
}

/* The radius of gyration of a body's links between its joints: the
 * body's own (its mean principal moment over its mass), so that they
 * turn as readily as the body does (an engine's solver takes links far
 * apart in inertia badly), and at least CHAIN_GYRATION. */
static double
chain_gyration(const struct mj_body *b)
{
	double g = b->in.mass > 0 ? sqrt((b->in.diag[0] + b->in.diag[1] +
	    b->in.diag[2]) / (3 * b->in.mass)) : 0;

	return isfinite(g) && g > CHAIN_GYRATION ? g : CHAIN_GYRATION;
}

static void
write_chain_links(struct reader *r, xmlNodePtr model, const struct mj_body *b)
{
	double m = CHAIN_SHARE * (b->in.mass > 0 ? b->in.mass : 1);
	double g = chain_gyration(b);
	xmlNodePtr link, in, t;
	size_t k;
	char *name;

	for (k = 0; k + 1 < b->njoints; k++) {
		name = chain_link(r, b, k);
		link = add(model, "link", NULL, r->joints[b->joint0 + k].line);
		set_name(link, name);
		free(name);
		add_pose(link, b->world, b->line);
		phys_node_set_line(xmlNewChild(link, phys_ns(xmlDocGetRootElement(
		    model->doc)), (const xmlChar *)"between_joints", NULL),
		    b->line);
		in = add(link, "inertial", NULL, b->line);
		add_num(in, "mass", m, b->line);
		t = add(in, "inertia", NULL, b->line);
		add_num(t, "ixx", m * g * g, b->line);
		add_num(t, "iyy", m * g * g, b->line);
		add_num(t, "izz", m * g * g, b->line);
	}
}

/* Said once for the model: the first body of several joints, and how
 * many more there are. */
static void
say_chains(const struct reader *r)
{
	const struct mj_body *first = NULL;
	char more[64] = "";
	size_t i, n = 0;

	for (i = 0; i < r->nbodies; i++)
		if (r->bodies[i].njoints > 1 && !fused(r, (int)i) &&
		    n++ == 0)
			first = &r->bodies[i];
	if (!first || r->o->quiet)
		return;
	if (n > 1)
		snprintf(more, sizeof more, "; %zu more bodies likewise", n - 1);
	phys_warnat(phys_doc_file(r->d, first->line),
	    phys_where_line(first->line), "body '%s' has %zu joints: each "
	    "but the last moves a link of its own at the body (SDF needs a "
	    "link between two joints), of %g of the body's mass under ODE, "
	    "Bullet, DART and Simbody, of none under MuJoCo and in MJCF "
	    "written back, as in MuJoCo%s", first->name, first->njoints,
	    CHAIN_SHARE, more);
}

/* The joint's values that only MuJoCo's engine has, where they are not
 * its defaults: armature; the limits' margin, solref and solimp. */
static void
write_joint_mujoco(xmlNodePtr physics, const struct mj_joint *j)
{
	const double *ref = phys_mjcf_solref, *imp = phys_mjcf_solimp;
	static const char *const imps[] = { "dmin", "dmax", "width",
		"midpoint", "power" };
	bool soft = j->limited &&
	    (memcmp(j->solreflimit, ref, sizeof j->solreflimit) ||
	    memcmp(j->solimplimit, imp, sizeof j->solimplimit));
	bool margin = j->limited && j->margin != 0;
	xmlNodePtr m, l, e;
	int i;

	if (j->armature == 0 && !soft && !margin)
		return;
	m = add(physics, "mujoco", NULL, j->line);
	if (j->armature != 0)
		add_num(m, "armature", j->armature, j->line);
	if (!soft && !margin)
		return;
	l = add(m, "limit", NULL, j->line);
	if (margin)
		add_num(l, "margin", j->margin, j->line);
	if (!soft)
		return;
	e = add(l, "solref", NULL, j->line);
	add_num(e, "timeconst", j->solreflimit[0], j->line);
	add_num(e, "dampratio", j->solreflimit[1], j->line);
	e = add(l, "solimp", NULL, j->line);
	for (i = 0; i < 5; i++)
		add_num(e, imps[i], impedance(i, j->solimplimit[i]), j->line);
}

/*
 * ODE's stops of a limited joint, as soft as MuJoCo's limits are at the
 * model's step h: MuJoCo pulls a violation r back with the spring and
 * damper of solreflimit, a = -k r - b v per unit of mass (k = 1 / (dmax
 * tau zeta)^2, b = 2 / (dmax tau), tau at least 2h; in the direct form,
 * a number of 0 or less, k = -solref[0] / dmax^2, b = -solref[1] / dmax),
 * which a step corrects by the share h k / (h k + b): ODE's stop ERP.
 * ODE's default, 0.2, pulled Cassie's feet, which start 1.9 rad outside
 * their limits, back at 760 rad/s a step of 0.5 ms, and the robot flew
 * apart.
 */
static void
write_joint_ode(xmlNodePtr physics, const struct mj_joint *j, double h)
{
	const double *ref = j->solreflimit;
	double tau = fmax(ref[0], 2 * h);
	double dmax = impedance(1, j->solimplimit[1]);
	double k = ref[0] > 0 ? 1 / (dmax * dmax * tau * tau * ref[1] *
	    ref[1]) : -ref[0] / (dmax * dmax);
	double b = ref[1] > 0 ? 2 / (dmax * tau) : -ref[1] / dmax;

	xmlNodePtr limit;

	if (!j->limited)
		return;
	limit = add(add(physics, "ode", NULL, j->line), "limit", NULL, j->line);
	add_num(limit, "erp", h * k / (h * k + b), j->line);
	xmlSetNsProp(phys_child(limit, "erp"),
	    phys_ns(xmlDocGetRootElement(physics->doc)),
	    (const xmlChar *)"derived", (const xmlChar *)"solreflimit");
}

/* The joint's values of one engine's: ODE's stops, MuJoCo's own. */
static void
write_joint_physics(xmlNodePtr jn, const struct mj_joint *j, double h)
{
	xmlNodePtr p = add(jn, "physics", NULL, j->line);

	/* ODE's stops, which it sets for hinges and slides, hold no ball */
	if (j->type != MJ_BALL)
		write_joint_ode(p, j, h);
	write_joint_mujoco(p, j);
	if (!p->children) {
		xmlUnlinkNode(p);
		xmlFreeNode(p);
	}
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
	write_axis(jn, j);
	free(name);
	write_joint_physics(jn, j, r->timestep);
}

/* A free joint's damping, stiffness, armature or frictionloss (a class
 * gives every joint its damping): MuJoCo applies them to the body's six
 * velocities; a free SDF link has none of them, which is said. */
static void
note_free_joint(struct reader *r, const struct mj_joint *j, const char *body)
{
	if ((j->damping != 0 || j->stiffness != 0 || j->armature != 0 ||
	    j->frictionloss != 0) && !r->o->quiet)
		phys_warnat(phys_doc_file(r->d, j->line),
		    phys_where_line(j->line), "free joint of body '%s': its "
		    "damping, stiffness, armature and frictionloss (%g, %g, "
		    "%g, %g), which MuJoCo applies to the body's six "
		    "velocities, are not kept (a free link has none)", body,
		    j->damping, j->stiffness, j->armature, j->frictionloss);
}

static void
write_joints(struct reader *r, xmlNodePtr model, const struct mj_body *b)
{
	xmlNodePtr jn;
	char *name;
	size_t k;

	if (b->njoints == 1 && r->joints[b->joint0].type == MJ_FREE) {
		note_free_joint(r, &r->joints[b->joint0], b->name);
		return;		/* an SDF link without a joint moves free */
	}
	if (fused(r, (int)(b - r->bodies)))
		return;		/* part of the body it is welded to */
	for (k = 0; k < b->njoints; k++)
		write_one_joint(r, model, b, k);
	if (b->njoints || b->mocap)
		return;		/* a mocap body: a kinematic link */
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
		set_name(f, s->sdf);
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

/* The body joint j is of. */
static int
joint_body(const struct reader *r, int j)
{
	return r->joints[j].body;
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

/* Whether the world body has geoms of its own. Each <worldbody> of the
 * file adds to it, as MuJoCo reads them (a Menagerie scene's floor is in
 * a second one, after the robot's bodies): they need not come first. */
static bool
world_has_geoms(const struct reader *r)
{
	size_t i;

	for (i = 0; i < r->ngeoms; i++)
		if (r->geoms[i].body < 0)
			return true;
	return false;
}

static void
write_world_geoms(struct reader *r, xmlNodePtr model, long line)
{
	xmlNodePtr m, link;
	bool any = world_has_geoms(r);
	size_t i, k;

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
	for (i = 0; i < r->ngeoms; i++)
		if (r->geoms[i].body < 0)
			write_geoms(r, link, -1, i, 1, true, PHYS_POSE_IDENTITY);
	for (i = 0; i < r->nbodies; i++)
		write_geoms(r, link, (int)i, r->bodies[i].geom0,
		    r->bodies[i].ngeoms, true, r->bodies[i].world);
	write_sites(r, m, -1, "worldbody", PHYS_POSE_IDENTITY);
	for (i = 0; i < r->nbodies; i++)
		if (fused(r, (int)i) && holder_of(r, (int)i) < 0)
			write_sites(r, m, (int)i, "worldbody",
			    r->bodies[i].world);
}

/* The model's degrees of freedom (MuJoCo's nv). */
static size_t
model_dofs(const struct reader *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->njoints; i++)
		n += nv_of[r->joints[i].type];
	return n;
}

/*
 * A later MuJoCo's <flag eulerdamp="disable">: joint damping as a force
 * under its Euler integrator, which phys's MuJoCo engine applies so
 * (mujoco.eulerdamp); other integrators have no use for it.
 */
static void
explicit_damping(const struct reader *r, xmlNodePtr mujoco)
{
	if (!(r->off & MJ_OFF_EULERDAMP))
		return;
	if (r->integrator == 0)
		add(mujoco, "eulerdamp", "false", r->flag_line);
	else if (!r->o->quiet)
		phys_warnat_once(phys_doc_file(r->d, r->flag_line),
		    phys_where_line(r->flag_line), "<flag eulerdamp=\"disable"
		    "\">: a later MuJoCo's, for its Euler integrator only (the "
		    "model's is %s): not read", integrators[r->integrator]);
}

/* Whether the model has a limited spatial tendon, which only phys's
 * MuJoCo engine holds (engine.c's check_tendons). */
static bool
limited_tendons(const struct reader *r)
{
	size_t i;

	for (i = 0; i < r->ntendons; i++)
		if (r->tendons[i].limited && !r->tendons[i].fixed)
			return true;
	return false;
}

/*
 * The world a model file of MJCF runs in: MuJoCo's gravity, and two
 * profiles: the default one, ODE's at MuJoCo's timestep with its world
 * solver (which solves the constraints exactly, as MuJoCo's solvers do:
 * the quick one leaves a leg hung from three hip joints 6.5 cm below its
 * hip) up to MJCF_WORLD_DOFS degrees of freedom, its quick one beyond,
 * its constraints as soft as a force mixing of MJCF_CFM makes
 * them (MuJoCo's are soft too: without it, the redundant rows of a box's
 * four contacts or of a loop's closing joint leave the direct solver a
 * singular system, which sped the box 1.4% and stopped ODE on the
 * loop), and "mujoco", MuJoCo's engine with the <option> values as they
 * are, the default where the model has a limited spatial tendon.
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
	if (!limited_tendons(r))
		xmlSetProp(p, (const xmlChar *)"default",
		    (const xmlChar *)"true");
	add_num(p, "max_step_size", r->timestep, line);
	m = add(p, "ode", NULL, line);
	add(add(m, "solver", NULL, line), "type", model_dofs(r) <=
	    MJCF_WORLD_DOFS ? "world" : "quick", line);
	add_num(add(m, "constraints", NULL, line), "cfm", MJCF_CFM, line);
	p = add(w, "physics", NULL, line);
	set_name(p, "mujoco");
	xmlSetProp(p, (const xmlChar *)"type", (const xmlChar *)"mujoco");
	if (limited_tendons(r))
		xmlSetProp(p, (const xmlChar *)"default",
		    (const xmlChar *)"true");
	add_num(p, "max_step_size", r->timestep, line);
	m = add(p, "mujoco", NULL, line);
	add(m, "integrator", integrators[r->integrator], line);
	add(m, "solver", solvers[r->solver], line);
	add_num(m, "iterations", r->iterations, line);
	add_num(m, "tolerance", r->tolerance, line);
	add_num(m, "noslip_iterations", r->noslip_iterations, line);
	add_num(m, "noslip_tolerance", r->noslip_tolerance, line);
	add(m, "cone", cones[r->cone], line);
	add_num(m, "impratio", r->impratio, line);
	/* MuJoCo's default, not an SDF world's */
	add(m, "multiccd", r->multiccd ? "true" : "false", r->flag_line ?
	    r->flag_line : line);
	explicit_damping(r, m);
}

static void write_actuators(struct reader *r, xmlNodePtr model);
static void write_fluid(struct reader *r, xmlNodePtr model, long line);
static void write_tendon_springs(struct reader *r, xmlNodePtr model);
static int write_tendon_limits(struct reader *r, xmlNodePtr model);
static void write_pairs(struct reader *r, xmlNodePtr sdf);
static void write_key_controls(struct reader *r, xmlNodePtr sdf);
static void write_keys(struct reader *r, xmlNodePtr sdf, xmlNodePtr model);
static void write_free_name(struct reader *r, xmlNodePtr link,
    const struct mj_body *b);
static void write_excludes(struct reader *r, xmlNodePtr sdf,
    xmlNodePtr model);
static void write_equality_softness(struct reader *r, xmlNodePtr jn,
    xmlNodePtr n, double tendon_coef);

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
	xmlNodePtr jn = add(model, "joint", NULL, phys_node_where(n));
	char *nm = name ? phys_xstrdup(name) : phys_xasprintf("equality%zu",
	    i);

	set_name(jn, nm);
	free(nm);
	xmlSetProp(jn, (const xmlChar *)"type", (const xmlChar *)(ball ?
	    "ball" : "fixed"));
	add(jn, "parent", b2 ? b2 : "world", phys_node_where(n));
	add(jn, "child", b1, phys_node_where(n));
	if (ball && numbers(r, n, -1, "anchor", a, 3) == 3) {
		at.p = v3(a[0], a[1], a[2]);
		add_pose(jn, at, phys_node_where(n));
	}
	write_equality_softness(r, jn, n, 0);
	/* MuJoCo keeps an equality's bodies apart only where its filter
	 * would (a body and its parent, bodies welded together: <phys:weld>),
	 * never for the equality */
	phys_node_set_line(xmlNewChild(jn, phys_ns(xmlDocGetRootElement(
	    jn->doc)), (const xmlChar *)"touch", NULL), phys_node_where(n));
}

/* The number name under parent, marked as the reader's: what the author
 * wrote for MuJoCo, which no other engine is told it ignores. */
static void
add_derived(xmlNodePtr parent, const char *name, double v, long line)
{
	xmlNodePtr n = add_nums(parent, name, &v, 1, line);

	xmlSetNsProp(n, phys_ns(xmlDocGetRootElement(parent->doc)),
	    (const xmlChar *)"derived", (const xmlChar *)"equality");
}

/*
 * Coupling or loop n's solref and solimp, as MuJoCo compiles them, on
 * joint jn that follows or closes it, and a tendon equality's
 * coefficient of it (tendon_coef, else 0): MuJoCo's engine holds the
 * coupling or the loop (as its links' connect or weld) as softly (its
 * default too, 0.02 s: held by phys, a coupled gripper's fingers parted
 * 7 um from libmujoco's), the others as a joint.
 */
static void
write_equality_softness(struct reader *r, xmlNodePtr jn, xmlNodePtr n,
    double tendon_coef)
{
	static const char *const imps[] = { "dmin", "dmax", "width",
		"midpoint", "power" };
	long line = phys_node_where(n);
	double ref[2], imp[5];
	xmlNodePtr p, m, e;
	int i;

	if (!jn || phys_mjcf_equality_softness(r, n, ref, imp) < 0)
		return;		/* checked as read */
	if (!(p = phys_child(jn, "physics")))
		p = add(jn, "physics", NULL, line);
	if (!(m = phys_child(p, "mujoco")))
		m = add(p, "mujoco", NULL, line);
	e = add(m, "equality", NULL, line);
	if (tendon_coef != 0)
		add_derived(e, "tendon_coef", tendon_coef, line);
	e = add(e, "solref", NULL, line);
	add_derived(e, "timeconst", ref[0], line);
	add_derived(e, "dampratio", ref[1], line);
	e = add(e->parent, "solimp", NULL, line);
	for (i = 0; i < 5; i++)
		add_derived(e, imps[i], impedance(i, imp[i]), line);
}

/*
 * Joint j1 at c0 + c1 times joint j2: a mimic of j2. MuJoCo's joint and
 * tendon equalities measure each joint from qpos0 (its ref), as phys
 * measures a joint from where the model is built, so c0 is the offset
 * as it stands. The mimic's axis, or NULL.
 */
static xmlNodePtr
write_mimic(xmlNodePtr model, const struct mj_joint *j1,
    const struct mj_joint *j2, double c0, double c1, long line)
{
	xmlNodePtr jn, ax, m;
	char *name;

	for (jn = phys_child(model, "joint"); jn; jn = phys_next(jn, "joint")) {
		name = phys_node_attr(jn, "name");
		if (name && strcmp(name, j1->sdf) == 0)
			break;
		free(name);
	}
	if (!jn || !(ax = phys_child(jn, "axis")))
		return NULL;
	free(name);
	m = add(ax, "mimic", NULL, line);
	xmlSetProp(m, (const xmlChar *)"joint", (const xmlChar *)j2->sdf);
	xmlSetProp(m, (const xmlChar *)"axis", (const xmlChar *)"axis");
	add_num(m, "multiplier", c1, line);
	add_num(m, "offset", c0, line);
	return ax;
}

/* <joint joint1 joint2 polycoef>: joint1 = c0 + c1 joint2. */
static void
write_coupling(struct reader *r, xmlNodePtr model, xmlNodePtr n)
{
	double poly[5] = { 0, 1, 0, 0, 0 };

	xmlNodePtr ax;

	(void)some_numbers(r, n, -1, "polycoef", poly, 1, 5);
	ax = write_mimic(model, &r->joints[joint_find(r, own_attr(n,
	    "joint1"))], &r->joints[joint_find(r, own_attr(n, "joint2"))],
	    poly[0], poly[1], phys_node_where(n));
	write_equality_softness(r, ax ? ax->parent : NULL, n, 0);
}

/*
 * <tendon tendon1 [tendon2] polycoef>: sum a_k q_k = c0 over the fixed
 * tendons' joints (phys_mjcf_tendon_terms), the first joint at
 * (c0 - sum a_k q_k) / a_0: a mimic of the second, and a <phys:mimic>
 * of each other.
 */
static void
write_tendon_coupling(struct reader *r, xmlNodePtr model, xmlNodePtr n)
{
	long line = phys_node_where(n);
	struct mj_coupling c;
	xmlNodePtr ax, m;
	int k;

	if (phys_mjcf_tendon_terms(r, n, &c) < 0)	/* read before */
		return;
	ax = write_mimic(model, &r->joints[c.joint[0]],
	    &r->joints[c.joint[1]], c.c0 / c.coef[0], -c.coef[1] / c.coef[0],
	    line);
	for (k = 2; ax && k < c.n; k++) {
		m = add(ax, "mimic", NULL, line);
		xmlSetNs(m, phys_ns(xmlDocGetRootElement(model->doc)));
		xmlSetProp(m, (const xmlChar *)"joint",
		    (const xmlChar *)r->joints[c.joint[k]].sdf);
		add_num(m, "multiplier", -c.coef[k] / c.coef[0], line);
	}
	write_equality_softness(r, ax ? ax->parent : NULL, n, c.coef[0]);
}

/* ---- one namespace ---- */

/* The names of MuJoCo's bodies, joints and sites, one list. */
struct mj_names {
	const char **name;
	size_t n;
};

static const char *
listed_name(size_t i, const void *ctx)
{
	return ((const struct mj_names *)ctx)->name[i];
}

static void
names_of(struct mj_names *l, const char *name)
{
	l->name = phys_xrealloc(l->name, (l->n + 1) * sizeof *l->name);
	l->name[l->n++] = name;
}

/* NAME_SUFFIX, else NAME_SUFFIX0, NAME_SUFFIX1...: the first no element
 * of the model is named. */
static char *
free_name(const struct phys_name_order *all, const char *name,
    const char *suffix)
{
	char *s = phys_xasprintf("%s_%s", name, suffix);
	size_t i = 0;

	while (phys_name_order_find(all, s) >= 0) {
		free(s);
		s = phys_xasprintf("%s_%s%zu", name, suffix, i++);
	}
	return s;
}

/* Body b's unnamed joints named after it. */
static void
unnamed_joints(struct reader *r, const struct mj_body *b)
{
	struct mj_joint *j;
	size_t k;

	for (k = 0; k < b->njoints; k++) {
		j = &r->joints[b->joint0 + k];
		if (!j->name)
			j->sdf = b->njoints > 1 ? phys_xasprintf("%s_joint%zu",
			    b->name, k) : phys_xasprintf("%s_joint", b->name);
	}
}

/* Said once for each kind renamed: the first and how many more. */
static void
say_renamed(const struct reader *r, const char *kind, const char *name,
    const char *sdf, const char *with, long line, size_t n)
{
	char more[64] = "";

	if (r->o->quiet || n == 0)
		return;
	if (n > 1)
		snprintf(more, sizeof more, "; %zu more %ss likewise", n - 1,
		    kind);
	phys_warnat(phys_doc_file(r->d, line), phys_where_line(line),
	    "%s '%s' is named '%s' in phys: it shares its name with a %s "
	    "(MJCF keeps a namespace for each kind, SDF one for a model's "
	    "links, joints and frames)%s", kind, name, sdf, with, more);
}

/*
 * Each joint's and site's SDF name. MuJoCo lets a body, a joint and a
 * site share a name; SDF gives a model's links, joints and frames one
 * namespace. Bodies keep their names; a joint named like a body is
 * NAME_joint, a site named like a body or a joint NAME_frame (then
 * NAME_joint0 or NAME_frame0, ... while taken), as libsdformat renames
 * them in an SDF file from before 1.7; an unnamed joint is its body's,
 * BODY_joint (BODY_jointK of several).
 */
static void
name_apart(struct reader *r)
{
	struct mj_names bodies = { 0 }, joints = { 0 }, all = { 0 };
	struct phys_name_order ob, oj, oa;
	size_t i, nj = 0, ns = 0;
	long lj = 0, ls = 0;
	int first_j = -1, first_s = -1;

	for (i = 0; i < r->nbodies; i++) {
		names_of(&bodies, r->bodies[i].name);
		names_of(&all, r->bodies[i].name);
	}
	for (i = 0; i < r->njoints; i++) {
		names_of(&joints, r->joints[i].name);
		names_of(&all, r->joints[i].name);
	}
	for (i = 0; i < r->nsites; i++)
		names_of(&all, r->sites[i].name);
	phys_name_order_make(&ob, bodies.n, listed_name, &bodies);
	phys_name_order_make(&oj, joints.n, listed_name, &joints);
	phys_name_order_make(&oa, all.n, listed_name, &all);
	for (i = 0; i < r->nbodies; i++)
		unnamed_joints(r, &r->bodies[i]);
	for (i = 0; i < r->njoints; i++) {
		struct mj_joint *j = &r->joints[i];

		if (j->sdf)
			continue;
		if (phys_name_order_find(&ob, j->name) < 0) {
			j->sdf = phys_xstrdup(j->name);
			continue;
		}
		j->sdf = free_name(&oa, j->name, "joint");
		if (nj++ == 0)
			first_j = (int)i, lj = j->line;
	}
	for (i = 0; i < r->nsites; i++) {
		struct mj_site *s = &r->sites[i];

		if (phys_name_order_find(&ob, s->name) < 0 &&
		    phys_name_order_find(&oj, s->name) < 0) {
			s->sdf = phys_xstrdup(s->name);
			continue;
		}
		s->sdf = free_name(&oa, s->name, "frame");
		if (ns++ == 0)
			first_s = (int)i, ls = s->line;
	}
	if (first_j >= 0)
		say_renamed(r, "joint", r->joints[first_j].name,
		    r->joints[first_j].sdf, "body", lj, nj);
	if (first_s >= 0)
		say_renamed(r, "site", r->sites[first_s].name,
		    r->sites[first_s].sdf, "body or joint", ls, ns);
	phys_name_order_free(&ob);
	phys_name_order_free(&oj);
	phys_name_order_free(&oa);
	free(bodies.name);
	free(joints.name);
	free(all.name);
}

/* What a body's converted elements take, with room to spare: those of a
 * hinged box took about 8 kB; 45,000 within 300 MB ran out of memory
 * converted. */
#define MJCF_BODY_BYTES (10.0 * 1024)

/* Whether the process's memory limits leave room to convert every body,
 * else a refusal at the first that would not fit. */
static int
room_for_bodies(struct reader *r)
{
	double left, limit;
	char said[128];
	const struct mj_body *past;
	size_t fit;

	if (phys_mem_fits((double)r->nbodies * MJCF_BODY_BYTES, &left, &limit))
		return 0;
	fit = (size_t)(left / MJCF_BODY_BYTES);
	past = &r->bodies[fit < r->nbodies ? fit : r->nbodies - 1];
	r->at = past->line;
	return phys_failat(phys_doc_file(r->d, r->at), phys_where_line(r->at),
	    "body '%s': %s is too little to convert %zu bodies (some %.0f kB "
	    "each; %zu fit): raise the limit, or read fewer", past->name,
	    phys_mem_left_text(said, sizeof said, left, limit), r->nbodies,
	    MJCF_BODY_BYTES / 1024, fit);
}

int
phys_mjcf_write_sdf(struct reader *r, long line)
{
	xmlNodePtr sdf, model, link, *links;
	const struct mj_body *b;
	size_t i;

	if (room_for_bodies(r) < 0)
		return -1;
	r->out = xmlNewDoc((const xmlChar *)"1.0");
	/* element and attribute names kept once, as the parser keeps an
	 * SDF file's: a model's thousands of nodes take no copy each */
	r->out->dict = xmlDictCreate();
	sdf = xmlNewDocNode(r->out, NULL, (const xmlChar *)"sdf", NULL);
	phys_node_set_line(sdf, line);
	xmlDocSetRootElement(r->out, sdf);
	xmlSetProp(sdf, (const xmlChar *)"version", (const xmlChar *)"1.9");
	write_world(r, sdf, line);
	model = add(sdf, "model", NULL, line);
	set_name(model, r->model);
	/* MuJoCo's bodies touch each other, as their geoms' bits allow */
	add(model, "self_collide", "true", line);
	scale_mass(r);
	if (phys_mjcf_from_qpos0(r) < 0)
		return -1;
	name_apart(r);
	if (r->fuse && fuse_inertials(r) < 0)
		return -1;
	links = phys_xcalloc(r->nbodies + 1, sizeof *links);
	for (i = 0; i < r->nbodies; i++) {
		b = &r->bodies[i];
		r->at = b->line;
		if (fused(r, (int)i))
			continue;
		link = links[i] = add(model, "link", NULL, b->line);
		set_name(link, b->name);
		add_pose(link, b->world, b->line);
		if (b->mocap)
			add(link, "kinematic", "true", b->line);
		if (b->gravcomp)	/* its weight borne at its centre */
			add(link, "gravity", "false", b->line);
		write_inertial(link, b);
		write_free_name(r, link, b);
		write_geoms(r, link, (int)i, b->geom0, b->ngeoms, false,
		    PHYS_POSE_IDENTITY);
		write_chain_links(r, model, b);
	}
	say_chains(r);
	/* a fused body's geoms in the link of the body it is part of */
	for (i = 0; i < r->nbodies; i++)
		if (fused(r, (int)i) && holder_of(r, (int)i) >= 0)
			write_geoms(r, links[holder_of(r, (int)i)], (int)i,
			    r->bodies[i].geom0, r->bodies[i].ngeoms, false,
			    frame_in_holder(r, (int)i));
	free(links);
	for (i = 0; i < r->nbodies; i++) {
		r->at = r->bodies[i].line;
		write_joints(r, model, &r->bodies[i]);
		if (holder_of(r, (int)i) >= 0)
			write_sites(r, model, (int)i, holder_link(r, (int)i),
			    frame_in_holder(r, (int)i));
	}
	for (i = 0; i < r->nequality; i++)
		if (phys_node_is(r->equality[i], "joint"))
			write_coupling(r, model, r->equality[i]);
		else if (phys_node_is(r->equality[i], "tendon"))
			write_tendon_coupling(r, model, r->equality[i]);
		else
			write_loop(r, model, r->equality[i], i);
	write_actuators(r, model);
	write_tendon_springs(r, model);
	if (write_tendon_limits(r, model) < 0)
		return -1;
	write_fluid(r, model, line);
	write_key_controls(r, sdf);
	write_keys(r, sdf, model);
	write_excludes(r, sdf, model);
	write_world_geoms(r, model, line);
	write_pairs(r, sdf);
	if (r->mimic || r->hulls)
		xmlSetProp(sdf, (const xmlChar *)"version",
		    (const xmlChar *)"1.11");
	return 0;
}

/* ---- actuators ---- */

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

static void
set_num_attr(xmlNodePtr e, const char *name, double v)
{
	char num[32];

	phys_fmt_double(num, sizeof num, v);
	xmlSetProp(e, (const xmlChar *)name, (const xmlChar *)num);
}

/*
 * An actuator of a fixed tendon as phys's system of one (phys(7)): the
 * tendon's joints, each with gear times its coefficient; its length at
 * phys's zero positions (which are MuJoCo's less ref); the force's gain
 * and bias; the control's and the force's ranges where they are in
 * force.
 */
/* Fixed tendon t's length at MuJoCo's ref of each joint, where phys's
 * joints are at 0: its MuJoCo length less its phys one. */
static double
ref_length(struct reader *r, const struct mj_tendon *t)
{
	double len = 0;
	size_t k;

	for (k = 0; k < t->njoints; k++)
		len += t->coef[k] * r->joints[joint_find(r, t->joint[k])].ref;
	return len;
}

/*
 * A plugin of phys's system kind in library lib (TendonActuator,
 * TendonSpring) on fixed tendon t times gear: its <tendon> name, each
 * <joint> with its coefficient, and <length_offset>, the length at
 * phys's zero positions (each joint at MuJoCo's ref).
 */
static xmlNodePtr
tendon_plugin(struct reader *r, xmlNodePtr model, const char *lib,
    const char *kind, const struct mj_tendon *t, double gear, long line)
{
	const struct mj_joint *j;
	xmlNodePtr p, e;
	char *v;
	size_t i;

	p = add(model, "plugin", NULL, line);
	xmlSetProp(p, (const xmlChar *)"filename", (const xmlChar *)lib);
	v = phys_xasprintf("phys::systems::%s", kind);
	xmlSetProp(p, (const xmlChar *)"name", (const xmlChar *)v);
	free(v);
	if (t->name)
		add(p, "tendon", t->name, line);
	for (i = 0; i < t->njoints; i++) {
		j = &r->joints[joint_find(r, t->joint[i])];
		e = add(p, "joint", j->sdf, line);
		set_num_attr(e, "coef", gear * t->coef[i]);
	}
	add_num(p, "length_offset", gear * ref_length(r, t), line);
	return p;
}

/*
 * The spring tendons as phys's TendonSpring: stiffness and damping, at
 * rest at springlength, or where MuJoCo puts it when that is negative:
 * the length with each joint at its springref.
 */
static void
write_tendon_springs(struct reader *r, xmlNodePtr model)
{
	const struct mj_tendon *t;
	double rest;
	xmlNodePtr p;
	size_t i, k;

	for (i = 0; i < r->ntendons; i++) {
		t = &r->tendons[i];
		if (!sprung(r, t))
			continue;
		p = tendon_plugin(r, model, "phys-tendon-spring-system",
		    "TendonSpring", t, 1, t->line);
		add_num(p, "stiffness", t->stiffness, t->line);
		add_num(p, "damping", t->damping, t->line);
		rest = t->springlength;
		if (rest < 0)
			for (rest = 0, k = 0; k < t->njoints; k++)
				rest += t->coef[k] * r->joints[joint_find(r,
				    t->joint[k])].springref;
		add_num(p, "spring_length", rest, t->line);
	}
}

/* Site name's link (as joints name it) and place in it: -1 when the
 * model has no such site. */
static int
site_end(struct reader *r, const char *name, const char **link,
    phys_vec3 *at)
{
	int k = name ? phys_name_table_find(&r->site_names, name) : -1;
	const struct mj_site *st;

	if (k < 0)
		return -1;
	st = &r->sites[k];
	*link = holder_link(r, st->body);
	*at = st->body < 0 ? st->pose.p : phys_pose_mul(frame_in_holder(r,
	    st->body), st->pose).p;
	return 0;
}

/*
 * The limited tendons as <phys:tendon>s (struct phys_tendon): a fixed
 * one's joints and coefficients, a spatial one's two ends, its range in
 * phys's measure (a fixed one's less its length at MuJoCo's ref, where
 * phys's joints are at zero), and MuJoCo's softness of its limit.
 */
static int
write_tendon_limits(struct reader *r, xmlNodePtr model)
{
	const struct mj_tendon *t;
	const struct mj_joint *j;
	xmlNodePtr e, c;
	const char *link;
	double range[2];
	char *name;
	phys_vec3 at;
	size_t i, k;

	for (i = 0; i < r->ntendons; i++) {
		t = &r->tendons[i];
		if (!t->limited)
			continue;
		e = add(model, "tendon", NULL, t->line);
		xmlSetNs(e, phys_ns(xmlDocGetRootElement(model->doc)));
		name = t->name ? phys_xstrdup(t->name) :
		    phys_xasprintf("tendon%zu", i);
		xmlSetProp(e, (const xmlChar *)"name", (const xmlChar *)name);
		free(name);
		if (!t->name)
			mark_unnamed(e, t->line);
		range[0] = t->range[0] - ref_length(r, t);
		range[1] = t->range[1] - ref_length(r, t);
		for (k = 0; k < t->njoints; k++) {
			j = &r->joints[joint_find(r, t->joint[k])];
			c = add(e, "joint", NULL, t->line);
			xmlSetProp(c, (const xmlChar *)"joint",
			    (const xmlChar *)j->sdf);
			set_num_attr(c, "coef", t->coef[k]);
		}
		for (k = 0; !t->fixed && k < 2; k++) {
			if (site_end(r, t->site[k], &link, &at) < 0)
				return phys_failat(phys_doc_file(r->d, t->line),
				    phys_where_line(t->line), "tendon '%s': no "
				    "site '%s'", t->name ? t->name : "",
				    t->site[k]);
			c = add_nums(e, "end", (double[]){ at.x, at.y, at.z },
			    3, t->line);
			xmlSetProp(c, (const xmlChar *)"link",
			    (const xmlChar *)link);
		}
		add_nums(e, "range", range, 2, t->line);
		add_nums(e, "solref", t->solref, 2, t->line);
		add_nums(e, "solimp", t->solimp, 5, t->line);
		add_num(e, "margin", t->margin, t->line);
	}
	return 0;
}

/* An actuator's force in plugin p: its gain and bias, the ranges in
 * force, and its dynamics (TendonActuator's and SiteActuator's). */
static void
write_force_law(xmlNodePtr p, const struct mj_act *a)
{
	add_num(p, "gain", a->gain, a->line);
	add_nums(p, "bias", a->bias, 3, a->line);
	if (isfinite(a->ctrl[0]))
		add_nums(p, "ctrl_range", a->ctrl, 2, a->line);
	if (isfinite(a->force[0]))
		add_nums(p, "force_range", a->force, 2, a->line);
	if (a->dyn != MJ_DYN_NONE)
		add(p, "dynamics", a->dyn == MJ_DYN_FILTER ? "filter" :
		    a->dyn == MJ_DYN_FILTEREXACT ? "filterexact" :
		    "integrator", a->line);
	if (a->dyn == MJ_DYN_FILTER || a->dyn == MJ_DYN_FILTEREXACT)
		add_num(p, "time_constant", a->tau, a->line);
	if (a->dyn != MJ_DYN_NONE && isfinite(a->act[0]))
		add_nums(p, "act_range", a->act, 2, a->line);
}

static void
write_tendon_actuator(struct reader *r, xmlNodePtr model, struct mj_act *a)
{
	xmlNodePtr p;

	p = a->plugin = tendon_plugin(r, model, "phys-tendon-actuator-system",
	    "TendonActuator", &r->tendons[a->tendon], a->gear, a->line);
	write_force_law(p, a);
}

/*
 * An actuator of a site as phys's SiteActuator: the link its body is part
 * of, the site's <pose> in that link, its <gear> in the site's frame
 * (force, torque), the force's gain and bias, the ranges in force and the
 * dynamics. A site of a body welded to the world pushes nothing, in
 * MuJoCo as here: it is left out.
 */
static void
write_site_actuator(struct reader *r, xmlNodePtr model, struct mj_act *a)
{
	const struct mj_site *st = &r->sites[a->site];
	xmlNodePtr p;

	if (holder_of(r, st->body) < 0)
		return;
	p = a->plugin = add(model, "plugin", NULL, a->line);
	xmlSetProp(p, (const xmlChar *)"filename",
	    (const xmlChar *)"phys-site-actuator-system");
	xmlSetProp(p, (const xmlChar *)"name",
	    (const xmlChar *)"phys::systems::SiteActuator");
	add(p, "link_name", holder_link(r, st->body), a->line);
	add(p, "site", st->sdf, a->line);
	add_pose(p, phys_pose_mul(frame_in_holder(r, st->body), st->pose),
	    a->line);
	add_nums(p, "gear", a->sgear, 6, a->line);
	write_force_law(p, a);
}

/* <option>'s medium as phys's FluidForces system, where the model moves
 * through one. */
static void
write_fluid(struct reader *r, xmlNodePtr model, long line)
{
	xmlNodePtr p;

	if (!fluid_on(r))
		return;
	if (r->option_line)
		line = r->option_line;
	p = add(model, "plugin", NULL, line);
	xmlSetProp(p, (const xmlChar *)"filename",
	    (const xmlChar *)"phys-fluid-forces-system");
	xmlSetProp(p, (const xmlChar *)"name",
	    (const xmlChar *)"phys::systems::FluidForces");
	add_num(p, "density", r->density, line);
	add_num(p, "viscosity", r->viscosity, line);
	if (r->wind[0] != 0 || r->wind[1] != 0 || r->wind[2] != 0)
		add_nums(p, "wind", r->wind, 3, line);
}

/* Whether servo a is one its joint's armature steadies under MuJoCo's
 * Euler integrator (see write_actuators). */
static bool
armature_servo(const struct reader *r, const struct mj_act *a)
{
	return (a->kind == ACT_POSITION || a->kind == ACT_VELOCITY) &&
	    a->joint >= 0 && r->joints[a->joint].armature > 0 &&
	    strcmp(integrators[r->integrator], "implicit") != 0;
}

/* The servos armature steadies, taken into the step, said once at the
 * first. */
static void
note_armature_servos(const struct reader *r)
{
	const struct mj_act *first = NULL;
	size_t i;
	int n = 0;

	for (i = 0; i < r->nacts; i++)
		if (armature_servo(r, &r->acts[i]) && !n++)
			first = &r->acts[i];
	if (!n || r->o->quiet)
		return;
	phys_warnat(phys_doc_file(r->d, first->line),
	    phys_where_line(first->line), "%d servo%s of joints with "
	    "armature, which steadies a stiff servo under MuJoCo's Euler "
	    "integrator: ODE, Bullet and DART, which have no armature, take "
	    "%s into the step in its place (implicit_servo)", n, n == 1 ?
	    "" : "s", n == 1 ? "it" : "them");
}

/*
 * The actuators as gz-sim's joint systems: a position servo as a
 * JointPositionController of gain kp held at qpos 0, a velocity servo as a
 * JointController of gain kv on the speed held at 0, a motor as
 * ApplyJointForce (its messages are the force: gear is not applied); an
 * actuator of a tendon as phys's system. Under the implicit integrator a
 * servo is <phys:implicit_servo>: MuJoCo takes its damping into the step,
 * and so do ODE, Bullet and DART then. So is a servo of a joint with
 * armature: the rotor's inertia steadies a stiff servo under MuJoCo's
 * Euler integrator, and ODE, Bullet and DART, which have none, take the
 * servo into the step in its place (said once, note_armature_servos).
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
	const struct mj_body *b;
	xmlNodePtr p;
	size_t i;
	double ref;
	char *jn;
	int bi;

	for (i = 0; i < r->nacts; i++) {
		a = &r->acts[i];
		if (a->kind == ACT_TENDON) {
			write_tendon_actuator(r, model, &r->acts[i]);
			continue;
		}
		if (a->kind == ACT_SITE) {
			write_site_actuator(r, model, &r->acts[i]);
			continue;
		}
		if ((bi = joint_body(r, a->joint)) < 0)
			continue;	/* every joint is a body's */
		b = &r->bodies[bi];
		p = r->acts[i].plugin = add(model, "plugin", NULL, a->line);
		xmlSetProp(p, (const xmlChar *)"filename",
		    (const xmlChar *)files[a->kind]);
		xmlSetProp(p, (const xmlChar *)"name",
		    (const xmlChar *)names[a->kind]);
		jn = joint_name(r, b, a->joint - b->joint0);
		add(p, "joint_name", jn, a->line);
		ref = a->kind == ACT_POSITION ? r->joints[a->joint].ref : 0;
		if (a->kind == ACT_MOTOR) {
			if (phys_has_upper(a->fmax))
				effort_limit(model, jn, a->fmax, a->line);
			free(jn);
			continue;
		}
		if (a->kind == ACT_VELOCITY)
			add(p, "use_force_commands", "true", a->line);
		add_num(p, "p_gain", a->gain, a->line);
		add_num(p, "i_gain", a->ki, a->line);
		add_num(p, "d_gain", a->kd, a->line);
		/* the integral term within imax (a pid actuator's) */
		add_num(p, "i_max", a->imax, a->line);
		add_num(p, "i_min", -a->imax, a->line);
		free(jn);
		add_num(p, "cmd_max", a->fmax, a->line);
		add_num(p, "cmd_min", a->pid ? a->fmin : -a->fmax, a->line);
		if (a->pid && a->slew >= 0)
			xmlSetNs(add_nums(p, "slew_max", &a->slew, 1, a->line),
			    phys_ns(xmlDocGetRootElement(p->doc)));
		if (a->kind == ACT_POSITION)
			add_num(p, "initial_position", -r->joints[a->joint].ref,
			    a->line);
		if (isfinite(a->ctrl[0]))	/* phys's measure */
			xmlSetNs(add_nums(p, "ctrl_range", (double[2]){
			    a->ctrl[0] - ref, a->ctrl[1] - ref }, 2, a->line),
			    phys_ns(xmlDocGetRootElement(p->doc)));
		if (strcmp(integrators[r->integrator], "implicit") == 0 ||
		    armature_servo(r, a))
			phys_node_set_line(xmlNewChild(p,
			    phys_ns(xmlDocGetRootElement(p->doc)),
			    (const xmlChar *)"implicit_servo",
			    (const xmlChar *)"true"), a->line);
	}
	note_armature_servos(r);
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
			v = a->kind == ACT_TENDON || a->kind == ACT_SITE ? v :
			    a->kind == ACT_MOTOR ? a->gear * v :
			    a->kind == ACT_POSITION ?
			    v - r->joints[a->joint].ref : v;
			phys_fmt_double(num, sizeof num, v);
			e = xmlNewTextChild(a->plugin, phys_ns(sdf),
			    (const xmlChar *)"key", (const xmlChar *)num);
			phys_node_set_line(e, k->line);
			xmlSetProp(e, (const xmlChar *)"name",
			    (const xmlChar *)k->name);
		}
	}
}

/* ---- keyframes ---- */

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

	phys_node_set_line(k, line);
	set_name(k, key);
	phys_pose_to6(f->pose, v);
	add_nums(k, "pose", v, 6, line);
	v[0] = f->lin.x, v[1] = f->lin.y, v[2] = f->lin.z;
	add_nums(k, "linear_vel", v, 3, line);
	v[0] = f->ang.x, v[1] = f->ang.y, v[2] = f->ang.z;
	add_nums(k, "angular_vel", v, 3, line);
}

/* The links written for the bodies, in phys_mjcf_write_sdf's order:
 * each body's, then those between its joints: body[i] and chain[joint]
 * (the link that joint moves, but for a body's last). */
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

/* Mocap body m's pose in key (of nmocap): its mpos and mquat. */
static phys_pose
key_mocap(const struct mj_key *key, size_t m, size_t nmocap)
{
	const double *p = key->mocap + 3 * m, *q = key->mocap + 3 * nmocap +
	    4 * m;

	return (phys_pose){ v3(p[0], p[1], p[2]), phys_quat_normalize(
	    (phys_quat){ q[0], q[1], q[2], q[3] }) };
}

/*
 * Each hinge's and slide's position in the key, phys's measure (qpos less
 * ref), as <phys:key name> of its SDF joint: the links' poses say a
 * hinge's angle but not its whole turns, which the run then takes from
 * here (an arm's wrist keyed at 0.96 rad, -5.32 from the poses alone).
 */
static void
write_key_positions(struct reader *r, xmlNsPtr ns, xmlNodePtr *jointel,
    const struct mj_key *key)
{
	const double *q = key->qpos;
	const struct mj_joint *j;
	char num[32];
	xmlNodePtr e;
	size_t i;

	for (i = 0; i < r->njoints; q += nq_of[r->joints[i].type], i++) {
		j = &r->joints[i];
		if ((j->type != MJ_HINGE && j->type != MJ_SLIDE) || !jointel[i])
			continue;
		phys_fmt_double(num, sizeof num, q[0] - j->ref);
		e = xmlNewTextChild(jointel[i], ns, (const xmlChar *)"key",
		    (const xmlChar *)num);
		phys_node_set_line(e, key->line);
		xmlSetProp(e, (const xmlChar *)"name",
		    (const xmlChar *)key->name);
	}
}

/* Each keyframe as every body's (and chain link's) pose and velocity; a
 * mocap body where the key's mpos and mquat put it. */
static void
write_key(struct reader *r, xmlNsPtr ns, xmlNodePtr *body, xmlNodePtr *chain,
    const struct mj_key *key)
{
	struct key_frame *f = phys_xcalloc(r->nbodies, sizeof *f), *at, in;
	const double *q = key->qpos, *v = key->qvel;
	const struct mj_body *b;
	size_t i, k, m = 0, nmocap = 0;

	for (i = 0; i < r->nbodies; i++)
		nmocap += r->bodies[i].mocap;
	for (i = 0; i < r->nbodies; i++) {
		b = &r->bodies[i];
		memset(&in, 0, sizeof in);
		in.pose = b->mocap ? key_mocap(key, m++, nmocap) : b->world;
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

static int
by_node_name(const void *a, const void *b)
{
	const xmlNodePtr *x = a, *y = b;
	xmlChar *p = xmlGetProp(*x, (const xmlChar *)"name"),
	    *q = xmlGetProp(*y, (const xmlChar *)"name");
	int c = strcmp(p ? (const char *)p : "", q ? (const char *)q : "");

	xmlFree(p);
	xmlFree(q);
	return c;
}

static int
name_of_node(const void *key, const void *el)
{
	const xmlNodePtr *n = el;
	xmlChar *v = xmlGetProp(*n, (const xmlChar *)"name");
	int c = strcmp(key, v ? (const char *)v : "");

	xmlFree(v);
	return c;
}

/* Each MJCF joint's SDF <joint> (none for a free one): the model's
 * joints sorted by name once, each looked up. */
static xmlNodePtr *
joints_written(const struct reader *r, xmlNodePtr model)
{
	xmlNodePtr *out = phys_xcalloc(r->njoints + 1, sizeof *out), *all = NULL,
	    n, *hit;
	size_t i, nall = 0;

	for (n = phys_child(model, "joint"); n; n = phys_next(n, "joint")) {
		all = phys_xrealloc(all, (nall + 1) * sizeof *all);
		all[nall++] = n;
	}
	if (nall > 1)
		qsort(all, nall, sizeof *all, by_node_name);
	for (i = 0; i < r->njoints && nall; i++)
		if (r->joints[i].sdf && (hit = bsearch(r->joints[i].sdf, all,
		    nall, sizeof *all, name_of_node)))
			out[i] = *hit;
	free(all);
	return out;
}

static void
write_keys(struct reader *r, xmlNodePtr sdf, xmlNodePtr model)
{
	xmlNodePtr *body, *chain, *jointel;
	xmlNsPtr ns;
	size_t i;

	if (!r->nkeys)
		return;
	ns = phys_ns(sdf);
	body = phys_xcalloc(r->nbodies + 1, sizeof *body);
	chain = phys_xcalloc(r->njoints + 1, sizeof *chain);
	links_written(r, model, body, chain);
	jointel = joints_written(r, model);
	for (i = 0; i < r->nkeys; i++) {
		write_key(r, ns, body, chain, &r->keys[i]);
		write_key_positions(r, ns, jointel, &r->keys[i]);
	}
	free(body);
	free(chain);
	free(jointel);
}

/* ---- contacts ---- */

/* The body whose link holds geom gi, -1 for the world's (its own, and
 * the ground). */
int
phys_mjcf_geom_holder(const struct reader *r, int gi)
{
	int b = r->geoms[gi].body;

	return b < 0 || ground(r, b, (size_t)gi) ? -1 : holder_of(r, b);
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

/*
 * A free body's named free joint, which SDF has no joint for (a link no
 * joint holds moves free), as <phys:free name> in its link: MJCF out
 * names the <freejoint> by it again.
 */
static void
write_free_name(struct reader *r, xmlNodePtr link, const struct mj_body *b)
{
	const struct mj_joint *j;
	xmlNodePtr e;

	if (b->njoints != 1)
		return;
	j = &r->joints[b->joint0];
	if (j->type != MJ_FREE || !j->name || !*j->name)
		return;
	e = xmlNewChild(link, phys_ns(xmlDocGetRootElement(link->doc)),
	    (const xmlChar *)"free", NULL);
	phys_node_set_line(e, j->line);
	xmlSetProp(e, (const xmlChar *)"name", (const xmlChar *)j->name);
}

/* <phys:exclude link=other> in link. */
static void
write_exclude(xmlNodePtr sdf, xmlNodePtr link, const char *other, long line)
{
	xmlNodePtr e = xmlNewChild(link, phys_ns(sdf),
	    (const xmlChar *)"exclude", NULL);

	phys_node_set_line(e, line);
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

	phys_node_set_line(e, r->bodies[i].line);
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
	bool world = world_has_geoms(r);
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
		/* a pair's surface is the pair's: no priority, no mix */
		struct mj_contact k = { p->condim, 0, 1, p->margin, p->gap,
			p->friction[0],
			p->friction[1], p->friction[2], p->friction[3],
			p->solref, p->solimp, NULL, p->line };
		int host = phys_mjcf_geom_holder(r, p->g1) >= 0 ? p->g1 : p->g2;
		int other = host == p->g1 ? p->g2 : p->g1;
		int ob = phys_mjcf_geom_holder(r, other);

		if (!r->geoms[host].node)
			continue;	/* not written, and said so */
		e = xmlNewChild(r->geoms[host].node, phys_ns(sdf),
		    (const xmlChar *)"pair", NULL);
		phys_node_set_line(e, p->line);
		xmlSetProp(e, (const xmlChar *)"link", (const xmlChar *)(ob < 0 ?
		    "worldbody::worldbody" : r->bodies[ob].name));
		xmlSetProp(e, (const xmlChar *)"collision",
		    (const xmlChar *)r->geoms[other].name);
		write_surface_of(e, &k);
	}
}
