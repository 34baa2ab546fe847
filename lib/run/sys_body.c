/*
 * sys_body.c - gz-sim's systems that move bodies rather than joints:
 * VelocityControl and ApplyLinkWrench, with gz-sim's parameters,
 * defaults and topics.
 */
#include "sysint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* ---- VelocityControl ---- */

struct vc_link {
	int link;
	bool on;		/* a twist has come */
	phys_vec3 lin, ang;	/* in the link's frame */
};

struct vc {
	int *links, nlinks;	/* the model's; the first is its canonical */
	phys_pose model0;	/* the model frame in the canonical link's */
	phys_vec3 lin, ang;	/* the twist asked, model frame */
	struct vc_link *own;	/* <link_name>s, each with its topic */
	int nown;
};

static int
vc_parse(const struct phys_sys_conf *c, void *state)
{
	struct vc *s = state;
	const struct phys_scene *w = c->w;
	char *topic, *name;
	xmlNodePtr e;
	int rc;

	if ((s->nlinks = phys_sys_model_links(w, c->model, &s->links)) == 0)
		return phys_sys_fail(c, NULL, "model '%s' has no link to move",
		    w->models[c->model].name);
	s->model0 = phys_pose_mul(phys_pose_inv(w->links[s->links[0]].pose),
	    w->models[c->model].pose);
	if (phys_sys_vec3(c, "initial_linear", &s->lin) < 0 ||
	    phys_sys_vec3(c, "initial_angular", &s->ang) < 0)
		return -1;
	topic = phys_sys_text(c, "topic");
	name = topic ? phys_sys_topic_name(topic) : NULL;
	free(name);
	if (!name) {
		free(topic);
		topic = phys_xasprintf("/model/%s/cmd_vel", c->model_name);
	}
	rc = phys_sys_subscribe(c, topic, &phys_msg_twist, 0);
	free(topic);
	for (e = phys_child(c->node, "link_name"); e && rc == 0;
	    e = phys_next(e, "link_name")) {
		s->own = phys_xrealloc(s->own, (size_t)(s->nown + 1) *
		    sizeof *s->own);
		memset(&s->own[s->nown], 0, sizeof *s->own);
		if ((s->own[s->nown].link = phys_sys_link(c, e)) < 0)
			return -1;
		name = phys_node_text(e);
		topic = phys_xasprintf("/model/%s/link/%s/cmd_vel",
		    c->model_name, name);
		rc = phys_sys_subscribe(c, topic, &phys_msg_twist,
		    1 + s->nown++);
		free(topic);
		free(name);
	}
	return rc;
}

/*
 * The model's twist as its free group's (gz-sim's): its canonical link
 * moves at the twist, turned into the world by the model frame, and every
 * other link keeps its motion relative to the canonical one. A link with
 * a twist of its own moves at it, in its own frame.
 */
static int
vc_step(void *state, const struct phys_sys_run *r, double h)
{
	struct vc *s = state;
	phys_pose root, at;
	phys_vec3 v0, w0, v, w, lin, ang, d;
	phys_quat q;
	int k, li;

	phys_engine_link_pose(r->e, s->links[0], &root);
	phys_engine_link_vel(r->e, s->links[0], &v0, &w0);
	q = phys_pose_mul(root, s->model0).q;
	lin = phys_quat_rotate(q, s->lin);
	ang = phys_quat_rotate(q, s->ang);
	for (k = 0; k < s->nlinks; k++) {
		li = s->links[k];
		if (!phys_engine_link_dynamic(r->e, li))
			continue;
		phys_engine_link_pose(r->e, li, &at);
		phys_engine_link_vel(r->e, li, &v, &w);
		d = v3_sub(at.p, root.p);
		v = v3_add(v3_add(lin, v3_cross(ang, d)), v3_sub(v3_sub(v, v0),
		    v3_cross(w0, d)));
		w = v3_add(ang, v3_sub(w, w0));
		if (phys_engine_set_link_vel(r->e, li, &v, &w) < 0)
			return -1;
	}
	for (k = 0; k < s->nown; k++) {
		li = s->own[k].link;
		if (!s->own[k].on || !phys_engine_link_dynamic(r->e, li))
			continue;
		phys_engine_link_pose(r->e, li, &at);
		v = phys_quat_rotate(at.q, s->own[k].lin);
		w = phys_quat_rotate(at.q, s->own[k].ang);
		if (phys_engine_set_link_vel(r->e, li, &v, &w) < 0)
			return -1;
	}
	return 0;
}

