/*
 * sdfprint.h - a world written as one SDF document: its includes resolved
 * and every pose expressed relative to its parent model or the world.
 */
#ifndef PHYS_SDFPRINT_H
#define PHYS_SDFPRINT_H

#include "base.h"

/* Load the world at path ("-" or NULL: stdin) and append the document to
 * b; -1 with phys_error() when it does not load or cannot be written so. */
int phys_sdf_print(const char *path, struct phys_buf *b);

/*
 * A world that runs the model or robot file at path, written to b: the
 * default world of phys(7) with an <include> of path, as given, and with
 * ground, Gazebo's ground plane. -1 with phys_error() when path is no
 * model or URDF file.
 */
int phys_sdf_world(const char *path, bool ground, struct phys_buf *b);

/*
 * The same, with the model placed (pose: x y z roll pitch yaw, in the
 * world) and the <uri> relative to the directory of output, the file the
 * world is written to; when output is NULL (standard output), the
 * model's absolute path.
 */
struct phys_sdf_world_options {
	bool ground;
	bool has_pose;
	double pose[6];
	const char *output;
};
void phys_sdf_world_options_default(struct phys_sdf_world_options *o);
int phys_sdf_world_with(const char *path,
    const struct phys_sdf_world_options *o, struct phys_buf *b);
/* "X Y Z" or "X Y Z ROLL PITCH YAW" read into pose; -1 with phys_error(). */
int phys_sdf_world_pose(const char *text, double pose[6]);

struct phys_scene;
/* Resolve every <frame> of a loaded world, the world's and each model's,
 * through relative_to and attached_to; fn gets "file:line: why" for each
 * that names no frame. Returns how many did. */
int phys_frames_check(struct phys_scene *w, void (*fn)(const char *why,
    void *ctx), void *ctx);

#endif
