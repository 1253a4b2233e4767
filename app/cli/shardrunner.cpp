#include "shardrunner.h"

#include "shardoutcome.h"

#include "core/storage/bundlemerger.h"

#include <QDateTime>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace Throughline::Cli {

namespace {

void shiftRecord(RequestRecord &r, std::int64_t ns)
{
    auto sh = [ns](std::int64_t &t) {
        if (t != kNoTime)
            t += ns;
    };
    sh(r.tSched);
    sh(r.tSend);
    sh(r.tWire);
    sh(r.tFirstByte);
    sh(r.tEnd);
    for (StreamEvent &e : r.events)
        e.tNs += ns; // curl timings are durations from the request's start: not shifted
}

// An engine's ISO 8601 start time as read by a clock off by offsetMs.
std::string offsetIso(const std::string &iso, std::int64_t offsetMs)
{
    if (offsetMs == 0)
        return iso;
    const QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
    return t.isValid() ? t.addMSecs(offsetMs).toUTC().toString(Qt::ISODateWithMs).toStdString() : iso;
}

} // namespace

ShardRunner::ShardRunner(const RunPlan &plan, RunOptions options, std::FILE *log)
    : m_plan(plan)
    , m_options(std::move(options))
    , m_log(log)
{
}

void ShardRunner::cancel()
{
    m_cancel = true;
    std::lock_guard lock(m_mutex);
    if (m_current)
        m_current->cancel();
}

std::string ShardRunner::currentLabel() const
{
    std::lock_guard lock(m_mutex);
    return m_label;
}

