/*
 * engine_common.h - what every engine module computes the same way, below
 * both the modules and the dispatcher (lib/engine/engine.c).
 */
#ifndef PHYS_ENGINE_COMMON_H
#define PHYS_ENGINE_COMMON_H

#include <math.h>
#include <stdbool.h>

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far apart joint j's anchor is as each of its links carries it
 * from where the world put both, its parent at pp (the world's: the
 * identity) and its child at cp (m); off its axis for a prismatic or
 * screw joint; 0 for a gearbox, which has no anchor. */
double phys_joint_gap(const struct phys_scene *w, int j, phys_pose pp,
    phys_pose cp);

/* How far joint j's links have turned against each other in a way the
 * joint does not let them, since the world put them (rad): all of their
 * turn for a fixed or prismatic joint, their turn off its axis for a
 * revolute or screw joint; 0 for the others. Poses as phys_joint_gap. */
double phys_joint_turn(const struct phys_scene *w, int j, phys_pose pp,
    phys_pose cp);
/* Whether phys_joint_turn of a joint of type t is its turn off its axis
 * (revolute, screw) rather than all of its links' turn. */
bool phys_joint_turn_off_axis(enum phys_joint_type t);

/* Collision c as an engine collides it, at the sizes the run's values
 * vals hold (phys_collision_sized; *mesh the caller's to free): a mesh
 * asked to collide as its convex hull is the hull, out->hull set. */
int phys_engine_collision(const struct phys_collision *c,
    const struct phys_value *vals, struct phys_collision *out,
    struct phys_mesh **mesh);

/*
 * How far a coupling held by a force (ODE's and Bullet's mimics) may be
 * off (rad or m) before the run says so, once, naming the engine: a
 * force from each link's own inertia leaves a chain of light links
 * under load (a leg's coupled joints on a servo) far off, where MuJoCo,
 * DART and Simbody solve it as a constraint.
 */
/* Which bound of its range fixed limited tendon t's length len (the sum
 * of coefficient times position over its joints, phys's positions) is
 * past, as the sign of the push that holds it: -1 past the upper (it
 * may only be shortened), 1 past the lower, 0 within; *bound that
 * bound. An engine without MuJoCo's tendons holds it there by a
 * one-sided row over its joints, as a stop holds one joint. */
int phys_tendon_past(const struct phys_tendon *t, double len, double *bound);
/* Whether an engine can take every joint of the world's fixed limited
 * tendons, as held(ctx, joint) says of each: -1 at the first it cannot,
 * said at its tendon's line as "the ENGINE engine holds WHAT". */
int phys_tendon_joints_held(const struct phys_scene *w,
    bool (*held)(const void *ctx, int joint), const void *ctx,
    const char *engine, const char *what);

/* A box's face lies on a triangle, and the box is held there by its
 * corners (Bullet's meshes and terrain, MuJoCo's height fields), when
 * their normals are within 0.01 rad: their angle's cosine above this
 * (1 - cos 0.01 is 5e-5). */
#define PHYS_FACE_ON	(1 - 5e-5)

#define PHYS_COUPLING_SLIP	0.01
void phys_coupling_slip_note(const char *engine, const char *joint,
    double gap);

/* Simulated time after n steps of h from base: the double nearest the
 * exact decimal for steps of 1/k s or of a decimal fraction of a second,
 * also after a change of step (0.7, not 0.7000000000000001; 1.64 after
 * 1.5 s and 140 steps of 0.001 s), which every engine's clock uses. */
double phys_engine_clock(double base, long n, double h);

/* Where a kinematic link at pose p, moving at lin (its origin's velocity)
 * and turning at ang, both in the world, is h later: its origin moved on
 * a straight line, the link turned about it, as every engine moves one
 * (the velocities a control line sets are its origin's). */
phys_pose phys_kinematic_step(phys_pose p, phys_vec3 lin, phys_vec3 ang,
    double h);

/* The spring and viscous damping force along axis k (0 or 1) of a joint
 * with values v at position pos and rate vel, as Gazebo applies it: an
 * explicit generalized force. */
double phys_joint_spring_damper(const struct phys_value *v, int k, double pos,
    double vel);
