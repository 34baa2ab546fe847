/*
 * pairs.c - collision pairs with a surface of their own (pairs.h), kept
 * sorted by their lower and higher collision for the engines' binary
 * search.
 */
#include "pairs.h"

#include <stdlib.h>
#include <string.h>

#include "excludes.h"
#include "mem.h"
#include "mjcf.h"
#include "names.h"
#include "pairkey.h"

/* The order of pairs: their keys over every int a collision index can
 * be, the pair's two collisions in either order. */
static int
pair_cmp(const void *a, const void *b)
{
	const struct phys_contact_pair *x = a, *y = b;
	int64_t kx = phys_pair_key(x->c1, x->c2, (int64_t)1 << 31);
	int64_t ky = phys_pair_key(y->c1, y->c2, (int64_t)1 << 31);

	return phys_key_cmp(&kx, &ky);
}

static const char *
collision_name(size_t i, const void *w)
{
	return ((const struct phys_scene *)w)->collisions[i].name;
}

/* The collision e names: its link= in the scope of collision ci's model
 * (phys_model_scoped), its collision= in that link. */
static int
other_collision(const struct phys_scene *w, const struct phys_name_order *o,
    int ci, xmlNodePtr e)
{
	char *link = phys_node_attr(e, "link");
	char *coll = phys_node_attr(e, "collision");
	char *local, *scoped;
	int other = -1;

	if (link && coll) {
		local = phys_xasprintf("%s::%s", link, coll);
		scoped = phys_model_scoped(w, w->collisions[ci].link, local);
		other = phys_name_order_find(o, scoped);
		free(scoped);
		free(local);
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
			return phys_failat(PHYS_AT(c->doc, n),
			    "%s", "<phys:pair>: its link= and collision= "
			    "name no other collision of the model");
		p = &w->pairs[w->npairs];
		p->c1 = ci;
		p->c2 = other;
		p->vals = NULL;
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
		qsort(w->pairs, w->npairs, sizeof *w->pairs, pair_cmp);
	return rc;
}

const struct phys_contact_pair *
phys_pair_find(const struct phys_scene *w, int c1, int c2)
{
	struct phys_contact_pair k = { .c1 = c1, .c2 = c2 };

	if (!w->npairs)
		return NULL;
	return bsearch(&k, w->pairs, w->npairs, sizeof k, pair_cmp);
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
