/* phys-inertia - shape inertia, principal axes, equivalent box, scaling. */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inertia.h"
#include "sdfedit.h"
#include "inertia_show.h"
#include "inertia_world.h"
#include "paramio.h"
#include "base.h"

/*
 * The usage block, line by line; the man page's SYNOPSIS repeats it and
 * the test suite compares the two. Shape lines come from the shape table.
 */
static const char *const usage_tail[] = {
	"phys-inertia principal [FILE | TENSOR]",
	"phys-inertia box-equivalent [FILE | TENSOR]",
	"phys-inertia scale [--density-factor K | --fixed-density | --mass M |",
	"                    --mass-factor K] [--size S[,S,S]] [FILE]",
	"phys-inertia check [--ratio R] WORLD",
	"phys-inertia fix [-i] [--auto] [--density RHO | --keep-mass] WORLD [GLOB...]",
	"phys-inertia show [--ratio R] [--script FILE] -o FILE.png|FILE.svg WORLD",
	"phys-inertia --help | --version",
	"TENSOR: --ixx I [--ixy I] [--ixz I] --iyy I [--iyz I] --izz I --mass M",
	NULL
};

static const char help_text[] =
    "\n"
    "Commands:\n"
    "  box sphere cylinder capsule ellipsoid\n"
    "                   inertia of a uniform solid about its centre of mass\n"
    "  hollow-sphere hollow-cylinder\n"
    "                   the same for a thin shell (--density in kg/m^2)\n"
    "  principal        principal moments, ascending, and axes\n"
    "  box-equivalent   the uniform box of the same mass and inertia\n"
    "  scale            the inertia of the body resized, or of another mass\n"
    "\n"
    "Inertia lines, one JSON object a line, are read from FILE or standard\n"
    "input and written to standard output:\n"
    "  {\"mass\":M,\"ixx\":I,\"iyy\":I,\"izz\":I,\"ixy\":I,\"ixz\":I,\"iyz\":I}\n"
    "optionally with \"pose\":{\"x\",\"y\",\"z\",\"roll\",\"pitch\",\"yaw\"}.\n"
    "'phys-inertia COMMAND --help' describes one command; see phys-inertia(1).\n";

static const char shape_help[] =
    "\n"
    "Prints the inertia line of a uniform body about its centre of mass;\n"
    "cylinders and capsules lie along z, L is the length of the straight\n"
    "part, A B C are semi-axes.\n"
    "  --density RHO   kg/m^3; kg/m^2 for the hollow shapes (thin shells)\n"
    "  --mass M        kg\n";

static const char principal_help[] =
    "\n"
    "For each inertia line: {\"mass\",\"valid\",\"moments\":[I1,I2,I3],\"quat\",\n"
    "\"rpy\"}, moments ascending, I = R diag(moments) R^T with R's columns the\n"
    "axes. A line with a pose also gets the pose of the principal frame.\n"
    "An invalid inertia (as check says) gets \"valid\":false and a \"reason\",\n"
    "and makes the exit status 1.\n"
    "  --ixx I ... --mass M   one tensor from the command line\n";

static const char box_equivalent_help[] =
    "\n"
    "For each inertia line: {\"mass\",\"size\":{\"x\",\"y\",\"z\"},\"quat\",\"rpy\"},\n"
    "the box along the principal axes, longest side first. Fails on a mass\n"
    "<= 0 or a tensor that is not positive definite or breaks the triangle\n"
    "inequality (tolerance 1e-9 of the largest moment).\n"
    "  --ixx I ... --mass M   one tensor from the command line\n";

static const char scale_help[] =
    "\n"
    "For each inertia line, the inertia line of the body resized along the\n"
    "link frame's axes and given a new mass (default: the same mass).\n"
    "  --density-factor K   density times K (mass follows volume and K)\n"
    "  --fixed-density      same density: mass times the volume ratio\n"
    "  --mass M             new mass M\n"
    "  --mass-factor K      mass times K\n"
    "  --size S[,S,S]       resize by S, or by SX,SY,SZ along x, y, z\n";

static const char check_help[] =
    "\n"
    "One line per link of WORLD: its mass, whether its inertia is valid\n"
    "(mass > 0, positive definite, triangle inequality; tolerance 1e-9 of\n"
    "the largest moment), principal moments, equivalent box, the box its\n"
    "collision geometry spans and the density that implies, and warnings\n"
    "for mass or inertia ratios above R (default 10) across a joint.\n"
    "Exit status 1 when any link is invalid.\n"
    "  --ratio R   the ratio across a joint worth a warning\n";

