/*
 * world_types.h - the world model's types alone: profiles, models, links,
 * collisions, joints and the world that holds them (world.h: loading and
 * looking up). What only reads a loaded world's entities includes this,
 * and so uses nothing of the loader, which may use it back.
 *
 * Entities live in flat arrays and refer to each other by index. Poses
 * are resolved to the world frame at load time; each entity keeps its
 * element so parameters can be edited in place.
 */
#ifndef PHYS_WORLD_TYPES_H
#define PHYS_WORLD_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	char *type;		/* an engine's (engines.def), or gz-sim's
				 * placeholder */
	bool marked_default;	/* default="true" */
	bool has_gravity;	/* SDF 1.4/1.5 kept gravity in <physics> */
	/* gz-sim's <physics type="ignored"> (also ignore, none): gz-sim
	 * reads no type and runs the engine its physics plugin names,
	 * else DART (phys_profile_engine picks phys's engine for it). */
	bool gz_placeholder;
	char *gz_plugin;	/* the plugin's <engine><filename>, or NULL */
	xmlNodePtr gz_system;	/* the world's gz-sim physics system, or NULL */
	/* The engine type a gz-sim profile runs, once the engine layer
	 * says (phys_world_engines); NULL until then. */
	const char *engine;
	phys_vec3 gravity;
	xmlNodePtr node;	/* NULL for the implicit profile */
	/* The <physics> element a profile made for another engine
	 * (phys_preset_for_engine) took its values from, or NULL. */
	xmlNodePtr carried_from;
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
	/* The <include> that placed it, in include_doc (its <pose>, its
	 * <plugin>s, the model's too); NULL when written in place. */
	xmlNodePtr include;
	struct phys_doc *include_doc;
	/* A model file's root <include> (PX4's files of Fuel models) that
	 * include named, in inner_include_doc: its <plugin>s are the
	 * model's too, before include's; NULL when there is none. */
	xmlNodePtr inner_include;
	struct phys_doc *inner_include_doc;
	/* its heaviest link as loaded, -1 when none has a mass: what a
	 * light link the world holds still runs as (engine_common.c); its
	 * lightest link with a mass, whose share a massless one runs with */
	int heaviest, lightest;
};

struct phys_link {
	char *name;		/* scoped: "robot::arm::link" */
	int model;
	phys_pose pose;		/* link frame in world */
	int first_collision, ncollisions;
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_LINK values */
	char *lost;	/* why a collision of it was skipped (the first one's),
			 * or NULL: its geometry is then not all there */
	/* an MJCF body's frame between two of its joints (SDF needs a link
	 * there; <phys:between_joints/>), which MuJoCo gives no mass */
	bool between_joints;
	/* held still by the world through fixed joints (a chain of them to
	 * the world or a static model's link): its mass moves nothing */
	bool welded;
	/* the fixed joint welded follows from it (its last as the child),
	 * for a welded link of a moving model; -1 otherwise */
	int weld;
	/* the model whose links it keeps apart from unless self_collide:
	 * the model of the root of its tree of joints (gz-physics's DART
	 * moves a nested model's link a joint hangs from another model's
	 * into that model's skeleton, its links below with it) */
	int skeleton;
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
	/* <mesh optimization="convex_hull">: the mesh's convex hull, which
	 * the engines collide instead of its triangles; NULL: none */
	const struct phys_mesh *hull;
	const struct phys_heightmap *heightmap;
	double density;		/* SDF 1.11 <density>, kg/m^3; 0: none */
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_COLLISION values */
};

/*
 * Two collisions that touch with a surface of their own, whatever their
 * bitmasks say (an MJCF <contact><pair>): pairs.h.
 */
struct phys_contact_pair {
	int c1, c2;		/* collisions: the one holding it, the other */
	/* PHYS_S_COLLISION: the surface their contacts take, in place of
	 * both of theirs */
	struct phys_value *vals;
};

/* Visuals matter to a run only for their poses (an introspection item);
 * MJCF out writes their shapes, from their element. */
