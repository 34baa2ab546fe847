/* phys-introspect - choose, derive, compare and plot fields of state lines. */
#include <sys/stat.h>

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "introspect.h"
#include "plot.h"
#include "items.h"
#include "base.h"

/* What each command does, the first part of its --help. */
static const char filter_help[] =
    "\n"
    "Only the selected items and fields of each state line: as JSON lines\n"
    "of the same structure, or as a table, a column a field.\n";

static const char derive_help[] =
    "\n"
    "A field computed from each NAME=EXPR, a line each state line, with\n"
    "the items the SELECTORs choose before it.\n";

static const char at_help[] =
    "\n"
    "Each selected field's value at time T, interpolated between lines.\n";

static const char delta_help[] =
    "\n"
    "Each selected field's change from time T1 to time T2.\n";

static const char diff_help[] =
    "\n"
    "Runs A and B compared field by field, a line each: the largest\n"
    "absolute and relative difference and when the runs first part; with\n"
    "--series, A - B at each time of A as state lines. Exit 0 when they\n"
    "agree, 1 when they differ, 2 on trouble.\n";

static const char plot_help[] =
    "\n"
    "The selected fields against time, drawn by gnuplot: into a file, on\n"
    "the terminal or in a window, once or while the lines come in.\n";

static const char items_help[] =
    "\n"
    "Every item a run of WORLD can produce, or those a GLOB matches, a\n"
    "JSON line each: name, type, units, fields and doc.\n";

static const char selector_help[] =
    "A SELECTOR names an item (box::link/pose) or a field (box::link/pose.z);\n"
    "'*', '?' and [...] match any part of a name. See phys-introspect(1).\n";

/* Options as bits, to check each against the command it is given to. */
enum {
	O_CSV = 1 << 0,
	O_EVERY = 1 << 1,
	O_FILE = 1 << 2,
	O_FROM = 1 << 3,
	O_KEEP = 1 << 4,
	O_OUTPUT = 1 << 5,
	O_RATE = 1 << 6,
	O_RELTOL = 1 << 7,
	O_SAVESEL = 1 << 8,
	O_SEL = 1 << 9,
	O_TO = 1 << 10,
	O_TOL = 1 << 11,
	O_TSV = 1 << 12,
	O_WINDOW = 1 << 13,
	O_PLOT = 1 << 14,	/* any of plot's own settings */
	O_SERIES = 1 << 15
};
#define O_SAMPLING (O_EVERY | O_FROM | O_RATE | O_TO | O_WINDOW)
#define O_TABLE (O_CSV | O_TSV)
#define O_SELECTION (O_SEL | O_SAVESEL)

/*
 * Each option's help with the commands that take it (O_* bits; 0: every
 * command): --help lists every option, COMMAND --help those it takes, and
 * one given to a command that does not take it is named as written here
 * (plot's settings: as given).
 */
