/* msg.c - errors and messages: what the library records and what commands print. */
#include "msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"

const char *phys_progname = "phys";
static char errbuf[4096];

void
phys_setprog(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		phys_progname = slash ? slash + 1 : argv0;
}

static void
vset_error(const char *file, long line, const char *fmt, va_list ap)
{
	int n = 0;

	if (file && line > 0)
		n = snprintf(errbuf, sizeof errbuf, "%s:%ld: ", file, line);
	else if (file)
		n = snprintf(errbuf, sizeof errbuf, "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof errbuf)
		n = 0;
	vsnprintf(errbuf + n, sizeof errbuf - n, fmt, ap);
}

int
phys_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_error(NULL, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int
phys_failat(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_error(file, line, fmt, ap);
	va_end(ap);
	return -1;
}

const char *
phys_error(void)
{
	return errbuf[0] ? errbuf : "unknown error";
}

void
phys_report(void)
{
	phys_status_clear();
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", phys_progname, phys_error());
}

static void (*warning_sink)(const char *, long, const char *, void *);
static void *warning_sink_ctx;
static bool quiet;

void
phys_set_quiet(bool on)
{
	quiet = on;
}

void
phys_set_warning_sink(void (*sink)(const char *file, long line,
    const char *message, void *ctx), void *ctx)
{
	warning_sink = sink;
	warning_sink_ctx = ctx;
}

static void
vwarn(const char *file, long line, const char *fmt, va_list ap)
{
	char msg[1024];

	if (warning_sink) {
		vsnprintf(msg, sizeof msg, fmt, ap);
		warning_sink(file, line, msg, warning_sink_ctx);
		return;
	}
	if (quiet)
		return;
	phys_status_clear();
	fflush(stdout);
	fprintf(stderr, "%s: ", phys_progname);
	if (file && line > 0)
		fprintf(stderr, "%s:%ld: ", file, line);
	else if (file)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
phys_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(NULL, 0, fmt, ap);
	va_end(ap);
}

void
phys_warnat(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(file, line, fmt, ap);
	va_end(ap);
}

/* Messages already given by phys_warn_once: a short list suffices. */
static char **warned;
static size_t nwarned;

static void
vwarn_once(const char *file, long line, const char *fmt, va_list ap)
{
	char msg[1024], **more;
	size_t i;

	vsnprintf(msg, sizeof msg, fmt, ap);
	for (i = 0; i < nwarned; i++)
		if (strcmp(warned[i], msg) == 0)
			return;
	/* Without memory to remember it, the warning is still given. */
	more = realloc(warned, (nwarned + 1) * sizeof *warned);
	if (more) {
		warned = more;
		if ((warned[nwarned] = strdup(msg)) != NULL)
			nwarned++;
	}
	phys_warnat(file, line, "%s", msg);
}

void
phys_warn_once(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_once(NULL, 0, fmt, ap);
	va_end(ap);
}

void
phys_warnat_once(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_once(file, line, fmt, ap);
	va_end(ap);
}

void
phys_die(int status, const char *fmt, ...)
{
	va_list ap;

	/* a sink that collects warnings (phys-sdf check's) would take the
	 * last words with it: they go to stderr */
	warning_sink = NULL;
	va_start(ap, fmt);
	vwarn(NULL, 0, fmt, ap);
	va_end(ap);
	exit(status);
}
