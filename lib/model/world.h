/*
 * world.h - the world model read from SDF: profiles, models, links,
 * collisions and joints, with every parameter held in registry values.
 *
 * Entities live in flat arrays and refer to each other by index. Poses
 * are resolved to the world frame at load time; each entity keeps its
 * element so parameters can be edited in place.
 */
#ifndef PHYS_WORLD_H
#define PHYS_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"
#include "heightmap.h"
#include "mesh.h"
#include "param.h"
#include "sdf.h"

enum phys_geometry {
	PHYS_GEOM_BOX,		/* size[0..2]: full lengths x y z */
	PHYS_GEOM_SPHERE,	/* size[0]: radius */
	PHYS_GEOM_CYLINDER,	/* size[0]: radius, size[1]: length along z */
	PHYS_GEOM_CAPSULE,	/* size[0]: radius, size[1]: cylinder length */
	PHYS_GEOM_ELLIPSOID,	/* size[0..2]: semi-axes */
	PHYS_GEOM_PLANE,	/* normal; size[0..1]: extent (unused by ODE) */
	PHYS_GEOM_MESH,		/* mesh: <mesh> or <polyline> triangles */
	PHYS_GEOM_HEIGHTMAP,	/* heightmap; size[0..2]: its extent */
	PHYS_GEOM_CONE		/* SDF 1.11: size[0]: base radius, size[1]:
				 * length along z, base at -length/2 */
};

enum phys_joint_type {
	PHYS_JOINT_REVOLUTE,
	PHYS_JOINT_PRISMATIC,
	PHYS_JOINT_FIXED,
	PHYS_JOINT_BALL,
	PHYS_JOINT_UNIVERSAL,
	PHYS_JOINT_REVOLUTE2,
	PHYS_JOINT_SCREW,	/* axis: turning and sliding, coupled */
	PHYS_JOINT_GEARBOX	/* couples two revolute motions */
};

/* Entity kinds share the registry's scope numbering where they have one. */
enum phys_kind {
	PHYS_K_LINK = PHYS_S_LINK,
	PHYS_K_COLLISION = PHYS_S_COLLISION,
	PHYS_K_JOINT = PHYS_S_JOINT,
	PHYS_K_MODEL = PHYS_NSCOPES
};

struct phys_profile {
	char *name;		/* "default_physics" when unnamed */
	char *type;		/* engine: ode, bullet, mujoco, simbody, dart */
	bool marked_default;	/* default="true" */
	bool has_gravity;	/* SDF 1.4/1.5 kept gravity in <physics> */
	/* gz-sim's <physics type="ignored"> (also ignore, none): gz-sim
	 * reads no type and runs the engine its physics plugin names,
	 * else DART (phys_profile_engine picks phys's engine for it). */
	bool gz_placeholder;
	char *gz_engine;	/* the plugin's engine: "bullet", "dart",
				 * "tpe"...; NULL when it names none */
	char *gz_plugin;	/* the plugin's <engine><filename> */
	/* The engine type a gz-sim profile runs, once the engine layer
	 * says (phys_world_engines); NULL until then. */
	const char *engine;
	phys_vec3 gravity;
	xmlNodePtr node;	/* NULL for the implicit profile */
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_PHYSICS values */
};

struct phys_model {
	char *name;		/* scoped: "robot::arm" */
	int parent;		/* enclosing model, -1 at top level */
	bool is_static;
	bool self_collide;	/* SDF 1.6+: all its links collide */
	phys_pose pose;		/* model frame in world */
	bool has_init_vel;	/* Gazebo's InitialVelocityPlugin */
	phys_vec3 init_linear, init_angular;
	/* <include merge="true">: its entities are its parent's (named in
	 * the parent's scope, links of the parent model); the model itself
	 * is only the frame libsdformat names _merged__NAME__model__. */
	bool merged;
	xmlNodePtr node;
	struct phys_doc *doc;	/* the file it came from (includes differ) */
	/* The <include> that brought it, in include_doc: its <plugin>s are
	 * the model's too; NULL when written in place. */
	xmlNodePtr include;
	struct phys_doc *include_doc;
};

