#include "core/storage/bundlemerger.h"

#include "core/campaign/campaignjson.h"
#include "core/campaign/matrixexpander.h"
#include "core/metrics/pointanalysis.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/timingsummary.h"
#include "core/storage/eventcodec.h"
#include "core/storage/historyreader.h"
#include "core/storage/importsupport.h"
#include "core/storage/runbundle.h"
#include "core/storage/schema.h"
#include "core/storage/shardset.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "core/storage/telemetryreader.h"
#include "core/targets/verdict.h"
#include "core/metrics/repeatgroups.h"

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

namespace Throughline {

namespace {

using nlohmann::json;

// A merged point's request breakdowns (schema v6): every shard's, keyed by seq like the request rows. Shards
// of one plan send disjoint seqs (shardrunner.cpp); runs merged by wall clock may not, and the table's key
// holds one breakdown per seq, so a clash keeps the first shard's and is counted for the report's notes.
struct MergedBreakdowns {
    std::map<std::uint64_t, RequestBreakdown> bySeq;
    std::size_t clashes = 0;

    void add(std::vector<RequestBreakdown> from)
    {
        for (RequestBreakdown &b : from)
            if (!bySeq.emplace(b.seq, std::move(b)).second)
                ++clashes;
    }
    // The merged point's summary: its parts over the merged measured requests (not warm-up, successful),
    // the join's counts summed over the shards' summaries (format and join are the campaign's, one for all).
    // Empty when no shard published server timing.
    ServerTimingSummary summary(const std::vector<RequestRecord> &merged,
                                const std::vector<ServerTimingSummary> &shards) const
    {
        if (shards.empty())
            return {};
        std::vector<RequestBreakdown> measured;
        for (const RequestRecord &r : merged)
            if (const auto it = bySeq.find(r.seq); it != bySeq.end() && !r.warmup && r.ok())
                measured.push_back(it->second);
        ServerTimingSummary s = summarizeBreakdowns(shards.front().format, shards.front().join, measured);
        s.matched = s.missing = 0; // counted over every request, warm-up included, as the shards did
        for (const ServerTimingSummary &shard : shards) {
            s.matched += shard.matched;
            s.missing += shard.missing;
            s.extraEntries += shard.extraEntries;
            s.problemCount += shard.problemCount;
            for (const std::string &problem : shard.problems)
                if (int(s.problems.size()) < ServerTimingJoin::kMaxProblems)
                    s.problems.push_back(problem);
        }
        return s;
    }
    std::vector<RequestBreakdown> inSeqOrder()
    {
        std::vector<RequestBreakdown> out;
        out.reserve(bySeq.size());
        for (auto &[seq, b] : bySeq)
            out.push_back(std::move(b));
        return out;
    }
};

struct Shard {
    std::string path, uuid;
    std::string readPath; // `path`, or a migrated copy of it (readableCopy)
    RunDetail detail;
};

// HistoryReader reads databases of this build's schema only. A shard bundle of an older importable version
// (v2, v3) is read from a migrated copy in `dir` (VACUUM INTO: a consistent snapshot even of a file with a
// WAL); the input file stays untouched.
Result<std::string> readableCopy(const std::string &path, const QTemporaryDir &dir, std::size_t index)
{
    SqliteDb src;
    if (auto s = src.open(path, SqliteDb::Mode::ReadOnly); !s)
        return s.error();
    auto v = Schema::version(src);
    if (!v)
        return v.error();
    if (*v == Schema::kVersion)
        return path;
    if (!dir.isValid())
        return makeError(ErrorCode::Storage, "no temporary directory to migrate " + path +
                                                 " (schema version " + std::to_string(*v) + ") for merging");
    const std::string copy = dir.filePath(QStringLiteral("shard-%1.tlrun").arg(index)).toStdString();
    auto into = src.prepare("VACUUM INTO ?");
    if (!into)
        return into.error();
    into->bind(1, copy);
    if (!into->run())
        return src.lastError("copy " + path + " for migration");
    src.close();
    SqliteDb db;
    if (auto s = db.open(copy, SqliteDb::Mode::ReadWrite); !s)
        return s.error();
    if (auto s = Schema::migrate(db); !s)
        return makeError(s.error().code, path + ": " + s.error().message);
    return copy;
}

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

// Records of time-scaled simulated scenarios are in model time (wall × scale).
double scenarioTimeScale(const RunSummary &run, const ScenarioRow &sc)
{
    const json &c = sc.config;
    if (c.is_object() && c.contains("simulated") && c["simulated"].is_boolean()) {
        if (!c["simulated"].get<bool>())
            return 1.0;
        const double s = ImportSupport::number(c.value("time_scale", json()), 1.0);
        return s > 0 ? s : 1.0;
    }
    return run.simulated && run.timeScale > 0 ? run.timeScale : 1.0;
}

// Scheduled wall-clock start (Unix ns) of a point of a time-scheduled shard run, from provenance "shard":
// start_at + slot × point_slot_s. nullopt for unscheduled runs/points.
std::optional<std::int64_t> scheduledStartNs(const json &provenance, const std::string &scenarioKey,
                                             int point)
{
    if (!provenance.is_object() || !provenance.contains("shard"))
        return std::nullopt;
    const json &sh = provenance["shard"];
    const double startMs = ImportSupport::number(sh.value("start_at_unix_ms", json()), 0);
    const double slotS = ImportSupport::number(sh.value("point_slot_s", json()), 0);
    if (startMs <= 0 || slotS <= 0 || !sh.contains("engine_runs") || !sh["engine_runs"].is_array())
        return std::nullopt;
    for (const json &e : sh["engine_runs"]) {
        if (e.value("scenario", std::string()) == scenarioKey && e.value("point", -1) == point &&
            e.contains("slot"))
            return static_cast<std::int64_t>(std::llround(startMs * 1e6 + e.value("slot", 0) * slotS * 1e9));
    }
    return std::nullopt;
}

// "i/N" of a shard bundle, or its position in the merge when it names no shard.
std::string shardTag(const Shard &s)
{
    return s.detail.summary.shard.empty() ? s.path : s.detail.summary.shard;
}

// "shard 2/4" or "shards 1/4, 2/4".
std::string joinTags(const std::vector<std::string> &tags)
{
    std::string s = tags.size() == 1 ? "shard " : "shards ";
    for (std::size_t i = 0; i < tags.size(); ++i)
        s += (i ? ", " : "") + tags[i];
    return s;
}

// One warning per point whose shards did not start together or on time.
std::string startWarning(const std::string &scenarioKey, int point, double skewMs,
                         const std::vector<std::string> &lateShards, const json &lateness,
                         const BundleMerger::Options &options)
{
    std::string w = "point " + scenarioKey + " #" + std::to_string(point) + ":";
    if (skewMs > options.skewLimitMs)
        w += " shard start skew " + std::to_string(static_cast<int>(std::lround(skewMs))) + " ms > " +
             std::to_string(static_cast<int>(std::lround(options.skewLimitMs))) + " ms";
    for (const std::string &tag : lateShards) {
        char late[64];
        std::snprintf(late, sizeof late, "%.2f", lateness.value(tag, 0.0) / 1000.0);
        w += (w.back() == ':' ? " shard " : "; shard ") + tag + " started " + late + " s after its slot";
    }
    return w;
}

// Server telemetry of one merged scenario: `stored` keeps every shard's series (labelled shard=…) and
// sources for the merged bundle; `summary` joins the shards' copies of the same server series (same URL,
// metric and labels) into one, so that a queue two shards both scraped counts once, for the per-point
// summaries. Times on the merged t=0.
struct ScenarioTelemetry {
    TelemetrySnapshot stored;
    TelemetrySnapshot summary;
};

Result<std::map<int, ScenarioTelemetry>> mergedTelemetry(const std::vector<Shard> &shards, std::int64_t t0,
                                                         const std::function<double(int)> &scaleOf)
{
    std::map<int, ScenarioTelemetry> out;
    std::map<std::tuple<int, std::string, std::string, std::string>, std::size_t> joined; // → summary index
    for (std::size_t k = 0; k < shards.size(); ++k) {
        const Shard &sh = shards[k];
        TelemetryReader tr;
        if (auto s = tr.open(sh.readPath); !s)
            return s.error();
        if (!tr.hasTelemetry())
            continue;
        auto series = tr.series(sh.uuid);
        if (!series)
            return series.error();
        auto sources = tr.sources(sh.uuid);
        if (!sources)
            return sources.error();
        const std::string tag = sh.detail.summary.shard.empty() ? std::to_string(k) : sh.detail.summary.shard;
        std::map<std::pair<int, int>, int> sourceIndex; // (scenario, shard's source index) → merged index
        for (const StoredTelemetrySource &src : *sources) {
            ScenarioTelemetry &st = out[src.scenarioIndex];
            sourceIndex[{src.scenarioIndex, src.source}] = static_cast<int>(st.stored.sources.size());
            TelemetrySourceStatus m;
            m.url = src.url;
            m.backendId = src.backend;
            m.scrapesOk = src.scrapesOk;
            m.scrapesFailed = src.scrapesFailed;
            m.malformedLines = src.malformedLines;
            m.lastError = src.lastError.empty() ? std::string() : "shard " + tag + ": " + src.lastError;
            st.stored.sources.push_back(m);
        }
        for (StoredTelemetrySeries &ser : *series) {
            if (ser.scenarioIndex < 0)
                continue;
            ScenarioTelemetry &st = out[ser.scenarioIndex];
            const auto shiftNs = static_cast<std::int64_t>(std::llround(
                static_cast<double>(sh.detail.summary.t0UnixNs - t0) * scaleOf(ser.scenarioIndex)));
            TelemetrySeries t;
            t.name = ser.metric;
            t.unit = ser.unit;
            t.common = true;
            for (auto it = ser.labels.begin(); it != ser.labels.end(); ++it)
                if (it.key() != "shard")
                    t.labels.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
            t.samples = std::move(ser.samples);
            for (TelemetrySample &x : t.samples)
                x.tNs += shiftNs;
            // The stored source is the URL; its index among this shard's sources of the scenario, when known.
            t.source = 0;
            for (const StoredTelemetrySource &src : *sources)
                if (src.scenarioIndex == ser.scenarioIndex && src.url == ser.source)
                    t.source = sourceIndex[{src.scenarioIndex, src.source}];
            const auto key = std::make_tuple(ser.scenarioIndex, ser.source, t.name, json(ser.labels).dump());
            if (auto j = joined.find(key); j != joined.end()) {
                TelemetrySeries &same = st.summary.series[j->second];
                same.samples.insert(same.samples.end(), t.samples.begin(), t.samples.end());
                std::sort(same.samples.begin(), same.samples.end(),
                          [](const TelemetrySample &a, const TelemetrySample &b) { return a.tNs < b.tNs; });
            } else {
                joined[key] = st.summary.series.size();
                st.summary.series.push_back(t);
            }
            t.labels.emplace_back("shard", tag);
            std::sort(t.labels.begin(), t.labels.end());
            st.stored.series.push_back(std::move(t));
        }
    }
    for (auto &[index, st] : out)
        st.summary.sources = st.stored.sources;
    return out;
}

std::optional<TargetTable> storedTargets(const RunDetail &d, std::vector<std::string> &notes)
{
    for (const json &t : d.targets) {
        if (!t.is_object() || !t.contains("text") || !t["text"].is_string())
            continue;
        const std::string name = t.value("name", std::string("targets"));
        auto table = TargetTable::parse(t["text"].get<std::string>(), name);
        if (!table) {
            notes.push_back("stored target table " + name + ": " + table.error().message);
            continue;
        }
        if (const std::string preset = t.value("preset", std::string()); !preset.empty()) {
            if (auto s = table->selectPreset(preset); !s) {
                notes.push_back("stored target table " + name + ": " + s.error().message);
                continue;
            }
        }
        return std::move(table).value();
    }
    return std::nullopt;
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
            in.scheduleEndNs = ctx.windowEndNs; // the shards' W1: their (shared) schedule end
        } else {
            in.load.concurrency = load.value("concurrency", 0);
        }
        in.gpus.total = std::max(1, ctx.scenario.gpus);
        in.gpus.prefill = ctx.scenario.prefillGpus;
        in.gpus.decode = ctx.scenario.decodeGpus;
        in.confidenceLevel = kDefaultConfidenceLevel; // intervals are recomputed from the merged samples
        if (const Scenario *sc = ctx.campaignScenario) {
            // As the engine judges a point (core/run/pointfinish.cpp finishPoint).
            in.slo = sc->slo;
            in.validity.minWindowS = sc->plan.minWindowS;
            in.confidenceLevel = sc->plan.confidenceLevel;
        }
        return aggregatePoint(in).toJson();
    };
}

