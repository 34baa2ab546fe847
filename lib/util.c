/* util.c - errors, strict number parsing, buffers and safe output. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
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
	phys_status_clear();
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", phys_progname, phys_error());
}

static void (*warning_sink)(const char *, long, const char *, void *);
static void *warning_sink_ctx;

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

double
phys_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
		if (!(*s >= '0' && *s <= '9') && *s != '+' && *s != '-' &&
		    *s != '.' && *s != 'e' && *s != 'E')
			return false;
	return true;
}

/*
 * Most numbers in SDF are short decimals ("0.0016667", "-9.8", "1e-5").
 * A decimal of at most 19 digits whose value m is below 2^53, scaled by
 * 10^k with |k| <= 22, is m * 10^k or m / 10^k computed in double: both
 * operands are exact and IEEE arithmetic rounds the one operation
 * correctly, so the result is strtod's, bit for bit, at a fraction of its
 * cost. Anything else (more digits, larger exponents, odd forms) is left
 * to strtod: false here, and *end untouched.
 */
static bool
short_decimal(const char *s, double *out, const char **end)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
		1e21, 1e22
	};
	uint64_t m = 0;
	int digits = 0, scale = 0, e = 0, esign = 1, edigits = 0;
	bool neg = false, any = false;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++, any = true)
		if (m || *s != '0') {
			m = m * 10 + (uint64_t)(*s - '0');
			digits++;
		}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, any = true, scale--)
			if (m || *s != '0') {
				m = m * 10 + (uint64_t)(*s - '0');
				digits++;
			}
	if (!any || digits > 19)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-' ? -1 : 1;
		for (; *s >= '0' && *s <= '9' && edigits < 4; s++, edigits++)
			e = e * 10 + (*s - '0');
		if (edigits == 0 || (*s >= '0' && *s <= '9'))
			return false;
	}
	e = esign * e + scale;
	if (m > ((uint64_t)1 << 53) || e < -22 || e > 22)
		return false;
	*out = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
	if (neg)
		*out = -*out;
	*end = s;
	return true;
}

