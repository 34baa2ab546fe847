/*
 * item.h - what a run can report: one table of item kinds, each with an
 * owner, a type, units and fields. A world's instances of them are
 * lib/run/items.h's.
 */
#ifndef PHYS_ITEM_H
#define PHYS_ITEM_H

enum phys_item_owner {
	PHYS_IO_WORLD,
	PHYS_IO_MODEL,
	PHYS_IO_LINK,
	PHYS_IO_COLLISION,
	PHYS_IO_VISUAL,
	PHYS_IO_JOINT,
	PHYS_IO_TENDON
};

enum phys_item_type {
	PHYS_IT_SCALAR,		/* a number */
	PHYS_IT_VEC3,		/* {"x","y","z"} */
	PHYS_IT_POSE,		/* {"x","y","z","roll","pitch","yaw"} */
	PHYS_IT_AXES,		/* [axis 0, axis 1]: one number per joint axis */
	PHYS_IT_INERTIA		/* {"ixx","iyy","izz","ixy","ixz","iyz"} */
};

/* What a run must keep or compute apart for an item to be read. */
enum phys_item_need {
	PHYS_IN_NONE,
	PHYS_IN_HISTORY,	/* the state a step before (accelerations) */
	PHYS_IN_JOINT_FORCES	/* the joints' constraint forces, which an
				 * engine may reckon apart from its step */
};

/*
 * I(ID, OWNER, PROPERTY, TYPE, NEED, UNITS, DOC)
 * The item's name is the owner's scoped name, '/', PROPERTY; world items
 * are named by PROPERTY alone.
 */
