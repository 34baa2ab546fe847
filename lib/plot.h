/*
 * plot.h - phys-introspect plot: chosen fields of runs drawn by gnuplot.
 */
#ifndef PHYS_PLOT_H
#define PHYS_PLOT_H

#include "introspect.h"

int ist_plot(const struct ist_opts *o);

/* Full path of an executable found on PATH, or NULL; caller frees. */
char *ist_find_program(const char *prog);

#endif
