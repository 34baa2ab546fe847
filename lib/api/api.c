/*
 * api.c - the public interface of phys.h over the library's internals: the
 * same world loader and the same run (sim.c) that phys-step uses.
 */
#include "phys.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "items.h"
#include "msg.h"
#include "preset.h"
#include "sim.h"
#include "world.h"

struct phys_api_world {
	struct phys_scene w;
	bool skip_unsupported;
	bool running;		/* a run of it exists */
};

struct phys_api_run {
	phys_world *world;
	struct phys_sim *sim;
	struct phys_run_options o;
	char *items[1];		/* every item: any may be read */
	char *profile, *control;
	bool failed;		/* a step failed: the run cannot go on */
	struct phys_buf text;
};

const char *
phys_errmsg(void)
{
	return phys_error();
}

static phys_warning_handler *user_handler;
static void *user_handler_ctx;

/* The library's sink gives file and line apart; the public handler gets
 * them as the message's "file:line: " prefix, as stderr would. */
static void
forward_warning(const char *file, long line, const char *message, void *ctx)
{
	char msg[2048];

	if (file && line > 0)
		snprintf(msg, sizeof msg, "%s:%ld: %s", file, line, message);
	else if (file)
		snprintf(msg, sizeof msg, "%s: %s", file, message);
	else
		snprintf(msg, sizeof msg, "%s", message);
	user_handler(msg, user_handler_ctx);
}

void
phys_set_warning_handler(phys_warning_handler *handler, void *ctx)
{
	user_handler = handler;
	user_handler_ctx = ctx;
	phys_set_warning_sink(handler ? forward_warning : NULL, NULL);
}

phys_world_def
phys_default_world_def(void)
{
	phys_world_def d = { 0, 0 };

	return d;
}

phys_run_def
phys_default_run_def(void)
{
	phys_run_def d = { NULL, NULL };

	return d;
}

/*
 * Every public function arms a recovery point first (msg.h): phys_die
 * (memory ran out) inside it ends the call, which returns PHYS_ENOMEM or
 * NULL, instead of the caller's process. What the call was building is
 * freed (a world being opened, a run being created) or marked failed (a
 * run in a step or a change): see phys.h.
 */
#define GUARD(sprung)							\
	struct phys_recover guard_at_;					\
	struct phys_recover *guard_armed_				\
	    __attribute__((cleanup(phys_recover_pop), unused)) =	\
	    phys_recover_push(&guard_at_);				\
	if (setjmp(guard_at_.at)) {					\
		sprung;							\
	}

/* The world being opened and the run being created, freed when memory
 * runs out on the way. */
static phys_world *opening;
static phys_run *creating;

static int
misuse(const char *what)
{
	phys_fail("%s", what);
	return PHYS_EUSE;
}

/* ---- worlds ---- */

static phys_world *
open_world(const char *path, const char *name, const char *sdf, size_t len,
    const phys_world_def *def)
{
	phys_world_def d = def ? *def : phys_default_world_def();
	struct phys_load_options lo;
	phys_world *w = phys_xcalloc(1, sizeof *w);
	int rc;

	opening = w;
	phys_load_options_default(&lo);
	lo.skip_unsupported = d.skip_unsupported != 0;
	lo.skip_missing = lo.skip_unsupported;
	lo.quiet = d.quiet != 0;
	w->skip_unsupported = lo.skip_unsupported;
	if (path) {
		rc = phys_world_load(&w->w, path, &lo);
	} else {
		memset(&w->w, 0, sizeof w->w);
		rc = phys_doc_load_text(&w->w.doc, name, sdf, len);
		if (rc == 0)
			rc = phys_world_load_doc(&w->w, &lo);
	}
	opening = NULL;
	if (rc < 0) {
		phys_world_free(&w->w);
		free(w);
		return NULL;
	}
	return w;
}

/* A world whose opening ran out of memory: what it holds so far. */
static void
drop_opening(void)
{
	if (opening) {
		phys_world_free(&opening->w);
		free(opening);
	}
	opening = NULL;
}

phys_world *
phys_open_world(const char *path, const phys_world_def *def)
{
	GUARD(drop_opening(); return NULL)
	if (!path) {
		misuse("phys_open_world: no path (\"-\" is standard input)");
		return NULL;
	}
	return open_world(path, NULL, NULL, 0, def);
}

phys_world *
phys_open_world_text(const char *name, const char *sdf, size_t len,
    const phys_world_def *def)
{
	if (!sdf) {
		misuse("phys_open_world_text: no text");
		return NULL;
	}
	return open_world(NULL, name ? name : "<text>", sdf, len, def);
}

