/*
 * engine_impl.h - what an engine module is made of, and the operations
 * table the driver (lib/engine/engine.c) calls it through.
 *
 * A module keeps its state in a struct of its own (struct E), declares
 * its functions with PHYS_ENGINE_FUNCTIONS(E), defines them as static,
 * each meaning what engine.h's phys_engine_ function of the same name
 * says (E_new makes the state, E_free ends it), and ends with
 *
 *	PHYS_ENGINE_DEFINE(E, type)
 *
 * which makes its operations table, phys_engine_ops_type, which
 * lib/engine/ops.c lists. Its description, struct phys_engine_info
 * phys_engine_type (what it does with each parameter, what a state line
 * reports of it), is in TYPE_info.c, apart from its library; the
 * registry (lib/engine/registry.c) lists it; nothing else names an
 * engine.
 *
 * What is the same under every engine is the driver's: the clock, the
 * step size's check, the check of every body after a step. An engine
 * implements only what differs.
 */
#ifndef PHYS_ENGINE_IMPL_H
#define PHYS_ENGINE_IMPL_H

#include "engine.h"
#include "engine_common.h"
#include "motor.h"

/* A body's state as the driver checks it: where it is (its centre of
 * mass or its frame, as the engine holds it), how it is turned, and how
 * fast it moves and turns. */
struct phys_body_state {
	phys_vec3 pos;
	phys_quat q;
	phys_vec3 vel, angvel;
};

/*
 * Every operation on an engine's state, once:
 *
 *	OP(E, ret, name, cv, params, args)
 *
 * E is passed on (a module's type). ret is what the module's function
 * returns: void, bool or int. The table's function returns int: the
 * module's value (0 for void), or -1 with phys_error() set when it
 * failed, a C++ engine's exception included. cv is const for an
 * operation that only reads the state; params are its parameters after
 * the state, each after a comma, and args their names, the same way.
 * step goes from time t0 to t1; body_state is false for a link with no
 * body of its own to check. weld holds link child to link parent (a
 * static, kinematic or dynamic one) at the pose it has relative to it
 * now, as a fixed joint would (on), or lets it go (off, after on); the
 * driver never welds a pair twice. servo_effort gives the effort of the
 * servo on joint's first axis that the engine took into its last step
 * (implicit_servo), 1; 0 when it took none (the driver's effort was
 * applied). set_link_poses sets n links' poses as set_link_pose each,
 * a link after the one it hangs from, and reads what it keeps of them
 * (each joint's count of turns, a tree's coordinates) once all are set:
 * a joint between a link set and one yet to set is never read between.
 */
#define PHYS_ENGINE_OPS(OP, E)						\
	OP(E, int, apply_profile, , (), ())				\
	OP(E, void, apply_world, , (), ())				\
	OP(E, int, apply_link, , (, int link), (, link))		\
	OP(E, int, apply_joint, , (, int joint), (, joint))		\
	OP(E, int, apply_collision, , (, int collision), (, collision))	\
	OP(E, int, step, , (, double t0, double t1), (, t0, t1))	\
	OP(E, bool, body_state, const, (, int link,			\
	    struct phys_body_state *out), (, link, out))		\
	OP(E, void, link_pose, const, (, int link, phys_pose *out),	\
	    (, link, out))						\
	OP(E, void, link_vel, const, (, int link, phys_vec3 *lin,	\
	    phys_vec3 *ang), (, link, lin, ang))			\
	OP(E, void, link_com, const, (, int link, phys_vec3 *com,	\
	    phys_vec3 *com_vel), (, link, com, com_vel))		\
	OP(E, bool, link_dynamic, const, (, int link), (, link))	\
	OP(E, void, link_mass, const, (, int link, double *mass,	\
	    double inertia[6]), (, link, mass, inertia))		\
	OP(E, int, set_link_pose, , (, int link, phys_pose p), (, link, p)) \
	OP(E, int, set_link_poses, , (, const int *links,		\
	    const phys_pose *poses, size_t n), (, links, poses, n))	\
	OP(E, int, set_link_vel, , (, int link, const phys_vec3 *lin,	\
	    const phys_vec3 *ang), (, link, lin, ang))			\
	OP(E, int, joint_state, const, (, int joint, double pos[2],	\
	    double vel[2]), (, joint, pos, vel))			\
	OP(E, void, joint_wrench, const, (, int joint, phys_vec3 *force, \
	    phys_vec3 *torque), (, joint, force, torque))		\
	OP(E, int, joint_effort, const, (, int joint, double effort[2]), \
	    (, joint, effort))						\
	OP(E, int, contact_count, const, (), ())			\
	OP(E, int, set_joint_effort, , (, int joint,			\
	    const struct phys_joint_drive *drive), (, joint, drive))	\
	OP(E, int, servo_effort, const, (, int joint, double effort[2]), \
	    (, joint, effort))						\
	OP(E, int, set_link_wrench, , (, int link, phys_vec3 force,	\
	    phys_vec3 torque), (, link, force, torque))			\
	OP(E, int, weld, , (, int parent, int child, bool on),		\
	    (, parent, child, on))

