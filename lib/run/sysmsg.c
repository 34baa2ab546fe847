/* sysmsg.c - gz.msgs messages in JSON: their fields, checked and read. */
#include "sysmsg.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base.h"
#include "buf.h"
#include "mem.h"
#include "num.h"

enum field_kind { F_DOUBLE, F_INT, F_BOOL, F_STRING, F_ENUM, F_MSG };

struct msg_field {
	const char *name;		/* the proto name */
	enum field_kind kind;
	bool repeated;
	const struct phys_msg_type *msg;	/* F_MSG */
	const char *const *enums;	/* F_ENUM: names by value, NULL ends */
};

struct phys_msg_type {
	const char *name;
	const struct msg_field *fields;	/* a NULL name ends */
};

#define END { NULL, F_DOUBLE, false, NULL, NULL }

/* gz.msgs.Time and Duration share their fields. */
static const struct msg_field time_fields[] = {
	{ "sec", F_INT, false, NULL, NULL },
	{ "nsec", F_INT, false, NULL, NULL },
	END
};
static const struct phys_msg_type msg_time = { "gz.msgs.Time", time_fields };
static const struct phys_msg_type msg_duration = { "gz.msgs.Duration",
	time_fields };

static const struct msg_field map_fields[] = {
	{ "key", F_STRING, false, NULL, NULL },
	{ "value", F_STRING, true, NULL, NULL },
	END
};
static const struct phys_msg_type msg_map = { "gz.msgs.Header.Map",
	map_fields };

static const struct msg_field header_fields[] = {
	{ "stamp", F_MSG, false, &msg_time, NULL },
	{ "data", F_MSG, true, &msg_map, NULL },
	END
};
static const struct phys_msg_type msg_header = { "gz.msgs.Header",
	header_fields };

#define HEADER { "header", F_MSG, false, &msg_header, NULL }

static const struct msg_field vector3d_fields[] = {
	HEADER,
	{ "x", F_DOUBLE, false, NULL, NULL },
	{ "y", F_DOUBLE, false, NULL, NULL },
	{ "z", F_DOUBLE, false, NULL, NULL },
	END
};
static const struct phys_msg_type msg_vector3d = { "gz.msgs.Vector3d",
	vector3d_fields };

static const struct msg_field double_fields[] = {
	HEADER,
	{ "data", F_DOUBLE, false, NULL, NULL },
	END
};
const struct phys_msg_type phys_msg_double = { "gz.msgs.Double",
	double_fields };

static const struct msg_field boolean_fields[] = {
	HEADER,
	{ "data", F_BOOL, false, NULL, NULL },
	END
};
const struct phys_msg_type phys_msg_boolean = { "gz.msgs.Boolean",
	boolean_fields };

static const struct msg_field empty_fields[] = {
	{ "unused", F_BOOL, false, NULL, NULL },
	END
};
const struct phys_msg_type phys_msg_empty = { "gz.msgs.Empty", empty_fields };

static const struct msg_field twist_fields[] = {
	HEADER,
	{ "linear", F_MSG, false, &msg_vector3d, NULL },
	{ "angular", F_MSG, false, &msg_vector3d, NULL },
	END
};
const struct phys_msg_type phys_msg_twist = { "gz.msgs.Twist", twist_fields };

static const struct msg_field wrench_fields[] = {
	HEADER,
	{ "force", F_MSG, false, &msg_vector3d, NULL },
	{ "torque", F_MSG, false, &msg_vector3d, NULL },
	{ "force_offset", F_MSG, false, &msg_vector3d, NULL },
	END
};
static const struct phys_msg_type msg_wrench = { "gz.msgs.Wrench",
	wrench_fields };

static const char *const entity_types[] = { "NONE", "LIGHT", "MODEL", "LINK",
	"VISUAL", "COLLISION", "SENSOR", "JOINT", "ACTOR", "WORLD", NULL };

