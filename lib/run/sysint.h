/*
 * sysint.h - what gz-sim's systems are made of inside phys (systems.h is
 * what the run sees): each system is a row of the table in systems.c, a
 * struct phys_sys_kind whose functions live in one file per family
 * (sys_joint.c, sys_drive.c, sys_body.c, sys_detach.c; sys_tendon.c
 * phys's own), over the helpers of sysutil.c.
 *
 * A system's parse reads its <plugin>'s parameters by gz-sim's names and
 * defaults (a bad one is an error at its line), resolves its joints and
 * links, and subscribes to its topics; start gives the commands in force
 * from time 0; step runs before each engine step and turns the system's
 * state into joint commands (motor.h) and link velocities or wrenches;
 * message takes a checked message that arrived on one of its topics.
 */
#ifndef PHYS_SYSINT_H
#define PHYS_SYSINT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "engine.h"
#include "mjcfwrite.h"
#include "sdf.h"
#include "sysmsg.h"
#include "systems.h"
#include "world.h"

/* Where a system's <plugin> is and what it is attached to. */
struct phys_sys_conf {
	const struct phys_scene *w;
	struct phys_doc *doc;		/* the file, for messages */
	xmlNodePtr node;		/* <plugin> */
	const char *label;		/* "JointPositionController", for messages */
	int model;			/* the model it is in; -1: the world */
	const char *model_name;		/* the model's own name (topics) */
	struct phys_run_values *vals;	/* the run's, before its overrides */
	struct phys_systems *all;
	int inst;			/* its place among the systems */
};

/* What a running system acts on. */
struct phys_sys_run {
	const struct phys_scene *w;
	struct phys_engine *e;
	struct phys_run_values *vals;
	/* per joint, the efforts actuators pull it by in the step being
	 * taken (phys_sys_pull), summed as MuJoCo sums its actuators' */
	double *pulls;
	/* per link, the wrench systems push it by in that step
	 * (phys_sys_push): [2 k] the force, [2 k + 1] the torque */
	phys_vec3 *pushes;
};

/* Actuators as systems.h's phys_systems_actuators gathers them. */
struct phys_sys_actuators {
	struct phys_mjcf_actuator *v;
	size_t n;
};

struct phys_sys_kind {
	const char *name;	/* gz::sim::systems::NAME */
	const char *lib;	/* its library, gz-sim-LIB */
	bool world;		/* attached to the world, not a model */
	size_t size;		/* of its state */
	int (*parse)(const struct phys_sys_conf *c, void *state);
	int (*start)(void *state, const struct phys_sys_run *r);
	int (*step)(void *state, const struct phys_sys_run *r, double h);
	/* slot: which of its subscriptions (phys_sys_subscribe) */
	int (*message)(void *state, const struct phys_sys_run *r, int slot,
	    const json_t *msg);
	void (*free)(void *state);
	/* A message's sense, checked when its line is read (the entities
	 * it names): 0, or -1 with phys_error(); NULL: none to check. */
	int (*check)(const void *state, int slot, const json_t *msg);
	/* The joints it drives as MuJoCo's actuators do, appended to out
	 * with the gains of v: 0, or -1 when it drives them otherwise;
	 * NULL: it is no actuator of joints. */
	int (*actuators)(const void *state, const struct phys_run_values *v,
	    struct phys_sys_actuators *out);
	/* The medium it moves its model through, as MuJoCo's <option>
	 * gives one; NULL: it makes none. */
	void (*medium)(const void *state, struct phys_mjcf_medium *out);
};

struct phys_sys_sub {
	int topic;		/* in phys_systems.topics */
	const struct phys_msg_type *type;
	int inst, slot;
};

struct phys_sys_inst {
	const struct phys_sys_kind *kind;
	void *state;
	xmlNodePtr node;	/* its <plugin> */
	struct phys_doc *doc;	/* the file it is in, for messages */
};

struct phys_systems {
	struct phys_sys_inst *v;
	size_t n;
	char **topics;		/* each topic once, as gz-transport names it */
	size_t ntopics;
	struct phys_sys_sub *subs;
	size_t nsubs;
	struct phys_sys_run run;
};

/* ---- parameters (sysutil.c) ---- */

