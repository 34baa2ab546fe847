/* phys-step - run an SDF world under one engine or several; state lines. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "atomic.h"
#include "compare.h"
#include "engine.h"
#include "items.h"
#include "plot.h"
#include "preset.h"
#include "sim.h"
#include "world.h"

static const char usage_text[] =
    "usage: phys-step [-q] [-c FILE] [-e N] [-i GLOB]... [-n STEPS]\n"
    "                 [-p PRESET] [-r HZ] [-s NAME=VALUE]... [-t SECONDS]\n"
    "                 [--keyframe NAME] [--lockstep] [--realtime]\n"
    "                 [--save-to WORLD] [--skip-unsupported] [WORLD | -]\n"
    "       phys-step --engines LIST [--tolerance TOL] [--rel-tolerance R]\n"
    "                 [--plot FILE] [--plot-fields SELECTOR]... [--runs DIR]\n"
    "                 [OPTION]... [WORLD | -]\n";

static const char help_text[] =
    "\n"
    "Simulate an SDF world with the engine its profile's type names (ode,\n"
    "bullet, mujoco, simbody, dart); write one JSON state line per sample on\n"
    "standard output. With --engines, run it once under each engine and\n"
    "write, per field, how far they part and when; exit 0 when they agree, 1\n"
    "when they differ.\n"
    "\n"
    "  -c, --control FILE       apply control lines from FILE at their times;\n"
    "                           from a pipe, FIFO or terminal as they arrive\n"
    "  -e, --every N            write every Nth step (default 1)\n"
    "  -i, --items GLOB         items to write (repeatable; default: each\n"
    "                           link's pose, sim_time and iterations)\n"
    "  -n, --steps N            take N steps\n"
    "  -p, --preset NAME        start in physics profile NAME\n"
    "  -r, --rate HZ            write at HZ samples per simulated second\n"
    "  -s, --set NAME=VALUE     override a parameter (repeatable)\n"
    "  -t, --duration SECONDS   simulate SECONDS (default 1)\n"
    "      --keyframe NAME      start the models in their keyframe NAME (an\n"
    "                           MJCF model's <key>)\n"
    "      --lockstep           after each state line, wait for one reply on\n"
    "                           -c: control lines, an array of them, or {}\n"
    "      --realtime           pace the run by real_time_factor\n"
    "      --save-to WORLD      world file that \"save\" control lines add\n"
    "                           profiles to\n"
    "      --skip-unsupported   skip mesh, heightmap and other unsupported\n"
    "                           collisions with a warning\n"
    "      --engines LIST       run under each engine of LIST (ode,bullet,...\n"
    "                           or all), compare the runs that finish field\n"
    "                           by field and name those that do not\n"
    "      --tolerance TOL      --engines: largest difference that is none\n"
    "                           (default 0)\n"
    "      --rel-tolerance R    --engines: also allow R times the larger\n"
    "                           magnitude\n"
    "      --plot FILE          --engines: plot the fields, a colour an\n"
    "                           engine, into FILE.png, FILE.svg or FILE.pdf\n"
    "      --plot-fields SELECTOR\n"
    "                           the fields that --plot draws (repeatable;\n"
    "                           default: those of -i, or every link's pose)\n"
    "      --runs DIR           --engines: keep each engine's state lines\n"
    "                           in DIR/ENGINE.jsonl\n"
    "  -q, --quiet              no warnings\n"
    "  -h, --help               show this help\n"
    "  -V, --version            show the version\n";

enum { OPT_REALTIME = 256, OPT_SAVE_TO, OPT_SKIP, OPT_ENGINES,
	OPT_TOL, OPT_RELTOL, OPT_PLOT, OPT_PLOT_FIELDS, OPT_RUNS, OPT_LOCKSTEP,
	OPT_KEYFRAME };

static const struct option longopts[] = {
	{ "control", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 't' },
	{ "engines", required_argument, NULL, OPT_ENGINES },
	{ "every", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "items", required_argument, NULL, 'i' },
	{ "keyframe", required_argument, NULL, OPT_KEYFRAME },
	{ "lockstep", no_argument, NULL, OPT_LOCKSTEP },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "plot-fields", required_argument, NULL, OPT_PLOT_FIELDS },
	{ "preset", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rate", required_argument, NULL, 'r' },
	{ "realtime", no_argument, NULL, OPT_REALTIME },
	{ "rel-tolerance", required_argument, NULL, OPT_RELTOL },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "save-to", required_argument, NULL, OPT_SAVE_TO },
	{ "set", required_argument, NULL, 's' },
	{ "skip-unsupported", no_argument, NULL, OPT_SKIP },
	{ "steps", required_argument, NULL, 'n' },
	{ "tolerance", required_argument, NULL, OPT_TOL },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
}

static double
positive_number(const char *opt, const char *s, bool allow_zero)
{
	return phys_arg_number(usage_text, opt, s, 0, allow_zero);
}

static void
push(char ***list, size_t *n, char *s)
{
	*list = phys_xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = s;
}

/* --engines and what goes with it. */
struct comparing {
	const char **engines;	/* types, registered ones */
	size_t n;
	double tol, reltol;
	const char *plot, *runs;
	char **fields;		/* --plot-fields */
	size_t nfields;
	bool any;		/* an option only --engines takes was given */
};

