/* sim.c - run a world: profiles, overrides, control lines, state lines. */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "check.h"
#include "control.h"
#include "engine.h"
#include "engine_common.h"
#include "inertia_follow.h"
#include "keyframe.h"
#include "massless.h"
#include "items.h"
#include "mjcf.h"
#include "reach.h"
#include "ref.h"
#include "systems.h"

struct run {
	const struct phys_scene *w;	/* as loaded: a run never changes it */
	const struct phys_run_options *o;
	struct phys_run_values vals;	/* the run's values, its engine's too */
	const struct phys_engine_info *engine;	/* the current profile's */
	struct phys_engine *e;
	FILE *out;
	int profile;			/* current profile */
	struct phys_value *cur;		/* its values in vals, with overrides */
	int start_profile;		/* the starting profile ... */
	struct phys_value *start_vals;	/* ... with the -s overrides */
	bool announce;			/* next line says profile and engine */
	bool tagged;			/* o->tag written */
	bool status_on_out;		/* progress shares stdout's terminal */
	struct phys_controls ctl;
	struct phys_systems *sys;	/* gz-sim's, from the plugins; or NULL */
	struct phys_item_list items;
	char **keys;			/* per item: ',"name":' ready to write */
	bool need_accel;
	phys_vec3 *lin, *ang, *acc, *angacc;	/* per link, last step */
	phys_vec3 *comv, *mom;			/* COM velocity, angular momentum */
	phys_vec3 *comacc;			/* COM acceleration */
	phys_vec3 *force, *torque;
	phys_pose *link0, *model0;		/* per model: reference poses */
	int *canon;				/* per model: its first link */
	bool *sunk;			/* per link: resized into the ground, said */
	struct timespec start;		/* real time counts from here */
	double pace_sim, pace_wall, pace_rtf;	/* --realtime's anchor */
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

/* ---- applying changes ---- */

/* Where a value comes from, for messages: a file and line, or none
 * (-s); unless known, the world file if the value is still the file's. */
struct origin {
	const char *file;
	long line;
	bool known;
};

/*
 * The block of another engine that parameter name is in: its name up to
 * the first part naming an engine ("surface.friction.bullet" of
 * "surface.friction.bullet.friction2"), that engine in *engine; else its
 * first part, and NULL.
 */
static size_t
engine_block(const char *name, const struct phys_engine_info **engine)
{
	const char *part = name;
	size_t n, i;
	char *t;

	*engine = NULL;
	for (;;) {
		n = strcspn(part, ".");
		t = phys_xstrndup(part, n);
		for (i = 0; phys_engines[i] && !*engine; i++)
			if (strcmp(t, phys_engines[i]->type) == 0)
				*engine = phys_engines[i];
		free(t);
		if (*engine)
			return (size_t)(part - name) + n;
		if (!part[n])
			return strcspn(name, ".");
		part += n + 1;
	}
}

/*
 * The element of the world file that value v of parameter p of entity
 * idx of scope s came from: none when the run's value is no longer the
 * file's (-s or a control line set it) or the file does not write it.
 */
static struct origin
file_origin(const struct run *r, phys_scope s, int idx,
    const struct phys_param *p, const struct phys_value *v, bool group)
{
	/* the world is only read here */
	struct phys_scene *w = (struct phys_scene *)r->w;
	const struct phys_value *loaded = phys_entity_values(w, s, idx);
	struct origin o = { NULL, 0, true };
	const struct phys_engine_info *other;
	xmlNodePtr owner = phys_entity_node(w, s, idx), e;
	struct phys_doc *doc = s == PHYS_S_PHYSICS ? w->profiles[idx].doc :
	    phys_entity_doc(w, s, idx);
	bool carried = false;
	char *path;

	/* a profile made for this engine: the values are its source's */
	if (s == PHYS_S_PHYSICS && !owner)
		carried = (owner = w->profiles[idx].carried_from) != NULL;
	if (!loaded || !owner || !doc ||
	    !phys_value_equal(p, &loaded[phys_param_index[p->id]], v))
		return o;
	/* another engine's block: the block itself */
	path = phys_xstrndup(p->name, group ? engine_block(p->name, &other) :
	    strlen(p->name));
	/* a value carried over under another name: the source profile */
	if ((e = phys_path_find(owner, path)) || (carried && (e = owner))) {
		o.file = phys_node_file(doc, e);
		o.line = phys_node_line(e);
	}
	free(path);
	return o;
}

/* Whether value v of p is the one entity idx's file gives in an element
 * the reader derived for other engines from a model's own values
 * (phys_mjcf_derived): its author never wrote it for this engine. */
static bool
derived_in_file(const struct run *r, phys_scope s, int idx,
    const struct phys_param *p, const struct phys_value *v)
{
	/* the world is only read here */
	struct phys_scene *w = (struct phys_scene *)r->w;
	const struct phys_value *loaded = phys_entity_values(w, s, idx);
	xmlNodePtr owner = phys_entity_node(w, s, idx);

	return loaded && owner &&
	    phys_value_equal(p, &loaded[phys_param_index[p->id]], v) &&
	    phys_mjcf_derived(phys_path_find(owner, p->name));
}

/* Whether the running engine honours some parameter of the block the
 * first n characters of p's name make: Gazebo's Bullet takes its sliding
 * friction from <ode><mu>, so ODE's friction block is not all inert. */
static bool
block_honoured_in_part(const struct run *r, const struct phys_param *p,
    size_t n)
{
	const struct phys_param *q;
	size_t i;

	for (i = 0; i < phys_scope_count(p->scope); i++) {
		q = phys_scope_param(p->scope, i);
		if (strncmp(q->name, p->name, n) == 0 && q->name[n] == '.' &&
		    r->engine->support(q) != PHYS_SUPPORT_OTHER)
			return true;
	}
	return false;
}

/* The engines whose parameter p is, as a message names them: "ODE's,
 * Bullet's and DART's" (caller frees). */
static char *
owners(const struct phys_param *p)
{
	struct phys_buf b = { 0 };
	size_t i, n = 0, k = 0;

	for (i = 0; phys_engines[i]; i++)
		n += phys_engines[i]->support(p) != PHYS_SUPPORT_OTHER;
	for (i = 0; phys_engines[i]; i++) {
		if (phys_engines[i]->support(p) == PHYS_SUPPORT_OTHER)
			continue;
		phys_buf_printf(&b, "%s%s's", k == 0 ? "" : k + 1 == n ?
		    " and " : ", ", phys_engines[i]->name);
		k++;
	}
	if (n == 0)
		phys_buf_puts(&b, "another engine's");
	return b.s;
}

/*
 * What value v of parameter p of entity idx says of the running engine:
 * nothing (false), or that it is kept but does nothing, as one clause of
 * a warning: "X is set but has no effect with E" (an inert value), "X is
 * O's and has no effect with E" (another engine's), or "B parameters are
 * O's and have no effect with E" (another engine's block, named as a
 * whole unless the engine honours some of it).
 */
struct inert {
	enum { INERT_SET, INERT_OTHER, INERT_BLOCK } kind;
	char *whose;	/* "ODE's", "another engine's"; NULL for INERT_SET */
	char *name;	/* the parameter, or the block */
};

static bool
inert_of(const struct run *r, phys_scope s, int idx,
    const struct phys_param *p, const struct phys_value *v, struct inert *in)
{
	enum phys_engine_support how = r->engine->support(p);
	const struct phys_engine_info *other = NULL;
	struct phys_value def;
	size_t n = 0;
	bool inert;

	if (how != PHYS_SUPPORT_INERT && how != PHYS_SUPPORT_OTHER)
		return false;
	/* what implicit_servo asks, the engine does of itself */
	if (p->id == PHYS_P_JOINT_implicit_servo &&
	    r->engine->servos_implicit && r->engine->servos_implicit(r->cur))
		return false;
	phys_value_default(p, &def);
	inert = !phys_value_equal(p, &def, v);
	phys_value_free(&def);
	if (!inert)
		return false;
	if (how == PHYS_SUPPORT_OTHER)
		n = engine_block(p->name, &other);
	/* a name of no block ("implicit_servo") is the parameter's own */
	if (how == PHYS_SUPPORT_OTHER && p->name[n] == '.' &&
	    !block_honoured_in_part(r, p, n)) {
		in->kind = INERT_BLOCK;
		in->whose = phys_xasprintf("%s's", other ? other->name :
		    "another engine");
		in->name = phys_xstrndup(p->name, n);
	} else if (how == PHYS_SUPPORT_OTHER) {
		in->kind = INERT_OTHER;
		in->whose = other ? phys_xasprintf("%s's", other->name) :
		    owners(p);
		in->name = phys_xstrdup(p->name);
	} else {
		in->kind = INERT_SET;
		in->whose = NULL;
		in->name = phys_xstrdup(p->name);
	}
	return true;
}

static void
inert_free(struct inert *in)
{
	free(in->whose);
	free(in->name);
}

/* Whether a and b make one clause: of one kind and one owner. */
static bool
inert_same(const struct inert *a, const struct inert *b)
{
	return a->kind == b->kind && (a->kind == INERT_SET ||
	    strcmp(a->whose, b->whose) == 0);
}

/* The clause of in[i] into b: its names and those of the later values
 * of its kind and owner (marked done), each once, "A, B and C", then
 * what they are. */
static void
put_clause(struct phys_buf *b, const struct run *r, const struct inert *in,
    size_t n, size_t i, bool *done)
{
	struct phys_buf names = { 0 };
	size_t k, m, count = 0, last = 0;

	for (k = i; k < n; k++) {
		if (done[k] || !inert_same(&in[i], &in[k]))
			continue;
		done[k] = true;
		for (m = i; m < k; m++)	/* a block already named */
			if (inert_same(&in[i], &in[m]) &&
			    strcmp(in[m].name, in[k].name) == 0)
				break;
		if (m < k)
			continue;
		last = names.len;
		phys_buf_printf(&names, "%s%s", count++ ? ", " : "",
		    in[k].name);
	}
	if (count > 1) {
		phys_buf_putn(b, names.s, last);
		phys_buf_printf(b, " and %s", names.s + last + 2);
	} else {
		phys_buf_puts(b, names.s);
	}
	phys_buf_free(&names);
	if (in[i].kind == INERT_BLOCK)
		phys_buf_printf(b, " parameters are %s and have no effect "
		    "with %s", in[i].whose, r->engine->name);
	else if (in[i].kind == INERT_OTHER)
		phys_buf_printf(b, count > 1 ? " are %s and have no effect "
		    "with %s" : " is %s and has no effect with %s",
		    in[i].whose, r->engine->name);
	else
		phys_buf_printf(b, count > 1 ? " are set but have no effect "
		    "with %s" : " is set but has no effect with %s",
		    r->engine->name);
}

/*
 * The inert values in[0..n) of one entity, from one line, as one warning
 * there: a clause for each kind and owner, "(kept as given)" once. One
 * value says what warn_if_inert says of it.
 */
static void
say_inert(const struct run *r, phys_scope s, int idx, const struct inert *in,
    size_t n, struct origin from)
{
	struct phys_buf b = { 0 };
	bool *done = phys_xcalloc(n + 1, sizeof *done);
	size_t i;

	if (s >= PHYS_S_LINK)
		phys_buf_printf(&b, "%s '%s': ", phys_scope_name(s),
		    phys_entity_name(r->w, s, idx));
	for (i = 0; i < n; i++) {
		if (done[i])
			continue;
		if (i > 0)
			phys_buf_puts(&b, "; ");
		put_clause(&b, r, in, n, i, done);
	}
	phys_buf_puts(&b, " (kept as given)");
	phys_warnat_once(from.file, from.line, "%s", b.s);
	phys_buf_free(&b);
	free(done);
}

/* One wording, said once, however the value arrived: values the engine
 * cannot honour, and values for another engine, are kept but do nothing.
 * The message names where the value came from: the world file's line,
 * or the control line; none for -s. */
static void
warn_if_inert(const struct run *r, phys_scope s, int idx,
    const struct phys_param *p, const struct phys_value *v,
    struct origin from)
{
	struct inert in;