static const char fix_help[] =
    "\n"
    "WORLD with each selected link's inertial (mass, centre of mass,\n"
    "tensor) computed from its collision geometry as uniform solids,\n"
    "written on stdout or in place. GLOBs select links (default: all links\n"
    "of models that are not static and have collision geometry).\n"
    "  --auto          write SDF 1.11 <inertial auto=\"true\"> instead of\n"
    "                  numbers (and <density> when given); links already\n"
    "                  automatic are computed as the loader does\n"
    "  --density RHO   kg/m^3 (default 1000)\n"
    "  -i, --in-place  replace WORLD (via a temporary file)\n"
    "  --keep-mass     keep each link's mass; share it by volume\n";

static const char show_help[] =
    "\n"
    "Draws each link's collision shapes and its box of equivalent inertia\n"
    "(pink), along its principal axes, in three views through gnuplot,\n"
    "into a PNG or SVG image (by -o's extension). A link whose box is more\n"
    "than R times larger or smaller than its shapes' is drawn in red, named\n"
    "in the legend and on standard error.\n"
    "  -o, --output FILE   the image: FILE.png or FILE.svg\n"
    "  --ratio R           what stands out (default 2)\n"
    "  --script FILE       write the gnuplot script to FILE instead\n";

struct command {
	const char *name;
	int (*run)(const struct command *, int, char **);
	int usage[2];		/* its lines of usage_tail */
	const char *help;
};

/* The command being run, whose usage a usage error shows. */
static const struct command *current;

static int run_shape(const struct command *, int, char **);
static int run_principal(const struct command *, int, char **);
static int run_box_equivalent(const struct command *, int, char **);
static int run_scale(const struct command *, int, char **);
static int run_check(const struct command *, int, char **);
static int run_fix(const struct command *, int, char **);
static int run_show(const struct command *, int, char **);

static const struct command commands[] = {
	{ "principal", run_principal, { 0, 5 }, principal_help },
	{ "box-equivalent", run_box_equivalent, { 1, 5 }, box_equivalent_help },
	{ "scale", run_scale, { 2, 3 }, scale_help },
	{ "check", run_check, { 4, 4 }, check_help },
	{ "fix", run_fix, { 5, 5 }, fix_help },
	{ "show", run_show, { 6, 6 }, show_help },
};

/* "phys-inertia box X Y Z (--density RHO | --mass M)" */
static void
shape_usage(struct phys_buf *b, phys_shape_kind kind)
{
	const struct phys_shape_info *info = phys_shape_info(kind);
	int i;

	phys_buf_printf(b, "phys-inertia %s", info->name);
	for (i = 0; i < info->ndims; i++)
		phys_buf_printf(b, " %s", info->dims[i]);
	phys_buf_puts(b, " (--density RHO | --mass M)\n");
}

static void
usage_prefix(struct phys_buf *b, int n)
{
	phys_buf_puts(b, n == 0 ? "usage: " : "       ");
}

/* The usage block of cmd, or of every command when cmd is NULL. */
static const char *
usage_text(const struct command *cmd)
{
	static struct phys_buf b;
	int k, n = 0, kind = cmd ? phys_shape_lookup(cmd->name) : -1;

	phys_buf_clear(&b);
	if (cmd && kind < 0) {
		for (k = 0; k < 2; k++) {
			usage_prefix(&b, k);
			phys_buf_printf(&b, "%s\n", usage_tail[cmd->usage[k]]);
		}
		return b.s;
	}
	for (k = 0; k < PHYS_NSHAPES; k++) {
		if (cmd && k != kind)
			continue;
		usage_prefix(&b, n++);
		shape_usage(&b, k);
	}
	for (k = 0; !cmd && usage_tail[k]; k++) {
		usage_prefix(&b, n++);
		phys_buf_printf(&b, "%s\n", usage_tail[k]);
	}
	return b.s;
}

/* "phys-inertia: what is wrong", then the usage; exit 2. */
#define usage_error(...) phys_usage_error(usage_text(current), __VA_ARGS__)

static double
number_arg(const char *what, const char *s)
{
	return phys_arg_number(usage_text(current), what, s, -HUGE_VAL, true);
}

static double
positive_arg(const char *what, const char *s)
{
	return phys_arg_number(usage_text(current), what, s, 0, false);
}

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

/*
 * The work done on one inertia line: append the output line to b. -1 is
 * an error that stops the input; 1 a line written that says the inertia
 * is invalid, which makes the exit status 1.
 */
