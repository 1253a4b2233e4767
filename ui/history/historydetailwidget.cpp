#include "ui/history/historydetailwidget.h"

#include "ui/history/breakdownview.h"
#include "ui/history/chartview.h"
#include "ui/history/mlperfcurveview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/derivedpointstablemodel.h"
#include "ui/history/exportactions.h"
#include "ui/history/historyroles.h"
#include "ui/history/historyservice.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runtimelineview.h"
#include "ui/plots/curverule.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// A scalar or an array of scalars as one readable value; objects and arrays of objects get children.
QString scalarText(const nlohmann::json &v)
{
    if (v.is_string())
        return qs(v.get<std::string>());
    if (v.is_null())
        return u"-"_qs;
    if (v.is_array()) {
        QStringList parts;
        for (const auto &e : v)
            parts << (e.is_structured() ? qs(e.dump()) : scalarText(e));
        return parts.join(u", "_qs);
    }
    return qs(v.dump());
}

bool hasStructure(const nlohmann::json &v)
{
    if (v.is_object())
        return true;
    if (v.is_array())
        for (const auto &e : v)
            if (e.is_object())
                return true;
    return false;
}

void addProvenanceRows(QTreeWidgetItem *parent, QTreeWidget *tree, const nlohmann::json &value)
{
    auto add = [&](const QString &key, const nlohmann::json &v) {
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
        item->setText(0, key);
        if (hasStructure(v))
            addProvenanceRows(item, tree, v);
        else
            item->setText(1, scalarText(v));
    };
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            add(qs(it.key()), it.value());
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            add(QString::number(i + 1), value[i]);
    }
}

} // namespace

HistoryDetailWidget::HistoryDetailWidget(QWidget *parent)
    : QWidget(parent)
{
    auto *dl = new QVBoxLayout(this);
    dl->setContentsMargins(0, 0, 0, 0);
    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dl->addWidget(m_info);
    m_provenance = new QTreeWidget;
    m_provenance->setObjectName(u"provenance"_qs);
    m_provenance->setColumnCount(2);
    m_provenance->setHeaderLabels({tr("Provenance"), tr("Value")});
    m_provenance->setAlternatingRowColors(true);
    m_notesEditor = new RunNotesEditor;
    connect(m_notesEditor, &RunNotesEditor::saved, this, &HistoryDetailWidget::tagsSaved);
    connect(m_notesEditor, &RunNotesEditor::saveFailed, this, [this](const QString &message) {
        emit statusMessage(message);
        QMessageBox::warning(this, tr("Tags and notes"), message);
    });
    dl->addWidget(m_notesEditor);
    auto *tables = new QSplitter(Qt::Horizontal);
    m_scenarios = new QTableWidget(0, 4);
    m_scenarios->setHorizontalHeaderLabels({tr("Scenario"), tr("Verdict"), tr("Op. point"), tr("Checks")});
    m_scenarios->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_points = new PointsTableModel(this);
    m_derived = new DerivedPointsTableModel(this);
    m_pointsProxy = new QSortFilterProxyModel(this);
    m_pointsProxy->setSourceModel(m_points);
    m_pointsProxy->setSortRole(HistoryRoles::SortRole);
    m_pointsView = new QTableView;
    m_pointsView->setModel(m_pointsProxy);
    m_pointsView->setSortingEnabled(true);
    // Sorting on alone sorts by column 0 descending (the header's default): keep the recorded order until the
    // user clicks a header.
    m_pointsView->sortByColumn(-1, Qt::AscendingOrder);
    m_pointsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Scenario ids differ at their end (…/H200×1/Chat vs …/Reasoning-short): in these narrow panes elide
    // their middle on one line, not their end after a wrap, which made every row of a model look the same.
    for (QTableView *view : {static_cast<QTableView *>(m_scenarios), m_pointsView}) {
        view->setWordWrap(false);
        view->setTextElideMode(Qt::ElideMiddle);
    }
    connect(m_pointsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) {
                if (!cur.isValid())
                    return;
                const int row = cur.data(HistoryRoles::RowIndexRole).toInt();
                showDistribution(m_pointsProxy->sourceModel() == m_derived ? m_derived->row(row).point.id
                                                                           : m_points->row(row).id);
            });
    tables->addWidget(m_scenarios);
    tables->addWidget(m_pointsView);
    tables->addWidget(m_provenance);
    tables->setMinimumHeight(150); // a few rows stay visible next to the plot tabs
    m_derive = new DeriveControls;
    connect(m_derive, &DeriveControls::variantChanged, this, [this] { applyVariant(); });
    dl->addWidget(m_derive);
    dl->addWidget(tables, 2);
    auto *plotTabs = new QTabWidget;
    auto *pointPlots = new QWidget;
    auto *plots = new QHBoxLayout(pointPlots);
    plots->setContentsMargins(0, 0, 0, 0);
    m_curve = new ChartView;
    m_hist = new ChartView;
    m_cdf = new ChartView;
    const QString noRun = tr("No run selected: pick a run in the list above, or run the campaign "
                             "(Run ▸ Start Run, F5).");
    for (ChartView *c : {m_curve, m_hist, m_cdf})
        c->setEmptyText(noRun);
    plots->addWidget(m_curve);
    plots->addWidget(m_hist);
    plots->addWidget(m_cdf);
    plotTabs->addTab(pointPlots, tr("Curve and distributions"));
    m_timeline = new RunTimelineView;
    connect(m_timeline, &RunTimelineView::statusMessage, this, &HistoryDetailWidget::statusMessage);
    plotTabs->addTab(m_timeline, tr("Over time"));
    m_plotTabs = plotTabs;
    m_mlperf = new MlperfCurveView(this); // a tab only for runs measured in MLPerf mode (applyVariantData)
    m_mlperf->hide();
    m_breakdown = new BreakdownView(this); // a tab only for runs with server timing (applyRunView)
    m_breakdown->hide();
    connect(m_breakdown, &BreakdownView::statusMessage, this, &HistoryDetailWidget::statusMessage);
    dl->addWidget(plotTabs, 3);
    auto *detailButtons = new QHBoxLayout;
    m_distMetric = new QComboBox;
    m_distMetric->addItems({u"ttft_ms"_qs, u"tpot_ms"_qs, u"e2e_ms"_qs, u"ttft_q_ms"_qs});
    connect(m_distMetric, &QComboBox::currentTextChanged, this, [this] {
        if (m_currentPoint >= 0)
            showDistribution(m_currentPoint);
    });
    detailButtons->addWidget(new QLabel(tr("Distribution:")));
    detailButtons->addWidget(m_distMetric);
    detailButtons->addStretch();
    for (auto [label, chart] :
         {std::pair{tr("Export curve…"), m_curve}, std::pair{tr("Export histogram…"), m_hist},
          std::pair{tr("Export CDF…"), m_cdf}}) {
        auto *b = new QPushButton(label);
        connect(b, &QPushButton::clicked, this, [this, c = chart] { ExportActions::exportChart(this, c); });
        detailButtons->addWidget(b);
    }
    auto *csv = new QPushButton(tr("Points CSV…"));
    connect(csv, &QPushButton::clicked, this,
            [this] { ExportActions::exportTable(this, m_pointsView->model(), false); });
    auto *copy = new QPushButton(tr("Copy points"));
    connect(copy, &QPushButton::clicked, this,
            [this] { ExportActions::exportTable(this, m_pointsView->model(), true); });
    detailButtons->addWidget(csv);
    detailButtons->addWidget(copy);
    dl->addLayout(detailButtons);
}

