/* cli.c - what every command does for --help, --version and a bad command line (commands only: these print and exit). */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"
#include "msg.h"
#include "names.h"
#include "num.h"
#include "stop.h"

void
phys_help(const char *usage, const char *help)
{
	fputs(usage, stdout);
	fputs(help, stdout);
	exit(phys_close_stdout());
}

/* Deprecated spellings met while parsing, said once parsing is done (so
 * that a -q anywhere on the line silences them). */
#define MAX_DEPRECATED 8
static char *deprecated[MAX_DEPRECATED];
static size_t ndeprecated;

void
phys_deprecated(const char *old, const char *now, const char *why)
{
	char *msg = phys_xasprintf("%s is deprecated and will go in the next "
	    "release: write %s (%s)", old, now, why);
	size_t i;

	for (i = 0; i < ndeprecated; i++)
		if (strcmp(deprecated[i], msg) == 0)
			break;
	if (i < ndeprecated || ndeprecated == MAX_DEPRECATED)
		free(msg);
	else
		deprecated[ndeprecated++] = msg;
}

void
phys_options_done(void)
{
	size_t i;

	for (i = 0; i < ndeprecated; i++) {
		phys_warn("%s", deprecated[i]);
		free(deprecated[i]);
	}
	ndeprecated = 0;
}

void
phys_version(void)
{
	printf("%s %s\n", phys_progname, PHYS_VERSION);
	exit(phys_close_stdout());
}

void
phys_usage(const char *usage)
{
	fflush(stdout);
	fputs(usage, stderr);
	exit(PHYS_EXIT_USAGE);
}

void
phys_unknown_command(const char *word, const char *const *names)
{
	struct phys_buf b = { 0 };

	phys_suggest(&b, word, names, "");
	fflush(stdout);
	if (b.len)
		fprintf(stderr, "%s: unknown command '%s'; did you mean %s?\n",
		    phys_progname, word, b.s);
	else
		fprintf(stderr, "%s: unknown command '%s' (see %s --help)\n",
		    phys_progname, word, phys_progname);
	phys_buf_free(&b);
	exit(PHYS_EXIT_USAGE);
}

/* The long option named by arg ("--name" or "--name=value"), or NULL. */
static const struct option *
long_option(const char *arg, const struct option *longopts)
{
	size_t n = strcspn(arg + 2, "=");

	for (; longopts->name; longopts++)
		if (strlen(longopts->name) == n &&
		    strncmp(longopts->name, arg + 2, n) == 0)
			return longopts;
	return NULL;
}

/* "--name" of arg into b; the names of the long options that resemble it
 * into hint; true when arg is an abbreviation of more than one. */
static bool
long_option_hint(const char *arg, const struct option *longopts,
    struct phys_buf *b, struct phys_buf *hint)
{
	const char **names;
	size_t n, i, k = 0, len = strcspn(arg + 2, "=");
	char *word = phys_xstrndup(arg + 2, len);

	for (n = 0; longopts[n].name; n++)
		;
	names = phys_xcalloc(n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = longopts[i].name;
	for (i = 0; i < n; i++)
		k += len && strncmp(names[i], word, len) == 0;
	phys_buf_printf(b, "--%s", word);
	phys_suggest(hint, word, names, "--");
	free(names);
	free(word);
	return k > 1;
}

void
phys_option_error(int c, char *const *argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o = NULL;
	struct phys_buf name = { 0 }, hint = { 0 };
	const char *what = "unknown option";
	bool is_long = strncmp(arg, "--", 2) == 0 && arg[2];

	/* A known long option given a value it does not take sets optopt to
	 * its val; an unknown one, to 0; a bad short option, to itself. */
	if (c != ':' && optopt != 0 && is_long) {
		o = long_option(arg, longopts);
		is_long = o && o->has_arg == no_argument && o->val == optopt &&
		    strchr(arg, '=');
	}
	if (is_long && long_option_hint(arg, longopts, &name, &hint) &&
	    c != ':' && !o)
		what = "ambiguous option";
	if (!is_long)
		phys_buf_printf(&name, "-%c", optopt);
	if (c == ':')
		what = "missing value for option";
	else if (o && is_long)
		what = "no value is taken by option";
	fflush(stdout);
	fprintf(stderr, "%s: %s '%s'", phys_progname, what, name.s);
	if (hint.len && c != ':' && !(o && is_long))
		fprintf(stderr, "; did you mean %s?", hint.s);
	fprintf(stderr, " (see %s --help)\n", phys_progname);
	phys_buf_free(&name);
	phys_buf_free(&hint);
	exit(PHYS_EXIT_USAGE);
}

void
phys_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", phys_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage)
		fputs(usage, stderr);
	exit(PHYS_EXIT_USAGE);
}

