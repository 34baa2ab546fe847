#!/usr/bin/env bats
# Shape sizes as parameters in files: phys-param lists, gets and sets them,
# and the link's inertial follows a resize in the same write.

load helper

# Link "two" has two 1 m cubes of 1 kg, at x = -1 and x = +1 about its
# centre of mass; link "can" a cylinder (r 0.1, l 0.5) of 2 kg; both have
# link "cube" a 1 m cube of 1 kg; all have their own inertia, uniform
# solids.
world() {
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
	world
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

@test "set -i resizes a cylinder and writes its inertial in the same file" {
	world
	cp "$TMP/w.sdf" "$TMP/before.sdf"
	phys-param set -i "$TMP/w.sdf" 'm::can::c/geometry.cylinder.radius=0.2'
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
	world
	phys-param set "$TMP/w.sdf" 'm::cube::c/geometry.box.size=2 2 2' > "$TMP/o.sdf"
	[ "$(getv "$TMP/o.sdf" m::cube/inertial.mass)" = 8 ]
	rel "$(getv "$TMP/o.sdf" m::cube/inertial.inertia.iyy)" "$(awk 'BEGIN { printf "%.17g", 32 / 6 }')" 1e-12
	phys-inertia check "$TMP/o.sdf" | jq -r 'select(.link == "m::cube") | .box | .x, .y, .z' > "$TMP/box"
	for side in $(cat "$TMP/box"); do rel "$side" 2 1e-12; done
	[ "$(wc -l < "$TMP/box")" -eq 3 ]
}

@test "resizing one of two shapes moves the centre of mass and the tensor by the parallel axes" {
	world
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
	world
	phys-param set "$TMP/w.sdf" 'm::can/inertia.follow=mass' 'm::can::c/geometry.cylinder.radius=0.2' > "$TMP/o.sdf"
	! grep -q follow "$TMP/o.sdf"
	[ "$(getv "$TMP/o.sdf" m::can/inertial.mass)" = 2 ]
	rel "$(getv "$TMP/o.sdf" m::can/inertial.inertia.izz)" 0.04 1e-12
	phys-param set "$TMP/w.sdf" 'm::can/inertia.follow=none' 'm::can::c/geometry.cylinder.length=1' > "$TMP/o.sdf"
	[ "$(getv "$TMP/o.sdf" m::can/inertial.mass)" = 2 ]
	[ "$(getv "$TMP/o.sdf" m::can/inertial.inertia.ixx)" = 0.04666666666666667 ]
	[ "$(getv "$TMP/o.sdf" m::can::c/geometry.cylinder.length)" = 1 ]
}
