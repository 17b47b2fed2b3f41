#!/bin/sh
# Every ```swift block of README.md, docs/ and the DocC catalogs must compile as printed: each
# block is type-checked on its own, as a program's main file, against this package's modules
# (the debug build `make unit` made). Prints one line per block; exits 1 if any fails.
set -eu
cd "$(dirname "$0")/.."
modules=.build/debug/Modules
[ -d "$modules" ] || { echo "doc-examples: $modules is missing: run swift build --build-tests first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" README.md $(find docs Sources -name '*.md' | sort) <<'PY'
import os, re, sys
work, files = sys.argv[1], sys.argv[2:]
n = 0
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    block, start = None, 0
    for i, line in enumerate(lines, 1):
        if block is None and line.strip() == "```swift":
            block, start = [], i + 1
        elif block is not None and line.strip() == "```":
            n += 1
            name = f"{n:03d}"
            with open(os.path.join(work, name + ".swift"), "w") as f:
                f.write("\n".join(block) + "\n")
            with open(os.path.join(work, name + ".where"), "w") as f:
                f.write(f"{path}:{start}")
            block = None
        elif block is not None:
            block.append(line)
PY
flags="-typecheck -swift-version 6 -I $modules"
# The C modules: this package's shims, and those of its dependencies (Yams' CYaml).
for map in Sources/*/C*/module.modulemap $(find .build/checkouts -path '*/Sources/C*/module.modulemap' -o -path '*/Sources/C*/include/module.modulemap' 2>/dev/null); do
    flags="$flags -Xcc -fmodule-map-file=$map"
done
for f in $(pkg-config --cflags-only-I libevdev libinput); do flags="$flags -Xcc $f"; done
passed=0
failed=0
for file in "$work"/*.swift; do
    [ -e "$file" ] || continue
    where=$(cat "${file%.swift}.where")
    # The examples read files relative to the repository, as the README runs them.
    if out=$(swiftc $flags "$file" 2>&1); then
        passed=$((passed + 1))
        echo "ok   $where"
    else
        failed=$((failed + 1))
        echo "FAIL $where"
        echo "$out" | sed "s|$file|$where (block line)|" | head -20
    fi
done
echo "doc-examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
