/* phys-param - list, document, get and set named, typed parameters. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "engine.h"
#include "modelpose.h"
#include "paramio.h"
#include "paramset.h"
#include "preset.h"
#include "sim.h"

#define DOC_OPTION \
    "  -d, --doc           add default, range, engines and doc to each line\n"
#define FILE_OPTION \
    "  -f, --file FILE     read parameter lines (- for stdin) to set\n"
#define IN_PLACE_OPTION \
    "      --in-place      replace WORLD (via a temporary file)\n"
#define PRESET_OPTION \
    "  -p, --preset NAME   the physics profile (default: the starting one)\n"

static const char help_text[] =
    "\n"
    "Every physics, world, link, collision and joint parameter, by name.\n"
    "Names: ode.solver.iters (alias iters), gravity, box::link/inertial.mass,\n"
    "box::link::collision/surface.friction.ode.mu; globs select many.\n"
    "\n"
    "  list            the registry, or every parameter of WORLD with its value\n"
    "  get             parameter lines with the current values\n"
    "  set             the world with new values, on stdout or in place\n"
    "  doc             the registry as a manual page (phys-params(7))\n"
    "\n"
    DOC_OPTION
    FILE_OPTION
    IN_PLACE_OPTION
    PRESET_OPTION
    "  -q, --quiet         no warnings\n"
    "  -h, --help          show this help\n"
    "  -V, --version       show the version\n";

static const char list_help[] =
    "\n"
    "The registry, a line each parameter (name, type, alias, scope and\n"
    "units; with --doc every fact); with WORLD, every parameter of WORLD\n"
    "with its value, or those the GLOBs name.\n"
    DOC_OPTION;

static const char get_help[] =
    "\n"
    "Parameter lines with the current values of each NAME in WORLD: a\n"
    "name, an alias or a glob.\n"
    DOC_OPTION
    PRESET_OPTION;

static const char set_help[] =
    "\n"
    "WORLD with each NAME (a name, an alias or a glob) set to VALUE, on\n"
    "stdout or in place; every value is checked before any is written.\n"
    FILE_OPTION
    IN_PLACE_OPTION
    PRESET_OPTION;

static const char doc_help[] =
    "\n"
    "The registry as a manual page, phys-params(7), on stdout.\n";

/* The options a command may take, as bits of its table entry's data. */
enum { O_DOC = 1, O_PRESET = 2, O_IN_PLACE = 4, O_FILE = 8 };
#define TAKES(bits) (&(const unsigned){ (bits) })

static int cmd_list(int, char **, void *);
static int cmd_get(int, char **, void *);
static int cmd_set(int, char **, void *);
static int cmd_doc(int, char **, void *);

