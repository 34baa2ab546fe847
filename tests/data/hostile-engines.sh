#!/bin/sh
# tests/data/hostile-engines.sh DIR: the inputs that once aborted, exhausted
# or hung an engine (issue 31), written into DIR, and DIR/cases listing
# them: one line each, "ENGINE|WORLD|CONTROL|WHAT", WHAT a part of the
# message the run must fail with (CONTROL "-" for none). Used by
# tests/hostile-engines.bats (the commands) and tests/embed.bats (the API).
set -e
d=$1
mkdir -p "$d"

# profiles: one per engine, 1 ms steps
profiles() {
	for e in ode bullet mujoco dart simbody; do
		echo "<physics name=\"$e\" type=\"$e\"><max_step_size>0.001</max_step_size>$1</physics>"
	done
}
head_() { echo '<?xml version="1.0"?>'; echo '<sdf version="1.7"><world name="w">'; }
ground='<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>'
ball='<model name="ball"><pose>0 0 1 0 0 0</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>'

# a ball on a plane under every engine: the good world
{ head_; profiles; echo "$ground"; echo "$ball"; echo '</world></sdf>'; } > "$d/good.sdf"

# Simbody's integrator asserts unless 0 < accuracy < 1
{ head_; profiles "<simbody><accuracy>1</accuracy></simbody>"; echo "$ground"; echo "$ball"; echo '</world></sdf>'; } > "$d/accuracy.sdf"
echo '{"t":0.005,"name":"simbody.accuracy","value":1}' > "$d/accuracy.jsonl"

# a sphere of radius 0 (Drake's URDFs write point contacts so), which
# DART's shapes assert on: it aborted the program
{ head_; profiles; echo "$ground"
  echo '<model name="p"><pose>0 0 1 0 0 0</pose><link name="l"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>'
  echo '<collision name="c"><geometry><sphere><radius>0</radius></sphere></geometry></collision></link></model>'
  echo '</world></sdf>'; } > "$d/point.sdf"

# N unit boxes in one spot
pile() {
	head_; profiles; echo "$ground"
	i=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		echo "<model name=\"b$i\"><pose>0 0 0.5 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>"
	done
	echo '</world></sdf>'
}
pile 50 > "$d/pile50.sdf"
pile 500 > "$d/pile500.sdf"

# 11 cylinders 1 cm apart: 55 deep pairs, under the 64 refused, but
# meshes to Simbody, whose integrator retried its step on shorter ones
# while the work bound refused each, tracking every pair's triangles
# again each time (26 s)
{ head_; profiles; echo "$ground"
  awk 'BEGIN { for (i = 1; i <= 11; i++) printf "<model name=\"c%d\"><pose>%g 0 0.5 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><cylinder><radius>0.2</radius><length>0.5</length></cylinder></geometry></collision></link></model>\n", i, i / 100 }'
  echo '</world></sdf>'; } > "$d/cylinders11.sdf"

# 50 unit boxes in a grid of 10 x 5, SPACING m apart
grid50() {
	head_; profiles; echo "$ground"
	awk -v s="$1" 'BEGIN { for (i = 0; i < 50; i++) printf "<model name=\"b%d\"><pose>%g %g 0.5 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>\n", i, s * (i % 10), s * int(i / 10) }'
	echo '</world></sdf>'
}
# 0.44 m apart, each 0.56 m inside its neighbours: deep (DART made one
# dense system of 5,316 rows, out of memory; Simbody tracked their
# contacts for minutes within its first step)
grid50 0.44 > "$d/grid44.sdf"
# 0.62 m apart, 0.38 m inside, which is not deep: DART's 2,484 rows and
# Simbody's triangles in contact are bounded in the step
grid50 0.62 > "$d/grid62.sdf"

