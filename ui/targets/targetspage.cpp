#include "ui/targets/targetspage.h"

#include "core/results/baselinerows.h"
#include "core/storage/historyreader.h"
#include "ui/document/campaigndocument.h"
#include "ui/targets/targetmatrix.h"
#include "ui/targets/targetstablemodel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString shortId(const std::string &uuid)
{
    return qs(uuid.substr(0, 8));
}

} // namespace

TargetsPage::TargetsPage(const QString &dbPath, CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_dbPath(dbPath)
    , m_document(document)
    , m_model(new TargetsTableModel(this))
{
    setObjectName(u"TargetsPage"_qs);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildTableBar());
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->setObjectName(u"targetsTable"_qs);
    // Every column but the source (it stretches) as wide as its cells, measured again for each table shown;
    // at the default width "output_tps_per_gpu" was elided. Queued: the rows are laid out first.
    connect(
        m_model, &QAbstractItemModel::modelReset, m_view,
        [this] {
            for (int c = 0; c + 1 < m_model->columnCount(); ++c)
                m_view->resizeColumnToContents(c);
        },
        Qt::QueuedConnection);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(buildMatrixPane());
    layout->addWidget(split, 1);

    // Edits of the table re-judge the run shown at once.
    connect(m_model, &QAbstractItemModel::modelReset, this, &TargetsPage::rejudge);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &TargetsPage::rejudge);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TargetsPage::rejudge);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &TargetsPage::rejudge);
    connect(m_document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects aspects) {
        if (aspects & CampaignDocument::Targets) {
            followCampaignTable();
            loadBaseline();
            rejudge();
        }
    });
    followCampaignTable();
    loadBaseline();
    if (auto s = reloadRuns(); !s)
        showHint(qs(s.error().message));
}

QWidget *TargetsPage::buildTableBar()
{
    auto *bar = new QWidget;
    auto *l = new QHBoxLayout(bar);
    l->setContentsMargins(0, 0, 0, 0);
    m_tables = new QComboBox;
    m_tables->setObjectName(u"targetTables"_qs);
    m_tables->addItem(tr("User table"), QString());
    for (const QString &t : shippedTables())
        m_tables->addItem(tr("%1 (shipped, read-only)").arg(QFileInfo(t).fileName()), t);
    connect(m_tables, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QString path = m_tables->itemData(i).toString();
        if (!path.isEmpty())
            if (auto s = selectShipped(path); !s)
                QMessageBox::warning(this, tr("Targets"), qs(s.error().message));
    });
    l->addWidget(m_tables);
    auto button = [&](const QString &text, const QString &tip, auto slot) {
        auto *b = new QPushButton(text);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        l->addWidget(b);
    };
    button(tr("Copy to user table"), tr("An editable copy of the table shown"),
           [this] { copyToUserTable(); });
    button(tr("Add row"), tr("Add a row to the user table"), [this] {
        if (m_model->isReadOnly())
            copyToUserTable();
        m_model->appendRow();
    });
    button(tr("Remove row"), tr("Remove the selected row of the user table"), [this] {
        const QModelIndex i = m_view->currentIndex();
        if (i.isValid() && !m_model->isReadOnly())
            m_model->removeRows(i.row(), 1);
    });
    button(tr("Import JSON…"), tr("Read a throughline.targets/1 file into the user table"), [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Import targets"), QString(), tr("Targets (*.json)"));
        if (!f.isEmpty())
            if (auto s = importJson(f); !s)
                QMessageBox::warning(this, tr("Import targets"), qs(s.error().message));
    });
    button(tr("Export JSON…"), tr("Write the table shown as a throughline.targets/1 file"), [this] {
        const QString f =
            QFileDialog::getSaveFileName(this, tr("Export targets"), QString(), tr("Targets (*.json)"));
        if (!f.isEmpty())
            if (auto s = exportJson(f); !s)
                QMessageBox::warning(this, tr("Export targets"), qs(s.error().message));
    });
    l->addStretch();
    return bar;
}

