/*
 * engine_ode.c - the ODE engine. Every ODE call in phys lives here.
 *
 * ODE puts a body's origin at its centre of mass, so each dynamic link is
 * a body at link_pose * inertial_pose, and each collision geometry is
 * offset from it by inverse(inertial_pose) * collision_pose.
 *
 * Contact parameters that stock ODE only has globally (surface layer,
 * maximum correcting velocity) or not at all (kp/kd per surface) are
 * computed per contact: the depth handed to ODE is max(depth - min_depth, 0)
 * and the contact's ERP is lowered so that erp * depth / h <= max_vel,
 * which is exactly what ODE's own cap does with the global values.
 */
#include "engine_impl.h"
#include "inertia.h"
#include "inertia_follow.h"
#include "meshgrid.h"
#include "touch.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

/* ODE's own contact arrays are this size; more per pair is never useful. */
#define MAX_PAIR_CONTACTS 256

enum friction_model { FRICTION_PYRAMID, FRICTION_BOX, FRICTION_CONE };

/* A contact found by this step's collision pass, made into a joint once
 * the pass is over (the world step may make it twice). */
struct pending_contact {
	dContact c;
	dBodyID b1, b2;
	dJointFeedback fb;
	double mu, mu2;	/* friction coefficients, when Approx1 */
	double load;	/* normal force of the last world solve */
};

/* A body's state before a world step, to take the step again. */
struct body_state {
	dReal p[3], q[4], v[3], w[3], f[3], t[3];
};

struct ode_link {
	dBodyID body;		/* NULL for static links */
	phys_pose inertial;	/* centre-of-mass frame in the link frame */
	phys_vec3 force, torque;	/* the run's, at the centre of mass */
	/* A kinematic link's velocities, held (its origin's and its turn,
	 * in the world), and its pose as a step starts. */
	phys_vec3 kin_lin, kin_ang;
	phys_pose kin_from;
	/* A massless link welded to a moving one rides on that link's body
	 * (phys_find_riders, the engine's ride): inertial is then the
	 * body's frame in its link frame. A host's riders are a list: its
	 * first, each rider the next; -1 ends it. */
	int first_rider, next_rider;
	phys_mat3 own;		/* a host's own tensor, its riders' apart */
};

/*
 * A joint's frame and axes are fixed in its child link's frame; ODE's
 * zero position is wherever the joint was last set up, so offset holds
 * the position it had then.
 */
struct ode_joint {
	dJointID joint;		/* NULL when both sides are static */
	dJointFeedback fb;
	phys_pose in_child;	/* joint frame in the child link frame */
	phys_vec3 axis_child[2];
	phys_vec3 xyz[2];	/* the axis values the axes came from */
	double offset[2];
	double applied[2];	/* spring, damping and command, last step */
	double cmd[2];		/* the command's effort (motor.h) */
	struct phys_axis_servo servo;	/* the first axis's command, if a
					 * servo (motor.h) */
	dJointID servo_row;	/* its motor row, made when first needed */
	dJointID friction_rows;	/* a ball's friction: three motor rows,
				 * made when first needed */
	dJointID range_row;	/* a ball's range: a stop row, the same */
	dJointFeedback servo_fb;
	phys_vec3 servo_axis;	/* the row's axis over the last step */
	double servo_middle;	/* its range's middle, held as an effort */
	bool servo_held;	/* the row held the servo in the last step */
	double last[2];		/* turning axes: the angle after the last
				 * step, which the next reading continues
				 * (ODE's wrap at pi) */
	/* Screw: angle[0] is the turn, unwrapped (ODE's wraps at pi).
	 * Gearbox: the two angles from the reference body, integrated. */
	double angle[2], raw_angle;
	phys_vec3 axis_ref[2];	/* gearbox axes in the reference frame */
};

/* The triangles of a height field's cells [i0, i1] x [j0, j1] (r), with
 * what phys and ODE ask of them, kept while the shape over them stays
 * over the same cells: a resting ball's are made once, not every step. */
struct ode_patch {
	const struct phys_heightmap *hm;
	size_t r[4], cells;
	struct phys_mesh m;
	size_t *all;		/* each triangle's index */
	int *nb;
	struct phys_mesh_grid *grid;
	/* ODE's trimesh of them, for the shapes ODE meets triangles of */
	dTriMeshDataID data;
	dGeomID geom;
};

struct ode_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;	/* the run's: every parameter */
	dWorldID world;
	dSpaceID space;
	dJointGroupID contacts;
	struct ode_link *links;
	dGeomID *geoms;		/* per collision, NULL when skipped */
	struct ode_joint *joints;
	size_t ntouch;		/* joints whose links may touch */
	struct phys_still still;	/* links welded to the world */
	dBodyID ground;		/* NULL until a joint needs it */
	/* ODE's data of each mesh (shared by the geoms using it) and of
	 * each heightmap. */
	const struct phys_mesh **meshes;
	dTriMeshDataID *mesh_data;
	size_t nmeshes;
	/* Per collision: triangles of the run's own (a mesh rescaled, an
	 * ellipsoid of new radii), with their ODE data; NULL when the
	 * world's are the run's. */
	struct phys_mesh **own_mesh;
	dTriMeshDataID *own_data;
	/* Per collision of triangles: their grid (near_triangles) and each
	 * one's neighbours (phys_mesh_neighbours), made when first needed,
	 * dropped with the triangles. */
	struct phys_mesh_grid **grid;
	int **neighbours;
	/* Per collision that collides as a convex hull: ODE's convex of it,
	 * which its geom reads in place; NULL for the others. */
	struct ode_convex **convex;
	/* Per collision: its patch of the height field under it
	 * (shape_on_terrain), made when first needed; their cells. */
	struct ode_patch **patch;
	size_t patch_cells;
	dHeightfieldDataID *terrain;
	size_t nterrain;

	/* The current profile, as applied. */
	bool quick;
	bool pushed;		/* some link has had a force of the run's */
	int iters;
	double step, sor, cfm, erp;
	double max_correcting_vel, surface_layer;
	int max_contacts;
	bool contact_cap_said;	/* a limit above MAX_PAIR_CONTACTS was warned of */
	bool slip_said;		/* a coupling that does not hold was warned of */
	bool lcp_said;		/* a step the world solver gave up on, too */
	enum friction_model friction;

	int ncontacts;
	struct pending_contact *pending;
	size_t npending, pending_cap;
	/* a step's pairs of geoms whose boxes overlap, in ODE's order */
	struct geom_pair { dGeomID g1, g2; } *pairs;
	size_t npairs, pairs_cap;
	/* a mesh's vertices at or below a plane, and how deep (plane_points) */
	phys_vec3 *below;
	double *below_depth;
	phys_vec3 *below_normal;	/* mesh_corners' */
	size_t below_cap;
	/* the corners of a mesh's triangles near a shape (mesh_corners),
	 * each once: a corner is taken when its mark is not this call's */
	size_t *vertex;
	size_t vertex_cap;
	uint32_t *mark;
	size_t mark_cap;
	uint32_t stamp;
	struct body_state *saved;	/* one per link, then the ground */
	/* The run's welds: fixed joints made at run time (the world frees
	 * them with it). */
	struct ode_weld { int parent, child; dJointID joint; } *welds;
	size_t nwelds;
	bool broken;		/* ODE stopped in one of its calls */
	/* Each link's ride, and the joints of the riders (find_riders). */
	struct phys_rider *ride;
	int *ride_joints;
};

PHYS_ENGINE_FUNCTIONS(ode_engine)

/* Whether link li rides on another's body (find_riders). */
static bool
rides(const struct ode_engine *e, int li)
{
	return e->ride[li].host >= 0;
}

static bool ode_ready;

/* The run's values of a scope (idx: the entity): every parameter the
 * engine reads comes from here, never from the loaded world. */
static const struct phys_value *
vals(const struct ode_engine *e, phys_scope s, int idx)
{
	return phys_run_values_get(e->v, s, idx);
}
static const struct ode_engine *stepping;	/* for ODE's fatal messages */
static double stepping_from;		/* the time its step starts at */
static bool lcp_gave_up;		/* in the step being taken */
static int fastest_body(const struct ode_engine *e);

/*
 * ODE aborts on internal faults (a quaternion that cannot be normalized,
 * say), which only a diverging simulation reaches, or values no check
 * foresaw. Said the way a divergence is reported, and back to the
 * operation that called ODE (engine_impl.h's trap), which fails.
 */
static void
ode_fatal(int num, const char *msg, va_list ap)
{
	char text[400];

	vsnprintf(text, sizeof text, msg, ap);
	if (stepping) {
		int li = fastest_body(stepping);
		char *why = phys_divergence_cause(stepping->w, stepping->v,
		    stepping->step);

		snprintf(phys_engine_trap_text, sizeof phys_engine_trap_text,
		    "simulation diverged at t=%.9g: body '%s' is lost (ODE "
		    "stopped: %s)%s", stepping_from, li >= 0 ?
		    stepping->w->links[li].name : "?", text, why);
		free(why);
	} else {
		snprintf(phys_engine_trap_text, sizeof phys_engine_trap_text,
		    "ODE stopped: %s", text);
	}
	stepping = NULL;
	if (phys_engine_trap_armed())
		phys_engine_trap_spring();
	/* Every call into ODE is under a trap: this is a fault of phys. */
	phys_warn("%s", phys_engine_trap_text);
	abort();
}

/* The engine once ODE has stopped in it: the operation fails with what
 * ODE said, and every later one refuses. */
static int
ode_stopped(const struct ode_engine *e)
{
	stepping = NULL;	/* a step it stopped in (out of memory) */
	((struct ode_engine *)e)->broken = true;
	return phys_fail("%s", phys_engine_trap_text);
}

static int
ode_refuse(void)
{
	return phys_fail("ODE cannot go on after it stopped: %s",
	    phys_engine_trap_text);
}

/* ODE's allocator: a null it would go on with (SIGSEGV) springs the
 * trap, as its errors do (engine_impl.h). */
static void *
ode_alloc(dsizeint n)
{
	void *p = malloc(n);

	if (!p && n)
		phys_engine_trap_out_of_memory();
	return p;
}

static void *
ode_realloc(void *p, dsizeint was, dsizeint n)
{
	void *q = realloc(p, n);

	(void)was;
	if (!q && n)
		phys_engine_trap_out_of_memory();
	return q;
}

static void
ode_free(void *p, dsizeint n)
{
	(void)n;
	free(p);
}

/* Arm the trap for an operation of e: -1 (or nothing for void) when ODE
 * stops in it or stopped before. */
#define ODE_TRAP(e, ret)						\
	if ((e)->broken) {						\
		ode_refuse();						\
		ret;							\
	}								\
	PHYS_ENGINE_TRAP(ode_stopped(e); ret)

/*
 * ODE's messages are not fatal. The one a run meets is the world solver's
 * "LCP internal error": its Dantzig solver gave up on a contact problem
 * (redundant contacts with friction), and the step's forces are what it
 * had reached: a few percent off on a box's redundant contacts, mega-
 * newtons on a robot's many. The step is noted here and taken again by
 * world_step.
 */
static void
ode_message(int num, const char *msg, va_list ap)
{
	char text[512];

	vsnprintf(text, sizeof text, msg, ap);
	if (strstr(text, "LCP internal error"))
		lcp_gave_up = true;
	else
		phys_warn_once("ODE message %d: %s", num, text);
}

/* Called by every new engine. ODE's quick solver reorders the
 * constraints with one process-wide random generator: each engine starts
 * it from the same seed, so that a run's result does not depend on the
 * runs made before it in the same process (phys-sweep's workers make
 * many). */
static void
ode_init(void)
{
	if (!ode_ready) {
		dSetAllocHandler(ode_alloc);
		dSetReallocHandler(ode_realloc);
		dSetFreeHandler(ode_free);
		dInitODE2(0);
		dSetErrorHandler(ode_fatal);
		dSetDebugHandler(ode_fatal);
		dSetMessageHandler(ode_message);
		ode_ready = true;
	}
	dRandSetSeed(0);
}

static void
to_dquat(phys_quat q, dQuaternion out)
{
	out[0] = q.w, out[1] = q.x, out[2] = q.y, out[3] = q.z;
}

static phys_quat
from_dquat(const dReal *q)
{
	phys_quat r = { q[0], q[1], q[2], q[3] };

	return r;
}

static phys_pose
body_pose(dBodyID b)
{
	const dReal *p = dBodyGetPosition(b);
	phys_pose out;

	out.p = v3(p[0], p[1], p[2]);
	out.q = from_dquat(dBodyGetQuaternion(b));
	return out;
}

static void
set_body_pose(dBodyID b, phys_pose p)
{
	dQuaternion q;

	to_dquat(p.q, q);
	dBodySetPosition(b, p.p.x, p.p.y, p.p.z);
	dBodySetQuaternion(b, q);
}

/* Sylvester's criterion: every leading minor positive. */
static bool
positive_definite(double a, double b, double c, double xy, double xz,
    double yz)
{
	double m2 = a * b - xy * xy;
	double m3 = a * (b * c - yz * yz) - xy * (xy * c - yz * xz) +
	    xz * (xy * yz - b * xz);

	return a > 0 && m2 > 0 && m3 > 0;
}

/* dMassSetParameters prints ODE's complaint on stderr when the tensor is
 * not positive definite; phys_link_mass_prepare says it better, once. */
static void
mass_unchecked(dMass *m, double mass, double ixx, double iyy, double izz,
    double ixy, double ixz, double iyz)
{
	dMassSetZero(m);
	m->mass = mass;
	m->I[0] = ixx;
	m->I[5] = iyy;
	m->I[10] = izz;
	m->I[1] = m->I[4] = ixy;
	m->I[2] = m->I[8] = ixz;
	m->I[6] = m->I[9] = iyz;
}

/*
 * ODE takes a link's mass as every engine does (phys_link_mass_prepare),
 * and warns of ODE's quick solver on a tensor raised to the floor, when
 * the quick solver runs (link_mass adds the note). ODE cannot invert a
 * tensor that is not positive definite, which after load it judges by its
 * own test.
 */
static const struct phys_mass_rules ode_mass = {
	.engine = "ODE",
	.form = PHYS_INERTIA_AS_WRITTEN,
	.stand_in = PHYS_STAND_IN_ALWAYS,
	.judged_later_by_engine = true,
	.range = PHYS_MASS_RANGE,
};

/* At load an error names the SDF line (of <inertial>, where there is
 * one); later, the change that caused it is the place to point at, and
 * the caller adds it. */
static void fold_riders(const struct ode_engine *e, int li, phys_mat3 *I);

static int
link_mass(struct ode_engine *e, int li, dMass *m, bool at_load)
{
	const struct phys_link *l = &e->w->links[li];
	struct phys_link_mass lm;
	struct phys_mass_rules rules;
	phys_mat3 I;
	long line = phys_link_inertial_line(l);

	rules = ode_mass;
	if (e->quick)
		rules.not_positive_note = " (ODE's quick solver may not "
		    "converge on it: -s ode.solver.type=world solves it "
		    "exactly)";
	if (phys_link_mass_prepare(e->w, e->v, li, &rules, at_load, line,
	    false, &lm) < 0)
		return -1;
	I = e->links[li].own = lm.tensor;
	fold_riders(e, li, &I);
	/* at load, the tensor is made one (phys_link_mass_prepare) before
	 * its riders' join it */
	if ((!at_load || e->links[li].first_rider >= 0) && !positive_definite(
	    I.m[0][0], I.m[1][1], I.m[2][2], I.m[0][1], I.m[0][2], I.m[1][2]))
		return phys_failat(NULL, -1, "link '%s': inertia is not "
		    "positive definite (phys-inertia check explains, "
		    "phys-inertia fix repairs)", l->name);
	mass_unchecked(m, lm.mass, I.m[0][0], I.m[1][1], I.m[2][2], I.m[0][1],
	    I.m[0][2], I.m[1][2]);
	return 0;
}

static phys_pose
inertial_pose(const struct ode_engine *e, int li)
{
	return phys_pose_from6(PV(vals(e, PHYS_S_LINK, li),
	    LINK_inertial_pose)->u.pose);
}

/* The body's frame in link li's frame: its inertial frame, or for a
 * rider its host's, carried to it. */
static phys_pose
body_frame(const struct ode_engine *e, int li)
{
	if (!rides(e, li))
		return inertial_pose(e, li);
	return phys_pose_mul(phys_pose_inv(e->ride[li].in_host),
	    inertial_pose(e, e->ride[li].host));
}

/* The riders' own moments join the host's tensor I, in its inertial
 * frame. */
static void
fold_riders(const struct ode_engine *e, int li, phys_mat3 *I)
{
	int k;

	for (k = e->links[li].first_rider; k >= 0; k = e->links[k].next_rider)
		phys_rider_moments(e->v, k, &e->ride[k], inertial_pose(e, li).q,
		    I);
}

static void
set_geom_offset(dGeomID g, phys_pose off)
{
	dQuaternion q;

	to_dquat(off.q, q);
	dGeomSetOffsetPosition(g, off.p.x, off.p.y, off.p.z);
	dGeomSetOffsetQuaternion(g, q);
}

_Static_assert(sizeof(dTriIndex) == sizeof(unsigned),
    "phys meshes hold unsigned vertex indices");

static dTriMeshDataID
trimesh_data(const struct phys_mesh *m)
{
	dTriMeshDataID d = dGeomTriMeshDataCreate();

	dGeomTriMeshDataBuildDouble(d, m->v, 3 * sizeof *m->v, (int)m->nv,
	    m->tri, (int)(3 * m->ntri), 3 * sizeof *m->tri);
	dGeomTriMeshDataPreprocess2(d, 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES,
	    NULL);
	return d;
}

/* One ODE trimesh data per mesh, however many geoms use it. The world
 * keeps the vertices and triangles it points to. */
static dTriMeshDataID
mesh_data(struct ode_engine *e, const struct phys_mesh *m)
{
	dTriMeshDataID d;
	size_t i;

	for (i = 0; i < e->nmeshes; i++)
		if (e->meshes[i] == m)
			return e->mesh_data[i];
	d = trimesh_data(m);
	e->meshes = phys_xrealloc(e->meshes, (e->nmeshes + 1) * sizeof *e->meshes);
	e->mesh_data = phys_xrealloc(e->mesh_data,
	    (e->nmeshes + 1) * sizeof *e->mesh_data);
	e->meshes[e->nmeshes] = m;
	e->mesh_data[e->nmeshes++] = d;
	return d;
}

/*
 * ODE's heightfield has y up, samples along its x (width) and z (depth),
 * centred on its origin. Turned +90 degrees about x, its y becomes the
 * world's z and its z the world's -y: sample row 0 (the heightmap's +y
 * edge) is at depth -size.y/2, as ODE's rows run.
 */
static int
make_heightfield(struct ode_engine *e, int ci, phys_pose world)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	const struct phys_heightmap *hm = c->heightmap;
	phys_pose at = phys_pose_mul(world, (phys_pose){ { hm->pos[0], hm->pos[1],
	    0 }, phys_quat_from_rpy(M_PI / 2, 0, 0) });
	dHeightfieldDataID d;
	dQuaternion q;
	dGeomID g;

	if (e->links[c->link].body)
		return phys_failat(PHYS_AT(c->doc, c->node),
		    "collision '%s': a heightmap must belong to a static model",
		    c->name);
	d = dGeomHeightfieldDataCreate();
	dGeomHeightfieldDataBuildDouble(d, hm->h, 0, hm->size[0], hm->size[1],
	    (int)hm->nx, (int)hm->ny, 1, 0, 1 + (hm->hi - hm->lo), 0);
	dGeomHeightfieldDataSetBounds(d, hm->lo, hm->hi);
	e->terrain = phys_xrealloc(e->terrain, (e->nterrain + 1) * sizeof *e->terrain);
	e->terrain[e->nterrain++] = d;
	g = dCreateHeightfield(e->space, d, 1);
	to_dquat(at.q, q);
	dGeomSetPosition(g, at.p.x, at.p.y, at.p.z);
	dGeomSetQuaternion(g, q);
	dGeomSetData(g, (void *)(intptr_t)(ci + 1));
	e->geoms[ci] = g;
	return 0;
}

/*
 * Whether collision c is ODE's convex, not triangles: a mesh's hull, and
 * an ellipsoid's or a cone's polyhedron (both convex). As triangles an
 * ellipsoid resting on a mesh stood tilted 52 mrad on ODE's points.
 */
static bool
is_convex(const struct phys_collision *c)
{
	return c->hull || c->shape == PHYS_GEOM_ELLIPSOID ||
	    c->shape == PHYS_GEOM_CONE;
}

/*
 * Collision ci at the run's sizes, in *out. Triangles that differ from
 * the world's become the engine's own for ci (their data kept apart from
 * mesh_data's, whose list is by address); *old_mesh and *old_data get
 * the ones they replace, to release once the geom has let go of them.
 */
static int
run_shape(struct ode_engine *e, int ci, struct phys_collision *out,
    struct phys_mesh **old_mesh, dTriMeshDataID *old_data)
{
	struct phys_mesh *m;

	if (phys_engine_collision(&e->w->collisions[ci],
	    vals(e, PHYS_S_COLLISION, ci), out, &m) < 0)
		return -1;
	*old_mesh = e->own_mesh[ci];
	*old_data = e->own_data[ci];
	e->own_mesh[ci] = m;
	phys_mesh_grid_free(e->grid[ci]);
	e->grid[ci] = NULL;
	free(e->neighbours[ci]);
	e->neighbours[ci] = NULL;
	/* a hull is ODE's convex shape (make_convex), not triangles */
	e->own_data[ci] = m && !is_convex(out) ? trimesh_data(m) : NULL;
	return 0;
}

