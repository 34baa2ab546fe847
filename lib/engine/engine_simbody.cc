/*
 * engine_simbody.cc - the Simbody engine (libsimbody 3.7). Every Simbody
 * call in phys lives here, behind the C functions of engine_impl.h.
 *
 * Simbody works in joint coordinates: every link of a moving model is a
 * mobilized body whose mobilizer is one of its joints (a revolute joint a
 * pin, a prismatic one a slider...), chosen into a tree from the world by
 * Simbody's multibody graph maker; a link no joint holds gets a free
 * mobilizer, and a joint that would close a loop cuts its child into a
 * master and a slave welded together by a constraint (a fixed joint in a
 * loop is a weld constraint). Each body's frame is its link's frame, so
 * link poses and velocities are read as they are; each mobilizer's
 * coordinates are zero in the loaded configuration, so a joint position
 * is its coordinate.
 *
 * Contact is compliant, as in Gazebo's Simbody: spheres, half-spaces
 * (planes) and triangle meshes (every other shape) of a stiffness that
 * deform a little where they meet; a sphere meets a sphere or a plane as
 * Hertz predicts, and any pair with a mesh as an elastic foundation of
 * springs under each triangle. The forces are phys's own generators over
 * Simbody's contact tracking, so that each pair gets its surfaces' values
 * (friction the smaller of the two, restitution the larger above the
 * threshold) rather than one material for the whole world.
 *
 * A step is max_step_size of simulated time, which Simbody's
 * error-controlled integrator covers in as many steps of its own as the
 * accuracy asks, ending exactly at the step's end.
 */
#include <Simbody.h>

#include <cmath>
#include <cstring>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

/* The C headers phys's own pull in, which guard themselves, first. */
#include <libxml/tree.h>

/* C11's _Noreturn in phys's headers is C++'s attribute. */
#define _Noreturn [[noreturn]]
extern "C" {
#include "engine_impl.h"
#include "inertia.h"
#include "inertia_follow.h"
#include "inertia_world.h"
#include "mesh.h"
#include "pairkey.h"
#include "pairs.h"
#include "touch.h"
}
#undef _Noreturn

namespace {

using SimTK::MobilizedBody;
using SimTK::MobilizedBodyIndex;
using SimTK::Rotation;
using SimTK::SpatialVec;
using SimTK::State;
using SimTK::Transform;
using SimTK::UnitVec3;
using SimTK::Vec3;

/* Meshes of boxes and cylinders: a box's longest edge split in three,
 * the others about as finely (Gazebo's Simbody splits it in seven, which
 * measured two to three times slower here). A cylinder lying on its side
 * rolls over the edges between its sides, each a bump that takes about
 * (1 - cos(2 pi / sides)) / 1.5 of a solid one's rate: of 64 sides, in
 * two lengths (Simbody's own cylinder mesh, of 18, lost 40% of its rate
 * in 2 s where the contact's dissipation lets it keep all but 2%). */
const int BOX_RESOLUTION = 2;
const int CYLINDER_SIDES = 64;
const int CYLINDER_RINGS = 2;
/* The elastic layer of every surface, m: Gazebo's Simbody's. */
const double THICKNESS = 1;
/* Steps Simbody may take within one phys step before phys gives up: a
 * contact too stiff for the accuracy asked would otherwise take hours.
 * They are taken STEP_CHUNK at a time, the cost checked in between. */
const int MAX_INTERNAL_STEPS = 20000;
const int STEP_CHUNK = 500;
/* Triangles in contact whose forces a phys step may reckon, over all of
 * Simbody's steps within it: each costs Simbody's contact tracker about
 * 1.3 us here, so that two boxes half through each other (850 triangles
 * in contact, 10,000 steps of Simbody's within one of 2 ms) took 15 s a
 * step; at most some 1.5 s (3,000,000 took 4 s, 12 s on a machine
 * kept busy). */
const unsigned long MAX_FACES_WORKED = 1000000;
/* The most triangles the world's meshes and heightmaps may have
 * together: Simbody's takes about 1.2 kB a triangle (a heightmap of 513
 * x 513 samples: 680 MB, 13 s to load), and a run 300 MB at most. */
const size_t MAX_TRIANGLES = 100000;
/* What Simbody's bodies, mobilizers and contact surfaces take a link, in
 * address space, less than measured so that a world refused surely does
 * not fit: within a limit of 300 MB, Simbody started 3,000 free boxes,
 * whose world left it about 130 MB, and ran out of memory at 3,500 (40 kB
 * a link). */
const double LINK_BYTES = 36.0 * 1024;
/* A stop's ringing, in radians, an explicit integrator follows in one
 * step (Runge-Kutta-Merson's limit on an undamped oscillator); the most
 * of its steps a phys step at a stop is said to take, and the ringing
 * within one phys step past which a stop is held (hold_joints). */
const double RKM_STABLE = 2.8;
const int SLOW_STEPS = 10;
const double HOLD_RADIANS = SLOW_STEPS * RKM_STABLE;
/* Processor time a triangle in contact costs, s per simulated second, as
 * measured on a cube of 6,912 triangles resting on a plane (1 ms) and on
 * another such cube (20 ms); a mesh that would cost a second a simulated
 * second with a sixth of it (a cube's face) on another mesh is warned
 * about. */
const double TRIANGLE_COST_PLANE = 0.001;
const double TRIANGLE_COST_MESH = 0.02;

Vec3
sv(phys_vec3 v)
{
	return Vec3(v.x, v.y, v.z);
}

phys_vec3
pv(const Vec3 &v)
{
	return v3(v[0], v[1], v[2]);
}

Rotation
srot(phys_quat q)
{
	return Rotation(SimTK::Quaternion(q.w, q.x, q.y, q.z));
}

Transform
stf(phys_pose p)
{
	return Transform(srot(p.q), sv(p.p));
}

phys_pose
ptf(const Transform &t)
{
	SimTK::Quaternion q = t.R().convertRotationToQuaternion();
	phys_pose p;

	p.p = pv(t.p());
	p.q.w = q[0], p.q.x = q[1], p.q.y = q[2], p.q.z = q[3];
	return p;
}

struct simbody_engine;

/* A link: its body (Ground for a static link), and the mass it has. */
struct slink {
	bool dynamic = false;
	MobilizedBodyIndex mobod;		/* the master body */
	std::vector<MobilizedBodyIndex> slaves;	/* loop cuts, welded to it */
	double mass = 0, inertia[6] = { 0, 0, 0, 0, 0, 0 };
	phys_pose inertial = PHYS_POSE_IDENTITY;	/* in the link frame */
	SimTK::Inertia com_inertia;	/* as run: about the centre of mass,
					 * link axes */
	phys_vec3 force{ 0, 0, 0 }, torque{ 0, 0, 0 };	/* the run's */
};

/* A joint: the mobilizer it is, or a weld constraint closing a loop. */
/* What locks a joint (hold_joints): its stop, or its friction. */
enum held_by { HELD_NONE, HELD_STOP, HELD_FRICTION };

struct sjoint {
	bool mobilizer = false;
	MobilizedBodyIndex mobod;	/* its outboard body */
	bool reversed = false;		/* the parent is outboard */
	int ncoords = 0;		/* coordinates phys reports and drives */
	double lead = 0;		/* screws: travel per radian */
	double ratio = 0;		/* gearboxes: as made */
	bool coupled = false;		/* a mimic's or a gearbox's */
	held_by held = HELD_NONE;	/* what its lock is for, if locked */
	double last_u = 0;		/* its rate at the last step's start */
	phys_pose in_child = PHYS_POSE_IDENTITY;	/* joint frame, child link */
	phys_pose in_parent = PHYS_POSE_IDENTITY;	/* joint frame, parent link */
	SimTK::ConstraintIndex weld;	/* a fixed joint closing a loop */
	bool is_weld = false;
	double cmd[2] = { 0, 0 };	/* the command's effort (motor.h) */
	/* the command's, if a servo: evaluated throughout the step, which
	 * Simbody's error control then follows however stiff it is */
	struct phys_axis_servo servo[2] = {};
};

/* A link's pose or velocity set by the run, applied before the next step
 * (a joint's coordinates follow from its two links). */
struct pending {
	bool pose = false, vel = false;
	phys_pose p = PHYS_POSE_IDENTITY;
	phys_vec3 lin = { 0, 0, 0 }, ang = { 0, 0, 0 };
};

/*
 * What a contact surface is, and what it meets: a collision may be more
 * than one surface, each meeting some others. An ellipsoid is Simbody's
 * own against planes, spheres and ellipsoids, and a mesh against meshes;
 * a capsule is the two spheres of its ends on a plane (which hold it at
 * its exact height), and a mesh against the rest.
 */
enum surface_kind {
	K_PLANE = 1, K_SPHERE = 2, K_MESH = 4, K_ELLIPSOID = 8,
	K_ELLIPSOID_MESH = 16, K_CAPSULE_END = 32, K_CAPSULE_MESH = 64
};

unsigned
meets(unsigned kind)
{
	switch (kind) {
	case K_PLANE:
		return K_PLANE | K_SPHERE | K_MESH | K_ELLIPSOID |
		    K_CAPSULE_END;
	case K_SPHERE:
		return K_PLANE | K_SPHERE | K_MESH | K_ELLIPSOID |
		    K_CAPSULE_MESH;
	case K_MESH:
		return K_PLANE | K_SPHERE | K_MESH | K_ELLIPSOID_MESH |
		    K_CAPSULE_MESH;
	case K_ELLIPSOID:
		return K_PLANE | K_SPHERE | K_ELLIPSOID;
	case K_ELLIPSOID_MESH:
		return K_MESH | K_CAPSULE_MESH;
	case K_CAPSULE_END:
		return K_PLANE;
	case K_CAPSULE_MESH:
		return K_SPHERE | K_MESH | K_ELLIPSOID_MESH | K_CAPSULE_MESH;
	default:
		return 0;
	}
}

/* A contact surface made of a collision: on which body, as which of the
 * body's surfaces, and of which kind. */
struct made_surface {
	int collision = -1;
	int body = -1, ordinal = -1;
	unsigned kind = 0;
};

/*
 * One Simbody system made of the world and the run's values; made again
 * when a value Simbody fixes at construction changes (a mass, a shape),
 * keeping the coordinates. Members in the order each needs the ones
 * before it (and is destroyed before them).
 */
struct model {
	SimTK::MultibodySystem sys;
	SimTK::SimbodyMatterSubsystem matter{ sys };
	SimTK::GeneralForceSubsystem forces{ sys };
	SimTK::ContactTrackerSubsystem tracker{ sys };
	SimTK::CompliantContactSubsystem contact{ sys, tracker };
	SimTK::Force::Gravity gravity;
	std::vector<int> mobod_link;		/* per body: link, -1 Ground */
	std::vector<made_surface> made;		/* every surface added */
	std::vector<made_surface> surface;	/* per contact surface index */
	std::unique_ptr<SimTK::Integrator> integ;
};

struct simbody_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;	/* the run's: every parameter */
	bool skip_unsupported = false;
	std::unique_ptr<model> m;
	std::vector<slink> links;
	std::vector<sjoint> joints;
	/* What the run set since the last step, fitted into the state when
	 * it is next read (queries are const: a cache of sorts). */
	mutable std::vector<pending> pend;
	mutable bool has_pending = false;
	mutable bool dirty = false;	/* changed outside the integrator */
	bool commands_changed = false;	/* a joint command's effort */
	std::set<std::pair<int, int>> joined;	/* links a joint connects */
	/* Per pair of touching surfaces, the damping chosen when their
	 * contact began (for its bounce). */
	std::map<std::pair<int, int>, double> damping;
	/* Reaction forces of the mobilizers at the last step's end, once
	 * computed (fresh). */
	mutable SimTK::Vector_<SpatialVec> reactions;
	mutable bool reactions_fresh = false;

	double step = 0.001;
	double now = 0;		/* the run's time (the driver's) */
	int ncontacts = 0;
	/* triangles of meshes in contact whose forces were reckoned within
	 * the step being taken: what its contacts cost */
	unsigned long faces_worked = 0;
	bool spent = false;		/* faces_worked passed its bound */
	bool stepping = false;		/* within simbody_engine_step */
	/* the pair of collisions with the most of them in one reckoning */
	int costliest[2] = { -1, -1 };
	size_t costliest_faces = 0;
	/* the triangles of that pair's reckonings since it became so */
	unsigned long costliest_worked = 0;
	/* the joint whose damping and friction decay fastest on its link,
	 * and that time (s): Simbody's integrator follows it */
	int stiffest = -1;
	double stiffest_tau = HUGE_VAL;
	/* the joint axis whose stop rings fastest on its link, its rate
	 * (rad/s) and that link's moment about the axis */
	int ringing = -1, ringing_axis = 0;
	double ringing_rate = 0, ringing_inertia = 0;
	/* per joint: its child link's moment about its axis (its mass on a
	 * slide) as loaded, where its stop may be held (hold_joints) */
	std::vector<double> stop_inertia;
	/* The run's welds: the child link's frame in the parent's body
	 * frame (Ground's for a static parent), a weld constraint each time
	 * the system is made. */
	struct weld {
		int parent, child;
		phys_pose rel;
	};
	std::vector<weld> welds;
	/* The meshes of boxes and cylinders made so far, by shape and
	 * sizes: a copy keeps the tree of bounding boxes Simbody builds
	 * for a mesh, which took 1.2 ms a box (5,000 boxes, 6 s). */
	std::map<std::array<double, 4>, SimTK::ContactGeometry::TriangleMesh>
	    solids;
	/* Triangles of each collision's mesh or heightmap as last made:
	 * together within MAX_TRIANGLES. */
	std::map<int, std::size_t> triangles;

	simbody_engine(const struct phys_scene *world_,
	    const struct phys_run_values *v_) : w(world_), v(v_) {}
};

PHYS_ENGINE_FUNCTIONS(simbody_engine)

/* The run's values of a scope (idx: the entity): every parameter the
 * engine reads comes from here, never from the loaded world. */
const struct phys_value *
vals(const struct simbody_engine *e, phys_scope s, int idx)
{
	return phys_run_values_get(e->v, s, idx);
}

void settle(const simbody_engine *e);
bool may_hold(const simbody_engine *e, int ji);
held_by holding(const simbody_engine *e, const sjoint &sj, const State &s);
bool too_fast(const simbody_engine *e, double rate);
double friction_rate(const simbody_engine *e, double friction, double in);

/* The state, with what the run set fitted into it. */
const State &
state(const simbody_engine *e)
{
	settle(e);
	return e->m->integ->getState();
}

const MobilizedBody &
mobod(const simbody_engine *e, MobilizedBodyIndex i)
{
	return e->m->matter.getMobilizedBody(i);
}

bool
is_static(const struct phys_scene *w, int li)
{
	return li < 0 || w->models[w->links[li].model].is_static;
}

/*
 * LAPACK's error handler, in place of the library's, which prints to
 * standard output and ends the program with status 0 (state lines cut
 * off: DGEBAL on a matrix of infinite entries did). This one returns, as
 * LAPACK's routines expect a handler may: the routine returns its INFO
 * below 0, which Simbody takes for an error and throws as its own (an
 * exception could not pass LAPACK's frames). Every LAPACK call in the
 * program is Simbody's.
 */
extern "C" void xerbla_(const char *routine, int &arg, int len);

/* Simbody's SimTKlapack.h declares it so (the argument's number by
 * reference, the name's length as Fortran passes it). */
extern "C" void
xerbla_(const char *routine, int &arg, int len)
{
	(void)routine, (void)arg, (void)len;
}

/* ---- contact: the values of a pair of surfaces ---- */

/* The restitution an impact has under a normal force x^n (1 + b v) of a
 * unit mass meeting a unit stiffness at unit speed (x the overlap, v its
 * rate): any stiffness, mass and speed scale to it, so b = c v0 gives
 * that restitution to an impact at speed v0 under damping c. */
double
rebound(double b, double n)
{
	double x = 0, v = 1, h = 1e-3 / (1 + b), t = 0;
	auto accel = [b, n](double xx, double vv) {
		double f = xx > 0 ? pow(xx, n) * (1 + b * vv) : 0;

		return f > 0 ? -f : 0;
	};

	while (t < 100) {
		double k1x = v, k1v = accel(x, v);
		double k2x = v + h / 2 * k1v, k2v = accel(x + h / 2 * k1x,
		    v + h / 2 * k1v);
		double k3x = v + h / 2 * k2v, k3v = accel(x + h / 2 * k2x,
		    v + h / 2 * k2v);
		double k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v);

		x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
		v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
		t += h;
		if (x <= 0)
			return -v;
	}
	return 0;	/* held: no rebound */
}

/* The damping product b = c v0 giving restitution e under exponent n. */
double
damping_for(double e, double n)
{
	static std::map<std::pair<double, double>, double> known;
	auto k = std::make_pair(e, n);
	auto it = known.find(k);
	double lo = 0, hi = 1;

	if (it != known.end())
		return it->second;
	while (rebound(hi, n) > e && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		(rebound(mid, n) > e ? lo : hi) = mid;
	}
	known[k] = hi;
	return hi;
}

/* What a pair of surfaces brings to a contact between them. */
struct pair_values {
	bool excluded = false;	/* never touch: filtered, or no force */
	bool no_force = false;	/* collide_without_contact, or a surface
				 * of no stiffness */
	int c1 = -1, c2 = -1;	/* the collisions */
	double k1 = 0, k2 = 0;	/* stiffness of each, Pa */
	double mus = 0, mud = 0, muv = 0;	/* friction */
	double dissipation = 0;	/* s/m, the profile's */
	double restitution = 0;	/* the larger coefficient */
	double bounce_from = 0;	/* slowest approach that bounces, m/s */
};

/* A surface's stiffness: the profile's, or its own material's plane
 * strain modulus E / (1 - nu^2) when it gives an elastic modulus. */
