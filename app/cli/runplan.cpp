#include "runplan.h"

#include "core/metrics/pointlabel.h"
#include "core/engine/loadschedule.h"
#include "core/sim/performancemodel.h"

#include <QCryptographicHash>
#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace Throughline::Cli {

namespace {

std::string num(double v, int prec = 2)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

std::string seconds(double s)
{
    if (s >= 120)
        return num(std::round(s / 6) / 10, 1) + " min";
    return num(std::round(s * 10) / 10, 1) + " s";
}

PlannedPoint closedPoint(int index, const LoadPlan &plan, int c, const ShardSpec &shard)
{
    PlannedPoint p;
    p.pointIndex = index;
    p.concurrency = c;
    const ClosedBudget b = closedBudget(plan, c);
    p.measured = b.measured;
    p.warmup = b.warmup;
    p.shardConcurrency = ShardSelector::share(c, shard);
    p.onShard = p.shardConcurrency > 0;
    p.shardMeasured = ShardSelector::proportional(b.measured, c, shard);
    p.shardWarmup = ShardSelector::proportional(b.warmup, c, shard);
    // A shard with a concurrency share measures at least one request, even when the budget is tiny.
    if (p.onShard && p.shardMeasured < 1)
        p.shardMeasured = 1;
    return p;
}

PlannedPoint openPoint(int index, const LoadPlan &plan, double rate, const ShardSpec &shard)
{
    PlannedPoint p;
    p.pointIndex = index;
    p.rateMode = true;
    p.rate = rate;
    p.concurrency = plan.concurrencyCap;
    p.durationS = openLoopMeasuredS(plan, rate); // the engine's own definitions (loadschedule.h)
    p.warmupS = plan.warmupS;
    const ClosedBudget b = openLoopBudget(plan, rate);
    p.measured = b.measured;
    p.warmup = b.warmup;
    p.shardRate = ShardSelector::rate(rate, shard);
    p.shardConcurrency =
        plan.concurrencyCap > 0 ? std::max(1, ShardSelector::share(plan.concurrencyCap, shard)) : 0;
    p.shardMeasured = static_cast<int>(std::lround(p.shardRate * p.durationS));
    p.shardWarmup = static_cast<int>(std::lround(p.shardRate * p.warmupS));
    return p;
}

// One planned load, run `repeats` times back to back (the engine's order): consecutive point indices.
void addRepeats(std::vector<PlannedPoint> &points, PlannedPoint point, int repeats)
{
    for (int r = 1; r <= std::max(1, repeats); ++r) {
        point.pointIndex = static_cast<int>(points.size());
        point.repeat = repeats > 1 ? r : 0;
        points.push_back(point);
    }
}

} // namespace

nlohmann::json PlannedPoint::loadJson(bool shardShare) const
{
    nlohmann::json j;
    if (rateMode) {
        j = {{"mode", "rate"}, {"rate", shardShare ? shardRate : rate}};
        if (concurrency > 0)
            j["concurrency_cap"] = shardShare ? shardConcurrency : concurrency;
    } else {
        j = {{"mode", "concurrency"}, {"concurrency", shardShare ? shardConcurrency : concurrency}};
    }
    if (repeat > 0)
        j["repeat"] = repeat;
    return j;
}

std::string PlannedPoint::loadLabel() const
{
    return (rateMode ? "λ=" + num(rate) + "/s" : "C=" + std::to_string(concurrency)) + repeatSuffix(repeat);
}

