#!/usr/bin/env bash
# The 20-run statistic behind tst_clientbound (never in CI): the demo's Chat phase on its simulator (time
# scale 20) through throughline-cli, open loop at λ = 5 and λ = 20 and closed loop at C = 1, 2, 4, 8, 16,
# 32, 64, each RUNS times (default 20); prints per configuration how many points were client_bound and the
# worst send_blocked_ms / send_blocked_pct / added_delay_p99_ms / cpu_pct. With --starved every run is pinned to
# CPU 0 under SCHED_IDLE beside a busy loop on CPU 0 (the client starved on purpose: every point should be
# flagged). --hogs N starts N unpinned busy loops beside the client (a loaded machine: flags there are the
# machine's, not false ones — say so with the figures); --nice N runs the client at that niceness.
# Usage: tests/bench/bench_clientbound.sh [--cli build/dev/app/throughline-cli] [--runs N] [--starved]
#        [--hogs N] [--nice N] [--only open|closed]
# State the machine's load (`uptime`, printed before and after) with the figures.
set -euo pipefail
cli=build/dev/app/throughline-cli
runs=20
starved=0
hogs=0
niceness=
only="open closed"
while [ $# -gt 0 ]; do
    case "$1" in
    --cli) cli=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --starved) starved=1; shift ;;
    --hogs) hogs=$2; shift 2 ;;
    --nice) niceness=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
hogpids=()
cleanup() {
    for h in "${hogpids[@]}"; do kill "$h" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
wrap=()
[ -n "$niceness" ] && wrap=(nice -n "$niceness")
if [ $starved = 1 ]; then
    taskset -c 0 sh -c 'while :; do :; done' &
    hogpids+=($!)
    wrap=(taskset -c 0 chrt --idle 0)
fi
for ((h = 0; h < hogs; ++h)); do
    sh -c 'while :; do :; done' &
    hogpids+=($!)
done
echo "client: ${wrap[*]:-as started}; $hogs busy loops beside it; starved: $starved"
echo "uptime: $(uptime)"
config() { # name, plan JSON members
    python3 - "$here/resources/campaigns/demo.json" "$work/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["phases"] = [{"preset": "Chat"}]
d["plan"].update(json.loads(sys.argv[3]))
json.dump(d, open(sys.argv[2], "w"))
PY
}
config open '{"mode": "open", "rates": [5, 20], "concurrencies": []}'
config closed '{"concurrencies": [1, 2, 4, 8, 16, 32, 64], "request_count": 160}'
for name in $only; do
    for ((i = 0; i < runs; ++i)); do
        "${wrap[@]}" "$cli" run "$work/$name.json" --out "$work/$name-$i" --no-history --json >/dev/null 2>&1 || true
    done
    python3 - "$work" "$name" "$runs" <<'PY'
import json, sys, collections
work, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
flagged = collections.Counter(); seen = collections.Counter()
worst = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
for i in range(runs):
    try:
        d = json.load(open(f"{work}/{name}-{i}/results.json"))
    except OSError:
        continue
    for p in d["scenarios"][0]["points"]:
        load = p["load"]; key = f"λ={load['rate']:g}" if load["mode"] == "rate" else f"C={load['concurrency']}"
        seen[key] += 1
        flagged[key] += "client_bound" in p["validity"]["flags"]
        c = p["client"]
        for k, field in enumerate(("send_blocked_ms", "send_blocked_pct", "added_delay_p99_ms", "cpu_pct")):
            worst[key][k] = max(worst[key][k], c.get(field) or 0)
for key in seen:
    w = worst[key]
    print(f"{key:>6}: client_bound in {flagged[key]} of {seen[key]} runs; worst send_blocked {w[0]:.1f} ms = "
          f"{w[1]:.2f} %, worst added_delay_p99_ms {w[2]:.2f}, worst cpu_pct {w[3]:.1f}")
PY
done
echo "uptime: $(uptime)"
