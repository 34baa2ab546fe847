# phys-inertia: shape formulas, principal axes, equivalent box, scaling,
# input errors and the command line.
load helper
bats_require_minimum_version 1.5.0

MAN="$BATS_TEST_DIRNAME/../man/phys-inertia.1"

# jq definitions: 3x3 matrices as arrays of rows, built independently of
# the program (SDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll)).
JQLIB='
def mmul($a; $b): [range(3) as $i | [range(3) as $j |
	[range(3) as $k | $a[$i][$k] * $b[$k][$j]] | add]];
def tp($a): [range(3) as $i | [range(3) as $j | $a[$j][$i]]];
def diag($v): [range(3) as $i | [range(3) as $j |
	if $i == $j then $v[$i] else 0 end]];
def rot($r; $p; $y): ($r|cos) as $cr | ($r|sin) as $sr | ($p|cos) as $cp |
	($p|sin) as $sp | ($y|cos) as $cy | ($y|sin) as $sy |
	[[$cy*$cp, $cy*$sp*$sr - $sy*$cr, $cy*$sp*$cr + $sy*$sr],
	 [$sy*$cp, $sy*$sp*$sr + $cy*$cr, $sy*$sp*$cr - $cy*$sr],
	 [-$sp, $cp*$sr, $cp*$cr]];
def rpymat($o): rot($o.roll; $o.pitch; $o.yaw);
def qmat($q): $q.w as $w | $q.x as $x | $q.y as $y | $q.z as $z |
	[[1 - 2*($y*$y + $z*$z), 2*($x*$y - $w*$z), 2*($x*$z + $w*$y)],
	 [2*($x*$y + $w*$z), 1 - 2*($x*$x + $z*$z), 2*($y*$z - $w*$x)],
	 [2*($x*$z - $w*$y), 2*($y*$z + $w*$x), 1 - 2*($x*$x + $y*$y)]];
def tensor($l): [[$l.ixx, $l.ixy, $l.ixz], [$l.ixy, $l.iyy, $l.iyz],
	[$l.ixz, $l.iyz, $l.izz]];
def line($m; $t): {mass: $m, ixx: $t[0][0], iyy: $t[1][1], izz: $t[2][2],
	ixy: $t[0][1], ixz: $t[0][2], iyz: $t[1][2]};
def sandwich($r; $a): mmul(mmul($r; $a); tp($r));
def maxabs($a): [$a[][] | fabs] | max;
def relerr($a; $b): maxabs([range(3) as $i | [range(3) as $j |
	$a[$i][$j] - $b[$i][$j]]]) / maxabs($a);
def recon($o): sandwich(qmat($o.quat); diag($o.moments));
def recon_rpy($o): sandwich(rpymat($o.rpy); diag($o.moments));
def qnorm($q): ($q.w*$q.w + $q.x*$q.x + $q.y*$q.y + $q.z*$q.z) | sqrt;
'

# rotated ROLL PITCH YAW I1 I2 I3: the line of diag(I1, I2, I3) turned by rpy.
rotated() {
	jq -nc --argjson r "$1" --argjson p "$2" --argjson y "$3" \
	    --argjson a "$4" --argjson b "$5" --argjson c "$6" \
	    "$JQLIB"'line(1; sandwich(rot($r; $p; $y); diag([$a, $b, $c])))'
}

# jqcalc IN OUT EXPR: EXPR over the lines $i and $o.
jqcalc() {
	jq -n --argjson i "$1" --argjson o "$2" "$JQLIB$3"
}

# check_principal LINE: the output rebuilds the line to 1e-12 of its largest
# element, through the quaternion and through the angles, with the moments
# ascending and a unit quaternion. Invalid inertias (status 1) are
# decomposed too.
check_principal() {
	local out
	out=$(printf '%s\n' "$1" | phys-inertia principal || [ $? -eq 1 ])
	near "$(jqcalc "$1" "$out" 'relerr(tensor($i); recon($o))')" 0 1e-12
	near "$(jqcalc "$1" "$out" 'relerr(tensor($i); recon_rpy($o))')" 0 1e-12
	near "$(jqcalc "$1" "$out" 'qnorm($o.quat)')" 1 1e-15
	[ "$(jqcalc "$1" "$out" '$o.moments | . == sort')" = true ]
}

field() {
	jq -r "$1" <<<"$2"
}

# --- shapes -----------------------------------------------------------

@test "box: m (y^2 + z^2) / 12 and its permutations, in the fixed key order" {
	run phys-inertia box 1 2 3 --mass 12
	assert_success
	assert_output '{"mass":12,"ixx":13,"iyy":10,"izz":5,"ixy":0,"ixz":0,"iyz":0}'
	run phys-inertia box 0.1 0.2 0.3 --mass 2
	assert_success
	rel "$(field .ixx "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.04 + 0.09) / 12 }')" 1e-15
	rel "$(field .iyy "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.01 + 0.09) / 12 }')" 1e-15
	rel "$(field .izz "$output")" "$(awk 'BEGIN { printf "%.17g", 2 * (0.01 + 0.04) / 12 }')" 1e-15
}

@test "sphere: 2/5 m r^2" {
	run phys-inertia sphere 0.3 --mass 2
	assert_success
	rel "$(field .ixx "$output")" 0.072 1e-15
	rel "$(field .iyy "$output")" 0.072 1e-15
	rel "$(field .izz "$output")" 0.072 1e-15
	[ "$(field '[.ixy, .ixz, .iyz] | map(. == 0) | all' "$output")" = true ]
}

@test "hollow sphere: 2/3 m r^2" {
	run phys-inertia hollow-sphere 0.3 --mass 2
	assert_success
	rel "$(field .ixx "$output")" 0.12 1e-15
	rel "$(field .izz "$output")" 0.12 1e-15
}

@test "cylinder along z: m (3r^2 + l^2) / 12 and m r^2 / 2" {
	run phys-inertia cylinder 0.5 2 --mass 3
	assert_success
	rel "$(field .ixx "$output")" 1.1875 1e-15
	rel "$(field .iyy "$output")" 1.1875 1e-15
	rel "$(field .izz "$output")" 0.375 1e-15
}

@test "hollow cylinder: m (6r^2 + l^2) / 12 and m r^2" {
	run phys-inertia hollow-cylinder 1 3 --mass 2
	assert_success
	rel "$(field .ixx "$output")" 2.5 1e-15
	rel "$(field .izz "$output")" 2 1e-15
}

@test "capsule: cylinder plus two hemispheres, against hand-computed values" {
	# R = 1, L = 2, m = 1: volumes 2 pi and 4 pi / 3, so the cylinder has
	# 0.6 and the caps 0.4. ixx = 0.6 (3 + 4) / 12 + 0.4 (2/5 + 1 + 3/4)
	# = 0.35 + 0.86; izz = 0.6 / 2 + 0.4 * 2/5.
	run phys-inertia capsule 1 2 --mass 1
	assert_success
	rel "$(field .ixx "$output")" 1.21 1e-15
	rel "$(field .iyy "$output")" 1.21 1e-15
	rel "$(field .izz "$output")" 0.46 1e-15
	# R = 0.5, L = 1, m = 2: shares 1.2 and 0.8; ixx = 1.2 * 1.75 / 12 +
	# 0.8 (0.1 + 0.25 + 0.1875) = 0.605; izz = 1.2 / 8 + 0.8 * 0.1 = 0.23.
	run phys-inertia capsule 0.5 1 --mass 2
	assert_success
	rel "$(field .ixx "$output")" 0.605 1e-15
	rel "$(field .izz "$output")" 0.23 1e-15
}

@test "capsule of length 0 is a sphere" {
	run phys-inertia capsule 0.3 0 --mass 2
	assert_success
	rel "$(field .ixx "$output")" 0.072 1e-15
	rel "$(field .izz "$output")" 0.072 1e-15
}

@test "ellipsoid: m (b^2 + c^2) / 5 and its permutations" {
	run phys-inertia ellipsoid 1 2 3 --mass 5
	assert_success
	rel "$(field .ixx "$output")" 13 1e-15
	rel "$(field .iyy "$output")" 10 1e-15
	rel "$(field .izz "$output")" 5 1e-15
}

@test "density: mass is density times volume, or area for the shells" {
	run phys-inertia box 1 2 3 --density 10
	assert_success
	rel "$(field .mass "$output")" 60 1e-15
	rel "$(field .ixx "$output")" 65 1e-15
	run phys-inertia sphere 0.5 --density 1000
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", 4 * atan2(0, -1) * 0.125 / 3 * 1000 }')" 1e-14
	run phys-inertia cylinder 0.5 2 --density 3
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", atan2(0, -1) * 0.25 * 2 * 3 }')" 1e-14
	run phys-inertia capsule 1 2 --density 1
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", atan2(0, -1) * 10 / 3 }')" 1e-14
	run phys-inertia ellipsoid 1 2 3 --density 1
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", 8 * atan2(0, -1) }')" 1e-14
	run phys-inertia hollow-sphere 1 --density 2
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", 8 * atan2(0, -1) }')" 1e-14
	run phys-inertia hollow-cylinder 1 3 --density 1
	rel "$(field .mass "$output")" "$(awk 'BEGIN { printf "%.17g", 6 * atan2(0, -1) }')" 1e-14
}