typedef int (*line_fn)(const phys_inertia *in, struct phys_buf *b,
    const void *ctx);

struct filter {
	line_fn fn;
	const void *ctx;
	struct phys_buf out;
	bool invalid;
};

/* Each output line is complete before any of it is written. */
static int
filter_line(char *line, long lineno, void *arg)
{
	struct filter *f = arg;
	phys_inertia in;
	int rc;

	phys_buf_clear(&f->out);
	if (phys_inertia_parse_json(line, strlen(line), &in) < 0 ||
	    (rc = f->fn(&in, &f->out, f->ctx)) < 0)
		return -1;
	if (rc > 0)
		f->invalid = true;
	phys_buf_putc(&f->out, '\n');
	fwrite(f->out.s, 1, f->out.len, stdout);
	return 0;
}

/* Each line of path through fn; stops at the first bad line. */
static int
filter_lines(const char *path, line_fn fn, const void *ctx)
{
	struct filter f = { fn, ctx, { 0 }, false };
	int rc;

	if (!path || strcmp(path, "-") == 0)
		phys_stdin_hint("inertia lines");
	rc = phys_each_stream_line(path, filter_line, &f);

	phys_buf_free(&f.out);
	if (rc < 0) {
		phys_report();
		return PHYS_EXIT_FAIL;
	}
	return f.invalid ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* One inertia given as options rather than lines. */
struct tensor_opts {
	double v[7];		/* mass ixx iyy izz ixy ixz iyz */
	bool set[7];
};

enum {
	OPT_MASS = 1,		/* OPT_MASS + k sets tensor_opts.v[k] */
	OPT_VERSION = 16,
	OPT_DENSITY,
	OPT_DENSITY_FACTOR,
	OPT_FIXED_DENSITY,
	OPT_MASS_FACTOR,
	OPT_SIZE,
	OPT_RATIO,
	OPT_KEEP_MASS,
	OPT_AUTO,
	OPT_SCRIPT,
	OPT_HELP = 'h'		/* -h and --help */
};

static const char *const tensor_names[7] = {
	"--mass", "--ixx", "--iyy", "--izz", "--ixy", "--ixz", "--iyz"
};

/* Lines from FILE through fn, or the one inertia the options give. */
static int
run_lines(const struct command *cmd, int argc, char **argv, line_fn fn)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "ixx", required_argument, NULL, OPT_MASS + 1 },
		{ "ixy", required_argument, NULL, OPT_MASS + 4 },
		{ "ixz", required_argument, NULL, OPT_MASS + 5 },
		{ "iyy", required_argument, NULL, OPT_MASS + 2 },
		{ "iyz", required_argument, NULL, OPT_MASS + 6 },
		{ "izz", required_argument, NULL, OPT_MASS + 3 },
		{ "mass", required_argument, NULL, OPT_MASS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct tensor_opts t = { { 0 }, { false } };
	struct phys_buf out = { 0 };
	phys_inertia in;
	bool any = false;
	int c, k;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == OPT_HELP)
			phys_help(usage_text(cmd), cmd->help);
		else if (c == OPT_VERSION)
			phys_version();
		else if (c >= OPT_MASS && c < OPT_MASS + 7) {
			k = c - OPT_MASS;
			t.v[k] = number_arg(tensor_names[k], optarg);
			t.set[k] = any = true;
		} else {
			phys_option_error(c, argv, longopts);
		}
	}
	if (!any) {
		if (argc - optind > 1)
			usage_error("too many operands");
		return filter_lines(optind < argc ? argv[optind] : NULL, fn,
		    NULL);
	}
	if (optind < argc)
		usage_error("give FILE or the tensor options, not both");
	for (k = 0; k < 4; k++)
		if (!t.set[k])
			usage_error("%s is missing", tensor_names[k]);
	in = phys_inertia_make(t.v[0], t.v[1], t.v[2], t.v[3], t.v[4],
	    t.v[5], t.v[6]);
	if ((c = fn(&in, &out, NULL)) < 0) {
		phys_report();
		phys_buf_free(&out);
		return PHYS_EXIT_FAIL;
	}
	puts(out.s);
	phys_buf_free(&out);
	return c > 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* Decomposed whatever it is, and judged as check judges a link. */
static int
principal_line(const phys_inertia *in, struct phys_buf *b, const void *ctx)
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

static int
run_principal(const struct command *cmd, int argc, char **argv)
{
	return run_lines(cmd, argc, argv, principal_line);
}

