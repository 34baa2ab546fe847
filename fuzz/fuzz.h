/*
 * fuzz.h - what the libFuzzer harnesses share: the entry points' prototypes
 * and the input as a NUL-terminated string or as a file the library can
 * open by name.
 */
#ifndef PHYS_FUZZ_H
#define PHYS_FUZZ_H

#include <stddef.h>
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

#endif
