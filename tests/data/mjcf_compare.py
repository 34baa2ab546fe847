#!/usr/bin/env python3
"""mjcf_compare.py SDFORMAT.jsonl MUJOCO.jsonl [TOL]

Compares a world as libsdformat reads it (tests/data/sdformat_oracle.cc)
with the MJCF phys-sdf print --format mjcf wrote for it, as libmujoco
compiles that (tests/data/mujoco_print_oracle.c): every link is a body of
its name with the same mass, world pose, centre of mass and inertia (in
the link frame), every joint but a fixed one a MuJoCo joint of its name
(a universal's second axis NAME_axis2) at the same world anchor and axis,
with its limits, damping and friction. Prints each difference over TOL
(1e-6 by default) and exits 1 when there is one. Where the world holds
one model, the bodies and joints are named without its scope.
"""
import json
import math
import sys


def rot(r, p, y):
    """The rotation matrix of SDF's roll pitch yaw, row by row."""
    cr, sr, cp, sp, cy, sy = (math.cos(r), math.sin(r), math.cos(p),
                              math.sin(p), math.cos(y), math.sin(y))
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)]
            for i in range(3)]


def tr(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def apply(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    sdf, mj = read(sys.argv[1]), read(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-6
    bodies = {x["body"]: x for x in mj if "mass" in x}
    joints = {x["joint"]: x for x in mj if "joint" in x}
    bad = []

    def near(what, a, b):
        a = a if isinstance(a, list) else [a]
        b = b if isinstance(b, list) else [b]
        if len(a) != len(b) or any(abs(x - y) > tol * max(1, abs(y))
                                   for x, y in zip(a, b)):
            bad.append("%s: %s, want %s" % (what, a, b))

    # a world of one top-level model is written by the robot's own names
    tops = {x["link"].split("::")[0] for x in sdf if "link" in x}
    skip = len(tops.pop()) + 2 if len(tops) == 1 else 0

    nlinks = njoints = 0
    for x in sdf:
        if "link" in x:
            b = bodies.get(x["link"][skip:])
            if not b:
                bad.append("link %s: no body" % x["link"])
                continue
            nlinks += 1
            p = x["pose"]
            near(x["link"] + " mass", b["mass"], x["mass"])
            near(x["link"] + " pos", b["pos"], p[:3])
            near(x["link"] + " rot", b["rot"],
                 sum(rot(*p[3:]), []))
            ip = x["inertial_pose"]
            near(x["link"] + " com", b["com"], ip[:3])
            ir = rot(*ip[3:])
            ten = [[x["ixx"], x["ixy"], x["ixz"]],
                   [x["ixy"], x["iyy"], x["iyz"]],
                   [x["ixz"], x["iyz"], x["izz"]]]
            near(x["link"] + " inertia", b["inertia"],
                 sum(mul(mul(ir, ten), tr(ir)), []))
        elif "joint" in x and x["type"] != "fixed":
            axes = [(x["joint"], x.get("axis"))]
            for name, axis in axes:
                j = joints.get(name[skip:])
                if not j:
                    bad.append("joint %s: no MuJoCo joint" % name)
                    continue
                njoints += 1
                near(name + " anchor", j["anchor"], x["pose"][:3])
                if axis and x["type"] != "ball":
                    n = math.sqrt(sum(c * c for c in axis))
                    near(name + " axis", j["axis"], [c / n for c in axis])
                if x.get("lower") is not None and x["type"] != "ball":
                    limited = x["lower"] > -1e16 or x["upper"] < 1e16
                    if limited != ("range" in j):
                        bad.append("%s: limited %s" % (name, "range" in j))
                    elif limited:
                        near(name + " range", j["range"],
                             [x["lower"], x["upper"]])
                    near(name + " damping", j["damping"], x["damping"])
                    near(name + " frictionloss", j["frictionloss"],
                         x["friction"])
    for s in bad:
        print(s)
    print("%d links, %d joints compared" % (nlinks, njoints),
          file=sys.stderr)
    sys.exit(1 if bad or nlinks == 0 else 0)


main()
