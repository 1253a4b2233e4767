#include "ui/history/historydetailwidget.h"

#include "ui/history/chartview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/derivedpointstablemodel.h"
#include "ui/history/exportactions.h"
#include "ui/history/historyroles.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runtimelineview.h"

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
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
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
    m_pointsView->setSelectionBehavior(QAbstractItemView::SelectRows);
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
    plots->addWidget(m_curve);
    plots->addWidget(m_hist);
    plots->addWidget(m_cdf);
    plotTabs->addTab(pointPlots, tr("Curve and distributions"));
    m_timeline = new RunTimelineView;
    connect(m_timeline, &RunTimelineView::statusMessage, this, &HistoryDetailWidget::statusMessage);
    plotTabs->addTab(m_timeline, tr("Over time"));
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
}

bool HistoryDetailWidget::showRun(const QString &uuid)
{
    if (m_notesEditor->runUuid() != uuid && m_notesEditor->isModified()) {
        if (auto s = m_notesEditor->save(); !s)
            emit statusMessage(tr("Tags/notes of run %1 not saved: %2")
                                   .arg(m_notesEditor->runUuid(), qs(s.error().message)));
    }
    HistoryReader reader;
    if (!reader.open(m_dbPath.toStdString()).ok())
        return false;
    auto detail = reader.runDetail(uuid.toStdString());
    if (!detail)
        return false;
    const RunSummary &s = detail->summary;
    m_notesEditor->setRun(s);
    m_info->setText(tr("<b>%1</b> — run %2, started %3, %4, source %5%6<br>provenance: %7")
                        .arg(qs(s.campaignName).toHtmlEscaped(), qs(s.uuid), qs(s.startedUtc), qs(s.status),
                             qs(s.source), s.simulated ? tr(", simulated") : QString(),
                             qs(detail->provenance.dump()).left(400).toHtmlEscaped()));
    m_scenarios->setRowCount(int(detail->scenarios.size()));
    for (int i = 0; i < int(detail->scenarios.size()); ++i) {
        const ScenarioRow &sc = detail->scenarios[i];
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
    m_points->setRows(detail->points);
    m_detail = *detail;
    applyVariant();
    m_timeline->setRun(m_detail);
    m_currentPoint = -1;
    if (!detail->points.empty())
        showDistribution(detail->points.front().id);
    return true;
}

void HistoryDetailWidget::showDistribution(std::int64_t pointId)
{
    m_currentPoint = pointId;
    HistoryReader reader;
    if (!reader.open(m_dbPath.toStdString()).ok())
        return;
    const std::string metric = m_distMetric->currentText().toStdString();
    auto samples = reader.samples(pointId, metric);
    std::vector<double> v = samples ? *samples : std::vector<double>{};
    std::sort(v.begin(), v.end());
    ReportChartRenderer::Chart hist, cdf;
    hist.title = tr("%1 histogram (n=%2)").arg(qs(metric)).arg(v.size());
    hist.xLabel = cdf.xLabel = qs(metric);
    hist.yLabel = tr("requests");
    hist.legend = cdf.legend = false;
    cdf.title = tr("%1 CDF").arg(qs(metric));
    cdf.yLabel = tr("fraction ≤ x");
    if (!v.empty()) {
        const int bins = std::clamp(int(std::sqrt(double(v.size()))), 5, 40);
        const double lo = v.front(), hi = std::max(v.back(), lo + 1e-9), w = (hi - lo) / bins;
        QList<double> counts(bins, 0);
        for (double x : v)
            counts[std::min(bins - 1, int((x - lo) / w))] += 1;
        ReportChartRenderer::Series bars;
        bars.bars = true;
        bars.barWidth = w;
        for (int b = 0; b < bins; ++b)
            bars.points.append(QPointF(lo + (b + 0.5) * w, counts[b]));
        hist.series.append(bars);
        hist.xFromZero = false;
        ReportChartRenderer::Series line;
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
    const DeriveVariant variant = m_derive->variant();
    const bool stored = variant == DeriveVariant{};
    HistoryReader reader;
    if (m_detail.summary.uuid.empty() || !reader.open(m_dbPath.toStdString()).ok())
        return;
    auto data = ReportData::fromHistory(reader, m_detail.summary.uuid);
    if (!data)
        return;
    ReportChartRenderer::Chart chart;
    if (stored) {
        m_derive->setStoredThroughputPoints(0);
        m_pointsProxy->setSourceModel(m_points);
        chart = RunComparison::overlay({*data});
        chart.title = tr("Curve (stored data)");
    } else {
        auto values = PointDeriver::deriveRun(reader, m_detail, variant);
        auto curve = RunComparison::values(reader, *data, variant);
        if (!values || !curve) {
            emit statusMessage(qs(!values ? values.error().message : curve.error().message));
            return;
        }
        std::vector<DerivedPointRow> rows;
        for (std::size_t i = 0; i < m_detail.points.size(); ++i)
            rows.push_back({m_detail.points[i], (*values)[i]});
        int storedThroughput = 0;
        for (const DerivedValues &v : *values)
            storedThroughput += v.storedThroughput ? 1 : 0;
        m_derive->setStoredThroughputPoints(storedThroughput);
        m_derived->setPoints(std::move(rows), variant);
        m_pointsProxy->setSourceModel(m_derived);
        chart = RunComparison::overlay({*data}, {*curve}, variant);
        chart.title = tr("Curve (%1)").arg(variant.label());
    }
    for (int i = 0; i < chart.series.size() && i < int(data->run.scenarios.size()); ++i)
        chart.series[i].name = qs(data->run.scenarios[i].id);
    m_curve->setChart(chart);
}

} // namespace Throughline