# 100 unit boxes side by side on the ground, a floor of 10 x 10: MuJoCo's
# dense constraint arrays for their contacts grow to 118 MB in its first
# steps (161 MB in all), more than 300 MB of address space leaves it
{ head_; profiles; echo "$ground"
  awk 'BEGIN { for (i = 0; i < 100; i++) printf "<model name=\"b%d\"><pose>%d %d 0.5 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>\n", i, i % 10, int(i / 10) }'
  echo '</world></sdf>'; } > "$d/floor100.sdf"

# 500 boxes of 0.1 m in a grid 0.3 m apart, dropped on the ground: ODE
# allocates for them with its allocator and with C++'s operator new (its
# hash space), either failing under a bound on memory
{ head_; profiles; echo "$ground"
  awk 'BEGIN { for (i = 0; i < 500; i++) printf "<model name=\"b%d\"><pose>%g %g 0.3 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.0017</ixx><iyy>0.0017</iyy><izz>0.0017</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>\n", i, 0.3 * (i % 23), 0.3 * int(i / 23) }'
  echo '</world></sdf>'; } > "$d/grid500.sdf"

# a joint axis of 1e308: its square is not a double
cat > "$d/axis.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="1e308 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
URDF
{ head_; profiles; echo '<model name="m"><link name="a"/><link name="b"><pose>0 0 1 0 0 0</pose></link>'
  echo '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 1e-200 0</xyz></axis></joint></model>'
  echo '</world></sdf>'; } > "$d/axis-tiny.sdf"

# two balls sent up by 2e7 m/s^2 in steps of 10 s: 2e9 m up after one,
# at 2e8 m/s, where ODE's collision space stops on an assertion in the
# next (not in cases: ODE's own error names no file)
{ head_; echo '<physics name="ode" type="ode"><max_step_size>10</max_step_size></physics>'
  echo "$ground"; echo "$ball"; echo "$ball" | sed 's|"ball"|"ball2"|; s|0 0 1 0 0 0|5 0 1 0 0 0|'
  echo '</world></sdf>'; } > "$d/far.sdf"
echo '{"t":0,"name":"gravity","value":"0 0 2e7"}' > "$d/far.jsonl"

# an effort or a wrench no engine can integrate in a step (DART's joint
# transform went non-finite and asserted): a bob of 1 kg, its inertia
# 0.004 kg m^2 each way, 1 m below its pivot on the world, where an
# effort over 1e8 rad/s * (0.006 + 1 * 1^2) kg m^2 / 1 ms = 1.006e11 N m
# would turn it faster than any body; the good world's ball pushed by
# ApplyLinkWrench's topic
{ head_; profiles
  echo '<model name="arm"><link name="bob"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial></link>'
  echo '<joint name="pivot" type="revolute"><parent>world</parent><child>bob</child><pose>0 0 1 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint></model>'
  echo '</world></sdf>'; } > "$d/arm.sdf"
echo '{"t":0,"name":"arm::pivot/cmd_force","value":1e300}' > "$d/effort.jsonl"
# a position 3e7 turns away, which phys would set a quarter turn at a time
echo '{"t":0,"name":"arm::pivot/position","value":2e8}' > "$d/turns.jsonl"
sed 's|</world>|<plugin filename="gz-sim-apply-link-wrench-system" name="gz::sim::systems::ApplyLinkWrench"/></world>|' "$d/good.sdf" > "$d/wrench.sdf"
echo '{"t":0,"topic":"/world/w/wrench","msg":{"entity":{"name":"ball::link","type":"LINK"},"wrench":{"force":{"z":1e300}}}}' > "$d/wrench.jsonl"

# a bob swinging on a ball joint, set a mass, or given an inertia that
# phys raises to be positive definite, whose articulated inertia DART
# makes not a number (and aborts on)
ball_bob() {
	head_; profiles
	echo "<model name=\"b\"><link name=\"bob\"><pose>0 0.05 2 0.05 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz><ixy>$1</ixy></inertia></inertial></link>"
	echo '<joint name="j" type="ball"><parent>world</parent><child>bob</child><pose>0 0 1 0 0 0</pose></joint></model>'
	echo '</world></sdf>'
}
ball_bob 0 > "$d/ball.sdf"
echo '{"t":0,"name":"b::bob/inertial.mass","value":1e-300}' > "$d/light.jsonl"
ball_bob 1e17 > "$d/skew.sdf"