bool
phys_parse_double(const char *s, double *out)
{
	const char *fast;
	char *end;
	double v;

	if (!s)
		return false;
	s = skip_blanks(s);
	if (!*s || !plain_number(s))
		return false;
	if (short_decimal(s, &v, &fast)) {
		if (*skip_blanks(fast))
			return false;
		*out = v;
		return true;
	}
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
 * |v| as exact integers: v 10^s = x 2^shift with x = m 5^s, taken apart
 * as d + rem / 2^-shift (rem = 0 when shift >= 0), where d has the 17
 * digits of |v| truncated (10^16 <= d < 10^17); e10 is the decimal
 * exponent of the first digit.
 */
struct exact {
	uint64_t m;		/* the 53-bit significand */
	int e10, s, shift;
	u128 p5;		/* 5^s */
	uint64_t d;
	u128 rem;
};

/* 5^0 .. 5^27: each fits in 64 bits. */
static uint64_t
pow5(int s)
{
	static const uint64_t t[28] = { 1ULL, 5ULL, 25ULL, 125ULL, 625ULL,
		3125ULL, 15625ULL, 78125ULL, 390625ULL, 1953125ULL,
		9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL,
		6103515625ULL, 30517578125ULL, 152587890625ULL,
		762939453125ULL, 3814697265625ULL, 19073486328125ULL,
		95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
		11920928955078125ULL, 59604644775390625ULL,
		298023223876953125ULL, 1490116119384765625ULL,
		7450580596923828125ULL };

	return t[s];
}

/* Possible when m 5^s fits in 125 bits and d in 64: 1e-15 <= |v| < 1e17,
 * normal numbers only. */
static bool
exact_digits(double v, struct exact *x)
{
	static const uint64_t p10_16 = 10000000000000000ULL;
	uint64_t bits;
	int e2, tries;
	u128 t;

	memcpy(&bits, &v, sizeof bits);
	e2 = (int)(bits >> 52 & 0x7ff);
	if (e2 == 0 || e2 == 0x7ff)
		return false;
	x->m = (bits & ((1ULL << 52) - 1)) | 1ULL << 52;
	e2 -= 1075;		/* |v| = m 2^e2 */
	/* floor(log10(2^(e2 + 52))), then corrected by d */
	x->e10 = (int)(((int64_t)(e2 + 52) * 78913) >> 18);
	for (tries = 0; tries < 3; tries++) {
		x->s = 16 - x->e10;
		if (x->s < 0 || x->s > 31)
			return false;
		x->p5 = x->s <= 27 ? pow5(x->s) :
		    (u128)pow5(27) * pow5(x->s - 27);
		t = x->p5 * x->m;
		x->shift = x->s + e2;
		x->rem = 0;
		if (x->shift >= 0) {
			if (x->shift > 10 || t >> (120 - x->shift))
				return false;
			t <<= x->shift;
		} else {
			if (-x->shift >= 120)
				return false;
			x->rem = t & (((u128)1 << -x->shift) - 1);
			t >>= -x->shift;
		}
		if (t >= 10 * (u128)p10_16) {
			x->e10++;
		} else if (t < p10_16) {
			x->e10--;
		} else {
			x->d = (uint64_t)t;
			return true;
		}
	}
	return false;
}

/*
 * d rounded to p digits (p <= 17) as the exact value rounds, half to
 * even: the candidate's digits, and in *c its value on d's scale (a
 * multiple of 10^(17 - p), 10^17 when all nines rounded up).
 */
static uint64_t
round_exact(const struct exact *x, int p, uint64_t *c)
{
	static const uint64_t p10[] = { 1, 10, 100 };
	uint64_t div = p10[17 - p], q = x->d / div, r = x->d % div;
	u128 half;
	bool above;

	if (p == 17) {	/* the remainder alone decides */
		half = x->shift < 0 ? (u128)1 << (-x->shift - 1) : 0;
		above = x->shift < 0 && (x->rem > half || (x->rem == half &&
		    (q & 1)));
	} else {
		above = r > div / 2 || (r == div / 2 && (x->rem > 0 ||
		    (q & 1)));
	}
	q += above;
	*c = q * div;
	return q;
}

/*
 * Whether the decimal c (on d's scale) reads back as v: within half a
 * unit in the last place of v (a quarter below a power of two, whose
 * lower neighbour is closer), a tie going to the even significand. In
 * units of 2^-(g + 1), g = max(-shift, 0): c - v is 2 (c - d) 2^g - 2 rem
 * and half a unit is 5^s 2^max(shift, 0).
 */
static bool
reads_back(const struct exact *x, uint64_t c)
{
	int g = x->shift < 0 ? -x->shift : 0;
	int64_t delta = (int64_t)(c - x->d);
	u128 dist, half = x->p5 << (x->shift > 0 ? x->shift : 0);
	bool below;

	if (delta > 1000 || delta < -1000)
		return false;
	if (delta > 0) {
		dist = ((u128)delta << (g + 1)) - 2 * x->rem;
		below = false;
	} else {
		dist = ((u128)-delta << (g + 1)) + 2 * x->rem;
		below = dist != 0;
	}
	if (below && x->m == 1ULL << 52)
		dist *= 2;
	return dist < half || (dist == half && !(x->m & 1));
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

int
phys_fmt_double(char *buf, size_t size, double v)
{
	struct exact x;
	uint64_t q, c;
	int p, e;

	if (v == 0)		/* also turns -0 into 0 for stable output */
		return snprintf(buf, size, "0");
	if (!isfinite(v))
		return snprintf(buf, size, "%g", v);
	if (!exact_digits(v, &x))
		return fmt_double_printf(buf, size, v);
	/* The shortest of 15, 16 and 17 digits that reads back exactly,
	 * as fmt_double_printf finds with printf and strtod. */
	for (p = 15;; p++) {
		q = round_exact(&x, p, &c);
		if (p == 17 || reads_back(&x, c))
			break;
	}
	e = x.e10;
	if (c == 100000000000000000ULL) {	/* 9.99..9 rounded up */
		q /= 10;
		e++;
	}
	return fmt_digits(buf, size, v < 0, q, p, e);
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
	size_t klen;
	char *p;
	int i;

	/* Keys are plain names ("x", "roll", "ixx"): no escaping; one
	 * reservation for the whole object, numbers written in place. */
	buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		klen = strlen(keys[i]);
		buf_reserve(b, klen + 48);
		p = b->s + b->len;
		if (i > 0)
			*p++ = ',';
		*p++ = '"';
		memcpy(p, keys[i], klen);
		p += klen;
		*p++ = '"';
		*p++ = ':';
		if (isfinite(x[i]))
			p += phys_fmt_double(p, 40, x[i]);
		else
			p = memcpy(p, "null", 4) + 4;
		*p = '\0';
		b->len = (size_t)(p - b->s);
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

/* ---- arenas --------------------------------------------------------- */

struct phys_arena_block {
	struct phys_arena_block *next;
	max_align_t data[];
};

#define ARENA_FIRST ((size_t)64 << 10)
#define ARENA_MAX ((size_t)64 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

void *
phys_arena_alloc(struct phys_arena *a, size_t n)
{
	const size_t align = sizeof(max_align_t);
	struct phys_arena_block *b;
	size_t size;
	void *p;

	n = (n + align - 1) / align * align;
	if (!a->head || a->cap - a->used < n) {
		/* Each block as large as all before it: few blocks, and
		 * at most half of the memory unused. */
		size = a->total ? a->total : ARENA_FIRST;
		if (size > ARENA_MAX)
			size = ARENA_MAX;
		while (size - sizeof *b < n)
			size *= 2;
		/*
		 * A block of whole huge pages asks for them: the values of
		 * a world of 10,000 models fill 35 MB, and a page fault for
		 * every 4 KB of them took longer than reading them. Only
		 * advice: where the kernel gives none, pages stay small.
		 */
		if (size >= HUGE_PAGE) {
			b = aligned_alloc(HUGE_PAGE, size);
			if (b)
				(void)madvise(b, size, MADV_HUGEPAGE);
		} else {
			b = malloc(size);
		}
		if (!b)
			phys_die(PHYS_EXIT_FAIL, "out of memory");
		b->next = a->head;
		a->head = b;
		a->used = offsetof(struct phys_arena_block, data);
		a->cap = size;
		a->total += size;
	}
	p = (char *)a->head + a->used;
	a->used += n;
	return p;
}

void
phys_arena_free(struct phys_arena *a)
{
	struct phys_arena_block *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	memset(a, 0, sizeof *a);
}

const char *
phys_display_name(const char *path)
{
	return (!path || strcmp(path, "-") == 0) ? "<stdin>" : path;
}

/* ---- signals: stop between lines, never inside one ---- */

static volatile sig_atomic_t caught_signal;	/* to raise again, at a boundary */
static volatile sig_atomic_t waiting;	/* blocked on input or a lock */
static char *volatile pending_tmp;	/* a temporary file not yet renamed */
static bool stdout_closed;

/* Async-signal-safe: remove the temporary file, then die by sig. */
static _Noreturn void
die_by_signal(int sig)
{
	sigset_t set;

	if (pending_tmp)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* While the program waits, everything written is flushed and whole: it
 * can stop at once. Otherwise it stops at the next line boundary. */
static void
on_signal(int sig)
{
	caught_signal = sig;
	if (waiting)
		die_by_signal(sig);
}

void
phys_signal_check(void)
{
	int sig = caught_signal;

	if (!sig)
		return;
	if (!stdout_closed)
		fflush(stdout);
	die_by_signal(sig);
}

/* Around a call that may block for ever (a pipe, a terminal, a lock). */
static void
wait_begin(void)
{
	if (!stdout_closed)
		fflush(stdout);
	waiting = 1;
	phys_signal_check();	/* one that came before waiting began */
}

static void
wait_end(void)
{
	waiting = 0;
}

/* A program that was asked to stop says so by its exit status. */
static void
stop_at_exit(void)
{
	phys_signal_check();
}

static void
catch_stop_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART | SA_RESETHAND;	/* a second one kills */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)	/* nohup, background jobs */
			sigaction(sigs[i], &sa, NULL);
	atexit(stop_at_exit);
}

void
phys_stdout_init(void)
{
	signal(SIGPIPE, SIG_DFL);
	catch_stop_signals();
}

int
phys_close_stdout(void)
{
	int bad = ferror(stdout);

	if (fclose(stdout) != 0)
		bad = 1;
	stdout_closed = true;
	if (!bad)
		return PHYS_EXIT_OK;
	if (errno == EPIPE)
		return PHYS_EXIT_OK;
	phys_warn("write error: %s", strerror(errno));
	return PHYS_EXIT_FAIL;
}

/* ---- reading: bounded, a buffer at a time ---- */

enum { READ_CHUNK = 65536 };

static bool
is_stdin(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

static void
close_input(int fd)
{
	if (fd >= 0 && fd != STDIN_FILENO)
		close(fd);
}

/* A descriptor for path; *may_block when reads can wait for ever. */
static int
open_input(const char *path, bool *may_block)
{
	const char *name = phys_display_name(path);
	struct stat st;
	int fd;

	wait_begin();		/* opening a FIFO waits for its writer */
	fd = is_stdin(path) ? STDIN_FILENO :
	    open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	wait_end();
	if (fd < 0)
		return phys_failat(name, 0, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		int err = errno;

		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
			err = EISDIR;
		close_input(fd);
		return phys_failat(name, 0, "%s", strerror(err));
	}
	*may_block = !S_ISREG(st.st_mode);
	return fd;
}

static ssize_t
read_some(int fd, char *buf, size_t n, bool may_block)
{
	ssize_t got;

	if (may_block)
		wait_begin();
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (may_block)
		wait_end();
	return got;
}

static int
too_large(const char *name)
{
	return phys_failat(name, 0, "file too large (limit %d MB)",
	    PHYS_MAX_FILE_MB);
}

static int
nul_byte(const char *name, long line)
{
	return phys_failat(name, line, "not a text file (a NUL byte)");
}

char *
phys_read_file(const char *path, size_t *lenp)
{
	const char *name = phys_display_name(path);
	struct phys_buf b = { 0 };
	struct stat st;
	bool may_block;
	ssize_t got;
	size_t room;
	int fd = open_input(path, &may_block), rc = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) {
		if ((uintmax_t)st.st_size > PHYS_MAX_FILE_BYTES)
			rc = too_large(name);
		else
			buf_reserve(&b, (size_t)st.st_size);
	}
	while (rc == 0) {
		room = PHYS_MAX_FILE_BYTES + 1 - b.len;
		buf_reserve(&b, room < READ_CHUNK ? room : READ_CHUNK);
		room = b.cap - 1 - b.len;
		got = read_some(fd, b.s + b.len, room, may_block);
		if (got < 0)
			rc = phys_failat(name, 0, "read error: %s",
			    strerror(errno));
		else if (got == 0)
			break;
		else if (memchr(b.s + b.len, '\0', (size_t)got))
			rc = nul_byte(name, 0);
		else if ((b.len += (size_t)got) > PHYS_MAX_FILE_BYTES)
			rc = too_large(name);
	}
	close_input(fd);
	if (rc < 0) {
		buf_free(&b);
		return NULL;
	}
	buf_reserve(&b, 0);
	b.s[b.len] = '\0';	/* an empty file still reads as "" */
	if (lenp)
		*lenp = b.len;
	return b.s;
}

int
phys_lines_open(struct phys_lines *l, const char *path, size_t max_total)
{
	struct stat st;
	bool may_block;

	memset(l, 0, sizeof *l);
	l->name = phys_display_name(path);
	l->max_total = max_total;
	l->fd = open_input(path, &may_block);
	if (l->fd < 0)
		return -1;
	l->may_block = may_block;
	if (max_total && fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > max_total) {
		phys_lines_close(l);
		return too_large(phys_display_name(path));
	}
	return 0;
}

static int
line_too_long(const struct phys_lines *l)
{
	return phys_failat(l->name, l->lineno + 1, "line too long (limit %d "
	    "MB)", PHYS_MAX_LINE_MB);
}

/* Whether a read of l would wait: nothing has arrived on its pipe. */
static bool
would_wait(const struct phys_lines *l)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	return l->may_block && poll(&p, 1, 0) == 0;
}

/* More bytes after the unread ones; room for a line of the limit. */
static int
fill(struct phys_lines *l)
{
	size_t want, have = l->end - l->start;
	const char *nul;
	ssize_t got;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, have);
		l->start = 0;
		l->end = have;
	}
	if (l->cap - l->end < READ_CHUNK + 1) {
		want = l->cap ? l->cap * 2 : READ_CHUNK + 1;
		if (want > PHYS_MAX_LINE_BYTES + READ_CHUNK + 2)
			want = PHYS_MAX_LINE_BYTES + READ_CHUNK + 2;
		l->buf = xrealloc(l->buf, want);
		l->cap = want;
	}
	got = read_some(l->fd, l->buf + l->end, l->cap - 1 - l->end,
	    l->may_block);
	if (got < 0)
		return phys_failat(l->name, 0, "read error: %s",
		    strerror(errno));
	if (got == 0) {
		l->eof = true;
		return 0;
	}
	if ((nul = memchr(l->buf + l->end, '\0', (size_t)got))) {
		long line = l->lineno + 1;
		const char *p;

		for (p = l->buf; p < nul; p++)
			line += *p == '\n';
		return nul_byte(l->name, line);
	}
	l->end += (size_t)got;
	l->total += (size_t)got;
	if (l->max_total && l->total > l->max_total)
		return too_large(l->name);
	return 0;
}

