/* phys-step - run an SDF world under one engine or several; state lines. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "atomic.h"
#include "compare.h"
#include "engine.h"
#include "plot.h"
#include "preset.h"
#include "sim.h"
#include "world.h"

static const char usage_text[] =
    "usage: phys-step [-q] [-c FILE] [-e N] [-i GLOB]... [-n STEPS]\n"
    "                 [-p PRESET] [-r HZ] [-s NAME=VALUE]... [-t SECONDS]\n"
    "                 [--lockstep] [--realtime] [--save-to WORLD]\n"
    "                 [--skip-unsupported] [WORLD | -]\n"
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
    "      --lockstep           after each state line, wait for one reply on\n"
    "                           -c: control lines, an array of them, or {}\n"
    "      --realtime           pace the run by real_time_factor\n"
    "      --save-to WORLD      world file that \"save\" control lines add\n"
    "                           profiles to\n"
    "      --skip-unsupported   skip mesh, heightmap and other unsupported\n"
    "                           collisions with a warning\n"
    "      --engines LIST       run under each engine of LIST (ode,bullet,...\n"
    "                           or all) and compare the runs field by field\n"
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
	OPT_TOL, OPT_RELTOL, OPT_PLOT, OPT_PLOT_FIELDS, OPT_RUNS, OPT_LOCKSTEP };

static const struct option longopts[] = {
	{ "control", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 't' },
	{ "engines", required_argument, NULL, OPT_ENGINES },
	{ "every", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "items", required_argument, NULL, 'i' },
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

/* One engine's run of w, its state lines into path (replaced whole). */
static int
run_engine(struct phys_scene *w, struct phys_run_options *o, int start,
    const char *engine, const char *path)
{
	struct phys_atomic a;
	int p = phys_preset_for_engine(w, start, engine), rc;

	if (p < 0) {
		phys_report();
		return -1;
	}
	o->preset = w->profiles[p].name;
	if (phys_atomic_open(&a, path) < 0) {
		phys_report();
		return -1;
	}
	rc = phys_sim_run(w, o, a.fp);
	if (rc != PHYS_EXIT_OK) {
		phys_atomic_abort(&a);
		return -1;
	}
	if (phys_atomic_commit(&a) < 0) {
		phys_report();
		return -1;
	}
	return 0;
}

/* The runs compared on standard output, and plotted: the fields asked
 * for, else those of the items, or with the default items the links'
 * poses. */
static int
report_runs(const struct phys_run_options *o, const struct comparing *cmp,
    char **paths, bool *differ)
{
	struct phys_ist_opts io;
	struct phys_ist_plotopts po;
	size_t i;
	int rc;

	memset(&io, 0, sizeof io);
	io.inputs = (const char **)paths;
	io.ninputs = cmp->n;
	io.tol = cmp->tol;
	io.reltol = cmp->reltol;
	io.out = stdout;
	rc = phys_ist_compare(&io, cmp->engines, differ);
	if (rc < 0 || !cmp->plot)
		return rc;
	memset(&po, 0, sizeof po);
	po.run_names = cmp->engines;
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

/*
 * --engines: w run under each engine from the same starting profile (the
 * engine's own, or that one carried over to it), then the runs compared.
 * 0 when they agree, 1 when they differ, 2 on trouble, as diff(1).
 */
static int
compare_engines(struct phys_scene *w, struct phys_run_options *o,
    const struct comparing *cmp)
{
	const char *tmp = getenv("TMPDIR"), *dir = cmp->runs;
	char *tmpl = phys_xasprintf("%s/phys-step.XXXXXX", tmp && *tmp ? tmp :
	    "/tmp"), **paths;
	int start = o->preset ? phys_world_find_profile(w, o->preset) : w->start;
	bool differ = false;
	size_t k, made = 0;
	int rc = 0;

	if (start < 0) {
		phys_report();
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	if (dir && mkdir(dir, 0777) < 0 && errno != EEXIST) {
		phys_warn("%s: %s", dir, strerror(errno));
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	if (!dir && !(dir = mkdtemp(tmpl))) {
		phys_warn("cannot make a directory for the runs: %s",
		    strerror(errno));
		free(tmpl);
		return PHYS_EXIT_USAGE;
	}
	paths = phys_xcalloc(cmp->n, sizeof *paths);
	for (k = 0; k < cmp->n && rc == 0; k++, made++) {
		paths[k] = run_path(dir, cmp->engines[k]);
		rc = run_engine(w, o, start, cmp->engines[k], paths[k]);
	}
	if (rc == 0 && (rc = report_runs(o, cmp, paths, &differ)) < 0)
		phys_report();
	for (k = 0; k < made; k++) {
		if (!cmp->runs)
			unlink(paths[k]);
		free(paths[k]);
	}
	free(paths);
	if (!cmp->runs)
		rmdir(dir);
	free(tmpl);
	if (rc < 0)
		return PHYS_EXIT_USAGE;
	return differ ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

int
main(int argc, char **argv)
{
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
	o.progress = phys_stderr_is_tty() && cmp.n == 0;
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
	if (cmp.n)
		rc = compare_engines(&w, &o, &cmp);
	else
		rc = phys_sim_run(&w, &o, stdout);
	phys_world_free(&w);
	free(o.items);
	free(o.sets);
	free(cmp.engines);
	free(cmp.fields);
	if (phys_close_stdout() != PHYS_EXIT_OK && rc == PHYS_EXIT_OK)
		rc = cmp.n ? PHYS_EXIT_USAGE : PHYS_EXIT_FAIL;
	return rc;
}