/*
 * The same force as it acts over a step of h, where inv_inertia is the
 * inverse inertia of the axis's motion as the joint's two bodies alone
 * give it: the damping held to what stops the motion within the step
 * (d at most 1 / (h inv_inertia)), never reversing it. Constraints only
 * add inertia to a motion, so the true motion loses at most all its rate
 * to it: stable, without overshoot, at any damping and step; below the
 * bound, Gazebo's explicit force as it is.
 */
double phys_joint_spring_damper_stable(const struct phys_value *v, int k,
    double pos, double vel, double inv_inertia, double h);
/*
 * How far ball joint ji is turned from where its child would be on its
 * parent as loaded (MuJoCo's qpos0), its links' turns now child and
 * parent (the world's: identity): the angle, 0 to pi rad, the shorter
 * way round; the axis (world frame, unit; x where the angle is 0) in
 * *axis. A ball's spring pulls it back along the axis, its range is the
 * largest angle.
 */
double phys_ball_turn(const struct phys_scene *sc, int ji, phys_quat child,
    phys_quat parent, phys_vec3 *axis);
/*
 * The torque (world frame) ball joint ji's damping and spring, its
 * axis's in the run's values v, put on its child, the parent taking the
 * opposite: -d w - k theta n, w the child's angular velocity less the
 * parent's, theta n the turn (world frame) from where the child would be
 * on its parent as loaded; child, parent: the links' turns now (the
 * world's: identity). The damping is held as an axis's is, to 1 / (h
 * inv_inertia) (phys_joint_spring_damper_stable).
 */
phys_vec3 phys_ball_torque(const struct phys_scene *sc, int ji,
    const struct phys_value *v, phys_quat child, phys_quat parent,
    phys_vec3 w, double inv_inertia, double h);
/* Whether axis k's damping stops no motion of inverse inertia at most
 * inv_bound within a step of h: then the stable force is Gazebo's as it
 * is, and needs no inverse inertia (0 says none). */
bool phys_joint_damping_within_step(const struct phys_value *v, int k,
    double inv_bound, double h);
/* The same with the spring acting on where the step ends, x + h v' (its
 * implicit Euler step). */
double phys_joint_spring_damper_implicit(const struct phys_value *v, int k,
    double pos, double vel, double inv_inertia, double h);
/*
 * How a joint's spring and damping are applied (Gazebo's ODE): as forces,
 * above; or in the constraint solver, as the soft row of the axis's stops
 * held at the spring's reference, with physics.ode.implicit_spring_damper
 * (spring and damping) or physics.ode.cfm_damping (damping alone).
 */
enum phys_joint_springs {
	PHYS_SPRINGS_FORCE,
	PHYS_SPRINGS_DAMPING_ROW,	/* damping in the row, spring a force */
	PHYS_SPRINGS_ROW		/* both in the row */
};
enum phys_joint_springs phys_joint_springs(const struct phys_value *v);
/*
 * Whether the force of axis k, applied as how says, needs the exact
 * inverse inertia of the axis's motion, of which inv_bound is at least
 * (INFINITY: none known): the implicit step of a spring always does; the
 * damping only where the bound would let it stop the motion within the
 * step. Elsewhere an inverse inertia of 0 gives the same force, and the
 * 3 x 3 work of finding it (5% of a legged robot's step) is saved.
 */
bool phys_joint_needs_inverse_inertia(const struct phys_value *v, int k,
    enum phys_joint_springs how, double inv_bound, double h);
/*
 * The ERP and CFM (ODE's units: CFM per step, so 1/(h k + d)) of the row
 * that holds axis k's spring of stiffness k and damping d at the spring's
 * reference over a step of h, as the implicit Euler step of both: the
 * constraint force is -k (x + h v') - d v'. with_spring false: damping
 * only (ERP 0). False when the row would hold nothing.
 */
bool phys_joint_spring_row(const struct phys_value *v, int k, double h,
    bool with_spring, double *erp, double *cfm);

/*
 * The likely cause of a divergence, for its message: "; likely cause:
 * link 'x' weighs 1e-08 kg, ...", or "" when none is seen (caller frees).
 * Looked for: a moving link lighter than 1e-6 kg, a joint spring too
 * stiff for the step of h.
 */
char *phys_divergence_cause(const struct phys_scene *w,
    const struct phys_run_values *v, double h);