@test "shapes refuse bad dimensions and mass options with exit 2" {
	run phys-inertia box 1 2 3
	assert_failure 2
	run phys-inertia box 1 2 3 --mass 1 --density 2
	assert_failure 2
	run phys-inertia box 1 2 --mass 1
	assert_failure 2
	run phys-inertia sphere 0 --mass 1
	assert_failure 2
	assert_output --partial 'phys-inertia: sphere: R must be positive'
	run phys-inertia cylinder 1 -- -1 --mass 1
	assert_failure 2
	run phys-inertia sphere 1 --mass -2
	assert_failure 2
	run phys-inertia sphere abc --mass 1
	assert_failure 2
	run phys-inertia sphere 1 --mass nan
	assert_failure 2
	run phys-inertia cylinder 1 0 --density 1
	assert_failure 2
	assert_output --partial 'no volume'
}

# --- principal --------------------------------------------------------

@test "principal: a box rotated by known angles has the box's moments" {
	in=$(phys-inertia box 1 2 3 --mass 12 |
	    jq -c "$JQLIB"'line(.mass; sandwich(rot(0.3; -0.7; 1.1); tensor(.)))')
	run phys-inertia principal <<<"$in"
	assert_success
	near "$(field '.moments[0]' "$output")" 5 1e-13
	near "$(field '.moments[1]' "$output")" 10 1e-13
	near "$(field '.moments[2]' "$output")" 13 1e-13
	[ "$(field .mass "$output")" = 12 ]
	# Each principal axis is the rotated box axis of that moment: z, y, x.
	near "$(jqcalc "$in" "$output" 'mmul(tp(rot(0.3; -0.7; 1.1)); qmat($o.quat)) |
	    [(.[2][0] | fabs), (.[1][1] | fabs), (.[0][2] | fabs)] | min')" 1 1e-13
	# Turning the tensor back by R^T gives the diagonal of moments.
	near "$(jqcalc "$in" "$output" 'sandwich(tp(qmat($o.quat)); tensor($i)) as $d |
	    [$d[0][1], $d[0][2], $d[1][2], $d[0][0] - 5, $d[1][1] - 10, $d[2][2] - 13] |
	    map(fabs) | max')" 0 1e-13
	check_principal "$in"
}

@test "principal: a diagonal tensor stays put when already ascending" {
	run phys-inertia principal <<<'{"mass":2,"ixx":1,"iyy":2,"izz":3,"ixy":0,"ixz":0,"iyz":0}'
	assert_success
	assert_output '{"mass":2,"valid":true,"moments":[1,2,3],"quat":{"w":1,"x":0,"y":0,"z":0},"rpy":{"roll":0,"pitch":0,"yaw":0}}'
	run phys-inertia principal <<<'{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_output --partial '"moments":[1,1,1],"quat":{"w":1,"x":0,"y":0,"z":0}'
}

@test "principal: repeated and nearly repeated moments rebuild to 1e-12" {
	check_principal '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":1e-14,"ixz":0,"iyz":0}'
	check_principal '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":1e-14,"ixz":-3e-15,"iyz":2e-16}'
	check_principal "$(rotated 0.4 1.2 -2.5 1 1.000000000001 2)"
	check_principal "$(rotated 0.4 1.2 -2.5 2 2 5)"
	check_principal "$(rotated -1 0.2 0.7 3 3 3)"
	check_principal "$(rotated 0 1.5707963267948966 0 1 2 3)"
	check_principal "$(rotated 2.9 -1.5707963 0.3 1 2 2.0000000001)"
}

@test "principal: nearly repeated moments are told apart" {
	run phys-inertia principal <<<"$(rotated 0.4 1.2 -2.5 1 1.000000000001 2)"
	assert_success
	near "$(field '.moments[1] - .moments[0]' "$output")" 1e-12 1e-14
	near "$(field '.moments[2]' "$output")" 2 1e-14
}

@test "principal: nearly diagonal tensors rebuild to 1e-12" {
	check_principal '{"mass":1,"ixx":3,"iyy":2,"izz":1,"ixy":1e-17,"ixz":0,"iyz":-1e-300}'
	check_principal '{"mass":1,"ixx":1,"iyy":2,"izz":3,"ixy":1e-9,"ixz":1e-10,"iyz":1e-11}'
	check_principal "$(rotated 1e-9 -2e-10 3e-11 0.1 0.25 0.3)"
}

@test "principal: tensors scaled by 1e-9 and 1e6 rebuild to 1e-12" {
	local s
	for s in 1e-9 1e6; do
		check_principal "$(rotated 0.4 1.2 -2.5 1 1.000000000001 2 | jq -c --argjson s $s \
		    '.ixx *= $s | .iyy *= $s | .izz *= $s | .ixy *= $s | .ixz *= $s | .iyz *= $s')"
		check_principal "$(rotated 0.3 -0.7 1.1 1e-9 2e-9 2.5e-9 | jq -c --argjson s $s \
		    '.ixx *= $s | .iyy *= $s | .izz *= $s | .ixy *= $s | .ixz *= $s | .iyz *= $s')"
		check_principal "$(rotated 2 0.1 -0.2 1e-9 1 1e6 | jq -c --argjson s $s \
		    '.ixx *= $s | .iyy *= $s | .izz *= $s | .ixy *= $s | .ixz *= $s | .iyz *= $s')"
	done
}

@test "principal: 500 random tensors with clustered moments rebuild to 1e-12" {
	awk 'BEGIN {
		srand(7)
		for (n = 0; n < 500; n++) {
			# A random rotation from a random quaternion.
			w = rand() - .5; x = rand() - .5; y = rand() - .5; z = rand() - .5
			q = sqrt(w*w + x*x + y*y + z*z); w /= q; x /= q; y /= q; z /= q
			R[0,0] = 1-2*(y*y+z*z); R[0,1] = 2*(x*y-w*z); R[0,2] = 2*(x*z+w*y)
			R[1,0] = 2*(x*y+w*z); R[1,1] = 1-2*(x*x+z*z); R[1,2] = 2*(y*z-w*x)
			R[2,0] = 2*(x*z-w*y); R[2,1] = 2*(y*z+w*x); R[2,2] = 1-2*(x*x+y*y)
			d[0] = rand(); d[1] = rand(); d[2] = rand()
			k = n % 5
			if (k == 1) d[1] = d[0] * (1 + 1e-12 * rand())
			if (k == 2) d[1] = d[2] = d[0]
			if (k == 3) d[0] = 1e-9
			if (k == 4) d[1] = d[0] + 1e-15
			s = 10 ^ (-9 + 15 * rand())
			for (i = 0; i < 3; i++)
				for (j = 0; j < 3; j++) {
					t = 0
					for (l = 0; l < 3; l++)
						t += R[i,l] * d[l] * R[j,l]
					T[i,j] = t * s
				}
			printf "{\"mass\":1,\"ixx\":%.17g,\"iyy\":%.17g,\"izz\":%.17g,", T[0,0], T[1,1], T[2,2]
			printf "\"ixy\":%.17g,\"ixz\":%.17g,\"iyz\":%.17g}\n", T[0,1], T[0,2], T[1,2]
		}
	}' >"$BATS_TEST_TMPDIR/in"
	# some break the triangle inequality: status 1, every line still out
	phys-inertia principal "$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/out" || [ $? -eq 1 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/out")" -eq 500 ]
	worst=$(jq -n --slurpfile i "$BATS_TEST_TMPDIR/in" --slurpfile o "$BATS_TEST_TMPDIR/out" \
	    "$JQLIB"'[range($i | length) as $k |
	    relerr(tensor($i[$k]); recon($o[$k])), relerr(tensor($i[$k]); recon_rpy($o[$k]))] | max')
	near "$worst" 0 1e-12
	[ "$(jq -s 'map(.moments | . == sort) | all' "$BATS_TEST_TMPDIR/out")" = true ]
	# The sign rule: the first two axes have their largest component
	# positive, the first of those equal to rounding (45 degree turns).
	[ "$(jq -s "$JQLIB"'map(qmat(.quat) as $r | [0, 1] | map(. as $j |
	    [$r[0][$j], $r[1][$j], $r[2][$j]] | (map(fabs) | max) as $m |
	    map(select(fabs >= $m - 1e-12)) | .[0] > 0) | all) | all' "$BATS_TEST_TMPDIR/out")" = true ]
}

@test "principal: the zero tensor and an indefinite one are decomposed too" {
	run phys-inertia principal <<<'{"mass":0,"ixx":0,"iyy":0,"izz":0,"ixy":0,"ixz":0,"iyz":0}'
	[ "$status" -eq 1 ]
	assert_output --partial '"valid":false,"reason":"mass must be positive (got 0)","moments":[0,0,0],"quat":{"w":1,"x":0,"y":0,"z":0}'
	check_principal "$(rotated 0.5 0.5 0.5 -1 2 3)"
}

@test "principal: the tensor options give the same line as standard input" {
	a=$(phys-inertia principal --mass 2 --ixx 2 --iyy 2 --izz 1 --ixy 0.5)
	b=$(echo '{"mass":2,"ixx":2,"iyy":2,"izz":1,"ixy":0.5,"ixz":0,"iyz":0}' | phys-inertia principal)
	[ "$a" = "$b" ]
	run phys-inertia principal --mass 2 --ixx 2 --iyy 2
	assert_failure 2
	assert_output --partial -- '--izz is missing'
}

@test "principal: a line with a pose gets the principal frame's pose" {
	in='{"mass":1,"ixx":2,"iyy":2,"izz":2,"ixy":0.5,"ixz":0.1,"iyz":0,"pose":{"x":1,"y":2,"z":3,"roll":0.1,"pitch":0.2,"yaw":0.3}}'
	run phys-inertia principal <<<"$in"
	assert_success
	[ "$(field '[.pose.x, .pose.y, .pose.z]' "$output" | jq -c .)" = '[1,2,3]' ]
	# The new frame's rotation is the pose's rotation followed by R.
	near "$(jqcalc "$in" "$output" 'relerr(mmul(rpymat($i.pose); qmat($o.quat)); rpymat($o.pose))')" 0 1e-14
}

