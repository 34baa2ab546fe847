/*
 * plot.c - runs of state lines drawn by gnuplot: on the terminal as text,
 * in a window, or into an image file; once at the end of the input, or
 * (--live) again and again while it streams in.
 *
 * Without -o, a plot goes to the terminal: as sixel graphics when it
 * answers the Primary Device Attributes query with the sixel feature, as
 * text otherwise; a live one goes to a window where DISPLAY is set.
 *
 * A live plot reads on one thread and draws on another: the reader only
 * adds rows to a bounded ring under a lock, and the drawer, at most every
 * --interval, copies the ring, hands one long-lived gnuplot the frame
 * through a pipe and waits for gnuplot to say it is done. A slow gnuplot
 * thus makes frames rarer, never the reading slower.
 */
#include "plot.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Rows a live plot keeps when --window is not given. */
#define LIVE_WINDOW 1000
#define DEFAULT_W 1024
#define DEFAULT_H 640
/* How long a terminal has to answer the device attributes query. */
#define DA_TIMEOUT_MS 500
/* A sixel terminal's character cell when it does not tell its pixels: the
 * VT340's, which sixel terminals emulate. */
#define CELL_W 10
#define CELL_H 20
/* What gnuplot prints after each live frame. */
#define FRAME_DONE "phys-introspect: frame done"

/* A gnuplot single-quoted string: only the quote itself is special. */
static void
put_gpstr(struct phys_buf *b, const char *s)
{
	phys_buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			phys_buf_putc(b, '\'');
		phys_buf_putc(b, *s == '\n' ? ' ' : *s);
	}
	phys_buf_putc(b, '\'');
}

static void
put_gpnum(struct phys_buf *b, double v)
{
	if (isfinite(v))
		phys_buf_double(b, v);
	else
		phys_buf_puts(b, "NaN");	/* a gap in the line */
}

/*
 * The terminal's columns and rows, less keep rows at the bottom (for the
 * prompt, or a live plot's messages) when it has room; with px, the
 * pixels of those (0 when the terminal does not tell); with all, its
 * rows, all of them.
 */
static void
terminal_size(int keep, int *w, int *h, int *px_w, int *px_h, int *all)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	long v;

	*w = 80;
	*h = 24;
	if (px_w)
		*px_w = *px_h = 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0) {
		*w = ws.ws_col;
		*h = ws.ws_row;
		if (px_w && ws.ws_xpixel > 0 && ws.ws_ypixel > 0) {
			*px_w = ws.ws_xpixel;
			*px_h = ws.ws_ypixel;
		}
	} else {
		if (c && phys_parse_long(c, &v) && v > 20 && v < 1000)
			*w = (int)v;
		if (l && phys_parse_long(l, &v) && v > 5 && v < 1000)
			*h = (int)v;
	}
	if (all)
		*all = *h;
	if (*h <= keep + 5)
		keep = *h > 6;
	if (px_w)
		*px_h -= *px_h * keep / *h;
	*h -= keep;
}

char *
phys_ist_find_program(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;
	char *cand;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? phys_xstrdup(prog) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = e + 1) {
		e = strchrnul(p, ':');
		cand = e == p ? phys_xasprintf("./%s", prog) :
		    phys_xasprintf("%.*s/%s", (int)(e - p), p, prog);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!*e)
			return NULL;
	}
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The terminal's answer to ESC [ c, up to its final 'c', or what came
 * before DA_TIMEOUT_MS passed; its length.
 */
