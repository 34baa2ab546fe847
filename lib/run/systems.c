/* systems.c - the table of gz-sim's systems phys runs, found among a
 * world's plugins, and their topics. */
#include "sysint.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "mjcf.h"
#include "num.h"

/* Every system phys runs, by gz-sim's names. */
static const struct phys_sys_kind *const kinds[] = {
	&phys_sys_joint_position_controller,
	&phys_sys_joint_controller,
	&phys_sys_apply_joint_force,
	&phys_sys_diff_drive,
	&phys_sys_velocity_control,
	&phys_sys_apply_link_wrench,
	&phys_sys_joint_trajectory_controller,
	&phys_sys_ackermann_steering,
	&phys_sys_detachable_joint,
	&phys_sys_tendon_actuator,
	&phys_sys_fluid_forces,
	&phys_sys_tendon_spring,
	&phys_sys_site_actuator,
	NULL
};

/* ---- names ---- */

/*
 * A plugin library's stem, the part gz-sim's releases share:
 * "libgz-sim8-diff-drive-system.so", "gz-sim-diff-drive-system" and
 * "ignition-gazebo6-diff-drive-system" are all "diff-drive-system".
 */
static char *
lib_stem(const char *file)
{
	static const char *const prefixes[] = { "gz-sim", "ignition-gazebo",
		"gz-gazebo" };
	const char *s = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char *out, *dot;
	size_t i, n;

	if (strncmp(s, "lib", 3) == 0)
		s += 3;
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		n = strlen(prefixes[i]);
		if (strncmp(s, prefixes[i], n) != 0)
			continue;
		s += n;
		while (isdigit((unsigned char)*s))
			s++;
		if (*s == '-')
			s++;
		break;
	}
	out = phys_xstrdup(s);
	if ((dot = strchr(out, '.')))	/* .so, .so.8, .dylib, .dll */
		*dot = '\0';
	return out;
}

/* "gz::sim::systems::DiffDrive", "ignition::gazebo::systems::DiffDrive":
 * "DiffDrive" ("phys::systems::TendonActuator": phys's own); NULL for a
 * name of no such system. */
static const char *
class_name(const char *name)
{
	const char *s = strstr(name, "::systems::");

	if (!s || !(strncmp(name, "gz::", 4) == 0 ||
	    strncmp(name, "ignition::", 10) == 0 ||
	    strncmp(name, "phys::", 6) == 0))
		return NULL;
	return s + strlen("::systems::");
}

/* The system a plugin names by its library, or else by its class. */
static const struct phys_sys_kind *
find_kind(const char *file, const char *name)
{
	char *stem = file ? lib_stem(file) : NULL;
	const char *cls = name ? class_name(name) : NULL;
	const struct phys_sys_kind *k = NULL;
	size_t i;

	for (i = 0; kinds[i] && !k; i++)
		if (stem && strcmp(stem, kinds[i]->lib) == 0)
			k = kinds[i];
	for (i = 0; kinds[i] && !k; i++)
		if (cls && strcmp(cls, kinds[i]->name) == 0)
			k = kinds[i];
	free(stem);
	return k;
}

/* Plugins phys reads elsewhere: gz-sim's physics system (its engine picks
 * phys's, world.c) and Gazebo's InitialVelocityPlugin (world.c). */
static bool
read_elsewhere(const char *file, const char *name)
{
	char *stem = file ? lib_stem(file) : NULL;
	const char *cls = name ? class_name(name) : NULL;
	bool yes = (stem && strcmp(stem, "physics-system") == 0) ||
	    (cls && strcmp(cls, "Physics") == 0) ||
	    (file && strstr(file, "InitialVelocityPlugin"));

	free(stem);
	return yes;
}

/* ---- finding the plugins ---- */

static void
not_run(struct phys_doc *doc, xmlNodePtr n, const char *why)
{
	char *name = phys_node_attr(n, "name"), *file = phys_node_attr(n,
	    "filename");

	phys_warnat_once(PHYS_AT(doc, n), "plugin '%s'%s%s%s is not run%s",
	    name ? name : "", file ? " (" : "", file ? file : "",
	    file ? ")" : "", why);
	free(name);
	free(file);
}

