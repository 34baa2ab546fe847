/*
 * engine.h - a run's engine: the interface the run uses, the same under
 * every engine phys has.
 *
 * A profile's type picks the engine: "ode" runs engine_ode.c, "bullet"
 * engine_bullet.cc, "mujoco" engine_mujoco.c, "simbody"
 * engine_simbody.cc, "dart" engine_dart.cc (lib/table/engines.def lists
 * them). The driver, lib/engine/engine.c, calls the one running through
 * its operations table (engine_impl.h) and does what is the same under
 * each: the clock, the step size's check, the check of every body after a
 * step, switching engines; every query means the same under each.
 *
 * An engine reads two things and writes neither. From the loaded world
 * (const) it takes what a run cannot change: models, links, collisions
 * and joints, their names, shapes, meshes, terrains, poses, axes and
 * frames. From the run's values (struct phys_run_values) it takes every
 * parameter: the current profile's, the world's and each link's,
 * collision's and joint's; never the world's own value arrays, which hold
 * the values as loaded. A shape's sizes are parameters too: the engine
 * sizes each collision from the run's values (phys_collision_sized), and
 * triangles of a rescaled mesh or an ellipsoid of new radii are its own,
 * freed with it. The run owns both and calls an apply function
 * when it has changed a value. Poses are link frames (not centres of
 * mass); velocities are those of the link frame's origin, in the world
 * frame.
 */
#ifndef PHYS_ENGINE_H
#define PHYS_ENGINE_H

#include <stdbool.h>

#include "geom.h"
#include "motor.h"
#include "world.h"

struct phys_engine;

/* A parameter an engine's state lines report, under its own key. */
struct phys_engine_field {
	const char *key;
	enum phys_param_id id;
};

struct phys_engine_options;

/* What an engine module does: its operations, which the driver calls
 * (lib/engine/engine_impl.h). */
struct phys_engine_ops;

/* An engine: what phys knows of it without making one (lib/engine/
 * TYPE_info.c, pure C: a command that only describes engines links none
 * of their libraries); its operations are its module's (engine_impl.h),
 * found by phys_engine_ops_of. */
struct phys_engine_info {
	const char *type;	/* as <physics type="..."> names it */
	const char *name;	/* as messages and manuals name it */
	/* What it does with each parameter (params.def's ODE column has
	 * ODE's): NATIVE, EMULATED, INERT (kept, warned about when set) or
	 * OTHER (another engine's block; warned about too). */
	enum phys_engine_support (*support)(const struct phys_param *p);
	/* The "engine" record of a state line: the run's value of each
	 * field's parameter, in this order. */
	const struct phys_engine_field *record;
	size_t nrecord;
	/* The bodies are checked before each step too: the engine cannot
	 * step from a state beyond phys_check_body's bounds (DART stops the
	 * program on a value that is not a number). */
	bool check_first;
	/* What may hold a joint its solver let come apart (the driver's
	 * check after a step) under the profile's values physics: "more
	 * ode.solver.iters"; NULL, or a NULL function: a smaller step
	 * alone. */
	const char *(*apart_hint)(const struct phys_value *physics);
	/* What may speed up a run far slower than real time under the
	 * profile's values physics, beside a larger step or another engine
	 * (the driver's notice): NULL, or a NULL function: nothing. */
	const char *(*slow_hint)(const struct phys_value *physics);
	/* It holds a limited tendon (struct phys_tendon), spatial and
	 * fixed, or fixed ones only; the driver refuses a world of one
	 * under an engine that does not. */
	bool tendons, fixed_tendons;
	/* It takes every servo into its step under the profile's values
	 * physics (Simbody's error-controlled steps, MuJoCo's implicit
	 * integrator), as implicit_servo asks the others to: NULL, never. */
	bool (*servos_implicit)(const struct phys_value *physics);
	/* It takes the forces of a step again within the step under the
	 * profile's values physics (MuJoCo's RK4, at each of its stages),
	 * which a force the run holds through the step (a system's) is
	 * not: NULL, never. */
	bool (*forces_restaged)(const struct phys_value *physics);
};

/* Every engine phys has, NULL-terminated, in engines.def's order
 * (lib/engine/registry.c); and one by type, or NULL. */
extern const struct phys_engine_info *const phys_engines[];
const struct phys_engine_info *phys_engine_find(const char *type);
#define PHYS_E(type, bit_name, bit, gz) extern const struct phys_engine_info \
    phys_engine_##type;
#include "engines.def"
#undef PHYS_E
/* The operations of engine e's module (lib/engine/ops.c, which links
 * every engine's library), which know their engine: for phys_engine_new
 * and phys_engine_use. */
const struct phys_engine_ops *phys_engine_ops_of(
    const struct phys_engine_info *e);