/* The next line as phys_lines_next; with !wait, 2 when none is complete
 * and reading more would wait. */
static int
next_line(struct phys_lines *l, char **line, size_t *lenp, bool wait)
{
	size_t scanned = 0, len;
	char *s, *nl;

	phys_signal_check();
	for (;;) {
		/* before the first read there is no buffer: NULL + 0 is UB */
		s = l->buf ? l->buf + l->start : NULL;
		nl = s ? memchr(s + scanned, '\n', l->end - l->start -
		    scanned) : NULL;
		len = nl ? (size_t)(nl - s) : l->end - l->start;
		if (len > PHYS_MAX_LINE_BYTES)
			return line_too_long(l);
		if (nl || (l->eof && len > 0)) {
			s[len] = '\0';
			l->start += len + (nl != NULL);
			l->lineno++;
			*line = s;
			if (lenp)
				*lenp = len;
			return 1;
		}
		if (l->eof)
			return 0;
		scanned = len;
		if (!wait && would_wait(l))
			return 2;
		if (fill(l) < 0)
			return -1;
	}
}

int
phys_lines_next(struct phys_lines *l, char **line, size_t *lenp)
{
	return next_line(l, line, lenp, true);
}

int
phys_lines_poll(struct phys_lines *l, char **line, size_t *lenp)
{
	return next_line(l, line, lenp, false);
}

