#!/usr/bin/env bats
# Model files: an SDF file holding a <model> and no <world>, as every
# model of Gazebo's model database is. Each command reads one as a world
# does, in phys(7)'s default world; edits stay in the model file.

load helper
bats_require_minimum_version 1.5.0

# cart DIR: a model directory, cart/, whose body is a mesh found as
# model://cart/meshes/body.stl, 1 m above its frame, at 2 m.
cart() {
	mkdir -p "$1/cart/meshes"
	cp "$BATS_FILE_TMPDIR/gen/cube.stl" "$1/cart/meshes/body.stl"
	printf '%s\n' '<?xml version="1.0"?>' '<model><name>cart</name><sdf version="1.7">model.sdf</sdf></model>' \
	    > "$1/cart/model.config"
	cat > "$1/cart/model.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <model name="cart">
    <pose>0 0 2 0 0 0</pose>
    <link name="body">
      <pose>0 0 1 0 0 0</pose>
      <inertial>
        <mass>3</mass>
        <inertia>
          <ixx>0.5</ixx>
          <iyy>0.5</iyy>
          <izz>0.5</izz>
        </inertia>
      </inertial>
      <collision name="collision">
        <geometry>
          <mesh>
            <uri>model://cart/meshes/body.stl</uri>
            <scale>1 0.5 0.25</scale>
          </mesh>
        </geometry>
      </collision>
    </link>
  </model>
</sdf>
SDF
}

setup_file() {
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) \
	    -lm -o "$BATS_FILE_TMPDIR/geomgen"
	mkdir "$BATS_FILE_TMPDIR/gen"
	"$BATS_FILE_TMPDIR/geomgen" "$BATS_FILE_TMPDIR/gen"
}

setup() {
	unset GAZEBO_MODEL_PATH SDF_PATH
	cart "$TMP/models"
	M=$TMP/models/cart/model.sdf
}

@test "a model file runs in the default world: its gravity, one ODE profile, placed where the file says" {
	[ "$(phys-preset list "$M")" = '{"name":"default_physics","type":"ode","default":false,"start":true}' ]
	phys-param get "$M" gravity max_step_size ode.solver.type ode.solver.iters | jq -c .value |
	    paste -sd' ' | grep -qx '{"x":0,"y":0,"z":-9.8} 0.001 "quick" 50'
	# falling from 3 m, semi-implicit Euler: z = 3 - g h^2 n (n + 1) / 2
	phys-step -n 500 -e 500 -i 'cart::body/pose' "$M" | tail -1 | jq '.items["cart::body/pose"].z' > "$TMP/z"
	near "$(cat "$TMP/z")" "$(awk 'BEGIN { printf "%.12f", 3 - 9.8 * 1e-6 * 500 * 501 / 2 }')" 1e-9
}

@test "every command reads a model file, by path and on standard input" {
	cd "$TMP/models/cart"
	phys-step -n 0 -i 'cart::body/pose' - < model.sdf | jq -e '.items["cart::body/pose"].z == 3'
	[ "$(phys-inertia check model.sdf | jq -c '[.link, .file, .line, .geometry_box]')" = '["cart::body","model.sdf",5,{"x":1,"y":0.5,"z":0.25}]' ]
	[ "$(phys-introspect items model.sdf 'cart::body/mass' | jq -r .name)" = cart::body/mass ]
	[ -z "$(phys-sdf check model.sdf)" ]
	phys-sdf print model.sdf > "$TMP/printed.sdf"
	grep -q '^  <model name="cart">' "$TMP/printed.sdf"
	! grep -q '<world' "$TMP/printed.sdf" || false
	[ "$(phys-param get 'cart::body/inertial.mass' - < model.sdf | jq .value)" = 3 ]
	[ "$(phys-preset list -1 - < model.sdf)" = default_physics ]
	phys-sweep plan -t 0.01 model.sdf 'cart::body/inertial.mass=1,2' > "$TMP/plan"
	[ "$(wc -l < "$TMP/plan")" -eq 2 ]
}

@test "edits stay in the model file; what only a world holds is refused with the way to a world" {
	cp "$M" "$TMP/orig.sdf"
	phys-param set --in-place "$M" 'cart::body::collision/surface.friction.ode.mu=0.4'
	diff "$TMP/orig.sdf" "$M" > "$TMP/diff" || true
	[ "$(grep -c '^>' "$TMP/diff")" -eq 7 ]
	! grep -q '^<' "$TMP/diff" || false
	grep -q '<mu>0.4</mu>' "$M"
	head -3 "$M" | grep -q '<sdf version="1.7">'
	! grep -q '<world' "$M" || false
	run -1 phys-param set --in-place "$M" gravity='0 0 -1.62'
	[ "$output" = "phys-param: $M is a model file: it holds no world values. Put the model in a world (phys-sdf world $M > world.sdf) and use that" ]
	run -1 phys-preset import "$WORLDS/presets.sdf" --in-place "$M"
	[[ "$output" == *"is a model file: it holds no physics profiles."* ]]
	phys-inertia fix --all --density 600 --in-place "$M"
	[ "$(phys-param get "$M" 'cart::body/inertial.mass' | jq .value)" = 75 ]
}