/*
 * The bounds of a body's state: phys_check_body holds every body to them
 * after each step. A state set from outside (a control line, a keyframe,
 * the API) is held to the rates, and its position to PHYS_REACH (geom.h),
 * as it is read, so that its line is named (phys_check_state_set).
 */
#define PHYS_FARTHEST 1e15		/* m: |x| + |y| + |z| of its origin */
#define PHYS_FASTEST 299792458.0	/* m/s: light's speed */
#define PHYS_FASTEST_TURN 1e8		/* rad/s */
/* A link's state as set from outside, named what in the error: its
 * position (m), velocity (m/s) and angular velocity (rad/s), any of them
 * NULL, finite and within those bounds: 0, or -1 with phys_error(). */
int phys_check_state_set(const char *what, const phys_vec3 *pos,
    const phys_vec3 *lin, const phys_vec3 *ang);
/*
 * A body's state after a step at time t: -1, with the error naming the
 * link, the time and the likely cause, when it is not finite, has left
 * for PHYS_FARTHEST, or moves faster than any body does (PHYS_FASTEST,
 * PHYS_FASTEST_TURN: a spring or damper the step cannot integrate ends
 * there).
 */
int phys_check_body(const struct phys_scene *w,
    const struct phys_run_values *v, double h, int link, phys_vec3 pos,
    phys_quat q, phys_vec3 vel, phys_vec3 angvel, double t);

/* A link's mass and inertia (ixx iyy izz ixy ixz iyz) as its values give
 * them. */
void phys_link_values_mass(const struct phys_value *v, double *mass,
    double inertia[6]);


/* How an engine holds a link's inertia once phys's rules have passed it. */
enum phys_inertia_form {
	/* the tensor as written, one not positive definite with its
	 * principal moments raised to the floor (ODE, DART) */
	PHYS_INERTIA_AS_WRITTEN,
	/* the principal moments, each raised to the floor, and the inertial
	 * frame turned to their axes; a tensor without products keeps its
	 * own axes, in their order (Bullet, MuJoCo) */
	PHYS_INERTIA_PRINCIPAL,
	/* the tensor of a rigid body, which is all Simbody takes: every
	 * principal moment raised to the floor, the two smaller to meet the
	 * largest */
	PHYS_INERTIA_RIGID
};

/* When a file's mass 0 runs with the stand-in (ALWAYS: also when a later
 * change sets the link up again); else it is refused. */
enum phys_stand_in {
	PHYS_STAND_IN_NEVER,
	PHYS_STAND_IN_AT_LOAD,
	PHYS_STAND_IN_ALWAYS
};

/* What an engine does its own way when it takes a link's mass and
 * inertia; the rest is the same for every engine. */
/* The range of masses and moments every engine takes (phys_mass_rules):
 * past 1e100, or below 1e-100 kg, ODE asserts, Simbody cannot start and
 * the others' states are not numbers after one step. */
#define PHYS_MASS_RANGE 1e100

struct phys_mass_rules {
	const char *engine;		/* its name, for messages */
	enum phys_inertia_form form;
	enum phys_stand_in stand_in;
	bool stand_in_from_run;		/* from the run's masses, not the file's */
	/* After load the tensor is not judged here: the engine judges it by
	 * its own test (ODE's, every leading minor positive). */
	bool judged_later_by_engine;
	double range;			/* largest mass and element, and
					 * 1 / the smallest mass, or 0 */
	double spread;			/* largest ratio of two principal
					 * moments, or 0 */
	const char *not_positive_note;	/* ends that warning when given */
};

/* A link's mass and inertia as an engine takes them. */
struct phys_link_mass {
	double mass;		/* a file's 0 replaced by its stand-in */
	/* ixx iyy izz ixy ixz iyz as the values give them, also when the
	 * link is refused */
	double given[6];
	/* AS_WRITTEN and RIGID: the tensor about the centre of mass in the
	 * inertial frame */
	phys_mat3 tensor;
	double moments[3];	/* PRINCIPAL: the principal moments */
	/* The inertial frame in the link frame; PRINCIPAL: turned to the
	 * principal axes */
	phys_pose frame;
};