void
phys_lines_close(struct phys_lines *l)
{
	close_input(l->fd);
	free(l->buf);
	memset(l, 0, sizeof *l);
	l->fd = -1;
}

bool
phys_blank_or_comment(const char *line)
{
	return line[strspn(line, " \t\r")] == '\0' ||
	    line[strspn(line, " \t")] == '#';
}

static int
each_line(const char *path, size_t max_total,
    int (*fn)(char *line, long lineno, void *ctx), void *ctx)
{
	struct phys_lines l;
	char *line, *why;
	int rc;

	if (phys_lines_open(&l, path, max_total) < 0)
		return -1;
	while ((rc = phys_lines_next(&l, &line, NULL)) > 0) {
		if (phys_blank_or_comment(line))
			continue;
		if ((rc = fn(line, l.lineno, ctx)) == 0)
			continue;
		if (rc < 0) {	/* fn's message gains the position */
			why = xstrdup(phys_error());
			phys_failat(l.name, l.lineno, "%s", why);
			free(why);
		}
		break;
	}
	phys_lines_close(&l);
	return rc;
}

int
phys_each_line(const char *path, int (*fn)(char *line, long lineno, void *ctx),
    void *ctx)
{
	return each_line(path, PHYS_MAX_FILE_BYTES, fn, ctx);
}