static int
box_equivalent_line(const phys_inertia *in, struct phys_buf *b,
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

static int
run_box_equivalent(const struct command *cmd, int argc, char **argv)
{
	return run_lines(cmd, argc, argv, box_equivalent_line);
}

/* How scale sets the new mass. */
enum mass_mode { KEEP_MASS, FIXED_DENSITY, DENSITY_FACTOR, MASS_FACTOR,
    NEW_MASS };

struct scale_opts {
	phys_vec3 size;
	enum mass_mode mode;
	double value;		/* the factor or the mass */
};

static int
scale_line(const phys_inertia *in, struct phys_buf *b, const void *ctx)
{
	const struct scale_opts *o = ctx;
	double volume = o->size.x * o->size.y * o->size.z, k = 1;
	char num[40];
	phys_inertia out;

	switch (o->mode) {
	case KEEP_MASS:
		break;
	case FIXED_DENSITY:
		k = volume;
		break;
	case DENSITY_FACTOR:
		k = o->value * volume;
		break;
	case MASS_FACTOR:
		k = o->value;
		break;
	case NEW_MASS:
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
	if (o->mode == NEW_MASS)
		out.mass = o->value;	/* exact, however m * (M/m) rounds */
	return phys_inertia_write(b, &out);
}

static phys_vec3
size_arg(const char *s)
{
	double f[3];
	char *copy = phys_xstrdup(s), *p;
	int n;

	/* "2" or "1,2,3": commas become blanks for the strict parser. */
	for (p = copy; *p; p++)
		if (*p == ',')
			*p = ' ';
		else if (*p == ' ' || *p == '\t')
			*p = '#';
	n = phys_parse_doubles(copy, f, 3);
	free(copy);
	if (n != 1 && n != 3)
		usage_error("--size: expected S or SX,SY,SZ: '%s'", s);
	if (n == 1)
		f[1] = f[2] = f[0];
	for (n = 0; n < 3; n++)
		if (f[n] <= 0)
			usage_error("--size: factors must be positive: '%s'",
			    s);
	return v3(f[0], f[1], f[2]);
}

static int
run_scale(const struct command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "density-factor", required_argument, NULL,
		    OPT_DENSITY_FACTOR },
		{ "fixed-density", no_argument, NULL, OPT_FIXED_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "mass", required_argument, NULL, OPT_MASS },
		{ "mass-factor", required_argument, NULL, OPT_MASS_FACTOR },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct scale_opts o = { { 1, 1, 1 }, KEEP_MASS, 1 };
	int c, modes = 0;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			phys_help(usage_text(cmd), cmd->help);
		case OPT_VERSION:
			phys_version();
		case OPT_DENSITY_FACTOR:
			o.mode = DENSITY_FACTOR;
			o.value = positive_arg("--density-factor", optarg);
			modes++;
			break;
		case OPT_FIXED_DENSITY:
			o.mode = FIXED_DENSITY;
			modes++;
			break;
		case OPT_MASS:
			o.mode = NEW_MASS;
			o.value = positive_arg("--mass", optarg);
			modes++;
			break;
		case OPT_MASS_FACTOR:
			o.mode = MASS_FACTOR;
			o.value = positive_arg("--mass-factor", optarg);
			modes++;
			break;
		case OPT_SIZE:
			o.size = size_arg(optarg);
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
	}
	if (modes > 1)
		usage_error("give only one of --density-factor, "
		    "--fixed-density, --mass and --mass-factor");
	if (argc - optind > 1)
		usage_error("too many operands");
	return filter_lines(optind < argc ? argv[optind] : NULL, scale_line,
	    &o);
}

