#!/usr/bin/env python3
"""Joins a throughline-cli bundle (run.tlrun) with throughline-sim's ground truth for the vllm-bench overhead
protocol (tests/bench/bench_vllmbench_protocol.sh). Python standard library only.

  trial --concurrency C --trial T --osl N --truth GT.jsonl --bundle run.tlrun [--exit-code RC]
        prints one JSON line with the trial's figures
  show      reads such lines on stdin, prints each as a line of text
  summary   reads such lines on stdin, prints a table per C: the median over trials of each figure

Clocks: the ground truth is CLOCK_MONOTONIC ns; the bundle's times are ns relative to the run's t=0 on the
same clock (steady_clock), whose origin the bundle does not store. The origin t0 is bounded by causality: no
content event is read before its token was written (t0 >= write - read_rel for every token) and no request
reaches the server before the client sent it (t0 <= accept - send_rel). The lower bound is used, so the
smallest read delay of the run counts as 0 and every delay is understated by at most that; the gap to the
upper bound ("align") bounds it from above (it also holds the send-to-accept time of the fastest request).
"""
import argparse
import json
import sqlite3
import statistics
import sys


def varint(b, i):
    v = shift = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        if not x & 0x80:
            return v, i
        shift += 7


def content_times(blob, ref_ns):
    """Read times (ns, run-relative, floored to the µs) of the content events (core/storage/eventcodec.h)."""
    if not blob or blob[0] != 1:
        raise ValueError("unknown event blob format")
    prev_us = ref_ns // 1000 if ref_ns >= 0 else -((-ref_ns + 999) // 1000)
    out, i = [], 1
    while i < len(blob):
        v, i = varint(blob, i)
        zz = v >> 4
        prev_us += (zz >> 1) ^ -(zz & 1)
        if v & 1:
            _, i = varint(blob, i)
        if (v >> 1) & 7 == 0:  # StreamEvent::Kind::Content
            out.append(prev_us * 1000)
    return out


def pct(xs, p):
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * p / 100
    f = int(k)
    return s[f] + (s[min(f + 1, len(s) - 1)] - s[f]) * (k - f)


def trial(a):
    truth = {}
    for line in open(a.truth):
        g = json.loads(line)
        truth[g["request_id"]] = g
    db = sqlite3.connect(f"file:{a.bundle}?mode=ro", uri=True)
    (run_id,) = db.execute("SELECT uuid FROM runs").fetchone()
    rows = db.execute(
        "SELECT q.seq, q.t_send_ns, q.t_first_token_ns, q.error_class, e.blob FROM requests q "
        "LEFT JOIN request_events e ON e.request_id = q.id ORDER BY q.seq").fetchall()
    joined, unmatched, failed, short = [], 0, 0, 0
    for seq, send, first, err, blob in rows:
        if err != 0 or blob is None:
            failed += 1
            continue
        g = truth.get(f"{run_id}-{seq}")
        if g is None:
            unmatched += 1
            continue
        reads = content_times(blob, send)
        writes = g["t_token_write_ns"]
        if len(reads) != a.osl or len(writes) != a.osl:
            short += 1
            continue
        joined.append((send, first, reads, writes, g["t_accept_ns"]))
    if not joined:
        print(json.dumps({"c": a.concurrency, "trial": a.trial, "requests": 0, "failed": failed,
                          "unmatched": unmatched, "short": short, "exit": a.exit_code}))
        return
    t0_lo = max(w - r for _, _, reads, writes, _ in joined for r, w in zip(reads, writes))
    t0_hi = min(acc - send for send, _, _, _, acc in joined)
    ttft_err, ttft_nominal, itl_err, delays, itl, first_delays = [], [], [], [], [], []
    for send, first, reads, writes, _ in joined:
        client_ttft = first - send
        true_ttft = writes[0] - (send + t0_lo)
        ttft_err.append((client_ttft - true_ttft) / 1e6)
        ttft_nominal.append(client_ttft / 1e6 - 50.0)
        for k in range(1, len(reads)):
            itl.append((reads[k] - reads[k - 1]) / 1e6)
            itl_err.append(((reads[k] - reads[k - 1]) - (writes[k] - writes[k - 1])) / 1e6)
        delays.extend((r + t0_lo - w) / 1e6 for r, w in zip(reads, writes))
        first_delays.append((reads[0] + t0_lo - writes[0]) / 1e6)
    print(json.dumps({
        "c": a.concurrency, "trial": a.trial, "requests": len(joined), "failed": failed,
        "unmatched": unmatched, "short": short, "exit": a.exit_code,
        "align_us": (t0_hi - t0_lo) / 1e3,
        "ttft_err_mean_ms": statistics.fmean(ttft_err), "ttft_err_p50_ms": pct(ttft_err, 50),
        "ttft_err_p99_ms": pct(ttft_err, 99), "ttft_vs_50_mean_ms": statistics.fmean(ttft_nominal),
        "itl_sigma_ms": statistics.pstdev(itl_err), "itl_mean_ms": statistics.fmean(itl),
        "itl_raw_sigma_ms": statistics.pstdev(itl),
        "delay_p50_ms": pct(delays, 50), "delay_p99_ms": pct(delays, 99), "tokens": len(delays),
        "first_delay_p99_ms": pct(first_delays, 99),
        "client_cpu_pct": client_cpu(a.time),
    }))


