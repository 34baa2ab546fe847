/* phys-sweep - many runs of one world: plan them, run them, score them,
 * keep the best as a profile, and plot the score landscape. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paramio.h"
#include "plot.h"
#include "sweep.h"

#define PLAN_OPTIONS \
    "  -c, --control FILE   control lines for every run\n" \
    "  -e, --every N        write every Nth step\n" \
    "  -I, --items GLOB     items to write (repeatable)\n" \
    "  -l, --list FILE      runs from FILE: one JSON object of NAME:VALUE a line\n" \
    "      --lhs N          N runs, a Latin-hypercube sample\n" \
    "  -n, --steps N        steps of each run\n" \
    "  -p, --preset NAME    starting profile of each run\n" \
    "      --random N       N runs, values drawn uniformly\n" \
    "      --seed S         seed of --random and --lhs (default 1)\n" \
    "  -t, --duration SEC   simulated time of each run (default 1)\n"
#define SCORE_TEXT \
    "SCORE is final:EXPR, max:EXPR, min:EXPR or diff:REF (the RMS difference\n" \
    "of the selected fields from the run REF); EXPR as phys-introspect\n" \
    "derive's.\n"
#define BEST_OPTIONS \
    "  -k, --keep N         print the N best runs (default 1)\n" \
    "      --maximize       a higher score is better (default: lower)\n" \
    "  -s, --save-as NAME   add the best run's values to WORLD as profile NAME\n" \
    "  -i, --in-place       replace WORLD (via a temporary file)\n"

static const char help_text[] =
    "\n"
    "Expand a sweep of parameter values into runs of a world (JSON lines),\n"
    "run them on local workers or hand them to GNU parallel or Slurm,\n"
    "score each run, keep the best values as a physics profile and plot\n"
    "the score against each swept parameter.\n"
    "\n"
    "plan: NAME=V1,V2,... or NAME=LO:HI:N (a grid); with --random or --lhs,\n"
    "NAME=LO:HI (a sample). Run options as phys-step's:\n"
    PLAN_OPTIONS
    "\n"
    "run, run-one, score, plot:\n"
    "  -j, --jobs N         run N at a time (default: the number of cores)\n"
    "  -o, --output DIR     where run states go (default runs); plot: the\n"
    "                       image, FILE.png or FILE.svg (default: terminal)\n"
    "      --stream         also write every run's state lines on stdout,\n"
    "                       each with its \"run\" id, in plan order\n"
    "      --script FILE    plot: write the gnuplot script, data included,\n"
    "                       to FILE instead of running gnuplot\n"
    SCORE_TEXT
    "\n"
    "best:\n"
    BEST_OPTIONS
    "  -h, --help           show this help\n"
    "      --version        show the version\n";

static const char plan_help[] =
    "\n"
    "Run lines (JSON) on standard output: NAME=V1,V2,... or NAME=LO:HI:N\n"
    "(a grid, the first name varying slowest); with --random or --lhs,\n"
    "NAME=LO:HI (a sample). Every name and value is checked against WORLD\n"
    "first. Run options as phys-step's:\n"
    PLAN_OPTIONS;

static const char run_help[] =
    "\n"
    "Run the runs of PLAN on local workers, each one's state lines into\n"
    "DIR/ID.jsonl; runs with a state file already are skipped, so running\n"
    "a stopped sweep again resumes it.\n"
    "  -j, --jobs N         run N at a time (default: the number of cores)\n"
    "  -o, --output DIR     where run states go (default runs)\n"
    "      --stream         also write every run's state lines on stdout,\n"
    "                       each with its \"run\" id, in plan order\n";

static const char run_one_help[] =
    "\n"
    "Run the runs of PLAN with these ids, one after another: the unit GNU\n"
    "parallel or a Slurm job array calls.\n"
    "  -o, --output DIR     where run states go (default runs)\n";

static const char score_help[] =
    "\n"
    "Each run line of PLAN with its \"score\", from its state file.\n"
    SCORE_TEXT
    "  -o, --output DIR     where run states are (default runs)\n";

static const char best_help[] =
    "\n"
    "The best scored runs, lowest score first, ties by id; or WORLD with\n"
    "the best run's values added as profile NAME.\n"
    BEST_OPTIONS;

static const char plot_help[] =
    "\n"
    "The score against each swept parameter whose values are numbers,\n"
    "drawn by gnuplot.\n"
    "  -o, --output FILE    the image, FILE.png or FILE.svg (default: terminal)\n"
    "      --script FILE    write the gnuplot script, data included, to FILE\n"
    "                       instead of running gnuplot\n";

static int cmd_plan(int, char **, void *);
static int cmd_run(int, char **, void *);
static int cmd_run_one(int, char **, void *);
static int cmd_score(int, char **, void *);
static int cmd_best(int, char **, void *);
static int cmd_plot(int, char **, void *);

/* The usage lines are also the SYNOPSIS of phys-sweep(1): keep the two
 * the same. */
