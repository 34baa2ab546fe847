/*
 * engine_bullet.cc - the Bullet engine (libbullet, double precision). Every
 * Bullet call in phys lives here, behind the C functions of engine_impl.h.
 *
 * Bullet puts a body's origin at its centre of mass with the inertia
 * diagonal, so each dynamic link is a body at link_pose * inertial_pose *
 * principal axes (the "com" frame below); its collisions hang off that
 * frame, in a compound shape unless there is one collision sitting exactly
 * at it. Static links get one static object per collision.
 *
 * Meaning is kept the same as under ODE: joint positions are measured from
 * the loaded configuration and computed from the link poses; springs,
 * viscous damping and Coulomb friction act as under ODE (explicit forces,
 * and a motor of bounded force driving the rate to zero); joints are
 * Bullet's generalized 6-DOF constraint (a point-to-point one for balls),
 * with the parent as body A so that a universal joint's first axis stays
 * with the parent. Contacts get their surfaces' values each step, before
 * Bullet solves them: friction the smaller of the two surfaces' (Gazebo's
 * Bullet reads <ode><mu>, or <bullet><friction> where given), rolling
 * friction where a surface gives it, restitution the larger when the
 * approach is faster than both thresholds, and kp/kd or soft_erp/soft_cfm
 * when given.
 */
#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

/* The C headers phys's own pull in, which guard themselves, first. */
#include <libxml/tree.h>

/* C11's _Noreturn in phys's headers is C++'s attribute. */
#define _Noreturn [[noreturn]]
extern "C" {
#include "engine_impl.h"
#include "inertia.h"
#include "inertia_follow.h"
#include "mesh.h"
#include "touch.h"
}
#undef _Noreturn

namespace {

btVector3
bt(phys_vec3 v)
{
	return btVector3(v.x, v.y, v.z);
}

phys_vec3
from_bt(const btVector3 &v)
{
	return v3(v.x(), v.y(), v.z());
}

btTransform
bt(phys_pose p)
{
	return btTransform(btQuaternion(p.q.x, p.q.y, p.q.z, p.q.w), bt(p.p));
}

phys_pose
from_bt(const btTransform &t)
{
	btQuaternion q = t.getRotation();
	phys_pose p;

	p.p = from_bt(t.getOrigin());
	p.q.w = q.w(), p.q.x = q.x(), p.q.y = q.y(), p.q.z = q.z();
	return p;
}

bool
is_identity(phys_pose p)
{
	return p.p.x == 0 && p.p.y == 0 && p.p.z == 0 && p.q.x == 0 &&
	    p.q.y == 0 && p.q.z == 0;
}

/* Whether Bullet holds collision c as triangles. */
static bool
has_triangles(const struct phys_collision *c)
{
	return c->shape == PHYS_GEOM_MESH;
}

/*
 * An ellipsoid as its true shape: Bullet's convex algorithms (GJK and EPA
 * against any convex, a triangle or a plane) ask a shape only for its
 * point farthest along a direction d, which for semi-axes r is
 * r^2 d / |r d| (axis by axis). Bullet has no ellipsoid of its own; a
 * hull of its polyhedron stands on its faces and does not rock through
 * its rest.
 */
class ellipsoid_shape : public btConvexInternalShape {
	btVector3 r;

	btVector3 farthest(const btVector3 &d) const
	{
		btVector3 x = r * d;
		btScalar n = x.length();

		return n > 0 ? r * x / n : btVector3(0, 0, 0);
	}

public:
	explicit ellipsoid_shape(const btVector3 &radii) : r(radii)
	{
		m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
		m_implicitShapeDimensions = radii;
		setMargin(0);
	}
	btVector3 localGetSupportingVertexWithoutMargin(const btVector3 &d)
	    const override
	{
		return farthest(d);
	}
	void batchedUnitVectorGetSupportingVertexWithoutMargin(
	    const btVector3 *d, btVector3 *out, int n) const override
	{
		for (int k = 0; k < n; k++)
			out[k] = farthest(d[k]);
	}
	/* a world axis's half extent: |row of R diag(r)| */
	void getAabb(const btTransform &t, btVector3 &lo, btVector3 &hi)
	    const override
	{
		const btMatrix3x3 &b = t.getBasis();
		btVector3 h((b[0] * r).length(), (b[1] * r).length(),
		    (b[2] * r).length());

		h += btVector3(getMargin(), getMargin(), getMargin());
		lo = t.getOrigin() - h;
		hi = t.getOrigin() + h;
	}
	void calculateLocalInertia(btScalar mass, btVector3 &inertia)
	    const override
	{
		btVector3 q = r * r;

		inertia = mass / 5 * btVector3(q.y() + q.z(), q.x() + q.z(),
		    q.x() + q.y());
	}
	const char *getName() const override { return "phys ellipsoid"; }
	const btVector3 &radii() const { return r; }
};

struct bullet_engine;


const struct phys_value *vals(const struct bullet_engine *e, phys_scope s,
    int idx);

struct mesh_free {
	void operator()(struct phys_mesh *m) const { phys_mesh_free(m); }
};

struct c_free {
	void operator()(void *p) const { free(p); }
};

/* What holds a shape: a static object, a moving body alone, or a moving
 * body's compound with other shapes. */
enum holder { HELD_STATIC, HELD_ALONE, HELD_IN_COMPOUND };

/* A hull's vertices and face planes (phys_hull_plane), for its points on
 * a mesh's triangles (corners_on_triangle). */
struct hull_faces {
	const struct phys_mesh *m;
	std::vector<double> planes;
};

/* What Bullet collides for one collision at its run's sizes, owned by the
 * engine until the collision is resized or the engine goes (members in the
 * order each depends on the one before). */
struct bshape {
	std::unique_ptr<struct phys_mesh, mesh_free> own;	/* rescaled triangles */
	std::unique_ptr<btTriangleIndexVertexArray> tris;
	std::unique_ptr<btCollisionShape> shape;
	/* a static mesh's triangles and their neighbours, for its contacts
	 * at their edges (smooth_edges) */
	const struct phys_mesh *mesh = nullptr;
	std::unique_ptr<int[], c_free> nb;
	bool terrain = false;	/* a heightmap's, its triangles Bullet's */
	/* a hull's vertices and faces, where its shape's user pointer
	 * points (a bshape is moved) */
	std::unique_ptr<hull_faces> faces;
};

struct blink {
	btRigidBody *body = nullptr;	/* null for static links */
	phys_pose com = PHYS_POSE_IDENTITY;	/* body frame in the link frame */
	double mass = 0, inertia[6] = { 0, 0, 0, 0, 0, 0 };
	std::vector<int> child_collision;	/* compound child -> collision */
	int single = -1;	/* the collision when the shape is not compound */
	std::unique_ptr<btCompoundShape> compound;	/* when there is one */
	bool kinematic = false;
	btVector3 force{ 0, 0, 0 }, torque{ 0, 0, 0 };	/* the run's */
	/* A kinematic link's velocities, held: its origin's and its turn,
	 * in the world. */
	phys_vec3 kin_lin{ 0, 0, 0 }, kin_ang{ 0, 0, 0 };
	/* the massless links riding on this one's body (find_riders; each
	 * one's ride is the engine's) */
	std::vector<int> riders;
};

/* A link's pose and the velocities of its origin, in the world. */
struct bmotion {
	phys_pose pose = PHYS_POSE_IDENTITY;
	phys_vec3 lin{ 0, 0, 0 }, ang{ 0, 0, 0 };
};

struct bjoint {
	btTypedConstraint *c = nullptr;	/* null when both sides are static */
	btJointFeedback fb;
	struct phys_joint_frames f;	/* where its frame and axes were at load */
	double applied[2] = { 0, 0 };	/* spring, damping and command,
					 * last step */
	double cmd[2] = { 0, 0 };	/* the command's effort (motor.h) */
	struct phys_axis_servo servo = {};	/* axis 0's, if a servo */
	/* its motor row, on a constraint of its own (the joint's motor row
	 * is its friction's, and slows near its limits), made when first
	 * needed; e->constraints owns it */
	btGeneric6DofSpring2Constraint *servo_c = nullptr;
	/* a ball's friction: a constraint of three turning motor rows, made
	 * when first needed; e->constraints owns it */
	btGeneric6DofSpring2Constraint *friction_c = nullptr;
	/* a ball's range: a constraint whose one limited row is the turn's
	 * axis, the same */
	btGeneric6DofSpring2Constraint *range_c = nullptr;
	bool servo_held = false;	/* the row held it in the last step */
	/* a gearbox's gears as the revolute joints that hinge them to its
	 * reference body, each with the sign that turns the joint's
	 * position into the gear's turn about the gearbox's axis; -1: none */
	int gear[2] = { -1, -1 };
	double gear_sign[2] = { 1, 1 };
	double servo_middle = 0;	/* its range's middle, held as an effort */
	/* turning axes: the angle as the last step began, which the next
	 * reading continues (Bullet's are within (-pi, pi]) */
	double last[2] = { 0, 0 };
	/* the state as the step began, read once for its forces and limits */
	int n = 0;
	double pos[2] = { 0, 0 }, vel[2] = { 0, 0 };
	/* A revolute joint's position where its constraint's angle is 0:
	 * it follows the joint's turns (limits_follow_turns). */
	double zero = 0;
	/* each axis past a limit as the last step began (set_stop) */
	bool past[2] = { false, false };
};

class World;

/* Bullet's broadphase keeps, for every two overlapping objects, what
 * their collision needs (a manifold, an algorithm): links that cannot
 * touch under the run's values (phys_links_may_touch) are left out there
 * rather than after their contacts are found, and a link whose values
 * change is put back into the world (bullet_engine_apply_link), which
 * asks again. */
struct bullet_engine;
struct Overlaps : public btOverlapFilterCallback {
	const bullet_engine *e = nullptr;
	bool needBroadphaseCollision(btBroadphaseProxy *p0,
	    btBroadphaseProxy *p1) const override;
};

/*
 * Bullet's solver, with Coulomb's friction at every contact point.
 *
 * Bullet gives each point two friction rows, along its slip and across
 * it, each bounded by mu times the normal impulse: a pyramid, which holds
 * a point that may stick in any direction. At a point that slides, the
 * row across its slip is static friction it does not have: a plate sent
 * sliding at 1 m/s and spinning at 3 rad/s turned 0.80 rad where
 * Coulomb's law, point by point, turns it 0.59 (at 10 rad/s, 3.1 rad the
 * wrong way, and it stopped 0.19 m short of 0.53 m). A point whose slip
 * this step's friction cannot stop (the impulse to stop it is more than
 * mu times the normal impulse of the step before) slides: only the row
 * along its slip acts. A point that may stick keeps both, as does a new
 * one; a surface's fdir1 keeps both too, as a frame of its own.
 *
 * Bullet passes over a friction row (and a rolling one) while its point's
 * normal impulse is 0, and the row keeps the impulse it had: a corner
 * that the over-relaxed normal rows lift pushes sideways with nothing
 * pressing it down. An upright cube sent sliding at mu 0.7 stopped a
 * quarter short and turned 0.1 rad. Such a row's impulse is taken back
 * before each iteration.
 */
struct Solver : public btSequentialImpulseConstraintSolver {
protected:
	void convertContacts(btPersistentManifold **m, int n,
	    const btContactSolverInfo &info) override;
	btScalar solveSingleIteration(int iteration, btCollisionObject **bodies,
	    int nbodies, btPersistentManifold **m, int nm,
	    btTypedConstraint **c, int nc, const btContactSolverInfo &info,
	    btIDebugDraw *draw) override;
private:
	void unload(btSolverConstraint &f);
};

void
Solver::convertContacts(btPersistentManifold **m, int n,
    const btContactSolverInfo &info)
{
	btSequentialImpulseConstraintSolver::convertContacts(m, n, info);
	if (!(info.m_solverMode & SOLVER_USE_2_FRICTION_DIRECTIONS))
		return;
	btConstraintArray &contacts = m_tmpSolverContactConstraintPool;
	btConstraintArray &rows = m_tmpSolverContactFrictionConstraintPool;

	for (int i = 0; i < contacts.size(); i++) {
		const btSolverConstraint &c = contacts[i];
		const btManifoldPoint *p =
		    (const btManifoldPoint *)c.m_originalContactPoint;
		btSolverConstraint &along = rows[c.m_frictionIndex];
		btSolverConstraint &across = rows[c.m_frictionIndex + 1];

		if ((p->m_contactPointFlags &
		    BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED) ||
		    !(p->m_appliedImpulse > 0))
			continue;
		/* the row's right side is the impulse that stops the slip,
		 * times the relaxation its inverse mass carries */
		if (std::fabs(along.m_rhs) > along.m_friction *
		    p->m_appliedImpulse * info.m_sor)
			across.m_friction = 0;
	}
}

/* Friction row f, whose point has no normal impulse: none either. */
void
Solver::unload(btSolverConstraint &f)
{
	btScalar back = -f.m_appliedImpulse;
	btSolverBody &a = m_tmpSolverBodyPool[f.m_solverBodyIdA];
	btSolverBody &b = m_tmpSolverBodyPool[f.m_solverBodyIdB];

	if (back == 0)
		return;
	a.internalApplyImpulse(f.m_contactNormal1 * a.internalGetInvMass(),
	    f.m_angularComponentA, back);
	b.internalApplyImpulse(f.m_contactNormal2 * b.internalGetInvMass(),
	    f.m_angularComponentB, back);
	f.m_appliedImpulse = 0;
}

btScalar
Solver::solveSingleIteration(int iteration, btCollisionObject **bodies,
    int nbodies, btPersistentManifold **m, int nm, btTypedConstraint **c,
    int nc, const btContactSolverInfo &info, btIDebugDraw *draw)
{
	btConstraintArray &contacts = m_tmpSolverContactConstraintPool;
	btConstraintArray &rows = m_tmpSolverContactFrictionConstraintPool;
	btConstraintArray &rolling =
	    m_tmpSolverContactRollingFrictionConstraintPool;
	int per = info.m_solverMode & SOLVER_USE_2_FRICTION_DIRECTIONS ? 2 : 1;

	/* each point's friction rows follow one another; its rolling ones
	 * name it */
	for (int i = 0; i < contacts.size(); i++)
		if (!(contacts[i].m_appliedImpulse > 0))
			for (int k = 0; k < per; k++)
				unload(rows[contacts[i].m_frictionIndex + k]);
	for (int i = 0; i < rolling.size(); i++)
		if (!(contacts[rolling[i].m_frictionIndex].m_appliedImpulse > 0))
			unload(rolling[i]);
	return btSequentialImpulseConstraintSolver::solveSingleIteration(
	    iteration, bodies, nbodies, m, nm, c, nc, info, draw);
}

/* Bullet's points for a pair, held until phys's function for the pair
 * (Wrapped) says which stay. */
struct Held : public btManifoldResult {
	struct point {
		btVector3 n, p;
		btScalar d;
	};
	/* Bullet's turns of the box find a few (a point and 2 x 3); any
	 * more go on unheld */
	static const int MAX = 16;
	point points[MAX];
	int npoints = 0;
	btManifoldResult *out;

	Held(const btCollisionObjectWrapper *a,
	    const btCollisionObjectWrapper *b, btManifoldResult *o) :
	    btManifoldResult(a, b), out(o)
	{
		m_closestPointDistanceThreshold =
		    o->m_closestPointDistanceThreshold;
	}
	void addContactPoint(const btVector3 &n, const btVector3 &p,
	    btScalar d) override
	{
		if (npoints < MAX)
			points[npoints++] = point{ n, p, d };
		else
			out->addContactPoint(n, p, d);
	}
	/* the deepest of Bullet's points: its distance, negative inside */
	btScalar deepest() const
	{
		btScalar d = BT_LARGE_FLOAT;

		for (int k = 0; k < npoints; k++)
			d = std::min(d, points[k].d);
		return d;
	}
	/* Bullet's points, as it found them, to o */
	void forward(btManifoldResult *o) const
	{
		for (int k = 0; k < npoints; k++)
			o->addContactPoint(points[k].n, points[k].p,
			    points[k].d);
	}
};

/*
 * Bullet's algorithm for a pair of shapes, its points held (Held) and
 * given to a function of phys's for the pair, which adds to out those
 * the pair gets: of a box and a triangle (corners_on_triangle), a cylinder
 * and a plane (cylinder_on_plane).
 */
typedef void (*pair_points)(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out);

struct Wrapped : public btCollisionAlgorithm {
	btCollisionAlgorithm *inner;
	pair_points points;

	Wrapped(const btCollisionAlgorithmConstructionInfo &ci,
	    btCollisionAlgorithm *in, pair_points p) :
	    btCollisionAlgorithm(ci), inner(in), points(p) {}
	~Wrapped() override
	{
		inner->~btCollisionAlgorithm();
		m_dispatcher->freeCollisionAlgorithm(inner);
	}
	void processCollision(const btCollisionObjectWrapper *a,
	    const btCollisionObjectWrapper *b, const btDispatcherInfo &info,
	    btManifoldResult *out) override
	{
		Held held(a, b, out);
		btPersistentManifold *m;

		inner->processCollision(a, b, info, &held);
		/* the manifold the algorithm was given (a mesh's) or made */
		if (held.getPersistentManifold())
			out->setPersistentManifold(
			    held.getPersistentManifold());
		/* no point of Bullet's: out of each other's reach */
		if ((m = out->getPersistentManifold()) && held.npoints > 0)
			points(a, b, held, m, out);
	}
	btScalar calculateTimeOfImpact(btCollisionObject *a,
	    btCollisionObject *b, const btDispatcherInfo &info,
	    btManifoldResult *out) override
	{
		return inner->calculateTimeOfImpact(a, b, info, out);
	}
	void getAllContactManifolds(btManifoldArray &all) override
	{
		inner->getAllContactManifolds(all);
	}
};

struct WrappedCreate : public btCollisionAlgorithmCreateFunc {
	btCollisionAlgorithmCreateFunc *inner = nullptr;
	pair_points points = nullptr;

