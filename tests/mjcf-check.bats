#!/usr/bin/env bats
# phys-sdf check on MJCF (root <mujoco>): MuJoCo 2.2.2's schema (elements,
# where they sit, attributes and their types) and its compiler's rules,
# with did-you-mean. Each fault is checked against libmujoco itself
# (tests/data/mujoco_print_oracle.c): a file phys-sdf check finds an error
# in is one MuJoCo refuses, and the clean file is one it loads.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	cc -O1 -o "$BATS_FILE_TMPDIR/mujoco" \
	    "$BATS_TEST_DIRNAME/data/mujoco_print_oracle.c" -lmujoco -lm
}

# mujoco_loads FILE: does libmujoco load FILE?
mujoco_loads() {
	"$BATS_FILE_TMPDIR/mujoco" "$1" > /dev/null 2>&1
}

# A model of most of MJCF, valid, in $TMP/good.xml (with an include).
good_model() {
	cat > "$TMP/parts.xml" <<'XML'
<mujoco>
  <asset>
    <mesh name="tet" file="tet.obj"/>
  </asset>
</mujoco>
XML
	printf 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' > "$TMP/tet.obj"
	cat > "$TMP/good.xml" <<'XML'
<mujoco model="good">
  <compiler angle="radian" autolimits="true" inertiafromgeom="auto"/>
  <option timestep="0.002" gravity="0 0 -9.81" integrator="RK4" cone="elliptic" impratio="2">
    <flag warmstart="enable" energy="enable"/>
  </option>
  <size nconmax="100" njmax="300"/>
  <visual><global fovy="45"/><quality shadowsize="1024"/></visual>
  <statistic extent="2" center="0 0 0.5"/>
  <include file="parts.xml"/>
  <default>
    <joint damping="0.1" armature="0.01"/>
    <geom friction="0.8 0.005 0.0001" solref="0.02 1" solimp="0.9 0.95 0.001"/>
    <default class="leg">
      <joint type="hinge" axis="0 1 0" range="-1 1"/>
      <geom type="capsule" size="0.03" rgba="0.2 0.3 0.8 1"/>
      <default class="foot"><geom type="sphere" size="0.04"/></default>
    </default>
  </default>
  <asset>
    <texture name="grid" type="2d" builtin="checker" rgb1="0.1 0.2 0.3" rgb2="0.2 0.3 0.4" width="64" height="64"/>
    <material name="floor" texture="grid" texrepeat="4 4" reflectance="0.2"/>
  </asset>
  <worldbody>
    <light name="sun" pos="0 0 3" dir="0 0 -1" directional="true"/>
    <geom name="ground" type="plane" size="5 5 0.1" material="floor"/>
    <camera name="side" pos="2 0 1" xyaxes="0 1 0 -0.4 0 1"/>
    <body name="torso" pos="0 0 1" euler="0 0 0.3">
      <freejoint name="root"/>
      <inertial pos="0 0 0" mass="5" fullinertia="0.1 0.12 0.14 0.01 0 0"/>
      <geom name="chest" type="box" size="0.1 0.08 0.12"/>
      <site name="imu" pos="0 0 0.1" size="0.01"/>
      <body name="thigh" pos="0 0 -0.15" childclass="leg">
        <joint name="hip"/>
        <joint name="hip_y" axis="1 0 0" springref="0.2" stiffness="5"/>
        <geom name="thigh_geom" fromto="0 0 0 0 0 -0.3"/>
        <body name="shin" pos="0 0 -0.3" zaxis="0 0.1 1">
          <joint name="knee" range="-2 0" frictionloss="0.05"/>
          <geom name="shin_geom" fromto="0 0 0 0 0 -0.3"/>
          <geom name="foot" class="foot" pos="0 0 -0.3"/>
          <site name="toe" pos="0 0 -0.34"/>
        </body>
      </body>
      <body name="arm" pos="0.15 0 0" axisangle="0 0 1 0.5">
        <joint name="shoulder" type="ball" range="0 1.2"/>
        <geom name="hand" type="mesh" mesh="tet" density="500"/>
      </body>
    </body>
    <body name="box" pos="1 0 0.2" quat="1 0 0 0">
      <joint name="rail" type="slide" axis="1 0 0" range="-0.5 0.5"/>
      <geom name="crate" type="box" size="0.1 0.1 0.1" mass="2"/>
    </body>
  </worldbody>
  <contact>
    <exclude body1="torso" body2="thigh"/>
    <pair geom1="foot" geom2="ground" condim="4" friction="1 1 0.005 0.0001 0.0001"/>
  </contact>
  <equality>
    <connect name="tie" body1="arm" body2="box" anchor="0.2 0 0" active="false"/>
    <joint joint1="hip_y" joint2="hip" polycoef="0 0.5 0 0 0"/>
  </equality>
  <tendon>
    <fixed name="sum"><joint joint="hip" coef="1"/><joint joint="knee" coef="-1"/></fixed>
    <spatial name="string" width="0.005"><site site="imu"/><site site="toe"/></spatial>
  </tendon>
  <actuator>
    <motor name="m_hip" joint="hip" gear="50" ctrlrange="-1 1" ctrllimited="true"/>
    <position name="p_knee" joint="knee" kp="20"/>
    <velocity name="v_rail" joint="rail" kv="3"/>
    <general name="g_sum" tendon="sum" gainprm="10" biastype="affine" biasprm="0 -10 -1"/>
  </actuator>
  <sensor>
    <jointpos joint="knee"/>
    <accelerometer site="imu"/>
    <touch name="toe_touch" site="toe"/>
    <framepos objtype="body" objname="torso"/>
    <tendonpos tendon="string"/>
    <actuatorfrc actuator="m_hip"/>
  </sensor>
  <keyframe>
    <key name="crouch" qpos="0 0 0.9 1 0 0 0 0.2 0 -0.5 1 0 0 0 0.1"/>
  </keyframe>
</mujoco>
XML
}

