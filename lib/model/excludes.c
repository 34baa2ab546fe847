/*
 * excludes.c - link pairs that never touch (excludes.h), kept sorted as
 * lo * nlinks + hi so that the engines' pair filter finds one in a
 * binary search.
 */
#include "excludes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mjcf.h"
#include "sdf.h"

static int
pair_order(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The links by name, for other_link's binary search: a reader linear
 * in its input, however many links and exclusions. */
static int
name_order(const void *a, const void *b, void *w)
{
	const struct phys_link *l = ((const struct phys_scene *)w)->links;

	return strcmp(l[*(const int *)a].name, l[*(const int *)b].name);
}

static int *
links_by_name(const struct phys_scene *w)
{
	int *order = phys_xcalloc(w->nlinks + 1, sizeof *order);
	size_t i;

	for (i = 0; i < w->nlinks; i++)
		order[i] = (int)i;
	qsort_r(order, w->nlinks, sizeof *order, name_order, (void *)w);
	return order;
}

/* The link the exclusion e of link li names, in li's model's scope (the
 * model's name, not the link's up to its last "::": an MJCF body's name
 * may hold "::", as phys-sdf print --format mjcf writes them). */
static int
other_link(const struct phys_scene *w, const int *order, int li,
    xmlNodePtr e)
{
	const struct phys_link *l = &w->links[li];
	xmlChar *name = xmlGetProp(e, (const xmlChar *)"link");
	const char *model = l->model >= 0 ? w->models[l->model].name : NULL;
	char *scoped;
	size_t lo = 0, hi = w->nlinks, mid;
	int c, other = -1;

	if (!name)
		return -1;
	scoped = model ? phys_xasprintf("%s::%s", model,
	    (const char *)name) : phys_xstrdup((const char *)name);
	xmlFree(name);
	while (lo < hi && other < 0) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(scoped, w->links[order[mid]].name);
		if (c == 0)
			other = order[mid];
		else if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	free(scoped);
	return other;
}

/* Link li's <phys:exclude>s into w->excluded. */
static int
read_link(struct phys_scene *w, const int *order, int li)
{
	xmlNodePtr n;
	int o;

	for (n = w->links[li].node ? w->links[li].node->children : NULL; n;
	    n = n->next) {
		if (!phys_mjcf_own(n, "exclude"))
			continue;
		if ((o = other_link(w, order, li, n)) < 0)
			return phys_failat(w->links[li].doc->name,
			    phys_node_line(n), "%s", "<phys:exclude>: its "
			    "link= names no link of the model");
		w->excluded[w->nexcluded++] = o < li ?
		    (int64_t)o * (int64_t)w->nlinks + li :
		    (int64_t)li * (int64_t)w->nlinks + o;
	}
	return 0;
}

int
phys_excludes_read(struct phys_scene *w)
{
	int *order;
	xmlNodePtr n;
	size_t i, count = 0;
	int rc = 0;

	for (i = 0; i < w->nlinks; i++)
		for (n = w->links[i].node ? w->links[i].node->children : NULL;
		    n; n = n->next)
			count += phys_mjcf_own(n, "exclude");
	if (!count)
		return 0;
	w->excluded = phys_xcalloc(count, sizeof *w->excluded);
	order = links_by_name(w);
	for (i = 0; i < w->nlinks && rc == 0; i++)
		rc = read_link(w, order, (int)i);
	free(order);
	if (rc == 0 && w->nexcluded > 1)
		qsort(w->excluded, w->nexcluded, sizeof *w->excluded,
		    pair_order);
	return rc;
}

bool
phys_excludes_pair(const struct phys_scene *w, int l1, int l2)
{
	int64_t key;

	if (!w->nexcluded)
		return false;
	key = l1 < l2 ? (int64_t)l1 * (int64_t)w->nlinks + l2 :
	    (int64_t)l2 * (int64_t)w->nlinks + l1;
	return bsearch(&key, w->excluded, w->nexcluded, sizeof key,
	    pair_order) != NULL;
}