	btCollisionAlgorithm *CreateCollisionAlgorithm(
	    btCollisionAlgorithmConstructionInfo &ci,
	    const btCollisionObjectWrapper *a,
	    const btCollisionObjectWrapper *b) override
	{
		btCollisionAlgorithm *in = inner->CreateCollisionAlgorithm(ci,
		    a, b);
		void *at = ci.m_dispatcher1->allocateCollisionAlgorithm(
		    sizeof(Wrapped));

		return new (at) Wrapped(ci, in, points);
	}
};

/* Triangle wrapper b's corners in the world, into v, and its face's
 * normal as their winding gives it, not of unit length. */
btVector3
triangle_face(const btCollisionObjectWrapper *b, btVector3 v[3])
{
	const btTriangleShape *t = static_cast<const btTriangleShape *>(
	    b->getCollisionShape());
	const btTransform &tt = b->getWorldTransform();

	for (int k = 0; k < 3; k++)
		v[k] = tt * t->m_vertices1[k];
	return (v[1] - v[0]).cross(v[2] - v[0]);
}

/* The most points of a shape on a face face_points takes. */
const int FACE_POINTS = 16;

/*
 * The points of a shape lying on a face, each on the pair's second shape
 * (p) at a distance d from the first along the second's unit normal n
 * (Bullet's normal), into out, with Bullet's own (held) only where
 * deeper than every point the pair has on faces parallel to it: on one
 * plane a shape's deepest points are those p, and a manifold keeps four
 * points, the last one found among them; a flat rise smaller than the
 * shape, under it, is deeper, and keeps its points. A point deeper than
 * Bullet's deepest by more than its reach does not lie on the face: the
 * face cuts through the shape (a side of a moving mesh's box standing on
 * a cylinder's end took the cylinder's side, 0.9 m away, as lying on it,
 * and the box was thrown 0.2 m), and is left out.
 */
void
face_points(const Held &held, btPersistentManifold *m, const btVector3 &n,
    const btVector3 *p, const btScalar *d, int np, btManifoldResult *out)
{
	btScalar deepest = BT_LARGE_FLOAT;
	btScalar lowest = held.deepest() - m->getContactBreakingThreshold();
	btVector3 on[FACE_POINTS];
	btScalar at[FACE_POINTS];
	int k, non = 0;

	for (k = 0; k < np && non < FACE_POINTS; k++)
		if (d[k] >= lowest) {
			on[non] = p[k];
			at[non++] = d[k];
		}
	p = on, d = at, np = non;
	for (k = 0; k < np; k++)
		deepest = std::min(deepest, d[k]);
	for (k = 0; k < m->getNumContacts(); k++) {
		const btManifoldPoint &q = m->getContactPoint(k);
		btScalar x = q.m_normalWorldOnB.dot(n);

		if (x * x > PHYS_FACE_ON * PHYS_FACE_ON)
			deepest = std::min(deepest, q.getDistance());
	}
	for (k = 0; k < held.npoints; k++)
		if (held.points[k].d < deepest - 1e-6)
			out->addContactPoint(held.points[k].n,
			    held.points[k].p, held.points[k].d);
	for (k = 0; k < np; k++)
		out->addContactPoint(n, p[k], d[k]);
}

/*
 * Box, cylinder, sphere, ellipsoid or hull wrapper a as a corner shape,
 * into s: a hull's vertices and faces from its shape's user pointer
 * (hull_planes); false for a hull without them (a mesh's hull in a
 * compound).
 */
bool
corner_shape_of(const btCollisionObjectWrapper *a, struct phys_corner_shape *s)
{
	const btCollisionShape *sh = a->getCollisionShape();
	const hull_faces *h;

	memset(s, 0, sizeof *s);
	s->at = from_bt(a->getWorldTransform());
	if (sh->getShapeType() == BOX_SHAPE_PROXYTYPE) {
		s->kind = PHYS_CORNER_BOX;
		s->half = from_bt(static_cast<const btBoxShape *>(sh)->
		    getHalfExtentsWithMargin());
		return true;
	}
	if (sh->getShapeType() == CYLINDER_SHAPE_PROXYTYPE) {
		btVector3 h = static_cast<const btCylinderShape *>(sh)->
		    getHalfExtentsWithMargin();

		s->kind = PHYS_CORNER_CYLINDER;
		s->radius = h.x();
		s->length = 2 * h.z();
		return true;
	}
	if (sh->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
		s->kind = PHYS_CORNER_SPHERE;
		s->radius = static_cast<const btSphereShape *>(sh)->getRadius();
		return true;
	}
	if (sh->getShapeType() == CUSTOM_CONVEX_SHAPE_TYPE) {
		s->kind = PHYS_CORNER_ELLIPSOID;
		s->half = from_bt(static_cast<const ellipsoid_shape *>(sh)->
		    radii());
		return true;
	}
	if (sh->getShapeType() != CONVEX_HULL_SHAPE_PROXYTYPE)
		return false;
	if (!(h = static_cast<const hull_faces *>(sh->getUserPointer())))
		return false;
	s->kind = PHYS_CORNER_HULL;
	s->v = h->m->v;
	s->nv = h->m->nv;
	s->v_stride = 3;
	s->planes = h->planes.data();
	s->nplanes = h->planes.size() / 4;
	return true;
}

/*
 * Of a shape's np corners x over a triangle of unit normal n (towards the
 * shape), deep behind its face, those deeper than the deepest of
 * Bullet's points, held, but by no more than the shape's margin and the
 * manifold m's reach, as points to out. Bullet's points are those of the
 * shape rounded by its margin (a box's: a tenth of its least half side),
 * which a corner passes by up to 0.73 of it: boxes tumbling over a bumpy
 * heightmap went 7.5 mm into it on Bullet's alone, now 3.9 (without the
 * margin, 3.6, at 1.7 times the processor time of boxes on a mesh).
 */
void
corners_below(const Held &held, btPersistentManifold *m, btScalar margin,
    phys_vec3 n, const phys_vec3 *x, const double *deep, int np,
    btManifoldResult *out)
{
	btScalar top = held.deepest();
	btScalar low = top - m->getContactBreakingThreshold() - margin;

	for (int k = 0; k < np; k++)
		if (-deep[k] < top && -deep[k] >= low)
			out->addContactPoint(bt(n), bt(v3_add(x[k],
			    v3_scale(n, deep[k]))), -deep[k]);
}

/*
 * A box or a hull on a triangle of a mesh or a terrain. Bullet's nearest
 * points give one point for each triangle under it, often a corner of the
 * triangle, not of the shape: boxes sent sliding over a flat floor of
 * 0.1 m triangles turned (10 of 30 more than 0.05 rad, one 0.17) where on
 * a plane they slide straight, their friction pulling at points spread
 * unevenly, and bars' hulls sliding over a floor of 6 cm triangles rocked
 * and went up to 5% too far. Where a face of the shape lies on the
 * triangle (phys_corner_flat_on), each corner of the shape over the
 * triangle and within Bullet's reach of its face is a point, with the
 * face's normal (phys_corner_over_triangle), as a box on a plane gets its
 * corners (face_points). A shape meeting a triangle by an edge or a
 * corner keeps Bullet's points, which find it, and its corners over the
 * triangle deeper than those (corners_below).
 */
void
corners_on_triangle(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out)
{
	struct phys_corner_shape s;
	btVector3 v[3], p[8];
	phys_vec3 t[3], x[8], n;
	btScalar d[8];
	double deep[8];
	int k, np;

	/* a triangle of no area; a mesh's hull in a compound */
	if (triangle_face(b, v).length2() == 0 || !corner_shape_of(a, &s)) {
		held.forward(out);
		return;
	}
	for (k = 0; k < 3; k++)
		t[k] = from_bt(v[k]);
	np = (int)phys_corner_over_triangle(&s, t, INFINITY,
	    m->getContactBreakingThreshold(), &n, x, deep, 8);
	if (!phys_corner_flat_on(&s, n)) {	/* an edge or a corner on it */
		held.forward(out);
		corners_below(held, m, a->getCollisionShape()->getMargin(), n, x,
		    deep, np, out);
		return;
	}
	/* on the triangle, below each corner */
	for (k = 0; k < np; k++)
		p[k] = bt(v3_add(x[k], v3_scale(n, deep[k]))), d[k] = -deep[k];
	face_points(held, m, bt(n), p, d, np, out);
}

/*
 * The points of cylinder wrapper cw on a face of unit normal n (towards
 * the cylinder), into p: their number. Where an end lies on it (its axis
 * within PHYS_FACE_ON of n), four points of the end's rim a quarter turn
 * apart in the cylinder's frame, kept from step to step as a box's
 * corners are; where its side does, the two ends of its lowest line;
 * else none.
 */
int
cylinder_points(const btCollisionObjectWrapper *cw, const btVector3 &n,
    btVector3 p[4])
{
	const btCylinderShape *cyl = static_cast<const btCylinderShape *>(
	    cw->getCollisionShape());
	const btTransform &ct = cw->getWorldTransform();
	btVector3 h = cyl->getHalfExtentsWithMargin();
	btVector3 axis = ct.getBasis().getColumn(2), c = ct.getOrigin();
	btScalar x = axis.dot(n);

	if (x * x > PHYS_FACE_ON * PHYS_FACE_ON) {	/* on an end */
		btVector3 e = c - axis * (x > 0 ? h.z() : -h.z());
		btVector3 u = ct.getBasis().getColumn(0) * h.x();
		btVector3 v = ct.getBasis().getColumn(1) * h.x();

		p[0] = e + u, p[1] = e + v, p[2] = e - u, p[3] = e - v;
		return 4;
	}
	if (x * x < 1 - PHYS_FACE_ON * PHYS_FACE_ON) {	/* on its side */
		btVector3 low = (axis * x - n).normalized() * h.x();

		p[0] = c + low + axis * h.z(), p[1] = c + low - axis * h.z();
		return 2;
	}
	return 0;
}

/*
 * Shape wrapper w's points that may rest on a face of unit normal n
 * (towards the shape), s its corner shape, into x (room for
 * PHYS_CORNERS_MAX): a box's or a hull's corners, a cylinder's
 * cylinder_points; returns how many.
 */
int
resting_points(const btCollisionObjectWrapper *w,
    const struct phys_corner_shape *s, phys_vec3 n, phys_vec3 *x)
{
	btVector3 c[4];
	int k, nc;

	if (s->kind != PHYS_CORNER_CYLINDER)
		return (int)phys_corner_corners(s, v3_scale(n, -1), x);
	nc = cylinder_points(w, bt(n), c);
	for (k = 0; k < nc; k++)
		x[k] = from_bt(c[k]);
	return nc;
}

/*
 * Of shape wrapper w (corner shape s), lying on a face of shape o of unit
 * normal n (towards w), the resting_points over the face and within
 * reach of it, each as the point under it on the face (on o, reversed:
 * on w, where o is the pair's second shape) and its distance, onto p and
 * d at *np (room for FACE_POINTS).
 */
void
over_face(const btCollisionObjectWrapper *w, const struct phys_corner_shape *s,
    const struct phys_corner_shape *o, phys_vec3 n, btScalar reach,
    bool on_w, btVector3 *p, btScalar *d, int *np)
{
	phys_vec3 x[PHYS_CORNERS_MAX], face = phys_corner_support(o, n), q, f;
	double dist, depth;
	bool alone;
	int k, nx = resting_points(w, s, n, x);

	for (k = 0; k < nx && *np < FACE_POINTS; k++) {
		dist = v3_dot(n, v3_sub(x[k], face));
		q = v3_sub(x[k], v3_scale(n, dist));
		if (dist < reach && phys_corner_inside(o, q, PHYS_CORNER_REACH,
		    &f, &depth, &alone)) {
			p[*np] = bt(on_w ? x[k] : q);
			d[(*np)++] = dist;
		}
	}
}

/*
 * Two of a box, a hull and a cylinder (not two boxes, which Bullet's own
 * test holds) touching face to face: a cylinder's end or side, a box's
 * or a hull's face. Bullet's convex points for a standing cylinder
 * sliding on a box lay mostly on its front half, and it slid 1.6-3.4%
 * too far; a box turned on a sloping hull or a cylinder's end veered
 * 13-16 mm sideways in 0.5 m. Where the normal of their deepest point
 * (phys_corner_deepest) is a flat face's of each (phys_corner_normal,
 * phys_corner_flat_on), each one's resting_points over the other's face
 * and within Bullet's reach of it are points, as on a plane
 * (face_points); else Bullet's.
 */
void
face_on_face(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out)
{
	struct phys_corner_shape sa, sb;
	btScalar reach = m->getContactBreakingThreshold(), d[FACE_POINTS];
	btVector3 p[FACE_POINTS];
	phys_vec3 at, n;
	double depth;
	int np = 0;

	if (!corner_shape_of(a, &sa) || !corner_shape_of(b, &sb) ||
	    !phys_corner_deepest(&sa, &sb, &at, &n, &depth)) {
		held.forward(out);
		return;
	}
	/* n from b into a: Bullet's normal on b */
	n = phys_corner_normal(&sa, &sb, n);
	if (!phys_corner_flat_on(&sb, n) ||
	    !phys_corner_flat_on(&sa, v3_scale(n, -1))) {
		held.forward(out);
		return;
	}
	over_face(a, &sa, &sb, n, reach, false, p, d, &np);
	over_face(b, &sb, &sa, v3_scale(n, -1), reach, true, p, d, &np);
	face_points(held, m, bt(n), p, d, np, out);
}

/* Whether q, along f (triangle v's winding normal), is over the
 * triangle. */
bool
over_triangle(const btVector3 v[3], const btVector3 &f, const btVector3 &q)
{
	for (int j = 0; j < 3; j++)
		if ((v[(j + 1) % 3] - v[j]).cross(q - v[j]).dot(f) < 0)
			return false;
	return true;
}

/* Segment p[0] p[1] cut to its part over triangle v (winding normal
 * f), in place: the number of its ends left (0 when it misses it, 1
 * when it touches it at a point). */
int
clip_to_triangle(const btVector3 v[3], const btVector3 &f, btVector3 p[2])
{
	btScalar lo = 0, hi = 1, g0, g1;
	btVector3 a = p[0], b = p[1];

	for (int j = 0; j < 3; j++) {
		btVector3 e = v[(j + 1) % 3] - v[j];

		g0 = e.cross(a - v[j]).dot(f);
		g1 = e.cross(b - v[j]).dot(f);
		if (g0 < 0 && g1 < 0)
			return 0;
		if (g0 < 0)
			lo = std::max(lo, g0 / (g0 - g1));
		else if (g1 < 0)
			hi = std::min(hi, g0 / (g0 - g1));
	}
	if (lo > hi)
		return 0;
	p[0] = a.lerp(b, lo), p[1] = a.lerp(b, hi);
	return lo < hi ? 2 : 1;
}

/*
 * A cylinder on a triangle of a mesh or a terrain. Bullet's nearest
 * points give one point for each triangle under it, as for a box:
 * standing cylinders sent sliding over a flat heightmap turned up to
 * 0.35 rad, and one lying across its path over a floor mesh turned
 * 1.2 rad. Where an end or its side lies on the triangle, the
 * cylinder_points over it and within Bullet's reach of its face are
 * points, as on a plane (face_points); an edge on it keeps Bullet's.
 */
void
cylinder_on_triangle(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out)
{
	btVector3 v[3], f = triangle_face(b, v), n, p[4], q[4];
	btScalar dist, d[4];
	int k, nr, np = 0;
	bool line;

	if (f.length2() == 0) {	/* a triangle of no area */
		held.forward(out);
		return;
	}
	n = f.normalized();
	if (n.dot(a->getWorldTransform().getOrigin() - v[0]) < 0)
		n = -n;	/* the face's side the cylinder's centre is on */
	if ((nr = cylinder_points(a, n, p)) == 0) {	/* on an edge */
		held.forward(out);
		return;
	}
	line = nr == 2;
	if (line)	/* the part of the lowest line over the triangle */
		nr = clip_to_triangle(v, f, p);
	for (k = 0; k < nr; k++) {
		dist = n.dot(p[k] - v[0]);
		if (dist < m->getContactBreakingThreshold() &&
		    (line || over_triangle(v, f, p[k])))
			q[np] = p[k] - n * dist, d[np++] = dist;
	}
	face_points(held, m, n, q, d, np, out);
}

/*
 * A cylinder on a plane. Bullet finds one point of its rim and turns it
 * about the normal five times for more (setPlaneConvexMultipointIterations)
 * at places fixed in the world, and its manifold keeps four of the six,
 * not the same from step to step: standing cylinders sent sliding turned
 * (up to 0.31 rad over 0.25 m) where a box slides straight. Where an end
 * or its side lies on the plane, cylinder_points are its points; else
 * Bullet's.
 */
void
cylinder_on_plane(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out)
{
	bool first = a->getCollisionShape()->getShapeType() ==
	    CYLINDER_SHAPE_PROXYTYPE;
	const btCollisionObjectWrapper *cw = first ? a : b, *pw = first ? b : a;
	const btStaticPlaneShape *plane = static_cast<
	    const btStaticPlaneShape *>(pw->getCollisionShape());
	const btTransform &pt = pw->getWorldTransform();
	btVector3 n = pt.getBasis() * plane->getPlaneNormal(), p[4];
	btScalar d = plane->getPlaneConstant() + n.dot(pt.getOrigin()), dist;
	int k, np;

	if ((np = cylinder_points(cw, n, p)) == 0) {
		held.forward(out);
		return;
	}
	for (k = 0; k < np; k++) {
		dist = n.dot(p[k]) - d;
		if (!(dist < m->getContactBreakingThreshold()))
			continue;
		/* the normal on the manifold's second object, the point on
		 * it (btManifoldResult swaps by the manifold's order) */
		if (m->getBody0() == cw->getCollisionObject())
			out->addContactPoint(n, p[k] - n * dist, dist);
		else
			out->addContactPoint(-n, p[k], dist);
	}
}

struct bullet_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;	/* the run's: every parameter */
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher{ &config };
	WrappedCreate box_triangle, cylinder_triangle, cylinder_plane;
	WrappedCreate hull_triangle, round_triangle[2];
	WrappedCreate faces[8];
	WrappedCreate plane_cylinder;
	btDbvtBroadphase broadphase;
	Solver solver;
	std::unique_ptr<World> world;
	Overlaps overlaps;
	std::vector<bshape> shapes;	/* per collision */
	std::vector<std::unique_ptr<btCollisionObject>> objects;
	std::vector<std::unique_ptr<btTypedConstraint>> constraints;
	std::vector<blink> links;
	std::vector<bjoint> joints;
	/* Each link's motion as the step began (read_joints). */
	std::vector<bmotion> now;
	/* Per collision of a static link: its object, null when skipped. */
	std::vector<btCollisionObject *> static_object;
	bool skip_unsupported = false;
	bool pushed = false;	/* some link has had a force of the run's */
	bool slip_said = false;	/* a coupling's slip (couple_mimic) */
	/* Each link's ride, and the joints of the riders (find_riders). */
	std::vector<struct phys_rider> ride;
	std::unique_ptr<int, decltype(&free)> ride_joints{ nullptr, free };
	/* The links the world holds still, static here (phys_still). */
	struct phys_still still = { nullptr, nullptr, nullptr, nullptr };
	/* The run's welds, each a fixed constraint made at run time. */
	struct weld {
		int parent, child;
		std::unique_ptr<btTypedConstraint> c;
	};
	std::vector<weld> welds;

