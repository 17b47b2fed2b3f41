#!/usr/bin/env python3
"""scripts/check-links.py [FILE...] — every relative link of the documentation resolves.

Checks README.md, ARCHITECTURE.md and docs/*.md (or the files given): each Markdown link or
image `[text](target)` whose target is not a URL must name an existing file or folder
(relative to the page), and a `#anchor`, in that page or in another Markdown page, must be the
GitHub-style slug of one of its headings. Links inside code (fenced blocks and `inline code`)
are not links. Prints FILE:LINE: what is wrong for each broken link; exits 1 if there is one.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target), the target up to the first space or closing parenthesis
# (a title after a space is allowed); text may hold nested brackets one level deep.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")


def slug(text):
    """GitHub's anchor for a heading: its rendered text, lower case, without punctuation but
    hyphens and underscores, spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link reads as its text
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)  # emphasis markers
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def lines_outside_code(path):
    """(line number, text) of every line outside fenced code blocks."""
    inside = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = FENCE.match(line)
            if match:
                if inside is None:
                    inside = match.group(1)
                elif match.group(1) == inside:
                    inside = None
                continue
            if inside is None:
                yield number, line.rstrip("\n")


_anchors = {}


def anchors(path):
    """The anchors of a Markdown file's headings, with GitHub's -1, -2 … for repeats."""
    if path not in _anchors:
        seen = {}
        result = set()
        for _, line in lines_outside_code(path):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
        _anchors[path] = result
    return _anchors[path]


def check(path):
    problems = []
    shown = os.path.relpath(path, ROOT)
    for number, line in lines_outside_code(path):
        text = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
        for match in LINK.finditer(text):
            target = match.group(1)
            if not target or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # a URL (https:, mailto:) is not checked
            file_part, _, anchor = target.partition("#")
            if file_part:
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(resolved):
                    problems.append(f"{shown}:{number}: {target}: no such file {os.path.relpath(resolved, ROOT)}")
                    continue
            else:
                resolved = path
            if anchor:
                if not resolved.endswith(".md") or os.path.isdir(resolved):
                    problems.append(f"{shown}:{number}: {target}: an anchor into a file that is not Markdown")
                elif anchor not in anchors(resolved):
                    problems.append(f"{shown}:{number}: {target}: {os.path.relpath(resolved, ROOT)} has no heading #{anchor}")
    return problems


def main(argv):
    if argv:
        files = [os.path.abspath(f) for f in argv]
    else:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "ARCHITECTURE.md")]
        files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    problems = []
    checked = 0
    for path in files:
        if not os.path.exists(path):
            problems.append(f"{os.path.relpath(path, ROOT)}: no such file")
            continue
        checked += 1
        problems += check(path)
    for problem in problems:
        print(problem)
    print(f"check-links: {checked} files, {len(problems)} broken link{'s' if len(problems) != 1 else ''}",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