static const struct msg_field entity_fields[] = {
	HEADER,
	{ "id", F_INT, false, NULL, NULL },
	{ "name", F_STRING, false, NULL, NULL },
	{ "type", F_ENUM, false, NULL, entity_types },
	END
};
const struct phys_msg_type phys_msg_entity = { "gz.msgs.Entity",
	entity_fields };

static const struct msg_field entity_wrench_fields[] = {
	HEADER,
	{ "entity", F_MSG, false, &phys_msg_entity, NULL },
	{ "wrench", F_MSG, false, &msg_wrench, NULL },
	END
};
const struct phys_msg_type phys_msg_entity_wrench = { "gz.msgs.EntityWrench",
	entity_wrench_fields };

static const struct msg_field actuators_fields[] = {
	HEADER,
	{ "position", F_DOUBLE, true, NULL, NULL },
	{ "velocity", F_DOUBLE, true, NULL, NULL },
	{ "normalized", F_DOUBLE, true, NULL, NULL },
	END
};
const struct phys_msg_type phys_msg_actuators = { "gz.msgs.Actuators",
	actuators_fields };

static const struct msg_field point_fields[] = {
	{ "positions", F_DOUBLE, true, NULL, NULL },
	{ "velocities", F_DOUBLE, true, NULL, NULL },
	{ "accelerations", F_DOUBLE, true, NULL, NULL },
	{ "effort", F_DOUBLE, true, NULL, NULL },
	{ "time_from_start", F_MSG, false, &msg_duration, NULL },
	END
};
static const struct phys_msg_type msg_point = { "gz.msgs.JointTrajectoryPoint",
	point_fields };

static const struct msg_field trajectory_fields[] = {
	HEADER,
	{ "joint_names", F_STRING, true, NULL, NULL },
	{ "points", F_MSG, true, &msg_point, NULL },
	END
};
const struct phys_msg_type phys_msg_joint_trajectory = {
	"gz.msgs.JointTrajectory", trajectory_fields };

const char *
phys_msg_type_name(const struct phys_msg_type *t)
{
	return t->name;
}

/* Does key name field f, by its proto name or its lowerCamel JSON name? */
static bool
names_field(const char *key, const char *name)
{
	if (strcmp(key, name) == 0)
		return true;
	for (; *name && *key; name++, key++) {
		if (*name == '_' && name[1]) {
			name++;
			if (*key != toupper((unsigned char)*name))
				return false;
		} else if (*key != *name) {
			return false;
		}
	}
	return *key == '\0' && *name == '\0';
}

static const struct msg_field *
find_field(const struct phys_msg_type *t, const char *key)
{
	const struct msg_field *f;

	for (f = t->fields; f->name; f++)
		if (names_field(key, f->name))
			return f;
	return NULL;
}

static int check_object(const struct phys_msg_type *t, json_t *obj,
    struct phys_buf *path);

static int
field_fail(struct phys_buf *path, const char *what, const json_t *v)
{
	static const char *const kinds[] = { "an object", "an array",
		"a string", "a number", "a number", "true", "false", "null" };

	return phys_fail("%s: expected %s, not %s", path->s, what,
	    kinds[json_typeof(v)]);
}

