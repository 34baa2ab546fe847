/*
 * mjcfwrite.c - a loaded world as MJCF. Each link is a body named as the
 * link (scoped), nested in the body of the link its joint hangs it from;
 * a moving link no joint holds gets a free joint, a kinematic one is a
 * mocap body, a static model's links are bodies without joints (welded
 * to the world). Poses are the loaded ones, so MuJoCo's qpos0 is the
 * loaded configuration. Masses go in principal axes (quat and
 * diaginertia, from phys's own decomposition), so that the inertia MuJoCo
 * holds is the file's exactly, whatever its compiler would do with a
 * full tensor. The link pairs kept apart are <exclude>s where MuJoCo's
 * own filter would not keep them apart in the tree written.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "buf.h"
#include "excludes.h"
#include "geom.h"
#include "inertia.h"
#include "inertia_follow.h"
#include "inertia_world.h"
#include "mem.h"
#include "msg.h"
#include "names.h"
#include "pairkey.h"
#include "heightmap.h"
#include "mjcf.h"
#include "mjcfkey_write.h"
#include "mjcftree.h"
#include "mjcfwrite.h"
#include "sdf.h"
#include "sdfedit.h"
#include "touch.h"
#include "world.h"

struct writer {
	const struct phys_scene *w;
	struct phys_buf *b;
	struct phys_mjcf_tree t;	/* the bodies and their joints */
	const char *out;	/* the file written; NULL: standard output */
	const struct phys_mjcf_actuator *acts;
	size_t nacts;
	/* "M::" when the world holds one top-level model M (a model file, a
	 * URDF, an MJCF model, a world of one robot): names are written
	 * without it, as the robot's own; "" when models share the world. */
	char *scope;
	/* Whether a collision is written by its own name alone, none of the
	 * others in the world having it (MJCF's geom names are the
	 * model's, SDF's a link's), or as its link's. */
	bool *own_geom;
	/* link li's visuals: vis_order[vis_first[li] .. vis_first[li + 1]);
	 * whether visual i's mesh is written (v<i>) */
	size_t *vis_first, *vis_order;
	bool *vis_mesh;
};

/* ---- numbers and names ---- */

static void
put_num(struct phys_buf *b, double x)
{
	char s[40];

	phys_fmt_double(s, sizeof s, x);
	phys_buf_puts(b, s);
}

void
phys_mjcf_nums(struct phys_buf *b, const char *name, const double *x, int n)
{
	int i;

	phys_buf_printf(b, " %s=\"", name);
	for (i = 0; i < n; i++) {
		if (i)
			phys_buf_putc(b, ' ');
		put_num(b, x[i]);
	}
	phys_buf_putc(b, '"');
}

static void
put_vec(struct phys_buf *b, const char *name, phys_vec3 v)
{
	double x[3] = { v.x, v.y, v.z };

	phys_mjcf_nums(b, name, x, 3);
}

/* pos and quat, each left out when it is MuJoCo's default. */
static void
put_pose(struct phys_buf *b, phys_pose p)
{
	double q[4] = { p.q.w, p.q.x, p.q.y, p.q.z };

	if (p.p.x != 0 || p.p.y != 0 || p.p.z != 0)
		put_vec(b, "pos", p.p);
	if (q[0] != 1 || q[1] != 0 || q[2] != 0 || q[3] != 0)
		phys_mjcf_nums(b, "quat", q, 4);
}

/* The name an entity of scoped name is written by (writer's scope). */
static const char *
own_name(const struct writer *wr, const char *scoped)
{
	size_t n = strlen(wr->scope);

	return strncmp(scoped, wr->scope, n) == 0 ? scoped + n : scoped;
}

static void
put_name(const struct writer *wr, const char *scoped)
{
	phys_buf_puts(wr->b, " name=\"");
	phys_buf_xml_attr(wr->b, own_name(wr, scoped));
	phys_buf_putc(wr->b, '"');
}

/* The last part of a scoped name: "c" of "m::link::c". */
static const char *
last_part(const char *scoped)
{
	const char *s = phys_last_scope(scoped);

	return s ? s + 2 : scoped;
}

struct named {
	const char *name;
	size_t i;
};

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
	    ((const struct named *)b)->name);
}

/* Whether element e (a collision, a visual) has phys's mark tag. */
static bool
marked(xmlNodePtr e, const char *tag)
{
	xmlNodePtr n;

	for (n = e ? phys_child(e, NULL) : NULL; n; n = phys_next(n, NULL))
		if (phys_mjcf_own(n, tag))
			return true;
	return false;
}

/* Whether element e (a collision, a visual) is an unnamed MJCF geom's. */
static bool
unnamed_node(xmlNodePtr e)
{
	return marked(e, "unnamed");
}

/* Whether visual vi is a collision's twin, drawn by the geom it is
 * written as (<phys:twin/>: an MJCF geom that collides, printed). */
static bool
twin(const struct phys_scene *w, size_t vi)
{
	return marked(w->visuals[vi].node, "twin");
}

/* Which collisions, then visuals, no other shares the last part of its
 * name with. */
static bool *
own_geom_names(const struct phys_scene *w)
{
	size_t i, k, all = w->ncollisions + w->nvisuals, n = 0;
	bool *own = phys_xcalloc(all + 1, sizeof *own);
	struct named *v = phys_xcalloc(all + 1, sizeof *v);

	/* a twin is not written: its collision's name is its own */
	for (i = 0; i < all; i++)
		if (i < w->ncollisions || !twin(w, i - w->ncollisions))
			v[n++] = (struct named){ last_part(i <
			    w->ncollisions ? w->collisions[i].name :
			    w->visuals[i - w->ncollisions].name), i };
	qsort(v, n, sizeof *v, by_name);
	for (i = 0; i < n; i = k) {
		for (k = i + 1; k < n && strcmp(v[i].name, v[k].name) == 0;
		    k++)
			;
		own[v[i].i] = k == i + 1;
	}
	free(v);
	return own;
}

/* The name collision c is written by (writer's own_geom). */
static const char *
geom_name(const struct writer *wr, const struct phys_collision *c)
{
	return wr->own_geom[c - wr->w->collisions] ? last_part(c->name) :
	    own_name(wr, c->name);
}


/* The group of element e (a collision, a visual) an MJCF geom had
 * (<phys:group>), else dflt. */
static long
node_group(xmlNodePtr e, long dflt)
{
	xmlNodePtr n;
	char *t;
	long g = dflt;

	for (n = e ? phys_child(e, NULL) : NULL; n; n = phys_next(n, NULL))
		if (phys_mjcf_own(n, "group")) {
			t = phys_node_text(n);
			if (!t || !phys_parse_long(t, &g) || g < INT_MIN ||
			    g > INT_MAX)
				g = dflt;
			free(t);
			break;
		}
	return g;
}

/* Whether collision c is an unnamed MJCF geom's, named in SDF alone
 * (<phys:unnamed/>), that no pair names: it is written unnamed. */
static bool
unnamed(const struct writer *wr, const struct phys_collision *c)
{
	size_t i = (size_t)(c - wr->w->collisions), k;

	for (k = 0; k < wr->w->npairs; k++)
		if (wr->w->pairs[k].c1 == (int)i || wr->w->pairs[k].c2 == (int)i)
			return false;
	return unnamed_node(c->node);
}

/* A free link's <freejoint>, named as an MJCF model's was (<phys:free
 * name> in the link). */
static void
put_freejoint(const struct writer *wr, const struct phys_link *l)
{
	xmlNodePtr n;
	char *name;

	for (n = l->node ? phys_child(l->node, NULL) : NULL; n;
	    n = phys_next(n, NULL))
		if (phys_mjcf_own(n, "free"))
			break;
	name = n ? phys_node_attr(n, "name") : NULL;
	phys_buf_puts(wr->b, "<freejoint");
	if (name) {
		phys_buf_puts(wr->b, " name=\"");
		phys_buf_xml_attr(wr->b, name);
		phys_buf_putc(wr->b, '"');
	}
	phys_buf_puts(wr->b, "/>\n");
	free(name);
}

/* The scope of the world's one top-level model, or "". */
static char *
one_model_scope(const struct phys_scene *w)
{
	const struct phys_model *top = NULL;
	size_t i;

	for (i = 0; i < w->nmodels; i++) {
		if (w->models[i].parent >= 0)
			continue;
		if (top)
			return phys_xstrdup("");
		top = &w->models[i];
	}
	return top ? phys_xasprintf("%s::", top->name) : phys_xstrdup("");
}

static void
indent(struct phys_buf *b, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		phys_buf_puts(b, "  ");
}

static int
refuse_joint(const struct phys_joint *j, const char *why)
{
	return phys_failat(PHYS_AT(j->doc, j->node),
	    "joint '%s': %s", j->name, why);
}

/* ---- the tree ---- */

bool
phys_mjcf_tree_joint(const struct phys_joint *j)
{
	return j->type != PHYS_JOINT_GEARBOX && j->parent != j->child;
}

bool
phys_mjcf_ties(const struct phys_joint *j, const struct phys_value *v)
{
	return j->type == PHYS_JOINT_FIXED || (j->type == PHYS_JOINT_BALL &&
	    phys_ball_values_set(v) == 0);
}

bool
phys_mjcf_tie_only(const struct phys_joint *j, const struct phys_value *v)
{
	return j->touch && phys_mjcf_ties(j, v);
}

/*
 * Each link hangs from its joint's parent: MJCF's tree is the joints'
 * own, so a link held by two joints (a loop) or a chain of links that
 * comes back to itself has no MJCF of this writer's.
 */
static int
plan_tree(struct writer *wr)
{
	const struct phys_scene *w = wr->w;
	size_t i, n;
	int li, gear[2];
	double coef[2];

	for (i = 0; i < w->nlinks; i++)
		wr->t.holder[i] = wr->t.up[i] = -1;
	for (i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		if (j->type == PHYS_JOINT_GEARBOX && phys_gearbox_gears(w, j,
		    gear, coef) < 0)
			return refuse_joint(j, "MJCF has no gearbox: it is an "
			    "equality coupling the revolute joints that turn "
			    "its links about its reference body, and one of "
			    "them has none");
		if (!phys_mjcf_tree_joint(j))
			continue;
		if (wr->t.holder[j->child] >= 0 ||
		    phys_mjcf_tie_only(j, j->vals)) {
			if (phys_mjcf_ties(j, j->vals))
				wr->t.tie[i] = true;
			else	/* a ghost welded to the child */
				wr->t.loop[i] = true;
			continue;
		}
		wr->t.holder[j->child] = (int)i;
		wr->t.up[j->child] = j->parent;
	}
	for (i = 0; i < w->nlinks; i++)
		for (li = (int)i, n = 0; li >= 0; li = wr->t.up[li])
			if (++n > w->nlinks)
				return refuse_joint(&w->joints[wr->t.holder[i]],
				    "its links hang from each other in a "
				    "circle: MJCF's bodies form a tree");
	for (i = 0; i < w->nlinks; i++)
		wr->t.free[i] = wr->t.holder[i] < 0 &&
		    !w->models[w->links[i].model].is_static &&
		    !PVB(w->links[i].vals, LINK_kinematic);
	return 0;
}

static bool
is_mocap(const struct writer *wr, int li)
{
	return phys_mjcf_is_mocap(wr->w, &wr->t, li);
}

/* ---- bodies ---- */

static bool own_weld(const struct writer *wr, int li);

/*
 * A moving body's mass and moments as phys runs them, which MuJoCo wants
 * positive: a massless link's stand-in mass (phys_link_stand_in_mass),
 * said, each moment at least mass * PHYS_MIN_GYRATION^2.
 */
