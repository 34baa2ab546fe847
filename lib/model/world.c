/* world.c - build the world model from an SDF document. */
#include "world.h"

#include "file.h"
#include "fuel.h"
#include "include_edit.h"
#include "sets.h"
#include "inertia_world.h"
#include "spec.h"
#include "excludes.h"
#include "meshscan.h"
#include "pairs.h"
#include "touch.h"
#include "mjcf.h"
#include "mjcf_defaults.h"
#include "urdf.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MODEL_DEPTH 64	/* models inside models, includes too */

/* ---- scoped name index: open addressing, names owned by the entities ---- */

struct phys_name_slot {
	const char *name;
	int kind, idx;
};

struct phys_name_index {
	struct phys_name_slot *slots;
	size_t cap, n;
};

static void index_put(struct phys_name_index *ix, const char *name, int kind,
    int idx);

static void
index_grow(struct phys_name_index *ix)
{
	struct phys_name_slot *old = ix->slots;
	size_t i, oldcap = ix->cap;

	ix->cap = oldcap ? oldcap * 2 : 256;
	ix->slots = phys_xcalloc(ix->cap, sizeof *ix->slots);
	ix->n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].name)
			index_put(ix, old[i].name, old[i].kind, old[i].idx);
	free(old);
}

/*
 * Returns false when the name is already taken: by any entity, or with
 * per_kind (SDF up to 1.6, where a link and a joint may share a name) by
 * an entity of the same kind.
 */
static bool
index_add_kind(struct phys_name_index *ix, const char *name, int kind, int idx,
    bool per_kind)
{
	size_t i;

	if ((ix->n + 1) * 2 > ix->cap)
		index_grow(ix);
	for (i = phys_name_hash(name) & (ix->cap - 1); ix->slots[i].name;
	    i = (i + 1) & (ix->cap - 1))
		if (strcmp(ix->slots[i].name, name) == 0 &&
		    (!per_kind || ix->slots[i].kind == kind))
			return false;
	ix->slots[i].name = name;
	ix->slots[i].kind = kind;
	ix->slots[i].idx = idx;
	ix->n++;
	return true;
}

static void
index_put(struct phys_name_index *ix, const char *name, int kind, int idx)
{
	(void)index_add_kind(ix, name, kind, idx, true);
}

/* The entity of a kind with that name (names may repeat across kinds). */
static const struct phys_name_slot *
index_get_kind(const struct phys_name_index *ix, const char *name, int kind)
{
	size_t i;

	if (!ix || !ix->cap)
		return NULL;
	for (i = phys_name_hash(name) & (ix->cap - 1); ix->slots[i].name;
	    i = (i + 1) & (ix->cap - 1))
		if (strcmp(ix->slots[i].name, name) == 0 &&
		    ix->slots[i].kind == kind)
			return &ix->slots[i];
	return NULL;
}

static const struct phys_name_slot *
index_get(const struct phys_name_index *ix, const char *name)
{
	size_t i;

	if (!ix || !ix->cap)
		return NULL;
	for (i = phys_name_hash(name) & (ix->cap - 1); ix->slots[i].name;
	    i = (i + 1) & (ix->cap - 1))
		if (strcmp(ix->slots[i].name, name) == 0)
			return &ix->slots[i];
	return NULL;
}

/* ---- loader state ---- */

/* A <frame> of a model read already, for scoped names into it (SDF 1.8:
 * relative_to="inner::frame"). */
struct named_frame {
	char *name;		/* scoped: "robot::inner::frame" */
	phys_pose pose;		/* in the world */
	int link;		/* the link it is attached to, -1 the world */
};

struct loader {
	struct phys_scene *w;
	const struct phys_load_options *opt;
	size_t capmodels, caplinks, capcols, capjoints, capvisuals;
	int depth;		/* models inside models */
	int include_depth;	/* includes inside includes */
	struct named_frame *frames;
	size_t nframes, capframes;
	struct phys_name_table frame_names;	/* frames by scoped name */
	struct scope *world;	/* the world's <frame>s; NULL: none read */
	/* opt->partial: the includes left out, and where the first was */
	size_t missing;
	char *missing_uri, *missing_file;
	long missing_line;
	size_t skipped;		/* collisions dropped by skip_unsupported */
	struct scope *scope;	/* the model being read, for nested models'
				 * poses; NULL between models */
};

static const struct named_frame *
named_frame(const struct loader *L, const char *scoped)
{
	int i = phys_name_table_find(&L->frame_names, scoped);

	return i < 0 ? NULL : &L->frames[i];
}

static const char *
named_frame_name(size_t i, const void *L)
{
	return ((const struct loader *)L)->frames[i].name;
}

/* The world pose of what a scoped name names among the entities read so
 * far: a model, link or joint, or a model's <frame>; false for none. */
static bool
loaded_frame(const struct loader *L, const char *scoped, phys_pose *out)
{
	const struct phys_scene *w = L->w;
	const struct phys_name_slot *slot = index_get(w->index, scoped);
	const struct named_frame *nf;

	if (slot && slot->kind == PHYS_K_MODEL)
		*out = w->models[slot->idx].pose;
	else if (slot && slot->kind == PHYS_K_LINK)
		*out = w->links[slot->idx].pose;
	else if (slot && slot->kind == PHYS_K_JOINT)
		*out = w->joints[slot->idx].pose;
	else if (!slot && (nf = named_frame(L, scoped)))
		*out = nf->pose;
	else
		return false;
	return true;
}

static int
fail_node(struct phys_doc *d, xmlNodePtr n, const char *fmt, const char *arg)
{
	return phys_failat(PHYS_AT(d, n), fmt, arg);
}

/* A world's count of what at n is within its limit (sdf.h); count is
 * what it holds before n adds one more. */
static int
within_limit(struct phys_doc *d, xmlNodePtr n, size_t count, size_t max,
    const char *what)
{
	if (count < max)
		return 0;
	return phys_failat(PHYS_AT(d, n), "more than %zu %s in "
	    "the world: the limit (LIMITS in phys(7))", max, what);
}

static void
warn_node(struct loader *L, struct phys_doc *d, xmlNodePtr n, const char *msg,
    const char *arg)
{
	char text[512];

	if (L->opt->quiet)
		return;
	snprintf(text, sizeof text, msg, arg);
	phys_warnat(PHYS_AT(d, n), "%s", text);
}


/*
 * SDF 1.10 writes an absent joint limit as inf (-inf for lower); 1.9
 * wrote -1e16, 1e16 and -1, which are still the defaults here and mean
 * the same: no limit.
 */
static const char *
no_limit_text(const struct phys_param *p, const char *text)
{
	const char *t = text + (*text == '+' || *text == '-');

	if (strstr(p->name, ".limit.") && (strcmp(t, "inf") == 0 ||
	    strcmp(t, "infinity") == 0) &&
	    (strstr(p->name, ".limit.lower") ? *text == '-' : *text != '-'))
		return p->def;
	return text;
}

bool
phys_pose_has_attributes(xmlNodePtr e)
{
	return xmlHasProp(e, (const xmlChar *)"degrees") ||
	    xmlHasProp(e, (const xmlChar *)"rotation_format");
}

/* A pose parameter written in degrees or as a quaternion, as six numbers. */
static int
pose_value(struct phys_doc *d, xmlNodePtr e, struct phys_value *v)
{
	phys_pose p;

	if (phys_pose_element(d, e, &p) < 0)
		return -1;
	phys_pose_to6(p, v->u.pose);
	v->given = true;
	return 0;
}

/*
 * A link's mass of 0 is valid SDF (libsdformat needs mass >= 0): the file
 * keeps it and the engine, which cannot move a body without mass, says
 * once what it runs instead. A user who sets 0 is still refused.
 */
static int
zero_mass_kept(xmlNodePtr e, struct phys_value *v)
{
	char *text = phys_node_text(e);
	double x;
	int rc = -1;

	if (phys_parse_double(text, &x) && x == 0) {
		memset(v, 0, sizeof *v);
		v->given = true;
		rc = 0;
	}
	free(text);
	return rc;
}

bool
phys_param_kept_outside_range(const struct phys_param *p)
{
	/* vectors: a shape's size of 0, which ODE takes */
	return (p->scope == PHYS_S_COLLISION || p->scope == PHYS_S_JOINT) &&
	    (p->type == PHYS_T_DOUBLE || p->type == PHYS_T_INT ||
	    p->type == PHYS_T_VEC3);
}

/*
 * A surface or joint value outside phys's range that the specification
 * does not forbid (collide_bitmask 65536, max_vel -1 in Gazebo's own
 * worlds) is kept as written, with a warning: libsdformat loads such
 * files, and the engine does what Gazebo does with them.
 */
static bool
is_moment(const struct phys_param *p)
{
	return p->id == PHYS_P_LINK_inertial_inertia_ixx ||
	    p->id == PHYS_P_LINK_inertial_inertia_iyy ||
	    p->id == PHYS_P_LINK_inertial_inertia_izz;
}

/* Value text parsed without a range into v: 0, or -1. */
static int
parse_open(const struct phys_param *p, const char *text,
    struct phys_value *v)
{
	struct phys_param open = *p;

	open.min = PHYS_NOMIN;
	open.max = PHYS_NOMAX;
	memset(v, 0, sizeof *v);
	return phys_value_parse(&open, text, v);
}

/*
 * A moment of inertia below 0 (iCub's -5.42101e-20, a rounding of 0)
 * is refused, as libsdformat finds such an inertia invalid, but kept for
 * phys-inertia, which says what is wrong with it and fixes it.
 */
static int
moment_kept(struct loader *L, xmlNodePtr e, const struct phys_param *p,
    struct phys_value *v)
{
	char *text;
	int rc;

	if (!L->opt->inertia_as_written) {
		text = phys_xstrdup(phys_error());
		phys_fail("%s (phys-inertia check and fix take it)", text);
		free(text);
		return -1;
	}
	text = phys_node_text(e);
	rc = parse_open(p, text, v);
	free(text);
	return rc;
}

static int
out_of_range_kept(struct loader *L, struct phys_doc *d, xmlNodePtr e,
    const struct phys_param *p, struct phys_value *v)
{
	char *text, *why;

	if (p->id == PHYS_P_LINK_inertial_mass)
		return zero_mass_kept(e, v);
	if (is_moment(p))
		return moment_kept(L, e, p, v);
	if (!phys_param_kept_outside_range(p))
		return -1;
	text = phys_node_text(e);
	if (parse_open(p, text, v) < 0) {
		free(text);
		return -1;
	}
	why = PHYS_MIN_ABOVE_ZERO(p) ? phys_xasprintf("<%s> %s is not above 0; "
	    "kept as written%s", (const char *)e->name, text,
	    strncmp(p->name, "geometry.", 9) == 0 ? " (ODE lets such a "
	    "shape pass through the ground, Bullet collides it as a point; "
	    "DART, MuJoCo and Simbody refuse it)" : "") :
	    phys_xasprintf("<%s> %s is outside %g..%g; kept as written",
	    (const char *)e->name, text, p->min, p->max);
	if (!L->opt->quiet)
		phys_warnat(PHYS_AT(d, e), "%s", why);
	free(why);
	free(text);
	return 0;
}

const char *
phys_param_leading(const struct phys_param *p, const char *text, char *num,
    const char **what)
{
	int kind = p->type == PHYS_T_INT ? PHYS_LEAD_INT :
	    p->type == PHYS_T_DOUBLE ? PHYS_LEAD_NUMBER :
	    p->type == PHYS_T_VEC3 ? PHYS_LEAD_VECTOR3 : -1;

	if (kind < 0)
		return NULL;
	if (what)
		*what = phys_leading_what(kind);
	return phys_leading_as_sdformat(text, kind, num);
}

/*
 * A value written with more after it ("10.0" for an integer, "1.5\"" for
 * a number), read as libsdformat reads it, with a warning; -1 (its error
 * kept) when it is no such one.
 */
static int
leading_as_sdformat(struct loader *L, struct phys_doc *d, xmlNodePtr e,
    const struct phys_param *p, struct phys_value *v)
{
	char *text = phys_node_text(e), num[PHYS_LEADING_MAX];
	const char *part, *what;
	int rc = -1;

	if ((part = phys_param_leading(p, text, num, &what))) {
		memset(v, 0, sizeof *v);
		if ((rc = phys_value_parse(p, part, v)) == 0 &&
		    !L->opt->quiet)
			phys_warnat(PHYS_AT(d, e), PHYS_LEADING_AS_SDFORMAT,
			    (const char *)e->name, text,
			    (const char *)e->name, part, what);
	}
	free(text);
	return rc;
}

/* An element with no text but blanks: libsdformat keeps its default. */
static bool
blank(xmlNodePtr e)
{
	struct phys_text t;
	bool empty = *phys_node_text_tmp(e, &t) == '\0';

	phys_text_done(&t);
	return empty;
}

/* Element e's text as parameter p's value into *val. */
static int
read_value(struct loader *L, struct phys_doc *d, xmlNodePtr e,
    const struct phys_param *p, struct phys_value *val)
{
	struct phys_value v;
	struct phys_text t;
	int rc;

	memset(&v, 0, sizeof v);
	if (p->type != PHYS_T_STRING && blank(e))
		return 0;	/* libsdformat: the default */
	if (p->type == PHYS_T_POSE && phys_pose_has_attributes(e)) {
		rc = pose_value(d, e, &v);
		if (rc < 0)
			return -1;
	} else {
		rc = phys_value_parse(p, no_limit_text(p,
		    phys_node_text_tmp(e, &t)), &v);
		phys_text_done(&t);
	}
	if (rc < 0)
		rc = leading_as_sdformat(L, d, e, p, &v);
	if (rc < 0 && out_of_range_kept(L, d, e, p, &v) == 0)
		rc = 0;
	if (rc < 0)
		return phys_fail_again(PHYS_AT(d, e), "");
	phys_value_free(val);
	*val = v;
	return 0;
}

/*
 * The parameters under tree node k, from the elements under at: each
 * element is looked for once in the names' tree, and a name's element is
 * the first of its name under its parent's (seen marks the nodes met), as
 * a lookup from the entity down would find it.
 */
static int
read_tree(struct loader *L, struct phys_doc *d, xmlNodePtr at, int k,
    phys_scope s, struct phys_value *vals, unsigned char *seen)
{
	const struct phys_name_node *t = phys_scope_tree(s);
	const char *name;
	xmlNodePtr c;
	int i;

	for (c = at->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		name = (const char *)c->name;
		for (i = t[k].child; i >= 0; i = t[i].next)
			if (t[i].part[0] == name[0] &&
			    strcmp(t[i].part, name) == 0)
				break;
		if (i < 0 || seen[i])
			continue;
		seen[i] = 1;
		if (t[i].param >= 0 && read_value(L, d, c,
		    phys_scope_param(s, (size_t)t[i].param),
		    &vals[t[i].param]) < 0)
			return -1;
		if (t[i].child >= 0 &&
		    read_tree(L, d, c, i, s, vals, seen) < 0)
			return -1;
	}
	return 0;
}

/* Read every parameter of a scope under owner, in one walk. */
static int
read_values(struct loader *L, struct phys_doc *d, xmlNodePtr owner,
    phys_scope s, struct phys_value *vals)
{
	unsigned char seen[PHYS_NAME_TREE_MAX] = { 0 };

	return owner ? read_tree(L, d, owner, 0, s, vals, seen) : 0;
}

/*
 * An entity's values, in the world's arena: a large world's 20,000
 * arrays cost no allocation each, and are freed with the world at once.
 */
static struct phys_value *
entity_values_new(struct phys_scene *w, phys_scope s)
{
	struct phys_value *v = phys_arena_alloc(&w->values,
	    phys_scope_count(s) * sizeof *v);

	phys_values_init(s, v, NULL);
	return v;
}

/* ---- profiles ---- */

static int read_profile_gravity(struct loader *L, struct phys_profile *p);

/* A whole <physics> element into a profile; node NULL: the implicit one. */
static int
read_profile(struct loader *L, struct phys_profile *p, struct phys_doc *doc,
    xmlNodePtr node)
{
	char *def;
	bool b = false;

	memset(p, 0, sizeof *p);
	p->doc = doc;
	p->node = node;
	p->vals = phys_values_new(PHYS_S_PHYSICS);
	p->name = node ? phys_node_attr(node, "name") : NULL;
	if (!p->name)
		p->name = phys_xstrdup("default_physics");
	p->type = node ? phys_node_attr(node, "type") : NULL;
	if (!p->type)
		p->type = phys_xstrdup("ode");
	p->gz_placeholder = strcmp(p->type, "ignored") == 0 ||
	    strcmp(p->type, "ignore") == 0 || strcmp(p->type, "none") == 0;
	if (!node)
		return 0;
	def = phys_node_attr(node, "default");
	if (def && !phys_parse_bool(def, &b)) {
		free(def);
		return fail_node(doc, node,
		    "<physics name=\"%s\">: default is not true or false",
		    p->name);
	}
	free(def);
	p->marked_default = b;
	if (read_profile_gravity(L, p) < 0)
		return -1;
	return read_values(L, doc, node, PHYS_S_PHYSICS, p->vals);
}

void
phys_profile_free(struct phys_profile *p)
{
	phys_values_free(PHYS_S_PHYSICS, p->vals);
	free(p->name);
	free(p->type);
	free(p->gz_plugin);
	memset(p, 0, sizeof *p);
}

/* SDF before 1.6 kept gravity inside <physics>; later files at <world>,
 * and libsdformat ignores one left in <physics>. */
static int
read_profile_gravity(struct loader *L, struct phys_profile *p)
{
	xmlNodePtr e = phys_child(p->node, "gravity");
	double v[3];
	char *text;
	int n;

	if (!e)
		return 0;
	if (p->doc->major > 1 || p->doc->minor >= 6) {
		/* libsdformat reads it only in files before 1.6 */
		if (!L->opt->quiet)
			phys_warnat(PHYS_AT(p->doc, e), "<gravity> "
			    "in <physics> is SDF 1.5's: in an SDF %d.%d file "
			    "libsdformat and Gazebo ignore it, and so does phys "
			    "(the world's <gravity> applies)", p->doc->major,
			    p->doc->minor);
		return 0;
	}
	text = phys_node_text(e);
	n = phys_parse_doubles(text, v, 3);
	free(text);
	if (n != 3)
		return fail_node(p->doc, e, "%s", "<gravity>: expected 3 numbers");
	p->has_gravity = true;
	p->gravity = v3(v[0], v[1], v[2]);
	return 0;
}

/* The one rule for it: a profile's <gravity> applies while the world
 * gives none of its own. The loaded world shows its starting profile's;
 * a run's values follow the profile the run is in. */
static void
fold_legacy_gravity(const struct phys_profile *p, struct phys_value *world)
{
	if (PV(world, WORLD_gravity)->given || !p->has_gravity)
		return;
	PVV(world, WORLD_gravity) = p->gravity;
}

/*
 * gz-sim's physics system: <plugin filename="gz-sim-physics-system"> (or
 * ignition-gazebo-physics-system, as a library name or not), NULL when
 * the world has none.
 */
static xmlNodePtr
gz_physics_system(xmlNodePtr world)
{
	xmlNodePtr n;
	char *file;
	bool physics;

	for (n = phys_child(world, "plugin"); n; n = phys_next(n, "plugin")) {
		file = phys_node_attr(n, "filename");
		physics = file && strstr(file, "physics-system");
		free(file);
		if (physics)
			return n;
	}
	return NULL;
}

/*
 * gz-physics gives DART ODE's collision detector unless the profile's
 * <dart><collision_detector> says (SDF's default is FCL's): a profile of
 * a world gz-sim runs, on DART by its type, its physics plugin
 * (gz-physics-dartsim-plugin) or gz-sim's default.
 */
const char *
phys_profile_gz_type(const struct phys_profile *p)
{
	return p->gz_plugin ? phys_gz_engine_type(p->gz_plugin) : "dart";
}

void
phys_profile_gz_detector(struct phys_profile *p)
{
	struct phys_value *v = PV(p->vals, PHYSICS_dart_collision_detector);
	const char *runs = p->gz_placeholder ? phys_profile_gz_type(p) :
	    p->type;
	bool dart = runs && strcmp(runs, "dart") == 0;

	if (!(p->gz_placeholder || p->gz_system) || !dart || v->given)
		return;
	free(v->s);
	v->s = phys_xstrdup("ode");
}

