/*
 * engine_dart.cc - the DART engine (libdart 6.12). Every DART call in phys
 * lives here, behind the C functions of engine_impl.h.
 *
 * DART moves skeletons: trees of bodies in generalized coordinates, each
 * body's frame a link frame. The joints of a world are laid out as trees
 * in file order: a joint is a tree joint when its child has no parent yet
 * and it closes no loop; a link no tree joint holds is the free root of a
 * tree. A joint left over (the one closing a four-bar linkage, a second
 * parent, a static child) becomes a constraint of phys's own on the two
 * bodies (Loop below), as do gearboxes and mimics (Coupling). Static links
 * are immobile skeletons of one welded body.
 *
 * Tree joints are DART's, built at the loaded configuration, so their
 * coordinates are the positions phys reports; springs, viscous damping
 * and Coulomb friction are DART's joint coefficients, integrated
 * implicitly (a light link with large damping stays stable), and limits
 * are DART's joint limit constraints; a ball's range, the angle it turns,
 * which DART's limits would bound coordinate by coordinate, is a row of
 * phys's (BallRange). Loop joints are measured from the link poses
 * (engine_common.h) and get springs and damping as explicit forces,
 * friction and limits as rows of their constraint.
 *
 * Contacts are phys's: the profile's collision detector (fcl, dart or ode
 * of DART's) finds them in a collision group of phys's own, and each
 * point becomes a constraint for DART's boxed LCP solver (Dantzig or PGS)
 * with its surfaces' values as under ODE: friction the smaller mu and mu2
 * along fdir1 when given, slip as compliance, restitution the larger when
 * the approach is faster than the smaller threshold; penetration is
 * corrected as DART's own contacts correct it, or, where a surface gives
 * kp or kd, as ODE's soft contacts do (DART has no contact stiffness).
 */
/* Eigen's storage is freed here that libdart allocated, and the other way
 * round: both must use glibc's malloc, which is aligned enough, as libdart
 * was built to. Under AddressSanitizer Eigen would otherwise use its own
 * aligned blocks, and free libdart's as if they were. */
#define EIGEN_MALLOC_ALREADY_ALIGNED 1

#include <dart/collision/CollisionFilter.hpp>
#include <dart/collision/CollisionGroup.hpp>
#include <dart/collision/CollisionObject.hpp>
#include <dart/collision/CollisionResult.hpp>
#include <dart/collision/dart/DARTCollisionDetector.hpp>
#include <dart/collision/fcl/FCLCollisionDetector.hpp>
#include <dart/collision/ode/OdeCollisionDetector.hpp>
#include <dart/constraint/BoxedLcpConstraintSolver.hpp>
#include <dart/constraint/ConstrainedGroup.hpp>
#include <dart/constraint/ConstraintBase.hpp>
#include <dart/constraint/ContactConstraint.hpp>
#include <dart/constraint/DantzigBoxedLcpSolver.hpp>
#include <dart/constraint/JointConstraint.hpp>
#include <dart/constraint/PgsBoxedLcpSolver.hpp>
#include <dart/constraint/WeldJointConstraint.hpp>
#include <dart/dynamics/BallJoint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/CapsuleShape.hpp>
#include <dart/dynamics/CylinderShape.hpp>
#include <dart/dynamics/EllipsoidShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/MeshShape.hpp>
#include <dart/dynamics/PlaneShape.hpp>
#include <dart/dynamics/PrismaticJoint.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/ScrewJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/UniversalJoint.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/math/Geometry.hpp>
#include <dart/simulation/World.hpp>

#include <assimp/scene.h>

#include <algorithm>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <unordered_map>
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
#include "mem.h"
#include "meshgrid.h"
#include "sets.h"
#include "touch.h"
}
#undef _Noreturn

/* The handlers of DART's copy of ODE's LCP solver, declared here: its
 * header shares its guard with ODE's own error.h, which DART's ODE
 * collision detector includes first. */
namespace dart {
namespace external {
namespace ode {
void dSetDebugHandler(void (*fn)(int, const char *, va_list));
void dSetErrorHandler(void (*fn)(int, const char *, va_list));
}
}
}

namespace {

namespace dd = dart::dynamics;
namespace dc = dart::collision;
namespace dk = dart::constraint;

/*
 * A plane is a box this wide under the fcl and dart collision detectors
 * (the first collides a box with a half-space at one point, the second
 * has no plane), its top face on the plane: the ground of any world
 * phys runs, at most a kilometre from its origin.
 */
const double PLANE_BOX = 2000;

/*
 * A loop joint or a coupling corrects this share of its error each step
 * (ODE's default ERP; DART's own 0.01 lets a swinging four-bar's loop open
 * by milliradians), and each loop row gives way by this much velocity per
 * unit impulse: a loop closed in a plane has rows its trees already hold
 * (along the axes), which would leave DART's Dantzig solver a singular
 * problem.
 */
const double LOOP_ERP = 0.2;
const double LOOP_SOFTNESS = 1e-9;

/*
 * A contact's normal row whose own response is less than NEAR_SINGULAR
 * of a free body's of its bodies' masses gives way by CONTACT_SOFTNESS
 * more (velocity per unit impulse, 1/kg), as ODE's rows do by their force
 * mixing: a contact that no motion of its bodies moves along its normal
 * (a link that starts in the ground, which its joints turn about the
 * normal only: MuJoCo Menagerie's SO-ARM100 starts 8.5 mm into its
 * floor) has next to no response of its own, and DART's force mixing, a
 * share of the response, left Dantzig's solver a near-singular row: the
 * arm spun at 1e12 rad/s within 6 ms, and a link sunk into a ground
 * tilted by 0.01 degree swung 2.7 rad about its hinge, where MuJoCo's and
 * Simbody's turn it 4e-4 rad. Every other contact is left as DART makes
 * it: the same softness on all moved a car's steering by 1e-3 rad.
 */
const double NEAR_SINGULAR = 1e-4;
const double CONTACT_SOFTNESS = 1e-7;

/*
 * DART stops the program on a value that is not a number, which a step
 * can make of values too large to multiply: the largest mass, moment,
 * joint coefficient and gravity it is given. A body it steps from is
 * within phys_check_body's bounds (beyond them, a divergence, as under
 * the other engines: the driver checks before each step, check_first).
 */
const double DART_RANGE = 1e100;

/* ---- conversions ---- */

Eigen::Vector3d
ev(phys_vec3 v)
{
	return Eigen::Vector3d(v.x, v.y, v.z);
}

phys_vec3
pv(const Eigen::Vector3d &v)
{
	return v3(v.x(), v.y(), v.z());
}

Eigen::Isometry3d
iso(phys_pose p)
{
	Eigen::Isometry3d t = Eigen::Isometry3d::Identity();

	t.linear() = Eigen::Quaterniond(p.q.w, p.q.x, p.q.y, p.q.z)
	    .toRotationMatrix();
	t.translation() = ev(p.p);
	return t;
}

phys_quat
pq(const Eigen::Matrix3d &r)
{
	Eigen::Quaterniond q(r);
	phys_quat o = { q.w(), q.x(), q.y(), q.z() };

	return phys_quat_normalize(o);
}

phys_pose
pp(const Eigen::Isometry3d &t)
{
	phys_pose p;

	p.p = pv(t.translation());
	p.q = pq(t.linear());
	return p;
}

/* DART speaks on std::cout and std::cerr; phys's lines and messages are
 * its own. Held while DART runs. */
class Quiet {
public:
	Quiet() : out(std::cout.rdbuf(nullptr)), err(std::cerr.rdbuf(nullptr)) {}
	~Quiet() { std::cout.rdbuf(out); std::cerr.rdbuf(err); }
	Quiet(const Quiet &) = delete;
	Quiet &operator=(const Quiet &) = delete;
private:
	std::streambuf *out, *err;
};

struct dart_engine;

const struct phys_value *
vals(const dart_engine *e, phys_scope s, int idx);

/* ---- constraints of phys's own ---- */

/*
 * A constraint whose rows' impulses are known generalized impulses on the
 * skeletons it acts on: the solver reckons how its rows answer each other
 * from the skeletons' mass matrices rather than by DART's impulse tests
 * (Solver::solveConstrainedGroup).
 */
class KnownRows {
public:
	virtual ~KnownRows() = default;
	/* Row i's generalized impulse on skeleton s (over its degrees of
	 * freedom; nothing where it does not act on s), added to g. */
	virtual void add_generalized(std::size_t i, const dd::Skeleton *s,
	    Eigen::Ref<Eigen::VectorXd> g) const = 0;
	/* Row i's own response as the solver takes it, from its plain
	 * one: its force mixing added. */
	virtual double own_response(std::size_t i, double plain) const = 0;
	/* The skeletons it acts on and moves, added to out once each. */
	virtual void skeletons(std::vector<const dd::Skeleton *> &out)
	    const = 0;
};

/* s added to out unless there already. */
void
add_skeleton(std::vector<const dd::Skeleton *> &out, const dd::Skeleton *s)
{
	if (std::find(out.begin(), out.end(), s) == out.end())
		out.push_back(s);
}

/*
 * Rows on two bodies (b null: the world), each a direction of relative
 * motion: row i's rate is ja[i] . Va + jb[i] . Vb for the bodies' spatial
 * velocities in their own frames, and an impulse x along it adds ja[i] x
 * to a and jb[i] x to b. DART's solver tests each row with a unit impulse
 * and reads what every row's rate does (ConstraintBase's protocol).
 */
class TwoBody : public dk::ConstraintBase, public KnownRows {
public:
	TwoBody(dd::BodyNode *a_, dd::BodyNode *b_) : a(a_), b(b_) {}
	void applyUnitImpulse(std::size_t i) override;
	void getVelocityChange(double *vel, bool withCfm) override;
	void excite() override;
	void unexcite() override;
	void applyImpulse(double *x) override;
	bool isActive() const override;
	dd::SkeletonPtr getRootSkeleton() const override;
	void uniteSkeletons() override;

	/* The impulse applied on a in the last solve, its frame, and the
	 * one on b (in b's frame: on a body that does not move, what its
	 * joints take). */
	Eigen::Vector6d impulse = Eigen::Vector6d::Zero();
	Eigen::Vector6d impulse_b = Eigen::Vector6d::Zero();
	dd::BodyNode *body_a() const { return a; }
	dd::BodyNode *body_b() const { return b; }
	void add_generalized(std::size_t i, const dd::Skeleton *s,
	    Eigen::Ref<Eigen::VectorXd> g) const override;
	double own_response(std::size_t i, double plain) const override;
	void skeletons(std::vector<const dd::Skeleton *> &out) const override;
protected:
	/* Room for n rows. */
	void rows(std::size_t n);
	/* Row i: a linear one along world direction u at world point p, or
	 * an angular one about u. */
	void linear_row(std::size_t i, const Eigen::Vector3d &u,
	    const Eigen::Vector3d &p);
	/* Rows i to i + n - 1 along u[0] to u[n - 1], all at p: the
	 * bodies' frames read once. */
	void linear_rows(std::size_t i, const Eigen::Vector3d *u,
	    std::size_t n, const Eigen::Vector3d &p);
	void angular_row(std::size_t i, const Eigen::Vector3d &u);
	/* Row i's rate now. */
	double rate(std::size_t i) const;

	dd::BodyNode *a, *b;
	std::vector<Eigen::Vector6d> ja, jb;
	std::vector<double> cfm;	/* added to a row's own response, relative */
	std::vector<double> soft;	/* ... and absolute */
	std::size_t tested = 0;
private:
	bool reactive(const dd::BodyNode *n) const
	{
		return n && n->isReactive();
	}
	/* Whether each body moves, and its skeleton, as isActive found them:
	 * DART asks that of every constraint before each solve, and then
	 * asks each for its response once per row of the group. */
	mutable bool ra = false, rb = false;
	mutable dd::Skeleton *sa = nullptr, *sb = nullptr;
};

void
TwoBody::rows(std::size_t n)
{
	mDim = n;
	ja.resize(n);
	jb.resize(n);
	cfm.assign(n, 0);
	soft.assign(n, 0);
}

void
TwoBody::linear_row(std::size_t i, const Eigen::Vector3d &u,
    const Eigen::Vector3d &p)
{
	linear_rows(i, &u, 1, p);
}

void
TwoBody::linear_rows(std::size_t i, const Eigen::Vector3d *u, std::size_t n,
    const Eigen::Vector3d &p)
{
	const Eigen::Isometry3d &ta = a->getWorldTransform();
	const Eigen::Isometry3d *tb = b ? &b->getWorldTransform() : nullptr;
	Eigen::Vector3d pa = ta.inverse() * p, pb;

	if (tb)
		pb = tb->inverse() * p;
	for (std::size_t k = 0; k < n; k++) {
		Eigen::Vector3d ua = ta.linear().transpose() * u[k];

		ja[i + k] << pa.cross(ua), ua;
		jb[i + k].setZero();
		if (tb) {
			Eigen::Vector3d ub = tb->linear().transpose() * -u[k];

			jb[i + k] << pb.cross(ub), ub;
		}
	}
}

void
TwoBody::angular_row(std::size_t i, const Eigen::Vector3d &u)
{
	ja[i] << a->getWorldTransform().linear().transpose() * u,
	    Eigen::Vector3d::Zero();
	jb[i].setZero();
	if (b)
		jb[i] << b->getWorldTransform().linear().transpose() * -u,
		    Eigen::Vector3d::Zero();
}

double
TwoBody::rate(std::size_t i) const
{
	double r = ja[i].dot(a->getSpatialVelocity());

	if (b)
		r += jb[i].dot(b->getSpatialVelocity());
	return r;
}

void
TwoBody::applyUnitImpulse(std::size_t i)
{
	if (sa == sb && ra && rb) {
		sa->clearConstraintImpulses();
		sa->updateBiasImpulse(a, ja[i], b, jb[i]);
		sa->updateVelocityChange();
	} else {
		if (ra) {
			sa->clearConstraintImpulses();
			sa->updateBiasImpulse(a, ja[i]);
			sa->updateVelocityChange();
		}
		if (rb) {
			sb->clearConstraintImpulses();
			sb->updateBiasImpulse(b, jb[i]);
			sb->updateVelocityChange();
		}
	}
	tested = i;
}

void
TwoBody::getVelocityChange(double *vel, bool withCfm)
{
	bool va = ra && sa->isImpulseApplied();
	bool vb = rb && sb->isImpulseApplied();
	const Eigen::Vector6d *da = va ? &a->getBodyVelocityChange() : nullptr;
	const Eigen::Vector6d *db = vb ? &b->getBodyVelocityChange() : nullptr;

	for (std::size_t i = 0; i < mDim; i++) {
		vel[i] = 0;
		if (da)
			vel[i] += ja[i].dot(*da);
		if (db)
			vel[i] += jb[i].dot(*db);
	}
	if (withCfm)
		vel[tested] = own_response(tested, vel[tested]);
}

double
TwoBody::own_response(std::size_t i, double plain) const
{
	return plain + plain * cfm[i] + soft[i];
}

/* An impulse u on a body, in its frame, is J^T u on its skeleton's degrees
 * of freedom (J its body Jacobian, over those it depends on). */
void
add_body_impulse(const dd::BodyNode *n, const Eigen::Vector6d &u,
    Eigen::Ref<Eigen::VectorXd> g)
{
	const dart::math::Jacobian &J = n->getJacobian();
	const std::vector<std::size_t> &dofs = n->getDependentGenCoordIndices();

	for (std::size_t c = 0; c < dofs.size(); c++)
		g[(Eigen::Index)dofs[c]] += J.col((Eigen::Index)c).dot(u);
}

/* Both as isActive found the bodies before the solve that asks. */
void
TwoBody::add_generalized(std::size_t i, const dd::Skeleton *s,
    Eigen::Ref<Eigen::VectorXd> g) const
{
	if (ra && sa == s)
		add_body_impulse(a, ja[i], g);
	if (rb && sb == s)
		add_body_impulse(b, jb[i], g);
}

void
TwoBody::skeletons(std::vector<const dd::Skeleton *> &out) const
{
	if (ra)
		add_skeleton(out, sa);
	if (rb)
		add_skeleton(out, sb);
}

void
TwoBody::excite()
{
	if (ra)
		sa->setImpulseApplied(true);
	if (rb)
		sb->setImpulseApplied(true);
}

void
TwoBody::unexcite()
{
	if (ra)
		sa->setImpulseApplied(false);
	if (rb)
		sb->setImpulseApplied(false);
}

void
TwoBody::applyImpulse(double *x)
{
	Eigen::Vector6d ia = Eigen::Vector6d::Zero(), ib = ia;

	for (std::size_t i = 0; i < mDim; i++) {
		ia += ja[i] * x[i];
		ib += jb[i] * x[i];
	}
	impulse = ia;
	impulse_b = ib;
	if (ra)
		a->addConstraintImpulse(ia);
	if (rb)
		b->addConstraintImpulse(ib);
}

bool
TwoBody::isActive() const
{
	ra = reactive(a);
	rb = reactive(b);
	sa = ra ? a->getSkeleton().get() : nullptr;
	sb = rb ? b->getSkeleton().get() : nullptr;
	return mDim > 0 && (ra || rb);
}

dd::SkeletonPtr
TwoBody::getRootSkeleton() const
{
	dd::BodyNode *n = reactive(a) ? a : b;

	return dk::ConstraintBase::getRootSkeleton(n->getSkeleton());
}

void
TwoBody::uniteSkeletons()
{
	if (!reactive(a) || !reactive(b) || a->getSkeleton() == b->getSkeleton())
		return;
	dd::SkeletonPtr r1 = compressPath(a->getSkeleton());
	dd::SkeletonPtr r2 = compressPath(b->getSkeleton());

	if (r1 == r2)
		return;
	if (r1->mUnionSize < r2->mUnionSize)
		std::swap(r1, r2);
	r2->mUnionRootSkeleton = r1;
	r1->mUnionSize += r2->mUnionSize;
}

/* What a contact point takes from its two surfaces. */
struct surface_pair {
	double mu[2], slip[2];
	bool fdir;		/* fdir1 given: along it, else ODE's basis */
	Eigen::Vector3d dir;	/* world */
	double bounce, threshold;
	/* kp/kd given: the normal row as ODE's soft contact, else -1; its
	 * correcting speed at most max_vel, its depth less min_depth */
	double erp, cfm, max_vel, min_depth;
};

/*
 * One contact point: a normal row (impulse >= 0) and two friction rows
 * bounded by mu and mu2 times the normal impulse, as under ODE. Object 1
 * (a) is pushed along the normal.
 */
class Contact : public TwoBody {
public:
	Contact() : TwoBody(nullptr, nullptr) {}
	/* The point anew: a step's contacts are kept from step to step,
	 * their rows' room with them (dart_engine's contacts). */
	void set(dd::BodyNode *a_, dd::BodyNode *b_, const Eigen::Vector3d &p,
	    const Eigen::Vector3d &n, double depth_, const surface_pair &s,
	    double h);
	const std::string &getType() const override;
	void update() override {}
	void getInformation(dk::ConstraintInfo *info) override;
	double own_response(std::size_t i, double plain) const override;
private:
	double mu[2], bounce, threshold, depth, erp, h, max_vel, min_depth;
	double free_response;
};

/* ODE's plane space: two tangents completing n. */
void
tangents(const Eigen::Vector3d &n, Eigen::Vector3d &t1, Eigen::Vector3d &t2)
{
	if (std::fabs(n.z()) > M_SQRT1_2) {
		double a = n.y() * n.y() + n.z() * n.z(), k = 1 / std::sqrt(a);

		t1 = Eigen::Vector3d(0, -n.z() * k, n.y() * k);
		t2 = Eigen::Vector3d(a * k, -n.x() * t1.z(), n.x() * t1.y());
	} else {
		double a = n.x() * n.x() + n.y() * n.y(), k = 1 / std::sqrt(a);

		t1 = Eigen::Vector3d(-n.y() * k, n.x() * k, 0);
		t2 = Eigen::Vector3d(-n.z() * t1.y(), n.z() * t1.x(), a * k);
	}
}

void
Contact::set(dd::BodyNode *a_, dd::BodyNode *b_, const Eigen::Vector3d &p,
    const Eigen::Vector3d &normal, double depth_, const surface_pair &s,
    double h)
{
	Eigen::Vector3d n = normal.normalized(), t1, t2;

	a = a_;
	b = b_;
	impulse.setZero();
	impulse_b.setZero();
	tested = 0;
	rows(3);
	tangents(n, t1, t2);
	if (s.fdir) {
		Eigen::Vector3d d = s.dir - n * n.dot(s.dir);

		if (d.norm() > 1e-9) {
			t1 = d.normalized();
			t2 = n.cross(t1);
		}
	}
	const Eigen::Vector3d u[3] = { n, t1, t2 };
	linear_rows(0, u, 3, p);
	cfm[0] = cfm[1] = cfm[2] = dk::ContactConstraint::getConstraintForceMixing();
	/* Slip: the friction rows give way by slip per newton, as ODE's
	 * force-dependent slip. */
	soft[1] = s.slip[0] / h;
	soft[2] = s.slip[1] / h;
	/* A stiffness: ODE's CFM for the step is the normal row's
	 * compliance, its ERP the share of the depth pushed out a step:
	 * at rest a point carrying the force F sinks F / kp. */
	erp = s.erp;
	max_vel = s.max_vel;
	min_depth = s.min_depth;
	this->h = h;
	if (erp >= 0) {
		cfm[0] = 0;
		soft[0] = s.cfm / h;
	}
	/* a free body's response along the normal, as the bodies' masses
	 * give it: the measure of a row with next to none */
	free_response = 0;
	if (a_->isReactive() && a_->getMass() > 0)
		free_response += 1 / a_->getMass();
	if (b_ && b_->isReactive() && b_->getMass() > 0)
		free_response += 1 / b_->getMass();
	mu[0] = s.mu[0];
	mu[1] = s.mu[1];
	bounce = s.bounce;
	threshold = s.threshold;
	depth = depth_;
}

const std::string &
Contact::getType() const
{
	static const std::string type = "phys contact";

	return type;
}

/* A normal row whose own response is next to none (below NEAR_SINGULAR
 * of a free body's) gives way by CONTACT_SOFTNESS more. */
double
Contact::own_response(std::size_t i, double plain) const
{
	double v = TwoBody::own_response(i, plain);

	if (i == 0 && v < NEAR_SINGULAR * free_response)
		v += CONTACT_SOFTNESS;
	return v;
}

/*
 * The normal row leaves at least the speed that corrects the penetration
 * as DART's contacts correct it (its error reduction, allowance and
 * largest correcting speed), or that of the bounce when faster.
 */
void
Contact::getInformation(dk::ConstraintInfo *info)
{
	double approach = -rate(0);
	double fix = depth - dk::ContactConstraint::getErrorAllowance();

	if (erp >= 0)
		fix = std::min(erp * std::max(depth - min_depth, 0.0) / h,
		    max_vel);
	else
		fix = fix > 0 ? std::min(fix * dk::ContactConstraint::
		    getErrorReductionParameter() * info->invTimeStep,
		    dk::ContactConstraint::getMaxErrorReductionVelocity()) : 0;
	if (bounce > 0 && approach > threshold)
		fix = std::max(fix, bounce * approach);
	for (std::size_t i = 0; i < 3; i++) {
		info->b[i] = -rate(i);
		info->x[i] = 0;
	}
	info->b[0] += fix;
	info->lo[0] = 0;
	info->hi[0] = INFINITY;
	info->findex[0] = -1;
	for (std::size_t i = 1; i < 3; i++) {
		info->lo[i] = -mu[i - 1];
		info->hi[i] = mu[i - 1];
		info->findex[i] = 0;
	}
}

/*
 * A joint DART's trees cannot hold: rows between its child's body (a) and
 * its parent's (b; null for the world, or a static parent) that keep the
 * joint frames together but along its free axes, where its friction and
 * limits act as rows too. Its positions come from the link poses.
 */
class Loop : public TwoBody {
public:
	Loop(dart_engine *e_, int joint_, dd::BodyNode *a_, dd::BodyNode *b_,
	    phys_pose fa_, phys_pose fb_);
	const std::string &getType() const override;
	void update() override;
	void getInformation(dk::ConstraintInfo *info) override;
private:
	void row(const Eigen::Vector3d &u, bool angular, double error,
	    double lo, double hi);
	void ball_rows(const Eigen::Matrix3d &rchi, double sign);

