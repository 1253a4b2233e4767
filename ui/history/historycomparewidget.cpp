#include "ui/history/historycomparewidget.h"

#include "ui/history/chartview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/exportactions.h"
#include "ui/history/historyservice.h"
#include "ui/history/rundeltas.h"
#include "ui/report/comparisoncomposer.h"
#include "ui/report/mlperfcharts.h"
#include "ui/report/reportwriter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
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
    , m_mlperf(new QTableWidget(0, 6))
    , m_deltasNote(new QLabel)
{
    auto *cl = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    const QString pick =
        tr("Select 2–8 runs in the list (Ctrl+click) and press Compare; the first is the baseline.");
    m_chart->setEmptyText(pick);
    m_bars->setEmptyText(pick);
    connect(m_derive, &DeriveControls::variantChanged, this, [this] {
        if (auto s = refresh(); !s)
            emit statusMessage(qs(s.error().message));
    });
    bar->addWidget(m_derive, 1);
    m_stepMode->setToolTip(tr("Draw the overlaid curves as MLPerf Endpoints step functions."));
    connect(m_stepMode, &QCheckBox::toggled, this, [this](bool on) {
        Chart chart = m_chart->chart();
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
                                         tr("Candidate value"), tr("Δ %"), tr("Outcome")});
    m_deltas->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_env->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_deltas);
    tables->addWidget(m_env);
    m_mlperf->setHorizontalHeaderLabels({tr("Candidate"), tr("Scenario"), tr("MLPerf frontier"),
                                         tr("Baseline"), tr("Candidate value"), tr("Share")});
    m_mlperf->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_mlperf->setToolTip(
        tr("The official MLPerf Endpoints frontier of each candidate against the baseline's: its "
           "area over the interactivity both curves cover and its throughput at round "
           "interactivity levels inside that range. Share = candidate ÷ baseline."));
    m_mlperf->hide();
    tables->setStretchFactor(0, 3); // the deltas and their outcome first; the environment diff beside them
    tables->setStretchFactor(1, 1);
    cl->addWidget(tables, 2);
    cl->addWidget(m_mlperf, 1); // full width: its figure names are long; shown only for MLPerf runs

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    auto button = [&](const QString &text, auto slot) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        buttons->addWidget(b);
        return b;
    };
    button(tr("Comparison PDF…"), [this] { exportComparisonPdf(); })
        ->setToolTip(tr("The comparison report of these runs as a PDF, as throughline-cli report --compare "
                        "writes it: overlaid frontiers, deltas at the operating points (stored values), "
                        "verdict changes and what changed in the environment."));
    button(tr("Export bars…"), [this] { ExportActions::exportChart(this, m_bars); });
    button(tr("Export plot…"), [this] { ExportActions::exportChart(this, m_chart); });
    button(tr("Deltas CSV…"), [this] { ExportActions::exportTable(this, m_deltas->model(), false); });
    button(tr("Copy deltas"), [this] { ExportActions::exportTable(this, m_deltas->model(), true); });
    cl->addLayout(buttons);
}

void HistoryCompareWidget::setHistoryService(HistoryService *service)
{
    m_service = service;
}

Status HistoryCompareWidget::compareRuns(const QStringList &uuids)
{
    if (uuids.size() < 2 || uuids.size() > RunComparison::kMaxRuns)
        return makeError(ErrorCode::InvalidInput,
                         "select 2 to 8 runs to compare (selected " + std::to_string(uuids.size()) + ")");
    return load(uuids);
}

Status HistoryCompareWidget::load(const QStringList &uuids)
{
    auto work = [db = m_dbPath.toStdString(), uuids, variant = m_derive->variant(),
                 metric = RunComparison::BarMetric(m_barMetric->currentData().toInt())] {
        return HistoryLoads::comparison(db, uuids, variant, metric);
    };
    if (!m_service) {
        auto data = work();
        if (!data)
            return data.error();
        apply(std::move(*data));
        return Ok{};
    }
    m_requested = uuids;
    m_service->request(HistoryService::Channel::Compare, this, std::move(work),
                       [this](Result<HistoryLoads::ComparisonData> data) {
                           m_requested.clear();
                           if (!data)
                               emit statusMessage(qs(data.error().message));
                           else
                               apply(std::move(*data));
                       });
    return Ok{};
}

