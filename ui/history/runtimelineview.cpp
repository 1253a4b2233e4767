#include "ui/history/runtimelineview.h"

#include "core/storage/historyreader.h"
#include "core/storage/telemetryreader.h"
#include "core/telemetry/commonseries.h"
#include "ui/history/chartview.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString loadLabel(const nlohmann::json &config, int pointIndex)
{
    const nlohmann::json load =
        config.is_object() ? config.value("load", nlohmann::json::object()) : nlohmann::json::object();
    if (load.is_object() && load.contains("concurrency"))
        return u"C="_qs + qs(load["concurrency"].dump());
    if (load.is_object() && load.contains("rate"))
        return qs(load["rate"].dump()) + u"/s"_qs;
    return u"#"_qs + QString::number(pointIndex);
}

// "GPU 0", "engine=1", … from the stored labels; empty when the series has none.
QString labelText(const nlohmann::json &labels)
{
    QStringList parts;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        const QString v = it->is_string() ? qs(it->get<std::string>()) : qs(it->dump());
        parts << (it.key() == "gpu" ? QString(u"GPU "_qs + v) : QString(qs(it.key()) + u'=' + v));
    }
    return parts.join(u", "_qs);
}

ReportChartRenderer::Series line(const QString &name, const QList<QPointF> &points,
                                 Qt::PenStyle pen = Qt::SolidLine)
{
    ReportChartRenderer::Series s;
    s.name = name;
    s.points = points;
    s.dots = points.size() <= 40; // dense series read better as lines
    s.pen = pen;
    return s;
}

} // namespace

RunTimelineView::RunTimelineView(QWidget *parent)
    : QWidget(parent)
    , m_scenario(new QComboBox)
    , m_info(new QLabel)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Scenario:")));
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_scenario);
    m_info->setWordWrap(true);
    bar->addWidget(m_info, 1);
    layout->addLayout(bar);
    auto *grid = new QGridLayout;
    grid->setSpacing(2);
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        m_charts[i] = new ChartView;
        m_charts[i]->setMinimumSize(200, 120);
        grid->addWidget(m_charts[i], int(i) / 4, int(i) % 4);
    }
    layout->addLayout(grid, 1);
    connect(m_scenario, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0)
            return;
        if (auto s = showScenario(m_scenario->itemData(i).toInt()); !s)
            emit statusMessage(qs(s.error().message));
    });
    clear();
}

void RunTimelineView::clear()
{
    m_run = RunDetail{};
    m_timeline = RunTimeline::Series{};
    m_telemetrySeries = 0;
    const QSignalBlocker block(m_scenario);
    m_scenario->clear();
    m_info->clear();
    for (ChartView *c : m_charts)
        c->setChart({});
}

void RunTimelineView::setRun(const RunDetail &detail)
{
    clear();
    m_run = detail;
    {
        const QSignalBlocker block(m_scenario);
        for (const ScenarioRow &s : m_run.scenarios)
            m_scenario->addItem(qs(s.key), s.index);
    }
    if (!m_run.scenarios.empty())
        if (auto s = showScenario(m_run.scenarios.front().index); !s)
            emit statusMessage(qs(s.error().message));
}

