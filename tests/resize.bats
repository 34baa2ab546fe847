#!/usr/bin/env bats
# Shape sizes as parameters: in files, phys-param lists, gets and sets them,
# and the link's inertial follows a resize in the same write; in a run,
# under every engine, the engine's inertia and collision follow.

load helper

# Link "two" has two 1 m cubes of 1 kg, at x = -1 and x = +1 about its
# centre of mass; link "can" a cylinder (r 0.1, l 0.5) of 2 kg; both have
# link "cube" a 1 m cube of 1 kg; all have their own inertia, uniform
# solids.
shapes_world() {
	cat > "$TMP/w.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <model name="m">
      <link name="two">
        <inertial>
          <mass>2</mass>
          <inertia><ixx>0.3333333333333333</ixx><iyy>2.3333333333333335</iyy><izz>2.3333333333333335</izz></inertia>
        </inertial>
        <collision name="left">
          <pose>-1 0 0 0 0 0</pose>
          <geometry><box><size>1 1 1</size></box></geometry>
        </collision>
        <collision name="right">
          <pose>1 0 0 0 0 0</pose>
          <geometry><box><size>1 1 1</size></box></geometry>
        </collision>
      </link>
      <link name="can">
        <pose>0 3 0 0 0 0</pose>
        <inertial>
          <mass>2</mass>
          <inertia><ixx>0.04666666666666667</ixx><iyy>0.04666666666666667</iyy><izz>0.01</izz></inertia>
        </inertial>
        <collision name="c">
          <geometry><cylinder><radius>0.1</radius><length>0.5</length></cylinder></geometry>
        </collision>
      </link>
      <link name="cube">
        <pose>0 -3 0 0 0 0</pose>
        <inertial>
          <mass>1</mass>
          <inertia><ixx>0.16666666666666666</ixx><iyy>0.16666666666666666</iyy><izz>0.16666666666666666</izz></inertia>
        </inertial>
        <collision name="c">
          <geometry><box><size>1 1 1</size></box></geometry>
        </collision>
      </link>
    </model>
  </world>
</sdf>
SDF
}

getv() {	# world, name: the value as jq -c prints it
	phys-param get "$1" "$2" | jq -c .value
}

@test "a collision lists the size parameters of its own shape only" {
	shapes_world
	[ "$(phys-param list "$TMP/w.sdf" 'm::*/geometry.*' | jq -r .name)" = "m::two::left/geometry.box.size
m::two::right/geometry.box.size
m::can::c/geometry.cylinder.radius
m::can::c/geometry.cylinder.length
m::cube::c/geometry.box.size" ]
	[ "$(getv "$TMP/w.sdf" m::can::c/geometry.cylinder.length)" = 0.5 ]
	run phys-param set "$TMP/w.sdf" 'm::can::c/geometry.box.size=1 1 1'
	[ "$status" -eq 1 ]
	[ "$output" = "phys-param: m::can::c: no geometry.box.size: the collision is a cylinder" ]
	for bad in 0 -1 nan; do
		run phys-param set "$TMP/w.sdf" "m::can::c/geometry.cylinder.radius=$bad"
		[ "$status" -eq 1 ]
	done
	run phys-param set "$TMP/w.sdf" 'm::two::left/geometry.box.size=1 0 1'
	[ "$status" -eq 1 ]
	[[ "$output" == *"geometry.box.size: 0 must be above 0"* ]]
}

@test "set --in-place resizes a cylinder and writes its inertial in the same file" {
	shapes_world
	cp "$TMP/w.sdf" "$TMP/before.sdf"
	phys-param set --in-place "$TMP/w.sdf" 'm::can::c/geometry.cylinder.radius=0.2'
	# r doubled at 2 / (pi 0.01 0.5) kg/m^3: 4 times the mass;
	# izz = m r^2 / 2, ixx = m (3 r^2 + l^2) / 12
	rel "$(getv "$TMP/w.sdf" m::can/inertial.mass)" 8 1e-12
	rel "$(getv "$TMP/w.sdf" m::can/inertial.inertia.izz)" 0.16 1e-12
	rel "$(getv "$TMP/w.sdf" m::can/inertial.inertia.ixx)" "$(awk 'BEGIN { printf "%.17g", 8 * (3 * 0.04 + 0.25) / 12 }')" 1e-12
	[ "$(getv "$TMP/w.sdf" m::can::c/geometry.cylinder.radius)" = 0.2 ]
	# nothing else changed: the radius line and the three moments' lines
	diff "$TMP/before.sdf" "$TMP/w.sdf" > "$TMP/d" || true
	[ "$(grep -c '^>' "$TMP/d")" -eq 3 ]
	grep -q '^>           <mass>8</mass>$' "$TMP/d"
	grep -q '<radius>0.2</radius>' "$TMP/d"
}

@test "a doubled cube weighs 8 times as much, and its box of equivalent inertia is the doubled cube" {
	shapes_world
	phys-param set "$TMP/w.sdf" 'm::cube::c/geometry.box.size=2 2 2' > "$TMP/o.sdf"
	[ "$(getv "$TMP/o.sdf" m::cube/inertial.mass)" = 8 ]
	rel "$(getv "$TMP/o.sdf" m::cube/inertial.inertia.iyy)" "$(awk 'BEGIN { printf "%.17g", 32 / 6 }')" 1e-12
	phys-inertia check "$TMP/o.sdf" | jq -r 'select(.link == "m::cube") | .box | .x, .y, .z' > "$TMP/box"
	for side in $(cat "$TMP/box"); do rel "$side" 2 1e-12; done
	[ "$(wc -l < "$TMP/box")" -eq 3 ]
}

@test "resizing one of two shapes moves the centre of mass and the tensor by the parallel axes" {
	shapes_world
	phys-param set "$TMP/w.sdf" 'm::two::right/geometry.box.size=2 2 2' > "$TMP/o.sdf"
	# right weighs 8 kg now (1 kg/m^3); the centre of mass is at
	# x = (-1 + 8) / 9; izz = sum of m (a^2 + a^2) / 12 + m dx^2
	awk 'BEGIN { c = 7 / 9
		printf "%.17g %.17g %.17g\n", 9, c,
		    1 / 6 + (-1 - c) ^ 2 + 8 * 8 / 12 + 8 * (1 - c) ^ 2 }' > "$TMP/expect"
	read -r m c izz < "$TMP/expect"
	rel "$(getv "$TMP/o.sdf" m::two/inertial.mass)" "$m" 1e-12
	rel "$(getv "$TMP/o.sdf" m::two/inertial.pose | jq .x)" "$c" 1e-12
	rel "$(getv "$TMP/o.sdf" m::two/inertial.inertia.izz)" "$izz" 1e-12
	rel "$(getv "$TMP/o.sdf" m::two/inertial.inertia.ixx)" "$(awk 'BEGIN { printf "%.17g", 1 / 6 + 8 * 8 / 12 }')" 1e-12
}

