/*
 * mjcftree.h - the body tree of a world written as MJCF (mjcfwrite.c),
 * which the keyframes written with it (mjcfkey_write.c) follow.
 */
#ifndef PHYS_MJCFTREE_H
#define PHYS_MJCFTREE_H

#include <stdbool.h>

/* Per link and per joint of the world written. */
struct phys_mjcf_tree {
	int *holder;		/* per link: the joint its body hangs by, -1 */
	int *up;		/* per link: the parent body's link, -1 world */
	bool *free;		/* per link: its body has a free joint */
	bool *loop;		/* per joint: it closes a loop: its joints are
				 * a ghost body's, hanging from its parent
				 * where its child is */
};

#endif
