/*
 * sdfprint.c - a world as one self-contained SDF document.
 *
 * The world is loaded first; the loader's world poses are the truth.
 * Every <pose> of a model, link, joint, collision and visual is then
 * rewritten relative to its parent's frame (the enclosing model, or the
 * world; a joint's child link) with relative_to removed, joint axes are
 * written in the frame the output version reads them in, and each
 * <include> is replaced by the (rewritten) model it names. The documents
 * are edited in place: the loaded world is not used after printing.
 */
#include "sdfprint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/tree.h>

#include "mjcf.h"
#include "mjcfwrite.h"
#include "names.h"
#include "reach.h"
#include "sdfedit.h"
#include "startpose.h"
#include "world.h"

/*
 * The <frame>s of an owner (the world or a model) by name, each world
 * pose kept once resolved, or the error that stopped it: a chain of
 * frames costs its length once, however long, and a cycle is found as
 * one, not by how deep it goes.
 */
enum { FRAME_NEW, FRAME_RESOLVING, FRAME_DONE, FRAME_FAILED };

struct owner_frames {
	bool made;
	xmlNodePtr *node;
	char **name;
	size_t n;
	struct phys_name_table index;
	unsigned char *state;
	phys_pose *pose;	/* FRAME_DONE's */
	/* FRAME_FAILED's error, given again to what depends on it */
	char **why_file, **why;
	long *why_line;
};

struct printer {
	struct phys_scene *w;
	int out_minor;		/* the version written: the world's */
	size_t next_include;	/* w->includes, in the loader's order */
	struct owner_frames *owners;	/* [0]: the world's, [1 + m] model m's */
};

static int resolve_name(struct printer *pr, int model, const char *name,
    xmlNodePtr at, struct phys_doc *d, int depth, phys_pose *out);

/* ---- poses ---- */

/*
 * Rewritten numbers come from products of rotations: 15 significant
 * digits and nothing below 1e-12 (a picometre, a picoradian) keep them
 * readable, 0.2 rather than 0.20000000000000018, at no cost in accuracy.
 */
static void
put_numbers(struct phys_buf *b, const double *v, int n)
{
	double x;
	int i;

	for (i = 0; i < n; i++) {
		x = fabs(v[i]) < 1e-12 ? 0 : v[i];
		phys_buf_printf(b, i ? " %.15g" : "%.15g", x);
	}
}

/* Insert e as n's first element, on a line of its own when n's
 * children are on lines of their own. */
static void
add_first_child(xmlNodePtr n, xmlNodePtr e)
{
	xmlNodePtr first = n->children;

	if (first && xmlIsBlankNode(first)) {
		xmlAddNextSibling(first, e);
		xmlAddNextSibling(e, xmlNewDocText(n->doc, first->content));
	} else if (first) {
		xmlAddPrevSibling(first, e);
	} else {
		xmlAddChild(n, e);
	}
}

/* Set (creating it first when absent) the <pose> of n, with no
 * relative_to, or with relative_to="frame" when frame is not NULL. */
static void
set_pose(xmlNodePtr n, phys_pose p, const char *frame)
{
	xmlNodePtr e = phys_child(n, "pose");
	struct phys_buf b = { 0 };
	double v[6];

	phys_pose_to6(p, v);
	put_numbers(&b, v, 6);
	if (!e) {
		e = xmlNewDocNode(n->doc, NULL, (const xmlChar *)"pose", NULL);
		add_first_child(n, e);
	}
	xmlNodeSetContent(e, (const xmlChar *)b.s);
	xmlUnsetProp(e, (const xmlChar *)"relative_to");
	xmlUnsetProp(e, (const xmlChar *)"frame");
	xmlUnsetProp(e, (const xmlChar *)"rotation_format");
	xmlUnsetProp(e, (const xmlChar *)"degrees");
	if (frame)
		xmlSetProp(e, (const xmlChar *)"relative_to",
		    (const xmlChar *)frame);
	phys_buf_free(&b);
}

/*
 * n's pose is p in the frame its parent element implies, whose name (a
 * link's or a child link's) is dflt. A pose already written so keeps its
 * text; one relative to another frame is rewritten.
 */
/* A <pose>'s relative_to, or an SDF 1.6 document's frame="F". */
static char *
pose_rel(xmlNodePtr e)
{
	struct phys_doc d = { 0 };
	char *v = phys_node_attr(xmlDocGetRootElement(e->doc), "version");

	d.major = 1;
	d.minor = v && strncmp(v, "1.", 2) == 0 ? atoi(v + 2) : 7;
	free(v);
	return phys_pose_relative_to(&d, e);
}

static void
express(xmlNodePtr n, phys_pose p, const char *dflt)
{
	xmlNodePtr e = phys_child(n, "pose");
	char *rel = e ? pose_rel(e) : NULL;
	char *fmt = e ? phys_node_attr(e, "rotation_format") : NULL;
	char *deg = e ? phys_node_attr(e, "degrees") : NULL;
	bool keep = (!rel || !*rel || (dflt && strcmp(rel, dflt) == 0)) &&
	    !fmt && !deg;

	if (keep && e)
		xmlUnsetProp(e, (const xmlChar *)"relative_to");
	else if (!keep)
		set_pose(n, p, NULL);
	free(rel);
	free(fmt);
	free(deg);
}