double
stiffness(const struct phys_value *phys, const struct phys_value *c)
{
	double E = PVD(c, COLLISION_surface_contact_elastic_modulus);
	double nu = PVD(c, COLLISION_surface_contact_poissons_ratio);

	if (E > 0)
		return E / (1 - nu * nu);
	return PVD(phys, PHYSICS_simbody_contact_stiffness);
}

/* The profile's dissipation; without one, what plastic_coef_restitution
 * and plastic_impact_velocity imply: (1 - e) / v. */
double
dissipation(const struct phys_value *phys)
{
	double vp = PVD(phys, PHYSICS_simbody_contact_plastic_impact_velocity);

	if (!PV(phys, PHYSICS_simbody_contact_dissipation)->given &&
	    PV(phys, PHYSICS_simbody_contact_plastic_coef_restitution)->given &&
	    vp > 0)
		return (1 - PVD(phys,
		    PHYSICS_simbody_contact_plastic_coef_restitution)) / vp;
	return PVD(phys, PHYSICS_simbody_contact_dissipation);
}

/* Static and dynamic friction of a surface: its own mu when it gives
 * one, else the profile's. */
void
surface_friction(const struct phys_value *phys, const struct phys_value *c,
    double *mus, double *mud)
{
	if (PV(c, COLLISION_surface_friction_ode_mu)->given) {
		*mus = *mud = PVD(c, COLLISION_surface_friction_ode_mu);
		return;
	}
	*mus = PVD(phys, PHYSICS_simbody_contact_static_friction);
	*mud = PVD(phys, PHYSICS_simbody_contact_dynamic_friction);
}

/* Gazebo's rules (phys_collisions_may_touch), and no link with itself,
 * none with a link a joint connects it to. */
bool
pair_excluded(const simbody_engine *e, int c1, int c2)
{
	const struct phys_scene *w = e->w;
	int l1 = w->collisions[c1].link, l2 = w->collisions[c2].link;

	if (l1 == l2 || e->joined.count(std::make_pair(std::min(l1, l2),
	    std::max(l1, l2))))
		return true;
	return !phys_collisions_may_touch(w, e->v, c1, c2);
}

pair_values
pair_of(const simbody_engine *e, SimTK::ContactSurfaceIndex s1,
    SimTK::ContactSurfaceIndex s2)
{
	const struct phys_value *phys = vals(e, PHYS_S_PHYSICS, 0);
	pair_values p;
	double mus[2], mud[2];

	const made_surface &m1 = e->m->surface[s1], &m2 = e->m->surface[s2];

	p.c1 = m1.collision;
	p.c2 = m2.collision;
	if (!(meets(m1.kind) & m2.kind) || !(meets(m2.kind) & m1.kind) ||
	    p.c1 < 0 || p.c2 < 0 || pair_excluded(e, p.c1, p.c2)) {
		p.excluded = true;
		return p;
	}
	const struct phys_value *a, *b;

	phys_contact_surfaces(e->w, e->v, p.c1, p.c2, &a, &b);
	p.no_force = phys_contact_without_force(a, b);
	p.k1 = stiffness(phys, a);
	p.k2 = stiffness(phys, b);
	p.no_force |= !(p.k1 > 0 && p.k2 > 0);
	surface_friction(phys, a, &mus[0], &mud[0]);
	surface_friction(phys, b, &mus[1], &mud[1]);
	p.mus = fmin(mus[0], mus[1]);
	p.mud = fmin(mud[0], mud[1]);
	p.muv = PVD(phys, PHYSICS_simbody_contact_viscous_friction);
	p.dissipation = dissipation(phys);
	phys_contact_bounce(a, b, &p.restitution, &p.bounce_from);
	p.bounce_from = fmax(p.bounce_from,
	    PVD(phys, PHYSICS_simbody_contact_override_impact_capture_velocity));
	return p;
}

/* A contact's surfaces, the key of its damping. */
std::pair<int, int>
surface_pair(const SimTK::Contact &c)
{
	int a = c.getSurface1(), b = c.getSurface2();

	return std::make_pair(std::min(a, b), std::max(a, b));
}

/*
 * The damping of a contact for its whole duration, chosen when it begins
 * at approach speed v0: what gives the pair's restitution when the
 * impact is fast enough to bounce, else the profile's dissipation (scaled
 * by plain as Simbody's Hertz model scales it). Kept per pair of
 * surfaces, not per contact: a step the integrator rejects and retries
 * finds the contact again under a new id, at a stage already slowed by
 * its force, which gave a bounce 5% short.
 */
double
contact_damping(simbody_engine *e, const SimTK::Contact &overlap,
    const pair_values &p, double v0, double exponent, double plain)
{
	auto it = e->damping.find(surface_pair(overlap));
	double c;

	if (it != e->damping.end())
		return it->second;
	if (p.restitution > 0 && v0 > p.bounce_from && v0 > 0)
		c = damping_for(p.restitution, exponent) / v0;
	else
		c = plain * p.dissipation;
	e->damping[surface_pair(overlap)] = c;
	return c;
}

/* The friction coefficient at slip speed s: from 0 to static over the
 * transition speed, down to dynamic at three times it (Stribeck), with
 * viscous friction growing with the speed. */
double
stribeck(const pair_values &p, double s, double vt)
{
	double x = s / vt, dry;
	auto smooth = [](double u) { return u * u * (3 - 2 * u); };

	if (x >= 3)
		dry = p.mud;
	else if (x >= 1)
		dry = p.mus + (p.mud - p.mus) * smooth((x - 1) / 2);
	else
		dry = p.mus * smooth(x);
	return dry + p.muv * s;
}

/* The normal force fK (1 + c xdot), never pulling, and its friction for
 * the slip velocity; the force on the second surface. */
Vec3
contact_force(const pair_values &p, double fK, double c, double xdot,
    const UnitVec3 &n, const Vec3 &slip, double vt, double *power)
{
	double fN = fK * (1 + c * xdot), s = slip.norm();
	Vec3 f = fN * Vec3(n);

	*power = 0;
	if (fN <= 0)
		return Vec3(0);
	*power = fK * c * xdot * xdot;
	if (s > SimTK::SignificantReal) {
		double ff = fN * stribeck(p, s, vt);

		f -= (ff / s) * slip;
		*power += ff * s;
	}
	return f;
}

/* ---- contact: Hertz between spheres and half-spaces ---- */

/* A point contact as Simbody's trackers find one: the normal away from
 * surface 1, the point midway between the surfaces, the overlap, and the
 * radius of their relative curvature there. */
struct point_contact {
	UnitVec3 n;
	Vec3 origin;
	double depth, R;
};

point_contact
circular(const SimTK::Contact &overlap)
{
	const auto &c = SimTK::CircularPointContact::getAs(overlap);

	return { c.getNormal(), c.getOrigin(), c.getDepth(),
	    c.getEffectiveRadius() };
}

/* An ellipsoid's contact, as a circular one of the mean radius of its
 * two curvatures (Hertz's correction for the ellipse left out). */
point_contact
elliptical(const SimTK::Contact &overlap)
{
	const auto &c = SimTK::EllipticalPointContact::getAs(overlap);
	const Transform &X = c.getContactFrame();
	const SimTK::Vec2 &k = c.getCurvatures();

	return { X.z(), X.p(), c.getDepth(), k[1] > 0 ?
	    1 / sqrt(k[0] * k[1]) : 1 / k[0] };
}

class hertz : public SimTK::ContactForceGenerator {
public:
	hertz(simbody_engine *e_, SimTK::ContactTypeId type,
	    point_contact (*read_)(const SimTK::Contact &)) :
	    SimTK::ContactForceGenerator(type), e(e_), read(read_) {}
	void calcContactForce(const State &s, const SimTK::Contact &overlap,
	    const SpatialVec &V, SimTK::ContactForce &out) const override;
	void calcContactPatch(const State &s, const SimTK::Contact &overlap,
	    const SpatialVec &V, SimTK::ContactPatch &patch) const override
	{
		patch.m_elements.clear();
		calcContactForce(s, overlap, V, patch.m_resultant);
	}
private:
	simbody_engine *e;
	point_contact (*read)(const SimTK::Contact &);
};

/*
 * f = 4/3 E sqrt(R) x^3/2 (1 + c xdot), E combining the two stiffnesses
 * as Simbody does (their 2/3 powers in series), at the point between the
 * surfaces that divides the overlap as their compliances do.
 */
void
hertz::calcContactForce(const State &s, const SimTK::Contact &overlap,
    const SpatialVec &V, SimTK::ContactForce &out) const
{
	pair_values p = pair_of(e, overlap.getSurface1(), overlap.getSurface2());
	point_contact c = read(overlap);
	double x = c.depth, power;

	if (p.excluded || p.no_force || x <= 0 || !(c.R > 0)) {
		out.clear();
		return;
	}
	double k1 = pow(p.k1, 2.0 / 3), k2 = pow(p.k2, 2.0 / 3);
	double s1 = k2 / (k1 + k2), E = pow(k1 * s1, 1.5);
	Vec3 pt = c.origin + (x * (0.5 - s1)) * Vec3(c.n);
	const Transform &X12 = overlap.getTransform();
	Vec3 vel = V[1] + V[0] % (pt - X12.p());
	double xdot = -dot(vel, c.n);
	double fK = 4.0 / 3 * E * sqrt(c.R) * pow(x, 1.5);
	double damp = contact_damping(e, overlap, p, xdot, 1.5, 1.5);
	Vec3 f = contact_force(p, fK, damp, xdot, c.n, vel + xdot * Vec3(c.n),
	    getCompliantContactSubsystem().getTransitionVelocity(), &power);

	out.setTo(overlap.getContactId(), pt, SpatialVec(Vec3(0), f),
	    0.4 * fK * x, power);
}

/* ---- contact: an elastic foundation under each mesh triangle ---- */

class foundation : public SimTK::ContactForceGenerator {
public:
	explicit foundation(simbody_engine *e_) : SimTK::ContactForceGenerator(
	    SimTK::TriangleMeshContact::classTypeId()), e(e_) {}
	void calcContactForce(const State &s, const SimTK::Contact &overlap,
	    const SpatialVec &V, SimTK::ContactForce &out) const override;
	void calcContactPatch(const State &s, const SimTK::Contact &overlap,
	    const SpatialVec &V, SimTK::ContactPatch &patch) const override
	{
		patch.m_elements.clear();
		calcContactForce(s, overlap, V, patch.m_resultant);
	}
private:
	simbody_engine *e;
};

/* One side of a mesh contact: a mesh M, its triangles inside the other
 * surface O, and how O moves in M. */
struct mesh_side {
	bool first;		/* the mesh is surface 1 */
	const SimTK::ContactGeometry::TriangleMesh *mesh;
	const std::set<int> *faces;
	const SimTK::ContactGeometry *other;
	Transform X_MO;
	SpatialVec V_MO;
	double share;		/* of the squish, done by the mesh */
	double area_scale;	/* of its triangles' areas */
};

/* A triangle's spring: where it pushes O, along which normal, by how much
 * overlap, and O's velocity there. False when the triangle is outside. */
bool
face_spring(const mesh_side &m, int face, Vec3 *pt, UnitVec3 *n,
    double *overlap, Vec3 *vel)
{
	Vec3 c = m.mesh->findCentroid(face), o;
	bool inside;
	UnitVec3 normal;

	o = m.X_MO * m.other->findNearestPoint(~m.X_MO * c, inside, normal);
	if (!inside)
		return false;
	Vec3 d = c - o;
	*overlap = d.norm();
	if (*overlap == 0)
		return false;
	*n = UnitVec3(d / *overlap, true);
	*pt = c - (m.share * *overlap) * Vec3(*n);
	*vel = m.V_MO[1] + m.V_MO[0] % (*pt - m.X_MO.p());
	return true;
}

/* The fastest approach over a side's triangles. */
double
approach(const mesh_side &m)
{
	double v0 = 0, overlap;
	Vec3 pt, vel;
	UnitVec3 n;

	for (int f : *m.faces)
		if (face_spring(m, f, &pt, &n, &overlap, &vel))
			v0 = fmax(v0, -dot(vel, n));
	return v0;
}

/* The force and moment (about M's origin, in M) one side's springs apply
 * to O; their potential energy and power added up. */
SpatialVec
side_force(const mesh_side &m, const pair_values &p, double kh, double damp,
    double vt, double *pe, double *power)
{
	SpatialVec F(Vec3(0), Vec3(0));

	for (int f : *m.faces) {
		Vec3 pt, vel, force;
		UnitVec3 n;
		double overlap, fK, pw;

		if (!face_spring(m, f, &pt, &n, &overlap, &vel))
			continue;
		fK = kh * m.area_scale * m.mesh->getFaceArea(f) * overlap;
		double xdot = -dot(vel, n);
		force = contact_force(p, fK, damp, xdot, n, vel + xdot * Vec3(n),
		    vt, &pw);
		F += SpatialVec(pt % force, force);
		*pe += fK * overlap / 2;
		*power += pw;
	}
	return F;
}

double
patch_area(const SimTK::ContactGeometry::TriangleMesh &mesh,
    const std::set<int> &faces)
{
	double a = 0;

	for (int f : faces)
		a += mesh.getFaceArea(f);
	return a;
}

/* A side's area as the patch needs it: the whole when the other side is
 * a mesh too (the areas are made equal), else only whether it has any
 * (the first triangle with area says so; a pass over all of them was 2%
 * of a step). */
double
side_area(const SimTK::ContactGeometry::TriangleMesh *mesh,
    const std::set<int> &faces, bool whole)
{
	if (!mesh)
		return 0;
	if (whole)
		return patch_area(*mesh, faces);
	for (int f : faces)
		if (mesh->getFaceArea(f) > 0)
			return mesh->getFaceArea(f);
	return 0;
}

const SimTK::ContactGeometry::TriangleMesh *
as_mesh(const SimTK::ContactGeometry &g)
{
	if (g.getTypeId() != SimTK::ContactGeometry::TriangleMesh::classTypeId())
		return nullptr;
	return &SimTK::ContactGeometry::TriangleMesh::getAs(g);
}

/*
 * A sphere on a mesh: one Hertz contact where the mesh is nearest its
 * centre (the triangles are flat: the radius is the sphere's), rather
 * than springs under triangles a small sphere may fall between.
 */
void
sphere_on_mesh(simbody_engine *e, const SimTK::Contact &c, const SpatialVec &V,
    const pair_values &p, const SimTK::ContactGeometry::TriangleMesh &mesh,
    double r, bool sphere_first, double vt, SimTK::ContactForce &out)
{
	const Transform &X12 = c.getTransform();
	/* The centre in the mesh's frame, and the mesh's nearest point. */
	Vec3 centre = sphere_first ? (~X12).p() : X12.p();
	bool inside;
	UnitVec3 nm;
	Vec3 q = mesh.findNearestPoint(centre, inside, nm), d = centre - q;
	double dist = d.norm(), x = inside ? r + dist : r - dist, power;

	if (x <= 0 || dist == 0) {
		out.clear();
		return;
	}
	/* From the mesh towards the centre, and the mesh's point, in S1. */
	Vec3 out_dir = (inside ? -1 : 1) * d / dist, at = q;
	if (sphere_first)
		out_dir = X12.R() * out_dir, at = X12 * q;
	/* The normal from surface 1 towards 2. */
	UnitVec3 n2((sphere_first ? -1.0 : 1.0) * out_dir, true);
	double k1 = pow(p.k1, 2.0 / 3), k2 = pow(p.k2, 2.0 / 3);
	double s1 = k2 / (k1 + k2), E = pow(k1 * s1, 1.5);
	/* The mesh gives way by its share of the overlap. */
	Vec3 pt = at - (x * (sphere_first ? 1 - s1 : s1)) * out_dir;
	Vec3 vel = V[1] + V[0] % (pt - X12.p());
	double xdot = -dot(vel, n2);
	double fK = 4.0 / 3 * E * sqrt(r) * pow(x, 1.5);
	double damp = contact_damping(e, c, p, xdot, 1.5, 1.5);
	Vec3 f = contact_force(p, fK, damp, xdot, n2, vel + xdot * Vec3(n2),
	    vt, &power);

	out.setTo(c.getContactId(), pt, SpatialVec(Vec3(0), f), 0.4 * fK * x,
	    power);
}

const SimTK::ContactGeometry::Sphere *
as_sphere(const SimTK::ContactGeometry &g)
{
	if (g.getTypeId() != SimTK::ContactGeometry::Sphere::classTypeId())
		return nullptr;
	return &SimTK::ContactGeometry::Sphere::getAs(g);
}

/* Thrown out of Simbody's reckoning where the step's work has passed
 * its bound (over_budget). Simbody's integrator takes it for a failed
 * evaluation and retries on shorter steps, each thrown again (by the
 * joints' forces, before the contacts are tracked), until it gives up
 * on a step too short, or lets it through: either way e->spent tells
 * it from Simbody's own failures. */
struct over_budget_now : std::exception {};

/* A flag set for as long as it lives, however its scope ends. */
struct step_scope {
	bool &on;
	explicit step_scope(bool &f) : on(f) { on = true; }
	~step_scope() { on = false; }
};

/* What reckoning contact c costs: its triangles, counted against the
 * step's bound (over_budget), and the costliest pair so far. */
void
note_cost(simbody_engine *e, const SimTK::TriangleMeshContact &c,
    const pair_values &p)
{
	size_t faces = c.getSurface1Faces().size() +
	    c.getSurface2Faces().size();

	e->faces_worked += faces;
	if (p.c1 == e->costliest[0] && p.c2 == e->costliest[1])
		e->costliest_worked += faces;
	if (faces > e->costliest_faces) {
		if (p.c1 != e->costliest[0] || p.c2 != e->costliest[1])
			e->costliest_worked = faces;
		e->costliest_faces = faces;
		e->costliest[0] = p.c1;
		e->costliest[1] = p.c2;
	}
	/* Simbody's tracker finds such contacts again at each of its
	 * reckonings, before their forces: a world of pairs deep inside
	 * each other spent minutes in one chunk of its steps. */
	if (e->stepping && e->faces_worked > MAX_FACES_WORKED) {
		e->spent = true;
		throw over_budget_now();
	}
}