static size_t
read_da_reply(int fd, char *buf, size_t size)
{
	double end = phys_seconds() + DA_TIMEOUT_MS / 1000.0, left;
	struct pollfd pfd = { fd, POLLIN, 0 };
	const char *p;
	size_t n = 0;
	ssize_t r;

	while (n < size && (left = end - phys_seconds()) > 0) {
		if (poll(&pfd, 1, (int)ceil(left * 1000)) <= 0)
			continue;	/* EINTR, or the time is up */
		if ((r = read(fd, buf + n, size - n)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
		buf[n] = '\0';
		/* the whole answer: ESC [ ? Ps ; ... c */
		if ((p = strstr(buf, "\033[?")) && strchr(p, 'c'))
			break;
	}
	return n;
}

/* Whether the answer ESC [ ? 62 ; 4 ; 22 c lists 4, sixel graphics. */
static bool
da_has_sixel(const char *reply)
{
	const char *p = strstr(reply, "\033[?");
	long v;
	char *e;

	if (!p)
		return false;
	for (p += 3;; p = e + 1) {
		v = strtol(p, &e, 10);
		if (e == p)
			return false;
		if (v == 4 && (*e == ';' || *e == 'c'))
			return true;
		if (*e != ';')
			return false;
	}
}

enum phys_ist_plot_format
phys_ist_plot_format_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (!dot || strchr(dot, '/'))
		return IST_PLOT_AUTO;
	if (strcasecmp(dot, ".png") == 0)
		return IST_PLOT_PNG;
	if (strcasecmp(dot, ".svg") == 0)
		return IST_PLOT_SVG;
	if (strcasecmp(dot, ".pdf") == 0)
		return IST_PLOT_PDF;
	return IST_PLOT_AUTO;
}

/* ---- rows: a ring of the last --window rows of a run ----------------- */

struct table {
	struct phys_ist_cols cols;
	char **units;		/* per column: its unit's text, "" for none */
	const char *name;
	size_t window;		/* rows kept; 0: all */
	double *t, *v;		/* row r at slot (start + r) % cap */
	size_t nrows, cap, start;
};

/* The columns of the run whose first line is f, and their units. */
static void
table_columns(struct table *tb, const struct phys_ist_cols *cols,
    const struct phys_ist_frame *f)
{
	struct phys_unit u;
	size_t i;

	phys_ist_cols_copy(&tb->cols, cols);
	tb->units = phys_xcalloc(cols->n + 1, sizeof *tb->units);
	for (i = 0; i < cols->n; i++) {
		phys_ist_field_unit(f, cols->v[i].name, &u);
		tb->units[i] = phys_xstrdup(phys_unit_known(&u) ? u.text : "");
	}
}

static void
table_units_free(struct table *tb)
{
	size_t i;

	for (i = 0; tb->units && i < tb->cols.n; i++)
		free(tb->units[i]);
	free(tb->units);
	tb->units = NULL;
}

static void
table_add(struct table *tb, double t, const double *v)
{
	size_t n = tb->cols.n, slot, ncap;

	if (tb->window > 0 && tb->nrows == tb->window) {
		slot = tb->start;
		tb->start = (tb->start + 1) % tb->cap;
	} else {
		if (tb->nrows == tb->cap) {
			ncap = tb->cap ? 2 * tb->cap : 1024;
			if (tb->window > 0 && ncap > tb->window)
				ncap = tb->window;
			tb->t = phys_xrealloc(tb->t, ncap * sizeof *tb->t);
			tb->v = phys_xrealloc(tb->v, ncap * (n ? n : 1) *
			    sizeof *tb->v);
			tb->cap = ncap;
		}
		slot = tb->nrows++;	/* start is 0 until the ring is full */
	}
	tb->t[slot] = t;
	memcpy(tb->v + slot * n, v, n * sizeof *v);
}

static size_t
table_slot(const struct table *tb, size_t r)
{
	return (tb->start + r) % tb->cap;
}

/* dst (empty or an earlier copy) gets src's rows in order. */
static void
table_copy(struct table *dst, const struct table *src)
{
	size_t n = src->cols.n, r, s;

	if (dst->cols.n != n || !dst->name) {
		table_units_free(dst);
		phys_ist_cols_free(&dst->cols);
		phys_ist_cols_copy(&dst->cols, &src->cols);
		dst->units = phys_xcalloc(n + 1, sizeof *dst->units);
		for (r = 0; r < n; r++)
			dst->units[r] = phys_xstrdup(src->units[r]);
		dst->name = src->name;
	}
	if (dst->cap < src->nrows) {
		dst->cap = src->nrows;
		dst->t = phys_xrealloc(dst->t, dst->cap * sizeof *dst->t);
		dst->v = phys_xrealloc(dst->v, dst->cap * (n ? n : 1) *
		    sizeof *dst->v);
	}
	for (r = 0; r < src->nrows; r++) {
		s = table_slot(src, r);
		dst->t[r] = src->t[s];
		memcpy(dst->v + r * n, src->v + s * n, n * sizeof *dst->v);
	}
	dst->nrows = src->nrows;
	dst->start = 0;
}

static void
table_free(struct table *tb)
{
	table_units_free(tb);
	phys_ist_cols_free(&tb->cols);
	free(tb->t);
	free(tb->v);
	memset(tb, 0, sizeof *tb);
}

/* ---- axes: one a unit ------------------------------------------------ */

/* The series of all runs, grouped by unit: y, y2, then stacked panels. */
struct axes {
	size_t nseries;
	size_t *group;		/* per series, runs one after the other */
	char **label;		/* per group: "TAIL [UNIT]" or "value" */
	size_t ngroups;
};

/* The label of the fields of one unit: their common tail and the unit. */
static char *
group_label(const struct table *tbs, size_t ntb, const struct axes *ax,
    size_t g, const char *unit)
{
	const char *tail = NULL, *t, *name;
	size_t k, i, s = 0;
	bool same = true;

	for (k = 0; k < ntb; k++)
		for (i = 0; i < tbs[k].cols.n; i++, s++) {
			if (ax->group[s] != g)
				continue;
			name = tbs[k].cols.v[i].name;
			t = strrchr(name, '/');
			t = t ? t + 1 : name;
			if (tail && strcmp(tail, t) != 0)
				same = false;
			tail = t;
		}
	return phys_xasprintf("%s%s%s%s", same && tail ? tail : "value",
	    *unit ? " [" : "", unit, *unit ? "]" : "");
}

static void
axes_build(struct axes *ax, const struct table *tbs, size_t ntb)
{
	const char **units;
	const char *u;
	size_t k, i, g, s = 0;

	memset(ax, 0, sizeof *ax);
	for (k = 0; k < ntb; k++)
		ax->nseries += tbs[k].cols.n;
	ax->group = phys_xcalloc(ax->nseries + 1, sizeof *ax->group);
	units = phys_xcalloc(ax->nseries + 1, sizeof *units);
	for (k = 0; k < ntb; k++)
		for (i = 0; i < tbs[k].cols.n; i++, s++) {
			u = tbs[k].units[i];
			for (g = 0; g < ax->ngroups; g++)
				if (strcmp(units[g], u) == 0)
					break;
			if (g == ax->ngroups)
				units[ax->ngroups++] = u;
			ax->group[s] = g;
		}
	ax->label = phys_xcalloc(ax->ngroups + 1, sizeof *ax->label);
	for (g = 0; g < ax->ngroups; g++)
		ax->label[g] = group_label(tbs, ntb, ax, g, units[g]);
	free(units);
}

static void
axes_free(struct axes *ax)
{
	size_t g;

	for (g = 0; g < ax->ngroups; g++)
		free(ax->label[g]);
	free(ax->label);
	free(ax->group);
}

/* ---- the gnuplot script ---------------------------------------------- */

enum target_kind { T_TEXT, T_SIXEL, T_WINDOW, T_FILE };

/* Where a frame goes. */
struct target {
	enum target_kind kind;
	const char *term;	/* T_WINDOW: qt, wxt or x11 */
	const char *path;	/* T_FILE: the file gnuplot writes */
	enum phys_ist_plot_format format;
	int cols, rows;		/* T_TEXT, T_SIXEL: the frame's characters */
	int all_rows;		/* T_TEXT, T_SIXEL: the terminal's rows */
	int width, height;	/* T_SIXEL, T_FILE: the image's pixels */
};

/* The size and background of an image (transparent: its keyword). */
static void
put_image_opts(struct phys_buf *opts, const struct phys_ist_plotopts *p,
    const struct target *tg, const char *transparent)
{
	const char *bg = p->background ? p->background : "white";

	/* pdfcairo measures in inches: 96 pixels to the inch */
	if (tg->kind == T_FILE && tg->format == IST_PLOT_PDF)
		phys_buf_printf(opts, "noenhanced size %.4gin,%.4gin",
		    tg->width / 96.0, tg->height / 96.0);
	else
		phys_buf_printf(opts, "noenhanced size %d,%d", tg->width,
		    tg->height);
	if (strcmp(bg, "none") == 0) {
		if (transparent)
			phys_buf_printf(opts, " %s", transparent);
	} else {
		phys_buf_puts(opts, " background ");
		put_gpstr(opts, bg);
	}
}

static void
put_file_terminal(struct phys_buf *b, const struct phys_ist_plotopts *p,
    const struct target *tg)
{
	struct phys_buf opts = { 0 };

	put_image_opts(&opts, p, tg, tg->format == IST_PLOT_PNG ?
	    "transparent" : NULL);
	if (tg->format == IST_PLOT_SVG)
		phys_buf_printf(b, "set terminal svg %s\n", opts.s);
	else if (tg->format == IST_PLOT_PDF)
		phys_buf_printf(b, "set terminal pdfcairo %s\n", opts.s);
	else
		phys_buf_printf(b, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
		    "{\n  set terminal pngcairo %s\n} else {\n  set terminal "
		    "png %s\n}\n", opts.s, opts.s);
	phys_buf_free(&opts);
	phys_buf_puts(b, "set output ");
	put_gpstr(b, tg->path);
	phys_buf_putc(b, '\n');
}

static void
put_terminal(struct phys_buf *b, const struct phys_ist_plotopts *p,
    const struct target *tg)
{
	switch (tg->kind) {
	case T_TEXT:
		phys_buf_printf(b, "set terminal dumb noenhanced nofeed size "
		    "%d,%d\n", tg->cols, tg->rows);
		break;
	case T_SIXEL:
		phys_buf_puts(b, "set terminal sixelgd ");
		put_image_opts(b, p, tg, "transparent");
		phys_buf_putc(b, '\n');
		break;
	case T_WINDOW:
		/* persist: the window outlives gnuplot, showing the last
		 * frame until it is closed */
		phys_buf_printf(b, "set terminal %s noenhanced noraise persist\n",
		    tg->term);
		break;
	case T_FILE:
		put_file_terminal(b, p, tg);
		break;
	}
}

static void
put_range(struct phys_buf *b, const char *axis, bool has_lo, double lo,
    bool has_hi, double hi)
{
	phys_buf_printf(b, "set %srange [", axis);
	if (has_lo)
		put_gpnum(b, lo);
	else
		phys_buf_putc(b, '*');
	phys_buf_putc(b, ':');
	if (has_hi)
		put_gpnum(b, hi);
	else
		phys_buf_putc(b, '*');
	phys_buf_puts(b, "]\n");
}

/*
 * The y axis label. Text plots cannot turn text on its side, so there it
 * stands above the axis.
 */
static void
put_ylabel(struct phys_buf *b, const struct target *tg, const char *label,
    bool y2)
{
	if (tg->kind != T_TEXT) {
		phys_buf_puts(b, y2 ? "set y2label " : "set ylabel ");
		put_gpstr(b, label);
		phys_buf_putc(b, '\n');
		return;
	}
	phys_buf_printf(b, "set label %d ", y2 ? 2 : 1);
	put_gpstr(b, label);
	phys_buf_puts(b, y2 ? " at graph 1, graph 1 offset character 6, "
	    "character 1 right\n" : " at graph 0, graph 1 offset character "
	    "-4, character 1 left\n");
}

static void
put_title(struct phys_buf *b, const struct phys_ist_plotopts *p)
{
	if (p->title) {
		phys_buf_puts(b, "set title ");
		put_gpstr(b, p->title);
		phys_buf_putc(b, '\n');
	}
}

static void
put_settings(struct phys_buf *b, const struct phys_ist_plotopts *p,
    const struct target *tg)
{
	put_title(b, p);
	phys_buf_puts(b, "set xlabel 'sim time [s]'\nset grid\n");
	/* Text plots: each entry on its own, title then sample. */
	phys_buf_puts(b, tg->kind == T_TEXT ? "set key below width 3\n"
	    "set tmargin 2\n" : "set key below\n");
	if (p->logx)
		phys_buf_puts(b, "set logscale x\n");
}

/*
 * The time axis: --xmin and --xmax, or else the times of all the runs, so
 * that stacked panels share one axis whatever each one holds.
 */
static void
put_time_range(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const struct phys_ist_plotopts *p)
{
	double lo = p->xmin, hi = p->xmax, t;
	bool has_lo = p->has_xmin, has_hi = p->has_xmax, any = false;
	double dlo = HUGE_VAL, dhi = -HUGE_VAL;
	size_t k, r;

	for (k = 0; k < ntb; k++)
		for (r = 0; r < tbs[k].nrows; r++) {
			t = tbs[k].t[table_slot(&tbs[k], r)];
			if (!isfinite(t) || (p->logx && t <= 0))
				continue;
			dlo = fmin(dlo, t);
			dhi = fmax(dhi, t);
			any = true;
		}
	/* an end not given is the data's, where that leaves a range */
	if (any && dlo < dhi && !has_lo && (!has_hi || dlo < hi)) {
		lo = dlo;
		has_lo = true;
	}
	if (any && dlo < dhi && !has_hi && (!has_lo || dhi > lo)) {
		hi = dhi;
		has_hi = true;
	}
	put_range(b, "x", has_lo, lo, has_hi, hi);
}

static void
put_data(struct phys_buf *b, const struct table *tbs, size_t ntb)
{
	size_t k, r, i, n;

	for (k = 0; k < ntb; k++) {
		n = tbs[k].cols.n;
		phys_buf_printf(b, "$run%zu << EOD\n", k + 1);
		for (r = 0; r < tbs[k].nrows; r++) {
			const double *v = tbs[k].v + table_slot(&tbs[k], r) * n;

			put_gpnum(b, tbs[k].t[table_slot(&tbs[k], r)]);
			for (i = 0; i < n; i++) {
				phys_buf_putc(b, ' ');
				put_gpnum(b, v[i]);
			}
			phys_buf_putc(b, '\n');
		}
		phys_buf_puts(b, "EOD\n");
	}
}

/* The first --color whose selector matches name, or NULL. */
static const char *
color_of(const struct phys_ist_plotopts *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ncolors; i++)
		if (phys_glob(p->colors[i].sel, name))
			return p->colors[i].color;
	return NULL;
}