	double step = 0.001;
	int max_contacts = 20;
	int ncontacts = 0;

	bullet_engine(const struct phys_scene *world_,
	    const struct phys_run_values *v_) : w(world_), v(v_) {}
};

PHYS_ENGINE_FUNCTIONS(bullet_engine)

/* The run's values of a scope (idx: the entity): every parameter the
 * engine reads comes from here, never from the loaded world. */
const struct phys_value *
vals(const struct bullet_engine *e, phys_scope s, int idx)
{
	return phys_run_values_get(e->v, s, idx);
}

/* Bullet's world, with phys's look at the contacts between collision
 * detection and the solver. */
class World : public btDiscreteDynamicsWorld {
public:
	World(bullet_engine *e) : btDiscreteDynamicsWorld(&e->dispatcher,
	    &e->broadphase, &e->solver, &e->config), eng(e) {}
protected:
	void solveConstraints(btContactSolverInfo &info) override;
private:
	bullet_engine *eng;
};

/* ---- bodies and shapes ---- */

/* The link object o is of: its own, or its collision's for a static
 * object of one collision; -1 for none. */
static int
link_of(const bullet_engine *e, const btCollisionObject *o)
{
	int ci;

	if (o->getUserIndex() >= 0)
		return o->getUserIndex();
	ci = o->getUserIndex2();
	return ci >= 0 ? e->w->collisions[ci].link : -1;
}

bool
Overlaps::needBroadphaseCollision(btBroadphaseProxy *p0,
    btBroadphaseProxy *p1) const
{
	auto *o0 = static_cast<const btCollisionObject *>(p0->m_clientObject);
	auto *o1 = static_cast<const btCollisionObject *>(p1->m_clientObject);
	int l0, l1;

	/* Bullet's own test: the groups and masks */
	if (!(p0->m_collisionFilterGroup & p1->m_collisionFilterMask) ||
	    !(p1->m_collisionFilterGroup & p0->m_collisionFilterMask))
		return false;
	l0 = link_of(e, o0);
	l1 = link_of(e, o1);
	return l0 < 0 || l1 < 0 || l0 == l1 ||
	    phys_links_may_touch(e->w, e->v, l0, l1);
}

int
collision_of(const bullet_engine *e, const btCollisionObject *o, int child)
{
	int link = o->getUserIndex();

	if (link < 0)
		return o->getUserIndex2();
	const blink &bl = e->links[(size_t)link];
	if (bl.single >= 0)
		return bl.single;
	if (child < 0 || (size_t)child >= bl.child_collision.size())
		return -1;
	return bl.child_collision[(size_t)child];
}

/* Hull mesh m's face planes into out, which its shape points to. */
void
hull_planes(bshape &out, const struct phys_mesh *m)
{
	phys_vec3 mid = v3(0, 0, 0);
	double pl[4];

	for (size_t i = 0; i < m->nv; i++)
		mid = v3_add(mid, v3(m->v[3 * i], m->v[3 * i + 1],
		    m->v[3 * i + 2]));
	mid = v3_scale(mid, 1 / (double)(m->nv ? m->nv : 1));
	out.faces.reset(new hull_faces{ m, {} });
	for (size_t k = 0; k < m->ntri; k++)
		if (phys_hull_plane(m, k, mid, pl))
			out.faces->planes.insert(out.faces->planes.end(), pl,
			    pl + 4);
	out.shape->setUserPointer(out.faces.get());
}

/*
 * A mesh's triangles: a static object's tree of them, a moving body's
 * GImpact shape. Bullet's compound shape cannot hold a GImpact one (its
 * triangles then collide with nothing: a link's mesh fell through the
 * ground), so a mesh that shares its body with other shapes is its
 * convex hull there, and a lone one off the body's centre of mass has
 * its triangles carried into the body's frame (sized_shape). A mesh
 * that is its own hull (convex) is Bullet's hull everywhere.
 */
btCollisionShape *
mesh_shape(bshape &out, const struct phys_mesh *m, enum holder h,
    bool convex)
{
	if (h == HELD_IN_COMPOUND || convex) {
		auto *hull = new btConvexHullShape(m->v, (int)m->nv,
		    3 * (int)sizeof(double));

		out.shape.reset(hull);
		hull->setMargin(0);
		if (convex)
			hull_planes(out, m);
		return hull;
	}
	out.tris.reset(new btTriangleIndexVertexArray((int)m->ntri,
	    (int *)m->tri, 3 * (int)sizeof(unsigned), (int)m->nv, m->v,
	    3 * (int)sizeof(double)));
	if (h == HELD_STATIC) {
		out.shape.reset(new btBvhTriangleMeshShape(out.tris.get(),
		    true));
		out.mesh = m;
		out.nb.reset(phys_mesh_neighbours(m));
	} else {
		auto *g = new btGImpactMeshShape(out.tris.get());

		out.shape.reset(g);
		g->setMargin(0);
		g->updateBound();
	}
	return out.shape.get();
}

/*
 * Bullet's terrain is centred on its origin halfway between the lowest and
 * highest sample. It reads the heightmap's own samples, which the world
 * keeps unchanged until it is freed, after its run (a copy of a 4097 x
 * 4097 map's rows took 128 MB more than ODE): its rows run along z when y
 * is up, and turned a quarter about x they run along -y, row 0 the +y edge
 * as phys has it.
 */
btCollisionShape *
terrain_shape(bshape &out, const struct phys_heightmap *hm, phys_pose *at)
{
	/* each square of samples split along the diagonal ODE's field
	 * splits it on, from its +x, +y corner to its -x, -y one (Bullet's
	 * own, its rows turned to run along -y; flipped, a ball rolling over
	 * a bumpy field went 2 cm into ODE's), its triangles wound to face
	 * up */
	auto *s = new btHeightfieldTerrainShape((int)hm->nx, (int)hm->ny,
	    hm->h, hm->lo, hm->hi, 1, false);

	out.shape.reset(s);
	out.terrain = true;
	s->setFlipTriangleWinding(true);
	s->setLocalScaling(btVector3(hm->size[0] / (double)(hm->nx - 1), 1,
	    hm->size[1] / (double)(hm->ny - 1)));
	*at = phys_pose_mul(*at, phys_pose{ { hm->pos[0], hm->pos[1],
	    (hm->lo + hm->hi) / 2 }, { M_SQRT1_2, M_SQRT1_2, 0, 0 } });
	return s;
}

/* The shape of a collision c, sized as c says, centred on its frame (a
 * heightmap's may move the frame), in out; null when Bullet has none. */
btCollisionShape *
make_shape(bshape &out, const struct phys_collision *c, enum holder h,
    phys_pose *at)
{
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		out.shape.reset(new btBoxShape(btVector3(c->size[0] / 2,
		    c->size[1] / 2, c->size[2] / 2)));
		break;
	case PHYS_GEOM_SPHERE:
		out.shape.reset(new btSphereShape(c->size[0]));
		break;
	case PHYS_GEOM_CYLINDER:
		out.shape.reset(new btCylinderShapeZ(btVector3(c->size[0],
		    c->size[0], c->size[1] / 2)));
		break;
	case PHYS_GEOM_CAPSULE:
		out.shape.reset(new btCapsuleShapeZ(c->size[0], c->size[1]));
		break;
	case PHYS_GEOM_CONE:
		/* Bullet's is centred on its length too; its margin would
		 * stand it 4 cm off the ground, as no other shape does */
		out.shape.reset(new btConeShapeZ(c->size[0], c->size[1]));
		out.shape->setMargin(0);
		break;
	case PHYS_GEOM_ELLIPSOID:
		out.shape.reset(new ellipsoid_shape(btVector3(c->size[0],
		    c->size[1], c->size[2])));
		break;
	case PHYS_GEOM_MESH:
		return mesh_shape(out, c->mesh, h, c->hull != NULL);
	case PHYS_GEOM_HEIGHTMAP:
		return terrain_shape(out, c->heightmap, at);
	default:
		break;
	}
	return out.shape.get();
}

/* Collision ci at the sizes the run's values hold (-s and resizes), in
 * out: a rescaled mesh or an ellipsoid of other radii gets triangles of
 * its own. -1 with phys_error() when they cannot be made. */
int
sized_shape(bullet_engine *e, int ci, enum holder h, phys_pose *at, bshape &out)
{
	struct phys_collision c;
	struct phys_mesh *m;

	if (phys_engine_collision(&e->w->collisions[ci],
	    vals(e, PHYS_S_COLLISION, ci), &c, &m) < 0)
		return -1;
	out.own.reset(m);
	if (h == HELD_ALONE && has_triangles(&c) && !is_identity(*at)) {
		out.own.reset(phys_mesh_moved(c.mesh, *at));
		c.mesh = out.own.get();
		*at = PHYS_POSE_IDENTITY;
	}
	make_shape(out, &c, h, at);
	return 0;
}

int
refuse_shape(const struct phys_collision *c, const char *why)
{
	return phys_failat(PHYS_AT(c->doc, c->node),
	    "collision '%s': %s", c->name, why);
}

/*
 * Bullet's broadphase puts each new object into its tree of boxes beside
 * the nearest, and balances the tree only a little at each step: objects
 * added in a row (a chain's links, a row of bodies) make it a path, each
 * addition walking all of it (a 20,000-link chain took 14 s to make).
 * Each time one of its trees reaches a multiple of 1,024 objects, it is
 * rebuilt balanced: smaller worlds keep the tree, and the order of
 * contact pairs, that Bullet alone gives them.
 */
void
balance_broadphase(bullet_engine *e)
{
	for (btDbvt &t : e->broadphase.m_sets) {
		int n = t.m_leaves;

		if (n >= 1024 && n % 1024 == 0)
			t.optimizeTopDown(8);
	}
}

void
add_object(bullet_engine *e, btCollisionObject *o, int link)
{
	int group = btBroadphaseProxy::DefaultFilter, mask =
	    btBroadphaseProxy::AllFilter;

	o->setUserIndex(link);
	if (auto *rb = btRigidBody::upcast(o))
		e->world->addRigidBody(rb, group, mask);
	else
		e->world->addCollisionObject(o, group, mask);
	balance_broadphase(e);
}

/* A collision Bullet has no shape for: refused, or skipped with a
 * warning at load under --skip-unsupported. */
int
unsupported(const bullet_engine *e, const struct phys_collision *c,
    bool at_load)
{
	if (!e->skip_unsupported)
		return refuse_shape(c, "the Bullet engine has no such shape "
		    "(--skip-unsupported skips it)");
	if (at_load)
		phys_warnat(PHYS_AT(c->doc, c->node),
		    "skipping collision '%s': no such Bullet shape", c->name);
	return 0;
}

/* What marks an object as one of phys's static meshes or terrains in
 * Bullet's third user index: the hook Bullet calls is the process's, and
 * other objects may be flagged for it with user pointers of their own. */
const int SMOOTHED = 0x70687973;

/* The static mesh or terrain whose triangle wrapper w is, flagged for
 * smooth_edges; null for any other shape. */
const bshape *
static_mesh_of(const btCollisionObjectWrapper *w)
{
	const btCollisionObject *o = w->getCollisionObject();

	int type = o->getCollisionShape()->getShapeType();

	if (w->getCollisionShape()->getShapeType() != TRIANGLE_SHAPE_PROXYTYPE ||
	    (type != TRIANGLE_MESH_SHAPE_PROXYTYPE &&
	    type != TERRAIN_SHAPE_PROXYTYPE) ||
	    !(o->getCollisionFlags() &
	    btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK) ||
	    o->getUserIndex3() != SMOOTHED)
		return nullptr;
	return static_cast<const bshape *>(o->getUserPointer());
}

/* The contact point as seen from its other body. */
void
swap_sides(btManifoldPoint &cp)
{
	std::swap(cp.m_localPointA, cp.m_localPointB);
	std::swap(cp.m_positionWorldOnA, cp.m_positionWorldOnB);
	cp.m_normalWorldOnB = -cp.m_normalWorldOnB;
}

/* Triangles Bullet gives, as a mesh: a vertex for each position. */
struct gathered : public btTriangleCallback {
	std::vector<double> v;
	std::vector<unsigned> tri;

	unsigned vertex(const btVector3 &p)
	{
		size_t i;

		for (i = 0; i < v.size(); i += 3)
			if (v[i] == p.x() && v[i + 1] == p.y() && v[i + 2] == p.z())
				return (unsigned)(i / 3);
		v.insert(v.end(), { p.x(), p.y(), p.z() });
		return (unsigned)(i / 3);
	}
	void processTriangle(btVector3 *p, int, int) override
	{
		for (int k = 0; k < 3; k++)
			tri.push_back(vertex(p[k]));
	}
};

/* Whether triangle u of m has vertex a. */
bool
has_vertex(const struct phys_mesh *m, size_t u, unsigned a)
{
	return m->tri[3 * u] == a || m->tri[3 * u + 1] == a ||
	    m->tri[3 * u + 2] == a;
}

/* The triangles of a terrain around one of them, as a mesh: t that one,
 * nb its neighbours alone (phys_mesh_neighbours' form). */
struct around {
	gathered g;
	struct phys_mesh m;
	std::vector<int> nb;
	size_t t;
};

/* The triangles of terrain s around triangle x (local), which Bullet
 * makes as it meets them, asked of it again. A search of them for x's
 * neighbours, not phys_mesh_neighbours' sort and allocation, for each
 * contact point: a terrain's run took 1.83 s with the sort, 1.36 s so. */
bool
terrain_around(const btHeightfieldTerrainShape *s, const btVector3 x[3],
    around &a)
{
	btVector3 lo = x[0], hi = x[0], pad;
	struct phys_mesh &m = a.m;
	size_t t;

	for (int k = 1; k < 3; k++)
		lo.setMin(x[k]), hi.setMax(x[k]);
	pad = (hi - lo) * 1e-6 + btVector3(1e-9, 1e-9, 1e-9);
	s->processAllTriangles(&a.g, lo - pad, hi + pad);
	memset(&m, 0, sizeof m);
	m.v = a.g.v.data();
	m.nv = a.g.v.size() / 3;
	m.tri = a.g.tri.data();
	m.ntri = a.g.tri.size() / 3;
	/* x among them: a terrain's vertices differ in x and z, y up */
	for (t = 0; t < m.ntri; t++)
		if (m.v[3 * m.tri[3 * t]] == x[0].x() &&
		    m.v[3 * m.tri[3 * t] + 2] == x[0].z() &&
		    m.v[3 * m.tri[3 * t + 1]] == x[1].x() &&
		    m.v[3 * m.tri[3 * t + 1] + 2] == x[1].z() &&
		    m.v[3 * m.tri[3 * t + 2]] == x[2].x() &&
		    m.v[3 * m.tri[3 * t + 2] + 2] == x[2].z())
			break;
	if (t == m.ntri)
		return false;
	a.t = t;
	a.nb.assign(3 * m.ntri, -1);
	for (int k = 0; k < 3; k++) {
		unsigned v0 = m.tri[3 * t + (size_t)k];
		unsigned v1 = m.tri[3 * t + (size_t)(k + 1) % 3];

		for (size_t u = 0; u < m.ntri; u++)
			if (u != t && has_vertex(&m, u, v0) &&
			    has_vertex(&m, u, v1))
				a.nb[3 * t + (size_t)k] = (int)u;
	}
	return true;
}

/* Triangle wrapper w's triangle (index, Bullet's) of static mesh or
 * terrain bs, with its neighbours, into *m, *nb and *t (a terrain's
 * triangles around it made in a); false where it is not found. */
bool
triangle_of(const btCollisionObjectWrapper *w, int index, const bshape *bs,
    around &a, const struct phys_mesh **m, const int **nb, size_t *t)
{
	const btCollisionShape *whole = w->getCollisionObject()->
	    getCollisionShape();

	if (bs->terrain) {
		if (!terrain_around(static_cast<const
		    btHeightfieldTerrainShape *>(whole), static_cast<const
		    btTriangleShape *>(w->getCollisionShape())->m_vertices1, a))
			return false;
		*m = &a.m, *nb = a.nb.data(), *t = a.t;
		return true;
	}
	if (!bs->mesh || index < 0 || (size_t)index >= bs->mesh->ntri)
		return false;
	*m = bs->mesh, *nb = bs->nb.get(), *t = (size_t)index;
	return true;
}

/* phys_mesh_edge_normal of a point p with normal n (world) on triangle t
 * of m (nb its neighbours) placed at at, other the body: in m's frame. */
