#pragma once
// Builds a demo-like stored run in a temporary history database: StorageWriter with synthetic point
// results (percentile blocks from generated samples, so values are real computations, not constants)
// and scenario verdicts from core/targets' judgeScenario against the shipped demo target rows.

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/storage/storagewriter.h"
#include "core/targets/verdict.h"

#include <QUuid>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace Throughline::TestFixture {

struct StoredRun {
    std::string uuid;
    std::vector<std::string> scenarioIds;
    std::vector<std::string> verdicts;
};

inline PointResult syntheticPoint(int concurrency, double scale, std::mt19937 &rng, bool valid = true)
{
    PointResult p;
    p.load.concurrency = concurrency;
    p.windowS = 60;
    p.nSent = 20 * concurrency + 100;
    p.nOk = p.nSent;
    std::normal_distribution<double> noise(1.0, 0.05);
    std::vector<double> ttft, tpot, e2e;
    for (int i = 0; i < p.nOk; ++i) {
        ttft.push_back((40 + 3.0 * concurrency) * noise(rng));
        tpot.push_back((8 + 0.15 * concurrency) * noise(rng));
        e2e.push_back(ttft.back() + 127 * tpot.back());
    }
    p.metrics.ttftMs = summarize(ttft);
    p.metrics.ttftQMs = p.metrics.ttftMs;
    p.metrics.tpotMs = summarize(tpot);
    p.metrics.tpotMlperfMs = p.metrics.tpotMs; // one output token per chunk: the same gaps
    p.metrics.e2eMs = summarize(e2e);
    p.metrics.chunkGapMs = p.metrics.tpotMs;
    std::vector<double> inter;
    for (double t : tpot)
        inter.push_back(1000.0 / t);
    p.metrics.interactivityTpsUser = summarize(inter);
    p.metrics.outputTps = scale / 50.0 * concurrency * 1000.0 / (8 + 0.15 * concurrency); // tokens/s
    p.metrics.outputTpsPerGpu = p.metrics.outputTps;
    p.metrics.outputTpsMlperf = p.metrics.outputTps;
    p.metrics.outputTpsPerDecodeGpu = p.metrics.outputTps;
    p.metrics.totalTpsPerGpu = p.metrics.outputTps * 2;
    p.metrics.requestRate = p.nOk / p.windowS;
    p.metrics.goodputRps = p.metrics.requestRate;
    p.w1S = p.windowS;
    if (!valid) {
        p.validity.valid = false;
        p.validity.flags = {"error_rate"};
        p.errors["http_5xx"] = p.nSent / 20;
    }
    return p;
}

