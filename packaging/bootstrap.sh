#!/usr/bin/env bash
# Installs every Debian 12 package that building, testing and running the Throughline demo needs.
# Idempotent: installs only what is missing. Runs apt as root, through sudo otherwise, or prints the
# command when neither is possible. Node.js is left alone when `node` >= 18 is already on PATH.
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake ninja-build ccache pkg-config git
    # Qt 6.4 (Core, Network, Widgets, PrintSupport, Svg, Test) and translation tools
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev
    qt6-translations-l10n # qtbase_de.qm: standard buttons and dialogs in German (optional at run time)
    libgl-dev libglx-dev libxkbcommon-dev
    # plotting
    libqcustomplot-dev libqcustomplot2.1-qt6
    # engine, storage, simulator
    libcurl4-openssl-dev libsqlite3-dev sqlite3 nlohmann-json3-dev libboost1.74-dev libssl-dev zlib1g-dev
    libpcre2-dev openssl ca-certificates
    # offscreen text, screenshots, PDF checks
    fonts-dejavu-core xvfb xauth poppler-utils
    # packaging test: cpack .deb (dpkg-shlibdeps, file), lintian, AppStream and desktop-file validators
    dpkg-dev file lintian appstream desktop-file-utils
)

node_ok() {
    command -v node >/dev/null 2>&1 || return 1
    local major
    major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || return 1
    [ "${major:-0}" -ge 18 ]
}
if ! node_ok; then
    packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} packages present"
    exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
echo "bootstrap: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    "${cmd[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive "${cmd[@]}"
else
    echo "bootstrap: run as root:  apt-get update && ${cmd[*]}" >&2
    exit 1
fi
