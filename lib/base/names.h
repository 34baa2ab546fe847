/* names.h - names: shell-style matching and did-you-mean suggestions. */
#ifndef PHYS_BASE_NAMES_H
#define PHYS_BASE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Shell-style match of a name ('*', '?', '[...]'); '*' also crosses "::" and "/". */
bool phys_glob(const char *pattern, const char *name);
bool phys_has_glob(const char *s);

/* The last "::" of a scoped name ("m::link::c": the one before "c"), or
 * NULL for a name of no scope. */
const char *phys_last_scope(const char *name);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t phys_edit_distance(const char *a, const char *b);
/* The names closest to word, "a, b or c" (empty when none is close). */
void phys_suggest(struct phys_buf *b, const char *word,
    const char *const *names, const char *prefix);

/*
 * The three known names closest to a wrong one, within what a typo can
 * explain, gathered a candidate at a time (zeroed to start): name[] is
 * NULL-terminated, nearest first.
 */
struct phys_close {
	const char *name[4];
	size_t dist[3];
	size_t n;
};
void phys_close_consider(struct phys_close *c, const char *wrong,
    const char *known);
/* "; did you mean <a>, <b> or <c>?" (element) or with 'a' quotes, into
 * buf; empty when none is close. Returns buf. */
const char *phys_close_text(const struct phys_close *c, bool element,
    char *buf, size_t size);

/*
 * Names looked up by binary search: the order that sorts n names (the
 * i-th is name(i, ctx); a NULL name sorts first and is never found), and
 * the index of key in it, -1 when no name is key. For readers linear in
 * their input however many names they look up.
 */
typedef const char *(*phys_name_of)(size_t i, const void *ctx);
struct phys_name_order {
	int *at;		/* indices, by name */
	size_t n;
	phys_name_of name;
	const void *ctx;
};
void phys_name_order_make(struct phys_name_order *o, size_t n,
    phys_name_of name, const void *ctx);
int phys_name_order_find(const struct phys_name_order *o, const char *key);
void phys_name_order_free(struct phys_name_order *o);

/* A name's hash, for tables of names. */
uint64_t phys_name_hash(const char *s);

/*
 * Names looked up by hash as they are added, for a reader that looks
 * names up while it still adds them: entry i's name is name(i, ctx),
 * read again when the table grows (so the array behind it may move). A
 * NULL name is not added; of two entries of one name, find gives the
 * first added, or with keep_last the last.
 */
struct phys_name_table {
	int *slot;		/* entry + 1; 0: empty */
	size_t cap, n;
	phys_name_of name;
	const void *ctx;
	bool keep_last;
};
void phys_name_table_init(struct phys_name_table *x, phys_name_of name,
    const void *ctx, bool keep_last);
void phys_name_table_add(struct phys_name_table *x, size_t i);
int phys_name_table_find(const struct phys_name_table *x, const char *key);
void phys_name_table_free(struct phys_name_table *x);

#endif
