/* phys-sdf - check a world against the specification, print it whole, or
 * make a world for a model. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mjcfout.h"
#include "sdfprint.h"

#define CHECK_TEXT \
    "check: report what is wrong with an SDF world and the models it\n" \
    "includes, one JSON line per finding, in file order: elements and\n" \
    "attributes the specification of the file's version does not know,\n" \
    "values of the wrong type or out of range, missing required elements,\n" \
    "duplicate names, dangling references and impossible inertia. A MuJoCo\n" \
    "model (MJCF, root <mujoco>) is checked against MJCF's schema and the\n" \
    "rules MuJoCo 2.2.2's compiler refuses a model by. Exit 1 when there\n" \
    "is an error; warnings alone exit 0.\n"
#define PRINT_TEXT \
    "print: write the world as one SDF file: includes resolved, and every\n" \
    "pose relative to its parent model (or the world). A model file prints\n" \
    "as a model file, a URDF as the SDF model it becomes. With --format\n" \
    "mjcf, the world as a MuJoCo model (MJCF) instead: a body per link,\n" \
    "nested along the joints, masses in principal axes, the collisions as\n" \
    "geoms, the visuals as geoms that touch nothing, meshes MuJoCo reads\n" \
    "(OBJ, MSH, binary STL) by their path from the --output file's\n" \
    "directory (absolute on standard output), others as triangles, the\n" \
    "starting profile as <option>.\n"
#define WORLD_TEXT \
    "world: write a world that includes the model or URDF file MODEL: the\n" \
    "default world of phys(7), which model files run in, to edit and run;\n" \
    "for an MJCF model, the world its <option> makes.\n" \
    "The include names MODEL from the directory of the --output file, or\n" \
    "by its absolute path on standard output.\n"
#define FORMAT_TEXT \
    "      --format sdf|mjcf  print: the format written (default: sdf)\n"
#define GROUND_TEXT \
    "      --ground        world: add Gazebo's ground plane, the model\n" \
    "                      raised onto it where it would start below\n" \
    "  -o, --output FILE   print, world: write to FILE (whole, or not at all)\n" \
    "      --pose POSE     world: place the model at \"X Y Z [ROLL PITCH YAW]\"\n"

static const char help_text[] =
    "\n"
    CHECK_TEXT
    "\n"
    PRINT_TEXT
    "\n"
    WORLD_TEXT
    "\n"
    FORMAT_TEXT
    GROUND_TEXT
    "  -q, --quiet         no warnings\n"
    "  -h, --help          show this help\n"
    "  -V, --version       show the version\n";

static const char check_help[] = "\n" CHECK_TEXT;
static const char print_help[] = "\n" PRINT_TEXT "\n" FORMAT_TEXT
    "  -o, --output FILE   write to FILE (whole, or not at all)\n";
static const char world_help[] = "\n" WORLD_TEXT "\n" GROUND_TEXT;

enum { OPT_GROUND = 256, OPT_POSE, OPT_FORMAT };

/* What the options say; world's own are refused elsewhere. */
struct opts {
	struct phys_sdf_world_options world;
	bool world_only;	/* one of world's options was given */
	bool mjcf;		/* print --format mjcf */
	bool format_given;	/* --format, print's alone */
};

static int cmd_check(int, char **, void *);
static int cmd_print(int, char **, void *);
static int cmd_world(int, char **, void *);

