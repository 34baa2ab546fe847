/* sim.c - run a world: profiles, overrides, control lines, state lines. */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <jansson.h>

#include "engine.h"
#include "inertia_follow.h"
#include "items.h"
#include "ref.h"

/* A control line: a parameter or state change, or a profile switch. */
struct control {
	double t;
	long line;
	int profile;		/* >= 0: switch to this profile */
	struct phys_ref ref;	/* otherwise a parameter ... */
	int state_kind;		/* ... or link/model state: an item kind */
	int entity;
	char *text;		/* the value as SDF text */
};

struct run {
	struct phys_world *w;
	const struct phys_run_options *o;
	struct phys_engine *e;
	FILE *out;
	int profile;			/* current profile */
	struct phys_value *cur;		/* its values, with overrides */
	int start_profile;		/* the starting profile ... */
	struct phys_value *start_vals;	/* ... with the -s overrides */
	bool announce;			/* next line says profile and engine */
	bool status_on_out;		/* progress shares stdout's terminal */
	struct control *ctl;
	size_t nctl, next;
	const char *ctlname;
	struct phys_item_list items;
	char **keys;			/* per item: ',"name":' ready to write */
	bool need_accel;
	phys_vec3 *lin, *ang, *acc, *angacc;	/* per link, last step */
	phys_vec3 *comv, *mom;			/* COM velocity, angular momentum */
	phys_vec3 *force, *torque;
	phys_pose *link0, *model0;		/* per model: reference poses */
	int *canon;				/* per model: its first link */
	struct timespec start;
	struct phys_buf line;
};

void
phys_run_options_default(struct phys_run_options *o)
{
	memset(o, 0, sizeof *o);
	o->steps = -1;
	o->duration = 1;
	o->every = 1;
}

/* The fields of vectors and poses, in JSON and in SDF order. */
static const char *const pose_keys[] = { "x", "y", "z", "roll", "pitch",
	"yaw" };

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
			json_t *f = json_object_get(v, pose_keys[i]);

			if (!json_is_number(f))
				return phys_fail("field \"%s\" is missing or "
				    "not a number", pose_keys[i]);
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

/* "box::link/linear_vel" and friends: an item kind and its entity. */
static int
state_target(struct phys_world *w, const char *name, int *kind, int *entity)
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

/* A pose is six numbers, a velocity three. */
static int
check_state_text(const char *name, const char *text)
{
	double v[6];
	int want = strstr(name, "/pose") ? 6 : 3;

	if (phys_parse_doubles(text, v, 6) != want)
		return phys_fail("%s: expected %d numbers", name, want);
	return 0;
}

static int
parse_control_value(struct run *r, struct control *c, json_t *obj)
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
	if (state_target(r->w, json_string_value(name), &c->state_kind,
	    &c->entity) == 0)
		return check_state_text(json_string_value(name), c->text);
	if (phys_ref_resolve(r->w, json_string_value(name), 0, &c->ref) < 0)
		return -1;
	/* Check the value now: a bad one is refused before the run starts. */
	if (phys_value_parse(c->ref.p, c->text, &tmp) < 0)
		return -1;
	phys_value_free(&tmp);
	return 0;
}

/* A profile by name, or -1 with a message listing the profiles. */
static int
find_profile(struct phys_world *w, const char *name)
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
parse_control(struct run *r, struct control *c, json_t *obj)
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
	c->profile = find_profile(r->w, json_string_value(p));
	return c->profile < 0 ? -1 : 0;
}

static int
control_order(const void *a, const void *b)
{
	const struct control *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int
read_one_control(char *text, long lineno, void *ctx)
{
	struct run *r = ctx;
	json_error_t jerr;
	json_t *obj;
	struct control *c;
	int rc;

	obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj || !json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("not a JSON object%s%s", obj ? "" : ": ",
		    obj ? "" : jerr.text);
	}
	r->ctl = xrealloc(r->ctl, (r->nctl + 1) * sizeof *r->ctl);
	c = &r->ctl[r->nctl++];
	memset(c, 0, sizeof *c);
	c->line = lineno;
	rc = parse_control(r, c, obj);
	json_decref(obj);
	return rc;
}

static int
read_controls(struct run *r)
{
	if (!r->o->control)
		return 0;
	r->ctlname = phys_display_name(r->o->control);
	if (phys_each_line(r->o->control, read_one_control, r) < 0)
		return -1;
	if (r->nctl > 1)	/* qsort must not be given NULL, even for 0 */
		qsort(r->ctl, r->nctl, sizeof *r->ctl, control_order);
	return 0;
}

/* ---- applying changes ---- */

/* One wording, said once, however the value arrived: values ODE cannot
 * honour, and values for another engine, are kept but do nothing. */
