/* preset.c - editing the <physics> profiles of a world document. */
#include "preset.h"
#include "sdfedit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "paramio.h"
#include "ref.h"

static xmlNodePtr
last_physics(const struct phys_scene *w)
{
	xmlNodePtr n, last = NULL;

	for (n = phys_child(w->node, "physics"); n; n = phys_next(n, "physics"))
		last = n;
	return last;
}

/* Names are written in SDF and listed one a line: printable text only. */
static bool
printable_name(const char *name)
{
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return phys_xml_text_ok(name);
}

static int
check_new_name(const struct phys_scene *w, const char *name)
{
	struct phys_buf shown = { 0 };

	if (!*name)
		return phys_fail("a profile name cannot be empty");
	if (!printable_name(name)) {
		phys_buf_json_string(&shown, name);
		phys_fail("profile name %s: only printable UTF-8 text can "
		    "name a profile", shown.s);
		phys_buf_free(&shown);
		return -1;
	}
	if (phys_world_profile(w, name) >= 0)
		return phys_fail("there is already a profile named '%s'", name);
	return 0;
}

/* ---- loading for the profiles ---- */

struct said {
	char *file;
	long line;
	char *msg;
};
struct said_list {
	struct said *v;
	size_t n;
};

static void
collect(const char *file, long line, const char *msg, void *ctx)
{
	struct said_list *l = ctx;

	l->v = phys_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n].file = file ? phys_xstrdup(file) : NULL;
	l->v[l->n].line = line;
	l->v[l->n].msg = phys_xstrdup(msg);
	l->n++;
}

/* Whether a warning at file:line is about a model of w: in a file other
 * than the world's, in a document that is a model or a robot, or within
 * a <model> of the world (the last of its elements to start at or before
 * that line). */
static bool
about_models(const struct phys_scene *w, const char *file, long line)
{
	xmlNodePtr n, at = NULL;

	if (!file)
		return false;
	if (w->doc.kind != PHYS_DOC_WORLD || !w->doc.name ||
	    strcmp(file, w->doc.name) != 0)
		return true;
	for (n = w->node ? w->node->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && phys_node_line(n) <= line)
			at = n;
	return at && xmlStrcmp(at->name, (const xmlChar *)"model") == 0;
}

int
phys_preset_load(struct phys_scene *w, const char *path,
    const struct phys_load_options *lo)
{
	struct said_list l = { NULL, 0 };
	size_t i;
	int rc;

	phys_set_warning_sink(collect, &l);
	rc = phys_world_load(w, path, lo);
	phys_set_warning_sink(NULL, NULL);
	phys_warn_batch_begin();
	for (i = 0; i < l.n; i++) {
		if (rc == 0 && about_models(w, l.v[i].file, l.v[i].line))
			;
		else
			phys_warnat(l.v[i].file, l.v[i].line, "%s", l.v[i].msg);
		free(l.v[i].file);
		free(l.v[i].msg);
	}
	phys_warn_batch_end();
	free(l.v);
	return rc;
}

/* The profiles an MJCF model's <option> makes live in no file of
 * profiles: their values are set with phys-param, nothing else. */
static int
option_profiles(const struct phys_scene *w)
{
	if (!w->host)
		return 0;
	return phys_fail("%s: its profiles are made from MJCF's <option>, "
	    "which holds one set of values: set them with phys-param set "
	    "[-p PRESET], or put the model in a world (phys-sdf world %s > "
	    "world.sdf)", w->doc.name, w->doc.path ? w->doc.path : "-");
}

int
phys_preset_use(struct phys_scene *w, int p)
{
	size_t i;
	int rc = 0;

	if (!w->profiles[p].node)	/* the implicit profile is the start */
		return 0;
	if (option_profiles(w) < 0)
		return -1;
	for (i = 0; i < w->nprofiles && rc == 0; i++) {
		if ((int)i == p)
			rc = phys_doc_set_attr(&w->doc, w->profiles[i].node,
			    "default", "true");
		else if (w->profiles[i].marked_default)
			rc = phys_doc_set_attr(&w->doc, w->profiles[i].node,
			    "default", NULL);
	}
	return rc;
}

