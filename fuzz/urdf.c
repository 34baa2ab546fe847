/*
 * urdf.c - fuzz the URDF reader: the input is a robot, converted into the
 * SDF model Gazebo would simulate, loaded in the default world, its
 * parameters listed, and run for a few steps, as phys-step runs a URDF
 * given to it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "paramio.h"
#include "ref.h"
#include "sim.h"
#include "world.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_isolate();
	return 0;
}

/* Each parameter's line, built and dropped. */
static int
list_one(struct phys_scene *w, const struct phys_ref *r, void *ctx)
{
	struct phys_buf *b = ctx;

	phys_buf_clear(b);
	phys_param_line(b, w, r, phys_ref_value(w, r), PHYS_PL_PRESET, NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_run_options o;
	struct phys_scene w = { 0 };
	struct phys_buf b = { 0 };

	if (fuzz_load(&w, "fuzz.urdf", data, size, false) == 0) {
		phys_ref_each(&w, "*", -1, list_one, &b);
		phys_run_options_default(&o);
		o.steps = 5;
		o.skip_unsupported = true;
		phys_sim_run(&w, &o, fuzz_sink());
	}
	phys_buf_free(&b);
	phys_world_free(&w);
	return 0;
}