/* How many times coarser one mesh's triangles in contact may be than the
 * other's before only the finer carry springs. */
const double COARSER = 4;

/*
 * Of two meshes in contact (in-contact areas *a1 and *a2 both above 0),
 * a side whose triangles are far coarser than the other's (a terrain's
 * cells under a box) gets no springs: its few triangles, each carrying
 * half of the patch at its centroid, pushed unevenly, and boxes sent
 * sliding over a flat heightmap of 0.125 m cells turned up to 0.22 rad
 * and stopped 6% short. The finer side's springs alone give the
 * pressure, as a box's do on a plane. Its area is set to 0.
 */
void
finer_side(const SimTK::TriangleMeshContact &c, double *a1, double *a2)
{
	if (!(*a1 > 0 && *a2 > 0))
		return;
	double f1 = *a1 / (double)c.getSurface1Faces().size();
	double f2 = *a2 / (double)c.getSurface2Faces().size();

	if (f1 > COARSER * f2)
		*a1 = 0;
	else if (f2 > COARSER * f1)
		*a2 = 0;
}

/*
 * Pressure k x / h on each triangle of a mesh inside the other surface,
 * the stiffnesses in series; when both are meshes each side carries half
 * of the patch, their areas made equal (Simbody's elastic foundation).
 */
void
foundation::calcContactForce(const State &s, const SimTK::Contact &overlap,
    const SpatialVec &V, SimTK::ContactForce &out) const
{
	const auto &c = SimTK::TriangleMeshContact::getAs(overlap);
	pair_values p = pair_of(e, c.getSurface1(), c.getSurface2());
	const auto &tracker = getCompliantContactSubsystem()
	    .getContactTrackerSubsystem();
	const SimTK::ContactGeometry &g1 =
	    tracker.getContactSurface(c.getSurface1()).getShape();
	const SimTK::ContactGeometry &g2 =
	    tracker.getContactSurface(c.getSurface2()).getShape();
	const auto *m1 = as_mesh(g1), *m2 = as_mesh(g2);
	double vt = getCompliantContactSubsystem().getTransitionVelocity();
	double kh1 = p.k1 / THICKNESS, kh2 = p.k2 / THICKNESS;
	double s1 = kh2 / (kh1 + kh2), kh = kh1 * s1;
	double a1 = side_area(m1, c.getSurface1Faces(), m2 != nullptr);
	double a2 = side_area(m2, c.getSurface2Faces(), m1 != nullptr);
	double pe = 0, power = 0, v0 = 0, damp;
	mesh_side side[2];
	int n = 0;

	/* the tracker's work is done, with force or not */
	note_cost(e, c, p);
	if (p.excluded || p.no_force || (a1 <= 0 && a2 <= 0)) {
		out.clear();
		return;
	}
	if (as_sphere(g1) && m2) {
		sphere_on_mesh(e, c, V, p, *m2, as_sphere(g1)->getRadius(), true,
		    vt, out);
		return;
	}
	if (as_sphere(g2) && m1) {
		sphere_on_mesh(e, c, V, p, *m1, as_sphere(g2)->getRadius(),
		    false, vt, out);
		return;
	}
	finer_side(c, &a1, &a2);
	const Transform &X12 = c.getTransform();
	if (a1 > 0)
		side[n++] = { true, m1, &c.getSurface1Faces(), &g2, X12, V, s1,
		    a2 > 0 ? (a1 + a2) / 4 / a1 : 1 };
	if (a2 > 0)
		side[n++] = { false, m2, &c.getSurface2Faces(), &g1, ~X12,
		    SimTK::reverseRelativeVelocity(X12, V), 1 - s1,
		    a1 > 0 ? (a1 + a2) / 4 / a2 : 1 };
	if (!e->damping.count(surface_pair(c)))
		for (int i = 0; i < n; i++)
			v0 = fmax(v0, approach(side[i]));
	damp = contact_damping(e, c, p, v0, 1, 1);
	SpatialVec F(Vec3(0), Vec3(0));
	for (int i = 0; i < n; i++) {
		SpatialVec f = side_force(side[i], p, kh, damp, vt, &pe, &power);

		if (side[i].first)
			F += f;	/* on surface 2 already, in S1 */
		else	/* on surface 1, in S2: to the force on 2, in S1 */
			F -= SpatialVec(X12.R() * f[0] + X12.p() %
			    (X12.R() * f[1]), X12.R() * f[1]);
	}
	out.setTo(c.getContactId(), Vec3(0), F, pe, power);
}

/* ---- bodies ---- */

/*
 * A link's mass as every engine takes it (phys_link_mass_prepare), its
 * tensor raised where Simbody, which refuses any other, must have it:
 * each principal moment at least mass * PHYS_MIN_GYRATION^2, and the
 * triangle inequality.
 */
const struct phys_mass_rules simbody_mass = {
	.engine = "Simbody",
	.form = PHYS_INERTIA_RIGID,
	.stand_in = PHYS_STAND_IN_ALWAYS,
	.range = PHYS_MASS_RANGE,
};

/* Mass and inertia about the centre of mass in the link frame, as the
 * run's values give them. */
int
link_mass(simbody_engine *e, int li, bool at_load, SimTK::MassProperties *mp)
{
	const struct phys_link *l = &e->w->links[li];
	slink &sl = e->links[(size_t)li];
	long line = at_load ? phys_link_inertial_line(l) : -1;
	const char *file = at_load ? phys_node_file(l->doc, l->node) :
	    nullptr;
	struct phys_link_mass lm;
	int rc = phys_link_mass_prepare(e->w, e->v, li, &simbody_mass,
	    at_load, line, false, &lm);
	phys_mat3 I = lm.tensor;
	double mass = lm.mass;

	memcpy(sl.inertia, lm.given, sizeof sl.inertia);
	if (rc < 0)
		return -1;
	sl.mass = mass;
	sl.inertial = lm.frame;
	/* The tensor in the link frame, about the centre of mass. */
	I = phys_inertia_rotate(I, phys_quat_to_mat3(sl.inertial.q));
	SimTK::Mat33 M;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			M(i, j) = I.m[i][j];
	Vec3 com = sv(sl.inertial.p);
	try {
		sl.com_inertia = SimTK::Inertia(M);
		*mp = SimTK::MassProperties(mass, com,
		    sl.com_inertia.shiftFromMassCenter(com, mass));
	} catch (const std::exception &ex) {
		return phys_failat(file, line, "link '%s': Simbody refuses its "
		    "inertia", l->name);
	}
	return 0;
}

/* ---- shapes ---- */

/* A closed triangle mesh, faces turned outwards if they were not. */
SimTK::ContactGeometry
closed_mesh(const std::vector<Vec3> &vx, std::vector<int> faces)
{
	double vol = 0;

	for (size_t i = 0; i + 2 < faces.size(); i += 3)
		vol += dot(vx[(size_t)faces[i]], vx[(size_t)faces[i + 1]] %
		    vx[(size_t)faces[i + 2]]);
	if (vol < 0)
		for (size_t i = 0; i + 2 < faces.size(); i += 3)
			std::swap(faces[i + 1], faces[i + 2]);
	return SimTK::ContactGeometry::TriangleMesh(vx, faces);
}

/* Every triangle split in four at its edges' midpoints, each shared by
 * the two triangles of its edge: the mesh stays closed. */
void
subdivide(std::vector<Vec3> &vx, std::vector<int> &faces)
{
	std::map<std::pair<int, int>, int> mid;
	std::vector<int> out;
	auto middle = [&](int a, int b) {
		auto k = std::make_pair(std::min(a, b), std::max(a, b));
		auto it = mid.find(k);

		if (it != mid.end())
			return it->second;
		vx.push_back((vx[(size_t)a] + vx[(size_t)b]) / 2);
		return mid[k] = (int)vx.size() - 1;
	};

	for (size_t i = 0; i + 2 < faces.size(); i += 3) {
		int a = faces[i], b = faces[i + 1], c = faces[i + 2];
		int ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);

		out.insert(out.end(), { a, ab, ca, ab, b, bc, ca, bc, c,
		    ab, bc, ca });
	}
	faces.swap(out);
}

double
longest_edge(const std::vector<Vec3> &vx, const std::vector<int> &faces)
{
	double m = 0;

	for (size_t i = 0; i + 2 < faces.size(); i += 3)
		for (int k = 0; k < 3; k++)
			m = fmax(m, (vx[(size_t)faces[i + k]] -
			    vx[(size_t)faces[i + (k + 1) % 3]]).norm());
	return m;
}

/*
 * A mesh of the world's, its triangles split until none is longer than a
 * quarter of the mesh's size (up to 4000 triangles): the elastic
 * foundation puts one spring under each, and a box of 12 would stand on
 * its two triangles' centres like a stool on two legs.
 */
SimTK::ContactGeometry
phys_mesh_geometry(const struct phys_mesh *m)
{
	std::vector<Vec3> vx(m->nv);
	std::vector<int> faces(3 * m->ntri);
	double size = (sv(m->hi) - sv(m->lo)).norm();

	for (size_t i = 0; i < m->nv; i++)
		vx[i] = Vec3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
	for (size_t i = 0; i < 3 * m->ntri; i++)
		faces[i] = (int)m->tri[i];
	while (faces.size() / 3 * 4 <= 4000 &&
	    longest_edge(vx, faces) > size / 4)
		subdivide(vx, faces);
	return closed_mesh(vx, faces);
}

/* A closed solid of rings about z: vx holds a top pole, nrings rings of
 * around vertices each from the top down, and a bottom pole; its faces
 * fan out from the poles and join each ring to the next. */
SimTK::ContactGeometry
ringed_solid(const std::vector<Vec3> &vx, int around, int nrings)
{
	std::vector<int> f;
	int last = (int)vx.size() - 1;

	for (int j = 0; j < around; j++) {
		int j1 = (j + 1) % around;

		f.insert(f.end(), { 0, 1 + j, 1 + j1 });
		for (int i = 0; i + 1 < nrings; i++) {
			int a = 1 + i * around, b = a + around;

			f.insert(f.end(), { a + j, b + j, b + j1 });
			f.insert(f.end(), { a + j, b + j1, a + j1 });
		}
		int a = 1 + (nrings - 1) * around;
		f.insert(f.end(), { a + j, last, a + j1 });
	}
	return closed_mesh(vx, f);
}

/* A capsule along z: two hemispheres of rings joined by the cylinder. */
SimTK::ContactGeometry
capsule_geometry(double r, double len)
{
	const int around = 16, rings = 4;	/* rings per cap, pole apart */
	std::vector<Vec3> vx;

	vx.push_back(Vec3(0, 0, len / 2 + r));
	for (int cap = 0; cap < 2; cap++)
		for (int i = 1; i <= rings; i++) {
			double a = M_PI / 2 * (cap ? rings + 1 - i : i) / rings;
			double z = (cap ? -1 : 1) * (len / 2 + r * cos(a));

			for (int j = 0; j < around; j++) {
				double b = 2 * M_PI * j / around;

				vx.push_back(Vec3(r * sin(a) * cos(b),
				    r * sin(a) * sin(b), z));
			}
		}
	vx.push_back(Vec3(0, 0, -len / 2 - r));
	return ringed_solid(vx, around, 2 * rings);
}

/* A cylinder along z: CYLINDER_SIDES sides, CYLINDER_RINGS lengths. */
SimTK::ContactGeometry
cylinder_geometry(double r, double len)
{
	const int around = CYLINDER_SIDES, rings = CYLINDER_RINGS;
	std::vector<Vec3> vx;

	vx.push_back(Vec3(0, 0, len / 2));
	for (int i = 0; i <= rings; i++)
		for (int j = 0; j < around; j++) {
			double b = 2 * M_PI * j / around;

			vx.push_back(Vec3(r * cos(b), r * sin(b),
			    len / 2 - len * i / rings));
		}
	vx.push_back(Vec3(0, 0, -len / 2));
	return ringed_solid(vx, around, rings + 1);
}

/* A heightmap as a closed solid: its surface, walls down to a floor a
 * metre below its lowest point, and the floor. */
SimTK::ContactGeometry
terrain_geometry(const struct phys_heightmap *hm)
{
	size_t nx = hm->nx, ny = hm->ny;
	double dx = hm->size[0] / (double)(nx - 1);
	double dy = hm->size[1] / (double)(ny - 1);
	double floor = hm->lo - 1;
	std::vector<Vec3> vx;
	std::vector<int> f, rim;

	for (size_t r = 0; r < ny; r++)
		for (size_t c = 0; c < nx; c++)
			vx.push_back(Vec3(hm->pos[0] - hm->size[0] / 2 +
			    (double)c * dx, hm->pos[1] + hm->size[1] / 2 -
			    (double)r * dy, hm->h[r * nx + c]));
	auto at = [nx](size_t r, size_t c) { return (int)(r * nx + c); };
	for (size_t r = 0; r + 1 < ny; r++)
		for (size_t c = 0; c + 1 < nx; c++) {
			f.insert(f.end(), { at(r, c), at(r + 1, c),
			    at(r, c + 1) });
			f.insert(f.end(), { at(r, c + 1), at(r + 1, c),
			    at(r + 1, c + 1) });
		}
	/* The rim, once around counterclockwise seen from above. */
	for (size_t c = 0; c + 1 < nx; c++)
		rim.push_back(at(ny - 1, c));
	for (size_t r = ny - 1; r > 0; r--)
		rim.push_back(at(r, nx - 1));
	for (size_t c = nx - 1; c > 0; c--)
		rim.push_back(at(0, c));
	for (size_t r = 0; r + 1 < ny; r++)
		rim.push_back(at(r, 0));
	int base = (int)vx.size(), n = (int)rim.size();
	for (int i = 0; i < n; i++) {
		Vec3 p = vx[(size_t)rim[(size_t)i]];

		vx.push_back(Vec3(p[0], p[1], floor));
	}
	int centre = (int)vx.size();
	vx.push_back(Vec3(hm->pos[0], hm->pos[1], floor));
	for (int i = 0; i < n; i++) {
		int j = (i + 1) % n;

		f.insert(f.end(), { rim[(size_t)i], base + i, base + j });
		f.insert(f.end(), { rim[(size_t)i], base + j, rim[(size_t)j] });
		f.insert(f.end(), { base + j, base + i, centre });
	}
	return closed_mesh(vx, f);
}

int
refuse_shape(const struct phys_collision *c, const char *why)
{
	return phys_failat(PHYS_AT(c->doc, c->node),
	    "collision '%s': %s", c->name, why);
}

/* A shape Simbody collides, where in the collision frame, of what kind. */
struct shape {
	SimTK::ContactGeometry g;
	unsigned kind;
	Transform at;
};

/* Said once before the run: how slow a mesh of ntri triangles makes
 * Simbody's elastic foundation. */
void
warn_slow(const struct phys_collision *c, size_t ntri)
{
	phys_warnat(PHYS_AT(c->doc, c->node),
	    "collision '%s': %zu triangles, which Simbody's elastic "
	    "foundation springs one by one: each in contact takes about "
	    "%g ms of processor time a simulated second on a plane and %g ms "
	    "on another mesh (a sixth of them on a mesh: about %.0f s)",
	    c->name, ntri, TRIANGLE_COST_PLANE * 1e3, TRIANGLE_COST_MESH * 1e3,
	    ntri / 6.0 * TRIANGLE_COST_MESH);
}

/*
 * An open mesh (a robot's link as CAD exported it, not watertight: 42
 * of 65 example-robot-data robots) collides as its convex hull, as
 * MuJoCo collides every mesh: Simbody's elastic foundation needs an
 * inside. Said once at load; false for a flat mesh, which has no hull.
 */
static bool
hull_instead(const struct phys_collision *wc, const struct phys_mesh *m,
    bool at_load, std::vector<shape> &out)
{
	struct phys_mesh *hull = phys_mesh_hull(m);
	bool made = false;

	if (!hull)
		return false;
	try {
		out.push_back({ phys_mesh_geometry(hull), K_MESH,
		    Transform() });
		made = true;
	} catch (const std::exception &ex) {
		out.clear();
	}
	phys_mesh_free(hull);
	if (made && at_load)
		phys_warnat(PHYS_AT(wc->doc, wc->node), "collision '%s': an "
		    "open mesh, which Simbody's elastic foundation cannot "
		    "collide (it needs an inside): its convex hull collides "
		    "instead, as under MuJoCo", wc->name);
	return made;
}

/* A box's or a cylinder's mesh at c's sizes: made once for each shape
 * and sizes (the reference is good until the next call). */
const SimTK::ContactGeometry::TriangleMesh &
solid_geometry(simbody_engine *e, const struct phys_collision *c)
{
	bool box = c->shape == PHYS_GEOM_BOX;
	std::array<double, 4> key = { (double)c->shape, c->size[0],
	    c->size[1], box ? c->size[2] : 0 };
	auto it = e->solids.find(key);

	if (it != e->solids.end())
		return it->second;
	/* sizes set during a run add theirs: at most so many kept */
	if (e->solids.size() >= 1024)
		e->solids.clear();
	if (!box)
		return e->solids.emplace(key, SimTK::ContactGeometry::
		    TriangleMesh::getAs(cylinder_geometry(c->size[0],
		    c->size[1]))).first->second;
	return e->solids.emplace(key, SimTK::ContactGeometry::TriangleMesh(
	    SimTK::PolygonalMesh::createBrickMesh(Vec3(c->size[0] / 2,
	    c->size[1] / 2, c->size[2] / 2), BOX_RESOLUTION))).first->second;
}

