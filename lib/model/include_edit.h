/*
 * include_edit.h - an <include>'s <experimental:params>: libsdformat's
 * parameter passing (SDF 1.9), the edits it lists made to the included
 * model's elements before the model is read.
 *
 * Each child of <experimental:params> names an element of the included
 * model by element_id, the names from the model down joined by "::"
 * ("base_link::camera"; a name may itself hold "::", the longest that
 * fits is taken), and says what to do by action: add it there (the
 * element_id names the parent; empty: the model), modify (attributes
 * set, a value replaced, children modified in turn, an empty child set
 * back to its default), remove (the element, or the children it lists),
 * replace. Without an action, each of its children carries its own, done
 * within the element named. What libsdformat skips with an error is an
 * error here, at the element's file and line: the world does not load.
 */
#ifndef PHYS_INCLUDE_EDIT_H
#define PHYS_INCLUDE_EDIT_H

#include <libxml/tree.h>

#include "sdf.h"

/* Make the edits params (an element of from) lists to model, the <model>
 * of inc. 0, or -1 with the error set. */
int phys_include_edit(const struct phys_doc *from, xmlNodePtr params,
    struct phys_doc *inc, xmlNodePtr model);

#endif
