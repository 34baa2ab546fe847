#!/usr/bin/env bats
# Meshes, polylines, ellipsoids and heightmaps: loaded, colliding and
# weighed, checked against closed forms and Gazebo's own models.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) \
	    -lm -o "$BATS_FILE_TMPDIR/geomgen"
	"$BATS_FILE_TMPDIR/geomgen" "$GEN"
}

setup() {
	TMP=$(mktemp -d)
	GEN="$BATS_FILE_TMPDIR/gen"
}

teardown() {
	rm -rf "$TMP"
}

# last ITEM FIELD: the field of an item on the last state line of $TMP/out.
last() {
	tail -1 "$TMP/out" | jq -r --arg i "$1" --arg f "$2" '.items[$i][$f]'
}

# ground_world FILE BODY...: a world with a ground plane (mu 0.5) and models.
ground_world() {
	local f=$1
	shift
	cat > "$f" <<EOF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<model name="ground"><static>true</static><link name="link"><collision name="c">
<geometry><plane><normal>0 0 1</normal></plane></geometry>
<surface><friction><ode><mu>0.5</mu><mu2>0.5</mu2></ode></friction></surface>
</collision></link></model>
$*
</world></sdf>
EOF
}

# body NAME POSE GEOMETRY [INERTIAL]: a model of one link.
body() {
	local inertial=${4:-'<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'}
	echo "<model name=\"$1\"><pose>$2</pose><link name=\"link\">$inertial
<collision name=\"c\"><geometry>$3</geometry>
<surface><friction><ode><mu>0.5</mu><mu2>0.5</mu2></ode></friction></surface>
</collision></link></model>"
}

@test "a cube mesh rests at half its side and slides v^2 / (2 mu g)" {
	ground_world "$TMP/w.sdf" "$(body cube '0 0 0.7 0 0 0' "<mesh><uri>$GEN/cube.stl</uri></mesh>")"
	echo '{"t":1,"name":"cube::link/linear_vel","value":{"x":2,"y":0,"z":0}}' > "$TMP/ctl"
	phys-step -t 2.5 -r 100 -c "$TMP/ctl" -i 'cube::link/pose' "$TMP/w.sdf" > "$TMP/out"
	z1=$(jq -r 'select(.t == 1) | .items["cube::link/pose"].z' "$TMP/out")
	x1=$(jq -r 'select(.t == 1) | .items["cube::link/pose"].x' "$TMP/out")
	near "$z1" 0.5 0.002
	near "$(last cube::link/pose z)" 0.5 0.002
	d=$(awk -v a="$x1" -v b="$(last cube::link/pose x)" 'BEGIN { print b - a }')
	rel "$d" "$(awk 'BEGIN { print 4 / (2 * 0.5 * 9.81) }')" 0.05
}

# fine_cube ENGINE: the cubes of 6,144 triangles at rest, level at half
# their side (within Bullet's 1 mm margin).
fine_cube() {
	run -0 phys-step -q -p "$1" -t 0.3 -i '*::link/pose' "$TMP/w.sdf"
	tail -1 <<< "$output" > "$TMP/out"
	for m in rest fall; do
		near "$(last $m::link/pose z)" 0.5 0.0015
		near "$(last $m::link/pose roll)" 0 1e-4
		near "$(last $m::link/pose pitch)" 0 1e-4
	done
}

@test "a cube of fine faces (6,144 triangles) rests level on the ground, and lands level let fall 2 cm, under each engine" {
	# ODE gives a mesh's first points on a plane in triangle order: the
	# ten it kept lay in one corner of the face, and the cube let fall
	# tipped 0.26 rad, its centre 54 mm low
	sh "$BATS_TEST_DIRNAME/data/gridcube.sh" 32 > "$TMP/cube.obj"
	ground_world "$TMP/w.sdf" "$(body rest '0 0 0.5 0 0 0' "<mesh><uri>$TMP/cube.obj</uri></mesh>")" \
	    "$(body fall '2 0 0.52 0 0 0' "<mesh><uri>$TMP/cube.obj</uri></mesh>")"
	each_engine fine_cube
}

@test "ASCII and binary STL, OBJ, Collada (unit, node transform) and glTF (.gltf and its buffer, .glb; nested nodes) load to one cube" {
	for f in cube.stl cube_binary.stl cube.obj cube.dae cube.gltf cube.glb; do
		ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$GEN/$f</uri></mesh>" '<inertial auto="true"/>')"
		run --separate-stderr phys-inertia check "$TMP/w.sdf"
		[ "$status" -eq 0 ]
		line=$(jq -c 'select(.link == "m::link")' <<<"$output")
		# 1 m^3 of water; float files carry 7 digits
		rel "$(jq .mass <<<"$line")" 1000 1e-6
		for k in 0 1 2; do
			rel "$(jq ".moments[$k]" <<<"$line")" "$(awk 'BEGIN { printf "%.17g", 1000 / 6 }')" 1e-6
		done
		for a in x y z; do
			near "$(jq ".geometry_box.$a" <<<"$line")" 1 1e-6
		done
	done
	# and the Collada and glTF cubes sit where the STL one does
	for f in cube.dae cube.gltf cube.glb; do
		ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$GEN/$f</uri></mesh>" '<inertial auto="true"/>')"
		phys-inertia fix "$TMP/w.sdf" > "$TMP/fixed.sdf"
		run phys-param get "$TMP/fixed.sdf" 'm::link/inertial.pose'
		[ "$status" -eq 0 ]
		for k in x y z; do
			near "$(jq ".value.$k" <<<"$output")" 0 1e-6
		done
	done
}

