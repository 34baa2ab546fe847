/*
 * urdf.h - URDF robots read as Gazebo reads them: libsdformat's
 * conversion into an SDF model, made in memory. The converted document is
 * an SDF tree whose every element carries the line of the URDF element it
 * comes from, so that every message names robot.urdf:LINE; it remembers
 * which URDF element each link, collision and joint comes from, so that a
 * parameter set on the model is written back into the URDF, in the
 * URDF's own terms, changing nothing else in it.
 */
#ifndef PHYS_URDF_H
#define PHYS_URDF_H

#include <stdbool.h>

#include "param.h"
#include "sdf.h"

struct phys_urdf_options {
	bool quiet;	/* no warnings */
	bool notes;	/* also say what is kept but has no effect (checks) */
	bool visuals;	/* the visuals' geometry too (printing, checks) */
	bool skip_missing;	/* a collision's mesh not found is the
				 * loader's to skip (phys_load_options) */
	bool doubts;	/* quiet or not, say what is legal but most likely
			 * a mistake (mimic cycles, xacro left unexpanded) */
};

/*
 * Convert the URDF document src into out, an SDF document holding one
 * <model>. With owns, out takes src over and frees it with itself. On
 * failure phys_error() says "robot.urdf:LINE: what" and out is empty.
 */
int phys_urdf_convert(struct phys_doc *src, bool owns, struct phys_doc *out,
    const struct phys_urdf_options *o);

/*
 * The file package://PKG/REST or model://PKG/REST names, looked for as
 * libsdformat's URDF reading looks: PKG in ROS_PACKAGE_PATH, in
 * AMENT_PREFIX_PATH's share/, in GAZEBO_MODEL_PATH, then in the
 * directories above doc_path (NULL: the current directory). NULL when
 * not found; else an absolute path to free.
 */
char *phys_package_find(const char *doc_path, const char *uri);

/* The URDF a converted document comes from; NULL for any other. */
struct phys_doc *phys_urdf_source(const struct phys_doc *d);

/*
 * Record, in the URDF that d was converted from, the edit that gives
 * parameter p of the entity whose converted element is node the SDF text
 * value: an attribute of the URDF element where URDF holds it, an element
 * of a <gazebo reference="..."> block where only such a block can. A
 * value URDF cannot hold is refused, saying why and what to do instead.
 */
int phys_urdf_edit(struct phys_doc *d, phys_scope s, xmlNodePtr node,
    const struct phys_param *p, const char *value);

#endif