static void
moving_mass(const struct writer *wr, int li, double *mass, double mo[3])
{
	const struct phys_link *l = &wr->w->links[li];
	double floor;
	int k;

	if (!(*mass > 0)) {
		*mass = phys_link_stand_in_mass(wr->w, li);
		phys_warnat(PHYS_AT(l->doc, l->node), "link '%s': mass 0, "
		    "which MuJoCo refuses on a moving body: written with the "
		    "mass phys runs it with, %g kg (1/1000 of its model's "
		    "lightest link's)", l->name, *mass);
	}
	floor = *mass * PHYS_MIN_GYRATION * PHYS_MIN_GYRATION;
	for (k = 0; k < 3; k++)
		mo[k] = fmax(mo[k], floor);
}

/* The link's mass in principal axes, in the link frame. */
static int
put_inertial(struct writer *wr, int li, int depth)
{
	const struct phys_link *l = &wr->w->links[li];
	phys_inertia in;
	phys_mat3 R;
	double mo[3];
	phys_pose at;
	double p6[6];

	phys_link_inertia(l, &in);
	if (phys_inertia_principal(phys_inertia_link_tensor(&in), mo, &R) < 0)
		return phys_failat(PHYS_AT(l->doc, l->node),
		    "link '%s': its inertia has no principal axes: %s",
		    l->name, phys_error());
	if (own_weld(wr, li) && !is_mocap(wr, li))
		moving_mass(wr, li, &in.mass, mo);
	memcpy(p6, in.pose, sizeof p6);
	at = phys_pose_from6(p6);
	at.q = phys_mat3_to_quat(R);
	indent(wr->b, depth);
	phys_buf_puts(wr->b, "<inertial");
	put_vec(wr->b, "pos", at.p);
	if (at.q.w != 1)
		phys_mjcf_nums(wr->b, "quat", (double[4]){ at.q.w, at.q.x, at.q.y,
		    at.q.z }, 4);
	phys_buf_puts(wr->b, " mass=\"");
	put_num(wr->b, in.mass);
	phys_buf_putc(wr->b, '"');
	phys_mjcf_nums(wr->b, "diaginertia", mo, 3);
	phys_buf_puts(wr->b, "/>\n");
	return 0;
}

/* The limits' MuJoCo block, where the file gives it: solreflimit,
 * solimplimit, margin. */
static void
put_limit_softness(struct phys_buf *b, const struct phys_value *v)
{
	struct phys_mjcf_softness s;

	phys_mjcf_softness(v, PHYS_MJCF_LIMIT, &s);
	if (s.ref_given)
		phys_mjcf_nums(b, "solreflimit", s.solref, 2);
	if (s.imp_given)
		phys_mjcf_nums(b, "solimplimit", s.solimp, 5);
	if (PVD(v, JOINT_physics_mujoco_limit_margin) != 0)
		phys_mjcf_nums(b, "margin",
		    &PVD(v, JOINT_physics_mujoco_limit_margin), 1);
}

/*
 * A joint's range. One of no width (SDF's way of holding a joint still,
 * as a robot's tracks have it; phys's MuJoCo engine holds it so) is
 * 1e-9 wide: MuJoCo's compiler refuses a range whose ends are equal.
 */
static void
put_range(struct phys_buf *b, double lo, double hi)
{
	if (hi == lo)
		hi = lo + 1e-9 * fmax(1, fabs(lo));
	phys_mjcf_nums(b, "range", (double[2]){ lo, hi }, 2);
}

/* Axis k's values, measured from MuJoCo's ref where an MJCF joint had
 * one (phys measures from the built pose). */
static void
put_axis_values(struct phys_buf *b, const struct phys_joint *j, int k)
{
	struct phys_axis_values a = phys_joint_axis_values(j->vals, k);
	bool limited = phys_axis_limited(&a);
	double ref = phys_mjcf_joint_ref(j, k), springref = a.reference + ref;
	double armature = PVD(j->vals, JOINT_physics_mujoco_armature);

	if (ref != 0)
		phys_mjcf_nums(b, "ref", &ref, 1);
	/* a ball's range is its largest turn; a one-sided limit keeps SDF's
	 * huge number for the open side */
	if (j->type == PHYS_JOINT_BALL)
		limited = phys_has_upper(a.upper);
	if (limited && j->type == PHYS_JOINT_BALL)
		put_range(b, 0, a.upper);
	else if (limited)
		put_range(b, phys_has_lower(a.lower) ? a.lower + ref : a.lower,
		    phys_has_upper(a.upper) ? a.upper + ref : a.upper);
	phys_buf_printf(b, " limited=\"%s\"", limited ? "true" : "false");
	if (a.damping != 0)
		phys_mjcf_nums(b, "damping", &a.damping, 1);
	if (a.friction != 0)
		phys_mjcf_nums(b, "frictionloss", &a.friction, 1);
	if (a.stiffness != 0)
		phys_mjcf_nums(b, "stiffness", &a.stiffness, 1);
	/* a ball's spring pulls to qpos0, the loaded pose */
	if (a.stiffness != 0 && j->type != PHYS_JOINT_BALL)
		phys_mjcf_nums(b, "springref", &springref, 1);
	/* each hinge of a universal joint its own, each turn of a ball */
	if (armature != 0)
		phys_mjcf_nums(b, "armature", &armature, 1);
	if (limited)
		put_limit_softness(b, j->vals);
}

/*
 * The MuJoCo joints of phys joint ji in its child's body. A universal or
 * revolute2 joint is two hinges: the second axis's, fixed in the parent,
 * first, and the first axis's riding on it, fixed in the child; the
 * second is named NAME_axis2. A screw is a hinge and a slide along the
 * same axis, NAME_travel, which an equality couples (put_equalities).
 */
static void
put_joints(struct writer *wr, int ji, int depth)
{
	const struct phys_joint *j = &wr->w->joints[ji];
	phys_vec3 pos = phys_mjcf_joint_pos(wr->w, ji);
	const char *kind = "hinge";
	int k, n = 1, order[2] = { 0, 1 };

	switch (j->type) {
	case PHYS_JOINT_FIXED:
		return;
	case PHYS_JOINT_PRISMATIC:
		kind = "slide";
		break;
	case PHYS_JOINT_BALL:
		kind = "ball";
		break;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		n = 2, order[0] = 1, order[1] = 0;
		break;
	case PHYS_JOINT_SCREW:
		n = 2;
		break;
	default:
		break;
	}
	for (int i = 0; i < n; i++) {
		k = order[i];
		indent(wr->b, depth);
		phys_buf_puts(wr->b, "<joint");
		if (k == 0) {
			put_name(wr, j->name);
		} else {
			phys_buf_puts(wr->b, " name=\"");
			phys_buf_xml_attr(wr->b, own_name(wr, j->name));
			phys_buf_puts(wr->b, j->type == PHYS_JOINT_SCREW ?
			    "_travel\"" : "_axis2\"");
		}
		if (j->type == PHYS_JOINT_SCREW && k == 1) {
			phys_buf_puts(wr->b, " type=\"slide\"");
			if (pos.x != 0 || pos.y != 0 || pos.z != 0)
				put_vec(wr->b, "pos", pos);
			put_vec(wr->b, "axis", phys_mjcf_joint_axis(wr->w, ji,
			    0));
			phys_buf_puts(wr->b, " limited=\"false\"/>\n");
			continue;
		}
		phys_buf_printf(wr->b, " type=\"%s\"", kind);
		if (pos.x != 0 || pos.y != 0 || pos.z != 0)
			put_vec(wr->b, "pos", pos);
		if (j->type != PHYS_JOINT_BALL) {
			put_vec(wr->b, "axis", phys_mjcf_joint_axis(wr->w, ji,
			    k));
			put_axis_values(wr->b, j, k);
		} else {
			put_axis_values(wr->b, j, 0);
		}
		phys_buf_puts(wr->b, "/>\n");
	}
}

/* The quaternion turning z onto the unit vector n. */
static phys_quat
z_to(phys_vec3 n)
{
	phys_vec3 z = v3(0, 0, 1), a = v3_cross(z, n);
	double s = v3_norm(a), c = v3_dot(z, n);

	if (s < 1e-12)
		return c > 0 ? PHYS_QUAT_IDENTITY : (phys_quat){ 0, 1, 0, 0 };
	return phys_quat_about(v3_scale(a, 1 / s), atan2(s, c));
}

/*
 * A surface as MuJoCo's contact takes it: mu and mu2, the torsional
 * coefficient over its patch, the rolling friction (for both rolling
 * directions), MuJoCo's defaults where a coefficient is 0 (unused then);
 * the condim that uses them; MuJoCo's block's solref and solimp.
 */
struct mj_surface {
	double fr[5];
	struct phys_mjcf_softness soft;
	int condim;
};

static struct mj_surface
surface_of(const struct phys_value *v)
{
	struct mj_surface s = { .fr = {
		PVD(v, COLLISION_surface_friction_ode_mu),
		PVD(v, COLLISION_surface_friction_ode_mu2),
		PVB(v, COLLISION_surface_friction_torsional_use_patch_radius) ?
		    PVD(v, COLLISION_surface_friction_torsional_coefficient) *
		    PVD(v, COLLISION_surface_friction_torsional_patch_radius) : 0,
		PVD(v, COLLISION_surface_friction_mujoco_rolling),
		PVD(v, COLLISION_surface_friction_mujoco_rolling) } };

	phys_mjcf_softness(v, PHYS_MJCF_CONTACT, &s.soft);
	/* the condim an MJCF geom had, else the one its coefficients use */
	s.condim = PV(v, COLLISION_surface_friction_mujoco_condim)->given ?
	    (int)PVI(v, COLLISION_surface_friction_mujoco_condim) :
	    s.fr[3] > 0 ? 6 : s.fr[2] > 0 ? 4 :
	    s.fr[0] > 0 || s.fr[1] > 0 ? 3 : 1;
	if (s.fr[2] == 0)
		s.fr[2] = 0.005;
	if (s.fr[3] == 0)
		s.fr[3] = s.fr[4] = 0.0001;
	return s;
}

/* A surface's margin and gap, where they are not 0. */
static void
put_margin(struct phys_buf *b, const struct phys_value *v)
{
	if (PVD(v, COLLISION_surface_contact_mujoco_margin) != 0)
		phys_mjcf_nums(b, "margin",
		    &PVD(v, COLLISION_surface_contact_mujoco_margin), 1);
	if (PVD(v, COLLISION_surface_contact_mujoco_gap) != 0)
		phys_mjcf_nums(b, "gap",
		    &PVD(v, COLLISION_surface_contact_mujoco_gap), 1);
}

/*
 * Surface values that map onto a geom: mu (MuJoCo keeps one sliding
 * coefficient; mu2 has no place), the torsional and rolling friction with
 * the condim that uses them, the bitmasks, and the MuJoCo block's solref
 * and solimp where the file gives them.
 */
static void
put_surface(struct phys_buf *b, const struct phys_collision *c)
{
	const struct phys_value *v = c->vals;
	struct mj_surface s = surface_of(v);
	double fr[3] = { s.fr[0], s.fr[2], s.fr[3] };

	/* the bitmasks where the file gives them: contype is the category,
	 * conaffinity the mask, by one rule (MuJoCo's is SDF's) */
	if (PV(v, COLLISION_surface_contact_category_bitmask)->given ||
	    PV(v, COLLISION_surface_contact_collide_bitmask)->given)
		phys_buf_printf(b, " contype=\"%ld\" conaffinity=\"%ld\"",
		    PVI(v, COLLISION_surface_contact_category_bitmask),
		    PVI(v, COLLISION_surface_contact_collide_bitmask));
	/* a derived condim 1 would not stop the geom's friction against
	 * another's (MuJoCo takes the larger): a condim given is MuJoCo's
	 * rule already (phys_contact_friction) */
	if (s.condim > 3 || (s.condim != 3 &&
	    PV(v, COLLISION_surface_friction_mujoco_condim)->given))
		phys_buf_printf(b, " condim=\"%d\"", s.condim);
	phys_mjcf_nums(b, "friction", fr, 3);
	if (s.soft.ref_given)
		phys_mjcf_nums(b, "solref", s.soft.solref, 2);
	if (s.soft.imp_given)
		phys_mjcf_nums(b, "solimp", s.soft.solimp, 5);
	/* how two geoms mix, where the file gives it */
	if (PVI(v, COLLISION_surface_contact_mujoco_priority) != 0)
		phys_buf_printf(b, " priority=\"%ld\"",
		    PVI(v, COLLISION_surface_contact_mujoco_priority));
	if (PV(v, COLLISION_surface_contact_mujoco_solmix)->given)
		phys_mjcf_nums(b, "solmix",
		    &PVD(v, COLLISION_surface_contact_mujoco_solmix), 1);
	put_margin(b, v);
}