phys_vec3
edge_normal(const btTransform &at, const struct phys_mesh *m,
    const int *nb, size_t t, const btVector3 &p, const btVector3 &n,
    const btCollisionObjectWrapper *other)
{
	return phys_mesh_edge_normal(m, nb, t, from_bt(at.invXform(p)),
	    from_bt(at.getBasis().transpose() * n),
	    from_bt(at.invXform(other->getWorldTransform().getOrigin())), 0);
}

/* The normal (world) of a point p with normal n (world) on triangle
 * wrapper w's triangle (index) of static mesh or terrain bs, as the
 * faces there allow it, other the body; n where the triangle is not
 * found. */
btVector3
allowed_normal(const btCollisionObjectWrapper *w,
    const btCollisionObjectWrapper *other, int index, const bshape *bs,
    const btVector3 &p, const btVector3 &n)
{
	const struct phys_mesh *m;
	const int *nb;
	around a;
	size_t t;

	if (!triangle_of(w, index, bs, a, &m, &nb, &t))
		return n;
	return w->getWorldTransform().getBasis() * bt(edge_normal(
	    w->getWorldTransform(), m, nb, t, p, n, other));
}

/*
 * The normal of a point on triangle index of static mesh or terrain bs
 * (wrapper w, body B of the point) as the faces there allow it
 * (phys_mesh_edge_normal), and its distance with it: along the new normal
 * from the triangle. Bullet measured it along the old normal from its
 * witness point: a box's rounded corner over an edge, 6 mm clear of the
 * floor, was found 14 mm deep, and the box thrown over.
 */
void
smooth_edge(btManifoldPoint &cp, const btCollisionObjectWrapper *w,
    const btCollisionObjectWrapper *other, int index, const bshape *bs)
{
	const btTransform &at = w->getWorldTransform();
	const struct phys_mesh *m;
	const int *nb;
	around a;
	size_t t;
	phys_vec3 r, q;
	btVector3 on_a;

	if (!triangle_of(w, index, bs, a, &m, &nb, &t))
		return;
	r = edge_normal(at, m, nb, t, cp.m_positionWorldOnB,
	    cp.m_normalWorldOnB, other);
	if (at.getBasis() * bt(r) == cp.m_normalWorldOnB)
		return;
	on_a = at.invXform(cp.m_positionWorldOnA);
	q = phys_mesh_nearest_on_triangle(m, t, from_bt(on_a));
	cp.m_distance1 = (on_a - bt(q)).dot(bt(r));
	cp.m_normalWorldOnB = at.getBasis() * bt(r);
	cp.m_positionWorldOnB = cp.m_positionWorldOnA -
	    cp.m_normalWorldOnB * cp.m_distance1;
	cp.m_localPointB = at.invXform(cp.m_positionWorldOnB);
}

/*
 * Where two triangles of a mesh share an edge, a body on the faces also
 * meets the edge, and Bullet gives that contact the normal of the edge's
 * nearest feature, which can point far from the faces': boxes set resting
 * on a flat floor of 0.1 m triangles were thrown over (one 0.64 m away),
 * and boxes sliding over it stopped at an edge (0.06 m on of 0.25 m).
 * Bullet calls this for each new contact point of an object flagged for
 * it (a static mesh), whose triangle may be on either side of the point.
 */
bool
smooth_edges(btManifoldPoint &cp, const btCollisionObjectWrapper *w0,
    int part0, int index0, const btCollisionObjectWrapper *w1, int part1,
    int index1)
{
	const bshape *bs;

	(void)part0, (void)part1;	/* one part: the mesh's */
	if ((bs = static_mesh_of(w1))) {
		smooth_edge(cp, w1, w0, index1, bs);
	} else if ((bs = static_mesh_of(w0))) {
		swap_sides(cp);
		smooth_edge(cp, w0, w1, index0, bs);
		swap_sides(cp);
	}
	return false;	/* unused by Bullet */
}

/*
 * An ellipsoid or a sphere on a triangle of a mesh or a terrain: its
 * point deepest towards the triangle's plane, where that lies over the
 * triangle, with the face's normal (phys_corner_over_triangle); else
 * Bullet's points, but those at an edge or a corner where the faces lie
 * flat or in a valley, which the faces' own points hold
 * (phys_mesh_edge_normal gives them this face's normal). Such points
 * beside the face's, on a slope of 6 cm triangles, rocked a sliding
 * ellipsoid and sent it 18% past where it goes on a plane.
 */
void
round_on_triangle(const btCollisionObjectWrapper *a,
    const btCollisionObjectWrapper *b, const Held &held,
    btPersistentManifold *m, btManifoldResult *out)
{
	const bshape *bs = static_mesh_of(b);
	struct phys_corner_shape s;
	btVector3 v[3], p, face;
	phys_vec3 t[3], x, n;
	btScalar d;
	double deep;

	if (triangle_face(b, v).length2() == 0 || !corner_shape_of(a, &s)) {
		held.forward(out);
		return;
	}
	for (int k = 0; k < 3; k++)
		t[k] = from_bt(v[k]);
	if (phys_corner_over_triangle(&s, t, INFINITY,
	    m->getContactBreakingThreshold(), &n, &x, &deep, 1) == 1) {
		/* on the triangle, below the point */
		p = bt(v3_add(x, v3_scale(n, deep))), d = -deep;
		face_points(held, m, bt(n), &p, &d, 1, out);
		return;
	}
	face = bt(n);
	for (int k = 0; k < held.npoints; k++) {
		const Held::point &q = held.points[k];

		if (!bs || allowed_normal(b, a, b->m_index, bs, q.p, q.n).dot(
		    face) <= PHYS_FACE_ON)
			out->addContactPoint(q.n, q.p, q.d);
	}
}

/* A static link: one fixed object per collision, at its world pose. */
int
make_static(bullet_engine *e, int li)
{
	const struct phys_link *l = &e->w->links[li];

	for (int ci = l->first_collision; ci < l->first_collision + l->ncollisions;
	    ci++) {
		const struct phys_collision *c = &e->w->collisions[ci];
		phys_pose at = phys_pose_mul(l->pose, c->pose);
		bshape &bs = e->shapes[(size_t)ci];

		if (c->shape == PHYS_GEOM_PLANE) {
			phys_vec3 n = phys_quat_rotate(at.q, c->normal);

			bs.shape.reset(new btStaticPlaneShape(bt(n), v3_dot(n,
			    at.p)));
			at = PHYS_POSE_IDENTITY;
		} else if (sized_shape(e, ci, HELD_STATIC, &at, bs) < 0)
			return -1;
		if (!bs.shape) {
			if (unsupported(e, c, true) < 0)
				return -1;
			continue;
		}
		auto *o = new btCollisionObject();
		o->setCollisionShape(bs.shape.get());
		/* Bullet's hook is the process's: one set before is kept,
		 * and the edges then go uncorrected */
		if (!gContactAddedCallback)
			gContactAddedCallback = smooth_edges;
		if ((bs.nb || bs.terrain) &&
		    gContactAddedCallback == smooth_edges) {
			o->setCollisionFlags(o->getCollisionFlags() |
			    btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
			o->setUserPointer(&bs);
			o->setUserIndex3(SMOOTHED);
		}
		o->setWorldTransform(bt(at));
		o->setUserIndex2(ci);
		e->objects.emplace_back(o);
		e->static_object[(size_t)ci] = o;
		add_object(e, o, -1);
	}
	return 0;
}

/*
 * A link's mass as every engine takes it (phys_link_mass_prepare), handed
 * to Bullet in principal axes. A file's mass 0 on a moving link that
 * rides no other runs with the stand-in, as under DART and MuJoCo (a
 * gripper's massless finger swung with its arm as under the others).
 */
const struct phys_mass_rules bullet_mass = {
	.engine = "Bullet",
	.form = PHYS_INERTIA_PRINCIPAL,
	.stand_in = PHYS_STAND_IN_AT_LOAD,
	.range = PHYS_MASS_RANGE,
};

/* Mass, and the principal frame and moments of the link's inertia. */
int
link_mass(bullet_engine *e, int li, bool at_load, double *mass,
    phys_pose *com, btVector3 *moments)
{
	blink &bl = e->links[(size_t)li];
	struct phys_link_mass lm;
	int rc = phys_link_mass_prepare(e->w, e->v, li, &bullet_mass, at_load,
	    phys_link_inertial_line(&e->w->links[li]), false, &lm);

	memcpy(bl.inertia, lm.given, sizeof bl.inertia);
	*mass = lm.mass;
	if (rc < 0)
		return -1;
	*com = lm.frame;
	*moments = btVector3(lm.moments[0], lm.moments[1], lm.moments[2]);
	return 0;
}

/*
 * The body's shape: its collisions, at the run's sizes, in the
 * centre-of-mass frame; a compound unless one collision sits exactly at
 * it. The shapes it had are let go of only once the new ones are all
 * made and set: on failure the body keeps them. The body is out of the
 * world (no pair or contact holds the old shapes).
 */
/* The collisions on link li's body: its own, then its riders'. */
std::vector<int>
body_collisions(const bullet_engine *e, int li)
{
	std::vector<int> cs;
	auto add = [&](int l) {
		for (int k = 0; k < e->w->links[l].ncollisions; k++)
			cs.push_back(e->w->links[l].first_collision + k);
	};

	add(li);
	for (int r : e->links[(size_t)li].riders)
		add(r);
	return cs;
}

/* Where collision ci sits in its body's frame. */
phys_pose
in_body(const bullet_engine *e, int ci)
{
	const struct phys_collision *c = &e->w->collisions[ci];

	return phys_pose_mul(phys_pose_inv(e->links[(size_t)c->link].com),
	    c->pose);
}

int
attach_shapes(bullet_engine *e, int li, bool at_load)
{
	blink &bl = e->links[(size_t)li];
	std::vector<int> cs = body_collisions(e, li);
	std::vector<bshape> made(cs.size());
	std::unique_ptr<btCompoundShape> compound;
	std::vector<int> children;
	int single = -1;

	if (cs.size() == 1) {
		const struct phys_collision *c = &e->w->collisions[cs[0]];
		phys_pose off = in_body(e, cs[0]);

		if ((is_identity(off) || has_triangles(c)) &&
		    c->shape != PHYS_GEOM_PLANE &&
		    c->shape != PHYS_GEOM_HEIGHTMAP) {
			if (sized_shape(e, cs[0], HELD_ALONE, &off, made[0]) < 0)
				return -1;
			if (made[0].shape)
				single = cs[0];
		}
	}
	if (single < 0) {
		compound.reset(new btCompoundShape());
		for (size_t k = 0; k < cs.size(); k++) {
			const struct phys_collision *c = &e->w->collisions[cs[k]];
			phys_pose off = in_body(e, cs[k]);

			if (c->shape == PHYS_GEOM_PLANE)
				return refuse_shape(c, "a plane must belong to "
				    "a static model");
			if (c->shape == PHYS_GEOM_HEIGHTMAP)
				return refuse_shape(c, "a heightmap must belong "
				    "to a static model");
			if (sized_shape(e, cs[k], HELD_IN_COMPOUND, &off,
			    made[k]) < 0)
				return -1;
			if (c->shape == PHYS_GEOM_MESH && !c->hull &&
			    made[k].shape)
				phys_warnat_once(PHYS_AT(c->doc, c->node),
				    "collision '%s': collides as its convex "
				    "hull under Bullet, which holds a moving "
				    "mesh's triangles only for a link of one "
				    "collision", c->name);
			if (!made[k].shape) {
				if (unsupported(e, c, at_load) < 0)
					return -1;
				continue;
			}
			compound->addChildShape(bt(off), made[k].shape.get());
			children.push_back(cs[k]);
		}
	}
	bl.body->setCollisionShape(single >= 0 ? made[0].shape.get() :
	    compound.get());
	for (size_t k = 0; k < cs.size(); k++)
		e->shapes[(size_t)cs[k]] = std::move(made[k]);
	bl.compound = std::move(compound);
	bl.child_collision = std::move(children);
	bl.single = single;
	return 0;
}

void
apply_link_flags(bullet_engine *e, int li)
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	blink &bl = e->links[(size_t)li];
	btRigidBody *b = bl.body;
	int flags = b->getFlags();

	if (PVB(v, LINK_gravity)) {
		flags &= ~BT_DISABLE_WORLD_GRAVITY;
		b->setFlags(flags);
		b->setGravity(e->world->getGravity());
	} else {
		b->setFlags(flags | BT_DISABLE_WORLD_GRAVITY);
		b->setGravity(btVector3(0, 0, 0));
	}
	b->setDamping(PVD(v, LINK_velocity_decay_linear),
	    PVD(v, LINK_velocity_decay_angular));
	if (PVB(v, LINK_kinematic) && !bl.kinematic)
		bullet_engine_link_vel(e, li, &bl.kin_lin, &bl.kin_ang);
	bl.kinematic = PVB(v, LINK_kinematic);
	if (bl.kinematic)
		b->setCollisionFlags(b->getCollisionFlags() |
		    btCollisionObject::CF_KINEMATIC_OBJECT);
	else
		b->setCollisionFlags(b->getCollisionFlags() &
		    ~btCollisionObject::CF_KINEMATIC_OBJECT);
}

/* The riders' moments join their host's about its centre of mass, in
 * principal axes again. */
int
fold_riders(const bullet_engine *e, int li, phys_pose *com, btVector3 *mo)
{
	const blink &bl = e->links[(size_t)li];
	phys_mat3 T = { { { 0 } } }, R;
	double pm[3];

	if (bl.riders.empty())
		return 0;
	for (int k = 0; k < 3; k++)
		T.m[k][k] = (*mo)[k];
	for (int i : bl.riders)
		phys_rider_moments(e->v, i, &e->ride[(size_t)i], com->q, &T);
	if (phys_inertia_principal(T, pm, &R) < 0 || !(pm[0] > 0) ||
	    !(pm[1] > 0) || !(pm[2] > 0))
		return phys_fail("link '%s': its inertia and that of the "
		    "massless links welded to it have no positive principal "
		    "moments", e->w->links[li].name);
	com->q = phys_quat_normalize(phys_quat_mul(com->q,
	    phys_mat3_to_quat(R)));
	*mo = btVector3(pm[0], pm[1], pm[2]);
	return 0;
}

/* Mass properties; a kinematic body has infinite mass for the solver. */
int
set_mass(bullet_engine *e, int li, bool at_load)
{
	blink &bl = e->links[(size_t)li];
	btVector3 mo;
	double mass;

	if (link_mass(e, li, at_load, &mass, &bl.com, &mo) < 0 ||
	    fold_riders(e, li, &bl.com, &mo) < 0)
		return -1;
	bl.mass = mass;
	for (int r : bl.riders)	/* their frames on the body */
		e->links[(size_t)r].com = phys_pose_mul(phys_pose_inv(
		    e->ride[(size_t)r].in_host), bl.com);
	if (PVB(vals(e, PHYS_S_LINK, li), LINK_kinematic))
		bl.body->setMassProps(0, btVector3(0, 0, 0));
	else
		bl.body->setMassProps(mass, mo);
	bl.body->updateInertiaTensor();
	return 0;
}

/* Whether link li rides on another's body (find_riders). */
bool
rides(const bullet_engine *e, int li)
{
	return e->ride[(size_t)li].host >= 0;
}

/*
 * A massless link welded to a moving one rides on that link's body
 * (phys_find_riders): its collisions join the host's compound, its
 * moments the host's; its fixed joint is no constraint. A massless link
 * hung by any other joint is refused at its mass (link_mass).
 */
void
find_riders(bullet_engine *e)
{
	std::vector<struct phys_rider> &r = e->ride;

	r.resize(e->w->nlinks);
	e->ride_joints.reset(phys_find_riders(e->w, e->v, r.data()));
	for (size_t i = 0; i < r.size(); i++) {
		if (r[i].host < 0)
			continue;
		e->links[(size_t)r[i].host].riders.push_back((int)i);
	}
}

int
make_body(bullet_engine *e, int li)
{
	const struct phys_link *l = &e->w->links[li];
	const struct phys_model *m = &e->w->models[l->model];
	blink &bl = e->links[(size_t)li];

	if (rides(e, li))
		return 0;	/* its host's body, once made */
	if (m->is_static || e->still.is[li]) {
		bl.com = phys_pose_from6(PV(vals(e, PHYS_S_LINK, li),
		    LINK_inertial_pose)->u.pose);
		return make_static(e, li);
	}
	btRigidBody::btRigidBodyConstructionInfo ci(1, nullptr, nullptr);
	bl.body = new btRigidBody(ci);
	e->objects.emplace_back(bl.body);
	if (set_mass(e, li, true) < 0 || attach_shapes(e, li, true) < 0)
		return -1;
	bl.body->setWorldTransform(bt(phys_pose_mul(l->pose, bl.com)));
	bl.body->setActivationState(DISABLE_DEACTIVATION);
	bl.body->setFriction(1);
	bl.body->setRollingFriction(0);
	bl.body->setRestitution(0);
	add_object(e, bl.body, li);
	apply_link_flags(e, li);
	if (m->has_init_vel)
		bullet_engine_set_link_vel(e, li, &m->init_linear,
		    &m->init_angular);
	return 0;
}

/* ---- joints ---- */

btRigidBody &
joint_body(bullet_engine *e, int link)
{
	if (link >= 0 && e->links[(size_t)link].body)
		return *e->links[(size_t)link].body;
	return btTypedConstraint::getFixedBody();
}

phys_pose
body_pose(const bullet_engine *e, int link)
{
	phys_pose p;

	if (link < 0)
		return PHYS_POSE_IDENTITY;
	bullet_engine_link_pose(e, link, &p);
	return p;
}

/* The frame of a joint in a body: origin at the anchor, x along the
 * first axis, y along the second (made orthogonal to the first). */