QWidget *TargetsPage::buildMatrixPane()
{
    auto *pane = new QWidget;
    auto *l = new QVBoxLayout(pane);
    l->setContentsMargins(0, 0, 0, 0);
    auto *runBar = new QHBoxLayout;
    runBar->addWidget(new QLabel(tr("Pass/fail matrix of run:")));
    m_runs = new QComboBox;
    m_runs->setObjectName(u"matrixRun"_qs);
    m_runs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_runs, &QComboBox::activated, this, [this](int i) {
        if (auto s = showRunMatrix(m_runs->itemData(i).toString()); !s)
            showHint(qs(s.error().message));
    });
    runBar->addWidget(m_runs);
    m_baselineButton = new QPushButton(tr("Use as baseline"));
    m_baselineButton->setToolTip(tr("Make this run the campaign's baseline: its operating points become "
                                    "baseline rows (pass at ≥ 95 %); undo with Ctrl+Z"));
    connect(m_baselineButton, &QPushButton::clicked, this, [this] {
        if (auto s = useRunAsBaseline(currentRun()); !s)
            QMessageBox::warning(this, tr("Use run as baseline"), qs(s.error().message));
    });
    runBar->addWidget(m_baselineButton);
    runBar->addStretch();
    l->addLayout(runBar);
    m_baselineLabel = new QLabel;
    m_baselineLabel->setObjectName(u"baselineLabel"_qs);
    m_baselineLabel->setWordWrap(true);
    l->addWidget(m_baselineLabel);
    m_matrixStack = new QStackedWidget;
    m_hint = new QLabel;
    m_hint->setObjectName(u"matrixHint"_qs);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_matrix = new QTableWidget;
    m_matrix->setObjectName(u"verdictMatrix"_qs);
    m_matrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_matrix->verticalHeader()->setVisible(false);
    m_matrixStack->addWidget(m_hint);
    m_matrixStack->addWidget(m_matrix);
    l->addWidget(m_matrixStack, 1);
    return pane;
}

QStringList TargetsPage::shippedTables() const
{
    QStringList out;
    const QStringList names = QDir(u":/targets"_qs).entryList({u"*.json"_qs}, QDir::Files, QDir::Name);
    for (const QString &n : names)
        out << u":/targets/"_qs + n;
    return out;
}

QString TargetsPage::matrixHint() const
{
    return m_matrixStack->currentWidget() == m_hint ? m_hint->text() : QString();
}

QString TargetsPage::baselineText() const
{
    return m_baselineLabel->text();
}

QString TargetsPage::currentRun() const
{
    return qs(m_runUuid);
}

void TargetsPage::showHint(const QString &text)
{
    m_hint->setText(text);
    m_matrixStack->setCurrentWidget(m_hint);
}

// The table the campaign names is shown first: a shipped one read-only, a file as the user table.
void TargetsPage::followCampaignTable()
{
    const std::string &file = m_document->campaign().targets.file;
    if (file.empty())
        return;
    QString path = qs(file);
    if (path.startsWith(u':')) {
        const int i = m_tables->findData(path);
        if (i >= 0) {
            const QSignalBlocker block(m_tables);
            m_tables->setCurrentIndex(i);
            if (auto s = selectShipped(path); !s)
                showHint(qs(s.error().message));
        }
        return;
    }
    const QString docPath = m_document->filePath();
    if (QFileInfo(path).isRelative() && !docPath.isEmpty() && !docPath.startsWith(u':'))
        path = QFileInfo(docPath).absoluteDir().filePath(path);
    if (QFileInfo::exists(path))
        if (auto s = importJson(path); !s)
            showHint(qs(s.error().message));
}

Status TargetsPage::selectShipped(const QString &resourcePath)
{
    auto table = TargetTable::load(resourcePath.toStdString());
    if (!table)
        return table.error();
    m_model->setTable(table->name(), table->rows(), true);
    return Ok{};
}

void TargetsPage::copyToUserTable()
{
    std::vector<TargetRow> rows = m_model->targetRows();
    const std::string name = m_model->name().empty() ? "user targets" : "copy of " + m_model->name();
    m_model->setTable(name, std::move(rows), false);
    const QSignalBlocker block(m_tables);
    m_tables->setCurrentIndex(0);
}

Status TargetsPage::importJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot read " + path.toStdString());
    const QByteArray bytes = f.readAll();
    if (auto s = m_model->loadJson(bytes.toStdString(), QFileInfo(path).fileName().toStdString()); !s)
        return s;
    const QSignalBlocker block(m_tables);
    m_tables->setCurrentIndex(0);
    return Ok{};
}

Status TargetsPage::exportJson(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write " + path.toStdString());
    f.write(QByteArray::fromStdString(m_model->toJson() + '\n'));
    if (!f.commit())
        return makeError(ErrorCode::Io, "cannot write " + path.toStdString());
    return Ok{};
}

