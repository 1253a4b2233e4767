#!/usr/bin/env bash
# Builds a root filesystem tarball for running throughline-cli headless on cluster nodes: debootstrap
# minbase bookworm, `apt-get install ./throughline*.deb` inside it, then a smoke test in a chroot
# (`throughline-cli --version`, `validate` and a `run` of the installed demo campaign). Needs root and
# debootstrap. The tarball can be imported as a container image (`docker import ROOTFS.tar.gz`,
# `podman import …`, Enroot/Apptainer from a tarball) — packaging/Dockerfile is the recipe that builds
# the same image with a container engine.
#
#   packaging/make-rootfs.sh DEB [OUT.tar.gz] [SCRATCH_DIR]
#     DEB      the package to install; a headless one (configure with -DTHROUGHLINE_BUILD_GUI=OFF →
#              throughline-cli_VERSION_ARCH.deb) keeps Qt Widgets and X11 libraries out of the image
#     OUT      default: ./throughline-cli-rootfs.tar.gz
#     SCRATCH  default: /var/tmp/throughline-rootfs (a pristine debootstrap is cached at SCRATCH.base)
#
# The Debian mirror is read from this machine's apt sources; nothing here names a registry host.
set -euo pipefail

deb=${1:?usage: make-rootfs.sh DEB [OUT.tar.gz] [SCRATCH_DIR]}
out=${2:-$PWD/throughline-cli-rootfs.tar.gz}
root=${3:-/var/tmp/throughline-rootfs}

[ "$(id -u)" -eq 0 ] || { echo "make-rootfs: must run as root" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "make-rootfs: apt-get install debootstrap" >&2; exit 2; }
[ -f "$deb" ] || { echo "make-rootfs: no such package: $deb" >&2; exit 2; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
# shellcheck source=packaging/fresh-root.sh
. "$(cd "$(dirname "$0")" && pwd)/fresh-root.sh"

cleanup() {
    for m in dev proc; do umount -l "$root/$m" 2>/dev/null || true; done
}
trap cleanup EXIT

cleanup
fresh_root make-rootfs "$root"

mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive bash -c "$1"
}

echo "== apt-get install ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
in_root "apt-get update -qq && apt-get install -y --no-install-recommends ca-certificates ./tmp/$(basename "$deb")" \
    >/tmp/make-rootfs-apt.log 2>&1 || { tail -20 /tmp/make-rootfs-apt.log; exit 3; }
in_root "rm -f /tmp/*.deb && apt-get clean && rm -rf /var/lib/apt/lists/*"
# A non-root user for the job and a history database location that does not depend on HOME.
in_root "useradd --system --create-home --home-dir /work --shell /usr/sbin/nologin throughline"
printf 'THROUGHLINE_DB=/work/history.sqlite\n' >>"$root/etc/environment"

echo "== smoke test in the chroot"
status=0
in_root "throughline-cli --version" || status=$?
in_root "throughline-cli validate /usr/share/throughline/campaigns/demo.json >/dev/null" || status=$?
# The demo campaign runs against the embedded simulator; 0/1/4 are completed runs.
rc=0
in_root "cd /tmp && su -s /bin/sh throughline -c 'THROUGHLINE_DB=/work/history.sqlite throughline-cli run \
    /usr/share/throughline/campaigns/demo.json --out /tmp/demo --no-history' >/tmp/demo.log 2>&1" || rc=$?
case $rc in
    0|1|4)
        if [ -s "$root/tmp/demo/results.json" ]; then
            echo "demo run: exit $rc, results.json written"
        else
            echo "demo run: exit $rc but no results.json" >&2; status=4
        fi ;;
    *) echo "demo run failed (exit $rc):" >&2; tail -n 15 "$root/tmp/demo.log" >&2; status=4 ;;
esac
rm -rf "$root/tmp/demo" "$root/tmp/demo.log"
cleanup
[ "$status" -eq 0 ] || { echo "make-rootfs: smoke test failed; no tarball written" >&2; exit "$status"; }

echo "== tar → $out"
tar --numeric-owner --one-file-system -C "$root" -czf "$out" .
du -h "$out" | awk '{print "make-rootfs: " $2 " (" $1 ")"}'
