#!/usr/bin/env bats
# Rotations keep their rotation through roll, pitch and yaw, at gimbal lock
# (pitch +-pi/2) and next to it: in the library's conversions, in the poses
# phys-step prints, in what phys-sdf print writes back, in the inertia of
# posed collisions and in inertial poses given as quaternions or degrees.

load helper
bats_require_minimum_version 1.5.0

# rpy_distance "R P Y" "R P Y": the largest difference between the two
# rotation matrices Rz(yaw) Ry(pitch) Rx(roll).
rpy_distance() {
	awk -v a="$1" -v b="$2" "$RPY_MATRIX_AWK"'
	BEGIN { rpy_matrix(a, p); rpy_matrix(b, q); d = 0
		for (i = 0; i < 9; i++) { e = p[i] - q[i]; if (e < 0) e = -e; if (e > d) d = e }
		printf "%.3g\n", d }'
}

# small: succeed when the number is at most 1e-12.
small() {
	awk -v d="$1" 'BEGIN { if (d <= 1e-12) exit 0
		printf "rotations differ by %g\n", d > "/dev/stderr"; exit 1 }'
}

# rpy ITEM FILE: "roll pitch yaw" of a pose item on the first state line.
rpy() {
	jq -r --arg i "$1" '.items[$i] | "\(.roll) \(.pitch) \(.yaw)"' "$2" | head -1
}

@test "rpy -> rotation -> rpy -> rotation keeps 10,000 random rotations, the singular ones and their neighbours to 1e-12" {
	san=
	! sanitized || san="-fsanitize=address,undefined"
	cc -O2 -std=c11 -D_GNU_SOURCE $san -I"$BATS_TEST_DIRNAME/../lib/base" \
	    -o "$TMP/rotcheck" "$BATS_TEST_DIRNAME/data/rotcheck.c" \
	    "$PHYS_BIN/libphys.a" -lm
	run "$TMP/rotcheck"
	assert_success
	# 10,000 each of rpy and quaternions, 28,000 at and near pitch +-pi/2
	[ "$output" -ge 48000 ]
}

@test "a link posed at pitch exactly pi/2 is printed, and written back by phys-sdf print, as the same rotation" {
	cat > "$TMP/w.sdf" <<'EOF'
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gravity>0 0 0</gravity>
    <model name="m">
      <frame name="f"><pose>0 0 1 0.3 1.5707963267948966 0</pose></frame>
      <frame name="g"><pose rotation_format="quat_xyzw">0 0 1 0.10566871683993563 0.6991667342497077 -0.10566871683993562 0.6991667342497078</pose></frame>
      <link name="a">
        <pose>0 0 1 0.3 1.5707963267948966 0</pose>
        <inertial><mass>1</mass></inertial>
      </link>
      <link name="b">
        <pose relative_to="f">0 0 0 0 0 0</pose>
        <inertial><mass>1</mass></inertial>
      </link>
      <link name="c">
        <pose relative_to="g">0 0 0 0 0 0</pose>
        <inertial><mass>1</mass></inertial>
      </link>
    </model>
  </world>
</sdf>
EOF
	want="0.3 1.5707963267948966 0"
	phys-step -n 0 -i 'm::*/pose' "$TMP/w.sdf" > "$TMP/o"
	for l in a b c; do
		echo "link $l: $(rpy m::$l/pose "$TMP/o")"
		small "$(rpy_distance "$want" "$(rpy m::$l/pose "$TMP/o")")"
	done
	# the old reading: roll pi/2, yaw 0, a different rotation
	! small "$(rpy_distance "$want" "1.5707963267948966 1.5707963267948966 0")" || false
	# phys-sdf print writes b and c (and the frames) relative to the
	# model; loaded back, every link has the rotation it had
	phys-sdf print "$TMP/w.sdf" > "$TMP/p.sdf"
	[ -z "$(grep relative_to "$TMP/p.sdf" | grep -v 'relative_to="__model__"')" ]
	phys-step -n 0 -i 'm::*/pose' "$TMP/p.sdf" > "$TMP/o2"
	for l in a b c; do
		small "$(rpy_distance "$want" "$(rpy m::$l/pose "$TMP/o2")")"
	done
}

