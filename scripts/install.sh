#!/usr/bin/env bash
# scripts/install.sh DESTDIR PREFIX SYSCONFDIR — `make install`: what the Debian package
# installs, for systems without dpkg, from the release build (.build-release). It creates no
# group and enables nothing: the README's "Installing the service" says what to do next.
set -euo pipefail
cd "$(dirname "$0")/.."
destdir=$1 prefix=$2 sysconfdir=$3
binary=.build-release/release/gestured
[ -x "$binary" ] || { echo "install: $binary is missing: run make release first" >&2; exit 1; }
generated=.build-release/generated
scripts/generate-docs.sh "$binary" .build-release "$generated"
root=$destdir$prefix
install -D -m 755 "$binary" "$root/bin/gestured"
install -d "$root/share/man/man1"
install -m 644 "$generated"/man/*.1 "$root/share/man/man1/"
install -D -m 644 "$generated/completions/gestured" "$root/share/bash-completion/completions/gestured"
install -D -m 644 "$generated/completions/_gestured" "$root/share/zsh/site-functions/_gestured"
install -D -m 644 "$generated/completions/gestured.fish" "$root/share/fish/vendor_completions.d/gestured.fish"
# udev reads /usr/lib/udev/rules.d and /etc/udev/rules.d, never /usr/local.
if [ "$prefix" = /usr ]; then rules=$root/lib/udev/rules.d; else rules=$destdir$sysconfdir/udev/rules.d; fi
install -D -m 644 udev/70-gestured.rules "$rules/70-gestured.rules"
sed -e "s|/usr/local/bin/gestured|$prefix/bin/gestured|g" -e "s|/etc/gestured/|$sysconfdir/gestured/|g" \
    udev/gestured.service > "$generated/gestured.service"
install -D -m 644 "$generated/gestured.service" "$root/lib/systemd/system/gestured.service"
# dbus-daemon reads /usr/share/dbus-1/system.d and /etc/dbus-1/system.d, never /usr/local.
if [ "$prefix" = /usr ]; then policy=$root/share/dbus-1/system.d; else policy=$destdir$sysconfdir/dbus-1/system.d; fi
install -D -m 644 dbus/org.gestured.Gestured.conf "$policy/org.gestured.Gestured.conf"
install -D -m 644 README.md "$root/share/doc/gestured/README.md"
for page in ARCHITECTURE.md docs/*.md; do install -D -m 644 "$page" "$root/share/doc/gestured/$(basename "$page")"; done
install -D -m 644 examples/kiosk.yaml "$root/share/doc/gestured/examples/kiosk.yaml"
install -D -m 644 examples/desktop.yaml "$root/share/doc/gestured/examples/desktop.yaml"
if [ ! -e "$destdir$sysconfdir/gestured/gestured.yaml" ]; then
    install -D -m 644 debian/gestured.yaml "$destdir$sysconfdir/gestured/gestured.yaml"
fi
echo "installed under $destdir$prefix (configuration: $destdir$sysconfdir/gestured/gestured.yaml)"