@test "inertia.follow in set governs the assignments after it and is not written" {
	shapes_world
	phys-param set "$TMP/w.sdf" 'm::can/inertia.follow=mass' 'm::can::c/geometry.cylinder.radius=0.2' > "$TMP/o.sdf"
	! grep -q follow "$TMP/o.sdf" || false
	[ "$(getv "$TMP/o.sdf" m::can/inertial.mass)" = 2 ]
	rel "$(getv "$TMP/o.sdf" m::can/inertial.inertia.izz)" 0.04 1e-12
	phys-param set "$TMP/w.sdf" 'm::can/inertia.follow=none' 'm::can::c/geometry.cylinder.length=1' > "$TMP/o.sdf"
	[ "$(getv "$TMP/o.sdf" m::can/inertial.mass)" = 2 ]
	[ "$(getv "$TMP/o.sdf" m::can/inertial.inertia.ixx)" = 0.04666666666666667 ]
	[ "$(getv "$TMP/o.sdf" m::can::c/geometry.cylinder.length)" = 1 ]
}

# ---- at run time, under both engines: the inertia and the collision
# follow a resize (worlds/resting_box.sdf: a 0.4 m cube of 1 kg on a plane)

# held CONTROL [OPTION...] PROFILE: mass, ixx, iyy and izz the engine holds
# after 20 steps with control file CONTROL.
held() {
	local profile=${*: -1}
	phys-step -p "$profile" -n 20 -e 20 -c "$1" "${@:2:$#-2}" \
	    -i 'box::link/mass' -i 'box::link/inertia' "$WORLDS/resting_box.sdf" | tail -1 |
	    jq -r '.items | [.["box::link/mass"], .["box::link/inertia"].ixx, .["box::link/inertia"].iyy, .["box::link/inertia"].izz] | @tsv'
}

# cube_held MASS MOMENT CONTROL [OPTION...] PROFILE: held gives that mass
# and that moment about each axis.
cube_held() {
	local mass=$1 moment=$2
	shift 2
	held "$@" | { read -r m ixx iyy izz
		rel "$m" "$mass" 1e-12 && rel "$ixx" "$moment" 1e-12 &&
		    rel "$iyy" "$moment" 1e-12 && rel "$izz" "$moment" 1e-12; }
}

