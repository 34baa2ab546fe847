#!/bin/sh
# gen_robot.sh N: a URDF robot of N links as ROS descriptions write them:
# a tree of arms of eight links each from one base, every link with its
# inertial, a box collision and a visual, revolute joints with limits and
# dynamics, every fourth link a sensor mount fixed to its parent (lumped
# into it), and a <gazebo> block of friction tags for every arm.
n=${1:-1000}
awk -v n="$n" 'BEGIN {
	print "<?xml version=\"1.0\"?>"
	print "<robot name=\"tree\">"
	for (i = 0; i < n; i++) {
		printf "  <link name=\"l%d\">\n", i
		print "    <inertial>"
		print "      <origin xyz=\"0 0 0.05\" rpy=\"0 0 0\"/>"
		print "      <mass value=\"0.5\"/>"
		print "      <inertia ixx=\"0.00042\" ixy=\"0\" ixz=\"0\" iyy=\"0.00042\" iyz=\"0\" izz=\"0.00017\"/>"
		print "    </inertial>"
		print "    <visual><origin xyz=\"0 0 0.05\" rpy=\"0 0 0\"/><geometry><box size=\"0.05 0.05 0.1\"/></geometry></visual>"
		print "    <collision><origin xyz=\"0 0 0.05\" rpy=\"0 0 0\"/><geometry><box size=\"0.05 0.05 0.1\"/></geometry></collision>"
		print "  </link>"
		if (i == 0)
			continue
		parent = (i % 8 == 1) ? 0 : i - 1
		fixed = i % 4 == 0
		printf "  <joint name=\"j%d\" type=\"%s\">\n", i, fixed ? "fixed" : "revolute"
		printf "    <parent link=\"l%d\"/>\n    <child link=\"l%d\"/>\n", parent, i
		if (parent == 0)
			printf "    <origin xyz=\"%g %g 0.1\" rpy=\"0 0 %g\"/>\n", 0.1 * cos(i), 0.1 * sin(i), i
		else
			print "    <origin xyz=\"0 0 0.1\" rpy=\"0 0.1 0\"/>"
		if (!fixed) {
			print "    <axis xyz=\"0 1 0\"/>"
			print "    <limit lower=\"-1.5\" upper=\"1.5\" effort=\"10\" velocity=\"2\"/>"
			print "    <dynamics damping=\"0.01\" friction=\"0.001\"/>"
		}
		print "  </joint>"
		if (i % 8 == 1) {
			printf "  <gazebo reference=\"l%d\">\n    <mu1>0.8</mu1>\n    <mu2>0.8</mu2>\n    <kp>100000</kp>\n  </gazebo>\n", i
		}
	}
	print "</robot>"
}'
