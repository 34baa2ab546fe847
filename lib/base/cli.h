/* cli.h - what every command does for --help, --version and a bad command line (commands only: these print and exit). */
#ifndef PHYS_BASE_CLI_H
#define PHYS_BASE_CLI_H

#include <stdbool.h>

#include "buf.h"

#define PHYS_VERSION "0.1.0"
/* The date of this version, on every manual page's .TH line. */
#define PHYS_DATE "2026-11-23"

/* What every command does for --help, --version and a bad command line. */
_Noreturn void phys_help(const char *usage, const char *help);
_Noreturn void phys_version(void);
/*
 * An option spelled as it was before it took its one meaning across the
 * commands (phys(7)): it still works for one release, with a warning,
 * said by phys_options_done() when the command line is read (then -q,
 * wherever it is, silences it). old: as given; now: what to write; why:
 * what old will mean.
 */
void phys_deprecated(const char *old, const char *now, const char *why);
void phys_options_done(void);
/* What the old spellings mean now, for phys_deprecated's why. */
#define PHYS_MEANS_ITEMS "-i is --items in phys-step and phys-sweep"
#define PHYS_MEANS_EVERY "-e is --every in phys-step and phys-sweep"
#define PHYS_MEANS_FILE "-f is --file in phys-introspect and phys-param"
#define PHYS_MEANS_FROM "--from is a time in phys-introspect"
#define PHYS_MEANS_SET "-s is --set in phys-step and phys-sweep"
#define PHYS_MEANS_OUTPUT "-o is an output file in every command"
#define PHYS_MEANS_SIZE "--size is an image's size in pixels in plots"
#define PHYS_MEANS_KEEP "--keep keeps the input items in phys-introspect"
_Noreturn void phys_usage(const char *usage);
/*
 * getopt_long's complaint, as one line with the closest long options and
 * a pointer to --help: c is what getopt_long returned ('?', or ':' for a
 * missing value when the option string starts with ':'), with opterr 0.
 */
struct option;
_Noreturn void phys_option_error(int c, char *const *argv,
    const struct option *longopts);
/*
 * "prog: unknown command 'WORD'; did you mean NAME?" with the closest of
 * names (NULL-terminated), or a pointer to --help when none is close;
 * exit 2.
 */
_Noreturn void phys_unknown_command(const char *word, const char *const *names);
/* "prog: message", then the usage (when not NULL); exit 2. */
_Noreturn void phys_usage_error(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An option's number: at least min (above it when !min_ok), or a usage
 * error naming opt; -HUGE_VAL for any number. */
double phys_arg_number(const char *usage, const char *opt, const char *s,
    double min, bool min_ok);
/* An option's whole number, at least min, or a usage error. */
long phys_arg_count(const char *usage, const char *opt, const char *s,
    long min);
/*
 * A command's subcommands, one table a command, as git's: the name, the
 * function that runs it, its lines of the usage block and its help. The
 * table ends with an entry whose name is NULL. The table gives the
 * dispatch, the "did you mean" of a mistyped name, the command's usage
 * block and each subcommand's own usage and --help.
 */
struct phys_subcommand {
	const char *name;
	/* argc, argv: what the command passes (its operands, or its
	 * arguments from its name on); ctx: the command's own */
	int (*run)(int argc, char **argv, void *ctx);
	const char *usage;	/* its usage lines, each ending in '\n' */
	const char *help;	/* what its --help adds after its usage */
	const void *data;	/* what else the command keeps of it, or NULL */
};

struct phys_command {
	const struct phys_subcommand *sub;
	const char *more;	/* usage lines after the subcommands', or NULL */
	const char *help;	/* what the command's own --help adds */
};

/*
 * The usage block of subcommand s, or of the whole command when s is
 * NULL: "usage: " before its first line, as many blanks before the
 * others. The text lasts until the next call.
 */
const char *phys_command_usage(const struct phys_command *c,
    const struct phys_subcommand *s);
/* The subcommand named word, or NULL. */
const struct phys_subcommand *phys_command_find(const struct phys_command *c,
    const char *word);
/* phys_unknown_command with the names of c's subcommands. */
_Noreturn void phys_command_unknown(const struct phys_command *c,
    const char *word);
/* --help of s (its usage and help), or of the command when s is NULL. */
_Noreturn void phys_command_help(const struct phys_command *c,
    const struct phys_subcommand *s);
/*
 * "prog [OPTION]... COMMAND [OPTION | OPERAND]...": options may come on
 * both sides of the command. parse(argc, argv, optstring, ctx) runs
 * getopt_long over each side; *current is the subcommand from its name
 * on (NULL before), so that --help after it is its own. Returns the
 * subcommand, with *argc and *argv its operands; NULL when there is no
 * command; an unknown one is a usage error.
 */
const struct phys_subcommand *phys_command_split(const struct phys_command *c,
    const struct phys_subcommand **current, int *argc, char ***argv,
    const char *optstring, void (*parse)(int, char **, const char *, void *),
    void *ctx);

/*
 * A command's options documented once for its subcommands, each with the
 * bits of the subcommands that take it (the command's own; 0: every
 * one), its name as a usage error names it when a subcommand does not
 * take it (NULL: none is refused), and its lines of --help. A table ends
 * with an entry whose text is NULL.
 */
struct phys_option_doc {
	unsigned takers;
	const char *name;
	const char *text;
};
/* The help lines of the options a subcommand taking opts takes, on
 * standard output. */
void phys_option_docs(const struct phys_option_doc *d, unsigned opts);
/* The name of the first option of d, among those given (bits), that a
 * subcommand taking opts does not take; NULL when there is none. */
const char *phys_option_stray(const struct phys_option_doc *d,
    unsigned given, unsigned opts);

/*
 * When standard input is a terminal, say on standard error that what
 * is read from it (e.g. "an SDF world") is expected, ending with ^D.
 */
void phys_stdin_hint(const char *what);

#endif