static char *default_block(const char *name, const char *type);

/*
 * Insert a standalone <physics> block among the world's profiles. A
 * world without <physics> has an implicit profile, which a run starts
 * in: the first block added would end it and become the start profile
 * in its place. The implicit one is written out first instead, as the
 * specification's <physics> at its defaults (what export gives), so the
 * world runs as before and its profiles are those it had, and one more.
 */
static int
insert_block(struct phys_scene *w, const char *block)
{
	xmlNodePtr after = last_physics(w);
	char *implicit;
	int rc;

	if (after)
		return phys_doc_insert_after(&w->doc, after, block);
	if (w->nprofiles == 1 && !w->profiles[0].node) {
		implicit = default_block(w->profiles[0].name,
		    w->profiles[0].type);
		rc = phys_doc_append_child(&w->doc, w->node, implicit);
		free(implicit);
		if (rc < 0)
			return -1;
		if ((after = last_physics(w)))
			return phys_doc_insert_after(&w->doc, after, block);
	}
	return phys_doc_append_child(&w->doc, w->node, block);
}

/* A block of the specification's required elements, at their defaults. */
static char *
default_block(const char *name, const char *type)
{
	struct phys_buf b = { 0 };

	phys_buf_puts(&b, "<physics name=\"");
	phys_buf_xml_attr(&b, name);
	phys_buf_puts(&b, "\" type=\"");
	phys_buf_xml_attr(&b, type);
	phys_buf_puts(&b, "\">\n"
	    "  <max_step_size>0.001</max_step_size>\n"
	    "  <real_time_factor>1</real_time_factor>\n"
	    "  <real_time_update_rate>1000</real_time_update_rate>\n"
	    "</physics>");
	return b.s;
}

/* The block as a one-profile SDF document, to edit it on its own. */
static int
block_doc(struct phys_doc *d, const char *block, int minor)
{
	char *text = phys_xasprintf("<sdf version=\"1.%d\">\n%s\n</sdf>\n", minor,
	    block);
	int rc = phys_doc_load_text(d, "<profile>", text, strlen(text));

	free(text);
	return rc;
}

static int
apply_sets(struct phys_doc *d, xmlNodePtr node, char **sets, size_t nsets)
{
	const struct phys_param *p;
	struct phys_value v;
	struct phys_buf text = { 0 };
	char *name, *eq;
	size_t i;
	int rc = 0;

	for (i = 0; i < nsets && rc == 0; i++) {
		name = phys_xstrdup(sets[i]);
		eq = strchr(name, '=');
		if (!eq) {
			rc = phys_fail("'%s': expected NAME=VALUE", sets[i]);
			free(name);
			break;
		}
		*eq = '\0';
		p = phys_param_find(PHYS_S_PHYSICS, name);
		memset(&v, 0, sizeof v);
		if (!p)
			rc = phys_fail("unknown profile parameter '%s'", name);
		else if ((rc = phys_value_parse(p, eq + 1, &v)) == 0) {
			phys_buf_clear(&text);
			phys_value_sdf(p, &v, &text);
			rc = phys_doc_set_text(d, node, p->name, text.s,
			    phys_param_rank, (void *)(intptr_t)PHYS_S_PHYSICS);
		}
		phys_value_free(&v);
		free(name);
	}
	phys_buf_free(&text);
	return rc;
}

/* An engine's own parameter without its engine: "solver.iters" for
 * "ode.solver.iters"; NULL for shared ones and other engines'. */
static const char *
engine_part(const struct phys_param *p, const char *engine)
{
	size_t n = strlen(engine);

	if (p->engines == PHYS_E_ALL || strncmp(p->name, engine, n) != 0 ||
	    p->name[n] != '.')
		return NULL;
	return p->name + n + 1;
}