btTransform
joint_frame(const bullet_engine *e, const struct phys_joint *j, int link)
{
	phys_vec3 x = v3_normalize(j->axis[0]), y = j->axis[1], z;
	phys_pose body = PHYS_POSE_IDENTITY, f;
	phys_mat3 r;

	y = v3_sub(y, v3_scale(x, v3_dot(x, y)));
	if (v3_norm(y) < 1e-9)
		y = fabs(x.x) < 0.9 ? v3_cross(x, v3(1, 0, 0)) :
		    v3_cross(x, v3(0, 1, 0));
	y = v3_normalize(y);
	z = v3_cross(x, y);
	r = { { { x.x, y.x, z.x }, { x.y, y.y, z.y }, { x.z, y.z, z.z } } };
	f.p = j->pose.p;
	f.q = phys_mat3_to_quat(r);
	if (link >= 0 && e->links[(size_t)link].body)
		body = phys_pose_mul(e->w->links[link].pose, e->links[(size_t)link].com);
	return bt(phys_pose_mul(phys_pose_inv(body), f));
}

int
refuse_joint(const struct phys_joint *j, const char *why)
{
	return phys_failat(PHYS_AT(j->doc, j->node),
	    "joint '%s': %s", j->name, why);
}

/*
 * Axis k's limit rows, as it is within or past its limits. Bullet keeps
 * both rows of a limited axis in the solve at every step, each letting
 * the axis close on its limit by the row's ERP times the gap over the
 * step; and where the axis would reach the limit within the step, it
 * replaces that with the limit's bounce, -bounce times the axis's rate:
 * at a bounce of 0 the axis stops dead short of its limit, at an ERP
 * below 1 it slows before it and creeps onto it (at 0.2, a fifth of the
 * gap a step). ODE, DART and MuJoCo stop it at the limit. So within its
 * limits the rows take an ERP of 1 and a bounce of -1, which makes the
 * bounce's target the axis's own rate, never tighter than the gap: the
 * axis reaches its limit and stops there. Past a limit, the limit pushes
 * back as ODE's stop and DART's do, by the joint's stop ERP (an MJCF
 * joint's is MuJoCo's softness), not the profile's, which holds the
 * locked rows (a joint that starts past a limit is not flung back in a
 * step), with no bounce.
 */
void
set_stop(bullet_engine *e, int ji, int k, btGeneric6DofSpring2Constraint *c)
{
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	bool past = e->joints[(size_t)ji].past[k];
	int row = (e->w->joints[ji].type == PHYS_JOINT_PRISMATIC ? 0 : 3) + k;

	c->setParam(BT_CONSTRAINT_STOP_ERP, past ?
	    PVD(v, JOINT_physics_ode_limit_erp) : 1, row);
	c->setBounce(row, past ? 0 : -1);
}

/* Limits in the joint's rows; a ball joint (a point-to-point
 * constraint) and a joint Bullet holds no constraint for have none. */
void
set_limits(bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];

	if (!e->joints[(size_t)ji].c || j->type == PHYS_JOINT_BALL)
		return;
	auto *c = static_cast<btGeneric6DofSpring2Constraint *>(
	    e->joints[(size_t)ji].c);
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	struct phys_axis_values a[2] = { phys_joint_axis_values(v, 0),
		phys_joint_axis_values(v, 1) };
	double lo[2] = { a[0].lower, a[1].lower };
	double hi[2] = { a[0].upper, a[1].upper };
	double fr[2] = { a[0].friction, a[1].friction };
	btVector3 llo(0, 0, 0), lhi(0, 0, 0), alo(0, 0, 0), ahi(0, 0, 0);
	bool angular = j->type != PHYS_JOINT_PRISMATIC;
	int free_axes = j->type == PHYS_JOINT_FIXED ? 0 :
	    j->type == PHYS_JOINT_UNIVERSAL || j->type == PHYS_JOINT_REVOLUTE2 ?
	    2 : 1;

	for (int k = 0; k < free_axes; k++) {
		double l = phys_has_lower(lo[k]) ? lo[k] : 1;
		double h = phys_has_upper(hi[k]) ? hi[k] : -1;

		if (j->type == PHYS_JOINT_REVOLUTE) {
			/* Bullet's angle stays within [-pi, pi] of the
			 * constraint's zero, which follows the joint's turns
			 * a quarter turn behind: a limit farther off is
			 * beyond reach for now, a side without one held at
			 * pi, which the angle never reaches. */
			double z = e->joints[(size_t)ji].zero;

			l = phys_has_lower(lo[k]) && phys_stop_in_reach(lo[k], z) ?
			    lo[k] - z : -M_PI;
			h = phys_has_upper(hi[k]) && phys_stop_in_reach(hi[k], z) ?
			    hi[k] - z : M_PI;
			if (l == -M_PI && h == M_PI)
				l = 1, h = -1;
		} else if (angular && (lo[k] < -M_PI || hi[k] > M_PI) &&
		    (phys_has_lower(lo[k]) || phys_has_upper(hi[k]))) {
			/* Bullet's angles, like ODE's, stay within [-pi, pi]. */
			phys_warn_once("joint '%s': limits beyond pi; Bullet "
			    "cannot stop a revolute axis there", j->name);
			l = 1, h = -1;
		} else if (!phys_has_lower(lo[k]) || !phys_has_upper(hi[k])) {
			l = 1, h = -1;	/* one open side: free */
		}
		/* The constraint measures a turn of the parent's frame from
		 * the child's: the opposite sign of the joint's position, so
		 * [lo, hi] is Bullet's [-hi, -lo] (a free row stays free). */
		if (angular) {
			double t = l;

			l = -h, h = -t;
		}
		(angular ? alo : llo)[k] = l;
		(angular ? ahi : lhi)[k] = h;
		int row = (angular ? 3 : 0) + k;
		c->enableMotor(row, fr[k] > 0);
		c->setTargetVelocity(row, 0);
		c->setMaxMotorForce(row, fr[k]);
		set_stop(e, ji, k, c);
	}
	c->setLinearLowerLimit(llo);
	c->setLinearUpperLimit(lhi);
	c->setAngularLowerLimit(alo);
	c->setAngularUpperLimit(ahi);
}

/* The profile's ERP and CFM on every row of the joint (set_limits then
 * gives a free axis's row the joint's stop ERP). */
void
set_softness(btTypedConstraint *c, double erp, double cfm)
{
	for (int row = 0; row < 6; row++) {
		c->setParam(BT_CONSTRAINT_STOP_ERP, erp, row);
		c->setParam(BT_CONSTRAINT_STOP_CFM, cfm, row);
	}
}

/*
 * A gearbox: no constraint of Bullet's, but a coupling held by a force
 * (couple_joints) of the two revolute joints that hinge its gears to its
 * reference body, ratio theta1 + theta2 = 0, each theta the joint's
 * position turned onto the gearbox's axis.
 */
static int
make_gearbox(bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bjoint &bj = e->joints[(size_t)ji];
	int link[2] = { j->parent, j->child };

	for (int k = 0; k < 2; k++) {
		bj.gear[k] = phys_gear_hinge(e->w, j->reference, link[k],
		    j->axis[k], &bj.gear_sign[k]);
		if (bj.gear[k] < 0)
			return refuse_joint(j, "the Bullet engine couples a "
			    "gearbox's gears only through revolute joints "
			    "that hinge them to its reference body (the other "
			    "engines do not need them: -p ode, -p dart)");
	}
	return 0;
}

int
make_joint(bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bjoint &bj = e->joints[(size_t)ji];
	btRigidBody &child = joint_body(e, j->child);
	btRigidBody &parent = joint_body(e, j->parent);
	phys_pose cp = body_pose(e, j->child), pp = body_pose(e, j->parent);
	btTypedConstraint *c;

	switch (j->type) {
	case PHYS_JOINT_SCREW:
		return refuse_joint(j, "the Bullet engine runs no screw joint "
		    "(the other engines do: -p ode, -p dart)");
	case PHYS_JOINT_GEARBOX:
		return make_gearbox(e, ji);
	default:
		break;
	}
	phys_joint_frames_init(&bj.f, j, pp, cp);
	if (child.isStaticOrKinematicObject() && parent.isStaticOrKinematicObject()
	    && !(j->child >= 0 && e->links[(size_t)j->child].body) &&
	    !(j->parent >= 0 && e->links[(size_t)j->parent].body))
		return 0;
	if (&child == &parent)
		return 0;	/* a rider's seat: one body */
	if (j->type == PHYS_JOINT_BALL) {
		btTransform fp = joint_frame(e, j, j->parent);
		btTransform fc = joint_frame(e, j, j->child);
		c = new btPoint2PointConstraint(parent, child, fp.getOrigin(),
		    fc.getOrigin());
	} else {
		/* Bullet's middle angle is held within a quarter turn (its
		 * Euler angles' singularity): a joint turning about x and y
		 * takes the order X, Z, Y, whose middle row is locked, so
		 * that its second axis turns on past 90 degrees. */
		bool two = j->type == PHYS_JOINT_UNIVERSAL ||
		    j->type == PHYS_JOINT_REVOLUTE2;

		c = new btGeneric6DofSpring2Constraint(parent, child,
		    joint_frame(e, j, j->parent), joint_frame(e, j, j->child),
		    two ? RO_XZY : RO_XYZ);
	}
	c->setJointFeedback(&bj.fb);
	bj.c = c;
	e->constraints.emplace_back(c);
	/* Bullet keeps the bodies of a constraint so added apart */
	e->world->addConstraint(c, phys_joint_keeps_apart(j));
	set_limits(e, ji);
	return 0;
}

/* ---- contacts ---- */

bool
pair_excluded(const bullet_engine *e, int c1, int c2)
{
	return !phys_collisions_may_touch(e->w, e->v, c1, c2);
}

/* Contact stiffness from kp/kd (springs in series, dampers in parallel)
 * or soft_erp/soft_cfm, as under ODE; false when neither surface gives
 * any, and the profile's ERP and CFM apply. */
bool
contact_softness(const struct phys_value *a, const struct phys_value *b,
    double h, double *erp, double *cfm)
{
	const struct phys_value *s[2] = { a, b };
	double kp = 0, kd = 0, serp = 1, scfm = 0;
	bool spring = false, soft = false;

	for (auto *v : s) {
		bool k = PV(v, COLLISION_surface_contact_bullet_kp)->given ||
		    PV(v, COLLISION_surface_contact_bullet_kd)->given;
		bool sf = PV(v, COLLISION_surface_contact_bullet_soft_erp)->given ||
		    PV(v, COLLISION_surface_contact_bullet_soft_cfm)->given;

		spring |= k;
		soft |= sf && !k;
	}
	if (!spring && !soft)
		return false;
	if (!soft) {
		for (auto *v : s) {
			kp += 1 / PVD(v, COLLISION_surface_contact_bullet_kp);
			kd += PVD(v, COLLISION_surface_contact_bullet_kd);
		}
		phys_spring_erp_cfm(1 / kp, kd, h, erp, cfm);
		return true;
	}
	for (auto *v : s) {
		serp = fmin(serp, PVD(v, COLLISION_surface_contact_bullet_soft_erp));
		scfm += PVD(v, COLLISION_surface_contact_bullet_soft_cfm);
	}
	*erp = serp, *cfm = scfm;
	return true;
}

phys_vec3
fdir(const btCollisionObject *o, const struct phys_value *v, int ci,
    const bullet_engine *e)
{
	phys_vec3 d = PVV(v, COLLISION_surface_friction_bullet_fdir1);
	phys_pose link;

	if (v3_norm(d) == 0)
		return d;
	/* In the collision frame. */
	link = body_pose(e, e->w->collisions[ci].link);
	(void)o;
	return v3_normalize(phys_quat_rotate(phys_pose_mul(link,
	    e->w->collisions[ci].pose).q, d));
}

/*
 * Gazebo's Bullet takes a surface's sliding friction from its ODE block
 * (<friction><ode><mu>, a negative one unbounded); a surface that gives
 * Bullet's own coefficient means that one.
 */
double
sliding_friction(const struct phys_value *v)
{
	double mu = PVD(v, COLLISION_surface_friction_ode_mu);

	if (PV(v, COLLISION_surface_friction_bullet_friction)->given)
		return PVD(v, COLLISION_surface_friction_bullet_friction);
	return mu < 0 ? HUGE_VAL : mu;
}

/* Rolling friction only where a surface asks for it: Gazebo's Bullet sets
 * none, and the specification's default of 1 would stop every ball. */
double
rolling_friction(const struct phys_value *v)
{
	if (!PV(v, COLLISION_surface_friction_bullet_rolling_friction)->given)
		return HUGE_VAL;
	return PVD(v, COLLISION_surface_friction_bullet_rolling_friction);
}

/* The surfaces' values on one contact point. */
void
set_point(const bullet_engine *e, btManifoldPoint &p,
    const btCollisionObject *o0, const btCollisionObject *o1, int c0, int c1)
{
	const struct phys_value *a, *b;
	const btRigidBody *b0 = btRigidBody::upcast(o0), *b1 = btRigidBody::upcast(o1);
	btVector3 v(0, 0, 0);
	double erp, cfm, approach, gap, restitution, threshold;
	phys_vec3 d, n = from_bt(p.m_normalWorldOnB);

	phys_contact_surfaces(e->w, e->v, c0, c1, &a, &b);
	/* Bullet has one coefficient, for both directions */
	double fa = sliding_friction(a), fb = sliding_friction(b), mu, mu2;

	phys_contact_friction(a, fa, fa, b, fb, fb, &mu, &mu2);
	p.m_combinedFriction = mu;
	p.m_combinedRollingFriction = fmin(rolling_friction(a),
	    rolling_friction(b));
	if (std::isinf(p.m_combinedRollingFriction))
		p.m_combinedRollingFriction = 0;
	p.m_combinedSpinningFriction = 0;
	/* Restitution when approaching faster than both thresholds, as
	 * under ODE. */
	if (b0)
		v += b0->getVelocityInLocalPoint(p.getPositionWorldOnA() -
		    b0->getCenterOfMassPosition());
	if (b1)
		v -= b1->getVelocityInLocalPoint(p.getPositionWorldOnB() -
		    b1->getCenterOfMassPosition());
	approach = -v.dot(p.m_normalWorldOnB);
	phys_contact_bounce(a, b, &restitution, &threshold);
	p.m_combinedRestitution = approach > threshold ? restitution : 0;
	/* A point still apart by gap (Bullet's speculative contact) lets the
	 * bodies close it this step and takes gap / h off the velocity it
	 * leaves with: ask for that much more, so that they leave at e times
	 * the speed they came in with. */
	gap = p.getDistance() + e->world->getSolverInfo().m_linearSlop;
	if (p.m_combinedRestitution > 0 && approach > 0 && gap > 0)
		p.m_combinedRestitution += gap / (e->step * approach);
	p.m_contactPointFlags &= ~(BT_CONTACT_FLAG_HAS_CONTACT_ERP |
	    BT_CONTACT_FLAG_HAS_CONTACT_CFM |
	    BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING |
	    BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED);
	if (contact_softness(a, b, e->step, &erp, &cfm)) {
		p.m_contactERP = erp;
		p.m_contactCFM = cfm;
		p.m_contactPointFlags |= BT_CONTACT_FLAG_HAS_CONTACT_ERP |
		    BT_CONTACT_FLAG_HAS_CONTACT_CFM;
	}
	d = fdir(o0, a, c0, e);
	if (v3_norm(d) == 0)
		d = fdir(o1, b, c1, e);
	d = v3_sub(d, v3_scale(n, v3_dot(d, n)));
	if (v3_norm(d) > 1e-9) {
		d = v3_normalize(d);
		p.m_lateralFrictionDir1 = bt(d);
		p.m_lateralFrictionDir2 = bt(v3_cross(n, d));
		p.m_contactPointFlags |= BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED;
	}
}

/* One pair's points: filtered, limited, given their surfaces' values. */
void
prepare_manifold(bullet_engine *e, btPersistentManifold *m)
{
	const btCollisionObject *o0 = m->getBody0(), *o1 = m->getBody1();
	int limit = e->max_contacts, kept = 0;

	for (int i = m->getNumContacts() - 1; i >= 0; i--) {
		btManifoldPoint &p = m->getContactPoint(i);
		int c0 = collision_of(e, o0, p.m_index0);
		int c1 = collision_of(e, o1, p.m_index1);
		const struct phys_value *a, *b;
		int lim = limit;

		if (c0 < 0 || c1 < 0 || pair_excluded(e, c0, c1)) {
			m->removeContactPoint(i);
			continue;
		}
		phys_contact_surfaces(e->w, e->v, c0, c1, &a, &b);
		lim = std::min<long>(lim, std::min(PVI(a, COLLISION_max_contacts),
		    PVI(b, COLLISION_max_contacts)));
		if (kept >= lim) {
			m->removeContactPoint(i);
			continue;
		}
		kept++;
		if (p.getDistance() <= 0 &&
		    (!phys_contact_without_force(a, b) ||
		    phys_contact_without_force_reported(a, b)))
			e->ncontacts++;
		if (phys_contact_without_force(a, b)) {
			m->removeContactPoint(i);	/* reported, never pushed */
			continue;
		}
		set_point(e, p, o0, o1, c0, c1);
	}
}

void
World::solveConstraints(btContactSolverInfo &info)
{
	btDispatcher *d = getDispatcher();

	eng->ncontacts = 0;
	for (int i = 0; i < d->getNumManifolds(); i++)
		prepare_manifold(eng, d->getManifoldByIndexInternal(i));
	btDiscreteDynamicsWorld::solveConstraints(info);
}

/* ---- the engine's operations ---- */

/*
 * Bullet's memory from malloc, refused with std::bad_alloc, which the
 * operation reports as any other failure: Bullet's own allocator passes
 * malloc's NULL on, and a 4,000-link chain under 300 MB of address space
 * crashed on it. Its aligned blocks keep malloc's pointer, freed by free
 * (as before), so blocks from before the change free alike.
 */
void *
bullet_memory(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		throw std::bad_alloc();
	return p;
}

