/*
 * sweep_runs.c - run lines read back, and the state files of their runs.
 *
 * A plan is read once through, a buffer at a time, whatever its size:
 * its lines are kept as text with an index (id, hash, where), and each
 * id is checked against the others in a hash table, so reading is linear
 * in the plan. run-one keeps only the lines it was asked for, and finds
 * the others' ids without parsing a line that begins as a plan's do.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "sweep.h"

/* ---- ids seen: an open-addressing table ---- */

struct idset {
	long long *slot;	/* -1: empty */
	size_t n, size;
};

static size_t
id_slot(const struct idset *s, long long id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15u;

	return (size_t)(h >> 17) & (s->size - 1);
}

/* false when id was there already. */
static bool
idset_add(struct idset *s, long long id)
{
	size_t i, old;
	long long *was;

	if (2 * (s->n + 1) > s->size) {
		was = s->slot;
		old = s->size;
		s->size = s->size ? 2 * s->size : 1024;
		s->slot = phys_xmalloc(s->size * sizeof *s->slot);
		memset(s->slot, 0xff, s->size * sizeof *s->slot);
		s->n = 0;
		for (i = 0; i < old; i++)
			if (was[i] >= 0)
				idset_add(s, was[i]);
		free(was);
	}
	for (i = id_slot(s, id); s->slot[i] >= 0; i = (i + 1) & (s->size - 1))
		if (s->slot[i] == id)
			return false;
	s->slot[i] = id;
	s->n++;
	return true;
}

static bool
idset_has(const struct idset *s, long long id)
{
	size_t i;

	if (s->size == 0)
		return false;
	for (i = id_slot(s, id); s->slot[i] >= 0; i = (i + 1) & (s->size - 1))
		if (s->slot[i] == id)
			return true;
	return false;
}

/* ---- one run line ---- */

/* FNV-1a over the line's JSON with sorted keys, "score" left out: the
 * same run written with other spacing or key order has the same hash. */
static uint64_t
run_hash(json_t *obj)
{
	uint64_t h = 14695981039346656037u;
	char *s, *c;

	json_object_del(obj, "score");
	s = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(17));
	for (c = s; c && *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211u;
	free(s);
	return h;
}

/* ---- a run line's options, as the options they stand for ---- */

/* v as it was written, for messages. */
static char *
json_text(json_t *v)
{
	char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	return t ? t : phys_xstrdup("?");
}

/* run's key, when there, a whole number of at least min, written as
 * one (the workers read no other); 0, or -1 when bad. */
static int
run_count(json_t *run, const char *key, long min)
{
	json_t *v = json_object_get(run, key);
	char *t;

	if (!v || (json_is_integer(v) && json_integer_value(v) >= min))
		return 0;
	t = json_text(v);
	phys_fail("\"%s\": %s is not a whole number of at least %ld (as "
	    "--%s)", key, t, min, key);
	free(t);
	return -1;
}

