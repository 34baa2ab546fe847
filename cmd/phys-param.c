/* phys-param - list, document, get and set named, typed parameters. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "engine.h"
#include "inertia_follow.h"
#include "paramio.h"
#include "sim.h"

static const char usage_text[] =
    "usage: phys-param list [--doc] [WORLD [GLOB...]]\n"
    "       phys-param get [--doc] [-p PRESET] NAME... WORLD\n"
    "       phys-param set [-i] [-p PRESET] [--from FILE] [NAME=VALUE...] WORLD\n"
    "       phys-param doc\n";

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
    "  -d, --doc           add units, default, range and doc to each line\n"
    "  -f, --from FILE     read parameter lines (- for stdin) to set\n"
    "  -i, --in-place      replace WORLD (via a temporary file)\n"
    "  -p, --preset NAME   the physics profile (default: the starting one)\n"
    "  -h, --help          show this help\n"
    "      --version       show the version\n";

enum { OPT_VERSION = 256 };

static const struct option longopts[] = {
	{ "doc", no_argument, NULL, 'd' },
	{ "from", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "in-place", no_argument, NULL, 'i' },
	{ "preset", required_argument, NULL, 'p' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const commands[] = { "list", "get", "set", "doc", NULL };

struct opts {
	bool doc, in_place;
	const char *from, *preset;
};

static struct phys_buf out;

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
}

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
		case 'f':
			o->from = optarg;
			break;
		case 'i':
			o->in_place = true;
			break;
		case 'p':
			o->preset = optarg;
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
load_world(struct phys_world *w, const char *path)
{
	if (phys_world_open(w, path, false) < 0)
		exit(PHYS_EXIT_FAIL);
}

static int
profile_of(struct phys_world *w, const char *preset)
{
	int p;

	if (!preset)
		return w->start;
	p = phys_world_find_profile(w, preset);
	if (p < 0) {
		phys_report();
		exit(PHYS_EXIT_USAGE);
	}
	return p;
}

/* ---- list ---- */

struct list_ctx {
	unsigned flags;
};

