#!/usr/bin/env bash
# MLPerf Endpoints campaigns of real length, live (issue 23; never in CI — about an hour of wall time):
# `throughline-cli run --mlperf` on the built-in simulator, time-scaled, every point's durations counted in
# model time (1,200 s per point, the 1.0 preset's longest minimum). Six campaigns:
#   compliant        a curve C_min 1 / C_max 64 with a dedicated Offline point at the dataset size (64): the
#                    rules' 8 points, whole dataset passes, ≥ 4 super-passes, §4.4 steady state, samples
#                    drawn with replacement — must pass every client-checkable rule (EPR-40 accuracy and
#                    VAL-04 the approved-client list stay blocked: no client can check them);
#   too-few-points   one point per region and the Offline point (5 of the 8 needed): refused before any request, EPR-08;
#   missing-region   no Medium point: refused before any request, EPR-16;
#   short-window     point_duration_s 900: the Ultra Low point passes (600 s), the first Low point fails
#                    EPR-29 and the campaign stops there;
#   no-steady-state  the simulated server slows down steadily (sim.slowdown_per_hour 0.6: +20 % over the first
#                    point): EPR-31 fails there (TPOT drifting up), live, and the campaign stops;
#   few-passes       a request budget of 3 dataset passes per point (+ 1: the last send closes the window):
#                    EPR-30 at the first point (EPR-31 then does not apply);
#   offline-slow     the server slows by 15 % in the middle of the Offline point (the last): EPR-23 at the end.
# Each campaign must fail exactly its rule (the rehearsal none); the script prints each one's point lines,
# its failed rules and PASS/FAIL, and exits non-zero if any campaign does not fail exactly its rule.
# Usage: tests/bench/bench_mlperf_live.sh [--cli build/ci/app/throughline-cli] [--time-scale 20]
#        [--only NAME]   State the machine's load (`uptime`) with the figures.
set -euo pipefail
cli=build/ci/app/throughline-cli
scale=20
only=""
while [ $# -gt 0 ]; do
    case "$1" in
    --cli) cli=$2; shift 2 ;;
    --time-scale) scale=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
cli=$(realpath "$cli")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "uptime: $(uptime)"
echo "time scale $scale; work dir $work"
dataset=64

# campaign FILE PLAN-JSON [SIM-EXTRA]
campaign() {
    cat >"$1" <<JSON
{
  "schema": "throughline.campaign/1",
  "name": "MLPerf live rehearsal",
  "models": ["Llama-3.3-70B-Instruct"], "backends": ["vllm"],
  "deployments": [ { "gpu": "H100", "gpus": 4, "parallelism": "TP4", "precision": "FP8" } ],
  "phases": [ { "name": "Chat", "isl": 128, "osl": 256 } ],
  "endpoints": [ { "name": "sim", "kind": "simulated", "flavour": "chat",
                   "sim": { "time_scale": $scale, "jitter": 0.02, "seed": 5 ${3:-} } } ],
  "plan": $2
}
JSON
}
curve='{ "mode": "curve", "spacing": "mlperf_endpoints", "c_min": 1, "c_max": 64, "request_count": 10000000,
         "warmup_multiplier": 1, "cooldown_s": 0, "min_window_s": 0, "max_duration_s": 100000,
         "request_timeout_s": 600, "seed": 5 POINTEXTRA }'
plan() { echo "${curve/POINTEXTRA/${1:-}}"; }
closed() {
    echo "{ \"mode\": \"closed\", \"concurrencies\": $1, \"request_count\": 10000000, \"warmup_multiplier\": 1,
            \"cooldown_s\": 0, \"min_window_s\": 0, \"max_duration_s\": 100000, \"seed\": 5 }"
}