int
phys_each_stream_line(const char *path, int (*fn)(char *line, long lineno,
    void *ctx), void *ctx)
{
	return each_line(path, 0, fn, ctx);
}

/* ---- writing: whole files replaced, or nothing ---- */

/*
 * The regular file a write to path replaces, symbolic links followed; a
 * path where nothing exists names a new file (*exists false).
 */
static int
resolve_target(const char *path, char **real, struct stat *st, bool *exists)
{
	struct stat lst;

	*exists = false;
	*real = NULL;
	if (lstat(path, &lst) < 0) {
		if (errno != ENOENT)
			return phys_failat(path, 0, "%s", strerror(errno));
		*real = xstrdup(path);
		return 0;
	}
	if (!(*real = realpath(path, NULL)))
		return phys_failat(path, 0, "%s%s", S_ISLNK(lst.st_mode) ?
		    "cannot follow the symbolic link: " : "", strerror(errno));
	if (stat(*real, st) < 0)
		phys_failat(path, 0, "%s", strerror(errno));
	else if (!S_ISREG(st->st_mode))
		phys_failat(path, 0, "not a regular file (only a regular file "
		    "is replaced)");
	else
		*exists = true;
	if (!*exists) {
		free(*real);
		*real = NULL;
		return -1;
	}
	return 0;
}