static void
warn_inert_param(const struct phys_param *p)
{
	const char *scope = p->scope >= PHYS_S_LINK ? phys_scope_name(p->scope) :
	    "";

	if (p->ode == PHYS_ODE_OTHER)
		phys_warn_once("%s%s%.*s parameters are for another engine and "
		    "have no effect with ODE (kept as given)", scope,
		    *scope ? " " : "", (int)strcspn(p->name, "."), p->name);
	else
		phys_warn_once("%s%s%s is set but has no effect with ODE (kept "
		    "as given)", scope, *scope ? " " : "", p->name);
}

static void
warn_inert(phys_scope s, const struct phys_value *vals)
{
	struct phys_value def;
	size_t i;

	for (i = 0; i < phys_scope_count(s); i++) {
		const struct phys_param *p = phys_scope_param(s, i);

		if (p->ode != PHYS_ODE_INERT && p->ode != PHYS_ODE_OTHER)
			continue;
		phys_value_default(p, &def);
		if (!phys_value_equal(p, &def, &vals[i]))
			warn_inert_param(p);
		phys_value_free(&def);
	}
}

static void
warn_inert_world(struct phys_world *w)
{
	phys_scope s;
	size_t i;

	warn_inert(PHYS_S_WORLD, w->vals);
	for (s = PHYS_S_LINK; s <= PHYS_S_JOINT; s++)
		for (i = 0; i < phys_entity_count(w, s); i++)
			warn_inert(s, phys_entity_values(w, s, (int)i));
}

static int
check_engine_type(struct run *r, int profile)
{
	const struct phys_profile *p = &r->w->profiles[profile];

	size_t i;

	if (strcmp(p->type, "ode") == 0)
		return 0;
	for (i = 0; i < r->w->nprofiles; i++)
		if (strcmp(r->w->profiles[i].type, "ode") == 0)
			return phys_fail("profile '%s' is for the %s engine; "
			    "phys-step runs only ode: -p %s runs the world's "
			    "ODE profile '%s' instead", p->name, p->type,
			    r->w->profiles[i].name, r->w->profiles[i].name);
	return phys_fail("profile '%s' is for the %s engine; phys-step runs "
	    "only ode, and the world has no ODE profile (phys-preset add "
	    "makes one)", p->name, p->type);
}

static int
switch_profile(struct run *r, int profile)
{
	if (check_engine_type(r, profile) < 0)
		return -1;
	r->profile = profile;
	phys_values_copy(PHYS_S_PHYSICS, r->cur, profile == r->start_profile &&
	    r->start_vals ? r->start_vals : r->w->profiles[profile].vals);
	if (r->w->profiles[profile].has_gravity &&
	    !PV(r->w->vals, WORLD_gravity)->given) {
		PVV(r->w->vals, WORLD_gravity) = r->w->profiles[profile].gravity;
		if (r->e)
			phys_engine_apply_world(r->e);
	}
	warn_inert(PHYS_S_PHYSICS, r->cur);
	r->announce = true;
	return r->e ? phys_engine_apply_profile(r->e, r->cur) : 0;
}

/* A parameter change at run time reaches the engine at once. */
static int
apply_param(struct run *r, const struct phys_ref *ref, const char *text)
{
	struct phys_value v = { 0 }, *dst;
	int link = -1;

	if (phys_value_parse(ref->p, text, &v) < 0)
		return -1;
	if (ref->scope == PHYS_S_PHYSICS) {
		dst = &r->cur[phys_param_index[ref->p->id]];
		phys_value_free(dst);
		*dst = v;
	} else if (phys_world_assign(r->w, ref, &v, &link) < 0)
		return -1;
	else
		dst = phys_ref_value(r->w, ref);
	if (ref->p->ode == PHYS_ODE_INERT || ref->p->ode == PHYS_ODE_OTHER) {
		struct phys_value def;

		phys_value_default(ref->p, &def);
		if (!phys_value_equal(ref->p, &def, dst))
			warn_inert_param(ref->p);
		phys_value_free(&def);
	}
	if (!r->e)
		return 0;
	switch (ref->scope) {
	case PHYS_S_PHYSICS:
		r->announce = true;
		return phys_engine_apply_profile(r->e, r->cur);
	case PHYS_S_WORLD:
		r->announce = true;
		phys_engine_apply_world(r->e);
		return 0;
	case PHYS_S_LINK:
		return phys_engine_apply_link(r->e, ref->idx);
	case PHYS_S_JOINT:
		return phys_engine_apply_joint(r->e, ref->idx);
	default:	/* other collision values are read at every contact */
		if (phys_engine_apply_collision(r->e, ref->idx) < 0)
			return -1;
		return link >= 0 ? phys_engine_apply_link(r->e, link) : 0;
	}
}

static void model_links(struct run *r, int model, int *out, size_t *n);

