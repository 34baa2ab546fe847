/* item.c - the item table: kinds, fields and units. */
#include "item.h"

#include <string.h>

const struct phys_item_def phys_item_defs[PHYS_NITEM_KINDS] = {
#define I(id, owner, prop, type, need, units, doc) \
	{ PHYS_ITEM_##id, PHYS_IO_##owner, prop, PHYS_IT_##type, \
	    PHYS_IN_##need, units, doc },
	PHYS_ITEM_TABLE
#undef I
};

static const char *const scalar_fields[] = { NULL };
static const char *const vec3_fields[] = { "x", "y", "z", NULL };
static const char *const pose_fields[] = { "x", "y", "z", "roll", "pitch",
	"yaw", NULL };
static const char *const axes_fields[] = { "0", "1", NULL };
static const char *const inertia_fields[] = { "ixx", "iyy", "izz", "ixy",
	"ixz", "iyz", NULL };

const char *const *
phys_item_fields(enum phys_item_type t)
{
	switch (t) {
	case PHYS_IT_VEC3:
		return vec3_fields;
	case PHYS_IT_POSE:
		return pose_fields;
	case PHYS_IT_AXES:
		return axes_fields;
	case PHYS_IT_INERTIA:
		return inertia_fields;
	default:
		return scalar_fields;
	}
}

const char *
phys_item_type_name(enum phys_item_type t)
{
	static const char *names[] = { "double", "vector3", "pose", "axes",
		"inertia" };

	return names[t];
}

const char *
phys_item_unit(const char *item, const char *field)
{
	const char *slash = strrchr(item, '/'), *prop = slash ? slash + 1 : item;
	int k;

	for (k = 0; k < PHYS_NITEM_KINDS; k++) {
		const struct phys_item_def *d = &phys_item_defs[k];

		if (strcmp(d->prop, prop) != 0 ||
		    (d->owner == PHYS_IO_WORLD) != (slash == NULL))
			continue;
		if (d->type == PHYS_IT_POSE && field)
			return strchr("xyz", field[0]) && !field[1] ? "m" : "rad";
		return *d->units ? d->units : NULL;
	}
	return NULL;
}
