#include "core/storage/bundlemerger.h"

#include "core/metrics/pointaggregate.h"
#include "core/storage/eventcodec.h"
#include "core/storage/historyreader.h"
#include "core/storage/importsupport.h"
#include "core/storage/runbundle.h"
#include "core/storage/storagewriter.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace Throughline {

namespace {

using nlohmann::json;

struct Shard {
    std::string path, uuid;
    RunDetail detail;
};

RequestRecord toRecord(const RequestRow &r, std::vector<StreamEvent> events, std::int64_t shiftNs)
{
    auto shift = [&](std::int64_t t) { return t == kNoTime ? kNoTime : t + shiftNs; };
    RequestRecord q;
    q.seq = static_cast<std::uint64_t>(r.seq);
    q.warmup = r.warmup;
    q.tSched = shift(r.tSchedNs);
    q.tSend = shift(r.tSendNs);
    q.tEnd = shift(r.tEndNs);
    for (StreamEvent &e : events)
        e.tNs += shiftNs;
    q.events = std::move(events);
    q.usage = {r.promptTokens, r.completionTokens, r.cachedTokens, r.reasoningTokens};
    q.nOut = r.nOut;
    q.nOutSource = static_cast<TokenCountSource>(r.nOutSource);
    q.nFirst = r.nFirst;
    q.error = static_cast<ErrorClass>(r.errorClass);
    q.httpStatus = r.httpStatus;
    return q;
}

} // namespace

BundleMerger::PointAggregator BundleMerger::defaultAggregator()
{
    return [](std::span<const RequestRecord> records, const PointContext &ctx) {
        PointInput in;
        in.records = records;
        const json load =
            ctx.pointConfig.is_object() ? ctx.pointConfig.value("load", json::object()) : json::object();
        if (load.value("mode", std::string()) == "rate") {
            in.load.mode = PointLoad::Mode::Rate;
            in.load.rate = ImportSupport::number(load.value("rate", json()), 0);
        } else {
            in.load.concurrency = load.value("concurrency", 0);
        }
        in.gpus.total = std::max(1, ctx.scenario.gpus);
        in.gpus.prefill = ctx.scenario.prefillGpus;
        in.gpus.decode = ctx.scenario.decodeGpus;
        // TODO(storage): SLOs and validity thresholds of the campaign are not passed yet (defaults used).
        return aggregatePoint(in).toJson();
    };
}