# fault SED: good.xml changed by SED into $TMP/f.xml; its check's
# errors as "LINE: MESSAGE" lines in $TMP/found.
fault() {
	sed "$1" "$TMP/good.xml" > "$TMP/f.xml"
	phys-sdf check "$TMP/f.xml" > "$TMP/json" || true
	jq -r 'select(.severity == "error") | "\(.line): \(.message)"' "$TMP/json" > "$TMP/found"
}

# no_error: the check's output ($output) holds no error.
no_error() {
	! grep -q '"severity":"error"' <<< "$output" || false
}

@test "a valid model: no error, and MuJoCo loads it; what phys-step says of it is said, a refusal as an error at its line" {
	good_model
	mujoco_loads "$TMP/good.xml"
	run phys-sdf check "$TMP/good.xml"
	assert_success
	no_error
	# phys-step's notes, each once, at its element
	assert_line "{\"file\":\"$TMP/good.xml\",\"line\":24,\"severity\":\"warning\",\"message\":\"<light>: not read (phys simulates no cameras or lights)\"}"
	[ "$(grep -c '<light>' <<< "$output")" -eq 1 ]
	# a limited fixed tendon, which MuJoCo loads and every engine holds:
	# nothing said of it
	sed 's|<fixed name="sum">|<fixed name="sum" limited="true" range="-1 1">|' "$TMP/good.xml" > "$TMP/limited.xml"
	mujoco_loads "$TMP/limited.xml"
	run -0 phys-step -q -p default_physics -n 1 "$TMP/limited.xml"
	run -0 phys-sdf check "$TMP/limited.xml"
	refute_output --partial "'sum' is limited"
	# a limited spatial one, which phys's MuJoCo engine alone holds:
	# check says the other engines refuse it, as phys-step does under
	# ODE; the MuJoCo profile is the model's default
	sed 's|<spatial name="string" width="0.005">|<spatial name="string" width="0.005" limited="true" range="0 1">|' "$TMP/good.xml" > "$TMP/limited.xml"
	l=$(grep -n '<spatial name="string"' "$TMP/limited.xml" | cut -d: -f1)
	mujoco_loads "$TMP/limited.xml"
	run -0 phys-step -q -n 1 "$TMP/limited.xml"
	run -1 phys-step -q -p default_physics -n 1 "$TMP/limited.xml"
	assert_output "phys-step: $TMP/limited.xml:$l: tendon 'good::string': a limited tendon between two points, which ODE cannot hold: phys's MuJoCo engine holds it (-p mujoco)"
	run -0 phys-sdf check "$TMP/limited.xml"
	assert_line "{\"file\":\"$TMP/limited.xml\",\"line\":$l,\"severity\":\"warning\",\"message\":\"tendon 'string' is limited and spatial: phys's MuJoCo engine holds it, the other engines refuse the model\"}"
	# a tendon of no name (a scene's rope) is named by its kind
	sed 's|<spatial name="string" width="0.005">|<spatial width="0.005" limited="true" range="0 1">|' "$TMP/good.xml" > "$TMP/rope.xml"
	run -1 phys-step -q -p default_physics -n 1 "$TMP/rope.xml"
	assert_output "phys-step: $TMP/rope.xml:$l: a limited tendon of no name between two points, which ODE cannot hold: phys's MuJoCo engine holds it (-p mujoco)"
	# a mesh of a file and lists, which MuJoCo mixes for an OBJ
	printf '%s\n' '<mujoco model="v"><asset>' '<mesh name="hull" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>' \
	    '</asset><worldbody><body><freejoint/><geom type="mesh" mesh="hull"/></body></worldbody></mujoco>' > "$TMP/vertex.xml"
	mujoco_loads "$TMP/vertex.xml"
	sed 's|<mesh name="hull"|& file="tet.obj"|' "$TMP/vertex.xml" > "$TMP/mixed.xml"
	mujoco_loads "$TMP/mixed.xml"
	run -1 phys-step -q -n 1 "$TMP/mixed.xml"
	assert_output "phys-step: $TMP/mixed.xml:2: mesh 'hull' has both a file and a vertex or face list: MuJoCo 2.2.2 refuses that for an STL or MSH file and mixes the lists of an OBJ's with the attributes'; phys refuses the model"
	# a mesh made by a plugin
	sed 's|<mesh name="hull" vertex="[^"]*"/>|<mesh name="hull"><plugin instance="p"/></mesh>|' "$TMP/vertex.xml" > "$TMP/plugin.xml"
	run -1 phys-step -q -n 1 "$TMP/plugin.xml"
	assert_output "phys-step: $TMP/plugin.xml:2: mesh 'hull' is made by a plugin: plugins are not read; phys refuses the model"
	# from standard input, its include found from the working directory
	cd "$TMP"
	run phys-sdf check - < good.xml
	assert_success
	no_error
}

