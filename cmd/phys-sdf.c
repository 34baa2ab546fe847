/* phys-sdf - check a world against the specification, or print it whole. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sdfprint.h"

static const char usage_text[] =
    "usage: phys-sdf check [WORLD | -]\n"
    "       phys-sdf print [WORLD | -]\n"
    "       phys-sdf world [--ground] MODEL\n";

static const char help_text[] =
    "\n"
    "check: report what is wrong with an SDF world and the models it\n"
    "includes, one JSON line per finding, in file order: elements and\n"
    "attributes the specification of the file's version does not know,\n"
    "values of the wrong type or out of range, missing required elements,\n"
    "duplicate names, dangling references and impossible inertia. Exit 1\n"
    "when there is an error; warnings alone exit 0.\n"
    "\n"
    "print: write the world as one SDF file: includes resolved, and every\n"
    "pose relative to its parent model (or the world). A model file prints\n"
    "as a model file, a URDF as the SDF model it becomes.\n"
    "\n"
    "world: write a world that includes the model or URDF file MODEL: the\n"
    "default world of phys(7), which model files run in, to edit and run.\n"
    "\n"
    "      --ground        world: add Gazebo's ground plane\n"
    "  -h, --help          show this help\n"
    "      --version       show the version\n";

enum { OPT_VERSION = 256, OPT_GROUND };

static const char *const commands[] = { "check", "print", "world", NULL };

static const struct option longopts[] = {
	{ "ground", no_argument, NULL, OPT_GROUND },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	bool *ground = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1)
		switch (c) {
		case 'h':
			phys_help(usage_text, help_text);
		case OPT_VERSION:
			phys_version();
		case OPT_GROUND:
			*ground = true;
			break;
		default:
			phys_option_error(c, argv, longopts);
		}
}

static int
cmd_check(const char *path)
{
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

static int
cmd_print(const char *path, bool world, bool ground)
{
	struct phys_buf b = { 0 };
	int rc = PHYS_EXIT_OK;

	if ((world ? phys_sdf_world(path, ground, &b) :
	    phys_sdf_print(path, &b)) < 0) {
		phys_report();
		rc = PHYS_EXIT_FAIL;
	} else {
		fwrite(b.s, 1, b.len, stdout);
	}
	phys_buf_free(&b);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *cmd, *path;
	bool ground = false, world;
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	if (!(cmd = phys_split_command(&argc, &argv, ":h", parse_options,
	    &ground)))
		usage();
	if (strcmp(cmd, "check") != 0 && strcmp(cmd, "print") != 0 &&
	    strcmp(cmd, "world") != 0)
		phys_unknown_command(cmd, commands);
	world = strcmp(cmd, "world") == 0;
	if (ground && !world)
		phys_usage_error(usage_text, "--ground is world's option");
	if (argc > 1 || (world && argc != 1))
		phys_usage_error(usage_text, "%s takes one %s", cmd, world ?
		    "MODEL" : "WORLD");
	path = argc == 1 ? argv[0] : "-";
	if (world && strcmp(path, "-") == 0)
		phys_usage_error(usage_text, "world includes MODEL by its file "
		    "name: give a file, not standard input");
	if (strcmp(path, "-") == 0)
		phys_stdin_hint("an SDF world");
	if (strcmp(cmd, "check") == 0)
		rc = cmd_check(path);
	else
		rc = cmd_print(path, world, ground);
	if (phys_close_stdout() != PHYS_EXIT_OK)
		rc = PHYS_EXIT_FAIL;
	return rc;
}