Result<BundleMerger::Report> BundleMerger::merge(const std::vector<std::string> &bundles,
                                                 const std::string &outBundle, const Options &options)
{
    if (bundles.size() < 2)
        return makeError(ErrorCode::InvalidInput, "merge needs at least two bundles");
    std::vector<Shard> shards;
    const QTemporaryDir migrated; // copies of older shard bundles, removed when the merge returns
    for (const std::string &path : bundles) {
        auto uuid = RunBundle::runUuid(path);
        if (!uuid)
            return uuid.error();
        auto readPath = readableCopy(path, migrated, shards.size());
        if (!readPath)
            return readPath.error();
        HistoryReader reader;
        if (auto s = reader.open(*readPath); !s)
            return s.error();
        auto d = reader.runDetail(*uuid);
        if (!d)
            return d.error();
        shards.push_back({path, *uuid, *readPath, std::move(*d)});
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
    // All N shards, each completed: a missing or cancelled one would make a silent partial result.
    std::vector<ShardBundleInfo> shardSet;
    for (const Shard &s : shards)
        shardSet.push_back({s.path, s.detail.summary.shard, s.detail.summary.status});
    auto shardCheck = checkShardSet(shardSet, options.allowMissingShards);
    if (!shardCheck)
        return shardCheck.error();
    Report report;
    report.missingShards = shardCheck->missing;
    if (!report.missingShards.empty())
        report.warnings.push_back("partial merge: " + joinTags(report.missingShards) +
                                  " missing; every point is flagged shard_missing (invalid): it offered the "
                                  "server only part of the campaign's load");

    // The campaign as the shards ran it: SLOs, minimum window and targets of every scenario.
    std::vector<Scenario> campaignScenarios;
    std::optional<Campaign> campaign;
    if (auto c = CampaignJson::read(first.detail.campaignJson); !c) {
        report.notes.push_back("stored campaign not readable (" + c.error().message +
                               "): default validity thresholds, no verdicts");
    } else if (auto ex = MatrixExpander().expand(*c); !ex) {
        report.notes.push_back("stored campaign not expandable (" + ex.error().message +
                               "): default validity thresholds, no verdicts");
    } else {
        campaign = std::move(c).value();
        campaignScenarios = std::move(ex).value();
    }
    std::optional<TargetTable> targets = options.targets;
    if (!targets && campaign) {
        targets = storedTargets(first.detail, report.notes);
        if (!targets && !campaign->targets.file.empty()) {
            if (campaign->targets.file.rfind(":/", 0) == 0) {
                auto t = TargetTable::load(campaign->targets.file);
                if (t)
                    targets = std::move(t).value();
                else
                    report.notes.push_back(t.error().message);
            } else {
                report.notes.push_back("target table " + campaign->targets.file +
                                       " is not stored with the shards: pass --targets FILE (judged on "
                                       "the scenarios' SLOs only)");
            }
        }
    }
    if (targets)
        report.targetsName = targets->name();

    // Merged t=0: the plan's --start-at when the shards ran a schedule, else the earliest shard t0.
    std::int64_t t0 = first.detail.summary.t0UnixNs;
    for (const Shard &s : shards)
        t0 = std::min(t0, s.detail.summary.t0UnixNs);
    if (const json &pv = first.detail.provenance; pv.is_object() && pv.contains("shard")) {
        const double startMs = ImportSupport::number(pv["shard"].value("start_at_unix_ms", json()), 0);
        if (startMs > 0 && ImportSupport::number(pv["shard"].value("point_slot_s", json()), 0) > 0)
            t0 = static_cast<std::int64_t>(std::llround(startMs * 1e6));
    }

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
    run.targets = first.detail.targets;
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

    // Server telemetry of the shards (schema v2 bundles; older ones have none).
    auto telemetry = mergedTelemetry(shards, t0, [&](int scenarioIndex) {
        for (const ScenarioRow &sc : first.detail.scenarios)
            if (sc.index == scenarioIndex)
                return scenarioTimeScale(first.detail.summary, sc);
        return 1.0;
    });
    if (!telemetry)
        return telemetry.error();

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
    std::map<int, std::vector<PointResult>> scenarioPoints; // merged results per scenario, point order
    for (const auto &[key, parts] : points) {
        PointContext ctx;
        ctx.pointConfig = parts.front().second->config;
        for (const ScenarioRow &sc : first.detail.scenarios) {
            if (sc.index == key.first)
                ctx.scenario = sc;
        }
        for (const Scenario &sc : campaignScenarios) {
            if (sc.id == ctx.scenario.key)
                ctx.campaignScenario = &sc;
        }
        const double scale = scenarioTimeScale(first.detail.summary, ctx.scenario);
        // Every part on a schedule: align on it (see header); else by wall clock.
        bool scheduled = true;
        for (const auto &[shard, p] : parts)
            scheduled = scheduled && p->startedUnixNs != kNoTime &&
                        scheduledStartNs(shard->detail.provenance, ctx.scenario.key, key.second).has_value();
        std::vector<double> startsMs;   // lateness (scheduled) or wall-clock start, ms
        json lateness = json::object(); // shard "i/N" → ms after the scheduled start (scheduled points)
        std::vector<std::string> lateShards; // lateness above options.lateLimitMs
        std::int64_t mergedStartUnix = kNoTime;
        std::vector<RequestRecord> merged;
        MergedBreakdowns breakdowns;
        std::vector<ServerTimingSummary> shardTimings; // each shard's point summary, when it has one
        for (const auto &[shard, p] : parts) {
            HistoryReader reader;
            if (auto s = reader.open(shard->readPath); !s)
                return s.error();
            auto rows = reader.requests(p->id);
            if (!rows)
                return rows.error();
            auto shardBreakdowns = reader.requestBreakdowns(p->id); // durations: no time shift needed
            if (!shardBreakdowns)
                return shardBreakdowns.error();
            breakdowns.add(std::move(shardBreakdowns).value());
            if (const auto st = p->aggregates.find("server_timing"); st != p->aggregates.end())
                if (auto summary = ServerTimingSummary::fromJson(*st))
                    shardTimings.push_back(std::move(summary).value());
            // Shift into the merged time base (model ns for time-scaled scenarios).
            std::int64_t shiftNs = static_cast<std::int64_t>(
                std::llround(static_cast<double>(shard->detail.summary.t0UnixNs - t0) * scale));
            std::int64_t startUnix = p->startedUnixNs;
            if (startUnix == kNoTime && p->windowStartNs != kNoTime)
                startUnix = shard->detail.summary.t0UnixNs +
                            static_cast<std::int64_t>(static_cast<double>(p->windowStartNs) / scale);
            if (scheduled) {
                // Part's first hand-off (its recorded start) lands at scheduled start + own lateness.
                const std::int64_t sched =
                    *scheduledStartNs(shard->detail.provenance, ctx.scenario.key, key.second);
                const std::int64_t latenessNs = p->startedUnixNs - sched;
                std::int64_t firstSend = kNoTime;
                for (const RequestRow &r : *rows)
                    if (r.tSendNs != kNoTime && (firstSend == kNoTime || r.tSendNs < firstSend))
                        firstSend = r.tSendNs;
                if (firstSend != kNoTime)
                    shiftNs = static_cast<std::int64_t>(
                                  std::llround(static_cast<double>(sched + latenessNs - t0) * scale)) -
                              firstSend;
                startsMs.push_back(static_cast<double>(latenessNs) / 1e6);
                const std::string tag = shardTag(*shard);
                lateness[tag] = std::round(static_cast<double>(latenessNs) / 1e5) / 10; // 0.1 ms
                if (static_cast<double>(latenessNs) / 1e6 > options.lateLimitMs)
                    lateShards.push_back(tag);
                startUnix = sched + latenessNs;
            } else if (startUnix != kNoTime) {
                startsMs.push_back(static_cast<double>(startUnix) / 1e6);
            }
            if (startUnix != kNoTime)
                mergedStartUnix =
                    mergedStartUnix == kNoTime ? startUnix : std::min(mergedStartUnix, startUnix);
            if (p->windowStartNs != kNoTime)
                ctx.windowStartNs = ctx.windowStartNs == kNoTime
                                        ? p->windowStartNs + shiftNs
                                        : std::min(ctx.windowStartNs, p->windowStartNs + shiftNs);
            if (p->windowEndNs != kNoTime)
                ctx.windowEndNs = std::max(ctx.windowEndNs, p->windowEndNs + shiftNs);
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
        if (scheduled)
            ++report.scheduledPoints;
        json agg = merged.empty() ? json{{"metrics", json::object()}} : options.aggregator(merged, ctx);
        // Per-point telemetry summary over the merged window, stalls over the merged streams (as the engine
        // does per point, core/metrics/pointanalysis.h); only for scenarios with stored telemetry.
        nlohmann::json pointTelemetry;
        if (const auto tIt = telemetry->find(key.first); tIt != telemetry->end() && !merged.empty()) {
            if (auto pr = PointResult::fromJson(agg)) {
                PointResult result = std::move(pr).value();
                result.telemetry.clear();
                nlohmann::json detail = nlohmann::json::object();
                const std::size_t notesBefore = result.validity.notes.size();
                StallOptions stalls;
                stalls.minThresholdNs =
                    static_cast<std::int64_t>(static_cast<double>(stalls.minThresholdNs) * scale);
                analysePoint(result, detail, merged, &tIt->second.summary, stalls, false);
                agg["telemetry"] = detail["telemetry"];
                for (std::size_t n = notesBefore; n < result.validity.notes.size(); ++n)
                    agg["validity"]["notes"].push_back(result.validity.notes[n]);
                pointTelemetry = std::move(detail);
            }
        }
        if (skewMs > options.skewLimitMs || !lateShards.empty()) {
            report.warnings.push_back(
                startWarning(ctx.scenario.key, key.second, skewMs, lateShards, lateness, options));
            agg["validity"]["valid"] = false;
            if (skewMs > options.skewLimitMs)
                agg["validity"]["flags"].push_back("shard_skew");
            if (!lateShards.empty())
                agg["validity"]["flags"].push_back("shard_late");
        }
        if (!report.missingShards.empty()) {
            agg["validity"]["valid"] = false;
            agg["validity"]["flags"].push_back("shard_missing");
        }
        for (const std::string &tag : lateShards)
            if (std::find(report.lateShards.begin(), report.lateShards.end(), tag) == report.lateShards.end())
                report.lateShards.push_back(tag);
        if (const ServerTimingSummary timing = breakdowns.summary(merged, shardTimings); !timing.empty())
            agg["server_timing"] = timing.toJson();
        agg["merge"] = {{"shards", parts.size()},
                        {"skew_ms", skewMs},
                        {"aligned_on", scheduled ? "schedule" : "wall_clock"}};
        if (!report.missingShards.empty())
            agg["merge"]["missing_shards"] = report.missingShards;
        if (scheduled) {
            agg["merge"]["lateness_ms"] = lateness;
            agg["merge"]["late_shards"] = lateShards;
        }
        report.requests += merged.size();
        ++report.points;
        if (auto pr = PointResult::fromJson(agg))
            scenarioPoints[key.first].push_back(std::move(pr).value());
        json config = ctx.pointConfig;
        writer.beginPoint(run.uuid, key.first, key.second, config, mergedStartUnix);
        writer.addRequests(run.uuid, std::move(merged));
        writer.finishPoint(run.uuid,
                           FinishedPoint{key.first, key.second, agg, "", ctx.windowStartNs, ctx.windowEndNs});
        if (pointTelemetry.is_object())
            writer.setPointTelemetry(run.uuid, key.first, key.second, std::move(pointTelemetry));
        writer.setRequestBreakdowns(run.uuid, key.first, key.second, breakdowns.inSeqOrder());
        if (breakdowns.clashes > 0)
            report.notes.push_back(
                "scenario " + ctx.scenario.key + " point " + std::to_string(key.second) + ": " +
                std::to_string(breakdowns.clashes) +
                " request breakdowns share a seq with another shard's; the first shard's kept");
    }
    // Every shard's series, labelled with its shard, one source list per scenario.
    for (auto &[index, st] : *telemetry)
        if (!st.stored.series.empty() || !st.stored.sources.empty())
            writer.addTelemetry(run.uuid, index, std::move(st.stored));
    // Verdicts on the merged points, as `run` judges an unsharded campaign.
    for (const ScenarioRow &sc : first.detail.scenarios) {
        const Scenario *scenario = nullptr;
        for (const Scenario &c : campaignScenarios)
            if (c.id == sc.key)
                scenario = &c;
        Report::ScenarioVerdict v{sc.key, ""};
        if (scenario) {
            std::vector<PointResult> pts = scenarioPoints[sc.index];
            fillAcrossRepeatIntervals(pts);
            const std::vector<TargetRow> rows =
                targets ? targets->matching(*scenario) : std::vector<TargetRow>{};
            const Verdict verdict = judgeScenario(*scenario, pts, rows);
            v.status = std::string(verdictStatusKey(verdict.status));
            writer.setScenarioVerdict(run.uuid, sc.index, verdict.toJson());
        } else if (campaign) {
            report.notes.push_back("scenario " + sc.key + " is not in the stored campaign: not judged");
        }
        report.verdicts.push_back(std::move(v));
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
