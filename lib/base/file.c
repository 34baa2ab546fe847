/* file.c - reading files and line streams, with bounds. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"
#include "msg.h"
#include "stop.h"

const char *
phys_display_name(const char *path)
{
	return (!path || strcmp(path, "-") == 0) ? "<stdin>" : path;
}

/* Whether out[from, to) is "..". */
static bool
is_up(const char *out, size_t from, size_t to)
{
	return to - from == 2 && out[from] == '.' && out[from + 1] == '.';
}

/* path without "." parts and with "part/.." folded, lexically. */
static char *
fold_path(const char *path)
{
	char *out = phys_xmalloc(strlen(path) + 2);
	const char *c, *e;
	size_t n = 0, len, last;
	size_t root = path[0] == '/';	/* out[0, root) is "/" */

	if (root)
		out[n++] = '/';
	for (c = path; *c; c = *e ? e + 1 : e) {
		e = c + strcspn(c, "/");
		len = (size_t)(e - c);
		if (len == 0 || (len == 1 && *c == '.'))
			continue;
		if (is_up(c, 0, len)) {
			for (last = n; last > root && out[last - 1] != '/';
			    last--)
				;
			if (n > root && !is_up(out, last, n)) {
				n = last > root ? last - 1 : root;
				continue;
			}
			if (root && n == root)
				continue;	/* "/.." is "/" */
		}
		if (n > root)
			out[n++] = '/';
		memcpy(out + n, c, len);
		n += len;
	}
	if (n == 0)
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

/* Whether paths a and b name one file. */
static bool
same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

char *
phys_path_dir(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!slash)
		return phys_xstrdup(".");
	return slash == path ? phys_xstrdup("/") :
	    phys_xstrndup(path, (size_t)(slash - path));
}

char *
phys_path_tidy(char *path)
{
	char *t, *da, *db;
	bool same;

	if (!path)
		return NULL;
	t = fold_path(path);
	/* only where both name one file in one directory (a name of the
	 * file's own directory finds what lies beside it): "link/.." is
	 * not always "." */
	da = phys_path_dir(path);
	db = phys_path_dir(t);
	same = strcmp(t, path) != 0 && same_file(path, t) &&
	    same_file(da, db);
	free(da);
	free(db);
	if (same) {
		free(path);
		return t;
	}
	free(t);
	return path;
}

/* ---- reading: bounded, a buffer at a time ---- */

enum { READ_CHUNK = 65536 };

