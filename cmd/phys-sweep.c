/* phys-sweep - many runs of one world: plan them, run them, score them,
 * keep the best as a profile, and plot the score landscape. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "introspect.h"
#include "plot.h"
#include "paramio.h"
#include "preset.h"
#include "ref.h"
#include "sim.h"
#include "world.h"

/* Also the SYNOPSIS of phys-sweep(1): keep the two the same. */
static const char usage_text[] =
    "usage: phys-sweep plan [OPTION]... WORLD [NAME=VALUES]...\n"
    "       phys-sweep run [-j N] [-o DIR] [--stream] [PLAN | -]\n"
    "       phys-sweep run-one [-o DIR] PLAN ID...\n"
    "       phys-sweep score [-o DIR] SCORE PLAN [SELECTOR]...\n"
    "       phys-sweep best [-k N] [--maximize] [SCORES | -]\n"
    "       phys-sweep best --save-as NAME [-i] [--maximize] SCORES WORLD\n"
    "       phys-sweep plot [-o FILE] [--script FILE] [SCORES | -]\n";

static const char help_text[] =
    "\n"
    "Expand a sweep of parameter values into runs of a world (JSON lines),\n"
    "run them on local workers or hand them to GNU parallel or Slurm,\n"
    "score each run, keep the best values as a physics profile and plot\n"
    "the score against each swept parameter.\n"
    "\n"
    "plan: NAME=V1,V2,... or NAME=LO:HI:N (a grid); with --random or --lhs,\n"
    "NAME=LO:HI (a sample). Run options as phys-step's:\n"
    "  -c, --control FILE   control lines for every run\n"
    "  -e, --every N        write every Nth step\n"
    "  -I, --items GLOB     items to write (repeatable)\n"
    "  -l, --list FILE      runs from FILE: one JSON object of NAME:VALUE a line\n"
    "      --lhs N          N runs, a Latin-hypercube sample\n"
    "  -n, --steps N        steps of each run\n"
    "  -p, --preset NAME    starting profile of each run\n"
    "      --random N       N runs, values drawn uniformly\n"
    "      --seed S         seed of --random and --lhs (default 1)\n"
    "  -t, --duration SEC   simulated time of each run (default 1)\n"
    "\n"
    "run, run-one, score, plot:\n"
    "  -j, --jobs N         run N at a time (default: the number of cores)\n"
    "  -o, --output DIR     where run states go (default runs); plot: the\n"
    "                       image, FILE.png or FILE.svg (default: terminal)\n"
    "      --stream         also write every run's state lines on stdout,\n"
    "                       each with its \"run\" id, in plan order\n"
    "      --script FILE    plot: write the gnuplot script, data included,\n"
    "                       to FILE instead of running gnuplot\n"
    "SCORE is final:EXPR, max:EXPR, min:EXPR or diff:REF (the RMS difference\n"
    "of the selected fields from the run REF); EXPR as phys-introspect\n"
    "derive's.\n"
    "\n"
    "best:\n"
    "  -k, --keep N         print the N best runs (default 1)\n"
    "      --maximize       a higher score is better (default: lower)\n"
    "  -s, --save-as NAME   add the best run's values to WORLD as profile NAME\n"
    "  -i, --in-place       replace WORLD (via a temporary file)\n"
    "  -h, --help           show this help\n"
    "      --version        show the version\n";

enum {
	OPT_VERSION = 256, OPT_LHS, OPT_RANDOM, OPT_SEED, OPT_STREAM,
	OPT_MAXIMIZE, OPT_SCRIPT
};

static const struct option longopts[] = {
	{ "control", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 't' },
	{ "every", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, 'i' },
	{ "items", required_argument, NULL, 'I' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "keep", required_argument, NULL, 'k' },
	{ "lhs", required_argument, NULL, OPT_LHS },
	{ "list", required_argument, NULL, 'l' },
	{ "maximize", no_argument, NULL, OPT_MAXIMIZE },
	{ "output", required_argument, NULL, 'o' },
	{ "preset", required_argument, NULL, 'p' },
	{ "random", required_argument, NULL, OPT_RANDOM },
	{ "save-as", required_argument, NULL, 's' },
	{ "script", required_argument, NULL, OPT_SCRIPT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "steps", required_argument, NULL, 'n' },
	{ "stream", no_argument, NULL, OPT_STREAM },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const commands[] = {
	"plan", "run", "run-one", "score", "best", "plot", NULL
};

enum sample { GRID, RANDOM, LHS };

struct opts {
	/* plan */
	struct phys_run_options run;	/* -c -e -I -n -p -t, as phys-step's */
	const char *list;
	long nsample;
	enum sample sample;
	unsigned long long seed;
	/* run, score, plot */
	long jobs;
	const char *output, *script;
	bool stream;
	/* best */
	long keep;
	bool maximize, in_place;
	const char *save_as;
};

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (phys_run_option(c, 'I', optarg, usage_text, &o->run))
			continue;
		switch (c) {
		case 'i':
			o->in_place = true;
			break;
		case 'j':
			o->jobs = phys_arg_count(usage_text, "--jobs", optarg,
			    1);
			break;
		case 'k':
			o->keep = phys_arg_count(usage_text, "--keep", optarg,
			    1);
			break;
		case 'l':
			o->list = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 's':
			o->save_as = optarg;
			break;
		case OPT_LHS:
		case OPT_RANDOM:
			o->sample = c == OPT_LHS ? LHS : RANDOM;
			o->nsample = phys_arg_count(usage_text, c == OPT_LHS ?
			    "--lhs" : "--random", optarg, 1);
			break;
		case OPT_SEED:
			o->seed = (unsigned long long)phys_arg_count(usage_text,
			    "--seed", optarg, 0);
			break;
		case OPT_STREAM:
			o->stream = true;
			break;
		case OPT_MAXIMIZE:
			o->maximize = true;
			break;
		case OPT_SCRIPT:
			o->script = optarg;
			break;
		case 'h':
			phys_help(usage_text, help_text);
		case OPT_VERSION:
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
	}
}

/* ---- plan: values of each swept name, combined into runs ---- */

struct axis {
	char *name;
	char **vals;		/* grid: the values as SDF text */
	size_t n;
	double lo, hi;		/* samples */
};

static void
axis_push(struct axis *a, char *text)
{
	a->vals = phys_xrealloc(a->vals, (a->n + 1) * sizeof *a->vals);
	a->vals[a->n++] = text;
}

/* Grid values as text that reads back to the intended numbers: %.12g
 * turns 0.1 + 3 * 0.2 into 0.7, not 0.7000000000000001. */
