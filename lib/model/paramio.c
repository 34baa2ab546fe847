/* paramio.c - parameter lines, and writing edited worlds. */
#include "paramio.h"
#include "sdfedit.h"
#include "mjcfedit.h"
#include "urdf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "item.h"

const char *
phys_support_name(enum phys_engine_support s)
{
	static const char *names[] = { "native", "emulated", "inert", "other" };

	return names[s];
}

static void
put_engines(struct phys_buf *b, unsigned e)
{
	bool first = true;
	unsigned bit;

	phys_buf_putc(b, '[');
	for (bit = 1; bit <= PHYS_E_ALL; bit <<= 1)
		if (e & bit) {
			if (!first)
				phys_buf_putc(b, ',');
			phys_buf_json_string(b, phys_engine_type_name(bit));
			first = false;
		}
	phys_buf_putc(b, ']');
}

static void
put_values(struct phys_buf *b, const char *values, bool numbers)
{
	const char *p = values, *bar;
	const char *quote = numbers ? "" : "\"";

	phys_buf_putc(b, '[');
	for (;;) {
		bar = strchr(p, '|');
		phys_buf_puts(b, quote);
		phys_buf_putn(b, p, bar ? (size_t)(bar - p) : strlen(p));
		phys_buf_puts(b, quote);
		if (!bar)
			break;
		phys_buf_putc(b, ',');
		p = bar + 1;
	}
	phys_buf_putc(b, ']');
}

static void
put_index(struct phys_buf *b, const struct phys_param *p)
{
	if (p->alias) {
		phys_buf_puts(b, ",\"alias\":");
		phys_buf_json_string(b, p->alias);
	}
	phys_buf_puts(b, ",\"scope\":");
	phys_buf_json_string(b, phys_scope_name(p->scope));
	phys_buf_puts(b, ",\"units\":");
	phys_buf_json_string(b, p->units);
}

static void
put_facts(struct phys_buf *b, const struct phys_param *p,
    phys_param_notes notes)
{
	struct phys_value def;

	put_index(b, p);
	phys_value_default(p, &def);
	phys_buf_puts(b, ",\"default\":");
	phys_value_json(p, &def, b);
	phys_value_free(&def);
	if (PHYS_MIN_ABOVE_ZERO(p)) {
		phys_buf_puts(b, ",\"exclusive_min\":0");
	} else if (isfinite(p->min)) {
		phys_buf_puts(b, ",\"min\":");
		phys_buf_double(b, p->min);
	}
	if (isfinite(p->max)) {
		phys_buf_puts(b, ",\"max\":");
		phys_buf_double(b, p->max);
	}
	if (p->values) {
		phys_buf_puts(b, ",\"values\":");
		put_values(b, p->values, p->type == PHYS_T_INT);
	}
	phys_buf_puts(b, ",\"engines\":");
	put_engines(b, p->engines);
	if (notes)
		notes(b, p);
	phys_buf_puts(b, ",\"doc\":");
	phys_buf_json_string(b, p->doc);
}

void
phys_param_line_registry(struct phys_buf *b, const struct phys_param *p,
    unsigned flags, phys_param_notes notes)
{
	phys_buf_puts(b, "{\"name\":");
	phys_buf_json_string(b, p->name);
	phys_buf_puts(b, ",\"type\":");
	phys_buf_json_string(b, phys_type_name(p->type));
	if (flags & PHYS_PL_DOC)
		put_facts(b, p, notes);
	else
		put_index(b, p);
	phys_buf_puts(b, "}\n");
}

void
phys_param_line(struct phys_buf *b, struct phys_scene *w,
    const struct phys_ref *r, const struct phys_value *v, unsigned flags,
    phys_param_notes notes)
{
	char *name = phys_ref_name(w, r);

	phys_buf_puts(b, "{\"name\":");
	phys_buf_json_string(b, name);
	free(name);
	phys_buf_puts(b, ",\"type\":");
	phys_buf_json_string(b, phys_type_name(r->p->type));
	phys_buf_puts(b, ",\"value\":");
	phys_value_json(r->p, v, b);
	if (!v->given)
		phys_buf_puts(b, ",\"is_default\":true");
	if ((flags & PHYS_PL_PRESET) && r->scope == PHYS_S_PHYSICS) {
		phys_buf_puts(b, ",\"preset\":");
		phys_buf_json_string(b, w->profiles[r->idx].name);
	}
	if (flags & PHYS_PL_DOC)
		put_facts(b, r->p, notes);
	phys_buf_puts(b, "}\n");
}