static int
add_system(struct phys_systems *s, const struct phys_sys_kind *k,
    const struct phys_sys_conf *c)
{
	void *state = phys_xcalloc(1, k->size);

	if (k->parse(c, state) < 0) {
		if (k->free)
			k->free(state);
		free(state);
		return -1;
	}
	s->v = phys_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = (struct phys_sys_inst){ k, state, c->node, c->doc };
	return 0;
}

/* One plugin: a system to run, or one reported as not run. top: directly
 * in the world or in model mi, where gz-sim loads its systems. */
static int
plugin(struct phys_systems *s, struct phys_sys_conf *c, bool top)
{
	char *file = phys_node_attr(c->node, "filename"),
	    *name = phys_node_attr(c->node, "name");
	const struct phys_sys_kind *k = find_kind(file, name);
	bool elsewhere = read_elsewhere(file, name);
	int rc = 0;

	free(file);
	free(name);
	if (elsewhere)
		return 0;
	if (!k || !top) {
		not_run(c->doc, c->node, k ? ": gz-sim runs a system only "
		    "in a <world> or <model>" : "; phys(7) lists the gz-sim "
		    "systems phys runs");
	} else if (k->world != (c->model < 0)) {
		not_run(c->doc, c->node, k->world ? ": gz-sim runs it in "
		    "the <world> only" : ": gz-sim runs it in a <model> only");
	} else {
		c->label = k->name;
		c->inst = (int)s->n;
		rc = add_system(s, k, c);
	}
	return rc;
}