static const struct phys_option_doc option_help[] = {
	{ O_PLOT, NULL,
	    "  --background COLOR     plot: the image's background; 'none' for\n"
	    "                         transparent (default white)\n" },
	{ O_PLOT, NULL,
	    "  --color SELECTOR=COLOR plot: draw the fields SELECTOR matches in\n"
	    "                         COLOR (a name or #RRGGBB); repeatable\n" },
	{ O_CSV, "--csv",
	    "  --csv                  CSV with a header line (filter derive at delta)\n" },
	{ O_EVERY, "--every",
	    "  --every N              keep the first line and every Nth after it\n"
	    "                         (filter derive plot)\n" },
	{ O_FILE, "-f",
	    "  -f, --file FILE        read a run from FILE, '-' for stdin;\n"
	    "                         repeatable; default stdin\n"
	    "                         (filter derive at delta plot)\n" },
	{ O_FROM, "--from",
	    "  --from T               drop lines before sim time T\n"
	    "                         (filter derive plot)\n" },
	{ O_PLOT, NULL,
	    "  --format png|svg|pdf   plot: the image format (default: -o's\n"
	    "                         extension)\n" },
	{ 0, NULL,
	    "  -h, --help             show this help and exit\n" },
	{ O_PLOT, NULL,
	    "  --interval SECONDS     plot --live: redraw at most this often\n"
	    "                         (default 1)\n" },
	{ O_KEEP, "--keep",
	    "  --keep                 derive: write the input items too\n" },
	{ O_PLOT, NULL,
	    "  --live                 plot: redraw while lines come in: on the\n"
	    "                         terminal, in a window where DISPLAY is set,\n"
	    "                         or rewriting -o FILE\n" },
	{ O_PLOT, NULL,
	    "  --logscale x|y         plot: a logarithmic axis; repeatable\n" },
	{ O_OUTPUT, "-o",
	    "  -o, --output FILE      plot: write FILE.png, FILE.svg or FILE.pdf\n" },
	{ O_RATE, "--rate",
	    "  --rate HZ              keep a line each 1/HZ s of sim time\n"
	    "                         (filter derive plot)\n" },
	{ O_RELTOL, "--rel-tolerance",
	    "  --rel-tolerance R      diff: also allow R times the larger magnitude\n" },
	{ O_SAVESEL, "--save-selection",
	    "  --save-selection FILE  write the selectors to FILE (all)\n" },
	{ O_PLOT, NULL,
	    "  --script FILE          plot: write the gnuplot script to FILE\n"
	    "                         instead of running gnuplot\n" },
	{ O_SEL, "--selection",
	    "  --selection FILE       read selectors from FILE, one a line (all)\n" },
	{ O_SERIES, "--series",
	    "  --series               diff: A - B at each time of A, as state\n"
	    "                         lines, instead of a line per field\n" },
	{ O_PLOT, NULL,
	    "  --size WxH             plot: image size in pixels (default 1024x640)\n" },
	{ O_PLOT, NULL,
	    "  --terminal text|sixel|window\n"
	    "                         plot: draw without -o as text or sixel on\n"
	    "                         the terminal or in a window (default: sixel\n"
	    "                         where the terminal has it; --live: a window\n"
	    "                         where DISPLAY is set)\n" },
	{ O_PLOT, NULL,
	    "  --title TEXT           plot: a title above the plot\n" },
	{ O_TO, "--to",
	    "  --to T                 drop lines after sim time T\n"
	    "                         (filter derive plot)\n" },
	{ O_TOL, "--tolerance",
	    "  --tolerance TOL        diff: largest difference that is no change\n" },
	{ O_TSV, "--tsv",
	    "  --tsv                  like --csv, with tabs (filter derive at delta)\n" },
	{ 0, NULL,
	    "  -q, --quiet            no warnings\n" },
	{ 0, NULL,
	    "  -V, --version          show the version and exit\n" },
	{ O_WINDOW, "--window",
	    "  --window N             keep only the last N lines (filter derive\n"
	    "                         plot; plot --live keeps 1000 by default)\n" },
	{ O_PLOT, NULL,
	    "  --xmin X, --xmax X     plot: the time axis' range\n" },
	{ O_PLOT, NULL,
	    "  --ymin Y, --ymax Y     plot: the range of every value axis\n" },
	{ 0, NULL, NULL }
};

/* getopt_long values of the long-only options. */
enum {
	L_CSV = 256, L_EVERY, L_FROM, L_KEEP, L_RATE, L_RELTOL, L_SAVESEL,
	L_SERIES,
	L_SEL, L_TO, L_TOL, L_TSV, L_WINDOW,
	/* plot's settings */
	L_BACKGROUND, L_COLOR, L_FORMAT, L_INTERVAL, L_LIVE, L_LOGSCALE,
	L_SCRIPT, L_SIZE, L_TERMINAL, L_TITLE, L_XMIN, L_XMAX, L_YMIN, L_YMAX
};