static int
read_pose(struct phys_doc *d, xmlNodePtr owner, phys_pose *out, char **rel)
{
	xmlNodePtr e = phys_child(owner, "pose");

	*rel = NULL;
	*out = PHYS_POSE_IDENTITY;
	if (!e)
		return 0;
	if (phys_pose_element(d, e, out) < 0)
		return -1;
	*rel = phys_pose_relative_to(d, e);
	return 0;
}

/* ---- frames by name, from the loaded world ---- */

static const char *
frame_name_of(size_t i, const void *o)
{
	return ((const struct owner_frames *)o)->name[i];
}

/* The frames of model (-1: the world), listed on first use. */
static struct owner_frames *
owner_frames(struct printer *pr, int model)
{
	xmlNodePtr owner = model >= 0 ? pr->w->models[model].node :
	    pr->w->node, f;
	struct owner_frames *o;
	size_t i = 0;

	if (!pr->owners)
		pr->owners = phys_xcalloc(pr->w->nmodels + 1,
		    sizeof *pr->owners);
	o = &pr->owners[model + 1];
	if (o->made)
		return o;
	o->made = true;
	for (f = phys_child(owner, "frame"); f; f = phys_next(f, "frame"))
		o->n++;
	o->node = phys_xcalloc(o->n + 1, sizeof *o->node);
	o->name = phys_xcalloc(o->n + 1, sizeof *o->name);
	o->state = phys_xcalloc(o->n + 1, sizeof *o->state);
	o->pose = phys_xcalloc(o->n + 1, sizeof *o->pose);
	o->why_file = phys_xcalloc(o->n + 1, sizeof *o->why_file);
	o->why = phys_xcalloc(o->n + 1, sizeof *o->why);
	o->why_line = phys_xcalloc(o->n + 1, sizeof *o->why_line);
	phys_name_table_init(&o->index, frame_name_of, o, false);
	for (f = phys_child(owner, "frame"); f; f = phys_next(f, "frame")) {
		o->node[i] = f;
		o->name[i] = phys_node_attr(f, "name");
		phys_name_table_add(&o->index, i++);
	}
	return o;
}

static void
printer_free(struct printer *pr)
{
	struct owner_frames *o;
	size_t i, k;

	for (i = 0; pr->owners && i <= pr->w->nmodels; i++) {
		o = &pr->owners[i];
		for (k = 0; k < o->n; k++) {
			free(o->name[k]);
			free(o->why_file[k]);
			free(o->why[k]);
		}
		free(o->node);
		free(o->name);
		free(o->state);
		free(o->pose);
		free(o->why_file);
		free(o->why);
		free(o->why_line);
		phys_name_table_free(&o->index);
	}
	free(pr->owners);
	pr->owners = NULL;
}

/* The error a frame's resolution stopped at, kept for the frames that
 * depend on it. */
static void
keep_failure(struct owner_frames *o, size_t i)
{
	const char *file;
	const char *why = phys_error_at(&file, &o->why_line[i]);

	o->state[i] = FRAME_FAILED;
	o->why[i] = phys_xstrdup(why);
	o->why_file[i] = file ? phys_xstrdup(file) : NULL;
}

static int
failed_again(const struct owner_frames *o, size_t i)
{
	return o->why_file[i] ? phys_failat(o->why_file[i], o->why_line[i],
	    "%s", o->why[i]) : phys_fail("%s", o->why[i]);
}

/* What frame i of o is relative to: its pose's relative_to, else what
 * it is attached to, else its owner (""). */
static char *
frame_base(xmlNodePtr f, struct phys_doc *d, phys_pose *raw)
{
	char *rel, *attached;

	if (read_pose(d, f, raw, &rel) < 0)
		return NULL;
	if (rel && *rel)
		return rel;
	free(rel);
	attached = phys_node_attr(f, "attached_to");
	return attached ? attached : phys_xstrdup("");
}

/*
 * The world pose of frame i of model (-1: the world): its chain of
 * frames in the same owner walked without recursion to a frame known or
 * to what is no frame of it (an entity, a nested model's frame), then
 * composed back along the chain.
 */
static int
frame_pose(struct printer *pr, int model, size_t i, struct phys_doc *d,
    int depth, phys_pose *out)
{
	struct owner_frames *o = owner_frames(pr, model);
	size_t *path = NULL, n = 0, cap = 0, k;
	phys_pose *raw = NULL, base = PHYS_POSE_IDENTITY;
	char *to = NULL;
	int j = (int)i, rc = 0;

	for (;;) {
		if (o->state[j] == FRAME_DONE) {
			base = o->pose[j];
			break;
		}
		if (o->state[j] == FRAME_FAILED) {
			rc = failed_again(o, (size_t)j);
			break;
		}
		if (o->state[j] == FRAME_RESOLVING) {
			rc = phys_failat(PHYS_AT(d, o->node[j]), "frame '%s' is "
			    "relative to itself (a cycle)", o->name[j]);
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			path = phys_xrealloc(path, cap * sizeof *path);
			raw = phys_xrealloc(raw, cap * sizeof *raw);
		}
		path[n] = (size_t)j;
		o->state[j] = FRAME_RESOLVING;
		if (!(to = frame_base(o->node[j], d, &raw[n++]))) {
			rc = -1;
			break;
		}
		if ((j = *to ? phys_name_table_find(&o->index, to) : -1) < 0) {
			rc = resolve_name(pr, model, to, o->node[path[n - 1]],
			    d, depth + 1, &base);
			break;
		}
		free(to);
		to = NULL;
	}
	free(to);
	for (k = n; k-- > 0;) {
		if (rc < 0) {
			keep_failure(o, path[k]);
			continue;
		}
		base = phys_pose_mul(base, raw[k]);
		o->pose[path[k]] = base;
		o->state[path[k]] = FRAME_DONE;
	}
	if (rc == 0)
		*out = o->pose[i];
	free(path);
	free(raw);
	return rc;
}