def client_cpu(path):
    """The client's user + system CPU over its wall time, % of one core (None without a time file)."""
    if not path:
        return None
    u, s, wall = (float(x) for x in open(path).read().split()[-3:])
    return 100 * (u + s) / wall if wall > 0 else None


def line(r):
    if not r["requests"]:
        return (f"C={r['c']:>4} trial {r['trial']}: no joined requests (failed {r['failed']}, unmatched "
                f"{r['unmatched']}, short {r['short']}, exit {r['exit']})")
    return (f"C={r['c']:>4} trial {r['trial']}: {r['requests']} requests ({r['failed']} failed, "
            f"{r['unmatched']} unmatched, {r['short']} short; exit {r['exit']}), {r['tokens']} tokens; "
            f"TTFT error mean {r['ttft_err_mean_ms']:.3f} ms, p50 {r['ttft_err_p50_ms']:.3f}, "
            f"p99 {r['ttft_err_p99_ms']:.3f}; TTFT - 50 ms mean {r['ttft_vs_50_mean_ms']:.3f}; "
            f"ITL sigma {r['itl_sigma_ms']:.3f} ms (raw ITL mean {r['itl_mean_ms']:.3f}, sigma "
            f"{r['itl_raw_sigma_ms']:.3f}); read delay p50 {r['delay_p50_ms']:.3f}, p99 "
            f"{r['delay_p99_ms']:.3f} ms, first tokens p99 {r['first_delay_p99_ms']:.3f} ms; "
            f"align <= {r['align_us']:.0f} us"
            + (f"; client CPU {r['client_cpu_pct']:.0f} % of its core" if r.get("client_cpu_pct") else ""))


def show(_):
    for raw in sys.stdin:
        print(line(json.loads(raw)), flush=True)


def summary(_):
    by = {}
    for raw in sys.stdin:
        r = json.loads(raw)
        by.setdefault(r["c"], []).append(r)
    keys = ["ttft_err_mean_ms", "ttft_err_p50_ms", "ttft_err_p99_ms", "ttft_vs_50_mean_ms", "itl_sigma_ms",
            "delay_p99_ms", "align_us", "client_cpu_pct"]
    print("medians of the trials (ms; align in us):")
    print("| C | trials | TTFT error mean | p50 | p99 | TTFT - 50 ms mean | ITL sigma | read delay p99 | align "
          "| client CPU % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for c in sorted(by):
        ok = [r for r in by[c] if r["requests"]]
        cells = [f"{statistics.median(r[k] for r in ok):.3f}" if ok and all(r.get(k) is not None for r in ok)
                 else "-" for k in keys]
        print(f"| {c} | {len(ok)} of {len(by[c])} | " + " | ".join(cells) + " |")
        for k in ("ttft_err_mean_ms", "itl_sigma_ms"):
            print(f"    C={c} {k} per trial: " + ", ".join(f"{r[k]:.3f}" for r in ok))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("trial")
    t.add_argument("--concurrency", type=int, required=True)
    t.add_argument("--trial", type=int, required=True)
    t.add_argument("--osl", type=int, required=True)
    t.add_argument("--truth", required=True)
    t.add_argument("--bundle", required=True)
    t.add_argument("--exit-code", type=int, default=0)
    t.add_argument("--time", help="/usr/bin/time -f '%%U %%S %%e' output of the client")
    sub.add_parser("show")
    sub.add_parser("summary")
    a = p.parse_args()
    {"trial": trial, "show": show, "summary": summary}[a.cmd](a)


if __name__ == "__main__":
    main()