@test "a glTF cube rests on its face at half its side under every engine; that glTF is read in its file's axes is said once, at the first mesh" {
	ground_world "$TMP/w.sdf" "$(body a '0 0 0.7 0 0 0' "<mesh><uri>$GEN/cube.gltf</uri></mesh>")" \
	    "$(body b '3 0 0.7 0 0 0' "<mesh><uri>$GEN/cube.glb</uri></mesh>")"
	for e in ode bullet mujoco dart simbody; do
		run -0 --separate-stderr phys-step -p "$e" -t 1.5 -r 2 -i 'a::link/pose' -i 'b::link/pose' "$TMP/w.sdf"
		tail -1 <<< "$output" > "$TMP/out"
		near "$(last a::link/pose z)" 0.5 0.003
		near "$(last b::link/pose z)" 0.5 0.003
		near "$(last b::link/pose x)" 3 0.003
		[ "$(grep -c "glTF meshes are read in their files' axes" <<< "$stderr")" = 1 ]
		grep -q "w.sdf:8: glTF meshes" <<< "$stderr"
	done
}

@test "mesh inertia equals the closed form to 1e-9: cube, tetrahedron, extruded L" {
	# cube: m a^2 / 6 at density 1000
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$GEN/cube.stl</uri><scale>2 2 2</scale></mesh>" '<inertial auto="true"/>')"
	run --separate-stderr phys-inertia check "$TMP/w.sdf"
	line=$(jq -c 'select(.link == "m::link")' <<<"$output")
	rel "$(jq .mass <<<"$line")" 8000 1e-12
	rel "$(jq '.moments[0]' <<<"$line")" "$(awk 'BEGIN { printf "%.17g", 8000 * 4 / 6 }')" 1e-9
	# tetrahedron (0,0,0),(1,0,0),(0,1,0),(0,0,1): V = 1/6, about its
	# centre ixx = rho/80, ixy = rho/480: moments rho/96, rho/96, rho/60
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$GEN/tetra.stl</uri></mesh>" '<inertial auto="true"><density>480</density></inertial>')"
	phys-inertia fix "$TMP/w.sdf" > "$TMP/f.sdf"
	run --separate-stderr phys-inertia check "$TMP/w.sdf"
	line=$(jq -c 'select(.link == "m::link")' <<<"$output")
	rel "$(jq .mass <<<"$line")" 80 1e-12
	rel "$(jq '.moments[0]' <<<"$line")" 5 1e-9
	rel "$(jq '.moments[1]' <<<"$line")" 5 1e-9
	rel "$(jq '.moments[2]' <<<"$line")" 8 1e-9
	phys-param get "$TMP/w.sdf" 'm::link/inertial.pose' 'm::link/inertial.inertia.ixy' > "$TMP/got"
	near "$(jq -s '.[0].value.x' "$TMP/got")" 0.25 1e-12
	rel "$(jq -s '.[1].value' "$TMP/got")" 1 1e-9
	# a concave L: 2x1 plus 1x1 (x from 0 to 2, y from 0 to 2), height 1
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' '<polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><point>0 0</point><height>1</height></polyline>' '<inertial auto="true"><density>1</density></inertial>')"
	phys-param get "$TMP/w.sdf" 'm::link/inertial.mass' 'm::link/inertial.pose' \
	    'm::link/inertial.inertia.izz' 'm::link/inertial.inertia.ixy' > "$TMP/got"
	# closed form: boxes A (2x1x1 at 1, .5, .5) and B (1x1x1 at .5, 1.5, .5)
	read -r cx cy izz ixy <<<"$(awk 'BEGIN {
		cx = (2 * 1 + 1 * 0.5) / 3; cy = (2 * 0.5 + 1 * 1.5) / 3
		izz = 2 * (4 + 1) / 12 + 2 * ((1 - cx)^2 + (0.5 - cy)^2) + 1 * 2 / 12 + ((0.5 - cx)^2 + (1.5 - cy)^2)
		ixy = -(2 * (1 - cx) * (0.5 - cy) + (0.5 - cx) * (1.5 - cy))
		printf "%.17g %.17g %.17g %.17g", cx, cy, izz, ixy }')"
	rel "$(jq -s '.[0].value' "$TMP/got")" 3 1e-12
	rel "$(jq -s '.[1].value.x' "$TMP/got")" "$cx" 1e-12
	rel "$(jq -s '.[1].value.y' "$TMP/got")" "$cy" 1e-12
	rel "$(jq -s '.[2].value' "$TMP/got")" "$izz" 1e-9
	rel "$(jq -s '.[3].value' "$TMP/got")" "$ixy" 1e-9
}

@test "automatic inertia: a 0.2 m box at density 125 weighs 1 kg; a collision's density wins" {
	ground_world "$TMP/w.sdf" "$(body b '0 0 0 0 0 0' '<box><size>0.2 0.2 0.2</size></box>' '<inertial auto="true"><density>125</density></inertial>')"
	phys-param get "$TMP/w.sdf" 'b::link/inertial.mass' 'b::link/inertial.inertia.ixx' > "$TMP/got"
	rel "$(jq -s '.[0].value' "$TMP/got")" 1 1e-12
	rel "$(jq -s '.[1].value' "$TMP/got")" 0.0066666666666666671 1e-12
	sed 's|<geometry><box>|<density>250</density><geometry><box>|' "$TMP/w.sdf" > "$TMP/d.sdf"
	rel "$(phys-param get "$TMP/d.sdf" 'b::link/inertial.mass' | jq .value)" 2 1e-12
	# the default density is water's
	sed 's|<density>125</density>||' "$TMP/w.sdf" > "$TMP/d.sdf"
	rel "$(phys-param get "$TMP/d.sdf" 'b::link/inertial.mass' | jq .value)" 8 1e-12
	# it reaches the engine: the box falls freely and rests on its face
	phys-step -t 1 -i 'b::link/pose' -i 'b::link/mass' "$TMP/d.sdf" > "$TMP/out" 2>/dev/null || true
	sed 's|<pose>0 0 0 0 0 0</pose>|<pose>0 0 0.5 0 0 0</pose>|' "$TMP/w.sdf" > "$TMP/f.sdf"
	phys-step -t 1 -i 'b::link/pose' "$TMP/f.sdf" > "$TMP/out"
	near "$(last b::link/pose z)" 0.1 0.002
}

@test "auto_inertia_params change nothing: a 0.2 m cube mesh at density 125 still weighs 1 kg, with a warning" {
	params='<auto_inertia_params><gz:voxel_size>0.05</gz:voxel_size></auto_inertia_params>'
	cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.11"><world name="w">
<model name="a"><link name="l"><inertial auto="true"><density>125</density>$params</inertial>
<collision name="c"><geometry><mesh><uri>$GEN/cube.stl</uri><scale>0.2 0.2 0.2</scale></mesh></geometry></collision></link></model>
<model name="b"><link name="l"><inertial auto="true"><density>125</density></inertial>
<collision name="c">$params<geometry><mesh><uri>$GEN/cube.stl</uri><scale>0.2 0.2 0.2</scale></mesh></geometry></collision></link></model>
<model name="c"><link name="l"><inertial auto="true"><density>125</density><auto_inertia_params/></inertial>
<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
</world></sdf>
EOF
	run --separate-stderr phys-step -n 1 -i '*::l/mass' -i '*::l/inertia' "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	for m in a b c; do
		rel "$(tail -1 <<<"$output" | jq --arg k "$m::l/mass" '.items[$k]')" 1 1e-12
		rel "$(tail -1 <<<"$output" | jq --arg k "$m::l/inertia" '.items[$k].ixx')" 0.0066666666666666671 1e-12
	done
	# one warning for the two links whose parameters hold something
	[ "$(grep -c 'has no effect' <<<"$stderr")" -eq 1 ]
	[[ "$stderr" == *"w.sdf:3: link 'a::l': <auto_inertia_params> has no effect"*"(and 1 more link)"* ]]
}

@test "an open mesh has no inertia: the error says so" {
	head -n -8 "$GEN/cube.stl" > "$TMP/open.stl"
	echo 'endsolid' >> "$TMP/open.stl"
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$TMP/open.stl</uri></mesh>" '<inertial auto="true"/>')"
	run phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"w.sdf:7: collision 'm::link::c': the mesh is open (not watertight"* ]]
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><uri>$TMP/open.stl</uri></mesh>")"
	run phys-inertia fix --all "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the mesh is open"* ]]
}

