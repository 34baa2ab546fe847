/*
 * runopt.c - the run options of phys-step's command line, parsed once for
 * every command that takes them (phys-step, phys-sweep plan), so that
 * they mean the same and say the same of a bad value in each.
 */
#include "sim.h"
#include "base.h"

bool
phys_run_option(int c, int items, const char *arg, const char *usage_text,
    struct phys_run_options *o)
{
	if (c == items) {
		o->items = phys_xrealloc(o->items, (o->nitems + 1) *
		    sizeof *o->items);
		o->items[o->nitems++] = (char *)arg;
		return true;
	}
	switch (c) {
	case 'c':
		o->control = arg;
		return true;
	case 'e':
		o->every = phys_arg_count(usage_text, "--every", arg, 1);
		return true;
	case 'n':
		o->steps = phys_arg_count(usage_text, "--steps", arg, 0);
		return true;
	case 'p':
		o->preset = arg;
		return true;
	case 'r':
		o->rate = phys_arg_number(usage_text, "--rate", arg, 0, false);
		return true;
	case 's':
		o->sets = phys_xrealloc(o->sets, (o->nsets + 1) *
		    sizeof *o->sets);
		o->sets[o->nsets++] = (char *)arg;
		return true;
	case 't':
		/* the last of -n and -t counts */
		o->duration = phys_arg_number(usage_text, "--duration", arg, 0,
		    true);
		o->steps = -1;
		return true;
	default:
		return false;
	}
}
