#include "core/run/mlperfmode.h"

#include "core/metrics/pointresult.h"
#include "core/metrics/requestmetrics.h"
#include "core/mlperf/adaptiveplacement.h"
#include "core/mlperf/frontier.h"
#include "core/mlperf/pointplanner.h"
#include "core/mlperf/regions.h"
#include "core/mlperf/rulespreset.h"
#include "core/mlperf/scenariocheck.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {

std::string_view offlineKey(Mlperf::OfflineMode m)
{
    switch (m) {
    case Mlperf::OfflineMode::Dedicated:
        return "dedicated";
    case Mlperf::OfflineMode::Elected:
        return "elected";
    case Mlperf::OfflineMode::None:
        break;
    }
    return "none";
}

std::string_view roleKey(Mlperf::PlannedPoint::Role r)
{
    using R = Mlperf::PlannedPoint::Role;
    switch (r) {
    case R::UltraLow:
        return "ultra_low";
    case R::Mandatory:
        return "mandatory";
    case R::Choice:
        return "choice";
    case R::Offline:
        break;
    }
    return "offline";
}

Mlperf::OfflineMode offlineModeFor(const MlperfModeOptions &o, const Mlperf::RulesPreset &preset)
{
    if (o.offline)
        return *o.offline;
    if (!preset.offlinePoint)
        return Mlperf::OfflineMode::None;
    return o.datasetSize > 0 ? Mlperf::OfflineMode::Dedicated : Mlperf::OfflineMode::Elected;
}

// A closed-loop scenario's own concurrencies as the plan, in run order: regions from its smallest
// concurrency and C_max (points outside them keep OutOfRange, so EPR-19 judges them); a dedicated Offline run
// is the last listed concurrency.
std::vector<Mlperf::PlannedPoint> closedPlan(const std::vector<int> &concurrencies, int cMax,
                                             Mlperf::OfflineMode offline, const Mlperf::RulesPreset &preset)
{
    std::vector<Mlperf::PlannedPoint> plan;
    const bool dedicated = offline == Mlperf::OfflineMode::Dedicated && !concurrencies.empty();
    const std::size_t fixedCount = concurrencies.size() - (dedicated ? 1 : 0);
    int cMin = 0;
    for (std::size_t i = 0; i < fixedCount; ++i)
        cMin = cMin == 0 ? concurrencies[i] : std::min(cMin, concurrencies[i]);
    const auto bounds = Mlperf::regionBounds(cMin, cMax, preset.regions);
    for (std::size_t i = 0; i < concurrencies.size(); ++i) {
        Mlperf::PlannedPoint pp;
        pp.concurrency = concurrencies[i];
        if (dedicated && i + 1 == concurrencies.size()) {
            pp.role = Mlperf::PlannedPoint::Role::Offline;
        } else {
            pp.region = bounds ? bounds->regionOf(pp.concurrency) : Mlperf::Region::OutOfRange;
            pp.role = pp.concurrency == cMin ? Mlperf::PlannedPoint::Role::UltraLow
                                             : Mlperf::PlannedPoint::Role::Choice;
            pp.minDurationS = preset.minDurationFor(pp.region);
        }
        plan.push_back(pp);
    }
    return plan;
}

} // namespace

nlohmann::json complianceReportJson(const Mlperf::ComplianceReport &report)
{
    nlohmann::json checks = nlohmann::json::array();
    for (const Mlperf::CheckResult &c : report.checks) {
        const char *severity = c.severity == Mlperf::Severity::Error     ? "error"
                               : c.severity == Mlperf::Severity::Warning ? "warning"
                                                                         : "info";
        checks.push_back({{"rule", c.ruleId},
                          {"title", c.title},
                          {"state", std::string(Mlperf::checkStateKey(c.state))},
                          {"severity", severity},
                          {"detail", c.detail},
                          {"failing_points", c.failingPoints}});
    }
    return {{"preset", report.presetId},
            {"overall", std::string(Mlperf::checkStateKey(report.overall))},
            {"failed_rules", report.failedRules},
            {"blocked_rules", report.blockedRules},
            {"checks", checks}};
}

