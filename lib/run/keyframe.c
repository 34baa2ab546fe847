/*
 * keyframe.c - keyframes set as a run's state. A link holds its state in
 * each keyframe as <phys:key name="K"> (mjcf.h): its pose and the
 * velocities of its origin, in its model's frame. Links are set parent
 * first, as the reader wrote them, so that engines which fit joint
 * coordinates to link poses meet a consistent tree.
 */
#include "keyframe.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mjcf.h"
#include "num.h"
#include "sdf.h"

int
phys_keyframe_check(const struct phys_scene *w, const char *name)
{
	struct phys_buf b = { 0 };
	xmlNodePtr k;
	xmlChar *v;
	size_t i;
	int rc;

	for (i = 0; i < w->nlinks; i++)
		if (phys_mjcf_link_key(&w->links[i], name, NULL))
			return 0;
	/* the names of the first link that has any: a model's keyframes
	 * are in each of its links */
	for (i = 0; i < w->nlinks && !b.len; i++)
		for (k = phys_mjcf_link_key(&w->links[i], NULL, NULL); k;
		    k = phys_mjcf_link_key(&w->links[i], NULL, k)) {
			v = xmlGetProp(k, (const xmlChar *)"name");
			phys_buf_printf(&b, "%s%s", b.len ? ", " : "",
			    v ? (const char *)v : "");
			xmlFree(v);
		}
	if (b.len)
		rc = phys_fail("no keyframe '%s' (the world's keyframes: %s)",
		    name, b.s);
	else
		rc = phys_fail("no keyframe '%s': the world has none (an MJCF "
		    "model's <keyframe> has them)", name);
	phys_buf_free(&b);
	return rc;
}

/* n numbers of the key's element tag into v: 0, or -1. */
static int
key_numbers(const struct phys_link *l, xmlNodePtr k, const char *tag,
    double *v, int n)
{
	xmlNodePtr e = phys_child(k, tag);
	char *text = e ? phys_node_text(e) : NULL;
	int got = text ? phys_parse_doubles(text, v, n) : -1;

	free(text);
	if (got != n)
		return phys_fail("link '%s': its keyframe's <%s> needs %d "
		    "numbers", l->name, tag, n);
	return 0;
}

int
phys_keyframe_apply(struct phys_engine *e, const struct phys_scene *w,
    const char *name)
{
	const struct phys_link *l;
	phys_pose m;
	phys_vec3 lin, ang;
	double v[6];
	xmlNodePtr k;
	size_t i;
	int pass, rc = 0;

	/* every pose first, then the velocities at those poses */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < w->nlinks && rc == 0; i++) {
			l = &w->links[i];
			if (!(k = phys_mjcf_link_key(l, name, NULL)) ||
			    !phys_engine_link_dynamic(e, (int)i))
				continue;
			m = w->models[l->model].pose;
			if (pass == 0) {
				if ((rc = key_numbers(l, k, "pose", v, 6)) < 0)
					break;
				rc = phys_engine_set_link_pose(e, (int)i,
				    phys_pose_mul(m, phys_pose_from6(v)));
				continue;
			}
			if ((rc = key_numbers(l, k, "linear_vel", v, 3)) < 0 ||
			    (rc = key_numbers(l, k, "angular_vel", v + 3,
			    3)) < 0)
				break;
			lin = phys_quat_rotate(m.q, v3(v[0], v[1], v[2]));
			ang = phys_quat_rotate(m.q, v3(v[3], v[4], v[5]));
			rc = phys_engine_set_link_vel(e, (int)i, &lin, &ang);
		}
	return rc;
}