static int
run_shape(const struct command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "density", required_argument, NULL, OPT_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "mass", required_argument, NULL, OPT_MASS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	const struct phys_shape_info *info;
	struct phys_buf out = { 0 };
	double mass = 0, density = 0, measure;
	phys_inertia in;
	phys_shape s;
	int c, i;

	memset(&s, 0, sizeof s);
	s.kind = phys_shape_lookup(cmd->name);
	info = phys_shape_info(s.kind);
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			phys_help(usage_text(cmd), cmd->help);
		case OPT_VERSION:
			phys_version();
		case OPT_DENSITY:
			density = positive_arg("--density", optarg);
			break;
		case OPT_MASS:
			mass = positive_arg("--mass", optarg);
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
	}
	if (argc - optind != info->ndims)
		usage_error("%s: expected %d operand%s, got %d", info->name,
		    info->ndims, info->ndims == 1 ? "" : "s", argc - optind);
	for (i = 0; i < info->ndims; i++)
		s.dim[i] = number_arg(info->dims[i], argv[optind + i]);
	if (phys_shape_check(&s) < 0)
		usage_error("%s", phys_error());
	if ((mass > 0) == (density > 0))
		usage_error("give exactly one of --density and --mass");
	if (density > 0) {
		measure = phys_shape_measure(&s);
		if (measure == 0 && info->ndims == 2 && s.dim[1] == 0)
			usage_error("%s: L = 0 has no %s to take a density",
			    info->name, info->shell ? "area" : "volume");
		mass = density * measure;
		if (!isfinite(mass) || mass <= 0) {
			phys_warn("%s: --density gives a mass out of range "
			    "(%s %g m^%d)", info->name, info->shell ? "area" :
			    "volume", measure, info->shell ? 2 : 3);
			return PHYS_EXIT_FAIL;
		}
	}
	if (phys_shape_inertia(&s, mass, &in) < 0 ||
	    phys_inertia_write(&out, &in) < 0) {
		phys_report();
		phys_buf_free(&out);
		return PHYS_EXIT_FAIL;
	}
	puts(out.s);
	phys_buf_free(&out);
	return PHYS_EXIT_OK;
}

/* ---- check and fix: every link of a world ---- */

static double
largest_moment(const phys_inertia *in)
{
	double m[3];
	phys_mat3 R;

	if (phys_inertia_principal(in->I, m, &R) < 0)
		return NAN;
	return fmax(fabs(m[0]), fmax(fabs(m[1]), fabs(m[2])));
}

/* Ratios across joints between moving links: the quick-step solver
 * converges poorly when neighbours differ by orders of magnitude. */
static void
joint_warnings(struct phys_world *w, int li, double limit, struct phys_buf *b)
{
	phys_inertia a, o;
	double mr, ir;
	char msg[512];
	size_t j;
	int other, n = 0;

	for (j = 0; j < w->njoints; j++) {
		const struct phys_joint *jt = &w->joints[j];

		other = jt->child == li ? jt->parent : jt->parent == li ?
		    jt->child : -2;
		if (other < 0 || w->models[w->links[other].model].is_static ||
		    w->models[w->links[li].model].is_static)
			continue;
		phys_link_inertia(&w->links[li], &a);
		phys_link_inertia(&w->links[other], &o);
		mr = a.mass > o.mass ? a.mass / o.mass : o.mass / a.mass;
		ir = largest_moment(&a) / largest_moment(&o);
		ir = ir < 1 ? 1 / ir : ir;
		if (!(mr > limit) && !(ir > limit))
			continue;
		snprintf(msg, sizeof msg, "%s ratio %.3g across joint '%s' "
		    "(with '%s'): the quick-step solver converges poorly above "
		    "%g", mr > limit ? "mass" : "inertia", mr > limit ? mr : ir,
		    jt->name, w->links[other].name, limit);
		phys_buf_puts(b, n++ ? "," : ",\"warnings\":[");
		phys_buf_json_string(b, msg);
	}
	if (n)
		phys_buf_putc(b, ']');
}

static void
put_size(struct phys_buf *b, const char *key, phys_vec3 s)
{
	static const char *const xyz[] = { "x", "y", "z" };
	double v[3] = { s.x, s.y, s.z };

	phys_buf_printf(b, ",\"%s\":", key);
	phys_buf_json_numbers(b, xyz, v, 3);
}

/* The geometry's box and density, and how the equivalent box compares. */
static void
check_geometry(struct phys_world *w, int li, const phys_inertia *in,
    bool valid, struct phys_buf *b)
{
	phys_vec3 lo, hi;
	double vol;

	if (!phys_link_geometry_box(w, li, &lo, &hi, &vol))
		return;
	put_size(b, "geometry_box", v3_sub(hi, lo));
	if (vol > 0) {
		phys_buf_puts(b, ",\"density\":");
		phys_buf_double(b, in->mass / vol);
	}
	if (!valid || phys_link_box_ratio(w, li, in) == 0)
		return;
	phys_buf_puts(b, ",\"box_ratio\":");
	phys_buf_double(b, phys_link_box_ratio(w, li, in));
}

