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
#include "preset.h"
#include "sweep.h"

#define PLAN_OPTIONS \
    "  -c, --control FILE   control lines for every run\n" \
    "  -e, --every N        write every Nth step\n" \
    "  -i, --items GLOB     items to write (repeatable)\n" \
    "  -l, --list FILE      runs from FILE: one JSON object of NAME:VALUE a line\n" \
    "      --lhs N          N runs, a Latin-hypercube sample\n" \
    "  -n, --steps N        steps of each run\n" \
    "  -p, --preset NAME    starting profile of each run\n" \
    "  -r, --rate HZ        write HZ samples per simulated second\n" \
    "      --random N       N runs, values drawn uniformly\n" \
    "  -s, --set NAME=VALUE one value of NAME for every run (repeatable)\n" \
    "      --seed S         seed of --random and --lhs (default 1)\n" \
    "  -t, --duration SEC   simulated time of each run (default 1)\n"
#define DIR_OPTION \
    "      --dir DIR        where run states are (default runs)\n"
#define SCORE_TEXT \
    "SCORE is final:EXPR, max:EXPR, min:EXPR or diff:REF (the RMS difference\n" \
    "of the selected fields from the run REF, at REF's times); EXPR as\n" \
    "phys-introspect derive's.\n"
#define BEST_OPTIONS \
    "  -k, --top N          print the N best runs (default 1)\n" \
    "      --maximize       a higher score is better (default: lower)\n" \
    "      --save-as NAME   add the best run's values to WORLD as profile NAME\n" \
    "      --in-place       replace WORLD (via a temporary file)\n"
#define PLOT_OPTIONS \
    "      --format png|svg|pdf  the image's format (default: -o's extension)\n" \
    "      --logscale x|y   a logarithmic axis: x each parameter's, y the\n" \
    "                       score's; repeatable\n" \
    "      --maximize       the best run is the highest score\n" \
    "  -o, --output FILE    the image, FILE.png, FILE.svg or FILE.pdf\n" \
    "                       (default: the terminal, as sixel or text)\n" \
    "      --script FILE    write the gnuplot script, data included, to FILE\n" \
    "                       instead of running gnuplot\n" \
    "      --size WxH       the image's size in pixels (default 640 wide,\n" \
    "                       360 high a panel)\n" \
    "      --terminal text|sixel|window\n" \
    "                       without -o: draw as text or sixel on the\n" \
    "                       terminal, or in a window\n" \
    "      --title TEXT     a title above the plot\n"

static const char help_text[] =
    "\n"
    "Expand a sweep of parameter values into runs of a world (JSON lines),\n"
    "run them on local workers or hand them to GNU parallel or Slurm,\n"
    "score each run, keep the best values as a physics profile and plot\n"
    "the score against each swept parameter.\n"
    "\n"
    "plan: NAME=V1,V2,... or NAME=LO:HI:N (a grid); with --random or --lhs,\n"
    "NAME=LO:HI (a sample) or NAME=V. Run options as phys-step's:\n"
    PLAN_OPTIONS
    "\n"
    "run, run-one, score:\n"
    DIR_OPTION
    "  -j, --jobs N         run N at a time (default: the number of cores)\n"
    "      --stream         also write every run's state lines on stdout,\n"
    "                       each with its \"run\" id, in plan order\n"
    SCORE_TEXT
    "\n"
    "best:\n"
    BEST_OPTIONS
    "\n"
    "plot:\n"
    PLOT_OPTIONS
    "\n"
    "  -q, --quiet          no warnings\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n";

static const char plan_help[] =
    "\n"
    "Run lines (JSON) on standard output: NAME=V1,V2,... or NAME=LO:HI:N\n"
    "(a grid, the first name varying slowest); with --random or --lhs,\n"
    "NAME=LO:HI (a sample, whole numbers for an int parameter) or NAME=V\n"
    "(one value). Every name and value is checked against WORLD first. Run\n"
    "options as phys-step's:\n"
    PLAN_OPTIONS;