	dart_engine *e;
	int joint;
	bool a_child;		/* a is the child's body (else the parent's) */
	phys_pose fa, fb;	/* joint frame in a's frame and b's (the world's) */
	std::vector<double> err, lo, hi;
	std::vector<bool> angular;
	std::vector<Eigen::Vector3d> dir;
	Eigen::Vector3d anchor;
};

/*
 * sum(c_i q_i) = target over single axes of tree joints: a gearbox
 * (ratio q_1 + q_2 = 0 for the gears' joints to their reference body) or
 * a mimic (q_f - m q_l = offset - m reference). Both sides feel it.
 */
class Coupling : public dk::ConstraintBase, public KnownRows {
public:
	struct term {
		dd::Joint *joint;
		std::size_t dof;
		double c;
	};
	Coupling(std::vector<term> t_, double target_) : t(std::move(t_)),
	    target(target_) { mDim = 1; }
	/* the impulse's bounds: one side only for a stop */
	double lo = -INFINITY, hi = INFINITY;
	/* the share of the error corrected a step */
	double erp = LOOP_ERP;
	/* a row of a rate (finite: a servo's, see servo_in_row) where the
	 * position's error is not corrected, soft by an absolute CFM (the
	 * rate's change per unit impulse); the impulse the step gave it */
	double rate = NAN, cfm = 0, impulse = 0;
	const std::string &getType() const override;
	void update() override {}
	void getInformation(dk::ConstraintInfo *info) override;
	void applyUnitImpulse(std::size_t i) override;
	void getVelocityChange(double *vel, bool withCfm) override;
	void excite() override;
	void unexcite() override;
	void applyImpulse(double *x) override;
	bool isActive() const override;
	dd::SkeletonPtr getRootSkeleton() const override;
	void uniteSkeletons() override;
	void add_generalized(std::size_t i, const dd::Skeleton *s,
	    Eigen::Ref<Eigen::VectorXd> g) const override;
	double own_response(std::size_t i, double plain) const override;
	void skeletons(std::vector<const dd::Skeleton *> &out) const override;
protected:
	std::vector<term> t;
private:
	bool reactive(const term &k) const
	{
		return k.joint->getChildBodyNode()->isReactive();
	}
	double target;
};

/*
 * A ball joint's range, MuJoCo's ball limit: its turn from where it was
 * loaded (phys_ball_turn) at most its axis's upper limit. One coupling
 * row over the ball's three coordinates, along the turn's axis in the
 * joint frame (their rates are the child's angular velocity less the
 * parent's, in that frame), pushing back only; a row only while the
 * turn is past the limit or would pass it within the step, found when
 * the solver asks (update), after the step's forces.
 */
class BallRange : public Coupling {
public:
	BallRange(dart_engine *e_, int joint_, dd::Joint *d);
	const std::string &getType() const override;
	void update() override;
	bool isActive() const override;
private:
	dart_engine *e;
	int joint;
	bool active = false;
};

const std::string &
Coupling::getType() const
{
	static const std::string type = "phys coupling";

	return type;
}

void
Coupling::getInformation(dk::ConstraintInfo *info)
{
	double gap = -target, rate = 0;

	for (auto &k : t) {
		gap += k.c * k.joint->getPosition(k.dof);
		rate += k.c * k.joint->getVelocity(k.dof);
	}
	info->b[0] = std::isfinite(this->rate) ? this->rate - rate :
	    -rate - erp * gap * info->invTimeStep;
	info->x[0] = 0;
	info->lo[0] = lo;
	info->hi[0] = hi;
	info->findex[0] = -1;
}

/* A unit impulse on every term: the terms of one skeleton together, its
 * bias impulses updated over every body that carries one. */
void
Coupling::applyUnitImpulse(std::size_t)
{
	for (std::size_t i = 0; i < t.size(); i++) {
		dd::Skeleton *s = t[i].joint->getSkeleton().get();
		dd::BodyNode *first = nullptr, *last = nullptr;
		bool done = false;

		for (std::size_t k = 0; k < i; k++)
			done |= t[k].joint->getSkeleton().get() == s;
		if (done || !reactive(t[i]))
			continue;
		s->clearConstraintImpulses();
		for (std::size_t k = i; k < t.size(); k++) {
			if (t[k].joint->getSkeleton().get() != s)
				continue;
			t[k].joint->setConstraintImpulse(t[k].dof, t[k].c);
			(first ? last : first) = t[k].joint->getChildBodyNode();
		}
		if (last)
			s->updateBiasImpulse(first, Eigen::Vector6d::Zero(), last,
			    Eigen::Vector6d::Zero());
		else
			s->updateBiasImpulse(first);
		s->updateVelocityChange();
		for (std::size_t k = i; k < t.size(); k++)
			if (t[k].joint->getSkeleton().get() == s)
				t[k].joint->setConstraintImpulse(t[k].dof, 0);
	}
}

void
Coupling::getVelocityChange(double *vel, bool withCfm)
{
	vel[0] = 0;
	for (auto &k : t)
		if (reactive(k) && k.joint->getSkeleton()->isImpulseApplied())
			vel[0] += k.c * k.joint->getVelocityChange(k.dof);
	if (withCfm)
		vel[0] = own_response(0, vel[0]);
}

double
Coupling::own_response(std::size_t, double plain) const
{
	return plain + plain * dk::JointConstraint::getConstraintForceMixing() +
	    cfm;
}

/* A unit impulse on the row is c on each term's degree of freedom. */
void
Coupling::add_generalized(std::size_t, const dd::Skeleton *s,
    Eigen::Ref<Eigen::VectorXd> g) const
{
	for (auto &k : t)
		if (reactive(k) && k.joint->getSkeleton().get() == s)
			g[(Eigen::Index)k.joint->getIndexInSkeleton(k.dof)] +=
			    k.c;
}

void
Coupling::skeletons(std::vector<const dd::Skeleton *> &out) const
{
	for (auto &k : t)
		if (reactive(k))
			add_skeleton(out, k.joint->getSkeleton().get());
}

void
Coupling::excite()
{
	for (auto &k : t)
		if (reactive(k))
			k.joint->getSkeleton()->setImpulseApplied(true);
}

void
Coupling::unexcite()
{
	for (auto &k : t)
		if (reactive(k))
			k.joint->getSkeleton()->setImpulseApplied(false);
}

void
Coupling::applyImpulse(double *x)
{
	impulse = x[0];
	for (auto &k : t)
		if (reactive(k))
			k.joint->setConstraintImpulse(k.dof,
			    k.joint->getConstraintImpulse(k.dof) + k.c * x[0]);
}

bool
Coupling::isActive() const
{
	for (auto &k : t)
		if (reactive(k))
			return true;
	return false;
}

dd::SkeletonPtr
Coupling::getRootSkeleton() const
{
	for (auto &k : t)
		if (reactive(k))
			return dk::ConstraintBase::getRootSkeleton(
			    k.joint->getSkeleton());
	return nullptr;
}

void
Coupling::uniteSkeletons()
{
	for (std::size_t i = 1; i < t.size(); i++) {
		if (!reactive(t[0]) || !reactive(t[i]))
			continue;
		dd::SkeletonPtr r1 = compressPath(t[0].joint->getSkeleton());
		dd::SkeletonPtr r2 = compressPath(t[i].joint->getSkeleton());

		if (r1 == r2)
			continue;
		if (r1->mUnionSize < r2->mUnionSize)
			std::swap(r1, r2);
		r2->mUnionRootSkeleton = r1;
		r1->mUnionSize += r2->mUnionSize;
	}
}

/* Where the handlers of DART's copy of ODE's LCP solver jump back to:
 * the Dantzig solve being made on this thread (none: they return, and
 * the library aborts, as it would without phys); what the library
 * said. An embedder's threads each run their own. */
thread_local jmp_buf *lcp_trap;
thread_local char lcp_said[400];

/* Its handlers (dDebug, dError), which abort() the program once they
 * return. They jump: the library's frames have no unwind tables, so an
 * exception thrown here ended the process too. */
void
lcp_fault_handler(int num, const char *msg, va_list ap)
{
	(void)num;
	vsnprintf(lcp_said, sizeof lcp_said, msg, ap);
	if (lcp_trap)
		longjmp(*lcp_trap, 1);
}

/*
 * Dantzig's solver as DART runs it, through its copy of ODE's LCP solver,
 * which aborted the program on a system its factorisation found singular
 * ("d[i] != 0" in _dLDLTRemove: Isaac Gym's cabinet, its doors and
 * drawers hung from anchors of 1 g): the group is then solved as where
 * Dantzig fails, by projected Gauss-Seidel, and that is said once. What
 * the solve had allocated between is lost.
 */
class Dantzig : public dk::DantzigBoxedLcpSolver {
public:
	bool solve(int n, double *A, double *x, double *b, int nub,
	    double *lo, double *hi, int *findex, bool early) override
	{
		jmp_buf at, *outer = lcp_trap;
		bool ok;

		lcp_trap = &at;
		if (setjmp(at)) {
			lcp_trap = outer;
			phys_warn_once("DART's Dantzig solver stopped on a "
			    "system of constraints it found singular (%s): "
			    "such a step's constraints are solved by projected "
			    "Gauss-Seidel", lcp_said);
			return false;
		}
		ok = dk::DantzigBoxedLcpSolver::solve(n, A, x, b, nub, lo, hi,
		    findex, early);
		lcp_trap = outer;
		return ok;
	}
};

/*
 * The most rows of constraints DART's solver is given in one group (the
 * bodies that touch one another, and what joins them): it makes them one
 * dense system of n x n doubles and solves it in some n^3 operations.
 * Fifty boxes half inside one another made 5,316 rows, 477 MB and 9 s a
 * step, then ran out of memory; a pyramid of 55 boxes makes about 1,050
 * (74 MB, 0.4 s a step). At this bound: 32 MB, a few seconds a step.
 */
const std::size_t MAX_GROUP_ROWS = 2048;

/* Thrown out of DART's step where a group passes MAX_GROUP_ROWS: what
 * it holds, and one pair of bodies in it. */
struct group_too_large {
	std::size_t rows, constraints;
	const dd::BodyNode *a, *b;
};

/*
 * The rows of DART's own constraint on a joint (JointConstraint: its
 * limits, servo, friction), each a unit impulse on one of the joint's
 * degrees of freedom (dof, by index in skel), its own response with
 * DART's force mixing added: as a coupling row of one term.
 */
class JointRows : public KnownRows {
public:
	const dd::Skeleton *skel = nullptr;
	std::vector<Eigen::Index> dof;

	void add_generalized(std::size_t i, const dd::Skeleton *s,
	    Eigen::Ref<Eigen::VectorXd> g) const override
	{
		if (s == skel)
			g[dof[i]] += 1;
	}
	double own_response(std::size_t, double plain) const override
	{
		return plain + plain *
		    dk::JointConstraint::getConstraintForceMixing();
	}
	void skeletons(std::vector<const dd::Skeleton *> &out) const override
	{
		add_skeleton(out, skel);
	}
};

/* DART's boxed LCP solver, with this step's contacts and phys's other
 * constraints handed over as its manual ones. */
class Solver : public dk::BoxedLcpConstraintSolver {
public:
	Solver() : dk::BoxedLcpConstraintSolver(std::make_shared<Dantzig>(),
	    std::make_shared<dk::PgsBoxedLcpSolver>())
	{
		dart::external::ode::dSetDebugHandler(lcp_fault_handler);
		dart::external::ode::dSetErrorHandler(lcp_fault_handler);
	}
	std::vector<dk::ConstraintBasePtr> &manual() { return mManualConstraints; }
protected:
	void solveConstrainedGroup(dk::ConstrainedGroup &group) override;
private:
	void test_rows(dk::ConstrainedGroup &group, std::size_t i);
	void joint_rows(dk::ConstrainedGroup &group);
	static group_too_large too_large(dk::ConstrainedGroup &group);
	bool known_block(dk::ConstrainedGroup &group);
	bool cheaper_tested(const std::vector<const dd::Skeleton *> &skels,
	    const std::vector<std::vector<Eigen::Index>> &cols) const;
	void place_known_block();
	bool add_response(const dd::Skeleton *s,
	    const std::vector<Eigen::Index> &cols);
	void add_body_mass(const dd::BodyNode *n,
	    const std::vector<Eigen::Index> &dyn);
	bool solve_lcp();

	/* each constraint of the group as one of phys's of known rows, or
	 * null when DART's tests give its rows */
	std::vector<KnownRows *> known;
	/* room for the group's joint constraints as known rows */
	std::vector<JointRows> joints;
	std::vector<double> probe;
	/* the known rows: where in A, whose and which; their responses
	 * to each other; the generalized impulses on one skeleton, those
	 * on the degrees of freedom it moves by forces, its mass matrix */
	std::vector<Eigen::Index> rows;
	std::vector<std::pair<KnownRows *, std::size_t>> at;
	Eigen::MatrixXd block, part, g, mg, mass, ij;
	Eigen::LLT<Eigen::MatrixXd> chol;
};

/* What group holds, and two of its bodies: two moving ones rather than
 * one on the ground where there are. */
group_too_large
Solver::too_large(dk::ConstrainedGroup &group)
{
	group_too_large g = { group.getTotalDimension(),
	    group.getNumConstraints(), nullptr, nullptr };
	bool moving;

	for (std::size_t i = 0; i < g.constraints; i++) {
		const TwoBody *k = dynamic_cast<const TwoBody *>(
		    group.getConstraint(i).get());

		if (!k || !k->body_a() || !k->body_b())
			continue;
		moving = k->body_a()->isReactive() && k->body_b()->isReactive();
		if (!g.a || moving) {
			g.a = k->body_a();
			g.b = k->body_b();
		}
		if (moving)
			break;
	}
	return g;
}

/*
 * The boxed LCP of a group of constraints, as DART's solver poses and
 * solves it, but for how A (each row's rate per unit impulse on each row)
 * is found. DART applies a unit impulse on each row in turn and reads
 * every row's rate, which costs a pass over the skeleton for each row:
 * with a robot lying on the ground, most of DART's step. A row of phys's
 * own constraints is a known impulse on one or two bodies, a generalized
 * impulse G_i = J^T u on its skeleton (a coupling's, c on each joint's
 * degree of freedom), so their block is G^T M^-1 G from the skeleton's
 * mass matrix. DART's own constraints (its joint limits) are still
 * tested, and their rows give the rest by symmetry. A mass matrix that
 * is not positive definite (a body of no inertia about a joint's axis)
 * leaves every row to DART's tests.
 */
void
Solver::solveConstrainedGroup(dk::ConstrainedGroup &group)
{
	const std::size_t nc = group.getNumConstraints();
	const std::size_t n = group.getTotalDimension();
	dk::ConstraintInfo info;

	if (n == 0)
		return;
	if (n > MAX_GROUP_ROWS)
		throw too_large(group);
	mA.resize((Eigen::Index)n, dPAD((Eigen::Index)n));
	mX.resize((Eigen::Index)n);
	mB.resize((Eigen::Index)n);
	mW.setZero((Eigen::Index)n);
	mLo.resize((Eigen::Index)n);
	mHi.resize((Eigen::Index)n);
	mFIndex.setConstant((Eigen::Index)n, -1);
	mOffset.resize((Eigen::Index)nc);
	known.resize(nc);
	info.invTimeStep = 1 / mTimeStep;
	for (std::size_t i = 0; i < nc; i++) {
		const dk::ConstraintBasePtr &c = group.getConstraint(i);
		int o = i ? mOffset[(Eigen::Index)i - 1] +
		    (int)group.getConstraint(i - 1)->getDimension() : 0;

		mOffset[(Eigen::Index)i] = o;
		known[i] = dynamic_cast<KnownRows *>(c.get());
		info.x = mX.data() + o;
		info.lo = mLo.data() + o;
		info.hi = mHi.data() + o;
		info.b = mB.data() + o;
		info.findex = mFIndex.data() + o;
		info.w = mW.data() + o;
		c->getInformation(&info);
		for (std::size_t j = 0; j < c->getDimension(); j++)
			if (mFIndex[o + (Eigen::Index)j] >= 0)
				mFIndex[o + (Eigen::Index)j] += o;
	}
	joint_rows(group);
	if (!known_block(group)) {
		std::fill(known.begin(), known.end(), nullptr);
		rows.clear();
		at.clear();
	}
	for (std::size_t i = 0; i < nc; i++)
		if (!known[i])
			test_rows(group, i);
	place_known_block();
	if (!solve_lcp())
		mX.setZero();
	for (std::size_t i = 0; i < nc; i++) {
		group.getConstraint(i)->applyImpulse(mX.data() +
		    mOffset[(Eigen::Index)i]);
		group.getConstraint(i)->excite();
	}
}

/*
 * The group's joint constraints of DART as known rows, which DART's
 * tests of them (a pass over the skeleton a row: a robot lying on its
 * folded legs has some at their limits every step) would cost more
 * than. DART keeps which degrees of freedom a joint constraint's rows
 * push to itself, but each row reads back the velocity change of its
 * own: every skeleton's degrees of freedom are given a code as theirs
 * for the while, then what they had. One that reads no code is left to
 * the tests.
 */
void
Solver::joint_rows(dk::ConstrainedGroup &group)
{
	const std::size_t nc = group.getNumConstraints();
	std::vector<std::pair<const dd::Skeleton *, Eigen::Index>> code;
	std::vector<bool> excited;
	std::size_t k;

	for (k = 0; k < nc; k++)
		if (!known[k] && dynamic_cast<dk::JointConstraint *>(
		    group.getConstraint(k).get()))
			break;
	if (k == nc)
		return;
	joints.resize(nc);
	for (JointRows &r : joints) {
		r.skel = nullptr;
		r.dof.clear();
	}
	for (const dd::SkeletonPtr &sk : mSkeletons) {
		excited.push_back(sk->isImpulseApplied());
		sk->setImpulseApplied(true);
		for (std::size_t d = 0; d < sk->getNumDofs(); d++) {
			probe.push_back(sk->getDof(d)->getVelocityChange());
			code.emplace_back(sk.get(), (Eigen::Index)d);
			sk->getDof(d)->setVelocityChange((double)code.size());
		}
	}
	for (; k < nc; k++) {
		dk::ConstraintBase *c = group.getConstraint(k).get();
		JointRows &r = joints[k];
		std::size_t dim = c->getDimension();
		double v[6];

		if (known[k] || !dynamic_cast<dk::JointConstraint *>(c) ||
		    dim > 6)
			continue;
		c->getVelocityChange(v, false);
		for (std::size_t i = 0; i < dim; i++) {
			double at = v[i] - 1;

			if (!(at >= 0 && at < (double)code.size() &&
			    at == std::floor(at)))
				break;
			const dd::Skeleton *sk = code[(std::size_t)at].first;
			Eigen::Index d = code[(std::size_t)at].second;

			if ((r.skel && r.skel != sk) || !sk->getDof(
			    (std::size_t)d)->getJoint()->isDynamic())
				break;
			r.skel = sk;
			r.dof.push_back(d);
		}
		if (r.dof.size() == dim)
			known[k] = &r;
	}
	k = 0;
	for (std::size_t s = 0; s < mSkeletons.size(); s++) {
		const dd::SkeletonPtr &sk = mSkeletons[s];

		for (std::size_t d = 0; d < sk->getNumDofs(); d++)
			sk->getDof(d)->setVelocityChange(probe[k++]);
		sk->setImpulseApplied(excited[s]);
	}
	probe.clear();
}

/* Constraint i's rows by DART's impulse tests: each row's rate per unit
 * impulse on each of its rows, and on every known row and every row of
 * the other constraints after it (those before it gave theirs). */
void
Solver::test_rows(dk::ConstrainedGroup &group, std::size_t i)
{
	const dk::ConstraintBasePtr &c = group.getConstraint(i);
	const Eigen::Index nskip = mA.cols();

	c->excite();
	for (std::size_t j = 0; j < c->getDimension(); j++) {
		Eigen::Index r = mOffset[(Eigen::Index)i] + (Eigen::Index)j;

		c->applyUnitImpulse(j);
		for (std::size_t k = 0; k < group.getNumConstraints(); k++) {
			const dk::ConstraintBasePtr &d = group.getConstraint(k);
			Eigen::Index o = mOffset[(Eigen::Index)k];

			if (k >= i || known[k])
				d->getVelocityChange(mA.data() + r * nskip + o,
				    k == i);
			else
				for (std::size_t l = 0; l < d->getDimension();
				    l++)
					mA(r, o + (Eigen::Index)l) =
					    mA(o + (Eigen::Index)l, r);
		}
	}
	c->unexcite();
}

/* The known rows (rows, at) and their responses to each other (block),
 * over each skeleton they act on (the rows on it, cols); false: DART's
 * tests of them cost less (cheaper_tested), or a mass matrix is not
 * positive definite. */
bool
Solver::known_block(dk::ConstrainedGroup &group)
{
	std::vector<const dd::Skeleton *> skels, on;
	std::vector<std::vector<Eigen::Index>> cols;

	rows.clear();
	at.clear();
	for (std::size_t k = 0; k < group.getNumConstraints(); k++) {
		const std::size_t dim = group.getConstraint(k)->getDimension();

		if (!known[k])
			continue;
		on.clear();
		known[k]->skeletons(on);
		for (const dd::Skeleton *sk : on) {
			add_skeleton(skels, sk);
			cols.resize(skels.size());
			auto i = std::find(skels.begin(), skels.end(), sk) -
			    skels.begin();
			for (std::size_t l = 0; l < dim; l++)
				cols[(std::size_t)i].push_back(
				    (Eigen::Index)(rows.size() + l));
		}
		for (std::size_t l = 0; l < dim; l++) {
			rows.push_back(mOffset[(Eigen::Index)k] +
			    (Eigen::Index)l);
			at.emplace_back(known[k], l);
		}
	}
	if (cheaper_tested(skels, cols))
		return false;
	block.setZero((Eigen::Index)rows.size(), (Eigen::Index)rows.size());
	for (std::size_t i = 0; i < skels.size(); i++)
		if (!add_response(skels[i], cols[i]))
			return false;
	return true;
}

/*
 * Whether DART's tests of the known rows cost less than reckoning them
 * from the mass matrices, by a count of the work: a test passes twice
 * over its skeleton's bodies, about 2,000 instructions a body; the mass
 * matrix of a skeleton of k degrees of freedom adds up J^T I J over its
 * bodies (6 d^2 for the d a body depends on), is factorised (k^3 / 3),
 * solved for each of its m rows (k^2 / 2 each) and their products taken
 * (m^2 k), about 5 instructions a step. A long chain touching the ground
 * at one point is cheaper tested: 300 links took 18 times as long
 * reckoned.
 */
bool
Solver::cheaper_tested(const std::vector<const dd::Skeleton *> &skels,
    const std::vector<std::vector<Eigen::Index>> &cols) const
{
	double tested = 0, reckoned = 0;

	for (std::size_t i = 0; i < skels.size(); i++) {
		const dd::Skeleton *sk = skels[i];
		double k = (double)sk->getNumDofs();
		double m = (double)cols[i].size(), sum = 0;

		for (std::size_t b = 0; b < sk->getNumBodyNodes(); b++) {
			double d = (double)sk->getBodyNode(b)->
			    getNumDependentGenCoords();

			sum += 6 * d * d;
		}
		tested += 2000 * m * (double)sk->getNumBodyNodes();
		reckoned += 5 * (sum + k * k * k / 3 + k * k * m / 2 +
		    m * m * k);
	}
	return tested < reckoned;
}

/* The known rows into A: against the tested rows by symmetry, against
 * each other from the block, their own responses with their force
 * mixing. */
void
Solver::place_known_block()
{
	const Eigen::Index n = mA.rows(), m = (Eigen::Index)rows.size();

	if (m == n) {
		/* every row known, in order: the block is A but for the
		 * force mixing */
		mA.leftCols(n) = block;
		for (Eigen::Index r = 0; r < m; r++)
			mA(r, r) = at[(std::size_t)r].first->own_response(
			    at[(std::size_t)r].second, block(r, r));
		return;
	}
	std::vector<bool> analytic((std::size_t)n, false);

	for (Eigen::Index r : rows)
		analytic[(std::size_t)r] = true;
	for (Eigen::Index r : rows)
		for (Eigen::Index c = 0; c < n; c++)
			if (!analytic[(std::size_t)c])
				mA(r, c) = mA(c, r);
	for (Eigen::Index r = 0; r < m; r++) {
		for (Eigen::Index c = 0; c < m; c++)
			mA(rows[(std::size_t)r], rows[(std::size_t)c]) =
			    block(r, c);
		mA(rows[(std::size_t)r], rows[(std::size_t)r]) =
		    at[(std::size_t)r].first->own_response(
		    at[(std::size_t)r].second, block(r, r));
	}
}

/*
 * block += G^T M^-1 G for the generalized impulses G on skeleton s of the
 * rows cols: M = sum J^T I J over its bodies (each body's Jacobian and
 * spatial inertia in its frame), as DART's articulated inertias give it,
 * over the degrees of freedom DART moves by forces; those it moves as
 * prescribed (a kinematic link's) take no impulse. One Cholesky
 * factorisation L of M then gives G^T M^-1 G = (L^-1 G)^T (L^-1 G):
 * DART's own inverse mass matrix costs a pass over the skeleton for each
 * degree of freedom. False: M is not positive definite.
 */
bool
Solver::add_response(const dd::Skeleton *s,
    const std::vector<Eigen::Index> &cols)
{
	const Eigen::Index nd = (Eigen::Index)s->getNumDofs();
	const Eigen::Index m = (Eigen::Index)cols.size();
	std::vector<Eigen::Index> dyn((std::size_t)nd, -1);
	Eigen::Index k = 0;

	for (Eigen::Index i = 0; i < nd; i++)
		if (s->getDof((std::size_t)i)->getJoint()->isDynamic())
			dyn[(std::size_t)i] = k++;
	mass.setZero(k, k);
	for (std::size_t b = 0; b < s->getNumBodyNodes(); b++)
		add_body_mass(s->getBodyNode(b), dyn);
	g.setZero(nd, m);
	for (Eigen::Index c = 0; c < m; c++) {
		const auto &row = at[(std::size_t)cols[(std::size_t)c]];

		row.first->add_generalized(row.second, s, g.col(c));
	}
	mg.resize(k, m);
	for (Eigen::Index i = 0; i < nd; i++)
		if (dyn[(std::size_t)i] >= 0)
			mg.row(dyn[(std::size_t)i]) = g.row(i);
	chol.compute(mass);
	if (chol.info() != Eigen::Success)
		return false;
	chol.matrixL().solveInPlace(mg);
	/* its lower triangle, half the products of the whole */
	part.setZero(m, m);
	part.selfadjointView<Eigen::Lower>().rankUpdate(mg.transpose());
	for (Eigen::Index r = 0; r < m; r++)
		for (Eigen::Index c = 0; c < m; c++)
			block(cols[(std::size_t)r], cols[(std::size_t)c]) +=
			    c <= r ? part(r, c) : part(c, r);
	return true;
}

/* J^T I J of body n into the mass matrix, over the degrees of freedom
 * it depends on that DART moves by forces (dyn: their rows, or -1): its
 * lower triangle, all the factorisation reads (dofs are in order, and
 * dyn with them). */
void
Solver::add_body_mass(const dd::BodyNode *n,
    const std::vector<Eigen::Index> &dyn)
{
	const std::vector<std::size_t> &dofs = n->getDependentGenCoordIndices();
	const dart::math::Jacobian &J = n->getJacobian();

	ij.noalias() = n->getSpatialInertia() * J;
	for (std::size_t c = 0; c < dofs.size(); c++) {
		Eigen::Index r = dyn[dofs[c]];

		for (std::size_t d = 0; r >= 0 && d <= c; d++)
			if (dyn[dofs[d]] >= 0)
				mass(r, dyn[dofs[d]]) += J.col((Eigen::Index)
				    c).dot(ij.col((Eigen::Index)d));
	}
}

/* The primary solver, then where it fails or gives what is not a number
 * the secondary (when there is one: PGS alone has none) on the problem as
 * posed; false: no solution. */
bool
Solver::solve_lcp()
{
	const int n = (int)mX.size();
	const bool second = mSecondaryBoxedLcpSolver != nullptr;
	bool ok;

	if (second) {
		mABackup = mA;
		mXBackup = mX;
		mBBackup = mB;
		mLoBackup = mLo;
		mHiBackup = mHi;
		mFIndexBackup = mFIndex;
	}
	ok = mBoxedLcpSolver->solve(n, mA.data(), mX.data(), mB.data(), 0,
	    mLo.data(), mHi.data(), mFIndex.data(), second) && !mX.hasNaN();
	if (!ok && second) {
		mSecondaryBoxedLcpSolver->solve(n, mABackup.data(),
		    mXBackup.data(), mBBackup.data(), 0, mLoBackup.data(),
		    mHiBackup.data(), mFIndexBackup.data(), false);
		mX = mXBackup;
	}
	return !mX.hasNaN();
}

/* ---- the engine's state ---- */

struct dlink {
	dd::SkeletonPtr skel;		/* its tree's, or its own when static */
	dd::BodyNode *body = nullptr;
	dd::Joint *joint = nullptr;	/* the DART joint above it */
	int tree_joint = -1;		/* the phys joint that is, -1: free */
	bool is_static = false, kinematic = false;
	double mass = 0, inertia[6] = { 0, 0, 0, 0, 0, 0 };	/* as run */
	std::vector<dd::ShapeNode *> shapes;	/* per collision, null: none */
	phys_vec3 force{ 0, 0, 0 }, torque{ 0, 0, 0 };	/* the run's */
	/* On a body nothing moves: the last step's contact impulses, which
	 * its joint takes (its frame, about its origin). */
	Eigen::Vector6d still_impulse = Eigen::Vector6d::Zero();
	/* A kinematic link's velocities, held: its origin's and its turn,
	 * in the world; where they take it in the step being taken. */
	Eigen::Vector3d kin_lin{ 0, 0, 0 }, kin_ang{ 0, 0, 0 };
	Eigen::Isometry3d kin_next = Eigen::Isometry3d::Identity();
};

enum jkind { J_NONE, J_TREE, J_LOOP, J_COUPLING };

struct djoint {
	jkind kind = J_NONE;
	dd::Joint *dj = nullptr;	/* a tree joint's */
	std::shared_ptr<Loop> loop;
	std::shared_ptr<Coupling> coupling;
	struct phys_joint_frames f;	/* where it was at load */
	phys_vec3 xyz[2];		/* the axis values it was set up from */
	double offset[2] = { 0, 0 };	/* positions when the axes last changed */
	double applied[2] = { 0, 0 };	/* a loop's spring and damping, last step */
	double cmd[2] = { 0, 0 };	/* the command's effort, phys's axes */
	struct phys_axis_servo servo = {};	/* axis 0's, if a servo */
	/* An implicit servo's row, this step's when servo_held, and the
	 * force held beside it (its range's middle). */
	std::shared_ptr<Coupling> servo_row;
	bool servo_held = false;
	double servo_middle = 0;
	/* A loop's turns, unwrapped (its poses give them modulo 2 pi), and
	 * the raw angles they were last taken from. */
	double turned[2] = { 0, 0 }, raw[2] = { 0, 0 };
	double lead = 0;		/* a screw's travel per radian */
	std::shared_ptr<BallRange> range;	/* a ball's, once limited */
};

/* Which collisions may touch: phys's rules, on DART's collision objects. */
class Filter : public dc::CollisionFilter {
public:
	Filter(const dart_engine *e_, std::vector<std::pair<int, int>> *own_)
	    : e(e_), own(own_) {}
	bool ignoresCollision(const dc::CollisionObject *o1,
	    const dc::CollisionObject *o2) const override;
private:
	const dart_engine *e;
	std::vector<std::pair<int, int>> *own;	/* pairs phys collides */
};

/* A tree joint's axis found past a limit, until it is back within. */
struct stop {
	dd::Joint *joint;
	std::size_t dof;
	bool upper;		/* past the upper limit (else the lower) */
	double bound;		/* the limit, DART's coordinate */
	std::shared_ptr<Coupling> row;
};

/* A mesh collision's triangles at the run's sizes, in its shape's frame,
 * and each one's neighbours (phys_mesh_neighbours): for the normals of
 * its contacts at their edges (smooth_edge). */
struct mesh_edges {
	struct phys_mesh *m;
	int *nb;
	/* the triangles near a point (ode_mesh_normal), made when first
	 * asked */
	struct phys_mesh_grid *grid = nullptr;

