#!/usr/bin/env python3
"""scripts/tidy-manpages.py DIR — makes the pages swift-argument-parser's generate-manual wrote
into DIR follow Debian's conventions, in place:

- a subcommand's page is gestured-run.1 (not gestured.run.1), its NAME entry one word
  (`gestured-run`, which whatis/apropos can index), its synopsis still `gestured run`;
- the cross references follow the new names;
- in the descriptions, a blank line is a paragraph break (.Pp) and the indented example lines
  are a literal display, as they read in --help.
"""
import os
import re
import sys

directory = sys.argv[1]
pages = sorted(f for f in os.listdir(directory) if re.fullmatch(r"gestured(\.[a-z-]+)?\.1", f))
for page in pages:
    path = os.path.join(directory, page)
    lines = open(path, encoding="utf-8").read().split("\n")
    sub = re.fullmatch(r"gestured\.([a-z-]+)\.1", page)
    out = []
    in_name = in_synopsis = in_description = in_literal = False
    for line in lines:
        if line.startswith(".Sh "):
            if in_literal:
                out.append(".Ed")
                in_literal = False
            in_name = line == ".Sh NAME"
            in_synopsis = line == ".Sh SYNOPSIS"
            in_description = line == ".Sh DESCRIPTION"
        elif line.startswith(".Bl ") and in_literal:
            out.append(".Ed")
            in_literal = False
        if sub:
            command = sub.group(1)
            if line.startswith(".Dt "):
                line = f".Dt GESTURED-{command.upper()} 1"
            elif in_name and line.startswith(".Nm "):
                line = f".Nm gestured-{command}"
            elif in_synopsis and line == ".Nm":
                line = f'.Nm "gestured {command}"'
        line = re.sub(r"^\.Xr gestured\.([a-z-]+) 1", r".Xr gestured-\1 1", line)
        if in_description and not line.startswith("."):
            if line.startswith("  "):
                if not in_literal:
                    out.append(".Bd -literal -offset indent")
                    in_literal = True
                line = line[2:]
            elif in_literal:
                out.append(".Ed")
                in_literal = False
            if line == "" and not in_literal:
                line = ".Pp"
        out.append(line)
    text = "\n".join(out)
    os.remove(path)
    name = f"gestured-{sub.group(1)}.1" if sub else page
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write(text)