static char *
grid_value(double lo, double hi, long i, long n)
{
	double v = n == 1 ? lo : lo + (hi - lo) * (double)i / (double)(n - 1);

	return phys_xasprintf("%.12g", v);
}

static void
parse_axis(struct axis *a, const char *arg, enum sample sample)
{
	const char *eq = strchr(arg, '=');
	char *spec, *p, *q, *r;
	long n = 0;

	if (!eq || eq == arg)
		phys_usage_error(usage_text, "'%s': expected NAME=VALUES", arg);
	memset(a, 0, sizeof *a);
	a->name = phys_xstrndup(arg, (size_t)(eq - arg));
	spec = phys_xstrdup(eq + 1);
	p = strchr(spec, ':');
	if (sample != GRID || (p && !strchr(spec, ','))) {
		if (!p)
			phys_usage_error(usage_text, "'%s': expected NAME=LO:HI%s",
			    arg, sample == GRID ? ":N" : "");
		*p++ = '\0';
		q = strchr(p, ':');
		if (q)
			*q++ = '\0';
		if (!phys_parse_double(spec, &a->lo) ||
		    !phys_parse_double(p, &a->hi) ||
		    (sample == GRID && (!q || !phys_parse_long(q, &n) ||
		    n < 1)) || (sample != GRID && q))
			phys_usage_error(usage_text, "'%s': expected NAME=LO:HI%s",
			    arg, sample == GRID ? ":N with N >= 1" : "");
		for (long i = 0; i < n; i++)
			axis_push(a, grid_value(a->lo, a->hi, i, n));
		free(spec);
		return;
	}
	for (p = spec; (r = strsep(&p, ",")) != NULL;) {
		if (!*r)
			phys_usage_error(usage_text, "'%s': an empty value", arg);
		axis_push(a, phys_xstrdup(r));
	}
	free(spec);
}

/* splitmix64: a small generator with a fixed, documented sequence, so a
 * seed gives the same sample on every machine. */
static uint64_t rng_state;

static uint64_t
rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
rng_unit(void)	/* [0, 1) */
{
	return (double)(rng_next() >> 11) * 0x1.0p-53;
}

/* Values of axis a for n runs: uniform, or one in each of n strata in a
 * random order (Latin hypercube). */
static void
sample_axis(struct axis *a, long n, enum sample sample)
{
	long *perm = phys_xcalloc((size_t)n, sizeof *perm), i, j, t;
	double u;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (long)(rng_next() % (uint64_t)(i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++) {
		u = sample == LHS ? ((double)perm[i] + rng_unit()) / (double)n :
		    rng_unit();
		axis_push(a, phys_xasprintf("%.10g", a->lo + (a->hi - a->lo) * u));
	}
	free(perm);
}

/* A name must mean something in the world, and each of its values must
 * suit it, before a thousand runs fail on it: a glob must match, a plain
 * name resolve, and the value parse for every parameter it names. */
static int
check_value(struct phys_world *w, const struct phys_ref *r, void *ctx)
{
	struct phys_value v;
	int rc;

	memset(&v, 0, sizeof v);
	rc = phys_value_parse(r->p, ctx, &v);
	phys_value_free(&v);
	return rc;
}

static void
check_values(struct phys_world *w, const char *name, int profile,
    char *const *vals, size_t n)
{
	struct phys_ref r;
	size_t i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		if (phys_has_glob(name)) {
			rc = phys_ref_each(w, name, profile, check_value,
			    vals[i]);
			if (rc == 0)
				phys_die(PHYS_EXIT_FAIL, "no parameter matches "
				    "'%s'", name);
			rc = rc < 0 ? -1 : 0;
		} else if ((rc = phys_ref_resolve(w, name, profile, &r)) == 0) {
			rc = check_value(w, &r, vals[i]);
		}
	}
	if (rc < 0)
		phys_die(PHYS_EXIT_FAIL, "%s=%s: %s", name, vals[i - 1],
		    phys_error());
}

struct list_ctx {
	json_t *lines;
};

static int
list_line(char *line, long lineno, void *ctx)
{
	struct list_ctx *lc = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *set,
	    *v;
	struct phys_buf text = { 0 };
	const char *k;

	if (!json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("expected a JSON object of NAME:VALUE");
	}
	set = json_object();
	json_object_foreach(obj, k, v) {
		phys_buf_clear(&text);
		if (phys_json_to_text(v, &text) < 0) {
			json_decref(set);
			json_decref(obj);
			phys_buf_free(&text);
			return -1;
		}
		json_object_set_new(set, k, json_string(text.s ? text.s : ""));
	}
	phys_buf_free(&text);
	json_decref(obj);
	json_array_append_new(lc->lines, set);
	return 0;
}

/* The run line's fixed part: everything but its id and values. */
static json_t *
run_base(const struct phys_run_options *o, const char *world)
{
	json_t *base = json_object(), *items;
	size_t i;

	json_object_set_new(base, "world", json_string(world));
	if (o->preset)
		json_object_set_new(base, "preset", json_string(o->preset));
	if (o->control)
		json_object_set_new(base, "control", json_string(o->control));
	if (o->steps >= 0)
		json_object_set_new(base, "steps", json_integer(o->steps));
	else
		json_object_set_new(base, "duration", json_real(o->duration));
	if (o->every > 1)
		json_object_set_new(base, "every", json_integer(o->every));
	if (o->nitems) {
		items = json_array();
		for (i = 0; i < o->nitems; i++)
			json_array_append_new(items, json_string(o->items[i]));
		json_object_set_new(base, "items", items);
	}
	return base;
}

static void
print_json(json_t *line)
{
	char *s = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(17));

	puts(s);
	free(s);
	phys_signal_check();
}

static void
emit_run(json_t *base, long id, json_t *fixed, struct axis *ax, size_t nax,
    const long *pick)
{
	json_t *line = json_object(), *set = json_object(), *v;
	const char *k;
	size_t i;

	json_object_set_new(line, "id", json_integer(id));
	json_object_update(line, base);
	json_object_foreach(fixed, k, v)
		json_object_set(set, k, v);
	for (i = 0; i < nax; i++)
		json_object_set_new(set, ax[i].name,
		    json_string(ax[i].vals[pick[i]]));
	json_object_set_new(line, "set", set);
	print_json(line);
	json_decref(line);
}

