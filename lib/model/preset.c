/* preset.c - editing the <physics> profiles of a world document. */
#include "preset.h"
#include "sdfedit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "paramio.h"
#include "ref.h"

static xmlNodePtr
last_physics(const struct phys_world *w)
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
check_new_name(const struct phys_world *w, const char *name)
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

int
phys_preset_use(struct phys_world *w, int p)
{
	size_t i;
	int rc = 0;

	if (!w->profiles[p].node)	/* the implicit profile is the start */
		return 0;
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

/* Insert a standalone <physics> block among the world's profiles. */
static int
insert_block(struct phys_world *w, const char *block)
{
	xmlNodePtr after = last_physics(w);

	if (after)
		return phys_doc_insert_after(&w->doc, after, block);
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

/* Parameters of the engines' blocks that mean the same under other names,
 * a row each: the smallest step (Simbody's has no solver element). */
static const char *const same_meaning[][3] = {
	{ "ode.solver.min_step_size", "bullet.solver.min_step_size",
	    "simbody.min_step_size" }
};

/* The parameter of engine to's block that the table says means p. */
static const struct phys_param *
same_meaning_in(const struct phys_param *p, const char *to)
{
	size_t i, k, n = strlen(to);

	for (i = 0; i < sizeof same_meaning / sizeof *same_meaning; i++) {
		for (k = 0; k < 3 && strcmp(same_meaning[i][k], p->name); k++)
			;
		if (k == 3)
			continue;
		for (k = 0; k < 3; k++)
			if (strncmp(same_meaning[i][k], to, n) == 0 &&
			    same_meaning[i][k][n] == '.')
				return phys_param_find(PHYS_S_PHYSICS,
				    same_meaning[i][k]);
	}
	return NULL;
}

/*
 * The parameter of engine to that means what p of engine from means: the
 * one of the same name under to's block, of the same type and, for named
 * values, the same set (ODE's quick|world solver type is not Bullet's
 * sequential_impulse), or the one same_meaning names. Shared parameters
 * are their own counterparts.
 */
static const struct phys_param *
counterpart(const struct phys_param *p, const char *from, const char *to)
{
	const char *part = engine_part(p, from);
	const struct phys_param *q;
	char *name;

	if (p->engines == PHYS_E_ALL)
		return p;
	if (!part)
		return NULL;
	if ((q = same_meaning_in(p, to)))
		return q;
	name = phys_xasprintf("%s.%s", to, part);
	q = phys_param_find(PHYS_S_PHYSICS, name);
	free(name);
	if (!q || q->type != p->type || ((p->values || q->values) &&
	    (!p->values || !q->values || strcmp(p->values, q->values) != 0)))
		return NULL;
	return q;
}

/*
 * Write into a new block of engine to every value of profile src that
 * has a counterpart there; name on standard error the ones src writes
 * that have none.
 */
static int
carry_over(struct phys_doc *d, xmlNodePtr node, const struct phys_profile *src,
    const char *to)
{
	struct phys_buf text = { 0 }, lost = { 0 };
	const struct phys_param *p, *q;
	size_t i;
	int rc = 0;

	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS) && rc == 0; i++) {
		p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (p->engines != PHYS_E_ALL && !engine_part(p, src->type))
			continue;
		if (!(q = counterpart(p, src->type, to))) {
			if (src->vals[i].given)
				phys_buf_printf(&lost, "%s%s", lost.len ? ", " : "",
				    p->name);
			continue;
		}
		phys_buf_clear(&text);
		phys_value_sdf(q, &src->vals[i], &text);
		rc = phys_doc_set_text(d, node, q->name, text.s,
		    phys_param_rank, (void *)(intptr_t)PHYS_S_PHYSICS);
	}
	if (rc == 0 && lost.len)
		phys_warn("profile '%s': no %s counterpart, not carried over: %s",
		    src->name, to, lost.s);
	phys_buf_free(&text);
	phys_buf_free(&lost);
	return rc;
}

/*
 * The text the new block starts from: profile from's, or, for another
 * engine or without from, the specification's required elements.
 */
static char *
source_block(struct phys_world *w, const char *name, int from,
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
new_block(struct phys_world *w, const char *name, int from,
    const char *engine, char **sets, size_t nsets)
{
	char *src = source_block(w, name, from, engine);
	bool convert = from >= 0 && engine &&
	    strcmp(engine, w->profiles[from].type) != 0;
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
		    apply_sets(&d, node, sets, nsets) == 0)
			out = phys_doc_node_text(&d, node);
	}
	phys_doc_free(&d);
	free(src);
	return out;
}

int
phys_preset_add(struct phys_world *w, const char *name, int from,
    const char *engine, char **sets, size_t nsets)
{
	char *block;
	int rc;

	if (check_new_name(w, name) < 0)
		return -1;
	if (engine && phys_engine_bit(engine) == 0)
		return phys_fail("unknown engine '%s' (ode, bullet, simbody, "
		    "dart)", engine);
	block = new_block(w, name, from, engine, sets, nsets);
	if (!block)
		return -1;
	rc = insert_block(w, block);
	free(block);
	return rc;
}

int
phys_preset_remove(struct phys_world *w, int p)
{
	if (!w->profiles[p].node)
		return phys_fail("'%s' is the implicit profile of a world "
		    "without <physics>; there is nothing to remove",
		    w->profiles[p].name);
	return phys_doc_remove(&w->doc, w->profiles[p].node);
}

int
phys_preset_rename(struct phys_world *w, int p, const char *name)
{
	if (check_new_name(w, name) < 0)
		return -1;
	if (!w->profiles[p].node)
		return phys_fail("'%s' is the implicit profile; add a real one "
		    "with phys-preset add", w->profiles[p].name);
	return phys_doc_set_attr(&w->doc, w->profiles[p].node, "name", name);
}

char *
phys_preset_export(struct phys_world *w, int p)
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
import_from(struct phys_world *w, struct phys_doc *src, xmlNodePtr parent,
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
phys_preset_import(struct phys_world *w, const char *path)
{
	struct phys_doc src;
	char **names = NULL;
	size_t n = 0, i;
	xmlNodePtr world;
	int rc;

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