@test "an ellipsoid rests on its semi-axis and weighs 4/3 pi a b c rho" {
	ground_world "$TMP/w.sdf" "$(body e '0 0 1 0 0 0' '<ellipsoid><radii>0.3 0.2 0.1</radii></ellipsoid>' '<inertial auto="true"/>')"
	phys-step -t 1.5 -i 'e::link/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(last e::link/pose z)" 0.1 0.002
	phys-param get "$TMP/w.sdf" 'e::link/inertial.mass' 'e::link/inertial.inertia.izz' > "$TMP/got"
	m=$(awk 'BEGIN { printf "%.17g", 4 / 3 * atan2(0, -1) * 0.3 * 0.2 * 0.1 * 1000 }')
	rel "$(jq -s '.[0].value' "$TMP/got")" "$m" 1e-12
	rel "$(jq -s '.[1].value' "$TMP/got")" "$(awk -v m="$m" 'BEGIN { printf "%.17g", m * (0.09 + 0.04) / 5 }')" 1e-9
}

@test "a concave polyline collides as its extrusion: a box rests on its top" {
	ground_world "$TMP/w.sdf" "<model name=\"l\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><polyline><point>0 0</point><point>2 0</point><point>2 1</point><point>1 1</point><point>1 2</point><point>0 2</point><height>0.3</height></polyline></geometry></collision></link></model>" \
	    "$(body b '0.5 1.5 1 0 0 0' '<box><size>0.2 0.2 0.2</size></box>')" \
	    "$(body notch '1.5 1.5 1 0 0 0' '<box><size>0.2 0.2 0.2</size></box>')"
	phys-step -t 1.5 -i 'b::link/pose' -i 'notch::link/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(last b::link/pose z)" 0.4 0.002
	# the notch of the L is empty: that box falls to the ground
	near "$(last notch::link/pose z)" 0.1 0.002
}

@test "a sphere rolls to the low point of a bowl heightmap (PNG and GeoTIFF)" {
	for f in bowl.png bowl.tif; do
		ground_world "$TMP/w.sdf" "<model name=\"t\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><heightmap><uri>$GEN/$f</uri><size>8 8 2</size><pos>0 0 0.5</pos></heightmap></geometry></collision></link></model>" \
		    "<model name=\"s\"><pose>1.5 -1 3 0 0 0</pose><link name=\"link\"><velocity_decay><linear>0.003</linear><angular>0.003</angular></velocity_decay><inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name=\"c\"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>"
		phys-step -t 20 -r 1 -i 's::link/pose' "$TMP/w.sdf" > "$TMP/out"
		# 8-bit pixels round the bowl's middle flat out to 0.35 m
		[ $f = bowl.png ] && tol=0.4 || tol=0.05
		near "$(last s::link/pose x)" 0 $tol
		near "$(last s::link/pose y)" 0 $tol
		# the bowl's bottom is pos.z; the sphere sits a radius above
		near "$(last s::link/pose z)" 0.6 0.01
	done
}

@test "a heightmap image must be square with 2^n+1 pixels" {
	ground_world "$TMP/w.sdf" "<model name=\"t\"><static>true</static><link name=\"link\"><collision name=\"c\"><geometry><heightmap><uri>$GEN/bad.png</uri></heightmap></geometry></collision></link></model>"
	run phys-step -n 1 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-step: $TMP/w.sdf:7: "*"bad.png: a heightmap image must be square with 2^n+1 pixels"*"it is 30x30" ]]
}

@test "Gazebo's heightmap world steps; a ball dropped on it rests on the surface" {
	[ -d "$REF/gazebo-worlds" ] || skip "no ../shared/reference"
	run phys-step -t 0.1 -e 100 "$REF/gazebo-worlds/heightmap.world"
	[ "$status" -eq 0 ]
	# the terrain's centre pixel is 127 of 254: 5 m under a 10 m size
	sed 's|<uri>model://sun</uri>|&</include><include><uri>model://ball_probe</uri>|' \
	    "$REF/gazebo-worlds/heightmap.world" > "$TMP/h.world"
	mkdir -p "$TMP/models/ball_probe"
	cat > "$TMP/models/ball_probe/model.sdf" <<'EOF'
<?xml version="1.0"?>
<sdf version="1.6"><model name="ball_probe"><pose>0.5 0.5 8 0 0 0</pose><link name="link">
<velocity_decay><linear>0.001</linear><angular>0.001</angular></velocity_decay>
<inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model></sdf>
EOF
	GAZEBO_MODEL_PATH="$GAZEBO_MODEL_PATH:$TMP/models" phys-step -t 3 -r 1 -i 'ball_probe::link/pose' "$TMP/h.world" > "$TMP/out" 2>/dev/null
	z=$(last ball_probe::link/pose z)
	# centre height 127/254 * 10 = 5; the slope there is ~ 10/129 per m
	near "$z" 5.1 0.1
	# the image seen from above: row 0 at +y, column 0 at -x. Pixel
	# (32, 32) is 64 of 254 (2.52 m); mirrored in x or y it would be 190
	sed -i 's|<pose>0.5 0.5 8 0 0 0</pose>|<pose>-32 32 4 0 0 0</pose>|' "$TMP/models/ball_probe/model.sdf"
	GAZEBO_MODEL_PATH="$GAZEBO_MODEL_PATH:$TMP/models" phys-step -t 1.2 -r 1 -i 'ball_probe::link/pose' "$TMP/h.world" > "$TMP/out" 2>/dev/null
	near "$(last ball_probe::link/pose z)" "$(awk 'BEGIN { print 64 / 254 * 10 + 0.1 }')" 0.15
}

# drop_on MODEL X Y R Z: a sphere of radius R dropped from height Z on the
# model's mesh (slow enough not to pass through a triangle in a step).
drop_on() {
	cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.6"><world name="w">
<include><uri>model://$1</uri><static>true</static></include>
<model name="probe"><pose>$2 $3 $5 0 0 0</pose><link name="link">
<velocity_decay><linear>0.001</linear><angular>0.001</angular></velocity_decay>
<inertial><mass>0.01</mass><inertia><ixx>1e-6</ixx><iyy>1e-6</iyy><izz>1e-6</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>$4</radius></sphere></geometry></collision></link></model>
</world></sdf>
EOF
	phys-step -t 3 -r 1 -i 'probe::link/pose' "$TMP/w.sdf" > "$TMP/out"
}

