/*
 * param.h - the one registry of every named, typed parameter.
 *
 * lib/params.def lists each parameter once; this header, the parser, the
 * validator, the printers, the docs and the completions all expand it.
 */
#ifndef PHYS_PARAM_H
#define PHYS_PARAM_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>

#include "geom.h"
#include "base.h"

typedef enum {
	PHYS_T_DOUBLE,
	PHYS_T_INT,		/* a closed set too when values != NULL */
	PHYS_T_BOOL,
	PHYS_T_STRING,		/* free text, or a closed set when values != NULL */
	PHYS_T_VEC3,
	PHYS_T_POSE
} phys_type;

/* What a parameter belongs to; entity scopes are addressed "entity/name". */
typedef enum {
	PHYS_S_PHYSICS,		/* one <physics> profile */
	PHYS_S_WORLD,		/* <world> */
	PHYS_S_LINK,		/* <link> */
	PHYS_S_COLLISION,	/* <collision> */
	PHYS_S_JOINT,		/* <joint> */
	PHYS_NSCOPES
} phys_scope;

/* Engines a parameter applies to (bit set): one bit an engine
 * (engines.def). */
enum {
#define PHYS_E(type, bit_name, bit, gz) PHYS_E_##bit_name = 1 << (bit),
#include "engines.def"
#undef PHYS_E
	PHYS_E_ALL = 0
#define PHYS_E(type, bit_name, bit, gz) | PHYS_E_##bit_name
#include "engines.def"
#undef PHYS_E
};

/* What an engine does with a parameter: params.def's ODE column says it
 * for ODE, each engine's support function for itself
 * (struct phys_engine_info). */
enum phys_engine_support {
	PHYS_SUPPORT_NATIVE,	/* passed to the engine's own call */
	PHYS_SUPPORT_EMULATED,	/* computed by phys per contact, joint or step */
	PHYS_SUPPORT_INERT,	/* kept and documented; warned about when not default */
	PHYS_SUPPORT_OTHER	/* belongs to another engine's block */
};

#define PHYS_NOMIN (-1.0 / 0.0)
#define PHYS_NOMAX (1.0 / 0.0)
/* MIN of a value that must exceed 0 (a mass): the smallest positive double,
 * so the inclusive check is "> 0"; printed as "above 0". */
#define PHYS_POSITIVE DBL_TRUE_MIN
/* Largest length of a shape (m): a 1000 km box. Past it the engines
 * overflow its inertia or their broadphase (ODE asserts, Simbody's LAPACK
 * ends the program); no real world comes near. */
#define PHYS_SIZE_MAX 1e6
/* Largest size of a joint's damping, spring and friction (as DART takes
 * them): a spring of 1e308 stopped Simbody at t = 0 naming nothing. A
 * file's beyond it is kept as written and refused by a run. */
#define PHYS_COEFF_MAX 1e100
/* Every int parameter has a finite MAX: the engine stores C ints. */
#define PHYS_INTMAX 2147483647.0
/* Solver iterations per step: beyond this one step of a small world takes
 * seconds and a run never ends; far above what any solver converges with. */
#define PHYS_MAXITERS 1000000.0

/*
 * X-macro row:
 * P(ID, SCOPE, NAME, ALIAS, TYPE, DEFAULT, UNITS, MIN, MAX, VALUES, ENGINES, ODE, DOC)
 *   ID       C identifier; the enum constant is PHYS_P_<ID>
 *   SCOPE    PHYSICS, WORLD, LINK, COLLISION or JOINT
 *   NAME     SDF element path under the scope's element, dot-separated
 *   ALIAS    Gazebo's short key, or NULL
 *   TYPE     DOUBLE, INT, BOOL, STRING, VEC3 or POSE
 *   DEFAULT  the specification's default, as SDF text
 *   UNITS    SI units ("s", "m", "N/m", "1" for dimensionless, "" for none)
 *   MIN/MAX  inclusive numeric range (PHYS_NOMIN/PHYS_NOMAX when open;
 *            MIN PHYS_POSITIVE for "above 0"); an INT's MAX is finite
 *   VALUES   closed set "a|b|c" for strings, or NULL
 *   ENGINES  PHYS_E_* bits
 *   ODE      NATIVE, EMULATED, INERT or OTHER
 *   DOC      one line: what it means
 * Rows are grouped by scope, in the order of phys_scope, and within a scope
 * follow the specification's element order: new elements are inserted into
 * SDF in that order.
 */