void
bullet_memory_free(void *p)
{
	free(p);
}

/* Bullet's algorithm for shapes of types t0 and t1, wrapped (Wrapped):
 * its points given to fn. */
void
wrap(bullet_engine *e, WrappedCreate *w, int t0, int t1, pair_points fn)
{
	w->inner = e->config.getCollisionAlgorithmCreateFunc(t0, t1);
	w->points = fn;
	e->dispatcher.registerCollisionCreateFunc(t0, t1, w);
}

/* Each pair of a box, a hull and a cylinder but two boxes, either way
 * round, to face_on_face. */
void
wrap_faces(bullet_engine *e)
{
	static const int kind[] = { BOX_SHAPE_PROXYTYPE,
	    CONVEX_HULL_SHAPE_PROXYTYPE, CYLINDER_SHAPE_PROXYTYPE };
	int n = 0;

	for (int t0 : kind)
		for (int t1 : kind)
			if (t0 != BOX_SHAPE_PROXYTYPE ||
			    t1 != BOX_SHAPE_PROXYTYPE)
				wrap(e, &e->faces[n++], t0, t1, face_on_face);
}

static struct bullet_engine *
bullet_engine_new(const struct phys_scene *w, const struct phys_run_values *v,
    const struct phys_engine_options *opt, double t)
{
	struct phys_engine_options dflt = {};

	btAlignedAllocSetCustom(bullet_memory, bullet_memory_free);
	auto *e = new bullet_engine(w, v);

	if (!opt)
		opt = &dflt;
	/*
	 * A box on a plane gets its four corners at every step, as under
	 * ODE: Bullet turns it about the normal to find more points only
	 * while it has fewer than the threshold, and drops a point that has
	 * moved off where it was found. Asked below 3 points, a sliding box
	 * kept two or three, which turned a cube sent sliding at 1 m/s by
	 * 0.15 rad; five turns, whenever fewer than 5, find all four at
	 * every step.
	 */
	e->config.setPlaneConvexMultipointIterations(5, 5);
	e->config.setConvexConvexMultipointIterations(3, 3);
	btGImpactCollisionAlgorithm::registerAlgorithm(&e->dispatcher);
	wrap(e, &e->box_triangle, BOX_SHAPE_PROXYTYPE,
	    TRIANGLE_SHAPE_PROXYTYPE, corners_on_triangle);
	wrap(e, &e->cylinder_triangle, CYLINDER_SHAPE_PROXYTYPE,
	    TRIANGLE_SHAPE_PROXYTYPE, cylinder_on_triangle);
	wrap(e, &e->hull_triangle, CONVEX_HULL_SHAPE_PROXYTYPE,
	    TRIANGLE_SHAPE_PROXYTYPE, corners_on_triangle);
	wrap(e, &e->round_triangle[0], CUSTOM_CONVEX_SHAPE_TYPE,
	    TRIANGLE_SHAPE_PROXYTYPE, round_on_triangle);
	wrap(e, &e->round_triangle[1], SPHERE_SHAPE_PROXYTYPE,
	    TRIANGLE_SHAPE_PROXYTYPE, round_on_triangle);
	wrap_faces(e);
	wrap(e, &e->cylinder_plane, CYLINDER_SHAPE_PROXYTYPE,
	    STATIC_PLANE_PROXYTYPE, cylinder_on_plane);
	wrap(e, &e->plane_cylinder, STATIC_PLANE_PROXYTYPE,
	    CYLINDER_SHAPE_PROXYTYPE, cylinder_on_plane);
	e->world.reset(new World(e));
	e->overlaps.e = e;
	e->world->getPairCache()->setOverlapFilterCallback(&e->overlaps);
	e->skip_unsupported = opt->skip_unsupported;
	e->links.resize(w->nlinks);
	e->joints.resize(w->njoints);
	e->now.resize(w->nlinks);
	e->shapes.resize(w->ncollisions);
	e->static_object.resize(w->ncollisions);
	find_riders(e);
	phys_still_init(&e->still, w, e->v, phys_engine_bullet.support);
	if (bullet_engine_apply_profile(e) < 0) {
		bullet_engine_free(e);
		return nullptr;
	}
	bullet_engine_apply_world(e);
	for (size_t i = 0; i < w->nlinks; i++)
		if (make_body(e, (int)i) < 0) {
			bullet_engine_free(e);
			return nullptr;
		}
	for (size_t i = 0; i < w->nlinks; i++)
		if (rides(e, (int)i))
			e->links[i].body = e->links[(size_t)e->ride[i].host].body;
	for (size_t i = 0; i < w->njoints; i++)
		if (make_joint(e, (int)i) < 0) {
			bullet_engine_free(e);
			return nullptr;
		}
	bullet_engine_apply_profile(e);
	bullet_engine_apply_world(e);
	return e;
}

static void
bullet_engine_free(struct bullet_engine *e)
{
	if (!e)
		return;
	for (auto &c : e->constraints)
		e->world->removeConstraint(c.get());
	for (auto &wd : e->welds)
		if (wd.c)
			e->world->removeConstraint(wd.c.get());
	e->welds.clear();
	for (auto &o : e->objects)
		e->world->removeCollisionObject(o.get());
	e->constraints.clear();
	e->world.reset();
	phys_still_free(&e->still);
	delete e;
}

static int
bullet_engine_apply_profile(struct bullet_engine *e)
{
	btContactSolverInfo &si = e->world->getSolverInfo();
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);

	e->step = PVD(v, PHYSICS_max_step_size);
	e->max_contacts = (int)PVI(v, PHYSICS_max_contacts);
	si.m_numIterations = (int)PVI(v, PHYSICS_bullet_solver_iters);
	si.m_sor = PVD(v, PHYSICS_bullet_solver_sor);
	si.m_globalCfm = PVD(v, PHYSICS_bullet_constraints_cfm);
	si.m_erp = PVD(v, PHYSICS_bullet_constraints_erp);
	si.m_erp2 = si.m_erp;
	si.m_linearSlop = PVD(v, PHYSICS_bullet_constraints_contact_surface_layer);
	si.m_splitImpulse = PVB(v, PHYSICS_bullet_constraints_split_impulse);
	si.m_splitImpulsePenetrationThreshold =
	    PVD(v, PHYSICS_bullet_constraints_split_impulse_penetration_threshold);
	/* The bounce thresholds are the surfaces' (set per contact). */
	si.m_restitutionVelocityThreshold = 0;
	/* A friction pyramid of two directions; fdir1 when a surface gives
	 * one (each point's direction is set again every step). */
	si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS |
	    SOLVER_ENABLE_FRICTION_DIRECTION_CACHING;
	for (size_t i = 0; i < e->joints.size(); i++) {
		if (!e->joints[i].c)
			continue;
		set_softness(e->joints[i].c, si.m_erp, si.m_globalCfm);
		set_limits(e, (int)i);	/* the free rows' own ERP */
	}
	return 0;
}

static void
bullet_engine_apply_world(struct bullet_engine *e)
{
	phys_vec3 g = PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity);

	e->world->setGravity(bt(g));
	for (size_t i = 0; i < e->links.size(); i++)
		if (e->links[i].body && !rides(e, (int)i))
			apply_link_flags(e, (int)i);
}

static int
bullet_engine_apply_link(struct bullet_engine *e, int li)
{
	blink &bl = e->links[(size_t)li];
	phys_pose link;
	phys_vec3 lin, ang;

	if (!bl.body)
		return 0;
	if (rides(e, li))
		return phys_rider_change(e->w, e->v, li, &e->ride[(size_t)li],
		    "Bullet");
	bullet_engine_link_pose(e, li, &link);
	bullet_engine_link_vel(e, li, &lin, &ang);
	e->world->removeRigidBody(bl.body);
	if (set_mass(e, li, false) < 0 || attach_shapes(e, li, false) < 0) {
		add_object(e, bl.body, li);
		return -1;
	}
	add_object(e, bl.body, li);
	apply_link_flags(e, li);
	bl.body->setWorldTransform(bt(phys_pose_mul(link, bl.com)));
	bullet_engine_set_link_vel(e, li, &lin, &ang);
	return 0;
}

static int
bullet_engine_apply_joint(struct bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];

	if (!e->joints[(size_t)ji].c || j->type == PHYS_JOINT_BALL)
		return 0;
	if (!(v3_norm(PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz)) > 0))
		return phys_fail("joint '%s': axis is zero", j->name);
	set_limits(e, ji);
	return 0;
}

/* A static collision resized: its object gets the new shape. */
static int
reshape_static(struct bullet_engine *e, int ci)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	btCollisionObject *o = e->static_object[(size_t)ci];
	phys_pose at = phys_pose_mul(e->w->links[c->link].pose, c->pose);
	bshape bs;

	if (!o || c->shape == PHYS_GEOM_PLANE || c->shape == PHYS_GEOM_HEIGHTMAP)
		return 0;	/* skipped at load, or no sizes to change */
	if (sized_shape(e, ci, HELD_STATIC, &at, bs) < 0)
		return -1;
	e->world->removeCollisionObject(o);
	o->setCollisionShape(bs.shape.get());
	e->shapes[(size_t)ci] = std::move(bs);
	add_object(e, o, -1);
	return 0;
}

/* A resize: the collision's shape is made again at its new sizes (a
 * compound is made again with every child where it was); a moving link
 * keeps its pose and velocity. */
static int
bullet_engine_apply_collision(struct bullet_engine *e, int ci)
{
	int li = e->w->collisions[ci].link;
	int rc;

	if (rides(e, li))
		li = e->ride[(size_t)li].host;
	blink &bl = e->links[(size_t)li];
	if (!bl.body)
		return reshape_static(e, ci);
	e->world->removeRigidBody(bl.body);
	rc = attach_shapes(e, li, false);
	add_object(e, bl.body, li);
	return rc;
}

/* A body as its joints' axes see it. */
struct phys_body_inverse
body_inverse(const bullet_engine *e, int link)
{
	struct phys_body_inverse bi;
	btRigidBody *b = link >= 0 ? e->links[(size_t)link].body : nullptr;

	memset(&bi, 0, sizeof bi);
	if (!b || b->isStaticOrKinematicObject())
		return bi;
	const btMatrix3x3 &m = b->getInvInertiaTensorWorld();
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			bi.inv_inertia.m[r][c] = m[r][c];
	bi.inv_mass = b->getInvMass();
	const btVector3 &p = b->getCenterOfMassPosition();
	bi.com = v3(p.x(), p.y(), p.z());
	return bi;
}

/* The inverse inertia of the joint's motion along a (world frame), its
 * two bodies alone (phys_axis_inverse_inertia). */
double
axis_inverse_inertia(const bullet_engine *e, int ji, phys_pose child,
    phys_vec3 a, bool linear)
{
	const struct phys_joint *j = &e->w->joints[(size_t)ji];
	const bjoint &bj = e->joints[(size_t)ji];
	struct phys_body_inverse c = body_inverse(e, j->child);
	struct phys_body_inverse p = body_inverse(e, j->parent);
	phys_vec3 anchor = phys_pose_mul(child, bj.f.in_child).p;

	return phys_axis_inverse_inertia(&c, &p, anchor, a, linear);
}

/* At least what axis_inverse_inertia gives any axis of joint ji, without
 * its 3 x 3 work: the two bodies' inverse masses for a slide, else the
 * sum of their largest inverse principal moments. */
double
axis_inverse_bound(const bullet_engine *e, int ji, bool linear)
{
	const struct phys_joint *j = &e->w->joints[(size_t)ji];
	const int li[2] = { j->child, j->parent };
	double bound = 0;

	for (int side = 0; side < 2; side++) {
		const btRigidBody *b = li[side] >= 0 ?
		    e->links[(size_t)li[side]].body : nullptr;

		if (!b || b->isStaticOrKinematicObject())
			continue;
		const btVector3 &d = b->getInvInertiaDiagLocal();
		bound += linear ? b->getInvMass() :
		    fmax(d.x(), fmax(d.y(), d.z()));
	}
	return bound;
}

/*
 * A torque the run puts on a body, given to it as the turn it makes over
 * the step before the solver starts. Bullet 3.24 counts a body's torque
 * in its contact and joint rows but not in its friction rows, so
 * friction answered each step's torque one step late: a quadruped
 * standing on held joints slid at 0.3 m/s whatever its friction
 * (halving the step halved it), and a box whose joint turns a flywheel
 * turned on the floor. Forces need no such care: the friction rows
 * count them.
 */
static void
turn(const struct bullet_engine *e, btRigidBody *b, const btVector3 &torque)
{
	b->applyTorqueImpulse(torque * e->step);
}

/* Axis k of a joint in the world, the way its position is reported
 * (bullet_engine_joint_state): a revolute2 joint's second the other way
 * round. */
static phys_vec3
joint_axis(const struct bullet_engine *e, int ji, phys_pose pp, int k,
    double t1)
{
	phys_vec3 a = phys_joint_frames_axis(&e->joints[(size_t)ji].f, pp, k,
	    t1);

	if (k == 1 && e->w->joints[ji].type == PHYS_JOINT_REVOLUTE2)
		return v3_scale(a, -1);
	return a;
}

/* A link's pose and the velocities of its origin (the world's, at rest,
 * for -1), its pose worked out once for all three. */
static bmotion
link_motion(const struct bullet_engine *e, int li)
{
	bmotion m;

	if (li < 0)
		return m;
	const blink &bl = e->links[(size_t)li];

	bullet_engine_link_pose(e, li, &m.pose);
	if (!bl.body)
		return m;
	m.lin = from_bt(bl.body->getVelocityInLocalPoint(bt(m.pose.p) -
	    bl.body->getCenterOfMassPosition()));
	m.ang = from_bt(bl.body->getAngularVelocity());
	return m;
}

/* A link's motion as the step began (the world's, at rest, for -1). */
static const bmotion &
motion_now(const struct bullet_engine *e, int li)
{
	static const bmotion world;

	return li < 0 ? world : e->now[(size_t)li];
}

/* Joint ji's state from its parent's motion p and its child's c. */
static int
joint_state_of(const struct bullet_engine *e, int ji, const bmotion &p,
    const bmotion &c, double pos[2], double vel[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	const bjoint &bj = e->joints[(size_t)ji];

	pos[0] = pos[1] = vel[0] = vel[1] = 0;
	if (!bj.c)
		return 0;
	int n = phys_joint_frames_state(&bj.f, j->type, p.pose, p.lin, p.ang,
	    c.pose, c.lin, c.ang, pos, vel);

	if (j->type == PHYS_JOINT_REVOLUTE2) {
		/* ODE's hinge-2 measures its second angle the other way
		 * round, and every engine reports it so; its torque and
		 * rate go with it (joint_axis) */
		pos[1] = -pos[1];
		vel[1] = -vel[1];
	}
	if (j->type == PHYS_JOINT_REVOLUTE || j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2)
		for (int k = 0; k < n; k++)
			pos[k] = phys_angle_near(pos[k], bj.last[k]);
	return n;
}

static int
bullet_engine_joint_state(const struct bullet_engine *e, int ji, double pos[2],
    double vel[2])
{
	const struct phys_joint *j = &e->w->joints[ji];

	return joint_state_of(e, ji, link_motion(e, j->parent),
	    link_motion(e, j->child), pos, vel);
}

/* A constraint of joint ji's two bodies at frames fa and fb with every
 * axis free, in the world and owned by e->constraints: rows of its own
 * for motors beside the joint's (a servo's, a ball's friction). */
btGeneric6DofSpring2Constraint *
free_constraint(struct bullet_engine *e, int ji, const btTransform &fa,
    const btTransform &fb, RotateOrder order)
{
	const btVector3 free_lo(1, 1, 1), free_hi(-1, -1, -1);
	btTypedConstraint *joint = e->joints[(size_t)ji].c;
	auto *c = new btGeneric6DofSpring2Constraint(joint->getRigidBodyA(),
	    joint->getRigidBodyB(), fa, fb, order);

	c->setLinearLowerLimit(free_lo);
	c->setLinearUpperLimit(free_hi);
	c->setAngularLowerLimit(free_lo);
	c->setAngularUpperLimit(free_hi);
	e->constraints.emplace_back(c);
	e->world->addConstraint(c, phys_joint_keeps_apart(&e->w->joints[ji]));
	return c;
}

/* Joint ji's constraint for its servo's row: the joint's bodies and
 * frames, every axis free. */
btGeneric6DofSpring2Constraint *
servo_constraint(struct bullet_engine *e, int ji)
{
	bjoint &bj = e->joints[(size_t)ji];
	auto *c = static_cast<btGeneric6DofSpring2Constraint *>(bj.c);

	if (!bj.servo_c) {
		bj.servo_c = free_constraint(e, ji, c->getFrameOffsetA(),
		    c->getFrameOffsetB(), c->getRotationOrder());
		bj.servo_c->enableFeedback(true);
	}
	return bj.servo_c;
}

/* J M^-1 J^T of row 0 (a slide) or 3 (a turn) of c where its bodies are
 * now: Bullet softens a row by its CFM times this. */
double
row_inverse_mass(btGeneric6DofSpring2Constraint *c, bool linear)
{
	const btRigidBody &a = c->getRigidBodyA(), &b = c->getRigidBodyB();

	c->calculateTransforms();
	if (!linear) {
		btVector3 ax = c->getAxis(0);

		return ax.dot(a.getInvInertiaTensorWorld() * ax) +
		    ax.dot(b.getInvInertiaTensorWorld() * ax);
	}
	btVector3 ax = c->getCalculatedTransformA().getBasis().getColumn(0);
	btVector3 ra = (c->getCalculatedTransformA().getOrigin() -
	    a.getCenterOfMassPosition()).cross(ax);
	btVector3 rb = (c->getCalculatedTransformB().getOrigin() -
	    b.getCenterOfMassPosition()).cross(ax);

	return a.getInvMass() + b.getInvMass() +
	    ra.dot(a.getInvInertiaTensorWorld() * ra) +
	    rb.dot(b.getInvInertiaTensorWorld() * rb);
}

/*
 * An implicit servo (motor.h) too stiff for a force held over the step,
 * on a hinge's or slider's axis, in a motor row implicit in the axis's
 * rate (phys_servo_row), as under ODE, on a constraint of its own: the
 * middle of its range is held as an effort (*cmd). Bullet's CFM is
 * scaled by the row's inverse mass A and its impulse is over the step
 * (CFM 1 / (D h A)); its row measures the parent's motion from the
 * child's, the opposite of the joint's rate. Its solver settles a row
 * only while that CFM is below 1 (each sweep multiplies the row's error
 * by it), which a stiff servo's is (D h A >= 2: at most 1/2). Any other
 * servo stays the effort the driver computed.
 */
void
servo_in_row(struct bullet_engine *e, int ji, double pos, double *cmd)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bjoint &bj = e->joints[(size_t)ji];
	bool linear = j->type == PHYS_JOINT_PRISMATIC;
	int row = linear ? 0 : 3;
	struct phys_servo_row r;
	double inv;

	bj.servo_held = false;
	if (!phys_servo_implicit(&bj.servo, j->type) || !bj.c ||
	    !phys_servo_row(&bj.servo, e->step, inv = row_inverse_mass(static_cast<
	    btGeneric6DofSpring2Constraint *>(bj.c), linear), pos, &r)) {
		if (bj.servo_c)
			bj.servo_c->enableMotor(row, false);
		return;
	}
	btGeneric6DofSpring2Constraint *c = servo_constraint(e, ji);
	c->enableMotor(row, true);
	c->setTargetVelocity(row, -r.rate);
	c->setMaxMotorForce(row, std::isfinite(r.half) ? r.half : SIMD_INFINITY);
	c->setParam(BT_CONSTRAINT_CFM, r.cfm / (e->step * inv), row);
	bj.servo_middle = r.middle;
	bj.servo_held = true;
	*cmd = r.middle;
}