static int
cmd_plan(struct opts *o, int argc, char **argv)
{
	struct list_ctx lc = { json_array() };
	struct phys_world w;
	struct axis *ax;
	json_t *base, *fixed;
	size_t nax = argc > 0 ? (size_t)argc - 1 : 0, i, k;
	long *pick, id = 0, nruns = 1;
	int profile;
	const char *name;
	json_t *v;

	if (argc < 1)
		usage();
	if (o->sample != GRID && nax == 0)
		phys_usage_error(usage_text, "--random and --lhs need "
		    "NAME=LO:HI operands");
	ax = phys_xcalloc(nax + 1, sizeof *ax);
	for (i = 0; i < nax; i++)
		parse_axis(&ax[i], argv[i + 1], o->sample);
	if (o->list && phys_each_line(o->list, list_line, &lc) < 0) {
		phys_report();
		return PHYS_EXIT_FAIL;
	}
	if (!o->list)
		json_array_append_new(lc.lines, json_object());
	if (phys_world_open(&w, argv[0], false) < 0)
		return PHYS_EXIT_FAIL;
	profile = o->run.preset ? phys_world_find_profile(&w, o->run.preset) :
	    w.start;
	if (profile < 0) {
		phys_report();
		exit(PHYS_EXIT_USAGE);
	}
	rng_state = o->seed;
	if (o->sample != GRID)
		for (i = 0; i < nax; i++)
			sample_axis(&ax[i], o->nsample, o->sample);
	for (i = 0; i < nax; i++)
		check_values(&w, ax[i].name, profile, ax[i].vals, ax[i].n);
	json_array_foreach(lc.lines, k, fixed)
		json_object_foreach(fixed, name, v) {
			char *text = (char *)json_string_value(v);

			check_values(&w, name, profile, &text, 1);
		}
	phys_world_free(&w);
	base = run_base(&o->run, argv[0]);
	pick = phys_xcalloc(nax + 1, sizeof *pick);
	json_array_foreach(lc.lines, k, fixed) {
		if (o->sample != GRID) {
			for (long s = 0; s < o->nsample; s++) {
				for (i = 0; i < nax; i++)
					pick[i] = s;
				emit_run(base, id++, fixed, ax, nax, pick);
			}
			continue;
		}
		/* the grid, the first name varying slowest */
		for (i = 0, nruns = 1; i < nax; i++)
			nruns *= (long)ax[i].n;
		memset(pick, 0, (nax + 1) * sizeof *pick);
		for (long r = 0; r < nruns; r++) {
			emit_run(base, id++, fixed, ax, nax, pick);
			for (i = nax; i-- > 0;) {
				if (++pick[i] < (long)ax[i].n)
					break;
				pick[i] = 0;
			}
		}
	}
	for (i = 0; i < nax; i++) {
		for (k = 0; k < ax[i].n; k++)
			free(ax[i].vals[k]);
		free(ax[i].vals);
		free(ax[i].name);
	}
	free(ax);
	free(pick);
	json_decref(base);
	json_decref(lc.lines);
	return PHYS_EXIT_OK;
}

/* ---- the run list ---- */

struct plan {
	json_t **runs;
	size_t n;
	const char *name;
};

static int
plan_line(char *line, long lineno, void *ctx)
{
	struct plan *p = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *set, *v;
	const char *k;
	size_t i;

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
	json_object_foreach(set, k, v)
		if (!json_is_string(v)) {
			json_decref(obj);
			return phys_fail("\"set\": the value of '%s' is not a "
			    "string", k);
		}
	for (i = 0; i < p->n; i++)
		if (json_integer_value(json_object_get(p->runs[i], "id")) ==
		    json_integer_value(json_object_get(obj, "id"))) {
			json_decref(obj);
			return phys_fail("run %lld comes twice",
			    (long long)json_integer_value(json_object_get(obj,
			    "id")));
		}
	p->runs = phys_xrealloc(p->runs, (p->n + 1) * sizeof *p->runs);
	p->runs[p->n++] = obj;
	return 0;
}

static void
plan_load(struct plan *p, const char *path, const char *what)
{
	if (strcmp(path, "-") == 0)
		phys_stdin_hint(what);
	memset(p, 0, sizeof *p);
	p->name = path;
	if (phys_each_line(path, plan_line, p) < 0) {
		phys_report();
		exit(PHYS_EXIT_FAIL);
	}
}

static void
plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		json_decref(p->runs[i]);
	free(p->runs);
}

static long long
run_id(json_t *run)
{
	return json_integer_value(json_object_get(run, "id"));
}

static const char *
str_member(json_t *run, const char *key)
{
	return json_string_value(json_object_get(run, key));
}

static char *
state_path(const char *dir, json_t *run)
{
	return phys_xasprintf("%s/%lld.jsonl", dir, run_id(run));
}

/* A state file that exists and is not empty is a finished run. (Files
 * are renamed into place without waiting for the disk, which the sweep
 * syncs once at its end: after a system crash in a sweep, a renamed file
 * can be empty, and that one is run again.) */
static bool
finished(const char *dir, json_t *run)
{
	char *path = state_path(dir, run);
	struct stat st;
	bool done = stat(path, &st) == 0 && st.st_size > 0;

	free(path);
	return done;
}

/* ---- running: a few forked workers, each many runs ---- */

/*
 * The sweep forks its workers once, after the world is loaded: each takes
 * run after run from the sweep through a pipe and calls phys_sim_run, and
 * says through another pipe how each ended. No exec, no dynamic linking,
 * no SDF parsing and no fork per run, so short runs cost what their steps
 * cost (exec'ing phys-step per run spends most of a short run loading the
 * program and its libraries; a fork per run copied the loaded program's
 * page tables and took its pages again one fault at a time; make bench
 * measures the sweep). A run that crashes or is killed takes only its
 * worker down: the sweep counts that run failed and forks another worker.
 * A run writes a hidden temporary file and renames it into place when it
 * is complete, so a state file that exists is a finished run: that is
 * what resuming trusts.
 */
static struct phys_world cur_world;
static char *cur_world_path;

static int
world_for(json_t *run)
{
	const char *path = str_member(run, "world");
	struct phys_load_options lo;

	if (cur_world_path && strcmp(cur_world_path, path) == 0)
		return 0;
	if (cur_world_path)
		phys_world_free(&cur_world);
	free(cur_world_path);
	cur_world_path = NULL;
	phys_load_options_default(&lo);
	if (phys_world_load(&cur_world, path, &lo) < 0) {
		phys_report();
		phys_world_free(&cur_world);
		return -1;
	}
	cur_world_path = phys_xstrdup(path);
	return 0;
}

