/*
 * engines.c - fuzz the engines through the public API (phys.h): the input
 * is a world, given a profile of every engine (inserted after its <world>
 * tag), run a few steps under each in turn, switching mid-run, as an
 * embedder would; a MuJoCo model under its own profiles. No
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
/* the profiles with_profiles adds, from the first engine's back to it */
static char profile_name[NENGINES + 1][32];
static const char *fuzz_profiles[NENGINES + 1];

static void
quiet(const char *message, void *ctx)
{
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	fuzz_isolate();
	for (i = 0; i <= NENGINES; i++) {
		snprintf(profile_name[i], sizeof profile_name[i], "fuzz_%s",
		    engines[i % NENGINES]);
		fuzz_profiles[i] = profile_name[i];
	}
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
 * World text under name: two steps, then two under each profile of the
 * list in turn, as an embedder switches.
 */
static void
run_through(const char *name, const char *text, size_t len,
    const phys_world_def *wd, const char *const *profiles, size_t n)
{
	phys_world *w = phys_open_world_text(name, text, len, wd);
	phys_run *r;
	size_t i;

	if (!w)
		return;
	if ((r = phys_create_run(w, NULL))) {
		phys_run_step(r, 2);
		for (i = 0; i < n; i++)
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
	/* a MuJoCo model (MJCF) has profiles of its own: MuJoCo's (its
	 * <option> kept exactly) and the one the other engines start from */
	static const char *const mjcf_profiles[] = { "mujoco",
		"default_physics", "mujoco" };
	phys_world_def wd = phys_default_world_def();
	char *text;
	size_t len;

	wd.quiet = 1;
	wd.skip_unsupported = 1;
	if ((text = with_profiles(data, size, &len))) {
		run_through("fuzz.sdf", text, len, &wd, fuzz_profiles,
		    NENGINES + 1);
	} else if (memmem(data, size, "<mujoco", 7)) {
		text = fuzz_text(data, size);
		run_through("fuzz.xml", text, strlen(text), &wd,
		    mjcf_profiles, sizeof mjcf_profiles / sizeof *mjcf_profiles);
	}
	free(text);
	return 0;
}