void HistoryDetailWidget::setDatabasePath(const QString &path)
{
    m_dbPath = path;
    m_notesEditor->setDatabasePath(path);
    m_timeline->setDatabasePath(path);
    m_breakdown->setDatabasePath(path);
}

void HistoryDetailWidget::setHistoryService(HistoryService *service)
{
    m_service = service;
    m_timeline->setHistoryService(service);
    m_breakdown->setHistoryService(service);
}

QString HistoryDetailWidget::requestedRun() const
{
    return m_requested.isEmpty() ? qs(m_detail.summary.uuid) : m_requested;
}

bool HistoryDetailWidget::showRun(const QString &uuid)
{
    if (m_notesEditor->runUuid() != uuid && m_notesEditor->isModified()) {
        if (auto s = m_notesEditor->save(); !s)
            emit statusMessage(tr("Tags/notes of run %1 not saved: %2")
                                   .arg(m_notesEditor->runUuid(), qs(s.error().message)));
    }
    if (m_service) {
        requestRun(uuid);
        return true;
    }
    auto view = HistoryLoads::runView(m_dbPath.toStdString(), uuid.toStdString(), m_derive->variant(),
                                      m_distMetric->currentText().toStdString());
    if (!view)
        return false;
    applyRunView(*view);
    return true;
}

void HistoryDetailWidget::requestRun(const QString &uuid)
{
    using Channel = HistoryService::Channel;
    // Views of the run shown so far are no longer wanted once another run is asked for.
    for (Channel c : {Channel::Variant, Channel::Distribution, Channel::Timeline, Channel::Breakdowns})
        m_service->supersede(c);
    m_requested = uuid;
    m_service->request(
        Channel::RunDetail, this,
        [db = m_dbPath.toStdString(), uuid = uuid.toStdString(), variant = m_derive->variant(),
         metric = m_distMetric->currentText().toStdString()] {
            return HistoryLoads::runView(db, uuid, variant, metric);
        },
        [this, uuid](Result<HistoryLoads::RunView> view) {
            m_requested.clear();
            if (!view) {
                emit statusMessage(tr("Run %1 cannot be read: %2").arg(uuid, qs(view.error().message)));
                return;
            }
            applyRunView(*view);
        });
}

