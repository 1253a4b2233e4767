#!/usr/bin/env bash
# Long MLPerf campaign, memory held flat (issue 23, never in CI): throughline-cli run --mlperf on the built-in
# simulator, a closed-loop curve of 7 points (C = 1 4 8 20 40 50 64: Ultra Low, Low, Medium, High × 4 for
# C_min 1 / C_max 64) whose model time adds up to about --model-hours (default 3) at --time-scale (default 20:
# 3 h of model time in 9 min of wall time). Samples the CLI's VmRSS and RssAnon every second; prints both when
# the first point finished (the first "mlperf … C=" line), the highest after it and the ratio (goal ≤ 1.10),
# the requests of the first and the last point (the budget is request_multiplier × C: the last point is 64
# times the first, and a point's records and its finish are held while it runs), plus the history file's
# growth per 1M requests. The budget's multiplier is derived from a short calibration run's windows so the
# points' model time adds up to model-hours.
# The simulator runs in a child process (sim.child_process) so the figures are the CLI's own memory, not the
# simulated server's (its KV prefix cache alone grows to ~30 MiB in process); --sim-in-process measures both
# together as before.
# Then the app: bench_app_rss (tests/bench/bench_app_rss.cpp, the real Run page offscreen, recorded into its
# own history) runs the same campaign without the MLPerf switch (the app stops a scenario that can no
# longer comply; the CLI here goes on) and prints the same figures; --no-app skips it.
# Usage: tests/bench/bench_mlperf_rss.sh [--cli build/ci/app/throughline-cli] [--model-hours H]
#        [--time-scale S] [--osl N] [--sim-in-process] [--app build/ci/tests/bench/bench_app_rss] [--no-app]
# throughline-sim must be next to the CLI (cmake --build build/ci --target throughline-sim; bench_app_rss
# needs -DTHROUGHLINE_BUILD_BENCH=ON).
# State the machine's load (`uptime`) with the figures.
set -euo pipefail
cli=build/ci/app/throughline-cli
hours=3
scale=20
osl=128
child=true
app=build/ci/tests/bench/bench_app_rss
while [ $# -gt 0 ]; do
    case "$1" in
    --cli) cli=$2; shift 2 ;;
    --model-hours) hours=$2; shift 2 ;;
    --time-scale) scale=$2; shift 2 ;;
    --osl) osl=$2; shift 2 ;;
    --sim-in-process) child=false; shift ;;
    --app) app=$2; shift 2 ;;
    --no-app) app=; shift ;;
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
                   "sim": { "time_scale": $scale, "jitter": 0.02, "seed": 5, "child_process": $child } } ],
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
firstAnon=0
max=0
maxAnon=0
status() { # VmRSS and RssAnon of the CLI in kB ("0 0" once it has exited)
    awk '/^VmRSS/ {r = $2} /^RssAnon/ {a = $2} END {print r + 0, a + 0}' /proc/$pid/status 2>/dev/null || echo 0 0
}
while kill -0 $pid 2>/dev/null; do
    read -r rss anon < <(status)
    if [ "$first" = 0 ] && grep -q '^  mlperf .* C=' "$work/stdout"; then
        first=$rss
        firstAnon=$anon
        echo "after the first point: RSS $first kB, anonymous $firstAnon kB ($(($(date +%s) - start)) s)"
    elif [ "$first" != 0 ]; then
        [ "${rss:-0}" -gt "$max" ] && max=$rss
        [ "${anon:-0}" -gt "$maxAnon" ] && maxAnon=$anon
    fi
    sleep 1
done
wait $pid || echo "run exit code $? (non-compliant durations are expected only if the calibration was short)"
wall=$(($(date +%s) - start))
grep '^  mlperf' "$work/stdout" || true
python3 - "$work/out/results.json" "$work/history.sqlite" "$first" "$max" "$wall" "$firstAnon" "$maxAnon" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
pts = r["scenarios"][0]["points"]
model_s = sum(p["window_s"] for p in pts)
reqs = sum(p.get("n_sent", 0) for p in pts)
first, mx, wall, first_anon, max_anon = (int(a) for a in sys.argv[3:8])
size = os.path.getsize(sys.argv[2])
ratio = lambda a, b: a / b if b else float("nan")
print(f"model time {model_s / 3600:.2f} h in {wall} s wall, {reqs} requests "
      f"(first point {pts[0].get('n_sent', 0)}, last point {pts[-1].get('n_sent', 0)} measured)")
print(f"CLI RSS after the first point {first / 1024:.1f} MiB, highest after it {mx / 1024:.1f} MiB, "
      f"ratio {ratio(mx, first):.3f} (goal <= 1.10)")
print(f"CLI anonymous RSS after the first point {first_anon / 1024:.1f} MiB, highest after it "
      f"{max_anon / 1024:.1f} MiB, ratio {ratio(max_anon, first_anon):.3f}")
print(f"history file {size / 2**20:.1f} MiB: {size / 2**20 / reqs * 1e6:.0f} MiB per 1M requests")
PY
if [ -n "$app" ]; then
    if [ -x "$app" ]; then
        echo "app (bench_app_rss, same campaign, MLPerf switch off):"
        PATH="$(dirname "$cli"):$PATH" "$app" "$work/long.json" "$work/app-history.sqlite" 2>"$work/app-stderr" |
            grep -v '^\[app\] point '
    else
        echo "app: $app not built (cmake -DTHROUGHLINE_BUILD_BENCH=ON, target bench_app_rss)"
    fi
fi