/* The engine a profile runs: its type's, or for gz-sim's placeholder
 * type the one its physics plugin names, else gz-sim's default, DART;
 * NULL when phys has none. The note says which, for gz-sim profiles
 * (NULL for others; caller frees). */
const struct phys_engine_info *phys_profile_engine(
    const struct phys_profile *p);
char *phys_profile_engine_note(const struct phys_profile *p);
/* Each gz-sim profile's engine, for the model layer's lines (phys-preset
 * list): phys_profile_engine's type in the profile's engine. */
void phys_world_engines(struct phys_scene *w);
/* ,"ode":"native","bullet":"inert",...: what each engine does with p, as
 * the fields of a parameter's documentation line. */
void phys_engine_put_support(struct phys_buf *b, const struct phys_param *p);

struct phys_engine_options {
	bool skip_unsupported;	/* unsupported shapes: warn and skip */
	/* Nothing reads the joints' efforts, forces or torques (the run's
	 * items hold none): an engine that computes them apart from its
	 * step may leave them out (MuJoCo's recursion for them is 6% of
	 * a legged robot's step). */
	bool no_joint_forces;
};

/* Build bodies, geometry and joints of w under the engine whose module's
 * operations are ops (phys_engine_ops_of: the caller names them, so that
 * the driver alone links no engine), set up with the values v (its
 * current profile's included); NULL with phys_error() on failure. Both
 * must outlive the engine. */
struct phys_engine *phys_engine_new(const struct phys_scene *w,
    const struct phys_engine_ops *ops, const struct phys_run_values *v,
    const struct phys_engine_options *opt);
void phys_engine_free(struct phys_engine *e);
const struct phys_engine_info *phys_engine_running(const struct phys_engine *e);
/* Run the values' current profile, of engine, from now on: the same
 * engine applies it; another is built in its place, taking over the clock
 * and every link's pose and velocity (joint positions follow from the
 * poses). */
int phys_engine_use(struct phys_engine *e, const struct phys_engine_ops *ops);

/* Re-read a scope's values after the run changed them: the current
 * profile's (solver type included), the world's, one link's or joint's.
 * A collision's other values are read at every contact. */
int phys_engine_apply_profile(struct phys_engine *e);
void phys_engine_apply_world(struct phys_engine *e);
int phys_engine_apply_link(struct phys_engine *e, int link);
int phys_engine_apply_joint(struct phys_engine *e, int joint);
/* Re-read a collision's sizes from the run's values (its shape stays):
 * after a resize. */
int phys_engine_apply_collision(struct phys_engine *e, int collision);

/* One step of the profile's max_step_size. Returns -1 with phys_error()
 * naming the body when the state stops being finite, leaves for 1e15 m
 * or moves faster than any body (phys_check_body), or with the engine's
 * own error. */
int phys_engine_step(struct phys_engine *e);
/* The run's time and the steps taken, as the driver counts them. */
double phys_engine_time(const struct phys_engine *e);
long phys_engine_iterations(const struct phys_engine *e);

void phys_engine_link_pose(const struct phys_engine *e, int link,
    phys_pose *out);
void phys_engine_link_vel(const struct phys_engine *e, int link,
    phys_vec3 *lin, phys_vec3 *ang);
/* Centre of mass in the world, and mass and world inertia about it. */
void phys_engine_link_com(const struct phys_engine *e, int link,
    phys_vec3 *com, phys_vec3 *com_vel);
bool phys_engine_link_dynamic(const struct phys_engine *e, int link);
/* Mass and inertia about the centre of mass (ixx iyy izz ixy ixz iyz, in
 * the inertial frame) as the engine holds them; the model's for statics. */
void phys_engine_link_mass(const struct phys_engine *e, int link,
    double *mass, double inertia[6]);
int phys_engine_set_link_pose(struct phys_engine *e, int link, phys_pose p);
/* Links links[i] set at poses[i] (n), each after the link it hangs from,
 * at once: what an engine reads of its joints from the poses it reads
 * once all are set (engine_impl.h). */
int phys_engine_set_link_poses(struct phys_engine *e, const int *links,
    const phys_pose *poses, size_t n);
int phys_engine_set_link_vel(struct phys_engine *e, int link,
    const phys_vec3 *lin, const phys_vec3 *ang);

/* Joint position and rate per axis; the number of axes is returned. */
int phys_engine_joint_state(const struct phys_engine *e, int joint,
    double pos[2], double vel[2]);
/* Force and torque the joint applies to its child, world frame. */
void phys_engine_joint_wrench(const struct phys_engine *e, int joint,
    phys_vec3 *force, phys_vec3 *torque);
/* Generalized force along each joint axis (N m or N) in the last step:
 * the constraint's, limits and friction included, plus springs and
 * damping. Returns the number of axes. */
