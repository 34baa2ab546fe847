/* num.c - strict number parsing. */
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "msg.h"

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

/* An integer's leading digits, decimal or 0x hex: where they end (NULL
 * when there are none, or it is out of range). */
static const char *
long_at(const char *s, long *out)
{
	char *end;
	long v;
	int base = 10;

	if (!s)
		return NULL;
	s = skip_blanks(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	errno = 0;
	v = strtol(s, &end, base);
	if (end == s || errno == ERANGE)
		return NULL;
	*out = v;
	return end;
}

/*
 * An integer as libsdformat reads one (std::stoi, std::stoul): its
 * leading digits, whatever follows ("10.0" is 10).
 */
bool
phys_parse_long_prefix(const char *s, long *out)
{
	return long_at(s, out) != NULL;
}

/*
 * A number as libsdformat reads one (std::stod): its leading number,
 * whatever follows ignored. Where it ends, or NULL when none leads or it
 * is not finite.
 */
const char *
phys_parse_double_prefix(const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return NULL;
	s = skip_blanks(s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v))
		return NULL;
	*out = v;
	return end;
}

bool
phys_parse_long(const char *s, long *out)
{
	long v;
	const char *end = long_at(s, &v);

	if (!end || *skip_blanks(end))
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

double *
phys_parse_double_list(const char *s, size_t max, size_t *n)
{
	const char *p = s ? skip_blanks(s) : "";
	double *out;
	size_t k = 0;

	/* the words first: a number's word holds no blank */
	while (*p && k <= max) {
		k++;
		p = skip_blanks(p + strcspn(p, " \t\r\n"));
	}
	if (k > max || k > INT_MAX)
		return NULL;
	out = phys_xcalloc(k ? k : 1, sizeof *out);
	if (phys_parse_doubles(s, out, (int)k) != (int)k) {
		free(out);
		return NULL;
	}
	*n = k;
	return out;
}

size_t
phys_size_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

size_t
phys_size_mul(size_t a, size_t b)
{
	return b != 0 && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

double
phys_as_float(double x)
{
	return (float)x;
}
