#include "ui/targets/targetspage.h"

#include "core/storage/historyreader.h"
#include "ui/report/reportwriter.h"
#include "ui/targets/targetstablemodel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace Throughline {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
QColor cellColor(const VerdictCheck &c)
{
    switch (c.outcome) {
    case VerdictCheck::Outcome::Pass:
        return std::isfinite(c.marginPct) && c.marginPct < 10 ? QColor(225, 240, 190) : QColor(185, 230, 185);
    case VerdictCheck::Outcome::Fail:
        return std::isfinite(c.marginPct) && c.marginPct > -10 ? QColor(250, 205, 180)
                                                               : QColor(245, 170, 170);
    case VerdictCheck::Outcome::Info:
        return QColor(220, 228, 245);
    case VerdictCheck::Outcome::NotAvailable:
        break;
    }
    return QColor(235, 235, 235);
}
} // namespace

TargetsPage::TargetsPage(const QString &dbPath, QWidget *parent)
    : QWidget(parent)
    , m_dbPath(dbPath)
    , m_model(new TargetsTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_tables = new QComboBox;
    m_tables->addItem(tr("User table"), QString());
    for (const QString &t : shippedTables())
        m_tables->addItem(tr("%1 (shipped, read-only)").arg(QFileInfo(t).fileName()), t);
    connect(m_tables, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QString path = m_tables->itemData(i).toString();
        if (!path.isEmpty())
            if (auto s = selectShipped(path); !s)
                QMessageBox::warning(this, tr("Targets"), qs(s.error().message));
    });
    bar->addWidget(m_tables);
    auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        bar->addWidget(b);
    };
    button(tr("Copy to user table"), [this] { copyToUserTable(); });
    button(tr("Add row"), [this] {
        if (!m_model->isReadOnly())
            m_model->appendRow();
    });
    button(tr("Remove row"), [this] {
        const QModelIndex i = m_view->currentIndex();
        if (i.isValid())
            m_model->removeRows(i.row(), 1);
    });
    button(tr("Import JSON…"), [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Import targets"), QString(), tr("Targets (*.json)"));
        if (!f.isEmpty())
            if (auto s = importJson(f); !s)
                QMessageBox::warning(this, tr("Import targets"), qs(s.error().message));
    });
    button(tr("Export JSON…"), [this] {
        const QString f =
            QFileDialog::getSaveFileName(this, tr("Export targets"), QString(), tr("Targets (*.json)"));
        if (!f.isEmpty())
            if (auto s = exportJson(f); !s)
                QMessageBox::warning(this, tr("Export targets"), qs(s.error().message));
    });
    bar->addStretch();
    layout->addLayout(bar);
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto *runBar = new QHBoxLayout;
    runBar->addWidget(new QLabel(tr("Pass/fail matrix for run:")));
    m_run = new QLineEdit;
    m_run->setPlaceholderText(tr("run id (prefix ≥ 8 hex digits)"));
    runBar->addWidget(m_run);
    auto *judgeButton = new QPushButton(tr("Judge"));
    connect(judgeButton, &QPushButton::clicked, this, [this] {
        if (auto s = showRunMatrix(m_run->text().trimmed()); !s)
            QMessageBox::warning(this, tr("Judge run"), qs(s.error().message));
    });
    runBar->addWidget(judgeButton);
    auto *baselineButton = new QPushButton(tr("Use as baseline"));
    connect(baselineButton, &QPushButton::clicked, this, [this] {
        if (auto n = useRunAsBaseline(m_run->text().trimmed()); !n)
            QMessageBox::warning(this, tr("Use run as baseline"), qs(n.error().message));
    });
    runBar->addWidget(baselineButton);
    m_matrix = new QTableWidget;
    m_matrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *bottom = new QWidget;
    auto *bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addLayout(runBar);
    bl->addWidget(m_matrix);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(bottom);
    layout->addWidget(split, 1);
}