# N balls fixed to one, under ODE's world solver: one island of 6 N + 3
# rows at rest on the ground (not in cases: the error names the time)
welded() {
	head_; echo '<physics name="ode" type="ode"><max_step_size>0.001</max_step_size><ode><solver><type>world</type></solver></ode></physics>'
	echo "$ground"
	awk -v n="$1" 'BEGIN {
		c = "<collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>"
		print "<model name=\"m\"><pose>0 0 0.1 0 0 0</pose><link name=\"r\">" c "</link>"
		for (i = 0; i < n; i++)
			print "<link name=\"b" i "\"><pose>" (i % 50) * 0.3 " " int(i / 50) * 0.3 " 0.5 0 0 0</pose></link><joint name=\"j" i "\" type=\"fixed\"><parent>r</parent><child>b" i "</child></joint>"
		print "</model>" }'
	echo '</world></sdf>'
}
welded 2000 > "$d/welded2000.sdf"
welded 300 > "$d/welded300.sdf"

# a 257 x 257 terrain (ESRI ASCII grid, a DEM), sampled 4 and 8 times
awk 'BEGIN { n = 257; print "ncols " n; print "nrows " n
	print "xllcorner 0"; print "yllcorner 0"; print "cellsize 1"
	for (r = 0; r < n; r++) { s = ""; for (c = 0; c < n; c++) s = s ((r * c) % 7) " "; print s } }' > "$d/terrain.asc"
terrain() {
	head_; profiles
	echo "<model name=\"t\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><heightmap><uri>$d/terrain.asc</uri><size>100 100 2</size><sampling>$1</sampling></heightmap></geometry></collision></link></model>"
	echo "$ball" | sed 's|0 0 1 0 0 0|0 0 5 0 0 0|'
	echo '</world></sdf>'
}
terrain 4 > "$d/terrain4.sdf"
terrain 8 > "$d/terrain8.sdf"
# two of them as they are, each within DART's bound, beyond it together
# (twelve of 257 x 257 took DART 1.2 GB)
terrain 1 | sed 's|\(<model name="t">.*</model>\)|\1\1|; s|<model name="t">|<model name="u">|' > "$d/terrains.sdf"
# four of them sampled 4 times (1025 x 1025), each within MuJoCo's
# bound, beyond it together (MuJoCo named the last)
terrain 4 | awk '/<model name="t">/ {
	for (i = 0; i < 4; i++) { l = $0; sub(/name="t"/, "name=\"t" i "\"", l)
		print l }
	next } { print }' > "$d/terrains4.sdf"
# four of 129 x 129, each within Simbody's bound, beyond it together
awk 'NR <= 5 { sub(/257/, "129") } NR > 5 && NR <= 134 { $0 = ""
	for (c = 0; c < 129; c++) $0 = $0 (((NR - 6) * c) % 7) " " }
	NR <= 134 { print }' "$d/terrain.asc" > "$d/small.asc"
terrain 1 | sed "s|$d/terrain.asc|$d/small.asc|" | awk '/<model name="t">/ {
	for (i = 0; i < 4; i++) { l = $0; sub(/name="t"/, "name=\"t" i "\"", l)
		print l }
	next } { print }' > "$d/smallterrains.sdf"