bool
phys_path_is_stdin(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

static void
close_input(int fd)
{
	if (fd >= 0 && fd != STDIN_FILENO)
		close(fd);
}

ssize_t
phys_read_full(int fd, void *buf, size_t n)
{
	char *c = buf;
	size_t got = 0;
	ssize_t k;

	while (got < n) {
		k = read(fd, c + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

const char *
phys_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	return S_ISREG(mode) ? "a regular file" : "not a file";
}

int
phys_open_regular(const char *path)
{
	struct stat st;
	int fd, flags;

	/* O_NONBLOCK: a FIFO opens at once, without a writer, to be told
	 * apart by fstat; the descriptor is the one read, so what was
	 * looked at is what is read */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return phys_failat(path, 0, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = errno;

		if (fstat(fd, &st) == 0)
			phys_failat(path, 0, S_ISDIR(st.st_mode) ? "%s" :
			    "not a regular file (%s)", S_ISDIR(st.st_mode) ?
			    strerror(EISDIR) : phys_file_kind(st.st_mode));
		else
			phys_failat(path, 0, "%s", strerror(err));
		close(fd);
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		phys_failat(path, 0, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* A descriptor for path; *may_block when reads can wait for ever. Only
 * a regular file (or standard input) when regular. */
static int
open_input(const char *path, bool *may_block, bool regular)
{
	const char *name = phys_display_name(path);
	struct stat st;
	int fd;

	if (regular && !phys_path_is_stdin(path)) {
		*may_block = false;
		return phys_open_regular(path);
	}
	phys_wait_begin();		/* opening a FIFO waits for its writer */
	fd = phys_path_is_stdin(path) ? STDIN_FILENO :
	    open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	phys_wait_end();
	if (fd < 0)
		return phys_failat(name, 0, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		int err = errno;

		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
			err = EISDIR;
		close_input(fd);
		return phys_failat(name, 0, "%s", strerror(err));
	}
	*may_block = !S_ISREG(st.st_mode);
	return fd;
}

static ssize_t
read_some(int fd, char *buf, size_t n, bool may_block)
{
	ssize_t got;

	if (may_block)
		phys_wait_begin();
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (may_block)
		phys_wait_end();
	return got;
}

static int
too_large(const char *name)
{
	return phys_failat(name, 0, "file too large (limit %d MB)",
	    PHYS_MAX_FILE_MB);
}

static int
nul_byte(const char *name, long line)
{
	return phys_failat(name, line, "not a text file (a NUL byte)");
}

static char *
read_whole(const char *path, size_t *lenp, bool regular)
{
	const char *name = phys_display_name(path);
	struct phys_buf b = { 0 };
	struct stat st;
	bool may_block;
	ssize_t got;
	size_t room;
	int fd = open_input(path, &may_block, regular), rc = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) {
		if ((uintmax_t)st.st_size > PHYS_MAX_FILE_BYTES)
			rc = too_large(name);
		else
			phys_buf_reserve(&b, (size_t)st.st_size + 1);
	}
	while (rc == 0) {
		/* a regular file's size and a byte more (to see its end) fit
		 * already; a stream grows a chunk at a time */
		room = PHYS_MAX_FILE_BYTES + 1 - b.len;
		if (b.cap < b.len + 2)
			phys_buf_reserve(&b, room < READ_CHUNK ? room :
			    READ_CHUNK);
		room = b.cap - 1 - b.len;
		got = read_some(fd, b.s + b.len, room, may_block);
		if (got < 0)
			rc = phys_failat(name, 0, "read error: %s",
			    strerror(errno));
		else if (got == 0)
			break;
		else if (memchr(b.s + b.len, '\0', (size_t)got))
			rc = nul_byte(name, 0);
		else if ((b.len += (size_t)got) > PHYS_MAX_FILE_BYTES)
			rc = too_large(name);
	}
	close_input(fd);
	if (rc < 0) {
		phys_buf_free(&b);
		return NULL;
	}
	/* what the text does not use goes back: a world of many included
	 * files holds each of them */
	b.s = phys_xrealloc(b.s, b.len + 1);
	b.s[b.len] = '\0';	/* an empty file still reads as "" */
	if (lenp)
		*lenp = b.len;
	return b.s;
}

char *
phys_read_file(const char *path, size_t *lenp)
{
	return read_whole(path, lenp, false);
}

char *
phys_read_regular_file(const char *path, size_t *lenp)
{
	return read_whole(path, lenp, true);
}

static int
lines_open(struct phys_lines *l, const char *path, size_t max_total,
    bool regular)
{
	struct stat st;
	bool may_block;

	memset(l, 0, sizeof *l);
	l->name = phys_display_name(path);
	l->max_total = max_total;
	l->fd = open_input(path, &may_block, regular);
	if (l->fd < 0)
		return -1;
	l->may_block = may_block;
	if (max_total && fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > max_total) {
		phys_lines_close(l);
		return too_large(phys_display_name(path));
	}
	return 0;
}

int
phys_lines_open(struct phys_lines *l, const char *path, size_t max_total)
{
	return lines_open(l, path, max_total, false);
}

int
phys_lines_open_regular(struct phys_lines *l, const char *path,
    size_t max_total)
{
	return lines_open(l, path, max_total, true);
}

static int
line_too_long(const struct phys_lines *l)
{
	return phys_failat(l->name, l->lineno + 1, "line too long (limit %d "
	    "MB)", PHYS_MAX_LINE_MB);
}

/* Whether a read of l would wait: nothing has arrived on its pipe. */
static bool
would_wait(const struct phys_lines *l)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	return l->may_block && poll(&p, 1, 0) == 0;
}

/* More bytes after the unread ones; room for a line of the limit. */
static int
fill(struct phys_lines *l)
{
	size_t want, have = l->end - l->start;
	const char *nul;
	ssize_t got;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, have);
		l->start = 0;
		l->end = have;
	}
	if (l->cap - l->end < READ_CHUNK + 1) {
		want = l->cap ? l->cap * 2 : READ_CHUNK + 1;
		if (want > PHYS_MAX_LINE_BYTES + READ_CHUNK + 2)
			want = PHYS_MAX_LINE_BYTES + READ_CHUNK + 2;
		l->buf = phys_xrealloc(l->buf, want);
		l->cap = want;
	}
	got = read_some(l->fd, l->buf + l->end, l->cap - 1 - l->end,
	    l->may_block);
	if (got < 0)
		return phys_failat(l->name, 0, "read error: %s",
		    strerror(errno));
	if (got == 0) {
		l->eof = true;
		return 0;
	}
	if ((nul = memchr(l->buf + l->end, '\0', (size_t)got))) {
		long line = l->lineno + 1;
		const char *p;

		for (p = l->buf; p < nul; p++)
			line += *p == '\n';
		return nul_byte(l->name, line);
	}
	l->end += (size_t)got;
	l->total += (size_t)got;
	if (l->max_total && l->total > l->max_total)
		return too_large(l->name);
	return 0;
}

/* The next line as phys_lines_next; with !wait, 2 when none is complete
 * and reading more would wait. */
static int
next_line(struct phys_lines *l, char **line, size_t *lenp, bool wait)
{
	size_t scanned = 0, len;
	char *s, *nl;

	phys_signal_check();
	for (;;) {
		/* before the first read there is no buffer: NULL + 0 is UB */
		s = l->buf ? l->buf + l->start : NULL;
		nl = s ? memchr(s + scanned, '\n', l->end - l->start -
		    scanned) : NULL;
		len = nl ? (size_t)(nl - s) : l->end - l->start;
		if (len > PHYS_MAX_LINE_BYTES)
			return line_too_long(l);
		if (nl || (l->eof && len > 0)) {
			s[len] = '\0';
			l->start += len + (nl != NULL);
			l->lineno++;
			*line = s;
			if (lenp)
				*lenp = len;
			return 1;
		}
		if (l->eof)
			return 0;
		scanned = len;
		if (!wait && would_wait(l))
			return 2;
		if (fill(l) < 0)
			return -1;
	}
}

int
phys_lines_next(struct phys_lines *l, char **line, size_t *lenp)
{
	return next_line(l, line, lenp, true);
}

int
phys_lines_poll(struct phys_lines *l, char **line, size_t *lenp)
{
	return next_line(l, line, lenp, false);
}

void
phys_lines_close(struct phys_lines *l)
{
	close_input(l->fd);
	free(l->buf);
	memset(l, 0, sizeof *l);
	l->fd = -1;
}

bool
phys_blank_or_comment(const char *line)
{
	return line[strspn(line, " \t\r")] == '\0' ||
	    line[strspn(line, " \t")] == '#';
}

static int
each_line(const char *path, size_t max_total,
    int (*fn)(char *line, long lineno, void *ctx), void *ctx)
{
	struct phys_lines l;
	char *line;
	int rc;

	if (phys_lines_open(&l, path, max_total) < 0)
		return -1;
	while ((rc = phys_lines_next(&l, &line, NULL)) > 0) {
		if (phys_blank_or_comment(line))
			continue;
		if ((rc = fn(line, l.lineno, ctx)) == 0)
			continue;
		if (rc < 0)	/* fn's message gains the position */
			phys_fail_again(l.name, l.lineno, "");
		break;
	}
	phys_lines_close(&l);
	return rc;
}

int
phys_each_line(const char *path, int (*fn)(char *line, long lineno, void *ctx),
    void *ctx)
{
	return each_line(path, PHYS_MAX_FILE_BYTES, fn, ctx);
}

int
phys_each_stream_line(const char *path, int (*fn)(char *line, long lineno,
    void *ctx), void *ctx)
{
	return each_line(path, 0, fn, ctx);
}
