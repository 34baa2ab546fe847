/*
 * lockstep_ctl.c - a controller for phys-step --lockstep, as small as one
 * can be: it reads each state line on standard input, writes a PD
 * command for the hinge of worlds/inverted_pendulum.sdf on standard
 * output at once, and at the end of the input prints on standard error
 * how many lines it answered and how fast, from the first line on (the
 * world's loading is not counted).
 *
 *   phys-step --lockstep -c FIFO -n N ... | lockstep_ctl > FIFO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_clock.h"

/* Axis 0 of item name in a state line, or 0. */
static double
axis(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtod(p + strlen(name), NULL) : 0;
}

static void
reply(const char *line)
{
	char out[128];
	double q = axis(line, "\"inverted::hinge/position\":["),
	    w = axis(line, "\"inverted::hinge/velocity\":[");
	int n = snprintf(out, sizeof out, "{\"name\":\"inverted::hinge/"
	    "cmd_force\",\"value\":%.17g}\n", -(30 * q + 5 * w));

	if (write(STDOUT_FILENO, out, (size_t)n) != n) {
		perror("lockstep_ctl: write");
		exit(1);
	}
}

int
main(void)
{
	static char buf[1 << 16];
	size_t have = 0;
	long lines = 0;
	double start = 0, took;
	ssize_t got;
	char *nl;

	while ((got = read(STDIN_FILENO, buf + have, sizeof buf - 1 - have)) >
	    0) {
		if (lines == 0)
			start = bench_clock(CLOCK_MONOTONIC);
		have += (size_t)got;
		buf[have] = '\0';
		while ((nl = memchr(buf, '\n', have))) {
			*nl = '\0';
			reply(buf);
			lines++;
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have);
		}
		if (have == sizeof buf - 1) {
			fprintf(stderr, "lockstep_ctl: a line too long\n");
			return 1;
		}
	}
	/* the first line started the clock: the others are round trips */
	took = bench_clock(CLOCK_MONOTONIC) - start;
	fprintf(stderr, "lines %ld seconds %.6f rate %.0f\n", lines, took,
	    lines > 1 && took > 0 ? (double)(lines - 1) / took : 0);
	return 0;
}
