#include "ui/pages/planpage.h"

#include "core/capacity/storedcurves.h"
#include "core/storage/historyreader.h"
#include "ui/history/chartview.h"
#include "ui/report/capacitynotes.h"
#include "ui/report/capacityreport.h"
#include "ui/report/reportwriter.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Throughline {

using namespace Throughline::Capacity;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

PlanPage::PlanPage(const QString &dbPath, QWidget *parent)
    : QWidget(parent)
    , m_dbPath(dbPath)
{
    setObjectName(u"PlanPage"_qs);
    if (auto p = PriceTable::builtIn())
        m_prices = std::move(p.value());
    if (auto p = PowerTable::builtIn())
        m_power = std::move(p.value());

    m_runs = new QListWidget;
    m_runs->setObjectName(u"planRuns"_qs);
    m_runs->setToolTip(tr("Tick the stored runs whose deployments to plan with"));
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Runs from History")));
    leftLayout->addWidget(m_runs, 1);
    leftLayout->addWidget(buildInputs());

    m_message = new QLabel;
    m_message->setObjectName(u"planMessage"_qs);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_basis = new QLabel;
    m_basis->setWordWrap(true);
    m_basis->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, ColumnCount);
    m_table->setObjectName(u"planTable"_qs);
    m_table->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Deployment"), tr("tok/s per GPU"), tr("Users per GPU"), tr("Replicas"),
         tr("GPUs needed"), tr("$ per 1M tokens (point)"), tr("$ per 1M tokens (demand)"),
         tr("kWh per 1M tokens"), tr("Tokens per GPU-hour"), tr("Stored point"), tr("Price"),
         tr("Tier at the point"), tr("Binding constraint")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(
        Qt::Alignment::fromInt(Qt::AlignCenter | Qt::TextWordWrap));
    m_table->setWordWrap(true);
    m_table->setToolTip(tr("Double-click a row to open the run of its stored point in History"));
    m_chart = new ChartView;
    m_chart->setObjectName(u"planChart"_qs);
    m_chart->setEmptyText(tr("Tick a run with measured points to see its cost against SLO tightness."));

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_message);
    rightLayout->addWidget(m_basis);
    auto *results = new QSplitter(Qt::Vertical);
    results->addWidget(m_table);
    results->addWidget(m_chart);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    rightLayout->addWidget(results, 1);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({330, 1000});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_runs, &QListWidget::itemChanged, this, [this] { replan(); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const QTableWidgetItem *item = m_table->item(row, RankColumn);
        if (item && !item->data(RunRole).toString().isEmpty())
            emit pointActivated(item->data(RunRole).toString(), item->data(PointIdRole).toLongLong());
    });
    if (auto st = reloadRuns(); !st)
        showError(tr("Cannot read the ticked runs: %1").arg(qs(st.error().message)));
    else if (!m_prices)
        showError(tr("The shipped price table cannot be read."));
}

namespace {
// A form label whose mnemonic focuses `buddy` (QFormLayout sets no buddy for a row that is a layout).
QLabel *buddyLabel(const QString &text, QWidget *buddy)
{
    auto *label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}
} // namespace

