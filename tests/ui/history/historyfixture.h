#pragma once
// Builds a demo-like stored run in a temporary history database: StorageWriter with synthetic point
// results (percentile blocks from generated samples, so values are real computations, not constants)
// and scenario verdicts from core/targets' judgeScenario against the shipped demo target rows.

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/storage/storagewriter.h"
#include "core/targets/verdict.h"

#include <QUuid>

#include <cmath>
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
    p.metrics.e2eMs = summarize(e2e);
    p.metrics.chunkGapMs = p.metrics.tpotMs;
    std::vector<double> inter;
    for (double t : tpot)
        inter.push_back(1000.0 / t);
    p.metrics.interactivityTpsUser = summarize(inter);
    p.metrics.outputTps = scale / 50.0 * concurrency * 1000.0 / (8 + 0.15 * concurrency); // tokens/s
    p.metrics.outputTpsPerGpu = p.metrics.outputTps;
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
                          double scale, unsigned seed, const std::vector<std::string> &tags = {})
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
        const int conc[] = {1, 8, 32, 64};
        for (int k = 0; k < 4; ++k) {
            points.push_back(
                syntheticPoint(conc[k], scale * (si.index + 1), rng, !(si.index == 1 && k == 3)));
            writer.beginPoint(out.uuid, si.index, k,
                              {{"load", {{"mode", "concurrency"}, {"concurrency", conc[k]}}}});
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

} // namespace Throughline::TestFixture
