/* util.h - errors, strict number parsing, buffers and safe output for phys. */
#ifndef PHYS_UTIL_H
#define PHYS_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit status shared by every command. */
enum {
	PHYS_EXIT_OK = 0,	/* success */
	PHYS_EXIT_FAIL = 1,	/* bad input, failed check, I/O error */
	PHYS_EXIT_USAGE = 2	/* bad command line */
};

#define PHYS_VERSION "0.1.0"
/* The date of this version, on every manual page's .TH line. */
#define PHYS_DATE "2026-11-23"

/* The program name used as the prefix of every message. */
extern const char *phys_progname;
void phys_setprog(const char *argv0);

/*
 * Library functions never print or exit: they record one error message
 * ("file:line: what" when a position is known) and return -1 or NULL.
 * Commands print it with phys_report().
 */
int phys_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int phys_failat(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *phys_error(void);
void phys_report(void);	/* "prog: <last error>" on stderr */

/* "prog: message" on stderr. */
void phys_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void phys_warnat(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Send warnings to sink instead of stderr (NULL: back to stderr); a
 * checker collects the loader's warnings as findings this way. */
void phys_set_warning_sink(void (*sink)(const char *file, long line,
    const char *message, void *ctx), void *ctx);
/* Same, but only the first time this exact message is given. */
/* Seconds on the monotonic clock, for intervals. */
double phys_seconds(void);
void phys_warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void phys_die(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Strict parsing: the whole string (surrounding blanks allowed) must be one
 * finite number in range. NaN, inf, overflow and trailing junk are refused.
 */
bool phys_parse_double(const char *s, double *out);
bool phys_parse_long(const char *s, long *out);	/* decimal or 0x hex */
bool phys_parse_bool(const char *s, bool *out);	/* true/false/1/0 */
/* Up to n blank-separated doubles; returns how many were read, -1 on junk. */
int phys_parse_doubles(const char *s, double *out, int n);

/* Shortest text that reads back to exactly v ("%.15g" .. "%.17g"). */
int phys_fmt_double(char *buf, size_t size, double v);

/* A growable byte buffer; always NUL-terminated. */
struct phys_buf {
	char *s;
	size_t len, cap;
};
void buf_reserve(struct phys_buf *b, size_t extra);
void buf_putc(struct phys_buf *b, char c);
void buf_puts(struct phys_buf *b, const char *s);
void buf_putn(struct phys_buf *b, const char *s, size_t n);
void buf_printf(struct phys_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_double(struct phys_buf *b, double v);	/* JSON number */
void buf_json_string(struct phys_buf *b, const char *s);
/* {"k0":x0,"k1":x1,...} with numbers as buf_double writes them; the keys
 * are plain names, written as they are. */
void buf_json_numbers(struct phys_buf *b, const char *const *keys,
    const double *x, int n);
void buf_clear(struct phys_buf *b);
void buf_free(struct phys_buf *b);

/* Checked allocation: out of memory is fatal. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * An arena: the many small arrays of one owner (a world's parameter
 * values) cut from a few large blocks and freed together. Zero-initialise
 * it; memory is aligned for any type and not cleared.
 */
struct phys_arena_block;
struct phys_arena {
	struct phys_arena_block *head;
	size_t used, cap;	/* bytes of head */
	size_t total;		/* bytes of all blocks */
};
void *phys_arena_alloc(struct phys_arena *a, size_t n);
void phys_arena_free(struct phys_arena *a);

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

/*
 * Standard output: SIGPIPE keeps its default action so a closed pipe ends
 * the program quietly; phys_close_stdout() checks every write at exit.
 * SIGTERM, SIGHUP and SIGINT stop the program at the next line boundary
 * (phys_signal_check), or at once while it waits for input or a lock;
 * complete lines are flushed, a pending temporary file is removed, and
 * the signal is raised again so the parent sees it. A second signal
 * stops the program at once.
 */
void phys_stdout_init(void);
int phys_close_stdout(void);	/* 0, or reports and returns PHYS_EXIT_FAIL */
/* At a line boundary: stop here if one of those signals came. */
void phys_signal_check(void);

/* Shell-style match of a name ('*', '?', '[...]'); '*' also crosses "::" and "/". */
bool phys_glob(const char *pattern, const char *name);
bool phys_has_glob(const char *s);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t phys_edit_distance(const char *a, const char *b);

/* What every command does for --help, --version and a bad command line. */
_Noreturn void phys_help(const char *usage, const char *help);
_Noreturn void phys_version(void);
_Noreturn void phys_usage(const char *usage);
/*
 * getopt_long's complaint, as one line with the closest long options and
 * a pointer to --help: c is what getopt_long returned ('?', or ':' for a
 * missing value when the option string starts with ':'), with opterr 0.
 */
struct option;
_Noreturn void phys_option_error(int c, char *const *argv,
    const struct option *longopts);
/*
 * "prog: unknown command 'WORD'; did you mean NAME?" with the closest of
 * names (NULL-terminated), or a pointer to --help when none is close;
 * exit 2.
 */
_Noreturn void phys_unknown_command(const char *word, const char *const *names);
/* The names closest to word, "a, b or c" (empty when none is close). */
void phys_suggest(struct phys_buf *b, const char *word,
    const char *const *names, const char *prefix);
/* "prog: message", then the usage (when not NULL); exit 2. */
_Noreturn void phys_usage_error(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An option's number: at least min (above it when !min_ok), or a usage
 * error naming opt; -HUGE_VAL for any number. */
double phys_arg_number(const char *usage, const char *opt, const char *s,
    double min, bool min_ok);
/* An option's whole number, at least min, or a usage error. */
long phys_arg_count(const char *usage, const char *opt, const char *s,
    long min);
/*
 * "prog [OPTION]... COMMAND [OPTION | OPERAND]...": options may come on
 * both sides of the command. parse(argc, argv, optstring, ctx) runs
 * getopt_long over each side; the command is returned and *argc, *argv
 * become its operands. NULL when there is no command.
 */
const char *phys_split_command(int *argc, char ***argv, const char *optstring,
    void (*parse)(int, char **, const char *, void *), void *ctx);

/* True when standard error is a terminal (progress may be shown). */
bool phys_stderr_is_tty(void);
/*
 * A status line (progress) on standard error, redrawn in place. Messages
 * on standard error and phys_status_clear() erase it first, so nothing
 * runs into it; callers draw it only when stderr is a terminal.
 */
void phys_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void phys_status_clear(void);
/*
 * When standard input is a terminal, say on standard error that what
 * is read from it (e.g. "an SDF world") is expected, ending with ^D.
 */
void phys_stdin_hint(const char *what);

#endif
