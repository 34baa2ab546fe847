/* phys-preset - manage the named <physics> profiles of a world. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "paramio.h"
#include "preset.h"

#define ENGINE_OPTIONS \
    "      --copy PRESET   copy the new profile from PRESET\n" \
    "      --engine ENGINE add a profile for ENGINE (ode, bullet, mujoco,\n" \
    "                      simbody, dart), carrying over from PRESET what\n" \
    "                      means the same there\n"
#define IN_PLACE_OPTION \
    "      --in-place      replace WORLD (via a temporary file)\n"

static const char help_text[] =
    "\n"
    "List, show, switch, add, remove, rename, export, import and compare\n"
    "the physics profiles (<physics> blocks) of an SDF world. Commands that\n"
    "change the world write it on stdout, or in place with --in-place. A\n"
    "world whose includes do not resolve is read without their models.\n"
    "\n"
    "  -1                  list bare profile names, one a line\n"
    ENGINE_OPTIONS
    IN_PLACE_OPTION
    "  -q, --quiet         no warnings\n"
    "  -h, --help          show this help\n"
    "  -V, --version       show the version\n";

static const char list_help[] =
    "\n"
    "One JSON line per profile, in file order: its name, type, whether it\n"
    "is marked default and whether a run starts in it.\n"
    "  -1                  bare profile names, one a line\n";

static const char show_help[] =
    "\n"
    "The parameter lines of profile NAME: the shared parameters and those\n"
    "of its engine.\n";

static const char use_help[] =
    "\n"
    "WORLD with NAME the one profile marked default, the one a run starts\n"
    "in; on stdout, or in place with --in-place.\n"
    IN_PLACE_OPTION;

static const char add_help[] =
    "\n"
    "WORLD with a new profile NAME after the last one: a copy of PRESET,\n"
    "or the specification's defaults, with each NAME=VALUE set in it.\n"
    ENGINE_OPTIONS
    IN_PLACE_OPTION;

static const char remove_help[] =
    "\n"
    "WORLD without profile NAME.\n"
    IN_PLACE_OPTION;

static const char rename_help[] =
    "\n"
    "WORLD with profile OLD named NEW, a name not taken.\n"
    IN_PLACE_OPTION;

static const char export_help[] =
    "\n"
    "Profile NAME as a standalone <physics> element, as written in WORLD.\n";

static const char import_help[] =
    "\n"
    "WORLD with every <physics> block of FILE (a snippet or a whole world)\n"
    "added as profiles after the last one.\n"
    IN_PLACE_OPTION;

static const char diff_help[] =
    "\n"
    "The parameters whose values differ between profiles A and B, a line\n"
    "each with both values. Exit 0 when they agree, 1 when they differ, 2\n"
    "on trouble.\n";

enum { OPT_COPY = 256, OPT_ENGINE, OPT_FROM, OPT_IN_PLACE };

static int cmd_list(int, char **, void *);
static int cmd_show(int, char **, void *);
static int cmd_use(int, char **, void *);
static int cmd_add(int, char **, void *);
static int cmd_remove(int, char **, void *);
static int cmd_rename(int, char **, void *);
static int cmd_export(int, char **, void *);
static int cmd_import(int, char **, void *);
static int cmd_diff(int, char **, void *);

/* The usage lines are also the SYNOPSIS of phys-preset(1). */
static const struct phys_subcommand subcommands[] = {
	{ "list", cmd_list, "phys-preset list [-1] WORLD\n", list_help, NULL },
	{ "show", cmd_show, "phys-preset show NAME WORLD\n", show_help, NULL },
	{ "use", cmd_use, "phys-preset use [--in-place] NAME WORLD\n", use_help,
	    NULL },
	{ "add", cmd_add,
	    "phys-preset add [--in-place] [--engine ENGINE] [--copy PRESET]\n"
	    "                NAME [NAME=VALUE...] WORLD\n", add_help, NULL },
	{ "remove", cmd_remove, "phys-preset remove [--in-place] NAME WORLD\n",
	    remove_help, NULL },
	{ "rename", cmd_rename,
	    "phys-preset rename [--in-place] OLD NEW WORLD\n", rename_help,
	    NULL },
	{ "export", cmd_export, "phys-preset export NAME WORLD\n", export_help,
	    NULL },
	{ "import", cmd_import, "phys-preset import [--in-place] FILE WORLD\n",
	    import_help, NULL },
	{ "diff", cmd_diff, "phys-preset diff A B WORLD\n", diff_help, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const struct phys_command command = { subcommands, NULL, help_text };

/* The subcommand being run, once its name is read. */
static const struct phys_subcommand *current;

static const struct option longopts[] = {
	{ "copy", required_argument, NULL, OPT_COPY },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	bool bare, in_place;
	const char *from, *engine;
};

static struct phys_scene world;
/* The exit status of a world that cannot be read: diff, like diff(1),
 * keeps 1 for "they differ" and exits 2 on trouble. */
static int trouble = PHYS_EXIT_FAIL;

/* Exit 2 unless the subcommand has n operands (at least n when more
 * may follow): "NAME: needs what", then its usage. */
static void
operands(int argc, int n, bool more, const char *what)
{
	if (more ? argc < n : argc != n)
		phys_usage_error(phys_command_usage(&command, current),
		    "%s needs %s", current->name, what);
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1)
		switch (c) {
		case '1':
			o->bare = true;
			break;
		case 'e':
			phys_deprecated("-e", "--engine", PHYS_MEANS_EVERY);
			/* FALLTHROUGH */
		case OPT_ENGINE:
			o->engine = optarg;
			break;
		case 'f':
		case OPT_FROM:
			phys_deprecated(c == 'f' ? "-f" : "--from", "--copy",
			    c == 'f' ? PHYS_MEANS_FILE : PHYS_MEANS_FROM);
			/* FALLTHROUGH */
		case OPT_COPY:
			o->from = optarg;
			break;
		case 'i':
			phys_deprecated("-i", "--in-place", PHYS_MEANS_ITEMS);
			/* FALLTHROUGH */
		case OPT_IN_PLACE:
			o->in_place = true;
			break;
		case 'q':
			phys_set_quiet(true);
			break;
		case 'h':
			phys_command_help(&command, current);
		case 'V':
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
}

/*
 * Profiles need no models: a world whose includes are not on this
 * machine is read without them, with one warning; its meshes need not be
 * there either, and what is said about its models is left to the
 * commands that use them (phys_preset_load).
 */
static void
load_options(struct phys_load_options *lo)
{
	phys_load_options_default(lo);
	lo->skip_unsupported = true;
	lo->skip_missing = true;
	lo->partial = true;
}

static void
load(const char *path)
{
	struct phys_load_options lo;

	load_options(&lo);
	if (phys_preset_load(&world, path, &lo) < 0) {
		phys_report();
		phys_world_free(&world);
		exit(trouble);
	}
	phys_world_engines(&world);	/* which a gz-sim profile runs */
}

/* A named profile, or exit 2 listing the names there are. */
static int
profile(const char *name)
{
	int p = phys_world_find_profile(&world, name);

	if (p < 0) {
		phys_report();
		exit(PHYS_EXIT_USAGE);
	}
	return p;
}

static int
done(int rc, const struct opts *o, bool writes)
{
	if (rc >= 0 && writes)
		rc = phys_world_write(&world, o->in_place);
	if (rc < 0)
		phys_report();
	phys_world_free(&world);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* Lines the library wrote into b, on stdout. */
static void
put(struct phys_buf *b)
{
	fwrite(b->s ? b->s : "", 1, b->len, stdout);
	phys_buf_free(b);
}

static int
cmd_list(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct phys_buf b = { 0 };

	operands(argc, 1, false, "one WORLD");
	load(argv[0]);
	phys_preset_list(&world, o->bare, &b);
	put(&b);
	return done(0, o, false);
}

static int
cmd_show(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct phys_buf b = { 0 };

	operands(argc, 2, false, "NAME and WORLD");
	load(argv[1]);
	phys_preset_show(&world, profile(argv[0]), &b);
	put(&b);
	return done(0, o, false);
}

static int
cmd_diff(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct phys_buf b = { 0 };
	bool differ;
	int pa, pb;

	operands(argc, 3, false, "A, B and WORLD");
	trouble = PHYS_EXIT_USAGE;
	load(argv[2]);
	pa = profile(argv[0]);
	pb = profile(argv[1]);
	phys_preset_diff(&world, pa, pb, &b);
	differ = b.len > 0;
	put(&b);
	if (done(0, o, false) != PHYS_EXIT_OK)
		return PHYS_EXIT_USAGE;
	return differ ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
cmd_export(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	char *text;

	operands(argc, 2, false, "NAME and WORLD");
	load(argv[1]);
	text = phys_preset_export(&world, profile(argv[0]));
	if (text)
		printf("%s\n", text);
	free(text);
	return done(text ? 0 : -1, o, false);
}

/* The world to change, opened for writing back. */
static void
open_edit(const struct opts *o, const char *path)
{
	struct phys_load_options lo;

	load_options(&lo);
	if (o->in_place && phys_edit_lock(path) < 0) {
		phys_report();
		exit(PHYS_EXIT_FAIL);
	}
	if (phys_preset_load(&world, path, &lo) < 0) {
		phys_report();
		phys_world_free(&world);
		exit(PHYS_EXIT_FAIL);
	}
}

static int
cmd_use(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;

	operands(argc, 2, false, "NAME and WORLD");
	open_edit(o, argv[1]);
	return done(phys_preset_use(&world, profile(argv[0])), o, true);
}

static int
cmd_add(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;

	operands(argc, 2, true, "NAME and WORLD");
	open_edit(o, argv[argc - 1]);
	return done(phys_preset_add(&world, argv[0],
	    o->from ? profile(o->from) : -1, o->engine, argv + 1,
	    (size_t)(argc - 2)), o, true);
}

static int
cmd_remove(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;

	operands(argc, 2, false, "NAME and WORLD");
	open_edit(o, argv[1]);
	return done(phys_preset_remove(&world, profile(argv[0])), o, true);
}

static int
cmd_rename(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;

	operands(argc, 3, false, "OLD, NEW and WORLD");
	open_edit(o, argv[2]);
	return done(phys_preset_rename(&world, profile(argv[0]), argv[1]), o,
	    true);
}

static int
cmd_import(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;

	operands(argc, 2, false, "FILE and WORLD");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "FILE and WORLD cannot both be "
		    "standard input");
	open_edit(o, argv[1]);
	return done(phys_preset_import(&world, argv[0]), o, true);
}

int
main(int argc, char **argv)
{
	const struct phys_subcommand *sub;
	struct opts o = { 0 };
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	if (!(sub = phys_command_split(&command, &current, &argc, &argv,
	    ":h1e:f:iqV", parse_options, &o)))
		phys_usage(phys_command_usage(&command, NULL));
	rc = sub->run(argc, argv, &o);
	/* diff, like diff(1), keeps 1 for "they differ", 2 for trouble */
	if (sub->run == cmd_diff)
		return phys_close_stdout() == PHYS_EXIT_OK ? rc :
		    PHYS_EXIT_USAGE;
	return rc | phys_close_stdout();
}