static void
run_options(json_t *run, struct phys_run_options *o)
{
	json_t *set = json_object_get(run, "set"), *v, *items;
	const char *k;
	size_t i;

	phys_run_options_default(o);
	o->preset = str_member(run, "preset");
	o->control = str_member(run, "control");
	if (json_is_integer(json_object_get(run, "steps")))
		o->steps = json_integer_value(json_object_get(run, "steps"));
	if (json_is_number(json_object_get(run, "duration"))) {
		o->duration = json_number_value(json_object_get(run,
		    "duration"));
		o->steps = -1;
	}
	if (json_is_integer(json_object_get(run, "every")))
		o->every = json_integer_value(json_object_get(run, "every"));
	items = json_object_get(run, "items");
	if (json_is_array(items)) {
		o->items = phys_xcalloc(json_array_size(items) + 1, sizeof *o->items);
		json_array_foreach(items, i, v)
			if (json_is_string(v))
				o->items[o->nitems++] = (char *)json_string_value(v);
	}
	o->sets = phys_xcalloc(json_object_size(set) + 1, sizeof *o->sets);
	json_object_foreach(set, k, v)
		o->sets[o->nsets++] = phys_xasprintf("%s=%s", k, json_string_value(v));
}

static void
run_options_free(struct phys_run_options *o)
{
	while (o->nsets > 0)
		free(o->sets[--o->nsets]);
	free(o->sets);
	free(o->items);
}

static char *
part_path(const char *dir, json_t *run)
{
	return phys_xasprintf("%s/.%lld.part", dir, run_id(run));
}

