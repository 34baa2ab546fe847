/* ref.c - parameter instances addressed by name. */
#include "ref.h"

#include <stdlib.h>
#include <string.h>

#define GEOMETRY "geometry."

bool
phys_param_is_size(const struct phys_param *p)
{
	return p->scope == PHYS_S_COLLISION &&
	    strncmp(p->name, GEOMETRY, strlen(GEOMETRY)) == 0;
}

/* The element naming the collision's shape: <box>, <mesh>, ... */
static xmlNodePtr
shape_node(const struct phys_collision *c)
{
	return phys_child(phys_child(c->node, "geometry"), NULL);
}

const char *
phys_collision_shape(const struct phys_scene *w, int idx)
{
	xmlNodePtr n = shape_node(&w->collisions[idx]);

	return n ? (const char *)n->name : "shapeless";
}

bool
phys_param_applies(const struct phys_scene *w, phys_scope s, int idx,
    const struct phys_param *p)
{
	const char *shape = p->name + strlen(GEOMETRY);
	xmlNodePtr n;
	size_t len;

	if (s != PHYS_S_COLLISION || !phys_param_is_size(p))
		return true;
	n = shape_node(&w->collisions[idx]);
	len = strcspn(shape, ".");
	return n && strlen((const char *)n->name) == len &&
	    strncmp((const char *)n->name, shape, len) == 0;
}

static int
unknown_param(phys_scope s, const char *entity, const char *name)
{
	const struct phys_param *near[3];
	size_t n = phys_param_suggest(s, name, near, 3), i;
	struct phys_buf b = { 0 };
	int rc;

	for (i = 0; i < n; i++) {
		phys_buf_puts(&b, i ? ", " : " (did you mean ");
		phys_buf_puts(&b, near[i]->name);
	}
	if (n)
		phys_buf_puts(&b, "?)");
	rc = entity ? phys_fail("%s: no %s parameter '%s'%s", entity,
	    phys_scope_name(s), name, n ? b.s : "") :
	    phys_fail("unknown parameter '%s'%s", name, n ? b.s : "");
	phys_buf_free(&b);
	return rc;
}

/* The closest scoped entity name, for "did you mean". */
static const char *
closest_entity(const struct phys_scene *w, const char *name)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, d;
	phys_scope s;
	size_t i;

	for (s = PHYS_S_LINK; s <= PHYS_S_JOINT; s++)
		for (i = 0; i < phys_entity_count(w, s); i++) {
			d = phys_edit_distance(name,
			    phys_entity_name(w, s, (int)i));
			if (d < bestd) {
				bestd = d;
				best = phys_entity_name(w, s, (int)i);
			}
		}
	return bestd <= 3 + strlen(name) / 4 ? best : NULL;
}

static int
resolve_entity(const struct phys_scene *w, const char *name, const char *slash,
    struct phys_ref *out)
{
	/* Names are short: no allocation on this path, which is hot. */
	char buf[256], *entity = buf;
	size_t len = (size_t)(slash - name);
	enum phys_kind kind;
	const char *near;
	int idx, rc = 0;

	if (len >= sizeof buf)
		entity = phys_xmalloc(len + 1);
	memcpy(entity, name, len);
	entity[len] = '\0';
	idx = phys_world_entity(w, entity, &kind);

	if (idx < 0) {
		near = closest_entity(w, entity);
		rc = near ? phys_fail("no entity named '%s' (did you mean %s?)",
		    entity, near) : phys_fail("no entity named '%s'", entity);
	} else if (kind == PHYS_K_MODEL && strcmp(slash + 1, "pose") == 0) {
		rc = phys_fail("'%s' is a model: where it starts is set in its "
		    "world (phys-param set '%s/pose=X Y Z ROLL PITCH YAW') or "
		    "on a control line at t=0", entity, entity);
	} else if (kind == PHYS_K_MODEL) {
		rc = phys_fail("'%s' is a model: parameters belong to its "
		    "links, collisions and joints", entity);
	} else {
		out->scope = (phys_scope)kind;
		out->idx = idx;
		out->p = phys_param_find(out->scope, slash + 1);
		/* SDF 1.6 and before: a joint may share its link's name */
		if (!out->p && kind == PHYS_K_LINK &&
		    (idx = phys_world_entity_of(w, entity, PHYS_K_JOINT)) >= 0 &&
		    (out->p = phys_param_find(PHYS_S_JOINT, slash + 1))) {
			out->scope = PHYS_S_JOINT;
			out->idx = idx;
		}
		if (!out->p)
			rc = unknown_param(out->scope, entity, slash + 1);
		else if (!phys_param_applies(w, out->scope, out->idx, out->p))
			rc = phys_fail("%s: no %s: the collision is a %s",
			    entity, out->p->name,
			    phys_collision_shape(w, out->idx));
	}
	if (entity != buf)
		free(entity);
	return rc;
}

