/*
 * mjcfroot.h - is a document MuJoCo's MJCF? Told, as every format phys
 * reads, by its root element (<mujoco>), never by the file's name.
 */
#ifndef PHYS_MJCFROOT_H
#define PHYS_MJCFROOT_H

#include <stdbool.h>
#include <stddef.h>

/* A quick look at text: is its first element <mujoco>? (Declarations,
 * comments and processing instructions before it are passed over.) */
bool phys_mjcf_text(const char *text, size_t len);

#endif