@test "Gazebo's mesh models (Collada, binary STL, OBJ): a dropped ball rests on their surface" {
	[ -d "$REF/gazebo-models" ] || skip "no ../shared/reference"
	mkdir -p "$TMP/models/stop_light"	# stop_light_post includes it; not shipped
	echo '<?xml version="1.0"?><sdf version="1.6"><model name="stop_light"><static>true</static><link name="l"/></model></sdf>' > "$TMP/models/stop_light/model.sdf"
	export GAZEBO_MODEL_PATH="$GAZEBO_MODEL_PATH:$TMP/models"
	# cube_20k: 2 m cube scaled 0.5, link at z 0.5: top at 1
	drop_on cube_20k 0.1 0.2 0.05 2.5
	near "$(last probe::link/pose z)" 1.05 0.002
	# euro_pallet: its top deck. The Collada node lowers the geometry
	# (which starts at z = 0) by 1.22; scale 0.1, collision at z 0.05.
	echo '<?xml version="1.0"?><sdf version="1.6"><world name="w"><include><uri>model://euro_pallet</uri></include></world></sdf>' > "$TMP/p.sdf"
	run --separate-stderr phys-inertia check "$TMP/p.sdf"
	top=$(jq '0.05 - 0.122 + .geometry_box.z' <<<"$output")
	drop_on euro_pallet 0 0 0.05 2
	near "$(last probe::link/pose z)" "$(awk -v t="$top" 'BEGIN { print t + 0.05 }')" 0.003
	# plastic_cup: inside, on its bottom (no ground: through it, it falls on)
	drop_on plastic_cup 0 0 0.01 0.3
	z=$(last probe::link/pose z)
	awk -v z="$z" 'BEGIN { exit !(z > 0 && z < 0.12) }'
	# stop_light_post (OBJ, cm, CRLF): a flat box caught by its arm, which
	# spans x < -1 m between heights the file's own vertices give
	read -r lo hi <<<"$(awk '{ sub(/\r$/, "") } $1 == "v" && $2 + 0 < -100 { z = $4 / 100; if (lo == "" || z < lo) lo = z; if (z > hi) hi = z } END { print lo, hi }' "$REF/gazebo-models/stop_light_post/meshes/stop_light_post.obj")"
	near "$lo" 5.72 0.01
	drop_on stop_light_post -3 0 0.05 7
	sed -i 's|<sphere><radius>0.05</radius></sphere>|<box><size>0.3 0.3 0.05</size></box>|' "$TMP/w.sdf"
	phys-step -t 3 -r 1 -i 'probe::link/pose' "$TMP/w.sdf" > "$TMP/out"
	z=$(last probe::link/pose z)
	awk -v z="$z" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(z > lo && z < hi + 0.2) }'
	near "$(last probe::link/pose x)" -3 0.05
}

@test "fix --auto writes inertial auto=\"true\" that loads to the closed form" {
	ground_world "$TMP/w.sdf" "$(body b '0 0 0.5 0 0 0' '<box><size>0.2 0.2 0.2</size></box>')"
	run --separate-stderr phys-inertia fix --all --auto --density 125 "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/auto.sdf"
	grep -q '<inertial auto="true">' "$TMP/auto.sdf"
	grep -q '<density>125</density>' "$TMP/auto.sdf"
	! grep -q '<ixx>' "$TMP/auto.sdf" || false
	phys-param get "$TMP/auto.sdf" 'b::link/inertial.mass' 'b::link/inertial.inertia.ixx' > "$TMP/got"
	rel "$(jq -s '.[0].value' "$TMP/got")" 1 1e-12
	rel "$(jq -s '.[1].value' "$TMP/got")" 0.0066666666666666671 1e-12
	# check reads it as computed; a plain fix leaves it automatic
	run --separate-stderr phys-inertia check "$TMP/auto.sdf"
	[ "$status" -eq 0 ]
	rel "$(jq -s '.[1].mass' <<<"$output")" 1 1e-12
	run --separate-stderr phys-inertia fix "$TMP/auto.sdf"
	[ "$output" = "$(cat "$TMP/auto.sdf")" ]
}

# opens WORLD MESH: how many times loading WORLD opens the file MESH.
opens() {
	strace -f -e trace=openat -o "$TMP/trace" phys-step -n 1 "$1" > /dev/null
	grep -c "\"$2\"" "$TMP/trace" || true
}

@test "a mesh used by 50 links is read once; another scale is another mesh" {
	command -v strace > /dev/null || skip "strace is not installed (tools/deps.sh)"
	strace -o /dev/null true 2> /dev/null || skip "strace cannot trace here"
	link() { echo "<model name=\"m$1\"><pose>$((2 * $1)) 0 1 0 0 0</pose><link name=\"l\"><collision name=\"c\"><geometry><mesh><uri>$GEN/cube.stl</uri>$2</mesh></geometry></collision></link></model>"; }
	ground_world "$TMP/one.sdf" "$(link 0)"
	ground_world "$TMP/many.sdf" "$(for i in $(seq 50); do link "$i"; done)"
	ground_world "$TMP/two.sdf" "$(link 0; link 1 '<scale>2 2 2</scale>')"
	one=$(opens "$TMP/one.sdf" "$GEN/cube.stl")
	[ "$one" -ge 1 ]
	[ "$(opens "$TMP/many.sdf" "$GEN/cube.stl")" -eq "$one" ]
	[ "$(opens "$TMP/two.sdf" "$GEN/cube.stl")" -eq $((2 * one)) ]
	# and the 50 boxes all stand on the ground, each on its own copy
	phys-step -t 1 -r 1 "$TMP/many.sdf" | tail -1 | jq -e '[.items | to_entries[] | select(.key | test("^m[0-9]+::l/pose$")) | .value.z] | length == 50 and all(. > 0.49 and . < 0.51)'
}

# Profiles for a world(): ODE's, the default, Bullet's, MuJoCo's, Simbody's and DART's.
PROFILES='<physics name="ode" type="ode" default="true"/><physics name="bullet" type="bullet"/><physics name="mujoco" type="mujoco"/><physics name="simbody" type="simbody"><simbody><contact><dissipation>2</dissipation></contact></simbody></physics><physics name="dart" type="dart"/>'

# resized_run BODY PARAM VALUE PROFILE: a resize at t = 0.5; ODE's contacts
# correct at 0.5 m/s, so the body rises out of the ground rather than
# being thrown (Bullet's split impulse moves it without a velocity;
# MuJoCo's soft contact throws it up, and it is back at rest by 3.5 s;
# Simbody's contacts, of dissipation 2 s/m, push apart at 1/2 m/s at most).
resized_run() {
	echo "{\"t\":0.5,\"name\":\"$1::link::c/$2\",\"value\":$3}" > "$TMP/ctl"
	phys-step -p "$4" -t 3.5 -r 2 -c "$TMP/ctl" -s "$1::link::c/surface.contact.ode.max_vel=0.5" \
	    -s 'ground::link::c/surface.contact.ode.max_vel=0.5' \
	    -i "$1::link/pose" -i "$1::link/mass" -i "$1::link/inertia" "$TMP/w.sdf" > "$TMP/out"
}

# The cube at rest before and after, to the engine's surface layer (1 mm
# under Bullet).
scaled_mesh() {
	resized_run cube geometry.mesh.scale '{"x":2,"y":2,"z":2}' "$1"
	near "$(jq -r 'select(.t == 0.5) | .items["cube::link/pose"].z' "$TMP/out")" 0.5 0.002
	near "$(last cube::link/pose z)" "$(risen "$1" 0.5 1 2)" 0.002
	rel "$(tail -1 "$TMP/out" | jq '.items["cube::link/mass"]')" 8 1e-12
	rel "$(last cube::link/inertia ixx)" "$(awk 'BEGIN { printf "%.17g", 32 / 6 }')" 1e-9
}
@test "a cube mesh scaled twice at run time rests at its new half side, 8 times as heavy, under each engine" {
	ground_world "$TMP/w.sdf" "$PROFILES" "$(body cube '0 0 0.5 0 0 0' "<mesh><uri>$GEN/cube.stl</uri></mesh>" \
	    '<inertial><mass>1</mass><inertia><ixx>0.16666666666666666</ixx><iyy>0.16666666666666666</iyy><izz>0.16666666666666666</izz></inertia></inertial>')"
	each_engine scaled_mesh
}