Result<std::shared_ptr<MlperfMode>> MlperfMode::prepare(std::vector<Scenario> &scenarios,
                                                        const MlperfModeOptions &options)
{
    auto preset = Mlperf::loadRulesPreset(options.preset);
    if (!preset)
        return preset.error();
    std::shared_ptr<MlperfMode> mode(new MlperfMode);
    mode->m_preset = std::move(preset).value();
    mode->m_options = options;
    const Mlperf::OfflineMode offline = offlineModeFor(options, mode->m_preset);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        Scenario &sc = scenarios[i];
        MlperfScenarioState st;
        st.scenarioIndex = static_cast<int>(i);
        st.scenarioId = sc.id;
        st.evidence.offline = offline;
        st.evidence.datasetSize = options.datasetSize;
        if (sc.plan.repeats > 1) // the rules' points, their count and regions are of one run per concurrency
            return makeError(ErrorCode::InvalidInput,
                             sc.id +
                                 ": MLPerf Endpoints measures each curve point once, but plan.repeats is " +
                                 std::to_string(sc.plan.repeats) + "; set it to 1 for --mlperf");
        if (sc.plan.mode == LoadPlan::Mode::Curve) {
            Mlperf::PointPlanRequest req;
            req.cMin = sc.plan.cMin;
            req.cMax = options.cMax > 0 ? options.cMax : sc.plan.cMax;
            req.points = options.points;
            req.offline = offline;
            req.datasetSize = static_cast<int>(options.datasetSize);
            auto planned = Mlperf::planPoints(req, mode->m_preset);
            if (!planned)
                return makeError(ErrorCode::InvalidInput, sc.id + ": " + planned.error().message);
            st.evidence.cMax = req.cMax;
            st.evidence.plan = planned->points;
            if (options.adaptive) {
                // Choice points after the mandatory ones (they place themselves on what those measured),
                // the Offline run still last.
                std::stable_partition(st.evidence.plan.begin(), st.evidence.plan.end(),
                                      [](const Mlperf::PlannedPoint &pp) {
                                          return pp.role == Mlperf::PlannedPoint::Role::UltraLow ||
                                                 pp.role == Mlperf::PlannedPoint::Role::Mandatory;
                                      });
                std::stable_partition(st.evidence.plan.begin(), st.evidence.plan.end(),
                                      [](const Mlperf::PlannedPoint &pp) {
                                          return pp.role != Mlperf::PlannedPoint::Role::Offline;
                                      });
                st.adaptive = true;
                st.bounds = planned->bounds;
            }
            sc.plan.mode = LoadPlan::Mode::Closed; // the rules' points in plan order, no early stop
            sc.plan.concurrencies.clear();
            for (const Mlperf::PlannedPoint &pp : st.evidence.plan)
                sc.plan.concurrencies.push_back(pp.concurrency);
        } else if (sc.plan.mode == LoadPlan::Mode::Closed) {
            const auto &cs = sc.plan.concurrencies;
            const bool dedicated = offline == Mlperf::OfflineMode::Dedicated && !cs.empty();
            int largest = 0; // of the fixed points (a dedicated Offline run is the last listed)
            for (std::size_t k = 0; k + (dedicated ? 1 : 0) < cs.size(); ++k)
                largest = std::max(largest, cs[k]);
            st.evidence.cMax = options.cMax > 0 ? options.cMax : largest;
            st.evidence.plan = closedPlan(cs, st.evidence.cMax, offline, mode->m_preset);
        } else {
            return makeError(ErrorCode::InvalidInput,
                             sc.id +
                                 ": EPR-27: MLPerf Endpoints points are fixed-concurrency; this scenario's "
                                 "plan is " +
                                 std::string(sc.plan.mode == LoadPlan::Mode::Open ? "open loop" : "search"));
        }
        // The rules count each point's steady-state issue span in seconds: a plan without a duration of its
        // own issues for the longest minimum its points need (LoadPlan::pointDurationS; the request budget
        // still caps a point, so a compliant run gives request_count room).
        if (sc.plan.pointDurationS <= 0)
            for (const Mlperf::PlannedPoint &pp : st.evidence.plan)
                sc.plan.pointDurationS = std::max(sc.plan.pointDurationS, pp.minDurationS);
        // With a dataset, each point issues whole passes (EPR-36/37), at least the super-passes the preset's
        // steady-state window needs (EPR-30), once its duration is over.
        if (options.datasetSize > 0 && options.datasetSize <= std::numeric_limits<int>::max() / 64) {
            const int passes =
                std::max({1, mode->m_preset.minDatasetPasses,
                          mode->m_preset.steadyState ? mode->m_preset.steadyState->minSuperPasses : 0});
            sc.plan.issueMultiple =
                mode->m_preset.wholeDatasetMultiples ? static_cast<int>(options.datasetSize) : 1;
            sc.plan.minMeasuredRequests = passes * static_cast<int>(options.datasetSize);
            sc.plan.datasetSamples = options.datasetSize; // the performance sample order (EPR-38)
            st.sampleOrderWithReplacement = sc.phase.workload.kind == Workload::Kind::Synthetic;
        }
        st.report = Mlperf::evaluateCompliance(st.evidence, mode->m_preset);
        mode->m_states.push_back(std::move(st));
    }
    return mode;
}

