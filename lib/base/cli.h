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
 * "prog [OPTION]... COMMAND [OPTION | OPERAND]...": options may come on
 * both sides of the command. parse(argc, argv, optstring, ctx) runs
 * getopt_long over each side; the command is returned and *argc, *argv
 * become its operands. NULL when there is no command.
 */
const char *phys_split_command(int *argc, char ***argv, const char *optstring,
    void (*parse)(int, char **, const char *, void *), void *ctx);

/*
 * When standard input is a terminal, say on standard error that what
 * is read from it (e.g. "an SDF world") is expected, ending with ^D.
 */
void phys_stdin_hint(const char *what);

#endif