static void
release_shape(struct phys_mesh *m, dTriMeshDataID d)
{
	if (d)
		dGeomTriMeshDataDestroy(d);
	phys_mesh_free(m);
}

/*
 * ODE's convex of the hull m: planes (outward normal, distance from the
 * origin), points and polygons (a count, then the indices), read in
 * place by the geom. A triangle without area (qhull's triangulation of
 * a facet can make one) has no plane and is left out: the others cover
 * its place. ODE's convex must hold its own origin (its checks print to
 * standard output otherwise, and its tests assume it): the points are
 * taken about their mean, inside any hull with volume, and the geom
 * sits there (place_geom).
 */
struct ode_convex {
	dReal *planes, *points;
	unsigned *polygons;
	unsigned nplanes, npoints;
	phys_vec3 shift;	/* m, the mean of the hull's points */
	phys_vec3 radii;	/* an ellipsoid's semi-axes, m; else 0 */
};

static phys_vec3
vertex_of(const struct phys_mesh *m, unsigned k)
{
	return v3(m->v[3 * k], m->v[3 * k + 1], m->v[3 * k + 2]);
}

static struct ode_convex *
convex_of(const struct phys_mesh *m)
{
	struct ode_convex *c = phys_xcalloc(1, sizeof *c);
	const unsigned *t;
	double plane[4];
	phys_vec3 a;
	dReal *pl;
	size_t i;

	for (i = 0; i < m->nv; i++)
		c->shift = v3_add(c->shift, vertex_of(m, (unsigned)i));
	c->shift = v3_scale(c->shift, 1.0 / (double)(m->nv ? m->nv : 1));
	c->points = phys_xcalloc(3 * m->nv, sizeof *c->points);
	for (i = 0; i < m->nv; i++) {
		a = v3_sub(vertex_of(m, (unsigned)i), c->shift);
		c->points[3 * i] = a.x;
		c->points[3 * i + 1] = a.y;
		c->points[3 * i + 2] = a.z;
	}
	c->npoints = (unsigned)m->nv;
	c->planes = phys_xcalloc(4 * m->ntri, sizeof *c->planes);
	c->polygons = phys_xcalloc(4 * m->ntri, sizeof *c->polygons);
	for (i = 0; i < m->ntri; i++) {
		t = m->tri + 3 * i;
		if (!phys_hull_plane(m, i, c->shift, plane))
			continue;
		pl = c->planes + 4 * c->nplanes;
		pl[0] = plane[0], pl[1] = plane[1], pl[2] = plane[2];
		/* about the shifted origin */
		pl[3] = plane[3] - v3_dot(v3(plane[0], plane[1], plane[2]),
		    c->shift);
		c->polygons[4 * c->nplanes] = 3;
		memcpy(c->polygons + 4 * c->nplanes + 1, t, 3 * sizeof *t);
		c->nplanes++;
	}
	return c;
}

static void
convex_free(struct ode_convex *c)
{
	if (!c)
		return;
	free(c->planes);
	free(c->points);
	free(c->polygons);
	free(c);
}

/* ODE's convex of collision c (sized): its hull, an ellipsoid's or a
 * cone's polyhedron, an ellipsoid's semi-axes kept (corner_shape). */
static struct ode_convex *
convex_of_collision(const struct phys_collision *c)
{
	struct ode_convex *cv = convex_of(c->mesh);

	if (c->shape == PHYS_GEOM_ELLIPSOID)
		cv->radii = v3(c->size[0], c->size[1], c->size[2]);
	return cv;
}

/* A convex geom of the hull c->mesh for collision ci. */
static dGeomID
make_convex(struct ode_engine *e, int ci, const struct phys_collision *c)
{
	struct ode_convex *cv = convex_of_collision(c);

	convex_free(e->convex[ci]);
	e->convex[ci] = cv;
	return dCreateConvex(e->space, cv->planes, cv->nplanes, cv->points,
	    cv->npoints, cv->polygons);
}

/* Convex geom g of collision ci made c's (sized) hull, its old data let
 * go. */
static void
resize_convex(struct ode_engine *e, int ci, dGeomID g,
    const struct phys_collision *c)
{
	struct ode_convex *old = e->convex[ci], *cv = convex_of_collision(c);

	dGeomSetConvex(g, cv->planes, cv->nplanes, cv->points, cv->npoints,
	    cv->polygons);
	e->convex[ci] = cv;
	convex_free(old);
}

/*
 * Collision ci's geom where its frame is (a convex's at the centre its
 * points are taken about): on a body, offset from the body's frame; a
 * static one in the world.
 */
static void
place_geom(struct ode_engine *e, int ci)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	dGeomID g = e->geoms[ci];
	phys_pose at = c->pose;
	dQuaternion q;

	if (e->convex[ci])
		at = phys_pose_mul(at, (phys_pose){ e->convex[ci]->shift,
		    PHYS_QUAT_IDENTITY });
	if (dGeomGetBody(g)) {
		set_geom_offset(g, phys_pose_mul(phys_pose_inv(
		    e->links[c->link].inertial), at));
		return;
	}
	at = phys_pose_mul(e->w->links[c->link].pose, at);
	to_dquat(at.q, q);
	dGeomSetPosition(g, at.p.x, at.p.y, at.p.z);
	dGeomSetQuaternion(g, q);
}

/* The triangles ODE collides for collision ci, sized as in c. */
static dTriMeshDataID
shape_data(struct ode_engine *e, int ci, const struct phys_collision *c)
{
	return e->own_data[ci] ? e->own_data[ci] : mesh_data(e, c->mesh);
}

static dGeomID
make_shape(struct ode_engine *e, int ci, const struct phys_collision *c)
{
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		return dCreateBox(e->space, c->size[0], c->size[1], c->size[2]);
	case PHYS_GEOM_SPHERE:
		return dCreateSphere(e->space, c->size[0]);
	case PHYS_GEOM_CYLINDER:
		return dCreateCylinder(e->space, c->size[0], c->size[1]);
	case PHYS_GEOM_CAPSULE:
		return dCreateCapsule(e->space, c->size[0], c->size[1]);
	case PHYS_GEOM_MESH:
	case PHYS_GEOM_ELLIPSOID:
	case PHYS_GEOM_CONE:
		if (is_convex(c))
			return make_convex(e, ci, c);
		return dCreateTriMesh(e->space, shape_data(e, ci, c), NULL,
		    NULL, NULL);
	default:
		return NULL;
	}
}

static int
make_plane(struct ode_engine *e, int ci, phys_pose world)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	phys_vec3 n = phys_quat_rotate(world.q, c->normal);

	if (e->links[c->link].body)
		return phys_failat(PHYS_AT(c->doc, c->node),
		    "collision '%s': a plane must belong to a static model",
		    c->name);
	e->geoms[ci] = dCreatePlane(e->space, n.x, n.y, n.z,
	    v3_dot(n, world.p));
	dGeomSetData(e->geoms[ci], (void *)(intptr_t)(ci + 1));
	return 0;
}

static int
make_geom(struct ode_engine *e, int ci, const struct phys_engine_options *opt)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	struct ode_link *ol = &e->links[c->link];
	phys_pose world = phys_pose_mul(e->w->links[c->link].pose, c->pose);
	struct phys_collision sized;
	struct phys_mesh *old_mesh;
	dTriMeshDataID old_data;
	dGeomID g;

	if (c->shape == PHYS_GEOM_PLANE)
		return make_plane(e, ci, world);
	if (c->shape == PHYS_GEOM_HEIGHTMAP)
		return make_heightfield(e, ci, world);
	if (run_shape(e, ci, &sized, &old_mesh, &old_data) < 0)
		return -1;
	release_shape(old_mesh, old_data);	/* none yet: a new engine */
	g = make_shape(e, ci, &sized);
	if (!g) {
		if (!opt->skip_unsupported)
			return phys_failat(PHYS_AT(c->doc, c->node),
			    "collision '%s': the ODE engine has no such shape "
			    "(--skip-unsupported skips it)", c->name);
		phys_warnat(PHYS_AT(c->doc, c->node),
		    "skipping collision '%s': no such ODE shape", c->name);
		return 0;
	}
	dGeomSetData(g, (void *)(intptr_t)(ci + 1));
	if (ol->body)
		dGeomSetBody(g, ol->body);
	e->geoms[ci] = g;
	place_geom(e, ci);
	return 0;
}

static void
apply_link_flags(struct ode_engine *e, int li)
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	dBodyID b = e->links[li].body;

	dBodySetGravityMode(b, PVB(v, LINK_gravity));
	dBodySetLinearDamping(b, PVD(v, LINK_velocity_decay_linear));
	dBodySetAngularDamping(b, PVD(v, LINK_velocity_decay_angular));
	if (PVB(v, LINK_kinematic) && !dBodyIsKinematic(b)) {
		ode_engine_link_vel(e, li, &e->links[li].kin_lin,
		    &e->links[li].kin_ang);
		dBodySetKinematic(b);
	} else if (!PVB(v, LINK_kinematic)) {
		dBodySetDynamic(b);
	}
}

/* A static model's link, or one the world holds still (phys_still): no
 * body, its geoms the world's. */
static bool
link_is_static(const struct ode_engine *e, int li)
{
	return e->w->models[e->w->links[li].model].is_static ||
	    e->still.is[li];
}

static int
make_body(struct ode_engine *e, int li)
{
	const struct phys_link *l = &e->w->links[li];
	const struct phys_model *m = &e->w->models[l->model];
	struct ode_link *ol = &e->links[li];
	dMass mass;

	ol->inertial = body_frame(e, li);
	if (link_is_static(e, li) || rides(e, li))
		return 0;	/* static, or its host's body, once made */
	if (link_mass(e, li, &mass, true) < 0)
		return -1;
	ol->body = dBodyCreate(e->world);
	dBodySetData(ol->body, (void *)(intptr_t)(li + 1));
	dBodySetMass(ol->body, &mass);
	set_body_pose(ol->body, phys_pose_mul(l->pose, ol->inertial));
	dBodySetAutoDisableFlag(ol->body, 0);
	apply_link_flags(e, li);
	if (m->has_init_vel)
		ode_engine_set_link_vel(e, li, &m->init_linear,
		    &m->init_angular);
	return 0;
}

/* ---- joints ---- */

static dBodyID
joint_body(struct ode_engine *e, int link)
{
	return link < 0 ? NULL : e->links[link].body;
}

/*
 * ODE's functions for each joint type, a row a type, so that the type is
 * looked up once. A screw is ODE's piston, whose turn phys keeps itself
 * (ODE's wraps at pi: no position function); a gearbox is no joint of
 * ODE's.
 */
struct ode_kind {
	dJointID (*create)(dWorldID, dJointGroupID);
	int naxes;		/* axes with ODE's limits and motors */
	void (*set_param)(dJointID, int, dReal);
	void (*anchor)(dJointID, dVector3);
	void (*axis[2])(dJointID, dVector3);
	int nmeasured;		/* axes whose state ODE measures */
	dReal (*position[2])(dJointID);
	dReal (*rate[2])(dJointID);
	void (*add)(dJointID, dReal);		/* one axis's force */
	void (*add2)(dJointID, dReal, dReal);	/* two axes' */
	bool turns;		/* its axes turn: angles wrap at pi */
};

static const struct ode_kind ode_kinds[] = {
	[PHYS_JOINT_REVOLUTE] = {
		.create = dJointCreateHinge,
		.naxes = 1,
		.set_param = dJointSetHingeParam,
		.anchor = dJointGetHingeAnchor,
		.axis = { dJointGetHingeAxis, dJointGetHingeAxis },
		.nmeasured = 1,
		.position = { dJointGetHingeAngle },
		.rate = { dJointGetHingeAngleRate },
		.add = dJointAddHingeTorque,
		.turns = true,
	},
	[PHYS_JOINT_PRISMATIC] = {
		.create = dJointCreateSlider,
		.naxes = 1,
		.set_param = dJointSetSliderParam,
		.axis = { dJointGetSliderAxis, dJointGetSliderAxis },
		.nmeasured = 1,
		.position = { dJointGetSliderPosition },
		.rate = { dJointGetSliderPositionRate },
		.add = dJointAddSliderForce,
	},
	[PHYS_JOINT_FIXED] = {
		.create = dJointCreateFixed,
	},
	[PHYS_JOINT_BALL] = {
		.create = dJointCreateBall,
	},
	[PHYS_JOINT_UNIVERSAL] = {
		.create = dJointCreateUniversal,
		.naxes = 2,
		.set_param = dJointSetUniversalParam,
		.anchor = dJointGetUniversalAnchor,
		.axis = { dJointGetUniversalAxis1, dJointGetUniversalAxis2 },
		.nmeasured = 2,
		.position = { dJointGetUniversalAngle1,
		    dJointGetUniversalAngle2 },
		.rate = { dJointGetUniversalAngle1Rate,
		    dJointGetUniversalAngle2Rate },
		.add2 = dJointAddUniversalTorques,
		.turns = true,
	},
	[PHYS_JOINT_REVOLUTE2] = {
		.create = dJointCreateHinge2,
		.naxes = 2,
		.set_param = dJointSetHinge2Param,
		.anchor = dJointGetHinge2Anchor,
		.axis = { dJointGetHinge2Axis1, dJointGetHinge2Axis2 },
		.nmeasured = 2,
		.position = { dJointGetHinge2Angle1, dJointGetHinge2Angle2 },
		.rate = { dJointGetHinge2Angle1Rate,
		    dJointGetHinge2Angle2Rate },
		.add2 = dJointAddHinge2Torques,
		.turns = true,
	},
	[PHYS_JOINT_SCREW] = {	/* Gazebo's order: the turn, then travel */
		.create = dJointCreatePiston,
		.nmeasured = 2,
		.position = { NULL, dJointGetPistonPosition },
		.rate = { dJointGetPistonAngleRate,
		    dJointGetPistonPositionRate },
	},
	[PHYS_JOINT_GEARBOX] = { 0 },
};

static const struct ode_kind *
kind_of(const struct phys_joint *j)
{
	return &ode_kinds[j->type];
}

static void
set_axis_params(struct ode_engine *e, dJointID jid,
    const struct phys_joint *j, int axis)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT,
	    (int)(j - e->w->joints));
	/* Parameter numbers of the second axis are offset by dParamGroup. */
	int off = axis ? dParamGroup : 0;
	struct phys_axis_values a = phys_joint_axis_values(v, axis);
	double lo = a.lower, hi = a.upper;
	void (*set)(dJointID, int, dReal) = kind_of(j)->set_param;
	bool angular = j->type != PHYS_JOINT_PRISMATIC;
	/* ODE measures from where the joint was last set up. */
	double zero = e->joints[j - e->w->joints].offset[axis];

	if (!set)
		return;
	/* Reset first: ODE refuses a low stop above the current high one. */
	set(jid, dParamLoStop + off, -dInfinity);
	set(jid, dParamHiStop + off, dInfinity);
	/* ODE's angular stops only work within [-pi, pi] of its zero; a
	 * revolute joint's zero follows its turns (stops_follow_turn), a
	 * stop farther from it being more than a quarter turn away. */
	if (phys_has_lower(lo) && (!angular || phys_stop_in_reach(lo, zero)))
		set(jid, dParamLoStop + off, lo - zero);
	else if (phys_has_lower(lo) && j->type != PHYS_JOINT_REVOLUTE)
		phys_warn_once("joint '%s': lower limit %g is beyond -pi; "
		    "ODE cannot stop a revolute axis there", j->name, lo);
	if (phys_has_upper(hi) && (!angular || phys_stop_in_reach(hi, zero)))
		set(jid, dParamHiStop + off, hi - zero);
	else if (phys_has_upper(hi) && j->type != PHYS_JOINT_REVOLUTE)
		phys_warn_once("joint '%s': upper limit %g is beyond pi; "
		    "ODE cannot stop a revolute axis there", j->name, hi);
	/* Coulomb joint friction: a motor driving to rest with bounded force. */
	set(jid, dParamVel + off, 0);
	set(jid, dParamFMax + off, a.friction);
	set(jid, dParamStopERP + off, PVD(v, JOINT_physics_ode_limit_erp));
	set(jid, dParamStopCFM + off, PVD(v, JOINT_physics_ode_limit_cfm));
	set(jid, dParamBounce + off, PVD(v, JOINT_physics_ode_bounce));
	set(jid, dParamFudgeFactor + off, PVD(v, JOINT_physics_ode_fudge_factor));
	set(jid, dParamCFM + off, PVD(v, JOINT_physics_ode_cfm) > 0 ?
	    PVD(v, JOINT_physics_ode_cfm) : dWorldGetCFM(e->world));
	if (j->type == PHYS_JOINT_REVOLUTE2 && axis == 0) {
		set(jid, dParamSuspensionERP,
		    PVD(v, JOINT_physics_ode_suspension_erp));
		set(jid, dParamSuspensionCFM,
		    PVD(v, JOINT_physics_ode_suspension_cfm));
	}
}

/*
 * The joint's own physics.ode.cfm and erp (Gazebo's per-joint override).
 * Stock ODE softens the constraint rows themselves only on ball and fixed
 * joints (dParamCFM, dParamERP); on the others its dParamCFM is the axis
 * row's, set with the axis, and there is no per-joint ERP: said once.
 */
static void
set_joint_softness(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	void (*set)(dJointID, int, dReal) = NULL;
	const struct phys_value *cfm = PV(j->vals, JOINT_physics_ode_cfm);
	const struct phys_value *erp = PV(j->vals, JOINT_physics_ode_erp);

	if (j->type == PHYS_JOINT_BALL)
		set = dJointSetBallParam;
	else if (j->type == PHYS_JOINT_FIXED)
		set = dJointSetFixedParam;
	if (set) {
		set(e->joints[ji].joint, dParamCFM, cfm->given ?
		    cfm->u.d : dWorldGetCFM(e->world));
		set(e->joints[ji].joint, dParamERP, erp->given ?
		    erp->u.d : dWorldGetERP(e->world));
	} else if (erp->given) {
		phys_warn_once("joint '%s': physics.ode.erp is kept but inert: "
		    "stock ODE has per-joint ERP only on ball and fixed joints "
		    "(the profile's erp applies)", j->name);
	}
}

static void
configure_joint(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct ode_joint *oj = &e->joints[ji];
	dJointID jid = oj->joint;
	phys_pose child, jw;
	phys_vec3 a, b, p;
	dReal a1[3], a2[3];
	int k;

	ode_engine_link_pose(e, j->child, &child);
	jw = phys_pose_mul(child, oj->in_child);
	p = jw.p;
	a = phys_quat_rotate(child.q, oj->axis_child[0]);
	b = phys_quat_rotate(child.q, oj->axis_child[1]);
	a1[0] = a.x, a1[1] = a.y, a1[2] = a.z;
	a2[0] = b.x, a2[1] = b.y, a2[2] = b.z;

	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
		dJointSetHingeAnchor(jid, p.x, p.y, p.z);
		dJointSetHingeAxis(jid, a.x, a.y, a.z);
		break;
	case PHYS_JOINT_PRISMATIC:
		dJointSetSliderAxis(jid, a.x, a.y, a.z);
		break;
	case PHYS_JOINT_FIXED:
		dJointSetFixed(jid);
		break;
	case PHYS_JOINT_BALL:
		dJointSetBallAnchor(jid, p.x, p.y, p.z);
		break;
	case PHYS_JOINT_UNIVERSAL:
		dJointSetUniversalAnchor(jid, p.x, p.y, p.z);
		dJointSetUniversalAxis1(jid, a.x, a.y, a.z);
		dJointSetUniversalAxis2(jid, b.x, b.y, b.z);
		break;
	case PHYS_JOINT_REVOLUTE2:
		dJointSetHinge2Anchor(jid, p.x, p.y, p.z);
		dJointSetHinge2Axes(jid, a1, a2);
		break;
	case PHYS_JOINT_SCREW:	/* a cylinder joint; the coupling is ours */
		dJointSetPistonAnchor(jid, p.x, p.y, p.z);
		dJointSetPistonAxis(jid, a.x, a.y, a.z);
		oj->raw_angle = dJointGetPistonAngle(jid);
		break;
	case PHYS_JOINT_GEARBOX:
		break;
	}
	for (k = 0; k < kind_of(j)->naxes; k++)
		set_axis_params(e, jid, j, k);
	set_joint_softness(e, ji);
}

static void make_gearbox(struct ode_engine *e, int ji);

/* A kinematic body at rest: the world, for joints that need two bodies. */
static dBodyID
ground_body(struct ode_engine *e)
{
	if (!e->ground) {
		e->ground = dBodyCreate(e->world);
		dBodySetKinematic(e->ground);
	}
	return e->ground;
}

