/*
 * mjcfedit.h - a parameter of an MJCF model written back into the MJCF
 * file, in MuJoCo's own terms, through the lossless editor (sdfedit.h):
 * a body's <inertial>, a <joint>'s or a <geom>'s attributes, <option>.
 * Nothing else in the file changes.
 */
#ifndef PHYS_MJCFEDIT_H
#define PHYS_MJCFEDIT_H

#include "param.h"
#include "sdf.h"

/*
 * Number the elements of src, the MJCF file as read, before its
 * <include>s are expanded into its tree: what an edit finds in the tree
 * is then known to be the file's own, and where in the file.
 */
void phys_mjcf_mark(struct phys_doc *src);

/*
 * Record, in the MJCF file src that model was converted from (mjcf.h),
 * the edit that gives parameter p of the entity whose element is node
 * the SDF text value: node is a <link>, <collision> or <joint> of model,
 * or the <world> or a <physics> profile that the file's <option> makes.
 * A value MJCF cannot hold is refused, saying why.
 */
int phys_mjcf_edit(struct phys_doc *src, struct phys_doc *model,
    phys_scope s, xmlNodePtr node, const struct phys_param *p,
    const char *value);

#endif