	if (!inert_of(r, s, idx, p, v, &in) ||
	    derived_in_file(r, s, idx, p, v))
		return;
	if (!from.known)
		from = file_origin(r, s, idx, p, v, in.kind == INERT_BLOCK);
	say_inert(r, s, idx, &in, 1, from);
	inert_free(&in);
}

/* Whether origins a and b are one line of one file, or both none. */
static bool
same_origin(struct origin a, struct origin b)
{
	return a.line == b.line && (a.file == b.file || (a.file && b.file &&
	    strcmp(a.file, b.file) == 0));
}

/* The values vals of entity idx of scope s (the current profile's, for
 * the physics scope), as a run starts or switches engine: those that do
 * nothing, one warning for those of each line. */
static void
warn_inert(const struct run *r, phys_scope s, int idx,
    const struct phys_value *vals)
{
	size_t i, k, n = 0, m, all = phys_scope_count(s);
	struct inert *in = phys_xcalloc(all + 1, sizeof *in), *group;
	struct origin *from = phys_xcalloc(all + 1, sizeof *from);
	bool *said;

	for (i = 0; i < all; i++) {
		const struct phys_param *p = phys_scope_param(s, i);

		if (!inert_of(r, s, idx, p, &vals[i], &in[n]))
			continue;
		if (derived_in_file(r, s, idx, p, &vals[i])) {
			inert_free(&in[n]);
			continue;
		}
		from[n] = file_origin(r, s, idx, p, &vals[i],
		    in[n].kind == INERT_BLOCK);
		n++;
	}
	said = phys_xcalloc(n + 1, sizeof *said);
	group = phys_xcalloc(n + 1, sizeof *group);
	for (i = 0; i < n; i++) {
		if (said[i])
			continue;
		for (k = i, m = 0; k < n; k++)
			if (!said[k] && same_origin(from[i], from[k])) {
				said[k] = true;
				group[m++] = in[k];
			}
		say_inert(r, s, idx, group, m, from[i]);
	}
	for (i = 0; i < n; i++)
		inert_free(&in[i]);
	free(group);
	free(said);
	free(from);
	free(in);
}

static void
warn_inert_world(struct run *r)
{
	phys_scope s;
	size_t i;

	for (s = PHYS_S_WORLD; s <= PHYS_S_JOINT; s++)
		for (i = 0; i < r->vals.n[s]; i++)
			warn_inert(r, s, (int)i,
			    phys_run_values_get(&r->vals, s, (int)i));
}

/* "ode, bullet, mujoco, simbody and dart": the engines phys has, as
 * profiles name them. */
static void
engine_types(struct phys_buf *b)
{
	size_t i;

	for (i = 0; phys_engines[i]; i++)
		phys_buf_printf(b, "%s%s", i == 0 ? "" : phys_engines[i + 1] ?
		    ", " : " and ", phys_engines[i]->type);
}

static int
check_engine_type(struct run *r, int profile)
{
	const struct phys_profile *p = &r->w->profiles[profile];
	struct phys_buf have = { 0 };
	size_t i;

	if (phys_profile_engine(p))
		return 0;
	engine_types(&have);
	for (i = 0; i < r->w->nprofiles; i++)
		if (phys_profile_engine(&r->w->profiles[i])) {
			phys_fail("profile '%s' is for the %s engine; phys-step "
			    "runs %s: -p %s runs the world's %s profile '%s' "
			    "instead", p->name, p->type, have.s,
			    r->w->profiles[i].name,
			    phys_profile_engine(&r->w->profiles[i])->name,
			    r->w->profiles[i].name);
			phys_buf_free(&have);
			return -1;
		}
	phys_fail("profile '%s' is for the %s engine; phys-step runs %s, and "
	    "the world has no profile for any of them (phys-preset add makes "
	    "one)", p->name, p->type, have.s);
	phys_buf_free(&have);
	return -1;
}

/* Which engine a gz-sim profile runs, said once, at its <physics>. */
static void
note_gz_engine(const struct phys_profile *p)
{
	char *note = phys_profile_engine_note(p);
	xmlNodePtr at = p->node ? p->node : p->gz_system;

	if (note && at)
		phys_warn_once("%s:%ld: %s", PHYS_AT(p->doc, at), note);
	free(note);
}

static int
switch_profile(struct run *r, int profile)
{
	int rc;

	if (check_engine_type(r, profile) < 0)
		return -1;
	r->profile = profile;
	r->engine = phys_profile_engine(&r->w->profiles[profile]);
	note_gz_engine(&r->w->profiles[profile]);
	phys_run_values_use(&r->vals, r->w, profile,
	    profile == r->start_profile ? r->start_vals : NULL);
	warn_inert(r, PHYS_S_PHYSICS, profile, r->cur);
	r->announce = true;
	if (!r->e)
		return 0;
	if (r->engine != phys_engine_running(r->e)) {
		phys_warn_batch_begin();
		warn_inert_world(r);	/* what the new engine leaves aside */
		rc = phys_engine_use_keeping_turns(r->e, r->w,
		    phys_engine_ops_of(r->engine));
		phys_warn_batch_end();
		return rc;
	}
	phys_engine_apply_world(r->e);	/* a profile may bring gravity */
	return phys_engine_apply_profile(r->e);
}

static struct phys_value *
run_values(void *ctx, phys_scope s, int idx)
{
	return phys_run_values_at(ctx, s, idx);
}

/* ---- a resize into the ground ---- */

/* Collision ci at the size the values give and where it is now, and
 * where the ground's collision is. */
struct facing {
	struct phys_collision sized;
	phys_pose at, ground;
};

/* How deep a collision is below plane g (0 when above it; NaN for a
 * shape without a reach). */
static double
below_plane(const struct facing *f, const struct phys_collision *g)
{
	phys_vec3 n = phys_quat_rotate(f->ground.q, g->normal);
	double depth;

	n = v3_scale(n, 1 / v3_norm(n));
	depth = v3_dot(f->ground.p, n) - phys_collision_lowest(&f->sized,
	    f->at, n);
	return depth > 0 ? depth : isnan(depth) ? NAN : 0;
}

/*
 * How deep a collision is inside box g: its overlap along the box's
 * axis where it is least (0 when some axis parts them; the box's axes
 * alone, so a shape by a corner may be taken for inside it).
 */
static double
inside_box(const struct facing *f, const struct phys_collision *g)
{
	double depth = INFINITY, mid, lo, hi, over;
	phys_vec3 a;
	int k;

	for (k = 0; k < 3 && depth > 0; k++) {
		a = phys_quat_rotate(f->ground.q, v3(k == 0, k == 1, k == 2));
		mid = v3_dot(f->ground.p, a);
		lo = phys_collision_lowest(&f->sized, f->at, a);
		hi = -phys_collision_lowest(&f->sized, f->at, v3_scale(a, -1));
		over = fmin(mid + g->size[k] / 2 - lo, hi - (mid -
		    g->size[k] / 2));
		depth = isnan(over) ? NAN : fmin(depth, fmax(over, 0));
	}
	return depth;
}

/* Whether collision i is ground: a plane, or a box of a static model. */
static bool
ground(const struct run *r, int i)
{
	const struct phys_collision *g = &r->w->collisions[i];

	return g->shape == PHYS_GEOM_PLANE || (g->shape == PHYS_GEOM_BOX &&
	    r->w->models[r->w->links[g->link].model].is_static);
}

/* How deep collision ci, sized by vals, is in ground gi now. */
static double
into_ground(struct run *r, int ci, const struct phys_value *vals, int gi)
{
	const struct phys_collision *c = &r->w->collisions[ci],
	    *g = &r->w->collisions[gi];
	struct phys_mesh *mesh = NULL;
	struct facing f;
	phys_pose lp;
	double depth;

	if (phys_collision_sized(c, vals, &f.sized, &mesh) < 0)
		return NAN;
	phys_engine_link_pose(r->e, c->link, &lp);
	f.at = phys_pose_mul(lp, c->pose);
	phys_engine_link_pose(r->e, g->link, &lp);
	f.ground = phys_pose_mul(lp, g->pose);
	depth = g->shape == PHYS_GEOM_PLANE ? below_plane(&f, g) :
	    inside_box(&f, g);
	free(mesh ? mesh->v : NULL);
	free(mesh ? mesh->tri : NULL);
	free(mesh);
	return depth;
}

/*
 * A collision resized into a plane or a static box (the ground) starts
 * inside it, and
 * each engine pushes it out its own way: up at once, or slowly, or not
 * at all. Said once a link, with how deep and when, when the resize
 * took it deeper than before by more than a tenth of a millimetre.
 * before: the collision's values before the resize.
 */
#define SUNK_TOL	1e-4	/* m */

static void
warn_sunk(struct run *r, int ci, const struct phys_value *before,
    struct origin from)
{
	const struct phys_collision *c = &r->w->collisions[ci];
	const struct phys_value *now = phys_run_values_get(&r->vals,
	    PHYS_S_COLLISION, ci);
	double d0, d1;
	size_t i;