struct phys_link {
	char *name;		/* scoped: "robot::arm::link" */
	int model;
	phys_pose pose;		/* link frame in world */
	int first_collision, ncollisions;
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_LINK values */
};

struct phys_collision {
	char *name;		/* scoped: "box::link::collision" */
	int link;
	phys_pose pose;		/* in the link frame */
	enum phys_geometry shape;
	double size[3];
	phys_vec3 normal;	/* planes */
	/* Triangles of meshes, polylines and (for ODE) ellipsoids, held by
	 * the world's mesh cache; the terrain of a heightmap. */
	const struct phys_mesh *mesh;
	const struct phys_heightmap *heightmap;
	double density;		/* SDF 1.11 <density>, kg/m^3; 0: none */
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_COLLISION values */
};

/* Visuals matter only for their poses (an introspection item). */
struct phys_visual {
	char *name;		/* scoped: "box::link::visual" */
	int link;
	phys_pose pose;		/* in the link frame */
};

struct phys_joint {
	char *name;		/* scoped: "robot::elbow" */
	int model;
	enum phys_joint_type type;
	int parent, child;	/* link indices; -1 is the world */
	phys_pose pose;		/* joint frame in world */
	phys_vec3 axis[2];	/* unit axes in the world frame */
	int reference;		/* gearbox_reference_body: link, -1 world */
	struct phys_mimic {	/* SDF 1.11 <mimic> of each axis */
		bool on;
		int leader, leader_axis;	/* joint index, 0 or 1 */
		double multiplier, offset, reference;
	} mimic[2];
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_JOINT values */
};

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
};

struct phys_world {
	/* The file read, editable: a world, a model file or a URDF. */
	struct phys_doc doc;
	/* A model file's or a URDF's world (the default one: see phys(7)),
	 * made in memory; NULL when doc is a world. */
	struct phys_doc *host;
	/* The SDF model a URDF doc becomes (urdf.h); NULL for SDF files. */
	struct phys_doc *model_doc;
	/* Documents of <include>d models; an included URDF's converted
	 * model, which owns the URDF. */
	struct phys_doc **includes;
	size_t nincludes;
	char *name;
	xmlNodePtr node;		/* <world> */
	struct phys_value *vals;	/* PHYS_S_WORLD values */

	struct phys_profile *profiles;
	size_t nprofiles;
	int start;			/* the profile a run starts in */

	struct phys_model *models;
	struct phys_link *links;
	struct phys_collision *collisions;
	struct phys_joint *joints;
	struct phys_visual *visuals;
	size_t nmodels, nlinks, ncollisions, njoints, nvisuals;

	struct phys_name_index *index;	/* scoped name -> entity */
	struct phys_mesh_cache meshes;	/* each mesh file loaded once */
	struct phys_heightmap_cache heightmaps;	/* each terrain file once */
	struct phys_arena values;	/* the entities' value arrays */
};

void phys_load_options_default(struct phys_load_options *o);
/* Load a world file ("-" or NULL: stdin). On failure phys_error() says
 * "file:line: what" and the world is left empty (safe to free). */
int phys_world_load(struct phys_world *w, const char *path,
    const struct phys_load_options *opt);
int phys_world_load_doc(struct phys_world *w,
    const struct phys_load_options *opt);
/* For the commands that read and edit worlds without running them:
 * unsupported collisions skipped, warnings only when asked; a failure is
 * reported on stderr and leaves the world empty. */
int phys_world_open(struct phys_world *w, const char *path, bool warn);
/* The same with the caller's load options. */
int phys_world_open_with(struct phys_world *w, const char *path,
    const struct phys_load_options *lo);
void phys_world_free(struct phys_world *w);