/* "ode,bullet" or "all": engine types, each once. */
static void
parse_engines(const char *arg, struct comparing *cmp)
{
	char *list = phys_xstrdup(arg), *save = NULL, *t;
	size_t i;

	if (strcmp(arg, "all") == 0) {
		for (i = 0; phys_engines[i]; i++)
			push((char ***)&cmp->engines, &cmp->n,
			    (char *)phys_engines[i]->type);
		free(list);
		return;
	}
	for (t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct phys_engine_info *e = phys_engine_find(t);

		if (!e) {
			struct phys_buf known = { 0 };

			for (i = 0; phys_engines[i]; i++)
				phys_buf_printf(&known, "%s%s", i ? ", " : "",
				    phys_engines[i]->type);
			phys_usage_error(usage_text, "--engines: no engine '%s' "
			    "(%s, or all)", t, known.s);
		}
		for (i = 0; i < cmp->n; i++)
			if (strcmp(cmp->engines[i], e->type) == 0)
				phys_usage_error(usage_text, "--engines: '%s' "
				    "given twice", t);
		push((char ***)&cmp->engines, &cmp->n, (char *)e->type);
	}
	free(list);
	if (cmp->n < 2)
		phys_usage_error(usage_text, "--engines: compare two engines at "
		    "least");
}

static void
parse_options(int argc, char **argv, struct phys_run_options *o,
    struct comparing *cmp)
{
	int c;

