/*
 * world.h - the world model read from SDF: profiles, models, links,
 * collisions and joints, with every parameter held in registry values.
 * Loading, looking entities up and a run's copy of the values; the types
 * themselves are in world_types.h.
 */
#ifndef PHYS_WORLD_H
#define PHYS_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "param.h"
#include "sdf.h"
#include "world_types.h"

struct phys_load_options {
	bool skip_unsupported;	/* mesh/heightmap/...: warn and skip */
	bool skip_missing;	/* meshes not found or unreadable: warn
				 * and skip (phys-step --skip-unsupported) */
	bool quiet;		/* no warnings on stderr */
	bool notes;		/* also what only a check reports: URDF
				 * <gazebo> elements phys keeps but does
				 * not use */
	bool whole;		/* also what only printing needs: the
				 * geometry of a URDF's visuals */
	bool partial;		/* an <include> that does not resolve is
				 * left out, with one warning for all,
				 * quiet or not */
	bool doubts;		/* quiet or not, say what is legal but
				 * most likely a mistake: a URDF's mimic
				 * cycles, xacro left unexpanded, a
				 * <robot> inside <robot> */
	bool inertia_as_written;	/* a principal moment below 0 (a
				 * rounding's -5e-20) kept, for
				 * phys-inertia to check and fix */
};

void phys_load_options_default(struct phys_load_options *o);
/* Load a world file ("-" or NULL: stdin). On failure phys_error() says
 * "file:line: what" and the world is left empty (safe to free). */
int phys_world_load(struct phys_scene *w, const char *path,
    const struct phys_load_options *opt);
int phys_world_load_doc(struct phys_scene *w,
    const struct phys_load_options *opt);
/* For the commands that read and edit worlds without running them:
 * unsupported collisions skipped, warnings only when asked (input that is
 * most likely a mistake always); a failure is reported on stderr and
 * leaves the world empty. */
int phys_world_open(struct phys_scene *w, const char *path, bool warn);
/* The same with the caller's load options. */
int phys_world_open_with(struct phys_scene *w, const char *path,
    const struct phys_load_options *lo);
void phys_world_free(struct phys_scene *w);

/* The document holding the world element: doc, or the host world. */
struct phys_doc *phys_world_doc(struct phys_scene *w);
/*
 * 0 when the file read is a world, where profiles and world values are
 * kept; else -1 with an error saying that a model or URDF file has no
 * place for what (the words of the message, "physics profiles") and how
 * to put the model in a world.
 */
int phys_world_has_world(const struct phys_scene *w, const char *what);
/* Can an edit of entity idx of scope s be written into w->doc (rather
 * than into an included file, or a host world that is not written)? */
bool phys_world_editable(const struct phys_scene *w, phys_scope s, int idx);
/* The file a mesh collision was read from whole, as found (caller frees),
 * and the scale its triangles have; NULL for a submesh and any other
 * shape. */
char *phys_collision_mesh_file(const struct phys_collision *c,
    double scale[3]);
/* The same of a visual's mesh, whatever its file holds (not loaded). */
char *phys_visual_mesh_file(const struct phys_visual *v, double scale[3]);
/*
 * A massless link (mass 0 is valid SDF) runs with this share of the mass
 * of the lightest link of its model that has one, or with this many kg
 * when none has: light enough to leave its model's motion as it is,
 * heavy enough for an engine, which divides by the mass.
 */
#define PHYS_MASSLESS_SHARE 1e-3

/*
 * The smallest radius of gyration a link runs with: libsdformat loads
 * links of zero inertia (a point mass, a massless connector), whose
 * tensor no engine can invert, so their principal moments are raised to
 * at least mass * PHYS_MIN_GYRATION^2, with a warning.
 */
#define PHYS_MIN_GYRATION 1e-3

/*
 * Whether a file's value of p outside p's range (but of its type) is
 * kept as written, with a warning, rather than refused: a surface's or
 * a joint's number, as Gazebo's own worlds have them (collide_bitmask
 * 65536, max_vel -1, a shape's size of 0).
 */
bool phys_param_kept_outside_range(const struct phys_param *p);

/* The mass massless link li runs with, as loaded (PHYS_MASSLESS_SHARE
 * of its model's lightest link's). */
double phys_link_stand_in_mass(const struct phys_scene *w, int li);

/*
 * Whether box, sphere, cylinder or capsule c has a size of 0, which a
 * file may give (kept as written: ODE and Bullet take it, Drake's URDFs
 * write point contacts so) and DART, MuJoCo and Simbody cannot make.
 */
bool phys_collision_zero_size(const struct phys_collision *c);
/* Why engine E (a string literal) refuses such a collision. */
#define PHYS_ZERO_SIZE_WHY(E) "a shape with a size of 0, which " E \
	" cannot make (ODE and Bullet take one): give it a size, or remove it"

/* Profile index by name, -1 when there is none. */
int phys_world_profile(const struct phys_scene *w, const char *name);
/* Profile index by name, or -1 with a message listing the profiles. */
/* The mimic's follower with each leader at 0: its offset less each
 * leader's multiplier times reference. */
double phys_mimic_base(const struct phys_mimic *m);

/*
 * The revolute joint that hinges link to ref (a gearbox's gear to its
 * reference body; either may be -1, the world), and in *sign the factor
 * from its position to link's turn about axis (world, at load): its
 * index, -1 when none.
 */
