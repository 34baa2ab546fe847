/* phys-inertia - shape inertia, principal axes, equivalent box, scaling. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "inertia.h"
#include "inertia_check.h"
#include "inertia_lines.h"
#include "inertia_show.h"
#include "paramio.h"

#define TENSOR_LINE \
    "TENSOR: --ixx I [--ixy I] [--ixz I] --iyy I [--iyz I] --izz I --mass M\n"

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
    "'phys-inertia COMMAND --help' describes one command; see phys-inertia(1).\n"
    "\n"
    "  -q, --quiet      no warnings (every command)\n"
    "  -h, --help       show this help\n"
    "  -V, --version    show the version\n";

static const char shape_help[] =
    "\n"
    "Prints the inertia line of a uniform body about its centre of mass;\n"
    "cylinders and capsules lie along z, L is the length of the straight\n"
    "part, A B C are semi-axes.\n"
    "  --density RHO   kg/m^3; kg/m^2 for the hollow shapes (thin shells)\n"
    "  --mass M        kg\n";

static const char principal_help[] =
    "\n"
    TENSOR_LINE
    "\n"
    "For each inertia line: {\"mass\",\"valid\",\"moments\":[I1,I2,I3],\"quat\",\n"
    "\"rpy\"}, moments ascending, I = R diag(moments) R^T with R's columns the\n"
    "axes. A line with a pose also gets the pose of the principal frame.\n"
    "An invalid inertia (as check says) gets \"valid\":false and a \"reason\",\n"
    "and makes the exit status 1.\n"
    "  --ixx I ... --mass M   one tensor from the command line\n";

static const char box_equivalent_help[] =
    "\n"
    TENSOR_LINE
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
    "  --size-factor S[,S,S] resize by S, or by SX,SY,SZ along x, y, z\n";

static const char check_help[] =
    "\n"
    "One line per link of WORLD: its mass, whether its inertia is valid\n"
    "(mass > 0, positive definite, triangle inequality; tolerance 1e-9 of\n"
    "the largest moment), principal moments, equivalent box, the box its\n"
    "collision geometry spans and the density that implies, why a valid\n"
    "inertia is implausible (its box more than R times larger or smaller\n"
    "than its shapes', or a placeholder such as ixx = iyy = izz = 0.01 that\n"
    "they do not bear out), and warnings for mass or inertia ratios above R\n"
    "(default 10) across a joint; a link whose mesh cannot be read is\n"
    "checked without its geometry, and says why. Exit status 1 when any\n"
    "link is invalid or unread.\n"
    "  --ratio R   the ratio across a joint, or to the shapes, worth saying\n";

static const char fix_help[] =
    "\n"
    "WORLD with the inertial (mass, centre of mass, tensor) of each link\n"
    "whose inertia is not valid computed from its collision geometry as\n"
    "uniform solids, written on stdout or in place; each change is said\n"
    "on stderr. GLOBs select links (default: all links of models that are\n"
    "not static and have collision geometry). A link whose geometry gives\n"
    "no inertia (a mesh that is open or cannot be read) is left as it is\n"
    "and named with why; the rest are fixed, and the exit status is 1.\n"
    "  --all           every selected link, valid or not\n"
    "  --auto          write SDF 1.11 <inertial auto=\"true\"> instead of\n"
    "                  numbers (and <density> when given); links already\n"
    "                  automatic are computed as the loader does\n"
    "  --density RHO   kg/m^3 (default 1000)\n"
    "  --in-place      replace WORLD (via a temporary file)\n"
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

static int run_shape(int, char **, void *);
static int run_principal(int, char **, void *);
static int run_box_equivalent(int, char **, void *);
static int run_scale(int, char **, void *);
static int run_check(int, char **, void *);
static int run_fix(int, char **, void *);
static int run_show(int, char **, void *);

/*
 * The subcommands after the shapes', whose come from the shape table.
 * The usage block is also the SYNOPSIS of phys-inertia(1): the test suite
 * compares the two.
 */
static const struct phys_subcommand tools[] = {
	{ "principal", run_principal,
	    "phys-inertia principal [FILE | TENSOR]\n", principal_help, NULL },
	{ "box-equivalent", run_box_equivalent,
	    "phys-inertia box-equivalent [FILE | TENSOR]\n",
	    box_equivalent_help, NULL },
	{ "scale", run_scale,
	    "phys-inertia scale [--density-factor K | --fixed-density | --mass M |\n"
	    "                    --mass-factor K] [--size-factor S[,S,S]] [FILE]\n",
	    scale_help, NULL },
	{ "check", run_check, "phys-inertia check [--ratio R] WORLD\n",
	    check_help, NULL },
	{ "fix", run_fix, "phys-inertia fix [--in-place] [--all] [--auto] "
	    "[--density RHO |\n                 --keep-mass] WORLD [GLOB...]\n",
	    fix_help, NULL },
	{ "show", run_show, "phys-inertia show [--ratio R] [--script FILE] "
	    "-o FILE.png|FILE.svg WORLD\n", show_help, NULL },
};
#define NTOOLS (sizeof tools / sizeof tools[0])