/*
 * Link li's mass and inertia from the run's values rv, by the rules every
 * engine follows, Gazebo's where it has one: a file's mass 0 (valid SDF,
 * which Gazebo refuses on a moving link) runs with a stand-in; a mass must
 * be positive; a tensor that is not finite is refused; one that is not
 * positive definite runs, at load, with its principal moments raised to
 * mass * PHYS_MIN_GYRATION^2, and is refused later; one no rigid body has
 * runs as r's form allows. At load, warnings and errors point at line of
 * the link's file, and quiet silences the warnings (for a link that is no
 * body); later, an error names no place, the caller adding the change
 * that caused it. -1 with phys_error() when refused.
 */
/*
 * The world's heightmaps within an engine's bound on their samples
 * together (most): refused at the collision whose samples, with those
 * before it, pass it first, and as too large alone where it does so by
 * itself. -1 with phys_error().
 */
int phys_heightmaps_within(const struct phys_scene *w, size_t most,
    const char *engine);

/*
 * The world's moving links within what the process's memory limits
 * (ulimit -v, -d) leave an engine taking per_link bytes for each: where
 * they do not, refused at the first link past the room, before the
 * engine's library fails inside for want of memory, naming nothing.
 * -1 with phys_error().
 */
int phys_links_within_room(const struct phys_scene *w, double per_link,
    const char *engine);

/* The line a link's mass and inertia are said at: its <inertial>'s, or
 * the link's own where it has none. */
long phys_link_inertial_line(const struct phys_link *l);
int phys_link_mass_prepare(const struct phys_scene *w,
    const struct phys_run_values *rv, int li, const struct phys_mass_rules *r,
    bool at_load, long line, bool quiet, struct phys_link_mass *out);

/*
 * A massless link (mass 0 in the file) welded by a fixed joint to a
 * moving link, as an MJCF model's frame and sensor bodies are, rides on
 * that link's body: an engine whose fixed joints are constraints solved
 * by iteration holds a body of a stand-in mass between two heavy ones
 * badly (Bullet let Panda's hand part from its arm; ODE's quick solver
 * let a box sink 0.13 m on a massless skid's ball). MuJoCo holds such
 * a body the same way.
 */
struct phys_rider {
	int host;		/* the link whose body it rides; -1: none */
	int seat;		/* the fixed joint it rides by */
	phys_pose in_host;	/* its frame in the host's link frame */
	/* the other joints it is a side of: joints[first .. first + n) of
	 * phys_find_riders's list */
	int first, n;
};

/* Riders ride at most this many massless links below a body of its own:
 * a seat's wrench is worked out through the riders below it. */
#define PHYS_MAX_RIDE_DEPTH 16

/*
 * Every link's ride (out: one per link), from the run's values, in time
 * linear in the links and joints; the list of the joints each rider is a
 * side of (besides its seat), which the caller frees.
 */
int *phys_find_riders(const struct phys_scene *w,
    const struct phys_run_values *rv, struct phys_rider *out);

/*
 * Rider li's own moments (a massless link may give some: SDF's <inertia>
 * is 1 kg m^2 about each axis whatever the mass) added to I, a tensor
 * in the frame turned by q in its host's link frame.
 */
void phys_rider_moments(const struct phys_run_values *rv, int li,
    const struct phys_rider *r, phys_quat q, phys_mat3 *I);

/* A rider's values in a run: it stays massless and moved by its host;
 * -1 with phys_error() when a change asks otherwise. */
int phys_rider_change(const struct phys_scene *w,
    const struct phys_run_values *rv, int li, const struct phys_rider *r,
    const char *engine);

/* An engine's wrench of joint ji on its child (the torque about the
 * child's centre of mass) and a link's centre of mass. */
typedef void phys_joint_wrench_fn(const void *e, int ji, phys_vec3 *force,
    phys_vec3 *torque);
typedef phys_vec3 phys_link_com_fn(const void *e, int li);

/*
 * What rider li's seat holds: a massless link is at rest under its
 * forces, so its fixed joint takes what its other joints and the run's
 * force (force, torque) put on it, contacts on its own collisions aside.
 * The force on it, the torque about its centre of mass.
 */
void phys_seat_wrench(const struct phys_scene *w, const void *e, int li,
    const struct phys_rider *r, const int *joints, phys_vec3 force,
    phys_vec3 torque, phys_joint_wrench_fn *wrench, phys_link_com_fn *com,
    phys_vec3 *out_force, phys_vec3 *out_torque);

