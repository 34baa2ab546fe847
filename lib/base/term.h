/* term.h - the terminal: progress on standard error, and a clock for intervals. */
#ifndef PHYS_BASE_TERM_H
#define PHYS_BASE_TERM_H

#include <stdbool.h>

/* Seconds on the monotonic clock, for intervals. */
double phys_seconds(void);
/* True when standard error is a terminal (progress may be shown). */
bool phys_stderr_is_tty(void);
/*
 * A status line (progress) on standard error, redrawn in place. Messages
 * on standard error and phys_status_clear() erase it first, so nothing
 * runs into it; callers draw it only when stderr is a terminal.
 */
void phys_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void phys_status_clear(void);
#endif