/*
 * plot ... for the series of groups lo and hi (hi on y2 when apart).
 * Several runs: a colour a run, and a dash pattern a field within it, so
 * that the same field of two runs is told apart by its colour.
 */
static void
put_plot(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const struct phys_ist_plotopts *p, const struct axes *ax, size_t lo,
    size_t hi)
{
	const char *name, *color;
	size_t k, i, s = 0, dash;
	bool first = true;
	char *title;

	phys_buf_puts(b, "plot");
	for (k = 0; k < ntb; k++)
		for (i = 0, dash = 0; i < tbs[k].cols.n; i++, s++) {
			if (ax->group[s] != lo && ax->group[s] != hi)
				continue;
			name = tbs[k].cols.v[i].name;
			title = ntb > 1 ? phys_xasprintf("%s: %s", tbs[k].name,
			    name) : phys_xstrdup(name);
			phys_buf_printf(b, "%s $run%zu using 1:%zu with lines axes "
			    "x1y%d", first ? "" : ",", k + 1, i + 2,
			    ax->group[s] == hi && hi != lo ? 2 : 1);
			if ((color = color_of(p, name))) {
				phys_buf_puts(b, " linecolor rgb ");
				put_gpstr(b, color);
			} else if (ntb > 1) {
				phys_buf_printf(b, " linecolor %zu", k + 1);
			}
			if (ntb > 1)
				phys_buf_printf(b, " dashtype %zu", ++dash);
			phys_buf_puts(b, " title ");
			put_gpstr(b, title);
			free(title);
			first = false;
		}
	phys_buf_putc(b, '\n');
}

static void
put_yaxis(struct phys_buf *b, const struct phys_ist_plotopts *p, const char *y)
{
	put_range(b, y, p->has_ymin, p->ymin, p->has_ymax, p->ymax);
	if (p->logy)
		phys_buf_printf(b, "set logscale %s\n", y);
}

/* Stacked panels: the pixels (or text rows) of each, and around them. */
#define PANEL_H 200		/* an image's panel, when --size is not given */
#define PANEL_TOP 16		/* above the first */
#define PANEL_TITLE 28		/* more above it for --title */
#define PANEL_BOTTOM 64		/* below the last: its tick labels, xlabel */
#define PANEL_GAP 24		/* between two: tick labels apart */

/*
 * Three units or more: a panel a unit, stacked, each with its own legend
 * inside it, all on the one time axis, whose ticks and label only the
 * bottom panel shows. The panels are placed by hand, at the same left
 * margin, so their axes line up; an image without --size is as high as
 * its panels need.
 */
static void
put_panels(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const struct phys_ist_plotopts *p, const struct target *tg,
    const struct axes *ax)
{
	bool text = tg->kind == T_TEXT;
	/* a text plot's screen is its rows less one, in whole rows */
	double h = text ? tg->rows - 1 : tg->height, top, bottom, gap, each, y;
	size_t g, n = ax->ngroups;

	top = text ? 1 + (p->title != NULL) : PANEL_TOP + (p->title ?
	    PANEL_TITLE : 0);
	bottom = text ? 2 : PANEL_BOTTOM;
	gap = text ? 2 : PANEL_GAP;
	each = (h - top - bottom - gap * (double)(n - 1)) / (double)n;
	if (text)
		each = floor(each);
	if (each < 1)
		each = 1;
	phys_buf_puts(b, "set grid\nset multiplot\n");
	phys_buf_printf(b, "set lmargin %d\nset rmargin %d\n", text ? 10 : 12,
	    text ? 2 : 4);
	/* its legend inside it, drawn over the lines */
	phys_buf_puts(b, "set key inside top right opaque\n");
	if (p->logx)
		phys_buf_puts(b, "set logscale x\n");
	put_time_range(b, tbs, ntb, p);
	put_yaxis(b, p, "y");
	for (g = 0; g < n; g++) {
		y = top + (double)g * (each + gap);
		if (g == 0)
			put_title(b, p);
		else if (p->title)
			phys_buf_puts(b, "unset title\n");
		/* half a row (or pixel) more: gnuplot rounds down */
		phys_buf_printf(b, "set tmargin at screen %.6f\nset bmargin at "
		    "screen %.6f\n", 1 - (y - 0.5) / h, 1 - (y + each - 0.5) / h);

		if (g + 1 < n)
			phys_buf_puts(b, "set format x ''\nunset xlabel\n");
		else
			phys_buf_puts(b, "set format x '% h'\nset xlabel "
			    "'sim time [s]'\n");
		put_ylabel(b, tg, ax->label[g], false);
		put_plot(b, tbs, ntb, p, ax, g, g);
	}
	phys_buf_puts(b, "unset multiplot\n");
}