int phys_gear_hinge(const struct phys_scene *w, int ref, int link,
    phys_vec3 axis, double *sign);
/* Gearbox j's gears, each a link hinged to its reference body: the
 * revolute joints (phys_gear_hinge) of its parent, gear[0], and of its
 * child, gear[1], with their factors; -1 when either has none. */
int phys_gearbox_gears(const struct phys_scene *w, const struct phys_joint *j,
    int gear[2], double coef[2]);
int phys_world_find_profile(const struct phys_scene *w, const char *name);
/* Entity by scoped name: its index, and its kind in *kind; -1 if none. */
int phys_world_entity(const struct phys_scene *w, const char *name,
    enum phys_kind *kind);
/* End k (0, 1) of spatial tendon t in the world, the world as loaded. */
phys_vec3 phys_tendon_end(const struct phys_scene *w,
    const struct phys_tendon *t, int k);
/* The entity of one kind by scoped name (up to SDF 1.6 a link and a
 * joint may share a name; phys_world_entity finds the link). */
int phys_world_entity_of(const struct phys_scene *w, const char *name,
    enum phys_kind kind);

/* A <pose> element as a transform, in any of its forms (rpy in radians
 * or degrees, quat_xyzw); an error at the element when it is malformed. */
int phys_pose_element(struct phys_doc *d, xmlNodePtr e, phys_pose *out);
/* The frame a <pose> is relative to: relative_to, or an SDF 1.6 file's
 * frame="F" (libsdformat 9 reads it so); NULL when neither (caller
 * frees). */
char *phys_pose_relative_to(const struct phys_doc *d, xmlNodePtr pose);
/* Whether a <pose> is written in degrees or as a quaternion (its
 * attributes), not as six numbers in radians. */
bool phys_pose_has_attributes(xmlNodePtr pose);

/* The scope a model's entities are named in: its name, or for a merged
 * include the name of the model it was merged into. */
const char *phys_model_scope(const struct phys_scene *w, int mi);
/*
 * The leading part of text libsdformat reads for a value of p's type (an
 * integer's digits, a number, a vector's three numbers; sdf.h) into num
 * (of PHYS_LEADING_MAX), or NULL; *what, where what is not NULL, says
 * which for PHYS_LEADING_AS_SDFORMAT.
 */
const char *phys_param_leading(const struct phys_param *p, const char *text,
    char *num, const char **what);

/* What a profile holds, freed (phys_world_free frees each). */
void phys_profile_free(struct phys_profile *p);
/* DART's collision detector as gz-physics gives it to a profile of a
 * world gz-sim runs, where the profile does not say. */
void phys_profile_gz_detector(struct phys_profile *p);
/* The <physics type> gz-sim runs a profile of its world on: the engine
 * its physics plugin names (NULL where phys has no such engine), else
 * gz-sim's default, DART. */
const char *phys_profile_gz_type(const struct phys_profile *p);

/* The values array of an entity of a parameter scope. */
struct phys_value *phys_entity_values(struct phys_scene *w, phys_scope s,
    int idx);
const char *phys_entity_name(const struct phys_scene *w, phys_scope s, int idx);
xmlNodePtr phys_entity_node(const struct phys_scene *w, phys_scope s, int idx);
struct phys_doc *phys_entity_doc(struct phys_scene *w, phys_scope s, int idx);
size_t phys_entity_count(const struct phys_scene *w, phys_scope s);

/*
 * The values of a run (a model's data beside the loaded world's const
 * model): a copy of every scope's parameter values taken when the run
 * starts. A run writes its changes here only, and its engine reads its
 * parameters from here only, so the loaded world stays as it was loaded.
 */
struct phys_run_values {
	/* [PHYS_S_PHYSICS]: the current profile's values, one array;
	 * [PHYS_S_WORLD]: the world's, one array; entity scopes: one array
	 * per entity, n[s] of them, the world's own until the run may
	 * write it (phys_run_values_at): then the run's copy, own[s][i] */
	struct phys_value **v[PHYS_NSCOPES];
	unsigned char *own[PHYS_NSCOPES];
	size_t n[PHYS_NSCOPES];
	struct phys_arena arena;	/* where the arrays are */
	/* Counts the accesses that may write (phys_run_values_at, _use):
	 * what an engine derives from the values holds while it stays. */
	unsigned long changes;
};

/* w's values, with profile's as the physics values (its legacy gravity
 * folded in); an entity's are copied when first written, so that a large
 * world's are not held twice. w must stay unchanged and outlive them. */
void phys_run_values_init(struct phys_run_values *rv,
    const struct phys_scene *w, int profile);
void phys_run_values_free(struct phys_run_values *rv);
/* Make profile's values, or vals when not NULL, the current physics
 * values, and fold the profile's legacy gravity into the world's. */
void phys_run_values_use(struct phys_run_values *rv,
    const struct phys_scene *w, int profile, const struct phys_value *vals);
/* One scope's value array (idx: the entity; ignored for PHYSICS and
 * WORLD). */
struct phys_value *phys_run_values_at(struct phys_run_values *rv,
    phys_scope s, int idx);
/* The same, to read: inline, as engines read it for each contact. */
static inline const struct phys_value *
phys_run_values_get(const struct phys_run_values *rv, phys_scope s, int idx)
{
	return rv->v[s][s <= PHYS_S_WORLD ? 0 : idx];
}

#endif
