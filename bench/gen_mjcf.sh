#!/bin/sh
# gen_mjcf.sh N: an MJCF robot of N bodies as MuJoCo Menagerie writes them:
# default classes (a visual and a collision class), a free base, limbs of
# seven bodies each hanging from it, hinge joints with ranges, damping and
# armature, capsule and box geoms whose inertia comes from their density,
# a position actuator on every joint and a keyframe.
n=${1:-50}
awk -v n="$n" 'BEGIN {
	print "<mujoco model=\"bench\">"
	print "  <compiler angle=\"radian\" autolimits=\"true\"/>"
	print "  <option timestep=\"0.002\" cone=\"elliptic\" impratio=\"10\"/>"
	print "  <default>"
	print "    <default class=\"robot\">"
	print "      <joint damping=\"0.5\" armature=\"0.01\" frictionloss=\"0.1\" range=\"-1.5 1.5\"/>"
	print "      <position kp=\"50\" forcerange=\"-30 30\"/>"
	print "      <default class=\"visual\"><geom contype=\"0\" conaffinity=\"0\" group=\"2\"/></default>"
	print "      <default class=\"collision\"><geom group=\"3\" friction=\"0.8 0.02 0.01\" condim=\"3\"/></default>"
	print "    </default>"
	print "  </default>"
	print "  <worldbody>"
	print "    <geom name=\"floor\" type=\"plane\" size=\"10 10 0.1\"/>"
	print "    <body name=\"base\" pos=\"0 0 1\" childclass=\"robot\">"
	print "      <freejoint name=\"root\"/>"
	print "      <geom class=\"collision\" type=\"box\" size=\"0.2 0.15 0.08\"/>"
	print "      <geom class=\"visual\" type=\"box\" size=\"0.2 0.15 0.08\"/>"
	b = 1; nj = 0; depth = 0
	while (b < n) {
		a = b
		printf "      <body name=\"b%d\" pos=\"%g %g 0\" euler=\"0 0 %g\">\n", b, 0.2 * cos(a), 0.15 * sin(a), a
		depth = 1
		for (k = 0; k < 7 && b < n; k++) {
			if (k > 0) {
				printf "%*s<body name=\"b%d\" pos=\"0.1 0 0\">\n", 6 + 2 * depth, "", b
				depth++
			}
			printf "%*s<joint name=\"j%d\" axis=\"%d %d 0\"/>\n", 6 + 2 * depth, "", b, k % 2, 1 - k % 2
			printf "%*s<geom class=\"collision\" type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.02\"/>\n", 6 + 2 * depth, ""
			printf "%*s<geom class=\"visual\" type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.021\"/>\n", 6 + 2 * depth, ""
			joint[nj++] = b
			b++
		}
		for (; depth > 0; depth--)
			printf "%*s</body>\n", 4 + 2 * depth, ""
	}
	print "    </body>"
	print "  </worldbody>"
	print "  <actuator>"
	for (i = 0; i < nj; i++)
		printf "    <position class=\"robot\" name=\"a%d\" joint=\"j%d\"/>\n", joint[i], joint[i]
	print "  </actuator>"
	print "  <keyframe><key name=\"home\"/></keyframe>"
	print "</mujoco>"
}'
