#!/usr/bin/env bash
# Installs the C libraries gestured builds against, if they are missing:
# libevdev, libinput, libudev and libsystemd (sd-bus) development files (Debian/Ubuntu package names).
set -euo pipefail

# scripts/install-deps.sh PACKAGE... installs those instead (e.g. strace for the VM lane).
packages=(libevdev-dev libinput-dev libudev-dev libsystemd-dev pkg-config)
if [ $# -gt 0 ]; then
    packages=("$@")
elif command -v pkg-config >/dev/null && pkg-config --exists libevdev libinput libudev libsystemd; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "error: libevdev, libinput, libudev and libsystemd development files are missing and apt-get is not available;" >&2
    echo "       install them with your distribution's package manager: ${packages[*]}" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo=sudo; else
        echo "error: installing ${packages[*]} needs root (no sudo found)" >&2
        exit 1
    fi
fi
echo "Installing ${packages[*]} ..." >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${packages[@]}" >/dev/null
