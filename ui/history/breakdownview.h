#pragma once
// History's "Where the time goes" tab (docs/server-timing.md), for runs whose points carry server timing
// (results.json "server_timing", stored in points.aggregates): on top one stacked bar per load point, the
// mean of each part over the point's measured requests from the stored summary (parts most requests do not
// have are left out); below, for the point clicked, its requests (seq, e2e, status) and the waterfall of the
// one picked — by default the request of median e2e — from the stored per-request breakdowns
// (HistoryReader::requestBreakdowns, read on the HistoryService worker, channel Breakdowns; at once without
// a service). GUI thread.

#include "core/storage/storagetypes.h"
#include "ui/history/historyloads.h"
#include "ui/plots/breakdownplot.h"

#include <QPointer>
#include <QWidget>

#include <vector>

class QLabel;
class QSplitter;
class QTableView;

namespace Throughline {

class HistoryService;
class BreakdownRequestsModel;

namespace BreakdownRows {
// Whether any point of the run has a server-timing summary.
bool hasServerTiming(const RunDetail &run);
// One bar per point with a server-timing summary, in the run's point order: each part whose majority status
// is known, at its mean. Labels as the other tabs name loads (the scenario's phase first when the run has
// several scenarios).
std::vector<StackedBar> stackedBars(const RunDetail &run);
// The request's parts one after the other in BreakdownPart order; an unknown part keeps its place (no
// width) where the previous known part ended.
std::vector<WaterfallRow> waterfallRows(const RequestBreakdown &breakdown);
// The request of median e2e among the successful measured ones with server timing (else among all); -1 when
// there is none.
int medianRequest(const std::vector<HistoryLoads::PointBreakdowns::Request> &requests);
} // namespace BreakdownRows

class BreakdownView : public QWidget
{
    Q_OBJECT
public:
    explicit BreakdownView(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    void setHistoryService(HistoryService *service);
    // False (and nothing shown) when no point of the run has server timing; else shows the bars and starts
    // reading the first point's requests.
    bool setRun(const RunDetail &run);
    // Shows bar `index`'s point: its requests are read and the median one is drawn when they arrive.
    void selectPoint(int index);
    // Draws the waterfall of the request in row `row` of the request table.
    void selectRequest(int row);

    StackedBreakdownPlot *stackedPlot() const { return m_stacked; }
    WaterfallPlot *waterfallPlot() const { return m_waterfall; }
    QTableView *requestView() const { return m_requestView; }
    // The requests of the point shown (table order), and the one whose waterfall is drawn (-1 = none).
    const HistoryLoads::PointBreakdowns &requests() const { return m_requests; }
    int shownRequest() const { return m_shownRequest; }
    QString summaryText() const;

signals:
    void statusMessage(const QString &message);

private:
    void applyRequests(HistoryLoads::PointBreakdowns data);
    void showSummary(int index);

    QString m_dbPath;
    QPointer<HistoryService> m_service;
    RunDetail m_run;
    QLabel *m_summary;
    StackedBreakdownPlot *m_stacked;
    QTableView *m_requestView;
    BreakdownRequestsModel *m_model;
    WaterfallPlot *m_waterfall;
    QSplitter *m_plots; // in a scroll area: a run with many points scrolls instead of squeezing its rows
    HistoryLoads::PointBreakdowns m_requests;
    int m_shownRequest = -1;
    int m_medianRequest = -1; // of m_requests, found once per point (an O(n) pass over up to a million)
};

} // namespace Throughline