Status RunTimelineView::showScenario(int scenarioIndex)
{
    const int comboIndex = m_scenario->findData(scenarioIndex);
    if (comboIndex < 0)
        return makeError(ErrorCode::NotFound, "scenario " + std::to_string(scenarioIndex) +
                                                  " is not in run " + m_run.summary.uuid);
    if (m_scenario->currentIndex() != comboIndex) {
        const QSignalBlocker block(m_scenario);
        m_scenario->setCurrentIndex(comboIndex);
    }
    HistoryReader reader;
    if (auto s = reader.open(m_dbPath.toStdString()); !s)
        return s;
    // Every stored row of the scenario's points (warm-up included: it loads the server like the rest).
    std::vector<RequestRow> rows;
    QList<ReportChartRenderer::Marker> markers;
    for (const PointRow &p : m_run.points) {
        if (p.scenarioIndex != scenarioIndex)
            continue;
        auto r = reader.requests(p.id, true);
        if (!r)
            return r.error();
        std::int64_t firstSend = std::numeric_limits<std::int64_t>::max();
        for (const RequestRow &row : *r)
            if (row.tSendNs != kNoTime)
                firstSend = std::min(firstSend, row.tSendNs);
        if (firstSend != std::numeric_limits<std::int64_t>::max())
            markers.append({true, double(firstSend) / 1e9, loadLabel(p.config, p.pointIndex)});
        rows.insert(rows.end(), std::make_move_iterator(r->begin()), std::make_move_iterator(r->end()));
    }
    m_timeline = RunTimeline::compute(rows);

    TelemetryReader telemetry;
    std::vector<StoredTelemetrySeries> series;
    QString telemetryNote;
    if (auto s = telemetry.open(m_dbPath.toStdString()); !s)
        return s;
    TelemetryQuery q;
    q.scenarioIndex = scenarioIndex;
    auto got = telemetry.series(m_run.summary.uuid, q);
    if (!got)
        return got.error();
    series = std::move(*got);
    m_telemetrySeries = 0;

    using Chart = ReportChartRenderer::Chart;
    std::array<Chart, PanelCount> charts;
    const QString time = tr("run time (s)");
    for (Chart &c : charts) {
        c.xLabel = time;
        c.xFromZero = false;
        c.markers = markers;
    }
    charts[Throughput].title = tr("Output tokens/s");
    charts[Throughput].yLabel = tr("tokens/s");
    charts[Throughput].series.append(line(tr("client, by completion"), m_timeline.outputTps));
    charts[Ttft].title = tr("TTFT percentiles");
    charts[Ttft].yLabel = tr("ms");
    charts[Ttft].series = {line(tr("p50"), m_timeline.ttftP50),
                           line(tr("p90"), m_timeline.ttftP90, Qt::DashLine),
                           line(tr("p99"), m_timeline.ttftP99, Qt::DotLine)};
    charts[Tpot].title = tr("TPOT percentiles");
    charts[Tpot].yLabel = tr("ms");
    charts[Tpot].series = {line(tr("p50"), m_timeline.tpotP50),
                           line(tr("p90"), m_timeline.tpotP90, Qt::DashLine),
                           line(tr("p99"), m_timeline.tpotP99, Qt::DotLine)};
    charts[InFlight].title = tr("In flight and server queue");
    charts[InFlight].yLabel = tr("requests");
    charts[InFlight].series.append(line(tr("client in flight"), m_timeline.inFlight));
    charts[KvCache].title = tr("KV-cache usage");
    charts[KvCache].yLabel = tr("%");
    charts[GpuUtil].title = tr("GPU utilisation");
    charts[GpuUtil].yLabel = tr("%");
    charts[GpuPower].title = tr("GPU power");
    charts[GpuPower].yLabel = tr("W");
    charts[PromptTps].title = tr("Server prompt tokens/s");
    charts[PromptTps].yLabel = tr("tokens/s");

    struct Mapping {
        const char *metric;
        Panel panel;
        const char *name; // translated below
        double scale;
    };
    const Mapping mappings[] = {
        {CommonSeries::kGenerationTps, Throughput, QT_TR_NOOP("server generation"), 1.0},
        {CommonSeries::kRunning, InFlight, QT_TR_NOOP("server running"), 1.0},
        {CommonSeries::kWaiting, InFlight, QT_TR_NOOP("server waiting"), 1.0},
        {CommonSeries::kKvCacheUsage, KvCache, QT_TR_NOOP("KV cache"), 100.0},
        {CommonSeries::kGpuUtilPct, GpuUtil, QT_TR_NOOP("utilisation"), 1.0},
        {CommonSeries::kGpuPowerW, GpuPower, QT_TR_NOOP("power"), 1.0},
        {CommonSeries::kPromptTps, PromptTps, QT_TR_NOOP("server prompt"), 1.0},
    };
    for (const StoredTelemetrySeries &s : series) {
        for (const Mapping &m : mappings) {
            if (s.metric != m.metric)
                continue;
            QList<QPointF> pts;
            pts.reserve(qsizetype(s.samples.size()));
            for (const TelemetrySample &x : s.samples)
                pts.append(QPointF(double(x.tNs) / 1e9, x.value * m.scale));
            const QString labels = labelText(s.labels);
            const QString name = labels.isEmpty() ? tr(m.name) : labels;
            charts[m.panel].series.append(
                line(name, pts, m.panel == Throughput || m.panel == InFlight ? Qt::DashLine : Qt::SolidLine));
            ++m_telemetrySeries;
        }
    }
    for (Panel p : {KvCache, GpuUtil, GpuPower, PromptTps})
        if (charts[p].series.isEmpty())
            charts[p].title = tr("%1 — not stored").arg(charts[p].title);
    for (std::size_t i = 0; i < charts.size(); ++i)
        m_charts[i]->setChart(charts[i]);

    m_info->setText(tr("%n request(s), %1 output tokens, buckets of %2 s; %3 telemetry series%4", nullptr,
                       m_timeline.requests)
                        .arg(m_timeline.outputTokens)
                        .arg(m_timeline.bucketS)
                        .arg(m_telemetrySeries)
                        .arg(telemetry.hasTelemetry() ? QString() : tr(" (database without telemetry)")));
    return Ok{};
}

} // namespace Throughline