/*
 * ---- links the world holds still ----
 *
 * A link welded to the world (fixed joints to it or to a static model's
 * link: phys_link's welded), by welds that are no springs (no force
 * mixing of their own the engine takes: phys_joint_soft) and moved by
 * nothing the run does, stays where
 * it is whatever its mass. ODE and Bullet make it a static link, not a
 * body their iterative solvers hold by a weld: stiff motors on the links
 * below turn such a body (a 1.5 t arm's base welded to the world rolled
 * 0.3 rad in 0.5 s under Bullet). MuJoCo, DART and Simbody hold it by
 * construction.
 */
struct phys_still {
	bool *is;		/* per link: held still */
	int *seat;		/* per link: the weld it hangs by, or -1 */
	int *first;		/* per link: joints[first[li] .. first[li + 1]), */
	int *joints;		/* the other joints a still link is a side of */
};

/* What an engine does with a parameter (phys_engine_info's support). */
typedef enum phys_engine_support phys_support_fn(const struct phys_param *p);

/* Whether joint j is a spring by its user's choice: a force mixing of its
 * own (physics.ode.cfm) that an engine of this support takes. */
bool phys_joint_soft(const struct phys_run_values *rv, int j,
    phys_support_fn *support);

/* Which links are still, from the run's values under an engine of this
 * support, with their welds and other joints, in time linear in the
 * links and joints. */
void phys_still_init(struct phys_still *s, const struct phys_scene *w,
    const struct phys_run_values *rv, phys_support_fn *support);
void phys_still_free(struct phys_still *s);

/* What phys_still_wrench asks of an engine: joints' wrenches, centres of
 * mass, and the force the last step's contacts put on link li with its
 * torque about the point c. */
struct phys_still_ask {
	phys_joint_wrench_fn *wrench;
	phys_link_com_fn *com;
	void (*contacts)(const void *e, int li, phys_vec3 c, phys_vec3 *force,
	    phys_vec3 *torque);
};

/*
 * What weld ji of a still link holds: the link is at rest, so its weld
 * takes its weight (under gravity g, where the link has gravity), what
 * its other joints and the contacts on its collisions put on it. The
 * force on it, the torque about its centre of mass; zeros for a joint
 * that is no still link's weld (another weld of a still link: a loop of
 * welds, whose shares no rigid body fixes).
 */
void phys_still_wrench(const struct phys_scene *w,
    const struct phys_run_values *rv, const struct phys_still *s,
    const void *e, int ji, phys_vec3 g, const struct phys_still_ask *ask,
    phys_vec3 *out_force, phys_vec3 *out_torque);

/*
 * A joint measured from the poses of its links, for engines whose joints
 * are not coordinates of their own: where its frame and axes were at load,
 * so that positions count from the loaded configuration, the same numbers
 * whichever engine moved the links.
 */
struct phys_joint_frames {
	phys_pose in_child;	/* joint frame, child link frame */
	phys_pose in_parent;	/* at load, parent link frame */
	phys_vec3 axis_parent[2];	/* axes at load, parent link frame */
	phys_quat rel0;		/* parent^-1 child rotation at load */
};

/* The frames of j with its links at parent and child (the world's pose is
 * the identity). */
void phys_joint_frames_init(struct phys_joint_frames *f,
    const struct phys_joint *j, phys_pose parent, phys_pose child);
/* Axis k in the world with the parent at parent: the first turns with
 * the parent, the second with the child (after the first axis's turn t1). */
phys_vec3 phys_joint_frames_axis(const struct phys_joint_frames *f,
    phys_pose parent, int k, double t1);
/* Position and rate per axis of a revolute, prismatic, universal or
 * revolute2 joint from its links' poses and velocities (link origins,
 * world frame; zero for the world); the number of axes, 0 for the others. */
int phys_joint_frames_state(const struct phys_joint_frames *f,
    enum phys_joint_type type, phys_pose parent, phys_vec3 parent_lin,
    phys_vec3 parent_ang, phys_pose child, phys_vec3 child_lin,
    phys_vec3 child_ang, double pos[2], double vel[2]);