QWidget *PlanPage::buildInputs()
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);

    m_demandKind = new QComboBox;
    m_demandKind->setObjectName(u"demandKind"_qs);
    m_demandKind->addItem(tr("output tok/s"), u"tps"_qs);
    m_demandKind->addItem(tr("concurrent users"), u"users"_qs);
    m_demandKind->addItem(tr("requests/s (× the phase's OSL)"), u"rps"_qs);
    m_demandValue = new QDoubleSpinBox;
    m_demandValue->setObjectName(u"demandValue"_qs);
    m_demandValue->setRange(0.01, 1e12);
    m_demandValue->setDecimals(2);
    m_demandValue->setGroupSeparatorShown(true);
    m_demandValue->setValue(100000);
    auto *demandRow = new QHBoxLayout;
    demandRow->addWidget(m_demandValue, 1);
    demandRow->addWidget(m_demandKind);
    form->addRow(buddyLabel(tr("&Demand"), m_demandValue), demandRow);

    m_tier = new QLineEdit(u"ttft_p90<=2000,tps_user>=20"_qs);
    m_tier->setObjectName(u"tier"_qs);
    m_tier->setToolTip(tr("Comma-separated limits: ttft_pNN, tpot_pNN, e2e_pNN ≤ ms; tps_user ≥ tok/s "
                          "per user (1000 / TPOT p90)"));
    form->addRow(tr("SLO &tier"), m_tier);

    m_headroom = new QDoubleSpinBox;
    m_headroom->setObjectName(u"headroom"_qs);
    m_headroom->setRange(0, 1000);
    m_headroom->setSuffix(u" %"_qs);
    m_headroom->setValue(10);
    form->addRow(tr("&Headroom"), m_headroom);

    m_priceKind = new QComboBox;
    m_priceKind->setObjectName(u"priceKind"_qs);
    if (m_prices)
        for (const std::string &k : m_prices->kinds())
            m_priceKind->addItem(qs(k), qs(k));
    m_priceKind->setCurrentIndex(qMax(0, m_priceKind->findData(u"on_demand"_qs)));
    form->addRow(tr("Price &kind"), m_priceKind);
    m_provider = new QComboBox;
    m_provider->setObjectName(u"priceProvider"_qs);
    m_priceFile = new QPushButton(tr("Price Table…"));
    m_priceFile->setToolTip(tr("Use a price table of your own (CSV in the format of gpu_prices.csv)"));
    auto *providerRow = new QHBoxLayout;
    providerRow->addWidget(m_provider, 1);
    providerRow->addWidget(m_priceFile);
    form->addRow(buddyLabel(tr("&Provider"), m_provider), providerRow);
    fillProviders();

    m_powerKind = new QComboBox;
    m_powerKind->setObjectName(u"powerKind"_qs);
    m_powerKind->addItem(tr("all-in kW per GPU (SemiAnalysis, later value)"), u"all_in"_qs);
    m_powerKind->addItem(tr("all-in kW per GPU (2026-04 value)"), u"all_in_2026_04"_qs);
    m_powerKind->addItem(tr("board TDP × utilisation (GPU only)"), u"board_tdp"_qs);
    m_powerKind->addItem(tr("measured DCGM energy (GPU only)"), u"measured_dcgm"_qs);
    m_utilisation = new QDoubleSpinBox;
    m_utilisation->setRange(0.01, 1);
    m_utilisation->setSingleStep(0.05);
    m_utilisation->setValue(1);
    m_utilisation->setEnabled(false);
    m_utilisation->setToolTip(tr("Stated utilisation of board TDP"));
    auto *powerRow = new QHBoxLayout;
    powerRow->addWidget(m_powerKind, 1);
    powerRow->addWidget(m_utilisation);
    form->addRow(buddyLabel(tr("P&ower"), m_powerKind), powerRow);

    m_reportButton = new QPushButton(tr("Report PDF…"));
    m_reportButton->setObjectName(u"planReport"_qs);
    m_reportButton->setToolTip(
        tr("The first ticked run's report with a “Capacity and cost” section for this plan"));
    form->addRow(QString(), m_reportButton);

    auto again = [this] { replan(); };
    connect(m_demandKind, &QComboBox::currentIndexChanged, this, again);
    connect(m_demandValue, &QDoubleSpinBox::valueChanged, this, again);
    connect(m_tier, &QLineEdit::editingFinished, this, again);
    connect(m_headroom, &QDoubleSpinBox::valueChanged, this, again);
    connect(m_priceKind, &QComboBox::currentIndexChanged, this, [this] {
        fillProviders();
        replan();
    });
    connect(m_provider, &QComboBox::currentIndexChanged, this, again);
    connect(m_powerKind, &QComboBox::currentIndexChanged, this, [this] {
        m_utilisation->setEnabled(m_powerKind->currentData().toString() == u"board_tdp");
        replan();
    });
    connect(m_utilisation, &QDoubleSpinBox::valueChanged, this, again);
    connect(m_priceFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Price table"), {},
                                                          tr("Price tables (*.csv);;All files (*)"));
        if (!path.isEmpty())
            if (auto s = usePriceFile(path); !s)
                showError(
                    tr("Cannot read the price table: %1").arg(CapacityNotes::translate(s.error().message)));
    });
    connect(m_reportButton, &QPushButton::clicked, this, &PlanPage::writeReport);
    return box;
}

