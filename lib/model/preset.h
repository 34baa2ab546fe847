/*
 * preset.h - editing the <physics> profiles of a world document.
 *
 * Each operation records edits on the world's document (see sdf.h) and
 * touches nothing but the profiles it names; phys_world_write() writes
 * the result.
 */
#ifndef PHYS_PRESET_H
#define PHYS_PRESET_H

#include <stdbool.h>

#include "world.h"

/* One JSON line a profile, in file order: {"name","type","default",
 * "start"} (marked default="true"; the one a run starts in), a gz-sim
 * profile's "engine" and "gz_plugin" after its type; bare: the names
 * alone, one a line. */
void phys_preset_list(const struct phys_scene *w, bool bare,
    struct phys_buf *b);
/* The parameter lines of profile p: the shared parameters and those of
 * its engine. */
void phys_preset_show(struct phys_scene *w, int p, struct phys_buf *b);
/* A line for each parameter whose values differ between profiles a and
 * b (the shared ones and those of both engines, and the type itself):
 * {"name","type","values":{A:value,B:value}}. Nothing when they agree. */
void phys_preset_diff(const struct phys_scene *w, int a, int b,
    struct phys_buf *out);

/*
 * Load path for its profiles (phys_world_load with lo): what the loader
 * warns about the world's models (their links, joints, meshes), and all
 * of a model file's or URDF robot's, is left to the commands that use
 * them; what concerns the profiles and the world's own elements (an
 * include that does not resolve) is said. On failure the error is
 * phys_error()'s and the world is empty.
 */
int phys_preset_load(struct phys_scene *w, const char *path,
    const struct phys_load_options *lo);

/* Make profile p the one default="true" profile. */
int phys_preset_use(struct phys_scene *w, int p);
/* A new profile NAME copied from profile from (or the specification's
 * defaults when from < 0), with NAME=VALUE overrides. With engine (not
 * NULL) the profile is for that engine: from another engine's profile,
 * it carries the values that mean the same there and names on standard
 * error those that have no counterpart. */
int phys_preset_add(struct phys_scene *w, const char *name, int from,
    const char *engine, char **sets, size_t nsets);
/*
 * The profile a run of w under engine takes, starting from profile from:
 * from when it is that engine's, else the world's first of it (its
 * default one first), else a new one in w alone (the document untouched),
 * "ENGINE_from_NAME", carried over from from as phys_preset_add does,
 * naming on standard error what has no counterpart when say. Its index,
 * or -1 with phys_error().
 */
int phys_preset_for_engine(struct phys_scene *w, int from, const char *engine,
    bool say);

/*
 * The profile a run names: the one called name, else, where name is an
 * engine's (ode, bullet, ...) and no profile is called so, the world's
 * start profile under that engine (phys_preset_for_engine), said once;
 * -1 with phys_error() naming the profiles.
 */
int phys_preset_named(struct phys_scene *w, const char *name);
/* The same without the word of the engine's profile chosen, and, unless
 * say, of what it does not carry over (a sweep's workers: the plan said
 * it). */
int phys_preset_resolve(struct phys_scene *w, const char *name, bool say);
/* Whether profile p is one phys_preset_for_engine made for a run, in
 * no file: what the start profile carries over to its engine. */
bool phys_preset_made_for_run(const struct phys_scene *w, int p);
int phys_preset_remove(struct phys_scene *w, int p);
int phys_preset_rename(struct phys_scene *w, int p, const char *name);
/* The profile as a standalone <physics> element; caller frees. */
char *phys_preset_export(struct phys_scene *w, int p);
/* Add the <physics> blocks of an SDF snippet or world file; returns how
 * many were added. */
int phys_preset_import(struct phys_scene *w, const char *path);

#endif
