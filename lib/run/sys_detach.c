/*
 * sys_detach.c - gz-sim's DetachableJoint: a link of another model (or
 * of this one) held to a link of this model by a fixed joint made at run
 * time, let go by a message on one topic and held again by one on
 * another, wherever it then is. gz-sim's parameters, defaults and
 * topics; the weld itself is the engine's (phys_engine_weld).
 */
#include "sysint.h"

#include <stdlib.h>
#include <string.h>

#include "base.h"

struct dj {
	int parent, child;	/* links; child -1: none found */
	bool attached;
	/* Asked on a topic, done before the next step (gz-sim's
	 * PreUpdate): attaching first, then detaching. */
	bool want_attach, want_detach;
};

enum { DJ_DETACH, DJ_ATTACH };

/* A required parameter's element, or an error at the plugin. */
static xmlNodePtr
required(const struct phys_sys_conf *c, const char *name)
{
	xmlNodePtr e = phys_child(c->node, name);

	if (!e)
		phys_sys_fail(c, NULL, "<%s> is required", name);
	return e;
}

/* The first of the given topics that is a valid name (gz-sim's
 * validTopic); the last is the default and always is. */
static char *
first_valid(char *const *topics, int n)
{
	char *name;
	int i;

	for (i = 0; i < n; i++) {
		if (!topics[i] || !(name = phys_sys_topic_name(topics[i])))
			continue;
		free(name);
		return phys_xstrdup(topics[i]);
	}
	return NULL;
}

/*
 * The child link: child_link of the model child_model names ("__model__":
 * this one), looked for first among the models within this one, then in
 * the world (gz-sim prefers a descendant of the plugin's model when
 * several share the name). -1 with a warning when there is none (gz-sim's,
 * unless suppress_child_warning): gz-sim then keeps looking for one to
 * appear, and phys's worlds gain no models while they run.
 */
static int
child_link(const struct phys_sys_conf *c, const char *model, const char *link,
    bool quiet)
{
	const char *scope = phys_model_scope(c->w, c->model);
	char *full;
	int li = -1;

	if (strcmp(model, "__model__") == 0) {
		full = phys_xasprintf("%s::%s", scope, link);
	} else {
		full = phys_xasprintf("%s::%s::%s", scope, model, link);
		li = phys_world_entity_of(c->w, full, PHYS_K_LINK);
		free(full);
		full = phys_xasprintf("%s::%s", model, link);
	}
	if (li < 0)
		li = phys_world_entity_of(c->w, full, PHYS_K_LINK);
	free(full);
	if (li < 0 && !quiet)
		phys_warnat_once(PHYS_AT(c->doc, c->node),
		    "%s: no link '%s' in a model '%s': nothing is attached",
		    c->label, link, model);
	return li;
}

static int
dj_topics(const struct phys_sys_conf *c)
{
	char *detach = phys_sys_text(c, "detach_topic"),
	    *topic = phys_sys_text(c, "topic"),
	    *attach = phys_sys_text(c, "attach_topic");
	char *dflt_detach = phys_xasprintf("/model/%s/detachable_joint/detach",
	    c->model_name), *dflt_attach = phys_xasprintf(
	    "/model/%s/detachable_joint/attach", c->model_name);
	char *dl[3] = { detach ? detach : topic, dflt_detach, NULL };
	char *al[2] = { attach, dflt_attach };
	char *d, *a;
	int rc;

	if (detach && topic && strcmp(detach, topic) != 0)
		phys_warnat(PHYS_AT(c->doc, c->node), "%s: <topic> "
		    "and <detach_topic> differ: <detach_topic> is used",
		    c->label);
	d = first_valid(dl, 2);
	a = first_valid(al, 2);
	rc = phys_sys_subscribe(c, d, &phys_msg_empty, DJ_DETACH) < 0 ||
	    phys_sys_subscribe(c, a, &phys_msg_empty, DJ_ATTACH) < 0 ? -1 : 0;
	free(d);
	free(a);
	free(detach);
	free(topic);
	free(attach);
	free(dflt_detach);
	free(dflt_attach);
	return rc;
}

static int
dj_parse(const struct phys_sys_conf *c, void *state)
{
	struct dj *s = state;
	xmlNodePtr pe, me, le;
	char *model, *link;
	bool quiet = false, initial = true;

	if (!(pe = required(c, "parent_link")) ||
	    (s->parent = phys_sys_link(c, pe)) < 0 ||
	    !(me = required(c, "child_model")) ||
	    !(le = required(c, "child_link")) ||
	    phys_sys_bool(c, "suppress_child_warning", &quiet) < 0 ||
	    phys_sys_bool(c, "initial_attach", &initial) < 0)
		return -1;
	model = phys_node_text(me);
	link = phys_node_text(le);
	s->child = child_link(c, model, link, quiet);
	free(model);
	free(link);
	s->want_attach = initial;
	return dj_topics(c);
}

/* What was asked, as gz-sim's PreUpdate does it. */
static int
dj_step(void *state, const struct phys_sys_run *r, double h)
{
	struct dj *s = state;

	if (s->child < 0)
		return 0;
	if (!s->attached && s->want_attach) {
		if (phys_engine_weld(r->e, s->parent, s->child, true) < 0)
			return -1;
		s->attached = true;
		s->want_attach = false;
	}
	if (s->attached && s->want_detach) {
		if (phys_engine_weld(r->e, s->parent, s->child, false) < 0)
			return -1;
		s->attached = false;
		s->want_detach = false;
	}
	return 0;
}

/* As gz-sim: a detach while detached, or an attach while attached, is
 * ignored. */
static int
dj_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct dj *s = state;

	if (slot == DJ_DETACH && s->attached)
		s->want_detach = true;
	else if (slot == DJ_ATTACH && !s->attached)
		s->want_attach = true;
	return 0;
}

const struct phys_sys_kind phys_sys_detachable_joint = {
	"DetachableJoint", "detachable-joint-system", false, sizeof(struct dj),
	dj_parse, NULL, dj_step, dj_message, NULL, NULL, NULL, NULL
};
