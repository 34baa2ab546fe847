/* buf.c - growable buffers, JSON text and the exact number writer. */
#include "buf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "msg.h"

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

	/* also turns -0 into 0 for stable output; a quarter of a run's
	 * numbers (a box's roll and pitch at rest), not worth printf's
	 * 350 instructions each */
	if (v == 0 && size >= 2) {
		buf[0] = '0', buf[1] = '\0';
		return 1;
	}
	if (v == 0)
		return snprintf(buf, size, "0");
	if (!isfinite(v))
		return snprintf(buf, size, "%g", v);
	/* a whole number of up to 15 digits: its digits, as below */
	if (fabs(v) < 1e15 && v == (double)(int64_t)v) {
		q = (uint64_t)fabs(v);
		for (e = 0, c = q; c >= 10; c /= 10)
			e++;
		return fmt_digits(buf, size, v < 0, q, 15, e);
	}
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
phys_buf_reserve(struct phys_buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	b->cap = b->cap ? b->cap : 256;
	while (b->len + extra + 1 > b->cap)
		b->cap *= 2;
	b->s = phys_xrealloc(b->s, b->cap);
}

void
phys_buf_putn(struct phys_buf *b, const char *s, size_t n)
{
	phys_buf_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
phys_buf_putc(struct phys_buf *b, char c)
{
	phys_buf_putn(b, &c, 1);
}

void
phys_buf_puts(struct phys_buf *b, const char *s)
{
	phys_buf_putn(b, s, strlen(s));
}

void
phys_buf_printf(struct phys_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	phys_buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
phys_buf_double(struct phys_buf *b, double v)
{
	char tmp[40];

	if (!isfinite(v)) {	/* JSON has no NaN; callers check first */
		phys_buf_puts(b, "null");
		return;
	}
	phys_buf_putn(b, tmp, (size_t)phys_fmt_double(tmp, sizeof tmp, v));
}

void
phys_buf_json_string(struct phys_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;

	phys_buf_putc(b, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			phys_buf_putc(b, '\\');
			phys_buf_putc(b, (char)*p);
		} else if (*p == '\n') {
			phys_buf_puts(b, "\\n");
		} else if (*p == '\t') {
			phys_buf_puts(b, "\\t");
		} else if (*p < 0x20) {
			phys_buf_puts(b, "\\u00");
			phys_buf_putc(b, hex[*p >> 4]);
			phys_buf_putc(b, hex[*p & 15]);
		} else {
			phys_buf_putc(b, (char)*p);
		}
	}
	phys_buf_putc(b, '"');
}

void
phys_buf_json_numbers(struct phys_buf *b, const char *const *keys, const double *x,
    int n)
{
	size_t klen;
	char *p;
	int i;

	/* Keys are plain names ("x", "roll", "ixx"): no escaping; one
	 * reservation for the whole object, numbers written in place. */
	phys_buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		klen = strlen(keys[i]);
		phys_buf_reserve(b, klen + 48);
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
	phys_buf_putc(b, '}');
}

void
phys_buf_clear(struct phys_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void
phys_buf_free(struct phys_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