/* The plugins below n, but for those of its models (read with them). */
static int
walk(struct phys_systems *s, struct phys_sys_conf *c, xmlNodePtr n, bool top)
{
	xmlNodePtr e;

	for (e = phys_child(n, NULL); e; e = phys_next(e, NULL)) {
		if (phys_node_is(e, "plugin")) {
			c->node = e;
			if (plugin(s, c, top) < 0)
				return -1;
		} else if (!phys_node_is(e, "model") &&
		    !phys_node_is(e, "include") && walk(s, c, e, false) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The <plugin>s of include (in doc) that placed c's model. */
static int
include_plugins(struct phys_systems *s, struct phys_sys_conf *c,
    struct phys_doc *doc, xmlNodePtr include)
{
	xmlNodePtr e;

	c->doc = doc;
	for (e = phys_child(include, "plugin"); e; e = phys_next(e, "plugin")) {
		c->node = e;
		if (plugin(s, c, true) < 0)
			return -1;
	}
	return 0;
}

static int
find_systems(struct phys_systems *s, const struct phys_scene *w,
    struct phys_run_values *vals)
{
	struct phys_sys_conf c = { w, NULL, NULL, NULL, -1, NULL, vals, s, 0 };
	const struct phys_model *m;
	const char *local;
	size_t i;

	/* the world is only read here */
	c.doc = phys_world_doc((struct phys_scene *)w);
	if (w->node && walk(s, &c, w->node, true) < 0)
		return -1;
	for (i = 0; i < w->nmodels; i++) {
		m = &w->models[i];
		local = strrchr(m->name, ':') ? strrchr(m->name, ':') + 1 :
		    m->name;
		c.model = (int)i;
		c.model_name = local;
		c.doc = m->doc;
		if (walk(s, &c, m->node, true) < 0)
			return -1;
		if (include_plugins(s, &c, m->inner_include_doc,
		    m->inner_include) < 0 ||
		    include_plugins(s, &c, m->include_doc, m->include) < 0)
			return -1;
	}
	return 0;
}

int
phys_systems_load(struct phys_systems **out, const struct phys_scene *w,
    struct phys_run_values *vals)
{
	struct phys_systems *s = phys_xcalloc(1, sizeof *s);

	*out = NULL;
	s->run.w = w;
	s->run.vals = vals;
	s->run.pulls = phys_xcalloc(w->njoints ? w->njoints : 1,
	    sizeof *s->run.pulls);
	s->run.pushes = phys_xcalloc(2 * (w->nlinks ? w->nlinks : 1),
	    sizeof *s->run.pushes);
	if (find_systems(s, w, vals) < 0) {
		phys_systems_free(s);
		return -1;
	}
	if (s->n == 0) {
		phys_systems_free(s);
		return 0;
	}
	*out = s;
	return 0;
}

void
phys_systems_free(struct phys_systems *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->v[i].kind->free)
			s->v[i].kind->free(s->v[i].state);
		free(s->v[i].state);
	}
	for (i = 0; i < s->ntopics; i++)
		free(s->topics[i]);
	free(s->topics);
	free(s->subs);
	free(s->v);
	free(s->run.pulls);
	free(s->run.pushes);
	free(s);
}

/* ---- topics ---- */

int
phys_systems_topic(const struct phys_systems *s, const char *topic)
{
	struct phys_buf list = { 0 };
	char *name = phys_sys_topic_name(topic);
	size_t i;
	int found = -1;

	for (i = 0; s && name && i < s->ntopics; i++)
		if (strcmp(s->topics[i], name) == 0)
			found = (int)i;
	free(name);
	if (found >= 0)
		return found;
	for (i = 0; s && i < s->ntopics && i < 8; i++)
		phys_buf_printf(&list, "%s%s", i ? ", " : "", s->topics[i]);
	if (s && s->ntopics > 8)
		phys_buf_printf(&list, " and %zu more", s->ntopics - 8);
	if (list.s)
		phys_fail("no system listens on topic '%.80s' (the world's "
		    "topics: %s)", topic, list.s);
	else
		phys_fail("no system listens on topic '%.80s': the world runs "
		    "no gz-sim system with topics", topic);
	phys_buf_free(&list);
	return -1;
}

/* msg as JSON, normalised for the subscription's type: NULL, with
 * phys_error(), when it is not one. */
static json_t *
parse_msg(const struct phys_sys_sub *sub, const char *msg)
{
	json_error_t err;
	json_t *j = json_loads(msg, JSON_REJECT_DUPLICATES, &err);

	if (!j) {
		phys_fail("msg: %s", err.text);
		return NULL;
	}
	if (phys_msg_check(sub->type, j) < 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

int
phys_systems_check(const struct phys_systems *s, int topic, const char *msg)
{
	const struct phys_sys_inst *in;
	char *why;
	size_t i;
	json_t *j;

	for (i = 0; i < s->nsubs; i++) {
		if (s->subs[i].topic != topic)
			continue;
		in = &s->v[s->subs[i].inst];
		if (!(j = parse_msg(&s->subs[i], msg)))
			goto bad;
		if (in->kind->check && in->kind->check(in->state,
		    s->subs[i].slot, j) < 0) {
			json_decref(j);
			return -1;
		}
		json_decref(j);
	}
	return 0;
bad:
	why = phys_xstrdup(phys_error());
	phys_fail("%s (topic %s takes %s)", why, s->topics[topic],
	    phys_msg_type_name(s->subs[i].type));
	free(why);
	return -1;
}

/* ---- running ---- */

int
phys_systems_start(struct phys_systems *s, struct phys_engine *e)
{
	size_t i;

	s->run.e = e;
	for (i = 0; i < s->n; i++)
		if (s->v[i].kind->start &&
		    s->v[i].kind->start(s->v[i].state, &s->run) < 0)
			return -1;
	return 0;
}

int
phys_systems_deliver(struct phys_systems *s, int topic, const char *msg)
{
	const struct phys_sys_sub *sub;
	const struct phys_sys_inst *in;
	size_t i;
	json_t *j;
	int rc;

	for (i = 0; i < s->nsubs; i++) {
		sub = &s->subs[i];
		if (sub->topic != topic)
			continue;
		if (!(j = parse_msg(sub, msg)))
			return -1;
		in = &s->v[sub->inst];
		rc = in->kind->message(in->state, &s->run, sub->slot, j);
		json_decref(j);
		if (rc < 0)
			return -1;
	}
	return 0;
}

bool
phys_systems_medium(const struct phys_systems *s,
    struct phys_mjcf_medium *out)
{
	struct phys_mjcf_medium m;
	const struct phys_sys_inst *in;
	bool found = false;
	size_t i;

	for (i = 0; s && i < s->n; i++) {
		in = &s->v[i];
		if (!in->kind->medium)
			continue;
		in->kind->medium(in->state, found ? &m : out);
		if (found && memcmp(&m, out, sizeof m) != 0)
			phys_warnat(PHYS_AT(in->doc, in->node), "<plugin> %s is "
			    "not written: MuJoCo has one medium for the "
			    "model, the first one's", in->kind->name);
		found = true;
	}
	return found;
}

int
phys_systems_step(struct phys_systems *s, double h)
{
	size_t i;

	memset(s->run.pulls, 0, (s->run.w->njoints ? s->run.w->njoints : 1) *
	    sizeof *s->run.pulls);
	memset(s->run.pushes, 0, 2 * (s->run.w->nlinks ? s->run.w->nlinks : 1) *
	    sizeof *s->run.pushes);
	for (i = 0; i < s->n; i++)
		if (s->v[i].kind->step &&
		    s->v[i].kind->step(s->v[i].state, &s->run, h) < 0)
			return -1;
	return 0;
}

/* System i's value in keyframe name (its <phys:key name>): 1 with *v, 0
 * when it has none, -1 when it is no number. */
static int
key_value(const struct phys_systems *s, size_t i, const char *name,
    double *v)
{
	xmlNodePtr e = phys_mjcf_key(s->v[i].node, name, NULL);
	char *text;
	int found;

	if (!e)
		return 0;
	text = phys_node_text(e);
	found = phys_parse_double(text, v) && isfinite(*v) ? 1 : -1;
	if (found < 0)
		phys_failat(PHYS_AT(s->v[i].doc, e),
		    "<phys:key name=\"%s\">: '%s' is not a number", name,
		    text);
	free(text);
	return found;
}

int
phys_systems_keyframe(struct phys_systems *s, const char *name)
{
	const struct phys_sys_inst *in;
	size_t i, k;
	double v;
	json_t *j;
	int rc;

	for (i = 0; s && i < s->n; i++) {
		in = &s->v[i];
		if ((rc = key_value(s, i, name, &v)) <= 0) {
			if (rc < 0)
				return -1;
			continue;
		}
		for (k = 0; k < s->nsubs && s->subs[k].inst != (int)i; k++)
			continue;
		if (k == s->nsubs || !in->kind->message)
			continue;
		j = json_pack("{s:f}", "data", v);
		rc = phys_msg_check(s->subs[k].type, j) < 0 ? -1 :
		    in->kind->message(in->state, &s->run, s->subs[k].slot, j);
		json_decref(j);
		if (rc < 0)
			return -1;
	}
	return 0;
}

void
phys_systems_actuators(const struct phys_systems *s,
    const struct phys_run_values *v, struct phys_mjcf_actuator **out,
    size_t *n)
{
	struct phys_sys_actuators acts = { NULL, 0 };
	const struct phys_sys_inst *in;
	size_t i, k, first;

	for (i = 0; s && i < s->n; i++) {
		in = &s->v[i];
		first = acts.n;
		if (in->kind->medium)
			continue;	/* phys_systems_medium */
		if (!in->kind->actuators ||
		    in->kind->actuators(in->state, v, &acts) < 0) {
			acts.n = first;
			phys_warnat(PHYS_AT(in->doc, in->node),
			    "<plugin> %s is not written: no MuJoCo actuator "
			    "does what it does", in->kind->name);
			continue;
		}
		for (k = first; k < acts.n; k++) {
			acts.v[k].plugin = in->node;
			acts.v[k].file = phys_node_file(in->doc,
			    in->node);
		}
	}
	*out = acts.v;
	*n = acts.n;
}