enum phys_param_id {
#define P(id, ...) PHYS_P_##id,
#include "params.def"
#undef P
	PHYS_NPARAMS
};

struct phys_param {
	enum phys_param_id id;
	phys_scope scope;
	const char *name, *alias;
	phys_type type;
	const char *def;
	const char *units;
	double min, max;
	const char *values;
	unsigned engines;
	enum phys_engine_support ode;	/* what ODE does with it */
	const char *doc;
};

/* A typed value. Poses keep SDF's six numbers so they print back as given. */
struct phys_value {
	union {
		double d;
		long i;
		bool b;
		phys_vec3 v;
		double pose[6];	/* x y z roll pitch yaw */
	} u;
	char *s;		/* PHYS_T_STRING only; owned */
	bool given;		/* true when written in the SDF (not the default) */
};

extern const struct phys_param phys_params[PHYS_NPARAMS];
/* Position of each parameter within its scope's value array. */
extern int phys_param_index[PHYS_NPARAMS];

const char *phys_type_name(phys_type t);
const char *phys_scope_name(phys_scope s);
/* An engine's <physics type> from its PHYS_E_ bit, NULL for anything but
 * one bit; and back, 0 for a type no engine has. */
const char *phys_engine_type_name(unsigned bit);
unsigned phys_engine_bit(const char *type);
/* The <physics type> of the engine a gz-sim physics plugin's file name
 * names (gz-physics-dartsim-plugin: "dart"), NULL for one phys does not
 * have (gz-physics-tpe-plugin). */
const char *phys_gz_engine_type(const char *file);
size_t phys_scope_count(phys_scope s);
const struct phys_param *phys_scope_param(phys_scope s, size_t index);
/*
 * A scope's names as a tree of their dotted parts, to read them in one
 * walk over a document: node 0 stands for the scope itself; child and
 * next are a node's first child and next sibling (-1: none); param is the
 * scope index of the name that ends at the node (-1: a part that only
 * leads to others). Built once, never freed.
 */
struct phys_name_node {
	const char *part;
	int param, child, next;
};
#define PHYS_NAME_TREE_MAX 256
const struct phys_name_node *phys_scope_tree(phys_scope s);

/* True when p's minimum is exclusive: the value must be above 0. */
#define PHYS_MIN_ABOVE_ZERO(p) ((p)->min == PHYS_POSITIVE)

/* By full name or alias within a scope; NULL when unknown. */
const struct phys_param *phys_param_find(phys_scope s, const char *name);
/* A run's own parameter, with no SDF element (the PIDs of joint commands):
 * set in a run, never written into a file. */
bool phys_param_run_only(const struct phys_param *p);
/* Closest known names for an unknown one, into out (up to n). */
size_t phys_param_suggest(phys_scope s, const char *name,
    const struct phys_param **out, size_t n);

/* Parse SDF text into a value of p's type and check its range: 0, or -1
 * with phys_error() saying what is wrong. */
int phys_value_parse(const struct phys_param *p, const char *text,
    struct phys_value *out);
void phys_value_default(const struct phys_param *p, struct phys_value *out);
int phys_value_check(const struct phys_param *p, const struct phys_value *v);
/* As SDF text / as JSON into a buffer. */
void phys_value_sdf(const struct phys_param *p, const struct phys_value *v,
    struct phys_buf *b);
void phys_value_json(const struct phys_param *p, const struct phys_value *v,
    struct phys_buf *b);
bool phys_value_equal(const struct phys_param *p, const struct phys_value *a,
    const struct phys_value *b);
