#!/bin/sh
# Install the Debian packages phys needs, only when some are missing.
# Runs apt-get as root, or through sudo.
set -e
pkgs="build-essential pkg-config jq libxml2-dev libjansson-dev libode-dev bats bats-support bats-assert gnuplot-nox time clang libclang-rt-14-dev llvm"
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
