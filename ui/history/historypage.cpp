#include "ui/history/historypage.h"

#include "core/storage/historymaintenance.h"
#include "core/storage/resultimporter.h"
#include "ui/history/chartview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/derivedpointstablemodel.h"
#include "ui/history/historyroles.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runfilterproxy.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runstablemodel.h"
#include "ui/history/runtimelineview.h"
#include "ui/report/reportwriter.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
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

std::vector<std::string> globList(const QLineEdit *e)
{
    std::vector<std::string> out;
    for (const QString &s : e->text().split(u',', Qt::SkipEmptyParts))
        out.push_back(s.trimmed().toStdString());
    return out;
}

QString csvField(QString s)
{
    if (s.contains(u',') || s.contains(u'"') || s.contains(u'\n')) {
        s.replace(u"\""_qs, u"\"\""_qs);
        return u'"' + s + u'"';
    }
    return s;
}

} // namespace

HistoryPage::HistoryPage(const QString &dbPath, QWidget *parent)
    : QWidget(parent)
    , m_dbPath(dbPath)
    , m_runs(new RunsTableModel(this))
    , m_proxy(new RunFilterProxy(m_runs, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildFilterBar());

    m_view = new QTableView;
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunsTableModel::Started, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnHidden(RunsTableModel::Notes, true);
    m_view->setColumnHidden(RunsTableModel::Uuid, true);
    connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this, &HistoryPage::columnMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) {
                if (cur.isValid())
                    showRun(cur.data(HistoryRoles::UuidRole).toString());
            });

    // Detail tab.
    auto *detail = new QWidget;
    auto *dl = new QVBoxLayout(detail);
    m_detailInfo = new QLabel;
    m_detailInfo->setWordWrap(true);
    m_detailInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dl->addWidget(m_detailInfo);
    m_notesEditor = new RunNotesEditor;
    m_notesEditor->setDatabasePath(m_dbPath);
    connect(m_notesEditor, &RunNotesEditor::saved, this, &HistoryPage::refreshRun);
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
    m_detailDerive = new DeriveControls;
    connect(m_detailDerive, &DeriveControls::variantChanged, this, [this] { applyDetailVariant(); });
    dl->addWidget(m_detailDerive);
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
    m_timeline->setDatabasePath(m_dbPath);
    connect(m_timeline, &RunTimelineView::statusMessage, this, &HistoryPage::statusMessage);
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
        connect(b, &QPushButton::clicked, this, [this, c = chart] { exportChart(c); });
        detailButtons->addWidget(b);
    }
    auto *csv = new QPushButton(tr("Points CSV…"));
    connect(csv, &QPushButton::clicked, this, [this] { exportTable(m_pointsView->model(), false); });
    auto *copy = new QPushButton(tr("Copy points"));
    connect(copy, &QPushButton::clicked, this, [this] { exportTable(m_pointsView->model(), true); });
    detailButtons->addWidget(csv);
    detailButtons->addWidget(copy);
    dl->addLayout(detailButtons);

    // Compare tab.
    auto *compare = new QWidget;
    auto *cl = new QVBoxLayout(compare);
    auto *compareBar = new QHBoxLayout;
    m_compareDerive = new DeriveControls;
    connect(m_compareDerive, &DeriveControls::variantChanged, this, [this] {
        if (auto s = updateComparePlots(); !s)
            emit statusMessage(qs(s.error().message));
    });
    compareBar->addWidget(m_compareDerive, 1);
    m_stepMode = new QCheckBox(tr("Step function (MLPerf)"));
    m_stepMode->setToolTip(tr("Draw the overlaid curves as MLPerf Endpoints step functions."));
    connect(m_stepMode, &QCheckBox::toggled, this, [this](bool on) {
        ReportChartRenderer::Chart chart = m_compareChart->chart();
        RunComparison::setStepMode(chart, on);
        m_compareChart->setChart(chart);
    });
    compareBar->addWidget(m_stepMode);
    compareBar->addWidget(new QLabel(tr("Bars:")));
    m_barMetric = new QComboBox;
    m_barMetric->addItem(tr("output tok/s per GPU at the operating point"),
                         int(RunComparison::BarMetric::OutputTpsPerGpu));
    m_barMetric->addItem(tr("TTFT p99"), int(RunComparison::BarMetric::TtftP99));
    m_barMetric->addItem(tr("TPOT p99"), int(RunComparison::BarMetric::TpotP99));
    connect(m_barMetric, &QComboBox::currentIndexChanged, this, [this] {
        if (auto s = updateComparePlots(); !s)
            emit statusMessage(qs(s.error().message));
    });
    compareBar->addWidget(m_barMetric);
    cl->addLayout(compareBar);
    auto *comparePlots = new QSplitter(Qt::Horizontal);
    m_compareChart = new ChartView;
    m_barsChart = new ChartView;
    comparePlots->addWidget(m_compareChart);
    comparePlots->addWidget(m_barsChart);
    comparePlots->setStretchFactor(0, 3);
    comparePlots->setStretchFactor(1, 2);
    cl->addWidget(comparePlots, 3);
    m_compareTable = new QTableWidget(0, 7);
    m_compareTable->setHorizontalHeaderLabels({tr("Candidate"), tr("Scenario"), tr("Metric"), tr("Baseline"),
                                               tr("Candidate value"), tr("Δ %"), tr("")});
    m_compareTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_envTable = new QTableWidget;
    m_envTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *ct = new QSplitter(Qt::Horizontal);
    ct->addWidget(m_compareTable);
    ct->addWidget(m_envTable);
    cl->addWidget(ct, 2);
    auto *cb = new QHBoxLayout;
    cb->addStretch();
    auto *cexp = new QPushButton(tr("Export plot…"));
    connect(cexp, &QPushButton::clicked, this, [this] { exportChart(m_compareChart); });
    auto *bexp = new QPushButton(tr("Export bars…"));
    connect(bexp, &QPushButton::clicked, this, [this] { exportChart(m_barsChart); });
    cb->addWidget(bexp);
    auto *ccsv = new QPushButton(tr("Deltas CSV…"));
    connect(ccsv, &QPushButton::clicked, this, [this] { exportTable(m_compareTable->model(), false); });
    auto *ccopy = new QPushButton(tr("Copy deltas"));
    connect(ccopy, &QPushButton::clicked, this, [this] { exportTable(m_compareTable->model(), true); });
    cb->addWidget(cexp);
    cb->addWidget(ccsv);
    cb->addWidget(ccopy);
    cl->addLayout(cb);

    m_tabs = new QTabWidget;
    m_tabs->addTab(detail, tr("Run detail"));
    m_tabs->addTab(compare, tr("Compare"));
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(m_tabs);
    layout->addWidget(split, 1);
    if (auto s = reload(); !s)
        emit statusMessage(QString::fromStdString(s.error().message));
}