	if (!r->e || !r->sunk || r->sunk[c->link] ||
	    !phys_engine_link_dynamic(r->e, c->link))
		return;
	for (i = 0; i < r->w->ncollisions; i++) {
		if (!ground(r, (int)i) || r->w->collisions[i].link == c->link ||
		    !phys_collisions_may_touch(r->w, &r->vals, ci, (int)i))
			continue;
		d0 = into_ground(r, ci, before, (int)i);
		d1 = into_ground(r, ci, now, (int)i);
		if (!(d1 > SUNK_TOL && d1 > d0 + SUNK_TOL))
			continue;
		r->sunk[c->link] = true;
		phys_warnat(from.file, from.line, "link '%s': at t=%.9g s its "
		    "collision '%s', resized, reaches %.3g m into '%s': each "
		    "engine pushes it out its own way (it may jump)",
		    r->w->links[c->link].name, phys_engine_time(r->e),
		    c->name, d1, r->w->collisions[i].name);
		return;
	}
}

/*
 * Collisions that start the run deep inside a plane (the ground) of
 * another link, as placed (a keyframe, control lines at t=0): each
 * engine pushes them out its own way, Bullet at once past its split
 * impulse's threshold, ODE by its ERP, MuJoCo's soft contact not at all
 * (a Menagerie robot's feet rest 1 cm in). Said once a link, deeper than
 * SUNK_START, farther than any engine's resting contact sinks; not of a
 * pair the filter keeps apart (an arm's base welded to the world through
 * its floor).
 */
#define SUNK_START	5e-3	/* m */

static void
warn_sunk_placed(struct run *r)
{
	const struct phys_scene *w = r->w;
	struct phys_collision *c;
	double d;
	size_t ci, i;

	for (ci = 0; ci < w->ncollisions; ci++) {
		c = &w->collisions[ci];
		if (r->sunk[c->link] || c->shape == PHYS_GEOM_PLANE ||
		    !phys_engine_link_dynamic(r->e, c->link))
			continue;
		for (i = 0; i < w->ncollisions; i++) {
			if (w->collisions[i].shape != PHYS_GEOM_PLANE ||
			    w->collisions[i].link == c->link ||
			    !phys_collisions_may_touch(w, &r->vals, (int)ci,
			    (int)i))
				continue;
			d = into_ground(r, (int)ci, phys_run_values_get(
			    &r->vals, PHYS_S_COLLISION, (int)ci), (int)i);
			if (!(d > SUNK_START))
				continue;
			r->sunk[c->link] = true;
			/* the collision by its line, so that links alike
			 * make one line (msg.h) */
			phys_warnat(PHYS_AT(c->doc, c->node),
			    "link '%s': starts %.3g m into '%s': each engine "
			    "pushes it out its own way (it may jump)",
			    w->links[c->link].name, d, w->collisions[i].name);
			break;
		}
	}
}

/* The sizes -s gave, before the first step: each collision against the
 * file's own sizes. */
static void
warn_sunk_at_start(struct run *r)
{
	/* the world is only read here */
	struct phys_scene *w = (struct phys_scene *)r->w;
	const struct phys_param *p;
	const struct phys_value *now;
	struct phys_value *file;
	struct origin none = { NULL, 0, true };
	size_t ci, i;

	for (ci = 0; ci < w->ncollisions; ci++) {
		file = phys_entity_values(w, PHYS_S_COLLISION, (int)ci);
		now = phys_run_values_get(&r->vals, PHYS_S_COLLISION, (int)ci);
		for (i = 0; file && i < phys_scope_count(PHYS_S_COLLISION); i++) {
			p = phys_scope_param(PHYS_S_COLLISION, i);
			if (phys_param_is_size(p) &&
			    !phys_value_equal(p, &file[i], &now[i])) {
				warn_sunk(r, (int)ci, file, none);
				break;
			}
		}
	}
}

/* A parameter change at run time reaches the engine at once: it changes
 * the run's values only (a resize and the inertia that follows too).
 * v is taken over. from: the control line it came from, or none (-s). */
static int
apply_value(struct run *r, const struct phys_ref *ref, struct phys_value v,
    struct origin from)
{
	struct phys_value *dst;
	int link = -1;