	explicit mesh_edges(const struct phys_mesh *of) :
	    m(phys_mesh_scaled(of, v3(1, 1, 1))),
	    nb(phys_mesh_neighbours(m)) {}
	~mesh_edges()
	{
		phys_mesh_free(m);
		free(nb);
		phys_mesh_grid_free(grid);
	}
	mesh_edges(const mesh_edges &) = delete;
	mesh_edges &operator=(const mesh_edges &) = delete;
};

struct dart_engine {
	const struct phys_scene *w;
	const struct phys_run_values *v;	/* the run's: every parameter */
	bool skip_unsupported = false;
	bool commanded = false;			/* some joint has had a command */
	bool pushed = false;			/* some link has had a force */
	bool thrown = false;			/* DART threw in a build or step */
	std::shared_ptr<dart::simulation::World> world;
	Solver *solver = nullptr;		/* the world's */
	std::vector<dlink> links;
	std::vector<djoint> joints;
	std::vector<dd::SkeletonPtr> trees;
	std::unordered_map<const dd::ShapeFrame *, int> collision_of;
	/* Per collision that collides as a convex hull: its vertices in its
	 * shape's frame, at the run's sizes (hull_contact); empty for the
	 * others. */
	std::vector<std::vector<Eigen::Vector3d>> hull;
	/* and its faces' planes, outward normal and distance (own_points) */
	std::vector<std::vector<double>> hull_planes;
	/* Per collision that collides as its triangles under FCL; null for
	 * the others. */
	std::vector<std::unique_ptr<mesh_edges>> edges;
	std::string detector_name;		/* as the profile names it */
	std::string detector_used;		/* the one running */
	bool fcl = false;			/* it is FCL: asked once, not
						 * per pair of a step */
	dc::CollisionDetectorPtr detector;
	std::shared_ptr<dc::CollisionGroup> group;
	std::shared_ptr<Filter> filter;
	/* Under FCL, the meshes, cylinders and planes whose points phys finds
	 * (plane_pair): collision indices. */
	std::vector<int> plane_solids, planes;
	/* Under FCL, each cylinder's triangles of a mesh it had points on
	 * at the last step (cylinder_triangle_points), by cylinder and
	 * mesh. */
	std::map<std::pair<int, int>, std::set<int>> cylinder_triangles;
	/* Under FCL, this step's pairs of a cylinder and a box, cylinder or
	 * sphere whose bounding boxes meet (own_pair), lower collision
	 * first. */
	std::vector<std::pair<int, int>> own_pairs;
	dc::CollisionResult result;
	std::vector<dk::ConstraintBasePtr> lasting;	/* loops, couplings,
							 * welds */
	/* The contacts of the steps so far, the first contacts_used this
	 * step's: each step sets them anew rather than allocating its
	 * own, its rows' room and all. */
	std::vector<std::shared_ptr<Contact>> contacts;
	std::size_t contacts_used = 0;
	/* The run's welds: DART's weld constraints, made at run time. */
	struct weld {
		int parent, child;
		dk::ConstraintBasePtr c;
	};
	std::vector<weld> welds;
	std::vector<struct stop> stops;	/* axes past a limit, pushed back */
	bool find_stops = true;		/* look for them before the next step */

	double step = 0.001;
	int max_contacts = 20;
	int ncontacts = 0;

	dart_engine(const struct phys_scene *world_,
	    const struct phys_run_values *v_) : w(world_), v(v_) {}
};

PHYS_ENGINE_FUNCTIONS(dart_engine)

/* The run's values of a scope (idx: the entity): every parameter the
 * engine reads comes from here, never from the loaded world. */
const struct phys_value *
vals(const dart_engine *e, phys_scope s, int idx)
{
	return phys_run_values_get(e->v, s, idx);
}

/*
 * A universal or revolute2 joint's axes as ODE turns them: the first with
 * the child, the second with the parent. DART's universal joint and the
 * joint frames (engine_common.h) turn their first with the parent, so
 * inside this engine such a joint's axes are swapped, a revolute2's
 * second reversed (ODE measures its hinge-2's second angle the other way
 * round): the engine's axis inner(j, k) is phys's axis k, and positions,
 * limits and springs need no change of sign.
 */
bool
swapped(const struct phys_joint *j)
{
	return j->type == PHYS_JOINT_UNIVERSAL ||
	    j->type == PHYS_JOINT_REVOLUTE2;
}

int
inner(const struct phys_joint *j, int k)
{
	return swapped(j) ? 1 - k : k;
}

/* j with its axes as this engine turns them. */
struct phys_joint
inner_axes(const struct phys_joint *j)
{
	struct phys_joint in = *j;

	if (swapped(j)) {
		in.axis[0] = j->type == PHYS_JOINT_REVOLUTE2 ?
		    v3_scale(j->axis[1], -1) : j->axis[1];
		in.axis[1] = j->axis[0];
	}
	return in;
}

/* ---- loops ---- */

phys_pose link_pose(const dart_engine *e, int li);
int loop_state(const dart_engine *e, int ji, double pos[2], double vel[2]);
int inner_state(const dart_engine *e, int ji, double pos[2], double vel[2]);

Loop::Loop(dart_engine *e_, int joint_, dd::BodyNode *a_, dd::BodyNode *b_,
    phys_pose fa_, phys_pose fb_) : TwoBody(a_, b_), e(e_), joint(joint_),
    fa(fa_), fb(fb_)
{
	int c = e->w->joints[joint].child;

	a_child = c >= 0 && e->links[(size_t)c].body == a;
}

const std::string &
Loop::getType() const
{
	static const std::string type = "phys loop joint";

	return type;
}

/*
 * A ball's friction, a row on each of the joint frame's axes (the
 * child's side, rchi), and its range, a row along its turn's axis pushing
 * back past it (phys_ball_turn), as a tree ball has them; sign turns a
 * rate of the child's turn into a's.
 */
void
Loop::ball_rows(const Eigen::Matrix3d &rchi, double sign)
{
	const struct phys_joint *j = &e->w->joints[joint];
	struct phys_axis_values a = phys_joint_axis_values(vals(e,
	    PHYS_S_JOINT, joint), 0);
	double f = a.friction * e->step, turn;
	double range = phys_ball_range(vals(e, PHYS_S_JOINT, joint));
	phys_vec3 n;

	for (int k = 0; f > 0 && k < 3; k++)
		row(rchi.col(k), true, 0, -f, f);
	turn = phys_ball_turn(e->w, joint, link_pose(e, j->child).q,
	    link_pose(e, j->parent).q, &n);
	if (phys_has_upper(range) && turn > range)
		row(sign * ev(n), true, turn - range, -INFINITY, 0);
}

void
Loop::row(const Eigen::Vector3d &u, bool ang, double error, double l, double h)
{
	dir.push_back(u);
	angular.push_back(ang);
	err.push_back(error);
	lo.push_back(l);
	hi.push_back(h);
}

phys_pose
body_pose(const dd::BodyNode *n)
{
	return n ? pp(n->getWorldTransform()) : PHYS_POSE_IDENTITY;
}

/*
 * The rows for this step: positions where the joint holds them (the
 * joint frames' gap and turn), then for each free axis its friction
 * (impulse within friction times the step) and a limit reached. A free
 * axis's rows run along the joint's position (minus the axis when a is
 * the parent's body).
 */
void
Loop::update()
{
	const struct phys_joint *j = &e->w->joints[joint];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, joint);
	const struct phys_joint_frames *f = &e->joints[(size_t)joint].f;
	phys_pose ja_ = phys_pose_mul(body_pose(a), fa);
	phys_pose jb_ = b ? phys_pose_mul(body_pose(b), fb) : fb;
	Eigen::Matrix3d ra = iso(ja_).linear(), rb = iso(jb_).linear();
	/* The axes in the joint frame: the first with the parent's side,
	 * the second with the child's. */
	Eigen::Matrix3d rj = iso(j->pose).linear().transpose();
	struct phys_joint in = inner_axes(j);
	Eigen::Vector3d a1 = (rj * ev(in.axis[0])).normalized();
	Eigen::Vector3d a2 = (rj * ev(in.axis[1])).normalized();
	Eigen::Matrix3d rpar = a_child ? rb : ra, rchi = a_child ? ra : rb;
	Eigen::Vector3d gap = ev(ja_.p) - ev(jb_.p);
	/* The turn taking b's joint frame to a's, small when held. */
	Eigen::AngleAxisd turn(rb.transpose() * ra);
	Eigen::Vector3d rot = rb * (turn.axis() * turn.angle());
	Eigen::Vector3d x = rpar * a1, axis[2];
	double pos[2], vel[2], fr[2], l[2], u[2], sign = a_child ? 1 : -1;
	int free_axes;

	dir.clear(), angular.clear(), err.clear(), lo.clear(), hi.clear();
	anchor = ev(ja_.p);
	free_axes = loop_state(e, joint, pos, vel);
	for (int k = 0; k < 2; k++)
		axis[k] = ev(phys_joint_frames_axis(f, link_pose(e, j->parent),
		    k, pos[0])).normalized();
	/* Linear rows: all three but along a prismatic axis. */
	for (int k = 0; k < 3; k++) {
		Eigen::Vector3d d = Eigen::Vector3d::Unit(k);

		if (j->type == PHYS_JOINT_PRISMATIC) {
			Eigen::Vector3d y = x.unitOrthogonal(), z = x.cross(y);

			if (k == 0)
				continue;
			d = k == 1 ? y : z;
		}
		row(d, false, d.dot(gap), -INFINITY, INFINITY);
	}
	/* Angular rows: none for a ball, all for fixed and prismatic; two
	 * keep a revolute axis, one the angle between a universal's. */
	switch (j->type) {
	case PHYS_JOINT_FIXED:
	case PHYS_JOINT_PRISMATIC:
		for (int k = 0; k < 3; k++)
			row(Eigen::Vector3d::Unit(k), true,
			    Eigen::Vector3d::Unit(k).dot(rot), -INFINITY,
			    INFINITY);
		break;
	case PHYS_JOINT_REVOLUTE: {
		Eigen::Vector3d xa = ra * a1, xb = rb * a1;
		Eigen::Vector3d y = xb.unitOrthogonal(), z = xb.cross(y);
		Eigen::Vector3d miss = xb.cross(xa);

		row(y, true, y.dot(miss), -INFINITY, INFINITY);
		row(z, true, z.dot(miss), -INFINITY, INFINITY);
		break;
	}
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2: {
		Eigen::Vector3d p1 = rpar * a1, c2 = rchi * a2;
		Eigen::Vector3d n = p1.cross(c2);

		/* a1 . a2 stays as loaded; it changes at -(w_child -
		 * w_parent) . (a1 x a2). */
		if (n.norm() > 1e-9)
			row(n.normalized(), true, -sign * (p1.dot(c2) -
			    a1.dot(a2)) / n.norm(), -INFINITY, INFINITY);
		break;
	}
	default:
		break;
	}
	for (int k = 0; k < 2; k++) {
		struct phys_axis_values a = phys_joint_axis_values(v, k);

		fr[inner(j, k)] = a.friction;
		l[inner(j, k)] = a.lower;
		u[inner(j, k)] = a.upper;
	}
	for (int k = 0; k < free_axes; k++) {
		bool lin = j->type == PHYS_JOINT_PRISMATIC;
		Eigen::Vector3d d = sign * axis[k];
		double h = e->step;

		if (fr[k] > 0)
			row(d, !lin, 0, -fr[k] * h, fr[k] * h);
		/* Past a limit, the row pushes back only: error is how far. */
		if (phys_has_lower(l[k]) && pos[k] < l[k])
			row(d, !lin, pos[k] - l[k], 0, INFINITY);
		else if (phys_has_upper(u[k]) && pos[k] > u[k])
			row(d, !lin, pos[k] - u[k], -INFINITY, 0);
	}
	if (j->type == PHYS_JOINT_BALL)
		ball_rows(rchi, sign);
	rows(dir.size());
	for (std::size_t i = 0; i < mDim; i++) {
		if (angular[i])
			angular_row(i, dir[i]);
		else
			linear_row(i, dir[i], anchor);
		cfm[i] = dk::JointConstraint::getConstraintForceMixing();
		soft[i] = LOOP_SOFTNESS;
	}
}

/* Each row's error is corrected by LOOP_ERP a step. */
void
Loop::getInformation(dk::ConstraintInfo *info)
{
	for (std::size_t i = 0; i < mDim; i++) {
		info->b[i] = -rate(i) - LOOP_ERP * err[i] * info->invTimeStep;
		info->x[i] = 0;
		info->lo[i] = lo[i];
		info->hi[i] = hi[i];
		info->findex[i] = -1;
		/* a friction row holds the rate at zero */
		if (lo[i] > -INFINITY && hi[i] < INFINITY)
			info->b[i] = -rate(i);
	}
}

/* ---- collisions ---- */

int
refuse_shape(const struct phys_collision *c, const char *why)
{
	return phys_failat(PHYS_AT(c->doc, c->node),
	    "collision '%s': %s", c->name, why);
}

/*
 * phys's triangles as an assimp scene, which DART's MeshShape owns. DART's
 * ODE collision detector hands ODE the scene's vertex normals where ODE
 * takes one normal per triangle: for it each triangle gets vertices of its
 * own and the first normals are the triangles' (so ODE reads within the
 * array, and reads normals that are right).
 */
const aiScene *
scene_of(const struct phys_mesh *m, bool for_ode)
{
	auto *s = new aiScene();
	auto *mesh = new aiMesh();
	size_t nv = for_ode ? 3 * m->ntri : m->nv;

	s->mRootNode = new aiNode();
	s->mRootNode->mNumMeshes = 1;
	s->mRootNode->mMeshes = new unsigned[1] { 0 };
	s->mNumMeshes = 1;
	s->mMeshes = new aiMesh *[1] { mesh };
	s->mNumMaterials = 1;
	s->mMaterials = new aiMaterial *[1] { new aiMaterial() };
	mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
	mesh->mNumVertices = (unsigned)nv;
	mesh->mVertices = new aiVector3D[nv];
	mesh->mNumFaces = (unsigned)m->ntri;
	mesh->mFaces = new aiFace[m->ntri];
	if (for_ode)
		mesh->mNormals = new aiVector3D[nv];
	for (size_t i = 0; !for_ode && i < m->nv; i++)
		mesh->mVertices[i] = aiVector3D((ai_real)m->v[3 * i],
		    (ai_real)m->v[3 * i + 1], (ai_real)m->v[3 * i + 2]);
	for (size_t i = 0; i < m->ntri; i++) {
		aiFace &f = mesh->mFaces[i];
		unsigned k[3];

		for (int c = 0; c < 3; c++)
			k[c] = for_ode ? (unsigned)(3 * i + (size_t)c) :
			    m->tri[3 * i + (size_t)c];
		f.mNumIndices = 3;
		f.mIndices = new unsigned[3] { k[0], k[1], k[2] };
		if (!for_ode)
			continue;
		for (int c = 0; c < 3; c++) {
			const double *p = &m->v[3 * m->tri[3 * i + (size_t)c]];

			mesh->mVertices[k[c]] = aiVector3D((ai_real)p[0],
			    (ai_real)p[1], (ai_real)p[2]);
		}
		aiVector3D n = (mesh->mVertices[k[1]] - mesh->mVertices[k[0]]) ^
		    (mesh->mVertices[k[2]] - mesh->mVertices[k[0]]);
		mesh->mNormals[i] = n.Length() > 0 ? n.Normalize() : n;
	}
	return s;
}

/* A heightmap's surface as triangles (phys_heightmap_triangles), for the
 * detectors without terrain: its every cell, in m (free its arrays). */
void
terrain_triangles(const struct phys_heightmap *hm, struct phys_mesh &m)
{
	phys_heightmap_triangles(hm, 0, 0, hm->nx - 1, hm->ny - 1, &m);
}

const aiScene *
terrain_scene(const struct phys_heightmap *hm, bool for_ode)
{
	struct phys_mesh m;
	const aiScene *sc;

	terrain_triangles(hm, m);
	sc = scene_of(&m, for_ode);
	free(m.v);
	free(m.tri);
	return sc;
}

/*
 * The DART shape of collision c (sized as the run's values say) and where
 * it sits in its link's frame; null with *why when the detector running
 * cannot collide it.
 */
dd::ShapePtr
make_shape(dart_engine *e, const struct phys_collision *c, phys_pose *at,
    const char **why)
{
	const std::string &d = e->detector_used;
	bool ode = d == "ode", dartcd = d == "dart";

	*why = nullptr;
	if (phys_collision_zero_size(c)) {
		/* DART's shapes assert positive sizes: it would abort */
		*why = PHYS_ZERO_SIZE_WHY("DART");
		return nullptr;
	}
	switch (c->shape) {
	case PHYS_GEOM_BOX:
		return std::make_shared<dd::BoxShape>(Eigen::Vector3d(c->size[0],
		    c->size[1], c->size[2]));
	case PHYS_GEOM_SPHERE:
		/* FCL's sphere meets a mesh as if the mesh were at the world's
		 * origin; its ellipsoid of equal radii meets it where it is. */
		if (d == "fcl")
			return std::make_shared<dd::EllipsoidShape>(Eigen::Vector3d(
			    2 * c->size[0], 2 * c->size[0], 2 * c->size[0]));
		return std::make_shared<dd::SphereShape>(c->size[0]);
	case PHYS_GEOM_CYLINDER:
		if (dartcd)
			break;
		return std::make_shared<dd::CylinderShape>(c->size[0],
		    c->size[1]);
	case PHYS_GEOM_CAPSULE:
		if (!ode)
			break;
		return std::make_shared<dd::CapsuleShape>(c->size[0],
		    c->size[1]);
	case PHYS_GEOM_ELLIPSOID:
		if (d == "fcl")
			return std::make_shared<dd::EllipsoidShape>(2 *
			    Eigen::Vector3d(c->size[0], c->size[1], c->size[2]));
		if (ode)
			return std::make_shared<dd::MeshShape>(
			    Eigen::Vector3d::Ones(), scene_of(c->mesh, true));
		break;
	case PHYS_GEOM_MESH:
	case PHYS_GEOM_CONE:	/* its triangles, as DART's FCL makes them */
		if (dartcd)
			break;
		return std::make_shared<dd::MeshShape>(Eigen::Vector3d::Ones(),
		    scene_of(c->mesh, ode));
	case PHYS_GEOM_PLANE: {
		phys_vec3 n = v3_normalize(c->normal);

		if (ode)
			return std::make_shared<dd::PlaneShape>(ev(n), 0.0);
		/* A box below the plane: its top face through the frame's
		 * origin, its z along the normal. */
		phys_vec3 z = v3(0, 0, 1), ax = v3_cross(z, n);
		double s = v3_norm(ax), ang = atan2(s, v3_dot(z, n));
		phys_pose turn = PHYS_POSE_IDENTITY;

		if (s > 1e-12)
			turn.q = phys_quat_about(v3_scale(ax, 1 / s), ang);
		else if (v3_dot(z, n) < 0)
			turn.q = phys_quat_about(v3(1, 0, 0), M_PI);
		turn.p = v3_scale(n, -PLANE_BOX / 2);
		*at = phys_pose_mul(*at, turn);
		return std::make_shared<dd::BoxShape>(Eigen::Vector3d(PLANE_BOX,
		    PLANE_BOX, PLANE_BOX));
	}
	case PHYS_GEOM_HEIGHTMAP: {
		const struct phys_heightmap *hm = c->heightmap;

		/* triangles under ODE's detector too: ODE's height field
		 * let balls rolling over a bumpy one 5 cm into it, capsules
		 * to their axes and a cylinder 12 cm */
		if (dartcd)
			break;
		return std::make_shared<dd::MeshShape>(
		    Eigen::Vector3d::Ones(), terrain_scene(hm, ode));
	}
	}
	*why = d == "dart" ? "DART's dart collision detector collides boxes "
	    "and spheres only (<collision_detector>ode</collision_detector> "
	    "collides it)" : "DART's fcl collision detector has no capsule "
	    "(<collision_detector>ode</collision_detector> collides it)";
	return nullptr;
}

/* DART keeps a heightmap as a triangle mesh (fcl) or a copy of its
 * heights, about 1.5 KB a sample with the collision structures: a
 * 1025 x 1025 terrain took 1.6 GB and 28 s to load, a 4097 x 4097 one
 * 5.3 GB before FCL asserted, twelve of 257 x 257 1.2 GB. The world's
 * heightmaps are bounded together. */
const size_t MAX_HEIGHTMAP_SAMPLES = 1u << 17;

/*
 * What DART and FCL take for a triangle of a mesh or a heightmap, in
 * address space, more than measured so that a world let through surely
 * fits: 320,000 triangles of a mesh took 880 B each, phys's own copy and
 * grid (about 300 B) among them. FCL builds a mesh's tree with
 * allocations whose failure it does not pass on: within a limit that cut
 * the tree short, a ball reaching a 257 x 257 terrain crashed the program
 * at the first contact.
 */
#define TRIANGLE_BYTES 1024.0

/* The triangles DART is given for collision c: a mesh's, a cone's, a
 * heightmap's two a cell; 0 for every other shape. */
size_t
collision_triangles(const struct phys_collision *c)
{
	const struct phys_heightmap *hm = c->heightmap;

	if ((c->shape == PHYS_GEOM_MESH || c->shape == PHYS_GEOM_CONE) &&
	    c->mesh)
		return c->mesh->ntri;
	if (c->shape == PHYS_GEOM_HEIGHTMAP && hm && hm->nx > 1 && hm->ny > 1)
		return 2 * (hm->nx - 1) * (hm->ny - 1);
	return 0;
}