QWidget *HistoryPage::buildFilterBar()
{
    auto *bar = new QWidget;
    auto *l = new QHBoxLayout(bar);
    l->setContentsMargins(0, 0, 0, 0);
    auto edit = [&](QLineEdit *&e, const QString &placeholder, int width) {
        e = new QLineEdit;
        e->setPlaceholderText(placeholder);
        e->setClearButtonEnabled(true);
        e->setMaximumWidth(width);
        connect(e, &QLineEdit::textChanged, this, &HistoryPage::applyFilterFromUi);
        l->addWidget(e);
    };
    edit(m_text, tr("Search…"), 220);
    edit(m_model, tr("model glob"), 140);
    edit(m_backend, tr("backend"), 100);
    edit(m_gpu, tr("GPU"), 80);
    edit(m_phase, tr("phase"), 100);
    edit(m_tag, tr("tag"), 80);
    edit(m_from, tr("from 2026-01-01"), 110);
    edit(m_to, tr("to"), 110);
    m_verdict = new QComboBox;
    m_verdict->addItems({tr("any verdict"), u"pass"_qs, u"fail"_qs, u"invalid"_qs, u"no_target"_qs});
    connect(m_verdict, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilterFromUi);
    l->addWidget(m_verdict);
    l->addStretch();
    auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        l->addWidget(b);
    };
    button(tr("Refresh"), [this] {
        if (auto s = reload(); !s)
            QMessageBox::warning(this, tr("History"), qs(s.error().message));
    });
    button(tr("Import…"), [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Import results"), QString(),
                                         tr("Results (*.json *.jsonl *.csv *.tlrun);;All files (*)"));
        if (!f.isEmpty())
            if (auto s = importFile(f); !s)
                QMessageBox::warning(this, tr("Import"), qs(s.error().message));
    });
    button(tr("Compare"), [this] {
        if (auto s = compareRuns(selectedRuns()); !s)
            QMessageBox::information(this, tr("Compare"), qs(s.error().message));
    });
    button(tr("Report PDF…"), [this] { writeReport(); });
    button(tr("Runs CSV…"), [this] { exportTable(m_proxy, false); });
    button(tr("Delete"), [this] {
        const QStringList sel = selectedRuns();
        if (!sel.isEmpty() && QMessageBox::question(this, tr("Delete runs"),
                                                    tr("Delete %n run(s) from history?", nullptr,
                                                       int(sel.size()))) == QMessageBox::Yes)
            if (auto s = deleteRuns(sel); !s)
                QMessageBox::warning(this, tr("Delete"), qs(s.error().message));
    });
    return bar;
}

