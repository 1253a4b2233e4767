#!/usr/bin/python3
"""A vLLM-style peer client (issue 25, never in CI): closed-loop streaming chat completions through aiohttp in
one process, as `vllm bench serve` drives a server — one asyncio task per stream, `response.content` read line
by line, every timestamp from time.monotonic_ns() (CLOCK_MONOTONIC, the simulator's ground-truth clock).

Writes one JSON line per request to --out: request id, send, first-token and last-token times (ns), and the
number of content events; prints the process's user and system CPU at the end (also measured from outside by
bench_peer.sh with /usr/bin/time).

Needs Debian's python3-aiohttp (apt-get install python3-aiohttp; tests/bench/README.md). Run with
/usr/bin/python3: a pyenv or venv python does not see Debian's packages.
"""
import argparse
import asyncio
import json
import resource
import time

import aiohttp


async def one_request(session, url, body, rid, out):
    t_send = time.monotonic_ns()
    first = last = None
    events = 0
    async with session.post(url, json=body, headers={"X-Request-Id": rid}) as resp:
        async for line in resp.content:
            if not line.startswith(b"data: "):
                continue
            payload = line[6:].strip()
            if payload == b"[DONE]":
                break
            chunk = json.loads(payload)
            choices = chunk.get("choices") or []
            if not choices:
                continue
            delta = choices[0].get("delta") or {}
            if delta.get("content") or delta.get("reasoning") or delta.get("reasoning_content"):
                now = time.monotonic_ns()
                first = first if first is not None else now
                last = now
                events += 1
    out.append({"request_id": rid, "t_send_ns": t_send, "t_first_ns": first, "t_last_ns": last,
                "events": events, "status": resp.status})


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8000")
    ap.add_argument("--model", default="gpt-oss-20b")
    ap.add_argument("--concurrency", type=int, default=256)
    ap.add_argument("--requests", type=int, default=1280)
    ap.add_argument("--isl", type=int, default=128)
    ap.add_argument("--osl", type=int, default=200)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    prompt = " ".join("w%03d" % (i % 1000) for i in range(a.isl))  # about ISL tokens at 4 bytes each
    body = {"model": a.model, "messages": [{"role": "user", "content": prompt}], "max_tokens": a.osl,
            "min_tokens": a.osl, "ignore_eos": True, "stream": True,
            "stream_options": {"include_usage": True}}
    url = a.url.rstrip("/") + "/v1/chat/completions"
    records = []
    next_id = iter(range(a.requests))
    connector = aiohttp.TCPConnector(limit=a.concurrency)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=120)
    t0 = time.monotonic()
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def stream():
            for i in next_id:
                await one_request(session, url, body, "peer-%d" % i, records)
        await asyncio.gather(*(stream() for _ in range(a.concurrency)))
    wall = time.monotonic() - t0
    with open(a.out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    ru = resource.getrusage(resource.RUSAGE_SELF)
    events = sum(r["events"] for r in records)
    print(json.dumps({"requests": len(records), "events": events, "wall_s": wall, "user_s": ru.ru_utime,
                      "system_s": ru.ru_stime}))


if __name__ == "__main__":
    asyncio.run(main())