@test "principal: identical input gives identical bytes" {
	in="$(rotated 0.3 -0.7 1.1 1 2 3)"
	a=$(printf '%s\n%s\n' "$in" "$in" | phys-inertia principal)
	[ "$(sed -n 1p <<<"$a")" = "$(sed -n 2p <<<"$a")" ]
	[ "$a" = "$(printf '%s\n%s\n' "$in" "$in" | phys-inertia principal)" ]
}

# --- box-equivalent ---------------------------------------------------

@test "box-equivalent: a box's inertia gives back that box" {
	run sh -c 'phys-inertia box 0.4 0.2 0.1 --mass 3 | phys-inertia box-equivalent'
	assert_success
	rel "$(field .size.x "$output")" 0.4 1e-14
	rel "$(field .size.y "$output")" 0.2 1e-14
	rel "$(field .size.z "$output")" 0.1 1e-14
	[ "$(field .mass "$output")" = 3 ]
	[ "$(field .quat.w "$output")" = 1 ]
}

@test "box-equivalent: a rotated box gives its size, longest first, and its axes" {
	in=$(phys-inertia box 0.1 0.4 0.2 --mass 3 |
	    jq -c "$JQLIB"'line(.mass; sandwich(rot(-0.4; 0.9; 2.2); tensor(.)))')
	run phys-inertia box-equivalent <<<"$in"
	assert_success
	rel "$(field .size.x "$output")" 0.4 1e-13
	rel "$(field .size.y "$output")" 0.2 1e-13
	rel "$(field .size.z "$output")" 0.1 1e-13
	# The equivalent box's x is the rotated box's y, its y the box's z.
	near "$(jqcalc "$in" "$output" 'mmul(tp(rot(-0.4; 0.9; 2.2)); qmat($o.quat)) |
	    [(.[1][0] | fabs), (.[2][1] | fabs), (.[0][2] | fabs)] | min')" 1 1e-13
}

@test "box-equivalent: a flat plate sits on the triangle inequality and is a box of height 0" {
	run sh -c 'echo "{\"mass\":12,\"ixx\":1,\"iyy\":4,\"izz\":5,\"ixy\":0,\"ixz\":0,\"iyz\":0}" |
	    phys-inertia box-equivalent'
	assert_success
	rel "$(field .size.x "$output")" 2 1e-15
	rel "$(field .size.y "$output")" 1 1e-15
	[ "$(field .size.z "$output")" = 0 ]
}

@test "box-equivalent: a broken triangle inequality fails on its line" {
	run --separate-stderr phys-inertia box-equivalent <<'EOF'
{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}
{"mass":1,"ixx":1,"iyy":1,"izz":3,"ixy":0,"ixz":0,"iyz":0}
{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}
EOF
	assert_failure 1
	[ "$stderr" = 'phys-inertia: <stdin>:2: triangle inequality broken: I1 + I2 < I3 (1 + 1 < 3)' ]
	[ "$(wc -l <<<"$output")" -eq 1 ]
	[ "$(field .size.x "$output")" = "$(field .size.y "$output")" ]
}

@test "box-equivalent: not positive definite and mass <= 0 fail on their line" {
	run --separate-stderr phys-inertia box-equivalent <<<"$(rotated 0.1 0.2 0.3 -1 2 2)"
	assert_failure 1
	[[ "$stderr" == 'phys-inertia: <stdin>:1: not positive definite: '* ]]
	[ -z "$output" ]
	run --separate-stderr phys-inertia box-equivalent <<'EOF'

{"mass":0,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}
EOF
	assert_failure 1
	[ "$stderr" = 'phys-inertia: <stdin>:2: mass must be positive (got 0)' ]
	run --separate-stderr phys-inertia box-equivalent <<<'{"mass":1,"ixx":0,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	[[ "$stderr" == *'not positive definite'* ]]
}

@test "box-equivalent: the tolerance is 1e-9 of the largest moment" {
	# Short by half the tolerance: accepted, a box of height 0.
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1,"iyy":1,"izz":2.000000001,"ixy":0,"ixz":0,"iyz":0}'
	assert_success
	[ "$(field .size.z "$output")" = 0 ]
	# Short by five times the tolerance: refused.
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1,"iyy":1,"izz":2.00000001,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	assert_output --partial 'triangle inequality broken'
	# Relative, not absolute: the same at other magnitudes.
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1e6,"iyy":1e6,"izz":2.000000001e6,"ixy":0,"ixz":0,"iyz":0}'
	assert_success
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1e-6,"iyy":1e-6,"izz":2.00000001e-6,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	# A smallest moment of 1e-8 of the largest is positive, 1e-10 is not.
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1e-8,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_success
	run phys-inertia box-equivalent <<<'{"mass":1,"ixx":1e-10,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	assert_output --partial 'not positive definite'
}

# --- scale ------------------------------------------------------------

@test "scale: a mass factor k multiplies the tensor by k" {
	in="$(rotated 0.3 -0.7 1.1 1 2 2.5)"
	run phys-inertia scale --mass-factor 3 <<<"$in"
	assert_success
	[ "$(field .mass "$output")" = 3 ]
	near "$(jqcalc "$in" "$output" 'relerr(tensor($i) | map(map(. * 3)); tensor($o))')" 0 1e-15
	run phys-inertia scale --mass 7 <<<"$(jq -c '.mass = 3' <<<"$in")"
	assert_success
	[ "$(field .mass "$output")" = 7 ]
	near "$(jqcalc "$in" "$output" 'relerr(tensor($i) | map(map(. * 7 / 3)); tensor($o))')" 0 1e-15
}

@test "scale: a uniform size s gives s^2 I at fixed mass, s^5 I at fixed density" {
	in="$(rotated 0.3 -0.7 1.1 1 2 2.5)"
	run phys-inertia scale --size-factor 2 <<<"$in"
	assert_success
	[ "$(field .mass "$output")" = 1 ]
	near "$(jqcalc "$in" "$output" 'relerr(tensor($i) | map(map(. * 4)); tensor($o))')" 0 1e-15
	run phys-inertia scale --size-factor 2 --fixed-density <<<"$in"
	[ "$(field .mass "$output")" = 8 ]
	near "$(jqcalc "$in" "$output" 'relerr(tensor($i) | map(map(. * 32)); tensor($o))')" 0 1e-15
	run phys-inertia scale --size-factor 2 --density-factor 0.5 <<<"$in"
	[ "$(field .mass "$output")" = 4 ]
	near "$(jqcalc "$in" "$output" 'relerr(tensor($i) | map(map(. * 16)); tensor($o))')" 0 1e-15
}

@test "scale: resizing a box along x, y, z gives the resized box" {
	a=$(phys-inertia box 1 1 1 --mass 1 | phys-inertia scale --size-factor 2,3,0.5)
	b=$(phys-inertia box 2 3 0.5 --mass 1)
	near "$(jqcalc "$a" "$b" 'relerr(tensor($i); tensor($o))')" 0 1e-15
	a=$(phys-inertia box 1 1 1 --mass 1 | phys-inertia scale --size-factor 2,3,0.5 --fixed-density)
	b=$(phys-inertia box 2 3 0.5 --mass 3)
	[ "$(field .mass "$a")" = 3 ]
	near "$(jqcalc "$a" "$b" 'relerr(tensor($i); tensor($o))')" 0 1e-15
}

@test "scale: point masses resized along the link axes, through a turned inertial frame" {
	# Four point masses; their inertia computed directly before and after
	# moving every point to D p, with the line's inertial frame turned.
	pm='
	def body($ps): ($ps | map(.m) | add) as $m |
		[range(3) as $k | ($ps | map(.m * .p[$k]) | add) / $m] as $c |
		[range(3) as $i | [range(3) as $j | $ps | map(.m as $w |
			[range(3) as $k | .p[$k] - $c[$k]] as $r |
			$w * ((if $i == $j then $r | map(. * .) | add else 0 end) -
			$r[$i] * $r[$j])) | add]] as $t |
		{m: $m, c: $c, t: $t};
	def pts: [{m: 1, p: [0.3, -0.2, 0.5]}, {m: 2, p: [-0.4, 0.1, 0.2]},
		{m: 3, p: [0.1, 0.6, -0.3]}, {m: 1.5, p: [0.2, -0.5, -0.1]}];
	def frame: rot(0.5; -0.3; 1.2);
	def asline($b): line($b.m; sandwich(tp(frame); $b.t)) + {pose: {x: $b.c[0],
		y: $b.c[1], z: $b.c[2], roll: 0.5, pitch: -0.3, yaw: 1.2}};
	'
	in=$(jq -nc "$JQLIB$pm"'asline(body(pts))')
	want=$(jq -nc "$JQLIB$pm"'asline(body(pts | map(.p |= [.[0] * 2, .[1] * 0.5, .[2] * 3])))')
	run phys-inertia scale --size-factor 2,0.5,3 <<<"$in"
	assert_success
	near "$(jqcalc "$want" "$output" 'relerr(tensor($i); tensor($o))')" 0 1e-13
	near "$(jqcalc "$want" "$output" '[$i.pose.x - $o.pose.x, $i.pose.y - $o.pose.y,
	    $i.pose.z - $o.pose.z] | map(fabs) | max')" 0 1e-15
	[ "$(field '.pose | [.roll, .pitch, .yaw]' "$output" | jq -c .)" = '[0.5,-0.3,1.2]' ]
}

