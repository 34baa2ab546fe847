/* phys-introspect - choose, derive, compare and plot fields of state lines. */
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

/* Also the SYNOPSIS of phys-introspect(1): keep the two the same. */
static const char usage_text[] =
    "usage: phys-introspect filter [OPTION]... SELECTOR...\n"
    "       phys-introspect derive [OPTION]... [SELECTOR]... NAME=EXPR...\n"
    "       phys-introspect at [OPTION]... T [SELECTOR]...\n"
    "       phys-introspect delta [OPTION]... T1 T2 [SELECTOR]...\n"
    "       phys-introspect diff [OPTION]... A B [SELECTOR]...\n"
    "       phys-introspect plot [OPTION]... SELECTOR...\n"
    "       phys-introspect items WORLD [GLOB]...\n"
    "       phys-introspect --help | --version\n";

static const char options_text[] =
    "\n"
    "Options, with the commands they apply to:\n"
    "  --background COLOR     plot: the image's background; 'none' for\n"
    "                         transparent (default white)\n"
    "  --color SELECTOR=COLOR plot: draw the fields SELECTOR matches in\n"
    "                         COLOR (a name or #RRGGBB); repeatable\n"
    "  --csv                  CSV with a header line (filter derive at delta)\n"
    "  --every N              keep the first line and every Nth after it\n"
    "                         (filter derive plot)\n"
    "  -f, --file FILE        read a run from FILE, '-' for stdin;\n"
    "                         repeatable; default stdin\n"
    "                         (filter derive at delta plot)\n"
    "  --from T               drop lines before sim time T\n"
    "                         (filter derive plot)\n"
    "  --format png|svg|pdf   plot: the image format (default: -o's\n"
    "                         extension)\n"
    "  -h, --help             show this help and exit\n"
    "  --interval SECONDS     plot --live: redraw at most this often\n"
    "                         (default 1)\n"
    "  --keep                 derive: write the input items too\n"
    "  --live                 plot: redraw while lines come in: on the\n"
    "                         terminal, in a window where DISPLAY is set,\n"
    "                         or rewriting -o FILE\n"
    "  --logscale x|y         plot: a logarithmic axis; repeatable\n"
    "  -o, --output FILE      plot: write FILE.png, FILE.svg or FILE.pdf\n"
    "  --rate HZ              keep a line each 1/HZ s of sim time\n"
    "                         (filter derive plot)\n"
    "  --rel-tolerance R      diff: also allow R times the larger magnitude\n"
    "  --save-selection FILE  write the selectors to FILE (all)\n"
    "  --script FILE          plot: write the gnuplot script to FILE\n"
    "                         instead of running gnuplot\n"
    "  --selection FILE       read selectors from FILE, one a line (all)\n"
    "  --series               diff: A - B at each time of A, as state\n"
    "                         lines, instead of a line per field\n"
    "  --size WxH             plot: image size in pixels (default 1024x640)\n"
    "  --terminal text|sixel|window\n"
    "                         plot: draw without -o as text or sixel on\n"
    "                         the terminal or in a window (default: sixel\n"
    "                         where the terminal has it; --live: a window\n"
    "                         where DISPLAY is set)\n"
    "  --title TEXT           plot: a title above the plot\n"
    "  --to T                 drop lines after sim time T\n"
    "                         (filter derive plot)\n"
    "  --tolerance TOL        diff: largest difference that is no change\n"
    "  --tsv                  like --csv, with tabs (filter derive at delta)\n"
    "  -V, --version          show the version and exit\n"
    "  --window N             keep only the last N lines (filter derive\n"
    "                         plot; plot --live keeps 1000 by default)\n"
    "  --xmin X, --xmax X     plot: the time axis' range\n"
    "  --ymin Y, --ymax Y     plot: the range of every value axis\n"
    "\n"
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

