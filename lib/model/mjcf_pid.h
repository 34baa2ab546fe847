/*
 * mjcf_pid.h - MuJoCo's pid actuator plugin (mujoco.pid) as the MJCF
 * reader reads it (mjcfint.h's reader).
 */
#ifndef PHYS_MJCF_PID_H
#define PHYS_MJCF_PID_H

#include <libxml/tree.h>

struct reader;
struct mj_pid;

/* What a plugin phys does not read is refused with (its name for %s). */
#define PHYS_MJCF_PID_ONLY "plugin '%s' is not read (of MuJoCo's " \
	"plugins phys reads mujoco.pid, its pid actuator): phys refuses the " \
	"model"

/* An <extension>: each mujoco.pid instance into r->pids; any other
 * plugin refused at its line. */
int phys_mjcf_read_extension(struct reader *r, xmlNodePtr ext);
/* The <config> keys of n (an <instance>, or an actuator's own) into p. */
int phys_mjcf_pid_config(struct reader *r, xmlNodePtr n, struct mj_pid *p);
void phys_mjcf_pids_free(struct reader *r);

#endif