/* An entity's world pose by scoped name: model, link or joint. */
static bool
entity_pose(const struct phys_scene *w, const char *scoped, phys_pose *out)
{
	enum phys_kind kind;
	int i = phys_world_entity(w, scoped, &kind);

	if (i < 0)
		return false;
	if (kind == PHYS_K_MODEL)
		*out = w->models[i].pose;
	else if (kind == PHYS_K_LINK)
		*out = w->links[i].pose;
	else if (kind == PHYS_K_JOINT)
		*out = w->joints[i].pose;
	else
		return false;
	return true;
}

/* The world pose of the frame a name means in model's scope (-1: the
 * world's). */
static int
resolve_name(struct printer *pr, int model, const char *name, xmlNodePtr at,
    struct phys_doc *d, int depth, phys_pose *out)
{
	struct phys_scene *w = pr->w;
	const char *last;
	char *scoped, *sep;
	bool found;
	int inner, k;

	/* models nest 64 deep at most (phys(7)): this is never reached */
	if (depth > 64)
		return phys_failat(PHYS_AT(d, at), "frame '%s': its chain "
		    "goes through more than 64 nested models", name);
	if (!*name || strcmp(name, model >= 0 ? "__model__" : "world") == 0) {
		*out = model >= 0 ? w->models[model].pose : PHYS_POSE_IDENTITY;
		return 0;
	}
	if ((k = phys_name_table_find(&owner_frames(pr, model)->index,
	    name)) >= 0)
		return frame_pose(pr, model, (size_t)k, d, depth, out);
	scoped = model >= 0 ? phys_xasprintf("%s::%s", phys_model_scope(w,
	    model), name) : phys_xstrdup(name);
	found = entity_pose(w, scoped, out);
	if (!found && strstr(name, "::") && (last = phys_last_scope(scoped))) {
		sep = scoped + (last - scoped);	/* scoped's own, to cut */
		/* "inner::frame": a name in a nested model's scope */
		*sep = '\0';
		inner = phys_world_entity_of(w, scoped, PHYS_K_MODEL);
		*sep = ':';
		if (inner >= 0) {
			int rc = resolve_name(pr, inner, sep + 2, at,
			    w->models[inner].doc, depth + 1, out);

			free(scoped);
			return rc;
		}
	}
	free(scoped);
	if (found)
		return 0;
	return phys_failat(PHYS_AT(d, at),
	    "no frame named '%s' in this %s", name, model >= 0 ? "model" :
	    "world");
}

/* ---- rewriting the entities ---- */

/* An axis is kept as written unless it names a frame or the output
 * version reads it in another frame than the file's version did. */
static bool
axis_needs_rewrite(const struct printer *pr, const struct phys_joint *j,
    xmlNodePtr a)
{
	xmlNodePtr xyz = phys_child(a, "xyz");

	return (xyz && xmlHasProp(xyz, (const xmlChar *)"expressed_in")) ||
	    phys_child(a, "use_parent_model_frame") ||
	    (j->doc->minor <= 4) != (pr->out_minor <= 4);
}

static void
rewrite_axis(struct printer *pr, const struct phys_joint *j, xmlNodePtr jn,
    const char *elem, phys_vec3 axis)
{
	xmlNodePtr a = phys_child(jn, elem), xyz, u;
	struct phys_buf b = { 0 };
	phys_quat frame = j->pose.q;
	phys_vec3 v;
	double n[3];

	if (!a || !axis_needs_rewrite(pr, j, a))
		return;
	if (pr->out_minor <= 4)	/* SDF 1.4: the parent model's frame */
		frame = pr->w->models[j->model].pose.q;
	v = phys_quat_rotate(phys_quat_conj(frame), axis);
	n[0] = v.x, n[1] = v.y, n[2] = v.z;
	put_numbers(&b, n, 3);
	if (!(xyz = phys_child(a, "xyz"))) {
		xyz = xmlNewDocNode(a->doc, NULL, (const xmlChar *)"xyz", NULL);
		xmlAddChild(a, xyz);
	}
	xmlNodeSetContent(xyz, (const xmlChar *)b.s);
	xmlUnsetProp(xyz, (const xmlChar *)"expressed_in");
	if ((u = phys_child(a, "use_parent_model_frame"))) {
		xmlUnlinkNode(u);
		xmlFreeNode(u);
	}
	phys_buf_free(&b);
}

static void
rewrite_joint(struct printer *pr, const struct phys_joint *j)
{
	const struct phys_scene *w = pr->w;
	phys_pose child = w->links[j->child].pose;

	char *name = phys_node_text(phys_child(j->node, "child"));
	const char *local = strrchr(j->name, ':');

	express(j->node, phys_pose_mul(phys_pose_inv(child), j->pose), name);
	free(name);
	/* the name the loader gave (NAME_joint beside a link NAME in SDF up
	 * to 1.6): the printed world is 1.7+, where names are unique */
	xmlSetProp(j->node, (const xmlChar *)"name",
	    (const xmlChar *)(local ? local + 1 : j->name));
	rewrite_axis(pr, j, j->node, "axis", j->axis[0]);
	if (j->type == PHYS_JOINT_UNIVERSAL || j->type == PHYS_JOINT_REVOLUTE2)
		rewrite_axis(pr, j, j->node, "axis2", j->axis[1]);
}