/* In a worker: one run into DIR/.ID.part, renamed to DIR/ID.jsonl. */
static int
do_run(const char *dir, json_t *run)
{
	struct phys_run_options o;
	char *path, *tmp;
	FILE *fp;
	int rc;

	if (world_for(run) < 0)
		return PHYS_EXIT_FAIL;
	path = state_path(dir, run);
	tmp = part_path(dir, run);
	if (!(fp = fopen(tmp, "w"))) {
		phys_warn("%s: %s", tmp, strerror(errno));
		free(path);
		free(tmp);
		return PHYS_EXIT_FAIL;
	}
	run_options(run, &o);
	rc = phys_sim_run(&cur_world, &o, fp);
	run_options_free(&o);
	if (fflush(fp) != 0 || ferror(fp)) {
		phys_warn("%s: %s", tmp, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (fclose(fp) != 0 && rc == PHYS_EXIT_OK) {
		phys_warn("%s: %s", tmp, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (rc == PHYS_EXIT_OK && rename(tmp, path) != 0) {
		phys_warn("%s: %s", path, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (rc != PHYS_EXIT_OK)
		unlink(tmp);
	free(path);
	free(tmp);
	return rc;
}

/* What a worker says of each run it was given. */
struct result {
	size_t run;	/* index in the plan */
	int status;	/* PHYS_EXIT_* */
	double seconds;
};

struct worker {
	pid_t pid;	/* 0: none */
	int task;	/* the sweep writes run indexes here */
	int done;	/* and reads a struct result a run here */
	bool busy;
	size_t run;	/* the run it was given, while busy */
};

static volatile sig_atomic_t stop_signal;

static void
on_stop(int sig)
{
	stop_signal = sig;
}

static const int stop_sigs[] = { SIGTERM, SIGHUP, SIGINT };

static void
stop_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof stop_sigs / sizeof *stop_sigs; i++)
		sigaddset(&set, stop_sigs[i]);
	sigprocmask(how, &set, NULL);
}

/* The sweep takes a stop request only while it waits for its workers
 * (ppoll lets it in), so that it is never missed just before the wait,
 * and ends the workers first. */
static void
catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_sigs / sizeof *stop_sigs; i++)
		sigaction(stop_sigs[i], &sa, NULL);
	stop_mask(SIG_BLOCK);
}

/* A stop request that came is taken (or comes) as the signal itself. */
static void
default_stop(void)
{
	for (size_t i = 0; i < sizeof stop_sigs / sizeof *stop_sigs; i++)
		signal(stop_sigs[i], SIG_DFL);
	stop_mask(SIG_UNBLOCK);
}

/* A worker's life: runs until the sweep closes its task pipe. Messages
 * are a few bytes, so each read and write is whole (PIPE_BUF). */
static _Noreturn void
worker_loop(const char *dir, struct plan *p, int task, int done)
{
	struct result res;
	ssize_t n;
	double start;

	memset(&res, 0, sizeof res);
	for (;;) {
		n = read(task, &res.run, sizeof res.run);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			_exit(PHYS_EXIT_OK);
		if (n != sizeof res.run || res.run >= p->n)
			_exit(PHYS_EXIT_FAIL);
		start = phys_seconds();
		res.status = do_run(dir, p->runs[res.run]);
		res.seconds = phys_seconds() - start;
		if (write(done, &res, sizeof res) != sizeof res)
			_exit(PHYS_EXIT_FAIL);
	}
}

static void
start_worker(struct worker *wk, long jobs, long i, const char *dir,
    struct plan *p, pid_t parent)
{
	int task[2], done[2];

	if (pipe(task) < 0 || pipe(done) < 0)
		phys_die(PHYS_EXIT_FAIL, "pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((wk[i].pid = fork()) < 0)
		phys_die(PHYS_EXIT_FAIL, "fork: %s", strerror(errno));
	if (wk[i].pid == 0) {
		default_stop();
		/* A worker dies with its sweep: no orphan writes a run a
		 * resumed sweep is also writing. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(PHYS_EXIT_FAIL);
		/* The other workers' pipes are theirs: a copy held here
		 * would hide their end from them and from the sweep. */
		for (long j = 0; j < jobs; j++)
			if (wk[j].pid > 0 && j != i) {
				close(wk[j].task);
				close(wk[j].done);
			}
		close(task[1]);
		close(done[0]);
		worker_loop(dir, p, task[0], done[1]);
	}
	close(task[0]);
	close(done[1]);
	wk[i].task = task[1];
	wk[i].done = done[0];
	wk[i].busy = false;
}

/* After the worker's end of its pipe closed: how it ended. */
static int
reap(struct worker *w)
{
	int status;

	close(w->task);
	close(w->done);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One line a finished run to DIR/log.jsonl: which runs ran, how they
 * ended, how long they took. */
static void
log_run(int logfd, json_t *run, int status, double seconds)
{
	char line[128];
	int n;

	if (logfd < 0)
		return;
	n = snprintf(line, sizeof line, "{\"id\":%lld,\"status\":%d,"
	    "\"seconds\":%.3f}\n", run_id(run), status, seconds);
	if (write(logfd, line, (size_t)n) != n)
		phys_warn_once("cannot write the run log: %s", strerror(errno));
}

struct sweep {
	const char *dir;
	struct plan *p;
	const bool *want;
	struct worker *wk;
	long jobs;
	size_t next;	/* the next run to look at */
	int logfd;
	bool tty;
	size_t todo, done, failed, skipped;
	double start;
};

static void
progress(const struct sweep *s)
{
	double spent = phys_seconds() - s->start;
	size_t ended = s->done + s->failed;
	double eta = ended ? spent * (double)(s->todo - ended) / (double)ended
	    : 0;

	phys_status("%s: %zu/%zu runs, %zu failed, ETA %.0f s", phys_progname,
	    ended, s->todo, s->failed, eta);
}

static void
ended(struct sweep *s, size_t run, int status, double seconds)
{
	log_run(s->logfd, s->p->runs[run], status, seconds);
	if (status == 0) {
		s->done++;
	} else {
		s->failed++;
		phys_warn("run %lld failed (%s %d)", run_id(s->p->runs[run]),
		    status > 128 ? "signal" : "exit status", status > 128 ?
		    status - 128 : status);
	}
	if (s->tty)
		progress(s);
}

/* The next run to give a worker, or p->n. A world that cannot be loaded
 * fails its runs here (said once each), without a worker. */
static size_t
next_run(struct sweep *s)
{
	size_t r;

	while ((r = s->next) < s->p->n) {
		s->next++;
		if (!s->want[r] || finished(s->dir, s->p->runs[r]))
			continue;
		if (world_for(s->p->runs[r]) == 0)
			return r;
		s->failed++;
		log_run(s->logfd, s->p->runs[r], PHYS_EXIT_FAIL, 0);
	}
	return r;
}

/* Run r to worker i, forked now if it has none (yet, or any more: one
 * that died between runs leaves a pipe no one reads). */
static void
give(struct sweep *s, long i, size_t r, pid_t self)
{
	struct worker *w = &s->wk[i];

	if (w->pid > 0 && write(w->task, &r, sizeof r) != sizeof r)
		reap(w);
	else if (w->pid > 0)
		goto given;
	start_worker(s->wk, s->jobs, i, s->dir, s->p, self);
	if (write(w->task, &r, sizeof r) != sizeof r)
		phys_die(PHYS_EXIT_FAIL, "cannot give a run to a worker: %s",
		    strerror(errno));
given:
	w->busy = true;
	w->run = r;
}

/* Give every idle worker a run, forking workers up to -j while there
 * are runs: how many workers are busy. */
static long
dispatch(struct sweep *s, pid_t self)
{
	long busy = 0, i;
	size_t r;

	for (i = 0; i < s->jobs; i++) {
		if (!stop_signal && !(s->wk[i].pid > 0 && s->wk[i].busy) &&
		    (r = next_run(s)) < s->p->n) {
			give(s, i, r, self);
			s->wk[i].run = r;
		}
		busy += s->wk[i].pid > 0 && s->wk[i].busy;
	}
	return busy;
}

/* Wait until a worker reports a run, or dies in one. */
static void
collect(struct sweep *s)
{
	struct pollfd *fds = phys_xcalloc((size_t)s->jobs, sizeof *fds);
	struct result res;
	struct worker *w;
	sigset_t open;
	ssize_t n;
	char *tmp;
	int status;

	for (long i = 0; i < s->jobs; i++) {
		fds[i].fd = s->wk[i].pid > 0 && s->wk[i].busy ?
		    s->wk[i].done : -1;
		fds[i].events = POLLIN;
	}
	sigprocmask(SIG_SETMASK, NULL, &open);
	for (size_t k = 0; k < sizeof stop_sigs / sizeof *stop_sigs; k++)
		sigdelset(&open, stop_sigs[k]);
	if (ppoll(fds, (nfds_t)s->jobs, NULL, &open) < 0) {
		free(fds);
		return;		/* EINTR: a stop request */
	}
	for (long i = 0; i < s->jobs; i++) {
		w = &s->wk[i];
		if (fds[i].fd < 0 || !fds[i].revents)
			continue;
		n = read(w->done, &res, sizeof res);
		if (n < 0 && errno == EINTR)
			continue;
		w->busy = false;
		if (n == sizeof res && res.run == w->run) {
			ended(s, res.run, res.status, res.seconds);
			continue;
		}
		/* Dead in the middle of a run (or gone astray: ended
		 * here): its file goes, and a new worker takes the next
		 * run. */
		kill(w->pid, SIGKILL);
		tmp = part_path(s->dir, s->p->runs[w->run]);
		unlink(tmp);
		free(tmp);
		status = reap(w);
		ended(s, w->run, status ? status : PHYS_EXIT_FAIL, 0);
	}
	free(fds);
}

/* On a stop request: the workers end, and so do their partial files. */
static void
stop_workers(struct sweep *s)
{
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0)
			kill(s->wk[i].pid, SIGTERM);
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0) {
			bool busy = s->wk[i].busy;
			char *tmp = part_path(s->dir, s->p->runs[s->wk[i].run]);

			reap(&s->wk[i]);
			if (busy)
				unlink(tmp);
			free(tmp);
		}
}

/* The end: idle workers read the end of their pipe and exit. */
static void
end_workers(struct sweep *s)
{
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0)
			reap(&s->wk[i]);
}

/* The state files on the disk, with one sync for the whole sweep rather
 * than one a run. */
static void
sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || syncfs(fd) < 0)
		phys_warn("%s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static int
run_plan(const struct opts *o, struct plan *p, const bool *want)
{
	struct sweep s = { 0 };
	void (*pipe_was)(int);
	char *logpath;
	int sig;
	pid_t self = getpid();

	s.dir = o->output ? o->output : "runs";
	s.p = p;
	s.want = want;
	s.jobs = o->jobs;
	s.tty = phys_stderr_is_tty();
	if (mkdir(s.dir, 0777) < 0 && errno != EEXIST)
		phys_die(PHYS_EXIT_FAIL, "%s: %s", s.dir, strerror(errno));
	logpath = phys_xasprintf("%s/log.jsonl", s.dir);
	s.logfd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0666);
	if (s.logfd < 0)
		phys_warn("%s: %s", logpath, strerror(errno));
	free(logpath);
	for (size_t r = 0; r < p->n; r++)
		if (want[r]) {
			if (finished(s.dir, p->runs[r]))
				s.skipped++;
			else
				s.todo++;
		}
	s.wk = phys_xcalloc((size_t)s.jobs, sizeof *s.wk);
	s.start = phys_seconds();
	catch_stop();
	/* a worker that has gone leaves a pipe no one reads: an error
	 * (see give), not a signal */
	pipe_was = signal(SIGPIPE, SIG_IGN);
	while (dispatch(&s, self) > 0 && !stop_signal)
		collect(&s);
	if (stop_signal) {
		sig = stop_signal;
		stop_workers(&s);
		sync_dir(s.dir);
		phys_status_clear();
		phys_warn("stopped: %zu runs done, %zu to go (run again to "
		    "resume)", s.done, s.todo - s.done - s.failed);
		default_stop();
		raise(sig);
	}
	end_workers(&s);
	sync_dir(s.dir);
	default_stop();
	signal(SIGPIPE, pipe_was);
	if (s.tty)
		phys_status_clear();
	phys_warn("%zu runs: %zu done, %zu failed, %zu already done "
	    "(%.1f s)", s.todo + s.skipped, s.done, s.failed, s.skipped,
	    phys_seconds() - s.start);
	if (s.logfd >= 0)
		close(s.logfd);
	free(s.wk);
	return s.failed ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* --stream: every finished run's lines, in plan order, with "run". */
static int
stream_runs(const char *dir, struct plan *p)
{
	struct phys_lines l;
	char *path, *line;
	size_t len;
	int rc = 0, k;

	for (size_t r = 0; r < p->n && rc == 0; r++) {
		path = state_path(dir, p->runs[r]);
		if (access(path, F_OK) != 0) {
			free(path);
			continue;
		}
		rc = phys_lines_open(&l, path, 0);
		while (rc == 0 && (k = phys_lines_next(&l, &line, &len)) > 0) {
			if (len < 2 || line[0] != '{')
				continue;
			printf("{\"run\":%lld,%s\n", run_id(p->runs[r]),
			    line + 1);
			phys_signal_check();
		}
		if (rc == 0)
			phys_lines_close(&l);
		free(path);
	}
	return rc;
}

static int
cmd_run(struct opts *o, int argc, char **argv)
{
	struct plan p;
	bool *want;
	int rc;

	if (argc > 1)
		usage();
	plan_load(&p, argc ? argv[0] : "-", "run lines");
	want = phys_xcalloc(p.n + 1, sizeof *want);
	for (size_t r = 0; r < p.n; r++)
		want[r] = true;
	rc = run_plan(o, &p, want);
	if (o->stream && stream_runs(o->output ? o->output : "runs", &p) < 0) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	}
	free(want);
	plan_free(&p);
	return rc;
}

