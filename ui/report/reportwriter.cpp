#include "ui/report/reportwriter.h"

#include "core/util/version.h"
#include "ui/plots/reportchartrenderer.h"

#include <QDateTime>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString numberOpt(std::optional<double> v, int decimals)
{
    return ReportWriter::number(v ? *v : std::nan(""), decimals);
}

QString loadText(const PointLoad &l)
{
    if (l.mode == PointLoad::Mode::Concurrency)
        return u"C=%1"_qs.arg(l.concurrency);
    return u"%1 req/s"_qs.arg(ReportWriter::number(l.rate, 2));
}

QString joinFlags(const PointValidity &v)
{
    if (v.valid && v.flags.empty())
        return u"valid"_qs;
    QStringList f;
    for (const auto &s : v.flags)
        f << qs(s);
    return u"invalid: "_qs + f.join(u", "_qs);
}

struct Cell {
    QString text;
    QColor background; // invalid = none
};
using Row = QList<Cell>;

// Layout + painting of the document. Runs twice: a measuring pass (no painter) that counts pages,
// then the painting pass, so footers can say "Page N of M".
class Doc
{
public:
    Doc(QPdfWriter &writer, QPainter *painter, int totalPages, QString footer)
        : m_w(writer)
        , m_p(painter)
        , m_total(totalPages)
        , m_footer(std::move(footer))
    {
        m_u = m_w.resolution() / 72.0;
        const QRect pr = m_w.pageLayout().paintRectPixels(m_w.resolution());
        m_page = QRectF(0, 0, pr.width(), pr.height());
        m_body = m_page.adjusted(0, 0, 0, -font(7).pointSizeF() * m_u * 3);
        m_y = m_body.top();
    }

    double u() const { return m_u; }
    int pages() const { return m_pageNo; }
    const QRectF &body() const { return m_body; }
    double remaining() const { return m_body.bottom() - m_y; }