/* The document holding the world element: doc, or the host world. */
struct phys_doc *phys_world_doc(struct phys_world *w);
/*
 * 0 when the file read is a world, where profiles and world values are
 * kept; else -1 with an error saying that a model or URDF file has no
 * place for what (the words of the message, "physics profiles") and how
 * to put the model in a world.
 */
int phys_world_has_world(const struct phys_world *w, const char *what);
/* Can an edit of entity idx of scope s be written into w->doc (rather
 * than into an included file, or a host world that is not written)? */
bool phys_world_editable(const struct phys_world *w, phys_scope s, int idx);

/* Profile index by name, -1 when there is none. */
int phys_world_profile(const struct phys_world *w, const char *name);
/* Profile index by name, or -1 with a message listing the profiles. */
int phys_world_find_profile(const struct phys_world *w, const char *name);
/* Entity by scoped name: its index, and its kind in *kind; -1 if none. */
int phys_world_entity(const struct phys_world *w, const char *name,
    enum phys_kind *kind);
/* The entity of one kind by scoped name (up to SDF 1.6 a link and a
 * joint may share a name; phys_world_entity finds the link). */
int phys_world_entity_of(const struct phys_world *w, const char *name,
    enum phys_kind kind);

/* A <pose> element as a transform, in any of its forms (rpy in radians
 * or degrees, quat_xyzw); an error at the element when it is malformed. */
int phys_pose_element(struct phys_doc *d, xmlNodePtr e, phys_pose *out);
/* The frame a <pose> is relative to: relative_to, or an SDF 1.6 file's
 * frame="F" (libsdformat 9 reads it so); NULL when neither (caller
 * frees). */
char *phys_pose_relative_to(const struct phys_doc *d, xmlNodePtr pose);

/* The scope a model's entities are named in: its name, or for a merged
 * include the name of the model it was merged into. */
const char *phys_model_scope(const struct phys_world *w, int mi);

/* Read a whole <physics> element into a profile (used by load and import). */
int phys_profile_read(struct phys_profile *p, struct phys_doc *doc,
    xmlNodePtr node);
void phys_profile_free(struct phys_profile *p);

/* The values array of an entity of a parameter scope. */
struct phys_value *phys_entity_values(struct phys_world *w, phys_scope s,
    int idx);
const char *phys_entity_name(const struct phys_world *w, phys_scope s, int idx);
xmlNodePtr phys_entity_node(const struct phys_world *w, phys_scope s, int idx);
struct phys_doc *phys_entity_doc(struct phys_world *w, phys_scope s, int idx);
size_t phys_entity_count(const struct phys_world *w, phys_scope s);

/*
 * The values of a run (a model's data beside the loaded world's const
 * model): a copy of every scope's parameter values taken when the run
 * starts. A run writes its changes here only, and its engine reads its
 * parameters from here only, so the loaded world stays as it was loaded.
 */
struct phys_run_values {
	/* [PHYS_S_PHYSICS]: the current profile's values, one array;
	 * [PHYS_S_WORLD]: the world's, one array; entity scopes: one array
	 * per entity, n[s] of them. */
	struct phys_value **v[PHYS_NSCOPES];
	size_t n[PHYS_NSCOPES];
	struct phys_arena arena;	/* where the arrays are */
};

/* Copy w's values, with profile's as the physics values (its legacy
 * gravity folded in). */
void phys_run_values_init(struct phys_run_values *rv,
    const struct phys_world *w, int profile);
void phys_run_values_free(struct phys_run_values *rv);
/* Make profile's values, or vals when not NULL, the current physics
 * values, and fold the profile's legacy gravity into the world's. */
void phys_run_values_use(struct phys_run_values *rv,
    const struct phys_world *w, int profile, const struct phys_value *vals);
/* One scope's value array (idx: the entity; ignored for PHYSICS and
 * WORLD). */
struct phys_value *phys_run_values_at(struct phys_run_values *rv,
    phys_scope s, int idx);
const struct phys_value *phys_run_values_get(const struct phys_run_values *rv,
    phys_scope s, int idx);

#endif