static bool
check_link(struct phys_world *w, int li, double limit, struct phys_buf *b)
{
	struct phys_inertia_verdict v;
	phys_inertia in;
	phys_vec3 size;
	phys_mat3 R;
	bool valid;

	phys_link_inertia(&w->links[li], &in);
	valid = phys_inertia_validate(&in, &v) == PHYS_INERTIA_VALID;
	phys_buf_puts(b, "{\"link\":");
	phys_buf_json_string(b, w->links[li].name);
	phys_buf_puts(b, ",\"file\":");
	phys_buf_json_string(b, w->links[li].doc->name);
	phys_buf_printf(b, ",\"line\":%ld", phys_node_line(w->links[li].node));
	phys_buf_puts(b, ",\"mass\":");
	phys_buf_double(b, in.mass);
	phys_buf_printf(b, ",\"valid\":%s", valid ? "true" : "false");
	if (!valid) {
		phys_buf_puts(b, ",\"reason\":");
		phys_buf_json_string(b, v.reason);
	}
	phys_buf_puts(b, ",\"tolerance\":");
	phys_buf_double(b, v.tol);
	phys_buf_puts(b, ",\"moments\":[");
	phys_buf_double(b, v.moments[0]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, v.moments[1]);
	phys_buf_putc(b, ',');
	phys_buf_double(b, v.moments[2]);
	phys_buf_putc(b, ']');
	if (valid && phys_inertia_box_equivalent(&in, &size, &R) == 0)
		put_size(b, "box", size);
	check_geometry(w, li, &in, valid, b);
	if (w->models[w->links[li].model].is_static)
		phys_buf_puts(b, ",\"static\":true");
	joint_warnings(w, li, limit, b);
	phys_buf_puts(b, "}\n");
	return valid;
}

