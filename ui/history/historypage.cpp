#include "ui/history/historypage.h"

#include "core/storage/historymaintenance.h"
#include "core/storage/resultimporter.h"
#include "ui/history/exportactions.h"
#include "ui/history/historycomparewidget.h"
#include "ui/history/historydetailwidget.h"
#include "ui/history/historyloads.h"
#include "ui/history/historyroles.h"
#include "ui/history/historyservice.h"
#include "ui/history/runfilterproxy.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runstablemodel.h"
#include "ui/report/reportwriter.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

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

} // namespace

HistoryPage::HistoryPage(const QString &dbPath, QWidget *parent)
    : HistoryPage(dbPath, nullptr, parent)
{
}

HistoryPage::HistoryPage(const QString &dbPath, HistoryService *service, QWidget *parent)
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
    // Columns as wide as their cells (the campaign name and phases wrap beyond a cap), measured again for
    // each listing; at the default width the start time and the campaign were elided. Queued: rows are laid
    // out first.
    connect(
        m_proxy, &QAbstractItemModel::modelReset, m_view, [this] { fitRunColumns(); }, Qt::QueuedConnection);
    connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this, &HistoryPage::columnMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) {
                if (cur.isValid())
                    showRun(cur.data(HistoryRoles::UuidRole).toString());
            });

    // Detail tab.
    m_detail = new HistoryDetailWidget;
    m_detail->setDatabasePath(m_dbPath);
    connect(m_detail, &HistoryDetailWidget::statusMessage, this, &HistoryPage::statusMessage);
    connect(m_detail, &HistoryDetailWidget::tagsSaved, this, &HistoryPage::refreshRun);
    connect(m_detail, &HistoryDetailWidget::runShown, this, &HistoryPage::runShown);

    // Compare tab.
    m_compare = new HistoryCompareWidget;
    m_compare->setDatabasePath(m_dbPath);
    connect(m_compare, &HistoryCompareWidget::statusMessage, this, &HistoryPage::statusMessage);

    m_tabs = new QTabWidget;
    m_tabs->addTab(m_detail, tr("Run detail"));
    m_tabs->addTab(m_compare, tr("Compare"));
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(m_tabs);
    layout->addWidget(split, 1);
    if (service) {
        setHistoryService(service);
        reloadInBackground();
    } else if (auto s = reload(); !s) {
        emit statusMessage(QString::fromStdString(s.error().message));
    }
}

void HistoryPage::setHistoryService(HistoryService *service)
{
    m_service = service;
    m_detail->setHistoryService(service);
    m_compare->setHistoryService(service);
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
    m_verdict->addItems(
        {tr("any verdict"), u"pass"_qs, u"fail"_qs, u"invalid"_qs, u"inconclusive"_qs, u"no_target"_qs});
    connect(m_verdict, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilterFromUi);
    l->addWidget(m_verdict);
    l->addStretch();
    auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        l->addWidget(b);
    };
    button(tr("Refresh"), [this] { reloadInBackground(); });
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
    button(tr("Runs CSV…"), [this] { ExportActions::exportTable(this, m_proxy, false); });
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

Status HistoryPage::reload(bool selectNewest)
{
    const QString keep = selectNewest ? QString() : currentRun();
    auto runs = HistoryLoads::runs(m_dbPath.toStdString());
    if (!runs)
        return runs.error();
    applyRuns(std::move(*runs), keep);
    return Ok{};
}

Status HistoryPage::reloadAfterChange()
{
    if (!m_service)
        return reload();
    reloadInBackground();
    return Ok{};
}

void HistoryPage::reloadInBackground(bool selectNewest)
{
    if (!m_service) {
        if (auto s = reload(selectNewest); !s)
            emit statusMessage(qs(s.error().message));
        emit reloaded();
        return;
    }
    const QString keep = selectNewest ? QString() : m_detail->requestedRun();
    m_service->listRuns(m_dbPath, this, [this, keep](Result<std::vector<RunSummary>> runs) {
        if (!runs)
            emit statusMessage(qs(runs.error().message));
        else
            applyRuns(std::move(*runs), keep);
        emit reloaded();
    });
}

void HistoryPage::applyRuns(std::vector<RunSummary> runs, const QString &keep)
{
    m_runs->setRows(std::move(runs));
    emit statusMessage(tr("%n run(s) in history", nullptr, m_runs->rowCount()));
    if ((keep.isEmpty() || !selectRun(keep)) && m_proxy->rowCount() > 0) {
        const QModelIndex newest = m_proxy->index(0, 0); // the view sorts by start time, newest first
        m_view->selectionModel()->setCurrentIndex(newest, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
    }
}

bool HistoryPage::selectRun(const QString &uuid)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (i.data(HistoryRoles::UuidRole).toString() == uuid) {
            m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
            m_view->scrollTo(i);
            return m_detail->requestedRun() == uuid;
        }
    }
    return false;
}

