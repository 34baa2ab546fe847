/*
 * phys.h - libphys for C programs: open an SDFormat world, run it with the
 * ODE engine, step it, read its items and change its parameters.
 *
 * Every public name starts with phys_ (types and functions) or PHYS_
 * (constants). Errors are not printed: a function that fails returns a
 * negative PHYS_E* code (or NULL) and phys_errmsg() says what went wrong.
 * None of them prints an error or ends the program, out of memory
 * included (PHYS_ENOMEM).
 * Names of items and parameters are those of phys(7), phys-params(7),
 * phys-introspect items and phys-param list. Units are SI throughout;
 * angles are in radians. See libphys(3).
 */
#ifndef PHYS_H
#define PHYS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a function or a definition field changes incompatibly. */
#define PHYS_API_VERSION 1

/* What a failing function returns; phys_errmsg() has the details. */
enum phys_status {
	PHYS_OK = 0,
	/* A file unreadable, or not a valid world or control file. */
	PHYS_EINPUT = -1,
	/* No item, parameter, entity or profile of that name. */
	PHYS_ENAME = -2,
	/* A value of the wrong type, count or range. */
	PHYS_EVALUE = -3,
	/* The run cannot go on: its state stopped being finite, or a
	 * control line failed. */
	PHYS_ERUN = -4,
	/* A NULL or negative argument, or a world that already has a run. */
	PHYS_EUSE = -5,
	/* Memory ran out (or the library found itself inconsistent) in the
	 * call: it was ended there, and the program goes on. A run it
	 * happened in cannot go on (PHYS_ERUN from then on; free it); a
	 * world being opened or a run being created is freed (NULL). */
	PHYS_ENOMEM = -6
};

/* A world loaded from SDF, and a simulation run of it. Opaque. */
typedef struct phys_api_world phys_world;
typedef struct phys_api_run phys_run;

/* How to open a world. Start from phys_default_world_def(). */
typedef struct phys_world_def {
	/* Nonzero: leave out collisions phys cannot build yet (such as
	 * <image>), with a warning. 0 (default): refuse the world. */
	int skip_unsupported;
	/* Nonzero: no warnings while loading. 0 (default): warn. */
	int quiet;
} phys_world_def;

/* How to start a run. Start from phys_default_run_def(). */
typedef struct phys_run_def {
	/* Physics profile to start in. NULL (default): the world's
	 * starting profile. */
	const char *profile;
	/* File of control lines (phys(7)) to apply at their times.
	 * NULL (default): none. */
	const char *control;
} phys_run_def;

phys_world_def phys_default_world_def(void);
phys_run_def phys_default_run_def(void);

/* The last error: "file:line: what is wrong" when a position is known. */
const char *phys_errmsg(void);

/*
 * Warnings (a value ODE cannot honour, a collision left out) go to stderr
 * as "prog: message" unless a handler is set: then each goes to
 * handler(message, ctx) instead. NULL restores stderr.
 */
typedef void phys_warning_handler(const char *message, void *ctx);
void phys_set_warning_handler(phys_warning_handler *handler, void *ctx);

/* Open a world from a file ("-" is standard input) or from SDF text held
 * in memory (name is used in messages); def may be NULL for the defaults.
 * NULL on failure. */
phys_world *phys_open_world(const char *path, const phys_world_def *def);
phys_world *phys_open_world_text(const char *name, const char *sdf,
    size_t len, const phys_world_def *def);
void phys_free_world(phys_world *w);

/* Start a run of w at time 0 s. A world has one run at a time; the run
 * must be freed before its world. def may be NULL. NULL on failure. */
phys_run *phys_create_run(phys_world *w, const phys_run_def *def);
void phys_free_run(phys_run *r);

/* Take n steps of the profile's max_step_size (s). */
int phys_run_step(phys_run *r, long n);
/* Step until the simulated time reaches t (s), to within half a step. */
int phys_run_until(phys_run *r, double t);
/* Simulated time now (s). */
double phys_run_time(const phys_run *r);

/*
 * The value of an item now, as numbers in the order of its fields:
 * "ball::link/pose" gives x y z (m) roll pitch yaw (rad),
 * "ball::link/pose.z" the one field, "robot::elbow/position" one number
 * per joint axis, "sim_time" one. Up to n numbers go into v; returns how
 * many the item has (possibly more than n), or a negative PHYS_E* code.
 */
int phys_run_read(phys_run *r, const char *item, double *v, int n);

/*
 * Set a parameter, as phys-step -s NAME=VALUE does, or a link's or model's
 * pose, linear_vel or angular_vel, as a control line does; it acts from
 * the next step. value is SDF text ("0 0 -9.81", "50", "quick", "true");
 * name may be an alias ("iters") or a glob
 * ("*::collision/surface.friction.ode.mu").
 */
int phys_run_set(phys_run *r, const char *name, const char *value);
/* The same with n numbers (a vector3 is 3, a pose 6, a scalar 1). */
int phys_run_set_numbers(phys_run *r, const char *name, const double *v,
    int n);
/* The current value of a parameter as SDF text into buf (size bytes, NUL
 * included); returns the text's length (possibly size or more: then it
 * was cut), or a negative PHYS_E* code. */
int phys_run_get(phys_run *r, const char *name, char *buf, size_t size);
/* Switch to another physics profile of the world. */
int phys_run_use_profile(phys_run *r, const char *profile);

/*
 * Control lines (phys-step(1)) now, as a controller's reply to
 * phys-step --lockstep: one control object, a JSON array of them, or {}
 * for none ("{\"name\":\"robot::elbow/cmd_force\",\"value\":2.5}"). A
 * line without "t" acts from the next step, one whose "t" is ahead waits
 * for it; a "t" that has passed is refused. PHYS_EINPUT when the text is
 * refused (none of it applies); PHYS_ERUN when a line failed as it
 * applied.
 */
int phys_run_control(phys_run *r, const char *line);
/*
 * A message to the world's gz-sim systems on a topic (phys(7), "Topics"),
 * from the next step: msg is the message as JSON, in protobuf's form of
 * what gz topic -p publishes ("{\"linear\":{\"x\":0.5}}" on
 * "/model/vehicle/cmd_vel"), as the line {"topic":TOPIC,"msg":MSG} of
 * phys_run_control gives it. PHYS_EINPUT when no system listens on the
 * topic or the message is not of its type (nothing is sent); PHYS_ERUN
 * when a system failed as it took it.
 */
int phys_run_publish(phys_run *r, const char *topic, const char *msg);

#ifdef __cplusplus
}
#endif

#endif