Status HistoryPage::reload()
{
    if (!QFileInfo::exists(m_dbPath)) {
        m_runs->setRows({});
        return Ok{};
    }
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    auto runs = reader.listRuns();
    if (!runs)
        return runs.error();
    m_runs->setRows(std::move(*runs));
    emit statusMessage(tr("%n run(s) in history", nullptr, m_runs->rowCount()));
    return Ok{};
}

void HistoryPage::setFilter(const RunFilter &filter)
{
    m_proxy->setRunFilter(filter);
}

void HistoryPage::applyFilterFromUi()
{
    RunFilter f;
    f.model = globList(m_model);
    f.backend = globList(m_backend);
    f.gpu = globList(m_gpu);
    f.phase = globList(m_phase);
    if (m_verdict->currentIndex() > 0)
        f.verdict = {m_verdict->currentText().toStdString()};
    f.tag = m_tag->text().trimmed().toStdString();
    f.text = m_text->text().trimmed().toStdString();
    f.fromUtc = m_from->text().trimmed().toStdString();
    f.toUtc = m_to->text().trimmed().toStdString();
    setFilter(f);
}

QStringList HistoryPage::selectedRuns() const
{
    QStringList out;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &i : rows)
        out << i.data(HistoryRoles::UuidRole).toString();
    return out;
}

bool HistoryPage::showRun(const QString &uuid)
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
    m_detailInfo->setText(tr("<b>%1</b> — run %2, started %3, %4, source %5%6<br>provenance: %7")
                              .arg(qs(s.campaignName).toHtmlEscaped(), qs(s.uuid), qs(s.startedUtc),
                                   qs(s.status), qs(s.source), s.simulated ? tr(", simulated") : QString(),
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
        m_scenarios->setItem(i, 1, new QTableWidgetItem(sc.verdict.empty() ? u"-"_qs : qs(sc.verdict)));
        m_scenarios->setItem(i, 2, new QTableWidgetItem(op >= 0 ? QString::number(op) : u"-"_qs));
        m_scenarios->setItem(i, 3, new QTableWidgetItem(QString::number(checks)));
    }
    m_points->setRows(detail->points);
    m_detail = *detail;
    applyDetailVariant();
    m_timeline->setRun(m_detail);
    m_currentPoint = -1;
    if (!detail->points.empty())
        showDistribution(detail->points.front().id);
    return true;
}

void HistoryPage::refreshRun(const QString &uuid)
{
    HistoryReader reader;
    if (!reader.open(m_dbPath.toStdString()).ok())
        return;
    auto detail = reader.runDetail(uuid.toStdString());
    if (!detail)
        return;
    for (int i = 0; i < m_runs->rowCount(); ++i) {
        if (m_runs->row(i).uuid == detail->summary.uuid) {
            m_runs->setRow(i, detail->summary);
            break;
        }
    }
    if (m_notesEditor->runUuid() == uuid)
        m_notesEditor->setRun(detail->summary); // stored order (tags sorted by the store)
    emit statusMessage(tr("Saved tags and notes of run %1").arg(uuid));
}

void HistoryPage::showDistribution(std::int64_t pointId)
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