    static QFont font(double pt, bool bold = false)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPointSizeF(pt);
        f.setBold(bold);
        return f;
    }

    void finishPage()
    {
        if (m_p) {
            const QFont f = font(7);
            m_p->setFont(f);
            m_p->setPen(QColor(90, 90, 90));
            const QFontMetricsF fm(f, &m_w);
            const QRectF r(m_page.left(), m_page.bottom() - fm.height() * 1.5, m_page.width(),
                           fm.height() * 1.5);
            m_p->drawLine(QPointF(r.left(), r.top()), QPointF(r.right(), r.top()));
            m_p->drawText(r, Qt::AlignLeft | Qt::AlignBottom, m_footer);
            m_p->drawText(r, Qt::AlignRight | Qt::AlignBottom,
                          u"Page %1 of %2"_qs.arg(m_pageNo).arg(m_total));
        }
    }
    void newPage()
    {
        finishPage();
        if (m_p)
            m_w.newPage();
        ++m_pageNo;
        m_y = m_body.top();
    }
    void ensure(double h)
    {
        if (m_y + h > m_body.bottom() && m_y > m_body.top())
            newPage();
    }
    void space(double pt) { m_y += pt * m_u; }

    // Word wrap; words wider than the column (long ids, URLs) may break anywhere instead of being clipped.
    int wrapFlags(const QString &text, const QFont &f, double width) const
    {
        const QFontMetricsF fm(f, &m_w);
        const QStringList words = text.split(u' ', Qt::SkipEmptyParts);
        for (const QString &w : words)
            if (fm.horizontalAdvance(w) > width)
                return Qt::TextWrapAnywhere;
        return Qt::TextWordWrap;
    }
    double textHeight(const QString &text, const QFont &f, double width) const
    {
        const QFontMetricsF fm(f, &m_w);
        return fm.boundingRect(QRectF(0, 0, width, 1e9), wrapFlags(text, f, width), text).height();
    }

    void text(const QString &t, double pt, bool bold = false, QColor color = QColor(20, 20, 20))
    {
        const QFont f = font(pt, bold);
        const double h = textHeight(t, f, m_body.width());
        ensure(h);
        if (m_p) {
            m_p->setFont(f);
            m_p->setPen(color);
            m_p->drawText(QRectF(m_body.left(), m_y, m_body.width(), h),
                          Qt::AlignLeft | Qt::AlignTop | wrapFlags(t, f, m_body.width()), t);
        }
        m_y += h;
    }
    void heading(const QString &t, int level)
    {
        const double pt = level == 0 ? 22 : level == 1 ? 15 : 11;
        ensure(pt * m_u * 6); // keep a heading with what follows
        space(level == 0 ? 0 : 6);
        text(t, pt, true, QColor(10, 40, 90));
        space(3);
    }

    void chart(const ReportChartRenderer::Chart &c, double heightPt)
    {
        const double h = heightPt * m_u;
        ensure(h);
        if (m_p)
            ReportChartRenderer::draw(*m_p, QRectF(m_body.left(), m_y, m_body.width(), h), c, 8);
        m_y += h + 4 * m_u;
    }

    // A table that fits the body width: columns get their natural width; when too wide the font
    // shrinks (down to 6 pt) and then the widest columns wrap. Header repeats on every page.
    void table(const QStringList &headers, const QList<Row> &rows, double pt = 8)
    {
        const int n = int(headers.size());
        QFont f = font(pt);
        QFont hf = font(pt, true);
        const double pad = 3 * m_u;
        QList<double> widths(n, 0);
        auto natural = [&](const QFont &cf, const QFont &hdf) {
            const QFontMetricsF fm(cf, &m_w), hfm(hdf, &m_w);
            for (int c = 0; c < n; ++c) {
                double w = hfm.horizontalAdvance(headers[c]);
                for (const Row &r : rows)
                    if (c < r.size())
                        w = std::max(w, fm.horizontalAdvance(r[c].text));
                widths[c] = w + 2 * pad + 1;
            }
        };
        natural(f, hf);
        auto total = [&] {
            double t = 0;
            for (double w : widths)
                t += w;
            return t;
        };
        while (total() > m_body.width() && f.pointSizeF() > 6.01) {
            f.setPointSizeF(f.pointSizeF() - 0.5);
            hf.setPointSizeF(f.pointSizeF());
            natural(f, hf);
        }
        if (total() > m_body.width()) { // shrink the widest columns to a fair share; they wrap
            const double fair = m_body.width() / n;
            double fixed = 0;
            int wide = 0;
            for (double w : widths)
                (w > fair) ? ++wide : (fixed += w, 0);
            const double share = (m_body.width() - fixed) / std::max(1, wide);
            for (double &w : widths)
                if (w > fair)
                    w = std::max(share, 2 * pad + 8 * m_u);
        }
        auto rowHeight = [&](const QStringList &texts, const QFont &rf) {
            double h = 0;
            for (int c = 0; c < n; ++c)
                h = std::max(h, textHeight(c < texts.size() ? texts[c] : QString(), rf, widths[c] - 2 * pad));
            return h + 2 * pad * 0.6;
        };
        auto drawRow = [&](const Row &r, const QFont &rf, bool header, double h) {
            if (!m_p)
                return;
            double x = m_body.left();
            m_p->setFont(rf);
            for (int c = 0; c < n; ++c) {
                const QRectF cell(x, m_y, widths[c], h);
                const QColor bg =
                    header ? QColor(225, 231, 240) : (c < r.size() ? r[c].background : QColor());
                if (bg.isValid())
                    m_p->fillRect(cell, bg);
                m_p->setPen(QPen(QColor(190, 190, 190), 0.4 * m_u));
                m_p->drawRect(cell);
                m_p->setPen(QColor(20, 20, 20));
                if (c < r.size())
                    m_p->drawText(cell.adjusted(pad, pad * 0.6, -pad, -pad * 0.6),
                                  Qt::AlignLeft | Qt::AlignVCenter |
                                      wrapFlags(r[c].text, rf, widths[c] - 2 * pad),
                                  r[c].text);
                x += widths[c];
            }
        };
        Row headerRow;
        for (const QString &h : headers)
            headerRow.append(Cell{h, {}});
        const double hh = rowHeight(headers, hf);
        ensure(hh * 2);
        drawRow(headerRow, hf, true, hh);
        m_y += hh;
        for (const Row &r : rows) {
            QStringList texts;
            for (const Cell &c : r)
                texts << c.text;
            const double h = rowHeight(texts, f);
            if (m_y + h > m_body.bottom()) {
                newPage();
                drawRow(headerRow, hf, true, hh);
                m_y += hh;
            }
            drawRow(r, f, false, h);
            m_y += h;
        }
        m_y += 6 * m_u;
    }