Result<RunPlan> RunPlan::build(const std::vector<Scenario> &scenarios, const ShardSpec &shard,
                               const std::string &campaignName, const std::string &campaignSha256,
                               std::int64_t startAtUnixMs, double pointSlotS)
{
    RunPlan plan;
    plan.m_shard = shard;
    plan.m_campaignName = campaignName;
    plan.m_campaignSha256 = campaignSha256;
    plan.m_startAtUnixMs = startAtUnixMs;
    plan.m_pointSlotS = pointSlotS;
    nlohmann::json idInput{{"campaign_sha256", campaignSha256},
                           {"shards", shard.count},
                           {"start_at_unix_ms", startAtUnixMs},
                           {"point_slot_s", pointSlotS}};
    nlohmann::json &idScenarios = idInput["scenarios"] = nlohmann::json::array();
    for (const Scenario &sc : scenarios) {
        PlannedScenario ps;
        ps.scenario = sc;
        ps.timeScale = sc.endpoint.kind == Endpoint::Kind::Simulated && sc.endpoint.sim.timeScale > 0
                           ? sc.endpoint.sim.timeScale
                           : 1.0;
        const LoadPlan &lp = sc.plan;
        switch (lp.mode) {
        case LoadPlan::Mode::Closed:
            for (int c : lp.concurrencies)
                addRepeats(ps.points, closedPoint(static_cast<int>(ps.points.size()), lp, c, shard),
                           lp.repeats);
            break;
        case LoadPlan::Mode::Curve:
            for (int c : curveConcurrencies(lp))
                addRepeats(ps.points, closedPoint(static_cast<int>(ps.points.size()), lp, c, shard),
                           lp.repeats);
            ps.note = shard.whole() ? "curve: may stop early (throughput gain < 3 % and TTFT p90 doubled)"
                                    : "curve: every point runs (no early stop when sharded)";
            break;
        case LoadPlan::Mode::Search:
            if (!shard.whole())
                return makeError(ErrorCode::InvalidInput,
                                 "scenario " + sc.id +
                                     " uses a search plan (bisection picks each point from the previous "
                                     "result), which cannot be split across shards; run it unsharded or "
                                     "use a closed or curve plan");
            ps.note = "search: up to " + std::to_string(lp.searchMaxPoints) +
                      " points by bisection over C=" + std::to_string(lp.cMin) + ".." +
                      std::to_string(lp.cMax) + " (chosen while running)";
            break;
        case LoadPlan::Mode::Open:
            for (double r : lp.rates)
                addRepeats(ps.points, openPoint(static_cast<int>(ps.points.size()), lp, r, shard),
                           lp.repeats);
            break;
        }
        std::optional<PerformanceModel> model;
        if (sc.endpoint.kind == Endpoint::Kind::Simulated && !sc.deployment.disaggregated()) {
            if (auto prec = parsePrecision(sc.deployment.precision))
                model.emplace(sc.model, sc.gpu, std::max(1, sc.deployment.gpus), *prec);
        }
        nlohmann::json idPoints = nlohmann::json::array();
        for (PlannedPoint &p : ps.points) {
            if (p.rateMode) {
                p.estimatedS = (p.warmupS + p.durationS) / ps.timeScale;
                p.estimateSource = "schedule";
            } else if (model) {
                // This shard's requests at this shard's concurrency (the whole when unsharded).
                const OperatingPoint op =
                    model->operatingPoint(sc.phase.isl, sc.phase.osl, std::max(1, p.shardConcurrency));
                if (op.requestsPerS > 0 && p.onShard) {
                    p.estimatedS = (p.shardMeasured + p.shardWarmup) / op.requestsPerS / ps.timeScale;
                    p.estimateSource = "sim_model";
                }
            }
            p.maxDurationS = lp.maxDurationS;
            idPoints.push_back({p.loadJson(false), p.measured, p.warmup, p.durationS});
        }
        idScenarios.push_back({{"id", sc.id}, {"points", idPoints}});
        plan.m_scenarios.push_back(std::move(ps));
    }
    const QByteArray digest =
        QCryptographicHash::hash(QByteArray::fromStdString(idInput.dump()), QCryptographicHash::Sha256)
            .toHex();
    plan.m_planId = digest.left(16).toStdString();
    return plan;
}

double RunPlan::estimatedS(bool *complete) const
{
    double total = 0;
    bool all = true;
    for (const PlannedScenario &ps : m_scenarios) {
        if (ps.scenario.plan.mode == LoadPlan::Mode::Search)
            all = false;
        for (const PlannedPoint &p : ps.points) {
            if (!p.onShard)
                continue;
            if (p.estimatedS)
                total += *p.estimatedS;
            else
                all = false;
            if (p.pointIndex > 0)
                total += ps.scenario.plan.cooldownS / ps.timeScale;
        }
    }
    if (complete)
        *complete = all;
    return total;
}

std::optional<double> RunPlan::longestPointS() const
{
    double longest = 0;
    for (const PlannedScenario &ps : m_scenarios)
        for (const PlannedPoint &p : ps.points) {
            if (!p.onShard)
                continue;
            if (!p.estimatedS)
                return std::nullopt;
            longest = std::max(longest, *p.estimatedS);
        }
    return longest;
}

int RunPlan::pointCount(bool onThisShardOnly) const
{
    int n = 0;
    for (const PlannedScenario &ps : m_scenarios)
        for (const PlannedPoint &p : ps.points)
            n += !onThisShardOnly || p.onShard;
    return n;
}