int
phys_ref_resolve(const struct phys_scene *w, const char *name, int profile,
    struct phys_ref *out)
{
	/* the last: a parameter's name has none, an entity's may (a URDF
	 * link "/base_link", "r2/left_arm") */
	const char *slash = strrchr(name, '/');

	memset(out, 0, sizeof *out);
	if (slash)
		return resolve_entity(w, name, slash, out);
	out->p = phys_param_find(PHYS_S_PHYSICS, name);
	out->scope = PHYS_S_PHYSICS;
	out->idx = profile;
	if (!out->p) {
		out->p = phys_param_find(PHYS_S_WORLD, name);
		out->scope = PHYS_S_WORLD;
		out->idx = 0;
	}
	if (!out->p)
		return unknown_param(PHYS_S_PHYSICS, NULL, name);
	return 0;
}

struct phys_value *
phys_ref_value(struct phys_scene *w, const struct phys_ref *r)
{
	struct phys_value *vals = phys_entity_values(w, r->scope, r->idx);

	return &vals[phys_param_index[r->p->id]];
}

char *
phys_ref_name(const struct phys_scene *w, const struct phys_ref *r)
{
	if (r->scope == PHYS_S_PHYSICS || r->scope == PHYS_S_WORLD)
		return phys_xstrdup(r->p->name);
	return phys_xasprintf("%s/%s", phys_entity_name(w, r->scope, r->idx),
	    r->p->name);
}

struct matches {
	struct phys_ref *v;
	size_t n;
};

static void
match_in_scope(const struct phys_scene *w, phys_scope s, int idx,
    const char *pat, struct matches *m)
{
	const char *ename = s >= PHYS_S_LINK ? phys_entity_name(w, s, idx) : NULL;
	struct phys_ref r = { NULL, s, idx };
	char *full;
	size_t i;
	bool hit;

	for (i = 0; i < phys_scope_count(s); i++) {
		r.p = phys_scope_param(s, i);
		if (!phys_param_applies(w, s, idx, r.p))
			continue;
		full = ename ? phys_xasprintf("%s/%s", ename, r.p->name) :
		    phys_xstrdup(r.p->name);
		hit = phys_glob(pat, full) ||
		    (!ename && r.p->alias && strcmp(pat, r.p->alias) == 0);
		free(full);
		if (!hit)
			continue;
		m->v = phys_xrealloc(m->v, (m->n + 1) * sizeof *m->v);
		m->v[m->n++] = r;
	}
}

size_t
phys_ref_match(const struct phys_scene *w, const char *pattern, int profile,
    struct phys_ref **out)
{
	struct matches m = { NULL, 0 };
	size_t i, first = profile < 0 ? 0 : (size_t)profile;
	size_t last = profile < 0 ? w->nprofiles : (size_t)profile + 1;
	phys_scope s;

	for (i = first; i < last; i++)
		match_in_scope(w, PHYS_S_PHYSICS, (int)i, pattern, &m);
	match_in_scope(w, PHYS_S_WORLD, 0, pattern, &m);
	for (s = PHYS_S_LINK; s <= PHYS_S_JOINT; s++)
		for (i = 0; i < phys_entity_count(w, s); i++)
			match_in_scope(w, s, (int)i, pattern, &m);
	*out = m.v;
	return m.n;
}

int
phys_ref_each(struct phys_scene *w, const char *pattern, int profile,
    phys_ref_cb cb, void *ctx)
{
	struct phys_ref *refs;
	size_t i, n = phys_ref_match(w, pattern, profile, &refs);
	int rc = (int)n;

	for (i = 0; i < n && rc >= 0 && cb; i++)
		if (cb(w, &refs[i], ctx) < 0)
			rc = -1;
	free(refs);
	return rc;
}

int
phys_get_value(struct phys_scene *w, const char *name, int profile,
    struct phys_value *out)
{
	struct phys_ref r;

	if (phys_ref_resolve(w, name, profile, &r) < 0)
		return -1;
	phys_value_copy(out, phys_ref_value(w, &r));
	return 0;
}

int
phys_set_value(struct phys_scene *w, const char *name, int profile,
    const struct phys_value *v)
{
	struct phys_value *dst;
	struct phys_ref r;

	if (phys_ref_resolve(w, name, profile, &r) < 0 ||
	    phys_value_check(r.p, v) < 0)
		return -1;
	dst = phys_ref_value(w, &r);
	phys_value_free(dst);
	phys_value_copy(dst, v);
	dst->given = true;
	return 0;
}
