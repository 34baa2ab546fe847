/*
 * mujoco_info.c - MuJoCo as phys knows it without making one: what it
 * does with each parameter, what a state line reports of it, when it
 * takes the servos into its step (engine.h). Apart from engine_mujoco.c,
 * so that what only describes engines links no engine.
 */
#include "engine.h"

#include <string.h>

#include "param.h"

/*
 * What MuJoCo does with each parameter: its own block's reach it; of the
 * shared ones most are MuJoCo's own notions (joint damping, friction loss,
 * springs, limits, ellipsoids), some phys computes (contact values per
 * contact, couplings, kinematic links); SDF's surface friction and
 * stiffness are read from the ode block, as Gazebo's other engines do.
 */
static enum phys_engine_support
mujoco_support(const struct phys_param *p)
{
	if (!(p->engines & PHYS_E_MUJOCO))
		return PHYS_SUPPORT_OTHER;
	if (phys_param_run_only(p))
		return PHYS_SUPPORT_EMULATED;	/* the driver's PIDs */
	switch (p->id) {
	case PHYS_P_PHYSICS_real_time_update_rate:
	case PHYS_P_WORLD_magnetic_field:
	case PHYS_P_LINK_enable_wind:
	case PHYS_P_LINK_must_be_base_link:
	case PHYS_P_COLLISION_laser_retro:
	case PHYS_P_COLLISION_surface_contact_poissons_ratio:
	case PHYS_P_COLLISION_surface_contact_elastic_modulus:
	case PHYS_P_JOINT_axis_initial_position:
	case PHYS_P_JOINT_axis2_initial_position:
	case PHYS_P_JOINT_axis_limit_stiffness:
	case PHYS_P_JOINT_axis2_limit_stiffness:
	case PHYS_P_JOINT_axis_limit_dissipation:
	case PHYS_P_JOINT_axis2_limit_dissipation:
	case PHYS_P_JOINT_physics_provide_feedback:
		return PHYS_SUPPORT_INERT;
	case PHYS_P_PHYSICS_real_time_factor:
	case PHYS_P_PHYSICS_max_contacts:
	case PHYS_P_LINK_gravity:
	case PHYS_P_LINK_self_collide:
	case PHYS_P_LINK_kinematic:
	case PHYS_P_LINK_velocity_decay_linear:
	case PHYS_P_LINK_velocity_decay_angular:
	case PHYS_P_LINK_inertia_follow:
	case PHYS_P_COLLISION_max_contacts:
	case PHYS_P_COLLISION_surface_bounce_restitution_coefficient:
	case PHYS_P_COLLISION_surface_bounce_threshold:
	case PHYS_P_COLLISION_surface_friction_torsional_coefficient:
	case PHYS_P_COLLISION_surface_friction_torsional_use_patch_radius:
	case PHYS_P_COLLISION_surface_friction_torsional_patch_radius:
	case PHYS_P_COLLISION_surface_friction_torsional_surface_radius:
	case PHYS_P_COLLISION_surface_contact_ode_kp:
	case PHYS_P_COLLISION_surface_contact_ode_kd:
	case PHYS_P_COLLISION_surface_contact_collide_without_contact:
	case PHYS_P_COLLISION_surface_contact_collide_without_contact_bitmask:
	case PHYS_P_COLLISION_surface_contact_collide_bitmask:
	case PHYS_P_COLLISION_surface_contact_category_bitmask:
	case PHYS_P_JOINT_gearbox_reference_body:
	case PHYS_P_JOINT_axis_limit_effort:
	case PHYS_P_JOINT_axis2_limit_effort:
	case PHYS_P_JOINT_axis_limit_velocity:
	case PHYS_P_JOINT_axis2_limit_velocity:
		return PHYS_SUPPORT_EMULATED;
	default:
		return PHYS_SUPPORT_NATIVE;
	}
}

/* What a state line reports of the values MuJoCo runs with. */
static const struct phys_engine_field mujoco_record[] = {
	{ "integrator", PHYS_P_PHYSICS_mujoco_integrator },
	{ "solver", PHYS_P_PHYSICS_mujoco_solver },
	{ "iterations", PHYS_P_PHYSICS_mujoco_iterations },
	{ "tolerance", PHYS_P_PHYSICS_mujoco_tolerance },
	{ "noslip_iterations", PHYS_P_PHYSICS_mujoco_noslip_iterations },
	{ "noslip_tolerance", PHYS_P_PHYSICS_mujoco_noslip_tolerance },
	{ "cone", PHYS_P_PHYSICS_mujoco_cone },
	{ "impratio", PHYS_P_PHYSICS_mujoco_impratio },
	{ "eulerdamp", PHYS_P_PHYSICS_mujoco_eulerdamp },
	{ "multiccd", PHYS_P_PHYSICS_mujoco_multiccd },
	{ "max_step_size", PHYS_P_PHYSICS_max_step_size },
	{ "max_contacts", PHYS_P_PHYSICS_max_contacts },
	{ "gravity", PHYS_P_WORLD_gravity }
};

/* MuJoCo's implicit integrator takes every servo into the step. */
static bool
mujoco_servos_implicit(const struct phys_value *physics)
{
	return strcmp(PVS(physics, PHYSICS_mujoco_integrator), "implicit") ==
	    0;
}

/* MuJoCo's RK4 takes the forces again at each of its four stages. */
static bool
mujoco_forces_restaged(const struct phys_value *physics)
{
	return strcmp(PVS(physics, PHYSICS_mujoco_integrator), "RK4") == 0;
}

const struct phys_engine_info phys_engine_mujoco = {
	.type = "mujoco",
	.name = "MuJoCo",
	.support = mujoco_support,
	.record = mujoco_record,
	.nrecord = sizeof mujoco_record / sizeof *mujoco_record,
	.tendons = true,
	.servos_implicit = mujoco_servos_implicit,
	.forces_restaged = mujoco_forces_restaged,
};