/*
 * The shapes of collision ci at the run's sizes, centred on its frame
 * (an ellipsoid and a capsule more than one: see meets()); none when it
 * is skipped (--skip-unsupported, with a warning at load); -1 with
 * phys_error().
 */
int
make_shapes(simbody_engine *e, int ci, bool moving, bool at_load,
    std::vector<shape> &out)
{
	const struct phys_collision *wc = &e->w->collisions[ci];
	struct phys_collision c;
	struct phys_mesh *own;
	bool closed = true;

	if (phys_engine_collision(wc, vals(e, PHYS_S_COLLISION, ci), &c,
	    &own) < 0)
		return -1;
	if (c.shape == PHYS_GEOM_HEIGHTMAP && moving) {
		phys_mesh_free(own);
		return refuse_shape(wc, "a heightmap must belong to a static "
		    "model");
	}
	if (c.shape == PHYS_GEOM_PLANE && moving) {
		phys_mesh_free(own);
		return refuse_shape(wc, "a plane must belong to a static model");
	}
	if (phys_collision_zero_size(&c)) {
		phys_mesh_free(own);
		if (!e->skip_unsupported)
			return refuse_shape(wc, PHYS_ZERO_SIZE_WHY("Simbody")
			    " (--skip-unsupported skips it)");
		if (at_load)
			phys_warnat(PHYS_AT(wc->doc, wc->node), "skipping "
			    "collision '%s': %s", wc->name,
			    PHYS_ZERO_SIZE_WHY("Simbody"));
		return 0;
	}
	size_t ntri = c.shape == PHYS_GEOM_HEIGHTMAP ? 2 * (c.heightmap->nx -
	    1) * (c.heightmap->ny - 1) : c.shape == PHYS_GEOM_MESH ||
	    c.shape == PHYS_GEOM_ELLIPSOID || c.shape == PHYS_GEOM_CONE ?
	    c.mesh->ntri : 0;
	std::size_t all = ntri;
	for (const auto &t : e->triangles)
		all += t.first == ci ? 0 : t.second;
	if (all > MAX_TRIANGLES) {
		phys_mesh_free(own);
		if (all == ntri)
			return phys_failat(PHYS_AT(wc->doc, wc->node),
			    "collision '%s': %zu triangles; the Simbody engine "
			    "takes at most %zu (a coarser mesh or heightmap)",
			    wc->name, ntri, MAX_TRIANGLES);
		return phys_failat(PHYS_AT(wc->doc, wc->node),
		    "collision '%s': the world's meshes and heightmaps have "
		    "%zu triangles with its %zu; the Simbody engine takes at "
		    "most %zu together (coarser meshes or heightmaps)",
		    wc->name, all, ntri, MAX_TRIANGLES);
	}
	if (ntri)
		e->triangles[ci] = ntri;
	else
		e->triangles.erase(ci);
	if (at_load && (c.shape == PHYS_GEOM_MESH || c.shape ==
	    PHYS_GEOM_HEIGHTMAP) && ntri / 6.0 * TRIANGLE_COST_MESH >= 1)
		warn_slow(wc, ntri);
	try {
		switch (c.shape) {
		case PHYS_GEOM_SPHERE:
			out.push_back({ SimTK::ContactGeometry::Sphere(
			    c.size[0]), K_SPHERE, Transform() });
			break;
		case PHYS_GEOM_BOX:
		case PHYS_GEOM_CYLINDER:
			out.push_back({ solid_geometry(e, &c), K_MESH,
			    Transform() });
			break;
		case PHYS_GEOM_CAPSULE:
			for (int end = -1; end <= 1; end += 2)
				out.push_back({ SimTK::ContactGeometry::Sphere(
				    c.size[0]), K_CAPSULE_END, Transform(Vec3(0,
				    0, end * c.size[1] / 2)) });
			out.push_back({ capsule_geometry(c.size[0], c.size[1]),
			    K_CAPSULE_MESH, Transform() });
			break;
		case PHYS_GEOM_ELLIPSOID:
			out.push_back({ SimTK::ContactGeometry::Ellipsoid(Vec3(
			    c.size[0], c.size[1], c.size[2])), K_ELLIPSOID,
			    Transform() });
			out.push_back({ phys_mesh_geometry(c.mesh),
			    K_ELLIPSOID_MESH, Transform() });
			break;
		case PHYS_GEOM_MESH:
		case PHYS_GEOM_CONE:	/* a pyramid of 32 sides */
			if ((closed = c.mesh->closed))
				out.push_back({ phys_mesh_geometry(c.mesh),
				    K_MESH, Transform() });
			break;
		case PHYS_GEOM_HEIGHTMAP:
			out.push_back({ terrain_geometry(c.heightmap), K_MESH,
			    Transform() });
			break;
		case PHYS_GEOM_PLANE:
			out.push_back({ SimTK::ContactGeometry::HalfSpace(),
			    K_PLANE, Transform() });
			break;
		}
	} catch (const std::bad_alloc &) {
		phys_mesh_free(own);
		throw;		/* no memory, not an open mesh */

	} catch (const std::exception &ex) {
		closed = false;	/* Simbody found it open or torn */
		out.clear();
	}
	if (!closed && c.shape == PHYS_GEOM_MESH)
		closed = hull_instead(wc, c.mesh, at_load, out);
	phys_mesh_free(own);
	if (closed)
		return 0;
	/* Simbody's elastic foundation needs an inside. */
	if (!e->skip_unsupported)
		return refuse_shape(wc, "the Simbody engine collides only "
		    "closed meshes (its elastic foundation needs an inside; "
		    "--skip-unsupported skips it)");
	if (at_load)
		phys_warnat(PHYS_AT(wc->doc, wc->node),
		    "skipping collision '%s': not a closed mesh, which "
		    "Simbody cannot collide", wc->name);
	return 0;
}

/* The surface's frame in its body: a half-space's outward normal is its
 * -x axis, turned onto the plane's normal. */
Transform
surface_frame(const struct phys_collision *c, phys_pose in_body)
{
	Transform X = stf(in_body);

	if (c->shape == PHYS_GEOM_PLANE)
		X = Transform(X.R() * Rotation(-UnitVec3(sv(c->normal)),
		    SimTK::XAxis), X.p());
	return X;
}

/* The collisions of link li on its body, each a contact surface (the
 * generators read the run's values at every contact), joining the
 * link's cliques and its collision's own (apart, by collision). */
int
add_surfaces(simbody_engine *e, model &m, int li, bool at_load,
    const std::vector<SimTK::ContactCliqueId> &cliques,
    const std::vector<std::vector<SimTK::ContactCliqueId>> &apart)
{
	const struct phys_link *l = &e->w->links[li];
	const slink &sl = e->links[(size_t)li];
	MobilizedBody &body = m.matter.updMobilizedBody(sl.mobod);
	SimTK::ContactMaterial material(PVD(vals(e, PHYS_S_PHYSICS, 0),
	    PHYSICS_simbody_contact_stiffness), 0, 0, 0, 0);

	for (int ci = l->first_collision; ci < l->first_collision +
	    l->ncollisions; ci++) {
		const struct phys_collision *c = &e->w->collisions[ci];
		phys_pose at = sl.dynamic ? c->pose : phys_pose_mul(l->pose,
		    c->pose);
		std::vector<shape> shapes;

		if (make_shapes(e, ci, sl.dynamic, at_load, shapes) < 0)
			return -1;
		for (const shape &sh : shapes) {
			SimTK::ContactSurface surface(sh.g, material, THICKNESS);
			made_surface made;

			for (SimTK::ContactCliqueId clique : cliques)
				surface.joinClique(clique);
			for (SimTK::ContactCliqueId clique : apart[(size_t)ci])
				surface.joinClique(clique);
			made.collision = ci;
			made.body = (int)sl.mobod;
			made.ordinal = body.updBody().addContactSurface(
			    surface_frame(c, at) * sh.at, surface);
			made.kind = sh.kind;
			m.made.push_back(made);
		}
	}
	return 0;
}

/* ---- the tree of bodies ---- */

const char *const joint_type_names[] = {
	"revolute", "prismatic", "weld", "ball", "universal", "revolute2",
	"screw", "gearbox"
};

/* A joint's frame, in the world at load: its origin at the anchor; z
 * along the axis of a pin or screw, x along a slider's, x along a
 * universal joint's second axis and y along its first. */
Transform
joint_frame(const struct phys_joint *j)
{
	Vec3 p = sv(j->pose.p);
	UnitVec3 a1(sv(j->axis[0])), a2;

	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
	case PHYS_JOINT_SCREW:
		return Transform(Rotation(a1, SimTK::ZAxis), p);
	case PHYS_JOINT_PRISMATIC:
		return Transform(Rotation(a1, SimTK::XAxis), p);
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		/* The second axis turns with the parent, the first with the
		 * child, as ODE and MuJoCo make them: x then y of Simbody's
		 * universal joint. ODE's hinge-2 measures its second angle
		 * the other way round, as MuJoCo's then does. */
		a2 = UnitVec3(sv(j->axis[1]));
		if (j->type == PHYS_JOINT_REVOLUTE2)
			a2 = -a2;
		return Transform(Rotation(a2, SimTK::XAxis, sv(j->axis[0]),
		    SimTK::YAxis), p);
	default:
		return Transform(srot(j->pose.q), p);
	}
}

int
refuse_joint(const struct phys_joint *j, const char *why)
{
	return phys_failat(PHYS_AT(j->doc, j->node),
	    "joint '%s': %s", j->name, why);
}

/* A link's pose at load; the world's frame for the world and statics. */
phys_pose
load_pose(const simbody_engine *e, int li)
{
	return is_static(e->w, li) ? PHYS_POSE_IDENTITY : e->w->links[li].pose;
}

/*
 * The mobilizer of joint ji between inboard and outboard bodies: frames F
 * and M coincide at load, where every coordinate is zero; reversed when
 * the tree runs from the joint's child to its parent (its coordinates
 * still those of the child in the parent).
 */
MobilizedBody
joint_mobilizer(simbody_engine *e, int ji, MobilizedBody &inboard,
    const SimTK::MassProperties &mp, bool reversed)
{
	const struct phys_joint *j = &e->w->joints[ji];
	Transform J = joint_frame(j);
	Transform X_PF = ~stf(load_pose(e, j->parent)) * J;
	Transform X_CM = ~stf(load_pose(e, j->child)) * J;
	Transform in = reversed ? X_CM : X_PF, out = reversed ? X_PF : X_CM;
	auto dir = reversed ? MobilizedBody::Reverse : MobilizedBody::Forward;
	SimTK::Body::Rigid body(mp);

	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
		return MobilizedBody::Pin(inboard, in, body, out, dir);
	case PHYS_JOINT_PRISMATIC:
		return MobilizedBody::Slider(inboard, in, body, out, dir);
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		return MobilizedBody::Universal(inboard, in, body, out, dir);
	case PHYS_JOINT_SCREW:
		return MobilizedBody::Screw(inboard, in, body, out,
		    phys_joint_screw_lead(vals(e, PHYS_S_JOINT, ji)), dir);
	case PHYS_JOINT_BALL:
		return MobilizedBody::Ball(inboard, in, body, out, dir);
	default:
		return MobilizedBody::Weld(inboard, in, body, out);
	}
}

/* What Simbody cannot make of a joint, refused naming its line. */
int
check_joint(const simbody_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];

	if ((j->type == PHYS_JOINT_UNIVERSAL || j->type ==
	    PHYS_JOINT_REVOLUTE2) && fabs(v3_dot(v3_normalize(j->axis[0]),
	    v3_normalize(j->axis[1]))) > 1e-6)
		return refuse_joint(j, "the Simbody engine's universal joint "
		    "needs perpendicular axes");
	return 0;
}

/* The graph of links and joints, for the graph maker to make a tree of;
 * taken from the world as loaded, so the same tree every time. */
void
graph_input(const simbody_engine *e, SimTK::MultibodyGraphMaker &g,
    std::vector<int> &ids)
{
	const struct phys_scene *w = e->w;

	g.addJointType("revolute", 1);
	g.addJointType("prismatic", 1);
	g.addJointType("ball", 3);
	g.addJointType("universal", 2);
	g.addJointType("revolute2", 2);
	g.addJointType("screw", 1);
	g.addBody("ground", SimTK::Infinity, false);
	/* A kinematic link is a base body, whose velocities Simbody locks:
	 * a joint that would hold it closes a loop (an MJCF mocap body's
	 * weld). */
	for (size_t i = 0; i < w->nlinks; i++)
		if (!is_static(w, (int)i))
			g.addBody(std::to_string(i), PVD(w->links[i].vals,
			    LINK_inertial_mass) > 0 ? PVD(w->links[i].vals,
			    LINK_inertial_mass) : 1, PVB(w->links[i].vals,
			    LINK_must_be_base_link) || PVB(w->links[i].vals,
			    LINK_kinematic), &ids[i]);
	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];
		std::string p = is_static(w, j->parent) ? "ground" :
		    std::to_string(j->parent);
		std::string c = is_static(w, j->child) ? "ground" :
		    std::to_string(j->child);

		if (p == c || j->type == PHYS_JOINT_GEARBOX)
			continue;
		g.addJoint("j" + std::to_string(i), joint_type_names[j->type],
		    p, c, PVB(j->vals, JOINT_physics_simbody_must_be_loop_joint),
		    &ids[w->nlinks + i]);
	}
}

int
ref_index(void *ref)
{
	return ref ? *static_cast<int *>(ref) : -1;
}

/* The mobilizers, in the order of the tree; -1 with phys_error(). */
int
make_tree(simbody_engine *e, model &m, const SimTK::MultibodyGraphMaker &g,
    bool at_load)
{
	const struct phys_scene *w = e->w;
	std::vector<SimTK::MassProperties> mp(w->nlinks);

	for (size_t i = 0; i < w->nlinks; i++) {
		e->links[i].dynamic = !is_static(w, (int)i);
		e->links[i].mobod = SimTK::GroundIndex;
		if (e->links[i].dynamic && link_mass(e, (int)i, at_load,
		    &mp[i]) < 0)
			return -1;
	}
	for (int k = 0; k < g.getNumMobilizers(); k++) {
		const auto &mob = g.getMobilizer(k);
		int in = ref_index(mob.getInboardBodyRef());
		int li = ref_index(mob.getOutboardMasterBodyRef());
		MobilizedBody inboard = in < 0 ? m.matter.updGround() :
		    m.matter.updMobilizedBody(e->links[(size_t)in].mobod);
		const SimTK::MassProperties &whole = mp[(size_t)li];
		double share = 1.0 / mob.getNumFragments();
		SimTK::MassProperties part(whole.getMass() * share,
		    whole.getMassCenter(), whole.getInertia() * share);
		MobilizedBody b;

		if (mob.isAddedBaseMobilizer()) {
			b = MobilizedBody::Free(inboard, Transform(),
			    SimTK::Body::Rigid(part), Transform());
		} else {
			int ji = ref_index(mob.getJointRef()) - (int)w->nlinks;
			sjoint &sj = e->joints[(size_t)ji];

			b = joint_mobilizer(e, ji, inboard, part,
			    mob.isReversedFromJoint());
			sj.mobilizer = true;
			sj.mobod = b.getMobilizedBodyIndex();
			sj.reversed = mob.isReversedFromJoint();
		}
		if (mob.isSlaveMobilizer())
			e->links[(size_t)li].slaves.push_back(
			    b.getMobilizedBodyIndex());
		else
			e->links[(size_t)li].mobod = b.getMobilizedBodyIndex();
		m.mobod_link.resize((size_t)b.getMobilizedBodyIndex() + 1, -1);
		m.mobod_link[(size_t)b.getMobilizedBodyIndex()] = li;
	}
	return 0;
}

/* Slaves welded to their masters; a fixed joint closing a loop welds its
 * two links where they were at load. */
void
make_loops(simbody_engine *e, model &m, const SimTK::MultibodyGraphMaker &g)
{
	const struct phys_scene *w = e->w;

	for (const slink &sl : e->links)
		for (MobilizedBodyIndex s : sl.slaves)
			SimTK::Constraint::Weld(m.matter.updMobilizedBody(
			    sl.mobod), Transform(), m.matter.updMobilizedBody(s),
			    Transform());
	for (int k = 0; k < g.getNumLoopConstraints(); k++) {
		const auto &lc = g.getLoopConstraint(k);
		int ji = ref_index(lc.getJointRef()) - (int)w->nlinks;
		const struct phys_joint *j = &w->joints[ji];
		int p = ref_index(lc.getParentBodyRef());
		int c = ref_index(lc.getChildBodyRef());
		Transform J = joint_frame(j);
		MobilizedBody pb = p < 0 ? m.matter.updGround() :
		    m.matter.updMobilizedBody(e->links[(size_t)p].mobod);
		MobilizedBody cb = c < 0 ? m.matter.updGround() :
		    m.matter.updMobilizedBody(e->links[(size_t)c].mobod);
		SimTK::Constraint::Weld weld(pb, ~stf(load_pose(e, p)) * J,
		    cb, ~stf(load_pose(e, c)) * J);

		e->joints[(size_t)ji].weld = weld.getConstraintIndex();
		e->joints[(size_t)ji].is_weld = true;
	}
	for (const auto &wd : e->welds)
		SimTK::Constraint::Weld(m.matter.updMobilizedBody(
		    e->links[(size_t)wd.parent].mobod), stf(wd.rel),
		    m.matter.updMobilizedBody(e->links[(size_t)wd.child].mobod),
		    Transform());
}

/* How many coordinates phys reports for a joint of this type. */
int
coordinates(enum phys_joint_type t)
{
	switch (t) {
	case PHYS_JOINT_REVOLUTE:
	case PHYS_JOINT_PRISMATIC:
		return 1;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
	case PHYS_JOINT_SCREW:
		return 2;
	default:
		return 0;
	}
}

/* The mobilizer's coordinate along a joint's axis (0 or 1): a universal
 * joint's first axis is Simbody's second coordinate. */