/*
 * Whole turns. An angle read from poses (ODE's, Bullet's, one an engine
 * fits to its links) keeps its count of turns only while the joint turns
 * less than half a turn between two readings: a position set turns a
 * joint a quarter turn at a time, and ODE's and Bullet's angles, which
 * wrap at pi about where their joint was set up (zero), are set up again
 * where a limited revolute joint (phys_axis_limited) is once it has
 * turned a quarter turn from there (phys_turned_from), each stop then in
 * reach while within pi of zero (phys_stop_in_reach).
 */
#define PHYS_QUARTER_TURN (M_PI / 2)
bool phys_turned_from(double pos, double zero);
bool phys_stop_in_reach(double limit, double zero);

/*
 * The ERP and CFM (ODE's units: CFM per step) of a spring kp and a damper
 * kd over a step of h, as the implicit Euler step of both; h kp + kd must
 * be positive for them to mean anything.
 */
void phys_spring_erp_cfm(double kp, double kd, double h, double *erp,
    double *cfm);

/*
 * A pair's contact surface: two collisions' <surface> values combined as
 * under ODE, the rule every engine that takes them follows. Friction
 * (<friction><ode>) takes the smaller coefficients and the larger slips;
 * a bounce the larger restitution coefficient, above the smaller
 * threshold; the contact (<contact><ode>) springs in series and dampers
 * side by side, the smaller min_depth and the smaller max_vel (a negative
 * one none: INFINITY).
 */
struct phys_contact_surface {
	double mu, mu2, slip1, slip2;
	double bounce, bounce_vel;	/* restitution, its threshold */
	double kp, kd;
	bool kp_kd_given;		/* by either surface */
	double min_depth, max_vel;
};

void phys_contact_surface(const struct phys_value *a,
    const struct phys_value *b, struct phys_contact_surface *s);
/*
 * The sliding friction of a pair, mu and mu2: Gazebo's rule (the smaller
 * of each), or MuJoCo's where both surfaces give a condim (an MJCF
 * model's geoms): the one of higher priority's, else none when both
 * condims are 1, else the larger of each coefficient. An engine that
 * reads its own coefficient (Bullet's) passes them as mu.
 */
void phys_contact_friction(const struct phys_value *a, double mu_a,
    double mu2_a, const struct phys_value *b, double mu_b, double mu2_b,
    double *mu, double *mu2);
/* Of two MJCF geoms' surfaces (both giving a condim), 1 when a's
 * priority is higher, -1 when b's is, else 0 (equal, or not MJCF's). */
int phys_contact_priority(const struct phys_value *a,
    const struct phys_value *b);
/* The bounce alone, which every engine takes so: the larger restitution
 * coefficient, above the smaller threshold. */
void phys_contact_bounce(const struct phys_value *a,
    const struct phys_value *b, double *restitution, double *threshold);

/*
 * Whether collisions c1 and c2 may touch, by Gazebo's rules on the run's
 * values rv (phys_surfaces_may_touch, touch.h), unless one starts wholly
 * inside the other in one model (touch.h). Each engine adds its own (a
 * link with itself, links a joint holds together).
 */
bool phys_collisions_may_touch(const struct phys_scene *w,
    const struct phys_run_values *rv, int c1, int c2);
/* Whether no collision of link l1 ever touches one of link l2's in a run:
 * an exclusion or their welds (excludes.h) keep them apart, and no pair
 * the world lists names both. For a broadphase that would otherwise
 * keep, for each pair of overlapping links, what their collisions need
 * (10,000 links welded in one spot: 50 million such pairs). */
bool phys_links_never_touch(const struct phys_scene *w, int l1, int l2);
/* Whether some collision of link l1 may touch one of link l2's under the
 * run's values now, as far as the links say (their collisions' bitmasks
 * are left to phys_collisions_may_touch): not if they never touch, nor
 * if they are of one model that collides with itself nowhere, unless a
 * pair the world lists names both. An engine whose broadphase asks it
 * must ask again when a link's values change. */
bool phys_links_may_touch(const struct phys_scene *w,
    const struct phys_run_values *rv, int l1, int l2);
/* The two surfaces contacts between collisions c1 and c2 take: theirs,
 * or, for a pair the world lists, the pair's own as both. */
void phys_contact_surfaces(const struct phys_scene *w,
    const struct phys_run_values *rv, int c1, int c2,
    const struct phys_value **a, const struct phys_value **b);
