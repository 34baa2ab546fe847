/* file.h - reading files and line streams, with bounds. */
#ifndef PHYS_BASE_FILE_H
#define PHYS_BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Input limits, far above any real world or run, so that /dev/zero or a
 * runaway producer costs bounded memory: a file read whole (a world, a
 * selection, control or parameter lines) stops at PHYS_MAX_FILE_MB, one
 * line of any line file at PHYS_MAX_LINE_MB. Text never holds a NUL byte.
 */
#define PHYS_MAX_FILE_MB 64
#define PHYS_MAX_LINE_MB 16
#define PHYS_MAX_FILE_BYTES ((size_t)PHYS_MAX_FILE_MB << 20)
#define PHYS_MAX_LINE_BYTES ((size_t)PHYS_MAX_LINE_MB << 20)

/* Whole text file ("-" or NULL is stdin) into memory, at most
 * PHYS_MAX_FILE_BYTES; NULL and phys_error() on failure. */
char *phys_read_file(const char *path, size_t *len);
/* The same for a file a world is or names (its includes, a plan's
 * world): a regular file, or stdin ("-"); a FIFO, a device or a
 * directory is refused at once, never waited on: "not a regular file
 * (a FIFO)". */
char *phys_read_regular_file(const char *path, size_t *len);
/* path opened to read, only if it is a regular file, without waiting
 * (a FIFO without a writer, a device); -1 and phys_error() else. */
int phys_open_regular(const char *path);
/* Up to n bytes from fd into buf, through interruptions and short reads:
 * how many (fewer only at the file's end), or -1 and errno. */
ssize_t phys_read_full(int fd, void *buf, size_t n);
/* What a file of st_mode mode is, for messages: "a FIFO". */
const char *phys_file_kind(mode_t mode);

/*
 * A line file read a buffer at a time: a line is held only while it is
 * the current one. max_total bounds the bytes of the whole file (0: a
 * stream without end, like state lines on a pipe).
 */
struct phys_lines {
	const char *name;	/* for messages */
	int fd;
	char *buf;
	size_t cap, start, end;	/* unread bytes are buf[start..end) */
	size_t total, max_total;
	long lineno;
	bool eof, may_block;
};
int phys_lines_open(struct phys_lines *l, const char *path, size_t max_total);
/* The same for a file that must be a regular one, or stdin ("-"), as
 * phys_read_regular_file. */
int phys_lines_open_regular(struct phys_lines *l, const char *path,
    size_t max_total);
/* The next line, without its newline, NUL-terminated in *line (valid to
 * the next call), and its length: 1, 0 at the end, -1 on error. */
int phys_lines_next(struct phys_lines *l, char **line, size_t *len);
/* The same without waiting on a pipe: 2 when no whole line has arrived. */
int phys_lines_poll(struct phys_lines *l, char **line, size_t *len);
/* A line of blanks or a '#' comment, which line files may hold. */
bool phys_blank_or_comment(const char *line);
void phys_lines_close(struct phys_lines *l);

/*
 * Call fn for each line of a file ("-": stdin) that is not blank or a
 * '#' comment, with its number. A failure of fn stops the loop, and its
 * message gains the position: "file:line: message". phys_each_line is for
 * files a command holds (limited to PHYS_MAX_FILE_BYTES);
 * phys_each_stream_line for streams without end.
 */
int phys_each_line(const char *path, int (*fn)(char *line, long lineno,
    void *ctx), void *ctx);
int phys_each_stream_line(const char *path, int (*fn)(char *line,
    long lineno, void *ctx), void *ctx);
/* The name to use in messages for path ("-"/NULL is "<stdin>"). */
const char *phys_display_name(const char *path);

/* The directory of path (allocated): "." for a bare name or NULL (standard
 * input's), "/" for a name at the root. */
char *phys_path_dir(const char *path);
/* path (allocated) as messages best show it: without "." parts and with
 * "dir/.." folded where the result names the same file; else as it was.
 * Takes path's ownership. */
char *phys_path_tidy(char *path);

/* Is path standard input ("-" or NULL)? */
bool phys_path_is_stdin(const char *path);

#endif
