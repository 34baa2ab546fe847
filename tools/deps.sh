#!/bin/sh
# Install the Debian packages phys needs, only when some are missing.
# Runs apt-get as root, or through sudo.
set -e
# build: compilers (g++ for the Bullet, Simbody and DART engines),
# pkg-config and the libraries' -dev packages (libbullet-dev: Bullet 3,
# with its double-precision build; libmujoco-dev: MuJoCo 2.2.2;
# libsimbody-dev: Simbody 3.7; libdart-dev: DART 6.12, with its ODE
# collision detector in libdart-collision-ode-dev, and libccd-dev, whose
# penetration of two convex hulls the DART engine asks; libqhull-dev:
# qhull's reentrant library, for meshes that collide as their convex
# hulls)
pkgs="build-essential g++ pkg-config libxml2-dev libjansson-dev libode-dev libqhull-dev libassimp-dev libgdal-dev libbullet-dev libmujoco-dev libsimbody-dev libdart-dev libdart-collision-ode-dev libccd-dev"
# tests: bats, jq to read JSON lines, xmllint to check SDF we write, the shells whose
# completions are checked, mandoc and groff to lint and render the manuals,
# the SDFormat specification the parameter table is checked against,
# strace to count the files a load opens (a mesh used by many links), tmux
# for a real terminal that live plots draw on, file to tell what an image is
pkgs="$pkgs bats bats-support bats-assert jq libxml2-utils zsh fish mandoc groff-base sdformat-sdf strace tmux file"
# tests only: libsdformat (12), the reference the URDF tests compare phys's
# reading of a URDF with (tests/data/sdformat_oracle.cc); nothing of phys
# links it
pkgs="$pkgs libsdformat-dev"
# plots: gnuplot-x11 is gnuplot with every terminal of gnuplot-nox (text,
# PNG, SVG, PDF, sixel) and the window ones (x11, wxt) besides; it replaces
# gnuplot-nox, the two cannot be installed together. libsixel-bin's
# sixel2png decodes the sixel frames a live plot draws on a sixel terminal;
# xvfb is the X server the window test starts, where x11-utils' xwininfo
# finds gnuplot's window and x11-apps' xwd takes pictures of it
pkgs="$pkgs gnuplot-x11 libsixel-bin xvfb x11-utils x11-apps"
# sweeps: phys-sweep hands its run list to GNU parallel (over ssh, so the
# tests start their own sshd on localhost) and to Slurm job arrays (the
# tests start a one-node slurmctld + slurmd; parallel moves files with rsync;
# python3 asks the kernel for free localhost ports for both)
pkgs="$pkgs parallel rsync openssh-server openssh-client slurm-wlm python3"
# fuzzing: clang with its libFuzzer and sanitizer runtimes
pkgs="$pkgs clang libclang-rt-14-dev llvm"
# bench: GNU time for peak memory
pkgs="$pkgs time"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
