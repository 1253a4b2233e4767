#pragma once
// Synthetic runs and request records for storage tests, the crash-test child and the storage bench.
// Deterministic for a given seed.

#include "core/storage/storagetypes.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace Throughline::StorageTest {

inline std::string uuidFor(std::uint32_t n)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-0000-4000-8000-%012x", n, n * 7919u);
    return buf;
}

inline RunStart makeRun(const std::string &uuid, int scenarios = 1, int pointsPerScenario = 2,
                        const std::string &campaignJson = R"({"name":"demo","plan":{"mode":"curve"}})")
{
    RunStart run;
    run.uuid = uuid;
    run.campaignJson = campaignJson;
    run.campaignName = "demo";
    run.planId = "plan-1";
    run.simulated = true;
    run.timeScale = 1.0;
    run.t0UnixNs = 1'780'000'000'000'000'000LL;
    run.provenance = {{"host", "test"}, {"argv", {"throughline-cli", "run"}}};
    run.tags = {"nightly", "h200"};
    run.notes = "synthetic run";
    const char *models[] = {"gpt-oss-120b", "llama-3.3-70b", "deepseek-r1"};
    const char *phases[] = {"Chat", "Reasoning", "Summarization"};
    for (int s = 0; s < scenarios; ++s) {
        ScenarioInfo si;
        si.index = s;
        si.model = models[s % 3];
        si.backend = "vllm";
        si.gpu = "H200";
        si.gpus = 8;
        si.phase = phases[s % 3];
        si.isl = 128;
        si.osl = 128;
        si.key = si.model + "/" + si.backend + "/H200×8/" + si.phase;
        for (int p = 0; p < pointsPerScenario; ++p)
            si.plannedPoints.push_back({{"load", {{"mode", "concurrency"}, {"concurrency", 1 << (p + 2)}}}});
        run.scenarios.push_back(std::move(si));
    }
    return run;
}

// One request: sent at seq × gapNs, TTFT ≈ 50 ms, decode steps ≈ 20 ms (±2 ms jitter), `osl` content events
// when withEvents (else only the first and last content event).
inline RequestRecord makeRecord(std::uint64_t seq, int scenario, int point, int osl, bool withEvents,
                                std::mt19937 &rng, std::int64_t gapNs = 1'000'000)
{
    RequestRecord r;
    r.seq = seq;
    r.scenarioIndex = scenario;
    r.pointIndex = point;
    r.warmup = seq % 10 == 0;
    r.intendedIsl = 128;
    r.intendedOsl = osl;
    r.tSched = static_cast<std::int64_t>(seq) * gapNs;
    r.tSend = r.tSched + 1000;
    r.tWire = r.tSend + 20'000;
    r.tFirstByte = r.tSend + 45'000'000;
    std::uniform_int_distribution<std::int64_t> jitter(-2'000'000, 2'000'000);
    std::int64_t t = r.tSend + 50'000'000 + jitter(rng);
    const std::int64_t firstToken = t;
    if (withEvents) {
        r.events.reserve(static_cast<std::size_t>(osl) + 2);
        r.events.push_back({r.tFirstByte, StreamEvent::Kind::RoleOnly, -1});
        for (int i = 0; i < osl; ++i) {
            r.events.push_back({t, StreamEvent::Kind::Content, -1});
            t += 20'000'000 + jitter(rng);
        }
        r.events.push_back({t, StreamEvent::Kind::Usage, -1});
    } else {
        // Timestamps only: first and last content event (what TTFT/TPOT need), no per-token timings.
        t += static_cast<std::int64_t>(osl - 1) * 20'000'000;
        r.events.push_back({firstToken, StreamEvent::Kind::Content, -1});
        r.events.push_back({t, StreamEvent::Kind::Content, -1});
    }
    r.tEnd = t + 100'000;
    r.httpStatus = 200;
    r.usage = {128, osl, 0, 0};
    r.nOut = osl;
    r.nOutSource = TokenCountSource::Usage;
    r.nFirst = 1;
    if (seq % 97 == 5) {
        r.error = ErrorClass::HttpStatus;
        r.httpStatus = 503;
        r.errorDetail = "503 Service Unavailable";
        r.events.clear();
    }
    return r;
}

inline std::vector<RequestRecord> makeBatch(std::uint64_t firstSeq, std::size_t n, int scenario, int point,
                                            int osl, bool withEvents, std::mt19937 &rng)
{
    std::vector<RequestRecord> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(makeRecord(firstSeq + i, scenario, point, osl, withEvents, rng));
    return out;
}

} // namespace Throughline::StorageTest