int
axis_coord(const struct phys_joint *j, int axis)
{
	bool swap = j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2;

	return swap ? 1 - axis : axis;
}

/* Whether joint ji moves a mobilizer of coordinates. */
bool
mobilized(const void *ctx, int ji)
{
	const sjoint &sj = ((const simbody_engine *)ctx)->joints[(size_t)ji];

	return sj.mobilizer && sj.ncoords > 0;
}

/* Mimic: follower = the sum of multiplier * (leader - reference), +
 * offset, on the joints' first coordinates. */
int
make_mimic(simbody_engine *e, model &m, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const auto *mm = &j->mimic;
	const sjoint &f = e->joints[(size_t)ji];
	int n = mm->nleaders;

	if (!n)
		return 0;
	/* sum m_i l_i + base - f = 0: the follower's coefficient, each
	 * leader's, the constant last */
	SimTK::Vector coef(n + 2);
	std::vector<MobilizedBodyIndex> bodies = { f.mobod };
	std::vector<SimTK::MobilizerQIndex> q = {
		SimTK::MobilizerQIndex(axis_coord(j, 0)) };
	coef[0] = -1;
	coef[n + 1] = phys_mimic_base(mm);
	for (int i = 0; i < n; i++) {
		int li = mm->lead[i].joint;
		const sjoint &l = e->joints[(size_t)li];

		if (!f.mobilizer || !l.mobilizer || f.ncoords == 0 ||
		    l.ncoords == 0)
			return refuse_joint(j, "the Simbody engine couples the "
			    "first axes of jointed links only (mimic)");
		coef[i + 1] = mm->lead[i].multiplier;
		bodies.push_back(l.mobod);
		q.push_back(SimTK::MobilizerQIndex(axis_coord(
		    &e->w->joints[li], 0)));
	}
	e->joints[(size_t)ji].coupled = true;
	for (int i = 0; i < n; i++)
		e->joints[(size_t)mm->lead[i].joint].coupled = true;
	SimTK::Constraint::CoordinateCoupler(m.matter,
	    new SimTK::Function::Linear(coef), bodies, q);
	return 0;
}

/* The revolute joint between link and the reference body (-1: the world
 * or a static link), and the sign that makes its position the link's
 * turn about axis; -1 when there is none along it. */
int
gear_joint(const simbody_engine *e, int ref, int link, phys_vec3 axis,
    double *sign)
{
	const struct phys_scene *w = e->w;
	bool ground = is_static(w, ref);

	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *r = &w->joints[i];
		bool up = r->child == link && (ground ? is_static(w, r->parent) :
		    r->parent == ref);
		bool down = r->parent == link && (ground ? is_static(w,
		    r->child) : r->child == ref);
		double d = v3_dot(v3_normalize(r->axis[0]), v3_normalize(axis));

		if (r->type != PHYS_JOINT_REVOLUTE || !(up || down) ||
		    fabs(fabs(d) - 1) > 1e-6 || !e->joints[i].mobilizer)
			continue;
		*sign = (d > 0 ? 1 : -1) * (up ? 1 : -1);
		return (int)i;
	}
	return -1;
}

/* A gearbox: the geared links' turns about its axes, each the position
 * of its revolute joint to the reference body, held at -ratio to one
 * another. */
int
make_gearbox(simbody_engine *e, model &m, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	double ratio = PVD(vals(e, PHYS_S_JOINT, ji), JOINT_gearbox_ratio);
	double sign[2];
	int r[2];

	if (j->type != PHYS_JOINT_GEARBOX)
		return 0;
	r[0] = gear_joint(e, j->reference, j->parent, j->axis[0], &sign[0]);
	r[1] = gear_joint(e, j->reference, j->child, j->axis[1], &sign[1]);
	if (r[0] < 0 || r[1] < 0)
		return refuse_joint(j, "the Simbody engine gears two links "
		    "each held to the reference body by a revolute joint "
		    "along the gearbox's axis");
	e->joints[(size_t)ji].ratio = ratio;
	e->joints[(size_t)r[0]].coupled = e->joints[(size_t)r[1]].coupled =
	    true;
	/* ratio * turn1 + turn2 = 0 */
	SimTK::Vector coef(3);
	coef[0] = ratio * sign[0], coef[1] = sign[1], coef[2] = 0;
	std::vector<MobilizedBodyIndex> bodies = { e->joints[(size_t)r[0]].mobod,
		e->joints[(size_t)r[1]].mobod };
	std::vector<SimTK::MobilizerQIndex> q = { SimTK::MobilizerQIndex(0),
		SimTK::MobilizerQIndex(0) };
	SimTK::Constraint::CoordinateCoupler(m.matter,
	    new SimTK::Function::Linear(coef), bodies, q);
	return 0;
}

/* ---- forces phys adds: joints and velocity decay ---- */

/* Coulomb friction fric against rate u, proportional to the rate below
 * the transition speed vt, as the contacts' friction is. */
double
coulomb(double fric, double u, double vt)
{
	return -fric * fmax(-1, fmin(1, u / vt));
}

/* A joint's generalized force along coordinate k at this state: spring,
 * viscous damping, Coulomb friction and the limit's stop. */
double
joint_force(const simbody_engine *e, const State &s, int ji, int k)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	const sjoint &sj = e->joints[(size_t)ji];
	const MobilizedBody &b = mobod(e, sj.mobod);
	int c = axis_coord(&e->w->joints[ji], k);
	double q = b.getOneQ(s, c), u = b.getOneU(s, c);
	struct phys_axis_values a = phys_joint_axis_values(v, k);
	double lo = a.lower, hi = a.upper, fric = a.friction;
	double stiff = a.limit_stiffness, diss = a.limit_dissipation;
	double vt = e->m->contact.getTransitionVelocity(), f;

	f = phys_joint_spring_damper(v, k, q, u) + (sj.servo[k].on ?
	    phys_servo_force(&sj.servo[k], q, u) : sj.cmd[k]);
	/* A screw's travel is its turn times the lead. */
	if (e->w->joints[ji].type == PHYS_JOINT_SCREW)
		f += sj.lead * phys_joint_spring_damper(v, 1, sj.lead * q,
		    sj.lead * u);
	/* none of the friction or the stop where a lock holds the joint
	 * (hold_joints): the lock's force is theirs */
	held_by held = holding(e, sj, s);
	if (held != HELD_NONE)
		return held == HELD_STOP ? f + coulomb(fric, u, vt) : f;
	f += coulomb(fric, u, vt);
	/* Simbody's linear stop: k x (1 + d qdot), never pulling. */
	if (phys_has_upper(hi) && q > hi)
		f += fmin(0, -stiff * (q - hi) * (1 + diss * u));
	if (phys_has_lower(lo) && q < lo)
		f += fmax(0, -stiff * (q - lo) * (1 - diss * u));
	return f;
}

/*
 * A fixed limited tendon past a bound of its range, held back by a stop
 * as a joint's limit is (joint_force: Simbody's linear stop, never
 * pulling) of SDF's default limit stiffness and dissipation, its force
 * along each joint the joint's coefficient of it.
 */
const double TENDON_STOP_STIFFNESS = 1e8;	/* N/m, or N m/rad */
const double TENDON_STOP_DISSIPATION = 1;	/* s/m, or s/rad */

void
tendon_forces(const simbody_engine *e, const State &s,
    SimTK::Vector &mobility)
{
	for (size_t i = 0; i < e->w->ntendons; i++) {
		const struct phys_tendon *t = &e->w->tendons[i];
		double len = 0, rate = 0, bound, f;
		int side;

		for (int k = 0; k < t->njoints; k++) {
			int ji = t->joints[k];
			const sjoint &sj = e->joints[(size_t)ji];
			int c = axis_coord(&e->w->joints[ji], 0);

			len += t->coef[k] * mobod(e, sj.mobod).getOneQ(s, c);
			rate += t->coef[k] * mobod(e, sj.mobod).getOneU(s, c);
		}
		if (!(side = phys_tendon_past(t, len, &bound)))
			continue;
		f = -TENDON_STOP_STIFFNESS * (len - bound) *
		    (1 - side * TENDON_STOP_DISSIPATION * rate);
		if (side * f < 0)
			continue;
		for (int k = 0; k < t->njoints; k++) {
			const sjoint &sj = e->joints[(size_t)t->joints[k]];

			mobod(e, sj.mobod).applyOneMobilityForce(s, axis_coord(
			    &e->w->joints[t->joints[k]], 0), t->coef[k] * f,
			    mobility);
		}
	}
}

/*
 * A ball's damping, spring (to where it was loaded: the mobilizer's
 * identity) and Coulomb friction, its axis's, on each of its three turns,
 * and its range (MuJoCo's: its largest turn) as a hinge's stop holds a
 * limit (joint_force), along the turn's axis: the Ball mobilizer's speeds
 * are its angular velocity, and the turn's axis is the same in either of
 * its frames, so -c u - k theta n holds in the speeds' own.
 */
void
ball_forces(const simbody_engine *e, const State &s, int ji,
    SimTK::Vector &mobility)
{
	const MobilizedBody &b = mobod(e, e->joints[(size_t)ji].mobod);
	struct phys_axis_values a = phys_joint_axis_values(vals(e,
	    PHYS_S_JOINT, ji), 0);
	double vt = e->m->contact.getTransitionVelocity(), u, rate = 0;
	double stop = 0, range = phys_ball_range(vals(e, PHYS_S_JOINT, ji));
	SimTK::Vec4 turn = b.getMobilizerTransform(s).R()
	    .convertRotationToAngleAxis();

	for (int k = 0; k < 3; k++)
		rate += b.getOneU(s, k) * turn[k + 1];
	if (phys_has_upper(range) && turn[0] > range)
		stop = fmin(0, -a.limit_stiffness * (turn[0] - range) *
		    (1 + a.limit_dissipation * rate));
	for (int k = 0; k < 3; k++) {
		u = b.getOneU(s, k);
		b.applyOneMobilityForce(s, k, -a.damping * u + (stop -
		    a.stiffness * turn[0]) * turn[k + 1] +
		    coulomb(a.friction, u, vt), mobility);
	}
}

class joint_forces : public SimTK::Force::Custom::Implementation {
public:
	explicit joint_forces(const simbody_engine *e_) : e(e_) {}
	void calcForce(const State &s, SimTK::Vector_<SpatialVec> &,
	    SimTK::Vector_<Vec3> &, SimTK::Vector &mobility) const override
	{
		/* these forces come before the contacts' (their subsystem
		 * was made first): a retry of a step whose bound is spent
		 * ends here, before the tracker finds every contact again
		 * (eleven cylinders in one spot took 26 s so, not 4) */
		if (e->spent)
			throw over_budget_now();
		tendon_forces(e, s, mobility);
		for (size_t ji = 0; ji < e->joints.size(); ji++) {
			const sjoint &sj = e->joints[ji];
			int n = e->w->joints[ji].type == PHYS_JOINT_SCREW ? 1 :
			    sj.ncoords;

			if (sj.mobilizer && e->w->joints[ji].type ==
			    PHYS_JOINT_BALL)
				ball_forces(e, s, (int)ji, mobility);
			for (int k = 0; sj.mobilizer && k < n; k++)
				mobod(e, sj.mobod).applyOneMobilityForce(s,
				    axis_coord(&e->w->joints[ji], k),
				    joint_force(e, s, (int)ji, k), mobility);
		}
	}
	SimTK::Real calcPotentialEnergy(const State &) const override
	{
		return 0;
	}
private:
	const simbody_engine *e;
};

/* velocity_decay: the share of a link's velocity lost per step, as a
 * continuous damping of that rate (exact over a step); and the forces
 * the run puts on links. */
class decay_forces : public SimTK::Force::Custom::Implementation {
public:
	explicit decay_forces(const simbody_engine *e_) : e(e_) {}
	void calcForce(const State &s, SimTK::Vector_<SpatialVec> &body,
	    SimTK::Vector_<Vec3> &, SimTK::Vector &) const override;
	SimTK::Real calcPotentialEnergy(const State &) const override
	{
		return 0;
	}
private:
	const simbody_engine *e;
};

double
decay_rate(double share, double h)
{
	return share >= 1 ? 1 / h * 40 : -log1p(-share) / h;
}

void
decay_forces::calcForce(const State &s, SimTK::Vector_<SpatialVec> &body,
    SimTK::Vector_<Vec3> &, SimTK::Vector &) const
{
	for (size_t li = 0; li < e->links.size(); li++) {
		const slink &sl = e->links[li];
		const struct phys_value *v = vals(e, PHYS_S_LINK, (int)li);
		double lin = PVD(v, LINK_velocity_decay_linear);
		double ang = PVD(v, LINK_velocity_decay_angular);

		if (!sl.dynamic)
			continue;
		const MobilizedBody &b = mobod(e, sl.mobod);

		/* the run's force, at the centre of mass */
		if (sl.force.x != 0 || sl.force.y != 0 || sl.force.z != 0)
			b.applyForceToBodyPoint(s, sv(sl.inertial.p),
			    sv(sl.force), body);
		if (sl.torque.x != 0 || sl.torque.y != 0 || sl.torque.z != 0)
			b.applyBodyTorque(s, sv(sl.torque), body);
		if (lin == 0 && ang == 0)
			continue;
		const Rotation &R = b.getBodyRotation(s);
		Vec3 com = sv(sl.inertial.p);
		Vec3 vc = b.findStationVelocityInGround(s, com);
		Vec3 w = b.getBodyAngularVelocity(s);

		/* The whole link's momenta, on its master body. */
		b.applyForceToBodyPoint(s, com, -decay_rate(lin, e->step) *
		    sl.mass * vc, body);
		b.applyBodyTorque(s, -decay_rate(ang, e->step) *
		    (R * (sl.com_inertia * (~R * w))), body);
	}
}

/* ---- making the system ---- */

void
make_integrator(simbody_engine *e, model &m)
{
	const struct phys_value *phys = vals(e, PHYS_S_PHYSICS, 0);

	m.integ.reset(new SimTK::RungeKuttaMersonIntegrator(m.sys));
	m.integ->setAccuracy(PVD(phys, PHYSICS_simbody_accuracy));
	/* The error of the worst coordinate or speed, not their mean: with
	 * the mean, one body's error is diluted by the world's size, and a
	 * stack of ten boxes rang from step to step at 2 mm/s. */
	m.integ->setUseInfinityNorm(true);
	m.integ->setMaximumStepSize(e->step);
	/* Every step ends exactly at its time, never interpolated. */
	m.integ->setAllowInterpolation(false);
	m.integ->setInternalStepLimit(STEP_CHUNK);
}

/* The friction transition speed: the override when given, else
 * max_transient_velocity. */
double
transition_velocity(const struct phys_value *phys)
{
	const struct phys_value *o =
	    PV(phys, PHYSICS_simbody_contact_override_stiction_transition_velocity);
	double vt = o->given ? o->u.d :
	    PVD(phys, PHYSICS_simbody_max_transient_velocity);

	return fmax(vt, 1e-9);
}

/* At most this many cliques joined for parent welds: past it, the pairs
 * are left to pair_excluded() (a weld of n links under a weld parent of
 * n child welds would be n^2). */
#define MAX_WELD_PARENT_CLIQUES 100000

/*
 * Welds (excludes.h) as cliques: one per weld, which its links join, and
 * its parent weld's links too. Links a listed pair names are left out,
 * for the pair to touch.
 */
void
weld_cliques(const struct phys_scene *w, const std::vector<bool> &paired,
    std::vector<std::vector<SimTK::ContactCliqueId>> &of)
{
	std::map<int, SimTK::ContactCliqueId> clique;
	std::map<int, std::set<int>> children;	/* weld -> child welds */
	size_t li, joined = 0;
	int g, p;

	if (!w->welds)
		return;
	for (li = 0; li < w->nlinks; li++) {
		if ((g = w->welds[2 * li]) < 0 || paired[li])
			continue;
		if (!clique.count(g))
			clique[g] = SimTK::ContactSurface::createNewContactClique();
		of[li].push_back(clique[g]);
		if ((p = w->welds[2 * li + 1]) >= 0)
			children[p].insert(g);
	}
	for (li = 0; li < w->nlinks; li++) {
		if ((g = w->welds[2 * li]) < 0 || paired[li] ||
		    !children.count(g))
			continue;
		for (int c : children[g])
			if (joined++ < MAX_WELD_PARENT_CLIQUES)
				of[li].push_back(clique[c]);
	}
}

/* The links a listed pair (<pair>) names, which no clique may keep
 * apart: the pair's filter decides for them. */
std::vector<bool>
paired_links(const struct phys_scene *w)
{
	std::vector<bool> paired(w->nlinks);

	for (size_t i = 0; i < w->npairs; i++) {
		paired[(size_t)w->collisions[w->pairs[i].c1].link] = true;
		paired[(size_t)w->collisions[w->pairs[i].c2].link] = true;
	}
	return paired;
}

/* A clique of its own for a and b (links or collisions, as of is). */
void
clique_apart(std::vector<std::vector<SimTK::ContactCliqueId>> &of, int a,
    int b)
{
	SimTK::ContactCliqueId apart =
	    SimTK::ContactSurface::createNewContactClique();

	of[(size_t)a].push_back(apart);
	of[(size_t)b].push_back(apart);
}

/*
 * Sorted pair keys (pairkey.h) of indices below n, each pair a clique,
 * a key listed twice once: the links an MJCF <exclude> keeps apart, but
 * a listed pair's (a neck's capsule deep in a collarbone's,
 * excluded, cost the tracker past the bound on a step's work), and the
 * collisions kept apart because one starts wholly inside the other (a
 * knee motor's inside its trunk, on the thigh's axis). paired, when not
 * empty, names the indices a listed pair leaves to its filter.
 */