// phases × backends scenarios of gpt-oss-20b on H200×1 with 4 load points each.
inline StoredRun storeRun(StorageWriter &writer, const std::string &campaign,
                          const std::vector<std::string> &phases, const std::vector<std::string> &backends,
                          double scale, unsigned seed, const std::vector<std::string> &tags = {},
                          int pointsPerScenario = 4,
                          const nlohmann::json &extraProvenance = nlohmann::json::object())
{
    std::mt19937 rng(seed);
    StoredRun out;
    out.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    RunStart start;
    start.uuid = out.uuid;
    start.campaignName = campaign;
    start.campaignJson = "{\"name\":\"" + campaign + "\"}";
    start.simulated = true;
    start.t0UnixNs = 1'790'000'000'000'000'000LL + std::int64_t(seed) * 1'000'000'000LL;
    start.provenance = {{"tool_version", "0.1.0-test"},
                        {"endpoint", {{"url", "http://127.0.0.1:8000/v1"}, {"kind", "simulated"}}},
                        {"host", {{"name", "testhost"}, {"cores", 2}}}};
    start.provenance.update(extraProvenance);
    start.tags = tags;
    int idx = 0;
    for (const auto &phase : phases)
        for (const auto &backend : backends) {
            ScenarioInfo si;
            si.index = idx++;
            si.model = "gpt-oss-20b";
            si.backend = backend;
            si.gpu = "H200";
            si.gpus = 1;
            si.phase = phase;
            si.isl = phase == "Chat" ? 128 : 1000;
            si.osl = phase == "Chat" ? 128 : 1000;
            si.key = si.model + '/' + backend + "/H200×1/" + phase;
            start.scenarios.push_back(si);
            out.scenarioIds.push_back(si.key);
        }
    writer.beginRun(start);
    for (const ScenarioInfo &si : start.scenarios) {
        std::vector<PointResult> points;
        // Four points: concurrency 1, 8, 32, 64; more: powers of two from 1.
        static constexpr int kFour[] = {1, 8, 32, 64};
        auto conc = [pointsPerScenario](int k) { return pointsPerScenario == 4 ? kFour[k] : 1 << k; };
        for (int k = 0; k < pointsPerScenario; ++k) {
            points.push_back(
                syntheticPoint(conc(k), scale * (si.index + 1), rng, !(si.index == 1 && k == 3)));
            writer.beginPoint(out.uuid, si.index, k,
                              {{"load", {{"mode", "concurrency"}, {"concurrency", conc(k)}}}});
            FinishedPoint fp;
            fp.scenarioIndex = si.index;
            fp.pointIndex = k;
            fp.aggregates = points.back().toJson();
            writer.finishPoint(out.uuid, fp);
        }
        // Throughput target alternating reachable / unreachable, so runs hold both verdicts.
        TargetRow row;
        row.metric = "output_tps_per_gpu";
        row.value = si.index % 2 == 0 ? 100 : 1e6;
        row.source = "test";
        TargetRow slo;
        slo.metric = "ttft_ms";
        slo.stat = "p90";
        slo.cmp = Comparator::LessEqual;
        slo.value = 1000;
        slo.kind = TargetKind::Slo;
        slo.source = "scenario SLO"; // as sloRows writes it
        Scenario sc;
        sc.id = si.key;
        VerdictOptions vo;
        vo.judgeScenarioSlo = false;
        const Verdict v = judgeScenario(sc, points, {row, slo}, vo);
        writer.setScenarioVerdict(out.uuid, si.index, v.toJson());
        out.verdicts.emplace_back(verdictStatusKey(v.status));
    }
    writer.finishRun(out.uuid, RunStatus::Completed);
    return out;
}

