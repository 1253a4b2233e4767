#include "ui/report/comparisoncomposer.h"

#include "core/results/runcomparison.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportcomposer.h"
#include "ui/report/reportwriter.h"

#include <cmath>
#include <map>
#include <set>

namespace Throughline {

namespace {

using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString shortId(const ReportData &r)
{
    return qs(r.run.runId.substr(0, 8));
}

const ScenarioResult *findScenario(const ReportData &r, const std::string &id)
{
    for (const ScenarioResult &s : r.run.scenarios)
        if (s.id == id)
            return &s;
    return nullptr;
}

const PointResult *operatingPoint(const ScenarioResult &s)
{
    const int op = s.verdict.operatingPoint;
    return op >= 0 && op < int(s.points.size()) ? &s.points[std::size_t(op)] : nullptr;
}

QColor outcomeColor(ComparisonOutcome o)
{
    switch (o) {
    case ComparisonOutcome::Regressed:
        return QColor(245, 185, 185);
    case ComparisonOutcome::Improved:
        return QColor(200, 235, 200);
    case ComparisonOutcome::WithinNoise:
    case ComparisonOutcome::NotEnoughData:
        break;
    }
    return {};
}

// The comparisons' confidence level: the baseline's intervals' (a campaign setting), else the default.
double comparisonLevel(const RunResults &run)
{
    const double level = ReportCharts::intervalLevel(run);
    return level > 0 ? level : kDefaultConfidenceLevel;
}

QString valueWithInterval(const Interval &iv)
{
    if (std::isnan(iv.estimate))
        return u"—"_qs;
    QString text = ReportWriter::number(iv.estimate, 1);
    if (iv.method != IntervalMethod::None) {
        auto end = [](double v) {
            return std::isfinite(v) ? ReportWriter::number(v, 1) : ComparisonComposer::tr("open");
        };
        text += u" ["_qs + end(iv.lower) + u", "_qs + end(iv.upper) + u']';
    }
    return text;
}

QString signedPercent(double v)
{
    return (v > 0 ? u"+"_qs : QString()) + ReportWriter::number(v * 100, 1);
}

// Keys that differ between any two runs by nature; not an environment change.
bool volatileKey(const QString &key)
{
    return key == u"run_id" || key == u"started_utc" || key.endsWith(u".created") || key.endsWith(u"_ns");
}

std::map<QString, QString> flatProvenance(const ReportData &r)
{
    std::map<QString, QString> out;
    for (const Row &row : ReportComposer::provenanceRows(r.provenance))
        if (row.size() == 2 && !volatileKey(row[0].text))
            out[row[0].text] = row[1].text;
    return out;
}

} // namespace

ComparisonComposer::ComparisonComposer(const std::vector<ReportData> &runs, ReportDoc &doc)
    : m_runs(runs)
    , m_doc(doc)
{
}

QList<ComparisonComposer::Metric> ComparisonComposer::metrics()
{
    return {
        {tr("Out tok/s/GPU"), 1,
         [](const PointResult &p) -> std::optional<double> {
             return std::isfinite(p.metrics.outputTpsPerGpu) ? std::optional(p.metrics.outputTpsPerGpu)
                                                             : std::nullopt;
         }},
        {tr("TTFT p90 ms"), 1, [](const PointResult &p) { return p.metricValue("ttft_ms", "p90"); }},
        {tr("TPOT p90 ms"), 2, [](const PointResult &p) { return p.metricValue("tpot_ms", "p90"); }},
        {tr("Goodput req/s"), 2,
         [](const PointResult &p) -> std::optional<double> {
             return std::isfinite(p.metrics.goodputRps) ? std::optional(p.metrics.goodputRps) : std::nullopt;
         }},
    };
}

void ComparisonComposer::compose()
{
    summary();
    beyondNoise();
    deltas();
    verdictChanges();
    frontiers();
    mlperfFrontiers();
    environment();
    m_doc.finish();
}

void ComparisonComposer::summary()
{
    const ReportData &base = m_runs.front();
    m_doc.paragraph(tr("Comparison report: %1").arg(qs(base.run.campaignName)), ReportDoc::Type::Title,
                    ReportDoc::accent(), true);
    m_doc.space(4);
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const RunResults &r = m_runs[i].run;
        const QString role = i == 0 ? tr("Baseline") : tr("Candidate %1").arg(i);
        m_doc.paragraph(
            tr("%1: run %2 · %3 · started %4 UTC · %n scenario(s)", nullptr, int(r.scenarios.size()))
                .arg(role, qs(r.runId), qs(r.campaignName), qs(r.startedUtc)));
    }
    m_doc.paragraph(
        tr("Whether a run changed is judged beyond the runs' noise from their confidence intervals, as "
           "throughline-cli compare does; the deltas at the operating points follow as plain "
           "numbers."),
        ReportDoc::Type::Small, ReportDoc::muted());
    m_doc.space(6);
}