static const struct phys_subcommand subcommands[] = {
	{ "plan", cmd_plan,
	    "phys-sweep plan [OPTION]... WORLD [NAME=VALUES]...\n",
	    plan_help, NULL },
	{ "run", cmd_run,
	    "phys-sweep run [-j N] [-o DIR] [--stream] [PLAN | -]\n",
	    run_help, NULL },
	{ "run-one", cmd_run_one, "phys-sweep run-one [-o DIR] PLAN ID...\n",
	    run_one_help, NULL },
	{ "score", cmd_score,
	    "phys-sweep score [-o DIR] SCORE PLAN [SELECTOR]...\n",
	    score_help, NULL },
	{ "best", cmd_best,
	    "phys-sweep best [-k N] [--maximize] [SCORES | -]\n"
	    "phys-sweep best --save-as NAME [-i] [--maximize] SCORES WORLD\n",
	    best_help, NULL },
	{ "plot", cmd_plot,
	    "phys-sweep plot [-o FILE] [--script FILE] [SCORES | -]\n",
	    plot_help, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const struct phys_command command = { subcommands, NULL, help_text };

/* The subcommand being run, once its name is read. */
static const struct phys_subcommand *current;

/* Its usage, or the command's before it is known. */
static const char *
usage_text(void)
{
	return phys_command_usage(&command, current);
}

/* "phys-sweep: what is wrong", then the usage; exit 2. */
#define usage_error(...) phys_usage_error(usage_text(), __VA_ARGS__)

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

struct opts {
	/* plan */
	struct phys_run_options run;	/* -c -e -I -n -p -t, as phys-step's */
	const char *list;
	long nsample;
	enum phys_sweep_sample sample;
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

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (phys_run_option(c, 'I', optarg, usage_text(), &o->run))
			continue;
		switch (c) {
		case 'i':
			o->in_place = true;
			break;
		case 'j':
			o->jobs = phys_arg_count(usage_text(), "--jobs", optarg,
			    1);
			break;
		case 'k':
			o->keep = phys_arg_count(usage_text(), "--keep", optarg,
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
			o->sample = c == OPT_LHS ? PHYS_SWEEP_LHS :
			    PHYS_SWEEP_RANDOM;
			o->nsample = phys_arg_count(usage_text(), c == OPT_LHS ?
			    "--lhs" : "--random", optarg, 1);
			break;
		case OPT_SEED:
			o->seed = (unsigned long long)phys_arg_count(usage_text(),
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
			phys_command_help(&command, current);
		case OPT_VERSION:
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
	}
}

/* ---- plan ---- */

static int
cmd_plan(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_plan plan;
	struct phys_world w;
	int i, profile, rc;

	if (argc < 1)
		usage_error("plan needs a WORLD");
	if (o->sample != PHYS_SWEEP_GRID && argc == 1)
		usage_error("--random and --lhs need "
		    "NAME=LO:HI operands");
	phys_sweep_plan_init(&plan, o->sample, o->nsample, o->seed);
	for (i = 1; i < argc; i++)
		if (phys_sweep_plan_axis(&plan, argv[i]) < 0)
			usage_error("%s", phys_error());
	if (o->list && phys_sweep_plan_list(&plan, o->list) < 0) {
		phys_report();
		return PHYS_EXIT_FAIL;
	}
	if (phys_world_open(&w, argv[0], false) < 0)
		return PHYS_EXIT_FAIL;
	profile = o->run.preset ? phys_world_find_profile(&w, o->run.preset) :
	    w.start;
	if (profile < 0) {
		phys_report();
		exit(PHYS_EXIT_USAGE);
	}
	rc = phys_sweep_plan_check(&plan, &w, profile);
	phys_world_free(&w);
	if (rc == 0)
		rc = phys_sweep_plan_write(&plan, &o->run, argv[0], stdout);
	if (rc < 0)
		phys_report();
	phys_sweep_plan_free(&plan);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* ---- run, run-one ---- */

static void
load_runs(struct phys_sweep_runs *r, const char *path, const char *what)
{
	if (strcmp(path, "-") == 0)
		phys_stdin_hint(what);
	if (phys_sweep_runs_load(r, path) < 0) {
		phys_report();
		exit(PHYS_EXIT_FAIL);
	}
}

static const char *
output_dir(const struct opts *o)
{
	return o->output ? o->output : "runs";
}

/* The runs want[] selects; a stop request is raised again once the
 * workers have ended. */
static int
run_runs(const struct opts *o, const struct phys_sweep_runs *r,
    const bool *want)
{
	struct phys_sweep_options so = { output_dir(o), o->jobs };
	int rc, sig;

	rc = phys_sweep_run(r, want, &so, &sig);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if (rc < 0)
		phys_report();
	return rc != 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
cmd_run(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_runs r;
	bool *want;
	int rc;

	if (argc > 1)
		usage_error("run takes one PLAN");
	load_runs(&r, argc ? argv[0] : "-", "run lines");
	want = phys_xcalloc(r.n + 1, sizeof *want);
	for (size_t i = 0; i < r.n; i++)
		want[i] = true;
	rc = run_runs(o, &r, want);
	if (o->stream && phys_sweep_stream(output_dir(o), &r, stdout) < 0) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	}
	free(want);
	phys_sweep_runs_free(&r);
	return rc;
}

/* The unit a scheduler calls: the runs of PLAN with these ids (a Slurm
 * array task id, a GNU parallel argument), one after another. */
static int
cmd_run_one(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_runs r;
	bool *want;
	long id;
	size_t i;
	int rc;

	if (argc < 2)
		usage_error("run-one needs a PLAN and a run ID");
	load_runs(&r, argv[0], "run lines");
	want = phys_xcalloc(r.n + 1, sizeof *want);
	for (int k = 1; k < argc; k++) {
		if (!phys_parse_long(argv[k], &id) || id < 0)
			usage_error("'%s' is not a run id",
			    argv[k]);
		for (i = 0; i < r.n && phys_sweep_run_id(r.v[i]) != id; i++)
			;
		if (i == r.n)
			phys_die(PHYS_EXIT_FAIL, "%s has no run %ld", argv[0],
			    id);
		want[i] = true;
	}
	o->jobs = 1;
	rc = run_runs(o, &r, want);
	free(want);
	phys_sweep_runs_free(&r);
	return rc;
}

/* ---- score ---- */

static int
cmd_score(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_score s;
	struct phys_sweep_runs r;
	int rc;

	if (argc < 2)
		usage_error("score needs a SCORE and a PLAN");
	if (phys_sweep_score_parse(&s, argv[0]) < 0)
		usage_error("%s", phys_error());
	for (int k = 2; k < argc; k++)
		phys_ist_sel_add(&s.sel, argv[k]);
	load_runs(&r, argv[1], "run lines");
	rc = phys_sweep_score_runs(&s, &r, output_dir(o), stdout);
	phys_sweep_score_free(&s);
	phys_sweep_runs_free(&r);
	return rc ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* ---- best ---- */

static int
save_best(const struct opts *o, json_t *run, const char *path)
{
	struct phys_world w;
	int rc;

	if (phys_world_open_edit(&w, path, o->in_place, false) < 0)
		exit(PHYS_EXIT_FAIL);
	rc = phys_sweep_save_best(&w, run, o->save_as);
	if (rc == 0)
		rc = phys_world_write(&w, o->in_place);
	if (rc < 0)
		phys_report();
	phys_world_free(&w);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* Scored runs, or exit 1 saying there are none. */
static void
load_scores(struct phys_sweep_runs *r, const char *path)
{
	load_runs(r, path, "scored run lines");
	if (r->n == 0)
		phys_die(PHYS_EXIT_FAIL, "%s: no scored runs",
		    phys_display_name(r->name));
}

static int
cmd_best(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_runs r;
	long keep = o->keep ? o->keep : 1;
	int rc = PHYS_EXIT_OK;

	if (o->save_as ? argc != 2 : argc > 1)
		usage_error(o->save_as ? "best --save-as needs SCORES and WORLD" :
		    "best takes one SCORES");
	if (o->save_as && strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "SCORES and WORLD cannot both be "
		    "standard input");
	load_scores(&r, argc ? argv[0] : "-");
	phys_sweep_rank(&r, o->maximize);
	if (isnan(phys_sweep_score_of(r.v[0])))
		phys_die(PHYS_EXIT_FAIL, "%s: no run has a score",
		    phys_display_name(r.name));
	if (o->save_as)
		rc = save_best(o, r.v[0], argv[1]);
	else
		for (size_t i = 0; i < r.n && (long)i < keep; i++)
			phys_sweep_put_run(r.v[i], stdout);
	phys_sweep_runs_free(&r);
	return rc;
}

/* ---- plot ---- */

static int
cmd_plot(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_buf b = { 0 };
	struct phys_sweep_runs r;
	const char *ext;
	char *prog = NULL;
	int rc;

	if (argc > 1)
		usage_error("plot takes one SCORES");
	ext = o->output ? strrchr(o->output, '.') : NULL;
	if (o->output && (!ext || (strcmp(ext, ".png") != 0 &&
	    strcmp(ext, ".svg") != 0)))
		usage_error("-o %s: the name must end in "
		    ".png or .svg", o->output);
	load_scores(&r, argc ? argv[0] : "-");
	if (!o->script && !(prog = phys_ist_find_program("gnuplot")))
		phys_die(PHYS_EXIT_FAIL, "gnuplot not found: install the "
		    "Debian package gnuplot-nox");
	if (phys_sweep_landscape(&r, o->output, &b) == 0)
		phys_die(PHYS_EXIT_FAIL, "no swept parameter has numbers to "
		    "plot against");
	rc = o->script ? phys_ist_write_script(o->script, &b) :
	    phys_ist_run_gnuplot(prog, &b);
	if (rc < 0)
		phys_report();
	phys_buf_free(&b);
	free(prog);
	phys_sweep_runs_free(&r);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	const struct phys_subcommand *sub;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	phys_run_options_default(&o.run);
	o.seed = 1;
	o.jobs = cores > 0 ? cores : 1;
	if (!(sub = phys_command_split(&command, &current, &argc, &argv,
	    ":c:e:hiI:j:k:l:n:o:p:s:t:", parse_options, &o)))
		phys_usage(usage_text());
	rc = sub->run(argc, argv, &o);
	free(o.run.items);
	return rc | phys_close_stdout();
}