QStringList TargetsPage::shippedTables() const
{
    QStringList out;
    const QStringList names = QDir(u":/targets"_qs).entryList({u"*.json"_qs}, QDir::Files, QDir::Name);
    for (const QString &n : names)
        out << u":/targets/"_qs + n;
    return out;
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

Result<int> TargetsPage::useRunAsBaseline(const QString &runUuid)
{
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s.error();
    auto uuid = reader.resolveRun(runUuid.toStdString());
    if (!uuid)
        return uuid.error();
    auto data = ReportData::fromHistory(reader, *uuid);
    if (!data)
        return data.error();
    if (m_model->isReadOnly())
        copyToUserTable();
    int added = 0;
    for (const ScenarioResult &s : data->run.scenarios) {
        int op = s.verdict.operatingPoint;
        if (op < 0 || op >= int(s.points.size())) {
            op = -1;
            for (int i = 0; i < int(s.points.size()); ++i)
                if (s.points[i].validity.valid &&
                    (op < 0 || s.points[i].metrics.outputTpsPerGpu > s.points[op].metrics.outputTpsPerGpu))
                    op = i;
        }
        if (op < 0)
            continue;
        for (TargetRow row : baselineRowsFromPoint(s.points[op], "run " + uuid->substr(0, 8) + " " + s.id)) {
            row.model = s.model;
            row.backend = s.backend;
            row.gpu = s.gpu;
            row.gpus = s.gpus;
            row.phase = s.phase;
            m_model->appendRow(row);
            ++added;
        }
    }
    return added;
}

std::vector<Verdict> TargetsPage::judge(const ReportData &run, const std::vector<TargetRow> &rows)
{
    std::vector<Verdict> out;
    VerdictOptions options;
    options.judgeScenarioSlo = false;
    for (const ScenarioResult &s : run.run.scenarios) {
        Scenario sc;
        sc.id = s.id;
        sc.model.name = s.model;
        sc.backend.id = s.backend;
        sc.gpu.name = s.gpu;
        sc.deployment.gpu = s.gpu;
        sc.deployment.gpus = s.gpus;
        sc.phase.name = s.phase;
        std::vector<TargetRow> matching;
        for (const TargetRow &r : rows)
            if (r.matches(sc))
                matching.push_back(r);
        out.push_back(judgeScenario(sc, s.points, matching, options));
    }
    return out;
}

Status TargetsPage::showRunMatrix(const QString &runUuid)
{
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    auto uuid = reader.resolveRun(runUuid.toStdString());
    if (!uuid)
        return uuid.error();
    auto data = ReportData::fromHistory(reader, *uuid);
    if (!data)
        return data.error();
    const std::vector<Verdict> verdicts = judge(*data, m_model->targetRows());
    QStringList columns;
    for (const Verdict &v : verdicts)
        for (const VerdictCheck &c : v.checks) {
            const QString key = qs(c.metric) + (c.stat == "value" ? QString() : u' ' + qs(c.stat));
            if (!columns.contains(key))
                columns << key;
        }
    m_matrix->clear();
    m_matrix->setColumnCount(int(columns.size()) + 3);
    m_matrix->setHorizontalHeaderLabels(QStringList{tr("Scenario"), tr("Verdict"), tr("Op. point")} +
                                        columns);
    m_matrix->setRowCount(int(verdicts.size()));
    for (int i = 0; i < int(verdicts.size()); ++i) {
        const Verdict &v = verdicts[std::size_t(i)];
        m_matrix->setItem(i, 0, new QTableWidgetItem(qs(data->run.scenarios[std::size_t(i)].id)));
        m_matrix->setItem(i, 1, new QTableWidgetItem(qs(std::string(verdictStatusKey(v.status)))));
        m_matrix->setItem(
            i, 2, new QTableWidgetItem(v.operatingPoint >= 0 ? QString::number(v.operatingPoint) : u"-"_qs));
        for (const VerdictCheck &c : v.checks) {
            const QString key = qs(c.metric) + (c.stat == "value" ? QString() : u' ' + qs(c.stat));
            auto *item = new QTableWidgetItem(ReportWriter::number(c.value, 1) + u" ("_qs +
                                              ReportWriter::number(c.marginPct, 1) + u" %)"_qs);
            item->setBackground(cellColor(c));
            item->setData(Qt::UserRole, qs(std::string(checkOutcomeKey(c.outcome))));
            m_matrix->setItem(i, int(columns.indexOf(key)) + 3, item);
        }
    }
    return Ok{};
}

} // namespace Throughline