/* The world's triangles within the room the process's memory limit
 * leaves, or refused at the collision whose triangles pass it. */
int
triangles_within_room(const struct phys_scene *w)
{
	double left, limit, sum = 0, all = 0;
	char said[128];
	size_t ci;

	for (ci = 0; ci < w->ncollisions; ci++)
		all += (double)collision_triangles(&w->collisions[ci]);
	if (phys_mem_fits(all * TRIANGLE_BYTES, &left, &limit))
		return 0;
	for (ci = 0; ci < w->ncollisions; ci++) {
		const struct phys_collision *c = &w->collisions[ci];
		size_t n = collision_triangles(c);

		if ((sum += (double)n) * TRIANGLE_BYTES <= left)
			continue;
		return phys_failat(PHYS_AT(c->doc, c->node), "collision '%s': "
		    "the DART engine would take about %.0f MB for the world's "
		    "%.0f triangles of meshes and heightmaps (%zu of them this "
		    "collision's), more than %s: raise the limit, or run it "
		    "under ODE or Bullet", c->name,
		    ceil(all * TRIANGLE_BYTES / 1048576), all, n,
		    phys_mem_left_text(said, sizeof said, left, limit));
	}
	return 0;
}

/* Triangle k of mesh m, placed at at, into v: its winding normal. */
Eigen::Vector3d
world_triangle(const struct phys_mesh *m, const Eigen::Isometry3d &at,
    int k, Eigen::Vector3d v[3])
{
	for (int j = 0; j < 3; j++) {
		const double *q = m->v + 3 * (size_t)m->tri[3 * k + j];

		v[j] = at * Eigen::Vector3d(q[0], q[1], q[2]);
	}
	return (v[1] - v[0]).cross(v[2] - v[0]);
}

/* Collision ci's hull vertices, when c (as the run has it) is a hull. */
void
keep_hull(dart_engine *e, int ci, const struct phys_collision *c)
{
	std::vector<Eigen::Vector3d> &h = e->hull[(size_t)ci];
	std::vector<double> &pl = e->hull_planes[(size_t)ci];
	Eigen::Vector3d mid = Eigen::Vector3d::Zero();
	double plane[4];

	h.clear();
	pl.clear();
	if (!c->hull || !c->mesh)
		return;
	for (size_t i = 0; i < c->mesh->nv; i++) {
		h.emplace_back(c->mesh->v[3 * i], c->mesh->v[3 * i + 1],
		    c->mesh->v[3 * i + 2]);
		mid += h.back() / (double)c->mesh->nv;
	}
	for (size_t k = 0; k < c->mesh->ntri; k++)
		if (phys_hull_plane(c->mesh, k, pv(mid), plane))
			pl.insert(pl.end(), plane, plane + 4);
}

/* Collision ci's triangles and their neighbours, where the detector
 * collides it as triangles: a mesh's or a heightmap's
 * (terrain_triangles). */
void
keep_edges(dart_engine *e, int ci, const struct phys_collision *c)
{
	struct phys_mesh m;

	e->edges[(size_t)ci].reset();
	if (c->shape == PHYS_GEOM_MESH && !c->hull && c->mesh)
		e->edges[(size_t)ci].reset(new mesh_edges(c->mesh));
	if (c->shape == PHYS_GEOM_HEIGHTMAP && c->heightmap) {
		terrain_triangles(c->heightmap, m);
		e->edges[(size_t)ci].reset(new mesh_edges(&m));
		free(m.v);
		free(m.tri);
	}
}

/*
 * The link's shapes, made again at the run's sizes for the detector
 * running; the old ones leave the collision group with their nodes.
 */
int
attach_shapes(dart_engine *e, int li, bool at_load)
{
	const struct phys_link *l = &e->w->links[li];
	dlink &dl = e->links[(size_t)li];
	std::vector<dd::ShapePtr> made((size_t)l->ncollisions);
	std::vector<phys_pose> where((size_t)l->ncollisions);

	for (int k = 0; k < l->ncollisions; k++) {
		const struct phys_collision *c0 =
		    &e->w->collisions[l->first_collision + k];
		struct phys_collision c;
		struct phys_mesh *m;
		const char *why;

		if (!dl.is_static && (c0->shape == PHYS_GEOM_PLANE ||
		    c0->shape == PHYS_GEOM_HEIGHTMAP))
			return refuse_shape(c0, c0->shape == PHYS_GEOM_PLANE ?
			    "a plane must belong to a static model" :
			    "a heightmap must belong to a static model");
		if (phys_engine_collision(c0, vals(e, PHYS_S_COLLISION,
		    l->first_collision + k), &c, &m) < 0)
			return -1;
		where[(size_t)k] = c.pose;
		made[(size_t)k] = make_shape(e, &c, &where[(size_t)k], &why);
		keep_hull(e, l->first_collision + k, &c);
		keep_edges(e, l->first_collision + k, &c);
		phys_mesh_free(m);	/* DART holds its own copy */
		if (made[(size_t)k])
			continue;
		if (!e->skip_unsupported)
			return phys_failat(PHYS_AT(c0->doc, c0->node),
			    "collision '%s': %s (--skip-unsupported skips it)",
			    c0->name, why);
		if (at_load)
			phys_warnat(PHYS_AT(c0->doc, c0->node),
			    "skipping collision '%s': %s", c0->name, why);
	}
	for (auto *s : dl.shapes)
		if (s) {
			e->collision_of.erase(s);
			if (e->group)
				e->group->removeShapeFrame(s);
			s->remove();
		}
	dl.shapes.assign((size_t)l->ncollisions, nullptr);
	for (int k = 0; k < l->ncollisions; k++) {
		if (!made[(size_t)k])
			continue;
		dd::ShapeNode *s = dl.body->createShapeNode(made[(size_t)k]);

		s->setRelativeTransform(iso(where[(size_t)k]));
		dl.shapes[(size_t)k] = s;
		e->collision_of[s] = l->first_collision + k;
		if (e->group)
			e->group->addShapeFrame(s);
	}
	return 0;
}

/*
 * Whether FCL collides shape g as triangles whose points on a plane phys
 * finds itself (plane_points): a mesh, as FCL gives every triangle that
 * meets the plane, and DART then compares each point with every other two
 * of the pair (the cube of their number: a cube of 6,144 triangles
 * resting on a face took 0.3 s a step); a cylinder, which DART makes a
 * prism of 16 sides: rolling on them, a wheel lost a quarter of its
 * travel.
 */
bool
plane_solid(enum phys_geometry g)
{
	return g == PHYS_GEOM_MESH || g == PHYS_GEOM_CYLINDER;
}

/* Whether collisions c1 and c2 are such a shape and a plane. */
bool
plane_pair(const dart_engine *e, int c1, int c2)
{
	enum phys_geometry a = e->w->collisions[c1].shape;
	enum phys_geometry b = e->w->collisions[c2].shape;

	return e->fcl && ((plane_solid(a) && b == PHYS_GEOM_PLANE) ||
	    (a == PHYS_GEOM_PLANE && plane_solid(b)));
}

/*
 * Whether collisions c1 and c2 are a cylinder and a box, a cylinder, a
 * sphere or a convex hull, or a hull and a box or a sphere, under FCL,
 * whose points phys finds (own_points). FCL 0.7's points for them were
 * wrong: a cylinder standing or lying on another's end got points 1 cm
 * deep before it touched, shallower as it sank, and fell through it; a
 * sphere on a cylinder's end two points with normals 0.8 off the end's;
 * a box on a cylinder's end two points, on which it rocked and sank at
 * 2 mm/s; a hull sliding on a cylinder's end normals into the end, and
 * it slid 2.8 times as far as friction lets it; a box on a sloping hull
 * slid 7% too far.
 */
bool
own_pair(const dart_engine *e, int c1, int c2)
{
	enum phys_geometry a = e->w->collisions[c1].shape;
	enum phys_geometry b = e->w->collisions[c2].shape;
	auto convex = [](enum phys_geometry g) {
		return g == PHYS_GEOM_BOX || g == PHYS_GEOM_CYLINDER ||
		    g == PHYS_GEOM_SPHERE;
	};

	bool h1 = !e->hull[(size_t)c1].empty();
	bool h2 = !e->hull[(size_t)c2].empty();

	/* a cylinder with any of them, a hull with a box or a sphere */
	if (!e->fcl || (a != PHYS_GEOM_CYLINDER && b != PHYS_GEOM_CYLINDER &&
	    h1 == h2))
		return false;
	return (convex(a) || h1) && (convex(b) || h2);
}

/* Gazebo's rules (phys_collisions_may_touch), and no link with itself,
 * none with a link a joint keeps it apart from (phys_joint_keeps_apart),
 * no two static links. */
bool
pair_excluded(const dart_engine *e, int c1, int c2)
{
	const struct phys_scene *w = e->w;
	int k1 = w->collisions[c1].link, k2 = w->collisions[c2].link;

	if (k1 == k2 || (e->links[(size_t)k1].is_static &&
	    e->links[(size_t)k2].is_static))
		return true;
	for (size_t k = w->link_joints_at[k1]; k < w->link_joints_at[k1 + 1];
	    k++) {
		const struct phys_joint *j = &w->joints[w->link_joints[k]];

		if (j->type != PHYS_JOINT_GEARBOX &&
		    phys_joint_keeps_apart(j) && (j->parent == k2 ||
		    j->child == k2))
			return true;
	}
	return !phys_collisions_may_touch(w, e->v, c1, c2);
}

int
collision_index(const dart_engine *e, const dc::CollisionObject *o)
{
	auto it = e->collision_of.find(o->getShapeFrame());

	return it == e->collision_of.end() ? -1 : it->second;
}

bool
Filter::ignoresCollision(const dc::CollisionObject *o1,
    const dc::CollisionObject *o2) const
{
	int c1 = collision_index(e, o1), c2 = collision_index(e, o2);

	if (c1 < 0 || c2 < 0 || pair_excluded(e, c1, c2) ||
	    plane_pair(e, c1, c2))
		return true;
	if (!own_pair(e, c1, c2))
		return false;
	own->emplace_back(std::min(c1, c2), std::max(c1, c2));
	return true;
}

/* The detector a profile names: DART's bullet one is Debian's build on
 * single-precision Bullet, which cannot share a program with phys's
 * double-precision Bullet engine. */
int
make_detector(dart_engine *e, bool at_load)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);
	std::string name = PVS(v, PHYSICS_dart_collision_detector);
	std::string used = name == "bullet" ? "ode" : name;

	if (name == e->detector_name && e->detector)
		return 0;
	if (name == "bullet")
		phys_warn_once("dart.collision_detector bullet: Debian's DART "
		    "collides with single-precision Bullet, which cannot share "
		    "a program with phys's Bullet engine; DART's ode collision "
		    "detector runs instead");
	e->detector_name = name;
	if (used == e->detector_used && e->detector)
		return 0;
	e->detector_used = used;
	e->fcl = used == "fcl";
	if (used == "ode")
		e->detector = dc::OdeCollisionDetector::create();
	else if (used == "dart")
		e->detector = dc::DARTCollisionDetector::create();
	else {
		auto fcl = dc::FCLCollisionDetector::create();

		/* FCL's own spheres, boxes and ellipsoids, not meshes of them */
		fcl->setPrimitiveShapeType(dc::FCLCollisionDetector::PRIMITIVE);
		e->detector = fcl;
	}
	e->group.reset();
	for (size_t i = 0; i < e->links.size(); i++)
		if (e->links[i].body && attach_shapes(e, (int)i, at_load) < 0)
			return -1;
	e->group = e->detector->createCollisionGroupAsSharedPtr();
	e->plane_solids.clear();
	e->cylinder_triangles.clear();
	e->planes.clear();
	for (auto &dl : e->links)
		for (auto *s : dl.shapes) {
			if (!s)
				continue;
			e->group->addShapeFrame(s);
			int ci = e->collision_of[s];
			enum phys_geometry g = e->w->collisions[ci].shape;

			if (e->fcl && plane_solid(g))
				e->plane_solids.push_back(ci);
			if (e->fcl && g == PHYS_GEOM_PLANE)
				e->planes.push_back(ci);
		}
	return 0;
}

/* ---- bodies ---- */

/*
 * A link's mass as every engine takes it (phys_link_mass_prepare), the
 * tensor as written unless raised to the floor; masses and moments
 * within DART_RANGE, masses from its inverse, principal moments within
 * 1e12 of each other (past either, a ball or universal joint's
 * articulated inertia is not a number, and DART aborts: an off-diagonal
 * 1e17 on moments of 1e-3 did).
 */
const struct phys_mass_rules dart_mass = {
	.engine = "DART",
	.form = PHYS_INERTIA_AS_WRITTEN,
	.stand_in = PHYS_STAND_IN_AT_LOAD,
	.range = DART_RANGE,
	.spread = 1e12,
};

/* Mass and inertia about the centre of mass in the link frame. */
int
set_mass(dart_engine *e, int li, bool at_load)
{
	dlink &dl = e->links[(size_t)li];
	struct phys_link_mass lm;
	int rc = phys_link_mass_prepare(e->w, e->v, li, &dart_mass, at_load,
	    phys_link_inertial_line(&e->w->links[li]), false, &lm);
	const phys_mat3 &I = lm.tensor;
	const phys_pose &ip = lm.frame;
	double mass = lm.mass;

	memcpy(dl.inertia, lm.given, sizeof dl.inertia);
	if (rc < 0)
		return -1;
	dl.inertia[0] = I.m[0][0], dl.inertia[1] = I.m[1][1];
	dl.inertia[2] = I.m[2][2], dl.inertia[3] = I.m[0][1];
	dl.inertia[4] = I.m[0][2], dl.inertia[5] = I.m[1][2];
	dl.mass = mass;
	if (!dl.body || dl.is_static)
		return 0;
	Eigen::Matrix3d m, r = iso(ip).linear();

	m << I.m[0][0], I.m[0][1], I.m[0][2], I.m[1][0], I.m[1][1], I.m[1][2],
	    I.m[2][0], I.m[2][1], I.m[2][2];
	dl.body->setInertia(dd::Inertia(mass, ev(ip.p), r * m * r.transpose()));
	return 0;
}

void
apply_link_flags(dart_engine *e, int li)
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	dlink &dl = e->links[(size_t)li];

	dl.body->setGravityMode(PVB(v, LINK_gravity));
	if (PVB(v, LINK_kinematic) && !dl.kinematic) {
		dl.kin_lin = dl.body->getLinearVelocity();
		dl.kin_ang = dl.body->getAngularVelocity();
	}
	dl.kinematic = PVB(v, LINK_kinematic);
	if (dl.tree_joint < 0)
		dl.joint->setActuatorType(dl.kinematic ? dd::Joint::VELOCITY :
		    dd::Joint::FORCE);
	else if (dl.kinematic)
		phys_warn_once("link '%s': DART holds a link kinematic only "
		    "when no joint holds it; it moves with its joint",
		    e->w->links[li].name);
}

/* ---- the trees ---- */

/* A link's pose: a static one's as loaded, a moving one's as DART has it. */
phys_pose
link_pose(const dart_engine *e, int li)
{
	if (li < 0)
		return PHYS_POSE_IDENTITY;
	if (!e->links[(size_t)li].body || e->links[(size_t)li].is_static)
		return e->w->links[li].pose;
	return pp(e->links[(size_t)li].body->getWorldTransform());
}

bool
is_static(const dart_engine *e, int li)
{
	return li < 0 || e->links[(size_t)li].is_static;
}

int
refuse_joint(const struct phys_joint *j, const char *why)
{
	return phys_failat(PHYS_AT(j->doc, j->node),
	    "joint '%s': %s", j->name, why);
}

/* True when link anc is an ancestor of link li (or li itself) along the
 * tree joints chosen so far. */
bool
ancestor(const dart_engine *e, const std::vector<int> &parent_joint, int anc,
    int li)
{
	for (int n = 0; li >= 0 && n <= (int)e->links.size(); n++) {
		if (li == anc)
			return true;
		if (parent_joint[(size_t)li] < 0)
			return false;
		li = e->w->joints[parent_joint[(size_t)li]].parent;
	}
	return false;
}

/* Whether DART runs axis values a of joint j: damping and spring
 * stiffness from 0 (it integrates them implicitly, which takes none
 * below 0; past PHYS_COEFF_MAX no engine runs them); else -1, saying so. */
int
dart_runs(const struct phys_joint *j, const struct phys_axis_values &a)
{
	if (a.damping >= 0 && a.stiffness >= 0)
		return 0;
	return phys_fail("joint '%s': DART runs damping and spring stiffness "
	    "from 0 (ODE and Bullet run negative ones), not %g and %g",
	    j->name, a.damping, a.stiffness);
}

/* The limits, damping, spring and friction of a tree joint's axes from
 * the run's values: DART's own joint coefficients. */
int
set_axes(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	djoint &dj = e->joints[(size_t)ji];
	dd::Joint *d = dj.dj;
	bool limited = false;

	for (std::size_t k = 0; k < d->getNumDofs() && k < 2; k++) {
		/* phys's axis2, or axis; a screw's one coordinate is its
		 * turn: its spring and friction are the first axis's */
		struct phys_axis_values a = phys_joint_axis_values(v,
		    inner(j, (int)k));
		double lo = a.lower, hi = a.upper, damping = a.damping;
		double stiff = a.stiffness, ref = a.reference, fr = a.friction;

		if (dart_runs(j, a) < 0)
			return -1;

		/* Positions count from the loaded configuration, or from
		 * where the axes last changed. */
		lo -= dj.offset[k], hi -= dj.offset[k], ref -= dj.offset[k];
		if (!(lo <= hi) || lo <= -PHYS_NO_LIMIT_FROM + std::fabs(dj.offset[k]))
			lo = -INFINITY;
		if (!(lo <= hi) || hi >= PHYS_NO_LIMIT_FROM - std::fabs(dj.offset[k]))
			hi = INFINITY;
		if (j->type == PHYS_JOINT_SCREW && PV(v, JOINT_axis_limit_lower)
		    ->given)
			lo = -INFINITY, hi = INFINITY;
		d->setPositionLowerLimit(k, lo);
		d->setPositionUpperLimit(k, hi);
		limited |= lo > -INFINITY || hi < INFINITY;
		d->setDampingCoefficient(k, damping);
		d->setSpringStiffness(k, stiff);
		d->setRestPosition(k, ref);
		d->setCoulombFriction(k, fr);
	}
	d->setLimitEnforcement(limited);
	e->find_stops = true;
	return 0;
}

/* A ball's damping, spring (to where it was loaded: its coordinates
 * zero) and Coulomb friction, its axis's, on each of its three turns.
 * Its range is a row of phys's own (BallRange), its upper limit read
 * each step: DART's limits would bound each coordinate, not the turn. */
static int
set_ball(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	struct phys_axis_values a = phys_joint_axis_values(vals(e,
	    PHYS_S_JOINT, ji), 0);
	dd::Joint *d = e->joints[(size_t)ji].dj;

	if (dart_runs(j, a) < 0)
		return -1;
	for (std::size_t k = 0; k < 3; k++) {
		d->setDampingCoefficient(k, a.damping);
		d->setSpringStiffness(k, a.stiffness);
		d->setRestPosition(k, 0);
		d->setCoulombFriction(k, a.friction);
	}
	return 0;
}

BallRange::BallRange(dart_engine *e_, int joint_, dd::Joint *d) :
    Coupling({ { d, 0, 0 }, { d, 1, 0 }, { d, 2, 0 } }, 0), e(e_),
    joint(joint_)
{
	hi = 0;
}

const std::string &
BallRange::getType() const
{
	static const std::string type = "phys ball range";

	return type;
}

/* The rate DART's joint limits (JointConstraint, 6.12) leave an axis
 * over past its limit (within it: over < 0): what reaches the limit at
 * the step's end; past their error allowance, back by their error
 * reduction parameter's share of the error a step, within their largest
 * correcting speed (DART's own take the allowance's share, none, and
 * hold an axis past its limit where it is). */
double
limit_rate(double over, double h)
{
	double past = over - dk::JointConstraint::getErrorAllowance();

	if (!(past > 0))
		return -over / h;
	return -std::min(std::min(past, dk::JointConstraint::
	    getErrorReductionParameter() * over) / h,
	    dk::JointConstraint::getMaxErrorReductionVelocity());
}

/* The turn as the step starts, the rate after its forces: the row along
 * the turn's axis, the rate it leaves, and whether it acts. */
void
BallRange::update()
{
	const struct phys_joint *j = &e->w->joints[joint];
	dd::Joint *d = t[0].joint;
	double upper = phys_ball_range(vals(e, PHYS_S_JOINT, joint));
	phys_vec3 axis;
	double turn = phys_ball_turn(e->w, joint, link_pose(e, j->child).q,
	    link_pose(e, j->parent).q, &axis), now = 0;
	/* the joint frame on the child's side, in the world */
	Eigen::Matrix3d rj = d->getChildBodyNode()->getWorldTransform()
	    .linear() * d->getTransformFromChildBodyNode().linear();
	Eigen::Vector3d n = rj.transpose() * ev(axis);

	for (std::size_t k = 0; k < 3; k++) {
		t[k].c = n[(Eigen::Index)k];
		now += t[k].c * d->getVelocity(k);
	}
	/* past the limit a row whatever the rate, as DART's: the other
	 * rows of the solve can turn it further (a chain of balls at
	 * their limits held the second 1 mrad past) */
	rate = limit_rate(turn - upper, e->step);
	active = turn > upper || now > rate;
}

bool
BallRange::isActive() const
{
	return active && Coupling::isActive();
}

/*
 * The DART joint of tree joint ji under parent (null: the world), its
 * frame the joint's at load, in the parent body's frame and the child's,
 * so that its coordinates are 0 as loaded.
 */
dd::BodyNode *
make_tree_joint(dart_engine *e, const dd::SkeletonPtr &skel,
    dd::BodyNode *parent, int ji, int li)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	phys_pose jp = j->pose, cp = e->w->links[li].pose;
	phys_pose ppose = parent ? e->w->links[j->parent].pose :
	    PHYS_POSE_IDENTITY;
	Eigen::Isometry3d tp = iso(phys_pose_mul(phys_pose_inv(ppose), jp));
	Eigen::Isometry3d tc = iso(phys_pose_mul(phys_pose_inv(cp), jp));
	Eigen::Matrix3d rj = iso(jp).linear();
	struct phys_joint in = inner_axes(j);
	Eigen::Vector3d a1 = (rj.transpose() * ev(in.axis[0])).normalized();
	Eigen::Vector3d a2 = (rj.transpose() * ev(in.axis[1])).normalized();
	dd::BodyNode::Properties bp;
	std::pair<dd::Joint *, dd::BodyNode *> made;

	bp.mName = e->w->links[li].name;
	switch (j->type) {
	case PHYS_JOINT_REVOLUTE: {
		dd::RevoluteJoint::Properties p;

		p.mAxis = a1;
		made = skel->createJointAndBodyNodePair<dd::RevoluteJoint>(
		    parent, p, bp);
		break;
	}
	case PHYS_JOINT_PRISMATIC: {
		dd::PrismaticJoint::Properties p;

		p.mAxis = a1;
		made = skel->createJointAndBodyNodePair<dd::PrismaticJoint>(
		    parent, p, bp);
		break;
	}
	case PHYS_JOINT_SCREW: {
		dd::ScrewJoint::Properties p;

		dj.lead = phys_joint_screw_lead(vals(e, PHYS_S_JOINT,
		    ji));
		p.mAxis = a1;
		p.mPitch = dj.lead * 2 * M_PI;
		made = skel->createJointAndBodyNodePair<dd::ScrewJoint>(parent,
		    p, bp);
		break;
	}
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2: {
		dd::UniversalJoint::Properties p;

		p.mAxis[0] = a1;
		p.mAxis[1] = a2;
		made = skel->createJointAndBodyNodePair<dd::UniversalJoint>(
		    parent, p, bp);
		break;
	}
	case PHYS_JOINT_BALL:
		made = skel->createJointAndBodyNodePair<dd::BallJoint>(parent,
		    dd::BallJoint::Properties(), bp);
		break;
	default:
		made = skel->createJointAndBodyNodePair<dd::WeldJoint>(parent,
		    dd::WeldJoint::Properties(), bp);
		break;
	}
	made.first->setName(j->name);
	made.first->setTransformFromParentBodyNode(tp);
	made.first->setTransformFromChildBodyNode(tc);
	dj.kind = J_TREE;
	dj.dj = made.first;
	dj.xyz[0] = PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz);
	dj.xyz[1] = PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis2_xyz);
	e->links[(size_t)li].joint = made.first;
	e->links[(size_t)li].tree_joint = ji;
	if ((j->type == PHYS_JOINT_BALL ? set_ball(e, ji) :
	    j->type != PHYS_JOINT_FIXED ? set_axes(e, ji) : 0) < 0) {
		std::string why = phys_error();

		phys_failat(PHYS_AT(j->doc, j->node), "%s",
		    why.c_str());
		return nullptr;
	}
	return made.second;
}

/* A link and the tree below it, its body's mass and shapes made. */
int
grow(dart_engine *e, const dd::SkeletonPtr &skel, dd::BodyNode *parent,
    int li, const std::vector<int> &parent_joint)
{
	dlink &dl = e->links[(size_t)li];
	int ji = parent_joint[(size_t)li];

	dl.skel = skel;
	if (ji >= 0) {
		if (!(dl.body = make_tree_joint(e, skel, parent, ji, li)))
			return -1;
	} else {
		dd::BodyNode::Properties bp;
		auto made = skel->createJointAndBodyNodePair<dd::FreeJoint>(
		    nullptr, dd::FreeJoint::Properties(), bp);

		made.first->setName(e->w->links[li].name);
		made.second->setName(e->w->links[li].name);
		dl.joint = made.first;
		dl.body = made.second;
		dd::FreeJoint::setTransformOf(dl.joint, iso(e->w->links[li].pose));
	}
	if (set_mass(e, li, true) < 0)
		return -1;
	apply_link_flags(e, li);
	for (size_t k = 0; k < e->links.size(); k++)
		if (parent_joint[k] >= 0 &&
		    e->w->joints[parent_joint[k]].parent == li &&
		    grow(e, skel, dl.body, (int)k, parent_joint) < 0)
			return -1;
	return 0;
}

