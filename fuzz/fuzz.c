/* fuzz.c - helpers shared by the harnesses (see fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "world.h"

char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = phys_xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

void
fuzz_file_open(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	f->fd = memfd_create("fuzz", 0);
	if (f->fd < 0 || (size > 0 && write(f->fd, data, size) != (ssize_t)size))
		abort();
	snprintf(f->path, sizeof f->path, "/dev/fd/%d", f->fd);
}

void
fuzz_file_close(struct fuzz_file *f)
{
	close(f->fd);
}

void
fuzz_isolate(void)
{
	unsetenv("GAZEBO_MODEL_PATH");
	unsetenv("SDF_PATH");
	unsetenv("IGN_GAZEBO_RESOURCE_PATH");
	unsetenv("GZ_SIM_RESOURCE_PATH");
}

FILE *
fuzz_sink(void)
{
	static FILE *sink;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	return sink;
}

int
fuzz_load(struct phys_scene *w, const char *name, const uint8_t *data,
    size_t size, bool whole)
{
	struct phys_load_options lo;

	phys_load_options_default(&lo);
	lo.quiet = true;
	lo.skip_unsupported = true;
	lo.whole = whole;
	return phys_doc_load_text(&w->doc, name, (const char *)data, size) ==
	    0 && phys_world_load_doc(w, &lo) == 0 ? 0 : -1;
}
