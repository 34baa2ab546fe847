/* control.c - control lines: read, checked against the world, ordered. */
#include "control.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine_common.h"
#include "items.h"
#include "keyframe.h"
#include "paramio.h"
#include "preset.h"

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
	case PHYS_ITEM_JOINT_POSITION:
	case PHYS_ITEM_JOINT_VELOCITY:
		return true;
	default:
		return false;
	}
}

int
phys_control_state_target(const struct phys_scene *w, const char *name, int *kind,
    int *entity)
{
	const char *slash = strrchr(name, '/');
	enum phys_item_owner owner;
	enum phys_kind k;
	char *ent;
	int idx, i;

	if (!slash)
		return -1;
	ent = phys_xstrndup(name, (size_t)(slash - name));
	idx = phys_world_entity(w, ent, &k);
	free(ent);
	if (idx < 0 || (k != PHYS_K_LINK && k != PHYS_K_MODEL &&
	    k != PHYS_K_JOINT))
		return -1;
	owner = k == PHYS_K_LINK ? PHYS_IO_LINK : k == PHYS_K_MODEL ?
	    PHYS_IO_MODEL : PHYS_IO_JOINT;
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
phys_control_command_target(const struct phys_scene *w, const char *name,
    enum phys_command_kind *kind, int *joint)
{
	const char *slash = strrchr(name, '/');
	enum phys_kind k;
	char *ent;
	int idx;

	if (!slash || (*kind = phys_command_kind_of(slash + 1)) ==
	    PHYS_COMMAND_NONE)
		return -1;
	ent = phys_xstrndup(name, (size_t)(slash - name));
	idx = phys_world_entity(w, ent, &k);
	free(ent);
	if (idx < 0 || k != PHYS_K_JOINT)
		return -1;
	*joint = idx;
	return 0;
}

/* Past where phys places a body (PHYS_REACH) or the rates every body is
 * held to (engine_common.h), a joint's position or rate (kind) of size x
 * on a joint of type: -1 with phys_error() naming the bound, else 0. */
static int
joint_bound(enum phys_joint_type type, enum phys_command_kind kind,
    const char *name, double x)
{
	bool linear = type == PHYS_JOINT_PRISMATIC;
	phys_vec3 rate = v3(x, 0, 0);

	if (kind == PHYS_COMMAND_POSITION && fabs(x) > PHYS_REACH)
		return phys_fail("%s: %g %s is farther than phys places a "
		    "body (%g %s)", name, x, linear ? "m" : "rad", PHYS_REACH,
		    linear ? "m" : "rad");
	if (kind == PHYS_COMMAND_VELOCITY)
		return phys_check_state_set(name, NULL, linear ? &rate : NULL,
		    linear ? NULL : &rate);
	return 0;
}

int
phys_control_check_command(const struct phys_scene *w, int joint,
    enum phys_command_kind kind, const char *name, const char *text,
    double v[2])
{
	const struct phys_joint *j = &w->joints[joint];
	int want = phys_joint_axes(j->type), n, k;
	double tmp[3];

	if (want == 0) {
		char *why = phys_joint_no_axis(j, "command");

		phys_fail("%s: %s", name, why);
		free(why);
		return -1;
	}
	n = phys_parse_doubles(text, tmp, 3);
	if (n != want)
		return phys_fail("%s: expected %s for the joint's %d ax%s",
		    name, want == 1 ? "a number" : "an array of 2 numbers",
		    want, want == 1 ? "is" : "es");
	for (k = 0; k < n; k++) {
		if (!isfinite(tmp[k]))
			return phys_fail("%s: %g is not a finite number", name,
			    tmp[k]);
		if (joint_bound(j->type, kind, name, tmp[k]) < 0)
			return -1;
		v[k] = tmp[k];
	}
	return n;
}

int
phys_control_check_state(const struct phys_scene *w, int kind, int entity,
    const char *name, const char *text, double cmd[2])
{
	bool pose = kind == PHYS_ITEM_LINK_POSE || kind == PHYS_ITEM_MODEL_POSE;
	bool turn = kind == PHYS_ITEM_LINK_ANGVEL ||
	    kind == PHYS_ITEM_MODEL_ANGVEL;
	double v[6];
	phys_vec3 x;
	int want = pose ? 6 : 3, k;

	if (phys_item_defs[kind].owner == PHYS_IO_JOINT)
		return phys_control_check_command(w, entity,
		    kind == PHYS_ITEM_JOINT_POSITION ? PHYS_COMMAND_POSITION :
		    PHYS_COMMAND_VELOCITY, name, text, cmd);
	if (phys_parse_doubles(text, v, 6) != want)
		return phys_fail("%s: expected %d numbers", name, want);
	for (k = 0; k < want; k++)
		if (!isfinite(v[k]))
			return phys_fail("%s: %g is not a finite number", name,
			    v[k]);
	x = v3(v[0], v[1], v[2]);
	return phys_check_state_set(name, pose ? &x : NULL,
	    !pose && !turn ? &x : NULL, turn ? &x : NULL);
}

/* A pattern, as phys-step -s takes one: every parameter it names, each
 * value checked now. */
static int
parse_glob(struct phys_controls *r, struct phys_control *c, const char *name)
{
	struct phys_ref *refs;
	struct phys_value tmp = { 0 };
	size_t n, i;
	int rc = 0;

	n = phys_ref_match(r->w, name, -1, &refs);
	if (n == 0)
		rc = phys_fail("no parameter matches '%s'", name);
	for (i = 0; i < n && rc == 0; i++) {
		memset(&tmp, 0, sizeof tmp);
		rc = phys_value_parse(refs[i].p, c->text, &tmp);
		phys_value_free(&tmp);
	}
	free(refs);
	if (rc == 0)
		c->glob = phys_xstrdup(name);
	return rc;
}

static int
parse_control_value(struct phys_controls *r, struct phys_control *c,
    json_t *obj)
{
	json_t *name = json_object_get(obj, "name");
	json_t *value = json_object_get(obj, "value");
	struct phys_buf b = { 0 };
	struct phys_value tmp = { 0 };

	if (!json_is_string(name) || !value)
		return phys_fail("a control line needs \"name\" and \"value\", "
		    "or \"preset\"");
	if (phys_json_to_text(value, &b) < 0) {
		phys_buf_free(&b);
		return -1;
	}
	c->text = b.s ? b.s : phys_xstrdup("");
	c->state_kind = -1;
	if (phys_control_command_target(r->w, json_string_value(name),
	    &c->command, &c->entity) == 0) {
		c->ncmd = phys_control_check_command(r->w, c->entity,
		    c->command, json_string_value(name), c->text, c->cmd);
		return c->ncmd < 0 ? -1 : 0;
	}
	c->command = PHYS_COMMAND_NONE;
	if (phys_control_state_target(r->w, json_string_value(name),
	    &c->state_kind, &c->entity) == 0) {
		c->ncmd = phys_control_check_state(r->w, c->state_kind,
		    c->entity, json_string_value(name), c->text, c->cmd);
		return c->ncmd < 0 ? -1 : 0;
	}
	if (phys_has_glob(json_string_value(name)))
		return parse_glob(r, c, json_string_value(name));
	if (phys_ref_resolve(r->w, json_string_value(name), 0, &c->ref) < 0)
		return -1;
	/* Check the value now: a bad one is refused before the run starts. */
	if (phys_value_parse(c->ref.p, c->text, &tmp) < 0)
		return -1;
	phys_value_free(&tmp);
	return 0;
}

/* {"topic":"/model/M/cmd_vel","msg":{...}}: a message to the systems
 * listening on a topic, checked against their message type now. */
static int
parse_topic(struct phys_controls *r, struct phys_control *c, json_t *topic,
    json_t *msg)
{
	char *text;

	if (!json_is_string(topic))
		return phys_fail("\"topic\" must be a topic name");
	if (!msg)
		return phys_fail("a topic line needs \"msg\", the message as "
		    "gz topic -p publishes it, in JSON");
	if ((c->topic = phys_systems_topic(r->systems,
	    json_string_value(topic))) < 0)
		return -1;
	text = json_dumps(msg, JSON_COMPACT | JSON_ENCODE_ANY);
	c->text = phys_xstrdup(text ? text : "");
	free(text);
	c->on_topic = true;
	return phys_systems_check(r->systems, c->topic, c->text);
}

/* {"save":"NAME"}: the run's physics values become a new profile. */
static int
parse_save(struct phys_controls *r, struct phys_control *c, json_t *name)
{
	if (!json_is_string(name) || !*json_string_value(name))
		return phys_fail("\"save\" must be a profile name");
	if (!r->can_save)
		return phys_fail("a \"save\" line needs --save-to WORLD, the "
		    "world file to store the profile in");
	c->save = true;
	c->text = phys_xstrdup(json_string_value(name));
	return 0;
}

/* {"keyframe":"NAME"}: the models' state in a keyframe of theirs. */
static int
parse_keyframe(struct phys_controls *r, struct phys_control *c, json_t *name)
{
	if (!json_is_string(name))
		return phys_fail("\"keyframe\" must be a keyframe's name");
	if (phys_keyframe_check(r->w, json_string_value(name)) < 0)
		return -1;
	c->keyframe = true;
	c->text = phys_xstrdup(json_string_value(name));
	return 0;
}

static int
parse_control(struct phys_controls *r, struct phys_control *c, json_t *obj,
    bool need_t)
{
	json_t *t = json_object_get(obj, "t"), *p = json_object_get(obj, "preset");
	json_t *save = json_object_get(obj, "save");
	json_t *topic = json_object_get(obj, "topic");
	json_t *key = json_object_get(obj, "keyframe");

	c->t = NAN;	/* a stream's line without "t": at the next step */
	c->profile = -1;
	c->state_kind = -1;
	if (t || need_t) {
		if (!json_is_number(t) || !isfinite(json_number_value(t)) ||
		    json_number_value(t) < 0)
			return phys_fail("\"t\" must be a time in seconds, >= 0");
		c->t = json_number_value(t);
	}
	if (save)
		return parse_save(r, c, save);
	if (key)
		return parse_keyframe(r, c, key);
	if (topic)
		return parse_topic(r, c, topic, json_object_get(obj, "msg"));
	/* A parameter line may say which profile its value came from (as
	 * phys-param get writes); only a line without a name switches. */
	if (!p || json_object_get(obj, "name"))
		return parse_control_value(r, c, obj);
	if (!json_is_string(p))
		return phys_fail("\"preset\" must be a profile name");
	c->profile = phys_world_find_profile(r->w, json_string_value(p));
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

/* One line into c (its t may still be NAN): 0, or -1 with the message
 * naming file and line. */
static int
parse_line(struct phys_controls *r, const char *text, struct phys_control *c)
{
	json_error_t jerr;
	json_t *obj;
	int rc;

	memset(c, 0, sizeof *c);
	c->line = r->lines.lineno;
	obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj || !json_is_object(obj))
		rc = phys_fail("not a JSON object%s%s", obj ? "" : ": ",
		    obj ? "" : jerr.text);
	else
		rc = parse_control(r, c, obj, !r->lines.may_block);
	json_decref(obj);
	if (rc < 0) {
		free(c->text);
		c->text = NULL;
		free(c->glob);
		c->glob = NULL;
		phys_fail_again(r->name, c->line, "");
	}
	return rc;
}

/* A regular file: every line now, sorted by time (then by line). */
static int
read_all(struct phys_controls *r)
{
	struct phys_control c;
	char *line;
	int rc;

	while ((rc = phys_lines_next(&r->lines, &line, NULL)) > 0) {
		if (phys_blank_or_comment(line))
			continue;
		if (parse_line(r, line, &c) < 0)
			return -1;
		r->v = phys_xrealloc(r->v, (r->n + 1) * sizeof *r->v);
		r->v[r->n++] = c;
	}
	if (rc < 0)
		return -1;
	if (r->n > 1)	/* qsort must not be given NULL, even for 0 */
		qsort(r->v, r->n, sizeof *r->v, control_order);
	phys_lines_close(&r->lines);
	return 0;
}

int
phys_controls_open(struct phys_controls *c, const struct phys_scene *w,
    const struct phys_systems *systems, const char *path, bool can_save,
    bool lockstep)
{
	memset(c, 0, sizeof *c);
	c->w = w;
	c->systems = systems;
	c->can_save = can_save;
	c->lines.fd = -1;
	if (!path)
		return 0;
	c->name = phys_display_name(path);
	if (phys_lines_open(&c->lines, path, PHYS_MAX_FILE_BYTES) < 0)
		return -1;
	/* Replies are read one a state line, from a file too. */
	if (!c->lines.may_block && !lockstep)
		return read_all(c);
	c->lines.max_total = 0;	/* a stream may go on as long as the run */
	c->stream = true;
	c->lockstep = lockstep;
	return 0;
}

/* Drop the lines already applied from the front of a stream's queue. */
static void
compact(struct phys_controls *r)
{
	size_t i;

	if (r->next == 0)
		return;
	for (i = 0; i < r->next; i++) {
		free(r->v[i].text);
		free(r->v[i].glob);
	}
	memmove(r->v, r->v + r->next, (r->n - r->next) * sizeof *r->v);
	r->n -= r->next;
	r->next = 0;
}

/* Queue c by time, after the lines of the same time. */
static void
enqueue(struct phys_controls *r, const struct phys_control *c)
{
	size_t at = r->n;

	if (r->n >= r->cap) {	/* a file's lines fill v exactly */
		r->cap = r->n ? 2 * r->n : 16;
		r->v = phys_xrealloc(r->v, r->cap * sizeof *r->v);
	}
	while (at > r->next && r->v[at - 1].t > c->t)
		at--;
	memmove(r->v + at + 1, r->v + at, (r->n - at) * sizeof *r->v);
	r->v[at] = *c;
	r->n++;
}

/*
 * The lines that have arrived on a stream, without waiting for more. A
 * line without "t" is for now. A line the run cannot take (bad JSON, an
 * unknown name, a bad value, a time that has passed) is skipped with a
 * warning naming its line: a typo in a live session must not end it.
 * Reading stops while PHYS_CONTROL_QUEUE lines wait for their time: the
 * writer then waits instead of the run's memory growing.
 */
static int
poll_stream(struct phys_controls *r, double now, double h)
{
	struct phys_control c;
	char *line;
	int rc;

	compact(r);
	while (!r->lines.eof && r->n < PHYS_CONTROL_QUEUE) {
		rc = phys_lines_poll(&r->lines, &line, NULL);
		if (rc < 0)
			return -1;
		if (rc != 1)
			break;
		if (phys_blank_or_comment(line))
			continue;
		if (parse_line(r, line, &c) < 0) {
			phys_warn("%s; line skipped", phys_error());
			continue;
		}
		if (isnan(c.t)) {
			c.t = now;
		} else if (c.t < now - h / 2) {
			free(c.text);
			phys_warnat(r->name, c.line, "t=%g has passed: the line "
			    "arrived when the run was at t=%g; line skipped",
			    c.t, now);
			continue;
		}
		enqueue(r, &c);
	}
	return 0;
}

int
phys_controls_poll(struct phys_controls *c, double now, double h)
{
	/* In lock-step the replies are read at the state lines alone. */
	return c->stream && !c->lockstep ? poll_stream(c, now, h) : 0;
}

int
phys_controls_due(struct phys_controls *c, double now, double h,
    const struct phys_control **out)
{
	if (c->next < c->n && c->v[c->next].t <= now + h / 2) {
		*out = &c->v[c->next++];
		return 1;
	}
	return 0;
}

/* ---- lines given now: lock-step replies and the C API ---- */

/* Element k of a reply (-1: the reply is one object) into c: 0, or -1
 * with phys_error() naming name and line. A line without "t" is for now;
 * one whose time has passed is refused. */
static int
reply_control(struct phys_controls *r, json_t *obj, int k, const char *name,
    long line, double now, double h, struct phys_control *c)
{
	char where[32] = "";
	int rc;

	memset(c, 0, sizeof *c);
	c->line = line;
	if (k >= 0)
		snprintf(where, sizeof where, "element %d: ", k + 1);
	if (!json_is_object(obj))
		rc = phys_fail("not a control object");
	else
		rc = parse_control(r, c, obj, false);
	if (rc == 0 && isnan(c->t))
		c->t = now;
	else if (rc == 0 && c->t < now - h / 2)
		rc = phys_fail("t=%g has passed: the run is at t=%g", c->t, now);
	if (rc == 0)
		return 0;
	free(c->text);
	c->text = NULL;
	return phys_fail_again(name, line, where);
}

/* Is obj the empty object, a reply that changes nothing? */
static bool
empty_object(json_t *obj)
{
	return json_is_object(obj) && json_object_size(obj) == 0;
}

int
phys_controls_add(struct phys_controls *r, const char *text, const char *name,
    long line, double now, double h)
{
	struct phys_control *v;
	json_error_t jerr;
	json_t *root, *obj;
	size_t n, i, got = 0;
	int rc = 0;

	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!root || !(json_is_object(root) || json_is_array(root))) {
		json_decref(root);
		return phys_failat(name, line, "not a reply: a control object, "
		    "an array of them, or {} for none%s%s", root ? "" : ": ",
		    root ? "" : jerr.text);
	}
	n = json_is_array(root) ? json_array_size(root) : 1;
	v = phys_xcalloc(n ? n : 1, sizeof *v);
	/* Every element is checked before any is queued: a reply is taken
	 * whole or not at all. */
	for (i = 0; i < n && rc == 0; i++) {
		obj = json_is_array(root) ? json_array_get(root, i) : root;
		if (empty_object(obj))
			continue;
		rc = reply_control(r, obj, json_is_array(root) ? (int)i : -1,
		    name, line, now, h, &v[got]);
		got += rc == 0;
	}
	json_decref(root);
	compact(r);
	if (rc == 0 && r->n - r->next + got > PHYS_CONTROL_QUEUE)
		rc = phys_failat(name, line, "more than %d lines would wait "
		    "for their time", PHYS_CONTROL_QUEUE);
	for (i = 0; i < got; i++)
		if (rc == 0)
			enqueue(r, &v[i]);
		else
			free(v[i].text);
	free(v);
	return rc;
}