static const struct option longopts[] = {
	{ "background", required_argument, NULL, L_BACKGROUND },
	{ "color", required_argument, NULL, L_COLOR },
	{ "csv", no_argument, NULL, L_CSV },
	{ "every", required_argument, NULL, L_EVERY },
	{ "file", required_argument, NULL, 'f' },
	{ "format", required_argument, NULL, L_FORMAT },
	{ "from", required_argument, NULL, L_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, L_INTERVAL },
	{ "keep", no_argument, NULL, L_KEEP },
	{ "live", no_argument, NULL, L_LIVE },
	{ "logscale", required_argument, NULL, L_LOGSCALE },
	{ "output", required_argument, NULL, 'o' },
	{ "rate", required_argument, NULL, L_RATE },
	{ "rel-tolerance", required_argument, NULL, L_RELTOL },
	{ "series", no_argument, NULL, L_SERIES },
	{ "save-selection", required_argument, NULL, L_SAVESEL },
	{ "script", required_argument, NULL, L_SCRIPT },
	{ "selection", required_argument, NULL, L_SEL },
	{ "size", required_argument, NULL, L_SIZE },
	{ "terminal", required_argument, NULL, L_TERMINAL },
	{ "title", required_argument, NULL, L_TITLE },
	{ "to", required_argument, NULL, L_TO },
	{ "tolerance", required_argument, NULL, L_TOL },
	{ "tsv", no_argument, NULL, L_TSV },
	{ "quiet", no_argument, NULL, 'q' },
	{ "version", no_argument, NULL, 'V' },
	{ "window", required_argument, NULL, L_WINDOW },
	{ "xmax", required_argument, NULL, L_XMAX },
	{ "xmin", required_argument, NULL, L_XMIN },
	{ "ymax", required_argument, NULL, L_YMAX },
	{ "ymin", required_argument, NULL, L_YMIN },
	{ NULL, 0, NULL, 0 }
};

struct cmdline {
	struct phys_ist_opts o;
	struct phys_ist_plotopts p;
	unsigned given;		/* O_* bits */
	const char *plotopt;	/* the first of plot's settings given */
	const char *selfile, *savefile;
	char **args;		/* operands after the command */
	int nargs;
};

/* What the table keeps of each command besides its name and help. */
struct takes {
	unsigned opts;		/* O_* bits it accepts */
	int nfixed;		/* operands before the selectors */
	bool need_sel;		/* at least one selector */
};

static const char *usage_text(void);

/* A usage error: the message, then the usage; exit 2. */
#define usage_error(...) phys_usage_error(usage_text(), __VA_ARGS__)

/* ---- the commands ---------------------------------------------------- */

static int
cmd_filter(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;
	return phys_ist_filter(&c->o);
}

static int
cmd_derive(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;
	return phys_ist_derive(&c->o);
}

static double
time_operand(const char *s)
{
	double t;

	if (!phys_parse_double(s, &t))
		usage_error("'%s' is not a time in seconds", s);
	return t;
}

static int
cmd_at(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;
	double t = time_operand(c->args[0]);

	return phys_ist_at(&c->o, &t, 1);
}

static int
cmd_delta(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;
	double t[2];

	t[0] = time_operand(c->args[0]);
	t[1] = time_operand(c->args[1]);
	return phys_ist_at(&c->o, t, 2);
}

static int
cmd_diff(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;
	bool differ;

	if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
		usage_error("diff: standard input can be only one of the runs");
	if (phys_ist_diff(&c->o, c->args[0], c->args[1], &differ) < 0)
		return -1;
	return differ ? 1 : 0;
}

static int
cmd_plot(int argc, char **argv, void *ctx)
{
	struct cmdline *c = ctx;

	if (phys_ist_plot_check(&c->p, c->o.output, c->o.ninputs,
	    isatty(STDOUT_FILENO)) < 0)
		usage_error("%s", phys_error());
	return phys_ist_plot(&c->o, &c->p);
}

