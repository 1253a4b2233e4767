#include "ui/history/runcomparison.h"

#include <QCoreApplication>

#include <cmath>
#include <map>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

struct MetricSpec {
    const char *metric;
    const char *stat;
    bool higherBetter;
};
constexpr MetricSpec kMetrics[] = {{"output_tps_per_gpu", "value", true},
                                   {"output_tps", "value", true},
                                   {"request_rate", "value", true},
                                   {"ttft_ms", "mean", false},
                                   {"ttft_ms", "p90", false},
                                   {"tpot_ms", "p90", false},
                                   {"e2e_ms", "p90", false},
                                   {"interactivity_tps_user", "p50", true}};

const ScenarioResult *match(const ReportData &baseline, const ScenarioResult &s)
{
    for (const ScenarioResult &b : baseline.run.scenarios)
        if (b.id == s.id)
            return &b;
    for (const ScenarioResult &b : baseline.run.scenarios)
        if (!b.phase.empty() && QString::compare(qs(b.phase), qs(s.phase), Qt::CaseInsensitive) == 0)
            return &b;
    return baseline.run.scenarios.empty() ? nullptr : &baseline.run.scenarios.front();
}

void flatten(const nlohmann::json &j, const QString &prefix, std::map<QString, QString> &out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flatten(*it, prefix.isEmpty() ? qs(it.key()) : prefix + u'.' + qs(it.key()), out);
    } else if (j.is_string()) {
        out[prefix] = qs(j.get<std::string>());
    } else if (!j.is_null()) {
        out[prefix] = qs(j.dump()).left(200);
    }
}

} // namespace

QString RunComparison::shortId(const ReportData &run)
{
    return qs(run.run.runId.substr(0, 8));
}

int RunComparison::operatingPoint(const ScenarioResult &s)
{
    if (s.verdict.operatingPoint >= 0 && s.verdict.operatingPoint < int(s.points.size()))
        return s.verdict.operatingPoint;
    int best = -1, bestValid = -1;
    for (int i = 0; i < int(s.points.size()); ++i) {
        const double v = s.points[i].metrics.outputTpsPerGpu;
        if (best < 0 || v > s.points[best].metrics.outputTpsPerGpu)
            best = i;
        if (s.points[i].validity.valid && (bestValid < 0 || v > s.points[bestValid].metrics.outputTpsPerGpu))
            bestValid = i;
    }
    return bestValid >= 0 ? bestValid : best;
}

std::vector<RunComparison::Row> RunComparison::compare(const ReportData &baseline,
                                                       const ReportData &candidate)
{
    std::vector<Row> rows;
    for (const ScenarioResult &c : candidate.run.scenarios) {
        const ScenarioResult *b = match(baseline, c);
        if (!b)
            continue;
        const int ci = operatingPoint(c), bi = operatingPoint(*b);
        if (ci < 0 || bi < 0)
            continue;
        for (const MetricSpec &m : kMetrics) {
            const auto cv = c.points[ci].metricValue(m.metric, m.stat);
            const auto bv = b->points[bi].metricValue(m.metric, m.stat);
            if (!cv && !bv)
                continue;
            Row r;
            r.candidateRun = shortId(candidate);
            r.scenario = qs(c.id);
            r.baselineScenario = qs(b->id);
            r.metric = std::string_view(m.stat) == "value"
                           ? QString::fromLatin1(m.metric)
                           : QString::fromLatin1(m.metric) + u' ' + QString::fromLatin1(m.stat);
            r.baseline = bv ? *bv : std::nan("");
            r.candidate = cv ? *cv : std::nan("");
            r.deltaPct = (bv && cv && *bv != 0) ? (*cv - *bv) / std::abs(*bv) * 100.0 : std::nan("");
            if (std::isfinite(r.deltaPct) && std::abs(r.deltaPct) >= 1.0)
                r.better = ((r.deltaPct > 0) == m.higherBetter) ? 1 : -1;
            rows.push_back(r);
        }
    }
    return rows;
}