int phys_engine_joint_effort(const struct phys_engine *e, int joint,
    double effort[2]);
/* Contacts found in the last step. */
int phys_engine_contact_count(const struct phys_engine *e);

/* Command n axes of a joint (motor.h): in force until changed, whichever
 * engine runs; each step applies the efforts the commands ask. */
int phys_engine_command(struct phys_engine *e, int joint,
    enum phys_command_kind kind, const double *target, int n);
/* Set a revolute or prismatic joint's position (rad or m) or rate: the
 * links on its child's side turn or slide about its axis as one body,
 * its parent's side stays. -1 with phys_error() for another kind of
 * joint, or one whose sides a loop joins. */
/* Link li's velocity and angular velocity as asked since the last step
 * where they were (phys_engine_set_link_vel), else as they are. */
void phys_engine_link_vel_asked(const struct phys_engine *e, int link,
    phys_vec3 *lin, phys_vec3 *ang);
/*
 * Link ref's velocity (its origin's) and angular velocity set, either
 * NULL to keep it (as asked, else as it is), and the links (n, ref among
 * them) moving on by the same rigid change added to each one's
 * velocities (worked out for all before any is set), so that the joints
 * between them keep their rates.
 */
int phys_engine_move_links(struct phys_engine *e, int ref,
    const phys_vec3 *lin, const phys_vec3 *ang, const int *links,
    size_t n);
/*
 * Link li's velocity (its origin's) and angular velocity set, either
 * NULL to keep it: the links that hang from it (on its side of the joint
 * that holds it; for a link no joint holds, all joined to it) move on
 * with it by the same rigid change (phys_engine_move_links).
 */
int phys_engine_set_link_motion(struct phys_engine *e,
    const struct phys_scene *w, int li, const phys_vec3 *lin,
    const phys_vec3 *ang);
/*
 * Whether links moved to new poses (moved: per link; to: their poses,
 * where moved) stay where every joint between a moved link and one that
 * stays (the world included) holds them: its anchor, as each side has
 * it, within 1e-6 m (off its axis, for a prismatic or screw joint). -1
 * with phys_error() naming the first joint pulled apart, else 0.
 */
int phys_engine_joints_hold(const struct phys_engine *e,
    const struct phys_scene *w, const bool *moved, const phys_pose *to);
/*
 * Whether an effort f on an axis of joint j (N m; N on a prismatic
 * joint), or a force and a torque on link li's centre of mass, can be
 * given for the next step: none of the dynamic links it acts on, each
 * taken alone, would move or turn faster than any body within the step
 * (PHYS_FASTEST, PHYS_FASTEST_TURN), judged by its mass and, for a turn,
 * by an inertia no smaller than its own about any axis through the
 * joint's anchor (its centre). 0, or -1 with phys_error() naming the
 * joint or link and the largest it takes: an engine given more may
 * leave the numbers' range inside its step, where some abort.
 */
int phys_engine_effort_fits(const struct phys_engine *e, int j, double f);
int phys_engine_wrench_fits(const struct phys_engine *e, int li,
    phys_vec3 force, phys_vec3 torque);
/* phys_engine_use, each revolute joint then set to the whole turns it
 * had: the new engine takes the links' poses, which say its angle but
 * not its turns. */
int phys_engine_use_keeping_turns(struct phys_engine *e,
    const struct phys_scene *w, const struct phys_engine_ops *ops);
int phys_engine_set_joint_position(struct phys_engine *e,
    const struct phys_scene *w, int joint, double target);
/*
 * Joints js[i] set at positions to[i] (n of them) at once: where the
 * world's joints make trees (phys_link_tree), each link moves once a
 * part (a quarter turn of each joint at most), by the motions of the
 * set joints above it, so that a chain's n joints cost n link moves;
 * elsewhere each is set alone. why[i] gets NULL, or why js[i] was not
 * set (the caller frees it).
 */
void phys_engine_set_joint_positions(struct phys_engine *e,
    const struct phys_scene *w, const int *js, const double *to, size_t n,
    char **why);
int phys_engine_set_joint_velocity(struct phys_engine *e,
    const struct phys_scene *w, int joint, double target);
/* A force through a link's centre of mass and a torque on it, world
 * frame, in force from the next step until changed in the engine running
 * (zero: none; a static link takes none). */
int phys_engine_set_link_wrench(struct phys_engine *e, int link,
    phys_vec3 force, phys_vec3 torque);
/* Hold link child to link parent where it is relative to it now, as a
 * fixed joint made at run time would (on), or let it go (off): in force
 * until changed, whichever engine runs. */
int phys_engine_weld(struct phys_engine *e, int parent, int child, bool on);
/* A joint axis's command and what it did in the last step. */
const struct phys_axis_motor *phys_engine_motor(const struct phys_engine *e,
    int joint, int axis);

#endif