Result<RunOutcome> ShardRunner::run()
{
    const auto nowUnixMs = [this] { return QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs; };
    std::vector<RunPlan::Entry> entries;
    const std::vector<Scenario> list = m_plan.shardEntries(&entries);
    const std::int64_t startMs = m_plan.startAtUnixMs() > 0 ? m_plan.startAtUnixMs() : nowUnixMs();
    const double slotS = m_plan.pointSlotS();

    RunOutcome engine; // entry-indexed, all on the first point's t=0
    bool first = true;
    nlohmann::json engineRuns = nlohmann::json::array();
    for (std::size_t k = 0; k < list.size() && !m_cancel.load(); ++k) {
        const RunPlan::Entry &entry = entries[k];
        const PlannedScenario &ps = m_plan.scenarios()[static_cast<std::size_t>(entry.scenarioIndex)];
        const PlannedPoint &pp = ps.points[static_cast<std::size_t>(entry.pointIndex)];
        // Wait for this point's slot (the first point waits for --start-at even without slots).
        const std::int64_t slotMs =
            startMs + static_cast<std::int64_t>(std::llround(entry.slot * slotS * 1000));
        if (slotS > 0 || k == 0) {
            while (!m_cancel.load() && nowUnixMs() < slotMs)
                std::this_thread::sleep_for(
                    std::chrono::milliseconds(std::clamp<std::int64_t>(slotMs - nowUnixMs(), 1, 50)));
            const std::int64_t lateMs = nowUnixMs() - slotMs;
            if (slotS > 0 && lateMs > static_cast<std::int64_t>(BundleMerger::kSkewLimitMs))
                std::fprintf(stderr,
                             "run: warning: %s point %d started %.2f s after its slot (the previous point "
                             "overran --point-slot %.1f s); merge will flag the skew\n",
                             ps.scenario.id.c_str(), entry.pointIndex, static_cast<double>(lateMs) / 1000.0,
                             slotS);
        } else if (k > 0 && ps.scenario.plan.cooldownS > 0) {
            // Back to back: each point is its own engine run, so the engine's cooldown between points of a
            // scenario does not apply; keep the plan's pause here (model seconds, time scale applied).
            const double pauseS = ps.scenario.plan.cooldownS / ps.timeScale;
            const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(pauseS);
            while (!m_cancel.load() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (m_cancel.load())
            break;
        std::string label = ps.scenario.id + " point " + std::to_string(entry.pointIndex) + " " +
                            pp.loadLabel() + " (this shard: " +
                            (pp.rateMode ? "rate/" + std::to_string(m_plan.shard().count)
                                         : "C=" + std::to_string(pp.shardConcurrency)) +
                            ")";
        std::fprintf(m_log, "[%zu/%zu] %s\n", k + 1, list.size(), label.c_str());
        std::fflush(m_log);

        // Every shard and point sends its own request seqs: prompts are made from the seq, and a shared
        // server with prefix caching would otherwise serve the second shard's identical prompts from its
        // cache.
        RunOptions options = m_options;
        options.firstSeq =
            (static_cast<std::uint64_t>(m_plan.shard().index) << 40) + (static_cast<std::uint64_t>(k) << 24);
        RunController controller({list[k]}, options);
        {
            std::lock_guard lock(m_mutex);
            m_current = &controller;
            m_label = label;
        }
        if (m_cancel.load())
            controller.cancel();
        auto outcome = controller.run();
        {
            std::lock_guard lock(m_mutex);
            m_current = nullptr;
        }
        if (!outcome)
            return outcome.error();
        RunOutcome &o = *outcome;
        o.startedUtc = offsetIso(o.startedUtc, m_clockOffsetMs);
        if (first) {
            engine.runId = o.runId;
            engine.startedUtc = o.startedUtc;
            engine.t0SteadyNs = o.t0SteadyNs;
            engine.provenance = o.provenance;
            first = false;
        }
        engine.simulated = engine.simulated || o.simulated;
        if (o.simulated)
            engine.timeScale = o.timeScale;
        engine.cancelled = engine.cancelled || o.cancelled;
        engineRuns.push_back({{"scenario", ps.scenario.id},
                              {"point", entry.pointIndex},
                              {"slot", entry.slot},
                              {"engine_run_id", o.runId},
                              {"started_utc", o.startedUtc}});
        const std::int64_t wallShiftNs = o.t0SteadyNs - engine.t0SteadyNs;
        for (ScenarioOutcome &so : o.scenarios) {
            // Time-scaled simulated records are in model time: the wall shift scales with them.
            const double scale = so.simulated ? so.timeScale : 1.0;
            const auto shiftNs =
                static_cast<std::int64_t>(std::llround(static_cast<double>(wallShiftNs) * scale));
            so.scenarioIndex = static_cast<int>(k);
            for (PointOutcome &po : so.points) {
                for (RequestRecord &r : po.records)
                    shiftRecord(r, shiftNs);
                po.result.w0S += static_cast<double>(shiftNs) / 1e9;
                po.result.w1S += static_cast<double>(shiftNs) / 1e9;
            }
            engine.scenarios.push_back(std::move(so));
        }
    }
    if (m_cancel.load())
        engine.cancelled = true;
    if (first) { // cancelled before the first point: an empty run
        engine.runId = newUuidV4();
        engine.startedUtc = QDateTime::currentDateTimeUtc()
                                .addMSecs(m_clockOffsetMs)
                                .toString(Qt::ISODateWithMs)
                                .toStdString();
    }
    if (!engine.provenance.is_object())
        engine.provenance = nlohmann::json::object();
    engine.provenance["shard"] = {{"index", m_plan.shard().index},
                                  {"count", m_plan.shard().count},
                                  {"plan_id", m_plan.planId()},
                                  {"point_slot_s", slotS},
                                  {"start_at_unix_ms", m_plan.startAtUnixMs()},
                                  {"engine_runs", std::move(engineRuns)}};
    if (m_clockOffsetMs != 0)
        engine.provenance["shard"]["clock_offset_ms"] = m_clockOffsetMs; // injected (testing)
    return regroupShardOutcome(m_plan, std::move(engine), entries);
}

} // namespace Throughline::Cli