/*
 * One quantity under different names in engines' blocks: the name each
 * gives it below its own (ODE's and Bullet's solver.iters are MuJoCo's
 * iterations, their solver.min_step_size Simbody's min_step_size) and,
 * for named values, the values that match by position
 * (ODE's pyramid and cone friction models are MuJoCo's cones; its box
 * model has none; ODE's world step is a Dantzig LCP and its quick step a
 * projected Gauss-Seidel solver, as DART's solver types are). A row
 * given_only is carried only when the source profile gives the value, as
 * the engines' defaults differ (ODE's quick, DART's Dantzig).
 */
static const struct same_as {
	const char *part[2];
	const char *values[2];
	bool given_only;
} same_as[] = {
	{ { "solver.iters", "iterations" }, { NULL, NULL }, false },
	/* Simbody's min_step_size has no solver element above it */
	{ { "solver.min_step_size", "min_step_size" }, { NULL, NULL }, false },
	{ { "solver.friction_model", "cone" },
	    { "pyramid_model|cone_model", "pyramidal|elliptic" }, false },
	{ { "solver.type", "solver.solver_type" },
	    { "world|quick", "dantzig|pgs" }, true },
};

/* engine's parameter named part, or NULL */
static const struct phys_param *
engine_param(const char *engine, const char *part)
{
	char *name = phys_xasprintf("%s.%s", engine, part);
	const struct phys_param *q = phys_param_find(PHYS_S_PHYSICS, name);

	free(name);
	return q;
}

/*
 * The parameter of engine to that means what p of engine from means: the
 * one of the same name under to's block, of the same type and, for named
 * values, the same set (ODE's quick|world solver type is not Bullet's
 * sequential_impulse), or its same_as. Shared parameters are their own
 * counterparts. *row is the same_as row that maps it, or NULL.
 */
static const struct phys_param *
counterpart(const struct phys_param *p, const char *from, const char *to,
    const struct same_as **row)
{
	const char *part = engine_part(p, from);
	const struct phys_param *q;
	size_t i;
	int k;

	*row = NULL;
	if (p->engines == PHYS_E_ALL)
		return p;
	if (!part)
		return NULL;
	q = engine_param(to, part);
	if (q && q->type == p->type && ((!p->values && !q->values) ||
	    (p->values && q->values && strcmp(p->values, q->values) == 0)))
		return q;
	for (i = 0; i < sizeof same_as / sizeof *same_as; i++)
		for (k = 0; k < 2; k++)
			if (strcmp(same_as[i].part[k], part) == 0 &&
			    (q = engine_param(to, same_as[i].part[!k])) &&
			    q->type == p->type) {
				*row = &same_as[i];
				return q;
			}
	return NULL;
}

/* The n-th of "a|b|c" (counting from 0) into out; false when none. */
static bool
nth_value(const char *set, size_t n, char *out, size_t size)
{
	size_t len;

	for (; n > 0 && set; n--)
		if ((set = strchr(set, '|')))
			set++;
	if (!set)
		return false;
	len = strcspn(set, "|");
	snprintf(out, size, "%.*s", (int)len, set);
	return len < size;
}

/* Where value text lies in "a|b|c", or -1. */
static int
value_index(const char *set, const char *text)
{
	size_t n = strlen(text);
	int i = 0;

	for (; set; set = strchr(set, '|') ? strchr(set, '|') + 1 : NULL, i++)
		if (strncmp(set, text, n) == 0 && (set[n] == '|' || !set[n]))
			return i;
	return -1;
}

/* A value of p (engine from) as text for q by a same_as row; false when
 * the row has no match for it. */
static bool
translate(const struct same_as *row, const char *from_part,
    const struct phys_buf *text, struct phys_buf *out)
{
	int k = strcmp(row->part[0], from_part) == 0 ? 0 : 1, i;
	char v[64];

	phys_buf_clear(out);
	if (!row->values[k]) {
		phys_buf_puts(out, text->s);
		return true;
	}
	i = value_index(row->values[k], text->s);
	if (i < 0 || !nth_value(row->values[!k], (size_t)i, v, sizeof v))
		return false;
	phys_buf_puts(out, v);
	return true;
}

/*
 * What profile src's value i becomes under engine to: its counterpart
 * *q and, when a same_as row maps it, the value there as text in mapped
 * (*row set); false when it has none or is not to be carried.
 */