#define PHYS_ENGINE_UNPAREN(...) __VA_ARGS__

/*
 * What an engine module does, on its own state (void *): create makes it
 * at time t of the run (NULL with phys_error() when it cannot), destroy
 * ends it; the operations are PHYS_ENGINE_OPS's.
 */
#define PHYS_ENGINE_OP_FIELD(E, ret, name, cv, params, args)		\
	int (*name)(cv void *s PHYS_ENGINE_UNPAREN params);
struct phys_engine_ops {
	const struct phys_engine_info *info;	/* the engine's description */
	void *(*create)(const struct phys_scene *w,
	    const struct phys_run_values *v,
	    const struct phys_engine_options *opt, double t);
	void (*destroy)(void *s);
	PHYS_ENGINE_OPS(PHYS_ENGINE_OP_FIELD, )
};

/* A module's own functions. */
#define PHYS_ENGINE_OP_PROTO(E, ret, name, cv, params, args)		\
	static ret E##_##name(cv struct E *e PHYS_ENGINE_UNPAREN params);
#define PHYS_ENGINE_FUNCTIONS(E)					\
	static struct E *E##_new(const struct phys_scene *w,		\
	    const struct phys_run_values *v,				\
	    const struct phys_engine_options *opt, double t);		\
	static void E##_free(struct E *e);				\
	PHYS_ENGINE_OPS(PHYS_ENGINE_OP_PROTO, E)

/*
 * The seam: an exception of a C++ engine ends in the table's function,
 * as an error naming the engine and the operation, and never unwinds
 * through the driver's C frames.
 */
#ifdef __cplusplus
#include <new>