DOUBLED='{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}'

doubled() {	# PROFILE: density kept, 8 times the mass and 32 times the inertia
	echo "$DOUBLED" > "$TMP/c"
	cube_held 8 0.8533333333333334 "$TMP/c" "$1"
}
@test "doubling a box's size at run time gives 8 times its mass and 32 times its inertia (density kept), under each engine" {
	each_engine doubled
}

doubled_same_mass() {
	printf '%s\n' '{"t":0.002,"name":"box::link/inertia.follow","value":"mass"}' "$DOUBLED" > "$TMP/c"
	cube_held 1 0.10666666666666667 "$TMP/c" "$1"
}
@test "with inertia.follow=mass a doubled box keeps its mass and gets 4 times its inertia, under each engine" {
	each_engine doubled_same_mass
}

not_following() {
	echo "$DOUBLED" > "$TMP/c"
	cube_held 1 0.026666666666666668 "$TMP/c" -s 'box::link/inertia.follow=none' "$1"
	# three times as tall at 15.625 kg/m^3: m = 3, ixx = m (y^2 + z^2) / 12
	echo '{"t":0.005,"name":"box::link::collision/geometry.box.size","value":{"x":0.4,"y":0.4,"z":1.2}}' > "$TMP/c"
	held "$TMP/c" "$1" | { read -r m ixx iyy izz
		rel "$m" 3 1e-12 && rel "$ixx" 0.4 1e-12 && rel "$iyy" 0.4 1e-12 &&
		    rel "$izz" 0.08 1e-12; }
}
@test "with inertia.follow=none a resize leaves the inertial; a non-uniform resize follows per axis, under each engine" {
	each_engine not_following
}

new_mass() {
	echo '{"t":0.005,"name":"box::link/inertial.mass","value":3}' > "$TMP/c"
	held "$TMP/c" "$1" | { read -r m ixx iyy izz; [ "$m" = 3 ] && rel "$ixx" 0.08 1e-12; }
	held "$TMP/c" -s 'box::link/inertia.follow=none' "$1" | { read -r m ixx iyy izz; [ "$m" = 3 ] && near "$ixx" 0.026666666666666668 1e-17; }
}
@test "a new mass scales the tensor with it, unless inertia.follow=none, under each engine" {
	each_engine new_mass
}

# resting PROFILE HALF: the height of the box's centre at rest, half its
# side HALF less the depth the engine leaves uncorrected (Bullet's
# contact_surface_layer, 1 mm; none under ODE; MuJoCo's soft contact
# sinks about 0.1 mm, to within resting_tol); under Simbody, its compliant
# contact's: the weight of the box (15.625 kg/m^3) over the stiffness of
# its face on the plane, two layers of 1e8 Pa and 1 m in series.
resting() {
	case $1 in
	bullet) awk -v h="$2" 'BEGIN { print h - 0.001 }' ;;
	mujoco) awk -v h="$2" 'BEGIN { print h - 0.0001 }' ;;
	simbody) awk -v h="$2" 'BEGIN { a = 2 * h; printf "%.12g\n", h - 15.625 * a^3 * 9.81 / (5e7 * a^2) }' ;;
	*) echo "$2" ;;
	esac
}
resting_tol() {
	case $1 in mujoco) echo 2e-5;; dart) echo 1e-5;; *) echo 1e-6;; esac
}

# rests PROFILE: resized at t = 0.5 from 0.4 to 0.8 m, the box's centre
# rises from 0.2 to 0.4.
rests() {
	echo "${DOUBLED/0.005/0.5}" > "$TMP/c"
	phys-step -p "$1" -t 2.5 -r 2 -c "$TMP/c" -i 'box::link/pose' "$WORLDS/resting_box.sdf" |
	    jq -r '[.t, .items["box::link/pose"].z] | @tsv' > "$TMP/z"
	near "$(awk '$1 == 0.5 { print $2 }' "$TMP/z")" "$(resting "$1" 0.2)" "$(resting_tol "$1")"
	near "$(awk '$1 == 2.5 { print $2 }' "$TMP/z")" "$(risen "$1" 0.2 "$(resting "$1" 0.4)" 2)" "$(resting_tol "$1")"
}
@test "a resized box's collision changes with it: resting on a plane, its centre rises to half the new size, under each engine" {
	each_engine rests
	# the sphere of the other shapes: -s sets a size before the run
	run phys-step -n 1 -s 'box::link::collision/geometry.sphere.radius=1' "$WORLDS/resting_box.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"box::link::collision: no geometry.sphere.radius: the collision is a box"* ]]
}