static bool
carried(const struct phys_profile *src, size_t i, const char *to,
    const struct phys_param **q, const struct same_as **row,
    struct phys_buf *mapped)
{
	const struct phys_param *p = phys_scope_param(PHYS_S_PHYSICS, i);
	struct phys_buf text = { 0 };
	bool ok;

	if (!(*q = counterpart(p, src->type, to, row)))
		return false;
	if (!*row)
		return true;
	if ((*row)->given_only && !src->vals[i].given)
		return false;
	phys_value_sdf(p, &src->vals[i], &text);
	ok = translate(*row, engine_part(p, src->type), &text, mapped);
	phys_buf_free(&text);
	return ok;
}

/* The <physics> element profile src's values are written in: its own,
 * or the one it was carried from; NULL for the implicit profile. */
static xmlNodePtr
source_node(const struct phys_profile *src)
{
	return src->node ? src->node : src->carried_from;
}

/* Values of profile src that engine has no counterpart for, said at its
 * <physics> element (at its file, for the implicit profile). */
static void
say_lost(const struct phys_profile *src, const char *engine,
    const char *names)
{
	phys_warnat(PHYS_AT(src->doc, source_node(src)), "profile '%s': no "
	    "%s counterpart, not carried over: %s", src->name, engine, names);
}

/*
 * Whether profile src's value i is one src gives in its block for engine
 * to (an ODE profile's <simbody>): as Gazebo runs that engine on the
 * element, the profile made for it keeps the block's values, over those
 * another engine's values map onto.
 */
static bool
own_block(const struct phys_profile *src, size_t i, const char *to)
{
	return src->vals[i].given &&
	    engine_part(phys_scope_param(PHYS_S_PHYSICS, i), to) != NULL;
}

/*
 * Write into a new block of engine to every value of profile src that
 * has a counterpart there; name on standard error the ones src writes
 * that have none. Its own block for to is kept.
 */
static int
carry_over(struct phys_doc *d, xmlNodePtr node, const struct phys_profile *src,
    const char *to)
{
	struct phys_buf text = { 0 }, mapped = { 0 }, lost = { 0 };
	const struct phys_param *p, *q;
	const struct same_as *row;
	size_t i;
	int rc = 0;

	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS) && rc == 0; i++) {
		p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (p->engines != PHYS_E_ALL && !engine_part(p, src->type))
			continue;
		if (!carried(src, i, to, &q, &row, &mapped)) {
			if (src->vals[i].given)
				phys_buf_printf(&lost, "%s%s", lost.len ? ", " : "",
				    p->name);
			continue;
		}
		phys_buf_clear(&text);
		phys_value_sdf(p, &src->vals[i], &text);
		rc = phys_doc_set_text(d, node, q->name, row ? mapped.s : text.s,
		    phys_param_rank, (void *)(intptr_t)PHYS_S_PHYSICS);
	}
	/* src's own block for engine to, written after what maps onto it */
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS) && rc == 0; i++) {
		p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (!own_block(src, i, to))
			continue;
		phys_buf_clear(&text);
		phys_value_sdf(p, &src->vals[i], &text);
		rc = phys_doc_set_text(d, node, p->name, text.s,
		    phys_param_rank, (void *)(intptr_t)PHYS_S_PHYSICS);
	}
	if (rc == 0 && lost.len)
		say_lost(src, to, lost.s);
	phys_buf_free(&text);
	phys_buf_free(&mapped);
	phys_buf_free(&lost);
	return rc;
}

/*
 * A DART profile made for a world with a capsule (carried over from
 * another engine's, or from the defaults) collides with DART's ode
 * detector: its default, fcl, has none
 * (the profile was refused, and --engines left DART out, on every MJCF
 * robot). The first capsule, or NULL.
 */
static const struct phys_collision *
fcl_lacks(const struct phys_scene *w, const char *engine)
{
	size_t i;

	if (strcmp(engine, "dart") != 0)
		return NULL;
	for (i = 0; i < w->ncollisions; i++)
		if (w->collisions[i].shape == PHYS_GEOM_CAPSULE)
			return &w->collisions[i];
	return NULL;
}

