/*
 * excludes.c - link pairs that never touch (excludes.h): exclusions
 * kept as sorted pair keys (pairkey.h) that the engines' pair filter
 * searches, welds as each link's group and its parent's.
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

/* The link attribute attr of element e of link li names, in li's
 * model's scope: -1 when none, -2 when the attribute is absent. */
static int
named_link(const struct phys_scene *w, const struct phys_name_order *o,
    int li, xmlNodePtr e, const char *attr)
{
	char *name = phys_node_attr(e, attr), *scoped;
	int other;

	if (!name)
		return -2;
	scoped = phys_model_scoped(w, li, name);
	other = phys_name_order_find(o, scoped);
	free(scoped);
	free(name);
	return other;
}

/* A weld's group: its link's index, or, for the world, one past the
 * links for each model (a model's bodies welded to the world are one
 * weld, as MuJoCo's are; another model's are not in it). */
static int
weld_group(const struct phys_scene *w, const struct phys_name_order *o,
    int li, xmlNodePtr e)
{
	char *name = phys_node_attr(e, "link");
	bool world = name && strcmp(name, "world") == 0;

	free(name);
	if (world)
		return (int)w->nlinks + (w->links[li].model >= 0 ?
		    w->links[li].model : (int)w->nmodels);
	return named_link(w, o, li, e, "link");
}

/* Link li's <phys:weld> e into w->welds. parent_of holds each weld's
 * parent as the weld's first link named it (-2: none yet), which its
 * other links must name too. */
static int
read_weld(struct phys_scene *w, const struct phys_name_order *o,
    int *parent_of, int li, xmlNodePtr e)
{
	int g = weld_group(w, o, li, e), p = named_link(w, o, li, e, "parent");

	if (g < 0 || p == -1)
		return phys_failat(PHYS_AT(w->links[li].doc, e),
		    "<phys:weld>: its %s= names no link of the model",
		    g < 0 ? "link" : "parent");
	p = p < 0 ? -1 : p;
	if (parent_of[g] != -2 && parent_of[g] != p)
		return phys_failat(PHYS_AT(w->links[li].doc, e),
		    "%s", "<phys:weld>: its parent= is not the one another "
		    "link of its weld names");
	parent_of[g] = p;
	w->welds[2 * li] = g;
	w->welds[2 * li + 1] = p;
	return 0;
}

/* Link li's <phys:exclude>s into w->excluded, its <phys:weld> into
 * w->welds. */
static int
read_link(struct phys_scene *w, const struct phys_name_order *order,
    int *parent_of, int li)
{
	xmlNodePtr n;
	int o;

	for (n = w->links[li].node ? w->links[li].node->children : NULL; n;
	    n = n->next) {
		if (phys_mjcf_own(n, "weld")) {
			if (read_weld(w, order, parent_of, li, n) < 0)
				return -1;
			continue;
		}
		if (!phys_mjcf_own(n, "exclude"))
			continue;
		if ((o = named_link(w, order, li, n, "link")) < 0)
			return phys_failat(PHYS_AT(w->links[li].doc, n), "%s",
			    "<phys:exclude>: its link= names no link of the "
			    "model");
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
	size_t i, count = 0, welds = 0;
	int rc = 0, *parent_of;

	for (i = 0; i < w->nlinks; i++)
		for (n = w->links[i].node ? w->links[i].node->children : NULL;
		    n; n = n->next) {
			count += phys_mjcf_own(n, "exclude");
			welds += phys_mjcf_own(n, "weld");
		}
	if (!count && !welds)
		return 0;
	w->excluded = phys_xcalloc(count + 1, sizeof *w->excluded);
	w->welds = phys_xcalloc(2 * w->nlinks, sizeof *w->welds);
	memset(w->welds, -1, 2 * w->nlinks * sizeof *w->welds);
	parent_of = phys_xcalloc(w->nlinks + w->nmodels + 1,
	    sizeof *parent_of);
	for (i = 0; i < w->nlinks + w->nmodels + 1; i++)
		parent_of[i] = -2;
	phys_name_order_make(&order, w->nlinks, link_name, w);
	for (i = 0; i < w->nlinks && rc == 0; i++)
		rc = read_link(w, &order, parent_of, (int)i);
	phys_name_order_free(&order);
	free(parent_of);
	if (!welds) {
		free(w->welds);
		w->welds = NULL;
	}
	if (rc == 0)
		phys_keys_sort(w->excluded, w->nexcluded);
	return rc;
}

bool
phys_excludes_welded(const struct phys_scene *w, int l1, int l2)
{
	const int *a, *b;

	if (!w->welds)
		return false;
	a = &w->welds[2 * l1];
	b = &w->welds[2 * l2];
	return a[0] >= 0 && b[0] >= 0 &&
	    (a[0] == b[0] || (a[1] >= 0 && a[1] == b[0]) ||
	    (b[1] >= 0 && b[1] == a[0]));
}

bool
phys_excludes_listed(const struct phys_scene *w, int l1, int l2)
{
	return phys_key_listed(w->excluded, w->nexcluded,
	    phys_pair_key(l1, l2, (int64_t)w->nlinks));
}

bool
phys_excludes_pair(const struct phys_scene *w, int l1, int l2)
{
	return phys_excludes_welded(w, l1, l2) ||
	    phys_excludes_listed(w, l1, l2);
}

/* The links of each weld group, by group then link: counting sort. */
struct weld_buckets {
	int *start;	/* group g's links are link[start[g]..start[g + 1]) */
	int *link;
};

static void
buckets_make(const struct phys_scene *w, int ngroups, struct weld_buckets *b)
{
	int li, g, *fill;

	b->start = phys_xcalloc((size_t)ngroups + 1, sizeof *b->start);
	b->link = phys_xcalloc(w->nlinks + 1, sizeof *b->link);
	for (li = 0; li < (int)w->nlinks; li++)
		if ((g = w->welds[2 * li]) >= 0)
			b->start[g + 1]++;
	for (g = 0; g < ngroups; g++)
		b->start[g + 1] += b->start[g];
	fill = phys_xcalloc((size_t)ngroups + 1, sizeof *fill);
	memcpy(fill, b->start, (size_t)ngroups * sizeof *fill);
	for (li = 0; li < (int)w->nlinks; li++)
		if ((g = w->welds[2 * li]) >= 0)
			b->link[fill[g]++] = li;
	free(fill);
}

void
phys_excludes_each_welded(const struct phys_scene *w,
    void (*each)(int l1, int l2, void *arg), void *arg)
{
	struct weld_buckets b;
	int ngroups = (int)(w->nlinks + w->nmodels) + 1, g, p, i, j, l1, l2;

	if (!w->welds)
		return;
	buckets_make(w, ngroups, &b);
	for (g = 0; g < ngroups; g++) {
		for (i = b.start[g]; i < b.start[g + 1]; i++)
			for (j = i + 1; j < b.start[g + 1]; j++)
				each(b.link[i], b.link[j], arg);
		if (b.start[g] == b.start[g + 1] ||
		    (p = w->welds[2 * b.link[b.start[g]] + 1]) < 0)
			continue;
		/* a weld's links and its parent weld's */
		for (i = b.start[g]; i < b.start[g + 1]; i++)
			for (j = b.start[p]; j < b.start[p + 1]; j++) {
				l1 = b.link[i];
				l2 = b.link[j];
				each(l1 < l2 ? l1 : l2, l1 < l2 ? l2 : l1, arg);
			}
	}
	free(b.start);
	free(b.link);
}