static void
make_joint(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	dBodyID child = joint_body(e, j->child), parent = joint_body(e, j->parent);
	dJointID jid;

	if ((!child && !parent) || child == parent)
		return;		/* nothing moves, or a rider's seat */
	if (j->type == PHYS_JOINT_GEARBOX) {
		make_gearbox(e, ji);
		return;
	}
	jid = kind_of(j)->create(e->world, NULL);
	/* ODE's first-order rotation update turns a fast nut less than its
	 * rate says, which the coupling would then fight */
	if (j->type == PHYS_JOINT_SCREW)
		dBodySetFiniteRotationMode(child ? child : parent, 1);
	/* ODE's hinge2 needs two bodies: the world is a body that stays put. */
	if (j->type == PHYS_JOINT_REVOLUTE2 && (!child || !parent)) {
		if (!child)
			child = parent;
		parent = ground_body(e);
	}
	/* Child first, as Gazebo does: positions grow with the child's motion. */
	if (child)
		dJointAttach(jid, child, parent);
	else
		dJointAttach(jid, parent, NULL);
	dJointSetFeedback(jid, &e->joints[ji].fb);
	e->joints[ji].joint = jid;
	e->joints[ji].in_child = phys_pose_mul(phys_pose_inv(
	    e->w->links[j->child].pose), j->pose);
	e->joints[ji].axis_child[0] = phys_quat_rotate(phys_quat_conj(
	    e->w->links[j->child].pose.q), j->axis[0]);
	e->joints[ji].axis_child[1] = phys_quat_rotate(phys_quat_conj(
	    e->w->links[j->child].pose.q), j->axis[1]);
	e->joints[ji].xyz[0] = PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz);
	e->joints[ji].xyz[1] = PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis2_xyz);
	if (j->type == PHYS_JOINT_SCREW)	/* turn and travel share it */
		e->joints[ji].axis_child[1] = e->joints[ji].axis_child[0];
	configure_joint(e, ji);
}

static bool
v3_equal(phys_vec3 a, phys_vec3 b)
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* A new axis.xyz at run time is taken in the joint frame (SDF 1.7's
 * default); the joint is set up again along it. */
static int
new_axes(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct ode_joint *oj = &e->joints[ji];
	phys_vec3 xyz[2] = { PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz),
		PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis2_xyz) };
	double pos[2], vel[2];
	int k, n;

	if (v3_equal(xyz[0], oj->xyz[0]) && v3_equal(xyz[1], oj->xyz[1]))
		return 0;
	for (k = 0; k < 2; k++)
		if (v3_norm(xyz[k]) == 0)
			return phys_fail("joint '%s': axis is zero", j->name);
	n = ode_engine_joint_state(e, ji, pos, vel);
	for (k = 0; k < n; k++)
		oj->offset[k] = pos[k];
	for (k = 0; k < 2; k++) {
		oj->axis_child[k] = v3_normalize(phys_quat_rotate(oj->in_child.q,
		    xyz[k]));
		oj->xyz[k] = xyz[k];
	}
	configure_joint(e, ji);
	return 0;
}

static void track_joint_turns(struct ode_engine *e, size_t i);

static int
ode_engine_apply_joint(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	int k;

	ODE_TRAP(e, return -1);

	if (!e->joints[ji].joint)
		return 0;
	if (new_axes(e, ji) < 0)
		return -1;
	for (k = 0; k < kind_of(j)->naxes; k++)
		set_axis_params(e, e->joints[ji].joint, j, k);
	set_joint_softness(e, ji);
	track_joint_turns(e, (size_t)ji);	/* limits given may follow */
	return 0;
}

static int ode_joint_state(const struct ode_engine *e, int ji, double pos[2],
    double vel[2]);
static int ode_joint_rates(const struct ode_engine *e, int ji,
    double vel[2]);

static int
ode_engine_joint_state(const struct ode_engine *e, int ji, double pos[2],
    double vel[2])
{
	int n = ode_joint_state(e, ji, pos, vel), k;

	for (k = 0; k < n; k++) {
		pos[k] += e->joints[ji].offset[k];
		/* a joint turns less than half a turn in a step */
		if (kind_of(&e->w->joints[ji])->turns)
			pos[k] = phys_angle_near(pos[k], e->joints[ji].last[k]);
	}
	return n;
}

static int
ode_joint_state(const struct ode_engine *e, int ji, double pos[2],
    double vel[2])
{
	const struct ode_kind *kind = kind_of(&e->w->joints[ji]);
	dJointID j = e->joints[ji].joint;
	int k, n = ode_joint_rates(e, ji, vel);

	pos[0] = pos[1] = 0;
	for (k = 0; k < n; k++)
		pos[k] = kind->position[k] ? kind->position[k](j) :
		    e->joints[ji].angle[k];
	return n;
}

/* Joint ji's rates alone: an angle costs ODE an arc tangent. */
static int
ode_joint_rates(const struct ode_engine *e, int ji, double vel[2])
{
	const struct ode_kind *kind = kind_of(&e->w->joints[ji]);
	dJointID j = e->joints[ji].joint;
	int k;

	vel[0] = vel[1] = 0;
	if (!j)
		return 0;
	for (k = 0; k < kind->nmeasured; k++)
		vel[k] = kind->rate[k](j);
	/* ODE's hinge-2 measures its second angle against the way it
	 * turns under a positive torque or rate: its rate and torque are
	 * taken the way its angle is (as under MuJoCo, DART and Simbody) */
	if (e->w->joints[ji].type == PHYS_JOINT_REVOLUTE2)
		vel[1] = -vel[1];
	return kind->nmeasured;
}

/* The world direction of axis k of a joint ODE moves along (or about). */
static phys_vec3
ode_axis(const struct ode_engine *e, int ji, int k)
{
	const struct ode_kind *kind = kind_of(&e->w->joints[ji]);
	dVector3 a = { 0, 0, 1, 0 };

	if (kind->axis[k])
		kind->axis[k](e->joints[ji].joint, a);
	return v3(a[0], a[1], a[2]);
}

/* A body as its joints' axes see it. */
static struct phys_body_inverse
body_inverse(dBodyID b)
{
	struct phys_body_inverse bi;
	const dReal *p;
	double I[9];
	dMass m;
	int r, c;

	memset(&bi, 0, sizeof bi);
	if (!b || dBodyIsKinematic(b))
		return bi;
	dBodyGetMass(b, &m);
	for (r = 0; r < 3; r++)
		for (c = 0; c < 3; c++)
			I[3 * r + c] = m.I[4 * r + c];
	bi.inv_mass = m.mass > 0 ? 1 / m.mass : 0;
	bi.inv_inertia = phys_inverse_inertia_world(I,
	    from_dquat(dBodyGetQuaternion(b)));
	p = dBodyGetPosition(b);
	bi.com = v3(p[0], p[1], p[2]);
	return bi;
}

/* At least what body_inverse's inverse inertia gives along any axis,
 * reckoned without inverting it (0: a body that does not move). */
static double
body_inverse_bound(dBodyID b)
{
	double I[9];
	dMass m;
	int r, c;

	if (!b || dBodyIsKinematic(b))
		return 0;
	dBodyGetMass(b, &m);
	for (r = 0; r < 3; r++)
		for (c = 0; c < 3; c++)
			I[3 * r + c] = m.I[4 * r + c];
	return phys_inverse_inertia_bound(I);
}

/* The point a turning joint's bodies are held together at. */
static phys_vec3
ode_anchor(const struct ode_engine *e, int ji)
{
	const struct ode_kind *kind = kind_of(&e->w->joints[ji]);
	dVector3 a = { 0, 0, 0, 0 };

	if (kind->anchor)
		kind->anchor(e->joints[ji].joint, a);
	return v3(a[0], a[1], a[2]);
}

/* The inverse inertia of the joint's motion along axis k, its two
 * bodies alone (phys_axis_inverse_inertia). */
static double
axis_inverse_inertia(struct ode_engine *e, int ji, int k)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct phys_body_inverse c = body_inverse(joint_body(e, j->child));
	struct phys_body_inverse p = body_inverse(joint_body(e, j->parent));

	return phys_axis_inverse_inertia(&c, &p, ode_anchor(e, ji),
	    ode_axis(e, ji, k), j->type == PHYS_JOINT_PRISMATIC);
}

/* What the damping of axis k is held to, as an inverse inertia: 0 when
 * even a bound of it, found without inverting anything, is followed
 * within a step (most joints; the exact one, two inverses and a
 * dozen products of 3 x 3 matrices, was 5% of a legged robot's step). */
static double
damping_inverse_inertia(struct ode_engine *e, int ji, int k)
{
	const struct phys_joint *j = &e->w->joints[ji];

	/* a slide's is the two inverse masses: as cheap as a bound */
	if (j->type != PHYS_JOINT_PRISMATIC &&
	    phys_joint_damping_within_step(vals(e, PHYS_S_JOINT, ji), k,
	    body_inverse_bound(joint_body(e, j->child)) +
	    body_inverse_bound(joint_body(e, j->parent)), e->step))
		return 0;
	return axis_inverse_inertia(e, ji, k);
}

/*
 * Gazebo's implicit spring and damper: the axis's stops, both at the
 * spring's reference (ODE then makes the row two-sided), softened to the
 * spring and damper by their ERP and CFM. Beyond the axis's limits the
 * limits hold instead, as in Gazebo. True when the row holds them.
 */
static bool
spring_row(struct ode_engine *e, int ji, int k, double pos, bool with_spring)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	dJointID jid = e->joints[ji].joint;
	void (*set)(dJointID, int, dReal) = kind_of(j)->set_param;
	int off = k ? dParamGroup : 0;
	struct phys_axis_values a = phys_joint_axis_values(v, k);
	double zero = e->joints[ji].offset[k], erp, cfm, at;

	if (!set || !phys_joint_spring_row(v, k, e->step, with_spring, &erp,
	    &cfm))
		return false;
	if (pos < a.lower || pos > a.upper) {
		set_axis_params(e, jid, j, k);
		return false;
	}
	/* A damper alone holds no place: its stop is where the axis is. */
	at = (with_spring ? a.reference : pos) - zero;
	if (j->type != PHYS_JOINT_PRISMATIC)
		at = remainder(at, 2 * M_PI);
	set(jid, dParamLoStop + off, -dInfinity);
	set(jid, dParamHiStop + off, dInfinity);
	set(jid, dParamLoStop + off, at);
	set(jid, dParamHiStop + off, at);
	set(jid, dParamStopERP + off, erp);
	set(jid, dParamStopCFM + off, cfm);
	set(jid, dParamBounce + off, 0);
	return true;
}

/* Joint ji's motor row for its servo: an angular motor on a hinge, a
 * linear one on a slider, on the joint's bodies in the joint's order. */
static dJointID
servo_motor(struct ode_engine *e, int ji)
{
	struct ode_joint *oj = &e->joints[ji];
	bool linear = e->w->joints[ji].type == PHYS_JOINT_PRISMATIC;

	if (oj->servo_row)
		return oj->servo_row;
	oj->servo_row = linear ? dJointCreateLMotor(e->world, NULL) :
	    dJointCreateAMotor(e->world, NULL);
	dJointAttach(oj->servo_row, dJointGetBody(oj->joint, 0),
	    dJointGetBody(oj->joint, 1));
	if (linear) {
		dJointSetLMotorNumAxes(oj->servo_row, 1);
	} else {
		dJointSetAMotorMode(oj->servo_row, dAMotorUser);
		dJointSetAMotorNumAxes(oj->servo_row, 1);
	}
	dJointSetFeedback(oj->servo_row, &oj->servo_fb);
	return oj->servo_row;
}

/*
 * An implicit servo (motor.h) too stiff for a force held over the step,
 * on a hinge's or slider's axis, held in a motor row of its own (the
 * joint's is its friction's), implicit in the axis's rate as ODE's stops
 * are in a spring's (phys_servo_row); the middle of its range is held as
 * an effort (*cmd). Any other servo stays the effort the driver
 * computed, as gz-sim applies it, as does any other command.
 */
static void
servo_in_row(struct ode_engine *e, int ji, double pos, double *cmd)
{
	struct ode_joint *oj = &e->joints[ji];
	const struct phys_joint *j = &e->w->joints[ji];
	bool linear = j->type == PHYS_JOINT_PRISMATIC;
	void (*set)(dJointID, int, dReal) = linear ? dJointSetLMotorParam :
	    dJointSetAMotorParam;
	struct phys_servo_row r;
	dVector3 ax;

	oj->servo_held = false;
	if (!phys_servo_implicit(&oj->servo, j->type) ||
	    !phys_servo_row(&oj->servo, e->step, axis_inverse_inertia(e, ji,
	    0), pos, &r)) {
		if (oj->servo_row)	/* no force: no row */
			set(oj->servo_row, dParamFMax, 0);
		return;
	}
	kind_of(j)->axis[0](oj->joint, ax);
	(linear ? dJointSetLMotorAxis : dJointSetAMotorAxis)(servo_motor(e,
	    ji), 0, 1, ax[0], ax[1], ax[2]);
	set(oj->servo_row, dParamVel, r.rate);
	set(oj->servo_row, dParamFMax, r.half);
	set(oj->servo_row, dParamCFM, r.cfm);
	oj->servo_axis = v3(ax[0], ax[1], ax[2]);
	oj->servo_middle = r.middle;
	oj->servo_held = true;
	*cmd = r.middle;
}

static void ode_engine_link_pose(const struct ode_engine *e, int li,
    phys_pose *out);
static void ode_engine_link_vel(const struct ode_engine *e, int li,
    phys_vec3 *lin, phys_vec3 *ang);

/* Link li's turn and angular velocity now (the world's for -1). */
static phys_quat
link_turn(const struct ode_engine *e, int li, phys_vec3 *w)
{
	phys_pose p = PHYS_POSE_IDENTITY;
	phys_vec3 lin;

	*w = v3(0, 0, 0);
	if (li >= 0) {
		ode_engine_link_pose(e, li, &p);
		ode_engine_link_vel(e, li, &lin, w);
	}
	return p.q;
}

/*
 * A ball's Coulomb friction f: an angular motor of three rows along its
 * joint frame's axes, fixed in its first body (the child), each driving
 * the two bodies' relative rate about its axis to zero with at most f,
 * as a hinge's friction is its motor row (stop_params) and as MuJoCo
 * holds a ball's frictionloss on each of its three turns.
 */
static void
ball_friction(struct ode_engine *e, int ji, double f)
{
	struct ode_joint *oj = &e->joints[ji];
	dBodyID b0 = dJointGetBody(oj->joint, 0);
	phys_pose child;
	phys_vec3 ax;
	int k;

	if (!oj->friction_rows) {
		if (!(f > 0) || !b0 || e->w->joints[ji].child < 0)
			return;
		oj->friction_rows = dJointCreateAMotor(e->world, NULL);
		dJointAttach(oj->friction_rows, b0,
		    dJointGetBody(oj->joint, 1));
		dJointSetAMotorMode(oj->friction_rows, dAMotorUser);
		dJointSetAMotorNumAxes(oj->friction_rows, 3);
		/* the joint frame's axes, as the child turns them now */
		ode_engine_link_pose(e, e->w->joints[ji].child, &child);
		child.q = phys_quat_mul(child.q, oj->in_child.q);
		for (k = 0; k < 3; k++) {
			ax = phys_quat_rotate(child.q, v3(k == 0, k == 1,
			    k == 2));
			dJointSetAMotorAxis(oj->friction_rows, k, 1, ax.x,
			    ax.y, ax.z);
		}
	}
	for (k = 0; k < 3; k++) {
		dJointSetAMotorParam(oj->friction_rows, dParamVel +
		    k * dParamGroup, 0);
		dJointSetAMotorParam(oj->friction_rows, dParamFMax +
		    k * dParamGroup, fmax(f, 0));
	}
}

/*
 * A ball's range, its largest turn from where it was loaded (MuJoCo's):
 * an angular motor of one row, its axis the turn's (phys_ball_turn, in
 * the world's frame, set again every step), told the turn's angle, its
 * high stop at the range, as stiff as a hinge's stops (limit_erp and
 * limit_cfm): it pushes back only along the turn's axis, and only past
 * the range, as MuJoCo's ball limit does.
 */
static void
ball_range(struct ode_engine *e, int ji, double upper, phys_quat qc,
    phys_quat qp)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	struct ode_joint *oj = &e->joints[ji];
	dBodyID b0 = dJointGetBody(oj->joint, 0);
	phys_vec3 n;
	double turn;

	if (!oj->range_row) {
		if (!phys_has_upper(upper) || !b0)
			return;
		oj->range_row = dJointCreateAMotor(e->world, NULL);
		dJointAttach(oj->range_row, b0, dJointGetBody(oj->joint, 1));
		dJointSetAMotorMode(oj->range_row, dAMotorUser);
		dJointSetAMotorNumAxes(oj->range_row, 1);
	}
	turn = phys_ball_turn(e->w, ji, qc, qp, &n);
	/* the turn grows with the first body's rate: the child's, unless
	 * the child is the world */
	if (b0 != joint_body(e, e->w->joints[ji].child))
		n = v3_scale(n, -1);
	dJointSetAMotorAxis(oj->range_row, 0, 0, n.x, n.y, n.z);
	dJointSetAMotorAngle(oj->range_row, 0, turn);
	dJointSetAMotorParam(oj->range_row, dParamHiStop, phys_has_upper(
	    upper) ? upper : dInfinity);
	dJointSetAMotorParam(oj->range_row, dParamStopERP,
	    PVD(v, JOINT_physics_ode_limit_erp));
	dJointSetAMotorParam(oj->range_row, dParamStopCFM,
	    PVD(v, JOINT_physics_ode_limit_cfm));
	dJointSetAMotorParam(oj->range_row, dParamBounce,
	    PVD(v, JOINT_physics_ode_bounce));
}

/* A ball's damping and spring (phys_ball_torque) on its two bodies, its
 * friction and range in motor rows. */
static void
ball_forces(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	dBodyID c = joint_body(e, j->child), p = joint_body(e, j->parent);
	phys_vec3 wc, wp, t;
	phys_quat qc, qp;

	ball_friction(e, ji, phys_joint_axis_values(v, 0).friction);
	qc = link_turn(e, j->child, &wc);
	qp = link_turn(e, j->parent, &wp);
	ball_range(e, ji, phys_ball_range(v), qc, qp);
	if (!(phys_ball_values_set(v) & (PHYS_BALL_DAMPING | PHYS_BALL_SPRING)))
		return;
	t = phys_ball_torque(e->w, ji, v, qc, qp, v3_sub(wc, wp),
	    body_inverse_bound(c) + body_inverse_bound(p), e->step);
	if (c && !dBodyIsKinematic(c))
		dBodyAddTorque(c, t.x, t.y, t.z);
	if (p && !dBodyIsKinematic(p))
		dBodyAddTorque(p, -t.x, -t.y, -t.z);
}

/* Whether joint ji's forces depend on where it is: a spring, the stops'
 * row or a servo there does; damping alone wants its rate only. */
static bool
forces_need_position(const struct ode_engine *e, int ji,
    enum phys_joint_springs how)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);

	return how != PHYS_SPRINGS_FORCE ||
	    PVD(v, JOINT_axis_dynamics_spring_stiffness) != 0 ||
	    PVD(v, JOINT_axis2_dynamics_spring_stiffness) != 0 ||
	    phys_servo_implicit(&e->joints[ji].servo, e->w->joints[ji].type);
}

/*
 * Springs and viscous damping: as generalized forces, stable at any
 * damping (phys_joint_spring_damper_stable), or in the stops' row when
 * the joint asks for Gazebo's implicit form.
 */
static void
joint_forces(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	enum phys_joint_springs how = phys_joint_springs(v);
	double pos[2] = { 0, 0 }, vel[2], f[2] = { 0, 0 };
	dJointID jid = e->joints[ji].joint;
	int n, k;

	if (j->type == PHYS_JOINT_BALL) {
		ball_forces(e, ji);
		return;
	}
	if (forces_need_position(e, ji, how))
		n = ode_engine_joint_state(e, ji, pos, vel);
	else
		n = ode_joint_rates(e, ji, vel);
	for (k = 0; k < n; k++) {
		if (how != PHYS_SPRINGS_FORCE && spring_row(e, ji, k, pos[k],
		    how == PHYS_SPRINGS_ROW)) {
			/* the row holds the damping, and the spring with it */
			f[k] = how == PHYS_SPRINGS_ROW ? 0 :
			    phys_joint_spring_damper(v, k, pos[k], 0);
			e->joints[ji].applied[k] = phys_joint_spring_damper(v,
			    k, pos[k], vel[k]);
			continue;
		}
		f[k] = phys_joint_spring_damper_stable(v, k, pos[k], vel[k],
		    damping_inverse_inertia(e, ji, k), e->step);
		e->joints[ji].applied[k] = f[k];
	}
	for (k = 0; k < n; k++) {
		double cmd = e->joints[ji].cmd[k];

		if (k == 0 && n == 1)
			servo_in_row(e, ji, pos[0], &cmd);
		f[k] += cmd;
		e->joints[ji].applied[k] += cmd;
	}
	if (n == 0 || (f[0] == 0 && (n < 2 || f[1] == 0)))
		return;
	if (kind_of(j)->add2)
		kind_of(j)->add2(jid, f[0], j->type == PHYS_JOINT_REVOLUTE2 ?
		    -f[1] : f[1]);
	else if (kind_of(j)->add)
		kind_of(j)->add(jid, f[0]);
}

/*
 * ---- coupled joints: screw and gearbox ----
 *
 * Stock ODE has neither. A screw is ODE's piston (a cylinder joint: travel
 * and turn about one axis) whose two motions phys couples; a gearbox
 * couples the turns of two links about their axes, measured from a
 * reference body. Each coupling is one row, sum(c_i * rate_i) = target,
 * over relative rates between two bodies along an axis. Before each step
 * phys predicts the rates the step would reach without the coupling
 * (velocities plus applied forces and gravity over the step) and adds the
 * force that makes the row hold, computed with each body's inertia along
 * its coupled motion; a Baumgarte term (the profile's ERP) pulls the
 * positions back onto the coupling.
 */

