/*
 * mjcfout.h - a world written as a MuJoCo model (mjcfwrite.h) with the
 * joints its systems drive as MuJoCo's actuators (systems.h): what
 * phys-sdf print --format mjcf writes.
 */
#ifndef PHYS_MJCFOUT_H
#define PHYS_MJCFOUT_H

#include "base.h"

/* Load the world at path ("-" or NULL: stdin), its systems, and append
 * its MJCF to b, for the file out (NULL: standard output); -1 with
 * phys_error() when it does not load or cannot be written so. */
int phys_print_mjcf(const char *path, const char *out, struct phys_buf *b);

#endif