bool
phys_mjcf_shape(struct phys_buf *b, const struct phys_collision *c)
{
	double s[3];
	int n;

	switch (c->shape) {
	case PHYS_GEOM_BOX:
		phys_buf_puts(b, " type=\"box\"");
		s[0] = c->size[0] / 2, s[1] = c->size[1] / 2;
		s[2] = c->size[2] / 2, n = 3;
		break;
	case PHYS_GEOM_SPHERE:
		phys_buf_puts(b, " type=\"sphere\"");
		s[0] = c->size[0], n = 1;
		break;
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
		phys_buf_puts(b, c->shape == PHYS_GEOM_CYLINDER ?
		    " type=\"cylinder\"" : " type=\"capsule\"");
		s[0] = c->size[0], s[1] = c->size[1] / 2, n = 2;
		break;
	case PHYS_GEOM_ELLIPSOID:
		phys_buf_puts(b, " type=\"ellipsoid\"");
		s[0] = c->size[0], s[1] = c->size[1], s[2] = c->size[2];
		n = 3;
		break;
	default:
		return false;
	}
	phys_mjcf_nums(b, "size", s, n);
	return true;
}

/* Whether MuJoCo 2.2.2 reads heightmap collision c's file as loaded: a
 * PNG read a sample a pixel (a GeoTIFF, or samples between pixels, it
 * cannot). */
static bool
hfield_readable(const struct phys_collision *c)
{
	const struct phys_heightmap *hm = c->heightmap;
	const char *dot = hm && hm->path ? strrchr(hm->path, '.') : NULL;

	return dot && strcasecmp(dot, ".png") == 0 && hm->sampling == 1;
}

/* Collision ci as a geom; a mesh, a cone or a polyline is the mesh
 * asset m<ci>, a heightmap the hfield h<ci> where MuJoCo reads its file
 * (else it is left out: MuJoCo 2.2.2 reads an hfield from a PNG or its
 * own binary file only). */
/* Collision c's colour, an MJCF geom's (<phys:rgba>), where it has
 * one. */
static void
put_node_rgba(struct writer *wr, const struct phys_collision *c)
{
	xmlNodePtr n;
	double v[4];
	char *t;

	for (n = c->node ? phys_child(c->node, NULL) : NULL; n;
	    n = phys_next(n, NULL))
		if (phys_mjcf_own(n, "rgba")) {
			t = phys_node_text(n);
			if (t && phys_parse_doubles(t, v, 4) == 4)
				phys_mjcf_nums(wr->b, "rgba", v, 4);
			free(t);
			return;
		}
}

static int
put_geom(struct writer *wr, int ci, phys_pose frame, int depth)
{
	const struct phys_collision *c = &wr->w->collisions[ci];
	phys_pose p = phys_pose_mul(frame, c->pose);
	double s[3];
	long group;
	int n = 0;

	if (c->shape == PHYS_GEOM_HEIGHTMAP && !hfield_readable(c)) {
		phys_warnat(PHYS_AT(c->doc, c->node), "collision '%s': a "
		    "heightmap of a GeoTIFF, or sampled between pixels, is not "
		    "written as MJCF (MuJoCo 2.2.2 reads a height field of a "
		    "PNG, a sample a pixel)", c->name);
		return 0;
	}
	if (c->shape == PHYS_GEOM_MESH && !c->mesh)
		return 0;	/* skipped at load, and said so */
	if (phys_collision_zero_size(c)) {
		phys_warnat(PHYS_AT(c->doc, c->node), "collision '%s': a "
		    "shape with a size of 0, not written as MJCF (MuJoCo "
		    "refuses sizes that are not positive)", c->name);
		return 0;
	}
	indent(wr->b, depth);
	phys_buf_puts(wr->b, "<geom");
	if (!unnamed(wr, c)) {
		phys_buf_puts(wr->b, " name=\"");
		phys_buf_xml_attr(wr->b, geom_name(wr, c));
		phys_buf_putc(wr->b, '"');
	}
	switch (c->shape) {
	case PHYS_GEOM_BOX:
	case PHYS_GEOM_SPHERE:
	case PHYS_GEOM_CYLINDER:
	case PHYS_GEOM_CAPSULE:
	case PHYS_GEOM_ELLIPSOID:
		phys_mjcf_shape(wr->b, c);
		break;
	case PHYS_GEOM_PLANE:
		/* half extents for drawing; MuJoCo's plane is infinite */
		phys_buf_puts(wr->b, " type=\"plane\"");
		s[0] = c->size[0] / 2, s[1] = c->size[1] / 2, s[2] = 1, n = 3;
		p.q = phys_quat_mul(p.q, z_to(v3_normalize(c->normal)));
		break;
	case PHYS_GEOM_MESH:
	case PHYS_GEOM_CONE:
		phys_buf_printf(wr->b, " type=\"mesh\" mesh=\"m%d\"", ci);
		break;
	case PHYS_GEOM_HEIGHTMAP:	/* its lowest point lo above */
		phys_buf_printf(wr->b, " type=\"hfield\" hfield=\"h%d\"", ci);
		p = phys_pose_mul(p, (phys_pose){ { c->heightmap->pos[0],
		    c->heightmap->pos[1], c->heightmap->lo },
		    PHYS_QUAT_IDENTITY });
		break;
	}
	if (n)
		phys_mjcf_nums(wr->b, "size", s, n);
	put_pose(wr->b, p);
	put_node_rgba(wr, c);
	put_surface(wr->b, c);
	if ((group = node_group(c->node, 0)) != 0)
		phys_buf_printf(wr->b, " group=\"%ld\"", group);
	phys_buf_puts(wr->b, "/>\n");
	return 0;
}

static int put_body(struct writer *wr, int li, int depth);

/*
 * A joint closing a loop: a ghost body, NAME::loop, where the child is,
 * hanging from the parent by the joint's own joints and welded to the
 * child (<equality>). It weighs GHOST_SHARE of the child (MuJoCo moves no
 * massless body), as phys's MuJoCo engine makes it.
 */
#define GHOST_SHARE 1e-3

static int
put_ghost(struct writer *wr, int ji, int depth)
{
	const struct phys_joint *j = &wr->w->joints[ji];
	const struct phys_link *c = &wr->w->links[j->child];
	phys_pose parent = j->parent >= 0 ? wr->w->links[j->parent].pose :
	    PHYS_POSE_IDENTITY;
	phys_inertia in;
	double m, mo[3];

	phys_link_inertia(c, &in);
	m = GHOST_SHARE * (in.mass > 0 ? in.mass : 1);
	mo[0] = mo[1] = mo[2] = m * 1e-2;
	indent(wr->b, depth);
	phys_buf_puts(wr->b, "<body name=\"");
	phys_buf_xml_attr(wr->b, own_name(wr, j->name));
	phys_buf_puts(wr->b, "::loop\"");
	put_pose(wr->b, phys_pose_mul(phys_pose_inv(parent), c->pose));
	phys_buf_puts(wr->b, ">\n");
	indent(wr->b, depth + 1);
	phys_buf_puts(wr->b, "<inertial pos=\"0 0 0\" mass=\"");
	put_num(wr->b, m);
	phys_buf_putc(wr->b, '"');
	phys_mjcf_nums(wr->b, "diaginertia", mo, 3);
	phys_buf_puts(wr->b, "/>\n");
	put_joints(wr, ji, depth + 1);
	indent(wr->b, depth);
	phys_buf_puts(wr->b, "</body>\n");
	return 0;
}

/* The profile the written model runs by: the starting one when it is
 * MuJoCo's, else the first of MuJoCo's (an MJCF model's starts in ODE's
 * and keeps its <option> in "mujoco"), else the starting one. */
static const struct phys_value *
mujoco_profile(const struct phys_scene *w)
{
	size_t i;

	if (strcmp(w->profiles[w->start].type, "mujoco") == 0)
		return w->profiles[w->start].vals;
	for (i = 0; i < w->nprofiles; i++)
		if (strcmp(w->profiles[i].type, "mujoco") == 0)
			return w->profiles[i].vals;
	return w->profiles[w->start].vals;
}

void
phys_mjcf_hold(double h, double solref[2], double solimp[5])
{
	static const double imp[5] = { 0.9999, 0.9999, 0.001, 0.5, 2 };

	solref[0] = 2 * h;
	solref[1] = 1;
	memcpy(solimp, imp, sizeof imp);
}

/* A MuJoCo softness block's parameters: solref's two, then solimp's
 * five. */
static const enum phys_param_id softness_ids[][7] = {
	[PHYS_MJCF_LIMIT] = {
		PHYS_P_JOINT_physics_mujoco_limit_solref_timeconst,
		PHYS_P_JOINT_physics_mujoco_limit_solref_dampratio,
		PHYS_P_JOINT_physics_mujoco_limit_solimp_dmin,
		PHYS_P_JOINT_physics_mujoco_limit_solimp_dmax,
		PHYS_P_JOINT_physics_mujoco_limit_solimp_width,
		PHYS_P_JOINT_physics_mujoco_limit_solimp_midpoint,
		PHYS_P_JOINT_physics_mujoco_limit_solimp_power,
	},
	[PHYS_MJCF_EQUALITY] = {
		PHYS_P_JOINT_physics_mujoco_equality_solref_timeconst,
		PHYS_P_JOINT_physics_mujoco_equality_solref_dampratio,
		PHYS_P_JOINT_physics_mujoco_equality_solimp_dmin,
		PHYS_P_JOINT_physics_mujoco_equality_solimp_dmax,
		PHYS_P_JOINT_physics_mujoco_equality_solimp_width,
		PHYS_P_JOINT_physics_mujoco_equality_solimp_midpoint,
		PHYS_P_JOINT_physics_mujoco_equality_solimp_power,
	},
	[PHYS_MJCF_CONTACT] = {
		PHYS_P_COLLISION_surface_contact_mujoco_solref_timeconst,
		PHYS_P_COLLISION_surface_contact_mujoco_solref_dampratio,
		PHYS_P_COLLISION_surface_contact_mujoco_solimp_dmin,
		PHYS_P_COLLISION_surface_contact_mujoco_solimp_dmax,
		PHYS_P_COLLISION_surface_contact_mujoco_solimp_width,
		PHYS_P_COLLISION_surface_contact_mujoco_solimp_midpoint,
		PHYS_P_COLLISION_surface_contact_mujoco_solimp_power,
	},
};

void
phys_mjcf_softness(const struct phys_value *v, enum phys_mjcf_block block,
    struct phys_mjcf_softness *out)
{
	const enum phys_param_id *id = softness_ids[block];
	const struct phys_value *x;
	int i;

	out->ref_given = out->imp_given = false;
	for (i = 0; i < 2; i++) {
		x = &v[phys_param_index[id[i]]];
		out->solref[i] = x->u.d;
		out->ref_given |= x->given;
	}
	for (i = 0; i < 5; i++) {
		x = &v[phys_param_index[id[2 + i]]];
		out->solimp[i] = x->u.d;
		out->imp_given |= x->given;
	}
}