void
phys_free_world(phys_world *w)
{
	GUARD(return)
	if (!w)
		return;
	phys_world_free(&w->w);
	free(w);
}

/* ---- runs ---- */

static char *
dup_or_null(const char *s)
{
	return s ? phys_xstrdup(s) : NULL;
}

/* A run whose start ran out of memory: what it holds so far. */
static void
drop_creating(void)
{
	phys_free_run(creating);
	creating = NULL;
}

phys_run *
phys_create_run(phys_world *w, const phys_run_def *def)
{
	GUARD(drop_creating(); return NULL)
	phys_run_def d = def ? *def : phys_default_run_def();
	phys_run *r;
	int rc;

	if (!w) {
		misuse("phys_create_run: no world");
		return NULL;
	}
	if (w->running) {
		misuse("phys_create_run: the world already has a run; free it "
		    "first");
		return NULL;
	}
	r = phys_xcalloc(1, sizeof *r);
	creating = r;
	r->world = w;
	r->items[0] = "*";
	r->profile = dup_or_null(d.profile);
	r->control = dup_or_null(d.control);
	phys_run_options_default(&r->o);
	r->o.items = r->items;
	r->o.nitems = 1;
	r->o.control = r->control;
	r->o.skip_unsupported = w->skip_unsupported;
	w->running = true;
	/* an engine's name where no profile has it: its profile, as -p */
	rc = r->profile ? phys_preset_named(&w->w, r->profile) : 0;
	if (rc >= 0) {
		r->o.preset = r->profile ? w->w.profiles[rc].name : NULL;
		rc = phys_sim_new(&r->sim, &w->w, &r->o);
	}
	creating = NULL;
	if (rc < 0) {
		phys_free_run(r);
		return NULL;
	}
	return r;
}

void
phys_free_run(phys_run *r)
{
	GUARD(return)
	if (!r)
		return;
	phys_sim_free(r->sim);
	r->world->running = false;
	free(r->profile);
	free(r->control);
	phys_buf_free(&r->text);
	free(r);
}

/* A run whose call ran out of memory: it cannot go on. */
static int
out_of_memory(phys_run *r)
{
	if (r)
		r->failed = true;
	return PHYS_ENOMEM;
}

static int
step(phys_run *r)
{
	if (phys_sim_step(r->sim) == 0)
		return PHYS_OK;
	r->failed = true;
	return PHYS_ERUN;
}

static int
check_run(const phys_run *r, const char *fn)
{
	if (!r) {
		phys_fail("%s: no run", fn);
		return PHYS_EUSE;
	}
	if (r->failed) {
		phys_fail("%s: an earlier step failed; the run cannot go on", fn);
		return PHYS_ERUN;
	}
	return PHYS_OK;
}

/* Apart from phys_run_step: what a longjmp could clobber is not there. */
static int
take_steps(phys_run *r, long n)
{
	int rc;

	while (n-- > 0)
		if ((rc = step(r)) < 0)
			return rc;
	return PHYS_OK;
}

int
phys_run_step(phys_run *r, long n)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_step");

	if (rc < 0)
		return rc;
	if (n < 0)
		return misuse("phys_run_step: a negative number of steps");
	return take_steps(r, n);
}

int
phys_run_until(phys_run *r, double t)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_until");

	if (rc < 0)
		return rc;
	if (!isfinite(t)) {
		phys_fail("phys_run_until: the time must be a finite number");
		return PHYS_EVALUE;
	}
	/* As phys-step -t: the step that would overshoot by more than half
	 * a step is not taken. */
	while (phys_sim_time(r->sim) < t - phys_sim_step_size(r->sim) / 2)
		if ((rc = step(r)) < 0)
			return rc;
	return PHYS_OK;
}

double
phys_run_time(const phys_run *r)
{
	return r ? phys_sim_time(r->sim) : NAN;
}

/* "name" or "name.field": the item, and the field's position or -1. */
static const struct phys_item *
find_item(const phys_run *r, const char *name, int *field)
{
	const struct phys_item_list *l = phys_sim_items(r->sim);
	const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
	const char *const *f;
	size_t i, stem = dot && (!slash || dot > slash) ? (size_t)(dot - name) :
	    strlen(name);

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].name, name) == 0) {
			*field = -1;
			return &l->v[i];
		}
		if (stem == strlen(name) || strncmp(l->v[i].name, name, stem) ||
		    l->v[i].name[stem])
			continue;
		f = phys_item_fields(phys_item_defs[l->v[i].kind].type);
		for (*field = 0; f[*field]; ++*field)
			if (strcmp(f[*field], dot + 1) == 0)
				return &l->v[i];
	}
	return NULL;
}

