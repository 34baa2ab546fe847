/*
 * mjcf.h - MuJoCo's MJCF models read as MuJoCo 2.2.2 compiles them:
 * converted in memory into an SDF model, as URDF is (urdf.h), every
 * element carrying the line of the MJCF element it comes from. The body
 * tree, poses, masses, centres of mass and inertia are MuJoCo's.
 */
#ifndef PHYS_MJCF_H
#define PHYS_MJCF_H

#include <stdbool.h>

#include "geom.h"
#include "sdf.h"
#include "urdf.h"

struct phys_link;
struct phys_scene;

/*
 * A keyframe of the model, <keyframe><key name="K">, is kept in each
 * link of the SDF model as <phys:key name="K"> in this namespace, holding
 * the link's <pose> (in the model's frame), <linear_vel> (of its origin)
 * and <angular_vel> (both in the model's frame) in that start state.
 */
#define PHYS_KEY_NS	"urn:phys:mjcf"

/* The most files an MJCF model includes, all told (phys(7), LIMITS): a
 * file that includes itself, or files that include each other tenfold. */
#define PHYS_MJCF_MAX_INCLUDES	1024

/* Whether n is an element of phys's own in this namespace, <phys:TAG>. */
bool phys_mjcf_own(xmlNodePtr n, const char *tag);
/* Whether element n holds a value the reader derived for other engines
 * from the model's own (phys:derived="FROM": an ODE stop's ERP from
 * MuJoCo's solreflimit), which the model's author never wrote. */
bool phys_mjcf_derived(xmlNodePtr n);
/* Where the <option> an MJCF document gives values in (its world's
 * step, gravity, solver) is (phys_node_where: an included file's names
 * that file), 0 when it gives none. */
long phys_mjcf_option_line(const struct phys_doc *d);

/* The <phys:key> named name (of any name when name is NULL) of element
 * holder (a link's, or an actuator's plugin's) after after (NULL: from
 * its first), or NULL. */
xmlNodePtr phys_mjcf_key(xmlNodePtr holder, const char *name,
    xmlNodePtr after);

/* The number holder's <phys:key name> holds (a joint's position, an
 * actuator's command): 1 with *v, 0 when it has none, -1 when it is no
 * finite number (*at: the element, for the message). */
int phys_mjcf_key_value(xmlNodePtr holder, const char *name, double *v,
    xmlNodePtr *at);

/* Link li's state in its key k, in the world: its pose, its origin's
 * velocity and its angular velocity; -1 (the link named) when k lacks
 * their numbers. */
int phys_mjcf_key_state(const struct phys_scene *w, int li, xmlNodePtr k,
    phys_pose *pose, phys_vec3 *lin, phys_vec3 *ang);

/*
 * Convert the MJCF document src (kind PHYS_DOC_MJCF) into out, an SDF
 * document holding one <model>. With owns, out takes src over. On
 * failure phys_error() says "model.xml:LINE: what" and out is empty.
 * What phys cannot represent is named once (unless o->quiet); what a
 * model needs to move as MuJoCo moves it is refused.
 */
int phys_mjcf_convert(struct phys_doc *src, bool owns, struct phys_doc *out,
    const struct phys_urdf_options *o);

#endif