	if (ref->scope == PHYS_S_PHYSICS) {
		dst = &r->cur[phys_param_index[ref->p->id]];
		phys_value_free(dst);
		*dst = v;
	} else if (phys_values_assign(r->w, &(struct phys_values_at){
	    run_values, &r->vals }, ref, &v, &link) < 0)
		return -1;
	dst = &phys_run_values_at(&r->vals, ref->scope,
	    ref->idx)[phys_param_index[ref->p->id]];
	warn_if_inert(r, ref->scope, ref->idx, ref->p, dst, from);
	if (!r->e)
		return 0;
	switch (ref->scope) {
	case PHYS_S_PHYSICS:
		r->announce = true;
		return phys_engine_apply_profile(r->e);
	case PHYS_S_WORLD:
		r->announce = true;
		phys_engine_apply_world(r->e);
		return 0;
	case PHYS_S_LINK:
		return phys_engine_apply_link(r->e, ref->idx);
	case PHYS_S_JOINT:
		return phys_engine_apply_joint(r->e, ref->idx);
	default:	/* other collision values are read at every contact */
		if (phys_param_is_size(ref->p) &&
		    phys_engine_apply_collision(r->e, ref->idx) < 0)
			return -1;
		return link >= 0 ? phys_engine_apply_link(r->e, link) : 0;
	}
}

/* The same from text; a resize is checked against the ground. */
static int
apply_param(struct run *r, const struct phys_ref *ref, const char *text,
    struct origin from)
{
	struct phys_value v = { 0 }, *before = NULL;
	int rc;

	if (phys_value_parse(ref->p, text, &v) < 0)
		return -1;
	if (r->e && ref->scope == PHYS_S_COLLISION &&
	    phys_param_is_size(ref->p)) {
		before = phys_values_new(PHYS_S_COLLISION);
		phys_values_copy(PHYS_S_COLLISION, before, phys_run_values_get(
		    &r->vals, PHYS_S_COLLISION, ref->idx));
	}
	rc = apply_value(r, ref, v, from);
	if (rc == 0 && before)
		warn_sunk(r, ref->idx, before, from);
	if (before)
		phys_values_free(PHYS_S_COLLISION, before);
	return rc;
}

static void model_links(struct run *r, int model, int *out, size_t *n);

/* Links moved to poses to (n of them, links[i] to to[i]) where the joints
 * hold them: 0, or -1 with phys_error(). */
static int
poses_held(struct run *r, const int *links, const phys_pose *to, size_t n)
{
	bool *moved = phys_xcalloc(r->w->nlinks + 1, sizeof *moved);
	phys_pose *at = phys_xcalloc(r->w->nlinks + 1, sizeof *at);
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		moved[links[i]] = true;
		at[links[i]] = to[i];
	}
	rc = phys_engine_joints_hold(r->e, r->w, moved, at);
	free(moved);
	free(at);
	return rc;
}

static int
apply_state(struct run *r, const struct phys_control *c)
{
	double v[6];
	phys_vec3 vec;
	phys_pose p, delta, lp, *to;
	int *links, rc = 0;
	size_t n, i, k;

	phys_parse_doubles(c->text, v, 6);
	vec = v3(v[0], v[1], v[2]);
	switch (c->state_kind) {
	case PHYS_ITEM_JOINT_POSITION:
		return phys_engine_set_joint_position(r->e, r->w, c->entity,
		    c->cmd[0]);
	case PHYS_ITEM_JOINT_VELOCITY:
		return phys_engine_set_joint_velocity(r->e, r->w, c->entity,
		    c->cmd[0]);
	case PHYS_ITEM_LINK_POSE:
		p = phys_pose_from6(v);
		if (poses_held(r, &c->entity, &p, 1) < 0)
			return -1;
		return phys_engine_set_link_pose(r->e, c->entity, p);
	case PHYS_ITEM_LINK_LINVEL:
		return phys_engine_set_link_motion(r->e, r->w, c->entity, &vec,
		    NULL);
	case PHYS_ITEM_LINK_ANGVEL:
		return phys_engine_set_link_motion(r->e, r->w, c->entity, NULL,
		    &vec);
	}
	links = phys_xcalloc(r->w->nlinks + 1, sizeof *links);
	to = phys_xcalloc(r->w->nlinks + 1, sizeof *to);
	model_links(r, c->entity, links, &n);
	for (i = k = 0; i < n; i++)	/* its dynamic links */
		if (phys_engine_link_dynamic(r->e, links[i]))
			links[k++] = links[i];
	n = k;
	if (c->state_kind == PHYS_ITEM_MODEL_POSE) {
		/* Move the model rigidly: every link by the same transform. */
		p = phys_pose_from6(v);
		phys_engine_link_pose(r->e, r->canon[c->entity], &lp);
		delta = phys_pose_mul(p, phys_pose_inv(phys_pose_mul(lp, phys_pose_mul(
		    phys_pose_inv(r->link0[c->entity]), r->model0[c->entity]))));
		for (i = 0; i < n; i++) {
			phys_engine_link_pose(r->e, links[i], &lp);
			to[i] = phys_pose_mul(delta, lp);
		}
		rc = poses_held(r, links, to, n);
		for (i = 0; i < n && rc == 0; i++)
			rc = phys_engine_set_link_pose(r->e, links[i], to[i]);
	} else if (r->canon[c->entity] >= 0) {
		/* the model's velocity: its canonical link's */
		rc = phys_engine_move_links(r->e, r->canon[c->entity],
		    c->state_kind == PHYS_ITEM_MODEL_LINVEL ? &vec : NULL,
		    c->state_kind == PHYS_ITEM_MODEL_ANGVEL ? &vec : NULL,
		    links, n);
	}
	free(links);
	free(to);
	return rc;
}

static int apply_matches(struct run *r, const char *name, const char *text,
    struct origin from);

/* A model's keyframe: its links' states, and its actuators' controls
 * (their systems' targets). */
static int
start_keyframe(struct run *r, const char *name)
{
	if (phys_keyframe_apply(r->e, r->w, name) < 0)
		return -1;
	return r->sys ? phys_systems_keyframe(r->sys, name) : 0;
}