/*
 * gz-sim reads no <physics type>: it runs the engine its physics system's
 * <engine><filename> names (gz-physics-NAME-plugin, ignition-physics in
 * older releases, a library name with a version in newer ones; which
 * engine a NAME is, engines.def says: phys_gz_engine_type), else
 * DART. A world without <physics> runs so under its physics system; a
 * profile that writes an engine's type runs that engine in phys, and the
 * run says what gz-sim would run. gz-physics gives DART ODE's collision
 * detector unless the profile's <dart><collision_detector> says.
 */
static void
read_gz_engines(struct phys_scene *w)
{
	xmlNodePtr sys = gz_physics_system(w->node);
	xmlNodePtr e = phys_child(phys_child(sys, "engine"), "filename");
	char *file = e ? phys_node_text(e) : NULL;
	struct phys_profile *p;
	size_t k;

	for (k = 0; k < w->nprofiles; k++) {
		p = &w->profiles[k];
		p->gz_system = sys;
		if (!p->node && sys)
			p->gz_placeholder = true;
		if (file)
			p->gz_plugin = phys_xstrdup(file);
		phys_profile_gz_detector(p);
	}
	free(file);
}

static int
choose_start(struct phys_scene *w, const struct phys_load_options *opt)
{
	size_t i;

	w->start = 0;
	for (i = 0; i < w->nprofiles; i++)
		if (w->profiles[i].marked_default)
			break;
	if (i == w->nprofiles)
		return 0;
	w->start = (int)i;
	for (i++; i < w->nprofiles; i++)
		if (w->profiles[i].marked_default && !opt->quiet)
			phys_warnat(PHYS_AT(&w->doc,
			    w->profiles[i].node),
			    "profile '%s' is also marked default; '%s', the "
			    "first so marked, is the default",
			    w->profiles[i].name, w->profiles[w->start].name);
	return 0;
}

static int
read_profiles(struct loader *L)
{
	struct phys_scene *w = L->w;
	struct phys_doc *wd = phys_world_doc(w);
	struct phys_profile *p;
	xmlNodePtr n;
	size_t i;

	for (n = phys_child(w->node, "physics"); n; n = phys_next(n, "physics")) {
		w->profiles = phys_xrealloc(w->profiles,
		    (w->nprofiles + 1) * sizeof *w->profiles);
		p = &w->profiles[w->nprofiles++];
		/* an MJCF model's <option>, copied into its host world, is
		 * of the model's converted document, whose files its lines
		 * name (an <option> of an included file's) */
		if (read_profile(L, p, w->host && w->model_doc ?
		    w->model_doc : wd, n) < 0)
			return -1;
		for (i = 0; i + 1 < w->nprofiles; i++)
			if (strcmp(w->profiles[i].name, p->name) == 0)
				return fail_node(wd, n, p->node &&
				    !xmlHasProp(n, (const xmlChar *)"name") ?
				    "a second unnamed <physics> block ('%s')" :
				    "a second <physics> profile named '%s'",
				    p->name);
	}
	if (w->nprofiles == 0) {
		w->profiles = phys_xcalloc(1, sizeof *w->profiles);
		w->nprofiles = 1;
		read_profile(L, &w->profiles[0], wd, NULL);
	}
	read_gz_engines(w);
	return choose_start(w, L->opt);
}