/* A collision the loader skipped keeps its pose, which must then be
 * relative to its link already. */
static int
check_kept_pose(struct phys_doc *d, xmlNodePtr n, const char *link)
{
	phys_pose p;
	char *rel;
	int rc = 0;

	if (read_pose(d, n, &p, &rel) < 0)
		return -1;
	if (rel && *rel && strcmp(rel, link) != 0)
		rc = phys_failat(PHYS_AT(d, n), "<%s> is not "
		    "loaded, so its pose relative to '%s' cannot be expressed "
		    "in its link's frame", (const char *)n->name, rel);
	free(rel);
	return rc;
}

static const struct phys_collision *
collision_of(const struct phys_scene *w, const struct phys_link *l,
    xmlNodePtr n)
{
	int i;

	for (i = 0; i < l->ncollisions; i++)
		if (w->collisions[l->first_collision + i].node == n)
			return &w->collisions[l->first_collision + i];
	return NULL;
}

/* The model whose element holds n, dflt when none does. */
static int
element_model(const struct phys_scene *w, xmlNodePtr n, int dflt)
{
	size_t i;

	for (i = 0; i < w->nmodels; i++)
		if (w->models[i].node == n->parent)
			return (int)i;
	return dflt;
}

static int
rewrite_link(struct printer *pr, int li, size_t *visual)
{
	struct phys_scene *w = pr->w;
	const struct phys_link *l = &w->links[li];
	const struct phys_collision *c;
	const char *local = strrchr(l->name, ':') + 1;
	xmlNodePtr n;

	/* in the frame of the model whose element holds it: a merged
	 * include's links stay in its frame (inline_includes names it) */
	express(l->node, phys_pose_mul(phys_pose_inv(w->models[element_model(w,
	    l->node, l->model)].pose), l->pose), "__model__");
	for (n = phys_child(l->node, "collision"); n;
	    n = phys_next(n, "collision")) {
		if ((c = collision_of(w, l, n)))
			express(n, c->pose, local);
		else if (check_kept_pose(l->doc, n, local) < 0)
			return -1;
	}
	/* Visuals are read in order, one entry each. */
	for (n = phys_child(l->node, "visual"); n; n = phys_next(n, "visual")) {
		while (*visual < w->nvisuals && w->visuals[*visual].link != li)
			(*visual)++;
		if (*visual == w->nvisuals)
			return phys_fail("visuals out of step");
		express(n, w->visuals[(*visual)++].pose, local);
	}
	return 0;
}

/* True when a frame's pose is already in its model's (world's) frame. */
static bool
frame_in_owner_frame(xmlNodePtr f)
{
	xmlNodePtr e = phys_child(f, "pose");
	char *rel = e ? pose_rel(e) : NULL;
	char *att = phys_node_attr(f, "attached_to");
	const char *base = rel && *rel ? rel : att ? att : "";
	bool owner = !*base || strcmp(base, "__model__") == 0 ||
	    strcmp(base, "world") == 0;

	free(rel);
	free(att);
	return owner && (!e || (!xmlHasProp(e, (const xmlChar *)"degrees") &&
	    !xmlHasProp(e, (const xmlChar *)"rotation_format")));
}

/* A model's <frame>s keep attached_to, so their poses name their frame. */
static int
rewrite_frames(struct printer *pr, int model, struct phys_doc *d)
{
	struct phys_scene *w = pr->w;
	struct owner_frames *o = owner_frames(pr, model);
	phys_pose p, base = model >= 0 ? w->models[model].pose :
	    PHYS_POSE_IDENTITY;
	size_t n = o->n, i;
	phys_pose *poses;
	xmlNodePtr f;

	poses = phys_xcalloc(n ? n : 1, sizeof *poses);
	/* All resolved before any is rewritten: frames refer to frames. */
	for (i = 0; i < n; i++)
		if (frame_pose(pr, model, i, d, 0, &poses[i]) < 0) {
			free(poses);
			return -1;
		}
	for (i = 0; i < n; i++) {
		f = o->node[i];
		p = phys_pose_mul(phys_pose_inv(base), poses[i]);
		if (!frame_in_owner_frame(f))
			set_pose(f, p, model >= 0 ? "__model__" : "world");
	}
	free(poses);
	return 0;
}

/* Each frame of an owner resolved through relative_to and attached_to
 * both, which the loader only follows for frames something refers to. */
static int
check_owner_frames(struct printer *pr, int model, struct phys_doc *d,
    void (*fn)(const char *why, void *ctx), void *ctx)
{
	struct owner_frames *o = owner_frames(pr, model);
	phys_pose p;
	char *attached;
	size_t i;
	int bad = 0;
	xmlNodePtr f;

	for (i = 0; i < o->n; i++) {
		f = o->node[i];
		attached = phys_node_attr(f, "attached_to");
		if (frame_pose(pr, model, i, d, 0, &p) < 0 || (attached &&
		    *attached && resolve_name(pr, model, attached, f, d, 1,
		    &p) < 0)) {
			fn(phys_error(), ctx);
			bad++;
		}
		free(attached);
	}
	return bad;
}