QString HistoryPage::currentRun() const
{
    return QString::fromStdString(m_detail->run().summary.uuid);
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
    return m_detail->showRun(uuid); // runShown follows from the detail tab
}

void HistoryPage::refreshRun(const QString &uuid)
{
    HistoryService::run(
        m_service, HistoryService::Channel::RunRow, this,
        [db = m_dbPath.toStdString(), uuid = uuid.toStdString()] { return HistoryLoads::summary(db, uuid); },
        [this, uuid](Result<RunSummary> summary) {
            if (!summary)
                return;
            for (int i = 0; i < m_runs->rowCount(); ++i) {
                if (m_runs->row(i).uuid == summary->uuid) {
                    m_runs->setRow(i, *summary);
                    break;
                }
            }
            if (m_detail->notesEditor()->runUuid() == uuid)
                m_detail->notesEditor()->setRun(*summary); // stored order (tags sorted by the store)
            emit statusMessage(tr("Saved tags and notes of run %1").arg(uuid));
        },
        uuid.toStdString());
}

PointsTableModel *HistoryPage::pointsModel() const
{
    return m_detail->pointsModel();
}

QTableWidget *HistoryPage::scenariosTable() const
{
    return m_detail->scenariosTable();
}

ChartView *HistoryPage::curveChart() const
{
    return m_detail->curveChart();
}

ChartView *HistoryPage::distributionChart() const
{
    return m_detail->distributionChart();
}

RunTimelineView *HistoryPage::timelineView() const
{
    return m_detail->timelineView();
}

DeriveControls *HistoryPage::detailDeriveControls() const
{
    return m_detail->deriveControls();
}

DerivedPointsTableModel *HistoryPage::derivedModel() const
{
    return m_detail->derivedModel();
}

QTableView *HistoryPage::pointsView() const
{
    return m_detail->pointsView();
}

RunNotesEditor *HistoryPage::notesEditor() const
{
    return m_detail->notesEditor();
}

ChartView *HistoryPage::compareChart() const
{
    return m_compare->curveChart();
}

DeriveControls *HistoryPage::compareDeriveControls() const
{
    return m_compare->deriveControls();
}

ChartView *HistoryPage::phaseBarsChart() const
{
    return m_compare->barsChart();
}

QComboBox *HistoryPage::barMetricCombo() const
{
    return m_compare->barMetricCombo();
}

QCheckBox *HistoryPage::stepModeBox() const
{
    return m_compare->stepModeBox();
}

QTableWidget *HistoryPage::comparisonTable() const
{
    return m_compare->deltasTable();
}

QTableWidget *HistoryPage::environmentTable() const
{
    return m_compare->environmentTable();
}

Status HistoryPage::compareRuns(const QStringList &uuids)
{
    if (auto s = m_compare->compareRuns(uuids); !s)
        return s;
    m_tabs->setCurrentWidget(m_compare);
    return Ok{};
}

Status HistoryPage::importFile(const QString &path)
{
    auto s =
        ResultImporter::importFile(path.toStdString(), ResultImporter::Format::Auto, m_dbPath.toStdString());
    if (!s)
        return s.error();
    emit statusMessage(tr("Imported %1 (%2): %3 scenario(s)").arg(path, qs(s->format)).arg(s->scenarios));
    return reloadAfterChange();
}

Status HistoryPage::deleteRuns(const QStringList &uuids)
{
    std::vector<std::string> ids;
    for (const QString &u : uuids)
        ids.push_back(u.toStdString());
    if (auto s = HistoryMaintenance::deleteRuns(m_dbPath.toStdString(), ids); !s)
        return s;
    return reloadAfterChange();
}

QString HistoryPage::toCsv(const QAbstractItemModel *model)
{
    return ExportActions::toCsv(model);
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
    // Read on the service's worker; drawn here (the report paints through widgets of ui/plots).
    HistoryService::run(
        m_service, HistoryService::Channel::Report, this,
        [db = m_dbPath.toStdString(), uuid = sel.front().toStdString()] {
            return HistoryLoads::report(db, uuid);
        },
        [this, f](Result<ReportData> data) {
            const Status st = data ? ReportWriter::write(*data, f) : Status(data.error());
            if (!st)
                QMessageBox::warning(this, tr("Report"), qs(st.error().message));
            else
                emit statusMessage(tr("Report written to %1").arg(f));
        });
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

void HistoryPage::fitRunColumns()
{
    const int cap = m_view->fontMetrics().averageCharWidth() * 34;
    for (int c = RunsTableModel::Started; c < RunsTableModel::Tags; ++c) { // tags stretch
        m_view->resizeColumnToContents(c);
        if (c == RunsTableModel::Campaign || c == RunsTableModel::Phases)
            m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), cap));
    }
    m_view->resizeRowsToContents();
}

} // namespace Throughline
