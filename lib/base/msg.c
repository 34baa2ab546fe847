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
static bool a_command;	/* phys_setprog was called: a command's process */
static char errbuf[4096];

static void flush_held(void);

void
phys_setprog(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		phys_progname = slash ? slash + 1 : argv0;
	a_command = true;
}

/* The last error's position apart, for a caller that turns it into a
 * warning of its own: the file (empty: none), the line, where its text
 * starts in errbuf. */
static char errfile[1024];
static long errline;
static size_t errtext;

static void
vset_error(const char *file, long line, const char *fmt, va_list ap)
{
	int n = 0;

	snprintf(errfile, sizeof errfile, "%s", file ? file : "");
	errline = file ? line : 0;

	if (file && line > 0)
		n = snprintf(errbuf, sizeof errbuf, "%s:%ld: ", file, line);
	else if (file)
		n = snprintf(errbuf, sizeof errbuf, "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof errbuf)
		n = 0;
	errtext = (size_t)n;
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

int
phys_fail_again(const char *file, long line, const char *before)
{
	char was[sizeof errbuf];

	memcpy(was, phys_error(), strlen(phys_error()) + 1);
	return phys_failat(file, line, "%s%s", before, was);
}

const char *
phys_error_at(const char **file, long *line)
{
	*file = errfile[0] ? errfile : NULL;
	*line = errline;
	return errbuf[0] ? errbuf + errtext : "unknown error";
}

const char *
phys_error(void)
{
	return errbuf[0] ? errbuf : "unknown error";
}

void
phys_report(void)
{
	flush_held();	/* the warnings before the error they led to */
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
put_warning(const char *file, long line, const char *msg, const char *tail)
{
	phys_status_clear();
	fflush(stdout);
	fprintf(stderr, "%s: ", phys_progname);
	if (file && line > 0)
		fprintf(stderr, "%s:%ld: ", file, line);
	else if (file)
		fprintf(stderr, "%s: ", file);
	fprintf(stderr, "%s%s\n", msg, tail);
}

/*
 * Warnings held while a batch is open (a world's load, an engine's
 * build): a robot of fifty links with the same fault would otherwise say
 * the same thing fifty times. What differs only by the element it names
 * is one group, said once at its first element's place, with how many
 * more: "link 'arm::l0': ... (and 49 more links)". The element is the
 * first "KIND 'NAME'" of the text, KIND one of the words below.
 */
struct held {
	char *file;
	long line;
	char *msg;
	char *key;		/* msg without the element's name */
	const char *kind;	/* the element's kind, or NULL */
	size_t more;		/* how many more said the same */
};
static struct held *held;
static size_t nheld;
static int batch_depth;

static const char *const kinds[] = { "link", "joint", "collision", "visual",
	"model", "sensor", NULL };

/* The key of msg: msg with its element's name left out; *kind its kind. */
static char *
group_key(const char *msg, const char **kind)
{
	const char *p, *name, *end;
	size_t i, n;
	char *key;

	*kind = NULL;
	for (p = msg; *p; p++) {
		if (p > msg && p[-1] != ' ' && p[-1] != '(')
			continue;
		for (i = 0; kinds[i]; i++) {
			n = strlen(kinds[i]);
			if (strncmp(p, kinds[i], n) == 0 &&
			    strncmp(p + n, " '", 2) == 0)
				break;
		}
		if (!kinds[i])
			continue;
		name = p + n + 2;
		if (!(end = strchr(name, '\'')))
			break;
		if ((key = malloc(strlen(msg) + 1)) == NULL)
			return NULL;
		memcpy(key, msg, (size_t)(name - msg));
		strcpy(key + (name - msg), end);
		*kind = kinds[i];
		return key;
	}
	return strdup(msg);
}

/* Hold msg in the open batch; false when it cannot be (no memory). */
static bool
hold(const char *file, long line, const char *msg)
{
	struct held *h, *more;
	const char *kind;
	char *key = group_key(msg, &kind);
	size_t i;

	if (!key)
		return false;
	for (i = 0; i < nheld; i++)
		if (strcmp(held[i].key, key) == 0) {
			held[i].more++;
			free(key);
			return true;
		}
	if (!(more = realloc(held, (nheld + 1) * sizeof *held))) {
		free(key);
		return false;
	}
	held = more;
	h = &held[nheld];
	h->file = file ? strdup(file) : NULL;
	h->line = line;
	h->msg = strdup(msg);
	h->key = key;
	h->kind = kind;
	h->more = 0;
	if (!h->msg || (file && !h->file)) {
		free(h->file);
		free(h->msg);
		free(key);
		return false;
	}
	nheld++;
	return true;
}

void
phys_more_text(char *buf, size_t n, size_t more, const char *kind)
{
	if (n == 0)
		return;
	buf[0] = '\0';
	if (more > 0)
		snprintf(buf, n, " (and %zu more%s%s%s)", more,
		    kind ? " " : "", kind ? kind : "",
		    kind && more > 1 ? "s" : "");
}

/* Write the held warnings, each group on one line, in the order of its
 * first. */
static void
flush_held(void)
{
	char tail[64];
	size_t i;

	for (i = 0; i < nheld; i++) {
		phys_more_text(tail, sizeof tail, held[i].more, held[i].kind);
		put_warning(held[i].file, held[i].line, held[i].msg, tail);
		free(held[i].file);
		free(held[i].msg);
		free(held[i].key);
	}
	free(held);
	held = NULL;
	nheld = 0;
}

void
phys_warn_batch_begin(void)
{
	batch_depth++;
}

void
phys_warn_batch_end(void)
{
	if (batch_depth > 0 && --batch_depth == 0)
		flush_held();
}

static void
vwarn(const char *file, long line, const char *fmt, va_list ap)
{
	char small[1024], *msg = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	/* a long one whole when memory allows, else cut */
	if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)))
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	else
		msg = small;
	va_end(again);
	if (warning_sink)
		warning_sink(file, line, msg, warning_sink_ctx);
	else if (!quiet && !(batch_depth > 0 && hold(file, line, msg)))
		put_warning(file, line, msg, "");
	if (msg != small)
		free(msg);
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

static struct phys_recover *recover_at;	/* the innermost point armed */
static unsigned long recovered;

struct phys_recover *
phys_recover_push(struct phys_recover *r)
{
	r->outer = recover_at;
	r->batch_depth = batch_depth;
	recover_at = r;
	return r;
}

void
phys_recover_pop(struct phys_recover **r)
{
	recover_at = (*r)->outer;
}

bool
phys_may_die(void)
{
	return a_command || recover_at;
}

unsigned long
phys_recover_count(void)
{
	return recovered;
}

/* What this thread is reading, innermost first (phys_reading_push). */
static _Thread_local struct phys_reading *reading;

void
phys_reading_push(struct phys_reading *r)
{
	r->outer = reading;
	reading = r;
}

void
phys_reading_pop(struct phys_reading *r)
{
	reading = r->outer;
}

/* phys_die's work, at file:line (file NULL: the place reached in what is
 * being read, if anything is). */
static _Noreturn void
vdie(int status, const char *file, long line, const char *fmt, va_list ap)
{
	struct phys_recover *r = recover_at;

	if (!file && reading) {
		file = reading->file;
		if ((line = reading->where(reading->arg, &file)) <= 0)
			file = NULL;
	}
	/* the readings end here, whatever is done next */
	reading = NULL;

	if (r) {
		vset_error(file, line, fmt, ap);
		/* the batches the call opened end with it */
		batch_depth = r->batch_depth;
		if (batch_depth == 0)
			flush_held();
		recover_at = r->outer;
		recovered++;
		longjmp(r->at, 1);
	}
	/* the warnings held so far, then the last words, at once: not
	 * held with them in a batch that will never end */
	batch_depth = 0;
	flush_held();
	/* a sink that collects warnings (phys-sdf check's) would take the
	 * last words with it, and -q would drop them: they go to stderr */
	warning_sink = NULL;
	quiet = false;
	vwarn(file, line, fmt, ap);
	exit(status);
}

void
phys_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(status, NULL, 0, fmt, ap);
}
