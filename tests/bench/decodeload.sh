# Sourced by bench_decoderate.sh and bench_peer.sh: the one load both measure — gpt-oss-20b on 8× H200 FP8 in
# throughline-sim (jitter 0, seed 7), ISL 128 / OSL fixed, a closed loop at C streams — so the two benches
# always time the same thing.
# Needs: simexe, port, scale, streams, work; simwrap (array, may be empty). Sets sim (the simulator's pid).

# decode_sim_start [GROUND_TRUTH_FILE]: starts the simulator and waits for /health.
decode_sim_start() {
    local gt=()
    [ -n "${1:-}" ] && gt=(--ground-truth "$1")
    "${simwrap[@]}" "$simexe" --model gpt-oss-20b --gpu H200 --gpus 8 --precision FP8 --port "$port" \
        --time-scale "$scale" --jitter 0 --seed 7 --max-connections $((streams * 2 + 64)) "${gt[@]}" \
        >"$work/sim.log" 2>&1 &
    sim=$!
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "simulator did not start (see $work/sim.log)" >&2
    exit 1
}

decode_sim_stop() {
    [ -n "$sim" ] || return 0
    kill "$sim" 2>/dev/null || true
    wait "$sim" 2>/dev/null || true
    sim=
}

# decode_campaign OUT NAME REQUESTS OSL: the campaign throughline-cli runs against that simulator.
decode_campaign() {
    python3 - "$1" "$2" "$streams" "$3" "$4" "$port" <<'PY'
import json, sys
out, name, c, n, osl, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
json.dump({
    "schema": "throughline.campaign/1", "name": name,
    "models": ["gpt-oss-20b"], "backends": ["vllm"],
    "deployments": [{"gpu": "H200", "gpus": 8, "parallelism": "TP8", "precision": "FP8"}],
    "phases": [{"name": "Chat", "isl": 128, "osl": osl,
                "isl_dist": {"dist": "fixed"}, "osl_dist": {"dist": "fixed"}}],
    "endpoints": [{"name": "sim", "kind": "http", "base_url": f"http://127.0.0.1:{port}", "flavour": "chat",
                   "telemetry": {"interval_s": 0}}],
    "plan": {"mode": "closed", "concurrencies": [c], "request_count": n, "warmup_multiplier": 0,
             "cooldown_s": 0, "min_window_s": 0.5, "max_duration_s": 600, "request_timeout_s": 120,
             "seed": 7},
}, open(out, "w"))
PY
}
