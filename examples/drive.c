/*
 * drive.c - drive a libphys run from the command line, one command per
 * group of arguments; a small tour of the whole API.
 *
 *   drive [-p PROFILE] [-c CONTROL] WORLD COMMAND...
 *
 * Commands, carried out in order:
 *   step N          take N steps
 *   until T         step until the simulated time reaches T s
 *   read ITEM       print "ITEM v..." (the item's numbers, as %.17g)
 *   set NAME VALUE  set a parameter or a link's or model's state (SDF text)
 *   get NAME        print "NAME text", a parameter's value now
 *   profile NAME    switch to another physics profile
 *   control LINE    apply control lines now: a JSON object, an array of
 *                   them, or {}
 *   publish TOPIC MSG  give the world's systems a message (JSON) on a topic
 *   restart         free the run and start a new one of the same world
 *
 * A failing call prints "drive: CODE: message" (CODE is the PHYS_E*
 * constant; a failed open or run has no code: "drive: message") and ends
 * with status 1. Warnings are printed as
 * "drive: warning: message".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "phys.h"

static const char *
code_name(int rc)
{
	switch (rc) {
	case PHYS_EINPUT:
		return "PHYS_EINPUT";
	case PHYS_ENAME:
		return "PHYS_ENAME";
	case PHYS_EVALUE:
		return "PHYS_EVALUE";
	case PHYS_ERUN:
		return "PHYS_ERUN";
	case PHYS_EUSE:
		return "PHYS_EUSE";
	default:
		return "?";
	}
}

/* A constructor returned NULL: the message says why. */
static void
fail(void)
{
	fprintf(stderr, "drive: %s\n", phys_errmsg());
	exit(1);
}

static void
check(int rc)
{
	if (rc >= 0)
		return;
	fprintf(stderr, "drive: %s: %s\n", code_name(rc), phys_errmsg());
	exit(1);
}

static void
warning(const char *message, void *ctx)
{
	fprintf(stderr, "%s: warning: %s\n", (const char *)ctx, message);
}

static void
usage(void)
{
	fprintf(stderr, "usage: drive [-p PROFILE] [-c CONTROL] WORLD "
	    "COMMAND...\n");
	exit(2);
}

static void
read_item(phys_run *r, const char *item)
{
	double v[6];
	int i, n = phys_run_read(r, item, v, 6);

	check(n);
	printf("%s", item);
	for (i = 0; i < n && i < 6; i++)
		printf(" %.17g", v[i]);
	putchar('\n');
}

static void
get_param(phys_run *r, const char *name)
{
	char text[256];

	check(phys_run_get(r, name, text, sizeof text));
	printf("%s %s\n", name, text);
}

static phys_run *
start(phys_world *w, const phys_run_def *def)
{
	phys_run *r = phys_create_run(w, def);

	if (!r)
		fail();
	return r;
}

int
main(int argc, char **argv)
{
	phys_run_def def = phys_default_run_def();
	phys_world *w;
	phys_run *r;
	int c, i;

	phys_set_warning_handler(warning, "drive");
	while ((c = getopt(argc, argv, "p:c:")) != -1) {
		if (c == 'p')
			def.profile = optarg;
		else if (c == 'c')
			def.control = optarg;
		else
			usage();
	}
	if (optind >= argc)
		usage();
	w = phys_open_world(argv[optind], NULL);
	if (!w)
		fail();
	r = start(w, &def);
	for (i = optind + 1; i < argc; i++) {
		const char *cmd = argv[i];

		if (strcmp(cmd, "restart") == 0) {
			phys_free_run(r);
			r = start(w, &def);
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (strcmp(cmd, "step") == 0)
			check(phys_run_step(r, atol(argv[++i])));
		else if (strcmp(cmd, "until") == 0)
			check(phys_run_until(r, atof(argv[++i])));
		else if (strcmp(cmd, "read") == 0)
			read_item(r, argv[++i]);
		else if (strcmp(cmd, "get") == 0)
			get_param(r, argv[++i]);
		else if (strcmp(cmd, "profile") == 0)
			check(phys_run_use_profile(r, argv[++i]));
		else if (strcmp(cmd, "control") == 0)
			check(phys_run_control(r, argv[++i]));
		else if (strcmp(cmd, "publish") == 0 && i + 2 < argc) {
			check(phys_run_publish(r, argv[i + 1], argv[i + 2]));
			i += 2;
		}
		else if (strcmp(cmd, "set") == 0 && i + 2 < argc) {
			check(phys_run_set(r, argv[i + 1], argv[i + 2]));
			i += 2;
		} else
			usage();
	}
	phys_free_run(r);
	phys_free_world(w);
	return fclose(stdout) == 0 ? 0 : 1;
}
