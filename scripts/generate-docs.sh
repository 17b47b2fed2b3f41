#!/usr/bin/env bash
# scripts/generate-docs.sh BINARY SCRATCH OUT [DATE] — what a package installs beside the binary,
# generated from it: manual pages from the argument parser (gestured.1 and gestured-COMMAND.1,
# by swift-argument-parser's generate-manual tool, tidied for Debian by tidy-manpages.py) in
# OUT/man, and bash, zsh and fish completions in OUT/completions. SCRATCH is the build folder
# the tool is built in; DATE (yyyy-mm-dd) the pages' date (default: today).
set -euo pipefail
binary=$1 scratch=$2 out=$3 date=${4:-$(date -u +%Y-%m-%d)}
SWIFT=${SWIFT:-swift}
mkdir -p "$out/man" "$out/completions"
# The argument parser's generate-manual tool, built by asking its plugin for help (the plugin
# itself would build every product of the package again), then run on the binary.
"$SWIFT" package --scratch-path "$scratch" generate-manual --help > /dev/null
tool=$(find "$scratch" -name generate-manual-tool -type f -perm -u+x | head -n 1)
[ -n "$tool" ] || { echo "generate-docs: swift-argument-parser's generate-manual tool was not built" >&2; exit 1; }
"$tool" "$binary" --multi-page --section 1 --authors "gestured developers" --date "$date" --output-directory "$out/man"
python3 "$(dirname "$0")/tidy-manpages.py" "$out/man"
# Sourced, not run: no #! line.
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$out/completions/gestured"
"$binary" --generate-completion-script zsh > "$out/completions/_gestured"
"$binary" --generate-completion-script fish > "$out/completions/gestured.fish"