static int
run_check(const struct command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_buf b = { 0 };
	struct phys_world w;
	double limit = 10;
	size_t i;
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1)
		switch (c) {
		case OPT_HELP:
			phys_help(usage_text(cmd), cmd->help);
		case OPT_VERSION:
			phys_version();
		case OPT_RATIO:
			limit = positive_arg("--ratio", optarg);
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
	if (argc - optind != 1)
		usage_error("check needs one WORLD");
	if (phys_world_open(&w, argv[optind], false) < 0)
		return PHYS_EXIT_FAIL;
	for (i = 0; i < w.nlinks; i++)
		bad += !check_link(&w, (int)i, limit, &b);
	if (b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
		bad++;
	phys_buf_free(&b);
	phys_world_free(&w);
	return bad ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static bool
selected(const struct phys_world *w, int li, int n, char **globs)
{
	int k;

	if (n == 0)
		return !w->models[w->links[li].model].is_static;
	for (k = 0; k < n; k++)
		if (phys_glob(globs[k], w->links[li].name))
			return true;
	return false;
}

/* Record the edits that give link li the inertia in. */
static int
write_inertial(struct phys_world *w, int li, const phys_inertia *in)
{
	static const enum phys_param_id ids[] = { PHYS_P_LINK_inertial_mass,
		PHYS_P_LINK_inertial_pose, PHYS_P_LINK_inertial_inertia_ixx,
		PHYS_P_LINK_inertial_inertia_ixy, PHYS_P_LINK_inertial_inertia_ixz,
		PHYS_P_LINK_inertial_inertia_iyy, PHYS_P_LINK_inertial_inertia_iyz,
		PHYS_P_LINK_inertial_inertia_izz };
	const double t[6] = { in->I.m[0][0], in->I.m[0][1], in->I.m[0][2],
		in->I.m[1][1], in->I.m[1][2], in->I.m[2][2] };
	struct phys_ref r = { NULL, PHYS_S_LINK, li };
	struct phys_value v;
	size_t k;

	for (k = 0; k < sizeof ids / sizeof *ids; k++) {
		memset(&v, 0, sizeof v);
		r.p = &phys_params[ids[k]];
		if (k == 0)
			v.u.d = in->mass;
		else if (k == 1)
			memcpy(v.u.pose, in->pose, sizeof v.u.pose);
		else
			v.u.d = t[k - 2];
		/* Only what changes: an absent element stays absent when its
		 * default is already right. */
		if (phys_value_equal(r.p, &v, phys_ref_value(w, &r)))
			continue;
		if (phys_world_edit(w, &r, &v) < 0)
			return -1;
	}
	return 0;
}

/*
 * SDF 1.11's automatic inertia in place of numbers: auto="true", the
 * computed elements (pose, tensor; mass unless kept) removed, and the
 * density written when one was given.
 */
static int
write_auto(struct phys_world *w, int li, double density, bool keep)
{
	struct phys_doc *d = w->links[li].doc;
	xmlNodePtr in = phys_child(w->links[li].node, "inertial"), e;
	char num[64], *text;
	int rc;

	if (!in)
		return phys_doc_append_child(d, w->links[li].node,
		    "<inertial auto=\"true\"/>") < 0 ? -1 :
		    (density > 0 ? write_auto(w, li, density, keep) : 0);
	if (phys_doc_set_attr(d, in, "auto", "true") < 0)
		return -1;
	if ((e = phys_child(in, "pose")) && phys_doc_remove(d, e) < 0)
		return -1;
	if ((e = phys_child(in, "inertia")) && phys_doc_remove(d, e) < 0)
		return -1;
	if (!keep && (e = phys_child(in, "mass")) && phys_doc_remove(d, e) < 0)
		return -1;
	if (!(density > 0))
		return 0;
	if ((e = phys_child(in, "density")) && phys_doc_remove(d, e) < 0)
		return -1;
	phys_fmt_double(num, sizeof num, density);
	text = phys_xasprintf("<density>%s</density>", num);
	rc = phys_doc_append_child(d, in, text);
	free(text);
	return rc;
}

static int
fix_link(struct phys_world *w, int li, double density, bool keep,
    bool automatic, bool density_given)
{
	phys_inertia in;
	int n;

	/* The loader computed an automatic link's inertia: nothing to fix. */
	if (phys_link_auto_inertial(&w->links[li]) && !automatic)
		return 0;
	n = phys_link_geometry_inertia(w, li, keep ? 0 : density,
	    PVD(w->links[li].vals, LINK_inertial_mass), &in);
	if (n < 0)
		return -1;
	if (n == 0) {
		phys_warn("link '%s' has no collision geometry to compute "
		    "from; left as it is", w->links[li].name);
		return 0;
	}
	if (!phys_world_editable(w, PHYS_S_LINK, li)) {
		phys_warn("link '%s' is in the included file %s; left as it "
		    "is", w->links[li].name, w->links[li].doc->name);
		return 0;
	}
	if (automatic && w->model_doc)
		return phys_fail("%s: URDF has no automatic inertia; give "
		    "--density or --keep-mass instead of --auto", w->doc.name);
	if (automatic)
		return write_auto(w, li, density_given ? density : 0, keep);
	return write_inertial(w, li, &in);
}

static int
run_fix(const struct command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "auto", no_argument, NULL, OPT_AUTO },
		{ "density", required_argument, NULL, OPT_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "in-place", no_argument, NULL, 'i' },
		{ "keep-mass", no_argument, NULL, OPT_KEEP_MASS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_world w;
	double density = 1000;
	bool keep = false, in_place = false, given = false, automatic = false;
	size_t i;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, ":hi", longopts, NULL)) != -1)
		switch (c) {
		case OPT_HELP:
			phys_help(usage_text(cmd), cmd->help);
		case OPT_VERSION:
			phys_version();
		case OPT_DENSITY:
			density = positive_arg("--density", optarg);
			given = true;
			break;
		case OPT_KEEP_MASS:
			keep = true;
			break;
		case OPT_AUTO:
			automatic = true;
			break;
		case 'i':
			in_place = true;
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
	if (keep && given)
		usage_error("give --density or --keep-mass, not both");
	if (argc - optind < 1)
		usage_error("fix needs a WORLD");
	if (phys_world_open_edit(&w, argv[optind], in_place, false) < 0)
		return PHYS_EXIT_FAIL;
	for (i = 0; i < w.nlinks && rc == 0; i++)
		if (selected(&w, (int)i, argc - optind - 1, argv + optind + 1))
			rc = fix_link(&w, (int)i, density, keep, automatic,
			    given);
	if (rc == 0)
		rc = phys_world_write(&w, in_place);
	if (rc < 0)
		phys_report();
	phys_world_free(&w);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* ---- show ---- */

static const char *
image_terminal(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && strcmp(dot, ".png") == 0)
		return "pngcairo";
	if (dot && strcmp(dot, ".svg") == 0)
		return "svg";
	usage_error("-o: '%s' is neither .png nor .svg", path);
}

/* New images get the usual permissions, not mkstemp's 0600. */
static void
umask_mode(FILE *fp)
{
	mode_t mask = umask(0);

	umask(mask);
	(void)fchmod(fileno(fp), 0666 & ~mask);
}