/* An image of n panels, unless --size says: PANEL_H pixels each. */
static void
size_to_panels(struct target *tg, const struct phys_ist_plotopts *p,
    size_t n)
{
	if (tg->kind != T_FILE || p->height || n < 3)
		return;
	tg->height = PANEL_TOP + (p->title ? PANEL_TITLE : 0) + PANEL_BOTTOM +
	    (int)n * PANEL_H + (int)(n - 1) * PANEL_GAP;
}

/*
 * One unit: one y axis. Two: y and y2. More: a panel a unit, stacked,
 * sharing the time axis.
 */
static void
put_script(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const struct phys_ist_plotopts *p, const struct target *target)
{
	struct target tg = *target;
	struct axes ax;

	axes_build(&ax, tbs, ntb);
	size_to_panels(&tg, p, ax.ngroups);
	put_terminal(b, p, &tg);
	put_data(b, tbs, ntb);
	if (ax.ngroups >= 3) {
		put_panels(b, tbs, ntb, p, &tg, &ax);
	} else {
		put_settings(b, p, &tg);
		put_time_range(b, tbs, ntb, p);
		put_yaxis(b, p, "y");
	}
	if (ax.ngroups <= 1) {
		put_ylabel(b, &tg, ax.ngroups ? ax.label[0] : "value", false);
		put_plot(b, tbs, ntb, p, &ax, 0, 0);
	} else if (ax.ngroups == 2) {
		put_ylabel(b, &tg, ax.label[0], false);
		put_ylabel(b, &tg, ax.label[1], true);
		phys_buf_puts(b, "set ytics nomirror\nset y2tics\n");
		put_yaxis(b, p, "y2");
		put_plot(b, tbs, ntb, p, &ax, 0, 1);
	}
	if (tg.kind == T_FILE)
		phys_buf_puts(b, "unset output\n");
	axes_free(&ax);
}

/* ---- gnuplot --------------------------------------------------------- */

/*
 * gnuplot reads commands from a pipe, but a script of data from a file:
 * from its standard input it takes megabytes of data blocks many times
 * slower than with "load", so each script goes into a temporary file
 * that the pipe tells it to load.
 */
struct gnuplot {
	pid_t pid;
	int in;			/* its standard input: commands */
	int out;		/* its standard output, or -1: ours */
	FILE *err;		/* its standard error, or NULL: ours */
	char *script;		/* the temporary script file, or NULL */
};