QString ComparisonComposer::outcomeText(ComparisonOutcome o)
{
    switch (o) {
    case ComparisonOutcome::Regressed:
        return tr("regressed");
    case ComparisonOutcome::Improved:
        return tr("improved");
    case ComparisonOutcome::WithinNoise:
        return tr("within noise");
    case ComparisonOutcome::NotEnoughData:
        break;
    }
    return tr("not enough data");
}

void ComparisonComposer::beyondNoise()
{
    const ReportData &base = m_runs.front();
    const double level = comparisonLevel(base.run);
    const std::vector<MetricStat> metrics = defaultComparisonMetrics();
    QStringList names;
    for (const MetricStat &m : metrics)
        names << qs(m.label());
    m_doc.subsection(tr("Changes beyond noise"), 90);
    m_doc.paragraph(
        tr("Each metric (%1) at each load point both runs measured is one test of the change candidate ÷ "
           "baseline − 1, from the two runs' %2 % intervals and a %3 % noise floor per run; Holm's rule over "
           "all of a candidate's tests keeps the chance of any false regressed or improved at %4 %. An open "
           "interval (too few requests) is not enough data. Values: estimate [lower, upper].")
            .arg(names.join(u", "_qs), ReportWriter::number(100 * level, 0),
                 ReportWriter::number(100 * kDefaultNoiseFloor, 0),
                 ReportWriter::number(100 * (1 - level), 0)),
        ReportDoc::Type::Small, ReportDoc::muted());
    for (std::size_t c = 1; c < m_runs.size(); ++c) {
        const NoiseAwareComparison cmp = compareRunResults(base.run, m_runs[c].run, metrics, level);
        std::map<ComparisonOutcome, int> counts;
        for (const ComparisonResult &r : cmp.results)
            ++counts[r.outcome];
        const bool all = int(cmp.results.size()) <= kMaxListedComparisons;
        m_doc.paragraph(tr("Candidate %1: %2 — %3 regressed, %4 improved, %5 within noise, %6 without enough "
                           "data over %7 shared load points.")
                            .arg(shortId(m_runs[c]), outcomeText(cmp.overall))
                            .arg(counts[ComparisonOutcome::Regressed])
                            .arg(counts[ComparisonOutcome::Improved])
                            .arg(counts[ComparisonOutcome::WithinNoise])
                            .arg(counts[ComparisonOutcome::NotEnoughData])
                            .arg(cmp.sharedPoints),
                        ReportDoc::Type::Body,
                        cmp.overall == ComparisonOutcome::Regressed ? QColor(150, 20, 20) : ReportDoc::ink(),
                        true);
        QList<Row> rows;
        for (std::size_t i = 0; i < cmp.results.size(); ++i) {
            const ComparisonResult &r = cmp.results[i];
            if (!all && r.outcome == ComparisonOutcome::WithinNoise)
                continue;
            const bool tested = r.outcome != ComparisonOutcome::NotEnoughData;
            const QColor bg = outcomeColor(r.outcome);
            rows.append({Cell{qs(cmp.where[i].scenario), {}}, Cell{qs(cmp.where[i].load), {}},
                         Cell{qs(r.metric), {}}, Cell{valueWithInterval(cmp.inputs[i].baseline), {}},
                         Cell{valueWithInterval(cmp.inputs[i].candidate), {}},
                         Cell{tested ? signedPercent(r.effect) : QString(), bg, true},
                         Cell{tested ? u"["_qs + signedPercent(r.effectInterval.lower) + u", "_qs +
                                           signedPercent(r.effectInterval.upper) + u']'
                                     : QString(),
                              bg},
                         Cell{outcomeText(r.outcome), bg, r.outcome == ComparisonOutcome::Regressed}});
        }
        if (!all)
            m_doc.paragraph(
                tr("%1 comparisons within noise are not listed.").arg(counts[ComparisonOutcome::WithinNoise]),
                ReportDoc::Type::Small, ReportDoc::muted());
        if (!rows.isEmpty())
            m_doc.table({tr("Scenario"), tr("Load"), tr("Metric"), tr("Baseline"), tr("Candidate"),
                         tr("Change %"), tr("Interval %"), tr("Outcome")},
                        rows, ReportDoc::Type::Small);
    }
}

