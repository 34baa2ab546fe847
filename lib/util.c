/* util.c - errors, strict number parsing, buffers and safe output. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", phys_progname, phys_error());
}

static void
vwarn(const char *file, long line, const char *fmt, va_list ap)
{
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

void
phys_warn_once(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (i = 0; i < nwarned; i++)
		if (strcmp(warned[i], msg) == 0)
			return;
	warned = xrealloc(warned, (nwarned + 1) * sizeof *warned);
	warned[nwarned++] = xstrdup(msg);
	phys_warn("%s", msg);
}

void
phys_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(NULL, 0, fmt, ap);
	va_end(ap);
	exit(status);
}

static const char *
skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* strtod accepts "nan", "inf" and hex floats; SDF text never needs them. */
static bool
plain_number(const char *s)
{
	for (; *s && !isspace((unsigned char)*s); s++)
		if (!strchr("0123456789+-.eE", *s))
			return false;
	return true;
}

bool
phys_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return false;
	s = skip_blanks(s);
	if (!*s || !plain_number(s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v))
		return false;
	if (*skip_blanks(end))
		return false;
	*out = v;
	return true;
}

bool
phys_parse_long(const char *s, long *out)
{
	char *end;
	long v;
	int base = 10;

	if (!s)
		return false;
	s = skip_blanks(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, base);
	if (end == s || errno == ERANGE || *skip_blanks(end))
		return false;
	*out = v;
	return true;
}

bool
phys_parse_bool(const char *s, bool *out)
{
	size_t n;

	if (!s)
		return false;
	s = skip_blanks(s);
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if ((n == 4 && strncmp(s, "true", 4) == 0) || (n == 1 && *s == '1'))
		*out = true;
	else if ((n == 5 && strncmp(s, "false", 5) == 0) || (n == 1 && *s == '0'))
		*out = false;
	else
		return false;
	return true;
}

int
phys_parse_doubles(const char *s, double *out, int n)
{
	char tok[128];
	int k = 0;
	size_t len;

	if (!s)
		return -1;
	for (;;) {
		s = skip_blanks(s);
		if (!*s)
			return k;
		if (k == n)
			return -1;
		len = strcspn(s, " \t\r\n");
		if (len >= sizeof tok)
			return -1;
		memcpy(tok, s, len);
		tok[len] = '\0';
		if (!phys_parse_double(tok, &out[k]))
			return -1;
		k++;
		s += len;
	}
}

int
phys_fmt_double(char *buf, size_t size, double v)
{
	int prec, n = 0;

	if (v == 0)		/* also turns -0 into 0 for stable output */
		return snprintf(buf, size, "0");
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return n;
}

void
buf_reserve(struct phys_buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	b->cap = b->cap ? b->cap : 256;
	while (b->len + extra + 1 > b->cap)
		b->cap *= 2;
	b->s = xrealloc(b->s, b->cap);
}

void
buf_putn(struct phys_buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
buf_putc(struct phys_buf *b, char c)
{
	buf_putn(b, &c, 1);
}

void
buf_puts(struct phys_buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void
buf_printf(struct phys_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
buf_double(struct phys_buf *b, double v)
{
	char tmp[40];

	if (!isfinite(v)) {	/* JSON has no NaN; callers check first */
		buf_puts(b, "null");
		return;
	}
	buf_putn(b, tmp, (size_t)phys_fmt_double(tmp, sizeof tmp, v));
}

void
buf_json_string(struct phys_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;

	buf_putc(b, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)*p);
		} else if (*p == '\n') {
			buf_puts(b, "\\n");
		} else if (*p == '\t') {
			buf_puts(b, "\\t");
		} else if (*p < 0x20) {
			buf_puts(b, "\\u00");
			buf_putc(b, hex[*p >> 4]);
			buf_putc(b, hex[*p & 15]);
		} else {
			buf_putc(b, (char)*p);
		}
	}
	buf_putc(b, '"');
}

void
buf_clear(struct phys_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void
buf_free(struct phys_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		phys_die(PHYS_EXIT_FAIL, "bad format");
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

const char *
phys_display_name(const char *path)
{
	return (!path || strcmp(path, "-") == 0) ? "<stdin>" : path;
}

char *
phys_read_file(const char *path, size_t *lenp)
{
	bool is_stdin = !path || strcmp(path, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(path, "rb");
	struct phys_buf b = { 0 };
	char chunk[65536];
	size_t n;

	if (!fp) {
		phys_failat(path, 0, "%s", strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_putn(&b, chunk, n);
	if (ferror(fp)) {
		phys_failat(phys_display_name(path), 0, "read error: %s",
		    strerror(errno));
		if (!is_stdin)
			fclose(fp);
		buf_free(&b);
		return NULL;
	}
	if (!is_stdin)
		fclose(fp);
	buf_reserve(&b, 0);
	b.s[b.len] = '\0';	/* an empty file still reads as "" */
	if (lenp)
		*lenp = b.len;
	return b.s;
}

int
phys_atomic_open(struct phys_atomic *a, const char *path)
{
	char *dir = xstrdup(path);
	struct stat st;
	int fd;

	a->path = xstrdup(path);
	a->tmp = xasprintf("%s/.%s.XXXXXX", dirname(dir), basename(a->path));
	free(dir);
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		phys_failat(path, 0, "cannot create temporary file: %s",
		    strerror(errno));
		free(a->tmp);
		free(a->path);
		return -1;
	}
	if (stat(path, &st) == 0)	/* keep the original's permissions */
		(void)fchmod(fd, st.st_mode & 07777);
	a->fp = fdopen(fd, "w");
	return 0;
}

int
phys_atomic_commit(struct phys_atomic *a)
{
	int bad = fflush(a->fp) != 0 || ferror(a->fp);

	bad |= fsync(fileno(a->fp)) != 0;
	bad |= fclose(a->fp) != 0;
	a->fp = NULL;
	if (bad || rename(a->tmp, a->path) != 0) {
		phys_failat(a->path, 0, "write failed: %s", strerror(errno));
		unlink(a->tmp);
		free(a->tmp);
		free(a->path);
		return -1;
	}
	free(a->tmp);
	free(a->path);
	return 0;
}

void
phys_atomic_abort(struct phys_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	a->fp = NULL;
}

void
phys_stdout_init(void)
{
	signal(SIGPIPE, SIG_DFL);
}

int
phys_close_stdout(void)
{
	int bad = ferror(stdout);

	if (fclose(stdout) != 0)
		bad = 1;
	if (!bad)
		return PHYS_EXIT_OK;
	if (errno == EPIPE)
		return PHYS_EXIT_OK;
	phys_warn("write error: %s", strerror(errno));
	return PHYS_EXIT_FAIL;
}

bool
phys_glob(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool
phys_has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

size_t
phys_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, prev, tmp, best;

	row = xmalloc((lb + 1) * sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

bool
phys_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}
