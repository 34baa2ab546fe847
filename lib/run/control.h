/*
 * control.h - control lines: the changes a run applies at given times (a
 * parameter, a link's or model's state, a profile switch), read from a
 * file of JSON lines (see phys-step(1)).
 */
#ifndef PHYS_CONTROL_H
#define PHYS_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "motor.h"
#include "ref.h"
#include "systems.h"
#include "world.h"

/* One control line. */
struct phys_control {
	double t;		/* s */
	long line;
	int profile;		/* >= 0: switch to this profile */
	bool save;		/* store the run's values as profile text */
	bool keyframe;		/* set the state of keyframe text */
	struct phys_ref ref;	/* otherwise a parameter ... */
	char *glob;		/* ... or those a pattern names, as -s */
	int state_kind;		/* ... or link/model state: an item kind */
	int entity;
	enum phys_command_kind command;	/* ... or joint entity's command */
	double cmd[2];		/* its target per axis */
	int ncmd;
	bool on_topic;		/* ... or a message on a system's topic */
	int topic;		/* its number (systems.h) */
	char *text;		/* the value as SDF text; a message's JSON */
};

/* Lines of a stream read ahead of their time, at most. */
#define PHYS_CONTROL_QUEUE 1024

/*
 * The control lines of a run. From a regular file they are all read at
 * once and sorted by time (a line's order breaks ties); from a pipe, a
 * FIFO or a terminal they are read as they arrive, between steps, and a
 * line may leave out "t" to apply at the next step.
 */
struct phys_controls {
	const struct phys_scene *w;
	const char *name;	/* for messages */
	struct phys_control *v;	/* a file's lines, or a stream's queue */
	size_t n, cap, next;	/* v[next] is the next to apply */
	bool stream, can_save;
	bool lockstep;		/* read one reply a state line, no more */
	struct phys_lines lines;
	const struct phys_systems *systems;	/* their topics; may be NULL */
};

/* Open path (NULL: no control lines); can_save allows "save" lines;
 * topic lines go to systems (may be NULL); lockstep: path is a
 * controller's replies, read by phys_controls_reply alone (a regular file
 * too). 0, or -1 with phys_error() naming file and line. */
int phys_controls_open(struct phys_controls *c, const struct phys_scene *w,
    const struct phys_systems *systems, const char *path, bool can_save,
    bool lockstep);
/* Take in what a stream has sent, without waiting, when the run is at
 * time now with steps of h: 0, or -1 (a bad line, or one whose time has
 * passed). */
int phys_controls_poll(struct phys_controls *c, double now, double h);
/* The next line due before the step from now: 1 with *out (valid until
 * the next poll), or 0. */
int phys_controls_due(struct phys_controls *c, double now, double h,
    const struct phys_control **out);
/*
 * A reply, text: a control object, a JSON array of them, or {} for none.
 * Its lines are queued, those without "t" for now: 0, or -1 with
 * phys_error() naming name and line (bad JSON, a bad line, a time that
 * has passed), and then none of them is queued.
 */
int phys_controls_add(struct phys_controls *c, const char *text,
    const char *name, long line, double now, double h);
/* Lock-step: wait for the controller's reply to the state line at now
 * and add it. The end of the replies is an error, unless last (the run
 * has written its last state line). */
int phys_controls_reply(struct phys_controls *c, double now, double h,
    bool last);
void phys_controls_free(struct phys_controls *c);
/* "box::link/linear_vel" and friends, the state a control line may set:
 * 0 with the item kind and entity, or -1. */
int phys_control_state_target(const struct phys_scene *w, const char *name,
    int *kind, int *entity);
/* "robot::elbow/cmd_pos" and the other commands of a joint's axes: 0
 * with the kind and the joint, or -1 when name is none. */
int phys_control_command_target(const struct phys_scene *w, const char *name,
    enum phys_command_kind *kind, int *joint);
/* A command's text: one finite number per axis of the joint, into v: the
 * count, or -1 with phys_error(). A position (kind POSITION: a command's
 * or a state's) or a rate (VELOCITY) within the bounds every body is held
 * to (engine_common.h). */
int phys_control_check_command(const struct phys_scene *w, int joint,
    enum phys_command_kind kind, const char *name, const char *text,
    double v[2]);
/* The state of item kind of entity (a link, model or joint) named name:
 * a pose is six finite numbers, a velocity three, a joint's position or
 * rate one per axis (into cmd), within the bounds every body is held to:
 * the count of a joint's values, 0 for a link's or model's, or -1 with
 * phys_error(). */
int phys_control_check_state(const struct phys_scene *w, int kind,
    int entity, const char *name, const char *text, double cmd[2]);
/* Store vals (a run's physics values, for engine type) as a new profile
 * name in the world file path, a copy of its profile from (when it has
 * one of that type) with the values that differ: edited in place, locked,
 * as phys-preset add does. */
int phys_control_save(const char *path, const char *name, const char *from,
    const char *type, const struct phys_value *vals);

#endif