void
phys_mjcf_equality(const struct phys_value *v, double h, double solref[2],
    double solimp[5])
{
	struct phys_mjcf_softness s;

	phys_mjcf_softness(v, PHYS_MJCF_EQUALITY, &s);
	if (!s.ref_given && !s.imp_given) {
		phys_mjcf_hold(h, solref, solimp);
		return;
	}
	memcpy(solref, s.solref, sizeof s.solref);
	memcpy(solimp, s.solimp, sizeof s.solimp);
}

double
phys_mjcf_mimic_tendon_coef(const struct phys_joint *j)
{
	double a = PVD(j->vals, JOINT_physics_mujoco_equality_tendon_coef);

	if (a != 0)
		return a;
	return j->mimic.nleaders > 1 ? 1 : 0;
}

/* joint1 = c0 + factor joint2, each from its qpos0 (where phys builds
 * it): joint1 named by joint j1 and suffix, joint2 by j2. */
static void
put_joint_coupling(struct writer *wr, const struct phys_joint *j1,
    const char *suffix, const struct phys_joint *j2, double c0,
    double factor)
{
	double poly[5] = { c0, factor, 0, 0, 0 };

	phys_buf_puts(wr->b, "    <joint joint1=\"");
	phys_buf_xml_attr(wr->b, own_name(wr, j1->name));
	phys_buf_printf(wr->b, "%s\" joint2=\"", suffix);
	phys_buf_xml_attr(wr->b, own_name(wr, j2->name));
	phys_buf_putc(wr->b, '"');
	phys_mjcf_nums(wr->b, "polycoef", poly, 5);
}

/*
 * Joint ji's mimic: follower = sum m_i (leader_i - reference_i) + offset,
 * each joint measured from where phys builds it, which MuJoCo's equality
 * measures from qpos0 (the joint's ref written): a joint equality of
 * one leader, else (or as an MJCF tendon equality had it) its tendon
 * (put_mimic_tendon) held, its length scaled by the follower's
 * coefficient.
 */
static void
put_mimic(struct writer *wr, int ji)
{
	const struct phys_joint *j = &wr->w->joints[ji];
	const struct phys_mimic *m = &j->mimic;
	struct phys_buf *b = wr->b;
	double a = phys_mjcf_mimic_tendon_coef(j);
	double poly[5] = { a * phys_mimic_base(m), 0, 0, 0, 0 };

	if (a == 0) {
		put_joint_coupling(wr, j, "", &wr->w->joints[m->lead[0].joint],
		    phys_mimic_base(m), m->lead[0].multiplier);
		return;
	}
	phys_buf_puts(b, "    <tendon tendon1=\"");
	phys_buf_xml_attr(b, own_name(wr, j->name));
	phys_buf_puts(b, "::mimic\"");
	phys_mjcf_nums(b, "polycoef", poly, 5);
}

static void
put_softness(struct phys_buf *b, const double ref[2], const double imp[5])
{
	phys_mjcf_nums(b, "solref", ref, 2);
	phys_mjcf_nums(b, "solimp", imp, 5);
	phys_buf_puts(b, "/>\n");
}

/*
 * Joint j's own coupling: a screw's travel at lead times its turn; a
 * gearbox's child gear turning about the reference body at -ratio times
 * its parent gear's turn (phys_gearbox_gears gives each turn's factor).
 */
static void
put_joint_equality(struct writer *wr, const struct phys_joint *j)
{
	const struct phys_scene *w = wr->w;
	int gear[2];
	double coef[2];

	if (j->type == PHYS_JOINT_SCREW)
		put_joint_coupling(wr, j, "_travel", j, 0,
		    phys_joint_screw_lead(j->vals));
	else if (phys_gearbox_gears(w, j, gear, coef) == 0)
		put_joint_coupling(wr, &w->joints[gear[1]], "",
		    &w->joints[gear[0]], 0, -PVD(j->vals,
		    JOINT_gearbox_ratio) * coef[0] * coef[1]);
}

/* A ball or fixed joint closing a loop, as its links' connect at its
 * anchor (in the child's frame) or weld (at their pose as loaded, which
 * is MuJoCo's qpos0), unclosed, for its softness to follow. */
static void
put_tie(struct writer *wr, const struct phys_joint *j)
{
	phys_buf_printf(wr->b, "    <%s body1=\"", j->type ==
	    PHYS_JOINT_BALL ? "connect" : "weld");
	phys_buf_xml_attr(wr->b, own_name(wr, wr->w->links[j->child].name));
	phys_buf_putc(wr->b, '"');
	if (j->parent >= 0) {
		phys_buf_puts(wr->b, " body2=\"");
		phys_buf_xml_attr(wr->b, own_name(wr,
		    wr->w->links[j->parent].name));
		phys_buf_putc(wr->b, '"');
	}
	if (j->type == PHYS_JOINT_BALL) {
		phys_vec3 a = phys_mjcf_joint_pos(wr->w, (int)(j -
		    wr->w->joints));

		phys_mjcf_nums(wr->b, "anchor", (double[3]){ a.x, a.y, a.z },
		    3);
	}
}

/* Whether joint i is held by an equality: a loop's weld, a mimic, a
 * screw's or a gearbox's coupling. */
static bool
has_equality(const struct writer *wr, size_t i)
{
	const struct phys_joint *j = &wr->w->joints[i];

	return wr->t.loop[i] || wr->t.tie[i] || j->mimic.nleaders ||
	    j->type == PHYS_JOINT_SCREW || j->type == PHYS_JOINT_GEARBOX;
}

/* The welds holding each loop's ghost to its child, and the couplings
 * (mimics, screws, gearboxes), as stiff as the engine makes them for the
 * written step. */
static void
put_equalities(struct writer *wr)
{
	const struct phys_scene *w = wr->w;
	double h = PVD(mujoco_profile(w), PHYSICS_max_step_size);
	double ref[2], imp[5];
	size_t i;
	bool any = false;

	for (i = 0; i < wr->w->njoints; i++) {
		if (!has_equality(wr, i))
			continue;
		if (!any)
			phys_buf_puts(wr->b, "  <equality>\n");
		any = true;
		if (wr->t.tie[i]) {
			/* an MJCF connect's or weld's own softness */
			phys_mjcf_equality(w->joints[i].vals, h, ref, imp);
			put_tie(wr, &w->joints[i]);
			put_softness(wr->b, ref, imp);
		}
		if (wr->t.loop[i]) {
			phys_mjcf_hold(h, ref, imp);
			phys_buf_puts(wr->b, "    <weld body1=\"");
			phys_buf_xml_attr(wr->b, own_name(wr,
			    wr->w->joints[i].name));
			phys_buf_puts(wr->b, "::loop\" body2=\"");
			phys_buf_xml_attr(wr->b, own_name(wr,
			    wr->w->links[wr->w->joints[i].child].name));
			phys_buf_putc(wr->b, '"');
			put_softness(wr->b, ref, imp);
		}
		if (wr->w->joints[i].mimic.nleaders) {
			phys_mjcf_equality(w->joints[i].vals, h, ref, imp);
			put_mimic(wr, (int)i);
			put_softness(wr->b, ref, imp);
		}
		if (w->joints[i].type == PHYS_JOINT_SCREW ||
		    w->joints[i].type == PHYS_JOINT_GEARBOX) {
			phys_mjcf_hold(h, ref, imp);
			put_joint_equality(wr, &w->joints[i]);
			put_softness(wr->b, ref, imp);
		}
	}
	if (any)
		phys_buf_puts(wr->b, "  </equality>\n");
}

/*
 * Whether link li is part of the world body: a static link that nothing
 * hangs from. MuJoCo's contacts weigh a body welded to the world a
 * little unlike the world body itself (a box slid 0.35 mm further in 1 s
 * down a slope of such a body), so its geoms are the world body's, in
 * the world's frame, and keep the link's name in theirs.
 */
static bool
in_world(const struct writer *wr, int li)
{
	const struct phys_scene *w = wr->w;
	size_t i;

	if (wr->t.up[li] >= 0 || wr->t.holder[li] >= 0 || wr->t.free[li] ||
	    is_mocap(wr, li))
		return false;
	for (i = 0; i < w->nlinks; i++)
		if (wr->t.up[i] == li)
			return false;
	for (i = 0; i < w->njoints; i++)
		if ((wr->t.loop[i] || wr->t.tie[i]) &&
		    w->joints[i].parent == li)
			return false;
	return true;
}

/*
 * Whether link li is written into the body of the one link that hangs
 * from it, *into: li is an MJCF body's frame between two of its joints
 * (between_joints), where that link is, bearing nothing else. MuJoCo's
 * body of several joints has no mass there; a body of that frame's
 * would weigh.
 */
static bool
merged(const struct writer *wr, int li, int *into)
{
	const struct phys_scene *w = wr->w;
	const struct phys_link *l = &w->links[li];
	phys_pose d;
	int c = -1, children = 0;
	size_t i;

	if (!l->between_joints || l->ncollisions || wr->t.holder[li] < 0)
		return false;
	for (i = 0; i < w->nlinks; i++)
		if (wr->t.up[i] == li) {
			c = (int)i;
			children++;
		}
	if (children != 1 || wr->t.holder[c] < 0)
		return false;
	for (i = 0; i < w->njoints; i++)
		if ((wr->t.loop[i] || wr->t.tie[i]) &&
		    (w->joints[i].parent == li || w->joints[i].child == li))
			return false;
	d = phys_pose_mul(phys_pose_inv(l->pose), w->links[c].pose);
	if (v3_norm(d.p) > 1e-12 || fabs(fabs(d.q.w) - 1) > 1e-12)
		return false;
	*into = c;
	return true;
}

/* The link whose body link li's is written in (itself, or the one it is
 * merged into), -1 for the world body. */
static int
written_in(const struct writer *wr, int li)
{
	int c;

	if (in_world(wr, li))
		return -1;
	while (merged(wr, li, &c))
		li = c;
	return li;
}

/* ---- visuals ---- */

static int weld_of(const struct writer *wr, int li);

/* The n positive numbers of <name> in s, true; false when it has not. */
static bool
child_sizes(xmlNodePtr s, const char *name, double *out, int n)
{
	char *t = phys_node_text(phys_child(s, name));
	bool ok = t && phys_parse_doubles(t, out, n) == n;
	int i;

	free(t);
	for (i = 0; ok && i < n; i++)
		ok = out[i] > 0;
	return ok;
}

/*
 * Visual vi's shape as a geom's type and size, true; false for a shape
 * MJCF has no geom for (a heightmap, a polyline, a plane on a moving
 * body: MuJoCo's are static), a mesh whose
 * file MuJoCo does not read (put_assets writes the others as v<vi>), or
 * sizes that are no shape's.
 */