std::vector<RunComparison::EnvDiff> RunComparison::environmentDiff(const std::vector<ReportData> &runs)
{
    std::vector<std::map<QString, QString>> flat;
    std::map<QString, int> keys;
    for (const ReportData &r : runs) {
        std::map<QString, QString> f;
        flatten(r.provenance, QString(), f);
        f[u"source"_qs] = qs(r.source);
        f[u"simulated"_qs] = r.run.simulated ? u"yes"_qs : u"no"_qs;
        f[u"tool_version"_qs] = qs(r.run.toolVersion);
        QStringList backends, gpus, models;
        for (const ScenarioResult &s : r.run.scenarios) {
            if (!backends.contains(qs(s.backend)))
                backends << qs(s.backend);
            const QString g = u"%1×%2"_qs.arg(qs(s.gpu)).arg(s.gpus);
            if (!gpus.contains(g))
                gpus << g;
            if (!models.contains(qs(s.model)))
                models << qs(s.model);
        }
        f[u"backends"_qs] = backends.join(u", "_qs);
        f[u"gpus"_qs] = gpus.join(u", "_qs);
        f[u"models"_qs] = models.join(u", "_qs);
        for (const auto &kv : f)
            keys[kv.first] = 0;
        flat.push_back(std::move(f));
    }
    std::vector<EnvDiff> out;
    for (const auto &kv : keys) {
        EnvDiff d{kv.first, {}};
        bool differs = false;
        for (const auto &f : flat) {
            const auto it = f.find(kv.first);
            d.values << (it == f.end() ? u"-"_qs : it->second);
            differs = differs || d.values.last() != d.values.first();
        }
        if (differs)
            out.push_back(d);
    }
    return out;
}

ReportChartRenderer::Chart RunComparison::overlay(const std::vector<ReportData> &runs)
{
    ReportChartRenderer::Chart chart;
    chart.xLabel = QCoreApplication::translate("Throughline::RunComparison", "output tokens/s per GPU");
    chart.yLabel =
        QCoreApplication::translate("Throughline::RunComparison", "tokens/s per user (1000 / TPOT p90)");
    for (const ReportData &r : runs) {
        const QString variant = r.source == "throughline" ? u"steady"_qs : u"whole"_qs;
        for (const ScenarioResult &s : r.run.scenarios) {
            ReportChartRenderer::Series series;
            // Imported files often lack TPOT p90 (vLLM reports p50/p99) or a GPU count: fall back to
            // TPOT mean / total tokens/s and say so in the label rather than dropping the run.
            bool tpotMean = false, total = false;
            for (const PointResult &p : s.points) {
                if (const auto cp = p.curvePoint(); cp && std::isfinite(cp->first) && cp->first > 0) {
                    series.points.append(QPointF(cp->first, cp->second));
                    continue;
                }
                double x = p.metrics.outputTpsPerGpu;
                if (!(std::isfinite(x) && x > 0)) {
                    x = p.metrics.outputTps;
                    total = true;
                }
                auto tpot = p.metricValue("tpot_ms", "p90");
                if (!tpot) {
                    tpot = p.metricValue("tpot_ms", "mean");
                    tpotMean = tpot.has_value();
                }
                if (tpot && *tpot > 0 && std::isfinite(x))
                    series.points.append(QPointF(x, 1000.0 / *tpot));
            }
            QString extra;
            if (tpotMean)
                extra += u", TPOT mean"_qs;
            if (total)
                extra += u", total tok/s"_qs;
            series.name = u"%1 %2 (%3%4)"_qs.arg(shortId(r), qs(s.id), variant, extra);
            std::sort(series.points.begin(), series.points.end(),
                      [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
            chart.series.append(series);
        }
    }
    return chart;
}

} // namespace Throughline
