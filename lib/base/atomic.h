/* atomic.h - whole files replaced or nothing, and editors serialised. */
#ifndef PHYS_BASE_ATOMIC_H
#define PHYS_BASE_ATOMIC_H

#include <stdio.h>

/*
 * Output that is never half-written. An in-place edit writes a temporary
 * file beside the target and renames it over the target only on commit.
 * A symbolic link is followed (its target is replaced, the link kept);
 * anything but a regular file is refused. The replacement keeps the
 * original's owner, group and mode; a new file gets 0666 less the umask.
 */
struct phys_atomic {
	FILE *fp;
	char *tmp, *path;
};
int phys_atomic_open(struct phys_atomic *a, const char *path);
int phys_atomic_commit(struct phys_atomic *a);	/* flush, fsync, rename */
void phys_atomic_abort(struct phys_atomic *a);

/*
 * Before reading a file to edit it in place: refuse anything but a
 * regular file, and take an exclusive lock that serialises phys editors
 * of that file from before the read to after the rename (it is held until
 * the program exits).
 */
int phys_edit_lock(const char *path);

#endif
