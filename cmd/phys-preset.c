/* phys-preset - manage the named <physics> profiles of a world. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "paramio.h"
#include "preset.h"

static const char usage_text[] =
    "usage: phys-preset list [-1] WORLD\n"
    "       phys-preset show NAME WORLD\n"
    "       phys-preset use [-i] NAME WORLD\n"
    "       phys-preset add [-i] [--engine ENGINE] [--from PRESET] NAME\n"
    "                       [NAME=VALUE...] WORLD\n"
    "       phys-preset remove [-i] NAME WORLD\n"
    "       phys-preset rename [-i] OLD NEW WORLD\n"
    "       phys-preset export NAME WORLD\n"
    "       phys-preset import [-i] FILE WORLD\n"
    "       phys-preset diff A B WORLD\n";

static const char help_text[] =
    "\n"
    "List, show, switch, add, remove, rename, export, import and compare\n"
    "the physics profiles (<physics> blocks) of an SDF world. Commands that\n"
    "change the world write it on stdout, or in place with -i.\n"
    "\n"
    "  -1                  list bare profile names, one a line\n"
    "  -e, --engine ENGINE add a profile for ENGINE (ode, bullet, simbody,\n"
    "                      dart), carrying over from PRESET what means the\n"
    "                      same there\n"
    "  -f, --from PRESET   copy the new profile from PRESET\n"
    "  -i, --in-place      replace WORLD (via a temporary file)\n"
    "  -h, --help          show this help\n"
    "      --version       show the version\n";

enum { OPT_VERSION = 256 };

static const struct option longopts[] = {
	{ "engine", required_argument, NULL, 'e' },
	{ "from", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, 'i' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const commands[] = {
	"list", "show", "use", "add", "remove", "rename", "export", "import",
	"diff", NULL
};

struct opts {
	bool bare, in_place;
	const char *from, *engine;
};

static struct phys_world world;
/* The exit status of a world that cannot be read: diff, like diff(1),
 * keeps 1 for "they differ" and exits 2 on trouble. */
static int trouble = PHYS_EXIT_FAIL;

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
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
			o->engine = optarg;
			break;
		case 'f':
			o->from = optarg;
			break;
		case 'i':
			o->in_place = true;
			break;
		case 'h':
			phys_help(usage_text, help_text);
		case OPT_VERSION:
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
}

static void
load(const char *path)
{
	if (phys_world_open(&world, path, true) < 0)
		exit(trouble);
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

/* A gz-sim profile names no engine: ,"engine":"ode" says which runs it
 * (and ,"gz_engine" the one its physics plugin names). */
static void
put_gz_engine(struct phys_buf *b, const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_profile_engine(p);

	if (!p->gz_placeholder)
		return;
	phys_buf_puts(b, ",\"engine\":");
	phys_buf_json_string(b, e ? e->type : "");
	if (p->gz_plugin) {
		phys_buf_puts(b, ",\"gz_plugin\":");
		phys_buf_json_string(b, p->gz_plugin);
	}
}

/* The engine bit of what runs a profile: its type's, or a gz-sim
 * profile's engine. */
static unsigned
profile_engine_bit(const struct phys_profile *p)
{
	const struct phys_engine_info *e = phys_profile_engine(p);

	return phys_engine_bit(e ? e->type : p->type);
}

static int
cmd_list(const struct opts *o, int argc, char **argv)
{
	struct phys_buf b = { 0 };
	size_t i;

	if (argc != 1)
		usage();
	load(argv[0]);
	for (i = 0; i < world.nprofiles; i++) {
		struct phys_profile *p = &world.profiles[i];

		if (o->bare) {
			phys_buf_puts(&b, p->name);
			phys_buf_putc(&b, '\n');
			continue;
		}
		phys_buf_puts(&b, "{\"name\":");
		phys_buf_json_string(&b, p->name);
		phys_buf_puts(&b, ",\"type\":");
		phys_buf_json_string(&b, p->type);
		put_gz_engine(&b, p);
		phys_buf_printf(&b, ",\"default\":%s,\"start\":%s}\n",
		    p->marked_default ? "true" : "false",
		    (int)i == world.start ? "true" : "false");
	}
	fwrite(b.s ? b.s : "", 1, b.len, stdout);
	phys_buf_free(&b);
	return done(0, o, false);
}

/* Parameters that matter to the profile's engine: shared ones and its own. */
static bool
relevant(const struct phys_param *p, unsigned engine)
{
	return p->engines == PHYS_E_ALL || (p->engines & engine);
}

static int
cmd_show(const struct opts *o, int argc, char **argv)
{
	struct phys_buf b = { 0 };
	struct phys_ref r;
	unsigned engine;
	size_t i;

	if (argc != 2)
		usage();
	load(argv[1]);
	r.idx = profile(argv[0]);
	r.scope = PHYS_S_PHYSICS;
	engine = profile_engine_bit(&world.profiles[r.idx]);
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		r.p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (relevant(r.p, engine ? engine : PHYS_E_ALL))
			phys_param_line(&b, &world, &r,
			    &world.profiles[r.idx].vals[i], PHYS_PL_PRESET, NULL);
	}
	fwrite(b.s ? b.s : "", 1, b.len, stdout);
	phys_buf_free(&b);
	return done(0, o, false);
}

