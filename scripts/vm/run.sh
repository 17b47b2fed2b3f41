#!/usr/bin/env bash
# scripts/vm/run.sh OUTDIR 'COMMAND' — run COMMAND as root inside a throw-away QEMU VM with
# Debian's stock kernel (evdev + uinput as modules) and systemd-udevd, for tests that need a
# real kernel: virtual devices, udev, libinput.
#
# The guest sees this machine's / read-only (virtio-9p) under a tmpfs overlay, so every tool and
# build here is usable there; COMMAND runs in the current directory. OUTDIR is shared
# read-write at the same path ($VM_OUT in the guest) and receives the guest console
# (vm-console.log). The exit status is COMMAND's; 125 means the VM never reported one.
#
# First run: installs qemu-system-x86 and busybox-static if missing (apt-get), downloads the
# kernel package (~70 MB) and builds a small initramfs, cached in $GESTURED_VM_CACHE
# (default ~/.cache/gestured-vm). Under software emulation a boot takes about 10 s.
#
# Knobs: GESTURED_VM_CACHE, GESTURED_VM_MEMORY (MiB, 2048), GESTURED_VM_CPUS (nproc),
#        GESTURED_VM_TIMEOUT (seconds, 1200).
set -euo pipefail

if [ $# -ne 2 ]; then echo "usage: $0 OUTDIR 'COMMAND'" >&2; exit 2; fi
out_dir=$(mkdir -p "$1" && cd "$1" && pwd)
command_text=$2
cache=${GESTURED_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gestured-vm}
memory=${GESTURED_VM_MEMORY:-2048}
cpus=${GESTURED_VM_CPUS:-$(nproc)}
limit=${GESTURED_VM_TIMEOUT:-1200}
# Modules the guest loads, dependencies first: virtio transport, 9p, overlayfs, input.
modules="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay evdev uinput"

say() { echo "[vm] $*" >&2; }
die() { echo "[vm] error: $*" >&2; exit 125; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

ensure_host_packages() {
    local missing=()
    command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
    [ -x /bin/busybox ] && file_is_static /bin/busybox || missing+=(busybox-static)
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed (no network?)"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || die "could not install ${missing[*]}"
    fi
}

file_is_static() { ! ldd "$1" >/dev/null 2>&1; }

build_cache() {
    say "preparing the kernel and initramfs in $cache"
    mkdir -p "$cache"
    local work
    work=$(mktemp -d "$cache/build.XXXXXX")
    # Debian's generic kernel: linux-image-amd64 names the versioned package. (The -cloud
    # flavour has no uinput.)
    local kernel
    kernel=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    [ -n "$kernel" ] || { as_root apt-get update -qq; kernel=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'); }
    [ -n "$kernel" ] || die "cannot find Debian's kernel package (apt-cache depends linux-image-amd64)"
    (cd "$work" && apt-get download -q -o APT::Sandbox::User=root "$kernel" >/dev/null) || die "cannot download $kernel (no network?)"
    mkdir -p "$work/kernel" "$work/root/bin" "$work/root/modules"
    local patterns="*/vmlinuz-*"
    for m in $modules; do patterns="$patterns */$m.ko"; done
    # shellcheck disable=SC2086
    dpkg-deb --fsys-tarfile "$work/$kernel"_*.deb | tar -x -C "$work/kernel" --wildcards $patterns
    cp "$work"/kernel/boot/vmlinuz-* "$work/vmlinuz"
    for m in $modules; do find "$work/kernel" -name "$m.ko" -exec cp {} "$work/root/modules/" \; ; done
    echo "$modules" > "$work/root/modules/order"
    cp /bin/busybox "$work/root/bin/busybox"
    if [ ! -x /lib/systemd/systemd-udevd ]; then
        say "this machine has no systemd-udevd: taking Debian's udev package into the initramfs"
        (cd "$work" && apt-get download -q -o APT::Sandbox::User=root udev >/dev/null) || die "cannot download udev"
        dpkg-deb -x "$work"/udev_*.deb "$work/root/udev"
        cp -n /usr/lib/udev/hwdb.d/* "$work/root/udev/lib/udev/hwdb.d/" 2>/dev/null || true
        "$work/root/udev/bin/systemd-hwdb" update --root="$work/root/udev" --usr
        rm -rf "$work/root/udev/lib/udev/hwdb.d" "$work/root/udev/usr/share" "$work/root/udev/etc/init.d"
        local d
        for d in bin sbin lib; do  # into this machine's merged /usr layout
            if [ -d "$work/root/udev/$d" ]; then
                mkdir -p "$work/root/udev/usr/$d"
                cp -a "$work/root/udev/$d/." "$work/root/udev/usr/$d/"
                rm -rf "${work:?}/root/udev/$d"
            fi
        done
    fi
    # Stage 1, PID 1 in the initramfs: modules, the overlay root, then switch_root (udevadm
    # will not act in a chroot).
    cat > "$work/root/init" <<'STAGE1'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /lower /rw /root
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $(cat /modules/order); do insmod /modules/$m.ko || echo "[vm] insmod $m failed"; done
opts="trans=virtio,version=9p2000.L,msize=512000"
mount -t 9p -o $opts,cache=loose,ro host /lower
mount -t tmpfs -o size=75% tmpfs /rw && mkdir /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /root
[ -d /udev ] && cp -a /udev/usr /udev/etc /root/
for fs in proc sys dev; do mount --move /$fs /root/$fs; done
mkdir -p /root/dev/pts /root/dev/shm /root/ctl
mount -t devpts devpts /root/dev/pts; mount -t tmpfs tmpfs /root/dev/shm; mount -t tmpfs tmpfs /root/run
mount -t 9p -o $opts control /root/ctl
. /root/ctl/env
mkdir -p "/root$OUT" && mount -t 9p -o $opts out "/root$OUT"
cp /stage2 /root/run/stage2; cp /bin/busybox /root/run/busybox
exec switch_root /root /bin/sh /run/stage2
STAGE1
    # Stage 2, PID 1 in the real root: udevd, the command, power off.
    cat > "$work/root/stage2" <<'STAGE2'
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
. /ctl/env
echo "[vm] up after $(cut -d' ' -f1 /proc/uptime) s; starting udevd"
/lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add --type=subsystems
udevadm trigger --action=add --type=devices
udevadm settle --timeout=30
echo "[vm] running the command at $(cut -d' ' -f1 /proc/uptime) s"
HOME=/root TERM=dumb LANG=C.UTF-8 VM_OUT=$OUT bash /ctl/command.sh </dev/null
status=$?
echo "[vm] the command exited $status"
echo $status > /ctl/status
sync; umount "$OUT" /ctl
exec /run/busybox poweroff -f
STAGE2
    chmod +x "$work/root/init"
    (cd "$work/root" && find . | /bin/busybox cpio -o -H newc 2>/dev/null | gzip -1 > "$work/initramfs.gz")
    mv "$work/vmlinuz" "$cache/vmlinuz"
    mv "$work/initramfs.gz" "$cache/initramfs.gz"
    rm -rf "$work"
}

ensure_host_packages
[ -f "$cache/vmlinuz" ] && [ -f "$cache/initramfs.gz" ] || build_cache

control=$(mktemp -d /tmp/gestured-vm.XXXXXX)
trap 'rm -rf "$control"' EXIT
printf 'OUT=%q\n' "$out_dir" > "$control/env"
printf 'cd %q || exit 125\n%s\n' "$PWD" "$command_text" > "$control/command.sh"

# KVM only when the CPU really offers it; some sandboxes have a /dev/kvm that cannot run a
# stock kernel.
if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then accel=kvm; cpu=host; else accel=tcg,thread=multi; cpu=max; fi
say "booting ($accel, $cpus cpus, $memory MiB)"
started=$(date +%s)
set +e
timeout "$limit" qemu-system-x86_64 -nodefaults -no-user-config -nographic -no-reboot \
    -accel "$accel" -cpu "$cpu" -smp "$cpus" -m "$memory" \
    -kernel "$cache/vmlinuz" -initrd "$cache/initramfs.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1" -serial stdio \
    -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$control",mount_tag=control,security_model=none \
    -virtfs local,path="$out_dir",mount_tag=out,security_model=none \
    </dev/null 2>&1 | sed -u 's/\r//g' > "$out_dir/vm-console.log"
set -e
say "finished in $(( $(date +%s) - started )) s; console in $out_dir/vm-console.log"
[ -f "$control/status" ] || { tail -20 "$out_dir/vm-console.log" >&2; die "the VM never reported an exit status (timeout or crash)"; }
exit "$(cat "$control/status")"