void MlperfMode::assessSteadyStateOf(MlperfScenarioState &st, const PointOutcome &po) const
{
    const std::size_t i = static_cast<std::size_t>(std::max(po.pointIndex, 0));
    if (st.steadyStates.size() <= i)
        st.steadyStates.resize(i + 1);
    if (!m_preset.steadyState || st.evidence.datasetSize <= 0 || po.records.empty())
        return; // the verdict stays empty: EPR-31 blocked
    std::vector<const RequestRecord *> measured;
    for (const RequestRecord &r : po.records)
        if (!r.warmup)
            measured.push_back(&r);
    std::stable_sort(measured.begin(), measured.end(),
                     [](const RequestRecord *a, const RequestRecord *b) { return a->seq < b->seq; });
    std::vector<Mlperf::SteadyStateSample> samples;
    samples.reserve(measured.size());
    for (const RequestRecord *r : measured) { // issue order = seq order
        const RequestMetrics m = computeRequestMetrics(*r);
        samples.push_back({m.ok ? m.ttftMs : NAN, m.ok ? m.tpotMlperfMs : NAN});
    }
    st.steadyStates[i] =
        Mlperf::assessSteadyState(samples, st.evidence.datasetSize, m_preset.steadyState->gatingMetrics,
                                  m_preset.steadyState->minSuperPasses);
}

int MlperfMode::adaptiveConcurrency(const ScenarioOutcome &so, int listIndex)
{
    MlperfScenarioState *st = stateOf(so.scenarioIndex);
    const std::size_t k = static_cast<std::size_t>(listIndex);
    if (!st || !st->adaptive || k >= st->evidence.plan.size() ||
        st->evidence.plan[k].role != Mlperf::PlannedPoint::Role::Choice)
        return 0;
    std::vector<Mlperf::CurvePoint> measured;
    for (const PointOutcome &po : so.points)
        if (const auto cp = Mlperf::curvePointOf(po.result))
            measured.push_back(*cp);
    int left = 0; // choice slots from this one on
    for (std::size_t i = k; i < st->evidence.plan.size(); ++i)
        left += st->evidence.plan[i].role == Mlperf::PlannedPoint::Role::Choice;
    const auto next = Mlperf::nextAdaptivePoint(measured, st->bounds.cMin, st->bounds.cMax, left);
    if (!next)
        return 0; // nothing left to learn between the points: the planner's choice stands
    Mlperf::PlannedPoint &pp = st->evidence.plan[k];
    pp.concurrency = next->concurrency;
    pp.region = st->bounds.regionOf(next->concurrency);
    return next->concurrency;
}

MlperfScenarioState *MlperfMode::stateOf(int scenarioIndex)
{
    if (scenarioIndex < 0 || scenarioIndex >= static_cast<int>(m_states.size()))
        return nullptr;
    return &m_states[static_cast<std::size_t>(scenarioIndex)];
}