int
phys_frames_check(struct phys_scene *w, void (*fn)(const char *why,
    void *ctx), void *ctx)
{
	struct printer pr;
	size_t i;
	int bad;

	memset(&pr, 0, sizeof pr);
	pr.w = w;
	bad = check_owner_frames(&pr, -1, &w->doc, fn, ctx);
	for (i = 0; i < w->nmodels; i++)
		bad += check_owner_frames(&pr, (int)i, w->models[i].doc, fn,
		    ctx);
	printer_free(&pr);
	return bad;
}

static int
rewrite_entities(struct printer *pr)
{
	struct phys_scene *w = pr->w;
	size_t i, visual = 0;
	phys_pose p;
	int parent;

	/* Frames first: they are resolved through the poses as loaded. */
	if (rewrite_frames(pr, -1, &w->doc) < 0)
		return -1;
	for (i = 0; i < w->nmodels; i++)
		if (rewrite_frames(pr, (int)i, w->models[i].doc) < 0)
			return -1;
	for (i = 0; i < w->nlinks; i++)
		if (rewrite_link(pr, (int)i, &visual) < 0)
			return -1;
	for (i = 0; i < w->njoints; i++)
		rewrite_joint(pr, &w->joints[i]);
	for (i = 0; i < w->nmodels; i++) {
		const struct phys_model *m = &w->models[i];

		parent = m->parent;
		p = parent < 0 ? m->pose : phys_pose_mul(phys_pose_inv(w->models[parent].pose),
		    m->pose);
		if (m->doc != (parent < 0 ? &w->doc : w->models[parent].doc))
			set_pose(m->node, p, NULL);	/* the include's pose */
		else
			express(m->node, p, NULL);
	}
	return 0;
}

/* ---- includes, replaced by their models ---- */

static void inline_includes(struct printer *pr, xmlNodePtr owner);

/* The included model, renamed and made static as the include says. */
static xmlNodePtr
included_copy(xmlNodePtr include, struct phys_doc *inc, xmlDocPtr into)
{
	xmlNodePtr src = phys_child(inc->root, "model"), copy, e, s;
	char *text;

	if (!src)	/* a light or an actor: copied as it is */
		src = phys_child(inc->root, NULL);
	if (!src)
		return NULL;
	copy = xmlDocCopyNode(src, into, 1);
	if ((e = phys_child(include, "name"))) {
		text = phys_node_text(e);
		xmlSetProp(copy, (const xmlChar *)"name", (const xmlChar *)text);
		free(text);
	}
	if ((e = phys_child(include, "static")) &&
	    phys_node_is(copy, "model")) {
		text = phys_node_text(e);
		if (!(s = phys_child(copy, "static"))) {
			s = xmlNewDocNode(into, NULL, (const xmlChar *)"static",
			    NULL);
			add_first_child(copy, s);
		}
		xmlNodeSetContent(s, (const xmlChar *)text);
		free(text);
	}
	for (e = phys_child(include, "plugin"); e; e = phys_next(e, "plugin"))
		xmlAddChild(copy, xmlDocCopyNode(e, into, 1));
	/* A model's pose is rewritten already; a light takes the include's. */
	if (!phys_node_is(copy, "model") && (e = phys_child(include, "pose"))) {
		if ((s = phys_child(copy, "pose"))) {
			xmlUnlinkNode(s);
			xmlFreeNode(s);
		}
		add_first_child(copy, xmlDocCopyNode(e, into, 1));
	}
	return copy;
}

/* n before at, on a line of its own as at is: the first takes the
 * place at had, the others the same indentation. */
static void
add_before(xmlNodePtr at, xmlNodePtr n, const char *ws, bool first)
{
	if (ws && !first)
		xmlAddPrevSibling(at, xmlNewDocText(at->doc,
		    (const xmlChar *)ws));
	xmlAddPrevSibling(at, n);
}

/* The merged model whose element is n, or -1. */
static int
merged_model(const struct phys_scene *w, xmlNodePtr n)
{
	size_t i;

	for (i = 0; i < w->nmodels; i++)
		if (w->models[i].node == n && w->models[i].merged)
			return (int)i;
	return -1;
}

/* In a merged model's elements, its __model__ is the frame named for it. */
static void
rename_model_frame(xmlNodePtr n, const char *frame)
{
	static const char *const attrs[] = { "relative_to", "attached_to",
	    "expressed_in", NULL };
	xmlNodePtr c;
	char *v;
	int i;

	for (i = 0; attrs[i]; i++) {
		v = phys_node_attr(n, attrs[i]);
		if (v && strcmp(v, "__model__") == 0)
			xmlSetProp(n, (const xmlChar *)attrs[i],
			    (const xmlChar *)frame);
		free(v);
	}
	if (phys_node_is(n, "parent") || phys_node_is(n, "child")) {
		v = phys_node_text(n);
		if (strcmp(v, "__model__") == 0)
			xmlNodeSetContent(n, (const xmlChar *)frame);
		free(v);
	}
	if (phys_node_is(n, "model"))	/* its own __model__ is its own */
		return;
	for (c = phys_child(n, NULL); c; c = phys_next(c, NULL))
		rename_model_frame(c, frame);
}

/*
 * <include merge="true"> as libsdformat reads it: the model's elements
 * join the enclosing model, and its frame is the enclosing model's
 * <frame name="_merged__NAME__model__">, which the elements that were
 * relative to it name.
 */
