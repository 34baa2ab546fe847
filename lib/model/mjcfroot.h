/*
 * mjcfroot.h - the root element of a document, told from its text
 * without parsing it: how every format phys reads is told (<sdf>,
 * URDF's <robot>, MJCF's <mujoco>), never by the file's name.
 */
#ifndef PHYS_MJCFROOT_H
#define PHYS_MJCFROOT_H

#include <stdbool.h>
#include <stddef.h>

/* Is the first element of text <name>? (The declaration, comments,
 * processing instructions and a DOCTYPE before it are passed over.) */
bool phys_xml_root_is(const char *text, size_t len, const char *name);

/* A quick look at text: is its first element <mujoco>? */
bool phys_mjcf_text(const char *text, size_t len);

#endif
