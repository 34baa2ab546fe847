#!/bin/sh
# gen_boxes.sh N [MESH]: a world of N boxes of 0.1 m over a ground plane (or
# the static mesh file MESH), in a square grid 0.3 m apart, dropped from
# 0.3 m (quick step, 50 iterations); a second profile, "bullet", runs it
# under Bullet (50 iterations), a third, "mujoco", under MuJoCo (its
# defaults: Newton, 100 iterations at most), a fourth, "simbody", under
# Simbody, a fifth, "dart", under DART.
n=${1:-100}
awk -v n="$n" -v mesh="$2" 'BEGIN {
	side = int(sqrt(n)); if (side * side < n) side++
	print "<?xml version=\"1.0\"?>"
	print "<sdf version=\"1.7\">"
	print "  <world name=\"boxes\">"
	print "    <physics type=\"ode\">"
	print "      <max_step_size>0.001</max_step_size>"
	print "      <ode><solver><type>quick</type><iters>50</iters></solver></ode>"
	print "    </physics>"
	print "    <physics name=\"bullet\" type=\"bullet\">"
	print "      <max_step_size>0.001</max_step_size>"
	print "      <bullet><solver><iters>50</iters></solver></bullet>"
	print "    </physics>"
	print "    <physics name=\"mujoco\" type=\"mujoco\">"
	print "      <max_step_size>0.001</max_step_size>"
	print "    </physics>"
	print "    <physics name=\"simbody\" type=\"simbody\">"
	print "      <max_step_size>0.001</max_step_size>"
	print "    </physics>"
	print "    <physics name=\"dart\" type=\"dart\">"
	print "      <max_step_size>0.001</max_step_size>"
	print "    </physics>"
	print "    <model name=\"ground\"><static>true</static><link name=\"link\">"
	if (mesh != "")
		print "      <collision name=\"collision\"><geometry><mesh><uri>" mesh "</uri></mesh></geometry></collision>"
	else
		print "      <collision name=\"collision\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>"
	print "    </link></model>"
	for (i = 0; i < n; i++) {
		x = (i % side) * 0.3; y = int(i / side) * 0.3
		printf "    <model name=\"box%d\"><pose>%g %g 0.3 0 0 0</pose><link name=\"link\">\n", i, x, y
		print "      <inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>"
		print "      <collision name=\"collision\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>"
		print "      <visual name=\"visual\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></visual>"
		print "    </link></model>"
	}
	print "  </world>"
	print "</sdf>"
}'