/*
 * A ball's Coulomb friction f: a constraint on its two bodies free but
 * for a motor on each of its three turning rows, driving the turn's rate
 * about the child's axes to zero with at most f, as a hinge's friction
 * is its motor row (set_limits) and as MuJoCo holds a ball's
 * frictionloss on its three turns.
 */
static void
ball_friction(struct bullet_engine *e, int ji, double f)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bjoint &bj = e->joints[(size_t)ji];

	if (!bj.c || j->child < 0 || !e->links[(size_t)j->child].body)
		return;
	if (!bj.friction_c) {
		if (!(f > 0))
			return;
		/* the joint's own frame in the child's body, as loaded; the
		 * parent's is set below */
		btTransform fb = bt(phys_pose_mul(phys_pose_inv(phys_pose_mul(
		    e->w->links[j->child].pose, e->links[(size_t)j->child].com)),
		    j->pose));

		bj.friction_c = free_constraint(e, ji, fb, fb, RO_XYZ);
	}
	/* Its turns measured from where the bodies are now, so that its
	 * three rows turn about the child's axes, not Bullet's Euler
	 * angles' (which part from them as the ball turns on). */
	btTransform fb = bj.friction_c->getFrameOffsetB();
	bj.friction_c->setFrames(bj.c->getRigidBodyA().getCenterOfMassTransform(
	    ).inverse() * bj.c->getRigidBodyB().getCenterOfMassTransform() * fb,
	    fb);
	for (int row = 3; row < 6; row++) {
		bj.friction_c->enableMotor(row, f > 0);
		bj.friction_c->setTargetVelocity(row, 0);
		bj.friction_c->setMaxMotorForce(row, std::fmax(f, 0));
	}
}

/*
 * A ball's range, its largest turn from where it was loaded (MuJoCo's):
 * a constraint on its two bodies free but for the limit of its first
 * turning row, whose frames are set each step so that the bodies' turn
 * from where they were loaded is that row's turn about the turn's own
 * axis (phys_ball_turn); it stops the turn, and only the turn, at the
 * range, as a hinge's limit row (set_stop) does.
 */
static void
ball_range(struct bullet_engine *e, int ji, double upper,
    const bmotion &c, const bmotion &p)
{
	const struct phys_joint *j = &e->w->joints[ji];
	bjoint &bj = e->joints[(size_t)ji];
	phys_vec3 n;
	double turn;

	if (!bj.c || j->child < 0 || !e->links[(size_t)j->child].body ||
	    (!bj.range_c && !phys_has_upper(upper)))
		return;
	if (!bj.range_c) {
		bj.range_c = free_constraint(e, ji, btTransform::getIdentity(),
		    btTransform::getIdentity(), RO_XYZ);
		bj.past[0] = false;
		set_stop(e, ji, 0, bj.range_c);
	}
	/* A frame whose x is the turn's axis, on the parent as the child
	 * would be loaded on it (the turn's axis is the same there), and
	 * on the child turned by the turn about it: the row's angle is the
	 * turn. Their origin is the child's centre of mass: the row is a
	 * turn's alone. */
	btTransform A = bj.c->getRigidBodyA().getCenterOfMassTransform();
	btTransform B = bj.c->getRigidBodyB().getCenterOfMassTransform();
	btVector3 x, y, z;

	turn = phys_ball_turn(e->w, ji, c.pose.q, p.pose.q, &n);
	x = bt(n);
	btPlaneSpace1(x, y, z);
	btMatrix3x3 fa(x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(),
	    z.z());
	btTransform wa(fa, B.getOrigin());
	btTransform wb(btMatrix3x3(btQuaternion(x, turn)) * fa, B.getOrigin());
	bj.range_c->setFrames(A.inverse() * wa, B.inverse() * wb);
	/* Bullet's angle is the turn of the first frame from the second:
	 * the range bounds it below */
	bj.range_c->setAngularLowerLimit(btVector3(phys_has_upper(upper) ?
	    -std::fmin(upper, M_PI) : 1, 1, 1));
	bj.range_c->setAngularUpperLimit(btVector3(phys_has_upper(upper) ?
	    M_PI : -1, -1, -1));
	if ((turn > upper) != bj.past[0]) {
		bj.past[0] = turn > upper;
		set_stop(e, ji, 0, bj.range_c);
	}
}

/* A ball's damping and spring (phys_ball_torque) on its two bodies, its
 * friction and range in rows of their own. */
static void
ball_forces(struct bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	const bmotion &c = motion_now(e, j->child), &p = motion_now(e,
	    j->parent);

	ball_friction(e, ji, phys_joint_axis_values(v, 0).friction);
	ball_range(e, ji, phys_ball_range(v), c, p);
	if (!(phys_ball_values_set(v) & (PHYS_BALL_DAMPING | PHYS_BALL_SPRING)))
		return;
	btVector3 T = bt(phys_ball_torque(e->w, ji, v, c.pose.q, p.pose.q,
	    v3_sub(c.ang, p.ang), axis_inverse_bound(e, ji, false),
	    e->step));
	btRigidBody *cb = j->child >= 0 ? e->links[(size_t)j->child].body :
	    nullptr;
	btRigidBody *pb = j->parent >= 0 ? e->links[(size_t)j->parent].body :
	    nullptr;

	if (cb && !cb->isStaticOrKinematicObject())
		turn(e, cb, T);
	if (pb && !pb->isStaticOrKinematicObject())
		turn(e, pb, -T);
}

/*
 * Springs and viscous damping as generalized forces, stable at any
 * damping (phys_joint_spring_damper_stable); for Gazebo's implicit forms
 * the implicit Euler step of the damping and, with implicit_spring_damper,
 * of the spring (Bullet's solver settles a row as soft as a spring only
 * when the row's CFM is below its inverse inertia: a row would leave
 * light damping out).
 */
static void
joint_forces(struct bullet_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	enum phys_joint_springs how = phys_joint_springs(v);
	bjoint &bj = e->joints[(size_t)ji];
	const double *pos = bj.pos, *vel = bj.vel;
	phys_pose pp = motion_now(e, j->parent).pose;
	phys_pose cp = motion_now(e, j->child).pose;
	bool linear = j->type == PHYS_JOINT_PRISMATIC;
	double bound = axis_inverse_bound(e, ji, linear);

	if (j->type == PHYS_JOINT_BALL) {
		ball_forces(e, ji);
		return;
	}
	for (int k = 0; k < bj.n; k++) {
		phys_vec3 axis = joint_axis(e, ji, pp, k, pos[0]);
		double f, inv = !phys_joint_needs_inverse_inertia(v, k, how,
		    bound, e->step) ? 0 :
		    axis_inverse_inertia(e, ji, cp, axis, linear);

		if (how == PHYS_SPRINGS_ROW)
			f = phys_joint_spring_damper_implicit(v, k, pos[k],
			    vel[k], inv, e->step);
		else
			f = phys_joint_spring_damper_stable(v, k, pos[k],
			    vel[k], inv, e->step);
		double cmd = bj.cmd[k];

		if (k == 0 && bj.n == 1)
			servo_in_row(e, ji, pos[0], &cmd);
		f += cmd;
		bj.applied[k] = f;
		if (f == 0)
			continue;
		btVector3 F = bt(v3_scale(axis, f));
		btRigidBody *c = e->links[(size_t)j->child].body;
		btRigidBody *p = j->parent >= 0 ?
		    e->links[(size_t)j->parent].body : nullptr;
		if (linear) {
			if (c)
				c->applyCentralForce(F);
			if (p)
				p->applyCentralForce(-F);
		} else {
			if (c)
				turn(e, c, F);
			if (p)
				turn(e, p, -F);
		}
	}
}

/*
 * A mimic, held by a force as under ODE: Bullet's constraints join two
 * bodies, a coupling up to nine joints. Before the step, the rate each
 * joint of it would reach (its rate as the step began, plus what its own
 * force and gravity add over the step), and the force along each joint,
 * of the inverse inertia its two bodies alone give its motion, that
 * brings follower - sum multiplier * leader to the rate that closes the
 * coupling's gap by the profile's ERP of it.
 */
struct coupled {
	int joint;
	double c;		/* the joint's weight in the coupling */
	phys_vec3 axis;		/* world frame */
	bool linear;
	double rate, inv;
};

/* What gravity over the step adds to body b's rate along the joint axis
 * a through anchor: a slide's velocity or a turn's about the axis, as
 * the body alone would answer it. */
static double
step_gain(const struct bullet_engine *e, const btRigidBody *b,
    phys_vec3 anchor, phys_vec3 a, bool linear)
{
	phys_vec3 f, r;
	double mass, j;

	if (!b || b->isStaticOrKinematicObject() || b->getInvMass() <= 0)
		return 0;
	mass = 1 / b->getInvMass();
	f = v3_scale(from_bt(b->getGravity()), mass);
	if (linear)
		return e->step * v3_dot(f, a) / mass;
	r = v3_sub(from_bt(b->getCenterOfMassPosition()), anchor);
	/* the body's inertia about the axis through the anchor */
	btVector3 ab = bt(a);
	j = ab.dot(b->getInvInertiaTensorWorld().inverse() * ab) +
	    mass * v3_dot(v3_cross(r, a), v3_cross(r, a));
	return j > 0 ? e->step * v3_dot(v3_cross(r, f), a) / j : 0;
}

static coupled
coupled_joint(const struct bullet_engine *e, int ji, double c)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const bjoint &bj = e->joints[(size_t)ji];
	phys_pose pp = motion_now(e, j->parent).pose;
	phys_pose cp = motion_now(e, j->child).pose;
	coupled t;

	t.joint = ji;
	t.c = c;
	t.linear = j->type == PHYS_JOINT_PRISMATIC;
	t.axis = joint_axis(e, ji, pp, 0, bj.pos[0]);
	t.inv = axis_inverse_inertia(e, ji, cp, t.axis, t.linear);
	/* the rate as the step began, and the joint's own force of the
	 * step (joint_forces) on the motion its two bodies give it: a
	 * torque given as a turn moves a body as if free, which its joint
	 * then takes back */
	t.rate = bj.vel[0] + e->step * bj.applied[0] * t.inv;
	phys_vec3 anchor = phys_pose_mul(cp, bj.f.in_child).p;
	t.rate += step_gain(e, e->links[(size_t)j->child].body, anchor,
	    t.axis, t.linear);
	if (j->parent >= 0)
		t.rate -= step_gain(e, e->links[(size_t)j->parent].body,
		    anchor, t.axis, t.linear);
	return t;
}

/* Force f along coupled joint t, on its child and, the other way, its
 * parent. */
static void
push_joint(struct bullet_engine *e, const coupled &t, double f)
{
	const struct phys_joint *j = &e->w->joints[t.joint];
	btRigidBody *b[2] = { e->links[(size_t)j->child].body,
	    j->parent >= 0 ? e->links[(size_t)j->parent].body : nullptr };
	btVector3 F = bt(v3_scale(t.axis, f));

	for (int k = 0; k < 2; k++) {
		if (!b[k] || b[k]->isStaticOrKinematicObject())
			continue;
		if (t.linear)
			b[k]->applyCentralForce(k ? -F : F);
		else
			turn(e, b[k], k ? -F : F);
	}
}

/* The force along each of the n coupled joints t that brings the rate
 * of sum c_i pos_i to the rate closing its gap by the profile's ERP of
 * it: either way (side 0), or only to raise the sum (1) or lower it
 * (-1). */
static void
push_coupled(struct bullet_engine *e, const coupled *t, int n, double gap,
    int side)
{
	double rate = 0, w = 0, f;

	for (int i = 0; i < n; i++) {
		rate += t[i].c * t[i].rate;
		w += t[i].c * t[i].c * t[i].inv;
	}
	if (w <= 0)
		return;
	f = (-PVD(vals(e, PHYS_S_PHYSICS, 0), PHYSICS_bullet_constraints_erp) *
	    gap / e->step - rate) / w / e->step;
	if (side * f < 0)
		return;
	for (int i = 0; i < n; i++)
		push_joint(e, t[i], f * t[i].c);
}

/* Hold sum c_i pos_i = base over the n coupled joints t of joint ji's
 * coupling. */
static void
hold_coupling(struct bullet_engine *e, int ji, const coupled *t, int n,
    double base)
{
	double gap = -base;

	for (int i = 0; i < n; i++) {
		if (!e->joints[(size_t)t[i].joint].c)
			return;
		gap += t[i].c * e->joints[(size_t)t[i].joint].pos[0];
	}
	push_coupled(e, t, n, gap, 0);
	if (!e->slip_said && fabs(gap) > PHYS_COUPLING_SLIP) {
		e->slip_said = true;
		phys_coupling_slip_note("Bullet", e->w->joints[ji].name, gap);
	}
}

/* A fixed limited tendon past a bound of its range: a one-sided
 * coupling over its joints, back in only (phys_tendon_past). */
static void
limit_tendon(struct bullet_engine *e, const struct phys_tendon *t)
{
	std::vector<coupled> term;
	double len = 0, bound;
	int side;

	for (int k = 0; k < t->njoints; k++) {
		if (!e->joints[(size_t)t->joints[k]].c)
			return;
		len += t->coef[k] * e->joints[(size_t)t->joints[k]].pos[0];
	}
	if (!(side = phys_tendon_past(t, len, &bound)))
		return;
	for (int k = 0; k < t->njoints; k++)
		term.push_back(coupled_joint(e, t->joints[k], t->coef[k]));
	push_coupled(e, term.data(), t->njoints, len - bound, side);
}

/* follower - sum multiplier * leader = the mimic's base */
static void
couple_mimic(struct bullet_engine *e, int ji)
{
	const struct phys_mimic *m = &e->w->joints[ji].mimic;
	coupled t[PHYS_MIMIC_LEADERS + 1];

	t[0] = coupled_joint(e, ji, 1);
	for (int i = 0; i < m->nleaders; i++)
		t[i + 1] = coupled_joint(e, m->lead[i].joint,
		    -m->lead[i].multiplier);
	hold_coupling(e, ji, t, m->nleaders + 1, phys_mimic_base(m));
}

/* ratio theta1 + theta2 = 0 */
static void
couple_gearbox(struct bullet_engine *e, int ji)
{
	const bjoint &bj = e->joints[(size_t)ji];
	coupled t[2];

	t[0] = coupled_joint(e, bj.gear[0], bj.gear_sign[0] *
	    PVD(vals(e, PHYS_S_JOINT, ji), JOINT_gearbox_ratio));
	t[1] = coupled_joint(e, bj.gear[1], bj.gear_sign[1]);
	hold_coupling(e, ji, t, 2, 0);
}

/*
 * Kinematic links move with their velocities, untouched by forces, as
 * phys_kinematic_step says. The step takes a kinematic body's velocity
 * as its move from the interpolation transform, which stays where the
 * body was (with both moved it came out 0); after it, the velocities are
 * set as held (before: false).
 */
static void
move_kinematic(struct bullet_engine *e, bool before)
{
	for (size_t i = 0; i < e->links.size(); i++) {
		blink &bl = e->links[i];
		phys_pose from;

		if (!bl.body || !bl.kinematic)
			continue;
		if (!before) {
			bullet_engine_set_link_vel(e, (int)i, &bl.kin_lin,
			    &bl.kin_ang);
			continue;
		}
		bullet_engine_link_pose(e, (int)i, &from);
		bl.body->setInterpolationWorldTransform(
		    bl.body->getWorldTransform());
		bl.body->setWorldTransform(bt(phys_pose_mul(
		    phys_kinematic_step(from, bl.kin_lin, bl.kin_ang, e->step),
		    bl.com)));
	}
}

/* Every body: its centre of mass. */
static bool
bullet_engine_body_state(const struct bullet_engine *e, int li,
    struct phys_body_state *out)
{
	const btRigidBody *b = e->links[(size_t)li].body;