static const char run_help[] =
    "\n"
    "Run the runs of PLAN on local workers, each one's state lines into\n"
    "DIR/ID.jsonl; runs with a state file already are skipped, so running\n"
    "a stopped sweep again resumes it.\n"
    DIR_OPTION
    "  -j, --jobs N         run N at a time (default: the number of cores)\n"
    "      --stream         also write every run's state lines on stdout,\n"
    "                       each with its \"run\" id, in plan order\n";

static const char run_one_help[] =
    "\n"
    "Run the runs of PLAN with these ids, one after another: the unit GNU\n"
    "parallel or a Slurm job array calls.\n"
    DIR_OPTION;

static const char score_help[] =
    "\n"
    "Each run line of PLAN with its \"score\", from its state file.\n"
    SCORE_TEXT
    DIR_OPTION;

static const char best_help[] =
    "\n"
    "The best scored runs, lowest score first, ties by id; or WORLD with\n"
    "the best run's values added as profile NAME.\n"
    BEST_OPTIONS;

static const char plot_help[] =
    "\n"
    "The score against each swept parameter whose values are numbers, a\n"
    "panel each, drawn by gnuplot; the best run's point marked.\n"
    PLOT_OPTIONS;

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
	    "phys-sweep run [-j N] [--dir DIR] [--stream] [PLAN | -]\n",
	    run_help, NULL },
	{ "run-one", cmd_run_one,
	    "phys-sweep run-one [--dir DIR] PLAN ID...\n", run_one_help,
	    NULL },
	{ "score", cmd_score,
	    "phys-sweep score [--dir DIR] SCORE PLAN [SELECTOR]...\n",
	    score_help, NULL },
	{ "best", cmd_best,
	    "phys-sweep best [-k N] [--maximize] [SCORES | -]\n"
	    "phys-sweep best --save-as NAME [--in-place] [--maximize] SCORES "
	    "WORLD\n", best_help, NULL },
	{ "plot", cmd_plot,
	    "phys-sweep plot [-o FILE] [--format FORMAT] [--script FILE]\n"
	    "                [--size WxH] [--logscale x|y]... [--maximize]\n"
	    "                [--terminal TERM] [--title TEXT] [SCORES | -]\n",
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
	OPT_LHS = 256, OPT_RANDOM, OPT_SEED, OPT_STREAM, OPT_MAXIMIZE,
	OPT_SCRIPT, OPT_DIR, OPT_SAVE_AS, OPT_IN_PLACE, OPT_TOP, OPT_KEEP,
	OPT_SIZE, OPT_LOGSCALE, OPT_TITLE, OPT_FORMAT, OPT_TERMINAL
};

static const struct option longopts[] = {
	{ "control", required_argument, NULL, 'c' },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "duration", required_argument, NULL, 't' },
	{ "every", required_argument, NULL, 'e' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "items", required_argument, NULL, 'i' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "lhs", required_argument, NULL, OPT_LHS },
	{ "list", required_argument, NULL, 'l' },
	{ "logscale", required_argument, NULL, OPT_LOGSCALE },
	{ "maximize", no_argument, NULL, OPT_MAXIMIZE },
	{ "output", required_argument, NULL, 'o' },
	{ "preset", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "random", required_argument, NULL, OPT_RANDOM },
	{ "rate", required_argument, NULL, 'r' },
	{ "save-as", required_argument, NULL, OPT_SAVE_AS },
	{ "script", required_argument, NULL, OPT_SCRIPT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "set", required_argument, NULL, 's' },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "steps", required_argument, NULL, 'n' },
	{ "stream", no_argument, NULL, OPT_STREAM },
	{ "terminal", required_argument, NULL, OPT_TERMINAL },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/*
 * The short options: one meaning each, as in every command. best still
 * takes the spellings it had (-i, -s) for a release; -i there has no
 * value, so best has an option string of its own.
 */
#define OPTSTRING ":c:e:hi:I:j:k:l:n:o:p:qr:s:t:V"
#define BEST_OPTSTRING ":c:e:hiI:j:k:l:n:o:p:qr:s:t:V"

struct opts {
	/* plan */
	struct phys_run_options run;	/* -c -e -i -n -p -r -s -t */
	const char *list;
	long nsample;
	enum phys_sweep_sample sample;
	unsigned long long seed;
	/* run, run-one, score */
	long jobs;
	const char *dir;
	bool stream;
	/* best */
	long top;
	bool maximize, in_place;
	const char *save_as;
	/* plot */
	const char *output, *script;
	struct phys_ist_plotopts plot;
};