	while ((c = getopt_long(argc, argv, ":c:e:hi:n:p:qr:s:t:V", longopts,
	    NULL)) != -1) {
		if (phys_run_option(c, 'i', optarg, usage_text, o))
			continue;
		switch (c) {
		case OPT_REALTIME:
			o->realtime = true;
			break;
		case OPT_LOCKSTEP:
			o->lockstep = true;
			break;
		case OPT_KEYFRAME:
			o->keyframe = optarg;
			break;
		case OPT_SAVE_TO:
			o->save_to = optarg;
			break;
		case OPT_SKIP:
			o->skip_unsupported = true;
			break;
		case OPT_ENGINES:
			parse_engines(optarg, cmp);
			break;
		case OPT_TOL:
			cmp->tol = positive_number("--tolerance", optarg, true);
			cmp->any = true;
			break;
		case OPT_RELTOL:
			cmp->reltol = positive_number("--rel-tolerance", optarg,
			    true);
			cmp->any = true;
			break;
		case OPT_PLOT:
			cmp->plot = optarg;
			cmp->any = true;
			break;
		case OPT_PLOT_FIELDS:
			push(&cmp->fields, &cmp->nfields, optarg);
			cmp->any = true;
			break;
		case OPT_RUNS:
			cmp->runs = optarg;
			cmp->any = true;
			break;
		case 'q':
			phys_set_quiet(true);
			break;
		case 'h':
			phys_help(usage_text, help_text);
		case 'V':
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
	}
}

/* Where run k's state lines go: DIR/ENGINE.jsonl. */
static char *
run_path(const char *dir, const char *engine)
{
	return phys_xasprintf("%s/%s.jsonl", dir, engine);
}

/*
 * --engines: where each engine's run is, for the report and for a stop.
 * A run that fails costs its engine only: the others are still compared,
 * and the report names it with why.
 */
enum run_state { RUN_PENDING, RUN_GOING, RUN_DONE, RUN_FAILED };

struct engines_run {
	struct phys_run_options *o;
	const struct comparing *cmp;
	const char *dir;	/* the runs' directory */
	bool own_dir;		/* a temporary one, removed at the end */
	char **paths;		/* each engine's state lines */
	enum run_state *state;
	char **why;		/* why a run failed */
	const char *going_tmp;	/* the file the run under way writes */
	bool reported;
};

/* An engine's failure said on standard error, unless an earlier engine's
 * was the same (a control line that every engine refuses): said once. */
static void
report_failure(struct engines_run *er, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (er->why[j] && strcmp(er->why[j], er->why[k]) == 0)
			return;
	phys_report();
}

/* One engine's run of w, its state lines into path (replaced whole);
 * -1 with why (the message already given), -2 when the fault is a name
 * the command line gave (an item, a profile, an override), which every
 * engine would refuse alike. */
static int
run_engine(struct phys_scene *w, struct engines_run *er, int start, size_t k)
{
	const char *engine = er->cmp->engines[k];
	struct phys_atomic a;
	int p = phys_preset_for_engine(w, start, engine, true), rc;

	if (p < 0 || phys_atomic_open(&a, er->paths[k]) < 0) {
		phys_report();
		er->why[k] = phys_xstrdup(phys_error());
		return -1;
	}
	er->o->preset = w->profiles[p].name;
	er->o->caller_reports = true;
	er->going_tmp = a.tmp;
	rc = phys_sim_run(w, er->o, a.fp);
	er->going_tmp = NULL;
	if (rc != PHYS_EXIT_OK) {
		er->why[k] = phys_xstrdup(phys_error());
		report_failure(er, k);
		phys_atomic_abort(&a);
		return rc == PHYS_EXIT_USAGE ? -2 : -1;
	}
	if (phys_atomic_commit(&a) < 0) {
		phys_report();
		er->why[k] = phys_xstrdup(phys_error());
		return -1;
	}
	return 0;
}

/* The runs compared on standard output, and plotted: the fields asked
 * for, else those of the items, or with the default items the links'
 * poses. */
static int
report_runs(const struct phys_run_options *o, const struct comparing *cmp,
    const char **names, char **paths, size_t n, bool *differ)
{
	struct phys_ist_opts io;
	struct phys_ist_plotopts po;
	size_t i;
	int rc;

	memset(&io, 0, sizeof io);
	io.inputs = (const char **)paths;
	io.ninputs = n;
	io.tol = cmp->tol;
	io.reltol = cmp->reltol;
	io.out = stdout;
	rc = phys_ist_compare(&io, names, differ);
	if (rc < 0 || !cmp->plot)
		return rc;
	memset(&po, 0, sizeof po);
	po.run_names = names;
	po.format = phys_ist_plot_format_of(cmp->plot);
	if (po.format == IST_PLOT_AUTO)
		po.format = IST_PLOT_PNG;
	io.output = cmp->plot;
	for (i = 0; i < cmp->nfields; i++)
		phys_ist_sel_add(&io.sel, cmp->fields[i]);
	for (i = 0; cmp->nfields == 0 && i < o->nitems; i++)
		phys_ist_sel_add(&io.sel, o->items[i]);
	if (cmp->nfields == 0 && o->nitems == 0)
		phys_ist_sel_add(&io.sel, "*/pose");
	rc = phys_ist_plot(&io, &po);
	phys_ist_sel_free(&io.sel);
	return rc;
}

static const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	default:
		return "a signal";
	}
}

/*
 * The runs that finished compared (when two did), then a line for each
 * engine that did not: {"engine":E,"failed":WHY}, WHY its run's error,
 * or the stop signal sig that ended or forestalled it.
 */
