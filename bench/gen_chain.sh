#!/bin/sh
# gen_chain.sh N [GROUND]: a world of one chain of N boxes of 0.1 m and
# 1 kg, each hinged to the one above, hanging in a straight line from 1 km
# up: with no second argument nothing but the links' neighbours to collide
# with; with "ground" its last box rests on a ground plane. Profiles "ode"
# (the default), "bullet", "simbody" and "dart".
n=${1:-10000}
awk -v n="$n" -v ground="$2" 'BEGIN {
	print "<?xml version=\"1.0\"?>"
	print "<sdf version=\"1.7\">"
	print "  <world name=\"chain\">"
	print "    <physics name=\"ode\" type=\"ode\" default=\"true\"/>"
	print "    <physics name=\"bullet\" type=\"bullet\"/>"
	print "    <physics name=\"simbody\" type=\"simbody\"/>"
	print "    <physics name=\"dart\" type=\"dart\"/>"
	if (ground == "ground")
		printf "    <model name=\"ground\"><static>true</static><pose>0 0 %g 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>\n", 1000 - 0.1 * (n - 1) - 0.05
	print "    <model name=\"c\">"
	for (i = 0; i < n; i++) {
		printf "      <link name=\"l%d\"><pose>0 0 %g 0 0 0</pose>", i, 1000 - 0.1 * i
		printf "<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>"
		print "<collision name=\"c\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link>"
		if (i)
			printf "      <joint name=\"j%d\" type=\"revolute\"><parent>l%d</parent><child>l%d</child><axis><xyz>0 1 0</xyz></axis></joint>\n", i, i - 1, i
	}
	print "    </model>"
	print "  </world>"
	print "</sdf>"
}'