/* A gz.msgs.Vector3d field of a message. */
static phys_vec3
msg_vec3(const json_t *msg, const char *path)
{
	const json_t *v = phys_msg_get(msg, path);

	return v3(phys_msg_num(v, "x"), phys_msg_num(v, "y"),
	    phys_msg_num(v, "z"));
}

static int
vc_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct vc *s = state;
	struct vc_link *l;

	if (slot == 0) {
		s->lin = msg_vec3(msg, "linear");
		s->ang = msg_vec3(msg, "angular");
		return 0;
	}
	l = &s->own[slot - 1];
	l->on = true;
	l->lin = msg_vec3(msg, "linear");
	l->ang = msg_vec3(msg, "angular");
	return 0;
}

static void
vc_free(void *state)
{
	struct vc *s = state;

	free(s->links);
	free(s->own);
}

const struct phys_sys_kind phys_sys_velocity_control = {
	"VelocityControl", "velocity-control-system", false, sizeof(struct vc),
	vc_parse, NULL, vc_step, vc_message, vc_free, NULL, NULL, NULL
};

/* ---- ApplyLinkWrench ---- */

/* A wrench on a link: force and torque in the world's axes, the force
 * through a point offset from the link's origin in its frame. */
struct wrench {
	int link;
	phys_vec3 force, torque, offset;
};

struct alw {
	const struct phys_scene *w;
	struct wrench *held;	/* persistent, until cleared */
	int nheld;
	struct wrench *once;	/* for the next step */
	int nonce;
	bool *pushed;		/* per link: pushed in the last step */
};

/* The canonical link of model mi: its first. */
static int
canonical_link(const struct phys_scene *w, int mi)
{
	int *links, n = phys_sys_model_links(w, mi, &links), li;

	li = n > 0 ? links[0] : -1;
	free(links);
	return li;
}

/* The link an entity name and type give (gz-sim's: a model's canonical
 * link), or -1 with phys_error(). */
static int
wrench_link(const struct phys_scene *w, const char *name, const char *type)
{
	int li = -1;

	if (strcmp(type, "link") == 0) {
		li = phys_world_entity_of(w, name, PHYS_K_LINK);
	} else if (strcmp(type, "model") == 0) {
		if ((li = phys_world_entity_of(w, name, PHYS_K_MODEL)) >= 0 &&
		    (li = canonical_link(w, li)) < 0)
			return phys_fail("model '%s' has no link", name);
	} else {
		return phys_fail("a wrench goes to a link or a model, not to "
		    "a %s", type);
	}
	if (li < 0)
		return phys_fail("the world has no %s '%s'", type, name);
	return li;
}

/* The link of a message's entity (gz.msgs.Entity: name and type). */
static int
msg_link(const struct phys_scene *w, const json_t *entity)
{
	const char *name = json_string_value(phys_msg_get(entity, "name"));
	int type = (int)phys_msg_num(entity, "type");

	if (!name || !*name)
		return phys_fail("msg: the entity has no name (phys knows "
		    "entities by their scoped names)");
	/* gz.msgs.Entity's MODEL and LINK */
	if (type != 2 && type != 3)
		return phys_fail("msg: entity '%s': a wrench goes to a LINK or "
		    "a MODEL", name);
	return wrench_link(w, name, type == 2 ? "model" : "link");
}

static int
alw_persistent(const struct phys_sys_conf *c, struct alw *s, xmlNodePtr p)
{
	xmlNodePtr n = phys_child(p, "entity_name"), t = phys_child(p,
	    "entity_type");
	struct phys_sys_conf at = *c;
	struct wrench wr;
	char *name, *type;
	int rc;

	if (!n || !t)
		return phys_sys_fail(c, p, "<persistent> needs <entity_name> "
		    "and <entity_type>");
	memset(&wr, 0, sizeof wr);
	name = phys_node_text(n);
	type = phys_node_text(t);
	wr.link = wrench_link(c->w, name, type);
	free(name);
	free(type);
	if (wr.link < 0)
		return phys_sys_fail(c, n, "%s", phys_error());
	at.node = p;
	if ((rc = phys_sys_vec3(&at, "force", &wr.force)) < 0 ||
	    (rc = phys_sys_vec3(&at, "torque", &wr.torque)) < 0)
		return -1;
	s->held = phys_xrealloc(s->held, (size_t)(s->nheld + 1) *
	    sizeof *s->held);
	s->held[s->nheld++] = wr;
	return 0;
}

/* <NAME>, else /world/WORLD/SUFFIX, as slot. */
static int
alw_topic(const struct phys_sys_conf *c, const char *name, const char *suffix,
    const struct phys_msg_type *t, int slot)
{
	char *topic = phys_sys_text(c, name);
	int rc;

	if (!topic)
		topic = phys_xasprintf("/world/%s/%s", c->w->name, suffix);
	rc = phys_sys_subscribe(c, topic, t, slot);
	free(topic);
	return rc;
}