/* The unit a scheduler calls: the runs of PLAN with these ids (a Slurm
 * array task id, a GNU parallel argument), one after another. */
static int
cmd_run_one(struct opts *o, int argc, char **argv)
{
	struct plan p;
	bool *want;
	long id;
	size_t r;
	int rc;

	if (argc < 2)
		usage();
	plan_load(&p, argv[0], "run lines");
	want = phys_xcalloc(p.n + 1, sizeof *want);
	for (int k = 1; k < argc; k++) {
		if (!phys_parse_long(argv[k], &id) || id < 0)
			phys_usage_error(usage_text, "'%s' is not a run id",
			    argv[k]);
		for (r = 0; r < p.n && run_id(p.runs[r]) != id; r++)
			;
		if (r == p.n)
			phys_die(PHYS_EXIT_FAIL, "%s has no run %ld", argv[0],
			    id);
		want[r] = true;
	}
	o->jobs = 1;
	rc = run_plan(o, &p, want);
	free(want);
	plan_free(&p);
	return rc;
}

/* ---- scoring, through the state-line reader of phys-introspect ---- */

enum score_kind { S_FINAL, S_MAX, S_MIN, S_DIFF };

struct score {
	enum score_kind kind;
	struct expr *e;
	const char *ref;
	struct phys_ist_sel sel;
	struct phys_buf name;	/* scratch: a field's full name */
};

static void
score_parse(struct score *s, const char *spec)
{
	static const char *const kinds[] = { "final:", "max:", "min:",
	    "diff:" };
	struct phys_expr_error err;
	size_t i;

	for (i = 0; i < 4 && strncmp(spec, kinds[i], strlen(kinds[i])); i++)
		;
	if (i == 4)
		phys_usage_error(usage_text, "'%s': SCORE is final:EXPR, "
		    "max:EXPR, min:EXPR or diff:REF", spec);
	s->kind = (enum score_kind)i;
	spec += strlen(kinds[i]);
	if (s->kind == S_DIFF) {
		s->ref = spec;
		return;
	}
	if (!(s->e = phys_expr_compile(spec, &err)))
		phys_usage_error(usage_text, "'%s': column %zu: %s", spec,
		    err.column, err.msg);
}

/* The full name of field j of item it: ITEM, or ITEM.FIELD. */
static const char *
field_name(struct score *s, const struct phys_ist_item *it, const struct
    phys_ist_field *f)
{
	phys_buf_clear(&s->name);
	phys_buf_putn(&s->name, it->name, it->nlen);
	if (f->nlen) {
		phys_buf_putc(&s->name, '.');
		phys_buf_putn(&s->name, f->name, f->nlen);
	}
	return s->name.s;
}

static bool
selected(const struct score *s, const char *item, const char *field)
{
	if (s->sel.n == 0)
		return true;
	for (size_t i = 0; i < s->sel.n; i++)
		if (phys_glob(s->sel.pat[i], field) ||
		    phys_glob(s->sel.pat[i], item))
			return true;
	return false;
}

static struct phys_ist_field *
find_field(struct score *s, struct phys_ist_frame *f, const char *name)
{
	for (size_t i = 0; i < f->nitems; i++) {
		struct phys_ist_item *it = &f->items[i];

		for (size_t j = 0; j < it->n; j++)
			if (strcmp(field_name(s, it, &f->fields[it->first + j]),
			    name) == 0)
				return &f->fields[it->first + j];
	}
	return NULL;
}

static int
score_expr(struct score *s, struct phys_ist_reader *r, double *out)
{
	size_t n = phys_expr_nrefs(s->e), k;
	double *refs = phys_xcalloc(n + 1, sizeof *refs), v, acc = NAN;
	struct phys_ist_field *f;
	int got;

	while ((got = phys_ist_read(r)) > 0) {
		for (k = 0; k < n; k++) {
			if (!(f = find_field(s, phys_ist_frame(r), phys_expr_ref_name(s->e, k)))) {
				free(refs);
				return phys_failat(phys_ist_name(r), phys_ist_frame(r)->line, "no "
				    "field '%s'", phys_expr_ref_name(s->e, k));
			}
			refs[k] = phys_ist_value(f);
		}
		v = phys_expr_eval(s->e, refs);
		if (s->kind == S_FINAL || isnan(acc) ||
		    (s->kind == S_MAX ? v > acc : v < acc))
			acc = v;
	}
	free(refs);
	if (got < 0)
		return -1;
	if (isnan(acc))
		return phys_fail("%s: no state lines", phys_ist_name(r));
	*out = acc;
	return 0;
}