static void
say_detector(const char *profile, const struct phys_collision *c)
{
	phys_warn("profile '%s': DART collides with its ode detector, as "
	    "its fcl one has no capsule (collision '%s'; "
	    "dart.collision_detector chooses)", profile, c->name);
}

/*
 * The text the new block starts from: profile from's, or, for another
 * engine or without from, the specification's required elements.
 */
static char *
source_block(struct phys_scene *w, const char *name, int from,
    const char *engine)
{
	if (from >= 0 && w->profiles[from].node &&
	    (!engine || strcmp(engine, w->profiles[from].type) == 0))
		return phys_doc_node_text(&w->doc, w->profiles[from].node);
	return default_block(name, engine ? engine : from >= 0 ?
	    w->profiles[from].type : "ode");
}

/* Copy (or defaults) renamed, not default, with overrides: as text. */
static char *
new_block(struct phys_scene *w, const char *name, int from,
    const char *engine, char **sets, size_t nsets)
{
	char *src = source_block(w, name, from, engine);
	bool convert = from >= 0 && engine &&
	    strcmp(engine, w->profiles[from].type) != 0;
	/* a block of DART's not copied from one of DART's */
	const struct phys_collision *cap = engine && (from < 0 ||
	    strcmp(engine, w->profiles[from].type) != 0) ? fcl_lacks(w,
	    engine) : NULL;
	struct phys_doc d;
	xmlNodePtr node;
	char *out = NULL;

	if (!src)
		return NULL;
	if (block_doc(&d, src, w->doc.minor) == 0) {
		node = phys_child(d.root, "physics");
		if (phys_doc_set_attr(&d, node, "name", name) == 0 &&
		    (!xmlHasProp(node, (const xmlChar *)"default") ||
		    phys_doc_set_attr(&d, node, "default", NULL) == 0) &&
		    (!convert || carry_over(&d, node, &w->profiles[from],
		    engine) == 0) &&
		    (!cap || phys_doc_set_text(&d, node,
		    "dart.collision_detector", "ode", phys_param_rank,
		    (void *)(intptr_t)PHYS_S_PHYSICS) == 0) &&
		    apply_sets(&d, node, sets, nsets) == 0)
			out = phys_doc_node_text(&d, node);
		if (out && cap)
			say_detector(name, cap);
	}
	phys_doc_free(&d);
	free(src);
	return out;
}

/* An engine phys does not have: the error names those it has, in the
 * order of their bits (lib/table/engines.def). */
static int
unknown_engine(const char *engine)
{
	struct phys_buf b = { 0 };
	const char *type;
	unsigned bit;
	int rc;

	for (bit = 1; bit <= PHYS_E_ALL; bit <<= 1)
		if ((type = phys_engine_type_name(bit)))
			phys_buf_printf(&b, "%s%s", b.len ? ", " : "", type);
	rc = phys_fail("unknown engine '%s' (%s)", engine, b.s);
	phys_buf_free(&b);
	return rc;
}

int
phys_preset_add(struct phys_scene *w, const char *name, int from,
    const char *engine, char **sets, size_t nsets)
{
	char *block;
	int rc;

	if (phys_world_has_world(w, "physics profiles") < 0 ||
	    check_new_name(w, name) < 0)
		return -1;
	if (engine && phys_engine_bit(engine) == 0)
		return unknown_engine(engine);
	block = new_block(w, name, from, engine, sets, nsets);
	if (!block)
		return -1;
	rc = insert_block(w, block);
	free(block);
	return rc;
}

/*
 * A profile of engine for a run of w that starts in profile from: from
 * itself, the world's first of that engine (its default one first), or
 * one made of from as phys_preset_add would carry it over, kept in w
 * only (its document untouched).
 */