static int
apply_state(struct run *r, const struct control *c)
{
	double v[6];
	phys_vec3 vec;
	phys_pose p, delta, lp;
	int *links, rc = 0;
	size_t n, i;

	phys_parse_doubles(c->text, v, 6);
	vec = v3(v[0], v[1], v[2]);
	switch (c->state_kind) {
	case PHYS_ITEM_LINK_POSE:
		return phys_engine_set_link_pose(r->e, c->entity, pose_from6(v));
	case PHYS_ITEM_LINK_LINVEL:
		return phys_engine_set_link_vel(r->e, c->entity, &vec, NULL);
	case PHYS_ITEM_LINK_ANGVEL:
		return phys_engine_set_link_vel(r->e, c->entity, NULL, &vec);
	}
	links = xcalloc(r->w->nlinks, sizeof *links);
	model_links(r, c->entity, links, &n);
	if (c->state_kind == PHYS_ITEM_MODEL_POSE) {
		/* Move the model rigidly: every link by the same transform. */
		p = pose_from6(v);
		phys_engine_link_pose(r->e, r->canon[c->entity], &lp);
		delta = pose_mul(p, pose_inv(pose_mul(lp, pose_mul(
		    pose_inv(r->link0[c->entity]), r->model0[c->entity]))));
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (!phys_engine_link_dynamic(r->e, links[i]))
			continue;
		if (c->state_kind == PHYS_ITEM_MODEL_POSE) {
			phys_engine_link_pose(r->e, links[i], &lp);
			rc = phys_engine_set_link_pose(r->e, links[i],
			    pose_mul(delta, lp));
		} else {
			rc = phys_engine_set_link_vel(r->e, links[i],
			    c->state_kind == PHYS_ITEM_MODEL_LINVEL ? &vec :
			    NULL, c->state_kind == PHYS_ITEM_MODEL_ANGVEL ?
			    &vec : NULL);
		}
	}
	free(links);
	return rc;
}

static int
apply_control(struct run *r, const struct control *c)
{
	int rc;

	if (c->profile >= 0)
		rc = switch_profile(r, c->profile);
	else if (c->state_kind >= 0)
		rc = apply_state(r, c);
	else
		rc = apply_param(r, &c->ref, c->text);
	if (rc < 0) {
		char *why = xstrdup(phys_error());

		phys_failat(r->ctlname, c->line, "%s", why);
		free(why);
	}
	return rc;
}

static void track(struct run *r, bool first);

/* Control lines due before the step that starts at the current time. A
 * state set by hand is no acceleration: the history restarts from it. */
static int
apply_due(struct run *r)
{
	double now = phys_engine_time(r->e);
	double h = PVD(r->cur, PHYSICS_max_step_size);
	bool moved = false;

	while (r->next < r->nctl && r->ctl[r->next].t <= now + h / 2) {
		moved |= r->ctl[r->next].state_kind >= 0;
		if (apply_control(r, &r->ctl[r->next++]) < 0)
			return -1;
	}
	if (moved)
		track(r, true);
	return 0;
}

struct set_ctx {
	struct run *r;
	const char *text;
};

static int
apply_set_match(struct phys_world *w, const struct phys_ref *ref, void *ctx)
{
	struct set_ctx *sc = ctx;

	return apply_param(sc->r, ref, sc->text);
}

/* NAME=VALUE, where NAME may be a glob matching many parameters: 0, -1
 * for a bad value, -2 when no parameter has that name. */
static int
apply_set(struct run *r, const char *name, const char *text)
{
	struct set_ctx sc = { r, text };
	struct phys_ref ref;
	int n;

	if (!phys_has_glob(name)) {
		if (phys_ref_resolve(r->w, name, r->profile, &ref) < 0)
			return -2;
		return apply_param(r, &ref, text);
	}
	n = phys_ref_each(r->w, name, r->profile, apply_set_match, &sc);
	if (n == 0) {
		phys_fail("no parameter matches '%s'", name);
		return -2;
	}
	return n < 0 ? -1 : 0;
}

static int
apply_sets(struct run *r)
{
	char *name, *eq;
	size_t i;
	int rc = 0;

	for (i = 0; i < r->o->nsets && rc == 0; i++) {
		name = xstrdup(r->o->sets[i]);
		eq = strchr(name, '=');
		if (!eq) {
			rc = phys_fail("--set %s: expected NAME=VALUE", name);
		} else {
			*eq = '\0';
			rc = apply_set(r, name, eq + 1);
		}
		free(name);
	}
	return rc;
}

/* ---- sampling ---- */

static bool
is_descendant(const struct phys_world *w, int model, int ancestor)
{
	for (; model >= 0; model = w->models[model].parent)
		if (model == ancestor)
			return true;
	return false;
}