void ComparisonComposer::deltas()
{
    const ReportData &base = m_runs.front();
    QList<Row> rows;
    for (std::size_t c = 1; c < m_runs.size(); ++c)
        for (const ScenarioResult &bs : base.run.scenarios) {
            const ScenarioResult *cs = findScenario(m_runs[c], bs.id);
            const PointResult *bp = operatingPoint(bs);
            const PointResult *cp = cs ? operatingPoint(*cs) : nullptr;
            if (!bp || !cp)
                continue;
            for (const Metric &m : metrics()) {
                const auto bv = m.value(*bp), cv = m.value(*cp);
                const double d = bv && cv ? *cv - *bv : std::nan("");
                const double pct = bv && cv && *bv != 0 ? d / *bv * 100 : std::nan("");
                QString ds = ReportWriter::number(d, m.decimals), ps = ReportWriter::number(pct, 1);
                if (std::isfinite(d) && d > 0)
                    ds.prepend(u'+');
                if (std::isfinite(pct) && pct > 0)
                    ps.prepend(u'+');
                // Plain numbers: whether a change is beyond noise is "Changes beyond noise"'s judgement.
                rows.append({Cell{qs(bs.id), {}}, Cell{shortId(m_runs[c]), {}}, Cell{m.label, {}},
                             Cell{ReportWriter::number(bv ? *bv : std::nan(""), m.decimals), {}},
                             Cell{ReportWriter::number(cv ? *cv : std::nan(""), m.decimals), {}},
                             Cell{ds, {}, true}, Cell{ps, {}, true}});
            }
        }
    m_doc.subsection(tr("Deltas per metric at the operating points"), 80);
    if (rows.isEmpty()) {
        m_doc.paragraph(tr("No scenario has an operating point in both the baseline and a candidate."));
        return;
    }
    m_doc.table(
        {tr("Scenario"), tr("Candidate"), tr("Metric"), tr("Baseline"), tr("Value"), tr("Δ"), tr("Δ %")},
        rows);
}

