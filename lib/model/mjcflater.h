/*
 * mjcflater.h - an MJCF model's elements and attributes looked up in
 * MuJoCo 2.2.2's schema before it is read: what a later MuJoCo added is
 * read, noted or refused (mjcflater.c).
 */
#ifndef PHYS_MJCFLATER_H
#define PHYS_MJCFLATER_H

#include <libxml/tree.h>

struct reader;

/* The model under root, includes expanded: 0, or -1 with phys_error()
 * at the first element or attribute phys refuses. */
int phys_mjcf_vet(struct reader *r, xmlNodePtr root);

#endif