/* A static link: one welded body of an immobile skeleton, at its pose. */
void
make_static(dart_engine *e, int li)
{
	dlink &dl = e->links[(size_t)li];
	dd::WeldJoint::Properties jp;
	dd::BodyNode::Properties bp;

	dl.is_static = true;
	dl.skel = dd::Skeleton::create(e->w->links[li].name);
	jp.mT_ParentBodyToJoint = iso(e->w->links[li].pose);
	bp.mName = e->w->links[li].name;
	auto made = dl.skel->createJointAndBodyNodePair<dd::WeldJoint>(nullptr,
	    jp, bp);
	dl.joint = made.first;
	dl.body = made.second;
	dl.skel->setMobile(false);
	phys_link_values_mass(vals(e, PHYS_S_LINK, li), &dl.mass, dl.inertia);
}

/* A joint left out of the trees: a loop between its links' bodies. */
int
make_loop(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	int a = j->child, b = j->parent;

	if (j->type == PHYS_JOINT_SCREW)
		return refuse_joint(j, "the DART engine closes no loop with a "
		    "screw joint (every other type closes one)");
	if (is_static(e, a))
		std::swap(a, b);
	if (is_static(e, a))
		return 0;	/* both sides fixed: nothing moves */
	dd::BodyNode *ba = e->links[(size_t)a].body;
	dd::BodyNode *bb = is_static(e, b) ? nullptr : e->links[(size_t)b].body;
	phys_pose fa = phys_pose_mul(phys_pose_inv(e->w->links[a].pose), j->pose);
	phys_pose fb = bb ? phys_pose_mul(phys_pose_inv(e->w->links[b].pose),
	    j->pose) : j->pose;

	dj.kind = J_LOOP;
	dj.loop = std::make_shared<Loop>(e, ji, ba, bb, fa, fb);
	e->lasting.push_back(dj.loop);
	return 0;
}

/* The tree joint between link li and the reference body ref, if it is a
 * revolute one. */
dd::Joint *
gear_joint(dart_engine *e, int ref, int li)
{
	for (size_t i = 0; i < e->joints.size(); i++) {
		const struct phys_joint *j = &e->w->joints[i];

		if (e->joints[i].kind == J_TREE &&
		    j->type == PHYS_JOINT_REVOLUTE && j->parent == ref &&
		    j->child == li)
			return e->joints[i].dj;
	}
	return nullptr;
}

/* Whether joint ji is a joint of one of DART's trees, with an axis. */
bool
of_tree(const void *ctx, int ji)
{
	const djoint &dj = ((const dart_engine *)ctx)->joints[(size_t)ji];

	return dj.kind == J_TREE && dj.dj->getNumDofs() >= 1;
}

int
refuse_mimic(const struct phys_joint *j)
{
	return refuse_joint(j, "the DART engine mimics only joints of its "
	    "trees, not one that closes a loop");
}

/* Gearboxes and mimics: couplings of tree joints' coordinates. */
int
make_coupling(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	std::vector<Coupling::term> t;

	if (j->type == PHYS_JOINT_GEARBOX) {
		dd::Joint *g1 = gear_joint(e, j->reference, j->parent);
		dd::Joint *g2 = gear_joint(e, j->reference, j->child);

		if (!g1 || !g2)
			return refuse_joint(j, "the DART engine gears two links "
			    "that revolute joints hang from the reference body");
		/* theta_2 = -ratio * theta_1 */
		t.push_back({ g1, 0, PVD(vals(e, PHYS_S_JOINT, ji),
		    JOINT_gearbox_ratio) });
		t.push_back({ g2, 0, 1 });
	} else {
		const auto *m = &j->mimic;

		if (!m->nleaders)
			return 0;
		if (dj.kind != J_TREE || dj.dj->getNumDofs() < 1)
			return refuse_mimic(j);
		/* follower - sum of multiplier leader = the base */
		t = { { dj.dj, (std::size_t)inner(j, 0), 1 } };
		for (int i = 0; i < m->nleaders; i++) {
			int li = m->lead[i].joint;
			const djoint &lj = e->joints[(size_t)li];

			if (lj.kind != J_TREE || lj.dj->getNumDofs() < 1)
				return refuse_mimic(j);
			t.push_back({ lj.dj, (std::size_t)inner(
			    &e->w->joints[li], 0), -m->lead[i].multiplier });
		}
		auto c = std::make_shared<Coupling>(t, phys_mimic_base(m));
		e->lasting.push_back(c);
		dj.coupling = c;
		return 0;
	}
	dj.kind = J_COUPLING;
	dj.coupling = std::make_shared<Coupling>(t, 0);
	e->lasting.push_back(dj.coupling);
	return 0;
}

/*
 * DART builds a skeleton in time and memory growing faster than the
 * square of its links (measured: a chain of 600 links 2.5 s, 1,000 12 s
 * and 250 MB, a star of 2,000 112 s) and walks it by recursion (a chain
 * of 2,000 overflowed the stack): links joined into one moving tree are
 * held to this many, and a world past it refused naming the first link
 * past it in the files' order, before DART sees it.
 */
#define MAX_SKELETON_LINKS 600

/* What DART's skeleton, body and shape nodes take a link, in address
 * space, less than measured so that a world refused surely does not fit:
 * within a limit of 300 MB, DART started 4,500 free boxes, whose world
 * left it about 110 MB, and ran out of memory at 5,000 (23 kB a link). */
#define LINK_BYTES (20.0 * 1024)

/* The link of tree root that comes MAX_SKELETON_LINKS + 1st in the files
 * (phys's own order of a URDF's links is its tree's, not the file's). */
static int
link_past_bound(const dart_engine *e, std::vector<int> &up, int root)
{
	const struct phys_scene *w = e->w;
	std::vector<std::pair<std::pair<int, long>, int>> at;
	std::vector<const struct phys_doc *> docs;

	for (size_t i = 0; i < w->nlinks; i++) {
		if (is_static(e, (int)i) ||
		    phys_set_root(up.data(), (int)i) != root)
			continue;
		size_t d = 0;
		while (d < docs.size() && docs[d] != w->links[i].doc)
			d++;
		if (d == docs.size())
			docs.push_back(w->links[i].doc);
		at.push_back({ { (int)d, phys_node_line(w->links[i].node) },
		    (int)i });
	}
	std::nth_element(at.begin(), at.begin() + MAX_SKELETON_LINKS,
	    at.end());
	return at[MAX_SKELETON_LINKS].second;
}

int
within_skeleton_bound(const dart_engine *e)
{
	const struct phys_scene *w = e->w;
	std::vector<int> up(w->nlinks), size(w->nlinks, 0);

	for (size_t i = 0; i < w->nlinks; i++)
		up[i] = (int)i;
	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		if (j->type == PHYS_JOINT_GEARBOX || is_static(e, j->parent) ||
		    is_static(e, j->child))
			continue;
		up[(size_t)phys_set_root(up.data(), j->child)] =
		    phys_set_root(up.data(), j->parent);
	}
	for (size_t i = 0; i < w->nlinks; i++) {
		int root = phys_set_root(up.data(), (int)i);

		if (is_static(e, (int)i) ||
		    ++size[(size_t)root] <= MAX_SKELETON_LINKS)
			continue;
		const struct phys_link *l =
		    &w->links[link_past_bound(e, up, root)];
		return phys_failat(PHYS_AT(l->doc, l->node), "link '%s' "
		    "makes its tree of joined links more than %d: DART "
		    "builds a tree in time growing with the cube of its links "
		    "(1,000 take 12 s) and recursion as deep (2,000 overflow "
		    "its stack); another engine runs it", l->name,
		    MAX_SKELETON_LINKS);
	}
	return 0;
}

/*
 * The world's joints as trees: in file order, a joint holds its child in
 * a tree when the child is a moving link no joint holds yet and the joint
 * closes no loop (its child is not its parent's ancestor); links no joint
 * holds root trees of their own.
 */
int
build(dart_engine *e)
{
	const struct phys_scene *w = e->w;
	std::vector<int> parent_joint(w->nlinks, -1);

	for (size_t i = 0; i < w->nlinks; i++)
		if (w->models[w->links[i].model].is_static)
			make_static(e, (int)i);
	if (within_skeleton_bound(e) < 0)
		return -1;
	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		e->joints[i].xyz[0] = PVV(vals(e, PHYS_S_JOINT, (int)i),
		    JOINT_axis_xyz);
		e->joints[i].xyz[1] = PVV(vals(e, PHYS_S_JOINT, (int)i),
		    JOINT_axis2_xyz);
		struct phys_joint in = inner_axes(j);

		phys_joint_frames_init(&e->joints[i].f, &in,
		    j->parent >= 0 ? w->links[j->parent].pose :
		    PHYS_POSE_IDENTITY, w->links[j->child].pose);
		/* a kinematic link is a tree's root, which DART moves at its
		 * velocities; a joint that would hold it closes a loop (an
		 * MJCF mocap body's weld) */
		if (j->type == PHYS_JOINT_GEARBOX || is_static(e, j->child) ||
		    PVB(vals(e, PHYS_S_LINK, j->child), LINK_kinematic) ||
		    parent_joint[(size_t)j->child] >= 0 ||
		    (!is_static(e, j->parent) && ancestor(e, parent_joint,
		    j->child, j->parent)))
			continue;
		parent_joint[(size_t)j->child] = (int)i;
	}
	for (size_t i = 0; i < w->nlinks; i++) {
		int ji = parent_joint[i];

		if (e->links[i].is_static || (ji >= 0 &&
		    !is_static(e, w->joints[ji].parent)))
			continue;
		auto skel = dd::Skeleton::create(w->links[i].name);
		e->trees.push_back(skel);
		if (grow(e, skel, nullptr, (int)i, parent_joint) < 0)
			return -1;
	}
	for (size_t i = 0; i < w->njoints; i++) {
		const struct phys_joint *j = &w->joints[i];

		if (j->type == PHYS_JOINT_GEARBOX) {
			if (make_coupling(e, (int)i) < 0)
				return -1;
		} else if (e->joints[i].kind != J_TREE && make_loop(e, (int)i) < 0)
			return -1;
	}
	for (size_t i = 0; i < w->njoints; i++)
		if (w->joints[i].mimic.nleaders &&
		    make_coupling(e, (int)i) < 0)
			return -1;
	if (phys_tendon_joints_held(w, of_tree, e, "DART", "tendons of joints "
	    "of its trees, not of one that closes a loop") < 0)
		return -1;
	for (auto &dl : e->links)
		e->world->addSkeleton(dl.skel);
	return 0;
}

/* ---- positions and velocities of tree joints ---- */

/* The coordinates of DART joint d that put its child at tc relative to
 * its parent; a revolute joint's angle the nearest to the one it has
 * (less than half a turn at a time keeps the count of turns). */
Eigen::VectorXd
coordinates(const dart_engine *e, int ji, dd::Joint *d,
    const Eigen::Isometry3d &rel)
{
	Eigen::Isometry3d t = d->getTransformFromParentBodyNode().inverse() *
	    rel * d->getTransformFromChildBodyNode();
	Eigen::VectorXd q = Eigen::VectorXd::Zero((long)d->getNumDofs());
	const struct phys_joint *j = ji >= 0 ? &e->w->joints[ji] : nullptr;
	phys_quat r = pq(t.linear());

	if (!j)
		return dd::FreeJoint::convertToPositions(t);
	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
		q[0] = phys_angle_near(phys_angle_about(r, pv(
		    static_cast<dd::RevoluteJoint *>(d)->getAxis())),
		    d->getPosition(0));
		break;
	case PHYS_JOINT_PRISMATIC:
		q[0] = t.translation().dot(static_cast<dd::PrismaticJoint *>(
		    d)->getAxis());
		break;
	case PHYS_JOINT_SCREW: {
		auto *s = static_cast<dd::ScrewJoint *>(d);

		q[0] = s->getPitch() != 0 ? t.translation().dot(s->getAxis()) *
		    2 * M_PI / s->getPitch() : phys_angle_about(r,
		    pv(s->getAxis()));
		break;
	}
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2: {
		auto *u = static_cast<dd::UniversalJoint *>(d);
		phys_vec3 a1 = pv(u->getAxis1()), a2 = pv(u->getAxis2());
		phys_vec3 w2 = phys_quat_rotate(r, a2), rel1;

		q[0] = atan2(v3_dot(a1, v3_cross(a2, w2)), v3_dot(a2, w2));
		rel1 = phys_quat_rotate(phys_quat_mul(phys_quat_conj(
		    phys_quat_about(a1, q[0])), r), a1);
		q[1] = atan2(v3_dot(a2, v3_cross(a1, rel1)), v3_dot(a1, rel1));
		break;
	}
	case PHYS_JOINT_BALL:
		q = dd::BallJoint::convertToPositions(Eigen::Matrix3d(
		    t.linear()));
		break;
	default:
		break;
	}
	return q;
}

/* Every body of tree skel where poses (world frames, by link) puts it:
 * each joint's coordinates from its parent's pose and its child's. */
void
place_tree(dart_engine *e, const dd::SkeletonPtr &skel,
    const std::vector<Eigen::Isometry3d> &pose,
    const std::vector<int> &link_of)
{
	for (std::size_t i = 0; i < skel->getNumBodyNodes(); i++) {
		dd::BodyNode *n = skel->getBodyNode(i);
		int li = link_of[i];
		const dlink &dl = e->links[(size_t)li];
		dd::BodyNode *p = n->getParentBodyNode();
		Eigen::Isometry3d parent = Eigen::Isometry3d::Identity();

		if (p)
			parent = pose[p->getIndexInSkeleton()];
		if (n->getParentJoint()->getNumDofs() == 0)
			continue;
		n->getParentJoint()->setPositions(coordinates(e, dl.tree_joint,
		    n->getParentJoint(), parent.inverse() * pose[i]));
	}
}

/* Link li's body placed at pose, its tree's others where they are: only
 * its own joint and its children's change, so that a run setting a
 * chain's joints one by one stays linear in them. -1 when a child's link
 * is not found through a joint at li (the whole tree is placed then). */
int
place_near(dart_engine *e, int li, const Eigen::Isometry3d &pose)
{
	const struct phys_scene *w = e->w;
	dd::BodyNode *n = e->links[(size_t)li].body, *p;
	std::vector<std::pair<int, Eigen::Isometry3d>> kids;

	for (size_t k = w->link_joints_at[li]; k < w->link_joints_at[li + 1];
	    k++) {
		const struct phys_joint *j = &w->joints[w->link_joints[k]];
		int other = j->parent == li ? j->child : j->parent;

		if (other >= 0 && e->links[(size_t)other].body &&
		    e->links[(size_t)other].body->getParentBodyNode() == n)
			kids.emplace_back(other, e->links[(size_t)other].body
			    ->getWorldTransform());
	}
	if (kids.size() != n->getNumChildBodyNodes())
		return -1;
	p = n->getParentBodyNode();
	if (n->getParentJoint()->getNumDofs() > 0)
		n->getParentJoint()->setPositions(coordinates(e,
		    e->links[(size_t)li].tree_joint, n->getParentJoint(),
		    (p ? p->getWorldTransform().inverse() : Eigen::Isometry3d::
		    Identity()) * pose));
	for (const auto &kid : kids) {
		dd::BodyNode *c = e->links[(size_t)kid.first].body;

		if (c->getParentJoint()->getNumDofs() > 0)
			c->getParentJoint()->setPositions(coordinates(e,
			    e->links[(size_t)kid.first].tree_joint,
			    c->getParentJoint(), pose.inverse() * kid.second));
	}
	return 0;
}

/* ... and moving as vel (spatial velocities in their own frames): each
 * joint's rates the least-squares fit of its child's motion relative to
 * its parent. */
void
move_tree(const dd::SkeletonPtr &skel, const std::vector<Eigen::Vector6d> &vel)
{
	for (std::size_t i = 0; i < skel->getNumBodyNodes(); i++) {
		dd::BodyNode *n = skel->getBodyNode(i);
		dd::Joint *d = n->getParentJoint();
		dd::BodyNode *p = n->getParentBodyNode();
		Eigen::Vector6d rel = vel[i];

		if (d->getNumDofs() == 0)
			continue;
		if (p)
			rel -= dart::math::AdInvT(n->getRelativeTransform(),
			    vel[p->getIndexInSkeleton()]);
		const dart::math::Jacobian &J = d->getRelativeJacobian();
		Eigen::VectorXd dq = (J.transpose() * J).ldlt().solve(
		    J.transpose() * rel);

		d->setVelocities(dq);
		if (d->getActuatorType() == dd::Joint::VELOCITY)
			d->setCommands(dq);
	}
}

/* The links of a tree by body index. */
std::vector<int>
links_of(const dart_engine *e, const dd::SkeletonPtr &skel)
{
	std::vector<int> out(skel->getNumBodyNodes(), -1);

	for (size_t li = 0; li < e->links.size(); li++)
		if (e->links[li].skel == skel)
			out[e->links[li].body->getIndexInSkeleton()] = (int)li;
	return out;
}

/* ---- joint state ---- */