// A demo-like run whose points carry real request rows (closed loop at each concurrency, 5 % warm-up, every
// 97th request failing) and server telemetry per scenario, so run detail can redraw the monitor plots and
// re-derive. One scenario per phase, `gpus` GPUs, concurrencies 4/16/64 with `perPoint` requests each. The
// stored aggregates are computed from the same rows (measured window = non-warm-up sends).
struct TelemetryCounts {
    int seriesPerScenario = 0;
    std::vector<int> samplesPerSeries; // per scenario
};
inline StoredRun storeRunWithRequests(StorageWriter &writer, const std::string &campaign,
                                      const std::vector<std::string> &phases, int perPoint, unsigned seed,
                                      double speed = 1.0, int gpus = 8, TelemetryCounts *telemetry = nullptr)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(1.0, 0.08);
    StoredRun out;
    out.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    RunStart start;
    start.uuid = out.uuid;
    start.campaignName = campaign;
    start.campaignJson = "{\"name\":\"" + campaign + "\"}";
    start.simulated = true;
    start.t0UnixNs = 1'790'000'000'000'000'000LL + std::int64_t(seed) * 1'000'000'000LL;
    start.provenance = {{"tool_version", "0.1.0-test"}, {"endpoint", {{"kind", "simulated"}}}};
    for (std::size_t i = 0; i < phases.size(); ++i) {
        ScenarioInfo si;
        si.index = int(i);
        si.model = "gpt-oss-120b";
        si.backend = "vllm";
        si.gpu = "H200";
        si.gpus = gpus;
        si.phase = phases[i];
        si.isl = 1000;
        si.osl = 128;
        si.key = si.model + "/vllm/H200×" + std::to_string(gpus) + '/' + si.phase;
        start.scenarios.push_back(si);
        out.scenarioIds.push_back(si.key);
    }
    writer.beginRun(start);
    std::int64_t clock = 1'000'000'000; // run clock, ns
    std::uint64_t seq = 0;
    if (telemetry)
        telemetry->samplesPerSeries.clear();
    for (const ScenarioInfo &si : start.scenarios) {
        const std::int64_t scenarioStart = clock;
        const int conc[] = {4, 16, 64};
        std::vector<PointResult> results;
        for (int k = 0; k < 3; ++k) {
            const int c = conc[k];
            writer.beginPoint(out.uuid, si.index, k,
                              {{"load", {{"mode", "concurrency"}, {"concurrency", c}}}});
            std::vector<RequestRecord> records;
            std::vector<std::int64_t> slotFree(std::size_t(c), clock);
            for (int n = 0; n < perPoint; ++n) {
                const auto slot =
                    std::size_t(std::min_element(slotFree.begin(), slotFree.end()) - slotFree.begin());
                RequestRecord r;
                r.seq = seq++;
                r.scenarioIndex = si.index;
                r.pointIndex = k;
                r.warmup = n < perPoint / 20;
                r.intendedIsl = si.isl;
                r.intendedOsl = si.osl;
                r.tSched = slotFree[slot];
                r.tSend = r.tSched + 10'000;
                const auto ttftNs = std::int64_t((40 + 3.0 * c) * noise(rng) * 1e6 / speed);
                const auto tpotNs = std::int64_t((8 + 0.15 * c) * noise(rng) * 1e6 / speed);
                r.nOut = 100 + int(rng() % 57);
                r.tFirstByte = r.tSend + ttftNs - 1000;
                const std::int64_t first = r.tSend + ttftNs, last = first + std::int64_t(r.nOut - 1) * tpotNs;
                r.events = {{first, StreamEvent::Kind::Content, -1}, {last, StreamEvent::Kind::Content, -1}};
                r.tEnd = last + 50'000;
                r.httpStatus = 200;
                r.usage = {si.isl, r.nOut, 0, 0};
                r.nOutSource = TokenCountSource::Usage;
                r.nFirst = 1;
                if (r.seq % 97 == 5) {
                    r.error = ErrorClass::HttpStatus;
                    r.httpStatus = 503;
                    r.errorDetail = "503 Service Unavailable";
                    r.events.clear();
                    r.tEnd = r.tSend + 2'000'000;
                    r.nOut = -1;
                }
                slotFree[slot] = r.tEnd + 1'000'000;
                records.push_back(std::move(r));
            }
            std::sort(records.begin(), records.end(),
                      [](const RequestRecord &a, const RequestRecord &b) { return a.tSend < b.tSend; });
            // Measured window: the non-warm-up sends.
            std::int64_t w0 = std::numeric_limits<std::int64_t>::max(), w1 = 0, lastEnd = 0;
            for (const RequestRecord &r : records) {
                lastEnd = std::max(lastEnd, r.tEnd);
                if (!r.warmup) {
                    w0 = std::min(w0, r.tSend);
                    w1 = std::max(w1, r.tSend + 1);
                }
            }
            std::vector<double> ttft, tpot, e2e;
            double tokens = 0;
            int ok = 0, sent = 0;
            for (const RequestRecord &r : records) {
                if (r.warmup)
                    continue;
                ++sent;
                if (!r.ok())
                    continue;
                ++ok;
                ttft.push_back(double(r.events.front().tNs - r.tSend) / 1e6);
                tpot.push_back(double(r.events.back().tNs - r.events.front().tNs) / 1e6 / (r.nOut - 1));
                e2e.push_back(double(r.tEnd - r.tSend) / 1e6);
                tokens += r.nOut;
            }
            PointResult p;
            p.load.concurrency = c;
            p.windowS = double(w1 - w0) / 1e9;
            p.w0S = double(w0) / 1e9;
            p.w1S = double(w1) / 1e9;
            p.nSent = sent;
            p.nOk = ok;
            p.metrics.ttftMs = summarize(ttft);
            p.metrics.ttftQMs = p.metrics.ttftMs;
            p.metrics.tpotMs = summarize(tpot);
            p.metrics.e2eMs = summarize(e2e);
            p.metrics.chunkGapMs = p.metrics.tpotMs;
            std::vector<double> inter;
            for (double t : tpot)
                inter.push_back(1000.0 / t);
            p.metrics.interactivityTpsUser = summarize(inter);
            p.metrics.outputTps = tokens / p.windowS;
            p.metrics.outputTpsPerGpu = p.metrics.outputTps / gpus;
            p.metrics.outputTpsPerDecodeGpu = p.metrics.outputTpsPerGpu;
            p.metrics.totalTpsPerGpu = p.metrics.outputTpsPerGpu * 2;
            p.metrics.requestRate = ok / p.windowS;
            p.metrics.goodputRps = p.metrics.requestRate;
            if (sent != ok)
                p.errors["http_5xx"] = sent - ok;
            results.push_back(p);
            writer.addRequests(out.uuid, std::move(records));
            FinishedPoint fp;
            fp.scenarioIndex = si.index;
            fp.pointIndex = k;
            fp.aggregates = p.toJson();
            fp.windowStartNs = w0;
            fp.windowEndNs = w1;
            writer.finishPoint(out.uuid, fp);
            clock = lastEnd + 2'000'000'000; // 2 s pause between points
        }
        // Server telemetry over the scenario, one sample per second (run clock).
        TelemetrySnapshot snap;
        snap.sources.push_back({"http://127.0.0.1:8000/metrics", "vllm", 1, 0, 0, "", 0, 0});
        snap.sources.push_back({"http://127.0.0.1:9400/metrics", "dcgm", 1, 0, 0, "", 0, 0});
        auto series = [&](const char *name, const char *unit, int source, LabelSet labels, auto value) {
            TelemetrySeries s;
            s.name = name;
            s.unit = unit;
            s.source = source;
            s.common = true;
            s.labels = std::move(labels);
            for (std::int64_t t = scenarioStart; t <= clock; t += 1'000'000'000)
                s.samples.push_back({t, value(double(t - scenarioStart) / double(clock - scenarioStart))});
            snap.series.push_back(std::move(s));
        };
        series("kv_cache_usage", "ratio", 0, {}, [](double x) { return 0.1 + 0.8 * x; });
        series("running", "requests", 0, {}, [](double x) { return std::round(4 + 60 * x); });
        series("waiting", "requests", 0, {},
               [](double x) { return x > 0.7 ? std::round(20 * (x - 0.7)) : 0.0; });
        series("generation_tps", "tokens/s", 0, {}, [speed](double x) { return speed * (400 + 3000 * x); });
        series("prompt_tps", "tokens/s", 0, {}, [speed](double x) { return speed * (3000 + 20000 * x); });
        for (const char *g : {"0", "1"}) {
            series("gpu_util_pct", "%", 1, {{"gpu", g}}, [](double x) { return 35 + 60 * x; });
            series("gpu_power_w", "W", 1, {{"gpu", g}},
                   [g](double x) { return 300 + 350 * x + (g[0] - '0') * 15; });
        }
        if (telemetry) {
            telemetry->seriesPerScenario = int(snap.series.size());
            telemetry->samplesPerSeries.push_back(int(snap.series.front().samples.size()));
        }
        writer.addTelemetry(out.uuid, si.index, std::move(snap));
        TargetRow row;
        row.metric = "output_tps_per_gpu";
        row.value = 10;
        row.source = "test";
        Scenario sc;
        sc.id = si.key;
        VerdictOptions vo;
        vo.judgeScenarioSlo = false;
        const Verdict v = judgeScenario(sc, results, {row}, vo);
        writer.setScenarioVerdict(out.uuid, si.index, v.toJson());
        out.verdicts.emplace_back(verdictStatusKey(v.status));
    }
    writer.finishRun(out.uuid, RunStatus::Completed);
    return out;
}

} // namespace Throughline::TestFixture
