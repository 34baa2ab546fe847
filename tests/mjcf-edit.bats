#!/usr/bin/env bats
# Lossless edits of MJCF files: phys-param set, phys-inertia fix and
# phys-preset on an MJCF model write into the file in MuJoCo's own
# terms. Each edited file is compiled by Debian's libmujoco 2.2.2
# (tests/data/mujoco_print_oracle.c, built here): the value set is
# MuJoCo's, every other number is the original's, and the file differs
# from the original only in the edited attribute.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	if [ -e /usr/include/mujoco/mujoco.h ]; then
		cc -O0 -o "$BATS_FILE_TMPDIR/mujoco" \
		    "$BATS_TEST_DIRNAME/data/mujoco_print_oracle.c" -lmujoco -lm
	fi
}

# An arm in degrees, a hinge with a ref, classes giving a joint's damping
# and two geoms' friction, one body's mass from its geoms.
setup() {
	[ -x "$BATS_FILE_TMPDIR/mujoco" ] || skip "no libmujoco (libmujoco-dev) to compare with"
	cat > "$TMP/arm.xml" <<'EOF'
<mujoco model="arm">
  <!-- an arm to edit -->
  <compiler angle="degree" autolimits="true"/>
  <option timestep="0.001"/>
  <default>
    <joint damping="0.5"/>
    <default class="soft">
      <geom friction="0.8 0.01 0.0002" solref="0.03 1"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" ref="10" range="-30 60"/>
      <inertial pos="0 0 -0.1" mass="1" diaginertia="0.02 0.025 0.03"/>
      <geom name="arm" class="soft" type="capsule" size="0.05" fromto="0 0 0 0 0 -0.4"/>
      <body name="lower" pos="0 0 -0.4">
        <joint name="elbow" axis="0 1 0" range="0 90" stiffness="2"/>
        <geom name="hand" type="box" size="0.05 0.05 0.1" pos="0 0 -0.1" density="500"/>
        <body name="slider" pos="0 0 -0.2">
          <joint name="slide" type="slide" axis="0 0 1" range="-0.1 0.1"/>
          <geom name="tip" class="soft" type="sphere" size="0.03"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
EOF
	cp "$TMP/arm.xml" "$TMP/ed.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/arm.xml" > "$TMP/before"
}

# set_in NAME=VALUE...: the edit, in place, into ed.xml.
set_in() {
	phys-param set --in-place "$@" "$TMP/ed.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/ed.xml" > "$TMP/after"
}