void ComparisonComposer::verdictChanges()
{
    const ReportData &base = m_runs.front();
    QList<Row> rows;
    QStringList onlyOne;
    for (std::size_t c = 1; c < m_runs.size(); ++c) {
        for (const ScenarioResult &bs : base.run.scenarios) {
            const ScenarioResult *cs = findScenario(m_runs[c], bs.id);
            if (!cs) {
                onlyOne << tr("%1: only in the baseline").arg(qs(bs.id));
                continue;
            }
            const std::string bk = base.verdictKey(bs), ck = m_runs[c].verdictKey(*cs);
            rows.append({Cell{qs(bs.id), {}}, Cell{shortId(m_runs[c]), {}},
                         Cell{ReportComposer::verdictText(bk), {}},
                         Cell{ReportComposer::verdictText(ck), bk != ck ? ReportDoc::warnFill() : QColor(),
                              bk != ck}});
        }
        for (const ScenarioResult &cs : m_runs[c].run.scenarios)
            if (!findScenario(base, cs.id))
                onlyOne << tr("%1: only in candidate %2").arg(qs(cs.id), shortId(m_runs[c]));
    }
    m_doc.subsection(tr("Verdicts"), 60);
    m_doc.table({tr("Scenario"), tr("Candidate"), tr("Baseline verdict"), tr("Candidate verdict")}, rows);
    for (const QString &s : onlyOne)
        m_doc.paragraph(u"• "_qs + s, ReportDoc::Type::Small);
}

void ComparisonComposer::frontiers()
{
    QStringList phases;
    for (const ReportData &r : m_runs)
        for (const ScenarioResult &s : r.run.scenarios)
            if (!phases.contains(qs(s.phase)))
                phases << qs(s.phase);
    QList<Chart> charts;
    for (const QString &phase : phases) {
        Chart chart;
        std::map<std::string, int> colour; // one colour per deployment, one pen per run
        for (std::size_t i = 0; i < m_runs.size(); ++i) {
            const Chart one =
                ReportCharts::frontier(phase, ReportCharts::ofPhase(m_runs[i].run, phase.toStdString()));
            if (chart.title.isEmpty()) {
                chart.title = one.title;
                chart.xLabel = one.xLabel;
                chart.yLabel = one.yLabel;
            }
            for (ChartSeries s : one.series) {
                const auto [it, added] = colour.emplace(s.name.toStdString(), int(colour.size()));
                s.colorIndex = it->second;
                s.pen = i == 0 ? Qt::SolidLine : (i == 1 ? Qt::DashLine : Qt::DotLine);
                s.name = shortId(m_runs[i]) + u' ' + s.name;
                chart.series << s;
            }
        }
        if (ReportCharts::hasPoints(chart))
            charts << chart;
    }
    if (charts.isEmpty())
        return;
    m_doc.subsection(tr("Frontiers, every run overlaid"), 200);
    const QString bars = ReportCharts::errorBarNote(m_runs.front().run);
    m_doc.paragraph(
        tr("Baseline solid, first candidate dashed, further candidates dotted; one colour per deployment.") +
            (bars.isEmpty() ? QString() : u' ' + bars),
        ReportDoc::Type::Small, ReportDoc::muted());
    m_doc.chartGrid(charts, 2, 190);
}

void ComparisonComposer::environment()
{
    std::vector<std::map<QString, QString>> flat;
    std::set<QString> keys;
    for (const ReportData &r : m_runs) {
        flat.push_back(flatProvenance(r));
        for (const auto &[k, v] : flat.back())
            keys.insert(k);
    }
    QStringList headers{tr("Key"), tr("Baseline %1").arg(shortId(m_runs.front()))};
    for (std::size_t i = 1; i < m_runs.size(); ++i)
        headers << tr("Candidate %1").arg(shortId(m_runs[i]));
    QList<Row> rows;
    for (const QString &k : keys) {
        QStringList values;
        for (const auto &f : flat)
            values << (f.count(k) ? f.at(k) : tr("(absent)"));
        if (values.count(values.front()) == values.size())
            continue;
        Row r{Cell{k, {}}};
        for (const QString &v : values)
            r << Cell{v, v == values.front() ? QColor() : ReportDoc::warnFill()};
        rows.append(r);
    }
    m_doc.subsection(tr("What changed in the environment"), 60);
    if (rows.isEmpty()) {
        m_doc.paragraph(tr("The recorded environment (engine, host, servers) is the same in every run."));
        return;
    }
    m_doc.table(headers, rows, ReportDoc::Type::Small);
}

} // namespace Throughline
