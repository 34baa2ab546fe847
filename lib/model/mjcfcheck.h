/*
 * mjcfcheck.h - check an MJCF file (MuJoCo's model format, root
 * <mujoco>) against MuJoCo 2.2.2's schema (mjcf_schema.def: elements,
 * where they sit, attributes and their value types) and the rules its
 * compiler refuses a model by: names given twice, references to nothing,
 * unknown default classes, impossible inertia, a moving body without
 * mass, a free joint below the top level.
 */
#ifndef PHYS_MJCFCHECK_H
#define PHYS_MJCFCHECK_H

#include <stdbool.h>
#include <stddef.h>

struct phys_mjcf_finding {
	const char *file;	/* for messages: the path, or "<stdin>" */
	long line;		/* 0: the whole file */
	bool error;		/* else a warning */
	const char *element;	/* what it is about, or NULL */
	const char *suggest[3];	/* closest known names, NULL-terminated */
	const char *message;
};

typedef void (*phys_mjcf_report)(const struct phys_mjcf_finding *f,
    void *ctx);

/*
 * Check the MJCF text (its name for messages; path, the file it was read
 * from, or NULL for standard input: <include>s are found from its
 * directory) and every file it includes; fn gets each finding in the
 * order the walk meets them.
 */
void phys_mjcf_check(const char *name, const char *path, const char *text,
    size_t len, phys_mjcf_report fn, void *ctx);

#endif
