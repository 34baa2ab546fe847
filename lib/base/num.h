/* num.h - strict number parsing. */
#ifndef PHYS_BASE_NUM_H
#define PHYS_BASE_NUM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Strict parsing: the whole string (surrounding blanks allowed) must be one
 * finite number in range. NaN, inf, overflow and trailing junk are refused.
 */
bool phys_parse_double(const char *s, double *out);
bool phys_parse_long(const char *s, long *out);	/* decimal or 0x hex */
/* Its leading digits, what follows ignored, as libsdformat reads one. */
bool phys_parse_long_prefix(const char *s, long *out);
/* Its leading number (std::stod), what follows ignored: where it ends, or
 * NULL when none leads or it is not finite. */
const char *phys_parse_double_prefix(const char *s, double *out);
bool phys_parse_bool(const char *s, bool *out);	/* true/false/1/0 */
/* Up to n blank-separated doubles; returns how many were read, -1 on junk. */
int phys_parse_doubles(const char *s, double *out, int n);
/*
 * Every blank-separated double of s, at most max of them, in an array of
 * *n (the caller frees it): NULL on junk or more than max.
 */
double *phys_parse_double_list(const char *s, size_t max, size_t *n);
/* a + b and a * b, held at SIZE_MAX rather than wrapping: counts of what
 * untrusted files would build. */
size_t phys_size_add(size_t a, size_t b);
size_t phys_size_mul(size_t a, size_t b);
/*
 * x rounded to single precision, for code that follows a program which
 * computes in floats (MuJoCo 2.2.2's compiler). A function of its own:
 * GCC 12's vectorizer at -O2 drops the cast to float of two doubles it
 * packs together, which C requires and those results depend on.
 */
double phys_as_float(double x);

#endif
