// The report's "Where the time goes" section, for a run whose endpoints published per-request server timing
// (docs/server-timing.md): per scenario how the timing was read and joined and how well the two clocks
// were aligned, the stacked breakdown per point, and a table of each part's mean and p90 per point with
// how it was obtained.
#include "ui/report/reportcomposer.h"

#include "ui/models/loadlabel.h"
#include "ui/plots/breakdownparts.h"
#include "ui/report/breakdowncharts.h"
#include "ui/report/reportwriter.h"

namespace Throughline {

namespace {

using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

constexpr int kPointsPerTable = 6; // columns that fit the page beside the part's name and status

// The timing of the scenario's first point that has some: the format and join are the endpoint's.
const ServerTimingSummary *firstTiming(const ScenarioResult &s)
{
    for (const PointResult &p : s.points)
        if (!p.serverTiming.empty())
            return &p.serverTiming;
    return nullptr;
}

QString cellText(const BreakdownPartSummary &p)
{
    if (!p.reported())
        return u"—"_qs;
    QString text = ReportComposer::tr("%1 (p90 %2)")
                       .arg(ReportWriter::number(p.mean, 2), ReportWriter::number(p.p90, 2));
    return p.aligned ? text + u" ±"_qs : text;
}

} // namespace

QString ReportComposer::timingJoinSentence(const ScenarioResult &s)
{
    const ServerTimingSummary *t = firstTiming(s);
    int requests = 0, matched = 0, missing = 0;
    double bound = std::nan("");
    for (const PointResult &p : s.points) {
        requests += p.serverTiming.requests;
        matched += p.serverTiming.matched;
        missing += p.serverTiming.missing;
        if (std::isfinite(p.serverTiming.clockBoundMs))
            bound = std::isfinite(bound) ? std::max(bound, p.serverTiming.clockBoundMs)
                                         : p.serverTiming.clockBoundMs;
    }
    const TimingFormatInfo *info = timingFormatByKey(t->format);
    QString how = t->join == "order_and_time"
                      ? tr("matched by order and time (the server publishes engine ids only)")
                  : t->join == "client_id" ? tr("matched by the request id the client sent")
                                           : tr("read from each request's own response");
    QString sentence =
        tr("Server timing: %1, %2; %3 requests carried it, %4 successful ones did not; %5 "
           "measured requests summarised.")
            .arg(info ? QString::fromLatin1(info->display) : QString::fromStdString(t->format), how)
            .arg(matched)
            .arg(missing)
            .arg(requests);
    if (std::isfinite(bound))
        sentence += u' ' + tr("The server's clock was aligned from the requests' own send and receive times; "
                              "parts marked ± cross the two clocks and are good to ±%1 ms.")
                               .arg(ReportWriter::number(bound, 2));
    else
        sentence += u' ' + tr("The server publishes durations only: no part crosses the two clocks.");
    return sentence;
}

void ReportComposer::breakdownSection()
{
    std::vector<const ScenarioResult *> timed;
    for (const ScenarioResult &s : m_data.run.scenarios)
        if (BreakdownCharts::hasTiming(s))
            timed.push_back(&s);
    if (timed.empty())
        return;
    m_doc.section(tr("Where the time goes"));
    m_doc.paragraph(
        tr("Each request's latency split into the client's, the network's and the server's parts, "
           "from the server's own per-request timing joined to the client's requests. Measured: "
           "from timestamps of one clock; derived: a remainder; the bars stack the parts' means "
           "over the point's measured requests (warm-up and failed requests left out)."),
        ReportDoc::Type::Small, ReportDoc::muted());
    for (const ScenarioResult *s : timed) {
        m_doc.subsection(QString::fromStdString(s->id), 220);
        m_doc.paragraph(timingJoinSentence(*s), ReportDoc::Type::Small, ReportDoc::ink());
        m_doc.chartGrid({BreakdownCharts::stacked(*s, BreakdownCharts::Span::WholeRequest),
                         BreakdownCharts::stacked(*s, BreakdownCharts::Span::ToFirstToken)},
                        2, 190);
        const std::vector<BreakdownPart> parts = BreakdownCharts::partsOf(*s);
        const ServerTimingSummary &statusOf = *firstTiming(*s);
        for (std::size_t first = 0; first < s->points.size(); first += kPointsPerTable) {
            const std::size_t last = std::min(s->points.size(), first + kPointsPerTable);
            QStringList headers{tr("Part"), tr("Obtained")};
            for (std::size_t i = first; i < last; ++i)
                headers << tr("%1 ms").arg(loadLabel(s->points[i].load));
            QList<Row> rows;
            for (BreakdownPart part : parts) {
                Row row{Cell{BreakdownParts::name(part), {}},
                        Cell{BreakdownParts::statusName(statusOf[part].status), {}}};
                for (std::size_t i = first; i < last; ++i)
                    row.append(Cell{cellText(s->points[i].serverTiming[part]), {}});
                rows.append(row);
            }
            m_doc.table(headers, rows, ReportDoc::Type::Small);
        }
    }
}

} // namespace Throughline