/* run's key, when there, a number of at least (or, !min_ok, above) min. */
static int
run_number(json_t *run, const char *key, double min, bool min_ok)
{
	json_t *v = json_object_get(run, key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;
	char *t;

	if (!v || (isfinite(d) && (d > min || (min_ok && d == min))))
		return 0;
	t = json_text(v);
	if (!json_is_number(v))
		phys_fail("\"%s\": %s is not a number (as --%s)", key, t, key);
	else
		phys_fail("\"%s\": %s must be %s %g (as --%s)", key, t,
		    min_ok ? "at least" : "above", min, key);
	free(t);
	return -1;
}

static int
run_options_check(json_t *run)
{
	static const char *const strings[] = { "preset", "control" };
	json_t *items = json_object_get(run, "items"), *v;
	const char *world = json_string_value(json_object_get(run, "world"));
	struct stat st;
	size_t i;

	/* a world that is there but no regular file (a FIFO would block
	 * every worker) fails the plan here, at its line; one that is
	 * missing fails its runs */
	if (world && !phys_path_is_stdin(world) && stat(world, &st) == 0 &&
	    !S_ISREG(st.st_mode))
		return phys_fail("\"world\": %s: not a regular file (%s)",
		    world, phys_file_kind(st.st_mode));
	if (run_count(run, "steps", 0) < 0 ||
	    run_number(run, "duration", 0, true) < 0 ||
	    run_count(run, "every", 1) < 0 ||
	    run_number(run, "rate", 0, false) < 0)
		return -1;
	for (i = 0; i < sizeof strings / sizeof *strings; i++)
		if ((v = json_object_get(run, strings[i])) &&
		    !json_is_string(v))
			return phys_fail("\"%s\" is not a string", strings[i]);
	if (items && !json_is_array(items))
		return phys_fail("\"items\" is not an array of names");
	json_array_foreach(items, i, v)
		if (!json_is_string(v))
			return phys_fail("\"items\" is not an array of names");
	return 0;
}

/*
 * A "set" value as -s takes it, before any run: a parameter some link,
 * collision or joint has (the profile or the world, for a name without
 * '/') and a value its type and range accept; which entity the name
 * matches, the world says when a run loads it. A pattern of parameters
 * is left to the run.
 */
static int
set_value_check(const char *name, const char *text)
{
	static const phys_scope entity[] = { PHYS_S_LINK, PHYS_S_COLLISION,
	    PHYS_S_JOINT }, whole[] = { PHYS_S_PHYSICS, PHYS_S_WORLD };
	const char *slash = strrchr(name, '/'), *pn = slash ? slash + 1 : name;
	const phys_scope *s = slash ? entity : whole;
	size_t i, n = slash ? 3 : 2;
	const struct phys_param *p;
	struct phys_value v;
	char *why = NULL;	/* the first parameter's refusal */
	int rc;

	if (strpbrk(pn, "*?["))
		return 0;
	for (i = 0; i < n; i++) {
		if (!(p = phys_param_find(s[i], pn)))
			continue;
		if (phys_value_parse(p, text, &v) == 0) {
			phys_value_free(&v);
			free(why);
			return 0;
		}
		if (!why)
			why = phys_xstrdup(phys_error());
	}
	if (!why)
		return phys_fail("\"set\": '%s': no %s parameter is named "
		    "'%s'", name, slash ? "link, collision or joint" :
		    "profile or world", pn);
	rc = phys_fail("\"set\": '%s': %s", name, why);
	free(why);
	return rc;
}

/* The line parsed and checked: its id and hash. */
static int
check_run(const char *line, long long *id, uint64_t *hash)
{
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *set, *v;
	const char *k;

	if (!json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("not a JSON object");
	}
	set = json_object_get(obj, "set");
	if (!json_is_integer(json_object_get(obj, "id")) ||
	    json_integer_value(json_object_get(obj, "id")) < 0 ||
	    !json_is_string(json_object_get(obj, "world")) ||
	    (set && !json_is_object(set))) {
		json_decref(obj);
		return phys_fail("a run line needs \"id\" (a whole number >= 0), "
		    "\"world\" and an object \"set\"");
	}
	if (run_options_check(obj) < 0) {
		json_decref(obj);
		return -1;
	}
	json_object_foreach(set, k, v)
		if (!json_is_string(v) || set_value_check(k,
		    json_string_value(v)) < 0) {
			/* k is obj's: said before obj goes */
			if (!json_is_string(v))
				phys_fail("\"set\": the value of '%s' is not "
				    "a string", k);
			json_decref(obj);
			return -1;
		}
	*id = json_integer_value(json_object_get(obj, "id"));
	*hash = run_hash(obj);
	json_decref(obj);
	return 0;
}

/* The id of a line that begins {"id":N, or {"id":N}; -1 otherwise. */
static long long
quick_id(const char *line)
{
	static const char head[] = "{\"id\":";
	long long id = 0;
	const char *c;

	if (strncmp(line, head, sizeof head - 1) != 0)
		return -1;
	c = line + sizeof head - 1;
	if (*c < '0' || *c > '9' || (*c == '0' && c[1] >= '0' && c[1] <= '9'))
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (id > (LLONG_MAX - 9) / 10)
			return -1;
		id = 10 * id + (*c - '0');
	}
	return *c == ',' || *c == '}' ? id : -1;
}

static void
keep(struct phys_sweep_runs *r, const char *line, size_t len, long long id,
    uint64_t hash, long lineno)
{
	if ((r->n & (r->n - 1)) == 0)	/* 0, 1, 2, 4...: room doubles */
		r->run = phys_xrealloc(r->run, (r->n ? 2 * r->n : 1) *
		    sizeof *r->run);
	r->run[r->n].id = id;
	r->run[r->n].hash = hash;
	r->run[r->n].off = r->text.len;
	r->run[r->n].lineno = lineno;
	r->n++;
	phys_buf_putn(&r->text, line, len);
	phys_buf_putc(&r->text, '\0');
}

/*
 * Every line of path through one(line, len, lineno, ctx), blank lines and
 * '#' comments left out; a failure gains "file:line: ". A plan is a
 * stream with no total limit: only a line is bounded.
 */
static int
each_run_line(struct phys_sweep_runs *r, const char *path,
    int (*one)(struct phys_sweep_runs *, char *, size_t, long, void *),
    void *ctx)
{
	struct phys_lines l;
	char *line;
	size_t len;
	int k, rc = 0;

	memset(r, 0, sizeof *r);
	r->name = phys_display_name(path);
	if (phys_lines_open_regular(&l, path, 0) < 0)	/* a FIFO: refused */
		return -1;
	while (rc == 0 && (k = phys_lines_next(&l, &line, &len)) > 0)
		if (!phys_blank_or_comment(line) &&
		    (rc = one(r, line, len, l.lineno, ctx)) < 0)
			phys_fail_again(r->name, l.lineno, "");
	if (rc == 0 && k < 0)
		rc = -1;
	phys_lines_close(&l);
	return rc;
}

struct load_all {
	struct idset seen;
};

