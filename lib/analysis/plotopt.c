/* plotopt.c - a plot's settings from their text, and whether they agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static int
set_color(struct phys_ist_plotopts *p, const char *arg)
{
	const char *eq = strrchr(arg, '='), *col;
	size_t n;

	if (!eq || eq == arg || !eq[1])
		return phys_fail("--color: '%s' is not SELECTOR=COLOR", arg);
	col = eq + 1;
	n = strlen(col);
	if (col[0] == '#' ? (n != 7 && n != 9) ||
	    strspn(col + 1, "0123456789abcdefABCDEF") != n - 1 :
	    strspn(col, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
		return phys_fail("--color: '%s' is not a colour: give a name "
		    "(red, dark-green) or #RRGGBB", col);
	p->colors = phys_xrealloc(p->colors, (p->ncolors + 1) * sizeof *p->colors);
	p->colors[p->ncolors].sel = phys_xstrndup(arg, (size_t)(eq - arg));
	p->colors[p->ncolors++].color = phys_xstrdup(col);
	return 0;
}

static int
set_size(struct phys_ist_plotopts *p, const char *arg)
{
	const char *x = strchr(arg, 'x');
	char *w = x ? phys_xstrndup(arg, (size_t)(x - arg)) : NULL;
	long a, b;
	bool ok = x && phys_parse_long(w, &a) && phys_parse_long(x + 1, &b) &&
	    a >= 16 && b >= 16 && a <= 20000 && b <= 20000;

	free(w);
	if (!ok)
		return phys_fail("--size: '%s' is not WIDTHxHEIGHT in pixels, "
		    "16 to 20000 each", arg);
	p->width = (int)a;
	p->height = (int)b;
	return 0;
}

static int
set_terminal(struct phys_ist_plotopts *p, const char *arg)
{
	static const char *const names[] = { "text", "sixel", "window" };
	static const enum phys_ist_plot_term terms[] = { IST_TERM_TEXT,
	    IST_TERM_SIXEL, IST_TERM_WINDOW };

	for (size_t i = 0; i < 3; i++)
		if (strcmp(arg, names[i]) == 0) {
			p->term = terms[i];
			return 0;
		}
	return phys_fail("--terminal: '%s' is none of text, sixel, window",
	    arg);
}

static int
set_format(struct phys_ist_plotopts *p, const char *arg)
{
	char ext[8];

	snprintf(ext, sizeof ext, ".%s", arg);
	if (strlen(arg) > 3 || (p->format = phys_ist_plot_format_of(ext)) ==
	    IST_PLOT_AUTO)
		return phys_fail("--format: '%s' is none of png, svg, pdf", arg);
	return 0;
}

static int
set_logscale(struct phys_ist_plotopts *p, const char *arg)
{
	if (strcmp(arg, "x") == 0)
		p->logx = true;
	else if (strcmp(arg, "y") == 0)
		p->logy = true;
	else
		return phys_fail("--logscale: '%s' is neither x nor y", arg);
	return 0;
}

static int
set_interval(struct phys_ist_plotopts *p, const char *arg)
{
	double v;

	if (!phys_parse_double(arg, &v))
		return phys_fail("--interval: '%s' is not a number", arg);
	if (!(v > 0) || v > 3600)
		return phys_fail("--interval: '%s' is not above 0 and at most "
		    "3600", arg);
	p->interval = v;
	p->has_interval = true;
	return 0;
}

/* --xmin, --xmax, --ymin, --ymax: which is which by name. */
static int
set_range(struct phys_ist_plotopts *p, const char *name, const char *arg)
{
	bool *has[] = { &p->has_xmin, &p->has_xmax, &p->has_ymin,
	    &p->has_ymax };
	double *v[] = { &p->xmin, &p->xmax, &p->ymin, &p->ymax };
	int k = (name[0] == 'y') * 2 + (strcmp(name + 1, "max") == 0);

	*has[k] = true;
	if (!phys_parse_double(arg, v[k]))
		return phys_fail("--%s: '%s' is not a number", name, arg);
	return 0;
}