/* Whether surfaces a and b touch without force (collide_without_contact
 * on either): their contacts are reported, never pushed apart. */
bool phys_contact_without_force(const struct phys_value *a,
    const struct phys_value *b);
/* Whether such a contact is reported: the surfaces'
 * collide_without_contact_bitmask share a bit. */
bool phys_contact_without_force_reported(const struct phys_value *a,
    const struct phys_value *b);

/*
 * Which of a pair's n contact points (at, depth) to keep, at most limit:
 * the deepest, then each time the one farthest from those kept, in keep
 * in ascending order; returns how many (all of them, when n <= limit).
 * A detector gives a mesh's points in the order it meets its triangles:
 * the first ten of a fine face on a plane lie in one of its corners, and
 * the body tips or sinks on them.
 */
size_t phys_contact_spread(const phys_vec3 *at, const double *depth,
    size_t n, size_t limit, size_t *keep);

/*
 * A convex shape as posed in the world, for the corners two of them
 * touch at (phys_corner_points): a box (half its sides), a capsule or a
 * cylinder along its z (radius, length between its ends' centres or its
 * caps), a hull (its vertices and its faces' planes, outward normal
 * and distance, n.x <= d inside, in its own frame), or a sphere (its
 * radius).
 */
enum phys_corner_kind {
	PHYS_CORNER_NONE,	/* a shape whose detectors' points serve */
	PHYS_CORNER_BOX, PHYS_CORNER_CAPSULE, PHYS_CORNER_CYLINDER,
	PHYS_CORNER_HULL,
	PHYS_CORNER_SPHERE,	/* no corners: touches at one point */
	PHYS_CORNER_ELLIPSOID	/* so too; its semi-axes in half */
};

struct phys_corner_shape {
	enum phys_corner_kind kind;
	phys_pose at;
	phys_vec3 half;
	double radius, length;
	const double *v;	/* x y z of each vertex, with stride */
	size_t nv, v_stride;	/* doubles from one vertex to the next */
	const double *planes;	/* nx ny nz d of each face */
	size_t nplanes;
};

/* At most this many corners of a shape are looked at: a hull of more
 * keeps the detector's points. */
#define PHYS_CORNERS_MAX 1024
/* Points a cylinder's rims are looked at: each rim's deepest and the
 * rest spaced evenly round from it (a cylinder standing on an end). */
#define PHYS_CORNER_RIM_POINTS 8
/* The most points a box, capsule or cylinder and another of them touch
 * at: the detector's, both shapes' corners or rims. */
#define PHYS_CORNERS_ROUND_MAX (1 + 4 * PHYS_CORNER_RIM_POINTS)
/* How far outside a shape a corner of the other may lie and still touch
 * it (m): a bar resting on a box touches it with four corners, which lie
 * level with its face to rounding. */
#define PHYS_CORNER_REACH 1e-4

/*
 * The points two convex shapes a and b touch at, given the deepest point
 * a detector found, p on a's side, its depth and its unit normal n from b
 * into a: p, and each corner of either that lies in the other within
 * reach (m), as deep as it lies along n, into at and depth (room for
 * max); returns how many. A detector that gives one point for a face
 * resting on a face lets the face rock on it and sink: a box's four
 * corners hold it level.
 */
/* Whether shapes of kinds a and b touch at their corners, where the
 * detectors (ODE's, and DART's through it) find one point: a hull and a
 * box, capsule, cylinder or hull; a capsule and a box or cylinder; two
 * cylinders. */
bool phys_corner_pair(enum phys_corner_kind a, enum phys_corner_kind b);

size_t phys_corner_points(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 p, phys_vec3 n,
    double depth, double reach, phys_vec3 *at, double *deep, size_t max);

/* The normal n a detector gave two shapes a and b (from b into a) as a
 * flat face of either has it, where one lies within 0.01 rad of it
 * (PHYS_FACE_ON): a box's, a cylinder's end, a hull's face; else n. The
 * corners of a face resting on a face are pushed along the same normal,
 * not one a little off it that the search happened to end on. */
phys_vec3 phys_corner_normal(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 n);

/* How shapes a and b overlap, by libccd's portal refinement on their
 * support mappings: the deepest point p on a's side, the unit normal n
 * from b into a and the depth (m); false where they are apart. */