static bool
put_visual_shape(struct writer *wr, size_t vi, phys_quat *q)
{
	xmlNodePtr g = phys_child(wr->w->visuals[vi].node, "geometry"), s;
	struct phys_buf *b = wr->b;
	double v[3], n[3] = { 0, 0, 1 };
	char *t;

	if ((s = phys_child(g, "plane")) &&
	    weld_of(wr, wr->w->visuals[vi].link) < 0) {
		/* half extents for drawing, along its normal */
		v[0] = v[1] = 1e3, v[2] = 1;
		if (phys_child(s, "size") && child_sizes(s, "size", v, 2))
			v[0] /= 2, v[1] /= 2;
		if ((t = phys_node_text(phys_child(s, "normal")))) {
			if (phys_parse_doubles(t, n, 3) != 3 ||
			    !(v3_norm(v3(n[0], n[1], n[2])) > 0))
				n[0] = n[1] = 0, n[2] = 1;
			free(t);
		}
		phys_buf_puts(b, " type=\"plane\"");
		phys_mjcf_nums(b, "size", v, 3);
		*q = phys_quat_mul(*q, z_to(v3_normalize(v3(n[0], n[1],
		    n[2]))));
	} else if ((s = phys_child(g, "box")) && child_sizes(s, "size", v, 3)) {
		phys_buf_puts(b, " type=\"box\"");
		v[0] /= 2, v[1] /= 2, v[2] /= 2;
		phys_mjcf_nums(b, "size", v, 3);
	} else if ((s = phys_child(g, "sphere")) &&
	    child_sizes(s, "radius", v, 1)) {
		phys_buf_puts(b, " type=\"sphere\"");
		phys_mjcf_nums(b, "size", v, 1);
	} else if (((s = phys_child(g, "cylinder")) ||
	    (s = phys_child(g, "capsule"))) &&
	    child_sizes(s, "radius", v, 1) &&
	    child_sizes(s, "length", v + 1, 1)) {
		phys_buf_printf(b, " type=\"%s\"", (const char *)s->name);
		v[1] /= 2;
		phys_mjcf_nums(b, "size", v, 2);
	} else if ((s = phys_child(g, "ellipsoid")) &&
	    child_sizes(s, "radii", v, 3)) {
		phys_buf_puts(b, " type=\"ellipsoid\"");
		phys_mjcf_nums(b, "size", v, 3);
	} else if (wr->vis_mesh[vi]) {
		phys_buf_printf(b, " type=\"mesh\" mesh=\"v%zu\"", vi);
	} else {
		return false;
	}
	return true;
}

/* A visual's colour: its material's diffuse colour, where it has one,
 * of the alpha its transparency gives (as SDF's readers draw it). */
static void
put_visual_rgba(struct writer *wr, size_t vi)
{
	xmlNodePtr m = phys_child(wr->w->visuals[vi].node, "material");
	char *t = m ? phys_node_text(phys_child(m, "diffuse")) : NULL;
	double c[4] = { 0, 0, 0, 1 }, clear;
	int n = t ? phys_parse_doubles(t, c, 4) : 0;

	free(t);
	t = phys_node_text(phys_child(wr->w->visuals[vi].node,
	    "transparency"));
	if (t && phys_parse_doubles(t, &clear, 1) == 1 && clear >= 0 &&
	    clear <= 1)
		c[3] = 1 - clear;
	free(t);
	if (n >= 3 && c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[3] >= 0)
		phys_mjcf_nums(wr->b, "rgba", c, 4);
}

/* Visual vi's name, as a collision's (own_geom); where it is a
 * collision's of its link too (SDF names them apart), with ::visual. */
static void
put_visual_name(struct writer *wr, size_t vi)
{
	const struct phys_visual *v = &wr->w->visuals[vi];
	const struct phys_link *l = &wr->w->links[v->link];
	int ci;

	phys_buf_puts(wr->b, " name=\"");
	if (wr->own_geom[wr->w->ncollisions + vi]) {
		phys_buf_xml_attr(wr->b, last_part(v->name));
	} else {
		phys_buf_xml_attr(wr->b, own_name(wr, v->name));
		for (ci = l->first_collision; ci < l->first_collision +
		    l->ncollisions; ci++)
			if (strcmp(wr->w->collisions[ci].name, v->name) == 0)
				phys_buf_puts(wr->b, "::visual");
	}
	phys_buf_putc(wr->b, '"');
}

/*
 * Visual vi as a geom of link frame at that touches nothing and weighs
 * nothing (every mass is the <inertial>'s: inertiafromgeom="false"), in
 * group 1 (an MJCF geom's, its own), named as a collision is.
 */
static void
put_visual(struct writer *wr, size_t vi, phys_pose at, int depth)
{
	const struct phys_visual *v = &wr->w->visuals[vi];
	size_t mark = wr->b->len;
	phys_pose p;

	indent(wr->b, depth);
	phys_buf_puts(wr->b, "<geom");
	if (!unnamed_node(v->node))
		put_visual_name(wr, vi);
	p = phys_pose_mul(at, v->pose);
	if (!put_visual_shape(wr, vi, &p.q)) {
		wr->b->len = mark;
		wr->b->s[mark] = '\0';
		phys_warnat(PHYS_AT(v->doc, v->node), "visual '%s': not "
		    "written as MJCF: a mesh of a file MuJoCo 2.2.2 does not "
		    "read (Collada, ASCII STL, glTF, or none found), or a shape "
		    "MJCF has no geom for (a heightmap, a polyline, a plane of "
		    "a moving body); a visual does not change the motion",
		    v->name);
		return;
	}
	put_pose(wr->b, p);
	put_visual_rgba(wr, vi);
	phys_buf_printf(wr->b, " contype=\"0\" conaffinity=\"0\" "
	    "group=\"%ld\"/>\n", node_group(v->node, 1));
}

/* Link li's visuals, in its frame, at. */
static void
put_visuals(struct writer *wr, int li, phys_pose at, int depth)
{
	size_t k;

	for (k = wr->vis_first[li]; k < wr->vis_first[li + 1]; k++)
		if (!twin(wr->w, wr->vis_order[k]))
			put_visual(wr, wr->vis_order[k], at, depth);
}

/* The visuals grouped by link, in their order: link li's are
 * vis_order[vis_first[li] .. vis_first[li + 1]). */
static void
group_visuals(struct writer *wr)
{
	const struct phys_scene *w = wr->w;
	size_t i, *at;

	wr->vis_first = phys_xcalloc(w->nlinks + 2, sizeof *wr->vis_first);
	wr->vis_order = phys_xcalloc(w->nvisuals + 1, sizeof *wr->vis_order);
	wr->vis_mesh = phys_xcalloc(w->nvisuals + 1, sizeof *wr->vis_mesh);
	for (i = 0; i < w->nvisuals; i++)
		wr->vis_first[w->visuals[i].link + 1]++;
	for (i = 0; i < w->nlinks; i++)
		wr->vis_first[i + 1] += wr->vis_first[i];
	at = phys_xcalloc(w->nlinks + 1, sizeof *at);
	memcpy(at, wr->vis_first, w->nlinks * sizeof *at);
	for (i = 0; i < w->nvisuals; i++)
		wr->vis_order[at[w->visuals[i].link]++] = i;
	free(at);
}

/* Link li's geoms, in its frame, at: its collisions, then its
 * visuals. */
static int
put_geoms(struct writer *wr, int li, phys_pose at, int depth)
{
	const struct phys_link *l = &wr->w->links[li];
	int ci;

	for (ci = l->first_collision; ci < l->first_collision +
	    l->ncollisions; ci++)
		if (put_geom(wr, ci, at, depth) < 0)
			return -1;
	put_visuals(wr, li, at, depth);
	return 0;
}

/* The bodies hanging from link up (-1: from the world, with the links
 * part of it). */
static int
put_children(struct writer *wr, int up, int depth)
{
	size_t i;

	for (i = 0; i < wr->w->nlinks; i++)
		if (wr->t.up[i] == up && (up >= 0 || !in_world(wr, (int)i)) &&
		    put_body(wr, (int)i, depth) < 0)
			return -1;
	for (i = 0; up < 0 && i < wr->w->nlinks; i++)
		if (in_world(wr, (int)i) && put_geoms(wr, (int)i,
		    wr->w->links[i].pose, depth) < 0)
			return -1;
	for (i = 0; i < wr->w->njoints; i++)
		if (wr->t.loop[i] && wr->w->joints[i].parent == up &&
		    put_ghost(wr, (int)i, depth) < 0)
			return -1;
	return 0;
}

/* Site actuator i's site name: its own, else "LINK::siteI". */
static void
put_site_name(struct writer *wr, size_t i)
{
	const struct phys_mjcf_site *st = &wr->acts[i].site;

	if (st->site) {
		phys_buf_xml_attr(wr->b, st->site);
		return;
	}
	phys_buf_xml_attr(wr->b, own_name(wr, wr->w->links[st->link].name));
	phys_buf_printf(wr->b, "::site%zu", i);
}

/* Whether site actuator i's site is written before, by an actuator of
 * the same site. */
static bool
site_written(const struct writer *wr, size_t i)
{
	const struct phys_mjcf_site *st = &wr->acts[i].site;
	size_t k;

	for (k = 0; st->site && k < i; k++)
		if (wr->acts[k].kind == PHYS_MJCF_SITE &&
		    wr->acts[k].site.link == st->link && wr->acts[k].site.site &&
		    strcmp(wr->acts[k].site.site, st->site) == 0)
			return true;
	return false;
}

/* The sites of the actuators of links written in body li's (its frame,
 * at). */
static void
put_sites(struct writer *wr, int li, int depth)
{
	const struct phys_scene *w = wr->w;
	const struct phys_mjcf_site *st;
	phys_pose at;
	size_t i;

	for (i = 0; i < wr->nacts; i++) {
		st = &wr->acts[i].site;
		if (wr->acts[i].kind != PHYS_MJCF_SITE || site_written(wr, i) ||
		    written_in(wr, st->link) != li)
			continue;
		at = phys_pose_mul(phys_pose_mul(phys_pose_inv(
		    w->links[li].pose), w->links[st->link].pose),
		    phys_pose_from6(st->pose));
		indent(wr->b, depth);
		phys_buf_puts(wr->b, "<site name=\"");
		put_site_name(wr, i);
		phys_buf_putc(wr->b, '"');
		put_pose(wr->b, at);
		phys_buf_puts(wr->b, "/>\n");
	}
}

/* Whether actuator a pulls a fixed tendon (or is a spring's). */
static bool
is_tendon(const struct phys_mjcf_actuator *a)
{
	return a->kind == PHYS_MJCF_TENDON || a->kind == PHYS_MJCF_SPRING;
}

/*
 * The name limited tendon i is written by: its own, or tendonI for one
 * of none; with ::limit where an actuator's tendon has it (an actuator's
 * is scaled by its gear).
 */
static void
put_limit_name(struct writer *wr, size_t i)
{
	const char *name = own_name(wr, wr->w->tendons[i].name);
	size_t k;

	if (!*name || name[strlen(name) - 1] == ':') {
		phys_buf_printf(wr->b, "tendon%zu", i);
		return;
	}
	phys_buf_xml_attr(wr->b, name);
	for (k = 0; k < wr->nacts; k++)
		if (is_tendon(&wr->acts[k]) && wr->acts[k].tendon.name &&
		    strcmp(wr->acts[k].tendon.name, name) == 0) {
			phys_buf_puts(wr->b, "::limit");
			return;
		}
}

/* The ends of the limited spatial tendons on the links written in body
 * li (-1: the world body), as sites TENDON::endK in its frame. */
static void
put_tendon_sites(struct writer *wr, int li, int depth)
{
	const struct phys_scene *w = wr->w;
	const struct phys_tendon *t;
	phys_pose at;
	size_t i;
	int k, l;

	for (i = 0; i < w->ntendons; i++) {
		t = &w->tendons[i];
		for (k = 0; !t->njoints && k < 2; k++) {
			l = t->link[k];
			if ((l < 0 ? -1 : written_in(wr, l)) != li)
				continue;
			at = (phys_pose){ phys_tendon_end(w, t, k),
			    PHYS_QUAT_IDENTITY };
			if (li >= 0)
				at = phys_pose_mul(phys_pose_inv(
				    w->links[li].pose), at);
			indent(wr->b, depth);
			phys_buf_puts(wr->b, "<site name=\"");
			put_limit_name(wr, i);
			phys_buf_printf(wr->b, "::end%d\"", k);
			put_pose(wr->b, at);
			phys_buf_puts(wr->b, "/>\n");
		}
	}
}

/* Link li's body, and the links merged into it: its joints and theirs,
 * in order, in the body of the last. */
