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

/* The link the exclusion e of link li names, in li's model's scope (the
 * model's name, not the link's up to its last "::": an MJCF body's name
 * may hold "::", as phys-sdf print --format mjcf writes them). */
static int
other_link(const struct phys_scene *w, int li, xmlNodePtr e)
{
	const struct phys_link *l = &w->links[li];
	xmlChar *name = xmlGetProp(e, (const xmlChar *)"link");
	const char *model = l->model >= 0 ? w->models[l->model].name : NULL;
	char *scoped;
	int other = -1;
	size_t i;

	if (!name)
		return -1;
	scoped = model ? phys_xasprintf("%s::%s", model,
	    (const char *)name) : phys_xstrdup((const char *)name);
	xmlFree(name);
	for (i = 0; i < w->nlinks && other < 0; i++)
		if (strcmp(w->links[i].name, scoped) == 0)
			other = (int)i;
	free(scoped);
	return other;
}

int
phys_excludes_read(struct phys_scene *w)
{
	xmlNodePtr n;
	size_t i;
	int o, lo, hi;

	for (i = 0; i < w->nlinks; i++)
		for (n = w->links[i].node ? w->links[i].node->children : NULL;
		    n; n = n->next) {
			if (n->type != XML_ELEMENT_NODE || !n->ns ||
			    !n->ns->href || strcmp((const char *)n->ns->href,
			    PHYS_KEY_NS) != 0 || strcmp((const char *)n->name,
			    "exclude") != 0)
				continue;
			if ((o = other_link(w, (int)i, n)) < 0)
				return phys_failat(w->links[i].doc->name,
				    phys_node_line(n), "%s", "<phys:exclude>: "
				    "its link= names no link of the model");
			lo = o < (int)i ? o : (int)i;
			hi = o < (int)i ? (int)i : o;
			w->excluded = phys_xrealloc(w->excluded,
			    (w->nexcluded + 1) * sizeof *w->excluded);
			w->excluded[w->nexcluded++] = (int64_t)lo *
			    (int64_t)w->nlinks + hi;
		}
	if (w->nexcluded > 1)
		qsort(w->excluded, w->nexcluded, sizeof *w->excluded,
		    pair_order);
	return 0;
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
