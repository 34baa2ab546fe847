/*
 * dart_info.c - DART as phys knows it without making one: what it does
 * with each parameter, what a state line reports of it (engine.h). Apart
 * from engine_dart.cc, so that what only describes engines links no
 * engine.
 */
#include "engine.h"

#include "param.h"

/* What DART does with each parameter: its own block's; the friction of
 * the <ode> block, which Gazebo's DART reads too; the shared ones as under
 * ODE but where DART has its own (joint coefficients) or phys emulates
 * what DART lacks (velocity decay); other engines' are another engine's. */
static enum phys_engine_support
dart_support(const struct phys_param *p)
{
	if (!(p->engines & PHYS_E_DART))
		return PHYS_SUPPORT_OTHER;
	switch (p->id) {
	/* soft bodies: DART's, not run by phys */
	case PHYS_P_COLLISION_surface_soft_contact_dart_bone_attachment:
	case PHYS_P_COLLISION_surface_soft_contact_dart_stiffness:
	case PHYS_P_COLLISION_surface_soft_contact_dart_damping:
	case PHYS_P_COLLISION_surface_soft_contact_dart_flesh_mass_fraction:
		return PHYS_SUPPORT_INERT;
	case PHYS_P_JOINT_axis_dynamics_damping:
	case PHYS_P_JOINT_axis_dynamics_friction:
	case PHYS_P_JOINT_axis_dynamics_spring_reference:
	case PHYS_P_JOINT_axis_dynamics_spring_stiffness:
	case PHYS_P_JOINT_axis2_dynamics_damping:
	case PHYS_P_JOINT_axis2_dynamics_friction:
	case PHYS_P_JOINT_axis2_dynamics_spring_reference:
	case PHYS_P_JOINT_axis2_dynamics_spring_stiffness:
	case PHYS_P_JOINT_thread_pitch:
	case PHYS_P_JOINT_screw_thread_pitch:
	case PHYS_P_COLLISION_geometry_ellipsoid_radii:
		return PHYS_SUPPORT_NATIVE;
	case PHYS_P_LINK_velocity_decay_linear:
	case PHYS_P_LINK_velocity_decay_angular:
	case PHYS_P_JOINT_physics_ode_limit_erp:	/* find_stops */
	case PHYS_P_COLLISION_surface_bounce_restitution_coefficient:
	case PHYS_P_COLLISION_surface_bounce_threshold:
		return PHYS_SUPPORT_EMULATED;
	default:
		break;
	}
	if (p->engines == PHYS_E_DART)
		return PHYS_SUPPORT_NATIVE;
	return p->ode;	/* shared: honoured as under ODE */
}

/* What a state line reports of the values DART runs with. */
static const struct phys_engine_field dart_record[] = {
	{ "solver", PHYS_P_PHYSICS_dart_solver_solver_type },
	{ "collision_detector", PHYS_P_PHYSICS_dart_collision_detector },
	{ "max_step_size", PHYS_P_PHYSICS_max_step_size },
	{ "max_contacts", PHYS_P_PHYSICS_max_contacts },
	{ "gravity", PHYS_P_WORLD_gravity }
};

const struct phys_engine_info phys_engine_dart = {
	.type = "dart",
	.name = "DART",
	.support = dart_support,
	.record = dart_record,
	.nrecord = sizeof dart_record / sizeof *dart_record,
	.check_first = true,
	.fixed_tendons = true,
};