int
phys_preset_for_engine(struct phys_scene *w, int from, const char *engine,
    bool say)
{
	const struct phys_profile *src = &w->profiles[from];
	struct phys_profile *p;
	const struct phys_param *q;
	const struct same_as *row;
	struct phys_buf lost = { 0 }, mapped = { 0 };
	char *name;
	size_t i;
	int found = -1, k = 0;

	if (phys_engine_bit(engine) == 0)
		return phys_fail("unknown engine '%s'", engine);
	/* a gz-sim profile runs what its plugin names, whatever its type */
	if (!src->gz_placeholder && strcmp(src->type, engine) == 0)
		return from;
	for (i = 0; i < w->nprofiles; i++)
		if (!w->profiles[i].gz_placeholder &&
		    strcmp(w->profiles[i].type, engine) == 0 && (found < 0 ||
		    (w->profiles[i].marked_default &&
		    !w->profiles[found].marked_default)))
			found = (int)i;
	if (found >= 0)
		return found;
	name = phys_xasprintf("%s_from_%s", engine, src->name);
	while (phys_world_profile(w, name) >= 0) {
		free(name);
		name = phys_xasprintf("%s_from_%s_%d", engine, src->name, ++k);
	}
	w->profiles = phys_xrealloc(w->profiles,
	    (w->nprofiles + 1) * sizeof *w->profiles);
	src = &w->profiles[from];
	p = &w->profiles[w->nprofiles];
	memset(p, 0, sizeof *p);
	p->name = name;
	p->type = phys_xstrdup(engine);
	p->has_gravity = src->has_gravity;
	p->gravity = src->gravity;
	p->doc = src->doc;
	p->vals = phys_values_new(PHYS_S_PHYSICS);
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		const struct phys_param *sp = phys_scope_param(PHYS_S_PHYSICS, i);

		if (sp->engines != PHYS_E_ALL && !engine_part(sp, src->type))
			continue;
		if (!carried(src, i, engine, &q, &row, &mapped)) {
			if (src->vals[i].given)
				phys_buf_printf(&lost, "%s%s", lost.len ? ", " : "",
				    sp->name);
			continue;
		}
		struct phys_value *dst = &p->vals[phys_param_index[q->id]];
		/* the default's string goes: parse and copy write over */
		phys_value_free(dst);
		if (row)
			phys_value_parse(q, mapped.s, dst);
		else
			phys_value_copy(dst, &src->vals[i]);
		dst->given = src->vals[i].given;
	}
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++)
		if (own_block(src, i, engine)) {
			struct phys_value *dst = &p->vals[i];

			phys_value_free(dst);
			phys_value_copy(dst, &src->vals[i]);
			dst->given = true;
		}
	p->carried_from = source_node(src);
	if (lost.len && say)
		say_lost(src, engine, lost.s);
	if (fcl_lacks(w, engine)) {
		struct phys_value *v = PV(p->vals, PHYSICS_dart_collision_detector);

		phys_value_free(v);
		phys_value_parse(phys_scope_param(PHYS_S_PHYSICS,
		    phys_param_index[PHYS_P_PHYSICS_dart_collision_detector]),
		    "ode", v);
		v->given = true;
		if (say)
			say_detector(p->name, fcl_lacks(w, engine));
	}
	p->gz_system = src->gz_system;
	phys_profile_gz_detector(p);
	phys_buf_free(&lost);
	phys_buf_free(&mapped);
	return (int)w->nprofiles++;
}

int
phys_preset_remove(struct phys_scene *w, int p)
{
	if (!w->profiles[p].node)
		return phys_fail("'%s' is the implicit profile of a world "
		    "without <physics>; there is nothing to remove",
		    w->profiles[p].name);
	if (option_profiles(w) < 0)
		return -1;
	return phys_doc_remove(&w->doc, w->profiles[p].node);
}

int
phys_preset_rename(struct phys_scene *w, int p, const char *name)
{
	if (check_new_name(w, name) < 0)
		return -1;
	if (!w->profiles[p].node)
		return phys_fail("'%s' is the implicit profile; add a real one "
		    "with phys-preset add", w->profiles[p].name);
	if (option_profiles(w) < 0)
		return -1;
	return phys_doc_set_attr(&w->doc, w->profiles[p].node, "name", name);
}

