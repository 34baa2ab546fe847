/* names.c - names: shell-style matching and did-you-mean suggestions. */
#include "names.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mem.h"
#include "msg.h"

bool
phys_glob(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool
phys_has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

size_t
phys_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, prev, tmp, best;

	row = phys_xmalloc((lb + 1) * sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* How far name is from word; a beginning counts as a match, so that
 * "hollow" suggests both hollow-sphere and hollow-cylinder. */
static size_t
name_distance(const char *word, const char *name)
{
	size_t len = strlen(word);

	if (len && strncmp(name, word, len) == 0)
		return 0;
	return phys_edit_distance(word, name);
}

void
phys_suggest(struct phys_buf *b, const char *word, const char *const *names,
    const char *prefix)
{
	size_t i, d, best = (size_t)-1, len = strlen(word), found = 0, total;
	size_t limit = len < 3 ? 1 : (len + 2) / 3;

	for (i = 0; names[i]; i++)
		if ((d = name_distance(word, names[i])) < best)
			best = d;
	if (best > limit)
		return;
	for (i = total = 0; names[i]; i++)
		total += name_distance(word, names[i]) == best;
	for (i = 0; names[i]; i++) {
		if (name_distance(word, names[i]) != best)
			continue;
		found++;
		if (found > 1)
			phys_buf_puts(b, found == total ? " or " : ", ");
		phys_buf_printf(b, "%s%s", prefix, names[i]);
	}
}

void
phys_close_consider(struct phys_close *c, const char *wrong,
    const char *known)
{
	size_t d = phys_edit_distance(wrong, known), limit, i, j;

	limit = strlen(wrong) / 3 > 2 ? strlen(wrong) / 3 : 2;
	if (d > limit)
		return;
	for (i = 0; i < c->n; i++)
		if (strcmp(c->name[i], known) == 0)
			return;
	for (i = 0; i < c->n && c->dist[i] <= d; i++)
		;
	if (i == 3)
		return;
	for (j = c->n < 3 ? c->n : 2; j > i; j--) {
		c->name[j] = c->name[j - 1];
		c->dist[j] = c->dist[j - 1];
	}
	c->name[i] = known;
	c->dist[i] = d;
	if (c->n < 3)
		c->n++;
	c->name[c->n] = NULL;
}

const char *
phys_close_text(const struct phys_close *c, bool element, char *buf,
    size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < c->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, element ?
		    "%s<%s>" : "%s'%s'", i == 0 ? "; did you mean " :
		    i + 1 == c->n ? " or " : ", ", c->name[i]);
	if (c->n && len < size)
		snprintf(buf + len, size - len, "?");
	return buf;
}

static int
name_cmp(const void *a, const void *b, void *arg)
{
	const struct phys_name_order *o = arg;
	const char *x = o->name((size_t)*(const int *)a, o->ctx);
	const char *y = o->name((size_t)*(const int *)b, o->ctx);

	if (!x || !y)
		return !!x - !!y;
	return strcmp(x, y);
}

void
phys_name_order_make(struct phys_name_order *o, size_t n, phys_name_of name,
    const void *ctx)
{
	size_t i;

	o->at = phys_xcalloc(n + 1, sizeof *o->at);
	o->n = n;
	o->name = name;
	o->ctx = ctx;
	for (i = 0; i < n; i++)
		o->at[i] = (int)i;
	qsort_r(o->at, n, sizeof *o->at, name_cmp, o);
}

int
phys_name_order_find(const struct phys_name_order *o, const char *key)
{
	size_t lo = 0, hi = o->n, mid;
	const char *s;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = o->name((size_t)o->at[mid], o->ctx);
		c = s ? strcmp(key, s) : 1;
		if (c == 0)
			return o->at[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

void
phys_name_order_free(struct phys_name_order *o)
{
	free(o->at);
	o->at = NULL;
	o->n = 0;
}

void
phys_name_table_init(struct phys_name_table *x, phys_name_of name,
    const void *ctx, bool keep_last)
{
	memset(x, 0, sizeof *x);
	x->name = name;
	x->ctx = ctx;
	x->keep_last = keep_last;
}

uint64_t
phys_name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot of key, or the empty one where it would go. */
static size_t
index_slot(const struct phys_name_table *x, const char *key)
{
	size_t k = (size_t)phys_name_hash(key) & (x->cap - 1);

	while (x->slot[k] &&
	    strcmp(x->name((size_t)x->slot[k] - 1, x->ctx), key) != 0)
		k = (k + 1) & (x->cap - 1);
	return k;
}

static void
index_grow(struct phys_name_table *x)
{
	int *old = x->slot;
	size_t cap = x->cap, i;

	x->cap = cap ? 2 * cap : 64;
	x->slot = phys_xcalloc(x->cap, sizeof *x->slot);
	for (i = 0; i < cap; i++)
		if (old[i])
			x->slot[index_slot(x, x->name((size_t)old[i] - 1,
			    x->ctx))] = old[i];
	free(old);
}

void
phys_name_table_add(struct phys_name_table *x, size_t i)
{
	const char *s = x->name(i, x->ctx);
	size_t k;

	if (!s)
		return;
	if (2 * (x->n + 1) > x->cap)
		index_grow(x);
	k = index_slot(x, s);
	if (!x->slot[k])
		x->n++;
	else if (!x->keep_last)
		return;
	x->slot[k] = (int)i + 1;
}

int
phys_name_table_find(const struct phys_name_table *x, const char *key)
{
	size_t k;

	if (!key || !x->cap)
		return -1;
	k = index_slot(x, key);
	return x->slot[k] - 1;
}

void
phys_name_table_free(struct phys_name_table *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = x->n = 0;
}

const char *
phys_last_scope(const char *name)
{
	const char *p, *last = NULL;

	for (p = strstr(name, "::"); p; p = strstr(p + 2, "::"))
		last = p;
	return last;
}
