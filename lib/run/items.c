/* items.c - the items of a world. */
#include "items.h"

#include <stdlib.h>
#include <string.h>

static size_t
owner_count(const struct phys_scene *w, enum phys_item_owner o)
{
	switch (o) {
	case PHYS_IO_WORLD:
		return 1;
	case PHYS_IO_MODEL:
		return w->nmodels;
	case PHYS_IO_LINK:
		return w->nlinks;
	case PHYS_IO_COLLISION:
		return w->ncollisions;
	case PHYS_IO_VISUAL:
		return w->nvisuals;
	case PHYS_IO_JOINT:
		return w->njoints;
	case PHYS_IO_TENDON:
		return w->ntendons;
	}
	return 0;
}

static const char *
owner_name(const struct phys_scene *w, enum phys_item_owner o, size_t i)
{
	switch (o) {
	case PHYS_IO_MODEL:
		return w->models[i].name;
	case PHYS_IO_LINK:
		return w->links[i].name;
	case PHYS_IO_COLLISION:
		return w->collisions[i].name;
	case PHYS_IO_VISUAL:
		return w->visuals[i].name;
	case PHYS_IO_JOINT:
		return w->joints[i].name;
	case PHYS_IO_TENDON:
		return w->tendons[i].name;
	default:
		return NULL;
	}
}

static void
push(struct phys_item_list *l, size_t *cap, enum phys_item_kind k, size_t i,
    char *name)
{
	if (l->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		l->v = phys_xrealloc(l->v, *cap * sizeof *l->v);
	}
	l->v[l->n].kind = k;
	l->v[l->n].entity = (int)i;
	l->v[l->n].name = name;
	l->n++;
}

static char *
item_name(const struct phys_scene *w, enum phys_item_kind k, size_t i)
{
	const struct phys_item_def *d = &phys_item_defs[k];

	if (d->owner == PHYS_IO_WORLD)
		return phys_xstrdup(d->prop);
	return phys_xasprintf("%s/%s", owner_name(w, d->owner, i), d->prop);
}

/* Owners in model order, each owner's kinds together: stable and readable. */
void
phys_items_all(const struct phys_scene *w, struct phys_item_list *out)
{
	enum phys_item_owner o;
	size_t cap = 0, i;
	int k;

	memset(out, 0, sizeof *out);
	for (o = PHYS_IO_WORLD; o <= PHYS_IO_TENDON; o++)
		for (i = 0; i < owner_count(w, o); i++)
			for (k = 0; k < PHYS_NITEM_KINDS; k++)
				if (phys_item_defs[k].owner == o)
					push(out, &cap, (enum phys_item_kind)k,
					    i, item_name(w, k, i));
}

int
phys_items_select(const struct phys_scene *w, char **patterns,
    size_t npatterns, struct phys_item_list *out)
{
	struct phys_item_list all;
	size_t cap = 0, i, j, *hits;
	bool keep;
	int rc = 0;

	phys_items_all(w, &all);
	memset(out, 0, sizeof *out);
	hits = phys_xcalloc(npatterns + 1, sizeof *hits);
	for (i = 0; i < all.n; i++) {
		enum phys_item_kind k = all.v[i].kind;

		keep = npatterns == 0 && (k == PHYS_ITEM_SIM_TIME ||
		    k == PHYS_ITEM_ITERATIONS || k == PHYS_ITEM_LINK_POSE);
		for (j = 0; j < npatterns; j++)
			if (phys_glob(patterns[j], all.v[i].name)) {
				keep = true;
				hits[j]++;
			}
		if (keep) {
			push(out, &cap, k, (size_t)all.v[i].entity,
			    all.v[i].name);
			all.v[i].name = NULL;
		}
	}
	for (j = 0; j < npatterns && rc == 0; j++)
		if (!hits[j])
			rc = phys_fail("no item matches '%s' (phys-introspect "
			    "items lists them)", patterns[j]);
	free(hits);
	phys_items_free(&all);
	return rc;
}

void
phys_items_free(struct phys_item_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Joints have as many axis values as they have axes. */
static int
axis_count(const struct phys_scene *w, int joint)
{
	switch (w->joints[joint].type) {
	case PHYS_JOINT_REVOLUTE:
	case PHYS_JOINT_PRISMATIC:
		return 1;
	case PHYS_JOINT_UNIVERSAL:
	case PHYS_JOINT_REVOLUTE2:
	case PHYS_JOINT_SCREW:	/* the turn, then the travel */
		return 2;
	default:
		return 0;
	}
}

void
phys_item_line(const struct phys_scene *w, const struct phys_item *it,
    struct phys_buf *b)
{
	const struct phys_item_def *d = &phys_item_defs[it->kind];
	const char *const *f = phys_item_fields(d->type);
	int i, n = d->type == PHYS_IT_AXES ? axis_count(w, it->entity) : 99;

	phys_buf_puts(b, "{\"name\":");
	phys_buf_json_string(b, it->name);
	phys_buf_puts(b, ",\"type\":");
	phys_buf_json_string(b, phys_item_type_name(d->type));
	phys_buf_puts(b, ",\"units\":");
	phys_buf_json_string(b, d->units);
	phys_buf_puts(b, ",\"fields\":[");
	for (i = 0; f[i] && i < n; i++) {
		if (i)
			phys_buf_putc(b, ',');
		phys_buf_json_string(b, f[i]);
	}
	phys_buf_puts(b, "],\"doc\":");
	phys_buf_json_string(b, d->doc);
	phys_buf_puts(b, "}\n");
}

int
phys_items_lines(const struct phys_scene *w, char **globs, size_t n,
    struct phys_buf *b)
{
	struct phys_item_list l;
	size_t i;
	int rc = 0;

	if (n > 0)
		rc = phys_items_select(w, globs, n, &l);
	else
		phys_items_all(w, &l);
	for (i = 0; rc == 0 && i < l.n; i++)
		phys_item_line(w, &l.v[i], b);
	phys_items_free(&l);
	return rc;
}