/* getopt_long values of the long-only options. */
enum {
	L_CSV = 256, L_EVERY, L_FROM, L_KEEP, L_RATE, L_RELTOL, L_SAVESEL,
	L_SEL, L_SERIES, L_TO, L_TOL, L_TSV, L_WINDOW,
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
	{ "save-selection", required_argument, NULL, L_SAVESEL },
	{ "script", required_argument, NULL, L_SCRIPT },
	{ "selection", required_argument, NULL, L_SEL },
	{ "series", no_argument, NULL, L_SERIES },
	{ "size", required_argument, NULL, L_SIZE },
	{ "terminal", required_argument, NULL, L_TERMINAL },
	{ "title", required_argument, NULL, L_TITLE },
	{ "to", required_argument, NULL, L_TO },
	{ "tolerance", required_argument, NULL, L_TOL },
	{ "tsv", no_argument, NULL, L_TSV },
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
	bool has_interval;
	const char *selfile, *savefile;
	char **args;		/* operands after the command */
	int nargs;
};

struct command {
	const char *name;
	int (*run)(struct cmdline *c);
	unsigned opts;		/* O_* bits it accepts */
	int nfixed;		/* operands before the selectors */
	bool need_sel;		/* at least one selector */
};

/* A usage error: the message, then the usage; exit 2. */
#define usage_error(...) phys_usage_error(usage_text, __VA_ARGS__)

static double
opt_double(const char *opt, const char *arg)
{
	return phys_arg_number(usage_text, opt, arg, -HUGE_VAL, true);
}

static long
opt_count(const char *opt, const char *arg)
{
	return phys_arg_count(usage_text, opt, arg, 1);
}

static double
opt_nonneg(const char *opt, const char *arg)
{
	return phys_arg_number(usage_text, opt, arg, 0, true);
}

/* ---- the commands ---------------------------------------------------- */

static int
cmd_filter(struct cmdline *c)
{
	return phys_ist_filter(&c->o);
}