/* script into a new file renamed over path; -1 and errno. */
static int
replace_file(const char *path, const struct phys_buf *script)
{
	char *tmp = phys_xasprintf("%s.XXXXXX", path);
	int fd, rc, saved;

	if ((fd = mkstemp(tmp)) < 0) {
		free(tmp);
		return -1;
	}
	rc = write_all(fd, script->s ? script->s : "", script->len);
	if (close(fd) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1;
	if (rc < 0) {
		saved = errno;
		unlink(tmp);
		errno = saved;
	}
	free(tmp);
	return rc;
}

/*
 * Hands gnuplot a script through the temporary file; -1 and errno. Each
 * script is a new file renamed over the last, never the last rewritten:
 * gnuplot prints a frame's FRAME_DONE before it reads to the end of the
 * file it loads, and a file rewritten in that moment gave it the next
 * script's tail to run, and a FRAME_DONE too many (the next frame then
 * taken for done before gnuplot drew it).
 */
static int
gp_send(struct gnuplot *gp, const struct phys_buf *script)
{
	struct phys_buf cmd = { 0 };
	const char *dir = getenv("TMPDIR");
	int rc, fd;

	if (!gp->script) {
		gp->script = phys_xasprintf("%s/phys-plot.XXXXXX", dir && *dir ?
		    dir : "/tmp");
		if ((fd = mkstemp(gp->script)) < 0) {
			free(gp->script);
			gp->script = NULL;
			return -1;
		}
		close(fd);
		phys_stop_removes_scratch(gp->script);
	}
	if (replace_file(gp->script, script) < 0)
		return -1;
	phys_buf_puts(&cmd, "load ");
	put_gpstr(&cmd, gp->script);
	phys_buf_putc(&cmd, '\n');
	rc = write_all(gp->in, cmd.s, cmd.len);
	phys_buf_free(&cmd);
	return rc;
}

/*
 * gnuplot reading from a pipe; with capture, writing into another and its
 * messages into a file, so that a frame's warnings ("empty y range") do
 * not stream by: the last of them is told when gnuplot fails.
 */
static int
gp_start(struct gnuplot *gp, const char *prog, bool capture)
{
	int in[2], out[2] = { -1, -1 };

	gp->err = NULL;
	gp->script = NULL;
	if (pipe(in) < 0 || (capture && pipe(out) < 0) ||
	    (capture && !(gp->err = tmpfile())))
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((gp->pid = fork()) < 0)
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	if (gp->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		if (capture) {
			dup2(out[1], STDOUT_FILENO);
			dup2(fileno(gp->err), STDERR_FILENO);
		}
		close(in[0]);
		close(in[1]);
		/* Nothing else of ours: a window gnuplot leaves open after
		 * it ends must not hold our caller's pipes open. */
		closefrom(STDERR_FILENO + 1);
		execl(prog, "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	if (capture)
		close(out[1]);
	gp->in = in[1];
	gp->out = out[0];
	return 0;
}

/* The last line gnuplot wrote on its standard error, or "". */
static void
gp_last_error(struct gnuplot *gp, char *msg, size_t size)
{
	char line[512];

	msg[0] = '\0';
	if (!gp->err || fseek(gp->err, 0, SEEK_SET) != 0)
		return;
	while (fgets(line, sizeof line, gp->err))
		if (line[strspn(line, " \t\n^")])
			snprintf(msg, size, "%.*s", (int)strcspn(line, "\n"),
			    line);
}

/* Close its input and wait: 0 when it ended well; the message in err. */
static int
gp_finish(struct gnuplot *gp, const char *prog, char *err, size_t errsize)
{
	int status, w;

	if (gp->in >= 0)
		close(gp->in);
	if (gp->out >= 0)
		close(gp->out);
	gp->in = gp->out = -1;
	if (gp->err)
		fclose(gp->err);
	gp->err = NULL;
	while ((w = waitpid(gp->pid, &status, 0)) < 0 && errno == EINTR)
		;
	/* only now: gnuplot may still be loading it */
	if (gp->script) {
		phys_stop_removes_scratch(NULL);
		unlink(gp->script);
		free(gp->script);
		gp->script = NULL;
	}
	if (w < 0)
		snprintf(err, errsize, "gnuplot: %s", strerror(errno));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		snprintf(err, errsize, "cannot run %s", prog);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(err, errsize, "gnuplot failed (%s %d)",
		    WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) :
		    WTERMSIG(status));
	else
		return 0;
	return -1;
}

int
phys_ist_run_gnuplot(const char *prog, const struct phys_buf *script)
{
	struct gnuplot gp;
	void (*old)(int);
	char err[200];
	int bad, werr = 0;

	if (gp_start(&gp, prog, false) < 0)
		return -1;
	/* A gnuplot that stops early must not kill us with SIGPIPE. */
	old = signal(SIGPIPE, SIG_IGN);
	bad = gp_send(&gp, script);
	if (bad)
		werr = errno;
	close(gp.in);
	gp.in = -1;
	signal(SIGPIPE, old);
	if (gp_finish(&gp, prog, err, sizeof err) < 0)
		return phys_fail("%s", err);
	if (bad)
		return phys_fail("cannot write to gnuplot: %s",
		    strerror(werr));
	return 0;
}

/*
 * Bytes from gnuplot up to its FRAME_DONE line, which is cut off. With
 * stalled, it is asked every GP_POLL_MS while gnuplot says nothing and
 * may end the wait: -2. -1 when gnuplot is gone.
 */
#define GP_POLL_MS 100

static int
gp_read_frame(struct gnuplot *gp, struct phys_buf *frame,
    bool (*stalled)(void *), void *ctx)
{
	static const char mark[] = FRAME_DONE "\n";
	const size_t mlen = sizeof mark - 1;
	struct pollfd pfd = { gp->out, POLLIN, 0 };
	char chunk[8192];
	ssize_t n;

	phys_buf_clear(frame);
	for (;;) {
		if (frame->len >= mlen && memcmp(frame->s + frame->len - mlen,
		    mark, mlen) == 0) {
			frame->len -= mlen;
			return 0;
		}
		if (stalled && poll(&pfd, 1, GP_POLL_MS) == 0) {
			if (stalled(ctx))
				return -2;
			continue;
		}
		n = read(gp->out, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		phys_buf_putn(frame, chunk, (size_t)n);
	}
}

/* Whether process pid is stopped (SIGSTOP, SIGTSTP), as /proc says. */
static bool
process_stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name in parentheses may hold any */
	return p && p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
}

/* ---- a plot at the end of the input ---------------------------------- */

static int
table_load(struct table *tb, const struct phys_ist_opts *o, const char *path)
{
	struct phys_ist_sampler sm = { &o->samp, 0, false, 0 };
	struct phys_ist_src s;
	int rc;

	memset(tb, 0, sizeof *tb);
	tb->name = phys_display_name(path);
	tb->window = o->samp.window > 0 ? (size_t)o->samp.window : 0;
	if (phys_ist_src_open(&s, path, NULL) < 0) {
		phys_ist_src_close(&s);
		return -1;
	}
	while ((rc = phys_ist_src_next(&s, &o->sel, 0)) > 0) {
		if (!tb->cols.v && s.cols.n)
			table_columns(tb, &s.cols, phys_ist_frame(s.r));
		if (phys_ist_sample(&sm, s.t))
			table_add(tb, s.t, s.v);
	}
	phys_ist_src_close(&s);
	if (rc < 0)
		return -1;
	if (tb->nrows == 0)
		return phys_failat(tb->name, 0, "no state lines to plot");
	return 0;
}

/*
 * A window terminal gnuplot has, where DISPLAY is set, or NULL: the first
 * of qt, wxt and x11 after the one named (NULL: the first of all).
 */
static const char *
window_terminal(const char *prog, const char *after)
{
	static const char *const terms[] = { "qt", "wxt", "x11" };
	struct phys_buf out = { 0 };
	struct gnuplot gp;
	const char *found = NULL;
	char err[200];
	size_t i = 0;
	static const char ask[] = "set print '-'\nprint GPVAL_TERMINALS\n"
	    "print '" FRAME_DONE "'\n";

	if (!getenv("DISPLAY") || !*getenv("DISPLAY"))
		return NULL;
	while (after && i < sizeof terms / sizeof terms[0])
		if (!strcmp(terms[i++], after))
			break;
	if (gp_start(&gp, prog, true) < 0)
		return NULL;
	if (write_all(gp.in, ask, sizeof ask - 1) == 0 &&
	    gp_read_frame(&gp, &out, NULL, NULL) == 0)
		for (; i < sizeof terms / sizeof terms[0] && !found; i++)
			if (out.s && strstr(out.s, terms[i]))
				found = terms[i];
	(void)gp_finish(&gp, prog, err, sizeof err);
	phys_buf_free(&out);
	return found;
}

/*
 * A window terminal that opened no window (wxt where GTK cannot start,
 * qt without its platform plugin) gives way to the next one gnuplot has:
 * true, said once, with tg->term the next one.
 */
static bool
next_window_terminal(struct target *tg, const char *prog, const char *why)
{
	const char *next;

	if (tg->kind != T_WINDOW ||
	    !(next = window_terminal(prog, tg->term)))
		return false;
	phys_warn("gnuplot's %s terminal opened no window%s%s%s: drawing "
	    "with %s", tg->term, *why ? " (" : "", why, *why ? ")" : "",
	    next);
	tg->term = next;
	return true;
}

/*
 * Whether the terminal on standard output draws sixel graphics: asked with
 * the Primary Device Attributes query (ESC [ c), whose answer ESC [ ? ...
 * c lists the terminal's features, 4 among them for sixel. The answer
 * comes on the terminal's input, read raw from the terminal opened anew
 * (standard input may be a pipe); a terminal that does not answer within
 * DA_TIMEOUT_MS has none. Only a process in the foreground of its own
 * terminal asks, and the signals that would end it wait until the
 * terminal is restored.
 */
static bool
sixel_terminal(void)
{
	const char *name = ttyname(STDOUT_FILENO);
	struct termios saved, raw;
	sigset_t block, old;
	char reply[256];
	size_t n = 0;
	int fd;

	if (!name || (fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		return false;
	if (tcgetpgrp(fd) != getpgrp() || tcgetattr(fd, &saved) < 0) {
		close(fd);
		return false;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGTSTP);
	sigprocmask(SIG_BLOCK, &block, &old);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &raw) == 0) {
		if (write_all(fd, "\033[c", 3) == 0)
			n = read_da_reply(fd, reply, sizeof reply - 1);
		tcsetattr(fd, TCSANOW, &saved);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd);
	reply[n] = '\0';
	return da_has_sixel(reply);
}

/* Rows a live plot on the terminal leaves below its frames for the
 * messages of the run it shows, and the prompt after. */
#define LIVE_MSG_ROWS 3

static void
text_target(struct target *tg, int keep)
{
	tg->kind = T_TEXT;
	terminal_size(keep, &tg->cols, &tg->rows, NULL, NULL, &tg->all_rows);
}

/*
 * Sixel images as large as the terminal less keep rows (so a frame
 * redrawn at the top never scrolls), or --size.
 */
static void
sixel_target(struct target *tg, const struct phys_ist_plotopts *p, int keep)
{
	int w, h;

	tg->kind = T_SIXEL;
	terminal_size(keep, &tg->cols, &tg->rows, &w, &h, &tg->all_rows);
	if (w == 0) {
		w = tg->cols * CELL_W;
		h = tg->rows * CELL_H;
	}
	tg->width = p->width ? p->width : w < 16 ? 16 : w > 20000 ? 20000 : w;
	tg->height = p->height ? p->height : h < 16 ? 16 : h > 20000 ?
	    20000 : h;
}

/*
 * Where a plot goes: -o's file; a window for --terminal window, or for
 * --live where DISPLAY is set and gnuplot has one; the terminal as sixel
 * or text.
 */
static int
choose_target(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p,
    const char *prog, struct target *tg)
{
	memset(tg, 0, sizeof *tg);
	if (o->output) {
		tg->kind = T_FILE;
		tg->format = p->format;
		tg->path = o->output;
		tg->width = p->width ? p->width : DEFAULT_W;
		tg->height = p->height ? p->height : DEFAULT_H;
		return 0;
	}
	if (p->script) {
		text_target(tg, 1);	/* for any terminal, later */
		return 0;
	}
	if (p->term == IST_TERM_WINDOW ||
	    (p->term == IST_TERM_AUTO && p->live)) {
		if ((tg->term = window_terminal(prog, NULL))) {
			tg->kind = T_WINDOW;
			return 0;
		}
		if (p->term == IST_TERM_WINDOW)
			return phys_fail("plot --terminal window: %s",
			    getenv("DISPLAY") && *getenv("DISPLAY") ?
			    "gnuplot has no window terminal (qt, wxt, x11): "
			    "install gnuplot-x11 or gnuplot-qt" :
			    "DISPLAY is not set");
		if (!isatty(STDOUT_FILENO))
			return phys_fail("plot --live: gnuplot has no window "
			    "terminal (qt, wxt, x11) and standard output is "
			    "not a terminal: give -o FILE");
	}
	if (p->term == IST_TERM_SIXEL ||
	    (p->term == IST_TERM_AUTO && sixel_terminal()))
		sixel_target(tg, p, p->live ? LIVE_MSG_ROWS : 1);
	else
		text_target(tg, p->live ? LIVE_MSG_ROWS : 1);
	return 0;
}

/* Each --color must colour something. */
static int
check_colors(const struct phys_ist_plotopts *p, const struct table *tbs,
    size_t ntb)
{
	size_t c, k, i;

	for (c = 0; c < p->ncolors; c++) {
		for (k = 0; k < ntb; k++)
			for (i = 0; i < tbs[k].cols.n; i++)
				if (phys_glob(p->colors[c].sel,
				    tbs[k].cols.v[i].name))
					goto next;
		return phys_fail("--color %s=%s: no plotted field matches "
		    "'%s'", p->colors[c].sel, p->colors[c].color,
		    p->colors[c].sel);
next:		;
	}
	return 0;
}

static int
write_script(const char *path, const struct phys_buf *script)
{
	struct phys_atomic a;

	if (phys_atomic_open(&a, path) < 0)
		return -1;
	fwrite(script->s, 1, script->len, a.fp);
	return phys_atomic_commit(&a);
}

/* A drawing's script into b, for the target tg. */
typedef void script_fn(struct phys_buf *b, const struct target *tg,
    void *ctx);

/*
 * One drawing, wherever it goes: into output (through a temporary file
 * renamed when gnuplot succeeded), on the terminal or in a window, or as
 * the script itself with --script.
 */
static int
draw(const char *output, const struct phys_ist_plotopts *p, const char *prog,
    script_fn *fn, void *ctx)
{
	struct phys_ist_opts o = { .output = output };
	struct phys_buf script = { 0 };
	struct target tg = { 0 };
	struct phys_atomic a;
	int rc;

	if (choose_target(&o, p, prog, &tg) < 0)
		return -1;
	if (p->script) {
		fn(&script, &tg, ctx);
		rc = write_script(p->script, &script);
		phys_buf_free(&script);
		return rc;
	}
	if (output && phys_atomic_open(&a, output) < 0)
		return -1;
	if (output)
		tg.path = a.tmp;
	fn(&script, &tg, ctx);
	/* gnuplot has said why on our standard error */
	while ((rc = phys_ist_run_gnuplot(prog, &script)) < 0 &&
	    next_window_terminal(&tg, prog, "")) {
		phys_buf_clear(&script);
		fn(&script, &tg, ctx);
	}
	phys_buf_free(&script);
	if (!output)
		return rc;
	if (rc < 0) {
		phys_atomic_abort(&a);
		return -1;
	}
	return phys_atomic_commit(&a);
}

struct tables {
	const struct table *tbs;
	size_t ntb;
	const struct phys_ist_plotopts *p;
};

static void
tables_script(struct phys_buf *b, const struct target *tg, void *ctx)
{
	const struct tables *t = ctx;

	put_script(b, t->tbs, t->ntb, t->p, tg);
}

static int
plot_tables(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p,
    const char *prog, const struct table *tbs, size_t ntb)
{
	struct tables t = { tbs, ntb, p };

	if (check_colors(p, tbs, ntb) < 0)
		return -1;
	return draw(o->output, p, prog, tables_script, &t);
}

/* Another command's drawing: its terminal as introspect's, its body its
 * own. */
struct custom {
	const struct phys_ist_plotopts *p;
	phys_ist_body_fn *body;
	void *ctx;
};

static void
custom_script(struct phys_buf *b, const struct target *tg, void *ctx)
{
	const struct custom *c = ctx;
	struct phys_ist_canvas cv = { tg->kind == T_TEXT,
	    tg->kind == T_TEXT ? tg->cols : tg->width,
	    tg->kind == T_TEXT ? tg->rows : tg->height };

	put_terminal(b, c->p, tg);
	c->body(b, &cv, c->ctx);
	if (tg->kind == T_FILE)
		phys_buf_puts(b, "unset output\n");
}

int
phys_ist_plot_custom(const struct phys_ist_plotopts *p, const char *output,
    phys_ist_body_fn *body, void *ctx)
{
	struct custom c = { p, body, ctx };
	char *prog = NULL;
	int rc;

	if (!p->script && !(prog = phys_ist_find_program("gnuplot")))
		return phys_fail("gnuplot not found: install the Debian "
		    "package gnuplot-nox");
	rc = draw(output, p, prog, custom_script, &c);
	free(prog);
	return rc;
}

static int
plot_once(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p,
    const char *prog)
{
	struct table *tbs = phys_xcalloc(o->ninputs, sizeof *tbs);
	size_t k, n = 0;
	int rc = 0;

	for (k = 0; k < o->ninputs && rc == 0; k++, n++) {
		rc = table_load(&tbs[k], o, o->inputs[k]);
		if (p->run_names)
			tbs[k].name = p->run_names[k];
	}
	if (rc == 0)
		rc = plot_tables(o, p, prog, tbs, o->ninputs);
	for (k = 0; k < n; k++)
		table_free(&tbs[k]);
	free(tbs);
	return rc;
}

/* ---- a live plot ----------------------------------------------------- */

/*
 * On the terminal, frames are drawn at the top and the rows below them
 * are a scrolling region of their own: what the run writes on standard
 * error there (a warning, its last error) scrolls in it and stays on the
 * screen while the frames are redrawn above, and after the plot ends.
 * When the terminal changes size (SIGWINCH), the screen is set up anew
 * for the new size and the last frame drawn again.
 */

struct live {
	const struct phys_ist_opts *o;
	const struct phys_ist_plotopts *p;
	const char *prog;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* under mu */
	struct table tb;	/* rows so far, added by the reader */
	unsigned long added;	/* rows added so far */
	bool done;		/* the input ended or failed */
	bool failed;		/* the drawer stopped; err says why */
	bool gone;		/* the terminal has gone: reading stops */
	char err[256];
	/* the drawer's own */
	struct table snap;
	struct gnuplot gp;
	struct target tg;
	struct phys_buf script, frame;
	unsigned long frames;
	bool screen_set;	/* the terminal has its frame and messages */
	bool said_stopped;
};

static volatile sig_atomic_t live_resized;

/* What puts the terminal's scrolling back, the cursor where it was. */
static const char screen_restore[] = "\0337\033[r\0338";

static void
on_winch(int sig)
{
	live_resized = 1;
}

/* Suspended (^Z), the terminal is the shell's again; continued, the
 * screen is set up anew, as for a new size. */
static void
on_tstp(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_DFL }, mine;
	int saved = errno;
	sigset_t set;

	(void)!write(STDOUT_FILENO, screen_restore, sizeof screen_restore - 1);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, &mine);
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGTSTP);
	/* continued */
	sigaction(SIGTSTP, &mine, NULL);
	live_resized = 1;
	errno = saved;
}

