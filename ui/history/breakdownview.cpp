#include "ui/history/breakdownview.h"

#include "core/metrics/timingsummary.h"
#include "ui/history/historyservice.h"
#include "ui/models/loadlabel.h"

#include <QAbstractTableModel>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString ms(double v, int decimals = 2)
{
    return QLocale().toString(v, 'f', decimals);
}

// The point's stored summary; empty when it has none (or it does not parse: then it is not drawn).
ServerTimingSummary summaryOf(const PointRow &p)
{
    if (!p.aggregates.is_object() || !p.aggregates.contains("server_timing"))
        return {};
    auto s = ServerTimingSummary::fromJson(p.aggregates["server_timing"]);
    return s ? std::move(s).value() : ServerTimingSummary{};
}

QString pointLabel(const RunDetail &run, const PointRow &p)
{
    const QString load = loadLabel(p.aggregates.contains("load") ? p.aggregates : p.config, p.pointIndex);
    if (run.scenarios.size() < 2)
        return load;
    for (const ScenarioRow &sc : run.scenarios)
        if (sc.index == p.scenarioIndex)
            return QCoreApplication::translate("Throughline::BreakdownView", "%1 · %2")
                .arg(sc.phase.empty() ? QString::number(sc.index + 1) : qs(sc.phase), load);
    return load;
}

BreakdownSegment segmentOf(BreakdownPart part, const BreakdownPartSummary &s, double clockBoundMs)
{
    BreakdownSegment out;
    out.part = part;
    out.ms = s.mean;
    out.status = s.status;
    out.aligned = s.aligned;
    out.boundMs = s.aligned ? clockBoundMs : kNoValue;
    out.detail =
        QCoreApplication::translate("Throughline::BreakdownView",
                                    "mean over %n request(s); p50 %1, p90 %2, p99 %3 ms", nullptr, s.n)
            .arg(ms(s.p50), ms(s.p90), ms(s.p99));
    return out;
}

QString requestStatus(const HistoryLoads::PointBreakdowns::Request &r)
{
    QString status = r.failed   ? QCoreApplication::translate("Throughline::BreakdownView", "failed")
                     : r.warmup ? QCoreApplication::translate("Throughline::BreakdownView", "warm-up")
                                : QCoreApplication::translate("Throughline::BreakdownView", "ok");
    if (!r.breakdown.problem.empty())
        status += QCoreApplication::translate("Throughline::BreakdownView", ", no server timing");
    return status;
}

} // namespace

// The requests of the point shown: seq, e2e, status (the problem text as the status's tooltip).
class BreakdownRequestsModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setRequests(const std::vector<HistoryLoads::PointBreakdowns::Request> *requests)
    {
        beginResetModel();
        m_requests = requests;
        endResetModel();
    }
    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() || !m_requests ? 0 : int(m_requests->size());
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 3; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || !m_requests)
            return {};
        const auto &r = (*m_requests)[std::size_t(index.row())];
        if (role == Qt::ToolTipRole && index.column() == 2 && !r.breakdown.problem.empty())
            return qs(r.breakdown.problem);
        if (role == Qt::TextAlignmentRole && index.column() < 2)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role != Qt::DisplayRole)
            return {};
        switch (index.column()) {
        case 0:
            return QString::number(r.breakdown.seq);
        case 1:
            return std::isfinite(r.e2eMs) ? ms(r.e2eMs, 1) : u"-"_qs;
        default:
            return requestStatus(r);
        }
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        switch (section) {
        case 0:
            return QCoreApplication::translate("Throughline::BreakdownView", "seq");
        case 1:
            return QCoreApplication::translate("Throughline::BreakdownView", "e2e (ms)");
        default:
            return QCoreApplication::translate("Throughline::BreakdownView", "status");
        }
    }

private:
    const std::vector<HistoryLoads::PointBreakdowns::Request> *m_requests = nullptr;
};

// ---- the rows the plots draw ----

bool BreakdownRows::hasServerTiming(const RunDetail &run)
{
    return std::any_of(run.points.begin(), run.points.end(),
                       [](const PointRow &p) { return !summaryOf(p).empty(); });
}