void PlanPage::fillProviders()
{
    const QSignalBlocker block(m_provider);
    const QString keep = m_provider->currentData().toString();
    m_provider->clear();
    m_provider->addItem(tr("the kind's default"), QString());
    if (!m_prices)
        return;
    const std::string kind = m_priceKind->currentData().toString().toStdString();
    QStringList seen;
    for (const GpuPrice &p : m_prices->prices())
        if (p.kind == kind && !seen.contains(qs(p.provider)))
            seen << qs(p.provider);
    for (const QString &p : seen)
        m_provider->addItem(p, p);
    m_provider->setCurrentIndex(qMax(0, m_provider->findData(keep)));
}

Status PlanPage::usePriceFile(const QString &path)
{
    auto table = path.isEmpty() ? PriceTable::builtIn() : PriceTable::fromFiles(path.toStdString());
    if (!table)
        return table.error();
    m_prices = std::move(table.value());
    m_priceFilePath = path;
    const QString kind = m_priceKind->currentData().toString();
    {
        const QSignalBlocker block(m_priceKind);
        m_priceKind->clear();
        for (const std::string &k : m_prices->kinds())
            m_priceKind->addItem(qs(k), qs(k));
        m_priceKind->setCurrentIndex(qMax(0, m_priceKind->findData(kind)));
    }
    m_priceFile->setText(path.isEmpty() ? tr("Price Table…") : QFileInfo(path).fileName());
    fillProviders();
    replan();
    return Ok{};
}

Status PlanPage::reloadRuns()
{
    std::vector<RunSummary> runs;
    if (QFileInfo::exists(m_dbPath)) {
        HistoryReader reader;
        if (auto s = reader.open(m_dbPath.toStdString()); !s)
            return s;
        auto list = reader.listRuns();
        if (!list)
            return list.error();
        runs = std::move(list.value());
    }
    const QStringList keep = checkedRuns();
    {
        const QSignalBlocker block(m_runs);
        m_runs->clear();
        for (const RunSummary &r : runs) {
            auto *item = new QListWidgetItem(
                tr("%1 · %2 · %3 · %4")
                    .arg(qs(r.uuid.substr(0, 8)), qs(r.campaignName), qs(r.gpus), qs(r.startedUtc)),
                m_runs);
            item->setData(Qt::UserRole, qs(r.uuid));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(keep.contains(qs(r.uuid)) ? Qt::Checked : Qt::Unchecked);
        }
    }
    replan();
    return Ok{};
}

void PlanPage::setCheckedRuns(const QStringList &uuids)
{
    {
        const QSignalBlocker block(m_runs);
        for (int i = 0; i < m_runs->count(); ++i) {
            QListWidgetItem *item = m_runs->item(i);
            item->setCheckState(uuids.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked
                                                                                    : Qt::Unchecked);
        }
    }
    replan();
}

QStringList PlanPage::checkedRuns() const
{
    QStringList out;
    for (int i = 0; i < m_runs->count(); ++i)
        if (m_runs->item(i)->checkState() == Qt::Checked)
            out << m_runs->item(i)->data(Qt::UserRole).toString();
    return out;
}

QString PlanPage::basisText() const
{
    return m_basis->text();
}

QString PlanPage::message() const
{
    return m_message->text();
}