/* An error at element e (NULL: the plugin) of c's plugin: -1. */
int phys_sys_fail(const struct phys_sys_conf *c, xmlNodePtr e,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Parameter NAME, a number, a bool, n (at most 3) finite numbers, three
 * numbers or text: 1 with *out when the plugin has it, 0 when not (*out
 * untouched), -1 when it is not one. */
int phys_sys_double(const struct phys_sys_conf *c, const char *name,
    double *out);
int phys_sys_bool(const struct phys_sys_conf *c, const char *name, bool *out);
int phys_sys_numbers(const struct phys_sys_conf *c, const char *name,
    double *out, int n);	/* n at most 6 */
/* <NAME>, two numbers, the first below the second, into v: left at
 * -inf, inf when absent (no range); -1 with an error at the element. */
int phys_sys_range(const struct phys_sys_conf *c, const char *name,
    double v[2]);
/* <NAME>, one finite number of at least 0, into *v (left alone when
 * absent); -1 with an error at the element. */
int phys_sys_not_negative(const struct phys_sys_conf *c, const char *name,
    double *v);
int phys_sys_vec3(const struct phys_sys_conf *c, const char *name,
    phys_vec3 *out);
char *phys_sys_text(const struct phys_sys_conf *c, const char *name);
/* The joint element e names, within the plugin's model (scoped names
 * such as "arm::elbow" reach nested models): its index, or -1 with an
 * error at e. */
int phys_sys_joint(const struct phys_sys_conf *c, xmlNodePtr e);
/* The same for a link. */
int phys_sys_link(const struct phys_sys_conf *c, xmlNodePtr e);
/* The links of model mi and of the models within it, in the scene's
 * order (caller frees *out): their count. */
int phys_sys_model_links(const struct phys_scene *w, int mi, int **out);
/* Every <NAME> of the plugin as joints: the count (at least one), or -1. */
int phys_sys_joints(const struct phys_sys_conf *c, const char *name,
    int **out);
/* A run parameter of joint j, as the plugin sets it (before -s); a bool
 * one true for any v but 0. */
void phys_sys_set_param(const struct phys_sys_conf *c, int joint,
    enum phys_param_id id, double v);

/* Append a to out. */
void phys_sys_actuator_add(struct phys_sys_actuators *out,
    const struct phys_mjcf_actuator *a);

/* ---- topics ---- */

/* A topic as gz-transport names it ("rotor_cmd" is "/rotor_cmd", spaces
 * become _): NULL when it is none (caller frees). */
char *phys_sys_topic_name(const char *topic);
/* Listen on topic for messages of type t, delivered as slot: 0, or -1
 * when the topic is no valid name. */
int phys_sys_subscribe(const struct phys_sys_conf *c, const char *topic,
    const struct phys_msg_type *t, int slot);

/* ---- commands ---- */

/* Add f to the effort joint j's first axis is pulled by in this step,
 * and command the sum: several actuators of one joint add up. */
int phys_sys_pull(const struct phys_sys_run *r, int joint, double f);
/* Add force f (through the centre of mass) and torque t, world axes, to
 * the wrench link k is pushed by in this step, and set the sum: several
 * systems' wrenches on one link add up. */
int phys_sys_push(const struct phys_sys_run *r, int link, phys_vec3 f,
    phys_vec3 t);
/* Command axis k of joint j (the other axis keeps its command). */
int phys_sys_command(const struct phys_sys_run *r, int joint, int axis,
    enum phys_command_kind kind, double target);
/* The axes joint j has that take commands; the error names the system. */
int phys_sys_check_axis(const struct phys_sys_conf *c, xmlNodePtr e,
    int joint, int axis);

/*
 * gz-sim's velocity command (JointVelocityCmd: a servo in the engine's
 * constraint solver), the same on every engine: before each step, the
 * effort that brings the axis to its target within the step as its two
 * bodies alone would move (no overshoot: the rest of the world only adds
 * inertia), plus the load the steps before met (what held it back from
 * the rate it was asked, so that a steady load costs no speed; averaged
 * over two steps, so that an iterative solver's ripple does not feed
 * back), within the axis's effort limit.
 */
struct phys_servo {
	int joint, axis;
	double target;		/* rad/s or m/s */
	double last_vel;	/* the rate before the last step */
	double load;		/* the load it met, smoothed */
	bool has_last;
};
void phys_servo_init(struct phys_servo *s, int joint, int axis);
int phys_servo_step(struct phys_servo *s, const struct phys_sys_run *r,
    double h);

/*
 * gz-math's PID, for a system that sums several (the joints' own PIDs,
 * motor.h, follow one command each): cmd = offset - p e - i sum(e h) -
 * d (e - e_last) / h, e_last 0 at first; the integral and the output
 * clamped when their max >= min.
 */
struct phys_pid {
	struct phys_pid_gains g;
	double integral, last;
};
double phys_pid_update(struct phys_pid *pid, double error, double h);

/* ---- the families' systems ---- */

extern const struct phys_sys_kind phys_sys_joint_position_controller;
extern const struct phys_sys_kind phys_sys_joint_controller;
extern const struct phys_sys_kind phys_sys_apply_joint_force;
extern const struct phys_sys_kind phys_sys_diff_drive;
extern const struct phys_sys_kind phys_sys_velocity_control;
extern const struct phys_sys_kind phys_sys_apply_link_wrench;
extern const struct phys_sys_kind phys_sys_joint_trajectory_controller;
extern const struct phys_sys_kind phys_sys_ackermann_steering;
extern const struct phys_sys_kind phys_sys_detachable_joint;
extern const struct phys_sys_kind phys_sys_tendon_actuator;
extern const struct phys_sys_kind phys_sys_fluid_forces;
extern const struct phys_sys_kind phys_sys_tendon_spring;
extern const struct phys_sys_kind phys_sys_site_actuator;

#endif