# mj KIND NAME JQ: a value of MuJoCo's compilation of the edited file.
mj() {
	jq -r --arg k "$1" --arg n "$2" "select(.[\$k] == \$n and
	    (\$k != \"body\" or has(\"mass\"))) | $3" "$TMP/after"
}

# all_else_same KIND NAME FIELD...: MuJoCo's numbers of both files agree
# to 1e-9 but for those fields of that object.
all_else_same() {
	python3 - "$TMP/before" "$TMP/after" "$@" <<'PY'
import json, sys
kind, name, fields = sys.argv[3], sys.argv[4], sys.argv[5:]
def load(path):
    out = []
    for line in open(path):
        o = json.loads(line)
        if next(iter(o)) == kind and o[kind] == name:
            o = {k: v for k, v in o.items() if k not in fields}
        out.append(o)
    return out
def same(x, y):
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return abs(x - y) <= 1e-9
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    return x == y
b, a = load(sys.argv[1]), load(sys.argv[2])
bad = [(p, q) for p, q in zip(b, a) if not same(p, q)]
for p, q in bad:
    print("was", p, "\nnow", q)
sys.exit(1 if bad or len(a) != len(b) else 0)
PY
}

# only_attrs ATTR...: the edited file is the original but for one line,
# which differs from its original only in those attributes.
only_attrs() {
	local a strip=""
	for a in "$@"; do
		strip="$strip; s/ $a=\"[^\"]*\"//"
	done
	[ "$(diff "$TMP/arm.xml" "$TMP/ed.xml" | grep -c '^[<>]')" = 2 ]
	diff <(sed "$strip" "$TMP/arm.xml") <(sed "$strip" "$TMP/ed.xml")
}

@test "mjcf-edit: a body's inertia into its diaginertia, nothing else" {
	set_in arm::upper/inertial.inertia.ixx=0.021
	near "$(mj body upper '.inertia[0]')" 0.021 1e-12
	all_else_same body upper inertia
	only_attrs diaginertia
}

@test "mjcf-edit: a body's mass into its <inertial>, the inertia following it as phys's density rule does" {
	set_in arm::upper/inertial.mass=2.5
	near "$(mj body upper .mass)" 2.5 1e-12
	near "$(mj body upper '.inertia[4]')" 0.0625 1e-12
	all_else_same body upper mass inertia
	only_attrs mass diaginertia
}

@test "mjcf-edit: a body whose geoms make its mass gets an <inertial> of MuJoCo's numbers and the mass set" {
	set_in arm::lower/inertial.mass=3
	near "$(mj body lower .mass)" 3 1e-9
	near "$(mj body lower '.com[2]')" -0.1 1e-12
	near "$(mj body lower '.inertia[0]')" 0.0125 1e-9
	all_else_same body lower mass inertia
	# one line added, an <inertial> in the body
	[ "$(diff "$TMP/arm.xml" "$TMP/ed.xml" | grep -c '^[<>]')" = 1 ]
	diff "$TMP/arm.xml" "$TMP/ed.xml" | grep -q '^> *<inertial pos="0 0 -0.1" mass="3" diaginertia='
}

@test "mjcf-edit: an inertia off its axes becomes MuJoCo's fullinertia" {
	set_in arm::upper/inertial.inertia.ixy=0.001
	near "$(mj body upper '.inertia[1]')" 0.001 1e-12
	near "$(mj body upper '.inertia[0]')" 0.02 1e-12
	near "$(mj body upper '.inertia[4]')" 0.025 1e-12
	grep -q '<inertial pos="0 0 -0.1" mass="1" fullinertia="0.02 0.025 0.03 0.001 0 0"/>' "$TMP/ed.xml"
}

@test "mjcf-edit: a hinge's limit in the file's degrees, measured from qpos 0 and not from ref" {
	set_in arm::shoulder/axis.limit.upper=1
	# phys's upper limit is MuJoCo's less ref (10 degrees)
	near "$(mj joint shoulder '.range[1]')" \
	    "$(awk 'BEGIN { printf "%.17g", 1 + 10 * atan2(0, -1) / 180 }')" 1e-12
	all_else_same joint shoulder range
	only_attrs range
	run -0 phys-param get arm::shoulder/axis.limit.upper "$TMP/ed.xml"
	near "$(jq .value <<< "$output")" 1 1e-12
}

@test "mjcf-edit: a ball's damping, and its range, the largest turn, in the file's degrees; what a ball has not is refused" {
	sed -i 's|<joint name="elbow" axis="0 1 0"|<joint name="elbow" type="ball"|' "$TMP/arm.xml"
	cp "$TMP/arm.xml" "$TMP/ed.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/arm.xml" > "$TMP/before"
	# the class's 0.5 gives way to the joint's own
	set_in arm::elbow/axis.dynamics.damping=0.25
	near "$(mj joint elbow .damping)" 0.25 1e-12
	all_else_same joint elbow damping
	only_attrs damping
	cp "$TMP/ed.xml" "$TMP/arm.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/arm.xml" > "$TMP/before"
	set_in arm::elbow/axis.limit.upper=1
	near "$(mj joint elbow '.range[1]')" 1 1e-12
	near "$(mj joint elbow '.range[0]')" 0 0
	all_else_same joint elbow range
	only_attrs range
	run -0 phys-param get arm::elbow/axis.limit.upper "$TMP/ed.xml"
	near "$(jq .value <<< "$output")" 1 1e-12
	cp "$TMP/ed.xml" "$TMP/kept.xml"
	for p in axis.xyz='0 0 1' axis.limit.lower=0.1 axis.dynamics.spring_reference=0.2; do
		run -1 phys-param set --in-place "arm::elbow/$p" "$TMP/ed.xml"
		[[ "$output" == *"ed.xml:18: <joint> 'elbow' is a ball joint, whose MJCF holds no ${p%%=*}"* ]]
	done
	cmp "$TMP/kept.xml" "$TMP/ed.xml"
}

@test "mjcf-edit: a spring's reference from ref, and a slide's limit in metres" {
	set_in arm::shoulder/axis.dynamics.spring_reference=0.2 \
	    arm::slide/axis.limit.lower=-0.05
	near "$(mj joint shoulder .springref)" \
	    "$(awk 'BEGIN { printf "%.17g", 0.2 + 10 * atan2(0, -1) / 180 }')" 1e-12
	near "$(mj joint slide '.range[0]')" -0.05 1e-12
	run -0 phys-param get arm::shoulder/axis.dynamics.spring_reference "$TMP/ed.xml"
	near "$(jq .value <<< "$output")" 0.2 1e-12
}

@test "mjcf-edit: a value a default class gives is set on the element, with a warning; the class and its others keep theirs" {
	run -0 --separate-stderr set_in arm::shoulder/axis.dynamics.damping=0.7
	[[ "$stderr" == *"ed.xml:14: <joint> 'shoulder': damping came from default class 'main'"* ]]
	near "$(mj joint shoulder .damping)" 0.7 1e-12
	near "$(mj joint elbow .damping)" 0.5 1e-12
	near "$(mj joint slide .damping)" 0.5 1e-12
	only_attrs damping
}

@test "mjcf-edit: a geom's friction, solref and solimp; another geom of its class keeps the class's" {
	set_in arm::upper::arm/surface.friction.ode.mu=0.3 \
	    arm::upper::arm/surface.contact.mujoco.solref.timeconst=0.05
	[ "$(mj geom arm '.friction | map(tostring) | join(" ")')" = "0.3 0.01 0.0002" ]
	[ "$(mj geom arm '.solref | map(tostring) | join(" ")')" = "0.05 1" ]
	[ "$(mj geom tip '.friction | map(tostring) | join(" ")')" = "0.8 0.01 0.0002" ]
	all_else_same geom arm friction solref
	set_in arm::lower::hand/surface.contact.mujoco.solimp.width=0.002
	[ "$(mj geom hand '.solimp | map(tostring) | join(" ")')" = "0.9 0.95 0.002 0.5 2" ]
}

@test "mjcf-edit: the step, gravity and MuJoCo's solver settings into <option>" {
	set_in max_step_size=0.004 'gravity=0 0 -3' -p mujoco mujoco.iterations=30 \
	    mujoco.solver=CG
	[ "$(jq -r 'select(.option) | [.timestep, .gravity[2], .iterations, .solver] |
	    map(tostring) | join(" ")' "$TMP/after")" = "0.004 -3 30 1" ]
	[ "$(diff "$TMP/arm.xml" "$TMP/ed.xml" | grep -c '^[<>]')" = 2 ]
}

@test "mjcf-edit: what MJCF cannot hold is refused, saying why, and the file is left as it was" {
	run -1 phys-param set --in-place arm::slide/axis.limit.effort=5 "$TMP/ed.xml"
	[[ "$output" == *"ed.xml:21: <joint> 'slide': MJCF's joints cannot hold axis.limit.effort"* ]]
	run -1 phys-param set --in-place arm::upper::arm/surface.friction.ode.mu2=0.2 "$TMP/ed.xml"
	[[ "$output" == *"one sliding friction"* ]]
	run -1 phys-param set --in-place ode.solver.iters=10 "$TMP/ed.xml"
	[[ "$output" == *"MJCF's <option> cannot hold ode.solver.iters"* ]]
	run -1 phys-preset use mujoco "$TMP/ed.xml"
	[[ "$output" == *"made from MJCF's <option>"* ]]
	cmp "$TMP/arm.xml" "$TMP/ed.xml"
	sed -i 's/autolimits="true"/& inertiafromgeom="true"/' "$TMP/ed.xml"
	run -1 phys-param set arm::upper/inertial.mass=2 "$TMP/ed.xml"
	[[ "$output" == *'inertiafromgeom="true"> makes every body'* ]]
}

@test "mjcf-edit: an included file's body is not edited; the including file's are, around the <include>" {
	cat > "$TMP/extra.xml" <<-'EOF'
	<mujoco>
	  <body name="extra" pos="1 0 0"><geom size="0.1"/></body>
	</mujoco>
	EOF
	sed -i 's|    <geom name="floor"|    <include file="extra.xml"/>\n&|' "$TMP/ed.xml"
	cp "$TMP/ed.xml" "$TMP/arm.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/arm.xml" > "$TMP/before"
	set_in arm::upper/inertial.inertia.izz=0.035
	near "$(mj body upper '.inertia[8]')" 0.035 1e-12
	only_attrs diaginertia
	run -1 phys-param set arm::extra/inertial.mass=2 "$TMP/ed.xml"
	[[ "$output" == *"'extra' is made by phys or comes from an <include>d file"* ]]
}

@test "mjcf-edit: phys-inertia fix --in-place writes the inertia it reports, which MuJoCo then reads" {
	phys-inertia fix --in-place --all "$TMP/ed.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/ed.xml" > "$TMP/after"
	# the capsule's mass at phys's density, its centre halfway down
	near "$(mj body upper .mass)" \
	    "$(awk 'BEGIN { pi = atan2(0, -1); printf "%.17g", 1000 * (pi * 0.05^2 * 0.4 + 4 / 3 * pi * 0.05^3) }')" 1e-9
	near "$(mj body upper '.com[2]')" -0.2 1e-12
	run -1 phys-inertia fix --auto --all "$TMP/ed.xml"
	[[ "$output" == *"an MJCF body has no automatic inertia"* ]]
	for l in upper lower slider; do
		run -0 phys-param get "arm::$l/inertial.mass" "$TMP/ed.xml"
		near "$(jq .value <<< "$output")" "$(mj body $l .mass)" 1e-12
	done
}

@test "mjcf-edit: the model printed as MJCF gives MuJoCo the original's bodies and joints, to 1e-6" {
	phys-sdf print --format mjcf "$TMP/arm.xml" > "$TMP/printed.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/printed.xml" > "$TMP/after"
	for b in upper lower slider; do
		for f in mass 'pos[]' 'com[]' 'inertia[]' 'rot[]'; do
			paste <(jq -r --arg n "$b" "select(.body == \$n and has(\"mass\")) | .$f" "$TMP/before") \
			    <(mj body "$b" ".$f") | while read -r x y; do
				near "$y" "$x" 1e-6
			done
		done
	done
	# joints: their ranges the original's, the shoulder's ref kept
	for j in shoulder elbow slide; do
		for f in damping stiffness frictionloss 'axis[]' 'range[]'; do
			paste <(jq -r --arg n "$j" "select(.joint == \$n) | .$f" "$TMP/before") \
			    <(mj joint "$j" ".$f") | while read -r x y; do
				near "$y" "$x" 1e-6
			done
		done
	done
	grep -q '<joint name="shoulder" .*ref="0.17453292519943' "$TMP/printed.xml"
}

@test "mjcf-edit: a joint's limit softness and margin, and a geom's margin and gap, into MuJoCo's solreflimit, solimplimit, margin and gap" {
	set_in arm::elbow/physics.mujoco.limit.solref.dampratio=0.3 \
	    arm::elbow/physics.mujoco.limit.solimp.dmin=0.5
	[ "$(mj joint elbow '.solreflimit | join(" ")')" = "0.02 0.3" ]
	[ "$(mj joint elbow '.solimplimit | join(" ")')" = "0.5 0.95 0.001 0.5 2" ]
	all_else_same joint elbow solreflimit solimplimit
	only_attrs solreflimit solimplimit
	cp "$TMP/arm.xml" "$TMP/ed.xml"
	set_in arm::elbow/physics.mujoco.limit.margin=0.05 \
	    arm::upper::arm/surface.contact.mujoco.gap=0.001
	[ "$(mj joint elbow '.margin[0]')" = 0.05 ]
	[ "$(mj geom arm '.gap[0]')" = 0.001 ]
	run -0 phys-param get arm::upper::arm/surface.contact.mujoco.gap "$TMP/ed.xml"
	[ "$(jq .value <<< "$output")" = 0.001 ]
}

@test "mjcf-edit: a coupled joint's equality softness into its <joint> equality's solref and solimp, over its class's; the edited model moves under phys's MuJoCo engine as libmujoco moves it" {
	cp "$BATS_TEST_DIRNAME/data/mjcf/coupled.xml" "$TMP/c.xml"
	phys-param set --in-place coupled::s2/physics.mujoco.equality.solref.timeconst=0.05 \
	    coupled::h2/physics.mujoco.equality.solimp.dmin=0.7 "$TMP/c.xml"
	# only the two equalities' attributes, the class's damping ratio kept
	[ "$(diff "$BATS_TEST_DIRNAME/data/mjcf/coupled.xml" "$TMP/c.xml" | grep -c '^[<>]')" = 4 ]
	grep -q '<joint joint1="s2" joint2="s1" polycoef="0.01 2 0 0 0" solref="0.05 0.7"/>' "$TMP/c.xml"
	grep -q 'solimp="0.7 0.9 0.01"' "$TMP/c.xml"
	"$BATS_FILE_TMPDIR/mujoco" "$TMP/c.xml" run 1 s2 k | awk 'NR % 100 == 0 { print $2 }' > "$TMP/want"
	phys-step -q -p mujoco -t 1 -e 100 --keyframe k -i 'coupled::s2/position' "$TMP/c.xml" |
	    jq -r 'select(.t > 0) | .items[] | .[0]' > "$TMP/got"
	lines_agree "$TMP/want" "$TMP/got" 1e-9
	# a joint no <joint> equality couples cannot hold it
	run phys-param set --in-place coupled::s1/physics.mujoco.equality.solref.timeconst=0.05 "$TMP/c.xml"
	assert_failure
	assert_output --partial "no <joint> equality couples it"
}