private:
    QPdfWriter &m_w;
    QPainter *m_p;
    int m_total;
    QString m_footer;
    double m_u = 1;
    QRectF m_page, m_body;
    double m_y = 0;
    int m_pageNo = 1;
};

QColor marginColor(const VerdictCheck &c)
{
    switch (c.outcome) {
    case VerdictCheck::Outcome::Fail:
        return std::isfinite(c.marginPct) && c.marginPct > -10 ? QColor(250, 205, 180)
                                                               : QColor(245, 170, 170);
    case VerdictCheck::Outcome::Pass:
        return std::isfinite(c.marginPct) && c.marginPct < 10 ? QColor(225, 240, 190) : QColor(185, 230, 185);
    case VerdictCheck::Outcome::Info:
        return QColor(220, 228, 245);
    case VerdictCheck::Outcome::NotAvailable:
        break;
    }
    return QColor(235, 235, 235);
}

QColor verdictColor(Verdict::Status s)
{
    switch (s) {
    case Verdict::Status::Pass:
        return QColor(185, 230, 185);
    case Verdict::Status::Fail:
        return QColor(245, 170, 170);
    case Verdict::Status::Invalid:
        return QColor(250, 215, 150);
    case Verdict::Status::NoTarget:
        break;
    }
    return QColor(235, 235, 235);
}

QString checkKey(const VerdictCheck &c)
{
    return c.stat == "value" ? qs(c.metric) : qs(c.metric) + u' ' + qs(c.stat);
}

QString deploymentText(const ScenarioResult &s)
{
    QString t = u"%1×%2"_qs.arg(qs(s.gpu)).arg(s.gpus);
    if (s.prefillGpus > 0 || s.decodeGpus > 0)
        t += u" (%1 prefill + %2 decode)"_qs.arg(s.prefillGpus).arg(s.decodeGpus);
    return t;
}

// Scalar provenance facts, flattened one level ("server.version"), in key order.
QList<Row> provenanceRows(const nlohmann::json &prov)
{
    QList<Row> rows;
    if (!prov.is_object())
        return rows;
    auto scalar = [](const nlohmann::json &v) {
        return v.is_string() ? qs(v.get<std::string>()) : qs(v.dump());
    };
    for (auto it = prov.begin(); it != prov.end(); ++it) {
        if (it->is_object()) {
            for (auto jt = it->begin(); jt != it->end(); ++jt)
                if (!jt->is_structured())
                    rows.append({Cell{qs(it.key()) + u'.' + qs(jt.key()), {}}, Cell{scalar(*jt), {}}});
        } else if (!it->is_structured()) {
            rows.append({Cell{qs(it.key()), {}}, Cell{scalar(*it), {}}});
        } else {
            rows.append({Cell{qs(it.key()), {}}, Cell{qs(it->dump()).left(400), {}}});
        }
        if (rows.size() >= 40)
            break;
    }
    return rows;
}

// Per-point server telemetry (results.json point "telemetry"): rows only for points that carry it.
QList<Row> telemetryRows(const ScenarioResult &s, bool *anyEnergy)
{
    QList<Row> rows;
    *anyEnergy = false;
    for (int i = 0; i < int(s.points.size()); ++i) {
        const auto &t = s.points[i].telemetry;
        if (t.empty())
            continue;
        auto v = [&t](const char *k) { return t.count(k) ? t.at(k) : std::nan(""); };
        *anyEnergy = *anyEnergy || std::isfinite(v("energy_per_output_token_j"));
        const double scrapes = v("scrapes");
        rows.append({Cell{QString::number(i), {}}, Cell{loadText(s.points[i].load), {}},
                     Cell{ReportWriter::number(v("kv_cache_usage_peak") * 100.0, 1), {}},
                     Cell{ReportWriter::number(v("waiting_mean"), 2), {}},
                     Cell{ReportWriter::number(v("waiting_peak"), 0), {}},
                     Cell{std::isfinite(scrapes) ? ReportWriter::number(v("scrape_failures"), 0) + u'/' +
                                                       ReportWriter::number(scrapes, 0)
                                                 : u"n/a"_qs,
                          v("scrape_failures") > 0 ? QColor(252, 232, 200) : QColor()},
                     Cell{ReportWriter::number(v("stalled_requests"), 0),
                          v("stalled_requests") > 0 ? QColor(252, 232, 200) : QColor()},
                     Cell{ReportWriter::number(v("gpu_power_w_mean"), 0), {}},
                     Cell{ReportWriter::number(v("energy_per_output_token_j"), 3), {}}});
    }
    return rows;
}