int
phys_controls_reply(struct phys_controls *c, double now, double h, bool last)
{
	char *line;
	int rc;

	rc = phys_lines_next(&c->lines, &line, NULL);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return last ? 0 : phys_failat(c->name, c->lines.lineno + 1,
		    "the controller closed without replying to the state "
		    "line at t=%g", now);
	return phys_controls_add(c, line, c->name, c->lines.lineno, now, h);
}

void
phys_controls_free(struct phys_controls *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].text);
		free(c->v[i].glob);
	}
	free(c->v);
	if (c->lines.fd >= 0 || c->lines.buf)
		phys_lines_close(&c->lines);
	memset(c, 0, sizeof *c);
}

/* "NAME=VALUE" for each physics value of vals that differs from base's
 * (the specification's defaults when base is NULL). */
static size_t
changed_values(const struct phys_value *vals, const struct phys_value *base,
    char ***sets)
{
	struct phys_value def;
	struct phys_buf text = { 0 };
	size_t i, n = 0;

	*sets = phys_xcalloc(phys_scope_count(PHYS_S_PHYSICS), sizeof **sets);
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		const struct phys_param *p = phys_scope_param(PHYS_S_PHYSICS, i);
		bool same;

		if (base) {
			same = phys_value_equal(p, &base[i], &vals[i]);
		} else {
			phys_value_default(p, &def);
			same = phys_value_equal(p, &def, &vals[i]);
			phys_value_free(&def);
		}
		if (same)
			continue;
		phys_buf_clear(&text);
		phys_buf_printf(&text, "%s=", p->name);
		phys_value_sdf(p, &vals[i], &text);
		(*sets)[n++] = phys_xstrdup(text.s);
	}
	phys_buf_free(&text);
	return n;
}