static void
model_links(struct run *r, int model, int *out, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < r->w->nlinks; i++)
		if (is_descendant(r->w, r->w->links[i].model, model))
			out[(*n)++] = (int)i;
}

static void
init_models(struct run *r)
{
	struct phys_world *w = r->w;
	size_t m, i;

	r->link0 = xcalloc(w->nmodels, sizeof *r->link0);
	r->model0 = xcalloc(w->nmodels, sizeof *r->model0);
	r->canon = xcalloc(w->nmodels, sizeof *r->canon);
	for (m = 0; m < w->nmodels; m++) {
		r->canon[m] = -1;
		r->model0[m] = w->models[m].pose;
		for (i = 0; i < w->nlinks && r->canon[m] < 0; i++)
			if (is_descendant(w, w->links[i].model, (int)m))
				r->canon[m] = (int)i;
		if (r->canon[m] >= 0)
			phys_engine_link_pose(r->e, r->canon[m], &r->link0[m]);
	}
}

static phys_mat3
world_inertia(const struct phys_link *l, phys_quat body)
{
	const struct phys_value *v = l->vals;
	phys_mat3 i = { { { PVD(v, LINK_inertial_inertia_ixx),
		PVD(v, LINK_inertial_inertia_ixy), PVD(v, LINK_inertial_inertia_ixz) },
		{ PVD(v, LINK_inertial_inertia_ixy), PVD(v, LINK_inertial_inertia_iyy),
		PVD(v, LINK_inertial_inertia_iyz) },
		{ PVD(v, LINK_inertial_inertia_ixz), PVD(v, LINK_inertial_inertia_iyz),
		PVD(v, LINK_inertial_inertia_izz) } } };
	phys_mat3 rm = quat_to_mat3(body);

	return mat3_mul(mat3_mul(rm, i), mat3_transpose(rm));
}

static phys_quat
com_orientation(struct run *r, int li)
{
	phys_pose lp;

	phys_engine_link_pose(r->e, li, &lp);
	return pose_mul(lp, pose_from6(PV(r->w->links[li].vals,
	    LINK_inertial_pose)->u.pose)).q;
}

/* Velocities now, and accelerations over the step just taken: kept only
 * when an item needs them, as they cost a little every step. */
static void
track(struct run *r, bool first)
{
	struct phys_world *w = r->w;
	double h = PVD(r->cur, PHYSICS_max_step_size);
	phys_vec3 lin, ang, com, comv, mom;
	size_t i;

	if (!r->need_accel)
		return;
	for (i = 0; i < w->nlinks; i++) {
		phys_engine_link_vel(r->e, (int)i, &lin, &ang);
		phys_engine_link_com(r->e, (int)i, &com, &comv);
		mom = mat3_apply(world_inertia(&w->links[i],
		    com_orientation(r, (int)i)), ang);
		if (!first && phys_engine_link_dynamic(r->e, (int)i)) {
			r->acc[i] = v3_scale(v3_sub(lin, r->lin[i]), 1 / h);
			r->angacc[i] = v3_scale(v3_sub(ang, r->ang[i]), 1 / h);
			r->force[i] = v3_scale(v3_sub(comv, r->comv[i]),
			    PVD(w->links[i].vals, LINK_inertial_mass) / h);
			r->torque[i] = v3_scale(v3_sub(mom, r->mom[i]), 1 / h);
		}
		r->lin[i] = lin;
		r->ang[i] = ang;
		r->comv[i] = comv;
		r->mom[i] = mom;
	}
}

static void
put_vec3(struct phys_buf *b, phys_vec3 v)
{
	double x[3] = { v.x, v.y, v.z };

	buf_json_numbers(b, pose_keys, x, 3);
}

static double
elapsed(const struct run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - r->start.tv_sec) +
	    (double)(now.tv_nsec - r->start.tv_nsec) * 1e-9;
}

static void
model_energy(struct run *r, int m, double *ke, double *pe)
{
	struct phys_world *w = r->w;
	phys_vec3 g = PVV(w->vals, WORLD_gravity), com, comv, lin, ang;
	double mass;
	size_t i;

	*ke = *pe = 0;
	for (i = 0; i < w->nlinks; i++) {
		if (!is_descendant(w, w->links[i].model, m) ||
		    !phys_engine_link_dynamic(r->e, (int)i))
			continue;
		mass = PVD(w->links[i].vals, LINK_inertial_mass);
		phys_engine_link_com(r->e, (int)i, &com, &comv);
		phys_engine_link_vel(r->e, (int)i, &lin, &ang);
		*ke += 0.5 * mass * v3_dot(comv, comv) + 0.5 * v3_dot(ang,
		    mat3_apply(world_inertia(&w->links[i],
		    com_orientation(r, (int)i)), ang));
		*pe -= mass * v3_dot(g, com);
	}
}

