/*
 * excludes.c - link pairs that never touch (excludes.h), kept as sorted
 * pair keys (pairkey.h) that the engines' pair filter searches.
 */
#include "excludes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mjcf.h"
#include "names.h"
#include "pairkey.h"
#include "sdf.h"

/* The links by name, for other_link's binary search: a reader linear
 * in its input, however many links and exclusions. */
static const char *
link_name(size_t i, const void *w)
{
	return ((const struct phys_scene *)w)->links[i].name;
}

char *
phys_model_scoped(const struct phys_scene *w, int li, const char *local)
{
	const struct phys_link *l = &w->links[li];

	return l->model >= 0 ? phys_xasprintf("%s::%s",
	    w->models[l->model].name, local) : phys_xstrdup(local);
}

/* The link the exclusion e of link li names, in li's model's scope. */
static int
other_link(const struct phys_scene *w, const struct phys_name_order *o,
    int li, xmlNodePtr e)
{
	char *name = phys_node_attr(e, "link"), *scoped;
	int other;

	if (!name)
		return -1;
	scoped = phys_model_scoped(w, li, name);
	other = phys_name_order_find(o, scoped);
	free(scoped);
	free(name);
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
		w->excluded[w->nexcluded++] = phys_pair_key(o, li,
		    (int64_t)w->nlinks);
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
	if (rc == 0)
		phys_keys_sort(w->excluded, w->nexcluded);
	return rc;
}

bool
phys_excludes_pair(const struct phys_scene *w, int l1, int l2)
{
	return phys_key_listed(w->excluded, w->nexcluded,
	    phys_pair_key(l1, l2, (int64_t)w->nlinks));
}