static bool
on_terminal(const struct live *lv)
{
	return lv->tg.kind == T_TEXT || lv->tg.kind == T_SIXEL;
}

/* Has the terminal hung up (its tmux pane or window closed)? */
static bool
terminal_gone(void)
{
	struct pollfd p = { STDOUT_FILENO, 0, 0 };

	return poll(&p, 1, 0) == 1 &&
	    (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/* Wait on lv->cv until the monotonic time `until`. */
static void
wait_until(struct live *lv, double until)
{
	struct timespec ts;
	double whole = floor(until);

	ts.tv_sec = (time_t)whole;
	ts.tv_nsec = (long)((until - whole) * 1e9);
	pthread_cond_timedwait(&lv->cv, &lv->mu, &ts);
}

/* The rows below the frames scroll on their own, the cursor in them. */
static void
set_screen(struct live *lv, struct phys_buf *b)
{
	const struct target *tg = &lv->tg;

	phys_buf_puts(b, "\033[r\033[H\033[2J");
	if (tg->all_rows - tg->rows >= 2)
		phys_buf_printf(b, "\033[%d;%dr", tg->rows + 1, tg->all_rows);
	phys_buf_printf(b, "\033[%d;1H", tg->all_rows);
	lv->screen_set = true;
}

/*
 * Shows one frame, text or sixel, in place: the cursor saved, home, the
 * frame, each of its lines cleared to its end, the cursor back where the
 * run's messages left it.
 */
static int
show_frame(struct live *lv)
{
	struct phys_buf b = { 0 };
	const char *s = lv->frame.s ? lv->frame.s : "", *nl;
	size_t left = lv->frame.len;
	int rc;

	if (!lv->screen_set)
		set_screen(lv, &b);
	phys_buf_puts(&b, "\0337\033[H");
	if (lv->tg.kind == T_SIXEL) {
		phys_buf_putn(&b, s, left);
	} else {
		/* gnuplot's form feed would move the frame a line down */
		for (; left > 0 && *s == '\f'; left--)
			s++;
		while (left > 0 && (nl = memchr(s, '\n', left))) {
			phys_buf_putn(&b, s, (size_t)(nl - s));
			phys_buf_puts(&b, "\033[K\n");
			left -= (size_t)(nl - s) + 1;
			s = nl + 1;
		}
		phys_buf_putn(&b, s, left);
		phys_buf_puts(&b, "\033[K");
	}
	phys_buf_puts(&b, "\0338");
	rc = write_all(STDOUT_FILENO, b.s, b.len);
	phys_buf_free(&b);
	return rc;
}

/* The screen as it was, but for what is on it: the whole terminal
 * scrolls again, and the cursor stays below the last message, where the
 * prompt comes. */
static void
restore_screen(struct live *lv)
{
	if (lv->screen_set)
		(void)write_all(STDOUT_FILENO, screen_restore,
		    sizeof screen_restore - 1);
}

/*
 * While gnuplot takes long over a frame: a stopped gnuplot is said once;
 * once the input has ended, one that is stopped is given up on, so that
 * the plot ends with its input.
 */
static bool
gp_stalled(void *ctx)
{
	struct live *lv = ctx;
	bool end;

	if (!process_stopped(lv->gp.pid))
		return false;
	pthread_mutex_lock(&lv->mu);
	end = lv->done;
	pthread_mutex_unlock(&lv->mu);
	if (!end && !lv->said_stopped)
		phys_warn("gnuplot (process %ld) is stopped: no frames until "
		    "it goes on", (long)lv->gp.pid);
	lv->said_stopped = true;
	return end;
}

/* One frame of the drawer's snapshot; -1 with lv->err set. */
static int
draw_frame(struct live *lv)
{
	struct phys_atomic a;
	bool file = lv->tg.kind == T_FILE;
	char why[200];
	int rc;

	if (file) {
		if (phys_atomic_open(&a, lv->o->output) < 0) {
			snprintf(lv->err, sizeof lv->err, "%s", phys_error());
			return -1;
		}
		lv->tg.path = a.tmp;
	}
	/* Each frame from a clean slate: nothing of the last one carries over. */
	phys_buf_clear(&lv->script);
	phys_buf_puts(&lv->script, "reset\n");
	put_script(&lv->script, &lv->snap, 1, lv->p, &lv->tg);
	phys_buf_puts(&lv->script, "set print '-'\nprint '" FRAME_DONE "'\n");
	rc = gp_send(&lv->gp, &lv->script) < 0 ? -1 :
	    gp_read_frame(&lv->gp, &lv->frame, gp_stalled, lv);
	if (rc < 0) {
		if (file)
			phys_atomic_abort(&a);
		if (rc == -2) {
			kill(lv->gp.pid, SIGKILL);
			snprintf(lv->err, sizeof lv->err, "gnuplot (process "
			    "%ld) was stopped when the input ended: the plot "
			    "shows the last frame it drew", (long)lv->gp.pid);
			return -1;
		}
		gp_last_error(&lv->gp, why, sizeof why);
		if (lv->frames == 0 && next_window_terminal(&lv->tg,
		    lv->prog, why)) {
			(void)gp_finish(&lv->gp, lv->prog, why, sizeof why);
			if (gp_start(&lv->gp, lv->prog, true) == 0)
				return draw_frame(lv);
			snprintf(lv->err, sizeof lv->err, "%s", phys_error());
			return -1;
		}
		snprintf(lv->err, sizeof lv->err, "gnuplot stopped drawing%s%s",
		    *why ? ": " : "", why);
		return -1;
	}
	lv->said_stopped = false;
	/* Its warnings matter only until a frame is done. */
	if (ftruncate(fileno(lv->gp.err), 0) == 0)
		lseek(fileno(lv->gp.err), 0, SEEK_SET);
	if (file && phys_atomic_commit(&a) < 0) {
		snprintf(lv->err, sizeof lv->err, "%s", phys_error());
		return -1;
	}
	if (on_terminal(lv) && show_frame(lv) < 0) {
		if (errno == EIO || errno == ENXIO || terminal_gone())
			return -3;
		snprintf(lv->err, sizeof lv->err, "write error: %s",
		    strerror(errno));
		return -1;
	}
	lv->frames++;
	return 0;
}

enum next { NEXT_DRAW, NEXT_RESIZE, NEXT_END, NEXT_GONE };

/*
 * What the drawer does next: draw a copy of the rows, when there are new
 * ones and it is time; draw again at the terminal's new size; or end,
 * when the input has and all is drawn. On a terminal it looks for a new
 * size every GP_POLL_MS while it waits.
 */
static enum next
next_step(struct live *lv, unsigned long *drawn, double last)
{
	enum next what = NEXT_END;
	double until;

	pthread_mutex_lock(&lv->mu);
	for (;;) {
		if (on_terminal(lv) && terminal_gone()) {
			what = NEXT_GONE;
			break;
		}
		if (live_resized && on_terminal(lv)) {
			what = NEXT_RESIZE;
			break;
		}
		if (lv->added != *drawn &&
		    (lv->done || phys_seconds() >= last + lv->p->interval)) {
			what = lv->tb.nrows > 0 ? NEXT_DRAW : NEXT_END;
			break;
		}
		if (lv->done)
			break;
		until = lv->added != *drawn ? last + lv->p->interval :
		    HUGE_VAL;
		if (on_terminal(lv))
			until = fmin(until, phys_seconds() + GP_POLL_MS / 1e3);
		if (isfinite(until))
			wait_until(lv, until);
		else
			pthread_cond_wait(&lv->cv, &lv->mu);
	}
	if (what == NEXT_DRAW) {
		table_copy(&lv->snap, &lv->tb);
		*drawn = lv->added;
	}
	pthread_mutex_unlock(&lv->mu);
	return what;
}

/* The frame and the messages' rows for the terminal's new size. */
static void
resize(struct live *lv)
{
	live_resized = 0;
	if (lv->tg.kind == T_SIXEL)
		sixel_target(&lv->tg, lv->p, LIVE_MSG_ROWS);
	else
		text_target(&lv->tg, LIVE_MSG_ROWS);
	lv->screen_set = false;
}

static void *
drawer(void *arg)
{
	struct live *lv = arg;
	unsigned long drawn = 0;
	double last = -HUGE_VAL;
	enum next what;
	int rc = 0;

	while (rc == 0 && (what = next_step(lv, &drawn, last)) != NEXT_END) {
		if (what == NEXT_GONE) {
			rc = -3;
			break;
		}
		if (what == NEXT_RESIZE) {
			resize(lv);
			if (lv->frames == 0)
				continue;
		}
		last = phys_seconds();
		rc = draw_frame(lv);
	}
	if (rc == -3) {	/* no one to show the plot to: it ends, and its
			 * input's writer with it (SIGPIPE) */
		pthread_mutex_lock(&lv->mu);
		snprintf(lv->err, sizeof lv->err, "the terminal has gone");
		lv->failed = lv->gone = true;
		pthread_mutex_unlock(&lv->mu);
	} else if (rc < 0) {
		pthread_mutex_lock(&lv->mu);
		lv->failed = true;
		if (!lv->done)	/* said now; the reader reads on */
			phys_warn("%s; reading on to the end of the input",
			    lv->err);
		pthread_mutex_unlock(&lv->mu);
	}
	return NULL;
}

/*
 * The reader's side: rows into the ring until the input ends, even when
 * the drawer has stopped, so that the run that writes them is not cut
 * off.
 */
static int
live_read(struct live *lv, struct phys_ist_src *s)
{
	struct phys_ist_sampler sm = { &lv->o->samp, 0, false, 0 };
	bool stop = false;
	int rc = 0;

	while (!stop && (rc = phys_ist_src_next(s, &lv->o->sel, 0)) > 0) {
		if (!phys_ist_sample(&sm, s->t))
			continue;
		pthread_mutex_lock(&lv->mu);
		if (!lv->tb.cols.v && s->cols.n) {
			table_columns(&lv->tb, &s->cols, phys_ist_frame(s->r));
			if (check_colors(lv->p, &lv->tb, 1) < 0) {
				rc = -1;
				stop = true;
			}
		}
		table_add(&lv->tb, s->t, s->v);
		lv->added++;
		stop |= lv->gone;
		pthread_cond_signal(&lv->cv);
		pthread_mutex_unlock(&lv->mu);
	}
	pthread_mutex_lock(&lv->mu);
	lv->done = true;
	pthread_cond_signal(&lv->cv);
	pthread_mutex_unlock(&lv->mu);
	return rc < 0 ? -1 : 0;
}

static int
live_init(struct live *lv)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&lv->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&lv->mu, NULL);
	lv->tb.name = phys_display_name(lv->o->inputs[0]);
	lv->tb.window = lv->o->samp.window > 0 ? (size_t)lv->o->samp.window :
	    LIVE_WINDOW;
	if (choose_target(lv->o, lv->p, lv->prog, &lv->tg) < 0)
		return -1;
	return gp_start(&lv->gp, lv->prog, true);
}