static int
all_line(struct phys_sweep_runs *r, char *line, size_t len, long lineno,
    void *ctx)
{
	struct load_all *a = ctx;
	long long id;
	uint64_t hash;

	if (check_run(line, &id, &hash) < 0)
		return -1;
	if (!idset_add(&a->seen, id))
		return phys_fail("run %lld comes twice", id);
	keep(r, line, len, id, hash, lineno);
	return 0;
}

int
phys_sweep_runs_load(struct phys_sweep_runs *r, const char *path)
{
	struct load_all a = { { NULL, 0, 0 } };
	int rc = each_run_line(r, path, all_line, &a);

	free(a.seen.slot);
	return rc;
}

struct load_ids {
	struct idset seen, want;
};

static int
id_line(struct phys_sweep_runs *r, char *line, size_t len, long lineno,
    void *ctx)
{
	struct load_ids *a = ctx;
	long long id = quick_id(line);
	uint64_t hash = 0;

	if (id < 0 || idset_has(&a->want, id))
		if (check_run(line, &id, &hash) < 0)
			return -1;
	if (!idset_add(&a->seen, id))
		return phys_fail("run %lld comes twice", id);
	if (idset_has(&a->want, id))
		keep(r, line, len, id, hash, lineno);
	return 0;
}

int
phys_sweep_runs_load_ids(struct phys_sweep_runs *r, const char *path,
    const long long *ids, size_t n)
{
	struct load_ids a = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		idset_add(&a.want, ids[i]);
	rc = each_run_line(r, path, id_line, &a);
	for (i = 0; i < n && rc == 0; i++)
		if (!idset_has(&a.seen, ids[i]))
			rc = phys_fail("%s has no run %lld", r->name, ids[i]);
	free(a.seen.slot);
	free(a.want.slot);
	return rc;
}

json_t *
phys_sweep_run_json(const struct phys_sweep_runs *r, size_t i)
{
	return json_loads(r->text.s + r->run[i].off, 0, NULL);
}

int
phys_sweep_runs_parse(struct phys_sweep_runs *r)
{
	size_t i;

	r->v = phys_xcalloc(r->n + 1, sizeof *r->v);
	for (i = 0; i < r->n; i++)
		if (!(r->v[i] = phys_sweep_run_json(r, i)))
			return phys_failat(r->name, r->run[i].lineno,
			    "not a JSON object");
	return 0;
}

void
phys_sweep_runs_free(struct phys_sweep_runs *r)
{
	for (size_t i = 0; r->v && i < r->n; i++)
		json_decref(r->v[i]);
	free(r->v);
	free(r->run);
	phys_buf_free(&r->text);
	memset(r, 0, sizeof *r);
}

long long
phys_sweep_run_id(json_t *run)
{
	return json_integer_value(json_object_get(run, "id"));
}

char *
phys_sweep_state_path(const char *dir, long long id)
{
	return phys_xasprintf("%s/%lld.jsonl", dir, id);
}

/* ---- state files ---- */

char *
phys_sweep_run_tag(const struct phys_sweep_run *run)
{
	return phys_xasprintf("\"sweep_run\":\"%016llx\"",
	    (unsigned long long)run->hash);
}

/*
 * The tag is in the first line, after "t" and "iter": the first few
 * hundred bytes of the file hold it, however long the line.
 */
enum phys_sweep_state
phys_sweep_state(const char *dir, const struct phys_sweep_run *run)
{
	char *path = phys_sweep_state_path(dir, run->id), *tag, head[512];
	enum phys_sweep_state st = PHYS_SWEEP_NOT_RUN;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	free(path);
	if (fd < 0)
		return st;
	do
		n = read(fd, head, sizeof head - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return st;
	head[n] = '\0';
	tag = phys_sweep_run_tag(run);
	st = strstr(head, tag) ? PHYS_SWEEP_DONE : PHYS_SWEEP_OTHER;
	free(tag);
	return st;
}

void
phys_sweep_put_run(json_t *run, FILE *out)
{
	char *s = json_dumps(run, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(17));

	fputs(s, out);
	putc('\n', out);
	free(s);
	phys_signal_check();
}

int
phys_sweep_stream(const char *dir, const struct phys_sweep_runs *r,
    FILE *out)
{
	struct phys_lines l;
	char *path, *line;
	size_t len;
	int rc = 0, k;

	for (size_t i = 0; i < r->n && rc == 0; i++) {
		if (phys_sweep_state(dir, &r->run[i]) != PHYS_SWEEP_DONE)
			continue;
		path = phys_sweep_state_path(dir, r->run[i].id);
		rc = phys_lines_open(&l, path, 0);
		while (rc == 0 && (k = phys_lines_next(&l, &line, &len)) > 0) {
			if (len < 2 || line[0] != '{')
				continue;
			fprintf(out, "{\"run\":%lld,%s\n", r->run[i].id,
			    line + 1);
			phys_signal_check();
		}
		if (rc == 0)
			phys_lines_close(&l);
		free(path);
	}
	return rc;
}