std::vector<StackedBar> BreakdownRows::stackedBars(const RunDetail &run)
{
    std::vector<StackedBar> out;
    for (const PointRow &p : run.points) {
        const ServerTimingSummary summary = summaryOf(p);
        if (summary.empty())
            continue;
        StackedBar bar{pointLabel(run, p), p.id, {}};
        for (int i = 0; i < kBreakdownParts; ++i) {
            const BreakdownPartSummary &s = summary.parts[std::size_t(i)];
            if (s.reported())
                bar.segments.push_back(segmentOf(BreakdownPart(i), s, summary.clockBoundMs));
        }
        out.push_back(std::move(bar));
    }
    return out;
}

std::vector<WaterfallRow> BreakdownRows::waterfallRows(const RequestBreakdown &b)
{
    std::vector<WaterfallRow> out;
    double at = 0;
    for (int i = 0; i < kBreakdownParts; ++i) {
        const PartValue &v = b.parts[std::size_t(i)];
        WaterfallRow row;
        row.segment.part = BreakdownPart(i);
        row.segment.status = v.status;
        row.segment.aligned = v.aligned;
        row.segment.boundMs = v.aligned ? b.alignBoundMs : kNoValue;
        row.segment.ms = v.status != PartStatus::Unknown && std::isfinite(v.ms) ? v.ms : kNoValue;
        row.startMs = at;
        if (std::isfinite(row.segment.ms))
            at += row.segment.ms;
        out.push_back(row);
    }
    return out;
}

int BreakdownRows::medianRequest(const std::vector<HistoryLoads::PointBreakdowns::Request> &requests)
{
    auto pick = [&](bool measuredOnly) {
        std::vector<int> candidates;
        for (int i = 0; i < int(requests.size()); ++i) {
            const auto &r = requests[std::size_t(i)];
            if (std::isfinite(r.e2eMs) &&
                (!measuredOnly || (!r.failed && !r.warmup && r.breakdown.problem.empty())))
                candidates.push_back(i);
        }
        if (candidates.empty())
            return -1;
        // The lower median: a request that exists, not an average of two.
        const auto mid = candidates.begin() + std::ptrdiff_t((candidates.size() - 1) / 2);
        std::nth_element(candidates.begin(), mid, candidates.end(), [&](int a, int b) {
            return requests[std::size_t(a)].e2eMs < requests[std::size_t(b)].e2eMs;
        });
        return *mid;
    };
    const int measured = pick(true);
    if (measured >= 0)
        return measured;
    const int any = pick(false);
    return any >= 0 || requests.empty() ? any : 0;
}

// ---- the view ----

BreakdownView::BreakdownView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel)
    , m_stacked(new StackedBreakdownPlot)
    , m_requestView(new QTableView)
    , m_model(new BreakdownRequestsModel(this))
    , m_waterfall(new WaterfallPlot)
    , m_plots(new QSplitter(Qt::Horizontal))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    // Side by side: the tab gets the page's width but little of its height.
    auto *split = m_plots;
    split->addWidget(m_stacked);
    m_requestView->setModel(m_model);
    m_requestView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_requestView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_requestView->verticalHeader()->hide();
    m_requestView->horizontalHeader()->setStretchLastSection(true);
    for (int column : {0, 1})
        m_requestView->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_requestView->setToolTip(tr("The point's requests: pick one to draw its waterfall."));
    m_requestView->setMinimumWidth(200);
    split->addWidget(m_requestView);
    split->addWidget(m_waterfall);
    split->setSizes({500, 220, 560}); // proportions: the plots share the width, the table keeps a column's
    m_requestView->verticalHeader()->setDefaultSectionSize(m_requestView->fontMetrics().height() + 6);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(split);
    layout->addWidget(scroll, 1);
    connect(m_stacked, &StackedBreakdownPlot::barClicked, this, &BreakdownView::selectPoint);
    connect(m_requestView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && current.row() != m_shownRequest)
                    selectRequest(current.row());
            });
}

void BreakdownView::setHistoryService(HistoryService *service)
{
    m_service = service;
}