@test "each fault: an error at its line, and MuJoCo refuses the file too" {
	good_model
	while read -r line; do
		sed=${line%% ## *} want=${line#* ## }
		fault "$sed"
		grep -qF -- "$want" "$TMP/found" ||
		    fail "$sed: no '$want' in: $(cat "$TMP/found")"
		! mujoco_loads "$TMP/f.xml" || fail "$sed: MuJoCo loads it"
	done <<'CASES'
s/gravity="0 0 -9.81"/gravty="0 0 -9.81"/ ## 3: unknown attribute 'gravty' of <option>; did you mean 'gravity'?
s/<site name="imu"/<sight name="imu"/ ## 31: unknown element <sight> in <body>
s/integrator="RK4"/integrator="RK5"/ ## 3: <option integrator="RK5">: one of Euler|RK4|implicit
s/size="0.1 0.08 0.12"/size="0.1 0.08 0.12 0.3"/ ## 30: <geom size>: 4 numbers, where MuJoCo reads 1 to 3
s/quat="1 0 0 0"/quat="1 0 0 0" euler="0 0 0"/ ## 48: <body>: more than one of quat, axisangle, xyaxes, zaxis and euler
s/childclass="leg"/childclass="lag"/ ## 32: childclass="lag": no default class is so named; did you mean 'leg'?
s/mesh="tet"/mesh="tte"/ ## 45: mesh="tte": no mesh is so named; did you mean 'tet'?
s/name="hip_y"/name="knee"/ ## 37: joint name 'knee' given twice (first at
s/fullinertia="0.1 0.12 0.14 0.01 0 0"/diaginertia="0.1 0.1 0.3"/ ## 29: <inertial diaginertia="0.1 0.1 0.3">: the moments break the triangle inequality
s/fullinertia="0.1 0.12 0.14 0.01 0 0"/fullinertia="0.1 0.12 0.14 0.2 0 0"/ ## 29: <inertial fullinertia>: not positive definite
s/mass="5"/mass="0"/ ## 27: body 'torso' moves (it has joints) and has no mass
s/density="500"/density="0"/ ## 43: body 'arm' moves (it has joints) and has no mass
s/mass="2"/mass="0"/ ## 48: body 'box' moves (it has joints) and has no mass
s/range="-2 0"/range="0 -2"/ ## 37: <joint range="0 -2">: the lower limit must be below the upper
s|<geom name="hand"|<joint name="loose" type="free"/><geom name="hand"| ## 45: a free joint only on a body of <worldbody> itself
s|<light name="sun"|<joint name="k"/><light name="sun"| ## 24: <joint> cannot sit in <worldbody>
s/parts.xml/nothere.xml/ ## 9: <include file="nothere.xml">
s/body2="box"/body2="bx"/ ## 58: body2="bx": no body is so named; did you mean 'box'?
s/joint="knee" kp/joint="kne" kp/ ## 67: joint="kne": no joint is so named; did you mean 'knee'?
s/joint="knee" kp/kp/ ## 67: <position>: no joint, tendon, site or body to act on: MuJoCo refuses an actuator without a transmission target
s|<compiler angle="radian"|& inertiagrouprange="4 5"| ## 43: body 'arm' moves (it has joints) and has no mass
s/autolimits="true"/autolimits="yes"/ ## 2: <compiler autolimits="yes">: true or false
s|<include file="parts.xml"/>|&<asset><mesh name="v" vertex="0 0 0 1 0 0 0 1 0"/></asset>| ## 9: mesh 'v': 3 vertices and 0 triangles: 4 vertices or more (as MuJoCo wants)
s|<include file="parts.xml"/>|&<asset><mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 4"/></asset>| ## 9: mesh 'v': face index 4 is not one of the 4 vertices (0 to 3)
s|<include file="parts.xml"/>|&<asset><mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 2 0 1 3 1 2 3 0 3 2"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="v"/></body></worldbody>| ## 9: mesh 'v': faces have inconsistent orientation (two run from vertex 0 to vertex 1): MuJoCo refuses it
s|<include file="parts.xml"/>|&<asset><mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 1 0" face="0 1 2"/></asset>| ## 9: mesh 'v': 13 vertex coordinates: three a vertex
s|<include file="parts.xml"/>|&<asset><mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 0"/></asset>| ## 9: mesh 'v': the mesh has no convex hull (it is flat
CASES
}

@test "a mesh whose faces turn both ways is refused where a geom uses it, as MuJoCo compiles only the meshes its geoms use" {
	# faces 0 1 2 and 0 1 3 both run from vertex 0 to vertex 1
	printf '%s\n' '<mujoco model="m"><asset>' \
	    '<mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 2 0 1 3 1 2 3 0 3 2"/>' \
	    '</asset><worldbody><body pos="0 0 1"><freejoint/><geom size=".1"/></body></worldbody></mujoco>' > "$TMP/unused.xml"
	mujoco_loads "$TMP/unused.xml"
	run -0 phys-step -q -n 1 "$TMP/unused.xml"
	sed 's|<geom size=".1"/>|<geom type="mesh" mesh="v"/>|' "$TMP/unused.xml" > "$TMP/used.xml"
	! mujoco_loads "$TMP/used.xml" || false
	run -1 phys-step -q -n 1 "$TMP/used.xml"
	assert_output "phys-step: $TMP/used.xml:2: mesh 'v': faces have inconsistent orientation (two run from vertex 0 to vertex 1): MuJoCo refuses it"
}

@test "a moving body's mass from geoms counts those in the compiler's inertia groups, and its <inertial> where none is, as MuJoCo compiles it" {
	printf '%s\n' '<mujoco model="m"><compiler inertiafromgeom="true" inertiagrouprange="1 2"/>' \
	    '<worldbody><body pos="0 0 1"><joint axis="0 1 0"/>' \
	    '<inertial pos="0 0 0" mass="2" diaginertia="1 1 1"/>' \
	    '<geom type="box" size="0.1 0.2 0.3"/></body></worldbody></mujoco>' > "$TMP/g.xml"
	mujoco_loads "$TMP/g.xml"
	run -0 phys-sdf check "$TMP/g.xml"
	no_error
	sed '/<inertial/d' "$TMP/g.xml" > "$TMP/none.xml"
	! mujoco_loads "$TMP/none.xml" || false
	run -1 phys-sdf check "$TMP/none.xml"
	assert_output --partial '"line":2,"severity":"error","message":"body moves (it has joints) and has no mass'
	sed 's|<geom type="box"|<geom group="2" type="box"|' "$TMP/none.xml" > "$TMP/in.xml"
	mujoco_loads "$TMP/in.xml"
	run -0 phys-sdf check "$TMP/in.xml"
	no_error
}

@test "did-you-mean as JSON, as for SDF: the element, the closest names" {
	good_model
	fault 's/<flag warmstart/<flags warmstart/; s|</flag>|</flags>|'
	run jq -c 'select(.line == 4) | [.element, .suggest]' "$TMP/json"
	assert_output '["flags",["flag"]]'
	fault 's/damping="0.1" armature/dampng="0.1" armature/'
	run jq -c 'select(.line == 11) | [.element, .suggest]' "$TMP/json"
	assert_output '["joint",["damping"]]'
}

@test "an included file's faults at its own lines" {
	good_model
	sed -i 's/file=/fle=/' "$TMP/parts.xml"
	run -1 phys-sdf check "$TMP/good.xml"
	assert_output --partial "\"file\":\"$TMP/parts.xml\",\"line\":3,\"severity\":\"error\",\"message\":\"unknown attribute 'fle' of <mesh>; did you mean 'file' or 'face'?\""
	! mujoco_loads "$TMP/good.xml" || false
}

@test "an included file with entity declarations is refused, at its DOCTYPE" {
	good_model
	printf '<?xml version="1.0"?>\n<!DOCTYPE mujoco [\n<!ENTITY a "aaaa">\n]>\n<mujoco model="&a;"/>\n' > "$TMP/parts.xml"
	run -1 phys-sdf check "$TMP/good.xml"
	assert_output --partial "\"file\":\"$TMP/parts.xml\",\"line\":2,\"severity\":\"error\",\"message\":\"DTDs and entity declarations are not allowed in MJCF\""
}

@test "what MuJoCo's XML reader reads past is no error: blank lines before the declaration, \"--\" inside a comment, in the model and its include" {
	good_model
	{ printf '\n\n<?xml version="1.0"?>\n<!-- phys-sdf print --format mjcf -->\n'; cat "$TMP/good.xml"; } > "$TMP/dashes.xml"
	{ printf '<!-- --- a part --- -->\n'; cat "$TMP/parts.xml"; } > "$TMP/p2.xml"
	mv "$TMP/p2.xml" "$TMP/parts.xml"
	mujoco_loads "$TMP/dashes.xml"
	run phys-sdf check "$TMP/dashes.xml"
	assert_success
	no_error
}

@test "not XML: the parser's error at its line" {
	printf '<mujoco>\n  <worldbody>\n    <body>\n  </worldbody>\n</mujoco>\n' > "$TMP/broken.xml"
	! mujoco_loads "$TMP/broken.xml" || false
	run -1 phys-sdf check "$TMP/broken.xml"
	assert_output --partial '"line":4,"severity":"error"'
}

@test "a model MJCF printing writes checks without error, and each warning check gives it, phys-step gives too" {
	for w in pendulum.sdf closed_forms.sdf fourbar.sdf robots/arm.urdf robots/quadruped.urdf; do
		phys-sdf print --format mjcf "$WORLDS/$w" > "$TMP/out.xml" 2> /dev/null
		run phys-sdf check "$TMP/out.xml"
		assert_success
		no_error
		jq -r '"\(.file):\(.line): \(.message)"' <<< "$output" | sort > "$TMP/said"
		phys-step -n 0 "$TMP/out.xml" 2>&1 > /dev/null | sed 's/^phys-step: //' | sort > "$TMP/step"
		# (phys-step says more: what happens when the run starts)
		[ -z "$(comm -13 "$TMP/step" "$TMP/said")" ]
	done
}

@test "a later MuJoCo's attribute phys reads is a warning, as phys-step loads it (MuJoCo 2.2.2 refuses it); one at a value phys refuses, an error" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/later.xml"
	run -0 --separate-stderr phys-sdf check "$src"
	assert_equal "$(jq -r '[.line, .severity, .message] | @tsv' <<< "$output" | sort -n | uniq | head -3)" \
"10	warning	<position kv>: a later MuJoCo's, which MuJoCo 2.2.2 refuses: phys reads it
14	warning	joint has range but not limited, which MuJoCo 2.2.2 refuses: read as MuJoCo reads it from 2.3.3 on, whose autolimits is on unless <compiler> turns it off: limited, as is every such range of the model
23	warning	<joint actuatorfrcrange>: a later MuJoCo's, which MuJoCo 2.2.2 refuses: phys reads it"
	mujoco_loads "$BATS_TEST_DIRNAME/data/mjcf/later-2.2.2.xml"
	run -1 mujoco_loads "$src"
	run -0 phys-sdf check "$BATS_TEST_DIRNAME/data/mjcf/frame.xml"
	# said once, at the first frame, with the lines of the others
	assert_equal "$(jq -r '[.line, .severity, .message, (.also | map(tostring) | join(","))] | @tsv' <<< "$output")" \
	    "13	warning	<frame>: a later MuJoCo's, which MuJoCo 2.2.2 refuses: phys reads it	17,20"
	# a frame's attributes are checked as the loader checks them
	sed 's|<frame pos="0 0 1" euler="0 0 90">|<frame pos="0 0 1" euler="0 0 90" size="1">|' "$BATS_TEST_DIRNAME/data/mjcf/frame.xml" > "$TMP/frame.xml"
	run -1 phys-sdf check "$TMP/frame.xml"
	[[ "$output" == *'"line":13,"severity":"error","message":"unknown attribute '"'"'size'"'"' of <frame>"'* ]]
	run -1 phys-step -q -n 1 "$TMP/frame.xml"
	sed 's|<option timestep="0.001"/>|<option timestep="0.001"><flag invdiscrete="enable"/></option>|' "$src" > "$TMP/flag.xml"
	run -1 --separate-stderr phys-sdf check "$TMP/flag.xml"
	[[ "$output" == *'"line":8,"severity":"error","message":"<flag invdiscrete=\"enable\">: a later MuJoCo'"'"'s, not 2.2.2'"'"'s; phys moves the model as with invdiscrete=\"disable\", and refuses it"'* ]]
}