static bool
is(const char *name)
{
	return current && strcmp(current->name, name) == 0;
}

/* The options that name a directory of runs, a profile or a count of
 * best runs in the spelling they had before: still taken, with a
 * warning. */
static bool
old_option(struct opts *o, int c, const char *arg)
{
	if (c == 'o' && (is("run") || is("run-one") || is("score"))) {
		phys_deprecated("-o", "--dir", PHYS_MEANS_OUTPUT);
		o->dir = arg;
	} else if (c == 's' && is("best")) {
		phys_deprecated("-s", "--save-as", PHYS_MEANS_SET);
		o->save_as = arg;
	} else if (c == 'i' && is("best")) {
		phys_deprecated("-i", "--in-place", PHYS_MEANS_ITEMS);
		o->in_place = true;
	} else if (c == 'I') {
		phys_deprecated("-I", "-i", "-i is --items, as in phys-step");
		o->run.items = phys_xrealloc(o->run.items, (o->run.nitems + 1) *
		    sizeof *o->run.items);
		o->run.items[o->run.nitems++] = (char *)arg;
	} else if (c == OPT_KEEP) {
		phys_deprecated("--keep", "--top", PHYS_MEANS_KEEP);
		o->top = phys_arg_count(usage_text(), "--keep", arg, 1);
	} else {
		return false;
	}
	return true;
}

static void
plot_setting(struct opts *o, const char *name, const char *arg)
{
	if (phys_ist_plot_setting(&o->plot, name, arg) < 0)
		usage_error("%s", phys_error());
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	/* before the subcommand its name is not known: "+" from the caller */
	if (is("best"))
		optstring = BEST_OPTSTRING;
	else if (*optstring != '+')
		optstring = OPTSTRING;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (old_option(o, c, optarg) ||
		    phys_run_option(c, 'i', optarg, usage_text(), &o->run))
			continue;
		switch (c) {
		case 'j':
			o->jobs = phys_arg_count(usage_text(), "--jobs", optarg,
			    1);
			break;
		case 'k':
		case OPT_TOP:
			o->top = phys_arg_count(usage_text(), "--top", optarg, 1);
			break;
		case 'l':
			o->list = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_DIR:
			o->dir = optarg;
			break;
		case OPT_SAVE_AS:
			o->save_as = optarg;
			break;
		case OPT_IN_PLACE:
			o->in_place = true;
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
		case OPT_SIZE:
			plot_setting(o, "size", optarg);
			break;
		case OPT_LOGSCALE:
			plot_setting(o, "logscale", optarg);
			break;
		case OPT_TITLE:
			plot_setting(o, "title", optarg);
			break;
		case OPT_FORMAT:
			plot_setting(o, "format", optarg);
			break;
		case OPT_TERMINAL:
			plot_setting(o, "terminal", optarg);
			break;
		case 'q':
			phys_set_quiet(true);
			break;
		case 'h':
			phys_command_help(&command, current);
		case 'V':
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
	struct phys_scene w;
	int i, profile, rc;

	if (argc < 1)
		usage_error("plan needs a WORLD");
	if (o->sample != PHYS_SWEEP_GRID && argc == 1)
		usage_error("--random and --lhs need "
		    "NAME=LO:HI operands");
	phys_sweep_plan_init(&plan, o->sample, o->nsample, o->seed);
	/* -s: one value for every run, checked as the swept ones */
	for (size_t k = 0; k < o->run.nsets; k++)
		if (phys_sweep_plan_set(&plan, o->run.sets[k]) < 0)
			usage_error("%s", phys_error());
	for (i = 1; i < argc; i++)
		if (phys_sweep_plan_axis(&plan, argv[i]) < 0)
			usage_error("%s", phys_error());
	if (o->list && phys_sweep_plan_list(&plan, o->list) < 0) {
		phys_report();
		return PHYS_EXIT_FAIL;
	}
	if (phys_world_open(&w, argv[0], false) < 0)
		return PHYS_EXIT_FAIL;
	/* -p of an engine's name where no profile has it: its profile,
	 * which each run finds again */
	profile = o->run.preset ? phys_preset_named(&w, o->run.preset) :
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
	return o->dir ? o->dir : "runs";
}

/* The runs want[] selects; a stop request is raised again once the
 * workers have ended. */
static int
run_runs(const struct opts *o, const struct phys_sweep_runs *r,
    const bool *want, bool shared)
{
	struct phys_sweep_options so = { output_dir(o), o->jobs, shared };
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
	rc = run_runs(o, &r, want, false);
	if (o->stream && phys_sweep_stream(output_dir(o), &r, stdout) < 0) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	}
	free(want);
	phys_sweep_runs_free(&r);
	return rc;
}