Result<BundleMerger::Report> BundleMerger::merge(const std::vector<std::string> &bundles,
                                                 const std::string &outBundle,
                                                 const PointAggregator &aggregator)
{
    if (bundles.size() < 2)
        return makeError(ErrorCode::InvalidInput, "merge needs at least two bundles");
    std::vector<Shard> shards;
    for (const std::string &path : bundles) {
        auto uuid = RunBundle::runUuid(path);
        if (!uuid)
            return uuid.error();
        HistoryReader reader;
        if (auto s = reader.open(path); !s)
            return s.error();
        auto d = reader.runDetail(*uuid);
        if (!d)
            return d.error();
        shards.push_back({path, *uuid, std::move(*d)});
    }
    const Shard &first = shards.front();
    for (const Shard &s : shards) {
        if (s.detail.summary.campaignSha != first.detail.summary.campaignSha)
            return makeError(ErrorCode::InvalidInput, "cannot merge: " + s.path + " ran campaign " +
                                                          s.detail.summary.campaignSha.substr(0, 12) + ", " +
                                                          first.path + " ran " +
                                                          first.detail.summary.campaignSha.substr(0, 12));
        if (s.detail.summary.planId != first.detail.summary.planId)
            return makeError(ErrorCode::InvalidInput, "cannot merge: " + s.path + " has plan id '" +
                                                          s.detail.summary.planId + "', " + first.path +
                                                          " has '" + first.detail.summary.planId + "'");
        if (s.uuid == first.uuid && &s != &first)
            return makeError(ErrorCode::InvalidInput,
                             "cannot merge: " + s.path + " and " + first.path + " hold the same run");
    }
    std::int64_t t0 = first.detail.summary.t0UnixNs;
    for (const Shard &s : shards)
        t0 = std::min(t0, s.detail.summary.t0UnixNs);

    Report report;
    report.uuid = ImportSupport::newUuid();
    report.shards = static_cast<int>(shards.size());
    RunStart run;
    run.uuid = report.uuid;
    run.campaignName = first.detail.summary.campaignName;
    run.campaignJson = first.detail.campaignJson;
    run.planId = first.detail.summary.planId;
    run.simulated = first.detail.summary.simulated;
    run.timeScale = first.detail.summary.timeScale;
    run.t0UnixNs = t0;
    run.source = "merge";
    run.tags = first.detail.summary.tags;
    json from = json::array();
    for (const Shard &s : shards)
        from.push_back({{"run_id", s.uuid}, {"shard", s.detail.summary.shard}, {"file", s.path}});
    run.provenance = {{"merged_from", from}};
    for (const ScenarioRow &sc : first.detail.scenarios) {
        ScenarioInfo si;
        si.index = sc.index;
        si.key = sc.key;
        si.model = sc.model;
        si.backend = sc.backend;
        si.gpu = sc.gpu;
        si.phase = sc.phase;
        si.gpus = sc.gpus;
        si.prefillGpus = sc.prefillGpus;
        si.decodeGpus = sc.decodeGpus;
        si.isl = sc.isl;
        si.osl = sc.osl;
        si.config = sc.config;
        run.scenarios.push_back(std::move(si));
    }

    if (auto s = RunBundle::createEmpty(outBundle); !s)
        return s.error();
    StorageWriter writer;
    StorageWriter::Options opt;
    opt.recoverCrashed = false;
    if (auto s = writer.open(outBundle, opt); !s)
        return s.error();
    writer.beginGroup();
    writer.beginRun(run);
    // Points keyed by (scenario index, point index) across shards.
    std::map<std::pair<int, int>, std::vector<std::pair<const Shard *, const PointRow *>>> points;
    for (const Shard &s : shards) {
        for (const PointRow &p : s.detail.points)
            points[{p.scenarioIndex, p.pointIndex}].push_back({&s, &p});
    }
    for (const auto &[key, parts] : points) {
        PointContext ctx;
        ctx.pointConfig = parts.front().second->config;
        for (const ScenarioRow &sc : first.detail.scenarios) {
            if (sc.index == key.first)
                ctx.scenario = sc;
        }
        // Skew: wall-clock start of the point on each shard (point start, else its window start).
        std::vector<double> startsMs;
        std::vector<RequestRecord> merged;
        for (const auto &[shard, p] : parts) {
            const std::int64_t shiftNs = shard->detail.summary.t0UnixNs - t0;
            std::int64_t startUnix = p->startedUnixNs;
            if (startUnix == kNoTime && p->windowStartNs != kNoTime)
                startUnix = shard->detail.summary.t0UnixNs + p->windowStartNs;
            if (startUnix != kNoTime)
                startsMs.push_back(static_cast<double>(startUnix) / 1e6);
            if (p->windowStartNs != kNoTime)
                ctx.windowStartNs = ctx.windowStartNs == kNoTime
                                        ? p->windowStartNs + shiftNs
                                        : std::min(ctx.windowStartNs, p->windowStartNs + shiftNs);
            if (p->windowEndNs != kNoTime)
                ctx.windowEndNs = std::max(ctx.windowEndNs, p->windowEndNs + shiftNs);
            HistoryReader reader;
            if (auto s = reader.open(shard->path); !s)
                return s.error();
            auto rows = reader.requests(p->id);
            if (!rows)
                return rows.error();
            for (const RequestRow &r : *rows) {
                auto ev = reader.events(r.id);
                if (!ev)
                    return ev.error();
                // Events are stored relative to the row's t_send; decode gave absolute shard times.
                merged.push_back(toRecord(r, std::move(*ev), shiftNs));
                merged.back().scenarioIndex = key.first;
                merged.back().pointIndex = key.second;
            }
        }
        double skewMs = 0;
        if (startsMs.size() > 1)
            skewMs = *std::max_element(startsMs.begin(), startsMs.end()) -
                     *std::min_element(startsMs.begin(), startsMs.end());
        report.maxSkewMs = std::max(report.maxSkewMs, skewMs);
        json agg = merged.empty() ? json{{"metrics", json::object()}} : aggregator(merged, ctx);
        if (skewMs > kSkewLimitMs) {
            report.warnings.push_back("point " + ctx.scenario.key + " #" + std::to_string(key.second) +
                                      ": shard start skew " +
                                      std::to_string(static_cast<int>(std::lround(skewMs))) + " ms > 50 ms");
            agg["validity"]["valid"] = false;
            agg["validity"]["flags"].push_back("shard_skew");
        }
        agg["merge"] = {{"shards", parts.size()}, {"skew_ms", skewMs}};
        report.requests += merged.size();
        ++report.points;
        json config = ctx.pointConfig;
        writer.beginPoint(run.uuid, key.first, key.second, config,
                          startsMs.empty() ? kNoTime
                                           : static_cast<std::int64_t>(
                                                 *std::min_element(startsMs.begin(), startsMs.end()) * 1e6));
        writer.addRequests(run.uuid, std::move(merged));
        writer.finishPoint(run.uuid,
                           FinishedPoint{key.first, key.second, agg, "", ctx.windowStartNs, ctx.windowEndNs});
    }
    writer.finishRun(run.uuid, RunStatus::Completed);
    writer.endGroup();
    if (auto s = writer.close(); !s)
        return s.error();
    if (auto s = RunBundle::finalize(outBundle); !s)
        return s.error();
    return report;
}

} // namespace Throughline