void HistoryDetailWidget::applyRunView(const HistoryLoads::RunView &view)
{
    const RunDetail &detail = view.detail;
    m_notesEditor->setRun(detail.summary);
    applyHeader(detail);
    applyScenarios(detail);
    m_points->setRows(detail.points);
    m_detail = detail;
    // The variant or the distribution metric may have changed while the read was under way.
    if (view.curve && view.curve->variant == m_derive->variant())
        applyVariantData(*view.curve);
    else if (!view.curve)
        emit statusMessage(qs(view.curveError));
    else
        applyVariant();
    m_timeline->setRun(m_detail, view.firstTimeline, view.timelineError);
    showTabIf(m_breakdown->setRun(m_detail), m_breakdown, tr("Where the time goes"));
    m_currentPoint = -1;
    if (!detail.points.empty()) {
        if (view.firstSamples.metric == m_distMetric->currentText().toStdString()) {
            m_currentPoint = view.firstSamples.pointId;
            applySamples(view.firstSamples);
        } else {
            showDistribution(detail.points.front().id);
        }
    }
    emit runShown(qs(detail.summary.uuid));
}

void HistoryDetailWidget::applyHeader(const RunDetail &detail)
{
    const RunSummary &s = detail.summary;
    m_info->setText(tr("<b>%1</b> — run %2, started %3, %4, source %5%6")
                        .arg(qs(s.campaignName).toHtmlEscaped(), qs(s.uuid), qs(s.startedUtc), qs(s.status),
                             qs(s.source), s.simulated ? tr(", simulated") : QString()));
    m_provenance->clear();
    addProvenanceRows(nullptr, m_provenance, detail.provenance);
    m_provenance->expandToDepth(0);
    m_provenance->resizeColumnToContents(0);
    m_curve->setEmptyText(tr("No point of this run has a throughput and a TPOT to plot."));
    const QString noRows = tr("This point has no stored request rows (imported results keep only "
                              "aggregates), so there is no distribution to draw.");
    m_hist->setEmptyText(noRows);
    m_cdf->setEmptyText(noRows);
}

void HistoryDetailWidget::applyScenarios(const RunDetail &detail)
{
    m_scenarios->setRowCount(int(detail.scenarios.size()));
    for (int i = 0; i < int(detail.scenarios.size()); ++i) {
        const ScenarioRow &sc = detail.scenarios[i];
        const int op = sc.verdictJson.is_object() && sc.verdictJson.contains("operating_point") &&
                               sc.verdictJson["operating_point"].is_number()
                           ? sc.verdictJson["operating_point"].get<int>()
                           : -1;
        const int checks = sc.verdictJson.is_object() && sc.verdictJson.contains("checks")
                               ? int(sc.verdictJson["checks"].size())
                               : 0;
        m_scenarios->setItem(i, 0, new QTableWidgetItem(qs(sc.key)));
        // Stopped runs: the scenario running at the stop is "stopped" (or "not measured"), later ones "not
        // run" — never judged, as the run page shows them; the stop reason is the tooltip.
        const QString verdict = sc.verdict.empty()             ? u"-"_qs
                                : sc.verdict == "not_run"      ? tr("not run")
                                : sc.verdict == "not_measured" ? tr("not measured")
                                : sc.verdict == "stopped"      ? tr("stopped")
                                                               : qs(sc.verdict);
        auto *verdictItem = new QTableWidgetItem(verdict);
        if (sc.verdictJson.is_object() && sc.verdictJson.contains("note") &&
            sc.verdictJson["note"].is_string())
            verdictItem->setToolTip(qs(sc.verdictJson["note"].get<std::string>()));
        m_scenarios->setItem(i, 1, verdictItem);
        m_scenarios->setItem(i, 2, new QTableWidgetItem(op >= 0 ? QString::number(op) : u"-"_qs));
        m_scenarios->setItem(i, 3, new QTableWidgetItem(QString::number(checks)));
    }
}

QString HistoryDetailWidget::headerText() const
{
    return m_info->text();
}

