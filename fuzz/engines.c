/*
 * engines.c - fuzz the engines through the public API (phys.h): the input
 * is a world, given a profile of every engine (inserted after its <world>
 * tag), run a few steps under each in turn, switching mid-run, as an
 * embedder would; a MuJoCo model under its own profiles (run_mjcf). No
 * input may end the process, exhaust it or hang it: every failure is an
 * error code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuzz.h"
#include "phys.h"

static const char *const engines[] = {
	"ode", "bullet", "mujoco", "dart", "simbody"
};
#define NENGINES (sizeof engines / sizeof *engines)

static void
quiet(const char *message, void *ctx)
{
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_isolate();
	phys_set_warning_handler(quiet, NULL);
	return 0;
}

/* The input with a profile named fuzz_TYPE for each engine just inside
 * its first <world ...>; NULL when it has none. */
static char *
with_profiles(const uint8_t *data, size_t size, size_t *len)
{
	struct phys_buf b = { 0 };
	char *text = fuzz_text(data, size), *world, *end;
	size_t i;

	if (!(world = strstr(text, "<world")) || !(end = strchr(world, '>'))) {
		free(text);
		return NULL;
	}
	end++;
	phys_buf_putn(&b, text, (size_t)(end - text));
	for (i = 0; i < NENGINES; i++)
		phys_buf_printf(&b, "<physics name=\"fuzz_%s\" type=\"%s\">"
		    "<max_step_size>0.002</max_step_size></physics>",
		    engines[i], engines[i]);
	phys_buf_puts(&b, end);
	free(text);
	*len = b.len;
	return b.s;
}

/*
 * A MuJoCo model (MJCF) as it is: its profiles are phys's, MuJoCo's own
 * (its <option> kept exactly for the MuJoCo engine) and the one the
 * other engines start from; run under each, and back.
 */
static void
run_mjcf(const uint8_t *data, size_t size, const phys_world_def *wd)
{
	static const char *const profiles[] = { "mujoco", "default_physics",
		"mujoco" };
	char *text = fuzz_text(data, size);
	phys_world *w = phys_open_world_text("fuzz.xml", text, strlen(text),
	    wd);
	phys_run *r;
	size_t i;

	free(text);
	if (!w)
		return;
	if ((r = phys_create_run(w, NULL))) {
		phys_run_step(r, 2);
		for (i = 0; i < sizeof profiles / sizeof *profiles; i++)
			if (phys_run_use_profile(r, profiles[i]) < 0 ||
			    phys_run_step(r, 2) < 0)
				break;
		phys_free_run(r);
	}
	phys_free_world(w);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	phys_world_def wd = phys_default_world_def();
	phys_world *w;
	phys_run *r;
	char *text, name[32];
	size_t len, i;

	wd.quiet = 1;
	wd.skip_unsupported = 1;
	if (!(text = with_profiles(data, size, &len))) {
		if (memmem(data, size, "<mujoco", 7))
			run_mjcf(data, size, &wd);
		return 0;
	}
	w = phys_open_world_text("fuzz.sdf", text, len, &wd);
	free(text);
	if (!w)
		return 0;
	if ((r = phys_create_run(w, NULL))) {
		phys_run_step(r, 2);
		for (i = 0; i <= NENGINES; i++) {
			snprintf(name, sizeof name, "fuzz_%s",
			    engines[i % NENGINES]);
			if (phys_run_use_profile(r, name) < 0 ||
			    phys_run_step(r, 2) < 0)
				break;
		}
		phys_free_run(r);
	}
	phys_free_world(w);
	return 0;
}