static phys_pose
model_pose(struct run *r, int m)
{
	phys_pose lp;

	if (r->canon[m] < 0)
		return r->model0[m];
	phys_engine_link_pose(r->e, r->canon[m], &lp);
	return pose_mul(lp, pose_mul(pose_inv(r->link0[m]), r->model0[m]));
}

static void
put_inertia(struct phys_buf *b, const double in[6])
{
	buf_json_numbers(b, phys_item_fields(PHYS_IT_INERTIA), in, 6);
}

static void
put_axes(struct phys_buf *b, const double *v, int n)
{
	int k;

	buf_putc(b, '[');
	for (k = 0; k < n; k++) {
		if (k)
			buf_putc(b, ',');
		buf_double(b, v[k]);
	}
	buf_putc(b, ']');
}

static void
set3(double *v, phys_vec3 a)
{
	v[0] = a.x;
	v[1] = a.y;
	v[2] = a.z;
}

/* An item's numbers now, in the order of its fields: how many there are. */
static int
item_values(struct run *r, const struct phys_item *it, double v[6])
{
	struct phys_world *w = r->w;
	int i = it->entity, n, k;
	phys_pose p;
	phys_vec3 a, c;
	double pos[2], vel[2], ke, pe, t;

	switch (it->kind) {
	case PHYS_ITEM_SIM_TIME:
		v[0] = phys_engine_time(r->e);
		return 1;
	case PHYS_ITEM_REAL_TIME:
		v[0] = elapsed(r);
		return 1;
	case PHYS_ITEM_ITERATIONS:
		v[0] = (double)phys_engine_iterations(r->e);
		return 1;
	case PHYS_ITEM_RTF:
		t = elapsed(r);
		v[0] = t > 0 ? phys_engine_time(r->e) / t : 0;
		return 1;
	case PHYS_ITEM_CONTACTS:
		v[0] = phys_engine_contact_count(r->e);
		return 1;
	case PHYS_ITEM_MODEL_POSE:
		pose_to6(model_pose(r, i), v);
		return 6;
	case PHYS_ITEM_MODEL_LINVEL:
	case PHYS_ITEM_MODEL_ANGVEL:
		/* The model frame moves rigidly with its first link. */
		a = c = v3(0, 0, 0);
		if (r->canon[i] >= 0) {
			phys_pose lp;

			phys_engine_link_vel(r->e, r->canon[i], &a, &c);
			phys_engine_link_pose(r->e, r->canon[i], &lp);
			p = model_pose(r, i);
			a = v3_add(a, v3_cross(c, v3_sub(p.p, lp.p)));
		}
		set3(v, it->kind == PHYS_ITEM_MODEL_LINVEL ? a : c);
		return 3;
	case PHYS_ITEM_MODEL_KE:
	case PHYS_ITEM_MODEL_PE:
		model_energy(r, i, &ke, &pe);
		v[0] = it->kind == PHYS_ITEM_MODEL_KE ? ke : pe;
		return 1;
	case PHYS_ITEM_LINK_POSE:
		phys_engine_link_pose(r->e, i, &p);
		pose_to6(p, v);
		return 6;
	case PHYS_ITEM_LINK_LINVEL:
	case PHYS_ITEM_LINK_ANGVEL:
		phys_engine_link_vel(r->e, i, &a, &c);
		set3(v, it->kind == PHYS_ITEM_LINK_LINVEL ? a : c);
		return 3;
	case PHYS_ITEM_LINK_LINACC:
		set3(v, r->acc[i]);
		return 3;
	case PHYS_ITEM_LINK_ANGACC:
		set3(v, r->angacc[i]);
		return 3;
	case PHYS_ITEM_LINK_FORCE:
		set3(v, r->force[i]);
		return 3;
	case PHYS_ITEM_LINK_TORQUE:
		set3(v, r->torque[i]);
		return 3;
	case PHYS_ITEM_LINK_INERTIAL_POSE:
		phys_engine_link_pose(r->e, i, &p);
		pose_to6(pose_mul(p, pose_from6(PV(w->links[i].vals,
		    LINK_inertial_pose)->u.pose)), v);
		return 6;
	case PHYS_ITEM_LINK_MASS:
		phys_engine_link_mass(r->e, i, &ke, v);
		v[0] = ke;
		return 1;
	case PHYS_ITEM_LINK_INERTIA:
		phys_engine_link_mass(r->e, i, &ke, v);
		return 6;
	case PHYS_ITEM_COLLISION_POSE:
		phys_engine_link_pose(r->e, w->collisions[i].link, &p);
		pose_to6(pose_mul(p, w->collisions[i].pose), v);
		return 6;
	case PHYS_ITEM_VISUAL_POSE:
		phys_engine_link_pose(r->e, w->visuals[i].link, &p);
		pose_to6(pose_mul(p, w->visuals[i].pose), v);
		return 6;
	case PHYS_ITEM_JOINT_POSITION:
	case PHYS_ITEM_JOINT_VELOCITY:
		n = phys_engine_joint_state(r->e, i, pos, vel);
		for (k = 0; k < n; k++)
			v[k] = it->kind == PHYS_ITEM_JOINT_POSITION ? pos[k] :
			    vel[k];
		return n;
	case PHYS_ITEM_JOINT_EFFORT:
		return phys_engine_joint_effort(r->e, i, v);
	case PHYS_ITEM_JOINT_FORCE:
	case PHYS_ITEM_JOINT_TORQUE:
		phys_engine_joint_wrench(r->e, i, &a, &c);
		set3(v, it->kind == PHYS_ITEM_JOINT_FORCE ? a : c);
		return 3;
	default:
		return -1;
	}
}

