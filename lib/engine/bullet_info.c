/*
 * bullet_info.c - Bullet as phys knows it without making one: what it
 * does with each parameter, what a state line reports of it, what to
 * try when a joint comes apart (engine.h). Apart from engine_bullet.cc,
 * so that what only describes engines links no engine.
 */
#include "engine.h"

#include "param.h"

/* What Bullet does with each parameter: its own block's are passed to it
 * but for the few it has no counterpart for; the shared ones as under
 * ODE; other engines' blocks are another engine's. */
static enum phys_engine_support
bullet_support(const struct phys_param *p)
{
	/* Gazebo's Bullet takes sliding friction from the ODE block */
	if (p->id == PHYS_P_COLLISION_surface_friction_ode_mu)
		return PHYS_SUPPORT_NATIVE;
	if (!(p->engines & PHYS_E_BULLET))
		return PHYS_SUPPORT_OTHER;
	switch (p->id) {
	/* Bullet has one friction coefficient for both directions, split
	 * impulse only for the whole world, and a fixed step. */
	case PHYS_P_COLLISION_surface_friction_bullet_friction2:
	case PHYS_P_COLLISION_surface_contact_bullet_split_impulse:
	case PHYS_P_COLLISION_surface_contact_bullet_split_impulse_penetration_threshold:
	case PHYS_P_PHYSICS_bullet_solver_min_step_size:
		return PHYS_SUPPORT_INERT;
	default:
		break;
	}
	if (p->engines == PHYS_E_BULLET)
		return PHYS_SUPPORT_NATIVE;
	return p->ode;	/* shared: honoured as under ODE */
}

/* What a state line reports of the values Bullet runs with. */
static const struct phys_engine_field bullet_record[] = {
	{ "solver", PHYS_P_PHYSICS_bullet_solver_type },
	{ "iters", PHYS_P_PHYSICS_bullet_solver_iters },
	{ "sor", PHYS_P_PHYSICS_bullet_solver_sor },
	{ "cfm", PHYS_P_PHYSICS_bullet_constraints_cfm },
	{ "erp", PHYS_P_PHYSICS_bullet_constraints_erp },
	{ "max_step_size", PHYS_P_PHYSICS_max_step_size },
	{ "contact_surface_layer",
	    PHYS_P_PHYSICS_bullet_constraints_contact_surface_layer },
	{ "split_impulse", PHYS_P_PHYSICS_bullet_constraints_split_impulse },
	{ "split_impulse_penetration_threshold",
	    PHYS_P_PHYSICS_bullet_constraints_split_impulse_penetration_threshold },
	{ "max_contacts", PHYS_P_PHYSICS_max_contacts },
	{ "gravity", PHYS_P_WORLD_gravity }
};

static const char *
bullet_apart_hint(const struct phys_value *physics)
{
	return "more bullet.solver.iters";
}

/* gz-physics-bullet-plugin, and gz-physics-bullet-featherstone-plugin. */
const struct phys_engine_info phys_engine_bullet = {
	.type = "bullet",
	.name = "Bullet",
	.support = bullet_support,
	.record = bullet_record,
	.nrecord = sizeof bullet_record / sizeof *bullet_record,
	.apart_hint = bullet_apart_hint,
	.fixed_tendons = true,
};