/* The RMS difference of the selected fields, line by line at the same
 * times, from the reference run. */
static int
score_diff(struct score *s, struct phys_ist_reader *r, double *out)
{
	struct phys_ist_reader *ref;
	struct phys_ist_frame *rf, *ff;
	struct phys_ist_field *f;
	double sum = 0, d;
	long n = 0;
	int ga, gb, rc = 0;

	if (!(ref = phys_ist_open(s->ref)))
		return -1;
	for (;;) {
		ga = phys_ist_read(r);
		gb = phys_ist_read(ref);
		if (ga < 0 || gb < 0) {
			rc = -1;
			break;
		}
		if (ga == 0 || gb == 0) {
			if (ga != gb)
				rc = phys_fail("%s has %s state lines than %s",
				    phys_ist_name(r), ga ? "more" : "fewer", phys_ist_name(ref));
			break;
		}
		rf = phys_ist_frame(r);
		ff = phys_ist_frame(ref);
		if (fabs(rf->t - ff->t) > 1e-9) {
			rc = phys_failat(phys_ist_name(r), rf->line, "t=%g where %s "
			    "has t=%g", rf->t, phys_ist_name(ref), ff->t);
			break;
		}
		for (size_t i = 0; i < rf->nitems && rc == 0; i++) {
			struct phys_ist_item *it = &rf->items[i];
			char *item = phys_xstrndup(it->name, it->nlen);

			for (size_t j = 0; j < it->n && rc == 0; j++) {
				char *name = phys_xstrdup(field_name(s, it,
				    &rf->fields[it->first + j]));

				if (selected(s, item, name)) {
					if (!(f = find_field(s, ff, name)))
						rc = phys_failat(phys_ist_name(ref),
						    ff->line, "no field '%s'",
						    name);
					else {
						d = phys_ist_value(&rf->fields[
						    it->first + j]) -
						    phys_ist_value(f);
						sum += d * d;
						n++;
					}
				}
				free(name);
			}
			free(item);
		}
		if (rc < 0)
			break;
	}
	phys_ist_close(ref);
	if (rc == 0 && n == 0)
		rc = phys_fail("no field of %s is selected", phys_ist_name(r));
	if (rc == 0)
		*out = sqrt(sum / (double)n);
	return rc;
}

static int
cmd_score(struct opts *o, int argc, char **argv)
{
	const char *dir = o->output ? o->output : "runs";
	struct score s = { 0 };
	struct phys_ist_reader *r;
	struct plan p;
	double v = NAN;
	char *path;
	int rc = PHYS_EXIT_OK, k;

	if (argc < 2)
		usage();
	score_parse(&s, argv[0]);
	for (k = 2; k < argc; k++)
		phys_ist_sel_add(&s.sel, argv[k]);
	plan_load(&p, argv[1], "run lines");
	for (size_t i = 0; i < p.n; i++) {
		path = state_path(dir, p.runs[i]);
		if (access(path, F_OK) != 0) {
			phys_warn("run %lld has no state file %s (not run yet, "
			    "or failed)", run_id(p.runs[i]), path);
			rc = PHYS_EXIT_FAIL;
		} else if (!(r = phys_ist_open(path)) ||
		    (s.kind == S_DIFF ? score_diff(&s, r, &v) :
		    score_expr(&s, r, &v)) < 0) {
			phys_report();
			rc = PHYS_EXIT_FAIL;
			phys_ist_close(r);
		} else {
			phys_ist_close(r);
			json_object_set_new(p.runs[i], "score", isfinite(v) ?
			    json_real(v) : json_null());
			print_json(p.runs[i]);
		}
		free(path);
	}
	if (s.e)
		phys_expr_free(s.e);
	phys_ist_sel_free(&s.sel);
	phys_buf_free(&s.name);
	plan_free(&p);
	return rc;
}

/* ---- best: rank the scored runs ---- */

static bool maximize;