static void
put_item(struct run *r, const struct phys_item *it, struct phys_buf *b)
{
	double v[6];
	int n = item_values(r, it, v);

	if (n < 0) {
		buf_puts(b, "null");
		return;
	}
	switch (phys_item_defs[it->kind].type) {
	case PHYS_IT_SCALAR:
		if (it->kind == PHYS_ITEM_ITERATIONS ||
		    it->kind == PHYS_ITEM_CONTACTS)
			buf_printf(b, "%ld", (long)v[0]);
		else
			buf_double(b, v[0]);
		break;
	case PHYS_IT_VEC3:
		buf_json_numbers(b, pose_keys, v, 3);
		break;
	case PHYS_IT_POSE:
		buf_json_numbers(b, pose_keys, v, 6);
		break;
	case PHYS_IT_AXES:
		put_axes(b, v, n);
		break;
	case PHYS_IT_INERTIA:
		put_inertia(b, v);
		break;
	}
}

static void
put_engine(struct run *r, struct phys_buf *b)
{
	struct phys_engine_config c;

	phys_engine_config(r->e, &c);
	buf_puts(b, ",\"preset\":");
	buf_json_string(b, r->w->profiles[r->profile].name);
	buf_puts(b, ",\"engine\":{\"solver\":");
	buf_json_string(b, c.solver);
	buf_printf(b, ",\"iters\":%d,\"sor\":", c.iters);
	buf_double(b, c.sor);
	buf_puts(b, ",\"cfm\":");
	buf_double(b, c.cfm);
	buf_puts(b, ",\"erp\":");
	buf_double(b, c.erp);
	buf_puts(b, ",\"max_step_size\":");
	buf_double(b, c.step);
	buf_puts(b, ",\"contact_max_correcting_vel\":");
	buf_double(b, c.max_correcting_vel);
	buf_puts(b, ",\"contact_surface_layer\":");
	buf_double(b, c.surface_layer);
	buf_printf(b, ",\"max_contacts\":%d,\"friction_model\":",
	    c.max_contacts);
	buf_json_string(b, c.friction_model);
	buf_puts(b, ",\"gravity\":");
	put_vec3(b, c.gravity);
	buf_putc(b, '}');
}

static int
write_line(struct run *r)
{
	struct phys_buf *b = &r->line;
	size_t i;

	buf_clear(b);
	buf_puts(b, "{\"t\":");
	buf_double(b, phys_engine_time(r->e));
	buf_printf(b, ",\"iter\":%ld", phys_engine_iterations(r->e));
	if (r->announce)
		put_engine(r, b);
	r->announce = false;
	buf_puts(b, ",\"items\":{");
	for (i = 0; i < r->items.n; i++) {
		buf_puts(b, r->keys[i]);
		put_item(r, &r->items.v[i], b);
	}
	buf_puts(b, "}}\n");
	if (r->status_on_out)	/* the line must not run into progress */
		phys_status_clear();
	/* One write per line: a reader never sees half of one. */
	if (fwrite(b->s, 1, b->len, r->out) != b->len)
		return phys_fail("write error: %s", strerror(errno));
	return 0;
}

/* ---- the loop ---- */