/* The usage lines are also the SYNOPSIS of phys-sdf(1). */
static const struct phys_subcommand subcommands[] = {
	{ "check", cmd_check, "phys-sdf check [WORLD | -]\n", check_help,
	    NULL },
	{ "print", cmd_print, "phys-sdf print [--format sdf|mjcf] [-o FILE] "
	    "[WORLD | -]\n", print_help,
	    NULL },
	{ "world", cmd_world, "phys-sdf world [--ground] [--pose POSE] "
	    "[-o FILE] MODEL\n", world_help, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const struct phys_command command = { subcommands, NULL, help_text };

/* The subcommand being run, once its name is read. */
static const struct phys_subcommand *current;

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "ground", no_argument, NULL, OPT_GROUND },
	{ "help", no_argument, NULL, 'h' },
	{ "output", required_argument, NULL, 'o' },
	{ "pose", required_argument, NULL, OPT_POSE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1)
		switch (c) {
		case 'q':
			phys_set_quiet(true);
			break;
		case 'h':
			phys_command_help(&command, current);
		case 'V':
			phys_version();
		case OPT_FORMAT:
			if (strcmp(optarg, "sdf") != 0 &&
			    strcmp(optarg, "mjcf") != 0)
				phys_usage_error(phys_command_usage(&command,
				    current), "--format: '%s' is neither sdf "
				    "nor mjcf", optarg);
			o->mjcf = strcmp(optarg, "mjcf") == 0;
			o->format_given = true;
			break;
		case OPT_GROUND:
			o->world.ground = o->world_only = true;
			break;
		case 'o':
			o->world.output = optarg;
			break;
		case OPT_POSE:
			if (phys_sdf_world_pose(optarg, o->world.pose) < 0)
				phys_usage_error(phys_command_usage(&command,
				    current), "--pose: %s", phys_error());
			o->world.has_pose = o->world_only = true;
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
}

/* The one WORLD, or "-" for stdin; --ground and --pose are world's
 * alone, -o world's and print's. */
static const char *
world_operand(int argc, char **argv, const struct opts *o)
{
	const char *path = argc == 1 ? argv[0] : "-";

	if (o->world_only)
		phys_usage_error(phys_command_usage(&command, current),
		    "%s is world's option", o->world.ground ? "--ground" :
		    o->world.has_pose ? "--pose" : "--output");
	if (o->world.output && strcmp(current->name, "print") != 0)
		phys_usage_error(phys_command_usage(&command, current),
		    "--output is print's and world's option");
	if (argc > 1)
		phys_usage_error(phys_command_usage(&command, current),
		    "%s takes one WORLD", current->name);
	if (o->format_given && strcmp(current->name, "print") != 0)
		phys_usage_error(phys_command_usage(&command, current),
		    "--format is print's option");
	if (strcmp(path, "-") == 0)
		phys_stdin_hint("an SDF world");
	return path;
}

static int
cmd_check(int argc, char **argv, void *ctx)
{
	const char *path = world_operand(argc, argv, ctx);
	struct phys_findings f;
	struct phys_buf b = { 0 };
	int rc;

	phys_check_world(path, &f);
	phys_findings_json(&f, &b);
	if (b.len)
		fwrite(b.s, 1, b.len, stdout);
	rc = f.nerrors ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
	phys_buf_free(&b);
	phys_findings_free(&f);
	return rc;
}

static int write_file(const char *path, const struct phys_buf *b);

static int
cmd_print(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	const char *path = world_operand(argc, argv, o);
	struct phys_buf b = { 0 };
	int rc = PHYS_EXIT_OK;

	if ((o->mjcf ? phys_print_mjcf(path, o->world.output, &b) :
	    phys_sdf_print(path, &b)) < 0 ||
	    (o->world.output && write_file(o->world.output, &b) < 0)) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	} else if (!o->world.output) {
		fwrite(b.s, 1, b.len, stdout);
	}
	phys_buf_free(&b);
	return rc;
}

/* The world written whole or not at all. */
static int
write_file(const char *path, const struct phys_buf *b)
{
	struct phys_atomic a;

	if (phys_atomic_open(&a, path) < 0)
		return -1;
	if (b->len && fwrite(b->s, 1, b->len, a.fp) != b->len) {
		phys_atomic_abort(&a);
		return phys_fail("%s: write error", path);
	}
	return phys_atomic_commit(&a);
}

static int
cmd_world(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct phys_buf b = { 0 };
	int rc = PHYS_EXIT_OK;

	if (argc != 1)
		phys_usage_error(phys_command_usage(&command, current),
		    "world takes one MODEL");
	if (o->format_given)
		phys_usage_error(phys_command_usage(&command, current),
		    "--format is print's option");
	if (strcmp(argv[0], "-") == 0)
		phys_usage_error(phys_command_usage(&command, current),
		    "world includes MODEL by its file name: give a file, not "
		    "standard input");
	if (phys_sdf_world_with(argv[0], &o->world, &b) < 0 ||
	    (o->world.output && write_file(o->world.output, &b) < 0)) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	} else if (!o->world.output) {
		fwrite(b.s, 1, b.len, stdout);
	}
	phys_buf_free(&b);
	return rc;
}

int
main(int argc, char **argv)
{
	const struct phys_subcommand *sub;
	struct opts o;
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	memset(&o, 0, sizeof o);
	phys_sdf_world_options_default(&o.world);
	if (!(sub = phys_command_split(&command, &current, &argc, &argv,
	    ":ho:qV", parse_options, &o)))
		phys_usage(phys_command_usage(&command, NULL));
	rc = sub->run(argc, argv, &o);
	if (phys_close_stdout() != PHYS_EXIT_OK)
		rc = PHYS_EXIT_FAIL;
	return rc;
}