static int
alw_parse(const struct phys_sys_conf *c, void *state)
{
	struct alw *s = state;
	xmlNodePtr p;

	s->w = c->w;
	s->pushed = phys_xcalloc(c->w->nlinks + 1, sizeof *s->pushed);
	for (p = phys_child(c->node, "persistent"); p;
	    p = phys_next(p, "persistent"))
		if (alw_persistent(c, s, p) < 0)
			return -1;
	if (alw_topic(c, "topic", "wrench", &phys_msg_entity_wrench, 0) < 0 ||
	    alw_topic(c, "topic_persistent", "wrench/persistent",
	    &phys_msg_entity_wrench, 1) < 0 ||
	    alw_topic(c, "topic_clear", "wrench/clear", &phys_msg_entity, 2) < 0)
		return -1;
	return 0;
}

/* The wrench as the engine takes it: the force through the link's centre
 * of mass, with the torque it has about it from where it acts. */
static void
add_wrench(const struct phys_sys_run *r, const struct wrench *wr,
    phys_vec3 *force, phys_vec3 *torque)
{
	phys_vec3 com, comv, at;
	phys_pose lp;

	phys_engine_link_pose(r->e, wr->link, &lp);
	phys_engine_link_com(r->e, wr->link, &com, &comv);
	at = phys_pose_apply(lp, wr->offset);
	*force = v3_add(*force, wr->force);
	*torque = v3_add(v3_add(*torque, wr->torque),
	    v3_cross(v3_sub(at, com), wr->force));
}

static int
alw_step(void *state, const struct phys_sys_run *r, double h)
{
	struct alw *s = state;
	size_t li, n = r->w->nlinks;
	phys_vec3 f, t;
	bool on;
	int k;

	for (li = 0; li < n; li++) {
		f = t = v3(0, 0, 0);
		on = false;
		for (k = 0; k < s->nheld; k++)
			if (s->held[k].link == (int)li) {
				add_wrench(r, &s->held[k], &f, &t);
				on = true;
			}
		for (k = 0; k < s->nonce; k++)
			if (s->once[k].link == (int)li) {
				add_wrench(r, &s->once[k], &f, &t);
				on = true;
			}
		if ((on || s->pushed[li]) &&
		    phys_sys_push(r, (int)li, f, t) < 0)
			return -1;
		s->pushed[li] = on;
	}
	s->nonce = 0;
	return 0;
}

static int
alw_message(void *state, const struct phys_sys_run *r, int slot,
    const json_t *msg)
{
	struct alw *s = state;
	struct wrench wr;
	int li, k;

	if (slot == 2) {	/* clear */
		if ((li = msg_link(s->w, msg)) < 0)
			return -1;
		for (k = 0; k < s->nheld; k++)
			if (s->held[k].link == li)
				s->held[k--] = s->held[--s->nheld];
		return 0;
	}
	if ((wr.link = msg_link(s->w, phys_msg_get(msg, "entity"))) < 0)
		return -1;
	wr.force = msg_vec3(msg, "wrench.force");
	wr.torque = msg_vec3(msg, "wrench.torque");
	wr.offset = msg_vec3(msg, "wrench.force_offset");
	/* the sum of those held is checked as each step gives it */
	if (phys_engine_wrench_fits(r->e, wr.link, wr.force, wr.torque) < 0)
		return -1;
	if (slot == 1) {
		s->held = phys_xrealloc(s->held, (size_t)(s->nheld + 1) *
		    sizeof *s->held);
		s->held[s->nheld++] = wr;
	} else {
		s->once = phys_xrealloc(s->once, (size_t)(s->nonce + 1) *
		    sizeof *s->once);
		s->once[s->nonce++] = wr;
	}
	return 0;
}

/* The entity a message names must be there. */
static int
alw_check(const void *state, int slot, const json_t *msg)
{
	const struct alw *s = state;

	return msg_link(s->w, slot == 2 ? msg : phys_msg_get(msg, "entity")) <
	    0 ? -1 : 0;
}

static void
alw_free(void *state)
{
	struct alw *s = state;

	free(s->held);
	free(s->once);
	free(s->pushed);
}

const struct phys_sys_kind phys_sys_apply_link_wrench = {
	"ApplyLinkWrench", "apply-link-wrench-system", true, sizeof(struct alw),
	alw_parse, NULL, alw_step, alw_message, alw_free, alw_check, NULL, NULL
};