static double
score_of(json_t *run)
{
	json_t *v = json_object_get(run, "score");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Better score first; runs without a score last; then by id, so that
 * ties rank the same every time. */
static int
by_score(const void *a, const void *b)
{
	json_t *ra = *(json_t *const *)a, *rb = *(json_t *const *)b;
	double x = score_of(ra), y = score_of(rb);

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return (maximize ? x < y : x > y) ? 1 : -1;
	return run_id(ra) < run_id(rb) ? -1 : run_id(ra) > run_id(rb);
}

/*
 * A run's value for every parameter its name matches: a physics parameter
 * goes into the new profile (the profile it started from is left as it
 * was); a world or entity parameter, which a <physics> block cannot hold,
 * is written where it lives.
 */
struct save_ctx {
	const char *text;
	char **sets;		/* NAME=VALUE of the new profile */
	size_t nsets;
	int matched;
};

static int
save_one(struct phys_world *w, const struct phys_ref *r, void *ctx)
{
	struct save_ctx *c = ctx;
	struct phys_value v;
	char *name;
	int rc;

	c->matched++;
	if (r->scope == PHYS_S_PHYSICS) {
		name = phys_ref_name(w, r);
		c->sets = phys_xrealloc(c->sets, (c->nsets + 1) * sizeof *c->sets);
		c->sets[c->nsets++] = phys_xasprintf("%s=%s", name, c->text);
		free(name);
		return 0;
	}
	if (!phys_world_editable(w, r->scope, r->idx))
		return phys_fail("cannot save a value of an included model: "
		    "edit its own file");
	memset(&v, 0, sizeof v);
	rc = phys_value_parse(r->p, c->text, &v);
	if (rc == 0)
		rc = phys_world_edit(w, r, &v);
	phys_value_free(&v);
	return rc;
}

static int
save_best(const struct opts *o, json_t *run, const char *path)
{
	struct phys_world w;
	struct save_ctx c = { 0 };
	json_t *set = json_object_get(run, "set"), *v;
	const char *k, *preset = str_member(run, "preset");
	int from, rc = 0;

	if (phys_world_open_edit(&w, path, o->in_place, false) < 0)
		exit(PHYS_EXIT_FAIL);
	from = preset ? phys_world_profile(&w, preset) : w.start;
	if (from < 0)
		rc = phys_fail("%s has no profile '%s'", path, preset);
	json_object_foreach(set, k, v) {
		if (rc < 0)
			break;
		c.text = json_string_value(v);
		c.matched = 0;
		if (phys_ref_each(&w, k, from, save_one, &c) < 0)
			rc = -1;
		else if (c.matched == 0)
			rc = phys_fail("no parameter matches '%s'", k);
	}
	if (rc == 0)
		rc = phys_preset_add(&w, o->save_as, from, NULL, c.sets, c.nsets);
	if (rc == 0)
		rc = phys_world_write(&w, o->in_place);
	if (rc < 0)
		phys_report();
	while (c.nsets > 0)
		free(c.sets[--c.nsets]);
	free(c.sets);
	phys_world_free(&w);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
cmd_best(struct opts *o, int argc, char **argv)
{
	struct plan p;
	long keep = o->keep ? o->keep : 1;
	int rc = PHYS_EXIT_OK;

	if (o->save_as ? argc != 2 : argc > 1)
		usage();
	if (o->save_as && strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "SCORES and WORLD cannot both be "
		    "standard input");
	plan_load(&p, argc ? argv[0] : "-", "scored run lines");
	if (p.n == 0)
		phys_die(PHYS_EXIT_FAIL, "%s: no scored runs",
		    phys_display_name(p.name));
	maximize = o->maximize;
	qsort(p.runs, p.n, sizeof *p.runs, by_score);
	if (isnan(score_of(p.runs[0])))
		phys_die(PHYS_EXIT_FAIL, "%s: no run has a score",
		    phys_display_name(p.name));
	if (o->save_as)
		rc = save_best(o, p.runs[0], argv[1]);
	else
		for (size_t i = 0; i < p.n && (long)i < keep; i++)
			print_json(p.runs[i]);
	plan_free(&p);
	return rc;
}

/* ---- plot: score against each swept parameter ---- */

/* The swept names whose values are numbers, in the first run's order. */
static size_t
numeric_names(struct plan *p, const char ***out)
{
	json_t *v;
	const char *k;
	size_t n = 0;
	double x;

	*out = phys_xcalloc(json_object_size(json_object_get(p->runs[0], "set")) +
	    1, sizeof **out);
	json_object_foreach(json_object_get(p->runs[0], "set"), k, v) {
		bool all = true;

		for (size_t r = 0; r < p->n && all; r++)
			all = phys_parse_double(json_string_value(
			    json_object_get(json_object_get(p->runs[r], "set"),
			    k)) ? json_string_value(json_object_get(
			    json_object_get(p->runs[r], "set"), k)) : "", &x);
		if (all)
			(*out)[n++] = k;
	}
	return n;
}

/* The gnuplot script: one panel a name, its points the runs' (value,
 * score) pairs, drawn into FILE (-o) or as text. */
static void
put_landscape(struct phys_buf *b, const char *output, struct plan *p,
    const char **names, size_t n)
{
	const char *ext = output ? strrchr(output, '.') : NULL;

	if (!output)
		phys_buf_printf(b, "set terminal dumb 79 %zu\n", 24 * n);
	else {
		phys_buf_printf(b, "set terminal %s size 640,%zu\nset output ",
		    strcmp(ext, ".png") == 0 ? "pngcairo" : "svg", 360 * n);
		phys_ist_put_gpstr(b, output);
		phys_buf_putc(b, '\n');
	}
	/* a margin, so that the points at the ends of a range are seen */
	phys_buf_printf(b, "set multiplot layout %zu,1\nset ylabel \"score\"\n"
	    "set offsets graph 0.05, graph 0.05, graph 0.1, graph 0.1\n", n);
	for (size_t i = 0; i < n; i++) {
		phys_buf_puts(b, "set xlabel ");
		phys_ist_put_gpstr(b, names[i]);
		phys_buf_puts(b, " noenhanced\nplot '-' using 1:2 with points pt 7 "
		    "notitle\n");
		for (size_t r = 0; r < p->n; r++) {
			double x = 0, y = score_of(p->runs[r]);

			if (isnan(y))
				continue;
			phys_parse_double(json_string_value(json_object_get(
			    json_object_get(p->runs[r], "set"), names[i])), &x);
			phys_buf_printf(b, "%.17g %.17g\n", x, y);
		}
		phys_buf_puts(b, "e\n");
	}
	phys_buf_puts(b, "unset multiplot\n");
}

static int
cmd_plot(struct opts *o, int argc, char **argv)
{
	struct phys_buf b = { 0 };
	const char **names, *ext;
	struct plan p;
	char *prog = NULL;
	size_t n;
	int rc;

	if (argc > 1)
		usage();
	ext = o->output ? strrchr(o->output, '.') : NULL;
	if (o->output && (!ext || (strcmp(ext, ".png") != 0 &&
	    strcmp(ext, ".svg") != 0)))
		phys_usage_error(usage_text, "-o %s: the name must end in "
		    ".png or .svg", o->output);
	plan_load(&p, argc ? argv[0] : "-", "scored run lines");
	if (p.n == 0)
		phys_die(PHYS_EXIT_FAIL, "%s: no scored runs",
		    phys_display_name(p.name));
	if (!o->script && !(prog = phys_ist_find_program("gnuplot")))
		phys_die(PHYS_EXIT_FAIL, "gnuplot not found: install the "
		    "Debian package gnuplot-nox");
	if (!(n = numeric_names(&p, &names)))
		phys_die(PHYS_EXIT_FAIL, "no swept parameter has numbers to "
		    "plot against");
	put_landscape(&b, o->output, &p, names, n);
	rc = o->script ? phys_ist_write_script(o->script, &b) :
	    phys_ist_run_gnuplot(prog, &b);
	if (rc < 0)
		phys_report();
	phys_buf_free(&b);
	free(prog);
	free(names);
	plan_free(&p);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *cmd;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	phys_run_options_default(&o.run);
	o.seed = 1;
	o.jobs = cores > 0 ? cores : 1;
	if (!(cmd = phys_split_command(&argc, &argv,
	    ":c:e:hiI:j:k:l:n:o:p:s:t:", parse_options, &o)))
		usage();
	if (strcmp(cmd, "plan") == 0)
		rc = cmd_plan(&o, argc, argv);
	else if (strcmp(cmd, "run") == 0)
		rc = cmd_run(&o, argc, argv);
	else if (strcmp(cmd, "run-one") == 0)
		rc = cmd_run_one(&o, argc, argv);
	else if (strcmp(cmd, "score") == 0)
		rc = cmd_score(&o, argc, argv);
	else if (strcmp(cmd, "best") == 0)
		rc = cmd_best(&o, argc, argv);
	else if (strcmp(cmd, "plot") == 0)
		rc = cmd_plot(&o, argc, argv);
	else
		phys_unknown_command(cmd, commands);
	free(o.run.items);
	if (cur_world_path) {
		phys_world_free(&cur_world);
		free(cur_world_path);
	}
	return rc | phys_close_stdout();
}