void
key_cliques(const int64_t *keys, size_t nkeys, size_t n,
    const std::vector<bool> &paired,
    std::vector<std::vector<SimTK::ContactCliqueId>> &of)
{
	int a, b;

	for (size_t i = 0; i < nkeys; i++) {
		if (i && keys[i] == keys[i - 1])
			continue;
		phys_pair_split(keys[i], (int64_t)n, &a, &b);
		if (!paired.empty() && (paired[(size_t)a] || paired[(size_t)b]))
			continue;
		clique_apart(of, a, b);
	}
}

/* The most cliques of two that keep the collisions a listed pair names
 * apart from the rest of their kind (a hand's: a few hundred). */
const size_t MAX_LISTED_APART = 100000;

/*
 * Collisions of kinds a and b (by their bitmasks: category, collide),
 * which never touch (a may be b), kept apart by one clique; a collision
 * a listed pair names, which touches its partner whatever the bitmasks,
 * is kept apart from the others two by two, at most MAX_LISTED_APART
 * cliques in all (*made).
 */
void
kinds_apart(const simbody_engine *e, const std::vector<int> &a,
    const std::vector<int> &b, const std::vector<bool> &listed,
    std::vector<std::vector<SimTK::ContactCliqueId>> &apart, size_t *made)
{
	const struct phys_scene *w = e->w;
	SimTK::ContactCliqueId id =
	    SimTK::ContactSurface::createNewContactClique();
	bool same = &a == &b;

	for (int x : a)
		if (!listed[(size_t)x])
			apart[(size_t)x].push_back(id);
	if (!same)
		for (int y : b)
			if (!listed[(size_t)y])
				apart[(size_t)y].push_back(id);
	for (size_t i = 0; i < a.size(); i++)
		for (size_t k = same ? i + 1 : 0; k < b.size(); k++)
			if ((listed[(size_t)a[i]] || listed[(size_t)b[k]]) &&
			    *made < MAX_LISTED_APART &&
			    !phys_pair_find(w, a[i], b[k])) {
				clique_apart(apart, a[i], b[k]);
				(*made)++;
			}
}

/*
 * A clique for each kind of collision by its bitmasks (category,
 * collide) that does not touch its own kind, category & collide being 0
 * (an MJCF hand's geoms of contype 1 and conaffinity 0), and one for
 * each two kinds that do not touch each other (Cassie's pelvis, contype
 * 1 and conaffinity 0, and its shins, 4 and 2): Simbody then never
 * tracks two of them, where the filter left them without force only
 * after the tracker's work (the Shadow hand's thumb capsules, meshes
 * here, overlapping at its joints, cost a step past its bound; Cassie's
 * pelvis and shin, inside each other, stopped its first step).
 */
void
bitmask_cliques(const simbody_engine *e,
    std::vector<std::vector<SimTK::ContactCliqueId>> &apart)
{
	const struct phys_scene *w = e->w;
	std::vector<bool> listed(w->ncollisions);
	std::map<std::pair<int, int>, std::vector<int>> kinds;
	size_t made = 0;

	for (size_t i = 0; i < w->npairs; i++)
		listed[(size_t)w->pairs[i].c1] = listed[(size_t)w->pairs[i].c2] =
		    true;
	for (size_t ci = 0; ci < w->ncollisions; ci++) {
		const struct phys_value *v = vals(e, PHYS_S_COLLISION, (int)ci);

		kinds[std::make_pair(PVI(v,
		    COLLISION_surface_contact_category_bitmask), PVI(v,
		    COLLISION_surface_contact_collide_bitmask))].push_back(
		    (int)ci);
	}
	for (auto a = kinds.begin(); a != kinds.end(); ++a)
		for (auto b = a; b != kinds.end(); ++b)
			if (!phys_bitmasks_touch(a->first.first,
			    a->first.second, b->first.first, b->first.second))
				kinds_apart(e, a->second, b->second, listed,
				    apart, &made);
}

/*
 * The surfaces of the links: a clique per model keeps its links apart
 * unless they collide with each other (self_collide), a clique per
 * joint keeps the two links it connects apart, as pair_excluded() does,
 * the welds' and exclusions' cliques theirs, the pairs kept apart
 * inside each other theirs, and the bitmasks' kinds theirs: Simbody then
 * never tracks them (a thigh's
 * box and its calf's overlap at the knee, which as two meshes cost
 * Simbody's tracker more than the rest of a quadruped's step).
 */
int
make_surfaces(simbody_engine *e, model &m, bool at_load)
{
	const struct phys_scene *w = e->w;
	std::vector<SimTK::ContactCliqueId> models(w->nmodels);
	std::vector<std::vector<SimTK::ContactCliqueId>> of(w->nlinks);
	std::vector<std::vector<SimTK::ContactCliqueId>> apart(w->ncollisions);
	std::vector<bool> paired = paired_links(w);

	m.made.clear();
	weld_cliques(w, paired, of);
	key_cliques(w->excluded, w->nexcluded, w->nlinks, paired, of);
	key_cliques(w->inside, w->ninside, w->ncollisions, {}, apart);
	bitmask_cliques(e, apart);
	for (const auto &pair : e->joined)
		clique_apart(of, pair.first, pair.second);
	for (size_t li = 0; li < w->nlinks; li++) {
		const struct phys_link *l = &w->links[li];

		if (e->links[li].dynamic && !w->models[l->model].self_collide &&
		    !PVB(vals(e, PHYS_S_LINK, (int)li), LINK_self_collide)) {
			if (!models[(size_t)l->model].isValid())
				models[(size_t)l->model] =
				    SimTK::ContactSurface::createNewContactClique();
			of[li].push_back(models[(size_t)l->model]);
		}
		if (add_surfaces(e, m, (int)li, at_load, of[li], apart) < 0)
			return -1;
	}
	return 0;
}

int
make_model(simbody_engine *e, model &m, bool at_load)
{
	const struct phys_scene *w = e->w;
	SimTK::MultibodyGraphMaker g;
	std::vector<int> ids(w->nlinks + w->njoints);

	for (size_t i = 0; i < ids.size(); i++)
		ids[i] = (int)i;
	for (size_t i = 0; i < w->njoints; i++)
		if (check_joint(e, (int)i) < 0)
			return -1;
	graph_input(e, g, ids);
	try {
		g.generateGraph();
	} catch (const std::exception &ex) {
		return phys_fail("Simbody cannot make a tree of the world's "
		    "links and joints: %s", ex.what());
	}
	m.mobod_link.assign(1, -1);
	e->links.assign(w->nlinks, slink());
	e->joints.assign(w->njoints, sjoint());
	if (make_tree(e, m, g, at_load) < 0)
		return -1;
	make_loops(e, m, g);
	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];
		sjoint &sj = e->joints[i];

		sj.ncoords = coordinates(j->type);
		sj.lead = j->type == PHYS_JOINT_SCREW ?
		    phys_joint_screw_lead(vals(e, PHYS_S_JOINT, (int)i)) : 0;
		sj.in_child = phys_pose_mul(phys_pose_inv(load_pose(e, j->child)),
		    ptf(joint_frame(j)));
		sj.in_parent = phys_pose_mul(phys_pose_inv(load_pose(e,
		    j->parent)), ptf(joint_frame(j)));
		if (phys_joint_keeps_apart(j))
			e->joined.insert(std::make_pair(std::min(j->parent,
			    j->child), std::max(j->parent, j->child)));
	}
	for (size_t i = 0; i < w->njoints; i++)
		if (make_mimic(e, m, (int)i) < 0 ||
		    make_gearbox(e, m, (int)i) < 0)
			return -1;
	if (phys_tendon_joints_held(w, mobilized, e, "Simbody", "tendons of "
	    "the first axes of jointed links only") < 0)
		return -1;
	if (make_surfaces(e, m, at_load) < 0)
		return -1;
	m.gravity = SimTK::Force::Gravity(m.forces, m.matter,
	    sv(PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity)));
	SimTK::Force::Custom(m.forces, new joint_forces(e));
	SimTK::Force::Custom(m.forces, new decay_forces(e));
	m.contact.adoptForceGenerator(new hertz(e,
	    SimTK::CircularPointContact::classTypeId(), circular));
	m.contact.adoptForceGenerator(new hertz(e,
	    SimTK::EllipticalPointContact::classTypeId(), elliptical));
	m.contact.adoptForceGenerator(new foundation(e));
	m.contact.setTransitionVelocity(transition_velocity(vals(e,
	    PHYS_S_PHYSICS, 0)));
	return 0;
}

/* Which collision each of the tracker's surfaces is. */
void
map_surfaces(model &m)
{
	m.surface.assign((size_t)m.tracker.getNumSurfaces(), made_surface());
	for (const made_surface &made : m.made)
		m.surface[(size_t)m.tracker.getContactSurfaceIndex(
		    MobilizedBodyIndex(made.body), made.ordinal)] = made;
}

/* What a state holds of the run's values: gravity per body, and the
 * kinematic links' velocities locked. */
void
apply_values(const simbody_engine *e, model &m, State &s)
{
	m.gravity.setGravityVector(s, sv(PVV(vals(e, PHYS_S_WORLD, 0),
	    WORLD_gravity)));
	for (size_t li = 0; li < e->links.size(); li++) {
		const slink &sl = e->links[li];
		const struct phys_value *v = vals(e, PHYS_S_LINK, (int)li);

		if (!sl.dynamic)
			continue;
		m.gravity.setBodyIsExcluded(s, sl.mobod, !PVB(v, LINK_gravity));
		for (MobilizedBodyIndex x : sl.slaves)
			m.gravity.setBodyIsExcluded(s, x, !PVB(v, LINK_gravity));
		const MobilizedBody &b = m.matter.getMobilizedBody(sl.mobod);
		if (PVB(v, LINK_kinematic))
			b.lock(s, SimTK::Motion::Velocity);
		else
			b.unlock(s);
	}
}

/* ---- the state: poses and velocities set by the run ---- */

bool
finite(const SimTK::Vector &x)
{
	for (int i = 0; i < x.size(); i++)
		if (!std::isfinite(x[i]))
			return false;
	return true;
}

phys_pose
body_pose(const simbody_engine *e, const State &s, int li)
{
	if (li < 0 || !e->links[(size_t)li].dynamic)
		return li < 0 ? PHYS_POSE_IDENTITY : e->w->links[li].pose;
	return ptf(mobod(e, e->links[(size_t)li].mobod).getBodyTransform(s));
}

/* The pose and velocity each link is to have: the run's, or where it is
 * now. */
struct target {
	Transform X;
	Vec3 w, v;	/* angular, and of the origin, in the world */
};

target
link_target(const simbody_engine *e, const State &s, int li)
{
	const pending &p = e->pend[(size_t)li];
	const MobilizedBody &b = mobod(e, e->links[(size_t)li].mobod);
	target t;

	t.X = p.pose ? stf(p.p) : b.getBodyTransform(s);
	t.w = p.vel ? sv(p.ang) : b.getBodyAngularVelocity(s);
	t.v = p.vel ? sv(p.lin) : b.getBodyOriginVelocity(s);
	return t;
}

/*
 * Each mobilizer's coordinates fitted to its two bodies' targets, root
 * first: a revolute coordinate keeps its turns, the nearest angle to the
 * one it had. Velocities after positions, fitted the same way.
 */
void
fit_state(const simbody_engine *e, State &s)
{
	const model &m = *e->m;
	int nb = m.matter.getNumBodies();
	std::vector<target> t((size_t)nb);

	e->m->sys.realize(s, SimTK::Stage::Velocity);
	t[0].X = Transform(), t[0].w = t[0].v = Vec3(0);
	for (MobilizedBodyIndex i(1); i < nb; ++i) {
		int li = m.mobod_link[(size_t)i];

		t[(size_t)i] = li >= 0 ? link_target(e, s, li) : t[0];
	}
	for (MobilizedBodyIndex i(1); i < nb; ++i) {
		const MobilizedBody &b = m.matter.getMobilizedBody(i);
		const target &in = t[(size_t)b.getParentMobilizedBody()
		    .getMobilizedBodyIndex()];
		Transform F = in.X * b.getDefaultInboardFrame();
		Transform M = t[(size_t)i].X * b.getDefaultOutboardFrame();
		double q0 = b.getNumQ(s) == 1 ? b.getOneQ(s, 0) : 0;

		b.setQToFitTransform(s, ~F * M);
		if (b.getNumQ(s) == 1 && b.getNumU(s) == 1 &&
		    MobilizedBody::Pin::isInstanceOf(b))
			b.setOneQ(s, 0, q0 + remainder(b.getOneQ(s, 0) - q0,
			    2 * M_PI));
	}
	e->m->sys.realize(s, SimTK::Stage::Position);
	for (MobilizedBodyIndex i(1); i < nb; ++i) {
		const MobilizedBody &b = m.matter.getMobilizedBody(i);
		const target &in = t[(size_t)b.getParentMobilizedBody()
		    .getMobilizedBodyIndex()];
		const target &out = t[(size_t)i];
		Transform F = in.X * b.getDefaultInboardFrame();
		Vec3 pM = out.X * b.getDefaultOutboardFrame().p();
		/* M's velocity against the inboard body's point there. */
		Vec3 vM = out.v + out.w % (pM - out.X.p());
		Vec3 vF = in.v + in.w % (pM - in.X.p());

		b.setUToFitVelocity(s, SpatialVec(~F.R() * (out.w - in.w),
		    ~F.R() * (vM - vF)));
	}
}

/* Unlock the joints held (hold_joints) in s: the run sets their links
 * where it wants them. */
void
release_held(const simbody_engine *e, State &s)
{
	for (const sjoint &sj : e->joints)
		if (holding(e, sj, s) != HELD_NONE)
			mobod(e, sj.mobod).unlock(s);
}

/* The state as the run set it, handed to the integrator. */
void
settle(const simbody_engine *e)
{
	if (!e->has_pending && !e->dirty)
		return;
	State s = e->m->integ->getState();
	if (e->has_pending) {
		release_held(e, s);
		fit_state(e, s);
		e->pend.assign(e->pend.size(), pending());
		e->has_pending = false;
	}
	apply_values(e, *e->m, s);
	s.setTime(e->now);
	e->reactions_fresh = false;
	e->m->integ->setAccuracy(PVD(vals(e, PHYS_S_PHYSICS, 0),
	    PHYSICS_simbody_accuracy));
	e->m->integ->setMaximumStepSize(e->step);
	e->m->integ->initialize(s);
	e->dirty = false;
}

/*
 * Make the system (again): from the world as loaded, with the run's
 * values; the coordinates, speeds and clock of old carried over when
 * given (the same tree: the graph is the loaded world's).
 */
int
build(simbody_engine *e, bool at_load, const State *old)
{
	std::unique_ptr<model> m(new model());
	std::unique_ptr<model> keep = std::move(e->m);
	auto links = e->links;
	auto joints = e->joints;
	auto joined = e->joined;
	auto undo = [&]() {
		e->m = std::move(keep);
		e->links = links, e->joints = joints, e->joined = joined;
		return -1;
	};
	State s;

	e->joined.clear();
	if (make_model(e, *m, at_load) < 0)
		return undo();
	try {
		s = m->sys.realizeTopology();
		m->sys.realizeModel(s);
	} catch (const std::exception &ex) {
		phys_fail("Simbody cannot make the world: %s", ex.what());
		return undo();
	}
	map_surfaces(*m);
	make_integrator(e, *m);
	if (old) {
		s.updQ() = old->getQ();
		s.updU() = old->getU();
	} else {
		/* Free bodies where their links are; every joint at zero. */
		for (MobilizedBodyIndex i(1); i < m->matter.getNumBodies(); ++i) {
			const MobilizedBody &b = m->matter.getMobilizedBody(i);
			int li = m->mobod_link[(size_t)i];

			if (MobilizedBody::Free::isInstanceOf(b))
				b.setQToFitTransform(s, stf(e->w->links[li].pose));
		}
	}
	apply_values(e, *m, s);
	s.setTime(e->now);
	e->m = std::move(m);	/* the forces read it */
	try {
		e->m->integ->initialize(s);
	} catch (const std::exception &ex) {
		phys_fail("Simbody cannot start the world: %s", ex.what());
		return undo();
	}
	e->damping.clear();
	e->reactions_fresh = false;
	return 0;
}

/* Rebuild keeping the state: after a change Simbody fixes at
 * construction (a mass, a shape, self_collide). */
int
rebuild(simbody_engine *e)
{
	State old = state(e);

	return build(e, false, &old);
}

/* ---- the engine's operations ---- */

/* Simbody's friction is the same in every direction: a second
 * coefficient other than the first is said, once per surface. */
void
check_mu2(const simbody_engine *e)
{
	for (size_t ci = 0; ci < e->w->ncollisions; ci++) {
		const struct phys_collision *c = &e->w->collisions[ci];
		const struct phys_value *v = vals(e, PHYS_S_COLLISION, (int)ci);
		const struct phys_value *mu = PV(v, COLLISION_surface_friction_ode_mu);
		const struct phys_value *mu2 =
		    PV(v, COLLISION_surface_friction_ode_mu2);

		if (mu2->given && (!mu->given || mu2->u.d != mu->u.d))
			phys_warnat(PHYS_AT(c->doc, c->node),
			    "collision '%s': mu2 %g is not used: Simbody's "
			    "friction is the same in every direction (mu, "
			    "else the profile's)", c->name, mu2->u.d);
	}
}

/* The inertia joint j's axis k moves on its child link alone, as the
 * world is loaded: its moment about the axis through the joint (its
 * mass for a prismatic joint). */
static double
axis_inertia(const struct phys_scene *w, const struct phys_joint *j, int k)
{
	const struct phys_link *l = &w->links[j->child];
	phys_inertia in;
	phys_pose frame;
	phys_vec3 a = j->axis[k], local, r;

	phys_link_inertia(l, &in);
	if (j->type == PHYS_JOINT_PRISMATIC)
		return in.mass;
	frame = phys_pose_mul(l->pose, phys_pose_from6(in.pose));
	local = phys_quat_rotate(phys_quat_conj(frame.q), a);
	r = v3_sub(frame.p, j->pose.p);
	r = v3_sub(r, v3_scale(a, v3_dot(r, a)));
	return v3_dot(local, phys_mat3_apply(in.I, local)) +
	    in.mass * v3_dot(r, r);
}