	if (!b || rides(e, li))
		return false;	/* static, or its host's */
	const btVector3 &p = b->getCenterOfMassPosition();
	btQuaternion q = b->getOrientation();
	const btVector3 &v = b->getLinearVelocity();
	const btVector3 &w = b->getAngularVelocity();
	out->pos = v3(p.x(), p.y(), p.z());
	out->q = phys_quat{ q.w(), q.x(), q.y(), q.z() };
	out->vel = v3(v.x(), v.y(), v.z());
	out->angvel = v3(w.x(), w.y(), w.z());
	return true;
}

/* The forces the run puts on links, at their bodies' centres of mass
 * (Bullet clears them after each step). */
static void
link_wrenches(struct bullet_engine *e)
{
	for (size_t i = 0; i < e->links.size(); i++) {
		blink &bl = e->links[i];
		phys_vec3 com, comv;

		if (!bl.body || bl.kinematic)
			continue;
		if (rides(e, (int)i)) {	/* at its place on its host */
			bullet_engine_link_com(e, (int)i, &com, &comv);
			bl.body->applyForce(bl.force, bt(com) -
			    bl.body->getCenterOfMassPosition());
		} else
			bl.body->applyCentralForce(bl.force);
		turn(e, bl.body, bl.torque);
	}
}

/* Joint ji's limit rows for the step, where an axis has come to or
 * left a limit (set_stop). */
static void
limit_rows(struct bullet_engine *e, int ji)
{
	bjoint &bj = e->joints[(size_t)ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);

	if (!bj.c || e->w->joints[ji].type == PHYS_JOINT_BALL)
		return;
	for (int k = 0; k < bj.n; k++) {
		struct phys_axis_values a = phys_joint_axis_values(v, k);
		bool past = bj.pos[k] < a.lower || bj.pos[k] > a.upper;

		if (past == bj.past[k])
			continue;
		bj.past[k] = past;
		set_stop(e, ji, k,
		    static_cast<btGeneric6DofSpring2Constraint *>(bj.c));
	}
}

/* Each joint's state now, kept for the step's forces and limits, its
 * angles for the next reading to count their turns from: as a step
 * begins, and after a pose set. Read once a step, as each reading
 * reckons the poses of two links and their angles. */
static void
read_joint(struct bullet_engine *e, size_t i)
{
	bjoint &bj = e->joints[i];
	const struct phys_joint *j = &e->w->joints[i];

	bj.n = joint_state_of(e, (int)i, motion_now(e, j->parent),
	    motion_now(e, j->child), bj.pos, bj.vel);
	for (int k = 0; k < bj.n; k++)
		bj.last[k] = bj.pos[k];
	limit_rows(e, (int)i);
}

static void
read_joints(struct bullet_engine *e)
{
	for (size_t i = 0; i < e->links.size(); i++)
		e->now[i] = link_motion(e, (int)i);
	for (size_t i = 0; i < e->joints.size(); i++)
		read_joint(e, i);
}

/* The links on link li's body: its host's and the host's riders. */
static std::vector<int>
on_body(const struct bullet_engine *e, int li)
{
	int host = rides(e, li) ? e->ride[(size_t)li].host : li;
	std::vector<int> on(1, host);

	on.insert(on.end(), e->links[(size_t)host].riders.begin(),
	    e->links[(size_t)host].riders.end());
	return on;
}

/* Where the links on li's body are now, for their joints' readings. */
static void
motion_at(struct bullet_engine *e, int li)
{
	for (int l : on_body(e, li))
		e->now[(size_t)l] = link_motion(e, l);
}

/* The joints of the links on li's body, read where their links are:
 * after a pose set only they moved (a run that sets a chain's joints one
 * by one then stays linear in them). */
static void
joints_at(struct bullet_engine *e, int li)
{
	const phys_scene *w = e->w;

	for (int l : on_body(e, li))
		for (size_t k = w->link_joints_at[l];
		    k < w->link_joints_at[l + 1]; k++)
			read_joint(e, (size_t)w->link_joints[k]);
}

/*
 * A limited revolute joint's constraint set up again where the joint is,
 * as engine_common.h says: its limits then hold over several turns, and
 * on one side alone.
 */
static void
limits_follow_turns(struct bullet_engine *e)
{
	for (size_t i = 0; i < e->joints.size(); i++) {
		bjoint &bj = e->joints[i];
		const struct phys_joint *j = &e->w->joints[i];

		struct phys_axis_values v = phys_joint_axis_values(vals(e,
		    PHYS_S_JOINT, (int)i), 0);

		if (!bj.c || j->type != PHYS_JOINT_REVOLUTE ||
		    !phys_axis_limited(&v))
			continue;
		if (!phys_turned_from(bj.pos[0], bj.zero))
			continue;
		auto *c = static_cast<btGeneric6DofSpring2Constraint *>(bj.c);
		/* the parent's frame turned by the position's change about
		 * its x axis, the joint's: the constraint measures the
		 * opposite way (set_limits) */
		btTransform a = c->getFrameOffsetA();
		a.setBasis(a.getBasis() * btMatrix3x3(btQuaternion(
		    btVector3(1, 0, 0), bj.pos[0] - bj.zero)));
		c->setFrames(a, c->getFrameOffsetB());
		bj.zero = bj.pos[0];
		set_limits(e, (int)i);
	}
}

static int
bullet_engine_step(struct bullet_engine *e, double t0, double t1)
{
	read_joints(e);
	for (size_t i = 0; i < e->joints.size(); i++)
		if (e->joints[i].c)
			joint_forces(e, (int)i);
	for (size_t i = 0; i < e->joints.size(); i++)
		if (e->w->joints[i].mimic.nleaders)
			couple_mimic(e, (int)i);
		else if (e->joints[i].gear[0] >= 0)
			couple_gearbox(e, (int)i);
	for (size_t i = 0; i < e->w->ntendons; i++)
		if (e->w->tendons[i].njoints)
			limit_tendon(e, &e->w->tendons[i]);
	if (e->pushed)
		link_wrenches(e);
	limits_follow_turns(e);
	move_kinematic(e, true);
	/* One step of exactly max_step_size: no substeps, no interpolation. */
	e->world->stepSimulation(e->step, 0, e->step);
	move_kinematic(e, false);
	return 0;
}

static void
bullet_engine_link_pose(const struct bullet_engine *e, int li, phys_pose *out)
{
	const blink &bl = e->links[(size_t)li];

	if (!bl.body) {
		*out = e->w->links[li].pose;
		return;
	}
	*out = phys_pose_mul(from_bt(bl.body->getWorldTransform()),
	    phys_pose_inv(bl.com));
}

static void
bullet_engine_link_vel(const struct bullet_engine *e, int li, phys_vec3 *lin,
    phys_vec3 *ang)
{
	const blink &bl = e->links[(size_t)li];
	phys_pose link;

	if (!bl.body) {
		*lin = *ang = v3(0, 0, 0);
		return;
	}
	bullet_engine_link_pose(e, li, &link);
	*lin = from_bt(bl.body->getVelocityInLocalPoint(bt(link.p) -
	    bl.body->getCenterOfMassPosition()));
	*ang = from_bt(bl.body->getAngularVelocity());
}

static void
bullet_engine_link_com(const struct bullet_engine *e, int li, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	const blink &bl = e->links[(size_t)li];

	phys_pose p;

	if (!bl.body) {
		*com = phys_pose_apply(e->w->links[li].pose, bl.com.p);
		*com_vel = v3(0, 0, 0);
		return;
	}
	if (rides(e, li)) {	/* its own inertial frame's origin */
		bullet_engine_link_pose(e, li, &p);
		*com = phys_pose_apply(p, phys_pose_from6(PV(vals(e,
		    PHYS_S_LINK, li), LINK_inertial_pose)->u.pose).p);
		*com_vel = from_bt(bl.body->getVelocityInLocalPoint(bt(*com) -
		    bl.body->getCenterOfMassPosition()));
		return;
	}
	*com = from_bt(bl.body->getCenterOfMassPosition());
	*com_vel = from_bt(bl.body->getLinearVelocity());
}

static bool
bullet_engine_link_dynamic(const struct bullet_engine *e, int li)
{
	return e->links[(size_t)li].body != nullptr;
}

/* The tensor as the model gives it, about the centre of mass in the
 * inertial frame: Bullet holds the same one in principal axes (raised to
 * the floor only for a tensor no body has). */
static void
bullet_engine_link_mass(const struct bullet_engine *e, int li, double *mass,
    double inertia[6])
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	const blink &bl = e->links[(size_t)li];

	if (!bl.body || rides(e, li)) {	/* static, or massless on its host */
		phys_link_values_mass(v, mass, inertia);
		return;
	}
	*mass = bl.mass;
	memcpy(inertia, bl.inertia, sizeof bl.inertia);
}

static int
bullet_engine_set_link_pose(struct bullet_engine *e, int li, phys_pose p)
{
	return bullet_engine_set_link_poses(e, &li, &p, 1);
}

/* The bodies, then their joints (read_joint): less than half a turn at a
 * time keeps the count of turns. */
static int
bullet_engine_set_link_poses(struct bullet_engine *e, const int *links,
    const phys_pose *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		blink &bl = e->links[(size_t)links[i]];
		btTransform t;

		if (!bl.body)
			return phys_fail("link '%s' is static: its pose "
			    "cannot change", e->w->links[links[i]].name);
		t = bt(phys_pose_mul(p[i], bl.com));
		bl.body->setWorldTransform(t);
		bl.body->setInterpolationWorldTransform(t);
	}
	/* every link where it is before any joint is read */
	for (size_t i = 0; i < n; i++)
		motion_at(e, links[i]);
	for (size_t i = 0; i < n; i++)
		joints_at(e, links[i]);
	return 0;
}

/* Velocities are those of the link origin: the centre of mass moves with
 * lin + ang x (com - origin). */
static int
bullet_engine_set_link_vel(struct bullet_engine *e, int li,
    const phys_vec3 *lin, const phys_vec3 *ang)
{
	blink &bl = e->links[(size_t)li];
	phys_vec3 l, a, r;
	phys_pose link;

	if (!bl.body)
		return phys_fail("link '%s' is static: it cannot move",
		    e->w->links[li].name);
	bullet_engine_link_vel(e, li, &l, &a);
	if (lin)
		l = *lin;
	if (ang)
		a = *ang;
	if (bl.kinematic)
		bl.kin_lin = l, bl.kin_ang = a;
	bullet_engine_link_pose(e, li, &link);
	r = v3_sub(from_bt(bl.body->getCenterOfMassPosition()), link.p);
	l = v3_add(l, v3_cross(a, r));
	bl.body->setLinearVelocity(bt(l));
	bl.body->setAngularVelocity(bt(a));
	bl.body->setInterpolationLinearVelocity(bt(l));
	bl.body->setInterpolationAngularVelocity(bt(a));
	return 0;
}

void
wrench_of(const void *e, int ji, phys_vec3 *force, phys_vec3 *torque)
{
	bullet_engine_joint_wrench(static_cast<const bullet_engine *>(e), ji,
	    force, torque);
}

phys_vec3
com_of(const void *e, int li)
{
	phys_vec3 com, vel;

	bullet_engine_link_com(static_cast<const bullet_engine *>(e), li,
	    &com, &vel);
	return com;
}

/*
 * The last step's contact forces on still link li, and their torque
 * about c: each point's impulses on the object of li's collision (along
 * the normal and Bullet's two friction directions, all on body A as
 * written), over the step.
 */
void
still_contacts(const void *ev, int li, phys_vec3 c, phys_vec3 *force,
    phys_vec3 *torque)
{
	auto *e = static_cast<const bullet_engine *>(ev);
	btDispatcher *d = e->world->getDispatcher();
	phys_vec3 f, at;
	double side;

	*force = *torque = v3(0, 0, 0);
	for (int i = 0; i < d->getNumManifolds(); i++) {
		const btPersistentManifold *m = d->getManifoldByIndexInternal(i);

		if (link_of(e, m->getBody0()) == li)
			side = 1;
		else if (link_of(e, m->getBody1()) == li)
			side = -1;
		else
			continue;
		for (int k = 0; k < m->getNumContacts(); k++) {
			const btManifoldPoint &p = m->getContactPoint(k);

			f = v3_scale(from_bt(p.m_normalWorldOnB *
			    p.getAppliedImpulse() + p.m_lateralFrictionDir1 *
			    p.m_appliedImpulseLateral1 + p.m_lateralFrictionDir2 *
			    p.m_appliedImpulseLateral2), side / e->step);
			at = from_bt(side > 0 ? p.getPositionWorldOnA() :
			    p.getPositionWorldOnB());
			*force = v3_add(*force, f);
			*torque = v3_add(*torque, v3_cross(v3_sub(at, c), f));
		}
	}
}

const struct phys_still_ask still_ask = { wrench_of, com_of,
	still_contacts };

static void
bullet_engine_joint_wrench(const struct bullet_engine *e, int ji,
    phys_vec3 *force, phys_vec3 *torque)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const bjoint &bj = e->joints[(size_t)ji];
	const blink *cl = j->child >= 0 ? &e->links[(size_t)j->child] :
	    nullptr;
	phys_vec3 com, comv;

	if (!bj.c) {
		if (cl && e->ride[(size_t)j->child].seat == ji)	/* a seat */
			phys_seat_wrench(e->w, e, j->child,
			    &e->ride[(size_t)j->child], e->ride_joints.get(),
			    from_bt(cl->force), from_bt(cl->torque), wrench_of,
			    com_of, force, torque);
		else	/* a still link's weld, or nothing moves */
			phys_still_wrench(e->w, e->v, &e->still, e, ji,
			    PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity),
			    &still_ask, force, torque);
		return;
	}
	/* The child is body B; the torque is about its centre of mass. */
	*force = from_bt(bj.fb.m_appliedForceBodyB);
	*torque = from_bt(bj.fb.m_appliedTorqueBodyB);
	if (cl && rides(e, j->child)) {	/* B is its host's: about it */
		bullet_engine_link_com(e, j->child, &com, &comv);
		*torque = v3_add(*torque, v3_cross(v3_sub(from_bt(
		    cl->body->getCenterOfMassPosition()), com), *force));
	}
}

/* The force of joint ji's servo row over the last step: its impulse
 * pushed the parent. */
double
servo_row_force(const struct bullet_engine *e, int ji)
{
	return -e->joints[(size_t)ji].servo_c->getAppliedImpulse() / e->step;
}

static int
bullet_engine_joint_effort(const struct bullet_engine *e, int ji, double eff[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	const bjoint &bj = e->joints[(size_t)ji];
	phys_vec3 f, t, com, comv, axis[2];
	phys_pose pp = body_pose(e, j->parent), cp;
	double pos[2], vel[2];
	int n = bullet_engine_joint_state(e, ji, pos, vel);

	eff[0] = eff[1] = 0;
	if (n == 0)
		return 0;
	bullet_engine_joint_wrench(e, ji, &f, &t);
	bullet_engine_link_pose(e, j->child, &cp);
	bullet_engine_link_com(e, j->child, &com, &comv);
	/* About the anchor, where the axis passes. */
	t = v3_add(t, v3_cross(v3_sub(com, phys_pose_mul(cp, bj.f.in_child).p), f));
	axis[0] = joint_axis(e, ji, pp, 0, pos[0]);
	axis[1] = joint_axis(e, ji, pp, 1, pos[0]);
	for (int k = 0; k < n; k++)
		eff[k] = v3_dot(j->type == PHYS_JOINT_PRISMATIC ? f : t,
		    axis[k]) + bj.applied[k];
	if (bj.servo_held)
		eff[0] += servo_row_force(e, ji);
	return n;
}

static int
bullet_engine_servo_effort(const struct bullet_engine *e, int ji,
    double eff[2])
{
	const bjoint &bj = e->joints[(size_t)ji];

	if (!bj.servo_held)
		return 0;
	eff[0] = bj.servo_middle + servo_row_force(e, ji);
	return 1;
}

static int
bullet_engine_set_joint_effort(struct bullet_engine *e, int joint,
    const struct phys_joint_drive *drive)
{
	e->joints[(size_t)joint].cmd[0] = drive->effort[0];
	e->joints[(size_t)joint].cmd[1] = drive->effort[1];
	e->joints[(size_t)joint].servo = drive->servo[0];
	return 0;
}

static int
bullet_engine_set_link_wrench(struct bullet_engine *e, int link,
    phys_vec3 force, phys_vec3 torque)
{
	blink &bl = e->links[(size_t)link];

	bl.force = btVector3(force.x, force.y, force.z);
	bl.torque = btVector3(torque.x, torque.y, torque.z);
	e->pushed = true;
	return 0;
}

/* A fixed constraint holding the two bodies where they are now (a static
 * side is Bullet's fixed body, at the world's origin); the pair no
 * longer collides while it holds, as a joint's. */
static int
bullet_engine_weld(struct bullet_engine *e, int parent, int child, bool on)
{
	auto it = e->welds.begin();

	while (it != e->welds.end() && !(it->parent == parent &&
	    it->child == child))
		++it;
	if (!on) {
		if (it != e->welds.end()) {
			if (it->c)
				e->world->removeConstraint(it->c.get());
			e->welds.erase(it);
		}
		return 0;
	}
	e->welds.push_back({ parent, child, nullptr });
	if (!e->links[(size_t)parent].body && !e->links[(size_t)child].body)
		return 0;	/* both static: nothing moves */
	btRigidBody &a = joint_body(e, parent), &b = joint_body(e, child);
	if (&a == &b)
		return 0;	/* a rider and its host: one body */
	btTransform ta = a.getCenterOfMassTransform();
	btTransform tb = b.getCenterOfMassTransform();
	auto *c = new btFixedConstraint(a, b, ta.inverse() * tb,
	    btTransform::getIdentity());
	e->welds.back().c.reset(c);
	e->world->addConstraint(c, true);
	a.activate(true);
	b.activate(true);
	return 0;
}

static int
bullet_engine_contact_count(const struct bullet_engine *e)
{
	return e->ncontacts;
}

}	/* namespace */

/* gz-physics-bullet-plugin, and gz-physics-bullet-featherstone-plugin. */
PHYS_ENGINE_DEFINE(bullet_engine, bullet)