// Cold start facts (results.json scenario "cold_start"); empty when not measured.
QList<Row> coldStartRows(const nlohmann::json &c)
{
    QList<Row> rows;
    if (!c.is_object())
        return rows;
    auto num = [&c](const char *k, int decimals) {
        return ReportWriter::number(c.contains(k) && c[k].is_number() ? c[k].get<double>() : std::nan(""),
                                    decimals);
    };
    const std::string since = c.value("since", std::string());
    const QString from = since == "ready_since" ? u"--ready-since moment"_qs
                         : since == "run_start" ? u"run start"_qs
                                                : u"scenario start"_qs;
    const bool ready = c.contains("time_to_ready_s") && c["time_to_ready_s"].is_number();
    rows.append({Cell{u"Time to ready (s)"_qs, {}}, Cell{ready ? num("time_to_ready_s", 2) : u"not ready"_qs,
                                                         ready ? QColor() : QColor(245, 170, 170)}});
    rows.append({Cell{u"Measured from"_qs, {}}, Cell{from, {}}});
    rows.append({Cell{u"Polls (/health, /v1/models)"_qs, {}},
                 Cell{num("polls", 0) + u" every "_qs + num("poll_interval_s", 2) + u" s"_qs, {}}});
    rows.append({Cell{u"First request TTFT (ms)"_qs, {}}, Cell{num("first_request_ttft_ms", 1), {}}});
    rows.append({Cell{u"First request E2E (ms)"_qs, {}}, Cell{num("first_request_e2e_ms", 1), {}}});
    if (c.contains("error") && c["error"].is_string())
        rows.append(
            {Cell{u"Problem"_qs, {}}, Cell{qs(c["error"].get<std::string>()), QColor(252, 232, 200)}});
    return rows;
}

