#include "ui/report/reportcomposer.h"
#include "core/metrics/repeatgroups.h"
#include "ui/models/loadlabel.h"

#include "core/util/version.h"
#include "ui/report/metrictexts.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportwriter.h"
#include "ui/report/telemetrycharts.h"
#include "ui/report/validitynotes.h"

#include <QDateTime>
#include <QRegularExpression>

#include <cmath>
#include <map>

namespace Throughline {

namespace {

using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString num(double v, int decimals)
{
    return ReportWriter::number(v, decimals);
}

QString numOpt(std::optional<double> v, int decimals)
{
    return ReportWriter::number(v ? *v : std::nan(""), decimals);
}

QString flagsText(const PointValidity &v)
{
    if (v.valid)
        return ReportComposer::tr("valid");
    QStringList f;
    for (const auto &s : v.flags)
        f << qs(s);
    return f.join(u", "_qs);
}

QColor verdictColor(const std::string &key)
{
    if (key == "pass")
        return QColor(190, 230, 190);
    if (key == "fail")
        return QColor(245, 175, 175);
    if (key == "invalid")
        return QColor(250, 215, 150);
    if (key == "inconclusive")
        return QColor(252, 232, 160);
    return QColor(232, 232, 232);
}

QColor marginColor(const VerdictCheck &c)
{
    switch (c.outcome) {
    case VerdictCheck::Outcome::Fail:
        return std::isfinite(c.marginPct) && c.marginPct > -10 ? QColor(250, 205, 180)
                                                               : QColor(245, 175, 175);
    case VerdictCheck::Outcome::Pass:
        return std::isfinite(c.marginPct) && c.marginPct < 10 ? QColor(225, 240, 195) : QColor(190, 230, 190);
    case VerdictCheck::Outcome::Info:
        return QColor(222, 230, 246);
    case VerdictCheck::Outcome::Inconclusive:
        return QColor(252, 232, 160); // amber: the interval straddles the target
    case VerdictCheck::Outcome::NotAvailable:
        break;
    }
    return QColor(235, 235, 235);
}

// Long values are cut: a table cell is no place for a document.
QString cut(QString s, int max = 160)
{
    s.replace(u'\n', u' ');
    return s.size() > max ? s.left(max - 1) + u'…' : s;
}

QString scalarText(const nlohmann::json &v)
{
    if (v.is_string())
        return qs(v.get<std::string>());
    if (v.is_boolean())
        return v.get<bool>() ? ReportComposer::tr("yes") : ReportComposer::tr("no");
    if (v.is_null())
        return u"—"_qs;
    return qs(v.dump());
}

// A list in one readable cell: scalars joined; objects by their id/name, else counted.
QString listText(const nlohmann::json &list)
{
    QStringList parts;
    int objects = 0;
    for (const auto &e : list) {
        if (!e.is_structured())
            parts << scalarText(e);
        else if (e.is_object() && (e.contains("id") || e.contains("name")))
            parts << scalarText(e.contains("id") ? e["id"] : e["name"]);
        else
            ++objects;
    }
    if (objects > 0)
        parts << ReportComposer::tr("%n entries", nullptr, objects);
    return parts.isEmpty() ? ReportComposer::tr("none") : parts.join(u", "_qs);
}

void flatten(const nlohmann::json &j, const QString &prefix, int depth, QList<Row> &rows)
{
    for (auto it = j.begin(); it != j.end(); ++it) {
        const QString key = prefix.isEmpty() ? qs(it.key()) : prefix + u'.' + qs(it.key());
        if (it->is_object() && depth < 3 && !it->empty())
            flatten(*it, key, depth + 1, rows);
        else if (it->is_object())
            rows.append({Cell{key, {}}, Cell{ReportComposer::tr("%n fields", nullptr, int(it->size())), {}}});
        else if (it->is_array())
            rows.append({Cell{key, {}}, Cell{cut(listText(*it)), {}}});
        else
            rows.append({Cell{key, {}}, Cell{cut(scalarText(*it)), {}}});
    }
}

// The outcome and kind words of a check in the report's language (by key, so a new enum value shows its
// key instead of breaking the build).
QString outcomeText(const VerdictCheck &c)
{
    const std::string key(checkOutcomeKey(c.outcome));
    if (key == "pass" || key == "fail" || key == "inconclusive")
        return ReportComposer::verdictText(key);
    if (key == "info")
        return ReportComposer::tr("info");
    return key == "n/a" ? u"n/a"_qs : qs(key);
}

// "[1,404.3, 1,461.6]" at the check's level; for a repeated load which interval decided ("across repeats" /
// "within the run", the wider of the two). Empty without an interval.
QString checkIntervalText(const VerdictCheck &c)
{
    if (!(c.level > 0))
        return {};
    const auto side = [](double v) { return std::isfinite(v) ? num(v, 2) : ReportComposer::tr("open"); };
    QString text = u"[%1, %2]"_qs.arg(side(c.lower), side(c.upper));
    if (c.hadAcrossRepeats)
        text += u' ' + (c.intervalSource == VerdictCheck::IntervalSource::AcrossRepeats
                            ? ReportComposer::tr("across repeats")
                            : ReportComposer::tr("within the run"));
    return text;
}

// A repeated load once, after its last repeat: the mean over the repeats and their across-repeat interval
// of the headline figures.
QList<ReportDoc::Row> repeatRows(const ScenarioResult &s)
{
    QList<ReportDoc::Row> rows;
    const auto cell = [](const PointResult &p, const char *metric, const char *stat, int decimals) {
        const auto iv = p.acrossRepeatInterval(metric, stat);
        return ReportDoc::Cell{iv ? u"%1 [%2, %3]"_qs.arg(num(iv->estimate, decimals),
                                                          num(iv->lower, decimals), num(iv->upper, decimals))
                                  : u"—"_qs,
                               {}};
    };
    for (const auto &group : repeatGroups(s.points)) {
        const PointResult &p = s.points[group.back()];
        if (p.acrossRepeats.empty())
            continue;
        PointLoad load = p.load;
        load.repeat = 0;
        rows.append({ReportDoc::Cell{loadLabel(load), {}}, ReportDoc::Cell{QString::number(group.size()), {}},
                     cell(p, "output_tps_per_gpu", "value", 1), cell(p, "ttft_ms", "p90", 1),
                     cell(p, "tpot_ms", "p90", 2)});
    }
    return rows;
}

QString kindText(const VerdictCheck &c)
{
    const std::string key(targetKindKey(c.kind));
    if (key == "baseline")
        return ReportComposer::tr("baseline");
    if (key == "slo")
        return ReportComposer::tr("SLO");
    if (key == "informational")
        return ReportComposer::tr("informational");
    return qs(key);
}

// Where a check's target came from: the scenario's SLO and a baseline run ("run <id8> <scenario>", written by
// the Targets page) in the report's words; a target table's own citation as the table has it.
QString sourceText(const std::string &source)
{
    if (source == "scenario SLO")
        return ReportComposer::tr("scenario SLO");
    static const QRegularExpression baselineRun(u"^run ([0-9a-f]{8}) (.+)$"_qs);
    if (const auto m = baselineRun.match(qs(source)); m.hasMatch())
        return ReportComposer::tr("run %1 %2").arg(m.captured(1), m.captured(2));
    return qs(source);
}

QString checkKey(const VerdictCheck &c)
{
    return c.stat == "value" ? qs(c.metric) : qs(c.metric) + u' ' + qs(c.stat);
}

const nlohmann::json *find(const nlohmann::json &j, std::initializer_list<const char *> path)
{
    const nlohmann::json *cur = &j;
    for (const char *k : path) {
        if (!cur->is_object() || !cur->contains(k))
            return nullptr;
        cur = &(*cur)[k];
    }
    return cur;
}

QString provText(const nlohmann::json &prov, std::initializer_list<const char *> path)
{
    const nlohmann::json *v = find(prov, path);
    return v && !v->is_structured() && !v->is_null() ? scalarText(*v) : QString();
}

// Per-point server telemetry (results.json point "telemetry"): rows only for points that carry it.
QList<Row> telemetryRows(const ScenarioResult &s)
{
    QList<Row> rows;
    for (int i = 0; i < int(s.points.size()); ++i) {
        const auto &t = s.points[std::size_t(i)].telemetry;
        if (t.empty())
            continue;
        auto v = [&t](const char *k) { return t.count(k) ? t.at(k) : std::nan(""); };
        const double scrapes = v("scrapes");
        const QColor warn = ReportDoc::warnFill();
        rows.append(
            {Cell{QString::number(i), {}}, Cell{loadLabel(s.points[std::size_t(i)].load), {}},
             Cell{num(v("kv_cache_usage_peak") * 100.0, 1), {}}, Cell{num(v("waiting_mean"), 2), {}},
             Cell{num(v("waiting_peak"), 0), {}},
             Cell{std::isfinite(scrapes) ? num(v("scrape_failures"), 0) + u'/' + num(scrapes, 0) : u"n/a"_qs,
                  v("scrape_failures") > 0 ? warn : QColor()},
             Cell{num(v("stalled_requests"), 0), v("stalled_requests") > 0 ? warn : QColor()},
             Cell{num(v("gpu_power_w_mean"), 0), {}}, Cell{num(v("energy_per_output_token_j"), 3), {}}});
    }
    return rows;
}

// Cold start facts (results.json scenario "cold_start"); empty when not measured.
QList<Row> coldStartRows(const nlohmann::json &c)
{
    QList<Row> rows;
    if (!c.is_object())
        return rows;
    auto value = [&c](const char *k, int decimals) {
        return num(c.contains(k) && c[k].is_number() ? c[k].get<double>() : std::nan(""), decimals);
    };
    const std::string since = c.value("since", std::string());
    const QString from = since == "ready_since" ? ReportComposer::tr("--ready-since moment")
                         : since == "run_start" ? ReportComposer::tr("run start")
                                                : ReportComposer::tr("scenario start");
    const bool ready = c.contains("time_to_ready_s") && c["time_to_ready_s"].is_number();
    rows.append({Cell{ReportComposer::tr("Time to ready (s)"), {}},
                 Cell{ready ? value("time_to_ready_s", 2) : ReportComposer::tr("not ready"),
                      ready ? QColor() : QColor(245, 175, 175)}});
    rows.append({Cell{ReportComposer::tr("Measured from"), {}}, Cell{from, {}}});
    rows.append(
        {Cell{ReportComposer::tr("Polls (/health, /v1/models)"), {}},
         Cell{ReportComposer::tr("%1 every %2 s").arg(value("polls", 0), value("poll_interval_s", 2)), {}}});
    rows.append({Cell{ReportComposer::tr("First request TTFT (ms)"), {}},
                 Cell{value("first_request_ttft_ms", 1), {}}});
    rows.append(
        {Cell{ReportComposer::tr("First request E2E (ms)"), {}}, Cell{value("first_request_e2e_ms", 1), {}}});
    if (c.contains("error") && c["error"].is_string())
        rows.append({Cell{ReportComposer::tr("Problem"), {}},
                     Cell{cut(qs(c["error"].get<std::string>())), ReportDoc::warnFill()}});
    return rows;
}

} // namespace

ReportComposer::ReportComposer(const ReportData &data, ReportDoc &doc)
    : m_data(data)
    , m_doc(doc)
{
}

QString ReportComposer::verdictText(const std::string &key)
{
    if (key == "pass")
        return tr("pass");
    if (key == "fail")
        return tr("fail");
    if (key == "invalid")
        return tr("invalid");
    if (key == "no_target")
        return tr("no target");
    if (key == "inconclusive")
        return tr("inconclusive");
    if (key == "stopped")
        return tr("stopped");
    if (key == "not_measured")
        return tr("not measured");
    if (key == "not_run")
        return tr("not run");
    return qs(key);
}

QList<ReportDoc::Row> ReportComposer::provenanceRows(const nlohmann::json &provenance)
{
    QList<Row> rows;
    if (provenance.is_object())
        flatten(provenance, {}, 0, rows);
    return rows;
}

QStringList ReportComposer::phases() const
{
    QStringList out;
    for (const ScenarioResult &s : m_data.run.scenarios)
        if (!out.contains(qs(s.phase)))
            out << qs(s.phase);
    return out;
}

void ReportComposer::compose()
{
    summary();
    for (const QString &phase : phases())
        phaseSection(phase.toStdString());
    mlperfSection();
    breakdownSection();
    if (m_data.capacity)
        capacitySection();
    provenanceAppendix();
    definitionsAppendix();
    validityAppendix();
    detailsAppendix();
    m_doc.finish();
}

void ReportComposer::summary()
{
    const RunResults &run = m_data.run;
    const QString campaign = run.campaignName.empty() ? tr("(unnamed campaign)") : qs(run.campaignName);
    m_doc.paragraph(tr("Benchmark report: %1").arg(campaign), ReportDoc::Type::Title, ReportDoc::accent(),
                    true);
    m_doc.space(4);
    const std::string &st = m_data.status;
    const QString statusWord = st == "completed"   ? tr("completed")
                               : st == "cancelled" ? tr("cancelled")
                               : st == "crashed"   ? tr("crashed")
                               : st == "running"   ? tr("running")
                                                   : qs(st);
    const QString status = st.empty() ? QString() : u", "_qs + statusWord;
    m_doc.paragraph(
        tr("Campaign: %1 · %n scenario(s) · run %2 · started %3 UTC%4", nullptr, int(run.scenarios.size()))
            .arg(campaign, qs(run.runId), qs(run.startedUtc), status));
    const nlohmann::json &prov = m_data.provenance;
    QString endpoint;
    if (run.simulated) {
        endpoint = tr("Endpoint: simulated (built-in performance model, time scale %1): model estimates, not "
                      "measurements of real hardware")
                       .arg(num(run.timeScale, 2));
    } else {
        QString where = provText(prov, {"endpoint", "url"});
        if (where.isEmpty())
            where = provText(prov, {"endpoint"});
        endpoint = tr("Endpoint: %1 (measured against a live server; source %2)")
                       .arg(where.isEmpty() ? tr("real server") : where, qs(m_data.source));
    }
    m_doc.paragraph(endpoint);
    QStringList env;
    for (const QString &v : {provText(prov, {"host", "cpu"}), provText(prov, {"host", "os"})})
        if (!v.isEmpty())
            env << v;
    if (const QString cores = provText(prov, {"host", "cores"}); !cores.isEmpty())
        env << tr("%1 cores").arg(cores);
    if (const QString curl = provText(prov, {"engine", "curl"}); !curl.isEmpty())
        env << curl.section(u' ', 0, 0);
    env << tr("Throughline %1").arg(run.toolVersion.empty() ? qs(versionLine()) : qs(run.toolVersion));
    m_doc.paragraph(tr("Environment: %1").arg(env.join(u" · "_qs)));
    m_doc.space(8);
    verdictMatrix();
    decidingNumbers();
    QList<Chart> frontiers;
    for (const QString &phase : phases()) {
        Chart c = ReportCharts::frontier(phase, ReportCharts::ofPhase(run, phase.toStdString()));
        if (ReportCharts::hasPoints(c))
            frontiers << c;
    }
    if (!frontiers.isEmpty()) {
        m_doc.subsection(tr("Headline frontier per phase"), 170, false);
        m_doc.chartGrid(frontiers, 2, 170);
        const QString bars = ReportCharts::errorBarNote(run);
        m_doc.paragraph(
            tr("Every deployment of a phase overlaid. Ringed: the operating point. Hollow: an invalid "
               "point or one drawn at TPOT mean because p90 is not reportable below n = 100.") +
                (bars.isEmpty() ? QString() : u" "_qs + bars),
            ReportDoc::Type::Small, ReportDoc::muted());
    }
    m_doc.contents(tr("Contents"));
}

void ReportComposer::verdictMatrix()
{
    const QStringList ph = phases();
    QStringList rowKeys;
    std::map<std::pair<QString, QString>, std::string> cell;
    for (const ScenarioResult &s : m_data.run.scenarios) {
        const QString key = ReportCharts::deploymentName(s);
        if (!rowKeys.contains(key))
            rowKeys << key;
        cell[{key, qs(s.phase)}] = m_data.verdictKey(s);
    }
    QStringList headers{tr("Model / backend / deployment")};
    headers += ph;
    QList<Row> rows;
    for (const QString &key : rowKeys) {
        Row r{Cell{key, {}}};
        for (const QString &p : ph) {
            const auto it = cell.find({key, p});
            r.append(it == cell.end() ? Cell{u"—"_qs, {}}
                                      : Cell{verdictText(it->second), verdictColor(it->second), true});
        }
        rows.append(r);
    }
    m_doc.subsection(tr("Verdicts (model × deployment × phase)"), 60, false);
    m_doc.table(headers, rows, ReportDoc::Type::Table);
}

void ReportComposer::decidingNumbers()
{
    QList<Row> rows;
    for (const ScenarioResult &s : m_data.run.scenarios) {
        const int op = s.verdict.operatingPoint;
        const std::string key = m_data.verdictKey(s);
        Row r{Cell{qs(s.id), {}}, Cell{verdictText(key), verdictColor(key), true}};
        if (op >= 0 && op < int(s.points.size())) {
            const PointResult &p = s.points[std::size_t(op)];
            r << Cell{loadLabel(p.load), {}} << Cell{num(p.metrics.outputTpsPerGpu, 1), {}}
              << Cell{numOpt(p.metricValue("ttft_ms", "p90"), 1), {}}
              << Cell{numOpt(p.metricValue("tpot_ms", "p90"), 2), {}}
              << Cell{num(p.metrics.goodputRps, 2), {}};
        } else {
            r << Cell{tr("none"), {}} << Cell{u"—"_qs, {}} << Cell{u"—"_qs, {}} << Cell{u"—"_qs, {}}
              << Cell{u"—"_qs, {}};
        }
        rows.append(r);
    }
    m_doc.subsection(tr("The numbers that decide (at each operating point)"), 60, false);
    m_doc.table({tr("Scenario"), tr("Verdict"), tr("Operating point"), tr("Out tok/s/GPU"), tr("TTFT p90 ms"),
                 tr("TPOT p90 ms"), tr("Goodput req/s")},
                rows);
    m_doc.paragraph(tr("Operating point: the highest-throughput valid point that meets the scenario's SLOs. "
                       "Throughput targets are judged there, slo targets at the designated point; baseline "
                       "targets pass at ≥ 95 % of the baseline."),
                    ReportDoc::Type::Small, ReportDoc::muted());
}

void ReportComposer::phaseSection(const std::string &phase)
{
    const auto scenarios = ReportCharts::ofPhase(m_data.run, phase);
    if (scenarios.empty())
        return;
    const QString name = qs(phase);
    m_doc.section(
        tr("Phase %1 (ISL %2 / OSL %3)").arg(name).arg(scenarios.front()->isl).arg(scenarios.front()->osl));
    const Chart frontier = ReportCharts::frontier(name, scenarios);
    if (ReportCharts::hasPoints(frontier))
        m_doc.chart(frontier, 230);
    QList<Chart> grid;
    for (Chart c :
         {ReportCharts::latencyVsLoad(name, scenarios, "ttft_ms"),
          ReportCharts::latencyVsLoad(name, scenarios, "tpot_ms"),
          ReportCharts::throughputVsLoad(name, scenarios),
          ReportCharts::telemetryVsLoad(name, scenarios, "kv_cache_usage_peak", tr("peak KV cache %"), 100),
          ReportCharts::telemetryVsLoad(name, scenarios, "waiting_mean", tr("mean waiting requests"), 1)})
        if (ReportCharts::hasPoints(c))
            grid << c;
    m_doc.chartGrid(grid, 2, 165);
    if (const QString bars = ReportCharts::errorBarNote(m_data.run); !bars.isEmpty())
        m_doc.paragraph(bars, ReportDoc::Type::Small, ReportDoc::muted());
    for (const ScenarioResult *s : scenarios)
        scenarioBlock(*s);
}

void ReportComposer::scenarioBlock(const ScenarioResult &s)
{
    m_doc.subsection(u"%1 — %2"_qs.arg(qs(s.id), verdictText(m_data.verdictKey(s))), 70);
    QList<Row> rows;
    for (int i = 0; i < int(s.points.size()); ++i) {
        const PointResult &p = s.points[std::size_t(i)];
        const QColor bg = p.validity.valid ? QColor() : ReportDoc::warnFill();
        const bool op = i == s.verdict.operatingPoint;
        rows.append({Cell{(op ? u"★ "_qs : QString()) + QString::number(i), bg, op},
                     Cell{loadLabel(p.load), bg}, Cell{u"%1/%2"_qs.arg(p.nOk).arg(p.nSent), bg},
                     Cell{num(p.windowS, 1), bg}, Cell{num(p.metrics.outputTpsPerGpu, 1), bg},
                     Cell{numOpt(p.metricValue("ttft_ms", "p90"), 1), bg},
                     Cell{numOpt(p.metricValue("tpot_ms", "p90"), 2), bg},
                     Cell{numOpt(p.metricValue("e2e_ms", "p90"), 1), bg},
                     Cell{num(p.metrics.goodputRps, 2), bg}, Cell{flagsText(p.validity), bg}});
    }
    m_doc.table({tr("#"), tr("Load"), tr("OK/sent"), tr("Window s"), tr("Out tok/s/GPU"), tr("TTFT p90 ms"),
                 tr("TPOT p90 ms"), tr("E2E p90 ms"), tr("Goodput req/s"), tr("Validity")},
                rows);
    if (const QList<Row> repeats = repeatRows(s); !repeats.isEmpty()) {
        m_doc.paragraph(
            tr("Across repeats: the mean over a load's repeats with its %1 % Student-t interval. A "
               "check at a repeated load is judged on the wider of this interval and the judged "
               "repeat's own; the checks say which.")
                .arg(num(s.points.front().acrossRepeats.level * 100, 0)),
            ReportDoc::Type::Small, ReportDoc::muted());
        m_doc.table({tr("Load"), tr("Repeats"), tr("Out tok/s/GPU"), tr("TTFT p90 ms"), tr("TPOT p90 ms")},
                    repeats, ReportDoc::Type::Small);
    }
    if (!s.verdict.checks.empty()) {
        QList<Row> checks;
        for (const VerdictCheck &c : s.verdict.checks) {
            QString margin = num(c.marginPct, 1);
            if (std::isfinite(c.marginPct) && c.marginPct >= 0)
                margin.prepend(u'+');
            checks.append({Cell{checkKey(c), {}}, Cell{qs(std::string(comparatorKey(c.cmp))), {}},
                           Cell{num(c.target, 2), {}}, Cell{num(c.value, 2), {}},
                           Cell{checkIntervalText(c), {}}, Cell{margin, {}}, Cell{kindText(c), {}},
                           Cell{outcomeText(c), marginColor(c), true},
                           Cell{c.point >= 0 ? QString::number(c.point) : u"—"_qs, {}},
                           Cell{cut(sourceText(c.source), 50), {}}});
        }
        m_doc.table({tr("Check"), tr("Cmp"), tr("Target"), tr("Value"), tr("Interval"), tr("Margin %"),
                     tr("Kind"), tr("Outcome"), tr("Point"), tr("Source")},
                    checks, ReportDoc::Type::Small);
    }
    // Stall and replica notes: informational findings of the points (they do not invalidate them).
    QStringList notes;
    for (int i = 0; i < int(s.points.size()); ++i)
        for (const std::string &n : s.points[std::size_t(i)].validity.notes)
            notes << tr("Point %1 (%2): %3")
                         .arg(i)
                         .arg(loadLabel(s.points[std::size_t(i)].load), ValidityNotes::translate(n));
    for (const QString &n : notes)
        m_doc.paragraph(u"• "_qs + n, ReportDoc::Type::Small, ReportDoc::ink());
    const QList<Row> tele = telemetryRows(s);
    if (!tele.isEmpty()) {
        m_doc.space(4);
        m_doc.paragraph(tr("Server telemetry per point"), ReportDoc::Type::Body, ReportDoc::ink(), true);
        m_doc.table({tr("#"), tr("Load"), tr("Peak KV %"), tr("Mean waiting"), tr("Peak waiting"),
                     tr("Scrapes failed"), tr("Stalled streams"), tr("GPU power W"), tr("Energy J/token")},
                    tele, ReportDoc::Type::Small);
    }
    if (const ReportTelemetry::Scenario *t = m_data.telemetry.find(s.id))
        telemetryOverTime(s, *t);
    const QList<Row> cold = coldStartRows(s.coldStart);
    if (!cold.isEmpty()) {
        m_doc.paragraph(tr("Cold start"), ReportDoc::Type::Body, ReportDoc::ink(), true);
        m_doc.table({tr("Fact"), tr("Value")}, cold, ReportDoc::Type::Small);
    }
}

void ReportComposer::telemetryOverTime(const ScenarioResult &s, const ReportTelemetry::Scenario &t)
{
    const QList<Chart> charts = TelemetryCharts::overTime(s, t);
    if (charts.isEmpty())
        return;
    m_doc.space(4);
    m_doc.keep(170);
    m_doc.paragraph(tr("Server telemetry over time"), ReportDoc::Type::Body, ReportDoc::ink(), true);
    m_doc.chartGrid(charts, 2, 150);
    m_doc.paragraph(
        tr("As scraped during the scenario (peaks kept when thinned for print). Shaded: each load "
           "point's measurement window, labelled with its load."),
        ReportDoc::Type::Small, ReportDoc::muted());
}

void ReportComposer::provenanceAppendix()
{
    QList<Row> rows = provenanceRows(m_data.provenance);
    rows.prepend({Cell{tr("report generated (UTC)"), {}},
                  Cell{QDateTime::currentDateTimeUtc().toString(Qt::ISODate), {}}});
    rows.prepend({Cell{tr("report tool version"), {}}, Cell{qs(versionLine()), {}}});
    if (!m_data.run.campaignSha256.empty())
        rows.prepend({Cell{tr("campaign sha256"), {}}, Cell{qs(m_data.run.campaignSha256), {}}});
    if (!m_data.tags.empty()) {
        QStringList t;
        for (const auto &s : m_data.tags)
            t << qs(s);
        rows.append({Cell{tr("tags"), {}}, Cell{t.join(u", "_qs), {}}});
    }
    if (!m_data.notes.empty())
        rows.append({Cell{tr("notes"), {}}, Cell{cut(qs(m_data.notes), 400), {}}});
    m_doc.section(tr("Appendix A: provenance"));
    m_doc.paragraph(tr("What produced these numbers: the campaign, the engine, the host and each server as "
                       "recorded with the run."),
                    ReportDoc::Type::Small, ReportDoc::muted());
    m_doc.space(4);
    m_doc.table({tr("Key"), tr("Value")}, rows, ReportDoc::Type::Small);
}

void ReportComposer::definitionsAppendix()
{
    QList<Row> defs;
    auto text = [](const nlohmann::json &m, const char *key) {
        return MetricTexts::translate(m.value(key, std::string()));
    };
    for (const auto &m : m_data.metricDefinitions)
        if (m.is_object())
            defs.append({Cell{qs(m.value("key", std::string())), {}},
                         Cell{u"%1 (%2)"_qs.arg(text(m, "label"), text(m, "unit")), {}},
                         Cell{text(m, "tooltip"), {}}});
    if (defs.isEmpty())
        return;
    m_doc.section(tr("Appendix B: metric definitions"), false);
    m_doc.table({tr("Key"), tr("Name (unit)"), tr("Definition")}, defs, ReportDoc::Type::Small);
    m_doc.paragraph(tr("Distributions are summarised by p50, p90, p95, p99 and p99.9 (percentiles), mean, "
                       "min, max, std (population standard deviation) and n (number of samples); a "
                       "percentile is reported only from its minimum n on (p90: 100, p99: 1,000, p99.9: "
                       "10,000)."),
                    ReportDoc::Type::Small, ReportDoc::muted());
}

void ReportComposer::validityAppendix()
{
    m_doc.section(tr("Appendix C: validity notes"), false);
    m_doc.paragraph(tr(
        "A point is valid when no flag is raised. window_short: measurement window shorter than max(60 s, 3 "
        "× "
        "median E2E) (configurable for demos); low_sample: fewer than 100 completed requests or a percentile "
        "below its minimum n (p90 needs 100, p99 1,000, p99.9 10,000); error_rate: more than 1 % of measured "
        "requests failed; truncated: requests cancelled at the maximum duration; client_bound: the client's "
        "own error budget exceeded (CPU above 85 %, its send path blocked for more than "
        "5 % of the point and 100 ms, an added delay above 5 ms) or the achieved load below 90 % of the "
        "target; shard_skew, shard_late, shard_missing (a merged cluster run): shards started more than 50 "
        "ms "
        "apart, a shard began more than 250 ms after its slot, a shard is missing. Invalid points are never "
        "operating points; charts draw them hollow."));
    m_doc.space(6);
    QList<Row> invalid;
    for (const ScenarioResult &s : m_data.run.scenarios)
        for (int i = 0; i < int(s.points.size()); ++i)
            if (!s.points[std::size_t(i)].validity.valid)
                invalid.append({Cell{qs(s.id), {}}, Cell{QString::number(i), {}},
                                Cell{loadLabel(s.points[std::size_t(i)].load), {}},
                                Cell{flagsText(s.points[std::size_t(i)].validity), {}}});
    if (invalid.isEmpty())
        m_doc.paragraph(tr("Every point of this run is valid."));
    else
        m_doc.table({tr("Scenario"), tr("Point"), tr("Load"), tr("Flags")}, invalid);
}

void ReportComposer::detailsAppendix()
{
    m_doc.section(tr("Appendix D: per-point details"), false);
    for (const ScenarioResult &s : m_data.run.scenarios) {
        if (s.points.empty())
            continue;
        QList<Row> rows;
        for (int i = 0; i < int(s.points.size()); ++i) {
            const PointResult &p = s.points[std::size_t(i)];
            int errors = 0;
            for (const auto &[k, n] : p.errors)
                errors += n;
            rows.append({Cell{QString::number(i), {}}, Cell{loadLabel(p.load), {}},
                         Cell{QString::number(errors), {}}, Cell{num(p.client.cpuPct, 0), {}},
                         Cell{num(p.client.sendLatenessP99Ms, 2), {}},
                         Cell{numOpt(p.metricValue("ttft_ms", "p50"), 1), {}},
                         Cell{numOpt(p.metricValue("ttft_ms", "p99"), 1), {}},
                         Cell{numOpt(p.metricValue("tpot_ms", "p50"), 2), {}},
                         Cell{numOpt(p.metricValue("tpot_ms", "p99"), 2), {}},
                         Cell{numOpt(p.metricValue("e2e_ms", "p50"), 1), {}},
                         Cell{numOpt(p.metricValue("chunk_gap_ms", "p99"), 2), {}},
                         Cell{num(p.metrics.requestRate, 2), {}}});
        }
        m_doc.subsection(qs(s.id), 50);
        m_doc.table({tr("#"), tr("Load"), tr("Errors"), tr("Client CPU %"), tr("Lateness p99 ms"),
                     tr("TTFT p50"), tr("TTFT p99"), tr("TPOT p50"), tr("TPOT p99"), tr("E2E p50"),
                     tr("Chunk gap p99"), tr("req/s")},
                    rows, ReportDoc::Type::Small);
    }
}

} // namespace Throughline