int
phys_control_save(const char *path, const char *name, const char *from,
    const char *type, const struct phys_value *vals)
{
	struct phys_load_options lo;
	struct phys_scene ed;
	char **sets;
	size_t n, i;
	int base, rc;

	/* phys_world_open_edit's steps, leaving the report to the run */
	memset(&ed, 0, sizeof ed);
	if (phys_edit_lock(path) < 0)
		return -1;
	phys_load_options_default(&lo);
	lo.quiet = lo.skip_unsupported = true;	/* the run said them */
	if (phys_world_open_with(&ed, path, &lo) < 0) {
		phys_world_free(&ed);
		return -1;
	}
	/* The profile the run started from, when the file has it: the new
	 * one is a copy of it, changed where the run changed it. */
	base = phys_world_profile(&ed, from);
	if (base >= 0 && strcmp(ed.profiles[base].type, type) != 0)
		base = -1;
	n = changed_values(vals, base >= 0 ? ed.profiles[base].vals : NULL,
	    &sets);
	rc = phys_preset_add(&ed, name, base, type, sets, n);
	if (rc == 0)
		rc = phys_world_write(&ed, true);
	for (i = 0; i < n; i++)
		free(sets[i]);
	free(sets);
	phys_world_free(&ed);
	return rc;
}