static int
report_finished(struct engines_run *er, int sig, bool *differ)
{
	const struct comparing *cmp = er->cmp;
	const char **names = phys_xcalloc(cmp->n + 1, sizeof *names);
	char **paths = phys_xcalloc(cmp->n + 1, sizeof *paths), *why;
	struct phys_buf b = { 0 };
	size_t k, n = 0;
	int rc = 0;

	er->reported = true;
	*differ = false;
	for (k = 0; k < cmp->n; k++)
		if (er->state[k] == RUN_DONE) {
			names[n] = cmp->engines[k];
			paths[n++] = er->paths[k];
		}
	if (n >= 2 && (rc = report_runs(er->o, cmp, names, paths, n,
	    differ)) < 0)
		phys_report();
	else if (n < 2)
		phys_warn("%zu of %zu engines finished: nothing to compare", n,
		    cmp->n);
	for (k = 0; k < cmp->n; k++) {
		if (er->state[k] == RUN_DONE)
			continue;
		why = er->state[k] == RUN_FAILED ? phys_xstrdup(er->why[k]) :
		    phys_xasprintf("%s by %s%s", er->state[k] == RUN_GOING ?
		    "stopped" : "not run: stopped", signal_name(sig),
		    er->state[k] == RUN_GOING ? "" : " before it");
		phys_buf_puts(&b, "{\"engine\":");
		phys_buf_json_string(&b, cmp->engines[k]);
		phys_buf_puts(&b, ",\"failed\":");
		phys_buf_json_string(&b, why);
		phys_buf_puts(&b, "}\n");
		free(why);
	}
	if (b.len)
		fwrite(b.s, 1, b.len, stdout);
	phys_buf_free(&b);
	free(names);
	free(paths);
	return rc;
}

/* The runs' files, unless --runs keeps them, and a directory of ours. */
static void
remove_runs(struct engines_run *er)
{
	size_t k;

	if (er->going_tmp)
		unlink(er->going_tmp);
	for (k = 0; !er->cmp->runs && k < er->cmp->n; k++)
		if (er->paths[k])
			unlink(er->paths[k]);
	if (er->own_dir)
		rmdir(er->dir);
}

/* A stop: what has finished is reported, and the files go. */
static void
engines_stopped(int sig, void *ctx)
{
	struct engines_run *er = ctx;
	bool differ;

	if (!er->reported)
		report_finished(er, sig, &differ);
	remove_runs(er);
}

/*
 * --engines: w run under each engine from the same starting profile (the
 * engine's own, or that one carried over to it), then the runs that
 * finished compared. 0 when they agree, 1 when they differ, 2 on trouble
 * (an engine that failed among them), as diff(1).
 */