static int
put_body(struct writer *wr, int top, int depth)
{
	const struct phys_scene *w = wr->w;
	int li = written_in(wr, top), k, next;
	const struct phys_link *l = &w->links[li];
	phys_pose parent = wr->t.up[top] >= 0 ? w->links[wr->t.up[top]].pose :
	    PHYS_POSE_IDENTITY;

	indent(wr->b, depth);
	phys_buf_puts(wr->b, "<body");
	put_name(wr, l->name);
	put_pose(wr->b, phys_pose_mul(phys_pose_inv(parent), l->pose));
	if (is_mocap(wr, li))
		phys_buf_puts(wr->b, " mocap=\"true\"");
	if (!PVB(l->vals, LINK_gravity))
		phys_warnat(PHYS_AT(l->doc, l->node), "link '%s' has no "
		    "gravity, which MuJoCo 2.2.2 has no way to say (a later "
		    "MuJoCo's gravcomp=\"1\" does): written with gravity",
		    l->name);
	phys_buf_puts(wr->b, ">\n");
	if (put_inertial(wr, li, depth + 1) < 0)
		return -1;
	for (k = top; k != li && merged(wr, k, &next); k = next)
		put_joints(wr, wr->t.holder[k], depth + 1);
	if (wr->t.holder[li] >= 0) {
		put_joints(wr, wr->t.holder[li], depth + 1);
	} else if (wr->t.free[li]) {
		indent(wr->b, depth + 1);
		put_freejoint(wr, l);
	}
	if (put_geoms(wr, li, PHYS_POSE_IDENTITY, depth + 1) < 0)
		return -1;
	put_sites(wr, li, depth + 1);
	put_tendon_sites(wr, li, depth + 1);
	if (put_children(wr, li, depth + 1) < 0)
		return -1;
	indent(wr->b, depth);
	phys_buf_puts(wr->b, "</body>\n");
	return 0;
}

/* ---- contacts ---- */

/* Whether link li's body moves against its parent's: it has joints, or
 * is a mocap body. */
static bool
own_weld(const struct writer *wr, int li)
{
	int ji = wr->t.holder[li];

	return wr->t.free[li] || is_mocap(wr, li) ||
	    (ji >= 0 && wr->w->joints[ji].type != PHYS_JOINT_FIXED);
}

/* The link of the body li's is welded to (MuJoCo's weldid); -1 the
 * world. */
static int
weld_of(const struct writer *wr, int li)
{
	while (li >= 0 && !own_weld(wr, li))
		li = wr->t.up[li];
	return li;
}

/* The link whose body is the parent of link x's body (x being written
 * as a body: written_in), -1 the world. */
static int
body_parent(const struct writer *wr, int x)
{
	int c;

	while (wr->t.up[x] >= 0 && merged(wr, wr->t.up[x], &c) && c == x)
		x = wr->t.up[x];
	return wr->t.up[x] < 0 ? -1 : written_in(wr, wr->t.up[x]);
}

/*
 * Whether MuJoCo 2.2.2 keeps the bodies of links a and b apart by itself
 * in the file written: bodies welded together, and a body and its
 * parent's, neither welded to the world. A mocap body counts as welded to
 * itself, never as a parent: a pair is left to MuJoCo only where it is
 * kept apart whichever MuJoCo does.
 */
static bool
mujoco_filters(const struct writer *wr, int a, int b)
{
	int wa = weld_of(wr, a), wb = weld_of(wr, b);

	if (wa == wb)
		return true;
	if (wa < 0 || wb < 0 || is_mocap(wr, wa) || is_mocap(wr, wb))
		return false;
	return wa == weld_of(wr, body_parent(wr, wb)) ||
	    wb == weld_of(wr, body_parent(wr, wa));
}

/* <contact> opened before its first element. */
static void
open_contact(struct writer *wr, bool *open)
{
	if (!*open)
		phys_buf_puts(wr->b, "  <contact>\n");
	*open = true;
}

/* The links a and b kept apart as an <exclude>, but where MuJoCo's
 * filter keeps them apart in the file written. */
static void
put_exclude(struct writer *wr, bool *open, int a, int b)
{
	const struct phys_scene *w = wr->w;

	a = written_in(wr, a);
	b = written_in(wr, b);
	if (a == b || mujoco_filters(wr, a, b))
		return;
	open_contact(wr, open);
	phys_buf_puts(wr->b, "    <exclude body1=\"");
	phys_buf_xml_attr(wr->b, a < 0 ? "world" : own_name(wr,
	    w->links[a].name));
	phys_buf_puts(wr->b, "\" body2=\"");
	phys_buf_xml_attr(wr->b, b < 0 ? "world" : own_name(wr,
	    w->links[b].name));
	phys_buf_puts(wr->b, "\"/>\n");
}

struct welded_put {
	struct writer *wr;
	bool *open;
};

static void
put_welded(int a, int b, void *arg)
{
	struct welded_put *p = arg;

	/* a pair an exclusion names too is written with them */
	if (!phys_excludes_listed(p->wr->w, a, b))
		put_exclude(p->wr, p->open, a, b);
}

/* The pairs kept apart (an MJCF model's <exclude>s, what its filter
 * kept apart that the written tree does not, and the two links of a
 * joint closing a loop, which phys keeps apart as it keeps any joint's
 * but an MJCF equality's, and MuJoCo lets touch) as <exclude>s. */
static void
put_excludes(struct writer *wr, bool *open)
{
	const struct phys_scene *w = wr->w;
	int64_t n = (int64_t)w->nlinks;
	struct welded_put p = { wr, open };
	const struct phys_joint *j;
	size_t i;
	int a, b;

	for (i = 0; i < w->nexcluded; i++)
		if (!i || w->excluded[i] != w->excluded[i - 1]) {
			phys_pair_split(w->excluded[i], n, &a, &b);
			put_exclude(wr, open, a, b);
		}
	phys_excludes_each_welded(w, put_welded, &p);
	for (i = 0; i < w->njoints; i++) {
		j = &w->joints[i];
		if ((wr->t.loop[i] || wr->t.tie[i]) &&
		    phys_joint_keeps_apart(j) &&
		    !phys_excludes_listed(w, j->parent, j->child))
			put_exclude(wr, open, j->parent, j->child);
	}
}

/* The world's collision pairs (pairs.h) as <pair>s of their surfaces
 * (surface_of). */
static void
put_pairs(struct writer *wr, bool *open)
{
	const struct phys_scene *w = wr->w;
	size_t i;

	for (i = 0; i < w->npairs; i++) {
		struct mj_surface s = surface_of(w->pairs[i].vals);

		open_contact(wr, open);
		phys_buf_puts(wr->b, "    <pair geom1=\"");
		phys_buf_xml_attr(wr->b, geom_name(wr,
		    &w->collisions[w->pairs[i].c1]));
		phys_buf_puts(wr->b, "\" geom2=\"");
		phys_buf_xml_attr(wr->b, geom_name(wr,
		    &w->collisions[w->pairs[i].c2]));
		phys_buf_printf(wr->b, "\" condim=\"%d\"", s.condim);
		phys_mjcf_nums(wr->b, "friction", s.fr, 5);
		phys_mjcf_nums(wr->b, "solref", s.soft.solref, 2);
		phys_mjcf_nums(wr->b, "solimp", s.soft.solimp, 5);
		put_margin(wr->b, w->pairs[i].vals);
		phys_buf_puts(wr->b, "/>\n");
	}
}

static void
put_contact(struct writer *wr)
{
	bool open = false;

	put_excludes(wr, &open);
	put_pairs(wr, &open);
	if (open)
		phys_buf_puts(wr->b, "  </contact>\n");
}

/* ---- actuators ---- */

/* What of actuator a MuJoCo's cannot do, said once at its plugin. */
static void
warn_actuator(const struct phys_scene *w, const struct phys_mjcf_actuator *a,
    const char *what, double v)
{
	phys_warnat(a->file, phys_node_line(a->plugin), "the servo of joint "
	    "'%s': its %s, %g, is not written: %s", w->joints[a->joint].name,
	    what, v, a->kind == PHYS_MJCF_POSITION ? "MuJoCo's position "
	    "servo has a proportional and a derivative gain" : "MuJoCo's "
	    "velocity servo has a proportional gain");
}

/* A control's bounds c, where it has any, shifted by off (a position
 * servo's targets from phys's measure to MuJoCo's qpos). */
static void
put_ctrlrange(struct phys_buf *b, const double c[2], double off)
{
	if (!phys_has_lower(c[0]) && !phys_has_upper(c[1]))
		return;
	phys_buf_puts(b, " ctrllimited=\"true\"");
	phys_mjcf_nums(b, "ctrlrange", (double[2]){ fmax(c[0] + off,
	    -PHYS_NO_LIMIT), fmin(c[1] + off, PHYS_NO_LIMIT) }, 2);
}

/* Its force's bounds, where the system has any. */
static void
put_forcerange(struct phys_buf *b, const struct phys_mjcf_actuator *a)
{
	if (!phys_has_lower(a->fmin) && !phys_has_upper(a->fmax))
		return;
	phys_buf_puts(b, " forcelimited=\"true\"");
	phys_mjcf_nums(b, "forcerange", (double[2]){ fmax(a->fmin, -PHYS_NO_LIMIT),
	    fmin(a->fmax, PHYS_NO_LIMIT) }, 2);
}

/*
 * Actuator a: a motor of gear 1 (its control the force), a position
 * servo (a general one of bias -kp q - kd qdot when the PID has a
 * derivative gain: gz-math's PID on a still target), or a velocity servo
 * of the PID's proportional gain.
 */
static void
put_actuator(struct writer *wr, const struct phys_mjcf_actuator *a)
{
	const struct phys_joint *j = &wr->w->joints[a->joint];
	struct phys_buf *b = wr->b;
	const char *tag = a->kind == PHYS_MJCF_MOTOR ? "motor" :
	    a->kind == PHYS_MJCF_VELOCITY ? "velocity" :
	    a->kd != 0 ? "general" : "position";
	double start;

	phys_buf_printf(b, "    <%s joint=\"", tag);
	phys_buf_xml_attr(b, own_name(wr, j->name));
	phys_buf_puts(b, a->axis ? "_axis2\"" : "\"");
	if (a->kind == PHYS_MJCF_MOTOR)
		phys_buf_puts(b, " gear=\"1\"");
	else if (a->kind == PHYS_MJCF_VELOCITY)
		phys_mjcf_nums(b, "kv", &a->kp, 1);
	else if (a->kd == 0)
		phys_mjcf_nums(b, "kp", &a->kp, 1);
	else {
		phys_mjcf_nums(b, "gainprm", &a->kp, 1);
		phys_buf_puts(b, " biastype=\"affine\"");
		phys_mjcf_nums(b, "biasprm", (double[3]){ 0, -a->kp, -a->kd },
		    3);
	}
	put_forcerange(b, a);
	put_ctrlrange(b, a->ctrl, a->kind == PHYS_MJCF_POSITION ?
	    phys_mjcf_joint_ref(j, a->axis) : 0);
	phys_buf_puts(b, "/>\n");
	if (a->ki != 0)
		warn_actuator(wr->w, a, "integral gain", a->ki);
	if (a->slewed)
		warn_actuator(wr->w, a, "slew limit", a->slew);
	if (a->kd != 0 && a->kind == PHYS_MJCF_VELOCITY)
		warn_actuator(wr->w, a, "derivative gain", a->kd);
	/* a servo's target in MuJoCo's measure, from the joint's ref */
	start = a->target + (a->kind == PHYS_MJCF_POSITION ?
	    phys_mjcf_joint_ref(j, a->axis) : 0);
	if (start != 0)
		phys_warnat(a->file, phys_node_line(a->plugin), "the %s of "
		    "joint '%s': its command at the start, %g, is not "
		    "written: MuJoCo's controls start at 0", a->kind ==
		    PHYS_MJCF_MOTOR ? "motor" : "servo", j->name, start);
}

