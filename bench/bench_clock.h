/*
 * bench_clock.h - the clocks the bench's own programs read, in seconds:
 * the wall clock (CLOCK_MONOTONIC) or the process's processor time
 * (CLOCK_PROCESS_CPUTIME_ID). Only libc: the bare loops include it too.
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

static inline double
bench_clock(clockid_t which)
{
	struct timespec ts;

	clock_gettime(which, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
