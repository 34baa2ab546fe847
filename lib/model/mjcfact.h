/*
 * mjcfact.h - a joint's or a tendon's actuator as the MJCF writer
 * (mjcfwrite.h) and its keyframes (mjcfkey_write.h) take it, and the
 * medium the model moves through.
 */
#ifndef PHYS_MJCFACT_H
#define PHYS_MJCFACT_H

#include <libxml/tree.h>

/*
 * A joint's actuator, as a system of the run drives the joint (lib/run's
 * phys_systems_actuators): a force, or gz-math's PID on the position or
 * the speed, which MuJoCo's motor, position and velocity servos are.
 */
enum phys_mjcf_actuator_kind {
	PHYS_MJCF_MOTOR, PHYS_MJCF_POSITION, PHYS_MJCF_VELOCITY,
	PHYS_MJCF_TENDON,
	PHYS_MJCF_SPRING,	/* no actuator: a spring tendon's pull */
	PHYS_MJCF_SITE		/* an actuator of a site (phys_mjcf_site) */
};

/*
 * An actuator of a fixed tendon (PHYS_MJCF_TENDON: joint is its first
 * joint): the tendon's length L is offset plus coef[k] times joint[k]'s
 * position, phys's measure; its force gain times the control (within
 * ctrl[]) plus bias[0] + bias[1] L + bias[2] dL/dt, within fmin, fmax.
 */
enum phys_actuator_dynamics {
	PHYS_DYN_NONE, PHYS_DYN_INTEGRATOR, PHYS_DYN_FILTER,
	PHYS_DYN_FILTEREXACT	/* the filter taken exactly over a step */
};

struct phys_mjcf_tendon {
	const char *name;	/* NULL: none */
	const int *joints;
	const double *coef;
	size_t n;
	double offset, gain, bias[3], ctrl[2];
	/* under dynamics, the activation in the control's place: it
	 * integrates the control, or follows it in time tau (s), within
	 * act[] */
	enum phys_actuator_dynamics dyn;
	double tau, act[2];
	/* PHYS_MJCF_SPRING's: -stiffness (L - spring) - damping dL/dt */
	double stiffness, damping, spring;
};
/* The medium the model moves through (MuJoCo's <option> density,
 * viscosity and wind; phys's FluidForces system). */
struct phys_mjcf_medium {
	double density;		/* kg/m^3 */
	double viscosity;	/* Pa s */
	double wind[3];		/* m/s */
};

/*
 * An actuator of a site (PHYS_MJCF_SITE): the site at pose in link's
 * frame, named site; its force (the tendon's gain, bias, ranges and
 * dynamics, no joints) along gear's force and torque in the site's frame.
 */
struct phys_mjcf_site {
	int link;
	const char *site;
	double pose[6];		/* x y z roll pitch yaw */
	double gear[6];
};

struct phys_mjcf_actuator {
	enum phys_mjcf_actuator_kind kind;
	int joint, axis;
	double kp, ki, kd;	/* the PID's gains (none for a motor) */
	double fmin, fmax;	/* its force's bounds, N or N m (inf: none) */
	double target;		/* the command it starts with */
	xmlNodePtr plugin;	/* its <plugin>, which holds its keys */
	const char *file;	/* the plugin's file, for messages */
	struct phys_mjcf_tendon tendon;	/* PHYS_MJCF_TENDON's */
	/* a joint servo's targets, phys's measure (inf: none) */
	double ctrl[2];
	struct phys_mjcf_site site;	/* PHYS_MJCF_SITE's */
	/* a position servo's slew limit (position_pid.slew_max), unit/s */
	bool slewed;
	double slew;
};

#endif