/* The usage lines are also the SYNOPSIS of phys-param(1). */
static const struct phys_subcommand subcommands[] = {
	{ "list", cmd_list, "phys-param list [--doc] [WORLD [GLOB...]]\n",
	    list_help, TAKES(O_DOC) },
	{ "get", cmd_get, "phys-param get [--doc] [-p PRESET] NAME... WORLD\n",
	    get_help, TAKES(O_DOC | O_PRESET) },
	{ "set", cmd_set, "phys-param set [--in-place] [-p PRESET] [-f FILE] "
	    "[NAME=VALUE...] WORLD\n", set_help,
	    TAKES(O_PRESET | O_IN_PLACE | O_FILE) },
	{ "doc", cmd_doc, "phys-param doc\n", doc_help, TAKES(0) },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const struct phys_command command = { subcommands, NULL, help_text };

/* The subcommand being run, once its name is read. */
static const struct phys_subcommand *current;

/* "phys-param: what is wrong", then the subcommand's usage; exit 2. */
#define usage_error(...) \
	phys_usage_error(phys_command_usage(&command, current), __VA_ARGS__)

enum { OPT_FROM = 256, OPT_IN_PLACE };

static const struct option longopts[] = {
	{ "doc", no_argument, NULL, 'd' },
	{ "file", required_argument, NULL, 'f' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "preset", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	bool doc, in_place;
	const char *from, *preset;	/* from: --file */
};

static struct phys_buf out;

static void
flush_out(void)
{
	if (out.len && fwrite(out.s, 1, out.len, stdout) != out.len)
		phys_die(PHYS_EXIT_FAIL, "write error");
	phys_buf_clear(&out);
}

static void
parse_options(int argc, char **argv, const char *optstring, void *ctx)
{
	struct opts *o = ctx;
	int c;

	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1)
		switch (c) {
		case 'd':
			o->doc = true;
			break;
		case OPT_FROM:
			phys_deprecated("--from", "--file", PHYS_MEANS_FROM);
			/* FALLTHROUGH */
		case 'f':
			o->from = optarg;
			break;
		case 'i':
			phys_deprecated("-i", "--in-place", PHYS_MEANS_ITEMS);
			/* FALLTHROUGH */
		case OPT_IN_PLACE:
			o->in_place = true;
			break;
		case 'p':
			o->preset = optarg;
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

/* Parameters by name: a world whose includes are not on this machine is
 * read without their models, with one warning. */
static void
load_options(struct phys_load_options *lo)
{
	phys_load_options_default(lo);
	lo->quiet = true;
	lo->doubts = true;
	lo->skip_unsupported = true;
	lo->partial = true;
}

static void
load_world(struct phys_scene *w, const char *path)
{
	struct phys_load_options lo;

	load_options(&lo);
	if (phys_world_open_with(w, path, &lo) < 0)
		exit(PHYS_EXIT_FAIL);
}

/* The profile -p names: an engine's name where no profile has it is the
 * profile phys-step -p would run (said once), which an edit cannot go
 * into: the file has none. */
static int
profile_of(struct phys_scene *w, const char *preset, bool edit)
{
	int p;

	if (!preset)
		return w->start;
	p = phys_preset_named(w, preset);
	if (p < 0) {
		phys_report();
		exit(PHYS_EXIT_USAGE);
	}
	if (edit && phys_preset_made_for_run(w, p))
		phys_die(PHYS_EXIT_USAGE, "%s has no profile of engine %s to "
		    "edit ('phys-preset add --engine %s NAME' makes one)",
		    w->doc.name, preset, preset);
	return p;
}

/* ---- list ---- */

struct list_ctx {
	unsigned flags;
};

static int
print_instance(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	const struct list_ctx *lc = ctx;

	phys_param_line(&out, w, r, phys_ref_value(w, r), lc->flags,
	    phys_engine_put_support);
	if (out.len > 65536)
		flush_out();
	return 0;
}

static int
list_registry(const struct opts *o, int argc, char **argv)
{
	size_t i;
	int k, hits = 0;

	for (i = 0; i < PHYS_NPARAMS; i++) {
		const struct phys_param *p = &phys_params[i];
		bool keep = argc == 0;

		for (k = 0; k < argc && !keep; k++)
			keep = phys_glob(argv[k], p->name) ||
			    (p->alias && strcmp(argv[k], p->alias) == 0);
		if (!keep)
			continue;
		hits++;
		phys_param_line_registry(&out, p, o->doc ? PHYS_PL_DOC : 0,
		    phys_engine_put_support);
	}
	flush_out();
	if (argc && !hits)
		phys_die(PHYS_EXIT_FAIL, "no parameter matches");
	return PHYS_EXIT_OK;
}

/* WORLD is the first operand when it names a file, is "-", or looks like
 * a world file (so a missing one is reported as missing). */
static bool
is_world_operand(const char *s)
{
	size_t n = strlen(s);

	return strcmp(s, "-") == 0 || access(s, F_OK) == 0 ||
	    (n > 4 && (strcmp(s + n - 4, ".sdf") == 0 ||
	    (n > 6 && strcmp(s + n - 6, ".world") == 0)));
}

static int
cmd_list(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct list_ctx lc = { PHYS_PL_PRESET | (o->doc ? PHYS_PL_DOC : 0) };
	struct phys_scene w;
	int k;

	if (argc == 0 || !is_world_operand(argv[0]))
		return list_registry(o, argc, argv);
	load_world(&w, argv[0]);
	if (argc == 1)
		phys_ref_each(&w, "*", -1, print_instance, &lc);
	for (k = 1; k < argc; k++)
		if (phys_ref_each(&w, argv[k], -1, print_instance, &lc) == 0)
			phys_die(PHYS_EXIT_FAIL, "%s: no parameter matches '%s'",
			    w.doc.name, argv[k]);
	flush_out();
	phys_world_free(&w);
	return PHYS_EXIT_OK;
}

/*
 * The world may come first or last among the operands (DESIGN writes
 * "set -i world.sdf iters=200"): move it last. For set it is the one
 * operand without '='; for get, the last operand unless only the first
 * names an existing file.
 */
static void
world_last(int argc, char **argv, bool assignments)
{
	char *w;
	int k, at = argc - 1, found = 0;

	if (assignments) {
		for (k = 0; k < argc; k++)
			if (!strchr(argv[k], '=')) {
				at = k;
				found++;
			}
		if (found > 1)
			phys_die(PHYS_EXIT_USAGE, "set: give one WORLD and "
			    "NAME=VALUE pairs");
	} else if (argc > 1 && access(argv[argc - 1], F_OK) != 0 &&
	    strcmp(argv[argc - 1], "-") != 0 && access(argv[0], F_OK) == 0) {
		at = 0;
	}
	w = argv[at];
	for (k = at; k < argc - 1; k++)
		argv[k] = argv[k + 1];
	argv[argc - 1] = w;
}

/* ---- get ---- */

static int
get_one(struct phys_scene *w, const char *name, int profile, unsigned flags)
{
	struct list_ctx lc = { flags };
	struct phys_ref r;
	int m;

	if (phys_has_glob(name)) {
		if (phys_ref_each(w, name, profile, print_instance, &lc) > 0)
			return 0;
		return phys_fail("no parameter matches '%s'", name);
	}
	if ((m = phys_model_pose_of(w, name)) >= 0) {
		phys_model_pose_json(w, m, &out);
		return 0;
	}
	if (phys_ref_resolve(w, name, profile, &r) < 0)
		return -1;
	return print_instance(w, &r, &lc);
}

static int
cmd_get(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	unsigned flags = PHYS_PL_PRESET | (o->doc ? PHYS_PL_DOC : 0);
	struct phys_scene w;
	int k, profile;

	if (argc < 2)
		usage_error("get needs a NAME and a WORLD");
	world_last(argc, argv, false);
	load_world(&w, argv[argc - 1]);
	profile = profile_of(&w, o->preset, false);
	for (k = 0; k < argc - 1; k++)
		if (get_one(&w, argv[k], profile, flags) < 0) {
			phys_report();
			phys_world_free(&w);
			return PHYS_EXIT_FAIL;
		}
	flush_out();
	phys_world_free(&w);
	return PHYS_EXIT_OK;
}

/* ---- set ---- */

static int
cmd_set(int argc, char **argv, void *ctx)
{
	const struct opts *o = ctx;
	struct phys_param_edits e = { 0 };
	struct phys_load_options lo;
	struct phys_scene w;
	int k, profile, rc = 0;

	if (argc < 1 || (argc < 2 && !o->from))
		usage_error("set needs NAME=VALUE (or --file FILE) and a WORLD");
	world_last(argc, argv, true);
	if (o->from && strcmp(o->from, "-") == 0 &&
	    strcmp(argv[argc - 1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "the world and --file cannot both be "
		    "standard input");
	load_options(&lo);
	if (phys_world_open_edit_with(&w, argv[argc - 1], o->in_place, &lo) < 0)
		exit(PHYS_EXIT_FAIL);
	profile = profile_of(&w, o->preset, true);
	for (k = 0; k < argc - 1 && rc == 0; k++)
		rc = phys_param_edits_assign(&e, &w, argv[k], profile);
	if (rc == 0 && o->from)
		rc = phys_param_edits_read(&e, &w, o->from, profile);
	if (rc == 0 && e.n == 0 && e.skipped_included)
		rc = phys_fail("every match is in an included file");
	if (rc == 0 && e.skipped_included)
		phys_warn("skipped %zu parameter%s of included models (edit "
		    "their own files)", e.skipped_included,
		    e.skipped_included == 1 ? "" : "s");
	if (rc == 0)
		rc = phys_param_edits_apply(&w, &e);
	if (rc == 0)
		rc = phys_world_write(&w, o->in_place);
	if (rc < 0)
		phys_report();
	phys_param_edits_free(&e);
	phys_world_free(&w);
	return rc < 0 ? PHYS_EXIT_FAIL : PHYS_EXIT_OK;
}

/* ---- doc: the registry as a manual page ---- */

static void
roff_escape(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

/* "; all engines" or "; ode" (or "; bullet, dart"): whose parameter it is. */
static void
put_doc_engines(unsigned engines)
{
	const char *sep = "; ";
	unsigned bit;

	if (engines == PHYS_E_ALL) {
		fputs("; all engines", stdout);
		return;
	}
	for (bit = 1; bit <= PHYS_E_ALL; bit <<= 1)
		if (engines & bit) {
			printf("%s%s", sep, phys_engine_type_name(bit));
			sep = ", ";
		}
}

/* "; ODE: native" for each engine phys runs, then the end of the line. */
static void
put_support(const struct phys_param *p)
{
	size_t i;
	enum phys_engine_support how;

	for (i = 0; phys_engines[i]; i++) {
		how = phys_engines[i]->support(p);
		printf("; %s: %s", phys_engines[i]->name,
		    how == PHYS_SUPPORT_OTHER ? "another engine's" :
		    phys_support_name(how));
	}
	fputs(".\n.br\n", stdout);
}

static int
cmd_doc(int argc, char **argv, void *ctx)
{
	phys_scope s = PHYS_NSCOPES;
	struct phys_value def;
	struct phys_buf b = { 0 };
	size_t i;

	if (argc > 0)
		usage_error("doc takes no operand");
	fputs(".\\\" Generated by phys-param doc from lib/params.def.\n"
	    ".TH PHYS-PARAMS 7 \"" PHYS_DATE "\" \"phys " PHYS_VERSION "\" \"phys\"\n"
	    ".SH NAME\nphys-params \\- every parameter phys knows\n"
	    ".SH DESCRIPTION\nOne entry per parameter: its name (and Gazebo "
	    "alias), type, units, the specification's default, the allowed "
	    "range, the engines it applies to and how each engine phys runs "
	    "treats it (native: passed to the engine; emulated: computed by "
	    "phys; inert: kept and documented, warned about when set; other: "
	    "another engine's).\n"
	    "Entity parameters are written after the entity and a slash, e.g.\n"
	    ".BR box::link/inertial.mass .\n"
	    ".SS Shape sizes and the inertia that follows\n"
	    "A collision's geometry rows apply to its own shape only: a "
	    "sphere has\n.BR geometry.sphere.radius ,\nno\n"
	    ".BR geometry.box.size .\n"
	    "Setting a size resizes the collision, in a file\n"
	    ".RB ( phys\\-param\\ set )\n"
	    "as in a run\n.RB ( phys\\-step\\ \\-s ,\ncontrol lines), "
	    "and moves the link's inertial as its\n.B inertia.follow\n"
	    "says.\nIn a run, every engine collides the new size and "
	    "weighs the new inertial from the next step on.\nThe resized shape's share of the inertial, a uniform solid "
	    "at the link's density (the collision's\n.BR <density> ,\n"
	    "or the link's mass over the volume of its shapes), is taken out "
	    "at the old size and put back at the new one, by mass, first and "
	    "second moments about the link origin, so the mass, the centre of "
	    "mass and the whole tensor follow; a file gets the new size and "
	    "inertial in one write.\n"
	    ".B density\n(the default) keeps the density: twice a box's size "
	    "gives 8 times its mass and 32 times its inertia;\n.B mass\n"
	    "keeps the mass (4 times the inertia);\n.B none\n"
	    "leaves the inertial as it is.\nA new\n.B inertial.mass\n"
	    "scales the tensor by the same ratio unless\n"
	    ".B inertia.follow\nis\n.BR none .\n"
	    ".B inertia.follow\nis phys's own and never written to a file: "
	    "in\n.B phys\\-param set\nit governs the assignments after "
	    "it.\n"
	    ".SS phys's own elements\n"
	    "SDFormat describes no MuJoCo engine. The parameters of phys's "
	    "MuJoCo engine are elements of phys's own, which other readers "
	    "ignore and\n.B phys\\-sdf check\nnames as such: a profile's\n"
	    ".B <physics type=\"mujoco\"><mujoco>\n"
	    "block (the\n.B mujoco.*\nparameters), a surface's\n"
	    ".B <contact><mujoco>\nand\n.B <friction><mujoco>\n"
	    "blocks and a joint's\n.BR <physics><mujoco> .\n"
	    "Written with\n.BR phys\\-param\\ set ,\n"
	    "they go where these paths say.\n", stdout);
	for (i = 0; i < PHYS_NPARAMS; i++) {
		const struct phys_param *p = &phys_params[i];

		if (p->scope != s) {
			s = p->scope;
			printf(".SH %s PARAMETERS\n", s == PHYS_S_PHYSICS ?
			    "PHYSICS PROFILE" : s == PHYS_S_WORLD ? "WORLD" :
			    s == PHYS_S_LINK ? "LINK" : s == PHYS_S_COLLISION ?
			    "COLLISION" : "JOINT");
		}
		phys_value_default(p, &def);
		phys_buf_clear(&b);
		phys_value_sdf(p, &def, &b);
		phys_value_free(&def);
		fputs(".TP\n.B ", stdout);
		roff_escape(p->name);
		if (p->alias) {
			fputs(" \\fR(", stdout);
			roff_escape(p->alias);
			fputs(")\\fP", stdout);
		}
		printf("\n%s", phys_type_name(p->type));
		if (*p->units)
			printf(", %s", p->units);
		fputs(", default ", stdout);
		roff_escape(b.s ? b.s : "");
		if (p->values) {
			fputs(", one of ", stdout);
			roff_escape(p->values);
		}
		if (PHYS_MIN_ABOVE_ZERO(p))
			fputs(", above 0", stdout);
		else if (p->min > -1e308 && p->max < 1e308)
			printf(", from %.15g to %.15g", p->min, p->max);
		else if (p->min > -1e308)
			printf(", at least %.15g", p->min);
		else if (p->max < 1e308)
			printf(", at most %.15g", p->max);
		put_doc_engines(p->engines);
		put_support(p);
		roff_escape(p->doc);
		fputs(".\n", stdout);
	}
	fputs(".SH SEE ALSO\n.BR phys-param (1),\n.BR phys (7)\n", stdout);
	phys_buf_free(&b);
	return PHYS_EXIT_OK;
}

/* An option a command does not take is a mistake worth saying. */
static void
check_options(const struct phys_subcommand *cmd, const struct opts *o)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ O_DOC, "--doc" }, { O_PRESET, "--preset" },
		{ O_IN_PLACE, "--in-place" }, { O_FILE, "--file" }
	};
	unsigned given = (o->doc ? O_DOC : 0) | (o->preset ? O_PRESET : 0) |
	    (o->in_place ? O_IN_PLACE : 0) | (o->from ? O_FILE : 0);
	unsigned takes = *(const unsigned *)cmd->data;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((given & names[i].bit) && !(takes & names[i].bit))
			phys_die(PHYS_EXIT_USAGE, "%s: %s does not apply",
			    cmd->name, names[i].name);
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
	    ":hdf:ip:qV", parse_options, &o)))
		phys_usage(phys_command_usage(&command, NULL));
	check_options(sub, &o);
	rc = sub->run(argc, argv, &o);
	phys_buf_free(&out);
	if (phys_close_stdout() != PHYS_EXIT_OK && rc == PHYS_EXIT_OK)
		rc = PHYS_EXIT_FAIL;
	return rc;
}
