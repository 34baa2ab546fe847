/*
 * plan.c - fuzz sweep plans through the readers phys-sweep uses: every
 * line read, checked and hashed (run, score), a few ids picked out as
 * run-one does, the lines parsed, ranked and turned into the landscape
 * (best, plot), and each run's state looked up in an empty directory.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "plot.h"
#include "sweep.h"

/* The landscape's gnuplot body, drawn as an image or as text. */
static void
landscape(const struct phys_sweep_runs *r, bool text, struct phys_buf *b)
{
	struct phys_sweep_landscape l = { 0 };
	struct phys_ist_canvas c = { text, text ? 80 : 640, text ? 24 : 360 };

	l.runs = r;
	l.nnames = phys_sweep_landscape_names(r, &l.names);
	if (l.nnames)
		phys_sweep_landscape_body(b, &c, &l);
	free(l.names);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long long ids[] = { 0, 1, 7 };
	struct phys_sweep_runs r;
	struct phys_buf b = { 0 };
	struct fuzz_file f;
	json_t *run;
	size_t i;

	fuzz_file_open(&f, data, size);
	if (phys_sweep_runs_load(&r, f.path) == 0) {
		for (i = 0; i < r.n; i++) {
			phys_sweep_state("/nonexistent", &r.run[i]);
			if ((run = phys_sweep_run_json(&r, i)))
				json_decref(run);
		}
		if (phys_sweep_runs_parse(&r) == 0) {
			phys_sweep_rank(&r, size > 0 && (data[0] & 1));
			landscape(&r, size > 0 && (data[0] & 2), &b);
		}
	}
	phys_sweep_runs_free(&r);
	phys_sweep_runs_load_ids(&r, f.path, ids, sizeof ids / sizeof *ids);
	phys_sweep_runs_free(&r);
	phys_buf_free(&b);
	fuzz_file_close(&f);
	return 0;
}