double
phys_arg_number(const char *usage, const char *opt, const char *s,
    double min, bool min_ok)
{
	double v;

	if (!phys_parse_double(s, &v))
		phys_usage_error(usage, "%s: '%s' is not a number", opt, s);
	if (v < min || (v == min && !min_ok))
		phys_usage_error(usage, "%s: '%s' must be %s %g", opt, s,
		    min_ok ? "at least" : "above", min);
	return v;
}

long
phys_arg_count(const char *usage, const char *opt, const char *s, long min)
{
	long v;

	if (!phys_parse_long(s, &v) || v < min)
		phys_usage_error(usage, "%s: '%s' is not a whole number of at "
		    "least %ld", opt, s, min);
	return v;
}

static void
put_usage_lines(struct phys_buf *b, const char *lines)
{
	const char *nl;

	for (; lines && *lines; lines = nl + 1) {
		nl = strchr(lines, '\n');
		if (!nl)
			nl = lines + strlen(lines);
		phys_buf_puts(b, b->len ? "       " : "usage: ");
		phys_buf_putn(b, lines, (size_t)(nl - lines));
		phys_buf_putc(b, '\n');
		if (!*nl)
			break;
	}
}

const char *
phys_command_usage(const struct phys_command *c,
    const struct phys_subcommand *s)
{
	static struct phys_buf b;
	const struct phys_subcommand *k;

	phys_buf_clear(&b);
	if (s) {
		put_usage_lines(&b, s->usage);
		return b.s;
	}
	for (k = c->sub; k->name; k++)
		put_usage_lines(&b, k->usage);
	put_usage_lines(&b, c->more);
	return b.s;
}

const struct phys_subcommand *
phys_command_find(const struct phys_command *c, const char *word)
{
	const struct phys_subcommand *k;

	for (k = c->sub; k->name; k++)
		if (strcmp(k->name, word) == 0)
			return k;
	return NULL;
}

void
phys_command_unknown(const struct phys_command *c, const char *word)
{
	const char **names;
	size_t n, i;

	for (n = 0; c->sub[n].name; n++)
		;
	names = phys_xcalloc(n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = c->sub[i].name;
	phys_unknown_command(word, names);
}

void
phys_command_help(const struct phys_command *c,
    const struct phys_subcommand *s)
{
	const char *help = s ? s->help : c->help;

	phys_help(phys_command_usage(c, s), help ? help : "");
}

const struct phys_subcommand *
phys_command_split(const struct phys_command *c,
    const struct phys_subcommand **current, int *argc, char ***argv,
    const char *optstring, void (*parse)(int, char **, const char *, void *),
    void *ctx)
{
	char *before = phys_xasprintf("+%s", optstring);
	const char *word;

	*current = NULL;
	parse(*argc, *argv, before, ctx);
	free(before);
	if (optind >= *argc)
		return NULL;
	/* The command takes the place of the program name for the second
	 * pass, which reorders options after it to the front. */
	word = (*argv)[optind];
	*current = phys_command_find(c, word);
	*argc -= optind;
	*argv += optind;
	optind = 0;
	parse(*argc, *argv, optstring, ctx);
	*argc -= optind;
	*argv += optind;
	if (!*current)
		phys_command_unknown(c, word);
	phys_options_done();
	return *current;
}

void
phys_option_docs(const struct phys_option_doc *d, unsigned opts)
{
	for (; d->text; d++)
		if (!d->takers || (d->takers & opts))
			fputs(d->text, stdout);
}

const char *
phys_option_stray(const struct phys_option_doc *d, unsigned given,
    unsigned opts)
{
	for (; d->text; d++)
		if (d->name && (given & d->takers) && !(opts & d->takers))
			return d->name;
	return NULL;
}

void
phys_stdin_hint(const char *what)
{
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "%s: reading %s from standard input "
		    "(end it with ^D; see %s --help)\n", phys_progname, what,
		    phys_progname);
}
