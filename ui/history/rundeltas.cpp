#include "ui/history/rundeltas.h"

#include "core/results/runcomparison.h"
#include "core/metrics/repeatgroups.h"

#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

int matchScenario(const ReportData &baseline, const ScenarioResult &s)
{
    const auto &scenarios = baseline.run.scenarios;
    for (std::size_t i = 0; i < scenarios.size(); ++i)
        if (scenarios[i].id == s.id)
            return int(i);
    for (std::size_t i = 0; i < scenarios.size(); ++i)
        if (!scenarios[i].phase.empty() &&
            QString::compare(qs(scenarios[i].phase), qs(s.phase), Qt::CaseInsensitive) == 0)
            return int(i);
    return scenarios.empty() ? -1 : 0;
}

// Value of `metric` (a key of RunDeltas::metrics) in values under the variant.
double valueOf(const DerivedValues &v, const QString &metric)
{
    if (metric.startsWith(u"output_tps_per_"))
        return v.outputTpsPerGpu; // the variant's divisor
    return v.value(metric.section(u' ', 0, 0).toStdString());
}

// The stored interval behind a row's value: only for stored values (a re-derived one has none). A repeated
// load's operating point: the wider of its own and the across-repeat interval, as its verdict weighs them.
std::optional<Interval> storedInterval(const ScenarioResult &s, const DerivedValues &v, const QString &metric)
{
    const int op = RunComparison::operatingPoint(s);
    if (v.fromRequests || op < 0 || op >= int(s.points.size()))
        return std::nullopt;
    const std::string key = metric.section(u' ', 0, 0).toStdString();
    const QString stat = metric.section(u' ', 1, 1);
    const auto d =
        decidingInterval(s.points[std::size_t(op)], key, stat.isEmpty() ? "value" : stat.toStdString());
    return d ? std::optional<Interval>(d->interval) : std::nullopt;
}

// Holm over the rows of one candidate that carry intervals on both sides; the rest keep the ±1 % marks.
void judgeBeyondNoise(std::vector<RunDeltas::Row> &rows, std::size_t first,
                      const std::vector<std::pair<std::size_t, ComparisonInput>> &inputs)
{
    std::vector<ComparisonInput> in;
    for (const auto &[row, input] : inputs)
        in.push_back(input);
    ComparisonOptions options;
    options.noiseFloor = kDefaultNoiseFloor;
    const std::vector<ComparisonResult> results = compareRuns(in, options);
    for (std::size_t i = 0; i < results.size(); ++i) {
        RunDeltas::Row &r = rows[first + inputs[i].first];
        r.outcome = results[i].outcome;
        r.effect = results[i].effectInterval;
        r.better = results[i].outcome == ComparisonOutcome::Improved    ? 1
                   : results[i].outcome == ComparisonOutcome::Regressed ? -1
                                                                        : 0;
    }
}

const DerivedValues *at(const RunComparison::RunValues &values, int scenario, int point)
{
    if (scenario < 0 || point < 0 || scenario >= int(values.size()) ||
        point >= int(values[std::size_t(scenario)].size()))
        return nullptr;
    return &values[std::size_t(scenario)][std::size_t(point)];
}

} // namespace

std::vector<std::pair<QString, bool>> RunDeltas::metrics(const DeriveVariant &variant)
{
    std::vector<std::pair<QString, bool>> out;
    // Stored values carry the all-GPU divisor; the variant's divisor applies to re-derived values.
    const DeriveVariant::Gpus gpus = variant.rederive ? variant.gpus : DeriveVariant::Gpus::All;
    if (gpus == DeriveVariant::Gpus::All)
        out.emplace_back(u"output_tps_per_gpu"_qs, true);
    else if (gpus == DeriveVariant::Gpus::Decode)
        out.emplace_back(u"output_tps_per_decode_gpu"_qs, true);
    out.emplace_back(u"output_tps"_qs, true);
    out.emplace_back(u"request_rate"_qs, true);
    for (const char *latency : {"ttft_ms", "tpot_ms", "e2e_ms"})
        out.emplace_back(QString::fromLatin1(latency) + u' ' + variant.statKey(), false);
    return out;
}

std::vector<RunDeltas::Row> RunDeltas::compute(const ReportData &baseline,
                                               const RunComparison::RunValues &baselineValues,
                                               const ReportData &candidate,
                                               const RunComparison::RunValues &candidateValues,
                                               const DeriveVariant &variant)
{
    std::vector<Row> rows;
    std::vector<std::pair<std::size_t, ComparisonInput>> withIntervals; // row index → its comparison
    const auto keys = metrics(variant);
    for (std::size_t cs = 0; cs < candidate.run.scenarios.size(); ++cs) {
        const ScenarioResult &c = candidate.run.scenarios[cs];
        const int bs = matchScenario(baseline, c);
        if (bs < 0)
            continue;
        const ScenarioResult &b = baseline.run.scenarios[std::size_t(bs)];
        const DerivedValues *cv = at(candidateValues, int(cs), RunComparison::operatingPoint(c));
        const DerivedValues *bv = at(baselineValues, bs, RunComparison::operatingPoint(b));
        if (!cv || !bv)
            continue;
        for (const auto &[metric, higherBetter] : keys) {
            Row r;
            r.baseline = valueOf(*bv, metric);
            r.candidate = valueOf(*cv, metric);
            if (!std::isfinite(r.baseline) && !std::isfinite(r.candidate))
                continue;
            r.candidateRun = RunComparison::shortId(candidate);
            r.scenario = qs(c.id);
            r.baselineScenario = qs(b.id);
            r.metric = metric;
            r.higherBetter = higherBetter;
            r.baselineDerived = bv->fromRequests;
            r.candidateDerived = cv->fromRequests;
            r.deltaPct = std::isfinite(r.baseline) && std::isfinite(r.candidate) && r.baseline != 0
                             ? (r.candidate - r.baseline) / std::abs(r.baseline) * 100.0
                             : std::nan("");
            if (std::isfinite(r.deltaPct) && std::abs(r.deltaPct) >= 1.0)
                r.better = ((r.deltaPct > 0) == higherBetter) ? 1 : -1;
            const auto bi = storedInterval(b, *bv, metric);
            const auto ci = storedInterval(c, *cv, metric);
            if (bi && ci)
                withIntervals.push_back(
                    {rows.size(),
                     ComparisonInput{metric.toStdString(), c.id, *bi, *ci,
                                     higherBetter ? BetterDirection::Higher : BetterDirection::Lower}});
            rows.push_back(r);
        }
    }
    judgeBeyondNoise(rows, 0, withIntervals);
    return rows;
}

} // namespace Throughline