static int
apply_control(struct run *r, const struct phys_control *c)
{
	int rc;

	if (c->save)
		rc = phys_control_save(r->o->save_to, c->text,
		    r->w->profiles[r->profile].name,
		    r->w->profiles[r->profile].type, r->cur);
	else if (c->profile >= 0)
		rc = switch_profile(r, c->profile);
	else if (c->on_topic)
		rc = phys_systems_deliver(r->sys, c->topic, c->text);
	else if (c->keyframe)
		rc = start_keyframe(r, c->text);
	else if (c->command != PHYS_COMMAND_NONE)
		rc = phys_engine_command(r->e, c->entity, c->command, c->cmd,
		    c->ncmd);
	else if (c->state_kind >= 0)
		rc = apply_state(r, c);
	else if (c->glob)
		rc = apply_matches(r, c->glob, c->text,
		    (struct origin){ r->ctl.name, c->line, true });
	else
		rc = apply_param(r, &c->ref, c->text,
		    (struct origin){ r->ctl.name, c->line, true });
	if (rc < 0) {
		/* a line of phys_sim_control's has no file */
		phys_fail_again(c->line > 0 ? r->ctl.name : NULL, c->line, "");
		/* A save that fails changes nothing: a live session goes on. */
		if (c->save && r->ctl.stream) {
			phys_warn("%s; line skipped", phys_error());
			rc = 0;
		}
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
	const struct phys_control *c;

	if (phys_controls_poll(&r->ctl, now, h) < 0)
		return -1;
	while (phys_controls_due(&r->ctl, now, h, &c) > 0) {
		moved |= c->state_kind >= 0 || c->keyframe;
		if (apply_control(r, c) < 0)
			return -1;
	}
	if (moved)
		track(r, true);
	return 0;
}

/* NAME=VALUE, where NAME may be a glob matching many parameters: 0, -1
 * for a bad value, -2 when no parameter has that name. */
/* Every parameter a pattern names: -1 when there is none. */
static int
apply_matches(struct run *r, const char *name, const char *text,
    struct origin from)
{
	struct phys_ref *refs;
	size_t i, n;
	int rc = 0;

	n = phys_ref_match(r->w, name, r->profile, &refs);
	if (n == 0) {
		phys_fail("no parameter matches '%s'", name);
		rc = -2;
	}
	for (i = 0; i < n && rc == 0; i++)
		rc = apply_param(r, &refs[i], text, from);
	free(refs);
	return rc < 0 ? -1 : rc;
}

static int
apply_set(struct run *r, const char *name, const char *text)
{
	struct phys_ref ref;

	if (!phys_has_glob(name)) {
		if (phys_ref_resolve(r->w, name, r->profile, &ref) < 0)
			return -2;
		return apply_param(r, &ref, text, (struct origin){ NULL, 0, true });
	}
	return apply_matches(r, name, text, (struct origin){ NULL, 0, true });
}

/* The -s overrides of the profile (NAME without '/'), or of the
 * entities, in the order given. */
static int
apply_sets_of(struct run *r, bool entities)
{
	char *name, *eq;
	size_t i;
	int rc = 0;

	for (i = 0; i < r->o->nsets && rc == 0; i++) {
		name = phys_xstrdup(r->o->sets[i]);
		if ((eq = strchr(name, '=')))
			*eq = '\0';
		if ((strchr(name, '/') != NULL) == entities)
			rc = eq ? apply_set(r, name, eq + 1) :
			    phys_fail("--set %s: expected NAME=VALUE", name);
		free(name);
	}
	return rc;
}

/* The profile's overrides first, so that what an entity's value does is
 * judged under the profile it runs with (implicit_servo under
 * mujoco.integrator). */
static int
apply_sets(struct run *r)
{
	int rc = apply_sets_of(r, false);

	return rc < 0 ? rc : apply_sets_of(r, true);
}

/* ---- sampling ---- */

static bool
is_descendant(const struct phys_scene *w, int model, int ancestor)
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
	const struct phys_scene *w = r->w;
	size_t m, i;

	r->link0 = phys_xcalloc(w->nmodels, sizeof *r->link0);
	r->model0 = phys_xcalloc(w->nmodels, sizeof *r->model0);
	r->canon = phys_xcalloc(w->nmodels, sizeof *r->canon);
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

/* A link's values in this run. */
static const struct phys_value *
link_vals(const struct run *r, int li)
{
	return phys_run_values_get(&r->vals, PHYS_S_LINK, li);
}

static phys_quat com_orientation(struct run *r, int li);

/* The mass and the world inertia about the centre of mass the engine
 * simulates: a stand-in for a file's mass 0, or a resized link's new
 * values, are what energies and momenta must use, not the file's. */
static double
link_mass_inertia(struct run *r, int li, phys_mat3 *world)
{
	double mass, in[6];	/* ixx iyy izz ixy ixz iyz */
	phys_mat3 i, rm;

	phys_engine_link_mass(r->e, li, &mass, in);
	i = (phys_mat3){ { { in[0], in[3], in[4] }, { in[3], in[1], in[5] },
	    { in[4], in[5], in[2] } } };
	rm = phys_quat_to_mat3(com_orientation(r, li));
	*world = phys_mat3_mul(phys_mat3_mul(rm, i), phys_mat3_transpose(rm));
	return mass;
}

static phys_quat
com_orientation(struct run *r, int li)
{
	phys_pose lp;

	phys_engine_link_pose(r->e, li, &lp);
	return phys_pose_mul(lp, phys_pose_from6(PV(link_vals(r, li),
	    LINK_inertial_pose)->u.pose)).q;
}

/* Velocities now, and accelerations over the step just taken: kept only
 * when an item needs them, as they cost a little every step. */
static void
track(struct run *r, bool first)
{
	const struct phys_scene *w = r->w;
	double h = PVD(r->cur, PHYSICS_max_step_size);
	phys_vec3 lin, ang, com, comv, mom;
	phys_mat3 inertia;
	double mass;
	size_t i;

	if (!r->need_accel)
		return;
	for (i = 0; i < w->nlinks; i++) {
		phys_engine_link_vel(r->e, (int)i, &lin, &ang);
		phys_engine_link_com(r->e, (int)i, &com, &comv);
		mass = link_mass_inertia(r, (int)i, &inertia);
		mom = phys_mat3_apply(inertia, ang);
		if (!first && phys_engine_link_dynamic(r->e, (int)i)) {
			r->acc[i] = v3_scale(v3_sub(lin, r->lin[i]), 1 / h);
			r->angacc[i] = v3_scale(v3_sub(ang, r->ang[i]), 1 / h);
			r->comacc[i] = v3_scale(v3_sub(comv, r->comv[i]), 1 / h);
			r->force[i] = v3_scale(r->comacc[i], mass);
			r->torque[i] = v3_scale(v3_sub(mom, r->mom[i]), 1 / h);
		}
		r->lin[i] = lin;
		r->ang[i] = ang;
		r->comv[i] = comv;
		r->mom[i] = mom;
	}
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
	const struct phys_scene *w = r->w;
	phys_vec3 g = PVV(phys_run_values_get(&r->vals, PHYS_S_WORLD, 0),
	    WORLD_gravity), com, comv, lin, ang;
	phys_mat3 inertia;
	double mass;
	size_t i;

	*ke = *pe = 0;
	for (i = 0; i < w->nlinks; i++) {
		if (!is_descendant(w, w->links[i].model, m) ||
		    !phys_engine_link_dynamic(r->e, (int)i))
			continue;
		mass = link_mass_inertia(r, (int)i, &inertia);
		phys_engine_link_com(r->e, (int)i, &com, &comv);
		phys_engine_link_vel(r->e, (int)i, &lin, &ang);
		*ke += 0.5 * mass * v3_dot(comv, comv) +
		    0.5 * v3_dot(ang, phys_mat3_apply(inertia, ang));
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
	return phys_pose_mul(lp, phys_pose_mul(phys_pose_inv(r->link0[m]), r->model0[m]));
}

/* The joint frame is fixed in its child link (in its parent when the
 * child is the world): it moves as that link moved from where it was
 * built. */
static phys_pose
joint_pose(struct run *r, int j)
{
	const struct phys_joint *jt = &r->w->joints[j];
	int link = jt->child >= 0 ? jt->child : jt->parent;
	phys_pose lp;

	if (link < 0)
		return jt->pose;
	phys_engine_link_pose(r->e, link, &lp);
	return phys_pose_mul(lp, phys_pose_mul(phys_pose_inv(r->w->links[link].pose),
	    jt->pose));
}

static void
put_inertia(struct phys_buf *b, const double in[6])
{
	phys_buf_json_numbers(b, phys_item_fields(PHYS_IT_INERTIA), in, 6);
}

static void
put_axes(struct phys_buf *b, const double *v, int n)
{
	int k;

	phys_buf_putc(b, '[');
	for (k = 0; k < n; k++) {
		if (k)
			phys_buf_putc(b, ',');
		phys_buf_double(b, v[k]);
	}
	phys_buf_putc(b, ']');
}

/* A joint's command items, one number per axis. */
static int
motor_values(struct run *r, enum phys_item_kind kind, int joint, double v[6])
{
	int n = phys_joint_axes(r->w->joints[joint].type), k;

	for (k = 0; k < n; k++) {
		const struct phys_axis_motor *a = phys_engine_motor(r->e,
		    joint, k);

		v[k] = kind == PHYS_ITEM_JOINT_TARGET ? a->target :
		    kind == PHYS_ITEM_JOINT_TRACKING_ERROR ? a->error :
		    kind == PHYS_ITEM_JOINT_CMD_EFFORT ? a->asked : a->applied;
	}
	return n;
}

static void
set3(double *v, phys_vec3 a)
{
	v[0] = a.x;
	v[1] = a.y;
	v[2] = a.z;
}

/* Limited tendon t's length now: between its ends, where the links are
 * (spatial), or coefficient times position over its joints (fixed). */
static double
tendon_length(struct run *r, const struct phys_tendon *t)
{
	double pos[2], vel[2], len = 0;
	phys_vec3 end[2];
	phys_pose p;
	int k;

	for (k = 0; k < t->njoints; k++)
		if (phys_engine_joint_state(r->e, t->joints[k], pos, vel) > 0)
			len += t->coef[k] * pos[0];
	for (k = 0; !t->njoints && k < 2; k++) {
		p = PHYS_POSE_IDENTITY;
		if (t->link[k] >= 0)
			phys_engine_link_pose(r->e, t->link[k], &p);
		end[k] = phys_pose_mul(p, (phys_pose){ t->at[k],
		    PHYS_QUAT_IDENTITY }).p;
	}
	return t->njoints ? len : v3_norm(v3_sub(end[1], end[0]));
}

/* An item's numbers now, in the order of its fields: how many there are. */
static int
item_values(struct run *r, const struct phys_item *it, double v[6])
{
	const struct phys_scene *w = r->w;
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
		phys_pose_to6(model_pose(r, i), v);
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
		phys_pose_to6(p, v);
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
		phys_pose_to6(phys_pose_mul(p, phys_pose_from6(PV(link_vals(r, i),
		    LINK_inertial_pose)->u.pose)), v);
		return 6;
	case PHYS_ITEM_LINK_COM_LINVEL:
		phys_engine_link_com(r->e, i, &a, &c);
		set3(v, c);
		return 3;
	case PHYS_ITEM_LINK_COM_ANGVEL:	/* one rigid body: the link's */
		phys_engine_link_vel(r->e, i, &a, &c);
		set3(v, c);
		return 3;
	case PHYS_ITEM_LINK_COM_LINACC:
		set3(v, r->comacc[i]);
		return 3;
	case PHYS_ITEM_LINK_COM_ANGACC:
		set3(v, r->angacc[i]);
		return 3;
	case PHYS_ITEM_LINK_MASS:
		phys_engine_link_mass(r->e, i, &ke, v);
		v[0] = ke;
		return 1;
	case PHYS_ITEM_LINK_INERTIA:
		phys_engine_link_mass(r->e, i, &ke, v);
		return 6;
	case PHYS_ITEM_COLLISION_POSE:
		phys_engine_link_pose(r->e, w->collisions[i].link, &p);
		phys_pose_to6(phys_pose_mul(p, w->collisions[i].pose), v);
		return 6;
	case PHYS_ITEM_VISUAL_POSE:
		phys_engine_link_pose(r->e, w->visuals[i].link, &p);
		phys_pose_to6(phys_pose_mul(p, w->visuals[i].pose), v);
		return 6;
	case PHYS_ITEM_JOINT_POSE:
		phys_pose_to6(joint_pose(r, i), v);
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
	case PHYS_ITEM_JOINT_TARGET:
	case PHYS_ITEM_JOINT_TRACKING_ERROR:
	case PHYS_ITEM_JOINT_CMD_EFFORT:
	case PHYS_ITEM_JOINT_APPLIED_EFFORT:
		return motor_values(r, it->kind, i, v);
	case PHYS_ITEM_JOINT_FORCE:
	case PHYS_ITEM_JOINT_TORQUE:
		phys_engine_joint_wrench(r->e, i, &a, &c);
		set3(v, it->kind == PHYS_ITEM_JOINT_FORCE ? a : c);
		return 3;
	case PHYS_ITEM_TENDON_LENGTH:
		v[0] = tendon_length(r, &w->tendons[i]);
		return 1;
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
		phys_buf_puts(b, "null");
		return;
	}
	switch (phys_item_defs[it->kind].type) {
	case PHYS_IT_SCALAR:
		if (it->kind == PHYS_ITEM_ITERATIONS ||
		    it->kind == PHYS_ITEM_CONTACTS)
			phys_buf_printf(b, "%ld", (long)v[0]);
		else
			phys_buf_double(b, v[0]);
		break;
	case PHYS_IT_VEC3:
		phys_buf_json_numbers(b, pose_keys, v, 3);
		break;
	case PHYS_IT_POSE:
		phys_buf_json_numbers(b, pose_keys, v, 6);
		break;
	case PHYS_IT_AXES:
		put_axes(b, v, n);
		break;
	case PHYS_IT_INERTIA:
		put_inertia(b, v);
		break;
	}
}

/* The record of what the engine runs with: the run's values of the
 * parameters its engine reports, under the engine's keys. */
static void
put_engine(struct run *r, struct phys_buf *b)
{
	const struct phys_engine_info *ei = r->engine;
	const struct phys_param *p;
	size_t i;

	phys_buf_puts(b, ",\"preset\":");
	phys_buf_json_string(b, r->w->profiles[r->profile].name);
	phys_buf_puts(b, ",\"engine\":{");
	for (i = 0; i < ei->nrecord; i++) {
		p = &phys_params[ei->record[i].id];
		phys_buf_printf(b, "%s\"%s\":", i ? "," : "", ei->record[i].key);
		phys_value_json(p, &phys_run_values_get(&r->vals, p->scope,
		    0)[phys_param_index[p->id]], b);
	}
	phys_buf_putc(b, '}');
}

static int
write_line(struct run *r)
{
	struct phys_buf *b = &r->line;
	size_t i;

	phys_buf_clear(b);
	phys_buf_puts(b, "{\"t\":");
	phys_buf_double(b, phys_engine_time(r->e));
	phys_buf_printf(b, ",\"iter\":%ld", phys_engine_iterations(r->e));
	if (r->o->tag && !r->tagged) {
		phys_buf_putc(b, ',');
		phys_buf_puts(b, r->o->tag);
		r->tagged = true;
	}
	if (r->announce)
		put_engine(r, b);
	r->announce = false;
	phys_buf_puts(b, ",\"items\":{");
	for (i = 0; i < r->items.n; i++) {
		phys_buf_puts(b, r->keys[i]);
		put_item(r, &r->items.v[i], b);
	}
	phys_buf_puts(b, "}}\n");
	if (r->status_on_out)	/* the line must not run into progress */
		phys_status_clear();
	/* One write per line: a reader never sees half of one. */
	if (fwrite(b->s, 1, b->len, r->out) != b->len)
		return phys_fail("write error: %s", strerror(errno));
	return 0;
}

/* ---- the loop ---- */

/* A run behind its pace by more than this has stalled (its reader did not
 * read, it was stopped): it starts pacing afresh rather than bursting. */
#define PACE_SLACK 0.1

static void
pace_anchor(struct run *r, double rtf)
{
	r->pace_sim = phys_engine_time(r->e);
	r->pace_wall = elapsed(r);
	r->pace_rtf = rtf;
}

/*
 * Simulated time runs at rtf times the wall clock from the anchor, which
 * is the first step, and moves when the profile's real_time_factor
 * changes: what happened before the run (opening a FIFO waits for its
 * writer) is no reason to hurry.
 */
static void
pace(struct run *r)
{
	double rtf = PVD(r->cur, PHYSICS_real_time_factor), ahead;
	struct timespec ts;

	if (!r->o->realtime || !(rtf > 0))
		return;
	if (rtf != r->pace_rtf)
		pace_anchor(r, rtf);
	ahead = r->pace_wall + (phys_engine_time(r->e) - r->pace_sim) / rtf -
	    elapsed(r);
	if (ahead < -PACE_SLACK)
		pace_anchor(r, rtf);
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
	const char *label = r->o->label ? r->o->label : "";
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
		phys_status("%s: %s%st=%.3f/%.3f s  %3.0f%%  ETA %.0f s",
		    phys_progname, label, *label ? ": " : "", t, total,
		    100 * t / total, ceil(left));
	else
		phys_status("%s: %s%st=%.3f/%.3f s  %3.0f%%  ETA %.0f:%02.0f",
		    phys_progname, label, *label ? ": " : "", t, total,
		    100 * t / total, floor(left / 60), floor(fmod(left, 60)));
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

/*
 * A run far slower than real time says so once, on a terminal, where
 * someone waits for it: the engine, its pace and what to try. The pace
 * is that of the run so far, from its first second of wall time on, so
 * that the first steps (caches, allocations) do not decide it; a run
 * paced on purpose (--realtime) or waiting on a controller is not
 * judged.
 */
#define SLOW_RTF	0.05	/* simulated s per wall s, below it: slow */
#define SLOW_AFTER	1.0	/* s of wall time before judging */

static void
slow_check(struct run *r, double t0, bool *said)
{
	const char *hint;
	double wall, rtf, h;

	if (*said)
		return;
	wall = elapsed(r);
	if (wall < SLOW_AFTER)
		return;
	/* over the run so far: a robot that lands may slow it down later */
	rtf = (phys_engine_time(r->e) - t0) / wall;
	if (!(rtf < SLOW_RTF))
		return;
	*said = true;
	h = PVD(r->cur, PHYSICS_max_step_size);
	hint = r->engine->slow_hint ? r->engine->slow_hint(r->cur) : NULL;
	phys_warn("slow: %s runs this world at %.2g times real time (1 s "
	    "simulated takes %.0f s); try a larger step (-s max_step_size="
	    "%g, now %g)%s%s or another engine (a profile of its own: "
	    "phys-preset add --engine, then -p)", r->engine->name, rtf,
	    ceil(1 / rtf), 2 * h, h, hint ? ", " : "", hint ? hint : "");
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
	if (r->sys && phys_systems_step(r->sys, PVD(r->cur,
	    PHYSICS_max_step_size)) < 0)
		return -1;
	if (phys_engine_step(r->e) < 0)
		return -1;
	track(r, false);
	return apply_due(r);
}

/*
 * A state line; in lock-step, then the controller's reply to it, applied
 * before the next step. The line is out whole before the wait: a stop
 * signal then ends the run at once (lib/base/stop.c), and a controller
 * that has gone leaves it as the last line. After the last state line a
 * reply is read if one comes, so that the controller's last write finds
 * its reader, and checked, but nothing is left to apply it to.
 */
static int
sample(struct run *r, bool last)
{
	double now = phys_engine_time(r->e);

	if (write_line(r) < 0)
		return -1;
	if (!r->ctl.lockstep)
		return 0;
	if (fflush(r->out) != 0)
		return phys_fail("write error: %s", strerror(errno));
	if (phys_controls_reply(&r->ctl, now, PVD(r->cur,
	    PHYSICS_max_step_size), last) < 0)
		return -1;
	return last ? 0 : apply_due(r);
}

static int
loop(struct run *r)
{
	double next_sample = 0, started, shown, t0 = phys_engine_time(r->e);
	long step = 0;
	/* whether the run is to be judged slow, asked once, not a system
	 * call a step: as if said already where it is not */
	bool slow_said = r->o->realtime || r->ctl.lockstep ||
	    !phys_stderr_is_tty();

	/* Real time, and pacing, start with the first step. */
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	started = shown = 0;
	pace_anchor(r, PVD(r->cur, PHYSICS_real_time_factor));
	if (sample_due(r, 0, &next_sample) && sample(r, finished(r, 0)) < 0)
		return -1;
	while (!finished(r, step)) {
		if (step_once(r) < 0)
			return -1;
		step++;
		if (sample_due(r, step, &next_sample) &&
		    sample(r, finished(r, step)) < 0)
			return -1;
		phys_signal_check();	/* SIGTERM and the like end it here */
		pace(r);
		progress(r, started, &shown);
		slow_check(r, t0, &slow_said);
	}
	return 0;
}

/* gz-sim runs a world's first <physics>: said where the world is
 * gz-sim's and its default is another (phys_gz_start_note). */
static void
note_gz_start(const struct run *r)
{
	const struct phys_profile *p = &r->w->profiles[r->w->start];
	char msg[512];

	if (phys_gz_start_note(r->w, msg, sizeof msg))
		phys_warnat(PHYS_AT(p->doc, p->node), "%s (-p %s runs it)",
		    msg, r->w->profiles[0].name);
}

static int
start_profile(struct run *r)
{
	r->profile = r->w->start;
	if (!r->o->preset)
		note_gz_start(r);
	if (r->o->preset) {
		r->profile = phys_world_find_profile(r->w, r->o->preset);
		if (r->profile < 0)
			return -2;
	}
	return switch_profile(r, r->profile);
}

static void
run_free(struct run *r)
{
	size_t i;

	phys_controls_free(&r->ctl);
	phys_systems_free(r->sys);
	phys_engine_free(r->e);
	phys_run_values_free(&r->vals);
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
	free(r->comacc);
	free(r->mom);
	free(r->force);
	free(r->torque);
	free(r->sunk);
	free(r->link0);
	free(r->model0);
	free(r->canon);
	phys_buf_free(&r->line);
}

/* Item names are escaped once, not on every line. */
static void
make_keys(struct run *r)
{
	struct phys_buf b = { 0 };
	size_t i;

	r->keys = phys_xcalloc(r->items.n, sizeof *r->keys);
	for (i = 0; i < r->items.n; i++) {
		phys_buf_clear(&b);
		if (i)
			phys_buf_putc(&b, ',');
		phys_buf_json_string(&b, r->items.v[i].name);
		phys_buf_putc(&b, ':');
		r->keys[i] = phys_xstrdup(b.s);
	}
	phys_buf_free(&b);
}

/* Whether an item of the list (which the API reads too) needs what the
 * item table says it does. */
static bool
items_need(const struct phys_item_list *l, enum phys_item_need need)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (phys_item_defs[l->v[i].kind].need == need)
			return true;
	return false;
}

static void
alloc_tracking(struct run *r)
{
	size_t n = r->w->nlinks;

	r->lin = phys_xcalloc(n, sizeof *r->lin);
	r->ang = phys_xcalloc(n, sizeof *r->ang);
	r->acc = phys_xcalloc(n, sizeof *r->acc);
	r->angacc = phys_xcalloc(n, sizeof *r->angacc);
	r->comv = phys_xcalloc(n, sizeof *r->comv);
	r->comacc = phys_xcalloc(n, sizeof *r->comacc);
	r->mom = phys_xcalloc(n, sizeof *r->mom);
	r->force = phys_xcalloc(n, sizeof *r->force);
	r->torque = phys_xcalloc(n, sizeof *r->torque);
	r->sunk = phys_xcalloc(n, sizeof *r->sunk);
}

/*
 * A joint that starts outside its limits (as a robot's zero pose often
 * puts a knee), once the control lines for time zero have acted (they
 * may have set it inside), starts at its nearest limit, under every
 * engine alike: each engine's stop pushes it back its own way (DART's
 * and MuJoCo's on to the other limit, ODE's round and round where its
 * angle wraps at pi). Said once, with the joint's line. An axis whose
 * position cannot be set (a two-axis joint's, or one a loop holds) is
 * left to the engine's stop, and that is said. An MJCF model's joint
 * under MuJoCo starts where the model puts it, as in MuJoCo, whose soft
 * limit then pushes it in (mujoco_own).
 */
static bool
mujoco_own(const struct run *r, const struct phys_joint *jt)
{
	return jt->doc && jt->doc->from == PHYS_DOC_MJCF &&
	    phys_engine_bit(r->engine->type) == PHYS_E_MUJOCO;
}

/* An axis of a joint outside its limits at the start. */
struct outside {
	int joint, axis;
	double pos, lo, hi, to;
	char *why;		/* why it is not set, or NULL */
};

/* The axes outside their limits, in the joints' order, into out (room
 * for two a joint); their count. */
static size_t
find_outside(struct run *r, struct outside *out)
{
	double pos[2], vel[2], lo, hi;
	size_t j, m = 0;
	int n, k;

	for (j = 0; j < r->w->njoints; j++) {
		const struct phys_joint *jt = &r->w->joints[j];
		const struct phys_value *v = phys_run_values_get(&r->vals,
		    PHYS_S_JOINT, (int)j);

		if (jt->type == PHYS_JOINT_SCREW ||
		    jt->type == PHYS_JOINT_GEARBOX || mujoco_own(r, jt))
			continue;
		n = phys_engine_joint_state(r->e, (int)j, pos, vel);
		for (k = 0; k < n && k < 2; k++) {
			lo = phys_joint_axis_values(v, k).lower;
			hi = phys_joint_axis_values(v, k).upper;
			if (pos[k] >= lo - 1e-9 && pos[k] <= hi + 1e-9)
				continue;
			out[m++] = (struct outside){ (int)j, k, pos[k], lo, hi,
			    pos[k] < lo ? lo : hi,
			    n == 1 ? NULL : phys_xstrdup("two axes") };
		}
	}
	return m;
}

/* Each one-axis joint of out (m) set at its limit, all at once. */
static void
set_outside(struct run *r, struct outside *out, size_t m)
{
	int *js = phys_xcalloc(m + 1, sizeof *js);
	double *to = phys_xcalloc(m + 1, sizeof *to);
	char **why = phys_xcalloc(m + 1, sizeof *why);
	size_t i, n = 0;

	for (i = 0; i < m; i++)
		if (!out[i].why) {
			js[n] = out[i].joint;
			to[n++] = out[i].to;
		}
	phys_engine_set_joint_positions(r->e, r->w, js, to, n, why);
	for (i = 0, n = 0; i < m; i++)
		if (!out[i].why)
			out[i].why = why[n++];
	free(js);
	free(to);
	free(why);
}

static void
start_within_limits(struct run *r)
{
	struct outside *out = phys_xcalloc(2 * r->w->njoints + 1, sizeof *out);
	double now[2], vel[2];
	size_t i, m = find_outside(r, out);

	set_outside(r, out, m);
	for (i = 0; i < m; i++) {
		struct outside *o = &out[i];
		const struct phys_joint *jt = &r->w->joints[o->joint];
		const char *unit = jt->type == PHYS_JOINT_PRISMATIC ? "m" :
		    "rad";

		/* a joint whose child is static or kinematic moves nothing */
		if (!o->why && (phys_engine_joint_state(r->e, o->joint, now,
		    vel) < 1 || fabs(now[0] - o->to) > 1e-6))
			o->why = phys_xstrdup("the links beyond it do not "
			    "move");
		if (!o->why) {
			phys_warnat_once(PHYS_AT(jt->doc, jt->node),
			    "joint '%s' starts at %.6g %s on its first axis, "
			    "outside its limits [%.6g, %.6g]: it starts at "
			    "%.6g instead (a control line at t=0 can set its "
			    "position)", jt->name, o->pos, unit, o->lo, o->hi,
			    o->to);
			continue;
		}
		phys_warnat_once(PHYS_AT(jt->doc, jt->node),
		    "joint '%s' starts at %.6g %s on its %s axis, outside "
		    "its limits [%.6g, %.6g]: its position cannot be set "
		    "(%s); each engine's stop pushes it back its own way",
		    jt->name, o->pos, unit, o->axis ? "second" : "first",
		    o->lo, o->hi, o->why);
		free(o->why);
	}
	free(out);
}

static int
prepare_run(struct run *r)
{
	struct phys_engine_options eo = {
	    .skip_unsupported = r->o->skip_unsupported };
	int rc;

	phys_run_values_init(&r->vals, r->w, r->w->start);
	(void)phys_massless_models_fill(&r->vals, r->w);
	r->cur = phys_run_values_at(&r->vals, PHYS_S_PHYSICS, 0);
	if ((rc = start_profile(r)) < 0)
		return rc;
	if (r->o->keyframe && phys_keyframe_check(r->w, r->o->keyframe) < 0)
		return -2;
	/* The plugins' gains come before the overrides. */
	if (phys_systems_load(&r->sys, r->w, &r->vals) < 0)
		return -1;
	/* A name or value the world does not take is bad input (1), as it
	 * is in every command; see phys(7). */
	if (apply_sets(r) < 0)
		return -1;
	if (phys_controls_open(&r->ctl, r->w, r->sys, r->o->control,
	    r->o->save_to != NULL, r->o->lockstep) < 0)
		return -1;
	/* A pattern matching nothing is bad input, in every command. */
	if (phys_items_select(r->w, r->o->items, r->o->nitems, &r->items) < 0)
		return -1;
	warn_inert_world(r);
	eo.no_joint_forces = !items_need(&r->items, PHYS_IN_JOINT_FORCES);
	/* Switching back to the starting profile brings the overrides too. */
	r->start_profile = r->profile;
	r->start_vals = phys_values_new(PHYS_S_PHYSICS);
	phys_values_copy(PHYS_S_PHYSICS, r->start_vals, r->cur);
	r->e = phys_engine_new(r->w, phys_engine_ops_of(r->engine), &r->vals,
	    &eo);
	if (!r->e || (r->sys && phys_systems_start(r->sys, r->e) < 0))
		return -1;
	alloc_tracking(r);
	warn_sunk_at_start(r);
	init_models(r);
	if (r->o->keyframe && start_keyframe(r, r->o->keyframe) < 0)
		return -1;
	r->need_accel = items_need(&r->items, PHYS_IN_HISTORY);
	make_keys(r);
	r->announce = true;
	/* Control lines for time zero act before the first state is read. */
	if (apply_due(r) < 0)
		return -1;
	start_within_limits(r);
	warn_sunk_placed(r);
	track(r, true);
	return 0;
}

/* What a run's start has to say about the world's links and joints is
 * said grouped (msg.h), before the first state line. */
static int
prepare(struct run *r)
{
	int rc;

	phys_warn_batch_begin();
	rc = prepare_run(r);
	phys_warn_batch_end();
	return rc;
}

/* ---- a run as the library's callers see it ---- */

struct phys_sim {
	struct run run;
};

int
phys_sim_new(struct phys_sim **out, const struct phys_scene *w,
    const struct phys_run_options *o)
{
	struct phys_sim *s = phys_xcalloc(1, sizeof *s);
	int rc;

	*out = s;	/* for a caller to free when memory runs out on the way */
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
	struct phys_control c = { .profile = -1 };
	int rc;

	if (phys_control_state_target(r->w, name, &c.state_kind, &c.entity) < 0)
		return apply_set(r, name, text);
	if (phys_control_check_state(r->w, c.state_kind, c.entity, name, text,
	    c.cmd) < 0)
		return -1;
	c.text = phys_xstrdup(text);
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
	phys_value_sdf(ref.p, &phys_run_values_at(&r->vals, ref.scope,
	    ref.idx)[phys_param_index[ref.p->id]], out);
	return 0;
}

int
phys_sim_control(struct phys_sim *s, const char *text)
{
	struct run *r = &s->run;

	if (phys_controls_add(&r->ctl, text, NULL, 0, phys_engine_time(r->e),
	    PVD(r->cur, PHYSICS_max_step_size)) < 0)
		return -1;
	return apply_due(r) < 0 ? -3 : 0;
}

int
phys_sim_use_profile(struct phys_sim *s, const char *name)
{
	int profile = phys_world_find_profile(s->run.w, name);

	return profile < 0 ? -2 : switch_profile(&s->run, profile);
}

int
phys_sim_run(const struct phys_scene *w, const struct phys_run_options *o,
    FILE *out)
{
	struct phys_sim *s;
	int rc;

	rc = phys_sim_new(&s, w, o);
	if (rc == 0) {
		s->run.out = out;
		s->run.status_on_out = o->progress &&
		    same_terminal(phys_fileno(out), STDERR_FILENO);
		rc = loop(&s->run);
	}
	phys_status_clear();
	if (rc < 0 && !o->caller_reports)
		phys_report();
	phys_sim_free(s);
	if (rc == -2)
		return PHYS_EXIT_USAGE;
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}