void HistoryCompareWidget::apply(HistoryLoads::ComparisonData data)
{
    // The variant or the bar metric may have changed while the read was under way: read again.
    const auto metric = RunComparison::BarMetric(m_barMetric->currentData().toInt());
    const bool barsNeedP99 =
        metric != RunComparison::BarMetric::OutputTpsPerGpu && data.variant.percentile != 99;
    if (data.variant != m_derive->variant() || barsNeedP99 != !data.barValues.empty()) {
        if (auto s = load(data.uuids); !s)
            emit statusMessage(qs(s.error().message));
        return;
    }
    m_compared = std::move(data.runs);
    m_comparedUuids = data.uuids;
    const DeriveVariant &variant = data.variant;
    Chart chart = variant == DeriveVariant{} ? RunComparison::overlay(m_compared)
                                             : RunComparison::overlay(m_compared, data.values, variant);
    chart.title = tr("Baseline %1 vs %n candidate(s)", nullptr, int(m_compared.size() - 1))
                      .arg(RunComparison::shortId(m_compared.front()));
    RunComparison::setStepMode(chart, m_stepMode->isChecked());
    m_chart->setChart(chart);
    Chart bars = RunComparison::phaseBars(m_compared, data.barValues.empty() ? data.values : data.barValues,
                                          metric, data.barVariant);
    // The metric is the y label; the title names the variant (the long metric name would be clipped).
    bars.title = tr("Per phase (%1)").arg(data.barVariant.label());
    m_bars->setChart(bars);
    fillDeltas(data.values, variant);
    fillEnvironment();
    fillMlperf();
    emit compared();
}

Status HistoryCompareWidget::writeComparisonPdf(const QString &path) const
{
    if (m_compared.size() < 2)
        return makeError(ErrorCode::InvalidInput,
                         "compare 2 to 8 runs first (select them and press Compare)");
    return ReportWriter::writeComparison(m_compared, path, ReportWriter::Options{});
}

void HistoryCompareWidget::exportComparisonPdf()
{
    const QString title = tr("Comparison PDF");
    if (m_compared.size() < 2) {
        QMessageBox::information(this, title,
                                 tr("Select 2–8 runs in the list (Ctrl+click) and press Compare first."));
        return;
    }
    const QString suggested = u"compare-%1.pdf"_qs.arg(RunComparison::shortId(m_compared.front()));
    const QString f = QFileDialog::getSaveFileName(this, title, suggested, tr("PDF (*.pdf)"));
    if (f.isEmpty())
        return;
    if (auto s = writeComparisonPdf(f); !s)
        QMessageBox::warning(this, title, qs(s.error().message));
    else
        emit statusMessage(tr("Comparison report written to %1").arg(f));
}

Status HistoryCompareWidget::refresh()
{
    if (!m_requested.isEmpty())
        return load(m_requested);
    if (m_compared.size() < 2)
        return Ok{};
    return load(m_comparedUuids);
}

// How the row's mark was reached, for its tooltip.
QString HistoryCompareWidget::judgementText(const RunDeltas::Row &r)
{
    if (!r.outcome)
        return tr("No interval on both sides: marked by the ±1 % rule.");
    if (*r.outcome == ComparisonOutcome::NotEnoughData)
        return tr("An interval is open: not enough data to judge beyond noise.");
    return tr("Change %1 % [%2, %3] at %4 %; judged beyond noise (Holm over the candidate's rows with "
              "intervals, 1 % noise floor per run).")
        .arg(ReportWriter::number(r.effect.estimate * 100, 1), ReportWriter::number(r.effect.lower * 100, 1),
             ReportWriter::number(r.effect.upper * 100, 1), ReportWriter::number(r.effect.level * 100, 0));
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
            const QString mark = r.outcome                   ? ComparisonComposer::outcomeText(*r.outcome)
                                 : r.better > 0              ? tr("better")
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
                                          r.candidateDerived ? tr("re-derived") : tr("stored"))) +
                u' ' + judgementText(r);
            for (int c = 0; c < cells.size(); ++c) {
                auto *item = new QTableWidgetItem(cells[c]);
                item->setToolTip(tip);
                if (r.better != 0)
                    item->setBackground(r.better > 0 ? QColor(200, 235, 200) : QColor(245, 195, 195));
                m_deltas->setItem(row, c, item);
            }
        }
    m_deltas->resizeColumnsToContents(); // the outcome column in view, not behind a scroll bar
    QString note = tr("Deltas at the operating points, %1.").arg(variant.label()) + u' ' +
                   tr("Stored values with intervals are judged beyond noise (regressed, improved, within "
                      "noise); the others by ±1 % (better, worse, same).");
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

void HistoryCompareWidget::fillMlperf()
{
    m_mlperf->setRowCount(0);
    for (std::size_t c = 1; c < m_compared.size(); ++c)
        for (const MlperfCharts::ComparisonRow &r :
             MlperfCharts::comparisonRows(m_compared[c], m_compared.front())) {
            const int row = m_mlperf->rowCount();
            m_mlperf->insertRow(row);
            const QStringList cells{RunComparison::shortId(m_compared[c]),
                                    r.scenario,
                                    r.figure,
                                    r.baseline,
                                    r.candidate,
                                    r.share};
            for (int k = 0; k < cells.size(); ++k)
                m_mlperf->setItem(row, k, new QTableWidgetItem(cells[k]));
        }
    m_mlperf->resizeColumnsToContents();
    m_mlperf->setVisible(m_mlperf->rowCount() > 0);
}

} // namespace Throughline