@test "model:// meshes of a model directory are found in the directories above the file" {
	cd "$TMP"
	[ "$(phys-inertia check models/cart/model.sdf | jq -c .geometry_box)" = '{"x":1,"y":0.5,"z":0.25}' ]
	rm -r models/cart/meshes
	# the inertia still checked, the link's geometry said to be unread
	# (exit 1: the model does not load as it is)
	run -1 --separate-stderr phys-inertia check models/cart/model.sdf
	[ "$stderr" = "phys-inertia: models/cart/model.sdf:18: cannot find file 'model://cart/meshes/body.stl' (searched GAZEBO_MODEL_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and the directories above the file); link 'cart::body' checked without its geometry" ]
	[ "$(jq -r 'select(.link == "cart::body") | [.valid, .geometry_box, .unread] | @tsv' <<<"$output")" = \
	    "$(printf 'true\t\tmodels/cart/model.sdf:18: cannot find file %s (searched GAZEBO_MODEL_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and the directories above the file)' "'model://cart/meshes/body.stl'")" ]
}

@test "a model file in a world: included, or through phys-sdf world" {
	printf '%s\n' '<?xml version="1.0"?>' '<sdf version="1.7"><world name="w">' \
	    '<include><uri>model://cart</uri><name>c2</name><pose>5 0 0 0 0 0</pose></include>' \
	    '</world></sdf>' > "$TMP/w.sdf"
	GAZEBO_MODEL_PATH=$TMP/models phys-step -n 0 -i 'c2::body/pose' "$TMP/w.sdf" |
	    jq -c '.items["c2::body/pose"] | [.x, .z]' | grep -qx '\[5,1\]'
	phys-sdf world --ground "$M" > "$TMP/g.sdf"
	phys-step -t 2 -r 1 -i 'cart::body/pose' "$TMP/g.sdf" 2> /dev/null | tail -1 |
	    jq '.items["cart::body/pose"].z' > "$TMP/z"
	# at rest on the ground, the mesh's half height above it
	near "$(cat "$TMP/z")" 0.125 0.002
}

@test "Gazebo's model database: each model loads as a model file" {
	need_reference
	for m in cube_20k euro_pallet ground_plane plastic_cup; do
		phys-inertia check "$REF/gazebo-models/$m/model.sdf" > "$TMP/o"
		[ -s "$TMP/o" ]
	done
	run -1 phys-inertia check "$REF/gazebo-models/sun/model.sdf"
	[[ "$output" == *"model.sdf:3: <light>, and no <world> or <model>: nothing to simulate" ]]
}

@test "a relative file:// URI (AWS's worlds say file://models/NAME/meshes/...) is found in the current directory after the file's own, as gz-common finds it: the mesh cube rests on the ground by its half size (phys refused it)" {
	mkdir -p "$TMP/pkg/models/crate/meshes" "$TMP/pkg/worlds"
	cube_obj 1 > "$TMP/pkg/models/crate/meshes/cube.obj"
	cat > "$TMP/pkg/worlds/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7"><world name="w"><gravity>0 0 -9.8</gravity>
<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="crate"><pose>0 0 0.3 0 0 0</pose><link name="l">
<inertial><mass>1</mass><inertia><ixx>0.00167</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial>
<collision name="c"><geometry><mesh><uri>file://models/crate/meshes/cube.obj</uri></mesh></geometry></collision>
</link></model></world></sdf>
SDF
	# from the package's root, where its launch runs it
	cd "$TMP/pkg"
	run -0 --separate-stderr phys-step -q -t 1 -r 1 -i 'crate::l/pose' worlds/w.sdf
	near "$(tail -1 <<< "$output" | jq '.items["crate::l/pose"].z')" 0.05 2e-3
	# from elsewhere, the places searched are said
	cd "$TMP"
	run -1 phys-step -n 0 pkg/worlds/w.sdf
	assert_output "phys-step: pkg/worlds/w.sdf:6: cannot find file 'file://models/crate/meshes/cube.obj' (searched next to the file, the current directory, then GAZEBO_MODEL_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and GAZEBO_RESOURCE_PATH)"
}