Status HistoryPage::compareRuns(const QStringList &uuids)
{
    if (uuids.size() < 2 || uuids.size() > RunComparison::kMaxRuns)
        return makeError(ErrorCode::InvalidInput,
                         "select 2 to 8 runs to compare (selected " + std::to_string(uuids.size()) + ")");
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    std::vector<ReportData> runs;
    for (const QString &u : uuids) {
        auto d = ReportData::fromHistory(reader, u.toStdString());
        if (!d)
            return d.error();
        runs.push_back(std::move(*d));
    }
    m_compared = runs;
    if (auto s = updateComparePlots(); !s)
        return s;
    m_compareTable->setRowCount(0);
    for (std::size_t i = 1; i < runs.size(); ++i)
        for (const RunComparison::Row &r : RunComparison::compare(runs.front(), runs[i])) {
            const int row = m_compareTable->rowCount();
            m_compareTable->insertRow(row);
            const QString mark = r.better > 0                ? tr("better")
                                 : r.better < 0              ? tr("worse")
                                 : std::isfinite(r.deltaPct) ? tr("same")
                                                             : tr("n/a");
            const QStringList cells{r.candidateRun,
                                    r.scenario,
                                    r.metric,
                                    ReportWriter::number(r.baseline, 2),
                                    ReportWriter::number(r.candidate, 2),
                                    ReportWriter::number(r.deltaPct, 1),
                                    mark};
            for (int c = 0; c < cells.size(); ++c) {
                auto *item = new QTableWidgetItem(cells[c]);
                if (r.better != 0)
                    item->setBackground(r.better > 0 ? QColor(200, 235, 200) : QColor(245, 195, 195));
                m_compareTable->setItem(row, c, item);
            }
        }
    const auto env = RunComparison::environmentDiff(runs);
    m_envTable->clear();
    m_envTable->setColumnCount(int(runs.size()) + 1);
    QStringList headers{tr("Environment")};
    for (const ReportData &r : runs)
        headers << RunComparison::shortId(r);
    m_envTable->setHorizontalHeaderLabels(headers);
    m_envTable->setRowCount(int(env.size()));
    for (int i = 0; i < int(env.size()); ++i) {
        m_envTable->setItem(i, 0, new QTableWidgetItem(env[i].key));
        for (int c = 0; c < env[i].values.size(); ++c)
            m_envTable->setItem(i, c + 1, new QTableWidgetItem(env[i].values[c]));
    }
    m_tabs->setCurrentIndex(1);
    return Ok{};
}

Status HistoryPage::importFile(const QString &path)
{
    auto s =
        ResultImporter::importFile(path.toStdString(), ResultImporter::Format::Auto, m_dbPath.toStdString());
    if (!s)
        return s.error();
    emit statusMessage(tr("Imported %1 (%2): %3 scenario(s)").arg(path, qs(s->format)).arg(s->scenarios));
    return reload();
}

Status HistoryPage::deleteRuns(const QStringList &uuids)
{
    std::vector<std::string> ids;
    for (const QString &u : uuids)
        ids.push_back(u.toStdString());
    if (auto s = HistoryMaintenance::deleteRuns(m_dbPath.toStdString(), ids); !s)
        return s;
    return reload();
}

QString HistoryPage::toCsv(const QAbstractItemModel *model)
{
    QString out;
    QStringList fields;
    for (int c = 0; c < model->columnCount(); ++c)
        fields << csvField(model->headerData(c, Qt::Horizontal).toString());
    out += fields.join(u',') + u'\n';
    for (int r = 0; r < model->rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model->columnCount(); ++c)
            fields << csvField(model->index(r, c).data().toString());
        out += fields.join(u',') + u'\n';
    }
    return out;
}

void HistoryPage::exportChart(ChartView *chart)
{
    const QString f = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(),
                                                   tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
    if (f.isEmpty())
        return;
    QString error;
    if (!chart->exportTo(f, &error))
        QMessageBox::warning(this, tr("Export plot"), error);
}

void HistoryPage::exportTable(const QAbstractItemModel *model, bool clipboard)
{
    const QString csv = toCsv(model);
    if (clipboard) {
        QApplication::clipboard()->setText(csv);
        return;
    }
    const QString f = QFileDialog::getSaveFileName(this, tr("Export table"), QString(), tr("CSV (*.csv)"));
    if (f.isEmpty())
        return;
    QFile file(f);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv.toUtf8()) < 0)
        QMessageBox::warning(this, tr("Export table"), tr("Cannot write %1").arg(f));
}