bool BreakdownView::setRun(const RunDetail &run)
{
    m_run = run;
    std::vector<StackedBar> bars = BreakdownRows::stackedBars(m_run);
    const bool any = !bars.empty();
    // Rows stay readable: a waterfall row and a bar each get a line of text's height and more.
    const int line = fontMetrics().height();
    m_plots->setMinimumHeight(std::max(kBreakdownParts * (line + 8), int(bars.size()) * (line + 14)) +
                              8 * line);
    m_stacked->setBars(std::move(bars), tr("mean time per measured request (ms), parts stacked"));
    m_model->setRequests(nullptr);
    m_requests = {};
    m_shownRequest = m_medianRequest = -1;
    if (!any)
        return false;
    selectPoint(0);
    return true;
}

void BreakdownView::selectPoint(int index)
{
    if (index < 0 || index >= int(m_stacked->bars().size()))
        return;
    m_stacked->setSelected(index);
    showSummary(index);
    const std::int64_t pointId = m_stacked->bars()[std::size_t(index)].pointId;
    m_waterfall->clear(tr("Reading the requests of %1…").arg(m_stacked->bars()[std::size_t(index)].label));
    HistoryService::run(
        m_service, HistoryService::Channel::Breakdowns, this,
        [db = m_dbPath.toStdString(), pointId] { return HistoryLoads::breakdowns(db, pointId); },
        [this, pointId](Result<HistoryLoads::PointBreakdowns> data) {
            const int selected = m_stacked->selected();
            if (selected < 0 || m_stacked->bars()[std::size_t(selected)].pointId != pointId)
                return; // another point was picked meanwhile
            if (!data) {
                emit statusMessage(qs(data.error().message));
                m_waterfall->clear(tr("The requests of this point cannot be read."));
                return;
            }
            applyRequests(std::move(data).value());
        });
}

void BreakdownView::applyRequests(HistoryLoads::PointBreakdowns data)
{
    m_requests = std::move(data);
    m_shownRequest = -1;
    m_model->setRequests(&m_requests.requests);
    m_medianRequest = BreakdownRows::medianRequest(m_requests.requests);
    if (m_medianRequest < 0) {
        m_waterfall->clear(tr("No request of this point has a stored breakdown."));
        return;
    }
    selectRequest(m_medianRequest);
}

void BreakdownView::selectRequest(int row)
{
    if (row < 0 || row >= int(m_requests.requests.size()))
        return;
    m_shownRequest = row;
    const auto &r = m_requests.requests[std::size_t(row)];
    const QString e2e = std::isfinite(r.e2eMs) ? tr(", e2e %1 ms").arg(ms(r.e2eMs, 1)) : QString();
    const bool median = row == m_medianRequest;
    m_waterfall->setRows(BreakdownRows::waterfallRows(r.breakdown),
                         (median ? tr("Request %1 (median e2e)%2") : tr("Request %1%2"))
                             .arg(QString::number(r.breakdown.seq), e2e));
    m_requestView->selectRow(row); // m_shownRequest is already `row`: the selection handler does nothing

    m_requestView->scrollTo(m_model->index(row, 0));
}

void BreakdownView::showSummary(int index)
{
    const std::int64_t pointId = m_stacked->bars()[std::size_t(index)].pointId;
    for (const PointRow &p : m_run.points) {
        if (p.id != pointId)
            continue;
        const ServerTimingSummary s = summaryOf(p);
        const QString clock = s.clockFitted ? tr("clocks aligned to ± %1 ms").arg(ms(s.clockBoundMs, 3))
                                            : tr("durations only (no clock alignment)");
        m_summary->setText(
            tr("%1: server timing %2, joined by %3; %4 measured requests; %5 requests with "
               "server timing, %6 without (warm-up included); %7. Click a bar to see its point's "
               "requests.")
                .arg(m_stacked->bars()[std::size_t(index)].label, qs(s.format), qs(s.join))
                .arg(s.requests)
                .arg(s.matched)
                .arg(s.missing)
                .arg(clock));
        return;
    }
}

QString BreakdownView::summaryText() const
{
    return m_summary->text();
}

} // namespace Throughline
