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
/* Same, but only the first time this exact message is given. */
void phys_warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send warnings to sink (the message without the program name) instead
 * of stderr; NULL: back to stderr. */
void phys_set_warning_sink(void (*sink)(const char *msg, void *ctx),
    void *ctx);
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
/* {"k0":x0,"k1":x1,...} with numbers as buf_double writes them. */
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

/* Whole file ("-" or NULL is stdin) into memory; NULL and phys_error() on failure. */
char *phys_read_file(const char *path, size_t *len);
/*
 * Call fn for each line of a file ("-": stdin) that is not blank or a
 * '#' comment, with its number. A failure of fn stops the loop, and its
 * message gains the position: "file:line: message".
 */
int phys_each_line(const char *path, int (*fn)(char *line, long lineno,
    void *ctx), void *ctx);
/* The name to use in messages for path ("-"/NULL is "<stdin>"). */
const char *phys_display_name(const char *path);

/*
 * Output that is never half-written. An in-place edit writes a temporary
 * file beside the target and renames it over the target only on commit.
 */
struct phys_atomic {
	FILE *fp;
	char *tmp, *path;
};
int phys_atomic_open(struct phys_atomic *a, const char *path);
int phys_atomic_commit(struct phys_atomic *a);	/* flush, fsync, rename */
void phys_atomic_abort(struct phys_atomic *a);

/*
 * Standard output: SIGPIPE keeps its default action so a closed pipe ends
 * the program quietly; phys_close_stdout() checks every write at exit.
 */
void phys_stdout_init(void);
int phys_close_stdout(void);	/* 0, or reports and returns PHYS_EXIT_FAIL */

/* Shell-style match of a name ('*', '?', '[...]'); '*' also crosses "::" and "/". */
bool phys_glob(const char *pattern, const char *name);
bool phys_has_glob(const char *s);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t phys_edit_distance(const char *a, const char *b);

/* What every command does for --help, --version and a bad command line. */
_Noreturn void phys_help(const char *usage, const char *help);
_Noreturn void phys_version(void);
_Noreturn void phys_usage(const char *usage);
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

#endif