/* The replacement is the original's: owner, group, mode. */
static void
keep_attributes(int fd, const char *path, const struct stat *st)
{
	if (fchown(fd, st->st_uid, st->st_gid) < 0 &&
	    fchown(fd, (uid_t)-1, st->st_gid) < 0 && st->st_gid != getegid())
		phys_warn("%s: cannot keep the group %lu: %s", path,
		    (unsigned long)st->st_gid, strerror(errno));
	if (st->st_uid != geteuid() && geteuid() != 0)
		phys_warn("%s: the new file is owned by you, not by user %lu",
		    path, (unsigned long)st->st_uid);
	(void)fchmod(fd, st->st_mode & 07777);	/* after chown, which clears
						 * set-id bits */
	if (st->st_nlink > 1)
		phys_warn("%s: replaced; its %lu other hard link%s keep%s the "
		    "old text", path, (unsigned long)st->st_nlink - 1,
		    st->st_nlink == 2 ? "" : "s", st->st_nlink == 2 ? "s" : "");
}

static void
new_file_mode(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

int
phys_atomic_open(struct phys_atomic *a, const char *path)
{
	struct stat st;
	bool exists;
	char *dir;
	int fd;

	memset(a, 0, sizeof *a);
	if (resolve_target(path, &a->path, &st, &exists) < 0)
		return -1;
	dir = xstrdup(a->path);
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
	pending_tmp = a->tmp;
	if (exists)
		keep_attributes(fd, path, &st);
	else
		new_file_mode(fd);
	if (!(a->fp = fdopen(fd, "w"))) {
		close(fd);
		phys_failat(path, 0, "%s", strerror(errno));
		phys_atomic_abort(a);
		return -1;
	}
	return 0;
}

/* The rename itself lasts once the directory is on disk. */
static void
sync_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(copy);
}

static void
atomic_free(struct phys_atomic *a)
{
	pending_tmp = NULL;
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	a->fp = NULL;
}

int
phys_atomic_commit(struct phys_atomic *a)
{
	int err = 0;

	if (fflush(a->fp) != 0 || ferror(a->fp))
		err = errno ? errno : EIO;
	if (fsync(fileno(a->fp)) != 0 && !err)
		err = errno;
	if (fclose(a->fp) != 0 && !err)
		err = errno;
	a->fp = NULL;
	if (!err)
		phys_signal_check();	/* a stop now keeps the original */
	if (!err && rename(a->tmp, a->path) != 0)
		err = errno;
	if (err) {
		phys_failat(a->path, 0, "write failed: %s", strerror(err));
		unlink(a->tmp);
		atomic_free(a);
		return -1;
	}
	sync_dir(a->path);
	atomic_free(a);
	return 0;
}

void
phys_atomic_abort(struct phys_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	atomic_free(a);
}

/* Held to the end: closing it would let another editor in too early. */
static int edit_lock_fd = -1;

