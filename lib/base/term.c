/* term.c - the terminal: progress on standard error, and a clock for intervals. */
#include "term.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double
phys_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool
phys_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}

/* Whether a status line is on the terminal now, to be erased. */
static bool status_shown;

void
phys_status(const char *fmt, ...)
{
	va_list ap;

	/* Back to the start of the line, the new text, then erase what is
	 * left of a longer old one. */
	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	status_shown = true;
}

void
phys_status_clear(void)
{
	if (!status_shown)
		return;
	fputs("\r\033[K", stderr);
	status_shown = false;
}