# A ball of radius 0.1 m and 0.5 kg, named $1, at $2.
ball() {
	body "$1" "$2" '<sphere><radius>0.1</radius></sphere>' \
	    '<inertial><mass>0.5</mass><inertia><ixx>0.002</ixx><iyy>0.002</iyy><izz>0.002</izz></inertia></inertial>'
}

# The balls at rest: on the hull's top (0.5 m up) or, where the mesh's
# triangles collide, in its slot (0.2 m up); MuJoCo collides every mesh's
# hull. Within Bullet's margin.
hulled() {
	phys-step -p "$1" -t 2 -r 1 -i 'on::link/pose' -i 'in::link/pose' \
	    -i 'atop::link/pose' -i 'block::link/pose' "$TMP/w.sdf" > "$TMP/out"
	near "$(last on::link/pose z)" 0.6 0.002
	near "$(last block::link/pose z)" 0 0.002
	near "$(last atop::link/pose z)" 0.6 0.003
	if [ "$1" = mujoco ]; then
		near "$(last in::link/pose z)" 0.6 0.002
	else
		near "$(last in::link/pose z)" 0.3 0.002
	fi
}
@test "a mesh with optimization=\"convex_hull\" collides as its convex hull, static or moving, under each engine; without, as its triangles" {
	local hull="<mesh optimization=\"convex_hull\"><uri>$GEN/channel.obj</uri></mesh>"
	ground_world "$TMP/w.sdf" "$PROFILES" \
	    "$(body hulled '0 0 0 0 0 0' "$hull" '' | sed 's|<link|<static>true</static><link|')" \
	    "$(body plain '3 0 0 0 0 0' "<mesh><uri>$GEN/channel.obj</uri></mesh>" '' | sed 's|<link|<static>true</static><link|')" \
	    "$(body block '-3 0 0.5 0 0 0' "$hull" '<inertial><pose>0 0 0.25 0 0 0</pose><mass>2</mass><inertia><ixx>0.2</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial>')" \
	    "$(ball on '0 0 1 0 0 0')" "$(ball in '3 0 1 0 0 0')" "$(ball atop '-3 0 1.5 0 0 0')"
	sed -i 's/version="1.9"/version="1.11"/' "$TMP/w.sdf"
	each_engine hulled
}

@test "an SDF mesh under <phys:rule>mujoco</phys:rule> is its OBJ's first object, as MuJoCo reads one; without it every object collides; another rule is refused at its line" {
	two_cubes > "$TMP/cubes.obj"
	for rule in '' '<phys:rule>mujoco</phys:rule>'; do
		ground_world "$TMP/w.sdf" \
		    "$(body cubes '0 0 0 0 0 0' "<mesh><uri>$TMP/cubes.obj</uri>$rule</mesh>" '' | sed 's|<link|<static>true</static><link|')" \
		    "$(ball over '0.7 0.1 0.6 0 0 0')"
		sed -i 's|<sdf version="1.9">|<sdf version="1.9" xmlns:phys="urn:phys:mjcf">|' "$TMP/w.sdf"
		phys-step -t 1.5 -r 1 -i 'over::link/pose' "$TMP/w.sdf" > "$TMP/out"
		# on the second cube's top, or past it to the ground
		near "$(last over::link/pose z)" "$([ -z "$rule" ] && echo 0.3 || echo 0.1)" 0.002
	done
	sed -i 's|<phys:rule>mujoco</phys:rule>|<phys:rule>drake</phys:rule>|' "$TMP/w.sdf"
	run -1 phys-step -n 1 "$TMP/w.sdf"
	[[ "$output" == *"w.sdf:8: <rule>drake</rule>: gazebo or mujoco"* ]]
}

@test "an SDF mesh given by <phys:vertices> (and <phys:faces>, or none: the hull) weighs the closed form and holds a ball under each engine; malformed lists are refused at their line" {
	local corners='-1 -1 -1 1 -1 -1 1 1 -1 -1 1 -1 -1 -1 1 1 -1 1 1 1 1 -1 1 1 0 0 0'
	# the tetrahedron of 'mesh inertia equals the closed form', by lists:
	# mass rho V = 80 at 480 kg/m^3, moments 5, 5, 8
	ground_world "$TMP/w.sdf" "$(body m '0 0 0 0 0 0' "<mesh><phys:vertices>0 0 0 1 0 0 0 1 0 0 0 1</phys:vertices><phys:faces>0 2 1 0 1 3 0 3 2 1 2 3</phys:faces></mesh>" '<inertial auto="true"><density>480</density></inertial>')"
	sed -i 's|<sdf version="1.9">|<sdf version="1.9" xmlns:phys="urn:phys:mjcf">|' "$TMP/w.sdf"
	run --separate-stderr phys-inertia check "$TMP/w.sdf"
	line=$(jq -c 'select(.link == "m::link")' <<<"$output")
	rel "$(jq .mass <<<"$line")" 80 1e-12
	rel "$(jq '.moments[0]' <<<"$line")" 5 1e-9
	rel "$(jq '.moments[2]' <<<"$line")" 8 1e-9
	# the cube of side 2, scaled to 0.5: its corners' hull (the centre
	# inside it), static, holds a ball on its top face 0.5 m up
	ground_world "$TMP/w.sdf" \
	    "$(body cube '0 0 0.25 0 0 0' "<mesh><phys:vertices>$corners</phys:vertices><scale>0.25 0.25 0.25</scale></mesh>" '' | sed 's|<link|<static>true</static><link|')" \
	    "$(ball on '0.1 0 1 0 0 0')"
	sed -i 's|<sdf version="1.9">|<sdf version="1.9" xmlns:phys="urn:phys:mjcf">|' "$TMP/w.sdf"
	run -0 --separate-stderr phys-sdf check "$TMP/w.sdf"
	[[ "$output" == *'"line":8,"severity":"warning","message":"<mesh> is given by <phys:vertices> (an MJCF mesh'"'"'s lists), not by a <uri>: other readers see no mesh"'* ]]
	each_engine resting_on_lists
	# both a file and lists; faces alone; a word that is no number; a
	# face of no vertex
	cp "$TMP/w.sdf" "$TMP/ok.sdf"
	while read -r line; do
		sed=${line%% ## *} want=${line#* ## }
		sed "$sed" "$TMP/ok.sdf" > "$TMP/w.sdf"
		run -1 phys-step -n 1 "$TMP/w.sdf"
		[[ "$output" == *"w.sdf:8: $want"* ]] || fail "$sed: $output"
	done <<'CASES'
s|<mesh>|<mesh><uri>x.obj</uri>| ## <mesh> has both <uri> and <phys:vertices>: one or the other
s|<phys:vertices>[^<]*</phys:vertices>|<phys:faces>0 1 2</phys:faces>| ## <phys:faces> without <phys:vertices>
s|</phys:vertices>| x</phys:vertices>| ## <vertices>: numbers expected, at most 2000000 triangles' worth
s|</phys:vertices>|</phys:vertices><phys:faces>0 1 9</phys:faces>| ## <mesh>: face index 9 is not one of the 9 vertices (0 to 8)
CASES
}

# resting_on_lists ENGINE: the ball of 0.1 m on the cube's top, 0.5 m up.
resting_on_lists() {
	phys-step -p "$1" -t 1.5 -r 1 -i 'on::link/pose' "$(profile_world "$TMP/w.sdf" "$1")" > "$TMP/out"
	near "$(last on::link/pose z)" 0.6 0.003
}

# A hull 2 m beside its link's origin, which ODE's convex must hold (its
# checks wrote two lines a face to standard output, among the state
# lines): every line written is a state line, and the cube, 0.1 m a side,
# rests flat on its face, 0.05 m up.
offset_hull() {
	phys-step -p "$1" -t 1.5 -r 1 -i 'aside::link/pose' "$TMP/w.sdf" > "$TMP/out"
	jq -e '.t' "$TMP/out" > /dev/null
	[ "$(jq -s 'map(select(.t == null)) | length' "$TMP/out")" = 0 ]
	near "$(last aside::link/pose z)" 0.05 0.002
	near "$(last aside::link/pose x)" -2 0.002
	near "$(last aside::link/pose pitch)" 0 0.002
}
@test "a convex hull far from its link's origin rests on its face under each engine, and nothing but state lines is written" {
	cube_obj 2 | awk '$1 == "v" { $2 += 2 } { print }' > "$TMP/aside.obj"
	ground_world "$TMP/w.sdf" "$PROFILES" "$(body aside '-2 0 0.3 0 0 0' \
	    "<mesh optimization=\"convex_hull\"><uri>$TMP/aside.obj</uri></mesh>" \
	    '<inertial><pose>2 0 0 0 0 0</pose><mass>1</mass><inertia><ixx>0.0017</ixx><iyy>0.0017</iyy><izz>0.0017</izz></inertia></inertial>')"
	sed -i 's/version="1.9"/version="1.11"/' "$TMP/w.sdf"
	each_engine offset_hull
}