static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int
phys_edit_lock(const char *path)
{
	struct stat st, now;
	bool exists;
	char *real;
	int fd, rc;

	if (is_stdin(path))
		return phys_fail("-i needs a world file, not standard input");
	for (;;) {
		if (resolve_target(path, &real, &st, &exists) < 0)
			return -1;
		if (!exists) {
			free(real);
			return phys_failat(path, 0, "%s", strerror(ENOENT));
		}
		fd = open(real, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0) {
			free(real);
			return phys_failat(path, 0, "%s", strerror(errno));
		}
		wait_begin();
		do
			rc = flock(fd, LOCK_EX);
		while (rc < 0 && errno == EINTR);
		wait_end();
		if (rc < 0) {
			phys_failat(path, 0, "cannot lock: %s", strerror(errno));
			close(fd);
			free(real);
			return -1;
		}
		/* Another editor may have renamed a new file over this one
		 * while we waited: then the lock is on the old one. */
		rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    stat(real, &now) == 0 && same_file(&st, &now);
		free(real);
		if (rc) {
			if (edit_lock_fd >= 0)
				close(edit_lock_fd);
			edit_lock_fd = fd;
			return 0;
		}
		close(fd);
	}
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

/* How far name is from word; a beginning counts as a match, so that
 * "hollow" suggests both hollow-sphere and hollow-cylinder. */
static size_t
name_distance(const char *word, const char *name)
{
	size_t len = strlen(word);

	if (len && strncmp(name, word, len) == 0)
		return 0;
	return phys_edit_distance(word, name);
}

void
phys_suggest(struct phys_buf *b, const char *word, const char *const *names,
    const char *prefix)
{
	size_t i, d, best = (size_t)-1, len = strlen(word), found = 0, total;
	size_t limit = len < 3 ? 1 : (len + 2) / 3;

	for (i = 0; names[i]; i++)
		if ((d = name_distance(word, names[i])) < best)
			best = d;
	if (best > limit)
		return;
	for (i = total = 0; names[i]; i++)
		total += name_distance(word, names[i]) == best;
	for (i = 0; names[i]; i++) {
		if (name_distance(word, names[i]) != best)
			continue;
		found++;
		if (found > 1)
			buf_puts(b, found == total ? " or " : ", ");
		buf_printf(b, "%s%s", prefix, names[i]);
	}
}

void
phys_unknown_command(const char *word, const char *const *names)
{
	struct phys_buf b = { 0 };

	phys_suggest(&b, word, names, "");
	fflush(stdout);
	if (b.len)
		fprintf(stderr, "%s: unknown command '%s'; did you mean %s?\n",
		    phys_progname, word, b.s);
	else
		fprintf(stderr, "%s: unknown command '%s' (see %s --help)\n",
		    phys_progname, word, phys_progname);
	buf_free(&b);
	exit(PHYS_EXIT_USAGE);
}

/* The long option named by arg ("--name" or "--name=value"), or NULL. */
static const struct option *
long_option(const char *arg, const struct option *longopts)
{
	size_t n = strcspn(arg + 2, "=");

	for (; longopts->name; longopts++)
		if (strlen(longopts->name) == n &&
		    strncmp(longopts->name, arg + 2, n) == 0)
			return longopts;
	return NULL;
}

/* "--name" of arg into b; the names of the long options that resemble it
 * into hint; true when arg is an abbreviation of more than one. */
static bool
long_option_hint(const char *arg, const struct option *longopts,
    struct phys_buf *b, struct phys_buf *hint)
{
	const char **names;
	size_t n, i, k = 0, len = strcspn(arg + 2, "=");
	char *word = xstrndup(arg + 2, len);

	for (n = 0; longopts[n].name; n++)
		;
	names = xcalloc(n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = longopts[i].name;
	for (i = 0; i < n; i++)
		k += len && strncmp(names[i], word, len) == 0;
	buf_printf(b, "--%s", word);
	phys_suggest(hint, word, names, "--");
	free(names);
	free(word);
	return k > 1;
}

void
phys_option_error(int c, char *const *argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o = NULL;
	struct phys_buf name = { 0 }, hint = { 0 };
	const char *what = "unknown option";
	bool is_long = strncmp(arg, "--", 2) == 0 && arg[2];

	/* A known long option given a value it does not take sets optopt to
	 * its val; an unknown one, to 0; a bad short option, to itself. */
	if (c != ':' && optopt != 0 && is_long) {
		o = long_option(arg, longopts);
		is_long = o && o->has_arg == no_argument && o->val == optopt &&
		    strchr(arg, '=');
	}
	if (is_long && long_option_hint(arg, longopts, &name, &hint) &&
	    c != ':' && !o)
		what = "ambiguous option";
	if (!is_long)
		buf_printf(&name, "-%c", optopt);
	if (c == ':')
		what = "missing value for option";
	else if (o && is_long)
		what = "no value is taken by option";
	fflush(stdout);
	fprintf(stderr, "%s: %s '%s'", phys_progname, what, name.s);
	if (hint.len && c != ':' && !(o && is_long))
		fprintf(stderr, "; did you mean %s?", hint.s);
	fprintf(stderr, " (see %s --help)\n", phys_progname);
	buf_free(&name);
	buf_free(&hint);
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

void
phys_stdin_hint(const char *what)
{
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "%s: reading %s from standard input "
		    "(end it with ^D; see %s --help)\n", phys_progname, what,
		    phys_progname);
}
