/* control.c - control lines: read, checked against the world, ordered. */
#include "control.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "items.h"
#include "sim.h"

/* ---- values from JSON ---- */

int
phys_json_to_text(const json_t *v, struct phys_buf *b)
{
	char num[40];
	size_t i, n;

	if (json_is_integer(v)) {
		buf_printf(b, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		phys_fmt_double(num, sizeof num, json_real_value(v));
		buf_puts(b, num);
	} else if (json_is_boolean(v)) {
		buf_puts(b, json_is_true(v) ? "true" : "false");
	} else if (json_is_string(v)) {
		buf_puts(b, json_string_value(v));
	} else if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++) {
			if (i)
				buf_putc(b, ' ');
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
				buf_putc(b, ' ');
			phys_json_to_text(f, b);
		}
	} else {
		return phys_fail("null is not a value");
	}
	return 0;
}

/* ---- state that control lines may set ---- */

/* The items a control line may set: a link's or model's pose and
 * velocities. */
static bool
settable(enum phys_item_kind k)
{
	switch (k) {
	case PHYS_ITEM_LINK_POSE:
	case PHYS_ITEM_LINK_LINVEL:
	case PHYS_ITEM_LINK_ANGVEL:
	case PHYS_ITEM_MODEL_POSE:
	case PHYS_ITEM_MODEL_LINVEL:
	case PHYS_ITEM_MODEL_ANGVEL:
		return true;
	default:
		return false;
	}
}

int
phys_control_state_target(struct phys_world *w, const char *name, int *kind, int *entity)
{
	const char *slash = strrchr(name, '/');
	enum phys_item_owner owner;
	enum phys_kind k;
	char *ent;
	int idx, i;

	if (!slash)
		return -1;
	ent = xstrndup(name, (size_t)(slash - name));
	idx = phys_world_entity(w, ent, &k);
	free(ent);
	if (idx < 0 || (k != PHYS_K_LINK && k != PHYS_K_MODEL))
		return -1;
	owner = k == PHYS_K_LINK ? PHYS_IO_LINK : PHYS_IO_MODEL;
	for (i = 0; i < PHYS_NITEM_KINDS; i++)
		if (phys_item_defs[i].owner == owner && settable(i) &&
		    strcmp(phys_item_defs[i].prop, slash + 1) == 0) {
			*kind = i;
			*entity = idx;
			return 0;
		}
	return -1;
}

int
phys_control_check_state(const char *name, const char *text)
{
	double v[6];
	int want = strstr(name, "/pose") ? 6 : 3;

	if (phys_parse_doubles(text, v, 6) != want)
		return phys_fail("%s: expected %d numbers", name, want);
	return 0;
}

static int
parse_control_value(struct phys_controls *r, struct phys_control *c, json_t *obj)
{
	json_t *name = json_object_get(obj, "name");
	json_t *value = json_object_get(obj, "value");
	struct phys_buf b = { 0 };
	struct phys_value tmp = { 0 };

	if (!json_is_string(name) || !value)
		return phys_fail("a control line needs \"name\" and \"value\", "
		    "or \"preset\"");
	if (phys_json_to_text(value, &b) < 0) {
		buf_free(&b);
		return -1;
	}
	c->text = b.s ? b.s : xstrdup("");
	c->state_kind = -1;
	if (phys_control_state_target(r->w, json_string_value(name),
	    &c->state_kind, &c->entity) == 0)
		return phys_control_check_state(json_string_value(name), c->text);
	if (phys_ref_resolve(r->w, json_string_value(name), 0, &c->ref) < 0)
		return -1;
	/* Check the value now: a bad one is refused before the run starts. */
	if (phys_value_parse(c->ref.p, c->text, &tmp) < 0)
		return -1;
	phys_value_free(&tmp);
	return 0;
}

int
phys_control_find_profile(struct phys_world *w, const char *name)
{
	int profile = phys_world_profile(w, name);
	char *names;

	if (profile < 0) {
		names = phys_world_profile_names(w);
		phys_fail("no profile named '%s' (there are: %s)", name, names);
		free(names);
	}
	return profile;
}

static int
parse_control(struct phys_controls *r, struct phys_control *c, json_t *obj)
{
	json_t *t = json_object_get(obj, "t"), *p = json_object_get(obj, "preset");

	if (!json_is_number(t) || !isfinite(json_number_value(t)) ||
	    json_number_value(t) < 0)
		return phys_fail("\"t\" must be a time in seconds, >= 0");
	c->t = json_number_value(t);
	c->profile = -1;
	/* A parameter line may say which profile its value came from (as
	 * phys-param get writes); only a line without a name switches. */
	if (!p || json_object_get(obj, "name"))
		return parse_control_value(r, c, obj);
	if (!json_is_string(p))
		return phys_fail("\"preset\" must be a profile name");
	c->profile = phys_control_find_profile(r->w, json_string_value(p));
	return c->profile < 0 ? -1 : 0;
}

static int
control_order(const void *a, const void *b)
{
	const struct phys_control *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int
read_one_control(char *text, long lineno, void *ctx)
{
	struct phys_controls *r = ctx;
	json_error_t jerr;
	json_t *obj;
	struct phys_control *c;
	int rc;

	obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj || !json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("not a JSON object%s%s", obj ? "" : ": ",
		    obj ? "" : jerr.text);
	}
	r->v = xrealloc(r->v, (r->n + 1) * sizeof *r->v);
	c = &r->v[r->n++];
	memset(c, 0, sizeof *c);
	c->line = lineno;
	rc = parse_control(r, c, obj);
	json_decref(obj);
	return rc;
}

int
phys_controls_read(struct phys_controls *c, struct phys_world *w,
    const char *path)
{
	memset(c, 0, sizeof *c);
	c->w = w;
	c->name = phys_display_name(path);
	if (phys_each_line(path, read_one_control, c) < 0)
		return -1;
	if (c->n > 1)	/* qsort must not be given NULL, even for 0 */
		qsort(c->v, c->n, sizeof *c->v, control_order);
	return 0;
}

void
phys_controls_free(struct phys_controls *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].text);
	free(c->v);
	memset(c, 0, sizeof *c);
}