# A later MuJoCo's camera's focal, resolution and sensorsize are said
# alike: the loader says them in one line, and check did in three.
@test "an element's attributes said alike are one warning, as phys-step says them" {
	cat > "$TMP/cam.xml" <<'XML'
<mujoco model="cam">
  <worldbody>
    <camera name="c" pos="0 0 1" focal="0.01 0.01" resolution="640 480" sensorsize="0.01 0.01"/>
    <body name="b" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1"/>
    </body>
  </worldbody>
</mujoco>
XML
	run -0 phys-sdf check "$TMP/cam.xml"
	jq -r '"\(.file):\(.line): \(.message)"' <<< "$output" > "$TMP/said"
	grep -qxF "$TMP/cam.xml:3: <camera focal, resolution, sensorsize>: a later MuJoCo's, for how the model looks: not read" "$TMP/said"
	phys-step -n 0 "$TMP/cam.xml" 2>&1 > /dev/null | sed 's/^phys-step: //' > "$TMP/step"
	assert_equal "$(sort "$TMP/said")" "$(sort "$TMP/step")"
}

@test "a sensor MuJoCo 2.2.2 lacks (MuJoCo 3's <contact>, or a misspelt one) is a warning, as phys reads no sensor and loads the model; phys-step runs it" {
	local src="$BATS_TEST_DIRNAME/data/mjcf/later.xml"
	sed 's|</actuator>|&<sensor><contact name="touch" geom1="g"/><jointpoz joint="rail"/></sensor>|' "$src" > "$TMP/sensor.xml"
	run -0 --separate-stderr phys-sdf check "$TMP/sensor.xml"
	[[ "$output" == *'"severity":"warning","message":"unknown element <contact> in <sensor> (MuJoCo 2.2.2 has no such sensor; phys reads no sensor and loads the model)"'* ]]
	[[ "$output" == *'"severity":"warning","message":"unknown element <jointpoz> in <sensor> (MuJoCo 2.2.2 has no such sensor; phys reads no sensor and loads the model); did you mean <jointpos>?"'* ]]
	run -1 mujoco_loads "$TMP/sensor.xml"
	run -0 phys-step -q -n 1 "$TMP/sensor.xml"
}