void phys_value_copy(struct phys_value *dst, const struct phys_value *src);
void phys_value_free(struct phys_value *v);

/* A value array for every parameter of a scope, all at their defaults. */
struct phys_value *phys_values_new(phys_scope s);
void phys_values_free(phys_scope s, struct phys_value *vals);
/* The same in an array the caller provides (phys_scope_count(s) values,
 * from an arena, say): a copy of src, or the defaults when src is NULL.
 * phys_values_clear() releases what such an array holds, not the array. */
void phys_values_init(phys_scope s, struct phys_value *vals,
    const struct phys_value *src);
void phys_values_clear(phys_scope s, struct phys_value *vals);
void phys_values_copy(phys_scope s, struct phys_value *dst,
    const struct phys_value *src);

/* Shorthands to read a value by id from a scope's array. */
#define PV(vals, id) (&(vals)[phys_param_index[PHYS_P_##id]])
#define PVD(vals, id) (PV(vals, id)->u.d)
#define PVI(vals, id) (PV(vals, id)->u.i)
#define PVB(vals, id) (PV(vals, id)->u.b)
#define PVS(vals, id) (PV(vals, id)->s)
#define PVV(vals, id) (PV(vals, id)->u.v)

/* SDF's default joint limits and effort, -1e16 and 1e16: none. */
#define PHYS_NO_LIMIT 1e16
/* A bound at or beyond this (a lower one at or below its negative) is
 * none: PHYS_NO_LIMIT also once an engine has shifted it by a joint's
 * reference or zero. */
#define PHYS_NO_LIMIT_FROM 1e15
/* Whether lo is a lower bound, hi an upper one, rather than none. */
static inline bool
phys_has_lower(double lo)
{
	return lo > -PHYS_NO_LIMIT_FROM;
}
static inline bool
phys_has_upper(double hi)
{
	return hi < PHYS_NO_LIMIT_FROM;
}

/* Axis k's (0: axis, 1: axis2) limits and dynamics, as the joint's
 * values v give them; limits whose lower is above the upper, none. */
struct phys_axis_values {
	double lower, upper;		/* limit */
	double limit_stiffness, limit_dissipation;
	double damping, friction;	/* dynamics */
	double stiffness, reference;	/* its spring */
	double effort, velocity;	/* what a command may use; < 0: any */
};
/* Whether a has a lower or an upper limit. */
bool phys_axis_limited(const struct phys_axis_values *a);
struct phys_axis_values phys_joint_axis_values(const struct phys_value *v,
    int k);

/* A ball joint's axis values, which act on its three turns alike:
 * viscous damping (axis.dynamics.damping), Coulomb friction (.friction),
 * a spring to the loaded pose (.spring_stiffness), the largest turn from
 * it (axis.limit.upper). */
enum {
	PHYS_BALL_DAMPING = 1,
	PHYS_BALL_FRICTION = 2,
	PHYS_BALL_SPRING = 4,
	PHYS_BALL_RANGE = 8
};
/* The PHYS_BALL_* values joint values v set: those that act. */
unsigned phys_ball_values_set(const struct phys_value *v);
/* Whether collisions of category and collide bitmasks (cat1, col1) and
 * (cat2, col2) may touch: either's category in the other's collide (an
 * MJCF geom's contype and conaffinity alike). */
bool phys_bitmasks_touch(int cat1, int col1, int cat2, int col2);
/* A ball joint's range, its largest turn (rad), as MuJoCo takes a ball's
 * range: the larger of 0 and its axis's upper limit; PHYS_NO_LIMIT for
 * none. */
double phys_ball_range(const struct phys_value *v);

/*
 * A screw joint's travel per radian of turn. SDF 1.10's screw_thread_pitch
 * is metres per revolution, positive for a right-hand thread; the older
 * thread_pitch is radians per metre, positive for a left-hand thread
 * (Gazebo classic's reading), so x = -theta / thread_pitch.
 */
double phys_joint_screw_lead(const struct phys_value *v);

#endif
