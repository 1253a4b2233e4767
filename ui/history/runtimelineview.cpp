#include "ui/history/runtimelineview.h"

#include "core/telemetry/commonseries.h"
#include "ui/history/chartview.h"
#include "ui/history/historyservice.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
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

ChartSeries line(const QString &name, const QList<QPointF> &points, Qt::PenStyle pen = Qt::SolidLine)
{
    ChartSeries s;
    s.name = name;
    for (const QPointF &p : points)
        s.points.append(p);
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
        m_charts[i]->setEmptyText(
            tr("Not recorded for this scenario (no request rows or server telemetry)."));
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

void RunTimelineView::setHistoryService(HistoryService *service)
{
    m_service = service;
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

void RunTimelineView::listScenarios(const RunDetail &detail)
{
    clear();
    m_run = detail;
    const QSignalBlocker block(m_scenario);
    for (const ScenarioRow &s : m_run.scenarios)
        m_scenario->addItem(qs(s.key), s.index);
}

void RunTimelineView::setRun(const RunDetail &detail)
{
    listScenarios(detail);
    if (!m_run.scenarios.empty())
        if (auto s = showScenario(m_run.scenarios.front().index); !s)
            emit statusMessage(qs(s.error().message));
}

void RunTimelineView::setRun(const RunDetail &detail, const std::optional<HistoryLoads::TimelineData> &first,
                             const std::string &firstError)
{
    listScenarios(detail);
    if (first)
        apply(*first);
    else if (!firstError.empty())
        emit statusMessage(qs(firstError));
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
    if (!m_service) {
        auto data = HistoryLoads::timeline(m_dbPath.toStdString(), m_run, scenarioIndex);
        if (!data)
            return data.error();
        apply(*data);
        return Ok{};
    }
    m_service->request(
        HistoryService::Channel::Timeline, this,
        [db = m_dbPath.toStdString(), run = m_run, scenarioIndex] {
            return HistoryLoads::timeline(db, run, scenarioIndex);
        },
        [this](Result<HistoryLoads::TimelineData> data) {
            if (!data)
                emit statusMessage(qs(data.error().message));
            else if (data->uuid == m_run.summary.uuid) // not a scenario of a run shown before
                apply(*data);
        });
    return Ok{};
}

void RunTimelineView::apply(const HistoryLoads::TimelineData &data)
{
    const int comboIndex = m_scenario->findData(data.scenarioIndex);
    if (comboIndex >= 0 && m_scenario->currentIndex() != comboIndex) {
        const QSignalBlocker block(m_scenario);
        m_scenario->setCurrentIndex(comboIndex);
    }
    m_timeline = data.timeline;
    const std::vector<StoredTelemetrySeries> &series = data.telemetry;
    const QList<ChartReferenceLine> &markers = data.markers;
    m_telemetrySeries = 0;

    std::array<Chart, PanelCount> charts;
    const QString time = tr("run time (s)");
    for (Chart &c : charts) {
        c.xLabel = time;
        c.xFromZero = false;
        c.references = markers;
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
                        .arg(data.databaseHasTelemetry ? QString() : tr(" (database without telemetry)")));
}

} // namespace Throughline