/* The unit a scheduler calls: the runs of PLAN with these ids (a Slurm
 * array task id, a GNU parallel argument), one after another. Only their
 * lines are kept; the plan is read through once for the others' ids. */
static int
cmd_run_one(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_runs r;
	long long *ids;
	bool *want;
	long id;
	int rc;

	if (argc < 2)
		usage_error("run-one needs a PLAN and a run ID");
	ids = phys_xcalloc((size_t)argc, sizeof *ids);
	for (int k = 1; k < argc; k++) {
		if (!phys_parse_long(argv[k], &id) || id < 0)
			usage_error("'%s' is not a run id", argv[k]);
		ids[k - 1] = id;
	}
	if (strcmp(argv[0], "-") == 0)
		phys_stdin_hint("run lines");
	if (phys_sweep_runs_load_ids(&r, argv[0], ids, (size_t)argc - 1) < 0) {
		phys_report();
		exit(PHYS_EXIT_FAIL);
	}
	free(ids);
	want = phys_xcalloc(r.n + 1, sizeof *want);
	for (size_t i = 0; i < r.n; i++)
		want[i] = true;
	o->jobs = 1;
	rc = run_runs(o, &r, want, true);
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
	struct phys_scene w;
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
	if (phys_sweep_runs_parse(r) < 0) {
		phys_report();
		exit(PHYS_EXIT_FAIL);
	}
	if (r->n == 0)
		phys_die(PHYS_EXIT_FAIL, "%s: no scored runs",
		    phys_display_name(r->name));
}

static int
cmd_best(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_runs r;
	long keep = o->top ? o->top : 1;
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

static bool
any_score(const struct phys_sweep_runs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (isfinite(phys_sweep_score_of(r->v[i])))
			return true;
	return false;
}

static int
cmd_plot(int argc, char **argv, void *ctx)
{
	struct opts *o = ctx;
	struct phys_sweep_landscape l = { 0 };
	struct phys_sweep_runs r;
	int rc;

	if (argc > 1)
		usage_error("plot takes one SCORES");
	o->plot.script = o->script;
	/* where it goes, as phys-introspect plot's */
	if (phys_ist_plot_check(&o->plot, o->output, 1,
	    isatty(STDOUT_FILENO)) < 0)
		usage_error("%s", phys_error());
	load_scores(&r, argc ? argv[0] : "-");
	l.runs = &r;
	if (!any_score(&r))
		phys_die(PHYS_EXIT_FAIL, "no run has a score to plot (each "
		    "failed or was not scored)");
	if ((l.nnames = phys_sweep_landscape_names(&r, &l.names)) == 0)
		phys_die(PHYS_EXIT_FAIL, "no swept parameter has numbers to "
		    "plot against");
	l.maximize = o->maximize;
	l.logx = o->plot.logx;
	l.logy = o->plot.logy;
	l.title = o->plot.title;
	/* an image: 640 pixels wide and 360 high a panel, unless --size */
	if (!o->plot.width) {
		o->plot.width = 640;
		o->plot.height = 360 * (int)l.nnames;
	}
	rc = phys_ist_plot_custom(&o->plot, o->output,
	    phys_sweep_landscape_body, &l);
	if (rc < 0)
		phys_report();
	free(l.names);
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
	    OPTSTRING, parse_options, &o)))
		phys_usage(usage_text());
	rc = sub->run(argc, argv, &o);
	free(o.run.items);
	free(o.run.sets);
	phys_ist_plotopts_free(&o.plot);
	return rc | phys_close_stdout();
}