@test "scale: the mass options exclude one another, and sizes must be positive" {
	in='{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	run phys-inertia scale --mass 2 --mass-factor 2 <<<"$in"
	assert_failure 2
	run phys-inertia scale --fixed-density --density-factor 2 <<<"$in"
	assert_failure 2
	run phys-inertia scale --size-factor 0 <<<"$in"
	assert_failure 2
	run phys-inertia scale --size-factor 1,2 <<<"$in"
	assert_failure 2
	run phys-inertia scale --size-factor 1,-2,3 <<<"$in"
	assert_failure 2
	run phys-inertia scale --size-factor 1,2,3,4 <<<"$in"
	assert_failure 2
	run --separate-stderr phys-inertia scale --mass 2 <<<'{"mass":0,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	[[ "$stderr" == 'phys-inertia: <stdin>:1: mass must be positive'* ]]
}

# --- input errors -----------------------------------------------------

@test "bad lines: NaN, 1e999, malformed JSON, missing keys, strings fail with the line" {
	good='{"mass":1,"ixx":1,"iyy":2,"izz":2,"ixy":0,"ixz":0,"iyz":0}'
	for bad in \
	    '{"mass":1,"ixx":NaN,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}' \
	    '{"mass":1,"ixx":1e999,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}' \
	    '{"mass":1,"ixx":1,"iyy":1,' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0}' \
	    '{"mass":1,"ixx":"1","iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0,"iyy":2}' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0,"Pose":{}}' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0,"pose":{"x":0}}' \
	    '[1,2,3]' \
	    '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0} x'; do
		for cmd in principal box-equivalent scale; do
			first=$(phys-inertia $cmd <<<"$good")
			run --separate-stderr phys-inertia $cmd <<<"$good
$bad
$good"
			assert_failure 1
			[[ "$stderr" == 'phys-inertia: <stdin>:2: '* ]]
			[ "$(wc -l <<<"$stderr")" -eq 1 ]
			[ "$output" = "$first" ]
		done
	done
}

@test "bad lines: the messages say what is wrong" {
	run --separate-stderr phys-inertia principal <<<'{"mass":1,"ixx":1e999,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	assert_failure 1
	[[ "$stderr" == *overflow* ]]
	run --separate-stderr phys-inertia principal <<<'{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0}'
	[ "$stderr" = 'phys-inertia: <stdin>:1: missing key "iyz"' ]
	run --separate-stderr phys-inertia principal <<<'{"mass":1,"ixx":true,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}'
	[ "$stderr" = 'phys-inertia: <stdin>:1: "ixx" is not a number' ]
	run --separate-stderr phys-inertia principal <<<'{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0,"pose":{"x":0,"y":0,"z":0,"roll":0,"pitch":0}}'
	[ "$stderr" = 'phys-inertia: <stdin>:1: missing key "pose.yaw"' ]
}

@test "bad lines: a file operand is named in the message" {
	printf '%s\n' '{"mass":1,"ixx":1,"iyy":1,"izz":1,"ixy":0,"ixz":0,"iyz":0}' '{' >"$BATS_TEST_TMPDIR/lines"
	run --separate-stderr phys-inertia principal "$BATS_TEST_TMPDIR/lines"
	assert_failure 1
	[[ "$stderr" == "phys-inertia: $BATS_TEST_TMPDIR/lines:2: invalid JSON"* ]]
	run --separate-stderr phys-inertia principal "$BATS_TEST_TMPDIR/nonexistent"
	assert_failure 1
	[[ "$stderr" == 'phys-inertia: '*nonexistent* ]]
}

@test "- is standard input; blank lines and # comments are skipped" {
	run --separate-stderr phys-inertia principal - <<'EOF'

# a comment
{"mass":1,"ixx":1,"iyy":2,"izz":3,"ixy":0,"ixz":0,"iyz":0}

{
EOF
	assert_failure 1
	[ "$(wc -l <<<"$output")" -eq 1 ]
	[[ "$stderr" == 'phys-inertia: <stdin>:5: '* ]]
}

# --- command line -----------------------------------------------------

@test "usage errors exit 2 with the usage and print nothing on stdout" {
	for args in "" "frobnicate" "--frobnicate" "principal --frobnicate" \
	    "principal a b" "scale --size" "box-equivalent --ixx 1 file" \
	    "box 1 2 3 --mass"; do
		run --separate-stderr phys-inertia $args </dev/null
		assert_failure 2
		[ -z "$output" ]
		[[ "$stderr" == 'phys-inertia: '* ]]
		# the usage, or one line that points to it
		[[ "$stderr" == *'usage: phys-inertia'* ||
		    "$stderr" == *'(see phys-inertia --help)' ||
		    "$stderr" == *'did you mean '*'?' ]]
	done
}

@test "--help prints the usage and exits 0; so does each command's" {
	run phys-inertia --help
	assert_success
	assert_line --index 0 'usage: phys-inertia box X Y Z (--density RHO | --mass M)'
	assert_output --partial 'phys-inertia principal [FILE | TENSOR]'
	assert_output --partial 'phys-inertia scale [--density-factor K'
	for cmd in box sphere capsule hollow-cylinder principal box-equivalent scale; do
		run phys-inertia $cmd --help
		assert_success
		assert_line --index 0 --partial "usage: phys-inertia $cmd "
	done
	run phys-inertia --version
	assert_success
	assert_output --regexp '^phys-inertia [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "the man page's SYNOPSIS is the usage block" {
	command -v groff >/dev/null || skip "groff is not installed"
	help=$(phys-inertia --help | sed -n '1,/^$/p' | sed -e 's/^usage: //' -e 's/^ *//' -e '/^$/d')
	man=$(groff -man -Tascii -P-cbou -rLL=200n "$MAN" 2>/dev/null |
	    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed -e '1d' -e '$d' -e 's/^ *//' -e '/^$/d')
	[ -n "$help" ]
	[ "$help" = "$man" ]
}

# ---- check and fix: the links of a world ----

@test "check: a valid cube, a broken triangle inequality, a rod's shape mismatch, a mass ratio" {
	run --separate-stderr phys-inertia check "$WORLDS/bad_inertia.sdf"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 4 ]
	good=$(jq -c 'select(.link == "plausible::link")' <<<"$output")
	[ "$(jq -c '[.valid, .box_ratio, .density]' <<<"$good")" = '[true,1,125.00000000000003]' ] ||
	    [ "$(jq -c '[.valid, (.box_ratio * 1e9 | round), (.density | round)]' <<<"$good")" = '[true,1000000000,125]' ]
	[[ "$(jq -r '.warnings[0]' <<<"$good")" == "mass ratio 100 across joint 'plausible::hang' (with 'plausible::block')"* ]]
	bad=$(jq -c 'select(.link == "impossible::link")' <<<"$output")
	[ "$(jq -r .valid <<<"$bad")" = false ]
	[[ "$(jq -r .reason <<<"$bad")" == *triangle* ]]
	rod=$(jq -c 'select(.link == "swapped::link")' <<<"$output")
	[ "$(jq -c .geometry_box <<<"$rod")" = '{"x":1,"y":0.1,"z":0.1}' ]
	# a cube's moments make a 0.55 m cube: 5.5 times the rod's thickness
	near "$(jq .box_ratio <<<"$rod")" "$(awk 'BEGIN { OFMT = "%.17g"; print sqrt(6 / 2 * 0.1) / 0.1 }')" 1e-12
}