struct coupling_term {
	dBodyID plus, minus;	/* rate = rate(plus) - rate(minus) */
	phys_vec3 axis;		/* world frame */
	phys_vec3 anchor;	/* a point of the axis, for turns */
	bool linear;
	double c;
};

/* Inverse inertia of a body against a force along (or turn about) axis. */
static double
body_inverse_inertia(dBodyID b, const struct coupling_term *t)
{
	dMass m;
	phys_quat q;
	phys_vec3 a, r;
	double j;

	if (!b || dBodyIsKinematic(b))
		return 0;
	dBodyGetMass(b, &m);
	if (t->linear)
		return 1 / m.mass;
	q = from_dquat(dBodyGetQuaternion(b));
	a = phys_quat_rotate(phys_quat_conj(q), t->axis);	/* in the body frame */
	j = a.x * (m.I[0] * a.x + m.I[1] * a.y + m.I[2] * a.z) +
	    a.y * (m.I[4] * a.x + m.I[5] * a.y + m.I[6] * a.z) +
	    a.z * (m.I[8] * a.x + m.I[9] * a.y + m.I[10] * a.z);
	r = v3_sub(body_pose(b).p, t->anchor);
	j += m.mass * v3_dot(v3_cross(r, t->axis), v3_cross(r, t->axis));
	return 1 / j;
}

/* The rate one body would reach along the term by the end of the step. */
static double
predicted_rate(struct ode_engine *e, dBodyID b, const struct coupling_term *t)
{
	const dReal *v, *f, *tq;
	phys_vec3 force, torque, r;
	dVector3 g;
	dMass m;

	if (!b)
		return 0;
	v = t->linear ? dBodyGetLinearVel(b) : dBodyGetAngularVel(b);
	if (dBodyIsKinematic(b))
		return v3_dot(v3(v[0], v[1], v[2]), t->axis);
	f = dBodyGetForce(b);
	tq = dBodyGetTorque(b);
	dBodyGetMass(b, &m);
	dWorldGetGravity(e->world, g);
	force = v3(f[0], f[1], f[2]);
	if (dBodyGetGravityMode(b))
		force = v3_add(force, v3_scale(v3(g[0], g[1], g[2]), m.mass));
	if (t->linear)
		return v3_dot(v3(v[0], v[1], v[2]), t->axis) +
		    e->step * v3_dot(force, t->axis) / m.mass;
	r = v3_sub(body_pose(b).p, t->anchor);
	torque = v3_add(v3(tq[0], tq[1], tq[2]), v3_cross(r, force));
	return v3_dot(v3(v[0], v[1], v[2]), t->axis) + e->step *
	    v3_dot(torque, t->axis) * body_inverse_inertia(b, t);
}

static void
push_body(dBodyID b, const struct coupling_term *t, double f)
{
	if (!b || dBodyIsKinematic(b))
		return;
	if (t->linear)
		dBodyAddForce(b, f * t->axis.x, f * t->axis.y, f * t->axis.z);
	else
		dBodyAddTorque(b, f * t->axis.x, f * t->axis.y, f * t->axis.z);
}

/* Make sum(c_i * rate_i) reach target by the end of the step, pushing
 * either way (side 0) or only to raise it (1) or to lower it (-1). */
static void
solve_coupling(struct ode_engine *e, const struct coupling_term *t, int n,
    double target, int side)
{
	double rate = 0, w = 0, lambda;
	int i;

	for (i = 0; i < n; i++) {
		rate += t[i].c * (predicted_rate(e, t[i].plus, &t[i]) -
		    predicted_rate(e, t[i].minus, &t[i]));
		w += t[i].c * t[i].c * (body_inverse_inertia(t[i].plus, &t[i]) +
		    body_inverse_inertia(t[i].minus, &t[i]));
	}
	if (w <= 0)
		return;
	lambda = (target - rate) / w / e->step;	/* a force over the step */
	if (side * lambda < 0)
		return;
	for (i = 0; i < n; i++) {
		push_body(t[i].plus, &t[i], lambda * t[i].c);
		push_body(t[i].minus, &t[i], -lambda * t[i].c);
	}
}

static void
couple_screw(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct ode_joint *oj = &e->joints[ji];
	struct coupling_term t[2];
	double lead = phys_joint_screw_lead(vals(e, PHYS_S_JOINT, ji)), x;
	phys_pose child;
	dVector3 p;

	ode_engine_link_pose(e, j->child, &child);
	dJointGetPistonAnchor(oj->joint, p);
	memset(t, 0, sizeof t);
	t[0].plus = t[1].plus = joint_body(e, j->child);
	t[0].minus = t[1].minus = joint_body(e, j->parent);
	t[0].axis = t[1].axis = phys_quat_rotate(child.q, oj->axis_child[0]);
	t[0].anchor = t[1].anchor = v3(p[0], p[1], p[2]);
	t[0].linear = true;
	t[0].c = 1;
	t[1].c = -lead;
	x = dJointGetPistonPosition(oj->joint);
	solve_coupling(e, t, 2, -e->erp * (x - lead * oj->angle[0]) / e->step,
	    0);
}

/* A revolute joint between the reference and a geared link: its anchor. */
static phys_vec3
gear_anchor(struct ode_engine *e, int ref, int link)
{
	double sign;
	int i = phys_gear_hinge(e->w, ref, link, v3(0, 0, 1), &sign);
	phys_pose child;

	if (i < 0 || !e->joints[i].joint)
		return body_pose(e->links[link].body).p;
	ode_engine_link_pose(e, e->w->joints[i].child, &child);
	return phys_pose_mul(child, e->joints[i].in_child).p;
}

static phys_quat
reference_rotation(struct ode_engine *e, int ref)
{
	phys_pose p = PHYS_POSE_IDENTITY;

	if (ref >= 0)
		ode_engine_link_pose(e, ref, &p);
	return p.q;
}

static void
gear_terms(struct ode_engine *e, int ji, struct coupling_term t[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	phys_quat q = reference_rotation(e, j->reference);
	int k, link;

	memset(t, 0, 2 * sizeof *t);
	for (k = 0; k < 2; k++) {
		link = k ? j->child : j->parent;
		t[k].plus = link >= 0 ? e->links[link].body : NULL;
		t[k].minus = joint_body(e, j->reference);
		t[k].axis = phys_quat_rotate(q, e->joints[ji].axis_ref[k]);
		t[k].anchor = link >= 0 && t[k].plus ?
		    gear_anchor(e, j->reference, link) : v3(0, 0, 0);
	}
	/* theta_2 = -ratio * theta_1 */
	t[0].c = PVD(vals(e, PHYS_S_JOINT, ji), JOINT_gearbox_ratio);
	t[1].c = 1;
}

static void
couple_gearbox(struct ode_engine *e, int ji)
{
	struct ode_joint *oj = &e->joints[ji];
	struct coupling_term t[2];

	gear_terms(e, ji, t);
	solve_coupling(e, t, 2, -e->erp * (t[0].c * oj->angle[0] +
	    oj->angle[1]) / e->step, 0);
}

static void
make_gearbox(struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	phys_quat q = phys_quat_conj(j->reference >= 0 ?
	    e->w->links[j->reference].pose.q : PHYS_QUAT_IDENTITY);

	e->joints[ji].axis_ref[0] = phys_quat_rotate(q, j->axis[0]);
	e->joints[ji].axis_ref[1] = phys_quat_rotate(q, j->axis[1]);
}

static bool
is_gearbox_live(const struct ode_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];

	return j->type == PHYS_JOINT_GEARBOX &&
	    ((j->parent >= 0 && e->links[j->parent].body) ||
	    e->links[j->child].body);
}

/* The motion along a revolute or prismatic joint's axis, weighted c. */
static void
axis_term(struct ode_engine *e, int ji, double c, struct coupling_term *t)
{
	const struct phys_joint *j = &e->w->joints[ji];
	phys_pose child;

	memset(t, 0, sizeof *t);
	ode_engine_link_pose(e, j->child, &child);
	t->plus = joint_body(e, j->child);
	t->minus = joint_body(e, j->parent);
	t->axis = phys_quat_rotate(child.q, e->joints[ji].axis_child[0]);
	t->anchor = phys_pose_mul(child, e->joints[ji].in_child).p;
	t->linear = j->type == PHYS_JOINT_PRISMATIC;
	t->c = c;
}

static void
said_slip(struct ode_engine *e, int ji, double gap)
{
	if (e->slip_said || fabs(gap) <= PHYS_COUPLING_SLIP)
		return;
	e->slip_said = true;
	phys_coupling_slip_note("ODE", e->w->joints[ji].name, gap);
}

/* follower = sum of multiplier * (leader - reference), + offset */
static void
couple_mimic(struct ode_engine *e, int ji)
{
	const struct phys_mimic *m = &e->w->joints[ji].mimic;
	struct coupling_term t[PHYS_MIMIC_LEADERS + 1];
	double p[2], v[2], gap;
	int i;

	if (!e->joints[ji].joint)
		return;
	axis_term(e, ji, 1, &t[0]);
	ode_engine_joint_state(e, ji, p, v);
	gap = p[0] - phys_mimic_base(m);
	for (i = 0; i < m->nleaders; i++) {
		if (!e->joints[m->lead[i].joint].joint)
			return;
		axis_term(e, m->lead[i].joint, -m->lead[i].multiplier,
		    &t[i + 1]);
		ode_engine_joint_state(e, m->lead[i].joint, p, v);
		gap -= m->lead[i].multiplier * p[0];
	}
	solve_coupling(e, t, m->nleaders + 1, -e->erp * gap / e->step, 0);
	said_slip(e, ji, gap);
}

/* A fixed limited tendon past a bound of its range: a one-sided
 * coupling over its joints that brings its rate to the profile's ERP of
 * its overshoot a step, back in only (phys_tendon_past). */
static void
limit_tendon(struct ode_engine *e, const struct phys_tendon *t)
{
	struct coupling_term *term;
	double p[2], v[2], len = 0, bound;
	int k, side;

	for (k = 0; k < t->njoints; k++) {
		if (!e->joints[t->joints[k]].joint)
			return;
		ode_engine_joint_state(e, t->joints[k], p, v);
		len += t->coef[k] * p[0];
	}
	if (!(side = phys_tendon_past(t, len, &bound)))
		return;
	term = phys_xcalloc((size_t)t->njoints, sizeof *term);
	for (k = 0; k < t->njoints; k++)
		axis_term(e, t->joints[k], t->coef[k], &term[k]);
	solve_coupling(e, term, t->njoints, -e->erp * (len - bound) / e->step,
	    side);
	free(term);
}

static void
couple_joints(struct ode_engine *e)
{
	size_t i;

	for (i = 0; i < e->w->njoints; i++)
		if (e->w->joints[i].type == PHYS_JOINT_SCREW &&
		    e->joints[i].joint)
			couple_screw(e, (int)i);
		else if (is_gearbox_live(e, (int)i))
			couple_gearbox(e, (int)i);
		else if (e->w->joints[i].mimic.nleaders)
			couple_mimic(e, (int)i);
	for (i = 0; i < e->w->ntendons; i++)
		if (e->w->tendons[i].njoints)
			limit_tendon(e, &e->w->tendons[i]);
}

static double
rate_along(dBodyID b, phys_vec3 axis)
{
	const dReal *w;

	if (!b)
		return 0;
	w = dBodyGetAngularVel(b);
	return v3_dot(v3(w[0], w[1], w[2]), axis);
}

/* After a step: unwrap the screws' turns, integrate the gear angles
 * (ODE moves bodies with the velocities the step ends with). */
static void
track_coupled_angles(struct ode_engine *e)
{
	struct coupling_term t[2];
	struct ode_joint *oj;
	double raw, d;
	size_t i;
	int k;

	for (i = 0; i < e->w->njoints; i++) {
		oj = &e->joints[i];
		if (e->w->joints[i].type == PHYS_JOINT_SCREW && oj->joint) {
			raw = dJointGetPistonAngle(oj->joint);
			d = remainder(raw - oj->raw_angle, 2 * M_PI);
			oj->angle[0] += d;
			oj->raw_angle = raw;
		} else if (is_gearbox_live(e, (int)i)) {
			gear_terms(e, (int)i, t);
			for (k = 0; k < 2; k++)
				oj->angle[k] += e->step * (rate_along(t[k].plus,
				    t[k].axis) - rate_along(t[k].minus,
				    t[k].axis));
		}
	}
}

/* ---- contacts ---- */

static int
geom_collision(dGeomID g)
{
	return (int)(intptr_t)dGeomGetData(g) - 1;
}

/* A surface's contact stiffness as ERP and CFM for step h. */
struct softness {
	double erp, cfm;
	double kp, kd;
	bool soft;	/* given as soft_erp/soft_cfm rather than kp/kd */
};

static struct softness
surface_softness(const struct phys_value *v, double h)
{
	struct softness s;

	s.kp = PVD(v, COLLISION_surface_contact_ode_kp);
	s.kd = PVD(v, COLLISION_surface_contact_ode_kd);
	s.soft = (PV(v, COLLISION_surface_contact_ode_soft_cfm)->given ||
	    PV(v, COLLISION_surface_contact_ode_soft_erp)->given) &&
	    !PV(v, COLLISION_surface_contact_ode_kp)->given &&
	    !PV(v, COLLISION_surface_contact_ode_kd)->given;
	if (s.soft) {
		s.erp = PVD(v, COLLISION_surface_contact_ode_soft_erp);
		s.cfm = PVD(v, COLLISION_surface_contact_ode_soft_cfm);
	} else {
		phys_spring_erp_cfm(s.kp, s.kd, h, &s.erp, &s.cfm);
	}
	return s;
}

/*
 * Two surfaces in contact: springs in series, dampers in parallel; when
 * either surface is given as soft_erp/soft_cfm, compliances add and the
 * smaller ERP wins.
 */
static void
contact_softness(const struct phys_value *a, const struct phys_value *b,
    const struct phys_contact_surface *s, double h, double *erp, double *cfm)
{
	struct softness sa = surface_softness(a, h), sb = surface_softness(b, h);

	if (!sa.soft && !sb.soft) {
		phys_spring_erp_cfm(s->kp, s->kd, h, erp, cfm);
		return;
	}
	*erp = fmin(sa.erp, sb.erp);
	*cfm = sa.cfm + sb.cfm;
}

static phys_vec3
geom_fdir(dGeomID g, const struct phys_value *v)
{
	phys_vec3 d = PVV(v, COLLISION_surface_friction_ode_fdir1);
	dQuaternion q;

	if (v3_norm(d) == 0 || dGeomGetClass(g) == dPlaneClass)
		return d;
	dGeomGetQuaternion(g, q);
	return v3_normalize(phys_quat_rotate(from_dquat(q), d));
}

static phys_vec3
point_vel(dBodyID b, const dReal *pos)
{
	dVector3 v = { 0, 0, 0 };

	if (b)
		dBodyGetPointVel(b, pos[0], pos[1], pos[2], v);
	return v3(v[0], v[1], v[2]);
}

static void
set_friction(struct ode_engine *e, dContact *c, dGeomID g1, dGeomID g2,
    const struct phys_value *a, const struct phys_value *b,
    const struct phys_contact_surface *s)
{
	phys_vec3 fd = geom_fdir(g1, a), n, rel;

	c->surface.mu = s->mu;
	c->surface.mu2 = s->mu2;
	c->surface.mode |= dContactMu2;
	if (e->friction != FRICTION_BOX)
		c->surface.mode |= dContactApprox1;
	if (v3_norm(fd) == 0)
		fd = geom_fdir(g2, b);
	if (e->friction == FRICTION_CONE) {
		/* Align the first direction with the sliding velocity, so the
		 * friction force opposes it exactly: |f| <= mu N, a cone. */
		n = v3(c->geom.normal[0], c->geom.normal[1], c->geom.normal[2]);
		rel = v3_sub(point_vel(dGeomGetBody(g1), c->geom.pos),
		    point_vel(dGeomGetBody(g2), c->geom.pos));
		rel = v3_sub(rel, v3_scale(n, v3_dot(rel, n)));
		fd = v3_norm(rel) > 1e-9 ? v3_normalize(rel) : fd;
		c->surface.mu2 = c->surface.mu;
	}
	if (v3_norm(fd) > 0) {
		c->surface.mode |= dContactFDir1;
		c->fdir1[0] = fd.x, c->fdir1[1] = fd.y, c->fdir1[2] = fd.z;
	}
	c->surface.slip1 = s->slip1;
	c->surface.slip2 = s->slip2;
	if (c->surface.slip1 > 0)
		c->surface.mode |= dContactSlip1;
	if (c->surface.slip2 > 0)
		c->surface.mode |= dContactSlip2;
}

/* The pair's surface, its depth and ERP held to the profile's surface
 * layer and largest correcting speed (ODE's own are global). */
static void
set_contact(struct ode_engine *e, dContact *c, dGeomID g1, dGeomID g2,
    const struct phys_value *a, const struct phys_value *b)
{
	double h = e->step, erp, cfm, min_depth, max_vel, depth;
	struct phys_contact_surface s;

	phys_contact_surface(a, b, &s);
	c->surface.mode = dContactSoftERP | dContactSoftCFM;
	set_friction(e, c, g1, g2, a, b, &s);
	contact_softness(a, b, &s, h, &erp, &cfm);
	min_depth = fmin(e->surface_layer, s.min_depth);
	max_vel = fmin(e->max_correcting_vel, s.max_vel);
	depth = fmax(c->geom.depth - fmax(min_depth, 0), 0);
	c->geom.depth = depth;
	/* A spring (kp, kd) holds what it carries: capped, it would carry
	 * at most max_vel (h kp + kd) a point (10 N for kp 1e6, kd 1 and
	 * SDF's 0.01 m/s) and sink under more. Gazebo's ODE caps only the
	 * velocity a correction leaves, not the push out of the depth. */
	if (!s.kp_kd_given && depth > 0 && erp * depth / h > max_vel)
		erp = max_vel * h / depth;
	c->surface.soft_erp = erp;
	c->surface.soft_cfm = cfm;
	c->surface.bounce = s.bounce;
	c->surface.bounce_vel = s.bounce_vel;
	if (c->surface.bounce > 0)
		c->surface.mode |= dContactBounce;
}

/* Whether ODE joint j is one of the rows of a joint whose links may touch
 * (phys_joint_keeps_apart). */
static bool
touch_row(const struct ode_engine *e, dJointID j)
{
	const struct ode_joint *oj;
	size_t i;

	for (i = 0; i < e->w->njoints; i++) {
		oj = &e->joints[i];
		if (e->w->joints[i].touch && (j == oj->joint ||
		    j == oj->servo_row || j == oj->friction_rows ||
		    j == oj->range_row))
			return true;
	}
	return false;
}

/* Whether a joint of bodies b1 and b2 keeps them apart: any but their
 * contacts and the rows of a joint whose links may touch. */
static bool
joined_apart(const struct ode_engine *e, dBodyID b1, dBodyID b2)
{
	dJointID j;
	int k;

	if (!e->ntouch)
		return dAreConnectedExcluding(b1, b2, dJointTypeContact);
	for (k = 0; k < dBodyGetNumJoints(b1); k++) {
		j = dBodyGetJoint(b1, k);
		if (dJointGetType(j) != dJointTypeContact &&
		    (dJointGetBody(j, 0) == b2 || dJointGetBody(j, 1) == b2) &&
		    !touch_row(e, j))
			return true;
	}
	return false;
}

/* Gazebo's rules (phys_collisions_may_touch), and no two static bodies,
 * no body with itself, none with a body a joint holds it to
 * (joined_apart). */
static bool
pair_excluded(struct ode_engine *e, int c1, int c2, dBodyID b1, dBodyID b2)
{
	if (!b1 && !b2)
		return true;
	if (b1 == b2)
		return true;
	if (b1 && b2 && joined_apart(e, b1, b2))
		return true;
	return !phys_collisions_may_touch(e->w, e->v, c1, c2);
}

static void add_pending(struct ode_engine *e, const dContact *c,
    dBodyID b1, dBodyID b2);

/*
 * The broad phase keeps the pairs; the narrow phase (collide_pair, from
 * ode_engine_step) collides them after it: an ODE assertion in a
 * collider (its cylinder and box's on a degenerate axis) leaves through
 * the trap, which would skip the hash space's own cleanup and leak its
 * lists each time.
 */
static void
near_callback(void *data, dGeomID g1, dGeomID g2)
{
	struct ode_engine *e = data;

	if (e->npairs == e->pairs_cap) {
		e->pairs_cap = e->pairs_cap ? 2 * e->pairs_cap : 64;
		e->pairs = phys_xrealloc(e->pairs,
		    e->pairs_cap * sizeof *e->pairs);
	}
	e->pairs[e->npairs++] = (struct geom_pair){ g1, g2 };
}

/* Whether a pair is a mesh's triangles and a plane. */
static bool
mesh_on_plane(dGeomID g1, dGeomID g2)
{
	int k1 = dGeomGetClass(g1), k2 = dGeomGetClass(g2);

	return (k1 == dTriMeshClass && k2 == dPlaneClass) ||
	    (k1 == dPlaneClass && k2 == dTriMeshClass);
}

