/* modelpose.c - a model's pose by name, in its world file. */
#include "modelpose.h"

#include <stdlib.h>
#include <string.h>

#include "item.h"
#include "sdfedit.h"

int
phys_model_pose_of(const struct phys_scene *w, const char *name)
{
	const char *slash = strrchr(name, '/');
	enum phys_kind kind;
	char *model;
	int m;

	if (!slash || strcmp(slash, "/pose") != 0 || slash == name)
		return -1;
	model = phys_xstrndup(name, (size_t)(slash - name));
	m = phys_world_entity(w, model, &kind);
	free(model);
	return m >= 0 && kind == PHYS_K_MODEL ? m : -1;
}

/* The model's frame in its parent model's, or in the world. */
static phys_pose
local_pose(const struct phys_scene *w, int m)
{
	const struct phys_model *md = &w->models[m];

	if (md->parent < 0)
		return md->pose;
	return phys_pose_mul(phys_pose_inv(w->models[md->parent].pose),
	    md->pose);
}

void
phys_model_pose_json(const struct phys_scene *w, int m, struct phys_buf *b)
{
	double v[6];
	char *name = phys_xasprintf("%s/pose", w->models[m].name);

	phys_pose_to6(local_pose(w, m), v);
	phys_buf_puts(b, "{\"name\":");
	phys_buf_json_string(b, name);
	phys_buf_puts(b, ",\"type\":\"pose\",\"value\":");
	phys_buf_json_numbers(b, phys_item_fields(PHYS_IT_POSE), v, 6);
	phys_buf_puts(b, "}\n");
	free(name);
}

/* The element whose <pose> places the model: its <include>, or itself. */
static int
pose_owner(struct phys_scene *w, int m, struct phys_doc **doc,
    xmlNodePtr *owner)
{
	const struct phys_model *md = &w->models[m];

	*doc = md->include ? md->include_doc : md->doc;
	*owner = md->include ? md->include : md->node;
	if (md->merged)
		return phys_fail("%s is merged into its parent model "
		    "(<include merge=\"true\">): it has no pose of its own",
		    md->name);
	if (md->parent < 0 && w->host)
		return phys_world_has_world(w, "world to place it in");
	if (*doc != &w->doc)
		return phys_fail("%s is placed in the included file %s; edit "
		    "that file instead", md->name, (*doc)->name);
	return 0;
}

/* A new <pose> goes after what names and kinds the model (an include's
 * <uri> and <name>, <static>...), before its links. */
static int
pose_rank(const void *ctx, xmlNodePtr owner, const char *path)
{
	static const char *const before[] = { "uri", "name", "static",
		"self_collide", "allow_auto_disable", "placement_frame" };
	size_t i;

	for (i = 0; i < sizeof before / sizeof *before; i++)
		if (strcmp(path, before[i]) == 0)
			return 0;
	return strcmp(path, "pose") == 0 ? 1 : 2;
}

int
phys_model_pose_parse(const struct phys_scene *w, int m, const char *text,
    double pose[6])
{
	double v[7];

	if (phys_parse_doubles(text, v, 7) != 6)
		return phys_fail("%s/pose: '%s' is no pose: six numbers, x y z "
		    "roll pitch yaw", w->models[m].name, text);
	memcpy(pose, v, 6 * sizeof *v);
	return 0;
}

int
phys_model_pose_set(struct phys_scene *w, int m, const char *text)
{
	static const char *const attrs[] = { "relative_to", "degrees",
		"rotation_format" };
	struct phys_buf b = { 0 };
	struct phys_doc *doc;
	xmlNodePtr owner, e;
	double v[7];
	char num[32];
	size_t i;
	int rc;

	if (phys_model_pose_parse(w, m, text, v) < 0 ||
	    pose_owner(w, m, &doc, &owner) < 0)
		return -1;
	for (i = 0; i < 6; i++) {
		phys_fmt_double(num, sizeof num, v[i] == 0 ? 0 : v[i]);
		phys_buf_printf(&b, "%s%s", i ? " " : "", num);
	}
	rc = phys_doc_set_text(doc, owner, "pose", b.s, pose_rank, NULL);
	phys_buf_free(&b);
	e = phys_child(owner, "pose");
	for (i = 0; rc == 0 && e && i < sizeof attrs / sizeof *attrs; i++)
		if (xmlHasProp(e, (const xmlChar *)attrs[i]))
			rc = phys_doc_set_attr(doc, e, attrs[i], NULL);
	return rc;
}