void HistoryPage::writeReport()
{
    const QStringList sel = selectedRuns();
    if (sel.size() != 1) {
        QMessageBox::information(this, tr("Report"), tr("Select one run."));
        return;
    }
    const QString f = QFileDialog::getSaveFileName(this, tr("PDF report"), QString(), tr("PDF (*.pdf)"));
    if (f.isEmpty())
        return;
    HistoryReader reader;
    Status st = reader.open(m_dbPath.toStdString());
    if (st) {
        auto data = ReportData::fromHistory(reader, sel.front().toStdString());
        st = data ? ReportWriter::write(*data, f) : Status(data.error());
    }
    if (!st)
        QMessageBox::warning(this, tr("Report"), qs(st.error().message));
}

void HistoryPage::columnMenu(const QPoint &pos)
{
    QMenu menu;
    for (int c = 0; c < m_runs->columnCount(); ++c) {
        QAction *a = menu.addAction(m_runs->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        a->setCheckable(true);
        a->setChecked(!m_view->isColumnHidden(c));
        connect(a, &QAction::toggled, this, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
    }
    menu.exec(m_view->horizontalHeader()->mapToGlobal(pos));
}

} // namespace Throughline

namespace Throughline {

void HistoryPage::applyDetailVariant()
{
    const DeriveVariant variant = m_detailDerive->variant();
    const bool stored = variant == DeriveVariant{};
    HistoryReader reader;
    if (m_detail.summary.uuid.empty() || !reader.open(m_dbPath.toStdString()).ok())
        return;
    auto data = ReportData::fromHistory(reader, m_detail.summary.uuid);
    if (!data)
        return;
    ReportChartRenderer::Chart chart;
    if (stored) {
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
        m_derived->setPoints(std::move(rows), variant);
        m_pointsProxy->setSourceModel(m_derived);
        chart = RunComparison::overlay({*data}, {*curve}, variant);
        chart.title = tr("Curve (%1)").arg(variant.label());
    }
    for (int i = 0; i < chart.series.size() && i < int(data->run.scenarios.size()); ++i)
        chart.series[i].name = qs(data->run.scenarios[i].id);
    m_curve->setChart(chart);
}

Status HistoryPage::updateComparePlots()
{
    if (m_compared.size() < 2)
        return Ok{};
    const DeriveVariant variant = m_compareDerive->variant();
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    ReportChartRenderer::Chart chart;
    if (variant == DeriveVariant{}) {
        chart = RunComparison::overlay(m_compared);
    } else {
        std::vector<RunComparison::RunValues> values;
        for (const ReportData &r : m_compared) {
            auto v = RunComparison::values(reader, r, variant);
            if (!v)
                return v.error();
            values.push_back(std::move(*v));
        }
        chart = RunComparison::overlay(m_compared, values, variant);
    }
    chart.title = tr("Baseline %1 vs %n candidate(s)", nullptr, int(m_compared.size() - 1))
                      .arg(RunComparison::shortId(m_compared.front()));
    RunComparison::setStepMode(chart, m_stepMode->isChecked());
    m_compareChart->setChart(chart);

    // Bars: latency metrics are p99 by definition; window and divisor follow the variant.
    const auto metric = RunComparison::BarMetric(m_barMetric->currentData().toInt());
    DeriveVariant barVariant = variant;
    if (metric != RunComparison::BarMetric::OutputTpsPerGpu)
        barVariant.percentile = 99;
    std::vector<RunComparison::RunValues> barValues;
    for (const ReportData &r : m_compared) {
        auto v = RunComparison::values(reader, r, barVariant);
        if (!v)
            return v.error();
        barValues.push_back(std::move(*v));
    }
    ReportChartRenderer::Chart bars = RunComparison::phaseBars(m_compared, barValues, metric, barVariant);
    bars.title = tr("Per phase: %1 (%2)").arg(m_barMetric->currentText(), barVariant.label());
    m_barsChart->setChart(bars);
    return Ok{};
}

} // namespace Throughline
