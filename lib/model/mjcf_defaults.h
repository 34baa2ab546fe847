/*
 * mjcf_defaults.h - MuJoCo's default solref (time constant [s], damping
 * ratio) and solimp (dmin, dmax, width [m], midpoint, power): a geom's, a
 * pair's, a joint's limits' and its friction loss's, where the file and
 * its classes give none. The parameter table's defaults of
 * surface.contact.mujoco.sol* and physics.mujoco.limit.sol* are these.
 * Constants alone, so that the MJCF reader, the SDF writer and the MJCF
 * editor share them without using one another.
 */
#ifndef PHYS_MJCF_DEFAULTS_H
#define PHYS_MJCF_DEFAULTS_H

static const double phys_mjcf_solref[2] = { 0.02, 1 };
static const double phys_mjcf_solimp[5] = { 0.9, 0.95, 0.001, 0.5, 2 };

#endif