static void
pace(struct run *r)
{
	double rtf = PVD(r->cur, PHYSICS_real_time_factor), ahead;
	struct timespec ts;

	if (!r->o->realtime || !(rtf > 0))
		return;
	ahead = phys_engine_time(r->e) / rtf - elapsed(r);
	if (ahead <= 0)
		return;
	fflush(r->out);
	ts.tv_sec = (time_t)ahead;
	ts.tv_nsec = (long)((ahead - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/* The simulated seconds the run will cover. */
static double
run_total(struct run *r)
{
	if (r->o->steps >= 0)
		return (double)r->o->steps * PVD(r->cur, PHYSICS_max_step_size);
	return r->o->duration;
}

/* "t=0.250/1.000 s  25%  ETA 3 s" on the terminal, four times a second;
 * the estimate assumes the rest runs at the speed so far. */
static void
progress(struct run *r, double started, double *last)
{
	double now, t, total, left;

	if (!r->o->progress)
		return;
	now = elapsed(r);
	if (now - *last < 0.25)
		return;
	*last = now;
	t = phys_engine_time(r->e);
	total = run_total(r);
	if (!(t > 0) || !(total >= t))
		return;
	left = (now - started) * (total - t) / t;
	if (left < 60)
		phys_status("%s: t=%.3f/%.3f s  %3.0f%%  ETA %.0f s",
		    phys_progname, t, total, 100 * t / total, ceil(left));
	else
		phys_status("%s: t=%.3f/%.3f s  %3.0f%%  ETA %.0f:%02.0f",
		    phys_progname, t, total, 100 * t / total,
		    floor(left / 60), floor(fmod(left, 60)));
}

/* Progress goes to stderr; when stdout is the same terminal, each data
 * line first erases it. */
static bool
same_terminal(int a, int b)
{
	struct stat sa, sb;

	return isatty(a) && isatty(b) && fstat(a, &sa) == 0 &&
	    fstat(b, &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

static bool
sample_due(struct run *r, long step, double *next_sample)
{
	double t = phys_engine_time(r->e);

	if (r->o->rate <= 0)
		return step % r->o->every == 0;
	if (t + 1e-9 < *next_sample)
		return false;
	*next_sample = ceil((t + 1e-9) * r->o->rate) / r->o->rate;
	if (*next_sample <= t + 1e-12)
		*next_sample += 1 / r->o->rate;
	return true;
}

static bool
finished(struct run *r, long step)
{
	double h = PVD(r->cur, PHYSICS_max_step_size);

	if (r->o->steps >= 0)
		return step >= r->o->steps;
	return phys_engine_time(r->e) >= r->o->duration - h / 2;
}

/* One step of the engine, then the control lines due before the next. */
static int
step_once(struct run *r)
{
	if (phys_engine_step(r->e) < 0)
		return -1;
	track(r, false);
	return apply_due(r);
}

static int
loop(struct run *r)
{
	double next_sample = 0, started = elapsed(r), shown = started;
	long step = 0;

	if (sample_due(r, 0, &next_sample) && write_line(r) < 0)
		return -1;
	while (!finished(r, step)) {
		if (step_once(r) < 0)
			return -1;
		step++;
		if (sample_due(r, step, &next_sample) && write_line(r) < 0)
			return -1;
		phys_signal_check();	/* SIGTERM and the like end it here */
		pace(r);
		progress(r, started, &shown);
	}
	return 0;
}

static int
start_profile(struct run *r)
{
	r->profile = r->w->start;
	if (r->o->preset) {
		r->profile = find_profile(r->w, r->o->preset);
		if (r->profile < 0)
			return -2;
	}
	return switch_profile(r, r->profile);
}

static void
run_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nctl; i++)
		free(r->ctl[i].text);
	free(r->ctl);
	phys_engine_free(r->e);
	if (r->cur)
		phys_values_free(PHYS_S_PHYSICS, r->cur);
	if (r->start_vals)
		phys_values_free(PHYS_S_PHYSICS, r->start_vals);
	for (i = 0; r->keys && i < r->items.n; i++)
		free(r->keys[i]);
	free(r->keys);
	phys_items_free(&r->items);
	free(r->lin);
	free(r->ang);
	free(r->acc);
	free(r->angacc);
	free(r->comv);
	free(r->mom);
	free(r->force);
	free(r->torque);
	free(r->link0);
	free(r->model0);
	free(r->canon);
	buf_free(&r->line);
}

/* Item names are escaped once, not on every line. */
static void
make_keys(struct run *r)
{
	struct phys_buf b = { 0 };
	size_t i;

	r->keys = xcalloc(r->items.n, sizeof *r->keys);
	for (i = 0; i < r->items.n; i++) {
		buf_clear(&b);
		if (i)
			buf_putc(&b, ',');
		buf_json_string(&b, r->items.v[i].name);
		buf_putc(&b, ':');
		r->keys[i] = xstrdup(b.s);
	}
	buf_free(&b);
}

static bool
needs_history(const struct phys_item_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		switch (l->v[i].kind) {
		case PHYS_ITEM_LINK_LINACC:
		case PHYS_ITEM_LINK_ANGACC:
		case PHYS_ITEM_LINK_FORCE:
		case PHYS_ITEM_LINK_TORQUE:
			return true;
		default:
			break;
		}
	return false;
}

static void
alloc_tracking(struct run *r)
{
	size_t n = r->w->nlinks;

	r->lin = xcalloc(n, sizeof *r->lin);
	r->ang = xcalloc(n, sizeof *r->ang);
	r->acc = xcalloc(n, sizeof *r->acc);
	r->angacc = xcalloc(n, sizeof *r->angacc);
	r->comv = xcalloc(n, sizeof *r->comv);
	r->mom = xcalloc(n, sizeof *r->mom);
	r->force = xcalloc(n, sizeof *r->force);
	r->torque = xcalloc(n, sizeof *r->torque);
}

static int
prepare(struct run *r)
{
	struct phys_engine_options eo = { r->o->skip_unsupported };
	int rc;

	r->cur = phys_values_new(PHYS_S_PHYSICS);
	if ((rc = start_profile(r)) < 0)
		return rc;
	/* A name or value the world does not take is bad input (1), as it
	 * is in every command; see phys(7). */
	if (apply_sets(r) < 0)
		return -1;
	if (read_controls(r) < 0)
		return -1;
	if (phys_items_select(r->w, r->o->items, r->o->nitems, &r->items) < 0)
		return -2;
	warn_inert_world(r->w);
	/* Switching back to the starting profile brings the overrides too. */
	r->start_profile = r->profile;
	r->start_vals = phys_values_new(PHYS_S_PHYSICS);
	phys_values_copy(PHYS_S_PHYSICS, r->start_vals, r->cur);
	r->e = phys_engine_new(r->w, r->cur, &eo);
	if (!r->e)
		return -1;
	alloc_tracking(r);
	init_models(r);
	r->need_accel = needs_history(&r->items);
	make_keys(r);
	r->announce = true;
	/* Control lines for time zero act before the first state is read. */
	if (apply_due(r) < 0)
		return -1;
	track(r, true);
	return 0;
}

/* ---- a run as the library's callers see it ---- */

struct phys_sim {
	struct run run;
};

int
phys_sim_new(struct phys_sim **out, struct phys_world *w,
    const struct phys_run_options *o)
{
	struct phys_sim *s = xcalloc(1, sizeof *s);
	int rc;

	s->run.w = w;
	s->run.o = o;
	clock_gettime(CLOCK_MONOTONIC, &s->run.start);
	rc = prepare(&s->run);
	if (rc < 0) {
		phys_sim_free(s);
		s = NULL;
	}
	*out = s;
	return rc;
}

void
phys_sim_free(struct phys_sim *s)
{
	if (!s)
		return;
	run_free(&s->run);
	free(s);
}

int
phys_sim_step(struct phys_sim *s)
{
	return step_once(&s->run);
}

double
phys_sim_time(const struct phys_sim *s)
{
	return phys_engine_time(s->run.e);
}

double
phys_sim_step_size(const struct phys_sim *s)
{
	return PVD(s->run.cur, PHYSICS_max_step_size);
}

const struct phys_item_list *
phys_sim_items(const struct phys_sim *s)
{
	return &s->run.items;
}

int
phys_sim_item_values(struct phys_sim *s, const struct phys_item *it,
    double v[6])
{
	return item_values(&s->run, it, v);
}

int
phys_sim_set(struct phys_sim *s, const char *name, const char *text)
{
	struct run *r = &s->run;
	struct control c = { .profile = -1 };
	int rc;

	if (state_target(r->w, name, &c.state_kind, &c.entity) < 0)
		return apply_set(r, name, text);
	if (check_state_text(name, text) < 0)
		return -1;
	c.text = xstrdup(text);
	rc = apply_state(r, &c);
	free(c.text);
	track(r, true);
	return rc;
}

int
phys_sim_get(struct phys_sim *s, const char *name, struct phys_buf *out)
{
	struct run *r = &s->run;
	struct phys_ref ref;

	if (phys_ref_resolve(r->w, name, r->profile, &ref) < 0)
		return -2;
	phys_value_sdf(ref.p, ref.scope == PHYS_S_PHYSICS ?
	    &r->cur[phys_param_index[ref.p->id]] : phys_ref_value(r->w, &ref),
	    out);
	return 0;
}

int
phys_sim_use_profile(struct phys_sim *s, const char *name)
{
	int profile = find_profile(s->run.w, name);

	return profile < 0 ? -2 : switch_profile(&s->run, profile);
}

int
phys_sim_run(struct phys_world *w, const struct phys_run_options *o,
    FILE *out)
{
	struct phys_sim *s;
	int rc;

	rc = phys_sim_new(&s, w, o);
	if (rc == 0) {
		s->run.out = out;
		s->run.status_on_out = o->progress &&
		    same_terminal(fileno(out), STDERR_FILENO);
		rc = loop(&s->run);
	}
	phys_status_clear();
	if (rc < 0)
		phys_report();
	phys_sim_free(s);
	if (rc == -2)
		return PHYS_EXIT_USAGE;
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}