/* A loop joint's: from the link poses, its turns as last tracked. */
int
loop_state(const dart_engine *e, int ji, double pos[2], double vel[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	const djoint &dj = e->joints[(size_t)ji];
	phys_vec3 lp = v3(0, 0, 0), wp = lp, lc, wc;
	int n;

	if (j->parent >= 0)
		dart_engine_link_vel(e, j->parent, &lp, &wp);
	dart_engine_link_vel(e, j->child, &lc, &wc);
	n = phys_joint_frames_state(&dj.f, j->type, link_pose(e, j->parent), lp,
	    wp, link_pose(e, j->child), lc, wc, pos, vel);
	if (j->type != PHYS_JOINT_PRISMATIC)
		for (int k = 0; k < n; k++)
			pos[k] = dj.turned[k] + remainder(pos[k] - dj.raw[k],
			    2 * M_PI);
	return n;
}

/* After a step, or afresh (a link placed anew): the loops' turns. */
void
track_loops(dart_engine *e, bool afresh)
{
	for (size_t i = 0; i < e->joints.size(); i++) {
		djoint &dj = e->joints[i];
		double pos[2], vel[2];
		int n;

		if (dj.kind != J_LOOP)
			continue;
		if (afresh)
			dj.turned[0] = dj.turned[1] = dj.raw[0] = dj.raw[1] = 0;
		n = loop_state(e, (int)i, pos, vel);
		for (int k = 0; k < n; k++) {
			dj.raw[k] += pos[k] - dj.turned[k];
			dj.turned[k] = pos[k];
		}
	}
}

/* Body b's moment of inertia about its centre of mass, in its axes, row
 * by row. */
void
moment_of(const dd::BodyNode *b, double inertia[9])
{
	Eigen::Matrix3d m = b->getInertia().getMoment();

	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			inertia[3 * r + c] = m(r, c);
}

/* A body as a loop joint's axes see it, alone (a static or kinematic
 * link, or the world, moves with nothing). */
struct phys_body_inverse
body_inverse(const dart_engine *e, int li)
{
	struct phys_body_inverse bi;

	memset(&bi, 0, sizeof bi);
	if (is_static(e, li) || e->links[(size_t)li].kinematic)
		return bi;
	const dd::BodyNode *b = e->links[(size_t)li].body;
	double inertia[9];

	moment_of(b, inertia);
	bi.inv_mass = 1 / b->getMass();
	bi.inv_inertia = phys_inverse_inertia_world(inertia,
	    link_pose(e, li).q);
	bi.com = pv(b->getCOM());
	return bi;
}

/* At least what body_inverse's inverse inertia gives along any axis
 * (0: a body that does not move). */
double
inverse_bound(const dart_engine *e, int li)
{
	double inertia[9];

	if (is_static(e, li) || e->links[(size_t)li].kinematic)
		return 0;
	moment_of(e->links[(size_t)li].body, inertia);
	return phys_inverse_inertia_bound(inertia);
}

/* A loop ball's damping and spring (phys_ball_torque) on its two
 * bodies, as under ODE and Bullet. */
void
loop_ball_forces(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	phys_vec3 lc, wc, lp = v3(0, 0, 0), wp = lp, t;

	if (!(phys_ball_values_set(v) & (PHYS_BALL_DAMPING | PHYS_BALL_SPRING)))
		return;
	if (j->parent >= 0)
		dart_engine_link_vel(e, j->parent, &lp, &wp);
	dart_engine_link_vel(e, j->child, &lc, &wc);
	t = phys_ball_torque(e->w, ji, v, link_pose(e, j->child).q,
	    link_pose(e, j->parent).q, v3_sub(wc, wp), inverse_bound(e,
	    j->child) + inverse_bound(e, j->parent), e->step);
	for (int side = 0; side < 2; side++) {
		int li = side ? j->parent : j->child;

		if (!is_static(e, li) && !e->links[(size_t)li].kinematic)
			e->links[(size_t)li].body->addExtTorque(ev(side ?
			    v3_scale(t, -1) : t), false);
	}
}

/*
 * Springs and viscous damping of loop joints, as forces held to what
 * stops the motion within the step, as under ODE and Bullet (DART's tree
 * joints integrate theirs implicitly, whatever ODE's
 * implicit_spring_damper says).
 */
void
loop_forces(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
	bool linear = j->type == PHYS_JOINT_PRISMATIC;
	djoint &dj = e->joints[(size_t)ji];
	double pos[2], vel[2];
	int n = loop_state(e, ji, pos, vel);
	struct phys_body_inverse c = body_inverse(e, j->child);
	struct phys_body_inverse p = body_inverse(e, j->parent);
	phys_vec3 anchor = phys_pose_mul(link_pose(e, j->child),
	    dj.f.in_child).p;

	if (j->type == PHYS_JOINT_BALL) {
		loop_ball_forces(e, ji);
		return;
	}
	for (int k = 0; k < n; k++) {
		phys_vec3 axis = phys_joint_frames_axis(&dj.f, link_pose(e,
		    j->parent), k, pos[0]);
		double inv = !phys_joint_needs_inverse_inertia(v, inner(j, k),
		    PHYS_SPRINGS_FORCE, INFINITY, e->step) ? 0 :
		    phys_axis_inverse_inertia(&c, &p, anchor, axis, linear);
		double f = phys_joint_spring_damper_stable(v, inner(j, k),
		    pos[k], vel[k], inv, e->step) + dj.cmd[inner(j, k)];
		Eigen::Vector3d F = ev(v3_scale(axis, f));

		dj.applied[k] = f;
		if (f == 0)
			continue;
		for (int side = 0; side < 2; side++) {
			int li = side ? j->parent : j->child;

			if (is_static(e, li))
				continue;
			dd::BodyNode *b = e->links[(size_t)li].body;
			if (linear)
				b->addExtForce(side ? -F : F, b->getLocalCOM(),
				    false, true);
			else
				b->addExtTorque(side ? -F : F, false);
		}
	}
}

/*
 * velocity_decay as under ODE: each step takes that share of a link's
 * velocity away, as a force at its centre of mass and a torque.
 */
void
decay(dart_engine *e, int li)
{
	const struct phys_value *v = vals(e, PHYS_S_LINK, li);
	dlink &dl = e->links[(size_t)li];
	double lin = PVD(v, LINK_velocity_decay_linear);
	double ang = PVD(v, LINK_velocity_decay_angular);

	if (lin == 0 && ang == 0)
		return;
	if (lin != 0)
		dl.body->addExtForce(-lin / e->step * dl.body->getMass() *
		    dl.body->getCOMLinearVelocity(), dl.body->getLocalCOM(),
		    false, true);
	if (ang != 0) {
		Eigen::Matrix3d r = dl.body->getWorldTransform().linear();
		Eigen::Matrix3d I = r * dl.body->getInertia().getMoment() *
		    r.transpose();

		dl.body->addExtTorque(-ang / e->step * I *
		    dl.body->getAngularVelocity(), false);
	}
}

/* ---- contacts ---- */

/* Gazebo reads a surface's friction from its <ode> block under DART. */
surface_pair
surfaces(const dart_engine *e, int c1, int c2)
{
	const struct phys_value *s[2];
	int ci[2] = { c1, c2 };
	struct phys_contact_surface cs;
	surface_pair p;

	phys_contact_surfaces(e->w, e->v, c1, c2, &s[0], &s[1]);
	phys_contact_surface(s[0], s[1], &cs);
	p.mu[0] = cs.mu;
	p.mu[1] = cs.mu2;
	p.slip[0] = cs.slip1;
	p.slip[1] = cs.slip2;
	p.bounce = cs.bounce;
	p.threshold = cs.bounce_vel;
	p.erp = p.cfm = -1;
	if (cs.kp_kd_given) {
		double h = e->step;

		if (h * cs.kp + cs.kd > 0)
			phys_spring_erp_cfm(cs.kp, cs.kd, h, &p.erp, &p.cfm);
		/* a spring holds what it carries: its push out is not capped
		 * (as under ODE, engine_ode.c's set_contact) */
		p.max_vel = INFINITY;
		p.min_depth = std::max(0.0, cs.min_depth);
	}
	p.fdir = false;
	/* fdir1 in its collision's frame, the first surface's first */
	for (int k = 0; k < 2 && !p.fdir; k++) {
		phys_vec3 d = PVV(s[k], COLLISION_surface_friction_ode_fdir1);
		const struct phys_collision *c = &e->w->collisions[ci[k]];

		if (v3_norm(d) == 0)
			continue;
		p.fdir = true;
		p.dir = ev(v3_normalize(phys_quat_rotate(phys_pose_mul(
		    link_pose(e, c->link), c->pose).q, d)));
	}
	return p;
}

/*
 * FCL collides a primitive shape with a mesh (one DART makes of triangles:
 * a mesh, a cylinder, a cone) as the mesh with the shape, and gives the
 * normal for that order: turned the other way when the mesh is the second
 * object and the first is none.
 */
bool
fcl_mesh(const dc::CollisionObject *o)
{
	const std::string &t = o->getShape()->getType();

	return t == dd::MeshShape::getStaticType() ||
	    t == dd::CylinderShape::getStaticType() ||
	    t == "ConeShape" || t == "PyramidShape";
}

/* The body node a collision object's shape hangs from. */
dd::BodyNode *
body_of(const dc::CollisionObject *o)
{
	return const_cast<dd::BodyNode *>(o->getShapeFrame()->asShapeNode()
	    ->getBodyNodePtr().get());
}

/* The most contact points a pair of surfaces a and b takes: the
 * profile's max_contacts and both surfaces'. */
long
surfaces_limit(const dart_engine *e, const struct phys_value *a,
    const struct phys_value *b)
{
	return std::min((long)e->max_contacts, std::min(PVI(a,
	    COLLISION_max_contacts), PVI(b, COLLISION_max_contacts)));
}

/* ... of collisions c1 and c2. */
long
pair_limit(const dart_engine *e, int c1, int c2)
{
	const struct phys_value *a, *b;

	phys_contact_surfaces(e->w, e->v, c1, c2, &a, &b);
	return surfaces_limit(e, a, b);
}

/* A contact point between collisions c1 and c2, of objects o1 and o2, the
 * normal as DART's detector gives it; within the pair's limit (kept). */
void
add_contact(dart_engine *e, int c1, int c2, dd::BodyNode *b1,
    dd::BodyNode *b2, const Eigen::Vector3d &point,
    const Eigen::Vector3d &normal, double depth,
    std::map<std::pair<int, int>, int> &kept)
{
	const struct phys_value *a, *b;

	phys_contact_surfaces(e->w, e->v, c1, c2, &a, &b);
	int &n = kept[std::make_pair(std::min(c1, c2), std::max(c1, c2))];
	if (n >= surfaces_limit(e, a, b))
		return;
	n++;
	if (phys_contact_without_force(a, b)) {
		if (phys_contact_without_force_reported(a, b))
			e->ncontacts++;
		return;
	}
	e->ncontacts++;
	if (e->contacts.size() <= e->contacts_used)
		e->contacts.push_back(std::make_shared<Contact>());
	const std::shared_ptr<Contact> &k = e->contacts[e->contacts_used++];
	k->set(b1, b2, point, normal, depth, surfaces(e, c1, c2), e->step);
	e->solver->manual().push_back(k);
}

void own_shape(const dart_engine *e, int ci, struct phys_corner_shape *s);

/* One point of two hulls' contact as the detector found it, its normal
 * for the pair's order (the lower collision first). */
struct hull_point {
	const dc::CollisionObject *o1, *o2;
	Eigen::Vector3d point, normal;
	double depth;
};

/*
 * Two convex hulls FCL collides as triangles: its points, each with the
 * normal and depth of the hulls' penetration as libccd's portal
 * refinement finds it (as MuJoCo collides two meshes), the pair's one
 * way apart. FCL gives each point the normal of its triangles: two hulls
 * deep in each other got normals pointing every way (Panda's fingers at
 * the zero pose: along the fingers and across them, both signs, each 5
 * cm deep), which no motion meets and which DART's solver answered by
 * spinning the arm at 1e9 rad/s; a box resting on another got points on
 * its sides 0.6 m deep, pushing it sideways.
 */
void
hull_contact(dart_engine *e, int c1, int c2, const std::vector<hull_point> &pts,
    std::map<std::pair<int, int>, int> &kept)
{
	const dc::CollisionObject *o1 = pts[0].o1, *o2 = pts[0].o2;
	struct phys_corner_shape h1, h2;
	phys_vec3 at, m;
	double depth;

	own_shape(e, c1, &h1);
	own_shape(e, c2, &h2);
	/* the normal from o2 into o1, as DART's */
	if (!phys_corner_deepest(&h1, &h2, &at, &m, &depth)) {
		for (const hull_point &p : pts)	/* barely touching */
			if (p.depth >= 0 && !dc::Contact::isZeroNormal(p.normal))
				add_contact(e, c1, c2, body_of(o1),
				    body_of(o2), p.point,
				    p.normal, p.depth, kept);
		return;
	}
	for (const hull_point &p : pts)
		add_contact(e, c1, c2, body_of(o1), body_of(o2), p.point, ev(m),
		    depth, kept);
}

/*
 * This step's contacts: the detector's points, at most the pair's limit
 * per pair (the profile's and both collisions' max_contacts), counted as
 * under ODE, each a constraint unless a surface collides without contact;
 * two hulls the detector finds touching, one point of their own
 * (hull_contact).
 */
/* The step's contact impulses on each moving link's body nothing moves
 * (welded to the world: DART's solver applies them to the other body
 * alone), kept for its joint's wrench. */
void
keep_still_impulses(dart_engine *e)
{
	std::map<const dd::BodyNode *, dlink *> still;

	for (dlink &dl : e->links) {
		dl.still_impulse.setZero();
		if (!dl.is_static && dl.body && !dl.body->isReactive())
			still[dl.body] = &dl;
	}
	if (still.empty())
		return;
	for (const dk::ConstraintBasePtr &c : e->solver->manual()) {
		const Contact *k = dynamic_cast<const Contact *>(c.get());
		std::map<const dd::BodyNode *, dlink *>::iterator i;

		if (!k)
			continue;
		if ((i = still.find(k->body_a())) != still.end())
			i->second->still_impulse += k->impulse;
		if ((i = still.find(k->body_b())) != still.end())
			i->second->still_impulse += k->impulse_b;
	}
}

/* A point of a pair, on bodies b1 and b2, the normal from b2 to b1. */
struct pair_point {
	dd::BodyNode *b1, *b2;
	Eigen::Vector3d point, normal;
	double depth;
};

/* Point p into out, unless out has one where it is (a point found over
 * two triangles' shared edge or corner). */
void
add_once(std::vector<pair_point> &out, const pair_point &p)
{
	for (const pair_point &o : out)
		if ((o.point - p.point).norm() < 1e-9)
			return;
	out.push_back(p);
}

/*
 * Which of a pair's points it keeps, at most limit (phys_contact_spread).
 * FCL gives a mesh's points in the order its tree of triangles meets
 * them: a cube of faces of 2,048 triangles resting on the ground sank
 * 18 mm in 0.1 s on the first ten, all in one corner.
 */
std::vector<std::size_t>
spread(const std::vector<pair_point> &p, long limit)
{
	std::vector<phys_vec3> at;
	std::vector<double> depth;
	std::vector<std::size_t> keep(p.size());

	for (const pair_point &q : p) {
		at.push_back({ q.point.x(), q.point.y(), q.point.z() });
		depth.push_back(q.depth);
	}
	keep.resize(phys_contact_spread(at.data(), depth.data(), p.size(),
	    (std::size_t)std::max(limit, 0L), keep.data()));
	return keep;
}

/* Collision ci's shape node, or null. */
dd::ShapeNode *
shape_node(const dart_engine *e, int ci)
{
	const struct phys_collision *c = &e->w->collisions[ci];
	const dlink &dl = e->links[(size_t)c->link];
	std::size_t k = (std::size_t)(ci - e->w->links[c->link].first_collision);

	return k < dl.shapes.size() ? dl.shapes[k] : nullptr;
}

/* Whether q, along f (triangle t's winding normal), is over t. */
bool
over_triangle(const Eigen::Vector3d t[3], const Eigen::Vector3d &f,
    const Eigen::Vector3d &q)
{
	for (int k = 0; k < 3; k++)
		if ((t[(k + 1) % 3] - t[k]).cross(q - t[k]).dot(f) < 0)
			return false;
	return true;
}

/* cos and sin of k pi / 4: a rim's eighths of a turn, found once rather
 * than for each end of each cylinder on a plane each step. */
struct eighths {
	double c[8], s[8];

	eighths()
	{
		for (int k = 0; k < 8; k++) {
			c[k] = cos(k * M_PI / 4);
			s[k] = sin(k * M_PI / 4);
		}
	}
};

/*
 * The points of cylinder node cs at or below the plane of normal n at d
 * (n . x = d) of body b2, into out: on each end, the lowest point of its
 * rim and eight points around the rim a fixed eighth of a turn apart (an
 * end lying on the plane), each as deep as it is below; with a triangle t
 * (winding normal f) of that plane, those over it, at most the radius
 * deep.
 */
void
cylinder_points(dd::ShapeNode *cs, dd::BodyNode *b2, const Eigen::Vector3d &n,
    double d, const Eigen::Vector3d *t, const Eigen::Vector3d &f,
    std::vector<pair_point> &out)
{
	const auto *cyl = static_cast<const dd::CylinderShape *>(
	    cs->getShape().get());
	const Eigen::Isometry3d &to = cs->getWorldTransform();
	Eigen::Vector3d a = to.linear().col(2), x = to.linear().col(0);
	Eigen::Vector3d y = to.linear().col(1), low = a * a.dot(n) - n;
	double r = cyl->getRadius(), hl = cyl->getHeight() / 2;
	static const eighths turn;
	auto add = [&](const Eigen::Vector3d &q) {
		double depth = d - n.dot(q);

		if (depth < 0 || (t && (depth > r || !over_triangle(t, f, q))))
			return;
		add_once(out, { cs->getBodyNodePtr().get(), b2, q, n, depth });
	};

	for (int end = -1; end <= 1; end += 2) {
		Eigen::Vector3d c = to.translation() + end * hl * a;

		/* an end not square to the plane has a lowest point */
		if (low.norm() > 1e-9)
			add(c + r * low.normalized());
		for (int k = 0; k < 8; k++)
			add(c + r * (turn.c[k] * x + turn.s[k] * y));
	}
}

/*
 * Where point q (a vertex of a mesh, of body b2) lies in cylinder cyl
 * (node cs), into out: q, as deep as it lies within the cylinder's
 * nearest face (an end or its round side), the normal that face's, into
 * the cylinder (phys_corner_inside). A mesh's corners resting on a
 * cylinder's end are its points there: the cylinder's rims and the
 * mesh's edges within its side (cylinder_points, edge_points) find none,
 * and FCL's points for a mesh and the cylinder's prism lay 1 cm deep
 * before they touched.
 */
void
vertex_point(const struct phys_corner_shape *cyl, dd::ShapeNode *cs,
    dd::BodyNode *b2, const Eigen::Vector3d &q, std::vector<pair_point> &out)
{
	phys_vec3 o;
	double d;
	bool alone;

	if (phys_corner_inside(cyl, pv(q), 0, &o, &d, &alone))
		add_once(out, { cs->getBodyNodePtr().get(), b2, q, -ev(o), d });
}

/* Whether edge j of triangle k (winding normal f) is a crease or a rim a
 * cylinder's side may meet: no neighbour across it, or one not in its
 * plane (within PHYS_FACE_ON); each shared edge once, from the triangle
 * of the lower index. */
bool
edge_of(const mesh_edges *me, const Eigen::Isometry3d &at, int k, int j,
    const Eigen::Vector3d &f)
{
	int o = me->nb[3 * k + j];
	Eigen::Vector3d w[3];

	if (o < 0)
		return true;
	if (o < k)
		return false;
	Eigen::Vector3d g = world_triangle(me->m, at, o, w);
	double c = f.dot(g);

	return !(c * c > PHYS_FACE_ON * PHYS_FACE_ON * f.squaredNorm() *
	    g.squaredNorm());
}

/*
 * Where segment p0 p1 (an edge of a mesh, of body b2) is within cylinder
 * node cs's side, into out: its point nearest the axis (or, along the
 * axis, both ends of its part beside the cylinder), the normal from it
 * to the axis, as deep as it is within the radius. FCL gave an edge the
 * normal of its prism's flat side: a cylinder rolling at 1.5 m/s into a
 * 2 cm step was thrown back where under ODE it climbs.
 */
void
edge_points(dd::ShapeNode *cs, dd::BodyNode *b2, const Eigen::Vector3d &p0,
    const Eigen::Vector3d &p1, std::vector<pair_point> &out)
{
	const auto *cyl = static_cast<const dd::CylinderShape *>(
	    cs->getShape().get());
	const Eigen::Isometry3d &to = cs->getWorldTransform();
	Eigen::Vector3d a = to.linear().col(2), c = to.translation();
	Eigen::Vector3d d = p1 - p0, o = p0 - c;
	double r = cyl->getRadius(), hl = cyl->getHeight() / 2;
	double t0 = a.dot(o), te = a.dot(d), sa = 0, sb = 1, s[2];
	Eigen::Vector3d w0 = o - a * t0, we = d - a * te;
	int ns;

	/* the part of the edge beside the cylinder, hl either side */
	if (std::fabs(te) > 1e-12) {
		double u = (-hl - t0) / te, v = (hl - t0) / te;

		sa = std::max(sa, std::min(u, v));
		sb = std::min(sb, std::max(u, v));
	} else if (std::fabs(t0) > hl)
		return;
	if (sa > sb)
		return;
	if (we.squaredNorm() < 1e-12 * d.squaredNorm()) {
		s[0] = sa, s[1] = sb, ns = 2;	/* along the axis */
	} else {
		s[0] = std::min(sb, std::max(sa, -w0.dot(we) /
		    we.squaredNorm()));
		ns = 1;
	}
	for (int i = 0; i < ns; i++) {
		Eigen::Vector3d w = w0 + s[i] * we;
		double dist = w.norm();

		if (dist == 0 || dist >= r)
			continue;
		add_once(out, { cs->getBodyNodePtr().get(), b2,
		    Eigen::Vector3d(p0 + s[i] * d), Eigen::Vector3d(-w / dist),
		    r - dist });
	}
}

/*
 * Whether collisions c1 and c2 are a cylinder and a mesh or heightmap FCL
 * collides as triangles (keep_edges), the cylinder DART's prism of 16
 * sides: rolling over a flat floor of triangles on the prism's edges, a
 * cylinder went 0.07 to 0.28 m of 0.64, some turned across their path.
 */
bool
cylinder_on_mesh(const dart_engine *e, int c1, int c2)
{
	return e->fcl && e->w->collisions[c1].shape == PHYS_GEOM_CYLINDER &&
	    e->edges[(size_t)c2];
}

/* The triangles around corner j of triangle k of a mesh, k's included,
 * into out: across the edges that meet there, one way round and, where
 * the mesh ends, the other. */
void
fan(const mesh_edges *me, int k, int j, std::set<int> &out)
{
	unsigned corner = me->m->tri[3 * k + j];

	out.insert(k);
	for (int way = 0; way < 2; way++) {
		int t = k, e = way ? (j + 2) % 3 : j;

		for (int hops = 0; hops < 64; hops++) {	/* a bound */
			int o = me->nb[3 * t + e], c;

			if (o < 0 || o == k)
				break;
			out.insert(o);
			for (c = 0; c < 3 && me->m->tri[3 * o + c] != corner;
			    c++)
				;
			if (c == 3)
				break;
			/* o's other edge at the corner: the one not shared
			 * with t */
			e = me->nb[3 * o + c] == t ? (c + 2) % 3 : c;
			t = o;
		}
		if (way == 0 && me->nb[3 * t + e] == k)
			break;	/* round: the corner is inside the mesh */
	}
}

/* Of triangles had (of mesh m, placed at at), those cylinder node cs is
 * still near, into near: nearer its centre than its rims are, and a
 * quarter of its radius. */
void
still_near(dd::ShapeNode *cs, const struct phys_mesh *m,
    const Eigen::Isometry3d &at, const std::set<int> &had,
    std::set<int> *near)
{
	const auto *cy = static_cast<const dd::CylinderShape *>(
	    cs->getShape().get());
	double reach = std::hypot(cy->getRadius(), cy->getHeight() / 2) +
	    cy->getRadius() / 4;
	phys_vec3 c = pv(at.inverse() * cs->getWorldTransform().translation());

	for (int k : had)
		if ((size_t)k < m->ntri && (ev(phys_mesh_nearest_on_triangle(m,
		    (size_t)k, c)) - ev(c)).norm() < reach)
			near->insert(k);
}

/* Collision ci's shape as a corner shape: a box, a capsule, a cylinder
 * or a sphere, else of kind PHYS_CORNER_NONE (a hull is own_shape's). */
void
corner_shape(const dart_engine *e, int ci, struct phys_corner_shape *s)
{
	dd::ShapeNode *sn = shape_node(e, ci);
	const dd::Shape *sh = sn ? sn->getShape().get() : nullptr;

	std::memset(s, 0, sizeof *s);
	s->kind = PHYS_CORNER_NONE;
	if (!sh)
		return;
	s->at = pp(sn->getWorldTransform());
	if (auto *b = dynamic_cast<const dd::BoxShape *>(sh)) {
		s->kind = PHYS_CORNER_BOX;
		s->half = pv(b->getSize() / 2);
		return;
	}
	if (auto *c = dynamic_cast<const dd::CapsuleShape *>(sh)) {
		s->kind = PHYS_CORNER_CAPSULE;
		s->radius = c->getRadius();
		s->length = c->getHeight();
		return;
	}
	if (auto *c = dynamic_cast<const dd::CylinderShape *>(sh)) {
		s->kind = PHYS_CORNER_CYLINDER;
		s->radius = c->getRadius();
		s->length = c->getHeight();
		return;
	}
	if (auto *b = dynamic_cast<const dd::SphereShape *>(sh)) {
		s->kind = PHYS_CORNER_SPHERE;
		s->radius = b->getRadius();
		return;
	}
	/* FCL's spheres are ellipsoids of equal radii (make_shape) */
	if (auto *el = dynamic_cast<const dd::EllipsoidShape *>(sh)) {
		Eigen::Vector3d r = el->getRadii();

		if (r.x() == r.y() && r.y() == r.z()) {
			s->kind = PHYS_CORNER_SPHERE;
			s->radius = r.x();
		}
	}
}

/* Triangle k of mesh m placed at at, into v, its winding normal into *f
 * and its unit normal towards point c into *n; false for no triangle of
 * m or one of no area. */
bool
facing_triangle(const struct phys_mesh *m, const Eigen::Isometry3d &at,
    int k, const Eigen::Vector3d &c, Eigen::Vector3d v[3],
    Eigen::Vector3d *f, Eigen::Vector3d *n)
{
	if (k < 0 || (size_t)k >= m->ntri)
		return false;
	*f = world_triangle(m, at, k, v);
	if (f->norm() == 0)
		return false;
	*n = f->normalized();
	if (n->dot(c - v[0]) < 0)
		*n = -*n;
	return true;
}

/* How much deeper than a cylinder and a triangle overlap (triangle_depth)
 * a point of the cylinder may lie behind the triangle's face, m. */
const double TRIANGLE_SLACK = 1e-3;

/*
 * How deep round shape s and triangle v overlap (the triangle a prism 1
 * um deep behind its face, n towards s, for libccd's portal refinement,
 * which needs a volume), m; -1 where they are apart. A cylinder's points
 * over a triangle (cylinder_points, edge_points) lie behind its plane by
 * up to the cylinder's radius; where the plane cuts through the cylinder
 * away from its surface (a side of a moving box of triangles standing
 * on a cylinder's end, 0.1 mm into it), they are no contact: the box
 * got points 0.3 m deep on its sides and fell through the end.
 */
double
triangle_depth(const struct phys_corner_shape *s, const Eigen::Vector3d v[3],
    const Eigen::Vector3d &n)
{
	struct phys_corner_shape t;
	double w[18], depth;
	Eigen::Vector3d mid = (v[0] + v[1] + v[2]) / 3 - n * 0.5e-6;
	phys_vec3 p, m;

	for (int j = 0; j < 6; j++) {
		Eigen::Vector3d q = v[j % 3] - (j < 3 ? 0.0 : 1e-6) * n - mid;

		w[3 * j] = q.x(), w[3 * j + 1] = q.y(), w[3 * j + 2] = q.z();
	}
	std::memset(&t, 0, sizeof t);
	t.kind = PHYS_CORNER_HULL;
	t.at = phys_pose{ pv(mid), PHYS_QUAT_IDENTITY };
	t.v = w;
	t.nv = 6;
	t.v_stride = 3;
	return phys_corner_deepest(s, &t, &p, &m, &depth) ? depth : -1;
}

/*
 * Cylinder cyl's points on triangles of mesh msh (cylinder_on_mesh), as
 * cylinder_points gives them: on those FCL found this step (tris), and on
 * those it had points on last step and those around their corners
 * (fan): a point rolling over a corner goes to a triangle that shares
 * only the corner, and each time a wheel found none there it sank and
 * struck, 6% of its travel lost over ten such corners. FCL's prism
 * lies a millimetre above the floor where the cylinder rests on its
 * points (its flat sides are nearer the axis than the cylinder), and FCL
 * finds no triangle there. *under: the triangles it has points on; with
 * none, those it had points on last step that are nearer its centre
 * than its ends' rims by a quarter of its radius: a lying cylinder
 * lifted off by a step's bounce lost them, fell into the floor until
 * FCL's prism met it, 0.7 mm deep, and bounced again.
 */
std::vector<pair_point>
cylinder_triangle_points(const dart_engine *e, int cyl, int msh,
    std::set<int> tris, std::set<int> *under)
{
	dd::ShapeNode *cs = shape_node(e, cyl), *ms = shape_node(e, msh);
	const mesh_edges *me = e->edges[(size_t)msh].get();
	const struct phys_mesh *m = me->m;
	std::vector<pair_point> out;
	auto last = e->cylinder_triangles.find(std::make_pair(cyl, msh));

	under->clear();
	if (!cs || !ms)
		return out;
	if (last != e->cylinder_triangles.end())
		for (int k : last->second) {
			if ((size_t)k >= m->ntri)	/* the mesh made again */
				continue;
			for (int j = 0; j < 3; j++)
				fan(me, k, j, tris);
		}
	const Eigen::Isometry3d &at = ms->getWorldTransform();
	Eigen::Vector3d centre = cs->getWorldTransform().translation();
	struct phys_corner_shape round;

	corner_shape(e, cyl, &round);
	for (int k : tris) {
		Eigen::Vector3d v[3], f, n;
		size_t had = out.size();

		if (!facing_triangle(m, at, k, centre, v, &f, &n))
			continue;
		double most = triangle_depth(&round, v, n);
		if (most < 0)
			continue;
		cylinder_points(cs, ms->getBodyNodePtr().get(), n, n.dot(v[0]),
		    v, f, out);
		for (int j = 0; j < 3; j++) {
			if (edge_of(me, at, k, j, f))
				edge_points(cs, ms->getBodyNodePtr().get(), v[j],
				    v[(j + 1) % 3], out);
			vertex_point(&round, cs, ms->getBodyNodePtr().get(),
			    v[j], out);
		}
		out.erase(std::remove_if(out.begin() + (long)had, out.end(),
		    [most](const pair_point &q) {
			return q.depth > most + TRIANGLE_SLACK;
		    }), out.end());
		if (out.size() > had)
			under->insert(k);
	}
	if (out.empty() && last != e->cylinder_triangles.end())
		still_near(cs, m, at, last->second, under);
	return out;
}

/* The points of shape m (plane_solid) at or below plane p (plane_pair),
 * each as deep as it is below, the normal the plane's (from p to m, as
 * DART's): a mesh's vertices, a cylinder's as cylinder_points says. */
std::vector<pair_point>
plane_points(const dart_engine *e, int m, int p)
{
	dd::ShapeNode *ms = shape_node(e, m), *ps = shape_node(e, p);
	std::vector<pair_point> out;

	if (!ms || !ps)
		return out;
	/* the plane: the top face of its box (make_shape) */
	const Eigen::Isometry3d &at = ps->getWorldTransform();
	Eigen::Vector3d n = at.linear().col(2);
	double d = n.dot(at * Eigen::Vector3d(0, 0, PLANE_BOX / 2));
	if (e->w->collisions[m].shape == PHYS_GEOM_CYLINDER) {
		cylinder_points(ms, ps->getBodyNodePtr().get(), n, d, nullptr,
		    n, out);
		return out;
	}
	const auto *mesh = static_cast<const dd::MeshShape *>(
	    ms->getShape().get());
	const aiScene *sc = mesh->getMesh();
	Eigen::Isometry3d to = ms->getWorldTransform();

	for (std::size_t i = 0; sc && i < sc->mNumMeshes; i++)
		for (std::size_t v = 0; v < sc->mMeshes[i]->mNumVertices; v++) {
			const aiVector3D &q = sc->mMeshes[i]->mVertices[v];
			Eigen::Vector3d x = to * Eigen::Vector3d(q.x, q.y,
			    q.z).cwiseProduct(mesh->getScale());
			double depth = d - n.dot(x);

			if (depth >= 0)
				out.push_back({ ms->getBodyNodePtr().get(),
				    ps->getBodyNodePtr().get(), x, n, depth });
		}
	return out;
}

/*
 * The normal n of contact c (from its second object to its first, as DART
 * gives it) as the faces of a mesh it touches allow them
 * (phys_mesh_edge_normal). FCL gives a box sliding over a flat floor of
 * triangles, where its edge crosses one between two, the normal of that
 * edge, tilted 0.5 rad back: the box stopped there. FCL names the
 * triangle in whichever of its two indices it collided the mesh as; the
 * other shape, not a mesh, has none, but for a hull, whose own triangle
 * is in the other index (a bar's hull sliding over a floor of triangles
 * got, where a vertex of the floor lay under its edge, a normal tilted
 * 1.4 rad, and stopped).
 */
Eigen::Vector3d
smooth_edge(const dart_engine *e, const dc::Contact &c, int c1, int c2,
    const Eigen::Vector3d &n)
{
	const mesh_edges *m1 = e->edges[(size_t)c1].get();
	const mesh_edges *m2 = e->edges[(size_t)c2].get();
	const mesh_edges *me = m1 ? m1 : m2;
	/* a hull is triangles to FCL too, each in its own index */
	bool hulled = !e->hull[(size_t)(m1 ? c2 : c1)].empty();
	int tri = hulled ? (m1 ? c.triID1 : c.triID2) : c.triID1 >= 0 ?
	    c.triID1 : c.triID2;

	if (!me || (m1 && m2) || (!hulled && c.triID1 >= 0 &&
	    c.triID2 >= 0) || tri < 0 || (size_t)tri >= me->m->ntri)
		return n;
	const Eigen::Isometry3d &at = (m1 ? c.collisionObject1 :
	    c.collisionObject2)->getTransform();
	Eigen::Vector3d p = at.inverse() * c.point;
	/* from the mesh to the other shape, whose origin is at o */
	Eigen::Vector3d out = at.linear().transpose() * (m1 ? -n : n);
	Eigen::Vector3d o = at.inverse() * (m1 ? c.collisionObject2 :
	    c.collisionObject1)->getTransform().translation();
	phys_vec3 r = phys_mesh_edge_normal(me->m, me->nb, (size_t)tri,
	    v3(p.x(), p.y(), p.z()), v3(out.x(), out.y(), out.z()),
	    v3(o.x(), o.y(), o.z()), 0);
	Eigen::Vector3d w = at.linear() * Eigen::Vector3d(r.x, r.y, r.z);

	return m1 ? Eigen::Vector3d(-w) : w;
}

/*
 * The normal n of contact c (from its second object to its first) under
 * DART's ODE detector, as the faces of a mesh it touches allow them
 * (phys_mesh_contact_normal): ODE names no triangle of a hull's point,
 * and gave boxes and hulls sliding over a floor of triangles, where a
 * vertex of it lay under their edge, normals tilted up to 1.4 rad (a bar
 * went 33% short).
 */
Eigen::Vector3d
ode_mesh_normal(const dart_engine *e, const dc::Contact &c, int c1, int c2,
    const Eigen::Vector3d &n)
{
	mesh_edges *m1 = e->edges[(size_t)c1].get();
	mesh_edges *m2 = e->edges[(size_t)c2].get();
	mesh_edges *me = m1 ? m1 : m2;

	if (!me || (m1 && m2))
		return n;
	if (!me->grid && !(me->grid = phys_mesh_grid_new(me->m)))
		return n;
	dd::ShapeNode *ms = shape_node(e, m1 ? c1 : c2);
	struct phys_corner_shape s;
	if (!ms)
		return n;
	own_shape(e, m1 ? c2 : c1, &s);
	/* out of the mesh: towards the first object when the mesh is the
	 * second */
	phys_vec3 r = phys_mesh_contact_normal(me->grid, me->m, me->nb,
	    pp(ms->getWorldTransform()), pv(c.point),
	    pv(m1 ? Eigen::Vector3d(-n) : n), c.penetrationDepth, &s);

	return m1 ? Eigen::Vector3d(-ev(r)) : ev(r);
}

/*
 * The normal of contact c (c1, c2 its collisions, n as DART gives it)
 * between a mesh and a box, a cylinder or a hull, where c's point lies
 * within a flat face of the latter, away from its edges
 * (phys_corner_face): that face's, not the triangle's FCL gives (a box
 * of triangles resting on a sloping box got the normals of its sides at
 * its corners there, and stuck where it should slide; a box on a
 * sloping hull slid 1.4% short). Near an edge (a box on its edge on a
 * floor of triangles) FCL's stays.
 */
Eigen::Vector3d
face_normal(const dart_engine *e, const dc::Contact &c, int c1, int c2,
    const Eigen::Vector3d &n)
{
	struct phys_corner_shape s;
	phys_vec3 f;

	for (int side = 0; side < 2; side++) {
		int ci = side ? c1 : c2, other = side ? c2 : c1;

		if (!e->edges[(size_t)other] && e->hull[(size_t)other].empty())
			continue;
		own_shape(e, ci, &s);	/* a sphere or capsule has no face */
		if (phys_corner_face(&s, pv(c.point), c.penetrationDepth +
		    PHYS_CORNER_REACH, &f))
			/* from the second object to the first */
			return side ? Eigen::Vector3d(-ev(f)) : ev(f);
	}
	return n;
}

/* Whether collision c1 is a polyhedron (a box or a hull) and c2 a mesh
 * FCL collides as its triangles (not a hull). */
bool
polyhedron_on_mesh(const dart_engine *e, int c1, int c2)
{
	return e->fcl && (e->w->collisions[c1].shape == PHYS_GEOM_BOX ||
	    !e->hull[(size_t)c1].empty()) && e->edges[(size_t)c2] &&
	    e->hull[(size_t)c2].empty();
}

/*
 * A box's or a hull's points on a mesh under FCL (polyhedron_on_mesh), in
 * place of FCL's: each corner of the shape over a triangle FCL found
 * (tris) and behind it, no deeper than FCL's deepest point of the pair
 * by more than PHYS_CORNER_REACH (a triangle through the shape meets
 * none of them), the triangle's normal; and each corner of those
 * triangles in the shape, away from its edges, at its nearest face
 * (phys_corner_inside). FCL's points for a box on a floor of triangles
 * lay 3.9 mm deep, and a box sliding down it went 12.9% too far; hulls
 * tumbling over a bumpy heightmap went 5.4 mm into it, now 2.7.
 */
std::vector<pair_point>
polyhedron_mesh_points(const dart_engine *e, int poly, int msh,
    const std::set<int> &tris, double deepest)
{
	dd::ShapeNode *ps = shape_node(e, poly), *ms = shape_node(e, msh);
	const struct phys_mesh *m = e->edges[(size_t)msh]->m;
	std::vector<pair_point> out;
	struct phys_corner_shape s;
	Eigen::Vector3d v[3];
	phys_vec3 o, t[3], nt, x[PHYS_CORNERS_MAX];
	double d, deep[PHYS_CORNERS_MAX];
	bool alone;

	if (!ps || !ms)
		return out;
	own_shape(e, poly, &s);
	const Eigen::Isometry3d &at = ms->getWorldTransform();
	dd::BodyNode *b1 = ps->getBodyNodePtr().get();
	dd::BodyNode *b2 = ms->getBodyNodePtr().get();
	for (int k : tris) {
		if (k < 0 || (size_t)k >= m->ntri ||
		    world_triangle(m, at, k, v).norm() == 0)
			continue;
		for (int j = 0; j < 3; j++)
			t[j] = pv(v[j]);
		std::size_t n = phys_corner_over_triangle(&s, t, deepest,
		    PHYS_CORNER_REACH, &nt, x, deep, PHYS_CORNERS_MAX);
		for (std::size_t i = 0; i < n; i++)
			add_once(out, { b1, b2, ev(x[i]), ev(nt),
			    std::max(deep[i], 0.0) });
		for (const Eigen::Vector3d &q : v)
			if (phys_corner_inside(&s, pv(q), PHYS_CORNER_REACH, &o,
			    &d, &alone) && alone)
				add_once(out, { b1, b2, q, -ev(o),
				    std::max(d, 0.0) });
	}
	return out;
}

/*
 * To a box's or a hull's points on a mesh (ours: polyhedron_mesh_points,
 * the shape first), FCL's points of the pair (key either way round, in
 * points at pair_at) deeper than the deepest of ours by more than
 * PHYS_CORNER_REACH: an edge of the shape across a ridge of the mesh,
 * where no corner of either lies in the other (boxes tumbling over a
 * bumpy heightmap went 17.7 mm into it on ours alone).
 */
void
add_deeper(std::vector<pair_point> &ours, std::pair<int, int> key,
    const std::map<std::pair<int, int>, std::size_t> &pair_at,
    const std::vector<std::pair<std::pair<int, int>,
    std::vector<pair_point>>> &points)
{
	double deepest = 0;

	for (const pair_point &p : ours)
		deepest = std::max(deepest, p.depth);
	for (auto k : { key, std::make_pair(key.second, key.first) }) {
		auto at = pair_at.find(k);

		if (at == pair_at.end())
			continue;
		for (const pair_point &p : points[at->second].second)
			if (p.depth > deepest + PHYS_CORNER_REACH)
				ours.push_back(k == key ? p : pair_point{ p.b2,
				    p.b1, p.point, -p.normal, p.depth });
	}
}

/* Pair key's points (either way round) in points, found at pair_at, to
 * be ours, not FCL's. */
void
replace_points(std::pair<int, int> key, const std::vector<pair_point> &ours,
    const std::map<std::pair<int, int>, std::size_t> &pair_at,
    std::vector<std::pair<std::pair<int, int>, std::vector<pair_point>>>
    &points)
{
	for (auto k : { key, std::make_pair(key.second, key.first) }) {
		auto at = pair_at.find(k);

		if (at != pair_at.end())
			points[at->second].second.clear();
	}
	points.emplace_back(key, ours);
}

/*
 * Each cylinder's points on a mesh (cylinder_on_mesh), in place of FCL's,
 * into points: the pairs FCL found (tris: the triangles, by cylinder and
 * mesh) and those the cylinder had points with last step.
 * A pair where phys finds none keeps FCL's.
 */
void
cylinders_on_meshes(dart_engine *e,
    std::map<std::pair<int, int>, std::set<int>> &tris,
    std::map<std::pair<int, int>, std::size_t> &pair_at,
    std::vector<std::pair<std::pair<int, int>, std::vector<pair_point>>>
    &points)
{
	std::map<std::pair<int, int>, std::set<int>> now;

	for (auto &last : e->cylinder_triangles)
		if (!pair_excluded(e, last.first.first, last.first.second))
			tris[last.first];
	for (auto &t : tris) {
		int cyl = t.first.first, msh = t.first.second;
		std::set<int> under;
		std::vector<pair_point> ours = cylinder_triangle_points(e, cyl,
		    msh, t.second, &under);

		if (!under.empty())
			now[t.first] = under;
		if (!ours.empty())
			replace_points(t.first, ours, pair_at, points);
	}
	e->cylinder_triangles.swap(now);
}

/* Collision ci as own_points takes it: its hull (hull_contact's
 * vertices and their faces), else its corner_shape. */
void
own_shape(const dart_engine *e, int ci, struct phys_corner_shape *s)
{
	const std::vector<Eigen::Vector3d> &h = e->hull[(size_t)ci];
	const std::vector<double> &pl = e->hull_planes[(size_t)ci];

	corner_shape(e, ci, s);
	if (h.empty() || pl.empty())
		return;
	s->kind = PHYS_CORNER_HULL;
	s->v = h[0].data();
	s->nv = h.size();
	s->v_stride = 3;
	s->planes = pl.data();
	s->nplanes = pl.size() / 4;
}

/*
 * The points of a pair phys collides under FCL (own_pair), c1 the lower:
 * the deepest, with the normal and depth of the shapes' penetration as
 * libccd's portal refinement finds it (as MuJoCo collides a cylinder),
 * and each corner or rim point of either that lies in the other
 * (phys_corner_points); none where they are apart.
 */
std::vector<pair_point>
own_points(const dart_engine *e, int c1, int c2)
{
	dd::ShapeNode *s1 = shape_node(e, c1), *s2 = shape_node(e, c2);
	struct phys_corner_shape a, b;
	/* the detector's, a hull's corners and a cylinder's rims */
	const std::size_t most = 1 + PHYS_CORNERS_MAX +
	    2 * PHYS_CORNER_RIM_POINTS;
	std::vector<phys_vec3> at(most);
	std::vector<double> deep(most);
	phys_vec3 n, p;
	std::vector<pair_point> out;
	double depth;

	if (!s1 || !s2)
		return out;
	own_shape(e, c1, &a);
	own_shape(e, c2, &b);
	if (a.kind == PHYS_CORNER_NONE || b.kind == PHYS_CORNER_NONE ||
	    !phys_corner_deepest(&a, &b, &p, &n, &depth))
		return out;
	n = phys_corner_normal(&a, &b, n);
	std::size_t k = phys_corner_points(&a, &b, p, n, depth,
	    PHYS_CORNER_REACH, at.data(), deep.data(), most);
	for (std::size_t i = 0; i < k; i++)
		out.push_back({ s1->getBodyNodePtr().get(),
		    s2->getBodyNodePtr().get(), ev(at[i]), ev(n), deep[i] });
	return out;
}

/*
 * The points p of a pair (key, in its order) that touch at their corners
 * (phys_corner_pair: a capsule and a box or a cylinder, two cylinders):
 * the deepest, and each end of a capsule and corner or rim point of
 * either that lies in the other (phys_corner_points). ODE's detector,
 * which DART collides capsules with, gives one point: a capsule lying on
 * a box rocked on it and sank in to its axis at 1.7 cm/s, on a
 * cylinder's end 2.8 cm, a cylinder lying there 4.3 cm, as under ODE.
 */
void
corner_contacts(const dart_engine *e, std::pair<int, int> key,
    std::vector<pair_point> &p)
{
	struct phys_corner_shape a, b;
	phys_vec3 at[PHYS_CORNERS_ROUND_MAX], x;
	double depth[PHYS_CORNERS_ROUND_MAX];
	std::size_t i, n, deepest = 0;

	if (p.empty())
		return;
	corner_shape(e, key.first, &a);
	corner_shape(e, key.second, &b);
	if (!phys_corner_pair(a.kind, b.kind))
		return;
	for (i = 1; i < p.size(); i++)
		if (p[i].depth > p[deepest].depth)
			deepest = i;
	pair_point d = p[deepest];
	d.normal = ev(phys_corner_normal(&a, &b, pv(d.normal)));
	n = phys_corner_points(&a, &b, pv(d.point), pv(d.normal), d.depth,
	    PHYS_CORNER_REACH, at, depth, sizeof at / sizeof *at);
	p.clear();
	for (i = 0; i < n; i++) {
		x = at[i];
		p.push_back({ d.b1, d.b2, Eigen::Vector3d(x.x, x.y, x.z),
		    d.normal, depth[i] });
	}
}

void
find_contacts(dart_engine *e)
{
	dc::CollisionOption opt(true, 1000000, e->filter);
	std::map<std::pair<int, int>, int> kept;
	std::map<std::pair<int, int>, std::vector<hull_point>> hulls;
	/* each pair's points, the pairs in the detector's order */
	std::map<std::pair<int, int>, std::size_t> pair_at;
	std::vector<std::pair<std::pair<int, int>, std::vector<pair_point>>>
	    points;
	/* a cylinder's pairs with meshes: the triangles FCL found */
	std::map<std::pair<int, int>, std::set<int>> tris;
	/* a box's or a hull's pairs with meshes: the triangles, and the
	 * deepest point */
	std::map<std::pair<int, int>, std::pair<std::set<int>, double>>
	    polyhedra;

	e->result.clear();
	e->own_pairs.clear();
	e->ncontacts = 0;
	e->contacts_used = 0;
	e->solver->manual() = e->lasting;
	e->group->collide(opt, &e->result);
	for (std::size_t i = 0; i < e->result.getNumContacts(); i++) {
		const dc::Contact &c = e->result.getContact(i);
		int c1 = collision_index(e, c.collisionObject1);
		int c2 = collision_index(e, c.collisionObject2);

		if (c1 < 0 || c2 < 0)
			continue;
		if (!e->hull[(size_t)c1].empty() &&
		    !e->hull[(size_t)c2].empty()) {
			bool in_order = c1 < c2;	/* each pair once */

			hulls[std::make_pair(std::min(c1, c2), std::max(c1,
			    c2))].push_back({ in_order ? c.collisionObject1 :
			    c.collisionObject2, in_order ? c.collisionObject2 :
			    c.collisionObject1, c.point, in_order ? c.normal :
			    Eigen::Vector3d(-c.normal), c.penetrationDepth });
			continue;
		}
		if (c.penetrationDepth < 0 ||
		    dc::Contact::isZeroNormal(c.normal))
			continue;
		Eigen::Vector3d normal = c.normal;
		if (e->fcl && fcl_mesh(c.collisionObject2) &&
		    !fcl_mesh(c.collisionObject1))
			normal = -normal;
		normal = face_normal(e, c, c1, c2, e->fcl ? smooth_edge(e, c,
		    c1, c2, normal) : ode_mesh_normal(e, c, c1, c2, normal));
		auto key = std::make_pair(c1, c2);
		auto at = pair_at.emplace(key, points.size());
		if (at.second)
			points.emplace_back(key, std::vector<pair_point>());
		points[at.first->second].second.push_back({
		    body_of(c.collisionObject1), body_of(c.collisionObject2),
		    c.point, normal, c.penetrationDepth });
		if (cylinder_on_mesh(e, c1, c2))
			tris[key].insert(c.triID2);
		else if (cylinder_on_mesh(e, c2, c1))
			tris[std::make_pair(c2, c1)].insert(c.triID1);
		if (polyhedron_on_mesh(e, c1, c2) ||
		    polyhedron_on_mesh(e, c2, c1)) {
			auto &b = polyhedra[polyhedron_on_mesh(e, c1, c2) ? key :
			    std::make_pair(c2, c1)];

			/* FCL names the triangle in either index */
			b.first.insert(c.triID1 >= 0 ? c.triID1 : c.triID2);
			b.second = std::max(b.second, c.penetrationDepth);
		}
	}
	cylinders_on_meshes(e, tris, pair_at, points);
	for (auto &b : polyhedra) {
		std::vector<pair_point> ours = polyhedron_mesh_points(e,
		    b.first.first, b.first.second, b.second.first,
		    b.second.second);

		if (ours.empty())
			continue;
		add_deeper(ours, b.first, pair_at, points);
		replace_points(b.first, ours, pair_at, points);
	}
	for (auto &pp : points)
		corner_contacts(e, pp.first, pp.second);
	std::sort(e->own_pairs.begin(), e->own_pairs.end());
	e->own_pairs.erase(std::unique(e->own_pairs.begin(),
	    e->own_pairs.end()), e->own_pairs.end());
	for (auto key : e->own_pairs)
		points.emplace_back(key, own_points(e, key.first, key.second));
	for (int m : e->plane_solids)
		for (int p : e->planes)
			if (!pair_excluded(e, m, p))
				points.emplace_back(std::make_pair(m, p),
				    plane_points(e, m, p));
	for (auto &pp : points) {
		const std::vector<pair_point> &p = pp.second;

		for (std::size_t i : spread(p, pair_limit(e, pp.first.first,
		    pp.first.second)))
			add_contact(e, pp.first.first, pp.first.second, p[i].b1,
			    p[i].b2, p[i].point, p[i].normal, p[i].depth, kept);
	}
	for (auto &h : hulls)
		hull_contact(e, h.first.first, h.first.second, h.second, kept);
}

/* A stop's side of DART's limit: the limit itself, or none while the
 * stop's own row pushes the axis back. */
void
open_stop(const struct stop &s, bool open)
{
	double b = open ? (s.upper ? INFINITY : -INFINITY) : s.bound;

	if (s.upper)
		s.joint->setPositionUpperLimit(s.dof, b);
	else
		s.joint->setPositionLowerLimit(s.dof, b);
}

/*
 * The tree joints' axes past a limit at the start, or where a pose or the
 * limits were last set. DART's limit (6.12) only stops such an axis where
 * it is (its push back scales with its error allowance, 0), so the limit
 * would hold a joint outside its range; under ODE the stop pushes it back
 * in from the first step. Each such axis gets a row of its own that
 * pushes as ODE's stop does (the joint's physics.ode.limit.erp of the
 * error a step, one way: an MJCF joint's is as soft as MuJoCo's limit),
 * in place of DART's limit on that side until it is back within.
 */
void
find_stops(dart_engine *e)
{
	for (auto &s : e->stops)
		open_stop(s, false);
	e->stops.clear();
	e->find_stops = false;
	for (std::size_t ji = 0; ji < e->joints.size(); ji++) {
		djoint &dj = e->joints[ji];
		dd::Joint *d = dj.dj;

		if (dj.kind != J_TREE || !d->areLimitsEnforced())
			continue;
		for (std::size_t k = 0; k < d->getNumDofs() && k < 2; k++) {
			double q = d->getPosition(k);
			double lo = d->getPositionLowerLimit(k);
			double hi = d->getPositionUpperLimit(k);
			bool upper = q > hi;

			if (!upper && !(q < lo))
				continue;
			auto row = std::make_shared<Coupling>(
			    std::vector<Coupling::term>{ { d, k, 1 } },
			    upper ? hi : lo);
			(upper ? row->hi : row->lo) = 0;
			row->erp = PVD(vals(e, PHYS_S_JOINT, (int)ji),
			    JOINT_physics_ode_limit_erp);
			e->stops.push_back({ d, k, upper, upper ? hi : lo, row });
		}
	}
}

/* This step's stops: a row each for the axes still past their limit; an
 * axis back within has DART's limit again. */
void
push_stops(dart_engine *e)
{
	if (e->find_stops)
		find_stops(e);
	for (std::size_t i = 0; i < e->stops.size();) {
		struct stop &s = e->stops[i];
		double q = s.joint->getPosition(s.dof);

		if (s.upper ? q > s.bound : q < s.bound) {
			open_stop(s, true);
			e->solver->manual().push_back(s.row);
			i++;
			continue;
		}
		open_stop(s, false);
		e->stops.erase(e->stops.begin() + (long)i);
	}
}

/* This step's fixed limited tendons past a bound of their range: a
 * one-sided coupling row each over its joints, back in only
 * (phys_tendon_past), its overshoot corrected by LOOP_ERP a step; its
 * joints are of DART's trees (build). */
void
push_tendons(dart_engine *e)
{
	for (std::size_t i = 0; i < e->w->ntendons; i++) {
		const struct phys_tendon *t = &e->w->tendons[i];
		std::vector<Coupling::term> terms;
		double len = 0, bound;
		int side;

		for (int k = 0; k < t->njoints; k++) {
			int ji = t->joints[k];
			dd::Joint *d = e->joints[(size_t)ji].dj;

			len += t->coef[k] * d->getPosition((std::size_t)inner(
			    &e->w->joints[ji], 0));
		}
		if (!(side = phys_tendon_past(t, len, &bound)))
			continue;
		for (int k = 0; k < t->njoints; k++) {
			int ji = t->joints[k];

			terms.push_back({ e->joints[(size_t)ji].dj,
			    (std::size_t)inner(&e->w->joints[ji], 0),
			    t->coef[k] });
		}
		auto row = std::make_shared<Coupling>(terms, bound);
		(side < 0 ? row->hi : row->lo) = 0;
		e->solver->manual().push_back(row);
	}
}

/* ---- the engine's operations ---- */

static struct dart_engine *
dart_engine_new(const struct phys_scene *w, const struct phys_run_values *v,
    const struct phys_engine_options *opt, double t)
{
	if (phys_links_within_room(w, LINK_BYTES, "DART") < 0)
		return nullptr;

	auto *e = new dart_engine(w, v);
	Quiet quiet;

	e->skip_unsupported = opt && opt->skip_unsupported;
	e->links.resize(w->nlinks);
	e->joints.resize(w->njoints);
	e->hull.resize(w->ncollisions);
	e->hull_planes.resize(w->ncollisions);
	e->edges.resize(w->ncollisions);
	try {
		e->world = dart::simulation::World::create();
		auto solver = std::make_unique<Solver>();
		e->solver = solver.get();
		e->world->setConstraintSolver(std::move(solver));
		e->filter = std::make_shared<Filter>(e, &e->own_pairs);
		if (phys_heightmaps_within(w, MAX_HEIGHTMAP_SAMPLES,
		    "DART") < 0 || triangles_within_room(w) < 0 ||
		    dart_engine_apply_profile(e) < 0 ||
		    build(e) < 0 ||
		    make_detector(e, true) < 0 || dart_engine_apply_profile(e) < 0) {
			dart_engine_free(e);
			return nullptr;
		}
	} catch (...) {
		/* said by the operation's seam (engine_impl.h) */
		e->thrown = true;
		dart_engine_free(e);
		throw;
	}
	dart_engine_apply_world(e);
	for (size_t i = 0; i < w->nlinks; i++) {
		const struct phys_model *m = &w->models[w->links[i].model];

		if (m->has_init_vel && !e->links[i].is_static)
			dart_engine_set_link_vel(e, (int)i, &m->init_linear,
			    &m->init_angular);
	}
	return e;
}

static void
dart_engine_free(struct dart_engine *e)
{
	Quiet quiet;

	/*
	 * After a throw (memory running out, most often) DART's state is
	 * unknown: its FCL detector can keep shapes whose objects are gone,
	 * and asserts when freed. Such an engine is kept, never freed.
	 */
	if (!e || e->thrown)
		return;
	e->group.reset();
	e->lasting.clear();
	if (e->solver)
		e->solver->manual().clear();
	e->world.reset();
	e->links.clear();
	e->trees.clear();
	delete e;
}

static int
dart_engine_apply_profile(struct dart_engine *e)
{
	const struct phys_value *v = vals(e, PHYS_S_PHYSICS, 0);
	bool pgs = strcmp(PVS(v, PHYSICS_dart_solver_solver_type), "pgs") == 0;

	e->step = PVD(v, PHYSICS_max_step_size);
	e->max_contacts = (int)PVI(v, PHYSICS_max_contacts);
	e->world->setTimeStep(e->step);
	/* Dantzig falls back on PGS where it fails, as DART's default. */
	if (pgs) {
		e->solver->setBoxedLcpSolver(std::make_shared<dk::PgsBoxedLcpSolver>());
		e->solver->setSecondaryBoxedLcpSolver(nullptr);
	} else {
		e->solver->setBoxedLcpSolver(std::make_shared<Dantzig>());
		e->solver->setSecondaryBoxedLcpSolver(
		    std::make_shared<dk::PgsBoxedLcpSolver>());
	}
	if (!e->links.empty() && e->group)
		return make_detector(e, false);
	return 0;
}

static void
dart_engine_apply_world(struct dart_engine *e)
{
	e->world->setGravity(ev(PVV(vals(e, PHYS_S_WORLD, 0), WORLD_gravity)));
}

static int
dart_engine_apply_link(struct dart_engine *e, int li)
{
	Quiet quiet;

	if (e->links[(size_t)li].is_static)
		return 0;
	if (set_mass(e, li, false) < 0)
		return -1;
	apply_link_flags(e, li);
	return 0;
}

/*
 * A tree joint's new values: a new axis.xyz is taken in the joint frame
 * (SDF 1.7's default), the joint set up again where it is, its positions
 * carried on as offsets (as under ODE).
 */
static int
dart_engine_apply_joint(struct dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	phys_vec3 xyz[2] = { PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis_xyz),
		PVV(vals(e, PHYS_S_JOINT, ji), JOINT_axis2_xyz) };
	Quiet quiet;

	if (dj.kind == J_TREE && j->type == PHYS_JOINT_BALL)
		return set_ball(e, ji);
	if (dj.kind != J_TREE || j->type == PHYS_JOINT_FIXED)
		return 0;
	for (int k = 0; k < 2; k++)
		if (v3_norm(xyz[k]) == 0)
			return phys_fail("joint '%s': axis is zero", j->name);
	if (xyz[0].x != dj.xyz[0].x || xyz[0].y != dj.xyz[0].y ||
	    xyz[0].z != dj.xyz[0].z || xyz[1].x != dj.xyz[1].x ||
	    xyz[1].y != dj.xyz[1].y || xyz[1].z != dj.xyz[1].z) {
		dd::Joint *d = dj.dj;
		Eigen::Isometry3d rel = d->getRelativeTransform();
		Eigen::VectorXd vel = d->getVelocities();
		double pos[2], v[2];
		int n = inner_state(e, ji, pos, v);

		for (int k = 0; k < n; k++)
			dj.offset[k] = pos[k];
		/* the parent side takes the displacement; coordinates 0 */
		d->setTransformFromParentBodyNode(rel *
		    d->getTransformFromChildBodyNode());
		d->setPositions(Eigen::VectorXd::Zero((long)d->getNumDofs()));
		Eigen::Vector3d a1 = ev(v3_normalize(xyz[0]));
		Eigen::Vector3d a2 = ev(v3_normalize(xyz[1]));
		if (auto *r = dynamic_cast<dd::RevoluteJoint *>(d))
			r->setAxis(a1);
		else if (auto *p = dynamic_cast<dd::PrismaticJoint *>(d))
			p->setAxis(a1);
		else if (auto *s = dynamic_cast<dd::ScrewJoint *>(d))
			s->setAxis(a1);
		else if (auto *u = dynamic_cast<dd::UniversalJoint *>(d)) {
			u->setAxis1(j->type == PHYS_JOINT_REVOLUTE2 ? -a2 : a2);
			u->setAxis2(a1);
		}
		dj.xyz[0] = xyz[0], dj.xyz[1] = xyz[1];
		(void)vel;
	}
	if (j->type == PHYS_JOINT_SCREW) {
		dj.lead = phys_joint_screw_lead(vals(e, PHYS_S_JOINT,
		    ji));
		static_cast<dd::ScrewJoint *>(dj.dj)->setPitch(dj.lead * 2 * M_PI);
	}
	return set_axes(e, ji);
}