/* Room for twice the points below (plane_points, mesh_corners). */
static void
grow_below(struct ode_engine *e)
{
	e->below_cap = e->below_cap ? 2 * e->below_cap : 64;
	e->below = phys_xrealloc(e->below, e->below_cap * sizeof *e->below);
	e->below_depth = phys_xrealloc(e->below_depth,
	    e->below_cap * sizeof *e->below_depth);
	e->below_normal = phys_xrealloc(e->below_normal,
	    e->below_cap * sizeof *e->below_normal);
}

/*
 * A mesh's points on a plane (mesh_on_plane) when ODE found as many as
 * the pair keeps, in geoms; returns how many. ODE gives the first it
 * meets, triangle by triangle: a fine face resting on the ground kept
 * ten points in one of its corners, and a cube of 6,144 triangles let
 * fall 2 cm tipped 0.26 rad. The mesh's vertices at or below the plane
 * instead, spread (phys_contact_spread), with the normal ODE gave the
 * pair in its order.
 */
static int
plane_points(struct ode_engine *e, dGeomID g1, dGeomID g2, int limit,
    dContactGeom *geoms)
{
	dGeomID mg = dGeomGetClass(g1) == dTriMeshClass ? g1 : g2;
	int ci = geom_collision(mg);
	const struct phys_mesh *m = e->own_mesh[ci] ? e->own_mesh[ci] :
	    e->w->collisions[ci].mesh;
	size_t i, n = 0, k, keep[MAX_PAIR_CONTACTS];
	const dReal *gp = dGeomGetPosition(mg);
	phys_pose at;
	dQuaternion q;
	dVector3 normal;
	dVector4 plane;

	if (!m)
		return limit;
	dGeomGetQuaternion(mg, q);
	at = (phys_pose){ v3(gp[0], gp[1], gp[2]), from_dquat(q) };
	dGeomPlaneGetParams(mg == g1 ? g2 : g1, plane);
	for (i = 0; i < m->nv; i++) {
		phys_vec3 x = phys_pose_apply(at, v3(m->v[3 * i],
		    m->v[3 * i + 1], m->v[3 * i + 2]));
		double depth = plane[3] - (plane[0] * x.x + plane[1] * x.y +
		    plane[2] * x.z);

		if (depth < 0)
			continue;
		if (n == e->below_cap)
			grow_below(e);
		e->below[n] = x;
		e->below_depth[n++] = depth;
	}
	if (n == 0)
		return limit;
	memcpy(normal, geoms[0].normal, sizeof normal);
	k = phys_contact_spread(e->below, e->below_depth, n, (size_t)limit,
	    keep);
	for (i = 0; i < k; i++) {
		dContactGeom *c = &geoms[i];
		phys_vec3 x = e->below[keep[i]];

		c->pos[0] = x.x;
		c->pos[1] = x.y;
		c->pos[2] = x.z;
		memcpy(c->normal, normal, sizeof normal);
		c->depth = e->below_depth[keep[i]];
		c->g1 = g1;
		c->g2 = g2;
		c->side1 = c->side2 = -1;
	}
	return (int)k;
}

/* Contact c's point. */
static phys_vec3
contact_pos(const dContactGeom *c)
{
	return v3(c->pos[0], c->pos[1], c->pos[2]);
}

/* Contact c's normal, n. */
static void
set_normal(dContactGeom *c, phys_vec3 n)
{
	c->normal[0] = n.x;
	c->normal[1] = n.y;
	c->normal[2] = n.z;
}

/* Contact c of phys's between geoms g1 and g2 at x, depth deep, normal n
 * (from g2 into g1), no triangle named. */
static void
point_geom(dContactGeom *c, dGeomID g1, dGeomID g2, phys_vec3 x,
    double deep, phys_vec3 n)
{
	memset(c, 0, sizeof *c);
	c->g1 = g1, c->g2 = g2, c->side1 = c->side2 = -1;
	c->pos[0] = x.x, c->pos[1] = x.y, c->pos[2] = x.z;
	c->depth = deep;
	set_normal(c, n);
}

static enum phys_corner_kind corner_kind(const struct ode_engine *e,
    dGeomID g, bool exact);
static struct phys_corner_shape corner_shape(const struct ode_engine *e,
    dGeomID g, bool exact);

/* Point x into e->below at k (growing it), with normal nm and depth d;
 * returns k + 1. */
static size_t
add_below(struct ode_engine *e, size_t k, phys_vec3 x, phys_vec3 nm,
    double d)
{
	if (k == e->below_cap)
		grow_below(e);
	e->below[k] = x;
	e->below_normal[k] = nm;
	e->below_depth[k] = d;
	return k + 1;
}

/* The triangles of a mesh geom as phys has them: mesh m placed at at,
 * its grid and its triangles' neighbours, and those tri near a shape
 * (near_triangles). A mesh collision's (collision_mesh), or the patch of
 * a height field under a shape (shape_on_terrain). */
struct near_mesh {
	const struct phys_mesh *m;
	phys_pose at;
	struct phys_mesh_grid *grid;
	const int *nb;
	const size_t *tri;
	size_t ntri;
};

/* Mesh geom mg's collision's triangles into nm, their grid and
 * neighbours made when first asked for (none where there is no room for
 * the grid); false where it has none. */
static bool
collision_mesh(struct ode_engine *e, dGeomID mg, struct near_mesh *nm)
{
	int ci = geom_collision(mg);
	const dReal *gp = dGeomGetPosition(mg);
	dQuaternion q;

	memset(nm, 0, sizeof *nm);
	nm->m = e->own_mesh[ci] ? e->own_mesh[ci] : e->w->collisions[ci].mesh;
	dGeomGetQuaternion(mg, q);
	nm->at = (phys_pose){ v3(gp[0], gp[1], gp[2]), from_dquat(q) };
	if (!nm->m)
		return false;
	if (!e->grid[ci] && !(e->grid[ci] = phys_mesh_grid_new(nm->m)))
		return true;	/* no room: no triangles are near */
	if (!e->neighbours[ci])
		e->neighbours[ci] = phys_mesh_neighbours(nm->m);
	nm->grid = e->grid[ci];
	nm->nb = e->neighbours[ci];
	return true;
}

/*
 * The triangles of nm whose bounds meet shape s's, within
 * PHYS_CORNER_REACH, into nm->tri and nm->ntri: what ODE found them by,
 * which ODE does not say for a hull (it names a triangle by its place in
 * a list of its own). Good until the grid is asked again.
 */
static void
near_triangles(struct near_mesh *nm, const struct phys_corner_shape *s)
{
	phys_vec3 lo = v3(0, 0, 0), hi = lo, ax;
	double top, low;
	int k;

	nm->tri = NULL;
	nm->ntri = 0;
	if (!nm->grid)
		return;
	/* s's bounds along the mesh's axes, from its support mapping */
	for (k = 0; k < 3; k++) {
		ax = phys_quat_rotate(nm->at.q, v3(k == 0, k == 1, k == 2));
		top = v3_dot(v3_sub(phys_corner_support(s, ax), nm->at.p), ax);
		low = v3_dot(v3_sub(phys_corner_support(s, v3_scale(ax, -1)),
		    nm->at.p), ax);
		if (k == 0)
			lo.x = low, hi.x = top;
		else if (k == 1)
			lo.y = low, hi.y = top;
		else
			lo.z = low, hi.z = top;
	}
	ax = v3(PHYS_CORNER_REACH, PHYS_CORNER_REACH, PHYS_CORNER_REACH);
	nm->tri = phys_mesh_grid_find(nm->grid, v3_sub(lo, ax), v3_add(hi,
	    ax), &nm->ntri);
}

static int
size_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The n numbers x in ascending order: by insertion when few, as the
 * corners of the triangles under a shape are at each step (qsort's
 * merge sort was a tenth of phys's own time for 100 boxes resting on a
 * mesh). */
static void
sort_sizes(size_t *x, size_t n)
{
	size_t i, j, v;

	if (n > 128) {
		qsort(x, n, sizeof *x, size_order);
		return;
	}
	for (i = 1; i < n; i++) {
		v = x[i];
		for (j = i; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* A new mark for mesh m's corners (triangle_corners), none of them
 * marked with it. */
static void
new_stamp(struct ode_engine *e, const struct phys_mesh *m)
{
	if (m->nv > e->mark_cap) {
		e->mark = phys_xrealloc(e->mark, m->nv * sizeof *e->mark);
		memset(e->mark + e->mark_cap, 0,
		    (m->nv - e->mark_cap) * sizeof *e->mark);
		e->mark_cap = m->nv;
	}
	if (++e->stamp == 0) {
		memset(e->mark, 0, e->mark_cap * sizeof *e->mark);
		e->stamp = 1;
	}
}

/*
 * The n triangles tri of mesh m, their corners, each once, in ascending
 * order, into e->vertex; returns how many. Each corner is taken once
 * before they are sorted (a corner of a floor is shared by six
 * triangles): sorting them all with their repeats, by insertion, was
 * about 3% of the processor time of 100 boxes on a mesh.
 */
static size_t
triangle_corners(struct ode_engine *e, const struct phys_mesh *m,
    const size_t *tri, size_t n)
{
	size_t i, j, k = 0, c;

	if (3 * n > e->vertex_cap) {
		e->vertex_cap = 3 * n;
		e->vertex = phys_xrealloc(e->vertex,
		    e->vertex_cap * sizeof *e->vertex);
	}
	new_stamp(e, m);
	for (i = 0; i < n; i++)
		for (j = 0; j < 3; j++) {
			c = m->tri[3 * tri[i] + j];
			if (e->mark[c] == e->stamp)
				continue;
			e->mark[c] = e->stamp;
			e->vertex[k++] = c;
		}
	sort_sizes(e->vertex, k);
	return k;
}

/*
 * Hull s's corners over the n triangles tri of mesh m (placed at at) and
 * behind them, within the depth of ODE's deepest point of the pair (the
 * nodes at geoms) and reach, added to the k points at e->below; returns
 * how many there are now. ODE gives a hull one point a triangle, its
 * deepest: a bar's hull sliding down a box of triangles rocked on that
 * one point and went 4.2% short.
 */
static size_t
hull_corners(struct ode_engine *e, const struct phys_mesh *m, phys_pose at,
    const size_t *tri, size_t n, bool mesh_first,
    const struct phys_corner_shape *s, const dContactGeom *geoms, int nodes,
    size_t k)
{
	phys_vec3 t[3], x[PHYS_CORNERS_MAX], nt;
	double d[PHYS_CORNERS_MAX], most = 0;
	size_t i, j, c, got;

	for (i = 0; i < (size_t)nodes; i++)
		most = fmax(most, geoms[i].depth);
	for (i = 0; i < n; i++) {
		for (j = 0; j < 3; j++) {
			c = m->tri[3 * tri[i] + j];
			t[j] = phys_pose_apply(at, v3(m->v[3 * c],
			    m->v[3 * c + 1], m->v[3 * c + 2]));
		}
		got = phys_corner_over_triangle(s, t, most, PHYS_CORNER_REACH,
		    &nt, x, d, PHYS_CORNERS_MAX);
		/* from g2 into g1: into the mesh when it is g1 */
		for (j = 0; j < got; j++)
			k = add_below(e, k, x[j], mesh_first ?
			    v3_scale(nt, -1) : nt, fmax(d[j], 0));
	}
	return k;
}

/* ODE's point c on the triangles of nm with shape s: its normal as the
 * mesh's faces there allow it (phys_mesh_contact_normal). */
static void
face_allows(const struct near_mesh *nm, bool mesh_first,
    const struct phys_corner_shape *s, dContactGeom *c)
{
	/* from g2 into g1: out of the mesh when it is g2 */
	phys_vec3 n = v3(c->normal[0], c->normal[1], c->normal[2]);

	n = phys_mesh_contact_normal(nm->grid, nm->m, nm->nb, nm->at,
	    contact_pos(c), mesh_first ? v3_scale(n, -1) : n, c->depth, s);
	set_normal(c, mesh_first ? v3_scale(n, -1) : n);
}

/*
 * A mesh's corners that lie in a box, a cylinder or a hull it meets (g1
 * and g2, either way round), and a hull's corners over its triangles
 * (hull_corners), as many as room, spread (phys_contact_spread), after
 * the n points ODE found at geoms: each mesh corner as deep as it lies
 * within the shape's nearest face, that face's normal; and ODE's own
 * points within a flat face of the shape take the face's normal
 * (phys_corner_inside). ODE gives one point a triangle, its normal the
 * triangle's, and not every triangle: a box of triangles landing on a
 * sloping hull had points on one of its bottom's two triangles, rocked
 * onto the other's corner and its sides' normals, turned 0.06 rad and
 * slid 72% short; with its corners added to ODE's points, whose sides'
 * normals held it, 5% short. A corner near an edge of the shape is left
 * to ODE's points (boxes sliding over a floor of triangles turned on its
 * corners' normals there). The corners are those of the triangles near
 * the shape (near_triangles), not a floor's every corner for each shape
 * on it at each step. Returns how many it added.
 */
static int
mesh_corners(struct ode_engine *e, dGeomID g1, dGeomID g2,
    dContactGeom *geoms, int n, int room, const struct near_mesh *patch)
{
	bool mesh_first = dGeomGetClass(g1) == dTriMeshClass;
	dGeomID mg = mesh_first ? g1 : g2, g = mesh_first ? g2 : g1;
	enum phys_corner_kind kind = corner_kind(e, g, false);
	size_t j, k = 0, keep[MAX_PAIR_CONTACTS], nv;
	struct phys_corner_shape s;
	struct near_mesh nm;
	phys_vec3 f;
	double d;
	bool alone;
	int i;

	if (n < 1 || (kind != PHYS_CORNER_BOX &&
	    kind != PHYS_CORNER_CYLINDER && kind != PHYS_CORNER_HULL))
		return 0;
	if (patch)
		nm = *patch;
	else if (!collision_mesh(e, mg, &nm))
		return 0;
	s = corner_shape(e, g, false);
	near_triangles(&nm, &s);
	nv = triangle_corners(e, nm.m, nm.tri, nm.ntri);
	for (j = 0; j < nv; j++) {
		size_t c = e->vertex[j];
		phys_vec3 x = phys_pose_apply(nm.at, v3(nm.m->v[3 * c],
		    nm.m->v[3 * c + 1], nm.m->v[3 * c + 2]));

		/* near an edge of the shape its nearest face is no normal */
		if (phys_corner_inside(&s, x, PHYS_CORNER_REACH, &f, &d,
		    &alone) && alone)
			k = add_below(e, k, x, mesh_first ? f :
			    v3_scale(f, -1), fmax(d, 0));
	}
	if (kind == PHYS_CORNER_HULL)
		k = hull_corners(e, nm.m, nm.at, nm.tri, nm.ntri, mesh_first,
		    &s, geoms, n, k);
	/* the grid's answer (tri) is spent: face_allows asks it again; a
	 * box's points from ODE have its triangles' own normals (the
	 * search was a third of the time of boxes resting on a mesh) */
	for (i = 0; i < n; i++)
		if (phys_corner_inside(&s, contact_pos(&geoms[i]),
		    geoms[i].depth + PHYS_CORNER_REACH, &f, &d, &alone) &&
		    alone &&
		    d <= geoms[i].depth + PHYS_CORNER_REACH)
			/* from g2 into g1: out of the shape when it is g2 */
			set_normal(&geoms[i], mesh_first ? f : v3_scale(f, -1));
		else if (kind != PHYS_CORNER_BOX)
			face_allows(&nm, mesh_first, &s, &geoms[i]);
	k = phys_contact_spread(e->below, e->below_depth, k, (size_t)room,
	    keep);
	for (j = 0; j < k; j++) {
		phys_vec3 x = e->below[keep[j]];
		dContactGeom *c = &geoms[n + (int)j];

		*c = geoms[0];
		c->pos[0] = x.x, c->pos[1] = x.y, c->pos[2] = x.z;
		c->depth = e->below_depth[keep[j]];
		set_normal(c, e->below_normal[keep[j]]);
	}
	return (int)k;
}

/* Whether each of the n points at geoms lies at one of the add after
 * them, within its depth and twice PHYS_CORNER_REACH. */
static bool
all_at_corners(const dContactGeom *geoms, int n, int add)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = n; j < n + add; j++)
			if (v3_norm(v3_sub(contact_pos(&geoms[i]),
			    contact_pos(&geoms[j]))) <=
			    geoms[i].depth + 2 * PHYS_CORNER_REACH)
				break;
		if (j == n + add)
			return false;
	}
	return true;
}

/* Triangle k of mesh m placed at at, as a corner shape (a flat hull) on
 * the vertices v (room for 9). */
static struct phys_corner_shape
triangle_shape(const struct phys_mesh *m, size_t k, phys_pose at,
    double v[9])
{
	struct phys_corner_shape t;
	phys_vec3 w;
	int j;

	for (j = 0; j < 3; j++) {
		const double *x = m->v + 3 * (size_t)m->tri[3 * k + (size_t)j];

		w = phys_pose_apply(at, v3(x[0], x[1], x[2]));
		v[3 * j] = w.x, v[3 * j + 1] = w.y, v[3 * j + 2] = w.z;
	}
	memset(&t, 0, sizeof t);
	t.kind = PHYS_CORNER_HULL;
	t.at = PHYS_POSE_IDENTITY;
	t.v = v;
	t.nv = 3;
	t.v_stride = 3;
	return t;
}

/* A point of an ellipsoid on a mesh: where, how deep, its normal out of
 * the mesh, and whether a triangle's face has it (else an edge or a
 * corner). */
struct mesh_touch {
	phys_vec3 at, out;
	double deep;
	bool face;
};

/* Whether one of the n points p is a face's, its normal along n. */
static bool
face_pushes(const struct mesh_touch *p, size_t n, phys_vec3 out)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].face && v3_dot(p[i].out, out) > PHYS_FACE_ON)
			return true;
	return false;
}

/*
 * An ellipsoid s touching triangle k of mesh m (placed at at), into *p:
 * its point deepest towards the triangle's plane where that lies over the
 * triangle, with the triangle's normal; else the deepest point of the
 * two by libccd's portal refinement (an edge or a corner, its normal the
 * portal's until the mesh's faces say: ellipsoid_points). False where
 * they are apart.
 */
static bool
ellipsoid_touch(const struct phys_mesh *m, size_t k, phys_pose at,
    const struct phys_corner_shape *s, struct mesh_touch *p)
{
	struct phys_corner_shape t;
	phys_vec3 v[3], n, x;
	double xyz[9], d;
	int j;

	t = triangle_shape(m, k, at, xyz);
	for (j = 0; j < 3; j++)
		v[j] = v3(xyz[3 * j], xyz[3 * j + 1], xyz[3 * j + 2]);
	/* apart along the face's normal: most triangles near a shape */
	n = v3_cross(v3_sub(v[1], v[0]), v3_sub(v[2], v[0]));
	if (v3_dot(n, v3_sub(s->at.p, v[0])) < 0)
		n = v3_scale(n, -1);
	if (v3_norm(n) > 0 && v3_dot(v3_normalize(n), v3_sub(
	    phys_corner_support(s, v3_scale(n, -1)), v[0])) > PHYS_CORNER_REACH)
		return false;
	/* out: from the triangle into the ellipsoid; none when apart, where
	 * a face within reach still holds it (one resting there is) */
	if (!phys_corner_deepest(s, &t, &p->at, &p->out, &p->deep))
		p->deep = -1;
	p->face = phys_corner_over_triangle(s, v, fmax(p->deep, 0),
	    PHYS_CORNER_REACH, &n, &x, &d, 1) == 1;
	if (p->face)
		p->at = x, p->out = n, p->deep = fmax(d, 0);
	return p->deep >= 0;
}

/*
 * Ellipsoid s's points on the triangles of nm, at most limit, in geoms,
 * for geoms g1 and g2 (the mesh's first when mesh_first); returns how
 * many: with each triangle the point ellipsoid_touch finds, each once;
 * an edge's or a corner's point takes the normal the mesh's faces allow
 * there (phys_mesh_contact_normal), and is left out where a face's point
 * pushes along it already (across a flat edge the neighbour's face holds
 * the ellipsoid; an edge's own point there rocked it). Spread
 * (phys_contact_spread).
 */
static int
ellipsoid_points(const struct near_mesh *nm,
    const struct phys_corner_shape *s, bool mesh_first, dGeomID g1,
    dGeomID g2, int limit, dContactGeom *geoms)
{
	struct mesh_touch p[MAX_PAIR_CONTACTS];
	phys_vec3 x[MAX_PAIR_CONTACTS];
	double deep[MAX_PAIR_CONTACTS];
	size_t i, j, k = 0, keep[MAX_PAIR_CONTACTS];

	for (i = 0; i < nm->ntri && k < MAX_PAIR_CONTACTS; i++) {
		if (!ellipsoid_touch(nm->m, nm->tri[i], nm->at, s, &p[k]))
			continue;
		for (j = 0; j < k && v3_norm(v3_sub(p[j].at, p[k].at)) >=
		    1e-9; j++)
			continue;
		k += j == k;
	}
	/* a grid's answer (nm->tri) is spent: the normals ask it again */
	for (i = 0; i < k; i++)
		if (!p[i].face)
			p[i].out = phys_mesh_contact_normal(nm->grid, nm->m,
			    nm->nb, nm->at, p[i].at, p[i].out, p[i].deep, s);
	for (i = j = 0; i < k; i++)
		if (p[i].face || !face_pushes(p, k, p[i].out)) {
			x[j] = p[i].at, deep[j] = p[i].deep;
			p[j++] = p[i];
		}
	k = phys_contact_spread(x, deep, j, (size_t)limit, keep);
	for (i = 0; i < k; i++) {
		const struct mesh_touch *t = &p[keep[i]];

		/* from g2 into g1: out of the mesh when it is g2 */
		point_geom(&geoms[i], g1, g2, t->at, t->deep, mesh_first ?
		    v3_scale(t->out, -1) : t->out);
	}
	return (int)k;
}

