#include "ui/history/historycomparewidget.h"

#include "core/storage/historyreader.h"
#include "ui/history/chartview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/exportactions.h"
#include "ui/history/rundeltas.h"
#include "ui/report/reportwriter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

HistoryCompareWidget::HistoryCompareWidget(QWidget *parent)
    : QWidget(parent)
    , m_derive(new DeriveControls)
    , m_stepMode(new QCheckBox(tr("Step function (MLPerf)")))
    , m_barMetric(new QComboBox)
    , m_chart(new ChartView)
    , m_bars(new ChartView)
    , m_deltas(new QTableWidget(0, 7))
    , m_env(new QTableWidget)
    , m_deltasNote(new QLabel)
{
    auto *cl = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    connect(m_derive, &DeriveControls::variantChanged, this, [this] {
        if (auto s = refresh(); !s)
            emit statusMessage(qs(s.error().message));
    });
    bar->addWidget(m_derive, 1);
    m_stepMode->setToolTip(tr("Draw the overlaid curves as MLPerf Endpoints step functions."));
    connect(m_stepMode, &QCheckBox::toggled, this, [this](bool on) {
        ReportChartRenderer::Chart chart = m_chart->chart();
        RunComparison::setStepMode(chart, on);
        m_chart->setChart(chart);
    });
    bar->addWidget(m_stepMode);
    bar->addWidget(new QLabel(tr("Bars:")));
    m_barMetric->addItem(tr("output tok/s per GPU at the operating point"),
                         int(RunComparison::BarMetric::OutputTpsPerGpu));
    m_barMetric->addItem(tr("TTFT p99"), int(RunComparison::BarMetric::TtftP99));
    m_barMetric->addItem(tr("TPOT p99"), int(RunComparison::BarMetric::TpotP99));
    connect(m_barMetric, &QComboBox::currentIndexChanged, this, [this] {
        if (auto s = refresh(); !s)
            emit statusMessage(qs(s.error().message));
    });
    bar->addWidget(m_barMetric);
    cl->addLayout(bar);

    auto *plots = new QSplitter(Qt::Horizontal);
    plots->addWidget(m_chart);
    plots->addWidget(m_bars);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 2);
    cl->addWidget(plots, 3);

    m_deltasNote->setWordWrap(true);
    cl->addWidget(m_deltasNote);
    m_deltas->setHorizontalHeaderLabels({tr("Candidate"), tr("Scenario"), tr("Metric"), tr("Baseline"),
                                         tr("Candidate value"), tr("Δ %"), tr("")});
    m_deltas->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_env->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_deltas);
    tables->addWidget(m_env);
    cl->addWidget(tables, 2);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        buttons->addWidget(b);
    };
    button(tr("Export bars…"), [this] { ExportActions::exportChart(this, m_bars); });
    button(tr("Export plot…"), [this] { ExportActions::exportChart(this, m_chart); });
    button(tr("Deltas CSV…"), [this] { ExportActions::exportTable(this, m_deltas->model(), false); });
    button(tr("Copy deltas"), [this] { ExportActions::exportTable(this, m_deltas->model(), true); });
    cl->addLayout(buttons);
}

Status HistoryCompareWidget::compareRuns(const QStringList &uuids)
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
    const std::vector<ReportData> previous = std::move(m_compared);
    m_compared = std::move(runs);
    if (auto s = refresh(); !s) {
        m_compared = previous;
        return s;
    }
    fillEnvironment();
    return Ok{};
}

