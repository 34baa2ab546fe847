/*
 * mjcf.c - fuzz the MJCF reader: the input is a MuJoCo model, checked as
 * phys-sdf check checks it, converted and loaded as phys-step loads it,
 * written back as MJCF as phys-sdf print --format mjcf writes it, and
 * run for a few steps under its own profile.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "massless.h"
#include "mjcfcheck.h"
#include "mjcfwrite.h"
#include "sim.h"
#include "world.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_isolate();
	return 0;
}

/* A finding of the check, counted and dropped. */
static void
found(const struct phys_mjcf_finding *f, void *ctx)
{
	(*(size_t *)ctx)++;
	(void)f;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_run_options o;
	struct phys_scene w = { 0 };
	struct phys_buf b = { 0 };
	size_t findings = 0;

	phys_mjcf_check("fuzz.xml", NULL, (const char *)data, size, found,
	    &findings);
	if (fuzz_load(&w, "fuzz.xml", data, size, true) == 0) {
		(void)phys_massless_models_fill_world(&w);
		(void)phys_mjcf_write(&w, NULL, 0, NULL, NULL, &b);
		phys_run_options_default(&o);
		o.steps = 5;
		o.skip_unsupported = true;
		phys_sim_run(&w, &o, fuzz_sink());
	}
	phys_buf_free(&b);
	phys_world_free(&w);
	return 0;
}
