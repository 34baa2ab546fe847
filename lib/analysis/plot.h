/*
 * plot.h - phys-introspect plot: chosen fields of runs drawn by gnuplot,
 * once at the end of the input or again and again while it streams in.
 */
#ifndef PHYS_PLOT_H
#define PHYS_PLOT_H

#include "introspect.h"

enum phys_ist_plot_format { IST_PLOT_AUTO, IST_PLOT_PNG, IST_PLOT_SVG,
	IST_PLOT_PDF };

/* --terminal: where a plot without -o is drawn */
enum phys_ist_plot_term { IST_TERM_AUTO, IST_TERM_TEXT, IST_TERM_SIXEL,
	IST_TERM_WINDOW };

/* --color SELECTOR=COLOR */
struct phys_ist_color {
	const char *sel;	/* a glob over field names */
	char *color;		/* a gnuplot colour name or #RRGGBB */
};

struct phys_ist_plotopts {
	bool live;		/* redraw while lines come in */
	double interval;	/* live: seconds between redraws at most */
	bool has_interval;	/* given, rather than the default 1 */
	bool has_xmin, has_xmax, has_ymin, has_ymax;
	double xmin, xmax, ymin, ymax;
	const char *title;
	int width, height;	/* pixels; 0: 1024x640 */
	bool logx, logy;
	struct phys_ist_color *colors;
	size_t ncolors;
	enum phys_ist_plot_format format;	/* AUTO: from -o's extension */
	const char *background;	/* SVG, PNG, PDF; NULL: white */
	const char *script;	/* write the gnuplot script there instead */
	enum phys_ist_plot_term term;	/* AUTO: asks the terminal, DISPLAY */
	/* The runs' names in titles (NULL: their files'). */
	const char *const *run_names;
};

/* IST_PLOT_AUTO when the name's extension is none of png, svg, pdf. */
enum phys_ist_plot_format phys_ist_plot_format_of(const char *path);

int phys_ist_plot(const struct phys_ist_opts *o, const struct phys_ist_plotopts *p);

/*
 * A setting from its option's name (without "--") and text (NULL for
 * live): background, color SELECTOR=COLOR (a name or #RRGGBB), format
 * png|svg|pdf, interval SECONDS, live, logscale x|y, script, size
 * WIDTHxHEIGHT, terminal text|sixel|window, title, xmin, xmax, ymin,
 * ymax. 0, or -1 with phys_error() naming the option.
 */
int phys_ist_plot_setting(struct phys_ist_plotopts *p, const char *name,
    const char *arg);
/*
 * The settings together, for a plot into out (-o, or NULL) of nruns runs
 * (stdout_tty: whether standard output is a terminal, to draw on): what
 * excludes what, and the ranges. Sets the format from out's extension.
 */
int phys_ist_plot_check(struct phys_ist_plotopts *p, const char *out,
    size_t nruns, bool stdout_tty);
void phys_ist_plotopts_free(struct phys_ist_plotopts *p);

/*
 * Another command's plot, drawn where phys-introspect plot draws (-o's
 * file, the terminal as sixel or text, a window), as p says: its body is
 * body's, given what it is drawn on.
 */
struct phys_ist_canvas {
	bool text;		/* characters, not pixels: symbols, not lines */
	int width, height;	/* pixels, or characters for text */
};
typedef void phys_ist_body_fn(struct phys_buf *b,
    const struct phys_ist_canvas *c, void *ctx);
int phys_ist_plot_custom(const struct phys_ist_plotopts *p, const char *output,
    phys_ist_body_fn *body, void *ctx);

/* Full path of an executable found on PATH, or NULL; caller frees. */
char *phys_ist_find_program(const char *prog);
/* gnuplot (at prog) runs the script, drawing where the script says, and
 * ends: 0, or -1 with phys_error() giving gnuplot's own complaint. */
int phys_ist_run_gnuplot(const char *prog, const struct phys_buf *script);
/* s as a gnuplot string. */
void phys_ist_put_gpstr(struct phys_buf *b, const char *s);
/* --script: the script into path (atomically): 0, or -1 with phys_error(). */
int phys_ist_write_script(const char *path, const struct phys_buf *script);

#endif