Result<PlanOptions> PlanPage::options() const
{
    PlanOptions o;
    const QString demand =
        m_demandKind->currentData().toString() + u'=' + QString::number(m_demandValue->value(), 'g', 15);
    auto d = parseDemand(demand.toStdString());
    if (!d)
        return d.error();
    o.demand = d.value();
    auto tier = parseTier(m_tier->text().toStdString());
    if (!tier)
        return tier.error();
    o.tier = tier.value();
    o.headroomPct = m_headroom->value();
    o.priceKind = m_priceKind->currentData().toString().toStdString();
    o.priceProvider = m_provider->currentData().toString().toStdString();
    auto power = parsePowerKind(m_powerKind->currentData().toString().toStdString());
    if (!power)
        return power.error();
    o.powerKind = power.value();
    o.boardUtilisation = m_utilisation->value();
    return o;
}

Status PlanPage::readCurves()
{
    const QStringList runs = checkedRuns();
    if (runs == m_curvesFor)
        return Ok{};
    m_curves.clear();
    m_curvesFor.clear();
    if (runs.isEmpty())
        return Ok{};
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    std::vector<std::string> ids;
    for (const QString &r : runs)
        ids.push_back(r.toStdString());
    auto curves = curvesFromHistory(reader, ids);
    if (!curves)
        return curves.error();
    m_curves = std::move(curves.value());
    m_curvesFor = runs;
    return Ok{};
}

void PlanPage::showError(const QString &text)
{
    m_error = true;
    m_message->setText(text);
    m_message->setStyleSheet(u"color: #b00020; font-weight: bold;"_qs);
}

void PlanPage::replan()
{
    m_plan.reset();
    m_costCurves.clear();
    m_error = false;
    m_message->setStyleSheet({});
    m_basis->clear();
    m_table->setRowCount(0);
    m_reportButton->setEnabled(false);
    auto finish = [this] { fillChart(); };
    if (!m_prices) {
        showError(tr("The price table cannot be read."));
        return finish();
    }
    if (auto s = readCurves(); !s) {
        showError(tr("Cannot read the ticked runs: %1").arg(CapacityNotes::translate(s.error().message)));
        return finish();
    }
    if (m_curves.empty()) {
        m_message->setText(checkedRuns().isEmpty()
                               ? tr("Tick one or more stored runs on the left: each scenario is a deployment "
                                    "to size and price.")
                               : tr("The ticked runs have no completed point with a throughput."));
        return finish();
    }
    auto o = options();
    if (!o) {
        showError(tr("Cannot plan: %1").arg(CapacityNotes::translate(o.error().message)));
        return finish();
    }
    if (!m_power) {
        showError(tr("The power table cannot be read."));
        return finish();
    }
    auto report = CapacityReport::compute(m_curves, o.value(), *m_prices, *m_power);
    if (!report) {
        // A GPU the kind does not price, a point without measured energy …: the planner's own words.
        showError(tr("Cannot plan: %1").arg(CapacityNotes::translate(report.error().message)));
        return finish();
    }
    m_plan = std::move(report->plan);
    m_costCurves = std::move(report->byTightness);
    m_basis->setText(CapacityTexts::basis(o.value()) +
                     (m_priceFilePath.isEmpty()
                          ? QString()
                          : tr(" Price table: %1.").arg(QDir::toNativeSeparators(m_priceFilePath))));
    if (m_plan->anyMeets())
        m_message->setText(tr("%n deployment(s) meet the tier; the cheapest per 1M output tokens first.", "",
                              int(m_plan->ranked.size())));
    else
        showError(CapacityNotes::translate(m_plan->noneMeetsMessage()));
    m_reportButton->setEnabled(true);
    fillTable();
    finish();
}

void PlanPage::fillTable()
{
    int rank = 0;
    for (const DeploymentPlan &d : m_plan->ranked)
        addRow(++rank, d);
    for (const DeploymentPlan &d : m_plan->failing)
        addRow(0, d);
    fitColumns();
}

