/*
 * urdfint.h - what the URDF converter (urdf.c) records of a converted
 * model for the URDF editor (urdfedit.c): for each link, collision and
 * joint of the SDF model, the URDF element it comes from and what an
 * edit of it must respect.
 */
#ifndef PHYS_URDFINT_H
#define PHYS_URDFINT_H

#include <stdbool.h>
#include <stddef.h>

#include "param.h"
#include "sdf.h"

enum u_joint_type { UJ_REVOLUTE, UJ_CONTINUOUS, UJ_PRISMATIC, UJ_FIXED,
	UJ_FLOATING, UJ_PLANAR };

enum u_shape_kind { US_BOX, US_SPHERE, US_CYLINDER, US_CAPSULE, US_MESH };

/* What an edit needs to know of one converted element. */
struct u_entity {
	xmlNodePtr sdf;		/* the converted <link>, <collision>, <joint> */
	int ord;		/* the URDF element it comes from: its place */
	long line;		/* among the file's elements, its line */
	xmlNodePtr urdf;	/* that element, once the editor needs it */
	phys_scope scope;
	char *ref;		/* the reference of <gazebo> blocks for it */
	bool reached;		/* a collision: those blocks' tags reach it */
	char *lumped;		/* a link: links whose mass it also holds */
	enum u_joint_type jtype;
	enum u_shape_kind shape;
};

struct phys_urdf {
	struct phys_doc *source;
	bool owns_source;
	bool mapped;		/* the entities' urdf elements are found */
	struct u_entity *ents;
	size_t nents, capents;
};

#endif