static int
dart_engine_apply_collision(struct dart_engine *e, int ci)
{
	Quiet quiet;

	return attach_shapes(e, e->w->collisions[ci].link, false);
}

/* Every link that moves: its frame. The driver checks them before each
 * step too (check_first): DART steps only from a state within
 * phys_check_body's bounds. */
static bool
dart_engine_body_state(const struct dart_engine *e, int li,
    struct phys_body_state *out)
{
	phys_pose p;

	if (e->links[(size_t)li].is_static)
		return false;
	dart_engine_link_pose(e, li, &p);
	dart_engine_link_vel(e, li, &out->vel, &out->angvel);
	out->pos = p.p;
	out->q = p.q;
	return true;
}

/* What a tree joint's first axis gives its two links alone, as an
 * inverse inertia. */
double
tree_axis_inverse(const dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	const djoint &dj = e->joints[(size_t)ji];
	struct phys_body_inverse c = body_inverse(e, j->child);
	struct phys_body_inverse p = body_inverse(e, j->parent);
	phys_vec3 anchor = phys_pose_mul(link_pose(e, j->child),
	    dj.f.in_child).p;
	phys_vec3 axis = phys_joint_frames_axis(&dj.f, link_pose(e,
	    j->parent), 0, dj.dj->getPosition(0));

	return phys_axis_inverse_inertia(&c, &p, anchor, axis,
	    j->type == PHYS_JOINT_PRISMATIC);
}

