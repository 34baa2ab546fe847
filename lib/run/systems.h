/*
 * systems.h - gz-sim's systems in a run: read from the <plugin> elements
 * of a world and its models (a URDF's <gazebo> blocks bring theirs, as
 * libsdformat does), with gz-sim's parameter names, defaults and topics.
 * Before each engine step they turn what they were told into joint
 * commands and link velocities or wrenches; what they are told arrives as
 * control lines on their topics: {"t":T,"topic":"/model/M/cmd_vel",
 * "msg":{...}}, the message in protobuf's JSON form (sysmsg.h). phys(7)
 * lists the systems phys runs; every other plugin is reported once, with
 * its file and line, as not run.
 */
#ifndef PHYS_SYSTEMS_H
#define PHYS_SYSTEMS_H

#include "engine.h"
#include "mjcfwrite.h"
#include "world.h"

struct phys_systems;

/*
 * The systems of w's plugins, their parameters checked (an error names
 * the file and line); the controller gains they give their joints are
 * written into vals, the run's values, before its overrides. Every other
 * plugin is reported once, as not run. *out is NULL when there is no
 * system to run. 0, or -1 with phys_error().
 */
int phys_systems_load(struct phys_systems **out, const struct phys_scene *w,
    struct phys_run_values *vals);
void phys_systems_free(struct phys_systems *s);

/* The topic a control line names (s may be NULL): its number, or -1 with
 * phys_error() listing the topics there are. */
int phys_systems_topic(const struct phys_systems *s, const char *topic);
/* Is msg (JSON text) a message the topic's systems take? 0, or -1 with
 * phys_error() naming the field at fault. */
int phys_systems_check(const struct phys_systems *s, int topic,
    const char *msg);

/* The commands in force from time 0, on engine e. */
int phys_systems_start(struct phys_systems *s, struct phys_engine *e);
/* A keyframe's controls (an MJCF model's <key ctrl>, which the reader
 * keeps in each actuator's plugin as <phys:key name>: mjcf.h): each such
 * system takes its value as a message on its topic would give it. */
int phys_systems_keyframe(struct phys_systems *s, const char *name);
/*
 * The joints the systems drive as MuJoCo's actuators do (mjcfwrite.h),
 * in the systems' order, with the gains of v (the run's values after
 * phys_systems_load): *out (the caller frees it), *n. A system that
 * drives joints otherwise, or does what no actuator does, is named once
 * as not written.
 */
void phys_systems_actuators(const struct phys_systems *s,
    const struct phys_run_values *v, struct phys_mjcf_actuator **out,
    size_t *n);
/* The medium the systems move the models through (a FluidForces
 * system's), for MJCF's <option>: false when none does. MJCF has one:
 * a second that differs is named as not written. */
bool phys_systems_medium(const struct phys_systems *s,
    struct phys_mjcf_medium *out);
/* A message on a topic, to each system listening there. */
int phys_systems_deliver(struct phys_systems *s, int topic, const char *msg);
/* What the systems do before a step of h. */
int phys_systems_step(struct phys_systems *s, double h);

#endif
