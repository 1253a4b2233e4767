#!/usr/bin/env bash
# Side by side with a peer in one run (issue 25, never in CI): the load of bench_decoderate.sh (gpt-oss-20b on
# 8× H200, ISL 128 / OSL 200, closed loop C, N requests, time scale S) through the vLLM-style aiohttp client
# (tests/bench/peer_aiohttp.py) and through throughline-cli, each against a fresh throughline-sim writing its
# ground truth, each whole client process under /usr/bin/time. Prints per client: CPU per content event, events
# per CPU-second, output tokens/s of wall clock, and TTFT / TPOT error against the simulator's ground truth
# (measured − true, per request: TTFT = first token − send vs the server's first-token write − accept; TPOT over
# the same tokens), p50 and mean.
# Usage: tests/bench/bench_peer.sh [--build build/release] [--streams C] [--requests N] [--time-scale S]
#        [--runs R] [--read-path auto|libcurl] [--skip-peer] [--sim-cpu N --client-cpu M] [--floor PATH]
#        [--join]
# --read-path: Throughline's read path (default auto: the direct HTTP/1.1 path here); --skip-peer times
# Throughline alone (e.g. 2,048 streams, beyond what the aiohttp client keeps up with); --sim-cpu/--client-cpu
# pin the simulator and both clients (taskset); --floor runs (unpinned) that bench_readfloor on the same load after the
# runs, so the peer, Throughline and the bare floor (epoll + recv, no HTTP) are compared in one go. Ends with
# the medians over the runs and the ratio of events per CPU-second. --join also joins every token Throughline
# read with the simulator's write time of it (tests/bench/vllmbench_join.py): the client-added delay of every
# token and of first tokens, p50/p99, the figure the 2,048-stream hold is judged on.
# Needs /usr/bin/python3 with Debian's python3-aiohttp (tests/bench/README.md).
set -euo pipefail
build=build/release
streams=256
requests=1280
scale=1
runs=1
osl=200
readpath=auto
skippeer=0
simcpu=
clientcpu=
floor=
join=0
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --streams) streams=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --time-scale) scale=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --read-path) readpath=$2; shift 2 ;;
    --skip-peer) skippeer=1; shift ;;
    --sim-cpu) simcpu=$2; shift 2 ;;
    --client-cpu) clientcpu=$2; shift 2 ;;
    --floor) floor=$2; shift 2 ;;
    --join) join=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=$build/app/throughline-cli
