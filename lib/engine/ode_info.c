/*
 * ode_info.c - ODE as phys knows it without making one: what it does
 * with each parameter, what a state line reports of it, what to try
 * when a joint comes apart or a run is slow (engine.h). Apart from
 * engine_ode.c, so that what only describes engines links no engine.
 */
#include "engine.h"

#include <string.h>

#include "param.h"

/* The ODE column of the parameter table says what ODE does with each. */
static enum phys_engine_support
ode_support(const struct phys_param *p)
{
	return p->ode;
}

/* What a state line reports of the values ODE runs with. */
static const struct phys_engine_field ode_record[] = {
	{ "solver", PHYS_P_PHYSICS_ode_solver_type },
	{ "iters", PHYS_P_PHYSICS_ode_solver_iters },
	{ "sor", PHYS_P_PHYSICS_ode_solver_sor },
	{ "cfm", PHYS_P_PHYSICS_ode_constraints_cfm },
	{ "erp", PHYS_P_PHYSICS_ode_constraints_erp },
	{ "max_step_size", PHYS_P_PHYSICS_max_step_size },
	{ "contact_max_correcting_vel",
	    PHYS_P_PHYSICS_ode_constraints_contact_max_correcting_vel },
	{ "contact_surface_layer",
	    PHYS_P_PHYSICS_ode_constraints_contact_surface_layer },
	{ "max_contacts", PHYS_P_PHYSICS_max_contacts },
	{ "friction_model", PHYS_P_PHYSICS_ode_solver_friction_model },
	{ "gravity", PHYS_P_WORLD_gravity }
};

/* The world solver solves each island exactly: of ODE's own, only the
 * quick solver's iterations, or the world solver, hold more. */
static const char *
ode_apart_hint(const struct phys_value *physics)
{
	if (strcmp(PVS(physics, PHYSICS_ode_solver_type), "world") == 0)
		return NULL;
	return "ode.solver.type world, more ode.solver.iters";
}

static const char *
ode_slow_hint(const struct phys_value *physics)
{
	if (strcmp(PVS(physics, PHYSICS_ode_solver_type), "world") != 0)
		return NULL;
	return "ODE's quick solver (-s ode.solver.type=quick: its world "
	    "solver's work grows as the cube of the constraints, the quick "
	    "one's as their number)";
}

const struct phys_engine_info phys_engine_ode = {
	.type = "ode",
	.name = "ODE",
	.support = ode_support,
	.record = ode_record,
	.nrecord = sizeof ode_record / sizeof *ode_record,
	.apart_hint = ode_apart_hint,
	.slow_hint = ode_slow_hint,
	.fixed_tendons = true,
};