char *
phys_preset_export(struct phys_scene *w, int p)
{
	if (!w->profiles[p].node)
		return default_block(w->profiles[p].name, "ode");
	return phys_doc_node_text(&w->doc, w->profiles[p].node);
}

/* A file of <physics> elements: a snippet (one element, or several at the
 * top level) or a whole SDF world. Snippets are wrapped to be loaded. */
static int
load_profiles_file(struct phys_doc *d, const char *path, int minor)
{
	size_t len;
	char *text, *body, *wrapped;
	int rc;

	memset(d, 0, sizeof *d);	/* freed by the caller even on failure */
	if (!(text = phys_read_file(path, &len)))
		return -1;
	body = text;
	if (strncmp(body + strspn(body, " \t\r\n"), "<?xml", 5) == 0) {
		body = strstr(body, "?>");
		body = body ? body + 2 : text;
	}
	if (strstr(body, "<sdf")) {
		rc = phys_doc_load_text(d, phys_display_name(path), text, len);
	} else {
		wrapped = phys_xasprintf("<sdf version=\"1.%d\">%s</sdf>", minor, body);
		rc = phys_doc_load_text(d, phys_display_name(path), wrapped,
		    strlen(wrapped));
		free(wrapped);
	}
	free(text);
	return rc;
}

static int
import_from(struct phys_scene *w, struct phys_doc *src, xmlNodePtr parent,
    char ***names, size_t *n)
{
	xmlNodePtr p;
	char *name, *block;
	size_t i;
	int rc = 0;

	for (p = phys_child(parent, "physics"); p && rc == 0;
	    p = phys_next(p, "physics")) {
		name = phys_node_attr(p, "name");
		if (!name)
			name = phys_xstrdup("default_physics");
		rc = check_new_name(w, name);
		for (i = 0; i < *n && rc == 0; i++)
			if (strcmp((*names)[i], name) == 0)
				rc = phys_fail("%s: two profiles named '%s'",
				    src->name, name);
		if (rc == 0 && (block = phys_doc_node_text(src, p))) {
			rc = insert_block(w, block);
			free(block);
		}
		*names = phys_xrealloc(*names, (*n + 1) * sizeof **names);
		(*names)[(*n)++] = name;
	}
	return rc;
}

int
phys_preset_import(struct phys_scene *w, const char *path)
{
	struct phys_doc src;
	char **names = NULL;
	size_t n = 0, i;
	xmlNodePtr world;
	int rc;

	if (phys_world_has_world(w, "physics profiles") < 0)
		return -1;
	if (load_profiles_file(&src, path, w->doc.minor) < 0) {
		phys_doc_free(&src);
		return -1;
	}
	rc = import_from(w, &src, src.root, &names, &n);
	for (world = phys_child(src.root, "world"); world && rc == 0;
	    world = phys_next(world, "world"))
		rc = import_from(w, &src, world, &names, &n);
	if (rc == 0 && n == 0)
		rc = phys_fail("%s: no <physics> element", src.name);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	phys_doc_free(&src);
	return rc < 0 ? -1 : (int)n;
}

/* ---- lines about the profiles ---- */

/* A gz-sim profile names no engine: ,"engine":"ode" says which runs it
 * (once the engine layer has said), ,"gz_plugin" the plugin its world
 * names. */
static void
put_gz_engine(struct phys_buf *b, const struct phys_profile *p)
{
	if (!p->gz_placeholder)
		return;
	if (p->engine) {
		phys_buf_puts(b, ",\"engine\":");
		phys_buf_json_string(b, p->engine);
	}
	if (p->gz_plugin) {
		phys_buf_puts(b, ",\"gz_plugin\":");
		phys_buf_json_string(b, p->gz_plugin);
	}
}

/* The engine bit of what runs a profile: its type's, or a gz-sim
 * profile's engine. */
static unsigned
profile_engine_bit(const struct phys_profile *p)
{
	return phys_engine_bit(p->engine ? p->engine : p->type);
}