/* <world>'s children in the specification's order; models and includes
 * share a place, as worlds mix them. */
static int
world_rank(const char *name)
{
	static const char *order[] = { "audio", "wind", "gravity",
		"magnetic_field", "atmosphere", "gui", "physics", "scene",
		"light", "frame", "model", "actor", "plugin", "road",
		"spherical_coordinates", "state", "population" };
	size_t i;

	if (strcmp(name, "include") == 0)
		name = "model";
	for (i = 0; i < sizeof order / sizeof *order; i++)
		if (strcmp(order[i], name) == 0)
			return (int)i;
	return -1;
}

int
phys_param_rank(const void *ctx, xmlNodePtr owner, const char *path)
{
	phys_scope s = (phys_scope)(intptr_t)ctx;
	size_t i, n, len;

	if (s == PHYS_S_WORLD && !strchr(path, '.'))
		return world_rank(path);
	if (s == PHYS_S_WORLD && strncmp(path, "physics.", 8) == 0) {
		s = PHYS_S_PHYSICS;
		path += 8;
	}
	len = strlen(path);
	n = phys_scope_count(s);
	for (i = 0; i < n; i++) {
		const char *name = phys_scope_param(s, i)->name;

		if (strncmp(name, path, len) == 0 &&
		    (name[len] == '\0' || name[len] == '.'))
			return (int)i;
	}
	return -1;
}

/* A pose is written as six numbers in radians: attributes that said
 * degrees or a quaternion would misread them. */
static int
plain_pose_attrs(struct phys_doc *doc, xmlNodePtr e)
{
	if (e && xmlHasProp(e, (const xmlChar *)"degrees") &&
	    phys_doc_set_attr(doc, e, "degrees", NULL) < 0)
		return -1;
	if (e && xmlHasProp(e, (const xmlChar *)"rotation_format") &&
	    phys_doc_set_attr(doc, e, "rotation_format", NULL) < 0)
		return -1;
	return 0;
}

int
phys_world_edit(struct phys_scene *w, const struct phys_ref *r,
    const struct phys_value *v)
{
	struct phys_doc *doc = phys_entity_doc(w, r->scope, r->idx);
	xmlNodePtr owner = phys_entity_node(w, r->scope, r->idx);
	struct phys_buf text = { 0 };
	char *path = NULL;
	int rc;

	if (w->doc.kind == PHYS_DOC_MJCF && w->model_doc &&
	    (doc == w->host || doc == w->model_doc)) {	/* in MJCF's terms */
		phys_value_sdf(r->p, v, &text);
		rc = phys_mjcf_edit(&w->doc, w->model_doc, r->scope, owner,
		    r->p, text.s);
		phys_buf_free(&text);
		return rc;
	}
	if (doc == w->host)
		return phys_world_has_world(w, r->scope == PHYS_S_PHYSICS ?
		    "physics profile" : "world values");
	if (!phys_world_editable(w, r->scope, r->idx) && owner &&
	    phys_node_file(doc, owner) != doc->name)
		return phys_fail("%s is brought into an included model by "
		    "<experimental:params> at %s:%ld; edit it there",
		    phys_entity_name(w, r->scope, r->idx),
		    phys_node_file(doc, owner), phys_node_line(owner));
	if (!phys_world_editable(w, r->scope, r->idx))
		return phys_fail("%s is defined in the included file %s; edit "
		    "that file instead", phys_entity_name(w, r->scope, r->idx),
		    doc->name);
	phys_value_sdf(r->p, v, &text);
	if (doc == w->model_doc) {	/* into the URDF, in its terms */
		rc = phys_urdf_edit(doc, r->scope, owner, r->p, text.s);
	} else if (r->scope == PHYS_S_PHYSICS && !owner) {
		/* The implicit profile becomes a real <physics> element. */
		path = phys_xasprintf("physics.%s", r->p->name);
		rc = phys_doc_set_text(doc, w->node, path, text.s,
		    phys_param_rank, (void *)(intptr_t)PHYS_S_WORLD);
		w->profiles[r->idx].node = phys_child(w->node, "physics");
		if (rc == 0)	/* required by the specification */
			rc = phys_doc_set_attr(doc, w->profiles[r->idx].node,
			    "type", "ode");
	} else {
		rc = phys_doc_set_text(doc, owner, r->p->name, text.s,
		    phys_param_rank, (void *)(intptr_t)r->scope);
		if (rc == 0 && r->p->type == PHYS_T_POSE)
			rc = plain_pose_attrs(doc, phys_path_find(owner,
			    r->p->name));
	}
	free(path);
	phys_buf_free(&text);
	return rc;
}