/* gnuplot draws into the temporary file, renamed when it succeeded. */
static int
draw(const struct phys_world *w, const struct phys_show_options *o)
{
	struct phys_show_options tmp;
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	FILE *gp;
	int rc;

	if (phys_atomic_open(&a, o->output) < 0)
		return -1;
	umask_mode(a.fp);
	/* the script names the temporary file */
	tmp = *o;
	tmp.output = a.tmp;
	phys_inertia_show_script(w, &tmp, &script);
	fflush(stdout);
	gp = popen("gnuplot", "w");
	if (!gp) {
		phys_atomic_abort(&a);
		phys_buf_free(&script);
		return phys_fail("cannot run gnuplot (Debian: gnuplot-nox)");
	}
	rc = fwrite(script.s, 1, script.len, gp) == script.len ? 0 : -1;
	if (pclose(gp) != 0 || rc < 0) {
		phys_atomic_abort(&a);
		phys_buf_free(&script);
		return phys_fail("gnuplot failed drawing %s", o->output);
	}
	phys_buf_free(&script);
	return phys_atomic_commit(&a);
}

static int
write_script(const struct phys_world *w, const struct phys_show_options *o,
    const char *path)
{
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	int rc;

	phys_inertia_show_script(w, o, &script);
	if (phys_atomic_open(&a, path) < 0) {
		phys_buf_free(&script);
		return -1;
	}
	umask_mode(a.fp);
	rc = fwrite(script.s, 1, script.len, a.fp) == script.len ? 0 : -1;
	phys_buf_free(&script);
	if (rc < 0) {
		phys_atomic_abort(&a);
		return phys_fail("%s: write failed", path);
	}
	return phys_atomic_commit(&a);
}

static int
run_show(const struct command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "output", required_argument, NULL, 'o' },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "script", required_argument, NULL, OPT_SCRIPT },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_show_options o = { NULL, NULL, NULL, 2 };
	const char *script = NULL;
	struct phys_world w;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1)
		switch (c) {
		case OPT_HELP:
			phys_help(usage_text(cmd), cmd->help);
		case OPT_VERSION:
			phys_version();
		case 'o':
			o.output = optarg;
			break;
		case OPT_RATIO:
			o.ratio = positive_arg("--ratio", optarg);
			if (!(o.ratio > 1))
				usage_error("--ratio must be above 1");
			break;
		case OPT_SCRIPT:
			script = optarg;
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
	if (!o.output)
		usage_error("show needs -o FILE.png or -o FILE.svg");
	if (argc - optind != 1)
		usage_error("show needs one WORLD");
	o.terminal = image_terminal(o.output);
	if (phys_world_open(&w, argv[optind], false) < 0)
		return PHYS_EXIT_FAIL;
	o.title = phys_display_name(argv[optind]);
	rc = script ? write_script(&w, &o, script) : draw(&w, &o);
	phys_world_free(&w);
	if (rc < 0)
		phys_report();
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* The shapes share one runner; they take their names from the table. */
static const struct command *
find_command(const char *name)
{
	static struct command shape_cmds[PHYS_NSHAPES];
	size_t k;
	int kind;

	for (k = 0; k < sizeof commands / sizeof commands[0]; k++)
		if (strcmp(commands[k].name, name) == 0)
			return &commands[k];
	kind = phys_shape_lookup(name);
	if (kind < 0)
		return NULL;
	shape_cmds[kind].name = phys_shape_info(kind)->name;
	shape_cmds[kind].run = run_shape;
	shape_cmds[kind].help = shape_help;
	return &shape_cmds[kind];
}

/* Exit 2 naming the commands closest to name. */
static _Noreturn void
unknown_command(const char *name)
{
	const char *names[PHYS_NSHAPES + sizeof commands / sizeof commands[0] + 1];
	size_t k, n = 0;

	for (k = 0; k < PHYS_NSHAPES; k++)
		names[n++] = phys_shape_info((int)k)->name;
	for (k = 0; k < sizeof commands / sizeof commands[0]; k++)
		names[n++] = commands[k].name;
	names[n] = NULL;
	phys_unknown_command(name, names);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *cmd;
	int c, rc, rc2;

	phys_setprog("phys-inertia");
	phys_stdout_init();
	opterr = 0;
	/* Options before the command: only --help and --version. */
	c = getopt_long(argc, argv, "+:h", longopts, NULL);
	if (c == OPT_HELP)
		phys_help(usage_text(NULL), help_text);
	if (c == OPT_VERSION)
		phys_version();
	if (c != -1)
		phys_option_error(c, argv, longopts);
	if (optind >= argc)
		usage_error("missing command");
	if (!(cmd = find_command(argv[optind])))
		unknown_command(argv[optind]);
	current = cmd;
	argc -= optind;
	argv += optind;
	optind = 0;	/* the command's own options, from its name on */
	rc = cmd->run(cmd, argc, argv);
	rc2 = phys_close_stdout();
	return rc ? rc : rc2;
}