nlohmann::json RunPlan::toJson() const
{
    using nlohmann::json;
    json scenarios = json::array();
    long long requests = 0, shardRequests = 0;
    for (const PlannedScenario &ps : m_scenarios) {
        json points = json::array();
        for (const PlannedPoint &p : ps.points) {
            requests += p.measured + p.warmup;
            if (p.onShard)
                shardRequests += p.shardMeasured + p.shardWarmup;
            json jp{{"index", p.pointIndex},
                    {"load", p.loadJson(false)},
                    {"requests", {{"measured", p.measured}, {"warmup", p.warmup}}},
                    {"estimated_s", p.estimatedS ? json(*p.estimatedS) : json(nullptr)},
                    {"estimate", p.estimateSource},
                    {"max_duration_s", p.maxDurationS}};
            if (p.rateMode)
                jp["schedule_s"] = {{"warmup", p.warmupS}, {"measured", p.durationS}};
            jp["shard"] = {{"runs", p.onShard},
                           {"load", p.loadJson(true)},
                           {"requests", {{"measured", p.shardMeasured}, {"warmup", p.shardWarmup}}}};
            points.push_back(std::move(jp));
        }
        const Scenario &sc = ps.scenario;
        json js{{"id", sc.id},
                {"endpoint", sc.endpoint.name},
                {"simulated", sc.endpoint.kind == Endpoint::Kind::Simulated},
                {"time_scale", ps.timeScale},
                {"isl", sc.phase.isl},
                {"osl", sc.phase.osl},
                {"cooldown_s", sc.plan.cooldownS},
                {"points", std::move(points)}};
        if (!ps.note.empty())
            js["note"] = ps.note;
        scenarios.push_back(std::move(js));
    }
    bool complete = false;
    const double est = estimatedS(&complete);
    json schedule{{"start_at", nullptr}, {"point_slot_s", m_pointSlotS}};
    if (m_startAtUnixMs > 0)
        schedule["start_at"] = QDateTime::fromMSecsSinceEpoch(m_startAtUnixMs, Qt::UTC)
                                   .toString(Qt::ISODateWithMs)
                                   .toStdString();
    const std::optional<double> longest = longestPointS();
    schedule["longest_point_s"] = longest ? json(*longest) : json(nullptr);
    return {{"schema", "throughline.plan/1"},
            {"plan_id", m_planId},
            {"schedule", std::move(schedule)},
            {"campaign", {{"name", m_campaignName}, {"sha256", m_campaignSha256}}},
            {"shard", {{"index", m_shard.index}, {"count", m_shard.count}}},
            {"scenarios", std::move(scenarios)},
            {"totals",
             {{"scenarios", m_scenarios.size()},
              {"points", pointCount(false)},
              {"points_on_shard", pointCount(true)},
              {"requests", requests},
              {"requests_on_shard", shardRequests},
              {"estimated_s", est},
              {"estimate_complete", complete}}}};
}

