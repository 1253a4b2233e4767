#!/bin/sh
# Regenerates docs/designer.png, run-monitor.png, history-detail.png, history-breakdown.png, targets.png, plan.png
# and history-compare.png
# (offscreen, 96 DPI, Fusion, 1440×900).
# Usage: packaging/screenshots.sh [BUILD_DIR]   (default: build/dev; configures and builds if needed)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build/dev"}
[ -f "$build/CMakeCache.txt" ] || cmake --preset dev -B "$build" -S "$root"
cmake --build "$build" --target throughline-screenshots -j2
QT_QPA_PLATFORM=offscreen QT_FONT_DPI=96 "$build/tests/ui/throughline-screenshots" "$root/docs"