simexe=$build/app/throughline-sim
/usr/bin/python3 -c 'import aiohttp' 2>/dev/null || { echo "needs python3-aiohttp (apt-get install python3-aiohttp)" >&2; exit 2; }
work=$(mktemp -d)
sim=
cleanup() { [ -n "$sim" ] && kill "$sim" 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"; }
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
simwrap=() clientwrap=()
[ -n "$simcpu" ] && simwrap=(taskset -c "$simcpu")
[ -n "$clientcpu" ] && clientwrap=(taskset -c "$clientcpu")
# shellcheck source=tests/bench/decodeload.sh
. "$here/tests/bench/decodeload.sh"
decode_campaign "$work/campaign.json" "peer comparison" "$requests" "$osl"
echo "uptime: $(uptime)"
echo "load: C=$streams, $requests requests, ISL 128 / OSL $osl, time scale $scale; Throughline read path $readpath; sim CPU ${simcpu:-any}, client CPU ${clientcpu:-any}"
for ((i = 0; i < runs; ++i)); do
    if [ "$skippeer" = 0 ]; then
        decode_sim_start "$work/gt-peer-$i.jsonl"
        /usr/bin/time -f '%U %S %e' -o "$work/time-peer-$i" "${clientwrap[@]}" /usr/bin/python3 "$here/tests/bench/peer_aiohttp.py" \
            --url "http://127.0.0.1:$port" --concurrency "$streams" --requests "$requests" --osl "$osl" \
            --out "$work/peer-$i.jsonl" >"$work/peer-$i.log" 2>&1
        decode_sim_stop
    fi
    decode_sim_start "$work/gt-tl-$i.jsonl"
    /usr/bin/time -f '%U %S %e' -o "$work/time-tl-$i" "${clientwrap[@]}" "$cli" run "$work/campaign.json" --out "$work/tl-$i" \
        --no-history --json --read-path "$readpath" >"$work/tl-$i.log" 2>&1 || true
    decode_sim_stop
    if [ "$join" = 1 ]; then
        python3 "$here/tests/bench/vllmbench_join.py" trial --concurrency "$streams" --trial "$i" --osl "$osl" \
            --truth "$work/gt-tl-$i.jsonl" --bundle "$work/tl-$i/run.tlrun" --time "$work/time-tl-$i" |
            python3 "$here/tests/bench/vllmbench_join.py" show
    fi
    python3 - "$work" "$i" "$osl" "$skippeer" <<'PY' | tee -a "$work/summary"
import csv, json, os, statistics, sys
work, i, osl, skippeer = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
def truth(path):
    t = {}
    for line in open(path):
        g = json.loads(line)
        w = g["t_token_write_ns"]
        t[g["request_id"]] = (g["t_accept_ns"], g["t_first_token_write_ns"], w[-1] if w else None, len(w))
    return t
def cpu(path):
    u, s, wall = (float(x) for x in open(path).read().split()[-3:])
    return u, s, wall
def report(name, rows, tfile):
    # rows: (ttft_ms, tpot_ms, true_ttft_ms, true_tpot_ms, events)
    u, s, wall = cpu(tfile)
    ev = sum(r[4] for r in rows)
    ttft_err = [r[0] - r[2] for r in rows]
    tpot_err = [r[1] - r[3] for r in rows if r[1] is not None and r[3] is not None]
    print(f"{name:>11}: {len(rows)} requests, {ev} events, CPU {u:.2f} user + {s:.2f} system s in {wall:.1f} s wall: "
          f"{(u + s) * 1e6 / max(1, ev):.2f} us per event, {ev / max(1e-9, u + s):,.0f} events per CPU-second, "
          f"{ev / wall:,.0f} tokens/s; TTFT p50 {statistics.median(r[0] for r in rows):.1f} ms, error p50 "
          f"{statistics.median(ttft_err):.2f} ms mean {statistics.mean(ttft_err):.2f} ms p99 "
          f"{statistics.quantiles(ttft_err, n=100)[98]:.2f} ms; TPOT error p50 {statistics.median(tpot_err):.3f} ms, "
          f"TPOT p50 {statistics.median(r[1] for r in rows if r[1] is not None):.2f} ms")
gt_peer = {} if skippeer else truth(f"{work}/gt-peer-{i}.jsonl")
rows = []
for line in ([] if skippeer else open(f"{work}/peer-{i}.jsonl")):
    r = json.loads(line)
    g = gt_peer.get(r["request_id"])
    if not g or r["t_first_ns"] is None or r["events"] < 2:
        continue
    ttft = (r["t_first_ns"] - r["t_send_ns"]) / 1e6
    tpot = (r["t_last_ns"] - r["t_first_ns"]) / 1e6 / (r["events"] - 1)
    true_tpot = (g[2] - g[1]) / 1e6 / (g[3] - 1) if g[3] > 1 else None
    rows.append((ttft, tpot, (g[1] - g[0]) / 1e6, true_tpot, r["events"]))
if not skippeer:
    report("aiohttp", rows, f"{work}/time-peer-{i}")
gt = truth(f"{work}/gt-tl-{i}.jsonl")
byseq = {rid.rsplit("-", 1)[-1]: g for rid, g in gt.items()}
rows = []
for r in csv.DictReader(open(f"{work}/tl-{i}/requests.csv")):
    g = byseq.get(r["seq"])
    if not g or r["ok"] != "1" or not r["ttft_ms"]:
        continue
    events = int(r["content_events"] or 0)
    true_tpot = (g[2] - g[1]) / 1e6 / (g[3] - 1) if g[3] > 1 else None
    tpot = (int(r["t_last_token_ns"]) - int(r["t_first_token_ns"])) / 1e6 / max(1, events - 1)
    rows.append((float(r["ttft_ms"]), tpot, (g[1] - g[0]) / 1e6, true_tpot, events))
report("Throughline", rows, f"{work}/time-tl-{i}")
point = json.load(open(f"{work}/tl-{i}/results.json"))["scenarios"][0]["points"][0]
print(f"{'':>11}  read path {point['client'].get('read_path', '?')}, flags {point['validity']['flags']}, "
      f"client-added delay estimate p99 {point['client'].get('added_delay_p99_ms')} ms")
PY
done
python3 - "$work/summary" <<'PY'
import re, statistics, sys
def med(name, pattern):
    v = [float(re.search(pattern, l).group(1).replace(",", "")) for l in open(sys.argv[1])
         if l.lstrip().startswith(name + ":")]
    return statistics.median(v) if v else None
out = {}
for name in ("aiohttp", "Throughline"):
    eps = med(name, r"([0-9,]+) events per CPU-second")
    if eps is None:
        continue
    out[name] = eps
    print(f"median {name}: {med(name, r'([0-9.]+) us per event')} us per event, {eps:,.0f} events per CPU-second, "
          f"TTFT error p50 {med(name, r'error p50 ([0-9.-]+) ms')} ms")
if len(out) == 2:
    print(f"Throughline / aiohttp events per CPU-second (medians): {out['Throughline'] / out['aiohttp']:.2f}x")
PY
if [ -n "$floor" ]; then
    # Not pinned: the floor's simulator runs in its process, beside the reader it times.
    "$floor" --model gpt-oss-20b --gpus 8 --streams "$streams" --requests "$requests" \
        --osl "$osl" --time-scale "$scale" --reps "$runs" --chat
fi
echo "uptime: $(uptime)"