static void
live_free(struct live *lv)
{
	pthread_mutex_destroy(&lv->mu);
	pthread_cond_destroy(&lv->cv);
	table_free(&lv->tb);
	table_free(&lv->snap);
	phys_buf_free(&lv->script);
	phys_buf_free(&lv->frame);
}

static int
plot_live(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p,
    const char *prog)
{
	struct sigaction winch = { .sa_handler = on_winch }, oldwinch;
	struct sigaction tstp = { .sa_handler = on_tstp }, oldtstp;
	struct live lv;
	struct phys_ist_src s;
	pthread_t th;
	void (*old)(int);
	char err[200];
	bool stopped;
	int rc;

	memset(&lv, 0, sizeof lv);
	lv.o = o;
	lv.p = p;
	lv.prog = prog;
	if (phys_ist_src_open(&s, o->inputs[0], NULL) < 0) {
		phys_ist_src_close(&s);
		return -1;
	}
	/* A gnuplot that stops early must not kill us with SIGPIPE. */
	old = signal(SIGPIPE, SIG_IGN);
	sigemptyset(&winch.sa_mask);
	sigemptyset(&tstp.sa_mask);
	live_resized = 0;
	sigaction(SIGWINCH, &winch, &oldwinch);
	sigaction(SIGTSTP, NULL, &oldtstp);
	if ((rc = live_init(&lv)) == 0) {
		/* A run stopped by a signal or suspended leaves the terminal
		 * scrolling whole; SIGTSTP is caught only where the shell
		 * has job control (it is not ignored). */
		if (on_terminal(&lv)) {
			phys_stop_writes(screen_restore,
			    sizeof screen_restore - 1);
			if (oldtstp.sa_handler == SIG_DFL)
				sigaction(SIGTSTP, &tstp, NULL);
		}
		if (pthread_create(&th, NULL, drawer, &lv) != 0) {
			rc = phys_fail("cannot start drawing: %s",
			    strerror(errno));
		} else {
			rc = live_read(&lv, &s);
			pthread_join(th, NULL);
		}
		/* stopped after its last frame: it would never read the end
		 * of its input */
		stopped = process_stopped(lv.gp.pid);
		if (stopped)
			kill(lv.gp.pid, SIGKILL);
		if (gp_finish(&lv.gp, prog, err, sizeof err) < 0 &&
		    !lv.failed && !stopped)
			snprintf(lv.err, sizeof lv.err, "%s", err);
	}
	restore_screen(&lv);
	phys_stop_writes(NULL, 0);
	sigaction(SIGTSTP, &oldtstp, NULL);
	sigaction(SIGWINCH, &oldwinch, NULL);
	signal(SIGPIPE, old);
	phys_ist_src_close(&s);
	if (rc == 0 && lv.failed)
		rc = phys_fail("%s", lv.err);
	else if (rc == 0 && lv.added == 0)
		rc = phys_failat(lv.tb.name, 0, "no state lines to plot");
	live_free(&lv);
	return rc;
}

int
phys_ist_plot(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p)
{
	char *prog = NULL;
	int rc;

	if (!p->script && !(prog = phys_ist_find_program("gnuplot")))
		return phys_fail("gnuplot not found: install the Debian "
		    "package gnuplot-nox");
	rc = p->live ? plot_live(o, p, prog) : plot_once(o, p, prog);
	free(prog);
	return rc;
}

/* For the other commands' plots (phys-sweep's): the same quoting, and
 * the same --script output. */
void
phys_ist_put_gpstr(struct phys_buf *b, const char *s)
{
	put_gpstr(b, s);
}

int
phys_ist_write_script(const char *path, const struct phys_buf *script)
{
	return write_script(path, script);
}
