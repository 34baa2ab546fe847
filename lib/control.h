/*
 * control.h - control lines: the changes a run applies at given times (a
 * parameter, a link's or model's state, a profile switch), read from a
 * file of JSON lines (see phys-step(1)).
 */
#ifndef PHYS_CONTROL_H
#define PHYS_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "ref.h"
#include "world.h"

/* One control line. */
struct phys_control {
	double t;		/* s */
	long line;
	int profile;		/* >= 0: switch to this profile */
	struct phys_ref ref;	/* otherwise a parameter ... */
	int state_kind;		/* ... or link/model state: an item kind */
	int entity;
	char *text;		/* the value as SDF text */
};

/* The control lines of a run, in the order they apply. */
struct phys_controls {
	struct phys_world *w;
	const char *name;	/* for messages */
	struct phys_control *v;
	size_t n, next;		/* v[next] is the next to apply */
};

/* Read the control lines of path, sorted by time (a line's order breaks
 * ties): 0, or -1 with phys_error() naming file and line. */
int phys_controls_read(struct phys_controls *c, struct phys_world *w,
    const char *path);
void phys_controls_free(struct phys_controls *c);

/* "box::link/linear_vel" and friends, the state a control line may set:
 * 0 with the item kind and entity, or -1. */
int phys_control_state_target(struct phys_world *w, const char *name,
    int *kind, int *entity);
/* A pose is six numbers, a velocity three: 0, or -1 with phys_error(). */
int phys_control_check_state(const char *name, const char *text);
/* A profile by name, or -1 with a message listing the profiles. */
int phys_control_find_profile(struct phys_world *w, const char *name);

#endif