/*
 * An ellipsoid's points on a mesh (g1 and g2, either way round), at most
 * limit, in geoms, from the triangles near it (near_triangles): returns
 * how many (ellipsoid_points). ODE met the ellipsoid's polyhedron,
 * which slid down a slope of triangles 4.6% past a box's closed form
 * where on a plane it went 2.7%.
 */
static int
ellipsoid_on_mesh(struct ode_engine *e, dGeomID g1, dGeomID g2, int limit,
    dContactGeom *geoms)
{
	bool mesh_first = dGeomGetClass(g1) == dTriMeshClass;
	struct phys_corner_shape s = corner_shape(e, mesh_first ? g2 : g1,
	    true);
	struct near_mesh nm;

	if (!collision_mesh(e, mesh_first ? g1 : g2, &nm))
		return 0;
	near_triangles(&nm, &s);
	return ellipsoid_points(&nm, &s, mesh_first, g1, g2, limit, geoms);
}

/* The most cells of a height field a shape's patch of it takes
 * (terrain_cells); past them, ODE's field meets it there. Every triangle
 * under a shape is tested each step: 24 capsules over 16,000 cells of
 * 3.9 mm each took 24 s for 500 steps, where ODE's field took 1.8 (its
 * flaws are at the ridges between cells coarse against the shape). */
#define PATCH_CELLS 1024
/* The most cells the patches of all shapes take together (50 MB): a
 * cell's two triangles, with their grid, neighbours and ODE's trimesh,
 * about 200 bytes (324 capsules over 950 cells each took 51 MB; a
 * thousand over 16,384 each would take 3 GB); past them, ODE's field
 * meets a shape that would need more. */
#define PATCH_CELLS_ALL (1u << 18)

/* Sample columns or rows [*lo, *hi] of n, spaced d from first (along
 * +1 or -1: sign), whose cells meet [a, b]; false when none do. */
static bool
patch_span(double first, double d, int sign, size_t n, double a, double b,
    size_t *lo, size_t *hi)
{
	double u = sign * (a - first) / d, w = sign * (b - first) / d;
	double from = floor(fmin(u, w)), to = ceil(fmax(u, w));

	if (!(to >= 0 && from <= (double)(n - 1)))
		return false;
	*lo = from > 0 ? (size_t)from : 0;
	*hi = to < (double)(n - 1) ? (size_t)to : n - 1;
	return *hi > *lo;
}

/*
 * The cells of heightmap hm under shape s (collision frame at at, z up),
 * within PHYS_CORNER_REACH: columns r[0]..r[2] and rows r[1]..r[3]; false
 * where it meets none, or would take more than PATCH_CELLS (*large true).
 */
static bool
terrain_cells(const struct phys_heightmap *hm, phys_pose at,
    const struct phys_corner_shape *s, size_t r[4], bool *large)
{
	double dx = hm->size[0] / (double)(hm->nx - 1);
	double dy = hm->size[1] / (double)(hm->ny - 1);
	double lo[2], hi[2];
	phys_vec3 ax;
	int c;

	for (c = 0; c < 2; c++) {
		ax = phys_quat_rotate(at.q, v3(c == 0, c == 1, 0));
		hi[c] = v3_dot(v3_sub(phys_corner_support(s, ax), at.p), ax) +
		    PHYS_CORNER_REACH;
		lo[c] = v3_dot(v3_sub(phys_corner_support(s, v3_scale(ax, -1)),
		    at.p), ax) - PHYS_CORNER_REACH;
	}
	*large = false;
	if (!patch_span(hm->pos[0] - hm->size[0] / 2, dx, 1, hm->nx, lo[0],
	    hi[0], &r[0], &r[2]) || !patch_span(hm->pos[1] + hm->size[1] / 2,
	    dy, -1, hm->ny, lo[1], hi[1], &r[1], &r[3]))
		return false;
	*large = (double)(r[2] - r[0]) * (double)(r[3] - r[1]) > PATCH_CELLS;
	return !*large;
}

static void
patch_free(struct ode_patch *p)
{
	if (p->geom)
		dGeomDestroy(p->geom);
	if (p->data)
		dGeomTriMeshDataDestroy(p->data);
	free(p->m.v);
	free(p->m.tri);
	free(p->all);
	free(p->nb);
	phys_mesh_grid_free(p->grid);
	memset(p, 0, sizeof *p);
}

/*
 * Patch p as the triangles of cells r of hm (phys_heightmap_triangles,
 * split as ODE's field is), made anew only where they changed, the cells
 * of all patches counted in *total; false where they would be more than
 * PATCH_CELLS_ALL or there is no room for its grid.
 */
static bool
patch_of(struct ode_patch *p, const struct phys_heightmap *hm,
    const size_t r[4], size_t *total)
{
	size_t i, cells = (r[2] - r[0]) * (r[3] - r[1]);

	if (p->hm == hm && !memcmp(p->r, r, sizeof p->r))
		return p->grid;
	if (*total - p->cells + cells > PATCH_CELLS_ALL) {
		phys_warn_once("the shapes over height fields would take "
		    "more than %u of their cells together: ODE's field meets "
		    "those past them", PATCH_CELLS_ALL);
		return false;
	}
	*total -= p->cells;
	patch_free(p);
	*total += p->cells = cells;
	p->hm = hm;
	memcpy(p->r, r, sizeof p->r);
	phys_heightmap_triangles(hm, r[0], r[1], r[2], r[3], &p->m);
	p->all = phys_xmalloc(p->m.ntri * sizeof *p->all);
	for (i = 0; i < p->m.ntri; i++)
		p->all[i] = i;
	if ((p->nb = phys_mesh_neighbours(&p->m)))
		p->grid = phys_mesh_grid_new(&p->m);
	return p->grid;
}

/* Patch p as an ODE trimesh placed at at, its geom's collision ci's (the
 * field's). */
static dGeomID
patch_geom(struct ode_patch *p, int ci, phys_pose at)
{
	dQuaternion q;

	if (!p->geom) {
		p->data = trimesh_data(&p->m);
		p->geom = dCreateTriMesh(NULL, p->data, NULL, NULL, NULL);
		dGeomSetData(p->geom, (void *)(intptr_t)(ci + 1));
	}
	dGeomSetPosition(p->geom, at.p.x, at.p.y, at.p.z);
	to_dquat(at.q, q);
	dGeomSetQuaternion(p->geom, q);
	return p->geom;
}

/*
 * The points of a pair with a mesh (not on a plane: plane_points), at
 * most limit, in geoms; returns how many. ODE gives them triangle by
 * triangle, and the same point again for each triangle that meets it:
 * the first ten of a box resting on a floor of 0.1 m triangles were
 * six of sixteen, one corner of four among them, and the box crept
 * 3.7 mm in 2 s (10 of 30 such boxes over 1 mm). All of them instead,
 * each once, spread (phys_contact_spread): none moves 0.3 mm.
 */
static int
mesh_points(struct ode_engine *e, dGeomID g1, dGeomID g2, int limit,
    dContactGeom *geoms, const struct near_mesh *patch)
{
	int n = dCollide(g1, g2, MAX_PAIR_CONTACTS, geoms, sizeof *geoms), add;
	size_t i, j, k = 0, keep[MAX_PAIR_CONTACTS];
	phys_vec3 at[MAX_PAIR_CONTACTS];
	double depth[MAX_PAIR_CONTACTS];

	add = mesh_corners(e, g1, g2, geoms, n, MAX_PAIR_CONTACTS - n, patch);
	/* where ODE's points are the mesh's corners in the shape (a mesh
	 * resting on it), the corners in their place; where any is not (a
	 * shape's corner on a floor of triangles) both */
	if (add > 0 && all_at_corners(geoms, n, add)) {
		memmove(geoms, geoms + n, (size_t)add * sizeof *geoms);
		n = add;
	} else
		n += add;
	for (i = 0; i < (size_t)n; i++) {
		phys_vec3 x = contact_pos(&geoms[i]);

		for (j = 0; j < k; j++)
			if (v3_norm(v3_sub(at[j], x)) < 1e-9)
				break;
		if (j < k)
			continue;
		geoms[k] = geoms[i];
		at[k] = x;
		depth[k++] = geoms[i].depth;
	}
	if (k <= (size_t)limit)
		return (int)k;
	n = (int)phys_contact_spread(at, depth, k, (size_t)limit, keep);
	for (i = 0; i < (size_t)n; i++)
		geoms[i] = geoms[keep[i]];
	return n;
}

/* Geom g's kind of corner shape (PHYS_CORNER_NONE for a plane, mesh or
 * heightmap); an ellipsoid's polyhedron its hull, but exact, the
 * ellipsoid (and a sphere a sphere only then). */
static enum phys_corner_kind
corner_kind(const struct ode_engine *e, dGeomID g, bool exact)
{
	switch (dGeomGetClass(g)) {
	case dBoxClass:
		return PHYS_CORNER_BOX;
	case dCapsuleClass:
		return PHYS_CORNER_CAPSULE;
	case dCylinderClass:
		return PHYS_CORNER_CYLINDER;
	case dConvexClass:
		return exact && e->convex[geom_collision(g)]->radii.x > 0 ?
		    PHYS_CORNER_ELLIPSOID : PHYS_CORNER_HULL;
	case dSphereClass:
		return exact ? PHYS_CORNER_SPHERE : PHYS_CORNER_NONE;
	default:
		return PHYS_CORNER_NONE;
	}
}

/* Whether geom g is a sphere or an ellipsoid, which phys collides with
 * triangles as themselves. */
static bool
is_round(const struct ode_engine *e, dGeomID g)
{
	enum phys_corner_kind k = corner_kind(e, g, true);

	return k == PHYS_CORNER_SPHERE || k == PHYS_CORNER_ELLIPSOID;
}

/* Whether geom g meets a height field's triangles under it, not ODE's
 * field (shape_on_terrain): every shape of a corner kind. ODE's field
 * let a sphere, a capsule and a cylinder through, and the edge of a box
 * or a hull across a ridge: boxes tumbling over a bumpy field went
 * 14.6 mm into it, hulls 16.9; on its triangles 1.2 and 1.3, at 1.8
 * times the field's processor time. */
static bool
on_patch(const struct ode_engine *e, dGeomID g)
{
	return corner_kind(e, g, true) != PHYS_CORNER_NONE;
}

/* Geom g, of a corner kind, as a corner shape (exact: corner_kind). */
static struct phys_corner_shape
corner_shape(const struct ode_engine *e, dGeomID g, bool exact)
{
	struct phys_corner_shape s;
	const struct ode_convex *cv;
	const dReal *p = dGeomGetPosition(g);
	dQuaternion q;
	dVector3 len;
	dReal r = 0, h = 0;

	memset(&s, 0, sizeof s);
	dGeomGetQuaternion(g, q);
	s.at = (phys_pose){ v3(p[0], p[1], p[2]), from_dquat(q) };
	s.kind = corner_kind(e, g, exact);
	if (s.kind == PHYS_CORNER_BOX) {
		dGeomBoxGetLengths(g, len);
		s.half = v3(len[0] / 2, len[1] / 2, len[2] / 2);
	} else if (s.kind == PHYS_CORNER_SPHERE) {
		s.radius = dGeomSphereGetRadius(g);
	} else if (s.kind == PHYS_CORNER_ELLIPSOID) {
		cv = e->convex[geom_collision(g)];
		/* the geom sits at its points' mean (place_geom) */
		s.at.p = phys_pose_apply(s.at, v3_scale(cv->shift, -1));
		s.half = cv->radii;
	} else if (s.kind == PHYS_CORNER_HULL) {
		cv = e->convex[geom_collision(g)];
		s.v = cv->points;
		s.nv = cv->npoints;
		s.v_stride = 3;
		s.planes = cv->planes;
		s.nplanes = cv->nplanes;
	} else {
		if (s.kind == PHYS_CORNER_CAPSULE)
			dGeomCapsuleGetParams(g, &r, &h);
		else
			dGeomCylinderGetParams(g, &r, &h);
		s.radius = r;
		s.length = h;
	}
	return s;
}

/*
 * The points of geoms g1 and g2 that touch at their corners
 * (phys_corner_pair), at most limit, in geoms; returns how many: the
 * deepest (phys_corner_deepest) and each corner of either that lies in
 * the other (phys_corner_points), spread (phys_contact_spread), as ODE's
 * own boxes give a face's corners and MuJoCo's multiccd a hull's. ODE
 * gives one point: a bar's hull resting on a box rocked on its ends and
 * sank through the box at 3 cm/s, a capsule lay 1.6 cm into a box; and
 * a hull landing on a cylinder's end got one 0.39 m deep.
 */
static int
corner_contacts(const struct ode_engine *e, dGeomID g1, dGeomID g2,
    int limit, dContactGeom *geoms)
{
	struct phys_corner_shape a = corner_shape(e, g1, true);
	struct phys_corner_shape b = corner_shape(e, g2, true);
	phys_vec3 at[MAX_PAIR_CONTACTS], n, p;
	double depth[MAX_PAIR_CONTACTS], deepest;
	size_t keep[MAX_PAIR_CONTACTS], m, i;

	if (!phys_corner_deepest(&a, &b, &p, &n, &deepest))
		return 0;
	n = phys_corner_normal(&a, &b, n);
	m = phys_corner_points(&a, &b, p, n, deepest, PHYS_CORNER_REACH, at,
	    depth, MAX_PAIR_CONTACTS);
	m = phys_contact_spread(at, depth, m, (size_t)limit, keep);
	for (i = 0; i < m; i++)
		point_geom(&geoms[i], g1, g2, at[keep[i]], depth[keep[i]], n);
	return (int)m;
}

/*
 * A pair with a plane, at most limit points in geoms: an ellipsoid's its
 * lowest point, if under the plane (ODE's convex gave its polyhedron's
 * vertices, on whose faces it rocked at three quarters of an
 * ellipsoid's period); ODE's for any other shape. Returns how many.
 */
static int
ellipsoid_on_plane(const struct ode_engine *e, dGeomID g1, dGeomID g2,
    int limit, dContactGeom *geoms)
{
	bool first = dGeomGetClass(g2) == dPlaneClass;
	dGeomID g = first ? g1 : g2;
	struct phys_corner_shape s;
	dVector4 plane;
	phys_vec3 n, x;
	double depth;

	if (corner_kind(e, g, true) != PHYS_CORNER_ELLIPSOID)
		return dCollide(g1, g2, limit, geoms, sizeof *geoms);
	s = corner_shape(e, g, true);
	dGeomPlaneGetParams(first ? g2 : g1, plane);
	n = v3(plane[0], plane[1], plane[2]);
	x = phys_corner_support(&s, v3_scale(n, -1));
	if (limit < 1 || (depth = plane[3] - v3_dot(n, x)) < 0)
		return 0;
	/* from g2 into g1: out of the plane when it is g2 */
	point_geom(geoms, g1, g2, x, depth, first ? n : v3_scale(n, -1));
	return 1;
}

/*
 * A shape's points on a height field (g1 and g2, either way round), at
 * most limit, in geoms, from the field's triangles under it
 * (terrain_cells, patch_of), as on a mesh (on_patch: which shapes): a
 * sphere's or an ellipsoid's its own (ellipsoid_points), a capsule's,
 * a cylinder's, a box's or a hull's ODE's and phys's (mesh_points);
 * ODE's field's where they would be too many. Returns how many. ODE's
 * field let balls rolling over a bumpy one 4 cm into it (and held one
 * 7 cm deep for a second), capsules to their axes, a cylinder 14 cm,
 * boxes 1.5 cm at an edge; on its polyhedron's faces an ellipsoid
 * dropped onto a flat field rocked 0.4 rad about its long axis where on
 * a plane it rocks 0.11 about its short one.
 */
static int
shape_on_terrain(struct ode_engine *e, dGeomID g1, dGeomID g2,
    int limit, dContactGeom *geoms)
{
	bool terrain_first = dGeomGetClass(g1) == dHeightfieldClass;
	dGeomID g = terrain_first ? g2 : g1, mg;
	int ci = geom_collision(terrain_first ? g1 : g2), n, i;
	const struct phys_collision *c = &e->w->collisions[ci];
	struct phys_corner_shape s = corner_shape(e, g, true);
	struct ode_patch **pp = &e->patch[geom_collision(g)], *p;
	struct near_mesh nm;
	size_t r[4];
	bool large;

	p = *pp ? *pp : (*pp = phys_xcalloc(1, sizeof **pp));
	nm.at = phys_pose_mul(e->w->links[c->link].pose, c->pose);
	if (!terrain_cells(c->heightmap, nm.at, &s, r, &large)) {
		if (large)
			phys_warn_once("collision '%s': a shape over more "
			    "than %d of its cells meets ODE's height field "
			    "there", c->name, PATCH_CELLS);
		return dCollide(g1, g2, limit, geoms, sizeof *geoms);
	}
	/* past the cells of all, or no room for its grid */
	if (!patch_of(p, c->heightmap, r, &e->patch_cells))
		return dCollide(g1, g2, limit, geoms, sizeof *geoms);
	nm.m = &p->m;
	nm.grid = p->grid;
	nm.nb = p->nb;
	nm.tri = p->all;
	nm.ntri = p->m.ntri;
	if (is_round(e, g))
		return ellipsoid_points(&nm, &s, terrain_first, g1, g2, limit,
		    geoms);
	mg = patch_geom(p, ci, nm.at);
	n = mesh_points(e, terrain_first ? mg : g1, terrain_first ? g2 : mg,
	    limit, geoms, &nm);
	for (i = 0; i < n; i++)	/* the pair's, the patch standing in */
		geoms[i].g1 = g1, geoms[i].g2 = g2;
	return n;
}

/* A pair's contact points, at most limit, in geoms: ODE's, but a mesh's
 * spread over it (plane_points, mesh_points) and the corners of shapes
 * ODE gives one point for (corner_contacts); returns how many. */
static int
pair_points(struct ode_engine *e, dGeomID g1, dGeomID g2, int limit,
    dContactGeom *geoms)
{
	int n;

	if (mesh_on_plane(g1, g2)) {
		n = dCollide(g1, g2, limit, geoms, sizeof *geoms);
		return n == limit ? plane_points(e, g1, g2, limit, geoms) : n;
	}
	if (dGeomGetClass(g1) == dTriMeshClass ||
	    dGeomGetClass(g2) == dTriMeshClass)
		return corner_kind(e, dGeomGetClass(g1) == dTriMeshClass ? g2 :
		    g1, true) == PHYS_CORNER_ELLIPSOID ? ellipsoid_on_mesh(e,
		    g1, g2, limit, geoms) : mesh_points(e, g1, g2, limit,
		    geoms, NULL);
	if (dGeomGetClass(g1) == dPlaneClass ||
	    dGeomGetClass(g2) == dPlaneClass)
		return ellipsoid_on_plane(e, g1, g2, limit, geoms);
	if ((dGeomGetClass(g1) == dHeightfieldClass ||
	    dGeomGetClass(g2) == dHeightfieldClass) && on_patch(e,
	    dGeomGetClass(g1) == dHeightfieldClass ? g2 : g1))
		return shape_on_terrain(e, g1, g2, limit, geoms);
	if (phys_corner_pair(corner_kind(e, g1, true),
	    corner_kind(e, g2, true)))
		return corner_contacts(e, g1, g2, limit, geoms);
	n = dCollide(g1, g2, limit, geoms, sizeof *geoms);
	/* ODE's test of two boxes can take two parallel edges, whose cross
	 * product is no axis, for a separating axis by a rounding error: a
	 * box dropped flat on a box turned 0.3 rad got no points and fell
	 * 0.27 m into it. Where it finds none, phys's corners. */
	if (n == 0 && dGeomGetClass(g1) == dBoxClass &&
	    dGeomGetClass(g2) == dBoxClass)
		n = corner_contacts(e, g1, g2, limit, geoms);
	return n;
}

static void
collide_pair(struct ode_engine *e, dGeomID g1, dGeomID g2)
{
	dContactGeom geoms[MAX_PAIR_CONTACTS];
	int c1 = geom_collision(g1), c2 = geom_collision(g2), n, i, limit;
	dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
	const struct phys_value *a, *b;
	dContact contact;

	if (c1 < 0 || c2 < 0 || pair_excluded(e, c1, c2, b1, b2))
		return;
	phys_contact_surfaces(e->w, e->v, c1, c2, &a, &b);
	limit = e->max_contacts;
	if (PVI(a, COLLISION_max_contacts) < limit)
		limit = (int)PVI(a, COLLISION_max_contacts);
	if (PVI(b, COLLISION_max_contacts) < limit)
		limit = (int)PVI(b, COLLISION_max_contacts);
	if (limit > MAX_PAIR_CONTACTS) {
		/* a flag, not phys_warn_once: this runs for every pair */
		if (!e->contact_cap_said)
			phys_warn("max_contacts %d: at most %d contact points "
			    "are kept per colliding pair", limit,
			    MAX_PAIR_CONTACTS);
		e->contact_cap_said = true;
		limit = MAX_PAIR_CONTACTS;
	}
	if (limit <= 0)
		return;
	n = pair_points(e, g1, g2, limit, geoms);
	if (phys_contact_without_force(a, b)) {
		if (phys_contact_without_force_reported(a, b))
			e->ncontacts += n;
		return;
	}
	e->ncontacts += n;
	for (i = 0; i < n; i++) {
		memset(&contact, 0, sizeof contact);
		contact.geom = geoms[i];
		set_contact(e, &contact, g1, g2, a, b);
		add_pending(e, &contact, b1, b2);
	}
}