/* The shapes' subcommands, then the tools', then the end. */
static struct phys_subcommand subcommands[PHYS_NSHAPES + NTOOLS + 1];

static const struct phys_command command = {
	subcommands,
	"phys-inertia --help | --version\n"
	TENSOR_LINE,
	help_text
};

/* The subcommand being run, whose usage a usage error shows. */
static const struct phys_subcommand *current;

/* The table: "phys-inertia box X Y Z (--density RHO | --mass M)" and so
 * on for each shape, then the tools. */
static void
make_table(void)
{
	static struct phys_buf usage[PHYS_NSHAPES];
	const struct phys_shape_info *info;
	int k, i;

	for (k = 0; k < PHYS_NSHAPES; k++) {
		info = phys_shape_info(k);
		phys_buf_printf(&usage[k], "phys-inertia %s", info->name);
		for (i = 0; i < info->ndims; i++)
			phys_buf_printf(&usage[k], " %s", info->dims[i]);
		phys_buf_puts(&usage[k], " (--density RHO | --mass M)\n");
		subcommands[k] = (struct phys_subcommand){ info->name,
		    run_shape, usage[k].s, shape_help, NULL };
	}
	for (k = 0; k < (int)NTOOLS; k++)
		subcommands[PHYS_NSHAPES + k] = tools[k];
}

static const char *
usage_text(void)
{
	return phys_command_usage(&command, current);
}

/* "phys-inertia: what is wrong", then the usage; exit 2. */
#define usage_error(...) phys_usage_error(usage_text(), __VA_ARGS__)

static double
number_arg(const char *what, const char *s)
{
	return phys_arg_number(usage_text(), what, s, -HUGE_VAL, true);
}

static double
positive_arg(const char *what, const char *s)
{
	return phys_arg_number(usage_text(), what, s, 0, false);
}