@test "<inertial auto> of a box collision posed at (0.3, pi/2, 0) is the closed form R diag(I) R^T" {
	cat > "$TMP/w.sdf" <<'EOF'
<?xml version="1.0"?>
<sdf version="1.11">
  <world name="w">
    <model name="m">
      <link name="l">
        <inertial auto="true"/>
        <collision name="c">
          <pose>0 0 0 0.3 1.5707963267948966 0</pose>
          <density>1000</density>
          <geometry><box><size>0.1 0.2 0.3</size></box></geometry>
        </collision>
      </link>
    </model>
  </world>
</sdf>
EOF
	# m = 6 kg; about the box's axes 0.065, 0.05, 0.025. R = Ry(pi/2)
	# Rx(0.3) has rows (0, s, c), (0, c, -s), (-1, 0, 0).
	phys-step -n 0 -i 'm::l/inertia' "$TMP/w.sdf" | jq -r '.items["m::l/inertia"] | "\(.ixx) \(.iyy) \(.izz) \(.ixy) \(.ixz) \(.iyz)"' > "$TMP/i"
	read -r ixx iyy izz ixy ixz iyz < "$TMP/i"
	s=$(awk 'BEGIN { printf "%.17g", sin(0.3) }')
	c=$(awk 'BEGIN { printf "%.17g", cos(0.3) }')
	near "$ixx" "$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.17g", 0.05 * s * s + 0.025 * c * c }')" 1e-12
	near "$iyy" "$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.17g", 0.05 * c * c + 0.025 * s * s }')" 1e-12
	near "$izz" 0.065 1e-12
	near "$ixy" "$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.17g", 0.025 * s * c }')" 1e-12
	near "$ixz" 0 1e-12
	near "$iyz" 0 1e-12
}

@test "an inertial pose given as a quaternion or in degrees reaches the engine as that rotation" {
	# diag(1, 2, 3) turned by Ry(pi/2) Rx(0.3), spun at 1 rad/s about
	# world x: KE = (2 sin^2 0.3 + 3 cos^2 0.3) / 2. Free of torque, the
	# engine keeps that energy only if it runs the same inertia.
	for pose in '<pose rotation_format="quat_xyzw">0 0 0 0.10566871683993563 0.6991667342497077 -0.10566871683993562 0.6991667342497078</pose>' \
	    '<pose degrees="true">0 0 0 17.188733853924695 90 0</pose>'; do
		for engine in ode bullet; do
			cat > "$TMP/w.sdf" <<EOF
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <physics type="$engine"><max_step_size>0.0005</max_step_size></physics>
    <gravity>0 0 0</gravity>
    <model name="m">
      <link name="l">
        <inertial><mass>1</mass>$pose
          <inertia><ixx>1</ixx><iyy>2</iyy><izz>3</izz></inertia>
        </inertial>
      </link>
      <plugin filename="libInitialVelocityPlugin.so" name="v"><angular>1 0 0</angular></plugin>
    </model>
  </world>
</sdf>
EOF
			echo "$engine: $pose"
			phys-step -t 1 -e 2000 -i 'm/kinetic_energy' "$TMP/w.sdf" |
			    jq -r '.items["m/kinetic_energy"]' > "$TMP/ke"
			ke=$(awk 'BEGIN { s = sin(0.3); c = cos(0.3); printf "%.17g", (2 * s * s + 3 * c * c) / 2 }')
			near "$(head -1 "$TMP/ke")" "$ke" 1e-12
			rel "$(tail -1 "$TMP/ke")" "$ke" 1e-3
		done
	done
}