void MlperfMode::evaluate(MlperfScenarioState &st, const ScenarioOutcome &so, bool finished) const
{
    st.evidence.measured.clear();
    for (std::size_t i = 0; i < so.points.size(); ++i) {
        const PointResult &r = so.points[i].result;
        if (r.load.mode != PointLoad::Mode::Concurrency)
            continue;
        Mlperf::PointEvidence e = Mlperf::evidenceOf(r, m_preset, st.evidence.datasetSize, so.timeScale);
        e.sampleOrderWithReplacement = st.sampleOrderWithReplacement;
        if (i < st.steadyStates.size() && !st.steadyStates[i].verdict.empty()) { // a verdict was made
            e.steadyStateVerdict = st.steadyStates[i].verdict;
            e.superPassesInWindow = st.steadyStates[i].superPasses;
        }
        // Points run in plan order (a closed-loop list), so the i-th point is the i-th planned one.
        e.offline =
            i < st.evidence.plan.size() && st.evidence.plan[i].role == Mlperf::PlannedPoint::Role::Offline;
        st.evidence.measured.push_back(e);
    }
    st.evidence.finished = finished;
    st.report = Mlperf::evaluateCompliance(st.evidence, m_preset);
}

std::string MlperfMode::failureSentence(const MlperfScenarioState &st, int pointsLeft)
{
    std::string s = "MLPerf " + st.report.presetId + ": can no longer comply:";
    bool first = true;
    for (const std::string &id : st.report.failedRules) {
        const Mlperf::CheckResult *c = st.report.find(id);
        s += (first ? " " : "; ") + id + (c && !c->detail.empty() ? " (" + c->detail + ")" : "");
        first = false;
    }
    if (pointsLeft > 0)
        s += "; " + std::to_string(pointsLeft) + " planned point(s) not run";
    return s;
}

void MlperfMode::attach(RunOptions &options, std::function<void(int, const std::string &)> onLine)
{
    auto stopReasons = std::make_shared<std::vector<std::string>>(m_states.size());
    options.onPointFinished = [this, onLine, stopReasons, chained = std::move(options.onPointFinished)](
                                  const ScenarioOutcome &so, const PointOutcome &po) {
        if (chained)
            chained(so, po);
        std::string line, stop;
        {
            std::lock_guard lock(m_mutex);
            MlperfScenarioState *st = stateOf(so.scenarioIndex);
            if (!st)
                return;
            const bool wasFailing = st->report.overall == Mlperf::CheckState::Fail;
            assessSteadyStateOf(*st, po);
            evaluate(*st, so, false);
            if (st->evidence.measured.empty() || so.points.empty())
                return;
            const std::size_t i = so.points.size() - 1;
            const bool offline = i < st->evidence.plan.size() &&
                                 st->evidence.plan[i].role == Mlperf::PlannedPoint::Role::Offline;
            const Mlperf::PointEvidence &e = st->evidence.measured.back();
            line = Mlperf::pointLine(po.result.load.concurrency, offline,
                                     Mlperf::evaluatePoint(e, st->evidence, m_preset));
            line += " · campaign " + std::string(Mlperf::checkStateKey(st->report.overall));
            st->pointLines.push_back(line);
            const int left = static_cast<int>(st->evidence.plan.size()) - static_cast<int>(so.points.size());
            if (st->report.overall == Mlperf::CheckState::Fail && !wasFailing) {
                const std::string why = failureSentence(*st, m_options.stopOnFail ? left : 0);
                if (m_options.stopOnFail && left > 0) {
                    st->stopReason = why;
                    stop = why;
                } else {
                    line += "\n" + why;
                }
            }
        }
        (*stopReasons)[static_cast<std::size_t>(so.scenarioIndex)] = stop;
        if (onLine)
            onLine(so.scenarioIndex, line);
    };
    options.chooseClosedConcurrency = [this](const ScenarioOutcome &so, int listIndex, int) {
        std::lock_guard lock(m_mutex);
        return adaptiveConcurrency(so, listIndex);
    };
    options.stopScenarioAfterPoint = [stopReasons](const ScenarioOutcome &so, const PointOutcome &) {
        const auto i = static_cast<std::size_t>(so.scenarioIndex);
        return i < stopReasons->size() ? (*stopReasons)[i] : std::string();
    };
}

std::vector<MlperfScenarioState> MlperfMode::failingBeforeStart() const
{
    std::lock_guard lock(m_mutex);
    std::vector<MlperfScenarioState> out;
    for (const MlperfScenarioState &st : m_states)
        if (st.evidence.measured.empty() && st.report.overall == Mlperf::CheckState::Fail)
            out.push_back(st);
    return out;
}

