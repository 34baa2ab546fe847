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

void
fuzz_world(struct phys_scene *w)
{
	struct phys_load_options lo;

	fuzz_isolate();
	memset(w, 0, sizeof *w);
	phys_load_options_default(&lo);
	lo.quiet = true;
	if (phys_doc_load_text(&w->doc, "fuzz.sdf", text, sizeof text - 1) < 0 ||
	    phys_world_load_doc(w, &lo) < 0)
		abort();
}
