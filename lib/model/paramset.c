/* paramset.c - a world's parameters set by name. */
#include "paramset.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "inertia_follow.h"
#include "modelpose.h"
#include "paramio.h"

/* The value is checked as it is collected, so that an error in a --from
 * file names its line. */
static int
add_edit(struct phys_param_edits *e, const struct phys_ref *r,
    const char *text)
{
	struct phys_value v;

	memset(&v, 0, sizeof v);
	if (r->p && phys_value_parse(r->p, text, &v) < 0)
		return -1;
	phys_value_free(&v);
	e->v = phys_xrealloc(e->v, (e->n + 1) * sizeof *e->v);
	e->v[e->n].ref = *r;
	e->v[e->n].text = phys_xstrdup(text);
	e->n++;
	return 0;
}

struct glob_ctx {
	struct phys_param_edits *e;
	const char *text;
};

/* A glob reaches into included models too: their files are not ours to
 * edit here, so those matches are skipped and counted. */
static int
add_glob_edit(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	struct glob_ctx *g = ctx;

	if (r->scope > PHYS_S_WORLD && !phys_world_editable(w, r->scope,
	    r->idx)) {
		g->e->skipped_included++;
		return 0;
	}
	return add_edit(g->e, r, g->text);
}

int
phys_param_edits_add(struct phys_param_edits *e, struct phys_scene *w,
    const char *name, const char *text, int profile)
{
	struct glob_ctx g = { e, text };
	struct phys_ref r;
	double pose[6];

	/* MODEL/pose: no row of the registry (modelpose.h) */
	if (!phys_has_glob(name) &&
	    (r.idx = phys_model_pose_of(w, name)) >= 0) {
		if (phys_model_pose_parse(w, r.idx, text, pose) < 0)
			return -1;
		r.p = NULL;
		r.scope = PHYS_S_WORLD;
		return add_edit(e, &r, text);
	}
	if (phys_has_glob(name)) {
		int n = phys_ref_each(w, name, profile, add_glob_edit, &g);

		if (n != 0)
			return n < 0 ? -1 : 0;
		return phys_fail("no parameter matches '%s'", name);
	}
	if (phys_ref_resolve(w, name, profile, &r) < 0)
		return -1;
	return add_edit(e, &r, text);
}

int
phys_param_edits_assign(struct phys_param_edits *e, struct phys_scene *w,
    const char *arg, int profile)
{
	char *name = phys_xstrdup(arg), *eq = strchr(name, '=');
	int rc;

	if (!eq) {
		free(name);
		return phys_fail("'%s': expected NAME=VALUE", arg);
	}
	*eq = '\0';
	rc = phys_param_edits_add(e, w, name, eq + 1, profile);
	free(name);
	return rc;
}

static int
collect_line(struct phys_scene *w, json_t *obj, int profile,
    struct phys_param_edits *e)
{
	json_t *name = json_object_get(obj, "name");
	json_t *preset = json_object_get(obj, "preset");
	struct phys_buf text = { 0 };
	int rc;

	if (!json_is_string(name) || !json_object_get(obj, "value"))
		return phys_fail("a parameter line needs \"name\" and \"value\"");
	/* Lines from another world may name a profile this one lacks: then
	 * the values go to the chosen (or starting) profile. */
	if (json_is_string(preset) &&
	    phys_world_profile(w, json_string_value(preset)) >= 0)
		profile = phys_world_profile(w, json_string_value(preset));
	if (phys_json_to_text(json_object_get(obj, "value"), &text) < 0)
		return -1;
	rc = phys_param_edits_add(e, w, json_string_value(name),
	    text.s ? text.s : "", profile);
	phys_buf_free(&text);
	return rc;
}

struct from_ctx {
	struct phys_scene *w;
	int profile;
	struct phys_param_edits *e;
};

static int
collect_json_line(char *line, long lineno, void *ctx)
{
	struct from_ctx *fc = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	int rc;

	if (!json_is_object(obj))
		rc = phys_fail("not a JSON object");
	else
		rc = collect_line(fc->w, obj, fc->profile, fc->e);
	json_decref(obj);
	return rc;
}

int
phys_param_edits_read(struct phys_param_edits *e, struct phys_scene *w,
    const char *path, int profile)
{
	struct from_ctx fc = { w, profile, e };

	return phys_each_line(path, collect_json_line, &fc);
}

/* One value into the model (a resize moves the inertial with it) and
 * into the document. */
static int
apply_edit(struct phys_scene *w, const struct phys_ref *r,
    const struct phys_value *v)
{
	struct phys_value copy = { 0 };
	int link;

	if (r->scope == PHYS_S_PHYSICS || r->scope == PHYS_S_WORLD)
		return phys_world_edit(w, r, v);
	if (phys_param_run_only(r->p))
		return phys_fail("%s: a run's own parameter, not SDF: set it "
		    "in a run (phys-step -s, a control line, a sweep)",
		    r->p->name);
	phys_value_copy(&copy, v);
	if (phys_world_assign(w, r, &copy, &link) < 0)
		return -1;
	if (r->p->id == PHYS_P_LINK_inertia_follow)
		return 0;
	if (phys_world_edit(w, r, v) < 0)
		return -1;
	return link >= 0 ? phys_world_edit_inertial(w, link) : 0;
}

int
phys_param_edits_apply(struct phys_scene *w,
    const struct phys_param_edits *e)
{
	struct phys_value v;
	size_t i;
	int rc = 0;

	for (i = 0; i < e->n && rc == 0; i++) {
		if (!e->v[i].ref.p) {
			rc = phys_model_pose_set(w, e->v[i].ref.idx,
			    e->v[i].text);
			continue;
		}
		memset(&v, 0, sizeof v);
		rc = phys_value_parse(e->v[i].ref.p, e->v[i].text, &v);
		if (rc == 0)
			rc = apply_edit(w, &e->v[i].ref, &v);
		phys_value_free(&v);
	}
	return rc;
}

void
phys_param_edits_free(struct phys_param_edits *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof *e);
}

