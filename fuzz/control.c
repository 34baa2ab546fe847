/*
 * control.c - fuzz control lines: the input is phys-step's --control file
 * for a ten-step run of a small world (after a first line "#mjcf", of a
 * small MuJoCo model), state lines thrown away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim.h"
#include "small_world.h"

static FILE *sink;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sink = fopen("/dev/null", "w");
	return sink ? 0 : -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_run_options o;
	struct phys_scene w;
	struct fuzz_file f;

	/* a first line "#mjcf": the lines steer a MuJoCo model's run */
	if (size >= 6 && memcmp(data, "#mjcf\n", 6) == 0) {
		fuzz_mjcf_world(&w);
		data += 6;
		size -= 6;
	} else {
		fuzz_world(&w);
	}
	fuzz_file_open(&f, data, size);
	phys_run_options_default(&o);
	o.steps = 10;
	o.control = f.path;
	phys_sim_run(&w, &o, sink);
	fuzz_file_close(&f);
	phys_world_free(&w);
	return 0;
}
