#!/usr/bin/env bash
# The vllm-bench overhead protocol (issue 25, never in CI), as the Rust vllm-bench publishes it: a mock
# server with a fixed 50 ms TTFT and 10 ms ITL, 100 output tokens, concurrency 1, 10, 100, 500, 1,000, three
# trials each. Here the mock is throughline-sim's fixed-latency mode (--fixed-ttft-ms 50 --fixed-itl-ms 10,
# docs/simulator.md) writing its ground truth (the actual write time of every token), pinned to one core;
# throughline-cli runs a closed loop at C on the other (completions, ISL 128 / OSL 100 forced, max(30, 3 C)
# requests, no warm-up, time scale 1) and writes its bundle (run.tlrun: every request's SSE events with their
# read times). tests/bench/vllmbench_join.py joins the two per request (X-Request-Id = run id-seq) and per
# token, and prints per trial, then per C as the trials' medians:
#   TTFT error  = client TTFT − true TTFT, true TTFT = the first token's write − the client's send, on one
#                 CLOCK_MONOTONIC clock: the client's run-relative times are put on the simulator's clock by
#                 the tightest offset no event contradicts (no token read before it was written; see the
#                 helper), so the error is the first token's read delay, understated by at most the
#                 smallest loopback delay of the run (its bound is printed as "align ≤ … µs");
#                 mean, p50, p99 over requests; also mean client TTFT − 50 ms (against the nominal, as a
#                 mock without ground truth can only be judged);
#   ITL σ       = standard deviation over every token after the first of (measured gap − written gap):
#                 (its read − the previous token's read) − (its write − the previous token's write); needs
#                 no clock alignment.
# Usage: tests/bench/bench_vllmbench_protocol.sh [--build build/ci] [--levels "1 10 100 500 1000"]
#        [--trials 3] [--sim-cpu 1] [--client-cpu 0] [--osl 100] [--sim-threads 2]
# Also per trial: the client's CPU (user + system, /usr/bin/time) as a share of its one core over the run.
# Prints `uptime` before and after and the core split; state both with the figures.
set -euo pipefail
build=build/ci
levels="1 10 100 500 1000"
trials=3
simcpu=1
clientcpu=0
osl=100
simthreads=2
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --sim-cpu) simcpu=$2; shift 2 ;;
    --client-cpu) clientcpu=$2; shift 2 ;;
    --osl) osl=$2; shift 2 ;;
    --sim-threads) simthreads=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=$build/app/throughline-cli
simexe=$build/app/throughline-sim
for f in "$cli" "$simexe"; do [ -x "$f" ] || { echo "missing $f" >&2; exit 2; }; done
work=$(mktemp -d)
sim=
cleanup() {
    if [ -n "$sim" ]; then kill "$sim" 2>/dev/null || true; wait "$sim" 2>/dev/null || true; fi
    [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

sim_start() { # PORT GROUND_TRUTH MAXCONN
    taskset -c "$simcpu" "$simexe" --model gpt-oss-20b --gpu H200 --port "$1" --fixed-ttft-ms 50 \
        --fixed-itl-ms 10 --ground-truth "$2" --max-connections "$3" --threads "$simthreads" >"$work/sim.log" 2>&1 &
    sim=$!
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "simulator did not start (see $work/sim.log)" >&2
    exit 1
}
sim_stop() {
    [ -n "$sim" ] || return 0
    kill "$sim" 2>/dev/null || true
    wait "$sim" 2>/dev/null || true
    sim=
}
campaign() { # OUT C N PORT
    python3 - "$@" "$osl" <<'PY'
import json, sys
out, c, n, port, osl = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
json.dump({
    "schema": "throughline.campaign/1", "name": f"vllm-bench overhead protocol C={c}",
    "models": ["gpt-oss-20b"], "backends": ["vllm"],
    "deployments": [{"gpu": "H200", "gpus": 1, "parallelism": "TP1", "precision": "FP8"}],
    "phases": [{"name": "Chat", "isl": 128, "osl": osl,
                "isl_dist": {"dist": "fixed"}, "osl_dist": {"dist": "fixed"}}],
    "endpoints": [{"name": "mock", "kind": "http", "base_url": f"http://127.0.0.1:{port}",
                   "flavour": "completions", "telemetry": {"interval_s": 0}}],
    "plan": {"mode": "closed", "concurrencies": [c], "request_count": n, "warmup_multiplier": 0,
             "cooldown_s": 0, "min_window_s": 0.5, "max_duration_s": 600, "request_timeout_s": 120,
             "seed": 7},
}, open(out, "w"))
PY
}

echo "uptime: $(uptime)"
echo "cores: $(nproc); simulator on CPU $simcpu (taskset -c $simcpu), client on CPU $clientcpu (taskset -c $clientcpu); other work on the machine is not pinned away"
echo "load: throughline-sim --fixed-ttft-ms 50 --fixed-itl-ms 10 --threads $simthreads; closed loop, completions, ISL 128 / OSL $osl forced, max(30, 3 C) requests, time scale 1; build $build"
: >"$work/trials.jsonl"
for c in $levels; do
    n=$((3 * c > 30 ? 3 * c : 30))
    for ((t = 1; t <= trials; ++t)); do
        port=$((20000 + RANDOM % 20000))
        gt=$work/gt-$c-$t.jsonl
        sim_start "$port" "$gt" $((c * 2 + 64))
        campaign "$work/campaign-$c.json" "$c" "$n" "$port"
        rc=0
        /usr/bin/time -f '%U %S %e' -o "$work/time-$c-$t" taskset -c "$clientcpu" "$cli" run "$work/campaign-$c.json" --out "$work/run-$c-$t" --no-history \
            >"$work/run-$c-$t.log" 2>&1 || rc=$?
        sim_stop
        if [ ! -f "$work/run-$c-$t/run.tlrun" ]; then
            echo "C=$c trial $t: run failed (exit $rc), no bundle; see below" >&2
            tail -20 "$work/run-$c-$t.log" >&2
            exit 1
        fi
        python3 "$here/tests/bench/vllmbench_join.py" trial --concurrency "$c" --trial "$t" --osl "$osl" \
            --truth "$gt" --bundle "$work/run-$c-$t/run.tlrun" --exit-code "$rc" \
            --time "$work/time-$c-$t" | tee -a "$work/trials.jsonl" |
            python3 "$here/tests/bench/vllmbench_join.py" show
        rm -f "$gt" # a C = 1,000 trial's truth is ~10 MB
    done
done
python3 "$here/tests/bench/vllmbench_join.py" summary <"$work/trials.jsonl"
echo "uptime: $(uptime)"
