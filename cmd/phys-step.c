/* phys-step - run an SDF world (ODE, Bullet, MuJoCo or Simbody); write
 * state lines. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "world.h"

static const char usage_text[] =
    "usage: phys-step [-q] [-c FILE] [-e N] [-i GLOB]... [-n STEPS]\n"
    "                 [-p PRESET] [-r HZ] [-s NAME=VALUE]... [-t SECONDS]\n"
    "                 [--realtime] [--save-to WORLD] [--skip-unsupported]\n"
    "                 [WORLD | -]\n";

static const char help_text[] =
    "\n"
    "Simulate an SDF world with ODE, Bullet, MuJoCo or Simbody (the profile's\n"
    "type); write one JSON state line per sample on standard output.\n"
    "\n"
    "  -c, --control FILE       apply control lines from FILE at their times;\n"
    "                           from a pipe, FIFO or terminal as they arrive\n"
    "  -e, --every N            write every Nth step (default 1)\n"
    "  -i, --items GLOB         items to write (repeatable; default: each\n"
    "                           link's pose, sim_time and iterations)\n"
    "  -n, --steps N            take N steps\n"
    "  -p, --preset NAME        start in physics profile NAME\n"
    "  -r, --rate HZ            write at HZ samples per simulated second\n"
    "  -s, --set NAME=VALUE     override a parameter (repeatable)\n"
    "  -t, --duration SECONDS   simulate SECONDS (default 1)\n"
    "      --realtime           pace the run by real_time_factor\n"
    "      --save-to WORLD      world file that \"save\" control lines add\n"
    "                           profiles to\n"
    "      --skip-unsupported   skip mesh, heightmap and other unsupported\n"
    "                           collisions with a warning\n"
    "  -q, --quiet              no warnings\n"
    "  -h, --help               show this help\n"
    "  -V, --version            show the version\n";

enum { OPT_REALTIME = 256, OPT_SAVE_TO, OPT_SKIP };

static const struct option longopts[] = {
	{ "control", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 't' },
	{ "every", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "items", required_argument, NULL, 'i' },
	{ "preset", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rate", required_argument, NULL, 'r' },
	{ "realtime", no_argument, NULL, OPT_REALTIME },
	{ "save-to", required_argument, NULL, OPT_SAVE_TO },
	{ "set", required_argument, NULL, 's' },
	{ "skip-unsupported", no_argument, NULL, OPT_SKIP },
	{ "steps", required_argument, NULL, 'n' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static _Noreturn void
usage(void)
{
	phys_usage(usage_text);
}

static void
parse_options(int argc, char **argv, struct phys_run_options *o)
{
	int c;

	while ((c = getopt_long(argc, argv, ":c:e:hi:n:p:qr:s:t:V", longopts,
	    NULL)) != -1) {
		if (phys_run_option(c, 'i', optarg, usage_text, o))
			continue;
		switch (c) {
		case OPT_REALTIME:
			o->realtime = true;
			break;
		case OPT_SAVE_TO:
			o->save_to = optarg;
			break;
		case OPT_SKIP:
			o->skip_unsupported = true;
			break;
		case 'q':
			phys_set_quiet(true);
			break;
		case 'h':
			phys_help(usage_text, help_text);
		case 'V':
			phys_version();
		default:
			phys_option_error(c, argv, longopts);
		}
	}
}

int
main(int argc, char **argv)
{
	struct phys_load_options lo;
	struct phys_run_options o;
	struct phys_world w;
	int rc;

	phys_setprog(argv[0]);
	opterr = 0;	/* phys_option_error says what is wrong */
	phys_stdout_init();
	phys_run_options_default(&o);
	parse_options(argc, argv, &o);
	if (argc - optind > 1)
		usage();
	if (o.control && strcmp(o.control, "-") == 0 && (optind == argc ||
	    strcmp(argv[optind], "-") == 0))
		phys_die(PHYS_EXIT_USAGE, "the world and the control lines "
		    "cannot both come from standard input");
	o.progress = phys_stderr_is_tty();
	if (optind == argc || strcmp(argv[optind], "-") == 0)
		phys_stdin_hint("an SDF world");
	phys_load_options_default(&lo);
	lo.skip_unsupported = o.skip_unsupported;
	lo.skip_missing = o.skip_unsupported;
	if (phys_world_load(&w, optind < argc ? argv[optind] : "-", &lo) < 0) {
		phys_report();
		phys_world_free(&w);
		free(o.items);
		free(o.sets);
		return PHYS_EXIT_FAIL;
	}
	rc = phys_sim_run(&w, &o, stdout);
	phys_world_free(&w);
	free(o.items);
	free(o.sets);
	if (phys_close_stdout() != PHYS_EXIT_OK && rc == PHYS_EXIT_OK)
		rc = PHYS_EXIT_FAIL;
	return rc;
}
