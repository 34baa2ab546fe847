/*
 * state.c - fuzz the state-line reader: every line read, every field's
 * value converted, as phys-introspect's commands read runs.
 */
#include "fuzz.h"
#include "statein.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct phys_ist_reader *r;
	struct phys_ist_frame *fr;
	struct fuzz_file f;
	size_t i;

	fuzz_file_open(&f, data, size);
	if ((r = phys_ist_open(f.path))) {
		fr = phys_ist_frame(r);
		while (phys_ist_read(r) > 0)
			for (i = 0; i < fr->nfields; i++)
				phys_ist_value(&fr->fields[i]);
	}
	phys_ist_close(r);
	fuzz_file_close(&f);
	return 0;
}