void RunPlan::printTable(std::FILE *out) const
{
    const bool sharded = !m_shard.whole();
    std::fprintf(out, "plan %s  %s  %zu scenario(s), %d point(s)", m_planId.c_str(),
                 sharded ? ("shard " + m_shard.toString()).c_str() : "unsharded", m_scenarios.size(),
                 pointCount(false));
    if (sharded)
        std::fprintf(out, ", %d on this shard", pointCount(true));
    std::fprintf(out, "\n");
    if (m_startAtUnixMs > 0 || m_pointSlotS > 0)
        std::fprintf(out, "schedule: start %s, %s\n",
                     m_startAtUnixMs > 0 ? QDateTime::fromMSecsSinceEpoch(m_startAtUnixMs, Qt::UTC)
                                               .toString(Qt::ISODateWithMs)
                                               .toLocal8Bit()
                                               .constData()
                                         : "now",
                     m_pointSlotS > 0 ? ("point k at start + k × " + seconds(m_pointSlotS)).c_str()
                                      : "points back to back");
    else if (sharded)
        std::fprintf(out, "schedule: none (give --start-at and --point-slot so that the shards' points line "
                          "up)\n");
    for (std::size_t s = 0; s < m_scenarios.size(); ++s) {
        const PlannedScenario &ps = m_scenarios[s];
        const Scenario &sc = ps.scenario;
        std::fprintf(out, "\n%zu  %s  (isl %d, osl %d, endpoint %s%s)\n", s + 1, sc.id.c_str(), sc.phase.isl,
                     sc.phase.osl, sc.endpoint.name.c_str(),
                     sc.endpoint.kind == Endpoint::Kind::Simulated
                         ? (", simulated ×" + num(ps.timeScale)).c_str()
                         : "");
        if (!ps.note.empty())
            std::fprintf(out, "   %s\n", ps.note.c_str());
        if (ps.points.empty())
            continue;
        if (sharded)
            std::fprintf(out, "   %-5s %-12s %-20s %-12s %-20s %s\n", "point", "load", "requests",
                         "shard load", "shard requests", "duration");
        else
            std::fprintf(out, "   %-5s %-12s %-20s %s\n", "point", "load", "requests", "duration");
        for (const PlannedPoint &p : ps.points) {
            const std::string req =
                std::to_string(p.measured) + " + " + std::to_string(p.warmup) + " warm-up";
            std::string shardLoad = "-", shardReq = "-";
            if (p.onShard) {
                shardLoad =
                    p.rateMode ? "λ=" + num(p.shardRate) + "/s" : "C=" + std::to_string(p.shardConcurrency);
                shardReq =
                    std::to_string(p.shardMeasured) + " + " + std::to_string(p.shardWarmup) + " warm-up";
            }
            std::string dur = "server-bound, ≤ " + seconds(p.maxDurationS);
            if (p.estimatedS)
                dur = (p.estimateSource == "sim_model" ? "≈ " : "") + seconds(*p.estimatedS);
            else if (!p.onShard)
                dur = "-";
            // "λ" is two bytes in UTF-8: widen its field by one so the columns stay aligned.
            if (!sharded) {
                std::fprintf(out, "   %-5d %-*s %-20s %s\n", p.pointIndex, p.rateMode ? 13 : 12,
                             p.loadLabel().c_str(), req.c_str(), dur.c_str());
                continue;
            }
            std::fprintf(out, "   %-5d %-*s %-20s %-*s %-20s %s\n", p.pointIndex, p.rateMode ? 13 : 12,
                         p.loadLabel().c_str(), req.c_str(), p.rateMode && p.onShard ? 13 : 12,
                         shardLoad.c_str(), shardReq.c_str(), dur.c_str());
        }
    }
    bool complete = false;
    const double est = estimatedS(&complete);
    bool modelled = false;
    for (const PlannedScenario &ps : m_scenarios)
        for (const PlannedPoint &p : ps.points)
            modelled = modelled || (p.onShard && p.estimateSource == "sim_model");
    if (!complete && est <= 0)
        std::fprintf(out, "\nestimated load time%s: unknown\n", sharded ? " of this shard" : "");
    else
        std::fprintf(out, "\nestimated load time%s: %s%s%s\n", sharded ? " of this shard" : "",
                     complete ? "" : "≥ ", modelled ? "≈ " : "", seconds(est).c_str());
    if (modelled)
        std::fprintf(out, "(≈: closed loops against a simulated endpoint, from its analytic model)\n");
    if (const std::optional<double> longest = longestPointS())
        std::fprintf(out,
                     "longest point ≈ %s: a --point-slot of at least %s leaves room for setup and "
                     "drain\n",
                     seconds(*longest).c_str(), seconds(std::ceil(*longest * 1.5 + 1)).c_str());
    if (!complete)
        std::fprintf(out, "(closed-loop points against a real server last as long as it needs for their "
                          "budget; the estimate counts only the points with a duration)\n");
}

std::vector<Scenario> RunPlan::shardEntries(std::vector<Entry> *map) const
{
    std::vector<Scenario> out;
    int slot = -1;
    for (std::size_t s = 0; s < m_scenarios.size(); ++s) {
        const PlannedScenario &ps = m_scenarios[s];
        for (const PlannedPoint &p : ps.points) {
            ++slot;
            if (!p.onShard)
                continue;
            Scenario e = ps.scenario;
            LoadPlan &lp = e.plan;
            // The engine derives per-point seeds as seed + point index; every entry is its own point 0, so
            // the point index goes into the seed here. Shards get different seeds: identical arrival
            // schedules on N shards would be one bursty stream, not N independent ones.
            lp.seed = ps.scenario.plan.seed + static_cast<std::uint64_t>(p.pointIndex) +
                      static_cast<std::uint64_t>(m_shard.index) * 0x9E3779B97F4A7C15ULL;
            if (p.rateMode) {
                lp.rates = {p.shardRate};
                lp.pointDurationS = p.durationS;
                lp.concurrencyCap = p.shardConcurrency;
            } else {
                lp.mode = LoadPlan::Mode::Closed;
                lp.concurrencies = {p.shardConcurrency};
                lp.requestCount = p.shardMeasured;
                lp.warmupRequests = p.shardWarmup;
            }
            out.push_back(std::move(e));
            if (map)
                map->push_back({static_cast<int>(s), p.pointIndex, slot});
        }
    }
    return out;
}

} // namespace Throughline::Cli