failures=0
# run NAME EXPECTED-FAILED-RULES(comma list, "" = none) CAMPAIGN-FILE [extra cli args]
run() {
    local name=$1 expected=$2 file=$3
    shift 3
    [ -n "$only" ] && [ "$only" != "$name" ] && return 0
    local dir="$work/$name"
    mkdir -p "$dir"
    local t0
    t0=$(date +%s)
    set +e
    THROUGHLINE_DB="$dir/history.sqlite" "$cli" run "$file" --mlperf --mlperf-dataset-size $dataset \
        --out "$dir/out" "$@" >"$dir/stdout" 2>"$dir/stderr"
    local rc=$?
    set -e
    local wall=$(($(date +%s) - t0))
    local got
    got=$(python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
p = os.path.join(d, "out", "mlperf", "compliance.json")
if os.path.exists(p):
    sc = json.load(open(p))["scenarios"][0]
    print(",".join(sc["failed_rules"]))
else:  # refused before any request: the rules are on stderr
    import re
    err = open(os.path.join(d, "stderr")).read()
    m = re.search(r"can no longer comply: (.*)", err)
    ids = sorted(set(re.findall(r"\b(EPR-\d\d|VAL-\d\d|CLI-\d\d)\b", m.group(1)))) if m else []
    print(",".join(ids))
PY
)
    echo "== $name (exit $rc, ${wall} s wall): failed [${got}], expected [${expected}]"
    grep -E '^  mlperf|^MLPerf' "$dir/stdout" || true
    grep -E 'can no longer comply|not run' "$dir/stderr" | head -3 || true
    if [ "$got" = "$expected" ]; then
        echo "   PASS"
    else
        echo "   FAIL"
        failures=$((failures + 1))
    fi
    if [ -f "$dir/out/mlperf/compliance.json" ]; then
        python3 - "$dir/out/mlperf/compliance.json" <<'PY'
import json, sys
sc = json.load(open(sys.argv[1]))["scenarios"][0]
print("   overall", sc["overall"], "· blocked", ",".join(sc["blocked_rules"]), "· stopped:", sc.get("stopped", ""))
PY
    fi
}

campaign "$work/compliant.json" "$(plan)"
run compliant "" "$work/compliant.json"
# The compliant run's model time places the Offline point's middle for offline-slow: the windows add up to a
# little less than the server's model time (warm-ups and drains between them), so Σ windows − 700 s falls
# inside the last point's 1,200 s window.
model_total=$(python3 - "$work/compliant/out/results.json" 2>/dev/null <<'PY' || echo 0
import json, sys
pts = json.load(open(sys.argv[1]))["scenarios"][0]["points"]
print(int(sum(p["window_s"] for p in pts)))
PY
)

campaign "$work/too-few.json" "$(closed '[1, 4, 8, 64, 64]')"
run too-few-points "EPR-08" "$work/too-few.json"
campaign "$work/missing.json" "$(closed '[1, 2, 3, 4, 5, 40, 64, 64]')"
run missing-region "EPR-16" "$work/missing.json"
campaign "$work/short.json" "$(plan ', "point_duration_s": 900')"
run short-window "EPR-29" "$work/short.json"
campaign "$work/drift.json" "$(plan)" ', "slowdown_per_hour": 0.6'
run no-steady-state "EPR-31" "$work/drift.json"
# 3 passes in the window: the last send closes the window, so the budget is one more.
campaign "$work/passes.json" "$(plan | sed "s/\"request_count\": 10000000/\"request_count\": $((3 * dataset + 1))/")"
run few-passes "EPR-30" "$work/passes.json"
if [ "$model_total" -gt 0 ]; then
    campaign "$work/offline.json" "$(plan)" ", \"slowdown_after_s\": $((model_total - 700)), \"slowdown_factor\": 1.15"
    run offline-slow "EPR-23" "$work/offline.json"
else
    echo "== offline-slow: skipped (the compliant run gave no model time to place the slowdown)"
fi
echo "campaigns not failing exactly their rule: $failures"
exit $((failures > 0))
