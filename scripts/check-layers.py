#!/usr/bin/env python3
"""scripts/check-layers.py — the layers of Sources/ hold, and no public property carries
@exclusivity(unchecked) (ARCHITECTURE.md says why): a module imports only modules of its
own layer and those before it (Package.swift's header and ARCHITECTURE.md say which is which):
1-Shims, 2-Events, 3-Core, 4-Runtime, 5-Service, 6-Commands, then Testing and Tools, which may
import any product layer but not each other's kits into the product. So the shipped binary links
no test kit (`gestured synth`'s grammar is TouchScripts', not GestureTesting's), and the core
imports no runtime. Prints FILE:LINE: what is wrong for each import that breaks it; exit 1 then."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ORDER = {"1-Shims": 1, "2-Events": 2, "3-Core": 3, "4-Runtime": 4, "5-Service": 5, "6-Commands": 6,
         "Testing": 7, "Tools": 8}


def modules():
    """Each package module under Sources/ and its layer, from the folders Package.swift names."""
    found = {}
    sources = os.path.join(ROOT, "Sources")
    for layer in sorted(os.listdir(sources)):
        if layer not in ORDER:
            continue
        for name in os.listdir(os.path.join(sources, layer)):
            if os.path.isdir(os.path.join(sources, layer, name)):
                found[name] = (layer, ORDER[layer])
    return found


def main():
    known = modules()
    errors = []
    pattern = re.compile(r"^\s*(?:@_exported\s+|@testable\s+|(?:public|package|internal)\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
    for module, (layer, rank) in sorted(known.items()):
        folder = os.path.join(ROOT, "Sources", layer, module)
        for dirpath, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(dirpath, file)
                for number, line in enumerate(open(path, encoding="utf-8"), 1):
                    match = pattern.match(line)
                    if not match or match.group(1) not in known or match.group(1) == module:
                        continue
                    other_layer, other_rank = known[match.group(1)]
                    # Testing and Tools are no product layer: the product imports neither; a
                    # tool may import the test kit, a test kit no tool.
                    allowed = other_rank <= rank and not (rank == 7 and other_rank == 8)
                    if other_rank == 7 and rank <= 6:
                        allowed = False
                    if not allowed:
                        where = os.path.relpath(path, ROOT)
                        errors.append(f"{where}:{number}: {module} ({layer}) imports {match.group(1)} ({other_layer}), "
                                      f"a later layer")
    # No unchecked exclusivity on public API (ARCHITECTURE.md: "One thread, never re-entered").
    public_unchecked = re.compile(r"@exclusivity\(unchecked\)\s+(?:\w+\s+)*?(?:public|open)\b")
    for module, (layer, rank) in sorted(known.items()):
        for dirpath, _, files in os.walk(os.path.join(ROOT, "Sources", layer, module)):
            for file in sorted(files):
                if file.endswith(".swift"):
                    path = os.path.join(dirpath, file)
                    for number, line in enumerate(open(path, encoding="utf-8"), 1):
                        if public_unchecked.search(line):
                            errors.append(f"{os.path.relpath(path, ROOT)}:{number}: a public property with unchecked exclusivity "
                                          "(make it computed over a private stored one that carries it)")
    # What each product module depends on in Package.swift is linked, imported or not.
    manifest = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    target = re.compile(r'\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)",\s*dependencies:\s*\[(.*?)\]\s*,\s*(?:path|exclude|resources|swiftSettings|linkerSettings)', re.S)
    for match in target.finditer(manifest):
        name, deps = match.group(1), match.group(2)
        if name not in known:
            continue
        line = manifest.count("\n", 0, match.start()) + 1
        for dep in re.findall(r'"([A-Za-z_][A-Za-z0-9_-]*)"', deps):
            if dep in known and known[name][1] <= 6 and known[dep][1] > known[name][1]:
                errors.append(f"Package.swift:{line}: {name} ({known[name][0]}) depends on {dep} ({known[dep][0]}), a later layer")
    for error in errors:
        print(error)
    if errors:
        print(f"check-layers: {len(errors)} problem(s) (scripts/check-layers.py says the rules)")
        return 1
    print(f"check-layers: {len(known)} modules, every import from its own layer or an earlier one; no unchecked public property")
    return 0


if __name__ == "__main__":
    sys.exit(main())