# ratio_125_reported WORLD: its two links, 125:1 in mass across a joint,
# are valid and warned about; not with --ratio above that.
ratio_125_reported() {
	run --separate-stderr phys-inertia check "$1"
	[ "$status" -eq 0 ]
	[ "$(jq -s 'map(select(.valid != true)) | length' <<<"$output")" -eq 0 ]
	[ "$(grep -c '"warnings":\["mass ratio 125 across joint ' <<<"$output")" -eq 2 ]
	run --separate-stderr phys-inertia check --ratio 5000 "$1"
	[[ "$output" != *warnings* ]]
}

@test "check: inertia_ratio_pendulum.sdf's 125:1 ratio is reported" {
	ratio_125_reported "$WORLDS/inertia_ratio_pendulum.sdf"
}

@test "check: Gazebo's worlds; inertia_ratio_pendulum's 125:1 ratio is reported" {
	need_reference
	for w in "$REF"/gazebo-worlds/*.world; do
		run --separate-stderr phys-inertia check "$w"
		[ "$status" -eq 0 ] || { echo "$w: $output $stderr"; false; }
		[ "$(jq -s 'map(select(.valid != true)) | length' <<<"$output")" -eq 0 ]
	done
	ratio_125_reported "$REF/gazebo-worlds/inertia_ratio_pendulum.world"
}

@test "fix: a box's inertial from its geometry and density, the closed form" {
	phys-inertia fix --density 500 "$WORLDS/bad_inertia.sdf" 'impossible::*' > "$TMP/f.sdf"
	phys-param get 'impossible::link/inertial.*' "$TMP/f.sdf" > "$TMP/v"
	m=$(jq -r 'select(.name | endswith("inertial.mass")) | .value' "$TMP/v")
	near "$m" 4 1e-12
	for a in ixx iyy izz; do
		near "$(jq -r --arg a "$a" 'select(.name | endswith("inertia." + $a)) | .value' "$TMP/v")" "$(awk 'BEGIN { OFMT = "%.17g"; print 4 * (0.04 + 0.04) / 12 }')" 1e-12
	done
	# only that link changed, and only its inertial values
	diff "$WORLDS/bad_inertia.sdf" "$TMP/f.sdf" | grep '^>' > "$TMP/d" || true
	[ "$(wc -l < "$TMP/d")" -eq 4 ]
	phys-inertia check "$TMP/f.sdf" | jq -e -s 'map(select(.link == "impossible::link"))[0].valid'
}

@test "fix --keep-mass: an offset rod's centre of mass and the parallel-axis theorem" {
	# (valid, but not a rod's: --all)
	phys-inertia fix --all --keep-mass "$WORLDS/bad_inertia.sdf" 'swapped::*' > "$TMP/f.sdf"
	phys-param get 'swapped::link/inertial.*' "$TMP/f.sdf" > "$TMP/v"
	v() { jq -r --arg a "$1" 'select(.name | endswith($a)) | .value' "$TMP/v"; }
	near "$(v inertial.mass)" 2 0
	[ "$(jq -c 'select(.name | endswith("inertial.pose")) | .value | [.x, .y, .z]' "$TMP/v")" = '[0.5,0,0]' ]
	# about the centre of mass: the rod's own moments
	near "$(v inertia.ixx)" "$(awk 'BEGIN { OFMT = "%.17g"; print 2 * (0.01 + 0.01) / 12 }')" 1e-12
	near "$(v inertia.iyy)" "$(awk 'BEGIN { OFMT = "%.17g"; print 2 * (1 + 0.01) / 12 }')" 1e-12
	# and it now passes check with a ratio of 1
	phys-inertia check "$TMP/f.sdf" | jq -e -s 'map(select(.link == "swapped::link"))[0] | (.box_ratio - 1 | fabs) < 1e-9'
}

@test "fix: two shapes combine about their joint centre of mass" {
	cat > "$TMP/dumbbell.sdf" <<'XML'
<sdf version="1.7"><world name="w"><model name="d"><link name="l">
<collision name="a"><pose>-0.5 0 0 0 0 0</pose><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
<collision name="b"><pose>0.5 0 0 0 0 0</pose><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
</link></model></world></sdf>
XML
	phys-inertia fix --all --density 1000 "$TMP/dumbbell.sdf" > "$TMP/f.sdf"
	phys-param get 'd::l/inertial.*' "$TMP/f.sdf" > "$TMP/v"
	v() { jq -r --arg a "$1" 'select(.name | endswith($a)) | .value' "$TMP/v"; }
	m1=$(awk 'BEGIN { OFMT = "%.17g"; print 1000 * 4 / 3 * 3.141592653589793 * 0.001 }')
	near "$(v inertial.mass)" "$(awk -v m="$m1" 'BEGIN { OFMT = "%.17g"; print 2 * m }')" 1e-9
	# each sphere 2/5 m r^2, plus m d^2 about y and z
	near "$(v inertia.ixx)" "$(awk -v m="$m1" 'BEGIN { printf "%.15f", 2 * 0.4 * m * 0.01 }')" 1e-12
	near "$(v inertia.iyy)" "$(awk -v m="$m1" 'BEGIN { printf "%.15f", 2 * (0.4 * m * 0.01 + m * 0.25) }')" 1e-12
	# the fixed world runs
	phys-step -n 10 "$TMP/f.sdf" > /dev/null
}

@test "fix: only the links whose inertia is not valid, unless --all; every change said, with the digits it needs" {
	run --separate-stderr -0 phys-inertia fix --density 1000 "$WORLDS/bad_inertia.sdf"
	printf '%s\n' "$output" > "$TMP/f.sdf"
	# one link changed: its mass and moments, 1000 kg/m^3 of a 0.2 m cube
	# (8, not 8.000000000000002; 8 * 0.08 / 12 to 14 digits)
	line=$(grep -n '<mass>1</mass>' "$WORLDS/bad_inertia.sdf" | sed -n 2p | cut -d: -f1)
	assert_equal "$stderr" "phys-inertia: $WORLDS/bad_inertia.sdf:$((line - 1)): impossible::link: mass 1 -> 8, ixx 0.01 -> 0.053333333333333, iyy 0.01 -> 0.053333333333333, izz 0.05 -> 0.053333333333333"
	diff "$WORLDS/bad_inertia.sdf" "$TMP/f.sdf" | grep '^>' > "$TMP/d" || true
	[ "$(wc -l < "$TMP/d")" -eq 4 ]
	grep -q '<mass>8</mass>' "$TMP/d"
	grep -q '<ixx>0.053333333333333</ixx>' "$TMP/d"
	# the valid ones keep theirs, the plausible cube's 1 kg among them
	[ "$(phys-param get 'plausible::link/inertial.mass' "$TMP/f.sdf" | jq .value)" = 1 ]
	# --all: every link, each said; the offset rod's centre of mass too
	run --separate-stderr -0 phys-inertia fix --all --density 1000 "$WORLDS/bad_inertia.sdf"
	[ "$(wc -l <<<"$stderr")" -eq 4 ]
	[[ "$stderr" == *"plausible::link: mass 1 -> 8, ixx 0.006666666666666667 -> 0.053333333333333,"* ]]
	[[ "$stderr" == *"swapped::link: mass 2 -> 10, pose 0 0 0 0 0 0 -> 0.5 0 0 0 0 0,"* ]]
	# -q: the same world, nothing said
	run --separate-stderr -0 phys-inertia fix -q --density 1000 "$WORLDS/bad_inertia.sdf"
	[ -z "$stderr" ]
	# a glob that names no link
	run -1 --separate-stderr phys-inertia fix "$WORLDS/bad_inertia.sdf" 'nope::*'
	assert_equal "$stderr" "phys-inertia: no link matches 'nope::*' (phys-inertia check lists them)"
	[ -z "$output" ]
}

@test "fix -i: in place through a temporary file; a world that fails to load is untouched" {
	cp "$WORLDS/bad_inertia.sdf" "$TMP/w.sdf"
	phys-inertia fix --in-place "$TMP/w.sdf"
	phys-inertia check "$TMP/w.sdf" > /dev/null
	printf '<sdf version="1.7"><world name="w">' > "$TMP/bad.sdf"
	cp "$TMP/bad.sdf" "$TMP/bad.orig"
	run phys-inertia fix --in-place "$TMP/bad.sdf"
	[ "$status" -eq 1 ]
	[[ "$output" == "phys-inertia: $TMP/bad.sdf:"* ]]
	cmp "$TMP/bad.sdf" "$TMP/bad.orig"
}

# ---- show ----

# "fits": a 12 kg box of 1 x 2 x 3 m with its own inertia, turned 90
# degrees about z at (1, 2, 3); "rod": a 1 m rod with the inertia of a
# 0.1 m cube (its box of equivalent inertia 10 times too small).
show_world() {
	cat > "$TMP/show.sdf" <<'SDF'
<?xml version="1.0"?>
<sdf version="1.7">
  <world name="w">
    <model name="fits">
      <pose>1 2 3 0 0 1.5707963267948966</pose>
      <link name="link">
        <inertial><mass>12</mass>
          <inertia><ixx>13</ixx><iyy>10</iyy><izz>5</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>1 2 3</size></box></geometry></collision>
      </link>
    </model>
    <model name="rod">
      <pose>5 0 0 0 0 0</pose>
      <link name="link">
        <inertial><mass>1</mass>
          <inertia><ixx>0.0016666666666666668</ixx><iyy>0.0016666666666666668</iyy><izz>0.0016666666666666668</izz></inertia></inertial>
        <collision name="c"><geometry><box><size>1 0.1 0.1</size></box></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
SDF
}

# the points of data block $1 of script $2, "x y z" a line
block() {
	awk -v b="\$$1" '$1 == b && $2 == "<<" { on = 1; next } $1 == "EOD" { on = 0 } on && NF == 3' "$2"
}

@test "show: the pink box is the box of equivalent inertia, in the world, along the principal axes" {
	show_world
	run -0 phys-inertia show --script "$TMP/s.gp" -o "$TMP/i.png" "$TMP/show.sdf"
	[ ! -e "$TMP/i.png" ]
	# the first link's box: 12 edges; sides 1 2 3 along the link's x y z,
	# which the 90 degree turn lays along world y, -x and z
	# (in the front view, $b0: the first link, leftmost, is where it is)
	block b0 "$TMP/s.gp" | head -24 > "$TMP/fits"
	[ "$(wc -l < "$TMP/fits")" -eq 24 ]
	for k in 1 2 3; do
		sort -g -k$k,$k "$TMP/fits" | head -1 | cut -d' ' -f$k > "$TMP/lo"
		sort -g -k$k,$k "$TMP/fits" | tail -1 | cut -d' ' -f$k > "$TMP/hi"
		lo=(0 0 1.5 1.5); hi=(0 2 2.5 4.5)
		near "$(cat "$TMP/lo")" "${lo[$k]}" 1e-12
		near "$(cat "$TMP/hi")" "${hi[$k]}" 1e-12
	done
	# its corners are the collision box's: the box fits
	corners() {
		awk '{ for (k = 1; k <= 3; k++) { c = sprintf("%.9f", $k); if (c == "-0.000000000") c = "0.000000000"; printf "%s%s", c, k < 3 ? " " : "\n" } }' | sort -u
	}
	[ "$(corners < "$TMP/fits" | wc -l)" -eq 8 ]
	[ "$(corners < "$TMP/fits")" = "$(block s0 "$TMP/s.gp" | head -24 | corners)" ]
}

@test "show: a link whose box is far from its shapes stands out in the image and on stderr" {
	show_world
	run --separate-stderr -0 phys-inertia show -o "$TMP/i.svg" "$TMP/show.sdf"
	[ "$stderr" = "phys-inertia: $TMP/show.sdf:$(grep -n '<link name="link"' "$TMP/show.sdf" | sed -n 2p | cut -d: -f1): rod::link: its box of equivalent inertia is 0.1 times its shapes' (beyond 2)" ]
	# every link named under its shapes, the one off with how far
	[ "$(grep -c '>rod::link<' "$TMP/i.svg")" -eq 3 ]
	[ "$(grep -c '>fits::link<' "$TMP/i.svg")" -eq 3 ]
	[ "$(grep -c '>box 0.1 x its shapes<' "$TMP/i.svg")" -eq 3 ]
	# its box is drawn again: a red data block of the 0.1 m cube
	phys-inertia show --script "$TMP/s.gp" -o "$TMP/i.svg" "$TMP/show.sdf" 2> /dev/null
	set -- $(block f0 "$TMP/s.gp" | awk '{ print $1 }' | sort -g | sed -n '1p;$p')
	near "$1" 4.95 1e-12
	near "$2" 5.05 1e-12
	# a looser --ratio lets it pass
	run --separate-stderr -0 phys-inertia show --ratio 20 -o "$TMP/j.svg" "$TMP/show.sdf"
	[ -z "$stderr" ]
	! grep -q 'x its shapes<' "$TMP/j.svg" || false
}

@test "show: a name too long for its cell keeps its end, the link's own name, where a robot's links differ" {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.7">\n  <world name="w">\n    <model name="snake_robot_with_long_names">\n'
		for k in 07 08; do
			inertia_link "segment_${k}_upper_leg_link" 1 '0.0016666666666667 0.0016666666666667 0.0016666666666667' '<box><size>0.1 0.1 0.1</size></box>'
		done
		printf '    </model>\n  </world>\n</sdf>\n'
	} > "$TMP/long.sdf"
	phys-inertia show -o "$TMP/l.svg" "$TMP/long.sdf"
	for k in 07 08; do
		[ "$(grep -c ">...long_names::segment_${k}_upper_leg_link<" "$TMP/l.svg")" -eq 3 ]
	done
}

@test "show: an invalid inertia is drawn in red without a box, the reason written under the views" {
	show_world
	# the rod's moments broken: izz > ixx + iyy
	sed 's|<izz>0.0016666666666666668</izz>|<izz>0.01</izz>|' "$TMP/show.sdf" > "$TMP/bad.sdf"
	run --separate-stderr -0 phys-inertia show --script "$TMP/s.gp" -o "$TMP/i.svg" "$TMP/bad.sdf"
	[[ "$stderr" == "phys-inertia: $TMP/bad.sdf:"*": rod::link: its inertia is not valid (triangle inequality broken"*"): no box of equivalent inertia" ]]
	# its shapes are in the red block; no box of it among the boxes
	[ "$(block i0 "$TMP/s.gp" | grep -vc NaN)" -eq 24 ]
	[ "$(block b0 "$TMP/s.gp" | grep -vc NaN)" -eq 24 ]
	grep -q "rod::link: invalid inertia, no box: triangle inequality broken" "$TMP/s.gp"
	grep -q 'invalid inertia (below)' "$TMP/s.gp"
}

@test "show: links that overlap in a view are moved apart in it, and said to be" {
	show_world
	# the rod moved onto the fitting box: overlapping in every view
	sed 's|<pose>5 0 0 0 0 0</pose>|<pose>1 2 3 0 0 0</pose>|' "$TMP/show.sdf" > "$TMP/on.sdf"
	phys-inertia show --script "$TMP/s.gp" -o "$TMP/i.png" "$TMP/on.sdf" 2> /dev/null
	[ "$(grep -c "links that would overlap moved apart" "$TMP/s.gp")" -eq 3 ]
	# front view: the box spans x 0 .. 2; the rod, 1 m long, now right of it
	set -- $(block s0 "$TMP/s.gp" | sed -n '25,$p' | awk '{ print $1 }' | sort -g | sed -n '1p;$p')
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 2 && b - a > 0.999 && b - a < 1.001) }'
	# where nothing overlaps, nothing moves and nothing is said
	phys-inertia show --script "$TMP/t.gp" -o "$TMP/i.png" "$TMP/show.sdf" 2> /dev/null
	[ "$(grep -c "moved apart" "$TMP/t.gp")" -eq 0 ]
}

@test "show: tick labels stay apart, however wide the world against its height" {
	# three cubes over 75 m in x, within 5 m in y, 1 m in z: at one scale
	# a front view 1 m high would be a few pixels, its ticks on each other
	for m in a:0:0:1 b:40:3:1 c:-35:-2:0.1; do
		IFS=: read -r name x y e <<<"$m"
		i=$(awk -v e="$e" 'BEGIN { print e * e / 6 }')
		printf '<model name="%s"><pose>%s %s 0 0 0 0</pose><link name="link"><inertial><mass>1</mass><inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz></inertia></inertial><collision name="c"><geometry><box><size>%s %s %s</size></box></geometry></collision></link></model>\n' \
			"$name" "$x" "$y" "$i" "$i" "$i" "$e" "$e" "$e"
	done > "$TMP/models"
	{ echo '<sdf version="1.7"><world name="w">'; cat "$TMP/models"; echo '</world></sdf>'; } > "$TMP/wide.sdf"
	run --separate-stderr -0 phys-inertia show -o "$TMP/w.svg" "$TMP/wide.sdf"
	[ -z "$stderr" ]
	# "anchor x y text" of every number gnuplot wrote: the ticks' labels
	awk '/<g transform="translate\(/ {
		match($0, /translate\([-0-9.]+,[-0-9.]+\)/)
		split(substr($0, RSTART + 10, RLENGTH - 11), p, ",")
		a = $0 ~ /text-anchor="end"/ ? "end" : $0 ~ /text-anchor="middle"/ ? "middle" : "start"
		getline
		if (match($0, /<text> ?-?[0-9.]+<\/text>/)) {
			t = substr($0, RSTART + 6, RLENGTH - 13)
			sub(/^ /, "", t)
			print a, p[1], p[2], t
		}
	}' "$TMP/w.svg" > "$TMP/ticks"
	# the vertical axes' labels (10 pixel font) 12 pixels apart at least
	[ "$(grep -c '^end ' "$TMP/ticks")" -ge 12 ]
	grep '^end ' "$TMP/ticks" | sort -g -k3,3 |
		awk 'NR > 1 && $3 - y < 12 { print "too close:", last, "and", $0; bad = 1 }
		    { y = $3; last = $0 } END { exit bad }'
	# the horizontal axes' labels side by side, a character's room between
	[ "$(grep -c '^middle ' "$TMP/ticks")" -ge 12 ]
	grep '^middle ' "$TMP/ticks" | sort -g -k3,3 -k2,2 |
		awk '$3 == y && $2 - x < 6 * (length($4) + length(t)) / 2 + 6 { print "too close:", t, $4; bad = 1 }
		    { x = $2; y = $3; t = $4 } END { exit bad }'
}

# 50 links in a chain, long-named cubes of 0.02 to 0.5 m with their own
# inertia, but links 07 and 31, 3 cm cubes of 36 g with a placeholder
# 0.01 kg m^2 (a box of equivalent inertia 43 times theirs)
fifty_links() {
	{
		echo '<?xml version="1.0"?><robot name="r">'
		for i in $(seq 0 49); do
			awk -v i="$i" 'BEGIN {
				e = 0.02 + 0.48 * ((i * 37) % 50) / 49; m = 1000 * e^3; I = m * e * e / 6
				if (i == 7 || i == 31) { e = 0.03; m = 0.036; I = 0.01 }
				printf "<link name=\"left_arm_segment_link_%02d\"><inertial><mass value=\"%.9g\"/><inertia ixx=\"%.9g\" iyy=\"%.9g\" izz=\"%.9g\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><box size=\"%.9g %.9g %.9g\"/></geometry></collision></link>\n", i, m, I, I, I, e, e, e
				if (i > 0)
					printf "<joint name=\"j%02d\" type=\"revolute\"><parent link=\"left_arm_segment_link_%02d\"/><child link=\"left_arm_segment_link_%02d\"/><origin xyz=\"0.3 0 0.05\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n", i, i - 1, i
			}'
		done
		echo '</robot>'
	} > "$TMP/fifty.urdf"
}

@test "show: fifty links, two with placeholder inertias: each in its own cell, names apart, none squashed" {
	fifty_links
	run --separate-stderr -0 phys-inertia show -o "$TMP/f.svg" "$TMP/fifty.urdf"
	[ "$(grep -c 'its box of equivalent inertia is 43 times' <<<"$stderr")" -eq 2 ]
	# every text gnuplot wrote, "x0 y0 x1 y1" in pixels: 7 pixels a
	# character as the picture reckons, 10 above its baseline, 3 below
	awk '/<g transform="translate\(/ {
		match($0, /translate\([-0-9.]+,[-0-9.]+\)/)
		split(substr($0, RSTART + 10, RLENGTH - 11), p, ",")
		a = $0 ~ /text-anchor="end"/ ? 1 : $0 ~ /text-anchor="middle"/ ? 0.5 : 0
		getline
		if (match($0, /<text>.*<\/text>/)) {
			t = substr($0, RSTART + 6, RLENGTH - 13)
			gsub(/&[a-z]+;/, "_", t)
			w = 7 * length(t)
			print p[1] - a * w, p[2] - 10, p[1] + (1 - a) * w, p[2] + 3, t
		}
	}' "$TMP/f.svg" > "$TMP/texts"
	# each link named once a view, the two placeholders flagged
	[ "$(grep -c 'left_arm_segment_link_' "$TMP/texts")" -eq 150 ]
	[ "$(grep -c 'box 43 x its shapes, clipped' "$TMP/texts")" -eq 6 ]
	# all inside the canvas, none on another
	read -r W H < <(sed -n 's/^ *width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$TMP/f.svg")
	awk -v W="$W" -v H="$H" '
		$1 < 0 || $2 < 0 || $3 > W || $4 > H { print "outside:", $0; bad = 1 }
		{ for (j = 1; j < NR; j++)
			if ($1 < x1[j] && x0[j] < $3 && $2 < y1[j] && y0[j] < $4) { print "overlap:", t[j], "and", $5; bad = 1 }
		  x0[NR] = $1; y0[NR] = $2; x1[NR] = $3; y1[NR] = $4; t[NR] = $5 }
		END { exit bad }' "$TMP/texts"
	# in the script, each view's cells: every link's shapes 30 pixels
	# across at least, inside its cell (and so inside the view)
	phys-inertia show --script "$TMP/s.gp" -o "$TMP/f.svg" "$TMP/fifty.urdf" 2> /dev/null
	for k in 0 1 2; do
		# the view's cells, "x0 y0 x1 y1" each
		awk -v k="$k" '/^set multiplot/ { on = 1 } on && /^plot / { n++ } on && n == k && /^set object [0-9]+ rect/ {
			gsub(/,/, " "); print $6, $7, $9, $10 }' "$TMP/s.gp" > "$TMP/cells$k"
		[ "$(wc -l < "$TMP/cells$k")" -eq 50 ]
		awk -v b="\$s$k" '$1 == b && $2 == "<<" { on = 1; next } on && $1 == "EOD" { exit } on && NF == 2' "$TMP/s.gp" |
			awk 'NR == FNR { x0[NR] = $1; y0[NR] = $2; x1[NR] = $3; y1[NR] = $4; n = NR; next }
			    { for (c = 1; c <= n; c++) if ($1 >= x0[c] && $1 <= x1[c] && $2 >= y0[c] && $2 <= y1[c]) break
			      if (c > n) { print "outside every cell:", $0; bad = 1; next }
			      if (!(c in lo)) { lo[c] = $1; hi[c] = $1; bo[c] = $2; to[c] = $2 }
			      lo[c] = $1 < lo[c] ? $1 : lo[c]; hi[c] = $1 > hi[c] ? $1 : hi[c]
			      bo[c] = $2 < bo[c] ? $2 : bo[c]; to[c] = $2 > to[c] ? $2 : to[c] }
			    END { for (c = 1; c <= n; c++) {
				if (!(c in lo)) { print "cell", c, "empty"; bad = 1; continue }
				d = hi[c] - lo[c] > to[c] - bo[c] ? hi[c] - lo[c] : to[c] - bo[c]
				if (d < 30) { print "cell", c, "drawn", d, "pixels across"; bad = 1 } }
			      exit bad }' "$TMP/cells$k" -
	done
}

@test "show: a box far larger than its shapes does not squash the other links: cells, the box clipped" {
	# two 1 cm cubes and a 3 cm one of 36 g: its own inertia, or a
	# placeholder 0.01 kg m^2 (a box 1.29 m a side)
	for I in 5.4e-6 0.01; do
		{
			echo '<sdf version="1.7"><world name="w">'
			for m in a:0:0.01:1e-3:1.667e-8 b:0.05:0.01:1e-3:1.667e-8 c:0.1:0.03:0.036:$I; do
				IFS=: read -r name x e mass i <<<"$m"
				printf '<model name="%s"><pose>%s 0 0 0 0 0</pose><link name="link"><inertial><mass>%s</mass><inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz></inertia></inertial><collision name="c"><geometry><box><size>%s %s %s</size></box></geometry></collision></link></model>\n' \
					"$name" "$x" "$mass" "$i" "$i" "$i" "$e" "$e" "$e"
			done
			echo '</world></sdf>'
		} > "$TMP/w$I.sdf"
		phys-inertia show --script "$TMP/s$I.gp" -o "$TMP/i.svg" "$TMP/w$I.sdf" 2> /dev/null
	done
	# its own inertia: one scale, metres on the axes, as ever
	[ "$(grep -c "own cell" "$TMP/s5.4e-6.gp")" -eq 0 ]
	[ "$(grep -c "^set xlabel 'x \[m\]" "$TMP/s5.4e-6.gp")" -eq 2 ]
	# the placeholder: at one scale the 1 cm cubes would be a few
	# pixels; in cells each fills its own, the big box clipped and said so
	[ "$(grep -c "each link in its own cell, at its own scale" "$TMP/s0.01.gp")" -eq 3 ]
	[ "$(grep -c "^set label [0-9]* 'box 43 x its shapes, clipped'" "$TMP/s0.01.gp")" -eq 3 ]
	# a's cube, 1 cm, 110 pixels high in its cell, 214 across: 11,000
	# pixels a metre, the cell 0.0195 m across; the row 110 pixels high
	grep -q "^set label [0-9]* 'cell 0.0195 m across'" "$TMP/s0.01.gp"
	set -- $(awk '$1 == "$s0" && $2 == "<<" { on = 1; next } on && $1 == "EOD" { exit } on && NF == 2 { print $2 }' "$TMP/s0.01.gp" | sort -g | sed -n '1p;$p')
	near "$(awk -v a="$1" -v b="$2" 'BEGIN { print b - a }')" 110 0.05
}

@test "show: a PNG by extension; other extensions and missing operands are usage errors" {
	show_world
	phys-inertia show -o "$TMP/i.png" "$TMP/show.sdf" 2> /dev/null
	[ "$(head -c 4 "$TMP/i.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	run phys-inertia show -o "$TMP/i.pdf" "$TMP/show.sdf"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"neither .png nor .svg"* ]]
	run phys-inertia show "$TMP/show.sdf"
	[ "$status" -eq 2 ]
	run phys-inertia show -o "$TMP/i.png" "$TMP/missing.sdf"
	[ "$status" -eq 1 ]
	[ ! -e "$TMP/i.pdf" ]
}

@test "check: a massless link's written tensor still gives its principal moments" {
	cat > "$TMP/w.sdf" <<'EOF2'
<?xml version="1.0"?>
<sdf version="1.6">
  <world name="w">
    <model name="arm">
      <link name="base">
        <inertial><mass>0</mass><inertia><ixx>0.05</ixx><iyy>0.06</iyy><izz>0.03</izz></inertia></inertial>
      </link>
    </model>
  </world>
</sdf>
EOF2
	run --separate-stderr phys-inertia check "$TMP/w.sdf"
	assert_failure 1
	assert_output --partial '"reason":"mass must be positive (got 0)","tolerance":0,"moments":[0.03,0.05,0.06]'
}

# inertia_link NAME MASS I GEOMETRY: a link of mass MASS and moments I (ixx
# iyy izz, no products), with a collision of GEOMETRY when there is one.
inertia_link() {
	local -a i=($3)
	printf '      <link name="%s"><pose>%s 0 1 0 0 0</pose>\n' "$1" "$((RANDOM % 100))"
	printf '        <inertial><mass>%s</mass><inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz>' "$2" "${i[@]}"
	printf '<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>\n'
	[ -z "$4" ] || printf '        <collision name="c"><geometry>%s</geometry></collision>\n' "$4"
	printf '      </link>\n'
}

@test "check: implausible inertia, with the reason: an iCub-like wrist's placeholder 47 times its shapes, a placeholder without shapes" {
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.7">\n  <world name="w">\n    <model name="arm">\n'
		# 36 g and 0.01 kg m^2 on a 27.4 mm cube: a box 1.29 m long
		inertia_link wrist 0.036 '0.01 0.01 0.01' '<box><size>0.0274 0.0274 0.0274</size></box>'
		# a uniform 0.1 m cube of 1 kg
		inertia_link hand 1 '0.0016666666666667 0.0016666666666667 0.0016666666666667' '<box><size>0.1 0.1 0.1</size></box>'
		# a round value its shapes bear out: 6 kg on a 1 m cube
		inertia_link cube 6 '1 1 1' '<box><size>1 1 1</size></box>'
		# no shapes to judge by: the placeholder alone says it
		inertia_link sensor 0.01 '0.001 0.001 0.001' ''
		# far from its shapes without a round value
		inertia_link rod 1 '0.5 0.6 0.7' '<sphere><radius>0.01</radius></sphere>'
		printf '    </model>\n    <model name="ground"><static>true</static>\n'
		inertia_link slab 1 '1 1 1' '<box><size>0.01 0.01 0.01</size></box>'
		printf '    </model>\n  </world>\n</sdf>\n'
	} > "$TMP/w.sdf"
	run --separate-stderr phys-inertia check "$TMP/w.sdf"
	[ "$status" -eq 0 ]
	jq -r 'select(.implausible) | "\(.link): \(.implausible)"' <<<"$output" > "$TMP/said"
	[ "$(wc -l < "$TMP/said")" -eq 3 ]
	grep -qx "arm::wrist: its box of equivalent inertia is 47.1 times its shapes' (beyond 10); ixx = iyy = izz = 0.01 and no products: a placeholder, not a body's inertia" "$TMP/said"
	grep -qx "arm::sensor: ixx = iyy = izz = 0.001 and no products: a placeholder, not a body's inertia (the link has no shapes to compare with)" "$TMP/said"
	grep -q "^arm::rod: its box of equivalent inertia is [0-9.]* times its shapes' (beyond 10)$" "$TMP/said"
	# the figures behind it: a box 1.29 m long, 47 times the link
	wrist=$(jq -c 'select(.link == "arm::wrist")' <<<"$output")
	near "$(jq .box.x <<<"$wrist")" "$(awk 'BEGIN { OFMT = "%.17g"; print sqrt(6 * 0.01 / 0.036) }')" 1e-12
	near "$(jq .box_ratio <<<"$wrist")" "$(awk 'BEGIN { OFMT = "%.17g"; print sqrt(6 * 0.01 / 0.036) / 0.0274 }')" 1e-9
	# valid all the same: implausible is not impossible
	jq -se 'all(.valid)' <<<"$output"
	# --ratio moves the line; the placeholder then fits within it
	run --separate-stderr phys-inertia check --ratio 100 "$TMP/w.sdf"
	[ "$(jq -r 'select(.implausible) | .link' <<<"$output" | paste -sd' ')" = "arm::sensor arm::rod" ]
}

@test "fix --all fixes what it can: a mesh that cannot be read, an open one and a missing one are named with why, every other link fixed" {
	printf 'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n' > "$TMP/open.stl"
	echo garbage > "$TMP/bad.stl"
	{
		printf '<?xml version="1.0"?>\n<sdf version="1.7">\n  <world name="w">\n    <model name="m">\n'
		inertia_link a 1 '1 1 1' '<mesh><uri>bad.stl</uri></mesh>'
		inertia_link b 1 '1 1 1' '<mesh><uri>open.stl</uri></mesh>'
		inertia_link c 1 '1 1 1' '<box><size>0.1 0.1 0.1</size></box>'
		inertia_link d 1 '1 1 1' '<mesh><uri>missing.stl</uri></mesh>'
		inertia_link e 1 '1 1 1' '<sphere><radius>0.1</radius></sphere>'
		printf '    </model>\n  </world>\n</sdf>\n'
	} > "$TMP/w.sdf"
	cp "$TMP/w.sdf" "$TMP/orig.sdf"
	run --separate-stderr phys-inertia fix --all --density 1000 "$TMP/w.sdf"
	[ "$status" -eq 1 ]
	printf '%s\n' "$output" > "$TMP/fixed.sdf"
	# the two links it could fix are fixed, the others as they were
	diff "$TMP/orig.sdf" "$TMP/fixed.sdf" > "$TMP/diff" || true
	[ "$(grep -c '^[0-9]' "$TMP/diff")" -eq 2 ]
	grep -q '^> .*<ixx>0.0016666666666667</ixx><iyy>0.0016666666666667</iyy><izz>0.0016666666666667</izz>' "$TMP/diff"
	grep -q '^> .*<mass>4.1887902047864</mass>' "$TMP/diff"
	[ "$(sed -n '/link name="c"/,/<\/link>/p; /link name="e"/,/<\/link>/p' "$TMP/orig.sdf" | grep -c inertia)" -eq 2 ]
	# the three it could not are named, with why, once each
	cd "$TMP" && phys-inertia fix --all w.sdf 2>&1 > /dev/null | grep -v ' -> ' > "$TMP/said" || true
	[ "$(wc -l < "$TMP/said")" -eq 3 ]
	grep -qx "phys-inertia: m::a: left as it is: w.sdf:7: mesh: bad.stl: not a Collada, STL, OBJ or glTF file, the mesh formats phys reads (recognised by their content) (so the collision was skipped)" "$TMP/said"
	grep -q "^phys-inertia: m::b: left as it is: collision 'm::b::c': the mesh is open" "$TMP/said"
	grep -q "^phys-inertia: m::d: left as it is: w.sdf:19: cannot find file 'missing.stl'" "$TMP/said"
	# in place: written all the same
	run -1 phys-inertia fix --all -q --in-place "$TMP/w.sdf"
	[ -z "$output" ]
	cmp "$TMP/w.sdf" "$TMP/fixed.sdf"
	# check reads every link, and says which it read without geometry
	run -1 --separate-stderr phys-inertia check "$TMP/orig.sdf"
	[ "$(jq -r 'select(.unread) | .link' <<<"$output" | tr '\n' ' ')" = "m::a m::d " ]
	[ "$(wc -l <<<"$stderr")" -eq 2 ]
}

# A URDF as iCub's is written: a moment of -5.42101e-20 (a rounding of 0)
# on the link 'hip', whose box is 0.1 x 0.2 x 0.3 m; the link 'base'
# holds 'plate' lumped by a fixed joint, and neither has any inertia.
rounded_urdf() {
	cat > "$TMP/r.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <joint name="plate_joint" type="fixed"><parent link="base"/><child link="plate"/></joint>
  <link name="plate">
    <inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
  </link>
  <joint name="hip_joint" type="revolute">
    <parent link="base"/><child link="hip"/><origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="5"/>
  </joint>
  <link name="hip">
    <inertial><mass value="6"/><inertia ixx="-5.42101e-20" ixy="0" ixz="0" iyy="0.06" iyz="0" izz="0.03"/></inertial>
    <collision><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
</robot>
URDF
}

@test "a moment of inertia below 0 (iCub's -5.42101e-20): refused by a run at its line, checked and fixed by phys-inertia; a lumped link fix cannot write is left, said, and the rest fixed" {
	rounded_urdf
	run --separate-stderr phys-step -q -n 1 "$TMP/r.urdf"
	[ "$status" -eq 1 ]
	[ "$stderr" = "phys-step: $TMP/r.urdf:16: inertial.inertia.ixx: -5.42101e-20 is below the minimum 0 (phys-inertia check and fix take it)" ]
	run -1 --separate-stderr phys-inertia check "$TMP/r.urdf"
	[ "$(jq -r 'select(.link == "r::hip") | [.line, .valid, .reason] | @tsv' <<<"$output")" = "$(printf '15\tfalse\tnot positive definite: principal moments -5.42101e-20, 0.03, 0.06 (the smallest must exceed 6e-11)')" ]
	[ "$(jq -r 'select(.link == "r::base") | .valid' <<<"$output")" = false ]
	# fix: the hip's box at 1000 kg/m^3 (6 kg): m (b^2 + c^2) / 12 and its
	# permutations; the base, holding the plate, left and said
	run -1 --separate-stderr phys-inertia fix "$TMP/r.urdf"
	printf '%s\n' "$output" > "$TMP/fixed.urdf"
	grep -qx "phys-inertia: r::base: left as it is: $TMP/r.urdf:3: link 'base' holds the mass of plate too, lumped by fixed joints: set each link's <inertial> in the URDF, or keep a joint with <gazebo reference=\"JOINT\"><preserveFixedJoint>true</preserveFixedJoint></gazebo>" <<<"$stderr"
	phys-inertia check "$TMP/fixed.urdf" | jq -r 'select(.link == "r::hip") | [.mass, .valid] | @tsv' > "$TMP/hip"
	[ "$(cat "$TMP/hip")" = "$(printf '6\ttrue')" ]
	phys-param get 'r::hip/inertial.inertia.i??' "$TMP/fixed.urdf" > "$TMP/v"
	for m in "ixx 0.065" "iyy 0.05" "izz 0.025"; do
		set -- $m
		near "$(jq -r --arg a "$1" 'select(.name | endswith("inertia." + $a)) | .value' "$TMP/v")" "$2" 1e-12
	done
	# the rest of the file as it was: only the hip's inertia written
	diff "$TMP/r.urdf" "$TMP/fixed.urdf" | grep '^>' > "$TMP/d" || true
	[ "$(wc -l < "$TMP/d")" -eq 1 ]
	grep -q '<inertia ixx="0.065"' "$TMP/d"
}

@test "show: a robot of 1,100 links, one with an invalid inertia: each link named once in each view, the reason under them" {
	# a row of 5 cm cubes; link 100's moments break the triangle
	# inequality. Its footnote once took the tag of a name in the third
	# view, which then went missing.
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?><robot name=\"r\">"
		for (i = 0; i < 1100; i++) {
			I = i == 100 ? "ixx=\"1\" iyy=\"0.01\" izz=\"0.01\"" : "ixx=\"5.2e-5\" iyy=\"5.2e-5\" izz=\"5.2e-5\""
			printf "<link name=\"n%d\"><inertial><mass value=\"0.125\"/><inertia %s ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><box size=\"0.05 0.05 0.05\"/></geometry></collision></link>\n", i, I
			if (i)
				printf "<joint name=\"j%d\" type=\"revolute\"><parent link=\"n%d\"/><child link=\"n%d\"/><origin xyz=\"0.1 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n", i, i - 1, i
		}
		print "</robot>" }' > "$TMP/row.urdf"
	phys-inertia show -o "$TMP/row.svg" "$TMP/row.urdf" 2> /dev/null
	# each name in a <text> element: 3 times each, no more, no less
	grep -o '<text>r::n[0-9]*<' "$TMP/row.svg" | sort | uniq -c |
	    awk '$1 != 3 { print "named", $1, "times:", $2; bad = 1 }
		{ n++ } END { if (n != 1100) { print n, "names"; bad = 1 } exit bad }'
	grep -q '<text>r::n100: invalid inertia, no box: ' "$TMP/row.svg"
}
