/*
 * keyframe.c - keyframes set as a run's state. A link holds its state in
 * each keyframe as <phys:key name="K"> (mjcf.h): its pose and the
 * velocities of its origin, in its model's frame. Links are set parent
 * first, as the reader wrote them, so that engines which fit joint
 * coordinates to link poses meet a consistent tree.
 */
#include "keyframe.h"

#include <math.h>

#include "buf.h"
#include "engine_common.h"
#include "mem.h"
#include "mjcf.h"
#include "msg.h"
#include "sdf.h"
#include "startpose.h"

/* A joint of a loop this far from its key's position is said (rad or m). */
#define LOOP_OFF 1e-6

int
phys_keyframe_check(const struct phys_scene *w, const char *name)
{
	struct phys_buf b = { 0 };
	xmlNodePtr k;
	xmlChar *v;
	size_t i;
	int rc;

	for (i = 0; i < w->nlinks; i++)
		if (phys_mjcf_key(w->links[i].node, name, NULL))
			return 0;
	/* the names of the first link that has any: a model's keyframes
	 * are in each of its links */
	for (i = 0; i < w->nlinks && !b.len; i++)
		for (k = phys_mjcf_key(w->links[i].node, NULL, NULL); k;
		    k = phys_mjcf_key(w->links[i].node, NULL, k)) {
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

/* A key's state for link li within the bounds every state set is held
 * to, or -1 with the error at the key's line. */
static int
key_within_bounds(const struct phys_scene *w, int li, xmlNodePtr k,
    const char *name, const phys_pose *pose, const phys_vec3 *lin,
    const phys_vec3 *ang)
{
	const struct phys_link *l = &w->links[li];
	char *what;
	int rc;

	what = phys_xasprintf("keyframe '%s' of link '%s'", name, l->name);
	rc = phys_check_state_set(what, &pose->p, lin, ang);
	free(what);
	return rc < 0 ? phys_fail_again(PHYS_AT(l->doc, k), "") :
	    0;
}

/*
 * A joint of a loop, which cannot move alone, is where the key's poses
 * put it once the engine closes the loop: ODE's and MuJoCo's at the key's
 * position; Simbody's, which projects its coordinates onto the loop's
 * constraints, where the key leaves the loop open (MuJoCo's soft
 * connects), off it, which is said once with the farthest joint.
 */
static void
loop_joint(const struct phys_engine *e, const struct phys_scene *w, int j,
    double key, double *worst, int *which, int *off)
{
	double pos[2], vel[2], d;

	if (phys_engine_joint_state(e, j, pos, vel) < 1)
		return;
	d = pos[0] - key;
	/* the poses say a turn but not its whole turns */
	if (w->joints[j].type != PHYS_JOINT_PRISMATIC)
		d = remainder(d, 2 * M_PI);
	if (!(fabs(d) > LOOP_OFF))
		return;
	d = fabs(d);
	(*off)++;
	if (d > *worst)
		*worst = d, *which = j;
}

static void
say_loop_off(const struct phys_engine *e, const struct phys_scene *w,
    const char *name, int j, double worst, int off)
{
	const struct phys_joint *jt = &w->joints[j];
	char more[48] = "";

	if (off > 1)
		phys_more_text(more, sizeof more, (size_t)(off - 1), "joint");
	phys_warnat(PHYS_AT(jt->doc, jt->node), "keyframe '%s': joint '%s' "
	    "of a loop starts %.3g %s from the key's position, where %s "
	    "closed the loop the key leaves open%s", name, jt->name, worst,
	    jt->type == PHYS_JOINT_PRISMATIC ? "m" : "rad",
	    phys_engine_running(e)->name, more);
}

/*
 * Each one-axis joint's position in the key (<phys:key name> of its
 * element), set once the poses are, all at once: the poses say a hinge's
 * angle but not its whole turns, which a servo's target counts. A joint
 * of a loop is left where the poses put it (loop_joint).
 */
static int
key_positions(struct phys_engine *e, const struct phys_scene *w,
    const char *name)
{
	int *js = phys_xcalloc(w->njoints + 1, sizeof *js);
	double *to = phys_xcalloc(w->njoints + 1, sizeof *to);
	char **why = phys_xcalloc(w->njoints + 1, sizeof *why);
	xmlNodePtr at;
	size_t i, n = 0;
	int rc = 0, keyed, which = -1, off = 0;
	double worst = 0;

	for (i = 0; i < w->njoints && rc == 0; i++) {
		if ((keyed = phys_mjcf_key_value(w->joints[i].node, name,
		    &to[n], &at)) < 0)
			rc = phys_failat(PHYS_AT(w->joints[i].doc, at),
			    "<phys:key name=\"%s\">: not a number", name);
		else if (keyed && phys_joint_in_loop(w, (int)i))
			loop_joint(e, w, (int)i, to[n], &worst, &which,
			    &off);
		else if (keyed)
			js[n++] = (int)i;
	}
	if (which >= 0)
		say_loop_off(e, w, name, which, worst, off);
	if (rc == 0)
		phys_engine_set_joint_positions(e, w, js, to, n, why);
	for (i = 0; i < n; i++) {
		if (why[i] && rc == 0)
			rc = phys_fail("%s", why[i]);
		free(why[i]);
	}
	free(js);
	free(to);
	free(why);
	return rc;
}

/* Every keyed link's pose (velocities false) or velocities. */
static int
key_links(struct phys_engine *e, const struct phys_scene *w,
    const char *name, bool velocities)
{
	phys_pose pose;
	phys_vec3 lin, ang;
	xmlNodePtr k;
	size_t i;
	int rc = 0;

	for (i = 0; i < w->nlinks && rc == 0; i++) {
		if (!(k = phys_mjcf_key(w->links[i].node, name, NULL)) ||
		    !phys_engine_link_dynamic(e, (int)i))
			continue;
		if ((rc = phys_mjcf_key_state(w, (int)i, k, &pose, &lin,
		    &ang)) < 0 || (rc = key_within_bounds(w, (int)i, k, name,
		    &pose, &lin, &ang)) < 0)
			break;
		rc = velocities ? phys_engine_set_link_vel(e, (int)i, &lin,
		    &ang) : phys_engine_set_link_pose(e, (int)i, pose);
	}
	return rc;
}

/* Every pose first, the joints' turns, then the velocities at those
 * poses. */
int
phys_keyframe_apply(struct phys_engine *e, const struct phys_scene *w,
    const char *name)
{
	if (key_links(e, w, name, false) < 0 || key_positions(e, w, name) < 0)
		return -1;
	return key_links(e, w, name, true);
}
