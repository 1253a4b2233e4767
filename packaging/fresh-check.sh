#!/usr/bin/env bash
# Proves the README's two set-up commands work on a fresh Debian 12: debootstraps bookworm into a scratch
# folder, clones this checkout (HEAD) into it with shared/ beside it, and runs both commands inside a
# chroot, exactly as the README states them. Prints the tail of each. Needs root and debootstrap.
#
#   packaging/fresh-check.sh [SCRATCH_DIR]     (default: /var/tmp/throughline-fresh)
#   FRESH_CHECK_ONLY=main packaging/fresh-check.sh   (only command (1), e.g. to time the first run)
#
# Each command's wall time is printed with its exit code (the README quotes them).
# The Debian mirror is read from this machine's apt sources; nothing here names a registry host.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/throughline-fresh}
shared="$here/../shared"

[ "$(id -u)" -eq 0 ] || { echo "fresh-check: must run as root" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-check: apt-get install debootstrap" >&2; exit 2; }
# shellcheck source=packaging/fresh-root.sh
. "$here/packaging/fresh-root.sh"

readme_command() { # $1 = marker name; prints the command in the fenced block after <!-- command:NAME -->
    awk -v m="<!-- command:$1 -->" '$0==m{f=1;next} f&&/^```/{if(inb){exit}inb=1;next} f&&inb{print}' "$here/README.md"
}
main_cmd=$(readme_command main)
test_cmd=$(readme_command tests)
[ -n "$main_cmd" ] && [ -n "$test_cmd" ] || { echo "fresh-check: README commands not found" >&2; exit 2; }

cleanup() {
    for m in dev/pts dev proc sys; do umount -l "$root/$m" 2>/dev/null || true; done
}
trap cleanup EXIT

cleanup
fresh_root fresh-check "$root"
# Certificate authorities this machine added itself (e.g. a TLS-inspecting egress proxy) are part of the machine's
# network, not of a fresh install: without them npm (tokenizer fetch tests) fails with SELF_SIGNED_CERT_IN_CHAIN.
extra_ca=
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cat /usr/local/share/ca-certificates/*.crt >"$root/etc/host-extra-ca.pem"
    extra_ca=/etc/host-extra-ca.pem
fi

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"

rm -rf "$root/work"
mkdir -p "$root/work"
git clone -q --no-hardlinks "$here" "$root/work/main"
cp -rL "$shared" "$root/work/shared"  # -L: ../shared may be a symlink; the chroot cannot follow it

# A fresh machine has root, apt, and nothing else of ours: sudo, git, node are what bootstrap must bring.
run_in_chroot() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 CI=true ${extra_ca:+NODE_EXTRA_CA_CERTS=$extra_ca} bash -c "cd /work/main && $1"
}

status=0
check_command() { # $1 = label, $2 = command, $3 = log file
    echo "== README command $1: $2"
    local t0 s=0
    t0=$(date +%s)
    run_in_chroot "$2" >"$3" 2>&1 || s=$?
    local took=$(($(date +%s) - t0))
    echo "-> exit $s after $((took / 60)) min $((took % 60)) s"
    tail -n 25 "$3"
    [ "$s" -eq 0 ] || status=$s
}
check_command "(1)" "$main_cmd" /tmp/fresh-check-main.log
[ "${FRESH_CHECK_ONLY:-}" = main ] || check_command "(2)" "$test_cmd" /tmp/fresh-check-tests.log
exit $status
