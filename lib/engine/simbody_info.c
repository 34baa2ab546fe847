/*
 * simbody_info.c - Simbody as phys knows it without making one: what it
 * does with each parameter, what a state line reports of it, that it
 * takes the servos into its step (engine.h). Apart from
 * engine_simbody.cc, so that what only describes engines links no
 * engine.
 */
#include "engine.h"

#include "param.h"

/* What Simbody does with each parameter: its own block's all reach it
 * but min_step_size (its steps are its integrator's); ODE's friction
 * coefficient is the surface's (SDF has no Simbody surface block); the
 * shared ones as under ODE but where noted; other engines' blocks are
 * another engine's. */
static enum phys_engine_support
simbody_support(const struct phys_param *p)
{
	switch (p->id) {
	case PHYS_P_PHYSICS_simbody_min_step_size:
	case PHYS_P_PHYSICS_max_contacts:
	case PHYS_P_COLLISION_max_contacts:
	case PHYS_P_COLLISION_surface_friction_ode_fdir1:
	case PHYS_P_COLLISION_surface_friction_ode_slip1:
	case PHYS_P_COLLISION_surface_friction_ode_slip2:
	/* Simbody mixes two materials' friction its own way */
	case PHYS_P_COLLISION_surface_friction_mujoco_condim:
	case PHYS_P_COLLISION_surface_contact_mujoco_priority:
		return PHYS_SUPPORT_INERT;
	case PHYS_P_COLLISION_surface_friction_ode_mu:
	case PHYS_P_COLLISION_surface_friction_ode_mu2:	/* checked at load */
	case PHYS_P_COLLISION_surface_contact_poissons_ratio:
	case PHYS_P_COLLISION_surface_contact_elastic_modulus:
	case PHYS_P_LINK_must_be_base_link:
	case PHYS_P_JOINT_axis_limit_stiffness:
	case PHYS_P_JOINT_axis_limit_dissipation:
	case PHYS_P_JOINT_axis2_limit_stiffness:
	case PHYS_P_JOINT_axis2_limit_dissipation:
	case PHYS_P_JOINT_thread_pitch:
	case PHYS_P_JOINT_screw_thread_pitch:
		return PHYS_SUPPORT_NATIVE;
	case PHYS_P_PHYSICS_simbody_contact_plastic_coef_restitution:
	case PHYS_P_PHYSICS_simbody_contact_plastic_impact_velocity:
	case PHYS_P_PHYSICS_simbody_contact_override_impact_capture_velocity:
	case PHYS_P_COLLISION_surface_bounce_restitution_coefficient:
	case PHYS_P_COLLISION_surface_bounce_threshold:
	case PHYS_P_JOINT_axis_limit_lower:
	case PHYS_P_JOINT_axis_limit_upper:
	case PHYS_P_JOINT_axis2_limit_lower:
	case PHYS_P_JOINT_axis2_limit_upper:
		return PHYS_SUPPORT_EMULATED;
	default:
		break;
	}
	if (!(p->engines & PHYS_E_SIMBODY))
		return PHYS_SUPPORT_OTHER;
	if (p->engines == PHYS_E_SIMBODY)
		return PHYS_SUPPORT_NATIVE;
	return p->ode;	/* shared: honoured as under ODE */
}

/* What a state line reports of the values Simbody runs with. */
static const struct phys_engine_field simbody_record[] = {
	{ "accuracy", PHYS_P_PHYSICS_simbody_accuracy },
	{ "max_step_size", PHYS_P_PHYSICS_max_step_size },
	{ "max_transient_velocity", PHYS_P_PHYSICS_simbody_max_transient_velocity },
	{ "stiffness", PHYS_P_PHYSICS_simbody_contact_stiffness },
	{ "dissipation", PHYS_P_PHYSICS_simbody_contact_dissipation },
	{ "plastic_coef_restitution",
	    PHYS_P_PHYSICS_simbody_contact_plastic_coef_restitution },
	{ "plastic_impact_velocity",
	    PHYS_P_PHYSICS_simbody_contact_plastic_impact_velocity },
	{ "static_friction", PHYS_P_PHYSICS_simbody_contact_static_friction },
	{ "dynamic_friction", PHYS_P_PHYSICS_simbody_contact_dynamic_friction },
	{ "viscous_friction", PHYS_P_PHYSICS_simbody_contact_viscous_friction },
	{ "override_impact_capture_velocity",
	    PHYS_P_PHYSICS_simbody_contact_override_impact_capture_velocity },
	{ "override_stiction_transition_velocity",
	    PHYS_P_PHYSICS_simbody_contact_override_stiction_transition_velocity },
	{ "gravity", PHYS_P_WORLD_gravity }
};

/* Simbody's error-controlled steps take every servo into the step. */
static bool
simbody_servos_implicit(const struct phys_value *physics)
{
	return true;
}

/* Simbody's own steps follow its stiffest spring, whatever the step */
static const char *
simbody_slow_hint(const struct phys_value *physics)
{
	(void)physics;
	return "softer joint stops (axis.limit.stiffness) or contacts "
	    "(simbody.contact.stiffness): Simbody's own steps are as short "
	    "as its stiffest spring needs";
}

const struct phys_engine_info phys_engine_simbody = {
	.type = "simbody",
	.name = "Simbody",
	.support = simbody_support,
	.record = simbody_record,
	.nrecord = sizeof simbody_record / sizeof *simbody_record,
	.fixed_tendons = true,
	.servos_implicit = simbody_servos_implicit,
	.slow_hint = simbody_slow_hint,
};