# a chain of N boxes of 0.1 m and 1 kg, stacked, each hinged to the one
# above, its top 10 m up and free: deeper than MuJoCo 2.2.2's XML parser
# nests bodies (97), more than DART builds into one tree in seconds (601)
chain() {
	head_; profiles
	awk -v n="$1" -v limit="$2" 'BEGIN {
		print "<model name=\"c\">"
		for (i = 0; i < n; i++) {
			printf "<link name=\"l%d\"><pose>0 0 %g 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link>\n", i, 10 - 0.1 * i
			if (i)
				printf "<joint name=\"j%d\" type=\"revolute\"><parent>l%d</parent><child>l%d</child><axis><xyz>0 1 0</xyz>%s</axis></joint>\n", i, i - 1, i, limit
		}
		print "</model>" }'
	echo '</world></sdf>'
}
chain 96 > "$d/chain96.sdf"
chain 97 > "$d/chain97.sdf"
chain 601 > "$d/chain601.sdf"
# a URDF star of 700 links whose joints come in the reverse order: the
# link past DART's bound is the 601st in the file (phys's own order of a
# URDF's links is its tree's)
awk 'BEGIN {
	print "<robot name=\"s\"><link name=\"base\"/>"
	for (i = 0; i < 700; i++)
		printf "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n", i
	for (i = 699; i >= 0; i--)
		printf "<joint name=\"j%d\" type=\"revolute\"><parent link=\"base\"/><child link=\"l%d\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n", i, i
	print "</robot>" }' > "$d/star700.urdf"
# the same, each joint's 0 outside its limits: a run sets each at its
# lower one, moving the links below it (turning them one by one took ODE
# 28 s for 1,000 links, Simbody 36 s for 200, DART a minute for 590; each
# joint's links moved on their own took ODE 3.8 s for 4,000, Bullet 7.4 s
# and Simbody 10 s for 1,000)
bent='<limit><lower>0.1</lower><upper>0.2</upper></limit>'
for n in 96 150 300 600 1000 2000 4000; do	# halves: sanitized runs
	chain $n "$bent" > "$d/bent$n.sdf"
done

# two boxes half through each other, a pair under the bound of deep
# pairs: Simbody's contact tracker took 15 s a step on such a pair
box() {
	echo "<model name=\"$1\"><pose>$2 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.0067</ixx><iyy>0.0067</iyy><izz>0.0067</izz></inertia></inertial><collision name=\"c\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>"
}
{ head_; profiles; box a "0 0 1"; box b "0.02 0.01 1.06"; echo '</world></sdf>'; } > "$d/overlap.sdf"

# a link of shape S and mass M: shapes and masses no engine can take
# (a box of 1e308 m sent Simbody's LAPACK to end the program with exit
# 0, an ellipsoid of 1e300 m freed twice; mass 1e308 ODE asserted on)
odd() {
	head_; profiles; echo "$ground"
	echo "<model name=\"m\"><pose>0 0 1 0 0 0</pose><link name=\"l\"><inertial><mass>$2</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>"
	echo "<collision name=\"c\"><geometry>$1</geometry></collision></link></model>"
	echo '</world></sdf>'
}
odd '<box><size>1e308 1e308 1e308</size></box>' 1 > "$d/hugebox.sdf"
odd '<ellipsoid><radii>1 1e-300 1e300</radii></ellipsoid>' 1 > "$d/hugeellipsoid.sdf"
odd '<sphere><radius>0.1</radius></sphere>' 1e308 > "$d/heavy.sdf"
odd '<sphere><radius>0.1</radius></sphere>' 1e-300 > "$d/featherweight.sdf"
# a hinge of damping, spring and friction 1e308 (Simbody stopped at
# t = 0 naming nothing, ODE at an assertion)
odd '<sphere><radius>0.1</radius></sphere>' 1 | sed '/<sphere>/s|</link></model>|</link><link name="b"><pose>0 0 0.5 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link><joint name="j" type="revolute"><parent>l</parent><child>b</child><axis><xyz>0 1 0</xyz><dynamics><damping>1e308</damping><friction>1e308</friction><spring_stiffness>1e308</spring_stiffness></dynamics></axis></joint></model>|' > "$d/stiffjoint.sdf"