/* Each inertia line of path through fn, the results on stdout. */
static int
filter_lines(const char *path, phys_inertia_line_fn fn, const void *ctx)
{
	int rc;

	if (!path || strcmp(path, "-") == 0)
		phys_stdin_hint("inertia lines");
	rc = phys_inertia_filter(path, fn, ctx, stdout);
	if (rc < 0)
		phys_report();
	return rc != 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* One inertia given as options rather than lines. */
struct tensor_opts {
	double v[7];		/* mass ixx iyy izz ixy ixz iyz */
	bool set[7];
};

enum {
	OPT_MASS = 1,		/* OPT_MASS + k sets tensor_opts.v[k] */
	OPT_VERSION = 'V',	/* -V and --version */
	OPT_DENSITY,
	OPT_DENSITY_FACTOR,
	OPT_FIXED_DENSITY,
	OPT_MASS_FACTOR,
	OPT_SIZE,
	OPT_RATIO,
	OPT_KEEP_MASS,
	OPT_AUTO,
	OPT_ALL,
	OPT_SCRIPT,
	OPT_SIZE_FACTOR,
	OPT_IN_PLACE,
	OPT_HELP = 'h',		/* -h and --help */
	OPT_QUIET = 'q'		/* -q and --quiet */
};

/* --help (the command's, or the subcommand's once it is read), --quiet,
 * --version, and any other option, which getopt_long refused. */
static void
common_option(int c, char **argv, const struct option *longopts)
{
	if (c == OPT_HELP)
		phys_command_help(&command, current);
	if (c == OPT_VERSION)
		phys_version();
	if (c != OPT_QUIET)
		phys_option_error(c, argv, longopts);
	phys_set_quiet(true);
}

static const char *const tensor_names[7] = {
	"--mass", "--ixx", "--iyy", "--izz", "--ixy", "--ixz", "--iyz"
};

/* Lines from FILE through fn, or the one inertia the options give. */
static int
run_lines(int argc, char **argv, phys_inertia_line_fn fn)
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
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct tensor_opts t = { { 0 }, { false } };
	struct phys_buf out = { 0 };
	phys_inertia in;
	bool any = false;
	int c, k;

	while ((c = getopt_long(argc, argv, ":hqV", longopts, NULL)) != -1) {
		if (c >= OPT_MASS && c < OPT_MASS + 7) {
			k = c - OPT_MASS;
			t.v[k] = number_arg(tensor_names[k], optarg);
			t.set[k] = any = true;
		} else {
			common_option(c, argv, longopts);
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

static int
run_principal(int argc, char **argv, void *ctx)
{
	return run_lines(argc, argv, phys_inertia_principal_line);
}

static int
run_box_equivalent(int argc, char **argv, void *ctx)
{
	return run_lines(argc, argv, phys_inertia_box_line);
}

static phys_vec3
size_arg(const char *s)
{
	phys_vec3 f;

	switch (phys_inertia_size_factors(s, &f)) {
	case -1:
		usage_error("--size-factor: expected S or SX,SY,SZ: '%s'", s);
	case -2:
		usage_error("--size-factor: factors must be positive: '%s'", s);
	}
	return f;
}

static int
run_scale(int argc, char **argv, void *ctx)
{
	static const struct option longopts[] = {
		{ "density-factor", required_argument, NULL,
		    OPT_DENSITY_FACTOR },
		{ "fixed-density", no_argument, NULL, OPT_FIXED_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "mass", required_argument, NULL, OPT_MASS },
		{ "mass-factor", required_argument, NULL, OPT_MASS_FACTOR },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "size-factor", required_argument, NULL, OPT_SIZE_FACTOR },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_inertia_scaling o = { { 1, 1, 1 }, PHYS_MASS_KEEP, 1 };
	int c, modes = 0;

	while ((c = getopt_long(argc, argv, ":hqV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DENSITY_FACTOR:
			o.rule = PHYS_MASS_DENSITY_FACTOR;
			o.value = positive_arg("--density-factor", optarg);
			modes++;
			break;
		case OPT_FIXED_DENSITY:
			o.rule = PHYS_MASS_FIXED_DENSITY;
			modes++;
			break;
		case OPT_MASS:
			o.rule = PHYS_MASS_NEW;
			o.value = positive_arg("--mass", optarg);
			modes++;
			break;
		case OPT_MASS_FACTOR:
			o.rule = PHYS_MASS_FACTOR;
			o.value = positive_arg("--mass-factor", optarg);
			modes++;
			break;
		case OPT_SIZE:
			phys_deprecated("--size", "--size-factor",
			    PHYS_MEANS_SIZE);
			/* FALLTHROUGH */
		case OPT_SIZE_FACTOR:
			o.size = size_arg(optarg);
			break;
		default:
			common_option(c, argv, longopts);
		}
	}
	phys_options_done();
	if (modes > 1)
		usage_error("give only one of --density-factor, "
		    "--fixed-density, --mass and --mass-factor");
	if (argc - optind > 1)
		usage_error("too many operands");
	return filter_lines(optind < argc ? argv[optind] : NULL,
	    phys_inertia_scale_line, &o);
}

static int
run_shape(int argc, char **argv, void *ctx)
{
	static const struct option longopts[] = {
		{ "density", required_argument, NULL, OPT_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "mass", required_argument, NULL, OPT_MASS },
		{ "quiet", no_argument, NULL, OPT_QUIET },
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
	s.kind = phys_shape_lookup(current->name);
	info = phys_shape_info(s.kind);
	while ((c = getopt_long(argc, argv, ":hqV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DENSITY:
			density = positive_arg("--density", optarg);
			break;
		case OPT_MASS:
			mass = positive_arg("--mass", optarg);
			break;
		default:
			common_option(c, argv, longopts);
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

/* Each link checked without its geometry, said: the world does not load
 * as it is. How many. */
static size_t
unread_links(const struct phys_scene *w)
{
	size_t i, n = 0;

	for (i = 0; i < w->nlinks; i++)
		if (w->links[i].lost) {
			phys_warn("%s; link '%s' checked without its geometry",
			    w->links[i].lost, w->links[i].name);
			n++;
		}
	return n;
}

static int
run_check(int argc, char **argv, void *ctx)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_buf b = { 0 };
	struct phys_load_options lo;
	struct phys_scene w;
	double limit = 10;
	size_t bad;
	int c;

	while ((c = getopt_long(argc, argv, ":hqV", longopts, NULL)) != -1)
		switch (c) {
		case OPT_RATIO:
			limit = positive_arg("--ratio", optarg);
			break;
		default:
			common_option(c, argv, longopts);
		}
	if (argc - optind != 1)
		usage_error("check needs one WORLD");
	/* a mesh not on this machine costs its link's geometry (said on
	 * the link's line), not the check of every inertia */
	phys_load_options_default(&lo);
	lo.quiet = lo.skip_unsupported = lo.skip_missing = true;
	lo.doubts = true;
	lo.inertia_as_written = true;	/* a moment below 0 is reported */
	if (phys_world_open_with(&w, argv[optind], &lo) < 0)
		return PHYS_EXIT_FAIL;
	bad = phys_inertia_check_world(&w, limit, &b);
	if (b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
		bad++;
	bad += unread_links(&w);
	phys_buf_free(&b);
	phys_world_free(&w);
	return bad ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
run_fix(int argc, char **argv, void *ctx)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, OPT_ALL },
		{ "auto", no_argument, NULL, OPT_AUTO },
		{ "density", required_argument, NULL, OPT_DENSITY },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "in-place", no_argument, NULL, OPT_IN_PLACE },
		{ "keep-mass", no_argument, NULL, OPT_KEEP_MASS },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_inertia_fix o = { .density = 1000 };
	struct phys_load_options lo;
	struct phys_scene w;
	bool in_place = false;
	int c, rc, left;

	while ((c = getopt_long(argc, argv, ":hiqV", longopts, NULL)) != -1)
		switch (c) {
		case OPT_DENSITY:
			o.density = positive_arg("--density", optarg);
			o.density_given = true;
			break;
		case OPT_KEEP_MASS:
			o.keep_mass = true;
			break;
		case OPT_AUTO:
			o.automatic = true;
			break;
		case OPT_ALL:
			o.all = true;
			break;
		case 'i':
			phys_deprecated("-i", "--in-place", PHYS_MEANS_ITEMS);
			/* FALLTHROUGH */
		case OPT_IN_PLACE:
			in_place = true;
			break;
		default:
			common_option(c, argv, longopts);
		}
	phys_options_done();
	if (o.keep_mass && o.density_given)
		usage_error("give --density or --keep-mass, not both");
	if (argc - optind < 1)
		usage_error("fix needs a WORLD");
	/* a mesh that cannot be read costs its link, not the others */
	phys_load_options_default(&lo);
	lo.quiet = lo.skip_unsupported = lo.skip_missing = true;
	lo.doubts = true;
	lo.inertia_as_written = true;	/* a moment below 0 is fixed */
	if (phys_world_open_edit_with(&w, argv[optind], in_place, &lo) < 0)
		return PHYS_EXIT_FAIL;
	o.globs = argv + optind + 1;
	o.nglobs = (size_t)(argc - optind - 1);
	left = phys_inertia_fix_world(&w, &o);
	rc = left < 0 ? -1 : phys_world_write(&w, in_place);
	if (rc < 0)
		phys_report();
	phys_world_free(&w);
	return rc < 0 || left > 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
run_show(int argc, char **argv, void *ctx)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "output", required_argument, NULL, 'o' },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "script", required_argument, NULL, OPT_SCRIPT },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct phys_show_options o = { NULL, NULL, NULL, 2 };
	const char *script = NULL;
	struct phys_scene w;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":ho:qV", longopts, NULL)) != -1)
		switch (c) {
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
			common_option(c, argv, longopts);
		}
	if (!o.output)
		usage_error("show needs -o FILE.png or -o FILE.svg");
	if (argc - optind != 1)
		usage_error("show needs one WORLD");
	if (!(o.terminal = phys_inertia_show_terminal(o.output)))
		usage_error("-o: '%s' is neither .png nor .svg", o.output);
	if (phys_world_open(&w, argv[optind], false) < 0)
		return PHYS_EXIT_FAIL;
	o.title = phys_display_name(argv[optind]);
	rc = script ? phys_inertia_show_save_script(&w, &o, script) :
	    phys_inertia_show_draw(&w, &o);
	phys_world_free(&w);
	if (rc < 0)
		phys_report();
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc, rc2;

	phys_setprog("phys-inertia");
	phys_stdout_init();
	make_table();
	opterr = 0;
	/* Options before the command: only --help, --quiet and --version. */
	while ((c = getopt_long(argc, argv, "+:hqV", longopts, NULL)) != -1)
		common_option(c, argv, longopts);
	if (optind >= argc)
		usage_error("missing command");
	if (!(current = phys_command_find(&command, argv[optind])))
		phys_command_unknown(&command, argv[optind]);
	argc -= optind;
	argv += optind;
	optind = 0;	/* the command's own options, from its name on */
	rc = current->run(argc, argv, NULL);
	rc2 = phys_close_stdout();
	return rc ? rc : rc2;
}
