/*
 * check.h - check a world against the SDFormat specification of its
 * version and against what the loader and the inertia checks accept.
 *
 * A finding is one problem at a place: file, line, severity and message,
 * with the element it is about and, for a misspelt name, the closest
 * names the specification knows.
 */
#ifndef PHYS_CHECK_H
#define PHYS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base.h"

struct phys_joint;
struct phys_scene;
struct phys_value;

enum phys_severity {
	PHYS_SEV_ERROR,
	PHYS_SEV_WARNING
};

struct phys_finding {
	char *file;
	long line;		/* 0 when the whole file is meant */
	enum phys_severity severity;
	char *message;
	char *element;		/* NULL when none */
	char *suggest[3];	/* closest known names, NULL-terminated */
	/* a warning said again further down its file, word for word (a
	 * later MuJoCo's attribute on every joint): those lines, said
	 * with it rather than as findings of their own */
	long *also;
	size_t nalso;
	int file_rank;		/* the world 0, included files after it */
	size_t seq;		/* the order of discovery, for ties */
};

struct phys_findings {
	struct phys_finding *v;
	size_t n, cap;
	size_t nerrors, nwarnings;
};

/*
 * Check the world file at path ("-" or NULL: stdin) and every file it
 * includes. Findings come out sorted in file order; identical findings
 * appear once.
 */
void phys_check_world(const char *path, struct phys_findings *out);
/* One JSON line per finding. */
void phys_findings_json(const struct phys_findings *f, struct phys_buf *b);
void phys_findings_free(struct phys_findings *f);
/* Joint j's damping (its values jv, its child's cv) when a step of h
 * cannot integrate it as a force: the message, as check and a run of an
 * engine that holds it so say it, and how many times too much it is; 0
 * when it fits. */
/* A world gz-sim runs whose default profile is not its first (gz-sim
 * reads no default="true" and runs the first): the message, as check and
 * a run say it, into msg; false otherwise. */
bool phys_gz_start_note(const struct phys_scene *w, char *msg, size_t len);
double phys_joint_damping_note(const struct phys_joint *j,
    const struct phys_value *jv, const struct phys_value *cv, double h,
    char *msg, size_t len);

#endif