static int
print_instance(struct phys_world *w, const struct phys_ref *r, void *ctx)
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
		phys_param_line_registry(&out, p, phys_engine_put_support);
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
cmd_list(const struct opts *o, int argc, char **argv)
{
	struct list_ctx lc = { PHYS_PL_PRESET | (o->doc ? PHYS_PL_DOC : 0) };
	struct phys_world w;
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
get_one(struct phys_world *w, const char *name, int profile, unsigned flags)
{
	struct list_ctx lc = { flags };
	struct phys_ref r;

	if (phys_has_glob(name)) {
		if (phys_ref_each(w, name, profile, print_instance, &lc) > 0)
			return 0;
		return phys_fail("no parameter matches '%s'", name);
	}
	if (phys_ref_resolve(w, name, profile, &r) < 0)
		return -1;
	return print_instance(w, &r, &lc);
}

static int
cmd_get(const struct opts *o, int argc, char **argv)
{
	unsigned flags = PHYS_PL_PRESET | (o->doc ? PHYS_PL_DOC : 0);
	struct phys_world w;
	int k, profile;

	if (argc < 2)
		usage();
	world_last(argc, argv, false);
	load_world(&w, argv[argc - 1]);
	profile = profile_of(&w, o->preset);
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

struct edit {
	struct phys_ref ref;
	char *text;
};

struct edits {
	struct edit *v;
	size_t n;
};

/* The value is checked as it is collected, so that an error in a --from
 * file names its line. */
static int
add_edit(struct edits *e, const struct phys_ref *r, const char *text)
{
	struct phys_value v;

	memset(&v, 0, sizeof v);
	if (phys_value_parse(r->p, text, &v) < 0)
		return -1;
	phys_value_free(&v);
	e->v = phys_xrealloc(e->v, (e->n + 1) * sizeof *e->v);
	e->v[e->n].ref = *r;
	e->v[e->n].text = phys_xstrdup(text);
	e->n++;
	return 0;
}

struct glob_ctx {
	struct edits *e;
	const char *text;
};

/* A glob reaches into included models too: their files are not ours to
 * edit here, so those matches are skipped and counted. */
static size_t skipped_included;

static int
add_glob_edit(struct phys_world *w, const struct phys_ref *r, void *ctx)
{
	struct glob_ctx *g = ctx;

	if (phys_entity_doc(w, r->scope, r->idx) != &w->doc) {
		skipped_included++;
		return 0;
	}
	return add_edit(g->e, r, g->text);
}

static int
collect(struct phys_world *w, const char *name, const char *text, int profile,
    struct edits *e)
{
	struct glob_ctx g = { e, text };
	struct phys_ref r;

	if (phys_has_glob(name)) {
		int n = phys_ref_each(w, name, profile, add_glob_edit, &g);

		if (n != 0)
			return n < 0 ? -1 : 0;
		return phys_fail("no parameter matches '%s'", name);
	}
	if (phys_ref_resolve(w, name, profile, &r) < 0)
		return -1;
	return add_edit(e, &r, text);
}

static int
collect_assignment(struct phys_world *w, const char *arg, int profile,
    struct edits *e)
{
	char *name = phys_xstrdup(arg), *eq = strchr(name, '=');
	int rc;

	if (!eq) {
		free(name);
		return phys_fail("'%s': expected NAME=VALUE", arg);
	}
	*eq = '\0';
	rc = collect(w, name, eq + 1, profile, e);
	free(name);
	return rc;
}

static int
collect_line(struct phys_world *w, json_t *obj, int profile, struct edits *e)
{
	json_t *name = json_object_get(obj, "name");
	json_t *preset = json_object_get(obj, "preset");
	struct phys_buf text = { 0 };
	int rc;

	if (!json_is_string(name) || !json_object_get(obj, "value"))
		return phys_fail("a parameter line needs \"name\" and \"value\"");
	/* Lines from another world may name a profile this one lacks: then
	 * the values go to the chosen (or starting) profile. */
	if (json_is_string(preset) &&
	    phys_world_profile(w, json_string_value(preset)) >= 0)
		profile = phys_world_profile(w, json_string_value(preset));
	if (phys_json_to_text(json_object_get(obj, "value"), &text) < 0)
		return -1;
	rc = collect(w, json_string_value(name), text.s ? text.s : "", profile,
	    e);
	phys_buf_free(&text);
	return rc;
}

struct from_ctx {
	struct phys_world *w;
	int profile;
	struct edits *e;
};

static int
collect_json_line(char *line, long lineno, void *ctx)
{
	struct from_ctx *fc = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	int rc;

	if (!json_is_object(obj))
		rc = phys_fail("not a JSON object");
	else
		rc = collect_line(fc->w, obj, fc->profile, fc->e);
	json_decref(obj);
	return rc;
}

static int
collect_from(struct phys_world *w, const char *path, int profile,
    struct edits *e)
{
	struct from_ctx fc = { w, profile, e };

	return phys_each_line(path, collect_json_line, &fc);
}

/* One value into the model (a resize moves the inertial with it) and
 * into the document. inertia.follow is phys's own: it governs the
 * assignments after it and is never written. */
static int
apply_edit(struct phys_world *w, const struct phys_ref *r,
    const struct phys_value *v)
{
	struct phys_value copy = { 0 };
	int link;

	if (r->scope == PHYS_S_PHYSICS || r->scope == PHYS_S_WORLD)
		return phys_world_edit(w, r, v);
	phys_value_copy(&copy, v);
	if (phys_world_assign(w, r, &copy, &link) < 0)
		return -1;
	if (r->p->id == PHYS_P_LINK_inertia_follow)
		return 0;
	if (phys_world_edit(w, r, v) < 0)
		return -1;
	return link >= 0 ? phys_world_edit_inertial(w, link) : 0;
}

/* Every value is parsed before any is written: all or nothing. */
static int
apply_edits(struct phys_world *w, struct edits *e)
{
	struct phys_value v;
	size_t i;
	int rc = 0;

	for (i = 0; i < e->n && rc == 0; i++) {
		memset(&v, 0, sizeof v);
		rc = phys_value_parse(e->v[i].ref.p, e->v[i].text, &v);
		if (rc == 0)
			rc = apply_edit(w, &e->v[i].ref, &v);
		phys_value_free(&v);
	}
	return rc;
}

static void
free_edits(struct edits *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
}

static int
cmd_set(const struct opts *o, int argc, char **argv)
{
	struct edits e = { 0 };
	struct phys_world w;
	int k, profile, rc = 0;

	if (argc < 1 || (argc < 2 && !o->from))
		usage();
	world_last(argc, argv, true);
	if (o->from && strcmp(o->from, "-") == 0 &&
	    strcmp(argv[argc - 1], "-") == 0)
		phys_die(PHYS_EXIT_USAGE, "the world and --from cannot both be "
		    "standard input");
	if (phys_world_open_edit(&w, argv[argc - 1], o->in_place, false) < 0)
		exit(PHYS_EXIT_FAIL);
	profile = profile_of(&w, o->preset);
	for (k = 0; k < argc - 1 && rc == 0; k++)
		rc = collect_assignment(&w, argv[k], profile, &e);
	if (rc == 0 && o->from)
		rc = collect_from(&w, o->from, profile, &e);
	if (rc == 0 && e.n == 0 && skipped_included)
		rc = phys_fail("every match is in an included file");
	if (rc == 0 && skipped_included)
		phys_warn("skipped %zu parameter%s of included models (edit "
		    "their own files)", skipped_included,
		    skipped_included == 1 ? "" : "s");
	if (rc == 0)
		rc = apply_edits(&w, &e);
	if (rc == 0)
		rc = phys_world_write(&w, o->in_place);
	if (rc < 0)
		phys_report();
	free_edits(&e);
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
	phys_ode_support how;

	for (i = 0; phys_engines[i]; i++) {
		how = phys_engines[i]->support(p);
		printf("; %s: %s", phys_engines[i]->name,
		    how == PHYS_ODE_OTHER ? "another engine's" :
		    phys_support_name(how));
	}
	fputs(".\n.br\n", stdout);
}

static int
cmd_doc(void)
{
	phys_scope s = PHYS_NSCOPES;
	struct phys_value def;
	struct phys_buf b = { 0 };
	size_t i;

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
	    "it.\n", stdout);
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

static void
check_known(const char *cmd)
{
	size_t i;

	for (i = 0; commands[i]; i++)
		if (strcmp(cmd, commands[i]) == 0)
			return;
	phys_unknown_command(cmd, commands);
}

/* An option a command does not take is a mistake worth saying. */
static void
check_options(const char *cmd, const struct opts *o)
{
	bool list = strcmp(cmd, "list") == 0, get = strcmp(cmd, "get") == 0;
	bool set = strcmp(cmd, "set") == 0;

	if (o->doc && !list && !get)
		phys_die(PHYS_EXIT_USAGE, "%s: --doc does not apply", cmd);
	if (o->preset && !get && !set)
		phys_die(PHYS_EXIT_USAGE, "%s: --preset does not apply", cmd);
	if ((o->in_place || o->from) && !set)
		phys_die(PHYS_EXIT_USAGE, "%s: %s does not apply", cmd,
		    o->in_place ? "--in-place" : "--from");
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
	if (!(cmd = phys_split_command(&argc, &argv, ":hdf:ip:", parse_options,
	    &o)))
		usage();
	check_known(cmd);
	check_options(cmd, &o);
	if (strcmp(cmd, "list") == 0)
		rc = cmd_list(&o, argc, argv);
	else if (strcmp(cmd, "get") == 0)
		rc = cmd_get(&o, argc, argv);
	else if (strcmp(cmd, "set") == 0)
		rc = cmd_set(&o, argc, argv);
	else if (argc == 0)
		rc = cmd_doc();
	else
		usage();
	phys_buf_free(&out);
	if (phys_close_stdout() != PHYS_EXIT_OK && rc == PHYS_EXIT_OK)
		rc = PHYS_EXIT_FAIL;
	return rc;
}