void PlanPage::fitColumns()
{
    // A column is as wide as its widest cell or its header's longest word (headers wrap); names and the
    // explanations wrap beyond a cap. So the numbers that decide stay in view on a 1440-px screen.
    QHeaderView *header = m_table->horizontalHeader();
    const QFontMetrics headerFm(header->font());
    const QFontMetrics cellFm(m_table->font());
    const int margin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 8;
    int headerHeight = 0;
    for (int c = 0; c < ColumnCount; ++c) {
        int width = 0;
        for (const QString &word : m_table->horizontalHeaderItem(c)->text().split(u' '))
            width = std::max(width, headerFm.horizontalAdvance(word) + margin);
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (const QTableWidgetItem *item = m_table->item(r, c))
                width = std::max(width, cellFm.horizontalAdvance(item->text()) + margin);
        if (c == DeploymentColumn || c >= PointColumn)
            width = std::min(width, cellFm.averageCharWidth() * 34);
        m_table->setColumnWidth(c, width);
        // QHeaderView (Qt 6.4) sizes its height for one line; wrapped titles need room for theirs.
        const QRect text =
            headerFm.boundingRect(QRect(0, 0, width - margin, 1000), Qt::AlignCenter | Qt::TextWordWrap,
                                  m_table->horizontalHeaderItem(c)->text());
        headerHeight = std::max(headerHeight, text.height() + margin);
    }
    header->setMinimumHeight(headerHeight);
    m_table->resizeRowsToContents();
}

void PlanPage::addRow(int rank, const DeploymentPlan &d)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const double utilisation = m_utilisation->value();
    const QString cells[ColumnCount] = {
        rank > 0 ? QString::number(rank) : tr("does not meet"),
        qs(deploymentName(d.deployment)),
        CapacityTexts::number(d.tpsPerGpu, 1),
        d.usersPerGpu > 0 ? CapacityTexts::number(d.usersPerGpu, 1) : tr("n/a"),
        CapacityTexts::number(d.replicas),
        CapacityTexts::gpus(d),
        CapacityTexts::money(d.usdPer1MOutputTokens),
        CapacityTexts::money(d.usdPer1MOutputTokensAtDemand),
        CapacityTexts::number(d.kwhPer1MOutputTokens, 3),
        CapacityTexts::number(d.tokensPerGpuHour),
        CapacityTexts::point(d) + u" · "_qs + CapacityTexts::origin(d.point),
        CapacityTexts::price(d),
        CapacityTexts::checks(d),
        rank > 0 ? CapacityNotes::translate(d.binding) : tr("the tier is not met at the closest point"),
    };
    // Every number of the row comes from this one stored point: its id travels with every cell.
    const QString from =
        tr("From %1 (%2 tok/s); GPUs if replicas could be any size: %3 (not measured). "
           "Energy: %4. Double-click to open the run in History.")
            .arg(CapacityTexts::point(d), CapacityTexts::number(d.point.systemTps),
                 CapacityTexts::number(d.gpusAtPerGpuRate), CapacityTexts::power(d, utilisation));
    for (int c = 0; c < ColumnCount; ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setData(RunRole, qs(d.point.runUuid));
        item->setData(PointIdRole, qlonglong(d.point.pointId));
        item->setToolTip(from);
        if (c >= TpsPerGpuColumn && c <= TokensPerGpuHourColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (rank == 0)
            item->setForeground(QColor(120, 120, 120));
        m_table->setItem(row, c, item);
    }
}

void PlanPage::fillChart()
{
    m_chart->setChart(CapacityTexts::costVsTightness(m_costCurves));
}

void PlanPage::writeReport()
{
    const QStringList runs = checkedRuns();
    auto o = options();
    if (runs.isEmpty() || !o || !m_prices || !m_power)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Report with capacity and cost"), runs.front().left(8) + u"-plan.pdf"_qs, tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    auto st = [&]() -> Status {
        HistoryReader reader;
        if (auto s = reader.open(m_dbPath.toStdString()); !s)
            return s;
        auto data = ReportData::fromHistory(reader, runs.front().toStdString());
        if (!data)
            return data.error();
        auto capacity = CapacityReport::compute(m_curves, o.value(), *m_prices, *m_power);
        if (!capacity)
            return capacity.error();
        data->capacity = std::move(capacity.value());
        return ReportWriter::write(data.value(), path);
    }();
    if (!st)
        showError(tr("Cannot write the report: %1").arg(qs(st.error().message)));
    else
        emit statusMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace Throughline