@test "a flat mesh asked for its convex hull collides as its triangles, said; another optimization is said and not done" {
	printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n' > "$TMP/flat.obj"
	ground_world "$TMP/w.sdf" \
	    "$(body flat '0 0 1 0 0 0' "<mesh optimization=\"convex_hull\"><uri>$TMP/flat.obj</uri></mesh>" '' | sed 's|<link|<static>true</static><link|')" \
	    "$(body parts '3 0 0 0 0 0' "<mesh optimization=\"convex_decomposition\"><uri>$GEN/channel.obj</uri></mesh>" '' | sed 's|<link|<static>true</static><link|')" \
	    "$(ball in '3 0 1 0 0 0')" "$(ball onflat '0.5 0.5 1.5 0 0 0')"
	phys-step -t 1.5 -r 1 -i 'in::link/pose' -i 'onflat::link/pose' "$TMP/w.sdf" > "$TMP/out" 2> "$TMP/err"
	grep -F "w.sdf:8: collision 'flat::link::c': the mesh has no convex hull (it is flat" "$TMP/err"
	grep -F "w.sdf:11: collision 'parts::link::c': optimization \"convex_decomposition\" is not done" "$TMP/err"
	# the flat square's triangles hold the ball; the channel's slot takes the other
	near "$(last onflat::link/pose z)" 1.1 0.002
	near "$(last in::link/pose z)" 0.3 0.002
}

new_radii() {
	resized_run e geometry.ellipsoid.radii '{"x":0.3,"y":0.3,"z":0.3}' "$1"
	near "$(last e::link/pose z)" "$(risen "$1" 0.1 0.3 2)" 0.002
	# three times the volume at the same density
	rel "$(tail -1 "$TMP/out" | jq '.items["e::link/mass"]')" 3 1e-12
	rel "$(last e::link/inertia ixx)" "$(awk 'BEGIN { printf "%.17g", 3 * (0.09 + 0.09) / 5 }')" 1e-12
}
@test "an ellipsoid given new radii at run time rests on its new semi-axis, its inertia m (b^2 + c^2) / 5, under each engine" {
	ground_world "$TMP/w.sdf" "$PROFILES" "$(body e '0 0 0.1 0 0 0' '<ellipsoid><radii>0.3 0.3 0.1</radii></ellipsoid>' \
	    '<inertial><mass>1</mass><inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.036</izz></inertia></inertial>')"
	each_engine new_radii
}

# A link's collision of triangles off its centre of mass, and one beside
# another collision: Bullet's compound shape holds no triangles, and such
# meshes fell through the ground there.
held_meshes() {
	phys-step -p "$1" -t 2 -r 1 -i 'off::link/pose' -i 'pair::link/pose' -i 'oval::link/pose' "$TMP/w.sdf" > "$TMP/out"
	# the cube's centre 0.2 above the link's origin: it rests 0.3 up
	near "$(last off::link/pose z)" 0.3 0.002
	near "$(last pair::link/pose z)" 0.5 0.002
	# the ellipsoid's centre 0.05 above: its semi-axis of 0.1 less that
	near "$(last oval::link/pose z)" 0.05 0.002
}
@test "a mesh or ellipsoid off its link's centre of mass, and a mesh beside another collision, rest on the ground, under each engine" {
	local inertial='<inertial><mass>1</mass><inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>'
	local cube="<geometry><mesh><uri>$GEN/cube.stl</uri></mesh></geometry>"
	ground_world "$TMP/w.sdf" "$PROFILES" \
	    "<model name=\"off\"><pose>0 0 1 0 0 0</pose><link name=\"link\">$inertial<collision name=\"c\"><pose>0 0 0.2 0 0 0</pose>$cube</collision></link></model>" \
	    "<model name=\"pair\"><pose>3 0 1 0 0 0</pose><link name=\"link\">$inertial<collision name=\"c\">$cube</collision>
	    <collision name=\"top\"><pose>0 0 2 0 0 0</pose><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link></model>" \
	    "<model name=\"oval\"><pose>-3 0 1 0 0 0</pose><link name=\"link\">$inertial<collision name=\"c\"><pose>0 0 0.05 0 0 0</pose><geometry><ellipsoid><radii>0.3 0.3 0.1</radii></ellipsoid></geometry></collision></link></model>"
	each_engine held_meshes
}

# floor_obj FILE: a flat floor 4 m square of 0.1 m squares, each two
# triangles, as terrain and building meshes come.
floor_obj() {
	awk 'BEGIN { n = 40
		for (j = 0; j <= n; j++) for (i = 0; i <= n; i++)
			printf "v %g %g 0\n", -2 + i / 10, -2 + j / 10
		for (j = 0; j < n; j++) for (i = 0; i < n; i++) {
			a = j * (n + 1) + i + 1; b = a + 1; c = a + n + 1; d = c + 1
			printf "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c
		} }' > "$1"
}

# floor_world GEOMETRY MODELS [MU]: $TMP/w.sdf, a static floor of
# GEOMETRY (mu MU, 0.2 unless given) under MODELS, a profile of a 1 ms
# step for each engine.
floor_world() {
	cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
$(engine_profiles 0.001)
<model name="floor"><static>true</static><link name="link"><collision name="c">
<geometry>$1</geometry>
<surface><friction><ode><mu>${3:-0.2}</mu><mu2>${3:-0.2}</mu2></ode></friction></surface>
</collision></link></model>
$2
</world></sdf>
EOF
}

