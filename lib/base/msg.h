/* msg.h - errors and messages: what the library records and what commands print. */
#ifndef PHYS_BASE_MSG_H
#define PHYS_BASE_MSG_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Exit status shared by every command. */
enum {
	PHYS_EXIT_OK = 0,	/* success */
	PHYS_EXIT_FAIL = 1,	/* bad input, failed check, I/O error */
	PHYS_EXIT_USAGE = 2	/* bad command line */
};

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
/* The error set now, recorded again at file:line (file NULL: no place),
 * after the text before: a caller placing a callee's. */
int phys_fail_again(const char *file, long line, const char *before);
/* The same without its position, which goes to *file (NULL: none) and
 * *line, to be given again as a warning's (phys_warnat). */
const char *phys_error_at(const char **file, long *line);
void phys_report(void);	/* "prog: <last error>" on stderr */

/* "prog: message" on stderr. */
void phys_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void phys_warnat(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* -q: warnings are not written on stderr (a sink still gets them);
 * errors still are. */
void phys_set_quiet(bool on);
/* Send warnings to sink instead of stderr (NULL: back to stderr); a
 * checker collects the loader's warnings as findings this way. */
void phys_set_warning_sink(void (*sink)(const char *file, long line,
    const char *message, void *ctx), void *ctx);

/* Same, but only the first time this exact message is given (whatever
 * the file and line, which are those of the first). */
void phys_warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void phys_warnat_once(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* " (and N more KINDs)" into buf of size n, kind singular or NULL (" (and
 * N more)"); empty for none more. */
void phys_more_text(char *buf, size_t n, size_t more, const char *kind);

/*
 * Between these, warnings on stderr are held, then written at the end of
 * the outermost batch (or before an error report), those that differ only
 * by the element they name ("link 'X': ...") as one line ending "(and N
 * more links)". Batches nest.
 */
void phys_warn_batch_begin(void);
void phys_warn_batch_end(void);
/*
 * A failure the caller cannot take back (memory ran out, the tables are
 * inconsistent): a command says so and exits with status; inside a
 * recovery point the message becomes the last error and the innermost
 * point's setjmp returns 1 instead.
 */
_Noreturn void phys_die(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * What this thread is reading: where(arg, &file) gives the line reached
 * and may change file from the one given (an included file's). phys_die,
 * memory running out among others, names that place (a URDF of 45,000
 * links within 150 MB said "out of memory" alone). Readings nest, the
 * innermost named; push before, pop after; dying ends them all.
 */
struct phys_reading {
	const char *file;
	long (*where)(const void *arg, const char **file);
	const void *arg;
	struct phys_reading *outer;
};
void phys_reading_push(struct phys_reading *r);
void phys_reading_pop(struct phys_reading *r);

/*
 * A recovery point: what an embedder's call into the library arms, so
 * that phys_die ends the call, not the program. push arms it (setjmp on
 * its at right after, in the same frame) and returns it; pop disarms it
 * and every point armed after it. Points nest.
 */
struct phys_recover {
	jmp_buf at;
	struct phys_recover *outer;
	int batch_depth;	/* the warning batches open when armed */
};
struct phys_recover *phys_recover_push(struct phys_recover *r);
void phys_recover_pop(struct phys_recover **r);
/* Whether phys_die would end what phys is doing, not its caller's
 * process: in a command, or within a call that armed a point. */
bool phys_may_die(void);
/* How many times phys_die went back to a point: what was armed within
 * (an engine's traps) is gone when this changed. */
unsigned long phys_recover_count(void);

#endif
