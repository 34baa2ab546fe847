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
#include "names.h"
#include "sdf.h"

static int
pair_order(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The links by name, for other_link's binary search: a reader linear
 * in its input, however many links and exclusions. */
static const char *
link_name(size_t i, const void *w)
{
	return ((const struct phys_scene *)w)->links[i].name;
}

/* The link the exclusion e of link li names, in li's model's scope (the
 * model's name, not the link's up to its last "::": an MJCF body's name
 * may hold "::", as phys-sdf print --format mjcf writes them). */
static int
other_link(const struct phys_scene *w, const struct phys_name_order *o,
    int li, xmlNodePtr e)
{
	const struct phys_link *l = &w->links[li];
	xmlChar *name = xmlGetProp(e, (const xmlChar *)"link");
	const char *model = l->model >= 0 ? w->models[l->model].name : NULL;
	char *scoped;
	int other;

	if (!name)
		return -1;
	scoped = model ? phys_xasprintf("%s::%s", model,
	    (const char *)name) : phys_xstrdup((const char *)name);
	xmlFree(name);
	other = phys_name_order_find(o, scoped);
	free(scoped);
	return other;
}

/* Link li's <phys:exclude>s into w->excluded. */
static int
read_link(struct phys_scene *w, const struct phys_name_order *order, int li)
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
	struct phys_name_order order;
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
	phys_name_order_make(&order, w->nlinks, link_name, w);
	for (i = 0; i < w->nlinks && rc == 0; i++)
		rc = read_link(w, &order, (int)i);
	phys_name_order_free(&order);
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