bool phys_corner_deepest(const struct phys_corner_shape *a,
    const struct phys_corner_shape *b, phys_vec3 *p, phys_vec3 *n,
    double *depth);

/* Whether world point x lies in shape s (a box, a cylinder or a hull) or
 * within reach of it: the outward unit normal of its surface nearest x
 * into *outward, how deep x lies beneath it into *depth, and whether
 * that surface is a flat face nearer than the others by twice reach into
 * *alone. */
bool phys_corner_inside(const struct phys_corner_shape *s, phys_vec3 x,
    double reach, phys_vec3 *outward, double *depth, bool *alone);

/* Whether world point x lies within reach of a flat face of shape s (a
 * box's, a cylinder's end, a hull's) and at least twice that from its
 * others: that face's outward unit normal into *outward. A mesh's corner
 * resting in a face gets from the mesh's detector the normals of the
 * mesh's triangles there, its sides' among them, and held fast. */
bool phys_corner_face(const struct phys_corner_shape *s, phys_vec3 x,
    double reach, phys_vec3 *outward);

/* Shape s's corners in the world (a box's, a hull's vertices, a round
 * shape's ends or rims deepest along world direction down), into x
 * (room for PHYS_CORNERS_MAX); returns how many, 0 past that room. */
size_t phys_corner_corners(const struct phys_corner_shape *s,
    phys_vec3 down, phys_vec3 *x);

/*
 * The corners of shape s (phys_corner_corners; an ellipsoid's or a
 * sphere's, its point deepest towards the triangle) over triangle t
 * (world points) and behind its plane, within reach of it and at most most +
 * reach deep (a triangle cutting through the shape has none of its
 * corners), each at its depth (negative when apart), into at and deep
 * (room for max); the triangle's unit normal, towards s, into *n.
 * Returns how many (none for a triangle of no area). A detector that
 * gives one point a triangle (ODE's and Bullet's for a hull on a mesh)
 * lets a face resting on it rock.
 */
size_t phys_corner_over_triangle(const struct phys_corner_shape *s,
    const phys_vec3 t[3], double most, double reach, phys_vec3 *n,
    phys_vec3 *at, double *deep, size_t max);

/* Whether a flat face of shape s lies on a face of unit normal n (towards
 * s), within PHYS_FACE_ON. */
bool phys_corner_flat_on(const struct phys_corner_shape *s, phys_vec3 n);

struct phys_mesh_grid;

/*
 * The normal of a detector's contact at world point x, depth deep and
 * unit normal n (out of the mesh), between mesh m placed at at (its grid
 * g, its triangles' neighbours nb: phys_mesh_neighbours) and shape s, as
 * the mesh's faces there allow it (phys_mesh_edge_normal, s's centre
 * the side of the mesh it is on), of the triangles within deep +
 * PHYS_CORNER_REACH of x the one nearest it; a point within that of an
 * edge is on the edge (a detector's points lie between the two bodies).
 * n where no triangle is that near, or s is no corner shape (a plane's
 * origin says nothing of its side). ODE's convex detector names no
 * triangle (and ODE's, under ODE and DART, gave a hull's edge over a
 * vertex of a flat floor a normal tilted 1.4 rad).
 */
phys_vec3 phys_mesh_contact_normal(struct phys_mesh_grid *g,
    const struct phys_mesh *m, const int *nb, phys_pose at, phys_vec3 x,
    phys_vec3 n, double deep, const struct phys_corner_shape *s);

/* The plane of triangle k of hull mesh m, its normal turned away from
 * point inside: nx ny nz and d (n.x <= d inside), into pl; false for a
 * triangle of no area (qhull's triangulation of a facet can make one).
 * What ODE's convex and DART's hulls face with. */
bool phys_hull_plane(const struct phys_mesh *m, size_t k, phys_vec3 inside,
    double pl[4]);

/* Shape s's point farthest along world direction dir (one of them where
 * a face or an edge faces it), in the world: the support mapping a
 * convex detector (libccd's) searches two shapes' overlap with. */
phys_vec3 phys_corner_support(const struct phys_corner_shape *s,
    phys_vec3 dir);

#ifdef __cplusplus
}
#endif

#endif