static inline int
phys_engine_caught(const char *engine, const char *op, const char *what)
{
	if (what)
		return phys_fail("%s stopped (an exception in %s): %s",
		    engine, op, what);
	return phys_fail("%s stopped (an exception in %s)", engine, op);
}
#define PHYS_ENGINE_TRY try {
#define PHYS_ENGINE_CATCH(E, op, fail)					\
	} catch (const std::bad_alloc &) {				\
		phys_engine_caught(E##_display_name(), op,		\
		    "out of memory");					\
		fail;							\
	} catch (const std::exception &ex) {				\
		phys_engine_caught(E##_display_name(), op, ex.what());	\
		fail;							\
	} catch (...) {							\
		phys_engine_caught(E##_display_name(), op, NULL);	\
		fail;							\
	}
#else
#define PHYS_ENGINE_TRY
#define PHYS_ENGINE_CATCH(E, op, fail)
#endif

/*
 * The seam of a C library whose error handler must not return (ODE's
 * dError exits and its dDebug aborts once the handler returns; MuJoCo's
 * mju_error exits): each operation of the module that calls the library
 * arms a trap first, PHYS_ENGINE_TRAP(e, what to do when it springs);
 * the module's handler keeps the message (phys_engine_trap_text) and
 * calls phys_engine_trap_spring(), which jumps back to the innermost
 * trap armed. The library's state is then unknown: the module marks its
 * engine broken (every later operation refuses) and never calls the
 * library on that state again, freeing it included.
 */
#ifndef __cplusplus
#include <setjmp.h>
#include <stdio.h>

#include "msg.h"
#include "newhandler.h"

/* the innermost trap armed; what the library said */
static jmp_buf *phys_engine_trap_at __attribute__((unused));
static char phys_engine_trap_text[512] __attribute__((unused));
static unsigned long phys_engine_trap_epoch __attribute__((unused));

/* The innermost trap, none when an embedder's call was ended by phys_die
 * (msg.h) since the last: the frames of the traps it left are gone. */
static inline jmp_buf *
phys_engine_trap_current(void)
{
	if (phys_engine_trap_epoch != phys_recover_count()) {
		phys_engine_trap_epoch = phys_recover_count();
		phys_engine_trap_at = NULL;
	}
	return phys_engine_trap_at;
}

static inline jmp_buf *
phys_engine_trap_arm(jmp_buf *at)
{
	jmp_buf *outer = phys_engine_trap_current();

	phys_engine_trap_at = at;
	return outer;
}

static inline void
phys_engine_trap_disarm(jmp_buf **outer)
{
	phys_engine_trap_at = *outer;
}

/* False when no trap is armed: the handler cannot jump. */
static inline bool
phys_engine_trap_armed(void)
{
	return phys_engine_trap_current() != NULL;
}

static inline _Noreturn void
phys_engine_trap_spring(void)
{
	longjmp(*phys_engine_trap_at, 1);
}

/*
 * Memory the library cannot have: C++'s operator new, which ODE and
 * MuJoCo call in places (ODE's hash space, MuJoCo's XML reader), throws
 * std::bad_alloc, which no C frame catches (SIGABRT). Within a trap it
 * springs the trap instead, as the library's own error does; the module's
 * allocator hands its nulls here too.
 */
static void __attribute__((unused))
phys_engine_trap_out_of_memory(void)
{
	if (!phys_engine_trap_armed())
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	snprintf(phys_engine_trap_text, sizeof phys_engine_trap_text,
	    "out of memory");
	phys_engine_trap_spring();
}

static inline void
phys_engine_trap_restore_new(phys_new_handler *outer)
{
	phys_new_handler_swap(*outer);
}

/* Armed from here to the end of the enclosing block, however it ends;
 * operator new finding no memory springs it, the caller's new-handler
 * back after, the trap sprung or not. */
#define PHYS_ENGINE_TRAP(sprung)					\
	phys_new_handler phys_trap_new_					\
	    __attribute__((cleanup(phys_engine_trap_restore_new),	\
	    unused)) = phys_new_handler_swap(				\
	    phys_engine_trap_out_of_memory);				\
	jmp_buf phys_trap_at_;						\
	jmp_buf *phys_trap_outer_					\
	    __attribute__((cleanup(phys_engine_trap_disarm), unused)) = \
	    phys_engine_trap_arm(&phys_trap_at_);			\
	if (setjmp(phys_trap_at_)) {					\
		sprung;							\
	}
#endif

/* The module's function called as the table's returns. */
#define PHYS_ENGINE_RETURN_int(call) return call;
#define PHYS_ENGINE_RETURN_bool(call) return call;
#define PHYS_ENGINE_RETURN_void(call) call; return 0;

/* The table's function of an operation: the state as the module's type. */
#define PHYS_ENGINE_OP_WRAP(E, ret, name, cv, params, args)		\
	static int							\
	E##_op_##name(cv void *s PHYS_ENGINE_UNPAREN params)		\
	{								\
		PHYS_ENGINE_TRY						\
		PHYS_ENGINE_RETURN_##ret(E##_##name((cv struct E *)s	\
		    PHYS_ENGINE_UNPAREN args))				\
		PHYS_ENGINE_CATCH(E, #name, return -1)			\
	}
#define PHYS_ENGINE_OP_ENTRY(E, ret, name, cv, params, args)		\
	.name = E##_op_##name,

/* The table has C linkage: lib/engine/ops.c, in C, lists it. */
#ifdef __cplusplus
#define PHYS_ENGINE_EXTERN extern "C"
#else
#define PHYS_ENGINE_EXTERN extern
#endif

/* The C++ seam names the engine as its description does. */
#define PHYS_ENGINE_DEFINE(E, type_)					\
	__attribute__((unused)) static const char *			\
	E##_display_name(void)						\
	{								\
		return phys_engine_##type_.name;			\
	}								\
	static void *							\
	E##_op_create(const struct phys_scene *w,			\
	    const struct phys_run_values *v,				\
	    const struct phys_engine_options *opt, double t)		\
	{								\
		PHYS_ENGINE_TRY						\
		return E##_new(w, v, opt, t);				\
		PHYS_ENGINE_CATCH(E, "create", return NULL)		\
	}								\
	static void							\
	E##_op_destroy(void *s)						\
	{								\
		PHYS_ENGINE_TRY						\
		E##_free((struct E *)s);				\
		PHYS_ENGINE_CATCH(E, "destroy", return)			\
	}								\
	PHYS_ENGINE_OPS(PHYS_ENGINE_OP_WRAP, E)				\
	PHYS_ENGINE_EXTERN const struct phys_engine_ops			\
	    phys_engine_ops_##type_;					\
	const struct phys_engine_ops phys_engine_ops_##type_ = {	\
		.info = &phys_engine_##type_,				\
		.create = E##_op_create,				\
		.destroy = E##_op_destroy,				\
		PHYS_ENGINE_OPS(PHYS_ENGINE_OP_ENTRY, E)		\
	};

#endif
