/*
 * fmtcheck N: phys_fmt_double against the writer it replaced, on N
 * doubles of each kind (random bits; spread over the fast path's decades;
 * near ties of 15, 16 and 17 digits; powers of two and ten and their
 * neighbours). The reference is the definition: the first of %.15g, %.16g
 * and %.17g that strtod reads back to the same double. Exit 1 on the
 * first difference.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)	/* xorshift64* */
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ULL;
}

static long checked;

static void
check(double v)
{
	char want[64], got[64];
	int p;

	if (!isfinite(v))
		return;
	if (v == 0)
		strcpy(want, "0");
	else
		for (p = 15; p <= 17; p++) {
			snprintf(want, sizeof want, "%.*g", p, v);
			if (strtod(want, NULL) == v)
				break;
		}
	phys_fmt_double(got, sizeof got, v);
	if (strcmp(want, got) != 0) {
		printf("%a: want %s, got %s\n", v, want, got);
		exit(1);
	}
	checked++;
}

static double
from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	double v, t;
	int e, k;

	for (i = 0; i < n; i++)		/* any double */
		check(from_bits(next()));
	for (i = 0; i < n; i++) {	/* 1e-17 .. 1e18, both signs */
		v = ldexp((double)(next() >> 11), -53) *
		    pow(10, (double)(next() % 36) - 17);
		check(next() & 1 ? -v : v);
	}
	for (i = 0; i < n; i++) {	/* decimals of 15-17 digits and neighbours */
		k = 15 + (int)(next() % 3);
		t = (double)(next() % 9000000000000000ULL + 1000000000000000ULL);
		v = t / pow(10, (double)(k - 1)) * pow(10, (double)(next() % 30) - 15);
		check(v);
		check(nextafter(v, 0));
		check(nextafter(v, INFINITY));
	}
	for (e = -1074; e <= 1023; e++) {	/* powers of two and neighbours */
		v = ldexp(1, e);
		check(v);
		check(nextafter(v, 0));
		check(nextafter(v, INFINITY));
	}
	for (e = -320; e <= 308; e++) {		/* powers of ten and neighbours */
		v = strtod("1", NULL) * pow(10, e);
		check(v);
		check(nextafter(v, 0));
		check(nextafter(v, INFINITY));
	}
	printf("%ld\n", checked);
	return 0;
}