struct phys_visual {
	char *name;		/* scoped: "box::link::visual" */
	int link;
	phys_pose pose;		/* in the link frame */
	struct phys_doc *doc;	/* where it was read */
	xmlNodePtr node;	/* its <visual> */
};

/* Leaders a mimic may have: its <mimic>'s and its <phys:mimic>s'. */
#define PHYS_MIMIC_LEADERS	8

/*
 * SDF 1.11's <mimic> of a joint's first axis and the <phys:mimic>s beside
 * it: the axis follows the sum of each leader's multiplier * (position -
 * reference), plus offset, a linear coupling of joints (MJCF's fixed
 * tendon held); no leaders: no mimic.
 */
struct phys_mimic {
	int nleaders;
	double offset;
	struct phys_mimic_term {
		int joint;		/* a revolute or prismatic one */
		double multiplier, reference;
	} lead[PHYS_MIMIC_LEADERS];
};

struct phys_joint {
	char *name;		/* scoped: "robot::elbow" */
	int model;
	enum phys_joint_type type;
	int parent, child;	/* link indices; -1 is the world */
	phys_pose pose;		/* joint frame in world */
	phys_vec3 axis[2];	/* unit axes in the world frame */
	int reference;		/* gearbox_reference_body: link, -1 world */
	struct phys_mimic mimic;
	/* Its two links may touch: an MJCF connect's or weld's
	 * (<phys:touch/>), whose bodies MuJoCo does not keep apart. Any
	 * other joint's links are kept apart, as Gazebo's engines keep
	 * them (phys_joint_keeps_apart). */
	bool touch;
	xmlNodePtr node;
	struct phys_doc *doc;
	struct phys_value *vals;	/* PHYS_S_JOINT values */
};

/*
 * A limited tendon of an MJCF model (<phys:tendon>): its length, the sum
 * of coef times position over its joints (fixed) or the distance between
 * two points of links (spatial), held within range as MuJoCo holds it,
 * as softly as solref and solimp say, from margin inside it. phys's
 * MuJoCo engine holds it; the other engines refuse it.
 */
struct phys_tendon {
	char *name;		/* scoped: "robot::string" */
	bool unnamed;		/* an MJCF tendon of no name (tendonN) */
	int njoints;		/* fixed: its joints and coefficients */
	int *joints;
	double *coef;
	int link[2];		/* spatial: each end's link, -1 the world */
	phys_vec3 at[2];	/* each end in its link's frame, m */
	double range[2];	/* m or rad, from the joints' zero */
	double solref[2], solimp[5];
	double margin;		/* m or rad */
	struct phys_doc *doc;
	xmlNodePtr node;
};

/*
 * A world as loaded: its documents, models, links, collisions, joints and
 * profiles, and the values they give. The library's own; phys.h's
 * phys_world (struct phys_api_world) is the embedder's handle holding one.
 */
struct phys_scene {
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
	/* Each link's joints, for walks over the links they join: link
	 * l's are link_joints[link_joints_at[l]] before
	 * link_joints[link_joints_at[l + 1]] (load's last step) */
	size_t *link_joints_at;
	int *link_joints;
	struct phys_visual *visuals;
	struct phys_tendon *tendons;
	size_t nmodels, nlinks, ncollisions, njoints, nvisuals, ntendons;

	/* Link pairs that never touch (excludes.h), sorted */
	int64_t *excluded;
	size_t nexcluded;
	/* Collision pairs of one model kept apart because one starts
	 * wholly inside the other (touch.h), sorted */
	int64_t *inside;
	size_t ninside;
	/* Each link's weld group and its weld parent's group (excludes.h):
	 * 2 ints a link, -1 for none; NULL when no link has a <phys:weld> */
	int *welds;
	/* Collision pairs with a surface of their own (pairs.h), sorted */
	struct phys_contact_pair *pairs;
	size_t npairs;

	struct phys_name_index *index;	/* scoped name -> entity */
	struct phys_mesh_cache meshes;	/* each mesh file loaded once */
	struct phys_heightmap_cache heightmaps;	/* each terrain file once */
	struct phys_arena values;	/* the entities' value arrays */
};

#endif
