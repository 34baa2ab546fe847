/*
 * fuzz.h - what the libFuzzer harnesses share: the entry points' prototypes
 * and the input as a NUL-terminated string or as a file the library can
 * open by name.
 */
#ifndef PHYS_FUZZ_H
#define PHYS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input with a NUL added; caller frees. */
char *fuzz_text(const uint8_t *data, size_t size);

/* The input as an open file and its name "/dev/fd/N", for readers that
 * take a path; fuzz_file_close() after use. */
struct fuzz_file {
	int fd;
	char path[32];
};
void fuzz_file_open(struct fuzz_file *f, const uint8_t *data, size_t size);
void fuzz_file_close(struct fuzz_file *f);

/* Nothing from the machine running the fuzzer: no model paths. */
void fuzz_isolate(void);

struct phys_scene;

/* /dev/null, for the state lines of the harnesses' runs. */
FILE *fuzz_sink(void);

/* A world from the input, called name, loaded as the commands load one
 * (quiet, skipping what an engine cannot run; whole: visuals too): 0,
 * or -1. The caller frees w either way. */
int fuzz_load(struct phys_scene *w, const char *name, const uint8_t *data,
    size_t size, bool whole);

#endif