/* Tendon t's length in MuJoCo's measure less its length in phys's: each
 * joint at its ref, written, where phys has it at 0. */
static double
mujoco_length(const struct writer *wr, const struct phys_mjcf_tendon *t)
{
	double d = -t->offset;
	size_t k;

	for (k = 0; k < t->n; k++)
		d += t->coef[k] * phys_mjcf_joint_ref(
		    &wr->w->joints[t->joints[k]], 0);
	return d;
}

/* A spring's stiffness and damping, and its rest length in MuJoCo's
 * measure, which MuJoCo reads as its length at qpos_spring when it is
 * negative: such a one is named. */
static void
put_spring(struct writer *wr, const struct phys_mjcf_actuator *a)
{
	const struct phys_mjcf_tendon *t = &a->tendon;
	double rest = t->spring + mujoco_length(wr, t);

	phys_mjcf_nums(wr->b, "stiffness", &t->stiffness, 1);
	phys_mjcf_nums(wr->b, "damping", &t->damping, 1);
	if (rest >= 0)
		phys_mjcf_nums(wr->b, "springlength", &rest, 1);
	else
		phys_warnat(a->file, phys_node_line(a->plugin), "the spring "
		    "of tendon '%s': its rest length, %g, is not written: "
		    "MuJoCo reads a negative one as the length at its joints' "
		    "springref", t->name ? t->name : "", rest);
}

/* The name actuator i's tendon is written by: its own, unless an
 * actuator before it took it (then with the actuator's number), or
 * tendonN. */
static void
put_tendon_name(struct phys_buf *b, const struct phys_mjcf_actuator *acts,
    size_t i)
{
	const char *name = acts[i].tendon.name;
	size_t k;

	for (k = 0; name && k < i; k++)
		if (is_tendon(&acts[k]) && acts[k].tendon.name &&
		    strcmp(acts[k].tendon.name, name) == 0)
			break;
	if (name && k == i)
		phys_buf_xml_attr(b, name);
	else
		phys_buf_printf(b, "%s%s%zu", name ? name : "tendon",
		    name ? "_" : "", i);
}

/*
 * A mimic of several leaders: the fixed tendon follower - sum m_i
 * leader_i, named JOINT::mimic, which an equality holds (put_mimic); true
 * when written (the <tendon> opened first unless open).
 */
static bool
put_mimic_tendon(struct writer *wr, int ji, bool open)
{
	const struct phys_joint *j = &wr->w->joints[ji];
	const struct phys_mimic *m = &j->mimic;
	struct phys_buf *b = wr->b;
	double a = phys_mjcf_mimic_tendon_coef(j), c;
	int i;

	if (a == 0)
		return false;
	if (!open)
		phys_buf_puts(b, "  <tendon>\n");
	phys_buf_puts(b, "    <fixed name=\"");
	phys_buf_xml_attr(b, own_name(wr, j->name));
	phys_buf_puts(b, "::mimic\">\n");
	for (i = -1; i < m->nleaders; i++) {
		phys_buf_puts(b, "      <joint joint=\"");
		phys_buf_xml_attr(b, own_name(wr, wr->w->joints[i < 0 ? ji :
		    m->lead[i].joint].name));
		phys_buf_putc(b, '"');
		c = i < 0 ? a : -a * m->lead[i].multiplier;
		phys_mjcf_nums(b, "coef", &c, 1);
		phys_buf_puts(b, "/>\n");
	}
	phys_buf_puts(b, "    </fixed>\n");
	return true;
}

/* A fixed tendon's n joints and their coefficients. */
static void
put_tendon_joints(struct writer *wr, const int *joints, const double *coef,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		phys_buf_puts(wr->b, "      <joint joint=\"");
		phys_buf_xml_attr(wr->b, own_name(wr,
		    wr->w->joints[joints[k]].name));
		phys_buf_putc(wr->b, '"');
		phys_mjcf_nums(wr->b, "coef", &coef[k], 1);
		phys_buf_puts(wr->b, "/>\n");
	}
}

/*
 * Limited tendon i (struct phys_tendon): a spatial one between its
 * sites, a fixed one of its joints, its range in MuJoCo's measure (a
 * fixed one's from the joints' ref, written), its limit's softness.
 */
static void
put_limited_tendon(struct writer *wr, size_t i)
{
	const struct phys_tendon *t = &wr->w->tendons[i];
	struct phys_buf *b = wr->b;
	struct phys_mjcf_tendon view = { .joints = t->joints,
		.coef = t->coef, .n = (size_t)t->njoints };
	double d = mujoco_length(wr, &view);
	const char *kind = t->njoints ? "fixed" : "spatial";
	int k;

	phys_buf_printf(b, "    <%s name=\"", kind);
	put_limit_name(wr, i);
	phys_buf_puts(b, "\" limited=\"true\"");
	phys_mjcf_nums(b, "range", (double[2]){ t->range[0] + d,
	    t->range[1] + d }, 2);
	phys_mjcf_nums(b, "solreflimit", t->solref, 2);
	phys_mjcf_nums(b, "solimplimit", t->solimp, 5);
	phys_mjcf_nums(b, "margin", &t->margin, 1);
	phys_buf_puts(b, ">\n");
	put_tendon_joints(wr, t->joints, t->coef, (size_t)t->njoints);
	for (k = 0; !t->njoints && k < 2; k++) {
		phys_buf_puts(b, "      <site site=\"");
		put_limit_name(wr, i);
		phys_buf_printf(b, "::end%d\"/>\n", k);
	}
	phys_buf_printf(b, "    </%s>\n", kind);
}

/* The fixed tendons the actuators pull, one each, and the springs. */
static void
put_tendons(struct writer *wr)
{
	const struct phys_mjcf_tendon *t;
	struct phys_buf *b = wr->b;
	size_t i;
	bool any = false;

	for (i = 0; i < wr->nacts; i++) {
		if (!is_tendon(&wr->acts[i]))
			continue;
		if (!any)
			phys_buf_puts(b, "  <tendon>\n");
		any = true;
		t = &wr->acts[i].tendon;
		phys_buf_puts(b, "    <fixed name=\"");
		put_tendon_name(b, wr->acts, i);
		phys_buf_putc(b, '"');
		if (wr->acts[i].kind == PHYS_MJCF_SPRING)
			put_spring(wr, &wr->acts[i]);
		phys_buf_puts(b, ">\n");
		put_tendon_joints(wr, t->joints, t->coef, t->n);
		phys_buf_puts(b, "    </fixed>\n");
	}
	for (i = 0; i < wr->w->njoints; i++)
		if (put_mimic_tendon(wr, (int)i, any))
			any = true;
	for (i = 0; i < wr->w->ntendons; i++) {
		if (!any)
			phys_buf_puts(b, "  <tendon>\n");
		any = true;
		put_limited_tendon(wr, i);
	}
	if (any)
		phys_buf_puts(b, "  </tendon>\n");
}

/*
 * A general actuator's gain, bias, ranges and dynamics, a tendon's or a
 * site's, ending its element. A filter taken exactly over a step (a later
 * MuJoCo's filterexact, which 2.2.2 lacks) is written as 2.2.2's filter
 * of the time constant that moves as far in a step h of the written
 * model: h / (1 - exp(-h / tau)).
 */
static void
put_force_law(struct writer *wr, const struct phys_mjcf_actuator *a,
    const double bias[3])
{
	const struct phys_mjcf_tendon *t = &a->tendon;
	double h = PVD(mujoco_profile(wr->w), PHYSICS_max_step_size);
	double tau = t->dyn == PHYS_DYN_FILTEREXACT ?
	    h / -expm1(-h / t->tau) : t->tau;
	struct phys_buf *b = wr->b;

	phys_mjcf_nums(b, "gainprm", &t->gain, 1);
	phys_buf_puts(b, " biastype=\"affine\"");
	phys_mjcf_nums(b, "biasprm", bias, 3);
	put_ctrlrange(b, t->ctrl, 0);
	put_forcerange(b, a);
	if (t->dyn != PHYS_DYN_NONE)
		phys_buf_puts(b, t->dyn == PHYS_DYN_INTEGRATOR ?
		    " dyntype=\"integrator\"" : " dyntype=\"filter\"");
	if (t->dyn == PHYS_DYN_FILTER || t->dyn == PHYS_DYN_FILTEREXACT)
		phys_mjcf_nums(b, "dynprm", &tau, 1);
	if (t->dyn != PHYS_DYN_NONE && (phys_has_lower(t->act[0]) ||
	    phys_has_upper(t->act[1]))) {
		phys_buf_puts(b, " actlimited=\"true\"");
		phys_mjcf_nums(b, "actrange", (double[2]){ fmax(t->act[0],
		    -PHYS_NO_LIMIT), fmin(t->act[1], PHYS_NO_LIMIT) }, 2);
	}
	phys_buf_puts(b, "/>\n");
}

/*
 * An actuator of a tendon: a general one of its gain and bias, the
 * bias's constant taking the tendon's length from phys's zero positions
 * to MuJoCo's qpos (the joints' ref written).
 */
static void
put_tendon_actuator(struct writer *wr, size_t i)
{
	const struct phys_mjcf_actuator *a = &wr->acts[i];
	const struct phys_mjcf_tendon *t = &a->tendon;
	struct phys_buf *b = wr->b;
	double bias[3] = { t->bias[0], t->bias[1], t->bias[2] };

	bias[0] -= t->bias[1] * mujoco_length(wr, t);
	phys_buf_puts(b, "    <general tendon=\"");
	put_tendon_name(b, wr->acts, i);
	phys_buf_putc(b, '"');
	put_force_law(wr, a, bias);
}

/* An actuator of a site: a general one of its gear, gain and bias (its
 * length 0, as MuJoCo's site transmission has it). */
static void
put_site_actuator(struct writer *wr, size_t i)
{
	const struct phys_mjcf_actuator *a = &wr->acts[i];
	const struct phys_mjcf_tendon *t = &a->tendon;
	struct phys_buf *b = wr->b;

	phys_buf_puts(b, "    <general site=\"");
	put_site_name(wr, i);
	phys_buf_putc(b, '"');
	phys_mjcf_nums(b, "gear", a->site.gear, 6);
	put_force_law(wr, a, t->bias);
}

static void
put_actuators(struct writer *wr)
{
	size_t i, n = 0;

	put_tendons(wr);
	for (i = 0; i < wr->nacts; i++) {
		if (wr->acts[i].kind == PHYS_MJCF_SPRING)
			continue;
		if (n++ == 0)
			phys_buf_puts(wr->b, "  <actuator>\n");
		if (wr->acts[i].kind == PHYS_MJCF_TENDON)
			put_tendon_actuator(wr, i);
		else if (wr->acts[i].kind == PHYS_MJCF_SITE)
			put_site_actuator(wr, i);
		else
			put_actuator(wr, &wr->acts[i]);
	}
	if (n)
		phys_buf_puts(wr->b, "  </actuator>\n");
}

/* ---- the model ---- */

void
phys_mjcf_mesh(struct phys_buf *b, const char *name,
    const struct phys_mesh *m)
{
	size_t k;

	phys_buf_puts(b, "<mesh name=\"");
	phys_buf_xml_attr(b, name);
	phys_buf_puts(b, "\" vertex=\"");
	for (k = 0; k < 3 * m->nv; k++) {
		if (k)
			phys_buf_putc(b, ' ');
		put_num(b, m->v[k]);
	}
	phys_buf_puts(b, "\" face=\"");
	for (k = 0; k < 3 * m->ntri; k++)
		phys_buf_printf(b, k ? " %u" : "%u", m->tri[k]);
	phys_buf_puts(b, "\"/>\n");
}

/*
 * Whether MuJoCo 2.2.2 reads a mesh file: OBJ, its own MSH, and binary
 * STL (its STL reader takes no ASCII one).
 */
