#!/usr/bin/env bash
# Renders resources/icons/throughline.svg into the hicolor PNG sizes that are committed beside it and
# installed by cmake/Packaging.cmake. Run after editing the SVG. Needs rsvg-convert (apt: librsvg2-bin).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
svg="$here/resources/icons/throughline.svg"
command -v rsvg-convert >/dev/null || { echo "render-icons: apt-get install librsvg2-bin" >&2; exit 2; }
for n in 16 22 24 32 48 64 128 256; do
    out="$here/resources/icons/hicolor/${n}x${n}/apps/throughline.png"
    mkdir -p "$(dirname "$out")"
    rsvg-convert -w "$n" -h "$n" "$svg" -o "$out"
    echo "render-icons: $out"
done
