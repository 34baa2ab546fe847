/*
 * sdfprint.h - a world written as one SDF document: its includes resolved
 * and every pose expressed relative to its parent model or the world.
 */
#ifndef PHYS_SDFPRINT_H
#define PHYS_SDFPRINT_H

#include "util.h"

/* Load the world at path ("-" or NULL: stdin) and append the document to
 * b; -1 with phys_error() when it does not load or cannot be written so. */
int phys_sdf_print(const char *path, struct phys_buf *b);

#endif