int
phys_world_open_edit_with(struct phys_scene *w, const char *path,
    bool in_place, const struct phys_load_options *lo)
{
	if (in_place && phys_edit_lock(path) < 0) {
		phys_report();
		memset(w, 0, sizeof *w);
		return -1;
	}
	return phys_world_open_with(w, path, lo);
}

int
phys_world_open_edit(struct phys_scene *w, const char *path, bool in_place,
    bool warn)
{
	struct phys_load_options lo;

	phys_load_options_default(&lo);
	lo.quiet = !warn;
	lo.skip_unsupported = true;
	return phys_world_open_edit_with(w, path, in_place, &lo);
}

int
phys_world_write(struct phys_scene *w, bool in_place)
{
	struct phys_atomic a;
	size_t len;
	char *text;
	int rc = 0;

	if (in_place && !w->doc.path)
		return phys_fail("-i needs a world file, not standard input");
	text = phys_doc_render(&w->doc, &len);
	if (!text)
		return -1;
	if (!in_place) {
		if (fwrite(text, 1, len, stdout) != len)
			rc = phys_fail("write error: %s", strerror(errno));
		free(text);
		return rc;
	}
	if (phys_atomic_open(&a, w->doc.path) < 0) {
		free(text);
		return -1;
	}
	if (fwrite(text, 1, len, a.fp) != len) {
		int err = errno;

		phys_atomic_abort(&a);
		free(text);
		return phys_failat(w->doc.path, 0, "write failed: %s",
		    strerror(err));
	}
	free(text);
	return phys_atomic_commit(&a);
}

/* ---- values from JSON lines ---- */

int
phys_json_to_text(const json_t *v, struct phys_buf *b)
{
	char num[40];
	size_t i, n;

	if (json_is_integer(v)) {
		phys_buf_printf(b, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		phys_fmt_double(num, sizeof num, json_real_value(v));
		phys_buf_puts(b, num);
	} else if (json_is_boolean(v)) {
		phys_buf_puts(b, json_is_true(v) ? "true" : "false");
	} else if (json_is_string(v)) {
		phys_buf_puts(b, json_string_value(v));
	} else if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++) {
			if (i)
				phys_buf_putc(b, ' ');
			if (!json_is_number(json_array_get(v, i)) ||
			    phys_json_to_text(json_array_get(v, i), b) < 0)
				return phys_fail("arrays must hold numbers");
		}
	} else if (json_is_object(v)) {
		n = json_object_get(v, "roll") ? 6 : 3;
		if (json_object_size(v) != n)
			return phys_fail("expected {\"x\",\"y\",\"z\"} or a pose "
			    "{\"x\",\"y\",\"z\",\"roll\",\"pitch\",\"yaw\"}");
		for (i = 0; i < n; i++) {
			json_t *f = json_object_get(v, phys_item_fields(PHYS_IT_POSE)[i]);

			if (!json_is_number(f))
				return phys_fail("field \"%s\" is missing or "
				    "not a number", phys_item_fields(PHYS_IT_POSE)[i]);
			if (i)
				phys_buf_putc(b, ' ');
			phys_json_to_text(f, b);
		}
	} else {
		return phys_fail("null is not a value");
	}
	return 0;
}