# on_floor ENGINE: the boxes set resting on the floor stay where they are
# (within 1 mm and 0.01 rad), level; those sent at 1 m/s along x stop
# v^2 / (2 mu g) = 0.2548 m on (mu 0.2), within 1%, level, on their line
# and turned less than 0.05 rad, as on a plane (where every engine stops
# them within 0.2%).
on_floor() {
	run -0 phys-step -q -p "$1" -t 1.5 -r 1 -c "$TMP/go" -i '*::link/pose' "$TMP/w.sdf"
	jq -s -r '.[0].items as $a | .[-1].items as $b | $a | keys[] |
	    select(startswith("floor") | not) | [., $b[.].x - $a[.].x,
	    $b[.].y - $a[.].y, $b[.].yaw - $a[.].yaw, $b[.].roll,
	    $b[.].pitch, $b[.].z] | @tsv' <<< "$output" | awk '
	    function abs(x) { return x < 0 ? -x : x }
	    { slide = $1 ~ /^slide/ ? 0.2548 : 0
	      if (abs($2 - slide) > (slide ? 0.01 * slide : 0.001) || abs($3) > 0.01 ||
		  abs($4) > (slide ? 0.05 : 0.01) ||
		  abs($5) > 1e-3 || abs($6) > 1e-3 || abs($7 - 0.05) > 2e-3) {
		      print $1 ": moved " $2 " " $3 ", turned " $4 ", tilted " $5 " " $6 ", at z " $7; bad++ } }
	    END { exit bad > 0 }'
}

@test "boxes rest still on a floor mesh of triangles, and on a flat heightmap, and slide v^2 / (2 mu g) over them, level, as on a plane, under the engines that collide open meshes, and MuJoCo on the heightmap" {
	floor_obj "$TMP/floor.obj"
	flat_png "$TMP/flat.png"
	# four places over the triangles' edges, four turns
	# (and two where ODE's first ten points of sixteen held one corner of
	# the four)
	boxes=$({ for i in 0 1 2 3 4 5 6 7; do
		awk -v i=$i 'BEGIN { x = -1.5 + (i % 4) * 0.013; y = -1.6 + i * 0.45
		    printf "rest%d %g %g %g\nslide%d %g %g %g\n", i, x, y, i * 0.2, i, x + 1.3, y + 0.031 * i, i * 0.2 }'
	done; echo "rest8 -0.942 0.9 0.623"; echo "rest9 -0.946 -1.2 0.574"; } |
	    while read -r name x y yaw; do
		echo "<model name=\"$name\"><pose>$x $y 0.05 0 0 $yaw</pose><link name=\"link\">
<inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
<collision name=\"c\"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode></friction></surface></collision></link></model>"
		case $name in slide*) printf '{"t":0,"name":"%s::link/linear_vel","value":"1 0 0"}\n' "$name" >> "$TMP/go" ;; esac
	done)
	# a heightmap's surface is at its top when its samples are alike;
	# MuJoCo collides a heightmap's triangles, not a mesh's
	for floor in "<mesh><uri>$TMP/floor.obj</uri></mesh>" \
	    "<heightmap><uri>$TMP/flat.png</uri><size>4 4 1</size><pos>0 0 -1</pos></heightmap>"; do
		engines="ode bullet dart"
		case $floor in "<heightmap>"*) engines="$engines mujoco" ;; esac
		floor_world "$floor" "$boxes"
		echo "on ${floor%%>*}>"
		# Bullet gave a rounded corner over an edge between two
		# triangles a sideways normal: boxes at rest were thrown over
		# (3.5 m on the heightmap), sliding ones stopped short,
		# turned; FCL gave DART's box crossing an edge that edge's
		# normal, tilted back, and it stopped 0.04 m short; Bullet's
		# points under a box sliding over triangles, a triangle's
		# corners as often as the box's, turned it (0.26 rad);
		# MuJoCo's one point for each heightmap triangle under a box
		# stopped sliding boxes 2.6% short
		each_engine_of "$engines" on_floor
	done
}

# wheels ENGINE: of the cylinders sent at 1 m/s along x, those standing
# stop v^2 / (2 mu g) = 0.2548 m on, and those lying across their path
# slide until they roll, then roll at v / (1 + I / (m r^2)) = 0.6 m/s:
# 0.6408 m in 1 s (mu 0.2, r 0.05 m, I 0.0016667 kg m^2); each within
# 1.5% (DART's over triangles are up to 1.1% short), on its line,
# standing ones turned less than 0.05 rad, all at z 0.05 within 2 mm.
wheels() {
	run -0 phys-step -q -p "$1" -t 1 -r 1 -c "$TMP/go" -i '*::link/pose' "$TMP/w.sdf"
	jq -s -r '.[0].items as $a | .[-1].items as $b | $a | keys[] |
	    select(startswith("floor") | not) | [., $b[.].x - $a[.].x,
	    $b[.].y - $a[.].y, $b[.].yaw - $a[.].yaw, $b[.].z] | @tsv' <<< "$output" | awk '
	    function abs(x) { return x < 0 ? -x : x }
	    { go = $1 ~ /^stand/ ? 0.2548 : 0.6408
	      if (abs($2 - go) > 0.015 * go || abs($3) > 0.01 ||
		  ($1 ~ /^stand/ && abs($4) > 0.05) || abs($5 - 0.05) > 2e-3) {
		      print $1 ": moved " $2 " " $3 ", turned " $4 ", at z " $5; bad++ } }
	    END { exit bad > 0 }'
}

@test "cylinders sent over a plane, a flat heightmap and a floor mesh slide v^2 / (2 mu g) standing, and lying roll at v / (1 + I / (m r^2)), as the closed forms say, under the engines that hold them" {
	flat_png "$TMP/flat.png"
	floor_obj "$TMP/floor.obj"
	cyls=$(for i in 0 1 2 3 4 5; do
		awk -v i=$i 'BEGIN { x = -1.5 + (i % 3) * 0.021; y = -1.6 + i * 0.53
		    printf "stand%d %g %g 0 %g\nlie%d %g %g 1.5707963 0\n", i, x, y, i * 0.3, i, x, y + 0.26 }'
	done | while read -r name x y roll yaw; do
		echo "<model name=\"$name\"><pose>$x $y 0.05 $roll 0 $yaw</pose><link name=\"link\">
<inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
<collision name=\"c\"><geometry><cylinder><radius>0.05</radius><length>0.1</length></cylinder></geometry>
<surface><friction><ode><mu>0.2</mu><mu2>0.2</mu2></ode></friction></surface></collision></link></model>"
		printf '{"t":0,"name":"%s::link/linear_vel","value":"1 0 0"}\n' "$name" >> "$TMP/go"
	done)
	for floor in "<plane><normal>0 0 1</normal></plane>" \
	    "<heightmap><uri>$TMP/flat.png</uri><size>4 4 1</size><pos>0 0 -1</pos></heightmap>" \
	    "<mesh><uri>$TMP/floor.obj</uri></mesh>"; do
		floor_world "$floor" "$cyls"
		echo "on ${floor%%>*}>"
		# DART's cylinder under FCL, a prism of 16 sides, rolled
		# 0.46 m (0.07 to 0.45 m on the heightmap); Bullet's points
		# for a standing cylinder on the plane, six of its rim found
		# at places fixed in the world and four kept, turned it
		# 0.31 rad, and on triangles, one for each under it, up to
		# 0.35 rad, a lying one over the mesh 1.2 rad; MuJoCo's one
		# point for each heightmap triangle under a standing cylinder
		# turned it 0.19 rad and stopped it 8% short (MuJoCo makes a
		# mesh its convex hull, a box)
		case $floor in
		"<mesh>"*) each_engine_of "ode bullet dart" wheels ;;
		*) each_engine_of "ode bullet dart mujoco" wheels ;;
		esac
	done
}

