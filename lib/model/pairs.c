/*
 * pairs.c - collision pairs with a surface of their own (pairs.h), kept
 * sorted by lo * ncollisions + hi for the engines' binary search.
 */
#include "pairs.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "mjcf.h"
#include "names.h"

static int
key_order(const void *a, const void *b)
{
	int64_t x = ((const struct phys_contact_pair *)a)->key;
	int64_t y = ((const struct phys_contact_pair *)b)->key;

	return x < y ? -1 : x > y;
}

static int64_t
pair_key(const struct phys_scene *w, int c1, int c2)
{
	int lo = c1 < c2 ? c1 : c2, hi = c1 < c2 ? c2 : c1;

	return (int64_t)lo * (int64_t)w->ncollisions + hi;
}

static const char *
collision_name(size_t i, const void *w)
{
	return ((const struct phys_scene *)w)->collisions[i].name;
}

/* The collision e names: its link= in the scope of collision ci's model
 * (as <phys:exclude> names a link), its collision= in that link; by
 * the collisions' names in order. */
static int
other_collision(const struct phys_scene *w, const struct phys_name_order *o,
    int ci, xmlNodePtr e)
{
	const struct phys_link *l = &w->links[w->collisions[ci].link];
	char *link = phys_node_attr(e, "link");
	char *coll = phys_node_attr(e, "collision");
	char *scoped;
	int other = -1;

	if (link && coll) {
		scoped = l->model >= 0 ? phys_xasprintf("%s::%s::%s",
		    w->models[l->model].name, link, coll) :
		    phys_xasprintf("%s::%s", link, coll);
		other = phys_name_order_find(o, scoped);
		free(scoped);
	}
	free(link);
	free(coll);
	return other;
}

static size_t
count_pairs(const struct phys_scene *w)
{
	xmlNodePtr n;
	size_t i, count = 0;

	for (i = 0; i < w->ncollisions; i++)
		for (n = w->collisions[i].node ?
		    w->collisions[i].node->children : NULL; n; n = n->next)
			count += phys_mjcf_own(n, "pair");
	return count;
}

/* Collision ci's <phys:pair>s into w->pairs. */
static int
read_collision(struct phys_scene *w, const struct phys_name_order *o, int ci,
    phys_pair_values_fn read, void *ctx)
{
	const struct phys_collision *c = &w->collisions[ci];
	struct phys_contact_pair *p;
	xmlNodePtr n;
	int other;

	for (n = c->node->children; n; n = n->next) {
		if (!phys_mjcf_own(n, "pair"))
			continue;
		if ((other = other_collision(w, o, ci, n)) < 0 || other == ci)
			return phys_failat(c->doc->name, phys_node_line(n),
			    "%s", "<phys:pair>: its link= and collision= "
			    "name no other collision of the model");
		p = &w->pairs[w->npairs];
		memset(p, 0, sizeof *p);
		p->c1 = ci;
		p->c2 = other;
		p->key = pair_key(w, ci, other);
		p->node = n;
		p->doc = c->doc;
		if (read(ctx, c->doc, n, &p->vals) < 0) {
			if (p->vals)
				phys_values_clear(PHYS_S_COLLISION, p->vals);
			return -1;
		}
		w->npairs++;
	}
	return 0;
}

int
phys_pairs_read(struct phys_scene *w, phys_pair_values_fn read, void *ctx)
{
	struct phys_name_order o;
	size_t i, count = count_pairs(w);
	int rc = 0;

	if (!count)
		return 0;
	w->pairs = phys_xcalloc(count, sizeof *w->pairs);
	phys_name_order_make(&o, w->ncollisions, collision_name, w);
	for (i = 0; i < w->ncollisions && rc == 0; i++)
		if (w->collisions[i].node)
			rc = read_collision(w, &o, (int)i, read, ctx);
	phys_name_order_free(&o);
	if (rc == 0 && w->npairs > 1)
		qsort(w->pairs, w->npairs, sizeof *w->pairs, key_order);
	return rc;
}

const struct phys_contact_pair *
phys_pair_find(const struct phys_scene *w, int c1, int c2)
{
	struct phys_contact_pair k;

	if (!w->npairs)
		return NULL;
	k.key = pair_key(w, c1, c2);
	return bsearch(&k, w->pairs, w->npairs, sizeof k, key_order);
}

void
phys_pairs_free(struct phys_scene *w)
{
	size_t i;

	for (i = 0; i < w->npairs; i++)
		if (w->pairs[i].vals)
			phys_values_clear(PHYS_S_COLLISION, w->pairs[i].vals);
	free(w->pairs);
	w->pairs = NULL;
	w->npairs = 0;
}