/* A ball joint's child link's least moment about the joint's centre, as
 * the world is loaded: the axis it turns back on fastest. */
static double
ball_inertia(const struct phys_scene *w, const struct phys_joint *j)
{
	const struct phys_link *l = &w->links[j->child];
	phys_inertia in;
	phys_pose frame;
	phys_mat3 R;
	double m[3];

	phys_link_inertia(l, &in);
	frame = phys_pose_mul(l->pose, phys_pose_from6(in.pose));
	if (phys_inertia_principal(phys_inertia_shift(in.I, in.mass,
	    phys_quat_rotate(phys_quat_conj(frame.q), v3_sub(frame.p,
	    j->pose.p))), m, &R) < 0)
		return 0;
	return m[0];
}

/*
 * A joint's damping and its friction (a damping of friction / the
 * stiction transition speed below that speed, as joint_force runs it)
 * on its child link's moment about its axis (its mass for a prismatic
 * joint) decay a motion in a time Simbody's error-controlled integrator must
 * follow: Allegro's fingers (friction 10 N m, damping 3 on 1e-5 kg m^2)
 * decay in 1e-8 s, and a step of 1 ms took more than 20,000 of its own.
 * The fastest is found before the run and said there when a step would
 * take more than STIFF_STEPS of Simbody's; a run stopped so names it.
 * The stop that rings fastest on its link is found with it.
 */
#define STIFF_STEPS 1000

static void
find_stiffest(simbody_engine *e)
{
	const struct phys_joint *j;
	struct phys_axis_values a;
	double vt = transition_velocity(vals(e, PHYS_S_PHYSICS, 0)), in, c, w;

	e->stiffest = -1;
	e->stiffest_tau = HUGE_VAL;
	e->ringing = -1;
	e->ringing_rate = 0;
	e->stop_inertia.assign(e->joints.size(), 0);
	for (size_t ji = 0; ji < e->joints.size(); ji++) {
		j = &e->w->joints[ji];
		bool ball = j->type == PHYS_JOINT_BALL;
		bool holdable = may_hold(e, (int)ji);

		if (holdable)
			e->stop_inertia[ji] = axis_inertia(e->w, j, 0);

		if (!e->joints[ji].mobilizer || j->child < 0 ||
		    (e->joints[ji].ncoords > 2 && !ball))
			continue;
		/* a ball's three turns alike: its least moment */
		for (int k = 0; k < (ball ? 1 : e->joints[ji].ncoords); k++) {
			a = phys_joint_axis_values(vals(e, PHYS_S_JOINT,
			    (int)ji), k);
			in = ball ? ball_inertia(e->w, j) :
			    axis_inertia(e->w, j, k);
			if (!(in > 0))
				continue;
			/* friction too fast to follow is held (hold_joints) */
			c = fmax(a.damping, 0) + (holdable && too_fast(e,
			    friction_rate(e, a.friction, in)) ? 0 :
			    fmax(a.friction, 0) / vt);
			if (c > 0 && in / c < e->stiffest_tau) {
				e->stiffest_tau = in / c;
				e->stiffest = (int)ji;
			}
			w = sqrt(a.limit_stiffness / in);
			/* so is a stop that rings too fast */
			if (holdable && too_fast(e, w))
				continue;
			if (phys_axis_limited(&a) && w > e->ringing_rate) {
				e->ringing = (int)ji, e->ringing_axis = k;
				e->ringing_rate = w, e->ringing_inertia = in;
			}
		}
	}
}

static void
say_stiffest(const simbody_engine *e)
{
	const struct phys_joint *j;

	if (e->stiffest < 0 || e->step / e->stiffest_tau <= STIFF_STEPS)
		return;
	j = &e->w->joints[e->stiffest];
	phys_warnat(PHYS_AT(j->doc, j->node), "joint '%s': its damping and "
	    "friction (a damping of friction / %g below that stiction "
	    "transition speed) stop its link's motion within %.2g s, which "
	    "Simbody's error-controlled integrator follows while the link "
	    "moves: a step of %g s takes of the order of %.2g of its own, "
	    "and a run stops at %d (a larger "
	    "simbody.contact.override_stiction_transition_velocity runs "
	    "faster)", j->name, transition_velocity(vals(e,
	    PHYS_S_PHYSICS, 0)), e->stiffest_tau, e->step,
	    e->step / e->stiffest_tau, MAX_INTERNAL_STEPS);
}

/*
 * A joint stop is a spring of axis.limit.stiffness on its link's moment
 * about the axis, ringing at sqrt(k / I) while the link is at it (the
 * fastest found by find_stiffest). An explicit integrator stays stable
 * only on steps of under about 2.8 radians of that ringing
 * (Runge-Kutta-Merson's limit on an undamped oscillator), so a link at
 * its stop takes Simbody's steps that short, however loose
 * simbody.accuracy is: SDF's default stiffness of 1e8 on a leg's 1e-3
 * kg m^2 asks for about 110 a millisecond. The fastest is said before
 * the run when a step at it would take more than SLOW_STEPS of
 * Simbody's, with a stiffness that takes SLOW_STEPS and how far the
 * joint's effort pushes past the stop at it.
 */
static void
say_stiffest_stop(const simbody_engine *e)
{
	if (e->ringing < 0)
		return;
	const struct phys_joint *j = &e->w->joints[e->ringing];
	struct phys_axis_values a = phys_joint_axis_values(vals(e,
	    PHYS_S_JOINT, e->ringing), e->ringing_axis);
	double n = e->step * e->ringing_rate / RKM_STABLE;

	if (n <= SLOW_STEPS)
		return;
	/* the stiffness at which a step takes SLOW_STEPS at the stop */
	double k10 = e->ringing_inertia * pow(SLOW_STEPS * RKM_STABLE /
	    e->step, 2);
	bool slide = j->type == PHYS_JOINT_PRISMATIC;
	char give[64] = "";

	if (a.effort > 0)
		snprintf(give, sizeof give, ", giving by %.2g %s under the "
		    "joint's effort", a.effort / k10, slide ? "m" : "rad");
	phys_warnat(PHYS_AT(j->doc, j->node), "joint '%s': its stop "
	    "(axis.limit.stiffness %g on its link's %.2g %s about the %s) "
	    "rings at %.2g rad/s, which Simbody's integrator follows while "
	    "a link is at a stop: a step of %g s there takes about %.0f of "
	    "its own, not 1 (a stiffness of %.2g would take %d%s)",
	    j->name, a.limit_stiffness, e->ringing_inertia,
	    slide ? "kg" : "kg m^2", j->type == PHYS_JOINT_BALL ?
	    "ball's least axis" : "axis", e->ringing_rate, e->step, ceil(n),
	    k10, SLOW_STEPS, give);
}

static struct simbody_engine *
simbody_engine_new(const struct phys_scene *w, const struct phys_run_values *v,
    const struct phys_engine_options *opt, double t)
{
	if (phys_links_within_room(w, LINK_BYTES, "Simbody") < 0)
		return nullptr;

	auto *e = new simbody_engine(w, v);

	e->now = t;
	e->skip_unsupported = opt && opt->skip_unsupported;
	e->pend.assign(w->nlinks, pending());
	if (simbody_engine_apply_profile(e) < 0 || build(e, true,
	    nullptr) < 0) {
		simbody_engine_free(e);
		return nullptr;
	}
	check_mu2(e);
	find_stiffest(e);
	say_stiffest(e);
	say_stiffest_stop(e);
	for (size_t i = 0; i < w->nlinks; i++) {
		const struct phys_model *m = &w->models[w->links[i].model];

		if (m->has_init_vel && e->links[i].dynamic)
			simbody_engine_set_link_vel(e, (int)i, &m->init_linear,
			    &m->init_angular);
	}
	return e;
}

static void
simbody_engine_free(struct simbody_engine *e)
{
	delete e;
}

static int
simbody_engine_apply_profile(struct simbody_engine *e)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);

	if (!(PVD(v, PHYSICS_simbody_accuracy) > 0))
		return phys_fail("simbody.accuracy must be positive");
	e->step = PVD(v, PHYSICS_max_step_size);
	if (e->m)
		e->m->contact.setTransitionVelocity(transition_velocity(v));
	e->dirty = true;
	return 0;
}

static void
simbody_engine_apply_world(struct simbody_engine *e)
{
	e->dirty = true;	/* gravity: set on the state */
}

/* A link's mass, inertia and shapes are fixed when Simbody makes its
 * system: made again, every coordinate kept. */
static int
simbody_engine_apply_link(struct simbody_engine *e, int li)
{
	if (!e->links[(size_t)li].dynamic)
		return 0;
	return rebuild(e);
}

/* Limits, springs, damping and friction are read at every step; an
 * axis, a screw's pitch and a gearbox's ratio are Simbody's system's,
 * which a run cannot change without moving the links. */
static int
simbody_engine_apply_joint(struct simbody_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);

	if (!(v3_norm(PVV(v, JOINT_axis_xyz)) > 0))
		return phys_fail("joint '%s': axis is zero", j->name);
	if (!phys_value_equal(&phys_params[PHYS_P_JOINT_axis_xyz],
	    PV(v, JOINT_axis_xyz), PV(j->vals, JOINT_axis_xyz)) ||
	    !phys_value_equal(&phys_params[PHYS_P_JOINT_axis2_xyz],
	    PV(v, JOINT_axis2_xyz), PV(j->vals, JOINT_axis2_xyz)))
		return phys_fail("joint '%s': the Simbody engine cannot turn "
		    "a joint's axis during a run", j->name);
	if ((j->type == PHYS_JOINT_SCREW && phys_joint_screw_lead(v) !=
	    e->joints[(size_t)ji].lead) || (j->type == PHYS_JOINT_GEARBOX &&
	    PVD(v, JOINT_gearbox_ratio) != e->joints[(size_t)ji].ratio))
		return phys_fail("joint '%s': the Simbody engine cannot change "
		    "a screw's pitch or a gearbox's ratio during a run",
		    j->name);
	e->dirty = true;
	return 0;
}

static int
simbody_engine_apply_collision(struct simbody_engine *e, int ci)
{
	return rebuild(e);
}

/* The contacts touching at the state: one per pair of surfaces that
 * overlap and are not kept apart. */
int
count_contacts(const simbody_engine *e, const State &s)
{
	const SimTK::ContactSnapshot &snap = e->m->tracker.getActiveContacts(s);
	int n = 0;

	for (int i = 0; i < snap.getNumContacts(); i++) {
		const SimTK::Contact &c = snap.getContact(i);

		if (c.getCondition() == SimTK::Contact::Broken)
			continue;
		pair_values p = pair_of(e, c.getSurface1(), c.getSurface2());
		if (p.excluded)
			continue;
		if (p.no_force) {
			const struct phys_value *a, *b;

			phys_contact_surfaces(e->w, e->v, p.c1, p.c2, &a, &b);
			if (!phys_contact_without_force_reported(a, b))
				continue;
		}
		n++;
	}
	return n;
}

/* Forget the damping of contacts that have ended. */
void
forget_contacts(simbody_engine *e, const State &s)
{
	const SimTK::ContactSnapshot &snap = e->m->tracker.getActiveContacts(s);

	for (auto it = e->damping.begin(); it != e->damping.end();) {
		SimTK::ContactSurfaceIndex a(it->first.first),
		    b(it->first.second);

		if (snap.hasContact(a, b) && snap.getContactById(
		    snap.getContactIdForSurfacePair(a, b)).getCondition() !=
		    SimTK::Contact::Broken)
			++it;
		else
			it = e->damping.erase(it);
	}
}

/* What a Simbody exception says, on one line: the sentence after "Error
 * detected by ...():" rather than where it was thrown. */
std::string
reason(const char *what)
{
	std::string w(what), r;
	size_t at = w.find("Error detected by");

	if (at != std::string::npos && (at = w.find("): ", at)) !=
	    std::string::npos)
		w = w.substr(at + 3);
	for (char c : w) {
		if (c == '\n' || c == '\t')
			c = ' ';
		if (c != ' ' || (!r.empty() && r.back() != ' '))
			r += c;
	}
	while (!r.empty() && r.back() == ' ')
		r.pop_back();
	return r;
}

/* Every dynamic link: its frame; a state that is not a number, whose
 * transform Simbody would not make, as one. */
static bool
simbody_engine_body_state(const struct simbody_engine *e, int li,
    struct phys_body_state *out)
{
	const State &s = state(e);
	phys_pose p = PHYS_POSE_IDENTITY;

	if (!e->links[(size_t)li].dynamic)
		return false;
	const MobilizedBody &b = mobod(e, e->links[(size_t)li].mobod);
	out->vel = v3(NAN, 0, 0);
	out->angvel = v3(0, 0, 0);
	if (finite(b.getQAsVector(s)) && finite(b.getUAsVector(s))) {
		p = ptf(b.getBodyTransform(s));
		out->vel = pv(b.getBodyOriginVelocity(s));
		out->angvel = pv(b.getBodyAngularVelocity(s));
	}
	out->pos = p.p;
	out->q = p.q;
	return true;
}

/* A step that has taken Simbody `taken` steps of its own so far: -1,
 * said, once they or its contacts cost more than a step may. */
static int
over_budget(const struct simbody_engine *e, double t0, int taken)
{
	if (taken >= MAX_INTERNAL_STEPS && e->stiffest >= 0 &&
	    e->step / e->stiffest_tau > STIFF_STEPS)
		return phys_fail("simulation stopped at t=%.9g: Simbody took "
		    "%d steps of its own within one and did not reach its "
		    "end (joint '%s' stops its link's motion within %.2g s)",
		    t0, MAX_INTERNAL_STEPS,
		    e->w->joints[e->stiffest].name, e->stiffest_tau);
	if (taken >= MAX_INTERNAL_STEPS)
		return phys_fail("simulation stopped at t=%.9g: Simbody took "
		    "%d steps of its own within one and did not reach its "
		    "end (contacts too stiff for simbody.accuracy?)", t0,
		    MAX_INTERNAL_STEPS);
	if (e->faces_worked > MAX_FACES_WORKED) {
		const struct phys_collision *a, *b;

		if (e->costliest[0] < 0 || e->costliest[1] < 0)
			return phys_fail("simulation stopped at t=%.9g: "
			    "Simbody's contacts cost too much", t0);
		a = &e->w->collisions[e->costliest[0]];
		b = &e->w->collisions[e->costliest[1]];
		/* a joint said to take that many steps is their cause, not
		 * the contacts reckoned at each (Valkyrie's fingers, its feet
		 * resting on the ground) */
		if (e->stiffest >= 0 && e->step / e->stiffest_tau >
		    STIFF_STEPS) {
			const struct phys_joint *j = &e->w->joints[e->stiffest];

			return phys_failat(PHYS_AT(j->doc, j->node),
			    "simulation stopped at t=%.9g: Simbody took %d "
			    "steps of its own within one, reckoning the "
			    "forces of %lu triangles in contact, and did not "
			    "reach its end (joint '%s' stops its link's motion "
			    "within %.2g s; the most triangles at once, %zu, "
			    "between collisions '%s' and '%s')", t0, taken,
			    e->faces_worked, j->name, e->stiffest_tau,
			    e->costliest_faces, a->name, b->name);
		}
		/* the work is triangles in contact times reckonings: a pair
		 * deep inside each other, which does most of it, or many
		 * contacts over the many steps of its own a stiff stop asks
		 * for */
		if (2 * e->costliest_worked > e->faces_worked)
			return phys_failat(PHYS_AT(a->doc, a->node),
			    "collisions '%s' and '%s': deep inside each other "
			    "at t=%.9g (%zu triangles in contact): Simbody "
			    "reckoned the forces of %lu within one step, in %d "
			    "step%s of its own, and did not reach its end",
			    a->name, b->name, t0, e->costliest_faces,
			    e->faces_worked, taken, taken == 1 ? "" : "s");
		return phys_failat(PHYS_AT(a->doc, a->node), "simulation "
		    "stopped at t=%.9g: Simbody reckoned the forces of %lu "
		    "triangles in contact within one step, in %d step%s of "
		    "its own, and did not reach its end (the most at once, "
		    "%zu, between collisions '%s' and '%s')", t0,
		    e->faces_worked, taken, taken == 1 ? "" : "s",
		    e->costliest_faces, a->name,
		    b->name);
	}
	return 0;
}

/*
 * Joints held by locks where what holds them is too stiff for an
 * explicit integrator: where it would decay or ring more than
 * HOLD_RADIANS within one of phys's steps, Simbody's steps follow it
 * while the link rests, in thousands a millisecond. Locked, the joint
 * rests; its lock is undone at the first step's start where its force
 * is more than what it stands for gives.
 *
 * A stop of SDF's default stiffness (1e8) on a leg's 1e-3 kg m^2 rings
 * at 3e5 rad/s (say_stiffest_stop): the shipped quadruped lying on its
 * folded legs took 15 s of processor time a simulated second. A joint
 * found past such a stop at a step's start with less motion than the
 * stop's spring holds there (I u^2 < k x^2: resting on it, not striking
 * it) is locked at the limit, and unlocked where the lock pulls rather
 * than pushes, or the stop has gone: the spring still takes each strike.
 * Locked where it was, within the spring, the joint kept the spring's
 * turn and sprang off with it when released (4e-3 rad off the closed
 * form of an arm pulled off its stop, 1e-5 locked at the limit).
 *
 * Below the stiction transition speed vt friction f is a damping of
 * f / vt, which stops a light link within I vt / f (Allegro's and
 * Valkyrie's fingers: 1e-8 s). A joint slower than vt and slowing is
 * locked where it is, and unlocked where the lock's force passes f: it
 * slides from there as Coulomb friction has it.
 */