static void
add_pending(struct ode_engine *e, const dContact *c, dBodyID b1, dBodyID b2)
{
	struct pending_contact *pc;

	if (e->npending == e->pending_cap) {
		e->pending_cap = e->pending_cap ? 2 * e->pending_cap : 64;
		e->pending = phys_xrealloc(e->pending,
		    e->pending_cap * sizeof *e->pending);
	}
	pc = &e->pending[e->npending++];
	pc->c = *c;
	pc->b1 = b1;
	pc->b2 = b2;
	pc->load = 0;
	pc->mu = pc->mu2 = 0;
	if (c->surface.mode & dContactApprox1) {
		pc->mu = c->surface.mu;
		pc->mu2 = c->surface.mu2;
	}
}

/* The link of geom g's collision. */
static int
geom_link(const struct ode_engine *e, dGeomID g)
{
	return e->w->collisions[geom_collision(g)].link;
}

/* Whether contact pc touches a link the world holds still, whose weld's
 * wrench counts the contact's force. */
static bool
touches_still(const struct ode_engine *e, const struct pending_contact *pc)
{
	return (!pc->b1 && e->still.is[geom_link(e, pc->c.geom.g1)]) ||
	    (!pc->b2 && e->still.is[geom_link(e, pc->c.geom.g2)]);
}

/* This step's contacts as ODE joints; with feedback, each reports the
 * force it applied (always, on a still link's collisions). */
static void
make_contacts(struct ode_engine *e, bool feedback)
{
	struct pending_contact *pc;
	dJointID j;
	size_t i;

	for (i = 0; i < e->npending; i++) {
		pc = &e->pending[i];
		j = dJointCreateContact(e->world, e->contacts, &pc->c);
		dJointAttach(j, pc->b1, pc->b2);
		if (feedback || touches_still(e, pc))
			dJointSetFeedback(j, &pc->fb);
	}
}

/*
 * ---- the world step and friction proportional to load ----
 *
 * ODE's exact (Dantzig) solver sets each friction row's bounds from its
 * contact's normal force when it reaches that row and never revises them.
 * Where the normal forces are not unique (a box on a plane: four contacts
 * carry a load three would), later pivots move load between contacts and
 * the bounds go stale: measured, a box slid 29% too far and one on an
 * incline moved 4-146% wrongly, with "LCP internal error, s <= 0". So a
 * world step with load-proportional friction finds its bounds by fixed
 * point: a solve gives each contact's normal force N, the step is undone,
 * and it is solved again with fixed bounds mu N (ODE's box friction, which
 * its solver handles without that shortcut), until no contact's load
 * moves by more than FRICTION_LOAD_TOL of the total, at most
 * MAX_FRICTION_PASSES times; then the step is taken with those bounds.
 * Measured: the sliding box within 0.3%, inclines within 0.5-3.2%.
 */

#define MAX_FRICTION_PASSES 8
#define FRICTION_LOAD_TOL 1e-3

static bool
has_load_friction(const struct ode_engine *e)
{
	size_t i;

	for (i = 0; i < e->npending; i++)
		if (e->pending[i].c.surface.mode & dContactApprox1)
			return true;
	return false;
}

static void
save_body(dBodyID b, struct body_state *s)
{
	memcpy(s->p, dBodyGetPosition(b), sizeof s->p);
	memcpy(s->q, dBodyGetQuaternion(b), sizeof s->q);
	memcpy(s->v, dBodyGetLinearVel(b), sizeof s->v);
	memcpy(s->w, dBodyGetAngularVel(b), sizeof s->w);
	memcpy(s->f, dBodyGetForce(b), sizeof s->f);
	memcpy(s->t, dBodyGetTorque(b), sizeof s->t);
}

static void
restore_body(dBodyID b, const struct body_state *s)
{
	dBodySetPosition(b, s->p[0], s->p[1], s->p[2]);
	dBodySetQuaternion(b, s->q);
	dBodySetLinearVel(b, s->v[0], s->v[1], s->v[2]);
	dBodySetAngularVel(b, s->w[0], s->w[1], s->w[2]);
	dBodySetForce(b, s->f[0], s->f[1], s->f[2]);
	dBodySetTorque(b, s->t[0], s->t[1], s->t[2]);
}

/* Every body of the world: the links', then the ground's. */
static dBodyID
nth_body(const struct ode_engine *e, size_t i)
{
	return i < e->w->nlinks ? e->links[i].body : e->ground;
}

static void
save_bodies(struct ode_engine *e)
{
	size_t i;

	if (!e->saved)
		e->saved = phys_xcalloc(e->w->nlinks + 1, sizeof *e->saved);
	for (i = 0; i <= e->w->nlinks; i++)
		if (nth_body(e, i))
			save_body(nth_body(e, i), &e->saved[i]);
}

static void
restore_bodies(struct ode_engine *e)
{
	size_t i;

	for (i = 0; i <= e->w->nlinks; i++)
		if (nth_body(e, i))
			restore_body(nth_body(e, i), &e->saved[i]);
}

/*
 * Each solve's normal force on a contact bounds its friction in the next;
 * true once no contact's load moved by more than FRICTION_LOAD_TOL of the
 * total (the bounds have settled).
 */
static bool
update_friction_bounds(struct ode_engine *e, bool first)
{
	struct pending_contact *pc;
	const dReal *n;
	double load, total = 0, moved = 0;
	size_t i;

	for (i = 0; i < e->npending; i++) {
		pc = &e->pending[i];
		if (!(pc->mu > 0 || pc->mu2 > 0))
			continue;
		n = pc->c.geom.normal;
		load = fabs(pc->fb.f1[0] * n[0] + pc->fb.f1[1] * n[1] +
		    pc->fb.f1[2] * n[2]);
		moved = fmax(moved, fabs(load - pc->load));
		total += load;
		pc->load = load;
		pc->c.surface.mu = pc->mu * load;
		pc->c.surface.mu2 = pc->mu2 * load;
		pc->c.surface.mode &= ~dContactApprox1;
	}
	return !first && moved <= FRICTION_LOAD_TOL * total;
}

/* Friction proportional to load again, as the contacts were made. */
static void
restore_load_friction(struct ode_engine *e)
{
	struct pending_contact *pc;
	size_t i;

	for (i = 0; i < e->npending; i++) {
		pc = &e->pending[i];
		if (!(pc->mu > 0 || pc->mu2 > 0))
			continue;
		pc->c.surface.mu = pc->mu;
		pc->c.surface.mu2 = pc->mu2;
		pc->c.surface.mode |= dContactApprox1;
	}
}

/*
 * ODE's world solver factors each island's constraint rows together: its
 * time grows with their cube and its memory with their square (islands of
 * 1,800, 2,400 and 3,600 rows took 0.6, 1.7 and 7.9 s and 76, 110 and 205
 * MB for their first step; one of 2,000 welded links, 12,000 rows, minutes
 * and gigabytes). A step whose largest island has more rows than this is
 * refused.
 */
#define MAX_WORLD_ROWS 2000

/* A joint's rows as ODE's solver takes them, limits and motors aside. */
static int
joint_rows(dJointID j)
{
	switch (dJointGetType(j)) {
	case dJointTypeFixed:
		return 6;
	case dJointTypeHinge:
	case dJointTypeSlider:
		return 5;
	case dJointTypeUniversal:
	case dJointTypeHinge2:
	case dJointTypePiston:
	case dJointTypePR:
		return 4;
	case dJointTypeBall:
	case dJointTypeContact:
	case dJointTypeAMotor:
	case dJointTypeLMotor:
	case dJointTypePU:
	case dJointTypePlane2D:
		return 3;
	default:
		return 1;
	}
}

/* The rows of the island of link li's body (its links marked in seen),
 * each joint counted from its first body, or from its only one. */
static long
island_rows(const struct ode_engine *e, int li, bool *seen, int *queue)
{
	size_t head = 0, n = 0;
	long rows = 0;
	int k;

	queue[n++] = li;
	seen[li] = true;
	while (head < n) {
		dBodyID b = e->links[queue[head++]].body;

		for (k = 0; k < dBodyGetNumJoints(b); k++) {
			dJointID j = dBodyGetJoint(b, k);
			dBodyID o = dJointGetBody(j, 0) == b ?
			    dJointGetBody(j, 1) : dJointGetBody(j, 0);
			int ol = o ? (int)(intptr_t)dBodyGetData(o) - 1 : -1;

			if (!dJointIsEnabled(j))
				continue;
			if (dJointGetBody(j, 0) == b || !dJointGetBody(j, 0))
				rows += joint_rows(j);
			if (ol >= 0 && !seen[ol]) {
				seen[ol] = true;
				queue[n++] = ol;
			}
		}
	}
	return rows;
}

/* Whether the world solver can take this step's islands. */
static int
world_rows_within(const struct ode_engine *e)
{
	bool *seen = phys_xcalloc(e->w->nlinks, sizeof *seen);
	int *queue = phys_xcalloc(e->w->nlinks, sizeof *queue);
	long rows, most = 0;
	size_t i;

	for (i = 0; i < e->w->nlinks; i++)
		if (e->links[i].body && !rides(e, (int)i) && !seen[i] &&
		    (rows = island_rows(e, (int)i, seen, queue)) > most)
			most = rows;
	free(seen);
	free(queue);
	if (most <= MAX_WORLD_ROWS)
		return 0;
	return phys_fail("at t=%.9g ODE's world solver would solve %ld "
	    "constraint rows of bodies joined by joints and contacts "
	    "together, at most %d: its time grows with their cube and its "
	    "memory with their square (-s ode.solver.type=quick solves them "
	    "by iteration)", stepping_from, most, MAX_WORLD_ROWS);
}

static void
exact_step(struct ode_engine *e)
{
	int pass;

	if (!has_load_friction(e)) {
		make_contacts(e, false);
		dWorldStep(e->world, e->step);
		return;
	}
	for (pass = 0; pass < MAX_FRICTION_PASSES; pass++) {
		make_contacts(e, true);
		dWorldStep(e->world, e->step);
		dJointGroupEmpty(e->contacts);
		restore_bodies(e);
		if (update_friction_bounds(e, pass == 0))
			break;
	}
	make_contacts(e, false);
	dWorldStep(e->world, e->step);
}

/*
 * A step the Dantzig solver gave up on (in any of its passes) is undone
 * and taken by the quick solver, which iterates to forces within the
 * stops instead of ending where the pivoting stopped; said once, with the
 * time of the first.
 */
static int
world_step(struct ode_engine *e)
{
	if (world_rows_within(e) < 0)
		return -1;
	save_bodies(e);
	lcp_gave_up = false;
	exact_step(e);
	if (!lcp_gave_up)
		return 0;
	dJointGroupEmpty(e->contacts);
	restore_bodies(e);
	restore_load_friction(e);
	make_contacts(e, false);
	dWorldQuickStep(e->world, e->step);
	if (e->lcp_said)
		return 0;
	e->lcp_said = true;
	phys_warn("at t=%.9g ODE's world solver gave up on a step's "
	    "contacts (its Dantzig LCP, on redundant contacts with "
	    "friction): that step and any other it gives up on are taken by "
	    "its quick solver (-s ode.solver.type=quick takes every step so)",
	    stepping_from);
	return 0;
}

/* ---- the engine ---- */

/* Each massless link welded to a moving one rides on that link's body
 * (phys_find_riders): its geoms on the host's body, its moments in the
 * host's, its fixed joint none of ODE's. */
static void
find_riders(struct ode_engine *e)
{
	struct phys_rider *r = phys_xcalloc(e->w->nlinks + 1, sizeof *r);
	size_t i;

	e->ride = r;
	e->ride_joints = phys_find_riders(e->w, e->v, r);
	for (i = 0; i < e->w->nlinks; i++)
		e->links[i].first_rider = e->links[i].next_rider = -1;
	for (i = 0; i < e->w->nlinks; i++) {
		if (r[i].host < 0)
			continue;
		e->links[i].next_rider = e->links[r[i].host].first_rider;
		e->links[r[i].host].first_rider = (int)i;
	}
}

static int
build(struct ode_engine *e, const struct phys_engine_options *opt)
{
	const struct phys_scene *w = e->w;
	size_t i;

	find_riders(e);
	phys_still_init(&e->still, w, e->v, phys_engine_ode.support);
	for (i = 0; i < w->nlinks; i++)
		if (make_body(e, (int)i) < 0)
			return -1;
	for (i = 0; i < w->nlinks; i++)
		if (rides(e, (int)i))
			e->links[i].body = e->links[e->ride[i].host].body;
	for (i = 0; i < w->ncollisions; i++)
		if (make_geom(e, (int)i, opt) < 0)
			return -1;
	for (i = 0; i < w->njoints; i++)
		make_joint(e, (int)i);
	return 0;
}

static struct ode_engine *
ode_engine_new(const struct phys_scene *w, const struct phys_run_values *v,
    const struct phys_engine_options *opt, double t)
{
	struct phys_engine_options dflt = { 0 };
	struct ode_engine *e = phys_xcalloc(1, sizeof *e);

	ode_init();
	/* ODE's state is left as it is when ODE stops in it (the trap),
	 * phys's freed */
	PHYS_ENGINE_TRAP(ode_stopped(e); ode_engine_free(e); return NULL)
	e->w = w;
	e->v = v;
	e->world = dWorldCreate();
	e->space = dHashSpaceCreate(NULL);
	e->contacts = dJointGroupCreate(0);
	e->links = phys_xcalloc(w->nlinks, sizeof *e->links);
	e->geoms = phys_xcalloc(w->ncollisions, sizeof *e->geoms);
	e->own_mesh = phys_xcalloc(w->ncollisions, sizeof *e->own_mesh);
	e->own_data = phys_xcalloc(w->ncollisions, sizeof *e->own_data);
	e->grid = phys_xcalloc(w->ncollisions, sizeof *e->grid);
	e->neighbours = phys_xcalloc(w->ncollisions, sizeof *e->neighbours);
	e->convex = phys_xcalloc(w->ncollisions, sizeof *e->convex);
	e->patch = phys_xcalloc(w->ncollisions, sizeof *e->patch);
	e->joints = phys_xcalloc(w->njoints, sizeof *e->joints);
	for (size_t i = 0; i < w->njoints; i++)
		e->ntouch += w->joints[i].touch;
	/* Surface layer and correcting velocity are applied per contact. */
	dWorldSetContactSurfaceLayer(e->world, 0);
	dWorldSetContactMaxCorrectingVel(e->world, dInfinity);
	dWorldSetAutoDisableFlag(e->world, 0);
	if (ode_engine_apply_profile(e) < 0 ||
	    build(e, opt ? opt : &dflt) < 0) {
		ode_engine_free(e);
		return NULL;
	}
	ode_engine_apply_world(e);
	return e;
}

/*
 * Engines ODE stopped in: never freed, as ODE may stop again on what it
 * holds, but kept whole where the process can still reach them (ODE's
 * world and what its geoms read in place: convex hulls, meshes,
 * heightfields), so that they are memory set aside for good rather than
 * a leak (a leak checker, an embedder's included, tells the two apart).
 */
static struct ode_engine **left_behind;
static size_t nleft_behind;

static void
leave_engine(struct ode_engine *e)
{
	void *p = realloc(left_behind, (nleft_behind + 1) *
	    sizeof *left_behind);

	if (!p)
		return;	/* lost, then: no worse than freeing it */
	left_behind = p;
	left_behind[nleft_behind++] = e;
}

/* ODE's part of an engine ODE did not stop in. */
static void
release_ode(struct ode_engine *e)
{
	size_t i;

	{
		PHYS_ENGINE_TRAP(e->broken = true; return)
		dJointGroupDestroy(e->contacts);
		dSpaceDestroy(e->space);
		dWorldDestroy(e->world);
		while (e->nmeshes > 0)
			dGeomTriMeshDataDestroy(e->mesh_data[--e->nmeshes]);
		for (i = 0; i < e->w->ncollisions; i++) {
			release_shape(e->own_mesh[i], e->own_data[i]);
			convex_free(e->convex[i]);
			if (e->patch[i])
				patch_free(e->patch[i]);
			free(e->patch[i]);
		}
		while (e->nterrain > 0)
			dGeomHeightfieldDataDestroy(e->terrain[--e->nterrain]);
	}
}

static void
ode_engine_free(struct ode_engine *e)
{
	if (!e)
		return;
	if (!e->broken)
		release_ode(e);
	if (e->broken) {	/* before its release, or in it */
		leave_engine(e);
		return;
	}
	for (size_t i = 0; i < e->w->ncollisions; i++) {
		phys_mesh_grid_free(e->grid[i]);
		free(e->neighbours[i]);
	}
	free(e->patch);
	free(e->grid);
	free(e->neighbours);
	free(e->vertex);
	free(e->mark);
	free(e->own_mesh);
	free(e->own_data);
	free(e->convex);
	free(e->meshes);
	free(e->mesh_data);
	free(e->terrain);
	free(e->links);
	free(e->ride);
	free(e->ride_joints);
	phys_still_free(&e->still);
	free(e->geoms);
	free(e->joints);
	free(e->pending);
	free(e->pairs);
	free(e->below);
	free(e->below_depth);
	free(e->below_normal);
	free(e->saved);
	free(e->welds);
	free(e);
}

static enum friction_model
friction_model(const char *s)
{
	if (strcmp(s, "box_model") == 0)
		return FRICTION_BOX;
	if (strcmp(s, "cone_model") == 0)
		return FRICTION_CONE;
	return FRICTION_PYRAMID;
}

static int
ode_engine_apply_profile(struct ode_engine *e)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);
	size_t i;

	ODE_TRAP(e, return -1);

	e->step = PVD(v, PHYSICS_max_step_size);
	e->quick = strcmp(PVS(v, PHYSICS_ode_solver_type), "world") != 0;
	e->iters = (int)PVI(v, PHYSICS_ode_solver_iters);
	e->sor = PVD(v, PHYSICS_ode_solver_sor);
	e->cfm = PVD(v, PHYSICS_ode_constraints_cfm);
	e->erp = PVD(v, PHYSICS_ode_constraints_erp);
	e->max_correcting_vel =
	    PVD(v, PHYSICS_ode_constraints_contact_max_correcting_vel);
	e->surface_layer = PVD(v, PHYSICS_ode_constraints_contact_surface_layer);
	e->max_contacts = (int)PVI(v, PHYSICS_max_contacts);
	e->friction = friction_model(PVS(v, PHYSICS_ode_solver_friction_model));
	dWorldSetQuickStepNumIterations(e->world, e->iters);
	dWorldSetQuickStepW(e->world, e->sor);
	dWorldSetCFM(e->world, e->cfm);
	dWorldSetERP(e->world, e->erp);
	/* Joint CFM defaults follow the world's. */
	for (i = 0; e->joints && i < e->w->njoints; i++)
		ode_engine_apply_joint(e, (int)i);
	return 0;
}

static void
ode_engine_apply_world(struct ode_engine *e)
{
	phys_vec3 g = PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity);

	ODE_TRAP(e, return);

	dWorldSetGravity(e->world, g.x, g.y, g.z);
}

/*
 * ODE keeps joint anchors in body coordinates: after a body moves under
 * its link (a new centre of mass), set the joints up again where their
 * frames are, carrying their positions over as offsets.
 */
static void
reanchor_joints(struct ode_engine *e, int li)
{
	double pos[2], vel[2];
	size_t j;
	int n, k;

	for (j = 0; j < e->w->njoints; j++) {
		const struct phys_joint *jt = &e->w->joints[j];

		if (!e->joints[j].joint || (jt->child != li && jt->parent != li))
			continue;
		n = ode_engine_joint_state(e, (int)j, pos, vel);
		for (k = 0; k < n; k++)
			e->joints[j].offset[k] = pos[k];
		configure_joint(e, (int)j);
	}
}

/* Link li's geoms on its body, where its body's frame now is (a rider's
 * follows its host's). */
static void
seat_geoms(struct ode_engine *e, int li)
{
	const struct phys_link *l = &e->w->links[li];
	struct ode_link *ol = &e->links[li];
	size_t c;

	ol->inertial = body_frame(e, li);
	for (c = (size_t)l->first_collision;
	    c < (size_t)(l->first_collision + l->ncollisions); c++)
		if (e->geoms[c] && dGeomGetBody(e->geoms[c]))
			place_geom(e, (int)c);
}

