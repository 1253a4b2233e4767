#!/usr/bin/env bash
# The engine at real decode rates (issue 25, never in CI): `throughline-cli run` against `throughline-sim` in
# its own process — gpt-oss-20b on 8× H200 FP8, ISL 128 / OSL 200 fixed, closed loop at C streams, REQUESTS
# requests, time scale SCALE (1 = about 100 tokens/s per stream at C = 256) — with the whole client process
# under /usr/bin/time: user, system and total CPU per SSE event (events = successful requests × OSL, the
# content chunks; the role, usage and [DONE] chunks ride along), and with --strace the reads
# (recvfrom), polls and epoll waits of the client (`strace -c -f`, which slows it: CPU figures of an strace
# run are not reported). Then the bare floor on the same streams: bench_readfloor with the same model,
# deployment, lengths, C, requests and time scale (plain epoll + recv, no HTTP library). Medians over RUNS.
# Usage: tests/bench/bench_decoderate.sh [--build build/release] [--streams C] [--requests N] [--osl N]
#        [--time-scale S] [--runs R] [--strace] [--sim-cpu N --client-cpu M] [--read-path auto|libcurl]
#        [--floor PATH]
# --floor: the bench_readfloor to run (default BUILD/tests/bench/bench_readfloor; the bench preset has it,
# the ci preset does not — e.g. --build build/ci --floor build/bench/tests/bench/bench_readfloor).
# --read-path: the engine's read path (default auto = the direct HTTP/1.1 path on this plain-http load).
# The rate per stream is what the simulator's model gives this deployment at C (printed: tokens/s per stream,
# from the run's TPOT); --time-scale multiplies it (e.g. 2,048 streams × 27 tok/s: pick S from a first run).
# State the machine's load (`uptime`, printed before and after) with the figures.
set -euo pipefail
build=build/release
streams=256
requests=1280
osl=200
scale=1
runs=3
trace=0
simcpu=
clientcpu=
readpath=auto
floor=
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --streams) streams=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --osl) osl=$2; shift 2 ;;
    --time-scale) scale=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --strace) trace=1; shift ;;
    --sim-cpu) simcpu=$2; shift 2 ;;
    --client-cpu) clientcpu=$2; shift 2 ;;
    --read-path) readpath=$2; shift 2 ;;
    --floor) floor=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=$build/app/throughline-cli
simexe=$build/app/throughline-sim
[ -n "$floor" ] || floor=$build/tests/bench/bench_readfloor
for f in "$cli" "$simexe"; do [ -x "$f" ] || { echo "missing $f (build the bench preset)" >&2; exit 2; }; done
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
decode_sim_start
decode_campaign "$work/campaign.json" "decode rate" "$requests" "$osl"
echo "uptime: $(uptime)"
echo "load: C=$streams, $requests requests, ISL 128 / OSL $osl, time scale $scale; sim CPU ${simcpu:-any}, client CPU ${clientcpu:-any}; read path $readpath"
for ((i = 0; i < runs; ++i)); do
    out=$work/run-$i
    /usr/bin/time -f '%U %S %e' -o "$work/time-$i" "${clientwrap[@]}" "$cli" run "$work/campaign.json" \
        --out "$out" --no-history --json --read-path "$readpath" >"$work/cli-$i.log" 2>&1 || true
    python3 - "$out/results.json" "$work/time-$i" "$osl" "$i" <<'PY' | tee -a "$work/summary"
import json, sys
res, tfile, osl, i = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
user, sys_, wall = (float(x) for x in open(tfile).read().split()[-3:])
p = json.load(open(res))["scenarios"][0]["points"][0]
ok = p["n_ok"]
events = ok * osl
m = p["metrics"]
tpot = m["tpot_ms"]["p50"]; ttft = m["ttft_ms"]["p50"]
print(f"run {i}: {ok} requests, {events} events, user {user:.2f} s, system {sys_:.2f} s, wall {wall:.1f} s: "
      f"{user * 1e6 / events:.2f} + {sys_ * 1e6 / events:.2f} = {(user + sys_) * 1e6 / events:.2f} us per event; "
      f"TTFT p50 {ttft:.1f} ms, TPOT p50 {tpot:.2f} ms ({1000 / tpot:.0f} tok/s per stream), "
      f"flags {p['validity']['flags']}, read path {p['client'].get('read_path', '?')}")
PY
done
python3 - "$work/summary" <<'PY'
import re, statistics, sys
rows = [l for l in open(sys.argv[1]) if l.startswith("run ")]
def med(pattern):
    return statistics.median(float(re.search(pattern, l).group(1)) for l in rows)
if rows:
    user = med(r"wall [0-9.]+ s: ([0-9.]+) ")
    system = med(r" [+] ([0-9.]+) = ")
    total = med(r" = ([0-9.]+) us per event")
    ttft = med(r"TTFT p50 ([0-9.]+)")
    print(f"median over {len(rows)} runs: user {user} + system {system} = total {total} us per event, "
          f"TTFT p50 {ttft} ms")
PY
if [ $trace = 1 ]; then
    strace -c -f -o "$work/strace" "${clientwrap[@]}" "$cli" run "$work/campaign.json" --out "$work/strace-run" \
        --no-history --json --read-path "$readpath" >/dev/null 2>&1 || true
    python3 - "$work/strace" "$work/strace-run/results.json" "$osl" <<'PY'
import json, sys
calls = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and f[-1] in ("recvfrom", "read", "poll", "epoll_wait", "ppoll", "epoll_pwait", "sendto"):
        calls[f[-1]] = int(f[3])
p = json.load(open(sys.argv[2]))["scenarios"][0]["points"][0]
ok = p["n_ok"]
events = ok * int(sys.argv[3])
reads = calls.get("recvfrom", 0)
print(f"strace -c (one run): {calls}; {events} events / {reads} recvfrom = "
      f"{events / max(1, reads):.2f} events per read")
PY
fi
decode_sim_stop
if [ ! -x "$floor" ]; then
    echo "no bench_readfloor at $floor: the floor is not measured (see --floor)"
else
    "${clientwrap[@]}" "$floor" --model gpt-oss-20b --gpus 8 --streams "$streams" --requests "$requests" \
        --osl "$osl" --time-scale "$scale" --reps "$runs" --chat
fi
echo "uptime: $(uptime)"