/* A joint that may be held: one coordinate of its own, coupled to no
 * other. */
bool
may_hold(const simbody_engine *e, int ji)
{
	const sjoint &sj = e->joints[(size_t)ji];
	int type = e->w->joints[ji].type;

	return sj.mobilizer && sj.ncoords == 1 && !sj.coupled &&
	    e->w->joints[ji].child >= 0 && (type == PHYS_JOINT_REVOLUTE ||
	    type == PHYS_JOINT_PRISMATIC);
}

/* What holds joint sj in state s: its lock's reason, if it is locked
 * (a joint never held may have no mobilizer: a gearbox). */
held_by
holding(const simbody_engine *e, const sjoint &sj, const State &s)
{
	return sj.held != HELD_NONE && mobod(e, sj.mobod).isLocked(s) ?
	    sj.held : HELD_NONE;
}

/* Whether a motion of this rate (rad/s, 1/s) is too fast to follow. */
bool
too_fast(const simbody_engine *e, double rate)
{
	return rate * e->step >= HOLD_RADIANS;
}

/* How fast friction, as a damping of friction / vt, stops a link of
 * moment in: 1/s. */
double
friction_rate(const simbody_engine *e, double friction, double in)
{
	return fmax(friction, 0) / (transition_velocity(vals(e,
	    PHYS_S_PHYSICS, 0)) * in);
}

/* Past which of its stops joint ji is at q, if one that rings too fast
 * to follow: +1 its upper, -1 its lower, 0 neither; how far past, the
 * stop's ringing (rad/s) and where it is (*at). */
int
stop_at(const simbody_engine *e, int ji, const struct phys_axis_values *a,
    double q, bool held, double *depth, double *rate, double *at)
{
	double in = e->stop_inertia[(size_t)ji];

	if (!(a->limit_stiffness > 0))
		return 0;
	*rate = sqrt(a->limit_stiffness / in);
	if (!too_fast(e, *rate))
		return 0;
	/* a held joint is at its stop, not past it (past it, the stop has
	 * moved, and its spring takes the joint back) */
	if (phys_has_upper(a->upper) && (held ? q == a->upper : q > a->upper))
		return *at = a->upper, *depth = q - a->upper, 1;
	if (phys_has_lower(a->lower) && (held ? q == a->lower : q < a->lower))
		return *at = a->lower, *depth = a->lower - q, -1;
	return 0;
}

/* The lock's force on mobilizer b from Simbody's motion forces tau at
 * a state realized to accelerations. */
double
lock_force(const MobilizedBody &b, const State &s, const SimTK::Vector &tau)
{
	/* Simbody's multiplier: the lock's force negated */
	return -tau[b.getFirstUIndex(s)];
}

/* The force of the lock that holds joint ji, if one does, at state s. */
double
held_force(const simbody_engine *e, const State &s, int ji)
{
	const sjoint &sj = e->joints[(size_t)ji];
	SimTK::Vector tau;

	if (holding(e, sj, s) == HELD_NONE)
		return 0;
	e->m->sys.realize(s, SimTK::Stage::Acceleration);
	e->m->matter.findMotionForces(s, tau);
	return lock_force(mobod(e, sj.mobod), s, tau);
}

/* A lock to make (why: its reason) or undo (HELD_NONE) at a step's
 * start, at q = at. */
struct hold {
	int joint;
	held_by why;
	double at;
};

/* What to make or undo of joint ji's lock, at state now (q, u); tau the
 * locks' forces there, found once when first needed. */
void
hold_joint(simbody_engine *e, const State &now, int ji, SimTK::Vector &tau,
    std::vector<hold> &change)
{
	const sjoint &sj = e->joints[(size_t)ji];
	const MobilizedBody &b = mobod(e, sj.mobod);
	struct phys_axis_values a = phys_joint_axis_values(vals(e,
	    PHYS_S_JOINT, ji), 0);
	double q = b.getOneQ(now, 0), u = b.getOneU(now, 0), f = 0;
	double depth = 0, rate = 0, at = 0;
	held_by held = holding(e, sj, now);
	int side = stop_at(e, ji, &a, q, held == HELD_STOP, &depth, &rate,
	    &at);

	if (held != HELD_NONE) {
		if (tau.size() == 0) {
			e->m->sys.realize(now, SimTK::Stage::Acceleration);
			e->m->matter.findMotionForces(now, tau);
		}
		f = lock_force(b, now, tau);
	}
	if (held == HELD_STOP && (side == 0 || f * side > 0))
		change.push_back({ ji, HELD_NONE, 0 });
	else if (held == HELD_FRICTION && !(fabs(f) <= a.friction))
		change.push_back({ ji, HELD_NONE, 0 });
	else if (held != HELD_NONE)
		return;
	else if (side != 0 && fabs(u) < rate * depth)
		change.push_back({ ji, HELD_STOP, at });
	else if (too_fast(e, friction_rate(e, a.friction,
	    e->stop_inertia[(size_t)ji])) && fabs(u) <
	    transition_velocity(vals(e, PHYS_S_PHYSICS, 0)) &&
	    fabs(u) <= fabs(sj.last_u))
		change.push_back({ ji, HELD_FRICTION, q });
}

void
hold_joints(simbody_engine *e)
{
	const State &now = e->m->integ->getState();
	std::vector<hold> change;
	SimTK::Vector tau;

	for (size_t ji = 0; ji < e->stop_inertia.size(); ji++) {
		if (!(e->stop_inertia[ji] > 0))
			continue;
		hold_joint(e, now, (int)ji, tau, change);
		e->joints[ji].last_u = mobod(e, e->joints[ji].mobod).getOneU(
		    now, 0);
	}
	if (change.empty())
		return;
	State s = now;
	for (auto &c : change) {
		sjoint &sj = e->joints[(size_t)c.joint];
		const MobilizedBody &b = mobod(e, sj.mobod);

		sj.held = c.why;
		if (c.why != HELD_NONE)
			b.lockAt(s, c.at);
		else
			b.unlock(s);
	}
	e->m->integ->initialize(s);
}

static int
simbody_engine_step(struct simbody_engine *e, double t0, double t1)
{
	int taken = 0, steps0 = 0;

	e->now = t0;
	e->faces_worked = 0;
	e->costliest_faces = 0;
	e->costliest_worked = 0;
	e->spent = false;
	try {
		step_scope in_step(e->stepping);

		steps0 = e->m->integ->getNumStepsTaken();
		settle(e);
		if (e->commands_changed) {
			/* The forces at the step's start were computed with
			 * the old efforts. */
			e->m->integ->updAdvancedState().invalidateAllCacheAtOrAbove(
			    SimTK::Stage::Dynamics);
			e->m->integ->reinitialize(SimTK::Stage::Dynamics, false);
			e->commands_changed = false;
		}
		hold_joints(e);
		while (e->m->integ->getTime() < t1) {
			auto why = e->m->integ->stepTo(t1);

			if (why == SimTK::Integrator::ReachedStepLimit &&
			    over_budget(e, t0, taken += STEP_CHUNK) < 0)
				return -1;
			if (e->m->integ->isSimulationOver())
				break;
		}
	} catch (const std::exception &ex) {
		if (e->spent)
			return over_budget(e, t0,
			    e->m->integ->getNumStepsTaken() - steps0);
		return phys_fail("simulation diverged at t=%.9g: Simbody "
		    "stopped: %s", t0,
		    reason(ex.what()).c_str());
	}
	e->now = t1;
	e->reactions_fresh = false;
	/* A state that is not a number is the driver's to report, as a
	 * divergence: its contacts are not asked for. */
	if (!finite(state(e).getQ()) || !finite(state(e).getU()))
		return 0;
	e->m->sys.realize(state(e), SimTK::Stage::Velocity);
	e->ncontacts = count_contacts(e, state(e));
	forget_contacts(e, state(e));
	return 0;
}

static void
simbody_engine_link_pose(const struct simbody_engine *e, int li,
    phys_pose *out)
{
	const pending &p = e->pend[(size_t)li];

	if (!e->links[(size_t)li].dynamic) {
		*out = e->w->links[li].pose;
		return;
	}
	if (p.pose) {
		*out = p.p;
		return;
	}
	*out = body_pose(e, state(e), li);
}

static void
simbody_engine_link_vel(const struct simbody_engine *e, int li,
    phys_vec3 *lin, phys_vec3 *ang)
{
	const pending &p = e->pend[(size_t)li];

	if (!e->links[(size_t)li].dynamic) {
		*lin = *ang = v3(0, 0, 0);
		return;
	}
	if (p.vel) {
		*lin = p.lin, *ang = p.ang;
		return;
	}
	const MobilizedBody &b = mobod(e, e->links[(size_t)li].mobod);
	*lin = pv(b.getBodyOriginVelocity(state(e)));
	*ang = pv(b.getBodyAngularVelocity(state(e)));
}

static void
simbody_engine_link_com(const struct simbody_engine *e, int li,
    phys_vec3 *com, phys_vec3 *com_vel)
{
	const slink &sl = e->links[(size_t)li];
	phys_pose pose;
	phys_vec3 lin, ang, r;

	if (!sl.dynamic) {
		*com = phys_pose_apply(e->w->links[li].pose, phys_pose_from6(
		    PV(vals(e, PHYS_S_LINK, li), LINK_inertial_pose)->u.pose).p);
		*com_vel = v3(0, 0, 0);
		return;
	}
	simbody_engine_link_pose(e, li, &pose);
	simbody_engine_link_vel(e, li, &lin, &ang);
	*com = phys_pose_apply(pose, sl.inertial.p);
	r = v3_sub(*com, pose.p);
	*com_vel = v3_add(lin, v3_cross(ang, r));
}

static bool
simbody_engine_link_dynamic(const struct simbody_engine *e, int li)
{
	return e->links[(size_t)li].dynamic;
}

/* The tensor as the model gives it, about the centre of mass in the
 * inertial frame (Simbody holds it raised only for a tensor no body
 * has). */
static void
simbody_engine_link_mass(const struct simbody_engine *e, int li,
    double *mass, double inertia[6])
{
	const slink &sl = e->links[(size_t)li];

	if (!sl.dynamic) {
		phys_link_values_mass(vals(e, PHYS_S_LINK, li), mass, inertia);
		return;
	}
	*mass = sl.mass;
	memcpy(inertia, sl.inertia, sizeof sl.inertia);
}

static int
simbody_engine_set_link_pose(struct simbody_engine *e, int li, phys_pose p)
{
	if (!e->links[(size_t)li].dynamic)
		return phys_fail("link '%s' is static: its pose cannot change",
		    e->w->links[li].name);
	/* A pose set again is fitted after the one before: less than half
	 * a turn at a time keeps a revolute coordinate's count of turns. */
	if (e->pend[(size_t)li].pose)
		settle(e);
	e->pend[(size_t)li].pose = true;
	e->pend[(size_t)li].p = p;
	e->has_pending = true;
	return 0;
}

/* Held, each once, until the next reading fits them all. */
static int
simbody_engine_set_link_poses(struct simbody_engine *e, const int *links,
    const phys_pose *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (simbody_engine_set_link_pose(e, links[i], p[i]) < 0)
			return -1;
	return 0;
}

/* Velocities are those of the link origin. */
static int
simbody_engine_set_link_vel(struct simbody_engine *e, int li,
    const phys_vec3 *lin, const phys_vec3 *ang)
{
	phys_vec3 l = { 0, 0, 0 }, a = { 0, 0, 0 };

	if (!e->links[(size_t)li].dynamic)
		return phys_fail("link '%s' is static: it cannot move",
		    e->w->links[li].name);
	if (!lin || !ang)
		simbody_engine_link_vel(e, li, &l, &a);
	pending &p = e->pend[(size_t)li];
	p.vel = true;
	p.lin = lin ? *lin : l;
	p.ang = ang ? *ang : a;
	e->has_pending = true;
	return 0;
}

static int
simbody_engine_joint_state(const struct simbody_engine *e, int ji,
    double pos[2], double vel[2])
{
	const sjoint &sj = e->joints[(size_t)ji];
	const struct phys_joint *j = &e->w->joints[ji];

	pos[0] = pos[1] = vel[0] = vel[1] = 0;
	if (!sj.mobilizer || sj.ncoords == 0)
		return 0;
	const MobilizedBody &b = mobod(e, sj.mobod);
	const State &s = state(e);
	pos[0] = b.getOneQ(s, axis_coord(j, 0));
	vel[0] = b.getOneU(s, axis_coord(j, 0));
	if (j->type == PHYS_JOINT_SCREW) {
		pos[1] = sj.lead * pos[0];
		vel[1] = sj.lead * vel[0];
	} else if (sj.ncoords == 2) {
		pos[1] = b.getOneQ(s, axis_coord(j, 1));
		vel[1] = b.getOneU(s, axis_coord(j, 1));
	}
	return sj.ncoords;
}

/* The reaction of every mobilizer at the state, once per step. */
const SimTK::Vector_<SpatialVec> &
reactions(const simbody_engine *e)
{
	if (!e->reactions_fresh) {
		e->m->sys.realize(state(e), SimTK::Stage::Acceleration);
		e->m->matter.calcMobilizerReactionForces(state(e), e->reactions);
		e->reactions_fresh = true;
	}
	return e->reactions;
}

static void
simbody_engine_joint_wrench(const struct simbody_engine *e, int ji,
    phys_vec3 *force, phys_vec3 *torque)
{
	const sjoint &sj = e->joints[(size_t)ji];
	const struct phys_joint *j = &e->w->joints[ji];
	phys_vec3 com, comv;

	*force = *torque = v3(0, 0, 0);
	if (!sj.mobilizer || !e->links[(size_t)j->child].dynamic)
		return;
	const MobilizedBody &b = mobod(e, sj.mobod);
	const State &s = state(e);
	SpatialVec r = reactions(e)[(size_t)sj.mobod];
	/* At M's origin, on the outboard body: the child, or the parent. */
	Vec3 at = b.getBodyTransform(s) * b.getOutboardFrame(s).p();
	if (sj.reversed)
		r = -r;
	simbody_engine_link_com(e, j->child, &com, &comv);
	*force = pv(r[1]);
	*torque = pv(r[0] + (at - sv(com)) % r[1]);
}

/* The generalized force along each axis: what phys applies there
 * (spring, damping, friction, the stop), the mobility being free. */
static int
simbody_engine_joint_effort(const struct simbody_engine *e, int ji,
    double eff[2])
{
	const sjoint &sj = e->joints[(size_t)ji];
	const struct phys_joint *j = &e->w->joints[ji];

	eff[0] = eff[1] = 0;
	if (!sj.mobilizer || sj.ncoords == 0)
		return 0;
	eff[0] = joint_force(e, state(e), ji, 0) + held_force(e, state(e),
	    ji);
	if (j->type == PHYS_JOINT_SCREW)
		eff[1] = sj.lead != 0 ? eff[0] / sj.lead : 0;
	else if (sj.ncoords == 2)
		eff[1] = joint_force(e, state(e), ji, 1);
	return sj.ncoords;
}

/* Simbody evaluates a servo throughout its step: at a state, its force
 * is the driver's effort there. */
static int
simbody_engine_servo_effort(const struct simbody_engine *e, int ji,
    double eff[2])
{
	return 0;
}

static int
simbody_engine_set_joint_effort(struct simbody_engine *e, int ji,
    const struct phys_joint_drive *drive)
{
	sjoint &sj = e->joints[(size_t)ji];
	const double *effort = drive->effort;

	if (!sj.mobilizer && (effort[0] != 0 || effort[1] != 0))
		phys_warn_once("joint '%s' closes a kinematic loop: the Simbody "
		    "engine applies no command to it", e->w->joints[ji].name);
	if (sj.cmd[0] != effort[0] || sj.cmd[1] != effort[1] ||
	    memcmp(sj.servo, drive->servo, sizeof sj.servo) != 0)
		e->commands_changed = true;
	sj.cmd[0] = effort[0];
	sj.cmd[1] = effort[1];
	memcpy(sj.servo, drive->servo, sizeof sj.servo);
	return 0;
}

static int
simbody_engine_set_link_wrench(struct simbody_engine *e, int link,
    phys_vec3 force, phys_vec3 torque)
{
	slink &sl = e->links[(size_t)link];

	if (memcmp(&sl.force, &force, sizeof force) != 0 ||
	    memcmp(&sl.torque, &torque, sizeof torque) != 0)
		e->commands_changed = true;	/* forces are cached */
	sl.force = force;
	sl.torque = torque;
	return 0;
}

/* Simbody's constraints are made with the system: a weld, or its end,
 * makes it again, keeping the state. */
static int
simbody_engine_weld(struct simbody_engine *e, int parent, int child, bool on)
{
	auto it = e->welds.begin();
	phys_pose pp = PHYS_POSE_IDENTITY, cp = PHYS_POSE_IDENTITY;

	while (it != e->welds.end() && !(it->parent == parent &&
	    it->child == child))
		++it;
	if (!on) {
		if (it == e->welds.end())
			return 0;
		e->welds.erase(it);
		return rebuild(e);
	}
	if (is_static(e->w, parent) && is_static(e->w, child))
		return 0;	/* both static: nothing moves */
	if (!is_static(e->w, parent))
		simbody_engine_link_pose(e, parent, &pp);
	if (!is_static(e->w, child))
		simbody_engine_link_pose(e, child, &cp);
	e->welds.push_back({ parent, child,
	    phys_pose_mul(phys_pose_inv(pp), cp) });
	if (rebuild(e) < 0) {
		e->welds.pop_back();
		return -1;
	}
	return 0;
}

static int
simbody_engine_contact_count(const struct simbody_engine *e)
{
	return e->ncontacts;
}

}	/* namespace */

PHYS_ENGINE_DEFINE(simbody_engine, simbody)
