/*
 * mjcfwrite.h - a loaded world written as a MuJoCo model (MJCF, as MuJoCo
 * 2.2.2 reads it): its links as bodies nested along their joints, their
 * masses and inertia, the joints MJCF can hold, the collisions as geoms,
 * the starting profile as <option>, the link pairs kept apart as
 * <contact><exclude>, the keyframes (mjcfkey_write.h).
 */
#ifndef PHYS_MJCFWRITE_H
#define PHYS_MJCFWRITE_H

#include "base.h"
#include "mjcfact.h"
#include "world_types.h"

/*
 * Append the MJCF of w to b, the actuators acts (n of them) as its
 * <actuator>s, the medium (NULL: none) in its <option>. A joint MJCF
 * cannot hold (a gearbox no revolute joints turn about its reference
 * body, links hanging from each other in a circle) fails, with
 * phys_error() at the joint's file:line; what is left out without
 * changing the motion (heightmaps and visuals of shapes or files MuJoCo
 * does not read) is said once as a warning; the other visuals are geoms
 * that touch nothing. A mesh read whole from a file MuJoCo reads (OBJ,
 * MSH, binary STL) is referenced by its path from the directory of out,
 * the file b is written to (NULL: standard output, absolute paths); any
 * other mesh is written as its triangles.
 */
int phys_mjcf_write(const struct phys_scene *w,
    const struct phys_mjcf_actuator *acts, size_t n,
    const struct phys_mjcf_medium *medium, const char *out,
    struct phys_buf *b);

/*
 * The pieces MJCF is written of, shared with the MuJoCo engine's own
 * model (engine_mujoco.c), so that both write a shape alike:
 * name="x y z", numbers that read back exactly; a primitive collision's
 * type and size (MuJoCo's half sizes), false for other shapes; a mesh
 * asset of m's triangles as given.
 */
void phys_mjcf_nums(struct phys_buf *b, const char *name, const double *x,
    int n);
bool phys_mjcf_shape(struct phys_buf *b, const struct phys_collision *c);
void phys_mjcf_mesh(struct phys_buf *b, const char *name,
    const struct phys_mesh *m);
/* A joint of MJCF's body tree: one that moves a link against another,
 * not a gearbox (a coupling) nor a link's joint with itself. */
bool phys_mjcf_tree_joint(const struct phys_joint *j);
/* Whether joint j, closing a loop, is an equality of its links under
 * its values v: a ball joint of nothing but its anchor (an MJCF connect)
 * or a fixed joint (a weld), which MuJoCo holds as written; another
 * needs joints of its own, on a body of their own. */
bool phys_mjcf_ties(const struct phys_joint *j, const struct phys_value *v);
/* Whether joint j is an equality of its links under its values v even
 * where it could hang its child in the tree: one that ties them
 * (phys_mjcf_ties) and lets them touch (an MJCF connect's or weld's of
 * two free bodies), which MuJoCo's filter would keep apart as a body and
 * its parent. */
bool phys_mjcf_tie_only(const struct phys_joint *j,
    const struct phys_value *v);
/*
 * The solref and solimp of the equality constraints that stand for
 * joints (a loop's weld, a coupling), which hold: as stiff as a MuJoCo
 * step of h follows (a time constant of two steps, MuJoCo's least),
 * critically damped, at nearly full impedance (a ghost is light, and a
 * softer weld would let it lag). The engine and MJCF out alike.
 */
void phys_mjcf_hold(double h, double solref[2], double solimp[5]);

/* A MuJoCo block of how softly something holds: a joint's limits or the
 * equality it stands for (physics.mujoco.limit.*, .equality.*), or a
 * collision's contacts (surface.contact.mujoco.*): its solref and
 * solimp, and whether the file gave each. v: the joint's or the
 * collision's values. */
enum phys_mjcf_block { PHYS_MJCF_LIMIT, PHYS_MJCF_EQUALITY,
	PHYS_MJCF_CONTACT };
struct phys_mjcf_softness {
	double solref[2], solimp[5];
	bool ref_given, imp_given;
};
void phys_mjcf_softness(const struct phys_value *v, enum phys_mjcf_block block,
    struct phys_mjcf_softness *out);

/* The solref and solimp of the equality constraint joint values v stand
 * for: an MJCF equality's own (physics.mujoco.equality.*, given), else
 * held (phys_mjcf_hold). */
void phys_mjcf_equality(const struct phys_value *v, double h,
    double solref[2], double solimp[5]);

/* The follower's coefficient in the fixed tendon MuJoCo holds joint j's
 * mimic by (physics.mujoco.equality.tendon_coef, 1 for several leaders),
 * 0 where a joint equality holds it. */
double phys_mjcf_mimic_tendon_coef(const struct phys_joint *j);

#endif
