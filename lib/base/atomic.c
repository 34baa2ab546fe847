/* atomic.c - whole files replaced or nothing, and editors serialised. */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "mem.h"
#include "msg.h"
#include "stop.h"

/* ---- writing: whole files replaced, or nothing ---- */

/*
 * The regular file a write to path replaces, symbolic links followed; a
 * path where nothing exists names a new file (*exists false).
 */
static int
resolve_target(const char *path, char **real, struct stat *st, bool *exists)
{
	struct stat lst;

	*exists = false;
	*real = NULL;
	if (lstat(path, &lst) < 0) {
		if (errno != ENOENT)
			return phys_failat(path, 0, "%s", strerror(errno));
		*real = phys_xstrdup(path);
		return 0;
	}
	if (!(*real = realpath(path, NULL)))
		return phys_failat(path, 0, "%s%s", S_ISLNK(lst.st_mode) ?
		    "cannot follow the symbolic link: " : "", strerror(errno));
	if (stat(*real, st) < 0)
		phys_failat(path, 0, "%s", strerror(errno));
	else if (!S_ISREG(st->st_mode))
		phys_failat(path, 0, "not a regular file (only a regular file "
		    "is replaced)");
	else
		*exists = true;
	if (!*exists) {
		free(*real);
		*real = NULL;
		return -1;
	}
	return 0;
}

/* The replacement is the original's: owner, group, mode. */
static void
keep_attributes(int fd, const char *path, const struct stat *st)
{
	if (fchown(fd, st->st_uid, st->st_gid) < 0 &&
	    fchown(fd, (uid_t)-1, st->st_gid) < 0 && st->st_gid != getegid())
		phys_warn("%s: cannot keep the group %lu: %s", path,
		    (unsigned long)st->st_gid, strerror(errno));
	if (st->st_uid != geteuid() && geteuid() != 0)
		phys_warn("%s: the new file is owned by you, not by user %lu",
		    path, (unsigned long)st->st_uid);
	(void)fchmod(fd, st->st_mode & 07777);	/* after chown, which clears
						 * set-id bits */
	if (st->st_nlink > 1)
		phys_warn("%s: replaced; its %lu other hard link%s keep%s the "
		    "old text", path, (unsigned long)st->st_nlink - 1,
		    st->st_nlink == 2 ? "" : "s", st->st_nlink == 2 ? "s" : "");
}

static void
new_file_mode(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

int
phys_atomic_open(struct phys_atomic *a, const char *path)
{
	struct stat st;
	bool exists;
	char *dir;
	int fd;

	memset(a, 0, sizeof *a);
	if (resolve_target(path, &a->path, &st, &exists) < 0)
		return -1;
	dir = phys_xstrdup(a->path);
	a->tmp = phys_xasprintf("%s/.%s.XXXXXX", dirname(dir), basename(a->path));
	free(dir);
	/* Named to the stop handler before it exists: a signal between
	 * mkstemp's open and the naming left the file behind (unlinking a
	 * name not yet made is harmless). */
	phys_stop_removes(a->tmp);
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		phys_stop_removes(NULL);
		phys_failat(path, 0, "cannot create temporary file: %s",
		    strerror(errno));
		free(a->tmp);
		free(a->path);
		return -1;
	}
	if (exists)
		keep_attributes(fd, path, &st);
	else
		new_file_mode(fd);
	if (!(a->fp = fdopen(fd, "w"))) {
		close(fd);
		phys_failat(path, 0, "%s", strerror(errno));
		phys_atomic_abort(a);
		return -1;
	}
	return 0;
}

/* The rename itself lasts once the directory is on disk. */
static void
sync_dir(const char *path)
{
	char *copy = phys_xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(copy);
}

static void
atomic_free(struct phys_atomic *a)
{
	phys_stop_removes(NULL);
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	a->fp = NULL;
}

int
phys_atomic_commit(struct phys_atomic *a)
{
	int err = 0;

	if (fflush(a->fp) != 0 || ferror(a->fp))
		err = errno ? errno : EIO;
	if (fsync(fileno(a->fp)) != 0 && !err)
		err = errno;
	if (fclose(a->fp) != 0 && !err)
		err = errno;
	a->fp = NULL;
	if (!err)
		phys_signal_check();	/* a stop now keeps the original */
	if (!err && rename(a->tmp, a->path) != 0)
		err = errno;
	if (err) {
		phys_failat(a->path, 0, "write failed: %s", strerror(err));
		unlink(a->tmp);
		atomic_free(a);
		return -1;
	}
	sync_dir(a->path);
	atomic_free(a);
	return 0;
}

void
phys_atomic_abort(struct phys_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	atomic_free(a);
}

/* Held to the end: closing it would let another editor in too early. */
static int edit_lock_fd = -1;

static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int
phys_edit_lock(const char *path)
{
	struct stat st, now;
	bool exists;
	char *real;
	int fd, rc;

	if (phys_path_is_stdin(path))
		return phys_fail("-i needs a world file, not standard input");
	for (;;) {
		if (resolve_target(path, &real, &st, &exists) < 0)
			return -1;
		if (!exists) {
			free(real);
			return phys_failat(path, 0, "%s", strerror(ENOENT));
		}
		fd = open(real, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0) {
			free(real);
			return phys_failat(path, 0, "%s", strerror(errno));
		}
		phys_wait_begin();
		do
			rc = flock(fd, LOCK_EX);
		while (rc < 0 && errno == EINTR);
		phys_wait_end();
		if (rc < 0) {
			phys_failat(path, 0, "cannot lock: %s", strerror(errno));
			close(fd);
			free(real);
			return -1;
		}
		/* Another editor may have renamed a new file over this one
		 * while we waited: then the lock is on the old one. */
		rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    stat(real, &now) == 0 && same_file(&st, &now);
		free(real);
		if (rc) {
			if (edit_lock_fd >= 0)
				close(edit_lock_fd);
			edit_lock_fd = fd;
			return 0;
		}
		close(fd);
	}
}
