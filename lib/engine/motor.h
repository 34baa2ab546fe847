/*
 * motor.h - commands on joint axes, the same for every engine: an effort
 * held, or a velocity or a position followed through a PID whose gains are
 * the joint's parameters (position_pid.*, velocity_pid.*), the effort
 * applied held within the axis's effort limit. The driver
 * (lib/engine/engine.c) keeps the commands across engine switches and hands
 * each step's efforts to the engine running.
 */
#ifndef PHYS_MOTOR_H
#define PHYS_MOTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "param.h"
#include "world.h"

enum phys_command_kind {
	PHYS_COMMAND_NONE,
	PHYS_COMMAND_EFFORT,	/* N m or N, held */
	PHYS_COMMAND_VELOCITY,	/* rad/s or m/s, through velocity_pid */
	PHYS_COMMAND_POSITION	/* rad or m, through position_pid */
};

/*
 * What a joint's commands ask of the next step (phys_motors_drive): each
 * axis's effort, from the state now; and, for an axis whose command is a
 * servo (a position PID, or a velocity PID without a derivative, of no
 * integral gain), the servo itself: the force base + kq pos + kv vel
 * (pos, vel: the axis's, as joint_state reports them) held within [fmin,
 * fmax]. At the state now it is the effort; an engine that integrates a
 * servo's damping implicitly, as MuJoCo's implicit integrator does an
 * actuator's, applies the servo in its place.
 */
struct phys_axis_servo {
	bool on;
	double base;		/* N m or N */
	double kq;		/* N m/rad or N/m */
	double kv;		/* N m s/rad or N s/m */
	double fmin, fmax;	/* N m or N; -inf, inf: none */
	/* implicit_servo: an engine that holds forces over its step takes
	 * it into the step where it is too stiff for that */
	bool implicit;
};
struct phys_joint_drive {
	double effort[2];
	struct phys_axis_servo servo[2];
};

/* Servo s's force at pos, vel, base + kq pos + kv vel, before its range
 * holds it. */
double phys_servo_pull(const struct phys_axis_servo *s, double pos,
    double vel);
/* Servo s's force at pos, vel, as asked (within its range): for an
 * engine that evaluates it throughout its step. */
double phys_servo_force(const struct phys_axis_servo *s, double pos,
    double vel);
/* What servo s resists the axis's rate with over a step of h when the
 * step takes it implicitly, D = -(kq h + kv): its force at the step's end
 * is base + kq pos - D v', v' the rate then. */
double phys_servo_resistance(const struct phys_axis_servo *s, double h);
/* Whether implicit_servo takes servo s into the step, given the type t
 * of its joint: it is on and implicit, on a revolute or prismatic joint
 * (the engines' motor rows hold one axis). */
bool phys_servo_implicit(const struct phys_axis_servo *s,
    enum phys_joint_type t);
/* Whether servo s is too stiff for its force to be held over a step of
 * h on an axis of inverse inertia inv (what the two links give alone,
 * which bounds the axis's from above): h D inv >= 2, where a held force
 * flips the rate at each step. ODE, Bullet and DART take such a servo
 * into their step when it is implicit (their motor rows). */
bool phys_servo_stiff(const struct phys_axis_servo *s, double h,
    double inv);
/*
 * A servo as a constraint row implicit in its axis's rate: F = D (rate -
 * v') within +-half, v' the rate at the step's end (CFM 1 / D), is the
 * servo's base + kq (pos + h v') + kv v' less its range's middle, which
 * is held beside the row as an effort (a row's range is symmetric).
 */
struct phys_servo_row {
	double rate;	/* rad/s or m/s */
	double cfm;	/* 1 / D: rad/(N m s) or m/(N s) */
	double half;	/* N m or N; inf: none */
	double middle;	/* N m or N */
};
/* Servo s at pos as such a row, for a step of h on an axis of inverse
 * inertia inv: true when it is implicit and too stiff for a force held
 * over the step (phys_servo_stiff) and its range is closed on both sides
 * or open on both. */
bool phys_servo_row(const struct phys_axis_servo *s, double h, double inv,
    double pos, struct phys_servo_row *r);
/* One axis's command and its controller's state. */
struct phys_axis_motor {
	enum phys_command_kind kind;
	double target;		/* the command's unit */
	/* what a position PID follows: the target, or, under a slew
	 * limit (position_pid.slew_max), the last step's moved toward it
	 * by at most the limit times the step; has_aim once there is one */
	double aim;
	bool has_aim;
	double integral;	/* the PID's integral term, N m or N */
	double last_error;	/* for a velocity PID's rate of error */
	bool has_last;
	/* The last step's: position or velocity less its target, the
	 * effort asked (PID output or the effort commanded) and the effort
	 * applied (asked, within the effort limit). */
	double error, asked, applied;
	/* A servo's effort at an end of its range (at_end) and how many
	 * steps in a row it has gone from one end to the other (flips). */
	bool at_end;
	int flips;
};

/* The commands of a world's joints, two axes each. */
struct phys_motors {
	struct phys_axis_motor (*axis)[2];
	size_t njoints;
	size_t ncommanded;	/* joints with a command on some axis */
};

/* gz-math's PID's gains and clamps (a clamp holds when max >= min). */
struct phys_pid_gains {
	double p, i, d, i_max, i_min, cmd_max, cmd_min, offset;
};
/* One update of gz-math's PID on error e, changing at rate, over h:
 * cmd_offset - p e - I - d rate, the integral I (advanced by i e h) and
 * the output each held within its clamp. */
double phys_pid_step(const struct phys_pid_gains *g, double *integral,
    double e, double rate, double h);

/* The axes of a joint of type t that take commands: 1 or 2, 0 for fixed
 * and ball joints and, for now, the coupled screw and gearbox. */
int phys_joint_axes(enum phys_joint_type t);
/* Why joint j takes no command ("joint 'arm::hold' has no axis phys can
 * VERB: it is a fixed joint (arm.sdf:12), ..."; caller frees). */
char *phys_joint_no_axis(const struct phys_joint *j, const char *verb);

void phys_motors_init(struct phys_motors *m, size_t njoints);
void phys_motors_free(struct phys_motors *m);
/* The command kind a control line's property names ("cmd_force",
 * "cmd_vel", "cmd_pos"), or PHYS_COMMAND_NONE. */
enum phys_command_kind phys_command_kind_of(const char *prop);
const char *phys_command_prop(enum phys_command_kind kind);
/* Command n axes of joint j: a new kind starts its controller afresh, a
 * new target of the same kind keeps its integral (as a PID does). */
void phys_motors_command(struct phys_motors *m, int joint,
    enum phys_command_kind kind, const double *target, int n);
bool phys_motors_active(const struct phys_motors *m, int joint);
/*
 * The efforts for the next step of h of joint j at positions pos and
 * rates vel of its n axes, its values v: the PIDs advanced by the step
 * (gz-math's PID: cmd = offset - p e - i sum(e h) - d e', the integral
 * and the output clamped when max >= min), then held within the effort
 * limit (axis.limit.effort, negative: none). A velocity target is held
 * within axis.limit.velocity.
 */
/* Effort f held within axis k's effort limit (joint values v; a
 * negative limit is none). */
double phys_effort_held(const struct phys_value *v, int k, double f);
void phys_motors_drive(struct phys_motors *m, int joint,
    const struct phys_value *v, int n, const double pos[2],
    const double vel[2], double h, struct phys_joint_drive *out);

#endif
