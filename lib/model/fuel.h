/* fuel.h - Gazebo Fuel URIs, read from gz-sim's local cache. */
#ifndef PHYS_FUEL_H
#define PHYS_FUEL_H

#include <stdbool.h>

/* Whether uri is a Fuel model URI (https://HOST/1.0/OWNER/models/NAME,
 * perhaps a version and /files/PATH after it). */
bool phys_fuel_uri(const char *uri);
/* Where the cache holds what a Fuel URI names: the model's directory
 * (want_dir) or a file in it; NULL when no cache holds it. */
char *phys_fuel_find(const char *uri, bool want_dir);
/* "DIR, DIR": the caches searched, for messages (caller frees). */
char *phys_fuel_caches(void);

#endif