void
phys_preset_list(const struct phys_scene *w, bool bare, struct phys_buf *b)
{
	size_t i;

	for (i = 0; i < w->nprofiles; i++) {
		const struct phys_profile *p = &w->profiles[i];

		if (bare) {
			phys_buf_puts(b, p->name);
			phys_buf_putc(b, '\n');
			continue;
		}
		phys_buf_puts(b, "{\"name\":");
		phys_buf_json_string(b, p->name);
		phys_buf_puts(b, ",\"type\":");
		phys_buf_json_string(b, p->type);
		put_gz_engine(b, p);
		phys_buf_printf(b, ",\"default\":%s,\"start\":%s}\n",
		    p->marked_default ? "true" : "false",
		    (int)i == w->start ? "true" : "false");
	}
}

/* Parameters that matter to a profile's engines: shared ones and their
 * own. */
static bool
relevant(const struct phys_param *p, unsigned engines)
{
	return p->engines == PHYS_E_ALL || (p->engines & engines);
}

void
phys_preset_show(struct phys_scene *w, int p, struct phys_buf *b)
{
	unsigned engine = profile_engine_bit(&w->profiles[p]);
	struct phys_ref r;
	size_t i;

	r.idx = p;
	r.scope = PHYS_S_PHYSICS;
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		r.p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (relevant(r.p, engine ? engine : PHYS_E_ALL))
			phys_param_line(b, w, &r, &w->profiles[p].vals[i],
			    PHYS_PL_PRESET, NULL);
	}
}

/* A diff line, {"name","type","values":{A:..,B:..}}, up to A's value;
 * diff_then goes on to B's. */
static void
diff_begin(struct phys_buf *b, const char *name, const char *type,
    const char *a)
{
	phys_buf_puts(b, "{\"name\":");
	phys_buf_json_string(b, name);
	phys_buf_puts(b, ",\"type\":");
	phys_buf_json_string(b, type);
	phys_buf_puts(b, ",\"values\":{");
	phys_buf_json_string(b, a);
	phys_buf_putc(b, ':');
}

static void
diff_then(struct phys_buf *b, const char *bname)
{
	phys_buf_putc(b, ',');
	phys_buf_json_string(b, bname);
	phys_buf_putc(b, ':');
}

void
phys_preset_diff(const struct phys_scene *w, int a, int b,
    struct phys_buf *out)
{
	const struct phys_profile *pa = &w->profiles[a], *pb = &w->profiles[b];
	const struct phys_param *p;
	unsigned engines;
	size_t i;

	if (strcmp(pa->type, pb->type) != 0) {
		diff_begin(out, "type", "string", pa->name);
		phys_buf_json_string(out, pa->type);
		diff_then(out, pb->name);
		phys_buf_json_string(out, pb->type);
		phys_buf_puts(out, "}}\n");
	}
	engines = profile_engine_bit(pa) | profile_engine_bit(pb);
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (!relevant(p, engines) ||
		    phys_value_equal(p, &pa->vals[i], &pb->vals[i]))
			continue;
		diff_begin(out, p->name, phys_type_name(p->type), pa->name);
		phys_value_json(p, &pa->vals[i], out);
		diff_then(out, pb->name);
		phys_value_json(p, &pb->vals[i], out);
		phys_buf_puts(out, "}}\n");
	}
}

int
phys_preset_resolve(struct phys_scene *w, const char *name, bool say)
{
	int p = phys_world_profile(w, name);

	if (p >= 0 || phys_engine_bit(name) == 0)
		return p >= 0 ? p : phys_world_find_profile(w, name);
	return phys_preset_for_engine(w, w->start, name, say);
}

int
phys_preset_named(struct phys_scene *w, const char *name)
{
	int p = phys_preset_resolve(w, name, true);

	if (p >= 0 && strcmp(w->profiles[p].name, name) != 0)
		phys_warn("no profile named '%s': running profile '%s' of "
		    "engine %s", name, w->profiles[p].name, name);
	return p;
}

bool
phys_preset_made_for_run(const struct phys_scene *w, int p)
{
	return p != w->start && !w->profiles[p].node;
}
