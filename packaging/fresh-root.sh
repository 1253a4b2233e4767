# Sourced by fresh-check.sh and make-rootfs.sh: a fresh Debian 12 (bookworm, minbase) root folder.
# The Debian mirror is read from this machine's apt sources; nothing here names a registry host.

# The first Debian (not -security) URI from the machine's apt sources, deb822 or one-line style.
find_mirror() {
    { grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' || true
      grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' || true
    } | grep -v -- '-security' | grep -i debian | head -n1 || true
}

# fresh_root TOOL ROOT: ROOT becomes a copy of a pristine debootstrap (cached at ROOT.base, made on first
# use), so packages a previous use installed never make a check look better than a new machine; then the
# host's Debian apt sources and resolv.conf are copied in so apt works the same way inside. Unmount
# anything below ROOT before calling.
fresh_root() {
    local tool=$1 root=$2 mirror base f
    mirror=$(find_mirror)
    [ -n "$mirror" ] || { echo "$tool: no Debian mirror found in /etc/apt sources" >&2; exit 2; }
    base="$root.base"
    if [ ! -x "$base/bin/bash" ]; then
        echo "== debootstrap --variant=minbase bookworm from $mirror into $base"
        rm -rf "$base"
        debootstrap --variant=minbase bookworm "$base" "$mirror" >"/tmp/$tool-debootstrap.log" 2>&1 \
            || { tail -20 "/tmp/$tool-debootstrap.log"; exit 3; }
    fi
    rm -rf "$root"
    cp -a "$base" "$root"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && grep -qi debian "$f" && cp "$f" "$root/etc/apt/sources.list.d/"
    done
    [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}