Status TargetsPage::reloadRuns(bool showNewest)
{
    std::vector<RunSummary> runs;
    if (QFileInfo::exists(m_dbPath)) {
        HistoryReader reader;
        if (auto s = reader.open(m_dbPath.toStdString()); !s)
            return s;
        auto list = reader.listRuns();
        if (!list)
            return list.error();
        runs = std::move(*list);
    }
    const QString keep = currentRun();
    {
        const QSignalBlocker block(m_runs);
        m_runs->clear();
        for (const RunSummary &r : runs)
            m_runs->addItem(tr("%1 · %2 · %3 · %4")
                                .arg(shortId(r.uuid), qs(r.campaignName), qs(r.startedUtc), qs(r.status)),
                            qs(r.uuid));
    }
    m_baselineButton->setEnabled(!runs.empty());
    if (runs.empty()) {
        m_run.reset();
        m_runUuid.clear();
        showHint(tr("No stored run yet. Run the campaign (Run ▸ Start Run, F5) or import results on the "
                    "History page; the pass/fail matrix of the run appears here."));
        return Ok{};
    }
    const int i = showNewest ? -1 : m_runs->findData(keep);
    return showRunMatrix(i >= 0 ? keep : m_runs->itemData(0).toString());
}

Status TargetsPage::showRunMatrix(const QString &uuid)
{
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    auto full = reader.resolveRun(uuid.toStdString());
    if (!full)
        return full.error();
    auto data = ReportData::fromHistory(reader, *full);
    if (!data)
        return data.error();
    m_run = std::move(*data);
    m_runUuid = *full;
    const int i = m_runs->findData(qs(*full));
    if (i >= 0) {
        const QSignalBlocker block(m_runs);
        m_runs->setCurrentIndex(i);
    }
    rejudge();
    return Ok{};
}

Status TargetsPage::useRunAsBaseline(const QString &uuid)
{
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    auto full = reader.resolveRun(uuid.toStdString());
    if (!full)
        return full.error();
    const std::string id = *full;
    m_document->edit(tr("Use run %1 as baseline").arg(shortId(id)),
                     [id](Campaign &c) { c.targets.baselineRun = id; });
    return Ok{};
}

// The campaign's baseline run, read once per change of targets.baseline_run.
void TargetsPage::loadBaseline()
{
    m_baselineRows.clear();
    m_baselineError.clear();
    const std::string &prefix = m_document->campaign().targets.baselineRun;
    if (prefix.empty()) {
        m_baselineLabel->setText(tr("No baseline run: “Use as baseline” makes the run shown the campaign's "
                                    "baseline (targets.baseline_run)."));
        return;
    }
    HistoryReader reader;
    Status st = reader.open(m_dbPath.toStdString());
    std::string uuid;
    if (st) {
        auto full = reader.resolveRun(prefix);
        if (!full) {
            st = full.error();
        } else {
            uuid = *full;
            auto data = ReportData::fromHistory(reader, uuid);
            if (data)
                m_baselineRows = baselineRowsOfRun(data->run); // core/results/baselinerows.h
            else
                st = data.error();
        }
    }
    if (!st) {
        m_baselineError = qs(st.error().message);
        m_baselineLabel->setText(tr("Baseline run %1 of the campaign cannot be read: %2")
                                     .arg(qs(prefix.substr(0, 8)), m_baselineError));
        return;
    }
    m_baselineLabel->setText(tr("Baseline: run %1 (the campaign's targets.baseline_run) adds %n baseline "
                                "row(s) to the table shown (pass at ≥ 95 % of its throughput).",
                                nullptr, int(m_baselineRows.size()))
                                 .arg(shortId(uuid)));
}

void TargetsPage::rejudge()
{
    if (!m_run)
        return;
    std::vector<TargetRow> rows = m_model->targetRows();
    rows.insert(rows.end(), m_baselineRows.begin(), m_baselineRows.end());
    const std::vector<Verdict> verdicts = judge(*m_run, rows);
    if (verdicts.empty()) {
        showHint(tr("Run %1 has no scenarios to judge.").arg(shortId(m_runUuid)));
        return;
    }
    fillMatrix(verdicts);
}

void TargetsPage::fillMatrix(const std::vector<Verdict> &verdicts)
{
    TargetMatrix::fill(m_matrix, *m_run, verdicts);
    m_matrixStack->setCurrentWidget(m_matrix);
}

std::vector<Verdict> TargetsPage::judge(const ReportData &run, const std::vector<TargetRow> &rows)
{
    return TargetMatrix::judge(run, rows);
}

} // namespace Throughline
