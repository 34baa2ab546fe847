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

/* Where warnings go instead of stderr, when a program embedding the
 * library says so. */
static void (*warning_sink)(const char *msg, void *ctx);
static void *warning_ctx;

void
phys_set_warning_sink(void (*sink)(const char *msg, void *ctx), void *ctx)
{
	warning_sink = sink;
	warning_ctx = ctx;
}

static void
vwarn(const char *file, long line, const char *fmt, va_list ap)
{
	char msg[2048];
	int n = 0;

	if (warning_sink) {
		if (file)
			n = line > 0 ? snprintf(msg, sizeof msg, "%s:%ld: ",
			    file, line) : snprintf(msg, sizeof msg, "%s: ", file);
		if (n < 0 || (size_t)n >= sizeof msg)
			n = 0;
		vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
		warning_sink(msg, warning_ctx);
		return;
	}
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

/* The slow, general path: printf at rising precision until it reads back. */
static int
fmt_double_printf(char *buf, size_t size, double v)
{
	int prec, n = 0;

	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return n;
}

typedef unsigned __int128 u128;

/*
 * The 17 significant digits of |v| (10^16 <= *digits < 10^17), correctly
 * rounded, and the decimal exponent of the first: exact integer arithmetic
 * on v = m 2^e, possible when m 5^s fits in 127 bits (1e-15 <= |v| < 1e17).
 */
static bool
digits17(double v, uint64_t *digits, int *exp10, int *dir)
{
	static const uint64_t p10_16 = 10000000000000000ULL;
	int e2, e10, s, shift, tries;
	uint64_t m;
	u128 x, d, half, rem;

	m = (uint64_t)ldexp(frexp(fabs(v), &e2), 53);
	e2 -= 53;
	e10 = (int)floor(log10(fabs(v)));
	for (tries = 0; tries < 3; tries++) {
		s = 16 - e10;
		if (s < 0 || s > 31 || m >= (1ULL << 53))
			return false;
		for (x = m; s-- > 0;)
			x *= 5;
		s = 16 - e10;
		shift = s + e2;		/* d = x 2^shift */
		*dir = 0;
		if (shift >= 0) {
			if (shift > 10 || x >> (127 - shift))
				return false;
			d = x << shift;
		} else if (-shift >= 127) {
			return false;
		} else {
			d = x >> -shift;
			rem = x & (((u128)1 << -shift) - 1);
			half = (u128)1 << (-shift - 1);
			*dir = rem ? -1 : 0;
			if (rem > half || (rem == half && (d & 1))) {
				d++;
				*dir = 1;
			}
		}
		if (d >= 10 * (u128)p10_16)
			e10++;
		else if (d < p10_16)
			e10--;
		else {
			*digits = (uint64_t)d;
			*exp10 = e10;
			return true;
		}
	}
	return false;
}

/* Write sign, p significant digits of d and exponent in %g's style. */
static int
fmt_digits(char *buf, size_t size, bool neg, uint64_t d, int p, int e10)
{
	char dig[24], out[48];
	int n = 0, i, len = 0;
	uint64_t t;

	for (t = d; t; t /= 10)
		len++;
	for (i = len - 1, t = d; i >= 0; i--, t /= 10)
		dig[i] = (char)('0' + t % 10);
	if (len == 0)
		dig[len++] = '0';
	while (len > 1 && dig[len - 1] == '0')	/* %g drops trailing zeros */
		len--;
	if (neg)
		out[n++] = '-';
	if (e10 < -4 || e10 >= p) {
		out[n++] = dig[0];
		if (len > 1) {
			out[n++] = '.';
			for (i = 1; i < len; i++)
				out[n++] = dig[i];
		}
		out[n++] = 'e';
		out[n++] = e10 < 0 ? '-' : '+';
		i = e10 < 0 ? -e10 : e10;
		if (i >= 100)
			out[n++] = (char)('0' + i / 100);
		out[n++] = (char)('0' + i / 10 % 10);
		out[n++] = (char)('0' + i % 10);
	} else if (e10 < 0) {
		out[n++] = '0';
		out[n++] = '.';
		for (i = -1; i > e10; i--)
			out[n++] = '0';
		for (i = 0; i < len; i++)
			out[n++] = dig[i];
	} else {
		for (i = 0; i <= e10; i++)
			out[n++] = i < len ? dig[i] : '0';
		if (len > e10 + 1) {
			out[n++] = '.';
			for (i = e10 + 1; i < len; i++)
				out[n++] = dig[i];
		}
	}
	out[n] = '\0';
	if ((size_t)n >= size)
		return snprintf(buf, size, "%s", out);
	memcpy(buf, out, (size_t)n + 1);
	return n;
}

/*
 * d (17 digits) rounded to p digits as the exact value would round, half
 * to even: dir says whether d itself was rounded up (1), down (-1) or is
 * exact (0), which decides a dropped part of exactly one half.
 */
static uint64_t
round_digits(uint64_t d, int dir, int p, int *e10)
{
	uint64_t div = 1, q, r;
	int i;

	for (i = p; i < 17; i++)
		div *= 10;
	q = d / div;
	r = d % div;
	if (r > div / 2 || (r == div / 2 && (dir < 0 || (dir == 0 && (q & 1)))))
		q++;
	for (i = 0, div = 1; i < p; i++)
		div *= 10;
	if (q == div) {		/* 9.99..9 rounded up to 10.0..0 */
		q /= 10;
		(*e10)++;
	}
	return q;
}

int
phys_fmt_double(char *buf, size_t size, double v)
{
	uint64_t d, q;
	int e10, e, p, dir, n = 0;

	if (v == 0)		/* also turns -0 into 0 for stable output */
		return snprintf(buf, size, "0");
	if (!isfinite(v))
		return snprintf(buf, size, "%g", v);
	if (!digits17(v, &d, &e10, &dir))
		return fmt_double_printf(buf, size, v);
	/* The shortest of 15, 16 and 17 digits that reads back exactly. */
	for (p = 15; p <= 17; p++) {
		e = e10;
		q = p == 17 ? d : round_digits(d, dir, p, &e);
		n = fmt_digits(buf, size, v < 0, q, p, e);
		if (p == 17 || strtod(buf, NULL) == v)
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
buf_json_numbers(struct phys_buf *b, const char *const *keys, const double *x,
    int n)
{
	int i;

	buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(b, ',');
		buf_json_string(b, keys[i]);
		buf_putc(b, ':');
		buf_double(b, x[i]);
	}
	buf_putc(b, '}');
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
phys_each_line(const char *path, int (*fn)(char *line, long lineno, void *ctx),
    void *ctx)
{
	char *text = phys_read_file(path, NULL), *line, *nl, *why;
	long lineno = 0;
	int rc = 0;

	if (!text)
		return -1;
	for (line = text; *line && rc == 0; line = nl) {
		nl = line + strcspn(line, "\n");
		if (*nl)
			*nl++ = '\0';
		lineno++;
		if (line[strspn(line, " \t\r")] == '\0' ||
		    line[strspn(line, " \t")] == '#')
			continue;
		if ((rc = fn(line, lineno, ctx)) < 0) {
			why = xstrdup(phys_error());
			phys_failat(phys_display_name(path), lineno, "%s", why);
			free(why);
		}
	}
	free(text);
	return rc;
}

int
phys_atomic_open(struct phys_atomic *a, const char *path)
{
	char *real = realpath(path, NULL);	/* replace a link's target */
	char *dir;
	struct stat st;
	int fd;

	a->path = real ? real : xstrdup(path);
	dir = xstrdup(a->path);
	a->tmp = xasprintf("%s/.%s.XXXXXX", dirname(dir), basename(a->path));
	free(dir);
	path = a->path;
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

void
phys_help(const char *usage, const char *help)
{
	fputs(usage, stdout);
	fputs(help, stdout);
	exit(phys_close_stdout());
}

void
phys_version(void)
{
	printf("%s %s\n", phys_progname, PHYS_VERSION);
	exit(phys_close_stdout());
}

void
phys_usage(const char *usage)
{
	fflush(stdout);
	fputs(usage, stderr);
	exit(PHYS_EXIT_USAGE);
}

void
phys_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", phys_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage)
		fputs(usage, stderr);
	exit(PHYS_EXIT_USAGE);
}

double
phys_arg_number(const char *usage, const char *opt, const char *s,
    double min, bool min_ok)
{
	double v;

	if (!phys_parse_double(s, &v))
		phys_usage_error(usage, "%s: '%s' is not a number", opt, s);
	if (v < min || (v == min && !min_ok))
		phys_usage_error(usage, "%s: '%s' must be %s %g", opt, s,
		    min_ok ? "at least" : "above", min);
	return v;
}

long
phys_arg_count(const char *usage, const char *opt, const char *s, long min)
{
	long v;

	if (!phys_parse_long(s, &v) || v < min)
		phys_usage_error(usage, "%s: '%s' is not a whole number of at "
		    "least %ld", opt, s, min);
	return v;
}

const char *
phys_split_command(int *argc, char ***argv, const char *optstring,
    void (*parse)(int, char **, const char *, void *), void *ctx)
{
	char *before = xasprintf("+%s", optstring);
	const char *cmd;

	parse(*argc, *argv, before, ctx);
	free(before);
	if (optind >= *argc)
		return NULL;
	/* The command takes the place of the program name for the second
	 * pass, which reorders options after it to the front. */
	cmd = (*argv)[optind];
	*argc -= optind;
	*argv += optind;
	optind = 0;
	parse(*argc, *argv, optstring, ctx);
	*argc -= optind;
	*argv += optind;
	return cmd;
}

bool
phys_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}
