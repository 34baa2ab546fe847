#!/bin/sh
# gen_bitmask.sh N DIR: DIR/cube.obj, a unit cube of 1,728 triangles (each
# face a 12 x 12 grid), and on standard output a world of N (1 or 2) such
# cubes under a Simbody profile, hinged to the world half inside each
# other in one model whose links collide, their bitmasks keeping them
# apart (collide_bitmask 0); and a small ball on a plane.
n=$1 d=$2
sh "$(dirname "$0")/../tests/data/gridcube.sh" 12 > "$d/cube.obj"
cube() {
	cat <<SDF
<link name="$1"><pose>$2 0 2 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.17</ixx><iyy>0.17</iyy><izz>0.17</izz></inertia></inertial>
<collision name="c"><geometry><mesh><uri>$d/cube.obj</uri></mesh></geometry><surface><contact><collide_bitmask>0</collide_bitmask></contact></surface></collision></link>
<joint name="j$1" type="revolute"><parent>world</parent><child>$1</child><pose>0 0 0.5 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
SDF
}
cat <<SDF
<?xml version="1.0"?>
<sdf version="1.7"><world name="w">
<physics name="s" type="simbody"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
<model name="ball"><pose>3 0 0.0099 0 0 0</pose><link name="l"><inertial><mass>0.01</mass><inertia><ixx>4e-7</ixx><iyy>4e-7</iyy><izz>4e-7</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.01</radius></sphere></geometry></collision></link></model>
<model name="pair"><self_collide>true</self_collide>
$(cube a 0)
$( [ "$n" -gt 1 ] && cube b 0.5)
</model>
</world></sdf>
SDF
