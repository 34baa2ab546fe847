/*
 * inertia_show.h - a picture of a world's inertia: each link's collision
 * shapes and its box of equivalent inertia (pink), along its principal
 * axes, in three views, as a gnuplot script.
 */
#ifndef PHYS_INERTIA_SHOW_H
#define PHYS_INERTIA_SHOW_H

#include "base.h"
#include "world.h"

struct phys_show_options {
	const char *terminal;	/* "pngcairo" or "svg" */
	const char *output;	/* the file gnuplot writes */
	const char *title;	/* the world's file name */
	double ratio;		/* a box this much larger or smaller stands out */
};

/*
 * The script into b. Data blocks per view N (0 front, 1 side, 2 top):
 * $sN (shapes of valid links), $iN (shapes of invalid ones), $bN (boxes),
 * $fN (boxes standing out), each a line segment per pair of lines, blank
 * lines between segments: "x y z" in metres, or, when the views are drawn
 * as cells, "x y" in the view's pixels. Each link standing out is also
 * warned about on stderr. Returns how many stand out.
 */
int phys_inertia_show_script(const struct phys_scene *w,
    const struct phys_show_options *o, struct phys_buf *b);
/* gnuplot's terminal for an image file, by its name: "pngcairo" for
 * .png, "svg" for .svg, NULL for any other. */
const char *phys_inertia_show_terminal(const char *path);
/* The picture, drawn by gnuplot (Debian: gnuplot-nox) into o->output,
 * which is replaced only when gnuplot succeeds. */
int phys_inertia_show_draw(const struct phys_scene *w,
    const struct phys_show_options *o);
/* The script for o into path, replaced whole. */
int phys_inertia_show_save_script(const struct phys_scene *w,
    const struct phys_show_options *o, const char *path);

#endif
