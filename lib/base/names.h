/* names.h - names: shell-style matching and did-you-mean suggestions. */
#ifndef PHYS_BASE_NAMES_H
#define PHYS_BASE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Shell-style match of a name ('*', '?', '[...]'); '*' also crosses "::" and "/". */
bool phys_glob(const char *pattern, const char *name);
bool phys_has_glob(const char *s);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t phys_edit_distance(const char *a, const char *b);
/* The names closest to word, "a, b or c" (empty when none is close). */
void phys_suggest(struct phys_buf *b, const char *word,
    const char *const *names, const char *prefix);

#endif