{
	for e in ode bullet mujoco dart simbody; do
		echo "$e|hugebox.sdf|-|<size>: 1e+308 m is beyond the largest shape phys runs (1e+06 m)"
		echo "$e|hugeellipsoid.sdf|-|<radii>: 1e+300 m is beyond the largest shape phys runs (1e+06 m)"
		echo "$e|heavy.sdf|-|link 'm::l': $(echo $e | sed 's/^ode$/ODE/; s/^bullet$/Bullet/; s/^mujoco$/MuJoCo/; s/^dart$/DART/; s/^simbody$/Simbody/') runs masses and moments up to 1e+100"
		echo "$e|featherweight.sdf|-|runs masses from 1e-100 kg, not 1e-300"
		echo "$e|stiffjoint.sdf|-|joint 'm::j': axis.dynamics.damping 1e+308 is beyond 1e+100 in size, which no engine steps past"
		echo "$e|pile50.sdf|-|start deep inside each other"
		echo "$e|pile500.sdf|-|start deep inside each other"
		echo "$e|grid44.sdf|-|157 pairs of collisions start deep inside each other"
		echo "$e|axis-tiny.sdf|-|axis.xyz: 0 1e-200 0 is refused"
		echo "$e|arm.sdf|effort.jsonl|an effort of 1e+300 N m would turn link 'arm::bob' faster than any body"
		echo "$e|arm.sdf|turns.jsonl|joint 'arm::pivot': a turn of 2e+08 rad from where it is is more than phys sets (1024 turns)"
		echo "$e|wrench.sdf|wrench.jsonl|a force of 1e+300 N would move link 'ball::link' faster than any body"
	done
	echo "simbody|accuracy.sdf|-|simbody.accuracy: 1 is refused"
	echo "simbody|overlap.sdf|-|collisions 'a::l::c' and 'b::l::c': deep inside each other at t=0"
	echo "simbody|grid62.sdf|-|simulation stopped at t=0: Simbody reckoned the forces of"
	echo "simbody|cylinders11.sdf|-|simulation stopped at t=0: Simbody reckoned the forces of"
	echo "dart|grid62.sdf|-|simulation stopped at t=0: DART would solve 2484 rows of constraints together (828 contacts and joints among bodies touching one another, links 'b"
	echo "ode|good.sdf|accuracy.jsonl|simbody.accuracy: 1 is refused"
	echo "-|axis.urdf|-|axis.xyz: 1e+308 0 0 is refused"
	echo "dart|terrain4.sdf|-|the DART engine takes at most"
	echo "mujoco|terrain8.sdf|-|a heightmap of 2049 x 2049 samples; the MuJoCo engine takes at most 4194304"
	echo "mujoco|terrains4.sdf|-|the world's heightmaps have 4202500 samples with this one; the MuJoCo engine takes at most 4194304 together"
	echo "dart|terrains.sdf|-|the world's heightmaps have 132098 samples with this one; the DART engine takes at most 131072 together"
	echo "simbody|smallterrains.sdf|-|the world's meshes and heightmaps have 131072 triangles with its 32768; the Simbody engine takes at most 100000 together"
	echo "dart|ball.sdf|light.jsonl|link 'b::bob': DART runs masses from 1e-100 kg, not 1e-300"
	echo "mujoco|chain97.sdf|-|link 'c::l96' hangs 97 links deep in its tree: MuJoCo 2.2.2 nests at most 96 bodies"
	echo "dart|chain601.sdf|-|link 'c::l600' makes its tree of joined links more than 600"
	echo "dart|star700.urdf|-|star700.urdf:601: link 's::l599' makes its tree of joined links more than 600"
	for e in dart mujoco simbody; do
		echo "$e|point.sdf|-|collision 'p::l::c': a shape with a size of 0"
	done
} > "$d/cases"
