#!/usr/bin/env bash
# scripts/deb-install-test.sh DEB — the package on a clean Debian: a minimal bookworm root made
# with debootstrap (cached as a tarball in ~/.cache/gestured-deb), where apt installs the package
# with its dependencies; then what it installed is checked, and it is removed and purged.
# Needs root (debootstrap, chroot). Prints PASS/FAIL lines; exits 1 on any FAIL.
set -euo pipefail
deb=$(realpath "$1")
[ "$(id -u)" -eq 0 ] || { echo "deb-test: needs root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || "$(dirname "$0")/install-deps.sh" debootstrap
cache=${XDG_CACHE_HOME:-$HOME/.cache}/gestured-deb
base=$cache/bookworm-minbase.tar
work=$(mktemp -d)
root=$work/root
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$cache" "$root"
if [ ! -f "$base" ]; then
    echo "deb-test: making a minimal Debian bookworm root (once; cached in $cache)" >&2
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > "$work/debootstrap.log" 2>&1 \
        || { tail -20 "$work/debootstrap.log"; exit 1; }
    tar -C "$root" -cf "$base.part" . && mv "$base.part" "$base"
else
    tar -C "$root" -xf "$base"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/gestured.deb"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive HOME=/root "$@"; }

passed=0 failed=0
check() {  # check NAME COMMAND...: PASS if the command succeeds in the root
    local name=$1; shift
    if in_root sh -c "$*" > "$work/check.log" 2>&1; then echo "PASS $name"; passed=$((passed + 1)); else
        echo "FAIL $name"; sed 's/^/    /' "$work/check.log"; failed=$((failed + 1))
    fi
}

in_root apt-get update -qq > "$work/apt.log" 2>&1 || { cat "$work/apt.log"; exit 1; }
# man-db and bash-completion to try what a user would; the package's own dependencies come with it.
if in_root apt-get install -y -qq --no-install-recommends /tmp/gestured.deb man-db bash-completion >> "$work/apt.log" 2>&1; then
    echo "PASS installs with apt on a clean bookworm (dependencies: $(in_root dpkg-query -W -f='${Depends}' gestured))"
    passed=1
else
    echo "FAIL installs with apt on a clean bookworm"; tail -30 "$work/apt.log"; exit 1
fi
check "gestured --version runs (no Swift toolchain in the root)" '[ "$(gestured --version)" = 0.1.0 ] && ! command -v swift'
check "the gestured group exists" 'getent group gestured'
check "the udev rule is installed" 'grep -q "g:gestured:r" /usr/lib/udev/rules.d/70-gestured.rules'
check "the udev rule marks the virtual touchpad external (no disable-while-typing, no edge palm zones)" \
    'grep -q "^ATTRS{name}==\"gestured virtual touchpad\", ENV{ID_INPUT_TOUCHPAD_INTEGRATION}=\"external\", ENV{ID_INTEGRATION}=\"external\"" /usr/lib/udev/rules.d/70-gestured.rules'
check "the D-Bus policy is installed, for the gestured group" \
    'grep -q "<policy group=\"gestured\">" /usr/share/dbus-1/system.d/org.gestured.Gestured.conf'
check "the unit is installed with /usr/bin and not enabled" \
    'grep -q "^ExecStart=/usr/bin/gestured run --config /etc/gestured/gestured.yaml --dbus" /usr/lib/systemd/system/gestured.service &&
     ! ls /etc/systemd/system/*.wants/gestured.service 2>/dev/null'
check "the configuration is a conffile and checks" \
    'grep -qx /etc/gestured/gestured.yaml /var/lib/dpkg/info/gestured.conffiles && gestured check-config /etc/gestured/gestured.yaml'
check "man gestured and man gestured-run" \
    'man -P cat gestured 2>/dev/null | grep -q "gestured-run" && man -P cat gestured-run 2>/dev/null | grep -q "gestured run"'
check "bash completes subcommands" \
    '[ "$(bash -c ". /usr/share/bash-completion/bash_completion; . /usr/share/bash-completion/completions/gestured;
       COMP_WORDS=(gestured re); COMP_CWORD=1; COMP_LINE=\"gestured re\"; COMP_POINT=11; _gestured gestured re gestured; echo \${COMPREPLY[*]}")" = "replay record render" ]'
check "zsh and fish completions are installed" \
    'test -s /usr/share/zsh/vendor-completions/_gestured && test -s /usr/share/fish/vendor_completions.d/gestured.fish'
in_root apt-get remove -y -qq gestured > "$work/remove.log" 2>&1 || { cat "$work/remove.log"; failed=$((failed + 1)); }
check "removed: the binary, rule and unit are gone, the configuration stays" \
    '! test -e /usr/bin/gestured && ! test -e /usr/lib/udev/rules.d/70-gestured.rules &&
     ! test -e /usr/share/dbus-1/system.d/org.gestured.Gestured.conf &&
     ! test -e /usr/lib/systemd/system/gestured.service && test -f /etc/gestured/gestured.yaml'
in_root apt-get purge -y -qq gestured > "$work/purge.log" 2>&1 || { cat "$work/purge.log"; failed=$((failed + 1)); }
check "purged: nothing of it is left" '! test -e /etc/gestured && ! dpkg -s gestured >/dev/null 2>&1'
echo "deb-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