#define PHYS_ITEM_TABLE \
	I(SIM_TIME, WORLD, "sim_time", SCALAR, NONE, "s", "simulated time") \
	I(REAL_TIME, WORLD, "real_time", SCALAR, NONE, "s", "wall-clock time since the first step") \
	I(ITERATIONS, WORLD, "iterations", SCALAR, NONE, "", "physics steps taken") \
	I(RTF, WORLD, "real_time_factor", SCALAR, NONE, "1", "simulated time over wall-clock time so far") \
	I(CONTACTS, WORLD, "contacts", SCALAR, NONE, "", "contact points found in the last step") \
	I(MODEL_POSE, MODEL, "pose", POSE, NONE, "m, rad", "model frame in the world") \
	I(MODEL_LINVEL, MODEL, "linear_vel", VEC3, NONE, "m/s", "velocity of the model frame origin (its first link's motion)") \
	I(MODEL_ANGVEL, MODEL, "angular_vel", VEC3, NONE, "rad/s", "angular velocity of the model's first link") \
	I(MODEL_KE, MODEL, "kinetic_energy", SCALAR, NONE, "J", "kinetic energy of the model's links, nested models included") \
	I(MODEL_PE, MODEL, "potential_energy", SCALAR, NONE, "J", "gravitational energy -m g.c of the model's links (zero at the world origin)") \
	I(LINK_POSE, LINK, "pose", POSE, NONE, "m, rad", "link frame in the world") \
	I(LINK_LINVEL, LINK, "linear_vel", VEC3, NONE, "m/s", "velocity of the link frame origin, world frame") \
	I(LINK_ANGVEL, LINK, "angular_vel", VEC3, NONE, "rad/s", "angular velocity, world frame") \
	I(LINK_LINACC, LINK, "linear_accel", VEC3, HISTORY, "m/s^2", "acceleration of the link origin over the last step") \
	I(LINK_ANGACC, LINK, "angular_accel", VEC3, HISTORY, "rad/s^2", "angular acceleration over the last step") \
	I(LINK_FORCE, LINK, "force", VEC3, HISTORY, "N", "net force on the link: mass times centre-of-mass acceleration over the last step") \
	I(LINK_TORQUE, LINK, "torque", VEC3, HISTORY, "N m", "net torque about the centre of mass: rate of change of angular momentum over the last step") \
	I(LINK_INERTIAL_POSE, LINK, "inertial_pose", POSE, NONE, "m, rad", "centre-of-mass frame in the world") \
	I(LINK_COM_LINVEL, LINK, "inertial_linear_vel", VEC3, NONE, "m/s", "velocity of the centre of mass, world frame") \
	I(LINK_COM_ANGVEL, LINK, "inertial_angular_vel", VEC3, NONE, "rad/s", "angular velocity of the centre-of-mass frame (the link's), world frame") \
	I(LINK_COM_LINACC, LINK, "inertial_linear_accel", VEC3, HISTORY, "m/s^2", "acceleration of the centre of mass over the last step") \
	I(LINK_COM_ANGACC, LINK, "inertial_angular_accel", VEC3, HISTORY, "rad/s^2", "angular acceleration of the centre-of-mass frame over the last step") \
	I(LINK_MASS, LINK, "mass", SCALAR, NONE, "kg", "mass as the engine has it") \
	I(LINK_INERTIA, LINK, "inertia", INERTIA, NONE, "kg m^2", "inertia tensor about the centre of mass, in the inertial frame, as the engine has it") \
	I(COLLISION_POSE, COLLISION, "pose", POSE, NONE, "m, rad", "collision frame in the world") \
	I(VISUAL_POSE, VISUAL, "pose", POSE, NONE, "m, rad", "visual frame in the world") \
	I(JOINT_POSE, JOINT, "pose", POSE, NONE, "m, rad", "joint frame in the world: it moves with the child link (with the parent when the child is the world)") \
	I(JOINT_POSITION, JOINT, "position", AXES, NONE, "rad or m", "joint coordinate per axis, from where it was built") \
	I(JOINT_VELOCITY, JOINT, "velocity", AXES, NONE, "rad/s or m/s", "joint rate per axis") \
	I(JOINT_EFFORT, JOINT, "effort", AXES, JOINT_FORCES, "N m or N", "generalized force along each axis: the constraint's (limits and friction included) plus springs and damping") \
	I(JOINT_FORCE, JOINT, "force", VEC3, JOINT_FORCES, "N", "constraint force the joint applies to its child, world frame") \
	I(JOINT_TORQUE, JOINT, "torque", VEC3, JOINT_FORCES, "N m", "constraint torque the joint applies to its child, world frame") \
	I(JOINT_TARGET, JOINT, "target", AXES, NONE, "rad or m; rad/s or m/s; N m or N", "what the axis is commanded (cmd_pos, cmd_vel or cmd_force); 0 without a command") \
	I(JOINT_TRACKING_ERROR, JOINT, "tracking_error", AXES, NONE, "rad or m; rad/s or m/s", "position (cmd_pos) or velocity (cmd_vel) less its target, before the last step") \
	I(JOINT_CMD_EFFORT, JOINT, "cmd_effort", AXES, NONE, "N m or N", "effort the command asked in the last step: the one commanded, or the PID's output") \
	I(JOINT_APPLIED_EFFORT, JOINT, "applied_effort", AXES, NONE, "N m or N", "effort the command applied in the last step: cmd_effort within the effort limit, or what an implicit servo's row or spring, or MuJoCo's implicit integrator, applied") \
	I(TENDON_LENGTH, TENDON, "length", SCALAR, NONE, "m or rad", "length of a limited tendon: the distance between its ends (spatial), or the sum of coefficient times position over its joints, from where they were built (fixed)")

enum phys_item_kind {
#define I(id, ...) PHYS_ITEM_##id,
	PHYS_ITEM_TABLE
#undef I
	PHYS_NITEM_KINDS
};

struct phys_item_def {
	enum phys_item_kind kind;
	enum phys_item_owner owner;
	const char *prop;
	enum phys_item_type type;
	enum phys_item_need need;
	const char *units, *doc;
};

extern const struct phys_item_def phys_item_defs[PHYS_NITEM_KINDS];

/* "x y z" style field list of a type, NULL-terminated. */
const char *const *phys_item_fields(enum phys_item_type t);
const char *phys_item_type_name(enum phys_item_type t);
/* Units of an item ("box::link/pose", "sim_time") or of one of its fields
 * ("x" of a pose is m, "yaw" rad); NULL when the name is no known item. */
const char *phys_item_unit(const char *item, const char *field);

#endif