void HistoryDetailWidget::showDistribution(std::int64_t pointId)
{
    m_currentPoint = pointId;
    HistoryService::run(
        m_service, HistoryService::Channel::Distribution, this,
        [db = m_dbPath.toStdString(), pointId, metric = m_distMetric->currentText().toStdString()] {
            return HistoryLoads::samples(db, pointId, metric);
        },
        [this](HistoryLoads::Samples samples) {
            // Only the point and metric still chosen (another may have been picked meanwhile).
            if (samples.pointId == m_currentPoint &&
                samples.metric == m_distMetric->currentText().toStdString())
                applySamples(samples);
        });
}

void HistoryDetailWidget::applySamples(const HistoryLoads::Samples &samples)
{
    const std::vector<double> &v = samples.sorted;
    const QString metric = qs(samples.metric);
    Chart hist, cdf;
    hist.title = tr("%1 histogram (n=%2)").arg(metric).arg(v.size());
    hist.xLabel = cdf.xLabel = metric;
    hist.yLabel = tr("requests");
    hist.legend = cdf.legend = false;
    cdf.title = tr("%1 CDF").arg(metric);
    cdf.yLabel = tr("fraction ≤ x");
    if (!v.empty()) {
        const int bins = std::clamp(int(std::sqrt(double(v.size()))), 5, 40);
        const double lo = v.front(), hi = std::max(v.back(), lo + 1e-9), w = (hi - lo) / bins;
        QList<double> counts(bins, 0);
        for (double x : v)
            counts[std::min(bins - 1, int((x - lo) / w))] += 1;
        ChartSeries bars;
        bars.bars = true;
        bars.barWidth = w;
        for (int b = 0; b < bins; ++b)
            bars.points.append(QPointF(lo + (b + 0.5) * w, counts[b]));
        hist.series.append(bars);
        hist.xFromZero = false;
        ChartSeries line;
        line.step = true;
        const std::size_t stride = std::max<std::size_t>(1, v.size() / 400);
        for (std::size_t i = 0; i < v.size(); i += stride)
            line.points.append(QPointF(v[i], double(i + 1) / double(v.size())));
        line.points.append(QPointF(v.back(), 1.0));
        cdf.series.append(line);
        cdf.xFromZero = false;
    }
    m_hist->setChart(hist);
    m_cdf->setChart(cdf);
}

void HistoryDetailWidget::applyVariant()
{
    if (!m_requested.isEmpty()) {
        requestRun(m_requested); // the run under way is read again under the new variant
        return;
    }
    if (m_detail.summary.uuid.empty())
        return;
    HistoryService::run(
        m_service, HistoryService::Channel::Variant, this,
        [db = m_dbPath.toStdString(), run = m_detail, variant = m_derive->variant()] {
            return HistoryLoads::variant(db, run, variant);
        },
        [this](Result<HistoryLoads::VariantData> data) {
            if (!data)
                emit statusMessage(qs(data.error().message));
            else if (data->uuid == m_detail.summary.uuid && data->variant == m_derive->variant())
                applyVariantData(*data);
        });
}

void HistoryDetailWidget::showTabIf(bool shown, QWidget *view, const QString &title)
{
    const int tab = m_plotTabs->indexOf(view);
    if (shown && tab < 0)
        m_plotTabs->addTab(view, title);
    else if (!shown && tab >= 0)
        m_plotTabs->removeTab(tab);
}

void HistoryDetailWidget::applyVariantData(const HistoryLoads::VariantData &data)
{
    const DeriveVariant &variant = data.variant;
    Chart chart;
    if (variant == DeriveVariant{}) {
        m_derive->setStoredThroughputPoints(0);
        m_pointsProxy->setSourceModel(m_points);
        chart = RunComparison::overlay({data.report});
        chart.title = tr("Curve (stored data)");
    } else {
        std::vector<DerivedPointRow> rows;
        for (std::size_t i = 0; i < m_detail.points.size() && i < data.pointValues.size(); ++i)
            rows.push_back({m_detail.points[i], data.pointValues[i]});
        int storedThroughput = 0;
        for (const DerivedValues &v : data.pointValues)
            storedThroughput += v.storedThroughput ? 1 : 0;
        m_derive->setStoredThroughputPoints(storedThroughput);
        m_derived->setPoints(std::move(rows), variant);
        m_pointsProxy->setSourceModel(m_derived);
        chart = RunComparison::overlay({data.report}, {data.curve}, variant);
        chart.title = tr("Curve (%1)").arg(variant.label());
    }
    showTabIf(m_mlperf->setRun(data.report), m_mlperf, tr("MLPerf Endpoints"));
    for (int i = 0; i < chart.series.size() && i < int(data.report.run.scenarios.size()); ++i)
        chart.series[i].name =
            CurveRule::legendName(qs(data.report.run.scenarios[i].id), chart.series[i].points);
    m_curve->setChart(chart);
}

} // namespace Throughline