void render(Doc &d, const ReportData &data)
{
    const RunResults &run = data.run;
    // ---- Title page ----
    d.space(60);
    d.text(u"Throughline benchmark report"_qs, 24, true, QColor(10, 40, 90));
    d.space(8);
    d.text(run.campaignName.empty() ? u"(unnamed campaign)"_qs : qs(run.campaignName), 16, true);
    d.space(14);
    const QString kind =
        run.simulated
            ? u"Simulated endpoint (built-in performance model, time scale %1): numbers are model estimates, not measurements of real hardware."_qs
                  .arg(ReportWriter::number(run.timeScale, 2))
            : u"Real endpoint: measured against a live server."_qs;
    QList<Row> facts{
        {Cell{u"Run id"_qs, {}}, Cell{qs(run.runId), {}}},
        {Cell{u"Started (UTC)"_qs, {}}, Cell{qs(run.startedUtc), {}}},
        {Cell{u"Report generated (UTC)"_qs, {}},
         Cell{QDateTime::currentDateTimeUtc().toString(Qt::ISODate), {}}},
        {Cell{u"Tool version (run)"_qs, {}},
         Cell{run.toolVersion.empty() ? u"-"_qs : qs(run.toolVersion), {}}},
        {Cell{u"Tool version (report)"_qs, {}}, Cell{qs(versionLine()), {}}},
        {Cell{u"Campaign sha256"_qs, {}},
         Cell{run.campaignSha256.empty() ? u"-"_qs : qs(run.campaignSha256), {}}},
        {Cell{u"Source"_qs, {}},
         Cell{qs(data.source) + (data.status.empty() ? QString() : u", "_qs + qs(data.status)), {}}},
        {Cell{u"Endpoint kind"_qs, {}}, Cell{kind, run.simulated ? QColor(255, 240, 200) : QColor()}},
    };
    if (!data.tags.empty()) {
        QStringList t;
        for (const auto &s : data.tags)
            t << qs(s);
        facts.append({Cell{u"Tags"_qs, {}}, Cell{t.join(u", "_qs), {}}});
    }
    if (!data.notes.empty())
        facts.append({Cell{u"Notes"_qs, {}}, Cell{qs(data.notes), {}}});
    d.table({u"Fact"_qs, u"Value"_qs}, facts, 9);
    d.heading(u"Deployments"_qs, 2);
    QList<Row> dep;
    for (const ScenarioResult &s : run.scenarios)
        dep.append({Cell{qs(s.model), {}}, Cell{qs(s.backend), {}}, Cell{deploymentText(s), {}},
                    Cell{qs(s.phase), {}}, Cell{QString::number(s.isl), {}},
                    Cell{QString::number(s.osl), {}}});
    d.table({u"Model"_qs, u"Backend"_qs, u"GPUs"_qs, u"Phase"_qs, u"ISL"_qs, u"OSL"_qs}, dep);
    const QList<Row> prov = provenanceRows(data.provenance);
    if (!prov.isEmpty()) {
        d.heading(u"Endpoint and environment"_qs, 2);
        d.table({u"Key"_qs, u"Value"_qs}, prov, 8);
    }

    // ---- Executive summary ----
    d.newPage();
    d.heading(u"Executive summary"_qs, 1);
    std::map<std::string, int> counts;
    for (const ScenarioResult &s : run.scenarios)
        ++counts[data.verdictKey(s)];
    QStringList parts;
    for (const auto &[k, n] : counts)
        parts << u"%1 %2"_qs.arg(n).arg(qs(k));
    d.text(u"%1 scenarios: %2. Throughput targets are judged at each scenario's operating point (the highest-"
           "throughput valid point meeting the SLOs); slo targets at the designated point; baseline targets "
           "pass at "
           "≥ 95 % of the baseline."_qs.arg(run.scenarios.size())
               .arg(parts.join(u", "_qs)),
           9);
    d.space(6);
    QStringList columns;
    for (const ScenarioResult &s : run.scenarios)
        for (const VerdictCheck &c : s.verdict.checks)
            if (!columns.contains(checkKey(c)))
                columns << checkKey(c);
    QStringList headers{u"Scenario"_qs, u"Verdict"_qs, u"Op. point"_qs};
    headers += columns;
    QList<Row> matrix;
    for (const ScenarioResult &s : run.scenarios) {
        Row r{Cell{qs(s.id), {}},
              Cell{qs(data.verdictKey(s)),
                   data.unjudged.count(s.id) ? QColor(235, 235, 235) : verdictColor(s.verdict.status)},
              Cell{s.verdict.operatingPoint >= 0 && s.verdict.operatingPoint < int(s.points.size())
                       ? u"#%1 %2"_qs.arg(s.verdict.operatingPoint)
                             .arg(loadText(s.points[s.verdict.operatingPoint].load))
                       : u"-"_qs,
                   {}}};
        for (const QString &col : columns) {
            Cell cell{u"-"_qs, {}};
            for (const VerdictCheck &c : s.verdict.checks)
                if (checkKey(c) == col) {
                    cell.text = ReportWriter::number(c.value, 1) + u' ' +
                                qs(std::string(comparatorKey(c.cmp))) + u' ' +
                                ReportWriter::number(c.target, 1);
                    if (std::isfinite(c.marginPct))
                        cell.text += u" (%1%2 %)"_qs.arg(c.marginPct >= 0 ? u"+"_qs : QString())
                                         .arg(ReportWriter::number(c.marginPct, 1));
                    cell.background = marginColor(c);
                }
            r.append(cell);
        }
        matrix.append(r);
    }
    d.table(headers, matrix, 8);
    d.text(u"Cells: value cmp target (margin to target). Green: pass (pale: within 10 %); red: fail (orange: "
           u"within "
           "10 %); blue: informational; grey: not available."_qs,
           7.5, false, QColor(80, 80, 80));

    // ---- Per phase ----
    QStringList phases;
    for (const ScenarioResult &s : run.scenarios)
        if (!phases.contains(qs(s.phase)))
            phases << qs(s.phase);
    for (const QString &phase : phases) {
        d.newPage();
        const ScenarioResult *firstOfPhase = nullptr;
        ReportChartRenderer::Chart chart;
        chart.title = u"%1: output tokens/s per GPU vs tokens/s per user"_qs.arg(phase);
        chart.xLabel = u"output tokens/s per GPU"_qs;
        chart.yLabel = u"tokens/s per user (1000 / TPOT p90)"_qs;
        for (const ScenarioResult &s : run.scenarios) {
            if (qs(s.phase) != phase)
                continue;
            if (!firstOfPhase)
                firstOfPhase = &s;
            ReportChartRenderer::Series series;
            series.name = qs(s.id);
            for (int i = 0; i < int(s.points.size()); ++i) {
                const auto cp = s.points[i].curvePoint();
                if (!cp)
                    continue;
                if (i == s.verdict.operatingPoint)
                    series.highlighted.append(int(series.points.size()));
                series.points.append(QPointF(cp->first, cp->second));
            }
            chart.series.append(series);
        }
        d.heading(u"Phase %1 (ISL %2 / OSL %3)"_qs.arg(phase).arg(firstOfPhase->isl).arg(firstOfPhase->osl),
                  1);
        d.chart(chart, 250);
        d.text(
            u"Ringed point: the scenario's operating point. Points without a reportable TPOT p90 are not drawn."_qs,
            7.5, false, QColor(80, 80, 80));
        for (const ScenarioResult &s : run.scenarios) {
            if (qs(s.phase) != phase)
                continue;
            d.heading(u"%1 — %2"_qs.arg(qs(s.id), qs(data.verdictKey(s))), 2);
            QList<Row> rows;
            for (int i = 0; i < int(s.points.size()); ++i) {
                const PointResult &p = s.points[i];
                const QColor bg = p.validity.valid ? QColor() : QColor(252, 232, 200);
                const auto cp = p.curvePoint();
                rows.append(
                    {Cell{(i == s.verdict.operatingPoint ? u"*"_qs : QString()) + QString::number(i), bg},
                     Cell{loadText(p.load), bg}, Cell{u"%1/%2"_qs.arg(p.nOk).arg(p.nSent), bg},
                     Cell{ReportWriter::number(p.windowS, 1), bg},
                     Cell{ReportWriter::number(p.metrics.outputTpsPerGpu, 1), bg},
                     Cell{numberOpt(p.metricValue("ttft_ms", "p90"), 1), bg},
                     Cell{numberOpt(p.metricValue("tpot_ms", "p90"), 2), bg},
                     Cell{numberOpt(p.metricValue("e2e_ms", "p90"), 1), bg},
                     Cell{cp ? ReportWriter::number(cp->second, 1) : u"n/a"_qs, bg},
                     Cell{joinFlags(p.validity), bg}});
            }
            d.table({u"#"_qs, u"Load"_qs, u"OK/sent"_qs, u"Window s"_qs, u"Out tok/s/GPU"_qs,
                     u"TTFT p90 ms"_qs, u"TPOT p90 ms"_qs, u"E2E p90 ms"_qs, u"tok/s/user"_qs,
                     u"Validity"_qs},
                    rows, 8);
            bool anyEnergy = false;
            const QList<Row> tele = telemetryRows(s, &anyEnergy);
            if (!tele.isEmpty()) {
                d.text(u"Server telemetry per point"_qs, 9, true);
                d.table({u"#"_qs, u"Load"_qs, u"Peak KV %"_qs, u"Mean waiting"_qs, u"Peak waiting"_qs,
                         u"Scrapes failed"_qs, u"Stalled streams"_qs, u"GPU power W"_qs,
                         u"Energy J/token"_qs},
                        tele, 8);
                if (!anyEnergy)
                    d.text(
                        u"Energy per token needs GPU power (e.g. a DCGM exporter as an extra telemetry URL)."_qs,
                        7.5, false, QColor(80, 80, 80));
            }
            const QList<Row> cold = coldStartRows(s.coldStart);
            if (!cold.isEmpty()) {
                d.text(u"Cold start"_qs, 9, true);
                d.table({u"Fact"_qs, u"Value"_qs}, cold, 8);
            }
            if (!s.verdict.checks.empty()) {
                QList<Row> checks;
                for (const VerdictCheck &c : s.verdict.checks)
                    checks.append({Cell{qs(c.metric), {}}, Cell{qs(c.stat), {}},
                                   Cell{qs(std::string(comparatorKey(c.cmp))), {}},
                                   Cell{ReportWriter::number(c.target, 2), {}},
                                   Cell{ReportWriter::number(c.value, 2), {}},
                                   Cell{ReportWriter::number(c.marginPct, 1), {}},
                                   Cell{qs(std::string(targetKindKey(c.kind))), {}},
                                   Cell{qs(std::string(checkOutcomeKey(c.outcome))), marginColor(c)},
                                   Cell{c.point >= 0 ? QString::number(c.point) : u"-"_qs, {}},
                                   Cell{qs(c.source), {}}});
                d.table({u"Metric"_qs, u"Stat"_qs, u"Cmp"_qs, u"Target"_qs, u"Value"_qs, u"Margin %"_qs,
                         u"Kind"_qs, u"Outcome"_qs, u"Point"_qs, u"Source"_qs},
                        checks, 7.5);
            }
        }
    }

    // ---- Appendix ----
    d.newPage();
    d.heading(u"Appendix A: metric definitions"_qs, 1);
    QList<Row> defs;
    for (const auto &m : data.metricDefinitions)
        if (m.is_object())
            defs.append({Cell{qs(m.value("key", std::string())), {}},
                         Cell{qs(m.value("unit", std::string())), {}},
                         Cell{qs(m.value("tooltip", m.value("label", std::string()))), {}}});
    d.table({u"Key"_qs, u"Unit"_qs, u"Definition"_qs}, defs, 7.5);
    d.heading(u"Appendix B: validity notes"_qs, 1);
    d.text(
        u"A point is valid when no flag is raised. window_short: measurement window shorter than max(60 s, 3 "
        u"× "
        "median E2E) (configurable for demos); low_sample: fewer than 100 completed requests or a percentile "
        "below "
        "its minimum n (p90 needs 100, p99 1,000, p99.9 10,000); error_rate: more than 1 % of measured "
        "requests "
        "failed; truncated: requests cancelled at the maximum duration; client_bound: client CPU above 85 %, "
        "send "
        "lateness p99 above 5 ms or the achieved load below target. Invalid points are never operating points."_qs,
        8.5);
    d.space(4);
    QList<Row> invalid;
    for (const ScenarioResult &s : run.scenarios)
        for (int i = 0; i < int(s.points.size()); ++i)
            if (!s.points[i].validity.valid)
                invalid.append({Cell{qs(s.id), {}}, Cell{QString::number(i), {}},
                                Cell{loadText(s.points[i].load), {}},
                                Cell{joinFlags(s.points[i].validity), {}}});
    if (invalid.isEmpty())
        d.text(u"Every point of this run is valid."_qs, 8.5);
    else
        d.table({u"Scenario"_qs, u"Point"_qs, u"Load"_qs, u"Flags"_qs}, invalid, 8);
    d.finishPage();
}

} // namespace