static int
cmd_derive(struct cmdline *c)
{
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
cmd_at(struct cmdline *c)
{
	double t = time_operand(c->args[0]);

	return phys_ist_at(&c->o, &t, 1);
}

static int
cmd_delta(struct cmdline *c)
{
	double t[2];

	t[0] = time_operand(c->args[0]);
	t[1] = time_operand(c->args[1]);
	return phys_ist_at(&c->o, t, 2);
}

static int
cmd_diff(struct cmdline *c)
{
	bool differ;

	if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
		usage_error("diff: standard input can be only one of the runs");
	if (phys_ist_diff(&c->o, c->args[0], c->args[1], &differ) < 0)
		return -1;
	return differ ? 1 : 0;
}

static void
check_ranges(const struct phys_ist_plotopts *p)
{
	if (p->has_xmin && p->has_xmax && p->xmin >= p->xmax)
		usage_error("plot: --xmin %g is not below --xmax %g", p->xmin,
		    p->xmax);
	if (p->has_ymin && p->has_ymax && p->ymin >= p->ymax)
		usage_error("plot: --ymin %g is not below --ymax %g", p->ymin,
		    p->ymax);
	if (p->logx && ((p->has_xmin && p->xmin <= 0) ||
	    (p->has_xmax && p->xmax <= 0)))
		usage_error("plot: a logarithmic x axis needs a range above 0");
	if (p->logy && ((p->has_ymin && p->ymin <= 0) ||
	    (p->has_ymax && p->ymax <= 0)))
		usage_error("plot: a logarithmic y axis needs a range above 0");
}

static int
cmd_plot(struct cmdline *c)
{
	struct phys_ist_plotopts *p = &c->p;
	const char *out = c->o.output;

	if (out && p->format == IST_PLOT_AUTO &&
	    (p->format = phys_ist_plot_format_of(out)) == IST_PLOT_AUTO)
		usage_error("plot: -o %s: the name must end in .png, .svg or "
		    ".pdf, or give --format", out);
	if (!out && p->format != IST_PLOT_AUTO)
		usage_error("plot: --format needs -o FILE");
	if (c->has_interval && !p->live)
		usage_error("plot: --interval needs --live");
	if (p->live && p->script)
		usage_error("plot: --live and --script exclude each other");
	if (p->live && c->o.ninputs > 1)
		usage_error("plot: --live draws one run");
	if (p->term != IST_TERM_AUTO && (out || p->script))
		usage_error("plot: --terminal and %s exclude each other",
		    out ? "-o" : "--script");
	if (!out && !p->script && !isatty(STDOUT_FILENO) &&
	    p->term != IST_TERM_WINDOW && !(p->live &&
	    p->term == IST_TERM_AUTO && getenv("DISPLAY") &&
	    *getenv("DISPLAY")))
		usage_error("plot: standard output is not a terminal: give "
		    "-o FILE.png, -o FILE.svg or -o FILE.pdf");
	check_ranges(p);
	return phys_ist_plot(&c->o, p);
}

/* Every item a run of the world can produce, or those the globs select. */
static int
cmd_items(struct cmdline *c)
{
	struct phys_item_list l;
	struct phys_world w;
	struct phys_buf b = { 0 };
	size_t i;
	int rc;

	if (phys_world_open(&w, c->args[0], false) < 0)
		exit(PHYS_EXIT_FAIL);
	if (c->nargs > 1)
		rc = phys_items_select(&w, c->args + 1, (size_t)c->nargs - 1, &l);
	else {
		phys_items_all(&w, &l);
		rc = 0;
	}
	for (i = 0; rc == 0 && i < l.n; i++)
		phys_item_line(&w, &l.v[i], &b);
	if (rc == 0 && b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
		rc = phys_fail("write error");
	phys_buf_free(&b);
	phys_items_free(&l);
	phys_world_free(&w);
	return rc;
}

static const struct command commands[] = {
	{ "filter", cmd_filter, O_FILE | O_TABLE | O_SAMPLING | O_SELECTION,
	    0, true },
	{ "derive", cmd_derive, O_FILE | O_TABLE | O_SAMPLING | O_SELECTION |
	    O_KEEP, 0, false },
	{ "at", cmd_at, O_FILE | O_TABLE | O_SELECTION, 1, false },
	{ "delta", cmd_delta, O_FILE | O_TABLE | O_SELECTION, 2, false },
	{ "diff", cmd_diff, O_RELTOL | O_TOL | O_SELECTION | O_SERIES, 2,
	    false },
	{ "plot", cmd_plot, O_FILE | O_OUTPUT | O_SAMPLING | O_SELECTION |
	    O_PLOT, 0, true },
	{ "items", cmd_items, 0, 1, false },
};

static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* Exit 2 naming the commands closest to name. */
static _Noreturn void
unknown_command(const char *name)
{
	const char *names[sizeof commands / sizeof commands[0] + 1];
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		names[i] = commands[i].name;
	names[i] = NULL;
	phys_unknown_command(name, names);
}

/* ---- command line ---------------------------------------------------- */

static void
add_input(struct cmdline *c, const char *path)
{
	c->o.inputs = phys_xrealloc(c->o.inputs, (c->o.ninputs + 1) *
	    sizeof *c->o.inputs);
	c->o.inputs[c->o.ninputs++] = path;
}

/* --color SELECTOR=COLOR; COLOR is a name or #RRGGBB (#AARRGGBB). */
static void
add_color(struct phys_ist_plotopts *p, char *arg)
{
	char *eq = strrchr(arg, '='), *col;
	size_t n;

	if (!eq || eq == arg || !eq[1])
		usage_error("--color: '%s' is not SELECTOR=COLOR", arg);
	col = eq + 1;
	n = strlen(col);
	if (col[0] == '#' ? (n != 7 && n != 9) ||
	    strspn(col + 1, "0123456789abcdefABCDEF") != n - 1 :
	    strspn(col, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
		usage_error("--color: '%s' is not a colour: give a name "
		    "(red, dark-green) or #RRGGBB", col);
	p->colors = phys_xrealloc(p->colors, (p->ncolors + 1) * sizeof *p->colors);
	p->colors[p->ncolors].sel = phys_xstrndup(arg, (size_t)(eq - arg));
	p->colors[p->ncolors++].color = phys_xstrdup(col);
}

static void
parse_size(struct phys_ist_plotopts *p, const char *arg)
{
	char *x = strchr(arg, 'x'), *w;
	long a, b;

	w = x ? phys_xstrndup(arg, (size_t)(x - arg)) : NULL;
	if (!x || !phys_parse_long(w, &a) || !phys_parse_long(x + 1, &b) ||
	    a < 16 || b < 16 || a > 20000 || b > 20000) {
		free(w);
		usage_error("--size: '%s' is not WIDTHxHEIGHT in pixels, "
		    "16 to 20000 each", arg);
	}
	free(w);
	p->width = (int)a;
	p->height = (int)b;
}

static enum phys_ist_plot_term
terminal_of(const char *arg)
{
	if (strcmp(arg, "text") == 0)
		return IST_TERM_TEXT;
	if (strcmp(arg, "sixel") == 0)
		return IST_TERM_SIXEL;
	if (strcmp(arg, "window") == 0)
		return IST_TERM_WINDOW;
	usage_error("--terminal: '%s' is none of text, sixel, window", arg);
}

static void
plot_option(struct cmdline *c, int ch, char *arg)
{
	struct phys_ist_plotopts *p = &c->p;

	const struct option *lo;
	char ext[8];

	c->given |= O_PLOT;
	for (lo = longopts; !c->plotopt && lo->name; lo++)
		if (lo->val == ch)
			c->plotopt = phys_xasprintf("--%s", lo->name);
	switch (ch) {
	case L_BACKGROUND:
		p->background = arg;
		break;
	case L_COLOR:
		add_color(p, arg);
		break;
	case L_FORMAT:
		snprintf(ext, sizeof ext, ".%s", arg);
		if (strlen(arg) > 3 || (p->format = phys_ist_plot_format_of(ext)) ==
		    IST_PLOT_AUTO)
			usage_error("--format: '%s' is none of png, svg, pdf",
			    arg);
		break;
	case L_INTERVAL:
		c->has_interval = true;
		p->interval = opt_double("--interval", arg);
		if (!(p->interval > 0) || p->interval > 3600)
			usage_error("--interval: '%s' is not above 0 and at "
			    "most 3600", arg);
		break;
	case L_LIVE:
		p->live = true;
		break;
	case L_LOGSCALE:
		if (strcmp(arg, "x") == 0)
			p->logx = true;
		else if (strcmp(arg, "y") == 0)
			p->logy = true;
		else
			usage_error("--logscale: '%s' is neither x nor y", arg);
		break;
	case L_SCRIPT:
		p->script = arg;
		break;
	case L_SIZE:
		parse_size(p, arg);
		break;
	case L_TERMINAL:
		p->term = terminal_of(arg);
		break;
	case L_TITLE:
		p->title = arg;
		break;
	case L_XMIN:
		p->has_xmin = true;
		p->xmin = opt_double("--xmin", arg);
		break;
	case L_XMAX:
		p->has_xmax = true;
		p->xmax = opt_double("--xmax", arg);
		break;
	case L_YMIN:
		p->has_ymin = true;
		p->ymin = opt_double("--ymin", arg);
		break;
	case L_YMAX:
		p->has_ymax = true;
		p->ymax = opt_double("--ymax", arg);
		break;
	}
}

static void
parse_options(struct cmdline *c, int argc, char **argv)
{
	struct phys_ist_sampling *s = &c->o.samp;
	int ch;

	while ((ch = getopt_long(argc, argv, ":f:ho:V", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			c->given |= O_FILE;
			add_input(c, optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			fputs(options_text, stdout);
			exit(phys_close_stdout());
		case 'o':
			c->given |= O_OUTPUT;
			c->o.output = optarg;
			break;
		case 'V':
			printf("phys-introspect %s\n", PHYS_VERSION);
			exit(phys_close_stdout());
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
		case L_SEL:
			c->given |= O_SEL;
			c->selfile = optarg;
			break;
		case L_SAVESEL:
			c->given |= O_SAVESEL;
			c->savefile = optarg;
			break;
		case L_SERIES:
			c->given |= O_SERIES;
			c->o.series = true;
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

/* The first given option that cmd does not take, or NULL. */
static const char *
stray_option(const struct command *cmd, unsigned given,
    const char *plotopt)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ O_CSV, "--csv" }, { O_EVERY, "--every" }, { O_FILE, "-f" },
		{ O_FROM, "--from" }, { O_KEEP, "--keep" },
		{ O_OUTPUT, "-o" }, { O_RATE, "--rate" },
		{ O_RELTOL, "--rel-tolerance" },
		{ O_SAVESEL, "--save-selection" }, { O_SEL, "--selection" },
		{ O_SERIES, "--series" },
		{ O_TO, "--to" }, { O_TOL, "--tolerance" }, { O_TSV, "--tsv" },
		{ O_WINDOW, "--window" }, { O_PLOT, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((given & names[i].bit) && !(cmd->opts & names[i].bit))
			return names[i].name ? names[i].name : plotopt;
	return NULL;
}

static void
check_inputs(struct cmdline *c, const struct command *cmd)
{
	size_t i, stdins = 0;

	if (c->o.ninputs == 0)
		add_input(c, "-");
	for (i = 0; i < c->o.ninputs; i++)
		stdins += strcmp(c->o.inputs[i], "-") == 0;
	if (stdins > 1)
		usage_error("standard input can be read only once");
	/* items reads a world, and diff its two operands, not the inputs */
	if (cmd->run == cmd_items) {
		if (strcmp(c->args[0], "-") == 0)
			phys_stdin_hint("an SDF world");
		return;
	}
	if (cmd->run == cmd_diff)
		stdins = strcmp(c->args[0], "-") == 0 ||
		    strcmp(c->args[1], "-") == 0;
	if (stdins)
		phys_stdin_hint("state lines");
}

/* Shows where in NAME=EXPR the expression went wrong. */
static _Noreturn void
expression_error(size_t k, const char *text, const struct phys_expr_error *err)
{
	const char *p;
	size_t i;

	fflush(stdout);
	fprintf(stderr, "%s: expression %zu, column %zu: %s\n  ",
	    phys_progname, k, err->column, err->msg);
	for (p = text; *p; p++)
		fputc((unsigned char)*p < ' ' ? ' ' : *p, stderr);
	fputs("\n  ", stderr);
	for (i = 1; i < err->column; i++)
		fputc(' ', stderr);
	fputs("^\n", stderr);
	exit(PHYS_EXIT_USAGE);
}

static void
add_def(struct cmdline *c, const char *text)
{
	struct phys_expr_error err;
	struct phys_ist_def d;
	size_t i;

	if (phys_ist_def_parse(&d, text, &err) < 0)
		expression_error(c->o.ndefs + 1, text, &err);
	for (i = 0; i < c->o.ndefs; i++)
		if (strcmp(c->o.defs[i].name, d.name) == 0)
			usage_error("expression %zu: '%s' is defined already "
			    "by expression %zu", c->o.ndefs + 1, d.name, i + 1);
	c->o.defs = phys_xrealloc(c->o.defs, (c->o.ndefs + 1) * sizeof *c->o.defs);
	c->o.defs[c->o.ndefs++] = d;
}

/* A selector, or for derive NAME=EXPR. */
static void
add_operand(struct cmdline *c, const struct command *cmd, const char *s)
{
	if (cmd->run == cmd_derive && strchr(s, '='))
		add_def(c, s);
	else if (!*s)
		usage_error("an empty selector");
	else
		phys_ist_sel_add(&c->o.sel, s);
}

static int
load_selection(struct cmdline *c, const struct command *cmd)
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

static int
save_selection(struct cmdline *c)
{
	struct phys_ist_sel all = { 0 };
	size_t i;
	int rc;

	if (!c->savefile)
		return 0;
	for (i = 0; i < c->o.sel.n; i++)
		phys_ist_sel_add(&all, c->o.sel.pat[i]);
	for (i = 0; i < c->o.ndefs; i++)
		phys_ist_sel_add(&all, c->o.defs[i].text);
	rc = phys_ist_sel_save(&all, c->savefile);
	phys_ist_sel_free(&all);
	return rc;
}

static void
check_usage(struct cmdline *c, const struct command *cmd)
{
	const char *stray = stray_option(cmd, c->given, c->plotopt);
	struct phys_ist_sampling *s = &c->o.samp;

	if (stray)
		usage_error("%s: %s does not apply", cmd->name, stray);
	if ((c->given & O_CSV) && (c->given & O_TSV))
		usage_error("--csv and --tsv exclude each other");
	c->o.format = c->given & O_CSV ? IST_CSV : c->given & O_TSV ?
	    IST_TSV : IST_JSON;
	if (s->has_from && s->has_to && s->from > s->to)
		usage_error("--from %g is after --to %g", s->from, s->to);
	if (c->nargs < cmd->nfixed)
		usage_error("%s: needs %s", cmd->name, cmd->nfixed == 1 ?
		    (cmd->run == cmd_items ? "WORLD" : "a time T") :
		    cmd->run == cmd_diff ? "two runs A and B" :
		    "two times T1 and T2");
}

/* diff answers as diff(1) does: 0 the same, 1 different, 2 trouble. */
static int
exit_status(const struct command *cmd, int rc)
{
	if (cmd->run == cmd_diff && rc < 0)
		return PHYS_EXIT_USAGE;
	return rc != 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static void
cmdline_free(struct cmdline *c)
{
	size_t i;

	phys_ist_sel_free(&c->o.sel);
	for (i = 0; i < c->o.ndefs; i++)
		phys_ist_def_free(&c->o.defs[i]);
	free(c->o.defs);
	free(c->o.inputs);
	for (i = 0; i < c->p.ncolors; i++) {
		free((char *)c->p.colors[i].sel);
		free(c->p.colors[i].color);
	}
	free(c->p.colors);
	free((char *)c->plotopt);
}

static int
run_command(struct cmdline *c, const struct command *cmd)
{
	if (load_selection(c, cmd) < 0)
		return -1;
	if (cmd->need_sel && c->o.sel.n == 0)
		usage_error("%s: no SELECTOR given", cmd->name);
	if (cmd->run == cmd_derive && c->o.ndefs == 0)
		usage_error("derive: no NAME=EXPR given");
	check_inputs(c, cmd);
	if (save_selection(c) < 0)
		return -1;
	return cmd->run(c);
}

int
main(int argc, char **argv)
{
	const struct command *cmd;
	struct cmdline c;
	int i, rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	memset(&c, 0, sizeof c);
	c.o.out = stdout;
	c.p.interval = 1;
	parse_options(&c, argc, argv);
	if (optind >= argc)
		usage_error("no command given");
	if (!(cmd = find_command(argv[optind])))
		unknown_command(argv[optind]);
	c.args = argv + optind + 1;
	c.nargs = argc - optind - 1;
	check_usage(&c, cmd);
	for (i = cmd->nfixed; i < c.nargs; i++)
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
