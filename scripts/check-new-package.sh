#!/bin/sh
# A new package on this one, as the README says (examples/FirstApp: a path dependency named
# `gestured`, the Gestures and GestureRuntime products), built from scratch in a temporary
# folder and run on a touchscreen recording tapped at (1200, 40) of its 1280 x 800 layout,
# without a configuration: every tap must reach the button, with no warning. Under a minute on
# 2 cores (it compiles the dependencies it names).
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$repo" "$work/gestured"
cp -R examples/FirstApp "$work/FirstApp"
rm -rf "$work/FirstApp/.build"
recording="$repo/fixtures/variants/Atmel maXTouch Touchscreen.1-finger-fast-taps.top-right.evemu"
cd "$work/FirstApp"
swift build 2>&1 | tail -n 3
out=$(swift run --skip-build FirstApp "$recording")
echo "$out"
taps=$(echo "$out" | grep -c '^save tapped at ' || true)
if [ "$taps" -ne 9 ] || echo "$out" | grep -q '^warning:'; then
    echo "new-package: FAIL: expected the recording's 9 taps on the button and no warning" >&2
    exit 1
fi
echo "new-package: a new package's 1280 x 800 layout got all 9 taps at (1200, 40) from the recording"