static int
ode_engine_apply_link(struct ode_engine *e, int li)
{
	struct ode_link *ol = &e->links[li];
	phys_pose link, old_inertial = ol->inertial;
	phys_vec3 lin, ang;
	dMass mass;
	int k;

	ODE_TRAP(e, return -1);

	if (!ol->body)
		return 0;
	if (rides(e, li))
		return phys_rider_change(e->w, e->v, li, &e->ride[li], "ODE");
	if (link_mass(e, li, &mass, false) < 0)
		return -1;
	/* Keep the link frame where it is while its centre of mass moves. */
	ode_engine_link_pose(e, li, &link);
	ode_engine_link_vel(e, li, &lin, &ang);
	ol->inertial = inertial_pose(e, li);
	dBodySetMass(ol->body, &mass);
	set_body_pose(ol->body, phys_pose_mul(link, ol->inertial));
	seat_geoms(e, li);
	for (k = ol->first_rider; k >= 0; k = e->links[k].next_rider)
		seat_geoms(e, k);
	ode_engine_set_link_vel(e, li, &lin, &ang);
	apply_link_flags(e, li);
	if (old_inertial.p.x != ol->inertial.p.x ||
	    old_inertial.p.y != ol->inertial.p.y ||
	    old_inertial.p.z != ol->inertial.p.z ||
	    old_inertial.q.w != ol->inertial.q.w ||
	    old_inertial.q.x != ol->inertial.q.x ||
	    old_inertial.q.y != ol->inertial.q.y ||
	    old_inertial.q.z != ol->inertial.q.z) {
		reanchor_joints(e, li);
		for (k = ol->first_rider; k >= 0; k = e->links[k].next_rider)
			reanchor_joints(e, k);
	}
	return 0;
}

static int
ode_engine_apply_collision(struct ode_engine *e, int ci)
{
	struct phys_collision c;
	struct phys_mesh *old_mesh;
	dTriMeshDataID old_data;
	dGeomID g = e->geoms[ci];

	ODE_TRAP(e, return -1);

	if (!g)
		return 0;
	if (run_shape(e, ci, &c, &old_mesh, &old_data) < 0)
		return -1;
	switch (c.shape) {
	case PHYS_GEOM_BOX:
		dGeomBoxSetLengths(g, c.size[0], c.size[1], c.size[2]);
		break;
	case PHYS_GEOM_SPHERE:
		dGeomSphereSetRadius(g, c.size[0]);
		break;
	case PHYS_GEOM_CYLINDER:
		dGeomCylinderSetParams(g, c.size[0], c.size[1]);
		break;
	case PHYS_GEOM_CAPSULE:
		dGeomCapsuleSetParams(g, c.size[0], c.size[1]);
		break;
	case PHYS_GEOM_MESH:
	case PHYS_GEOM_ELLIPSOID:
	case PHYS_GEOM_CONE:
		if (is_convex(&c)) {
			resize_convex(e, ci, g, &c);
			place_geom(e, ci);
			break;
		}
		dGeomTriMeshSetData(g, shape_data(e, ci, &c));
		break;
	default:
		break;
	}
	release_shape(old_mesh, old_data);
	return 0;
}

/* The body ODE's fault most likely came from: the first whose state is
 * not finite, else the fastest. */
static int
fastest_body(const struct ode_engine *e)
{
	const dReal *v, *w;
	double speed, best = -1;
	size_t i;
	int at = -1;

	for (i = 0; i < e->w->nlinks; i++) {
		if (!e->links[i].body)
			continue;
		v = dBodyGetLinearVel(e->links[i].body);
		w = dBodyGetAngularVel(e->links[i].body);
		speed = fabs(v[0]) + fabs(v[1]) + fabs(v[2]) + fabs(w[0]) +
		    fabs(w[1]) + fabs(w[2]);
		if (!isfinite(speed))
			return (int)i;
		if (speed > best) {
			best = speed;
			at = (int)i;
		}
	}
	return at;
}

/* Every body: its centre of mass. */
static bool
ode_engine_body_state(const struct ode_engine *e, int li,
    struct phys_body_state *out)
{
	dBodyID b = e->links[li].body;
	const dReal *p, *q, *v, *w;

	if (!b || rides(e, li))
		return false;	/* static, or its host's */
	p = dBodyGetPosition(b);
	q = dBodyGetQuaternion(b);
	v = dBodyGetLinearVel(b);
	w = dBodyGetAngularVel(b);
	out->pos = v3(p[0], p[1], p[2]);
	out->q = (phys_quat){ q[0], q[1], q[2], q[3] };
	out->vel = v3(v[0], v[1], v[2]);
	out->angvel = v3(w[0], w[1], w[2]);
	return true;
}

/*
 * ODE measures a hinge's angle within [-pi, pi] of where it was set up,
 * and stops it there only: a limited revolute joint at pos, turned a
 * quarter turn from there, is set up again (its axis, not its anchor) as
 * engine_common.h says, with the stops in reach (set_axis_params), so
 * that its limits hold over several turns and on one side alone, as
 * under the other engines. Done where its angle is read after it moved
 * (track_joint_turns) and where its limits change.
 */
static void
stops_follow_turn(struct ode_engine *e, size_t i, double pos)
{
	struct ode_joint *oj = &e->joints[i];
	struct phys_axis_values a;
	dVector3 axis;

	if (!oj->joint || e->w->joints[i].type != PHYS_JOINT_REVOLUTE ||
	    !phys_turned_from(pos, oj->offset[0]))
		return;
	a = phys_joint_axis_values(vals(e, PHYS_S_JOINT, (int)i), 0);
	if (!phys_axis_limited(&a))
		return;
	dJointGetHingeAxis(oj->joint, axis);
	dJointSetHingeAxis(oj->joint, axis[0], axis[1], axis[2]);
	oj->offset[0] = pos;
	set_axis_params(e, oj->joint, &e->w->joints[i], 0);
}

/* Joint i's turning axes' angles now, for the next reading to count its
 * turns from. */
static void
track_joint_turns(struct ode_engine *e, size_t i)
{
	double pos[2], vel[2];
	int k, n;

	if (!e->joints[i].joint)
		return;
	n = ode_engine_joint_state(e, (int)i, pos, vel);
	for (k = 0; k < n; k++)
		e->joints[i].last[k] = pos[k];
	stops_follow_turn(e, i, pos[0]);
}

/* Each joint's, after a step. */
static void
track_turns(struct ode_engine *e)
{
	size_t i;

	for (i = 0; i < e->w->njoints; i++)
		track_joint_turns(e, i);
}

/* The joints at one link's. */
static void
track_link_turns(struct ode_engine *e, int li)
{
	size_t k;

	for (k = e->w->link_joints_at[li]; k < e->w->link_joints_at[li + 1];
	    k++)
		track_joint_turns(e, (size_t)e->w->link_joints[k]);
}

/* Those at the links on link li's body, after its pose is set: only
 * theirs moved (a run that sets a chain's joints one by one then stays
 * linear in them). */
static void
track_turns_at(struct ode_engine *e, int li)
{
	int host = e->ride[li].host >= 0 ? e->ride[li].host : li, k;

	track_link_turns(e, host);
	for (k = e->links[host].first_rider; k >= 0;
	    k = e->links[k].next_rider)
		track_link_turns(e, k);
}

/* The forces the run puts on links (ODE's bodies sit at their centres of
 * mass; ODE clears what was added after each step). */
static void
link_wrenches(struct ode_engine *e)
{
	const struct ode_link *l;
	phys_vec3 com, vel;
	size_t i;

	for (i = 0; i < e->w->nlinks; i++) {
		l = &e->links[i];
		if (!l->body)
			continue;
		if (rides(e, (int)i)) {	/* at its place on its host */
			ode_engine_link_com(e, (int)i, &com, &vel);
			dBodyAddForceAtPos(l->body, l->force.x, l->force.y,
			    l->force.z, com.x, com.y, com.z);
		} else
			dBodyAddForce(l->body, l->force.x, l->force.y,
			    l->force.z);
		dBodyAddTorque(l->body, l->torque.x, l->torque.y, l->torque.z);
	}
}

/*
 * Kinematic links move as phys_kinematic_step says. ODE moves a kinematic
 * body's centre of mass straight on: before the step (before: true) each
 * gets the velocity its held motion gives its centre where it is, for
 * the contacts, and where it starts is kept; after the step it is placed
 * on its path, and given that velocity again.
 */
static void
move_kinematic(struct ode_engine *e, bool before)
{
	size_t i;

	for (i = 0; i < e->w->nlinks; i++) {
		struct ode_link *ol = &e->links[i];

		if (!ol->body || rides(e, (int)i) || !dBodyIsKinematic(ol->body))
			continue;
		if (before)
			ode_engine_link_pose(e, (int)i, &ol->kin_from);
		else
			set_body_pose(ol->body, phys_pose_mul(
			    phys_kinematic_step(ol->kin_from, ol->kin_lin,
			    ol->kin_ang, e->step), ol->inertial));
		ode_engine_set_link_vel(e, (int)i, &ol->kin_lin, &ol->kin_ang);
	}
}

static int
ode_engine_step(struct ode_engine *e, double t0, double t1)
{
	size_t i;

	ODE_TRAP(e, return -1);

	for (i = 0; i < e->w->njoints; i++)
		if (e->joints[i].joint)
			joint_forces(e, (int)i);
	if (e->pushed)
		link_wrenches(e);
	couple_joints(e);
	move_kinematic(e, true);
	e->ncontacts = 0;
	e->npending = 0;
	stepping = e;
	stepping_from = t0;
	e->npairs = 0;
	dSpaceCollide(e->space, e, near_callback);
	for (i = 0; i < e->npairs; i++)
		collide_pair(e, e->pairs[i].g1, e->pairs[i].g2);
	if (e->quick) {
		make_contacts(e, false);
		dWorldQuickStep(e->world, e->step);
	} else if (world_step(e) < 0) {
		dJointGroupEmpty(e->contacts);
		stepping = NULL;
		return -1;
	}
	dJointGroupEmpty(e->contacts);
	stepping = NULL;
	move_kinematic(e, false);
	track_coupled_angles(e);
	track_turns(e);
	return 0;
}

static void
ode_engine_link_pose(const struct ode_engine *e, int li, phys_pose *out)
{
	const struct ode_link *ol = &e->links[li];

	if (!ol->body) {
		*out = e->w->links[li].pose;
		return;
	}
	*out = phys_pose_mul(body_pose(ol->body), phys_pose_inv(ol->inertial));
}

static void
ode_engine_link_vel(const struct ode_engine *e, int li, phys_vec3 *lin,
    phys_vec3 *ang)
{
	const struct ode_link *ol = &e->links[li];
	phys_pose link;
	const dReal *w;
	dVector3 v;

	if (!ol->body) {
		*lin = *ang = v3(0, 0, 0);
		return;
	}
	ode_engine_link_pose(e, li, &link);
	dBodyGetPointVel(ol->body, link.p.x, link.p.y, link.p.z, v);
	w = dBodyGetAngularVel(ol->body);
	*lin = v3(v[0], v[1], v[2]);
	*ang = v3(w[0], w[1], w[2]);
}

static void
ode_engine_link_com(const struct ode_engine *e, int li, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	const struct ode_link *ol = &e->links[li];
	const dReal *v;

	phys_pose p;
	dVector3 pv;

	if (!ol->body) {
		*com = phys_pose_apply(e->w->links[li].pose, ol->inertial.p);
		*com_vel = v3(0, 0, 0);
		return;
	}
	if (rides(e, li)) {	/* its own inertial frame's origin */
		ode_engine_link_pose(e, li, &p);
		*com = phys_pose_apply(p, inertial_pose(e, li).p);
		dBodyGetPointVel(ol->body, com->x, com->y, com->z, pv);
		*com_vel = v3(pv[0], pv[1], pv[2]);
		return;
	}
	*com = body_pose(ol->body).p;
	v = dBodyGetLinearVel(ol->body);
	*com_vel = v3(v[0], v[1], v[2]);
}

static void
ode_engine_link_mass(const struct ode_engine *e, int li, double *mass,
    double inertia[6])
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	dMass m;

	if (!e->links[li].body || rides(e, li)) {
		phys_link_values_mass(v, mass, inertia);
		return;
	}
	dBodyGetMass(e->links[li].body, &m);
	*mass = m.mass;
	if (e->links[li].first_rider >= 0) {	/* the link's, not the body's */
		const phys_mat3 *I = &e->links[li].own;

		inertia[0] = I->m[0][0], inertia[1] = I->m[1][1];
		inertia[2] = I->m[2][2], inertia[3] = I->m[0][1];
		inertia[4] = I->m[0][2], inertia[5] = I->m[1][2];
		return;
	}
	inertia[0] = m.I[0];
	inertia[1] = m.I[5];
	inertia[2] = m.I[10];
	inertia[3] = m.I[1];
	inertia[4] = m.I[2];
	inertia[5] = m.I[6];
}

static bool
ode_engine_link_dynamic(const struct ode_engine *e, int li)
{
	return e->links[li].body != NULL;
}

static int
ode_engine_set_link_pose(struct ode_engine *e, int li, phys_pose p)
{
	return ode_engine_set_link_poses(e, &li, &p, 1);
}

/* The bodies, then their joints' turns: less than half a turn at a time
 * keeps their count. */
static int
ode_engine_set_link_poses(struct ode_engine *e, const int *links,
    const phys_pose *p, size_t n)
{
	size_t i;

	ODE_TRAP(e, return -1);

	for (i = 0; i < n; i++)
		if (!e->links[links[i]].body)
			return phys_fail("link '%s' is static: its pose "
			    "cannot change", e->w->links[links[i]].name);
	for (i = 0; i < n; i++)
		set_body_pose(e->links[links[i]].body, phys_pose_mul(p[i],
		    e->links[links[i]].inertial));
	for (i = 0; i < n; i++)
		track_turns_at(e, links[i]);
	return 0;
}

/* Velocities are those of the link origin: the centre of mass moves with
 * lin + ang x (com - origin). */
static int
ode_engine_set_link_vel(struct ode_engine *e, int li, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	struct ode_link *ol = &e->links[li];
	phys_vec3 l, a, r;
	phys_pose link;

	ODE_TRAP(e, return -1);

	if (!ol->body)
		return phys_fail("link '%s' is static: it cannot move",
		    e->w->links[li].name);
	ode_engine_link_vel(e, li, &l, &a);
	if (lin)
		l = *lin;
	if (ang)
		a = *ang;
	if (dBodyIsKinematic(ol->body)) {
		ol->kin_lin = l;
		ol->kin_ang = a;
	}
	ode_engine_link_pose(e, li, &link);
	r = v3_sub(body_pose(ol->body).p, link.p);
	l = v3_add(l, v3_cross(a, r));
	dBodySetLinearVel(ol->body, l.x, l.y, l.z);
	dBodySetAngularVel(ol->body, a.x, a.y, a.z);
	return 0;
}

static void
wrench_of(const void *e, int ji, phys_vec3 *force, phys_vec3 *torque)
{
	ode_engine_joint_wrench(e, ji, force, torque);
}

static phys_vec3
com_of(const void *e, int li)
{
	phys_vec3 com, vel;

	ode_engine_link_com(e, li, &com, &vel);
	return com;
}

/* The last step's contact forces on still link li, and their torque
 * about c: each contact's on its one body (a still link has none),
 * turned back. */
static void
still_contacts(const void *ev, int li, phys_vec3 c, phys_vec3 *force,
    phys_vec3 *torque)
{
	const struct ode_engine *e = ev;
	const struct pending_contact *pc;
	phys_vec3 f, t, at;
	dBodyID b;
	size_t i;

	*force = *torque = v3(0, 0, 0);
	for (i = 0; i < e->npending; i++) {
		pc = &e->pending[i];
		if (!((!pc->b1 && geom_link(e, pc->c.geom.g1) == li) ||
		    (!pc->b2 && geom_link(e, pc->c.geom.g2) == li)))
			continue;
		if (!(b = pc->b1 ? pc->b1 : pc->b2))
			continue;
		f = v3(pc->fb.f1[0], pc->fb.f1[1], pc->fb.f1[2]);
		t = v3(pc->fb.t1[0], pc->fb.t1[1], pc->fb.t1[2]);
		at = body_pose(b).p;
		*force = v3_sub(*force, f);
		*torque = v3_sub(*torque, v3_add(t, v3_cross(v3_sub(at, c), f)));
	}
}

static const struct phys_still_ask still_ask = { wrench_of, com_of,
	still_contacts };

static void
ode_engine_joint_wrench(const struct ode_engine *e, int ji, phys_vec3 *force,
    phys_vec3 *torque)
{
	const dJointFeedback *fb = &e->joints[ji].fb;
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_rider *r = j->child >= 0 ? &e->ride[j->child] :
	    NULL;
	phys_vec3 com, vel;

	if (!e->joints[ji].joint) {
		if (r && r->seat == ji)	/* a rider's seat */
			phys_seat_wrench(e->w, e, j->child, r, e->ride_joints,
			    e->links[j->child].force, e->links[j->child].torque,
			    wrench_of, com_of, force, torque);
		else	/* a still link's weld, or nothing moves */
			phys_still_wrench(e->w, e->v, &e->still, e, ji,
			    PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity),
			    &still_ask, force, torque);
		return;
	}
	*force = v3(fb->f1[0], fb->f1[1], fb->f1[2]);
	*torque = v3(fb->t1[0], fb->t1[1], fb->t1[2]);
	if (r && r->host >= 0) {	/* body 1 is the host's: about the
					 * rider's centre of mass */
		ode_engine_link_com(e, j->child, &com, &vel);
		*torque = v3_add(*torque, v3_cross(v3_sub(body_pose(
		    e->links[j->child].body).p, com), *force));
	}
}

/* The force of joint ji's servo row over the last step: it pushed the
 * first body (the child) along the axis. */
static double
servo_row_force(const struct ode_engine *e, int ji)
{
	const struct ode_joint *oj = &e->joints[ji];
	const dReal *f = e->w->joints[ji].type == PHYS_JOINT_PRISMATIC ?
	    oj->servo_fb.f1 : oj->servo_fb.t1;

	return v3_dot(oj->servo_axis, v3(f[0], f[1], f[2]));
}

/* The constraint's share along each axis, on the child, plus what the
 * springs and dampers (and a servo's row) applied there. */
static int
ode_engine_joint_effort(const struct ode_engine *e, int ji, double eff[2])
{
	const struct ode_joint *oj = &e->joints[ji];
	const struct phys_joint *j = &e->w->joints[ji];
	phys_vec3 f, t, axis;
	phys_pose child;
	double pos[2], vel[2];
	int n = ode_engine_joint_state(e, ji, pos, vel), k;

	eff[0] = eff[1] = 0;
	if (n == 0)
		return 0;
	ode_engine_joint_wrench(e, ji, &f, &t);
	ode_engine_link_pose(e, j->child, &child);
	/* ODE gives the torque about the child's centre of mass; the axis
	 * passes through the anchor. */
	if (e->links[j->child].body)
		t = v3_add(t, v3_cross(v3_sub(body_pose(
		    e->links[j->child].body).p, phys_pose_mul(child,
		    oj->in_child).p), f));
	for (k = 0; k < n; k++) {
		axis = phys_quat_rotate(child.q, oj->axis_child[k]);
		eff[k] = v3_dot(j->type == PHYS_JOINT_PRISMATIC ||
		    (j->type == PHYS_JOINT_SCREW && k == 1) ? f : t, axis) +
		    oj->applied[k];
	}
	if (oj->servo_held)
		eff[0] += servo_row_force(e, ji);
	return n;
}

static int
ode_engine_servo_effort(const struct ode_engine *e, int ji, double eff[2])
{
	const struct ode_joint *oj = &e->joints[ji];

	if (!oj->servo_held)
		return 0;
	eff[0] = oj->servo_middle + servo_row_force(e, ji);
	return 1;
}

static int
ode_engine_set_joint_effort(struct ode_engine *e, int joint,
    const struct phys_joint_drive *drive)
{
	e->joints[joint].cmd[0] = drive->effort[0];
	e->joints[joint].cmd[1] = drive->effort[1];
	e->joints[joint].servo = drive->servo[0];
	return 0;
}

static int
ode_engine_set_link_wrench(struct ode_engine *e, int link, phys_vec3 force,
    phys_vec3 torque)
{
	ODE_TRAP(e, return -1);

	e->links[link].force = force;
	e->links[link].torque = torque;
	e->pushed = true;
	return 0;
}

/* A fixed joint between the two bodies where they are now; a static
 * side is the world (ODE's body 0). */
static int
ode_engine_weld(struct ode_engine *e, int parent, int child, bool on)
{
	dBodyID p = e->links[parent].body, c = e->links[child].body;
	struct ode_weld *wd;
	size_t i;

	ODE_TRAP(e, return -1);
	for (i = 0; i < e->nwelds; i++)
		if (e->welds[i].parent == parent && e->welds[i].child == child)
			break;
	if (!on) {
		if (i < e->nwelds) {
			if (e->welds[i].joint)
				dJointDestroy(e->welds[i].joint);
			e->welds[i] = e->welds[--e->nwelds];
		}
		return 0;
	}
	e->welds = phys_xrealloc(e->welds, (e->nwelds + 1) * sizeof *e->welds);
	wd = &e->welds[e->nwelds++];
	wd->parent = parent;
	wd->child = child;
	wd->joint = NULL;
	if ((!p && !c) || p == c)
		return 0;	/* both static, or a rider and its host */
	wd->joint = dJointCreateFixed(e->world, 0);
	dJointAttach(wd->joint, c ? c : p, c ? p : NULL);
	dJointSetFixed(wd->joint);
	return 0;
}

static int
ode_engine_contact_count(const struct ode_engine *e)
{
	return e->ncontacts;
}

PHYS_ENGINE_DEFINE(ode_engine, ode)
