#!/bin/sh
# friction-ring.sh > worlds/friction_pyramid.sdf
# Writes a world of 16 boxes on a ring, each sent straight outward, which
# shows how the friction model bends their paths (see the world's comment).
awk 'BEGIN {
	n = 16; r = 2; v = 3; pi = atan2(0, -1)
	print "<?xml version=\"1.0\"?>"
	print "<!--"
	print "  friction_pyramid.sdf (written by tools/friction-ring.sh): 16 boxes of"
	print "  1 kg, 0.3 x 0.3 x 0.1 m, every 22.5 degrees on a ring of radius 2 m,"
	print "  each started outward at 3 m/s by Gazebo'"'"'s InitialVelocityPlugin; mu = 0.3."
	print "  friction_model pyramid_model bounds the friction force along x and y"
	print "  separately, so a box decelerates equally along both and its path bends"
	print "  toward the nearer axis; boxes on the 0, 45 and 90 degree lines go"
	print "  straight. With cone_model every box slides straight out and stops"
	print "  after v^2 / (2 mu g) = 1.53 m. The floor is included: model://floor,"
	print "  found through SDF_PATH=worlds/models."
	print "-->"
	print "<sdf version=\"1.6\">"
	print "  <world name=\"friction_pyramid\">"
	print "    <include>"
	print "      <uri>model://floor</uri>"
	print "    </include>"
	print "    <physics type=\"ode\">"
	print "      <ode>"
	print "        <solver>"
	print "          <type>quick</type>"
	print "          <iters>50</iters>"
	print "          <friction_model>pyramid_model</friction_model>"
	print "        </solver>"
	print "      </ode>"
	print "    </physics>"
	print "    <model name=\"boxes\">"
	for (i = 0; i < n; i++) {
		a = 2 * pi * i / n; c = cos(a); s = sin(a)
		if (c * c < 1e-30) c = 0; if (s * s < 1e-30) s = 0
		printf "      <model name='"'"'box_%d'"'"'>\n", i
		printf "        <pose>%.15g %.15g 0.05 0 0 0</pose>\n", r * c, r * s
		print "        <link name='"'"'link'"'"'>"
		print "          <inertial>"
		print "            <mass>1</mass>"
		print "            <inertia>"
		print "              <ixx>0.008333333333333333</ixx>"
		print "              <iyy>0.008333333333333333</iyy>"
		print "              <izz>0.015</izz>"
		print "            </inertia>"
		print "          </inertial>"
		print "          <collision name='"'"'collision'"'"'>"
		print "            <geometry>"
		print "              <box>"
		print "                <size>0.3 0.3 0.1</size>"
		print "              </box>"
		print "            </geometry>"
		print "            <surface>"
		print "              <friction>"
		print "                <ode>"
		print "                  <mu>0.3</mu>"
		print "                  <mu2>0.3</mu2>"
		print "                </ode>"
		print "              </friction>"
		print "            </surface>"
		print "          </collision>"
		print "        </link>"
		print "        <plugin name='"'"'radial_velocity'"'"' filename='"'"'libInitialVelocityPlugin.so'"'"'>"
		printf "          <linear>%.15g %.15g 0</linear>\n", v * c, v * s
		print "        </plugin>"
		print "      </model>"
	}
	print "    </model>"
	print "  </world>"
	print "</sdf>"
}'