QString ReportWriter::number(double value, int decimals)
{
    if (!std::isfinite(value))
        return u"n/a"_qs;
    return QString::number(value, 'f', decimals);
}

Result<ReportWriter::Paper> ReportWriter::parsePaper(const QString &name)
{
    const QString n = name.toLower();
    if (n == u"a4")
        return Paper::A4;
    if (n == u"letter")
        return Paper::Letter;
    return makeError(ErrorCode::InvalidInput,
                     "--paper: expected a4 or letter, got \"" + name.toStdString() + '"');
}

Status ReportWriter::write(const ReportData &data, const QString &path, const Options &options)
{
    QPdfWriter writer(path);
    writer.setResolution(options.resolution);
    writer.setTitle(u"Throughline report "_qs + QString::fromStdString(data.run.campaignName));
    writer.setCreator(QString::fromStdString(versionLine()));
    const QPageSize size(options.paper == Paper::A4 ? QPageSize::A4 : QPageSize::Letter);
    writer.setPageLayout(
        QPageLayout(size, QPageLayout::Portrait, QMarginsF(18, 18, 18, 16), QPageLayout::Millimeter));
    const QString footer = u"Throughline report · %1 · run %2"_qs.arg(
        QString::fromStdString(data.run.campaignName), QString::fromStdString(data.run.runId.substr(0, 8)));
    // Pass 1: measure the page count.
    Doc measure(writer, nullptr, 0, footer);
    render(measure, data);
    // Pass 2: paint.
    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(ErrorCode::Io, "cannot write PDF file " + path.toStdString());
    Doc doc(writer, &painter, measure.pages(), footer);
    render(doc, data);
    if (!painter.end())
        return makeError(ErrorCode::Io, "cannot finish PDF file " + path.toStdString());
    return Ok{};
}

} // namespace Throughline