@test "a warning said word for word on many elements is one finding, at the first, with the others' lines; the loader's warning of another attribute on the same element is kept beside the check's" {
	cat > "$TMP/two.xml" <<'XML'
<mujoco model="two">
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="j1" axis="0 1 0" range="-1 1" actuatorfrcrange="-5 5"/>
      <inertial pos="0.2 0 0" mass="1" diaginertia="0.001 0.001 0.001"/>
      <body name="b" pos="0.4 0 0">
        <joint name="j2" axis="0 1 0" range="-1 1" actuatorfrcrange="-5 5"/>
        <inertial pos="0.2 0 0" mass="1" diaginertia="0.001 0.001 0.001"/>
      </body>
    </body>
  </worldbody>
</mujoco>
XML
	run -0 phys-sdf check "$TMP/two.xml"
	assert_equal "$(jq -r '[.line, .message, (.also // [] | map(tostring) | join(","))] | @tsv' <<< "$output")" \
"4	<joint actuatorfrcrange>: a later MuJoCo's, which MuJoCo 2.2.2 refuses: phys reads it	7
4	joint has range but not limited, which MuJoCo 2.2.2 refuses: read as MuJoCo reads it from 2.3.3 on, whose autolimits is on unless <compiler> turns it off: limited, as is every such range of the model	"
	# what phys-step says of the model, check says
	run -0 --separate-stderr phys-step -n 0 "$TMP/two.xml"
	[[ "$stderr" == *"two.xml:4: joint has range but not limited"* ]]
}