static bool
mujoco_reads(const char *path)
{
	const char *dot = strrchr(path, '.');
	unsigned char head[84];
	long size;
	FILE *f;
	bool ok;

	if (!dot || strchr(dot, '/'))
		return false;
	if (strcasecmp(dot, ".obj") == 0 || strcasecmp(dot, ".msh") == 0)
		return true;
	if (strcasecmp(dot, ".stl") != 0 || !(f = fopen(path, "rb")))
		return false;
	ok = fread(head, 1, sizeof head, f) == sizeof head &&
	    fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 84;
	fclose(f);
	/* a binary STL is 84 bytes and 50 a triangle, exactly */
	return ok && (unsigned long)size == 84 + 50ul * (head[80] |
	    head[81] << 8 | head[82] << 16 | (unsigned long)head[83] << 24);
}

/* The path of file (absolute) from directory dir (absolute), with ../
 * where they part. */
static char *
relative_to(const char *file, const char *dir)
{
	struct phys_buf b = { 0 };
	size_t i = 0, common = 0, dlen = strlen(dir);
	const char *p;

	while (file[i] && file[i] == dir[i]) {
		if (file[i] == '/')
			common = i + 1;
		i++;
	}
	if (!dir[i] && file[i] == '/')
		common = i + 1;
	else if (!dir[i] && !file[i])
		common = i;
	/* dir whole, file below it: common is past dir's end */
	for (p = dir + (common < dlen ? common : dlen); *p; p++)
		if (p == dir + common || p[-1] == '/')
			phys_buf_puts(&b, "../");
	phys_buf_puts(&b, file + common);
	return b.s ? b.s : phys_xstrdup(file);
}

/* Where the written file finds the mesh file path: beside the file written
 * (-o), else by its absolute path. */
static char *
mesh_ref(const struct writer *wr, const char *path)
{
	char abs[PATH_MAX], dir[PATH_MAX], *slash, *copy;

	if (!realpath(path, abs))
		return NULL;
	if (!wr->out)
		return phys_xstrdup(abs);
	copy = phys_xstrdup(wr->out);
	slash = strrchr(copy, '/');
	if (slash)
		*(slash == copy ? slash + 1 : slash) = '\0';
	if (!realpath(slash ? copy : ".", dir)) {
		free(copy);
		return phys_xstrdup(abs);
	}
	free(copy);
	return strcmp(dir, "/") == 0 ? phys_xstrdup(abs + 1) :
	    relative_to(abs, dir);
}

/* A mesh asset of the file at path (taken) MuJoCo reads, with its
 * scale; false when MuJoCo cannot read it. */
static bool
put_mesh_file(struct writer *wr, const char *name, char *path,
    const double scale[3])
{
	char *ref;

	if (!path || !mujoco_reads(path) || !(ref = mesh_ref(wr, path))) {
		free(path);
		return false;
	}
	free(path);
	phys_buf_puts(wr->b, "<mesh name=\"");
	phys_buf_xml_attr(wr->b, name);
	phys_buf_puts(wr->b, "\" file=\"");
	phys_buf_xml_attr(wr->b, ref);
	phys_buf_putc(wr->b, '"');
	if (scale[0] != 1 || scale[1] != 1 || scale[2] != 1)
		phys_mjcf_nums(wr->b, "scale", scale, 3);
	phys_buf_puts(wr->b, "/>\n");
	free(ref);
	return true;
}

/* Heightmap collision ci, of a file MuJoCo reads (hfield_readable), as
 * the hfield h<ci> (phys_heightmap_mujoco_size: its samples' range spans
 * the field's elevation, as MuJoCo's), its file named from the file
 * written (as read, where it is gone since). */
static void
put_hfield(struct writer *wr, int ci)
{
	const struct phys_heightmap *hm = wr->w->collisions[ci].heightmap;
	char *ref = mesh_ref(wr, hm->path);
	double size[4];

	if (!ref)
		ref = phys_xstrdup(hm->path);
	phys_heightmap_mujoco_size(hm, size);
	phys_buf_printf(wr->b, "    <hfield name=\"h%d\" file=\"", ci);
	phys_buf_xml_attr(wr->b, ref);
	phys_buf_putc(wr->b, '"');
	phys_mjcf_nums(wr->b, "size", size, 4);
	phys_buf_puts(wr->b, "/>\n");
	free(ref);
}

static void
open_assets(struct writer *wr, bool *open)
{
	if (!*open)
		phys_buf_puts(wr->b, "  <asset>\n");
	*open = true;
}

/* Each visual's mesh file MuJoCo reads, as v<i> (the others are left
 * out: a visual mesh is not loaded, its triangles not at hand). */
static void
put_visual_meshes(struct writer *wr, bool *any)
{
	size_t mark, i;
	double scale[3];
	char name[32];
	bool was;

	for (i = 0; i < wr->w->nvisuals; i++) {
		if (!phys_child(phys_child(wr->w->visuals[i].node, "geometry"),
		    "mesh"))
			continue;
		mark = wr->b->len;
		was = *any;
		open_assets(wr, any);
		snprintf(name, sizeof name, "v%zu", i);
		phys_buf_puts(wr->b, "    ");
		wr->vis_mesh[i] = put_mesh_file(wr, name,
		    phys_visual_mesh_file(&wr->w->visuals[i], scale), scale);
		if (!wr->vis_mesh[i]) {
			wr->b->len = mark;
			wr->b->s[mark] = '\0';
			*any = was;
		}
	}
}

/* Each mesh geom's file where MuJoCo reads it, else its triangles, as
 * loaded (scale applied); each heightmap's PNG MuJoCo reads. */
static void
put_assets(struct writer *wr)
{
	const struct phys_scene *w = wr->w;
	char name[32], *path;
	double scale[3];
	size_t i;
	bool any = false;

	for (i = 0; i < w->ncollisions; i++) {
		const struct phys_collision *c = &w->collisions[i];
		const struct phys_mesh *m = c->mesh;

		if (c->shape == PHYS_GEOM_HEIGHTMAP && hfield_readable(c)) {
			open_assets(wr, &any);
			put_hfield(wr, (int)i);
		}
		if ((c->shape != PHYS_GEOM_MESH && c->shape !=
		    PHYS_GEOM_CONE) || !m)
			continue;
		open_assets(wr, &any);
		snprintf(name, sizeof name, "m%zu", i);
		phys_buf_puts(wr->b, "    ");
		path = phys_collision_mesh_file(c, scale);
		if (!put_mesh_file(wr, name, path, scale))
			phys_mjcf_mesh(wr->b, name, m);
	}
	put_visual_meshes(wr, &any);
	if (any)
		phys_buf_puts(wr->b, "  </asset>\n");
}

/* MuJoCo's profile (mujoco_profile): its step, the world's gravity, the
 * MuJoCo block's solver settings; the medium m, if any. */
static void
put_option(struct writer *wr, const struct phys_mjcf_medium *m)
{
	const struct phys_scene *w = wr->w;
	const struct phys_value *v = mujoco_profile(w);
	double ts = PVD(v, PHYSICS_max_step_size);

	phys_buf_puts(wr->b, "  <option");
	phys_mjcf_nums(wr->b, "timestep", &ts, 1);
	put_vec(wr->b, "gravity", PVV(w->vals, WORLD_gravity));
	phys_buf_printf(wr->b, " integrator=\"%s\" solver=\"%s\" "
	    "iterations=\"%ld\"", PVS(v, PHYSICS_mujoco_integrator),
	    PVS(v, PHYSICS_mujoco_solver), PVI(v, PHYSICS_mujoco_iterations));
	phys_mjcf_nums(wr->b, "tolerance", &PVD(v, PHYSICS_mujoco_tolerance), 1);
	phys_buf_printf(wr->b, " noslip_iterations=\"%ld\"",
	    PVI(v, PHYSICS_mujoco_noslip_iterations));
	phys_mjcf_nums(wr->b, "noslip_tolerance",
	    &PVD(v, PHYSICS_mujoco_noslip_tolerance), 1);
	phys_buf_printf(wr->b, " cone=\"%s\"", PVS(v, PHYSICS_mujoco_cone));
	phys_mjcf_nums(wr->b, "impratio", &PVD(v, PHYSICS_mujoco_impratio), 1);
	if (!PVB(v, PHYSICS_mujoco_eulerdamp))
		phys_warn("mujoco.eulerdamp=false is left out: MuJoCo 2.2.2 has "
		    "no such flag, and takes joint damping into its Euler step "
		    "implicitly");
	if (m) {
		phys_mjcf_nums(wr->b, "density", &m->density, 1);
		phys_mjcf_nums(wr->b, "viscosity", &m->viscosity, 1);
		phys_mjcf_nums(wr->b, "wind", m->wind, 3);
	}
	if (PVB(v, PHYSICS_mujoco_multiccd))
		phys_buf_puts(wr->b, ">\n    <flag multiccd=\"enable\"/>\n"
		    "  </option>\n");
	else
		phys_buf_puts(wr->b, "/>\n");
}

int
phys_mjcf_write(const struct phys_scene *w,
    const struct phys_mjcf_actuator *acts, size_t n,
    const struct phys_mjcf_medium *medium, const char *out,
    struct phys_buf *b)
{
	struct writer wr = { w, b, { NULL, NULL, NULL, NULL, NULL }, out, acts, n,
		NULL, NULL, NULL, NULL, NULL };
	int rc;

	wr.t.holder = phys_xcalloc(w->nlinks + 1, sizeof *wr.t.holder);
	wr.t.up = phys_xcalloc(w->nlinks + 1, sizeof *wr.t.up);
	wr.t.free = phys_xcalloc(w->nlinks + 1, sizeof *wr.t.free);
	wr.t.loop = phys_xcalloc(w->njoints + 1, sizeof *wr.t.loop);
	wr.t.tie = phys_xcalloc(w->njoints + 1, sizeof *wr.t.tie);
	wr.scope = one_model_scope(w);
	wr.own_geom = own_geom_names(w);
	group_visuals(&wr);
	if ((rc = plan_tree(&wr)) == 0) {
		/* a robot's model is its own; a world of models, the world's */
		phys_buf_puts(b, "<mujoco model=\"");
		if (*wr.scope) {
			char *m = phys_xstrdup(wr.scope);

			m[strlen(m) - 2] = '\0';
			phys_buf_xml_attr(b, m);
			free(m);
		} else {
			phys_buf_xml_attr(b, w->name ? w->name : "phys");
		}
		phys_buf_putc(b, '"');
		/* every mass as written: MuJoCo computes none and bounds
		 * none, and fuses no static body into its parent */
		phys_buf_puts(b, ">\n  <compiler angle=\"radian\" "
		    "inertiafromgeom=\"false\" boundmass=\"0\" "
		    "boundinertia=\"0\" balanceinertia=\"false\" "
		    "fusestatic=\"false\"/>\n");
		put_option(&wr, medium);
		/* what the bodies leave out, a warning an element: one
		 * line a kind */
		phys_warn_batch_begin();
		put_assets(&wr);
		phys_buf_puts(b, "  <worldbody>\n");
		rc = put_children(&wr, -1, 2);
		put_tendon_sites(&wr, -1, 2);
		phys_buf_puts(b, "  </worldbody>\n");
		phys_warn_batch_end();
		put_contact(&wr);
		put_equalities(&wr);
		put_actuators(&wr);
		phys_mjcf_write_keys(w, &wr.t, acts, n, b);
		phys_buf_puts(b, "</mujoco>\n");
	}
	free(wr.vis_first);
	free(wr.vis_order);
	free(wr.vis_mesh);
	free(wr.t.holder);
	free(wr.t.up);
	free(wr.t.free);
	free(wr.t.loop);
	free(wr.t.tie);
	free(wr.scope);
	free(wr.own_geom);
	return rc;
}