int
phys_ist_plot_setting(struct phys_ist_plotopts *p, const char *name,
    const char *arg)
{
	if (strcmp(name, "background") == 0)
		p->background = arg;
	else if (strcmp(name, "color") == 0)
		return set_color(p, arg);
	else if (strcmp(name, "format") == 0)
		return set_format(p, arg);
	else if (strcmp(name, "interval") == 0)
		return set_interval(p, arg);
	else if (strcmp(name, "live") == 0)
		p->live = true;
	else if (strcmp(name, "logscale") == 0)
		return set_logscale(p, arg);
	else if (strcmp(name, "script") == 0)
		p->script = arg;
	else if (strcmp(name, "size") == 0)
		return set_size(p, arg);
	else if (strcmp(name, "terminal") == 0)
		return set_terminal(p, arg);
	else if (strcmp(name, "title") == 0)
		p->title = arg;
	else if (strlen(name) == 4 && (name[0] == 'x' || name[0] == 'y') &&
	    (strcmp(name + 1, "min") == 0 || strcmp(name + 1, "max") == 0))
		return set_range(p, name, arg);
	else
		return phys_fail("--%s: no setting of a plot", name);
	return 0;
}

static int
check_ranges(const struct phys_ist_plotopts *p)
{
	if (p->has_xmin && p->has_xmax && p->xmin >= p->xmax)
		return phys_fail("plot: --xmin %g is not below --xmax %g",
		    p->xmin, p->xmax);
	if (p->has_ymin && p->has_ymax && p->ymin >= p->ymax)
		return phys_fail("plot: --ymin %g is not below --ymax %g",
		    p->ymin, p->ymax);
	if (p->logx && ((p->has_xmin && p->xmin <= 0) ||
	    (p->has_xmax && p->xmax <= 0)))
		return phys_fail("plot: a logarithmic x axis needs a range "
		    "above 0");
	if (p->logy && ((p->has_ymin && p->ymin <= 0) ||
	    (p->has_ymax && p->ymax <= 0)))
		return phys_fail("plot: a logarithmic y axis needs a range "
		    "above 0");
	return 0;
}

int
phys_ist_plot_check(struct phys_ist_plotopts *p, const char *out,
    size_t nruns, bool stdout_tty)
{
	const char *display = getenv("DISPLAY");

	if (out && p->format == IST_PLOT_AUTO &&
	    (p->format = phys_ist_plot_format_of(out)) == IST_PLOT_AUTO)
		return phys_fail("plot: -o %s: the name must end in .png, .svg "
		    "or .pdf, or give --format", out);
	if (!out && p->format != IST_PLOT_AUTO)
		return phys_fail("plot: --format needs -o FILE");
	if (p->has_interval && !p->live)
		return phys_fail("plot: --interval needs --live");
	if (p->live && p->script)
		return phys_fail("plot: --live and --script exclude each other");
	if (p->live && nruns > 1)
		return phys_fail("plot: --live draws one run");
	if (p->term != IST_TERM_AUTO && (out || p->script))
		return phys_fail("plot: --terminal and %s exclude each other",
		    out ? "-o" : "--script");
	if (!out && !p->script && !stdout_tty && p->term != IST_TERM_WINDOW &&
	    !(p->live && p->term == IST_TERM_AUTO && display && *display))
		return phys_fail("plot: standard output is not a terminal: "
		    "give -o FILE.png, -o FILE.svg or -o FILE.pdf");
	return check_ranges(p);
}

void
phys_ist_plotopts_free(struct phys_ist_plotopts *p)
{
	for (size_t i = 0; i < p->ncolors; i++) {
		free((char *)p->colors[i].sel);
		free(p->colors[i].color);
	}
	free(p->colors);
	p->colors = NULL;
	p->ncolors = 0;
}
