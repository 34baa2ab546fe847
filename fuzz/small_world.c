/* small_world.c - the line harnesses' world (see small_world.h). */
#include "small_world.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const char text[] =
    "<?xml version=\"1.0\"?>\n"
    "<sdf version=\"1.7\">\n"
    "<world name=\"w\">\n"
    "<physics name=\"fine\" type=\"ode\" default=\"true\">"
    "<max_step_size>0.001</max_step_size></physics>\n"
    "<physics name=\"coarse\" type=\"ode\">"
    "<max_step_size>0.01</max_step_size>"
    "<ode><solver><iters>10</iters></solver></ode></physics>\n"
    "<physics name=\"mj\" type=\"mujoco\">"
    "<max_step_size>0.002</max_step_size></physics>\n"
    "<model name=\"ground\"><static>true</static><link name=\"link\">"
    "<collision name=\"c\"><geometry><plane><normal>0 0 1</normal>"
    "<size>10 10</size></plane></geometry></collision></link></model>\n"
    "<model name=\"box\"><pose>0 0 0.5 0 0 0</pose><link name=\"link\">"
    "<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy>"
    "<izz>0.1667</izz></inertia></inertial>"
    "<collision name=\"c\"><geometry><box><size>1 1 1</size></box>"
    "</geometry></collision></link></model>\n"
    "<model name=\"pendulum\"><pose>3 0 2 0 0 0</pose>"
    "<link name=\"bob\"><pose>0 0 -1 0 0 0</pose><inertial><mass>1</mass>"
    "<inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia>"
    "</inertial><collision name=\"c\"><geometry><sphere><radius>0.1"
    "</radius></sphere></geometry></collision></link>"
    "<joint name=\"pivot\" type=\"revolute\"><parent>world</parent>"
    "<child>bob</child><pose>0 0 1 0 0 0</pose><axis><xyz>1 0 0</xyz>"
    "</axis></joint></model>\n"
    "</world>\n</sdf>\n";

/* A MuJoCo model of what parameter edits write into MJCF: degrees and a
 * ref, classes, a tendon, a coupling, an actuator, a key, <option>. */
static const char mjcf_text[] =
    "<mujoco model=\"m\">\n"
    "<compiler angle=\"degree\" autolimits=\"true\"/>\n"
    "<option timestep=\"0.002\" integrator=\"RK4\" "
    "cone=\"elliptic\"><flag eulerdamp=\"disable\"/></option>\n"
    "<default><joint damping=\"0.1\"/><default class=\"soft\"><geom "
    "solref=\"0.05 1\" friction=\"0.8 0.01 "
    "0.001\"/></default></default>\n"
    "<worldbody>\n"
    "<geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\"/>\n"
    "<body name=\"arm\" pos=\"0 0 1\" childclass=\"soft\">\n"
    "<joint name=\"shoulder\" axis=\"0 1 0\" range=\"-90 45\" ref=\"10\" "
    "stiffness=\"2\" springref=\"5\"/>\n"
    "<geom name=\"upper\" type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" "
    "size=\"0.03\"/>\n"
    "<body name=\"fore\" pos=\"0.3 0 0\">\n"
    "<joint name=\"elbow\" type=\"slide\" axis=\"1 0 0\" range=\"-0.1 "
    "0.1\" armature=\"0.01\"/>\n"
    "<geom name=\"lower\" type=\"box\" size=\"0.1 0.02 0.02\" "
    "mass=\"0.5\"/>\n"
    "<site name=\"tip\" pos=\"0.1 0 0\"/>\n"
    "</body>\n"
    "</body>\n"
    "<body name=\"ball\" pos=\"1 0 0.5\"><freejoint/><geom "
    "type=\"sphere\" size=\"0.1\" density=\"500\"/></body>\n"
    "</worldbody>\n"
    "<tendon><fixed name=\"t\" limited=\"true\" range=\"-1 1\"><joint "
    "joint=\"shoulder\" coef=\"1\"/><joint joint=\"elbow\" "
    "coef=\"-1\"/></fixed></tendon>\n"
    "<equality><joint joint1=\"elbow\" joint2=\"shoulder\" polycoef=\"0 "
    "0.01 0 0 0\"/></equality>\n"
    "<actuator><position name=\"p\" joint=\"shoulder\" kp=\"50\" "
    "ctrlrange=\"-1 1\"/></actuator>\n"
    "<keyframe><key name=\"k\" qpos=\"0.1 0.01 1 0 0.5 1 0 0 "
    "0\"/></keyframe>\n"
    "</mujoco>\n";

static void
load(struct phys_scene *w, const char *name, const char *t, size_t len)
{
	struct phys_load_options lo;

	fuzz_isolate();
	memset(w, 0, sizeof *w);
	phys_load_options_default(&lo);
	lo.quiet = true;
	if (phys_doc_load_text(&w->doc, name, t, len) < 0 ||
	    phys_world_load_doc(w, &lo) < 0)
		abort();
}

size_t
fuzz_world_for(struct phys_scene *w, const void *data, size_t size)
{
	static const char mark[] = "#mjcf\n";

	if (size >= sizeof mark - 1 &&
	    memcmp(data, mark, sizeof mark - 1) == 0) {
		load(w, "fuzz.xml", mjcf_text, sizeof mjcf_text - 1);
		return sizeof mark - 1;
	}
	load(w, "fuzz.sdf", text, sizeof text - 1);
	return 0;
}
