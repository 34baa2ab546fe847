/*
 * mjcfout.c - a world as MJCF with its actuators (mjcfout.h): the
 * systems are loaded as a run loads them, for the gains they give their
 * joints, and asked which joints they drive as MuJoCo's actuators do.
 */
#include "mjcfout.h"

#include <stdlib.h>

#include "massless.h"
#include "mjcfwrite.h"
#include "systems.h"
#include "world.h"

int
phys_print_mjcf(const char *path, const char *out, struct phys_buf *b)
{
	struct phys_load_options lo;
	struct phys_scene w;
	struct phys_run_values v;
	struct phys_systems *s = NULL;
	struct phys_mjcf_actuator *acts = NULL;
	struct phys_mjcf_medium medium;
	size_t n = 0;
	int rc;

	phys_load_options_default(&lo);
	lo.skip_unsupported = true;
	lo.whole = true;	/* the visuals too, as geoms that touch nothing */
	if ((rc = phys_world_load(&w, path, &lo)) < 0) {
		phys_world_free(&w);
		return rc;
	}
	/* the masses the engines run it with */
	(void)phys_massless_models_fill_world(&w);
	phys_run_values_init(&v, &w, w.start);
	if ((rc = phys_systems_load(&s, &w, &v)) == 0) {
		phys_systems_actuators(s, &v, &acts, &n);
		rc = phys_mjcf_write(&w, acts, n,
		    phys_systems_medium(s, &medium) ? &medium : NULL, out, b);
	}
	free(acts);
	phys_systems_free(s);
	phys_run_values_free(&v);
	phys_world_free(&w);
	return rc;
}