@test "a resized box keeps its size across an engine switch, either way" {
	# resized under ODE, then run by Bullet: at rest 1 mm (its surface
	# layer) below half the new size
	printf '%s\n' "${DOUBLED/0.005/0.5}" '{"t":1.5,"preset":"bullet"}' > "$TMP/c"
	phys-step -t 3 -r 1 -c "$TMP/c" -i 'box::link/pose' -i 'box::link/mass' "$WORLDS/resting_box.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["box::link/pose"].z' "$TMP/o")" "$(resting bullet 0.4)" 1e-6
	[ "$(jq '.items["box::link/mass"]' "$TMP/o")" = 8 ]
	# resized under Bullet, then run by ODE: at half the new size
	printf '%s\n' '{"t":0.5,"preset":"bullet"}' "${DOUBLED/0.005/1}" '{"t":2,"preset":"ode"}' > "$TMP/c"
	phys-step -t 3 -r 1 -c "$TMP/c" -i 'box::link/pose' -i 'box::link/mass' "$WORLDS/resting_box.sdf" | tail -1 > "$TMP/o"
	near "$(jq '.items["box::link/pose"].z' "$TMP/o")" "$(resting ode 0.4)" 1e-6
	[ "$(jq '.items["box::link/mass"]' "$TMP/o")" = 8 ]
}

sized_before() {	# PROFILE: -s sizes the box before the first step
	phys-step -p "$1" -t 1 -r 1 -s 'box::link::collision/geometry.box.size=0.8 0.8 0.8' \
	    -i 'box::link/pose' -i 'box::link/mass' "$WORLDS/resting_box.sdf" | tail -1 > "$TMP/o"
	[ "$(jq '.items["box::link/mass"]' "$TMP/o")" = 8 ]
	near "$(jq '.items["box::link/pose"].z' "$TMP/o")" "$(risen "$1" 0.2 "$(resting "$1" 0.4)" 1)" "$(resting_tol "$1")"
}
@test "a size given with -s is the shape's from the start, under each engine" {
	each_engine sized_before
}

# A 0.4 m cube of 1 kg, 0.5 m below a hinge on x: I = m a^2 / 6 + m d^2.
pendulum_world() {
	cat > "$TMP/p.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <gravity>0 0 -9.81</gravity>
    <physics name="ode" type="ode" default="true"><max_step_size>0.001</max_step_size>
      <ode><solver><type>world</type></solver></ode></physics>
    <physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
    <physics name="mujoco" type="mujoco"><max_step_size>0.001</max_step_size></physics>
    <physics name="simbody" type="simbody"><max_step_size>0.001</max_step_size></physics>
    <physics name="dart" type="dart"><max_step_size>0.001</max_step_size></physics>
    <model name="pendulum">
      <link name="bob">
        <pose>0 0.024989584635339165 1.5006248698025169 0.05 0 0</pose>
        <inertial>
          <mass>1</mass>
          <inertia><ixx>0.026666666666666668</ixx><iyy>0.026666666666666668</iyy><izz>0.026666666666666668</izz></inertia>
        </inertial>
        <collision name="collision">
          <geometry><box><size>0.4 0.4 0.4</size></box></geometry>
        </collision>
      </link>
      <joint name="pivot" type="revolute">
        <parent>world</parent>
        <child>bob</child>
        <pose>0 0 0.5 0 0 0</pose>
        <axis><xyz>1 0 0</xyz></axis>
      </joint>
    </model>
  </world>
</sdf>
SDF
}

swings() {
	echo '{"t":4.5,"name":"pendulum::bob::collision/geometry.box.size","value":{"x":0.8,"y":0.8,"z":0.8}}' > "$TMP/c"
	phys-step -p "$1" -t 12 -r 500 -c "$TMP/c" -i 'pendulum::bob/pose' "$TMP/p.sdf" |
	    jq -r '[.t, .items["pendulum::bob/pose"].roll] | @tsv' > "$TMP/roll"
	pi=3.141592653589793
	rel "$(freq "$TMP/roll" 0 4.5)" "$(awk -v pi=$pi 'BEGIN { print sqrt(1 * 9.81 * 0.5 / (0.16 / 6 + 0.25)) / (2 * pi) }')" 0.01
	rel "$(freq "$TMP/roll" 5 12)" "$(awk -v pi=$pi 'BEGIN { print sqrt(8 * 9.81 * 0.5 / (8 * 0.64 / 6 + 8 * 0.25)) / (2 * pi) }')" 0.01
}
@test "a pendulum's frequency after its bob is doubled at run time is sqrt(m g d / I) / 2 pi, under each engine" {
	pendulum_world
	each_engine swings
}
