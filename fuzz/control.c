/*
 * control.c - fuzz control lines: the input is phys-step's --control file
 * for a ten-step run of a small world (after a first line "#mjcf", of a
 * small MuJoCo model), state lines thrown away.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "sim.h"
#include "small_world.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_run_options o;
	struct phys_scene w;
	struct fuzz_file f;
	size_t skip = fuzz_world_for(&w, data, size);

	fuzz_file_open(&f, data + skip, size - skip);
	phys_run_options_default(&o);
	o.steps = 10;
	o.control = f.path;
	phys_sim_run(&w, &o, fuzz_sink());
	fuzz_file_close(&f);
	phys_world_free(&w);
	return 0;
}