Status HistoryCompareWidget::refresh()
{
    if (m_compared.size() < 2)
        return Ok{};
    const DeriveVariant variant = m_derive->variant();
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    std::vector<RunComparison::RunValues> values;
    for (const ReportData &r : m_compared) {
        auto v = RunComparison::values(reader, r, variant);
        if (!v)
            return v.error();
        values.push_back(std::move(*v));
    }
    ReportChartRenderer::Chart chart = variant == DeriveVariant{}
                                           ? RunComparison::overlay(m_compared)
                                           : RunComparison::overlay(m_compared, values, variant);
    chart.title = tr("Baseline %1 vs %n candidate(s)", nullptr, int(m_compared.size() - 1))
                      .arg(RunComparison::shortId(m_compared.front()));
    RunComparison::setStepMode(chart, m_stepMode->isChecked());
    m_chart->setChart(chart);

    // Bars: latency metrics are p99 by definition; window and divisor follow the variant.
    const auto metric = RunComparison::BarMetric(m_barMetric->currentData().toInt());
    DeriveVariant barVariant = variant;
    std::vector<RunComparison::RunValues> barValues;
    if (metric != RunComparison::BarMetric::OutputTpsPerGpu && variant.percentile != 99) {
        barVariant.percentile = 99;
        for (const ReportData &r : m_compared) {
            auto v = RunComparison::values(reader, r, barVariant);
            if (!v)
                return v.error();
            barValues.push_back(std::move(*v));
        }
    }
    ReportChartRenderer::Chart bars =
        RunComparison::phaseBars(m_compared, barValues.empty() ? values : barValues, metric, barVariant);
    // The metric is the y label; the title names the variant (the long metric name would be clipped).
    bars.title = tr("Per phase (%1)").arg(barVariant.label());
    m_bars->setChart(bars);
    fillDeltas(values, variant);
    return Ok{};
}

void HistoryCompareWidget::fillDeltas(const std::vector<RunComparison::RunValues> &values,
                                      const DeriveVariant &variant)
{
    m_deltas->setRowCount(0);
    bool mixed = false;
    for (std::size_t i = 1; i < m_compared.size() && i < values.size(); ++i)
        for (const RunDeltas::Row &r :
             RunDeltas::compute(m_compared.front(), values.front(), m_compared[i], values[i], variant)) {
            const int row = m_deltas->rowCount();
            m_deltas->insertRow(row);
            const QString mark = r.better > 0                ? tr("better")
                                 : r.better < 0              ? tr("worse")
                                 : std::isfinite(r.deltaPct) ? tr("same")
                                                             : tr("n/a");
            const bool derivedBoth = r.baselineDerived && r.candidateDerived;
            mixed = mixed || (variant.rederive && !derivedBoth);
            const QStringList cells{r.candidateRun,
                                    r.scenario,
                                    r.metric,
                                    ReportWriter::number(r.baseline, 2),
                                    ReportWriter::number(r.candidate, 2),
                                    ReportWriter::number(r.deltaPct, 1),
                                    mark};
            const QString tip =
                (r.higherBetter ? tr("Higher is better.") : tr("Lower is better.")) + u' ' +
                (!variant.rederive ? tr("Stored values.")
                 : derivedBoth     ? tr("Both values re-derived.")
                                   : tr("Baseline %1, candidate %2.")
                                     .arg(r.baselineDerived ? tr("re-derived") : tr("stored"),
                                          r.candidateDerived ? tr("re-derived") : tr("stored")));
            for (int c = 0; c < cells.size(); ++c) {
                auto *item = new QTableWidgetItem(cells[c]);
                item->setToolTip(tip);
                if (r.better != 0)
                    item->setBackground(r.better > 0 ? QColor(200, 235, 200) : QColor(245, 195, 195));
                m_deltas->setItem(row, c, item);
            }
        }
    QString note = tr("Deltas at the operating points, %1.").arg(variant.label());
    if (mixed)
        note += u' ' + tr("Some values could not be re-derived (imported runs or pruned events) and are the "
                          "stored ones: see the tooltips.");
    int storedThroughput = 0;
    for (const RunComparison::RunValues &run : values)
        for (const auto &scenario : run)
            for (const DerivedValues &v : scenario)
                storedThroughput += v.storedThroughput ? 1 : 0;
    m_derive->setStoredThroughputPoints(storedThroughput);
    m_deltasNote->setText(note);
}

void HistoryCompareWidget::fillEnvironment()
{
    const auto env = RunComparison::environmentDiff(m_compared);
    m_env->clear();
    m_env->setColumnCount(int(m_compared.size()) + 1);
    QStringList headers{tr("Environment")};
    for (const ReportData &r : m_compared)
        headers << RunComparison::shortId(r);
    m_env->setHorizontalHeaderLabels(headers);
    m_env->setRowCount(int(env.size()));
    for (int i = 0; i < int(env.size()); ++i) {
        m_env->setItem(i, 0, new QTableWidgetItem(env[i].key));
        for (int c = 0; c < env[i].values.size(); ++c)
            m_env->setItem(i, c + 1, new QTableWidgetItem(env[i].values[c]));
    }
}

} // namespace Throughline