@test "a <composite> of MuJoCo 2.2.2's attributes is checked as MuJoCo checks them (it loads it; a misspelt one it refuses, named with did-you-mean), and refused as phys-step refuses it" {
	cat > "$TMP/c.xml" <<-'XML'
	<mujoco>
	<worldbody>
	<body name="b" pos="0 0 1">
	<composite prefix="p" type="particle" count="2 2 2" spacing="0.1" offset="0 0 1" flatinertia="0.1" solrefsmooth="0.02 1" solimpsmooth="0.9 0.95 0.001">
	<geom size="0.01"/>
	</composite>
	</body>
	</worldbody>
	</mujoco>
	XML
	mujoco_loads "$TMP/c.xml"
	run -1 phys-sdf check "$TMP/c.xml"
	assert_output "{\"file\":\"$TMP/c.xml\",\"line\":4,\"severity\":\"error\",\"message\":\"<composite> is not read: phys cannot represent it\"}"
	run -1 --separate-stderr phys-step -n 1 "$TMP/c.xml"
	assert_equal "$stderr" "phys-step: $TMP/c.xml:4: <composite> is not read: phys cannot represent it"
	sed 's/ spacing=/ spacng=/' "$TMP/c.xml" > "$TMP/bad.xml"
	! mujoco_loads "$TMP/bad.xml" || false
	run -1 phys-sdf check "$TMP/bad.xml"
	assert_line --partial "\"message\":\"unknown attribute 'spacng' of <composite>; did you mean 'spacing'?\""
}