int
phys_world_profile(const struct phys_scene *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nprofiles; i++)
		if (strcmp(w->profiles[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* "a, b, c": the profile names, for messages; caller frees. */
static char *
profile_names(const struct phys_scene *w)
{
	struct phys_buf b = { 0 };
	size_t i;

	for (i = 0; i < w->nprofiles; i++) {
		if (i)
			phys_buf_puts(&b, ", ");
		phys_buf_puts(&b, w->profiles[i].name);
	}
	phys_buf_reserve(&b, 0);
	return b.s;
}

int
phys_world_find_profile(const struct phys_scene *w, const char *name)
{
	int profile = phys_world_profile(w, name);
	char *names;

	if (profile < 0) {
		names = profile_names(w);
		phys_fail("no profile named '%s' (there are: %s)", name, names);
		free(names);
	}
	return profile;
}

/* The model whose entities a model's are: itself, or for a merged
 * include the model it was merged into. */
static int
owner_model(const struct phys_scene *w, int mi)
{
	while (w->models[mi].merged && w->models[mi].parent >= 0)
		mi = w->models[mi].parent;
	return mi;
}

/* The scope a model's entities are named in; NULL for the world's. */
static const char *
scope_prefix(const struct phys_scene *w, int mi)
{
	return mi < 0 ? NULL : w->models[owner_model(w, mi)].name;
}

const char *
phys_model_scope(const struct phys_scene *w, int mi)
{
	return scope_prefix(w, mi);
}

/* ---- poses and frames ---- */

/* A frame a pose may be relative to, within one model's scope or the
 * world's. */
struct frame {
	const char *name;
	xmlNodePtr node;	/* the element owning the <pose> */
	char *relative_to;	/* NULL: the element's default */
	phys_pose local;	/* as written, relative to relative_to */
	int state;		/* 0 new, 1 resolving, 2 done */
	phys_pose world;
	int attach;		/* its chain of attached_to: ATTACH_* */
	int link_state;		/* 0 new, 1 walking, 2 link found */
	int link;		/* the link it is attached to; -1 the world */
	int into;		/* its poses' chain into a nested model:
				 * INTO_* */
};

enum { INTO_NEW, INTO_WALKING, INTO_NO, INTO_YES };

enum { ATTACH_NEW, ATTACH_WALKING, ATTACH_DONE };

struct scope {
	struct loader *L;
	struct phys_doc *doc;
	int model;		/* index in w->models; -1: the world's scope,
				 * its <frame>s, naming models by name */
	struct frame *frames;
	size_t nframes, capframes;
	struct phys_name_table names;	/* frames by name, the first of each */
};

/*
 * A <pose> as a transform: x y z roll pitch yaw in radians, or in degrees
 * with degrees="true" (SDF 1.9+), or x y z qx qy qz qw with
 * rotation_format="quat_xyzw". An empty <pose> is the identity.
 */
int
phys_pose_element(struct phys_doc *d, xmlNodePtr e, phys_pose *out)
{
	bool attrs = phys_pose_has_attributes(e);	/* seldom: no copies else */
	char *fmt = attrs ? phys_node_attr(e, "rotation_format") : NULL;
	char *deg = attrs ? phys_node_attr(e, "degrees") : NULL;
	bool quat = fmt && strcmp(fmt, "quat_xyzw") == 0, degrees = false;
	double v[7];
	struct phys_text t;
	int n, want = quat ? 7 : 6, rc = 0;

	*out = PHYS_POSE_IDENTITY;
	if (fmt && !quat && strcmp(fmt, "euler_rpy") != 0)
		rc = fail_node(d, e, "<pose>: unknown rotation_format '%s' "
		    "(euler_rpy or quat_xyzw)", fmt);
	else if (deg && !phys_parse_bool(deg, &degrees))
		rc = fail_node(d, e, "<pose>: degrees is '%s', not true or "
		    "false", deg);
	else if (quat && degrees)
		rc = fail_node(d, e, "%s", "<pose>: degrees=\"true\" does not "
		    "apply to rotation_format=\"quat_xyzw\"");
	free(fmt);
	free(deg);
	if (rc < 0)
		return -1;
	n = phys_parse_doubles(phys_node_text_tmp(e, &t), v, want);
	phys_text_done(&t);
	if (n == 0)
		return 0;
	if (n != want)
		return fail_node(d, e, "%s", quat ? "<pose>: expected 7 numbers "
		    "(x y z qx qy qz qw)" : "<pose>: expected 6 numbers "
		    "(x y z roll pitch yaw)");
	if (!quat) {
		for (n = 3; n < 6 && degrees; n++)
			v[n] *= M_PI / 180;
		*out = phys_pose_from6(v);
		return 0;
	}
	out->p = v3(v[0], v[1], v[2]);
	out->q.x = v[3], out->q.y = v[4], out->q.z = v[5], out->q.w = v[6];
	if (v[3] == 0 && v[4] == 0 && v[5] == 0 && v[6] == 0)
		return fail_node(d, e, "%s", "<pose>: the quaternion is zero");
	out->q = phys_quat_normalize(out->q);
	return 0;
}

char *
phys_pose_relative_to(const struct phys_doc *d, xmlNodePtr pose)
{
	char *rel = phys_node_attr(pose, "relative_to");

	/* SDF 1.6 wrote frame="F", which libsdformat 9 reads as relative_to */
	if (!rel && d->major == 1 && d->minor <= 6)
		rel = phys_node_attr(pose, "frame");
	/* an empty one is none, as libsdformat has it: the default frame
	 * (a joint's child, a frame's attached_to), not the model's */
	if (rel && !*rel) {
		free(rel);
		rel = NULL;
	}
	return rel;
}

/* The <pose> child of owner and its relative_to (NULL when not given). */
static int
read_pose(struct phys_doc *d, xmlNodePtr owner, phys_pose *out, char **rel)
{
	xmlNodePtr e = phys_child(owner, "pose");

	*out = PHYS_POSE_IDENTITY;
	if (rel)
		*rel = NULL;
	if (!e)
		return 0;
	if (phys_pose_element(d, e, out) < 0)
		return -1;
	if (rel)
		*rel = phys_pose_relative_to(d, e);
	return 0;
}

static struct frame *
scope_frame(struct scope *sc, const char *name)
{
	int i = phys_name_table_find(&sc->names, name);

	return i < 0 ? NULL : &sc->frames[i];
}

static const char *
frame_name_of(size_t i, const void *sc)
{
	return ((const struct scope *)sc)->frames[i].name;
}

static const char *
default_relative_to(xmlNodePtr n, char **owned)
{
	*owned = NULL;
	if (phys_node_is(n, "joint")) {
		*owned = phys_node_text(phys_child(n, "child"));
		return *owned;
	}
	if (phys_node_is(n, "frame")) {
		*owned = phys_node_attr(n, "attached_to");
		if (*owned && **owned)
			return *owned;
	}
	return "";	/* the scope's own frame: its model's, or the world */
}

static char *
scoped_name(const char *parent, const char *name)
{
	size_t a, b;
	char *s;

	/* by hand: printf's cost shows on worlds of 10,000 models */
	if (!parent)
		return phys_xstrdup(name);
	a = strlen(parent);
	b = strlen(name);
	s = phys_xmalloc(a + b + 3);
	memcpy(s, parent, a);
	memcpy(s + a, "::", 2);
	memcpy(s + a + 2, name, b + 1);
	return s;
}

static int resolve_frame(struct scope *sc, struct frame *f, phys_pose *out);

/* Whether name is the scope's own frame: its model's, or the world. */
static bool
scope_itself(const struct scope *sc, const char *name)
{
	return *name == '\0' || strcmp(name, sc->model < 0 ? "world" :
	    "__model__") == 0;
}

/* The world pose of a frame named in this model's scope (or the
 * world's). */
static int
resolve_name(struct scope *sc, const char *name, xmlNodePtr at, phys_pose *out)
{
	struct phys_scene *w = sc->L->w;
	struct frame *f;
	char *scoped;
	bool found;

	if (scope_itself(sc, name)) {
		*out = sc->model < 0 ? PHYS_POSE_IDENTITY :
		    w->models[sc->model].pose;
		return 0;
	}
	if ((f = scope_frame(sc, name)))
		return resolve_frame(sc, f, out);
	/* "nested::link" names a frame of an already loaded nested model:
	 * a link, a joint, a <frame>, the model (or its __model__); the
	 * world's scope names a model, "model::link" and so on. */
	scoped = scoped_name(scope_prefix(w, sc->model), name);
	if (strlen(scoped) > 11 && strcmp(scoped + strlen(scoped) - 11,
	    "::__model__") == 0)
		scoped[strlen(scoped) - 11] = '\0';
	found = loaded_frame(sc->L, scoped, out);
	free(scoped);
	if (found)
		return 0;
	if (sc->model < 0)
		return fail_node(sc->doc, at, "no frame or model named '%s' in "
		    "the world (models are known once read)", name);
	return fail_node(sc->doc, at, "no frame named '%s' in this model", name);
}

/* The frame a frame's pose is relative to, when one of this scope; else
 * its base through resolve_name into *base, or -1. */
static struct frame *
frame_base(struct scope *sc, struct frame *f, phys_pose *base, int *rc)
{
	const char *rel;
	char *owned = NULL;
	struct frame *g = NULL;

	rel = f->relative_to ? f->relative_to : default_relative_to(f->node,
	    &owned);
	if (strcmp(rel, f->name) == 0 && !phys_node_is(f->node, "joint"))
		*rc = fail_node(sc->doc, f->node, "pose of '%s' is relative "
		    "to itself", f->name);
	else if (!*rel || strcmp(rel, "__model__") == 0 ||
	    !(g = scope_frame(sc, rel)))
		*rc = resolve_name(sc, rel, f->node, base);
	free(owned);
	return g;
}

/*
 * A frame's world pose: its chain of frames in this scope walked without
 * recursion (however long a file makes it) to a frame resolved or to
 * what is no frame of the scope, then composed back along the chain.
 */
static int
resolve_frame(struct scope *sc, struct frame *f, phys_pose *out)
{
	struct frame **path = NULL, *g = f;
	size_t n = 0, cap = 0;
	phys_pose base = PHYS_POSE_IDENTITY;
	int rc = 0;

	while (rc == 0) {
		if (g->state == 2) {
			base = g->world;
			break;
		}
		if (g->state == 1) {
			rc = fail_node(sc->doc, g->node, "pose of '%s' is "
			    "relative to itself (a cycle)", g->name);
			break;
		}
		g->state = 1;
		PHYS_GROW(path, n, cap);
		path[n++] = g;
		if (!(g = frame_base(sc, g, &base, &rc)))
			break;
	}
	while (rc == 0 && n > 0) {
		g = path[--n];
		base = g->world = phys_pose_mul(base, g->local);
		g->state = 2;
	}
	free(path);
	if (rc == 0)
		*out = base;
	return rc < 0 ? -1 : 0;
}

static int
add_frames(struct scope *sc, const char *element)
{
	xmlNodePtr owner = sc->model < 0 ? sc->L->w->node :
	    sc->L->w->models[sc->model].node, n;
	struct frame *f;

	for (n = phys_child(owner, element); n; n = phys_next(n, element)) {
		PHYS_GROW(sc->frames, sc->nframes, sc->capframes);
		f = &sc->frames[sc->nframes++];
		memset(f, 0, sizeof *f);
		f->node = n;
		f->name = (const char *)xmlGetProp(n, (const xmlChar *)"name");
		phys_name_table_add(&sc->names, sc->nframes - 1);
		if (!f->name)
			return fail_node(sc->doc, n, "<%s> has no name", element);
		if (read_pose(sc->doc, n, &f->local, &f->relative_to) < 0)
			return -1;
	}
	return 0;
}

static void
scope_free(struct scope *sc)
{
	size_t i;

	for (i = 0; i < sc->nframes; i++) {
		xmlFree((xmlChar *)sc->frames[i].name);
		free(sc->frames[i].relative_to);
	}
	free(sc->frames);
	phys_name_table_free(&sc->names);
}

/* ---- entities ---- */

/* What entity kind idx is, and where it was written (NULL node: not
 * known). */
static const char *
entity_at(const struct phys_scene *w, int kind, int idx,
    struct phys_doc **doc, xmlNodePtr *node)
{
	*doc = NULL;
	*node = NULL;
	switch (kind) {
	case PHYS_K_LINK:
		*doc = w->links[idx].doc, *node = w->links[idx].node;
		return "link";
	case PHYS_K_JOINT:
		*doc = w->joints[idx].doc, *node = w->joints[idx].node;
		return "joint";
	case PHYS_K_COLLISION:
		*doc = w->collisions[idx].doc, *node = w->collisions[idx].node;
		return "collision";
	case PHYS_K_MODEL:
		*doc = w->models[idx].doc, *node = w->models[idx].node;
		return "model";
	default:
		return "frame";
	}
}

/* A name taken: by what, and where, when the index knows it. */
static int
name_taken(struct loader *L, struct phys_doc *d, xmlNodePtr n,
    const char *name, int kind)
{
	static const int kinds[] = { PHYS_K_LINK, PHYS_K_JOINT, PHYS_K_MODEL,
		PHYS_K_COLLISION };
	const struct phys_name_slot *s = index_get_kind(L->w->index, name,
	    kind);
	struct phys_doc *od;
	xmlNodePtr on;
	const char *what;
	size_t k;

	for (k = 0; !s && k < sizeof kinds / sizeof *kinds; k++)
		s = index_get_kind(L->w->index, name, kinds[k]);
	if (!s)
		return fail_node(d, n, "duplicate name '%s'", name);
	what = entity_at(L->w, s->kind, s->idx, &od, &on);
	if (!od || !on)
		return phys_failat(PHYS_AT(d, n), "duplicate name '%s': a %s "
		    "has it", name, what);
	if (s->kind == kind)
		return phys_failat(PHYS_AT(d, n), "duplicate name '%s': "
		    "another %s has it (%s:%ld)", name, what, PHYS_AT(od, on));
	return phys_failat(PHYS_AT(d, n), "duplicate name '%s': a %s has it "
	    "(%s:%ld), "
	    "and a model's links, joints and frames share one set of names "
	    "from SDF 1.7 on (a URDF's too, as libsdformat reads it)", name,
	    what, PHYS_AT(od, on));
}

static int
register_name(struct loader *L, struct phys_doc *d, xmlNodePtr n,
    const char *name, int kind, int idx)
{
	/* Up to SDF 1.6 names are unique per kind only. */
	bool per_kind = d->major == 1 && d->minor <= 6;

	if (!index_add_kind(L->w->index, name, kind, idx, per_kind))
		return name_taken(L, d, n, name, kind);
	return 0;
}

/*
 * Whether the parameter table reads what under g too (a shape's size, an
 * axis): where its text has more after the numbers, read_values has read
 * the leading part as libsdformat does and said so.
 */
static bool
tabled_size(xmlNodePtr g, const char *what)
{
	char name[128];
	bool axis = phys_node_is(g, "axis") || phys_node_is(g, "axis2");
	const struct phys_param *p;

	if (axis)
		snprintf(name, sizeof name, "%s.%s", (const char *)g->name,
		    what);
	else
		snprintf(name, sizeof name, "geometry.%s.%s",
		    (const char *)g->name, what);
	p = phys_param_find(axis ? PHYS_S_JOINT : PHYS_S_COLLISION, name);
	return p && strcmp(p->name, name) == 0;
}

static int
read_numbers(struct phys_doc *d, xmlNodePtr g, const char *what, double *out,
    int n, bool signed_ok)
{
	xmlNodePtr e = phys_child(g, what);
	const char *text, *def = NULL;
	char lead[PHYS_LEADING_MAX];
	struct phys_text t;
	int k;

	text = e ? phys_node_text_tmp(e, &t) : "";
	/* libsdformat gives an absent or empty element its default */
	if (!*text)
		def = phys_spec_default(d->major, d->minor,
		    (const char *)g->name, what);
	if (!*text && !def) {
		if (e)
			phys_text_done(&t);
		return fail_node(d, e ? e : g, e ? "<%s> is empty" :
		    "geometry has no <%s>", what);
	}
	k = phys_parse_doubles(def ? def : text, out, n);
	if (k != n && !def && tabled_size(g, what) && (n == 1 || n == 3) &&
	    phys_leading_as_sdformat(text, n == 1 ? PHYS_LEAD_NUMBER :
	    PHYS_LEAD_VECTOR3, lead))
		k = phys_parse_doubles(lead, out, n);
	if (e)
		phys_text_done(&t);
	if (k != n)
		return fail_node(d, e, "<%s>: wrong number of values", what);
	for (k = 0; k < n && !signed_ok; k++)
		if (out[k] < 0)
			return fail_node(d, e, "<%s>: negative size", what);
	return 0;
}

static int
geometry_size(struct phys_doc *d, xmlNodePtr g, const char *what, double *out,
    int n)
{
	int k;

	if (read_numbers(d, g, what, out, n, false) < 0)
		return -1;
	for (k = 0; k < n; k++)
		if (!(out[k] <= PHYS_SIZE_MAX))
			return phys_failat(PHYS_AT(d, phys_child(g, what)),
			    "<%s>: %g m is beyond the largest shape phys runs "
			    "(%g m)", what, out[k], PHYS_SIZE_MAX);
	return 0;
}

/* ---- meshes, polylines, ellipsoids and heightmaps ---- */

static char *find_resource(const char *uri, const char *doc_path,
    bool want_dir);

/* What a URI that names nothing found says, in one line: the places
 * searched (Fuel's caches for a Fuel URI: phys downloads nothing). The
 * caller frees it. */
static char *
not_found_text(const char *what, const char *uri)
{
	/* model:// is looked for in model paths, then above the file */
	bool file = strcmp(what, "file") == 0 &&
	    strncmp(uri, "model://", 8) != 0;
	char *caches, *s;

	if (strncmp(uri, "package://", 10) == 0)
		return phys_xasprintf("cannot find %s '%s' (searched "
		    "ROS_PACKAGE_PATH, AMENT_PREFIX_PATH's share/, "
		    "GAZEBO_MODEL_PATH and the directories above the file)",
		    what, uri);
	if (!phys_fuel_uri(uri))
		return phys_xasprintf("cannot find %s '%s' (searched%s "
		    "GAZEBO_MODEL_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH, "
		    "IGN_GAZEBO_RESOURCE_PATH%s)", what, uri, file ?
		    " next to the file, the current directory, then" : "", file ?
		    " and GAZEBO_RESOURCE_PATH" : strncmp(uri, "model://", 8) ==
		    0 ? " and the directories above the file" : "");
	caches = phys_fuel_caches();
	s = phys_xasprintf("cannot find %s '%s': not in the Fuel cache "
	    "(searched %s); phys downloads nothing ('gz fuel download -u URL' "
	    "caches it)", what, uri,
	    *caches ? caches : "no cache: HOME and GZ_FUEL_CACHE_PATH unset");
	free(caches);
	return s;
}

static int
not_found(struct phys_doc *d, xmlNodePtr at, const char *what,
    const char *uri)
{
	char *msg = not_found_text(what, uri);
	int rc = phys_failat(PHYS_AT(d, at), "%s", msg);

	free(msg);
	return rc;
}

/* The file a geometry's <uri> names, or an error at the <uri>. */
static char *
geometry_file(struct phys_doc *d, xmlNodePtr s)
{
	xmlNodePtr e = phys_child(s, "uri");
	char *uri, *path;

	if (!e) {
		fail_node(d, s, "<%s> has no <uri>", (const char *)s->name);
		return NULL;
	}
	uri = phys_node_text(e);
	path = find_resource(uri, d->path, false);
	if (!path)
		not_found(d, e, "file", uri);
	free(uri);
	return path;
}

/* A library failure (no position) placed at element n. */
static int
fail_at_element(struct phys_doc *d, xmlNodePtr n)
{
	return phys_fail_again(PHYS_AT(d, n), "");
}

static bool
child_flag(xmlNodePtr n, const char *name)
{
	xmlNodePtr e = phys_child(n, name);
	char *t;
	bool b = false;

	if (!e)
		return false;
	t = phys_node_text(e);
	if (!phys_parse_bool(t, &b))
		b = false;
	free(t);
	return b;
}

/*
 * A mesh that cannot be found or read fails the load (its message already
 * given), unless --skip-unsupported asks to run without that collision:
 * worlds from model databases often name meshes not on this machine.
 * The message becomes a warning.
 */
static int
skip_mesh(struct loader *L, struct phys_doc *d, struct phys_collision *c,
    xmlNodePtr s)
{
	char *why;
	long line;

	if (!L->opt->skip_missing)
		return -1;
	why = phys_xstrdup(phys_error());
	if (!L->opt->quiet) {
		const char *file, *text = phys_error_at(&file, &line);

		phys_warnat(file, line, "%s; skipping collision '%s'", text,
		    c->name);
	}
	if (!L->w->links[c->link].lost)
		L->w->links[c->link].lost = why;
	else
		free(why);
	c->mesh = NULL;
	L->skipped++;
	return 0;
}

/*
 * SDF 1.11's <mesh optimization>: "convex_hull" collides the convex hull
 * of the mesh's vertices (c->hull), as gz-physics does and as MuJoCo
 * collides every mesh; a convex decomposition is not made, and the
 * mesh's triangles collide, said so.
 */
static int
read_optimization(struct loader *L, struct phys_doc *d,
    struct phys_collision *c, xmlNodePtr s)
{
	char *how = phys_node_attr(s, "optimization");

	if (!how || !*how) {
		free(how);
		return 1;
	}
	if (strcmp(how, "convex_hull") == 0) {
		c->hull = phys_mesh_cache_hull(&L->w->meshes, c->mesh);
		if (!c->hull)
			phys_warnat(PHYS_AT(d, s), "collision '%s': %s; it "
			    "collides as its triangles", c->name,
			    phys_error());
	} else {
		phys_warnat(PHYS_AT(d, s), "collision '%s': optimization "
		    "\"%s\" is not done (phys makes \"convex_hull\" only); "
		    "the mesh collides as its triangles", c->name, how);
	}
	free(how);
	return 1;
}

/*
 * A mesh's <phys:rule>: whose reading of its file, Gazebo's (the
 * default: every object of an OBJ) or MuJoCo's (an MJCF mesh's: an OBJ's
 * first object only).
 */
static int
mesh_rule(struct phys_doc *d, xmlNodePtr s, bool *first_object)
{
	xmlNodePtr r = phys_child(s, "rule");
	char *v = r ? phys_node_text(r) : NULL;
	int rc = 0;

	*first_object = v && strcmp(v, "mujoco") == 0;
	if (r && !(v && (*first_object || strcmp(v, "gazebo") == 0)))
		rc = fail_node(d, r, "<rule>%s</rule>: gazebo or mujoco",
		    v ? v : "");
	free(v);
	return rc;
}

/* The numbers of <phys:name> under s, as many as a mesh may hold. */
static double *
node_list(struct phys_doc *d, xmlNodePtr s, const char *name, size_t *n)
{
	xmlNodePtr e = phys_child(s, name);
	char *text = e ? phys_node_text(e) : NULL;
	double *v;

	*n = 0;
	if (!e)
		return NULL;
	v = phys_parse_double_list(text, 3 * (size_t)PHYS_MESH_MAX_TRIANGLES,
	    n);
	free(text);
	if (!v)
		phys_failat(PHYS_AT(d, e), "<%s>: numbers expected, at most %u "
		    "triangles' worth", name, PHYS_MESH_MAX_TRIANGLES);
	return v;
}

/*
 * A mesh given by its lists, <phys:vertices> and <phys:faces> (an MJCF
 * mesh's attributes; no faces: the vertices' convex hull), made once for
 * its element.
 */
static int
read_mesh_lists(struct loader *L, struct phys_doc *d,
    struct phys_collision *c, xmlNodePtr s, const double *scale)
{
	size_t nv, nf = 0;
	double *v = node_list(d, s, "vertices", &nv), *f = NULL;
	struct phys_mesh *m = NULL;

	if (phys_child(s, "uri"))
		fail_node(d, s, "%s", "<mesh> has both <uri> and "
		    "<phys:vertices>: one or the other");
	else if (v && (!phys_child(s, "faces") ||
	    (f = node_list(d, s, "faces", &nf))) &&
	    !(m = phys_mesh_of_lists(v, nv, f, nf, v3(scale[0], scale[1],
	    scale[2]))))
		phys_fail_again(PHYS_AT(d, s), "<mesh>: ");
	free(v);
	free(f);
	if (!m)
		return -1;
	c->shape = PHYS_GEOM_MESH;
	c->mesh = phys_mesh_cache_keep(&L->w->meshes, m);
	return read_optimization(L, d, c, s);
}

static int
read_mesh(struct loader *L, struct phys_doc *d, struct phys_collision *c,
    xmlNodePtr s)
{
	struct phys_mesh_spec spec = { 0 };
	xmlNodePtr sub = phys_child(s, "submesh"), e;
	double scale[3] = { 1, 1, 1 };
	char *name = NULL, *path;

	if (phys_child(s, "scale") &&
	    read_numbers(d, s, "scale", scale, 3, true) < 0)
		return -1;
	if (scale[0] == 0 || scale[1] == 0 || scale[2] == 0)
		return fail_node(d, phys_child(s, "scale"), "%s",
		    "<scale>: a zero factor flattens the mesh");
	if (phys_child(s, "vertices"))
		return read_mesh_lists(L, d, c, s, scale);
	if (phys_child(s, "faces"))
		return fail_node(d, phys_child(s, "faces"), "%s",
		    "<phys:faces> without <phys:vertices>");
	if (sub && (e = phys_child(sub, "name")))
		name = phys_node_text(e);
	path = geometry_file(d, s);
	if (!path) {
		free(name);
		return skip_mesh(L, d, c, s);
	}
	spec.path = path;
	spec.submesh = name;
	spec.center = sub && child_flag(sub, "center");
	if (mesh_rule(d, s, &spec.first_object) < 0) {
		free(path);
		free(name);
		return -1;
	}
	spec.scale = v3(scale[0], scale[1], scale[2]);
	c->shape = PHYS_GEOM_MESH;
	c->mesh = phys_mesh_cache_get(&L->w->meshes, &spec);
	free(path);
	free(name);
	if (c->mesh && c->mesh->gltf && !L->opt->quiet)
		phys_warnat_once(PHYS_AT(d, s), "%s", PHYS_GLTF_AXES);
	if (c->mesh)
		return read_optimization(L, d, c, s);
	fail_at_element(d, s);
	return skip_mesh(L, d, c, s);
}

/* The file <mesh> s of d reads whole, and its scale; NULL for a submesh
 * or lists, or a file not found. */
static char *
mesh_file(struct phys_doc *d, xmlNodePtr s, double scale[3])
{
	char *t;

	if (!s || phys_child(s, "submesh") || !phys_child(s, "uri"))
		return NULL;
	scale[0] = scale[1] = scale[2] = 1;
	if (phys_child(s, "scale") &&
	    (t = phys_node_text(phys_child(s, "scale")))) {
		(void)phys_parse_doubles(t, scale, 3);
		free(t);
	}
	return geometry_file(d, s);
}

char *
phys_collision_mesh_file(const struct phys_collision *c, double scale[3])
{
	if (c->shape != PHYS_GEOM_MESH || !c->mesh)
		return NULL;
	return mesh_file(c->doc, phys_child(phys_child(c->node, "geometry"),
	    "mesh"), scale);
}

double
phys_link_stand_in_mass(const struct phys_scene *w, int li)
{
	int l = w->models[w->links[li].model].lightest;

	return PHYS_MASSLESS_SHARE * (l >= 0 ?
	    PVD(w->links[l].vals, LINK_inertial_mass) : 1);
}

bool
phys_collision_zero_size(const struct phys_collision *c)
{
	int n = c->shape == PHYS_GEOM_BOX ? 3 : c->shape == PHYS_GEOM_SPHERE ?
	    1 : c->shape == PHYS_GEOM_CYLINDER ||
	    c->shape == PHYS_GEOM_CAPSULE ? 2 : 0, k;

	for (k = 0; k < n; k++)
		if (!(c->size[k] > 0))
			return true;
	return false;
}

char *
phys_visual_mesh_file(const struct phys_visual *v, double scale[3])
{
	return mesh_file(v->doc, phys_child(phys_child(v->node, "geometry"),
	    "mesh"), scale);
}

/* Every <polyline> of the geometry, extruded: they share one height. */
static int
read_polylines(struct loader *L, struct phys_doc *d, struct phys_collision *c,
    xmlNodePtr s)
{
	double **xy = NULL, height = 1, h;
	size_t *np = NULL, n = 0, i, total = 0;
	struct phys_mesh *m = NULL;
	xmlNodePtr p, pt;
	int rc = 0;

	for (p = s; p && rc == 0; p = phys_next(p, "polyline")) {
		xy = phys_xrealloc(xy, (n + 1) * sizeof *xy);
		np = phys_xrealloc(np, (n + 1) * sizeof *np);
		xy[n] = NULL;
		np[n] = 0;
		n++;
		h = 1;
		if (phys_child(p, "height") &&
		    read_numbers(d, p, "height", &h, 1, false) < 0)
			rc = -1;
		else if (n > 1 && h != height)
			rc = fail_node(d, p, "%s", "the polylines of one "
			    "geometry must share one height");
		height = h;
		for (pt = phys_child(p, "point"); pt && rc == 0;
		    pt = phys_next(pt, "point")) {
			if (np[n - 1] >= 10000 || ++total > 10000)
				/* ear clipping is quadratic, holes cubic */
				rc = fail_node(d, pt, "%s", "more than 10000 "
				    "points in the polylines of one geometry");
			xy[n - 1] = phys_xrealloc(xy[n - 1],
			    (np[n - 1] + 1) * 2 * sizeof **xy);
			if (rc == 0) {
				char *t = phys_node_text(pt);

				if (phys_parse_doubles(t, xy[n - 1] +
				    2 * np[n - 1], 2) != 2)
					rc = fail_node(d, pt, "%s", "<point>: "
					    "two numbers wanted");
				free(t);
			}
			np[n - 1]++;
		}
	}
	if (rc == 0) {
		m = phys_mesh_extrude((const double *const *)xy, np, n, height);
		rc = m ? 0 : fail_at_element(d, s);
	}
	for (i = 0; i < n; i++)
		free(xy[i]);
	free(xy);
	free(np);
	if (rc < 0)
		return -1;
	c->shape = PHYS_GEOM_MESH;
	c->mesh = phys_mesh_cache_keep(&L->w->meshes, m);
	return 1;
}

/* A heightmap's <size> or <pos>: finite, and within the engines' reach. */
static int
terrain_numbers(struct phys_doc *d, xmlNodePtr s, const char *what,
    double *v, bool signed_ok)
{
	int k;

	if (read_numbers(d, s, what, v, 3, signed_ok) < 0)
		return -1;
	for (k = 0; k < 3; k++)
		if (!(fabs(v[k]) <= PHYS_REACH))
			return phys_failat(PHYS_AT(d,
			    phys_child(s, what)), "<%s>: %g is "
			    "beyond the %g m a terrain may reach", what, v[k],
			    PHYS_REACH);
	return 0;
}

/*
 * A heightmap's <phys:rule>: whose rules make heights of its image's
 * pixels, Gazebo's (the default) or MuJoCo's (an hfield's: any grid, its
 * samples' range spanning the height, as an MJCF model's is read), and
 * MuJoCo's <phys:base>, the solid below its lowest point (m).
 */
static int
heightmap_rule(struct phys_doc *d, xmlNodePtr s,
    struct phys_heightmap_rule *rule)
{
	xmlNodePtr r = phys_child(s, "rule");
	char *v = r ? phys_node_text(r) : NULL;
	int rc = 0;

	rule->mujoco = v && strcmp(v, "mujoco") == 0;
	rule->base = 0;
	if (r && !(v && (rule->mujoco || strcmp(v, "gazebo") == 0)))
		rc = fail_node(d, r, "<rule>%s</rule>: gazebo or mujoco",
		    v ? v : "");
	free(v);
	if (rc == 0 && phys_child(s, "base") && !rule->mujoco)
		rc = fail_node(d, phys_child(s, "base"), "%s", "<base>: the "
		    "solid MuJoCo keeps under a height field, by MuJoCo's "
		    "rule only (<rule>mujoco</rule>)");
	else if (rc == 0 && phys_child(s, "base"))
		rc = read_numbers(d, s, "base", &rule->base, 1, false);
	return rc;
}

static int
read_heightmap(struct loader *L, struct phys_doc *d, struct phys_collision *c,
    xmlNodePtr s)
{
	struct phys_heightmap_rule rule;
	double size[3] = { 1, 1, 1 }, pos[3] = { 0, 0, 0 }, v = 1;
	bool has_size = phys_child(s, "size") != NULL;
	char *path;

	if ((has_size && terrain_numbers(d, s, "size", size, false) < 0) ||
	    (phys_child(s, "pos") &&
	    terrain_numbers(d, s, "pos", pos, true) < 0) ||
	    (phys_child(s, "sampling") &&
	    read_numbers(d, s, "sampling", &v, 1, false) < 0))
		return -1;
	if (has_size && !(size[0] > 0 && size[1] > 0))
		return fail_node(d, phys_child(s, "size"), "%s",
		    "<size>: the extent along x and y must be positive");
	if (v != floor(v) || v < 1 || v > PHYS_HEIGHTMAP_MAX_SAMPLING)
		return fail_node(d, phys_child(s, "sampling"), "%s",
		    "<sampling>: a whole number from 1 to 16");
	if (heightmap_rule(d, s, &rule) < 0)
		return -1;
	/* Gazebo's ODE raises the terrain by pos.z and moves it no other
	 * way: the terrain stays centred on its collision's frame. */
	if ((pos[0] != 0 || pos[1] != 0) && !L->opt->quiet)
		phys_warnat(PHYS_AT(d, phys_child(s, "pos")),
		    "heightmap <pos> %g %g: only its z is applied, as Gazebo's "
		    "ODE does (move the terrain with the collision's <pose>)",
		    pos[0], pos[1]);
	pos[0] = pos[1] = 0;
	path = geometry_file(d, s);
	if (!path)
		return -1;
	c->heightmap = phys_heightmap_cache_get(&L->w->heightmaps, path, size,
	    has_size, pos, (int)v, &rule);
	free(path);
	if (!c->heightmap)
		return fail_at_element(d, s);
	c->shape = PHYS_GEOM_HEIGHTMAP;
	memcpy(c->size, c->heightmap->size, sizeof c->size);
	return 1;
}

static const struct phys_mesh *
cone_mesh(struct loader *L, double r, double length)
{
	return phys_mesh_cache_keep(&L->w->meshes, phys_mesh_cone(r, length));
}

/*
 * Returns 1 when the collision is kept, 0 when skipped (with a warning),
 * -1 on error.
 */
static int
read_geometry(struct loader *L, struct phys_doc *d, struct phys_collision *c,
    xmlNodePtr cn)
{
	xmlNodePtr g = phys_child(cn, "geometry"), s;
	double v[3];

	s = phys_child(g, NULL);
	if (!g || !s) {
		warn_node(L, d, g ? g : cn, "collision '%s' has no geometry, "
		    "which SDF requires: libsdformat reads it as <empty/>, "
		    "touching nothing, and so does phys", c->name);
		return 0;
	}
	if (phys_node_is(s, "box")) {
		c->shape = PHYS_GEOM_BOX;
		return geometry_size(d, s, "size", c->size, 3) < 0 ? -1 : 1;
	}
	if (phys_node_is(s, "sphere")) {
		c->shape = PHYS_GEOM_SPHERE;
		return geometry_size(d, s, "radius", c->size, 1) < 0 ? -1 : 1;
	}
	if (phys_node_is(s, "cylinder") || phys_node_is(s, "capsule")) {
		c->shape = phys_node_is(s, "cylinder") ? PHYS_GEOM_CYLINDER :
		    PHYS_GEOM_CAPSULE;
		if (geometry_size(d, s, "radius", &c->size[0], 1) < 0 ||
		    geometry_size(d, s, "length", &c->size[1], 1) < 0)
			return -1;
		return 1;
	}
	if (phys_node_is(s, "ellipsoid")) {
		c->shape = PHYS_GEOM_ELLIPSOID;
		if (geometry_size(d, s, "radii", c->size, 3) < 0)
			return -1;
		if (!(c->size[0] > 0 && c->size[1] > 0 && c->size[2] > 0))
			return fail_node(d, s, "%s", "<radii> must be positive");
		/* ODE has no ellipsoid: it collides as a polyhedron. */
		c->mesh = phys_mesh_cache_keep(&L->w->meshes,
		    phys_mesh_ellipsoid(c->size[0], c->size[1], c->size[2]));
		return 1;
	}
	if (phys_node_is(s, "cone")) {
		c->shape = PHYS_GEOM_CONE;
		if (geometry_size(d, s, "radius", &c->size[0], 1) < 0 ||
		    geometry_size(d, s, "length", &c->size[1], 1) < 0)
			return -1;
		if (!(c->size[0] > 0 && c->size[1] > 0))
			return fail_node(d, s, "%s", "<cone>: radius and length "
			    "must be positive");
		/* ODE has no cone: it collides as a pyramid of 32 sides */
		c->mesh = cone_mesh(L, c->size[0], c->size[1]);
		return 1;
	}
	if (phys_node_is(s, "mesh"))
		return read_mesh(L, d, c, s);
	if (phys_node_is(s, "polyline"))
		return read_polylines(L, d, c, s);
	if (phys_node_is(s, "heightmap"))
		return read_heightmap(L, d, c, s);
	if (phys_node_is(s, "plane")) {
		c->shape = PHYS_GEOM_PLANE;
		c->normal = v3(0, 0, 1);
		if (phys_child(s, "normal")) {
			if (read_numbers(d, s, "normal", v, 3, true) < 0)
				return -1;
			if (v[0] == 0 && v[1] == 0 && v[2] == 0)
				return fail_node(d, s, "%s",
				    "plane normal is zero");
			c->normal = v3_normalize(v3(v[0], v[1], v[2]));
		}
		return 1;
	}
	if (phys_node_is(s, "empty"))
		return 0;
	if (!L->opt->skip_unsupported)
		return phys_failat(PHYS_AT(d, s),
		    "collision '%s': <%s> geometry is not supported "
		    "(--skip-unsupported skips such collisions)", c->name,
		    (const char *)s->name);
	warn_node(L, d, s, "skipping collision with unsupported geometry: %s",
	    c->name);
	if (!L->w->links[c->link].lost)
		L->w->links[c->link].lost = phys_xasprintf("collision '%s': "
		    "<%s> geometry is not supported", c->name,
		    (const char *)s->name);
	L->skipped++;
	return 0;
}

/* SDF 1.11 <density> of a collision or an inertial: 0 when absent. */
static int
read_density(struct phys_doc *d, xmlNodePtr n, double *out)
{
	*out = 0;
	if (!phys_child(n, "density"))
		return 0;
	if (read_numbers(d, n, "density", out, 1, false) < 0)
		return -1;
	if (!(*out > 0))
		return fail_node(d, phys_child(n, "density"), "%s",
		    "<density> must be positive");
	return 0;
}

/* A collision's pose may name another frame of the model (SDF 1.7+). */
static int
collision_pose(struct scope *sc, const struct phys_link *l,
    const char *link_local, xmlNodePtr cn, phys_pose *out)
{
	char *rel;
	phys_pose base;
	int rc = 0;

	if (read_pose(sc->doc, cn, out, &rel) < 0)
		return -1;
	if (rel && *rel && strcmp(rel, link_local) != 0) {
		rc = resolve_name(sc, rel, cn, &base);
		if (rc == 0)
			*out = phys_pose_mul(phys_pose_inv(l->pose), phys_pose_mul(base, *out));
	}
	free(rel);
	return rc;
}

static int
collision_in_reach(struct scope *sc, const struct phys_link *l,
    const struct phys_collision *c)
{
	phys_vec3 p = phys_pose_mul(l->pose, c->pose).p;
	double at[3] = { p.x, p.y, p.z };
	int k;

	if (c->shape == PHYS_GEOM_PLANE)
		return 0;
	/* every engine's bound, the world's profiles being switchable:
	 * ODE's collision space reaches no farther */
	for (k = 0; k < 3; k++)
		if (!(fabs(at[k]) <= PHYS_REACH))
			return phys_failat(PHYS_AT(sc->doc, c->node),
			    "collision '%s': %.3g m along %c is farther than "
			    "phys places a body (%.2g m from the origin along "
			    "each axis)", c->name, at[k], "xyz"[k],
			    PHYS_REACH);
	return 0;
}

static int
read_collision(struct scope *sc, int li, const char *link_local, xmlNodePtr cn)
{
	struct loader *L = sc->L;
	struct phys_scene *w = L->w;
	struct phys_collision c;
	char *local;
	int kept;

	memset(&c, 0, sizeof c);
	local = phys_node_attr(cn, "name");
	if (!local)
		return fail_node(sc->doc, cn, "%s", "<collision> has no name");
	c.name = scoped_name(w->links[li].name, local);
	free(local);
	c.link = li;
	c.node = cn;
	c.doc = sc->doc;
	kept = read_geometry(L, sc->doc, &c, cn);
	if (kept > 0 && read_density(sc->doc, cn, &c.density) < 0)
		kept = -1;
	if (kept <= 0) {
		free(c.name);
		return kept;
	}
	c.vals = entity_values_new(w, PHYS_S_COLLISION);
	if (collision_pose(sc, &w->links[li], link_local, cn, &c.pose) < 0 ||
	    collision_in_reach(sc, &w->links[li], &c) < 0 ||
	    read_values(L, sc->doc, cn, PHYS_S_COLLISION, c.vals) < 0) {
		free(c.name);
		phys_values_clear(PHYS_S_COLLISION, c.vals);
		return -1;
	}
	PHYS_GROW(w->collisions, w->ncollisions, L->capcols);
	w->collisions[w->ncollisions] = c;
	if (register_name(L, sc->doc, cn, c.name, PHYS_K_COLLISION,
	    (int)w->ncollisions) < 0) {
		free(c.name);
		phys_values_clear(PHYS_S_COLLISION, c.vals);
		return -1;
	}
	w->ncollisions++;
	return 1;
}

static int
read_visual(struct scope *sc, int li, const char *link_local, xmlNodePtr vn)
{
	struct loader *L = sc->L;
	struct phys_scene *w = L->w;
	struct phys_visual v;
	char *local = phys_node_attr(vn, "name");

	if (!local)
		return fail_node(sc->doc, vn, "%s", "<visual> has no name");
	v.name = scoped_name(w->links[li].name, local);
	free(local);
	v.link = li;
	v.doc = sc->doc;
	v.node = vn;
	if (collision_pose(sc, &w->links[li], link_local, vn, &v.pose) < 0) {
		free(v.name);
		return -1;
	}
	PHYS_GROW(w->visuals, w->nvisuals, L->capvisuals);
	w->visuals[w->nvisuals++] = v;
	return 0;
}

/* The first <auto_inertia_params> of a link (its inertial's, then its
 * collisions') that holds a parameter; NULL when none does. */
static xmlNodePtr
calculator_params(xmlNodePtr link)
{
	xmlNodePtr c, p = phys_child(phys_child(link, "inertial"),
	    "auto_inertia_params");

	if (p && xmlFirstElementChild(p))
		return p;
	for (c = phys_child(link, "collision"); c; c = phys_next(c,
	    "collision")) {
		p = phys_child(c, "auto_inertia_params");
		if (p && xmlFirstElementChild(p))
			return p;
	}
	return NULL;
}

/*
 * SDF 1.11 <inertial auto="true">: from the collisions and densities.
 * <auto_inertia_params> feeds a custom calculator libsdformat's user may
 * register (gz-sim's own reads none): phys integrates every shape
 * exactly, so the parameters are kept in the file and have no effect.
 */
static int
auto_inertia(struct loader *L, struct phys_doc *d, int li)
{
	struct phys_scene *w = L->w;
	xmlNodePtr in = phys_child(w->links[li].node, "inertial");
	xmlNodePtr params = calculator_params(w->links[li].node);
	double density;

	if (params && !L->opt->quiet)
		phys_warnat(PHYS_AT(d, params), "link '%s': "
		    "<auto_inertia_params> has no effect: phys computes "
		    "the inertia of meshes and shapes exactly, with no "
		    "calculator parameters", w->links[li].name);
	if (read_density(d, in, &density) < 0)
		return -1;
	if (phys_link_auto_inertia(w, li, density > 0 ? density : 1000) < 0)
		return fail_at_element(d, in);
	return 0;
}

/* What a link takes loaded, with room to spare (about 11 kB): a world of
 * 45,000 links ran out of memory within 300 MB, saying only that. */
#define LOAD_LINK_BYTES (16.0 * 1024)

static int
within_room(struct phys_doc *d, xmlNodePtr n, size_t count)
{
	double left, limit;
	char said[128];

	if (phys_mem_room_for_more(count, LOAD_LINK_BYTES, &left, &limit))
		return 0;
	return phys_failat(PHYS_AT(d, n), "%s is too little to load more "
	    "links (the world has %zu so far, about 11 kB each, and an engine "
	    "takes more): raise the limit, or load fewer",
	    phys_mem_left_text(said, sizeof said, left, limit), count);
}

static int
read_link(struct scope *sc, struct frame *f)
{
	struct loader *L = sc->L;
	struct phys_scene *w = L->w;
	struct phys_link *l;
	xmlNodePtr cn;
	size_t skipped;
	int li;

	if (within_limit(sc->doc, f->node, w->nlinks, PHYS_MAX_LINKS,
	    "links") < 0 || within_room(sc->doc, f->node, w->nlinks) < 0)
		return -1;
	PHYS_GROW(w->links, w->nlinks, L->caplinks);
	li = (int)w->nlinks;
	l = &w->links[li];
	memset(l, 0, sizeof *l);
	l->name = scoped_name(scope_prefix(w, sc->model), f->name);
	l->model = owner_model(w, sc->model);
	l->node = f->node;
	l->doc = sc->doc;
	l->vals = entity_values_new(w, PHYS_S_LINK);
	w->nlinks++;
	if (register_name(L, sc->doc, f->node, l->name, PHYS_K_LINK, li) < 0 ||
	    resolve_frame(sc, f, &l->pose) < 0 ||
	    read_values(L, sc->doc, f->node, PHYS_S_LINK, l->vals) < 0)
		return -1;
	for (cn = f->node->children; cn; cn = cn->next)
		if (phys_mjcf_own(cn, "between_joints"))
			l->between_joints = true;
	l->first_collision = (int)w->ncollisions;
	skipped = L->skipped;
	for (cn = phys_child(f->node, "collision"); cn;
	    cn = phys_next(cn, "collision"))
		if (read_collision(sc, li, f->name, cn) < 0)
			return -1;
	w->links[li].ncollisions = (int)w->ncollisions -
	    w->links[li].first_collision;
	if (phys_link_auto_inertial(&w->links[li]) && L->skipped != skipped)
		/* its inertia would miss the skipped shapes' mass */
		return fail_node(sc->doc, f->node, "link '%s': <inertial "
		    "auto=\"true\"> needs every collision, and one was "
		    "skipped", w->links[li].name);
	if (phys_link_auto_inertial(&w->links[li]) &&
	    auto_inertia(L, sc->doc, li) < 0)
		return -1;
	for (cn = phys_child(f->node, "visual"); cn; cn = phys_next(cn, "visual"))
		if (read_visual(sc, li, f->name, cn) < 0)
			return -1;
	return 0;
}

static const struct {
	const char *sdf;
	enum phys_joint_type type;
} joint_types[] = {
	{ "revolute", PHYS_JOINT_REVOLUTE },
	{ "continuous", PHYS_JOINT_REVOLUTE },	/* a revolute without stops */
	{ "prismatic", PHYS_JOINT_PRISMATIC },
	{ "fixed", PHYS_JOINT_FIXED },
	{ "ball", PHYS_JOINT_BALL },
	{ "universal", PHYS_JOINT_UNIVERSAL },
	{ "revolute2", PHYS_JOINT_REVOLUTE2 },
	{ "screw", PHYS_JOINT_SCREW },
	{ "gearbox", PHYS_JOINT_GEARBOX },
};

static int
joint_type(struct phys_doc *d, xmlNodePtr jn, enum phys_joint_type *out)
{
	char *t = phys_node_attr(jn, "type");
	size_t i;
	int rc;

	for (i = 0; t && i < sizeof joint_types / sizeof *joint_types; i++)
		if (strcmp(t, joint_types[i].sdf) == 0) {
			*out = joint_types[i].type;
			free(t);
			return 0;
		}
	rc = t ? fail_node(d, jn, "unknown joint type '%s' (supported: "
	    "revolute, continuous, prismatic, fixed, ball, universal, "
	    "revolute2, screw, gearbox)", t) : fail_node(d, jn, "%s", "<joint> has no type");
	free(t);
	return rc;
}

/* The link a model's canonical_link names: -1 when it names none, or
 * one the model lacks (*named then true). */
static int
named_canonical(const struct phys_scene *w, int mi, bool *named)
{
	char *name = phys_node_attr(w->models[mi].node, "canonical_link");
	char *scoped;
	int li = -1;

	*named = name && *name;
	if (*named) {
		scoped = scoped_name(scope_prefix(w, mi), name);
		li = phys_world_entity_of(w, scoped, PHYS_K_LINK);
		free(scoped);
	}
	free(name);
	return li;
}

/*
 * The first link of a model: the one its frame is attached to; of a
 * model with no link of its own, its first nested model's, as
 * libsdformat has it.
 */
static int
canonical_link(struct phys_scene *w, int mi)
{
	bool named;
	int li = named_canonical(w, mi, &named);
	size_t i;

	/* a merged model's links are its parent's: its own are those its
	 * element holds */
	for (i = 0; li < 0 && i < w->nlinks; i++)
		if (w->models[mi].merged ? w->links[i].node->parent ==
		    w->models[mi].node : w->links[i].model == mi)
			li = (int)i;
	for (i = mi + 1; li < 0 && i < w->nmodels; i++)
		if (w->models[i].parent == mi)
			return canonical_link(w, (int)i);
	return li;
}

/*
 * The link named, when name is no frame of this scope's own: the world
 * (-1), a link, a frame or joint of a nested model, a nested model or
 * __model__ through its canonical link. 1 when found, 0 for a frame of
 * the scope, or -1.
 */
static int
scope_link(struct scope *sc, const char *name, xmlNodePtr at, int *out)
{
	struct phys_scene *w = sc->L->w;
	const struct phys_name_slot *slot;
	const struct named_frame *nf;
	char *scoped;
	bool nested;
	int ji;

	if (strcmp(name, "world") == 0 || (sc->model < 0 &&
	    scope_itself(sc, name))) {
		*out = -1;
		return 1;
	}
	scoped = scoped_name(scope_prefix(w, sc->model), name);
	*out = phys_world_entity_of(w, scoped, PHYS_K_LINK);
	if (*out < 0)
		*out = phys_world_entity_of(w, name, PHYS_K_LINK);
	slot = *out < 0 ? index_get_kind(w->index, scoped, PHYS_K_MODEL) : NULL;
	/* a frame or joint of a nested model (SDF 1.8 scoped names), or
	 * in the world's scope of any model, or the world's joint */
	nested = sc->model < 0 || strstr(name, "::");
	nf = *out < 0 && !slot && nested ? named_frame(sc->L, scoped) : NULL;
	ji = *out < 0 && !slot && !nf && nested ?
	    phys_world_entity_of(w, scoped, PHYS_K_JOINT) : -1;
	free(scoped);
	if (nf)
		*out = nf->link;
	if (ji >= 0)
		*out = w->joints[ji].child;
	if (*out >= 0 || nf)
		return 1;
	if (strcmp(name, "__model__") == 0 || *name == '\0' || slot) {
		*out = canonical_link(w, slot ? slot->idx : sc->model);
		return *out >= 0 ? 1 : fail_node(sc->doc, at, "model '%s' has "
		    "no link to attach to", slot ? w->models[slot->idx].name :
		    w->models[sc->model].name);
	}
	if (scope_frame(sc, name))
		return 0;
	if (sc->model < 0)
		return fail_node(sc->doc, at, "no link, frame or model named "
		    "'%s' in the world (a joint of the world names them by "
		    "scoped name: model::link)", name);
	return fail_node(sc->doc, at, "no link or frame named '%s'", name);
}

/*
 * The link a frame named in this model's scope is attached to (SDF 1.7+
 * lets a joint's parent or child name any frame): a link, a <frame>
 * through its attached_to, a joint through its child, a nested model or
 * __model__ through its canonical link. -1 for the world. A chain of
 * frames is walked without recursion, however long a file makes it, and
 * each frame on it keeps the link found: the chain is walked once.
 */
static int
frame_link(struct scope *sc, const char *name, xmlNodePtr at, int *out)
{
	struct frame **path = NULL, *f;
	size_t n = 0, cap = 0;
	char *next = NULL;
	int rc;

	while ((rc = scope_link(sc, name, at, out)) == 0) {
		f = scope_frame(sc, name);
		if (f->link_state == 2) {
			*out = f->link;
			rc = 1;
			break;
		}
		if (f->link_state == 1) {
			rc = fail_node(sc->doc, f->node, "frame '%s' is "
			    "attached to a cycle of frames", f->name);
			break;
		}
		f->link_state = 1;
		PHYS_GROW(path, n, cap);
		path[n++] = f;
		free(next);
		next = phys_node_is(f->node, "joint") ?
		    phys_node_text(phys_child(f->node, "child")) :
		    phys_node_attr(f->node, "attached_to");
		if (next && strcmp(next, f->name) == 0) {
			rc = fail_node(sc->doc, f->node, "frame '%s' is "
			    "attached to itself", f->name);
			break;
		}
		name = next ? next : "";
		at = f->node;
	}
	/* found: each frame walked keeps it; else each is walked anew */
	while (n > 0) {
		f = path[--n];
		f->link_state = rc > 0 ? 2 : 0;
		f->link = *out;
	}
	free(path);
	free(next);
	return rc < 0 ? -1 : 0;
}

/* Link index of a joint's parent or child: -1 for the world. */
static int
joint_link(struct scope *sc, xmlNodePtr jn, const char *which, int *out)
{
	xmlNodePtr e = phys_child(jn, which);
	char *name;
	int rc;

	if (!e)
		return fail_node(sc->doc, jn, "joint has no <%s>", which);
	name = phys_node_text(e);
	rc = frame_link(sc, name, e, out);
	free(name);
	return rc;
}

/*
 * The frame an axis is expressed in: SDF 1.4 used the parent model frame,
 * 1.5-1.6 the joint frame unless <use_parent_model_frame>, 1.7+ the frame
 * named by expressed_in (the joint frame by default).
 */
static int
joint_axis(struct scope *sc, struct phys_joint *j, const char *elem,
    phys_vec3 *out)
{
	struct phys_model *m = &sc->L->w->models[sc->model];
	xmlNodePtr axis = phys_child(j->node, elem), xyz;
	phys_quat frame = j->pose.q;
	phys_pose base;
	double v[3] = { 0, 0, 1 };
	char *in, *text;
	bool parent_model = sc->doc->minor <= 4;

	xyz = phys_child(axis, "xyz");
	if (xyz && read_numbers(sc->doc, axis, "xyz", v, 3, true) < 0)
		return -1;
	if (v[0] == 0 && v[1] == 0 && v[2] == 0)
		return fail_node(sc->doc, axis ? axis : j->node,
		    "joint '%s': axis is zero", j->name);
	if (phys_child(axis, "use_parent_model_frame")) {
		text = phys_node_text(phys_child(axis,
		    "use_parent_model_frame"));
		phys_parse_bool(text, &parent_model);
		free(text);
	}
	if (parent_model)
		frame = m->pose.q;
	in = xyz ? phys_node_attr(xyz, "expressed_in") : NULL;
	if (in && *in) {
		if (resolve_name(sc, in, xyz, &base) < 0) {
			free(in);
			return -1;
		}
		frame = base.q;
	}
	free(in);
	*out = v3_normalize(phys_quat_rotate(frame, v3(v[0], v[1], v[2])));
	return 0;
}

/*
 * A ball turned by its axis's damping, friction, spring or upper limit,
 * as phys turns one (phys(7), SDF SUPPORT) and Gazebo's engines do not:
 * said of a file written as SDF (an MJCF ball has them).
 */
static void
ball_note(struct scope *sc, const struct phys_joint *j)
{
	if (sc->doc->from == PHYS_DOC_MJCF || !phys_ball_values_set(j->vals))
		return;
	warn_node(sc->L, sc->doc, j->node, "ball joint '%s': phys turns it by "
	    "its axis's damping, friction, spring and upper limit, which "
	    "Gazebo's engines leave out", j->name);
}

/* What ball, screw and gearbox joints need beyond the common elements. */
static int
joint_kind_checks(struct scope *sc, struct phys_joint *j)
{
	xmlNodePtr e;
	char *name;
	int rc;

	j->reference = -1;
	for (e = j->node->children; e; e = e->next)
		j->touch = j->touch || phys_mjcf_own(e, "touch");
	if (j->type == PHYS_JOINT_BALL)
		ball_note(sc, j);
	if (j->type == PHYS_JOINT_SCREW) {
		e = phys_child(j->node, "thread_pitch");
		if (e && PVD(j->vals, JOINT_thread_pitch) == 0)
			return fail_node(sc->doc, e, "joint '%s': thread_pitch "
			    "is zero (no travel per turn is a revolute joint)",
			    j->name);
		e = phys_child(j->node, "screw_thread_pitch");
		if (e && sc->doc->minor < 10)
			warn_node(sc->L, sc->doc, e, "<screw_thread_pitch> is "
			    "SDF 1.10's; read it in this %s file too", "older");
		return 0;
	}
	if (j->type != PHYS_JOINT_GEARBOX)
		return 0;
	e = phys_child(j->node, "gearbox_reference_body");
	if (!e)
		return fail_node(sc->doc, j->node, "gearbox joint '%s' has no "
		    "<gearbox_reference_body>", j->name);
	name = phys_node_text(e);
	rc = frame_link(sc, name, e, &j->reference);
	free(name);
	if (rc == 0 && (j->reference == j->parent || j->reference == j->child))
		rc = fail_node(sc->doc, e, "gearbox joint '%s': the reference "
		    "body is one of the geared links", j->name);
	return rc;
}

/*
 * Up to SDF 1.6 a joint may share a link's name; from 1.7 every frame's
 * name is unique. libsdformat names such a joint NAME_joint (then
 * NAME_joint0, NAME_joint1...) with a warning, and so does phys, so that
 * a printed 1.7+ world loads and names match Gazebo's.
 */
static int
rename_old_joint(struct loader *L, struct phys_doc *d, xmlNodePtr n,
    struct phys_joint *j)
{
	const struct phys_name_slot *slot = index_get(L->w->index, j->name);
	char *name;
	int i = 0;

	if (slot && slot->kind == PHYS_K_JOINT)	/* as libsdformat refuses */
		return fail_node(d, n, "joint '%s' is named twice in its model",
		    j->name);
	if (!(d->major == 1 && d->minor <= 6) || !slot)
		return 0;
	name = phys_xasprintf("%s_joint", j->name);
	while (index_get(L->w->index, name)) {
		free(name);
		name = phys_xasprintf("%s_joint%d", j->name, i++);
	}
	phys_warnat(PHYS_AT(d, n), "joint '%s' shares its name "
	    "with a link: it is named '%s', as libsdformat names it",
	    j->name, name);
	free(j->name);
	j->name = name;
	return 0;
}

static int
read_joint(struct scope *sc, struct frame *f)
{
	struct loader *L = sc->L;
	struct phys_scene *w = L->w;
	struct phys_joint *j;
	int ji;

	if (within_limit(sc->doc, f->node, w->njoints, PHYS_MAX_JOINTS,
	    "joints") < 0)
		return -1;
	PHYS_GROW(w->joints, w->njoints, L->capjoints);
	ji = (int)w->njoints;
	j = &w->joints[ji];
	memset(j, 0, sizeof *j);
	j->name = scoped_name(scope_prefix(w, sc->model), f->name);
	j->model = owner_model(w, sc->model);
	j->node = f->node;
	j->doc = sc->doc;
	j->vals = entity_values_new(w, PHYS_S_JOINT);
	w->njoints++;
	if (rename_old_joint(L, sc->doc, f->node, j) < 0 ||
	    register_name(L, sc->doc, f->node, j->name, PHYS_K_JOINT, ji) < 0 ||
	    joint_type(sc->doc, f->node, &j->type) < 0 ||
	    joint_link(sc, f->node, "parent", &j->parent) < 0 ||
	    joint_link(sc, f->node, "child", &j->child) < 0 ||
	    resolve_frame(sc, f, &j->pose) < 0 ||
	    read_values(L, sc->doc, f->node, PHYS_S_JOINT, j->vals) < 0 ||
	    joint_axis(sc, j, "axis", &j->axis[0]) < 0 ||
	    joint_axis(sc, j, "axis2", &j->axis[1]) < 0)
		return -1;
	if (joint_kind_checks(sc, j) < 0)
		return -1;
	if ((j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2) &&
	    v3_norm(v3_cross(j->axis[0], j->axis[1])) < 1e-6)
		return fail_node(sc->doc, f->node, "joint '%s': axis and axis2 "
		    "are parallel; the joint needs two different axes",
		    j->name);
	if (j->child == -1)
		return fail_node(sc->doc, f->node,
		    "joint '%s': the child cannot be the world", j->name);
	if (j->parent == j->child)
		return fail_node(sc->doc, f->node,
		    "joint '%s': parent and child are the same link", j->name);
	return 0;
}

/* A number under e, or def when absent. */
static int
mimic_number(struct phys_doc *d, xmlNodePtr e, const char *what, double def,
    double *out)
{
	xmlNodePtr n = phys_child(e, what);
	char *text;
	bool ok;

	*out = def;
	if (!n)
		return 0;
	text = phys_node_text(n);
	ok = phys_parse_double(text, out);
	free(text);
	return ok ? 0 : fail_node(d, n, "<%s>: not a number", what);
}

static bool
one_axis_joint(const struct phys_joint *j)
{
	return j->type == PHYS_JOINT_REVOLUTE || j->type == PHYS_JOINT_PRISMATIC;
}

/* ---- limited tendons (<phys:tendon>) ---- */

/* n numbers of tendon element t's child what, when it has one. */
static int
tendon_numbers(struct scope *sc, xmlNodePtr t, const char *what,
    double *out, int n)
{
	return phys_child(t, what) ? read_numbers(sc->doc, t, what, out, n,
	    true) : 0;
}

/* The entity of kind that element e's attribute attr names in sc's
 * model: its index, -1 after an error; a link "world" is -2. */
static int
tendon_entity(struct scope *sc, xmlNodePtr e, const char *attr,
    enum phys_kind kind, const char *what)
{
	struct phys_scene *w = sc->L->w;
	char *name = phys_node_attr(e, attr), *scoped;
	int k;

	if (!name || !*name) {
		free(name);
		return phys_failat(PHYS_AT(sc->doc, e), "<phys:%s> names "
		    "no %s", (const char *)e->name, what);
	}
	if (kind == PHYS_K_LINK && strcmp(name, "world") == 0) {
		free(name);
		return -2;
	}
	scoped = scoped_name(scope_prefix(w, sc->model), name);
	k = phys_world_entity_of(w, scoped, kind);
	free(scoped);
	if (k < 0)
		phys_failat(PHYS_AT(sc->doc, e), "<phys:%s>: no %s named '%s' "
		    "in this model", (const char *)e->name, what, name);
	free(name);
	return k;
}

/* A fixed tendon's <phys:joint joint="j" coef="c"/>s. */
static int
tendon_joints(struct scope *sc, xmlNodePtr n, struct phys_tendon *t)
{
	xmlNodePtr e;
	char *text;
	double c;
	int j;

	for (e = phys_child(n, "joint"); e; e = phys_next(e, "joint")) {
		if ((j = tendon_entity(sc, e, "joint", PHYS_K_JOINT,
		    "joint")) < 0)
			return -1;
		if (!one_axis_joint(&sc->L->w->joints[j]))
			return fail_node(sc->doc, e, "<phys:joint>: joint '%s' "
			    "is not a revolute or prismatic joint",
			    sc->L->w->joints[j].name);
		text = phys_node_attr(e, "coef");
		c = 1;
		if (text && !phys_parse_double(text, &c)) {
			free(text);
			return fail_node(sc->doc, e, "%s", "<phys:joint coef>: "
			    "not a finite number");
		}
		free(text);
		t->joints = phys_xrealloc(t->joints, (size_t)(t->njoints +
		    1) * sizeof *t->joints);
		t->coef = phys_xrealloc(t->coef, (size_t)(t->njoints + 1) *
		    sizeof *t->coef);
		t->joints[t->njoints] = j;
		t->coef[t->njoints++] = c;
	}
	return 0;
}

/* A spatial tendon's two <phys:end link="l">x y z</phys:end>s. */
static int
tendon_ends(struct scope *sc, xmlNodePtr n, struct phys_tendon *t)
{
	xmlNodePtr e;
	char *text;
	double v[3];
	int k = 0, l;

	for (e = phys_child(n, "end"); e; e = phys_next(e, "end"), k++) {
		if (k == 2)
			return fail_node(sc->doc, e, "%s", "<phys:tendon>: a "
			    "spatial tendon has two ends");
		if ((l = tendon_entity(sc, e, "link", PHYS_K_LINK, "link")) ==
		    -1)
			return -1;
		text = phys_node_text(e);
		if (!text || phys_parse_doubles(text, v, 3) != 3) {
			free(text);
			return fail_node(sc->doc, e, "%s", "<phys:end>: a point "
			    "of 3 finite numbers expected");
		}
		free(text);
		t->link[k] = l < 0 ? -1 : l;
		t->at[k] = v3(v[0], v[1], v[2]);
	}
	if (k == 1)
		return fail_node(sc->doc, n, "%s", "<phys:tendon>: a spatial "
		    "tendon has two ends");
	return 0;
}

phys_vec3
phys_tendon_end(const struct phys_scene *w, const struct phys_tendon *t,
    int k)
{
	int l = t->link[k];

	return l < 0 ? t->at[k] : phys_pose_mul(w->links[l].pose,
	    (phys_pose){ t->at[k], PHYS_QUAT_IDENTITY }).p;
}

/*
 * A limited tendon (struct phys_tendon): <phys:tendon name> of fixed
 * <phys:joint>s or spatial <phys:end>s, its <phys:range>, and MuJoCo's
 * <phys:solref>, <phys:solimp> and <phys:margin> of its limit, MuJoCo's
 * defaults where absent.
 */
static int
read_tendon(struct scope *sc, xmlNodePtr n)
{
	struct phys_scene *w = sc->L->w;
	struct phys_tendon t;
	char *name = phys_node_attr(n, "name");
	xmlNodePtr e;

	if (!name || !*name) {
		free(name);
		return fail_node(sc->doc, n, "%s", "<phys:tendon> has no name");
	}
	memset(&t, 0, sizeof t);
	t.link[0] = t.link[1] = -1;
	memcpy(t.solref, phys_mjcf_solref, sizeof t.solref);
	memcpy(t.solimp, phys_mjcf_solimp, sizeof t.solimp);
	t.doc = sc->doc;
	t.node = n;
	t.name = scoped_name(scope_prefix(w, sc->model), name);
	for (e = phys_child(n, "unnamed"); e; e = phys_next(e, "unnamed"))
		t.unnamed = t.unnamed || phys_mjcf_own(e, "unnamed");
	free(name);
	if (tendon_joints(sc, n, &t) < 0 || tendon_ends(sc, n, &t) < 0 ||
	    tendon_numbers(sc, n, "range", t.range, 2) < 0 ||
	    tendon_numbers(sc, n, "solref", t.solref, 2) < 0 ||
	    tendon_numbers(sc, n, "solimp", t.solimp, 5) < 0 ||
	    tendon_numbers(sc, n, "margin", &t.margin, 1) < 0)
		goto fail;
	if (!t.njoints == !phys_child(n, "end")) {
		fail_node(sc->doc, n, "%s", "<phys:tendon>: joints (fixed) or "
		    "two ends (spatial), not both");
		goto fail;
	}
	if (!phys_child(n, "range") || !(t.range[0] < t.range[1])) {
		fail_node(sc->doc, n, "%s", "<phys:tendon>: a <phys:range> "
		    "whose first number is below its second");
		goto fail;
	}
	PHYS_GROW_ONE(w->tendons, w->ntendons);
	w->tendons[w->ntendons++] = t;
	return 0;
fail:
	free(t.name);
	free(t.joints);
	free(t.coef);
	return -1;
}

/*
 * The joint a <mimic> (or a <phys:mimic>) of joint j names: a revolute or
 * prismatic joint of j's model, by its first axis; -1 after an error.
 */
static int
mimic_leader(struct scope *sc, const struct phys_joint *j, xmlNodePtr e)
{
	struct phys_scene *w = sc->L->w;
	char *leader = phys_node_attr(e, "joint"), *axis, *scoped;
	int li = -1, rc = 0;

	if (!leader || !*leader) {
		free(leader);
		return fail_node(sc->doc, e, "<%s> names no joint",
		    (const char *)e->name);
	}
	scoped = scoped_name(scope_prefix(w, sc->model), leader);
	li = phys_world_entity_of(w, scoped, PHYS_K_JOINT);
	free(scoped);
	axis = phys_node_attr(e, "axis");
	if (li < 0)
		rc = phys_failat(PHYS_AT(sc->doc, e), "<%s>: no joint named "
		    "'%s' in this model", (const char *)e->name, leader);
	else if (!one_axis_joint(j) || !one_axis_joint(&w->joints[li]) ||
	    (axis && strcmp(axis, "axis2") == 0))
		rc = fail_node(sc->doc, e, "%s", "<mimic> is supported between "
		    "the axes of revolute, continuous and prismatic joints");
	else if (&w->joints[li] == j)
		rc = fail_node(sc->doc, e, "joint '%s' mimics itself", j->name);
	free(axis);
	free(leader);
	return rc < 0 ? -1 : li;
}

/*
 * A leader of joint j's mimic: SDF 1.11's <mimic joint="leader"
 * axis="axis"> (first, with the offset), or a <phys:mimic joint> beside
 * it, whose term the follower adds. Read once every joint of the model is
 * known; revolute and prismatic joints only.
 */
static int
read_leader(struct scope *sc, struct phys_joint *j, xmlNodePtr e)
{
	struct phys_mimic *m = &j->mimic;
	struct phys_mimic_term *t = &m->lead[m->nleaders];
	bool own = phys_mjcf_own(e, "mimic");
	int li, i;

	if (own && !m->nleaders)
		return fail_node(sc->doc, e, "%s", "<phys:mimic> beside no "
		    "<mimic> of the axis: the <mimic> names the first leader");
	if (!own && m->nleaders)
		return fail_node(sc->doc, e, "%s", "a second <mimic> of the "
		    "axis: SDF gives an axis one (<phys:mimic> adds a leader)");
	if (m->nleaders == PHYS_MIMIC_LEADERS)
		return phys_failat(PHYS_AT(sc->doc, e), "a mimic of more than "
		    "%d leaders is not read", PHYS_MIMIC_LEADERS);
	if (own && phys_child(e, "offset"))
		return fail_node(sc->doc, phys_child(e, "offset"), "%s",
		    "<phys:mimic> has no offset: the <mimic>'s is the "
		    "coupling's");
	if ((li = mimic_leader(sc, j, e)) < 0)
		return -1;
	for (i = 0; i < m->nleaders; i++)
		if (m->lead[i].joint == li)
			return fail_node(sc->doc, e, "joint '%s' leads this "
			    "mimic twice", sc->L->w->joints[li].name);
	t->joint = li;
	if ((mimic_number(sc->doc, e, "multiplier", 1, &t->multiplier) |
	    mimic_number(sc->doc, e, "reference", 0, &t->reference) |
	    (own ? 0 : mimic_number(sc->doc, e, "offset", 0,
	    &m->offset))) < 0)
		return -1;
	m->nleaders++;
	return 0;
}

/* The first axis's <mimic> and <phys:mimic>s, in that order; one of the
 * second axis is refused. */
static int
read_mimics(struct scope *sc, struct phys_joint *j)
{
	xmlNodePtr ax = phys_child(j->node, "axis"), e;
	int own;

	if ((e = phys_child(phys_child(j->node, "axis2"), "mimic")))
		return fail_node(sc->doc, e, "%s", "<mimic> is supported "
		    "between the axes of revolute, continuous and prismatic "
		    "joints");
	for (own = 0; own < 2; own++)
		for (e = phys_child(ax, "mimic"); e; e = phys_next(e, "mimic"))
			if (phys_mjcf_own(e, "mimic") == own &&
			    read_leader(sc, j, e) < 0)
				return -1;
	return 0;
}

double
phys_mimic_base(const struct phys_mimic *m)
{
	double c = m->offset;
	int i;

	for (i = 0; i < m->nleaders; i++)
		c -= m->lead[i].multiplier * m->lead[i].reference;
	return c;
}

/* Gazebo's InitialVelocityPlugin: <linear> and <angular> for every link. */
static int
read_plugins(struct scope *sc)
{
	struct phys_model *m = &sc->L->w->models[sc->model];
	xmlNodePtr n;
	double v[3];
	char *file;
	bool ours;

	for (n = phys_child(m->node, "plugin"); n; n = phys_next(n, "plugin")) {
		file = phys_node_attr(n, "filename");
		ours = file && strstr(file, "InitialVelocityPlugin");
		free(file);
		if (!ours)
			continue;
		m->has_init_vel = true;
		if (phys_child(n, "linear")) {
			if (read_numbers(sc->doc, n, "linear", v, 3, true) < 0)
				return -1;
			m->init_linear = v3(v[0], v[1], v[2]);
		}
		if (phys_child(n, "angular")) {
			if (read_numbers(sc->doc, n, "angular", v, 3, true) < 0)
				return -1;
			m->init_angular = v3(v[0], v[1], v[2]);
		}
	}
	return 0;
}

struct model_override {
	const char *name;	/* <include><name> */
	bool has_pose;
	phys_pose pose;
	char *rel;		/* the pose's relative_to, or NULL */
	struct phys_doc *doc;	/* where the <include> is, for messages */
	xmlNodePtr at;
	struct phys_doc *inner_doc;	/* a model file's root <include>, */
	xmlNodePtr inner_at;		/* which at overrides, or NULL */
	int is_static;		/* -1 unset */
	bool merge;		/* <include merge="true"> in a model */
	char *placement;	/* <include><placement_frame>, or NULL */
};

static int read_model(struct loader *L, struct phys_doc *d, xmlNodePtr mn,
    int parent, const struct model_override *ov);
static int read_include(struct loader *L, struct phys_doc *d, xmlNodePtr in,
    int parent, const struct model_override *outer);

static bool
bool_flag(xmlNodePtr owner, const char *name)
{
	xmlNodePtr e = phys_child(owner, name);
	bool b = false;
	char *t;

	if (!e)
		return false;
	t = phys_node_text(e);
	phys_parse_bool(t, &b);
	free(t);
	return b;
}

static int
new_model(struct loader *L, struct phys_doc *d, xmlNodePtr mn, int parent,
    const struct model_override *ov)
{
	struct phys_scene *w = L->w;
	struct phys_model *m;
	char *local = ov && ov->name ? phys_xstrdup(ov->name) :
	    phys_node_attr(mn, "name");
	int mi;

	if (!local)
		return fail_node(d, mn, "%s", "<model> has no name");
	if (within_limit(d, mn, w->nmodels, PHYS_MAX_MODELS, "models") < 0) {
		free(local);
		return -1;
	}
	if (ov && ov->merge) {	/* libsdformat's name for its frame */
		char *frame = phys_xasprintf("_merged__%s__model__", local);

		free(local);
		local = frame;
	}
	PHYS_GROW(w->models, w->nmodels, L->capmodels);
	mi = (int)w->nmodels;
	m = &w->models[mi];
	memset(m, 0, sizeof *m);
	m->name = scoped_name(parent >= 0 ? scope_prefix(w, parent) : NULL,
	    local);
	m->merged = ov && ov->merge;
	free(local);
	m->parent = parent;
	m->node = mn;
	m->doc = d;
	if (ov && ov->at) {
		m->include = ov->at;
		m->include_doc = ov->doc;
		m->inner_include = ov->inner_at;
		m->inner_include_doc = ov->inner_doc;
	}
	m->self_collide = bool_flag(mn, "self_collide");
	m->is_static = bool_flag(mn, "static") ||
	    (parent >= 0 && w->models[parent].is_static);
	if (ov && ov->is_static >= 0)
		m->is_static = ov->is_static || m->is_static;
	w->nmodels++;
	if (register_name(L, d, mn, m->name, PHYS_K_MODEL, mi) < 0)
		return -1;
	return mi;
}

/*
 * A frame named at world level (SDF 1.7+): a <frame> of the world, or a
 * top-level model read before (or "model::link" and so on). Frames may
 * be relative to frames. d and at: where it is named.
 */
static int
world_frame(struct loader *L, struct phys_doc *d, const char *name,
    xmlNodePtr at, phys_pose *out)
{
	struct scope *ws = L->world;

	*out = PHYS_POSE_IDENTITY;
	if (ws && scope_frame(ws, name))
		return resolve_name(ws, name, at, out);
	if (!*name || strcmp(name, "world") == 0 || loaded_frame(L, name, out))
		return 0;
	return fail_node(d, at, "no frame or model named '%s' in the world "
	    "(models are known once read)", name);
}

/* The frame a model's pose is relative to: rel, or by default the
 * enclosing model (nested) or the world (top level). */
static int
model_base(struct loader *L, struct phys_doc *d, int mi, struct scope *parent,
    const char *rel, xmlNodePtr at, phys_pose *out)
{
	struct phys_model *m = &L->w->models[mi];

	*out = parent ? L->w->models[m->parent].pose : PHYS_POSE_IDENTITY;
	if (!rel || !*rel)
		return 0;
	if (parent)
		return resolve_name(parent, rel, at, out);
	if (strcmp(rel, "world") == 0)
		return 0;
	return world_frame(L, d, rel, at, out);
}

static int
model_pose(struct loader *L, struct phys_doc *d, int mi, struct scope *parent,
    const struct model_override *ov)
{
	struct phys_model *m = &L->w->models[mi];
	phys_pose local, base;
	struct frame *f;
	char *name, *rel = NULL;
	int rc;

	if (ov && ov->has_pose)
		return model_base(L, ov->doc, mi, parent, ov->rel, ov->at,
		    &base) < 0 ? -1 : (m->pose = phys_pose_mul(base, ov->pose), 0);
	if (parent) {	/* nested: a frame of the parent's scope */
		name = phys_node_attr(m->node, "name");
		f = name ? scope_frame(parent, name) : NULL;
		free(name);
		if (f && f->node == m->node)
			return resolve_frame(parent, f, &m->pose);
	}
	if (read_pose(d, m->node, &local, &rel) < 0)
		return -1;
	rc = model_base(L, d, mi, parent, rel, m->node, &base);
	free(rel);
	m->pose = phys_pose_mul(base, local);
	return rc;
}

/*
 * Whether a frame's pose leads, through frames of its model, to a frame
 * of a nested model ("inner::frame") or of a merged include. The chain
 * is walked without recursion and each frame on it keeps the answer: a
 * cycle leads nowhere (resolving it reports it).
 */
static bool
into_nested(struct scope *sc, struct frame *f)
{
	struct frame **path = NULL, *g = f;
	size_t n = 0, cap = 0;
	const char *rel;
	char *owned;
	int into;

	for (;;) {
		if (g->into != INTO_NEW) {	/* known, or a cycle */
			into = g->into == INTO_YES ? INTO_YES : INTO_NO;
			break;
		}
		g->into = INTO_WALKING;
		PHYS_GROW(path, n, cap);
		path[n++] = g;
		rel = g->relative_to ? g->relative_to :
		    default_relative_to(g->node, &owned);
		if (g->relative_to)
			owned = NULL;
		g = scope_frame(sc, rel);
		/* "inner::frame", or a name this model's own elements do
		 * not give (an entity a merged include brings) */
		into = strstr(rel, "::") || (!g && *rel &&
		    strcmp(rel, "__model__") != 0 &&
		    strcmp(rel, "world") != 0) ? INTO_YES : INTO_NO;
		free(owned);
		if (into == INTO_YES || !g)
			break;
	}
	while (n > 0)
		path[--n]->into = into;
	free(path);
	return into == INTO_YES;
}

/* Load links first (joints and nested models may be relative to them). */
static int
read_model_body(struct loader *L, struct scope *sc)
{
	struct phys_scene *w = L->w;
	xmlNodePtr n;
	size_t i, first_joint;
	int rc = 0;

	/* Links relative to a frame of a nested model ("inner::frame") wait
	 * for it: after the nested models, which may be relative to links. */
	for (i = 0; i < sc->nframes && rc == 0; i++)
		if (phys_node_is(sc->frames[i].node, "link") &&
		    !into_nested(sc, &sc->frames[i]))
			rc = read_link(sc, &sc->frames[i]);
	for (n = phys_child(w->models[sc->model].node, NULL); n && rc == 0;
	    n = phys_next(n, NULL)) {
		if (phys_node_is(n, "model"))
			rc = read_model(L, sc->doc, n, sc->model, NULL);
		else if (phys_node_is(n, "include"))
			rc = read_include(L, sc->doc, n, sc->model, NULL);
	}
	for (i = 0; i < sc->nframes && rc == 0; i++)
		if (phys_node_is(sc->frames[i].node, "link") &&
		    into_nested(sc, &sc->frames[i]))
			rc = read_link(sc, &sc->frames[i]);
	first_joint = w->njoints;
	for (i = 0; i < sc->nframes && rc == 0; i++)
		if (phys_node_is(sc->frames[i].node, "joint"))
			rc = read_joint(sc, &sc->frames[i]);
	for (i = first_joint; i < w->njoints && rc == 0; i++)
		rc = read_mimics(sc, &w->joints[i]);
	for (n = phys_child(w->models[sc->model].node, "tendon"); n &&
	    rc == 0; n = phys_next(n, "tendon"))
		if (phys_mjcf_own(n, "tendon"))
			rc = read_tendon(sc, n);
	if (rc == 0)
		rc = read_plugins(sc);
	return rc;
}

/* Whether name is a frame of this model's scope (after its body is read). */
static bool
scope_knows(struct scope *sc, const char *name)
{
	struct phys_scene *w = sc->L->w;
	char *scoped;
	bool known;

	if (scope_itself(sc, name) || scope_frame(sc, name))
		return true;
	scoped = scoped_name(scope_prefix(w, sc->model), name);
	known = index_get(w->index, scoped) != NULL ||
	    named_frame(sc->L, scoped) != NULL;
	free(scoped);
	return known;
}

/* The frame a <frame> is attached to, when a <frame>; its name in *to
 * (freed, and replaced by the next one's). */
static struct frame *
attached_frame(struct scope *sc, char **to)
{
	struct frame *g = *to ? scope_frame(sc, *to) : NULL;

	if (!g || !phys_node_is(g->node, "frame"))
		return NULL;
	free(*to);
	*to = phys_node_attr(g->node, "attached_to");
	return g;
}

/*
 * libsdformat refuses a frame attached to nothing, to itself, or to a
 * chain of frames that comes back to it. Each chain is walked once: a
 * frame met again in the walk closes a cycle, one walked before ends it,
 * so a chain of n frames costs n steps, not n squared.
 */
static int
check_attachments(struct scope *sc)
{
	struct frame *f, *g;
	char *to;
	size_t i;
	int rc = 0;

	for (i = 0; i < sc->nframes && rc == 0; i++) {
		f = &sc->frames[i];
		if (!phys_node_is(f->node, "frame"))
			continue;
		to = phys_node_attr(f->node, "attached_to");
		if (!to || !*to)
			rc = 0;
		else if (strcmp(to, f->name) == 0)
			rc = fail_node(sc->doc, f->node, "frame '%s' is attached "
			    "to itself", f->name);
		else if (!scope_knows(sc, to))
			rc = phys_failat(PHYS_AT(sc->doc, f->node),
			    "frame '%s' is attached to '%s', which %s "
			    "does not have", f->name, to, sc->model < 0 ?
			    "the world" : "this model");
		if (rc < 0 || f->attach == ATTACH_DONE) {
			free(to);
			continue;
		}
		f->attach = ATTACH_WALKING;
		while ((g = attached_frame(sc, &to)) &&
		    g->attach != ATTACH_DONE) {
			if (g->attach == ATTACH_WALKING) {
				rc = fail_node(sc->doc, f->node, "frame '%s' is "
				    "attached to a cycle of frames", f->name);
				break;
			}
			g->attach = ATTACH_WALKING;
		}
		free(to);
		/* the walk again, its frames done */
		to = phys_node_attr(f->node, "attached_to");
		for (f->attach = ATTACH_DONE; (g = attached_frame(sc, &to)) &&
		    g->attach == ATTACH_WALKING;)
			g->attach = ATTACH_DONE;
		free(to);
	}
	return rc;
}

/*
 * The <frame>s of a model just read, for the models around it to name
 * ("inner::frame"). Each must resolve, named or not: libsdformat's pose
 * graph refuses a model with a frame relative to nothing or to a cycle.
 */
static int
keep_frames(struct scope *sc)
{
	struct loader *L = sc->L;
	struct named_frame nf;
	struct frame *f;
	size_t i;

	for (i = 0; i < sc->nframes; i++) {
		f = &sc->frames[i];
		if (!phys_node_is(f->node, "frame"))
			continue;
		if (resolve_frame(sc, f, &nf.pose) < 0)
			return -1;
		/* its attachment checked (check_attachments): one that finds
		 * no link is on a model without one (static, or moving
		 * nothing), which stays where it is, as the world does */
		if (frame_link(sc, f->name, f->node, &nf.link) < 0)
			nf.link = -1;
		nf.name = scoped_name(scope_prefix(L->w, sc->model), f->name);
		PHYS_GROW(L->frames, L->nframes, L->capframes);
		L->frames[L->nframes++] = nf;
		phys_name_table_add(&L->frame_names, L->nframes - 1);
	}
	return 0;
}

/*
 * A model placed by a frame of its own (<model placement_frame="F">, an
 * <include>'s <placement_frame>): its pose says where F goes, and the
 * model frame follows, X_model = P inv(X_model_F), X_model_F found with
 * the model at the origin. A frame of the model itself: its links,
 * joints, frames and nested models (not the frames inside those, which
 * are not read yet: an error, as an unknown name is).
 */
static int
place_model(struct loader *L, struct scope *sc,
    const struct model_override *ov, struct scope *parent)
{
	struct phys_model *m = &L->w->models[sc->model];
	/* a model file's own model stands where its pose says, as
	 * libsdformat has it: its attribute places it where it is put (a
	 * frame it lacks is refused all the same) */
	bool put = ov || parent || !L->w->host;
	char *own = ov && ov->placement ? NULL : phys_node_attr(m->node,
	    "placement_frame");
	const char *name = ov && ov->placement ? ov->placement : own;
	phys_pose placed = m->pose, in_model;
	struct frame *f;
	size_t i;
	int rc;

	if (!name || !*name) {
		free(own);
		return 0;
	}
	m->pose = PHYS_POSE_IDENTITY;
	if (strstr(name, "::"))
		rc = fail_node(sc->doc, m->node, "placement frame '%s': phys "
		    "places a model by a frame of its own, not of a model "
		    "inside it", name);
	else if (strcmp(name, "__model__") != 0 && !scope_frame(sc, name))
		rc = fail_node(sc->doc, m->node, "placement frame '%s': the "
		    "model has no link, joint, frame or model of that name",
		    name);
	else
		rc = resolve_name(sc, name, m->node, &in_model);
	for (i = 0; i < sc->nframes; i++)	/* resolved at the origin */
		sc->frames[i].state = 0;
	m->pose = rc < 0 || !put ? placed : phys_pose_mul(placed,
	    phys_pose_inv(in_model));
	/* the enclosing model's frame of a nested <model>, where others
	 * find it */
	free(own);
	own = parent ? phys_node_attr(m->node, "name") : NULL;
	if (own && (f = scope_frame(parent, own)) && f->node == m->node) {
		f->world = m->pose;
		f->state = 2;
	}
	free(own);
	return rc;
}

/*
 * A model's canonical_link names a link of it (libsdformat refuses the
 * model otherwise), and a model that is not static has a link, or a
 * model inside it has: libsdformat refuses one without, which phys loads
 * as the nothing it is, and says.
 */
static int
check_links(struct loader *L, struct scope *sc, size_t links_before)
{
	struct phys_scene *w = L->w;
	struct phys_model *m = &w->models[sc->model];
	bool named;
	int rc = 0;

	if (named_canonical(w, sc->model, &named) < 0 && named) {
		char *name = phys_node_attr(m->node, "canonical_link");

		rc = fail_node(sc->doc, m->node, "canonical_link '%s': the "
		    "model has no link of that name", name);
		free(name);
	}
	/* its links and its models' were read after links_before */
	if (rc == 0 && !m->merged && !m->is_static &&
	    w->nlinks == links_before)
		warn_node(L, sc->doc, m->node, "model '%s' has no link, which "
		    "libsdformat refuses (a model must have at least one "
		    "link): it moves nothing", m->name);
	return rc;
}

static int
read_model(struct loader *L, struct phys_doc *d, xmlNodePtr mn, int parent,
    const struct model_override *ov)
{
	struct scope sc, *outer = L->scope;
	size_t links_before = L->w->nlinks;
	int mi, rc;

	if (L->depth >= MAX_MODEL_DEPTH)
		return phys_failat(PHYS_AT(d, mn), "models nested "
		    "more than %d deep", MAX_MODEL_DEPTH);
	L->depth++;
	mi = new_model(L, d, mn, parent, ov);
	if (mi < 0)
		return -1;
	if (model_pose(L, d, mi, parent >= 0 ? outer : NULL, ov) < 0)
		return -1;
	memset(&sc, 0, sizeof sc);
	phys_name_table_init(&sc.names, frame_name_of, &sc, false);
	sc.L = L;
	sc.doc = d;
	sc.model = mi;
	rc = add_frames(&sc, "link");
	if (rc == 0)
		rc = add_frames(&sc, "joint");
	if (rc == 0)
		rc = add_frames(&sc, "frame");
	if (rc == 0)
		rc = add_frames(&sc, "model");
	if (rc == 0)
		rc = place_model(L, &sc, ov, parent >= 0 ? outer : NULL);
	L->scope = &sc;
	if (rc == 0)
		rc = read_model_body(L, &sc);
	if (rc == 0)
		rc = check_attachments(&sc);
	if (rc == 0)
		rc = check_links(L, &sc, links_before);
	if (rc == 0)
		rc = keep_frames(&sc);
	L->scope = outer;
	scope_free(&sc);
	L->depth--;
	return rc;
}

/* ---- <include> of model:// URIs ---- */

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A file is found when it is there and no directory: a FIFO or a device
 * named is then refused by its reader, as what it is. */
static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static bool
is_resource(const char *path, bool want_dir)
{
	return want_dir ? is_dir(path) : is_file(path);
}

/* rel found in one of the colon-separated directories of variable var. */
static char *
search_path_var(const char *var, const char *rel, bool want_dir)
{
	const char *list, *p;
	char *path;
	size_t len;

	for (list = getenv(var); list && *list; list = p + (*p != 0)) {
		p = list + strcspn(list, ":");
		len = (size_t)(p - list);
		if (len == 0)
			continue;
		path = phys_xasprintf("%.*s/%s", (int)len, list, rel);
		if (is_resource(path, want_dir))
			return path;
		free(path);
	}
	return NULL;
}

/*
 * name in the directory of the document or one above it: a model file
 * in its model directory finds model://ITSELF/meshes/..., as it would
 * with that directory's parent on GAZEBO_MODEL_PATH.
 */
static char *
in_parent_dirs(const char *doc_path, const char *name, bool want_dir)
{
	char *dir = phys_path_dir(doc_path), *abs, *slash, *path = NULL;

	abs = realpath(dir, NULL);
	free(dir);
	while (abs && !path) {
		path = phys_xasprintf("%s/%s", *abs ? abs : "", name);
		if (!is_resource(path, want_dir)) {
			free(path);
			path = NULL;
		}
		if (!*abs || !(slash = strrchr(abs, '/')))
			break;
		*slash = '\0';
	}
	free(abs);
	return path;
}

/*
 * A model directory (want_dir) or a file named by uri: model://NAME/...
 * in the model paths (GAZEBO_MODEL_PATH, SDF_PATH, then Gazebo Sim's
 * GZ_SIM_RESOURCE_PATH and IGN_GAZEBO_RESOURCE_PATH); an absolute path
 * as it is; relative and file:// ones next to the document, in the
 * current directory, then in the same paths and GAZEBO_RESOURCE_PATH
 * (file://media/... is Gazebo's).
 */
static char *
locate_resource(const char *uri, const char *doc_path, bool want_dir)
{
	static const char *const vars[] = { "GAZEBO_MODEL_PATH", "SDF_PATH",
		"GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH",
		"GAZEBO_RESOURCE_PATH" };
	bool model = strncmp(uri, "model://", 8) == 0;
	const char *name = uri;
	char *path, *base;
	size_t i;

	if (phys_fuel_uri(uri))
		return phys_fuel_find(uri, want_dir);
	/* ROS worlds name meshes by package, as their URDFs do */
	if (strncmp(uri, "package://", 10) == 0)
		return want_dir ? NULL : phys_package_find(doc_path, uri);
	if (model)	/* model:///name is model://name, as libsdformat has it */
		name = uri + 8 + strspn(uri + 8, "/");
	else if (strncmp(uri, "file://", 7) == 0)
		name = uri + 7;
	if (name[0] == '/')
		return is_resource(name, want_dir) ? phys_xstrdup(name) : NULL;
	/* next to the file; standard input's, the current directory */
	if (!model) {
		base = phys_path_dir(doc_path);
		path = phys_xasprintf("%s/%s", base, name);
		free(base);
		if (is_resource(path, want_dir))
			return path;
		free(path);
		/* then the current directory, as gz-common's FindFile
		 * looks there (AWS's worlds say file://models/...) */
		if (is_resource(name, want_dir))
			return phys_xstrdup(name);
	}
	/* model:// looks in model paths; a relative name anywhere. */
	for (i = 0; i < sizeof vars / sizeof *vars - model; i++)
		if ((path = search_path_var(vars[i], name, want_dir)))
			return path;
	/* standard input: the current directory and those above it */
	return model ? in_parent_dirs(doc_path ? doc_path : "./-", name,
	    want_dir) : NULL;
}

/* The resource as found, its path as messages best show it (a URDF
 * included as ../../a/r.urdf from a world in out/ was named as
 * ./../../a/r.urdf). */
static char *
find_resource(const char *uri, const char *doc_path, bool want_dir)
{
	return phys_path_tidy(locate_resource(uri, doc_path, want_dir));
}

/*
 * model.config names the SDF file per version; take the newest we read.
 * One that is there but no regular file (a FIFO would wait for ever) is
 * an error: NULL.
 */
static char *
model_file(const char *dir)
{
	char *cfg = phys_xasprintf("%s/model.config", dir), *best = NULL, *v, *t;
	xmlDocPtr doc = NULL;
	xmlNodePtr n;
	double bestv = -1, ver;
	size_t len;

	if (access(cfg, R_OK) == 0) {
		if (!(t = phys_read_regular_file(cfg, &len))) {
			free(cfg);
			return NULL;
		}
		doc = xmlReadMemory(t, (int)len, cfg, NULL, XML_PARSE_NONET |
		    XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
		free(t);
	}
	free(cfg);
	for (n = doc ? phys_child(xmlDocGetRootElement(doc), "sdf") : NULL; n;
	    n = phys_next(n, "sdf")) {
		v = phys_node_attr(n, "version");
		ver = v && phys_parse_double(v, &ver) ? ver : 0;
		free(v);
		if (ver > bestv && ver < 1.95) {
			t = phys_node_text(n);
			free(best);
			best = t;
			bestv = ver;
		}
	}
	if (doc)
		xmlFreeDoc(doc);
	if (!best)
		best = phys_xstrdup("model.sdf");
	t = phys_xasprintf("%s/%s", dir, best);
	free(best);
	return t;
}

static int
include_override(struct phys_doc *d, xmlNodePtr in, struct model_override *ov,
    char **name)
{
	xmlNodePtr e;

	memset(ov, 0, sizeof *ov);
	ov->is_static = -1;
	*name = (e = phys_child(in, "name")) ? phys_node_text(e) : NULL;
	ov->name = *name;
	ov->doc = d;
	ov->at = in;
	if (phys_child(in, "pose")) {
		if (read_pose(d, in, &ov->pose, &ov->rel) < 0)
			return -1;
		ov->has_pose = true;
	}
	if (phys_child(in, "static"))
		ov->is_static = bool_flag(in, "static");
	if ((e = phys_child(in, "placement_frame"))) {
		ov->placement = phys_node_text(e);
		if (!ov->has_pose)	/* as libsdformat refuses it */
			return fail_node(d, e, "%s", "<placement_frame> needs "
			    "the <include>'s <pose>: where the frame goes");
	}
	return 0;
}

static bool
merged_include(xmlNodePtr in)
{
	char *m = phys_node_attr(in, "merge");
	bool on = false;

	if (m)
		phys_parse_bool(m, &on);
	free(m);
	return on;
}

/* opt->partial: one warning for all the includes left out, said even
 * with opt->quiet (only -q silences it: phys_set_quiet). */
static void
warn_missing(struct loader *L)
{
	char *msg;

	if (L->missing == 0)
		return;
	msg = not_found_text("model", L->missing_uri);
	if (L->missing == 1)
		phys_warnat(L->missing_file, L->missing_line, "%s: it is left "
		    "out", msg);
	else
		phys_warnat(L->missing_file, L->missing_line, "%s: it and %zu "
		    "more includes that do not resolve are left out", msg,
		    L->missing - 1);
	free(msg);
	free(L->missing_uri);
	free(L->missing_file);
	L->missing = 0;
}

/*
 * An MJCF file's <option> sets the world MuJoCo runs it in; an SDF world
 * that includes the file runs it under its own step and gravity. Said
 * when they differ, at the <option> (line), with both; model is the
 * converted document, whose <world> holds the option's values.
 */
static void
warn_included_option(struct loader *L, const struct phys_doc *model,
    long line)
{
	const struct phys_scene *w = L->w;
	xmlNodePtr mw = phys_child(model->root, "world");
	phys_vec3 g = PVV(w->vals, WORLD_gravity);
	double h = PVD(w->profiles[w->start].vals, PHYSICS_max_step_size);
	double mg[3], mh;
	char *t, *u;

	if (!line || L->opt->quiet)
		return;
	t = phys_node_text(phys_child(mw, "gravity"));
	u = phys_node_text(phys_child(phys_child(mw, "physics"),
	    "max_step_size"));
	if (phys_parse_doubles(t, mg, 3) == 3 && phys_parse_doubles(u, &mh,
	    1) == 1 && (mh != h || mg[0] != g.x || mg[1] != g.y ||
	    mg[2] != g.z))
		phys_warnat(phys_doc_file(model, line), phys_where_line(line),
		    "<option> sets the world MuJoCo runs this model in: "
		    "included in %s, it runs at that world's step of %g s and "
		    "gravity %g %g %g, not at %g s and %g %g %g ('phys-sdf "
		    "world' writes a world that keeps <option>)", w->doc.name,
		    h, g.x, g.y, g.z, mh, mg[0], mg[1], mg[2]);
	free(t);
	free(u);
}

/* What the load options ask of a URDF or MJCF file's reader. */
static struct phys_urdf_options
urdf_options(const struct phys_load_options *lo)
{
	struct phys_urdf_options uo = {
		.quiet = lo->quiet, .notes = lo->notes,
		.visuals = lo->notes || lo->whole,
		.skip_missing = lo->skip_missing, .doubts = lo->doubts
	};

	return uo;
}

/* An included URDF or MJCF file: its converted model takes its place in
 * the list of included documents, and owns it. */
static int
include_urdf(struct loader *L, struct phys_doc **inc)
{
	struct phys_scene *w = L->w;
	struct phys_urdf_options uo = urdf_options(L->opt);
	struct phys_doc *model = phys_xcalloc(1, sizeof *model);
	bool mjcf = (*inc)->kind == PHYS_DOC_MJCF;
	long line = mjcf ? phys_mjcf_option_line(*inc) : 0;
	int rc = mjcf ? phys_mjcf_convert(*inc, true, model, &uo) :
	    phys_urdf_convert(*inc, true, model, &uo);

	if (rc == 0)
		warn_included_option(L, model, line);
	w->includes[w->nincludes - 1] = model;
	*inc = model;
	return rc;
}

/*
 * A failure inside an included file names the <include> that brought it
 * in, and the includes above that: "... (included at w.sdf:4)", "...
 * (included at m.sdf:9, at w.sdf:4)". Returns -1.
 */
static int
included_at(struct phys_doc *d, xmlNodePtr in)
{
	static const char mark[] = " (included at ";
	char *msg = phys_xstrdup(phys_error());
	size_t len = strlen(msg);

	if (len && msg[len - 1] == ')' && strstr(msg, mark)) {
		msg[len - 1] = '\0';
		phys_fail("%s, at %s:%ld)", msg, PHYS_AT(d, in));
	} else {
		phys_fail("%s%s%s:%ld)", msg, mark, PHYS_AT(d, in));
	}
	free(msg);
	return -1;
}

/* A file the <include> in d names that could not be opened (or is no
 * regular file): said at the <include>, "w.sdf:4: m/model.sdf: why". */
static int
unreadable_include(struct phys_doc *d, xmlNodePtr in)
{
	return phys_fail_again(PHYS_AT(d, in), "");
}

/* An <include>'s <experimental:params> (its namespace's, as libsdformat
 * reads it), or NULL. */
static xmlNodePtr
experimental_params(xmlNodePtr in)
{
	xmlNodePtr c;

	for (c = in->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && ((c->ns && c->ns->href &&
		    xmlStrEqual(c->name, (const xmlChar *)"params") &&
		    xmlStrEqual(c->ns->href, (const xmlChar *)
		    "http://sdformat.org/schemas/experimental")) ||
		    xmlStrEqual(c->name, (const xmlChar *)
		    "experimental:params")))	/* its prefix undeclared */
			return c;
	return NULL;
}

/*
 * What an outer <include> says over the one it includes: a model file
 * whose root holds an <include> rather than a <model> (libsdformat reads
 * it as that model). Its name, pose, static and placement frame win; it
 * is the model's include, and the one it overrides the model's inner
 * include: the plugins of both are the model's.
 */
static void
override_over(struct model_override *ov, const struct model_override *outer)
{
	if (outer->name)
		ov->name = outer->name;
	if (outer->has_pose) {
		ov->has_pose = true;
		ov->pose = outer->pose;
		free(ov->rel);
		ov->rel = outer->rel ? phys_xstrdup(outer->rel) : NULL;
	}
	if (outer->is_static >= 0)
		ov->is_static = outer->is_static;
	if (outer->placement) {
		free(ov->placement);
		ov->placement = phys_xstrdup(outer->placement);
	}
	ov->inner_doc = ov->doc;
	ov->inner_at = ov->at;
	ov->doc = outer->doc;
	ov->at = outer->at;
	ov->merge = outer->merge;
}

static int
read_include(struct loader *L, struct phys_doc *d, xmlNodePtr in, int parent,
    const struct model_override *outer)
{
	struct phys_scene *w = L->w;
	struct model_override ov;
	struct phys_doc *inc;
	xmlNodePtr uri = phys_child(in, "uri"), mn, inner;
	char *u, *dir, *file, *name;
	int rc;

	if (!uri)
		return fail_node(d, in, "%s", "<include> has no <uri>");
	if (L->include_depth >= PHYS_MAX_INCLUDE_DEPTH)
		return phys_failat(PHYS_AT(d, in), "includes "
		    "nested more than %d deep: the limit (LIMITS in phys(7))",
		    PHYS_MAX_INCLUDE_DEPTH);
	if (within_limit(d, in, w->nincludes, PHYS_MAX_INCLUDES,
	    "included files") < 0)
		return -1;
	u = phys_node_text(uri);
	dir = find_resource(u, d->path, true);
	/* as libsdformat: a URI may name the model's SDF file itself */
	file = dir ? model_file(dir) : find_resource(u, d->path, false);
	if (dir && !file) {	/* its model.config could not be read */
		free(u);
		free(dir);
		return unreadable_include(d, in);
	}
	if (!file && L->opt->partial) {
		if (L->missing++ == 0) {
			L->missing_uri = u;
			L->missing_file = phys_xstrdup(d->name);
			L->missing_line = phys_node_line(uri);
		} else {
			free(u);
		}
		return 0;
	}
	if (!file) {
		rc = not_found(d, uri, "model", u);
		free(u);
		return rc;
	}
	free(u);
	free(dir);
	inc = phys_xcalloc(1, sizeof *inc);
	w->includes = phys_xrealloc(w->includes,
	    (w->nincludes + 1) * sizeof *w->includes);
	w->includes[w->nincludes++] = inc;
	rc = phys_doc_load(inc, file);
	free(file);
	if (rc < 0 && !inc->name)	/* not opened, or no regular file */
		return unreadable_include(d, in);
	if (rc == 0 && (inc->kind == PHYS_DOC_URDF ||
	    inc->kind == PHYS_DOC_MJCF))
		rc = include_urdf(L, &inc);
	if (rc < 0)
		return included_at(d, in);
	mn = phys_child(inc->root, "model");
	if (!mn && (phys_child(inc->root, "light") ||
	    phys_child(inc->root, "actor")))
		return 0;	/* lights and actors take no part in dynamics */
	/* a model file whose root is an <include> (PX4's models of a Fuel
	 * model) is that model: read as it says, this include saying over
	 * it (override_over) */
	inner = mn ? NULL : phys_child(inc->root, "include");
	if (!mn && !inner)
		return fail_node(inc, inc->root, "%s",
		    "the included file has no <model>");
	if (experimental_params(in) && inner)
		return fail_node(d, experimental_params(in), "%s",
		    "<experimental:params> of an <include> whose file is "
		    "itself an <include>: phys edits a model it includes "
		    "directly");
	if (experimental_params(in) && phys_include_edit(d,
	    experimental_params(in), inc, mn) < 0)
		return -1;
	rc = include_override(d, in, &ov, &name);
	if (rc == 0 && merged_include(in) && parent < 0)
		warn_node(L, d, in, "%s", "<include merge=\"true\"> merges into "
		    "a model; at world level the model is loaded as it is");
	ov.merge = rc == 0 && merged_include(in) && parent >= 0;
	if (rc == 0 && outer)
		override_over(&ov, outer);
	if (rc == 0) {
		L->include_depth++;
		rc = mn ? read_model(L, inc, mn, parent, &ov) :
		    read_include(L, inc, inner, parent, &ov);
		L->include_depth--;
	}
	free(name);
	free(ov.rel);
	free(ov.placement);
	return rc < 0 ? included_at(d, in) : 0;
}

/* ---- the world ---- */

void
phys_load_options_default(struct phys_load_options *o)
{
	memset(o, 0, sizeof *o);
}

/*
 * A joint whose two links are already joined closes a kinematic loop.
 * libsdformat and Gazebo accept loops (a four-bar linkage is one) and so
 * does every engine, as one more constraint; say so, since a loop is as
 * often a mistake.
 */
static void
warn_joint_loops(struct loader *L)
{
	struct phys_scene *w = L->w;
	int *up = phys_xmalloc((w->nlinks + 1) * sizeof *up), a, b;
	size_t i;

	for (i = 0; i <= w->nlinks; i++)
		up[i] = (int)i;
	for (i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		if (j->type == PHYS_JOINT_GEARBOX)
			continue;
		a = phys_set_root(up, j->parent < 0 ? (int)w->nlinks :
		    j->parent);
		b = phys_set_root(up, j->child);
		if (a == b)
			warn_node(L, j->doc, j->node, "joint '%s' closes a "
			    "kinematic loop (solved as one more "
			    "constraint)", j->name);
		up[a] = b;
	}
	free(up);
}

/* The world's <frame>s, a scope of their own: the models read after
 * name them in their poses. */
static int
world_scope_begin(struct loader *L, struct scope *ws)
{
	memset(ws, 0, sizeof *ws);
	phys_name_table_init(&ws->names, frame_name_of, ws, false);
	ws->L = L;
	ws->doc = &L->w->doc;
	ws->model = -1;
	L->world = ws;
	return add_frames(ws, "frame");
}

/*
 * World frames, once every model is read: attached to the world, a
 * world frame, or a model, link, joint or frame of one by its scoped name
 * ("M1::L"), with no cycles; each pose resolving, named or not, as
 * libsdformat's graphs have them.
 */
static int
check_world_frames(struct loader *L)
{
	struct scope *ws = L->world;
	phys_pose pose;
	size_t i;

	if (check_attachments(ws) < 0)
		return -1;
	for (i = 0; i < ws->nframes; i++)
		if (resolve_frame(ws, &ws->frames[i], &pose) < 0)
			return -1;
	return 0;
}

/* ---- joints of the world (SDF 1.12) ---- */

/* The link a world joint's parent or child names: -1 for the world. */
static int
world_joint_link(struct loader *L, xmlNodePtr jn, const char *which, int *out)
{
	xmlNodePtr e = phys_child(jn, which);
	char *name;
	int rc;

	if (!e)
		return fail_node(&L->w->doc, jn, "joint has no <%s>", which);
	name = phys_node_text(e);
	rc = frame_link(L->world, name, e, out);
	free(name);
	return rc;
}

/* A world joint's frame: relative_to, by default its child frame (a
 * link's, a model's, or a frame's the child names). */
static int
world_joint_pose(struct loader *L, struct phys_joint *j)
{
	phys_pose local, base = PHYS_POSE_IDENTITY;
	char *rel, *child;
	int rc;

	if (read_pose(j->doc, j->node, &local, &rel) < 0)
		return -1;
	child = phys_node_text(phys_child(j->node, "child"));
	rc = world_frame(L, &L->w->doc, rel && *rel ? rel : child, j->node,
	    &base);
	free(child);
	free(rel);
	j->pose = phys_pose_mul(base, local);
	return rc;
}

/* An axis of a world joint: in the joint frame, or expressed_in a frame. */
static int
world_joint_axis(struct loader *L, struct phys_joint *j, const char *elem,
    phys_vec3 *out)
{
	xmlNodePtr axis = phys_child(j->node, elem), xyz = phys_child(axis, "xyz");
	phys_quat frame = j->pose.q;
	phys_pose base;
	double v[3] = { 0, 0, 1 };
	char *in;
	int rc = 0;

	if (xyz && read_numbers(j->doc, axis, "xyz", v, 3, true) < 0)
		return -1;
	if (v[0] == 0 && v[1] == 0 && v[2] == 0)
		return fail_node(j->doc, axis ? axis : j->node,
		    "joint '%s': axis is zero", j->name);
	in = xyz ? phys_node_attr(xyz, "expressed_in") : NULL;
	if (in && *in && (rc = world_frame(L, &L->w->doc, in, xyz,
	    &base)) == 0)
		frame = base.q;
	free(in);
	*out = v3_normalize(phys_quat_rotate(frame, v3(v[0], v[1], v[2])));
	return rc;
}

/*
 * SDF 1.12's <joint> of the world, between links of different models
 * named by scoped name, read once every model is: as a model's joint,
 * named in the world's scope. Gearboxes and mimics need one model's
 * scope and stay refused there.
 */
static int
read_world_joint(struct loader *L, xmlNodePtr jn)
{
	struct phys_scene *w = L->w;
	struct phys_joint *j;
	char *local = phys_node_attr(jn, "name");
	int ji;

	if (!local || !*local) {
		free(local);
		return fail_node(&w->doc, jn, "%s", "<joint> has no name");
	}
	if (within_limit(&w->doc, jn, w->njoints, PHYS_MAX_JOINTS,
	    "joints") < 0) {
		free(local);
		return -1;
	}
	PHYS_GROW(w->joints, w->njoints, L->capjoints);
	ji = (int)w->njoints;
	j = &w->joints[ji];
	memset(j, 0, sizeof *j);
	j->name = local;
	j->node = jn;
	j->doc = &w->doc;
	j->reference = -1;
	j->vals = entity_values_new(w, PHYS_S_JOINT);
	w->njoints++;
	if (register_name(L, &w->doc, jn, j->name, PHYS_K_JOINT, ji) < 0 ||
	    joint_type(&w->doc, jn, &j->type) < 0 ||
	    world_joint_link(L, jn, "parent", &j->parent) < 0 ||
	    world_joint_link(L, jn, "child", &j->child) < 0 ||
	    world_joint_pose(L, j) < 0 ||
	    read_values(L, &w->doc, jn, PHYS_S_JOINT, j->vals) < 0 ||
	    world_joint_axis(L, j, "axis", &j->axis[0]) < 0 ||
	    world_joint_axis(L, j, "axis2", &j->axis[1]) < 0)
		return -1;
	j->model = j->child >= 0 ? w->links[j->child].model : 0;
	if (j->type == PHYS_JOINT_GEARBOX ||
	    phys_child(phys_child(jn, "axis"), "mimic") ||
	    phys_child(phys_child(jn, "axis2"), "mimic"))
		return fail_node(&w->doc, jn, "joint '%s': a gearbox or a "
		    "<mimic> is supported in a model's joints, not the "
		    "world's", j->name);
	if (j->child == -1)
		return fail_node(&w->doc, jn,
		    "joint '%s': the child cannot be the world", j->name);
	if (j->parent == j->child)
		return fail_node(&w->doc, jn,
		    "joint '%s': parent and child are the same link", j->name);
	if ((j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2) &&
	    v3_norm(v3_cross(j->axis[0], j->axis[1])) < 1e-6)
		return fail_node(&w->doc, jn, "joint '%s': axis and axis2 "
		    "are parallel; the joint needs two different axes",
		    j->name);
	return 0;
}

/* libsdformat reads several worlds; Gazebo runs the first. */
static int
other_worlds(struct loader *L)
{
	struct phys_scene *w = L->w;
	xmlNodePtr n;
	char *name;
	int rc = 0;

	for (n = phys_next(w->node, "world"); n && rc == 0;
	    n = phys_next(n, "world")) {
		name = phys_node_attr(n, "name");
		if (!name || !*name)
			rc = fail_node(&w->doc, n, "%s", "<world> has no name "
			    "(SDF requires one)");
		else if (strcmp(name, w->name) == 0)
			rc = fail_node(&w->doc, n, "a second world named '%s'",
			    name);
		else
			warn_node(L, &w->doc, n, "only the first world is run; "
			    "world '%s' is not loaded", name);
		free(name);
	}
	return rc;
}

/* What every world has: values, profiles, and then its models. */
static int
world_values(struct loader *L)
{
	struct phys_scene *w = L->w;

	w->vals = phys_values_new(PHYS_S_WORLD);
	w->index = phys_xcalloc(1, sizeof *w->index);
	if (read_values(L, phys_world_doc(w), w->node, PHYS_S_WORLD,
	    w->vals) < 0 || read_profiles(L) < 0)
		return -1;
	fold_legacy_gravity(&w->profiles[w->start], w->vals);
	return 0;
}

static int
read_world(struct loader *L)
{
	struct phys_scene *w = L->w;
	struct scope ws;
	xmlNodePtr n;
	int rc = 0;

	w->node = phys_child(w->doc.root, "world");
	if (!w->node && (n = phys_child(w->doc.root, NULL)))
		return phys_failat(PHYS_AT(&w->doc, n), "<%s>, and "
		    "no <world> or <model>: nothing to simulate",
		    (const char *)n->name);
	if (!w->node)
		return phys_failat(PHYS_AT(&w->doc, w->doc.root),
		    "%s", "no <world> and no <model> element");
	w->name = phys_node_attr(w->node, "name");
	if (!w->name || !*w->name)
		return fail_node(&w->doc, w->node, "%s",
		    "<world> has no name (SDF requires one)");
	if (other_worlds(L) < 0 || world_values(L) < 0)
		return -1;
	rc = world_scope_begin(L, &ws);
	for (n = phys_child(w->node, NULL); n && rc == 0; n = phys_next(n, NULL))
		if (phys_node_is(n, "model"))
			rc = read_model(L, &w->doc, n, -1, NULL);
		else if (phys_node_is(n, "include"))
			rc = read_include(L, &w->doc, n, -1, NULL);
		else if (phys_node_is(n, "population"))
			warn_node(L, &w->doc, n, "%s", "<population> is not "
			    "supported: its models are not loaded");
		else if (phys_mjcf_own(n, "tendon"))
			warn_node(L, &w->doc, n, "%s", "<phys:tendon> is a "
			    "model's: one of the world is not read");
	warn_missing(L);
	if (rc == 0)
		rc = check_world_frames(L);
	/* SDF 1.12's joints of the world join models read by now */
	for (n = phys_child(w->node, "joint"); n && rc == 0;
	    n = phys_next(n, "joint"))
		rc = read_world_joint(L, n);
	phys_heightmap_cache_trim(&w->heightmaps);
	if (rc == 0)
		warn_joint_loops(L);
	L->world = NULL;
	scope_free(&ws);
	return rc;
}

/*
 * The world a model file or a URDF runs in, as phys(7) says: the
 * specification's gravity and one ODE profile of its defaults, no ground.
 * It is made in memory and never written.
 */
static const char host_world[] =
    "<sdf version=\"1.7\"><world name=\"default\"/></sdf>";

static int
read_hosted(struct loader *L)
{
	struct phys_scene *w = L->w;
	struct phys_urdf_options uo = urdf_options(L->opt);
	struct phys_doc *md = &w->doc;
	xmlNodePtr n;
	int rc = 0;

	w->host = phys_xcalloc(1, sizeof *w->host);
	if (phys_doc_load_text(w->host, w->doc.name, host_world,
	    sizeof host_world - 1) < 0)
		return -1;
	w->node = phys_child(w->host->root, "world");
	w->name = phys_xstrdup("default");
	if (w->doc.kind == PHYS_DOC_URDF || w->doc.kind == PHYS_DOC_MJCF) {
		md = w->model_doc = phys_xcalloc(1, sizeof *w->model_doc);
		if ((w->doc.kind == PHYS_DOC_MJCF ? phys_mjcf_convert(&w->doc,
		    false, md, &uo) : phys_urdf_convert(&w->doc, false, md,
		    &uo)) < 0)
			return -1;
	}
	if ((n = phys_child(md->root, "world"))) {
		/* MJCF's <option>: the default world's gravity and profiles */
		xmlReplaceNode(w->node, phys_node_copy(n, w->host->xml));
		xmlFreeNode(w->node);
		w->node = phys_child(w->host->root, "world");
		xmlUnlinkNode(n);
		xmlFreeNode(n);
	}
	if (world_values(L) < 0)
		return -1;
	/* a model file holds one model: libsdformat reads the first of
	 * several, and says so */
	n = phys_child(md->root, "model");
	if (n && phys_next(n, "model"))
		warn_node(L, md, phys_next(n, "model"), "%s", "a second <model> "
		    "at the file's root, where SDF has one: libsdformat reads "
		    "the first alone, and so does phys");
	if (n)
		rc = read_model(L, md, n, -1, NULL);
	else if ((n = phys_child(md->root, "include")))
		rc = read_include(L, md, n, -1, NULL);	/* as libsdformat */
	if (rc == 0)
		warn_joint_loops(L);
	return rc;
}

/* A <phys:pair>'s surface (pairs.h), read as a collision's is. */
static int
pair_values(void *ctx, struct phys_doc *d, xmlNodePtr owner,
    struct phys_value **out)
{
	struct loader *L = ctx;

	*out = entity_values_new(L->w, PHYS_S_COLLISION);
	return read_values(L, d, owner, PHYS_S_COLLISION, *out);
}

/*
 * Each link's skeleton: the model of the root of its tree of joints (a
 * loop's second parent ignored). Each chain is walked once, its links
 * given the answer on the way back, so that a robot of 100,000 links in
 * one chain loads in time linear in them.
 */
static void
mark_skeletons(struct phys_scene *w)
{
	int *up = phys_xmalloc((w->nlinks + 1) * sizeof *up), li, k;
	size_t i, steps;

	for (i = 0; i < w->nlinks; i++) {
		up[i] = -1;
		w->links[i].skeleton = -1;
	}
	for (i = 0; i < w->njoints; i++)
		if (w->joints[i].child >= 0 && w->joints[i].parent >= 0 &&
		    up[w->joints[i].child] < 0)
			up[w->joints[i].child] = w->joints[i].parent;
	for (i = 0; i < w->nlinks; i++) {
		/* up to a root, or a link already answered (a cycle of
		 * parents, which a loop's refusal leaves, ends at nlinks) */
		li = (int)i;
		for (steps = 0; up[li] >= 0 && w->links[li].skeleton < 0 &&
		    steps < w->nlinks; steps++)
			li = up[li];
		k = w->links[li].skeleton >= 0 ? w->links[li].skeleton :
		    w->links[li].model;
		for (li = (int)i; li >= 0 && w->links[li].skeleton < 0;
		    li = up[li])
			w->links[li].skeleton = k;
	}
	free(up);
}

/*
 * Each link's welded: a fixed joint holds it to the world, to a static
 * model's link or to a welded link. Each chain is walked once (a link's
 * answer is kept), so that a world of many welded links loads in time
 * linear in them. And each model's heaviest link, which such a link of
 * little mass runs as, and its lightest, whose share a massless moving
 * link runs with.
 */
static void
mark_welded(struct phys_scene *w)
{
	enum { UNKNOWN, YES, NO, ON_PATH };
	int *up = phys_xmalloc((w->nlinks + 1) * sizeof *up);
	int *via = phys_xmalloc((w->nlinks + 1) * sizeof *via);
	unsigned char *st = phys_xcalloc(w->nlinks + 1, 1);
	size_t i, n, k;
	int *path = phys_xmalloc((w->nlinks + 1) * sizeof *path), li, p;
	unsigned char to;

	for (i = 0; i < w->nlinks; i++)
		up[i] = -2, via[i] = -1;	/* held by no fixed joint */
	for (i = 0; i < w->njoints; i++)
		if (w->joints[i].type == PHYS_JOINT_FIXED &&
		    w->joints[i].child >= 0) {
			up[w->joints[i].child] = w->joints[i].parent;
			via[w->joints[i].child] = (int)i;
		}
	for (i = 0; i < w->nlinks; i++) {
		for (n = 0, li = (int)i, to = NO; st[li] == UNKNOWN;) {
			st[li] = ON_PATH;
			path[n++] = li;
			if (w->models[w->links[li].model].is_static) {
				to = YES;
				break;
			}
			if ((p = up[li]) < 0) {
				to = p == -1 ? YES : NO;
				break;
			}
			li = p;
		}
		if (st[li] == YES || st[li] == NO)
			to = st[li];
		for (k = 0; k < n; k++)
			st[path[k]] = to;
	}
	for (i = 0; i < w->nlinks; i++) {
		w->links[i].welded = st[i] == YES;
		w->links[i].weld = st[i] == YES &&
		    !w->models[w->links[i].model].is_static ? via[i] : -1;
	}
	for (i = 0; i < w->nmodels; i++)
		w->models[i].heaviest = w->models[i].lightest = -1;
	for (i = 0; i < w->nlinks; i++) {
		int *h = &w->models[w->links[i].model].heaviest;
		int *l = &w->models[w->links[i].model].lightest;
		double m = PVD(w->links[i].vals, LINK_inertial_mass);

		if (m > 0 && (*h < 0 || m > PVD(w->links[*h].vals,
		    LINK_inertial_mass)))
			*h = (int)i;
		if (m > 0 && (*l < 0 || m < PVD(w->links[*l].vals,
		    LINK_inertial_mass)))
			*l = (int)i;
	}
	free(path);
	free(st);
	free(up);
	free(via);
}

/* Joint i's end k (0: parent, 1: child) as a link it is listed at, or
 * -1: the world, or a child that is its parent too (listed once). */
static int
listed_end(const struct phys_scene *w, size_t i, int k)
{
	int p = w->joints[i].parent, c = w->joints[i].child, l = k ? c : p;

	if (l < 0 || (size_t)l >= w->nlinks || (k && c == p))
		return -1;
	return l;
}

/* The joints at each link (world_types.h), counted then placed: one pass
 * over the joints each, so that a walk over the links beyond a joint
 * costs the links it finds, not the world's joints each. */
static void
index_link_joints(struct phys_scene *w)
{
	size_t *at = phys_xcalloc(w->nlinks + 2, sizeof *at), i;
	int *js = phys_xcalloc(2 * w->njoints + 1, sizeof *js), k, l;

	for (i = 0; i < w->njoints; i++)
		for (k = 0; k < 2; k++)
			if ((l = listed_end(w, i, k)) >= 0)
				at[l + 2]++;
	for (i = 2; i < w->nlinks + 2; i++)
		at[i] += at[i - 1];
	for (i = 0; i < w->njoints; i++)
		for (k = 0; k < 2; k++)
			if ((l = listed_end(w, i, k)) >= 0)
				js[at[l + 1]++] = (int)i;
	w->link_joints_at = at;
	w->link_joints = js;
}

int
phys_world_load_doc(struct phys_scene *w, const struct phys_load_options *opt)
{
	struct phys_load_options dflt;
	struct loader L;
	if (!opt) {
		phys_load_options_default(&dflt);
		opt = &dflt;
	}
	size_t i;
	int rc;

	memset(&L, 0, sizeof L);
	L.w = w;
	L.opt = opt;
	phys_name_table_init(&L.frame_names, named_frame_name, &L, false);
	phys_warn_batch_begin();	/* fifty links, one fault: one line */
	rc = w->doc.kind == PHYS_DOC_WORLD ? read_world(&L) : read_hosted(&L);
	warn_missing(&L);	/* a model file's, if any */
	phys_warn_batch_end();
	if (rc == 0)
		rc = phys_excludes_read(w);
	if (rc == 0)
		rc = phys_pairs_read(w, pair_values, &L);
	if (rc == 0) {
		mark_welded(w);
		mark_skeletons(w);
		phys_inside_find(w, opt->quiet);
	}
	index_link_joints(w);
	for (i = 0; i < L.nframes; i++)
		free(L.frames[i].name);
	free(L.frames);
	phys_name_table_free(&L.frame_names);
	return rc;
}

int
phys_world_load(struct phys_scene *w, const char *path,
    const struct phys_load_options *opt)
{
	memset(w, 0, sizeof *w);
	if (phys_doc_load(&w->doc, path) < 0)
		return -1;
	return phys_world_load_doc(w, opt);
}

int
phys_world_open_with(struct phys_scene *w, const char *path,
    const struct phys_load_options *lo)
{
	if (phys_world_load(w, path, lo) == 0)
		return 0;
	phys_report();
	phys_world_free(w);
	return -1;
}

int
phys_world_open(struct phys_scene *w, const char *path, bool warn)
{
	struct phys_load_options lo;

	phys_load_options_default(&lo);
	lo.quiet = !warn;
	lo.doubts = true;
	lo.skip_unsupported = true;
	return phys_world_open_with(w, path, &lo);
}

void
phys_world_free(struct phys_scene *w)
{
	size_t i;

	for (i = 0; i < w->nprofiles; i++)
		phys_profile_free(&w->profiles[i]);
	for (i = 0; i < w->nmodels; i++)
		free(w->models[i].name);
	for (i = 0; i < w->nlinks; i++) {
		free(w->links[i].name);
		free(w->links[i].lost);
		phys_values_clear(PHYS_S_LINK, w->links[i].vals);
	}
	for (i = 0; i < w->ncollisions; i++) {
		free(w->collisions[i].name);
		phys_values_clear(PHYS_S_COLLISION,
		    w->collisions[i].vals);
	}
	for (i = 0; i < w->njoints; i++) {
		free(w->joints[i].name);
		phys_values_clear(PHYS_S_JOINT, w->joints[i].vals);
	}
	for (i = 0; i < w->nvisuals; i++)
		free(w->visuals[i].name);
	free(w->visuals);
	for (i = 0; i < w->ntendons; i++) {
		free(w->tendons[i].name);
		free(w->tendons[i].joints);
		free(w->tendons[i].coef);
	}
	free(w->tendons);
	for (i = 0; i < w->nincludes; i++) {
		phys_doc_free(w->includes[i]);
		free(w->includes[i]);
	}
	if (w->vals)
		phys_values_free(PHYS_S_WORLD, w->vals);
	if (w->index)
		free(w->index->slots);
	free(w->index);
	free(w->includes);
	free(w->profiles);
	free(w->models);
	free(w->links);
	free(w->link_joints_at);
	free(w->link_joints);
	free(w->excluded);
	free(w->inside);
	free(w->welds);
	phys_pairs_free(w);
	free(w->collisions);
	phys_mesh_cache_free(&w->meshes);
	phys_heightmap_cache_free(&w->heightmaps);
	free(w->joints);
	free(w->name);
	phys_arena_free(&w->values);
	if (w->host)
		phys_doc_free(w->host);
	free(w->host);
	if (w->model_doc)
		phys_doc_free(w->model_doc);
	free(w->model_doc);
	phys_doc_free(&w->doc);
	memset(w, 0, sizeof *w);
}

struct phys_doc *
phys_world_doc(struct phys_scene *w)
{
	return w->host ? w->host : &w->doc;
}

int
phys_world_has_world(const struct phys_scene *w, const char *what)
{
	if (!w->host)
		return 0;
	return phys_fail("%s is a %s: it holds no %s. Put the model in a "
	    "world (phys-sdf world %s > world.sdf) and use that", w->doc.name,
	    w->doc.kind == PHYS_DOC_URDF ? "URDF file" : "model file", what,
	    w->doc.path ? w->doc.path : "robot.urdf");
}

bool
phys_world_editable(const struct phys_scene *w, phys_scope s, int idx)
{
	const struct phys_doc *d = phys_entity_doc((struct phys_scene *)w, s,
	    idx);

	return d == &w->doc || (w->model_doc && d == w->model_doc);
}

int
phys_world_entity_of(const struct phys_scene *w, const char *name,
    enum phys_kind kind)
{
	const struct phys_name_slot *slot = index_get_kind(w->index, name,
	    (int)kind);

	return slot ? slot->idx : -1;
}

int
phys_world_entity(const struct phys_scene *w, const char *name,
    enum phys_kind *kind)
{
	const struct phys_name_slot *slot = index_get(w->index, name);

	if (!slot)
		return -1;
	*kind = (enum phys_kind)slot->kind;
	return slot->idx;
}

struct phys_value *
phys_entity_values(struct phys_scene *w, phys_scope s, int idx)
{
	switch (s) {
	case PHYS_S_PHYSICS:
		return w->profiles[idx].vals;
	case PHYS_S_WORLD:
		return w->vals;
	case PHYS_S_LINK:
		return w->links[idx].vals;
	case PHYS_S_COLLISION:
		return w->collisions[idx].vals;
	case PHYS_S_JOINT:
		return w->joints[idx].vals;
	default:
		return NULL;
	}
}

const char *
phys_entity_name(const struct phys_scene *w, phys_scope s, int idx)
{
	switch (s) {
	case PHYS_S_PHYSICS:
		return w->profiles[idx].name;
	case PHYS_S_WORLD:
		return w->name;
	case PHYS_S_LINK:
		return w->links[idx].name;
	case PHYS_S_COLLISION:
		return w->collisions[idx].name;
	case PHYS_S_JOINT:
		return w->joints[idx].name;
	default:
		return NULL;
	}
}

xmlNodePtr
phys_entity_node(const struct phys_scene *w, phys_scope s, int idx)
{
	switch (s) {
	case PHYS_S_PHYSICS:
		return w->profiles[idx].node;
	case PHYS_S_WORLD:
		return w->node;
	case PHYS_S_LINK:
		return w->links[idx].node;
	case PHYS_S_COLLISION:
		return w->collisions[idx].node;
	case PHYS_S_JOINT:
		return w->joints[idx].node;
	default:
		return NULL;
	}
}

struct phys_doc *
phys_entity_doc(struct phys_scene *w, phys_scope s, int idx)
{
	switch (s) {
	case PHYS_S_LINK:
		return w->links[idx].doc;
	case PHYS_S_COLLISION:
		return w->collisions[idx].doc;
	case PHYS_S_JOINT:
		return w->joints[idx].doc;
	default:
		return phys_world_doc(w);
	}
}

size_t
phys_entity_count(const struct phys_scene *w, phys_scope s)
{
	switch (s) {
	case PHYS_S_PHYSICS:
		return w->nprofiles;
	case PHYS_S_WORLD:
		return 1;
	case PHYS_S_LINK:
		return w->nlinks;
	case PHYS_S_COLLISION:
		return w->ncollisions;
	case PHYS_S_JOINT:
		return w->njoints;
	default:
		return 0;
	}
}

/* ---- a run's values ---- */

static const struct phys_value *
entity_values(const struct phys_scene *w, phys_scope s, int idx)
{
	return phys_entity_values((struct phys_scene *)w, s, idx);
}

/* The run's own copy of entity i's values in scope s, made now unless
 * it has one. */
static void
own_values(struct phys_run_values *rv, phys_scope s, size_t i)
{
	struct phys_value *vals;

	if (rv->own[s][i])
		return;
	vals = phys_arena_alloc(&rv->arena, phys_scope_count(s) *
	    sizeof *vals);
	phys_values_init(s, vals, rv->v[s][i]);
	/* in the array once whole: memory running out on the way leaves
	 * none half made for the free */
	rv->v[s][i] = vals;
	rv->own[s][i] = 1;
}

void
phys_run_values_init(struct phys_run_values *rv, const struct phys_scene *w,
    int profile)
{
	phys_scope s;
	size_t i;

	memset(rv, 0, sizeof *rv);
	for (s = 0; s < PHYS_NSCOPES; s++) {
		rv->n[s] = s <= PHYS_S_WORLD ? 1 : phys_entity_count(w, s);
		rv->v[s] = phys_xcalloc(rv->n[s] ? rv->n[s] : 1, sizeof *rv->v[s]);
		rv->own[s] = phys_xcalloc(rv->n[s] ? rv->n[s] : 1, 1);
		for (i = 0; i < rv->n[s]; i++) {
			/* the world's, read only until written; the profile's
			 * and the world's own at once (a profile switch writes
			 * them), as an entity without values (the defaults) */
			rv->v[s][i] = (struct phys_value *)(s ==
			    PHYS_S_PHYSICS ? w->profiles[profile].vals :
			    entity_values(w, s, (int)i));
			if (s <= PHYS_S_WORLD || !rv->v[s][i])
				own_values(rv, s, i);
		}
	}
	fold_legacy_gravity(&w->profiles[profile], rv->v[PHYS_S_WORLD][0]);
}

void
phys_run_values_free(struct phys_run_values *rv)
{
	phys_scope s;
	size_t i;

	for (s = 0; s < PHYS_NSCOPES; s++) {
		for (i = 0; rv->v[s] && rv->own[s] && i < rv->n[s]; i++)
			if (rv->own[s][i])
				phys_values_clear(s, rv->v[s][i]);
		free(rv->v[s]);
		free(rv->own[s]);
	}
	phys_arena_free(&rv->arena);
	memset(rv, 0, sizeof *rv);
}

void
phys_run_values_use(struct phys_run_values *rv, const struct phys_scene *w,
    int profile, const struct phys_value *vals)
{
	rv->changes++;
	phys_values_copy(PHYS_S_PHYSICS, rv->v[PHYS_S_PHYSICS][0],
	    vals ? vals : w->profiles[profile].vals);
	fold_legacy_gravity(&w->profiles[profile], rv->v[PHYS_S_WORLD][0]);
}

struct phys_value *
phys_run_values_at(struct phys_run_values *rv, phys_scope s, int idx)
{
	size_t i = s <= PHYS_S_WORLD ? 0 : (size_t)idx;

	rv->changes++;
	own_values(rv, s, i);
	return rv->v[s][i];
}

int
phys_gear_hinge(const struct phys_scene *w, int ref, int link,
    phys_vec3 axis, double *sign)
{
	const struct phys_joint *h;
	size_t i;

	for (i = 0; i < w->njoints; i++) {
		h = &w->joints[i];
		if (h->type != PHYS_JOINT_REVOLUTE || !((h->parent == ref &&
		    h->child == link) || (h->parent == link &&
		    h->child == ref)))
			continue;
		*sign = (v3_dot(h->axis[0], axis) < 0 ? -1 : 1) *
		    (h->child == link ? 1 : -1);
		return (int)i;
	}
	return -1;
}

int
phys_gearbox_gears(const struct phys_scene *w, const struct phys_joint *j,
    int gear[2], double coef[2])
{
	int k, link;

	for (k = 0; k < 2; k++) {
		link = k ? j->child : j->parent;
		if (link < 0 || (gear[k] = phys_gear_hinge(w, j->reference,
		    link, j->axis[k], &coef[k])) < 0)
			return -1;
	}
	return 0;
}