static void
splice(struct printer *pr, xmlNodePtr include, int mi)
{
	const struct phys_scene *w = pr->w;
	const struct phys_model *m = &w->models[mi];
	const char *frame = strrchr(m->name, ':') + 1;
	xmlNodePtr c, copy, f, pose;
	phys_pose p = phys_pose_mul(phys_pose_inv(w->models[m->parent].pose),
	    m->pose);
	char *rel, *canon;
	/* the indentation the include had, for each element put there */
	char *ws = include->prev && xmlIsBlankNode(include->prev) ?
	    (char *)xmlNodeGetContent(include->prev) : NULL;

	f = xmlNewDocNode(include->doc, NULL, (const xmlChar *)"frame", NULL);
	xmlSetProp(f, (const xmlChar *)"name", (const xmlChar *)frame);
	/* attached, as the model was, to its canonical link */
	canon = phys_node_attr(m->node, "canonical_link");
	if (!canon || !*canon) {
		free(canon);
		canon = (c = phys_child(m->node, "link")) ?
		    phys_node_attr(c, "name") : NULL;
	}
	if (canon && *canon)
		xmlSetProp(f, (const xmlChar *)"attached_to",
		    (const xmlChar *)canon);
	free(canon);
	set_pose(f, p, "__model__");
	add_before(include, f, ws, true);
	for (c = phys_child(m->node, NULL); c; c = phys_next(c, NULL)) {
		if (!phys_node_is(c, "link") && !phys_node_is(c, "joint") &&
		    !phys_node_is(c, "frame") && !phys_node_is(c, "model") &&
		    !phys_node_is(c, "plugin"))
			continue;
		copy = xmlDocCopyNode(c, include->doc, 1);
		rename_model_frame(copy, frame);
		/* links, nested models and free frames were in its frame */
		pose = phys_child(copy, "pose");
		rel = pose ? phys_node_attr(pose, "relative_to") : NULL;
		if (!phys_node_is(copy, "joint") && !phys_node_is(copy,
		    "plugin") && (!rel || !*rel) && !(phys_node_is(copy,
		    "frame") && xmlHasProp(copy, (const xmlChar *)
		    "attached_to"))) {
			if (!pose) {
				pose = xmlNewDocNode(include->doc, NULL,
				    (const xmlChar *)"pose", NULL);
				add_first_child(copy, pose);
			}
			xmlSetProp(pose, (const xmlChar *)"relative_to",
			    (const xmlChar *)frame);
		}
		free(rel);
		add_before(include, copy, ws, false);
	}
	xmlFree(ws);
}

/*
 * Walk models and includes in the loader's order, so that each <include>
 * meets the document the loader read for it. Nested includes are inlined
 * in their own document first, then copied up with it.
 */
static void
inline_includes(struct printer *pr, xmlNodePtr owner)
{
	struct phys_doc *inc;
	xmlNodePtr n, next, copy;

	for (n = phys_child(owner, NULL); n; n = next) {
		next = phys_next(n, NULL);
		if (phys_node_is(n, "model")) {
			inline_includes(pr, n);
			continue;
		}
		if (!phys_node_is(n, "include") ||
		    pr->next_include >= pr->w->nincludes)
			continue;
		inc = pr->w->includes[pr->next_include++];
		/* a model file that is an include of one: that first */
		if (!phys_child(inc->root, "model"))
			inline_includes(pr, inc->root);
		if ((copy = phys_child(inc->root, "model")))
			inline_includes(pr, copy);
		if (phys_node_is(owner, "model") && copy &&
		    merged_model(pr->w, copy) >= 0) {
			splice(pr, n, merged_model(pr->w, copy));
			xmlUnlinkNode(n);
			xmlFreeNode(n);
			continue;
		}
		copy = included_copy(n, inc, owner->doc);
		if (!copy)
			continue;
		xmlReplaceNode(n, copy);
		xmlFreeNode(n);
	}
}

/* ---- the document ---- */

/* An MJCF model's <option> belongs to its world, which a model file
 * has no place for: said, for it is not printed. */
static void
warn_option_left(const struct phys_doc *mjcf)
{
	long where = phys_mjcf_option_line(mjcf);

	if (where)
		phys_warnat(phys_doc_file(mjcf, where), phys_where_line(where),
		    "%s", "<option> "
		    "sets the world MuJoCo runs this model in, which the "
		    "printed model file has no place for: 'phys-sdf world' "
		    "writes a world that keeps it");
}

int
phys_sdf_print(const char *path, struct phys_buf *b)
{
	struct phys_scene w;
	struct printer pr;
	struct phys_doc *out;
	xmlChar *mem = NULL;
	int len = 0, rc;

	struct phys_load_options lo;

	phys_load_options_default(&lo);
	lo.skip_unsupported = true;
	lo.whole = true;
	if (phys_world_load(&w, path, &lo) < 0) {
		phys_world_free(&w);
		return -1;
	}
	/* A model file prints as a model file; a URDF as the model it
	 * becomes, as gz sdf -p prints it. */
	out = w.model_doc ? w.model_doc : &w.doc;
	if (w.doc.kind == PHYS_DOC_MJCF)
		warn_option_left(&w.doc);
	memset(&pr, 0, sizeof pr);
	pr.w = &w;
	/* The world's version: its own elements stay valid, and Gazebo reads
	 * newer elements of included models as it reads any old file. */
	pr.out_minor = out->minor;
	rc = rewrite_entities(&pr);
	printer_free(&pr);
	if (rc == 0) {
		inline_includes(&pr, w.host ? out->root : w.node);
		/* a converted model has no text of its own to keep */
		if (w.model_doc)
			xmlDocDumpFormatMemoryEnc(out->xml, &mem, &len, "UTF-8",
			    1);
		else
			xmlDocDumpMemoryEnc(out->xml, &mem, &len, "UTF-8");
		if (mem)
			phys_buf_putn(b, (const char *)mem, (size_t)len);
		xmlFree(mem);
	}
	phys_world_free(&w);
	return rc;
}

