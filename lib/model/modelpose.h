/*
 * modelpose.h - a model's pose set and read by name in its world file:
 * MODEL/pose is the pose its <pose> gives it (its <include>'s, for an
 * included model), in its parent model's frame or the world's, the same
 * name as the item a run reports. It is no parameter of the registry: a
 * pose is where a run starts, not how it runs, so runs set it on control
 * lines.
 */
#ifndef PHYS_MODELPOSE_H
#define PHYS_MODELPOSE_H

#include "world.h"

/* The model named by "MODEL/pose", or -1 when name is no such name. */
int phys_model_pose_of(const struct phys_scene *w, const char *name);
/* Its line as phys-param get writes one: {"name","type","value"}. */
void phys_model_pose_json(const struct phys_scene *w, int m,
    struct phys_buf *b);
/* text read as its pose, six numbers; -1 with phys_error(). */
int phys_model_pose_parse(const struct phys_scene *w, int m,
    const char *text, double pose[6]);
/* Its <pose> in the world file set to text, six numbers (x y z roll
 * pitch yaw), in its parent's frame: relative_to and the attributes that
 * change how the numbers read are removed. -1 with phys_error(). */
int phys_model_pose_set(struct phys_scene *w, int m, const char *text);

#endif