@test "a cylinder rolling into a 2 cm step of a mesh climbs it, as its energy about the step's edge allows, under the engines that collide open meshes" {
	# a floor at 0 up to x = 0.3, a wall, a floor at 0.02 beyond
	cat > "$TMP/step.obj" <<'OBJ'
v -1 -1 0
v 0.3 -1 0
v 0.3 1 0
v -1 1 0
v 0.3 -1 0.02
v 2 -1 0.02
v 2 1 0.02
v 0.3 1 0.02
f 1 2 3
f 1 3 4
f 2 5 8
f 2 8 3
f 5 6 7
f 5 7 8
OBJ
	floor_world "<mesh><uri>$TMP/step.obj</uri></mesh>" '<model name="w"><pose>0 0 0.05 1.5707963 0 0</pose><link name="link">
<inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
<collision name="c"><geometry><cylinder><radius>0.05</radius><length>0.1</length></cylinder></geometry>
<surface><friction><ode><mu>0.5</mu><mu2>0.5</mu2></ode></friction></surface></collision></link></model>' 0.5
	echo '{"t":0,"name":"w::link/linear_vel","value":"1.5 0 0"}' > "$TMP/go"
	# sent at 1.5 m/s it rolls at 0.9 (v / (1 + I / (m r^2))); about
	# the edge it strikes, its momentum m v (r - h) + I v / r turns it
	# (held by friction of 0.2 times the normal impulse; mu is 0.5)
	# with 0.39 J, twice the m g h = 0.196 J the step takes: it ends
	# on the step, its centre 0.07 m up, rolling at most at the 0.48 m/s
	# the 0.194 J left give (it leaves the edge, which cannot pull it
	# round, and strikes again); FCL gave DART's cylinder the normal of
	# its prism's flat side at the edge, and threw it back, and phys's
	# points, lost when a bounce lifted it, let it bounce along the
	# floor and roll on at 0.34 m/s
	climbs() {
		run -0 phys-step -q -p "$1" -t 1.5 -r 1 -c "$TMP/go" -i 'w::link/pose' -i 'w::link/linear_vel' "$TMP/w.sdf"
		tail -1 <<< "$output" | jq -e '.items["w::link/pose"] |
		    .x > 0.4 and (.z - 0.07 | fabs) < 0.002' > /dev/null
		tail -1 <<< "$output" | jq '.items["w::link/linear_vel"].x' >> "$TMP/speeds"
	}
	each_engine_of "ode bullet dart" climbs
	# the engines' speeds on the step within 5% of each other
	awk '{ v[NR] = $1 } END { lo = hi = v[1]; for (i in v) {
	    lo = v[i] < lo ? v[i] : lo; hi = v[i] > hi ? v[i] : hi }
	    print "on the step at", lo, "to", hi, "m/s"
	    exit !(hi <= 0.48 && hi <= 1.05 * lo) }' "$TMP/speeds"
}

# ramp_png FILE: a heightmap image of 33 x 33 samples rising evenly
# along x from 0 to 128 (its highest is the size's height, as Gazebo
# scales it).
ramp_png() {
	gray_png "$1" 33 '4 * i'
}

@test "a box set on a heightmap ramp slides down it g (sin a - mu cos a) t^2 / 2, straight, under each engine" {
	ramp_png "$TMP/ramp.png"
	# the surface is z = (x + 2) / 4 over the 4 m field: tan a = 1/4;
	# the box lies on it, its centre 0.05 m off the surface at x = 0
	cat > "$TMP/w.sdf" <<EOW
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
$(engine_profiles 0.001)
<model name="ramp"><static>true</static><link name="link"><collision name="c">
<geometry><heightmap><uri>$TMP/ramp.png</uri><size>4 4 1</size></heightmap></geometry>
<surface><friction><ode><mu>0.1</mu><mu2>0.1</mu2></ode></friction></surface>
</collision></link></model>
<model name="b"><pose>-0.0121268 0.1 0.5485071 0 -0.2449787 0</pose><link name="link">
<inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
<surface><friction><ode><mu>0.1</mu><mu2>0.1</mu2></ode></friction></surface></collision></link></model>
</world></sdf>
EOW
	# after 1 s: 9.81 (sin a - 0.1 cos a) / 2 = 0.71378 m down the
	# slope, x 0.69247 less; Simbody's springs under the heightmap's
	# few triangles under the box turned it 0.11 rad
	down_ramp() {
		run -0 phys-step -q -p "$1" -t 1 -r 1 -i 'b::link/pose' "$TMP/w.sdf"
		tail -1 <<< "$output" | jq -e '.items["b::link/pose"] |
		    (.x + 0.0121268 + 0.69247 | fabs) < 0.007 and
		    (.y - 0.1 | fabs) < 0.001 and (.yaw | fabs) < 0.01 and
		    (.roll | fabs) < 0.01 and (.pitch + 0.24498 | fabs) < 0.01' > /dev/null
	}
	each_engine down_ramp
}

@test "a box resting on a flat rise smaller than itself, over a floor mesh, stands on the rise, level, under the engines that collide open meshes" {
	floor_obj "$TMP/floor.obj"
	# a 4 cm square 1 cm above the floor, under the box's middle: Bullet
	# takes a box lying on triangles by its corners, which are over the
	# floor here, and must keep the rise's own points
	cat >> "$TMP/floor.obj" <<'OBJ'
v -0.02 -0.02 0.01
v 0.02 -0.02 0.01
v 0.02 0.02 0.01
v -0.02 0.02 0.01
f 1682 1683 1684
f 1682 1684 1685
OBJ
	cat > "$TMP/w.sdf" <<EOW
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
$(engine_profiles 0.001)
<model name="floor"><static>true</static><link name="link"><collision name="c">
<geometry><mesh><uri>$TMP/floor.obj</uri></mesh></geometry></collision></link></model>
<model name="b"><pose>0.003 -0.002 0.062 0 0 0.3</pose><link name="link">
<inertial><mass>1</mass><inertia><ixx>0.0016667</ixx><iyy>0.0016667</iyy><izz>0.0016667</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>
</world></sdf>
EOW
	on_rise() {
		run -0 phys-step -q -p "$1" -t 1 -r 1 -i 'b::link/pose' "$TMP/w.sdf"
		tail -1 <<< "$output" | jq -e '.items["b::link/pose"] |
		    (.z - 0.06 | fabs) < 0.002 and (.roll | fabs) < 1e-3 and
		    (.pitch | fabs) < 1e-3' > /dev/null
	}
	each_engine_of "ode bullet dart" on_rise
}