/* ---- a world for a model ---- */

/* Gazebo's ground plane: a static plane, mu 100 and mu2 50. */
static const char ground_plane[] =
    "    <model name=\"ground_plane\">\n"
    "      <static>true</static>\n"
    "      <link name=\"link\">\n"
    "        <collision name=\"collision\">\n"
    "          <geometry>\n"
    "            <plane>\n"
    "              <normal>0 0 1</normal>\n"
    "              <size>100 100</size>\n"
    "            </plane>\n"
    "          </geometry>\n"
    "          <surface>\n"
    "            <friction>\n"
    "              <ode>\n"
    "                <mu>100</mu>\n"
    "                <mu2>50</mu2>\n"
    "              </ode>\n"
    "            </friction>\n"
    "          </surface>\n"
    "        </collision>\n"
    "      </link>\n"
    "    </model>\n";

/* The components of an absolute path, '.' left out, as pointers into
 * the copy returned. */
static char *
components(const char *path, const char **v, size_t max, size_t *n)
{
	char *copy = phys_xstrdup(path), *c, *save = NULL;

	*n = 0;
	for (c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (strcmp(c, ".") != 0 && *n < max)
			v[(*n)++] = c;
	return copy;
}

/* to (a canonical absolute path) as seen from the directory from (one
 * too): "../" for each of from's components past those they share; NULL
 * when they share none (the absolute path says it better). */
static char *
relative_to_dir(const char *from, const char *to)
{
	enum { MAXC = 256 };
	const char *f[MAXC], *t[MAXC];
	struct phys_buf b = { 0 };
	char *fc, *tc;
	size_t nf, nt, k = 0, i;

	fc = components(from, f, MAXC, &nf);
	tc = components(to, t, MAXC, &nt);
	while (k < nf && k + 1 < nt && strcmp(f[k], t[k]) == 0)
		k++;
	if (k == 0) {
		free(fc);
		free(tc);
		return NULL;
	}
	for (i = k; i < nf; i++)
		phys_buf_puts(&b, "../");
	for (i = k; i < nt; i++)
		phys_buf_printf(&b, "%s%s", t[i], i + 1 < nt ? "/" : "");
	free(fc);
	free(tc);
	return b.s;
}

/*
 * The <uri> a world written to output includes path by: a relative
 * include is looked up beside the world, so the path from output's
 * directory (symbolic links resolved, as the lookup follows them); the
 * absolute path when the world goes to standard output, whose file is
 * not known.
 */
static char *
include_uri(const char *path, const char *output)
{
	char *dir, *slash, *rdir, *rpath, *uri, cwd[4096];

	if (!output) {
		if (path[0] == '/')
			return phys_xstrdup(path);
		if (!getcwd(cwd, sizeof cwd)) {
			phys_fail("the current directory: %s", strerror(errno));
			return NULL;
		}
		while (strncmp(path, "./", 2) == 0)
			path += 2 + strspn(path + 2, "/");
		return phys_xasprintf("%s%s%s", cwd, strcmp(cwd, "/") ? "/" :
		    "", path);
	}
	dir = phys_xstrdup(output);
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	rpath = NULL;
	uri = NULL;
	if (!(rdir = realpath(slash ? dir : ".", NULL)))
		phys_fail("%s: %s", slash ? dir : ".", strerror(errno));
	else if (!(rpath = realpath(path, NULL)))
		phys_fail("%s: %s", path, strerror(errno));
	else if (!(uri = relative_to_dir(rdir, rpath)))
		uri = phys_xstrdup(rpath);
	free(dir);
	free(rdir);
	free(rpath);
	return uri;
}

void
phys_sdf_world_options_default(struct phys_sdf_world_options *o)
{
	memset(o, 0, sizeof *o);
}

int
phys_sdf_world_pose(const char *text, double pose[6])
{
	double v[7];
	int n = phys_parse_doubles(text, v, 7);

	if (n != 3 && n != 6)
		return phys_fail("'%s' is no pose: X Y Z or X Y Z ROLL PITCH "
		    "YAW, in numbers", text);
	memset(pose, 0, 6 * sizeof *pose);
	memcpy(pose, v, (size_t)n * sizeof *v);
	return 0;
}

int
phys_sdf_world(const char *path, bool ground, struct phys_buf *b)
{
	struct phys_sdf_world_options o;

	phys_sdf_world_options_default(&o);
	o.ground = ground;
	return phys_sdf_world_with(path, &o, b);
}

/*
 * What the world a model file is loaded into holds besides the model:
 * nothing for SDF and URDF, whose world is phys(7)'s default; an MJCF
 * model's gravity and profiles from its <option>, which the written
 * world must keep, since an included model's own world is not read.
 */
static void
host_settings(const struct phys_scene *w, struct phys_buf *b)
{
	xmlBufferPtr xb = xmlBufferCreate();
	xmlNodePtr n;

	for (n = phys_child(w->node, NULL); n; n = phys_next(n, NULL)) {
		if (phys_node_is(n, "model") || phys_node_is(n, "include"))
			continue;
		xmlBufferEmpty(xb);
		xmlNodeDump(xb, w->host->xml, n, 2, 1);
		phys_buf_puts(b, "    ");
		phys_buf_putn(b, (const char *)xmlBufferContent(xb),
		    (size_t)xmlBufferLength(xb));
		phys_buf_puts(b, "\n");
	}
	xmlBufferFree(xb);
}

/* The pose the include is written with: the one given, else the
 * model's own (its file's), as six numbers. */
static void
pose_written(const struct phys_scene *w, const struct phys_sdf_world_options *o,
    double pose[6])
{
	const struct phys_model *m = w->nmodels ? &w->models[0] : NULL;

	if (o->has_pose || !m) {
		memcpy(pose, o->pose, 6 * sizeof *pose);
		return;
	}
	pose[0] = m->pose.p.x;
	pose[1] = m->pose.p.y;
	pose[2] = m->pose.p.z;
	phys_quat_to_rpy(m->pose.q, &pose[3], &pose[4], &pose[5]);
}

/*
 * The lowest collision of the model's moving links placed at pose (the
 * model's frame), where a run starts them (each joint outside its limits
 * at the nearer: phys_links_within_limits): how far below the ground
 * (z = 0) it starts, 0 when none does; *which its collision. Planes,
 * heightmaps and links the world holds still are left out.
 */
static double
below_ground(const struct phys_scene *w, const double pose[6], int *which)
{
	phys_pose to = phys_pose_mul(phys_pose_from6(pose),
	    phys_pose_inv(w->models[0].pose));
	phys_pose *at = phys_xcalloc(w->nlinks ? w->nlinks : 1, sizeof *at);
	const struct phys_collision *c;
	const struct phys_link *l;
	double low, lowest = 0;
	size_t i;

	*which = -1;
	(void)phys_links_within_limits(w, at);
	for (i = 0; i < w->ncollisions; i++) {
		c = &w->collisions[i];
		l = &w->links[c->link];
		if (l->welded || w->models[l->model].is_static)
			continue;
		low = phys_collision_lowest(c, phys_pose_mul(to,
		    phys_pose_mul(at[c->link], c->pose)), v3(0, 0, 1));
		if (low < lowest)
			lowest = low, *which = (int)i;
	}
	free(at);
	return -lowest;
}

/*
 * With --ground, the model is raised until no collision of it starts
 * below the ground, to the micrometre above: a robot whose file puts
 * its base at the origin and its feet below would start them inside
 * the ground, and each engine throws it out its own way. A height the
 * user gave is said to have been changed.
 */
static void
set_on_ground(const struct phys_scene *w,
    const struct phys_sdf_world_options *o, double pose[6], bool *raised)
{
	char num[32];
	double depth;
	int c;

	*raised = false;
	if (!o->ground || w->nmodels == 0 ||
	    !((depth = below_ground(w, pose, &c)) > 0))
		return;
	/* up to the next micrometre, past the sum's last-bit noise */
	pose[2] = ceil(round((pose[2] + depth) * 1e9) / 1e3 - 1e-6) / 1e6;
	*raised = true;
	if (!o->has_pose)
		return;
	phys_fmt_double(num, sizeof num, pose[2]);
	phys_warn("--pose: model '%s' raised to z %s to rest on the ground: "
	    "its collision '%s' would start %.3g m below it",
	    w->models[0].name, num, w->collisions[c].name, depth);
}

int
phys_sdf_world_with(const char *path, const struct phys_sdf_world_options *o,
    struct phys_buf *b)
{
	struct phys_load_options lo;
	struct phys_buf settings = { 0 };
	struct phys_scene w;
	char num[32], *uri;
	double pose[6];
	bool hosted, raised = false;
	int k;

	if (!path || strcmp(path, "-") == 0)
		return phys_fail("a world includes its model by name: give the "
		    "model's file, not standard input");
	phys_load_options_default(&lo);
	lo.skip_unsupported = true;
	lo.quiet = true;
	if (phys_world_load(&w, path, &lo) < 0) {
		phys_world_free(&w);
		return -1;
	}
	hosted = w.host != NULL;
	if (hosted) {
		host_settings(&w, &settings);
		pose_written(&w, o, pose);
		set_on_ground(&w, o, pose, &raised);
	}
	phys_world_free(&w);
	if (!hosted)
		return phys_fail("%s is a world already", path);
	uri = include_uri(path, o->output);
	if (uri && !phys_xml_text_ok(uri)) {
		free(uri);
		uri = NULL;
		phys_fail("%s", "the model's path is not text XML can hold");
	}
	if (!uri) {
		phys_buf_free(&settings);
		return -1;
	}
	phys_buf_puts(b, "<?xml version=\"1.0\"?>\n"
	    "<sdf version=\"1.7\">\n"
	    "  <world name=\"default\">\n");
	if (settings.len)
		phys_buf_putn(b, settings.s, settings.len);
	phys_buf_free(&settings);
	if (o->ground)
		phys_buf_puts(b, ground_plane);
	phys_buf_puts(b, "    <include>\n      <uri>");
	phys_buf_xml_attr(b, uri);
	phys_buf_puts(b, "</uri>\n");
	free(uri);
	if (o->has_pose || raised) {
		phys_buf_puts(b, "      <pose>");
		for (k = 0; k < 6; k++) {
			phys_fmt_double(num, sizeof num, pose[k] == 0 ? 0 :
			    pose[k]);
			phys_buf_printf(b, "%s%s", k ? " " : "", num);
		}
		phys_buf_puts(b, "</pose>\n");
	}
	phys_buf_puts(b, "    </include>\n  </world>\n</sdf>\n");
	return 0;
}