static int
compare_engines(struct phys_scene *w, struct phys_run_options *o,
    const struct comparing *cmp)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl = phys_xasprintf("%s/phys-step.XXXXXX", tmp && *tmp ? tmp :
	    "/tmp"), *label;
	int start = o->preset ? phys_world_find_profile(w, o->preset) : w->start;
	struct engines_run er = { o, cmp, cmp->runs, false, NULL, NULL, NULL,
		NULL, false };
	struct phys_item_list items;
	bool differ = false, failed = false;
	size_t k;
	int rc = 0;

	/* the items are the world's: one that matches nothing under one
	 * engine does under every engine */
	if (start < 0 || phys_items_select(w, o->items, o->nitems, &items) < 0) {
		phys_report();
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	phys_items_free(&items);
	if (er.dir && mkdir(er.dir, 0777) < 0 && errno != EEXIST) {
		phys_warn("%s: %s", er.dir, strerror(errno));
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	if (!er.dir && !(er.dir = mkdtemp(tmpl))) {
		phys_warn("cannot make a directory for the runs: %s",
		    strerror(errno));
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	er.own_dir = !cmp->runs;
	er.paths = phys_xcalloc(cmp->n, sizeof *er.paths);
	er.state = phys_xcalloc(cmp->n, sizeof *er.state);
	er.why = phys_xcalloc(cmp->n, sizeof *er.why);
	phys_stop_defer(engines_stopped, &er);
	for (k = 0; k < cmp->n && rc != -2; k++) {
		phys_signal_check();
		er.paths[k] = run_path(er.dir, cmp->engines[k]);
		label = phys_xasprintf("%s %zu/%zu", cmp->engines[k], k + 1,
		    cmp->n);
		o->label = label;
		er.state[k] = RUN_GOING;
		rc = run_engine(w, &er, start, k);
		er.state[k] = rc == 0 ? RUN_DONE : RUN_FAILED;
		failed |= rc < 0;
		o->label = NULL;
		free(label);
	}
	phys_signal_check();
	er.reported = rc == -2;	/* no report of a command line's fault */
	if (rc != -2)
		rc = report_finished(&er, 0, &differ);
	remove_runs(&er);
	phys_stop_defer(NULL, NULL);
	fflush(stdout);
	phys_signal_check();	/* one that came while reporting */
	for (k = 0; k < cmp->n; k++) {
		free(er.paths[k]);
		free(er.why[k]);
	}
	free(er.paths);
	free(er.state);
	free(er.why);
	free(tmpl);
	if (rc < 0 || failed)
		return PHYS_EXIT_USAGE;
	return differ ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

int
main(int argc, char **argv)
{
	int p = -1;
	struct phys_load_options lo;
	struct phys_run_options o;
	struct comparing cmp = { 0 };
	struct phys_scene w;
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	phys_run_options_default(&o);
	parse_options(argc, argv, &o, &cmp);
	if (argc - optind > 1)
		usage();
	if (cmp.any && cmp.n == 0)
		phys_usage_error(usage_text, "--tolerance, --rel-tolerance, "
		    "--plot, --plot-fields and --runs go with --engines");
	if (cmp.nfields && !cmp.plot)
		phys_usage_error(usage_text, "--plot-fields goes with --plot");
	if (o.control && strcmp(o.control, "-") == 0 && (optind == argc ||
	    strcmp(argv[optind], "-") == 0))
		phys_die(PHYS_EXIT_USAGE, "the world and the control lines "
		    "cannot both come from standard input");
	if (o.lockstep && !o.control)
		phys_usage_error(usage_text, "--lockstep needs -c FILE, where "
		    "the controller's replies come from");
	if (o.lockstep && cmp.n)
		phys_usage_error(usage_text, "--lockstep runs one engine: "
		    "--engines cannot have a controller in the loop");
	if (cmp.n && o.control && strcmp(o.control, "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "--engines runs the world once an "
		    "engine: its control lines come from a file");
	o.progress = phys_stderr_is_tty();
	if (optind == argc || strcmp(argv[optind], "-") == 0)
		phys_stdin_hint("an SDF world");
	phys_load_options_default(&lo);
	lo.skip_unsupported = o.skip_unsupported;
	lo.skip_missing = o.skip_unsupported;
	if (phys_world_load(&w, optind < argc ? argv[optind] : "-", &lo) < 0) {
		phys_report();
		phys_world_free(&w);
		free(o.items);
		free(o.sets);
		free(cmp.engines);
		free(cmp.fields);
		return cmp.n ? PHYS_EXIT_USAGE : PHYS_EXIT_FAIL;
	}
	/* -p of an engine's name where no profile has it: its profile */
	if (o.preset && (p = phys_preset_named(&w, o.preset)) >= 0)
		o.preset = w.profiles[p].name;
	if (o.preset && p < 0) {
		phys_report();
		rc = PHYS_EXIT_USAGE;
	} else if (cmp.n) {
		rc = compare_engines(&w, &o, &cmp);
	} else {
		rc = phys_sim_run(&w, &o, stdout);
	}
	phys_world_free(&w);
	free(o.items);
	free(o.sets);
	free(cmp.engines);
	free(cmp.fields);
	if (phys_close_stdout() != PHYS_EXIT_OK && rc == PHYS_EXIT_OK)
		rc = cmp.n ? PHYS_EXIT_USAGE : PHYS_EXIT_FAIL;
	return rc;
}