int
phys_run_read(phys_run *r, const char *item, double *v, int n)
{
	GUARD(return out_of_memory(r))
	const struct phys_item *it;
	double all[6];
	int field, count, i;

	if (!r || !item || (n > 0 && !v) || n < 0)
		return misuse("phys_run_read: no run, no item name, or no room "
		    "for the values");
	it = find_item(r, item, &field);
	if (!it) {
		phys_fail("no item named '%s' (phys-introspect items lists a "
		    "world's items)", item);
		return PHYS_ENAME;
	}
	count = phys_sim_item_values(r->sim, it, all);
	if (field >= 0) {
		if (field >= count) {
			phys_fail("%s: the item has %d field%s", item, count,
			    count == 1 ? "" : "s");
			return PHYS_ENAME;
		}
		all[0] = all[field];
		count = 1;
	}
	for (i = 0; i < count && i < n; i++)
		v[i] = all[i];
	return count;
}

/* The sim's -1 is a bad value, -2 a name that nothing has. */
static int
status(int rc)
{
	return rc == 0 ? PHYS_OK : rc == -2 ? PHYS_ENAME : PHYS_EVALUE;
}

int
phys_run_set(phys_run *r, const char *name, const char *value)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_set");

	if (rc < 0)
		return rc;
	if (!name || !value)
		return misuse("phys_run_set: no name or no value");
	return status(phys_sim_set(r->sim, name, value));
}

int
phys_run_set_numbers(phys_run *r, const char *name, const double *v, int n)
{
	GUARD(return out_of_memory(r))
	char num[40];
	int i;

	if (!r || !v || n <= 0)
		return misuse("phys_run_set_numbers: no run, or no numbers");
	phys_buf_clear(&r->text);
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			phys_fail("%s: the numbers must be finite", name ? name :
			    "phys_run_set_numbers");
			return PHYS_EVALUE;
		}
		phys_fmt_double(num, sizeof num, v[i]);
		if (i)
			phys_buf_putc(&r->text, ' ');
		phys_buf_puts(&r->text, num);
	}
	return phys_run_set(r, name, r->text.s);
}

int
phys_run_get(phys_run *r, const char *name, char *buf, size_t size)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_get");

	if (rc == PHYS_EUSE)
		return rc;
	if (!name || (size && !buf))
		return misuse("phys_run_get: no name, or no buffer");
	phys_buf_clear(&r->text);
	rc = phys_sim_get(r->sim, name, &r->text);
	if (rc < 0)
		return status(rc);
	if (size)
		snprintf(buf, size, "%s", r->text.s ? r->text.s : "");
	return (int)r->text.len;
}

int
phys_run_use_profile(phys_run *r, const char *profile)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_use_profile");

	if (rc < 0)
		return rc;
	if (!profile)
		return misuse("phys_run_use_profile: no profile name");
	return status(phys_sim_use_profile(r->sim, profile));
}

int
phys_run_control(phys_run *r, const char *line)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_control");

	if (rc < 0)
		return rc;
	if (!line)
		return misuse("phys_run_control: no line");
	rc = phys_sim_control(r->sim, line);
	if (rc == -1)
		return PHYS_EINPUT;
	if (rc < 0) {
		r->failed = true;
		return PHYS_ERUN;
	}
	return PHYS_OK;
}

int
phys_run_publish(phys_run *r, const char *topic, const char *msg)
{
	GUARD(return out_of_memory(r))
	int rc = check_run(r, "phys_run_publish");
	json_t *m, *line;
	json_error_t err;
	char *text;

	if (rc < 0)
		return rc;
	if (!topic || !msg)
		return misuse("phys_run_publish: no topic or no message");
	if (!(m = json_loads(msg, JSON_REJECT_DUPLICATES, &err))) {
		phys_fail("message on topic '%.80s' is not JSON: %s", topic,
		    err.text);
		return PHYS_EINPUT;
	}
	line = json_pack("{s:s, s:o}", "topic", topic, "msg", m);
	text = line ? json_dumps(line, JSON_COMPACT) : NULL;
	json_decref(line);
	if (!text)
		return misuse("phys_run_publish: the topic is not UTF-8");
	rc = phys_run_control(r, text);
	free(text);
	return rc;
}
