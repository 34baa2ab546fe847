/* inertia_lines.c - inertia lines in, lines about them out. */
#include "inertia_lines.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
all_finite(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return phys_fail("result out of range");
	return 0;
}

/*
 * ,"quat":{..},"rpy":{..} of R relative to the inertial frame, and when
 * the line has a pose, ,"pose":{..} of the new frame in the link frame.
 */
static int
put_rotation(struct phys_buf *b, const phys_inertia *in, phys_mat3 R)
{
	static const char *const qkeys[] = { "w", "x", "y", "z" };
	static const char *const rkeys[] = { "roll", "pitch", "yaw" };
	static const char *const pkeys[] = {
		"x", "y", "z", "roll", "pitch", "yaw"
	};
	phys_quat q = phys_mat3_to_quat(R), qp;
	double qv[4] = { q.w, q.x, q.y, q.z }, rpy[3], pose[6];

	/* The angles follow the printed quaternion, so both say the same. */
	phys_mat3_to_rpy(phys_quat_to_mat3(q), &rpy[0], &rpy[1], &rpy[2]);
	if (in->has_pose) {
		qp = phys_quat_mul(phys_quat_from_rpy(in->pose[3], in->pose[4],
		    in->pose[5]), q);
		memcpy(pose, in->pose, 3 * sizeof *pose);
		phys_mat3_to_rpy(phys_quat_to_mat3(phys_quat_normalize(qp)), &pose[3],
		    &pose[4], &pose[5]);
		if (all_finite(pose, 6) < 0)
			return -1;
	}
	if (all_finite(qv, 4) < 0 || all_finite(rpy, 3) < 0)
		return -1;
	phys_buf_puts(b, ",\"quat\":");
	phys_buf_json_numbers(b, qkeys, qv, 4);
	phys_buf_puts(b, ",\"rpy\":");
	phys_buf_json_numbers(b, rkeys, rpy, 3);
	if (in->has_pose) {
		phys_buf_puts(b, ",\"pose\":");
		phys_buf_json_numbers(b, pkeys, pose, 6);
	}
	return 0;
}

/* Decomposed whatever it is, and judged as check judges a link. */
int
phys_inertia_principal_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx)
{
	struct phys_inertia_verdict v;
	double mo[3];
	phys_mat3 R;
	bool valid;

	if (phys_inertia_principal(in->I, mo, &R) < 0)
		return -1;
	valid = phys_inertia_validate(in, &v) == PHYS_INERTIA_VALID;
	phys_buf_puts(b, "{\"mass\":");
	phys_buf_double(b, in->mass);
	phys_buf_printf(b, ",\"valid\":%s", valid ? "true" : "false");
	if (!valid) {
		phys_buf_puts(b, ",\"reason\":");
		phys_buf_json_string(b, v.reason);
	}
	phys_buf_puts(b, ",\"moments\":[");
	phys_buf_double(b, mo[0]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, mo[1]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, mo[2]);
	phys_buf_putc(b, ']');
	if (put_rotation(b, in, R) < 0)
		return -1;
	phys_buf_putc(b, '}');
	return valid ? 0 : 1;
}

int
phys_inertia_box_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx)
{
	static const char *const keys[] = { "x", "y", "z" };
	phys_vec3 size;
	phys_mat3 R;
	double v[3];

	if (phys_inertia_box_equivalent(in, &size, &R) < 0)
		return -1;
	v[0] = size.x, v[1] = size.y, v[2] = size.z;
	phys_buf_puts(b, "{\"mass\":");
	phys_buf_double(b, in->mass);
	phys_buf_puts(b, ",\"size\":");
	phys_buf_json_numbers(b, keys, v, 3);
	if (put_rotation(b, in, R) < 0)
		return -1;
	phys_buf_putc(b, '}');
	return 0;
}

int
phys_inertia_size_factors(const char *text, phys_vec3 *out)
{
	double f[3];
	char *copy = phys_xstrdup(text), *p;
	int n;

	/* "2" or "1,2,3": commas become blanks for the strict parser, and
	 * blanks something it refuses. */
	for (p = copy; *p; p++)
		if (*p == ',')
			*p = ' ';
		else if (*p == ' ' || *p == '\t')
			*p = '#';
	n = phys_parse_doubles(copy, f, 3);
	free(copy);
	if (n != 1 && n != 3)
		return -1;
	if (n == 1)
		f[1] = f[2] = f[0];
	for (n = 0; n < 3; n++)
		if (f[n] <= 0)
			return -2;
	*out = v3(f[0], f[1], f[2]);
	return 0;
}

int
phys_inertia_scale_line(const phys_inertia *in, struct phys_buf *b,
    const void *ctx)
{
	const struct phys_inertia_scaling *o = ctx;
	double volume = o->size.x * o->size.y * o->size.z, k = 1;
	char num[40];
	phys_inertia out;

	switch (o->rule) {
	case PHYS_MASS_KEEP:
		break;
	case PHYS_MASS_FIXED_DENSITY:
		k = volume;
		break;
	case PHYS_MASS_DENSITY_FACTOR:
		k = o->value * volume;
		break;
	case PHYS_MASS_FACTOR:
		k = o->value;
		break;
	case PHYS_MASS_NEW:
		if (!(in->mass > 0)) {
			phys_fmt_double(num, sizeof num, in->mass);
			return phys_fail("mass must be positive to be changed "
			    "(got %s)", num);
		}
		k = o->value / in->mass;
		break;
	}
	if (phys_inertia_scale(in, o->size, k, &out) < 0)
		return -1;
	if (o->rule == PHYS_MASS_NEW)
		out.mass = o->value;	/* exact, however m * (M/m) rounds */
	return phys_inertia_write(b, &out);
}

struct filter {
	phys_inertia_line_fn fn;
	const void *ctx;
	FILE *out;
	struct phys_buf line;
	bool invalid;
};

/* Each output line is complete before any of it is written. */
static int
filter_line(char *line, long lineno, void *arg)
{
	struct filter *f = arg;
	phys_inertia in;
	int rc;

	phys_buf_clear(&f->line);
	if (phys_inertia_parse_json(line, strlen(line), &in) < 0 ||
	    (rc = f->fn(&in, &f->line, f->ctx)) < 0)
		return -1;
	if (rc > 0)
		f->invalid = true;
	phys_buf_putc(&f->line, '\n');
	fwrite(f->line.s, 1, f->line.len, f->out);
	return 0;
}

int
phys_inertia_filter(const char *path, phys_inertia_line_fn fn,
    const void *ctx, FILE *out)
{
	struct filter f = { fn, ctx, out, { 0 }, false };
	int rc;

	rc = phys_each_stream_line(path, filter_line, &f);
	phys_buf_free(&f.line);
	if (rc < 0)
		return -1;
	return f.invalid ? 1 : 0;
}