/*
 * An implicit servo (motor.h) too stiff for a force held over the step
 * (the driver's effort else, as gz-sim applies it), on a hinge or slider
 * of the tree, held in a row of its own, implicit in the axis's rate as
 * ODE's and Bullet's motor rows are (phys_servo_row), solved with the
 * step's contacts and limits: its force stays within its range, whatever
 * else pushes the axis; the range's middle is the effort held beside it
 * (*force).
 */
static void
servo_in_row(dart_engine *e, int ji, double *force)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	struct phys_servo_row r;
	double pos[2], vel[2];

	dj.servo_held = false;
	if (!phys_servo_implicit(&dj.servo, j->type))
		return;
	dart_engine_joint_state(e, ji, pos, vel);
	if (!phys_servo_row(&dj.servo, e->step, tree_axis_inverse(e, ji),
	    pos[0], &r))
		return;
	if (!dj.servo_row)
		dj.servo_row = std::make_shared<Coupling>(
		    std::vector<Coupling::term>{ { dj.dj, 0, 1 } }, 0);
	/* in impulses: F = D (rate - v') over h is h F, CFM 1 / (h D) */
	dj.servo_row->rate = r.rate;
	dj.servo_row->cfm = r.cfm / e->step;
	dj.servo_row->lo = -r.half * e->step;
	dj.servo_row->hi = r.half * e->step;
	dj.servo_row->impulse = 0;
	dj.servo_middle = r.middle;
	dj.servo_held = true;
	*force = r.middle;
}

/* This step's servo rows (servo_in_row), beside its contacts. */
static void
push_servos(dart_engine *e)
{
	for (djoint &dj : e->joints)
		if (dj.servo_held)
			e->solver->manual().push_back(dj.servo_row);
}

/* This step's ball ranges: a row each for the balls of the trees whose
 * upper limit is below pi (no turn is more), acting while the turn is
 * near it (BallRange::update). */
static void
push_ranges(dart_engine *e)
{
	for (std::size_t ji = 0; ji < e->joints.size(); ji++) {
		djoint &dj = e->joints[ji];
		double upper;

		if (dj.kind != J_TREE ||
		    e->w->joints[ji].type != PHYS_JOINT_BALL)
			continue;
		upper = phys_ball_range(vals(e, PHYS_S_JOINT, (int)ji));
		if (!phys_has_upper(upper) || !(upper < M_PI))
			continue;
		if (!dj.range)
			dj.range = std::make_shared<BallRange>(e, (int)ji,
			    dj.dj);
		e->solver->manual().push_back(dj.range);
	}
}

/* A tree joint's command: DART's generalized force on its dofs, for one
 * step (the world's step resets it), or its servo in a row. */
static void
tree_command(dart_engine *e, int ji)
{
	const struct phys_joint *j = &e->w->joints[ji];
	djoint &dj = e->joints[(size_t)ji];
	std::size_t n = std::min<std::size_t>(dj.dj->getNumDofs(), 2);
	double f;

	for (std::size_t k = 0; k < n; k++) {
		f = dj.cmd[k];
		if (k == 0 && n == 1)
			servo_in_row(e, ji, &f);
		if (f != 0)
			dj.dj->setForce((std::size_t)inner(j, (int)k), f);
	}
}

/* A kinematic link's free joint's velocities for its held motion where
 * it is now (they are the body frame's, which turns with it). */
static void
kinematic_velocities(dlink &dl)
{
	const Eigen::Isometry3d &x = dl.body->getWorldTransform();
	Eigen::Matrix3d rt = x.linear().transpose();
	Eigen::Vector6d v;

	v.head<3>() = rt * dl.kin_ang;
	v.tail<3>() = rt * dl.kin_lin;
	const dart::math::Jacobian &J = dl.joint->getRelativeJacobian();
	Eigen::VectorXd dq = (J.transpose() * J).ldlt().solve(J.transpose() *
	    v);

	dl.joint->setVelocities(dq);
	dl.joint->setCommands(dq);
}

/*
 * A kinematic link moves as phys_kinematic_step says, as under the other
 * engines; DART moves a free body along the screw of its body frame's
 * velocities, a curve, so the step's end is placed after it
 * (held_kinematic).
 */
static void
hold_kinematic(dlink &dl, double h)
{
	dl.kin_next = iso(phys_kinematic_step(pp(dl.body->getWorldTransform()),
	    pv(dl.kin_lin), pv(dl.kin_ang), h));
	kinematic_velocities(dl);
}

static void
held_kinematic(dlink &dl)
{
	dd::FreeJoint::setTransformOf(dl.joint, dl.kin_next);
	kinematic_velocities(dl);
}

/*
 * DART's joint spring pulls on where the step would end, -k (q + h dq -
 * ref), and weighs the joint's moment h^2 k more: its -k h dq damps the
 * swing (an undamped spring of 10 N m/rad on 0.25 kg m^2 lost 28% of its
 * amplitude in 20 s). This step's force k h dq takes that term back, so
 * the spring is -k (q - ref) on a moment h^2 k larger, stable at every
 * stiffness and of no damping but the joint's own.
 */
static void
spring_without_damping(dart_engine *e, int ji)
{
	dd::Joint *d = e->joints[(size_t)ji].dj;
	double k;

	for (std::size_t i = 0; i < d->getNumDofs(); i++)
		if ((k = d->getSpringStiffness(i)) > 0)
			d->setForce(i, d->getForce(i) + k * e->step *
			    d->getVelocity(i));
}

/* The link whose body is b, or -1. */
static int
link_of(const dart_engine *e, const dd::BodyNode *b)
{
	for (std::size_t i = 0; b && i < e->links.size(); i++)
		if (e->links[i].body == b)
			return (int)i;
	return -1;
}

/* Group g refused at t0, at the line of the first link it names. */
static int
say_too_large(const dart_engine *e, const group_too_large &g, double t0)
{
	int la = link_of(e, g.a), lb = link_of(e, g.b);
	const struct phys_link *a = &e->w->links[std::max(la, 0)];
	double mb = (double)g.rows * (double)g.rows * 8 / 1048576;

	if (la < 0 || lb < 0)
		return phys_fail("simulation stopped at t=%.9g: DART would "
		    "solve %zu rows of constraints together, more than the "
		    "%zu it is given (a dense system of %.0f MB)", t0,
		    g.rows, MAX_GROUP_ROWS, mb);
	return phys_failat(PHYS_AT(a->doc, a->node),
	    "simulation stopped at t=%.9g: DART would solve %zu rows of "
	    "constraints together (%zu contacts and joints among bodies "
	    "touching one another, links '%s' and '%s' among them), more "
	    "than the %zu it is given: its solver makes them one dense "
	    "system (%.0f MB) and takes seconds or more a step on it; run "
	    "it under ODE or Bullet, or lower max_contacts", t0, g.rows,
	    g.constraints, a->name, e->w->links[lb].name, MAX_GROUP_ROWS,
	    mb);
}

static int
dart_engine_step(struct dart_engine *e, double t0, double t1)
{
	Quiet quiet;

	for (size_t i = 0; i < e->joints.size(); i++)
		if (e->joints[i].kind == J_LOOP)
			loop_forces(e, (int)i);
		else if (e->joints[i].kind == J_TREE) {
			if (e->commanded)
				tree_command(e, (int)i);
			spring_without_damping(e, (int)i);
		}
	for (size_t i = 0; i < e->links.size(); i++) {
		dlink &dl = e->links[i];

		if (dl.is_static)
			continue;
		decay(e, (int)i);
		if (e->pushed && !dl.kinematic) {
			/* the run's force, at the centre of mass */
			dl.body->addExtForce(ev(dl.force), dl.body->getLocalCOM(),
			    false, true);
			dl.body->addExtTorque(ev(dl.torque), false);
		}
		if (dl.kinematic && dl.tree_joint < 0)
			hold_kinematic(dl, e->step);
	}
	/* A gravity DART can step under. */
	Eigen::Vector3d g = e->world->getGravity();
	/* its size without squares, which overflow past 1e154 */
	double gn = std::hypot(std::hypot(g.x(), g.y()), g.z());

	if (!(gn <= DART_RANGE))
		return phys_fail("gravity of %g m/s^2: DART runs up to %g",
		    gn, DART_RANGE);
	try {
		find_contacts(e);
		push_stops(e);
		push_tendons(e);
		push_servos(e);
		push_ranges(e);
		e->world->step();
	} catch (const group_too_large &g) {
		/* DART's step stopped between its groups */
		e->thrown = true;
		return say_too_large(e, g, t0);
	} catch (...) {
		e->thrown = true;
		throw;
	}
	for (dlink &dl : e->links)
		if (!dl.is_static && dl.kinematic && dl.tree_joint < 0)
			held_kinematic(dl);
	keep_still_impulses(e);
	e->solver->manual().clear();
	track_loops(e, false);
	return 0;
}

static void
dart_engine_link_pose(const struct dart_engine *e, int li, phys_pose *out)
{
	*out = link_pose(e, li);
}

static void
dart_engine_link_vel(const struct dart_engine *e, int li, phys_vec3 *lin,
    phys_vec3 *ang)
{
	const dlink &dl = e->links[(size_t)li];

	if (dl.is_static) {
		*lin = *ang = v3(0, 0, 0);
		return;
	}
	*lin = pv(dl.body->getLinearVelocity());
	*ang = pv(dl.body->getAngularVelocity());
}

static void
dart_engine_link_com(const struct dart_engine *e, int li, phys_vec3 *com,
    phys_vec3 *com_vel)
{
	const dlink &dl = e->links[(size_t)li];

	if (dl.is_static) {
		*com = phys_pose_apply(e->w->links[li].pose, phys_pose_from6(PV(
		    vals(e, PHYS_S_LINK, li), LINK_inertial_pose)->u.pose).p);
		*com_vel = v3(0, 0, 0);
		return;
	}
	*com = pv(dl.body->getCOM());
	*com_vel = pv(dl.body->getCOMLinearVelocity());
}

static bool
dart_engine_link_dynamic(const struct dart_engine *e, int li)
{
	return !e->links[(size_t)li].is_static;
}

/* As the model gives them, about the centre of mass in the inertial
 * frame (raised to the floor only for a tensor no body has). */
static void
dart_engine_link_mass(const struct dart_engine *e, int li, double *mass,
    double inertia[6])
{
	const dlink &dl = e->links[(size_t)li];

	if (dl.is_static) {
		phys_link_values_mass(vals(e, PHYS_S_LINK, li), mass, inertia);
		return;
	}
	*mass = dl.mass;
	memcpy(inertia, dl.inertia, sizeof dl.inertia);
}

/* A moving link's new pose; the others of its tree stay where they are
 * (their joints take up the difference): placed near where it is, else
 * its tree placed anew (set_link_poses of one). */
static int
dart_engine_set_link_pose(struct dart_engine *e, int li, phys_pose p)
{
	if (e->links[(size_t)li].is_static)
		return phys_fail("link '%s' is static: its pose cannot change",
		    e->w->links[li].name);
	{
		Quiet quiet;

		if (place_near(e, li, iso(p)) < 0)
			return dart_engine_set_link_poses(e, &li, &p, 1);
	}
	track_loops(e, true);
	e->find_stops = true;
	return 0;
}

/* Each tree with a link of links placed at once (place_tree), every
 * joint's coordinates from its parent's new pose and its child's. */
static int
dart_engine_set_link_poses(struct dart_engine *e, const int *links,
    const phys_pose *p, size_t n)
{
	std::map<dd::Skeleton *, std::vector<Eigen::Isometry3d>> trees;

	for (size_t i = 0; i < n; i++)
		if (e->links[(size_t)links[i]].is_static)
			return phys_fail("link '%s' is static: its pose "
			    "cannot change", e->w->links[links[i]].name);
	Quiet quiet;

	for (size_t i = 0; i < n; i++) {
		const dlink &dl = e->links[(size_t)links[i]];
		auto at = trees.find(dl.skel.get());

		if (at == trees.end()) {
			std::vector<Eigen::Isometry3d> pose;

			for (std::size_t k = 0; k < dl.skel->getNumBodyNodes();
			    k++)
				pose.push_back(dl.skel->getBodyNode(k)->
				    getWorldTransform());
			at = trees.emplace(dl.skel.get(), pose).first;
		}
		at->second[dl.body->getIndexInSkeleton()] = iso(p[i]);
	}
	for (size_t i = 0; i < n; i++) {
		const dlink &dl = e->links[(size_t)links[i]];
		auto at = trees.find(dl.skel.get());

		if (at == trees.end())
			continue;	/* placed */
		place_tree(e, dl.skel, at->second, links_of(e, dl.skel));
		trees.erase(at);
	}
	track_loops(e, true);
	e->find_stops = true;
	return 0;
}

/* Velocities are those of the link origin, world frame; the others of
 * its tree keep theirs. */
static int
dart_engine_set_link_vel(struct dart_engine *e, int li, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	dlink &dl = e->links[(size_t)li];

	if (dl.is_static)
		return phys_fail("link '%s' is static: it cannot move",
		    e->w->links[li].name);
	std::vector<Eigen::Vector6d> vel(dl.skel->getNumBodyNodes());
	Quiet quiet;

	for (std::size_t i = 0; i < vel.size(); i++)
		vel[i] = dl.skel->getBodyNode(i)->getSpatialVelocity();
	Eigen::Matrix3d rt = dl.body->getWorldTransform().linear().transpose();
	Eigen::Vector6d &mine = vel[dl.body->getIndexInSkeleton()];
	if (ang)
		mine.head<3>() = rt * ev(*ang);
	if (lin)
		mine.tail<3>() = rt * ev(*lin);
	else
		mine.tail<3>() = rt * dl.body->getLinearVelocity();
	move_tree(dl.skel, vel);
	dl.kin_lin = dl.body->getLinearVelocity();
	dl.kin_ang = dl.body->getAngularVelocity();
	return 0;
}

/* A joint's positions and rates by this engine's axes (inner). */
int
inner_state(const struct dart_engine *e, int ji, double pos[2],
    double vel[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	const djoint &dj = e->joints[(size_t)ji];

	pos[0] = pos[1] = vel[0] = vel[1] = 0;
	if (dj.kind == J_LOOP)
		return loop_state(e, ji, pos, vel);
	if (dj.kind != J_TREE)
		return 0;
	switch (j->type) {
	case PHYS_JOINT_REVOLUTE:
	case PHYS_JOINT_PRISMATIC:
		pos[0] = dj.dj->getPosition(0) + dj.offset[0];
		vel[0] = dj.dj->getVelocity(0);
		return 1;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
		for (int k = 0; k < 2; k++) {
			pos[k] = dj.dj->getPosition((std::size_t)k) + dj.offset[k];
			vel[k] = dj.dj->getVelocity((std::size_t)k);
		}
		return 2;
	case PHYS_JOINT_SCREW:	/* Gazebo's order: the turn, then travel */
		pos[0] = dj.dj->getPosition(0) + dj.offset[0];
		vel[0] = dj.dj->getVelocity(0);
		pos[1] = dj.lead * pos[0];
		vel[1] = dj.lead * vel[0];
		return 2;
	default:
		return 0;
	}
}

/* ... by phys's axes. */
static int
dart_engine_joint_state(const struct dart_engine *e, int ji, double pos[2],
    double vel[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	double p[2], v[2];
	int n = inner_state(e, ji, p, v);

	for (int k = 0; k < 2; k++) {
		pos[k] = p[inner(j, k)];
		vel[k] = v[inner(j, k)];
	}
	return n;
}

/*
 * The wrench on the child about its origin, in its frame: what the tree
 * joint transmits (less its springs and damping, which ODE applies as
 * forces beside the constraint, when only the constraint's is asked
 * for), or what the loop's constraint gave.
 */
bool
child_wrench(const dart_engine *e, int ji, Eigen::Vector6d &w,
    bool constraint_only)
{
	const djoint &dj = e->joints[(size_t)ji];

	if (dj.kind == J_TREE) {
		const struct phys_value *v = vals(e, PHYS_S_JOINT, ji);
		std::size_t n = std::min<std::size_t>(dj.dj->getNumDofs(), 2);
		Eigen::VectorXd tau = Eigen::VectorXd::Zero((long)dj.dj->getNumDofs());

		const dd::BodyNode *child = dj.dj->getChildBodyNode();

		w = child->getBodyForce();
		/* a child nothing moves: its contacts, too, are its joint's */
		if (!child->isReactive() && e->w->joints[ji].child >= 0)
			w -= e->links[(size_t)e->w->joints[ji].child]
			    .still_impulse / e->step;
		if (!constraint_only || e->w->joints[ji].type == PHYS_JOINT_BALL)
			return true;
		for (std::size_t k = 0; k < n; k++)
			tau[(long)k] = phys_joint_spring_damper(v,
			    inner(&e->w->joints[ji], (int)k),
			    dj.dj->getPosition(k) + dj.offset[k],
			    dj.dj->getVelocity(k));
		w -= dj.dj->getRelativeJacobian() * tau;
		return true;
	}
	if (dj.kind == J_LOOP) {
		w = dj.loop->impulse / e->step;
		return true;
	}
	return false;
}

static void
dart_engine_joint_wrench(const struct dart_engine *e, int ji,
    phys_vec3 *force, phys_vec3 *torque)
{
	const struct phys_joint *j = &e->w->joints[ji];
	Eigen::Vector6d w;
	int li = e->joints[(size_t)ji].kind == J_LOOP && is_static(e, j->child) ?
	    j->parent : j->child;

	*force = *torque = v3(0, 0, 0);
	if (!child_wrench(e, ji, w, true) || is_static(e, li))
		return;
	const dd::BodyNode *b = e->links[(size_t)li].body;
	Eigen::Matrix3d r = b->getWorldTransform().linear();
	Eigen::Vector3d f = r * w.tail<3>(), t = r * w.head<3>();
	Eigen::Vector3d arm = b->getCOM() - b->getWorldTransform().translation();

	/* About the centre of mass, as ODE gives it. */
	*force = pv(f);
	*torque = pv(t - arm.cross(f));
}

/* The constraint's share along each axis, plus what springs and damping
 * applied there: a tree joint's generalized force as DART transmits it
 * (its springs and damping inside), a loop's from its wrench. */
static int
dart_engine_joint_effort(const struct dart_engine *e, int ji, double eff[2])
{
	const struct phys_joint *j = &e->w->joints[ji];
	const djoint &dj = e->joints[(size_t)ji];
	double pos[2], vel[2];
	int n = inner_state(e, ji, pos, vel);
	Eigen::Vector6d w;

	eff[0] = eff[1] = 0;
	if (n == 0 || !child_wrench(e, ji, w, false))
		return n;
	if (dj.kind == J_TREE && j->type != PHYS_JOINT_SCREW) {
		Eigen::VectorXd g = dj.dj->getRelativeJacobian().transpose() * w;

		for (int k = 0; k < n; k++)
			eff[k] = g[inner(j, k)];
		return n;
	}
	/* At the joint's anchor, along its world axes. */
	const dd::BodyNode *b = e->links[(size_t)j->child].body;
	if (dj.kind == J_LOOP && is_static(e, j->child))
		return n;
	Eigen::Isometry3d t = b->getWorldTransform();
	phys_pose anchor = phys_pose_mul(link_pose(e, j->child), dj.f.in_child);
	Eigen::Vector3d f = t.linear() * w.tail<3>();
	Eigen::Vector3d tq = t.linear() * w.head<3>() +
	    (t.translation() - ev(anchor.p)).cross(f);
	for (int k = 0; k < n; k++) {
		Eigen::Vector3d a = ev(phys_joint_frames_axis(&dj.f,
		    link_pose(e, j->parent), j->type == PHYS_JOINT_SCREW ? 0 : k,
		    pos[0]));
		bool lin = j->type == PHYS_JOINT_PRISMATIC ||
		    (j->type == PHYS_JOINT_SCREW && k == 1);

		eff[k] = a.dot(lin ? f : tq) + (dj.kind == J_LOOP ?
		    dj.applied[k] : 0);
	}
	if (swapped(j))
		std::swap(eff[0], eff[1]);
	return n;
}

/* The row's servo over the last step: the force held beside it and the
 * row's impulse over the step. */
static int
dart_engine_servo_effort(const struct dart_engine *e, int ji, double eff[2])
{
	const djoint &dj = e->joints[(size_t)ji];

	if (!dj.servo_held)
		return 0;
	eff[0] = dj.servo_middle + dj.servo_row->impulse / e->step;
	return 1;
}

static int
dart_engine_set_joint_effort(struct dart_engine *e, int joint,
    const struct phys_joint_drive *drive)
{
	e->joints[(size_t)joint].cmd[0] = drive->effort[0];
	e->joints[(size_t)joint].cmd[1] = drive->effort[1];
	e->joints[(size_t)joint].servo = drive->servo[0];
	e->commanded = true;
	return 0;
}

static int
dart_engine_set_link_wrench(struct dart_engine *e, int link, phys_vec3 force,
    phys_vec3 torque)
{
	e->links[(size_t)link].force = force;
	e->links[(size_t)link].torque = torque;
	e->pushed = true;
	return 0;
}

/* A weld constraint holding the child's body where it is relative to the
 * parent's (the world's, for a static parent). */
static int
dart_engine_weld(struct dart_engine *e, int parent, int child, bool on)
{
	auto it = e->welds.begin();

	while (it != e->welds.end() && !(it->parent == parent &&
	    it->child == child))
		++it;
	if (!on) {
		if (it != e->welds.end()) {
			auto &l = e->lasting;
			l.erase(std::remove(l.begin(), l.end(), it->c),
			    l.end());
			e->welds.erase(it);
		}
		return 0;
	}
	int a = child, b = parent;
	dk::ConstraintBasePtr c;

	if (is_static(e, a))
		std::swap(a, b);
	if (!is_static(e, a)) {
		dd::BodyNode *ba = e->links[(size_t)a].body;
		if (is_static(e, b))
			c = std::make_shared<dk::WeldJointConstraint>(ba);
		else
			c = std::make_shared<dk::WeldJointConstraint>(ba,
			    e->links[(size_t)b].body);
		e->lasting.push_back(c);
	}
	e->welds.push_back({ parent, child, c });
	return 0;
}

static int
dart_engine_contact_count(const struct dart_engine *e)
{
	return e->ncontacts;
}

}	/* namespace */

PHYS_ENGINE_DEFINE(dart_engine, dart)
