#!/usr/bin/env bash
# Long MLPerf campaign, memory held flat (issue 23, never in CI): throughline-cli run --mlperf on the built-in
# simulator, a closed-loop curve of 7 points (C = 1 4 8 20 40 50 64: Ultra Low, Low, Medium, High × 4 for
# C_min 1 / C_max 64) whose model time adds up to about --model-hours (default 3) at --time-scale (default 20:
# 3 h of model time in 9 min of wall time). Samples the CLI's VmRSS every second; prints its RSS when the
# first point finished (the first "mlperf … C=" line), the highest RSS after it and the ratio (goal ≤ 1.10),
# plus the history file's growth per 1M requests. The budget per point is request_multiplier × C requests;
# the multiplier is derived from a short calibration run's mean E2E so each point lasts model-hours / 7.
# Usage: tests/bench/bench_mlperf_rss.sh [--cli build/ci/app/throughline-cli] [--model-hours H]
#        [--time-scale S] [--osl N]
# State the machine's load (`uptime`) with the figures.
set -euo pipefail
cli=build/ci/app/throughline-cli
hours=3
scale=20
osl=128
while [ $# -gt 0 ]; do
    case "$1" in
    --cli) cli=$2; shift 2 ;;
    --model-hours) hours=$2; shift 2 ;;
    --time-scale) scale=$2; shift 2 ;;
    --osl) osl=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "uptime: $(uptime)"
campaign() { # file, request_multiplier
    cat >"$1" <<EOF
{
  "schema": "throughline.campaign/1",
  "name": "MLPerf long run",
  "models": ["gpt-oss-20b"], "backends": ["vllm"],
  "deployments": [ { "gpu": "H200", "gpus": 1, "parallelism": "TP1", "precision": "FP8" } ],
  "phases": [ { "name": "Long", "isl": 512, "osl": $osl } ],
  "endpoints": [ { "name": "sim", "kind": "simulated", "flavour": "chat",
                   "sim": { "time_scale": $scale, "jitter": 0.02, "seed": 5 } } ],
  "plan": { "mode": "closed", "concurrencies": [1, 4, 8, 20, 40, 50, 64], "request_multiplier": $2,
            "warmup_multiplier": 1, "cooldown_s": 0, "min_window_s": 0, "max_duration_s": 100000,
            "request_timeout_s": 600, "seed": 5 }
}
EOF
}
# Calibration: 3 requests per slot, its windows give model seconds per request round at each C.
campaign "$work/cal.json" 3
THROUGHLINE_DB="$work/cal.sqlite" "$cli" run "$work/cal.json" --no-history --out "$work/cal" >/dev/null 2>&1 || true
mult=$(python3 - "$work/cal/results.json" "$hours" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
pts = r["scenarios"][0]["points"]
per_round = sum(p["window_s"] / 3 for p in pts)  # model s per request round, summed over the 7 points
print(max(3, round(float(sys.argv[2]) * 3600 / per_round)))
PY
)
echo "request_multiplier $mult (calibrated for $hours h of model time at time scale $scale)"
campaign "$work/long.json" "$mult"
export THROUGHLINE_DB="$work/history.sqlite"
start=$(date +%s)
"$cli" run "$work/long.json" --mlperf --mlperf-continue --out "$work/out" >"$work/stdout" 2>"$work/stderr" &
pid=$!
first=0
max=0
while kill -0 $pid 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
    if [ "$first" = 0 ] && grep -q '^  mlperf .* C=' "$work/stdout"; then
        first=$rss
        echo "after the first point: RSS $first kB ($(($(date +%s) - start)) s)"
    elif [ "$first" != 0 ] && [ "${rss:-0}" -gt "$max" ]; then
        max=$rss
    fi
    sleep 1
done
wait $pid || echo "run exit code $? (non-compliant durations are expected only if the calibration was short)"
wall=$(($(date +%s) - start))
grep '^  mlperf' "$work/stdout" || true
python3 - "$work/out/results.json" "$work/history.sqlite" "$first" "$max" "$wall" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
pts = r["scenarios"][0]["points"]
model_s = sum(p["window_s"] for p in pts)
reqs = sum(p.get("n_sent", 0) for p in pts)
first, mx, wall = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
size = os.path.getsize(sys.argv[2])
print(f"model time {model_s / 3600:.2f} h in {wall} s wall, {reqs} requests")
print(f"CLI RSS after the first point {first / 1024:.1f} MiB, highest after it {mx / 1024:.1f} MiB, "
      f"ratio {mx / first if first else float('nan'):.3f} (goal <= 1.10)")
print(f"history file {size / 2**20:.1f} MiB: {size / 2**20 / reqs * 1e6:.0f} MiB per 1M requests")
PY