static int
cmd_diff(const struct opts *o, int argc, char **argv)
{
	struct phys_buf b = { 0 };
	struct phys_profile *pa, *pb;
	const struct phys_param *p;
	unsigned engines;
	size_t i;
	bool differ;

	if (argc != 3)
		usage();
	trouble = PHYS_EXIT_USAGE;
	load(argv[2]);
	pa = &world.profiles[profile(argv[0])];
	pb = &world.profiles[profile(argv[1])];
	if (strcmp(pa->type, pb->type) != 0) {
		phys_buf_puts(&b, "{\"name\":\"type\",\"type\":\"string\",\"values\":{");
		phys_buf_json_string(&b, pa->name);
		phys_buf_putc(&b, ':');
		phys_buf_json_string(&b, pa->type);
		phys_buf_putc(&b, ',');
		phys_buf_json_string(&b, pb->name);
		phys_buf_putc(&b, ':');
		phys_buf_json_string(&b, pb->type);
		phys_buf_puts(&b, "}}\n");
	}
	engines = profile_engine_bit(pa) | profile_engine_bit(pb);
	for (i = 0; i < phys_scope_count(PHYS_S_PHYSICS); i++) {
		p = phys_scope_param(PHYS_S_PHYSICS, i);
		if (!relevant(p, engines) ||
		    phys_value_equal(p, &pa->vals[i], &pb->vals[i]))
			continue;
		phys_buf_puts(&b, "{\"name\":");
		phys_buf_json_string(&b, p->name);
		phys_buf_puts(&b, ",\"type\":");
		phys_buf_json_string(&b, phys_type_name(p->type));
		phys_buf_puts(&b, ",\"values\":{");
		phys_buf_json_string(&b, pa->name);
		phys_buf_putc(&b, ':');
		phys_value_json(p, &pa->vals[i], &b);
		phys_buf_putc(&b, ',');
		phys_buf_json_string(&b, pb->name);
		phys_buf_putc(&b, ':');
		phys_value_json(p, &pb->vals[i], &b);
		phys_buf_puts(&b, "}}\n");
	}
	fwrite(b.s ? b.s : "", 1, b.len, stdout);
	differ = b.len > 0;
	phys_buf_free(&b);
	if (done(0, o, false) != PHYS_EXIT_OK)
		return PHYS_EXIT_USAGE;
	return differ ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

static int
cmd_export(const struct opts *o, int argc, char **argv)
{
	char *text;

	if (argc != 2)
		usage();
	load(argv[1]);
	text = phys_preset_export(&world, profile(argv[0]));
	if (text)
		printf("%s\n", text);
	free(text);
	return done(text ? 0 : -1, o, false);
}

static int
cmd_edit(const char *cmd, const struct opts *o, int argc, char **argv)
{
	int rc;

	if (argc < 2)
		usage();
	if (strcmp(cmd, "import") == 0 && strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[argc - 1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "FILE and WORLD cannot both be "
		    "standard input");
	if (phys_world_open_edit(&world, argv[argc - 1], o->in_place, true) < 0)
		exit(PHYS_EXIT_FAIL);
	if (strcmp(cmd, "use") == 0 && argc == 2)
		rc = phys_preset_use(&world, profile(argv[0]));
	else if (strcmp(cmd, "remove") == 0 && argc == 2)
		rc = phys_preset_remove(&world, profile(argv[0]));
	else if (strcmp(cmd, "rename") == 0 && argc == 3)
		rc = phys_preset_rename(&world, profile(argv[0]), argv[1]);
	else if (strcmp(cmd, "import") == 0 && argc == 2)
		rc = phys_preset_import(&world, argv[0]);
	else if (strcmp(cmd, "add") == 0)
		rc = phys_preset_add(&world, argv[0],
		    o->from ? profile(o->from) : -1, o->engine, argv + 1,
		    (size_t)(argc - 2));
	else
		usage();
	return done(rc, o, true);
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *cmd;
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	if (!(cmd = phys_split_command(&argc, &argv, ":h1e:f:i", parse_options,
	    &o)))
		usage();
	if (strcmp(cmd, "list") == 0)
		return cmd_list(&o, argc, argv) | phys_close_stdout();
	if (strcmp(cmd, "show") == 0)
		return cmd_show(&o, argc, argv) | phys_close_stdout();
	if (strcmp(cmd, "diff") == 0) {
		rc = cmd_diff(&o, argc, argv);
		return phys_close_stdout() == PHYS_EXIT_OK ? rc :
		    PHYS_EXIT_USAGE;
	}
	if (strcmp(cmd, "export") == 0)
		return cmd_export(&o, argc, argv) | phys_close_stdout();
	if (strcmp(cmd, "use") == 0 || strcmp(cmd, "add") == 0 ||
	    strcmp(cmd, "remove") == 0 || strcmp(cmd, "rename") == 0 ||
	    strcmp(cmd, "import") == 0)
		return cmd_edit(cmd, &o, argc, argv) | phys_close_stdout();
	phys_unknown_command(cmd, commands);
}