/* One value of field f, normalised: the new value, or NULL on error. */
static json_t *
check_value(const struct msg_field *f, json_t *v, struct phys_buf *path)
{
	const char *s;
	double d;
	long l;
	int i;

	switch (f->kind) {
	case F_DOUBLE:
		if (json_is_number(v))
			d = json_number_value(v);
		else if (!json_is_string(v) ||
		    !phys_parse_double(json_string_value(v), &d))
			return field_fail(path, "a number", v), NULL;
		if (!isfinite(d))
			return phys_fail("%s: %g is not a finite number",
			    path->s, d), NULL;
		return json_real(d);
	case F_INT:
		if (json_is_integer(v))
			return json_incref(v);
		/* protobuf's JSON takes 2.0 and "2" for an integer */
		if (json_is_real(v) && json_real_value(v) ==
		    floor(json_real_value(v)) && fabs(json_real_value(v)) < 9e15)
			return json_integer((json_int_t)json_real_value(v));
		if (json_is_string(v) &&
		    phys_parse_long(json_string_value(v), &l))
			return json_integer(l);
		return field_fail(path, "an integer", v), NULL;
	case F_BOOL:
		if (!json_is_boolean(v))
			return field_fail(path, "true or false", v), NULL;
		return json_incref(v);
	case F_STRING:
		if (!json_is_string(v))
			return field_fail(path, "a string", v), NULL;
		return json_incref(v);
	case F_ENUM:
		if (json_is_integer(v))
			return json_incref(v);
		if (!json_is_string(v))
			return field_fail(path, "a name", v), NULL;
		s = json_string_value(v);
		for (i = 0; f->enums[i]; i++)
			if (strcmp(s, f->enums[i]) == 0)
				return json_integer(i);
		return phys_fail("%s: no such value '%.40s'", path->s, s), NULL;
	default:
		if (!json_is_object(v))
			return field_fail(path, "an object", v), NULL;
		if (check_object(f->msg, v, path) < 0)
			return NULL;
		return json_incref(v);
	}
}

static json_t *
check_field(const struct msg_field *f, json_t *v, struct phys_buf *path)
{
	json_t *out, *x;
	size_t i, len = path->len;

	if (!f->repeated)
		return check_value(f, v, path);
	if (!json_is_array(v))
		return field_fail(path, "an array", v), NULL;
	out = json_array();
	for (i = 0; i < json_array_size(v); i++) {
		phys_buf_printf(path, "[%zu]", i);
		x = check_value(f, json_array_get(v, i), path);
		path->len = len;
		path->s[len] = '\0';
		if (!x) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, x);
	}
	return out;
}

static int
check_object(const struct phys_msg_type *t, json_t *obj,
    struct phys_buf *path)
{
	const struct msg_field *f;
	json_t *norm = json_object(), *v, *x;
	size_t len = path->len;
	const char *key;
	int rc = 0;

	json_object_foreach(obj, key, v) {
		if (!(f = find_field(t, key))) {
			rc = phys_fail("%s: %s has no field '%.40s'", path->s,
			    t->name, key);
			break;
		}
		if (json_is_null(v))
			continue;	/* JSON's null: the field's default */
		if (json_object_get(norm, f->name)) {
			rc = phys_fail("%s: field '%s' given twice", path->s,
			    f->name);
			break;
		}
		phys_buf_printf(path, ".%s", f->name);
		x = check_field(f, v, path);
		path->len = len;
		path->s[len] = '\0';
		if (!x) {
			rc = -1;
			break;
		}
		json_object_set_new(norm, f->name, x);
	}
	if (rc == 0) {
		json_object_clear(obj);
		json_object_update(obj, norm);
	}
	json_decref(norm);
	return rc;
}

int
phys_msg_check(const struct phys_msg_type *t, json_t *msg)
{
	struct phys_buf path = { 0 };
	int rc;

	if (!json_is_object(msg)) {
		phys_buf_puts(&path, "msg");
		rc = field_fail(&path, "an object", msg);
	} else {
		phys_buf_puts(&path, "msg");
		rc = check_object(t, msg, &path);
	}
	phys_buf_free(&path);
	return rc;
}

const json_t *
phys_msg_get(const json_t *msg, const char *path)
{
	char key[64];
	size_t n;

	while (msg && *path) {
		n = strcspn(path, ".");
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		msg = json_object_get(msg, key);
		path += n + (path[n] == '.');
	}
	return msg;
}

double
phys_msg_num(const json_t *msg, const char *path)
{
	const json_t *v = phys_msg_get(msg, path);

	return json_is_number(v) ? json_number_value(v) : 0;
}
