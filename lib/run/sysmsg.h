/*
 * sysmsg.h - the gz.msgs messages gz-sim's systems take on their topics,
 * as JSON: protobuf's JSON form of what `gz topic -p` publishes. A message
 * is checked against its type's fields (each field by its proto name or
 * its lowerCamel JSON name; numbers finite; 64-bit integers also as
 * strings; enums by name or number) and normalised for the systems to
 * read: proto names, numbers, enums as numbers. A field left out is
 * proto3's default, 0, false or empty.
 */
#ifndef PHYS_SYSMSG_H
#define PHYS_SYSMSG_H

#include <jansson.h>

struct phys_msg_type;

extern const struct phys_msg_type phys_msg_double;	/* gz.msgs.Double */
extern const struct phys_msg_type phys_msg_boolean;	/* gz.msgs.Boolean */
extern const struct phys_msg_type phys_msg_empty;	/* gz.msgs.Empty */
extern const struct phys_msg_type phys_msg_twist;	/* gz.msgs.Twist */
extern const struct phys_msg_type phys_msg_entity;	/* gz.msgs.Entity */
extern const struct phys_msg_type phys_msg_entity_wrench; /* EntityWrench */
extern const struct phys_msg_type phys_msg_actuators;	/* gz.msgs.Actuators */
extern const struct phys_msg_type phys_msg_joint_trajectory;

/* "gz.msgs.Double" */
const char *phys_msg_type_name(const struct phys_msg_type *t);
/* Check msg against t and normalise it in place: 0, or -1 with
 * phys_error() naming the field ("linear.x: expected a number"). */
int phys_msg_check(const struct phys_msg_type *t, json_t *msg);

/* A normalised message's fields by dotted path ("linear.x"): the
 * number there, 0 when absent. */
double phys_msg_num(const json_t *msg, const char *path);
/* The value there, NULL when absent. */
const json_t *phys_msg_get(const json_t *msg, const char *path);

#endif