void MlperfMode::finish(const RunOutcome &run)
{
    std::lock_guard lock(m_mutex);
    for (const ScenarioOutcome &so : run.scenarios) {
        MlperfScenarioState *st = stateOf(so.scenarioIndex);
        if (!st)
            continue;
        // A scenario stopped early (by a rule, the user, an error) keeps its unrun points as still planned:
        // its report says what failed, not that the points it never ran are missing.
        evaluate(*st, so, !so.aborted);
        if (so.stoppedByRule)
            st->stopReason = so.abortReason;
    }
}

nlohmann::json MlperfMode::finishedProvenance(const RunOutcome &run)
{
    finish(run);
    return nlohmann::json{{"mlperf", toJson()}};
}

std::vector<MlperfScenarioState> MlperfMode::states() const
{
    std::lock_guard lock(m_mutex);
    return m_states;
}

bool MlperfMode::anyFail() const
{
    std::lock_guard lock(m_mutex);
    return std::any_of(m_states.begin(), m_states.end(), [](const MlperfScenarioState &s) {
        return s.report.overall == Mlperf::CheckState::Fail;
    });
}

namespace {

nlohmann::json trendsJson(const std::vector<Mlperf::MetricTrend> &trends)
{
    nlohmann::json out = nlohmann::json::array();
    for (const Mlperf::MetricTrend &t : trends)
        out.push_back({{"metric", t.metric},
                       {"state", Mlperf::trendStateKey(t.state)},
                       {"mann_kendall_z", t.mannKendallZ},
                       {"p_value", t.pValue},
                       {"relative_drift", t.relativeDrift}});
    return out;
}

// Per point (by index; null where no verdict was made): §4.4 as the detector saw it.
nlohmann::json steadyStatesJson(const std::vector<Mlperf::SteadyStateAssessment> &states)
{
    nlohmann::json out = nlohmann::json::array();
    for (const Mlperf::SteadyStateAssessment &a : states)
        out.push_back(a.verdict.empty() ? nlohmann::json()
                                        : nlohmann::json{{"verdict", a.verdict},
                                                         {"super_passes", a.superPasses},
                                                         {"gating", trendsJson(a.metrics)},
                                                         {"diagnostic", trendsJson(a.diagnostics)},
                                                         {"warnings", a.warnings}});
    return out;
}

} // namespace

nlohmann::json MlperfMode::toJson() const
{
    std::lock_guard lock(m_mutex);
    nlohmann::json scenarios = nlohmann::json::array();
    for (const MlperfScenarioState &st : m_states) {
        nlohmann::json plan = nlohmann::json::array();
        for (const Mlperf::PlannedPoint &pp : st.evidence.plan)
            plan.push_back({{"concurrency", pp.concurrency},
                            {"region", std::string(Mlperf::regionKey(pp.region))},
                            {"role", std::string(roleKey(pp.role))},
                            {"min_duration_s", pp.minDurationS}});
        nlohmann::json s = complianceReportJson(st.report);
        s.erase("preset");
        s["scenario"] = st.scenarioId;
        s["c_max"] = st.evidence.cMax;
        s["offline"] = std::string(offlineKey(st.evidence.offline));
        s["dataset_size"] = st.evidence.datasetSize;
        s["plan"] = plan;
        s["points_measured"] = st.evidence.measured.size();
        s["point_lines"] = st.pointLines;
        s["sample_order"] = !st.sampleOrderWithReplacement   ? nlohmann::json()
                            : *st.sampleOrderWithReplacement ? nlohmann::json("with_replacement")
                                                             : nlohmann::json("workload");
        s["steady_state"] = steadyStatesJson(st.steadyStates);
        s["stopped"] = st.stopReason.empty() ? nlohmann::json() : nlohmann::json(st.stopReason);
        scenarios.push_back(std::move(s));
    }
    return {{"schema", "throughline.mlperf-compliance/1"},
            {"preset", m_preset.id},
            {"stop_on_fail", m_options.stopOnFail},
            {"adaptive", m_options.adaptive},
            {"scenarios", scenarios}};
}

} // namespace Throughline