/* Every item a run of the world can produce, or those the globs select. */
static int
cmd_items(int argc, char **argv, void *ctx)
{
	struct phys_scene w;
	struct phys_buf b = { 0 };
	int rc;

	if (phys_world_open(&w, argv[0], false) < 0)
		exit(PHYS_EXIT_FAIL);
	rc = phys_items_lines(&w, argv + 1, (size_t)argc - 1, &b);
	if (rc == 0 && b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
		rc = phys_fail("write error");
	phys_buf_free(&b);
	phys_world_free(&w);
	return rc;
}

#define TAKES(opts, nfixed, need_sel) \
	(&(const struct takes){ (opts), (nfixed), (need_sel) })

/* The usage lines are also the SYNOPSIS of phys-introspect(1). */
static const struct phys_subcommand subcommands[] = {
	{ "filter", cmd_filter,
	    "phys-introspect filter [OPTION]... SELECTOR...\n", filter_help,
	    TAKES(O_FILE | O_TABLE | O_SAMPLING | O_SELECTION, 0, true) },
	{ "derive", cmd_derive,
	    "phys-introspect derive [OPTION]... [SELECTOR]... NAME=EXPR...\n",
	    derive_help, TAKES(O_FILE | O_TABLE | O_SAMPLING | O_SELECTION |
	    O_KEEP, 0, false) },
	{ "at", cmd_at, "phys-introspect at [OPTION]... T [SELECTOR]...\n",
	    at_help, TAKES(O_FILE | O_TABLE | O_SELECTION, 1, false) },
	{ "delta", cmd_delta,
	    "phys-introspect delta [OPTION]... T1 T2 [SELECTOR]...\n",
	    delta_help, TAKES(O_FILE | O_TABLE | O_SELECTION, 2, false) },
	{ "diff", cmd_diff,
	    "phys-introspect diff [OPTION]... A B [SELECTOR]...\n", diff_help,
	    TAKES(O_RELTOL | O_TOL | O_SELECTION | O_SERIES, 2, false) },
	{ "plot", cmd_plot, "phys-introspect plot [OPTION]... SELECTOR...\n",
	    plot_help, TAKES(O_FILE | O_OUTPUT | O_SAMPLING | O_SELECTION |
	    O_PLOT, 0, true) },
	{ "items", cmd_items, "phys-introspect items WORLD [GLOB]...\n",
	    items_help, TAKES(0, 1, false) },
	{ NULL, NULL, NULL, NULL, NULL }
};

/* The help is this command's own: help() below. */
static const struct phys_command command = {
	subcommands, "phys-introspect --help | --version\n", NULL
};

/* The command being run, once its name is read. */
static const struct phys_subcommand *current;

static const struct takes *
takes(const struct phys_subcommand *cmd)
{
	return cmd->data;
}

static const char *
usage_text(void)
{
	return phys_command_usage(&command, current);
}

/* The help of the command being run: its usage, what it does and the
 * options it takes; before one is, every command's usage and option. */
static _Noreturn void
help(void)
{
	unsigned opts = current ? takes(current)->opts : ~0u;

	fputs(usage_text(), stdout);
	fputs(current ? current->help : "\n", stdout);
	fputs(current ? "\n" : "Options, with the commands they apply to:\n",
	    stdout);
	phys_option_docs(option_help, opts);
	if (opts & O_SELECTION) {
		putchar('\n');
		fputs(selector_help, stdout);
	}
	exit(phys_close_stdout());
}

static double
opt_double(const char *opt, const char *arg)
{
	return phys_arg_number(usage_text(), opt, arg, -HUGE_VAL, true);
}

static long
opt_count(const char *opt, const char *arg)
{
	return phys_arg_count(usage_text(), opt, arg, 1);
}

static double
opt_nonneg(const char *opt, const char *arg)
{
	return phys_arg_number(usage_text(), opt, arg, 0, true);
}

/* ---- command line ---------------------------------------------------- */

/* One of plot's settings; a bad value is a usage error. */
static void
plot_option(struct cmdline *c, int ch, char *arg)
{
	const struct option *lo;

	c->given |= O_PLOT;
	for (lo = longopts; lo->val != ch; lo++)
		;
	if (!c->plotopt)
		c->plotopt = phys_xasprintf("--%s", lo->name);
	if (phys_ist_plot_setting(&c->p, lo->name, arg) < 0)
		usage_error("%s", phys_error());
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct cmdline *c = ctx;
	struct phys_ist_sampling *s = &c->o.samp;
	int ch;

	while ((ch = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			c->given |= O_FILE;
			phys_ist_input_add(&c->o, optarg);
			break;
		case 'h':
			help();
		case 'o':
			c->given |= O_OUTPUT;
			c->o.output = optarg;
			break;
		case 'V':
			phys_version();
		case 'q':
			phys_set_quiet(true);
			break;
		case L_CSV:
			c->given |= O_CSV;
			break;
		case L_TSV:
			c->given |= O_TSV;
			break;
		case L_KEEP:
			c->given |= O_KEEP;
			c->o.keep = true;
			break;
		case L_EVERY:
			c->given |= O_EVERY;
			s->every = opt_count("--every", optarg);
			break;
		case L_WINDOW:
			c->given |= O_WINDOW;
			s->window = opt_count("--window", optarg);
			break;
		case L_FROM:
			c->given |= O_FROM;
			s->has_from = true;
			s->from = opt_double("--from", optarg);
			break;
		case L_TO:
			c->given |= O_TO;
			s->has_to = true;
			s->to = opt_double("--to", optarg);
			break;
		case L_RATE:
			c->given |= O_RATE;
			s->rate = opt_double("--rate", optarg);
			if (s->rate <= 0)
				usage_error("--rate: '%s' is not above 0",
				    optarg);
			break;
		case L_TOL:
			c->given |= O_TOL;
			c->o.tol = opt_nonneg("--tolerance", optarg);
			break;
		case L_RELTOL:
			c->given |= O_RELTOL;
			c->o.reltol = opt_nonneg("--rel-tolerance", optarg);
			break;
		case L_SERIES:
			c->given |= O_SERIES;
			c->o.series = true;
			break;
		case L_SEL:
			c->given |= O_SEL;
			c->selfile = optarg;
			break;
		case L_SAVESEL:
			c->given |= O_SAVESEL;
			c->savefile = optarg;
			break;
		case L_BACKGROUND: case L_COLOR: case L_FORMAT:
		case L_INTERVAL: case L_LIVE: case L_LOGSCALE: case L_SCRIPT:
		case L_SIZE: case L_TERMINAL: case L_TITLE: case L_XMIN: case L_XMAX:
		case L_YMIN: case L_YMAX:
			plot_option(c, ch, optarg);
			break;
		default:
			phys_option_error(ch, argv, longopts);
		}
	}
}

/* A selector that names a file was most likely meant as the run: runs
 * come from -f or standard input, where the command waits for them. */
static void
warn_file_selectors(const struct cmdline *c)
{
	struct stat st;
	size_t i;

	for (i = 0; i < c->o.sel.n; i++)
		if (stat(c->o.sel.pat[i], &st) == 0 && S_ISREG(st.st_mode))
			phys_warn("selector '%s' is also a file's name: a run "
			    "is read with -f FILE, else from standard input",
			    c->o.sel.pat[i]);
}

static void
check_inputs(struct cmdline *c, const struct phys_subcommand *cmd)
{
	int stdins = phys_ist_inputs(&c->o);

	if (stdins < 0)
		usage_error("%s", phys_error());
	/* items reads a world, and diff its two operands, not the inputs */
	if (cmd->run == cmd_items) {
		if (strcmp(c->args[0], "-") == 0)
			phys_stdin_hint("an SDF world");
		return;
	}
	if (cmd->run == cmd_diff)
		stdins = strcmp(c->args[0], "-") == 0 ||
		    strcmp(c->args[1], "-") == 0;
	if (stdins) {
		warn_file_selectors(c);
		phys_stdin_hint("state lines");
	}
}

/* A selector, or for derive NAME=EXPR: where an expression goes wrong is
 * shown. */
static void
add_operand(struct cmdline *c, const struct phys_subcommand *cmd, const char *s)
{
	struct phys_expr_error err;
	struct phys_buf mark = { 0 };
	size_t k = c->o.ndefs + 1, same;

	switch (phys_ist_operand(&c->o, s, cmd->run == cmd_derive, &err,
	    &same)) {
	case -1:
		phys_expr_error_mark(&mark, s, &err);
		fflush(stdout);
		fprintf(stderr, "%s: expression %zu, column %zu: %s\n%s",
		    phys_progname, k, err.column, err.msg, mark.s);
		exit(PHYS_EXIT_USAGE);
	case -2:
		usage_error("expression %zu: '%s' is defined already by "
		    "expression %zu", k, c->o.defs[same].name, same + 1);
	case -3:
		usage_error("an empty selector");
	}
}

static int
load_selection(struct cmdline *c, const struct phys_subcommand *cmd)
{
	struct phys_ist_sel file = { 0 };
	size_t i;

	if (!c->selfile)
		return 0;
	if (phys_ist_sel_load(&file, c->selfile) < 0)
		return -1;
	/* Definitions saved by derive are of no use to the others. */
	for (i = 0; i < file.n; i++)
		if (cmd->run == cmd_derive || !strchr(file.pat[i], '='))
			add_operand(c, cmd, file.pat[i]);
	phys_ist_sel_free(&file);
	return 0;
}

static void
check_usage(struct cmdline *c, const struct phys_subcommand *cmd)
{
	unsigned opts = takes(cmd)->opts;
	const char *stray = phys_option_stray(option_help, c->given, opts);
	struct phys_ist_sampling *s = &c->o.samp;

	/* plot's settings are named as given */
	if (!stray && (c->given & O_PLOT) && !(opts & O_PLOT))
		stray = c->plotopt;
	if (stray)
		usage_error("%s: %s does not apply", cmd->name, stray);
	if ((c->given & O_CSV) && (c->given & O_TSV))
		usage_error("--csv and --tsv exclude each other");
	c->o.format = c->given & O_CSV ? IST_CSV : c->given & O_TSV ?
	    IST_TSV : IST_JSON;
	if (s->has_from && s->has_to && s->from > s->to)
		usage_error("--from %g is after --to %g", s->from, s->to);
	if (c->nargs < takes(cmd)->nfixed)
		usage_error("%s: needs %s", cmd->name, takes(cmd)->nfixed == 1 ?
		    (cmd->run == cmd_items ? "WORLD" : "a time T") :
		    cmd->run == cmd_diff ? "two runs A and B" :
		    "two times T1 and T2");
}

/* diff answers as diff(1) does: 0 the same, 1 different, 2 trouble. */
static int
exit_status(const struct phys_subcommand *cmd, int rc)
{
	if (cmd->run == cmd_diff && rc < 0)
		return PHYS_EXIT_USAGE;
	return rc != 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static void
cmdline_free(struct cmdline *c)
{
	phys_ist_opts_free(&c->o);
	phys_ist_plotopts_free(&c->p);
	free((char *)c->plotopt);
}

static int
run_command(struct cmdline *c, const struct phys_subcommand *cmd)
{
	if (load_selection(c, cmd) < 0)
		return -1;
	if (takes(cmd)->need_sel && c->o.sel.n == 0)
		usage_error("%s: no SELECTOR given", cmd->name);
	if (cmd->run == cmd_derive && c->o.ndefs == 0)
		usage_error("derive: no NAME=EXPR given");
	check_inputs(c, cmd);
	if (c->savefile && phys_ist_save_selection(&c->o, c->savefile) < 0)
		return -1;
	return cmd->run(c->nargs, c->args, c);
}

int
main(int argc, char **argv)
{
	const struct phys_subcommand *cmd;
	struct cmdline c;
	int i, rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	memset(&c, 0, sizeof c);
	c.o.out = stdout;
	c.p.interval = 1;
	if (!(cmd = phys_command_split(&command, &current, &argc, &argv,
	    ":f:ho:qV", parse_options, &c)))
		usage_error("no command given");
	c.args = argv;
	c.nargs = argc;
	check_usage(&c, cmd);
	for (i = takes(cmd)->nfixed; i < c.nargs; i++)
		add_operand(&c, cmd, c.args[i]);
	rc = run_command(&c, cmd);
	if (rc < 0)
		phys_report();
	if (phys_close_stdout() != PHYS_EXIT_OK)
		rc = -1;
	rc = exit_status(cmd, rc);
	cmdline_free(&c);
	return rc;
}
